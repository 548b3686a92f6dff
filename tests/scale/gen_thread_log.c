/* gen_thread_log SEED LINES: prints gen_threads.h's log (the fuzzers'
 * thread seeds: docs/hardening.md). */
#include <stdio.h>
#include <stdlib.h>

#include "gen_threads.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gen_thread_log SEED LINES\n");
        return 2;
    }
    return gen_threads_log(stdout, strtoull(argv[1], NULL, 10), strtoull(argv[2], NULL, 10)) == 0 ? 0 : 1;
}
