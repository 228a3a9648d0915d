//! The long run: thousands of seeded matches of every game of the registry, the generic suite's
//! invariants ([`Suite::check`]) checked after every step. Each seat is one of the game's
//! built-in bots or, about one seat in four, the game's arbitrary generator (the one the property
//! tests and the fuzz targets play) fed from its own seeded byte stream, so matches mix real play
//! with the moves no bot makes. `cargo xtask soak [--matches N] [--seed S]` runs it in release
//! mode (it is not part of the test command: it takes minutes).

use crate::{arbitrary_action, Suite};
use arena_core::arbitrary::Unstructured;
use arena_core::rng::splitmix64;
use arena_core::{Bot, Rng, Roster, Seat};

/// Steps after which a match is cut short (Tower Defense Siege can last a million turns).
pub const MAX_STEPS: u64 = 200_000;

/// What one game's share of the run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub matches: u64,
    pub steps: u64,
    /// Matches that reached their end (the others were cut at [`MAX_STEPS`]).
    pub finished: u64,
    /// Seats played by the arbitrary generator.
    pub arbitrary_seats: u64,
}

/// One game as the soak plays it.
pub struct Soaked {
    /// The game's name (as in the registry).
    pub name: &'static str,
    /// The build played, where the game has several (Ants: the board's).
    pub build: &'static str,
    /// Its share of the matches (out of the sum of all shares).
    pub share: u64,
    pub run: fn(matches: u64, seed: u64) -> Result<Tally, String>,
}

impl Soaked {
    pub const fn of<G: Suite + Roster>(build: &'static str) -> Soaked {
        Soaked {
            name: G::NAME,
            build,
            share: G::SOAK_SHARE,
            run: soak::<G>,
        }
    }
}

/// The build the soak plays of a registry entry: the board build for Ants (its state is 37.5 KB
/// instead of 415 KB, and the soak copies the state every step), the registry's type otherwise.
#[macro_export]
#[doc(hidden)]
macro_rules! soak_build {
    (ants, $game:ty) => {
        $crate::soak::Soaked::of::<arena_core::games::ants::AntsMcu>("board build")
    };
    ($folder:ident, $game:ty) => {
        $crate::soak::Soaked::of::<$game>("")
    };
}

macro_rules! soaks {
    ($($folder:ident: $game:ty),* $(,)?) => {
        /// Every game of the registry, in its order.
        pub static GAMES: &[Soaked] = &[$($crate::soak_build!($folder, $game)),*];
    };
}

arena_core::with_games!(soaks);

/// Who plays a seat.
enum Player<B> {
    /// A bot, given its seat's view (a built-in one here; any `Bot<G>` fits).
    Bot(B),
    /// The game's arbitrary generator, drawing from this byte stream: not a bot, it reads the
    /// whole state to make actions that come near to legal.
    Arbitrary(Rng, Vec<u8>),
}

impl<B> Player<B> {
    fn act<G: Suite>(&mut self, game: &G, seat: Seat) -> G::Action
    where
        B: Bot<G>,
    {
        match self {
            Player::Bot(bot) => bot.act(&game.view(seat)),
            Player::Arbitrary(rng, bytes) => {
                for chunk in bytes.chunks_mut(8) {
                    let word = rng.next_u64().to_le_bytes();
                    chunk.copy_from_slice(&word[..chunk.len()]);
                }
                arbitrary_action(&mut Unstructured::new(bytes), game, seat)
            }
        }
    }
}

/// `matches` matches of `G`, cycling through [`Suite::params`].
pub fn soak<G: Suite + Roster>(matches: u64, seed: u64) -> Result<Tally, String> {
    let all = G::params();
    let mut tally = Tally::default();
    let mut pick = Rng::stream(seed, G::NAME.as_bytes());
    for i in 0..matches {
        let params = &all[(i as usize) % all.len()];
        let mut s = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let match_seed = splitmix64(&mut s);
        let mut game =
            G::boxed(params, match_seed).map_err(|e| format!("{} setup: {e}", G::NAME))?;
        let mut names = Vec::new();
        let mut players: Vec<Player<G::Bot>> = Vec::new();
        for seat in 0..game.seats() {
            let k = pick.below(G::BOTS.len() as u32 + 1) as usize;
            let seat_seed = match_seed ^ seat as u64;
            let player = match G::BOTS.get(k) {
                Some(name) => G::bot(name, seat_seed).map(|b| (*name, Player::Bot(b))),
                None => Some((
                    "arbitrary",
                    Player::Arbitrary(Rng::stream(seat_seed, b"arbitrary"), vec![0; G::STEP_BYTES]),
                )),
            };
            let (name, player) = player.ok_or(format!("{}: no bot {k}", G::NAME))?;
            tally.arbitrary_seats += u64::from(name == "arbitrary");
            names.push(name);
            players.push(player);
        }
        let mut steps = 0;
        while !game.is_over() && steps < MAX_STEPS {
            let before = game.clone();
            let movers = game.to_move();
            let actions: Vec<G::Action> = (0..game.seats())
                .map(|seat| match players.get_mut(seat) {
                    Some(p) if movers.contains(seat) => p.act(&game, seat),
                    _ => G::Action::default(),
                })
                .collect();
            game.step(&actions);
            game.check(&before).map_err(|why| {
                format!(
                    "{} match {i} (seed {match_seed}, players {names:?}), step {steps}: {why}",
                    G::NAME
                )
            })?;
            steps += 1;
        }
        tally.matches += 1;
        tally.steps += steps;
        tally.finished += game.is_over() as u64;
    }
    Ok(tally)
}

/// Plays `matches` matches in all, shared out as [`Suite::SOAK_SHARE`] says (at least one per
/// game), and prints a table. Returns whether every invariant held.
pub fn run(matches: u64, seed: u64) -> bool {
    let shares: u64 = GAMES.iter().map(|g| g.share).sum::<u64>().max(1);
    let start = std::time::Instant::now();
    let mut ok = true;
    let mut total = Tally::default();
    println!(
        "{:<26} {:>8} {:>12} {:>9} {:>10} {:>8}",
        "game", "matches", "steps", "finished", "arbitrary", "seconds"
    );
    for g in GAMES {
        let label = match g.build {
            "" => g.name.to_string(),
            build => format!("{} ({build})", g.name),
        };
        let started = std::time::Instant::now();
        match (g.run)((matches * g.share / shares).max(1), seed) {
            Ok(t) => {
                println!(
                    "{label:<26} {:>8} {:>12} {:>9} {:>10} {:>8.1}",
                    t.matches,
                    t.steps,
                    t.finished,
                    t.arbitrary_seats,
                    started.elapsed().as_secs_f64()
                );
                total.matches += t.matches;
                total.steps += t.steps;
            }
            Err(e) => {
                ok = false;
                println!("{label:<26} FAILED: {e}");
            }
        }
    }
    println!(
        "{} matches, {} steps in {:.1} s, invariants checked after every step",
        total.matches,
        total.steps,
        start.elapsed().as_secs_f64()
    );
    ok
}
