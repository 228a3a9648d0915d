//! The canonical JSON the page shows: the host's own codecs, compiled here from the very files
//! `arena` uses (`host/src/games/<game>/json.rs`), so a state in the viewer reads exactly as a
//! bot and `arena verify` see it. Those files depend on arena-core, serde and serde_json only,
//! and must stay so (this crate is in the workspace: a change that breaks that fails its build).

#[allow(dead_code)]
#[path = "../../src/games/ants/json.rs"]
pub mod ants;
#[allow(dead_code)]
#[path = "../../src/games/ballroom/json.rs"]
pub mod ballroom;
#[allow(dead_code)]
#[path = "../../src/games/colorfight/json.rs"]
pub mod colorfight;
#[allow(dead_code)]
#[path = "../../src/games/mammut/json.rs"]
pub mod mammut;
#[allow(dead_code)]
#[path = "../../src/games/tower_defense/json.rs"]
pub mod tower_defense;
