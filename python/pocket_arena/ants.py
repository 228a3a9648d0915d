"""`pocket_arena.ants`: `env`, `raw_env` and `parallel_env` (docs/python.md).

{CONFIG}
"""

from importlib import resources

from ._base import CONFIG, ParallelEnvBase, RawEnv, metadata, wrap

GAME = "ants"

#: The maps shipped in the package (`map=` when not given: the 2-player one): our own, symmetric, random
#: water (python/pocket_arena/maps; the official maps are not in the package).
MAPS = {p.name: str(p) for p in sorted(resources.files("pocket_arena").joinpath("maps").iterdir(), key=lambda p: p.name) if p.name.endswith(".map")}
DEFAULTS = {"map": MAPS["open_2p_32x32.map"]}
__doc__ = __doc__.replace("{CONFIG}", CONFIG)


class raw_env(RawEnv):
    __doc__ = f"{GAME}: the AEC environment, unwrapped.\n\n{CONFIG}"
    game = GAME
    metadata = metadata(GAME)
    global_state = False
    defaults = DEFAULTS


class parallel_env(ParallelEnvBase):
    __doc__ = f"{GAME}: the parallel environment.\n\n{CONFIG}"
    game = GAME
    metadata = metadata(GAME)
    global_state = False
    defaults = DEFAULTS


def env(**config) -> raw_env:
    """The AEC environment, wrapped as PettingZoo wraps its own (order enforced)."""
    return wrap(raw_env(**config))


__all__ = ["GAME", "MAPS", "env", "raw_env", "parallel_env"]
