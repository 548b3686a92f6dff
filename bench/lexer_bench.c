/* lexer_bench: cost of nr_sline_parse per line, next to a plain memchr
 * line split of the same buffer in the same run (the floor any line-based
 * reader pays). Lines imitate `strace -f -ttt -T -y` of a data loader:
 * read/pread64/openat/write/close/lseek over sharded files, a few threads,
 * some unfinished/resumed pairs and errors. Not part of ctest; run
 * bench/lexer_bench.sh. Deterministic: a fixed LCG seeds the generator. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strace_line.h"

static uint64_t lcg_state = 42;
static uint32_t next_random(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(lcg_state >> 33);
}

/* Appends one generated line (with '\n') at p; returns its length. */
static int make_line(char *p, uint64_t *t_us)
{
    static const char payload[] = "\"\\x93NUMPY\\x01\\x00v\\x00{'descr': '<f4', 'fortran_order'\"...";
    uint32_t r = next_random();
    int pid = 4242 + (int)(r % 5);
    unsigned shard = (r >> 8) % 4096, fd = 3 + (r >> 20) % 8;
    *t_us += 1 + r % 50;
    unsigned long long sec = 1764480000ULL + *t_us / 1000000, usec = *t_us % 1000000;
    unsigned dur = 2 + (r >> 4) % 900;
    switch ((r >> 24) % 16) {
    case 0:
        return sprintf(p, "%-5d %llu.%06llu openat(AT_FDCWD</work/run>, \"/data/train/shard-%05u.npy\", "
                          "O_RDONLY|O_CLOEXEC) = %u</data/train/shard-%05u.npy> <0.0000%02u>\n",
                       pid, sec, usec, shard, fd, shard, dur % 100);
    case 1:
        return sprintf(p, "%-5d %llu.%06llu close(%u</data/train/shard-%05u.npy>) = 0 <0.000003>\n", pid,
                       sec, usec, fd, shard);
    case 2:
        return sprintf(p, "%-5d %llu.%06llu write(%u</ckpt/epoch-%u.pt>, \"PK\\3\\4\\0\\0\\10\\0\\0\\0!\\0\"..., "
                          "1048576) = 1048576 <0.00%04u>\n",
                       pid, sec, usec, fd, shard % 10, dur);
    case 3:
        return sprintf(p, "%-5d %llu.%06llu lseek(%u</data/train/shard-%05u.npy>, 0, SEEK_END) = 4194432 "
                          "<0.000002>\n",
                       pid, sec, usec, fd, shard);
    case 4:
        return sprintf(p, "%-5d %llu.%06llu read(%u</data/train/shard-%05u.npy>,  <unfinished ...>\n", pid,
                       sec, usec, fd, shard);
    case 5:
        return sprintf(p, "%-5d %llu.%06llu <... read resumed>%s, 131072) = 131072 <0.000%03u>\n", pid, sec,
                       usec, payload, dur);
    case 6:
        return sprintf(p, "%-5d %llu.%06llu openat(AT_FDCWD</work/run>, \"/data/val/missing-%u\", O_RDONLY) = "
                          "-1 ENOENT (No such file or directory) <0.000004>\n",
                       pid, sec, usec, shard);
    case 7:
    case 8:
    case 9:
        return sprintf(p, "%-5d %llu.%06llu pread64(%u</data/train/shard-%05u.npy>, %s, 131072, %u) = 131072 "
                          "<0.000%03u>\n",
                       pid, sec, usec, fd, shard, payload, (r % 64) * 131072, dur);
    default:
        return sprintf(p, "%-5d %llu.%06llu read(%u</data/train/shard-%05u.npy>, %s, 131072) = 131072 "
                          "<0.000%03u>\n",
                       pid, sec, usec, fd, shard, payload, dur);
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine may be shared */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Baseline: split into lines and touch each line's length. */
static uint64_t split_only(const char *buf, size_t n, uint64_t *lines)
{
    uint64_t sum = 0, count = 0;
    const char *p = buf, *end = buf + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            nl = end;
        sum += (uint64_t)(nl - p);
        count++;
        p = nl + 1;
    }
    *lines = count;
    return sum;
}

/* Split + parse; with_args also decodes the fd of the first argument, as
 * the process model asks for it (nr_sarg_fd_at). */
static uint64_t split_parse(const char *buf, size_t n, int with_args)
{
    uint64_t sum = 0;
    const char *p = buf, *end = buf + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            nl = end;
        nr_sline s;
        nr_sline_parse(p, (size_t)(nl - p), &s);
        sum += (uint64_t)s.kind + (uint64_t)s.ts_ns + (uint64_t)s.result + (uint64_t)s.dur_ns + s.args.n;
        if (with_args && s.args.n) {
            int64_t fd;
            nr_span annot;
            if (nr_sarg_fd_at(s.args, 0, &fd, &annot) == 0)
                sum += (uint64_t)fd + annot.n;
        }
        p = nl + 1;
    }
    return sum;
}

int main(int argc, char **argv)
{
    size_t target = (size_t)(argc > 1 ? atof(argv[1]) : 256) * (1u << 20);
    char *buf = malloc(target + 4096);
    if (!buf)
        return 1;
    size_t n = 0;
    uint64_t t_us = 0;
    while (n < target)
        n += (size_t)make_line(buf + n, &t_us);
    uint64_t lines;
    volatile uint64_t sink = 0;
    double best[3] = {1e9, 1e9, 1e9};
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_s();
        sink += split_only(buf, n, &lines);
        double t1 = now_s();
        sink += split_parse(buf, n, 0);
        double t2 = now_s();
        sink += split_parse(buf, n, 1);
        double t3 = now_s();
        double d[3] = {t1 - t0, t2 - t1, t3 - t2};
        for (int k = 0; k < 3; k++)
            if (d[k] < best[k])
                best[k] = d[k];
    }
    static const char *const names[3] = {"memchr split (baseline)", "split + nr_sline_parse",
                                         "split + parse + nr_sarg_fd_at(arg 0)"};
    printf("%.1f MiB, %llu lines, %.1f bytes/line (best of 5)\n", (double)n / (1 << 20),
           (unsigned long long)lines, (double)n / (double)lines);
    for (int k = 0; k < 3; k++)
        printf("%-36s %7.1f ns/line %8.0f MB/s\n", names[k], best[k] * 1e9 / (double)lines,
               (double)n / best[k] / 1e6);
    printf("lexer alone: %.1f ns/line\n", (best[1] - best[0]) * 1e9 / (double)lines);
    return sink == 42 ? 2 : 0;
}
