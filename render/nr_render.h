/* nr_render: publication figures of niorep, drawn with cairo + pango.
 *
 * Each figure takes its own plain input struct (arrays of doubles, labels,
 * names) that can hold one run or several runs; render/ never sees the store,
 * the model or a log. One draw function per figure paints onto a cairo_t, and
 * the same drawing is written as SVG, PDF (fonts embedded) or PNG.
 *
 * Ownership: every input struct and array here is borrowed for the duration
 * of a call; render/ keeps no pointer to it afterwards. Output buffers
 * (nr_render_buf) belong to the caller and are released with
 * nr_render_buf_fini.
 *
 * Determinism: the same inputs give byte-identical SVG, PDF and PNG on the
 * same machine (see docs/figures.md: fixed font set, no hinting, no PDF
 * creation date). */
#ifndef NR_RENDER_H
#define NR_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"
#include "nr_phase_pick.h"

/* Paper widths in points (1 pt = 1/72 in). */
#define NR_RENDER_COLUMN_WIDTH_PT 252.0 /* 3.5 in: one column */
#define NR_RENDER_FULL_WIDTH_PT 504.0   /* 7 in: full page width */
#define NR_RENDER_PNG_DPI 300.0
/* The most runs a figure of several runs draws each in a style of its own
 * (the palette's colours). With more, the curve figures (2, 3, 4) draw every
 * run in grey and three in colour, the request sizes (6) the lowest, median
 * and highest share of each bin over the runs, and the timeline (5) the
 * first NR_FIG_DISTINCT_RUNS runs; docs/figures.md, "Many runs". */
#define NR_FIG_DISTINCT_RUNS 8

typedef enum nr_render_format {
    NR_RENDER_SVG,
    NR_RENDER_PDF,
    NR_RENDER_PNG,
} nr_render_format;

/* The file extension of a format, without a dot ("svg"); never NULL. */
const char *nr_render_format_ext(nr_render_format fmt);
/* Parses "svg", "pdf" or "png"; returns 0 or NR_E_USAGE. */
int nr_render_format_parse(const char *name, nr_render_format *out, nr_error *err);

/* ---- figure inputs (all borrowed) ------------------------------------- */

/* (1) Phase breakdown: bytes and I/O time per phase, one stacked bar per run.
 * Matrices are row-major [n_runs][n_phases]; values >= 0, non-finite values
 * are drawn as 0 and counted in a note. */
typedef struct nr_fig_phase_input {
    size_t n_runs;
    const char *const *run_names;   /* n_runs labels under the bars */
    size_t n_phases;
    const char *const *phase_names; /* stack order, bottom first */
    const double *bytes;            /* bytes moved (read + write) */
    const double *io_time_s;        /* seconds spent inside I/O calls */
    /* [n_runs] or NULL: the runtime's files' bytes and I/O time (Python
       modules, shared libraries: docs/definitions.md), drawn on top of the
       phases as a segment of their own, "Python runtime files"; the
       matrices above then hold the job's files only (since session 49) */
    const double *runtime_bytes;
    const double *runtime_io_time_s;
} nr_fig_phase_input;

/* The most phases figure 1 draws each in a colour of its own. With more it
 * folds them (docs/figures.md, "Many phases"): it keeps the
 * NR_FIG_PHASES - 1 of the largest weight (each run's share of bytes plus
 * its share of I/O time in the phase, summed over the runs; ties to the
 * earlier phase) in their order, and draws the rest as one, "other N
 * phases", in grey; figures 4 and 5 fold as it does. The rule is
 * common/nr_phase_pick.h's, which the model folds its latency group of
 * the other phases by (nr_model_latency_job_folded). */
#define NR_FIG_PHASES NR_PHASE_PICK_MAX
/* The phases figure 1 keeps when it folds p: their indices in p, ascending,
 * into kept and their count into *n_kept (0 when p has at most
 * NR_FIG_PHASES phases: nothing folds). Non-finite values weigh nothing.
 * Returns 0, or NR_E_NOMEM (*n_kept 0). */
int nr_fig_phase_kept(const nr_fig_phase_input *p, size_t kept[NR_FIG_PHASES - 1], size_t *n_kept);

/* (2) Lorenz curve of one run: files sorted by bytes ascending;
 * file_share[i] and byte_share[i] are cumulative fractions in [0, 1], both
 * ascending, ending at (1, 1). top10_share is the share of bytes from the
 * top 10% of files (marked at x = 0.9, y = 1 - top10_share); gini in [0, 1]. */
typedef struct nr_fig_lorenz_run {
    const char *name;
    size_t n;
    const double *file_share;
    const double *byte_share;
    double top10_share;
    double top10_x;     /* 1 - the share of files top10_share counts (ceil(n / 10) of n: 0.9 from 10 files on
                           when n is a multiple of 10, 2/3 of 3 files): its point on the curve */
    double gini;
} nr_fig_lorenz_run;

typedef struct nr_fig_lorenz_input {
    size_t n_runs;
    const nr_fig_lorenz_run *runs;
} nr_fig_lorenz_input;

/* (3) Per-file bytes CCDF of one run: points (bytes[i], ccdf[i]) with bytes
 * ascending and ccdf[i] = P(X >= bytes[i]) in (0, 1]. The fitted power law
 * P(X >= x) = ccdf_at_xmin * (x / xmin)^(1 - alpha) is drawn dashed from
 * xmin to the largest value when has_fit is non-zero and fit_rejected is
 * zero; a rejected fit (its goodness of fit failed: the caller decides, by
 * Clauset-Shalizi-Newman's p <= 0.1) draws no line, and the legend says
 * "power law rejected (p = p_value)" instead of its alpha. */
typedef struct nr_fig_ccdf_run {
    const char *name;
    size_t n;
    const double *bytes;
    const double *ccdf;
    int has_fit;
    double alpha;
    double xmin;
    double ccdf_at_xmin;
    int fit_rejected;
    double p_value;        /* the goodness of fit's p, for the legend of a rejected fit */
} nr_fig_ccdf_run;

typedef struct nr_fig_ccdf_input {
    size_t n_runs;
    const nr_fig_ccdf_run *runs;
} nr_fig_ccdf_input;

/* (4) Latency distribution: one series per run, or per phase of one run.
 * Points joined by lines: latency_s ascending (ties by cdf); cdf[i] =
 * P(X <= latency_s[i]) in [0, 1]; ccdf[i] = P(X >= latency_s[i]), which the
 * CCDF panel plots (NULL: 1 - cdf). p50/p99/p999 are the percentiles in
 * seconds (NaN when unknown). what names the operation ("read"); group_title names what a
 * series is ("run", "phase of lm"), used in the legend title. */
typedef struct nr_fig_latency_series {
    const char *name;
    size_t n;
    const double *latency_s;
    const double *cdf;
    double p50, p99, p999;
    uint64_t calls;     /* the calls the percentiles come from; 0: unknown (every level marked) */
    const double *ccdf; /* NULL: 1 - cdf */
} nr_fig_latency_series;

typedef struct nr_fig_latency_input {
    const char *what;
    size_t n_series;
    const nr_fig_latency_series *series;
    int phases; /* series 0 is all of one run, the others its phases: each in its phase's colour
                   (nr__palette_phase_colors, as in figures 1 and 5) */
    /* phases only: 0, or the number of phases folded into the last series,
       "other N phases" (the reads of the phases figure 1 folds: with more
       than NR_FIG_PHASES phases, nr_fig_phase_kept), drawn in figure 1's
       grey, the series before it in figure 1's colours of their phases
       (the figure's phase input, when it folds). Its p50, p99 and p99.9
       are exact, as every series' (the model's group of those reads,
       nr_model_latency_job_folded; until session 55 read off its
       histogram, "p50 ≈" in its legend: docs/figures.md, "Many phases") */
    size_t folded;
} nr_fig_latency_input;

/* A time span in seconds from the start of a run, with a name. */
typedef struct nr_fig_span {
    const char *name;
    double t0, t1;
} nr_fig_span;

/* (5) Throughput timeline of one run: n_bins bins of bin_s seconds starting
 * at t = 0; read/write rates in bytes per second. Phase spans colour the
 * background; write bursts (of any phase: a checkpoint's or a data_prep's)
 * are shaded and outlined, at least 2.5 points wide (a checkpoint's burst can
 * last a millisecond of a run of minutes). */
typedef struct nr_fig_timeline_run {
    const char *name;
    size_t n_bins;
    double bin_s;
    const double *read_bps;
    const double *write_bps;
    size_t n_phases;
    const nr_fig_span *phases;
    size_t n_bursts;
    const nr_fig_span *bursts;
    size_t n_marks;           /* the hook's marks (niorep_hook.mark: epochs), s since start */
    const double *marks;
    const char *mark_name;    /* their name when they share one ("epoch"), else NULL */
    const double *waiting;    /* [n_bins] or NULL: the share of each bin the loop waited for data
                                 (niorep_hook.batches), drawn as a strip along the panel's top */
    const double *start_waiting; /* [n_bins] or NULL: of waiting, the share the first item of each pass
                                    held (the loader's start); its bins get the strip's other colour */
} nr_fig_timeline_run;

typedef struct nr_fig_timeline_input {
    size_t n_runs;   /* one panel per run, stacked; the panels name one bin width when the runs share
                        it (nr_fig_timeline_shared_bin), else each its own, and say they differ */
    const nr_fig_timeline_run *runs;
    /* The phase names in the order figure 1 colours them (its input's
     * phase_names), so that a phase has the same colour in both figures
     * while there are no more phases than colours; the runs' other names
     * follow. NULL: the runs' names in order of appearance. */
    size_t n_phase_order;
    const char *const *phase_order;
} nr_fig_timeline_input;

/* The bin width in seconds that the first n runs of t with bins share, NAN
 * when their widths differ or none has bins (figure 5 names it once). */
double nr_fig_timeline_shared_bin(const nr_fig_timeline_input *t, size_t n);

/* (6) Request-size histogram in the Darshan bins below, reads and writes. */
#define NR_FIG_REQSIZE_BINS 10
/* Bin labels: "0-100", "100-1K", "1K-10K", "10K-100K", "100K-1M", "1M-4M",
 * "4M-10M", "10M-100M", "100M-1G", "1G+" (upper bounds exclusive, bytes). */
extern const char *const nr_fig_reqsize_bin_labels[NR_FIG_REQSIZE_BINS];
/* The bin of a request of `bytes` bytes (0..NR_FIG_REQSIZE_BINS-1). */
int nr_fig_reqsize_bin(double bytes);

typedef struct nr_fig_reqsize_run {
    const char *name;
    double reads[NR_FIG_REQSIZE_BINS];  /* request counts; end-of-file reads (0 B) left out */
    double writes[NR_FIG_REQSIZE_BINS];
    double eof_reads;                   /* the reads left out: returned 0 B (not drawn; said in figures.json) */
} nr_fig_reqsize_run;

typedef struct nr_fig_reqsize_input {
    size_t n_runs;
    const nr_fig_reqsize_run *runs;
} nr_fig_reqsize_input;

/* (7) Per-process I/O share: per run, bytes and I/O time of process groups
 * ("main", "workers", "other"); matrices row-major [n_runs][n_groups].
 * Drawn as 100% stacked bars, one per run. */
typedef struct nr_fig_procshare_input {
    size_t n_runs;
    const char *const *run_names;
    size_t n_groups;
    const char *const *group_names;
    const double *bytes;
    const double *io_time_s;
} nr_fig_procshare_input;

/* Everything the figure set needs; a NULL member draws "no data". */
typedef struct nr_figure_inputs {
    const nr_fig_phase_input *phase;
    const nr_fig_lorenz_input *lorenz;
    const nr_fig_ccdf_input *ccdf;
    const nr_fig_latency_input *latency;
    const nr_fig_timeline_input *timeline;
    const nr_fig_reqsize_input *reqsize;
    const nr_fig_procshare_input *procshare;
} nr_figure_inputs;

/* ---- the figure registry ---------------------------------------------- */

typedef struct nr_render_canvas nr_render_canvas; /* opaque: a cairo_t + pango context */

typedef struct nr_figure_def {
    int id;              /* 1..7, the figure number */
    const char *stem;    /* stable file stem: "fig1-phase-breakdown" */
    const char *title;   /* one line for captions and the report */
    /* Height in points for a width in points and these inputs. */
    double (*height)(const nr_figure_inputs *in, double width_pt);
    /* Draws the figure; degenerate inputs draw "no data: <reason>" and
     * return 0. Returns 0 or a negative NR_E_* code with err set. */
    int (*draw)(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err);
} nr_figure_def;

/* The registry: nr_figures[0 .. nr_figures_count-1], in figure order. */
extern const nr_figure_def nr_figures[];
extern const size_t nr_figures_count;

/* The entry with stem or "figN" name, or NULL. */
const nr_figure_def *nr_figure_find(const char *stem);

/* ---- output ------------------------------------------------------------ */

/* A caller-owned byte buffer (value type: init/fini). */
typedef struct nr_render_buf {
    unsigned char *data;
    size_t len;
    size_t cap;
} nr_render_buf;

void nr_render_buf_init(nr_render_buf *b);
void nr_render_buf_fini(nr_render_buf *b);

/* The font files every figure is drawn with, in $NR_FONT_DIR or Debian's
 * fonts-dejavu-core directory: file i (0 regular, 1 bold) into buf, 0, or
 * -1 when i is out of range or the path does not fit. For a key of what the
 * figures depend on (cli/figure_cache.c). */
#define NR_RENDER_FONT_FILES 2
int nr_render_font_file(size_t i, char *buf, size_t cap);

/* Renders fig for inputs at width_pt (its height from fig->height) in fmt,
 * appending the file bytes to out. PNG uses NR_RENDER_PNG_DPI. */
int nr_render_figure(const nr_figure_def *fig, const nr_figure_inputs *in,
                     nr_render_format fmt, double width_pt,
                     nr_render_buf *out, nr_error *err);

/* Like nr_render_figure, written atomically to path. */
int nr_render_figure_to_file(const nr_figure_def *fig, const nr_figure_inputs *in,
                             nr_render_format fmt, double width_pt,
                             const char *path, nr_error *err);

/* Releases the calling thread's font map (created on its first figure).
 * Figures may be rendered on several threads at once, each with a font map
 * of its own: a thread that rendered calls this before it ends, the main
 * thread once at exit; rendering again recreates it. */
void nr_render_shutdown(void);

/* ---- unit-aware labels (also used by the report) ---------------------- */

/* Formats with binary units: 1536 -> "1.5 KiB", 0 -> "0 B"; 3 significant
 * digits at most, trailing zeros dropped. Writes at most cap bytes (NUL
 * included) and returns buf. */
char *nr_render_fmt_bytes(double bytes, char *buf, size_t cap);
/* Formats a duration in seconds: 1.5e-6 -> "1.5 µs", 0.002 -> "2 ms". */
char *nr_render_fmt_seconds(double s, char *buf, size_t cap);
/* Formats a fraction as a percentage: 0.1234 -> "12.3%". */
char *nr_render_fmt_percent(double fraction, char *buf, size_t cap);

#endif
