"""Action lists and masks (`action_type="discrete"`): the mask is what the core takes, action
for action, checked by playing each listed action on a copy of the match; PettingZoo's API test
samples from the mask; every game lists its actions."""

import importlib

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

import pocket_arena
from conftest import configs

LISTED = [
    ("tower_defense", {"variant": "duel"}),
    ("tower_defense", {"variant": "siege"}),
    ("colorfight", {"variant": "conquest", "size": "8x8"}),
    ("colorfight", {"variant": "skirmish", "size": "8x8"}),
    ("mammut", {}),
    ("ballroom", {"ruleset": "engine"}),
    ("ballroom", {"ruleset": "as-written"}),
    ("ants", {"turns": 60}),
]


@pytest.mark.parametrize("game,config", LISTED)
def test_the_mask_is_what_the_core_takes(game, config):
    mod = importlib.import_module(f"pocket_arena.{game}")
    bots = pocket_arena.GAMES[game]
    env = mod.parallel_env(**config, turn_limit=60, bots={"player_1": bots[0]}, action_type="discrete")
    _, infos = env.reset(seed=7)
    checked, legal_seen = 0, set()
    while env.agents:
        for a in env.agents:
            if not infos[a]["to_move"]:
                continue
            mask = infos[a]["action_mask"]
            refused = np.array(env._m.refused_listed(int(a[7:])))
            assert mask.dtype == np.int8 and mask.shape == (env.listed,)
            assert np.array_equal(mask == 1, ~refused), np.flatnonzero((mask == 1) != ~refused)[:10]
            legal_seen.add(mask.tobytes())
            checked += 1
        # A legal pick from the mask, taken by index: never refused.
        acts = {a: int(np.flatnonzero(infos[a]["action_mask"])[-1]) for a in env.agents if infos[a]["to_move"]}
        _, _, _, _, infos = env.step(acts)
        assert all(i["refused"] == 0 for i in infos.values())
    assert checked >= 10 and len(legal_seen) > 1


@pytest.mark.parametrize("game,config", LISTED)
def test_discrete_api(game, config):
    mod = importlib.import_module(f"pocket_arena.{game}")
    api_test(mod.env(**config, turn_limit=30, action_type="discrete"), num_cycles=40)
    parallel_api_test(mod.parallel_env(**config, turn_limit=30, action_type="discrete"), num_cycles=40)


def test_listed_actions_read_back():
    env = pocket_arena.tower_defense.parallel_env(bots={"player_1": "random"})
    env.reset(seed=1)
    assert env.listed_action("player_0", 0) is None
    assert env.listed_action("player_0", 5) == {"action": "build", "type": "turret", "pos": 0}
    assert env.listed_action("player_0", env.listed) is None
    # An index past the list is refused and said so, never raised.
    env2 = pocket_arena.tower_defense.parallel_env(bots={"player_1": "random"}, action_type="discrete")
    env2.reset(seed=1)
    _, _, _, _, infos = env2.step({"player_0": env2.listed + 3})
    assert infos["player_0"]["refused"] == 1


@pytest.mark.parametrize("game,config", configs())
def test_every_game_lists_its_actions(game, config):
    """Discrete actions are every game's default; Ants' is a choice per ant slot."""
    mod = importlib.import_module(f"pocket_arena.{game}")
    env = mod.parallel_env(**config)
    assert env.action_type == "discrete" and env.listed > 0
    space = env.action_space("player_0")
    if game == "ants":
        assert list(space.nvec) == [5] * 128 and env.listed == 640
    else:
        assert space.n == env.listed
    env.reset(seed=0)
    assert env.action_mask("player_0").shape == (env.listed,)


def test_a_refused_pick_is_that_actions_refusal_not_what_its_json_reads_as():
    """Tower Defense Siege's invader reads any JSON it is sent as a spawn (the rules, Decision 7).
    A build picked from the list by the invader is the build, which the mask refuses and the
    rules refuse: the match goes on as after a pass. The same build sent as JSON is a spawn."""

    def siege():
        env = pocket_arena.tower_defense.parallel_env(variant="siege", bots={"player_1": "random"})
        _, infos = env.reset(seed=3)
        assert infos["player_0"]["to_move"]
        return env, infos["player_0"]["action_mask"]

    build = 5 + 50  # a turret at space 50
    (picked, mask), (passed, _), (sent, _) = siege(), siege(), siege()
    assert mask[build] == 0
    info = picked.step({"player_0": build})[4]["player_0"]
    assert info["refused"] == 1 and any("other side" in w for w in info["why"]), info
    passed.step({"player_0": 0})
    assert picked.digest() == passed.digest()
    info = sent.step({"player_0": picked.listed_action("player_0", build)})[4]["player_0"]
    assert any("spawn" in w for w in info["why"]), info


def test_a_pick_beside_a_json_answer_is_still_the_lists_action():
    """Both Siege seats Python's, the invader picking a build from the list and the defender
    answering JSON in the same step: the pick is the build (refused, the invader's side), not its
    JSON read as a spawn."""
    env = pocket_arena.tower_defense.parallel_env(variant="siege", bots={})
    _, infos = env.reset(seed=3)
    assert infos["player_0"]["to_move"] and infos["player_1"]["to_move"]
    build = next(i for i in range(5, 305) if infos["player_1"]["action_mask"][i])
    infos = env.step({"player_0": 5 + 50, "player_1": env.listed_action("player_1", build)})[4]
    assert infos["player_0"]["refused"] == 1, infos["player_0"]
    assert any("other side" in w for w in infos["player_0"]["why"]), infos["player_0"]
    assert infos["player_1"]["refused"] == 0, infos["player_1"]
