//! `arena render` and `arena play --watch` end to end: a Tower Defense match played by `arena play`,
//! drawn at every display size, compared pixel for pixel with the firmware's screen drawn directly.

use crate::common::{arg, golden, scratch, Arena};
use arena_core::games::tower_defense::{Params, TowerDefense, Variant};
use arena_core::Game;
use arena_firmware::screen::{draw_game, MatchLabel};
use arena_host::game::{Plan, Setup};
use arena_host::play::play;
use arena_host::process::Limits;
use arena_host::render::{image_of, Canvas, ToRgb};
use arena_host::seats::BotSpec;
use embedded_graphics::pixelcolor::{BinaryColor, Gray4, Rgb565};
use image::{AnimationDecoder, RgbImage};
use std::path::{Path, PathBuf};
use std::process::Output;

const SEED: u64 = 7;
const BOTS: [&str; 2] = ["strong", "random"];

/// `cmd`, with no $COLUMNS (whatever the shell running the tests exported).
fn arena(cmd: &Arena) -> Output {
    arena_in(cmd, None)
}

/// `cmd` with $COLUMNS set to `columns` (`None`: unset).
fn arena_in(cmd: &Arena, columns: Option<&str>) -> Output {
    let mut command = cmd.command();
    command.env_remove("COLUMNS");
    if let Some(c) = columns {
        command.env("COLUMNS", c);
    }
    command.output().expect("arena runs")
}

fn ok(cmd: &Arena) -> String {
    ok_in(cmd, None)
}

fn ok_in(cmd: &Arena, columns: Option<&str>) -> String {
    let out = arena_in(cmd, columns);
    assert!(
        out.status.success(),
        "{cmd} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `arena render FILE OPTIONS... --out OUT`, which must succeed: what it printed.
fn render(file: &str, options: &[&str], out: &Path) -> String {
    ok(&Arena::new(&["render", file])
        .args(options)
        .file("--out", out))
}

/// A Duel trace written by `arena play`.
fn trace(dir: &Path) -> PathBuf {
    let path = dir.join("td.jsonl");
    let seed = SEED.to_string();
    ok(&Arena::play("tower-defense")
        .args(&["--seed", &seed])
        .bots(&BOTS)
        .replay(&path));
    path
}

/// The displays, their sizes and the scale `arena render` uses by default.
const DISPLAYS: [(&str, u32, u32, u32); 4] = [
    ("oled128x64", 128, 64, 4),
    ("gray128x64", 128, 64, 4),
    ("rgb240x240", 240, 240, 1),
    ("desktop", 960, 600, 1),
];

/// The same match played here, stopped after `turns` turns.
fn state_after(turns: u64) -> TowerDefense {
    let specs: Vec<BotSpec> = BOTS
        .iter()
        .map(|b| BotSpec::Builtin(b.to_string()))
        .collect();
    let setup = Setup::new(
        Params {
            variant: Variant::Duel,
        },
        2,
        "duel",
    );
    let mut plan = Plan::<TowerDefense>::new(setup, SEED, specs, Limits::default());
    plan.max_turns = Some(turns);
    *play(&plan, None, None).unwrap().game
}

fn draw<C: ToRgb>(w: u32, h: u32, scale: u32, g: &TowerDefense) -> RgbImage {
    let label = MatchLabel {
        number: 0,
        game: "tower-defense",
        config: "duel",
        seed: SEED,
        bots: &BOTS,
    };
    let mut canvas = Canvas::<C>::new(w, h);
    draw_game(g, &label, &mut canvas).unwrap();
    image_of(&canvas.picture(), scale)
}

/// `g`'s screen drawn directly on a canvas of display `name`.
fn direct(name: &str, g: &TowerDefense) -> RgbImage {
    match name {
        "oled128x64" => draw::<BinaryColor>(128, 64, 4, g),
        "gray128x64" => draw::<Gray4>(128, 64, 4, g),
        "rgb240x240" => draw::<Rgb565>(240, 240, 1, g),
        "desktop" => draw::<Rgb565>(960, 600, 1, g),
        _ => unreachable!(),
    }
}

#[test]
fn png_of_a_turn_is_the_firmware_screen_of_that_turn_at_every_display() {
    let dir = tempfile::tempdir().unwrap();
    let trace = trace(dir.path());
    let turn = 120u32;
    let expected_state = state_after(turn.into());
    assert_eq!(expected_state.turn(), turn);
    for (name, w, h, scale) in DISPLAYS {
        let out = dir.path().join(format!("{name}.png"));
        let options = ["--display", name, "--turn", &turn.to_string()];
        let said = render(arg(&trace), &options, &out);
        assert!(said.contains("turn 120"), "{said}");
        let png = image::open(&out).unwrap().into_rgb8();
        assert_eq!(png.dimensions(), (w * scale, h * scale), "{name}");
        let want = direct(name, &expected_state);
        assert!(png == want, "{name}: the PNG differs from draw_game");
        // Another turn is another picture.
        let other = direct(name, &state_after(30));
        assert!(png != other, "{name}: turns 30 and 120 look the same");
    }
}

#[test]
fn scale_changes_the_picture_size_only() {
    let dir = tempfile::tempdir().unwrap();
    let trace = trace(dir.path());
    let out = dir.path().join("s.png");
    render(arg(&trace), &["--turn", "40", "--scale", "1"], &out);
    let png = image::open(&out).unwrap().into_rgb8();
    assert_eq!(png.dimensions(), (128, 64));
    assert!(png == draw::<Gray4>(128, 64, 1, &state_after(40)));
}

fn gif_frames(path: &Path) -> Vec<image::RgbaImage> {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let decoder = image::codecs::gif::GifDecoder::new(file).unwrap();
    decoder
        .into_frames()
        .collect_frames()
        .unwrap()
        .into_iter()
        .map(|f| f.into_buffer())
        .collect()
}

#[test]
fn gif_shows_the_match_at_every_display_and_ends_on_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let trace = trace(dir.path());
    let text = std::fs::read_to_string(&trace).unwrap();
    let turns = text.lines().count() as u32 - 2;
    let every = 100u32;
    for (name, w, h, scale) in DISPLAYS {
        let out = dir.path().join(format!("{name}.gif"));
        let options = [
            "--display",
            name,
            "--every",
            &every.to_string(),
            "--delay",
            "40",
        ];
        render(arg(&trace), &options, &out);
        let frames = gif_frames(&out);
        // Turns 0, 100, ..., the last turn if not on the grid, and the result.
        let drawn = turns / every + 1 + u32::from(!turns.is_multiple_of(every));
        assert_eq!(frames.len() as u32, drawn + 1, "{name}");
        for f in &frames {
            assert_eq!(f.dimensions(), (w * scale, h * scale), "{name}");
        }
        for pair in frames.windows(2) {
            assert!(pair[0] != pair[1], "{name}: two frames in a row are equal");
        }
        // The first frame is turn 0, drawn losslessly (fewer than 256 colours).
        let first = image::DynamicImage::ImageRgba8(frames[0].clone()).into_rgb8();
        assert!(first == direct(name, &state_after(0)), "{name}: frame 0");
        let second = image::DynamicImage::ImageRgba8(frames[1].clone()).into_rgb8();
        assert!(second == direct(name, &state_after(every.into())), "{name}");
    }
}

#[test]
fn default_every_keeps_a_gif_within_a_few_hundred_frames() {
    let dir = tempfile::tempdir().unwrap();
    let trace = trace(dir.path());
    let out = dir.path().join("d.gif");
    render(arg(&trace), &["--scale", "1"], &out);
    let n = gif_frames(&out).len();
    assert!((3..=302).contains(&n), "{n} frames");
}

fn fails(args: &[&str], needle: &str) {
    let out = arena(&Arena::new(args));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "arena {args:?} should fail");
    assert!(err.contains(needle), "arena {args:?}: {err}");
}

#[test]
fn unreadable_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    let out = d("x.gif");
    fails(
        &["render", &d("missing.jsonl"), "--out", &out],
        "cannot read",
    );
    std::fs::write(d("garbage.jsonl"), "hello\n").unwrap();
    fails(
        &["render", &d("garbage.jsonl"), "--out", &out],
        "line 1: not JSON",
    );
    std::fs::write(d("chess.jsonl"), "{\"game\":\"chess\"}\n").unwrap();
    fails(
        &["render", &d("chess.jsonl"), "--out", &out],
        "unknown game \"chess\"",
    );
    // A real trace broken on its fourth line.
    let trace = trace(dir.path());
    let text = std::fs::read_to_string(&trace).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3] = "{\"actions\":[null]}";
    std::fs::write(d("broken.jsonl"), lines.join("\n")).unwrap();
    fails(&["render", &d("broken.jsonl"), "--out", &out], "line 4");
    let t = trace.to_str().unwrap();
    fails(
        &["render", t, "--turn", "999999", "--out", &d("x.png")],
        "never reaches turn 999999",
    );
    fails(&["render", t, "--out", &d("x.bmp")], ".gif");
    fails(&["render", t, "--turn", "3", "--out", &out], "give a .png");
}

/// A 60-turn Duel, seeded `seed`.
fn duel_60(seed: &str) -> [&str; 6] {
    ["play", "tower-defense", "--seed", seed, "--max-turns", "60"]
}

/// The report of [`duel_60`], then the same match watched (every 20th turn and the result: 5
/// frames) with $COLUMNS at `columns`.
fn watched_duel(columns: Option<&str>) -> (String, String) {
    let seed = SEED.to_string();
    let base = duel_60(&seed);
    let mut args = base.to_vec();
    args.extend(["--watch", "--watch-fps", "1000", "--watch-every", "20"]);
    (
        untimed(&ok(&Arena::new(&base))),
        untimed(&ok_in(&Arena::new(&args), columns)),
    )
}

/// `report` without its seats' `time a turn:` lines: measured, they differ from run to run.
fn untimed(report: &str) -> String {
    report
        .split_inclusive('\n')
        .filter(|line| !line.trim_start().starts_with("time a turn:"))
        .collect()
}

#[test]
fn watch_draws_frames_in_place_and_only_when_asked() {
    let seed = SEED.to_string();
    let base = duel_60(&seed);
    let (plain, watched) = watched_duel(Some("128"));
    assert!(!plain.contains('\u{1b}'), "no escape codes without --watch");
    // Turn 0, 20, 40, 60 and the result screen: 5 frames of 32 rows of 128 half blocks.
    assert_eq!(watched.matches('\u{2580}').count(), 5 * 32 * 128);
    assert_eq!(watched.matches("\u{1b}[32A").count(), 4, "redrawn in place");
    assert!(watched.ends_with(&plain), "the report follows the frames");
    // With --json, stdout stays JSON and the frames go to stderr.
    let mut args = base.to_vec();
    args.extend([
        "--json",
        "--watch",
        "--watch-every",
        "30",
        "--watch-fps",
        "1000",
    ]);
    let out = arena_in(&Arena::new(&args), Some("128"));
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["turns"], 60);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches('\u{2580}').count(), 4 * 32 * 128);
    // `auto` draws only on a terminal; the test's stdout is a pipe.
    let mut args = base.to_vec();
    args.extend(["--watch", "auto"]);
    assert_eq!(untimed(&ok(&Arena::new(&args))), plain);
}

/// `text` as the terminal shows it: without its ANSI escape sequences (`ESC [ ... letter`) and
/// carriage returns (they take no column).
fn visible(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(|c| c.is_ascii_alphabetic());
        } else if c != '\r' {
            out.push(c);
        }
    }
    out
}

/// The frames of [`watched_duel`] with $COLUMNS at `columns`: the widest line and the number of
/// rows of a frame.
fn watched_frames(columns: Option<&str>) -> (usize, usize) {
    let (plain, watched) = watched_duel(columns);
    let frames = watched
        .strip_suffix(&plain)
        .expect("the report follows the frames");
    let lines = visible(frames);
    let widest = lines.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    (widest, lines.lines().count() / 5)
}

/// At 80 columns the 128-pixel screen wrapped and smeared: it is shrunk to the width the terminal
/// has ($COLUMNS, else 80 for a pipe), keeping its shape; a wider terminal shows it as it is.
#[test]
fn watch_fits_the_terminal_it_runs_in() {
    assert_eq!(watched_frames(Some("80")), (80, 20));
    assert_eq!(
        watched_frames(None),
        (80, 20),
        "a pipe counts as 80 columns"
    );
    assert_eq!(watched_frames(Some("not a number")), (80, 20));
    assert_eq!(watched_frames(Some("100")), (100, 25));
    assert_eq!(watched_frames(Some("300")), (128, 32));
    assert_eq!(watched_frames(Some("1")), (1, 1));
}

/// ColorFight's default match (12,000 ticks) took 10 minutes to watch at the default 20 frames a
/// second: by default it shows in about a minute, and --watch-every still decides when given.
#[test]
fn colorfight_is_watched_in_about_a_minute_by_default() {
    use arena_core::games::colorfight::ColorFight;
    use arena_host::cli::{GameCli, MatchArgs};
    use arena_host::setup::GameSetup;
    use clap::FromArgMatches;
    let plan_of = |args: &[&str]| {
        let m = arena_host::commands::play::command::<ColorFight>()
            .try_get_matches_from(args)
            .unwrap();
        let common = MatchArgs::from_arg_matches(&m).unwrap();
        let args = <ColorFight as GameCli>::PlayFlags::from_arg_matches(&m).unwrap();
        let options = ColorFight::play_options(&args);
        let plan = <ColorFight as GameSetup>::plan(&options, &common.request(None)).unwrap();
        let every = common.view.every(&plan);
        let ticks = u64::from(plan.params.ticks).min(plan.max_turns.unwrap_or(u64::MAX));
        let seconds = ticks.div_ceil(u64::from(every)) / u64::from(common.view.watch_fps);
        (every, seconds)
    };
    let (every, seconds) = plan_of(&["colorfight", "--watch"]);
    assert!(every > 1 && (50..=70).contains(&seconds), "{seconds} s");
    let (_, seconds) = plan_of(&["colorfight", "--watch", "--watch-fps", "5"]);
    assert!((50..=70).contains(&seconds), "{seconds} s at 5 fps");
    let (_, seconds) = plan_of(&["colorfight", "--watch", "--max-turns", "1200"]);
    assert!((50..=70).contains(&seconds), "{seconds} s for 1,200 ticks");
    assert_eq!(plan_of(&["colorfight", "--watch-every", "3"]).0, 3);
}

#[test]
fn a_colorfight_trace_from_arena_play_renders_too() {
    let (dir, trace) = scratch("cf.jsonl");
    let t = trace.to_str().unwrap();
    // Seed 3 has gold that a lossy float parse reads 1 ULP off at tick 19.
    ok(&Arena::play("colorfight")
        .args(&["--seed", "3", "--ticks", "120"])
        .replay(&trace));
    ok(&Arena::verify("colorfight", &trace));
    let png = |turn: &str| {
        let out = dir.path().join(format!("cf{turn}.png"));
        render(t, &["--turn", turn, "--display", "desktop"], &out);
        image::open(&out).unwrap().into_rgb8()
    };
    let (start, end) = (png("0"), png("120"));
    assert_eq!(start.dimensions(), (960, 600));
    assert!(start != end);
    let gif = dir.path().join("cf.gif");
    render(t, &["--every", "40"], &gif);
    let frames = gif_frames(&gif);
    // Ticks 0, 40, 80, 120, then the result.
    assert_eq!(frames.len(), 5);
    assert_eq!(frames[0].dimensions(), (512, 256));
}

#[test]
fn mammut_and_ballroom_replays_are_read_and_drawn() {
    use arena_host::replay::{Head, ReplayContext};
    use arena_host::Record;
    let detect = |text: &str| {
        let named = |h: Head| arena_host::games::detect(&h).map(|g| g.name);
        Head::read(text.as_bytes()).map(|h| named(h).map_err(|e| e.to_string()))
    };
    let ctx = ReplayContext::default();
    let (dir, m) = scratch("m.jsonl");
    let b = dir.path().join("b.json");
    for (game, file) in [("mammut", &m), ("ballroom", &b)] {
        ok(&Arena::play(game).args(&["--seed", "2"]).replay(file));
    }

    let text = std::fs::read_to_string(&m).unwrap();
    assert_eq!(detect(&text), Ok(Ok("mammut")));
    let (mut states, mut last) = (0u64, None);
    arena_core::games::mammut::Mammut::replay(
        &mut text.as_bytes(),
        &ctx,
        &mut |g: &arena_core::games::mammut::Mammut| {
            states += 1;
            last = Some(g.turn());
        },
    )
    .unwrap();
    let steps = text.lines().count() as u64 - 1;
    assert_eq!(states, steps + 1, "the first state, then one per step");
    assert_eq!(last, Some(steps as u32));

    let text = std::fs::read_to_string(&b).unwrap();
    assert_eq!(detect(&text), Ok(Ok("ballroom")));
    let mut turns = Vec::new();
    let verified = arena_core::games::ballroom::Ballroom::replay(
        &mut text.as_bytes(),
        &ctx,
        &mut |g: &arena_core::games::ballroom::Ballroom| turns.push(g.turn()),
    )
    .unwrap();
    assert_eq!(
        turns.len(),
        1 + 100 * 4,
        "the start, then four phases a turn"
    );
    assert_eq!(turns.last(), Some(&100));
    assert_eq!(verified.meta.bots.len(), 4);
    // A ruleset the game does not know is refused, not taken for the default.
    let unknown = ReplayContext {
        ruleset: Some("written".into()),
        ..ReplayContext::default()
    };
    let refused = arena_core::games::ballroom::Ballroom::replay(
        &mut text.as_bytes(),
        &unknown,
        &mut |_: &arena_core::games::ballroom::Ballroom| {},
    )
    .unwrap_err();
    assert!(refused.to_string().contains("ruleset written"), "{refused}");

    // Both draw through their board screens, as a GIF and as one frame.
    for file in [&m, &b] {
        let gif = dir.path().join("x.gif");
        render(arg(file), &[], &gif);
        let frames = gif_frames(&gif);
        assert!(frames.len() > 10, "{} frames", frames.len());
        assert!(frames.windows(2).any(|w| w[0] != w[1]));
        let png = dir.path().join("x.png");
        render(arg(file), &["--turn", "3"], &png);
        let img = image::open(&png).unwrap();
        assert_eq!((img.width(), img.height()), (512, 256));
    }
    // And both can be watched live.
    let watched =
        ok(&Arena::play("mammut").args(&["--seed", "1", "--watch", "--watch-fps", "1000"]));
    assert!(watched.contains('\u{2580}'), "no half blocks drawn");
}

#[test]
fn ants_replays_render_on_their_map_and_ants_can_be_watched() {
    let game = golden("ants").join("tut_hunter_greedy_s7");
    assert!(game.is_dir(), "golden data not found at {}", game.display());
    let (replay, map) = (game.join("replay.json"), game.join("map.map"));
    let (replay, map) = (replay.to_str().unwrap(), map.to_str().unwrap());
    let (dir, gif) = scratch("a.gif");
    render(replay, &["--map", map], &gif);
    let frames = gif_frames(&gif);
    // 128 turns: the start, every turn, then the result screen.
    assert_eq!(frames.len(), 130);
    assert!(frames.windows(2).any(|w| w[0] != w[1]));
    let png = dir.path().join("a.png");
    render(replay, &["--map", map, "--turn", "60"], &png);
    // The replay holds its map: without --map, the same picture.
    let own = dir.path().join("own.png");
    render(replay, &["--turn", "60"], &own);
    assert_eq!(std::fs::read(&own).unwrap(), std::fs::read(&png).unwrap());
    let watched = ok(
        &crate::common::ants_on(Path::new(map), &["hold", "hunter"]).args(&[
            "--turns",
            "20",
            "--engine-seed",
            "1",
            "--watch",
            "--watch-fps",
            "1000",
        ]),
    );
    assert!(watched.contains('\u{2580}'), "no half blocks drawn");
}
