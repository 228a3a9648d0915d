"""The PettingZoo environments of every game, written once over the Rust match (`_native.Match`).

A game's module (`pocket_arena.<game>`) names the game and its defaults; everything else is here.
"""

from __future__ import annotations

import json
import string

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import agent_selector  # noqa: F401  (kept for users who subclass)

from . import _native

#: Options of these environments that are not `arena play` flags.
_OWN = {"obs_len", "bots", "obs_type", "action_type", "render_mode", "render_display", "render_scale", "seed", "names", "reward"}
#: Python names of `arena play` flags that read differently.
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


def flags(config: dict) -> list:
    """`arena play <game>`'s flags for `config` (`variant="siege"` is `--variant siege`,
    `turn_limit=50` is `--max-turns 50`, `True` is the bare flag)."""
    args = []
    for key, value in config.items():
        if key in _OWN or value is None or value is False:
            continue
        key = _ALIASES.get(key, key)
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                args += [flag, str(v)]
        else:
            args += [flag, str(value)]
    for name in config.get("names") or []:
        args += ["--name", str(name)]
    return args


def decode(obs) -> str:
    """An observation's text: `json.loads(decode(obs))` in the default mode."""
    return bytes(np.asarray(obs, dtype=np.uint8)).rstrip(b"\0").decode("utf-8", "replace")


def seat_of(agent) -> int:
    if isinstance(agent, int):
        return agent
    if isinstance(agent, str) and agent.startswith("player_") and agent[7:].isdigit():
        return int(agent[7:])
    raise ValueError(f"bots: `{agent}` is not a seat (player_0, player_1, ...)")


class _Core:
    """What the AEC and the parallel environments share: the match, the spaces, the encodings."""

    game = ""
    metadata = {"render_modes": ["rgb_array", "ansi"], "is_parallelizable": True}

    def _setup(self, config):
        config = dict(config)
        self.obs_type = config.get("obs_type", "vector")
        self.action_type = config.get("action_type", "text" if self.obs_type == "text" else "json")
        if self.obs_type not in ("vector", "json", "text"):
            raise ValueError(f"obs_type `{self.obs_type}`: one of vector, json, text")
        if self.obs_type == "json" and self.game == "ants":
            raise ValueError("obs_type `json`: Ants' state JSON is the whole map, not a seat's view; use vector or text")
        if self.action_type not in ("json", "text", "discrete"):
            raise ValueError(f"action_type `{self.action_type}`: one of json, text, discrete")
        if (self.obs_type == "text") != (self.action_type == "text"):
            raise ValueError("obs_type and action_type are both `text` (the protocol) or neither")
        self.render_mode = config.get("render_mode")
        if self.render_mode not in (None, "rgb_array", "ansi"):
            raise ValueError(f"render_mode `{self.render_mode}`: rgb_array, ansi or None")
        self.render_display = config.get("render_display", "gray128x64")
        self.render_scale = int(config.get("render_scale", 1))
        bots = config.get("bots") or {}
        if not isinstance(bots, dict):
            raise ValueError("bots: a dict like {'player_1': 'strong'}")
        self._bots = [(seat_of(a), str(b)) for a, b in bots.items()]
        self._seed = config.get("seed")
        self.config = config
        text = self.obs_type == "text"
        self._m = _native.Match((self.game, flags(config), self._bots), text, int(self._seed or 0))
        # The measure rewards follow (docs/python.md, "Rewards"): "teach" or "score".
        self._m.set_reward(str(config.get("reward", "teach")))
        self.listed = self._m.listed
        if self.action_type == "discrete" and not self.listed:
            raise ValueError(f"action_type `discrete`: {self.game} does not list its actions (docs/python.md)")
        self.possible_agents = [f"player_{s}" for s in self._m.agents]
        if not self.possible_agents:
            raise ValueError("bots: every seat has a built-in bot; leave one for Python")
        self._seat = {a: s for a, s in zip(self.possible_agents, self._m.agents)}
        self.obs_len = int(config.get("obs_len", OBS_LEN))
        if self.obs_type == "vector":
            n = len(self._m.observe_array(self._m.agents[0]))
            box = lambda: spaces.Box(np.iinfo(np.int32).min, np.iinfo(np.int32).max, (n,), np.int32)
        else:
            box = lambda: spaces.Box(0, 255, (self.obs_len,), np.uint8)
        self._obs_spaces = {a: box() for a in self.possible_agents}
        if self.action_type == "discrete":
            act = lambda: spaces.Discrete(self.listed)
        else:
            act = lambda: spaces.Text(ACTION_MAX, min_length=0, charset=string.printable)
        self._act_spaces = {a: act() for a in self.possible_agents}
        self._last_seed = None
        self.metadata = dict(_Core.metadata, name=f"pocket_arena_{self.game}_v0")
        self.agents = []

    # ---- spaces

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    # ---- the match

    def _reset_match(self, seed):
        if seed is None:
            seed = next_seed(self._last_seed) if self._last_seed is not None else int(self._seed or 0)
        self._last_seed = int(seed) % (1 << 64)
        self._m.reset(self._last_seed)
        self._m.advance()
        # Scores the built-in bots' opening moves changed are the start's, not a reward.
        self._m.take_gained()
        self.agents = list(self.possible_agents)

    def _action_text(self, action, seat):
        if action is None:
            return None
        if self.action_type == "discrete":
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
            return self._m.observe_array(seat)
        raw = self._m.observe(seat).encode("utf-8")
        out = np.zeros(self.obs_len, dtype=np.uint8)
        n = min(len(raw), self.obs_len)
        out[:n] = np.frombuffer(raw, dtype=np.uint8, count=n)
        return out

    def _rewards(self):
        """Each agent's change since its last reward of the measure `reward=` names
        (docs/python.md, "Rewards": by default its own measure minus the others' mean; "score":
        the game's own score) plus, when the game ends, its ranking: +1 first, -1 last, shared
        ranks share."""
        gained = self._m.take_gained()
        out = self._m.outcome()
        rewards = {}
        for a, s in self._seat.items():
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
        if self.render_mode == "rgb_array":
            h, w, rgb = self._m.render_rgb(self.render_display, self.render_scale)
            return np.frombuffer(rgb, dtype=np.uint8).reshape(h, w, 3)
        if self.render_mode == "ansi":
            return self._m.render_ansi()
        return None

    def save_replay(self, path):
        """Writes the match so far as `arena play --replay` writes it (`arena verify` reads it)."""
        self._m.save_replay(str(path))

    def state(self, agent=None):
        """The canonical state JSON (as `agent` sees it), parsed."""
        return json.loads(self._m.state_json(self._seat.get(agent, 0)))

    def action_mask(self, agent):
        """Which actions of the game's list (`action_type="discrete"`) the rules take from `agent`
        now: int8, 1 legal; `None` for the games that list none."""
        return self._m.mask(self._seat[agent]) if self.listed else None

    def listed_action(self, agent, i):
        """Action `i` of the game's list, as the canonical action JSON (a Python value)."""
        text = self._m.listed_json(self._seat[agent], int(i))
        return None if text is None else json.loads(text)

    def digest(self) -> int:
        """The core's digest of the whole state (the same on every machine)."""
        return self._m.digest()

    def bot_action(self, agent, bot):
        """The action (canonical JSON) the built-in `bot` would play for `agent` now."""
        return json.loads(self._m.bot_action(self._seat[agent] if isinstance(agent, str) else agent, bot))

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
        self._pending = []
        self._queue = self._movers()
        self._finish_if_done()
        self.agent_selection = self._queue[0] if self._queue else self.agents[0]
        self._deads_step_first()

    def _movers(self):
        movers = set(self._m.to_move())
        return [a for a in self.agents if self._seat[a] in movers and not self.terminations[a] and not self.truncations[a]]

    def _finish_if_done(self):
        done, trunc = self._m.is_over(), self._m.truncated()
        for a in self.agents:
            s = self._seat[a]
            if trunc:
                self.truncations[a] = True
            elif done or not self._m.seat_in(s):
                self.terminations[a] = True

    def observe(self, agent):
        return self._observe_seat(self._seat[agent])

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        text = self._action_text(action, self._seat[agent])
        if text is not None:
            self._pending.append((self._seat[agent], text))
        if agent in self._queue:
            self._queue.remove(agent)
        if not self._queue:
            results = self._m.step(self._pending)
            self._pending = []
            self._m.advance()
            self.rewards = self._rewards()
            self._finish_if_done()
            for a in self.agents:
                self.infos[a] = self._info(self._seat[a], results[self._seat[a]])
            self._queue = self._movers()
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
        return obs, infos

    def step(self, actions):
        movers = set(self._m.to_move())
        given = []
        for a, act in actions.items():
            if a not in self._seat:
                continue
            s = self._seat[a]
            text = self._action_text(act, s)
            if s in movers and text is not None:
                given.append((s, text))
        results = self._m.step(given)
        self._m.advance()
        over, trunc = self._m.is_over(), self._m.truncated()
        rewards = self._rewards()
        obs, terms, truncs, infos = {}, {}, {}, {}
        for a in self.agents:
            s = self._seat[a]
            obs[a] = self._observe_seat(s)
            truncs[a] = trunc
            terms[a] = (over or not self._m.seat_in(s)) and not trunc
            infos[a] = self._info(s, results[s])
        self.agents = [a for a in self.agents if not (terms[a] or truncs[a])]
        return obs, rewards, terms, truncs, infos


CONFIG = """`env(**config)` (AEC, order enforced), `raw_env(**config)` and `parallel_env(**config)`:
`config` is what `arena play <game>` takes (its flags with underscores), plus `bots=`,
`obs_type=`, `action_type=`, `render_mode=`, `render_display=`, `seed=` and `turn_limit=`
(docs/python.md)."""


def module(game, doc=""):
    """The `env`, `raw_env` and `parallel_env` of `game`, documented by `doc` and `CONFIG`."""

    doc = f"{doc}\n\n{CONFIG}"

    raw = type(f"raw_env", (RawEnv,), {"game": game, "__doc__": doc})
    par = type(f"parallel_env", (ParallelEnvBase,), {"game": game, "__doc__": doc})

    def env(**config):
        """The AEC environment, wrapped as PettingZoo wraps its own (order enforced)."""
        from pettingzoo.utils import wrappers

        return wrappers.OrderEnforcingWrapper(raw(**config))

    def parallel_env(**config):
        return par(**config)

    return raw, env, parallel_env
