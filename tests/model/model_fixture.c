/* Writes run A (fixture_runs.c) to argv[1], for the CLI test. */
#include <stdio.h>

#include "fixture_runs.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: model_fixture OUT.nio\n");
        return 2;
    }
    build_run_a(argv[1]);
    return 0;
}
