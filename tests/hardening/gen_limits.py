#!/usr/bin/python3
"""Generates the strace logs of the limits tests (strace -f -ttt -T -y style).

  gen_limits.py procs N FILE   N processes (pids 1000..), each opens, reads
                               and closes its own file: N processes, N files
  gen_limits.py files N FILE   one process stats N distinct files and opens,
                               reads and closes every 100th: N files
"""
import sys


def procs(n, out):
    ts = 1_700_000_000_000_000
    w = out.write
    for i in range(n):
        pid = 1000 + i
        path = f"/data/p/{i:07d}.bin"
        w(f'{pid} {ts // 1000000}.{ts % 1000000:06d} openat(AT_FDCWD, "{path}", O_RDONLY) = 3<{path}> <0.000010>\n')
        w(f'{pid} {ts // 1000000}.{ts % 1000000 + 1:06d} read(3<{path}>, ""..., 4096) = 4096 <0.000005>\n')
        w(f'{pid} {ts // 1000000}.{ts % 1000000 + 2:06d} close(3<{path}>) = 0 <0.000001>\n')
        ts += 4


def files(n, out):
    ts = 1_700_000_000_000_000
    w = out.write
    for i in range(n):
        path = f"/data/f/{i // 10000:04d}/{i:08d}.jpg"
        stamp = f"{ts // 1000000}.{ts % 1000000:06d}"
        w(f'4242 {stamp} newfstatat(AT_FDCWD, "{path}", {{st_mode=S_IFREG|0644, st_size=4096, ...}}, 0) = 0 <0.000002>\n')
        if i % 100 == 0:
            w(f'4242 {stamp} openat(AT_FDCWD, "{path}", O_RDONLY) = 3<{path}> <0.000010>\n')
            w(f'4242 {stamp} read(3<{path}>, ""..., 4096) = 4096 <0.000005>\n')
            w(f'4242 {stamp} close(3<{path}>) = 0 <0.000001>\n')
        ts += 3


if __name__ == "__main__":
    kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(path, "w", buffering=1 << 20) as f:
        {"procs": procs, "files": files}[kind](n, f)
