//! Flow control for control clients (tmux's `pause-after`): a client that reads slowly
//! would otherwise be sent a busy pane's output for ever behind. With `refresh-client -f
//! pause-after=SECONDS` (`pause-after` alone: 0), a pane whose output has waited that long
//! for the client to take it is paused: its waiting `%output` lines are dropped, the client
//! is told `%pause %ID`, and its output is not sent until `refresh-client -A %ID:continue`
//! (`%continue %ID`), from what it writes then on. `-A %ID:pause` pauses a pane at once.
//! Such a client's output lines are `%extended-output %ID AGE : ...`, AGE being how long the
//! pane's output has waited for it (ms).
//!
//! "Waited" is counted from when the output was put in the client's lines until the host
//! takes them ([`Engine::control_text`]), which it does as soon as the connection has sent
//! what it was given before: a client that stops reading holds them.
//!
//! Invariant: `pending_since` has an entry exactly for the panes with `%output` lines in
//! `out`, and a paused pane has none.

use super::super::Engine;
use super::Control;

impl Control {
    /// Pauses a pane: what waits of its output goes, and the client is told.
    pub(super) fn pause(&mut self, pane: u32) {
        if !self.paused.insert(pane) {
            return;
        }
        if self.pending_since.remove(&pane).is_some() {
            let heads = [
                format!("%output %{pane} "),
                format!("%extended-output %{pane} "),
            ];
            let theirs = |line: &&[u8]| heads.iter().any(|h| line.starts_with(h.as_bytes()));
            self.out.drain(..self.out_taken);
            self.out_taken = 0;
            let kept: Vec<u8> = self
                .out
                .split_inclusive(|&b| b == b'\n')
                .filter(|line| !theirs(line))
                .flatten()
                .copied()
                .collect();
            self.out = kept;
        }
        self.line(&format!("%pause %{pane}"));
    }

    /// Lets a paused pane's output through again.
    pub(super) fn resume(&mut self, pane: u32) {
        if self.paused.remove(&pane) {
            self.line(&format!("%continue %{pane}"));
        }
    }
}

impl Engine {
    /// When a pane's waiting output next becomes late for a client with `pause-after`.
    pub(crate) fn pauses_deadline(&self) -> Option<u64> {
        self.clients
            .iter()
            .filter_map(|c| {
                let ctl = c.control.as_deref()?;
                let oldest = ctl.pending_since.values().min()?;
                Some(oldest + ctl.pause_after?.max(1))
            })
            .min()
    }

    /// Pauses, for each control client with `pause-after`, the panes whose output has waited
    /// longer than it allows.
    pub(super) fn pause_late_panes(&mut self) {
        let now = self.host.now_ms();
        for c in self.clients.list.iter_mut() {
            let Some(ctl) = c.control.as_deref_mut() else {
                continue;
            };
            let Some(after) = ctl.pause_after else {
                continue;
            };
            let late: Vec<u32> = ctl
                .pending_since
                .iter()
                .filter(|&(_, &since)| now > since && now - since >= after)
                .map(|(&pane, _)| pane)
                .collect();
            for pane in late {
                ctl.pause(pane);
            }
        }
    }
}
