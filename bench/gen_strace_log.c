/* gen_strace_log: writes a large, realistic `strace -f -ttt -T -y` log of a
 * PyTorch-style training job, deterministic for a given seed and size.
 *
 * The job: a main process (pid 4242) that loads a model checkpoint, spawns
 * DataLoader worker processes (clone), reads batches from the workers through
 * pipes (blocking reads logged as <unfinished ...> / <... resumed> pairs),
 * writes a training log and, now and then, a checkpoint (write + fsync);
 * workers that open dataset files (an ImageNet-like tree of JPEGs with
 * log-normal sizes, and tar shards with a Pareto tail read by pread64 at
 * random offsets), newfstatat/lseek/ioctl them as Python's open() does, read
 * them in 128 KiB chunks to EOF and close them; failed opens (ENOENT) of
 * probed paths; signals and exits at the end. File popularity is skewed
 * (a few files are read far more often), so per-file bytes are heavy-tailed.
 *
 * usage: gen_strace_log [--size N[K|M|G]] [--seed N] [--workers N]
 *                       [--files N] [-o FILE]
 * Output stops at the first line boundary past --size bytes, followed by the
 * exit lines of every process. Formatting is hand-rolled (no printf per
 * line) so that 1 GB takes a few seconds. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OUT_CAP = 1 << 22, MAX_WORKERS = 64 };

/* ---- output buffer ------------------------------------------------------ */

static char out_buf[OUT_CAP + 65536];
static size_t out_len;
static uint64_t out_total;
static int out_fd = STDOUT_FILENO;

static void flush_out(void)
{
    size_t done = 0;
    while (done < out_len) {
        ssize_t n = write(out_fd, out_buf + done, out_len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            perror("gen_strace_log: write");
            exit(1);
        }
        done += (size_t)n;
    }
    out_total += out_len;
    out_len = 0;
}

static inline void put(const char *s, size_t n)
{
    memcpy(out_buf + out_len, s, n);
    out_len += n;
}

#define PUTS(lit) put("" lit, sizeof(lit) - 1) /* string literals only */

static inline void put_str(const char *s) { put(s, strlen(s)); }

static inline void put_u64(uint64_t v)
{
    char tmp[24];
    int i = 24;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(tmp + i, (size_t)(24 - i));
}

/* v as exactly `digits` decimal digits (zero-padded). */
static inline void put_fixed(uint64_t v, int digits)
{
    char *p = out_buf + out_len + digits;
    for (int i = 0; i < digits; i++) {
        *--p = (char)('0' + v % 10);
        v /= 10;
    }
    out_len += (size_t)digits;
}

static inline void put_hex(uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    char tmp[16];
    int i = 16;
    do {
        tmp[--i] = hex[v & 15];
        v >>= 4;
    } while (v);
    PUTS("0x");
    put(tmp + i, (size_t)(16 - i));
}

/* ---- deterministic randomness (xoshiro256**, seeded by splitmix64) ------ */

typedef struct rng { uint64_t s[4]; } rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static inline double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }
static inline uint64_t rng_below(rng *r, uint64_t n) { return rng_next(r) % n; }

static double rng_normal(rng *r)
{
    double u = rng_unit(r), v = rng_unit(r);
    return sqrt(-2.0 * log(u + 1e-300)) * cos(6.283185307179586 * v);
}

/* ---- the data set ------------------------------------------------------- */

typedef struct job {
    uint64_t seed;
    uint64_t files;        /* JPEG files; shards are files/1000 + 8 */
    uint64_t shards;
    int workers;
} job;

/* Size of JPEG idx: log-normal, median ~110 KB (ImageNet-like). */
static uint64_t jpeg_size(const job *j, uint64_t idx)
{
    uint64_t x = j->seed ^ (idx * 0x9e3779b97f4a7c15ull);
    rng r;
    rng_seed(&r, x);
    double s = exp(log(110000.0) + 0.9 * rng_normal(&r));
    if (s < 2000)
        s = 2000;
    if (s > 64e6)
        s = 64e6;
    return (uint64_t)s;
}

/* Size of shard idx: Pareto tail (alpha 1.3) from 64 MiB, capped at 8 GiB. */
static uint64_t shard_size(const job *j, uint64_t idx)
{
    uint64_t x = j->seed ^ 0x5bd1e995u ^ (idx * 0xc2b2ae3d27d4eb4full);
    rng r;
    rng_seed(&r, x);
    double s = 67108864.0 / pow(1.0 - rng_unit(&r), 1.0 / 1.3);
    if (s > 8589934592.0)
        s = 8589934592.0;
    return (uint64_t)s;
}

static void put_jpeg_path(uint64_t idx)
{
    uint64_t cls = 1440764 + (idx % 1000) * 9973;
    PUTS("/data/imagenet/train/n");
    put_fixed(cls, 8);
    PUTS("/n");
    put_fixed(cls, 8);
    PUTS("_");
    put_u64(idx / 1000 + 10000);
    PUTS(".JPEG");
}

static void put_shard_path(uint64_t idx)
{
    PUTS("/data/laion400m/shards/shard-");
    put_fixed(idx, 5);
    PUTS(".tar");
}

/* Printable renditions of file contents as strace shows them (-s 32). */
static const char *const jpeg_heads[] = {
    "\\377\\330\\377\\340\\0\\20JFIF\\0\\1\\1\\0\\0\\1\\0\\1\\0\\0\\377\\333\\0C\\0\\10\\6\\6\\7\\6\\5\\10",
    "\\377\\330\\377\\341\\33\\376Exif\\0\\0MM\\0*\\0\\0\\0\\10\\0\\7\\1\\22\\0\\3\\0\\0\\0\\1\\0\\1",
    "\\241\\24P\\5\\24QE\\0\\24QE\\0\\24QE\\0\\24QE\\0\\24QE\\0\\24QE\\0\\24QE\\0",
    "\\237\\316\\373\\376\\20\\365\\375M\\2535ia\\256\\376\\306\\32\\212\\22\\17\\307\\255\\25\\366\\0375\\360",
    "n\\325\\26\\362\\263\\3245!\\243\\210\\2\\344\\26\\312\\347\\201\\232\\275\\323\\344\\332\\265\\23r\\16\\305",
    "0000000000000000000000000000000000",
};
static const char *const tar_heads[] = {
    "000123456.jpg\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0",
    "{\\\"caption\\\": \\\"a photo of a cat",
    "\\270\\2135\\21\\346\\235\\2\\36u\\27\\10\\207\\343\\6\\267\\207\\345I\\335\\32\\356\\222\\262\\31\\344",
};
static const char *const pipe_heads[] = {
    "\\200\\4\\225\\35\\1\\0\\0\\0\\0\\0\\0\\214\\5torch\\224\\214\\f_utils\\224\\214\\22",
    "\\0\\0\\0\\0\\0\\0\\0\\200",
};
static const char *const ckpt_heads[] = {
    "PK\\3\\4\\0\\0\\10\\10\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\20\\0\\22\\0",
    "\\2\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0",
};
#define PICK(r, arr) (arr[rng_below(r, sizeof arr / sizeof arr[0])])

/* n random bytes as strace prints them inside a string (high-entropy file
 * contents: JPEG bodies, tensors): printable ASCII as is, \" \\ \t \n \v \f \r,
 * others in octal, three digits when a digit follows. */
static void put_random_bytes(rng *r, int n)
{
    unsigned char b[64];
    for (int i = 0; i < n; i += 8) {
        uint64_t v = rng_next(r);
        memcpy(b + i, &v, 8);
    }
    char *o = out_buf + out_len;
    for (int i = 0; i < n; i++) {
        unsigned c = b[i];
        if (c == '"' || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            *o++ = (char)c;
        } else if (c >= '\t' && c <= '\r') {
            *o++ = '\\';
            *o++ = "tnvfr"[c - '\t'];
        } else {
            int next_digit = i + 1 < n && b[i + 1] >= '0' && b[i + 1] <= '9';
            *o++ = '\\';
            if (next_digit || c >= 64)
                *o++ = (char)('0' + (c >> 6));
            if (next_digit || c >= 8)
                *o++ = (char)('0' + ((c >> 3) & 7));
            *o++ = (char)('0' + (c & 7));
        }
    }
    out_len = (size_t)(o - out_buf);
}

/* ---- processes ---------------------------------------------------------- */

typedef enum stage { ST_OPEN, ST_STAT, ST_LSEEK, ST_IOCTL, ST_READ, ST_CLOSE } stage;

typedef struct proc {
    uint64_t pid;
    int fd;            /* fd of the current file */
    int shard;         /* current file is a shard (pread access) */
    uint64_t idx, size, off;
    int chunks_left;   /* shard: preads before close */
    stage st;
    int pipe_fd;
} proc;

static uint64_t now_us = 1764480000ull * 1000000ull + 123456;
static const char cwd[] = "/home/mlperf/run";

static void put_head(uint64_t pid)
{
    put_u64(pid);
    out_buf[out_len++] = ' ';
    put_u64(now_us / 1000000);
    out_buf[out_len++] = '.';
    put_fixed(now_us % 1000000, 6);
    out_buf[out_len++] = ' ';
}

/* -T duration: mostly tens of microseconds, a heavy tail of slow calls. */
static void put_dur(rng *r, double median_us)
{
    double d = median_us * exp(0.8 * rng_normal(r));
    if (rng_below(r, 1000) == 0)
        d *= 200; /* cache miss / slow storage */
    uint64_t us = (uint64_t)d;
    PUTS(" <");
    put_u64(us / 1000000);
    out_buf[out_len++] = '.';
    put_fixed(us % 1000000, 6);
    PUTS(">\n");
}

static void advance(rng *r) { now_us += 1 + rng_below(r, 12); }

static void put_fd(int fd, const proc *p)
{
    put_u64((uint64_t)fd);
    out_buf[out_len++] = '<';
    if (p->shard)
        put_shard_path(p->idx);
    else
        put_jpeg_path(p->idx);
    out_buf[out_len++] = '>';
}

/* Picks the next file: popularity skewed toward low indices (u^3). */
static void pick_file(const job *j, rng *r, proc *p)
{
    p->shard = rng_below(r, 16) == 0;
    double u = rng_unit(r);
    if (p->shard) {
        p->idx = (uint64_t)((double)j->shards * u * u);
        p->size = shard_size(j, p->idx);
        p->chunks_left = 1 + (int)rng_below(r, 24);
    } else {
        p->idx = (uint64_t)((double)j->files * u * u * u);
        p->size = jpeg_size(j, p->idx);
    }
    p->off = 0;
}

/* The start of a read/pread line up to its buffer argument. */
static void put_read_start(const proc *p)
{
    put_head(p->pid);
    if (p->shard)
        PUTS("pread64(");
    else
        PUTS("read(");
    put_fd(p->fd, p);
    PUTS(", ");
}

static void put_read_rest(rng *r, proc *p, uint64_t n, uint64_t want_hint)
{
    if (n == 0) {
        PUTS("\"\"");
    } else {
        out_buf[out_len++] = '"';
        if (p->off == 0)
            put_str(p->shard ? PICK(r, tar_heads) : PICK(r, jpeg_heads));
        else
            put_random_bytes(r, 32);
        PUTS("\"...");
    }
    PUTS(", ");
    put_u64(want_hint);
    if (p->shard) {
        PUTS(", ");
        put_u64(p->off);
    }
    PUTS(") = ");
    put_u64(n);
}

/* One step of a DataLoader worker: open/stat/lseek/ioctl/read.../close. */
typedef struct main_state main_state;
static void main_step(rng *r, main_state *m, const proc *workers, int nworkers);

static void worker_step(const job *j, rng *r, proc *w, int k, main_state *m)
{
    proc *p = &w[k];
    switch (p->st) {
    case ST_OPEN:
        pick_file(j, r, p);
        put_head(p->pid);
        if (rng_below(r, 200) == 0) { /* a probed path that is not there */
            PUTS("openat(AT_FDCWD</home/mlperf/run>, \"");
            put_jpeg_path(p->idx);
            PUTS(".cache\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)");
            put_dur(r, 6);
            return;
        }
        PUTS("openat(AT_FDCWD<");
        put(cwd, sizeof cwd - 1);
        PUTS(">, \"");
        if (p->shard)
            put_shard_path(p->idx);
        else
            put_jpeg_path(p->idx);
        PUTS("\", O_RDONLY|O_CLOEXEC) = ");
        put_fd(p->fd, p);
        put_dur(r, 18);
        p->st = ST_STAT;
        return;
    case ST_STAT:
        put_head(p->pid);
        PUTS("newfstatat(");
        put_fd(p->fd, p);
        PUTS(", \"\", {st_mode=S_IFREG|0644, st_size=");
        put_u64(p->size);
        PUTS(", ...}, AT_EMPTY_PATH) = 0");
        put_dur(r, 4);
        p->st = ST_IOCTL;
        return;
    case ST_IOCTL:
        put_head(p->pid);
        PUTS("ioctl(");
        put_fd(p->fd, p);
        PUTS(", TCGETS, ");
        put_hex(0x7ffd3a1c2000ull + rng_below(r, 4096) * 16);
        PUTS(") = -1 ENOTTY (Inappropriate ioctl for device)");
        put_dur(r, 3);
        p->st = ST_LSEEK;
        return;
    case ST_LSEEK:
        put_head(p->pid);
        PUTS("lseek(");
        put_fd(p->fd, p);
        if (p->shard) {
            p->off = rng_below(r, p->size / 2) & ~(uint64_t)511;
            PUTS(", ");
            put_u64(p->off);
            PUTS(", SEEK_SET) = ");
            put_u64(p->off);
        } else {
            PUTS(", 0, SEEK_CUR) = 0");
        }
        put_dur(r, 3);
        p->st = ST_READ;
        return;
    case ST_READ: {
        uint64_t want = p->shard ? (uint64_t)65536 << rng_below(r, 5) : 131072;
        uint64_t n = p->off >= p->size ? 0 : (p->size - p->off < want ? p->size - p->off : want);
        int split = m && j->workers > 1 && rng_below(r, 40) == 0;
        put_read_start(p);
        if (split) {
            /* another process logs a line before this read resumes */
            PUTS(" <unfinished ...>\n");
            advance(r);
            int o = (k + 1 + (int)rng_below(r, (uint64_t)j->workers - 1)) % j->workers;
            if (w[o].st != ST_READ)
                worker_step(j, r, w, o, NULL);
            else
                main_step(r, m, w, j->workers);
            advance(r);
            put_head(p->pid);
            put_str(p->shard ? "<... pread64 resumed>" : "<... read resumed>");
        }
        put_read_rest(r, p, n, want);
        put_dur(r, n ? 40 : 5);
        p->off += n;
        if (n == 0 || (p->shard && --p->chunks_left == 0))
            p->st = ST_CLOSE;
        return;
    }
    case ST_CLOSE:
        put_head(p->pid);
        PUTS("close(");
        put_fd(p->fd, p);
        PUTS(") = 0");
        put_dur(r, 5);
        p->st = ST_OPEN;
        if (rng_below(r, 8) == 0) { /* hand a batch to the main process */
            advance(r);
            put_head(p->pid);
            PUTS("write(");
            put_u64((uint64_t)p->pipe_fd);
            PUTS("<pipe:[");
            put_u64(880000 + p->pid);
            PUTS("]>, \"");
            put_str(PICK(r, pipe_heads));
            PUTS("\"..., 4096) = 4096");
            put_dur(r, 9);
        }
        return;
    }
}

struct main_state {
    uint64_t steps;
    int ckpt_no;
    int ckpt_chunks_left;  /* > 0 while a checkpoint is being written */
    int ckpt_stage;        /* 0 open, 1 write, 2 fsync, 3 close */
};

static void put_ckpt_fd(int ckpt_no)
{
    PUTS("9</home/mlperf/run/checkpoints/epoch_");
    put_fixed((uint64_t)ckpt_no, 3);
    PUTS(".pt>");
}

/* One step of the main process: pipe reads (often blocking), the training log,
 * and a checkpoint every so often. */
static void main_step(rng *r, main_state *m, const proc *workers, int nworkers)
{
    m->steps++;
    if (m->ckpt_chunks_left > 0 || m->ckpt_stage > 0) {
        put_head(4242);
        switch (m->ckpt_stage) {
        case 0:
            PUTS("openat(AT_FDCWD</home/mlperf/run>, \"checkpoints/epoch_");
            put_fixed((uint64_t)m->ckpt_no, 3);
            PUTS(".pt\", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = ");
            put_ckpt_fd(m->ckpt_no);
            put_dur(r, 60);
            m->ckpt_stage = 1;
            return;
        case 1:
            PUTS("write(");
            put_ckpt_fd(m->ckpt_no);
            PUTS(", \"");
            put_random_bytes(r, 32);
            PUTS("\"..., 1048576) = 1048576");
            put_dur(r, 700);
            if (--m->ckpt_chunks_left == 0)
                m->ckpt_stage = 2;
            return;
        case 2:
            PUTS("fsync(");
            put_ckpt_fd(m->ckpt_no);
            PUTS(") = 0");
            put_dur(r, 40000);
            m->ckpt_stage = 3;
            return;
        default:
            PUTS("close(");
            put_ckpt_fd(m->ckpt_no);
            PUTS(") = 0");
            put_dur(r, 20);
            m->ckpt_stage = 0;
            m->ckpt_no++;
            return;
        }
    }
    if (m->steps % 20000 == 0) { /* start a checkpoint: heavy-tailed size */
        m->ckpt_chunks_left = 50 + (int)(30.0 / pow(1.0 - rng_unit(r), 1.0 / 1.5));
        if (m->ckpt_chunks_left > 4000)
            m->ckpt_chunks_left = 4000;
        main_step(r, m, workers, nworkers);
        return;
    }
    const proc *w = &workers[rng_below(r, (uint64_t)nworkers)];
    put_head(4242);
    if (m->steps % 50 == 0) {
        char msg[64];
        int len = snprintf(msg, sizeof msg, "step %llu loss 2.%03u", (unsigned long long)m->steps,
                           (unsigned)rng_below(r, 1000));
        PUTS("write(3</home/mlperf/run/train.log>, \"");
        put(msg, (size_t)len);
        PUTS("\\n\", ");
        put_u64((uint64_t)len + 1);
        PUTS(") = ");
        put_u64((uint64_t)len + 1);
        put_dur(r, 8);
        return;
    }
    PUTS("read(");
    put_u64((uint64_t)w->pipe_fd + 100);
    PUTS("<pipe:[");
    put_u64(880000 + w->pid);
    PUTS("]>, \"");
    put_str(PICK(r, pipe_heads));
    PUTS("\"..., 4096) = 4096");
    put_dur(r, 12);
}

static uint64_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'k': case 'K': v *= 1024; break;
    case 'm': case 'M': v *= 1048576; break;
    case 'g': case 'G': v *= 1073741824; break;
    case '\0': break;
    default: fprintf(stderr, "gen_strace_log: bad size '%s'\n", s); exit(2);
    }
    return (uint64_t)v;
}

static void startup(rng *r, proc *w, int nworkers)
{
    put_head(4242);
    PUTS("execve(\"/usr/bin/python3\", [\"python3\", \"train.py\", \"--epochs\", \"90\"], 0x7ffd3a1c3a58 /* 42 vars */) = 0");
    put_dur(r, 300);
    advance(r);
    put_head(4242);
    PUTS("openat(AT_FDCWD</home/mlperf/run>, \"train.log\", O_WRONLY|O_CREAT|O_APPEND|O_CLOEXEC, 0666) = 3</home/mlperf/run/train.log>");
    put_dur(r, 30);
    advance(r);
    put_head(4242);
    PUTS("openat(AT_FDCWD</home/mlperf/run>, \"/models/resnet50.pt\", O_RDONLY|O_CLOEXEC) = 4</models/resnet50.pt>");
    put_dur(r, 25);
    for (int i = 0; i < 98; i++) { /* a ~100 MB checkpoint load */
        advance(r);
        put_head(4242);
        PUTS("read(4</models/resnet50.pt>, \"");
        put_str(PICK(r, ckpt_heads));
        PUTS("\"..., 1048576) = 1048576");
        put_dur(r, 300);
    }
    advance(r);
    put_head(4242);
    PUTS("close(4</models/resnet50.pt>) = 0");
    put_dur(r, 10);
    for (int i = 0; i < nworkers; i++) {
        advance(r);
        put_head(4242);
        PUTS("clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=");
        put_hex(0x7f3a5c2b2a10ull);
        PUTS(") = ");
        put_u64(w[i].pid);
        put_dur(r, 400);
    }
}

static void shutdown_all(rng *r, const proc *w, int nworkers)
{
    for (int i = 0; i < nworkers; i++) {
        advance(r);
        put_head(w[i].pid);
        PUTS("exit_group(0) = ?\n");
        put_head(w[i].pid);
        PUTS("+++ exited with 0 +++\n");
        put_head(4242);
        PUTS("--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=");
        put_u64(w[i].pid);
        PUTS(", si_uid=1000, si_status=0, si_utime=0, si_stime=0} ---\n");
    }
    advance(r);
    put_head(4242);
    PUTS("exit_group(0) = ?\n");
    put_head(4242);
    PUTS("+++ exited with 0 +++\n");
}

int main(int argc, char **argv)
{
    uint64_t size = 1073741824ull;
    job j = {.seed = 1, .files = 200000, .workers = 8};
    const char *out_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--size") && v) size = parse_size(v), i++;
        else if (!strcmp(a, "--seed") && v) j.seed = strtoull(v, NULL, 10), i++;
        else if (!strcmp(a, "--workers") && v) j.workers = atoi(v), i++;
        else if (!strcmp(a, "--files") && v) j.files = strtoull(v, NULL, 10), i++;
        else if (!strcmp(a, "-o") && v) out_path = v, i++;
        else {
            fprintf(stderr, "usage: gen_strace_log [--size N[K|M|G]] [--seed N] [--workers N] [--files N] [-o FILE]\n");
            return 2;
        }
    }
    if (j.workers < 1 || j.workers > MAX_WORKERS || j.files < 1) {
        fprintf(stderr, "gen_strace_log: --workers must be 1..%d and --files at least 1\n", MAX_WORKERS);
        return 2;
    }
    j.shards = j.files / 1000 + 8;
    if (out_path && (out_fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) {
        perror(out_path);
        return 1;
    }
    rng r;
    rng_seed(&r, j.seed);
    proc w[MAX_WORKERS];
    for (int i = 0; i < j.workers; i++)
        w[i] = (proc){.pid = 4300 + (uint64_t)i * 7, .fd = 40 + i % 3, .pipe_fd = 12 + i, .st = ST_OPEN};
    main_state m = {0};
    startup(&r, w, j.workers);
    while (out_total + out_len < size) {
        advance(&r);
        if (rng_below(&r, 10) == 0) {
            main_step(&r, &m, w, j.workers);
        } else {
            worker_step(&j, &r, w, (int)rng_below(&r, (uint64_t)j.workers), &m);
        }
        if (out_len >= OUT_CAP)
            flush_out();
    }
    shutdown_all(&r, w, j.workers);
    flush_out();
    if (out_path && close(out_fd) != 0) {
        perror(out_path);
        return 1;
    }
    return 0;
}
