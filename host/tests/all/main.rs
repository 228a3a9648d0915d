//! The host's integration tests, one module per subject, in one test binary: each test binary
//! links the whole host (HTTP server, image codecs and all), and one link instead of one per subject
//! was minutes of CI. Run one subject with `cargo test -p arena-host --test all SUBJECT::`.

mod ants_cli;
mod bad_input_cli;
mod ballroom_cli;
mod ballroom_reference;
mod bot_costs;
mod canvas;
mod closed_pipe;
mod colorfight_build_while_busy;
mod colorfight_rounding;
mod colorfight_serve;
mod colorfight_stalled;
mod common;
mod control_chars;
mod desktop;
mod docs;
mod game_folders;
mod hostile_bots;
mod json_bots_cli;
mod late_answers;
mod layers;
mod process;
mod readers;
mod registry;
mod render_cli;
mod reports;
mod sandbox_attacks;
mod sandbox_bots;
mod signals;
mod starters;
mod tournament_cli;
mod tournament_formats;
mod tournament_report;
mod tower_defense_cli;
mod turn_times;
mod verify_detect;
