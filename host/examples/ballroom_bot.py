#!/usr/bin/env python3
"""A starter bot for Ballroom Blitz (MechMania 28) in the official engine's protocol.

The engine writes `wake` and the bot's seat on two lines; the bot answers its class as a quoted JSON
string ("KNIGHT"). Then, before every phase, one GamePhase JSON line; the bot answers one action line
for `next_phase`. `fin` ends the game. Over TCP (like the official starter packs) pass
--tcp PORT: the engine listens on 127.0.0.1:29170 + seat.

    cargo arena play ballroom --bot cmd:"python3 host/examples/ballroom_bot.py" --bot strong
    cargo arena play ballroom --tcp &   # then: python3 host/examples/ballroom_bot.py --tcp 29170 (x4)

This bot walks to the centre control tiles, attacks whoever is in range, and buys nothing.
"""
import json
import socket
import sys

CENTRE = [(4, 4), (5, 5), (4, 5), (5, 4)]


def action(me, phase, state):
    players = state["player_states"]
    mine = players[me]
    if phase == "USE":
        return {"executor": me, "use": False}
    if phase == "MOVE":
        x, y = CENTRE[me]
        return {"executor": me, "destination": {"x": x, "y": y}}
    if phase == "ATTACK":
        px, py = mine["position"]["x"], mine["position"]["y"]
        reach = mine["stat_set"]["range"]
        for i, p in enumerate(players):
            if i != me and p["isActive"] and p["health"] > 0:
                d = abs(p["position"]["x"] - px) + abs(p["position"]["y"] - py)
                if d <= reach:
                    return {"executor": me, "target": i}
        return {"executor": me, "target": me}
    # BUY: keep the gold (buying NONE on one's own spawn with 100 gold costs 100: stay off it).
    return {"executor": me, "item": "NONE"}


def play(inp, out):
    me = None
    while True:
        line = inp.readline()
        if not line:
            return
        line = line.strip()
        if line == "fin":
            return
        if line == "wake":
            me = int(inp.readline().strip())
            out.write(json.dumps("KNIGHT") + "\n")
            out.flush()
            continue
        try:
            state = json.loads(line)
            reply = action(me, state["next_phase"], state)
        except Exception as e:
            print(f"cannot read the engine's line: {e}", file=sys.stderr)
            reply = {"executor": me}
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--tcp":
        sock = socket.create_connection(("127.0.0.1", int(sys.argv[2])))
        f = sock.makefile("rw")
        play(f, f)
    else:
        play(sys.stdin, sys.stdout)
