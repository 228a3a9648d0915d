//! ColorFight driven with arbitrary params and actions: see `arena_fuzz::drive`. The grid size and
//! player count are fuzzed (`new` refuses what it cannot hold); the length is kept short.
#![no_main]
use arbitrary::{Result, Unstructured};
use arena_core::games::colorfight::{Action, ColorFight, Params, Respawn, Variant};
use arena_fuzz::{drive, mostly_in};
use libfuzzer_sys::fuzz_target;

fn action(u: &mut Unstructured, g: &ColorFight) -> Result<Action> {
    let _ = g;
    let c = |u: &mut Unstructured| -> Result<i32> { Ok(mostly_in(u, -1, 33)? as i32) };
    Ok(match u.int_in_range(0..=4u8)? {
        0 => Action::Pass,
        1 => Action::Attack { x: c(u)?, y: c(u)? },
        2 => Action::Build { x: c(u)?, y: c(u)? },
        3 => Action::Join,
        _ => Action::Malformed,
    })
}

fn params(u: &mut Unstructured) -> Result<Params> {
    Ok(Params {
        variant: *u.choose(&[Variant::Conquest, Variant::Skirmish])?,
        width: mostly_in(u, 0, 34)? as u16,
        height: mostly_in(u, 0, 34)? as u16,
        players: mostly_in(u, 0, 9)? as u8,
        ticks: u.int_in_range(0..=600)?,
        respawn: *u.choose(&[Respawn::Auto, Respawn::OnJoin])?,
    })
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let (Ok(p), Ok(seed)) = (params(&mut u), u.arbitrary::<u64>()) else {
        return;
    };
    drive::<ColorFight>(&p, seed, &mut u, 700, |u, g, _| action(u, g));
});
