//! Who holds the server's connection slots, so that idle or slow connections cannot lock working
//! clients out.
//!
//! A cap alone ([`super::MAX_CONNECTIONS`], closing newcomers once it is reached) let 300
//! connections that sent half a header and waited starve a real client: every slot was held for
//! the whole header deadline, and the client's connections were closed at once. So the cap
//! evicts instead of refusing: a connection is *idle* whenever no request of it is being answered
//! (it has not finished sending a request's headers and body yet, or it is kept alive between
//! requests, or its last answer is still waiting for it to read), and when a newcomer finds every
//! slot taken, the connection idle the longest is closed to make room. A connection with a request
//! in progress (an action waiting for its tick) is never evicted; a newcomer is refused only when
//! every slot has one.
//!
//! So a connection idle for a while goes before one that just connected: a client is evicted only
//! if as many newer connections as there are slots arrive before its request is read (under the
//! load test's 300 reconnecting half-open connections, about 870 evictions a second: a newcomer
//! has a quarter of a second to send its request, where a client sends it at once), while
//! connections that send half a header and wait go first, the oldest first.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use tokio::task::AbortHandle;

/// The open connections, by the order they were accepted in, and the counts the report gives.
pub struct Conns {
    most: usize,
    inner: Mutex<Inner>,
    /// Connections dropped for not reading their answers ([`super::stall`]).
    stalled: Arc<AtomicU64>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    open: BTreeMap<u64, Conn>,
    counts: Counts,
}

/// What the slots saw over the server's life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Connections accepted.
    pub accepted: u64,
    /// Connections closed to make room for a newcomer.
    pub evicted: u64,
    /// Newcomers closed at once: every slot had a request in progress.
    pub refused: u64,
    /// Connections dropped because an answer waited too long for them to read it.
    pub stalled: u64,
    /// The most connections open at once.
    pub peak: usize,
}

struct Conn {
    /// Since when it has had no request in progress; `None` while it has one.
    idle_since: Option<Instant>,
    /// Ends its task (which closes its socket); `None` until the task is spawned.
    abort: Option<AbortHandle>,
}

impl Conns {
    /// Slots for `most` connections.
    pub fn new(most: usize) -> Arc<Conns> {
        Arc::new(Conns {
            most,
            inner: Mutex::new(Inner::default()),
            stalled: Arc::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A slot for a connection just accepted, idle from now: free, or taken from the connection
    /// idle the longest (whose task is ended); `None` when every slot has a request in progress.
    pub fn admit(self: &Arc<Self>) -> Option<Slot> {
        let mut g = self.lock();
        if g.open.len() >= self.most {
            let oldest = g
                .open
                .iter()
                .filter_map(|(&id, c)| c.idle_since.map(|t| (t, id)))
                .min()
                .map(|(_, id)| id);
            let Some(id) = oldest else {
                g.counts.refused += 1;
                return None;
            };
            if let Some(abort) = g.open.remove(&id).and_then(|c| c.abort) {
                abort.abort();
            }
            g.counts.evicted += 1;
        }
        let id = g.next;
        g.next += 1;
        g.open.insert(
            id,
            Conn {
                idle_since: Some(Instant::now()),
                abort: None,
            },
        );
        g.counts.accepted += 1;
        g.counts.peak = g.counts.peak.max(g.open.len());
        Some(Slot {
            conns: self.clone(),
            id,
        })
    }

    /// What the slots saw so far.
    pub fn counts(&self) -> Counts {
        Counts {
            stalled: self.stalled.load(Ordering::Relaxed),
            ..self.lock().counts
        }
    }

    /// The count of connections dropped for not reading, for their streams to add to.
    pub fn stalled(&self) -> Arc<AtomicU64> {
        self.stalled.clone()
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().open.len()
    }
}

/// A connection's slot, given back when dropped (its task ended, or was ended by an eviction).
pub struct Slot {
    conns: Arc<Conns>,
    id: u64,
}

impl Slot {
    /// How an eviction ends the connection's task.
    pub fn on_evict(&self, abort: AbortHandle) {
        if let Some(c) = self.conns.lock().open.get_mut(&self.id) {
            c.abort = Some(abort);
        }
    }

    /// A request of this connection is being answered until the guard is dropped: it cannot be
    /// evicted meanwhile.
    pub fn busy(&self) -> Busy {
        self.set_idle(None);
        Busy {
            conns: self.conns.clone(),
            id: self.id,
        }
    }

    fn set_idle(&self, since: Option<Instant>) {
        set_idle(&self.conns, self.id, since);
    }
}

fn set_idle(conns: &Conns, id: u64, since: Option<Instant>) {
    if let Some(c) = conns.lock().open.get_mut(&id) {
        c.idle_since = since;
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.conns.lock().open.remove(&self.id);
    }
}

/// A request in progress (see [`Slot::busy`]).
pub struct Busy {
    conns: Arc<Conns>,
    id: u64,
}

impl Drop for Busy {
    fn drop(&mut self) {
        set_idle(&self.conns, self.id, Some(Instant::now()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_house_evicts_the_longest_idle_and_never_a_busy_one() {
        let conns = Conns::new(3);
        let a = conns.admit().unwrap();
        let b = conns.admit().unwrap();
        let c = conns.admit().unwrap();
        // `a` is answering a request, `b` went idle before `c` did.
        let working = a.busy();
        let b_busy = b.busy();
        let c_busy = c.busy();
        drop(b_busy);
        std::thread::sleep(std::time::Duration::from_millis(2));
        drop(c_busy);
        let d = conns.admit().unwrap();
        let open: Vec<u64> = conns.lock().open.keys().copied().collect();
        assert_eq!(open, [a.id, c.id, d.id], "b was idle the longest");
        assert_eq!(conns.counts().evicted, 1);
        // `b`'s task ends later and gives back nothing it no longer holds.
        drop(b);
        assert_eq!(conns.open(), 3);
        // Everybody busy: the newcomer is refused.
        let c_busy = c.busy();
        let d_busy = d.busy();
        assert!(conns.admit().is_none());
        assert_eq!(conns.counts().refused, 1);
        drop(working);
        let e = conns.admit().unwrap();
        assert_eq!(conns.counts().evicted, 2, "a, idle again, made room for e");
        assert!(!conns.lock().open.contains_key(&a.id));
        assert!(conns.lock().open.contains_key(&e.id));
        let counts = conns.counts();
        assert_eq!((counts.accepted, counts.peak), (5, 3));
        drop((c_busy, d_busy));
    }
}
