"""python/examples/train_ppo.py, a few hundred env-steps: it runs, its losses are finite, and the
evaluation counts every match once (the 10-minute training that beats `random` is not run here:
docs/python.md, "Training")."""

import importlib.util
import math

import pytest

from conftest import ROOT


def load():
    spec = importlib.util.spec_from_file_location("train_ppo", ROOT / "python" / "examples" / "train_ppo.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("plain", [False, True])
def test_ppo_runs_and_its_losses_are_finite(plain):
    mod = load()
    args = ["--game", "td-duel", "--envs", "8", "--steps", "16", "--total-steps", "384", "--eval", "0", "--minutes", "5"]
    curve = mod.main(args + (["--plain"] if plain else []))
    assert curve and curve[-1]["steps"] >= 384
    for row in curve:
        for k in ("policy_loss", "value_loss", "entropy", "kl"):
            assert math.isfinite(row[k]), (k, row)
        assert row["entropy"] > 0


def test_the_per_position_gradients_are_the_numerical_ones():
    """The hand-written backward pass of the per-position network, against finite differences."""
    mod = load()
    import numpy as np

    config = {"size": "5x5", "ticks": 40}
    env = mod.make("cf-skirmish", 3, 0, config)
    obs, infos = env.reset()
    for _ in range(3):
        obs, _, _, _, infos = env.step(policy="random")
    rng = np.random.default_rng(1)
    agent = mod.Agent(rng, obs[0, 0], env.listed, 1e-3, "cf-skirmish")
    x = obs[:, 0]
    dl = rng.standard_normal((3, env.listed)).astype(np.float32)
    dv = rng.standard_normal(3).astype(np.float32)

    def loss():
        logits, v, _ = agent.forward(x)
        return float((logits * dl).sum() + (v * dv).sum())

    _, _, cache = agent.forward(x)
    grads = agent.backward(cache, dl, dv)
    params = agent.opt.params
    for p, g in [(params[0], grads[0]), (params[-4], grads[-4]), (params[-2], grads[-2])]:
        i = np.unravel_index(np.argmax(np.abs(g)), g.shape)
        old = p[i]
        p[i] = old + 1e-2
        up = loss()
        p[i] = old - 1e-2
        down = loss()
        p[i] = old
        assert (up - down) / 2e-2 == pytest.approx(float(g[i]), rel=0.05, abs=1e-3)


@pytest.mark.parametrize("critic", [False, True])
def test_the_pooled_value_and_the_critic_gradients_are_the_numerical_ones(critic):
    """`--pool-value` (the value plus a sum over the positions) and `--critic` (a value network of
    its own): every parameter's hand-written gradient against finite differences."""
    mod = load()
    import numpy as np

    env = mod.make("td-duel", 3, 0, {})
    obs, infos = env.reset()
    for _ in range(3):
        obs, _, _, _, infos = env.step(policy="random")
    rng = np.random.default_rng(1)
    agent = mod.Agent(rng, obs[0, 0], env.listed, 1e-3, "td-duel", critic=critic, pool_value=True)
    agent.pool[:] = 0.1 * rng.standard_normal(agent.pool.shape)
    x = obs[:, 0]
    dl = rng.standard_normal((3, env.listed)).astype(np.float32)
    dv = rng.standard_normal(3).astype(np.float32)

    def loss():
        logits, v, _ = agent.forward(x)
        return float((logits.astype(np.float64) * dl).sum() + (v.astype(np.float64) * dv).sum())

    _, _, cache = agent.forward(x)
    grads = agent.backward(cache, dl, dv)
    assert len(grads) == len(agent.opt.params)
    checked = 0
    for p, g in zip(agent.opt.params, grads):
        assert p.shape == g.shape
        if not np.abs(g).max() > 0:
            continue  # with `critic`, the policy trunk's value head and the critic's policy head
        i = np.unravel_index(np.argmax(np.abs(g)), g.shape)
        old = p[i]
        p[i] = old + 1e-2
        up = loss()
        p[i] = old - 1e-2
        down = loss()
        p[i] = old
        assert (up - down) / 2e-2 == pytest.approx(float(g[i]), rel=0.05, abs=1e-3)
        checked += 1
    assert checked >= (17 if critic else 13)


def test_the_kind_prior_makes_each_kind_one_action_at_the_start():
    """`--kind-prior`: with logits all equal, a kind of per-position actions is as likely as the
    pass, however many of its actions are legal."""
    mod = load()
    import numpy as np

    env = mod.make("td-duel", 1, 0, {})
    obs, infos = env.reset()
    agent = mod.Agent(np.random.default_rng(0), obs[0, 0], env.listed, 1e-3, "td-duel", kind_prior=True)
    mask = np.zeros((1, env.listed), bool)
    mask[0, 0] = True  # the pass
    mask[0, 505 + np.arange(7)] = True  # seven destroys
    mask[0, 5 + np.arange(40)] = True  # forty turrets
    p = np.exp(agent.logp(np.zeros((1, env.listed), np.float32), mask))[0]
    assert p.sum() == pytest.approx(1.0)
    assert p[0] == pytest.approx(1 / 3) and p[505:512].sum() == pytest.approx(1 / 3)
    assert p[5:45].sum() == pytest.approx(1 / 3)
    assert p[~mask[0]].max() == 0


def test_the_most_likely_action_under_the_kind_prior_is_the_likeliest_kinds():
    """With `--kind-prior`, the most likely action is the likeliest kind's likeliest position: forty
    turrets holding 60% of the probability between them beat a pass of 40%."""
    mod = load()
    import numpy as np

    env = mod.make("td-duel", 1, 0, {})
    obs, _ = env.reset()
    agent = mod.Agent(np.random.default_rng(0), obs[0, 0], env.listed, 1e-3, "td-duel", kind_prior=True)
    p = np.zeros((2, env.listed))
    p[:, 0] = 0.4
    p[:, 5:45] = 0.6 / 40
    p[0, 20] += 0.001
    p[0, 21] -= 0.001
    p[1, 0], p[1, 5:45] = 0.7, 0.3 / 40  # the pass now the likelier
    with np.errstate(divide="ignore"):
        a = agent.most_likely(np.log(p))
    assert list(a) == [20, 0]


def test_evaluation_counts_each_match_once():
    mod = load()
    import numpy as np

    config = {"size": "6x6", "ticks": 40}
    env = mod.make("cf-skirmish", 1, 0, config)
    obs, _ = env.reset()
    agent = mod.Agent(np.random.default_rng(0), obs[0, 0], env.listed, 1e-3, "cf-skirmish")
    won, drawn, lost = mod.evaluate(agent, "cf-skirmish", 6, 3, config)
    assert won + drawn + lost == 6


def test_the_best_window_is_kept_and_the_curve_written(tmp_path, capsys):
    """`--best-window`: the parameters evaluated are those of a step the curve has, named with the
    window's win rate; `--ent-final` anneals the entropy coefficient; `--curve` writes the rows
    `main` returns and `--save` the parameters."""
    mod = load()
    import numpy as np

    curve_path, saved = tmp_path / "curve.csv", tmp_path / "p.npz"
    args = ["--game", "cf-skirmish", "--config", '{"size": "5x5", "ticks": 40}', "--envs", "8", "--steps", "8",
            "--total-steps", "1600", "--eval", "0", "--minutes", "5", "--best-window", "8", "--ent-final", "0",
            "--curve", str(curve_path), "--save", str(saved)]
    curve = mod.main(args)
    out = capsys.readouterr().out
    kept = [line for line in out.splitlines() if line.startswith("kept the parameters of env-step ")]
    assert len(kept) == 1, out
    step = int(kept[0].split("env-step ")[1].split(":")[0])
    assert step in [row["steps"] for row in curve]
    rate = int(kept[0].split(": ")[1].split("%")[0])
    assert 0 <= rate <= 100
    assert [row["steps"] for row in mod.read_curve(curve_path)] == [row["steps"] for row in curve]
    with np.load(saved) as z:
        assert len(z.files) > 0 and all(np.isfinite(z[k]).all() for k in z.files)


def test_an_update_split_among_threads_is_the_same_step():
    """`--threads`: a minibatch's gradients computed in two halves on two threads and summed move
    the parameters as the whole minibatch on one thread does."""
    mod = load()
    import numpy as np
    from concurrent.futures import ThreadPoolExecutor

    env = mod.make("td-duel", 6, 0, {})
    obs, infos = env.reset()
    for _ in range(5):
        obs, _, _, _, infos = env.step(policy="random")
    rng = np.random.default_rng(4)
    mask = infos["action_mask"][:, 0] > 0
    b = {"x": obs[:, 0], "mask": mask, "a": np.argmax(mask, 1), "logp": np.full(6, -3.0, np.float32),
         "adv": rng.standard_normal(6).astype(np.float32), "ret": rng.standard_normal(6).astype(np.float32)}
    agent = mod.Agent(np.random.default_rng(2), obs[0, 0], env.listed, 1e-2, "td-duel")
    steps = []
    agent.opt.step = steps.append  # the gradients the optimiser is given, the parameters unchanged
    s1 = agent.update(b, 0.2, 0.01, 0.5, 1e9)
    with ThreadPoolExecutor(2) as pool:
        s2 = agent.update(b, 0.2, 0.01, 0.5, 1e9, pool, 2)
    assert s1 == pytest.approx(s2, rel=1e-4, abs=1e-6)
    assert len(steps) == 2 and len(steps[0]) == len(agent.opt.params)
    assert any(np.abs(g).max() > 0 for g in steps[0])
    for g1, g2 in zip(*steps):
        np.testing.assert_allclose(g1, g2, rtol=1e-4, atol=1e-7)


def test_the_selection_seeds_meet_neither_the_training_nor_the_evaluation():
    """`--select-seed`: the overlap check finds a vector whose match 0 is another's match 5, the
    defaults' selection matches meet neither the training's (any count a run reaches) nor the 100
    evaluation matches', and `main` refuses a selection seed that meets them."""
    mod = load()
    a = 1
    b = a ^ (5 * mod.GOLDEN % 2**64)  # its match 0 is seeded as a's match 5
    assert mod.seeds_overlap(a, 6, b, 1)
    assert not mod.seeds_overlap(a, 5, b, 1)
    assert not mod.seeds_overlap(1, 2**40, 20_000, 64)
    assert not mod.seeds_overlap(10_000, 100, 20_000, 64)
    assert not mod.seeds_overlap(1, 2**40, 10_000, 100)
    with pytest.raises(SystemExit):
        mod.main(["--game", "cf-skirmish", "--select-greedy", "4", "--select-seed", str(b), "--eval", "0", "--total-steps", "64"])


def test_the_selection_keeps_the_parameters_that_won_most_selection_matches(tmp_path, capsys):
    """`--select-greedy N`: the parameters kept (and saved) are those of the latest round with the
    best selection win rate, and played again with the most likely action on the selection seeds
    they win that many matches."""
    mod = load()
    import numpy as np

    config = '{"size": "5x5", "ticks": 40}'
    saved = tmp_path / "p.npz"
    args = ["--game", "cf-skirmish", "--config", config, "--envs", "8", "--steps", "8", "--total-steps", "1600",
            "--eval", "0", "--minutes", "5", "--select-greedy", "6", "--select-every", "1", "--select-seed", "77",
            "--save", str(saved)]
    curve = mod.main(args)
    out = capsys.readouterr().out
    rounds = [(row["steps"], row["select_rate"]) for row in curve if "select_rate" in row]
    assert len(rounds) == len(curve) >= 2
    top = max(r for _, r in rounds)
    want = [s for s, r in rounds if r == top][-1]
    kept = [line for line in out.splitlines() if line.startswith("kept the parameters of env-step ")]
    assert len(kept) == 1, out
    assert int(kept[0].split("env-step ")[1].split(":")[0]) == want
    assert "selection matches won" in kept[0]
    env = mod.make("cf-skirmish", 1, 0, {"size": "5x5", "ticks": 40})
    obs, _ = env.reset()
    agent = mod.Agent(np.random.default_rng(0), obs[0, 0], env.listed, 1e-3, "cf-skirmish")
    with np.load(saved) as z:
        for p, k in zip(agent.opt.params, z.files):
            p[...] = z[k]
    won = mod.evaluate(agent, "cf-skirmish", 6, 77, {"size": "5x5", "ticks": 40}, greedy=True)[0]
    assert won / 6 == top
