#!/usr/bin/env python3
"""A Ballroom Blitz bot over stdin/stdout for the engine's tests. It names KNIGHT, then answers every
phase for its seat: no item use, one step from its spawn toward the centre (then it stays), an
attack on the next seat, buy nothing. It can misbehave on purpose:

    --executor N         name executor N in every action (the engine ignores it: rules decision 2)
    --garbage TURN PHASE answer the message of "turn":TURN whose next_phase is PHASE with a line
                         that is not JSON
    --sleep K SECS       sleep SECS before the K-th phase answer (1-based; the class is not counted)
    --trailing           write {"x":1} right after every action, on the same line (the official
                         engine reads the first JSON value and ignores the rest)
    --flags              send the result flags too: "isValid": false in every action, and in
                         ATTACK "damage": 99 and "nullified": true
    --target N           attack player N (default: the next seat)
"""
import argparse
import json
import sys
import time

SPAWNS = [(0, 0), (9, 0), (9, 9), (0, 9)]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executor", type=int)
    parser.add_argument("--garbage", nargs=2, metavar=("TURN", "PHASE"))
    parser.add_argument("--sleep", nargs=2, action="append", default=[], metavar=("K", "SECS"))
    parser.add_argument("--trailing", action="store_true")
    parser.add_argument("--flags", action="store_true")
    parser.add_argument("--target", type=int)
    args = parser.parse_args(argv)
    executor = args.executor
    garbage = (int(args.garbage[0]), args.garbage[1]) if args.garbage else None
    sleeps = {int(k): float(secs) for k, secs in args.sleep}
    seat = 0
    answers = 0
    for line in sys.stdin:
        line = line.strip()
        if line == "wake":
            seat = int(sys.stdin.readline())
            print('"KNIGHT"', flush=True)
            continue
        if line == "fin":
            break
        if not line.startswith("{"):
            continue
        msg = json.loads(line)
        phase = msg["next_phase"]
        answers += 1
        if answers in sleeps:
            time.sleep(sleeps[answers])
        if garbage == (msg["turn"], phase):
            print('{"executor": oops', flush=True)
            continue
        e = seat if executor is None else executor
        sx, sy = SPAWNS[seat]
        if phase == "USE":
            act = {"executor": e, "use": False}
        elif phase == "MOVE":
            me = msg["player_states"][seat]["position"]
            step = (sx + (1 if sx == 0 else -1), sy)
            dest = step if (me["x"], me["y"]) == (sx, sy) else (me["x"], me["y"])
            act = {"executor": e, "destination": {"x": dest[0], "y": dest[1]}}
        elif phase == "ATTACK":
            target = (seat + 1) % 4 if args.target is None else args.target
            act = {"executor": e, "target": target}
            if args.flags:
                act.update({"damage": 99, "nullified": True})
        else:
            act = {"executor": e, "item": "NONE"}
        if args.flags:
            act["isValid"] = False
        print(json.dumps(act) + ('{"x":1}' if args.trailing else ""), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
