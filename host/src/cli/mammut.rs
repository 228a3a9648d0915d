//! `arena play mammut` and `arena tournament mammut`: the help (Mammut has no flags of its own).

use super::NoArgs;
use arena_core::games::mammut::Mammut;

game_cli! {
    Mammut {
        play: |_: &NoArgs| (),
        tournament: |_: &NoArgs| (),
        about: "Mammut: five players take and steal tiles over five rounds (give five bots).",
        replay: "A Mammut trace (JSON lines: header, then one line per action).",
        time_limit: "5 s an answer",
        bots: [
            "cautious: the best expected score, assuming the players still to act are greedy thieves",
            "greedy: takes or steals what scores most if the round ended now",
            "random: takes random tiles, or steals from a random player",
        ],
    }
}
