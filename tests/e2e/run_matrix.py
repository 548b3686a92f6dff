#!/usr/bin/python3
"""End-to-end flag matrix: programs with known I/O under the real strace.

For each flag combination (COMBOS below) the driver
  1. runs every test program (tests/e2e/progs) in one `sh -c` under
     /usr/bin/strace with those flags, the log written with -o (-f or -ff) or
     to stderr (mixed with the programs' own stderr), optionally compressed;
  2. ingests the run with the built niorep (three times: options first,
     -j 1, and SPEC's order `ingest RUN_DIR -o RUN.nio`; the stores must be
     byte-identical), exports the files and events tables;
  3. compares, per file the programs touched, bytes and calls with the
     programs' own accounting (JSON lines on stdout, see progs/e2e_acct.h),
     exactly; checks the kinds of special files; checks that no other file
     under the work directory got I/O; checks that the events table sums to
     the files table (round trip); where every offset-changing call is in the
     trace, checks the offset of every read/write the programs recorded.

What is unknowable is documented in EXPECTATIONS and README.md: without -y an
fd inherited from before the trace (stdin, opened by this driver) has no path;
with -e trace=SUBSET only the calls in the subset count; with -Z only failed
calls are in the log (so only failed calls count, with zero bytes).

Exit status: 0 all combinations pass, 1 some failed (details on stdout, the
combination's directory is kept), 77 strace cannot run here (skip).
"""
import argparse
import collections
import csv
import io
import json
import os
import shutil
import subprocess
import sys

import strace_ref

STRACE = "/usr/bin/strace"
SUBSET = ("openat,read,readv,pread64,close,dup,dup2,dup3,fcntl,clone,clone3,fork,vfork,"
          "execve,chdir,fchdir,sendfile")

# name: (strace flags, output mode, options)
#   mode "o": -o DIR/strace.log, "ff": -ff -o DIR/strace.log (one file per task),
#   "trace": -ff -o DIR/trace (files trace.PID, recognised by content),
#   "stderr": strace writes to stderr, redirected to DIR/strace.log together
#   with the programs' stderr.
#   options: compress ("zst"/"gz"), input ("dir": ingest RUN_DIR, "file": the log),
#   cwd (pass --cwd), stderr_name (name of the stderr capture).
COMBOS = [
    ("plain_f", [], "o", {}),
    ("plain_ff", [], "ff", {}),
    ("t_T_y", ["-t", "-T", "-y"], "o", {"input": "file"}),
    ("tt_yy", ["-tt", "-yy"], "o", {}),
    ("ttt_T_y", ["-ttt", "-T", "-y"], "o", {"cwd": True}),
    ("unix_ns_T", ["--timestamps=unix,ns", "-T"], "o", {}),
    ("time_ms_yy_ff", ["--timestamps=format:time,precision:ms", "-yy"], "ff", {}),
    ("r_T_y", ["-r", "-T", "-y"], "o", {}),
    ("s8_ttt_T", ["-s", "8", "-ttt", "-T"], "o", {}),
    ("s8_tt_yy_ff", ["-s", "8", "-tt", "-yy"], "ff", {}),
    ("Xraw_ttt_T_y", ["-X", "raw", "-ttt", "-T", "-y"], "o", {}),
    ("Xraw_tt", ["-X", "raw", "-tt"], "o", {}),
    ("Xverbose_T", ["-X", "verbose", "-T"], "o", {}),
    ("Xverbose_r_yy_ff", ["-X", "verbose", "-r", "-yy"], "ff", {}),
    ("subset_ttt_y", ["-e", "trace=" + SUBSET, "-ttt", "-y"], "o", {}),
    ("subset_T", ["-e", "trace=" + SUBSET, "-T"], "ff", {}),
    ("qq_ttt_T_y", ["-qq", "-ttt", "-T", "-y"], "o", {}),
    ("qq_ff", ["-qq"], "ff", {}),
    ("Z_ttt_y", ["-Z", "-ttt", "-y"], "o", {}),
    ("Z_yy_ff", ["-Z", "-yy"], "ff", {}),
    ("stderr_plain", [], "stderr", {}),
    ("stderr_ttt_T_y", ["-ttt", "-T", "-y"], "stderr", {"input": "file"}),
    ("stderr_qq_tt_yy", ["-qq", "-tt", "-yy"], "stderr", {"stderr_name": "job.err"}),
    ("zst_ttt_T_y", ["-ttt", "-T", "-y"], "o", {"compress": "zst"}),
    ("gz_tt_T_ff", ["-tt", "-T"], "ff", {"compress": "gz"}),
    ("zst_stderr_r_yy", ["-r", "-yy"], "stderr", {"compress": "zst"}),
    ("trace_prefix_ttt_T", ["-ttt", "-T"], "trace", {}),
    ("hexdump_ttt_y", ["-ttt", "-y", "-e", "read=all", "-e", "write=all"], "o", {}),
    ("stack_k_T", ["-k", "-T"], "o", {}),
    ("summary_C_tt", ["-C", "-tt"], "o", {}),
    ("kitchen_sink", ["-ttt", "-T", "-yy", "-s", "8", "-X", "verbose", "-qq"], "ff", {"compress": "gz"}),
]

EXPECTATIONS = """\
- every file under the work dir that a program touched: bytes_read, bytes_written,
  read_calls, write_calls, open_calls equal the program's accounting exactly;
  kind "regular" ("directory" for a directory opened with O_DIRECTORY); a path
  that does not exist (failed open) must still have its open_calls;
- sendfile/copy_file_range count one read call + bytes on the source and one
  write call + bytes on the destination; failed calls count as calls, 0 bytes;
- stdin (WORKDIR/inherited.txt, opened by the driver before strace): only with
  -y/-yy is its path knowable; without, it must not appear under any path;
- -e trace=SUBSET: only calls in SUBSET count; -Z: only failed calls count;
- rows for /dev/* are "device", /proc/* "procfs", pipe:[..] "pipe", sockets "socket";
- no other path under the work dir has any I/O;
- the events table summed per file_id equals the files table;
- without -Z and -e, in an ordered run (one log, or -ff with -tt/-ttt/unix
  timestamps): each read/write the programs recorded appears in the events
  table with the same syscall, offset and byte count (-ff without fine absolute
  timestamps cannot order the calls of processes sharing an offset);
- -ff without fine absolute timestamps and without -y: files used by threads
  through fds another thread opened (THREAD_SHARED) are not compared;
- ingest is deterministic: default jobs and -j 1 give byte-identical stores."""

# Files that threads use through fds another thread opened (one shared fd
# table). In -ff logs without fine absolute timestamps the order of the
# threads' calls is unknowable, so without -y their paths are too.
THREAD_SHARED = {b"thread_opened.dat", b"thread_shared.dat", b"py_thread.bin"}
# What dash does for `exec 7<>FILE; echo start >&7; ...; echo end >&7`:
# openat (then dup2 to 7), and each echo writes to fd 1 after dup2(7, 1).
SH_ROOT_RECORDS = [
    {"prog": "sh", "pid": 0, "sys": "openat", "dir": "o", "ret": 3, "off": -1, "kind": "regular"},
    {"prog": "sh", "pid": 0, "sys": "write", "dir": "w", "ret": 6, "off": 0, "kind": "regular"},
    {"prog": "sh", "pid": 0, "sys": "write", "dir": "w", "ret": 4, "off": 6, "kind": "regular"},
]
OPEN_SYSCALLS = {"open", "openat", "openat2", "creat"}
TRANSFER_SYSCALLS = {"sendfile", "sendfile64", "copy_file_range"}
COUNTERS = ("bytes_read", "bytes_written", "read_calls", "write_calls", "open_calls")


def fsdecode(b):
    return b.decode("utf-8", "surrogateescape")


def show(path_bytes):
    return repr(path_bytes)[1:]


class Combo:
    def __init__(self, name, flags, mode, opts):
        self.name, self.flags, self.mode, self.opts = name, flags, mode, opts
        self.has_y = "-y" in flags or "-yy" in flags
        self.failed_only = "-Z" in flags
        self.subset = None
        for f in flags:
            if f.startswith("trace="):
                self.subset = set(f[len("trace="):].split(","))
        self.full = not self.failed_only and self.subset is None
        # One log is ordered; -ff logs are ordered among themselves only by
        # absolute timestamps of microseconds or finer (-r is per process).
        fine = any(f in ("-tt", "-ttt") or f.startswith("--timestamps=unix") for f in flags)
        self.ordered = mode in ("o", "stderr") or fine

    def counts(self, rec):
        """Whether a call the program recorded appears in this combination's log."""
        if self.subset is not None and rec["sys"] not in self.subset:
            return False
        if self.failed_only and rec["ret"] >= 0:
            return False
        return True


def unknowable_order(combo, path):
    """A THREAD_SHARED file in an unordered -ff run without -y: not compared."""
    return os.path.basename(path) in THREAD_SHARED and not combo.has_y and not combo.ordered


def expected_files(combo, records, workdir):
    """Sums the accounting records into expected per-path counters."""
    exp = {}
    for rec in records:
        path = bytes.fromhex(rec["path"])
        if not path:
            continue
        kind = rec["kind"]
        if kind == "inherited" and not combo.has_y:
            continue  # unknowable: the open happened before the trace
        if unknowable_order(combo, path):
            continue
        e = exp.setdefault(path, {"kind": kind, **{c: 0 for c in COUNTERS}})
        if kind == "regular":
            e["kind"] = "regular"
        if not combo.counts(rec):
            continue
        ret = rec["ret"]
        if rec["dir"] == "r":
            e["read_calls"] += 1
            e["bytes_read"] += max(ret, 0)
        elif rec["dir"] == "w":
            e["write_calls"] += 1
            e["bytes_written"] += max(ret, 0)
        elif rec["dir"] == "o":
            e["open_calls"] += 1
    return exp


def read_csv_table(path):
    with open(path, "rb") as f:
        text = fsdecode(f.read())
    return list(csv.DictReader(io.StringIO(text, newline="")))


def to_int(v, what):
    try:
        return int(v)
    except (TypeError, ValueError):
        raise ValueError("column %s: not an integer: %r" % (what, v))


def is_class(v, name, code):
    return v == name or v == str(code)


class Checker:
    def __init__(self, combo):
        self.combo = combo
        self.errors = []

    def fail(self, msg):
        self.errors.append(msg)

    def files(self, rows, exp, workdir):
        by_path = {}
        for r in rows:
            p = r["path"].encode("utf-8", "surrogateescape")
            if p in by_path:
                self.fail("files table: path %s appears twice" % show(p))
            by_path[p] = r
        wd = workdir.encode() + b"/"
        for path, e in sorted(exp.items()):
            if not path.startswith(wd):
                continue  # /dev/null, /proc: checked by kind below
            row = by_path.get(path)
            want = {c: e[c] for c in COUNTERS}
            if row is None:
                if any(want.values()):
                    self.fail("missing row for %s; expected %s" % (show(path), want))
                continue
            got = {c: to_int(row.get(c), c) for c in COUNTERS}
            if got != want:
                diff = {c: "%d != expected %d" % (got[c], want[c]) for c in COUNTERS if got[c] != want[c]}
                self.fail("%s: %s" % (show(path), diff))
            want_kind = {"regular": "regular", "inherited": "regular", "directory": "directory"}.get(e["kind"])
            if want_kind and row.get("kind") != want_kind:
                self.fail("%s: kind %r, expected %r" % (show(path), row.get("kind"), want_kind))
        inherited = wd + b"inherited.txt"
        for path, row in sorted(by_path.items()):
            if path.startswith(wd) and path not in exp and not unknowable_order(self.combo, path):
                got = {c: to_int(row.get(c), c) for c in COUNTERS}
                if any(got.values()):
                    why = " (stdin without -y: unknowable, must not be guessed)" if path == inherited else ""
                    self.fail("unexpected I/O on %s%s: %s" % (show(path), why, got))
            self.kind_of_special(path, row.get("kind"))

    def kind_of_special(self, path, kind):
        rules = [((b"/dev/",), "device"), ((b"/proc/", b"/sys/"), "procfs"), ((b"pipe:",), "pipe"),
                 ((b"socket:", b"UNIX", b"TCP", b"UDP", b"NETLINK"), "socket")]
        for prefixes, want in rules:
            if path.startswith(prefixes) and kind != want:
                self.fail("%s: kind %r, expected %r" % (show(path), kind, want))

    def roundtrip(self, files_rows, events):
        """Events summed per file_id must equal the files table."""
        if not files_rows or "file_id" not in files_rows[0]:
            self.fail("files table has no file_id column: round trip not checkable")
            return
        need = {"file_id", "file2_id", "bytes", "op_class", "syscall"}
        if events and not need <= set(events[0]):
            self.fail("events table lacks columns %s" % sorted(need - set(events[0])))
            return
        sums = collections.defaultdict(lambda: dict.fromkeys(COUNTERS, 0))
        for ev in events:
            fid, fid2 = to_int(ev["file_id"], "file_id"), to_int(ev["file2_id"], "file2_id")
            nbytes, cls, sysname = to_int(ev["bytes"], "bytes"), ev["op_class"], ev["syscall"]
            if sysname in TRANSFER_SYSCALLS:
                if fid2 >= 0:
                    sums[fid2]["read_calls"] += 1
                    sums[fid2]["bytes_read"] += nbytes
                if fid >= 0:
                    sums[fid]["write_calls"] += 1
                    sums[fid]["bytes_written"] += nbytes
            elif fid < 0:
                continue
            elif is_class(cls, "read", 0):
                sums[fid]["read_calls"] += 1
                sums[fid]["bytes_read"] += nbytes
            elif is_class(cls, "write", 1):
                sums[fid]["write_calls"] += 1
                sums[fid]["bytes_written"] += nbytes
            elif sysname in OPEN_SYSCALLS:
                sums[fid]["open_calls"] += 1
        bad = 0
        for row in files_rows:
            fid = to_int(row["file_id"], "file_id")
            got = {c: to_int(row.get(c), c) for c in COUNTERS}
            if got != sums.get(fid, dict.fromkeys(COUNTERS, 0)):
                bad += 1
                if bad <= 5:
                    self.fail("round trip: file_id %d (%s): files table %s, events sum %s"
                              % (fid, show(row["path"].encode("utf-8", "surrogateescape")), got,
                                 sums.get(fid)))
        if bad > 5:
            self.fail("round trip: %d files differ in all" % bad)

    def offsets(self, records, files_rows, events, workdir):
        """Every recorded read/write appears in events with its syscall, offset and bytes."""
        if not files_rows or "file_id" not in files_rows[0] or not events or "offset" not in events[0]:
            self.fail("offsets not checkable: need files.file_id and events.offset")
            return
        path_of = {to_int(r["file_id"], "file_id"): r["path"].encode("utf-8", "surrogateescape")
                   for r in files_rows}
        actual = collections.Counter()
        for ev in events:
            if ev["syscall"] in TRANSFER_SYSCALLS:
                continue
            p = path_of.get(to_int(ev["file_id"], "file_id"))
            if p is not None:
                actual[(p, ev["syscall"], to_int(ev["offset"], "offset"), to_int(ev["bytes"], "bytes"))] += 1
        wanted = collections.Counter()
        for rec in records:
            if rec["off"] >= 0 and rec["ret"] >= 0 and rec["kind"] == "regular" and rec["dir"] in "rw":
                wanted[(bytes.fromhex(rec["path"]), rec["sys"], rec["off"], rec["ret"])] += 1
        missing = wanted - actual
        for (p, s, off, n), k in sorted(missing.items())[:8]:
            near = sorted({o for (pp, ss, o, nn) in actual if pp == p and ss == s and nn == n})[:6]
            self.fail("offset: %s %s of %d bytes at offset %d (x%d) not in events; events have offsets %s"
                      % (show(p), s, n, off, k, near))
        if len(missing) > 8:
            self.fail("offset: %d recorded calls missing in all" % sum(missing.values()))


def harness_check(combo, records, workdir, log_paths):
    """The programs' accounting against an independent reading of the -y log:
    a difference is a fault of the test, reported as HARNESS."""
    ref_sys = collections.Counter()
    ref = strace_ref.count(log_paths, ref_sys)
    wd = workdir.encode() + b"/"
    errs = []
    acct_sys = collections.Counter()
    for rec in records:
        path = bytes.fromhex(rec["path"])
        if path.startswith(wd) and rec["dir"] in "rwo" and combo.counts(rec):
            acct_sys[(path, rec["sys"])] += 1
    for key in sorted(set(acct_sys) | {k for k in ref_sys if k[0].startswith(wd)}):
        if acct_sys[key] != ref_sys[key]:
            errs.append("HARNESS: %s %s: %d calls in the raw log, %d in the accounting"
                        % (show(key[0]), key[1], ref_sys[key], acct_sys[key]))
    for path, e in sorted(expected_files(combo, records, workdir).items()):
        if path.startswith(wd):
            want = {c: e[c] for c in COUNTERS}
            got = ref.get(path, dict.fromkeys(COUNTERS, 0))
            if got != want:
                errs.append("HARNESS: %s: the raw log says %s, the accounting %s" % (show(path), got, want))
    return errs


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=120, **kw)


def run_combo(combo, args, base):
    cdir = os.path.join(base, combo.name)
    shutil.rmtree(cdir, ignore_errors=True)
    workdir = os.path.realpath(os.path.join(cdir, "work"))
    rundir = os.path.join(cdir, "run")
    os.makedirs(workdir)
    os.makedirs(rundir)
    with open(os.path.join(workdir, "inherited.txt"), "wb") as f:
        f.write(bytes((i * 7 + 3) % 256 for i in range(2345)))

    progs = [os.path.join(args.progs, p) for p in
             ("io_basic", "io_transfer", "io_dup", "io_procs", "io_paths", "io_special")] + [args.py_prog]
    # The shell itself (the traced root: unprefixed lines in stderr mode until
    # its first child) opens sh_root.dat on fd 7 and writes through dup2(7, 1)
    # before the programs run and after: SH_ROOT_RECORDS.
    script = ('d=$1; shift; exec 7<>"$d/sh_root.dat"; echo start >&7; '
              'for p; do case $p in *.py) /usr/bin/python3 "$p" "$d";; '
              '*) "$p" "$d";; esac || exit 1; done; echo end >&7')
    payload = ["/bin/sh", "-c", script, "sh", workdir] + progs
    strace = [STRACE] + combo.flags
    stderr_name = combo.opts.get("stderr_name", "strace.log")
    if combo.mode == "o":
        strace += ["-f", "-o", os.path.join(rundir, "strace.log")]
    elif combo.mode == "ff":
        strace += ["-ff", "-o", os.path.join(rundir, "strace.log")]
    elif combo.mode == "trace":
        strace += ["-ff", "-o", os.path.join(rundir, "trace")]
    else:
        strace += ["-f"]
    err_path = os.path.join(rundir, stderr_name) if combo.mode == "stderr" else os.path.join(cdir, "progs.err")
    env = dict(os.environ)  # LeakSanitizer cannot run under ptrace (sanitizer builds)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    with open(os.path.join(workdir, "inherited.txt"), "rb") as stdin, open(err_path, "wb") as err:
        p = subprocess.run(strace + ["--"] + payload, stdin=stdin, stdout=subprocess.PIPE, stderr=err,
                           cwd=cdir, env=env, timeout=120)
    if p.returncode != 0:
        return ["strace run failed with status %d (see %s)" % (p.returncode, err_path)]
    records = [json.loads(line) for line in p.stdout.decode().splitlines() if line.startswith("{")]
    sh_root = os.path.join(workdir, "sh_root.dat").encode().hex()
    records += [dict(r, path=sh_root) for r in SH_ROOT_RECORDS]

    logs = sorted(os.listdir(rundir))
    comp = combo.opts.get("compress")
    for name in logs:
        path = os.path.join(rundir, name)
        if comp == "zst":
            subprocess.run(["zstd", "-q", "--rm", "-3", path], check=True)
        elif comp == "gz":
            subprocess.run(["gzip", "-n", path], check=True)
    logs = sorted(os.listdir(rundir))
    target = rundir if combo.opts.get("input", "dir") == "dir" else os.path.join(rundir, logs[0])

    if args.harness_only:
        if not combo.has_y:
            return []
        return harness_check(combo, records, workdir, [os.path.join(rundir, n) for n in logs])

    store = os.path.join(cdir, "run.nio")
    opts = ["--cwd", cdir] if combo.opts.get("cwd") else []
    errors = []
    ingest_msg = ""
    # options first (any getopt accepts it), then -j 1, then SPEC's order
    # "niorep ingest RUN_DIR -o RUN.nio": all three stores must be byte-identical.
    variants = [("", [args.niorep, "ingest", "-o", store] + opts + [target]),
                ("-j 1", [args.niorep, "ingest", "-o", store + ".j1", "-j", "1"] + opts + [target]),
                ("SPEC order", [args.niorep, "ingest", target, "-o", store + ".spec"] + opts)]
    for label, cmd in variants:
        q = run(cmd)
        if q.returncode != 0:
            msg = "ingest (%s) failed (%d): %s" % (label or "default", q.returncode,
                                                   q.stderr.decode(errors="replace").strip().splitlines()[:1])
            if not label:
                return [msg]
            errors.append(msg)
        elif not label:
            ingest_msg = q.stderr.decode(errors="replace").strip()
    with open(store, "rb") as a:
        first = a.read()
    for suffix, what in ((".j1", "-j 1"), (".spec", "SPEC order")):
        if os.path.exists(store + suffix):
            with open(store + suffix, "rb") as b:
                if b.read() != first:
                    errors.append("stores differ between default and %s (not deterministic)" % what)
    tables = {}
    for table in ("files", "events"):
        out = os.path.join(cdir, table + ".csv")
        q = run([args.niorep, "export", store, "--table", table, "--format", "csv", "-o", out])
        if q.returncode != 0:
            return errors + ["export --table %s failed (%d): %s" % (table, q.returncode,
                                                                   q.stderr.decode(errors="replace").strip())]
        tables[table] = read_csv_table(out)
    for need in ("path", "kind") + COUNTERS:
        if tables["files"] and need not in tables["files"][0]:
            return errors + ["files table lacks column %r (has %s)" % (need, list(tables["files"][0]))]

    chk = Checker(combo)
    chk.errors = errors
    if combo.has_y:
        errors += harness_check(combo, records, workdir, [os.path.join(rundir, n) for n in logs])
    try:
        chk.files(tables["files"], expected_files(combo, records, workdir), workdir)
        chk.roundtrip(tables["files"], tables["events"])
        if combo.full and combo.ordered:
            chk.offsets(records, tables["files"], tables["events"], workdir)
    except (ValueError, KeyError) as e:
        chk.fail("export not as documented: %s" % e)
    if args.verbose:
        print("  %s: %d records, %d files rows, %d events; ingest said: %s"
              % (combo.name, len(records), len(tables["files"]), len(tables["events"]), ingest_msg))
    return chk.errors


def strace_works():
    try:
        return subprocess.run([STRACE, "-o", "/dev/null", "/bin/true"], capture_output=True,
                              timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--niorep", required=True)
    ap.add_argument("--progs", required=True, help="directory of the built io_* programs")
    ap.add_argument("--py-prog", required=True)
    ap.add_argument("--out", required=True, help="scratch directory")
    ap.add_argument("--shard", default="0/1", help="I/N: run every N-th combination from I")
    ap.add_argument("--only", help="comma-separated combination names")
    ap.add_argument("--keep", action="store_true", help="keep passing combinations' files")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--harness-only", action="store_true",
                    help="check only the programs' accounting against the raw -y logs (no niorep)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    args.niorep, args.progs, args.py_prog = (os.path.abspath(x) for x in (args.niorep, args.progs, args.py_prog))
    combos = [Combo(*c) for c in COMBOS]
    if args.list:
        for c in combos:
            print("%-22s %-7s %s %s" % (c.name, c.mode, " ".join(c.flags), c.opts))
        print("\nexpectations:\n" + EXPECTATIONS)
        return 0
    i, n = (int(x) for x in args.shard.split("/"))
    combos = combos[i::n]
    if args.only:
        names = set(args.only.split(","))
        combos = [c for c in combos if c.name in names]
    if not strace_works():
        print("SKIP: %s cannot trace here (missing, or ptrace not permitted)" % STRACE)
        return 77
    base = os.path.abspath(args.out)
    os.makedirs(base, exist_ok=True)
    failed = 0
    for combo in combos:
        try:
            errors = run_combo(combo, args, base)
        except subprocess.TimeoutExpired as e:
            errors = ["timed out: %s" % " ".join(map(str, e.cmd))]
        flags = " ".join(combo.flags) or "(no flags)"
        if errors:
            failed += 1
            print("FAIL %-22s [%s %s %s]" % (combo.name, combo.mode, flags, combo.opts))
            for e in errors:
                print("     " + e)
        else:
            print("ok   %-22s [%s %s %s]" % (combo.name, combo.mode, flags, combo.opts))
            if not args.keep:
                shutil.rmtree(os.path.join(base, combo.name), ignore_errors=True)
    print("%d of %d combinations passed" % (len(combos) - failed, len(combos)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
