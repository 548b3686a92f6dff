/* nr_progress: the bar is redrawn in place with "\r" and erased with
 * "\r\033[K"; rate = done / elapsed since creation, time left = (total -
 * done) / rate. Monotonic clock; nothing of it reaches any output file. */
#include "nr_progress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BAR_WIDTH 24

struct nr_progress {
    FILE *out;
    char label[48];
    double start, last_draw;
    int drawn;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

nr_progress *nr_progress_create(FILE *out, const char *label)
{
    if (!out || !isatty(fileno(out)))
        return NULL;
    nr_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->out = out;
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    p->start = now_s();
    p->last_draw = -1;
    return p;
}

/* "12.3 MB" style: decimal units, three significant digits. */
static void fmt_bytes(char *buf, size_t cap, double b)
{
    static const char *const unit[] = {"B", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (b >= 1000 && u < 4) {
        b /= 1000;
        u++;
    }
    snprintf(buf, cap, b < 10 && u ? "%.2f %s" : b < 100 && u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

void nr_progress_format(char *buf, size_t cap, const char *label, uint64_t done, uint64_t total,
                        double elapsed_s)
{
    double frac = total ? (double)(done > total ? total : done) / (double)total : 0;
    char bar[BAR_WIDTH + 1];
    int fill = (int)(frac * BAR_WIDTH);
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[BAR_WIDTH] = 0;
    char d[16], t[16], r[16], left[24] = "--:--";
    fmt_bytes(d, sizeof d, (double)done);
    fmt_bytes(t, sizeof t, (double)total);
    double rate = elapsed_s > 0 ? (double)done / elapsed_s : 0;
    fmt_bytes(r, sizeof r, rate);
    if (rate > 0 && total >= done) {
        unsigned long s = (unsigned long)((double)(total - done) / rate + 0.5);
        snprintf(left, sizeof left, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    }
    snprintf(buf, cap, "%s [%s] %3.0f%% %s / %s  %s/s  %s left", label, bar, frac * 100, d, t, r, left);
}

void nr_progress_update(nr_progress *p, uint64_t done, uint64_t total)
{
    if (!p)
        return;
    double t = now_s();
    if (p->drawn && t - p->last_draw < 0.1 && done < total)
        return;
    char line[160];
    nr_progress_format(line, sizeof line, p->label, done, total, t - p->start);
    fprintf(p->out, "\r%s\033[K", line);
    fflush(p->out);
    p->last_draw = t;
    p->drawn = 1;
}

void nr_progress_finish(nr_progress *p)
{
    if (!p)
        return;
    if (p->drawn) {
        fputs("\r\033[K", p->out);
        fflush(p->out);
    }
    free(p);
}
