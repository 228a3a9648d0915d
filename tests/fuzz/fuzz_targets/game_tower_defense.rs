//! Tower Defense (both variants) driven with arbitrary actions: see `arena_fuzz::drive`.
#![no_main]
use arbitrary::{Result, Unstructured};
use arena_core::games::tower_defense::{
    Action, Params, Stat, TowerDefense, TowerKind, Variant, SPACES,
};
use arena_fuzz::{drive, mostly_in};
use libfuzzer_sys::fuzz_target;

fn action(u: &mut Unstructured) -> Result<Action> {
    let pos = |u: &mut Unstructured| mostly_in(u, -1, SPACES as i64);
    Ok(match u.int_in_range(0..=5u8)? {
        0 => Action::Pass,
        1 => Action::Spawn {
            hp: mostly_in(u, -2, 40)?,
            defense: mostly_in(u, -2, 40)?,
            stun_res: mostly_in(u, -2, 40)?,
        },
        2 => Action::Build {
            kind: u
                .choose(&[
                    None,
                    Some(TowerKind::Turret),
                    Some(TowerKind::Stunner),
                    Some(TowerKind::Bomb),
                ])?
                .to_owned(),
            pos: pos(u)?,
        },
        3 => Action::Upgrade {
            pos: pos(u)?,
            stat: u
                .choose(&[None, Some(Stat::Power), Some(Stat::Range)])?
                .to_owned(),
        },
        4 => Action::Destroy { pos: pos(u)? },
        _ => Action::Unknown,
    })
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(variant) = u.choose(&[Variant::Duel, Variant::Siege]).copied() else {
        return;
    };
    let Ok(seed) = u.arbitrary::<u64>() else {
        return;
    };
    drive::<TowerDefense>(&Params { variant }, seed, &mut u, 800, |u, _, _| action(u));
});
