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
    obs: Vec<i32>,
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

fn row(env: &dyn DynEnv, agents: &[usize], obs_len: usize, refused: &[u32]) -> Row {
    let mut obs = Vec::with_capacity(agents.len() * obs_len);
    let mut one = Vec::new();
    for &s in agents {
        env.observe_array(s, &mut one);
        one.resize(obs_len, 0);
        obs.extend_from_slice(&one);
    }
    let over = env.is_over();
    let trunc = env.truncated();
    let outcome = env.outcome();
    let n = env.seats().max(2) as f32;
    Row {
        obs,
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
    fn batch<'py>(&self, py: Python<'py>, rows: Vec<Row>) -> PyResult<Batch<'py>> {
        let (n, a, l) = (rows.len(), self.agents.len(), self.obs_len);
        let mut obs = Vec::with_capacity(n * a * l);
        let (mut rw, mut te, mut tr, mut rf) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for r in rows {
            obs.extend(r.obs);
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
        let rows: Vec<Row> = self
            .envs
            .iter()
            .map(|e| row(e.as_ref(), &self.agents, self.obs_len, &[]))
            .collect();
        Ok(self.batch(py, rows)?.0)
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
        let one = |i: usize, e: &mut Box<dyn DynEnv>| -> Result<Row, String> {
            let given: &[(usize, String)] = acts.get(i).map_or(&[], Vec::as_slice);
            let steps = match policy {
                Some(p) => e.step_policy(given, p)?,
                None => e.step(given),
            };
            advance(e.as_mut());
            let refused: Vec<u32> = steps.iter().map(|s| s.refused).collect();
            Ok(row(e.as_ref(), &agents, obs_len, &refused))
        };
        let envs = &mut self.envs;
        let rows: Result<Vec<Row>, String> = py.detach(|| {
            if chunk >= n || n < 16 {
                return envs
                    .iter_mut()
                    .enumerate()
                    .map(|(i, e)| one(i, e))
                    .collect();
            }
            std::thread::scope(|scope| {
                let handles: Vec<_> = envs
                    .chunks_mut(chunk)
                    .enumerate()
                    .map(|(c, part)| {
                        let one = &one;
                        scope.spawn(move || {
                            part.iter_mut()
                                .enumerate()
                                .map(|(j, e)| one(c * chunk + j, e))
                                .collect::<Result<Vec<Row>, String>>()
                        })
                    })
                    .collect();
                let mut all = Vec::with_capacity(n);
                for h in handles {
                    all.extend(h.join().map_err(|_| "a worker panicked".to_string())??);
                }
                Ok(all)
            })
        });
        let mut rows = rows.map_err(PyValueError::new_err)?;
        // Matches that are done start again, seeded by their index over the vector's life.
        for (e, r) in self.envs.iter_mut().zip(rows.iter_mut()) {
            if e.is_done() {
                let s = arena_host::tournament::match_seed(self.seed, self.started as usize);
                self.started += 1;
                e.reset(s).map_err(PyValueError::new_err)?;
                advance(e.as_mut());
                let fresh = row(e.as_ref(), &self.agents, self.obs_len, &[]);
                r.obs = fresh.obs;
            }
        }
        self.batch(py, rows)
    }
}
