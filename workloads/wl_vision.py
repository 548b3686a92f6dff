#!/usr/bin/env python3
"""Reference workload 2: a small vision transformer trained on image files
(PPM, heavy-tailed sizes), one file per sample. Its DataLoader workers are
started with the spawn method (persistent), the other workloads fork."""

import json
import os

import numpy as np
import torch
import torch.nn as nn

import niorep_hook
import wl_common as wl

NAME = "vision"
SIDE, PATCH = 16, 4


def read_ppm(path):
    """A binary PPM (P6) as an HxWx3 uint8 array."""
    with open(path, "rb") as f:
        data = f.read()
    magic, w, h, maxval = data[:32].split()[:4]
    if magic != b"P6" or maxval != b"255":
        raise ValueError("%s: not an 8-bit P6 image" % path)
    pixels = int(w) * int(h) * 3
    return np.frombuffer(data[len(data) - pixels:], dtype=np.uint8).reshape(int(h), int(w), 3)


class ImageFiles(torch.utils.data.Dataset):
    def __init__(self, index_path):
        with open(index_path) as f:
            self.items = json.load(f)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        path, label = self.items[i]["path"], self.items[i]["label"]
        img = read_ppm(path)
        ys = np.arange(SIDE) * img.shape[0] // SIDE
        xs = np.arange(SIDE) * img.shape[1] // SIDE
        small = img[ys][:, xs].astype(np.float32) / 127.5 - 1.0
        return torch.from_numpy(small.transpose(2, 0, 1).copy()), label


class TinyViT(nn.Module):
    def __init__(self, d=32, layers=2, heads=4, classes=10):
        super().__init__()
        n = (SIDE // PATCH) ** 2
        self.patch = nn.Conv2d(3, d, PATCH, PATCH)
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.zeros(1, n + 1, d))
        block = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(block, layers)
        self.head = nn.Linear(d, classes)

    def forward(self, x):
        h = self.patch(x).flatten(2).transpose(1, 2)
        h = torch.cat([self.cls.expand(x.shape[0], -1, -1), h], 1) + self.pos
        return self.head(self.blocks(h)[:, 0])


def build_index(src, dst):
    """Scans the image folder, reads each header for the image size, and
    writes the sample index (path, label, size) as JSON."""
    items = []
    for p in wl.list_files(src, ".ppm"):
        with open(p, "rb") as f:
            head = f.read(32).split()
        items.append({"path": p, "label": int(os.path.basename(os.path.dirname(p))),
                      "width": int(head[1]), "height": int(head[2])})
    tmp = dst + ".tmp"
    with open(tmp, "w") as f:
        json.dump(items, f)
    os.replace(tmp, dst)
    return dst


def main():
    a = wl.parse_args(NAME, steps=20)
    wl.seed_all(a.seed)
    with niorep_hook.phase("data_prep"):
        wl.ensure_data(NAME, a.data, a.seed)
        train_index = build_index(os.path.join(a.data, "train"), os.path.join(a.work, "train_index.json"))
        test_index = build_index(os.path.join(a.data, "test"), os.path.join(a.work, "test_index.json"))
    base = os.path.join(a.work, "base.pt")
    wl.base_weights(TinyViT, base, a.seed)
    if a.init_only:
        return 0
    with niorep_hook.phase("model_load"):
        model = wl.load_model(TinyViT, base)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    loss_fn = nn.CrossEntropyLoss()
    spawn = dict(multiprocessing_context="spawn", persistent_workers=True) if a.workers else {}
    with niorep_hook.phase("train"):
        data = wl.loader(ImageFiles(train_index), 16, a.workers, True, a.seed, **spawn)
        wl.train_epochs(model, opt, data, a, lambda b: loss_fn(model(b[0]), b[1]))
    with niorep_hook.phase("eval"):
        test_data = wl.loader(ImageFiles(test_index), 20, a.workers, False, a.seed)
        acc = wl.accuracy(model, test_data, lambda x: model(x).argmax(1))
    wl.report(NAME, accuracy=acc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
