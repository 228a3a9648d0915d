"""The JSON-lines loop the Tower Defense, ColorFight and Mammut example bots share.

The engine writes one JSON object a line when it is the bot's turn; the bot answers one JSON line
and flushes (an unflushed answer is a time-out). `play(choose)` calls `choose(message)` for each
line and writes what it returns (None is a pass); a line it cannot read is passed, never a crash.
"""
import json
import sys


def play(choose):
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            action = choose(json.loads(line))
        except Exception as e:  # a bad line must not kill the bot: pass this turn
            print(f"cannot read the engine's line: {e}", file=sys.stderr)
            action = None
        sys.stdout.write(json.dumps(action, separators=(",", ":")) + "\n")
        sys.stdout.flush()
