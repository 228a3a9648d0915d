//! Ants at the microcontroller capacities, on a small map made from the bytes, with fuzzed radii,
//! food draws and cutoff, driven with arbitrary orders: see `arena_fuzz::drive`. Most orders move one
//! of the seat's own ants; the rest name any square.
#![no_main]
use arbitrary::{Result, Unstructured};
use arena_core::games::ants::{
    AntsMcu, AntsMcuMap, AntsMcuParams, Attack, Dir, Draw, Order, MCU_ORDERS,
};
use arena_fuzz::{drive, mostly_in};
use libfuzzer_sys::fuzz_target;

fn map_text(u: &mut Unstructured) -> Result<String> {
    let rows = u.int_in_range(2..=14usize)?;
    let cols = u.int_in_range(2..=14usize)?;
    let players = u.int_in_range(2..=4u8)?;
    let mut grid = vec![b'.'; rows * cols];
    for sq in grid.iter_mut() {
        *sq = match u.int_in_range(0..=15u8)? {
            0 | 1 => b'%',
            2 => b'*',
            3 => b'a',
            _ => b'.',
        };
    }
    for p in 0..players {
        for _ in 0..u.int_in_range(1..=2u8)? {
            let sq = u.int_in_range(0..=rows * cols - 1)?;
            grid[sq] = b'0' + p;
        }
    }
    let mut text = format!("rows {rows}\ncols {cols}\nplayers {players}\n");
    for row in grid.chunks(cols) {
        text.push_str("m ");
        text.push_str(std::str::from_utf8(row).unwrap_or(""));
        text.push('\n');
    }
    Ok(text)
}

/// A food draw. The food steps cost time in proportion to the amounts drawn (a rate of 65,000 on a
/// 3 x 2 map took 55 s for 53 turns under the sanitizer), so amounts stay below 300 here.
fn draw(u: &mut Unstructured) -> Result<Draw> {
    Ok(if u.ratio(1, 4)? {
        Draw::Fixed(u.int_in_range(0..=299)?)
    } else {
        Draw::Range(u.int_in_range(0..=299)?, u.int_in_range(0..=299)?)
    })
}

fn params(u: &mut Unstructured) -> Result<Option<AntsMcuParams>> {
    let Ok(map) = AntsMcuMap::parse(&map_text(u)?) else {
        return Ok(None);
    };
    let mut p = AntsMcuParams::new(map, u.int_in_range(1..=60)?);
    if u.ratio(1, 2)? {
        p.viewradius2 = mostly_in(u, 0, 100)? as u16;
        p.attackradius2 = mostly_in(u, 0, 100)? as u16;
        p.spawnradius2 = mostly_in(u, 0, 100)? as u16;
        p.attack = *u.choose(&[Attack::Focus, Attack::Damage])?;
        p.food_rate = draw(u)?;
        p.food_turn = draw(u)?;
        p.food_start = draw(u)?;
        p.food_visible = draw(u)?;
        p.cutoff_turn = mostly_in(u, 0, 60)? as u16;
        p.cutoff_percent = (mostly_in(u, 0, 20)? as u32, mostly_in(u, 0, 20)? as u32);
    }
    Ok(Some(p))
}

fn orders(
    u: &mut Unstructured,
    g: &AntsMcu,
    seat: usize,
) -> Result<heapless::Vec<Order, MCU_ORDERS>> {
    let cols = g.cols().max(1);
    let mine: Vec<u16> = g
        .ants()
        .iter()
        .filter(|a| a.owner as usize == seat)
        .map(|a| a.sq)
        .collect();
    let mut out = heapless::Vec::new();
    for _ in 0..u.int_in_range(0..=12u8)? {
        let (row, col) = match mine.get(u.int_in_range(0..=mine.len())?) {
            Some(&sq) if !u.ratio(1, 8)? => ((sq / cols) as i16, (sq % cols) as i16),
            _ => (
                mostly_in(u, -1, g.rows() as i64)? as i16,
                mostly_in(u, -1, cols as i64)? as i16,
            ),
        };
        let _ = out.push(Order {
            row,
            col,
            dir: *u.choose(&Dir::ALL)?,
        });
    }
    Ok(out)
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(Some(p)) = params(&mut u) else {
        return;
    };
    let Ok(seed) = u.arbitrary::<u64>() else {
        return;
    };
    drive::<AntsMcu>(&p, seed, &mut u, 100, |u, g, seat| orders(u, g, seat));
});
