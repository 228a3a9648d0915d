//! The default observations: what a seat is shown (its canonical state, or for Ants the lines of
//! the text protocol: its fog-of-war view) as a flat vector of `i32`, one layout per game,
//! documented in docs/python.md. Names become their index + 1 in the game's list (0: none or
//! unknown); decimals (ColorFight's gold and energy) are kept in hundredths.
//!
//! Each game has two readers of the same layout: one off the state itself (what the environments
//! use: no JSON on the hot path) and one off the canonical state JSON (what a bot written in Python
//! receives, `pocket_arena.observation`), which the tests hold the first to.

use arena_core::games::ballroom::{Class, Item};
use arena_core::games::mammut::Side;
use arena_core::games::tower_defense::TowerDefense;
use serde_json::Value;

/// A number of an observation array: `i32`, or `i16` saturated (`VectorEnv(dtype=np.int16)`).
pub trait Num: Copy + Send + 'static {
    const ZERO: Self;
    /// `x` as this type, saturated to its bounds.
    fn sat(x: i32) -> Self;
    /// `x` as this type, saturated to its largest value.
    fn sat_u(x: u32) -> Self;
}

impl Num for i32 {
    const ZERO: i32 = 0;
    fn sat(x: i32) -> i32 {
        x
    }
    fn sat_u(x: u32) -> i32 {
        x.min(i32::MAX as u32) as i32
    }
}

impl Num for i16 {
    const ZERO: i16 = 0;
    fn sat(x: i32) -> i16 {
        x.clamp(i16::MIN.into(), i16::MAX.into()) as i16
    }
    fn sat_u(x: u32) -> i16 {
        x.min(i16::MAX as u32) as i16
    }
}

/// Tower Defense: spaces on a path, numbers a space takes.
pub const PATH: usize = 100;
const SPACE: usize = 11;
/// Mammut: tiles.
pub const TILES: usize = 32;
/// Mammut: seats at most.
pub const MAMMUT_SEATS: usize = 5;

/// Ballroom items as the observation numbers them: NONE first (the core lists it last).
fn item_code(name: &str) -> i32 {
    if name == Item::None.name() {
        return 1;
    }
    Item::ALL
        .iter()
        .filter(|i| **i != Item::None)
        .position(|i| i.name() == name)
        .map_or(0, |i| i as i32 + 2)
}

fn class_code(name: &str) -> i32 {
    Class::ALL
        .iter()
        .position(|c| c.name() == name)
        .map_or(0, |i| i as i32 + 1)
}

fn side_code(name: &str) -> i32 {
    Side::from_name(name).map_or(0, |s| s.index() as i32 + 1)
}

/// `name`'s place in `names` + 1 (0 when not there).
fn code_in<'a>(names: impl IntoIterator<Item = &'a str>, name: &str) -> i32 {
    names
        .into_iter()
        .position(|n| n == name)
        .map_or(0, |i| i as i32 + 1)
}

fn kind_code(name: &str) -> i32 {
    use arena_core::games::colorfight::Kind;
    code_in(
        [Kind::Normal, Kind::Gold, Kind::Energy].map(Kind::name),
        name,
    )
}

fn building_code(name: &str) -> i32 {
    use arena_core::games::colorfight::Building;
    code_in(
        [Building::None, Building::Base, Building::Building].map(Building::name),
        name,
    )
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn int(v: &Value) -> i32 {
    match v {
        Value::Bool(b) => i32::from(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
            None => (n.as_f64().unwrap_or(0.0) * 100.0).round() as i32,
        },
        _ => 0,
    }
}

fn hundredths(v: &Value) -> i32 {
    (v.as_f64().unwrap_or(0.0) * 100.0).round() as i32
}

fn ints(out: &mut Vec<i32>, obj: &Value, keys: &[&str]) {
    for k in keys {
        out.push(int(&obj[*k]));
    }
}

fn list(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

fn sat(x: u64) -> i32 {
    x.min(i32::MAX as u64) as i32
}

/// Adds an invader to a space's invader numbers `[count, hp, maxhp, defense, stunRes,
/// stunTime]`: sums of hp and maxhp, maxima of the rest (the rules allow one a space; the JSON
/// reader does not assume it).
fn add_invader(slot: &mut [i32], hp: i32, maxhp: i32, rest: [i32; 3]) {
    slot[0] += 1;
    slot[1] = slot[1].saturating_add(hp);
    slot[2] = slot[2].saturating_add(maxhp);
    for (k, x) in rest.into_iter().enumerate() {
        slot[3 + k] = slot[3 + k].max(x);
    }
}

fn tower_code(kind: arena_core::games::tower_defense::TowerKind) -> i32 {
    use arena_core::games::tower_defense::TowerKind;
    match kind {
        TowerKind::Turret => 1,
        TowerKind::Stunner => 2,
        TowerKind::Bomb => 3,
    }
}

/// A Tower Defense path from its state JSON, written into `out` (`PATH * SPACE`, zeroed).
fn td_board_json(out: &mut [i32], board: &Value) {
    for t in list(&board["towers"]) {
        let pos = int(&t[0]);
        if (0..PATH as i32).contains(&pos) {
            let kind = arena_core::games::tower_defense::TowerKind::from_name(text(&t[1]));
            let tower = [
                kind.map_or(0, tower_code),
                int(&t[2]),
                int(&t[3]),
                int(&t[4]),
                int(&t[5]),
            ];
            let at = pos as usize * SPACE;
            out[at..at + 5].copy_from_slice(&tower);
        }
    }
    for inv in list(&board["invaders"]) {
        let pos = int(&inv[0]);
        if (0..PATH as i32).contains(&pos) {
            let at = pos as usize * SPACE + 5;
            let rest = [3, 4, 5].map(|k| int(&inv[k]));
            add_invader(&mut out[at..at + 6], int(&inv[1]), int(&inv[2]), rest);
        }
    }
}

/// Tower Defense's layout length: Duel `[seat, turn]`, 2 x 5 player numbers, 2 paths; Siege
/// `[seat, turn]`, 3 + 2 numbers, 1 path.
pub fn tower_defense_len(duel: bool) -> usize {
    if duel {
        2 + 10 + 2 * PATH * SPACE
    } else {
        2 + 5 + PATH * SPACE
    }
}

/// Tower Defense: `[seat, turn]`, then Duel: each player `[gold, life, income, boostMax,
/// inflation]`, each board (path `i` is where player `i`'s invaders walk); Siege: the invader
/// `[gold, income, boostMax]`, the defender `[gold, life]`, the path.
pub fn tower_defense(state: &Value, seat: usize, out: &mut Vec<i32>) {
    let duel = state.get("players").is_some();
    out.clear();
    out.resize(tower_defense_len(duel), 0);
    out[0] = seat as i32;
    out[1] = int(&state["turn"]);
    let mut head = Vec::new();
    let boards: Vec<&Value> = if duel {
        for p in list(&state["players"]).iter().take(2) {
            ints(
                &mut head,
                p,
                &["gold", "life", "income", "boostMax", "inflation"],
            );
        }
        list(&state["boards"]).iter().take(2).collect()
    } else {
        ints(
            &mut head,
            &state["invader"],
            &["gold", "income", "boostMax"],
        );
        ints(&mut head, &state["defender"], &["gold", "life"]);
        vec![&state["board"]]
    };
    let start = out.len() - boards.len() * PATH * SPACE;
    out[2..2 + head.len()].copy_from_slice(&head);
    for (b, chunk) in boards.iter().zip(out[start..].chunks_mut(PATH * SPACE)) {
        td_board_json(chunk, b);
    }
}

/// What an observation row holds since it was last written, for the next write to redo only
/// what changed: Tower Defense's header length and each board's occupancy masks `(invaders,
/// towers)`. `Written::default()`: unknown (a row never written, or a match started again): the
/// next write is whole.
#[derive(Clone, Copy, Debug, Default)]
pub struct Written {
    /// Boards, row length, each board's masks, at which turn.
    td: Option<TdWritten>,
    /// What the agent's mask row holds, for games that write it in part
    /// ([`crate::games::Observe::mask_update`]; Tower Defense: the towers of the defended board,
    /// whether a build and an upgrade were paid for).
    pub(crate) td_mask: Option<(u128, i8, i8)>,
}

/// Up to two boards' occupancy masks `(invaders, towers)`.
type Occupied = [(u128, u128); 2];

/// What a Tower Defense row was written from.
#[derive(Clone, Copy, Debug)]
struct TdWritten {
    boards: usize,
    len: usize,
    occupied: Occupied,
    /// Each board's towers whose cooldown was 0 ([`TowerDefense::ready_mask`]).
    ready: [u128; 2],
    turn: u32,
}

/// [`tower_defense`] read off the state itself into `out` (of [`tower_defense_len`] numbers, all
/// written, each saturated to `T`, straight into the array's row: no `i32` row aside): the row
/// cleared in one pass, then the header and the occupied spaces (the boards' occupancy masks),
/// each path front to back. (Measured against writing each number once, zeros for the empty
/// spaces run by run: the one clearing pass was faster, 1.7 to 3.1 against 2.0 to 3.5 us an
/// env-step of `VectorEnv(256)` at load 13 to 25; a whole row cleared at once need not be read
/// into the cache first.)
pub fn tower_defense_direct<T: Num>(g: &TowerDefense, seat: usize, out: &mut [T]) {
    out.fill(T::ZERO);
    td_head(g, seat, out);
    for b in 0..g.boards() {
        td_spaces(g, b, out, g.masks(b), (0, 0), 0);
    }
}

/// [`tower_defense_direct`] into a row that holds what was written there last with `written`
/// (`VectorEnv`'s rows, which persist across steps): the header, then only the spaces occupied
/// then or now (the boards' occupancy masks then and now), each written whole (its numbers, or
/// zeros when empty now). Whole, as [`tower_defense_direct`], when `written` is unknown.
/// `written` is updated either way. (The row of 2,212 numbers is mostly empty spaces: its
/// clearing pass was about a third of `VectorEnv(256)`'s step.)
pub fn tower_defense_update<T: Num>(
    g: &TowerDefense,
    seat: usize,
    out: &mut [T],
    written: &mut Written,
) {
    use arena_core::Game;
    let boards = g.boards();
    let (mut now, mut ready): (Occupied, [u128; 2]) = ([(0, 0); 2], [0; 2]);
    for b in 0..boards.min(2) {
        now[b] = g.masks(b);
        ready[b] = g.ready_mask(b);
    }
    let turn = g.turn();
    match written.td {
        // A turn at most since: a tower ready then and now shows what it showed.
        Some(w)
            if w.boards == boards
                && w.len == out.len()
                && boards <= 2
                && turn.wrapping_sub(w.turn) <= 1 =>
        {
            td_head(g, seat, out);
            for b in 0..boards {
                let (then, now) = (w.occupied[b], now[b]);
                let steady = then.1 & now.1 & w.ready[b] & ready[b];
                td_spaces(g, b, out, now, then, steady);
            }
        }
        _ => tower_defense_direct(g, seat, out),
    }
    written.td = (boards <= 2).then_some(TdWritten {
        boards,
        len: out.len(),
        occupied: now,
        ready,
        turn,
    });
}

/// The header of [`tower_defense`] into `out`'s first numbers.
fn td_head<T: Num>(g: &TowerDefense, seat: usize, out: &mut [T]) {
    use arena_core::Game;
    let start = out.len().saturating_sub(g.boards() * PATH * SPACE);
    // Gathered first, then written in one pass (a bounds check per number cost more).
    let mut head = [0u64; 12];
    head[0] = seat as u64;
    head[1] = u64::from(g.turn());
    if let Some([p, q]) = g.players() {
        for (h, x) in head[2..].iter_mut().zip([
            p.gold,
            p.life,
            p.income,
            p.boost_max,
            p.inflation,
            q.gold,
            q.life,
            q.income,
            q.boost_max,
            q.inflation,
        ]) {
            *h = u64::from(x);
        }
    } else if let Some((inv, def)) = g.siege() {
        let numbers = [
            inv.gold,
            inv.income.into(),
            inv.boost_max.into(),
            def.gold,
            def.life.into(),
        ];
        head[2..7].copy_from_slice(&numbers);
    }
    for (o, &x) in out[..start].iter_mut().zip(&head) {
        *o = T::sat_u(u32::try_from(x).unwrap_or(u32::MAX));
    }
}

/// Board `b`'s spaces written into `out`'s path `b`: those occupied `now` (`(invaders,
/// towers)` masks) their numbers but the `steady` towers (the row holds their numbers), those
/// occupied `then` and empty now zeros. Each set in its
/// own loop, so that no branch asks whether a space is occupied (one that would go either way
/// at random, an invader space in two being vacated: those mispredictions were most of the
/// write's cost, measured the same with 16 matches as with 256).
fn td_spaces<T: Num>(
    g: &TowerDefense,
    b: usize,
    out: &mut [T],
    now: (u128, u128),
    then: (u128, u128),
    steady: u128,
) {
    let start = out.len().saturating_sub(g.boards() * PATH * SPACE);
    let Some(path) = out[start..].chunks_exact_mut(PATH * SPACE).nth(b) else {
        return;
    };
    g.visit_towers(b, now.1 & !steady, |t| {
        let numbers = [
            tower_code(t.kind) as u32,
            t.level,
            t.power.into(),
            t.range.into(),
            t.cooldown.into(),
        ];
        put(path, usize::from(t.pos) * SPACE, numbers);
    });
    each_bit(then.1 & !now.1, |pos| put(path, pos * SPACE, [0; 5]));
    // One invader a space at most (the rules): the JSON reader's sums are its numbers.
    g.visit_invaders(b, now.0, |i| {
        let numbers = [
            1,
            i.hp,
            i.maxhp,
            i.defense.into(),
            i.stun_res.into(),
            i.stun_time.into(),
        ];
        put(path, usize::from(i.pos) * SPACE + 5, numbers);
    });
    each_bit(then.0 & !now.0, |pos| put(path, pos * SPACE + 5, [0; 6]));
}

/// `numbers` into `path` from `at`, each saturated to `T`.
#[inline]
fn put<T: Num, const N: usize>(path: &mut [T], at: usize, numbers: [u32; N]) {
    if let Some(slot) = path.get_mut(at..at + N) {
        for (o, x) in slot.iter_mut().zip(numbers) {
            *o = T::sat_u(x);
        }
    }
}

/// `f` of each set bit of a board mask below [`PATH`], lowest first, a 64-bit word at a time
/// (a 128-bit scan and clear is several instructions a bit on a 64-bit processor).
pub fn each_bit(mask: u128, mut f: impl FnMut(usize)) {
    const HIGH: u64 = (1 << (PATH - 64)) - 1;
    for (base, mut word) in [(0, mask as u64), (64, (mask >> 64) as u64 & HIGH)] {
        while word != 0 {
            f(base + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

/// Ballroom Blitz: `[seat]`, then per player `[class, x, y, isActive, item, gold, score,
/// effect_timer, health, shielded, item_in_use, damage, speed, range, maxHealth]`.
pub fn ballroom(state: &Value, seat: usize, out: &mut Vec<i32>) {
    out.push(seat as i32);
    for p in list(state) {
        out.push(class_code(text(&p["class"])));
        out.push(int(&p["position"]["x"]));
        out.push(int(&p["position"]["y"]));
        out.push(int(&p["isActive"]));
        out.push(item_code(text(&p["item"])));
        ints(
            out,
            p,
            &["gold", "score", "effect_timer", "health", "shielded"],
        );
        out.push(item_code(text(&p["item_in_use"])));
        ints(
            out,
            &p["stat_set"],
            &["damage", "speed", "range", "maxHealth"],
        );
    }
}

/// [`ballroom`] read off the state itself.
pub fn ballroom_direct(g: &arena_core::games::ballroom::Ballroom, seat: usize, out: &mut Vec<i32>) {
    out.push(seat as i32);
    for p in g.players() {
        let s = p.stats();
        out.extend([
            class_code(p.class.name()),
            p.pos.x.into(),
            p.pos.y.into(),
            p.active.into(),
            item_code(p.item.name()),
            p.gold.into(),
            p.score.into(),
            p.effect_timer.into(),
            p.health.into(),
            p.shielded.into(),
            item_code(p.in_effect.name()),
            s.damage,
            s.speed,
            s.range,
            s.max_health,
        ]);
    }
}

/// ColorFight: `[seat, tick, width, height]`, per player `[gold*100, energy*100, cells, bases,
/// defeated, busyUntil]`, then per cell (row-major) `[owner, kind, building, takenAt, attacker,
/// doneAt]` (owner and attacker: seat + 1, 0 for none).
pub fn colorfight(state: &Value, seat: usize, out: &mut Vec<i32>) {
    out.push(seat as i32);
    ints(out, state, &["tick", "width", "height"]);
    for p in list(&state["players"]) {
        out.push(hundredths(&p["gold"]));
        out.push(hundredths(&p["energy"]));
        ints(out, p, &["cells", "bases", "defeated", "busyUntil"]);
    }
    for c in list(&state["cells"]) {
        out.push(int(&c[0]));
        out.push(kind_code(text(&c[1])));
        out.push(building_code(text(&c[2])));
        out.push(int(&c[3]));
        out.push(int(&c[4]));
        out.push(int(&c[5]));
    }
}

/// [`colorfight`] read off the state itself.
pub fn colorfight_direct(
    g: &arena_core::games::colorfight::ColorFight,
    seat: usize,
    out: &mut Vec<i32>,
) {
    let hundredths =
        |n: arena_core::games::colorfight::Num| (n.to_num::<f64>() * 100.0).round() as i32;
    out.push(seat as i32);
    out.push(sat(u64::from(g.tick())));
    out.push(sat(g.width() as u64));
    out.push(sat(g.height() as u64));
    for p in g.players() {
        out.push(hundredths(p.gold));
        out.push(hundredths(p.energy));
        out.push(i32::from(p.cells));
        out.push(i32::from(p.all_bases()));
        out.push(i32::from(p.defeated));
        out.push(sat(u64::from(p.busy_until)));
    }
    for c in g.cells() {
        out.push(i32::from(c.owner));
        out.push(kind_code(c.kind.name()));
        out.push(building_code(c.building.name()));
        out.push(sat(u64::from(c.taken_at)));
        out.push(i32::from(c.attacker));
        out.push(sat(u64::from(c.done_at)));
    }
}

/// Mammut's animal set from the names the state JSON lists (the core's bits).
fn animal_bits(names: &[Value]) -> i32 {
    names
        .iter()
        .filter_map(|n| Side::from_name(text(n)))
        .fold(0, |bits, s| bits | i32::from(s.animal_bit()))
}

/// Mammut's tiles part: per tile id `[where, side]` (where 0 unseen, 1 the middle, 2 + s in seat
/// s's hand), written by `put(id, where, side)` into the zeroed `out`.
fn mammut_tile(out: &mut [i32], id: usize, place: i32, side: i32) {
    if id < TILES {
        out[id * 2] = place;
        out[id * 2 + 1] = side;
    }
}

/// Mammut: `[seat, round, actions, toMove]`, per seat (5, zeros past the players) `[id, points,
/// furs, animals]` (animals: the kinds collected, the core's bits: Bat 1, Opossum 2, ... Duck 64),
/// then per tile id (32) `[where, side]`: where 0 unseen, 1 the middle, 2 + s in seat s's hand;
/// side as shown (Mystery until scoring).
pub fn mammut(state: &Value, seat: usize, out: &mut Vec<i32>) {
    out.push(seat as i32);
    ints(out, state, &["round", "actions", "toMove"]);
    for s in 0..MAMMUT_SEATS {
        for k in ["ids", "points", "furs"] {
            out.push(list(&state[k]).get(s).map_or(0, int));
        }
        out.push(
            list(&state["animals"])
                .get(s)
                .map_or(0, |a| animal_bits(list(a))),
        );
    }
    let start = out.len();
    out.resize(start + TILES * 2, 0);
    let groups = std::iter::once(&state["middle"]).chain(list(&state["hands"]));
    for (place, tiles) in (1..).zip(groups.take(1 + MAMMUT_SEATS)) {
        for t in list(tiles) {
            let id = usize::try_from(int(&t["id"])).unwrap_or(TILES);
            mammut_tile(&mut out[start..], id, place, side_code(text(&t["side"])));
        }
    }
}

/// [`mammut`] read off the state itself.
pub fn mammut_direct(g: &arena_core::games::mammut::Mammut, seat: usize, out: &mut Vec<i32>) {
    let to_move = g
        .mover()
        .and_then(|s| g.ids().get(s))
        .map_or(0, |&id| id.into());
    out.extend([seat as i32, g.round().into(), g.actions().into(), to_move]);
    for s in 0..MAMMUT_SEATS {
        let at = |v: Option<i32>| v.unwrap_or(0);
        out.extend([
            at(g.ids().get(s).map(|&x| x.into())),
            at(g.points().get(s).copied()),
            at(g.furs().get(s).map(|&x| x.into())),
            at(g.animals().get(s).map(|&x| x.into())),
        ]);
    }
    let start = out.len();
    out.resize(start + TILES * 2, 0);
    let groups = std::iter::once(g.middle()).chain(g.hands().iter().copied());
    for (place, tiles) in (1..).zip(groups.take(1 + MAMMUT_SEATS)) {
        for t in tiles.iter() {
            let side = g.visible(t).map_or(0, |s| s.index() as i32 + 1);
            mammut_tile(&mut out[start..], t.into(), place, side);
        }
    }
}

/// Ants planes, each `rows x cols`, from the lines the engine sends the seat (its view).
pub const ANT_PLANES: usize = 7;

/// What an Ants seat has been shown: water it has seen stays (the engine sends it once).
#[derive(Clone, Debug, Default)]
pub struct AntsView {
    pub rows: usize,
    pub cols: usize,
    water: Vec<bool>,
}

impl AntsView {
    /// Reads the settings (`rows`, `cols`) and the first water from the greeting.
    pub fn greet(&mut self, text: &str) {
        for line in text.lines() {
            let mut w = line.split_whitespace();
            match (w.next(), w.next().and_then(|n| n.parse::<usize>().ok())) {
                (Some("rows"), Some(n)) => self.rows = n.min(1024),
                (Some("cols"), Some(n)) => self.cols = n.min(1024),
                _ => {}
            }
        }
        self.water = vec![false; self.rows * self.cols];
    }

    /// Keeps the water this turn's lines show.
    pub fn see(&mut self, text: &str) {
        for line in text.lines() {
            let mut w = line.split_whitespace();
            if w.next() != Some("w") {
                continue;
            }
            let mut num = || w.next().and_then(|n| n.parse::<usize>().ok());
            if let (Some(r), Some(c)) = (num(), num()) {
                if r < self.rows && c < self.cols {
                    if let Some(x) = self.water.get_mut(r * self.cols + c) {
                        *x = true;
                    }
                }
            }
        }
    }

    /// Ants: `[seat, turn]`, then 7 planes of `rows x cols` (row-major, plane after plane):
    /// water seen so far, food, own ants, enemy ants (owner index as the engine numbers them for
    /// this seat, 1 is the first enemy), own hills, enemy hills (owner index), dead ants (1 + the
    /// owner index), all as this turn's lines show them.
    pub fn encode(&self, text: &str, seat: usize, turn: u32, out: &mut Vec<i32>) {
        out.push(seat as i32);
        out.push(turn as i32);
        let cells = self.rows * self.cols;
        let start = out.len();
        out.resize(start + cells * ANT_PLANES, 0);
        for line in text.lines() {
            let mut w = line.split_whitespace();
            let kind = w.next();
            let mut num = || w.next().and_then(|n| n.parse::<usize>().ok());
            let (Some(r), Some(c)) = (num(), num()) else {
                continue;
            };
            let owner = num();
            if r >= self.rows || c >= self.cols {
                continue;
            }
            let i = r * self.cols + c;
            let mut set = |plane: usize, v: i32| out[start + plane * cells + i] = v;
            match (kind, owner) {
                (Some("f"), _) => set(1, 1),
                (Some("a"), Some(0)) => set(2, 1),
                (Some("a"), Some(o)) => set(3, o as i32),
                (Some("h"), Some(0)) => set(4, 1),
                (Some("h"), Some(o)) => set(5, o as i32),
                (Some("d"), Some(o)) => set(6, o as i32 + 1),
                _ => {}
            }
        }
        for (i, &w) in self.water.iter().enumerate() {
            if w {
                out[start + i] = 1;
            }
        }
    }
}

/// The state JSON reader of game `name` (its folder or command-line name); `None` for Ants,
/// whose view is read from the protocol's lines.
pub fn json_reader(name: &str) -> Option<fn(&Value, usize, &mut Vec<i32>)> {
    match name.replace('-', "_").as_str() {
        "tower_defense" => Some(tower_defense),
        "ballroom" | "ballroom_blitz" => Some(ballroom),
        "colorfight" => Some(colorfight),
        "mammut" => Some(mammut),
        _ => None,
    }
}
