//! Searching in copy mode, as tmux 3.3a's `window_copy_search` searches: for text, cell by
//! cell across wrapped lines, ignoring case when the text has no capitals, from the cursor
//! down or up, going round the copy's ends with `wrap-search`; every match on the rows shown
//! marked (drawn in `copy-mode-match-style`, the one under the cursor in
//! `copy-mode-current-match-style`) and counted the first time, for the position's
//! `(N results)`. Incremental searches (emacs' C-s and C-r) go back to where they started
//! when their text changes.
//!
//! `search-forward` and `search-backward` take a pattern with regular expression characters
//! as a POSIX extended expression, compiled by the host (`Settings::regex`; the C
//! library's), matched against a line's text with its blank cells to the width and the
//! lines it wraps onto, as tmux matches it; without a compiler it is searched for as text.
//!
//! Invariant: `marks`, when present, has one byte for each cell of the rows shown, 0 where no
//! match is and the match's number (1 to 255, going round) where one is; any change of the
//! rows shown marks them again.

use super::{CopyMode, Lines, Settings};
use crate::term::width::tmux_width;

/// What a copy mode remembers of its searches.
#[derive(Debug, Default)]
pub(super) struct Search {
    /// The text (tmux's `searchstr`).
    pub(super) text: Option<String>,
    /// The text is a regular expression (tmux's `searchregex`).
    pub(super) regex: bool,
    /// How the host compiles regular expressions, as the last search was given it.
    compiler: Option<RegexCompiler>,
    /// The way `search-again` goes (true: down); `None` before any search.
    pub(super) again_down: Option<bool>,
    /// The way the last search went (tmux's `searchdirection`).
    last_down: bool,
    marks: Option<Vec<u8>>,
    /// Matches in the whole copy when it was last counted (`None`: not counted).
    count: Option<u32>,
    /// The text last searched, and whether the whole copy has been searched for it.
    counted_text: Option<String>,
    /// Where an incremental search started: cursor and view.
    incremental_start: Option<(u32, u32, u32)>,
}

/// How a marked cell is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Match,
    Current,
}

/// Commands that keep the marks (tmux's `WINDOW_COPY_CMD_CLEAR_NEVER`).
const KEEP_MARKS: &[&str] = &[
    "copy-pipe-no-clear",
    "copy-selection-no-clear",
    "pipe-no-clear",
    "toggle-position",
];

/// Commands that keep the marks with vi keys (tmux's `WINDOW_COPY_CMD_CLEAR_EMACS_ONLY`).
const KEEP_MARKS_VI: &[&str] = &[
    "bottom-line",
    "cursor-down",
    "cursor-left",
    "cursor-right",
    "cursor-up",
    "end-of-line",
    "goto-line",
    "halfpage-down",
    "halfpage-up",
    "history-bottom",
    "history-top",
    "jump-again",
    "jump-backward",
    "jump-forward",
    "jump-reverse",
    "jump-to-backward",
    "jump-to-forward",
    "middle-line",
    "next-paragraph",
    "next-space",
    "next-space-end",
    "next-word",
    "next-word-end",
    "other-end",
    "page-down",
    "page-up",
    "previous-paragraph",
    "previous-space",
    "previous-word",
    "scroll-down",
    "scroll-up",
    "start-of-line",
    "top-line",
];

/// The cells a text takes on a screen: its characters, a wide one followed by an empty
/// padding cell, combining ones joined to the one before.
fn cells_of(text: &str) -> Vec<String> {
    let mut cells: Vec<String> = Vec::new();
    for c in text.chars() {
        match tmux_width(c) {
            Some(0) => match cells.iter_mut().rev().find(|s| !s.is_empty()) {
                Some(last) => last.push(c),
                None => cells.push(c.to_string()),
            },
            Some(2) => {
                cells.push(c.to_string());
                cells.push(String::new());
            }
            _ => cells.push(c.to_string()),
        }
    }
    cells
}

/// A compiled regular expression (the host's C library's POSIX extended ones, as tmux's).
pub trait Regex {
    /// The bytes of `text` the first match takes; `not_bol`: `text` does not start a line.
    fn find(&self, text: &str, not_bol: bool) -> Option<(usize, usize)>;
}

/// Compiles a pattern, ignoring case or not; `None` when it does not compile.
pub type RegexCompiler = fn(&str, bool) -> Option<Box<dyn Regex>>;

/// The characters that make a search pattern a regular expression (tmux searches for a
/// pattern without any as text).
const REGEX_CHARACTERS: &str = "^$*+()?[].\\";

/// What a search looks for: the cells of its text, or a regular expression; case is ignored
/// when the pattern has no capitals, as tmux's `window_copy_is_lowercase` decides.
enum Needle {
    Text { cells: Vec<String>, fold: bool },
    Regex(Box<dyn Regex>),
}

impl Needle {
    /// The needle for `pattern`: a regular expression when asked for, it has one's
    /// characters and the host compiles them, else text; `None` when it does not compile.
    fn of(pattern: &str, regex: bool, compiler: Option<RegexCompiler>) -> Option<Needle> {
        let fold = !pattern.bytes().any(|b| b.is_ascii_uppercase());
        match compiler.filter(|_| regex && pattern.contains(|c| REGEX_CHARACTERS.contains(c))) {
            Some(compile) => compile(pattern, fold).map(Needle::Regex),
            None => Some(Needle::Text {
                cells: cells_of(pattern),
                fold,
            }),
        }
    }
}

impl Lines<'_> {
    /// Whether text `cells` match from cell `ax` of line `py` on, going on through lines
    /// that wrap (tmux's `window_copy_search_compare` over a row).
    fn matches_at(&mut self, cells: &[String], fold: bool, ax: u32, py: u32) -> bool {
        let (sx, last) = (self.sx(), self.last_line());
        for (bx, want) in cells.iter().enumerate() {
            let (mut px, mut y) = (ax + bx as u32, py);
            while px >= sx && y < last && self.line(y).wrapped {
                px -= sx;
                y += 1;
            }
            if px >= sx {
                return false;
            }
            let line = self.line(y);
            let have = line.cell(px);
            let same = match (fold, have.as_bytes()) {
                (true, [b]) => want.as_bytes() == [b.to_ascii_lowercase()],
                _ => have == want,
            };
            if !same || (want.is_empty() != line.is_padding(px)) {
                return false;
            }
        }
        true
    }

    /// The first match starting in cells `first..last` of line `py`: its cell and width.
    fn find_right(
        &mut self,
        needle: &Needle,
        py: u32,
        first: u32,
        last: u32,
    ) -> Option<(u32, u32)> {
        match needle {
            Needle::Text { cells, fold } => (first..last)
                .find(|&ax| self.matches_at(cells, *fold, ax, py))
                .map(|ax| (ax, cells.len().max(1) as u32)),
            Needle::Regex(re) => self.regex_right(re.as_ref(), py, first, last),
        }
    }

    /// The last match starting in cells `first..last` of line `py`: its cell and width.
    fn find_left(&mut self, needle: &Needle, py: u32, first: u32, last: u32) -> Option<(u32, u32)> {
        match needle {
            Needle::Text { cells, fold } => (first..last)
                .rev()
                .find(|&ax| self.matches_at(cells, *fold, ax, py))
                .map(|ax| (ax, cells.len().max(1) as u32)),
            Needle::Regex(re) => self.regex_left(re.as_ref(), py, first, last),
        }
    }

    /// The text of line `py` from cell `first`, and of the lines it wraps onto, with where
    /// each cell's characters start (tmux's `window_copy_stringify`).
    fn stringify(&mut self, py: u32, first: u32) -> (String, Vec<usize>) {
        let (sx, last) = (self.sx(), self.last_line());
        let (mut text, mut starts) = (String::new(), Vec::new());
        let (mut y, mut from) = (py, first);
        loop {
            let line = self.line(y);
            for x in from..sx {
                starts.push(text.len());
                text.push_str(line.cell(x));
            }
            if y >= last || !line.wrapped {
                return (text, starts);
            }
            (y, from) = (y + 1, 0);
        }
    }

    /// A regular expression's first match starting on line `py` in cells `first..last`
    /// (tmux's `window_copy_search_lr_regex`).
    fn regex_right(
        &mut self,
        re: &dyn Regex,
        py: u32,
        first: u32,
        last: u32,
    ) -> Option<(u32, u32)> {
        if first >= last {
            return None;
        }
        let (text, starts) = self.stringify(py, first);
        let (so, eo) = re.find(&text, first != 0).filter(|(so, eo)| so != eo)?;
        let (start, end) = (cell_at(&starts, so), cell_at(&starts, eo));
        (first + start < last).then_some((first + start, end - start))
    }

    /// A regular expression's last match starting on line `py` in cells `first..last`
    /// (tmux's `window_copy_last_regex`): a match running past `last` ends the search.
    fn regex_left(&mut self, re: &dyn Regex, py: u32, first: u32, last: u32) -> Option<(u32, u32)> {
        let (text, starts) = self.stringify(py, first);
        let (mut at, mut kept) = (0, None);
        while let Some((so, eo)) = text.get(at..).and_then(|rest| re.find(rest, first != 0)) {
            if so == eo {
                break;
            }
            let start = first + cell_at(&starts, at + so);
            if start >= last {
                break;
            }
            let end = first + cell_at(&starts, at + eo);
            if end >= last {
                return Some((start, end - start));
            }
            kept = Some((start, end - start));
            at += eo;
        }
        kept
    }
}

impl Lines<'_> {
    /// A regular expression's match found searching up at the start of line `y`, which a
    /// line before wraps onto: the earliest match on the lines before that ends where it
    /// ends, as tmux's `window_copy_search_back_overlap` finds it. Text needles stay put.
    fn back_overlap(
        &mut self,
        needle: &Needle,
        x: u32,
        width: u32,
        y: u32,
        endline: u32,
    ) -> (u32, u32) {
        if !matches!(needle, Needle::Regex(_)) {
            return (x, y);
        }
        let sx = self.sx();
        let end_of = |x: u32, width: u32, y: u32| ((x + width) % sx, y + (x + width) / sx);
        let old_end = end_of(x, width, y);
        let (mut best, mut at) = ((x, y), (x, y));
        while at.0 == 0 && at.1 > endline && at.1 > 0 && self.line(at.1 - 1).wrapped {
            let y = at.1 - 1;
            let Some((px, w)) = self.find_left(needle, y, 0, sx) else {
                break;
            };
            at = (px, y);
            if end_of(px, w, y) != old_end {
                break;
            }
            best = at;
        }
        best
    }
}

/// The cell whose characters start at byte `offset` of a line's text (one past the last when
/// none does).
fn cell_at(starts: &[usize], offset: usize) -> u32 {
    starts
        .iter()
        .position(|&s| s == offset)
        .unwrap_or(starts.len()) as u32
}

impl CopyMode {
    fn lines(&self) -> Lines<'_> {
        Lines::new(&self.backing)
    }

    /// Runs a `search-` command; false when `name` is not one.
    pub(super) fn search_command(
        &mut self,
        name: &str,
        arg: Option<&str>,
        n: u32,
        set: &Settings,
    ) -> bool {
        match name {
            "search-forward"
            | "search-forward-text"
            | "search-backward"
            | "search-backward-text" => {
                if let Some(text) = arg.filter(|a| !a.is_empty()) {
                    self.search.text = Some(text.to_string());
                }
                if self.search.text.is_some() {
                    let down = name.starts_with("search-forward");
                    self.search.again_down = Some(down);
                    self.search.regex = !name.ends_with("-text");
                    (0..n).for_each(|_| {
                        self.search(down, set);
                    });
                }
            }
            "search-again" | "search-reverse" => {
                if let Some(down) = self.search.again_down {
                    let down = down == (name == "search-again");
                    (0..n).for_each(|_| {
                        self.search(down, set);
                    });
                }
            }
            "search-forward-incremental" | "search-backward-incremental" => {
                self.search_incremental(
                    name == "search-forward-incremental",
                    arg.unwrap_or(""),
                    set,
                );
            }
            _ => return false,
        }
        true
    }

    /// Clears the marks after a command other than a search, unless tmux keeps them for it.
    pub(super) fn after_command(&mut self, name: &str, known: bool, vi: bool) {
        if name.starts_with("search-") || self.search.marks.is_none() || !known {
            return;
        }
        if KEEP_MARKS.contains(&name) || (vi && KEEP_MARKS_VI.contains(&name)) {
            return;
        }
        self.search.marks = None;
        self.search.incremental_start = None;
    }

    /// A new copy: its matches are searched for and counted again (tmux's
    /// `window_copy_size_changed`), and an incremental search starts from here.
    pub(super) fn refresh_marks_everywhere(&mut self) {
        if self.search.marks.is_some() {
            self.mark_matches(false);
        }
        self.search.incremental_start = Some((self.cx, self.cy, self.oy));
    }

    /// Marks the rows shown again after they moved (tmux re-marks the visible lines).
    pub(super) fn refresh_marks(&mut self) {
        if self.search.marks.is_some() {
            self.mark_matches(true);
        }
    }

    fn search_incremental(&mut self, forward: bool, arg: &str, set: &Settings) {
        let mut chars = arg.chars();
        let prefix = chars.next();
        let text = chars.as_str();
        match self.search.incremental_start {
            None => self.search.incremental_start = Some((self.cx, self.cy, self.oy)),
            Some((cx, cy, oy)) if self.search.text.as_deref().is_some_and(|t| t != text) => {
                (self.cx, self.cy, self.oy) = (cx, cy, oy);
            }
            Some(_) => {}
        }
        if text.is_empty() {
            self.search.marks = None;
            return;
        }
        let down = match prefix {
            Some('=') => forward,
            Some('+') => true,
            Some('-') => false,
            _ => return,
        };
        self.search.again_down = Some(down);
        self.search.text = Some(text.to_string());
        self.search.regex = false;
        if !self.search(down, set) {
            self.search.marks = None;
        }
    }

    /// One search from the cursor for the search text (tmux's `window_copy_search`); true
    /// when it found a match.
    fn search(&mut self, down: bool, set: &Settings) -> bool {
        let Some(text) = self.search.text.clone() else {
            return false;
        };
        self.search.last_down = down;
        let visible_only = self.search.counted_text.as_deref() == Some(text.as_str());
        self.search.counted_text = Some(text.clone());
        self.search.compiler = set.regex;
        let Some(needle) = Needle::of(&text, self.search.regex, set.regex) else {
            return false;
        };
        let wrap = set.wrap_search;
        let (mut fx, mut fy) = (self.cx, self.cursor_line());
        // vi's cursor stays at a match's start, so a search down starts after it.
        if down && set.vi && self.search.marks.is_some() {
            self.move_after_mark(&mut fx, &mut fy, wrap);
        } else if down && set.vi {
            self.move_right(&mut fx, &mut fy, wrap);
        } else if !down {
            self.move_left(&mut fx, &mut fy, wrap);
        }
        let endline = if down {
            self.backing.line_count() - 1
        } else {
            0
        };
        if !self.search_jump(&needle, fx, fy, endline, wrap, down) {
            return false;
        }
        self.mark_matches(visible_only);
        let (mut fx, mut fy) = (self.cx, self.cursor_line());
        if down {
            let repeated = self
                .mark_index(fx, fy)
                .is_some_and(|at| at > 0 && self.mark(at) == self.mark(at - 1));
            if repeated {
                self.move_after_mark(&mut fx, &mut fy, wrap);
                self.search_jump(&needle, fx, fy, endline, wrap, down);
                (fx, fy) = (self.cx, self.cursor_line());
            }
            if !set.vi {
                self.move_after_mark(&mut fx, &mut fy, wrap);
                self.cx = fx;
                self.cy = (fy + self.oy).saturating_sub(self.hsize());
            }
        } else if let Some(start) = self.mark_index(fx, fy) {
            let first = self.mark(start);
            while let Some(at) = self.mark_index(fx, fy).filter(|&at| self.mark(at) == first) {
                self.cx = fx;
                self.cy = (fy + self.oy).saturating_sub(self.hsize());
                if at == 0 {
                    break;
                }
                self.move_left(&mut fx, &mut fy, false);
            }
        }
        self.update_selection(false);
        true
    }

    /// Looks for the needle from `fx`,`fy` towards `endline` and moves the cursor to it,
    /// going round once with `wrap` (tmux's `window_copy_search_jump`).
    fn search_jump(
        &mut self,
        needle: &Needle,
        fx: u32,
        fy: u32,
        endline: u32,
        wrap: bool,
        down: bool,
    ) -> bool {
        let sx = self.sx();
        let found = {
            let mut lines = self.lines();
            if down {
                let mut first = fx;
                (fy..=endline).find_map(|y| {
                    let at = lines.find_right(needle, y, first, sx).map(|(x, _)| (x, y));
                    first = 0;
                    at
                })
            } else {
                let mut last = fx + 1;
                (endline..=fy).rev().find_map(|y| {
                    let at = lines.find_left(needle, y, 0, last.min(sx));
                    last = sx;
                    at.map(|(x, width)| lines.back_overlap(needle, x, width, y, endline))
                })
            }
        };
        if let Some((px, py)) = found {
            self.scroll_to(px, py);
            return true;
        }
        if !wrap {
            return false;
        }
        let (from_x, from_y) = match down {
            true => (0, 0),
            false => (sx - 1, self.backing.line_count() - 1),
        };
        self.search_jump(needle, from_x, from_y, fy, false, down)
    }

    /// Shows line `py` with the cursor at `px` on it, a quarter of the rows from the top
    /// when the view has to move (tmux's `window_copy_scroll_to`).
    pub(super) fn scroll_to(&mut self, px: u32, py: u32) {
        let (hsize, sy) = (self.hsize(), self.sy());
        self.cx = px;
        let top = hsize - self.oy;
        if py >= top && py < top + sy {
            self.cy = py - top;
        } else {
            let gap = sy / 4;
            let offset = if py < sy {
                self.cy = py;
                0
            } else if py > hsize + sy - gap {
                self.cy = py - hsize;
                hsize
            } else {
                let offset = py + gap - sy;
                self.cy = py - offset;
                offset
            };
            self.oy = hsize - offset;
        }
        self.update_selection(false);
    }

    /// Marks the matches on the rows shown; unless `visible_only`, searches the whole copy
    /// to count them (tmux's `window_copy_search_marks`).
    fn mark_matches(&mut self, visible_only: bool) {
        let Some(text) = self.search.text.clone() else {
            return;
        };
        let Some(needle) = Needle::of(&text, self.search.regex, self.search.compiler) else {
            return;
        };
        let (sx, sy) = (self.sx(), self.sy());
        let top = self.hsize() - self.oy;
        let (start, end) = match visible_only {
            true => (self.first_line_shown(), top + sy),
            false => (0, self.backing.line_count()),
        };
        let mut marks = vec![0u8; (sx * sy) as usize];
        let mut number = 1u8;
        let mut found = 0;
        let mut lines = self.lines();
        for py in start..end {
            let mut px = 0;
            while let Some((x, width)) = lines.find_right(&needle, py, px, sx) {
                let width = width.max(1);
                found += 1;
                if py >= top && py < top + sy {
                    let b = ((py - top) * sx + x) as usize;
                    for cell in marks.iter_mut().skip(b).take(width as usize) {
                        if *cell == 0 {
                            *cell = number;
                        }
                    }
                    number = if number == u8::MAX { 1 } else { number + 1 };
                }
                px = x + width;
            }
        }
        self.search.marks = Some(marks);
        if !visible_only {
            self.search.count = Some(found);
        }
    }

    /// The first line of the rows shown, or of the wrapped line that ends on them.
    fn first_line_shown(&self) -> u32 {
        let mut start = self.hsize() - self.oy;
        while start > 0 && self.backing.text_line(start - 1).wrapped {
            start -= 1;
        }
        start
    }

    /// Where cell `px` of line `py` is in the marks, when it is shown.
    fn mark_index(&self, px: u32, py: u32) -> Option<usize> {
        let top = self.hsize() - self.oy;
        (py >= top && py < top + self.sy()).then(|| ((py - top) * self.sx() + px) as usize)
    }

    fn mark(&self, at: usize) -> u8 {
        self.search
            .marks
            .as_ref()
            .and_then(|m| m.get(at).copied())
            .unwrap_or(0)
    }

    /// Moves past the match under `fx`,`fy`, if any.
    fn move_after_mark(&self, fx: &mut u32, fy: &mut u32, wrap: bool) {
        let Some(first) = self
            .mark_index(*fx, *fy)
            .map(|at| self.mark(at))
            .filter(|&m| m != 0)
        else {
            return;
        };
        let last_line = self.backing.line_count() - 1;
        while let Some(at) = self.mark_index(*fx, *fy) {
            if self.mark(at) != first || (!wrap && *fx == self.sx() - 1 && *fy == last_line) {
                break;
            }
            self.move_right(fx, fy, wrap);
        }
    }

    /// One cell right, onto the next line at the end of one, round to the top with `wrap`.
    fn move_right(&self, fx: &mut u32, fy: &mut u32, wrap: bool) {
        if *fx == self.sx() - 1 {
            if *fy == self.backing.line_count() - 1 {
                if wrap {
                    (*fx, *fy) = (0, 0);
                }
                return;
            }
            (*fx, *fy) = (0, *fy + 1);
        } else {
            *fx += 1;
        }
    }

    /// One cell left, onto the line above at the start of one, round to the end with `wrap`.
    fn move_left(&self, fx: &mut u32, fy: &mut u32, wrap: bool) {
        if *fx == 0 {
            if *fy == 0 {
                if wrap {
                    (*fx, *fy) = (self.sx() - 1, self.backing.line_count() - 1);
                }
                return;
            }
            (*fx, *fy) = (self.sx() - 1, *fy - 1);
        } else {
            *fx -= 1;
        }
    }

    /// How cell `x` of row `y` is marked, as tmux's `window_copy_update_style` draws it: the
    /// match under the cursor (just before it, after an emacs search down) is the current one.
    pub fn mark_at(&self, x: u32, y: u32, vi: bool) -> Option<Mark> {
        let marks = self.search.marks.as_ref()?;
        let current = (y * self.sx() + x) as usize;
        let mark = *marks.get(current).filter(|&&m| m != 0)?;
        let cursor = self.mark_index(self.cx, self.cursor_line());
        let under_cursor = cursor.and_then(|mut at| {
            if at != 0 && !vi && self.search.last_down {
                at -= 1;
            }
            (marks.get(at) == Some(&mark)).then_some(at)
        });
        let is_current = under_cursor.is_some_and(|at| {
            let (mut start, mut end) = (at, at);
            while start > 0 && marks[start - 1] == mark {
                start -= 1;
            }
            while end + 1 < marks.len() && marks[end + 1] == mark {
                end += 1;
            }
            (start..=end).contains(&current)
        });
        Some(if is_current {
            Mark::Current
        } else {
            Mark::Match
        })
    }

    /// The position shown at the top right: `[oy/history]`, after `(N results)` once a
    /// search has counted its matches.
    pub fn position_text(&self) -> String {
        match (self.search.marks.is_some(), self.search.count) {
            (true, Some(n)) => format!("({n} results) [{}/{}]", self.oy, self.hsize()),
            _ => format!("[{}/{}]", self.oy, self.hsize()),
        }
    }
}
