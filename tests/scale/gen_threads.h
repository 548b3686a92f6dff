/* gen_threads: seeded strace -f -ttt -T -y logs of processes whose threads
 * share an fd table, for the split's tests and the fuzzer's seeds.
 *
 * The threads open, read, seek, dup, stat and close files under the fd
 * numbers the kernel would give (the lowest free one, taken at a call's
 * entry; a close frees its fd at entry too), with calls left <unfinished
 * ...> while other threads go on, signals, a fork whose child has a table
 * of its own, threads started and ended midway. The same seed and line
 * count give the same bytes. */
#ifndef GEN_THREADS_H
#define GEN_THREADS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Writes about `lines` lines to f; 0, or -1 when a write failed. */
int gen_threads_log(FILE *f, uint64_t seed, size_t lines);

#endif
