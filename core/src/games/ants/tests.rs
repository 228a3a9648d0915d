//! Unit tests: one per rule and decision of `rules/ants.md`.

use super::*;

#[test]
fn state_sizes() {
    assert_eq!(
        (
            core::mem::size_of::<Ants>(),
            core::mem::size_of::<AntsMcu>()
        ),
        (0, 0)
    );
}
