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
    # Seed 6 gives two matches seeds of 2^63 or more: Ants' engine seed is signed and its RNG
    # takes the magnitude, so a match's seed must be the one asked for, not the plan's.
    v = VectorEnv(game, 3, seed=6, bots={"player_1": bots[-1]}, **config)
    obs, _ = v.reset()
    assert obs.shape[:2] == (3, len(v.agents)) and obs.dtype == np.int32
    for _ in range(4):
        obs, rewards, terms, truncs, infos = v.step(policy=bots[0])
    assert rewards.shape == terms.shape == infos["refused"].shape == (3, len(v.agents))
    seeds = v.seeds()
    assert len(set(seeds)) == 3 and any(s >= 2**63 for s in seeds)
    # Python's seat plays the policy bot only when it is to move: for sequential games the single
    # environment's loop below advances the same way (built-in seats move inside).
    if game in ("tower_defense", "colorfight", "ballroom", "ants"):
        for i, s in enumerate(seeds):
            assert v.digests()[i] == single_digests(game, config, s, bots[0], 4, {"player_1": bots[-1]})


LEAN = [
    ("tower_defense", {"variant": "duel"}, ["legal", "refused", "past"]),
    ("tower_defense", {"variant": "siege"}, ["legal", "refused", "past"]),
    ("colorfight", {"variant": "skirmish", "size": "10x10"}, ["legal", "refused", "past"]),
]


@pytest.mark.parametrize("game,config,given", LEAN)
def test_vector_steps_are_the_single_envs_refusals_and_all(game, config, given):
    """VectorEnv steps a match without text seats by a shorter path than the environments'
    (`step_lean`: no reasons, no standings): the same matches, rewards and refusals as single
    environments given the same picks (legal ones, ones the rules refuse, ones past the list)
    and the same policy, step after step."""
    bots = {"player_1": "random"}
    v = VectorEnv(game, 3, seed=9, bots=bots, turn_limit=1000, **config)
    _, infos = v.reset()
    singles = []
    for s in v.seeds():
        env = getattr(pocket_arena, game).parallel_env(**config, bots=bots, turn_limit=1000)
        env.reset(seed=s)
        singles.append(env)
    rng = np.random.default_rng(5)
    kinds = set()
    # A Siege seat is not asked every turn: it is given a pick only when it is to move.
    moving = [True] * len(singles)
    for step in range(80):
        if step % 4 == 0:
            _, rewards, terms, truncs, infos = v.step(policy="random")
            single = [e.step({"player_0": e.bot_action("player_0", "random")}) for e in singles]
        else:
            picks = []
            for m, asked in zip(infos["action_mask"], moving):
                kind = rng.choice(given, p=[0.6] + [0.4 / (len(given) - 1)] * (len(given) - 1))
                pool = np.flatnonzero(m[0] if kind == "legal" else 1 - m[0])
                pick = v.listed + 3 if kind == "past" or len(pool) == 0 else rng.choice(pool)
                kinds.add(kind if asked else "none")
                picks.append([pick if asked else -1])
            picks = np.array(picks)
            _, rewards, terms, truncs, infos = v.step(picks)
            single = [
                e.step({"player_0": int(p[0])} if p[0] >= 0 else {}) for e, p in zip(singles, picks)
            ]
        assert not (terms | truncs).any()
        moving = [inf["player_0"]["to_move"] for _, _, _, _, inf in single]
        for i, (_, r, _, _, inf) in enumerate(single):
            assert infos["refused"][i, 0] == inf["player_0"]["refused"], (step, i)
            assert rewards[i, 0] == np.float32(r["player_0"]), (step, i)
        assert v.digests() == [e.digest() for e in singles], step
    assert set(given) <= kinds


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


@pytest.mark.parametrize("variant", ["duel", "siege"])
def test_the_masks_look_ahead_leaves_the_matches_as_they_are(variant):
    """Tower Defense's masks judge the turn's first half, played once and finished by the step:
    with masks, and with picks (whose spawns read the look-ahead too), the matches are those
    played without, state for state, over matches that end and start again."""
    opts = dict(seed=11, variant=variant, turn_limit=400, bots={"player_1": "random"}, copy=False)
    ahead = VectorEnv("tower_defense", 6, **opts)
    plain = VectorEnv("tower_defense", 6, masks=False, **opts)
    _, infos = ahead.reset()
    plain.reset()
    rng = np.random.default_rng(3)
    ended = 0
    for step in range(500):
        if step % 2:
            masks = infos["action_mask"]
            picks = np.array([[rng.choice(np.flatnonzero(m[0]))] for m in masks])
            _, _, terms, truncs, infos = ahead.step(picks)
            _, _, terms2, truncs2, _ = plain.step(picks)
            assert infos["refused"].sum() == 0
        else:
            _, _, terms, truncs, infos = ahead.step(policy="random")
            _, _, terms2, truncs2, _ = plain.step(policy="random")
        assert ahead.digests() == plain.digests(), step
        assert np.array_equal(terms, terms2) and np.array_equal(truncs, truncs2)
        ended += int((terms | truncs).sum())
    assert ended >= 6


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


DIRECT = [
    ("tower_defense", {"variant": "duel"}, "random", "strong"),
    ("tower_defense", {"variant": "siege"}, "random", "strong"),
    ("colorfight", {"variant": "conquest", "size": "12x12"}, "expander", "strategist"),
    ("colorfight", {"variant": "skirmish", "size": "12x12"}, "expander", "strategist"),
    ("ballroom", {"ruleset": "engine"}, "random", "random"),
    ("mammut", {}, "random", "greedy"),
]


@pytest.mark.parametrize("game,config,opponent,policy", DIRECT)
def test_direct_observation_is_the_json_one(game, config, opponent, policy):
    """The environments read observations off the state; a bot reads them off the state JSON
    (`pocket_arena.observation`): the same numbers, step after step."""
    mod = getattr(pocket_arena, game)
    env = mod.parallel_env(**config, turn_limit=120, bots={"player_1": opponent})
    _, infos = env.reset(seed=4)
    checked, changed, last = 0, 0, None
    while env.agents:
        for a in env.agents:
            s = int(a[7:])
            direct = env._m.observe_array(s).tolist()
            assert direct == env._m.observe_array_from_json(s)
            assert direct == pocket_arena.observation(game, env._m.state_json(s), s).tolist()
            changed += direct != last
            last = direct
            checked += 1
        env.step({a: env.bot_action(a, policy) for a in env.agents if infos[a]["to_move"]})
    assert checked >= 60 and changed >= 20


def test_vector_masks_and_picks():
    """Masks come batched, and picking a legal action from them by index is never refused."""
    v = VectorEnv("tower_defense", 4, seed=2, bots={"player_1": "random"})
    obs, infos = v.reset()
    masks = infos["action_mask"]
    assert masks.shape == (4, 1, v.listed) and masks.dtype == np.int8
    rng = np.random.default_rng(1)
    refused = 0
    for _ in range(60):
        picks = np.array([[rng.choice(np.flatnonzero(m[0]))] for m in masks])
        obs, rewards, terms, truncs, infos = v.step(picks)
        masks = infos["action_mask"]
        refused += int(infos["refused"].sum())
    assert refused == 0
    obs, rewards, terms, truncs, infos = v.step(np.full((4, 1), v.listed + 5))
    assert (infos["refused"] == 1).all()


def test_vector_buffers_without_copy_hold_the_single_envs_observations():
    """Without `copy` the arrays are read-only views of the vector's own, the same objects every
    step (a step writes only what changed in the observations: Python cannot write into them),
    and the rows are the single environments'."""
    v = VectorEnv("tower_defense", 3, seed=1, copy=False, bots={"player_1": "random"})
    obs, _ = v.reset()
    singles = []
    for s in v.seeds():
        env = pocket_arena.tower_defense.parallel_env(bots={"player_1": "random"})
        env.reset(seed=s)
        singles.append(env)
    for _ in range(80):
        with pytest.raises(ValueError):
            obs[:] = 7
        again = v.step(policy="strong")[0]
        assert again is obs
        for i, env in enumerate(singles):
            o, *_ = env.step({"player_0": env.bot_action("player_0", "strong")})
            assert np.array_equal(obs[i, 0], o["player_0"])
    assert len({bytes(obs[i, 0]) for i in range(3)}) == 3


def test_int16_observations_are_the_int32_ones_saturated():
    """`dtype=np.int16`: the same observations, each number saturated to int16's bounds (Tower
    Defense: gold passes them in long matches)."""
    a = VectorEnv("tower_defense", 3, seed=4, bots={"player_1": "random"})
    b = VectorEnv("tower_defense", 3, seed=4, bots={"player_1": "random"}, dtype=np.int16)
    assert b.observation_space.dtype == np.int16
    oa, _ = a.reset()
    ob, _ = b.reset()
    assert ob.dtype == np.int16
    for _ in range(300):
        assert np.array_equal(np.clip(oa, -32768, 32767), ob)
        oa = a.step(policy="strong")[0]
        ob = b.step(policy="strong")[0]
    with pytest.raises(ValueError, match="int16"):
        VectorEnv("tower_defense", 2, dtype=np.float32)
    with pytest.raises(ValueError):
        VectorEnv("tower_defense", 2, dtype="no such type")


@pytest.mark.parametrize("variant", ["duel", "siege"])
@pytest.mark.parametrize("dtype", [np.int32, np.int16])
@pytest.mark.parametrize("copy", [False, True])
def test_observations_written_in_part_equal_the_whole_write(variant, dtype, copy):
    """A step writes only what changed in each observation row since its last write (Tower
    Defense: the spaces occupied then or now); the rows equal every match's observation written
    whole, step after step, over random moves and picks, matches that end and start again
    (turn limit) and resets."""
    v = VectorEnv("tower_defense", 8, seed=5, variant=variant, turn_limit=60,
                  bots={"player_1": "random"}, copy=copy, dtype=dtype)
    obs, infos = v.reset()
    rng = np.random.default_rng(7)
    ended = 0
    for step in range(400):
        assert np.array_equal(obs, v._v.observations_whole()), step
        if step == 150:
            obs, infos = v.reset(seed=9)
            continue
        if step % 3 == 0:
            masks = infos["action_mask"]
            picks = np.array([[rng.choice(np.flatnonzero(m[0]))] for m in masks])
            obs, _, terms, truncs, infos = v.step(picks)
        else:
            obs, _, terms, truncs, infos = v.step(policy="random")
        ended += int((terms | truncs).sum())
    assert ended >= 16
    assert (obs[:, :, 2:] != 0).any()


@pytest.mark.parametrize("variant", ["duel", "siege"])
@pytest.mark.parametrize("copy", [False, True])
def test_masks_written_in_part_equal_the_whole_write(variant, copy):
    """A step writes only what changed in each mask row since its last write (Tower Defense:
    the spaces whose tower came or went, unless whether a build or an upgrade is paid for
    changed); the rows equal every match's mask written whole, step after step, over random
    moves and picks, matches that end and start again (turn limit) and resets, both seats."""
    v = VectorEnv("tower_defense", 8, seed=5, variant=variant, turn_limit=60, copy=copy)
    obs, infos = v.reset()
    rng = np.random.default_rng(7)
    ended = partial = 0
    for step in range(400):
        masks = infos["action_mask"]
        whole = v._v.masks_whole()
        assert np.array_equal(masks, whole), step
        if step == 150:
            obs, infos = v.reset(seed=9)
            continue
        if step % 3 == 0:
            picks = np.array([[rng.choice(np.flatnonzero(m[k])) for k in range(m.shape[0])]
                              for m in masks])
            obs, _, terms, truncs, infos = v.step(picks)
        else:
            obs, _, terms, truncs, infos = v.step(policy="random")
        ended += int((terms | truncs).sum())
        partial += int((whole[:, :, 1 + 4:] != 0).any())
    assert ended >= 16
    assert partial > 100
