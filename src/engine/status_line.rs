//! The status line of attached clients, as tmux 3.3a's `status_redraw` draws it: each of
//! the `status` option's lines is its `status-format` item expanded for the client (its
//! session's current window and pane, and its `client_*` variables) and drawn by
//! [`format_draw`](super::format_draw) over `status-style`, so `#[...]` styles, alignments,
//! the window list with its `<` `>` markers and the ranges clicks are named by all follow
//! the user's formats and options. A message or prompt takes the last line's place.
//!
//! Invariants: what a click on the status line names comes from the same drawing as what
//! the client sees; lines drawn before are shown again only while everything they are
//! drawn from by default is as it was (`status_key`).

use super::attach::Client;
use super::commands::expand_for_client;
use super::format_draw::{self, Cell, DrawnRange};
use super::mouse::{MouseEvent, Place};
use super::options::colour_from_string;
use super::style::{self, Pen, Range, DEFAULT_COLOUR};
use super::target::Found;
use super::Engine;
use std::hash::{Hash, Hasher};

/// The most status lines tmux draws (`status 5`).
const MOST_LINES: u32 = 5;

impl Engine {
    /// Rows the status line takes in session `si` (`status`: off, on or 2 to 5 lines).
    pub(super) fn status_lines(&self, si: Option<usize>) -> u32 {
        match self.option_or(si, None, "status", "on").as_str() {
            "off" => 0,
            "on" => 1,
            n => n.parse().map_or(1, |n: u32| n.clamp(1, MOST_LINES)),
        }
    }

    /// The status lines client `c` shows of session `si` (never all its rows).
    pub(super) fn shown_status_lines(&self, si: Option<usize>, c: &Client) -> u32 {
        self.status_lines(si).min(c.rows.saturating_sub(1))
    }

    /// Rows above the pane on client `c`: its status lines when `status-position` is top.
    pub(super) fn rows_above_pane(&self, si: Option<usize>, c: &Client) -> u32 {
        if self.option_or(si, None, "status-position", "bottom") == "top" {
            self.shown_status_lines(si, c)
        } else {
            0
        }
    }

    /// A mouse event at the pane's coordinates (its row less the status lines above it).
    pub(super) fn pane_relative(&self, si: Option<usize>, c: &Client, e: MouseEvent) -> MouseEvent {
        MouseEvent {
            y: e.y.saturating_sub(self.rows_above_pane(si, c)),
            ..e
        }
    }

    /// Draws the first `lines` status lines of client `c` (showing session `si`) from the
    /// cursor's row down: those drawn last when nothing they show has changed since.
    pub(super) fn push_status(&self, out: &mut Vec<u8>, si: usize, c: &Client, lines: usize) {
        let fresh;
        let drawn = match &c.status_drawn {
            Some((key, drawn)) if *key == self.status_key(si, c) => drawn,
            _ => {
                fresh = self.draw_status(si, c);
                &fresh
            }
        };
        for (i, line) in drawn.iter().take(lines).enumerate() {
            if i > 0 {
                out.extend_from_slice(b"\r\n");
            }
            out.extend_from_slice(line);
        }
    }

    /// Draws client `conn`'s status lines again if what they show may have changed since
    /// they were last drawn.
    pub(super) fn refresh_status(&mut self, conn: u64) {
        let Some(c) = self.clients.get(conn) else {
            return;
        };
        let Some(si) = self.session_index(c.session) else {
            return;
        };
        let key = self.status_key(si, c);
        if c.status_drawn.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        let drawn = self.draw_status(si, c);
        if let Some(c) = self.clients.get_mut(conn) {
            c.status_drawn = Some((key, drawn));
        }
    }

    /// Every status line of client `c`, drawn.
    fn draw_status(&self, si: usize, c: &Client) -> Vec<Vec<u8>> {
        (0..self.status_lines(Some(si)))
            .map(|line| {
                let mut out = Vec::new();
                format_draw::push_line(&mut out, &self.status_line(si, c, line).0);
                out
            })
            .collect()
    }

    /// What client `c`'s status lines are drawn from, as far as it changes without a
    /// command. Expanding and drawing the default status-format took 100 to 160 us with
    /// four windows, against 4.6 us for a whole 80x24 frame reusing the lines (the engine
    /// with fake hosts, 20,000 frames each, on 2026-12-08), so a frame that only shows a
    /// pane's new output reuses them. Every command and every
    /// `status-interval` move the generation on (the clock, and values tmux itself shows
    /// only at the next interval, such as a pane's path); the rest is what changes as
    /// programs run or keys are typed: the client's size, session, key table and modes, the
    /// session's windows and names, the pane's title, and how many sessions and clients
    /// there are.
    fn status_key(&self, si: usize, c: &Client) -> u64 {
        let mut h = std::hash::DefaultHasher::new();
        let s = &self.sessions[si];
        (self.clients.status_generation, self.clients.list.len()).hash(&mut h);
        (self.sessions.len(), s.id, s.current).hash(&mut h);
        (c.cols, c.rows, &c.key_table).hash(&mut h);
        (c.view.is_some(), c.clock.is_some(), c.tree.is_some()).hash(&mut h);
        for w in &s.windows {
            (w.id, w.index, &w.name).hash(&mut h);
        }
        s.current_window().pane.term.title().hash(&mut h);
        h.finish()
    }

    /// Line `line` of client `c`'s status, drawn, and its ranges.
    fn status_line(&self, si: usize, c: &Client, line: u32) -> (Vec<Cell>, Vec<DrawnRange>) {
        let base = self.status_pen(si, c);
        let mut cells = vec![Cell::blank(base); c.cols as usize];
        let template = self
            .options
            .session_value(Some(&self.sessions[si]), "status-format")
            .map(|v| v.text(Some(line), None, false))
            .unwrap_or_default();
        if template.is_empty() {
            return (cells, Vec::new());
        }
        let expanded = self.expand_for(si, c, &template);
        let ranges = format_draw::draw(&mut cells, base, &expanded);
        (cells, ranges)
    }

    /// `template` expanded for client `c`, at its session's current window.
    fn expand_for(&self, si: usize, c: &Client, template: &str) -> String {
        let at = Found {
            session: si,
            window: self.sessions[si].current,
        };
        expand_for_client(self, template, Some(at), c)
    }

    /// The pen a style option gives over `base`, its formats expanded first for client `c`
    /// (tmux's `style_add`).
    pub(super) fn style_pen(&self, si: usize, c: &Client, name: &str, base: Pen) -> Pen {
        let text = self.option_or(Some(si), None, name, "");
        let text = if text.contains("#{") {
            self.expand_for(si, c, &text)
        } else {
            text
        };
        style::add(base, &text)
    }

    /// What the status line is drawn over: `status-style`, with `status-fg` and `status-bg`
    /// over it when they are set.
    fn status_pen(&self, si: usize, c: &Client) -> Pen {
        let mut pen = self.style_pen(si, c, "status-style", Pen::default());
        let colour = |name| {
            colour_from_string(&self.option_or(Some(si), None, name, "default"))
                .filter(|&c| c != DEFAULT_COLOUR)
        };
        if let Some(fg) = colour("status-fg") {
            pen.fg = fg;
        }
        if let Some(bg) = colour("status-bg") {
            pen.bg = bg;
        }
        pen
    }

    /// What a click at cell `x` of status line `line` names, as tmux's
    /// `server_client_check_mouse` finds it: the place, and the window (its position in the
    /// session) for a window's range; `None` when a range names no window, which tmux
    /// ignores.
    pub(super) fn status_place(
        &self,
        si: usize,
        c: &Client,
        line: u32,
        x: u32,
    ) -> Option<(Place, Option<usize>)> {
        let (_, ranges) = self.status_line(si, c, line);
        let Some(r) = ranges.iter().find(|r| (r.start..r.end).contains(&x)) else {
            return Some((Place::StatusDefault, None));
        };
        match r.range {
            Range::None => None,
            Range::Left => Some((Place::StatusLeft, None)),
            Range::Right => Some((Place::StatusRight, None)),
            Range::Window(index) => {
                let wi = self.sessions[si].position_of_index(index)?;
                Some((Place::Status, Some(wi)))
            }
        }
    }
}
