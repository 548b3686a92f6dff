#!/usr/bin/env python3
"""Write a run directory whose hook marked a phase per training step.

One process (pid 7) enters the phase `step` every 100 us and stays 50 us
(STEPS instances that neither overlap nor touch: the most a run can ask
the model to keep, an interval each); its strace log reads 4 KiB of one
file every 1 ms, 20 us into a step, and ends with the process's exit.
With --train the steps run inside one `train` phase; with --waits each
step is preceded by a wait for its batch (`niorep_hook.batches`), 10 us.
With --io FILES each step reads one sample file through Python (an `io`
record, as the hook writes one per file object): /data/train/NNNNNN.jpg,
step i the file i mod FILES.

    bench/gen_phase_steps.py OUT_DIR [--steps N] [--train] [--waits] [--io FILES]

Deterministic (no clock, no randomness). Used for the phase-instance rows
of docs/performance.md (sessions 65 and 66: a million steps, the default).
"""

import argparse
import os

PID = 7
T0_US = 1_796_000_000_000_000  # the run's first microsecond (2026-11)
STEP_US, INSIDE_US, READ_EVERY_US, READ_AT_US, WAIT_US = 100, 50, 1000, 20, 10


def stamp(us):
    return f"{us // 1_000_000}.{us % 1_000_000:06d}"


def write_hook(path, steps, train, waits, io_files):
    with open(path, "w") as f:
        end_us = T0_US + steps * STEP_US
        if train:
            f.write(f'{{"ts":{stamp(T0_US)},"pid":{PID},"event":"phase_begin","phase":"train"}}\n')
        for i in range(steps):
            at = T0_US + i * STEP_US
            if waits:
                f.write(f'{{"ts":{stamp(at - WAIT_US)},"pid":{PID},"event":"wait","what":"batch",'
                        f'"dur":{WAIT_US / 1e6:.6f}}}\n')
            f.write(f'{{"ts":{stamp(at)},"pid":{PID},"event":"phase_begin","phase":"step"}}\n')
            if io_files:
                f.write(f'{{"ts":{stamp(at + READ_AT_US)},"pid":{PID},"event":"io","op":"read",'
                        f'"path":"/data/train/{i % io_files:06d}.jpg","bytes":{110_000 + i % 997},'
                        f'"dur":0.000{i % 90 + 10:03d},"calls":2,"open_dur":0.000004}}\n')
            f.write(f'{{"ts":{stamp(at + INSIDE_US)},"pid":{PID},"event":"phase_end","phase":"step"}}\n')
        if train:
            f.write(f'{{"ts":{stamp(end_us)},"pid":{PID},"event":"phase_end","phase":"train"}}\n')


def write_strace(path, steps):
    end_us = T0_US + steps * STEP_US
    with open(path, "w") as f:
        for at in range(T0_US, end_us, READ_EVERY_US):
            f.write(f'{PID}  {stamp(at + READ_AT_US)} read(3</data/x.bin>, ""..., 4096) = 4096 <0.000010>\n')
        f.write(f"{PID}  {stamp(end_us)} +++ exited with 0 +++\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="run directory to write (created)")
    ap.add_argument("--steps", type=int, default=1_000_000, help="phase instances (default 1000000)")
    ap.add_argument("--train", action="store_true", help="the steps inside one phase train")
    ap.add_argument("--waits", action="store_true", help="a wait for data before each step")
    ap.add_argument("--io", type=int, default=0, metavar="FILES",
                    help="an io record per step, over FILES sample files (default none)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    write_hook(os.path.join(a.out, "hook.jsonl"), a.steps, a.train, a.waits, a.io)
    write_strace(os.path.join(a.out, "strace.log"), a.steps)


if __name__ == "__main__":
    main()
