/* Fuzz target: the input is a report template (HTML with data-nr marks).
 * The first line, up to a NUL byte, is used as the style sheet when present.
 * A template that parses is filled with a run, a paragraph, a table and a
 * figure holding hostile text, then serialised. Any outcome but a crash, a
 * leak or a hang is fine. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char hostile[] = "<script>alert(1)</script>\"><img src=x onerror=alert(1)>\xff\n";
static const char svg[] =
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">"
    "<defs><clipPath id=\"c1\"><rect width=\"5\" height=\"5\"/></clipPath></defs>"
    "<rect clip-path=\"url(#c1)\" width=\"10\" height=\"10\"/></svg>";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *html = (const char *)data, *css = "";
    size_t html_len = size, css_len = 0;
    const uint8_t *nul = memchr(data, '\0', size);
    if (nul) {
        css = (const char *)data;
        css_len = (size_t)(nul - data);
        html = (const char *)nul + 1;
        html_len = size - css_len - 1;
    }
    nr_report *r = NULL;
    nr_error err;
    if (nr_report_create(html, html_len, css, css_len, &r, &err) < 0)
        return 0;
    nr_report_set_title(r, hostile);
    nr_report_set_subtitle(r, hostile);
    nr_report_para(nr_report_overview(r), "note", hostile);
    nr_report_block *run = nr_report_add_run(r, hostile, hostile);
    if (run) {
        for (int s = 0; s < NR_SEC_COUNT; s++) {
            nr_report_block *b = nr_report_run_section(run, (enum nr_report_section)s);
            if (!b)
                continue;
            nr_report_heading(b, hostile);
            static const char *const headers[] = {"file", "bytes"};
            nr_report_table *t = nr_report_table_new(b, hostile, 2, headers, 2);
            if (t) {
                nr_report_table_row(t);
                nr_report_table_cell_path(t, hostile);
                nr_report_table_cell_key(t, "1", "k", 1.0);
            }
            nr_report_finding(b, hostile, hostile, hostile);
            (void)nr_report_figure(r, b, "fig1", hostile, svg, sizeof svg - 1, &err);
            nr_report_figure_missing(b, hostile, hostile);
        }
    }
    char *buf = NULL;
    size_t len = 0;
    if (nr_report_serialize(r, &buf, &len, &err) == 0)
        free(buf);
    nr_report_destroy(r);
    return 0;
}
