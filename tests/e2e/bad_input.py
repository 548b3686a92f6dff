#!/usr/bin/python3
"""Bad input for `niorep ingest` (and info/export on non-stores).

Every case must end with exit 0 or 1 (never a crash, a hang, or another
status), and
  - exit 1: exactly one line on stderr that names the input, and no store
    (nor a temporary file of it) left behind; an existing store is untouched;
  - exit 0: a store that `niorep export` reads, and the skipped lines counted
    (the ingest message "... N lines skipped", "1 line skipped", with N as
    stated per case).
Some cases demand one of the two (column "want"): a directory with no log is
an error; a log cut in the middle of its last line is read up to the cut.

Exit status 0 when every case behaves, 1 otherwise.
"""
import argparse
import csv
import gzip
import io
import os
import random
import re
import shutil
import subprocess
import sys

GOOD = (b'100 1700000000.000001 openat(AT_FDCWD, "/data/a.bin", O_RDONLY) = 3 <0.000010>\n'
        b'100 1700000000.000002 read(3, "abc", 3) = 3 <0.000005>\n'
        b'100 1700000000.000003 read(3, "", 3) = 0 <0.000004>\n'
        b'100 1700000000.000004 close(3) = 0 <0.000003>\n'
        b'100 1700000000.000005 exit_group(0) = ?\n'
        b'100 1700000000.000006 +++ exited with 0 +++\n')
CUT = (b'7 1700000000.000001 openat(AT_FDCWD, "/data/b.bin", O_RDONLY) = 3 <0.000010>\n'
       b'7 1700000000.000002 read(3, "abc", 3) = 3 <0.000005>\n'
       b'7 1700000000.000003 read(3, "de')
SYSLOG = b"".join(b"Nov 30 04:%02d:00 host sshd[%d]: Accepted publickey for root from 10.0.0.%d port 22\n"
                  % (i % 60, 1000 + i, i % 250) for i in range(200))
LTRACE = b"".join(b'[pid %d] fopen("/etc/passwd", "r") = 0x55d0c0a%03d\n'
                  b'[pid %d] malloc(16) = 0x55d0c0b%03d\n' % (4000 + i, i, 4000 + i, i) for i in range(100))


def garbage_text(n_lines, seed):
    rnd = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 ()=<>\"',.;:-_/\\[]{}"
    return "".join("".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 120))) + "\n"
                   for _ in range(n_lines)).encode()


def binary_blob(size, seed):
    return random.Random(seed).randbytes(size)


def zst(data):
    return subprocess.run(["zstd", "-q", "-3", "-c"], input=data, capture_output=True, check=True).stdout


class Case:
    def __init__(self, name, files, target=None, want=None, skipped=None, check=None, hook_diagnosed=None):
        self.name = name
        self.files = files        # relative name -> bytes (None = directory)
        self.target = target      # what to ingest, relative; default the only file
        self.want = want          # None (0 or 1), 0, or 1
        self.skipped = skipped    # lines skipped to report on exit 0, None = not checked
        self.check = check        # extra check on the exported files table (exit 0)
        self.hook_diagnosed = hook_diagnosed  # hook diagnostics named on exit 0
        self.outcome = ""


def files_row(rows, path):
    for r in rows:
        if r["path"] == path:
            return r
    return None


def check_a_bin(rows):
    r = files_row(rows, "/data/a.bin")
    if not r:
        return "no row for /data/a.bin"
    got = (int(r["bytes_read"]), int(r["read_calls"]), int(r["open_calls"]))
    return None if got == (3, 2, 1) else "/data/a.bin: (bytes_read, read_calls, open_calls) = %s, expected (3, 2, 1)" % (got,)


def check_cut(rows):
    r = files_row(rows, "/data/b.bin")
    if not r:
        return "no row for /data/b.bin"
    if int(r["bytes_read"]) != 3 or int(r["open_calls"]) != 1:
        return "/data/b.bin: bytes_read %s open_calls %s, expected 3 and 1 (the cut read has no result)" % (
            r["bytes_read"], r["open_calls"])
    return None


def cases():
    mixed = bytearray()
    for i, line in enumerate(GOOD.splitlines(keepends=True)):
        mixed += line
        if i < 4:
            mixed += b"this is not strace output %d\n" % i
    nul = GOOD.replace(b'"abc"', b'"a\x00c"')
    gz_good = gzip.compress(GOOD, mtime=0)
    return [
        Case("garbage text", {"strace.log": garbage_text(300, 1)}),
        Case("binary file", {"strace.log": binary_blob(1 << 20, 2)}),
        Case("empty log", {"strace.log": b""}),
        Case("empty dir", {}, target=".", want=1),
        Case("dir without a log", {"README.txt": b"notes\n", "data.csv": b"a,b\n1,2\n"}, target=".", want=1),
        Case("missing input", {}, target="no-such-dir", want=1),
        Case("syslog", {"syslog": SYSLOG}),
        Case("ltrace-like", {"ltrace.out": LTRACE}),
        Case("good log (control)", {"strace.log": GOOD}, want=0, skipped=0, check=check_a_bin),
        Case("good lines among garbage", {"strace.log": bytes(mixed)}, want=0, skipped=4, check=check_a_bin),
        Case("cut mid-line", {"strace.log": CUT}, want=0, check=check_cut),
        Case("cut mid-line .zst", {"strace.log.zst": zst(CUT)}, want=0, check=check_cut),
        Case("truncated .zst frame", {"strace.log.zst": zst(GOOD * 2000)[:-100]}),
        Case("truncated .gz stream", {"strace.log.gz": gzip.compress(GOOD * 2000, mtime=0)[:-50]}),
        Case("gz with trailing junk", {"strace.log.gz": gz_good + b"junkjunk"}),
        Case("NUL bytes in a line", {"strace.log": nul}),
        Case("one 8 MB line", {"strace.log": b"100 read(3, \"" + b"x" * (8 << 20) + b"\", 8388608) = 8388608\n"}),
        Case("garbage .zst by name", {"strace.log.zst": garbage_text(50, 3)}),
        Case("bad hook lines", {"strace.log": GOOD, "hook.jsonl": b"not json\n[1, 2]\n{\"event\": 7}\n"},
             target=".", want=0, skipped=0, check=check_a_bin, hook_diagnosed=3),
        Case("hook records outside the trace", {"strace.log": GOOD, "hook.jsonl":
             b'{"ts": 1600000000.0, "pid": 100, "event": "phase_begin", "phase": "train"}\n'
             b'{"ts": 1700000000.000002, "pid": 100, "event": "io", "op": "open", "path": "/data/a.bin", "bytes": -1}\n'
             b'{"ts": 1800000000.0, "pid": 100, "event": "phase_end", "phase": "train"}\n'},
             target=".", want=0, skipped=0, check=check_a_bin, hook_diagnosed=1),
    ]


def one_line_naming(stderr, target):
    lines = [l for l in stderr.decode(errors="replace").splitlines() if l.strip()]
    if len(lines) != 1:
        return "expected one line on stderr, got %d: %r" % (len(lines), lines[:4])
    name = os.path.basename(os.path.normpath(target))
    if name not in lines[0]:
        return "message does not name %r: %r" % (name, lines[0])
    return None


def leftovers(outdir, keep):
    return sorted(n for n in os.listdir(outdir) if n not in keep)


def run_case(case, args, base):
    cdir = os.path.join(base, re.sub(r"[^a-z0-9]+", "_", case.name.lower()).strip("_"))
    shutil.rmtree(cdir, ignore_errors=True)
    indir, outdir = os.path.join(cdir, "in"), os.path.join(cdir, "out")
    os.makedirs(indir)
    os.makedirs(outdir)
    for name, data in case.files.items():
        with open(os.path.join(indir, name), "wb") as f:
            f.write(data)
    target = os.path.join(indir, case.target if case.target else next(iter(case.files)))
    store = os.path.join(outdir, "run.nio")
    with open(store, "wb") as f:
        f.write(b"old store")  # an existing store must survive a failed ingest
    try:
        p = subprocess.run([args.niorep, "ingest", "-o", store, target], capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return ["hang: no exit within 60 s"]
    errs = []
    case.outcome = "exit %d: %s" % (p.returncode, (p.stderr.decode(errors="replace").strip().splitlines() or [""])[0][:150])
    if p.returncode not in (0, 1):
        return ["exit status %d (crash or wrong code); stderr: %s"
                % (p.returncode, p.stderr.decode(errors="replace")[-400:])]
    if case.want is not None and p.returncode != case.want:
        errs.append("exit %d, expected %d; stderr: %s" % (p.returncode, case.want,
                                                         p.stderr.decode(errors="replace").strip()[:300]))
    if p.returncode == 1:
        msg = one_line_naming(p.stderr, target)
        if msg:
            errs.append(msg)
        with open(store, "rb") as f:
            if f.read() != b"old store":
                errs.append("failed ingest replaced the existing store")
        extra = leftovers(outdir, {"run.nio"})
        if extra:
            errs.append("files left behind: %s" % extra)
        return errs
    if case.skipped is not None:
        m = re.search(rb"(\d+) lines? skipped", p.stderr)
        if not m or int(m.group(1)) != case.skipped:
            errs.append("expected '%d lines skipped' in the message, got: %s"
                        % (case.skipped, p.stderr.decode(errors="replace").strip()))
    if case.hook_diagnosed is not None:  # the hook's records are counted apart from the log's lines
        m = re.search(rb"(\d+) hook diagnostics", p.stderr)
        if not m or int(m.group(1)) != case.hook_diagnosed:
            errs.append("expected '%d hook diagnostics', got: %s"
                        % (case.hook_diagnosed, p.stderr.decode(errors="replace").strip()))
    extra = leftovers(outdir, {"run.nio"})
    if extra:
        errs.append("files left behind: %s" % extra)
    q = subprocess.run([args.niorep, "export", store, "--table", "files", "--format", "csv"],
                       capture_output=True, timeout=60)
    if q.returncode != 0:
        errs.append("export of the store failed (%d): %s" % (q.returncode, q.stderr.decode(errors="replace")))
        return errs
    rows = list(csv.DictReader(io.StringIO(q.stdout.decode("utf-8", "surrogateescape"), newline="")))
    if case.check:
        msg = case.check(rows)
        if msg:
            errs.append(msg)
    return errs


def not_a_store(args, base):
    """info and export on files that are not stores: exit 1, one line naming the file."""
    errs = []
    d = os.path.join(base, "not_a_store")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    samples = {"empty.nio": b"", "text.nio": GOOD, "random.nio": binary_blob(4096, 9)}
    for name, data in samples.items():
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        for cmd in (["info", path], ["export", path, "--table", "files"]):
            p = subprocess.run([args.niorep] + cmd, capture_output=True, timeout=60)
            if p.returncode != 1:
                errs.append("%s %s: exit %d, expected 1" % (cmd[0], name, p.returncode))
            else:
                msg = one_line_naming(p.stderr, path)
                if msg:
                    errs.append("%s %s: %s" % (cmd[0], name, msg))
    return errs


def outputs_that_are_inputs(args, base):
    """An output that is one of the command's inputs is refused (exit 2, one
    line naming it) and the input is left as it was; a fifo as the log is
    refused at once (exit 1), instead of losing the bytes its first read took."""
    errs = []
    d = os.path.join(base, "output_is_input")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    log, store, other = (os.path.join(d, n) for n in ("b.log", "g.nio", "h.nio"))
    with open(log, "wb") as f:
        f.write(GOOD)
    for out in (store, other):
        subprocess.run([args.niorep, "ingest", "-q", log, "-o", out], check=True, timeout=60)
    runs = [(["ingest", log, "-o", log], log),
            (["export", store, "--table", "meta", "-o", store], store),
            (["build", store, "-o", store], store),
            (["compare", store, other, "-o", store], store),
            (["compare", store, other, "-o", os.path.join(d, "c.html"), "--json", other], other),
            (["merge", store, other, "-o", store], store)]
    for cmd, victim in runs:
        with open(victim, "rb") as f:
            before = f.read()
        p = subprocess.run([args.niorep] + cmd, capture_output=True, timeout=120)
        with open(victim, "rb") as f:
            after = f.read()
        if p.returncode != 2:
            errs.append("%s: exit %d, expected 2" % (" ".join(cmd[:1]), p.returncode))
        elif b"is also the input" not in p.stderr:
            errs.append("%s: stderr %r" % (cmd[0], p.stderr[:200]))
        if before != after:
            errs.append("%s: %s changed" % (cmd[0], os.path.basename(victim)))
    fifo = os.path.join(d, "pipe.log")
    os.mkfifo(fifo)
    p = subprocess.run([args.niorep, "ingest", fifo, "-o", os.path.join(d, "p.nio")], capture_output=True, timeout=60)
    if p.returncode != 1 or b"not a regular file" not in p.stderr:
        errs.append("ingest of a fifo: exit %d, %r" % (p.returncode, p.stderr[:200]))
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--niorep", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    args.niorep = os.path.abspath(args.niorep)
    if not shutil.which("zstd"):
        print("SKIP: zstd not installed")
        return 77
    base = os.path.abspath(args.out)
    os.makedirs(base, exist_ok=True)
    failed = 0
    results = []
    for c in cases():
        results.append((c.name, run_case(c, args, base), c.outcome))
    results.append(("info/export on non-stores", not_a_store(args, base), ""))
    results.append(("outputs that are inputs", outputs_that_are_inputs(args, base), ""))
    for name, errs, outcome in results:
        print("%s %-26s %s" % ("FAIL" if errs else "ok  ", name, outcome))
        for e in errs:
            print("     " + e)
        failed += bool(errs)
    print("%d of %d cases passed" % (len(results) - failed, len(results)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
