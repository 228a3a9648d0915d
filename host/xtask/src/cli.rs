//! The command line of `cargo xtask`: one [`Task`] per subcommand, parsed by clap (derive), each
//! task's help its doc comment (the first paragraph the one-line summary `cargo xtask --help` lists,
//! the whole the text `cargo xtask <task> --help` prints). The docs are kept as written
//! (`verbatim_doc_comment`): clap here wraps nothing (no `wrap_help`, which would change the `arena`
//! binary's help too, the features being one set in the workspace).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// The tasks that need several targets, QEMU and host tools, run as `cargo xtask <task>`.
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
    /// Bot-vs-bot matches in QEMU, one line each; the OLED as PNG and GIF
    ///
    /// First `cargo xtask setup`'s part for the QEMU board (it says so): what is missing of the
    /// thumb targets, llvm-tools, QEMU and defmt-print is installed. Then plays bot-vs-bot matches
    /// in QEMU (lm3s6965evb), by default one of every entry of the rotation (`lineup`), one line
    /// per match (game, bots, result, turns, the rules' median cost); the whole decoded defmt log
    /// in target/demo/log.txt (--verbose prints it live); the emulated OLED saved every N turns
    /// (default 10) as PNG frames and an animated GIF in target/demo/.
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
    /// (same as firmware-test; the boards' builds are the core's no_std build on thumbv6m, thumbv7m
    /// and thumbv7em) beside the Python package (same as python-test), the viewer and the report in
    /// headless chromium, and every fuzz target for 4 s, two at a time (same as fuzz --seconds 4
    /// --jobs 2 --sanitizer none --dev), then the core's mutants on the lines the change touches
    /// against main (same as mutants --diff: on main itself, none); ends with the time each step
    /// took and one line, P passed, F failed (every test of the workspace and of the Python
    /// package).
    #[command(verbatim_doc_comment)]
    Test,
    /// A board's ELF on its emulated chip (rp-pico, stm32f411), as PNG/GIF
    ///
    /// The Pico's release ELF on an emulated RP2040 (rp2040js, the Node harness in
    /// host/xtask/emulators/rp2040) with an SSD1306 on I2C0, or the Black Pill's on an emulated
    /// STM32F411CE (Unicorn, from PyPI into a venv under target/, the Python harness in
    /// host/xtask/emulators/stm32f411) with an ST7789 on SPI1; the defmt log decoded live, the screen
    /// saved every N turns (and each announced frame) as PNG frames and an animated GIF in
    /// target/emulate/<board>/. Needs what `cargo xtask setup` installs (it says so when something
    /// is missing).
    #[command(verbatim_doc_comment)]
    Emulate(Emulate),
    /// Host vs QEMU, the emulated Pico and STM32F411, and the template
    ///
    /// Host vs QEMU: identical digests, screendumps equal to the host rendering, the OLED's bytes a
    /// game frame (a median under a quarter of a whole frame), the panic screen, no unexplained
    /// panic path; the size limits and the cost budget; then host vs the emulated Pico: identical
    /// digests, OLED frames equal to the host rendering at oled128x64, the panic in the log with a
    /// failure status, the stack per match (the Pico booted from its UF2 file); then the same on
    /// the emulated STM32F411 with its ST7789 at rgb240x240, its clock tree and the DFU image;
    /// templates/rust-bot (a user's crate) built for the three boards and its lineup in QEMU with
    /// every digest equal to its desktop binary's. Needs what `cargo xtask setup` installs (it says
    /// so when something is missing).
    #[command(verbatim_doc_comment)]
    FirmwareTest(FirmwareTest),
    /// Instructions or cycles per turn of the lineup, stack, state size
    ///
    /// Without --game: instructions per turn in QEMU (-icount shift=0), stack high-water mark,
    /// state size; JSON also in target/cost.json. --board rp-pico: cycles per turn on the emulated
    /// Pico (Cortex-M0+) beside the QEMU Cortex-M3 figures; JSON in target/cost-rp-pico.json;
    /// --board stm32f411: instructions per turn on the emulated STM32F411 (Cortex-M4F), JSON in
    /// target/cost-stm32f411.json.
    ///
    /// With --game G [--bot B] [--vs X]: only the lineup entries playing G with B against X, each
    /// alone on each chip (the same match as in the rotation, its final digest checked against
    /// the host's; the Pico's and F411's ELF copied with its ARENA_RUN words written over; a frame
    /// every 25 turns): per turn of the rules, of the bots together and of each seat's bot
    /// min/median/p99/max, the bots' share of G's time limit at the chip's clock, the match's
    /// stack, each bot's stack high-water and flash bytes (--board all: every board); JSON in
    /// target/cost-pick.json. --template DIR: the lineup of a user's crate (templates/rust-bot or
    /// a copy; its own board binaries, its desktop binary's digests; its cost.sh runs this); JSON
    /// in target/cost-template.json. Needs what `cargo xtask setup` installs (it says so when
    /// something is missing).
    #[command(verbatim_doc_comment)]
    Cost(Cost),
    /// The Pico's release ELF as a UF2 file in target/uf2/
    ///
    /// The Pico's release ELF as a UF2 file: target/uf2/pocket-arena-rp-pico.uf2.
    #[command(verbatim_doc_comment)]
    Uf2(Uf2),
    /// Flash and static RAM of every board
    Size,
    /// The panic paths left in the QEMU firmware, each explained
    ///
    /// The panic paths left in the QEMU firmware (read off the ELF), each with why it cannot fire
    /// in the demo rotation; fails on any other (also part of test).
    #[command(verbatim_doc_comment)]
    Panics(Panics),
    /// The QEMU board's rotation played on the host, a line a match
    ///
    /// Plays the QEMU board's rotation on the host (by default once: one match of every entry; N
    /// matches go round it): turns, result and final state digest of each match (the digest the
    /// board logs as `final`).
    #[command(verbatim_doc_comment)]
    Lineup(Lineup),
    /// Build and run on a real board (probe-rs), or by UF2 or DFU
    ///
    /// Builds and runs on a real board (probe-rs run; needs probe-rs, whose install it names, and
    /// flip-link, which `cargo xtask setup` installs); --uf2 (rp-pico): copy the UF2 file onto the
    /// RPI-RP2 drive a Pico in BOOTSEL mode shows; --dfu (stm32f411): the raw image through the
    /// ROM's USB DFU bootloader with dfu-util.
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
    /// Installs what is missing, each step checking first: the thumb and wasm32 targets and
    /// llvm-tools (rustup); QEMU, Mono, chromium, Node and npm, bubblewrap, Slurm, munge, GNU
    /// parallel (apt-get, sudo unless root, without the packages they only recommend); defmt-print,
    /// flip-link, cargo-fuzz and cargo-mutants (cargo install); the emulated Pico's Node packages
    /// (npm ci from the committed lock file) and the emulated STM32F411's venv (pip); a minimal
    /// nightly toolchain for the fuzz targets (rustup); maturin and ziglang in target/python-venv
    /// for the Python wheel (pip). Each install's output in target/setup/<name>.log.
    ///
    /// No other task installs: `test` runs setup first and `demo` its part for the QEMU board, each
    /// saying so; every other task checks for the tools it needs and, when one is missing, fails
    /// with an error that names `cargo xtask setup`.
    #[command(verbatim_doc_comment)]
    Setup,
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
    /// rp-pico or stm32f411 (the QEMU board runs with `cargo xtask demo`).
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
    /// That part's checks alone: qemu-lm3s6965, rp-pico, stm32f411 or template (default: all).
    #[arg(long, value_name = "BOARD")]
    pub board: Option<String>,
}

#[derive(Args, Debug)]
pub struct Cost {
    /// JSON only.
    #[arg(long)]
    pub json: bool,
    /// qemu-lm3s6965 (the default), rp-pico or stm32f411; with --game also all.
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
    /// rp-pico.
    #[arg(long, value_name = "BOARD")]
    pub board: String,
}

#[derive(Args, Debug)]
pub struct Panics {
    /// Check FILE instead of building the QEMU firmware.
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
    /// rp-pico or stm32f411.
    #[arg(long, value_name = "BOARD")]
    pub board: String,
    /// rp-pico: copy the UF2 file onto the RPI-RP2 drive (no probe).
    #[arg(long, conflicts_with = "dfu")]
    pub uf2: bool,
    /// stm32f411: the raw image through the ROM's USB DFU bootloader with dfu-util (no probe).
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
    use clap::CommandFactory;

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("xtask").chain(line.split_whitespace()))
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Every line the help and the docs show parses, into the task it names.
    #[test]
    fn each_task_parses_its_documented_lines() {
        let lines = [
            "demo",
            "demo --matches 3 --snap 5 --verbose",
            "test",
            "emulate rp-pico --matches 2 --snap 4 --elf target/x.elf",
            "emulate stm32f411",
            "firmware-test",
            "firmware-test --board template",
            "cost",
            "cost --json --board rp-pico",
            "cost --game some_game --bot b --vs x --board all --json",
            "uf2 --board rp-pico",
            "size",
            "panics",
            "panics --elf target/arena",
            "lineup",
            "lineup --matches 16",
            "flash --board rp-pico --uf2",
            "flash --board stm32f411 --dfu",
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
        }) = parse("emulate rp-pico")
        else {
            panic!("emulate")
        };
        assert_eq!((e.board.as_str(), e.matches, e.snap), ("rp-pico", 3, 10));
    }

    #[test]
    fn bad_lines_are_refused() {
        for bad in [
            "frobnicate",
            "demo --matches many",
            "emulate",
            "flash",
            "flash --board rp-pico --uf2 --dfu",
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
        let help = Cli::command().render_long_help().to_string();
        for task in Cli::command().get_subcommands() {
            let name = task.get_name();
            assert_eq!(
                help.contains(&format!("  {name} ")),
                !task.is_hide_set(),
                "{name} in:\n{help}"
            );
        }
    }
}
