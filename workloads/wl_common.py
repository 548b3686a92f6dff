"""Shared plumbing of the six reference workloads: arguments, seeding, the
shard reader, checkpoints written as temp file + fsync + rename, the
phase skeleton data_prep -> model_load -> train -> eval, and the train and
eval loops of the five supervised workloads."""

import argparse
import os
import struct
import sys
import time

import numpy as np
import torch

import niorep_hook

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "datasets"))
import gen_data  # noqa: E402  (datasets/gen_data.py)

SHARD_HEADER = gen_data.SHARD_HEADER


def parse_args(name, epochs=2, **extra):
    ap = argparse.ArgumentParser(description="niorep reference workload: " + name)
    ap.add_argument("--data", default=os.path.join(REPO, "datasets", "data", name),
                    help="data set folder (generated when missing)")
    ap.add_argument("--work", default=os.path.join(REPO, "datasets", "work", name),
                    help="folder for base weights, preprocessed data and checkpoints")
    ap.add_argument("--epochs", type=int, default=epochs)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--init-only", action="store_true",
                    help="generate data and base weights, then stop (untraced setup)")
    for key, value in extra.items():
        ap.add_argument("--" + key.replace("_", "-"), type=type(value), default=value)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    return a


def seed_all(seed):
    torch.manual_seed(seed)
    np.random.seed(seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True, warn_only=True)


def ensure_data(name, data_dir, seed):
    gen_data.generate(name, data_dir, seed)


def list_files(folder, suffix):
    """Sorted paths of files under folder ending with suffix (a dataset scan)."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        found.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(suffix))
    return found


class ShardIndex:
    """Row addressing over NRS1 shards (datasets/gen_data.py): global row i ->
    (file, byte offset). Reads one row with open + seek + read, unbuffered,
    so the syscall trace shows the real request sizes."""

    def __init__(self, paths):
        self.paths, self.starts, self.row_bytes = [], [], None
        total = 0
        for p in paths:
            with open(p, "rb", buffering=0) as f:
                magic, row_bytes, rows = SHARD_HEADER.unpack(f.read(SHARD_HEADER.size))
            if magic != gen_data.SHARD_MAGIC:
                raise ValueError("%s: not a shard" % p)
            self.row_bytes = row_bytes
            self.paths.append(p)
            self.starts.append(total)
            total += rows
        self.rows = total

    def read_rows(self, i, count=1):
        k = int(np.searchsorted(self.starts, i, side="right")) - 1
        with open(self.paths[k], "rb", buffering=0) as f:
            f.seek(SHARD_HEADER.size + (i - self.starts[k]) * self.row_bytes)
            return f.read(self.row_bytes * count)


def fsync_dir(path):
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def save_checkpoint(obj, path):
    """torch.save into a temp file beside path, fsync, rename, fsync the folder."""
    with niorep_hook.phase("checkpoint"):
        tmp = path + ".tmp"
        torch.save(obj, tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(tmp, path)
        fsync_dir(path)


def base_weights(model_fn, path, seed):
    """The pretrained starting point: created once (seeded), then loaded."""
    if not os.path.exists(path):
        torch.manual_seed(seed)
        save_checkpoint(model_fn().state_dict(), path)


def load_model(model_fn, path):
    model = model_fn()
    model.load_state_dict(torch.load(path))
    return model


def loader(dataset, batch_size, workers, shuffle, seed, **kw):
    g = torch.Generator()
    g.manual_seed(seed)
    return torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=shuffle,
                                       num_workers=workers, generator=g, **kw)


def train_epochs(model, opt, data, a, step_loss, epoch_loss="last"):
    """The supervised train loop: a.epochs passes over data, each of at most
    a.steps batches (step_loss(batch) -> loss tensor; zero_grad, backward,
    step), then an "epoch" mark and the checkpoint work/ckpt_<epoch>.pt.
    The mark's loss is the last batch's ("last") or the running total over
    max(last step index, 1) ("mean"), as the workloads first reported it."""
    for epoch in range(a.epochs):
        total = 0.0
        for step, batch in enumerate(niorep_hook.batches(data)):
            if step >= a.steps:
                break
            loss = step_loss(batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if epoch_loss == "mean":
                total += loss.item()
        mark_loss = total / max(step, 1) if epoch_loss == "mean" else loss.item()
        niorep_hook.mark("epoch", n=epoch, loss=mark_loss)
        save_checkpoint({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": epoch},
                        os.path.join(a.work, "ckpt_%d.pt" % epoch))


def evaluate(model, data, batch_result, max_batches=None):
    """Eval mode, no gradients: batch_result(batch) for each batch of data
    (the first max_batches only, when given), in order."""
    model.eval()
    results = []
    with torch.no_grad():
        for step, batch in enumerate(niorep_hook.batches(data)):
            if max_batches is not None and step >= max_batches:
                break
            results.append(batch_result(batch))
    return results


def accuracy(model, data, predict, max_batches=None):
    """Share of labels y that predict(x) hits over the (x, y) batches of data."""
    def hits(batch):
        x, y = batch
        return (predict(x) == y).sum().item(), len(y)
    counts = evaluate(model, data, hits, max_batches)
    correct = sum(c for c, _ in counts)
    seen = sum(n for _, n in counts)
    return correct / max(seen, 1)


def report(name, **numbers):
    text = " ".join("%s=%s" % (k, ("%.4f" % v) if isinstance(v, float) else v) for k, v in numbers.items())
    print("%s: %s" % (name, text), flush=True)


class Stopwatch:
    def __init__(self):
        self.t0 = time.time()

    def seconds(self):
        return time.time() - self.t0
