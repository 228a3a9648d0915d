"""Each game's default observation (`obs_type="vector"`) as named fields: the index map and the
finite bounds of its `Box` (docs/python.md, "Observations").

A field is `(name, low, high)`; a block of fields repeats (per player, per path space, per cell).
The bounds are what the encoder (python/src/obs.rs) can write: small codes and flags their exact
range, counters the range of the core's type (u8 0..255, u16 0..65535, u32 and u64 saturated to
0..2^31-1, i8 -128..127), signed scores the whole int32 range. The tests hold every observation
of matches of every game and variant inside them.
"""

from __future__ import annotations

import numpy as np

I32 = (-(2**31), 2**31 - 1)
U32 = (0, 2**31 - 1)  # u32 / u64, saturated to i32
U16 = (0, 65535)
U8 = (0, 255)
I8 = (-128, 127)
FLAG = (0, 1)


def _td(n):
    space = [
        ("tower_type", 0, 3),  # 0 none, 1 turret, 2 stunner, 3 bomb
        ("tower_level", *U32),
        ("tower_power", *U16),
        ("tower_range", *U16),
        ("tower_cooldown", *U16),
        ("invaders", 0, 1),  # the board has one invader a space at most
        ("invader_hp", *U32),
        ("invader_maxhp", *U32),
        ("invader_defense", *U16),
        ("invader_stun_res", *U16),
        ("invader_stun_time", *U16),
    ]
    head = [("seat", 0, 1), ("turn", *U32)]
    if n == 2 + 10 + 2 * 100 * len(space):
        for p in range(2):
            head += [(f"p{p}_{k}", *U32) for k in ("gold", "life", "income", "boost_max", "inflation")]
        paths = 2
    else:
        head += [("invader_gold", *U32), ("invader_income", *U32), ("invader_boost_max", *U32), ("defender_gold", *U32), ("defender_life", *U32)]
        paths = 1
    out = list(head)
    for b in range(paths):
        for pos in range(100):
            out += [(f"path{b}_{pos}_{k}", lo, hi) for k, lo, hi in space]
    return out


def _ballroom(n):
    player = [
        ("class", 0, 3),
        ("x", *I8),
        ("y", *I8),
        ("active", *FLAG),
        ("item", 0, 12),
        ("gold", *U16),
        ("score", *U16),
        ("effect_timer", *I8),
        ("health", *I8),
        ("shielded", *FLAG),
        ("item_in_use", 0, 12),
        # A class's base stat plus its item's bonus (small constants of the core, all >= 0).
        ("damage", 0, 127),
        ("speed", 0, 127),
        ("range", 0, 127),
        ("max_health", 0, 127),
    ]
    players = (n - 1) // len(player)
    out = [("seat", 0, max(players - 1, 0))]
    for p in range(players):
        out += [(f"p{p}_{k}", lo, hi) for k, lo, hi in player]
    return out


def _colorfight(n, players):
    per_player = [
        ("gold_x100", *I32),
        ("energy_x100", *I32),
        ("cells", *U16),
        ("bases", *U8),
        ("defeated", *FLAG),
        ("busy_until", *U32),
    ]
    cell = [
        ("owner", 0, 8),  # seat + 1, 0 none
        ("kind", 0, 3),
        ("building", 0, 3),
        ("taken_at", *U32),
        ("attacker", 0, 8),
        ("done_at", *U32),
    ]
    out = [("seat", 0, 7), ("tick", *U32), ("width", *U32), ("height", *U32)]
    for p in range(players):
        out += [(f"p{p}_{k}", lo, hi) for k, lo, hi in per_player]
    cells = (n - len(out)) // len(cell)
    for i in range(cells):
        out += [(f"cell{i}_{k}", lo, hi) for k, lo, hi in cell]
    return out


def _mammut(n):
    out = [("seat", 0, 4), ("round", *U8), ("actions", *U16), ("to_move", 0, 5)]
    for s in range(5):
        out += [(f"p{s}_id", 0, 5), (f"p{s}_points", *I32), (f"p{s}_furs", *U16), (f"p{s}_animals", 0, 127)]
    for t in range(32):
        out += [(f"tile{t}_where", 0, 6), (f"tile{t}_side", 0, 15)]
    return out


def _ants(n):
    cells = (n - 2) // 7
    planes = [("water", 0, 1), ("food", 0, 1), ("own_ant", 0, 1), ("enemy_ant", 0, 9), ("own_hill", 0, 1), ("enemy_hill", 0, 9), ("dead_ant", 0, 10)]
    out = [("seat", 0, 9), ("turn", *U32)]
    for name, lo, hi in planes:
        out += [(f"{name}_{i}", lo, hi) for i in range(cells)]
    return out


def fields(game: str, n: int, players: int) -> list[tuple[str, int, int]]:
    """The `n` fields of `game`'s default observation (`players`: the match's seats)."""
    make = {"tower_defense": _td, "ballroom": _ballroom, "mammut": _mammut, "ants": _ants}.get(game)
    out = _colorfight(n, players) if game == "colorfight" else make(n) if make else []
    if len(out) != n:
        # A layout this table does not know: the int32 range, named by index.
        return [(f"x{i}", *I32) for i in range(n)]
    return out


def bounds(game: str, n: int, players: int):
    """`(low, high)` int32 vectors of `game`'s observation of length `n`."""
    f = fields(game, n, players)
    low = np.array([lo for _, lo, _ in f], dtype=np.int32)
    high = np.array([hi for _, _, hi in f], dtype=np.int32)
    return low, high
