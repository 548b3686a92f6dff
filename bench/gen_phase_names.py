#!/usr/bin/env python3
"""Write a run directory whose hook opened very many distinct phase names.

One process (pid 4242) runs `train` for the whole run; inside it, step i
runs in its own nested phase `step_<i>` (N distinct names, one instance
each, as a training loop that puts the step number in the phase name).
Each step opens one of 64 shard files, reads it in 4 KiB calls and closes
it; the strace log has about LINES lines in all (`strace -f -ttt -T -y`
form), the hook.jsonl the phases and one `io` record per step.

    bench/gen_phase_names.py OUT_DIR [--names N] [--lines L] [--io-every K]

With --io-every K (default 1) only every K-th step reads inside its own
phase; the other steps' reads come right after their phase ends, in
`train`, so that their names have no calls of their own (the lines stay
the same; K larger than N: only step_0 has calls).

Deterministic: the same arguments give byte-identical files (no clock,
no randomness).  Used for the many-names rows of docs/performance.md
(session 52), standing in for session 50's lost gen_hook.py `nest N`.
"""

import argparse
import os

PID = 4242
T0_US = 1_796_000_000_000_000  # the run's first microsecond (2026-11)
SHARDS = 64
CHUNK = 4096


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="run directory to write (created)")
    ap.add_argument("--names", type=int, default=100_000,
                    help="distinct nested phase names (default 100000)")
    ap.add_argument("--lines", type=int, default=1_000_000,
                    help="about this many strace lines (default 1000000)")
    ap.add_argument("--io-every", type=int, default=1,
                    help="only every K-th step reads inside its phase (default 1: every step)")
    return ap.parse_args()


def stamp(us):
    """strace -ttt's seconds.microseconds of an integer microsecond."""
    return "%d.%06d" % divmod(us, 1_000_000)


def hook_ts(us):
    """The hook's time.time() form of the same microsecond."""
    return "%d.%06d" % divmod(us, 1_000_000)


def write_reads(log, hook, step, us, reads):
    """open + reads + close of step's shard, and its io record. Returns
    the microsecond after them."""
    path = "/data/shards/shard_%02d.bin" % (step % SHARDS)
    open_us = us
    log.write('%d  %s openat(AT_FDCWD</work>, "%s", O_RDONLY|O_CLOEXEC) = 3<%s> <0.000008>\n'
              % (PID, stamp(us), path, path))
    us += 10
    for _ in range(reads):
        log.write('%d  %s read(3<%s>, ""..., %d) = %d <0.000012>\n'
                  % (PID, stamp(us), path, CHUNK, CHUNK))
        us += 15
    log.write('%d  %s close(3<%s>) = 0 <0.000003>\n' % (PID, stamp(us), path))
    us += 5
    hook.write('{"ts":%s,"pid":%d,"tid":%d,"event":"io","op":"read",'
               '"path":"%s","bytes":%d,"dur":%.6f,"calls":%d,"open_dur":0.000008}\n'
               % (hook_ts(open_us), PID, PID, path, reads * CHUNK,
                  reads * 0.000012, reads))
    return us


def write_step(log, hook, step, us, reads, inside):
    """One step: phase_begin, phase_end, its reads between them (inside)
    or after them. Returns the microsecond after it."""
    name = "step_%d" % step
    hook.write('{"ts":%s,"pid":%d,"tid":%d,"event":"phase_begin",'
               '"phase":"%s","depth":1}\n' % (hook_ts(us), PID, PID, name))
    us += 2
    if inside:
        us = write_reads(log, hook, step, us, reads)
    hook.write('{"ts":%s,"pid":%d,"tid":%d,"event":"phase_end",'
               '"phase":"%s","depth":1}\n' % (hook_ts(us), PID, PID, name))
    us += 2
    if not inside:
        us = write_reads(log, hook, step, us, reads)
    return us


def main():
    args = parse_args()
    names = max(1, args.names)
    # Each step writes reads + 2 strace lines (openat, close).
    reads = max(1, args.lines // names - 2)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "strace.log"), "w") as log, \
         open(os.path.join(args.out, "hook.jsonl"), "w") as hook:
        us = T0_US
        log.write('%d  %s execve("/usr/bin/python3", ["python3", "train.py"], '
                  '0x7ffd82b32d00 /* 39 vars */) = 0 <0.000164>\n' % (PID, stamp(us)))
        us += 1000
        hook.write('{"ts":%s,"pid":%d,"tid":%d,"event":"header","version":1,'
                   '"tool":"niorep_hook","clock":"time.time","out":"%s",'
                   '"ppid":1,"python":"3.11.2","argv":["train.py"]}\n'
                   % (hook_ts(us), PID, PID, "/work/run/hook.jsonl"))
        hook.write('{"ts":%s,"pid":%d,"tid":%d,"event":"phase_begin",'
                   '"phase":"train","depth":0}\n' % (hook_ts(us + 1), PID, PID))
        us += 10
        for step in range(names):
            us = write_step(log, hook, step, us, reads, step % max(1, args.io_every) == 0)
        hook.write('{"ts":%s,"pid":%d,"tid":%d,"event":"phase_end",'
                   '"phase":"train","depth":0}\n' % (hook_ts(us), PID, PID))
        us += 100
        log.write('%d  %s exit_group(0) = ?\n' % (PID, stamp(us)))
        log.write('%d  %s +++ exited with 0 +++\n' % (PID, stamp(us + 20)))


if __name__ == "__main__":
    main()
