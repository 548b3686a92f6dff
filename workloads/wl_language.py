#!/usr/bin/env python3
"""Reference workload 1: a small causal language transformer trained on
token shards (character tokens of generated text, datasets/gen_data.py)."""

import os

import numpy as np
import torch
import torch.nn as nn

import niorep_hook
import wl_common as wl

NAME = "language"
CONTEXT = 32
VOCAB = 128


class TokenRows(torch.utils.data.Dataset):
    """One row = CONTEXT+1 uint16 tokens, read from the shard on disk."""

    def __init__(self, paths):
        self.index = wl.ShardIndex(paths)

    def __len__(self):
        return self.index.rows

    def __getitem__(self, i):
        row = np.frombuffer(self.index.read_rows(i), dtype=np.uint16).astype(np.int64)
        return torch.from_numpy(row[:-1]), torch.from_numpy(row[1:])


class TinyGPT(nn.Module):
    def __init__(self, d=32, layers=2, heads=4):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, d)
        self.pos = nn.Parameter(torch.zeros(CONTEXT, d))
        block = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(block, layers)
        self.head = nn.Linear(d, VOCAB)
        self.register_buffer("mask", torch.triu(torch.full((CONTEXT, CONTEXT), float("-inf")), 1))

    def forward(self, x):
        h = self.embed(x) + self.pos[: x.shape[1]]
        return self.head(self.blocks(h, mask=self.mask[: x.shape[1], : x.shape[1]]))


def tokenize(src_dir, dst_dir, docs_per_shard):
    """Text files -> shards of (CONTEXT+1)-token rows; the first shard takes
    many documents, later ones few: a few large shards, several small."""
    os.makedirs(dst_dir, exist_ok=True)
    docs = wl.list_files(src_dir, ".txt")
    shards, k = [], 0
    for s, n in enumerate(docs_per_shard):
        group = docs[k:k + n]
        k += n
        if not group:
            break
        toks = []
        for p in group:
            with open(p, "rb") as f:
                toks.append(np.frombuffer(f.read(), dtype=np.uint8) % VOCAB)
        flat = np.concatenate(toks).astype(np.uint16)
        rows = len(flat) // (CONTEXT + 1)
        path = os.path.join(dst_dir, "tokens_%03d.nrs" % s)
        gen_data.write_shard(path, flat[: rows * (CONTEXT + 1)].reshape(rows, CONTEXT + 1))
        shards.append(path)
    return shards


gen_data = wl.gen_data


def main():
    a = wl.parse_args(NAME, steps=30)
    wl.seed_all(a.seed)
    with niorep_hook.phase("data_prep"):
        wl.ensure_data(NAME, a.data, a.seed)
        train_shards = tokenize(os.path.join(a.data, "train"), os.path.join(a.work, "tokens", "train"),
                                [24, 12, 6, 3, 2, 1])
        test_shards = tokenize(os.path.join(a.data, "test"), os.path.join(a.work, "tokens", "test"), [6])
    base = os.path.join(a.work, "base.pt")
    wl.base_weights(TinyGPT, base, a.seed)
    if a.init_only:
        return 0
    with niorep_hook.phase("model_load"):
        model = wl.load_model(TinyGPT, base)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()

    def batch_loss(batch):
        x, y = batch
        return loss_fn(model(x).reshape(-1, VOCAB), y.reshape(-1))

    with niorep_hook.phase("train"):
        data = wl.loader(TokenRows(train_shards), 16, a.workers, True, a.seed)
        wl.train_epochs(model, opt, data, a, batch_loss, epoch_loss="mean")
    with niorep_hook.phase("eval"):
        test_data = wl.loader(TokenRows(test_shards), 64, a.workers, False, a.seed)
        losses = wl.evaluate(model, test_data, lambda b: batch_loss(b).item(), max_batches=8)
    wl.report(NAME, eval_loss=float(np.mean(losses)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
