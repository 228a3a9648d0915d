#!/usr/bin/env python3
"""A starter bot for Pocket Arena's Tower Defense (Duel and Siege), speaking JSON lines.

Each turn the engine writes one line: {"turn": T, "seat": I, "state": STATE} with the canonical state
of ../shared/rules/tower-defense.md. The bot answers with one line: an action such as
{"action":"build","type":"turret","pos":80} or null to pass. Anything written to stderr goes to the
bot's log, never to the engine.

Run it against a built-in bot:
    cargo arena play tower-defense --bot cmd:"python3 host/examples/tower_defense_bot.py" --bot random
"""
from json_lines import play


def duel_action(state, me):
    player = state["players"][me]
    gold, inflation = player["gold"], player["inflation"]
    # My towers stand on the board where the opponent's invaders walk: board 1 - me.
    towers = {t[0]: t for t in state["boards"][1 - me]["towers"]}
    build_cost = 50 + inflation
    upgrade_cost = 75 + inflation * 3 // 2
    # Keep a line of turrets near the end of the path, then make them stronger.
    if len(towers) < 6 and gold >= build_cost:
        for pos in range(95, 0, -3):
            if pos not in towers:
                return {"action": "build", "type": "turret", "pos": pos}
    if towers and gold >= upgrade_cost + 100:
        weakest = min(towers.values(), key=lambda t: (t[3], -t[0]))
        return {"action": "upgrade", "pos": weakest[0], "stat": "power"}
    # Spend the rest on invaders, as tough as the limit allows.
    boost = player["boostMax"]
    cost = 10 + boost
    if gold >= cost + build_cost:
        return {"action": "spawn", "hp": boost, "defense": 0, "stunRes": 0}
    return None


def siege_action(state, me):
    if me == 0:  # the invader
        inv = state["invader"]
        if inv["gold"] >= 10 + inv["boostMax"]:
            return {"action": "spawn", "hp": inv["boostMax"], "defense": 0, "stunRes": 0}
        return None
    gold = state["defender"]["gold"]
    towers = {t[0] for t in state["board"]["towers"]}
    if gold >= 10:
        for pos in range(99, 0, -2):
            if pos not in towers:
                return {"action": "build", "type": "turret", "pos": pos}
    return None


def main():
    def action(msg):
        state, me = msg["state"], msg["seat"]
        return siege_action(state, me) if "board" in state else duel_action(state, me)

    play(action)


if __name__ == "__main__":
    main()
