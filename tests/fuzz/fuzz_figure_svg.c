/* Fuzz target: the input is a figure's SVG as the report imports it (a
 * kept figure file holds one, and nothing stops it being edited): it is
 * placed twice in a report's overview, so that the second copy's glyph
 * symbols meet the shared ones of the first (render/report_glyphs.c),
 * then the report is serialised. Any outcome but a crash, a leak or a
 * hang is fine. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char page[] = "<html><body><section data-nr=\"overview\"></section></body></html>";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nr_report *r = NULL;
    nr_error err;
    if (nr_report_create(page, sizeof page - 1, "", 0, &r, &err) < 0)
        return 0;
    nr_report_block *overview = nr_report_overview(r);
    if (overview) {
        (void)nr_report_figure(r, overview, "fig1", "first", (const char *)data, size, &err);
        (void)nr_report_figure(r, overview, "fig2", "second", (const char *)data, size, &err);
    }
    char *buf = NULL;
    size_t len = 0;
    if (nr_report_serialize(r, &buf, &len, &err) == 0)
        free(buf);
    nr_report_destroy(r);
    return 0;
}
