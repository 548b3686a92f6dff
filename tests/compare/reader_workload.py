#!/usr/bin/python3
"""A small standard-library workload for the compare end-to-end test.

Reads every file of a data folder in fixed-size reads, in sorted order, and
writes a small "checkpoint" at the end. --cold slows the file-system path
down for real: before reading a file it drops the file's cached pages
(posix_fadvise DONTNEED) and turns read-ahead off (POSIX_FADV_RANDOM), so
each read goes to the block device instead of the page cache; what changes
is the latency of the read syscalls, not their number or sizes.

--make creates the data folder (deterministic content) and exits."""
import argparse
import os
import sys

try:
    import niorep_hook   # present when run under `niorep trace`
except ImportError:      # plain strace: no phases
    niorep_hook = None


class nullphase:
    def __init__(self, name):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def phase(name):
    return niorep_hook.phase(name) if niorep_hook else nullphase(name)


def make(data, files, size):
    os.makedirs(data, exist_ok=True)
    for i in range(files):
        block = bytes((i * 7 + k) % 251 for k in range(4096))
        with open(os.path.join(data, f"part-{i:04d}.bin"), "wb") as f:
            left = size
            while left:
                n = min(left, len(block))
                f.write(block[:n])
                left -= n
    os.sync()


def read_all(data, read_size, cold):
    total = 0
    for name in sorted(os.listdir(data)):
        fd = os.open(os.path.join(data, name), os.O_RDONLY)
        try:
            if cold:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
            while True:
                b = os.read(fd, read_size)
                if not b:
                    break
                total += len(b)
        finally:
            os.close(fd)
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", help="folder for the checkpoint file")
    ap.add_argument("--make", action="store_true")
    ap.add_argument("--files", type=int, default=300)
    ap.add_argument("--size", type=int, default=65536)
    ap.add_argument("--read-size", type=int, default=16384)
    ap.add_argument("--cold", action="store_true")
    a = ap.parse_args()
    if a.make:
        make(a.data, a.files, a.size)
        return 0
    with phase("train"):
        total = read_all(a.data, a.read_size, a.cold)
    if a.out:
        with phase("checkpoint"):
            with open(os.path.join(a.out, "ckpt.bin"), "wb") as f:
                f.write(total.to_bytes(8, "little") * 1024)
    return 0


if __name__ == "__main__":
    sys.exit(main())
