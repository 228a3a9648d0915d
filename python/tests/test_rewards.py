"""Rewards: each step the score change (the game's own score, `info["score"]`), and when the game
ends its ranking; summed over a match they are the score gained plus the ranking term."""

import importlib

import pytest

import pocket_arena
from conftest import TUTORIAL1, configs


def play(game, config, seed):
    """A seeded match, Python's seat 0 playing the game's last built-in bot against its first;
    returns (first info, last info, sum of seat 0's rewards, the ranking term, steps)."""
    mod = importlib.import_module(f"pocket_arena.{game}")
    bots = pocket_arena.GAMES[game]
    env = mod.parallel_env(**config, bots={"player_1": bots[0]})
    _, infos = env.reset(seed=seed)
    first, total, steps = infos["player_0"], 0.0, 0
    while "player_0" in env.agents:
        acts = {a: env.bot_action(a, bots[-1]) for a in env.agents if infos[a]["to_move"]}
        _, rewards, _, _, infos = env.step(acts)
        total += rewards["player_0"]
        steps += 1
    last = infos["player_0"]
    rank_term = 1.0 - 2.0 * last["rank"] / (env._m.seats - 1) if "rank" in last else 0.0
    return first, last, total, rank_term, steps


@pytest.mark.parametrize("game,config", configs())
def test_step_rewards_add_up_to_the_score_gained(game, config):
    first, last, total, rank_term, steps = play(game, dict(config, turn_limit=40), seed=3)
    assert steps > 0
    assert total == pytest.approx(last["score"] - first["score"] + rank_term)


ENDING = [
    ("mammut", {}),
    ("colorfight", {"size": "10x10", "ticks": 60}),
    ("tower_defense", {"variant": "siege"}),
] + ([("ants", {"map": str(TUTORIAL1), "turns": 40})] if TUTORIAL1.exists() else [])


@pytest.mark.parametrize("game,config", ENDING)
def test_a_finished_match_adds_its_ranking(game, config):
    first, last, total, rank_term, steps = play(game, config, seed=5)
    assert "rank" in last and steps > 1
    assert total == pytest.approx(last["score"] - first["score"] + rank_term)


def test_vector_rewards_are_the_single_envs():
    """VectorEnv's rewards: the same score changes, match for match."""
    from pocket_arena.vector import VectorEnv

    v = VectorEnv("colorfight", 2, seed=9, size="10x10", bots={"player_1": "expander"})
    v.reset()
    singles = []
    for s in v.seeds():
        env = pocket_arena.colorfight.parallel_env(size="10x10", bots={"player_1": "expander"})
        env.reset(seed=s)
        singles.append(env)
    nonzero = 0
    for _ in range(50):
        _, rewards, *_ = v.step(policy="strategist")
        for i, env in enumerate(singles):
            _, r, *_ = env.step({"player_0": env.bot_action("player_0", "strategist")})
            assert rewards[i, 0] == r["player_0"]
            nonzero += r["player_0"] != 0
    assert nonzero > 0
