//! The rotation of matches a board plays, over games of different types, without allocation.
//!
//! A lineup is a list of entries (game, configuration, bots), each a different `Game` type: instead
//! of boxing them, [`Lineup::visit`] hands entry `i` to a [`Visit`]or generic over the game, which
//! monomorphises the match loop once per game. The same lineup type runs on the board and on the
//! host, so both play the same matches.

use arena_core::Roster;

use crate::screen::Screen;

/// A game's bots and configuration label for one entry of a lineup.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The configuration label the screens print.
    pub config: &'static str,
    /// The bots' names, by seat.
    pub bots: &'static [&'static str],
}

/// Something done with one entry, whatever its game.
pub trait Visit {
    /// What the visit gives back.
    type Out;
    /// Does the visit with the entry's game `G`; `params` builds its params (a new copy each
    /// call, in the caller's frame: a board builds them where it sets the state up, and holds
    /// none while the match plays).
    fn visit<G: Screen + Roster>(
        self,
        entry: &Entry,
        params: &dyn Fn() -> Option<G::Params>,
    ) -> Self::Out;
    /// The entry's params could not be built (a map that does not parse): nothing to play.
    fn skip(self, entry: &Entry) -> Self::Out;
}

/// A fixed rotation of entries.
pub trait Lineup {
    /// How many entries; match `n` plays entry `n % LEN`.
    const LEN: usize;
    /// Hand entry `index % LEN` to `visitor`.
    fn visit<V: Visit>(index: usize, visitor: V) -> V::Out;
}

/// Lineup `A`, then lineup `B`: a board with more room plays a longer rotation.
pub struct Then<A, B>(core::marker::PhantomData<(A, B)>);

impl<A: Lineup, B: Lineup> Lineup for Then<A, B> {
    const LEN: usize = A::LEN.saturating_add(B::LEN);
    fn visit<V: Visit>(index: usize, visitor: V) -> V::Out {
        let index = index.checked_rem(Self::LEN).unwrap_or(0);
        match index.checked_sub(A::LEN) {
            None => A::visit(index, visitor),
            Some(i) => B::visit(i, visitor),
        }
    }
}

/// One entry of a lineup, out of line, its params handed on as the closure that builds them: built
/// here and held while the entry played, they were under every match's stack (tutorial1's map,
/// 2.4 KB; inlined into [`Lineup::visit`], every entry's params had room in one frame held for
/// the whole rotation: on the STM32F411, 4.9 KB in `main`). They are built twice, then: once in
/// the frame of `builds`, to know whether the entry plays or is skipped, and once to set it up.
#[doc(hidden)]
#[inline(never)]
pub fn play_entry<G: Screen + Roster, V: Visit>(
    entry: Entry,
    params: impl Fn() -> Option<G::Params>,
    visitor: V,
) -> V::Out {
    if builds(&params) {
        visitor.visit::<G>(&entry, &params)
    } else {
        visitor.skip(&entry)
    }
}

/// Whether the params build (a map that does not parse: no): out of line, so that the ones built
/// to find out are gone before the entry plays.
#[inline(never)]
fn builds<P>(params: &dyn Fn() -> Option<P>) -> bool {
    params().is_some()
}

/// A lineup as a table, one line an entry: `Game: "config", [bots], params_expr;` where
/// `params_expr` is an `Option<Game::Params>` (`None` when it cannot be built, a map that does not
/// parse, and the entry is skipped). The dispatch on the game is generated, so adding a game to the
/// rotation is one line here and nothing else.
#[macro_export]
macro_rules! lineup {
    ($(#[$doc:meta])* $vis:vis $name:ident { $($game:ty : $config:literal, [$($bot:literal),* $(,)?], $params:expr;)+ }) => {
        $(#[$doc])*
        $vis struct $name;

        impl $crate::lineup::Lineup for $name {
            const LEN: usize = [$($config),+].len();
            fn visit<V: $crate::lineup::Visit>(index: usize, visitor: V) -> V::Out {
                let index = index.checked_rem(Self::LEN).unwrap_or(0);
                let mut at = 0;
                $(
                    if index == at {
                        let entry = $crate::lineup::Entry { config: $config, bots: &[$($bot),*] };
                        return $crate::lineup::play_entry::<$game, V>(entry, || $params, visitor);
                    }
                    at = at.saturating_add(1);
                )+
                unreachable!("index {at} is reduced modulo LEN")
            }
        }
    };
}
