//! Sessions and windows: the tree tmux scripts address with targets.
//!
//! A session holds windows, ordered by index; each window holds exactly one pane. Session,
//! window and pane ids (`$N`, `@N`, `%N`) are allocated by the engine and never reused during
//! the server's life.
//!
//! Invariants: a session always has at least one window (a session whose last window goes is
//! removed); window indices within a session are unique and `windows` is ordered by them;
//! `current` names an existing window; the last-window stack holds only ids of the session's
//! windows, none of them current, each once.
//!
//! [`Sessions`] is the server's list of sessions, in the order they were made. It finds a
//! session by name through a map of where each name was last seen, checked before use: names
//! are unique, so an entry that still names its session is the answer, and a stale one (the
//! session was renamed, removed or moved in the list) costs the search it replaces. Nothing
//! that changes the list has to keep the map up to date.

use super::options::OptionSet;
use super::pane::Pane;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::{Deref, DerefMut};
use std::rc::Rc;

/// The sessions, with where each name was last found (see the module documentation).
#[derive(Default)]
pub struct Sessions {
    list: Vec<Session>,
    /// Name to position in `list`; an entry may be stale and is checked before use.
    places: RefCell<HashMap<String, usize>>,
}

impl Sessions {
    /// The position of the session with exactly this name. With 10,000 sessions a search of
    /// the list was about half of the server's work for a `has-session` (bench/max_sessions.sh).
    pub fn position_of_name(&self, name: &str) -> Option<usize> {
        let cached = self.places.borrow().get(name).copied();
        if let Some(i) = cached.filter(|&i| self.list.get(i).is_some_and(|s| s.name == name)) {
            return Some(i);
        }
        let found = self.list.iter().position(|s| s.name == name);
        let mut places = self.places.borrow_mut();
        match found {
            Some(i) => places.insert(name.to_string(), i),
            None => places.remove(name),
        };
        found
    }
}

impl Deref for Sessions {
    type Target = Vec<Session>;
    fn deref(&self) -> &Vec<Session> {
        &self.list
    }
}

impl DerefMut for Sessions {
    fn deref_mut(&mut self) -> &mut Vec<Session> {
        &mut self.list
    }
}

pub struct Window {
    pub id: u32,
    pub index: u32,
    pub name: String,
    /// The name follows the running command (tmux's automatic-rename).
    pub automatic_rename: bool,
    pub pane: Pane,
    pub activity: i64,
    /// `select-pane -d`: keys for the pane are dropped until `select-pane -e`.
    pub input_off: bool,
    /// Window options set on this window (`set-option -w`).
    pub options: OptionSet,
    /// Pane options set on its pane (`set-option -p`).
    pub pane_options: OptionSet,
    /// The command the pane was started with (what `respawn-pane` runs again by default).
    pub command: Vec<String>,
    /// When the pane was found dead and kept (remain-on-exit), for `#{pane_dead_time}`.
    pub dead_time: Option<i64>,
    /// The pane's `bytes_read` and the time (monotonic ms) when the automatic name was last
    /// checked: output since then asks for a new check, at most every 500 ms.
    pub name_checked: (u64, u64),
    /// The window's size when a layout command last ran, which `select-layout -o` goes back
    /// to (tmux's old_layout; a window of one pane has no other layout).
    pub layout_before: Option<(u32, u32)>,
}

pub struct Session {
    pub id: u32,
    pub name: String,
    pub created: i64,
    pub activity: i64,
    /// When a client last attached or switched to it (0: never), `#{session_last_attached}`.
    pub last_attached: i64,
    pub windows: Vec<Window>,
    /// Index into `windows` of the current window.
    pub current: usize,
    /// Ids of the previously current windows, most recent first (tmux's `lastw` stack):
    /// `last-window` and the `-` flag use the first; a removed window leaves the stack.
    pub last: Vec<u32>,
    /// Session environment overrides (`set-environment` without `-g`; `None` removes).
    /// Shared with the session created before it when they are equal, and copied on the first
    /// change: `update-environment` gives every session the same eight entries (most cleared),
    /// about 670 bytes each.
    pub environ: Rc<BTreeMap<String, Option<String>>>,
    /// Session environment variables hidden from programs (`set-environment -h`).
    pub environ_hidden: BTreeSet<String>,
    /// Session options set on this session (`set-option` without `-g`).
    pub options: OptionSet,
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

    /// The position of the window with this index.
    pub fn position_of_index(&self, index: u32) -> Option<usize> {
        self.windows.iter().position(|w| w.index == index)
    }

    /// The position of the window with this id.
    pub fn position_of_id(&self, id: u32) -> Option<usize> {
        self.windows.iter().position(|w| w.id == id)
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

    /// Makes the window at `at` current, as tmux's session_set_current: the old current
    /// window goes on top of the last-window stack. Returns false if it already was current.
    pub fn select(&mut self, at: usize) -> bool {
        if at == self.current {
            return false;
        }
        let new_id = self.windows[at].id;
        let old_id = self.windows[self.current].id;
        self.last.retain(|&id| id != new_id);
        self.last.retain(|&id| id != old_id);
        self.last.insert(0, old_id);
        self.current = at;
        true
    }

    /// `last-window`: the top of the stack. Returns false if there is none.
    pub fn select_last(&mut self) -> bool {
        match self.last.first().and_then(|&id| self.position_of_id(id)) {
            Some(at) => self.select(at),
            None => false,
        }
    }

    /// `next-window`: the following window by index, wrapping. False if there is none.
    pub fn select_next(&mut self) -> bool {
        let at = (self.current + 1) % self.windows.len();
        self.select(at)
    }

    /// `previous-window`: the preceding window by index, wrapping. False if there is none.
    pub fn select_previous(&mut self) -> bool {
        let n = self.windows.len();
        let at = (self.current + n - 1) % n;
        self.select(at)
    }

    /// Where `id` is in the last-window stack, counting from 1 (0: not there), as tmux's
    /// `window_stack_index`.
    pub fn stack_index(&self, id: u32) -> usize {
        self.last.iter().position(|&x| x == id).map_or(0, |i| i + 1)
    }

    /// Removes the window at position `at`. If it was current, the last window becomes
    /// current, else the previous one, else the next (tmux's session_detach). The caller
    /// removes the session if it was the last window.
    pub fn remove_window(&mut self, at: usize) -> Window {
        if at == self.current && self.windows.len() > 1 && !self.select_last() {
            self.select_previous();
        }
        let w = self.windows.remove(at);
        self.last.retain(|&id| id != w.id);
        if self.current > at {
            self.current -= 1;
        } else if self.current == at {
            // Only when the session is now empty (or was of one window).
            self.current = 0;
        }
        w
    }

    /// Removes the window at `at` without choosing a new current window (`new-window -k`
    /// replacing it); returns it and whether it was current. The caller makes another window
    /// current.
    pub fn unlink_window(&mut self, at: usize) -> (Window, bool) {
        let was_current = at == self.current;
        let w = self.windows.remove(at);
        self.last.retain(|&id| id != w.id);
        if self.current > at {
            self.current -= 1;
        }
        (w, was_current)
    }

    /// Makes the window at `at` current without touching the last-window stack (the current
    /// window was just removed).
    pub fn set_current(&mut self, at: usize) {
        self.current = at;
    }

    /// move-window within the session: window `id` takes index `index` (free, or its own),
    /// as tmux links it there and then unlinks it from its old index. `current` is the current
    /// window's id before the move (`None`: `-k` just removed it). With `select` the moved
    /// window becomes current (pushing the old current window on the last-window stack);
    /// without, a moved current window hands over as tmux's session_detach does (see
    /// [`Session::hand_over`]). Either way the moved window leaves the stack.
    pub fn reindex_window(&mut self, id: u32, index: u32, current: Option<u32>, select: bool) {
        let Some(at) = self.position_of_id(id) else {
            return;
        };
        let mut w = self.windows.remove(at);
        let old_index = w.index;
        w.index = index;
        let to = self
            .windows
            .iter()
            .position(|x| x.index > index)
            .unwrap_or(self.windows.len());
        self.windows.insert(to, w);
        self.last.retain(|&x| x != id);
        match current.and_then(|c| Some((c, self.position_of_id(c)?))) {
            Some((c, at)) if c != id => {
                self.current = at;
                if select {
                    self.select(to);
                }
            }
            Some(_) if !select => {
                self.current = to;
                self.hand_over(old_index);
            }
            _ => self.current = to,
        }
    }

    /// The current window was unlinked from `old_index` (and may be linked elsewhere in the
    /// session): the last window becomes current, leaving the stack; else the one before that
    /// index, wrapping to the highest index when it is above it, else the first (tmux's
    /// session_last, session_previous, session_next).
    fn hand_over(&mut self, old_index: u32) {
        if !self.last.is_empty() {
            let top = self.last.remove(0);
            if let Some(at) = self.position_of_id(top) {
                self.current = at;
                return;
            }
        }
        let below = self.windows.iter().rposition(|w| w.index < old_index);
        let highest = self.windows.len() - 1;
        let above = (self.windows[highest].index > old_index).then_some(highest);
        self.current = below.or(above).unwrap_or(0);
    }

    /// Exchanges ids `a` and `b` in the last-window stack (swap-window: the stack names
    /// places, which now hold the other window).
    pub fn swap_in_stack(&mut self, a: u32, b: u32) {
        for x in &mut self.last {
            if *x == a {
                *x = b;
            } else if *x == b {
                *x = a;
            }
        }
    }

    /// `renumber-windows`: indices from `base` up, in order.
    pub fn renumber(&mut self, base: u32) {
        for (i, w) in self.windows.iter_mut().enumerate() {
            w.index = base + i as u32;
        }
    }

    /// Moves up by one the windows from index `from` to the first free index, making room at
    /// `from` (tmux's winlink_shuffle_up). Returns `from`, or `None` when no index is free.
    pub fn shuffle_up(&mut self, from: u32) -> Option<u32> {
        let mut last = from;
        while self.position_of_index(last).is_some() {
            last = last.checked_add(1).filter(|&l| l < i32::MAX as u32)?;
        }
        for w in &mut self.windows {
            if w.index >= from && w.index < last {
                w.index += 1;
            }
        }
        Some(from)
    }
}
