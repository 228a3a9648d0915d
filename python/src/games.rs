//! What an environment reads off each game besides the rules: the default observation
//! ([`crate::obs`]), the score its rewards follow, and, where the legal actions can be listed,
//! that list and its mask (docs/python.md, "Actions" and "Rewards").

use crate::config::Kwargs;
use crate::obs::{self, AntsView};
use arena_core::games::ants::{map as ants_map, Ants, Dir, Order};
use arena_core::games::ballroom::Ruleset;
use arena_core::games::ballroom::{self, Ballroom};
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
    /// [`Observe::mask`] into a row holding what this method last wrote there for `seat`
    /// (`written` says what: `Written::default()` for a row never written or a match started
    /// again), writing only what changed since; the same bytes as [`Observe::mask`] in the end.
    fn mask_update(game: &Self, seat: Seat, out: &mut [i8], _written: &mut obs::Written) {
        Self::mask(game, seat, out);
    }
    /// Action `i` of `seat`'s list, `judged` the state the actions meet (the game, or its
    /// look-ahead: [`Observe::LOOKS_AHEAD`]).
    fn listed_action(_judged: &Self, _seat: Seat, _i: usize) -> Option<Self::Action> {
        None
    }
    /// Which actions of the list the rules take from `seat` now (`out`: one byte an action,
    /// 1 legal), judged on `judged` (as in [`Observe::listed_action`]).
    fn mask(_judged: &Self, _seat: Seat, _out: &mut [i8]) {}
    /// The index in the list of an action whose JSON is none of the list's but which plays as
    /// one of them (Ballroom's pass: the phase's default answer); `None` to look the JSON up.
    fn index_of(_judged: &Self, _seat: Seat, _action: &Self::Action) -> Option<usize> {
        None
    }
    /// A factored list: `(slots, choices)`, the action being one choice of `choices` for each of
    /// `slots` (a MultiDiscrete); then [`Observe::listed`] is `slots * choices`, action
    /// `slot * choices + c` of the list is choice `c` of that slot alone (the others choosing 0,
    /// nothing), and the mask is each slot's in turn. `None`: one choice from the list.
    fn factors(_game: &Self) -> Option<(usize, usize)> {
        None
    }
    /// The action of one choice per slot (`picks`, as many as the slots), `judged` as in
    /// [`Observe::listed_action`]; `None` when a pick is past its slot's choices.
    fn factored_action(_judged: &Self, _seat: Seat, _picks: &[usize]) -> Option<Self::Action> {
        None
    }
    /// The choice per slot that makes `action` (`None`: the factored space cannot say it).
    fn factored_picks(_judged: &Self, _seat: Seat, _action: &Self::Action) -> Option<Vec<usize>> {
        None
    }
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
    /// Between two writes of a row most turns change neither whether a build nor whether an
    /// upgrade is paid for: then only the pass, the spawns and the spaces whose tower came or
    /// went are written.
    fn mask_update(game: &Self, seat: Seat, out: &mut [i8], written: &mut obs::Written) {
        let Some(b) = game.defended_board(seat).filter(|_| out.len() >= TD_LISTED) else {
            written.td_mask = None;
            return Self::mask(game, seat, out);
        };
        let gold = game.gold(seat);
        let towers = game.masks(b).1;
        let build = i8::from(game.build_cost(seat) <= gold);
        let upgrade = i8::from(game.upgrade_cost(seat) <= gold);
        match written.td_mask {
            Some((then, b0, u0)) if (b0, u0) == (build, upgrade) => {
                out[0] = 1;
                td_spawns(game, seat, gold, out);
                obs::each_bit(towers ^ then, |pos| {
                    let on = towers >> pos & 1 == 1;
                    for k in 0..3 {
                        out[TD_BUILD + k * obs::PATH + pos] = if on { 0 } else { build };
                    }
                    for k in 0..2 {
                        out[TD_UPGRADE + k * obs::PATH + pos] = if on { upgrade } else { 0 };
                    }
                    out[TD_DESTROY + pos] = i8::from(on);
                });
            }
            _ => Self::mask(game, seat, out),
        }
        written.td_mask = Some((towers, build, upgrade));
    }
    fn mask(game: &Self, seat: Seat, out: &mut [i8]) {
        out.fill(0);
        out[0] = 1;
        let gold = game.gold(seat);
        td_spawns(game, seat, gold, out);
        if let Some(b) = game.defended_board(seat) {
            // Every free space may take a tower, every tower an upgrade or its removal.
            let towers = game.masks(b).1;
            let build = i8::from(game.build_cost(seat) <= gold);
            let upgrade = i8::from(game.upgrade_cost(seat) <= gold);
            out[TD_BUILD..TD_UPGRADE].fill(build);
            obs::each_bit(towers, |pos| {
                for k in 0..3 {
                    out[TD_BUILD + k * obs::PATH + pos] = 0;
                }
                for k in 0..2 {
                    out[TD_UPGRADE + k * obs::PATH + pos] = upgrade;
                }
                out[TD_DESTROY + pos] = 1;
            });
        }
    }
}

/// Tower Defense's spawn actions in `seat`'s mask (`out[1..5]`).
fn td_spawns(game: &TowerDefense, seat: Seat, gold: u64, out: &mut [i8]) {
    let mut spawns = [0; 4];
    if let Some(b) = game.attacked_board(seat) {
        // Spawn cost `10 + hp + 10 * (defense + stunRes)` (rule "Invaders"), space 0 free.
        let m = u64::from(game.boost_max(seat));
        let free = game.masks(b).0 & 1 == 0;
        for (s, cost) in spawns
            .iter_mut()
            .zip([10, 10 + m, 10 + 10 * m, 10 + 10 * m])
        {
            *s = i8::from(free && cost <= gold);
        }
    }
    if let Some(o) = out.get_mut(1..TD_BUILD) {
        o.copy_from_slice(&spawns);
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
    /// Every phase's answers in one list (docs/python.md): the class, use or not, a move to any
    /// tile, an attack on any seat, any item; the mask keeps the current phase's.
    fn listed(_: &Self) -> usize {
        BALLROOM_LISTED
    }
    fn listed_action(_: &Self, _: Seat, i: usize) -> Option<ballroom::Action> {
        use ballroom::{Action, Class, Item};
        let board = ballroom::BOARD as usize;
        Some(match i {
            0..BALLROOM_USE => Action::Class(*Class::ALL.get(i)?),
            BALLROOM_USE..BALLROOM_MOVE => Action::Use(i > BALLROOM_USE),
            BALLROOM_MOVE..BALLROOM_ATTACK => {
                let tile = i - BALLROOM_MOVE;
                Action::Move {
                    x: (tile % board) as i32,
                    y: (tile / board) as i32,
                }
            }
            BALLROOM_ATTACK..BALLROOM_BUY => Action::Attack {
                target: (i - BALLROOM_ATTACK) as i32,
            },
            _ => Action::Buy(*Item::ALL.get(i - BALLROOM_BUY)?),
        })
    }
    /// A pass is the phase's default answer (`Action::Pass`): KNIGHT, not using, a move to
    /// one's own spawn, an attack on oneself, buying NONE.
    fn index_of(game: &Self, seat: Seat, action: &ballroom::Action) -> Option<usize> {
        use ballroom::{Action, Phase, Pos};
        if *action != Action::Pass {
            return None;
        }
        let home = Pos::spawn(seat);
        Some(match game.phase()? {
            Phase::Class => 0,
            Phase::Use => BALLROOM_USE,
            Phase::Move => {
                BALLROOM_MOVE + home.y as usize * ballroom::BOARD as usize + home.x as usize
            }
            Phase::Attack => BALLROOM_ATTACK + seat,
            Phase::Buy => BALLROOM_LISTED - 1,
        })
    }
    /// What the engine takes without counting a refusal (`arena_core`'s ballroom module,
    /// "Refusals"): any class; not using, or using an item that is not passive; a move within
    /// the effective speed (Manhattan) or to one's own spawn; an attack in range, or on oneself
    /// (the phase's pass); buying NONE, or on one's own spawn an item one can pay.
    fn mask(game: &Self, seat: Seat, out: &mut [i8]) {
        use ballroom::{Item, Phase, Pos};
        out.fill(0);
        let (Some(phase), Some(p)) = (game.phase(), game.player(seat)) else {
            return;
        };
        let mut set = |i: usize| {
            if let Some(m) = out.get_mut(i) {
                *m = 1;
            }
        };
        match phase {
            Phase::Class => (0..BALLROOM_USE).for_each(&mut set),
            Phase::Use => {
                set(BALLROOM_USE);
                if !p.item.is_permanent() {
                    set(BALLROOM_USE + 1);
                }
            }
            Phase::Move => {
                let board = ballroom::BOARD as usize;
                let speed = p.stats().speed;
                let home = Pos::spawn(seat);
                for tile in 0..board * board {
                    let to = Pos::new((tile % board) as i8, (tile / board) as i8);
                    if to == home || p.pos.manhattan(to) <= speed {
                        set(BALLROOM_MOVE + tile);
                    }
                }
            }
            Phase::Attack => {
                for target in 0..ballroom::PLAYERS {
                    if target == seat || game.in_range(seat, target) {
                        set(BALLROOM_ATTACK + target);
                    }
                }
            }
            Phase::Buy => {
                let home = p.pos == Pos::spawn(seat);
                for (k, item) in Item::ALL.iter().enumerate() {
                    let cost = item.cost(game.ruleset());
                    if *item == Item::None || (home && p.gold >= cost) {
                        set(BALLROOM_BUY + k);
                    }
                }
            }
        }
    }
}

/// Ballroom Blitz's list: the 3 classes (KNIGHT, WIZARD, ARCHER), `use` false and true, a move
/// to tile `(x, y)` at `5 + 10 y + x`, an attack on seat `t` at `105 + t`, buying item `k` (the
/// rules' order, NONE last) at `109 + k`.
const BALLROOM_USE: usize = 3;
const BALLROOM_MOVE: usize = BALLROOM_USE + 2;
const BALLROOM_ATTACK: usize = BALLROOM_MOVE + (ballroom::BOARD * ballroom::BOARD) as usize;
const BALLROOM_BUY: usize = BALLROOM_ATTACK + ballroom::PLAYERS;
const BALLROOM_LISTED: usize = BALLROOM_BUY + 12;

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
    fn listed(_: &Self) -> usize {
        ANT_SLOTS * ANT_CHOICES
    }
    fn factors(_: &Self) -> Option<(usize, usize)> {
        Some((ANT_SLOTS, ANT_CHOICES))
    }
    /// Ant slot `i / 5` given choice `i % 5` alone: an empty order list for 0 (stay), else its
    /// one order; `None` for a move of a slot without an ant.
    fn listed_action(game: &Self, seat: Seat, i: usize) -> Option<AntsAction> {
        let (slot, choice) = (i / ANT_CHOICES, i % ANT_CHOICES);
        let mut orders = AntsAction::new();
        if slot >= ANT_SLOTS || choice == 0 {
            return (slot < ANT_SLOTS).then_some(orders);
        }
        let sq = *ant_slots(game, seat).get(slot)?;
        orders.push(ant_order(game, sq, choice)?).ok()?;
        Some(orders)
    }
    /// Every slot may stay (an empty one only that); an ant may step where the rules let it.
    fn mask(game: &Self, seat: Seat, out: &mut [i8]) {
        out.fill(0);
        for m in out.iter_mut().step_by(ANT_CHOICES) {
            *m = 1;
        }
        for (slot, &sq) in ant_slots(game, seat).iter().enumerate() {
            let at = slot * ANT_CHOICES;
            for (k, &dir) in Dir::ALL.iter().enumerate() {
                if let Some(m) = out.get_mut(at + 1 + k) {
                    *m = i8::from(ant_move_open(game, sq, dir));
                }
            }
        }
    }
    /// The orders of the slots' choices (a choice for an empty slot gives none).
    fn factored_action(game: &Self, seat: Seat, picks: &[usize]) -> Option<AntsAction> {
        if picks.len() != ANT_SLOTS || picks.iter().any(|&c| c >= ANT_CHOICES) {
            return None;
        }
        let mut orders = AntsAction::new();
        for (&sq, &c) in ant_slots(game, seat).iter().zip(picks) {
            if let Some(order) = ant_order(game, sq, c) {
                orders.push(order).ok()?;
            }
        }
        Some(orders)
    }
    /// `None` when an order names a square without one of the slots' ants, or one ant twice.
    fn factored_picks(game: &Self, seat: Seat, action: &AntsAction) -> Option<Vec<usize>> {
        let slots = ant_slots(game, seat);
        let cols = usize::from(game.cols());
        let mut picks = vec![0; ANT_SLOTS];
        for order in action {
            let (r, c) = (
                usize::try_from(order.row).ok()?,
                usize::try_from(order.col).ok()?,
            );
            if c >= cols {
                return None;
            }
            let sq = u16::try_from(r * cols + c).ok()?;
            let slot = slots.iter().position(|&s| s == sq)?;
            let dir = Dir::ALL.iter().position(|&d| d == order.dir)?;
            let pick = picks.get_mut(slot)?;
            if *pick != 0 {
                return None;
            }
            *pick = 1 + dir;
        }
        Some(picks)
    }
}

/// Ants' factored actions: one choice for each of the seat's first `ANT_SLOTS` ants, its
/// slots in the order of their squares (row-major); the ants past them stay.
pub const ANT_SLOTS: usize = 128;
/// An ant's choices: stay, then north, east, south, west (`Dir::ALL`).
const ANT_CHOICES: usize = 1 + Dir::ALL.len();

type AntsAction = <Ants as Game>::Action;

/// The squares of `seat`'s ants in slot order: row-major, the first [`ANT_SLOTS`].
pub fn ant_slots(game: &Ants, seat: Seat) -> Vec<u16> {
    let mut squares: Vec<u16> = game
        .ants()
        .iter()
        .filter(|a| usize::from(a.owner) == seat)
        .map(|a| a.sq)
        .collect();
    squares.sort_unstable();
    squares.truncate(ANT_SLOTS);
    squares
}

/// The order of choice `c` for the ant on `sq` (`None`: 0, stay, or past the choices).
fn ant_order(game: &Ants, sq: u16, c: usize) -> Option<Order> {
    let dir = *Dir::ALL.get(c.checked_sub(1)?)?;
    let cols = game.cols().max(1);
    Some(Order {
        row: i16::try_from(sq / cols).ok()?,
        col: i16::try_from(sq % cols).ok()?,
        dir,
    })
}

/// Whether the ant on `sq` may step `dir` (on the torus): the rules block a move onto water or
/// food ("move blocked", rules/ants.md, "Orders: validation"); onto any ant or hill is allowed.
pub fn ant_move_open(game: &Ants, sq: u16, dir: Dir) -> bool {
    let (rows, cols) = (i32::from(game.rows()), i32::from(game.cols()));
    if rows == 0 || cols == 0 {
        return false;
    }
    let (dr, dc) = dir.offset();
    let (r, c) = (i32::from(sq) / cols, i32::from(sq) % cols);
    let dest = (r + dr).rem_euclid(rows) * cols + (c + dc).rem_euclid(cols);
    let Ok(dest) = usize::try_from(dest) else {
        return false;
    };
    !matches!(game.square(dest), ants_map::FOOD | ants_map::WATER)
}
