//! Folding quiet screens away: hot, then frozen, then cold.
//!
//! A screen is *hot* while its program writes or someone reads it: rows packed one by one,
//! cheap to change. After [`FREEZE_AFTER_MS`] without output or readers it is *frozen*: the
//! terminal folds every row into one byte chunk (`Terminal::freeze`), which drops the rows'
//! headers and allocations. After [`cold::COLD_AFTER_MS`] frozen it is *cold*: the chunk is
//! compressed into the cold store (see `cold`) and leaves the heap. [`Engine::with_pane`]
//! brings a cold screen back, frozen, before anything touches the pane; a frozen terminal
//! thaws itself on its first change (output, keys, a resize), and readers of its rows decode
//! it without thawing it. Readers that need no rows (`list-panes -F '#{pane_pid}'`) leave a
//! cold screen in the store.
//!
//! A hot screen quiet for a batch interval seals the history lines frozen since it last did,
//! if enough wait (`Terminal::seal_history`), without waiting to freeze; the screens sealed in
//! one pass share one compression context (`Compressor`).
//!
//! A screen that thaws soon after freezing waits twice as long next time, up to
//! [`FREEZE_AFTER_MAX_MS`], so sessions that print every second or two do not freeze and thaw
//! over and over; one that stays frozen goes back to the short wait.
//!
//! Checks happen at the batch boundaries (`reads`), so freezing costs no wakeups of its own
//! while anything is hot; cold moves have their own deadline, and at most
//! [`COLD_PUTS_PER_TURN`] start in one turn, none after its first 10 ms.
//!
//! Invariants: every pane whose terminal is not frozen is in `hot` (`Fold::listed_hot`); a
//! pane's cold chunk is in the store exactly while `Fold::cold` holds its place, and is freed
//! when the pane is dropped; `frozen` is ordered by freezing time (entries may be stale: they
//! are checked against the pane).

use super::cold::{ColdRef, COLD_AFTER_MS};
use super::pane::Pane;
use super::reads::BATCH_INTERVAL_MS;
use super::Engine;
use crate::term::Compressor;
use std::collections::VecDeque;

/// Quiet time before a screen freezes, at first.
pub const FREEZE_AFTER_MS: u64 = 250;

/// The longest a screen that keeps thawing waits before it freezes: a program that writes a
/// frame every second stays hot. At 800 ms its screen froze about 200 ms before each frame
/// thawed it, a thaw and a freeze a frame for 15% of the server's samples (`perf`, redraw 200);
/// at 2 s, against 800 ms, alternated (`BASE=... ROUNDS=2 bench/scale.sh redraw 200 400`, and
/// `clear cast 200`): redraw 400 2.9% of a core against 3.6%, clear 200 2.3% against 2.6% and
/// 13% less memory (a screen that never froze holds less than one thawed each second), cast 200
/// the same.
pub const FREEZE_AFTER_MAX_MS: u64 = 2_000;

/// A thaw this soon after freezing counts as freezing too early.
const EARLY_THAW_MS: u64 = 2_000;

/// Screens moved into the cold store in one turn at most, and the milliseconds after which a
/// turn starts no more. A put compresses a screen alone and against each of the store's
/// references and candidates (`examples/cold_store`: 40 to 240 us for an agent screen like one
/// before, several times that for a large screen unlike every one it is tried against), so a
/// thousand screens going cold together are spread over turns, with commands answered between
/// them; the rest are due at once.
pub const COLD_PUTS_PER_TURN: usize = 32;
const COLD_PUTS_MS: u64 = 10;

/// A pane's place in the hot, frozen, cold cycle.
#[derive(Debug)]
pub struct Fold {
    /// When the pane was last touched (output, a reader, keys), monotonic ms.
    pub active_at: u64,
    /// Quiet time before it freezes (ms).
    pub freeze_after: u64,
    /// When it froze, while it is frozen or cold.
    pub frozen_at: Option<u64>,
    /// Its chunk's place in the cold store, while it is cold.
    pub cold: Option<ColdRef>,
    /// The pane is in the freezer's hot list.
    pub listed_hot: bool,
}

impl Default for Fold {
    fn default() -> Self {
        Fold {
            active_at: 0,
            freeze_after: FREEZE_AFTER_MS,
            frozen_at: None,
            cold: None,
            listed_hot: false,
        }
    }
}

impl Fold {
    /// `hot`, `frozen` or `cold` (for `#{pane_memory_state}`).
    pub fn state_name(&self, frozen: bool) -> &'static str {
        match (self.cold.is_some(), frozen) {
            (true, _) => "cold",
            (false, true) => "frozen",
            (false, false) => "hot",
        }
    }
}

#[derive(Default)]
pub struct Freezer {
    /// Panes with expanded screens (may list gone or frozen panes).
    hot: Vec<u32>,
    /// Frozen panes in the order they froze, with when.
    frozen: VecDeque<(u32, u64)>,
    /// The batch interval whose hot screens were last looked at (monotonic ms / interval).
    looked_in: u64,
}

impl Freezer {
    /// When the freezer next has work: the next batch boundary while a screen is hot, and the
    /// oldest frozen screen's move to the cold store.
    pub fn deadline(&self, now: u64) -> Option<u64> {
        let boundary =
            (!self.hot.is_empty()).then(|| (now / BATCH_INTERVAL_MS + 1) * BATCH_INTERVAL_MS);
        let cold = self.frozen.front().map(|&(_, t)| t + COLD_AFTER_MS);
        boundary.into_iter().chain(cold).min()
    }
}

impl Engine {
    /// Before a pane is touched: a cold screen comes back from the store, frozen (it thaws
    /// if it is changed, and goes cold again after another quiet spell).
    pub(super) fn warm(pane: &mut Pane, store: &mut super::cold::ColdStore) {
        let Some(at) = pane.fold.cold.take() else {
            return;
        };
        pane.fold.frozen_at = None;
        match store.take(at) {
            Ok(chunk) => pane.term.restore_frozen(chunk),
            // The store's file failed to give back what it took: the screen cannot be
            // recovered, so the pane goes on with an empty one rather than none.
            Err(_) => pane.term.discard_cold(),
        }
    }

    /// After a pane was touched: it is active now, and a screen that thawed is hot again.
    pub(super) fn after_touch(&mut self, pane_id: u32, pane_place: (usize, usize), now: u64) {
        let pane = &mut self.sessions[pane_place.0].windows[pane_place.1].pane;
        let fold = &mut pane.fold;
        fold.active_at = now;
        if pane.term.is_frozen() && fold.frozen_at.is_none() {
            // Back from the cold store and still frozen: it goes cold again in its turn.
            fold.frozen_at = Some(now);
            self.freezer.frozen.push_back((pane_id, now));
        }
        if fold.listed_hot || pane.term.is_frozen() {
            return;
        }
        if let Some(frozen_at) = fold.frozen_at.take() {
            fold.freeze_after = if now < frozen_at + EARLY_THAW_MS {
                (fold.freeze_after * 2).min(FREEZE_AFTER_MAX_MS)
            } else {
                FREEZE_AFTER_MS
            };
        }
        fold.listed_hot = true;
        self.freezer.hot.push(pane_id);
    }

    /// Freezes hot screens that have been quiet long enough and moves screens frozen long
    /// enough into the cold store.
    pub(super) fn fold_quiet(&mut self) {
        let now = self.host.now_ms();
        let interval = now / BATCH_INTERVAL_MS;
        if interval != self.freezer.looked_in {
            self.freezer.looked_in = interval;
            let mut hot = std::mem::take(&mut self.freezer.hot);
            let mut sealer = Compressor::default();
            hot.retain(|&id| self.freeze_if_quiet(id, now, &mut sealer));
            self.freezer.hot.extend(hot);
        }
        let puts_began = self.host.now_ms();
        for _ in 0..COLD_PUTS_PER_TURN {
            let Some(&(id, at)) = self.freezer.frozen.front() else {
                break;
            };
            if now < at + COLD_AFTER_MS || self.host.now_ms() >= puts_began + COLD_PUTS_MS {
                break;
            }
            self.freezer.frozen.pop_front();
            self.make_cold(id, at);
        }
        self.cold.end_sweep();
    }

    /// Freezes a hot pane's screen if it has been quiet. Returns whether it stays hot.
    fn freeze_if_quiet(&mut self, pane_id: u32, now: u64, sealer: &mut Compressor) -> bool {
        let viewed = self.is_viewed(pane_id);
        let Some(pane) = self.pane_mut(pane_id) else {
            return false;
        };
        if pane.term.is_frozen() {
            pane.fold.listed_hot = false;
            return false;
        }
        let quiet = now >= pane.fold.active_at + pane.fold.freeze_after;
        let settled = !pane.deferred && pane.backlog_len() == 0;
        if !(quiet && settled && !viewed) {
            // A pause of a batch interval is quiet enough to seal history lines: a program
            // pouring out lines drops most of them from the history before it pauses.
            if settled && now >= pane.fold.active_at + BATCH_INTERVAL_MS {
                pane.term.seal_history(sealer);
            }
            return true;
        }
        pane.term.freeze();
        pane.fold.listed_hot = false;
        pane.fold.frozen_at = Some(now);
        self.freezer.frozen.push_back((pane_id, now));
        false
    }

    fn make_cold(&mut self, pane_id: u32, frozen_at: u64) {
        let Some((si, wi)) = self.locate_pane(pane_id) else {
            return;
        };
        let pane = &mut self.sessions[si].windows[wi].pane;
        let still_frozen = pane.fold.frozen_at == Some(frozen_at) && pane.fold.cold.is_none();
        if !still_frozen || !pane.term.is_frozen() {
            return;
        }
        let Some(chunk) = pane.term.take_frozen() else {
            return;
        };
        match self.cold.put(&chunk) {
            Ok(at) => pane.fold.cold = Some(at),
            // The store could not take it (the file is full): it stays frozen in memory.
            Err(_) => pane.term.restore_frozen(chunk),
        }
    }

    /// A pane is dropped: its cold chunk leaves the store.
    pub(super) fn forget_fold(&mut self, pane: &mut Pane) {
        if let Some(at) = pane.fold.cold.take() {
            self.cold.forget(at);
        }
    }
}
