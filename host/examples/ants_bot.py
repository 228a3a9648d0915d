#!/usr/bin/env python3
"""A starter bot for `arena play ants`, speaking the official Ants protocol (AI Challenge 2011).

Each turn the engine sends `turn N`, what the bot's ants see (`w`/`h`/`a`/`f`/`d` lines) and `go`;
the bot answers `o ROW COL DIR` lines and `go`. This bot sends every ant one step toward the
nearest visible food or enemy hill it can reach (breadth-first search around water, on the
torus), else in a random free direction, never two of its ants onto one square. Its randomness is seeded with the
`player_seed` the engine sends, so a game is reproducible. It ignores what it does not understand
and never lets an exception stop it from answering `go`.

    arena play ants --map MAP --bot "cmd:python3 host/examples/ants_bot.py" --bot hunter
"""

import random
import sys
from collections import deque

DIRS = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}
MAX_SEARCH = 2000  # squares visited per food search, to stay well inside the turn time


class Bot:
    def __init__(self):
        self.settings = {}
        self.rows = self.cols = 1
        self.water = set()
        self.rng = random.Random(0)
        self.reset()

    def reset(self):
        self.my_ants = []
        self.enemy_ants = set()
        self.food = []
        self.my_hills = set()
        self.enemy_hills = set()

    def setup(self):
        def number(key, low):
            try:
                return max(low, int(self.settings.get(key, low)))
            except ValueError:
                return low

        self.rows = number("rows", 1)
        self.cols = number("cols", 1)
        self.rng = random.Random(self.settings.get("player_seed", "0"))

    def read(self, words):
        """One state line; anything malformed is skipped."""
        try:
            kind = words[0]
            row, col = int(words[1]) % self.rows, int(words[2]) % self.cols
            owner = int(words[3]) if len(words) > 3 else None
        except (IndexError, ValueError):
            return
        if kind == "w":
            self.water.add((row, col))
        elif kind == "f":
            self.food.append((row, col))
        elif kind == "a":
            if owner == 0:
                self.my_ants.append((row, col))
            else:
                self.enemy_ants.add((row, col))
        elif kind == "h":
            (self.my_hills if owner == 0 else self.enemy_hills).add((row, col))

    def step(self, loc, d):
        dr, dc = DIRS[d]
        return ((loc[0] + dr) % self.rows, (loc[1] + dc) % self.cols)

    def first_steps_to_target(self, start):
        """The first step of a shortest path to the nearest food or enemy hill, or []."""
        food = set(self.food) | self.enemy_hills
        if not food:
            return []
        seen = {start: None}
        queue = deque()
        for d in DIRS:
            nxt = self.step(start, d)
            if nxt not in seen and nxt not in self.water:
                seen[nxt] = d
                queue.append(nxt)
        while queue and len(seen) < MAX_SEARCH:
            loc = queue.popleft()
            if loc in food:
                return [seen[loc]]
            for d in DIRS:
                nxt = self.step(loc, d)
                if nxt not in seen and nxt not in self.water:
                    seen[nxt] = seen[loc]
                    queue.append(nxt)
        return []

    def orders(self):
        taken = set()
        out = []
        # Ants that stay keep their squares; moving ants claim theirs.
        staying = set(self.my_ants)
        for ant in self.my_ants:
            dirs = self.first_steps_to_target(ant)
            rest = list(DIRS)
            self.rng.shuffle(rest)
            for d in dirs + rest:
                dest = self.step(ant, d)
                if dest in self.water or dest in taken or dest in self.food:
                    continue
                if dest in staying or dest in self.my_hills:
                    continue
                taken.add(dest)
                staying.discard(ant)
                out.append("o %d %d %s" % (ant[0], ant[1], d))
                break
            else:
                taken.add(ant)
        return out


def main():
    bot = Bot()
    ending = False
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", "replace").strip()
        if not line:
            continue
        words = line.split()
        word = words[0].lower()
        try:
            if word == "ready":
                bot.setup()
                print("go", flush=True)
            elif word == "go":
                if ending:
                    return
                try:
                    orders = bot.orders()
                except Exception as e:  # never miss a turn
                    print("ants_bot: %r" % e, file=sys.stderr)
                    orders = []
                sys.stdout.write("".join(o + "\n" for o in orders) + "go\n")
                sys.stdout.flush()
                bot.reset()
            elif word == "end":
                ending = True
            elif word == "turn":
                bot.reset()
            elif len(words) == 2 and not ending:
                bot.settings[word] = words[1]
            else:
                bot.read(words)
        except Exception as e:
            print("ants_bot: %r on %r" % (e, line), file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
