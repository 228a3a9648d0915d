//! `cargo xtask cost --game G [--bot B] [--vs X] [--board <board>|all]`: the cost of the lineup
//! entries that play game G with bot B against X, and no other match.
//!
//! The entries are picked from each board's own lineup (the rotation it plays,
//! `Board::rotation`; with `--template`, a user's lineup, in cost_template.rs). Each picked entry
//! K is played alone (`Board::alone`), the same match as in the rotation (match K's seed is its
//! entry's own for its round), its final digest checked against the host's: on a board that
//! takes a command line with `first=K matches=1 seats=1 frames=25`; on one that takes none, from
//! a copy of the board's ELF whose `ARENA_RUN` words in flash say the same
//! (`arena_firmware::board::run_words`, [`with_run_words`]), stopped when match K+1 starts.
//!
//! Each row gives, per turn, the rules' `step`, the bots' decisions (every seat's together) and
//! each seat's bot alone as min / median / p99 / max in the board's unit, the stack high-water
//! mark of the match and of each seat's bot, each bot's flash bytes (from the ELF's symbols), and
//! the bots' median and p99 as a share of the game's time limit for a turn (`rules/<game>.md`,
//! logged by the firmware as `limit_us`) at the chip's clock.

use std::path::Path;

use anyhow::{anyhow, bail, ensure, Context, Result};
use serde_json::{json, Value};

use crate::boards::{Board, BOARDS};
use crate::rotation::Listed;

/// What to measure: the game, the bot, its opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    pub game: String,
    pub bot: Option<String>,
    pub vs: Option<String>,
}

impl Pick {
    /// Whether an entry of game `game` with `bots` by seat is one to measure: the game, the bot
    /// in a seat, and the opponent in another.
    fn wants(&self, game: &str, bots: &[&str]) -> bool {
        if game != self.game {
            return false;
        }
        let seats_of =
            |name: &str| -> Vec<usize> { (0..bots.len()).filter(|&s| bots[s] == name).collect() };
        match (&self.bot, &self.vs) {
            (None, None) => true,
            (Some(b), None) | (None, Some(b)) => !seats_of(b).is_empty(),
            (Some(b), Some(x)) => {
                let xs = seats_of(x);
                seats_of(b).iter().any(|s| xs.iter().any(|t| t != s))
            }
        }
    }
}

/// The entries of `all` (a lineup, in rotation order) that `pick` wants; an error listing the
/// lineup when none does.
pub fn pick_from(all: Vec<Listed>, pick: &Pick, board: &str) -> Result<Vec<Listed>> {
    let found: Vec<Listed> = all
        .iter()
        .filter(|e| pick.wants(e.game, e.bots))
        .cloned()
        .collect();
    if found.is_empty() {
        let list: Vec<String> = all
            .iter()
            .map(|e| format!("{} {} {}", e.game, e.config, e.bots.join(" vs ")))
            .collect();
        bail!(
            "no entry of {board}'s lineup plays {} with {} against {}; its entries: {}",
            pick.game,
            pick.bot.as_deref().unwrap_or("any bot"),
            pick.vs.as_deref().unwrap_or("anyone"),
            list.join("; ")
        );
    }
    Ok(found)
}

/// The `value`'s share of `limit_us` at `mhz` (units a turn over units in the limit), as `12.3%`.
pub fn share(value: u64, limit_us: u64, mhz: u64) -> String {
    let budget = limit_us.saturating_mul(mhz);
    if budget == 0 {
        return "-".into();
    }
    let per_mille_x10 = value.saturating_mul(100_000) / budget;
    format!("{}.{:03}%", per_mille_x10 / 1000, per_mille_x10 % 1000)
}

/// The pick, the boards and `--json` of `cost --game ...` (the arguments as typed).
pub fn parse(args: &[String]) -> Result<(Pick, Vec<&'static dyn Board>, bool)> {
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let Some(game) = flag("--game") else {
        bail!("cost --game G: which game's entries to measure");
    };
    let pick = Pick {
        game,
        bot: flag("--bot"),
        vs: flag("--vs"),
    };
    let chips: Vec<&'static dyn Board> = match flag("--board").as_deref() {
        // The default: the first board of the registry.
        None => vec![BOARDS[0]],
        Some("all") => BOARDS.to_vec(),
        Some(b) => match BOARDS.iter().find(|c| c.name() == b) {
            Some(c) => vec![*c],
            None => bail!(
                "cost --board {b}: {} (the default), {} or all",
                BOARDS[0].name(),
                crate::boards::names_where(|c| c.name() != BOARDS[0].name(), ", ")
            ),
        },
    };
    Ok((pick, chips, args.iter().any(|a| a == "--json")))
}

/// `cargo xtask cost --game ...`.
pub fn run(args: &[String]) -> Result<()> {
    let (pick, chips, json_only) = parse(args)?;
    // Every board's entries first: a name that matches nothing fails before any build.
    for chip in &chips {
        pick_from((chip.rotation().entries)(), &pick, chip.name())?;
    }
    let mut report = Vec::new();
    for chip in chips {
        let started = std::time::Instant::now();
        let rows = rows(chip, &pick)?;
        crate::cost::check_stack(&rows, chip.name())?;
        if !json_only {
            print_rows(chip, &rows, started.elapsed());
        }
        report.push(table(chip, rows));
    }
    let report = json!({ "game": pick.game, "bot": pick.bot, "vs": pick.vs, "boards": report });
    let out = crate::root().join("target/cost-pick.json");
    std::fs::create_dir_all(crate::root().join("target"))?;
    std::fs::write(&out, serde_json::to_string_pretty(&report)?)?;
    if json_only {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("(JSON in {})", out.display());
    }
    Ok(())
}

/// A board's cost table in the JSON report: its name, core, clock, unit and rows.
pub fn table(board: &dyn Board, rows: Vec<Value>) -> Value {
    let core = board.core();
    json!({ "board": board.name(), "core": core.about, "mhz": core.mhz, "unit": core.unit, "matches": rows })
}

/// Each picked entry of `board`'s rotation alone on the board, its final digest the host's.
fn rows(board: &dyn Board, pick: &Pick) -> Result<Vec<Value>> {
    let rotation = board.rotation();
    let picked = pick_from((rotation.entries)(), pick, board.name())?;
    board.setup()?;
    let elf = board.build()?.join("arena");
    let mut rows = Vec::new();
    for e in picked {
        let mut got = board.alone(&elf, e.index)?;
        same_final(
            &mut got,
            e.index,
            board.name(),
            (rotation.host_final)(e.index),
        )?;
        add_flash(&mut got, &elf, &e.users, "-")?;
        rows.extend(got);
    }
    Ok(rows)
}

/// Fails unless each row's match logged a final digest equal to the host's (`want`) for match `m`.
fn same_final(rows: &mut [Value], m: u32, board: &str, want: Option<String>) -> Result<()> {
    for r in rows.iter_mut() {
        let got = r["final_digest"].as_str().map(str::to_owned);
        ensure!(
            got.is_some() && got == want,
            "match {m} on the {board}: final digest {got:?}, the host's {want:?}"
        );
        r["host_digest_equal"] = json!(true);
    }
    Ok(())
}

/// `min / median / p99 / max` of a per-turn figure.
fn four(v: &Value) -> String {
    let n = |k: &str| v[k].as_u64().unwrap_or(0);
    format!(
        "{} / {} / {} / {}",
        n("min"),
        n("median"),
        n("p99"),
        n("max")
    )
}

/// A board's table of `rows`, measured in `took`.
pub fn print_rows(board: &dyn Board, rows: &[Value], took: std::time::Duration) {
    let chip = board.core();
    println!(
        "{}: {} ({:.0} s)",
        board.name(),
        chip.about,
        took.as_secs_f64()
    );
    println!(
        "  {:>5} {:<15} {:>5} | {:>34} | {:>34} | {:>21} | {:>7}  bots",
        "match",
        "config",
        "turns",
        "rules min / median / p99 / max",
        "bots min / median / p99 / max",
        "bots med / p99 of limit",
        "stack"
    );
    for r in rows {
        let limit = r["limit_us"].as_u64().unwrap_or(0);
        println!(
            "  {:>5} {:<15} {:>5} | {:>34} | {:>34} | {:>21} | {:>7}  {} (limit {} us)",
            r["match"].to_string(),
            r["config"].as_str().unwrap_or("?"),
            r["turns"].to_string(),
            four(&r[format!("{}_per_turn", chip.unit)]),
            four(&r[format!("bots_{}_per_turn", chip.unit)]),
            of_limit(&r[format!("bots_{}_per_turn", chip.unit)], limit, chip.mhz),
            r["stack_bytes"].to_string(),
            r["bots"].as_str().unwrap_or("?"),
            limit
        );
        for seat in r["seats"].as_array().into_iter().flatten() {
            let cost = &seat[format!("{}_per_turn", chip.unit)];
            println!(
                "  {:>5} {:<15} {:>5} | {:>34} | {:>34} | {:>21} | {:>7}  {}",
                "",
                format!(" seat {}", seat["seat"]),
                seat["turns"].to_string(),
                "",
                four(cost),
                of_limit(cost, limit, chip.mhz),
                seat["stack_bytes"].to_string(),
                seat_label(seat)
            );
        }
    }
    println!(
        "  (per turn in {}: the rules' step, then the bots (every seat's together), then each \
         seat's bot alone; bots' median and p99 as a share of the game's time limit for a turn at \
         {} MHz; stack: the match's high-water mark in bytes, and each seat's bot's own (the \
         deepest below where its turn began); flash: the bot's code and data in the firmware)",
        chip.unit, chip.mhz
    );
}

/// A seat's bot and its flash bytes, as the table prints them.
fn seat_label(seat: &Value) -> String {
    let bot = seat["bot"].as_str().unwrap_or("?");
    match (seat["flash_bytes"].as_u64(), seat["flash_of"].as_str()) {
        (Some(n), Some(of)) => format!("{bot} (flash {n} B: {of})"),
        _ => bot.to_owned(),
    }
}

/// A per-turn figure's median and p99 as shares of the time limit.
fn of_limit(v: &Value, limit_us: u64, mhz: u64) -> String {
    format!(
        "{} / {}",
        share(v["median"].as_u64().unwrap_or(0), limit_us, mhz),
        share(v["p99"].as_u64().unwrap_or(0), limit_us, mhz)
    )
}

/// Each seat's flash bytes, from the firmware `elf`'s symbols: a built-in bot is its game's bots
/// module (`arena_core::games::<game>::bots`, every built-in bot of the game together: they are one
/// enum), a user's bot (`users`, by named seat, cycled over the seats) its crate (`user_crate`).
pub fn add_flash(rows: &mut [Value], elf: &Path, users: &[bool], user_crate: &str) -> Result<()> {
    let bytes = std::fs::read(elf).with_context(|| elf.display().to_string())?;
    let symbols = crate::elf::symbols(&bytes).map_err(|e| anyhow!("{}: {e}", elf.display()))?;
    for r in rows.iter_mut() {
        let game = r["game"].as_str().unwrap_or("?").replace('-', "_");
        let Some(seats) = r["seats"].as_array_mut() else {
            continue;
        };
        for seat in seats {
            let n = seat["seat"].as_u64().unwrap_or(0) as usize;
            let user = n
                .checked_rem(users.len())
                .and_then(|i| users.get(i))
                .copied()
                .unwrap_or(false);
            let of = if user {
                user_crate.to_owned()
            } else {
                format!("arena_core::games::{game}::bots")
            };
            seat["flash_bytes"] = json!(crate::elf::code_bytes(&symbols, &of));
            seat["flash_of"] = json!(of);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(game: &str, bot: Option<&str>, vs: Option<&str>) -> Pick {
        Pick {
            game: game.into(),
            bot: bot.map(Into::into),
            vs: vs.map(Into::into),
        }
    }

    #[test]
    fn a_pick_wants_the_game_the_bot_and_an_opponent_in_another_seat() {
        let p = pick("g", Some("strong"), Some("random"));
        assert!(p.wants("g", &["strong", "random"]));
        assert!(p.wants("g", &["random", "strong"]));
        assert!(!p.wants("h", &["strong", "random"]));
        assert!(!p.wants("g", &["strong", "army"]));
        // A mirror match needs the bot twice.
        let mirror = pick("g", Some("strong"), Some("strong"));
        assert!(!mirror.wants("g", &["strong", "random"]));
        assert!(mirror.wants("g", &["strong", "strong"]));
        assert!(pick("g", None, None).wants("g", &["x"]));
    }

    #[test]
    fn every_board_lists_its_whole_lineup() {
        for board in BOARDS {
            let all = (board.rotation().entries)();
            assert!(!all.is_empty(), "{}", board.name());
            assert!(all.iter().enumerate().all(|(i, e)| e.index as usize == i));
            assert!(all.iter().all(|e| e.game != "?" && !e.bots.is_empty()));
        }
        let first = (BOARDS[0].rotation().entries)();
        assert_eq!(
            first.len(),
            <crate::host::Lineup as arena_firmware::Lineup>::LEN
        );
        let e = &first[0];
        let p = pick(e.game, Some(e.bots[0]), e.bots.get(1).copied());
        let found = pick_from(first.clone(), &p, "q").unwrap();
        assert!(found.iter().any(|f| f.index == 0));
        let none = pick_from(first.clone(), &pick(e.game, Some("no-such-bot"), None), "q");
        let said = none.unwrap_err().to_string();
        assert!(
            said.contains("no entry of q's lineup") && said.contains(e.config),
            "{said}"
        );
    }

    /// `--board`: the registry's first board by default, every board with `all`, a name not in
    /// the registry refused with the list.
    #[test]
    fn the_boards_are_the_registrys() {
        let args =
            |line: &str| -> Vec<String> { line.split_whitespace().map(Into::into).collect() };
        let names = |line: &str| -> Vec<&str> {
            let (_, chips, _) = parse(&args(line)).unwrap();
            chips.iter().map(|c| c.name()).collect()
        };
        assert_eq!(names("--game g"), [BOARDS[0].name()]);
        let all: Vec<&str> = BOARDS.iter().map(|b| b.name()).collect();
        assert_eq!(names("--game g --board all"), all);
        let last = BOARDS[BOARDS.len() - 1].name();
        assert_eq!(names(&format!("--game g --board {last}")), [last]);
        let Err(e) = parse(&args("--game g --board nowhere")) else {
            panic!("--board nowhere parsed");
        };
        let said = e.to_string();
        assert!(all.iter().all(|b| said.contains(b)), "{said}");
    }

    #[test]
    fn shares_are_of_the_limit_at_the_clock() {
        // 125,000 cycles is 1 ms at 125 MHz: 10% of a 10 ms limit.
        assert_eq!(share(125_000, 10_000, 125), "10.000%");
        assert_eq!(share(1, 10_000, 125), "0.000%");
        assert_eq!(share(5, 0, 125), "-");
    }
}
