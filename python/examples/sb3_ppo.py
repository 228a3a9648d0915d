"""Stable-Baselines3 PPO over SuperSuit's vector env of a pocket_arena parallel env, and SB3's own
env checker on a registered Gymnasium id: the standard path an RL user takes.

    pip install stable-baselines3 supersuit   # and torch (PyPI's is the CUDA build, GBs)
    python python/examples/sb3_ppo.py [steps]

Tower Defense Duel, `player_0` learning against the built-in `random` bot (`bots=`), 8 copies of
the env concatenated by SuperSuit (`concat_vec_envs_v1`, which pickles them: the envs rebuild
from their config, seed and calls), PPO with an MLP policy for `steps` env-steps (default 4096).
Prints the time it took and the mean episode reward SB3 logged. Not run by CI (torch).
"""

import sys
import time

import gymnasium as gym
import numpy as np
import supersuit as ss
from stable_baselines3 import PPO
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.vec_env import VecMonitor

import pocket_arena


def main(steps=4096):
    # SB3's own checker on a registered single-agent env.
    env = gym.make("pocket_arena/TowerDefenseDuel-v0", opponent="random", turn_limit=200)
    check_env(env.unwrapped)
    print("SB3 check_env: pocket_arena/TowerDefenseDuel-v0 passed")

    par = pocket_arena.tower_defense.parallel_env(bots={"player_1": "random"}, turn_limit=200)
    vec = ss.pettingzoo_env_to_vec_env_v1(par)
    vec = ss.concat_vec_envs_v1(vec, 8, num_cpus=0, base_class="stable_baselines3")
    vec = VecMonitor(vec)
    # No `seed=` to PPO: SuperSuit's ConcatVecEnv has no `seed()` for SB3 to call. Never seeded,
    # each copy draws its own matches (`reset()` without a seed).
    model = PPO("MlpPolicy", vec, n_steps=256, batch_size=256, verbose=0, device="cpu")
    t = time.perf_counter()
    cpu = time.process_time()
    model.learn(total_timesteps=steps)
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    rewards = [e["r"] for e in model.ep_info_buffer] if model.ep_info_buffer else []
    print(
        f"PPO: {model.num_timesteps} env-steps in {wall:.1f} s wall ({cpu:.1f} s CPU), "
        f"{len(rewards)} episodes, mean episode reward {np.mean(rewards) if rewards else float('nan'):.2f}"
    )
    vec.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4096)
