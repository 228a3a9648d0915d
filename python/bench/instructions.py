#!/usr/bin/env python3
"""Instructions an env-step of Tower Defense Duel's VectorEnv(256) (observations as int16, masks,
`copy=False`, `threads=1`, both seats `random`: the headline row of `bench.py --envpool-only`),
counted by valgrind's cachegrind: the same count run after run whatever else the machine does,
where CPU time moves by a third from one minute to the next on a shared machine.

    python python/bench/instructions.py [--steps N] [--warm W]

Two runs under cachegrind, one stepping the vector W times and one W + N times after the same
start; the difference over N x 256 is the count an env-step (the start, the imports and the
warm-up cancel out; Python's hash seed is fixed, so that its dictionaries probe alike). Later in
a match there are more invaders: `--warm 3000` counts steps nearer those of `bench.py`, which
runs each vector from its reset for seconds (docs/python.md, "The count's window"). Needs
`valgrind` (Debian: `apt-get install valgrind`) and an installed `pocket_arena`. valgrind runs
the program about 50 times slower: the defaults take about a minute.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

DRIVER = """
import sys
import numpy as np
from pocket_arena.vector import VectorEnv
v = VectorEnv("tower_defense", 256, seed=1, bots={"player_1": "random"}, variant="duel",
              copy=False, dtype=np.int16, threads=1)
v.reset()
for _ in range(int(sys.argv[1])):
    v.step(policy="random")
"""


def count(steps):
    """Instructions of the whole process stepping the vector `steps` times."""
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={tmp}/out",
             sys.executable, "-c", DRIVER, str(steps)],
            capture_output=True, text=True, cwd=tmp,  # not a source folder that shadows the package
            env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0"},
        )
    if r.returncode != 0:
        sys.exit(f"valgrind failed ({r.returncode}):\n{r.stderr[-2000:]}")
    m = re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
    if not m:
        sys.exit(f"no instruction count in valgrind's output:\n{r.stderr[-2000:]}")
    return int(m.group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=100, help="steps counted (of 256 matches each)")
    ap.add_argument("--warm", type=int, default=20,
                    help="steps of both runs before the counted ones (matches grow more invaders "
                         "as they go: 3000 is nearer bench.py's runs, about a quarter more)")
    args = ap.parse_args()
    if args.steps < 1 or args.warm < 0:
        sys.exit("--steps must be at least 1 and --warm at least 0")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind not found (Debian: apt-get install valgrind)")
    print(f"counting {args.warm} and {args.warm + args.steps} steps under cachegrind...", file=sys.stderr)
    short, long = count(args.warm), count(args.warm + args.steps)
    per = (long - short) / (args.steps * 256)
    print(f"Tower Defense Duel VectorEnv(256), int16 + masks, copy=False, threads=1: "
          f"{per:,.0f} instructions an env-step ({args.steps} steps after {args.warm})")


if __name__ == "__main__":
    main()
