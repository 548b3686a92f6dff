/* Timeline: regular-file read/write bytes per time bin, overall and per
 * phase. Bin width adaptive: the smallest 1-2-5 x 10^k ns width that gives at
 * most 400 bins over the run (hence at least 160; fewer only for runs shorter
 * than 400 ns). Bytes are attributed to the bin of the call's start time. */
#include <stdlib.h>

#include "model_internal.h"

#define MAX_BINS 400

static int64_t choose_width(int64_t span)
{
    static const int64_t steps[3] = {1, 2, 5};
    for (int64_t decade = 1; decade <= INT64_MAX / 10; decade *= 10)
        for (int i = 0; i < 3; i++) {
            const int64_t w = steps[i] * decade;
            if ((span + w - 1) / w <= MAX_BINS)
                return w;
        }
    return INT64_MAX;
}

int nr__timeline_plan(nr_model *m)
{
    nr_model_timeline *t = &m->timeline;
    t->nphases = m->nphases;
    if (m->totals.first_ns < 0 || m->totals.last_ns < m->totals.first_ns)
        return 0;   /* no timestamps: no timeline */
    const int64_t span = m->totals.last_ns - m->totals.first_ns + 1;
    t->width_ns = choose_width(span);
    t->start_ns = m->totals.first_ns;
    t->nbins = (size_t)((span + t->width_ns - 1) / t->width_ns);
    m->tl_read = calloc(t->nbins, sizeof *m->tl_read);
    m->tl_write = calloc(t->nbins, sizeof *m->tl_write);
    m->tl_phase_read = calloc(t->nbins * m->nphases, sizeof *m->tl_phase_read);
    m->tl_phase_write = calloc(t->nbins * m->nphases, sizeof *m->tl_phase_write);
    if (!m->tl_read || !m->tl_write || !m->tl_phase_read || !m->tl_phase_write)
        return NR_E_NOMEM;
    t->read_bytes = m->tl_read;
    t->write_bytes = m->tl_write;
    t->phase_read = m->tl_phase_read;
    t->phase_write = m->tl_phase_write;
    return 0;
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
    const size_t cell = e->phase * t->nbins + (size_t)b;
    if (e->op == NR_OP_READ) {
        m->tl_read[b] += (uint64_t)e->bytes;
        m->tl_phase_read[cell] += (uint64_t)e->bytes;
    } else {
        m->tl_write[b] += (uint64_t)e->bytes;
        m->tl_phase_write[cell] += (uint64_t)e->bytes;
    }
}
