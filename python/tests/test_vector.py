"""VectorEnv: batched arrays, the same matches as single environments seeded as a tournament
seeds them, automatic reset with the next index's seed, threads or not the same."""

import numpy as np
import pytest

import pocket_arena
from pocket_arena.vector import VectorEnv
from conftest import configs


def single_digests(game, config, seed, policy, steps, bots):
    mod = getattr(pocket_arena, game)
    env = mod.parallel_env(**config, bots=bots)
    _, infos = env.reset(seed=seed)
    for _ in range(steps):
        env.step({a: env.bot_action(a, policy) for a in env.agents if infos[a]["to_move"]})
    return env.digest()


@pytest.mark.parametrize("game,config", configs())
def test_vector_matches_are_single_matches(game, config):
    bots = pocket_arena.GAMES[game]
    v = VectorEnv(game, 3, seed=7, bots={"player_1": bots[-1]}, **config)
    obs, _ = v.reset()
    assert obs.shape[:2] == (3, len(v.agents)) and obs.dtype == np.int32
    for _ in range(4):
        obs, rewards, terms, truncs, infos = v.step(policy=bots[0])
    assert rewards.shape == terms.shape == infos["refused"].shape == (3, len(v.agents))
    seeds = v.seeds()
    assert len(set(seeds)) == 3
    # Python's seat plays the policy bot only when it is to move: for sequential games the single
    # environment's loop below advances the same way (built-in seats move inside).
    if game in ("tower_defense", "colorfight", "ballroom"):
        for i, s in enumerate(seeds):
            assert v.digests()[i] == single_digests(game, config, s, bots[0], 4, {"player_1": bots[-1]})


def test_automatic_reset_takes_the_next_seed():
    v = VectorEnv("tower_defense", 2, seed=5, turn_limit=3, bots={"player_1": "strong"})
    v.reset()
    first = v.seeds()
    for _ in range(2):
        _, _, _, truncs, _ = v.step(policy="random")
        assert not truncs.any()
    _, _, _, truncs, _ = v.step(policy="random")
    assert truncs.all()
    assert v.seeds() != first and len(set(v.seeds() + first)) == 4


def test_threads_do_not_change_the_matches():
    a = VectorEnv("colorfight", 160, seed=3, size="10x10", bots={"player_1": "random"})
    b = VectorEnv("colorfight", 160, seed=3, size="10x10", bots={"player_1": "random"}, threads=1)
    a.reset(), b.reset()
    for _ in range(5):
        oa = a.step(policy="expander")[0]
        ob = b.step(policy="expander")[0]
        assert np.array_equal(oa, ob)
    assert a.digests() == b.digests()


def test_bad_vector_input_is_a_value_error():
    with pytest.raises(ValueError):
        VectorEnv("tower_defense", 0)
    with pytest.raises(ValueError):
        VectorEnv("chess", 2)
    v = VectorEnv("tower_defense", 2, bots={"player_1": "strong"})
    v.reset()
    with pytest.raises(ValueError):
        v.step(actions=[{}])
    with pytest.raises(ValueError):
        v.step(policy="nobody")
    obs, *_ , infos = v.step(actions=[{"player_0": {"action": "build", "pos": -3}}, {"player_0": "??"}])
    assert infos["refused"].shape == (2, 1)


@pytest.mark.parametrize("variant", ["duel", "siege"])
def test_tower_defense_direct_observation_is_the_json_one(variant):
    env = pocket_arena.tower_defense.parallel_env(variant=variant, turn_limit=200, bots={"player_1": "random"})
    _, infos = env.reset(seed=4)
    checked = 0
    while env.agents:
        for a in env.agents:
            s = int(a[7:])
            assert env._m.observe_array(s).tolist() == env._m.observe_array_from_json(s)
            checked += 1
        env.step({a: env.bot_action(a, "strong") for a in env.agents})
    assert checked >= 100


@pytest.mark.parametrize("variant", ["conquest", "skirmish"])
def test_colorfight_direct_observation_is_the_json_one(variant):
    env = pocket_arena.colorfight.parallel_env(variant=variant, size="12x12", turn_limit=120, bots={"player_1": "expander"})
    env.reset(seed=4)
    checked = 0
    while env.agents:
        for a in env.agents:
            s = int(a[7:])
            assert env._m.observe_array(s).tolist() == env._m.observe_array_from_json(s)
            checked += 1
        env.step({a: env.bot_action(a, "strategist") for a in env.agents})
    assert checked >= 100
