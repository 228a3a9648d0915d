//! How a game ended: ranks, scores and the reason, for any number of seats.

use crate::seat::{Seat, MAX_SEATS};

/// The result of a finished game.
///
/// `rank[s]` is 0 for the winner(s); seats that tie share a rank (standard competition ranking:
/// 0, 1, 1, 3). `score[s]` is the game's own score (life, points, turns lasted...), signed so that
/// every game fits. `reason` says why the game ended, in words a match report can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Outcome {
    pub seats: u8,
    pub rank: [u8; MAX_SEATS],
    pub score: [i64; MAX_SEATS],
    pub reason: &'static str,
}

impl Outcome {
    /// An outcome ranked by `score`, higher is better, ties sharing a rank.
    pub fn by_score(seats: usize, score: &[i64], reason: &'static str) -> Outcome {
        let n = seats.min(MAX_SEATS).min(score.len());
        let mut out = Outcome {
            seats: n as u8,
            rank: [0; MAX_SEATS],
            score: [0; MAX_SEATS],
            reason,
        };
        let score = score.get(..n).unwrap_or_default();
        for ((slot, rank), &mine) in out.score.iter_mut().zip(out.rank.iter_mut()).zip(score) {
            *slot = mine;
            *rank = score.iter().filter(|&&o| o > mine).count() as u8;
        }
        out
    }

    /// The single winner, or `None` for a shared first place (a draw).
    pub fn winner(&self) -> Option<Seat> {
        let mut firsts = self
            .ranks()
            .iter()
            .enumerate()
            .filter(|&(_, &r)| r == 0)
            .map(|(s, _)| s);
        match (firsts.next(), firsts.next()) {
            (Some(s), None) => Some(s),
            _ => None,
        }
    }

    pub fn is_draw(&self) -> bool {
        self.winner().is_none()
    }

    pub fn ranks(&self) -> &[u8] {
        self.rank.get(..self.seats as usize).unwrap_or_default()
    }

    pub fn scores(&self) -> &[i64] {
        self.score.get(..self.seats as usize).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_skip() {
        let o = Outcome::by_score(4, &[5, 9, 5, 1], "test");
        assert_eq!(o.ranks(), &[1, 0, 1, 3]);
        assert_eq!(o.winner(), Some(1));
        let d = Outcome::by_score(2, &[3, 3], "test");
        assert!(d.is_draw());
    }
}
