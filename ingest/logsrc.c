/* logsrc: line reader over plain, zstd and gzip logs. Method: one text
 * buffer holding decompressed bytes [start, end); memchr finds newlines from
 * `scanned` on, so a long line is scanned once; when no newline is left the
 * partial line moves to the front and the buffer is refilled, doubling it
 * when one line fills it. Compressed input goes through a second, fixed
 * buffer (ZSTD_decompressStream, which walks over frame boundaries itself;
 * zlib inflate with windowBits 15+32, reset at each gzip member end). The
 * fingerprint is XXH3-64 streamed over each run of text as it is appended.
 * A resting source (nr_logsrc_rest) keeps its text and how much it has
 * read, and nothing else of its reading. */
#include "logsrc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xxh_x86dispatch.h> /* XXH3 on AVX2/AVX-512 when the CPU has them */
#endif
#include <zlib.h>
#include <zstd.h>

#define NR__LOGSRC_CHUNK ((size_t)1 << 20)
#define NR__LOGSRC_MIN_READ ((size_t)16 << 10)
/* The first read, which sniffs the compression: small, since a log opened
 * only for its first lines (ingest's prescan, or the first lines' time of
 * each of a -ff run's thousands of logs) would otherwise pay for a
 * megabyte of fresh pages (3.6 ms here; docs/performance.md, session 11),
 * or 16 kB of them per log (session 43). */
#define NR__LOGSRC_FIRST_READ ((size_t)4 << 10)

struct nr_logsrc {
    int fd;
    char *path;
    nr_log_compression compression;

    char *buf;       /* decompressed text */
    size_t cap;
    size_t start;    /* first byte not yet handed out */
    size_t scanned;  /* [start, scanned) holds no newline */
    size_t end;      /* end of valid bytes */
    int text_eof;    /* no more text will come */

    size_t read_bytes;     /* a read's size, and the buffers' at first (nr_logsrc_open_sized) */
    unsigned char *in;     /* compressed input (and the sniffed first chunk) */
    size_t in_pos, in_len;
    uint64_t in_base;      /* file offset of in[0] */
    int in_eof;
    uint64_t size_at_open; /* a log is a regular file (nr_logsrc_open) */
    dev_t dev;             /* the file opened: a resting source opens it again */
    ino_t ino;
    int resting;           /* nr_logsrc_rest: no fd, input buffer or decoder until the next read */
    uint64_t text_total;   /* text bytes decompressed (or read) so far */
    uint64_t bytes_in_high; /* nr_logsrc_bytes_in never goes back (a woken decoder reads from 0 again) */

    ZSTD_DStream *zstd;
    size_t zstd_hint;      /* last ZSTD_decompressStream result: 0 at a frame end */
    z_stream gz;
    int gz_ready;
    int gz_at_member_end;

    XXH3_state_t *hash;    /* of every text byte appended to buf */

    uint64_t line_no;
    uint64_t bytes_out;
    int unterminated;
    int line_ends_known;   /* check_line_ends has decided: LF (or CRLF) line ends */
    nr_line_ends line_ends; /* what it has seen of the text's first bytes */
};

static uint64_t consumed_offset(const nr_logsrc *s) { return s->in_base + s->in_pos; }

/* At end of file after `got` bytes: a log that ends before the size it
 * had at open was cut while being read (truncated, or its file system
 * went away), and the lines read so far are not the whole log. */
static int check_complete(const nr_logsrc *s, uint64_t got, nr_error *err)
{
    if (got >= s->size_at_open)
        return 0;
    return nr_error_set(err, NR_E_IO,
                        "%s: input ended at byte offset %llu, before its size at open (%llu bytes): "
                        "truncated while being read?",
                        s->path, (unsigned long long)got, (unsigned long long)s->size_at_open);
}

/* Reads the next chunk of the file, at most max bytes, into s->in.
 * Returns 0 or NR_E_IO. */
static int read_input(nr_logsrc *s, size_t max, nr_error *err)
{
    s->in_base += s->in_len;
    s->in_pos = s->in_len = 0;
    for (;;) {
        ssize_t n = read(s->fd, s->in, max);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return nr_error_errno(err, NR_E_IO, errno, "%s: read failed at byte offset %llu",
                                  s->path, (unsigned long long)s->in_base);
        if (n == 0) {
            s->in_eof = 1;
            return check_complete(s, s->in_base, err);
        }
        s->in_len = (size_t)n;
        return 0;
    }
}

/* Makes room for at least one more byte at buf[end]. */
static int make_room(nr_logsrc *s, nr_error *err)
{
    if (s->start > 0) {
        memmove(s->buf, s->buf + s->start, s->end - s->start);
        s->end -= s->start;
        s->scanned -= s->start;
        s->start = 0;
    }
    if (s->end < s->cap)
        return 0;
    if (s->cap > SIZE_MAX / 2)
        return nr_error_set(err, NR_E_NOMEM, "%s: line %llu is too long to hold in memory",
                            s->path, (unsigned long long)s->line_no + 1);
    char *grown = realloc(s->buf, s->cap * 2);
    if (!grown)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory holding a %zu-byte line",
                            s->path, s->end);
    s->buf = grown;
    s->cap *= 2;
    return 0;
}

/* Plain input: reads go straight into the text buffer (the first chunk,
 * read for sniffing, is there already: read_first_chunk). */
static int fill_plain(nr_logsrc *s, nr_error *err)
{
    if (s->in_eof) {
        s->text_eof = 1;
        return 0;
    }
    for (;;) {
        ssize_t n = read(s->fd, s->buf + s->end, s->cap - s->end);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return nr_error_errno(err, NR_E_IO, errno, "%s: read failed at byte offset %llu",
                                  s->path, (unsigned long long)consumed_offset(s));
        if (n == 0) {
            s->in_eof = s->text_eof = 1;
            return check_complete(s, consumed_offset(s), err);
        }
        s->in_base += (uint64_t)n; /* keeps consumed_offset() = bytes read */
        s->end += (size_t)n;
        return 0;
    }
}

/* Gives a decoder compressed input: reads more once all of it is used.
 * Returns 1 when the input has ended, 0 otherwise, or an error. */
static int decoder_input(nr_logsrc *s, nr_error *err)
{
    if (s->in_pos < s->in_len)
        return 0;
    if (!s->in_eof)
        NR_TRY(read_input(s, s->read_bytes, err));
    return s->in_eof && s->in_pos == s->in_len;
}

/* Decompresses into out[0, room) until some text comes out: 1 with
 * *produced set, 0 at the end of the input (its last frame complete), or
 * an error. At the end of the input inside a frame the decoder is called
 * once more without input: it may still hold text it had no room for. */
static int zstd_decode(nr_logsrc *s, char *out, size_t room, size_t *produced, nr_error *err)
{
    for (;;) {
        const int ended = decoder_input(s, err);
        if (ended < 0)
            return ended;
        if (ended && s->zstd_hint == 0) /* the last frame ended with the input */
            return 0;
        ZSTD_inBuffer ib = {s->in, s->in_len, s->in_pos};
        ZSTD_outBuffer ob = {out, room, 0};
        const size_t r = ZSTD_decompressStream(s->zstd, &ob, &ib);
        if (ZSTD_isError(r))
            return nr_error_set(err, NR_E_INPUT, "%s: corrupt zstd data near byte offset %llu: %s",
                                s->path, (unsigned long long)(s->in_base + ib.pos),
                                ZSTD_getErrorName(r));
        s->in_pos = ib.pos;
        s->zstd_hint = r;
        if (ob.pos) {
            *produced = ob.pos;
            return 1;
        }
        if (ended && r != 0)
            return nr_error_set(err, NR_E_INPUT,
                                "%s: zstd data cut short at byte offset %llu (the last frame is incomplete)",
                                s->path, (unsigned long long)consumed_offset(s));
        if (ended)
            return 0;
    }
}

/* gzip's zstd_decode (zlib inflate; a member end may be followed by
 * another member: cat a.gz b.gz). */
static int gzip_decode(nr_logsrc *s, char *out, size_t room, size_t *produced, nr_error *err)
{
    if (room > UINT32_MAX)
        room = UINT32_MAX;
    for (;;) {
        const int ended = decoder_input(s, err);
        if (ended < 0)
            return ended;
        if (ended && s->gz_at_member_end)
            return 0;
        s->gz.next_in = s->in + s->in_pos;
        s->gz.avail_in = (uInt)(s->in_len - s->in_pos);
        s->gz.next_out = (Bytef *)out;
        s->gz.avail_out = (uInt)room;
        const int r = inflate(&s->gz, Z_NO_FLUSH);
        const size_t used = (s->in_len - s->in_pos) - s->gz.avail_in;
        const size_t made = room - s->gz.avail_out;
        if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
            return nr_error_set(err, NR_E_INPUT, "%s: corrupt gzip data near byte offset %llu: %s",
                                s->path, (unsigned long long)(consumed_offset(s) + used),
                                s->gz.msg ? s->gz.msg : "inflate failed");
        if (used || made)
            s->gz_at_member_end = 0;
        s->in_pos += used;
        if (r == Z_STREAM_END) {
            s->gz_at_member_end = 1;
            inflateReset(&s->gz);
        }
        if (made) {
            *produced = made;
            return 1;
        }
        if (ended && !s->gz_at_member_end)
            return nr_error_set(err, NR_E_INPUT, "%s: gzip data cut short at byte offset %llu",
                                s->path, (unsigned long long)consumed_offset(s));
    }
}

static int start_decoder(nr_logsrc *s, nr_error *err);

/* The decoder starts with the first text wanted of it, not at the opening:
 * most of a -ff run's logs rest right after it (nr_logsrc_rest), and a
 * zstd decoder made and freed for each of them was memory that jemalloc
 * kept (1,500 .zst logs, session 43). */
static int decode(nr_logsrc *s, char *out, size_t room, size_t *produced, nr_error *err)
{
    if (!s->zstd && !s->gz_ready)
        NR_TRY(start_decoder(s, err));
    return s->compression == NR_LOG_ZSTD ? zstd_decode(s, out, room, produced, err)
                                         : gzip_decode(s, out, room, produced, err);
}

static int fill_decoded(nr_logsrc *s, nr_error *err)
{
    size_t n = 0;
    const int rc = decode(s, s->buf + s->end, s->cap - s->end, &n, err);
    if (rc < 0)
        return rc;
    s->end += n;
    s->text_eof = rc == 0;
    return 0;
}

static int fill_text(nr_logsrc *s, nr_error *err)
{
    return s->compression == NR_LOG_PLAIN ? fill_plain(s, err) : fill_decoded(s, err);
}

/* zstd decoders let go of by resting or ended logs, kept for the next log
 * to start one: a -ff run's thousands of .zst logs each start a decoder
 * two or three times (its opening's first lines, the merge reaching it),
 * and a decoder made and freed each time left its buffers to jemalloc,
 * which kept them (1,500 .zst logs: 124 MiB at -j 2 against 76 at -j 1,
 * session 43). A few: as many as read at once. */
#define IDLE_DECODERS_MAX 8
static pthread_mutex_t idle_decoders_mu = PTHREAD_MUTEX_INITIALIZER;
static ZSTD_DStream *idle_decoders[IDLE_DECODERS_MAX];
static size_t idle_decoders_n;

static ZSTD_DStream *decoder_take(void)
{
    ZSTD_DStream *d = NULL;
    pthread_mutex_lock(&idle_decoders_mu);
    if (idle_decoders_n)
        d = idle_decoders[--idle_decoders_n];
    pthread_mutex_unlock(&idle_decoders_mu);
    return d ? d : ZSTD_createDStream();
}

static void decoder_give_back(ZSTD_DStream *d)
{
    if (!d)
        return;
    pthread_mutex_lock(&idle_decoders_mu);
    if (idle_decoders_n < IDLE_DECODERS_MAX) {
        idle_decoders[idle_decoders_n++] = d;
        d = NULL;
    }
    pthread_mutex_unlock(&idle_decoders_mu);
    ZSTD_freeDStream(d);
}

/* What reading needs besides the text: the fd, the input buffer and the
 * decoder. */
static void release_input(nr_logsrc *s)
{
    const uint64_t at = consumed_offset(s);
    if (at > s->bytes_in_high)
        s->bytes_in_high = at;
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    free(s->in);
    s->in = NULL;
    s->in_base = at;
    s->in_pos = s->in_len = 0;
    decoder_give_back(s->zstd);
    s->zstd = NULL;
    if (s->gz_ready)
        inflateEnd(&s->gz);
    s->gz_ready = 0;
}

static int start_decoder(nr_logsrc *s, nr_error *err)
{
    if (s->compression == NR_LOG_ZSTD) {
        s->zstd_hint = 0;
        s->zstd = decoder_take(); /* ZSTD_initDStream starts it afresh */
        if (!s->zstd || ZSTD_isError(ZSTD_initDStream(s->zstd)))
            return nr_error_set(err, NR_E_NOMEM, "%s: cannot set up zstd decompression", s->path);
    } else if (s->compression == NR_LOG_GZIP) {
        memset(&s->gz, 0, sizeof s->gz);
        if (inflateInit2(&s->gz, 15 + 32) != Z_OK)
            return nr_error_set(err, NR_E_NOMEM, "%s: cannot set up gzip decompression", s->path);
        s->gz_ready = 1;
        s->gz_at_member_end = 0;
    }
    return 0;
}

static int open_error(const char *path, int e, nr_error *err)
{
    if (e != EMFILE)
        return nr_error_errno(err, NR_E_IO, e, "cannot open %s", path);
    struct rlimit lim;
    const unsigned long long n = getrlimit(RLIMIT_NOFILE, &lim) == 0 ? (unsigned long long)lim.rlim_cur : 0;
    return nr_error_set(err, NR_E_IO,
                        "cannot open %s: too many open files (the limit, ulimit -n, is %llu): an ingest holds "
                        "open every log whose lines it is merging at the time (the -ff logs of threads "
                        "that run at once); raise the limit",
                        path, n);
}

/* O_NONBLOCK: the open of a fifo would wait for a writer */
static int open_log(const char *path) { return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); }

static int changed_error(const nr_logsrc *s, nr_error *err)
{
    return nr_error_set(err, NR_E_IO, "%s: replaced or cut while being read (it is read in parts)", s->path);
}

/* A resting source takes up its reading again: the same file (not one
 * put in its place, nor cut), at the same place. A decoder cannot be
 * kept without its memory, so a compressed log is decompressed again from
 * its start, and the text already read is skipped. */
static int wake(nr_logsrc *s, nr_error *err)
{
    s->resting = 0;
    if (s->in_eof && s->compression == NR_LOG_PLAIN)
        return 0;
    if ((s->fd = open_log(s->path)) < 0)
        return open_error(s->path, errno, err);
    struct stat st;
    if (fstat(s->fd, &st) != 0)
        return nr_error_errno(err, NR_E_IO, errno, "cannot stat %s", s->path);
    if (st.st_dev != s->dev || st.st_ino != s->ino || (uint64_t)st.st_size < s->size_at_open)
        return changed_error(s, err);
    if (s->compression == NR_LOG_PLAIN)
        return lseek(s->fd, (off_t)s->in_base, SEEK_SET) < 0
                   ? nr_error_errno(err, NR_E_IO, errno, "%s: cannot seek to byte offset %llu", s->path,
                                    (unsigned long long)s->in_base)
                   : 0;
    if (!(s->in = malloc(s->read_bytes)))
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", s->path);
    s->in_base = 0;
    s->in_eof = 0;
    char skip[16384];
    for (uint64_t left = s->text_total; left;) {
        size_t got = 0;
        const int rc = decode(s, skip, left < sizeof skip ? (size_t)left : sizeof skip, &got, err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return changed_error(s, err);
        left -= got;
    }
    return 0;
}

void nr_line_ends_feed(nr_line_ends *le, const void *text, size_t n)
{
    const uint64_t room = NR_LOGSRC_LINE_END_WINDOW - le->seen;
    if (le->lf || n == 0 || room == 0)
        return;
    if (n > room)
        n = (size_t)room;
    if (memchr(text, '\n', n)) {
        le->lf = 1; /* decided, whatever the rest holds */
        return;
    }
    for (const unsigned char *p = text, *const e = p + n; p < e; p++) {
        le->lone_cr |= le->last_cr; /* no LF here: the byte after a CR is another */
        le->last_cr = *p == '\r';
        le->ctl += *p < 0x20 && *p != '\t' && *p != '\r';
        le->nul |= *p == 0;
    }
    le->seen += n;
}

int nr_line_ends_decided(const nr_line_ends *le) { return le->lf || le->seen >= NR_LOGSRC_LINE_END_WINDOW; }

int nr_line_ends_cr_only(const nr_line_ends *le)
{
    return !le->lf && le->lone_cr && !le->nul && le->ctl * 10 <= le->seen;
}

/* NR_E_INPUT when the log's lines end in a CR alone (nr_line_ends_cr_only).
 * Read as one line, its calls but the first were lost without a word until
 * session 54. buf[from, end) is the text just added. */
static int check_line_ends(nr_logsrc *s, size_t from, nr_error *err)
{
    if (s->line_ends_known)
        return 0;
    nr_line_ends_feed(&s->line_ends, s->buf + from, s->end - from);
    if (!nr_line_ends_decided(&s->line_ends) && !s->text_eof)
        return 0;
    s->line_ends_known = 1;
    if (!nr_line_ends_cr_only(&s->line_ends))
        return 0;
    return nr_error_set(err, NR_E_INPUT,
                        "%s: its lines end in a CR alone (classic Mac OS line ends), not in LF or CRLF: niorep "
                        "would read it as one line; convert it first (tr '\\r' '\\n' < LOG > LOG.lf)",
                        s->path);
}

/* Appends more text to buf and to the fingerprint; sets text_eof at the end
 * of input, and then lets go of the input. */
static int fill(nr_logsrc *s, nr_error *err)
{
    NR_TRY(make_room(s, err));
    if (s->resting)
        NR_TRY(wake(s, err));
    const size_t before = s->end;
    const int rc = fill_text(s, err);
    if (s->end > before) {
        XXH3_64bits_update(s->hash, s->buf + before, s->end - before);
        s->text_total += s->end - before;
    }
    if (rc == 0 && s->text_eof)
        release_input(s);
    return rc < 0 ? rc : check_line_ends(s, before, err);
}

void nr_logsrc_rest(nr_logsrc *s)
{
    if (s->resting || s->text_eof)
        return;
    release_input(s);
    s->resting = 1;
}

nr_log_compression nr_logsrc_sniff(const void *head, size_t n)
{
    const unsigned char *p = head;
    if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd)
        return NR_LOG_ZSTD;
    if (n >= 4 && (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18)
        return NR_LOG_ZSTD; /* a skippable frame first */
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return NR_LOG_GZIP;
    return NR_LOG_PLAIN;
}

/* Reads the first chunk of the file and sniffs its compression from it. A
 * plain log's chunk is text already: the input and text buffers (of one
 * size) trade places instead of fill_plain copying it. */
static int read_first_chunk(nr_logsrc *s, nr_error *err)
{
    NR_TRY(read_input(s, s->read_bytes < NR__LOGSRC_FIRST_READ ? s->read_bytes : NR__LOGSRC_FIRST_READ, err));
    s->compression = nr_logsrc_sniff(s->in, s->in_len);
    if (s->compression != NR_LOG_PLAIN || s->in_len == 0)
        return 0;
    unsigned char *const chunk = s->in;
    s->in = (unsigned char *)s->buf;
    s->buf = (char *)chunk;
    s->end = s->in_len;
    s->text_total = s->in_len;
    s->in_base = s->in_len; /* consumed_offset() = bytes read, as fill_plain keeps it */
    s->in_pos = s->in_len = 0;
    XXH3_64bits_update(s->hash, s->buf, s->end);
    return check_line_ends(s, 0, err);
}

int nr_logsrc_open(const char *path, nr_logsrc **out, nr_error *err)
{
    return nr_logsrc_open_sized(path, NR__LOGSRC_CHUNK, out, err);
}

/* nr_logsrc_open_sized; bytes_only: the source hands out bytes, not lines
 * (nr_logsrc_peek), so its line ends are not judged. */
static int open_source(const char *path, size_t read_bytes, int bytes_only, nr_logsrc **out, nr_error *err)
{
    *out = NULL;
    nr_logsrc *s = calloc(1, sizeof *s);
    if (!s)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    s->fd = -1;
    s->path = strdup(path);
    s->read_bytes = read_bytes < NR__LOGSRC_MIN_READ ? NR__LOGSRC_MIN_READ
                    : read_bytes > NR__LOGSRC_CHUNK ? NR__LOGSRC_CHUNK
                                                    : read_bytes;
    s->buf = malloc(s->read_bytes);
    s->in = malloc(s->read_bytes);
    s->cap = s->read_bytes;
    s->hash = XXH3_createState();
    if (!s->path || !s->buf || !s->in || !s->hash || XXH3_64bits_reset(s->hash) == XXH_ERROR) {
        nr_logsrc_close(s);
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    }
    s->fd = open_log(path);
    if (s->fd < 0) {
        const int e = errno;
        nr_logsrc_close(s);
        return open_error(path, e, err);
    }
    struct stat st;
    if (fstat(s->fd, &st) != 0) {
        const int e = errno;
        nr_logsrc_close(s);
        return nr_error_errno(err, NR_E_IO, e, "cannot stat %s", path);
    }
    if (!S_ISREG(st.st_mode)) {
        /* a log is opened more than once (the run's sniff, the stderr
           prescan, the ingest): a pipe's first bytes would be gone, and a
           device may never end */
        nr_logsrc_close(s);
        return nr_error_set(err, NR_E_INPUT,
                            "%s: not a regular file (a pipe, device or socket): niorep reads a log more than "
                            "once; save it to a file first (.zst and .gz logs are read as they are)",
                            path);
    }
    s->size_at_open = (uint64_t)st.st_size;
    s->dev = st.st_dev;
    s->ino = st.st_ino;
    s->line_ends_known = bytes_only;
    int rc = read_first_chunk(s, err);
    if (rc < 0) {
        nr_logsrc_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

int nr_logsrc_open_sized(const char *path, size_t read_bytes, nr_logsrc **out, nr_error *err)
{
    return open_source(path, read_bytes, 0, out, err);
}

void nr_logsrc_close(nr_logsrc *s)
{
    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    decoder_give_back(s->zstd);
    if (s->gz_ready)
        inflateEnd(&s->gz);
    XXH3_freeState(s->hash);
    free(s->buf);
    free(s->in);
    free(s->path);
    free(s);
}

/* Hands out buf[start, line_end) and moves past `skip` terminator bytes. */
static void hand_out(nr_logsrc *s, size_t line_end, size_t skip, const char **line, size_t *len)
{
    size_t n = line_end - s->start;
    *line = s->buf + s->start;
    s->bytes_out += n + skip;
    if (n > 0 && s->buf[line_end - 1] == '\r') /* CRLF logs */
        n--;
    *len = n;
    s->start = s->scanned = line_end + skip;
    s->line_no++;
}

int nr_logsrc_next(nr_logsrc *s, const char **line, size_t *len, nr_error *err)
{
    for (;;) {
        if (s->scanned < s->end) {
            const char *nl = memchr(s->buf + s->scanned, '\n', s->end - s->scanned);
            if (nl) {
                hand_out(s, (size_t)(nl - s->buf), 1, line, len);
                s->unterminated = 0;
                return 1;
            }
            s->scanned = s->end;
        }
        if (s->text_eof) {
            if (s->start == s->end)
                return 0;
            hand_out(s, s->end, 0, line, len);
            s->unterminated = 1;
            return 1;
        }
        NR_TRY(fill(s, err));
    }
}

/* Hands out buf[start, end) as a run of lines. */
static void hand_out_run(nr_logsrc *s, size_t end, const char **text, size_t *len)
{
    *text = s->buf + s->start;
    *len = end - s->start;
    s->bytes_out += *len;
    s->unterminated = s->buf[end - 1] != '\n';
    s->start = s->scanned = end;
}

/* The end of the whole lines of buf[start, start + max), or 0 when none. */
static size_t lines_end_within(const nr_logsrc *s, size_t max)
{
    const size_t window = s->end - s->start < max ? s->end - s->start : max;
    if (s->start + window <= s->scanned)
        return 0;
    const char *nl = memrchr(s->buf + s->start, '\n', window);
    return nl ? (size_t)(nl - s->buf) + 1 : 0;
}

int nr_logsrc_next_lines(nr_logsrc *s, size_t max, const char **text, size_t *len, nr_error *err)
{
    for (;;) {
        size_t end = lines_end_within(s, max);
        if (!end && s->scanned < s->end) { /* the first line is longer than max */
            const char *nl = memchr(s->buf + s->scanned, '\n', s->end - s->scanned);
            end = nl ? (size_t)(nl - s->buf) + 1 : 0;
            s->scanned = nl ? s->scanned : s->end;
        }
        if (end) {
            hand_out_run(s, end, text, len);
            return 1;
        }
        if (s->text_eof) {
            if (s->start == s->end)
                return 0;
            hand_out_run(s, s->end, text, len);
            return 1;
        }
        NR_TRY(fill(s, err));
    }
}

/* Fills buf[end, cap) as far as the input goes; 0 or an error. */
static int fill_up(nr_logsrc *s, nr_error *err)
{
    while (s->end < s->cap && !s->text_eof)
        NR_TRY(fill(s, err));
    return 0;
}

/* Reads whole lines into the text buffer the caller lent (s->buf): fills
 * it, doubling it while it holds no newline; returns the end of its whole
 * lines (the text's end at end of input), or an error. */
static long fill_whole_lines(nr_logsrc *s, nr_error *err)
{
    for (;;) {
        NR_TRY(fill_up(s, err));
        const char *nl = s->end > s->scanned ? memrchr(s->buf + s->scanned, '\n', s->end - s->scanned) : NULL;
        if (nl)
            return (long)(nl - s->buf) + 1;
        s->scanned = s->end;
        if (s->text_eof)
            return (long)s->end;
        NR_TRY(make_room(s, err)); /* full without a newline: doubles the buffer */
    }
}

int nr_logsrc_read_lines(nr_logsrc *s, char **buf, size_t *cap, size_t *len, nr_error *err)
{
    const size_t have = s->end - s->start; /* the cut line kept from the last call */
    if (have == 0 && s->text_eof)
        return 0;
    if (*cap < have || *cap == 0) {
        size_t want = have > s->read_bytes ? have : s->read_bytes;
        char *p = realloc(*buf, want);
        if (!p)
            return nr_error_set(err, NR_E_NOMEM, "%s: out of memory reading a log", s->path);
        *buf = p;
        *cap = want;
    }
    memcpy(*buf, s->buf + s->start, have);
    char *const own = s->buf;
    const size_t own_cap = s->cap;
    const size_t own_scanned = s->scanned - s->start;
    s->buf = *buf;  /* fill() and make_room() now work in the caller's buffer */
    s->cap = *cap;
    s->start = 0;
    s->end = have;
    s->scanned = own_scanned;
    const long run = fill_whole_lines(s, err);
    *buf = s->buf;
    *cap = s->cap;
    const size_t tail = run < 0 ? 0 : s->end - (size_t)run;
    s->buf = own;
    s->cap = own_cap;
    s->start = s->scanned = s->end = 0;
    if (run < 0)
        return (int)run;
    if (tail > s->cap) {
        char *p = realloc(s->buf, tail);
        if (!p)
            return nr_error_set(err, NR_E_NOMEM, "%s: out of memory holding a %zu-byte line", s->path, tail);
        s->buf = p;
        s->cap = tail;
    }
    memcpy(s->buf, *buf + run, tail);
    s->end = s->scanned = tail; /* no newline in it */
    if (run == 0)
        return 0;
    *len = (size_t)run;
    s->bytes_out += *len;
    s->unterminated = (*buf)[run - 1] != '\n';
    return 1;
}

uint64_t nr_logsrc_hash(const nr_logsrc *s) { return XXH3_64bits_digest(s->hash); }
uint64_t nr_logsrc_line_no(const nr_logsrc *s) { return s->line_no; }
int nr_logsrc_last_line_unterminated(const nr_logsrc *s) { return s->unterminated; }
nr_log_compression nr_logsrc_compression(const nr_logsrc *s) { return s->compression; }
uint64_t nr_logsrc_size_at_open(const nr_logsrc *s) { return s->size_at_open; }
uint64_t nr_logsrc_bytes_in(const nr_logsrc *s)
{
    const uint64_t at = consumed_offset(s);
    return at > s->bytes_in_high ? at : s->bytes_in_high;
}
uint64_t nr_logsrc_bytes_out(const nr_logsrc *s) { return s->bytes_out; }

long nr_logsrc_peek(const char *path, char *buf, size_t cap, nr_error *err)
{
    nr_logsrc *s;
    /* bytes, not lines: a log whose lines end in a CR alone is refused when
       read, not when sniffed (until session 55 its sniff failed so) */
    NR_TRY(open_source(path, NR__LOGSRC_CHUNK, 1, &s, err));
    int rc = 0;
    while (rc == 0 && !s->text_eof && s->end < cap) {
        if (s->end == s->cap)
            rc = make_room(s, err);
        if (rc == 0)
            rc = fill(s, err);
    }
    size_t n = s->end < cap ? s->end : cap;
    if (rc == 0 && n > 0)
        memcpy(buf, s->buf, n);
    nr_logsrc_close(s);
    return rc < 0 ? rc : (long)n;
}
