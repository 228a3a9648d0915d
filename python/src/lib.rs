//! `pocket_arena._native`: the Rust side of the Python package. One class, [`Match`], holds a
//! match of any game ([`env::DynEnv`]); the Python modules (`pocket_arena.<game>`) build the
//! PettingZoo environments on it.

mod config;
mod env;
mod games;
mod obs;
mod reward;
mod vector;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// What a match is made of, from Python: `(game, options, bots)`. `options` are the match's
/// keyword arguments, a dict read by name and type (`config`: what `arena play <game>`'s flags
/// set, and the same defaults), `bots` maps seats to built-in bots' names; the other seats are
/// Python's.
#[derive(FromPyObject)]
pub struct Spec(
    pub String,
    pub std::collections::BTreeMap<String, config::Value>,
    pub Vec<(usize, String)>,
);

impl Spec {
    /// A new match of this spec, seeded `seed`.
    pub fn make(&self, text: bool, seed: u64) -> PyResult<Box<dyn env::DynEnv>> {
        let kwargs = config::Kwargs::new(self.1.clone());
        env::make(&self.0, kwargs, self.2.clone(), text, seed).map_err(PyValueError::new_err)
    }
}

/// One match: `Match((game, options, bots), text, seed)` (a [`Spec`]). `text`: observations and
/// actions in the game's own protocol.
#[pyclass(module = "pocket_arena._native")]
struct Match {
    // A mutex only to make the class `Sync`: `&mut self` methods reach it without locking.
    env: std::sync::Mutex<Box<dyn env::DynEnv>>,
}

impl Match {
    fn env(&self) -> std::sync::MutexGuard<'_, Box<dyn env::DynEnv>> {
        self.env
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
    fn env_mut(&mut self) -> &mut Box<dyn env::DynEnv> {
        self.env
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A step's outcome per seat as Python gets it: `(refused, [reasons])`.
fn owned(steps: &[env::SeatStep]) -> Vec<(u32, Vec<String>)> {
    steps
        .iter()
        .map(|s| (s.refused, s.why.iter().map(|w| w.to_string()).collect()))
        .collect()
}

#[pymethods]
impl Match {
    #[new]
    #[pyo3(signature = (spec, text=false, seed=0))]
    fn new(spec: Spec, text: bool, seed: u64) -> PyResult<Self> {
        Ok(Match {
            env: std::sync::Mutex::new(spec.make(text, seed)?),
        })
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.env().game_name()
    }
    #[getter]
    fn seats(&self) -> usize {
        self.env().seats()
    }
    #[getter]
    fn agents(&self) -> Vec<usize> {
        self.env().agents().to_vec()
    }
    #[getter]
    fn names(&self) -> Vec<String> {
        self.env().names()
    }
    #[getter]
    fn config(&self) -> String {
        self.env().config()
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.env().seed()
    }
    #[getter]
    fn turn(&self) -> u32 {
        self.env().turn()
    }

    fn reset(&mut self, seed: u64) -> PyResult<()> {
        self.env_mut().reset(seed).map_err(PyValueError::new_err)
    }
    /// Plays the built-in bots' steps until a Python seat is to move or the match is done.
    fn advance(&mut self, py: Python<'_>) {
        let env = self.env_mut();
        py.detach(|| env.advance());
    }
    fn to_move(&self) -> Vec<usize> {
        self.env().to_move()
    }
    fn seat_in(&self, seat: usize) -> bool {
        self.env().seat_in(seat)
    }
    fn is_over(&self) -> bool {
        self.env().is_over()
    }
    fn is_done(&self) -> bool {
        self.env().is_done()
    }
    fn truncated(&self) -> bool {
        self.env().truncated()
    }
    fn digest(&self) -> u64 {
        self.env().digest()
    }
    /// Each seat's score now (the game's measure; the outcome's once over).
    fn scores(&self) -> Vec<i64> {
        self.env().scores()
    }
    /// Each seat's change of the measure rewards follow since the last call (or the match's
    /// start).
    fn take_gained(&mut self) -> Vec<f64> {
        self.env_mut().take_gained().to_vec()
    }
    /// Each seat's measure now, the one rewards follow (`reward="teach"`: its own minus the
    /// others' mean; `"score"`: the game's score).
    fn measures(&self) -> Vec<f64> {
        self.env().measures()
    }
    /// Which measure rewards follow from now: `"teach"` (the default) or `"score"`.
    fn set_reward(&mut self, reward: &str) -> PyResult<()> {
        let kind = reward::Kind::from_name(reward).map_err(PyValueError::new_err)?;
        self.env_mut().set_reward(kind);
        Ok(())
    }
    /// How many actions the game's list has (0: the game lists none).
    #[getter]
    fn listed(&self) -> usize {
        self.env().listed()
    }
    /// Which actions of the list the rules take from `seat` now, as a numpy int8 vector.
    fn mask<'py>(&self, py: Python<'py>, seat: usize) -> Bound<'py, numpy::PyArray1<i8>> {
        let env = self.env();
        let mut out = vec![0i8; env.listed()];
        env.mask_into(seat, &mut out);
        numpy::PyArray1::from_vec(py, out)
    }
    /// Action `i` of `seat`'s list as canonical action JSON (`None` past the list).
    fn listed_json(&self, seat: usize, i: usize) -> Option<String> {
        self.env().listed_json(seat, i)
    }
    /// The index in `seat`'s list of the action whose canonical JSON is `json`, or `None` when
    /// the list does not hold it.
    fn listed_index(&self, seat: usize, json: &str) -> Option<usize> {
        self.env().listed_index(seat, json)
    }
    /// A factored list's `(slots, choices)` (Ants: a choice per ant), `None` for a list of
    /// single actions.
    #[getter]
    fn factors(&self) -> Option<(usize, usize)> {
        self.env().factors()
    }
    /// The canonical action JSON of one choice per slot (`None`: not one pick per slot, or a
    /// pick past its slot's choices).
    fn factored_json(&self, seat: usize, picks: Vec<usize>) -> Option<String> {
        self.env().factored_json(seat, &picks)
    }
    /// The choice per slot of the action whose canonical JSON is `json`, or `None` when the
    /// factored space cannot say it.
    fn factored_index(&self, seat: usize, json: &str) -> Option<Vec<usize>> {
        self.env().factored_index(seat, json)
    }
    /// For each action of `seat`'s list, whether the core refuses it now (played on a copy).
    fn refused_listed(&self, seat: usize) -> Vec<bool> {
        self.env().refused_listed(seat)
    }
    /// One step with Python's seats' picks from the list `[(seat, index)]`, each played as the
    /// list's action itself, and other seats' answers `[(seat, text)]` as `step` takes them.
    #[pyo3(signature = (picks, policy=None, actions=Vec::new()))]
    fn step_listed(
        &mut self,
        py: Python<'_>,
        picks: Vec<(usize, usize)>,
        policy: Option<&str>,
        actions: Vec<(usize, String)>,
    ) -> PyResult<Vec<(u32, Vec<String>)>> {
        let env = self.env_mut();
        py.detach(|| env.step_listed(&picks, &actions, policy).map(owned))
            .map_err(PyValueError::new_err)
    }

    /// `(ranks, scores)` once the game is over (rank 0 is first), else `None`.
    fn outcome(&self) -> Option<(Vec<u8>, Vec<i64>)> {
        self.env().outcome()
    }
    fn observe(&self, seat: usize) -> String {
        self.env().observe(seat)
    }
    fn state_json(&self, seat: usize) -> String {
        self.env().state_json(seat)
    }
    /// The default observation's layout read off the state JSON (`None` for Ants): what the tests
    /// hold `observe_array`, read off the state itself, to.
    fn observe_array_from_json(&self, seat: usize) -> Option<Vec<i32>> {
        self.env().observe_array_from_json(seat)
    }
    /// The default observation of `seat` as a numpy int32 vector.
    fn observe_array<'py>(&self, py: Python<'py>, seat: usize) -> Bound<'py, numpy::PyArray1<i32>> {
        let mut out = Vec::new();
        self.env().observe_array(seat, &mut out);
        numpy::PyArray1::from_vec(py, out)
    }

    /// Plays one step with Python's seats' answers `[(seat, text)]` (built-in bots move inside);
    /// returns, per seat, `(refused, [reasons])`.
    fn step(&mut self, py: Python<'_>, actions: Vec<(usize, String)>) -> Vec<(u32, Vec<String>)> {
        let env = self.env_mut();
        py.detach(|| owned(env.step(&actions)))
    }

    /// As `step`, with Python's seats that were given nothing playing the built-in bot `policy`.
    fn step_policy(
        &mut self,
        py: Python<'_>,
        actions: Vec<(usize, String)>,
        policy: &str,
    ) -> PyResult<Vec<(u32, Vec<String>)>> {
        let env = self.env_mut();
        py.detach(|| env.step_policy(&actions, policy).map(owned))
            .map_err(PyValueError::new_err)
    }

    /// The canonical action JSON the built-in bot `name` would play at `seat` now (seeded as
    /// `arena play` seeds a bot at that seat).
    fn bot_action(&mut self, seat: usize, name: &str) -> PyResult<String> {
        self.env_mut()
            .bot_action(seat, name)
            .map_err(PyValueError::new_err)
    }

    /// Writes the match so far in the game's replay format, as `arena play --replay` does.
    fn save_replay(&self, path: std::path::PathBuf) -> PyResult<()> {
        self.env().save_replay(&path).map_err(PyOSError::new_err)
    }

    /// The screen of `display` as `(height, width, rgb bytes)`.
    #[pyo3(signature = (display="gray128x64", scale=1))]
    fn render_rgb<'py>(
        &self,
        py: Python<'py>,
        display: &str,
        scale: u32,
    ) -> PyResult<(u32, u32, Bound<'py, PyBytes>)> {
        let (w, h, rgb) = self
            .env()
            .render_rgb(display, scale)
            .map_err(PyValueError::new_err)?;
        Ok((h, w, PyBytes::new(py, &rgb)))
    }

    /// The terminal picture `arena play --watch` shows.
    fn render_ansi(&self) -> String {
        self.env().render_ansi()
    }
}

/// The games (folder names) and each one's built-in bots.
#[pyfunction]
#[pyo3(name = "games")]
fn game_list<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for g in env::game_names() {
        d.set_item(g, env::bots_of(g))?;
    }
    Ok(d)
}

/// A state as a bot receives it (the canonical state JSON, as text) read into the vector the
/// environments give `seat` (`obs_type="vector"`), for bots written in Python. Not for Ants, whose
/// vector is read from the text protocol's lines.
#[pyfunction]
fn observation<'py>(
    py: Python<'py>,
    game: &str,
    state: &str,
    seat: usize,
) -> PyResult<Bound<'py, numpy::PyArray1<i32>>> {
    let value: serde_json::Value = serde_json::from_str(state)
        .map_err(|e| PyValueError::new_err(format!("state: not JSON: {e}")))?;
    let read = obs::json_reader(game).ok_or_else(|| {
        PyValueError::new_err(format!(
            "observation: `{game}`: tower_defense, ballroom, colorfight or mammut"
        ))
    })?;
    let mut out = Vec::new();
    read(&value, seat, &mut out);
    Ok(numpy::PyArray1::from_vec(py, out))
}

/// The Rust side alone, for the benchmark: `steps` steps of one match in a loop without Python
/// (Python's seats play the built-in bot `policy`, each step's observations encoded as the
/// environment encodes them, a new match when one is done); returns the seconds it took.
#[pyfunction]
#[pyo3(signature = (spec, policy, steps, seed=0))]
fn bench_rust(py: Python<'_>, spec: Spec, policy: &str, steps: u64, seed: u64) -> PyResult<f64> {
    let mut env = spec.make(false, seed)?;
    env.set_recording(false);
    py.detach(|| {
        let mut out = Vec::new();
        let mut next = seed;
        let t = std::time::Instant::now();
        for _ in 0..steps {
            if env.is_done() {
                next = next.wrapping_add(1);
                env.reset(next)?;
            }
            env.step_policy(&[], policy)?;
            for &s in env.agents() {
                env.observe_array(s, &mut out);
            }
        }
        Ok::<f64, String>(t.elapsed().as_secs_f64())
    })
    .map_err(PyValueError::new_err)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Match>()?;
    m.add_class::<vector::VecMatch>()?;
    m.add_function(wrap_pyfunction!(game_list, m)?)?;
    m.add_function(wrap_pyfunction!(bench_rust, m)?)?;
    m.add_function(wrap_pyfunction!(observation, m)?)?;
    Ok(())
}
