#!/usr/bin/python3
"""Cross-checks nr_ks_2samp (through ks_tool) against scipy on generated data.

Exact p-values are compared with scipy.stats.ks_2samp(method='exact');
asymptotic ones with the Kolmogorov limit scipy.special.kolmogorov(sqrt(en) D)
(scipy's own 'asymp' method uses a finite-n distribution, a different
approximation, so D is compared with ks_2samp and p with the limit)."""
import math
import subprocess
import sys

import numpy as np
from scipy.special import kolmogorov
from scipy.stats import ks_2samp

tool = sys.argv[1]
rng = np.random.default_rng(20261130)


def run(a, b):
    text = f"{len(a)} {len(b)}\n" + " ".join(repr(float(v)) for v in np.concatenate([a, b])) + "\n"
    out = subprocess.run([tool], input=text, capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1]), out[2]


cases = [
    ("same normal 10/10", rng.normal(0, 1, 10), rng.normal(0, 1, 10)),
    ("shift 30/47", rng.normal(0, 1, 30), rng.normal(0.8, 1, 47)),
    ("lognormal 200/150", rng.lognormal(0, 1, 200), rng.lognormal(0.2, 1, 150)),
    ("ties integers 60/80", rng.integers(0, 6, 60).astype(float), rng.integers(0, 7, 80).astype(float)),
    ("scale 1000/900", rng.exponential(1.0, 1000), rng.exponential(1.15, 900)),
    ("same 2500/3000", rng.normal(0, 1, 2500), rng.normal(0, 1, 3000)),
    ("asymptotic 4000/5000", rng.normal(0, 1, 4000), rng.normal(0.05, 1, 5000)),
    ("asymptotic ties 6000/7000", np.round(rng.exponential(1, 6000), 1), np.round(rng.exponential(1.1, 7000), 1)),
]
failures = 0
for name, a, b in cases:
    d, p, method = run(a, b)
    ref = ks_2samp(a, b, method="exact" if method == "exact" else "asymp")
    if method == "exact":
        p_ref = ref.pvalue
        ok_p = abs(p - p_ref) <= 1e-9 + 1e-6 * p_ref
    else:
        en = len(a) * len(b) / (len(a) + len(b))
        p_ref = float(kolmogorov(math.sqrt(en) * ref.statistic))
        ok_p = abs(p - p_ref) <= 1e-12 + 1e-9 * p_ref
    ok_d = abs(d - ref.statistic) <= 1e-12
    expect_method = "exact" if len(a) * len(b) <= 1e7 else "asymptotic"
    ok_m = method == expect_method
    status = "ok" if ok_p and ok_d and ok_m else "FAIL"
    failures += status != "ok"
    print(f"{status}: {name}: D {d:.6g} (scipy {ref.statistic:.6g}), p {p:.6g} (ref {p_ref:.6g}), {method}")
sys.exit(1 if failures else 0)
