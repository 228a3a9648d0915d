//! `pocket_arena._native`: the Rust side of the Python package. One class, [`Match`], holds a
//! match of any game ([`env::DynEnv`]); the Python modules (`pocket_arena.<game>`) build the
//! PettingZoo environments on it.

mod env;
mod obs;
mod vector;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// One match: `Match(game, args, bots, text, seed)`. `args` are `arena play <game>`'s flags
/// (without `--seed` and `--bot`), `bots` maps seats to built-in bots' names; the other seats are
/// Python's. `text`: observations and actions in the game's own protocol.
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

#[pymethods]
impl Match {
    #[new]
    #[pyo3(signature = (game, args, bots, text=false, seed=0))]
    fn new(
        game: &str,
        args: Vec<String>,
        bots: Vec<(usize, String)>,
        text: bool,
        seed: u64,
    ) -> PyResult<Self> {
        let env = env::make(game, args, bots, text, seed).map_err(PyValueError::new_err)?;
        Ok(Match {
            env: std::sync::Mutex::new(env),
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
    /// The default observation's layout read off the state JSON, where the environment reads the
    /// state directly (Tower Defense): what tests compare `observe_array` with.
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
        py.detach(|| env.step(&actions))
            .into_iter()
            .map(|s| (s.refused, s.why))
            .collect()
    }

    /// As `step`, with Python's seats that were given nothing playing the built-in bot `policy`.
    fn step_policy(
        &mut self,
        py: Python<'_>,
        actions: Vec<(usize, String)>,
        policy: &str,
    ) -> PyResult<Vec<(u32, Vec<String>)>> {
        let env = self.env_mut();
        py.detach(|| env.step_policy(&actions, policy))
            .map_err(PyValueError::new_err)
            .map(|v| v.into_iter().map(|s| (s.refused, s.why)).collect())
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
fn games<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
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
    let mut out = Vec::new();
    match game.replace('-', "_").as_str() {
        "tower_defense" => obs::tower_defense(&value, seat, &mut out),
        "ballroom" => obs::ballroom(&value, seat, &mut out),
        "colorfight" => obs::colorfight(&value, seat, &mut out),
        "mammut" => obs::mammut(&value, seat, &mut out),
        other => {
            return Err(PyValueError::new_err(format!(
                "observation: `{other}`: tower_defense, ballroom, colorfight or mammut"
            )))
        }
    }
    Ok(numpy::PyArray1::from_vec(py, out))
}

/// The Rust side alone, for the benchmark: `steps` steps of one match in a loop without Python
/// (Python's seats play the built-in bot `policy`, each step's observations encoded as the
/// environment encodes them, a new match when one is done); returns the seconds it took.
#[pyfunction]
#[pyo3(signature = (game, args, bots, policy, steps, seed=0))]
fn bench_rust(
    py: Python<'_>,
    game: &str,
    args: Vec<String>,
    bots: Vec<(usize, String)>,
    policy: &str,
    steps: u64,
    seed: u64,
) -> PyResult<f64> {
    let mut env = env::make(game, args, bots, false, seed).map_err(PyValueError::new_err)?;
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
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(bench_rust, m)?)?;
    m.add_function(wrap_pyfunction!(observation, m)?)?;
    Ok(())
}
