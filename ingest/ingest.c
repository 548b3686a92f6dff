/* Placeholder until the ingest pipeline lands (issue: ingest). */
#include "nr_ingest.h"

int nr_ingest_run(const char *input, const char *out_path, const nr_ingest_opts *opts,
                  nr_ingest_stats *stats, nr_error *err)
{
    return nr_error_set(err, NR_E_USAGE, "%s: ingest is not built yet", input);
}
