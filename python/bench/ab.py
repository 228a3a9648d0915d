"""Two builds of `pocket_arena` side by side in one process, stepped in alternating bursts: CPU
time an env-step of Tower Defense Duel's `VectorEnv(256)` (observations as int16, masks,
`copy=False`, `threads=1`, both seats `random`: the headline row of `bench.py --envpool-only`).

    pip install --no-deps --target DIR_A wheel_a.whl    # and the same for B
    python python/bench/ab.py DIR_A DIR_B --bursts 100 --warm 300

Each `DIR` holds an installed `pocket_arena`; it is copied into a temporary folder as a package
of its own name (`pa_a`, `pa_b`; the few places that name the package rewritten), so that both
load at once. Both vectors play the same matches (same seed; their digests are compared at the
end); their bursts of 20 steps alternate, the order swapped every burst, so the load and the
cache's state fall on both alike. Printed: each build's min, first quartile and median, and the
median over burst pairs of B's time over A's: the figure the machine's load moves least.
"""

import argparse
import importlib
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np


def load(site, name, into):
    """`site`'s `pocket_arena` imported as the package `name` (a copy in `into`)."""
    dest = os.path.join(into, name)
    shutil.copytree(os.path.join(site, "pocket_arena"), dest)
    for f in os.listdir(dest):
        if f.endswith(".py"):
            path = os.path.join(dest, f)
            text = open(path).read()
            text = text.replace('"pocket_arena"', f'"{name}"').replace('f"pocket_arena.', f'f"{name}.')
            text = re.sub(r"^(\s+)import pocket_arena\b", rf"\1import {name}", text, flags=re.M)
            open(path, "w").write(text)
    return importlib.import_module(f"{name}.vector").VectorEnv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="folder holding build A's installed pocket_arena")
    ap.add_argument("b", help="folder holding build B's installed pocket_arena")
    ap.add_argument("--bursts", type=int, default=100, help="bursts of 20 steps, each build")
    ap.add_argument("--warm", type=int, default=300, help="steps before the timing")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    sys.path.insert(0, tmp)
    vectors = []
    for site, name in ((args.a, "pa_a"), (args.b, "pa_b")):
        VectorEnv = load(site, name, tmp)
        v = VectorEnv("tower_defense", 256, seed=1, bots={"player_1": "random"}, variant="duel",
                      copy=False, dtype=np.int16, threads=1)
        v.reset()
        for _ in range(args.warm):
            v.step(policy="random")
        vectors.append(v)
    times = [[], []]
    for k in range(args.bursts):
        for i in ((0, 1) if k % 2 == 0 else (1, 0)):
            c0 = time.process_time()
            for _ in range(20):
                vectors[i].step(policy="random")
            times[i].append((time.process_time() - c0) / (20 * 256) * 1e6)
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"CPU us an env-step, {args.bursts} bursts of 20 steps each (load average {os.getloadavg()[0]:.1f}):")
    for label, t in zip(("A", "B"), times):
        s = sorted(t)
        print(f"{label}: min {s[0]:.3f}  first quartile {s[len(s) // 4]:.3f}  median {statistics.median(s):.3f}")
    ratio = statistics.median(b / a for a, b in zip(*times))
    print(f"B / A, median over burst pairs: {ratio:.3f}")
    print(f"same matches (digests equal): {vectors[0].digests() == vectors[1].digests()}")


if __name__ == "__main__":
    main()
