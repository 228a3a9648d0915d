//! Mammut driven with arbitrary actions: see `arena_fuzz::drive`. Takes are drawn from the middle
//! most of the time (so games get played), any tile set otherwise.
#![no_main]
use arbitrary::{Result, Unstructured};
use arena_core::games::mammut::{Action, Mammut, Params, TileSet};
use arena_fuzz::drive;
use libfuzzer_sys::fuzz_target;

fn action(u: &mut Unstructured, g: &Mammut) -> Result<Action> {
    Ok(match u.int_in_range(0..=4u8)? {
        0 => Action::Nothing,
        1 => Action::Take(TileSet(u.arbitrary()?)),
        2 | 3 => Action::Take(TileSet(g.middle().0 & u.arbitrary::<u32>()?)),
        _ => Action::Steal {
            victim: if u.ratio(1, 8)? {
                u.arbitrary()?
            } else {
                u.int_in_range(0..=5)?
            },
            put_back: u.arbitrary()?,
        },
    })
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(seed) = u.arbitrary::<u64>() else {
        return;
    };
    drive::<Mammut>(&Params, seed, &mut u, 1500, |u, g, _| action(u, g));
});
