"""The official Ants games (../shared/golden/ants) driven from Python in text mode, each player's
orders read off the replay's move strings: the same game (scores, length), the same replay
content, and for the game that kept its bots' input, every byte each bot was sent."""

import json
from collections import defaultdict

import pytest

import pocket_arena
from conftest import GOLDEN

GAMES = sorted((GOLDEN / "ants").glob("*/replay.json")) if (GOLDEN / "ants").exists() else []
STEPS = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}


def orders(replay):
    """`{turn: {player: [order lines]}}`: an ant's k-th move character is its order on turn
    spawn + k + 1 (the golden data's README); `-` is no order."""
    d = replay["replaydata"]
    rows, cols = d["map"]["rows"], d["map"]["cols"]
    out = defaultdict(lambda: defaultdict(list))
    for row, col, spawn, _end, owner, moves in d["ants"]:
        for k, c in enumerate(moves):
            if c in STEPS:
                out[spawn + k + 1][owner].append(f"o {row} {col} {c}")
                dr, dc = STEPS[c]
                row, col = (row + dr) % rows, (col + dc) % cols
    return out


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.parent.name)
def test_golden_orders_replay_the_official_game(path, tmp_path):
    replay = json.loads(path.read_text())
    d = replay["replaydata"]
    env = pocket_arena.ants.parallel_env(
        map=str(path.parent / "map.map"),
        turns=d["turns"],
        engine_seed=d["engine_seed"],
        player_seed=d["player_seed"],
        loadtime=d["loadtime"],
        turntime=d["turntime"],
        obs_type="text",
    )
    obs, _ = env.reset()
    sent = defaultdict(list)
    for a, o in obs.items():
        sent[a].append(pocket_arena.decode(o))
    by_turn = orders(replay)
    while env.agents:
        turn = env._m.turn + 1
        acts = {a: "\n".join(by_turn[turn][int(a[7:])] + ["go"]) for a in env.agents}
        obs, _, _, _, infos = env.step(acts)
        for a, o in obs.items():
            sent[a].append(pocket_arena.decode(o))
        for a, info in infos.items():
            assert info["refused"] == 0, (turn, a, info["why"])
    ranks, scores = env._m.outcome()
    assert scores == replay["score"]
    assert env._m.turn == replay["game_length"]
    ours = tmp_path / "replay.json"
    env.save_replay(ours)
    mine = json.loads(ours.read_text())
    for key in ("ants", "hills", "scores", "hive_history", "cutoff", "winning_turn", "ranking_turn"):
        assert mine["replaydata"][key] == d[key], key
    for seat in range(d["players"]):
        log = path.parent / f"bot{seat}.input"
        if log.exists():
            text = "\n".join(t for t in sent[f"player_{seat}"] if t) + "\n"
            assert text == log.read_text()
