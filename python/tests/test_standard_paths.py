"""The paths an RL user takes: environments that pickle and deep-copy (the copy is the same match
and plays on alike), `reset()` without a seed drawing a match of its own, the single-agent
Gymnasium envs (registered ids, Gymnasium's env checker, `action_masks()`), `bot_action` as an
index, and SuperSuit's vector env over the parallel env."""

import copy
import importlib
import pickle

import gymnasium as gym
import numpy as np
import pytest

import pocket_arena
from conftest import configs

CASES = [pytest.param(g, c, id=f"{g}-{'-'.join(str(v) for k, v in c.items() if k != 'map') or 'default'}") for g, c in configs()]


def module(game):
    return importlib.import_module(f"pocket_arena.{game}")


def play(env, steps, rng):
    """`steps` parallel steps of random legal (listed) or passing actions."""
    for _ in range(steps):
        if not env.agents:
            break
        acts = {}
        for a in env.agents:
            mask = env.action_mask(a)
            acts[a] = int(rng.choice(np.flatnonzero(mask))) if mask is not None and mask.any() else None
        env.step(acts)


@pytest.mark.parametrize("game,config", CASES)
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_copy_is_the_same_match_and_plays_on_alike(game, config, how):
    env = module(game).parallel_env(**config, turn_limit=60)
    env.reset(seed=7)
    play(env, 12, np.random.default_rng(1))
    env.bot_action(env.agents[0], pocket_arena.GAMES[game][0])
    other = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
    assert type(other) is type(env)
    assert other.digest() == env.digest() and other.agents == env.agents
    # Both play on alike, the built-in bots' state included.
    a = env.bot_action(env.agents[0], pocket_arena.GAMES[game][0], as_index=False)
    b = other.bot_action(other.agents[0], pocket_arena.GAMES[game][0], as_index=False)
    assert a == b
    play(env, 8, np.random.default_rng(2))
    play(other, 8, np.random.default_rng(2))
    assert other.digest() == env.digest()


def test_the_aec_env_pickles_mid_cycle():
    env = pocket_arena.tower_defense.env(turn_limit=40)
    env.reset(seed=3)
    env.step(0)  # player_0 acted, player_1 not yet: the step is pending
    other = pickle.loads(pickle.dumps(env))
    assert other.agent_selection == env.agent_selection == "player_1"
    for e in (env, other):
        e.step(1)
    assert other.unwrapped.digest() == env.unwrapped.digest()


def test_reset_without_a_seed_draws_a_match_of_its_own():
    envs = [pocket_arena.colorfight.parallel_env(size="12x12") for _ in range(4)]
    for e in envs:
        e.reset()
    assert len({e._last_seed for e in envs}) == 4
    # Explicit seeds stay exact; a reset without one after a seeded one follows it (reproducible).
    a, b = envs[0], envs[1]
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.digest() == b.digest()
    a.reset()
    b.reset()
    assert a._last_seed == b._last_seed == pocket_arena._base.next_seed(5)
    # `seed=` in the config is the first seedless reset's.
    c = pocket_arena.colorfight.parallel_env(size="12x12", seed=5)
    c.reset()
    assert c._last_seed == 5


GYM_IDS = sorted(pocket_arena.gym_env.ENVS)


@pytest.mark.parametrize("name", GYM_IDS)
def test_the_registered_gymnasium_env_passes_the_checker(name):
    from gymnasium.utils.env_checker import check_env

    env = gym.make(f"pocket_arena/{name}-v0", turn_limit=30)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    inner = env.unwrapped
    steps, done = 0, False
    while not done and steps < 200:
        mask = inner.action_masks()
        assert mask.dtype == bool and mask.any()
        # The built-in bot's move, an index of the space (Ants: a choice per ant slot) where the
        # space holds it, on odd steps; else MaskablePPO's way, a legal pick of the flat mask.
        action = inner.bot_action(as_index=True) if steps % 2 else None
        if action is None:
            action = env.action_space.sample(mask.astype(np.int8))
        assert env.action_space.contains(action)
        obs, reward, term, trunc, info = env.step(action)
        assert isinstance(reward, float)
        done = term or trunc
        steps += 1
    assert done


def test_the_opponent_is_the_named_bot():
    env = gym.make("pocket_arena/TowerDefenseDuel-v0", opponent="random")
    assert env.unwrapped.opponent == "random"
    assert env.unwrapped._env.possible_agents == ["player_0"]
    with pytest.raises(ValueError, match="unknown bot"):
        gym.make("pocket_arena/TowerDefenseDuel-v0", opponent="nobody")


def test_bot_action_is_an_index_where_the_list_holds_it():
    env = pocket_arena.tower_defense.parallel_env(turn_limit=40)
    assert env.action_type == "discrete"
    _, infos = env.reset(seed=2)
    other = pocket_arena.tower_defense.parallel_env(turn_limit=40, action_type="json")
    other.reset(seed=2)
    indexed = 0
    while env.agents:
        acts, json_acts = {}, {}
        for a in env.agents:
            i = env.bot_action(a, "strong", as_index=True)
            j = other.bot_action(a, "strong")
            if i is not None:
                indexed += 1
                assert env.listed_action(a, i) == j
                assert env.action_mask(a)[i] == 1
            acts[a] = i if i is not None else j
            json_acts[a] = j
        env.step(acts)
        other.step(json_acts)
        assert env.digest() == other.digest()
    assert indexed > 0


@pytest.mark.parametrize("num_cpus", [0, 2])
def test_supersuit_concat_vec_envs(num_cpus):
    """SuperSuit's Markov vector env over the parallel env, concatenated (num_cpus=2: two worker
    processes, the env pickled to them), stepped past the matches' ends (automatic resets)."""
    ss = pytest.importorskip("supersuit")
    env = pocket_arena.tower_defense.parallel_env(turn_limit=20)
    vec = ss.pettingzoo_env_to_vec_env_v1(env)
    vec = ss.concat_vec_envs_v1(vec, 4, num_cpus=num_cpus, base_class="gymnasium")
    try:
        obs, infos = vec.reset(seed=1)
        assert obs.shape == (8,) + env.observation_space("player_0").shape
        rng = np.random.default_rng(0)
        ends = 0
        for _ in range(50):
            obs, rewards, terms, truncs, infos = vec.step(rng.integers(0, env.listed, size=8))
            assert obs.shape[0] == rewards.shape[0] == 8
            ends += int(np.sum(terms | truncs))
        # 50 steps of 20-turn matches: every env ended (and was reset) at least twice.
        assert ends >= 16
    finally:
        vec.close()


@pytest.mark.parametrize("game,config", CASES)
def test_observations_stay_in_their_documented_bounds(game, config):
    """Whole matches (built-in bots' moves on every seat, up to 300 turns): every observation lies
    in the space's finite bounds, and the index map names every number of it."""
    env = module(game).parallel_env(**config, turn_limit=300)
    space = env.observation_space("player_0")
    assert np.all(space.low > np.iinfo(np.int32).min) or game in ("colorfight", "mammut")
    assert len(env.obs_fields) == space.shape[0] and len(set(env.obs_fields)) == space.shape[0]
    assert not env.obs_fields[0].startswith("x0")
    bots = pocket_arena.GAMES[game]
    _, infos = env.reset(seed=4)
    steps = 0
    while env.agents:
        acts = {a: env.bot_action(a, bots[i % len(bots)]) for i, a in enumerate(env.agents) if infos[a]["to_move"]}
        obs, _, _, _, infos = env.step(acts)
        for a, o in obs.items():
            assert space.contains(o), [(env.obs_fields[i], int(o[i])) for i in np.flatnonzero((o < space.low) | (o > space.high))]
        steps += 1
    assert steps > 10
