/* render_demo: renders every figure from the fixed example data into a
 * folder for visual review.
 *   render_demo OUTDIR [--case six|one|empty|onepoint|zeros|nan|few|long|all]
 *                      [--width col|full|both] [--format svg,pdf,png]
 * Files are named <stem>-<case>-<col|full>.<ext>. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "example_data.h"

static int render_case(const char *dir, example_case c, int widths, const int formats[3])
{
    static const double width_pt[2] = {NR_RENDER_COLUMN_WIDTH_PT, NR_RENDER_FULL_WIDTH_PT};
    static const char *const width_name[2] = {"col", "full"};
    nr_figure_inputs in;
    example_inputs(c, &in);
    for (size_t f = 0; f < nr_figures_count; f++)
        for (int w = 0; w < 2; w++) {
            if (!(widths & (1 << w)))
                continue;
            for (int fmt = 0; fmt < 3; fmt++) {
                if (!formats[fmt])
                    continue;
                char path[4096];
                snprintf(path, sizeof path, "%s/%s-%s-%s.%s", dir, nr_figures[f].stem, example_case_name(c),
                         width_name[w], nr_render_format_ext((nr_render_format)fmt));
                nr_error err;
                nr_error_clear(&err);
                if (nr_render_figure_to_file(&nr_figures[f], &in, (nr_render_format)fmt, width_pt[w], path, &err) < 0) {
                    fprintf(stderr, "render_demo: %s\n", err.msg);
                    return 1;
                }
            }
        }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: render_demo OUTDIR [--case NAME|all] [--width col|full|both] [--format svg,pdf,png]\n");
        return 2;
    }
    const char *dir = argv[1], *case_name = "all", *width = "both", *format = "svg,pdf,png";
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--case") == 0)
            case_name = argv[i + 1];
        else if (strcmp(argv[i], "--width") == 0)
            width = argv[i + 1];
        else if (strcmp(argv[i], "--format") == 0)
            format = argv[i + 1];
        else {
            fprintf(stderr, "render_demo: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    int widths = strcmp(width, "col") == 0 ? 1 : strcmp(width, "full") == 0 ? 2 : 3;
    int formats[3] = {strstr(format, "svg") != NULL, strstr(format, "pdf") != NULL, strstr(format, "png") != NULL};
    mkdir(dir, 0777);
    for (int c = 0; c < EXAMPLE_CASES; c++)
        if (strcmp(case_name, "all") == 0 || strcmp(case_name, example_case_name((example_case)c)) == 0)
            if (render_case(dir, (example_case)c, widths, formats) != 0) {
                nr_render_shutdown();
                return 1;
            }
    nr_render_shutdown();
    return 0;
}
