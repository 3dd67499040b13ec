//! Tree mode (`choose-tree`, `C-b s`, `C-b w`): the sessions and their windows as a tree to
//! choose from, with a preview of the current item below it, as tmux 3.3a's mode-tree and
//! window-tree draw and drive them.
//!
//! This module is pure: the engine describes the sessions and windows ([`SessionInfo`], their
//! texts already expanded from the format, the filter already applied), hands key names to
//! [`TreeMode::key`] and acts on what it answers ([`Outcome`]), and gives the screens of the
//! panes the preview shows ([`Preview`]). The drawing is a terminal the size of the pane,
//! shown in the pane's place as clock mode's is.
//!
//! Invariants: `lines` is the tree flattened as shown (an item's children follow it when it
//! is expanded) and is never empty while there is an item; `current` indexes `lines`, and
//! `offset <= current < offset + height` after every change; a session and one of its
//! windows are never both tagged. Items are known by their [`Tag`] (a session's or a
//! window's id), so their expanded and tagged states survive rebuilds, as tmux keeps them.

use super::format_draw::{self, Cell};
use super::style::Pen;
use crate::term::cell::attr;
use crate::term::{CaptureOptions, LineSpec, Terminal};

/// What an item stands for: a session or a window, by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    Session(u32),
    Window(u32),
}

/// What `choose-tree` was asked to show first (`-s`, `-w`, neither): which items start
/// collapsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartAt {
    Sessions,
    Windows,
    Panes,
}

/// The sort orders `-O` and the `O` key go through, in tmux's order.
pub const SORT_ORDERS: [&str; 3] = ["index", "name", "time"];

/// What items are sorted by: `index` (a session's id, a window's index), `name` or `time`
/// (most recent activity first, then name).
#[derive(Clone, Debug, Default)]
pub struct SortKeys {
    pub index: u32,
    pub name: String,
    pub time: i64,
}

/// A window as the engine describes it.
#[derive(Clone, Debug)]
pub struct WindowInfo {
    pub id: u32,
    pub index: u32,
    pub text: String,
    pub sort: SortKeys,
}

/// A session as the engine describes it, with the windows the filter kept.
#[derive(Clone, Debug)]
pub struct SessionInfo {
    pub id: u32,
    pub name: String,
    pub text: String,
    pub sort: SortKeys,
    pub windows: Vec<WindowInfo>,
}

/// What the engine gives for drawing the current item's preview.
pub enum Preview<'a> {
    /// A session: its windows (index, name, pane's screen), the current one's position.
    Session {
        windows: Vec<(u32, String, &'a Terminal)>,
        current: usize,
    },
    /// A window: its pane's screen and index.
    Window { pane: &'a Terminal, index: u32 },
}

/// The styles the drawing uses, as SGR sequences from the terminal's defaults.
#[derive(Clone, Debug, Default)]
pub struct Styles {
    /// `mode-style`, the current line's pen (its item's text is drawn over it).
    pub mode_pen: Pen,
    /// `mode-style`, the current line.
    pub mode: String,
    /// `mode-style`'s background alone, which the rest of the current line is cleared to.
    pub mode_bg: String,
    /// `display-panes-colour` and `display-panes-active-colour` as foreground SGR codes.
    pub label: String,
    pub active_label: String,
}

/// What tree mode asks on the status line (tmux's `(filter) `, `(search) ` and command
/// prompts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeAsk {
    /// A new filter: the lines' format must be true for a window to be listed.
    Filter,
    /// A search of the items' names.
    Search,
    /// A command template run for the tagged items, or the current one.
    Command,
}

/// What a key asks the engine to do.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing beyond drawing again.
    Redraw,
    /// The key is not one of the mode's.
    Ignored,
    /// Leave the mode.
    Quit,
    /// Build the tree again (the sort order changed).
    Rebuild,
    /// Run the template for this item, then leave.
    Choose(Tag),
    /// Ask whether to kill the current item.
    Kill(Tag),
    /// Ask whether to kill the tagged items.
    KillTagged(Vec<Tag>),
    /// Go to the session and window the mode was opened for.
    Home,
    /// Ask a question on the status line.
    Ask(TreeAsk),
    /// Look for the search again from the current item.
    SearchAgain,
}

#[derive(Clone, Debug)]
struct Item {
    tag: Tag,
    name: String,
    text: String,
    expanded: bool,
    tagged: bool,
    children: Vec<Item>,
}

/// One shown line: where its item is (a session's position, a window's within it).
#[derive(Clone, Copy, Debug)]
struct Line {
    session: usize,
    window: Option<usize>,
    last: bool,
    flat: bool,
}

/// The state of one client's tree mode.
#[derive(Debug)]
pub struct TreeMode {
    /// Which items a first build collapses; `None` after it (new items then start expanded).
    start: Option<StartAt>,
    items: Vec<Item>,
    lines: Vec<Line>,
    current: usize,
    offset: usize,
    width: u32,
    height: u32,
    rows: u32,
    pub preview: bool,
    /// Index into [`SORT_ORDERS`].
    pub sort: usize,
    pub reversed: bool,
    pub filter: Option<String>,
    /// What `/` last looked for (`n` looks again).
    pub search: Option<String>,
    no_matches: bool,
    /// The line format (`-F`) and the command template run for the chosen item.
    pub format: String,
    pub template: String,
    /// Where the mode was opened (`H` goes back there).
    pub home: (u32, u32),
    /// The pane it shows in place of: as tmux's, the mode shows only while the client
    /// shows that pane.
    pub pane: u32,
    /// How far the session preview is scrolled by `<` and `>`.
    preview_offset: i32,
    /// The last drawing, shown in place of the pane.
    pub drawing: Terminal,
    /// Where the last session preview put its windows, for clicks on it.
    layout: Option<PreviewLayout>,
}

/// Where a session preview put the lines of its `<` and `>` arrows (tmux's `left`, `right`).
#[derive(Clone, Copy, Debug, Default)]
struct PreviewLayout {
    left: Option<u32>,
    right: Option<u32>,
}

impl TreeMode {
    /// A tree mode not built yet; `home` is the session and window ids it was opened for.
    pub fn new(start: StartAt, home: (u32, u32)) -> TreeMode {
        TreeMode {
            start: Some(start),
            items: Vec::new(),
            lines: Vec::new(),
            current: 0,
            offset: 0,
            width: 0,
            height: 0,
            rows: 0,
            preview: true,
            sort: 0,
            reversed: false,
            filter: None,
            search: None,
            no_matches: false,
            format: String::new(),
            template: String::new(),
            home,
            pane: 0,
            preview_offset: 0,
            drawing: Terminal::new(1, 1, 0),
            layout: None,
        }
    }

    /// Sets the sort order by name (`-O`), ignoring a name tmux does not know.
    pub fn set_sort(&mut self, name: &str) {
        if let Some(i) = SORT_ORDERS
            .iter()
            .position(|s| s.eq_ignore_ascii_case(name))
        {
            self.sort = i;
        }
    }

    /// Whether nothing is shown (no session at all).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The current item.
    pub fn current_tag(&self) -> Option<Tag> {
        self.lines.get(self.current).map(|l| self.item(l).tag)
    }

    /// The tagged items, in the order shown.
    pub fn tagged(&self) -> Vec<Tag> {
        self.lines
            .iter()
            .map(|l| self.item(l))
            .filter(|i| i.tagged)
            .map(|i| i.tag)
            .collect()
    }

    fn item(&self, l: &Line) -> &Item {
        let s = &self.items[l.session];
        l.window.map_or(s, |w| &s.children[w])
    }

    fn item_mut(&mut self, at: usize) -> &mut Item {
        let l = self.lines[at];
        let s = &mut self.items[l.session];
        match l.window {
            Some(w) => &mut s.children[w],
            None => s,
        }
    }

    /// Builds the tree from the engine's sessions for a `cols` by `rows` pane, as tmux's
    /// `mode_tree_build`: sorted, states kept by tag, the current item kept (or `want`), the
    /// list's height chosen, the offset reset around the current line. `no_matches`: the
    /// filter matched nothing and `sessions` are all of them.
    pub fn build(
        &mut self,
        sessions: Vec<SessionInfo>,
        no_matches: bool,
        want: Option<Tag>,
        size: (u32, u32),
    ) {
        let tag = want.or(self.current_tag());
        self.merge(sessions, no_matches);
        self.lines = self.flatten();
        self.set_current(tag);
        self.set_size(size);
        self.check_selected();
    }

    /// Builds the tree again with what the engine shows now (names, activity) before a
    /// redraw, keeping the current item and the scroll position where they still fit.
    pub fn refresh(&mut self, sessions: Vec<SessionInfo>, no_matches: bool, size: (u32, u32)) {
        let tag = self.current_tag();
        let offset = self.offset;
        self.merge(sessions, no_matches);
        self.lines = self.flatten();
        self.set_current(tag);
        self.set_size(size);
        if self.current >= offset && self.current < offset + self.height as usize {
            self.offset = offset;
        } else {
            self.check_selected();
        }
    }

    /// Replaces the items with the engine's, sorted, with the states the old ones had.
    fn merge(&mut self, mut sessions: Vec<SessionInfo>, no_matches: bool) {
        let (field, reversed) = (self.sort, self.reversed);
        sessions.sort_by(|a, b| compare(&a.sort, &b.sort, field, reversed));
        let old = std::mem::take(&mut self.items);
        let (session_open, window_open) = match self.start {
            Some(StartAt::Sessions) => (false, false),
            Some(StartAt::Windows) => (true, false),
            _ => (true, true),
        };
        for s in sessions {
            let mut windows = s.windows;
            windows.sort_by(|a, b| compare(&a.sort, &b.sort, field, reversed));
            let mut item = new_item(&old, Tag::Session(s.id), s.name, s.text, session_open, true);
            for w in windows {
                let tag = Tag::Window(w.id);
                let child = new_item(
                    &old,
                    tag,
                    w.index.to_string(),
                    w.text,
                    window_open,
                    item.expanded,
                );
                item.children.push(child);
            }
            self.items.push(item);
        }
        self.no_matches = no_matches;
        self.start = None;
    }

    /// The lines shown: each session, then its windows when it is expanded.
    fn flatten(&self) -> Vec<Line> {
        let mut lines = Vec::new();
        let n = self.items.len();
        let sessions_flat = self.items.iter().all(|s| s.children.is_empty());
        for (si, s) in self.items.iter().enumerate() {
            lines.push(Line {
                session: si,
                window: None,
                last: si + 1 == n,
                flat: sessions_flat,
            });
            if s.expanded {
                let m = s.children.len();
                lines.extend((0..m).map(|wi| Line {
                    session: si,
                    window: Some(wi),
                    last: wi + 1 == m,
                    flat: true,
                }));
            }
        }
        lines
    }

    /// Makes the item `tag` current (the first line when it is not shown), the list starting
    /// at the top unless that hides it (`mode_tree_set_current`).
    fn set_current(&mut self, tag: Option<Tag>) -> bool {
        let found = tag.and_then(|t| self.lines.iter().position(|l| self.item(l).tag == t));
        self.current = found.unwrap_or(0);
        let height = self.height as usize;
        self.offset = match self.current.checked_sub(height.saturating_sub(1)) {
            Some(n) if height > 0 && self.current > height - 1 => n,
            _ => 0,
        };
        found.is_some()
    }

    /// The list's height for a `cols` by `rows` pane: two thirds of it (half when the lines
    /// are fewer) leaving the rest to the preview, or all of it when that leaves too little
    /// (`mode_tree_set_height`).
    fn set_size(&mut self, (cols, rows): (u32, u32)) {
        self.width = cols;
        self.rows = rows;
        if !self.preview {
            self.height = rows;
            return;
        }
        let mut height = (rows / 3) * 2;
        if height as usize > self.lines.len() {
            height = rows / 2;
        }
        if height < 10 || rows - height < 2 {
            height = rows;
        }
        self.height = height;
    }

    /// Scrolls so that the current line shows when it would be below the list.
    fn check_selected(&mut self) {
        let height = self.height.max(1) as usize;
        if self.current > height - 1 {
            self.offset = self.current - height + 1;
        }
    }

    fn up(&mut self, wrap: bool) {
        if self.current == 0 {
            if wrap {
                self.current = self.lines.len() - 1;
                if self.lines.len() >= self.height as usize {
                    self.offset = self.lines.len() - self.height as usize;
                }
            }
        } else {
            self.current -= 1;
            if self.current < self.offset {
                self.offset -= 1;
            }
        }
    }

    fn down(&mut self, wrap: bool) {
        if self.current == self.lines.len() - 1 {
            if wrap {
                self.current = 0;
                self.offset = 0;
            }
        } else {
            self.current += 1;
            if self.current + 1 > self.offset + self.height as usize {
                self.offset += 1;
            }
        }
    }

    /// Lays the lines out again after an item was expanded or collapsed, keeping the
    /// current item (tmux builds the whole tree again there).
    fn relayout(&mut self) {
        let tag = self.current_tag();
        self.lines = self.flatten();
        self.set_current(tag);
        self.set_size((self.width, self.rows));
        self.check_selected();
    }

    /// A key typed in the mode, by its tmux name (`Up`, `C-n`, `M-a`), as tmux's
    /// `mode_tree_key` and `window_tree_key` handle it.
    pub fn key(&mut self, key: &str) -> Outcome {
        if self.lines.is_empty() {
            return Outcome::Quit;
        }
        let before = self.current_tag();
        if let Some(line) = (0..self.lines.len()).find(|&i| line_key(i).as_deref() == Some(key)) {
            self.current = line;
            return self.outcome_of_enter();
        }
        let outcome = self.move_key(key).or_else(|| self.tree_key(key));
        if self.current_tag() != before {
            self.preview_offset = 0;
        }
        outcome.unwrap_or(Outcome::Ignored)
    }

    fn outcome_of_enter(&self) -> Outcome {
        self.current_tag().map_or(Outcome::Quit, Outcome::Choose)
    }

    /// The keys that move the current line.
    fn move_key(&mut self, key: &str) -> Option<Outcome> {
        let height = self.height as usize;
        match key {
            "Up" | "k" | "C-p" => self.up(true),
            "Down" | "j" | "C-n" => self.down(true),
            "PPage" | "PageUp" | "C-b" => {
                for _ in 0..height {
                    if self.current == 0 {
                        break;
                    }
                    self.up(true);
                }
            }
            "NPage" | "PageDown" | "C-f" => {
                for _ in 0..height {
                    if self.current == self.lines.len() - 1 {
                        break;
                    }
                    self.down(true);
                }
            }
            "g" | "Home" => {
                self.current = 0;
                self.offset = 0;
            }
            "G" | "End" => {
                self.current = self.lines.len() - 1;
                self.offset = (self.current + 1).saturating_sub(height.max(1));
            }
            _ => return None,
        }
        Some(Outcome::Redraw)
    }

    /// The keys that change the tree, tags, the preview, or end the mode.
    fn tree_key(&mut self, key: &str) -> Option<Outcome> {
        let line = self.lines[self.current];
        match key {
            "q" | "Escape" | "C-g" => return Some(Outcome::Quit),
            "Enter" => return Some(self.outcome_of_enter()),
            "t" => {
                // tmux moves on after tagging (its keys always come with a mouse event).
                self.toggle_tag();
                self.down(false);
            }
            "T" => self.items.iter_mut().for_each(|s| untag(s, true)),
            "C-t" => {
                for s in &mut self.items {
                    untag(s, true);
                    s.tagged = true;
                }
            }
            "O" => {
                self.sort = (self.sort + 1) % SORT_ORDERS.len();
                return Some(Outcome::Rebuild);
            }
            "r" => {
                self.reversed = !self.reversed;
                return Some(Outcome::Rebuild);
            }
            "Left" | "h" | "-" => self.collapse(line),
            "Right" | "l" | "+" => {
                let item = self.item(&line);
                if line.flat || item.expanded {
                    self.down(false);
                } else {
                    self.item_mut(self.current).expanded = true;
                    self.relayout();
                }
            }
            "M--" | "M-+" => {
                let open = key == "M-+";
                self.items.iter_mut().for_each(|s| s.expanded = open);
                self.relayout();
            }
            "v" => {
                self.preview = !self.preview;
                self.relayout();
            }
            "<" => self.preview_offset -= 1,
            ">" => self.preview_offset += 1,
            "H" => return Some(Outcome::Home),
            "/" | "?" | "C-s" => return Some(Outcome::Ask(TreeAsk::Search)),
            "n" => return Some(Outcome::SearchAgain),
            "f" => return Some(Outcome::Ask(TreeAsk::Filter)),
            ":" => return Some(Outcome::Ask(TreeAsk::Command)),
            "x" => return self.current_tag().map(Outcome::Kill),
            "X" => {
                let tagged = self.tagged();
                if tagged.is_empty() {
                    return Some(Outcome::Redraw);
                }
                return Some(Outcome::KillTagged(tagged));
            }
            _ => return None,
        }
        Some(Outcome::Redraw)
    }

    /// `t`: tags the current item (untagging its session or its windows), or untags it.
    fn toggle_tag(&mut self) {
        let line = self.lines[self.current];
        let tagged = self.item(&line).tagged;
        if !tagged {
            let s = &mut self.items[line.session];
            match line.window {
                Some(_) => s.tagged = false,
                None => s.children.iter_mut().for_each(|w| w.tagged = false),
            }
        }
        self.item_mut(self.current).tagged = !tagged;
    }

    /// `Left`: collapses the current item, or its session when it is a window; at a session
    /// with nothing to collapse, moves up.
    fn collapse(&mut self, line: Line) {
        let item = self.item(&line);
        let target = match line.window {
            Some(_) if line.flat || !item.expanded => Some(line.session),
            None if line.flat || !item.expanded => None,
            _ => Some(usize::MAX),
        };
        match target {
            None => self.up(false),
            Some(usize::MAX) => {
                self.item_mut(self.current).expanded = false;
                self.relayout();
            }
            Some(session) => {
                self.items[session].expanded = false;
                let tag = self.items[session].tag;
                self.lines = self.flatten();
                self.set_current(Some(tag));
                self.set_size((self.width, self.rows));
                self.check_selected();
            }
        }
    }

    /// A mouse key (`MouseDown1Pane`, `DoubleClick1Pane`...) at `(x, y)` in the pane, as
    /// tmux's `mode_tree_key` and `window_tree_mouse` read it: a press on a line makes it
    /// current, a double click chooses it; a press on the preview is [`Self::preview_click`].
    pub fn mouse(&mut self, key: &str, x: u32, y: u32) -> Outcome {
        if self.lines.is_empty() {
            return Outcome::Quit;
        }
        let before = self.current_tag();
        let outcome = if x > self.width || y > self.height {
            match (self.preview, key) {
                (true, "MouseDown1Pane") => self.preview_click(x),
                _ => Outcome::Redraw,
            }
        } else {
            let line = self.offset + y as usize;
            let pick = matches!(
                key,
                "MouseDown1Pane" | "MouseDown3Pane" | "DoubleClick1Pane"
            );
            if line < self.lines.len() && pick {
                self.current = line;
            }
            match key {
                "DoubleClick1Pane" if line < self.lines.len() => self.outcome_of_enter(),
                _ => Outcome::Redraw,
            }
        };
        if self.current_tag() != before {
            self.preview_offset = 0;
        }
        outcome
    }

    /// A press on the preview at column `x`: at an arrow, scrolls a session's windows; else
    /// the mode ends with nothing chosen, as tmux 3.3a's does (it builds its tree again before
    /// running the template for the item it held, which that build freed).
    fn preview_click(&mut self, x: u32) -> Outcome {
        let l = self.layout.unwrap_or_default();
        if l.left.is_some_and(|left| x <= left) {
            self.preview_offset -= 1;
            return Outcome::Redraw;
        }
        if l.right.is_some_and(|right| x >= right) {
            self.preview_offset += 1;
            return Outcome::Redraw;
        }
        Outcome::Quit
    }

    /// The next item after the current one (through collapsed sessions' windows, from the
    /// first after the last) that `matches`, made current with its session expanded, as
    /// tmux's `mode_tree_search_set`; false when none is.
    pub fn search_next(&mut self, matches: impl Fn(Tag) -> bool) -> bool {
        let order: Vec<Tag> = self
            .items
            .iter()
            .flat_map(|s| std::iter::once(s.tag).chain(s.children.iter().map(|w| w.tag)))
            .collect();
        let Some(at) = self
            .current_tag()
            .and_then(|t| order.iter().position(|&o| o == t))
        else {
            return false;
        };
        let n = order.len();
        let Some(found) = (1..n).map(|i| order[(at + i) % n]).find(|&t| matches(t)) else {
            return false;
        };
        if let Tag::Window(_) = found {
            let session = self
                .items
                .iter_mut()
                .find(|s| find(&s.children, found).is_some());
            if let Some(s) = session {
                s.expanded = true;
            }
        }
        self.lines = self.flatten();
        self.set_current(Some(found));
        self.set_size((self.width, self.rows));
        self.check_selected();
        true
    }

    /// `H`: the session and window the mode was opened for, expanded and made current.
    pub fn go_home(&mut self) {
        let (session, window) = self.home;
        if let Some(s) = self
            .items
            .iter_mut()
            .find(|s| s.tag == Tag::Session(session))
        {
            s.expanded = true;
        }
        self.lines = self.flatten();
        self.set_current(Some(Tag::Window(window)));
        self.set_size((self.width, self.rows));
        self.check_selected();
    }

    /// The drawing: the list, then the preview box for the current item (`mode_tree_draw`).
    pub fn draw(&mut self, styles: &Styles, preview: Option<Preview<'_>>) {
        let (w, sy) = (self.width, self.rows);
        let mut term = Terminal::new(w.max(1), sy.max(1), 0);
        let mut out = Canvas::default();
        out.push("\x1b[?7l\x1b)0");
        self.draw_list(&mut out, styles);
        let h = self.height;
        if self.preview && sy > 4 && h > 4 && sy - h > 4 && w > 4 && !self.lines.is_empty() {
            self.draw_preview_box(&mut out, styles);
            let (nx, ny) = (w - 4, sy - h - 2);
            if let Some(p) = preview.filter(|_| nx != 0 && ny != 0) {
                let area = (2, h + 1, nx, ny);
                self.layout = draw_preview(&mut out, styles, p, area, &mut self.preview_offset);
            }
        }
        out.at(0, self.current.saturating_sub(self.offset) as u32);
        term.feed(out.0.as_bytes());
        self.drawing = term;
    }

    fn draw_list(&self, out: &mut Canvas, styles: &Styles) {
        let w = self.width;
        let keylen = (0..self.lines.len())
            .filter_map(line_key)
            .map(|k| k.len() + 3)
            .max()
            .unwrap_or(0);
        let shown = self.lines.iter().enumerate().skip(self.offset);
        for (i, line) in shown.take(self.height as usize) {
            let item = self.item(line);
            let key = line_key(i).map_or(String::new(), |k| format!("({k})"));
            let mut text = format!("{key:<keylen$}");
            text += &tree_start(line, item, self.items[line.session].children.is_empty());
            text += &item.name;
            text += if item.tagged { "*" } else { "" };
            text += ": ";
            let bold = if item.tagged { "\x1b[1m" } else { "" };
            let current = i == self.current;
            let base = if current {
                out.at(0, (i - self.offset) as u32);
                out.push(&styles.mode_bg);
                out.push(&" ".repeat(w as usize));
                format!("{}{bold}", styles.mode)
            } else {
                format!("\x1b[0m{bold}")
            };
            out.at(0, (i - self.offset) as u32);
            let used = out.prefix(&base, &text, w);
            // The item's text as tmux's `format_draw` draws it, over the line's pen (a tagged
            // item's in bold).
            let pen = if current {
                styles.mode_pen
            } else {
                Pen::default()
            };
            let pen = Pen {
                attr: pen.attr ^ if item.tagged { attr::BRIGHT } else { 0 },
                ..pen
            };
            let mut cells = vec![Cell::blank(pen); (w - used) as usize];
            format_draw::draw(&mut cells, pen, &item.text);
            let mut drawn = Vec::new();
            format_draw::push_line(&mut drawn, &cells);
            out.push(&String::from_utf8_lossy(&drawn));
            out.push("\x1b[0m");
        }
    }

    fn draw_preview_box(&self, out: &mut Canvas, styles: &Styles) {
        let (w, h, sy) = (self.width, self.height, self.rows);
        out.push("\x1b[0m");
        draw_box(out, (0, h), w, sy - h);
        let item = self.item(&self.lines[self.current]);
        let reversed = if self.reversed { ", reversed" } else { "" };
        let title = format!(
            " {} (sort: {}{reversed})",
            item.name, SORT_ORDERS[self.sort]
        );
        if (w as usize) < title.len() + 2 {
            return;
        }
        out.at(1, h);
        out.push(&title);
        let n = if self.no_matches {
            "no matches"
        } else {
            "active"
        }
        .len();
        if self.filter.is_some() && w as usize >= title.len() + 2 + 10 + n + 2 {
            out.push(" (filter: ");
            if self.no_matches {
                out.push(&styles.mode);
                out.push("no matches\x1b[0m");
            } else {
                out.push("active");
            }
            out.push(") ");
        } else {
            out.push(" ");
        }
    }
}

/// A new item, with the expanded and tagged states of the item of the same tag before
/// (its tag only when its parent is expanded), else expanded as `open`.
fn new_item(
    old: &[Item],
    tag: Tag,
    name: String,
    text: String,
    open: bool,
    parent_open: bool,
) -> Item {
    let saved = find(old, tag);
    Item {
        tag,
        name,
        text,
        expanded: saved.map_or(open, |s| s.expanded),
        tagged: saved.is_some_and(|s| s.tagged && parent_open),
        children: Vec::new(),
    }
}

fn find(items: &[Item], tag: Tag) -> Option<&Item> {
    items.iter().find_map(|i| {
        if i.tag == tag {
            return Some(i);
        }
        find(&i.children, tag)
    })
}

fn untag(item: &mut Item, children: bool) {
    item.tagged = false;
    if children {
        item.children.iter_mut().for_each(|c| untag(c, false));
    }
}

/// tmux's default key for line `i` (`WINDOW_TREE_DEFAULT_KEY_FORMAT`): `0` to `9`, then `M-a`
/// to `M-z`, then none.
fn line_key(i: usize) -> Option<String> {
    match i {
        0..=9 => Some(i.to_string()),
        10..=35 => Some(format!("M-{}", (b'a' + (i - 10) as u8) as char)),
        _ => None,
    }
}

/// The tree's lines before an item's name (line-drawing characters between `\x01`s, as
/// tmux writes them) and its expand symbol.
fn tree_start(line: &Line, item: &Item, no_children: bool) -> String {
    let symbol = if line.flat {
        ""
    } else if no_children {
        "  "
    } else if item.expanded {
        "- "
    } else {
        "+ "
    };
    match line.window {
        None => symbol.to_string(),
        Some(_) if line.last => format!("\x01mq\x01> {symbol}"),
        Some(_) => format!("\x01tq\x01> {symbol}"),
    }
}

/// Orders two items by the sort field, as tmux's `window_tree_cmp_*`.
fn compare(a: &SortKeys, b: &SortKeys, field: usize, reversed: bool) -> std::cmp::Ordering {
    let order = match field {
        0 => a.index.cmp(&b.index),
        2 => b.time.cmp(&a.time).then_with(|| a.name.cmp(&b.name)),
        _ => a.name.cmp(&b.name),
    };
    if reversed {
        order.reverse()
    } else {
        order
    }
}

/// Escape sequences building the drawing.
#[derive(Default)]
struct Canvas(String);

impl Canvas {
    fn push(&mut self, s: &str) {
        self.0.push_str(s);
    }

    fn at(&mut self, x: u32, y: u32) {
        self.0 += &format!("\x1b[{};{}H", y + 1, x + 1);
    }

    /// Text at most `max` cells wide in `base`, `\x01` switching the line-drawing set on and
    /// off (`screen_write_nputs`); the cells written.
    fn prefix(&mut self, base: &str, text: &str, max: u32) -> u32 {
        self.push(base);
        let mut used = 0;
        let mut acs = false;
        for c in text.chars() {
            if c == '\x01' {
                acs = !acs;
                self.push(if acs { "\x0e" } else { "\x0f" });
                continue;
            }
            if c.is_control() {
                continue;
            }
            let width = super::attach::text_width(c.encode_utf8(&mut [0; 4]));
            if used + width > max {
                break;
            }
            used += width;
            self.0.push(c);
        }
        self.push("\x0f");
        used
    }
}

/// A box of line-drawing characters with its top left corner at `(x, y)`.
fn draw_box(out: &mut Canvas, (x, y): (u32, u32), nx: u32, ny: u32) {
    if nx < 2 || ny < 2 {
        return;
    }
    let inner = "q".repeat(nx as usize - 2);
    out.at(x, y);
    out.push(&format!("\x0el{inner}k\x0f"));
    out.at(x, y + ny - 1);
    out.push(&format!("\x0em{inner}j\x0f"));
    for i in 1..ny - 1 {
        out.at(x, y + i);
        out.push("\x0ex\x0f");
        out.at(x + nx - 1, y + i);
        out.push("\x0ex\x0f");
    }
}

/// A vertical line `ny` high from `(x, y)`.
fn draw_vline(out: &mut Canvas, (x, y): (u32, u32), ny: u32) {
    for i in 0..ny {
        out.at(x, y + i);
        out.push("\x0ex\x0f");
    }
}

/// Which of `total` windows a session preview `width` wide shows, before `<`/`>` scroll it:
/// as many as fit 24 cells each, around the current one.
fn visible_range(total: u32, current: u32, width: u32) -> (u32, u32) {
    let visible = visible_count(total, width);
    if current < visible {
        (0, visible)
    } else if current >= total - visible {
        (total - visible, total)
    } else {
        let start = current - visible / 2;
        (start, start + visible)
    }
}

fn visible_count(total: u32, width: u32) -> u32 {
    if total == 0 || width / total < 24 {
        (width / 24).max(1).min(total.max(1))
    } else {
        total
    }
}

/// The preview of the current item in the area `(x, y, nx, ny)` (`window_tree_draw`): a
/// window's pane, or a session's windows side by side with `<` and `>` when some are hidden.
fn draw_preview(
    out: &mut Canvas,
    styles: &Styles,
    preview: Preview<'_>,
    area: (u32, u32, u32, u32),
    offset: &mut i32,
) -> Option<PreviewLayout> {
    let (cx, cy, sx, sy) = area;
    let panes: Vec<(String, &Terminal, bool)> = match &preview {
        Preview::Session { windows, current } => windows
            .iter()
            .enumerate()
            .map(|(i, (index, name, term))| (format!(" {index}:{name} "), *term, i == *current))
            .collect(),
        Preview::Window { pane, index } => vec![(format!(" {index} "), *pane, true)],
    };
    let current = match &preview {
        Preview::Session { current, .. } => *current as u32,
        Preview::Window { .. } => 0,
    };
    let total = panes.len() as u32;
    if total == 0 {
        return None;
    }
    let visible = visible_count(total, sx);
    let (mut start, mut end) = visible_range(total, current, sx);
    *offset = (*offset).max(-(start as i32)).min((total - end) as i32);
    start = (start as i32 + *offset) as u32;
    end = (end as i32 + *offset) as u32;
    let (mut left, mut right) = (start != 0, end != total);
    if (left && right && sx <= 6) || ((left || right) && sx <= 3) {
        (left, right) = (false, false);
    }
    let arrows = 3 * (left as u32 + right as u32);
    let each = (sx - arrows) / visible;
    let remaining = (sx - arrows) - visible * each;
    if each == 0 {
        return None;
    }
    if left {
        draw_vline(out, (cx + 2, cy), sy);
        out.at(cx, cy + sy / 2);
        out.push("<");
    }
    if right {
        draw_vline(out, (cx + sx - 3, cy), sy);
        out.at(cx + sx - 1, cy + sy / 2);
        out.push(">");
    }
    let is_session = matches!(preview, Preview::Session { .. });
    for (i, n) in (start..end).enumerate() {
        let (label, term, active) = &panes[n as usize];
        let x = cx + if left { 3 } else { 0 } + i as u32 * each;
        let width = if n == end - 1 {
            each + remaining
        } else {
            each - 1
        };
        copy_screen(out, term, (x, cy), width, sy);
        let mut label = label.clone();
        if is_session && label.len() as u32 > width {
            label = format!(" {} ", label.trim().split(':').next().unwrap_or(""));
        }
        // tmux centres a window's pane label in the whole share, a session's window label
        // in the drawn width.
        let label_width = if is_session { width } else { each };
        let colour = if *active {
            &styles.active_label
        } else {
            &styles.label
        };
        draw_label(out, (x, cy), label_width, sy, colour, &label);
        if n != end - 1 {
            draw_vline(out, (x + width, cy), sy);
        }
    }
    Some(PreviewLayout {
        left: left.then_some(cx + 2),
        right: right.then_some(cx + sx - 3),
    })
}

/// A label in the middle of an area, boxed when there is room (`window_tree_draw_label`).
fn draw_label(out: &mut Canvas, (px, py): (u32, u32), sx: u32, sy: u32, colour: &str, label: &str) {
    let len = label.len() as u32;
    if sx == 0 || sy == 1 || len > sx {
        return;
    }
    let (ox, oy) = ((sx - len).div_ceil(2), sy.div_ceil(2));
    if ox > 1 && ox + len < sx - 1 && sy >= 3 {
        out.push("\x1b[0m");
        draw_box(out, (px + ox - 1, py + oy - 1), len + 2, 3);
    }
    out.at(px + ox, py + oy);
    out.push(&format!("\x1b[0;{colour}m{label}\x1b[0m"));
}

/// A pane's screen `nx` by `ny` cells at `(x, y)`, around its cursor when that shows (the
/// cursor's cell in reverse), else from its top left (`screen_write_preview`).
fn copy_screen(out: &mut Canvas, term: &Terminal, (x, y): (u32, u32), nx: u32, ny: u32) {
    let (cols, rows) = (term.cols(), term.rows());
    let (ccx, ccy) = term.cursor();
    let cursor = term.mode() & crate::term::mode::CURSOR != 0;
    let around = |c: u32, n: u32, size: u32| {
        let p = c.saturating_sub(n / 3);
        if p + n > size {
            size.saturating_sub(n)
        } else {
            p
        }
    };
    let (px, py) = match cursor {
        true => (around(ccx, nx, cols), around(ccy, ny, rows)),
        false => (0, 0),
    };
    for row in 0..ny.min(rows.saturating_sub(py)) {
        let line = captured_row(term, py + row);
        out.at(x, y + row);
        out.push("\x1b[0m");
        out.push(&String::from_utf8_lossy(&columns(&line, px, nx)));
        out.push("\x1b[0m\x0f");
    }
    if cursor && ccx >= px && ccx - px < nx && ccy >= py && ccy - py < ny {
        let line = captured_row(term, ccy);
        // Its colours, then reverse video, then the character alone (a wide one is two
        // columns wide; an empty cell a space).
        let mut cell = columns(&line, ccx, 2);
        let at = first_character(&cell).unwrap_or(cell.len());
        let end = match at < cell.len() {
            true => at + super::attach::utf8_len(&cell[at..]),
            false => at,
        };
        cell.truncate(end);
        if at == end {
            cell.push(b' ');
        }
        cell.splice(at..at, b"\x1b[7m".iter().copied());
        out.at(x + ccx - px, y + ccy - py);
        out.push(&String::from_utf8_lossy(&cell));
        out.push("\x1b[0m\x0f");
    }
}

/// Row `y` of a screen with its SGR codes and every cell.
fn captured_row(term: &Terminal, y: u32) -> Vec<u8> {
    let line = term.capture(&CaptureOptions {
        start: Some(LineSpec::Line(y as i64)),
        end: Some(LineSpec::Line(y as i64)),
        escapes: true,
        no_trim: true,
        ..Default::default()
    });
    line.strip_suffix(b"\n").unwrap_or(&line).to_vec()
}

/// Where the first character (not an escape sequence) of a captured row starts.
fn first_character(line: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            0x1b => i += super::attach::key_len(&line[i..]),
            b if b < 0x20 => i += 1,
            _ => return Some(i),
        }
    }
    None
}

/// The cells of a captured row from column `from`, at most `cols` wide, with every SGR code
/// before them so they keep their colours.
fn columns(line: &[u8], from: u32, cols: u32) -> Vec<u8> {
    let mut rest = Vec::with_capacity(line.len());
    let (mut x, mut i) = (0, 0);
    while i < line.len() {
        let escape = line[i] == 0x1b;
        let n = match escape {
            true => super::attach::key_len(&line[i..]),
            false => super::attach::utf8_len(&line[i..]),
        };
        let text = std::str::from_utf8(&line[i..i + n]).unwrap_or(" ");
        if escape || line[i] < 0x20 || x >= from {
            rest.extend_from_slice(&line[i..i + n]);
        } else {
            x += super::attach::text_width(text);
        }
        i += n;
    }
    let mut out = Vec::new();
    super::attach::push_cropped(&mut out, &rest, cols);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(id: u32, name: &str, windows: &[(u32, u32)]) -> SessionInfo {
        SessionInfo {
            id,
            name: name.into(),
            text: format!("{} windows", windows.len()),
            sort: SortKeys {
                index: id,
                name: name.into(),
                time: 0,
            },
            windows: windows
                .iter()
                .map(|&(id, index)| WindowInfo {
                    id,
                    index,
                    text: format!("w{index}"),
                    sort: SortKeys {
                        index,
                        name: format!("w{index}"),
                        time: 0,
                    },
                })
                .collect(),
        }
    }

    fn tree(start: StartAt) -> TreeMode {
        let mut t = TreeMode::new(start, (1, 11));
        let sessions = vec![
            session(1, "work", &[(10, 0), (11, 1)]),
            session(2, "other", &[(20, 0)]),
        ];
        t.build(sessions, false, Some(Tag::Window(11)), (80, 29));
        t
    }

    fn rows(t: &mut TreeMode) -> Vec<String> {
        t.draw(&Styles::default(), None);
        let opts = CaptureOptions {
            escapes: true,
            ..Default::default()
        };
        let text = String::from_utf8_lossy(&t.drawing.capture(&opts)).into_owned();
        // Line-drawing characters as they look, escape sequences left out.
        let (mut out, mut acs, mut chars) = (String::new(), false, text.chars());
        while let Some(c) = chars.next() {
            match c {
                '\x0e' => acs = true,
                '\x0f' => acs = false,
                '\x1b' => {
                    chars.by_ref().find(|c| c.is_ascii_alphabetic());
                }
                c if acs => out.push(crate::term::text::line_drawing_char(c as u8).unwrap_or(c)),
                c => out.push(c),
            }
        }
        out.lines().map(str::to_string).collect()
    }

    #[test]
    fn sessions_start_collapsed_and_windows_under_expanded_sessions() {
        let mut t = tree(StartAt::Sessions);
        let r = rows(&mut t);
        assert_eq!(r[0], "(0) + work: 2 windows");
        assert_eq!(r[1], "(1) + other: 1 windows");
        assert_eq!(t.current_tag(), Some(Tag::Session(1)));
        let mut t = tree(StartAt::Windows);
        let r = rows(&mut t);
        assert_eq!(r[1], "(1) ├─> 0: w0");
        assert_eq!(r[2], "(2) └─> 1: w1");
        assert_eq!(t.current_tag(), Some(Tag::Window(11)));
    }

    #[test]
    fn keys_move_expand_collapse_and_choose() {
        let mut t = tree(StartAt::Sessions);
        assert_eq!(t.key("Right"), Outcome::Redraw);
        assert_eq!(rows(&mut t)[0], "(0) - work: 2 windows");
        assert_eq!(t.key("Down"), Outcome::Redraw);
        assert_eq!(t.current_tag(), Some(Tag::Window(10)));
        assert_eq!(t.key("Left"), Outcome::Redraw);
        assert_eq!(t.current_tag(), Some(Tag::Session(1)));
        assert_eq!(rows(&mut t)[0], "(0) + work: 2 windows");
        assert_eq!(t.key("Up"), Outcome::Redraw);
        assert_eq!(t.current_tag(), Some(Tag::Session(2)));
        assert_eq!(t.key("0"), Outcome::Choose(Tag::Session(1)));
        assert_eq!(t.key("q"), Outcome::Quit);
        assert_eq!(t.key("Z"), Outcome::Ignored);
    }

    #[test]
    fn tags_exclude_parents_and_children() {
        let mut t = tree(StartAt::Windows);
        t.key("t");
        t.key("g");
        t.key("t");
        assert_eq!(t.current_tag(), Some(Tag::Window(10)));
        assert_eq!(t.tagged(), vec![Tag::Session(1)]);
        assert!(rows(&mut t)[0].starts_with("(0) - work*: "));
        t.key("T");
        assert!(t.tagged().is_empty());
        t.key("C-t");
        assert_eq!(t.tagged(), vec![Tag::Session(1), Tag::Session(2)]);
    }

    #[test]
    fn the_preview_box_takes_the_lower_third() {
        let mut t = tree(StartAt::Windows);
        let r = rows(&mut t);
        assert_eq!(t.height, 14);
        assert!(r[14].starts_with("┌ 1 (sort: index) ─"), "{:?}", r[14]);
        assert!(r[28].starts_with("└─"));
        let mut t = tree(StartAt::Windows);
        t.key("v");
        assert_eq!(t.height, 29);
    }

    #[test]
    fn clicks_pick_lines_and_double_clicks_choose() {
        let mut t = tree(StartAt::Windows);
        assert_eq!(t.mouse("MouseDown1Pane", 3, 3), Outcome::Redraw);
        assert_eq!(t.current_tag(), Some(Tag::Session(2)));
        assert_eq!(t.mouse("WheelUpPane", 3, 1), Outcome::Redraw);
        assert_eq!(t.current_tag(), Some(Tag::Session(2)));
        let chosen = t.mouse("DoubleClick1Pane", 3, 1);
        assert_eq!(chosen, Outcome::Choose(Tag::Window(10)));
        rows(&mut t);
        assert_eq!(t.mouse("MouseDown1Pane", 30, 20), Outcome::Quit);
    }

    #[test]
    fn searches_go_through_collapsed_sessions_and_wrap() {
        let mut t = tree(StartAt::Sessions);
        assert!(t.search_next(|tag| tag == Tag::Window(20)));
        assert_eq!(t.current_tag(), Some(Tag::Window(20)));
        assert_eq!(rows(&mut t)[1], "(1) - other: 1 windows");
        assert!(t.search_next(|tag| tag == Tag::Session(1)));
        assert_eq!(t.current_tag(), Some(Tag::Session(1)));
        assert!(!t.search_next(|tag| tag == Tag::Session(1)));
        assert_eq!(t.key("f"), Outcome::Ask(TreeAsk::Filter));
    }

    #[test]
    fn sort_orders_and_reverse() {
        let mut t = tree(StartAt::Sessions);
        assert_eq!(t.key("O"), Outcome::Rebuild);
        let sessions = vec![
            session(1, "work", &[(10, 0), (11, 1)]),
            session(2, "other", &[(20, 0)]),
        ];
        t.build(sessions, false, None, (80, 29));
        assert_eq!(rows(&mut t)[0], "(0) + other: 1 windows");
        assert_eq!(t.current_tag(), Some(Tag::Session(1)));
    }

    #[test]
    fn columns_keep_colours_and_crop() {
        let line = b"ab\x1b[31mcd\x1b[0mef";
        assert_eq!(columns(line, 1, 2), b"b\x1b[31mc".to_vec());
        assert_eq!(columns(line, 3, 1), b"\x1b[31md\x1b[0m".to_vec());
    }
}

#[cfg(test)]
mod scroll_tests {
    use super::*;

    #[test]
    fn up_wraps_to_the_last_page() {
        let sessions: Vec<SessionInfo> = (0..26)
            .map(|i| SessionInfo {
                id: i,
                name: format!("s{i}"),
                text: String::new(),
                sort: SortKeys {
                    index: i,
                    ..Default::default()
                },
                windows: vec![WindowInfo {
                    id: 100 + i,
                    index: 0,
                    text: String::new(),
                    sort: SortKeys::default(),
                }],
            })
            .collect();
        let mut t = TreeMode::new(StartAt::Sessions, (0, 100));
        t.build(sessions.clone(), false, Some(Tag::Session(0)), (80, 29));
        assert_eq!((t.current, t.offset, t.height), (0, 0, 18));
        t.key("Up");
        assert_eq!((t.current, t.offset), (25, 8));
        t.refresh(sessions.clone(), false, (80, 29));
        assert_eq!((t.current, t.offset), (25, 8));
        for _ in 0..3 {
            t.key("Up");
            t.refresh(sessions.clone(), false, (80, 29));
        }
        assert_eq!((t.current, t.offset), (22, 8));
    }
}
