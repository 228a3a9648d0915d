"""A random agent against a built-in bot (Tower Defense Duel), the match saved as a replay that
`arena verify` checks and `arena render` / the viewer opens.

    python python/examples/random_vs_bot.py [replay path]
"""

import sys

import numpy as np

from pocket_arena import tower_defense

env = tower_defense.env(bots={"player_1": "strong"}, turn_limit=300)
env.reset(seed=42)
rng = np.random.default_rng(0)
refused = 0
for agent in env.agent_iter():
    obs, reward, term, trunc, info = env.last()
    if term or trunc:
        action = None
    elif rng.random() < 0.2:
        # Build a turret somewhere on the opponent's path (refused when off the path or too dear).
        action = {"action": "build", "type": "turret", "pos": int(rng.integers(0, 100))}
    else:
        action = {"action": "spawn", "hp": 10, "defense": 0, "stunRes": 0}
    refused += info.get("refused", 0)
    env.step(action)
print(f"turns: {env.unwrapped._m.turn}, outcome: {env.unwrapped._m.outcome()}, refused: {refused}")
path = sys.argv[1] if len(sys.argv) > 1 else "random_vs_strong.trace"
env.unwrapped.save_replay(path)
print(f"replay: {path}  (arena verify tower-defense {path} --partial; arena render {path} --out m.html)")
