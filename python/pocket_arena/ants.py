"""`pocket_arena.ants`: the game as PettingZoo environments (see docs/python.md).

`env(**config)` (AEC, order enforced), `raw_env(**config)` and `parallel_env(**config)`; `config`
is what `arena play ants` takes (its flags with underscores), plus `bots=`, `obs_type=`,
`action_type=`, `render_mode=`, `render_display=`, `seed=` and `turn_limit=`.
"""

from ._base import module

GAME = "ants"
raw_env, env, parallel_env = module(GAME, __doc__)

__all__ = ["GAME", "env", "raw_env", "parallel_env"]
