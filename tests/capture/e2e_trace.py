#!/usr/bin/env python3
"""End-to-end test of `niorep trace` (ctest label e2e).

Default: a standard-library program with phases, a thread, and fork and
spawn multiprocessing workers does exactly known I/O on files under its
data folder, keeping its own per-phase byte accounting. The test traces it
with the built niorep, checks the run directory (strace.log, hook.jsonl,
manifest.json), then ingests it and compares the store's per-phase byte
totals on those files with the program's accounting, exactly. While
`niorep ingest` is not built yet that last part exits 77 (skip).

--workload NAME: traces one reference torch workload (label slow) and
checks its run directory and phases.

Also checks the error paths: missing strace, and a strace that may not
trace (ptrace not permitted), with a stand-in strace script."""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PYTHON = "/usr/bin/python3"
SKIP = 77

PROGRAM = r'''
import json, multiprocessing as mp, os, sys, threading, time
import niorep_hook

DATA = sys.argv[1]
acct = {}   # phase -> {"read": bytes, "write": bytes}, by the ingest's rule


def count(phase, op, n):
    acct.setdefault(phase, {"read": 0, "write": 0})[op] += n


def write_file(path, size, phase, sync=False):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    block = b"d" * 4096
    left = size
    while left:
        n = os.write(fd, block[:min(left, 4096)])
        count(phase, "write", n)
        left -= n
    if sync:
        os.fsync(fd)
    os.close(fd)


def read_file(path, chunk, phase, q=None):
    fd = os.open(path, os.O_RDONLY)
    total = 0
    while True:
        b = os.read(fd, chunk)
        if not b:
            break
        total += len(b)
    os.close(fd)
    if q is None:
        count(phase, "read", total)
    return total


def copy_in_kernel(src, dst, phase):
    """The in-kernel copies, each counted for both of its ends: copy_file_range,
    sendfile (both files), splice from a file into a pipe and from the pipe
    into a file (the file's end only: a pipe is no file I/O)."""
    fi = os.open(src, os.O_RDONLY)
    fo = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    copies = [os.copy_file_range(fi, fo, 10000), os.sendfile(fo, fi, 20000, 5000)]
    for n in copies:
        count(phase, "read", n)
        count(phase, "write", n)
    r, w = os.pipe()
    n = os.splice(fi, w, 3000)
    count(phase, "read", n)
    count(phase, "write", os.splice(r, fo, n))
    for fd in (fi, fo, r, w):
        os.close(fd)


def read_mapped(path):
    """Reads a file through a mapping, as np.memmap and safetensors do: no
    read call moves its bytes, and the mmap's length is what the store
    records of it. Returns the length mapped."""
    import mmap
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        n = len(m[:])
        m.close()
    return n


def io_uring_setup():
    """One io_uring_setup call (syscall 425 on every Linux architecture but
    alpha): the ingest counts it, since the I/O a ring submits is invisible to
    strace. Returns whether the kernel made the ring: a container's seccomp
    filter may refuse the call before strace's filter sees it."""
    import ctypes
    params = ctypes.create_string_buffer(120)  # struct io_uring_params, zeroed
    fd = ctypes.CDLL(None, use_errno=True).syscall(425, 4, params)
    if fd >= 0:
        os.close(fd)
    return fd >= 0


# each metadata call the program makes: [phase, path the ingest files it
# under, the syscall names libc may make it with]
meta_calls = []


def metadata_calls(ck, data, phase):
    """The metadata calls that checkpoint tools make besides stat and rename
    (shutil.copy2's copystat, Hugging Face's symlinked cache, os.mkfifo),
    each once; failures (extended attributes a file system lacks) count too."""
    link, sym, fifo = ck + ".link", ck + ".sym", os.path.join(data, "stream.fifo")
    calls = [
        (ck, ("chmod", "fchmodat", "fchmodat2"), lambda: os.chmod(ck, 0o600)),
        (ck, ("utimensat", "utime", "utimes", "futimesat"), lambda: os.utime(ck)),
        (data, ("statfs",), lambda: os.statvfs(data)),
        (ck, ("link", "linkat"), lambda: os.link(ck, link)),        # filed under the existing name
        (sym, ("symlink", "symlinkat"), lambda: os.symlink(ck, sym)),  # filed under the new name
        (ck, ("setxattr",), lambda: os.setxattr(ck, "user.niorep", b"1")),
        (ck, ("getxattr",), lambda: os.getxattr(ck, "user.niorep")),
        (ck, ("listxattr",), lambda: os.listxattr(ck)),
        (ck, ("removexattr",), lambda: os.removexattr(ck, "user.niorep")),
        (fifo, ("mknod", "mknodat"), lambda: os.mkfifo(fifo)),
    ]
    for path, names, call in calls:
        try:
            call()
        except OSError:
            pass
        meta_calls.append([phase, os.path.realpath(os.path.dirname(path)) + "/" + os.path.basename(path),
                           list(names)])


def worker(kind, paths, q):
    """A DataLoader-like worker: reads its files; the fork worker reads the
    last one inside a phase of its own."""
    got = {}
    for i, p in enumerate(paths):
        if kind == "fork" and i == len(paths) - 1:
            with niorep_hook.phase("prefetch"):
                got.setdefault("prefetch", 0)
                got["prefetch"] += read_file(p, 1000, None, q)
        else:
            got.setdefault("train", 0)
            got["train"] += read_file(p, 3000, None, q)
    q.put(got)


def thread_reads(paths):
    read_file(paths[0], 512, "train")            # no phase of its own: the process's
    with niorep_hook.phase("thread_phase"):
        read_file(paths[1], 512, "thread_phase")


def main():
    os.makedirs(DATA, exist_ok=True)
    sizes = [1000, 5000, 20000, 70000, 333, 4096, 8192, 12345]
    paths = [os.path.join(DATA, "sample_%d.bin" % i) for i in range(len(sizes))]
    fork_ctx, spawn_ctx = mp.get_context("fork"), mp.get_context("spawn")
    with niorep_hook.phase("data_prep"):
        for p, s in zip(paths, sizes):
            write_file(p, s, "data_prep")
        copy_in_kernel(paths[3], os.path.join(DATA, "staged.bin"), "data_prep")
        print("IO_URING %d" % io_uring_setup())
    with niorep_hook.phase("train"):
        read_file(paths[3], 65536, "train")
        t = threading.Thread(target=thread_reads, args=(paths[4:6],))
        t.start()
        t.join()
        q1, q2 = fork_ctx.Queue(), spawn_ctx.Queue()
        pf = fork_ctx.Process(target=worker, args=("fork", paths[0:3], q1))
        ps = spawn_ctx.Process(target=worker, args=("spawn", paths[5:8], q2))
        pf.start(); ps.start()
        for q in (q1, q2):
            for phase, n in q.get().items():
                count(phase, "read", n)
        pf.join(); ps.join()
        with niorep_hook.phase("checkpoint"):
            ck = os.path.join(DATA, "ckpt.bin")
            write_file(ck + ".tmp", 50000, "checkpoint", sync=True)
            os.rename(ck + ".tmp", ck)
            metadata_calls(ck, DATA, "checkpoint")
    with niorep_hook.phase("eval"):
        read_file(os.path.join(DATA, "ckpt.bin"), 16384, "eval")
        read_file(paths[7], 100, "eval")
        print("MAPPED %s %d" % (os.path.realpath(paths[3]), read_mapped(paths[3])))
    print("ACCOUNTING " + json.dumps(acct, sort_keys=True))
    print("META " + json.dumps(meta_calls))


if __name__ == "__main__":
    main()
'''


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def read_text(path):
    """A run-directory file, plain or .zst."""
    if os.path.exists(path):
        with open(path) as f:
            return f.read()
    if os.path.exists(path + ".zst"):
        return subprocess.run(["zstd", "-dc", path + ".zst"], check=True, capture_output=True,
                              text=True).stdout
    fail("missing %s" % path)


def check_run_dir(run, label, exit_status):
    check(os.path.getsize(os.path.join(run, "strace.log")) > 0, "strace.log empty")
    strace_log = read_text(os.path.join(run, "strace.log"))
    check(" execve(" in strace_log and "+++ exited with" in strace_log, "strace.log lacks execve/exit lines")
    hook = [json.loads(line) for line in read_text(os.path.join(run, "hook.jsonl")).splitlines()]
    check(hook and hook[0]["event"] == "header" and hook[0]["version"] == 1, "hook.jsonl lacks its header")
    with open(os.path.join(run, "manifest.json")) as f:
        m = json.load(f)
    check(m["labels"] == label, "labels: %r" % m["labels"])
    check(m["exit"]["status"] == exit_status and not m["interrupted"], "exit: %r" % m["exit"])
    check(m["end"] >= m["start"] > 1e9, "start/end")
    check(m["host"]["cpus"] >= 1 and m["host"]["memory_bytes"] > 0, "host facts")
    check(m["strace"]["version"] and "-ttt" in m["strace"]["argv"], "strace facts")
    check(m["fs"][0]["role"] == "cwd" and m["fs"][0]["type"], "file system of cwd: %r" % m["fs"][0])
    check(os.path.isabs(m["cwd"]), "cwd")
    return hook, m


def niorep_tool(niorep, *args):
    return subprocess.run([niorep] + list(args), capture_output=True, text=True)


def export(niorep, store, table, out_dir):
    out = os.path.join(out_dir, table + ".jsonl")
    r = niorep_tool(niorep, "export", "--table", table, "--format", "jsonl", "-o", out, store)
    if r.returncode != 0:
        return None, r.stderr
    with open(out) as f:
        return [json.loads(line) for line in f if line.strip()], ""


def check_metadata_calls(events, files, name_of, meta_calls):
    """Each metadata call of the program is one metadata event of its phase,
    filed under its path, of one of the names libc makes it with (since
    session 61 `niorep trace` records chmod, utimensat, statfs, link,
    symlink, the xattr calls and mknod); a fifo made by mkfifo is a pipe."""
    paths = {path for _, path, _ in meta_calls}  # not others' (multiprocessing's semaphores link in /dev/shm)
    path_of = {f["file_id"]: f["path"] for f in files if f["path"] in paths}
    call_of = {name: tuple(names) for _, _, names in meta_calls for name in names}  # a name -> its call's names
    got = [(name_of.get(e["phase_id"], "unphased"), path_of[e["file_id"]], e["syscall"]) for e in events
           if e["op_class"] == "metadata" and e["file_id"] in path_of and e["syscall"] in call_of]
    # one event per call, each under its own call's names: a call missing and another recorded twice differ
    if sorted((phase, path, call_of[name]) for phase, path, name in got) != \
            sorted((phase, path, tuple(names)) for phase, path, names in meta_calls):
        fail("metadata calls differ:\n  store:   %s\n  program: %s" % (sorted(got), meta_calls))
    kinds = {f["path"]: f["kind"] for f in files}
    fifo = [path for _, path, names in meta_calls if "mknod" in names][0]
    check(kinds.get(fifo) == "pipe", "the fifo made by mkfifo is %r, not a pipe" % kinds.get(fifo))
    print("%d metadata calls recorded: %s" % (len(got), ", ".join(sorted({n for _, _, n in got}))))


def check_mapping(events, files, name_of, summary, mapped):
    """The program's mapping of a data file: one mmap event of the eval phase
    whose bytes are the length mapped; the summary counts it among the job
    files' mappings (since session 61)."""
    path, length = mapped
    ids = {f["file_id"] for f in files if f["path"] == path}
    maps = [(name_of.get(e["phase_id"], "unphased"), e["bytes"]) for e in events
            if e["syscall"] == "mmap" and e["file_id"] in ids]
    check(maps == [("eval", length)], "the mapping of %s: %r, the program mapped %d bytes in eval" % (path, maps, length))
    by_phase = {p["name"]: p["job_bytes_mapped"] for p in summary["phases"] if p["job_bytes_mapped"]}
    check(by_phase == {"eval": length}, "phases' job_bytes_mapped: %r" % by_phase)
    job = summary["fidelity"]["mmap_job"]
    check(job["files"] >= 1 and job["bytes"] >= length and job["calls"] >= 1, "fidelity.mmap_job: %r" % job)
    print("the mapping of %d bytes is recorded; fidelity.mmap_job %s" % (length, json.dumps(job, sort_keys=True)))


def ingest_and_compare(niorep, run, work, data_dir, accounting, ring_made, meta_calls, mapped):
    store = os.path.join(work, "run.nio")
    r = niorep_tool(niorep, "ingest", "-o", store, run)
    if r.returncode != 0 and "not built" in r.stderr:
        print("SKIP: niorep ingest is not built yet (%s); run directory checks passed" % r.stderr.strip())
        sys.exit(SKIP)
    check(r.returncode == 0, "ingest failed: %s" % r.stderr)
    events, msg = export(niorep, store, "events", work)
    if events is None and "not built" in msg:
        print("SKIP: niorep export is not built yet")
        sys.exit(SKIP)
    files, _ = export(niorep, store, "files", work)
    phases, _ = export(niorep, store, "phases", work)
    check(events is not None and files is not None and phases is not None, "export failed")
    data_real = os.path.realpath(data_dir) + "/"
    data_files = {f["file_id"] for f in files if f["path"].startswith(data_real)}
    name_of = {p["phase_id"]: p["name"] for p in phases}
    got = {}
    for e in events:
        if e["op_class"] not in ("read", "write") or e["bytes"] <= 0:
            continue
        # each end on a data file: the event's own, and an in-kernel copy's source (a read)
        for file_id, op in ((e["file_id"], e["op_class"]), (e["file2_id"], "read")):
            if file_id in data_files:
                phase = name_of.get(e["phase_id"], "unphased")
                got.setdefault(phase, {"read": 0, "write": 0})[op] += e["bytes"]
    if got != accounting:
        fail("per-phase bytes differ:\n  store:   %s\n  program: %s" % (json.dumps(got, sort_keys=True),
                                                                       json.dumps(accounting, sort_keys=True)))
    print("per-phase bytes match: %s" % json.dumps(accounting, sort_keys=True))
    check_metadata_calls(events, files, name_of, meta_calls)
    r = niorep_tool(niorep, "summary", "--json", store)
    check(r.returncode == 0, "summary failed: %s" % r.stderr)
    check_mapping(events, files, name_of, json.loads(r.stdout), mapped)
    rings = json.loads(r.stdout)["fidelity"]["io_uring_calls"]
    if ring_made:
        check(rings == 1, "io_uring calls: %d, the program made one ring" % rings)
        print("the io_uring_setup call is counted")
    else:  # refused: by the kernel, strace saw it; by a seccomp filter, not
        check(rings in (0, 1), "io_uring calls: %d, the program made one refused call" % rings)
        print("note: io_uring_setup was refused here; %d call counted" % rings)


def check_error_paths(niorep, work):
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "x"), "--strace", "/nonexistent/strace", "--", "true")
    check(r.returncode == 1 and "strace not found" in r.stderr, "missing strace: %r" % r.stderr)
    fake = os.path.join(work, "fake_strace")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\necho 'strace: test_ptrace_get_syscall_info: PTRACE_TRACEME: "
                "Operation not permitted' >&2\nexit 1\n")
    os.chmod(fake, 0o755)
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "y"), "--strace", fake, "--", "true")
    check(r.returncode == 1 and "ptrace not permitted" in r.stderr, "ptrace denied: %r" % r.stderr)
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "z"), "--", "sh", "-c", "exit 7")
    check(r.returncode == 7, "exit status passed through: %d" % r.returncode)
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "z2"), "--", "sh", "-c", "kill -USR1 $$")
    check(r.returncode == 128 + 10, "signal death -> 128+sig: %d" % r.returncode)
    # a run directory with files in it is refused, untouched: the ingest
    # would read the old logs with the new ones
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "z"), "--", "true")
    check(r.returncode == 2 and "is not empty" in r.stderr, "non-empty run dir: %d %r" % (r.returncode, r.stderr))
    check(os.path.exists(os.path.join(work, "z", "manifest.json")), "the refused run dir was touched")
    # a run directory that cannot be made (under a file, or a file
    # itself): exit 1 and the message docs/capture.md quotes, nothing traced
    blocker = os.path.join(work, "a_file")
    with open(blocker, "w") as f:
        f.write("x")
    r = niorep_tool(niorep, "trace", "-o", os.path.join(blocker, "run"), "--", "true")
    check(r.returncode == 1 and r.stderr.startswith("niorep: %s: cannot create the directory: Not a directory"
                                                    % os.path.join(blocker, "run")),
          "run dir under a file: %d %r" % (r.returncode, r.stderr))
    r = niorep_tool(niorep, "trace", "-o", blocker, "--", "true")
    check(r.returncode == 1 and r.stderr.startswith("niorep: %s: not a directory" % blocker),
          "run dir that is a file: %d %r" % (r.returncode, r.stderr))
    check(open(blocker).read() == "x", "the file given as a run dir was touched")
    os.makedirs(os.path.join(work, "empty"))
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "empty"), "--", "true")
    check(r.returncode == 0, "an empty run dir is fine: %d %r" % (r.returncode, r.stderr))
    # no Python process: no hook file, the manifest says so, and so does stderr
    with open(os.path.join(work, "empty", "manifest.json")) as f:
        check(json.load(f)["logs"]["hook"] is None, "logs.hook of a run without Python")
    check("no Python process started the hook" in r.stderr, "no note on the hook: %r" % r.stderr)
    # a command that cannot start: the shell's statuses, and no run directory
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "nx"), "--", "no-such-command-niorep")
    check(r.returncode == 127 and "command not found" in r.stderr, "missing command: %d %r" % (r.returncode, r.stderr))
    check(not os.path.exists(os.path.join(work, "nx")), "a run dir was made for a missing command")
    noexec = os.path.join(work, "noexec.sh")
    with open(noexec, "w") as f:
        f.write("#!/bin/sh\ntrue\n")
    os.chmod(noexec, 0o644)
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "ne"), "--", noexec)
    check(r.returncode == 126 and "not executable" in r.stderr, "not executable: %d %r" % (r.returncode, r.stderr))
    # a script whose #! interpreter is missing: the shell's 127, no run
    # directory; an executable text without #!: run by /bin/sh, as a shell
    # runs it (until session 46 both left a run of strace's failed execve)
    bad = os.path.join(work, "bad_interp.sh")
    with open(bad, "w") as f:
        f.write("#!/nonexistent/interp\necho hi\n")
    os.chmod(bad, 0o755)
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "bi"), "--", bad)
    check(r.returncode == 127 and "bad interpreter" in r.stderr, "bad interpreter: %d %r" % (r.returncode, r.stderr))
    check(not os.path.exists(os.path.join(work, "bi")), "a run dir was made for a bad interpreter")
    plain = os.path.join(work, "no_shebang.sh")
    with open(plain, "w") as f:
        f.write("echo from-sh\nexit 5\n")
    os.chmod(plain, 0o755)
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "ns"), "--", plain)
    check(r.returncode == 5 and "from-sh" in r.stdout, "a script without #!: %d %r" % (r.returncode, r.stdout))
    r = niorep_tool(niorep, "trace", "-o", os.path.join(work, "nd"), "--", work)  # a folder
    check(r.returncode == 126 and "not executable" in r.stderr, "a folder as COMMAND: %d %r" % (r.returncode, r.stderr))
    # a hook folder the user named that holds no hook: an error, not another folder taken silently
    env = dict(os.environ, NIOREP_HOOK_DIR=os.path.join(work, "no-hook-here"))
    r = subprocess.run([niorep, "trace", "-o", os.path.join(work, "nh"), "--", "true"],
                       capture_output=True, text=True, env=env)
    check(r.returncode == 2 and "holds no niorep hook" in r.stderr, "bad NIOREP_HOOK_DIR: %d %r" % (r.returncode, r.stderr))
    check(not os.path.exists(os.path.join(work, "nh")), "a run dir was made with a bad NIOREP_HOOK_DIR")
    r = niorep_tool(niorep, "trace", "--label", "novalue", "-o", "d", "--", "true")
    check(r.returncode == 2, "bad --label is a usage error")
    r = niorep_tool(niorep, "trace", "--label", "k=1", "--label", "k=2", "-o", os.path.join(work, "kk"), "--", "true")
    check(r.returncode == 2 and "given twice" in r.stderr, "a --label key twice: %d %r" % (r.returncode, r.stderr))
    # a label that is not UTF-8 is refused before anything runs; an argument
    # that is not UTF-8 is kept in the manifest, its bad byte as \xFF
    r = subprocess.run([niorep, "trace", "--label", b"workload=a\xffb", "-o", os.path.join(work, "nu"), "--", "true"],
                       capture_output=True)
    check(r.returncode == 2 and b"expects UTF-8 text" in r.stderr and not os.path.exists(os.path.join(work, "nu")),
          "a label not UTF-8: %d %r" % (r.returncode, r.stderr))
    r = subprocess.run([niorep, "trace", "-o", os.path.join(work, "na"), "--", "true", b"x\xffy"], capture_output=True)
    with open(os.path.join(work, "na", "manifest.json")) as f:
        command = json.load(f).get("command")
    check(r.returncode == 0 and command and command[-1] == "x\\xFFy", "an argument not UTF-8: %d %r" % (r.returncode, command))
    # a --watch path that is not there at the end is said, not only a null in the manifest
    missing = os.path.join(work, "no-such-watch")
    r = niorep_tool(niorep, "trace", "--watch", missing, "-o", os.path.join(work, "ww"), "--", "true")
    check(r.returncode == 0 and "--watch %s: no such file or folder" % missing in r.stderr,
          "a missing --watch path: %d %r" % (r.returncode, r.stderr))
    # strace that fails the pre-check: no run directory left (an empty one until session 46)
    r = niorep_tool(niorep, "trace", "--strace", "/bin/false", "-o", os.path.join(work, "pf"), "--", "true")
    check(r.returncode == 1 and not os.path.exists(os.path.join(work, "pf")),
          "a failed pre-check: %d, run dir %s" % (r.returncode, os.path.exists(os.path.join(work, "pf"))))
    print("error paths ok")


def check_ctrl_c(niorep, work):
    """Ctrl-C on the terminal stops COMMAND (it becomes the foreground
    group); niorep still writes the manifest, then dies of SIGINT itself
    (so that a calling script stops too; until session 46 it exited 130)."""
    import pty
    import select
    import time
    run = os.path.join(work, "interrupted")
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(niorep, [niorep, "trace", "-o", run, "--", PYTHON, "-c",
                          "import niorep_hook, time\nwith niorep_hook.phase('train'):\n    time.sleep(60)"])
    time.sleep(2.0)
    os.write(fd, b"\x03")
    while select.select([fd], [], [], 30)[0]:
        try:
            if not os.read(fd, 4096):
                break
        except OSError:
            break
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    check(os.waitstatus_to_exitcode(status) == -signal.SIGINT, "Ctrl-C: exit %r" % os.waitstatus_to_exitcode(status))
    with open(os.path.join(run, "manifest.json")) as f:
        m = json.load(f)
    check(m["interrupted"] and m["exit"]["signal"] == 2, "Ctrl-C manifest: %r" % m["exit"])
    with open(os.path.join(run, "hook.jsonl")) as f:
        ends = [json.loads(line) for line in f if '"phase_end"' in line]
    check(ends and ends[-1].get("error") == "KeyboardInterrupt", "Ctrl-C: phase_end not written")
    # the store keeps that the phase ended by an exception (phases.flags 2)
    store = os.path.join(work, "interrupted.nio")
    r = niorep_tool(niorep, "ingest", "-o", store, run)
    check(r.returncode == 0, "ingest of the interrupted run: %s" % r.stderr)
    phases, _ = export(niorep, store, "phases", work)
    train = [p for p in phases or [] if p["name"] == "train"]
    check(len(train) == 1 and int(train[0]["flags"]) & 2, "Ctrl-C: train not flagged ended by error: %r" % phases)
    print("Ctrl-C ok")


def interactive_bash(keys, seconds):
    """Types keys ((at_second, bytes) pairs) into an interactive bash on a
    terminal of its own; returns what the terminal showed."""
    import pty
    import select
    import time
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
    out, t0, keys = b"", time.time(), list(keys)
    while time.time() - t0 < seconds:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
        while keys and time.time() - t0 > keys[0][0]:
            os.write(fd, keys.pop(0)[1])
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)
    return out.decode(errors="replace")


def check_job_control(niorep, work):
    """In an interactive shell, Ctrl-Z stops the job (the prompt comes back)
    and fg resumes it to its end (until session 46 the terminal hung on the
    stopped traced group); Ctrl-C in a loop of traces stops the loop."""
    run = os.path.join(work, "stopped")
    cmd = "%s trace -o %s -- %s -c 'import time; time.sleep(3); print(\"DONE\")'" % (niorep, run, PYTHON)
    text = interactive_bash([(0.5, cmd.encode() + b"\n"), (1.5, b"\x1a"), (2.5, b"echo AT_PROMPT\n"),
                             (3.0, b"fg\n"), (9.0, b"echo RC=$?\n")], 11)
    check("Stopped" in text and "AT_PROMPT" in text.split("echo AT_PROMPT", 1)[-1], "Ctrl-Z: no prompt: %r" % text[-600:])
    check("DONE" in text and "RC=0" in text, "fg: the job did not end well: %r" % text[-600:])
    with open(os.path.join(run, "manifest.json")) as f:
        m = json.load(f)
    check(m["exit"]["code"] == 0 and not m["interrupted"], "Ctrl-Z then fg manifest: %r" % m["exit"])
    loop = os.path.join(work, "loop.sh")
    with open(loop, "w") as f:
        f.write("for i in 1 2; do\n  %s trace -o %s/loop$i -- %s -c 'import time; time.sleep(5)'\n"
                "  echo LOOP_WENT_ON $i\ndone\n" % (niorep, work, PYTHON))
    text = interactive_bash([(0.5, b"bash " + loop.encode() + b"\n"), (2.5, b"\x03")], 10)
    check("LOOP_WENT_ON" not in text, "Ctrl-C did not stop the loop of traces: %r" % text[-600:])
    check(os.path.exists(os.path.join(work, "loop1", "manifest.json")), "interrupted loop run has no manifest")
    print("job control ok")


def run_stdlib(niorep, work):
    run, data_dir = os.path.join(work, "run"), os.path.join(work, "data")
    prog = os.path.join(work, "prog.py")
    with open(prog, "w") as f:
        f.write(textwrap.dedent(PROGRAM))
    r = subprocess.run([niorep, "trace", "-o", run, "--label", "test=e2e", "--watch", work, "--",
                        PYTHON, prog, data_dir], capture_output=True, text=True, cwd=work, timeout=240)
    check(r.returncode == 0, "trace failed (%d): %s" % (r.returncode, r.stderr))
    line = [l for l in r.stdout.splitlines() if l.startswith("ACCOUNTING ")]
    check(line, "program printed no accounting: %s" % r.stdout)
    accounting = json.loads(line[0][len("ACCOUNTING "):])
    ring_made = "IO_URING 1" in r.stdout.splitlines()
    mapped = [l.split()[1:] for l in r.stdout.splitlines() if l.startswith("MAPPED ")]
    check(mapped, "program printed no mapping: %s" % r.stdout)
    mapped = (mapped[0][0], int(mapped[0][1]))
    meta = [l for l in r.stdout.splitlines() if l.startswith("META ")]
    check(meta, "program printed no metadata calls: %s" % r.stdout)
    meta_calls = json.loads(meta[0][len("META "):])
    hook, m = check_run_dir(run, {"test": "e2e"}, 0)
    check(m["fs"][1]["role"] == "watch" and m["fs"][1]["path"] == work, "watch path in manifest")
    pids = {r["pid"] for r in hook}
    check(len(pids) >= 3, "hook lines from main, fork and spawn processes: %r" % pids)
    check(any(r["event"] == "fork" for r in hook), "fork worker wrote no lines")
    check(sum(r["event"] == "header" for r in hook) >= 2, "spawn worker started no hook")
    names = {r["phase"] for r in hook if r["event"] == "phase_begin"}
    check(names == {"data_prep", "train", "thread_phase", "prefetch", "checkpoint", "eval"}, "phases %r" % names)
    print("run directory ok")
    check_error_paths(niorep, work)
    check_ctrl_c(niorep, work)
    check_job_control(niorep, work)
    ingest_and_compare(niorep, run, work, data_dir, accounting, ring_made, meta_calls, mapped)


def run_workload(niorep, work, name):
    run = os.path.join(work, "run")
    script = os.path.join(REPO, "workloads", "wl_%s.py" % name)
    data, wdir = os.path.join(work, "data"), os.path.join(work, "work")
    r = subprocess.run([PYTHON, script, "--data", data, "--work", wdir, "--init-only"], capture_output=True,
                       text=True, timeout=300)
    check(r.returncode == 0, "setup failed: %s" % r.stderr)
    r = subprocess.run([niorep, "trace", "-o", run, "--label", "workload=" + name, "--watch", data, "--",
                        PYTHON, script, "--data", data, "--work", wdir], capture_output=True, text=True,
                       timeout=500)
    check(r.returncode == 0, "trace failed (%d): %s" % (r.returncode, r.stderr))
    hook, _ = check_run_dir(run, {"workload": name}, 0)
    seq = [r["phase"] for r in hook if r["event"] == "phase_begin" and r["depth"] == 0 and r["pid"] == hook[0]["pid"]]
    check(seq == ["data_prep", "model_load", "train", "eval"], "top-level phases %r" % seq)
    check(any(r["event"] == "io" and r["op"] == "torch.save" for r in hook), "no torch.save record")
    workers = {r["pid"] for r in hook if r["event"] == "fork"}
    check(len(workers) >= 2, "DataLoader workers wrote no lines")
    print("workload %s traced: %d hook lines, %d worker processes" % (name, len(hook), len(workers)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--niorep", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--workload")
    a = ap.parse_args()
    if not shutil.which("strace"):
        print("SKIP: strace not installed")
        return SKIP
    probe = subprocess.run(["strace", "-f", "-o", "/dev/null", "true"], capture_output=True)
    if probe.returncode != 0:
        print("SKIP: strace cannot trace here: %s" % probe.stderr.decode(errors="replace").strip())
        return SKIP
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    work = os.path.realpath(a.work)
    if a.workload:
        if subprocess.run([PYTHON, "-c", "import torch"], capture_output=True).returncode != 0:
            print("SKIP: python3-torch not installed")
            return SKIP
        run_workload(a.niorep, work, a.workload)
    else:
        run_stdlib(a.niorep, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
