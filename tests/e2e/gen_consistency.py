#!/usr/bin/python3
"""A generated realistic log (bench/gen_strace_log: -f -ttt -T -y, 9 processes,
unfinished/resumed pairs across processes, failed opens, pread64 at offsets)
ingested by niorep must give, per path, exactly what the independent reader
strace_ref.py counts; the generator must be deterministic for a seed.
Exit 0 pass, 1 fail."""
import argparse
import csv
import hashlib
import io
import os
import subprocess
import sys

import strace_ref


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--niorep", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", default="4M")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    log, store = os.path.join(args.out, "gen.log"), os.path.join(args.out, "gen.nio")
    digests = []
    for _ in range(2):
        subprocess.run([args.gen, "--size", args.size, "--seed", "7", "--files", "20000", "-o", log], check=True)
        with open(log, "rb") as f:
            digests.append(hashlib.sha256(f.read()).hexdigest())
    errors = []
    if digests[0] != digests[1]:
        errors.append("generator is not deterministic for a seed")
    p = subprocess.run([args.niorep, "ingest", "-o", store, log], capture_output=True)
    if p.returncode != 0:
        print("FAIL ingest (%d): %s" % (p.returncode, p.stderr.decode(errors="replace")))
        return 1
    q = subprocess.run([args.niorep, "export", store, "--table", "files", "--format", "csv"],
                       capture_output=True, check=True)
    rows = {r["path"].encode("utf-8", "surrogateescape"): r
            for r in csv.DictReader(io.StringIO(q.stdout.decode("utf-8", "surrogateescape"), newline=""))}
    ref = strace_ref.count([log])
    for path, want in sorted(ref.items()):
        row = rows.get(path)
        got = {c: int(row[c]) for c in strace_ref.COUNTERS} if row else None
        if got != want:
            errors.append("%r: niorep %s, log %s" % (path, got, want))
    for e in errors[:20]:
        print("FAIL " + e)
    print("%d paths compared, %d differ" % (len(ref), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
