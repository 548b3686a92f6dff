/* nr_progress: the bar is redrawn in place with "\r" and erased with
 * "\r\033[K"; rate = done / elapsed since creation, time left = (total -
 * done) / rate. Monotonic clock; nothing of it reaches any output file.
 * The line fits the terminal (TIOCGWINSZ, read at every redraw so that a
 * resize is followed; 80 columns when unknown): it takes at most width - 1
 * columns, since a line as wide as the terminal wraps on some terminals and
 * "\r" then only returns to its last row (review 49: an 81-column line left
 * a stale row per redraw). What gives way, in this order: the bar shrinks
 * from 24 to 8 cells; the rate goes; the sizes go; the bar goes; the time
 * left goes; the label goes; last the percentage is cut. A time left past 99
 * hours is whole hours ("123 h left"). The amounts done and the rate are
 * padded to their widest, so the bar keeps its cells as they change. */
#include "nr_progress.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define BAR_MAX 24
#define BAR_MIN 8
#define WIDTH_DEFAULT 80

struct nr_progress {
    FILE *out;
    char label[48], unit[16];   /* unit "": bytes */
    double start, last_draw;
    uint64_t last_done, last_total;
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
    return nr_progress_create_count(out, label, NULL);
}

nr_progress *nr_progress_create_count(FILE *out, const char *label, const char *unit)
{
    if (!out || !isatty(fileno(out)))
        return NULL;
    nr_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->out = out;
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    snprintf(p->unit, sizeof p->unit, "%s", unit ? unit : "");
    p->start = now_s();
    p->last_draw = -1;
    return p;
}

/* "12.3 MB" style (unit NULL: bytes) or "1.23 M" (a count of unit):
 * decimal prefixes, three significant digits. */
static void fmt_amount(char *buf, size_t cap, double b, const char *unit)
{
    static const char *const bytes[] = {"B", "kB", "MB", "GB", "TB"}, *const count[] = {"", "k", "M", "G", "T"};
    const char *const *prefix = unit ? count : bytes;
    int u = 0;
    while (b >= 1000 && u < 4) {
        b /= 1000;
        u++;
    }
    snprintf(buf, cap, b < 10 && u ? "%.2f%s%s" : b < 100 && u ? "%.1f%s%s" : "%.0f%s%s", b,
             unit && !u ? "" : " ", prefix[u]);
}

/* The widest fmt_amount below 1000 T: the done and rate fields are
 * padded to it, so that a line's width, and so its bar's cells, stay put
 * while the numbers change ("88.1 MB" then "114 MB" had moved the bar). */
#define AMOUNT_WIDTH_BYTES 7 /* "99.9 MB" */
#define AMOUNT_WIDTH_COUNT 6 /* "99.9 M" */

/* The fields that give way, in the order they go (the bar shrinks first). */
enum { DROP_RATE = 1, DROP_SIZES = 2, DROP_BAR = 4, DROP_LEFT = 8, DROP_LABEL = 16 };
static const int drop_steps[] = {0,
                                 DROP_RATE,
                                 DROP_RATE | DROP_SIZES,
                                 DROP_RATE | DROP_SIZES | DROP_BAR,
                                 DROP_RATE | DROP_SIZES | DROP_BAR | DROP_LEFT,
                                 DROP_RATE | DROP_SIZES | DROP_BAR | DROP_LEFT | DROP_LABEL};

void nr_progress_format(char *buf, size_t cap, int width, const char *label, const char *unit, uint64_t done,
                        uint64_t total, double elapsed_s)
{
    if (cap == 0)
        return;
    const double frac = total ? (double)(done > total ? total : done) / (double)total : 0;
    char pct[8], d[16], t[16], r[16], sizes[64], rate[48], left[40] = "  --:-- left";
    const int amount_width = unit ? AMOUNT_WIDTH_COUNT : AMOUNT_WIDTH_BYTES;
    snprintf(pct, sizeof pct, "%3.0f%%", frac * 100);
    fmt_amount(d, sizeof d, (double)done, unit);
    fmt_amount(t, sizeof t, (double)total, unit);
    const char *space = unit ? " " : "", *name = unit ? unit : "";
    snprintf(sizes, sizeof sizes, " %*s / %s%s%s", amount_width, d, t, space, name);
    const double bps = elapsed_s > 0 ? (double)done / elapsed_s : 0;
    fmt_amount(r, sizeof r, bps, unit);
    snprintf(rate, sizeof rate, "  %*s%s%s/s", amount_width, r, space, name);
    if (bps > 0 && total >= done) {
        const double s = (double)(total - done) / bps + 0.5;
        const unsigned long long sec = s < 3.6e9 ? (unsigned long long)s : 3600000000ULL;
        if (sec < 100 * 3600) /* H:MM:SS; past 99 hours whole hours, past a million '>' */
            snprintf(left, sizeof left, "%llu:%02llu:%02llu left", sec / 3600, sec / 60 % 60, sec % 60);
        else
            snprintf(left, sizeof left, "%s%llu h left", sec >= 3600000000ULL ? ">" : "",
                     sec >= 3600000000ULL ? 999999ULL : sec / 3600);
    }
    const size_t avail = width > 1 ? (size_t)width - 1 : 0;
    for (size_t step = 0; step < sizeof drop_steps / sizeof *drop_steps; step++) {
        const int drop = drop_steps[step];
        /* the line without the bar's cells: "LABEL [] PCT SIZES  RATE  LEFT" */
        const size_t rest = (drop & DROP_LABEL ? 0 : strlen(label) + 1) + (drop & DROP_BAR ? 0 : 3) + strlen(pct) +
                            (drop & DROP_SIZES ? 0 : strlen(sizes)) + (drop & DROP_RATE ? 0 : strlen(rate)) +
                            (drop & DROP_LEFT ? 0 : 2 + strlen(left));
        size_t cells = 0;
        if (!(drop & DROP_BAR)) {
            if (rest + BAR_MIN > avail)
                continue;
            cells = avail - rest < BAR_MAX ? avail - rest : BAR_MAX;
        } else if (rest > avail && !(drop & DROP_LABEL)) {
            continue;
        }
        char bar[BAR_MAX + 4] = "";
        if (!(drop & DROP_BAR)) {
            const size_t fill = (size_t)(frac * (double)cells);
            bar[0] = '[';
            for (size_t i = 0; i < cells; i++)
                bar[1 + i] = i < fill ? '#' : '.';
            bar[1 + cells] = ']';
            bar[2 + cells] = ' ';
            bar[3 + cells] = '\0';
        }
        /* the line, then cut to the room (only the last step can be too long) */
        const size_t room = avail + 1 < cap ? avail + 1 : cap;
        snprintf(buf, room, "%s%s%s%s%s%s%s%s", drop & DROP_LABEL ? "" : label, drop & DROP_LABEL ? "" : " ", bar,
                 pct, drop & DROP_SIZES ? "" : sizes, drop & DROP_RATE ? "" : rate, drop & DROP_LEFT ? "" : "  ",
                 drop & DROP_LEFT ? "" : left);
        return;
    }
}

void nr_progress_update(nr_progress *p, uint64_t done, uint64_t total)
{
    if (!p)
        return;
    double t = now_s();
    if (p->drawn && t - p->last_draw < 0.1 && done < total)
        return;
    /* the end is drawn once: later reports of it only changed the rate */
    if (p->drawn && done >= total && done == p->last_done && total == p->last_total)
        return;
    struct winsize ws;
    const int width = ioctl(fileno(p->out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : WIDTH_DEFAULT;
    char line[256];
    nr_progress_format(line, sizeof line, width, p->label, p->unit[0] ? p->unit : NULL, done, total, t - p->start);
    fprintf(p->out, "\r%s\033[K", line);
    fflush(p->out);
    p->last_draw = t;
    p->last_done = done;
    p->last_total = total;
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
