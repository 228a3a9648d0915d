#!/usr/bin/env python3
"""A starter bot for Pocket Arena's ColorFight, speaking JSON lines.

While the bot is idle the engine writes one line per tick: {"tick": T, "seat": I, "state": STATE}
(canonical state of ../shared/rules/colorfight.md). The bot answers {"attack":[x,y]},
{"build":[x,y]} or null, within 100 ms.

    cargo arena play colorfight --bot cmd:"python3 host/examples/colorfight_bot.py" --bot expander

This bot attacks an empty cell next to its own land (mines first), else the weakest neighbour.
"""
from json_lines import play


def choose(state, me):
    w, h = state["width"], state["height"]
    cells = state["cells"]
    mine = me + 1

    def at(x, y):
        return cells[y * w + x]

    best = None
    for y in range(h):
        for x in range(w):
            owner, kind, building, _taken, attacker, _done = at(x, y)
            if owner == mine or attacker:
                continue
            if not any(0 <= x + dx < w and 0 <= y + dy < h and at(x + dx, y + dy)[0] == mine
                       for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                continue
            score = (owner != 0, kind == "normal", building != "none")
            if best is None or score < best[0]:
                best = (score, x, y)
    if best is None:
        return None
    return {"attack": [best[1], best[2]]}


def main():
    play(lambda msg: choose(msg["state"], msg["seat"]))


if __name__ == "__main__":
    main()
