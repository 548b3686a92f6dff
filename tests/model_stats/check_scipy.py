#!/usr/bin/python3
"""Independent check of model/ statistics with numpy and scipy.

Usage: check_scipy.py STATS_DUMP WORKDIR

Runs STATS_DUMP WORKDIR (which writes data sets and the C results as CSV),
recomputes every statistic here by other formulas, and compares:
- Gini by the mean absolute difference over all pairs / (2 * mean);
- top shares and files_for_p by sorting (ranks as exact fractions);
- nearest-rank quantiles by a full sort, rank = ceil(q * N) in exact decimals;
- the continuous power law: for every unique candidate xmin with >= 10 tail
  values, alpha = 1 + n / sum(ln(x / xmin)) and the KS distance from
  scipy.stats.kstest; the xmin of least distance;
- Vuong's test against a lognormal truncated at xmin, fitted with
  scipy.optimize.minimize in the same (beta, t) coordinates as the C code,
  on power-law data ("pl": the lognormal degenerates into the power law,
  R = 0) and lognormal data ("ln": an interior optimum).
Exit 0 when all agree, 1 otherwise, 77 (skip) without numpy/scipy.
"""
import csv
import math
import os
import subprocess
import sys
from fractions import Fraction

try:
    import numpy as np
    from scipy import optimize, special, stats
except ImportError:
    print("check_scipy: numpy/scipy missing, skipping")
    sys.exit(77)

failures = []


def check(name, got, want, tol):
    ok = abs(got - want) <= tol
    print(f"{'ok  ' if ok else 'FAIL'} {name:28s} C {got!r:>24}  python {want!r:>24}  tol {tol:g}")
    if not ok:
        failures.append(name)


def read_values(path, conv=float):
    with open(path) as f:
        return [conv(line) for line in f if line.strip()]


def read_named(path):
    with open(path) as f:
        return {row["name"]: float(row["value"]) for row in csv.DictReader(f)}


def check_concentration(work):
    x = np.array(read_values(os.path.join(work, "conc_data.csv")))
    c = read_named(os.path.join(work, "conc_result.csv"))
    n = len(x)
    mad = np.abs(x[:, None] - x[None, :]).sum() / (n * n)
    check("gini", c["gini"], mad / (2 * x.mean()), 1e-12)
    check("total", c["total"], float(x.sum()), 0)
    desc = np.sort(x)[::-1]
    total = desc.sum()
    for pct in (1, 10, 20):
        k = math.ceil(Fraction(pct, 100) * n)
        check(f"top{pct}_share", c[f"top{pct}_share"], desc[:k].sum() / total, 1e-12)
    cum = np.cumsum(desc)
    for p in (50, 90, 99):
        k = int(np.argmax(cum >= total * p / 100)) + 1
        check(f"files_for_{p}", c[f"files_for_{p}"], k / n, 0)


def check_quantiles(work):
    v = np.sort(np.array(read_values(os.path.join(work, "quant_data.csv"), int), dtype=np.int64))
    with open(os.path.join(work, "quant_result.csv")) as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        rank = max(1, math.ceil(Fraction(row["q"]) * len(v)))
        check(f"quantile {row['q']}", int(row["value"]), int(v[rank - 1]), 0)
        # numpy's inverted_cdf is the same definition, but computes q * N in
        # binary floating point (0.999 * 100000 > 99900): compare only where
        # q * N is not an integer, so that rounding cannot move the rank
        if (Fraction(row["q"]) * len(v)).denominator != 1:
            check(f"numpy inverted_cdf {row['q']}", int(row["value"]),
                  int(np.percentile(v, float(row["q"]) * 100, method="inverted_cdf")), 0)


def log_norm(beta, t):
    """ln of the integral of exp(-beta y - t^2 y^2) over y >= 0."""
    if t == 0:
        return -math.log(beta) if beta > 0 else math.inf
    sigma = 1 / (math.sqrt(2) * abs(t))
    z = beta * sigma
    # Q(z) exp(z^2 / 2) = erfcx(z / sqrt 2) / 2, stable for large z
    tail = math.log(0.5 * special.erfcx(z / math.sqrt(2))) if z > -20 else z * z / 2 + special.log_ndtr(-z)
    return math.log(sigma) + 0.5 * math.log(2 * math.pi) + tail


def truncated_lognormal_fit(y, alpha):
    """MLE of the normal of y = ln(x / xmin) truncated to y >= 0, as (beta, t)
    with density exp(-beta y - t^2 y^2) / Z: beta = (ln xmin - mu) / sigma^2,
    t^2 = 1 / (2 sigma^2). Starts: the moments of ln x, and the power law."""
    n, sy, sy2 = len(y), y.sum(), (y * y).sum()

    def negll(p):
        v = n * log_norm(p[0], p[1]) + p[0] * sy + p[1] ** 2 * sy2
        return v if np.isfinite(v) else 1e300

    sd = max(y.std(), 1e-3)
    starts = ([-y.mean() / sd**2, 1 / (math.sqrt(2) * sd)], [alpha - 1, 0.01 / sd])
    best = None
    for start in starts:
        r = optimize.minimize(negll, start, method="Nelder-Mead",
                              options={"xatol": 1e-11, "fatol": 1e-12, "maxiter": 40000})
        if best is None or r.fun < best.fun:
            best = r
    return best.x


def check_powerlaw(work, name):
    x = np.sort(np.array(read_values(os.path.join(work, f"{name}_data.csv"))))
    c = read_named(os.path.join(work, f"{name}_result.csv"))
    uniq = np.unique(x)
    best = None
    for xmin in uniq[:-1]:
        tail = x[x >= xmin]
        if len(tail) < 10 or len(np.unique(tail)) < 2:
            continue
        alpha = 1 + len(tail) / np.log(tail / xmin).sum()
        d = stats.kstest(tail, lambda t: 1 - (t / xmin) ** (1 - alpha)).statistic
        if best is None or d < best[0]:
            best = (d, xmin, alpha, len(tail))
    d, xmin, alpha, nt = best
    check(f"{name} powerlaw xmin", c["xmin"], xmin, 0)
    check(f"{name} powerlaw alpha", c["alpha"], alpha, 1e-9 * alpha)
    check(f"{name} powerlaw n_tail", c["n_tail"], nt, 0)
    check(f"{name} powerlaw alpha_se", c["alpha_se"], (alpha - 1) / math.sqrt(nt), 1e-9)
    check(f"{name} powerlaw ks_d", c["ks_d"], d, 1e-9)
    y = np.log(x[x >= xmin] / xmin)
    beta, t = truncated_lognormal_fit(y, alpha)
    l = (math.log(alpha - 1) - (alpha - 1) * y) - (-beta * y - t * t * y * y - log_norm(beta, t))
    if np.abs(l).max() < 1e-3:  # the lognormal MLE is the power law itself
        R, p = 0.0, 1.0
    else:
        R = l.sum() / (math.sqrt(len(l)) * l.std())
        p = special.erfc(abs(R) / math.sqrt(2))
    check(f"{name} vuong R", c["vs_lognormal_R"], R, 1e-4)
    check(f"{name} vuong p", c["vs_lognormal_p"], p, 1e-4)


def main():
    exe, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    subprocess.run([exe, work], check=True)
    check_concentration(work)
    check_quantiles(work)
    check_powerlaw(work, "pl")
    check_powerlaw(work, "ln")
    if failures:
        print("check_scipy: MISMATCH in " + ", ".join(failures))
        return 1
    print("check_scipy: all statistics agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
