"""A Python seat beside built-in bots, for every game and variant (PettingZoo's own suite:
test_pettingzoo.py)."""

import importlib

import pytest

from conftest import configs

CASES = [pytest.param(g, c, id=f"{g}-{'-'.join(str(v) for k, v in c.items() if k != 'map') or 'default'}") for g, c in configs()]


def short(config, turns=30):
    return dict(config, turn_limit=turns)


@pytest.mark.parametrize("game,config", CASES)
def test_against_a_builtin_bot(game, config):
    """A Python seat beside built-in bots: the match runs to its limit and infos carry refusals."""
    mod = importlib.import_module(f"pocket_arena.{game}")
    env = mod.parallel_env(**short(config, 20), bots={"player_1": mod_bots(game)[0]})
    obs, infos = env.reset(seed=3)
    assert "player_1" not in env.agents and "player_0" in env.agents
    steps = 0
    while env.agents:
        obs, rewards, terms, truncs, infos = env.step({a: b"not json" for a in env.agents})
        steps += 1
        for a, info in infos.items():
            if info["to_move"] or steps == 1:
                pass
        assert steps <= 200
    # A line that is not JSON is refused and said so, never an exception.
    assert any("unreadable" in w for w in infos["player_0"]["why"]) or env._m.is_done()


def mod_bots(game):
    import pocket_arena

    return pocket_arena.GAMES[game]
