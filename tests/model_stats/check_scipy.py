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
  R = 0) and lognormal data ("ln": an interior optimum);
- the discrete power law on integer data ("dpl": power-law bytes, "dln":
  lognormal bytes, "dacc": small access counts), with the C's xmin: n_tail;
  alpha maximising -n ln zeta(alpha, xmin) - alpha sum ln x (scipy's Hurwitz
  zeta, bounded minimize_scalar on (1 + 1e-6, 50]); alpha_se; and Vuong's
  test against the discrete lognormal truncated at xmin, P(x) =
  [Q(z(x - 1/2)) - Q(z(x + 1/2))] / Q(z(xmin - 1/2)), fitted by Nelder-Mead
  in (beta, t) with every P(x) computed by mpmath at 40 digits (narrow bins
  of large x would cancel in float64); the two starts run in parallel.
Exit 0 when all agree, 1 otherwise, 77 (skip) without numpy/scipy/mpmath.
"""
import csv
import math
import os
import subprocess
import sys
from concurrent import futures
from fractions import Fraction

try:
    import mpmath
    import numpy as np
    from scipy import optimize, special, stats
except ImportError:
    print("check_scipy: numpy/scipy/mpmath missing, skipping")
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


DPS = 40  # digits for the discrete lognormal: a bin of x ~ 1e8 cancels ~9


class DiscreteLognormal:
    """The discrete lognormal truncated at xmin on the unique tail values u
    (counts w): P(x) = [Q(z(x - 1/2)) - Q(z(x + 1/2))] / Q(z(xmin - 1/2)),
    z(v) = (ln v - mu) / sigma, in the coordinates (beta, t): with
    L = ln(xmin - 1/2), sigma = 1 / (sqrt 2 |t|), mu = L - beta sigma^2, so
    z(v) = sqrt2 |t| (ln v - L) + beta / (sqrt2 |t|); at t = 0 the power law
    P(x) = ((x - 1/2) / (xmin - 1/2))^-beta - ((x + 1/2) / (xmin - 1/2))^-beta."""

    def __init__(self, u, w, xmin):
        self.w = [int(k) for k in w]
        self.n = sum(self.w)
        edges = np.unique(np.concatenate([u - 0.5, u + 0.5]))  # exact: integers +- 1/2
        self.lo = np.searchsorted(edges, u - 0.5)
        self.hi = np.searchsorted(edges, u + 0.5)
        with mpmath.workdps(DPS):
            L = mpmath.log(mpmath.mpf(xmin) - mpmath.mpf(0.5))
            self.y = [mpmath.log(mpmath.mpf(float(e))) - L for e in edges]  # ln v - L >= 0

    def bins(self, beta, t):
        """(the numerators P(u_i) * Q(z(xmin - 1/2)), the ln of that
        denominator) as mpf, or None when (beta, t) is not a distribution."""
        with mpmath.workdps(DPS):
            beta, t = mpmath.mpf(beta), abs(mpmath.mpf(t))
            if t == 0:
                if beta <= 0:
                    return None
                s = [mpmath.exp(-beta * y) for y in self.y]
                return [s[a] - s[b] for a, b in zip(self.lo, self.hi)], mpmath.mpf(0)
            st = mpmath.sqrt(2) * t
            c, r = beta / st, 1 / mpmath.sqrt(2)
            z = [y * st + c for y in self.y]
            # q = Q(|z|): Q(z) for z >= 0, Phi(z) = 1 - Q(z) for z < 0, so
            # that no bin is a difference of two numbers close to 1
            q = [mpmath.erfc(abs(v) * r) / 2 for v in z]
            q0 = mpmath.erfc(abs(c) * r) / 2  # z(xmin - 1/2) = c
            d = []
            for a, b in zip(self.lo, self.hi):
                if z[a] >= 0:
                    d.append(q[a] - q[b])
                elif z[b] <= 0:
                    d.append(q[b] - q[a])
                else:
                    d.append(1 - q[a] - q[b])
            return d, mpmath.log(q0 if c >= 0 else 1 - q0)

    def ln_p(self, beta, t):
        """ln P(u_i) for every unique value (mpf), beta > 0 when t = 0."""
        d, ln_q0 = self.bins(beta, t)
        with mpmath.workdps(DPS):
            return [mpmath.log(v) - ln_q0 if v > 0 else mpmath.mpf("-inf") for v in d]

    def nll(self, p):
        b = self.bins(p[0], p[1])
        if b is None:
            return 1e300
        d, ln_q0 = b
        with mpmath.workdps(DPS):
            if min(d) <= 0:
                return 1e300
            prod = mpmath.mpf(1)  # one log of the product (mpf has no exponent limit)
            for k, v in zip(self.w, d):
                prod *= v if k == 1 else v**k
            v = float(self.n * ln_q0 - mpmath.log(prod))
        return v if math.isfinite(v) else 1e300


def _nelder_mead(u, w, xmin, start):
    r = optimize.minimize(DiscreteLognormal(u, w, xmin).nll, start, method="Nelder-Mead",
                          options={"xatol": 1e-9, "fatol": 1e-10, "maxiter": 20000, "maxfev": 20000})
    return list(r.x), float(r.fun), int(r.nfev), bool(r.success)


def discrete_lognormal_fit(u, w, xmin, starts):
    """Nelder-Mead from each start, two processes when possible (mpmath is slow)."""
    try:
        with futures.ProcessPoolExecutor(max_workers=2) as pool:
            runs = list(pool.map(_nelder_mead, *zip(*[(u, w, xmin, s) for s in starts])))
    except (OSError, NotImplementedError, futures.BrokenExecutor):
        runs = [_nelder_mead(u, w, xmin, s) for s in starts]
    return runs


def check_discrete_powerlaw(work, name):
    x = np.array(read_values(os.path.join(work, f"{name}_data.csv")))
    c = read_named(os.path.join(work, f"{name}_result.csv"))
    xmin, calpha = c["xmin"], c["alpha"]  # the xmin search is checked on the continuous sets
    tail = np.sort(x[x >= xmin])
    nt = len(tail)
    check(f"{name} dpowerlaw n_tail", c["n_tail"], nt, 0)
    slx = np.log(tail).sum()
    r = optimize.minimize_scalar(lambda a: nt * math.log(special.zeta(a, xmin)) + a * slx,
                                 bounds=(1 + 1e-6, 50), method="bounded", options={"xatol": 1e-10})
    check(f"{name} dpowerlaw alpha", calpha, float(r.x), 1e-5)
    check(f"{name} dpowerlaw alpha_se", c["alpha_se"], (calpha - 1) / math.sqrt(nt), 1e-9)
    # Vuong's test against the discrete lognormal truncated at xmin
    u, w = np.unique(tail, return_counts=True)
    lx = np.log(tail)
    sd, L = max(lx.std(), 1e-3), math.log(xmin - 0.5)
    starts = ([(L - lx.mean()) / sd**2, 1 / (math.sqrt(2) * sd)], [calpha - 1, 0.01 / sd])
    runs = discrete_lognormal_fit(u, w, xmin, starts)
    for start, (bt, fun, nfev, ok) in zip(starts, runs):
        print(f"     {name} dlognormal start ({start[0]:.6g}, {start[1]:.6g}): beta {bt[0]!r} t {bt[1]!r}"
              f" nll {fun!r} nfev {nfev}{'' if ok else ' (not converged)'}")
    (beta, t), fun, _, _ = min(runs, key=lambda run: run[1])
    print(f"     {name} dlognormal fit: beta {beta!r} t {t!r} sigma "
          f"{1 / (math.sqrt(2) * abs(t)) if t else math.inf:.6g} nll {fun!r}"
          f" ({len(u)} unique of {nt} tail values)")
    lp = DiscreteLognormal(u, w, xmin).ln_p(beta, t)
    with mpmath.workdps(DPS):
        ln_zeta = mpmath.log(mpmath.zeta(calpha, xmin))
        lu = np.array([float(-calpha * mpmath.log(v) - ln_zeta - l) for v, l in zip(u, lp)])
    l = np.repeat(lu, w)
    if np.abs(l).max() < 1e-3:  # the lognormal MLE is the power law itself
        R, p = 0.0, 1.0
    else:
        R = l.sum() / (math.sqrt(nt) * l.std())
        p = special.erfc(abs(R) / math.sqrt(2))
    print(f"     {name} max |l_i| {np.abs(l).max():.3g}")
    # tighter than the continuous sets: the fit before (mu, ln sigma) was 3.4e-5 off on dln
    check(f"{name} dvuong R", c["vs_lognormal_R"], R, 2e-6)
    check(f"{name} dvuong p", c["vs_lognormal_p"], p, 2e-6)


def main():
    exe, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    subprocess.run([exe, work], check=True)
    check_concentration(work)
    check_quantiles(work)
    check_powerlaw(work, "pl")
    check_powerlaw(work, "ln")
    for name in ("dpl", "dln", "dacc"):
        check_discrete_powerlaw(work, name)
    if failures:
        print("check_scipy: MISMATCH in " + ", ".join(failures))
        return 1
    print("check_scipy: all statistics agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
