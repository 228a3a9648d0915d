//! A match's configuration as Python gives it: the environments' keyword arguments, typed. The
//! common ones make the host's [`MatchRequest`] ([`request`]), each game's own its options
//! ([`crate::games::Observe::options`]); nothing is turned into command-line flags, and a keyword
//! no one reads is refused by name ([`Kwargs::finish`]).

use arena_host::game::Timing;
use arena_host::sandbox::Caps;
use arena_host::setup::MatchRequest;
use pyo3::FromPyObject;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One keyword argument's value, as Python gave it (`pocket_arena` drops those that are `None`).
#[derive(Clone, Debug, PartialEq, FromPyObject)]
pub enum Value {
    /// `True` or `False` (tried first: a Python bool is also an int).
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string (a path is given as one).
    Str(String),
    /// A list or tuple.
    List(Vec<Value>),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::List(l) => {
                let items: Vec<String> = l.iter().map(Value::to_string).collect();
                write!(f, "[{}]", items.join(", "))
            }
        }
    }
}

/// The keyword arguments of one match, read once each, by type.
#[derive(Clone, Debug, Default)]
pub struct Kwargs(BTreeMap<String, Value>);

impl Kwargs {
    /// The keyword arguments `map` (names as Python spells them).
    pub fn new(map: BTreeMap<String, Value>) -> Self {
        Kwargs(map)
    }

    fn wrong(key: &str, expected: &str, got: &Value) -> String {
        format!("{key}: expected {expected}, got {got}")
    }

    /// A string (`None` when not given).
    pub fn text(&mut self, key: &str) -> Result<Option<String>, String> {
        match self.0.remove(key) {
            None => Ok(None),
            Some(Value::Str(s)) => Ok(Some(s)),
            Some(v) => Err(Self::wrong(key, "a string", &v)),
        }
    }

    /// A whole number that fits `T` (`None` when not given).
    pub fn number<T: TryFrom<i64>>(&mut self, key: &str) -> Result<Option<T>, String> {
        match self.0.remove(key) {
            None => Ok(None),
            Some(Value::Int(i)) => T::try_from(i)
                .map(Some)
                .map_err(|_| format!("{key}: {i} is out of range")),
            Some(v) => Err(Self::wrong(key, "a whole number", &v)),
        }
    }

    /// A number, whole or not (`None` when not given).
    pub fn real(&mut self, key: &str) -> Result<Option<f64>, String> {
        match self.0.remove(key) {
            None => Ok(None),
            Some(Value::Float(x)) => Ok(Some(x)),
            Some(Value::Int(i)) => Ok(Some(i as f64)),
            Some(v) => Err(Self::wrong(key, "a number", &v)),
        }
    }

    /// `True` or `False` (`False` when not given).
    pub fn switch(&mut self, key: &str) -> Result<bool, String> {
        match self.0.remove(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(b),
            Some(v) => Err(Self::wrong(key, "True or False", &v)),
        }
    }

    /// A list of strings, or one string (empty when not given).
    pub fn texts(&mut self, key: &str) -> Result<Vec<String>, String> {
        match self.0.remove(key) {
            None => Ok(Vec::new()),
            Some(Value::Str(s)) => Ok(vec![s]),
            Some(Value::List(l)) => l
                .into_iter()
                .map(|v| match v {
                    Value::Str(s) => Ok(s),
                    v => Err(Self::wrong(key, "strings", &v)),
                })
                .collect(),
            Some(v) => Err(Self::wrong(key, "a list of strings", &v)),
        }
    }

    /// One of `choices`, by name (`None` when not given).
    pub fn choice<T: Copy>(
        &mut self,
        key: &str,
        choices: &[(&str, T)],
    ) -> Result<Option<T>, String> {
        let Some(given) = self.text(key)? else {
            return Ok(None);
        };
        let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
        choices
            .iter()
            .find(|(n, _)| *n == given)
            .map(|(_, t)| Some(*t))
            .ok_or_else(|| format!("{key}: `{given}` is not one of {}", names.join(", ")))
    }

    /// Two whole numbers written `AxB` (`30x30`), split at `x` or `X` (`None` when not given).
    pub fn pair(&mut self, key: &str, example: &str) -> Result<Option<(u16, u16)>, String> {
        let Some(given) = self.text(key)? else {
            return Ok(None);
        };
        let bad = || format!("{key}: `{given}` is not two whole numbers like {example}");
        let (a, b) = given.split_once(['x', 'X']).ok_or_else(bad)?;
        match (a.trim().parse(), b.trim().parse()) {
            (Ok(a), Ok(b)) => Ok(Some((a, b))),
            _ => Err(bad()),
        }
    }

    /// Refuses what no one read: a keyword that is no option of `game`.
    pub fn finish(self, game: &str) -> Result<(), String> {
        if self.0.is_empty() {
            return Ok(());
        }
        let keys: Vec<String> = self.0.keys().map(|k| format!("`{k}`")).collect();
        let s = if keys.len() == 1 { "" } else { "s" };
        Err(format!(
            "unknown option{s} for {game}: {} (docs/python.md lists the options)",
            keys.join(", ")
        ))
    }
}

/// The options every game takes, as a [`MatchRequest`] (its bots left empty: the environment
/// seats them): `names`, `max_turns` (`turn_limit` in Python), `turn_ms`, `no_timeout`,
/// `bot_logs`, and `sandbox` with its caps (`bot_memory`, `bot_cpu`, `bot_procs`, `bot_disk`,
/// `bot_files`; `replay`, a file the sandboxed bots may not see).
pub fn request(kw: &mut Kwargs, seed: u64) -> Result<MatchRequest, String> {
    let names = kw.texts("names")?;
    let timing = Timing {
        turn_ms: kw.number("turn_ms")?,
        no_timeout: kw.switch("no_timeout")?,
        sandbox: None,
    };
    let log_dir = kw.text("bot_logs")?.map(PathBuf::from);
    let max_turns = kw.number("max_turns")?;
    let replay = kw.text("replay")?.map(PathBuf::from);
    let sandbox = kw.switch("sandbox")?;
    let d = Caps::default();
    let disk = kw.number("bot_disk")?.unwrap_or(d.file_mb);
    let memory = kw.number("bot_memory")?;
    let procs = kw.number("bot_procs")?;
    let caps = Caps {
        memory_mb: memory.unwrap_or(d.memory_mb),
        cpu_s: kw.number("bot_cpu")?.unwrap_or(d.cpu_s),
        procs: procs.unwrap_or(d.procs),
        file_mb: disk,
        disk_mb: disk,
        open_files: kw.number("bot_files")?.unwrap_or(d.open_files),
        ..d
    };
    let mut request = MatchRequest {
        bots: Vec::new(),
        names,
        seed,
        timing,
        log_dir,
        max_turns,
    };
    if sandbox {
        // The caps only a cgroup holds are refused, where arena cannot write it, when asked
        // for, named by their keyword arguments.
        use arena_host::sandbox::CgroupCap;
        let given = [
            (CgroupCap::Memory, memory.is_some()),
            (CgroupCap::Procs, procs.is_some()),
        ];
        arena_host::sandbox::refuse_unheld(given.iter().filter(|(_, g)| *g).map(|(c, _)| *c))
            .map_err(|why| {
                let keyword = match why.cap {
                    CgroupCap::Memory => "bot_memory",
                    CgroupCap::Procs => "bot_procs",
                };
                format!("sandbox: {}", why.naming(keyword))
            })?;
        let outputs = [
            ("replay", replay.as_deref()),
            ("bot_logs", request.log_dir.as_deref()),
        ];
        arena_host::sandbox::check(&caps)
            .map_err(|why| format!("sandbox: cannot sandbox bots here: {why}"))?;
        let caps = arena_host::setup::fenced(caps, &request.bots, &outputs)
            .map_err(|why| format!("sandbox: {why}"))?;
        request.timing.sandbox = Some(caps);
    }
    Ok(request)
}
