//! The default observations: what a seat is shown (its canonical state JSON, or for Ants the
//! lines of the text protocol: its fog-of-war view) as a flat vector of `i32`, one layout per
//! game, documented in docs/python.md. Names become their index + 1 in the game's list (0: none
//! or unknown); decimals (ColorFight's gold and energy) are kept in hundredths.

use serde_json::Value;

/// Tower types, Ballroom classes and items, ColorFight kinds and buildings, Mammut sides.
const TOWERS: &[&str] = &["turret", "stunner", "bomb"];
const CLASSES: &[&str] = &["KNIGHT", "WIZARD", "ARCHER"];
const ITEMS: &[&str] = &[
    "NONE",
    "SHIELD",
    "PROCRUSTEAN_IRON",
    "HEAVY_BROADSWORD",
    "MAGIC_STAFF",
    "STEEL_TIPPED_ARROW",
    "ANEMOI_WINGS",
    "HUNTER_SCOPE",
    "RALLY_BANNER",
    "STRENGTH_POTION",
    "SPEED_POTION",
    "DEXTERITY_POTION",
];
const KINDS: &[&str] = &["normal", "gold", "energy"];
const BUILDINGS: &[&str] = &["none", "base", "building"];
const SIDES: &[&str] = &[
    "Fire",
    "Meat",
    "Fur",
    "Ivory",
    "Axe",
    "Bat",
    "Opossum",
    "Bunny",
    "Buffalo",
    "Squirrel",
    "Beaver",
    "Duck",
    "Mystery",
    "Clockwise",
    "CounterClockwise",
];

/// Tower Defense: spaces on a path.
pub const PATH: usize = 100;
/// Mammut: tiles.
pub const TILES: usize = 32;
/// Mammut: seats at most.
pub const MAMMUT_SEATS: usize = 5;

fn code(list: &[&str], v: &Value) -> i32 {
    v.as_str()
        .and_then(|s| list.iter().position(|n| *n == s))
        .map_or(0, |i| i as i32 + 1)
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

/// A Tower Defense path: per space, the tower `[type, level, power, range, cooldown]` (zeros
/// when none) then the invaders `[count, hp, maxhp, defense, stunRes, stunTime]` (sums of hp and
/// maxhp, maxima of the rest).
fn td_board(out: &mut Vec<i32>, board: &Value) {
    let start = out.len();
    out.resize(start + PATH * 11, 0);
    for t in list(&board["towers"]) {
        let pos = int(&t[0]);
        if (0..PATH as i32).contains(&pos) {
            let at = start + pos as usize * 11;
            out[at] = code(TOWERS, &t[1]);
            for k in 0..4 {
                out[at + 1 + k] = int(&t[2 + k]);
            }
        }
    }
    for inv in list(&board["invaders"]) {
        let pos = int(&inv[0]);
        if (0..PATH as i32).contains(&pos) {
            let at = start + pos as usize * 11 + 5;
            out[at] += 1;
            out[at + 1] += int(&inv[1]);
            out[at + 2] += int(&inv[2]);
            for k in 3..6 {
                out[at + k] = out[at + k].max(int(&inv[k]));
            }
        }
    }
}

/// Tower Defense: `[seat, turn]`, then Duel: each player `[gold, life, income, boostMax,
/// inflation]`, each board (path `i` is where player `i`'s invaders walk); Siege: the invader
/// `[gold, income, boostMax]`, the defender `[gold, life]`, the path.
pub fn tower_defense(state: &Value, seat: usize, out: &mut Vec<i32>) {
    out.push(seat as i32);
    out.push(int(&state["turn"]));
    if state.get("players").is_some() {
        for p in list(&state["players"]).iter().take(2) {
            ints(out, p, &["gold", "life", "income", "boostMax", "inflation"]);
        }
        for b in list(&state["boards"]).iter().take(2) {
            td_board(out, b);
        }
    } else {
        ints(out, &state["invader"], &["gold", "income", "boostMax"]);
        ints(out, &state["defender"], &["gold", "life"]);
        td_board(out, &state["board"]);
    }
}

/// [`tower_defense`] read off the state itself rather than its JSON (the same numbers; the
/// environments use this one, the tests compare the two).
pub fn tower_defense_direct(
    g: &arena_core::games::tower_defense::TowerDefense,
    seat: usize,
    out: &mut Vec<i32>,
) {
    use arena_core::games::tower_defense::TowerKind;
    use arena_core::Game;
    let sat = |x: u64| x.min(i32::MAX as u64) as i32;
    out.push(seat as i32);
    out.push(sat(u64::from(g.turn())));
    let board = |out: &mut Vec<i32>, b: usize| {
        let start = out.len();
        out.resize(start + PATH * 11, 0);
        for t in g.towers(b) {
            let pos = usize::from(t.pos);
            if pos < PATH {
                let at = start + pos * 11;
                out[at] = match t.kind {
                    TowerKind::Turret => 1,
                    TowerKind::Stunner => 2,
                    TowerKind::Bomb => 3,
                };
                out[at + 1] = sat(u64::from(t.level));
                out[at + 2] = i32::from(t.power);
                out[at + 3] = i32::from(t.range);
                out[at + 4] = i32::from(t.cooldown);
            }
        }
        for i in g.invaders(b) {
            let pos = usize::from(i.pos);
            if pos < PATH {
                let at = start + pos * 11 + 5;
                out[at] += 1;
                out[at + 1] = out[at + 1].saturating_add(sat(u64::from(i.hp)));
                out[at + 2] = out[at + 2].saturating_add(sat(u64::from(i.maxhp)));
                out[at + 3] = out[at + 3].max(i32::from(i.defense));
                out[at + 4] = out[at + 4].max(i32::from(i.stun_res));
                out[at + 5] = out[at + 5].max(i32::from(i.stun_time));
            }
        }
    };
    if let Some(players) = g.players() {
        for p in players {
            for x in [p.gold, p.life, p.income, p.boost_max, p.inflation] {
                out.push(sat(u64::from(x)));
            }
        }
        for b in 0..g.boards().min(2) {
            board(out, b);
        }
    } else if let Some((inv, def)) = g.siege() {
        out.extend([
            sat(inv.gold),
            sat(u64::from(inv.income)),
            sat(u64::from(inv.boost_max)),
        ]);
        out.extend([sat(def.gold), sat(u64::from(def.life))]);
        board(out, 0);
    }
}

/// Ballroom Blitz: `[seat]`, then per player `[class, x, y, isActive, item, gold, score,
/// effect_timer, health, shielded, item_in_use, damage, speed, range, maxHealth]`.
pub fn ballroom(state: &Value, seat: usize, out: &mut Vec<i32>) {
    out.push(seat as i32);
    for p in list(state) {
        out.push(code(CLASSES, &p["class"]));
        out.push(int(&p["position"]["x"]));
        out.push(int(&p["position"]["y"]));
        out.push(int(&p["isActive"]));
        out.push(code(ITEMS, &p["item"]));
        ints(
            out,
            p,
            &["gold", "score", "effect_timer", "health", "shielded"],
        );
        out.push(code(ITEMS, &p["item_in_use"]));
        ints(
            out,
            &p["stat_set"],
            &["damage", "speed", "range", "maxHealth"],
        );
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
        out.push(code(KINDS, &c[1]));
        out.push(code(BUILDINGS, &c[2]));
        out.push(int(&c[3]));
        out.push(int(&c[4]));
        out.push(int(&c[5]));
    }
}

/// [`colorfight`] read off the state itself (the same numbers; the environments use this one).
pub fn colorfight_direct(
    g: &arena_core::games::colorfight::ColorFight,
    seat: usize,
    out: &mut Vec<i32>,
) {
    let sat = |x: u64| x.min(i32::MAX as u64) as i32;
    let name = |list: &[&str], n: &str| {
        list.iter()
            .position(|k| *k == n)
            .map_or(0, |i| i as i32 + 1)
    };
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
        out.push(name(KINDS, c.kind.name()));
        out.push(name(BUILDINGS, c.building.name()));
        out.push(sat(u64::from(c.taken_at)));
        out.push(i32::from(c.attacker));
        out.push(sat(u64::from(c.done_at)));
    }
}

/// Mammut: `[seat, round, actions, toMove]`, per seat (5, zeros past the players) `[id, points,
/// furs]`, then per tile id (32) `[where, side]`: where 0 unseen, 1 the middle, 2 + s in seat
/// s's hand, 7 + s among seat s's animals; side as shown (Mystery until scoring).
pub fn mammut(state: &Value, seat: usize, out: &mut Vec<i32>) {
    out.push(seat as i32);
    ints(out, state, &["round", "actions", "toMove"]);
    for s in 0..MAMMUT_SEATS {
        for k in ["ids", "points", "furs"] {
            out.push(list(&state[k]).get(s).map_or(0, int));
        }
    }
    let start = out.len();
    out.resize(start + TILES * 2, 0);
    let mut put = |tile: &Value, place: i32| {
        let id = int(&tile["id"]);
        if (0..TILES as i32).contains(&id) {
            out[start + id as usize * 2] = place;
            out[start + id as usize * 2 + 1] = code(SIDES, &tile["side"]);
        }
    };
    for t in list(&state["middle"]) {
        put(t, 1);
    }
    for (s, hand) in list(&state["hands"]).iter().enumerate().take(MAMMUT_SEATS) {
        for t in list(hand) {
            put(t, 2 + s as i32);
        }
    }
    for (s, animals) in list(&state["animals"])
        .iter()
        .enumerate()
        .take(MAMMUT_SEATS)
    {
        for t in list(animals) {
            put(t, 7 + s as i32);
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

    /// Ants: `[seat, turn]`, then 7 planes of `rows x cols` (row-major, plane after plane):
    /// water seen so far, food, own ants, enemy ants (owner index as the engine numbers them for
    /// this seat, 1 is the first enemy), own hills, enemy hills (owner index), dead ants (1 + the
    /// owner index), all as this turn's lines show them.
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
