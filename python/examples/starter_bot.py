"""A Mammut bot for `arena play mammut --bot cmd:"python3 python/examples/starter_bot.py"`: it speaks
the JSON-lines protocol itself and reads each state with `pocket_arena.observation`, the same
vector a trained agent gets from the environment, then plays a simple rule on it.
"""

import json
import sys

import pocket_arena

GOODS = range(1, 6)  # Fire, Meat, Fur, Ivory, Axe (the vector's side codes)

for line in sys.stdin:
    request = json.loads(line)
    seat = request["seat"]
    v = pocket_arena.observation("mammut", request["state"], seat)
    tiles = v[4 + 5 * 4 :].reshape(32, 2)  # per tile: [where, side]
    middle = [i for i, (where, side) in enumerate(tiles) if where == 1]
    goods = [i for i in middle if tiles[i][1] in GOODS]
    if middle:
        print(json.dumps({"take": (goods or middle)[:1]}), flush=True)
    else:
        # Nothing in the middle: steal from the next seat, put back the first tile in our hand.
        hand = [i for i, (where, _) in enumerate(tiles) if where == 2 + seat]
        others = [s for s in range(len(request["state"]["ids"])) if s != seat]
        print(json.dumps({"steal": others[0], "putBack": hand[0] if hand else 0}), flush=True)
