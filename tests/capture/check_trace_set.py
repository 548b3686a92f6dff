#!/usr/bin/env python3
"""The syscall set of `niorep trace` (cli/trace_syscalls.h), checked three ways
(ctest label unit):

1. strace refuses to start on a bare name it does not know ("invalid system
   call"), so every name that the 64-bit asm-generic architectures (arm64,
   riscv64, loongarch64) lack must carry strace's '?' (ignore if unknown).
   The generic names come from the kernel's own header, through the C
   preprocessor (`cpp -dM` of <asm-generic/unistd.h>, no __ARCH_WANT_*), so
   this machine (x86_64) checks the set for the others.
2. Every traced name is one the ingest knows (ingest/syscalls.c).
3. This machine's strace accepts the whole set.

Exits 77 (skip) where the header, cpp or strace is missing."""

import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SKIP = 77


def read(path):
    with open(os.path.join(REPO, path)) as f:
        return f.read()


def traced_names():
    return re.findall(r'^\s*\{"(\??[a-z0-9_]+)",', read("cli/trace_syscalls.h"), re.M)


def generic_names():
    """The __NR_ names of <asm-generic/unistd.h> on a 64-bit architecture that
    wants none of its optional calls; None without a preprocessor or header."""
    cpp = shutil.which("cpp")
    if not cpp:
        return None
    r = subprocess.run([cpp, "-dM", "-"], input="#include <asm-generic/unistd.h>\n", capture_output=True,
                       text=True)
    if r.returncode != 0:
        return None
    return set(re.findall(r"^#define __NR_([a-z0-9_]+) ", r.stdout, re.M))


def ingest_names():
    """The names of ingest/syscalls.c's table: every entry is MACRO("name", ...)."""
    return set(re.findall(r'^\s*[A-Z][A-Z0-9_]*\("([a-z0-9_]+)"', read("ingest/syscalls.c"), re.M))


def main():
    names = traced_names()
    if len(names) < 50:
        print("FAIL: only %d names read from cli/trace_syscalls.h" % len(names))
        return 1
    generic = generic_names()
    if generic is None or "openat" not in generic:
        print("SKIP: no C preprocessor or <asm-generic/unistd.h>")
        return SKIP
    failed = 0
    bare_unknown = [n for n in names if not n.startswith("?") and n not in generic]
    if bare_unknown:
        print("FAIL: names arm64/riscv64 lack, without '?' (strace would refuse to start there): %s"
              % " ".join(bare_unknown))
        failed = 1
    known = ingest_names()
    unknown = [n.lstrip("?") for n in names if n.lstrip("?") not in known]
    if len(known) < 100 or unknown:
        print("FAIL: traced, but not in ingest/syscalls.c's table (%d names read): %s" % (len(known), " ".join(unknown)))
        failed = 1
    twice = sorted({n.lstrip("?") for n in names if [m.lstrip("?") for m in names].count(n.lstrip("?")) > 1})
    if twice:
        print("FAIL: traced twice: %s" % " ".join(twice))
        failed = 1
    strace = shutil.which("strace")
    if not strace:
        print("SKIP: no strace; the set's names were checked")
        return failed or SKIP
    r = subprocess.run([strace, "-f", "-o", os.devnull, "-e", "trace=" + ",".join(names), "true"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: strace refused the set (%d): %s" % (r.returncode, r.stderr.strip()))
        failed = 1
    if not failed:
        print("%d traced names: %d carry '?', every name known to the ingest, strace accepts the set"
              % (len(names), sum(n.startswith("?") for n in names)))
    return failed


if __name__ == "__main__":
    sys.exit(main())
