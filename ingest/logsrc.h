/* logsrc: reads a log file line by line, plain or compressed (.zst via
 * libzstd, .gz via zlib, detected by magic bytes, not by name), with bounded
 * memory. Lines are handed out without their newline; a last line without a
 * newline is handed out too and flagged. */
#ifndef LOGSRC_H
#define LOGSRC_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"

typedef struct nr_logsrc nr_logsrc;

typedef enum nr_log_compression { NR_LOG_PLAIN, NR_LOG_ZSTD, NR_LOG_GZIP } nr_log_compression;

/* Opens path. Returns 0 and a new source in *out, or NR_E_IO naming the path. */
int nr_logsrc_open(const char *path, nr_logsrc **out, nr_error *err);
/* The same, reading (or decompressing) read_bytes at a time (16 kB to 1 MB;
 * nr_logsrc_open: 1 MB), its buffers of that size until a longer line
 * comes: a source's memory, when many are open at once (-ff logs). */
int nr_logsrc_open_sized(const char *path, size_t read_bytes, nr_logsrc **out, nr_error *err);
/* Accepts NULL. */
void nr_logsrc_close(nr_logsrc *s);

/* Lets go of what s needs only while it reads - its fd, its input buffer,
 * its decoder (a .zst log's window, up to megabytes) - until its next read,
 * which opens the file again (the same file: one replaced or cut meanwhile
 * is an error) and, for a compressed log, decompresses it again from its
 * start up to where it was. The text already read stays. For a run of many
 * logs of which only some are read at a time (-ff logs of threads that do
 * not all run at once). A source lets go of the same by itself at the end
 * of its input. */
void nr_logsrc_rest(nr_logsrc *s);

/* Next line: 1 with *line and *len set (valid until the next call), 0 at end of
 * input, negative on a read or decompression error (err names the file and
 * the byte offset). Lines longer than the source's limit are still returned whole. */
int nr_logsrc_next(nr_logsrc *s, const char **line, size_t *len, nr_error *err);

/* The next run of whole lines: 1 with *text and *len set to bytes of the
 * source's buffer (valid until the next call) holding complete lines, each
 * with its newline (and '\r' of CRLF logs) as in the log, as many as fit in
 * max bytes but at least one (a longer line is handed out whole); a last line
 * without newline comes last, alone at the end of its run. 0 at end of input,
 * negative on error as nr_logsrc_next. For readers that split lines
 * themselves: nr_logsrc_line_no counts only lines of nr_logsrc_next. */
int nr_logsrc_next_lines(nr_logsrc *s, size_t max, const char **text, size_t *len, nr_error *err);

/* The next run of whole lines as nr_logsrc_next_lines gives them, but read
 * (or decompressed) straight into the caller's buffer *buf of *cap bytes
 * (malloc'd, the caller's; logsrc reallocs it, updating *buf and *cap, when
 * one line does not fit, and fills it up to *cap): 1 with *len bytes of
 * whole lines at the front of *buf, 0 at end of input, negative on error as
 * nr_logsrc_next. Only the part of a line cut at the end of the buffer is
 * copied (kept for the next call). For readers that hand the runs to other
 * threads. */
int nr_logsrc_read_lines(nr_logsrc *s, char **buf, size_t *cap, size_t *len, nr_error *err);

/* The log's fingerprint "nrhash-v2": XXH3-64 (seed 0) of the uncompressed
 * bytes read so far, newlines included (so `xxhsum -H3` of the plain log);
 * final once nr_logsrc_next or nr_logsrc_next_lines has returned 0. */
uint64_t nr_logsrc_hash(const nr_logsrc *s);

/* 1-based number of the line last returned by nr_logsrc_next. */
uint64_t nr_logsrc_line_no(const nr_logsrc *s);
/* True when the last line (or run) returned ends without newline (a cut log). */
int nr_logsrc_last_line_unterminated(const nr_logsrc *s);
nr_log_compression nr_logsrc_compression(const nr_logsrc *s);
/* The compression of a file whose first n bytes are p, by their magic
 * (a zstd frame, a zstd skippable frame, gzip), as nr_logsrc_open finds it. */
nr_log_compression nr_logsrc_sniff(const void *p, size_t n);
/* The file's size in bytes when it was opened (compressed for a compressed log). */
uint64_t nr_logsrc_size_at_open(const nr_logsrc *s);
/* Bytes of input consumed so far (compressed bytes for compressed input). */
uint64_t nr_logsrc_bytes_in(const nr_logsrc *s);
/* Uncompressed bytes handed out so far (lines plus newlines). */
uint64_t nr_logsrc_bytes_out(const nr_logsrc *s);

/* The rule by which a log's lines end in a CR alone (classic Mac OS), one
 * rule for the run's sniff (runfind.c) and the reader: in the first
 * NR_LOGSRC_LINE_END_WINDOW bytes of text (all of a shorter log) no LF, a
 * CR before another byte, and text (no NUL, at most a tenth other control
 * bytes: binary data is no such log, and fails as what it is). The reader
 * refuses such a log; the sniff cuts its lines at the CR, so that a log
 * found by its lines is refused as one named like a log is. */
#define NR_LOGSRC_LINE_END_WINDOW ((size_t)4 << 10)
typedef struct nr_line_ends {
    uint64_t seen; /* bytes of the window fed */
    uint64_t ctl;  /* control bytes among them but tab and CR */
    int lf, nul, lone_cr, last_cr;
} nr_line_ends;
/* Feeds the text's next n bytes, in order from its first; bytes past the
 * window are not looked at. */
void nr_line_ends_feed(nr_line_ends *le, const void *text, size_t n);
/* Whether the rule can judge: an LF seen, or the whole window. */
int nr_line_ends_decided(const nr_line_ends *le);
/* Whether the text fed ends its lines in a CR alone, by the rule above. */
int nr_line_ends_cr_only(const nr_line_ends *le);

/* Reads the first up to cap bytes of decompressed content of path into buf,
 * for content sniffing, whatever its line ends (a log whose lines end in a
 * CR alone is refused when read as lines, not here). Returns the number of
 * bytes, or negative on error. */
long nr_logsrc_peek(const char *path, char *buf, size_t cap, nr_error *err);

#endif
