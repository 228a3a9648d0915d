//! The desktop route (in-process): plays `mybot::MyLineup` on this computer through the firmware's
//! own match loop, the loop every board runs, and prints what a board logs: each match's start,
//! its digests, its final digest and its result, in the boards' log format, so a board's log and
//! this output compare line by line (`cargo xtask test` does).
//!
//! `cargo run --release -- [matches=N] [first=N] [digest=N] [maxsteps=N]`: N matches of the
//! rotation (default: the lineup once), from match `first`, a digest every `digest` turns
//! (0: only the final one). `cargo run --release -- lineup`: the lineup's entries, one line each,
//! with which seats are this crate's bots (what `./cost.sh` reads).

use arena_firmware::board::{Event, Listener, Parts};
use arena_firmware::cost::NoClock;
use arena_firmware::{Gray4Frame, Lineup, RunConfig};

/// Prints the loop's events as the boards log them.
struct Print;

impl Listener<Gray4Frame> for Print {
    fn event(&mut self, _display: &mut Gray4Frame, event: &Event<'_>) {
        match *event {
            Event::Start {
                number,
                game,
                config,
                seed,
                bots,
                ..
            } => println!("start m={number} game={game} config={config} seed={seed} bots={bots:?}"),
            Event::SetupFailed { number } => println!("setup failed m={number}"),
            Event::Digest {
                number,
                turn,
                digest,
            } => println!("digest m={number} t={turn} d={digest}"),
            Event::End {
                number,
                turns,
                digest,
                outcome,
                ..
            } => {
                println!("final m={number} t={turns} d={digest}");
                match outcome {
                    Some(o) => println!(
                        "result m={number} turns={turns} ranks={:?} scores={:?} reason={}",
                        o.ranks(),
                        o.scores(),
                        o.reason
                    ),
                    None => println!("result m={number} turns={turns} stopped"),
                }
            }
            _ => {}
        }
    }
}

fn main() {
    let mut cfg = RunConfig {
        matches: Some(u32::try_from(mybot::MyLineup::LEN).unwrap_or(u32::MAX)),
        digest_every: 0,
        ..RunConfig::default()
    };
    for arg in std::env::args().skip(1) {
        if arg == "lineup" {
            lineup();
            return;
        }
        let parsed = arg.split_once('=').and_then(|(key, value)| {
            let n: u32 = value.parse().ok()?;
            match key {
                "matches" => cfg.matches = Some(n),
                "first" => cfg.first = n,
                "digest" => cfg.digest_every = n,
                "maxsteps" => cfg.max_steps = n,
                _ => return None,
            }
            Some(())
        });
        if parsed.is_none() {
            eprintln!(
                "desktop: unknown argument {arg:?}: matches=N first=N digest=N maxsteps=N, or lineup"
            );
            std::process::exit(2);
        }
    }
    let mut board = Parts {
        display: Gray4Frame::new(),
        clock: NoClock,
        listener: Print,
    };
    let played = arena_firmware::run::<mybot::MyLineup, _>(&mut board, &cfg);
    println!("done matches={played}");
}

/// Says whose each seat's bot is.
struct Users(u32);

impl arena_firmware::lineup::Visit for Users {
    type Out = ();
    fn visit<G: arena_firmware::Screen + arena_core::Roster>(
        self,
        entry: &arena_firmware::Entry,
        seats: &[arena_firmware::lineup::Pick<G>],
        _params: &dyn Fn() -> Option<G::Params>,
    ) {
        let users: Vec<bool> = seats
            .iter()
            .map(|p| matches!(p, arena_firmware::lineup::Pick::User { .. }))
            .collect();
        println!(
            "entry m={} game={} config={} bots={:?} users={users:?}",
            self.0,
            G::NAME,
            entry.config,
            entry.bots
        );
    }
    fn skip(self, entry: &arena_firmware::Entry) {
        println!("entry m={} skipped config={}", self.0, entry.config);
    }
}

/// `desktop lineup`: one line an entry of the lineup, which seats are this crate's bots (`users=`
/// by seat: `true` for a user's bot, `false` for a built-in): `cargo xtask cost --template`
/// reads them.
fn lineup() {
    for i in 0..mybot::MyLineup::LEN {
        <mybot::MyLineup as Lineup>::visit(i, Users(u32::try_from(i).unwrap_or(u32::MAX)));
    }
}
