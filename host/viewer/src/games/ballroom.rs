//! Ballroom Blitz: the log's ruleset and classes, and each seat's action per phase.

host_json!("../../../src/games/ballroom/json.rs");

use super::prelude::*;
use arena_core::games::ballroom::{Action, Ballroom, Class, Item, Params, Ruleset, PLAYERS};

impl Viewed for Ballroom {
    type Start = (Params, u64);
    /// `None`: the log holds no action for the seat in this phase.
    type Part = Option<Action>;

    fn put_start((p, seed): &Self::Start, w: &mut Writer) {
        w.str(p.ruleset.name());
        match &p.classes {
            None => w.bool(false),
            Some(classes) => {
                w.bool(true);
                for c in classes {
                    w.str(c.name());
                }
            }
        }
        w.u64(*seed);
    }

    fn get_start(r: &mut Reader<'_>) -> Result<Self::Start, Error> {
        let ruleset = named(r, "ruleset", Ruleset::from_name)?;
        let classes = if r.bool()? {
            let mut classes = [Class::Knight; PLAYERS];
            for c in &mut classes {
                *c = named(r, "class", Class::from_name)?;
            }
            Some(classes)
        } else {
            None
        };
        Ok((Params { ruleset, classes }, r.u64()?))
    }

    fn put_part(a: &Option<Action>, w: &mut Writer) {
        let Some(a) = a else {
            return w.byte(8);
        };
        match *a {
            Action::Pass => w.byte(0),
            Action::Null => w.byte(1),
            Action::Malformed => w.byte(2),
            Action::Class(c) => {
                w.byte(3);
                w.str(c.name());
            }
            Action::Use(b) => {
                w.byte(4);
                w.bool(b);
            }
            Action::Move { x, y } => {
                w.byte(5);
                w.i64(i64::from(x));
                w.i64(i64::from(y));
            }
            Action::Attack { target } => {
                w.byte(6);
                w.i64(i64::from(target));
            }
            Action::Buy(item) => {
                w.byte(7);
                w.str(item.name());
            }
        }
    }

    fn get_part(r: &mut Reader<'_>) -> Result<Option<Action>, Error> {
        Ok(Some(match r.byte()? {
            8 => return Ok(None),
            0 => Action::Pass,
            1 => Action::Null,
            2 => Action::Malformed,
            3 => Action::Class(named(r, "class", Class::from_name)?),
            4 => Action::Use(r.bool()?),
            5 => Action::Move {
                x: r.int()?,
                y: r.int()?,
            },
            6 => Action::Attack { target: r.int()? },
            7 => Action::Buy(named(r, "item", Item::from_name)?),
            b => return Err(error(format!("no Ballroom Blitz action {b}"))),
        }))
    }

    fn begin((params, seed): &Self::Start) -> Result<Box<Self>, Error> {
        Ballroom::new(params, *seed).map(Box::new).map_err(setup)
    }

    fn play(&mut self, parts: &[Option<Action>]) -> Vec<String> {
        let mut actions = [None; PLAYERS];
        for (a, p) in actions.iter_mut().zip(parts) {
            *a = *p;
        }
        let report = self.step_logged(&actions);
        let mut faults = crate::refusals(&report, self.seats());
        for (seat, a) in parts.iter().enumerate() {
            match a {
                None => faults.push(format!("seat {seat}: the log holds no action")),
                Some(Action::Null) => {
                    faults.push(format!("seat {seat}: no answer (null): dropped"))
                }
                Some(Action::Malformed) => {
                    faults.push(format!("seat {seat}: malformed answer: dropped"))
                }
                _ => {}
            }
        }
        faults
    }

    fn shown_json(&self) -> String {
        json::states_json(self)
    }

    fn part_json(a: &Option<Action>) -> String {
        a.as_ref()
            .map_or_else(|| "null".to_string(), |a| json::action_json(a).to_string())
    }
}
