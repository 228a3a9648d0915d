//! A trace line of the usual shape, read without building JSON: the text of its two actions, its
//! turn and the text of the state fields it has. Most lines of a long trace record no state, and
//! their actions repeat a few texts; reading them as text and handing the rare line of another
//! shape to serde_json keeps the re-play, not the parsing, the cost of a verify.
//!
//! [`scan`] checks the line's frame (the object, its keys, the pair of actions, the turn) and
//! finds each value's text by its brackets and quotes without checking the value: the caller
//! checks each one, as it must compare or read it anyway. An action's text is read by serde_json
//! (or is one read before), a state's text is compared with ours (valid JSON); a text that fails
//! either sends the line the slow way (the whole line read by serde_json, which also words any
//! error). So what is accepted is valid JSON with exactly the meaning reported. A line of another
//! frame (keys with escapes, an unknown or repeated key, a turn that is not a plain integer) is
//! `None`, and read the slow way too.

/// The state fields a trace line may hold (Duel: `players`, `boards`; Siege: `invader`,
/// `defender`, `board`).
pub const STATE_KEYS: [&str; 5] = ["players", "boards", "invader", "defender", "board"];

/// What a line of the usual shape holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scanned<'a> {
    /// The text of each seat's action (unchecked: read it with serde_json).
    pub actions: [&'a str; 2],
    /// The turn, a plain integer.
    pub turn: u64,
    /// The text of each state field present, in the order of [`STATE_KEYS`] (unchecked: compare it
    /// with valid JSON).
    pub state: [Option<&'a str>; 5],
}

impl Scanned<'_> {
    /// Whether the line records a state (any of its fields).
    pub fn has_state(&self) -> bool {
        self.state.iter().any(Option::is_some)
    }
}

/// Reads `{"actions":[A0,A1],"turn":T, state fields...}` (keys in any order, each once, nothing
/// else; JSON white space anywhere); `None` for any other frame, valid JSON or not.
pub fn scan(text: &str) -> Option<Scanned<'_>> {
    let mut c = Cursor {
        text,
        b: text.as_bytes(),
        i: 0,
    };
    let mut actions = None;
    let mut turn = None;
    let mut state = [None; 5];
    // The frame the controller and our writer write, `{"actions":[..],"turn":T`, is read without
    // reading its keys one by one.
    let mut more = true;
    if text.starts_with(ACTIONS) {
        c.i = ACTIONS.len();
        actions = Some(c.pair()?);
        if c.b[c.i..].starts_with(TURN.as_bytes()) {
            c.i += TURN.len();
            turn = Some(c.integer()?);
        }
        c.ws();
        more = c.separator()?;
    } else {
        c.ws();
        c.eat(b'{')?;
        c.ws();
        if c.peek()? == b'}' {
            return None;
        }
    }
    while more {
        let key = c.key()?;
        c.ws();
        c.eat(b':')?;
        c.ws();
        match key {
            "actions" if actions.is_none() => actions = Some(c.pair()?),
            "turn" if turn.is_none() => turn = Some(c.integer()?),
            _ => {
                let k = STATE_KEYS.iter().position(|s| *s == key)?;
                if state[k].is_some() {
                    return None;
                }
                state[k] = Some(c.value()?);
            }
        }
        c.ws();
        more = c.separator()?;
    }
    c.ws();
    if c.i != c.b.len() {
        return None;
    }
    Some(Scanned {
        actions: actions?,
        turn: turn?,
        state,
    })
}

const ACTIONS: &str = "{\"actions\":";
const TURN: &str = ",\"turn\":";

struct Cursor<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn eat(&mut self, want: u8) -> Option<()> {
        (self.next()? == want).then_some(())
    }

    /// After a field: `true` after a comma (another field follows), `false` after the closing
    /// brace.
    fn separator(&mut self) -> Option<bool> {
        match self.next()? {
            b',' => {
                self.ws();
                Some(true)
            }
            b'}' => Some(false),
            _ => None,
        }
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// A string without escapes or control characters, its content.
    fn key(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        loop {
            match self.next()? {
                b'"' => return self.text.get(start..self.i - 1),
                b'\\' | 0..0x20 => return None,
                _ => {}
            }
        }
    }

    /// `[A0,A1]`: the text of each.
    fn pair(&mut self) -> Option<[&'a str; 2]> {
        self.eat(b'[')?;
        self.ws();
        let a = self.value()?;
        self.ws();
        self.eat(b',')?;
        self.ws();
        let b = self.value()?;
        self.ws();
        self.eat(b']')?;
        Some([a, b])
    }

    /// A non-negative integer in plain digits (no sign, fraction or exponent).
    fn integer(&mut self) -> Option<u64> {
        let start = self.i;
        let mut n = 0u64;
        while let Some(d) = self.peek().filter(u8::is_ascii_digit) {
            n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
            self.i += 1;
        }
        let digits = self.i - start;
        if digits == 0 || (digits > 1 && self.b[start] == b'0') {
            return None;
        }
        if matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        Some(n)
    }

    /// The text of the value that starts here, found by its brackets and quotes without checking
    /// it (see [`scan`]).
    fn value(&mut self) -> Option<&'a str> {
        let start = self.i;
        // Most actions are `null`.
        if self.b[start..].starts_with(b"null")
            && matches!(
                self.b.get(start + 4),
                Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')
            )
        {
            self.i += 4;
            return self.text.get(start..self.i);
        }
        let mut depth = 0usize;
        loop {
            let c = self.peek()?;
            match c {
                b'"' => {
                    self.i += 1;
                    loop {
                        match self.next()? {
                            b'"' => break,
                            b'\\' => self.i += 1,
                            _ => {}
                        }
                    }
                }
                b'[' | b'{' => {
                    depth += 1;
                    self.i += 1;
                }
                b']' | b'}' if depth > 0 => {
                    depth -= 1;
                    self.i += 1;
                }
                // What ends a number or a word.
                b']' | b'}' | b',' | b':' | b' ' | b'\t' | b'\n' | b'\r' if depth == 0 => break,
                _ => self.i += 1,
            }
            if depth == 0 && matches!(c, b'"' | b']' | b'}') {
                break;
            }
        }
        self.text.get(start..self.i).filter(|t| !t.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usual_lines_are_read() {
        let s = scan(r#"{"actions":[{"action":"build","pos":30,"type":"turret"},null],"turn":1}"#)
            .unwrap();
        assert_eq!(
            s.actions,
            [r#"{"action":"build","pos":30,"type":"turret"}"#, "null"]
        );
        assert_eq!(s.turn, 1);
        assert!(!s.has_state());
        let s = scan(
            " { \"turn\" : 500 , \"actions\" : [ null , {\"a\":[1,-2.5e3,true,false,{}]} ],\
             \"players\":[{\"gold\":1}],\"boards\":[] } \r",
        )
        .unwrap();
        assert_eq!(s.actions, ["null", "{\"a\":[1,-2.5e3,true,false,{}]}"]);
        assert_eq!(s.turn, 500);
        assert_eq!(s.state[0], Some("[{\"gold\":1}]"));
        assert_eq!(s.state[1], Some("[]"));
        assert_eq!(s.state[2..], [None, None, None]);
        let s = scan(r#"{"actions":[7,"x"],"turn":0,"invader":{},"defender":{},"board":{}}"#);
        assert_eq!(
            s.map(|s| s.state),
            Some([None, None, Some("{}"), Some("{}"), Some("{}")])
        );
    }

    #[test]
    fn any_other_frame_is_left_to_serde() {
        for line in [
            "",
            "{}",
            "[]",
            r#"{"actions":[null,null]}"#,
            r#"{"turn":3}"#,
            r#"{"actions":null,"turn":0}"#,
            r#"{"actions":[null],"turn":3}"#,
            r#"{"actions":[null,null,null],"turn":3}"#,
            r#"{"actions":[null,null],"turn":3,"turn":3}"#,
            r#"{"actions":[null,null],"turn":3,"players":[],"players":[]}"#,
            r#"{"actions":[null,null],"turn":3,"extra":1}"#,
            r#"{"actions":[null,null],"turn":3.0}"#,
            r#"{"actions":[null,null],"turn":3e0}"#,
            r#"{"actions":[null,null],"turn":03}"#,
            r#"{"actions":[null,null],"turn":-3}"#,
            r#"{"actions":[null,null],"turn":"3"}"#,
            r#"{"actions":[null,null],"turn":99999999999999999999999}"#,
            r#"{"actions":[null,null],"turn":3} x"#,
            r#"{"actions":[null,null],"turn":3"#,
            r#"{"actions":[null,null],"turn":3,}"#,
            r#"{"actions":[null,null],"turn":3,"players":[1,2}"#,
            r#"{"actions":[null,null],"turn":3,"players":"1}"#,
            r#"{"actions":[,null],"turn":3}"#,
            r#"{"actions":[{"a":1},null]],"turn":3}"#,
            r#"{"act\u0069ons":[null,null],"turn":3}"#,
            "{\"actions\":[null,null],\"tu\trn\":3}",
        ] {
            assert_eq!(scan(line), None, "{line}");
        }
    }

    /// The values are found, not checked: the caller checks them.
    #[test]
    fn values_are_found_by_brackets_and_quotes() {
        for (value, found) in [
            ("nul", "nul"),
            ("null ", "null"),
            ("nullx", "nullx"),
            ("01", "01"),
            ("1 ", "1"),
            ("[1,]", "[1,]"),
            (r#"{"a"1}"#, r#"{"a"1}"#),
            (r#""a\"]b""#, r#""a\"]b""#),
            (r#"[{"x":"]}"}]"#, r#"[{"x":"]}"}]"#),
        ] {
            let line = format!(r#"{{"actions":[{value},null],"turn":1}}"#);
            assert_eq!(scan(&line).map(|s| s.actions[0]), Some(found), "{line}");
        }
    }

    #[test]
    fn what_is_read_is_what_serde_reads() {
        let line = r#"{"actions":[{"action":"spawn","hp":0,"x":[-0.5,1E+2,"é"]},null],"turn":12,"boards":[{"invaders":[[1,2,3,4,5,6]],"towers":[]}]}"#;
        let s = scan(line).unwrap();
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let text = |x: &str| serde_json::from_str::<serde_json::Value>(x).unwrap();
        assert_eq!(text(s.actions[0]), v["actions"][0]);
        assert_eq!(text(s.actions[1]), v["actions"][1]);
        assert_eq!(v["turn"], s.turn);
        assert_eq!(text(s.state[1].unwrap()), v["boards"]);
    }
}
