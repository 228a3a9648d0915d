//! The Pico's rotation is the boards' rotation and then Ants on an official map, which needs the
//! golden data at build time (firmware/build.rs): without it this test says so.

use arena_firmware::{Arcade, Entry, Lineup, PicoArcade, Visit};

struct Played;
impl Visit for Played {
    type Out = Option<(&'static str, &'static str, usize)>;
    fn visit<G: arena_firmware::Screen + arena_core::Roster>(
        self,
        entry: &Entry,
        _: &[arena_firmware::lineup::Pick<G>],
        _: &dyn Fn() -> Option<G::Params>,
    ) -> Self::Out {
        Some((G::NAME, entry.config, core::mem::size_of::<G>()))
    }
    fn skip(self, _: &Entry) -> Self::Out {
        None
    }
}

#[test]
fn the_pico_plays_the_rotation_then_ants_on_tutorial1() {
    assert_eq!(PicoArcade::LEN, Arcade::LEN + 1);
    for i in 0..Arcade::LEN {
        assert_eq!(
            PicoArcade::visit(i, Played).map(|p| (p.0, p.1)),
            Arcade::visit(i, Played).map(|p| (p.0, p.1))
        );
    }
    let last = PicoArcade::visit(Arcade::LEN, Played).unwrap_or_else(|| {
        panic!(
            "the official Ants map did not reach the firmware: is ../shared/golden (or ARENA_GOLDEN) \
             there at build time?"
        )
    });
    assert_eq!((last.0, last.1), ("ants", "tutorial1"));
    // The rotation wraps: match LEN plays entry 0 again.
    assert_eq!(
        PicoArcade::visit(PicoArcade::LEN, Played),
        PicoArcade::visit(0, Played)
    );
}
