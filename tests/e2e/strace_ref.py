"""strace_ref: a deliberately small, independent reading of -y/-yy strace logs.

It counts per annotated path what the matrix compares (bytes and calls of
reads, writes, transfers and opens), using only the `N</path>` annotations
and the path argument of failed opens. run_matrix.py runs it on every -y/-yy
combination and compares it with the programs' accounting first: when they
differ the *test* (a program or an expectation) is wrong, not niorep, and the
combination reports a HARNESS error instead of blaming the ingest.

It knows nothing of fd tables, processes or cwd, so it only works with -y."""
import collections
import gzip
import os
import re
import subprocess

READS = {"read", "pread64", "readv", "preadv", "preadv2"}
WRITES = {"write", "pwrite64", "writev", "pwritev", "pwritev2"}
OPENS = {"open", "openat", "openat2", "creat"}
COUNTERS = ("bytes_read", "bytes_written", "read_calls", "write_calls", "open_calls")

PREFIX = re.compile(r"^(?:\[pid +(\d+)\] |(\d+) +)?")
TIME = re.compile(r"^ *(?:\d+\.\d+|\d\d:\d\d:\d\d(?:\.\d+)?|\d+) +")
ANNOT = r"<((?:[^>\\]|\\.)*)>"
END = re.compile(r"\) += (-?\d+|\?)(?:" + ANNOT + r")?(?: E[A-Z0-9]+ \([^)]*\)| \([^)]*\))?(?: <\d+\.\d+>)?$")
FD_ANNOT = re.compile(r"(?:^|, )(-?\d+|AT_FDCWD)" + ANNOT)
NOTICE_MIDLINE = re.compile(r"(?:\S*strace: Process \d+ attached)$")
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def unescape(s):
    """strace's C-style escapes back to bytes."""
    b, out, i = s.encode("utf-8", "surrogateescape"), bytearray(), 0
    simple = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord("v"): 11, ord("f"): 12, ord("a"): 7,
              ord("b"): 8, ord('"'): 34, ord("\\"): 92, ord("'"): 39}
    while i < len(b):
        c = b[i]
        if c != 0x5C or i + 1 >= len(b):
            out.append(c)
            i += 1
            continue
        n = b[i + 1]
        if 0x30 <= n <= 0x37:
            j, v = i + 1, 0
            while j < len(b) and j < i + 4 and 0x30 <= b[j] <= 0x37:
                v, j = v * 8 + b[j] - 0x30, j + 1
            out.append(v)
            i = j
        elif n == ord("x"):
            out.append(int(b[i + 2:i + 4], 16))
            i += 4
        else:
            out.append(simple.get(n, n))
            i += 2
    return bytes(out)


def log_lines(path):
    if path.endswith(".zst"):
        data = subprocess.run(["zstd", "-q", "-d", "-c", path], capture_output=True, check=True).stdout
    elif path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            data = f.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return data.decode("utf-8", "surrogateescape").split("\n")


def count(log_paths, by_syscall=None):
    """Per-path counters from the logs (all of a run's files). When by_syscall
    is a Counter it also gets the calls per (path, syscall name)."""
    counts = collections.defaultdict(lambda: dict.fromkeys(COUNTERS, 0))
    if by_syscall is None:
        by_syscall = collections.Counter()
    for path in log_paths:
        default_pid = os.path.basename(path).rsplit(".", 1)[-1]
        pending = {}
        carry = ""
        for line in log_lines(path):
            # stderr mode: strace prints "strace: Process N attached" in the
            # middle of a line it is writing; the line goes on after a newline.
            if carry:
                line, carry = carry + line, ""
            cut = NOTICE_MIDLINE.search(line)
            if cut and cut.start() > 0:
                carry = line[:cut.start()]
                continue
            m = PREFIX.match(line)
            pid = m.group(1) or m.group(2) or default_pid
            rest = TIME.sub("", line[m.end():], count=1)
            if rest.endswith("<unfinished ...>"):
                pending[pid] = rest[:-len("<unfinished ...>")].rstrip()
                continue
            r = re.match(r"^<\.\.\. \w+ resumed>(.*)$", rest)
            if r:
                rest = pending.pop(pid, "") + r.group(1)
            call = re.match(r"^(\w+)\(", rest)
            end = END.search(rest)
            if not call or not end:
                continue
            name, args = call.group(1), rest[call.end():end.start()]
            ret = -1 if end.group(1) == "?" else int(end.group(1))
            fds = [unescape(a) for _, a in FD_ANNOT.findall(args)]
            if name in OPENS:
                if ret >= 0 and end.group(2) is not None:
                    p = unescape(end.group(2))
                else:
                    s = STRING.search(args)
                    p = unescape(s.group(1)) if s else b""
                if p.startswith(b"/"):
                    counts[p]["open_calls"] += 1
                    by_syscall[(p, name)] += 1
            elif name in READS or name in WRITES:
                if fds and not args.startswith("AT_FDCWD"):
                    k = "read" if name in READS else "write"
                    counts[fds[0]][k + "_calls"] += 1
                    counts[fds[0]]["bytes_" + ("read" if k == "read" else "written")] += max(ret, 0)
                    by_syscall[(fds[0], name)] += 1
            elif name in ("sendfile", "sendfile64", "copy_file_range") and len(fds) >= 2:
                dst, src = (fds[0], fds[1]) if name.startswith("sendfile") else (fds[1], fds[0])
                counts[src]["read_calls"] += 1
                counts[src]["bytes_read"] += max(ret, 0)
                counts[dst]["write_calls"] += 1
                counts[dst]["bytes_written"] += max(ret, 0)
                by_syscall[(src, name)] += 1
                by_syscall[(dst, name)] += 1
    return counts
