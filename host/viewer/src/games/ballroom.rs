//! Ballroom Blitz: the log's ruleset and classes, and the replies each phase executed, each for
//! the player it names (an official log's bots may act for another seat).

host_json!("../../../src/games/ballroom/json.rs");

use super::prelude::*;
use arena_core::games::ballroom::{
    Action, Ballroom, Class, Flags, Item, Params, Reply, Ruleset, PLAYERS,
};

impl Viewed for Ballroom {
    type Start = (Params, u64);
    /// One reply, in the order the engine read them: the action and the player it was executed
    /// for.
    type Part = Reply;

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
        let fixed = r.bool()?;
        let params = Params::with_classes(ruleset, fixed, || named(r, "class", Class::from_name))?;
        Ok((params, r.u64()?))
    }

    fn put_part(reply: &Reply, w: &mut Writer) {
        w.byte(reply.executor);
        match reply.action {
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

    fn get_part(r: &mut Reader<'_>) -> Result<Reply, Error> {
        let executor = r.byte()?;
        if usize::from(executor) >= PLAYERS {
            return Err(error(format!("no Ballroom Blitz player {executor}")));
        }
        let action = match r.byte()? {
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
        };
        Ok(Reply {
            executor,
            action,
            flags: Flags::NONE,
        })
    }

    begin_from_params_and_seed!();

    fn play(&mut self, parts: &[Reply]) -> Vec<String> {
        let report = self.step_replies(parts);
        let mut faults = crate::refusals(&report, self.seats());
        for seat in 0..PLAYERS {
            let mine = parts.iter().filter(|r| usize::from(r.executor) == seat);
            match mine.count() {
                0 => faults.push(format!("seat {seat}: the log holds no action")),
                1 => {}
                n => faults.push(format!("seat {seat}: {n} replies executed for it")),
            }
        }
        for r in parts {
            match r.action {
                Action::Null => {
                    faults.push(format!("seat {}: no answer (null): dropped", r.executor))
                }
                Action::Malformed => {
                    faults.push(format!("seat {}: malformed answer: dropped", r.executor))
                }
                _ => {}
            }
        }
        faults
    }

    fn shown_json(&self) -> String {
        json::states_json(self)
    }

    fn part_json(r: &Reply) -> String {
        let mut a = json::action_json(&r.action);
        if let Some(o) = a.as_object_mut() {
            o.insert("executor".into(), r.executor.into());
        }
        a.to_string()
    }
}
