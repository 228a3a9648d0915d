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
        # The keyword, not a command-line flag: options are read by name and type.
        (ants.env, {"map": None}, "needs map="),
        (ants.env, {"map": "/no/such.map"}, "such.map"),
        (mammut.env, {"obs_type": "pixels"}, "obs_type"),
        (ballroom.env, {"render_mode": "window"}, "render_mode"),
        (ballroom.env, {"action_type": "pixels"}, "action_type"),
        (ballroom.env, {"obs_type": "text", "action_type": "discrete"}, "both"),
        (colorfight.env, {"max_cycles": 0}, "max_cycles"),
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


def test_a_bot_reads_states_as_the_environment_does():
    env = mammut.parallel_env(turn_limit=10, bots={"player_1": "greedy"})
    env.reset(seed=3)
    for _ in range(3):
        st = env.state_json("player_0")
        assert pocket_arena.observation("mammut", st, 0).tolist() == env._m.observe_array(0).tolist()
        env.step({"player_0": env.bot_action("player_0", "cautious")})
    with pytest.raises(ValueError):
        pocket_arena.observation("mammut", "{not json", 0)
    with pytest.raises(ValueError):
        pocket_arena.observation("ants", "{}", 0)


def test_the_starter_bot_plays_a_match(arena):
    import pathlib
    import subprocess
    import sys

    bot = pathlib.Path(__file__).resolve().parents[1] / "examples" / "starter_bot.py"
    out = subprocess.run(
        [arena, "play", "mammut", "--seed", "2", "--bot", f"cmd:{sys.executable} {bot}", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    import json

    report = json.loads(out.stdout)
    assert report["seats"][0]["faults"] == [], report["seats"][0]


def test_an_unknown_option_is_refused_by_name():
    # Options are read by name and type, not turned into command-line flags: a misspelt one is
    # named, whichever game.
    with pytest.raises(ValueError, match="unknown option for colorfight: `sise`"):
        colorfight.parallel_env(sise="12x12")
    with pytest.raises(ValueError, match="unknown options for mammut: `bot_memry`, `variant`"):
        mammut.parallel_env(variant="duel", bot_memry=5)


def test_an_option_of_the_wrong_type_says_what_it_expected():
    with pytest.raises(ValueError, match="ticks: expected a whole number"):
        colorfight.parallel_env(ticks="200")
    with pytest.raises(ValueError, match="size: `12by12` is not two whole numbers"):
        colorfight.parallel_env(size="12by12")
    with pytest.raises(ValueError, match="variant: `melee` is not one of duel, siege"):
        tower_defense.parallel_env(variant="melee")


@pytest.mark.parametrize("keyword,controller", [("bot_memory", "memory"), ("bot_procs", "pids")])
def test_a_cap_only_a_cgroup_holds_is_refused_by_its_keyword(tmp_path, keyword, controller):
    """Without a cgroup to write (a user other than root, none delegated), `sandbox=True` with a
    memory or process cap is refused, and the message names the keyword, not the command line's
    `--bot-memory`: as root the check runs as `nobody`."""
    import os
    import subprocess
    import sys

    code = (
        "import pocket_arena.tower_defense as td\n"
        f"e = td.parallel_env(sandbox=True, {keyword}=64)\n"
        "e.reset(seed=1)\n"
    )
    cmd = [sys.executable, "-c", code]
    if os.geteuid() == 0:
        cmd = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", *cmd]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert out.returncode != 0, out.stdout + out.stderr
    assert f"sandbox: {keyword} needs a {controller} cgroup" in out.stderr, out.stderr
    assert "--bot-" not in out.stderr, out.stderr
