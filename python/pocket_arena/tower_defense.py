"""`pocket_arena.tower_defense`: `env`, `raw_env` and `parallel_env` as `_base.module` makes them."""

from ._base import module

GAME = "tower_defense"
raw_env, env, parallel_env = module(GAME, __doc__)

__all__ = ["GAME", "env", "raw_env", "parallel_env"]
