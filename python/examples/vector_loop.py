"""A VectorEnv loop: 64 ColorFight matches stepped at once, Python's seat playing its own policy
on half the matches and the built-in `expander` bot's moves on the rest; matches that end start
again by themselves.

    python python/examples/vector_loop.py
"""

import numpy as np

from pocket_arena.vector import VectorEnv

n = 64
v = VectorEnv("colorfight", n, seed=7, size="20x20", turn_limit=200, bots={"player_1": "random"})
obs, _ = v.reset()
rng = np.random.default_rng(1)
gained = 0.0
for step in range(400):
    # Our policy on even matches: attack a random cell (the rules refuse what is not adjacent).
    actions = [
        {"player_0": {"attack": [int(rng.integers(0, 20)), int(rng.integers(0, 20))]}} if i % 2 == 0 else {}
        for i in range(n)
    ]
    obs, rewards, terms, truncs, infos = v.step(actions, policy="expander")
    # Rewards: the score change of each step (ColorFight: the cells held), plus the ranking when a
    # match ends.
    gained += float(rewards.sum())
print(f"observations {obs.shape} {obs.dtype}; rewards summed over the matches: {gained:+.0f}")
