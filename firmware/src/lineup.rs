//! The rotation of matches a board plays, over games of different types, without allocation.
//!
//! A lineup is a list of entries (game, configuration, one bot a seat), each a different `Game`
//! type: instead of boxing them, [`Lineup::visit`] hands entry `i` to a [`Visit`]or generic over
//! the game, which monomorphises the match loop once per game. The same lineup type runs on the
//! board and on the host, so both play the same matches.
//!
//! A lineup is the seam between the boards and this crate: a board's `main` (or a user's own
//! firmware binary) names the lineup it plays (`board_main!(board, MyLineup, ...)`), written with
//! [`crate::lineup!`]. Each seat of an entry is a built-in bot, by name (a name the game does not
//! have fails the build), or a user's bot, any `arena_core::Bot<G>` built from the seat's seed
//! ([`Pick`]):
//!
//! ```
//! use arena_core::games::tower_defense::{Action, Params, TowerDefense};
//! use arena_core::{Bot, Open};
//!
//! /// A user's bot: it never builds anything.
//! pub struct Idle;
//! impl Idle {
//!     pub fn new(_seed: u64) -> Idle {
//!         Idle
//!     }
//! }
//! impl Bot<TowerDefense> for Idle {
//!     fn act(&mut self, _view: &Open<'_, TowerDefense>) -> Action {
//!         Action::default()
//!     }
//! }
//!
//! arena_firmware::lineup! {
//!     /// The built-in `strong` against the user's bot, then two built-ins.
//!     pub Mine {
//!         TowerDefense: "duel", [builtin("strong"), user("idle", Idle::new)], Some(Params::default());
//!         TowerDefense: "duel", ["army", "random"], Some(Params::default());
//!     }
//! }
//! # use arena_firmware::Lineup;
//! # assert_eq!(Mine::LEN, 2);
//! ```
//!
//! A misspelt built-in name does not build:
//!
//! ```compile_fail,E0080
//! use arena_core::games::tower_defense::{Params, TowerDefense};
//! arena_firmware::lineup! {
//!     pub Misspelt {
//!         TowerDefense: "duel", ["strnog", "random"], Some(Params::default());
//!     }
//! }
//! ```
//!
//! Each entry's seed is its own ([`entry_seed`]: the game's name, the configuration label, the
//! bots' names and how many times the rotation came round), so adding an entry to a lineup changes
//! no other entry's matches.

use arena_core::{Bot, Digest, Roster};

use crate::play::BOARD_SEATS;
use crate::screen::Screen;

/// What a user's [`Pick`] hands its bot to: the rest of the match.
pub type Seated<'a, G> = dyn FnMut(&mut dyn Bot<G>) + 'a;

/// One seat of a lineup entry: who plays it.
pub enum Pick<G: arena_core::Game> {
    /// A built-in bot of the game, by name (one of `Roster::BOTS`).
    Builtin(&'static str),
    /// A user's bot.
    User {
        /// Its name on the screens and in the log (and in the entry's seed).
        name: &'static str,
        /// Builds the bot from the seat's seed, where it lives (this function's frame), and hands
        /// it to `then` for the match: written by [`crate::lineup!`] from the bot's constructor.
        play: fn(seed: u64, then: &mut Seated<'_, G>),
    },
}

impl<G: arena_core::Game> Pick<G> {
    /// The name the screens print.
    pub const fn name(&self) -> &'static str {
        match self {
            Pick::Builtin(name) => name,
            Pick::User { name, .. } => name,
        }
    }
}

/// `name`, checked to be one of `G`'s built-in bots: [`crate::lineup!`] calls it in a `const`
/// block, so that a name the game does not have fails the build.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub const fn builtin<G: Roster>(name: &'static str) -> &'static str {
    let mut i = 0;
    let mut found = false;
    while i < G::BOTS.len() {
        if str_eq(G::BOTS[i], name) {
            found = true;
        }
        i += 1;
    }
    assert!(
        found,
        "a lineup names a built-in bot the game does not have"
    );
    name
}

/// String equality in a `const fn`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The seed of an entry's matches: a hash of the game's name, the entry's configuration label and
/// bots' names, and `round` (how many times the rotation came round before this match). It depends
/// on nothing else of the lineup: adding or moving an entry changes no other entry's matches (two
/// identical entries of one lineup play the same matches).
pub fn entry_seed(game: &str, entry: &Entry, round: u32) -> u64 {
    let mut d = Digest::new();
    d.bytes(game.as_bytes())
        .u8(0)
        .bytes(entry.config.as_bytes())
        .u8(0);
    for bot in entry.bots {
        d.bytes(bot.as_bytes()).u8(0);
    }
    d.u32(round);
    d.finish()
}

/// The bots of `picks` (cycled over the seats when fewer) for the first `seats` seats, seat
/// `i`'s seeded with `arena_core::rng::bot_seed(seed, i)`, each built in its own frame, then
/// `then` called with them all, by seat; `false` (and `then` not called) when a built-in name is
/// not one of the game's or `picks` is empty. At most [`BOARD_SEATS`] seats, no allocation.
pub fn with_bots<G: Roster>(
    picks: &[Pick<G>],
    seats: usize,
    seed: u64,
    then: &mut dyn FnMut(&mut [&mut dyn Bot<G>]),
) -> bool {
    if picks.iter().all(|p| matches!(p, Pick::Builtin(_))) {
        return builtin_bots(picks, seats, seed, then);
    }
    seat_bots(picks, seats, seed, heapless::Vec::new(), then)
}

/// Every seat a built-in: the bots side by side in one frame, as one array (a frame a seat, with
/// its list of the seats before, costs more: on the Pico, Ants on tutorial1 went 1.4 KB over
/// main's stack and past its budget of state + 12 KB).
#[inline(never)]
fn builtin_bots<G: Roster>(
    picks: &[Pick<G>],
    seats: usize,
    seed: u64,
    then: &mut dyn FnMut(&mut [&mut dyn Bot<G>]),
) -> bool {
    let mut bots: heapless::Vec<G::Bot, BOARD_SEATS> = heapless::Vec::new();
    for seat in 0..seats.min(BOARD_SEATS) {
        let Some(Pick::Builtin(name)) = seat.checked_rem(picks.len()).and_then(|i| picks.get(i))
        else {
            return false;
        };
        let Some(bot) = G::bot(name, arena_core::rng::bot_seed(seed, seat)) else {
            return false;
        };
        if bots.push(bot).is_err() {
            return false;
        }
    }
    let mut seated: SeatBots<'_, G> = heapless::Vec::new();
    for bot in bots.iter_mut() {
        let _ = seated.push(bot);
    }
    then(&mut seated);
    true
}

type SeatBots<'a, G> = heapless::Vec<&'a mut (dyn Bot<G> + 'a), BOARD_SEATS>;

/// The bots from seat `bots.len()` on (see [`with_bots`]).
fn seat_bots<G: Roster>(
    picks: &[Pick<G>],
    seats: usize,
    seed: u64,
    mut bots: SeatBots<'_, G>,
    then: &mut dyn FnMut(&mut [&mut dyn Bot<G>]),
) -> bool {
    let seat = bots.len();
    if seat >= seats.min(BOARD_SEATS) {
        then(&mut bots);
        return true;
    }
    let Some(pick) = seat.checked_rem(picks.len()).and_then(|i| picks.get(i)) else {
        return false;
    };
    let bot_seed = arena_core::rng::bot_seed(seed, seat);
    match pick {
        Pick::Builtin(name) => {
            let Some(mut bot) = G::bot(name, bot_seed) else {
                return false;
            };
            next_seat(picks, seats, seed, bots, &mut bot, then)
        }
        Pick::User { play, .. } => {
            let mut bots = Some(bots);
            let mut played = false;
            play(bot_seed, &mut |bot: &mut dyn Bot<G>| {
                if let Some(bots) = bots.take() {
                    played = next_seat(picks, seats, seed, bots, bot, then);
                }
            });
            played
        }
    }
}

/// `bots` and `bot` after them, then the next seats: out of line, one frame a seat.
#[inline(never)]
fn next_seat<'a, G: Roster>(
    picks: &[Pick<G>],
    seats: usize,
    seed: u64,
    bots: SeatBots<'_, G>,
    bot: &'a mut (dyn Bot<G> + 'a),
    then: &mut dyn FnMut(&mut [&mut dyn Bot<G>]),
) -> bool {
    let mut more: SeatBots<'_, G> = heapless::Vec::new();
    for b in bots {
        let _ = more.push(b);
    }
    if more.push(bot).is_err() {
        return false;
    }
    seat_bots(picks, seats, seed, more, then)
}

/// A game's bots' names and configuration label for one entry of a lineup.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The configuration label the screens print.
    pub config: &'static str,
    /// The bots' names, by seat (built-in or a user's: [`Pick::name`]).
    pub bots: &'static [&'static str],
}

/// Something done with one entry, whatever its game.
pub trait Visit {
    /// What the visit gives back.
    type Out;
    /// Does the visit with the entry's game `G`; `seats` says who plays each seat (cycled over
    /// the seats, as `entry.bots` names them); `params` builds its params (a new copy each
    /// call, in the caller's frame: a board builds them where it sets the state up, and holds
    /// none while the match plays).
    fn visit<G: Screen + Roster>(
        self,
        entry: &Entry,
        seats: &[Pick<G>],
        params: &dyn Fn() -> Option<G::Params>,
    ) -> Self::Out;
    /// The entry's params could not be built (a map that does not parse): nothing to play.
    fn skip(self, entry: &Entry) -> Self::Out;
}

/// A fixed rotation of entries.
pub trait Lineup {
    /// How many entries; match `n` plays entry `n % LEN`.
    const LEN: usize;
    /// Hand entry `index % LEN` to `visitor`.
    fn visit<V: Visit>(index: usize, visitor: V) -> V::Out;
}

/// Lineup `A`, then lineup `B`: a board with more room plays a longer rotation.
pub struct Then<A, B>(core::marker::PhantomData<(A, B)>);

impl<A: Lineup, B: Lineup> Lineup for Then<A, B> {
    const LEN: usize = A::LEN.saturating_add(B::LEN);
    fn visit<V: Visit>(index: usize, visitor: V) -> V::Out {
        let index = index.checked_rem(Self::LEN).unwrap_or(0);
        match index.checked_sub(A::LEN) {
            None => A::visit(index, visitor),
            Some(i) => B::visit(i, visitor),
        }
    }
}

/// One entry of a lineup, out of line, its params handed on as the closure that builds them: built
/// here and held while the entry played, they were under every match's stack (tutorial1's map,
/// 2.4 KB; inlined into [`Lineup::visit`], every entry's params had room in one frame held for
/// the whole rotation: on the STM32F411, 4.9 KB in `main`). They are built twice, then: once in
/// the frame of `builds`, to know whether the entry plays or is skipped, and once to set it up.
#[doc(hidden)]
#[inline(never)]
pub fn play_entry<G: Screen + Roster, V: Visit>(
    entry: Entry,
    seats: &[Pick<G>],
    params: impl Fn() -> Option<G::Params>,
    visitor: V,
) -> V::Out {
    if builds(&params) {
        visitor.visit::<G>(&entry, seats, &params)
    } else {
        visitor.skip(&entry)
    }
}

/// Whether the params build (a map that does not parse: no): out of line, so that the ones built
/// to find out are gone before the entry plays.
#[inline(never)]
fn builds<P>(params: &dyn Fn() -> Option<P>) -> bool {
    params().is_some()
}

/// A lineup as a table, one line an entry: `Game: "config", [seats], params_expr;` where
/// `params_expr` is an `Option<Game::Params>` (`None` when it cannot be built, a map that does not
/// parse, and the entry is skipped), and each seat is
/// - `"name"` or `builtin("name")`: the game's built-in bot of that name (checked at build time:
///   a name not in `Roster::BOTS` fails the build);
/// - `user("name", constructor)`: a user's bot, `constructor(seed: u64)` returning any
///   `arena_core::Bot<Game>`, shown as `name`.
///
/// Seats cycle when fewer are named than the game seats. The dispatch on the game is generated, so
/// adding a game to the rotation is one line here and nothing else.
#[macro_export]
macro_rules! lineup {
    ($(#[$doc:meta])* $vis:vis $name:ident { $($game:ty : $config:literal, [$($seat:tt)*], $params:expr;)+ }) => {
        $(#[$doc])*
        $vis struct $name;

        impl $crate::lineup::Lineup for $name {
            const LEN: usize = [$($config),+].len();
            fn visit<V: $crate::lineup::Visit>(index: usize, visitor: V) -> V::Out {
                let index = index.checked_rem(Self::LEN).unwrap_or(0);
                let mut at = 0;
                $(
                    if index == at {
                        const SEATS: &[$crate::lineup::Pick<$game>] =
                            $crate::__lineup_seats!($game; []; $($seat)*);
                        #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
                        const NAMES: &[&str] = &{
                            let mut names = [""; SEATS.len()];
                            let mut i = 0;
                            while i < SEATS.len() {
                                names[i] = SEATS[i].name();
                                i += 1;
                            }
                            names
                        };
                        let entry = $crate::lineup::Entry { config: $config, bots: NAMES };
                        return $crate::lineup::play_entry::<$game, V>(entry, SEATS, || $params, visitor);
                    }
                    at = at.saturating_add(1);
                )+
                unreachable!("index {at} is reduced modulo LEN")
            }
        }
    };
}

/// The seats of one lineup entry, as a `&[Pick<$game>]` (see [`lineup!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __lineup_seats {
    ($game:ty; [$($done:expr,)*]; ) => {
        &[$($done),*]
    };
    ($game:ty; [$($done:expr,)*]; $bot:literal $(, $($rest:tt)*)?) => {
        $crate::__lineup_seats!($game; [$($done,)* $crate::lineup::Pick::Builtin($crate::lineup::builtin::<$game>($bot)),]; $($($rest)*)?)
    };
    ($game:ty; [$($done:expr,)*]; builtin($bot:literal) $(, $($rest:tt)*)?) => {
        $crate::__lineup_seats!($game; [$($done,)* $crate::lineup::Pick::Builtin($crate::lineup::builtin::<$game>($bot)),]; $($($rest)*)?)
    };
    ($game:ty; [$($done:expr,)*]; user($bot:literal, $make:expr) $(, $($rest:tt)*)?) => {
        $crate::__lineup_seats!($game; [$($done,)* $crate::lineup::Pick::<$game>::User {
            name: $bot,
            play: |seed, then| {
                let mut bot = ($make)(seed);
                then(&mut bot)
            },
        },]; $($($rest)*)?)
    };
}
