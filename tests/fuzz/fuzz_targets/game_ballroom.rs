//! Ballroom Blitz driven with arbitrary actions, both rulesets, with or without the handshake: see
//! `arena_fuzz::drive`. Actions mostly fit the phase; one in eight is of any kind.
#![no_main]
use arbitrary::{Result, Unstructured};
use arena_core::games::ballroom::{Action, Ballroom, Class, Item, Params, Phase, Ruleset};
use arena_fuzz::mostly_in;
use libfuzzer_sys::fuzz_target;

fn of_kind(u: &mut Unstructured, phase: Phase) -> Result<Action> {
    let coord = |u: &mut Unstructured| -> Result<i32> { Ok(mostly_in(u, -1, 10)? as i32) };
    Ok(match phase {
        Phase::Class => Action::Class(*u.choose(&Class::ALL)?),
        Phase::Use => Action::Use(u.arbitrary()?),
        Phase::Move => Action::Move {
            x: coord(u)?,
            y: coord(u)?,
        },
        Phase::Attack => Action::Attack {
            target: mostly_in(u, -1, 4)? as i32,
        },
        Phase::Buy => Action::Buy(*u.choose(&Item::ALL)?),
    })
}

fn action(u: &mut Unstructured, g: &Ballroom) -> Result<Action> {
    const PHASES: [Phase; 5] = [
        Phase::Class,
        Phase::Use,
        Phase::Move,
        Phase::Attack,
        Phase::Buy,
    ];
    match u.int_in_range(0..=15u8)? {
        0 => Ok(Action::Pass),
        1 => Ok(Action::Null),
        2 => Ok(Action::Malformed),
        3 => {
            let phase = *u.choose(&PHASES)?;
            of_kind(u, phase)
        }
        _ => of_kind(u, g.phase().unwrap_or(Phase::Use)),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let mut params = || -> Result<Params> {
        Ok(Params {
            ruleset: *u.choose(&[Ruleset::Engine, Ruleset::AsWritten])?,
            classes: None,
        })
    };
    let Ok(mut p) = params() else {
        return;
    };
    if u.ratio(1, 2).unwrap_or(false) {
        let mut classes = [Class::Knight; 4];
        for c in &mut classes {
            *c = *u.choose(&Class::ALL).unwrap_or(&Class::Knight);
        }
        p.classes = Some(classes);
    }
    let Ok(seed) = u.arbitrary::<u64>() else {
        return;
    };
    arena_fuzz::drive::<Ballroom>(&p, seed, &mut u, 1000, |u, g, _| action(u, g));
});
