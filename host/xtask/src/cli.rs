//! The command line of `cargo xtask`: one [`Task`] per subcommand, parsed by clap (derive), each
//! task's help its doc comment (the first paragraph the one-line summary `cargo xtask --help` lists,
//! the whole the text `cargo xtask <task> --help` prints). The docs are kept as written
//! (`verbatim_doc_comment`): clap here wraps nothing (no `wrap_help`, which would change the `arena`
//! binary's help too, the features being one set in the workspace).
//!
//! What the help says of the boards is the registry's ([`command`]): each board's part of a task's
//! help is its `Board::help`, the lists of boards its names, so a new board's folder is in the help
//! without a line here.

use std::path::PathBuf;

use clap::{Args, CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

use crate::boards::{Board, BOARDS};

/// The tasks that need several targets, emulators and host tools, run as `cargo xtask <task>`.
#[derive(Parser, Debug)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    disable_version_flag = true,
    subcommand_value_name = "TASK",
    subcommand_help_heading = "Tasks",
    after_help = "`cargo xtask <task> --help` says what a task does, in full."
)]
pub struct Cli {
    #[command(subcommand)]
    pub task: Option<Task>,
}

#[derive(Subcommand, Debug)]
pub enum Task {
    /// Bot-vs-bot matches on the board that has a demo, one line each; its screen as PNG and GIF
    ///
    /// (The board's own text, `Board::help`, replaces this one.)
    #[command(verbatim_doc_comment)]
    Demo(Demo),
    /// `cargo xtask setup`, then every check CI runs, timed
    ///
    /// First `cargo xtask setup`, as its first line says: what is missing is installed (see `cargo
    /// xtask setup --help`), the rustup targets first, the rest beside fmt and clippy (timed as the
    /// step "set-up"). Then every check CI runs: formatting (cargo fmt --all --check in every
    /// workspace: the root's, each board's, tests/fuzz's, python's), clippy, rustdoc, all tests,
    /// the server load test (same as load-test) and the docs' Slurm and GNU parallel recipes (same
    /// as scale-out, with the arena cargo test built) on a quiet machine; then the firmware checks
    /// (same as firmware-test; the boards' builds are the core's no_std build on each board's
    /// target) beside the Python package (same as python-test), the viewer and the report in
    /// headless chromium, and every fuzz target for 4 s, two at a time (same as fuzz --seconds 4
    /// --jobs 2 --sanitizer none --dev), then the core's mutants on the lines the change touches
    /// against main (same as mutants --diff: on main itself, none); ends with the time each step
    /// took and one line, P passed, F failed (every test of the workspace and of the Python
    /// package).
    #[command(verbatim_doc_comment)]
    Test,
    /// A board's ELF on its emulated chip, as PNG/GIF
    ///
    /// A board's release ELF on its emulated chip (each board's below); the defmt log decoded live,
    /// the screen saved every N turns (and each announced frame) as PNG frames and an animated GIF
    /// in target/emulate/<board>/. Needs what `cargo xtask setup` installs (it says so when
    /// something is missing).
    #[command(verbatim_doc_comment)]
    Emulate(Emulate),
    /// Host vs every board, and the template
    ///
    /// Each board's checks against the host (each board's below); templates/rust-bot (a user's
    /// crate) built for every board and its lineup played on the first board whose firmware takes
    /// a command line, every digest equal to its desktop binary's. Needs what `cargo xtask setup`
    /// installs (it says so when something is missing).
    #[command(verbatim_doc_comment)]
    FirmwareTest(FirmwareTest),
    /// Instructions or cycles per turn of the lineup, stack, state size
    ///
    /// Without --game: the board's whole rotation (--board, the first board below by default), a
    /// match per entry: its cost per turn, stack high-water mark, state size, as each board says
    /// below.
    ///
    /// With --game G [--bot B] [--vs X]: only the lineup entries playing G with B against X, each
    /// alone on each chip (the same match as in the rotation, its final digest checked against the
    /// host's; the ELF of a board that takes no command line copied with its ARENA_RUN words
    /// written over; a frame every 25 turns): per turn of the rules, of the bots together and of
    /// each seat's bot min/median/p99/max, the bots' share of G's time limit at the chip's clock,
    /// the match's stack, each bot's stack high-water and flash bytes (--board all: every board);
    /// JSON in target/cost-pick.json. --template DIR: the lineup of a user's crate
    /// (templates/rust-bot or a copy; its own board binaries, its desktop binary's digests; its
    /// cost.sh runs this); JSON in target/cost-template.json. Needs what `cargo xtask setup`
    /// installs (it says so when something is missing).
    #[command(verbatim_doc_comment)]
    Cost(Cost),
    /// A board's release ELF as a UF2 file in target/uf2/
    ///
    /// (The board's own text, `Board::help`, replaces this one.)
    #[command(verbatim_doc_comment)]
    Uf2(Uf2),
    /// Flash and static RAM of every board
    Size,
    /// The panic paths left in a board's firmware, each explained
    ///
    /// (The board's own text, `Board::help`, replaces this one.)
    #[command(verbatim_doc_comment)]
    Panics(Panics),
    /// The default board's rotation played on the host, a line a match
    ///
    /// Plays the default board's rotation on the host (by default once: one match of every entry; N
    /// matches go round it): turns, result and final state digest of each match (the digest the
    /// board logs as `final`).
    #[command(verbatim_doc_comment)]
    Lineup(Lineup),
    /// Build and run on a real board (probe-rs), or by UF2 or DFU
    ///
    /// Builds and runs on a real board (probe-rs run; needs probe-rs, whose install it names, and
    /// flip-link, which `cargo xtask setup` installs).
    #[command(verbatim_doc_comment)]
    Flash(Flash),
    /// The long run: N seeded matches, invariants after every turn
    ///
    /// The long run (not part of test): N seeded matches (default 10,000) across every game with
    /// built-in bots, in release mode, every game's invariants checked after every turn (`cargo run
    /// --release -p arena-tests --bin soak`).
    #[command(verbatim_doc_comment)]
    Soak(Soak),
    /// The libFuzzer targets of tests/fuzz, N seconds each
    ///
    /// Each libFuzzer target of tests/fuzz, or those named, for N seconds (default 30), J at a time
    /// (default 1), with a table of executions and coverage at the end; needs the nightly toolchain
    /// and cargo-fuzz (`cargo xtask setup` installs both); AddressSanitizer unless --sanitizer
    /// none; release builds unless --dev (unoptimised: built faster, fuzzed slower). `test` runs it
    /// with --seconds 4 --jobs 2 --sanitizer none --dev.
    #[command(verbatim_doc_comment)]
    Fuzz(crate::fuzz::Options),
    /// Mutation testing of arena-core with cargo-mutants
    ///
    /// Mutation testing with cargo-mutants (`cargo xtask setup` installs it): arena-core's mutants,
    /// each tested by arena-core's tests; those of the game folders (core/src/games/, about 2,900:
    /// hours), or of the FILEs named; --diff: only those on the lines changed against the merge
    /// base with main (--base REF, else origin/main, else main; nothing changed: nothing run), at
    /// most N (default 20, spread over the list; 0: all) within MIN minutes (default 10); J builds
    /// at a time (default 1), S seconds a test run (default 5 times the unmutated run). Report in
    /// target/mutants/mutants.out/; fails on a missed mutant.
    #[command(verbatim_doc_comment)]
    Mutants(crate::mutants::Args),
    /// `arena serve` under hostile connections while a bot plays
    ///
    /// The game server (`arena serve`, the HTTP one) on loopback: the same seeded game (default 300
    /// ticks, seed 7) with host/examples/colorfight_http_bot.py against expander, alone, then under
    /// 300 connections sending half a header and 20 flooding malformed requests; fails unless the
    /// bot's accepted attacks under load are at least 90% of those alone, the clock's lateness p99
    /// under load is at most 10 ms (unless the server's lock wait stayed under 1 ms and the
    /// wake-ups were late: the machine's scheduler, said but not failed), the peak RSS at most 128
    /// MiB, no panic and both traces verify; a missed goal is tried once more. Part of test, about
    /// 65 s. The system test in tests/system (arena-system-tests), run with the options given.
    #[command(verbatim_doc_comment)]
    LoadTest(LoadTest),
    /// The Slurm and GNU parallel recipes of docs/tournaments.md, as root
    ///
    /// The Slurm and GNU parallel recipes of docs/tournaments.md as written, as root: a one-node
    /// Slurm cluster on localhost (munged, slurmctld, slurmd) runs the sharded tournament as a job
    /// array, GNU parallel runs it on 2 cores, each merge compared with a single run. Needs Slurm,
    /// munge and GNU parallel (`cargo xtask setup` installs them). The system test in tests/system
    /// (arena-system-tests), run with the options given.
    #[command(verbatim_doc_comment)]
    ScaleOut(ScaleOut),
    /// test's Python step alone: the wheel and python/tests
    ///
    /// test's Python step alone: clippy over python/, the pocket_arena wheel built once (maturin
    /// --zig, manylinux2014 abi3, profile ci-wheel; maturin and ziglang in a venv under target/
    /// that `cargo xtask setup` makes), installed into a fresh venv with pytest and supersuit, then
    /// python/tests there with the arena binary of a debug build.
    #[command(verbatim_doc_comment)]
    PythonTest,
    /// templates/rust-bot's process binary in sandboxed tournaments, results equal in-process
    ///
    /// The last part of `firmware-test --board template` alone (no board): templates/rust-bot's
    /// process binary in `arena tournament GAME --sandbox` against built-in bots (the games and
    /// bots of its tournaments.txt), each match's result equal to the same match played
    /// in-process; needs target/debug/arena (`cargo test` builds it).
    #[command(verbatim_doc_comment)]
    TemplateTournaments,
    /// Install what is missing, the only task that installs (a second run costs nothing)
    ///
    /// Installs what is missing, each step checking first: the boards' targets, wasm32 and
    /// llvm-tools (rustup); what each board needs (below: apt-get, sudo unless root, without the
    /// packages they only recommend; cargo install; the rest); Mono, chromium, bubblewrap, Slurm,
    /// munge, GNU parallel (apt-get, in the same run as the boards'); cargo-fuzz and cargo-mutants
    /// (cargo install); a minimal nightly toolchain for the fuzz targets (rustup); maturin and
    /// ziglang in target/python-venv for the Python wheel (pip). Each install's output in
    /// target/setup/<name>.log.
    ///
    /// No other task installs: `test` runs setup first and `demo` its board's part, each saying
    /// so; every other task checks for the tools it needs and, when one is missing, fails with an
    /// error that names `cargo xtask setup`.
    #[command(verbatim_doc_comment)]
    Setup,
}

/// The command line with the registry's words in its help: each board's part of a task's help
/// (`Board::help`), the boards' names where a task lists them, each board's needs in `setup`'s.
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    // A task one board has: that board's text is the whole help.
    for task in ["demo", "panics", "uf2"] {
        if let Some(text) = BOARDS.iter().find_map(|b| b.help(task)) {
            let summary = text.split("\n\n").next().unwrap_or(text);
            cmd = cmd.mut_subcommand(task, |c| c.about(summary).long_about(text));
        }
    }
    cmd.mut_subcommand("emulate", emulate)
        .mut_subcommand("firmware-test", firmware_test)
        .mut_subcommand("cost", cost)
        .mut_subcommand("lineup", lineup)
        .mut_subcommand("panics", panics)
        .mut_subcommand("uf2", uf2)
        .mut_subcommand("flash", flash)
        .mut_subcommand("setup", setup)
}

/// The registry's names.
fn names() -> Vec<&'static str> {
    BOARDS.iter().map(|b| b.name()).collect()
}

/// A task's long help as written.
fn long_of(c: &clap::Command) -> String {
    c.get_long_about()
        .map(|a| a.to_string())
        .unwrap_or_default()
}

/// `emulate`: the boards that say what it does on them.
fn emulate(c: clap::Command) -> clap::Command {
    let emulated: Vec<&str> = BOARDS
        .iter()
        .filter(|b| b.help("emulate").is_some())
        .map(|b| b.name())
        .collect();
    let demo = BOARDS.iter().find(|b| b.help("demo").is_some());
    let board = match demo.filter(|d| !emulated.contains(&d.name())) {
        Some(d) => format!(
            "{} (the {} board runs with `cargo xtask demo`)",
            or_list(&emulated),
            d.called()
        ),
        None => or_list(&emulated),
    };
    let about = format!(
        "A board's ELF on its emulated chip ({}), as PNG/GIF",
        emulated.join(", ")
    );
    paragraphs(summary(c, about), "emulate").mut_arg("board", |a| a.help(board))
}

/// `firmware-test`: every board's part.
fn firmware_test(c: clap::Command) -> clap::Command {
    let all = names().join(", ");
    let about = format!("Host vs every board ({all}), and the template");
    paragraphs(summary(c, about), "firmware-test").mut_arg("board", |a| {
        a.help(format!(
            "That part's checks alone: {all} or template (default: all)"
        ))
    })
}

/// `cost`: every board's table, the first the default.
fn cost(c: clap::Command) -> clap::Command {
    let all = names();
    let board = format!(
        "{} (the default), {}; with --game also all",
        all[0],
        or_list(&all[1..])
    );
    paragraphs(c, "cost").mut_arg("board", |a| a.help(board))
}

/// `lineup`: the default board's rotation, as prose calls the board.
fn lineup(c: clap::Command) -> clap::Command {
    let called = BOARDS[0].called();
    let said = |text: String| {
        text.replace("The default board", &format!("The {called} board"))
            .replace("the default board", &format!("the {called} board"))
    };
    let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
    let long = long_of(&c);
    c.about(said(about)).long_about(said(long))
}

/// `panics --elf`: the firmware of the board that has the task.
fn panics(c: clap::Command) -> clap::Command {
    match BOARDS.iter().find(|b| b.help("panics").is_some()) {
        Some(p) => c.mut_arg("elf", |a| {
            a.help(format!(
                "Check FILE instead of building the {} firmware",
                p.called()
            ))
        }),
        None => c,
    }
}

/// The boards with an image that `flash` writes with `flag`, and the image.
fn imaged(flag: &str) -> Vec<(&'static dyn Board, crate::boards::Image)> {
    BOARDS
        .iter()
        .filter_map(|b| b.image().filter(|i| i.flag == flag).map(|i| (*b, i)))
        .collect()
}

/// `uf2 --board`: the boards with a UF2 file.
fn uf2(c: clap::Command) -> clap::Command {
    let boards: Vec<&str> = imaged("--uf2").iter().map(|(b, _)| b.name()).collect();
    c.mut_arg("board", |a| a.help(or_list(&boards)))
}

/// `flash`: the boards one can hold, each image's option and board.
fn flash(c: clap::Command) -> clap::Command {
    let long = long_of(&c);
    let images: Vec<String> = BOARDS
        .iter()
        .filter_map(|b| {
            b.image()
                .map(|i| format!("{} ({}): {}", i.flag, b.name(), i.how))
        })
        .collect();
    // The summary, then the text with each image's option, board and what it does.
    let (summary, text) = long.split_once("\n\n").unwrap_or(("", &long));
    let text = unwrap(text);
    let text = match (text.strip_suffix('.'), images.is_empty()) {
        (Some(text), false) => format!("{text}; {}.", images.join("; ")),
        _ => text,
    };
    let long = format!("{summary}\n\n{}", wrap(&text));
    let held: Vec<&str> = BOARDS
        .iter()
        .filter(|b| b.on_a_desk())
        .map(|b| b.name())
        .collect();
    let flag_help = |flag: &str| -> String {
        imaged(flag)
            .iter()
            .map(|(b, i)| format!("{}: {}", b.name(), i.about))
            .collect::<Vec<_>>()
            .join("; ")
    };
    c.long_about(long)
        .mut_arg("board", |a| a.help(or_list(&held)))
        .mut_arg("uf2", |a| a.help(flag_help("--uf2")))
        .mut_arg("dfu", |a| a.help(flag_help("--dfu")))
}

/// `setup`: each board's needs (`Board::needs`), a paragraph each after the first.
fn setup(c: clap::Command) -> clap::Command {
    let long = long_of(&c);
    let needs = BOARDS.iter().map(|b| {
        let n = b.needs();
        let debian: Vec<&str> = n.debian.iter().map(|p| p.1).collect();
        let parts = [
            (!debian.is_empty()).then(|| format!("{} (apt-get)", debian.join(", "))),
            (!n.crates.is_empty()).then(|| format!("{} (cargo install)", n.crates.join(", "))),
            (!n.about.is_empty()).then(|| n.about.to_owned()),
        ];
        let parts: Vec<String> = parts.into_iter().flatten().collect();
        wrap(&format!("{}: {}.", b.name(), parts.join("; ")))
    });
    // The summary and the first paragraph, each board's needs, then the rest.
    let mut out: Vec<String> = long.split("\n\n").map(str::to_owned).collect();
    let at = out.len().min(2);
    out.splice(at..at, needs);
    c.long_about(out.join("\n\n"))
}

/// `cargo xtask`'s command line parsed ([`command`]'s help; clap's error as clap says it).
pub fn parse() -> Result<Cli, clap::Error> {
    let mut cmd = command();
    let matches = cmd.try_get_matches_from_mut(std::env::args_os())?;
    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
}

/// A task's long help with each board's paragraph (`Board::help`) after it, `<board>: text`.
fn paragraphs(c: clap::Command, task: &str) -> clap::Command {
    let mut text = c
        .get_long_about()
        .map(|a| a.to_string())
        .unwrap_or_default();
    for b in BOARDS {
        if let Some(said) = b.help(task) {
            text.push_str("\n\n");
            text.push_str(&wrap(&format!("{}: {}", b.name(), unwrap(said))));
        }
    }
    c.long_about(text)
}

/// A task's summary (in `cargo xtask --help` and atop its own help) set to `about`.
fn summary(c: clap::Command, about: String) -> clap::Command {
    let long = c
        .get_long_about()
        .map(|a| a.to_string())
        .unwrap_or_default();
    let rest = long.split_once("\n\n").map_or("", |(_, rest)| rest);
    let long = format!("{about}\n\n{rest}");
    c.about(about).long_about(long)
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A paragraph's lines joined (each line break a space).
fn unwrap(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A paragraph wrapped at the width of the help's own text (92 columns), word by word.
fn wrap(text: &str) -> String {
    const WIDTH: usize = 92;
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        let n = word.chars().count();
        if line > 0 && line + 1 + n > WIDTH {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
}

#[derive(Args, Debug)]
pub struct Demo {
    /// Matches to play (the default: the rotation once, one match of every entry).
    #[arg(long, value_name = "N", default_value_t = crate::host::rotation())]
    pub matches: u32,
    /// Save the emulated OLED every N turns.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub snap: u32,
    /// Print the whole decoded defmt log live.
    #[arg(long)]
    pub verbose: bool,
}

#[derive(Args, Debug)]
pub struct Emulate {
    /// The board (each board with an emulated chip).
    #[arg(value_name = "BOARD")]
    pub board: String,
    /// Matches to play.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub matches: u32,
    /// Save the screen every N turns.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub snap: u32,
    /// Boot FILE instead of the board's own ELF (a user's firmware, e.g. from templates/rust-bot).
    #[arg(long, value_name = "FILE")]
    pub elf: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct FirmwareTest {
    /// That part's checks alone: a board's or template (default: all).
    #[arg(long, value_name = "BOARD")]
    pub board: Option<String>,
}

#[derive(Args, Debug)]
pub struct Cost {
    /// JSON only.
    #[arg(long)]
    pub json: bool,
    /// A board (the default: the first); with --game also all.
    #[arg(long, value_name = "BOARD")]
    pub board: Option<String>,
    /// Only the lineup entries playing G.
    #[arg(long, value_name = "G")]
    pub game: Option<String>,
    /// With --game: only the entries where B plays.
    #[arg(long, value_name = "B", requires = "game")]
    pub bot: Option<String>,
    /// With --game: only the entries against X.
    #[arg(long, value_name = "X", requires = "game")]
    pub vs: Option<String>,
    /// With --game: the lineup of the user's crate in DIR (templates/rust-bot or a copy of it).
    #[arg(long, value_name = "DIR", requires = "game")]
    pub template: Option<String>,
}

impl Cost {
    /// The arguments `cost_pick::run` reads (`--game G ...`), as they were typed.
    pub fn pick_args(&self) -> Vec<String> {
        let options = [
            ("--game", &self.game),
            ("--bot", &self.bot),
            ("--vs", &self.vs),
            ("--board", &self.board),
            ("--template", &self.template),
        ];
        let mut args: Vec<String> = options
            .into_iter()
            .filter_map(|(name, v)| Some([name.to_string(), v.clone()?]))
            .flatten()
            .collect();
        if self.json {
            args.push("--json".into());
        }
        args
    }
}

#[derive(Args, Debug)]
pub struct Uf2 {
    /// The board that has a UF2 file.
    #[arg(long, value_name = "BOARD")]
    pub board: String,
}

#[derive(Args, Debug)]
pub struct Panics {
    /// Check FILE instead of building the board's firmware.
    #[arg(long, value_name = "FILE")]
    pub elf: Option<String>,
}

#[derive(Args, Debug)]
pub struct Lineup {
    /// Matches to play (default: the rotation once).
    #[arg(long, value_name = "N", default_value_t = crate::host::rotation())]
    pub matches: u32,
}

#[derive(Args, Debug)]
pub struct Flash {
    /// A board one can hold.
    #[arg(long, value_name = "BOARD")]
    pub board: String,
    /// The UF2 file of the board that has one (no probe).
    #[arg(long, conflicts_with = "dfu")]
    pub uf2: bool,
    /// The DFU image of the board that has one (no probe).
    #[arg(long)]
    pub dfu: bool,
}

#[derive(Args, Debug)]
pub struct Soak {
    /// Seeded matches to play (the soak runner's default: 10,000).
    #[arg(long, value_name = "N")]
    pub matches: Option<u64>,
    /// The first seed (the soak runner's default: 1).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

#[derive(Args, Debug)]
pub struct LoadTest {
    /// The arena binary to run (default: a debug build, built first).
    #[arg(long, value_name = "FILE")]
    pub arena: Option<String>,
    /// The game's length in ticks (default: 300).
    #[arg(long, value_name = "N")]
    pub ticks: Option<u32>,
    /// The game's seed (default: 7).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Another client: its command and arguments in one word, the server's URL added; its last line
    /// of output is JSON with `accepted`, `attacks` and `cell_num`, as the example bot prints.
    #[arg(long, value_name = "CMD ARGS", verbatim_doc_comment)]
    pub client: Option<String>,
}

impl LoadTest {
    /// The options given, as the system test reads them (its defaults are its own).
    pub fn args(&self) -> Vec<String> {
        let given = [
            ("--arena", self.arena.clone()),
            ("--ticks", self.ticks.map(|t| t.to_string())),
            ("--seed", self.seed.map(|s| s.to_string())),
            ("--client", self.client.clone()),
        ];
        options(given)
    }
}

#[derive(Args, Debug)]
pub struct ScaleOut {
    /// The arena binary to run (default: a release build).
    #[arg(long, value_name = "FILE")]
    pub arena: Option<String>,
}

impl ScaleOut {
    /// The options given, as the system test reads them.
    pub fn args(&self) -> Vec<String> {
        options([("--arena", self.arena.clone())])
    }
}

/// `--name value` for each value given.
fn options<const N: usize>(given: [(&str, Option<String>); N]) -> Vec<String> {
    given
        .into_iter()
        .filter_map(|(name, v)| Some([name.to_string(), v?]))
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        let words = std::iter::once("xtask").chain(line.split_whitespace());
        Cli::from_arg_matches(&command().try_get_matches_from(words)?)
    }

    /// A board of the registry (the last: not the default).
    fn board() -> &'static str {
        BOARDS[BOARDS.len() - 1].name()
    }

    #[test]
    fn the_command_line_is_consistent() {
        command().debug_assert();
    }

    /// Every line the help and the docs show parses, into the task it names.
    #[test]
    fn each_task_parses_its_documented_lines() {
        let b = board();
        let lines = [
            "demo",
            "demo --matches 3 --snap 5 --verbose",
            "test",
            &format!("emulate {b} --matches 2 --snap 4 --elf target/x.elf"),
            &format!("emulate {b}"),
            "firmware-test",
            "firmware-test --board template",
            "cost",
            &format!("cost --json --board {b}"),
            "cost --game some_game --bot b --vs x --board all --json",
            &format!("uf2 --board {b}"),
            "size",
            "panics",
            "panics --elf target/arena",
            "lineup",
            "lineup --matches 16",
            &format!("flash --board {b} --uf2"),
            &format!("flash --board {b} --dfu"),
            "soak --matches 100 --seed 3",
            "fuzz",
            "fuzz --seconds 4 --jobs 2 --sanitizer none --dev",
            "fuzz verify_some_game",
            "mutants",
            "mutants --diff --base origin/dev --jobs 2 --timeout 60 --max 5 --budget 3",
            "mutants core/src/rng.rs",
            "load-test",
            "load-test --arena target/release/arena --ticks 300 --seed 7",
            "scale-out",
            "scale-out --arena target/release/arena",
            "python-test",
            "template-tournaments",
            "setup",
        ];
        for line in lines {
            let cli = parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let task = format!("{:?}", cli.task);
            let name = line.split_whitespace().next().unwrap_or_default();
            let variant: String = name
                .split('-')
                .map(|w| w[..1].to_uppercase() + &w[1..])
                .collect();
            assert!(
                task.starts_with(&format!("Some({variant}")),
                "{line}: {task}"
            );
        }
        // A value with spaces (as a shell passes it quoted).
        let cli = Cli::try_parse_from(["xtask", "load-test", "--client", "python3 my_bot.py"]);
        assert!(matches!(
            cli,
            Ok(Cli {
                task: Some(Task::LoadTest(_))
            })
        ));
        assert!(parse("").is_ok_and(|c| c.task.is_none()));
    }

    #[test]
    fn the_defaults_are_those_documented() {
        let Ok(Cli {
            task: Some(Task::Demo(d)),
        }) = parse("demo")
        else {
            panic!("demo")
        };
        assert_eq!(
            (d.matches, d.snap, d.verbose),
            (crate::host::rotation(), 10, false)
        );
        let Ok(Cli {
            task: Some(Task::Lineup(l)),
        }) = parse("lineup")
        else {
            panic!("lineup")
        };
        assert_eq!(l.matches, crate::host::rotation());
        let Ok(Cli {
            task: Some(Task::Emulate(e)),
        }) = parse(&format!("emulate {}", board()))
        else {
            panic!("emulate")
        };
        assert_eq!((e.board.as_str(), e.matches, e.snap), (board(), 3, 10));
    }

    #[test]
    fn bad_lines_are_refused() {
        let both = format!("flash --board {} --uf2 --dfu", board());
        for bad in [
            "frobnicate",
            "demo --matches many",
            "emulate",
            "flash",
            &both,
            "uf2",
            "cost --bot greedy",
            "fuzz --seconds 0",
            "fuzz --jobs 0",
            "fuzz --sanitizer memory",
            "load-test --ticks many",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    /// load-test and scale-out hand the system tests the options given, and only those (their
    /// defaults are the system tests').
    #[test]
    fn the_system_tests_get_the_options_given() {
        let Ok(Cli {
            task: Some(Task::LoadTest(l)),
        }) = Cli::try_parse_from(["x", "load-test", "--seed", "3", "--client", "python3 b.py"])
        else {
            panic!("load-test")
        };
        assert_eq!(l.args(), ["--seed", "3", "--client", "python3 b.py"]);
        let Ok(Cli {
            task: Some(Task::ScaleOut(s)),
        }) = parse("scale-out")
        else {
            panic!("scale-out")
        };
        assert!(s.args().is_empty());
    }

    #[test]
    fn cost_gives_cost_pick_the_arguments_it_reads() {
        let Ok(Cli {
            task: Some(Task::Cost(c)),
        }) = parse("cost --json --game g --vs x --board all")
        else {
            panic!("cost")
        };
        assert_eq!(
            c.pick_args().join(" "),
            "--game g --vs x --board all --json"
        );
    }

    /// The help lists every task but the hidden one, each with its summary.
    #[test]
    fn the_help_lists_the_tasks() {
        let help = command().render_long_help().to_string();
        for task in command().get_subcommands() {
            let name = task.get_name();
            assert_eq!(
                help.contains(&format!("  {name} ")),
                !task.is_hide_set(),
                "{name} in:\n{help}"
            );
        }
    }

    /// The help of task `task` as `cargo xtask <task> --help` prints it.
    fn help_of(task: &str) -> String {
        let mut cmd = command();
        match cmd.find_subcommand_mut(task) {
            Some(c) => c.render_long_help().to_string(),
            None => panic!("no task {task}"),
        }
    }

    /// The help says what the registry holds: every board in the tasks of every board, each with
    /// its own paragraph where it has one; the lists of boards are the registry's names, a new
    /// board's among them without a line here.
    #[test]
    fn the_help_is_the_registrys() {
        for task in ["firmware-test", "cost", "setup"] {
            let help = help_of(task);
            for b in BOARDS {
                assert!(
                    help.contains(&format!("{}: ", b.name())),
                    "{} in:\n{help}",
                    b.name()
                );
                let said = b.help(task).map(unwrap).unwrap_or_default();
                assert!(unwrap(&help).contains(&said), "{task}: {said}");
            }
        }
        let emulate = help_of("emulate");
        for b in BOARDS.iter().filter(|b| b.help("emulate").is_some()) {
            assert!(emulate.contains(&format!("\n{}: ", b.name())), "{emulate}");
        }
        let flash = help_of("flash");
        for b in BOARDS.iter().filter(|b| b.image().is_some()) {
            assert!(flash.contains(&format!("({})", b.name())), "{flash}");
        }
        for task in ["demo", "panics", "uf2"] {
            let owner = BOARDS.iter().find_map(|b| b.help(task));
            assert_eq!(
                owner.is_some(),
                help_of(task).starts_with(owner.unwrap_or("-")),
                "{task}"
            );
        }
        // Nothing of the generic texts the boards' own replace is left.
        let all = command().render_long_help().to_string()
            + &command()
                .get_subcommands()
                .map(|c| help_of(c.get_name()))
                .collect::<String>();
        assert!(!all.contains("(The board's own text"), "{all}");
        assert!(!all.contains("the default board"), "{all}");
    }

    /// Help paragraphs are wrapped at 92 columns, word by word, and joined back the same.
    #[test]
    fn paragraphs_wrap_at_the_help_width() {
        let text = "word ".repeat(40);
        let wrapped = wrap(&text);
        assert!(wrapped.lines().all(|l| l.len() <= 92), "{wrapped}");
        assert!(wrapped.lines().count() > 1);
        assert_eq!(unwrap(&wrapped), text.trim_end());
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
        assert_eq!(or_list(&["a"]), "a");
    }
}
