#include "load_bar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nr_progress.h"

struct nr_load_bar {
    nr_progress *bar;   /* NULL once the ingests ended */
    nr_progress *merge; /* the bar of the merge under way, NULL between merges */
};

static void on_bytes(void *ctx, uint64_t done, uint64_t total)
{
    nr_load_bar *b = ctx;
    nr_progress_update(b->bar, done, total);
    if (done >= total) {
        nr_progress_finish(b->bar); /* the merges and the model stage draw their own */
        b->bar = NULL;
    }
}

/* A merge's label: "merge R" while R leaves the bar its room (the label
 * gives way last but one in a narrow terminal), else "merge". */
#define MERGE_LABEL_RUN_MAX 32

/* The rows of the merge of run `run`'s node stores: a bar of its own for
 * each merge (done == 0 starts one), erased at its end, as `niorep merge`
 * draws it. Until session 50 build's merges printed one line however long
 * they ran. */
static void on_rows(void *ctx, const char *run, uint64_t done, uint64_t total)
{
    nr_load_bar *b = ctx;
    if (done == 0 || !b->merge) {
        nr_progress_finish(b->merge);
        char label[48];
        snprintf(label, sizeof label, strlen(run) <= MERGE_LABEL_RUN_MAX ? "merge %s" : "merge", run);
        b->merge = nr_progress_create_count(stderr, label, "rows");
    }
    nr_progress_update(b->merge, done, total);
    if (done >= total) {
        nr_progress_finish(b->merge);
        b->merge = NULL;
    }
}

nr_load_bar *nr_load_bar_attach(nr_runset *rs)
{
    nr_progress *bar = nr_progress_create(stderr, "ingest");
    nr_load_bar *b = bar ? calloc(1, sizeof *b) : NULL;
    if (!b) {
        nr_progress_finish(bar);
        return NULL;
    }
    b->bar = bar;
    rs->ingest_progress = on_bytes;
    rs->ingest_progress_ctx = b;
    rs->merge_progress = on_rows;
    rs->merge_progress_ctx = b;
    return b;
}

void nr_load_line(const nr_run *run, const char *what)
{
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\rniorep: %s %s...\033[K", what, run->name);
}

void nr_load_bar_free(nr_load_bar *b)
{
    if (!b)
        return;
    nr_progress_finish(b->bar);
    nr_progress_finish(b->merge);
    free(b);
}
