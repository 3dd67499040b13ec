//! Clock mode for attached clients (`clock-mode`, `C-b t`): each client showing the pane shows
//! the clock in its place (`engine/clock.rs` draws it) until a key that no table binds is
//! typed, as tmux 3.3a's clock mode ends on such a key. The engine looks at the time every
//! [`CLOCK_CHECK_MS`] while a clock shows and draws it again when the minute (the text)
//! changes, and at the pane's new size when it is resized.
//!
//! Invariant: a client shows at most one of a clock and a copy or view mode: opening one
//! closes the other, and both go when the client shows another pane.

use super::clock::{Clock, CLOCK_CHECK_MS};
use super::commands::FormatValues;
use super::style::colour_sgr;
use super::Engine;

impl Engine {
    /// Shows the clock in place of `pane` on every client showing it (or `conn` alone).
    pub fn open_clocks(&mut self, pane: u32, conn: Option<u64>) {
        for conn in self.viewers(pane, conn) {
            let clock = self.clock_for(conn, pane);
            if let Some(c) = self.clients.get_mut(conn) {
                c.view = None;
                c.tree = None;
                c.clock = clock;
                c.dirty = true;
            }
        }
        self.pane_mode_changed(pane);
    }

    /// The clock drawn for `pane`'s size, as the client's window's options ask for it.
    fn clock_for(&self, conn: u64, pane: u32) -> Option<Clock> {
        let place = self.client_place(conn)?;
        let (si, wi) = (Some(place.session), Some(place.window));
        let (cols, rows) = self
            .panes()
            .find(|p| p.id == pane)
            .map(|p| (p.term.cols(), p.term.rows()))?;
        let twelve = self.option_or(si, wi, "clock-mode-style", "24") == "12";
        let template = if twelve { "%l:%M %p" } else { "%H:%M" };
        let values = FormatValues::new(self, Some(place));
        let text = super::format::expand_time(template, &values, self.host.wall_time());
        let colour = self.option_or(si, wi, "clock-mode-colour", "blue");
        let colour = super::options::colour_from_string(&colour).unwrap_or(4);
        let code = |base| colour_sgr(colour, base).unwrap_or_else(|| (base + 9).to_string());
        let (fg, bg) = (code(30), code(40));
        let check_at = self.host.now_ms() + CLOCK_CHECK_MS;
        Some(Clock::draw(&text, cols, rows, (&fg, &bg), check_at))
    }

    /// Draws again the clocks whose minute has changed, and those of `resized` at its new
    /// size.
    pub(super) fn refresh_clocks(&mut self, resized: Option<u32>) {
        let now = self.host.now_ms();
        let due: Vec<(u64, u32)> = self
            .clients
            .list
            .iter()
            .filter_map(|c| Some((c, c.clock.as_ref()?)))
            .filter_map(|(c, clock)| {
                let pane = self.client_pane(c.conn)?;
                (now >= clock.check_at || resized == Some(pane)).then_some((c.conn, pane))
            })
            .collect();
        for (conn, pane) in due {
            let Some(fresh) = self.clock_for(conn, pane) else {
                continue;
            };
            if let Some(c) = self.clients.get_mut(conn) {
                let Some(clock) = c.clock.as_mut() else {
                    continue;
                };
                let redraw = fresh.text != clock.text || resized == Some(pane);
                if redraw {
                    *clock = fresh;
                    c.dirty = true;
                } else {
                    clock.check_at = fresh.check_at;
                }
            }
        }
    }

    /// A key no table binds, or a mouse event for the pane, ends the client's clock mode (and
    /// goes nowhere), as tmux's; false when it shows none.
    pub(super) fn close_clock(&mut self, conn: u64) -> bool {
        let Some(c) = self.clients.get_mut(conn).filter(|c| c.clock.is_some()) else {
            return false;
        };
        c.clock = None;
        c.dirty = true;
        if let Some(pane) = self.client_pane(conn) {
            self.pane_mode_changed(pane);
        }
        true
    }

    /// When a clock is next looked at.
    pub(super) fn clocks_deadline(&self) -> Option<u64> {
        self.clients
            .list
            .iter()
            .filter_map(|c| Some(c.clock.as_ref()?.check_at))
            .min()
    }
}
