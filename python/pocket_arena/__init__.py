"""pocket_arena: Pocket Arena's five games as PettingZoo environments over the exact Rust core.

One module per game (`tower_defense`, `ballroom`, `ants`, `colorfight`, `mammut`), each with
`env`, `raw_env` and `parallel_env`; `pocket_arena.vector.VectorEnv` steps many matches at once;
importing the package registers single-agent Gymnasium envs (`pocket_arena/TowerDefenseDuel-v0`
..., `pocket_arena.gym_env`).
"""

from . import _native
from ._native import Match, __version__
from ._base import decode
from . import ants, ballroom, colorfight, mammut, tower_defense  # noqa: E402
from . import gym_env  # noqa: E402

gym_env.register_all()

def observation(game, state, seat):
    """`state` (the canonical state JSON a bot receives: a dict or its text) as the vector the
    environments give `seat`: a bot written in Python reads its states as a trained agent does."""
    import json

    text = state if isinstance(state, str) else json.dumps(state)
    return _native.observation(game, text, int(seat))


#: Each game and its built-in bots (the first is the default opponent).
GAMES = dict(_native.games())

__all__ = ["GAMES", "Match", "decode", "observation", "ants", "ballroom", "colorfight", "mammut", "tower_defense", "gym_env", "__version__"]
