//! Copy mode and view mode in the engine: which clients show them, the options they read,
//! and where what they copy goes, as tmux 3.3a's `window-copy.c` sends it.
//!
//! The modes themselves are pure (`copy_mode.rs`). zeropty keeps a mode per client, not per
//! pane as tmux does: each client showing a pane has its own cursor and selection, and a
//! pane no client shows is never in a mode. Copy mode works on a copy of the pane's
//! terminal taken when it starts (read first, as every reader of a screen is), as tmux's
//! does, so the program goes on writing underneath.
//!
//! Copied text goes to a new automatic paste buffer (`buffer-limit`), to the end of the
//! newest (`append-selection`), and to a command's input for the `pipe` commands
//! (`copy-command` when none is given): as much as the socket to the command takes at once,
//! which is well over the text of a screen (tmux's job buffers it all).
//!
//! Invariant: a client's mode is dropped when it shows another pane (`attach.rs`) and when
//! a command ends it; `#{pane_mode}` and the window's automatic name follow both.

use super::attach::Client;
use super::copy_mode::{Copied, CopyMode, Settings, DRAG_SCROLL_MS};
use super::Engine;

/// copy-mode's flags: `-u`, `-e`, `-H`, `-s`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CopyModeFlags {
    /// The pane whose content the mode shows (`-s`), else the client's own.
    pub source: Option<u32>,
    pub page_up: bool,
    pub scroll_exit: bool,
    pub hide_position: bool,
}

impl Engine {
    /// Starts copy mode (or with `-u`, pages up) for every client showing `pane`, or only
    /// for `conn` when it is one of them (copy-mode).
    pub fn open_views(&mut self, pane: u32, conn: Option<u64>, flags: CopyModeFlags) {
        for c in self.viewers(pane, conn) {
            self.open_view(c, flags);
        }
    }

    /// Ends copy or view mode for every client showing `pane` (copy-mode -q).
    pub fn close_views(&mut self, pane: u32) {
        for conn in self.viewers(pane, None) {
            if let Some(c) = self.clients.get_mut(conn) {
                c.view = None;
                c.clock = None;
                c.tree = None;
                c.dirty = true;
            }
        }
        self.pane_mode_changed(pane);
    }

    /// The clients showing `pane`: just `conn` when it is one of them.
    pub(super) fn viewers(&self, pane: u32, conn: Option<u64>) -> Vec<u64> {
        let showing: Vec<u64> = self
            .clients
            .list
            .iter()
            .map(|c| c.conn)
            .filter(|&c| self.client_pane(c) == Some(pane))
            .collect();
        match conn {
            Some(c) if showing.contains(&c) => vec![c],
            _ => showing,
        }
    }

    /// Starts copy mode for a client over a copy of its pane's terminal, then pages up
    /// (`copy-mode -u`); a client already in copy mode only pages up, as in tmux, where the
    /// other flags apply to a mode that starts. Output shown in view mode gives way to copy
    /// mode.
    fn open_view(&mut self, conn: u64, flags: CopyModeFlags) {
        let Some(pane) = self.client_pane(conn) else {
            return;
        };
        let set = self.copy_settings(conn);
        let in_copy_mode = self
            .clients
            .get(conn)
            .and_then(|c| c.view.as_ref())
            .is_some_and(|m| !m.is_view());
        if !in_copy_mode {
            let Some(term) = self.copy_of(pane, flags.source) else {
                return;
            };
            if let Some(c) = self.clients.get_mut(conn) {
                let mut mode = CopyMode::new(term, set.vi);
                mode.scroll_exit = flags.scroll_exit;
                mode.hide_position = flags.hide_position;
                mode.source = flags.source.filter(|&s| s != pane);
                if let Some((text, regex)) = self.pane_searches.get(&pane).cloned() {
                    mode.resume_search(text, regex);
                }
                c.view = Some(Box::new(mode));
                c.clock = None;
                c.tree = None;
            }
        }
        if let Some(m) = self.clients.get_mut(conn).and_then(|c| c.view.as_mut()) {
            if flags.page_up {
                m.command(&["page-up".to_string()], 1, &set);
            }
        }
        self.touch_client(conn);
        self.pane_mode_changed(pane);
    }

    /// A copy of the terminal copy mode on `pane` shows: `source`'s (its blank bottom lines
    /// left out, as tmux's copy of another pane) or the pane's own, read first.
    fn copy_of(&mut self, pane: u32, source: Option<u32>) -> Option<crate::term::Terminal> {
        let from = source.unwrap_or(pane);
        self.read_screen(from);
        let mut term = self.panes().find(|p| p.id == from)?.term.clone();
        if from != pane {
            term.trim_blank_bottom();
        }
        Some(term)
    }

    fn touch_client(&mut self, conn: u64) {
        if let Some(c) = self.clients.get_mut(conn) {
            c.dirty = true;
        }
    }

    /// Starts the selection of a mouse drag in the client's copy mode (`copy-mode -M`,
    /// `begin-selection` from a mouse binding): from where the button went down to where the
    /// mouse is; the drag's later reports move its end. False when the client is in no mode.
    pub(super) fn start_drag(&mut self, conn: u64) -> bool {
        let Some(at) = self.mouse_event else {
            return false;
        };
        let from = at.before.unwrap_or(at.now);
        let Some(c) = self.clients.get_mut(conn) else {
            return false;
        };
        let Some(mode) = c.view.as_mut() else {
            return false;
        };
        mode.drag_start(from.x, from.y);
        if let Some(drag) = &mut c.drag {
            drag.selecting = true;
        }
        self.drag_to(conn, at.now.x, at.now.y);
        true
    }

    /// A report of a drag that selects: its end follows the mouse, and held on the top or
    /// bottom row it scrolls every [`DRAG_SCROLL_MS`] until it moves or ends.
    pub(super) fn drag_to(&mut self, conn: u64, x: u32, y: u32) {
        let now = self.host.now_ms();
        if let Some(c) = self.clients.get_mut(conn) {
            let scrolls = c.view.as_mut().is_some_and(|mode| mode.drag_to(x, y));
            if let Some(drag) = &mut c.drag {
                drag.scroll_at = scrolls.then_some(now + DRAG_SCROLL_MS);
            }
            c.dirty = true;
        }
    }

    /// The options copy mode reads for a client's session and window.
    pub(super) fn copy_settings(&self, conn: u64) -> Settings {
        let place = self.client_place(conn);
        let (si, wi) = (place.map(|f| f.session), place.map(|f| f.window));
        Settings {
            vi: self.option_or(si, wi, "mode-keys", "emacs") == "vi",
            separators: self.option_or(si, None, "word-separators", ""),
            wrap_search: self.option_or(si, wi, "wrap-search", "on") == "on",
            regex: self.host.regex_compiler(),
        }
    }

    /// The mode of the first client showing `pane` in one.
    pub fn pane_copy_mode(&self, pane: u32) -> Option<&CopyMode> {
        self.viewers(pane, None)
            .into_iter()
            .find_map(|conn| self.clients.get(conn)?.view.as_deref())
    }

    /// Whether a client shows `pane` in copy or view mode (`#{pane_in_mode}`).
    pub fn pane_in_view(&self, pane: u32) -> bool {
        self.pane_mode(pane).is_some()
    }

    /// The mode a client shows `pane` in (`#{pane_mode}`): `copy-mode`, `view-mode` for the
    /// output of commands a key ran, or `clock-mode`.
    pub fn pane_mode(&self, pane: u32) -> Option<&'static str> {
        let clock = self
            .viewers(pane, None)
            .into_iter()
            .any(|conn| self.clients.get(conn).is_some_and(|c| c.clock.is_some()));
        if clock {
            return Some("clock-mode");
        }
        if self.pane_in_tree(pane) {
            return Some("tree-mode");
        }
        Some(match self.pane_copy_mode(pane)?.is_view() {
            true => "view-mode",
            false => "copy-mode",
        })
    }

    /// Output of commands a key ran, shown in place of the client's pane as tmux's view mode
    /// shows it: from its first line, lines wider than the pane wrapped; more output is added
    /// below, the view staying where it is.
    pub(super) fn show_output(&mut self, conn: u64, out: &[u8]) {
        let Some(pane) = self.client_pane(conn) else {
            return;
        };
        let Some((cols, rows)) = self
            .panes()
            .find(|p| p.id == pane)
            .map(|p| (p.term.cols(), p.term.rows()))
        else {
            return;
        };
        let vi = self.copy_settings(conn).vi;
        let Some(c) = self.clients.get_mut(conn) else {
            return;
        };
        c.dirty = true;
        c.clock = None;
        c.tree = None;
        let view = match &mut c.view {
            Some(m) if m.is_view() => m,
            other => other.insert(Box::new(CopyMode::view(cols, rows, vi))),
        };
        for line in String::from_utf8_lossy(out).lines() {
            view.add_line(line);
        }
        self.pane_mode_changed(pane);
    }

    /// A copy-mode command (`send-keys -X NAME ARGS`, `count` times) for every client showing
    /// `pane` in a mode. False when none does (tmux's `not in a mode`).
    pub fn view_command(&mut self, pane: u32, command: &[String], count: u32) -> bool {
        let in_mode: Vec<u64> = self
            .viewers(pane, None)
            .into_iter()
            .filter(|&conn| self.clients.get(conn).is_some_and(|c| c.view.is_some()))
            .collect();
        for &conn in &in_mode {
            let set = self.copy_settings(conn);
            if command.first().is_some_and(|c| c == "refresh-from-pane") {
                let source = self.clients.get(conn).and_then(|c| c.view.as_ref()?.source);
                let fresh = self.copy_of(pane, source);
                if let (Some(term), Some(c)) = (fresh, self.clients.get_mut(conn)) {
                    if let Some(mode) = c.view.as_mut() {
                        mode.refresh(term);
                        c.dirty = true;
                    }
                }
                continue;
            }
            let Some(c) = self.clients.get_mut(conn) else {
                continue;
            };
            c.dirty = true;
            let Some(mode) = c.view.as_mut() else {
                continue;
            };
            // As tmux's: a mouse binding's commands act where the mouse is.
            if let Some(at) = self.mouse_event.filter(|at| at.client == conn) {
                if !at.now.is_wheel() {
                    mode.move_mouse(at.now.x, at.now.y);
                }
            }
            let outcome = mode.command(command, count, &set);
            if let Some(search) = mode.last_search() {
                self.pane_searches.insert(pane, search);
            }
            let Some(c) = self.clients.get_mut(conn) else {
                continue;
            };
            if outcome.cancel {
                c.view = None;
            }
            if let Some(copied) = outcome.copied {
                self.keep_copied(conn, copied);
            }
            if outcome.cancel {
                self.pane_mode_changed(pane);
            }
        }
        !in_mode.is_empty()
    }

    /// Gives copied text to its command and paste buffer. The buffer's prefix and the
    /// command are formats, expanded for the client.
    fn keep_copied(&mut self, conn: u64, copied: Copied) {
        if let Some(command) = &copied.pipe {
            let command = match command.is_empty() {
                true => self.options.string("copy-command"),
                false => self.expand_for_client(conn, command),
            };
            if !command.is_empty() {
                self.pipe_to_command(conn, &command, copied.text.as_bytes());
            }
        }
        if !copied.store {
            return;
        }
        self.set_clipboards(conn, copied.text.as_bytes());
        let (now, limit) = (self.host.wall_time(), super::commands::buffer_limit(self));
        let mut data = copied.text.into_bytes();
        match self.buffers.top().filter(|_| copied.append) {
            Some(top) => {
                let name = top.name.clone();
                data.splice(0..0, top.data.iter().copied());
                let _ = self.buffers.set(Some(&name), data, now, limit);
            }
            None => {
                let prefix = copied.prefix.map(|p| self.expand_for_client(conn, &p));
                self.buffers
                    .add(prefix.as_deref().unwrap_or("buffer"), data, now, limit);
            }
        }
    }

    /// Puts copied text on the clipboard of the terminals showing the client's pane, as
    /// tmux's `tty_set_selection` does unless `set-clipboard` is off: an OSC 52 sequence
    /// for each terminal whose `TERM` `terminal-features` gives the `clipboard` feature.
    fn set_clipboards(&mut self, conn: u64, text: &[u8]) {
        if self.options.string("set-clipboard") == "off" {
            return;
        }
        let Some(pane) = self.client_pane(conn) else {
            return;
        };
        let sequence = format!("\x1b]52;;{}\x07", base64(text));
        for viewer in self.viewers(pane, None) {
            let term = self
                .clients
                .get(viewer)
                .map(|c| c.term.clone())
                .unwrap_or_default();
            if !self.has_clipboard(&term) {
                continue;
            }
            if let Some(c) = self.clients.get_mut(viewer) {
                c.passthrough.extend_from_slice(sequence.as_bytes());
                c.dirty = true;
            }
        }
    }

    /// Whether `terminal-features` gives a terminal of this `TERM` the clipboard.
    fn has_clipboard(&self, term: &str) -> bool {
        let Some(super::options::Value::Array(items)) =
            self.options.server.get("terminal-features")
        else {
            return false;
        };
        items.values().any(|item| {
            let mut parts = item.split(':');
            let pattern = parts.next().unwrap_or("");
            super::target::glob(pattern, term) && parts.any(|f| f == "clipboard")
        })
    }

    /// Starts `command` with `/bin/sh -c` in the client's session's directory and writes
    /// `text` to its input (all of it, as the command reads), then closes it.
    fn pipe_to_command(&mut self, conn: u64, command: &str, text: &[u8]) {
        let place = self.client_place(conn);
        let env = super::commands::job_environment(self, place.map(|f| f.session), false);
        let cwd = place.map_or_else(|| "/".to_string(), |f| self.sessions[f.session].cwd.clone());
        self.feed_command(command, &cwd, &env, text);
    }
}

impl Client {
    /// Scrolls the copy mode under a drag held on its top or bottom row when it is time.
    pub(super) fn scroll_held_drag(&mut self, now: u64) {
        let Some(drag) = self.drag.as_mut() else {
            return;
        };
        if drag.scroll_at.is_none_or(|at| now < at) {
            return;
        }
        let scrolls = self.view.as_mut().is_some_and(|mode| mode.drag_scroll());
        drag.scroll_at = scrolls.then_some(now + DRAG_SCROLL_MS);
        self.dirty |= scrolls;
    }
}

/// Standard base64 with padding, as the clipboard's escape sequence carries text.
fn base64(data: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, &b| n << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            match i <= chunk.len() {
                true => out.push(char::from(DIGITS[(n >> (18 - 6 * i) & 63) as usize])),
                false => out.push('='),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_is_the_standard_one() {
        assert_eq!(super::base64(b""), "");
        assert_eq!(super::base64(b"f"), "Zg==");
        assert_eq!(super::base64(b"fo"), "Zm8=");
        assert_eq!(super::base64(b"foo"), "Zm9v");
        assert_eq!(super::base64(b"foob\xff"), "Zm9vYv8=");
    }
}
