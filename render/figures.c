/* figures: the registry of the figure set, in figure order. File stems are
 * stable: papers and scripts refer to them. */
#include <string.h>

#include "render_internal.h"

const nr_figure_def nr_figures[] = {
    {.id = 1, .stem = "fig1-phase-breakdown", .title = "Bytes and I/O time per phase, the runtime's files apart",
     .height = nr__fig_phase_height, .draw = nr__fig_phase_draw},
    {.id = 2, .stem = "fig2-lorenz", .title = "Concentration of bytes over job files (Lorenz curves)",
     .height = nr__fig_lorenz_height, .draw = nr__fig_lorenz_draw},
    {.id = 3, .stem = "fig3-file-bytes-ccdf", .title = "Per-file bytes CCDF with power-law fit (job files)",
     .height = nr__fig_ccdf_height, .draw = nr__fig_ccdf_draw},
    {.id = 4, .stem = "fig4-read-latency", .title = "Read latency CDF and tail (job files)",
     .height = nr__fig_latency_height, .draw = nr__fig_latency_draw},
    {.id = 5, .stem = "fig5-throughput-timeline", .title = "Read and write throughput over time (job files)",
     .height = nr__fig_timeline_height, .draw = nr__fig_timeline_draw},
    {.id = 6, .stem = "fig6-request-sizes", .title = "Request-size histogram (job files)",
     .height = nr__fig_reqsize_height, .draw = nr__fig_reqsize_draw},
    {.id = 7, .stem = "fig7-process-share", .title = "I/O share of the main process and the workers (job files)",
     .height = nr__fig_procshare_height, .draw = nr__fig_procshare_draw},
};

const size_t nr_figures_count = sizeof nr_figures / sizeof nr_figures[0];

const nr_figure_def *nr_figure_find(const char *stem)
{
    for (size_t i = 0; i < nr_figures_count; i++) {
        const nr_figure_def *f = &nr_figures[i];
        size_t n = strlen("figN");
        if (strcmp(stem, f->stem) == 0 || (strlen(stem) == n && strncmp(stem, f->stem, n) == 0))
            return f;
    }
    return NULL;
}
