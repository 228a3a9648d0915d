"""The same match from Python and from `arena play`; a match played from Python verifies; the
rendered array is `arena render`'s PNG; the Ants golden replays re-played from Python."""

import importlib
import json
import pathlib
import subprocess

import numpy as np
import pytest

import pocket_arena
from conftest import GOLDEN, TUTORIAL1, configs


def arena_flags(config):
    """`arena play <game>`'s flags for the same match as `config` (the environments' options are
    read by name and type; the command line spells each as a flag): `variant="siege"` is
    `--variant siege`, `turn_limit=25` is `--max-turns 25`, `True` the bare flag."""
    args = []
    for key, value in pocket_arena._base.options(config).items():
        flag = "--" + {"names": "name"}.get(key, key).replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, list):
            for v in value:
                args += [flag, str(v)]
        elif value is not False:
            args += [flag, str(value)]
    return args


def play_with_bots(mod, config, bots, seed, turns):
    """Every seat played from Python with the moves of built-in bots (seeded as `arena play`
    seeds them): the match `arena play --bot ... --seed` plays."""
    names = list(bots)
    env = mod.parallel_env(**config, turn_limit=turns, names=names)
    _, infos = env.reset(seed=seed)
    digests = [env.digest()]
    while env.agents:
        # A bot is asked when its seat is to move, as at a table.
        acts = {a: env.bot_action(a, bots[int(a[7:])]) for a in env.agents if infos[a]["to_move"]}
        _, _, _, _, infos = env.step(acts)
        digests.append(env.digest())
    return env, digests


@pytest.mark.parametrize("game,config", configs())
def test_same_match_as_arena_play(game, config, arena, tmp_path):
    mod = importlib.import_module(f"pocket_arena.{game}")
    bots = pocket_arena.GAMES[game]
    env = mod.parallel_env(**config)
    n = env._m.seats
    lineup = [bots[i % len(bots)] for i in range(n)]
    env, digests = play_with_bots(mod, config, lineup, seed=11, turns=25)
    ours = tmp_path / "python.replay"
    env.save_replay(ours)
    theirs = tmp_path / "arena.replay"
    flags = arena_flags(dict(config, turn_limit=25))
    cmd = [arena, "play", game.replace("_", "-"), "--seed", "11", "--replay", str(theirs), "--json"]
    for b in lineup:
        cmd += ["--bot", b]
    report = json.loads(subprocess.run(cmd + flags, check=True, capture_output=True, text=True).stdout)
    assert report["turns"] == env._m.turn
    assert ours.read_bytes() == theirs.read_bytes()
    assert len(set(digests)) > 1




@pytest.mark.parametrize("game,config", configs())
def test_a_python_match_verifies(game, config, arena, tmp_path):
    mod = importlib.import_module(f"pocket_arena.{game}")
    # Ants: a whole (short) game; the others stopped at 30 turns and verified with --partial.
    limit = {"turns": 30} if game == "ants" else {"turn_limit": 30}
    env = mod.parallel_env(**dict(config, **limit), bots={"player_1": pocket_arena.GAMES[game][0]})
    _, infos = env.reset(seed=5)
    rng = np.random.default_rng(0)
    while env.agents:
        acts = {}
        for a in [a for a in env.agents if infos[a]["to_move"]]:
            # Half the steps the bot's move, half a pass: a real match, refusals included.
            acts[a] = env.bot_action(a, pocket_arena.GAMES[game][-1]) if rng.random() < 0.5 else None
        _, _, _, _, infos = env.step(acts)
    path = tmp_path / f"match.replay"
    env.save_replay(path)
    # Stopped by the turn limit: verified as a match stopped early (`--partial`).
    # A Ballroom log does not say its ruleset: verify is told it, as play was.
    extra = ["--ruleset", config["ruleset"]] if "ruleset" in config else []
    cmd = [arena, "verify", game.replace("_", "-"), str(path), "--partial"] + extra
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("display", ["gray128x64", "oled128x64"])
def test_rgb_array_matches_the_png(display, arena, tmp_path):
    env = pocket_arena.tower_defense.parallel_env(turn_limit=12, names=["strong", "random"], render_mode="rgb_array", render_display=display)
    env.reset(seed=9)
    while env.agents:
        env.step({a: env.bot_action(a, ["strong", "random"][int(a[7:])]) for a in env.agents})
    frame = env.render()
    replay = tmp_path / "m.trace"
    env.save_replay(replay)
    png = tmp_path / "m.png"
    subprocess.run([arena, "render", str(replay), "--out", str(png), "--display", display, "--scale", "1"], check=True, capture_output=True)
    assert frame.shape[2] == 3 and frame.dtype == np.uint8
    assert np.array_equal(frame, read_png(png))


def read_png(path):
    """A PNG's RGB pixels with the standard library and numpy (8-bit RGB, no interlace: what
    `arena render` writes)."""
    import struct
    import zlib

    data = pathlib.Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour == 2
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = w * 3
    out = np.zeros((h, stride), dtype=np.int32)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)], dtype=np.uint8).astype(np.int32)
        cur = np.zeros(stride, dtype=np.int32)
        for x in range(stride):
            a = cur[x - 3] if x >= 3 else 0
            b = prev[x]
            c = prev[x - 3] if x >= 3 else 0
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[x] = (line[x] + p) & 0xFF
        out[y] = cur
        prev = cur
    return out.reshape(h, w, 3).astype(np.uint8)


def test_ansi_is_the_watch_screen():
    env = pocket_arena.mammut.parallel_env(render_mode="ansi", turn_limit=3, bots={"player_1": "greedy"})
    env.reset(seed=1)
    text = env.render()
    assert text.count("\n") == 32 and "\x1b[38;5;" in text


