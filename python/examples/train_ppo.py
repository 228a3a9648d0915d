#!/usr/bin/env python3
"""A CleanRL-style PPO over `VectorEnv`, in numpy alone, that learns to beat the built-in `random`
bot, then plays 100 evaluation matches against it and plots its learning curve.

    python python/examples/train_ppo.py --game td-duel --minutes 10
    python python/examples/train_ppo.py --game cf-skirmish --minutes 10 --plot docs/learning-cf.png

Why numpy and not torch: PyPI's Linux `torch` is the CUDA build (about 3 GB of wheels with its
nvidia-* packages; PyPI has no CPU-only torch), too much for an example. The network is small
(two tanh layers of 64, a policy head and a value head on them), so its
forward and backward passes are written out here, with Adam. `pip install pocket-arena[train]`
adds matplotlib for the plot.

What it does, as CleanRL's `ppo.py`: `--envs` matches at once (Python's seat `player_0` against
the built-in `random`), rollouts of `--envs x --steps` decisions, GAE (gamma, lambda), clipped
surrogate, value loss, entropy bonus, `--epochs` passes over `--minibatches` minibatches, the
learning rate annealed over the time budget. Actions are indices into the game's list, sampled
from the policy's logits with the illegal ones masked out (`infos["action_mask"]`). Two changes
for these games: a step whose mask leaves a single action (a ColorFight player busy with its
attack, a Tower Defense player who cannot pay for anything) is played without the network and is
no sample, its reward going, discounted, to the seat's last decision (a semi-Markov step); and
the actions the list has at every position (Tower Defense's build, upgrade and destroy at each
space, ColorFight's attack and build at each cell) take their logits from one small network
shared by the positions, reading a position and its neighbours (as CleanRL's `ppo_gridnet.py`
for Gym-MicroRTS), the others and the value from the network over the whole observation
(`--plain`: that one for everything). Observations are squashed with `sign(x) * log1p(|x|)`.
The rewards are the environments' defaults (`reward="teach"`, docs/python.md "Rewards").

For the per-position network, off unless given (docs/python.md, "Training", says what they did
for Tower Defense Duel): `--kind-prior` counts each kind of per-position action (a build of a
kind, an upgrade, a destroy; an attack, a base) as one prior weight, its logits less the log of
how many of that kind are legal, so that a destroy per tower does not outweigh the pass; then the
most likely action (`--eval-greedy`) is the likeliest kind's likeliest position. `--ent-kind`
takes the same log counts from the entropy bonus (no pull towards the kinds with many actions);
`--pool-value` adds to the value a sum over the positions of a linear read of their features;
`--critic` gives the value a network of its own. Each log row has each kind's share of the
decisions and its mean advantage.

The parameters evaluated at the end are those under which the last `--best-window` training
matches (100) had the best win rate, not the last ones: the policy's win rate moves by tens of
points between updates. `--ent-final` anneals the entropy coefficient (linearly, as the learning
rate) towards it over the budget.

`--select-greedy N` keeps instead the parameters that won the most of N selection matches played
with the most likely action (the play `--eval-greedy` evaluates), every `--select-every` updates,
on the seeds of `--select-seed` (refused if they meet the training's or the evaluation's); ties
go to the later parameters, and the selection's time counts inside `--minutes`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

# One BLAS thread: the matrices are small, and on a shared machine BLAS's worker threads waiting
# for each other cost more wall time than they save (measured: 3x slower with them here).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from pocket_arena.vector import VectorEnv  # noqa: E402

GAMES = {
    "td-duel": ("tower_defense", {"variant": "duel"}),
    "cf-skirmish": ("colorfight", {"variant": "skirmish"}),
}


def squash(obs):
    x = obs.astype(np.float32)
    return np.sign(x) * np.log1p(np.abs(x))


class Adam:
    def __init__(self, params, lr):
        self.params, self.lr = params, lr
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads, b1=0.9, b2=0.999, eps=1e-5):
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1**self.t)
            vh = v / (1 - b2**self.t)
            p -= self.lr * mh / (np.sqrt(vh) + eps)


class Net:
    """x -> tanh(64) -> tanh(64), then a policy head (logits) and a value head, orthogonal init as
    CleanRL's `layer_init` (one trunk for both heads, as CleanRL's Atari PPO: half the work of
    two networks on these wide observations)."""

    def __init__(self, rng, n_in, n_act, hidden=64):
        def ortho(a, b, gain):
            q, _ = np.linalg.qr(rng.standard_normal((max(a, b), min(a, b))))
            w = q if a >= b else q.T
            return (gain * w[:a, :b]).astype(np.float32)

        g = np.sqrt(2.0)
        self.params = [
            ortho(n_in, hidden, g), np.zeros(hidden, np.float32),
            ortho(hidden, hidden, g), np.zeros(hidden, np.float32),
            ortho(hidden, n_act, 0.01), np.zeros(n_act, np.float32),
            ortho(hidden, 1, 1.0), np.zeros(1, np.float32),
        ]

    def forward(self, x):
        w1, b1, w2, b2, wp, bp, wv, bv = self.params
        h1 = np.tanh(x @ w1 + b1)
        h2 = np.tanh(h1 @ w2 + b2)
        return h2 @ wp + bp, (h2 @ wv + bv)[:, 0], (x, h1, h2)

    def backward(self, cache, dlogits, dv):
        w1, b1, w2, b2, wp, bp, wv, bv = self.params
        x, h1, h2 = cache
        dv = dv[:, None]
        dwp, dbp = h2.T @ dlogits, dlogits.sum(0)
        dwv, dbv = h2.T @ dv, dv.sum(0)
        dh2 = (dlogits @ wp.T + dv @ wv.T) * (1 - h2 * h2)
        dw2, db2 = h1.T @ dh2, dh2.sum(0)
        dh1 = (dh2 @ w2.T) * (1 - h1 * h1)
        dw1, db1 = x.T @ dh1, dh1.sum(0)
        return [dw1, db1, dw2, db2, dwp, dbp, dwv, dbv]


def masked_log_softmax(logits, mask):
    z = np.where(mask, logits, -1e9)
    z = z - z.max(1, keepdims=True)
    lse = np.log(np.exp(z).sum(1, keepdims=True))
    return z - lse


def sample(rng, logp):
    """One action a row from log-probabilities (Gumbel-max)."""
    g = rng.gumbel(size=logp.shape).astype(np.float32)
    return np.argmax(logp + g, axis=1)


class Grid:
    """Where a game's list has an action per position (Tower Defense: build, upgrade, destroy at
    each of the 100 spaces of the path one defends; ColorFight: attack, build at each cell), the
    logits of those actions come from one small network shared by every position, reading the
    position and its neighbours (CleanRL's `ppo_gridnet.py` idea, for Gym-MicroRTS); the other
    actions (pass, spawns) and the value come from the network over the whole observation."""

    def __init__(self, game, obs0, listed):
        self.game = game
        if game == "td-duel":
            self.P, self.K = 100, 6
            self.names = ["turret", "stunner", "bomb", "power", "range", "destroy", "pass", "spawn"]
            # List: 0 pass, 1-4 spawns, 5 + 100 k + p build kind k, 305 + 100 k + p upgrade, 505 + p destroy.
            self.index = np.array([[5 + 100 * k + p for k in range(3)] + [305 + 100 * k + p for k in range(2)] + [505 + p] for p in range(100)])
        else:
            w, h = int(obs0[2]), int(obs0[3])
            self.w, self.h, self.P, self.K = w, h, w * h, 2
            self.names = ["attack", "base", "pass", "other"]
            self.index = np.array([[1 + c, 1 + w * h + c] for c in range(w * h)])
        assert self.index.max() < listed
        flat = np.zeros(listed, bool)
        flat[self.index.reshape(-1)] = True
        self.others = np.flatnonzero(~flat)
        # Each listed action's kind, for the log: 0..K-1 per position, K a pass (index 0), K + 1 the
        # others (Tower Defense's spawns).
        self.kind = np.full(listed, self.K + 1)
        self.kind[0] = self.K
        self.kind[self.index] = np.arange(self.K)[None, :]
        self.d = self.local(obs0[None], squash(obs0[None])).shape[-1]

    def local(self, obs, sq):
        """(B, P, d) features of each position, from the observations and their squashed values."""
        B = len(obs)
        if self.game == "td-duel":
            seat = obs[:, 0].astype(int)
            boards = sq[:, 12:].reshape(B, 2, 100, 11)
            mine = boards[np.arange(B), 1 - seat]  # the path one defends: towers and the invaders coming
            theirs = boards[np.arange(B), seat]
            m = np.zeros((B, 102, 11), np.float32)
            m[:, 1:101] = mine
            pos = np.broadcast_to(np.linspace(0, 1, 100, dtype=np.float32)[None, :, None], (B, 100, 1))
            return np.concatenate([m[:, k:k + 100] for k in range(3)] + [theirs, pos], 2)
        w, h = self.w, self.h
        players = (obs.shape[1] - 4 - 6 * w * h) // 6
        cells = obs[:, 4 + 6 * players:].reshape(B, h, w, 6).astype(np.float32)
        me = obs[:, 0, None, None].astype(np.float32) + 1
        owner = cells[..., 0]
        tick = obs[:, 1, None, None].astype(np.float32)
        planes = np.stack([
            owner == me, (owner != me) & (owner > 0), owner == 0,
            cells[..., 4] > 0,  # being attacked
            cells[..., 2] > 0,  # a base
        ], -1).astype(np.float32)
        age = np.log1p(np.maximum(tick - cells[..., 3], 0))[..., None] / 10
        pad = np.zeros((B, h + 2, w + 2, planes.shape[-1]), np.float32)
        pad[:, 1:-1, 1:-1] = planes
        edge = np.ones((B, h + 2, w + 2, 1), np.float32)
        edge[:, 1:-1, 1:-1] = 0
        pad = np.concatenate([pad, edge], -1)
        nb = [pad[:, 1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx] for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        f = np.concatenate([planes, age] + nb, -1)
        return f.reshape(B, w * h, -1)


class Agent:
    def __init__(self, rng, obs0, n_act, lr, game=None, hidden=32, critic=False, kind_prior=False, ent_kind=False, pool_value=False):
        self.n_act = n_act
        self.grid = Grid(game, obs0, n_act) if game else None
        n_out = len(self.grid.others) if self.grid else n_act
        self.net = Net(rng, len(obs0), n_out)
        params = self.net.params
        self.critic = Net(rng, len(obs0), 1) if critic else None
        if self.critic:
            params = params + self.critic.params
        self.kind_prior = kind_prior and self.grid is not None
        self.ent_kind = ent_kind and self.grid is not None
        if self.grid:
            d, K = self.grid.d, self.grid.K
            q, _ = np.linalg.qr(rng.standard_normal((max(d, hidden), min(d, hidden))))
            wl = (np.sqrt(2) * (q if d >= hidden else q.T)[:d, :hidden]).astype(np.float32)
            self.local = [wl, np.zeros(hidden, np.float32), (0.01 * rng.standard_normal((hidden, K))).astype(np.float32), np.zeros(K, np.float32)]
            params = params + self.local
        # The value plus a sum over the positions of a linear read of their hidden features: what
        # each tower or cell is worth, added up (the value's weights last among the parameters).
        self.pool = np.zeros(hidden, np.float32) if pool_value and self.grid else None
        if self.pool is not None:
            params = params + [self.pool]
        self.opt = Adam(params, lr)

    def log_count(self, mask):
        """(B, actions): for each per-position action, log of how many legal actions of its kind
        the row has; 0 for the others."""
        idx = self.grid.index  # (P, K)
        legal = mask[:, idx]  # (B, P, K)
        n = np.maximum(legal.sum(1), 1)  # (B, K)
        c = np.zeros(mask.shape, np.float32)
        c[:, idx.reshape(-1)] = np.broadcast_to(np.log(n)[:, None, :], legal.shape).reshape(len(mask), -1)
        return c

    def logp(self, logits, mask):
        """Log-probabilities over the legal actions. With the kind prior, each per-position kind's
        legal actions share one prior weight (the logits less log of how many of that kind are
        legal), so that at the start a kind is as likely as one other action, whatever the count."""
        if self.kind_prior:
            logits = logits - self.log_count(mask)
        return masked_log_softmax(logits, mask)

    def forward(self, obs):
        sq = squash(obs)
        g_logits, v, cache = self.net.forward(sq)
        if self.critic:
            _, v, ccache = self.critic.forward(sq)
            cache = (cache, ccache)
        if not self.grid:
            return g_logits, v, (cache, None)
        B = len(obs)
        # One (B x positions, features) matrix: one BLAS product instead of one per row.
        xl = self.grid.local(obs, sq).reshape(B * self.grid.P, -1)
        wl, bl, wo, bo = self.local
        hl = np.tanh(xl @ wl + bl)
        pos = hl @ wo + bo
        logits = np.empty((B, self.n_act), np.float32)
        logits[:, self.grid.others] = g_logits
        logits[:, self.grid.index.reshape(-1)] = pos.reshape(B, -1)
        if self.pool is not None:
            v = v + (hl @ self.pool).reshape(B, -1).sum(1)
        return logits, v, (cache, (xl, hl))

    def backward(self, caches, dlogits, dv):
        cache, loc = caches
        cgrads = []
        dv_all = dv
        if self.critic:
            cache, ccache = cache
            cgrads = self.critic.backward(ccache, np.zeros((len(dv), 1), np.float32), dv)
            dv = np.zeros_like(dv)
        if not self.grid:
            return self.net.backward(cache, dlogits, dv) + cgrads
        B = len(dlogits)
        grads = self.net.backward(cache, np.ascontiguousarray(dlogits[:, self.grid.others]), dv) + cgrads
        xl, hl = loc
        wl, bl, wo, bo = self.local
        dpos = dlogits[:, self.grid.index.reshape(-1)].reshape(B * self.grid.P, self.grid.K)
        dwo = hl.T @ dpos
        dbo = dpos.sum(0)
        dhl = dpos @ wo.T
        extra = []
        if self.pool is not None:
            dvp = np.repeat(dv_all, self.grid.P)[:, None]  # each position's part of its row's value
            dhl += dvp * self.pool[None, :]
            extra = [(hl * dvp).sum(0)]
        dh = dhl * (1 - hl * hl)
        dwl = xl.T @ dh
        dbl = dh.sum(0)
        return grads + [dwl, dbl, dwo, dbo] + extra

    def act(self, rng, obs, mask, greedy=False):
        logits, v, _ = self.forward(obs)
        logp = self.logp(logits, mask)
        if not greedy:
            a = sample(rng, logp)
        elif self.kind_prior:
            a = self.most_likely(logp)
        else:
            a = np.argmax(logp, 1)
        return a, logp[np.arange(len(a)), a], v

    def most_likely(self, logp):
        """With the kind prior, the most likely action is the most likely kind's most likely
        position: the action of highest probability alone would almost never be one of a kind
        whose mass the prior spreads over many positions (a build, with a hundred spaces free)."""
        p = np.exp(logp)
        idx = self.grid.index  # (P, K)
        mass = p[:, idx].sum(1)  # (B, K)
        others = self.grid.others
        rows = np.arange(len(p))
        k = np.argmax(mass, 1)
        o = others[np.argmax(p[:, others], 1)]
        pos = np.argmax(logp[:, idx][rows, :, k], 1)  # (B,): the best position of kind k
        return np.where(mass[rows, k] > p[rows, o], idx[pos, k], o)

    def gradients(self, b, n, clip, ent_coef, vf_coef):
        """The loss's gradients over the rows of `b` (its advantages already normalised), each
        row's part divided by `n`, the minibatch's size: the sums of (policy loss, value loss,
        entropy, approx kl) over the rows, and the gradients."""
        m = len(b["a"])
        logits, v, cache = self.forward(b["x"])
        logp = self.logp(logits, b["mask"])
        p = np.exp(logp)
        rows = np.arange(m)
        new = logp[rows, b["a"]]
        ratio = np.exp(new - b["logp"])
        adv = b["adv"]
        s1, s2 = ratio * adv, np.clip(ratio, 1 - clip, 1 + clip) * adv
        pg_loss = -np.minimum(s1, s2).sum()
        plogp = np.where(b["mask"], p * logp, 0.0)
        ent = -plogp.sum(1)
        # d(pg_loss)/d(new logp): the unclipped term's where it is the smaller (or equal).
        use = s1 <= s2
        dnew = np.where(use, -adv * ratio, 0.0) / n
        onehot = np.zeros_like(logits)
        onehot[rows, b["a"]] = 1.0
        dlogits = dnew[:, None] * (onehot - p)
        # Entropy bonus: d(-ent_coef * mean H)/dlogits = ent_coef * p (log p + H) / n.
        dlogits += ent_coef * np.where(b["mask"], p * (logp + ent[:, None]), 0.0) / n
        if self.ent_kind:
            # The bonus is the entropy less E[log n_kind] (minus the KL to the kind prior, up to
            # a constant): plain entropy pulls towards the kinds with many legal actions.
            c = self.log_count(b["mask"])
            ec = (p * c).sum(1, keepdims=True)
            ent = ent - ec[:, 0]
            dlogits += ent_coef * np.where(b["mask"], p * (c - ec), 0.0) / n
        v_loss = 0.5 * ((v - b["ret"]) ** 2).sum()
        dv = (vf_coef * (v - b["ret"]) / n).astype(np.float32)
        grads = self.backward(cache, dlogits.astype(np.float32), dv)
        kl = float(((ratio - 1) - (new - b["logp"])).sum())
        return np.array([pg_loss, v_loss, ent.sum(), kl]), grads

    def update(self, b, clip, ent_coef, vf_coef, max_grad, pool=None, threads=1):
        """One minibatch's gradient step; returns (policy loss, value loss, entropy, approx kl).
        With a thread pool of `threads`, the rows are split among its threads (numpy lets go of the GIL in its
        products and element-wise work, so the halves run on two cores at once) and the gradients
        summed."""
        n = len(b["a"])
        adv = b["adv"]
        b = dict(b, adv=(adv - adv.mean()) / (adv.std() + 1e-8))
        if pool is None or threads < 2:
            parts = [self.gradients(b, n, clip, ent_coef, vf_coef)]
        else:
            k = threads
            cuts = np.linspace(0, n, k + 1).astype(int)
            chunks = [{key: v[cuts[i]:cuts[i + 1]] for key, v in b.items()} for i in range(k)]
            parts = list(pool.map(lambda c: self.gradients(c, n, clip, ent_coef, vf_coef), chunks))
        stats = sum(s for s, _ in parts) / n
        grads = [sum(gs) for gs in zip(*(g for _, g in parts))]
        norm = np.sqrt(sum(float((g * g).sum()) for g in grads))
        if norm > max_grad:
            grads = [g * (max_grad / norm) for g in grads]
        self.opt.step(grads)
        return tuple(float(x) for x in stats)


def make(game, n, seed, config):
    name, base = GAMES[game]
    return VectorEnv(name, n, seed=seed, bots={"player_1": "random"}, **base, **config)


# `VectorEnv(seed=s)` seeds its match i as `tournament::match_seed(s, i)`: splitmix64 (a bijection)
# of `s ^ (i * GOLDEN)` mod 2**64, so two vectors' matches share a seed only where those inputs meet.
GOLDEN = 0xD1B5_4A32_D192_ED03
GOLDEN_INV = pow(GOLDEN, -1, 2**64)


def seeds_overlap(seed_a, count_a, seed_b, count_b):
    """Whether match i < count_a of a vector seeded `seed_a` and match j < count_b of one seeded
    `seed_b` are seeded alike, for some i, j (exactly: for each j, the one i that would meet it)."""
    for j in range(count_b):
        x = (seed_b ^ (j * GOLDEN % 2**64)) ^ seed_a
        if (x * GOLDEN_INV) % 2**64 < count_a:
            return True
    return False


def evaluate(agent, game, matches, seed, config, greedy=False):
    """`matches` matches against `random`, one a row of a VectorEnv: (wins, draws, losses)."""
    rng = np.random.default_rng(seed)
    env = make(game, matches, seed, config)
    obs, infos = env.reset()
    result = np.full(matches, -1)
    while (result < 0).any():
        mask = infos["action_mask"][:, 0] > 0
        a = np.argmax(mask, 1)
        # A row whose match has ended plays on (the vector starts it again) without the network.
        choice = np.flatnonzero((mask.sum(1) > 1) & (result < 0))
        if len(choice):
            a[choice] = agent.act(rng, obs[choice, 0], mask[choice], greedy)[0]
        obs, _, term, trunc, infos = env.step(a[:, None])
        ended = infos["rank"][:, 0] >= 0
        first = ended & (result < 0)
        # Rank 0 alone is a win, shared with another seat a draw.
        rank = infos["rank"]
        alone = (rank[:, 1:] > 0).all(1)
        result[first] = np.where(rank[first, 0] == 0, np.where(alone[first], 2, 1), 0)
    return int((result == 2).sum()), int((result == 1).sum()), int((result == 0).sum())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="td-duel")
    ap.add_argument("--minutes", type=float, default=10.0, help="training time budget (wall clock)")
    ap.add_argument("--total-steps", type=int, default=0, help="stop after this many env-steps (0: the time budget alone)")
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2.5e-4)
    ap.add_argument("--gamma", type=float, default=0.99)
    ap.add_argument("--gae-lambda", type=float, default=0.95)
    ap.add_argument("--minibatches", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--ent-final", type=float, help="anneal the entropy coefficient linearly to this over the budget (default: --ent-coef throughout)")
    ap.add_argument("--vf-coef", type=float, default=0.5)
    ap.add_argument("--max-grad", type=float, default=0.5)
    ap.add_argument("--reward-scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="threads an update's minibatch is split among (default: the machine's cores)")
    ap.add_argument("--plain", action="store_true", help="one MLP over the whole observation for every action (no per-position network)")
    ap.add_argument("--critic", action="store_true", help="a value network of its own (CleanRL's ppo.py) instead of a value head on the policy's trunk")
    ap.add_argument("--ent-kind", action="store_true", help="the entropy bonus less E[log of the chosen kind's legal count]: no pull towards kinds with many legal actions")
    ap.add_argument("--pool-value", action="store_true", help="add to the value a sum over the positions of a linear read of the per-position network's features")
    ap.add_argument("--kind-prior", action="store_true", help="each per-position kind's legal actions share one prior weight (logits less log of their count)")
    ap.add_argument("--eval", type=int, default=100, help="evaluation matches against random (0: none)")
    ap.add_argument("--eval-seed", type=int, default=10_000)
    ap.add_argument("--eval-greedy", action="store_true", help="evaluate again playing the most likely action")
    ap.add_argument("--best-window", type=int, default=100, help="keep the parameters under which the last this many training matches had the best win rate, and evaluate those (0: the last parameters); not with --select-greedy")
    ap.add_argument("--select-greedy", type=int, default=0, metavar="N", help="every --select-every updates, play N matches against random with the most likely action on the selection seeds (--select-seed) and keep the parameters that won the most of them (ties: the later); their time counts in the budget")
    ap.add_argument("--select-every", type=int, default=2, metavar="K", help="updates between two --select-greedy rounds")
    ap.add_argument("--select-seed", type=int, default=20_000, help="the selection matches' vector seed (its matches must meet neither the training's nor the evaluation's)")
    ap.add_argument("--save", help="write the trained parameters here (numpy .npz)")
    ap.add_argument("--config", default="{}", help="extra game config as JSON, e.g. '{\"size\": \"10x10\"}'")
    ap.add_argument("--curve", help="write the learning curve here (CSV)")
    ap.add_argument("--plot", help="plot the learning curve into this PNG (needs matplotlib)")
    args = ap.parse_args(argv)
    config = json.loads(args.config)
    if args.select_greedy:
        # The training vector starts at most ~2**40 matches; the evaluation plays --eval.
        trained = 2**40
        for what, a, na, b, nb in (("training", args.seed, trained, args.select_seed, args.select_greedy),
                                   ("evaluation", args.eval_seed, args.eval, args.select_seed, args.select_greedy)):
            if seeds_overlap(a, na, b, nb):
                ap.error(f"--select-seed {args.select_seed}: its matches meet the {what} matches' seeds; choose another")

    rng = np.random.default_rng(args.seed)
    env = make(args.game, args.envs, args.seed, config)
    obs, infos = env.reset()
    n_in, n_act = obs.shape[-1], env.listed
    agent = Agent(rng, obs[0, 0], n_act, args.lr, None if args.plain else args.game, critic=args.critic, kind_prior=args.kind_prior, ent_kind=args.ent_kind, pool_value=args.pool_value)
    chosen = np.zeros(agent.grid.K + 2 if agent.grid else 1)
    N, T = args.envs, args.steps
    pool = ThreadPoolExecutor(args.threads) if args.threads > 1 else None
    # Steps where the mask leaves one action (a ColorFight player busy with its attack, a Tower
    # Defense player without gold) are played without asking the network and are not samples:
    # their rewards go, discounted, to the seat's last decision (a semi-Markov step).
    pend = {"open": np.zeros(N, bool), "x": np.zeros((N, n_in), obs.dtype), "m": np.zeros((N, n_act), bool),
            "a": np.zeros(N, np.int64), "lp": np.zeros(N, np.float32), "v": np.zeros(N, np.float32),
            "R": np.zeros(N, np.float32), "disc": np.ones(N, np.float32)}
    closed = [[] for _ in range(N)]

    def close(i, next_v, done):
        closed[i].append((pend["x"][i].copy(), pend["m"][i].copy(), pend["a"][i], pend["lp"][i], pend["v"][i],
                          pend["R"][i], pend["disc"][i], float(done), float(next_v)))
        pend["open"][i] = False

    x, mask = obs[:, 0], infos["action_mask"][:, 0] > 0
    budget = args.minutes * 60
    t0, c0 = time.perf_counter(), time.process_time()
    steps, curve = 0, []
    ep_ret, finished_ret, wins = np.zeros(N), [], []
    best = {"rate": -1.0, "params": None, "steps": 0, "counted": 0}
    updates, select_wall, select_cpu = 0, 0.0, 0.0
    while True:
        elapsed = time.perf_counter() - t0
        if elapsed >= budget or (args.total_steps and steps >= args.total_steps):
            break
        # The share of the budget spent: of the time, or of --total-steps if that comes first.
        done_frac = max(elapsed / budget, steps / args.total_steps if args.total_steps else 0.0)
        agent.opt.lr = args.lr * max(0.05, 1 - done_frac)
        ent_final = args.ent_coef if args.ent_final is None else args.ent_final
        ent_coef = args.ent_coef + (ent_final - args.ent_coef) * min(1.0, done_frac)
        closed = [[] for _ in range(N)]
        while sum(len(c) for c in closed) < N * T:
            choice = np.flatnonzero(mask.sum(1) > 1)
            act = np.argmax(mask, 1)
            if len(choice):
                a, lp, v = agent.act(rng, x[choice], mask[choice])
                act[choice] = a
                if agent.grid:
                    chosen += np.bincount(agent.grid.kind[a], minlength=len(chosen))
                for j, i in enumerate(choice):
                    if pend["open"][i]:
                        close(i, v[j], False)
                    pend["open"][i] = True
                    pend["x"][i], pend["m"][i], pend["a"][i], pend["lp"][i], pend["v"][i] = x[i], mask[i], a[j], lp[j], v[j]
                    pend["R"][i], pend["disc"][i] = 0.0, 1.0
            obs, r, term, trunc, infos = env.step(act[:, None])
            r = r[:, 0] / args.reward_scale
            pend["R"] += np.where(pend["open"], pend["disc"] * r, 0.0)
            pend["disc"] *= np.where(pend["open"], args.gamma, 1.0)
            ep_ret += r
            done = term[:, 0] | trunc[:, 0]
            for i in np.flatnonzero(done):
                if pend["open"][i]:
                    close(i, 0.0, True)
                finished_ret.append(ep_ret[i])
                wins.append(float(infos["rank"][i, 0] == 0 and (infos["rank"][i, 1:] > 0).all()))
                ep_ret[i] = 0
            x, mask = obs[:, 0], infos["action_mask"][:, 0] > 0
            steps += N
        # GAE over each seat's decisions, in order; the last one's successor is still open (its
        # lambda-return is cut there).
        rows = []
        for seq in closed:
            nxt = 0.0
            for j in reversed(range(len(seq))):
                xx, mm, aa, lp, v, R, disc, dn, nv = seq[j]
                delta = R + disc * nv * (1 - dn) - v
                nxt = delta + (args.gae_lambda * disc * (1 - dn) * nxt if j < len(seq) - 1 else 0.0)
                rows.append((xx, mm, aa, lp, nxt, nxt + v))
        flat = {
            "x": np.stack([r_[0] for r_ in rows]), "mask": np.stack([r_[1] for r_ in rows]),
            "a": np.array([r_[2] for r_ in rows]), "logp": np.array([r_[3] for r_ in rows], np.float32),
            "adv": np.array([r_[4] for r_ in rows], np.float32), "ret": np.array([r_[5] for r_ in rows], np.float32),
        }
        total = len(rows)
        size = total // args.minibatches
        adv_kind = {}
        if agent.grid:
            # The mean advantage of each kind chosen, in standard deviations (the log).
            kinds, z = agent.grid.kind[flat["a"]], flat["adv"] / (flat["adv"].std() + 1e-8)
            adv_kind = {f"adv_{name}": round(float(z[kinds == k].mean()), 4) if (kinds == k).any() else 0.0 for k, name in enumerate(agent.grid.names)}
        stats = []
        for _ in range(args.epochs):
            order = rng.permutation(total)
            for k in range(args.minibatches):
                idx = order[k * size:(k + 1) * size]
                stats.append(agent.update({key: v[idx] for key, v in flat.items()}, args.clip, ent_coef, args.vf_coef, args.max_grad, pool, args.threads))
        pg, vl, ent, kl = np.mean(stats, axis=0)
        if not all(np.isfinite([pg, vl, ent])):
            raise SystemExit(f"the loss is not finite (policy {pg}, value {vl}, entropy {ent})")
        recent = finished_ret[-50:]
        row = {
            "seconds": round(time.perf_counter() - t0, 1), "steps": steps,
            "episodes": len(finished_ret), "return": float(np.mean(recent)) if recent else float("nan"),
            "win_rate": float(np.mean(wins[-50:])) if wins else float("nan"),
            "policy_loss": float(pg), "value_loss": float(vl), "entropy": float(ent), "kl": float(kl),
        }
        if agent.grid:
            for name, c in zip(agent.grid.names, chosen / max(chosen.sum(), 1)):
                row[name] = round(float(c), 4)
            chosen[:] = 0
            row.update(adv_kind)
        updates += 1
        W = 0 if args.select_greedy else args.best_window
        if args.select_greedy and updates % args.select_every == 0:
            # Selection by what is evaluated: the most likely action on seeds of neither the
            # training nor the evaluation, the same N matches each round; inside the budget.
            ts, cs = time.perf_counter(), time.process_time()
            won = evaluate(agent, args.game, args.select_greedy, args.select_seed, config, greedy=True)[0]
            select_wall += time.perf_counter() - ts
            select_cpu += time.process_time() - cs
            rate = won / args.select_greedy
            row["select_rate"] = rate
            if rate >= best["rate"]:
                best.update(rate=rate, params=[p.copy() for p in agent.opt.params], steps=steps)
        if W and len(wins) >= W and len(wins) - best["counted"] >= W // 4:
            # A new window (a quarter of it new matches) with a better win rate: its parameters.
            best["counted"] = len(wins)
            rate = float(np.mean(wins[-W:]))
            if rate > best["rate"]:
                best.update(rate=rate, params=[p.copy() for p in agent.opt.params], steps=steps)
        curve.append(row)
        print(json.dumps(row), flush=True)
    cpu = time.process_time() - c0
    wall = time.perf_counter() - t0
    print(f"trained {steps} env-steps in {wall:.0f} s wall, {cpu:.0f} s CPU (this process), load {os.getloadavg()[0]:.1f}")
    if best["params"] is not None:
        for p, q in zip(agent.opt.params, best["params"]):
            p[...] = q
        if args.select_greedy:
            print(f"selection: {select_wall:.0f} s wall ({100 * select_wall / max(wall, 1e-9):.0f}% of the training's), {select_cpu:.0f} s CPU")
            print(f"kept the parameters of env-step {best['steps']}: {100 * best['rate']:.0f}% of the {args.select_greedy} selection matches won (most likely action)")
        else:
            print(f"kept the parameters of env-step {best['steps']}: {100 * best['rate']:.0f}% of the {args.best_window} training matches before it won")
    if args.curve:
        with open(args.curve, "w") as f:
            keys = list(dict.fromkeys(k for row in curve for k in row))
            f.write(",".join(keys) + "\n" if curve else "")
            for row in curve:
                f.write(",".join(str(row.get(k, "nan")) for k in keys) + "\n")
    if args.save:
        np.savez(args.save, *agent.opt.params)
    if args.eval:
        w, d, l = evaluate(agent, args.game, args.eval, args.eval_seed, config)
        print(f"evaluation, {args.eval} matches against random, actions sampled: {w} won, {d} drawn, {l} lost ({100 * w / args.eval:.0f}% won)", flush=True)
        if args.eval_greedy:
            g = evaluate(agent, args.game, args.eval, args.eval_seed, config, greedy=True)
            print(f"evaluation, {args.eval} matches against random, the most likely action: {g[0]} won, {g[1]} drawn, {g[2]} lost ({100 * g[0] / args.eval:.0f}% won)")
    if args.plot and curve:
        title = f"numpy PPO, {args.game} {args.config if config else ''} against random, {args.minutes:g} min"
        if args.eval:
            title += f": {w}/{args.eval} evaluation matches won"
        plot(curve, args.plot, title)
    return curve


def plot(curve, path, title):
    """The learning curve: the win rate over the last 50 training matches and their mean return,
    against env-steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [r["steps"] / 1000 for r in curve]
    fig, ax = plt.subplots(figsize=(6.4, 3.4), dpi=100)
    ax.plot(steps, [r["win_rate"] for r in curve], color="tab:blue", label="win rate (last 50 training matches)")
    ax.set_xlabel("env-steps (thousands)")
    ax.set_ylabel("win rate against random")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title, fontsize=8)
    sel = [(r["steps"] / 1000, r["select_rate"]) for r in curve if r.get("select_rate", float("nan")) == r.get("select_rate", float("nan"))]
    if sel:
        ax.plot(*zip(*sel), "o", color="tab:green", markersize=3, label="selection matches won (most likely action)")
    ax2 = ax.twinx()
    ax2.plot(steps, [r["return"] for r in curve], color="tab:orange", alpha=0.7, label="mean match return")
    ax2.set_ylabel("match return")
    lines = ax.get_lines() + ax2.get_lines()
    ax.legend(lines, [l.get_label() for l in lines], loc="lower right", fontsize=7)
    fig.tight_layout()
    fig.savefig(path)


def read_curve(path):
    """A learning curve written by `--curve`."""
    with open(path) as f:
        keys = f.readline().strip().split(",")
        return [dict(zip(keys, map(float, line.split(",")))) for line in f if line.strip()]


if __name__ == "__main__":
    sys.exit(0 if main() is not None else 1)
