"""Rewards: each step the change of the measure `reward=` names, and when the game ends its
ranking; summed over a match they are the measure gained plus the ranking term. `reward="score"`:
the game's own score (`info["score"]`); `"teach"` (the default): the seat's own measure minus the
others' mean (Tower Defense: lives; ColorFight: cells, plus energy and gold mines in Conquest)."""

import importlib

import numpy as np

import pytest

import pocket_arena
from conftest import TUTORIAL1, configs


def play(game, config, seed, each=None):
    """A seeded match, Python's seat 0 playing the game's last built-in bot against its first;
    returns (first info, last info, sum of seat 0's rewards, the ranking term, steps, the
    measure's change). `each(obs, reward)` sees seat 0's observation and reward every step (the
    first observation with reward `None`)."""
    mod = importlib.import_module(f"pocket_arena.{game}")
    bots = pocket_arena.GAMES[game]
    env = mod.parallel_env(**config, bots={"player_1": bots[0]})
    obs, infos = env.reset(seed=seed)
    first, total, steps = infos["player_0"], 0.0, 0
    measured = env._m.measures()[0]
    if each is not None:
        each(obs["player_0"], None)
    while "player_0" in env.agents:
        acts = {a: env.bot_action(a, bots[-1]) for a in env.agents if infos[a]["to_move"]}
        obs, rewards, _, _, infos = env.step(acts)
        total += rewards["player_0"]
        steps += 1
        if each is not None:
            each(obs["player_0"], rewards["player_0"])
    last = infos["player_0"]
    rank_term = 1.0 - 2.0 * last["rank"] / (env._m.seats - 1) if "rank" in last else 0.0
    return first, last, total, rank_term, steps, env._m.measures()[0] - measured


@pytest.mark.parametrize("game,config", configs())
def test_score_rewards_add_up_to_the_score_gained(game, config):
    first, last, total, rank_term, steps, _ = play(game, dict(config, turn_limit=40, reward="score"), seed=3)
    assert steps > 0
    assert total == pytest.approx(last["score"] - first["score"] + rank_term)


@pytest.mark.parametrize("game,config", configs())
def test_teaching_rewards_add_up_to_the_measure_gained(game, config):
    _, _, total, rank_term, steps, gained = play(game, dict(config, turn_limit=40), seed=3)
    assert steps > 0
    assert total == pytest.approx(gained + rank_term)


def td_measure(obs, seat):
    """Tower Defense Duel's measure of `seat` read off an observation: its life (`[gold, life,
    ...]` per player from index 2) less the invaders on the path it defends (board `1 - seat`;
    per space 11 numbers, the invader count at 5), each `(pos + 1) / 100` of a life."""
    life = int(obs[2 + 5 * seat + 1])
    board = obs[12 + (1 - seat) * 1100:12 + (2 - seat) * 1100].reshape(100, 11)
    return life - float(((np.arange(100) + 1) * (board[:, 5] > 0)).sum()) / 100


def test_tower_defense_duel_rewards_damage_dealt_and_taken():
    """Duel's reward: the change of the seat's measure minus the opponent's: a life the
    opponent loses is +1, one of one's own -1, and on the way an invader's walk counts as the
    part of a life it has walked (killed by one's towers, it gives it back)."""
    seen = []
    # `strong` (Python's seat) against `random`: long enough for invaders to get through.
    config = {"variant": "duel", "turn_limit": 1500}
    _, last, total, rank_term, steps, _ = play(
        "tower_defense", config, 4, lambda o, r: seen.append((td_measure(o, 0) - td_measure(o, 1), int(o[3]), int(o[8]), r))
    )
    assert len(seen) == steps + 1
    fractional = 0
    for k, ((before, _, _, _), (m, _, _, r)) in enumerate(zip(seen, seen[1:])):
        end = rank_term if k == steps - 1 else 0.0
        assert r == pytest.approx(m - before + end)
        fractional += r != round(r)
    dealt, taken = 100 - seen[-1][2], 100 - seen[-1][1]
    assert dealt > 0, "the opponent lost no life: the test shows nothing"
    assert fractional > 0, "no invader walked: the test shows nothing"
    assert total == pytest.approx(seen[-1][0] - seen[0][0] + rank_term)
    # The game's score (`reward="score"`): one's own life alone.
    with_score = play("tower_defense", dict(config, reward="score"), 4)
    assert with_score[2] == pytest.approx(-taken + with_score[3])


def test_colorfight_skirmish_rewards_territory_won_and_lost():
    """Skirmish's measure is the cell difference (observation: per player `[gold, energy, cells,
    ...]` from index 4)."""
    env = pocket_arena.colorfight.parallel_env(variant="skirmish", size="10x10", ticks=200, bots={"player_1": "random"})
    obs, _ = env.reset(seed=6)
    cells = lambda o: int(o[4 + 2]) - int(o[4 + 6 + 2])
    before, moved = cells(obs["player_0"]), 0
    while "player_0" in env.agents:
        obs, rewards, terms, truncs, infos = env.step({"player_0": env.bot_action("player_0", "expander")})
        now = cells(obs["player_0"])
        end = 1.0 - 2.0 * infos["player_0"]["rank"] if "rank" in infos["player_0"] else 0.0
        assert rewards["player_0"] == pytest.approx(now - before + end)
        moved += now != before
        before = now
    assert moved > 0


def test_unknown_reward_is_a_value_error():
    from pocket_arena.vector import VectorEnv

    with pytest.raises(ValueError, match="teach"):
        pocket_arena.tower_defense.parallel_env(reward="life")
    with pytest.raises(ValueError, match="teach"):
        VectorEnv("tower_defense", 2, reward="life")


ENDING = [
    ("mammut", {}),
    ("colorfight", {"size": "10x10", "ticks": 60}),
    ("tower_defense", {"variant": "siege"}),
] + ([("ants", {"map": str(TUTORIAL1), "turns": 40})] if TUTORIAL1.exists() else [])


@pytest.mark.parametrize("reward", ["score", "teach"])
@pytest.mark.parametrize("game,config", ENDING)
def test_a_finished_match_adds_its_ranking(game, config, reward):
    first, last, total, rank_term, steps, gained = play(game, dict(config, reward=reward), seed=5)
    assert "rank" in last and steps > 1 and rank_term != 0
    if reward == "score":
        gained = last["score"] - first["score"]
    assert total == pytest.approx(gained + rank_term)


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
    # Both sides win their first cells in step: the difference moves after about 130 ticks.
    for _ in range(200):
        _, rewards, *_ = v.step(policy="strategist")
        for i, env in enumerate(singles):
            _, r, *_ = env.step({"player_0": env.bot_action("player_0", "strategist")})
            assert rewards[i, 0] == r["player_0"]
            nonzero += r["player_0"] != 0
    assert nonzero > 0


@pytest.mark.parametrize("reward", ["teach", "score"])
def test_vector_ranks_and_rewards_at_the_end(reward):
    """VectorEnv's `infos["rank"]`: every seat's rank in the rows whose match ended, -1 elsewhere;
    the step's reward holds the ranking term; `reward=` as the single environment's."""
    from pocket_arena.vector import VectorEnv

    config = {"variant": "skirmish", "size": "10x10", "ticks": 30}
    v = VectorEnv("colorfight", 3, seed=2, bots={"player_1": "random"}, reward=reward, **config)
    v.reset()
    singles = []
    for s in v.seeds():
        env = pocket_arena.colorfight.parallel_env(**config, reward=reward, bots={"player_1": "random"})
        env.reset(seed=s)
        singles.append(env)
    ended = 0
    for _ in range(40):
        _, rewards, terms, truncs, infos = v.step(policy="expander")
        assert infos["rank"].shape == (3, 2)
        for i, env in enumerate(singles):
            if not env.agents:
                continue
            _, r, t, _, inf = env.step({"player_0": env.bot_action("player_0", "expander")})
            assert rewards[i, 0] == pytest.approx(r["player_0"])
            if t["player_0"]:
                ended += 1
                assert terms[i, 0]
                assert infos["rank"][i, 0] == inf["player_0"]["rank"]
                assert sorted(infos["rank"][i]) in ([0, 1], [0, 0])
            else:
                assert (infos["rank"][i] == -1).all()
    assert ended == 3
