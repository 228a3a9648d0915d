//! What an environment reads off each game besides the rules: the default observation
//! ([`crate::obs`]), the score its rewards follow, and, where the legal actions can be listed,
//! that list and its mask (docs/python.md, "Actions" and "Rewards").

use crate::config::Kwargs;
use crate::obs::{self, AntsView};
use arena_core::games::ants::Ants;
use arena_core::games::ballroom::Ballroom;
use arena_core::games::ballroom::Ruleset;
use arena_core::games::colorfight::{self, ColorFight, Variant};
use arena_core::games::mammut::{self, Mammut, TileSet};
use arena_core::games::tower_defense::{self as td, Stat, TowerDefense, TowerKind};
use arena_core::{Game, Seat};
use arena_host::games::ants::PlayOptions as AntsOptions;
use arena_host::games::ballroom::{PlayOptions as BallroomOptions, BASE_PORT};
use arena_host::games::colorfight::PlayOptions as ColorFightOptions;
use arena_host::games::tower_defense::PlayOptions as TdOptions;
use arena_host::HostGame;

/// An Ants seat's text of this turn and what it has seen so far (`None` for the other games).
pub type Lines<'a> = Option<(&'a str, &'a AntsView)>;

/// Where an observation is written in place: `out`, of the layout's length, written whole (in
/// `i32`, or `i16` saturated); `scratch`, room for games that build the observation aside.
pub struct ObsRow<'a, T> {
    pub out: &'a mut [T],
    pub scratch: &'a mut Vec<i32>,
}

/// A row of an observation array of either dtype.
pub enum ObsOut<'a> {
    I32(&'a mut [i32]),
    I16(&'a mut [i16]),
}

impl ObsOut<'_> {
    pub fn len(&self) -> usize {
        match self {
            ObsOut::I32(o) => o.len(),
            ObsOut::I16(o) => o.len(),
        }
    }
}

/// A game as an environment sees it.
pub trait Observe: HostGame<Params: Send, Bot: Send> + Send {
    /// The game's options for a match (what `arena play <game>`'s own flags set, with the same
    /// defaults), from its keyword arguments: each read by name and type from `kw`.
    fn options(kw: &mut Kwargs) -> Result<Self::PlayOptions, String>;
    /// Whether the observation is read from the protocol's lines (Ants: the fog-of-war view).
    const SEES_BY_PROTOCOL: bool = false;
    /// The default observation of `seat`, appended to `out`.
    fn encode(game: &Self, seat: Seat, lines: Lines<'_>, out: &mut Vec<i32>);
    /// The same into `row.out` (what does not fit is cut, the rest zeroed; each number
    /// saturated to `T`), through `row.scratch`, unless the game writes into place.
    fn encode_into<T: obs::Num>(game: &Self, seat: Seat, lines: Lines<'_>, row: ObsRow<'_, T>) {
        row.scratch.clear();
        Self::encode(game, seat, lines, row.scratch);
        let n = row.scratch.len().min(row.out.len());
        for (o, &x) in row.out[..n].iter_mut().zip(row.scratch.iter()) {
            *o = T::sat(x);
        }
        row.out[n..].fill(T::ZERO);
    }
    /// [`Observe::encode_into`] into a row that holds what was written there last with `written`
    /// (`VectorEnv`'s rows): a game may then write only what changed since (Tower Defense); the
    /// others write it whole. `written` is updated.
    fn encode_update<T: obs::Num>(
        game: &Self,
        seat: Seat,
        lines: Lines<'_>,
        row: ObsRow<'_, T>,
        written: &mut obs::Written,
    ) {
        *written = obs::Written::default();
        Self::encode_into(game, seat, lines, row);
    }
    /// The seat's score in the game's own measure while the match goes on (the outcome's once
    /// over, where [`Game::outcome`] has the last word).
    fn score(game: &Self, seat: Seat) -> i64;
    /// How many actions the list has (0: the game's legal actions are not listed).
    fn listed(_game: &Self) -> usize {
        0
    }
    /// Whether a turn's actions meet another state than the one shown: Tower Defense plays the
    /// turn's first half before them. The list and the mask then judge the look-ahead
    /// [`Observe::look_ahead`] writes, and the environment's step finishes from it.
    const LOOKS_AHEAD: bool = false;
    /// Writes into `ahead` the state this turn's actions meet (only called when
    /// [`Observe::LOOKS_AHEAD`]); true when it is a turn begun, which the next `step` of
    /// `ahead` finishes as `game`'s own `step` would play it whole (false: `ahead` is a copy).
    fn look_ahead(_game: &Self, _ahead: &mut Self) -> bool {
        false
    }
    /// Action `i` of `seat`'s list, `judged` the state the actions meet (the game, or its
    /// look-ahead: [`Observe::LOOKS_AHEAD`]).
    fn listed_action(_judged: &Self, _seat: Seat, _i: usize) -> Option<Self::Action> {
        None
    }
    /// Which actions of the list the rules take from `seat` now (`out`: one byte an action,
    /// 1 legal), judged on `judged` (as in [`Observe::listed_action`]).
    fn mask(_judged: &Self, _seat: Seat, _out: &mut [i8]) {}
}

/// Tower Defense's list: pass; spawn without a boost, then with all of `boostMax` on hp, defense
/// or stunRes; build turret, stunner, bomb at 0..99; upgrade power, range at 0..99; destroy at
/// 0..99.
const TD_SPAWNS: usize = 4;
const TD_BUILD: usize = 1 + TD_SPAWNS;
const TD_UPGRADE: usize = TD_BUILD + 3 * obs::PATH;
const TD_DESTROY: usize = TD_UPGRADE + 2 * obs::PATH;
const TD_LISTED: usize = TD_DESTROY + obs::PATH;
const TD_KINDS: [TowerKind; 3] = [TowerKind::Turret, TowerKind::Stunner, TowerKind::Bomb];

impl Observe for TowerDefense {
    fn options(kw: &mut Kwargs) -> Result<TdOptions, String> {
        let variants = [("duel", td::Variant::Duel), ("siege", td::Variant::Siege)];
        Ok(TdOptions {
            variant: kw
                .choice("variant", &variants)?
                .unwrap_or(td::Variant::Duel),
            state_every: kw.number("state_every")?.unwrap_or(1),
        })
    }
    fn encode(game: &Self, seat: Seat, _: Lines<'_>, out: &mut Vec<i32>) {
        let start = out.len();
        out.resize(start + obs::tower_defense_len(game.players().is_some()), 0);
        obs::tower_defense_direct(game, seat, &mut out[start..]);
    }
    fn encode_into<T: obs::Num>(game: &Self, seat: Seat, _: Lines<'_>, row: ObsRow<'_, T>) {
        obs::tower_defense_direct(game, seat, row.out);
    }
    fn encode_update<T: obs::Num>(
        game: &Self,
        seat: Seat,
        _: Lines<'_>,
        row: ObsRow<'_, T>,
        written: &mut obs::Written,
    ) {
        obs::tower_defense_update(game, seat, row.out, written);
    }
    fn score(game: &Self, seat: Seat) -> i64 {
        // Duel: life; Siege: the turns lasted, for both (the outcome's scores).
        match game.players() {
            Some(_) => game.life(seat).into(),
            None => game.turn().into(),
        }
    }
    fn listed(_: &Self) -> usize {
        TD_LISTED
    }
    /// A turn moves the towers and invaders and pays the gold before it takes the actions
    /// (rules, "One turn"): they are judged on the turn's first half, played once
    /// (`begin_turn`), from which the step then plays the actions alone.
    const LOOKS_AHEAD: bool = true;
    fn look_ahead(game: &Self, ahead: &mut Self) -> bool {
        *ahead = *game;
        ahead.begin_turn()
    }
    fn listed_action(judged: &Self, seat: Seat, i: usize) -> Option<td::Action> {
        let pos = |at: usize| ((i - at) % obs::PATH) as i64;
        let m = match i {
            2..TD_BUILD => i64::from(judged.boost_max(seat)),
            _ => 0,
        };
        Some(match i {
            0 => td::Action::Pass,
            1..TD_BUILD => {
                let mut boosts = [0; 3];
                if i > 1 {
                    boosts[i - 2] = m;
                }
                td::Action::Spawn {
                    hp: boosts[0],
                    defense: boosts[1],
                    stun_res: boosts[2],
                }
            }
            TD_BUILD..TD_UPGRADE => td::Action::Build {
                kind: Some(TD_KINDS[(i - TD_BUILD) / obs::PATH]),
                pos: pos(TD_BUILD),
            },
            TD_UPGRADE..TD_DESTROY => td::Action::Upgrade {
                pos: pos(TD_UPGRADE),
                stat: Some([Stat::Power, Stat::Range][(i - TD_UPGRADE) / obs::PATH]),
            },
            TD_DESTROY..TD_LISTED => td::Action::Destroy {
                pos: pos(TD_DESTROY),
            },
            _ => return None,
        })
    }
    fn mask(game: &Self, seat: Seat, out: &mut [i8]) {
        out.fill(0);
        out[0] = 1;
        let gold = game.gold(seat);
        if let Some(b) = game.attacked_board(seat) {
            // Spawn cost `10 + hp + 10 * (defense + stunRes)` (rule "Invaders"), space 0 free.
            let m = u64::from(game.boost_max(seat));
            let free = game.masks(b).0 & 1 == 0;
            for (k, cost) in [10, 10 + m, 10 + 10 * m, 10 + 10 * m]
                .into_iter()
                .enumerate()
            {
                out[1 + k] = i8::from(free && cost <= gold);
            }
        }
        if let Some(b) = game.defended_board(seat) {
            // Every free space may take a tower, every tower an upgrade or its removal.
            let towers = game.masks(b).1;
            let build = i8::from(game.build_cost(seat) <= gold);
            let upgrade = i8::from(game.upgrade_cost(seat) <= gold);
            out[TD_BUILD..TD_UPGRADE].fill(build);
            for pos in obs::bits(towers) {
                for k in 0..3 {
                    out[TD_BUILD + k * obs::PATH + pos] = 0;
                }
                for k in 0..2 {
                    out[TD_UPGRADE + k * obs::PATH + pos] = upgrade;
                }
                out[TD_DESTROY + pos] = 1;
            }
        }
    }
}

impl Observe for Ballroom {
    fn options(kw: &mut Kwargs) -> Result<BallroomOptions, String> {
        let rulesets = [
            ("engine", Ruleset::Engine),
            ("as-written", Ruleset::AsWritten),
        ];
        Ok(BallroomOptions {
            ruleset: kw.choice("ruleset", &rulesets)?.unwrap_or(Ruleset::Engine),
            tcp: kw.switch("tcp")?,
            tcp_wait: kw.real("tcp_wait")?.unwrap_or(15.0),
            port_base: kw.number("port_base")?.unwrap_or(BASE_PORT),
        })
    }
    fn encode(game: &Self, seat: Seat, _: Lines<'_>, out: &mut Vec<i32>) {
        obs::ballroom_direct(game, seat, out);
    }
    fn score(game: &Self, seat: Seat) -> i64 {
        game.player(seat).map_or(0, |p| p.score.into())
    }
}

impl Observe for ColorFight {
    fn options(kw: &mut Kwargs) -> Result<ColorFightOptions, String> {
        let variants = [
            ("conquest", Variant::Conquest),
            ("skirmish", Variant::Skirmish),
        ];
        Ok(ColorFightOptions {
            variant: kw
                .choice("variant", &variants)?
                .unwrap_or(Variant::Conquest),
            size: kw.pair("size", "30x30")?.unwrap_or((30, 30)),
            state_every: kw.number("state_every")?.unwrap_or(50),
            ticks: kw.number("ticks")?.unwrap_or(colorfight::DEFAULT_TICKS),
        })
    }
    fn encode(game: &Self, seat: Seat, _: Lines<'_>, out: &mut Vec<i32>) {
        obs::colorfight_direct(game, seat, out);
    }
    fn score(game: &Self, seat: Seat) -> i64 {
        match game.variant() {
            Variant::Conquest => game.final_score(seat).into(),
            Variant::Skirmish => game.player(seat).map_or(0, |p| p.cells.into()),
        }
    }
    /// Pass, attack cell `i` (row-major), build a base on cell `i`.
    fn listed(game: &Self) -> usize {
        1 + 2 * game.width() * game.height()
    }
    fn listed_action(game: &Self, _: Seat, i: usize) -> Option<colorfight::Action> {
        let cells = game.width() * game.height();
        if i == 0 {
            return Some(colorfight::Action::Pass);
        }
        let cell = (i - 1) % cells;
        let (x, y) = game.coords(cell);
        match (i - 1) / cells {
            0 => Some(colorfight::Action::Attack { x, y }),
            1 => Some(colorfight::Action::Build { x, y }),
            _ => None,
        }
    }
    fn mask(game: &Self, seat: Seat, out: &mut [i8]) {
        use colorfight::Refusal;
        let cells = game.width() * game.height();
        let judge = |i: usize| {
            let a = Self::listed_action(game, seat, i);
            a.map(|a| game.plan(seat, &a))
        };
        out.fill(0);
        if let (Some(m), Some(Ok(_))) = (out.first_mut(), judge(0)) {
            *m = 1;
        }
        // `plan` looks at the player (defeated, busy, gold, cooldown, bases) before the cell: when
        // the first cell is refused for one of those, every cell is.
        for part in 0..2 {
            let first = 1 + part * cells;
            let whole = matches!(
                judge(first),
                Some(Err(Refusal::Defeated
                    | Refusal::Busy
                    | Refusal::NoBuildInSkirmish
                    | Refusal::TooPoor
                    | Refusal::CoolDown
                    | Refusal::BaseLimit))
            );
            if whole {
                continue;
            }
            for (i, m) in out.iter_mut().enumerate().skip(first).take(cells) {
                *m = i8::from(matches!(judge(i), Some(Ok(_))));
            }
        }
    }
}

/// Mammut's list: take tile `t` alone (32), then steal from seat `v` putting back tile `t`
/// (`32 + 32 v + t`). Takes of several tiles are legal too; the mask's takes say which tiles a
/// take may hold.
const MAMMUT_LISTED: usize = obs::TILES * (1 + obs::MAMMUT_SEATS);

impl Observe for Mammut {
    fn options(_: &mut Kwargs) -> Result<(), String> {
        Ok(())
    }
    fn encode(game: &Self, seat: Seat, _: Lines<'_>, out: &mut Vec<i32>) {
        obs::mammut_direct(game, seat, out);
    }
    fn score(game: &Self, seat: Seat) -> i64 {
        game.points().get(seat).map_or(0, |&p| p.into())
    }
    fn listed(_: &Self) -> usize {
        MAMMUT_LISTED
    }
    fn listed_action(_: &Self, _: Seat, i: usize) -> Option<mammut::Action> {
        let tile = (i % obs::TILES) as u8;
        match i / obs::TILES {
            0 => Some(mammut::Action::Take(TileSet(1 << tile))),
            v @ 1..=obs::MAMMUT_SEATS => Some(mammut::Action::Steal {
                victim: (v - 1) as u8,
                put_back: tile,
            }),
            _ => None,
        }
    }
    fn mask(game: &Self, seat: Seat, out: &mut [i8]) {
        for (i, m) in out.iter_mut().enumerate() {
            let ok =
                Self::listed_action(game, seat, i).is_some_and(|a| game.legal(seat, &a).is_ok());
            *m = i8::from(ok);
        }
    }
}

impl Observe for Ants {
    fn options(kw: &mut Kwargs) -> Result<AntsOptions, String> {
        let map = kw.text("map")?.ok_or("ants needs map=<a map file>")?;
        let turns = kw.number("turns")?.unwrap_or(1000);
        if turns == 0 {
            return Err("turns: at least 1".into());
        }
        Ok(AntsOptions {
            map: map.into(),
            turns,
            seeds: (kw.number("engine_seed")?, kw.number("player_seed")?),
            loadtime: kw.number("loadtime")?.unwrap_or(3000),
            turntime: kw.number("turntime")?,
        })
    }
    const SEES_BY_PROTOCOL: bool = true;
    fn encode(game: &Self, seat: Seat, lines: Lines<'_>, out: &mut Vec<i32>) {
        if let Some((text, view)) = lines {
            view.encode(text, seat, game.turn(), out);
        }
    }
    fn score(game: &Self, seat: Seat) -> i64 {
        game.score(seat).into()
    }
}
