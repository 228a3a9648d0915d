"""Where the tests find the repository's data and the `arena` binary."""

import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = pathlib.Path(os.environ.get("ARENA_GOLDEN", ROOT.parent / "shared" / "golden"))
TUTORIAL1 = GOLDEN / "ants" / "maps" / "tutorial1.map"


def arena_binary():
    """The `arena` binary: $ARENA_BIN, else the newer of target/release and target/debug (an
    old release build beside a fresh debug one would play yesterday's rules), else PATH."""
    env = os.environ.get("ARENA_BIN")
    if env:
        return env
    built = [p for p in (ROOT / "target" / k / "arena" for k in ("release", "debug")) if p.exists()]
    if built:
        return str(max(built, key=lambda p: p.stat().st_mtime))
    return shutil.which("arena")


@pytest.fixture(scope="session")
def arena():
    path = arena_binary()
    if not path:
        pytest.skip("no arena binary (cargo build -p arena-host, or set ARENA_BIN)")
    return path


#: Every game and variant, as configs of short matches.
def configs():
    out = [
        ("tower_defense", {"variant": "duel"}),
        ("tower_defense", {"variant": "siege"}),
        ("ballroom", {"ruleset": "engine"}),
        ("ballroom", {"ruleset": "as-written"}),
        ("colorfight", {"variant": "conquest", "size": "12x12"}),
        ("colorfight", {"variant": "skirmish", "size": "12x12"}),
        ("mammut", {}),
    ]
    if TUTORIAL1.exists():
        out.append(("ants", {"map": str(TUTORIAL1), "turns": 60}))
    return out
