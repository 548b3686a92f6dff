/* Checkpoint bursts: runs of write activity on the timeline. A bin is
 * active when its write rate is at least NR_BURST_PEAK_FRACTION of the peak
 * bin's rate and at least NR_BURST_MIN_RATE; active runs separated by fewer
 * than NR_BURST_MERGE_GAP_BINS idle bins are one burst. A burst spans its
 * first to last active bin (gap bins included). */
#include <stdlib.h>

#include "model_internal.h"

int nr__bursts_compute(nr_model *m)
{
    const nr_model_timeline *t = &m->timeline;
    if (t->nbins == 0)
        return 0;
    const double width_s = (double)t->width_ns * 1e-9;
    uint64_t peak = 0;
    for (size_t b = 0; b < t->nbins; b++)
        peak = t->write_bytes[b] > peak ? t->write_bytes[b] : peak;
    double min_bytes = NR_BURST_PEAK_FRACTION * (double)peak;
    if (min_bytes < NR_BURST_MIN_RATE * width_s)
        min_bytes = NR_BURST_MIN_RATE * width_s;
    if (peak == 0 || (double)peak < min_bytes)
        return 0;
    size_t cap = 0;
    size_t b = 0;
    while (b < t->nbins) {
        if ((double)t->write_bytes[b] < min_bytes) {
            b++;
            continue;
        }
        /* extend the run while the next active bin is within the merge gap */
        size_t first = b, last = b;
        for (size_t k = b + 1; k < t->nbins; k++) {
            if ((double)t->write_bytes[k] >= min_bytes)
                last = k;
            else if (k - last >= NR_BURST_MERGE_GAP_BINS)
                break;   /* k - last idle bins in a row */
        }
        uint64_t bytes = 0, top = 0;
        for (size_t k = first; k <= last; k++) {
            bytes += t->write_bytes[k];
            top = t->write_bytes[k] > top ? t->write_bytes[k] : top;
        }
        NR_TRY(NR_GROW(m->bursts, cap, m->nbursts + 1));
        nr_model_burst *u = &m->bursts[m->nbursts];
        u->start_ns = t->start_ns + (int64_t)first * t->width_ns;
        u->end_ns = t->start_ns + (int64_t)(last + 1) * t->width_ns;
        u->bytes = bytes;
        u->duration_s = (double)(last + 1 - first) * width_s;
        u->peak_rate = (double)top / width_s;
        u->mean_rate = (double)bytes / u->duration_s;
        u->interval_s = m->nbursts ? (double)(u->start_ns - m->bursts[m->nbursts - 1].start_ns) * 1e-9 : NAN;
        m->nbursts++;
        b = last + 1;
    }
    return 0;
}
