"""Discrete actions for Ballroom Blitz (one list of every phase's answers, masked to the phase's)
and Ants (a choice per ant slot: `MultiDiscrete`, masked per slot): the discrete action is the
JSON action it stands for (the same match, digest for digest), and the built-in bots' moves as
indices play as the bots do."""

import importlib

import numpy as np
import pytest

import pocket_arena
from conftest import TUTORIAL1

CLASSES = ["KNIGHT", "WIZARD", "ARCHER"]
ITEMS = ["SHIELD", "PROCRUSTEAN_IRON", "HEAVY_BROADSWORD", "MAGIC_STAFF", "STEEL_TIPPED_ARROW", "ANEMOI_WINGS",
         "HUNTER_SCOPE", "RALLY_BANNER", "STRENGTH_POTION", "SPEED_POTION", "DEXTERITY_POTION", "NONE"]
DIRS = "nesw"

ANTS = [pytest.param({"turns": 80}, id="packaged-map")]
if TUTORIAL1.exists():
    ANTS.append(pytest.param({"map": str(TUTORIAL1), "turns": 80}, id="tutorial1"))


def ballroom_json(i):
    """Ballroom's action `i` as docs/python.md lays the list out, written here from the layout."""
    if i < 3:
        return CLASSES[i]
    if i < 5:
        return {"use": i == 4}
    if i < 105:
        return {"destination": {"x": (i - 5) % 10, "y": (i - 5) // 10}}
    if i < 109:
        return {"target": i - 105}
    return {"item": ITEMS[i - 109]}


def ant_slots(env, seat):
    """The seat's ants, row-major (the slots' order), read off the state JSON."""
    return sorted((r, c) for r, c, owner in env.state_json()["ants"] if owner == seat)[:128]


def ants_json(env, seat, picks):
    """The order lines of one choice per slot, written here from the documented layout."""
    return [f"o {r} {c} {DIRS[p - 1]}" for (r, c), p in zip(ant_slots(env, seat), picks) if p > 0]


def pick(rng, mask, choices):
    """A random choice per slot, legal ones mostly (one in five drawn from all choices)."""
    mask = mask.reshape(-1, choices)
    out = []
    for row in mask:
        legal = np.flatnonzero(row)
        out.append(int(rng.integers(choices)) if rng.random() < 0.2 else int(rng.choice(legal)))
    return np.array(out, dtype=np.int64)


@pytest.mark.parametrize("ruleset", ["engine", "as-written"])
def test_ballroom_discrete_is_its_json(ruleset):
    rng = np.random.default_rng(5)
    disc = pocket_arena.ballroom.parallel_env(ruleset=ruleset, turn_limit=40)
    js = pocket_arena.ballroom.parallel_env(ruleset=ruleset, turn_limit=40, action_type="json")
    assert disc.action_type == "discrete" and disc.action_space("player_0").n == 121
    _, infos = disc.reset(seed=11)
    js.reset(seed=11)
    phases_masked, refused_seen = set(), 0
    while disc.agents:
        acts, jacts = {}, {}
        for a in disc.agents:
            mask = infos[a]["action_mask"]
            legal = np.flatnonzero(mask)
            # One phase's answers at a time.
            blocks = {0 if i < 3 else 1 if i < 5 else 2 if i < 105 else 3 if i < 109 else 4 for i in legal}
            assert len(blocks) == 1
            phases_masked |= blocks
            i = int(rng.integers(121)) if rng.random() < 0.2 else int(rng.choice(legal))
            acts[a], jacts[a] = i, ballroom_json(i)
            assert disc.listed_action(a, i) == ballroom_json(i)
        _, _, _, _, infos = disc.step(acts)
        _, _, _, _, jinfos = js.step(jacts)
        assert disc.digest() == js.digest()
        for a in infos:
            assert infos[a]["refused"] == jinfos[a]["refused"]
            refused_seen += infos[a]["refused"]
    assert phases_masked == {0, 1, 2, 3, 4} and refused_seen > 0


@pytest.mark.parametrize("config", ANTS)
def test_ants_factored_is_its_json(config):
    rng = np.random.default_rng(3)
    disc = pocket_arena.ants.parallel_env(**config)
    js = pocket_arena.ants.parallel_env(**config, action_type="json")
    space = disc.action_space("player_0")
    assert disc.action_type == "discrete" and list(space.nvec) == [5] * 128
    obs, infos = disc.reset(seed=4)
    js.reset(seed=4)
    fields = disc.obs_fields
    with open(disc.config["map"]) as f:
        cols = next(int(line.split()[1]) for line in f if line.startswith("cols"))
    plane = [i for i, f in enumerate(fields) if f.startswith("own_ant_")]
    orders, moved = 0, 0
    while disc.agents:
        acts, jacts = {}, {}
        for a in disc.agents:
            seat = int(a[7:])
            mask = infos[a]["action_mask"]
            assert mask.shape == (640,) and mask.dtype == np.int8
            slots = ant_slots(disc, seat)
            # Slot s is the s-th own ant of the observation's own_ant plane (row-major).
            cells = np.flatnonzero(obs[a][plane])[:128]
            assert [(int(i) // cols, int(i) % cols) for i in cells] == [tuple(x) for x in slots]
            rows = mask.reshape(128, 5)
            # Empty slots: only "stay"; every slot may stay.
            assert np.all(rows[:, 0] == 1) and not rows[len(slots):, 1:].any()
            picks = pick(rng, mask, 5)
            assert space.contains(picks)
            acts[a], jacts[a] = picks, ants_json(disc, seat, picks)
            orders += len(jacts[a])
        obs, _, _, _, infos = disc.step(acts)
        _, _, _, _, jinfos = js.step(jacts)
        assert disc.digest() == js.digest()
        for a in infos:
            assert infos[a]["refused"] == jinfos[a]["refused"]
        moved += 1
    assert moved >= 20 and orders > 50


@pytest.mark.parametrize("config", ANTS)
def test_ants_mask_is_what_the_core_takes(config):
    """Each slot's choice alone, played on a copy of the match (`refused_listed`), is refused
    exactly where the mask says 0: moves into water or food, moves of empty slots."""
    rng = np.random.default_rng(8)
    env = pocket_arena.ants.parallel_env(**config, turn_limit=80)
    _, infos = env.reset(seed=9)
    blocked = 0
    while env.agents:
        for a in env.agents:
            mask = infos[a]["action_mask"]
            refused = np.array(env._m.refused_listed(int(a[7:])))
            assert np.array_equal(mask == 1, ~refused), np.flatnonzero((mask == 1) != ~refused)[:10]
            n = len(ant_slots(env, int(a[7:])))
            blocked += int((mask.reshape(128, 5)[:n, 1:] == 0).sum())
        # Legal picks only (the strong bot's, whose ants spread, or random ones): nothing refused.
        acts = {}
        for a in env.agents:
            rows = infos[a]["action_mask"].reshape(128, 5)
            acts[a] = np.array([rng.choice(np.flatnonzero(row)) for row in rows], dtype=np.int64)
            bot = env.bot_action(a, "strong", as_index=True)
            if bot is not None and rows[np.arange(128), bot].all():
                acts[a] = bot
        _, _, _, _, infos = env.step(acts)
        assert all(i["refused"] == 0 for i in infos.values())
    assert blocked > 0


@pytest.mark.parametrize("game,config,bot", [
    ("ballroom", {"ruleset": "engine"}, None),
    ("ballroom", {"ruleset": "as-written"}, None),
    *[pytest.param("ants", c.values[0], b, id=f"ants-{c.id}-{b}") for c in ANTS for b in ("strong", "hunter")],
])
def test_the_bots_index_plays_as_the_bot(game, config, bot):
    """player_0 played by a built-in bot in one match, by that bot's index action (`bot_action`)
    in the other; the other seats pass in both: the same digests step after step."""
    mod = importlib.import_module(f"pocket_arena.{game}")
    bot = bot or pocket_arena.GAMES[game][0]
    mine = mod.parallel_env(**config, turn_limit=60)
    theirs = mod.parallel_env(**config, turn_limit=60, bots={"player_0": bot})
    mine.reset(seed=21)
    theirs.reset(seed=21)
    assert mine.digest() == theirs.digest()
    indexed = 0
    while theirs.agents:
        i = mine.bot_action("player_0", bot)
        assert not isinstance(i, (dict, list, str)), f"not an index: {i!r}"
        assert mine.action_space("player_0").contains(np.asarray(i, dtype=np.int64) if game == "ants" else int(i))
        indexed += 1
        acts = {a: None for a in mine.agents}
        acts["player_0"] = i
        mine.step(acts)
        theirs.step({a: None for a in theirs.agents})
        assert mine.digest() == theirs.digest()
    assert indexed >= 20


def test_bad_discrete_actions_are_refusals():
    """Picks past a slot's choices, negative or not one per slot, and indices past Ballroom's list
    are refused and said so, never raised; the match goes on."""
    env = pocket_arena.ants.parallel_env(turns=20)
    env.reset(seed=1)
    for bad in ([5] * 128, [-1] + [0] * 127, [1, 2, 3]):
        before = env._m.turn
        _, _, _, _, infos = env.step({"player_0": np.array(bad), "player_1": None})
        assert infos["player_0"]["refused"] == 1 and env._m.turn == before + 1
        assert any("not in the space" in w or "JSON" in w for w in infos["player_0"]["why"])
    b = pocket_arena.ballroom.parallel_env(turn_limit=5)
    b.reset(seed=1)
    _, _, _, _, infos = b.step({a: 121 for a in b.agents})
    assert all(i["refused"] == 1 for i in infos.values())


@pytest.mark.parametrize("game,config", [("ballroom", {}), ("ants", {"turns": 40})])
def test_supersuit_vec_env_takes_the_discrete_spaces(game, config):
    """SuperSuit's concatenated vector env over the discrete parallel env (Ants: a MultiDiscrete
    action per row), stepped with samples of the space past the matches' ends."""
    ss = pytest.importorskip("supersuit")
    env = getattr(pocket_arena, game).parallel_env(**config, turn_limit=8)
    vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(env), 2, num_cpus=0, base_class="gymnasium")
    try:
        obs, _ = vec.reset(seed=1)
        n = obs.shape[0]
        assert n == 2 * len(env.possible_agents)
        vec.action_space.seed(0)
        ends = 0
        for _ in range(80):
            acts = np.stack([vec.action_space.sample() for _ in range(n)])
            obs, rewards, terms, truncs, _ = vec.step(acts)
            assert obs.shape[0] == rewards.shape[0] == n
            ends += int(np.sum(terms | truncs))
        assert ends >= n
    finally:
        vec.close()


def test_vector_env_takes_a_choice_per_ant_slot():
    """VectorEnv's `(n, agents, slots)` picks for Ants: the matches are those of a second vector
    given the equivalent order lines as JSON (written from its observations' own_ant planes),
    digest for digest; legal picks from the batched masks are never refused, and a choice past
    its slot's is."""
    from pocket_arena.vector import VectorEnv

    path = pocket_arena.ants.parallel_env().config["map"]
    with open(path) as f:
        cols = next(int(line.split()[1]) for line in f if line.startswith("cols"))
    v = VectorEnv("ants", 3, seed=5, turns=40, map=path)
    w = VectorEnv("ants", 3, seed=5, turns=40, map=path)
    assert v.factors == (128, 5)
    _, infos = v.reset()
    wobs, _ = w.reset()
    assert list(v.digests()) == list(w.digests())
    rng = np.random.default_rng(2)
    agents = v.possible_agents
    plane = slice(2 + 2 * (wobs.shape[2] - 2) // 7, 2 + 3 * (wobs.shape[2] - 2) // 7)
    orders = 0
    for _ in range(20):
        masks = infos["action_mask"].reshape(3, len(agents), 128, 5)
        picks = np.array([[[rng.choice(np.flatnonzero(row)) for row in masks[i, k]] for k in range(len(agents))] for i in range(3)])
        _, _, _, _, infos = v.step(picks)
        assert int(infos["refused"].sum()) == 0
        given = []
        for i in range(3):
            per = {}
            for k, a in enumerate(agents):
                cells = np.flatnonzero(wobs[i, k, plane])[:128]
                per[a] = [f"o {c // cols} {c % cols} {DIRS[p - 1]}" for c, p in zip(cells, picks[i, k]) if p > 0]
                orders += len(per[a])
            given.append(per)
        wobs, _, _, _, _ = w.step(given)
        assert list(v.digests()) == list(w.digests())
    assert orders > 50
    bad = np.zeros((3, len(agents), 128), dtype=np.int64)
    bad[:, :, 0] = 5
    _, _, _, _, infos = v.step(bad)
    assert (infos["refused"] == 1).all()
    with pytest.raises(ValueError, match="picks"):
        v.step(np.zeros((3, len(agents), 7), dtype=np.int64))
