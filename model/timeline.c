/* Timeline: regular-file read/write bytes per time bin, overall and of
 * the job's files alone (figure 5; no longer per phase since session 52:
 * no figure, table or summary read those bins, which held nbins x 16 B a
 * phase name, 440 MB at 100,000 names). Bin width adaptive: the smallest 1-2-5 x 10^k ns width that gives at
 * most 400 bins over the run (hence at least 160; fewer only for runs shorter
 * than 400 ns). Bytes are attributed to the bin of the call's start time. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

#define MAX_BINS 400

/* With whole-second stamps (strace -t) a bin is at least a second: the
 * calls of a second share its stamp, and 5 ms bins put a second's bytes
 * into one bin, a rate 200 times too high (until session 47). The run
 * starts on a whole second then, so each bin holds whole seconds. */
#define WHOLE_SECOND_MIN_WIDTH 1000000000LL

static int64_t choose_width(int64_t span, int64_t min_width)
{
    static const int64_t steps[3] = {1, 2, 5};
    for (int64_t decade = 1; decade <= INT64_MAX / 10; decade *= 10)
        for (int i = 0; i < 3; i++) {
            const int64_t w = steps[i] * decade;
            if (w >= min_width && (span + w - 1) / w <= MAX_BINS)
                return w;
        }
    return INT64_MAX;
}

/* The plan for a run extent [first, last]: 0 bins when there is none. */
static void plan_of(int64_t first, int64_t last, int64_t min_width, nr_model_timeline *t)
{
    t->width_ns = 0;
    t->start_ns = 0;
    t->nbins = 0;
    if (first < 0 || last < first)
        return;
    const int64_t span = last - first + 1;
    t->width_ns = choose_width(span, min_width);
    t->start_ns = first;
    t->nbins = (size_t)((span + t->width_ns - 1) / t->width_ns);
}

static int alloc_bins(nr_model *m)
{
    nr_model_timeline *t = &m->timeline;
    m->tl_read = calloc(t->nbins, sizeof *m->tl_read);
    m->tl_write = calloc(t->nbins, sizeof *m->tl_write);
    m->tl_job_read = calloc(t->nbins, sizeof *m->tl_job_read);
    m->tl_job_write = calloc(t->nbins, sizeof *m->tl_job_write);
    if (!m->tl_read || !m->tl_write || !m->tl_job_read || !m->tl_job_write)
        return NR_E_NOMEM;
    t->read_bytes = m->tl_read;
    t->write_bytes = m->tl_write;
    t->job_read = m->tl_job_read;
    t->job_write = m->tl_job_write;
    return 0;
}

static void free_bins(nr_model *m)
{
    free(m->tl_read);
    free(m->tl_write);
    free(m->tl_job_read);
    free(m->tl_job_write);
    m->tl_read = m->tl_write = m->tl_job_read = m->tl_job_write = NULL;
}

/* The timeline needs the run's first timestamp and extent, known only after
 * pass 1; pass 2 would then decode the timestamps a second time. The
 * processes table usually tells both in advance: pass 1 fills the timeline
 * on that predicted plan, and nr__timeline_plan keeps it only when the
 * actual plan has the same start and width (the bins are then the same). */
int nr__timeline_predict(nr_model *m)
{
    int64_t first = -1, last = -1;
    for (size_t i = 0; i < m->nprocs; i++) {
        const nr_model_process *p = &m->procs[i];
        if (p->first_ns >= 0 && (first < 0 || p->first_ns < first))
            first = p->first_ns;
        if (p->last_ns > last)
            last = p->last_ns;
    }
    plan_of(first, last, 1, &m->timeline);
    m->tl_state = m->timeline.nbins ? NR__TL_PREDICTED : NR__TL_NONE;
    return m->tl_state == NR__TL_PREDICTED ? alloc_bins(m) : 0;
}

int nr__timeline_plan(nr_model *m)
{
    nr_model_timeline *t = &m->timeline;
    nr_model_timeline actual = {0};
    plan_of(m->totals.first_ns, m->totals.last_ns, nr__whole_second_stamps(m) ? WHOLE_SECOND_MIN_WIDTH : 1,
            &actual);
    if (m->tl_state == NR__TL_PREDICTED && actual.nbins > 0 && actual.start_ns == t->start_ns &&
        actual.width_ns == t->width_ns && actual.nbins <= t->nbins) {
        /* every event fell in a bin < actual.nbins: the extra bins are empty */
        t->nbins = actual.nbins;
        m->tl_state = NR__TL_FILLED;
        return 0;
    }
    free_bins(m);
    t->width_ns = actual.width_ns;
    t->start_ns = actual.start_ns;
    t->nbins = actual.nbins;
    t->read_bytes = t->write_bytes = t->job_read = t->job_write = NULL;
    m->tl_state = NR__TL_NONE;
    if (t->nbins == 0)
        return 0;   /* no timestamps: no timeline */
    m->tl_state = NR__TL_PASS2;
    return alloc_bins(m);
}

void nr__timeline_add(nr_model *m, const nr__event *e)
{
    const nr_model_timeline *t = &m->timeline;
    if (t->nbins == 0 || e->reg < 0 || e->ts < 0 || e->bytes <= 0 || (e->flags & NR_EVF_NEVER_RESUMED))
        return;
    if (e->op != NR_OP_READ && e->op != NR_OP_WRITE)
        return;
    int64_t b = (e->ts - t->start_ns) / t->width_ns;
    b = b < 0 ? 0 : b >= (int64_t)t->nbins ? (int64_t)t->nbins - 1 : b;
    const int job = !m->reg_runtime[e->reg];
    if (e->op == NR_OP_READ) {
        m->tl_read[b] += (uint64_t)e->bytes;
        m->tl_job_read[b] += job ? (uint64_t)e->bytes : 0;
    } else {
        m->tl_write[b] += (uint64_t)e->bytes;
        m->tl_job_write[b] += job ? (uint64_t)e->bytes : 0;
    }
}
