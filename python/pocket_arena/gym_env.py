"""Single-agent Gymnasium environments: one seat (`player_0`) played by the learner, every other
seat by a built-in bot, registered as `pocket_arena/<Game>-v0` when `pocket_arena` is imported:

    import gymnasium as gym
    import pocket_arena  # registers the ids
    env = gym.make("pocket_arena/TowerDefenseDuel-v0", opponent="random")

`opponent=` names the built-in bot of the other seats (the game's first, its default, when not
given; `pocket_arena.GAMES` lists them); every other keyword is the game's config (docs/python.md).
The observation, action and reward are the parallel environment's for `player_0`: the action
space is `Discrete` (Ants: `MultiDiscrete`, a choice per ant slot) and `action_masks()` gives the
legal ones (as sb3-contrib's MaskablePPO asks: a bool vector, Ants' slots one after the other).
"""

from __future__ import annotations

import importlib

import gymnasium as gym
import numpy as np

#: The registered ids: `(game, config)` each.
ENVS = {
    "TowerDefenseDuel": ("tower_defense", {"variant": "duel"}),
    "TowerDefenseSiege": ("tower_defense", {"variant": "siege"}),
    "ColorFightConquest": ("colorfight", {"variant": "conquest"}),
    "ColorFightSkirmish": ("colorfight", {"variant": "skirmish"}),
    "BallroomBlitz": ("ballroom", {}),
    "Mammut": ("mammut", {}),
    "Ants": ("ants", {}),
}


class SingleAgentEnv(gym.Env):
    """`game`'s parallel environment with `player_0` the learner and the other seats the built-in
    bot `opponent`."""

    def __init__(self, game: str, opponent: str | None = None, render_mode: str | None = None, **config):
        from . import GAMES

        if game not in GAMES:
            raise ValueError(f"game `{game}`: one of {', '.join(GAMES)}")
        self.game = game
        self.opponent = opponent or GAMES[game][0]
        mod = importlib.import_module(f"pocket_arena.{game}")
        probe = mod.parallel_env(**config)
        seats = probe.unwrapped._m.seats
        bots = {f"player_{s}": self.opponent for s in range(1, seats)}
        self._env = mod.parallel_env(**config, bots=bots, render_mode=render_mode)
        self.agent = "player_0"
        self.observation_space = self._env.observation_space(self.agent)
        self.action_space = self._env.action_space(self.agent)
        self.render_mode = render_mode
        self.metadata = dict(self._env.metadata)
        self._infos = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        obs, infos = self._env.reset(seed=seed, options=options)
        self._infos = infos
        return obs[self.agent], infos[self.agent]

    def step(self, action):
        obs, rewards, terms, truncs, infos = self._env.step({self.agent: action})
        self._infos = infos
        info = infos[self.agent]
        return obs[self.agent], float(rewards[self.agent]), bool(terms[self.agent]), bool(truncs[self.agent]), info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the list now (bool)."""
        mask = self._env.action_mask(self.agent)
        if mask is None:
            raise NotImplementedError(f"{self.game} does not list its actions")
        return np.asarray(mask, dtype=bool)

    def bot_action(self, bot: str | None = None, as_index: bool | None = None):
        """The built-in `bot`'s move for the learner's seat now: an action of the space (Ants: an
        int64 array) where the space holds it (`as_index`: as the parallel env's `bot_action`)."""
        return self._env.bot_action(self.agent, bot or self.opponent, as_index=as_index)

    def render(self):
        return self._env.render()

    def close(self):
        self._env.close()


def register_all():
    """Registers every id of `ENVS` under the `pocket_arena/` namespace (once)."""
    for name, (game, config) in ENVS.items():
        env_id = f"pocket_arena/{name}-v0"
        if env_id in gym.registry:
            continue
        gym.register(id=env_id, entry_point="pocket_arena.gym_env:SingleAgentEnv", kwargs=dict(config, game=game), disable_env_checker=True)
