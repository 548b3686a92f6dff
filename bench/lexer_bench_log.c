/* lexer_bench_log: nr_sline_parse over the lines of a real log file, for
 * instruction counts under callgrind (the lexer's inclusive cost) or CPU
 * time (best of N passes). Not part of ctest; bench/lexer_bench_log.sh
 * builds and runs it.
 * usage: lexer_bench_log LOG [passes [sse2]] (sse2: without the AVX2 scan) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strace_line.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine may be shared */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Splits buf into lines and parses each; returns a checksum of the fields. */
static __attribute__((noinline)) uint64_t parse_all(const char *buf, size_t n, uint64_t *lines)
{
    uint64_t sum = 0, count = 0;
    const char *p = buf, *end = buf + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            nl = end;
        nr_sline s;
        nr_sline_parse(p, (size_t)(nl - p), &s);
        sum += (uint64_t)s.kind + (uint64_t)s.ts_ns + (uint64_t)s.result + (uint64_t)s.dur_ns + s.args.n +
               s.name.n + s.errno_name.n + s.result_annot.n;
        count++;
        p = nl + 1;
    }
    *lines = count;
    return sum;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LOG [passes]\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 1;
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n + 1);
    if (!buf || fread(buf, 1, n, f) != n)
        return 1;
    fclose(f);
    int passes = argc > 2 ? atoi(argv[2]) : 1;
    nr__sline_no_avx2(argc > 3 && strcmp(argv[3], "sse2") == 0);
    double best = 1e9;
    uint64_t lines = 0, sum = 0;
    for (int k = 0; k < passes; k++) {
        double t0 = now_s();
        sum += parse_all(buf, n, &lines);
        double t = now_s() - t0;
        if (t < best)
            best = t;
    }
    printf("%zu bytes, %llu lines, checksum %llu, best %.1f ns/line %.0f MB/s\n", n, (unsigned long long)lines,
           (unsigned long long)sum, best * 1e9 / (double)lines, (double)n / best / 1e6);
    free(buf);
    return 0;
}
