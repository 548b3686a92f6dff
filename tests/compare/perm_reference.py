#!/usr/bin/python3
"""Independent reference for the permutation test of model/compare_perm.c:
counts the splits of a + b into groups of len(a) and len(b) whose difference
of means is at least the observed one, by dynamic programming over exact
integer sums (no floating point, no enumeration order). The counts it prints
are the known answers of test_compare_stats.c (permutation_by_hand,
permutation_drawn). Integer inputs only."""
from collections import defaultdict
from math import comb


def perm_count(a, b):
    """(splits as extreme as the observed, all splits)."""
    x = a + b
    na, nb = len(a), len(b)
    tot = sum(x)
    # |mean b' - mean a'| >= |observed|  <=>  |na (tot - sa) - nb sa| >= the same of the observed sa
    scaled = lambda sa: abs(na * (tot - sa) - nb * sa)
    obs = scaled(sum(a))
    by_size = [defaultdict(int) for _ in range(na + 1)]
    by_size[0][0] = 1
    for v in x:
        for k in range(na, 0, -1):
            for s, c in list(by_size[k - 1].items()):
                by_size[k][s + v] += c
    hit = sum(c for s, c in by_size[na].items() if scaled(s) >= obs)
    return hit, comb(na + nb, na)


if __name__ == "__main__":
    for a, b in (([1, 2, 3], [4, 5, 6]), ([1, 3], [2, 4]), ([1, 2], [3, 4, 5]),
                 ([3, 1, 4, 1, 5, 9, 2, 6], [5, 3, 5, 8, 9, 7, 9, 3]),
                 (list(range(0, 22, 2)), list(range(1, 22, 2))),
                 (list(range(0, 24, 2)), list(range(1, 24, 2)))):
        hit, total = perm_count(a, b)
        print(f"{a} vs {b}: {hit} of {total} = {hit / total:.6g}")
