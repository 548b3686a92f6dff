/* Run A, composed by hand. Expected values (used by test_model.c and
 * check_summary.py) are derived in the comments.
 *
 * files: 0 /data/a (regular), 1 /data/b (regular), 2 pipe:[9] (pipe),
 *        3 /ckpt/c (regular), 4 /scratch/d (regular, never touched)
 * processes: 100 (ppid 1) main: it begins the first phase;
 *            101, 102 (ppid 100) workers; 200 (ppid 1) other.
 * phases: 0 data_prep [0 s, 1 s]; 1 train [1 s, 3 s]; 2 checkpoint [3 s, 4 s];
 *         3 train [4 s, 5 s]  -> train wall 3 s (2 instances), data_prep 1 s, checkpoint 1 s.
 *
 * events (t, dur, pid, call, file, bytes, offset, phase):
 *   0.1 s   10 us 100 openat  a            ph0
 *   0.2 s  100 us 100 read    a 4096 @0    ph0   first (file a, reads)
 *   0.3 s  200 us 100 read    a 4096 @4096 ph0   consecutive
 *   1.5 s    1 ms 101 read    b 65536 @0   ph1   first (file b)
 *   1.6 s    2 ms 102 read    b 65536 @131072 ph1  sequential (gap: 131072 > 65536)
 *   1.7 s   50 us 101 read    b 1000 @0    ph1   random (0 < 196608)
 *   2.0 s    5 us 101 read    pipe 999     ph1   not file I/O: nonfile.pipe
 *   3.5 s   10 ms 100 write   c 1048576 @0 ph2   first (file c, writes)
 *   3.6 s   20 ms 100 fsync   c            ph2
 *   4.5 s   30 us 100 read    a 100 @8192  ph3   consecutive (a's reads ended at 8192)
 *   5.0 s    7 us 200 stat    b            -1    unphased
 *
 * totals: bytes_read 4096+4096+65536+65536+1000+100 = 140364 in 6 calls;
 *   bytes_written 1048576 in 1 call; files_read 2 (a, b); files_written 1 (c);
 *   processes 4; run from 0.1 s to 5.000007 s (last end) = 4.900007 s.
 * phases: data_prep: 2 reads, 8192 B, io time 10+100+200 us = 0.00031 s;
 *   train: 4 reads, 65536+65536+1000+100 = 132172 B, io 1000+2000+50+30 us = 0.00308 s;
 *   checkpoint: 1 write 1048576 B, io 10+20 ms = 0.03 s; unphased: 1 metadata call 7 us,
 *   wall 0 (phases cover [0, 5 s], more than the run).
 * read latency (us): 30 50 100 200 1000 2000: p50 = rank 3 = 100 us; p90 = rank 6 = 2 ms = max.
 *   main reads 100 200 30 -> p50 rank 2 = 100 us; worker reads 1000 2000 50 -> p50 = 1000 us.
 *   by file system (/data mount): the five reads of a and b; /ckpt unknown: none.
 * request sizes: reads 4096 x2 -> 1K-10K, 65536 x2 -> 10K-100K, 1000 -> 100-1K, 100 -> 0-100;
 *   write 1048576 -> 100K-1M. Median read size: 100 1000 4096 4096 65536 65536 -> rank 3 = 4096.
 * pattern, reads: first 2, consecutive 2, sequential 1, random 1; writes: first 1.
 * opens 1 (openat of a); meta 1 / data 7 calls = 0.142857.
 * files by use: a (8292 B) and b (132072 B) read only, 140364 B; c written only, 1048576 B;
 *   none read and written; d no bytes. Per file system: /data a and b (140364 B read);
 *   unknown (no mount listed) c and d (1048576 B written).
 * fidelity: pid 200 has I/O but only unphased -> 1; phases without I/O 0.
 * marks: epoch at 2 s (phase 1, train), epoch at 4.5 s (phase 3, train), step at 4.6 s (unphased):
 *   t_s from the first event (100 ms): 1.9, 4.4, 4.5.
 * waits (thread, begin, duration, phase): 100/100 1.1 s 200 ms train; 100/105 2.0 s 150 ms train;
 *   100/100 2.5 s 100 ms train; 100/100 4.2 s 300 ms train (phase 3); 200/200 4.8 s 10 ms unphased.
 *   The 200 and 300 ms waits are the first items of two passes.
 *   train: 4 waits, 0.75 s, 2 threads, share 0.75 / (3 s x 2) = 0.125;
 *   sorted 100 150 200 300 ms: p50 rank 2 = 150 ms, p99 rank 4 = 300 ms = max.
 *   passes 2, start 0.5 s (max 300 ms), start share 0.5 / 6 = 0.0833 (loader_start does not fire);
 *   steady 0.25 s (max 150 ms), steady share 0.25 / (6 - 0.5) = 0.0454545 (nor does batch_wait).
 *   unphased: 1 wait of 10 ms, share unknown (wall 0). run: 5 waits, 0.76 s, 3 threads, share
 *   0.76 / (4.900007 s x 3) = 0.0517006; sorted 10 100 150 200 300: p50 rank 3 = 150 ms, p99 300 ms;
 *   steady 0.26 s, share 0.26 / (4.900007 s x 3 - 0.5 s).
 * findings: async_checkpoints (1 s / 4.900007 s = 0.204 > 0.10); small_reads does not fire:
 *   median 4096 < 65536 but reads take 3.38 ms of 33.397 ms of I/O time (0.10 < 0.5 gate);
 *   data_bound does not (train 0.00308 / 3 s); hot_set not applicable (3 files < 10). */
#include "fixture_runs.h"

#include "store_builder.h"

void build_run_a(const char *path)
{
    tb t;
    tb_open(&t, path);
    tb_meta(&t, "manifest.fs.0.mount_point", "/data");
    tb_meta(&t, "manifest.fs.0.type", "ext4");
    tb_file(&t, 0, "/data/a", NR_KIND_REGULAR);
    tb_file(&t, 1, "/data/b", NR_KIND_REGULAR);
    tb_file(&t, 2, "pipe:[9]", NR_KIND_PIPE);
    tb_file(&t, 3, "/ckpt/c", NR_KIND_REGULAR);
    tb_file(&t, 4, "/scratch/d", NR_KIND_REGULAR);
    tb_proc(&t, 100, 1, 0, 5 * SEC);
    tb_proc(&t, 101, 100, 1 * SEC, 3 * SEC);
    tb_proc(&t, 102, 100, 1 * SEC, 3 * SEC);
    tb_proc(&t, 200, 1, 4 * SEC, 5 * SEC + 7 * US);
    tb_phase(&t, 0, 100, "data_prep", 0, 1 * SEC);
    tb_phase(&t, 1, 100, "train", 1 * SEC, 3 * SEC);
    tb_phase(&t, 2, 100, "checkpoint", 3 * SEC, 4 * SEC);
    tb_phase(&t, 3, 100, "train", 4 * SEC, 5 * SEC);
    tb_pyio(&t, 3 * SEC + 400 * MS, 100, "ckpt/c", 1048576);
    tb_mark(&t, 2 * SEC, 100, "epoch", "{\"loss\":0.5,\"n\":0}", 1);
    tb_mark(&t, 4500 * MS, 100, "epoch", "{\"loss\":0.25,\"n\":1}", 3);
    tb_mark(&t, 4600 * MS, 200, "step", "", -1);
    tb_wait_first(&t, 1100 * MS, 100, 100, 200 * MS, 1, 1);
    tb_wait(&t, 2000 * MS, 100, 105, 150 * MS, 1);
    tb_wait(&t, 2500 * MS, 100, 100, 100 * MS, 1);
    tb_wait_first(&t, 4200 * MS, 100, 100, 300 * MS, 3, 1);
    tb_wait(&t, 4800 * MS, 200, 200, 10 * MS, -1);

    tb_call(&t, 100 * MS, 10 * US, 100, NR_OP_OPEN, 0, 0, -1, 0);
    tb_call(&t, 200 * MS, 100 * US, 100, NR_OP_READ, 0, 4096, 0, 0);
    tb_call(&t, 300 * MS, 200 * US, 100, NR_OP_READ, 0, 4096, 4096, 0);
    tb_call(&t, 1500 * MS, 1 * MS, 101, NR_OP_READ, 1, 65536, 0, 1);
    tb_call(&t, 1600 * MS, 2 * MS, 102, NR_OP_READ, 1, 65536, 131072, 1);
    tb_call(&t, 1700 * MS, 50 * US, 101, NR_OP_READ, 1, 1000, 0, 1);
    tb_call(&t, 2000 * MS, 5 * US, 101, NR_OP_READ, 2, 999, -1, 1);
    tb_call(&t, 3500 * MS, 10 * MS, 100, NR_OP_WRITE, 3, 1048576, 0, 2);
    tb_call(&t, 3600 * MS, 20 * MS, 100, NR_OP_SYNC, 3, 0, -1, 2);
    tb_call(&t, 4500 * MS, 30 * US, 100, NR_OP_READ, 0, 100, 8192, 3);
    tb_call(&t, 5000 * MS, 7 * US, 200, NR_OP_META, 1, 0, -1, -1);
    tb_commit(&t);
}
