//! `cargo xtask cost --game G [--bot B] [--vs X] [--board qemu-lm3s6965|rp-pico|stm32f411|all]`:
//! the cost of the lineup entries that play game G with bot B against X, and no other match.
//!
//! The entries are picked from each board's own lineup (the rotation it plays). On the QEMU board
//! each picked entry is played alone (`first=K matches=1`: match K plays entry K with seed K, as
//! in the rotation); the emulated Pico and F411 take no command line, so they play the rotation
//! from its start up to the last picked entry, and only the picked rows are shown.
//!
//! Each row gives, per turn, the rules' `step` and the bots' decisions (every seat's bot together:
//! the firmware times the bots as a whole) as min / median / p99 / max in the board's unit, the
//! stack high-water mark of the match, and the bots' median and p99 as a share of the game's time
//! limit for a turn (`rules/<game>.md`, logged by the firmware as `limit_us`) at the chip's clock.

use anyhow::{bail, ensure, Result};
use arena_core::Roster;
use arena_firmware::lineup::{Entry, Visit};
use arena_firmware::{Lineup, Screen};
use serde_json::{json, Value};

/// A board the cost is measured on: its name, its core, its clock, its unit, and how it runs.
struct Chip {
    board: &'static str,
    core: &'static str,
    mhz: u64,
    unit: &'static str,
}

const CHIPS: [Chip; 3] = [
    Chip {
        board: "qemu-lm3s6965",
        core: "Cortex-M3 (LM3S6965, 50 MHz; QEMU -icount: instructions, a lower bound on cycles)",
        mhz: 50,
        unit: "instructions",
    },
    Chip {
        board: "rp-pico",
        core: "Cortex-M0+ (RP2040, 125 MHz; rp2040js cycles)",
        mhz: 125,
        unit: "cycles",
    },
    Chip {
        board: "stm32f411",
        core: "Cortex-M4F (STM32F411, 100 MHz; emulated: instructions, a lower bound on cycles)",
        mhz: 100,
        unit: "instructions",
    },
];

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

/// An entry as the cost command lists it: its index, game, config and bots.
#[derive(Clone, Debug)]
pub struct Listed {
    pub index: u32,
    pub game: &'static str,
    pub config: &'static str,
    pub bots: &'static [&'static str],
}

struct Describe(u32);

impl Visit for Describe {
    type Out = Listed;
    fn visit<G: Screen + Roster>(
        self,
        entry: &Entry,
        _seats: &[arena_firmware::lineup::Pick<G>],
        _params: &dyn Fn() -> Option<G::Params>,
    ) -> Listed {
        Listed {
            index: self.0,
            game: G::NAME,
            config: entry.config,
            bots: entry.bots,
        }
    }
    fn skip(self, entry: &Entry) -> Listed {
        Listed {
            index: self.0,
            game: "?",
            config: entry.config,
            bots: entry.bots,
        }
    }
}

/// Every entry of lineup `L`, in rotation order.
pub fn entries<L: Lineup>() -> Vec<Listed> {
    (0..L::LEN as u32)
        .map(|i| L::visit(i as usize, Describe(i)))
        .collect()
}

/// The entries of `L` that `pick` wants; an error listing the lineup when none does.
pub fn picked<L: Lineup>(pick: &Pick, board: &str) -> Result<Vec<Listed>> {
    let all = entries::<L>();
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

fn parse(args: &[String]) -> Result<(Pick, Vec<&'static Chip>, bool)> {
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
    let chips: Vec<&Chip> = match flag("--board").as_deref() {
        None | Some("qemu-lm3s6965") => vec![&CHIPS[0]],
        Some("all") => CHIPS.iter().collect(),
        Some(b) => match CHIPS.iter().find(|c| c.board == b) {
            Some(c) => vec![c],
            None => {
                bail!("cost --board {b}: qemu-lm3s6965 (the default), rp-pico, stm32f411 or all")
            }
        },
    };
    Ok((pick, chips, args.iter().any(|a| a == "--json")))
}

/// `cargo xtask cost --game ...`.
pub fn run(args: &[String]) -> Result<()> {
    let (pick, chips, json_only) = parse(args)?;
    // Every board's entries first: a name that matches nothing fails before any build.
    for chip in &chips {
        match chip.board {
            "qemu-lm3s6965" => picked::<crate::host::Lineup>(&pick, chip.board)?,
            "rp-pico" => picked::<crate::pico::Lineup>(&pick, chip.board)?,
            _ => picked::<crate::stm32::Lineup>(&pick, chip.board)?,
        };
    }
    let mut report = Vec::new();
    for chip in chips {
        let started = std::time::Instant::now();
        let rows = match chip.board {
            "qemu-lm3s6965" => qemu_rows(&pick)?,
            "rp-pico" => pico_rows(&pick)?,
            _ => stm32_rows(&pick)?,
        };
        crate::cost::check_stack(&rows, chip.board)?;
        if !json_only {
            print_rows(chip, &rows, started.elapsed());
        }
        report.push(json!({ "board": chip.board, "core": chip.core, "mhz": chip.mhz, "unit": chip.unit, "matches": rows }));
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

/// QEMU: each picked entry alone.
fn qemu_rows(pick: &Pick) -> Result<Vec<Value>> {
    crate::setup::board()?;
    let elf = crate::qemu::build()?.join("arena");
    let mut rows = Vec::new();
    for e in picked::<crate::host::Lineup>(pick, "qemu-lm3s6965")? {
        let args = vec![
            format!("first={}", e.index),
            "matches=1".into(),
            "digest=0".into(),
        ];
        let ran = crate::qemu::Run {
            icount: true,
            ..crate::qemu::Run::new(&elf, args, 600)
        }
        .go()?;
        ensure!(ran.status == 0, "QEMU firmware exited with {}", ran.status);
        rows.extend(crate::log::cost_rows_of(
            &ran.lines,
            std::iter::once(e.index),
            "instructions",
            false,
        ));
    }
    Ok(rows)
}

/// The rows of `picked` out of a run of the rotation up to the last of them.
fn keep(rows: Vec<Value>, picked: &[Listed]) -> Vec<Value> {
    rows.into_iter()
        .filter(|r| {
            let m = r["match"].as_u64();
            picked.iter().any(|e| Some(u64::from(e.index)) == m)
        })
        .collect()
}

fn pico_rows(pick: &Pick) -> Result<Vec<Value>> {
    let picked = picked::<crate::pico::Lineup>(pick, "rp-pico")?;
    crate::setup::all()?;
    let elf = crate::pico::build()?.join("arena");
    let last = picked.iter().map(|e| e.index).max().unwrap_or(0);
    let rows = crate::emulator::rotation_cost(
        &elf,
        last + 1,
        1500,
        crate::pico::Options::default(),
        "cycles",
    )?;
    Ok(keep(rows, &picked))
}

fn stm32_rows(pick: &Pick) -> Result<Vec<Value>> {
    let picked = picked::<crate::stm32::Lineup>(pick, "stm32f411")?;
    crate::setup::stm32_board()?;
    let elf = crate::stm32::build()?.join("arena");
    let last = picked.iter().map(|e| e.index).max().unwrap_or(0);
    let count = crate::stm32::Options {
        count: true,
        ..crate::stm32::Options::default()
    };
    let rows = crate::emulator::rotation_cost(&elf, last + 1, 3000, count, "instructions")?;
    Ok(keep(rows, &picked))
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

fn print_rows(chip: &Chip, rows: &[Value], took: std::time::Duration) {
    println!(
        "{}: {} ({:.0} s)",
        chip.board,
        chip.core,
        took.as_secs_f64()
    );
    println!(
        "  {:>5} {:<15} {:>5} | {:>34} | {:>34} | {:>17} | {:>7}  bots",
        "match",
        "config",
        "turns",
        "rules min / median / p99 / max",
        "bots min / median / p99 / max",
        "bots med/p99 of limit",
        "stack"
    );
    for r in rows {
        let bots = &r[format!("bots_{}_per_turn", chip.unit)];
        let limit = r["limit_us"].as_u64().unwrap_or(0);
        let of_limit = format!(
            "{} / {}",
            share(bots["median"].as_u64().unwrap_or(0), limit, chip.mhz),
            share(bots["p99"].as_u64().unwrap_or(0), limit, chip.mhz)
        );
        println!(
            "  {:>5} {:<15} {:>5} | {:>34} | {:>34} | {:>17} | {:>7}  {} (limit {} us)",
            r["match"].to_string(),
            r["config"].as_str().unwrap_or("?"),
            r["turns"].to_string(),
            four(&r[format!("{}_per_turn", chip.unit)]),
            four(bots),
            of_limit,
            r["stack_bytes"].to_string(),
            r["bots"].as_str().unwrap_or("?"),
            limit
        );
    }
    println!(
        "  (per turn in {}: the rules' step, then every seat's bot together; the bots' median and \
         p99 as a share of the game's time limit for a turn at {} MHz; stack: the match's \
         high-water mark in bytes)",
        chip.unit, chip.mhz
    );
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
        let qemu = entries::<crate::host::Lineup>();
        assert_eq!(qemu.len(), <crate::host::Lineup as Lineup>::LEN);
        assert!(qemu.iter().all(|e| e.game != "?" && !e.bots.is_empty()));
        let pico = entries::<crate::pico::Lineup>();
        assert!(pico.len() > qemu.len());
        // The Pico plays the QEMU board's rotation first, at the same numbers.
        for (a, b) in qemu.iter().zip(&pico) {
            assert_eq!((a.index, a.game, a.config), (b.index, b.game, b.config));
        }
        let e = &qemu[0];
        let p = pick(e.game, Some(e.bots[0]), e.bots.get(1).copied());
        let found = picked::<crate::host::Lineup>(&p, "q").unwrap();
        assert!(found.iter().any(|f| f.index == 0));
        let none = picked::<crate::host::Lineup>(&pick(e.game, Some("no-such-bot"), None), "q");
        let said = none.unwrap_err().to_string();
        assert!(
            said.contains("no entry of q's lineup") && said.contains(e.config),
            "{said}"
        );
    }

    #[test]
    fn shares_are_of_the_limit_at_the_clock() {
        // 125,000 cycles is 1 ms at 125 MHz: 10% of a 10 ms limit.
        assert_eq!(share(125_000, 10_000, 125), "10.000%");
        assert_eq!(share(1, 10_000, 125), "0.000%");
        assert_eq!(share(5, 0, 125), "-");
    }
}
