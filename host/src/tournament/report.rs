//! The tournament report (`arena tournament ... --report report.html`, `arena merge ... --report`):
//! one HTML page with nothing loaded from anywhere (its Content-Security-Policy forbids every
//! request and every script): the standings in the format's own order with the TrueSkill ratings,
//! the head-to-head matrix, each bot's rating after every match as an SVG plot, the faults by kind
//! and every match, linked to its replay (and to its viewer page when one is beside the replay).
//!
//! Everything comes from [`Results`], so a merge of shards writes the same page as a single run.
//! Every name is escaped: a bot may be called anything.

use super::{history, labels, time_totals, Faults, MatchResult, Results, Step};
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

/// Colours of the bots' lines and names, in the order of the standings (then again).
const COLOURS: &[&str] = &[
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:16px;background:#fff;color:#1c1e22}\
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:20px 0 6px}\
table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #e3e3e3;text-align:right}\
td.l,th.l{text-align:left}th{background:#f4f5f7}.muted{color:#6a717c}code{background:#f4f5f7;padding:0 3px}\
.h2h td{text-align:center;font-variant-numeric:tabular-nums}.self{background:#f4f5f7}\
svg text{font-size:11px;fill:#444}.grid{stroke:#e6e6e6}.axis{stroke:#888}\
.mu{fill:none;stroke-width:1.6}.cons{fill:none;stroke-width:1;stroke-dasharray:4 3}\
a,td.n{white-space:nowrap}.key span{display:inline-block;margin-right:14px}.key i{display:inline-block;width:18px;height:3px;vertical-align:middle;margin-right:4px}";

/// The report's page for `results`, written at `out` (links to replays are relative to its folder).
pub fn page(results: &Results, out: &Path) -> String {
    let shown = labels(entrants(results));
    // The standings' order, as entrant indices (a row names an entrant by its label).
    let order: Vec<usize> = results
        .standings
        .iter()
        .filter_map(|row| shown.iter().position(|s| *s == row.bot))
        .chain((0..shown.len()).filter(|i| !results.standings.iter().any(|r| r.bot == shown[*i])))
        .collect();
    let mut html = String::with_capacity(4096 + results.results.len() * 320);
    head(&mut html, results);
    standings(&mut html, results);
    head_to_head(&mut html, results, &shown, &order);
    plot(&mut html, results, &shown, &order);
    faults(&mut html, results, &shown, &order);
    times(&mut html, results, &shown, &order);
    matches(&mut html, results, &shown, out);
    html.push_str("</body>\n</html>\n");
    html
}

fn entrants(results: &Results) -> &[String] {
    if results.names.len() == results.bots.len() {
        &results.names
    } else {
        &results.bots
    }
}

/// `s` as HTML text or an attribute's value.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn colour(place: usize) -> &'static str {
    COLOURS[place % COLOURS.len()]
}

/// A table cell (`td` or `th`) with a bot's name in the colour of its place; `left`: aligned left
/// (`class="l"`), as the first column of a row.
fn name_cell(html: &mut String, tag: &str, left: bool, place: usize, name: &str) {
    let class = if left { " class=\"l\"" } else { "" };
    let _ = write!(
        html,
        "<{tag}{class} style=\"color:{}\">{}</{tag}>",
        colour(place),
        escape(name)
    );
}

fn head(html: &mut String, results: &Results) {
    let shard = results
        .shard
        .map(|(i, n)| format!(", shard {i}/{n}"))
        .unwrap_or_default();
    let title = format!("{} tournament ({})", results.game, results.format);
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <!-- Nothing may be loaded from anywhere, and nothing runs: the page is the whole report. -->\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n\
         <title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{t}</h1>\n\
         <div class=\"muted\">{} matches, {} entrants, seed {}, the schedule played {} time(s){}</div>\n",
        results.results.len(),
        results.bots.len(),
        results.seed,
        results.games,
        escape(&shard),
        t = escape(&title),
    );
}

fn standings(html: &mut String, results: &Results) {
    html.push_str(
        "<h2>Standings</h2>\n<table id=\"standings\">\n<tr><th>#</th><th class=\"l\">bot</th>",
    );
    let columns = results
        .standings
        .first()
        .map_or(&[][..], |r| &r.columns[..]);
    for (name, _) in columns {
        let _ = write!(html, "<th>{}</th>", escape(name));
    }
    html.push_str("<th>TrueSkill mu</th><th>sigma</th><th>mu &minus; 3 sigma</th></tr>\n");
    for (place, row) in results.standings.iter().enumerate() {
        let _ = write!(html, "<tr><td>{}</td>", place + 1);
        name_cell(html, "td", true, place, &row.bot);
        for (_, v) in &row.columns {
            let _ = write!(html, "<td>{}</td>", escape(v));
        }
        match results.ratings.iter().find(|r| r.bot == row.bot) {
            Some(r) => {
                let _ = writeln!(
                    html,
                    "<td>{:.2}</td><td>{:.2}</td><td>{:.2}</td></tr>",
                    r.mu, r.sigma, r.conservative
                );
            }
            None => html.push_str("<td></td><td></td><td></td></tr>\n"),
        }
    }
    html.push_str("</table>\n");
}

/// Wins, draws and losses of each entrant against each other: every pair of seats in a match
/// (a bot ranked above another won against it; the same rank is a draw).
pub fn matrix(n: usize, results: &[MatchResult]) -> Vec<Vec<[u32; 3]>> {
    let mut m = vec![vec![[0u32; 3]; n]; n];
    for r in results {
        for (i, &a) in r.seats.iter().enumerate() {
            for (j, &b) in r.seats.iter().enumerate() {
                let (Some(ra), Some(rb)) = (r.rank.get(i), r.rank.get(j)) else {
                    continue;
                };
                if i == j || a == b || a >= n || b >= n {
                    continue;
                }
                let k = match ra.cmp(rb) {
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Greater => 2,
                };
                m[a][b][k] += 1;
            }
        }
    }
    m
}

fn head_to_head(html: &mut String, results: &Results, shown: &[String], order: &[usize]) {
    let m = matrix(shown.len(), &results.results);
    html.push_str(
        "<h2>Head to head</h2>\n<p class=\"muted\">Wins&ndash;draws&ndash;losses of the row's bot \
         against the column's (in a match of more than two seats, against each other seat).</p>\n\
         <table id=\"h2h\" class=\"h2h\">\n<tr><th></th>",
    );
    for (place, &b) in order.iter().enumerate() {
        name_cell(html, "th", false, place, &shown[b]);
    }
    html.push_str("</tr>\n");
    for (place, &a) in order.iter().enumerate() {
        html.push_str("<tr>");
        name_cell(html, "th", true, place, &shown[a]);
        for &b in order {
            if a == b {
                html.push_str("<td class=\"self\">&ndash;</td>");
            } else {
                let [w, d, l] = m[a][b];
                let _ = write!(
                    html,
                    "<td data-w=\"{w}\" data-d=\"{d}\" data-l=\"{l}\">{w}&ndash;{d}&ndash;{l}</td>"
                );
            }
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</table>\n");
}

/// The plot's frame: its size and margins, in pixels.
const W: f64 = 960.0;
const H: f64 = 360.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 30.0;

/// Where a rating goes in the plot: x by the number of matches played so far, y by the value.
struct Scale {
    matches: usize,
    low: f64,
    high: f64,
}

impl Scale {
    fn x(&self, after: usize) -> f64 {
        LEFT + (W - LEFT - RIGHT) * after as f64 / self.matches.max(1) as f64
    }
    fn y(&self, v: f64) -> f64 {
        TOP + (H - TOP - BOTTOM) * (self.high - v) / (self.high - self.low).max(1e-9)
    }
}

/// A round step for about five ticks over `range`.
fn tick_step(range: f64) -> f64 {
    let raw = (range / 5.0).max(1e-9);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power)
}

fn plot(html: &mut String, results: &Results, shown: &[String], order: &[usize]) {
    let steps = history(shown.len(), &results.results);
    // Every bot starts at TrueSkill's prior: mu 25, sigma 25/3 (mu - 3 sigma = 0).
    let start: (f64, f64) = (25.0, 0.0);
    let values = steps.iter().flatten().flat_map(|s| [s.mu, s.conservative]);
    let (low, high) = values.fold((start.1, start.0), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let step = tick_step(high - low);
    let scale = Scale {
        matches: results.results.len(),
        low: (low / step).floor() * step,
        high: (high / step).ceil() * step,
    };
    html.push_str(
        "<h2>Ratings over the matches</h2>\n<p class=\"muted\">Each bot's TrueSkill mu (solid) and \
         mu &minus; 3 sigma (dashed) after every match it played, in schedule order.</p>\n<div class=\"key\">",
    );
    for (place, &b) in order.iter().enumerate() {
        let _ = write!(
            html,
            "<span><i style=\"background:{}\"></i>{}</span>",
            colour(place),
            escape(&shown[b])
        );
    }
    let _ = write!(
        html,
        "</div>\n<svg id=\"ratings\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\">\n"
    );
    axes(html, &scale, step);
    for (place, &b) in order.iter().enumerate() {
        let line = |value: fn(&Step) -> f64, first: f64| {
            let mut d = format!("M{:.1} {:.1}", scale.x(0), scale.y(first));
            for s in &steps[b] {
                let _ = write!(d, "L{:.1} {:.1}", scale.x(s.at + 1), scale.y(value(s)));
            }
            d
        };
        let name = escape(&shown[b]);
        let c = colour(place);
        let _ = write!(
            html,
            "<path class=\"mu\" stroke=\"{c}\" d=\"{}\"><title>{name}: mu</title></path>\n\
             <path class=\"cons\" stroke=\"{c}\" d=\"{}\"><title>{name}: mu - 3 sigma</title></path>\n",
            line(|s| s.mu, start.0),
            line(|s| s.conservative, start.1),
        );
    }
    html.push_str("</svg>\n");
}

fn axes(html: &mut String, scale: &Scale, step: f64) {
    let ticks = ((scale.high - scale.low) / step).round() as usize;
    for k in 0..=ticks {
        let v = ((scale.low + k as f64 * step) * 1000.0).round() / 1000.0;
        let y = scale.y(v);
        let _ = writeln!(
            html,
            "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v}</text>",
            W - RIGHT,
            LEFT - 4.0,
            y + 4.0,
        );
    }
    let n = scale.matches;
    let mut ticks: Vec<usize> = (0..=4).map(|k| n * k / 4).collect();
    ticks.dedup();
    for t in ticks {
        let x = scale.x(t);
        let _ = writeln!(
            html,
            "<line class=\"axis\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{t}</text>",
            H - BOTTOM,
            H - BOTTOM + 4.0,
            H - BOTTOM + 16.0,
        );
    }
    let _ = writeln!(
        html,
        "<line class=\"axis\" x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{b:.1}\" y2=\"{b:.1}\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">matches</text>",
        W - RIGHT,
        W - RIGHT,
        H - 2.0,
        b = H - BOTTOM,
    );
}

/// Each entrant's faults over the tournament and the matches it was disqualified from.
pub fn fault_totals(n: usize, results: &[MatchResult]) -> Vec<(Faults, u32)> {
    let mut t = vec![(Faults::default(), 0u32); n];
    for r in results {
        for (&b, f) in r.seats.iter().zip(&r.faults) {
            if let Some((total, dq)) = t.get_mut(b) {
                total.add(f);
                *dq += u32::from(f.disqualified);
            }
        }
    }
    t
}

fn faults(html: &mut String, results: &Results, shown: &[String], order: &[usize]) {
    let totals = fault_totals(shown.len(), &results.results);
    html.push_str(
        "<h2>Faults</h2>\n<table id=\"faults\">\n<tr><th class=\"l\">bot</th><th>time-outs</th>\
         <th>crashes</th><th>invalid</th><th>disqualified (matches)</th></tr>\n",
    );
    for (place, &b) in order.iter().enumerate() {
        let (f, dq) = totals[b];
        html.push_str("<tr>");
        name_cell(html, "td", true, place, &shown[b]);
        let _ = writeln!(
            html,
            "<td>{}</td><td>{}</td><td>{}</td><td>{dq}</td></tr>",
            f.timeouts, f.crashes, f.invalid,
        );
    }
    html.push_str("</table>\n");
}

/// Each entrant's time a turn over the tournament: wall and CPU, median, p99 and max.
fn times(html: &mut String, results: &Results, shown: &[String], order: &[usize]) {
    let totals = time_totals(shown.len(), &results.results);
    if totals.iter().all(|t| t.wall.turns == 0) {
        return;
    }
    html.push_str(
        "<h2>Time a turn</h2>\n<table id=\"times\">\n<tr><th class=\"l\">bot</th><th>turns</th>\
         <th>wall median</th><th>wall p99</th><th>wall max</th><th>CPU of</th><th>CPU median</th>\
         <th>CPU p99</th><th>CPU max</th></tr>\n",
    );
    use crate::turn_time::short;
    for (place, &b) in order.iter().enumerate() {
        let t = &totals[b];
        let (w, c) = (t.wall.stats(), t.cpu.stats());
        html.push_str("<tr>");
        name_cell(html, "td", true, place, &shown[b]);
        let _ = write!(
            html,
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            w.turns,
            short(w.median),
            short(w.p99),
            short(w.max)
        );
        let _ = match c.turns {
            0 => writeln!(html, "<td>-</td><td></td><td></td><td></td></tr>"),
            _ => writeln!(
                html,
                "<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                t.cpu_of.name(),
                short(c.median),
                short(c.p99),
                short(c.max)
            ),
        };
    }
    html.push_str(
        "</table>\n<p class=\"muted\">Measured on the machine that played the matches: a built-in \
         bot's CPU time is its thread's, an external bot's its processes'.</p>\n",
    );
}

fn matches(html: &mut String, results: &Results, shown: &[String], out: &Path) {
    let base = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let kept = results.results.iter().any(|r| r.replay.is_some());
    html.push_str("<h2>Matches</h2>\n");
    if kept {
        html.push_str(
            "<p class=\"muted\">A match's viewer page: <code>arena render REPLAY --out \
             match.html</code> (one already beside its replay is linked as <i>view</i>).</p>\n",
        );
    }
    html.push_str(
        "<table id=\"matches\">\n<tr><th>#</th><th>round</th><th class=\"l\">seats: bot (place, score)</th>\
         <th>turns</th><th class=\"l\">end</th><th>faults</th><th class=\"l\">replay</th></tr>\n",
    );
    for r in &results.results {
        let seats: Vec<String> = r
            .seats
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                let name = shown.get(b).map_or("?", String::as_str);
                let place = r.rank.get(i).map_or(0, |p| u32::from(*p) + 1);
                let score = r.score.get(i).copied().unwrap_or(0);
                format!("{} ({place}, {score})", escape(name))
            })
            .collect();
        let faults: u32 = r
            .faults
            .iter()
            .map(|f| f.timeouts + f.crashes + f.invalid)
            .sum();
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td class=\"l\">{}</td><td>{}</td><td class=\"l\">{}</td><td>{faults}</td><td class=\"l\">{}</td></tr>",
            r.index,
            r.round + 1,
            seats.join(", "),
            r.turns,
            escape(&r.reason),
            links(r.replay.as_deref(), base),
        );
    }
    html.push_str("</table>\n");
}

/// The links of a match: its viewer page if one is beside the replay, and the replay.
fn links(replay: Option<&Path>, base: &Path) -> String {
    let Some(replay) = replay else {
        return String::new();
    };
    let mut out = String::new();
    let page = replay.with_extension("html");
    if let Some(href) = page.is_file().then(|| relative(base, &page)).flatten() {
        let _ = write!(
            out,
            "<a class=\"view\" href=\"{}\">view</a> ",
            href_of(&href)
        );
    }
    match replay.is_file().then(|| relative(base, replay)).flatten() {
        Some(href) => {
            let _ = write!(
                out,
                "<a class=\"replay\" href=\"{}\">{}</a>",
                href_of(&href),
                escape(&file_name(replay))
            );
        }
        None => out.push_str(&escape(&replay.display().to_string())),
    }
    out
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
}

/// `to` relative to the folder `from` (both made absolute with the links they go through).
pub fn relative(from: &Path, to: &Path) -> Option<PathBuf> {
    let from = from.canonicalize().ok()?;
    let to = to.canonicalize().ok()?;
    let f: Vec<Component> = from.components().collect();
    let t: Vec<Component> = to.components().collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    Some(out)
}

/// A relative path as a URL: every byte but letters, digits, `-._~` and `/` percent-encoded.
fn href_of(p: &Path) -> String {
    let mut out = String::new();
    for b in p.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_and_hrefs_encoded() {
        assert_eq!(
            escape("<script>\"a\" & 'b'"),
            "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;"
        );
        assert_eq!(href_of(Path::new("../a b/#1.jsonl")), "../a%20b/%231.jsonl");
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(40.0), 10.0);
        assert_eq!(tick_step(7.0), 2.0);
    }
}
