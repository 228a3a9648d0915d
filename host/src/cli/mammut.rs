//! `arena play mammut` and `arena tournament mammut`: the help (Mammut has no flags of its own).

use super::{GameCli, NoArgs};
use arena_core::games::mammut::Mammut;

impl GameCli for Mammut {
    const BOT_NOTES: &'static [&'static str] = &[
        "cautious: the best expected score, assuming the players still to act are greedy thieves",
        "greedy: takes or steals what scores most if the round ended now",
        "random: takes random tiles, or steals from a random player",
    ];

    const ABOUT: &'static str =
        "Mammut: five players take and steal tiles over five rounds (give five bots).";

    const REPLAY_ABOUT: &'static str =
        "A Mammut trace (JSON lines: header, then one line per action).";

    const TIME_LIMIT: &'static str = "5 s an answer";
    type PlayFlags = NoArgs;
    type TournamentFlags = NoArgs;

    fn play_options(_: &NoArgs) {}

    fn tournament_options(_: &NoArgs) {}
}
