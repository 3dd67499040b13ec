//! Sessions and windows: the tree tmux scripts address with targets.
//!
//! A session holds windows, ordered by index; each window holds exactly one pane. Session,
//! window and pane ids (`$N`, `@N`, `%N`) are allocated by the engine and never reused during
//! the server's life.
//!
//! Invariants: a session always has at least one window (a session whose last window goes is
//! removed); window indices within a session are unique; `current` names an existing window.

use super::pane::Pane;
use std::collections::BTreeMap;

pub struct Window {
    pub id: u32,
    pub index: u32,
    pub name: String,
    /// The name follows the running command (tmux's automatic-rename).
    pub automatic_rename: bool,
    pub pane: Pane,
    pub activity: i64,
    /// When the window was made (monotonic ms): its name follows the running command only
    /// once it is older than tmux's rename interval.
    pub created_ms: u64,
}

pub struct Session {
    pub id: u32,
    pub name: String,
    pub created: i64,
    pub activity: i64,
    pub windows: Vec<Window>,
    /// Index into `windows` of the current window.
    pub current: usize,
    /// The previously current window's id (`last-window`).
    pub last: Option<u32>,
    /// Session environment overrides (`set-environment` without `-g`; `None` removes).
    pub environ: BTreeMap<String, Option<String>>,
    pub cwd: String,
    pub attached: u32,
}

impl Session {
    pub fn current_window(&self) -> &Window {
        &self.windows[self.current]
    }

    pub fn current_window_mut(&mut self) -> &mut Window {
        &mut self.windows[self.current]
    }

    /// Inserts a window keeping the list ordered by index; returns its position.
    pub fn insert_window(&mut self, w: Window) -> usize {
        let at = self
            .windows
            .iter()
            .position(|x| x.index > w.index)
            .unwrap_or(self.windows.len());
        if at <= self.current && !self.windows.is_empty() {
            self.current += 1;
        }
        self.windows.insert(at, w);
        at
    }

    /// The lowest free window index at or above `base`.
    pub fn next_index(&self, base: u32) -> u32 {
        let mut i = base;
        while self.windows.iter().any(|w| w.index == i) {
            i += 1;
        }
        i
    }

    /// Removes the window at position `at`, keeping `current` valid (the caller removes the
    /// session if it was the last).
    pub fn remove_window(&mut self, at: usize) -> Window {
        let w = self.windows.remove(at);
        if self.current > at || (self.current == at && self.current == self.windows.len()) {
            self.current = self.current.saturating_sub(1);
        }
        if self.last == Some(w.id) {
            self.last = None;
        }
        w
    }
}
