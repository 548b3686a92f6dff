/* Plain-text stand-in for ingest/logsrc.c (branch lexer), linked into the
 * capture tests only while that file is absent; tests use plain files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logsrc.h"

struct nr_logsrc {
    FILE *f;
    char *line;
    size_t cap;
    uint64_t line_no, bytes;
    int unterminated;
};

int nr_logsrc_open(const char *path, nr_logsrc **out, nr_error *err)
{
    nr_logsrc *s = calloc(1, sizeof *s);
    if (!s)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    s->f = fopen(path, "rb");
    if (!s->f) {
        free(s);
        return nr_error_errno(err, NR_E_IO, errno, "%s: cannot open", path);
    }
    *out = s;
    return 0;
}

void nr_logsrc_close(nr_logsrc *s)
{
    if (!s)
        return;
    fclose(s->f);
    free(s->line);
    free(s);
}

int nr_logsrc_next(nr_logsrc *s, const char **line, size_t *len, nr_error *err)
{
    ssize_t n = getline(&s->line, &s->cap, s->f);
    if (n < 0)
        return 0;
    s->bytes += (uint64_t)n;
    s->line_no++;
    s->unterminated = s->line[n - 1] != '\n';
    if (!s->unterminated)
        s->line[--n] = '\0';
    *line = s->line;
    *len = (size_t)n;
    return 1;
}

uint64_t nr_logsrc_line_no(const nr_logsrc *s) { return s->line_no; }
int nr_logsrc_last_line_unterminated(const nr_logsrc *s) { return s->unterminated; }
nr_log_compression nr_logsrc_compression(const nr_logsrc *s) { return NR_LOG_PLAIN; }
uint64_t nr_logsrc_bytes_in(const nr_logsrc *s) { return s->bytes; }
uint64_t nr_logsrc_bytes_out(const nr_logsrc *s) { return s->bytes; }
long nr_logsrc_peek(const char *path, char *buf, size_t cap, nr_error *err) { return 0; }
