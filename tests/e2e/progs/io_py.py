"""io_py: known I/O from Python (os-level calls, so every call is one syscall),
threads sharing the fd table and a forked child sharing an offset.
Accounting on stdout, one JSON line per call, as in e2e_acct.h.
usage: python3 io_py.py WORKDIR"""
import json
import os
import sys
import threading

OUT = sys.stdout.fileno()


def acct(path, sys_name, direction, ret, off=-1, kind="regular"):
    line = json.dumps({"prog": "io_py", "pid": os.getpid(), "path": os.fsencode(path).hex(),
                       "sys": sys_name, "dir": direction, "ret": ret, "off": off, "kind": kind})
    os.write(OUT, (line + "\n").encode())


def call(path, sys_name, direction, fn, off=-1):
    """Runs fn (one syscall) and records it; failures are recorded with ret -1."""
    try:
        ret = fn()
    except OSError:
        acct(path, sys_name, direction, -1, off)
        return None
    n = ret if isinstance(ret, int) else len(ret)
    acct(path, sys_name, direction, n, off)
    return ret


def open_(path, flags):
    return call(path, "openat", "o", lambda: os.open(path, flags, 0o644))


def main():
    work = sys.argv[1]
    print("io_py: starting", file=sys.stderr, flush=True)
    data = os.path.join(work, "py data.bin")
    fd = open_(data, os.O_CREAT | os.O_RDWR | os.O_TRUNC)
    call(data, "write", "w", lambda: os.write(fd, b"x" * 4096), 0)
    call(data, "writev", "w", lambda: os.writev(fd, [b"a" * 100, b"b" * 28]), 4096)
    call(data, "pwrite64", "w", lambda: os.pwrite(fd, b"z" * 10, 8000), 8000)
    os.lseek(fd, 0, os.SEEK_SET)
    call(data, "read", "r", lambda: os.read(fd, 1000), 0)
    call(data, "readv", "r", lambda: os.readv(fd, [bytearray(24), bytearray(1000)]), 1000)
    call(data, "pread64", "r", lambda: os.pread(fd, 50, 7990), 7990)
    # CPython's os.preadv issues preadv2 (flags 0) where the kernel has it
    call(data, "preadv2", "r", lambda: os.preadv(fd, [bytearray(64)], 4000), 4000)
    os.close(fd)

    # threads share the fd table: one opens, another reads, main closes
    shared = {}
    mine = os.path.join(work, "py_thread.bin")

    def opener():
        shared["fd"] = open_(mine, os.O_CREAT | os.O_RDWR | os.O_TRUNC)
        call(mine, "write", "w", lambda: os.write(shared["fd"], b"t" * 300), 0)

    def reader():
        for i in range(20):
            call(mine, "pread64", "r", lambda: os.pread(shared["fd"], 15, i * 15), i * 15)

    t = threading.Thread(target=opener)
    t.start()
    t.join()
    workers = [threading.Thread(target=reader) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    os.close(shared["fd"])

    # a forked child reads through the inherited fd; the parent continues at its offset
    forked = os.path.join(work, "py_fork.bin")
    fd = open_(forked, os.O_CREAT | os.O_RDWR | os.O_TRUNC)
    call(forked, "write", "w", lambda: os.write(fd, b"f" * 500), 0)
    os.lseek(fd, 0, os.SEEK_SET)
    pid = os.fork()
    if pid == 0:
        call(forked, "read", "r", lambda: os.read(fd, 123), 0)
        os._exit(0)
    os.waitpid(pid, 0)
    call(forked, "read", "r", lambda: os.read(fd, 1000), 123)
    os.close(fd)

    # sendfile / copy_file_range from Python, and a failed open and read
    copy = os.path.join(work, "py_copy.bin")
    src = open_(data, os.O_RDONLY)
    dst = open_(copy, os.O_CREAT | os.O_WRONLY | os.O_TRUNC)
    n = os.sendfile(dst, src, 0, 2000)
    acct(data, "sendfile", "r", n)
    acct(copy, "sendfile", "w", n)
    n = os.copy_file_range(src, dst, 1000, 0)
    acct(data, "copy_file_range", "r", n)
    acct(copy, "copy_file_range", "w", n)
    call(data, "write", "w", lambda: os.write(src, b"no"))  # EBADF: opened read-only
    os.close(src)
    os.close(dst)
    missing = os.path.join(work, "py_missing.bin")
    try:
        os.open(missing, os.O_RDONLY)
    except FileNotFoundError:
        acct(missing, "openat", "o", -1, kind="missing")
    print("io_py: done", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
