//! `VecMatch`: n matches of one game stepped in one call with the GIL released, over a rayon
//! pool of the machine's cores; observations, masks, rewards and flags are written straight into
//! numpy arrays the vector keeps (no per-match Python object, no copy on the way); each match is
//! started again when it is done, seeded as a tournament seeds its matches
//! ([`arena_host::tournament::match_seed`]: the tournament seed and the match's index, counted
//! over every match the vector starts).

use crate::env::DynEnv;
use crate::games::ObsOut;
use crate::obs::Written;
use crate::Spec;
use arena_core::MAX_SEATS;
use numpy::{PyArray2, PyArray3, PyArrayMethods, PyReadwriteArray3, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Mutex;

/// The arrays a step fills, each with one row per match (`n` matches, `a` agents): what the
/// agents see, and what the step came to ([`Outcomes`]).
struct Buffers {
    /// `(n, a, obs_len)`: the default observations.
    obs: ObsBuf,
    /// `(n, a, listed)`: the masks of the game's action list.
    masks: Py<PyArray3<i8>>,
    came: Outcomes,
    /// Read-only views of the six arrays, in [`Batch`]'s order: what `copy=False` returns (the
    /// same objects every step). Read-only because a step writes only what changed in the
    /// observations' rows (`crate::obs::Written`): a number Python wrote there could stay.
    views: [Py<PyAny>; 6],
}

/// The observations' array, in the dtype the vector was made with.
enum ObsBuf {
    I32(Py<PyArray3<i32>>),
    /// Each number saturated to `i16` (`dtype="int16"`): half the bytes written a step.
    I16(Py<PyArray3<i16>>),
}

/// A worker's room: `aside` for games that build an observation aside (it stays in the core's
/// cache).
#[derive(Default)]
pub struct Scratch {
    aside: Vec<i32>,
}

struct Outcomes {
    /// `(n, a)`: score change, plus the ranking at the end.
    rewards: Py<PyArray2<f32>>,
    /// `(n, a, 2)`: over for the agent (termination), stopped by the turn limit (truncation).
    ends: Py<PyArray3<bool>>,
    /// `(n, a)`: actions the rules refused.
    refused: Py<PyArray2<u32>>,
    /// `(n, seats)`: every seat's rank (0 first; shared ranks share) in the match that ended this
    /// step, -1 when none did.
    ranks: Py<PyArray2<i8>>,
}

/// One match's rows of the [`Buffers`].
pub struct Row<'a> {
    obs: ObsOut<'a>,
    masks: &'a mut [i8],
    rewards: &'a mut [f32],
    ends: &'a mut [bool],
    refused: &'a mut [u32],
    ranks: &'a mut [i8],
    /// What each agent's observation row holds since its last write (`crate::obs::Written`).
    written: &'a mut [Written],
    /// Whether the match is done after the step (one flag).
    done: &'a mut [bool],
}

/// The first `per` elements of `buf` (fewer when it holds fewer), taken off it.
fn cut<'a, T>(buf: &mut &'a mut [T], per: usize) -> &'a mut [T] {
    let all = std::mem::take(buf);
    let (row, rest) = all.split_at_mut(per.min(all.len()));
    *buf = rest;
    row
}

#[pyclass(module = "pocket_arena._native")]
pub struct VecMatch {
    /// Behind a mutex only to make the class `Sync`: `&mut self` methods reach it unlocked.
    envs: Mutex<Vec<Box<dyn DynEnv>>>,
    seed: u64,
    #[pyo3(get, name = "num_envs")]
    n: usize,
    /// Matches started so far (the next one's index).
    started: u64,
    #[pyo3(get)]
    agents: Vec<usize>,
    /// Seats at a match (Python's and the built-in bots').
    #[pyo3(get)]
    seats: usize,
    #[pyo3(get)]
    obs_len: usize,
    /// How many actions the game's list has (0: no masks).
    #[pyo3(get)]
    listed: usize,
    /// A factored list's `(slots, choices)` (Ants), for `step_factored`.
    #[pyo3(get)]
    factors: Option<(usize, usize)>,
    buffers: Buffers,
    /// What each row of the observations holds since its last write, `(n, a)`: a step writes
    /// only what changed since (`crate::obs::Written`); a match started again is written whole.
    written: Vec<Written>,
    /// Whether each match was done after the last step: those `restart_done` starts again.
    done: Vec<bool>,
    /// The pool a step runs on (`None`: the calling thread alone).
    pool: Option<rayon::ThreadPool>,
    threads: usize,
}

/// Writes the observations and masks of `env`'s agents into their rows: the observations whole
/// (`whole`: a match started again), or only what changed since the rows' last write.
fn observe<E: DynEnv + ?Sized>(
    env: &E,
    agents: &[usize],
    row: &mut Row<'_>,
    scratch: &mut Scratch,
    whole: bool,
) {
    // One agent (most vectors): its rows whole, no division.
    let (l, m) = match agents.len() {
        0 => (0, 0),
        1 => (row.obs.len(), row.masks.len()),
        a => (row.obs.len() / a, row.masks.len() / a),
    };
    for (k, &s) in agents.iter().enumerate() {
        let written = &mut row.written[k];
        if whole {
            *written = Written::default();
        }
        if l > 0 {
            let out = match &mut row.obs {
                ObsOut::I32(o) => ObsOut::I32(&mut o[k * l..(k + 1) * l]),
                ObsOut::I16(o) => ObsOut::I16(&mut o[k * l..(k + 1) * l]),
            };
            env.observe_update(s, out, &mut scratch.aside, written);
        }
        if m > 0 {
            env.mask_update(s, &mut row.masks[k * m..(k + 1) * m], written);
        }
    }
}

/// Each seat's refusals in a step (`steps`), kept aside (the match's own answer is overwritten
/// by the built-in seats' steps that follow).
pub(crate) fn refusals(steps: &[crate::env::SeatStep]) -> [u32; MAX_SEATS] {
    let mut refused = [0; MAX_SEATS];
    for (r, s) in refused.iter_mut().zip(steps) {
        *r = s.refused;
    }
    refused
}

/// After a step of `env` (`refused`: each seat's refusals in it): the built-in seats moved on,
/// what the step came to written, and the observations of a match that goes on (one that
/// ended is written whole when it starts again). Generic, and reached through
/// [`DynEnv::stepped`]: one call through the match's vtable, the dozen it makes of the match
/// direct (and inlined).
pub(crate) fn stepped<E: DynEnv + ?Sized>(
    env: &mut E,
    agents: &[usize],
    row: &mut Row<'_>,
    scratch: &mut Scratch,
    refused: &[u32; MAX_SEATS],
) {
    env.advance();
    outcome(env, agents, row, refused);
    let done = env.is_done();
    if let Some(d) = row.done.first_mut() {
        *d = done;
    }
    if !done {
        observe(env, agents, row, scratch, false);
    }
}

/// Writes what the step came to: rewards (the change of the measure rewards follow,
/// `crate::reward`, plus the ranking `1 - 2 rank / (seats - 1)` when the match is over), flags,
/// refusals and ranks.
fn outcome<E: DynEnv + ?Sized>(
    env: &mut E,
    agents: &[usize],
    row: &mut Row<'_>,
    refused: &[u32; MAX_SEATS],
) {
    let mut gained = [0.0; MAX_SEATS];
    for (g, &x) in gained.iter_mut().zip(env.take_gained()) {
        *g = x;
    }
    let trunc = env.truncated();
    // The outcome is built only for a match that is over.
    let ranks = env
        .is_over()
        .then(|| env.outcome())
        .flatten()
        .map(|(r, _)| r);
    let n = env.seats().max(2) as f32;
    for (k, &s) in agents.iter().enumerate() {
        let rank = ranks
            .as_ref()
            .map_or(0.0, |r| 1.0 - 2.0 * f32::from(r[s]) / (n - 1.0));
        row.rewards[k] = (gained.get(s).copied().unwrap_or(0.0) + f64::from(rank)) as f32;
        row.ends[2 * k] = !trunc && (ranks.is_some() || !env.seat_in(s));
        row.ends[2 * k + 1] = trunc;
        row.refused[k] = refused.get(s).copied().unwrap_or(0);
    }
    for (s, x) in row.ranks.iter_mut().enumerate() {
        *x = ranks
            .as_ref()
            .and_then(|r| r.get(s))
            .map_or(-1, |&r| i8::try_from(r).unwrap_or(i8::MAX));
    }
}

/// `(obs, masks, rewards, ends, refused, ranks)` as returned to Python.
type Batch<'py> = [Bound<'py, PyAny>; 6];

impl VecMatch {
    /// Runs `f` on every match and its rows, on the pool (or here), with the GIL released.
    fn each<F>(&mut self, py: Python<'_>, f: F) -> PyResult<()>
    where
        F: Fn(usize, &mut Box<dyn DynEnv>, &mut Row<'_>, &mut Scratch) -> Result<(), String> + Sync,
    {
        use rayon::prelude::*;
        let (n, a) = (self.num_envs(), self.agents.len());
        let b = &self.buffers;
        let per = a * self.obs_len;
        let (mut obs32, mut obs16): (PyReadwriteArray3<i32>, PyReadwriteArray3<i16>);
        let mut obs = match &b.obs {
            ObsBuf::I32(o) => {
                obs32 = o.bind(py).try_readwrite()?;
                ObsOut::I32(obs32.as_slice_mut()?)
            }
            ObsBuf::I16(o) => {
                obs16 = o.bind(py).try_readwrite()?;
                ObsOut::I16(obs16.as_slice_mut()?)
            }
        };
        let mut masks = b.masks.bind(py).try_readwrite()?;
        let mut rewards = b.came.rewards.bind(py).try_readwrite()?;
        let mut ends = b.came.ends.bind(py).try_readwrite()?;
        let mut refused = b.came.refused.bind(py).try_readwrite()?;
        let mut ranks = b.came.ranks.bind(py).try_readwrite()?;
        let (mut masks, mut rewards, mut ends) = (
            masks.as_slice_mut()?,
            rewards.as_slice_mut()?,
            ends.as_slice_mut()?,
        );
        let (mut refused, mut ranks) = (refused.as_slice_mut()?, ranks.as_slice_mut()?);
        let mut written = self.written.as_mut_slice();
        let mut done = self.done.as_mut_slice();
        // Each match's rows cut off the arrays' fronts in one pass.
        let mut rows: Vec<Row<'_>> = Vec::with_capacity(n);
        for _ in 0..n {
            rows.push(Row {
                obs: match &mut obs {
                    ObsOut::I32(o) => ObsOut::I32(cut(o, per)),
                    ObsOut::I16(o) => ObsOut::I16(cut(o, per)),
                },
                masks: cut(&mut masks, a * self.listed),
                rewards: cut(&mut rewards, a),
                ends: cut(&mut ends, 2 * a),
                refused: cut(&mut refused, a),
                ranks: cut(&mut ranks, self.seats),
                written: cut(&mut written, a),
                done: cut(&mut done, 1),
            });
        }
        let envs = self.envs.get_mut().unwrap_or_else(|e| e.into_inner());
        let pool = self.pool.as_ref();
        let done = py.detach(|| {
            let work = envs.par_iter_mut().zip(rows.par_iter_mut()).enumerate();
            let run = || {
                work.with_min_len(8)
                    .try_for_each_init(Scratch::default, |scratch, (i, (e, r))| f(i, e, r, scratch))
            };
            match pool {
                // A handful of matches costs less than waking the pool's threads.
                Some(p) if n >= 32 => p.install(run),
                _ => {
                    let mut scratch = Scratch::default();
                    envs.iter_mut()
                        .zip(rows.iter_mut())
                        .enumerate()
                        .try_for_each(|(i, (e, r))| f(i, e, r, &mut scratch))
                }
            }
        });
        done.map_err(PyValueError::new_err)
    }

    fn num_envs(&self) -> usize {
        self.n
    }

    /// The buffers, or copies of them (`copy`), as returned to Python.
    fn batch<'py>(&self, py: Python<'py>, copy: bool) -> PyResult<Batch<'py>> {
        let b = &self.buffers;
        let give = |a: &Bound<'py, PyAny>| a.call_method0("copy");
        if !copy {
            return Ok(b.views.each_ref().map(|v| v.bind(py).clone()));
        }
        Ok([
            match &b.obs {
                ObsBuf::I32(o) => give(o.bind(py).as_any())?,
                ObsBuf::I16(o) => give(o.bind(py).as_any())?,
            },
            give(b.masks.bind(py).as_any())?,
            give(b.came.rewards.bind(py).as_any())?,
            give(b.came.ends.bind(py).as_any())?,
            give(b.came.refused.bind(py).as_any())?,
            give(b.came.ranks.bind(py).as_any())?,
        ])
    }

    /// Starts again, seeded by their index over the vector's life, the matches that are done;
    /// their rows show the new match's first observation (their rewards and flags stay the end's).
    fn restart_done(&mut self, py: Python<'_>) -> PyResult<()> {
        // The flags the step left (asking each match again would visit them all once more);
        // most steps end none.
        if !self.done.contains(&true) {
            return Ok(());
        }
        let mut seeds = vec![None; self.done.len()];
        for (seed, &done) in seeds.iter_mut().zip(&self.done) {
            if done {
                *seed = Some(arena_host::tournament::match_seed(
                    self.seed,
                    self.started as usize,
                ));
                self.started += 1;
            }
        }
        let agents = self.agents.clone();
        self.each(py, |i, e, row, scratch| {
            if let Some(s) = seeds[i] {
                if let Some(d) = row.done.first_mut() {
                    *d = false;
                }
                e.reset(s)?;
                e.advance();
                e.take_gained();
                observe(e.as_ref(), &agents, row, scratch, true);
            }
            Ok(())
        })
    }
}

#[pymethods]
impl VecMatch {
    #[new]
    /// `observe=False`: no observations (an `(n, agents, 0)` array), for agents that read the
    /// state otherwise and for measuring the step alone; `masks=False`: no masks, likewise;
    /// `reward`: the measure rewards follow, `"teach"` or `"score"` (`crate::reward`);
    /// `dtype`: the observations' numbers, `"int32"` or `"int16"` (each saturated).
    #[pyo3(signature = (spec, n, seed=0, observe=true, masks=true, reward="teach", dtype="int32"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        spec: Spec,
        n: usize,
        seed: u64,
        observe: bool,
        masks: bool,
        reward: &str,
        dtype: &str,
    ) -> PyResult<Self> {
        if n == 0 {
            return Err(PyValueError::new_err("n: at least one match"));
        }
        let kind = crate::reward::Kind::from_name(reward).map_err(PyValueError::new_err)?;
        let mut envs = Vec::with_capacity(n);
        for i in 0..n {
            let mut e = spec.make(false, arena_host::tournament::match_seed(seed, i))?;
            e.set_recording(false);
            e.set_reward(kind);
            e.advance();
            // What the built-in bots' opening moves changed is the start, not a reward.
            e.take_gained();
            envs.push(e);
        }
        let agents = envs[0].agents().to_vec();
        let seats = envs[0].seats();
        let factors = envs[0].factors();
        let mut one = Vec::new();
        let obs_len = agents
            .iter()
            .map(|&s| {
                envs[0].observe_array(s, &mut one);
                one.len()
            })
            .max()
            .filter(|_| observe)
            .unwrap_or(0);
        let (a, listed) = (agents.len(), if masks { envs[0].listed() } else { 0 });
        let obs = match dtype {
            "int32" => ObsBuf::I32(PyArray3::zeros(py, [n, a, obs_len], false).unbind()),
            "int16" => ObsBuf::I16(PyArray3::zeros(py, [n, a, obs_len], false).unbind()),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "dtype `{dtype}`: int32 or int16"
                )))
            }
        };
        let masks = PyArray3::<i8>::zeros(py, [n, a, listed], false).unbind();
        let came = Outcomes {
            rewards: PyArray2::zeros(py, [n, a], false).unbind(),
            ends: PyArray3::zeros(py, [n, a, 2], false).unbind(),
            refused: PyArray2::zeros(py, [n, a], false).unbind(),
            ranks: PyArray2::zeros(py, [n, seats], false).unbind(),
        };
        let view = |a: &Bound<'_, PyAny>| -> PyResult<Py<PyAny>> {
            let v = a.call_method0("view")?;
            v.getattr("flags")?.setattr("writeable", false)?;
            Ok(v.unbind())
        };
        let views = [
            match &obs {
                ObsBuf::I32(o) => view(o.bind(py).as_any())?,
                ObsBuf::I16(o) => view(o.bind(py).as_any())?,
            },
            view(masks.bind(py).as_any())?,
            view(came.rewards.bind(py).as_any())?,
            view(came.ends.bind(py).as_any())?,
            view(came.refused.bind(py).as_any())?,
            view(came.ranks.bind(py).as_any())?,
        ];
        let buffers = Buffers {
            obs,
            masks,
            came,
            views,
        };
        let mut v = VecMatch {
            envs: Mutex::new(envs),
            seed,
            n,
            started: n as u64,
            agents,
            seats,
            obs_len,
            listed,
            factors,
            buffers,
            written: vec![Written::default(); n * a],
            done: vec![false; n],
            pool: None,
            threads: 1,
        };
        v.set_threads(std::thread::available_parallelism().map_or(1, |n| n.get()))?;
        Ok(v)
    }

    /// Worker threads a step uses (default: the machine's cores).
    #[getter]
    fn get_threads(&self) -> usize {
        self.threads
    }
    #[setter]
    fn set_threads(&mut self, n: usize) -> PyResult<()> {
        self.threads = n.max(1);
        self.pool = if self.threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(self.threads)
                .build()
                .map_err(|e| PyValueError::new_err(format!("threads: {e}")))?;
            Some(pool)
        } else {
            None
        };
        Ok(())
    }
    /// Every match's observations now, each row written whole into a new array of the vector's
    /// dtype (`(n, agents, obs_len)`): what a step's rows, written in part, must equal (tests).
    fn observations_whole<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fn whole<T: crate::obs::Num>(
            envs: &[Box<dyn DynEnv>],
            agents: &[usize],
            l: usize,
            wrap: for<'r> fn(&'r mut [T]) -> ObsOut<'r>,
        ) -> Vec<T> {
            let mut all = vec![T::ZERO; envs.len() * agents.len() * l];
            let mut scratch = Vec::new();
            if l == 0 {
                return all;
            }
            let mut rows = all.chunks_exact_mut(l);
            for e in envs {
                for &s in agents {
                    if let Some(row) = rows.next() {
                        e.observe_into(s, wrap(row), &mut scratch);
                    }
                }
            }
            all
        }
        let envs = self.envs.lock().unwrap_or_else(|e| e.into_inner());
        let shape = [self.n, self.agents.len(), self.obs_len];
        let (agents, l) = (&self.agents, self.obs_len);
        Ok(match &self.buffers.obs {
            ObsBuf::I32(_) => {
                numpy::PyArray1::from_vec(py, whole(&envs, agents, l, |r| ObsOut::I32(r)))
                    .reshape(shape)?
                    .into_any()
            }
            ObsBuf::I16(_) => {
                numpy::PyArray1::from_vec(py, whole(&envs, agents, l, |r| ObsOut::I16(r)))
                    .reshape(shape)?
                    .into_any()
            }
        })
    }
    /// Every match's masks now, each row written whole into a new array (`(n, agents,
    /// listed)`): what a step's mask rows, written in part, must equal (tests).
    fn masks_whole<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let envs = self.envs.lock().unwrap_or_else(|e| e.into_inner());
        let m = envs.first().map_or(0, |e| e.listed());
        let mut all = vec![0i8; envs.len() * self.agents.len() * m];
        if m > 0 {
            let mut rows = all.chunks_exact_mut(m);
            for e in envs.iter() {
                for &s in &self.agents {
                    if let Some(row) = rows.next() {
                        e.mask_into(s, row);
                    }
                }
            }
        }
        Ok(numpy::PyArray1::from_vec(py, all)
            .reshape([envs.len(), self.agents.len(), m])?
            .into_any())
    }
    fn digests(&self) -> Vec<u64> {
        let envs = self.envs.lock().unwrap_or_else(|e| e.into_inner());
        envs.iter().map(|e| e.digest()).collect()
    }
    fn seeds(&self) -> Vec<u64> {
        let envs = self.envs.lock().unwrap_or_else(|e| e.into_inner());
        envs.iter().map(|e| e.seed()).collect()
    }

    /// Starts every match again, seeded from `seed` (default: the vector's own); returns
    /// `(obs, masks, ...)` as [`VecMatch::step`] does.
    #[pyo3(signature = (seed=None, copy=true))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
        copy: bool,
    ) -> PyResult<Batch<'py>> {
        if let Some(s) = seed {
            self.seed = s;
        }
        let (base, agents) = (self.seed, self.agents.clone());
        self.each(py, |i, e, row, scratch| {
            e.reset(arena_host::tournament::match_seed(base, i))?;
            e.advance();
            outcome(e.as_mut(), &agents, row, &[0; MAX_SEATS]);
            if let Some(d) = row.done.first_mut() {
                *d = e.is_done();
            }
            observe(e.as_ref(), &agents, row, scratch, true);
            Ok(())
        })?;
        self.started = self.num_envs() as u64;
        self.batch(py, copy)
    }

    /// One step of every match: `actions[i]` holds match i's `(seat, action JSON)` pairs, or
    /// `picks` (n, agents) indices into the game's list (-1: none); Python's seats without one
    /// play the built-in bot `policy` (or pass, without a policy). Returns `(obs, masks, rewards,
    /// ends, refused, ranks)` (`ends[..., 0]` terminations, `ends[..., 1]` truncations); a match that
    /// is done is started again at once (its row shows the new match's first observation). `copy=False` returns the vector's own
    /// arrays, which the next step overwrites.
    #[pyo3(signature = (actions=None, policy=None, picks=None, copy=true))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: Option<Vec<Vec<(usize, String)>>>,
        policy: Option<String>,
        picks: Option<numpy::PyReadonlyArray2<'py, i64>>,
        copy: bool,
    ) -> PyResult<Batch<'py>> {
        let n = self.num_envs();
        let a = self.agents.len();
        if actions.as_ref().is_some_and(|x| x.len() != n) {
            return Err(PyValueError::new_err(format!(
                "actions: one list per match ({n})"
            )));
        }
        let picks: Option<Vec<i64>> = match picks {
            Some(p) if p.shape() != [n, a] => {
                return Err(PyValueError::new_err(format!("picks: shape ({n}, {a})")))
            }
            Some(p) => Some(p.as_array().iter().copied().collect()),
            None => None,
        };
        let (acts, agents) = (actions.unwrap_or_default(), self.agents.clone());
        let policy = policy.as_deref();
        self.each(py, |i, e, row, scratch| {
            let refused = match &picks {
                Some(p) => {
                    // At most one pick a seat: a fixed array, no allocation.
                    let mut mine = [(0, 0); MAX_SEATS];
                    let mut m = 0;
                    let given = agents.iter().zip(&p[i * a..(i + 1) * a]);
                    for (&s, &k) in given.take(MAX_SEATS) {
                        if let Ok(k) = usize::try_from(k) {
                            mine[m] = (s, k);
                            m += 1;
                        }
                    }
                    e.step_lean(&mine[..m], policy)?
                }
                None => {
                    let given: &[(usize, String)] = acts.get(i).map_or(&[], Vec::as_slice);
                    // Without actions the step is a listed one with no picks.
                    match (given.is_empty(), policy) {
                        (true, _) => e.step_lean(&[], policy)?,
                        (false, Some(p)) => refusals(e.step_policy(given, p)?),
                        (false, None) => refusals(e.step(given)),
                    }
                }
            };
            e.stepped(&agents, row, scratch, &refused);
            Ok(())
        })?;
        self.restart_done(py)?;
        self.batch(py, copy)
    }

    /// As `step`, with `picks` `(n, agents, slots)`: one choice per slot of a factored list
    /// (Ants: a choice per ant slot) for each of Python's seats; a row holding a choice past its
    /// slot's is refused (the seat passes).
    #[pyo3(signature = (picks, policy=None, copy=true))]
    fn step_factored<'py>(
        &mut self,
        py: Python<'py>,
        picks: numpy::PyReadonlyArray3<'py, i64>,
        policy: Option<String>,
        copy: bool,
    ) -> PyResult<Batch<'py>> {
        let (n, a) = (self.num_envs(), self.agents.len());
        let slots = self.factors.map_or(0, |(s, _)| s);
        if slots == 0 || picks.shape() != [n, a, slots] {
            return Err(PyValueError::new_err(format!(
                "picks: shape ({n}, {a}, {slots}), one choice per slot of a factored list"
            )));
        }
        let picks: Vec<i64> = picks.as_array().iter().copied().collect();
        let (agents, policy) = (self.agents.clone(), policy.as_deref());
        self.each(py, |i, e, row, scratch| {
            let mine: Vec<(usize, Vec<usize>)> = agents
                .iter()
                .enumerate()
                .map(|(k, &s)| {
                    let at = (i * a + k) * slots;
                    let row = picks.get(at..at + slots).unwrap_or(&[]);
                    let choices = row
                        .iter()
                        .map(|&c| usize::try_from(c).unwrap_or(usize::MAX));
                    (s, choices.collect())
                })
                .collect();
            let refused = refusals(e.step_factored(&mine, policy)?);
            e.stepped(&agents, row, scratch, &refused);
            Ok(())
        })?;
        self.restart_done(py)?;
        self.batch(py, copy)
    }
}
