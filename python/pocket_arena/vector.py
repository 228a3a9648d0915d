"""`VectorEnv(game, n, **config)`: n matches of one game stepped in one call (in Rust, with the GIL
released, over the machine's cores), observations, masks and flags as batched numpy arrays.

- `reset(seed=None) -> (obs, infos)`: `obs` is `(n, agents, obs_len)` int32 (the default
  observations, padded with zeros to the longest); match `i` is seeded as a tournament seeds its
  match `i` (`arena tournament --seed`). For the games that list their actions,
  `infos["action_mask"]` is `(n, agents, listed)` int8.
- `step(actions=None, policy=None) -> (obs, rewards, terminations, truncations, infos)`: `actions`
  is a list of n dicts `{agent: action}` (JSON values, as in the single environment), or an
  `(n, agents)` integer array of indices into the game's list (-1: none), or for a factored list
  (Ants: `factors == (128, 5)`) an `(n, agents, slots)` integer array, one choice per slot (a
  row with a choice past its slot's is refused), or `None`; agents given
  nothing play the built-in bot `policy` (e.g. "random"), or pass. Rewards are the step's change
  of the measure `reward=` names (docs/python.md, "Rewards") plus the game's ranking when a
  match ends (+1 first, -1 last). `infos["refused"]` counts refusals; `infos["rank"]` is
  `(n, seats)` int8, every seat's rank (0 first, shared ranks share; the built-in bots' seats
  too) in the match that ended this step, -1 in the rows where none did. A match that is done starts again at once (automatic
  reset): its row of `obs` is the new match's first observation; the next match's seed is the
  tournament's for the next index.
- `reward="teach"` (constructor, the default): the seat's own measure minus the mean of the
  others' (Tower Defense: lives, so damage dealt and taken; ColorFight: cells, plus energy and
  gold mines in Conquest; the others: their score); `reward="score"`: the game's own score alone.
- `observe=False`, `masks=False` (constructor): no observations (`obs` is `(n, agents, 0)`), no
  masks (`infos` without `action_mask`): what an agent that does not need them saves.
- `dtype=np.int16` (constructor; default `np.int32`): the observations as int16, each number
  saturated to -32768..32767 (half the bytes written a step; what may pass the bounds: Tower
  Defense's gold, turn and hit points in long matches, ColorFight's tick past 32767 with `ticks=`).
- `copy=False` (constructor): the arrays returned are the vector's own, overwritten by the next
  step (as Gymnasium's vector environments' `copy=False`); the default returns copies.
"""

from __future__ import annotations

import json

import numpy as np
from gymnasium import spaces

from . import _native
from ._base import options, seat_of


class VectorEnv:
    def __init__(self, game: str, n: int, seed: int = 0, bots=None, threads=None, copy=True, observe=True, masks=True, reward="teach", dtype=np.int32, **config):
        self.game = game
        self.copy = bool(copy)
        self._bots = [(seat_of(a), str(b)) for a, b in (bots or {}).items()]
        try:
            dtype = np.dtype(dtype)
        except TypeError as e:
            raise ValueError(f"dtype: {e}") from None
        try:
            self._v = _native.VecMatch((game, options(config), self._bots), int(n), int(seed), bool(observe), bool(masks), str(reward), dtype.name)
        except OverflowError as e:
            raise ValueError(f"n, seed: {e}") from None
        if threads is not None:
            self._v.threads = int(threads)
        self.num_envs = int(n)
        self.listed = self._v.listed
        #: A factored list's `(slots, choices)` (Ants: a choice per ant slot), else None.
        self.factors = self._v.factors
        self.possible_agents = [f"player_{s}" for s in self._v.agents]
        self.agents = list(self.possible_agents)
        L = self._v.obs_len
        dt = np.dtype(dtype)
        lim = np.iinfo(dt)
        self.single_observation_space = spaces.Box(lim.min, lim.max, (len(self.agents), L), dt)
        self.observation_space = spaces.Box(lim.min, lim.max, (self.num_envs, len(self.agents), L), dt)

    def _infos(self, masks, refused=None, ranks=None):
        infos = {} if refused is None else {"refused": refused, "rank": ranks}
        if self.listed:
            infos["action_mask"] = masks
        return infos

    def reset(self, seed=None, options=None):
        obs, masks, *_ = self._v.reset(None if seed is None else int(seed), self.copy)
        return obs, self._infos(masks)

    def _given(self, actions):
        """`actions` as the native step takes them: `(json_lists, picks)`."""
        if actions is None:
            return None, None
        if isinstance(actions, np.ndarray):
            return None, np.asarray(actions, dtype=np.int64).reshape(self.num_envs, len(self.agents))
        if len(actions) != self.num_envs:
            raise ValueError(f"actions: one dict per match ({self.num_envs})")
        given = []
        for per in actions:
            row = []
            for agent, act in (per or {}).items():
                if act is None:
                    continue
                text = act.decode("utf-8", "replace") if isinstance(act, bytes) else json.dumps(act)
                row.append((seat_of(agent), text))
            given.append(row)
        return given, None

    def step(self, actions=None, policy=None):
        if self.factors and isinstance(actions, np.ndarray) and actions.ndim == 3:
            picks = np.ascontiguousarray(actions, dtype=np.int64)
            obs, masks, rewards, ends, refused, ranks = self._v.step_factored(picks, policy, self.copy)
            return obs, rewards, ends[..., 0], ends[..., 1], self._infos(masks, refused, ranks)
        given, picks = self._given(actions)
        obs, masks, rewards, ends, refused, ranks = self._v.step(given, policy, picks, self.copy)
        return obs, rewards, ends[..., 0], ends[..., 1], self._infos(masks, refused, ranks)

    def digests(self):
        """The core's digest of each match's state."""
        return self._v.digests()

    def seeds(self):
        """The seed of each match being played."""
        return self._v.seeds()

    def close(self):
        pass
