//! The integration, property and conformance tests over every game, one module per subject, in one
//! test binary: most subjects link the whole host (HTTP server, image codecs and all), and one link
//! instead of one per subject saves minutes of CI. One subject: `cargo test -p arena-tests --test all
//! SUBJECT::`.

mod ants_bots;
mod ants_golden;
mod ants_input;
mod ants_replay;
mod ballroom_bots;
mod ballroom_golden;
mod ballroom_log;
mod ballroom_protocol;
mod colorfight_attack_times;
mod colorfight_bots;
mod colorfight_invariants;
mod colorfight_trace;
mod mammut_bots;
mod mammut_props;
mod mammut_trace;
mod streaming;
mod suite;
mod tower_defense_bots;
mod tower_defense_codec;
mod tower_defense_decision_7;
mod tower_defense_golden;
