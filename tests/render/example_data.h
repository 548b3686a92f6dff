/* example_data: fixed, hand-made figure inputs for six runs (and degenerate
 * cases), shared by render_demo and the golden tests. No randomness beyond
 * a seeded generator: the same inputs every time. */
#ifndef EXAMPLE_DATA_H
#define EXAMPLE_DATA_H

#include "nr_render.h"

typedef enum example_case {
    EXAMPLE_SIX_RUNS,  /* the six reference workloads side by side */
    EXAMPLE_ONE_RUN,   /* the language model alone */
    EXAMPLE_EMPTY,     /* every input missing */
    EXAMPLE_ONE_POINT, /* one file, one sample, one bin */
    EXAMPLE_ZEROS,     /* all values zero */
    EXAMPLE_NAN,       /* non-finite values mixed in */
    EXAMPLE_FEW_FILES, /* one run of three files: markers on the points, the top-10% point on the curve */
    EXAMPLE_LONG_NAMES, /* three runs named as real runs are (45 and 200 characters, one not UTF-8) */
    EXAMPLE_CASES
} example_case;

/* Name of a case for file names ("six", "one", ...). */
const char *example_case_name(example_case c);

/* Fills *in with the case's inputs; the data stay valid until the next call
 * (static storage). */
void example_inputs(example_case c, nr_figure_inputs *in);

#endif
