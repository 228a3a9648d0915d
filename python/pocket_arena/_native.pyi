"""Type stubs of `pocket_arena._native`, the Rust side of the package (python/src/lib.rs,
python/src/vector.rs). The Python modules wrap it: most users need `pocket_arena.<game>.env()`,
`parallel_env()`, `pocket_arena.vector.VectorEnv` and the Gymnasium ids, not this."""

from os import PathLike
from typing import Mapping, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

__version__: str

#: `(game, options, bots)`: the game's folder or command-line name, the match's options (a dict
#: read by name and type: what `arena play <game>`'s flags set, `variant="siege"`, `size="20x20"`,
#: `max_turns=50`, `names=[...]`; an option no one reads is refused), and `(seat, built-in bot)`
#: pairs for the seats Python does not play.
Spec = Tuple[str, Mapping[str, object], Sequence[Tuple[int, str]]]

class Match:
    """One match of any game. `text`: observations and actions in the game's own protocol."""

    def __init__(self, spec: Spec, text: bool = False, seed: int = 0) -> None: ...
    @property
    def game(self) -> str: ...
    @property
    def seats(self) -> int: ...
    @property
    def agents(self) -> list[int]:
        """The seats Python plays."""
    @property
    def names(self) -> list[str]: ...
    @property
    def config(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def listed(self) -> int:
        """How many actions the game's list has (0: the game lists none; Ants: slots x choices)."""
    @property
    def factors(self) -> Optional[Tuple[int, int]]:
        """A factored list's `(slots, choices)` (Ants: `(128, 5)`, a choice per ant slot), else None."""
    def reset(self, seed: int) -> None: ...
    def advance(self) -> None:
        """Plays the built-in bots' steps until a Python seat is to move or the match is done."""
    def to_move(self) -> list[int]: ...
    def seat_in(self, seat: int) -> bool: ...
    def is_over(self) -> bool: ...
    def is_done(self) -> bool:
        """Over, or stopped by the turn limit."""
    def truncated(self) -> bool: ...
    def digest(self) -> int: ...
    def scores(self) -> list[int]: ...
    def take_gained(self) -> list[int]:
        """Each seat's score change since the last call (or the match's start)."""
    def mask(self, seat: int) -> npt.NDArray[np.int8]: ...
    def listed_json(self, seat: int, i: int) -> Optional[str]: ...
    def listed_index(self, seat: int, json: str) -> Optional[int]: ...
    def refused_listed(self, seat: int) -> list[bool]: ...
    def factored_json(self, seat: int, picks: Sequence[int]) -> Optional[str]:
        """The action JSON of one choice per slot (None: not one pick per slot, or a pick past its choices)."""
    def factored_index(self, seat: int, json: str) -> Optional[list[int]]:
        """The choice per slot of an action JSON (None: the factored space cannot say it)."""
    def step_listed(self, picks: Sequence[Tuple[int, int]], policy: Optional[str] = None, actions: Sequence[Tuple[int, str]] = ()) -> list[Tuple[int, list[str]]]:
        """One step: `picks` `[(seat, index)]` played as the list's actions, `actions` `[(seat, text)]` as `step` takes them."""
    def outcome(self) -> Optional[Tuple[list[int], list[int]]]:
        """`(ranks, scores)` once over (rank 0 first)."""
    def observe(self, seat: int) -> str: ...
    def state_json(self, seat: int) -> str: ...
    def observe_array_from_json(self, seat: int) -> Optional[list[int]]: ...
    def observe_array(self, seat: int) -> npt.NDArray[np.int32]: ...
    def step(self, actions: Sequence[Tuple[int, str]]) -> list[Tuple[int, list[str]]]:
        """One step with Python's seats' answers; per seat `(refused, [reasons])`."""
    def step_policy(self, actions: Sequence[Tuple[int, str]], policy: str) -> list[Tuple[int, list[str]]]: ...
    def bot_action(self, seat: int, name: str) -> str:
        """The canonical action JSON the built-in bot `name` plays at `seat` now."""
    def save_replay(self, path: str | PathLike[str]) -> None: ...
    def render_rgb(self, display: str = "gray128x64", scale: int = 1) -> Tuple[int, int, bytes]:
        """`(height, width, rgb bytes)` of the screen of `display`."""
    def render_ansi(self) -> str: ...

class VecMatch:
    """n matches of one game stepped in one call (`pocket_arena.vector.VectorEnv` wraps it)."""

    num_envs: int
    threads: int
    def __init__(self, spec: Spec, n: int, seed: int = 0, observe: bool = True, masks: bool = True) -> None: ...
    def digests(self) -> list[int]: ...
    def seeds(self) -> list[int]: ...
    def reset(self, seed: Optional[int] = None, copy: bool = True) -> tuple: ...
    def step(self, actions=None, policy: Optional[str] = None, picks=None, copy: bool = True) -> tuple: ...
    listed: int
    factors: Optional[Tuple[int, int]]
    def step_factored(self, picks: npt.NDArray[np.int64], policy: Optional[str] = None, copy: bool = True) -> tuple:
        """As `step`, with `picks` `(n, agents, slots)`: one choice per slot of a factored list (Ants)."""

def games() -> dict[str, list[str]]:
    """The games (folder names) and each one's built-in bots."""

def observation(game: str, state: str, seat: int) -> npt.NDArray[np.int32]:
    """A state (canonical state JSON text) read into the vector the environments give `seat`."""

def bench_rust(spec: Spec, policy: str, steps: int, seed: int = 0) -> float: ...
