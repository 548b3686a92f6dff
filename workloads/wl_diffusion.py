#!/usr/bin/env python3
"""Reference workload 3: a denoising diffusion model (DDPM: linear beta
schedule, epsilon prediction, Ho et al. 2020) with a small U-Net, trained
on 16x16 images stored in shards of heavy-tailed sizes."""

import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import niorep_hook
import wl_common as wl

NAME = "diffusion"
T = 100
BETAS = torch.linspace(1e-4, 0.02, T)
ALPHA_BAR = torch.cumprod(1.0 - BETAS, 0)


class ImageRows(torch.utils.data.Dataset):
    def __init__(self, paths):
        self.index = wl.ShardIndex(paths)

    def __len__(self):
        return self.index.rows

    def __getitem__(self, i):
        return torch.from_numpy(np.frombuffer(self.index.read_rows(i), dtype=np.float32).reshape(1, 16, 16).copy())


class Block(nn.Module):
    def __init__(self, cin, cout, temb):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.c2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.t = nn.Linear(temb, cout)

    def forward(self, x, e):
        h = F.silu(self.c1(x)) + self.t(e)[:, :, None, None]
        return F.silu(self.c2(h))


class TinyUNet(nn.Module):
    def __init__(self, c=16, temb=32):
        super().__init__()
        self.temb = nn.Sequential(nn.Linear(1, temb), nn.SiLU(), nn.Linear(temb, temb))
        self.down1, self.down2 = Block(1, c, temb), Block(c, 2 * c, temb)
        self.up1, self.out = Block(3 * c, c, temb), nn.Conv2d(c, 1, 1)

    def forward(self, x, t):
        e = self.temb(t.float()[:, None] / T)
        h1 = self.down1(x, e)
        h2 = self.down2(F.avg_pool2d(h1, 2), e)
        u = F.interpolate(h2, scale_factor=2.0, mode="nearest")
        return self.out(self.up1(torch.cat([u, h1], 1), e))


def diffusion_loss(model, x0):
    t = torch.randint(0, T, (x0.shape[0],))
    noise = torch.randn_like(x0)
    ab = ALPHA_BAR[t][:, None, None, None]
    return F.mse_loss(model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t), noise)


@torch.no_grad()
def sample(model, n):
    """Ancestral DDPM sampling (Ho et al. 2020, Algorithm 2)."""
    x = torch.randn(n, 1, 16, 16)
    for t in reversed(range(T)):
        tt = torch.full((n,), t)
        eps = model(x, tt)
        a, ab = 1.0 - BETAS[t], ALPHA_BAR[t]
        x = (x - (1 - a) / (1 - ab).sqrt() * eps) / a.sqrt()
        if t:
            x = x + BETAS[t].sqrt() * torch.randn_like(x)
    return x


def main():
    a = wl.parse_args(NAME, steps=30)
    wl.seed_all(a.seed)
    with niorep_hook.phase("data_prep"):
        wl.ensure_data(NAME, a.data, a.seed)
        train = wl.list_files(os.path.join(a.data, "train"), ".nrs")
        test = wl.list_files(os.path.join(a.data, "test"), ".nrs")
        # Data statistics pass over every shard (as real pipelines normalise).
        stats = [np.fromfile(p, dtype=np.float32, offset=16).mean() for p in train]
        np.save(os.path.join(a.work, "pixel_mean.npy"), np.array(stats, dtype=np.float32))
    base = os.path.join(a.work, "base.pt")
    wl.base_weights(TinyUNet, base, a.seed)
    if a.init_only:
        return 0
    with niorep_hook.phase("model_load"):
        model = wl.load_model(TinyUNet, base)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    with niorep_hook.phase("train"):
        data = wl.loader(ImageRows(train), 32, a.workers, True, a.seed)
        wl.train_epochs(model, opt, data, a, lambda x0: diffusion_loss(model, x0))
    with niorep_hook.phase("eval"):
        test_data = wl.loader(ImageRows(test), 64, a.workers, False, a.seed)
        losses = wl.evaluate(model, test_data, lambda x0: diffusion_loss(model, x0).item())
        np.save(os.path.join(a.work, "samples.npy"), sample(model, 8).numpy())
    wl.report(NAME, eval_loss=float(np.mean(losses)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
