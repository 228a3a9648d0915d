#!/usr/bin/env python3
"""A Mammut bot over JSON lines for the engine's tests: it takes the first tile of the middle (or
steals the first hand it can, putting back its first tile), and can misbehave on purpose:

    --crash-in ROUND   exit with status 1 when it is asked in round ROUND
    --late K SECS      sleep SECS before answering its K-th request (1-based), then answer at once
    --log FILE         append every request's turn and round to FILE (one line each)
"""
import argparse
import json
import sys
import time


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crash-in", type=int, dest="crash", metavar="ROUND")
    parser.add_argument("--late", nargs=2, action="append", default=[], metavar=("K", "SECS"))
    parser.add_argument("--log", metavar="FILE")
    args = parser.parse_args(argv)
    crash = args.crash
    late = {int(k): float(secs) for k, secs in args.late}
    log = args.log
    asked = 0
    for line in sys.stdin:
        request = json.loads(line)
        state = request["state"]
        asked += 1
        if log:
            with open(log, "a") as f:
                f.write(f"{request['turn']} {state['round']}\n")
        if crash == state["round"]:
            sys.exit(1)
        if asked in late:
            time.sleep(late[asked])
        seat = request["seat"]
        if state["middle"]:
            action = {"take": [state["middle"][0]["id"]]}
        else:
            victim = next(s for s, h in enumerate(state["hands"]) if s != seat and h)
            action = {"steal": victim, "putBack": state["hands"][victim][0]["id"]}
        sys.stdout.write(json.dumps(action) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
