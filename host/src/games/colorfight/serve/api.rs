//! The endpoints of the October 2018 server (`app.py`), as its client library calls them: every
//! request is a POST with a JSON body; refusals of the game are HTTP 200 with `err_code` and
//! `err_msg`, malformed requests HTTP 400 with `msg`, in the server's order of checks (the JSON
//! and the arguments, decoded in [`super::super::request`], then the end of the game, the cell's
//! position, the token, then the rules).

use super::super::request::{decode, ApiRequest, Target};
use super::table::{error, Joined, Snapshot, Table};
use arena_core::games::colorfight::{Action, Variant};
use serde_json::{json, Value};
use tokio::sync::oneshot;

/// What a request gets: an answer now (status and body), or one at the next tick.
pub enum Reply {
    /// The HTTP status and the body.
    Now(u16, Value),
    /// The body, once the tick the request waits for has come.
    Later(oneshot::Receiver<Value>),
    /// A plain page (`GET /`).
    Page(&'static str),
    /// `/getgameinfo`'s body, to be written from this copy (and `timeAfter`) once the table's
    /// lock is let go.
    Info(Box<Snapshot>, f64),
    /// `/getgameinfo`'s whole board, as written for an earlier request of the same tick.
    Cached(bytes::Bytes),
}

fn ok(v: Value) -> Reply {
    Reply::Now(200, v)
}

/// The checks of an action: the game not over, the cell on the grid.
fn cell(table: &Table, t: &Target) -> Result<(i32, i32), Reply> {
    if table.is_over() {
        return Err(ok(error(4, "Game is ended")));
    }
    let on = |v: Option<i64>, max: usize| {
        v.filter(|&v| v >= 0 && (v as u64) < max as u64)
            .map(|v| v as i32)
    };
    match (on(t.x, table.game.width()), on(t.y, table.game.height())) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(ok(error(1, "Invalid cell position"))),
    }
}

/// The seat of the request's token.
fn seat(table: &Table, t: &Target) -> Result<usize, Reply> {
    t.token
        .as_deref()
        .and_then(|t| table.seat_of(t))
        .ok_or_else(|| ok(error(21, "Invalid player")))
}

/// `/attack` or `/buildbase`: the checks, then the action waits for its tick.
fn act(table: &mut Table, t: &Target, build: bool) -> Result<Reply, Reply> {
    let (x, y) = cell(table, t)?;
    let seat = seat(table, t)?;
    let action = if !build {
        Action::Attack { x, y }
    } else if table.game.variant() == Variant::Skirmish {
        // Bases are off in Skirmish: the server answered success and did nothing.
        return Ok(ok(json!({"err_code": 0})));
    } else {
        Action::Build { x, y }
    };
    Ok(match table.act(seat, action) {
        Ok(rx) => Reply::Later(rx),
        Err(v) => ok(v),
    })
}

/// One request: `method`, `path` and the body's bytes.
pub fn handle(table: &mut Table, method: &str, path: &str, body: &[u8]) -> Reply {
    let request = match decode(method, path, body) {
        Ok(r) => r,
        Err(m) => return Reply::Now(m.status, m.body),
    };
    let answer = match &request {
        ApiRequest::Index => Ok(Reply::Page(
            "Pocket Arena's ColorFight server (arena serve colorfight): the API of the October \
             2018 server, for its client library. POST /getgameinfo for the game.\n",
        )),
        ApiRequest::GameInfo { time_after } => Ok(match table.cached_info(*time_after) {
            Some(body) => Reply::Cached(body),
            None => Reply::Info(Box::new(table.snapshot()), *time_after),
        }),
        ApiRequest::Join { name } => Ok(match table.join(name.clone()) {
            Joined::Now(v) => ok(v),
            Joined::Later(rx) => Reply::Later(rx),
        }),
        ApiRequest::CheckToken { token } => {
            Ok(match token.as_deref().and_then(|t| table.check_token(t)) {
                Some(v) => ok(v),
                None => Reply::Now(400, json!({"msg": "Fail"})),
            })
        }
        ApiRequest::Attack(t) => act(table, t, false),
        ApiRequest::Build(t) => act(table, t, true),
        // Off in the practice rounds: the server answered success and did nothing.
        ApiRequest::Blast(t) | ApiRequest::MultiAttack(t) => {
            cell(table, t).map(|_| ok(json!({"err_code": 0})))
        }
        // The game is the command line's: no restart, no AI list.
        ApiRequest::StartGame | ApiRequest::AddAi => Ok(ok(json!({"msg": "Fail"}))),
        ApiRequest::AiList => Ok(ok(json!({"aiList": []}))),
    };
    answer.unwrap_or_else(|r| r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::LineWriter;
    use arena_core::games::colorfight::{ColorFight, Params};
    use arena_core::Game;

    fn table() -> Table {
        let params = Params {
            width: 5,
            height: 5,
            players: 2,
            ..Params::default()
        };
        let game = Box::new(ColorFight::new(&params, 1).unwrap());
        Table::new(game, 2, vec![], LineWriter::create(None).unwrap(), 10)
    }

    fn now(r: Reply) -> (u16, Value) {
        match r {
            Reply::Now(s, v) => (s, v),
            Reply::Info(snapshot, after) => (200, snapshot.info(after)),
            _ => panic!("not answered at once"),
        }
    }

    #[test]
    fn malformed_requests_get_the_servers_400s() {
        let mut t = table();
        assert_eq!(
            now(handle(&mut t, "POST", "/attack", b"{oops")),
            (400, json!({"msg": "No json!"}))
        );
        let (s, v) = now(handle(
            &mut t,
            "POST",
            "/attack",
            br#"{"cellx":1,"token":"x"}"#,
        ));
        assert_eq!(
            (s, v["msg"].as_str()),
            (400, Some("wrong args! need celly"))
        );
        assert_eq!(now(handle(&mut t, "POST", "/nothing", b"{}")).0, 404);
        assert_eq!(now(handle(&mut t, "GET", "/attack", b"")).0, 405);
        assert!(matches!(handle(&mut t, "GET", "/", b""), Reply::Page(_)));
        let (s, v) = now(handle(
            &mut t,
            "POST",
            "/checktoken",
            br#"{"token":"nobody"}"#,
        ));
        assert_eq!((s, v), (400, json!({"msg": "Fail"})));
    }

    #[test]
    fn refused_actions_get_the_servers_error_codes_at_once() {
        let mut t = table();
        let code = |t: &mut Table, path: &str, body: &str| {
            let (s, v) = now(handle(t, "POST", path, body.as_bytes()));
            assert_eq!(s, 200, "{v}");
            v["err_code"].as_u64().unwrap()
        };
        assert_eq!(
            code(&mut t, "/attack", r#"{"cellx":9,"celly":0,"token":"x"}"#),
            1
        );
        assert_eq!(
            code(&mut t, "/attack", r#"{"cellx":"a","celly":0,"token":"x"}"#),
            1
        );
        assert_eq!(
            code(&mut t, "/attack", r#"{"cellx":1,"celly":0,"token":"x"}"#),
            21
        );
        assert_eq!(
            code(&mut t, "/buildbase", r#"{"cellx":1,"celly":0,"token":"x"}"#),
            21
        );
        let blast = r#"{"cellx":1,"celly":0,"token":"x","direction":"square"}"#;
        assert_eq!(code(&mut t, "/blast", blast), 0);
        assert_eq!(
            code(
                &mut t,
                "/multiattack",
                r#"{"cellx":1,"celly":0,"token":"x"}"#
            ),
            0
        );
        let (_, joined) = now(handle(&mut t, "POST", "/joingame", br#"{"name":"me"}"#));
        let token = joined["token"].as_str().unwrap();
        let (_, info) = now(handle(
            &mut t,
            "POST",
            "/checktoken",
            format!(r#"{{"token":"{token}"}}"#).as_bytes(),
        ));
        assert_eq!(info, json!({"name": "me", "uid": 1}));
        // A valid action waits for its tick.
        let body = format!(r#"{{"cellx":0,"celly":0,"token":"{token}"}}"#);
        assert!(matches!(
            handle(&mut t, "POST", "/attack", body.as_bytes()),
            Reply::Later(_)
        ));
        let (_, info) = now(handle(&mut t, "POST", "/getgameinfo", b""));
        assert_eq!(info["cells"].as_array().unwrap().len(), 25);
        assert_eq!(info["info"]["width"], 5);
    }
}
