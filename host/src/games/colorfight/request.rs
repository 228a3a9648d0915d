//! The decoding of a request to `arena serve colorfight` (its method, path and body) into what it
//! asks of the game, or into the original server's answer to a malformed one: the part of the
//! server that reads what strangers send, kept apart from the sockets and the game so that a fuzz
//! target reaches it (`tests/fuzz/fuzz_targets/serve_request.rs`) without the HTTP stack.
//!
//! The original server (`app.py`) took every argument from a JSON object body and checked, in
//! order, the JSON, the presence of each argument, then (with the game at hand, in
//! [`super::serve::api`]) the end of the game, the cell's position and the token. Here the first
//! two; what the rest needs is kept as it came: a coordinate that is not a whole number in `i64`
//! (a string, `1.5`, `1e309`, thirty digits) is `None`, and so is a token that is not a string.

use serde_json::{json, Value};

/// The endpoints the original client library calls (all POST).
pub const ROUTES: &[&str] = &[
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

/// The longest name a seat keeps, in characters (the server's column).
pub const NAME_CHARS: usize = 50;

/// The cell and token of an action, as far as the body gave them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// `cellx`, if a whole number.
    pub x: Option<i64>,
    /// `celly`, if a whole number.
    pub y: Option<i64>,
    /// `token`, if a string.
    pub token: Option<String>,
}

/// What a well-formed request asks.
#[derive(Clone, Debug, PartialEq)]
pub enum ApiRequest {
    /// `GET /`: a page saying what this is.
    Index,
    /// `/getgameinfo`: the game, with the cells changed since `time_after - 0.5` s (0: all).
    GameInfo {
        /// `timeAfter`, or 0 when absent or not a number.
        time_after: f64,
    },
    /// `/joingame` under this name (at most [`NAME_CHARS`] characters).
    Join {
        /// The name, a non-string value written as JSON.
        name: String,
    },
    /// `/checktoken`.
    CheckToken {
        /// The token, if a string.
        token: Option<String>,
    },
    /// `/attack`.
    Attack(Target),
    /// `/buildbase`.
    Build(Target),
    /// `/blast` (answered success, as with the feature off; the cell is still checked).
    Blast(Target),
    /// `/multiattack` (likewise).
    MultiAttack(Target),
    /// `/startgame`: refused, the game is the command line's.
    StartGame,
    /// `/addai`: refused likewise.
    AddAi,
    /// `/getailist`: an empty list.
    AiList,
}

/// The original server's answer to a malformed request: an HTTP status and a JSON body.
#[derive(Clone, Debug, PartialEq)]
pub struct Malformed {
    /// 400, 404 or 405.
    pub status: u16,
    /// `{"msg": ...}` as the server wrote it.
    pub body: Value,
}

/// The server's checks before any endpoint: a JSON object holding every argument.
fn require<'a>(data: Option<&'a Value>, args: &[&str]) -> Result<&'a Value, Malformed> {
    let Some(data) = data else {
        return Err(Malformed {
            status: 400,
            body: json!({"msg": "No json!"}),
        });
    };
    match args.iter().find(|arg| data.get(arg).is_none()) {
        Some(arg) => Err(Malformed {
            status: 400,
            body: json!({"code": 400, "msg": format!("wrong args! need {arg}")}),
        }),
        None => Ok(data),
    }
}

fn target(d: &Value) -> Target {
    Target {
        x: d.get("cellx").and_then(Value::as_i64),
        y: d.get("celly").and_then(Value::as_i64),
        token: d.get("token").and_then(Value::as_str).map(str::to_owned),
    }
}

/// A player's name as the server stored it.
fn name(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    s.chars().take(NAME_CHARS).collect()
}

/// One request: `method`, `path` (without the query) and the body's bytes.
pub fn decode(method: &str, path: &str, body: &[u8]) -> Result<ApiRequest, Malformed> {
    let data: Option<Value> = serde_json::from_slice::<Value>(body)
        .ok()
        .filter(Value::is_object);
    let data = data.as_ref();
    let path = path.trim_end_matches('/');
    if method == "GET" && (path.is_empty() || path == "/index.html") {
        return Ok(ApiRequest::Index);
    }
    if !ROUTES.contains(&path) {
        return Err(Malformed {
            status: 404,
            body: json!({"msg": "Not found"}),
        });
    }
    if method != "POST" {
        return Err(Malformed {
            status: 405,
            body: json!({"msg": "Method not allowed"}),
        });
    }
    let action = ["cellx", "celly", "token"];
    Ok(match path {
        "/getgameinfo" => ApiRequest::GameInfo {
            time_after: data
                .and_then(|d| d.get("timeAfter"))
                .and_then(Value::as_f64)
                .unwrap_or(0.0),
        },
        "/joingame" => ApiRequest::Join {
            name: name(&require(data, &["name"])?["name"]),
        },
        "/checktoken" => ApiRequest::CheckToken {
            token: require(data, &["token"])?["token"]
                .as_str()
                .map(str::to_owned),
        },
        "/attack" => ApiRequest::Attack(target(require(data, &action)?)),
        "/buildbase" => ApiRequest::Build(target(require(data, &action)?)),
        "/blast" => ApiRequest::Blast(target(require(
            data,
            &["cellx", "celly", "token", "direction"],
        )?)),
        "/multiattack" => ApiRequest::MultiAttack(target(require(data, &action)?)),
        "/startgame" => {
            require(data, &["admin_password", "last_time", "ai_join_time"])?;
            ApiRequest::StartGame
        }
        "/addai" => {
            require(data, &["name"])?;
            ApiRequest::AddAi
        }
        _ => ApiRequest::AiList,
    })
}

impl ApiRequest {
    /// The method, path and body a client sends for this request (what [`decode`] reads back as
    /// the same request).
    pub fn encode(&self) -> (&'static str, &'static str, String) {
        let t = |t: &Target| json!({"cellx": t.x, "celly": t.y, "token": t.token});
        let (path, body) = match self {
            ApiRequest::Index => return ("GET", "/", String::new()),
            ApiRequest::GameInfo { time_after } => {
                ("/getgameinfo", json!({ "timeAfter": time_after }))
            }
            ApiRequest::Join { name } => ("/joingame", json!({ "name": name })),
            ApiRequest::CheckToken { token } => ("/checktoken", json!({ "token": token })),
            ApiRequest::Attack(a) => ("/attack", t(a)),
            ApiRequest::Build(a) => ("/buildbase", t(a)),
            ApiRequest::Blast(a) => {
                let mut v = t(a);
                v["direction"] = json!("square");
                ("/blast", v)
            }
            ApiRequest::MultiAttack(a) => ("/multiattack", t(a)),
            ApiRequest::StartGame => (
                "/startgame",
                json!({"admin_password": "", "last_time": 0, "ai_join_time": 0}),
            ),
            ApiRequest::AddAi => ("/addai", json!({"name": ""})),
            ApiRequest::AiList => ("/getailist", json!({})),
        };
        ("POST", path, body.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_that_are_not_json_objects_are_no_json() {
        for body in ["{oops", "[1,2]", "\"x\"", r#"{"cellx":1e309}"#] {
            let m = decode("POST", "/attack", body.as_bytes()).unwrap_err();
            assert_eq!(
                (m.status, m.body),
                (400, json!({"msg": "No json!"})),
                "{body}"
            );
        }
    }

    #[test]
    fn odd_values_are_kept_as_absent_not_refused() {
        let body = br#"{"cellx":123456789012345678901234567890,"celly":-3,"token":7}"#;
        assert_eq!(
            decode("POST", "/attack/", body),
            Ok(ApiRequest::Attack(Target {
                x: None,
                y: Some(-3),
                token: None
            }))
        );
        let long = format!(r#"{{"name":"{}"}}"#, "é".repeat(100));
        let Ok(ApiRequest::Join { name }) = decode("POST", "/joingame", long.as_bytes()) else {
            panic!("a long name joins");
        };
        assert_eq!(name.chars().count(), NAME_CHARS);
        assert_eq!(
            decode("POST", "/joingame", br#"{"name":[1]}"#),
            Ok(ApiRequest::Join { name: "[1]".into() })
        );
        assert_eq!(
            decode("POST", "/getgameinfo", b"\xff\xfe"),
            Ok(ApiRequest::GameInfo { time_after: 0.0 })
        );
    }

    #[test]
    fn every_request_reads_back_from_what_a_client_sends_for_it() {
        let t = Target {
            x: Some(3),
            y: None,
            token: Some("abc".into()),
        };
        for r in [
            ApiRequest::Index,
            ApiRequest::GameInfo { time_after: 12.5 },
            ApiRequest::Join { name: "me".into() },
            ApiRequest::CheckToken { token: None },
            ApiRequest::Attack(t.clone()),
            ApiRequest::Build(t.clone()),
            ApiRequest::Blast(t.clone()),
            ApiRequest::MultiAttack(t),
            ApiRequest::StartGame,
            ApiRequest::AddAi,
            ApiRequest::AiList,
        ] {
            let (method, path, body) = r.encode();
            assert_eq!(decode(method, path, body.as_bytes()), Ok(r));
        }
    }
}
