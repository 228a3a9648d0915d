"""The PettingZoo environments of every game, written once over the Rust match (`_native.Match`).

A game's module (`pocket_arena.<game>`) names the game and its defaults; everything else is here.
"""

from __future__ import annotations

import json
import os
import secrets
import string

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import agent_selector  # noqa: F401  (kept for users who subclass)

from . import _layout, _native

#: Options of these environments that are not a match's options (the Rust side's).
_OWN = {"obs_len", "bots", "obs_type", "action_type", "render_mode", "render_display", "render_scale", "seed", "names", "max_cycles", "mask_in_obs", "reward"}
#: Python names of a match's options that the Rust side reads by another.
_ALIASES = {"turn_limit": "max_turns"}
#: Longest observation / action text the spaces accept.
OBS_LEN = 1 << 16
ACTION_MAX = 4096
_CHARSET = frozenset(string.printable)


def next_seed(seed: int) -> int:
    """The seed of the next match after one seeded `seed` (a reset without a seed): splitmix64."""
    z = (seed + 0x9E3779B97F4A7C15) % (1 << 64)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % (1 << 64)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % (1 << 64)
    return z ^ (z >> 31)


def options(config: dict) -> dict:
    """The match's options in `config`, as the Rust side reads them by name and type (python/src/
    config.rs): the environment's own keywords left out, `None` dropped, `turn_limit` as
    `max_turns`, paths as strings, tuples as lists. No command-line flag is written: what
    `arena play <game> --variant siege` is, is `variant="siege"` here."""
    out = {}
    for key, value in config.items():
        if value is None or (key in _OWN and key != "names"):
            continue
        if isinstance(value, os.PathLike):
            value = os.fspath(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[_ALIASES.get(key, key)] = value
    names = config.get("names")
    if names is not None:
        out["names"] = [str(n) for n in names]
    return out


def decode(obs) -> str:
    """An observation's text: `json.loads(decode(obs))` in the default mode."""
    return bytes(np.asarray(obs, dtype=np.uint8)).rstrip(b"\0").decode("utf-8", "replace")


def _is_index(action) -> bool:
    """Whether `action` is an index into the game's list (an int, a numpy integer or a 0-d integer
    array), not a JSON value."""
    if isinstance(action, (bool, np.bool_)):
        return False
    if isinstance(action, (int, np.integer)):
        return True
    return isinstance(action, np.ndarray) and action.ndim == 0 and np.issubdtype(action.dtype, np.integer)


def _is_picks(action) -> bool:
    """Whether `action` is one choice per slot of a factored space (a list, tuple or 1-d array of
    integers), not a JSON value."""
    if isinstance(action, np.ndarray):
        return action.ndim == 1 and np.issubdtype(action.dtype, np.integer)
    return isinstance(action, (list, tuple)) and len(action) > 0 and all(_is_index(a) for a in action)


class FactoredDiscrete(spaces.MultiDiscrete):
    """A `MultiDiscrete` whose mask is flat, as `info["action_mask"]` gives it (and sb3-contrib's
    MaskablePPO takes it): each slot's choices one after the other. `sample(mask)` takes that flat
    mask (or Gymnasium's tuple of one array per slot)."""

    def sample(self, mask=None, probability=None):
        if isinstance(mask, np.ndarray) and mask.ndim == 1 and self.nvec.ndim == 1:
            ends = np.cumsum(self.nvec)
            if mask.shape[0] != ends[-1]:
                raise ValueError(f"mask: {ends[-1]} numbers (one per choice of each slot), not {mask.shape[0]}")
            mask = tuple(np.asarray(part, dtype=np.int8) for part in np.split(mask, ends[:-1]))
        if probability is not None:
            return super().sample(probability=probability)
        return super().sample(mask=mask)


def bounds(game, match, seat):
    """The default observation's bounds (`low`, `high`, int32 vectors of its length): each
    field's (`_layout`)."""
    return _layout.bounds(game, len(match.observe_array(seat)), match.seats)


def seat_of(agent) -> int:
    if isinstance(agent, int):
        return agent
    if isinstance(agent, str) and agent.startswith("player_") and agent[7:].isdigit():
        return int(agent[7:])
    raise ValueError(f"bots: `{agent}` is not a seat (player_0, player_1, ...)")


class _Logged:
    """The native match, with the calls that change it kept since its last `reset`: an environment
    pickles and deep-copies as the match's spec, seed and those calls, and is rebuilt by playing
    them again on a new match (the core is deterministic: the copy's digest is the original's)."""

    _CHANGE = frozenset({"reset", "advance", "step", "step_policy", "step_listed", "take_gained", "bot_action"})
    #: Calls that set the match up for good (a `reset` keeps them): replayed first on a copy.
    _SETTING = frozenset({"set_reward"})

    def __init__(self, spec, text, seed):
        self._args = (spec, bool(text), int(seed))
        self._native = _native.Match(*self._args)
        self._settings = []
        self._log = []

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        attr = getattr(self._native, name)
        if name in self._SETTING:
            settings = self._settings

            def setting(*args):
                settings.append((name, args))
                return attr(*args)

            return setting
        if name not in self._CHANGE:
            return attr
        log = self._log

        def call(*args):
            if name == "reset":
                log.clear()
            log.append((name, args))
            return attr(*args)

        return call

    def __getstate__(self):
        return {"args": self._args, "settings": list(self._settings), "log": list(self._log)}

    def __setstate__(self, state):
        self._args = tuple(state["args"])
        self._native = _native.Match(*self._args)
        self._settings = list(state.get("settings", []))
        self._log = list(state["log"])
        for name, args in self._settings + self._log:
            getattr(self._native, name)(*args)


def metadata(game, parallelizable=True):
    """A game's PettingZoo metadata: `is_parallelizable` only where `aec_to_parallel` takes the AEC
    env (every agent to move acts each step: not a sequential game)."""
    return {
        "name": f"pocket_arena_{game}_v0",
        "render_modes": ["human", "rgb_array", "ansi"],
        "render_fps": 4,
        "is_parallelizable": bool(parallelizable),
    }


class _Core:
    """What the AEC and the parallel environments share: the match, the spaces, the encodings."""

    game = ""
    metadata = metadata("")
    #: Whether the game has a global state (`state()`): every seat sees the whole board, so the
    #: first seat's observation is it. Ants (fog of war) and Mammut (hidden hands) have none.
    global_state = True

    #: Config a game fills in when not given (Ants: a map shipped in the package).
    defaults: dict = {}

    def _setup(self, config):
        config = {**self.defaults, **config}
        self.obs_type = config.get("obs_type", "vector")
        if self.obs_type not in ("vector", "json", "text"):
            raise ValueError(f"obs_type `{self.obs_type}`: one of vector, json, text")
        if self.obs_type == "json" and self.game == "ants":
            raise ValueError("obs_type `json`: Ants' state JSON is the whole map, not a seat's view; use vector or text")
        self.render_mode = config.get("render_mode")
        if self.render_mode not in (None, "human", "rgb_array", "ansi"):
            raise ValueError(f"render_mode `{self.render_mode}`: human, rgb_array, ansi or None")
        self.render_display = config.get("render_display", "gray128x64")
        self.render_scale = int(config.get("render_scale", 1))
        bots = config.get("bots") or {}
        if not isinstance(bots, dict):
            raise ValueError("bots: a dict like {'player_1': 'strong'}")
        self.max_cycles = config.get("max_cycles")
        if self.max_cycles is not None and (isinstance(self.max_cycles, bool) or int(self.max_cycles) < 1):
            raise ValueError(f"max_cycles `{self.max_cycles}`: a whole number, 1 or more")
        self.max_cycles = None if self.max_cycles is None else int(self.max_cycles)
        self._bots = [(seat_of(a), str(b)) for a, b in bots.items()]
        self._seed = config.get("seed")
        self.config = config
        text = self.obs_type == "text"
        self._m = _Logged((self.game, options(config), self._bots), text, int(self._seed or 0))
        # The measure rewards follow (docs/python.md, "Rewards"): "teach" or "score".
        self._m.set_reward(str(config.get("reward", "teach")))
        self.listed = self._m.listed
        #: A factored list's `(slots, choices)` (Ants: a choice per ant), else None.
        self.factors = self._m.factors
        default_action = "text" if text else ("discrete" if self.listed else "json")
        self.action_type = config.get("action_type") or default_action
        if self.action_type not in ("json", "text", "discrete"):
            raise ValueError(f"action_type `{self.action_type}`: one of json, text, discrete")
        if (self.obs_type == "text") != (self.action_type == "text"):
            raise ValueError("obs_type and action_type are both `text` (the protocol) or neither")
        if self.action_type == "discrete" and not self.listed:
            raise ValueError(f"action_type `discrete`: {self.game} does not list its actions (docs/python.md)")
        self.mask_in_obs = bool(config.get("mask_in_obs", False))
        if self.mask_in_obs and not self.listed:
            raise ValueError(f"mask_in_obs: {self.game} does not list its actions, so it has no mask")
        self.possible_agents = [f"player_{s}" for s in self._m.agents]
        if not self.possible_agents:
            raise ValueError("bots: every seat has a built-in bot; leave one for Python")
        self._seat = {a: s for a, s in zip(self.possible_agents, self._m.agents)}
        self.obs_len = int(config.get("obs_len", OBS_LEN))
        self._obs_spaces = {a: self._obs_space() for a in self.possible_agents}
        if self.action_type == "discrete" and self.factors:
            slots, choices = self.factors
            act = lambda: FactoredDiscrete([choices] * slots)
        elif self.action_type == "discrete":
            act = lambda: spaces.Discrete(self.listed)
        else:
            act = lambda: spaces.Text(ACTION_MAX, min_length=0, charset=string.printable)
        self._act_spaces = {a: act() for a in self.possible_agents}
        self._last_seed = None
        self._cycles = 0
        self.agents = []

    def _vector_space(self):
        low, high = bounds(self.game, self._m, self._m.agents[0])
        return spaces.Box(low, high, dtype=np.int32)

    @property
    def obs_fields(self):
        """The name of each number of the default observation (`obs_type="vector"`), in order:
        the index map of its layout (`pocket_arena._layout`)."""
        n = len(self._m.observe_array(self._m.agents[0]))
        return [name for name, _, _ in _layout.fields(self.game, n, self._m.seats)]

    def _obs_space(self):
        if self.obs_type == "vector":
            box = self._vector_space()
        else:
            box = spaces.Box(0, 255, (self.obs_len,), np.uint8)
        if not self.mask_in_obs:
            return box
        return spaces.Dict({"observation": box, "action_mask": spaces.Box(0, 1, (self.listed,), np.int8)})

    @property
    def state_space(self):
        """The global state's space (`state()`), where the game has one (an `AttributeError`
        where not, so that `hasattr(env, "state_space")` says it)."""
        if not self.global_state:
            raise AttributeError(f"{self.game} has no global state (its seats do not see it all)")
        return self._vector_space()

    def state(self):
        """The global state, for games where every seat sees the whole board (Tower Defense,
        Ballroom Blitz, ColorFight): the default observation of the first seat, an int32 vector in
        `state_space`. Ants and Mammut have none (`NotImplementedError`)."""
        if not self.global_state:
            raise NotImplementedError(f"{self.game} has no global state (its seats do not see it all)")
        return self._m.observe_array(0)

    # ---- spaces

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    # ---- the match

    def _reset_match(self, seed):
        if seed is None:
            if self._last_seed is not None:
                seed = next_seed(self._last_seed)
            elif self._seed is not None:
                seed = int(self._seed)
            else:
                # Never seeded: a match of its own (copies of an env play different games).
                seed = secrets.randbits(64)
        self._last_seed = int(seed) % (1 << 64)
        self._cycles = 0
        self._m.reset(self._last_seed)
        self._m.advance()
        # Scores the built-in bots' opening moves changed are the start's, not a reward.
        self._m.take_gained()
        self.agents = list(self.possible_agents)

    def _move(self, action, seat):
        """`seat`'s `action` as the step takes it: `(index, None)` for a pick from the list
        (`action_type="discrete"`, a game that lists single actions), `(None, text)` for anything
        else; `None` for no action (a negative pick, `None`)."""
        if self.action_type == "discrete" and not self.factors and _is_index(action):
            return (int(action), None) if int(action) >= 0 else None
        text = self._action_text(action, seat)
        return None if text is None else (None, text)

    def _play(self, moves):
        """One step of the match with `moves`, `[(seat, move)]` of the seats to move (`_move`'s):
        picks from the list are played as the list's actions themselves, as `VectorEnv` plays
        them (a pick the mask refuses is the rules' refusal of that action, not what the seat's
        JSON reader makes of its JSON: Tower Defense Siege's invader reads any JSON as a spawn,
        the rules' Decision 7); the rest as text."""
        picks = [(s, i) for s, (i, _) in moves if i is not None]
        texts = [(s, text) for s, (i, text) in moves if i is None]
        return self._m.step_listed(picks, None, texts)

    def _action_text(self, action, seat):
        if action is None:
            return None
        if self.action_type == "discrete" and self.factors and _is_picks(action):
            picks = [int(a) for a in action]
            text = self._m.factored_json(seat, picks) if min(picks) >= 0 else None
            return text if text is not None else f"<action {picks}: not in the space {self.factors}>"
        if self.action_type == "discrete" and _is_index(action):
            i = int(action)
            text = self._m.listed_json(seat, i) if i >= 0 else None
            return text if text is not None else f"<action {i}: not in the list of {self.listed}>"
        if isinstance(action, bytes):
            # Raw text: the protocol's lines, or JSON as written.
            return action.decode("utf-8", "replace")
        if self.action_type == "text":
            return str(action)
        # JSON mode: the action is a JSON value (a str is a JSON string).
        try:
            return json.dumps(action)
        except (TypeError, ValueError) as e:
            return f"<not JSON: {e}>"

    def _observe_seat(self, seat):
        """The observation: the text (canonical state JSON, or the protocol's lines) as UTF-8,
        zero-padded to `obs_len` bytes (`decode` reads it back); a longer one is cut, and
        `info["obs_cut"]` says so."""
        if self.obs_type == "vector":
            out = self._m.observe_array(seat)
        else:
            raw = self._m.observe(seat).encode("utf-8")
            out = np.zeros(self.obs_len, dtype=np.uint8)
            n = min(len(raw), self.obs_len)
            out[:n] = np.frombuffer(raw, dtype=np.uint8, count=n)
        if self.mask_in_obs:
            return {"observation": out, "action_mask": self._m.mask(seat)}
        return out

    def _cut(self):
        """Whether `max_cycles` has run out."""
        return self.max_cycles is not None and self._cycles >= self.max_cycles

    def _rewards(self):
        """Each live agent's change since its last reward of the measure `reward=` names
        (docs/python.md, "Rewards": by default its own measure minus the others' mean; "score":
        the game's own score) plus, when the game ends, its ranking: +1 first, -1 last, shared
        ranks share. Agents already removed (a seat put out earlier) get none: PettingZoo's envs
        give rewards only to the agents in `agents`."""
        gained = self._m.take_gained()
        out = self._m.outcome()
        rewards = {}
        for a in self.agents:
            s = self._seat[a]
            r = float(gained[s])
            if out is not None:
                ranks, _ = out
                n = len(ranks)
                r += 1.0 - 2.0 * ranks[s] / (n - 1) if n > 1 else 0.0
            rewards[a] = r
        return rewards

    def _info(self, seat, step=None):
        info = {"turn": self._m.turn, "to_move": seat in self._m.to_move(), "score": self._m.scores()[seat]}
        if self.action_type == "discrete":
            info["action_mask"] = self._m.mask(seat)
        if step is not None:
            info["refused"] = step[0]
            info["why"] = list(step[1])
        out = self._m.outcome()
        if out is not None:
            info["rank"] = out[0][seat]
        return info

    # ---- what else a match gives

    def render(self):
        """`human`: the board's screen printed to the terminal (half-block characters), returns
        None; `rgb_array`: the screen as an (h, w, 3) uint8 array; `ansi`: the text `human`
        prints."""
        if self.render_mode == "human":
            print(self._m.render_ansi(), flush=True)
            return None
        if self.render_mode == "rgb_array":
            h, w, rgb = self._m.render_rgb(self.render_display, self.render_scale)
            return np.frombuffer(rgb, dtype=np.uint8).reshape(h, w, 3)
        if self.render_mode == "ansi":
            return self._m.render_ansi()
        return None

    def save_replay(self, path):
        """Writes the match so far as `arena play --replay` writes it (`arena verify` reads it)."""
        self._m.save_replay(str(path))

    def state_json(self, agent=None):
        """The canonical state JSON (as `agent` sees it), parsed."""
        return json.loads(self._m.state_json(self._seat.get(agent, 0)))

    def action_mask(self, agent):
        """Which actions of the game's list (`action_type="discrete"`) the rules take from `agent`
        now: int8, 1 legal (Ants: each ant slot's 5 choices in turn); `None` for the games that
        list none."""
        return self._m.mask(self._seat[agent]) if self.listed else None

    def listed_action(self, agent, i):
        """Action `i` of the game's list, as the canonical action JSON (a Python value)."""
        text = self._m.listed_json(self._seat[agent], int(i))
        return None if text is None else json.loads(text)

    def digest(self) -> int:
        """The core's digest of the whole state (the same on every machine)."""
        return self._m.digest()

    def bot_action(self, agent, bot, as_index=None):
        """The action the built-in `bot` would play for `agent` now (each bot is kept for the
        match, seeded as `arena play` seeds it at that seat).

        `as_index=None` (default): with `action_type="discrete"` its index in the game's list when
        the list holds it (Ants: the choice of each ant slot, an int64 array), else (and in the
        other modes) its canonical JSON as a Python value; either can be given to `step`.
        `as_index=True`: the index, or `None` when the list does not hold the move (a Tower
        Defense spawn that splits its boost, a Mammut take of several tiles, an order for an ant
        past Ants' slots). `as_index=False`: the JSON."""
        seat = self._seat[agent] if isinstance(agent, str) else int(agent)
        text = self._m.bot_action(seat, bot)
        if as_index is None:
            as_index = self.action_type == "discrete"
            if as_index:
                i = self._index_of(seat, text)
                return json.loads(text) if i is None else i
        if as_index:
            return self._index_of(seat, text)
        return json.loads(text)

    def _index_of(self, seat, text):
        """The action JSON `text` in the discrete space: an index, the picks of a factored space
        (an int64 array), or None."""
        if not self.listed:
            return None
        if self.factors:
            picks = self._m.factored_index(seat, text)
            return None if picks is None else np.asarray(picks, dtype=np.int64)
        return self._m.listed_index(seat, text)

    def close(self):
        pass


class RawEnv(_Core, AECEnv):
    """The AEC environment: the Python seats that are to move act one after the other; the step
    is played when the last of them has acted (built-in bots move inside)."""

    def __init__(self, **config):
        AECEnv.__init__(self)
        self._setup(config)

    def reset(self, seed=None, options=None):
        self._reset_match(seed)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: self._info(self._seat[a]) for a in self.agents}
        self._acted = {a: 0 for a in self.agents}
        self._pending = []
        self._queue = self._movers()
        self._finish_if_done()
        self.agent_selection = self._queue[0] if self._queue else self.agents[0]
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _movers(self):
        movers = set(self._m.to_move())
        return [a for a in self.agents if self._seat[a] in movers and not self.terminations[a] and not self.truncations[a]]

    def _finish_if_done(self):
        # A cycle: every live agent has acted once more (in a sequential game, one round).
        live = [a for a in self.agents if self._m.seat_in(self._seat[a])]
        self._cycles = min((self._acted[a] for a in live), default=self._cycles)
        done, trunc = self._m.is_over(), self._m.truncated() or self._cut()
        for a in self.agents:
            s = self._seat[a]
            if done or not self._m.seat_in(s):
                self.terminations[a] = True
            elif trunc:
                self.truncations[a] = True

    def observe(self, agent):
        return self._observe_seat(self._seat[agent])

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._acted[agent] += 1
        move = self._move(action, self._seat[agent])
        if move is not None:
            self._pending.append((self._seat[agent], move))
        if agent in self._queue:
            self._queue.remove(agent)
        if not self._queue:
            results = self._play(self._pending)
            self._pending = []
            self._m.advance()
            self.rewards = self._rewards()
            self._finish_if_done()
            for a in self.agents:
                self.infos[a] = self._info(self._seat[a], results[self._seat[a]])
            self._queue = self._movers()
            if self.render_mode == "human":
                self.render()
        else:
            self._clear_rewards()
        self.agent_selection = self._queue[0] if self._queue else self.agents[0]
        self._accumulate_rewards()
        self._deads_step_first()


class ParallelEnvBase(_Core, ParallelEnv):
    """The parallel environment: every Python seat acts at once each step (seats that are not to
    move, in a sequential game, have their action ignored)."""

    def __init__(self, **config):
        self._setup(config)

    def reset(self, seed=None, options=None):
        self._reset_match(seed)
        obs = {a: self._observe_seat(self._seat[a]) for a in self.agents}
        infos = {a: self._info(self._seat[a]) for a in self.agents}
        if self.render_mode == "human":
            self.render()
        return obs, infos

    def step(self, actions):
        movers = set(self._m.to_move())
        given = []
        for a, act in actions.items():
            if a not in self._seat:
                continue
            s = self._seat[a]
            move = self._move(act, s)
            if s in movers and move is not None:
                given.append((s, move))
        results = self._play(given)
        self._m.advance()
        self._cycles += 1
        over, trunc = self._m.is_over(), self._m.truncated() or self._cut()
        rewards = self._rewards()
        obs, terms, truncs, infos = {}, {}, {}, {}
        for a in self.agents:
            s = self._seat[a]
            obs[a] = self._observe_seat(s)
            terms[a] = over or not self._m.seat_in(s)
            truncs[a] = trunc and not terms[a]
            infos[a] = self._info(s, results[s])
        self.agents = [a for a in self.agents if not (terms[a] or truncs[a])]
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terms, truncs, infos


CONFIG = """`env(**config)` (AEC, order enforced), `raw_env(**config)` and `parallel_env(**config)`:
`config` sets what `arena play <game>` sets (each option named as its flag, with underscores; read by
name and type), plus `bots=`,
`obs_type=`, `action_type=`, `mask_in_obs=`, `render_mode=`, `render_display=`, `seed=`,
`turn_limit=` and `max_cycles=` (docs/python.md)."""


def wrap(raw):
    """The AEC environment `env(**config)` gives: `raw` wrapped as PettingZoo wraps its own (the
    order enforcer)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw)
