//! `VecMatch`: n matches of one game stepped in one call with the GIL released, observations,
//! rewards and flags as batched numpy arrays, each match started again when it is done, seeded as
//! a tournament seeds its matches ([`arena_host::tournament::match_seed`]: the tournament seed
//! and the match's index, counted over every match the vector starts).

use crate::env::{self, DynEnv};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

#[pyclass(module = "pocket_arena._native")]
pub struct VecMatch {
    envs: Vec<Box<dyn DynEnv>>,
    seed: u64,
    /// Matches started so far (the next one's index).
    started: u64,
    agents: Vec<usize>,
    obs_len: usize,
    /// Worker threads a step uses.
    threads: usize,
}

/// What one step of one match came to, written into the batch.
struct Row {
    rewards: Vec<f32>,
    terms: Vec<bool>,
    truncs: Vec<bool>,
    refused: Vec<u32>,
}

fn advance(env: &mut dyn DynEnv) {
    while !env.is_done() && !env.to_move().iter().any(|s| env.agents().contains(s)) {
        env.step(&[]);
    }
}

/// Writes the observations of `env`'s agents into `obs` (agents x obs_len, zero-padded).
fn observe(
    env: &dyn DynEnv,
    agents: &[usize],
    obs_len: usize,
    obs: &mut [i32],
    one: &mut Vec<i32>,
) {
    for (k, &s) in agents.iter().enumerate() {
        env.observe_array(s, one);
        one.resize(obs_len, 0);
        if let Some(dst) = obs.get_mut(k * obs_len..(k + 1) * obs_len) {
            dst.copy_from_slice(one);
        }
    }
}

fn row(env: &dyn DynEnv, agents: &[usize], refused: &[u32]) -> Row {
    let over = env.is_over();
    let trunc = env.truncated();
    let outcome = env.outcome();
    let n = env.seats().max(2) as f32;
    Row {
        rewards: agents
            .iter()
            .map(|&s| match &outcome {
                Some((ranks, _)) => 1.0 - 2.0 * f32::from(ranks[s]) / (n - 1.0),
                None => 0.0,
            })
            .collect(),
        terms: agents
            .iter()
            .map(|&s| !trunc && (over || !env.seat_in(s)))
            .collect(),
        truncs: agents.iter().map(|_| trunc).collect(),
        refused: agents
            .iter()
            .map(|&s| refused.get(s).copied().unwrap_or(0))
            .collect(),
    }
}

type Batch<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

impl VecMatch {
    fn batch<'py>(&self, py: Python<'py>, obs: Vec<i32>, rows: Vec<Row>) -> PyResult<Batch<'py>> {
        let (n, a, l) = (rows.len(), self.agents.len(), self.obs_len);
        let (mut rw, mut te, mut tr, mut rf) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for r in rows {
            rw.extend(r.rewards);
            te.extend(r.terms);
            tr.extend(r.truncs);
            rf.extend(r.refused);
        }
        Ok((
            PyArray1::from_vec(py, obs).reshape([n, a, l])?.into_any(),
            PyArray1::from_vec(py, rw).reshape([n, a])?.into_any(),
            PyArray1::from_vec(py, te).reshape([n, a])?.into_any(),
            PyArray1::from_vec(py, tr).reshape([n, a])?.into_any(),
            PyArray1::from_vec(py, rf).reshape([n, a])?.into_any(),
        ))
    }
}

#[pymethods]
impl VecMatch {
    #[new]
    #[pyo3(signature = (game, args, bots, n, seed=0))]
    fn new(
        game: &str,
        args: Vec<String>,
        bots: Vec<(usize, String)>,
        n: usize,
        seed: u64,
    ) -> PyResult<Self> {
        if n == 0 {
            return Err(PyValueError::new_err("n: at least one match"));
        }
        let mut envs = Vec::with_capacity(n);
        for i in 0..n {
            let s = arena_host::tournament::match_seed(seed, i);
            let mut e = env::make(game, args.clone(), bots.clone(), false, s)
                .map_err(PyValueError::new_err)?;
            advance(e.as_mut());
            envs.push(e);
        }
        let agents = envs[0].agents().to_vec();
        let mut one = Vec::new();
        let obs_len = agents
            .iter()
            .map(|&s| {
                envs[0].observe_array(s, &mut one);
                one.len()
            })
            .max()
            .unwrap_or(0);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        Ok(VecMatch {
            envs,
            seed,
            started: n as u64,
            agents,
            obs_len,
            threads,
        })
    }

    #[getter]
    fn agents(&self) -> Vec<usize> {
        self.agents.clone()
    }
    #[getter]
    fn obs_len(&self) -> usize {
        self.obs_len
    }
    #[getter]
    fn num_envs(&self) -> usize {
        self.envs.len()
    }
    /// Worker threads a step uses (default: the machine's cores).
    #[getter]
    fn get_threads(&self) -> usize {
        self.threads
    }
    #[setter]
    fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }
    fn digests(&self) -> Vec<u64> {
        self.envs.iter().map(|e| e.digest()).collect()
    }
    fn seeds(&self) -> Vec<u64> {
        self.envs.iter().map(|e| e.seed()).collect()
    }

    /// Starts every match again, seeded from `seed` (default: the vector's own); returns the
    /// observations `(n, agents, obs_len)`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(s) = seed {
            self.seed = s;
        }
        for (i, e) in self.envs.iter_mut().enumerate() {
            e.reset(arena_host::tournament::match_seed(self.seed, i))
                .map_err(PyValueError::new_err)?;
            advance(e.as_mut());
        }
        self.started = self.envs.len() as u64;
        let per = self.agents.len() * self.obs_len;
        let mut obs = vec![0i32; self.envs.len() * per];
        let mut one = Vec::new();
        let rows: Vec<Row> = self
            .envs
            .iter()
            .zip(obs.chunks_mut(per.max(1)))
            .map(|(e, o)| {
                observe(e.as_ref(), &self.agents, self.obs_len, o, &mut one);
                row(e.as_ref(), &self.agents, &[])
            })
            .collect();
        Ok(self.batch(py, obs, rows)?.0)
    }

    /// One step of every match: `actions[i]` holds match i's `(seat, action JSON)` pairs; Python's
    /// seats without one play the built-in bot `policy` (or pass, without a policy). Returns
    /// `(obs, rewards, terminations, truncations, refused)` batched; a match that is done is
    /// started again at once (its row shows the new match's first observation).
    #[pyo3(signature = (actions=None, policy=None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: Option<Vec<Vec<(usize, String)>>>,
        policy: Option<String>,
    ) -> PyResult<Batch<'py>> {
        let n = self.envs.len();
        if actions.as_ref().is_some_and(|a| a.len() != n) {
            return Err(PyValueError::new_err(format!(
                "actions: one list per match ({n})"
            )));
        }
        let (agents, obs_len) = (self.agents.clone(), self.obs_len);
        let chunk = n.div_ceil(self.threads.max(1)).max(1);
        let acts = actions.unwrap_or_default();
        let policy = policy.as_deref();
        let per = agents.len() * obs_len;
        let mut obs = vec![0i32; n * per];
        let one = |i: usize,
                   e: &mut Box<dyn DynEnv>,
                   o: &mut [i32],
                   buf: &mut Vec<i32>|
         -> Result<Row, String> {
            let given: &[(usize, String)] = acts.get(i).map_or(&[], Vec::as_slice);
            let steps = match policy {
                Some(p) => e.step_policy(given, p)?,
                None => e.step(given),
            };
            advance(e.as_mut());
            let refused: Vec<u32> = steps.iter().map(|s| s.refused).collect();
            let r = row(e.as_ref(), &agents, &refused);
            if !e.is_done() {
                observe(e.as_ref(), &agents, obs_len, o, buf);
            }
            Ok(r)
        };
        let envs = &mut self.envs;
        let obs_rows = obs.chunks_mut(per.max(1));
        let rows: Result<Vec<Row>, String> = py.detach(|| {
            // Threads pay off for large vectors only (a spawn costs more than a few matches' steps).
            if chunk >= n || n < 128 {
                let mut buf = Vec::new();
                return envs
                    .iter_mut()
                    .zip(obs_rows)
                    .enumerate()
                    .map(|(i, (e, o))| one(i, e, o, &mut buf))
                    .collect();
            }
            let mut obs_parts: Vec<&mut [i32]> = obs_rows.collect();
            std::thread::scope(|scope| {
                let mut handles = Vec::new();
                let mut rest_obs: &mut [&mut [i32]] = &mut obs_parts;
                for (c, part) in envs.chunks_mut(chunk).enumerate() {
                    let (mine, later) = rest_obs.split_at_mut(part.len());
                    rest_obs = later;
                    let one = &one;
                    handles.push(scope.spawn(move || {
                        let mut buf = Vec::new();
                        part.iter_mut()
                            .zip(mine.iter_mut())
                            .enumerate()
                            .map(|(j, (e, o))| one(c * chunk + j, e, o, &mut buf))
                            .collect::<Result<Vec<Row>, String>>()
                    }));
                }
                let mut all = Vec::with_capacity(n);
                for h in handles {
                    all.extend(h.join().map_err(|_| "a worker panicked".to_string())??);
                }
                Ok(all)
            })
        });
        let rows = rows.map_err(PyValueError::new_err)?;
        // Matches that are done start again, seeded by their index over the vector's life; their
        // row shows the new match's first observation.
        let mut buf = Vec::new();
        for (e, o) in self.envs.iter_mut().zip(obs.chunks_mut(per.max(1))) {
            if e.is_done() {
                let s = arena_host::tournament::match_seed(self.seed, self.started as usize);
                self.started += 1;
                e.reset(s).map_err(PyValueError::new_err)?;
                advance(e.as_mut());
                observe(e.as_ref(), &self.agents, self.obs_len, o, &mut buf);
            }
        }
        self.batch(py, obs, rows)
    }
}
