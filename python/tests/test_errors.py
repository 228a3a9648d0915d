"""Bad configs are ValueErrors that say what is wrong; bad actions are refusals in info."""

import pytest

import pocket_arena
from pocket_arena import ants, ballroom, colorfight, mammut, tower_defense


def test_games_and_bots_are_listed():
    assert set(pocket_arena.GAMES) == {"tower_defense", "ballroom", "ants", "colorfight", "mammut"}
    assert all(pocket_arena.GAMES[g] for g in pocket_arena.GAMES)


@pytest.mark.parametrize(
    "make,config,words",
    [
        (tower_defense.env, {"variant": "chess"}, "chess"),
        (colorfight.parallel_env, {"size": "big"}, "big"),
        (tower_defense.env, {"bots": {"player_1": "nobody"}}, "unknown bot"),
        (tower_defense.env, {"bots": {"player_7": "random"}}, "player_7"),
        (tower_defense.env, {"bots": {"player_0": "random", "player_1": "random"}}, "leave one"),
        (tower_defense.env, {"bots": {"player_1": "cmd:python3 x.py"}}, "built-in"),
        (ants.env, {}, "--map"),
        (ants.env, {"map": "/no/such.map"}, "such.map"),
        (mammut.env, {"obs_type": "pixels"}, "obs_type"),
        (ballroom.env, {"render_mode": "human"}, "render_mode"),
        (ants.env, {"map": "MAP", "obs_type": "json"}, "whole map"),
    ],
)
def test_bad_configs_say_what(make, config, words):
    if config.get("map") == "MAP":
        from conftest import TUTORIAL1

        config = dict(config, map=str(TUTORIAL1))
    with pytest.raises(ValueError) as e:
        make(**config)
    assert words in str(e.value)


def test_bad_display_is_a_value_error():
    env = tower_defense.parallel_env(render_mode="rgb_array", render_display="vga")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="render_display"):
        env.render()


@pytest.mark.parametrize("garbage", ["", "{", "[1,2,3]", '{"build": [99999, -5]}', "\x00\xff", 12, None, {"x": [1]}])
def test_garbage_actions_are_refusals(garbage):
    env = tower_defense.parallel_env(turn_limit=5, bots={"player_1": "strong"})
    env.reset(seed=2)
    obs, rewards, terms, truncs, infos = env.step({"player_0": garbage})
    assert isinstance(infos["player_0"]["refused"], int)
    assert env._m.turn == 1


def test_text_mode_refuses_bad_protocol_lines():
    env = tower_defense.parallel_env(turn_limit=5, obs_type="text", bots={"player_1": "strong"})
    obs, _ = env.reset(seed=2)
    assert pocket_arena._base.decode(obs["player_0"]).startswith("{")
    _, _, _, _, infos = env.step({"player_0": "this is not the protocol"})
    assert infos["player_0"]["why"], infos
