"""PettingZoo's own test suite (pettingzoo.test), every test for every game and variant: api_test
(each observation type, and with the mask in the observation), parallel_api_test (the parallel env
and, where the metadata says so, `aec_to_parallel` of the AEC env), seed_test, parallel_seed_test,
max_cycles_test, render_test, state_test (the games with a global state) and
performance_benchmark."""

import importlib
import sys
import types

import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    performance_benchmark,
    render_test,
    seed_test,
    state_test,
)
from pettingzoo.utils.conversions import aec_to_parallel

from conftest import configs

CASES = [pytest.param(g, c, id=f"{g}-{'-'.join(str(v) for k, v in c.items() if k != 'map') or 'default'}") for g, c in configs()]
# Ants also on the map shipped in the package (its default).
CASES.append(pytest.param("ants", {"turns": 60}, id="ants-packaged-map"))


def module(game):
    return importlib.import_module(f"pocket_arena.{game}")


def short(config, turns=30):
    return dict(config, turn_limit=turns)


@pytest.mark.parametrize("game,config", CASES)
@pytest.mark.parametrize("mode", ["vector", "json", "text"])
def test_api(game, config, mode):
    if game == "ants" and mode == "json":
        # Ants' state JSON is the whole map, not a seat's view: refused, with the reason.
        with pytest.raises(ValueError, match="whole map"):
            module(game).env(**short(config), obs_type=mode)
        return
    api_test(module(game).env(**short(config), obs_type=mode), num_cycles=40)


@pytest.mark.parametrize("game,config", CASES)
def test_api_with_the_mask_in_the_observation(game, config):
    mod = module(game)
    if not mod.parallel_env(**config).listed:
        with pytest.raises(ValueError, match="mask"):
            mod.env(**config, mask_in_obs=True)
        return
    env = mod.env(**short(config), mask_in_obs=True)
    api_test(env, num_cycles=40)
    obs, *_ = env.last()
    assert set(obs) == {"observation", "action_mask"}
    assert obs["action_mask"].dtype.name == "int8" and obs["action_mask"].any()


@pytest.mark.parametrize("game,config", CASES)
def test_parallel_api(game, config):
    parallel_api_test(module(game).parallel_env(**short(config)), num_cycles=40)


@pytest.mark.parametrize("game,config", CASES)
def test_aec_to_parallel_where_the_metadata_says_so(game, config):
    env = module(game).env(**short(config))
    if env.metadata["is_parallelizable"]:
        parallel_api_test(aec_to_parallel(env), num_cycles=40)
    else:
        # Sequential (Mammut): one seat moves at a time, so the AEC env selects only the seat to
        # move and the conversion, which steps every agent in turn, cannot drive it.
        assert game == "mammut"


@pytest.mark.parametrize("game,config", CASES)
def test_seed(game, config):
    seed_test(lambda: module(game).env(**short(config)), num_cycles=40)


@pytest.mark.parametrize("game,config", CASES)
def test_parallel_seed(game, config):
    parallel_seed_test(lambda: module(game).parallel_env(**short(config)), num_cycles=40)


def seeded(env):
    """`env` with `reset()` on seed 0 and each agent's action space seeded: max_cycles_test resets
    without a seed and samples unseeded actions, and a random play can end a match inside its 4
    cycles (Ants on the packaged map: one ant stepping onto its sister ant kills both, the seat
    has none left and the match ends on turn 3; seen in CI once in about 60 runs), so unseeded
    the test would pass or fail by chance."""
    reset = env.reset

    def reset_seeded(seed=None, options=None):
        out = reset(seed=0 if seed is None else seed, options=options)
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(i)
        return out

    env.reset = reset_seeded
    return env


def as_module(game, config):
    """`game`'s module with `config` filled in, as max_cycles_test takes a module, its envs
    `seeded`."""
    mod = module(game)
    return types.SimpleNamespace(
        env=lambda **kw: seeded(mod.env(**config, **kw)),
        parallel_env=lambda **kw: seeded(mod.parallel_env(**config, **kw)),
    )


@pytest.mark.parametrize("game,config", CASES)
def test_max_cycles(game, config):
    if game != "mammut":
        max_cycles_test(as_module(game, config))
        return
    # Mammut is sequential and a seat's turn is 1 or 2 actions (rules/mammut.md), so its AEC env
    # selects a seat once per action and the seats act unequally often: max_cycles_test's AEC half
    # (every agent selected exactly max_cycles + 1 times) assumes one action a cycle. Its
    # parallel half holds as written; the AEC env's cycles are counted as documented (every
    # live agent has acted max_cycles times, the last to get there ends it).
    mod = as_module(game, config)
    par = mod.parallel_env(max_cycles=4)
    par.reset()
    steps = 0
    while par.agents:
        par.step({a: par.action_space(a).sample() for a in par.agents})
        steps += 1
    assert steps == 4
    env = mod.env(max_cycles=4)
    env.reset()
    counts = dict.fromkeys(env.possible_agents, 0)
    for a in env.agent_iter():
        counts[a] += 1
        _, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else env.action_space(a).sample())
    # Each agent: its actions plus its one dead step.
    assert min(counts.values()) - 1 == 4 and all(c - 1 >= 4 for c in counts.values())


@pytest.mark.parametrize("game,config", CASES)
def test_render(game, config):
    mod = module(game)
    render_test(lambda **kw: mod.env(**short(config), **kw))


@pytest.mark.parametrize("game,config", CASES)
def test_state(game, config):
    mod = module(game)
    env, par = mod.env(**short(config)), mod.parallel_env(**short(config))
    if not env.unwrapped.global_state:
        assert game in ("ants", "mammut")
        with pytest.raises(NotImplementedError):
            env.unwrapped.state()
        return
    state_test(env, par, num_cycles=20)


@pytest.mark.parametrize("game,config", CASES)
def test_performance_benchmark(game, config, monkeypatch, capsys):
    """Run on a clock of our own (0.01 s a look, so 500 looks to its 5 s) instead of 5 s of wall
    time each: the benchmark's loop and resets, without the wait."""
    # The package's `performance_benchmark` name is the function; its module is this.
    pb = sys.modules[performance_benchmark.__module__]

    now = [0.0]

    def tick():
        now[0] += 0.01
        return now[0]

    monkeypatch.setattr(pb.time, "time", tick)
    performance_benchmark(module(game).env(**short(config)))
    out = capsys.readouterr().out
    assert "turns per second" in out and "Finished performance benchmark" in out
