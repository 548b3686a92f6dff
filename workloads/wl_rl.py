#!/usr/bin/env python3
"""Reference workload 6: a DQN-style agent (Mnih et al. 2015: replay buffer,
target network) in its own small environment (a grid with walls and a
goal). The replay buffer lives on disk, one shard per episode (episode
lengths are heavy-tailed), and is read back by DataLoader workers; policy
checkpoints are written after every epoch."""

import os

import numpy as np
import torch
import torch.nn as nn

import niorep_hook
import wl_common as wl

NAME = "rl"
N = 8
MOVES = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]])
ROW = np.dtype([("s", "<i4"), ("a", "<i4"), ("r", "<f4"), ("s2", "<i4"), ("done", "<f4")])


class GridWorld:
    """Start top-left, goal bottom-right; walls block; -0.01 per step, +1 at the goal."""

    def __init__(self, grid, rng, max_steps=60):
        self.grid, self.rng, self.max_steps = grid, rng, max_steps

    def reset(self):
        self.pos, self.steps = np.array([0, 0]), 0
        return 0

    def step(self, action):
        nxt = np.clip(self.pos + MOVES[action], 0, N - 1)
        if self.grid[nxt[0], nxt[1]] == 0:
            self.pos = nxt
        self.steps += 1
        at_goal = bool(self.pos[0] == N - 1 and self.pos[1] == N - 1)
        return int(self.pos[0] * N + self.pos[1]), (1.0 if at_goal else -0.01), at_goal or self.steps >= self.max_steps


def qnet():
    return nn.Sequential(nn.Linear(N * N, 64), nn.ReLU(), nn.Linear(64, 4))


def one_hot(states):
    return torch.nn.functional.one_hot(torch.as_tensor(states, dtype=torch.long), N * N).float()


def play(env, model, epsilon, rng):
    """One episode; returns its transitions and whether it reached the goal."""
    rows, s, done = [], env.reset(), False
    while not done:
        if rng.random() < epsilon:
            a = int(rng.integers(0, 4))
        else:
            with torch.no_grad():
                a = int(model(one_hot([s])).argmax(1))
        s2, r, done = env.step(a)
        rows.append((s, a, r, s2, float(done)))
        s = s2
    return np.array(rows, dtype=ROW), rows[-1][2] > 0


def write_episode(folder, k, rows):
    wl.gen_data.write_shard(os.path.join(folder, "episode_%05d.nrs" % k), rows.view(np.uint8).reshape(len(rows), -1))


class Replay(torch.utils.data.Dataset):
    def __init__(self, folder):
        self.index = wl.ShardIndex(wl.list_files(folder, ".nrs"))

    def __len__(self):
        return self.index.rows

    def __getitem__(self, i):
        r = np.frombuffer(self.index.read_rows(i), dtype=ROW)[0]
        return int(r["s"]), int(r["a"]), float(r["r"]), int(r["s2"]), float(r["done"])


def main():
    a = wl.parse_args(NAME, epochs=3, steps=30)
    wl.seed_all(a.seed)
    rng = np.random.default_rng(a.seed)
    replay = os.path.join(a.work, "replay")
    with niorep_hook.phase("data_prep"):
        wl.ensure_data(NAME, a.data, a.seed)
        with open(os.path.join(a.data, "env_grid.bin"), "rb") as f:
            grid = np.frombuffer(f.read(), dtype=np.uint8).reshape(N, N)
        env = GridWorld(grid, rng)
        os.makedirs(replay, exist_ok=True)
        for old in wl.list_files(replay, ".nrs"):
            os.unlink(old)
        episodes = 0
        for _ in range(40):  # warm-up experience of a random policy
            rows, _ = play(env, None, 1.0, rng)
            write_episode(replay, episodes, rows)
            episodes += 1
    base = os.path.join(a.work, "base.pt")
    wl.base_weights(qnet, base, a.seed)
    if a.init_only:
        return 0
    with niorep_hook.phase("model_load"):
        model = wl.load_model(qnet, base)
        target = wl.load_model(qnet, base)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with niorep_hook.phase("train"):
        for epoch in range(a.epochs):
            data = wl.loader(Replay(replay), 64, a.workers, True, a.seed + epoch)
            for step, (s, act, r, s2, done) in enumerate(niorep_hook.batches(data)):
                if step >= a.steps:
                    break
                with torch.no_grad():
                    y = r.float() + 0.95 * (1 - done.float()) * target(one_hot(s2)).max(1).values
                q = model(one_hot(s)).gather(1, act[:, None]).squeeze(1)
                loss = nn.functional.smooth_l1_loss(q, y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            target.load_state_dict(model.state_dict())
            for _ in range(10):  # fresh experience of the current policy
                rows, _ = play(env, model, 0.3, rng)
                write_episode(replay, episodes, rows)
                episodes += 1
            niorep_hook.mark("epoch", n=epoch, loss=loss.item(), episodes=episodes)
            wl.save_checkpoint({"policy": model.state_dict(), "epoch": epoch},
                               os.path.join(a.work, "policy_%d.pt" % epoch))
    with niorep_hook.phase("eval"):
        wins = sum(play(env, model, 0.05, rng)[1] for _ in range(20))
    wl.report(NAME, success=wins / 20.0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
