#!/usr/bin/env python3
"""Reference workload 4: a spiking neural network of leaky integrate-and-
fire neurons trained with a surrogate gradient (fast sigmoid, Zenke &
Ganguli 2018) on event streams, one small file per sample (event counts
heavy-tailed)."""

import json
import os

import numpy as np
import torch
import torch.nn as nn

import niorep_hook
import wl_common as wl

NAME = "snn"
STEPS, CHANNELS, CLASSES = 20, 64, 4
EVENT = np.dtype([("t", "<u2"), ("ch", "u1"), ("pol", "u1")])


class SpikeFn(torch.autograd.Function):
    """Heaviside forward; derivative of the fast sigmoid backward."""

    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad):
        (v,) = ctx.saved_tensors
        return grad / (10.0 * v.abs() + 1.0) ** 2


class LIFNet(nn.Module):
    def __init__(self, hidden=64, beta=0.9):
        super().__init__()
        self.fc1, self.fc2, self.beta = nn.Linear(CHANNELS, hidden), nn.Linear(hidden, CLASSES), beta

    def forward(self, frames):  # frames: batch x STEPS x CHANNELS
        v1 = torch.zeros(frames.shape[0], self.fc1.out_features)
        v2 = torch.zeros(frames.shape[0], CLASSES)
        counts = torch.zeros(frames.shape[0], CLASSES)
        for t in range(frames.shape[1]):
            v1 = self.beta * v1 + self.fc1(frames[:, t])
            s1 = SpikeFn.apply(v1 - 1.0)
            v1 = v1 - s1  # soft reset
            v2 = self.beta * v2 + self.fc2(s1)
            s2 = SpikeFn.apply(v2 - 1.0)
            v2 = v2 - s2
            counts = counts + s2 + 0.1 * v2
        return counts


class EventFiles(torch.utils.data.Dataset):
    def __init__(self, index_path):
        with open(index_path) as f:
            self.items = json.load(f)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        path, label = self.items[i]
        with open(path, "rb") as f:
            ev = np.frombuffer(f.read(), dtype=EVENT)
        frames = np.zeros((STEPS, CHANNELS), dtype=np.float32)
        np.add.at(frames, (ev["t"].astype(np.int64) * STEPS // 1000, ev["ch"]), 1.0)
        return torch.from_numpy(np.log1p(frames)), label


def build_index(src, dst):
    items = []
    for p in wl.list_files(src, ".ev"):
        if os.stat(p).st_size:
            items.append([p, int(p[-4])])  # ..._c<label>.ev
    with open(dst, "w") as f:
        json.dump(items, f)
    return dst


def main():
    a = wl.parse_args(NAME, steps=20)
    wl.seed_all(a.seed)
    with niorep_hook.phase("data_prep"):
        wl.ensure_data(NAME, a.data, a.seed)
        train = build_index(os.path.join(a.data, "train"), os.path.join(a.work, "train.json"))
        test = build_index(os.path.join(a.data, "test"), os.path.join(a.work, "test.json"))
    base = os.path.join(a.work, "base.pt")
    wl.base_weights(LIFNet, base, a.seed)
    if a.init_only:
        return 0
    with niorep_hook.phase("model_load"):
        model = wl.load_model(LIFNet, base)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    loss_fn = nn.CrossEntropyLoss()
    with niorep_hook.phase("train"):
        data = wl.loader(EventFiles(train), 16, a.workers, True, a.seed)
        wl.train_epochs(model, opt, data, a, lambda b: loss_fn(model(b[0]), b[1]))
    with niorep_hook.phase("eval"):
        test_data = wl.loader(EventFiles(test), 20, a.workers, False, a.seed)
        acc = wl.accuracy(model, test_data, lambda x: model(x).argmax(1))
    wl.report(NAME, accuracy=acc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
