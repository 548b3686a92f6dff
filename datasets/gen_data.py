#!/usr/bin/env python3
"""Seeded, deterministic generators of the reference workloads' training
data (numpy only). File sizes are heavy-tailed on purpose, as in real
corpora: a few large shards or files, many small ones (Pareto-distributed
sizes, see pareto_sizes).

    python3 datasets/gen_data.py WORKLOAD OUT_DIR [--seed N]

WORKLOAD: language, vision, diffusion, snn, mlp, rl, all (OUT_DIR/<name>).
Writing is idempotent: OUT_DIR/<name>/.complete marks a finished set.
"""

import argparse
import os
import struct
import sys

import numpy as np

SHARD_MAGIC = b"NRS1"
SHARD_HEADER = struct.Struct("<4sIQ")  # magic, row bytes, row count


def pareto_sizes(rng, n, xmin, alpha, cap):
    """n integer sizes from a Pareto(alpha) tail starting at xmin, capped:
    most are near xmin, a few are orders of magnitude larger."""
    u = rng.random(n)
    sizes = xmin / np.power(1.0 - u, 1.0 / alpha)
    return np.minimum(sizes, cap).astype(np.int64)


def write_file(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def write_shard(path, rows):
    """A shard: 16-byte header then fixed-size rows (rows: 2-D uint8 view)."""
    rows = np.ascontiguousarray(rows)
    raw = rows.view(np.uint8).reshape(rows.shape[0], -1)
    header = SHARD_HEADER.pack(SHARD_MAGIC, raw.shape[1], raw.shape[0])
    write_file(path, header + raw.tobytes())


def gen_language(out, rng):
    """Raw text documents from a Zipf vocabulary; document lengths heavy-tailed."""
    vocab = ["".join(chr(97 + c) for c in rng.integers(0, 26, rng.integers(2, 9))) for _ in range(600)]
    weights = 1.0 / np.arange(1, len(vocab) + 1)
    weights /= weights.sum()
    for split, n in (("train", 48), ("test", 6)):
        for i, words in enumerate(pareto_sizes(rng, n, 400, 1.1, 120000)):
            idx = rng.choice(len(vocab), size=int(words), p=weights)
            text = " ".join(vocab[j] for j in idx)
            write_file(os.path.join(out, split, "doc_%04d.txt" % i), text.encode())


def gen_vision(out, rng):
    """PPM images of 10 classes (a coloured square whose colour and place
    give the class, plus noise); image sides heavy-tailed from 16 to 256."""
    for split, n in (("train", 240), ("test", 40)):
        sides = np.clip(pareto_sizes(rng, n, 16, 1.3, 256), 16, 256)
        for i, side in enumerate(sides):
            label = int(rng.integers(0, 10))
            img = rng.integers(0, 60, size=(side, side, 3), dtype=np.uint8)
            s = max(side // 3, 2)
            y, x = (label // 5) * (side - s), (label % 5) * (side - s) // 4
            img[y:y + s, x:x + s, label % 3] = 220
            img[y:y + s, x:x + s, (label + 1) % 3] = 40 + 18 * label
            header = b"P6\n%d %d\n255\n" % (side, side)
            write_file(os.path.join(out, split, "%d" % label, "img_%05d.ppm" % i), header + img.tobytes())


def gen_diffusion(out, rng):
    """16x16 grey images of blobs in shards with heavy-tailed row counts."""
    yy, xx = np.mgrid[0:16, 0:16]
    for split, n in (("train", 14), ("test", 2)):
        for i, rows in enumerate(pareto_sizes(rng, n, 24, 1.0, 1200)):
            imgs = np.zeros((rows, 16, 16), dtype=np.float32)
            for r in range(rows):
                cy, cx, w = rng.uniform(4, 12), rng.uniform(4, 12), rng.uniform(1.5, 4)
                imgs[r] = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * w * w)) * 2 - 1
            write_shard(os.path.join(out, split, "shard_%03d.nrs" % i), imgs.reshape(rows, -1))


def gen_snn(out, rng):
    """Event-camera-like samples: (time, channel, polarity) events, one small
    file each; the event count per sample is heavy-tailed. Class = which
    channel band fires most."""
    for split, n in (("train", 360), ("test", 60)):
        counts = pareto_sizes(rng, n, 40, 1.2, 20000)
        for i, count in enumerate(counts):
            label = int(rng.integers(0, 4))
            t = np.sort(rng.integers(0, 1000, count)).astype(np.uint16)
            band = rng.random(count) < 0.6
            ch = np.where(band, rng.integers(label * 16, label * 16 + 16, count), rng.integers(0, 64, count))
            ev = np.zeros(count, dtype=[("t", "<u2"), ("ch", "u1"), ("pol", "u1")])
            ev["t"], ev["ch"], ev["pol"] = t, ch.astype(np.uint8), rng.integers(0, 2, count)
            write_file(os.path.join(out, split, "s%05d_c%d.ev" % (i, label)), ev.tobytes())


def gen_mlp(out, rng):
    """Tabular rows (32 float32 features + label) in shards with
    heavy-tailed row counts; the label is a noisy linear rule."""
    w = rng.normal(size=32).astype(np.float32)
    for split, n in (("train", 12), ("test", 2)):
        for i, rows in enumerate(pareto_sizes(rng, n, 200, 1.0, 12000)):
            x = rng.normal(size=(rows, 32)).astype(np.float32)
            y = ((x @ w + 0.3 * rng.normal(size=rows)) > 0).astype(np.float32)
            write_shard(os.path.join(out, split, "shard_%03d.nrs" % i), np.concatenate([x, y[:, None]], axis=1))


def gen_rl(out, rng):
    """The RL workload makes its own experience; its data set is the
    environment's layout (a grid with walls and a goal)."""
    grid = (rng.random((8, 8)) < 0.15).astype(np.uint8)
    grid[0, 0] = grid[7, 7] = 0
    write_file(os.path.join(out, "env_grid.bin"), grid.tobytes())


GENERATORS = {"language": gen_language, "vision": gen_vision, "diffusion": gen_diffusion,
              "snn": gen_snn, "mlp": gen_mlp, "rl": gen_rl}


def generate(name, out, seed=1234):
    """Writes the data set of workload name into out (if not complete yet)."""
    marker = os.path.join(out, ".complete")
    if os.path.exists(marker):
        return
    # One stream per workload, so that adding a workload changes no other set.
    rng = np.random.default_rng([seed, sorted(GENERATORS).index(name)])
    GENERATORS[name](out, rng)
    write_file(marker, b"")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workload", choices=sorted(GENERATORS) + ["all"])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1234)
    a = ap.parse_args(argv)
    names = sorted(GENERATORS) if a.workload == "all" else [a.workload]
    for name in names:
        generate(name, os.path.join(a.out, name) if a.workload == "all" else a.out, a.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
