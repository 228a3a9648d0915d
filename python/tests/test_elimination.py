"""A seat put out in a 4-player Ants game: the AEC env removes it (no `KeyError` in
`_accumulate_rewards`) and the parallel env stops giving it rewards, observations or infos.

The map is a 16x6 torus with one hill per player along row 0, four columns apart (a translation
maps each player onto the next, so the game takes it as symmetric). Seats 1 and 3 walk their ant
towards seat 2's, which holds: after two turns seat 2's ant has two enemies within the attack
radius while each of them has one, so it dies (`rules/ants.md`, "Battle") and seat 2 is out.
"""

import pytest

import pocket_arena

MAP = "rows 6\ncols 16\nplayers 4\nm 0...1...2...3...\n" + "m ................\n" * 5
#: Turn by turn, the orders that bring seats 1 and 3 next to seat 2 (row 0, columns 4 and 12).
WALK = {
    "player_1": [["o 0 4 e"], ["o 0 5 e"]],
    "player_3": [["o 0 12 w"], ["o 0 11 w"]],
}


@pytest.fixture
def four(tmp_path):
    path = tmp_path / "line.map"
    path.write_text(MAP)
    return {"map": str(path), "turns": 40}


def orders(agent, turn):
    walk = WALK.get(agent, [])
    return walk[turn] if turn < len(walk) else []


def test_parallel_env_drops_a_seat_put_out(four):
    env = pocket_arena.ants.parallel_env(**four, action_type="json")
    env.reset(seed=1)
    assert env.agents == ["player_0", "player_1", "player_2", "player_3"]
    gone = None
    for turn in range(20):
        before = list(env.agents)
        obs, rewards, terms, truncs, infos = env.step({a: orders(a, turn) for a in env.agents})
        # Only the agents that were in the game this step have entries.
        assert set(rewards) == set(before) == set(obs) == set(terms) == set(infos)
        if gone is not None:
            assert gone not in rewards
        if terms.get("player_2"):
            gone = "player_2"
            assert "player_2" not in env.agents
            assert not env.unwrapped._m.seat_in(2)
        if gone and turn >= 4:
            break
    assert gone == "player_2"
    assert env.agents == ["player_0", "player_1", "player_3"]


def test_aec_env_drops_a_seat_put_out(four):
    env = pocket_arena.ants.env(**four, action_type="json")
    env.reset(seed=1)
    turn = {a: 0 for a in env.possible_agents}
    dead_steps = 0
    for agent in env.agent_iter(200):
        _, reward, term, trunc, _ = env.last()
        if term or trunc:
            action = None
            dead_steps += agent == "player_2"
        else:
            action = orders(agent, turn[agent])
            turn[agent] += 1
        env.step(action)
        if "player_2" not in env.agents and min(turn[a] for a in env.agents) >= 6:
            break
    assert dead_steps == 1
    assert "player_2" not in env.agents
    assert env.agents == ["player_0", "player_1", "player_3"]
    assert set(env.rewards) == set(env.agents) == set(env.unwrapped._cumulative_rewards)
