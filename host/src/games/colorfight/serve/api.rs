//! The endpoints of the October 2018 server (`app.py`), as its client library calls them: every
//! request is a POST with a JSON body; refusals of the game are HTTP 200 with `err_code` and
//! `err_msg`, malformed requests HTTP 400 with `msg`, in the server's order of checks (the JSON,
//! the arguments, the end of the game, the cell's position, the token, then the rules).

use super::table::{error, Joined, Table};
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
}

fn ok(v: Value) -> Reply {
    Reply::Now(200, v)
}

/// The server's checks before any endpoint: a JSON object holding every argument.
fn require<'a>(data: Option<&'a Value>, args: &[&str]) -> Result<&'a Value, Reply> {
    let Some(data) = data else {
        return Err(Reply::Now(400, json!({"msg": "No json!"})));
    };
    for arg in args {
        if data.get(arg).is_none() {
            return Err(Reply::Now(
                400,
                json!({"code": 400, "msg": format!("wrong args! need {arg}")}),
            ));
        }
    }
    Ok(data)
}

/// The checks of an action: the game not over, the cell on the grid (whole numbers only).
fn cell(table: &Table, data: &Value) -> Result<(i32, i32), Reply> {
    if table.is_over() {
        return Err(ok(error(4, "Game is ended")));
    }
    let coord = |k: &str, max: usize| {
        data.get(k)
            .and_then(Value::as_i64)
            .filter(|&v| v >= 0 && (v as u64) < max as u64)
            .map(|v| v as i32)
    };
    match (
        coord("cellx", table.game.width()),
        coord("celly", table.game.height()),
    ) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(ok(error(1, "Invalid cell position"))),
    }
}

/// The seat of the request's token.
fn seat(table: &Table, data: &Value) -> Result<usize, Reply> {
    data.get("token")
        .and_then(Value::as_str)
        .and_then(|t| table.seat_of(t))
        .ok_or_else(|| ok(error(21, "Invalid player")))
}

/// A player's name as the server stored it (at most 50 characters).
fn name(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    s.chars().take(50).collect()
}

/// One request: `method`, `path` and the body's bytes.
pub fn handle(table: &mut Table, method: &str, path: &str, body: &[u8]) -> Reply {
    let data: Option<Value> = serde_json::from_slice::<Value>(body)
        .ok()
        .filter(Value::is_object);
    let data = data.as_ref();
    let path = path.trim_end_matches('/');
    if method == "GET" && (path.is_empty() || path == "/index.html") {
        return Reply::Page(
            "Pocket Arena's ColorFight server (arena serve colorfight): the API of the October \
             2018 server, for its client library. POST /getgameinfo for the game.\n",
        );
    }
    const ROUTES: &[&str] = &[
        "/getgameinfo",
        "/joingame",
        "/checktoken",
        "/attack",
        "/buildbase",
        "/blast",
        "/multiattack",
        "/startgame",
        "/addai",
        "/getailist",
    ];
    if !ROUTES.contains(&path) {
        return Reply::Now(404, json!({"msg": "Not found"}));
    }
    if method != "POST" {
        return Reply::Now(405, json!({"msg": "Method not allowed"}));
    }
    let answer = match path {
        "/getgameinfo" => {
            let after = data
                .and_then(|d| d.get("timeAfter"))
                .and_then(Value::as_f64)
                .unwrap_or(0.0);
            Ok(ok(table.game_info(after)))
        }
        "/joingame" => require(data, &["name"]).map(|d| match table.join(name(&d["name"])) {
            Joined::Now(v) => ok(v),
            Joined::Later(rx) => Reply::Later(rx),
        }),
        "/checktoken" => require(data, &["token"]).map(|d| {
            match d["token"].as_str().and_then(|t| table.check_token(t)) {
                Some(v) => ok(v),
                None => Reply::Now(400, json!({"msg": "Fail"})),
            }
        }),
        "/attack" | "/buildbase" => (|| -> Result<Reply, Reply> {
            let d = require(data, &["cellx", "celly", "token"])?;
            let (x, y) = cell(table, d)?;
            let seat = seat(table, d)?;
            let action = if path == "/attack" {
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
        })(),
        // Off in the practice rounds: the server answered success and did nothing.
        "/blast" => require(data, &["cellx", "celly", "token", "direction"])
            .and_then(|d| cell(table, d))
            .map(|_| ok(json!({"err_code": 0}))),
        "/multiattack" => require(data, &["cellx", "celly", "token"])
            .and_then(|d| cell(table, d))
            .map(|_| ok(json!({"err_code": 0}))),
        // The game is the command line's: no restart, no AI list.
        "/startgame" => require(data, &["admin_password", "last_time", "ai_join_time"])
            .map(|_| ok(json!({"msg": "Fail"}))),
        "/addai" => require(data, &["name"]).map(|_| ok(json!({"msg": "Fail"}))),
        _ => Ok(ok(json!({"aiList": []}))),
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
