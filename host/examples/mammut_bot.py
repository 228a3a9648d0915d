#!/usr/bin/env python3
"""A starter bot for Pocket Arena's Mammut, speaking JSON lines.

When it is the bot's turn the engine writes {"turn": T, "seat": I, "state": STATE} (canonical state of
../shared/rules/mammut.md); the bot answers {"take":[tile ids]} or {"steal":SEAT,"putBack":TILE}
within 5 s. An illegal action gets one more chance; a second one sits the bot out for the round.

    cargo arena play mammut --bot cmd:"python3 host/examples/mammut_bot.py" --bot greedy --bot random --bot cautious --bot greedy

This bot takes every Fire and Meat tile in the middle (or one tile if there are none).
"""
from json_lines import play

WANTED = {"Fire", "Meat"}


def choose(state):
    middle = state["middle"]
    wanted = [t["id"] for t in middle if t["side"] in WANTED]
    if wanted:
        return {"take": wanted}
    if middle:
        return {"take": [middle[0]["id"]]}
    return None


def main():
    play(lambda msg: choose(msg["state"]))


if __name__ == "__main__":
    main()
