/* Fuzz target: the input is a figure's SVG as the report imports it (a
 * kept figure file holds one, and nothing stops it being edited): it is
 * placed twice in a report's overview, so that the second copy's glyph
 * symbols meet the shared ones of the first (render/report_glyphs.c),
 * then the report is serialised. Any outcome but a crash, a leak or a
 * hang is fine. The report is the compiled-in template's: a page of the
 * overview alone lacks the marks nr_report_create requires (runs,
 * run-template, css), so until session 49 every input stopped there and
 * no SVG was ever imported; a report that cannot be made now aborts. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nr_report *r = NULL;
    nr_error err;
    if (nr_report_create_default(&r, &err) < 0) {
        fprintf(stderr, "fuzz_figure_svg: %s\n", err.msg);
        abort();
    }
    nr_report_block *overview = nr_report_overview(r);
    if (!overview)
        abort();
    (void)nr_report_figure(r, overview, "fig1", "first", (const char *)data, size, &err);
    (void)nr_report_figure(r, overview, "fig2", "second", (const char *)data, size, &err);
    char *buf = NULL;
    size_t len = 0;
    if (nr_report_serialize(r, &buf, &len, &err) == 0)
        free(buf);
    nr_report_destroy(r);
    return 0;
}
