#!/usr/bin/env python3
"""A ColorFight JSON-lines bot for the build-while-busy test (rules, decision 9): it heads for the
gold mines and builds a base whenever it is asked while busy attacking (the engine asks a busy bot
only when a build is possible). It logs to stderr every tick it was asked while busy."""
import json
import sys
from collections import deque


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        s, me, tick = msg["state"], msg["seat"] + 1, msg["tick"]
        w, h, cells = s["width"], s["height"], s["cells"]
        p = s["players"][msg["seat"]]
        at = lambda x, y: cells[y * w + x]
        near = lambda x, y: [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                             if 0 <= x + dx < w and 0 <= y + dy < h]
        action = None
        if p["busyUntil"] > tick:
            print(f"asked while busy at tick {tick}", file=sys.stderr)
            site = next(((x, y) for y in range(h) for x in range(w)
                         if at(x, y)[0] == me and at(x, y)[2] == "none" and at(x, y)[4] == 0), None)
            if site:
                action = {"build": list(site)}
        else:
            # Distance of every cell to the nearest gold mine not ours.
            dist = {}
            todo = deque()
            for y in range(h):
                for x in range(w):
                    if at(x, y)[1] == "gold" and at(x, y)[0] != me:
                        dist[(x, y)] = 0
                        todo.append((x, y))
            while todo:
                c = todo.popleft()
                for n in near(*c):
                    if n not in dist:
                        dist[n] = dist[c] + 1
                        todo.append(n)
            best = None
            for y in range(h):
                for x in range(w):
                    owner, kind, _b, _t, attacker, _d = at(x, y)
                    if owner == me or attacker or not any(at(*n)[0] == me for n in near(x, y)):
                        continue
                    key = (dist.get((x, y), 99), owner != 0, y, x)
                    if best is None or key < best[0]:
                        best = (key, x, y)
            if best:
                action = {"attack": [best[1], best[2]]}
        print(json.dumps(action), flush=True)


if __name__ == "__main__":
    main()
