/* Temporary stand-in for ingest/logsrc.c (plain files only), linked into the
 * ingest_core tests only while branch lexer's logsrc.c has not landed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logsrc.h"

struct nr_logsrc {
    FILE *f;
    char *buf;
    size_t cap;
    uint64_t line_no, bytes_out;
    int unterminated;
};

int nr_logsrc_open(const char *path, nr_logsrc **out, nr_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return nr_error_errno(err, NR_E_IO, errno, "%s: cannot open", path);
    nr_logsrc *s = calloc(1, sizeof *s);
    s->f = f;
    *out = s;
    return 0;
}

void nr_logsrc_close(nr_logsrc *s)
{
    if (!s)
        return;
    fclose(s->f);
    free(s->buf);
    free(s);
}

int nr_logsrc_next(nr_logsrc *s, const char **line, size_t *len, nr_error *err)
{
    ssize_t n = getline(&s->buf, &s->cap, s->f);
    if (n < 0)
        return 0;
    s->line_no++;
    s->bytes_out += (uint64_t)n;
    s->unterminated = !(n > 0 && s->buf[n - 1] == '\n');
    if (!s->unterminated)
        n--;
    *line = s->buf;
    *len = (size_t)n;
    return 1;
}

uint64_t nr_logsrc_line_no(const nr_logsrc *s) { return s->line_no; }
int nr_logsrc_last_line_unterminated(const nr_logsrc *s) { return s->unterminated; }
nr_log_compression nr_logsrc_compression(const nr_logsrc *s) { return NR_LOG_PLAIN; }
uint64_t nr_logsrc_bytes_in(const nr_logsrc *s) { return s->bytes_out; }
uint64_t nr_logsrc_bytes_out(const nr_logsrc *s) { return s->bytes_out; }

long nr_logsrc_peek(const char *path, char *buf, size_t cap, nr_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return nr_error_errno(err, NR_E_IO, errno, "%s: cannot open", path);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return (long)n;
}
