#!/usr/bin/env python3
"""Reference workload 5: a plain ANN (MLP) on tabular rows stored in shards
of heavy-tailed sizes; DataLoader workers read rows with seek + read."""

import os

import numpy as np
import torch
import torch.nn as nn

import niorep_hook
import wl_common as wl

NAME = "mlp"
FEATURES = 32


class TableRows(torch.utils.data.Dataset):
    def __init__(self, paths, mean, std):
        self.index, self.mean, self.std = wl.ShardIndex(paths), mean, std

    def __len__(self):
        return self.index.rows

    def __getitem__(self, i):
        row = np.frombuffer(self.index.read_rows(i), dtype=np.float32)
        return torch.from_numpy((row[:FEATURES] - self.mean) / self.std), torch.tensor(row[FEATURES])


def mlp():
    return nn.Sequential(nn.Linear(FEATURES, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))


def feature_stats(paths, out):
    """Per-feature mean and std over all training rows, saved for serving."""
    rows = [np.fromfile(p, dtype=np.float32, offset=16).reshape(-1, FEATURES + 1)[:, :FEATURES] for p in paths]
    x = np.concatenate(rows)
    mean, std = x.mean(0), x.std(0) + 1e-6
    np.save(out, np.stack([mean, std]))
    return mean.astype(np.float32), std.astype(np.float32)


def main():
    a = wl.parse_args(NAME, steps=40)
    wl.seed_all(a.seed)
    with niorep_hook.phase("data_prep"):
        wl.ensure_data(NAME, a.data, a.seed)
        train = wl.list_files(os.path.join(a.data, "train"), ".nrs")
        test = wl.list_files(os.path.join(a.data, "test"), ".nrs")
        mean, std = feature_stats(train, os.path.join(a.work, "feature_stats.npy"))
    base = os.path.join(a.work, "base.pt")
    wl.base_weights(mlp, base, a.seed)
    if a.init_only:
        return 0
    with niorep_hook.phase("model_load"):
        model = wl.load_model(mlp, base)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    with niorep_hook.phase("train"):
        data = wl.loader(TableRows(train, mean, std), 64, a.workers, True, a.seed)
        wl.train_epochs(model, opt, data, a, lambda b: loss_fn(model(b[0]).squeeze(1), b[1]))
    with niorep_hook.phase("eval"):
        test_data = wl.loader(TableRows(test, mean, std), 128, a.workers, False, a.seed)
        acc = wl.accuracy(model, test_data, lambda x: (model(x).squeeze(1) > 0).float(), max_batches=8)
    wl.report(NAME, accuracy=acc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
