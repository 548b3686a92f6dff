#include "load_bar.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "nr_progress.h"

struct nr_load_bar {
    nr_progress *bar; /* NULL once the ingests ended */
};

static void on_bytes(void *ctx, uint64_t done, uint64_t total)
{
    nr_load_bar *b = ctx;
    nr_progress_update(b->bar, done, total);
    if (done >= total) {
        nr_progress_finish(b->bar); /* the model stage prints its own lines */
        b->bar = NULL;
    }
}

nr_load_bar *nr_load_bar_attach(nr_runset *rs)
{
    nr_progress *bar = nr_progress_create(stderr, "ingest");
    nr_load_bar *b = bar ? malloc(sizeof *b) : NULL;
    if (!b) {
        nr_progress_finish(bar);
        return NULL;
    }
    b->bar = bar;
    rs->ingest_progress = on_bytes;
    rs->ingest_progress_ctx = b;
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
    free(b);
}
