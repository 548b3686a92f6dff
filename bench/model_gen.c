/* model_gen: writes a synthetic store of N events (default 10 M) through the
 * store writer API, shaped like a training run: a main process and 8
 * DataLoader workers reading 10,000 files of heavy-tailed sizes in 256 KiB
 * requests, opens/stats/closes, epochs of train, periodic checkpoint bursts,
 * bimodal (cache hit/miss) read latency. Deterministic for a seed.
 * usage: model_gen OUT.nio [--events N] [--seed S] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nr_schema.h"
#include "nr_store.h"

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    uint64_t z = rng_state;
    z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdu;
    return z ^ (z >> 33);
}
static double unif(void) { return (double)(rnd() >> 11) * (1.0 / 9007199254740992.0); }

static void die(const nr_error *err)
{
    fprintf(stderr, "model_gen: %s\n", err->msg);
    exit(1);
}

#define NFILES 10000
#define NWORKERS 8
#define REQ (256 * 1024)

static nr_table_writer *ev;
static nr_error err;

static void put_event(int64_t ts, int64_t dur, int64_t pid, const char *sc, int op, int64_t file,
                      int64_t bytes, int64_t off, int64_t phase)
{
    nr_table_set_i64(ev, NR_EV_TS_NS, ts);
    nr_table_set_i64(ev, NR_EV_DUR_NS, dur);
    nr_table_set_i64(ev, NR_EV_PID, pid);
    nr_table_set_i64(ev, NR_EV_TID, pid);
    nr_table_set_str(ev, NR_EV_SYSCALL, sc, strlen(sc));
    nr_table_set_i64(ev, NR_EV_OP_CLASS, op);
    nr_table_set_i64(ev, NR_EV_FD, file >= 0 ? 3 + file % 64 : -1);
    nr_table_set_i64(ev, NR_EV_FILE_ID, file);
    nr_table_set_i64(ev, NR_EV_FILE2_ID, -1);
    nr_table_set_i64(ev, NR_EV_BYTES, bytes);
    nr_table_set_i64(ev, NR_EV_OFFSET, off);
    nr_table_set_i64(ev, NR_EV_RESULT, bytes);
    nr_table_set_str(ev, NR_EV_ERRNO, "", 0);
    nr_table_set_i64(ev, NR_EV_FLAGS, 0);
    nr_table_set_i64(ev, NR_EV_PHASE_ID, phase);
    if (nr_table_end_row(ev, &err) < 0)
        die(&err);
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    uint64_t nevents = 10000000, seed = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--events") == 0 && i + 1 < argc)
            nevents = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else
            out = argv[i];
    }
    if (!out) {
        fprintf(stderr, "usage: model_gen OUT.nio [--events N] [--seed S]\n");
        return 2;
    }
    rng_state = seed;
    nr_error_clear(&err);
    nr_store_writer *w;
    nr_table_writer *files, *procs, *phases, *meta;
    if (nr_store_writer_create(out, &w, &err) < 0 ||
        nr_store_writer_add_table(w, &nr_events_table, &ev, &err) < 0 ||
        nr_store_writer_add_table(w, &nr_files_table, &files, &err) < 0 ||
        nr_store_writer_add_table(w, &nr_processes_table, &procs, &err) < 0 ||
        nr_store_writer_add_table(w, &nr_phases_table, &phases, &err) < 0 ||
        nr_store_writer_add_table(w, &nr_meta_table, &meta, &err) < 0)
        die(&err);

    /* files: sizes from a Pareto tail (alpha 1.5, xmin 64 KiB), capped at 1 GiB; one checkpoint file */
    static int64_t size[NFILES + 1], offset[NFILES + 1];
    char path[64];
    for (int f = 0; f <= NFILES; f++) {
        double s = 65536.0 / pow(1.0 - unif(), 1.0 / 1.5);
        size[f] = f == NFILES ? 0 : (int64_t)(s > 1073741824.0 ? 1073741824.0 : s);
        int n = f == NFILES ? snprintf(path, sizeof path, "/ckpt/model.pt")
                            : snprintf(path, sizeof path, "/data/shard-%05d.bin", f);
        for (int c = 0; c < NR_FI_COL_COUNT; c++)
            if (c != NR_FI_PATH)
                nr_table_set_i64(files, c, 0);
        nr_table_set_i64(files, NR_FI_FILE_ID, f);
        nr_table_set_str(files, NR_FI_PATH, path, (size_t)n);
        nr_table_set_i64(files, NR_FI_KIND, NR_KIND_REGULAR);
        if (nr_table_end_row(files, &err) < 0)
            die(&err);
    }
    const int64_t SEC = 1000000000;
    const int64_t epochs = 10, epoch_ns = 60 * SEC, ckpt_ns = 5 * SEC;
    const int64_t run_ns = epochs * (epoch_ns + ckpt_ns);
    for (int p = 0; p <= NWORKERS; p++) {
        nr_table_set_i64(procs, NR_PR_TID, 1000 + p);
        nr_table_set_i64(procs, NR_PR_PID, 1000 + p);
        nr_table_set_i64(procs, NR_PR_PPID, p ? 1000 : 1);
        nr_table_set_i64(procs, NR_PR_IS_THREAD, 0);
        nr_table_set_i64(procs, NR_PR_FIRST_TS_NS, 0);
        nr_table_set_i64(procs, NR_PR_LAST_TS_NS, run_ns);
        nr_table_set_str(procs, NR_PR_EXE, "python3", 7);
        nr_table_set_i64(procs, NR_PR_EXIT_CODE, 0);
        nr_table_set_str(procs, NR_PR_KILLED_BY, "", 0);
        nr_table_set_i64(procs, NR_PR_EVENTS, 0);
        nr_table_set_i64(procs, NR_PR_SIGNALS, 0);
        nr_table_set_i64(procs, NR_PR_END_TS_NS, run_ns);
        if (nr_table_end_row(procs, &err) < 0)
            die(&err);
    }
    for (int64_t e = 0; e < epochs; e++) {
        for (int k = 0; k < 2; k++) {
            const int64_t b = e * (epoch_ns + ckpt_ns) + k * epoch_ns;
            nr_table_set_i64(phases, NR_PH_PHASE_ID, 2 * e + k);
            nr_table_set_i64(phases, NR_PH_PID, 1000);
            nr_table_set_i64(phases, NR_PH_TID, 1000);
            nr_table_set_str(phases, NR_PH_NAME, k ? "checkpoint" : "train", k ? 10 : 5);
            nr_table_set_i64(phases, NR_PH_BEGIN_NS, b);
            nr_table_set_i64(phases, NR_PH_END_NS, b + (k ? ckpt_ns : epoch_ns));
            nr_table_set_i64(phases, NR_PH_DEPTH, 0);
            nr_table_set_i64(phases, NR_PH_PARENT_ID, -1);
            nr_table_set_i64(phases, NR_PH_FLAGS, 0);
            if (nr_table_end_row(phases, &err) < 0)
                die(&err);
        }
    }
    nr_table_set_str(meta, NR_MT_KEY, "manifest.fs.0.mount_point", 25);
    nr_table_set_str(meta, NR_MT_VALUE, "/data", 5);
    if (nr_table_end_row(meta, &err) < 0)
        die(&err);

    /* events: spread evenly over the run; checkpoints write 64 MiB chunks */
    const uint64_t per_epoch = nevents / (uint64_t)epochs;
    uint64_t written = 0;
    for (int64_t e = 0; e < epochs && written < nevents; e++) {
        const int64_t base = e * (epoch_ns + ckpt_ns);
        const uint64_t ckpt_events = 64, train_events = per_epoch - ckpt_events;
        int file = -1;
        for (uint64_t i = 0; i < train_events && written < nevents; i++, written++) {
            const int64_t ts = base + (int64_t)((double)i / (double)train_events * (double)epoch_ns);
            const int64_t pid = 1001 + (int64_t)(i % NWORKERS);
            const double u = unif();
            if (file < 0 || offset[file] >= size[file] || u < 0.02) {
                file = (int)(rnd() % NFILES);
                offset[file] = 0;
                put_event(ts, 3000 + (int64_t)(rnd() % 20000), pid, "openat", NR_OP_OPEN, file, 0, -1, 2 * e);
                continue;
            }
            if (u < 0.04) {
                put_event(ts, 1000 + (int64_t)(rnd() % 5000), pid, "newfstatat", NR_OP_META, file, 0, -1, 2 * e);
                continue;
            }
            const int64_t n = size[file] - offset[file] < REQ ? size[file] - offset[file] : REQ;
            const int64_t dur = unif() < 0.9 ? 20000 + (int64_t)(rnd() % 30000)        /* hit: 20-50 us */
                                             : 2000000 + (int64_t)(rnd() % 8000000);   /* miss: 2-10 ms */
            put_event(ts, dur, pid, "read", NR_OP_READ, file, n, offset[file], 2 * e);
            offset[file] += n;
        }
        for (uint64_t i = 0; i < ckpt_events && written < nevents; i++, written++) {
            const int64_t ts = base + epoch_ns + (int64_t)i * (ckpt_ns / (int64_t)ckpt_events);
            put_event(ts, 20000000, 1000, "write", NR_OP_WRITE, NFILES, 64 << 20, (int64_t)i << 26, 2 * e + 1);
        }
    }
    if (nr_store_writer_commit(w, &err) < 0)
        die(&err);
    nr_store_writer_destroy(w);
    printf("%llu events\n", (unsigned long long)written);
    return 0;
}
