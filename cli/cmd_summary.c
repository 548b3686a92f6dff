/* niorep summary RUN.nio [--json]: the model of one run, as text or JSON.
 * Several inputs (the node stores of one run, or a folder of them) are
 * joined into one run first (docs/multi-node.md). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "load_bar.h"
#include "nr_model.h"
#include "nr_store.h"
#include "nr_percent.h"
#include "nr_parallel.h"
#include "print_text.h"
#include "runset.h"

static const char options_text[] =
    "  --json            one JSON object (schema: docs/summary-schema.md)\n"
    "  --bootstraps N    power-law goodness-of-fit bootstraps (default 200; 0 skips p-values)\n"
    "  --seed N          bootstrap seed (default 1)\n"
    "  --files-by-node   in a merged multi-node run every file belongs to its node\n"
    "  -h, --help        this help\n"
    "\nRUN.nio may also be several stores or a folder: the stores of the nodes of one run\n"
    "(labels run=R, node=N) are merged into one run (docs/multi-node.md).\n";

#define MAX_INPUTS 4096

typedef struct summary_args {
    const char *store;           /* the first input */
    char *inputs[MAX_INPUTS];
    size_t ninputs;
    int json;
    int files_by_node;
    nr_model_opts opts;
} summary_args;

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-')
        return -1;
    *out = v;
    return 0;
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, summary_args *a)
{
    a->opts.bootstraps = -1;
    a->opts.seed = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        uint64_t v;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            nr_cli_help(nr_cli_find("summary"), options_text, stdout);
            return 0;
        } else if (strcmp(arg, "--json") == 0) {
            a->json = 1;
        } else if (strcmp(arg, "--files-by-node") == 0) {
            a->files_by_node = 1;
        } else if (strcmp(arg, "--bootstraps") == 0 || strcmp(arg, "--seed") == 0) {
            if (i + 1 >= argc || parse_u64(argv[i + 1], &v) < 0 || v > INT32_MAX)
                return nr_cli_usage("summary", "%s needs a non-negative integer", arg);
            if (arg[2] == 'b')
                a->opts.bootstraps = (int)v;
            else
                a->opts.seed = v;
            i++;
        } else if (arg[0] == '-' && arg[1]) {
            return nr_cli_usage("summary", "unknown option '%s'", arg);
        } else if (a->ninputs == MAX_INPUTS) {
            return nr_cli_usage("summary", "at most %d inputs", MAX_INPUTS);
        } else {
            a->inputs[a->ninputs++] = argv[i];
            if (!a->store)
                a->store = arg;
        }
    }
    if (!a->store)
        return nr_cli_usage("summary", "missing RUN.nio");
    return -1;
}

static void print_bytes(FILE *out, double b)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    fprintf(out, u ? "%.1f %s" : "%.0f %s", b, units[u]);
}

/* ns as "141.0us", "2.01ms" or "6.874s", or "-" when unknown. */
static const char *fmt_secs(char *buf, size_t cap, int64_t ns)
{
    if (ns < 0)
        snprintf(buf, cap, "-");
    else if (ns < 1000000)
        snprintf(buf, cap, "%.1fus", (double)ns * 1e-3);
    else if (ns < 1000000000)
        snprintf(buf, cap, "%.2fms", (double)ns * 1e-6);
    else
        snprintf(buf, cap, "%.3fs", (double)ns * 1e-9);
    return buf;
}

/* fmt_secs in a column of 9. */
static void print_secs(FILE *out, int64_t ns)
{
    char buf[32];
    fprintf(out, "%9s", fmt_secs(buf, sizeof buf, ns));
}

/* x with three decimals in width columns, or "-" when it does not exist
 * (NAN: no wall time, no durations). */
static void print_real(FILE *out, int width, double x)
{
    if (isfinite(x))
        fprintf(out, "%*.3f", width, x);
    else
        fprintf(out, "%*s", width, "-");
}

/* A name from the trace (a phase's, a mark's), its control bytes escaped. */
static void print_name(FILE *out, const char *name)
{
    nr_cli_print_text(out, name, strlen(name));
}

/* The regular files and their bytes per file system that holds any. */
static void print_fs_bytes(const nr_model *m, FILE *out)
{
    for (size_t i = 0; i < nr_model_fs_count(m); i++) {
        const nr_model_fs_bytes *b = nr_model_fs_bytes_at(m, i);
        if (b->files == 0)
            continue;
        fprintf(out, "  file system %s: %" PRIu64 " %s, read ", nr_model_fs_name(m, i), b->files,
                nr_cli_noun(b->files, "file", "files"));
        print_bytes(out, (double)b->bytes_read);
        fprintf(out, ", wrote ");
        print_bytes(out, (double)b->bytes_written);
        fprintf(out, "\n");
    }
}

/* One row of the phase table: name, wall time, bytes, I/O time, shares
 * (and the mapped bytes when mapped: -1 unknown lengths, 0 none). */
static void print_phase_row(FILE *out, const nr_model_phase *p, const char *name, int durations, int mapped)
{
    char main_io[32];
    nr_cli_print_cell(out, name, 16);
    fputc(' ', out);
    print_real(out, 10, p->wall_s);
    fprintf(out, " %12" PRIu64 " %12" PRIu64 " ", p->ops[NR_OP_READ].bytes, p->ops[NR_OP_WRITE].bytes);
    print_real(out, 10, durations ? p->io_time_s : NAN);
    fprintf(out, " %11s ", isfinite(p->main_io_share) ? nr_fmt_percent(p->main_io_share, main_io, sizeof main_io)
                                                     : "-");
    print_real(out, 12, p->io_share);
    if (mapped > 0)
        fprintf(out, " %12" PRIu64, p->job_bytes_mapped);
    else if (mapped < 0)
        fprintf(out, " %12s", "-");
    fputc('\n', out);
}

/* The totals line and the per-phase table. */
static void print_totals(const nr_model *m, const char *path, FILE *out)
{
    const nr_model_totals *t = nr_model_get_totals(m);
    if (isnan(t->duration_s))
        fprintf(out, "run %s: duration unknown (no timestamps), %" PRIu64 " %s, %" PRIu64 " %s\n", path,
                t->processes, nr_cli_noun(t->processes, "process", "processes"), t->events, nr_cli_noun(t->events, "event", "events"));
    else
        fprintf(out, "run %s: %.3f s%s, %" PRIu64 " %s, %" PRIu64 " %s\n", path, t->duration_s,
                nr_model_get_fidelity(m)->whole_second_stamps ? " (whole-second stamps: known to within 1 s)" : "",
                t->processes, nr_cli_noun(t->processes, "process", "processes"), t->events, nr_cli_noun(t->events, "event", "events"));
    if (nr_model_get_fidelity(m)->timestamps_available && !nr_model_get_fidelity(m)->times_reliable)
        fprintf(out, "times are not wall times (-ff -r: each delta is the gap to any process's previous call): "
                     "the duration, wall times, timeline and bursts below mean nothing; trace with -ttt\n");
    fprintf(out, "regular files: read ");
    print_bytes(out, (double)t->bytes_read);
    fprintf(out, " in %" PRIu64 " %s from %" PRIu64 " %s; wrote ", t->read_calls, nr_cli_noun(t->read_calls, "call", "calls"),
            t->files_read, nr_cli_noun(t->files_read, "file", "files"));
    print_bytes(out, (double)t->bytes_written);
    fprintf(out, " in %" PRIu64 " %s to %" PRIu64 " %s\n", t->write_calls, nr_cli_noun(t->write_calls, "call", "calls"),
            t->files_written, nr_cli_noun(t->files_written, "file", "files"));
    print_fs_bytes(m, out);
    fprintf(out, "\n");

    /* a column of the job files' mappings only where there are any: the table stays as it was otherwise */
    const nr_model_fidelity *fid = nr_model_get_fidelity(m);
    const int mapped = fid->mmap_job.calls == 0 ? 0 : fid->mmap_lengths_known ? 1 : -1;
    fprintf(out, "%-16s %10s %12s %12s %10s %11s %12s", "phase", "wall s", "read", "written", "io s", "main in io",
            "procs in io");
    fprintf(out, mapped ? " %12s\n" : "\n", "mapped");
    const int durations = nr_model_get_fidelity(m)->durations_available;
    for (size_t i = 0; i < nr_model_phase_count(m); i++)
        if (nr_model_phase_listed(m, i))
            print_phase_row(out, nr_model_phase_at(m, i), nr_model_phase_at(m, i)->name, durations, mapped);
    size_t unlisted;
    const nr_model_phase *rest = nr_model_phases_unlisted(m, &unlisted);
    if (rest) {
        char other[64];
        snprintf(other, sizeof other, "others (%zu)", unlisted); /* fits the column of 16 */
        print_phase_row(out, rest, other, durations, mapped);
    }
    /* the summed time reads like a share of the phase but counts every
       process: the loop's own share is the data-bound evidence */
    if (nr_model_get_fidelity(m)->whole_second_stamps)
        fprintf(out, "shares of wall time unavailable: the stamps resolve only to whole seconds (strace -t); "
                     "trace with -tt or -ttt\n");
    fprintf(out, "main in io: the share of the phase's wall time the main process spent in file I/O calls "
                 "(data-bound when high);\nprocs in io: io s / wall s, the mean number of processes in file I/O "
                 "at once (workers raise it; can exceed 1)\n");
    if (mapped)
        fprintf(out, "mapped: the bytes of the job files' mappings made in the phase; reads through them are "
                     "invisible to strace and in no column before it\n");
    if (rest)
        fprintf(out, "the %d phases with the most bytes and I/O time of the job files are listed (figure 1's rule); "
                     "others (%zu): the other phases' sums (wall s and shares do not add up); summary --json lists every "
                     "phase\n", NR_MODEL_PHASES_LISTED, unlisted);
}

/* The job files by the bytes they moved, and their sizes per class. */
static void print_file_uses(const nr_model_file_use *u, FILE *out)
{
    fprintf(out, "job files by bytes moved: %" PRIu64 " read only (%" PRIu64 " bytes read), %" PRIu64
                 " written only (%" PRIu64 " bytes written), %" PRIu64 " read and written (%" PRIu64 " read, %" PRIu64
                 " written), %" PRIu64 " none (opened, looked up or read at their end only)\n",
            u[NR_USE_READ_ONLY].files, u[NR_USE_READ_ONLY].bytes_read, u[NR_USE_WRITE_ONLY].files,
            u[NR_USE_WRITE_ONLY].bytes_written, u[NR_USE_READ_WRITE].files, u[NR_USE_READ_WRITE].bytes_read,
            u[NR_USE_READ_WRITE].bytes_written, u[NR_USE_NO_BYTES].files);
    static const char *const names[NR_USE_COUNT] = {"read only", "written only", "read and written", "no bytes"};
    fputs("job file sizes (furthest offset reached):", out);
    for (int k = 0; k < NR_USE_COUNT; k++) {
        if (u[k].sized_files)
            fprintf(out, "%s %s: %" PRIu64 " with a size, mean %.0f bytes, largest %" PRIu64 " bytes", k ? ";" : "",
                    names[k], u[k].sized_files, u[k].mean_size, u[k].max_size);
        else
            fprintf(out, "%s %s: none with a size", k ? ";" : "", names[k]);
    }
    fputc('\n', out);
}

/* Darshan's most common access sizes: the job files' reads and writes. */
static void print_common_sizes(const nr_model_common_sizes *c, FILE *out)
{
    if (c->calls == 0) {
        fputs("most common access sizes: none (no read or write of a job file with a size)\n", out);
        return;
    }
    fprintf(out, "most common access sizes of the job files' %" PRIu64 " reads and writes with a size:", c->calls);
    for (size_t k = 0; k < c->n; k++) {
        const nr_model_common_size *t = &c->top[k];
        fprintf(out, "%s %" PRIu64 " bytes %" PRIu64 " %s (%" PRIu64 " %s, %" PRIu64 " %s)", k ? ";" : "", t->bytes,
                nr_common_size_calls(t), nr_cli_noun(nr_common_size_calls(t), "call", "calls"), t->reads,
                nr_cli_noun(t->reads, "read", "reads"), t->writes, nr_cli_noun(t->writes, "write", "writes"));
    }
    if (!c->exact)
        fprintf(out, "%s not exact: a size not listed may have up to %" PRIu64 " calls", c->n ? ";" : "",
                c->unlisted_at_most);
    fputc('\n', out);
}

/* The job files' bytes read again: epochs that read the data anew. */
static void print_rereads(const nr_model_rereads *r, FILE *out)
{
    if (r->bytes_placed == 0) {
        fputs("re-reads: none known (no read of a job file at a known offset returned data)\n", out);
        return;
    }
    char share[32];
    fprintf(out, "re-reads: at least %" PRIu64 " of the %" PRIu64 " bytes the job files' reads moved at known "
                 "offsets (%s, in %" PRIu64 " %s) had been read before: each byte read %.2f times at least, on average\n",
            r->at_least_bytes, r->bytes_placed, nr_fmt_percent(r->share, share, sizeof share), r->files,
            nr_cli_noun(r->files, "file", "files"), r->passes_at_least);
}

/* How the bytes spread over files: concentration and the power-law fit. */
static void print_concentration(const nr_model *m, FILE *out)
{
    const nr_concentration *c = nr_model_concentration(m, NR_CONC_TOTAL);
    const nr_model_runtime *r = nr_model_runtime_files(m);
    char p1[32], p10[32], p90[32]; /* the report's percentages: 99.96% is not 100.0% */
    /* the top p% are ceil(p n / 100) whole files: said, as 22 files' top 10% are 3 */
    const size_t k1 = nr_concentration_top_count(c->n, 1), k10 = nr_concentration_top_count(c->n, 10);
    char gini[32];
    if (isnan(c->gini)) /* no bytes: no share (docs/statistics.md) */
        snprintf(gini, sizeof gini, "n/a");
    else
        snprintf(gini, sizeof gini, "%.3f", c->gini);
    fprintf(out, "\nconcentration over %zu job files: gini %s, top 1%% (%zu file%s) %s, top 10%% (%zu file%s) %s, "
                 "90%% of bytes from %s of files\n",
            c->n, gini, k1, k1 == 1 ? "" : "s", nr_fmt_percent(c->top1_share, p1, sizeof p1), k10,
            k10 == 1 ? "" : "s", nr_fmt_percent(c->top10_share, p10, sizeof p10),
            nr_fmt_percent(c->files_for_90, p90, sizeof p90));
    print_file_uses(nr_model_get_access(m)->by_use, out);
    print_common_sizes(&nr_model_get_access(m)->common_sizes, out);
    print_rereads(&nr_model_get_access(m)->rereads, out);
    if (r->files > 0)
        fprintf(out, "runtime files apart (Python modules, libraries, system): %" PRIu64 " %s, read %" PRIu64
                     " bytes, wrote %" PRIu64 "\n",
                r->files, nr_cli_noun(r->files, "file", "files"), r->bytes_read, r->bytes_written);
    const nr_powerlaw_fit *pl = nr_model_powerlaw(m, NR_PL_BYTES);
    if (pl->valid)
        fprintf(out, "power law on bytes per file: alpha %.3f (+- %.3f), xmin %.0f, KS %.3f, p %.3f, "
                     "vs lognormal R %.3f (p %.3f)\n",
                pl->alpha, pl->alpha_se, pl->xmin, pl->ks_d, pl->p_value, pl->vs_lognormal_R, pl->vs_lognormal_p);
    if (nr_powerlaw_rejected(pl))
        fprintf(out, "  the power law is rejected (p <= %.1f, Clauset-Shalizi-Newman): alpha describes no power law\n",
                NR_POWERLAW_PLAUSIBLE_P);
    else if (pl->valid && isnan(pl->p_value))
        fprintf(out, "  goodness of fit not tested (--bootstraps 0)\n");
    if (!pl->valid)
        fprintf(out, "power law on bytes per file: too few files to fit\n");
}

/* The latency quantiles per operation and the cache split. */
static void print_latency(const nr_model *m, FILE *out)
{
    fprintf(out, "\n%-9s %10s %9s %9s %9s %9s %9s %9s\n", "latency", "count", "p50", "p90", "p99",
            "p99.9", "p99.99", "max");
    for (int op = 0; op < NR_LAT_OP_COUNT; op++) {
        const nr_model_latency *l = nr_model_latency_all(m, op);
        fprintf(out, "%-9s %10" PRIu64, nr_lat_op_name(op), l->count);
        for (int q = 0; q < NR_MODEL_NQ; q++) {
            fputc(' ', out);
            print_secs(out, l->q_ns[q]);
        }
        fputc('\n', out);
    }
    if (!nr_model_get_fidelity(m)->durations_available)
        fprintf(out, "latency unavailable: trace lacks -T\n");
    const nr_cache_split *cs = nr_model_cache_split(m);
    if (cs->found) {
        char slow[32], bytes[32];
        fprintf(out, "cache split (%s): %s of reads are slow (>= %.3g ms), carrying %s of the bytes read", cs->method,
                nr_fmt_percent(cs->slow_share, slow, sizeof slow), (double)cs->threshold_ns * 1e-6,
                nr_fmt_percent(cs->slow_bytes_share, bytes, sizeof bytes));
        if (!cs->misses_plausible)
            fprintf(out, "; under %.0f us both modes are page-cache hits, not misses", NR_CACHE_MISS_MIN_NS * 1e-3);
        fputc('\n', out);
    } else if (nr_model_get_fidelity(m)->durations_available) {
        char why[160];
        nr_cache_split_why_none(nr_model_latency_all(m, NR_LAT_READ)->count, why, sizeof why);
        fprintf(out, "%s\n", why);
    }
}

/* "<lead>3.5 MiB in 909 calls". */
static void print_transfer(FILE *out, const char *lead, uint64_t bytes, uint64_t calls)
{
    fputs(lead, out);
    print_bytes(out, (double)bytes);
    fprintf(out, " in %" PRIu64 " %s", calls, nr_cli_noun(calls, "call", "calls"));
}

/* Reads and writes on fds the trace never saw opened: no file and no kind
 * holds their bytes, so they are named here rather than lost without a
 * word (docs/definitions.md, "Bytes"). */
static void print_unnamed(const nr_model *m, FILE *out)
{
    const nr_model_nonfile *nf = nr_model_get_nonfile(m);
    if (!nf->no_file_read_calls && !nf->no_file_write_calls)
        return;
    fprintf(out, "on fds never seen opened (in no total above):");
    if (nf->no_file_read_calls)
        print_transfer(out, " read ", nf->no_file_bytes_read, nf->no_file_read_calls);
    if (nf->no_file_write_calls)
        print_transfer(out, nf->no_file_read_calls ? ", wrote " : " wrote ", nf->no_file_bytes_written,
                       nf->no_file_write_calls);
    fprintf(out, " (%s)\n", nr_model_unnamed_fd_advice(m));
}

/* The note on mappings: their reads are invisible, and what the job
 * files' mappings could reach. */
static void print_mappings(const nr_model_fidelity *fi, FILE *out)
{
    fprintf(out, "note: %" PRIu64 " mmap %s on regular files: reads through mappings are invisible to strace",
            fi->mmap_regular, nr_cli_noun(fi->mmap_regular, "call", "calls"));
    if (fi->mmap_job.calls && fi->mmap_lengths_known)
        fprintf(out, "; %" PRIu64 " of them mapped %" PRIu64 " bytes of %" PRIu64 " job %s", fi->mmap_job.calls,
                fi->mmap_job.bytes, fi->mmap_job.files, nr_cli_noun(fi->mmap_job.files, "file", "files"));
    else if (fi->mmap_job.calls)
        fprintf(out, "; %" PRIu64 " of them mapped %" PRIu64 " job %s, of lengths this store does not record "
                     "(an ingest before revision 23: ingest the run again)", fi->mmap_job.calls, fi->mmap_job.files,
                nr_cli_noun(fi->mmap_job.files, "file", "files"));
    fputc('\n', out);
}

/* I/O on other kinds than regular files, and what the trace could not see. */
static void print_nonfile(const nr_model *m, FILE *out)
{
    const nr_model_nonfile *nf = nr_model_get_nonfile(m);
    fprintf(out, "\nnot file I/O (not counted above):");
    int any = 0;
    for (int k = 0; k < NR_FILE_KIND_COUNT; k++) {
        if (k == NR_KIND_REGULAR || nf->calls[k] == 0)
            continue;
        fprintf(out, "%s %s %" PRIu64 " %s (", any ? "," : "", nr_file_kind_name(k), nf->calls[k],
                nr_cli_noun(nf->calls[k], "call", "calls"));
        print_bytes(out, (double)(nf->bytes_read[k] + nf->bytes_written[k]));
        fputc(')', out);
        any = 1;
    }
    fprintf(out, "%s\n", any ? "" : " none");
    print_unnamed(m, out);
    const nr_model_fidelity *fi = nr_model_get_fidelity(m);
    if (fi->unfinished_calls)
        fprintf(out, "%" PRIu64 " %s never finished (no result)\n", fi->unfinished_calls,
                nr_cli_noun(fi->unfinished_calls, "call", "calls"));
    if (fi->processes_io_no_phase)
        fprintf(out, "%" PRIu64 " %s file I/O outside every phase\n", fi->processes_io_no_phase,
                nr_cli_noun(fi->processes_io_no_phase, "process did", "processes did"));
    if (fi->mmap_regular)
        print_mappings(fi, out);
    if (fi->io_uring_calls)
        fprintf(out, "note: %" PRIu64 " io_uring %s: I/O submitted through io_uring is invisible to strace\n",
                fi->io_uring_calls, nr_cli_noun(fi->io_uring_calls, "call", "calls"));
    const uint64_t raw_paths = nr_model_diag_count(m, "paths_not_decoded");
    if (raw_paths)
        fprintf(out,
                "note: %" PRIu64 " %s printed the path as a pointer (-e raw=): those files are named unknown:[#N], "
                "of kind unknown, and their I/O is not file I/O (trace without -e raw=)\n",
                raw_paths, nr_cli_noun(raw_paths, "open", "opens"));
}

/* The first ten write bursts listed, each with the phase it fell in. */
static void print_bursts(const nr_model *m, FILE *out)
{
    const nr_model_totals *t = nr_model_get_totals(m);
    const nr_model_burst_totals *all = nr_model_get_burst_totals(m);
    if (!nr_model_get_fidelity(m)->times_reliable)
        return; /* no timeline: print_totals said why */
    if (all->count)
        fprintf(out, "\n%" PRIu64 " write %s:\n", all->count, nr_cli_noun(all->count, "burst", "bursts"));
    if (all->count > nr_model_burst_count(m))
        fprintf(out, "  listed: the %zu largest, in start order\n", nr_model_burst_count(m));
    const size_t shown = nr_model_burst_count(m) < 10 ? nr_model_burst_count(m) : 10;
    for (size_t i = 0; i < shown; i++) {
        const nr_model_burst *b = nr_model_burst_at(m, i);
        char span[32];
        /* no duration: whole-second stamps (a second's calls share its stamp) */
        fprintf(out, "  at %.3f s for %s: ", (double)(b->start_ns - t->first_ns) * 1e-9,
                isfinite(b->duration_s) ? fmt_secs(span, sizeof span, b->end_ns - b->start_ns) : "an unknown time");
        print_bytes(out, (double)b->bytes);
        fprintf(out, " in %" PRIu64 " %s", b->calls, nr_cli_noun(b->calls, "call", "calls"));
        if (isfinite(b->mean_rate)) {
            fprintf(out, ", ");
            print_bytes(out, b->mean_rate);
            fprintf(out, "/s");
        }
        fputs(" (", out);
        print_name(out, nr_model_phase_at(m, b->phase)->name);
        fputs(")\n", out);
    }
    if (shown < nr_model_burst_count(m))
        fprintf(out, "  ... %zu more listed (summary --json)\n", nr_model_burst_count(m) - shown);
}

/* The hook's marks: counts by name, then the first ten. */
static void print_marks(const nr_model *m, FILE *out)
{
    const nr_model_marks *mk = nr_model_get_marks(m);
    const nr_model_totals *t = nr_model_get_totals(m);
    if (!mk->total)
        return;
    fprintf(out, "\n%" PRIu64 " %s (", mk->total, nr_cli_noun(mk->total, "mark", "marks"));
    for (size_t i = 0; i < mk->nnames; i++) {
        fputs(i ? ", " : "", out);
        print_name(out, mk->names[i]);
        fprintf(out, " %" PRIu64, mk->name_counts[i]);
    }
    if (mk->other_names)
        fprintf(out, ", %" PRIu64 " of other names", mk->other_names);
    fprintf(out, "):\n");
    const size_t shown = mk->n < 10 ? mk->n : 10;
    for (size_t i = 0; i < shown; i++) {
        const nr_model_mark *k = &mk->v[i];
        if (t->first_ns >= 0)
            fprintf(out, "  at %.3f s: ", (double)(k->ts_ns - t->first_ns) * 1e-9);
        else
            fprintf(out, "  ");
        print_name(out, k->name);
        fputs(k->attrs[0] ? " " : "", out);
        print_name(out, k->attrs);
        fputs(" (", out);
        print_name(out, k->phase);
        fprintf(out, ", pid %" PRId64 ")\n", k->pid);
    }
    if (shown < mk->total)
        fprintf(out, "  ... %" PRIu64 " more (summary --json lists the first %d)\n", mk->total - shown,
                NR_MODEL_MAX_MARKS);
}

/* A rule's number in its unit: a share as a percentage, bytes as bytes. */
static void print_rule_number(FILE *out, const char *unit, double v)
{
    if (strcmp(unit, "share") == 0)
        fprintf(out, "%.3g%%", 100 * v);
    else if (strcmp(unit, "processes") == 0)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.0f B", v);
}

/* The rules that did not fire, and why: a finding's absence is not the
 * same as a rule that could not look (docs/findings.md, "Outcomes"). */
static void print_quiet_rules(const nr_model *m, FILE *out)
{
    fprintf(out, "rules that did not fire:\n");
    for (size_t i = 0; i < nr_model_rule_count(m); i++) {
        const nr_model_rule *r = nr_model_rule_at(m, i);
        if (r->state == NR_RULE_FIRED)
            continue;
        fprintf(out, "  %s: %s: ", r->id, nr_rule_state_name(r->state));
        if (r->state == NR_RULE_NOT_APPLICABLE) {
            print_name(out, r->why);
            fputc('\n', out);
            continue;
        }
        fprintf(out, "%s = ", r->number);
        print_rule_number(out, r->unit, r->value);
        if (r->state == NR_RULE_GATED) {
            fputs(", but ", out);
            print_name(out, r->why);
            fputc('\n', out);
            continue;
        }
        fprintf(out, " (fires %s ", r->fires_below ? "below" : "above");
        print_rule_number(out, r->unit, r->threshold);
        fprintf(out, ")\n");
    }
}

static void print_findings(const nr_model *m, FILE *out)
{
    fprintf(out, "\nfindings:\n");
    if (nr_model_finding_count(m) == 0)
        fprintf(out, "  none of the rules fired\n");
    for (size_t i = 0; i < nr_model_finding_count(m); i++) {
        const nr_model_finding *f = nr_model_finding_at(m, i);
        fprintf(out, "  [%s] ", f->id); /* the sentences name phases and files of the trace */
        print_name(out, f->sentence);
        fputc(' ', out);
        print_name(out, f->action);
        fputc('\n', out);
    }
    if (nr_model_finding_count(m) < nr_model_rule_count(m))
        print_quiet_rules(m, out);
}

/* The hook's waits (niorep_hook.batches): a row per phase that waited,
 * its name last (names are free text). */
static void print_waits(const nr_model *m, FILE *out)
{
    const nr_model_waits *all = nr_model_get_waits(m);
    if (!all->count)
        return;
    fprintf(out, "\n%-9s %10s %9s %9s %9s %9s %7s %9s %9s %9s  %s\n", "waits", "seconds", "share", "p50", "p99",
            "max", "passes", "start s", "steady", "st. p99", "phase");
    for (size_t i = 0; i < nr_model_phase_count(m); i++) {
        const nr_model_phase *p = nr_model_phase_at(m, i);
        const nr_model_waits *w = &p->waits;
        if (!nr_model_waits_listed(p))
            continue;
        char share[32];
        fprintf(out, "%-9" PRIu64 " %10.3f %9s ", w->count, w->seconds,
                isnan(w->share) ? "-" : nr_fmt_percent(w->share, share, sizeof share));
        print_secs(out, w->p50_ns);
        fputc(' ', out);
        print_secs(out, w->p99_ns);
        fputc(' ', out);
        print_secs(out, w->max_ns);
        fprintf(out, " %7" PRIu64 " %9.3f %9s ", w->passes, w->start_seconds,
                isnan(w->steady_share) ? "-" : nr_fmt_percent(w->steady_share, share, sizeof share));
        print_secs(out, w->steady_p99_ns);
        fputs("  ", out);
        print_name(out, p->name);
        fputc('\n', out);
    }
    size_t rest;
    double rest_s;
    nr_model_waits_unlisted(m, &rest, &rest_s);
    if (rest)
        fprintf(out, "... %zu more %s waited %.3f s in all (summary --json lists every phase)\n", rest,
                nr_cli_noun(rest, "phase", "phases"), rest_s);
    fprintf(out, "(waits for the next item, niorep_hook.batches; share: of the phase's wall time per waiting thread, "
                 "%" PRIu64 " %s; passes: first items, each with its loader's start, start s their seconds; steady: "
                 "the share without them, st. p99 their p99)\n", all->threads, nr_cli_noun(all->threads, "thread", "threads"));
}

/* The processes' ends (docs/definitions.md, "How processes ended"): the
 * counts, then the processes killed or failed, at most 20 of them. */
static void print_process_ends(const nr_model *m, FILE *out)
{
    const nr_model_process_ends *e = nr_model_get_process_ends(m);
    static const char *const what[NR_END_COUNT] = {"exited with status 0", "with another status",
                                                    "killed by a signal", "not seen to end"};
    fprintf(out, "\nprocess ends:");
    uint64_t all = 0;
    for (int k = 0; k < NR_END_COUNT; k++) {
        const uint64_t n = nr_model_role_sum(e->count[k]);
        if (!n)
            continue;
        fprintf(out, "%s %" PRIu64 " %s", all ? "," : "", n, what[k]);
        all += n;
        for (size_t s = 0; k == NR_END_KILLED && s < e->nsignals; s++) {
            fprintf(out, "%s", s ? ", " : " (");
            print_name(out, e->signals[s].signal);
            fprintf(out, " %" PRIu64 "%s", nr_model_role_sum(e->signals[s].processes), s + 1 == e->nsignals ? ")" : "");
        }
    }
    fprintf(out, "%s\n", all ? "" : " no process");
    const uint64_t failed = nr_model_ends_failed(e);
    if (!failed)
        return;
    fprintf(out, "%-10s %-7s %10s  %s\n", "pid", "role", "end s", "how and program");
    uint64_t shown = 0;
    for (size_t i = 0; i < nr_model_process_count(m) && shown < 20; i++) {
        const nr_model_process *p = nr_model_process_at(m, i);
        if (!nr_model_process_failed(p))
            continue;
        shown++;
        fprintf(out, "%-10" PRId64 " %-7s ", p->pid, nr_role_name(p->role));
        print_real(out, 10, nr_model_process_end_s(m, p));
        fprintf(out, "  ");
        if (p->killed_by[0]) /* names from the trace: escaped */
            print_name(out, p->killed_by);
        else
            fprintf(out, "exit %" PRId64, p->exit_code);
        fprintf(out, " ");
        print_name(out, p->program[0] ? p->program : "-");
        fprintf(out, "\n");
    }
    if (failed > shown)
        fprintf(out, "... and %" PRIu64 " more (summary --json lists every one)\n", failed - shown);
    if (e->hook_lines_at_risk)
        fprintf(out, "a Python process killed by a signal loses the hook lines it had not written yet "
                     "(docs/hook-format.md)\n");
}

/* The text summary: one section after the other. */
static void print_text(const nr_model *m, const char *path, FILE *out)
{
    print_totals(m, path, out);
    print_process_ends(m, out);
    print_concentration(m, out);
    print_latency(m, out);
    print_nonfile(m, out);
    print_bursts(m, out);
    print_marks(m, out);
    print_waits(m, out);
    print_findings(m, out);
}

/* One store file: its model. */
static int model_of_store(const char *path, const nr_model_opts *opts, nr_model **m, nr_error *err)
{
    nr_store *s = NULL;
    nr_model_opts all_cores = *opts;
    all_cores.threads = nr_cores();
    int rc = nr_store_open(path, &s, err);
    if (rc == 0)
        rc = nr_model_compute(s, &all_cores, m, err);
    nr_store_close(s);
    return rc;
}

/* Several inputs or a folder: the runs they hold, which must be one. */
static int model_of_runset(summary_args *a, nr_runset *rs, nr_error *err)
{
    NR_TRY(nr_runset_expand(rs, a->inputs, a->ninputs, err));
    rs->files_by_node = a->files_by_node;
    nr_load_bar *bar = nr_load_bar_attach(rs);
    const int rc = nr_runset_load(rs, &a->opts, NULL, err);
    nr_load_bar_free(bar);
    NR_TRY(rc);
    if (rs->n == 1)
        return 0;
    char names[512] = "";
    for (size_t i = 0; i < rs->n && strlen(names) < 400; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", rs->runs[i].name);
    return nr_error_set(err, NR_E_INPUT, "the inputs hold %zu runs (%s): summary shows one run "
                        "(the node stores of a run share the label run= and differ in node=); "
                        "use build or compare for several", rs->n, names);
}

static int print_summary(const summary_args *a, const nr_model *m, const char *name, nr_error *err)
{
    int rc = 0;
    if (a->json) {
        /* a phase at a time: 100,000 phase names held 420 MB of JSON objects as one tree */
        rc = nr_model_summary_json_write(m, stdout, NR_MODEL_JSON_FLAGS);
        if (rc == NR_E_NOMEM)
            return nr_error_set(err, NR_E_NOMEM, "summary: out of memory writing the JSON");
        rc = rc < 0 || fputc('\n', stdout) == EOF;
    } else {
        print_text(m, name, stdout);
    }
    if (rc || fflush(stdout) == EOF || ferror(stdout))
        return nr_error_errno(err, NR_E_IO, errno ? errno : EIO, "summary: cannot write to standard output");
    return 0;
}

int nr_cmd_summary(int argc, char **argv)
{
    summary_args a = {0};
    const int status = parse_args(argc, argv, &a);
    if (status >= 0)
        return status;
    nr_error err;
    nr_error_clear(&err);
    struct stat st;
    const int one_file = a.ninputs == 1 && stat(a.store, &st) == 0 && S_ISREG(st.st_mode);
    nr_runset rs = {0};
    nr_model *own = NULL;
    int rc = one_file ? model_of_store(a.store, &a.opts, &own, &err) : model_of_runset(&a, &rs, &err);
    if (rc == 0)
        rc = print_summary(&a, one_file ? own : rs.runs[0].model, one_file ? a.store : rs.runs[0].name, &err);
    nr_model_free(own);
    nr_runset_fini(&rs);
    return rc < 0 ? nr_cli_fail(&err) : 0;
}
