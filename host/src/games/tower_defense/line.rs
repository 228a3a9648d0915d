//! A trace line of the usual shape, read without building JSON: the text of its two actions, its
//! turn and the text of the state fields it has. Most lines of a long trace record no state, and
//! their actions repeat a few texts; reading them as text and handing the rare line of another
//! shape to serde_json keeps the re-play, not the parsing, the cost of a verify.
//!
//! [`scan`] is sound rather than complete: what it accepts is valid JSON with exactly the meaning
//! it reports; anything it is unsure of (escapes in strings, a turn that is not a plain integer, an
//! unknown or repeated key, deep nesting) is `None`, and the caller reads the line the slow way,
//! which also words any error.

/// The state fields a trace line may hold (Duel: `players`, `boards`; Siege: `invader`,
/// `defender`, `board`).
pub const STATE_KEYS: [&str; 5] = ["players", "boards", "invader", "defender", "board"];

/// What a line of the usual shape holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scanned<'a> {
    /// The JSON text of each seat's action.
    pub actions: [&'a str; 2],
    /// The turn, a plain integer.
    pub turn: u64,
    /// The JSON text of each state field present, in the order of [`STATE_KEYS`].
    pub state: [Option<&'a str>; 5],
}

impl Scanned<'_> {
    /// Whether the line records a state (any of its fields).
    pub fn has_state(&self) -> bool {
        self.state.iter().any(Option::is_some)
    }
}

/// Reads `{"actions":[A0,A1],"turn":T, state fields...}` (keys in any order, each once, nothing
/// else; JSON white space anywhere); `None` for any other line, valid JSON or not.
pub fn scan(text: &str) -> Option<Scanned<'_>> {
    let mut c = Cursor {
        text,
        b: text.as_bytes(),
        i: 0,
    };
    let mut actions = None;
    let mut turn = None;
    let mut state = [None; 5];
    c.ws();
    c.eat(b'{')?;
    c.ws();
    if c.peek()? == b'}' {
        return None;
    }
    loop {
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
                state[k] = Some(c.value(0)?);
            }
        }
        c.ws();
        match c.next()? {
            b',' => c.ws(),
            b'}' => break,
            _ => return None,
        }
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

/// Deeper values are left to serde_json (whose own limit is 128).
const DEPTH: usize = 64;

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
        let a = self.value(1)?;
        self.ws();
        self.eat(b',')?;
        self.ws();
        let b = self.value(1)?;
        self.ws();
        self.eat(b']')?;
        Some([a, b])
    }

    /// A non-negative integer in plain digits (no sign, fraction or exponent).
    fn integer(&mut self) -> Option<u64> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let digits = self.text.get(start..self.i)?;
        if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
            return None;
        }
        if matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        digits.parse().ok()
    }

    /// Any JSON value (strings without escapes), its text.
    fn value(&mut self, depth: usize) -> Option<&'a str> {
        if depth > DEPTH {
            return None;
        }
        let start = self.i;
        match self.peek()? {
            b'"' => {
                self.key()?;
            }
            b'{' => {
                self.i += 1;
                self.ws();
                if self.peek()? == b'}' {
                    self.i += 1;
                } else {
                    loop {
                        self.key()?;
                        self.ws();
                        self.eat(b':')?;
                        self.ws();
                        self.value(depth + 1)?;
                        self.ws();
                        match self.next()? {
                            b',' => self.ws(),
                            b'}' => break,
                            _ => return None,
                        }
                    }
                }
            }
            b'[' => {
                self.i += 1;
                self.ws();
                if self.peek()? == b']' {
                    self.i += 1;
                } else {
                    loop {
                        self.value(depth + 1)?;
                        self.ws();
                        match self.next()? {
                            b',' => self.ws(),
                            b']' => break,
                            _ => return None,
                        }
                    }
                }
            }
            b't' => self.word("true")?,
            b'f' => self.word("false")?,
            b'n' => self.word("null")?,
            _ => self.number()?,
        }
        self.text.get(start..self.i)
    }

    fn word(&mut self, w: &str) -> Option<()> {
        let end = self.i + w.len();
        (self.b.get(self.i..end)? == w.as_bytes()).then(|| self.i = end)
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        self.i - start
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            (self.digits() > 0).then_some(())?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            (self.digits() > 0).then_some(())?;
        }
        Some(())
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
        assert_eq!(s.map(|s| s.state), Some([None, None, Some("{}"), Some("{}"), Some("{}")]));
    }

    #[test]
    fn anything_else_is_left_to_serde() {
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
            r#"{"actions":[nul,null],"turn":3}"#,
            r#"{"actions":[01,null],"turn":3}"#,
            r#"{"actions":[1.,null],"turn":3}"#,
            r#"{"actions":[-,null],"turn":3}"#,
            r#"{"actions":[1e,null],"turn":3}"#,
            r#"{"actions":[[1,],null],"turn":3}"#,
            r#"{"actions":[{"a":1,},null],"turn":3}"#,
            r#"{"actions":[{"a"1},null],"turn":3}"#,
            r#"{"actions":["a\"b",null],"turn":3}"#,
            r#"{"act\u0069ons":[null,null],"turn":3}"#,
            "{\"actions\":[\"a\tb\",null],\"turn\":3}",
        ] {
            assert_eq!(scan(line), None, "{line}");
        }
        let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert_eq!(scan(&format!(r#"{{"actions":[{deep},null],"turn":1}}"#)), None);
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
