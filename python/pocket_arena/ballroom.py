"""`pocket_arena.ballroom`: `env`, `raw_env` and `parallel_env` (docs/python.md).

{CONFIG}
"""

from ._base import CONFIG, ParallelEnvBase, RawEnv, metadata, wrap

GAME = "ballroom"
__doc__ = __doc__.replace("{CONFIG}", CONFIG)


class raw_env(RawEnv):
    __doc__ = f"{GAME}: the AEC environment, unwrapped.\n\n{CONFIG}"
    game = GAME
    metadata = metadata(GAME)


class parallel_env(ParallelEnvBase):
    __doc__ = f"{GAME}: the parallel environment.\n\n{CONFIG}"
    game = GAME
    metadata = metadata(GAME)


def env(**config) -> raw_env:
    """The AEC environment, wrapped as PettingZoo wraps its own (order enforced)."""
    return wrap(raw_env(**config))


__all__ = ["GAME", "env", "raw_env", "parallel_env"]
