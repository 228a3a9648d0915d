//! `arena play <game>`: one match, its report, its replay.

use crate::cli::{flagged, GameCli, MatchArgs};
use crate::play::play;
use crate::record::Watch;
use crate::render::{Label, Watcher};
use clap::{ArgMatches, Args, Command, FromArgMatches};
use std::io::Write;

/// `arena play <game>`: the common options, then the game's own.
pub fn command<G: GameCli>() -> Command {
    // After the options: a derived struct's doc would otherwise stand for the game's.
    let cmd = G::PlayFlags::augment_args(MatchArgs::augment_args(Command::new(G::NAME)));
    crate::cli::time_limit_help::<G>(cmd).about(G::ABOUT)
}

/// `arena play <game>`: checks every bot can start, plays the match (watched if asked), prints the
/// report (as JSON with `--json`) and says where the replay went.
pub fn run<G: GameCli>(m: &ArgMatches) -> anyhow::Result<()> {
    let common = MatchArgs::from_arg_matches(m)?;
    let args = G::PlayFlags::from_arg_matches(m)?;
    let sandbox = common.sandbox.caps(
        &common.bots,
        &[
            ("--replay", common.replay.as_deref()),
            ("--bot-logs", common.bot_logs.as_deref()),
        ],
    )?;
    let plan = G::plan(&G::play_options(&args), &common.request(sandbox)).map_err(flagged)?;
    for (seat, bot) in plan.bots.iter().enumerate() {
        bot.check_start()
            .map_err(|why| anyhow::anyhow!("cannot start bot {seat} ({}): {why}", bot.label()))?;
    }
    let mut watcher = common.view.watching().then(|| {
        let label = Label::new(G::NAME, &plan.config, plan.seed, &plan.names);
        // With --json, stdout is for the report alone: the frames go to stderr.
        let out: Box<dyn Write> = if common.json {
            Box::new(std::io::stderr())
        } else {
            Box::new(crate::out::Stdout)
        };
        let every = common.view.every(&plan);
        let columns = crate::render::terminal_columns(common.json);
        Watcher::<G>::new(label, common.view.watch_fps, every, columns, out)
    });
    let played = play(
        &plan,
        common.replay.as_deref(),
        watcher.as_mut().map(|w| w as &mut dyn Watch<G>),
    )?;
    if common.json {
        crate::outln!("{}", played.report.json());
    } else {
        // Names and fault texts are the bots': no control character reaches the terminal.
        crate::out!(
            "{}",
            crate::out::escape_controls(&played.report.to_string())
        );
    }
    if let Some(path) = &common.replay {
        match played.write_error {
            Some(e) => crate::errln!("replay {}: write failed: {e}", path.display()),
            None => crate::errln!("replay written to {}", path.display()),
        }
    }
    Ok(())
}
