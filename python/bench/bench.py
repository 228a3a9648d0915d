#!/usr/bin/env python3
"""Env-steps per second of every game, single environment and VectorEnv, and Ants on tutorial1
beside ants-ai 1.0.3 (its AntsEnv and its bare Game), in one run. Prints a Markdown table.

    python python/bench/bench.py [--seconds S] [--no-ants-ai] [--golden DIR] [--repeats N] [--bursts B]
    python python/bench/bench.py --envpool-only   # Tower Defense Duel VectorEnv(256) vs envpool CartPole

Tower Defense Duel's VectorEnv(256) (observations and masks) is measured beside envpool's
CartPole-v1 x256 (`pip install envpool`), alternating, `--repeats` times: CPU time an env-step
(`time.process_time`, every thread of the process), min and median; envpool both with a worker
thread a core (its default) and with one. Then side by side in one process, `--bursts` pairs of
bursts of 20 steps each against envpool with one worker thread and with one a core: the median
over burst pairs of envpool's CPU an env-step over ours is the figure to quote (the machine's
load falls on both alike).

The policy is random legal moves: each game's built-in `random` bot (Ants has none: a random
direction or none for every own ant, on both sides, as ants-ai's RandomAgent does). ants-ai is
installed by this script into its own virtual environment (target/ants-ai-venv, Python 3.12 from
pyenv, `pip install --no-deps ants-ai==1.0.3 gymnasium numpy pygame ...`); nothing of it is kept
in the repository.
"""

import argparse
import datetime
import json
import os
import pathlib
import platform
import subprocess
import sys
import time

import numpy as np

import pocket_arena
from pocket_arena import _native
from pocket_arena._base import options
from pocket_arena.vector import VectorEnv

ROOT = pathlib.Path(__file__).resolve().parents[2]

GAMES = [
    ("tower_defense", {"variant": "duel"}, "random"),
    ("tower_defense", {"variant": "siege"}, "random"),
    ("ballroom", {}, "random"),
    ("colorfight", {"size": "30x30"}, "random"),
    ("mammut", {}, "random"),
]


def rate(fn, seconds):
    """Calls `fn` (which does `k` env-steps and returns k) for about `seconds`; steps per second."""
    fn()  # warm up
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        n += fn()
    return n / (time.perf_counter() - t0)


def single(game, config, policy, seconds):
    """The PettingZoo parallel env, Python's seat playing `policy` (its moves asked from Rust
    and given back as JSON, as a Python agent would), a built-in bot opposite."""
    mod = getattr(pocket_arena, game)
    env = mod.parallel_env(**config, bots={"player_1": policy})
    state = {"infos": env.reset(seed=1)[1]}

    def run():
        if not env.agents:
            state["infos"] = env.reset()[1]
        acts = {a: env.bot_action(a, policy, as_index=False) for a in env.agents if state["infos"][a]["to_move"]}
        state["infos"] = env.step(acts)[4]
        return 1

    return rate(run, seconds)


def single_policy(game, config, policy, seconds):
    """The same environment's Rust match stepped from Python once a step (`step_policy`):
    Python's cost per step without building actions in Python."""
    mod = getattr(pocket_arena, game)
    env = mod.parallel_env(**config, bots={"player_1": policy})
    env.reset(seed=1)
    m = env._m
    agents = m.agents

    def run():
        if m.is_done():
            m.reset(7)
        m.step_policy([], policy)
        for s in agents:
            m.observe_array(s)
        return 1

    return rate(run, seconds)


def rust_only(game, config, policy, steps=20000):
    secs = _native.bench_rust((game, options(config), [(1, policy)]), policy, steps, 1)
    return steps / secs


def cpu_us(fn, *args):
    """`fn(*args)` (a rate in steps per second over a known time) and the CPU time of this
    process a step took, in microseconds: what the load changes least."""
    c0, w0 = time.process_time(), time.perf_counter()
    per_s = fn(*args)
    return per_s, (time.process_time() - c0) / (per_s * (time.perf_counter() - w0)) * 1e6


def vector(game, config, policy, n, seconds, **options):
    v = VectorEnv(game, n, seed=1, bots={"player_1": policy}, **config, **options)
    v.reset()

    def run():
        v.step(policy=policy)
        return n

    return rate(run, seconds)


def vector_cpu(game, config, policy, n, seconds, **options):
    """`vector`'s rate, and the CPU time of this process an env-step took (every thread's; on a
    shared machine the figure the load changes least)."""
    c0, w0 = time.process_time(), time.perf_counter()
    steps_per_s = vector(game, config, policy, n, seconds, **options)
    cpu = time.process_time() - c0
    steps = steps_per_s * (time.perf_counter() - w0)
    return steps_per_s, cpu / steps * 1e6


TD_OPTIONS = [
    {},
    {"copy": False},
    {"copy": False, "masks": False},
    {"copy": False, "masks": False, "observe": False},
    {"copy": False, "masks": False, "threads": 1},
    {"copy": False, "masks": False, "observe": False, "threads": 1},
]


def td_vector_table(seconds):
    """Tower Defense Duel's VectorEnv(256), with and without copies, masks and observations."""
    print(f"\nTower Defense Duel, VectorEnv(256), random vs random (load average before: "
          f"{os.getloadavg()[0]:.1f}):\n")
    print("| options | env-steps/s | CPU us per env-step |")
    print("|---|---:|---:|")
    for options in TD_OPTIONS:
        rate_, cpu = vector_cpu("tower_defense", {"variant": "duel"}, "random", 256, seconds, **options)
        label = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults (copy, masks, observations)"
        print(f"| {label} | {rate_:,.0f} | {cpu:.2f} |", flush=True)
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")


# ---- Tower Defense Duel's VectorEnv(256) beside envpool's CartPole-v1 x256

def td_step_cpu(seconds, **options):
    """CPU us (this process, every thread) an env-step of Tower Defense Duel's VectorEnv(256),
    Python's seat and the built-in seat opposite both playing `random`, observations and masks on."""
    return vector_cpu("tower_defense", {"variant": "duel"}, "random", 256, seconds, **options)[1]


def envpool_cartpole(threads):
    """envpool's CartPole-v1 x256 (gymnasium API) with `threads` worker threads, reset; `None`
    when envpool is not installed."""
    try:
        import envpool
    except ImportError:
        return None
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=256, num_threads=threads, seed=1)
    env.reset()
    return env


def envpool_step_cpu(seconds, threads=None):
    """CPU us an env-step of envpool's CartPole-v1 x256 (gymnasium API, random actions drawn
    before the timing; `threads` worker threads, default one a core); `None` when envpool is not
    installed."""
    env = envpool_cartpole(threads or os.cpu_count() or 1)
    if env is None:
        return None
    acts = np.random.default_rng(0).integers(0, 2, (64, 256)).astype(np.int32)
    k = {"i": 0}

    def run():
        env.step(acts[k["i"] % 64])
        k["i"] += 1
        return 256

    c0, w0 = time.process_time(), time.perf_counter()
    per_s = rate(run, seconds)
    return (time.process_time() - c0) / (per_s * (time.perf_counter() - w0)) * 1e6


HEADLINE = "Tower Defense Duel VectorEnv(256), observations (int16) + masks, copy=False, threads=1"


def vs_envpool(seconds, repeats, bursts=100):
    """Both, alternating, `repeats` times: min and median CPU us an env-step; then side by side
    in bursts (`paired_envpool`)."""
    rows = {HEADLINE: lambda: td_step_cpu(seconds, copy=False, dtype=np.int16, threads=1),
            "Tower Defense Duel VectorEnv(256), observations + masks, copy=False": lambda: td_step_cpu(seconds, copy=False),
            "Tower Defense Duel VectorEnv(256), observations (int16) + masks, copy=False": lambda: td_step_cpu(seconds, copy=False, dtype=np.int16),
            "Tower Defense Duel VectorEnv(256), observations + masks, copy=False, threads=1": lambda: td_step_cpu(seconds, copy=False, threads=1),
            "Tower Defense Duel VectorEnv(256), observations + masks, copies (defaults)": lambda: td_step_cpu(seconds),
            "envpool CartPole-v1 x256": lambda: envpool_step_cpu(seconds),
            "envpool CartPole-v1 x256, num_threads=1": lambda: envpool_step_cpu(seconds, threads=1)}
    got = {k: [] for k in rows}
    load0 = os.getloadavg()[0]
    for _ in range(repeats):
        for k, fn in rows.items():
            x = fn()
            if x is not None:
                got[k].append(x)
    print(f"\nCPU us an env-step, {repeats} runs of {seconds} s each, alternating (load average "
          f"{load0:.1f} before, {os.getloadavg()[0]:.1f} after, {os.cpu_count()} cores):\n")
    print("| env | min | median | runs |")
    print("|---|---:|---:|---|")
    for k, xs in got.items():
        if not xs:
            print(f"| {k} | not run (pip install envpool) | | |")
            continue
        print(f"| {k} | {min(xs):.2f} | {float(np.median(xs)):.2f} | {', '.join(f'{x:.2f}' for x in xs)} |")
    td = got[HEADLINE]
    for name, label in (("envpool CartPole-v1 x256", "a worker thread a core, its default"),
                        ("envpool CartPole-v1 x256, num_threads=1", "one worker thread")):
        ep = got[name]
        if td and ep:
            print(f"\nenvpool CartPole ({label}) / Tower Defense Duel (int16, threads=1), CPU an "
                  f"env-step (medians): {float(np.median(ep)) / float(np.median(td)):.2f}x")
    paired_envpool(bursts)


def paired_envpool(bursts, steps=20):
    """The headline vector beside envpool's CartPole x256 in one process, in alternating bursts of
    `steps` steps (the order swapped every burst), once with one envpool worker thread (its cost
    on one core, nothing waiting on another) and once with one a core (envpool's own default):
    CPU us an env-step of each (ours: the calling thread's, where `threads=1` steps; envpool:
    the process's), and the median over burst pairs of envpool's over ours, the figure the
    machine's load moves least (both sides are measured within a second of each other)."""
    import statistics

    v = VectorEnv("tower_defense", 256, seed=1, bots={"player_1": "random"}, variant="duel",
                  copy=False, dtype=np.int16, threads=1)
    v.reset()
    acts = np.random.default_rng(0).integers(0, 2, (64, 256)).astype(np.int32)
    print(f"\nSide by side, {bursts} pairs of bursts of {steps} steps, CPU us an env-step "
          f"(load average {os.getloadavg()[0]:.1f}):\n")
    print("| envpool worker threads | ours min | ours median | envpool min | envpool median | envpool / ours (median over pairs) |")
    print("|---|---:|---:|---:|---:|---:|")
    for threads in (1, os.cpu_count() or 1):
        env = envpool_cartpole(threads)
        if env is None:
            print(f"| {threads} | not run (pip install envpool) | | | | |")
            continue

        def ours():
            for _ in range(steps):
                v.step(policy="random")

        def theirs():
            for i in range(steps):
                env.step(acts[i % 64])

        for _ in range(15):
            ours()
            theirs()
        a, b, r = [], [], []
        # Ours on this thread's clock (the vector steps on the calling thread); envpool on the
        # process's, its workers' included: envpool's idle workers keep polling a while after
        # its bursts, which the process's clock would put on ours.
        clocks = {ours: time.thread_time, theirs: time.process_time}
        for burst in range(bursts):
            got = {}
            for fn in ((ours, theirs) if burst % 2 == 0 else (theirs, ours)):
                clock = clocks[fn]
                c = clock()
                fn()
                got[fn] = (clock() - c) / (steps * 256) * 1e6
            a.append(got[ours])
            b.append(got[theirs])
            r.append(got[theirs] / got[ours])
        print(f"| {threads} | {min(a):.2f} | {statistics.median(a):.2f} | {min(b):.2f} | "
              f"{statistics.median(b):.2f} | {statistics.median(r):.2f}x |", flush=True)
        del env


# ---- Ants

DIRS = np.array(["n", "e", "s", "w", ""])


def ants_ours(tutorial1, seconds):
    """Ants on tutorial1, both seats Python, random moves for every own ant from the observation
    planes (own ants: plane 2)."""
    env = pocket_arena.ants.parallel_env(map=str(tutorial1), turns=1000)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    state = {"obs": obs}

    def run():
        if not env.agents:
            state["obs"] = env.reset()[0]
        acts = {}
        for a in env.agents:
            o = state["obs"][a]
            planes = o[2:]
            cells = planes.shape[0] // 7
            mine = np.flatnonzero(planes[2 * cells : 3 * cells])
            w = env._cols
            d = DIRS[rng.integers(0, 5, len(mine))]
            acts[a] = [f"o {i // w} {i % w} {x}" for i, x in zip(mine, d) if x]
        state["obs"] = env.step(acts)[0]
        return 1

    # The map's width, from the greeting the engine sends.
    env._cols = int([l for l in tutorial1.read_text().splitlines() if l.startswith("cols")][0].split()[1])
    return rate(run, seconds)


ANTS_AI = r'''
import json, sys, time
import numpy as np
from ants_ai import AntsEnv
from ants_ai.ants_ai import Game, Action, Direction
from gymnasium.utils.performance import benchmark_step
mp, seconds = sys.argv[1], float(sys.argv[2])
out = {}
env = AntsEnv(mp, seed=1, max_turns=1000)
env.reset(seed=1)
space = env.action_space
def rate(fn):
    fn(); n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        n += fn()
    return n / (time.perf_counter() - t0)
def env_step():
    _, _, done, trunc, _ = env.step(space.sample())
    if done or trunc:
        env.reset()
    return 1
out["AntsEnv.step"] = rate(env_step)
env2 = AntsEnv(mp, seed=1, max_turns=1000)
out["AntsEnv benchmark_step"] = benchmark_step(env2, target_duration=seconds, seed=1)
text = open(mp).read()
dirs = [Direction.North, Direction.East, Direction.South, Direction.West]
rng = np.random.default_rng(0)
g = Game(text, 77, 5, 1, 5, 1000, 500, 1, None)
st = {"s": g.start()}
def bare():
    s = st["s"]
    if s.finished:
        st["g"] = Game(text, 77, 5, 1, 5, 1000, 500, 1, None)
        st["s"] = st["g"].start()
        s = st["s"]
    acts = []
    for ants in s.ants:
        for a in ants:
            k = rng.integers(0, 5)
            if k < 4:
                acts.append(Action(a.row, a.col, dirs[k]))
    st["s"] = (st.get("g") or g).update(acts)
    return 1
out["Game.update"] = rate(bare)
import importlib.metadata as md
out["version"] = md.version("ants-ai")
print(json.dumps(out))
'''


def ants_ai(tutorial1, seconds):
    venv = ROOT / "target" / "ants-ai-venv"
    py = venv / "bin" / "python"
    if not py.exists():
        base = pathlib.Path(os.environ.get("PYENV_ROOT", pathlib.Path.home() / ".pyenv")) / "versions"
        p312 = sorted(base.glob("3.12*/bin/python"))
        if not p312:
            return None, "no Python 3.12 (pyenv install 3.12)"
        subprocess.run([str(p312[-1]), "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(py), "-m", "pip", "install", "-q", "--no-deps", "ants-ai==1.0.3", "gymnasium", "numpy", "pygame",
             "cloudpickle", "typing_extensions", "farama-notifications"],
            check=True,
        )
    r = subprocess.run([str(py), "-c", ANTS_AI, str(tutorial1), str(seconds)], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr[-500:]
    return json.loads(r.stdout), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--no-ants-ai", action="store_true")
    ap.add_argument("--repeats", type=int, default=5, help="runs of the envpool comparison")
    ap.add_argument("--bursts", type=int, default=100, help="pairs of bursts in the side-by-side envpool comparison")
    ap.add_argument("--envpool-only", action="store_true", help="only Tower Defense Duel's VectorEnv(256) beside envpool's CartPole")
    ap.add_argument("--golden", default=str(ROOT.parent / "shared" / "golden"))
    args = ap.parse_args()
    s = args.seconds
    print(f"date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; "
          f"pocket_arena {pocket_arena.__version__}; Python {platform.python_version()}; "
          f"{os.cpu_count()} cores; policy: random legal moves\n")
    if args.envpool_only:
        vs_envpool(s, args.repeats, args.bursts)
        return
    print("| game | Rust step alone | env step from Python (step_policy) | Python's cost a step (us of CPU) | PettingZoo parallel_env.step | VectorEnv 1 | 16 | 64 | 256 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game, config, policy in GAMES:
        label = game + "".join(f" {v}" for v in config.values())
        (alone, alone_cpu), (py, py_cpu) = cpu_us(rust_only, game, config, policy), cpu_us(single_policy, game, config, policy, s)
        cells = [alone, py, single(game, config, policy, s)]
        cells += [vector(game, config, policy, n, s) for n in (1, 16, 64, 256)]
        shown = [f"{c:,.0f}" for c in cells]
        # Python's cost from the CPU time a step took each way (the wall rates move with the load).
        shown.insert(2, f"{py_cpu - alone_cpu:.2f}")
        print(f"| {label} | " + " | ".join(shown) + " |", flush=True)
    td_vector_table(s)
    vs_envpool(s, args.repeats, args.bursts)
    tut = pathlib.Path(args.golden) / "ants" / "maps" / "tutorial1.map"
    if tut.exists():
        ours = ants_ours(tut, s)
        print(f"\nAnts, tutorial1, 2 players, random moves for every ant on both sides:\n")
        print("| engine | steps/s |")
        print("|---|---:|")
        print(f"| pocket_arena.ants parallel_env.step (exact) | {ours:,.0f} |")
        if not args.no_ants_ai:
            theirs, err = ants_ai(tut, s)
            if theirs is None:
                print(f"| ants-ai | not run: {err} |")
            else:
                v = theirs.pop("version")
                for k, x in theirs.items():
                    print(f"| ants-ai {v} {k} | {x:,.0f} |")
                print(f"\nratio: pocket_arena env step / ants-ai AntsEnv.step = {ours / theirs['AntsEnv.step']:.1f}x; "
                      f"/ ants-ai bare Game.update = {ours / theirs['Game.update']:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
