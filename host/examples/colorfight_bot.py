#!/usr/bin/env python3
"""A starter bot for Pocket Arena's ColorFight, speaking JSON lines.

While the bot is idle the engine writes one line per tick: {"tick": T, "seat": I, "state": STATE}
(canonical state of ../shared/rules/colorfight.md). The bot answers {"attack":[x,y]},
{"build":[x,y]} or null, within 100 ms.

    cargo arena play colorfight --bot cmd:"python3 host/examples/colorfight_bot.py" --bot expander

This bot attacks an empty cell next to its own land (mines first), else the weakest neighbour.
"""
import json
import sys


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
    for line in sys.stdin:
        try:
            msg = json.loads(line)
            action = choose(msg["state"], msg["seat"])
        except Exception as e:  # never die on a bad line: pass
            print(f"cannot read the engine's line: {e}", file=sys.stderr)
            action = None
        sys.stdout.write(json.dumps(action, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
