/* example_data: deterministic example inputs (see example_data.h). */
#include "example_data.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RUNS 6
#define FILES 400
#define SAMPLES 2000
#define BINS 160

static const char *const run_names[RUNS] = {"lm", "vit", "diffusion", "snn", "mlp", "rl"};
static const char *const phase_names[] = {"data_prep", "model_load", "train", "eval", "checkpoint"};
#define PHASES 5
static const char *const group_names[] = {"main", "workers", "other"};

static const char *const case_names[EXAMPLE_CASES] = {"six", "one", "empty", "onepoint", "zeros", "nan", "few", "long"};

const char *example_case_name(example_case c)
{
    return c < EXAMPLE_CASES ? case_names[c] : "?";
}

/* A seeded 64-bit LCG (Knuth MMIX constants) and uniform (0, 1). */
static uint64_t rng_state;
static double uniform(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static struct {
    double phase_bytes[RUNS * PHASES], phase_time[RUNS * PHASES];
    double file_bytes[RUNS][FILES];
    double lorenz_x[RUNS][FILES + 1], lorenz_y[RUNS][FILES + 1];
    nr_fig_lorenz_run lorenz[RUNS];
    double ccdf_y[RUNS][FILES];
    nr_fig_ccdf_run ccdf[RUNS];
    double lat[RUNS][SAMPLES], lat_cdf[RUNS][SAMPLES];
    nr_fig_latency_series latency[RUNS];
    double rd[RUNS][BINS], wr[RUNS][BINS];
    nr_fig_span phases[RUNS][8], bursts[RUNS][4];
    double marks[RUNS][12];
    size_t nmarks[RUNS];
    nr_fig_timeline_run timeline[RUNS];
    nr_fig_reqsize_run reqsize[RUNS];
    double proc_bytes[RUNS * 3], proc_time[RUNS * 3];
    nr_fig_phase_input phase_in;
    nr_fig_lorenz_input lorenz_in;
    nr_fig_ccdf_input ccdf_in;
    nr_fig_latency_input latency_in;
    nr_fig_timeline_input timeline_in;
    nr_fig_reqsize_input reqsize_in;
    nr_fig_procshare_input proc_in;
} d;

static void make_phases(void)
{
    /* MiB per phase: data_prep, model_load, train, eval, checkpoint */
    static const double mib[RUNS][PHASES] = {
        {2048, 512, 6144, 1024, 3072}, {4096, 350, 9000, 1500, 1400}, {1500, 2600, 5000, 300, 5200},
        {300, 40, 900, 120, 60},       {100, 5, 400, 50, 20},         {10, 30, 200, 20, 350},
    };
    static const double secs[RUNS][PHASES] = {
        {4.1, 0.9, 12.5, 2.0, 6.2}, {8.0, 0.6, 21.0, 3.1, 2.9}, {2.9, 5.5, 9.8, 0.7, 11.0},
        {0.7, 0.1, 2.2, 0.3, 0.2},  {0.2, 0.01, 0.9, 0.1, 0.05}, {0.03, 0.08, 0.6, 0.05, 0.9},
    };
    for (int r = 0; r < RUNS; r++)
        for (int p = 0; p < PHASES; p++) {
            d.phase_bytes[r * PHASES + p] = mib[r][p] * 1048576.0;
            d.phase_time[r * PHASES + p] = secs[r][p];
        }
    d.phase_in = (nr_fig_phase_input){.n_runs = RUNS, .run_names = run_names, .n_phases = PHASES,
                                      .phase_names = phase_names, .bytes = d.phase_bytes,
                                      .io_time_s = d.phase_time};
}

/* Per-file bytes: a Pareto body with tail exponent alpha per run. */
static void make_files(void)
{
    static const double alpha[RUNS] = {1.6, 2.2, 1.9, 2.8, 3.5, 1.4};
    for (int r = 0; r < RUNS; r++) {
        rng_state = 1000 + (uint64_t)r;
        for (int i = 0; i < FILES; i++)
            d.file_bytes[r][i] = floor(4096.0 * pow(uniform(), -1.0 / (alpha[r] - 1.0)));
        qsort(d.file_bytes[r], FILES, sizeof(double), cmp_double);
        double total = 0;
        for (int i = 0; i < FILES; i++)
            total += d.file_bytes[r][i];
        double acc = 0, area = 0;
        d.lorenz_x[r][0] = d.lorenz_y[r][0] = 0;
        for (int i = 0; i < FILES; i++) {
            double prev = acc / total;
            acc += d.file_bytes[r][i];
            d.lorenz_x[r][i + 1] = (double)(i + 1) / FILES;
            d.lorenz_y[r][i + 1] = acc / total;
            area += (prev + d.lorenz_y[r][i + 1]) / 2.0 / FILES;
            d.ccdf_y[r][i] = (double)(FILES - i) / FILES;
        }
        double top = 0;
        for (int i = FILES - FILES / 10; i < FILES; i++)
            top += d.file_bytes[r][i];
        d.lorenz[r] = (nr_fig_lorenz_run){.name = run_names[r], .n = FILES + 1, .file_share = d.lorenz_x[r],
                                          .byte_share = d.lorenz_y[r], .top10_share = top / total, .top10_x = 0.9,
                                          .gini = 1.0 - 2.0 * area};
        int imin = FILES / 2;
        d.ccdf[r] = (nr_fig_ccdf_run){.name = run_names[r], .n = FILES, .bytes = d.file_bytes[r], .ccdf = d.ccdf_y[r],
                                      .has_fit = 1, .alpha = alpha[r], .xmin = d.file_bytes[r][imin],
                                      .ccdf_at_xmin = d.ccdf_y[r][imin], .p_value = 0.5};
    }
    /* the last run's goodness of fit failed, as the sample rl's does (p = 0):
       no line, "power law rejected" in the legend */
    d.ccdf[RUNS - 1].fit_rejected = 1;
    d.ccdf[RUNS - 1].p_value = 0;
    d.lorenz_in = (nr_fig_lorenz_input){.n_runs = RUNS, .runs = d.lorenz};
    d.ccdf_in = (nr_fig_ccdf_input){.n_runs = RUNS, .runs = d.ccdf};
}

/* Read latency: log-normal body around a per-run median, 2% slow misses. */
static void make_latency(void)
{
    static const double median[RUNS] = {20e-6, 35e-6, 80e-6, 12e-6, 8e-6, 150e-6};
    for (int r = 0; r < RUNS; r++) {
        rng_state = 2000 + (uint64_t)r;
        for (int i = 0; i < SAMPLES; i++) {
            double u1 = uniform(), u2 = uniform();
            double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
            double v = median[r] * exp(0.6 * z);
            if (uniform() < 0.02)
                v *= 40.0 * (1.0 + 4.0 * uniform());
            d.lat[r][i] = v;
        }
        qsort(d.lat[r], SAMPLES, sizeof(double), cmp_double);
        for (int i = 0; i < SAMPLES; i++)
            d.lat_cdf[r][i] = (double)(i + 1) / SAMPLES;
        d.latency[r] = (nr_fig_latency_series){.name = run_names[r], .n = SAMPLES, .latency_s = d.lat[r],
                                               .cdf = d.lat_cdf[r], .p50 = d.lat[r][SAMPLES / 2 - 1],
                                               .p99 = d.lat[r][SAMPLES * 99 / 100 - 1],
                                               .p999 = d.lat[r][SAMPLES * 999 / 1000 - 1]};
    }
    d.latency_in = (nr_fig_latency_input){.what = "read", .n_series = RUNS, .series = d.latency};
}

/* Timeline: staging reads, a steady training read rate with epochs (marked),
 * checkpoint write bursts. */
static void make_timeline(void)
{
    for (int r = 0; r < RUNS; r++) {
        double bin = 0.25 * (1 + r % 3);
        double end = BINS * bin;
        double prep = end * 0.08, load = end * 0.12, ck1 = end * 0.45, ck2 = end * 0.9;
        double ckd = end * 0.03;
        d.phases[r][0] = (nr_fig_span){"data_prep", 0, prep};
        d.phases[r][1] = (nr_fig_span){"model_load", prep, load};
        d.phases[r][2] = (nr_fig_span){"train", load, ck1};
        d.phases[r][3] = (nr_fig_span){"checkpoint", ck1, ck1 + ckd};
        d.phases[r][4] = (nr_fig_span){"train", ck1 + ckd, ck2 - end * 0.06};
        d.phases[r][5] = (nr_fig_span){"eval", ck2 - end * 0.06, ck2};
        d.phases[r][6] = (nr_fig_span){"checkpoint", ck2, ck2 + ckd};
        d.bursts[r][0] = (nr_fig_span){"burst", ck1, ck1 + ckd};
        d.bursts[r][1] = (nr_fig_span){"burst", ck2, ck2 + ckd};
        d.nmarks[r] = 0; /* an epoch mark every tenth of the run while training */
        for (double t = load; t < ck2 && d.nmarks[r] < 12; t += end * 0.1)
            d.marks[r][d.nmarks[r]++] = t;
        double scale = 200.0 * 1048576.0 / (1 + r);
        for (int i = 0; i < BINS; i++) {
            double t = (i + 0.5) * bin;
            double read = 0, write = 0;
            if (t < prep)
                read = scale * 2.0;
            else if (t < load)
                read = scale * 0.8;
            else if ((t >= load && t < ck1) || (t >= ck1 + ckd && t < ck2))
                read = scale * (0.5 + 0.3 * sin(t * 2.0 * M_PI / (end * 0.1)) * sin(t * 2.0 * M_PI / (end * 0.1)));
            if ((t >= ck1 && t < ck1 + ckd) || (t >= ck2 && t < ck2 + ckd))
                write = scale * 3.0;
            else
                write = scale * 0.01;
            d.rd[r][i] = read;
            d.wr[r][i] = write;
        }
        d.timeline[r] = (nr_fig_timeline_run){.name = run_names[r], .n_bins = BINS, .bin_s = bin,
                                              .read_bps = d.rd[r], .write_bps = d.wr[r], .n_phases = 7,
                                              .phases = d.phases[r], .n_bursts = 2, .bursts = d.bursts[r],
                                              .n_marks = d.nmarks[r], .marks = d.marks[r], .mark_name = "epoch"};
    }
    d.timeline_in = (nr_fig_timeline_input){.n_runs = RUNS, .runs = d.timeline};
}

static void make_reqsize_and_procs(void)
{
    for (int r = 0; r < RUNS; r++) {
        d.reqsize[r].name = run_names[r];
        for (int b = 0; b < NR_FIG_REQSIZE_BINS; b++) {
            double peak_r = 3 + r % 4, peak_w = 5 + r % 3;
            d.reqsize[r].reads[b] = floor(1000.0 * exp(-0.5 * (b - peak_r) * (b - peak_r)));
            d.reqsize[r].writes[b] = floor(300.0 * exp(-0.8 * (b - peak_w) * (b - peak_w)));
        }
        double main_share = 0.15 + 0.12 * r;
        d.proc_bytes[r * 3 + 0] = main_share * 1e9;
        d.proc_bytes[r * 3 + 1] = (0.95 - main_share) * 1e9;
        d.proc_bytes[r * 3 + 2] = 0.05e9;
        d.proc_time[r * 3 + 0] = main_share * 0.7 * 10;
        d.proc_time[r * 3 + 1] = (1.0 - main_share * 0.7 - 0.02) * 10;
        d.proc_time[r * 3 + 2] = 0.2;
    }
    d.reqsize_in = (nr_fig_reqsize_input){.n_runs = RUNS, .runs = d.reqsize};
    d.proc_in = (nr_fig_procshare_input){.n_runs = RUNS, .run_names = run_names, .n_groups = 3,
                                         .group_names = group_names, .bytes = d.proc_bytes,
                                         .io_time_s = d.proc_time};
}

static void all_inputs(nr_figure_inputs *in)
{
    make_phases();
    make_files();
    make_latency();
    make_timeline();
    make_reqsize_and_procs();
    *in = (nr_figure_inputs){.phase = &d.phase_in, .lorenz = &d.lorenz_in, .ccdf = &d.ccdf_in,
                             .latency = &d.latency_in, .timeline = &d.timeline_in,
                             .reqsize = &d.reqsize_in, .procshare = &d.proc_in};
}

/* Keeps only the first run of every input. */
static void first_run_only(void)
{
    d.phase_in.n_runs = 1;
    d.lorenz_in.n_runs = 1;
    d.ccdf_in.n_runs = 1;
    d.latency_in.n_series = 1;
    d.timeline_in.n_runs = 1;
    d.reqsize_in.n_runs = 1;
    d.proc_in.n_runs = 1;
}

static void zero_everything(void)
{
    memset(d.phase_bytes, 0, sizeof d.phase_bytes);
    memset(d.phase_time, 0, sizeof d.phase_time);
    memset(d.proc_bytes, 0, sizeof d.proc_bytes);
    memset(d.proc_time, 0, sizeof d.proc_time);
    memset(d.file_bytes, 0, sizeof d.file_bytes);
    for (int r = 0; r < RUNS; r++) {
        for (int i = 0; i <= FILES; i++)
            d.lorenz_y[r][i] = 0;
        d.lorenz[r].gini = NAN;
        d.lorenz[r].top10_share = NAN;
        d.ccdf[r].has_fit = 0;
        memset(d.lat[r], 0, sizeof d.lat[r]);
        memset(d.rd[r], 0, sizeof d.rd[r]);
        memset(d.wr[r], 0, sizeof d.wr[r]);
        memset(&d.reqsize[r].reads, 0, sizeof d.reqsize[r].reads);
        memset(&d.reqsize[r].writes, 0, sizeof d.reqsize[r].writes);
        d.latency[r].p50 = d.latency[r].p99 = d.latency[r].p999 = 0;
    }
}

static void sprinkle_nan(void)
{
    d.phase_bytes[1] = NAN;
    d.phase_time[7] = INFINITY;
    d.proc_bytes[4] = NAN;
    for (int r = 0; r < RUNS; r++) {
        d.lorenz_y[r][FILES / 2] = NAN;
        d.file_bytes[r][FILES / 3] = NAN;
        d.lat[r][SAMPLES / 4] = NAN;
        d.rd[r][BINS / 2] = NAN;
        d.reqsize[r].reads[2] = NAN;
        d.latency[r].p99 = NAN;
    }
    d.ccdf[0].alpha = NAN;
}

/* One run of 3 files of 181 B, 4.2 MB and 12.4 MB (a review's run): no
 * power-law fit; top 10% = 1 file of 3, the Lorenz point (2/3, 1 - 0.747). */
static void three_files(void)
{
    first_run_only();
    static const double bytes[] = {181, 4.2e6, 12.4e6};
    const double total = bytes[0] + bytes[1] + bytes[2];
    d.lorenz_x[0][0] = d.lorenz_y[0][0] = 0;
    for (int i = 0; i < 3; i++) {
        d.file_bytes[0][i] = bytes[i];
        d.ccdf_y[0][i] = (3.0 - i) / 3.0;
        d.lorenz_x[0][i + 1] = (i + 1) / 3.0;
        d.lorenz_y[0][i + 1] = d.lorenz_y[0][i] + bytes[i] / total;
    }
    d.lorenz[0].n = 4;
    d.lorenz[0].top10_share = bytes[2] / total;
    d.lorenz[0].top10_x = 2.0 / 3.0;
    d.lorenz[0].gini = 2 * (bytes[0] + 2 * bytes[1] + 3 * bytes[2]) / (3 * total) - 4.0 / 3.0; /* ascending order */
    d.ccdf[0].n = 3;
    d.ccdf[0].has_fit = 0;
    d.latency[0].calls = 20; /* (lm's curve, said to be of 20 calls) p50 marked; p99 and p99.9 would be the slowest call: not */
}

/* The first three runs renamed: a run's name is its folder's, as long as
 * people make them, and bytes (a Latin-1 "café"). */
static void long_names(void)
{
    static const char *const names[3] = {
        "resnet50_bs256_lr0.1_4nodes_2024-05-01T12-00",
        "caf\xE9",
        "vit_large_patch16_bs128_fp16_ddp_8gpu_seed1_warmup500_cosine_lr3e-4_wd0.05_dropout0.1_"
        "mixup0.8_cutmix1.0_randaug9-0.5_ema0.9999_grad-clip1.0_amp_bf16_channels-last_compile_"
        "max-autotune_run3_retry2_final",
    };
    d.phase_in.n_runs = d.lorenz_in.n_runs = d.ccdf_in.n_runs = d.latency_in.n_series = 3;
    d.timeline_in.n_runs = d.reqsize_in.n_runs = d.proc_in.n_runs = 3;
    d.phase_in.run_names = names;
    d.proc_in.run_names = names;
    for (int r = 0; r < 3; r++)
        d.lorenz[r].name = d.ccdf[r].name = d.latency[r].name = d.timeline[r].name = d.reqsize[r].name = names[r];
}

void example_inputs(example_case c, nr_figure_inputs *in)
{
    all_inputs(in);
    switch (c) {
    case EXAMPLE_SIX_RUNS: break;
    case EXAMPLE_ONE_RUN: first_run_only(); break;
    case EXAMPLE_EMPTY: *in = (nr_figure_inputs){0}; break;
    case EXAMPLE_ONE_POINT:
        first_run_only();
        d.lorenz[0].n = 1;
        d.ccdf[0].n = 1;
        d.ccdf[0].has_fit = 0;
        d.latency[0].n = 1;
        d.timeline[0].n_bins = 1;
        d.phase_in.n_phases = 1;
        d.proc_in.n_groups = 1;
        break;
    case EXAMPLE_ZEROS: zero_everything(); break;
    case EXAMPLE_NAN: sprinkle_nan(); break;
    case EXAMPLE_FEW_FILES: three_files(); break;
    case EXAMPLE_LONG_NAMES: long_names(); break;
    default: break;
    }
}
