//! Reading the decoded defmt log: `LEVEL message`, the message made of `key=value` words.

/// Starts `defmt-print` decoding `elf`'s frames from `frames` (as a probe-rs user sees them,
/// `LEVEL message`); the process and its decoded lines.
pub fn decode(
    elf: &std::path::Path,
    frames: impl Into<std::process::Stdio>,
) -> anyhow::Result<(std::process::Child, std::process::ChildStdout)> {
    use anyhow::Context;
    let mut print = std::process::Command::new("defmt-print")
        .args(["--log-format", "{L} {s}", "-e"])
        .arg(elf)
        .stdin(frames)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .context("cannot start defmt-print")?;
    let decoded = print.stdout.take().context("no defmt-print stdout")?;
    Ok((print, decoded))
}

/// The message of a decoded line (`INFO  digest m=0 ...` gives `digest m=0 ...`).
pub fn message(line: &str) -> &str {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some(("TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR", rest)) => rest.trim_start(),
        _ => line,
    }
}

/// The event word of a message (`digest`).
pub fn kind(line: &str) -> &str {
    message(line).split_whitespace().next().unwrap_or("")
}

/// The value of `key=` in a message, up to the next space.
pub fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    message(line)
        .split_whitespace()
        .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}

pub fn num<T: std::str::FromStr>(line: &str, key: &str) -> Option<T> {
    value(line, key).and_then(|v| v.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_decoded_lines() {
        let l = "INFO  digest m=3 t=20 d=123";
        assert_eq!(kind(l), "digest");
        assert_eq!(num::<u32>(l, "t"), Some(20));
        assert_eq!(num::<u64>(l, "d"), Some(123));
        assert_eq!(value(l, "x"), None);
        assert_eq!(message("ERROR panic: boom"), "panic: boom");
    }
}
