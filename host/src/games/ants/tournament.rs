//! The AI Challenge's format: many-player matches over a rotation of maps, ranked by TrueSkill.

use crate::tournament::{ratings, Format, MatchResult, Row};

/// Many-player matches, ranked by TrueSkill as the AI Challenge was (by mu - 3 sigma). Match
/// `i` is played on map `i mod maps` with as many bots as the map has players, drawn in a seeded
/// order so that every bot plays about as often (bots repeat only when a map has more players than
/// there are bots).
pub struct TrueSkillMatches {
    /// Per map, in rotation order: the players it takes (match `i` uses map `i mod maps`).
    pub map_players: Vec<usize>,
}

impl Format for TrueSkillMatches {
    fn name(&self) -> &'static str {
        "many-player matches, TrueSkill"
    }

    fn schedule(&self, bots: usize, games: usize, seed: u64) -> Option<Vec<Vec<usize>>> {
        if bots == 0 || self.map_players.is_empty() {
            return None;
        }
        let mut rng = arena_core::Rng::stream(seed, b"ants-seats");
        let mut deck: Vec<usize> = Vec::new();
        let mut out = Vec::new();
        for i in 0..games.max(1) * self.map_players.len() {
            let k = self.map_players[i % self.map_players.len()];
            let mut seats = Vec::with_capacity(k);
            while seats.len() < k {
                // Deal from a shuffled deck of every bot; a fresh deck when it runs out.
                if deck.is_empty() {
                    deck = (0..bots).collect();
                    rng.shuffle(&mut deck);
                }
                let b = deck.pop().unwrap_or(0);
                if !seats.contains(&b) || bots < k {
                    seats.push(b);
                } else {
                    deck.insert(0, b);
                }
            }
            out.push(seats);
        }
        Some(out)
    }

    fn standings(&self, bots: &[String], results: &[MatchResult]) -> Vec<Row> {
        let mut ratings = ratings(bots, results);
        ratings.sort_by(|a, b| b.conservative.total_cmp(&a.conservative));
        let wins = |name: &str| {
            results
                .iter()
                .filter(|m| {
                    m.rank.iter().filter(|&&r| r == 0).count() == 1
                        && m.seats
                            .iter()
                            .zip(&m.rank)
                            .any(|(&b, &r)| r == 0 && bots.get(b).map(String::as_str) == Some(name))
                })
                .count()
        };
        ratings
            .into_iter()
            .map(|r| Row {
                columns: vec![
                    ("mu-3sigma".into(), format!("{:.2}", r.conservative)),
                    ("matches".into(), r.matches.to_string()),
                    ("wins".into(), wins(&r.bot).to_string()),
                ],
                bot: r.bot,
            })
            .collect()
    }
}
