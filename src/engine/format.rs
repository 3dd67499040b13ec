//! Formats: tmux 3.3a's `#{...}` template language, as expanded by `display-message -p`,
//! `list-sessions -F`, `list-windows -F`, `list-panes -F`, `new-session -P -F` and the `-f`
//! filter of the list commands.
//!
//! Responsibilities:
//! - [`expand`] expands a template the way tmux's `format_expand` does (the list commands, the
//!   `-f` filters, `new-session -P`); [`expand_time`] first passes every (sub)template through
//!   `strftime` at time `now`, as `format_expand_time` does for `display-message` and the status
//!   line. [`is_true`] is tmux's `format_true`, used by `-f` filters and `#{?...}`.
//! - The engine supplies variables through [`Values`]: session, window and pane variables,
//!   options (`@user` options included) and environment variables all answer `get`. Unknown
//!   variables expand to nothing, as in tmux. The optional methods give the local time zone,
//!   the `S:`/`W:`/`P:` loops, `N:` name checks, `C:` pane searches and `#()` job output.
//! - Supported: `#{name}`, the aliases `#D #F #H #I #P #S #T #W #h`, the escapes `##`, `#,`,
//!   `#}`, `##[` style runs, conditionals `#{?c,a,b}`, comparisons `==`, `!=`, `<`, `>`, `<=`,
//!   `>=`, `||`, `&&`, `m` (fnmatch, or POSIX extended regex with `m/r`), `C`, arithmetic
//!   `e|op|flags|precision|`, width limits `=N`, `=-N` and `=/N/marker/`, padding `pN`/`p-N`,
//!   substitution `s/re/with/flags`, `t:` (ctime), `t/p` (pretty), `t/f/strftime`, `l:`, `b:`,
//!   `d:`, `q:`, `q/e`, `n:`, `w:`, `a:`, `c:`, `E:`, `T:`, `S:`, `W:`, `P:`, `N:` and `#()`,
//!   combined with `;` and nested in any way tmux accepts.
//!
//! Invariants:
//! - Pure: no I/O, no clock, no environment, no locale. The time is the caller's `now`; local
//!   time comes from [`Values::zone`] (UTC unless the engine says otherwise); day and month
//!   names are the C locale's.
//! - Malformed templates behave as in tmux: an unterminated `#{` or `#(`, or a `#{?...}`
//!   without its commas, ends the (sub)template's output there; a modifier list that does not
//!   parse makes the whole `#{...}` body a variable name (or, if it contains `#{`, a template).
//! - Bounded: nesting deeper than tmux's limit of 100 expands to nothing, exactly as in tmux.
//!   Beyond tmux, every expansion has a work budget of [`BUDGET`] units (bytes scanned and
//!   written, regex steps, padding); once spent, the remaining expansions produce nothing, so
//!   templates or variables that refer to each other cannot hang or exhaust memory.
//!
//! Deliberate differences from tmux 3.3a (each where tmux misbehaves or needs data we lack):
//! - `s/re/with/`: after an empty match tmux steps one *byte*, splitting multi-byte characters
//!   into invalid UTF-8 (which a later `w:` or `=-N` then spins on forever); this steps one
//!   character, and width functions skip undecodable bytes.
//! - Regexes are POSIX extended, matched leftmost-longest by our own engine. Back-references
//!   inside a pattern (`(a)\1`) are not supported: the pattern fails to compile, so `s/` leaves
//!   the text unchanged and `m/r` is false, where glibc would match. Groups inside an ambiguous
//!   alternation may capture differently from glibc; character classes use Unicode properties
//!   beyond ASCII.
//! - `c:` knows tmux's numbered and named colours and `#rrggbb`, not the X11 colour names.
//! - Time names and `%c`/`%x`/`%X` are the C locale's; `t:` of a name that only exists in
//!   the environment formats it, where tmux ignores environment variables for `t:`.
//! - A `#` that ends the text inside `#{...}` makes tmux read past the string; here the
//!   `#{...}` is unterminated.

use super::numbers::{is_c_space, strtonum};
use crate::term::width_table::{char_width, tmux_discards};
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};

/// tmux's `FORMAT_LOOP_LIMIT`: how many expansions may be nested.
pub const LOOP_LIMIT: u32 = 100;

/// Work units one call to [`expand`] or [`expand_time`] may spend.
pub const BUDGET: u64 = 1 << 24;

/// `format_expand_time`'s `strftime` buffer: a template whose time expansion needs this many
/// bytes or more expands to nothing.
const TIME_TEMPLATE_MAX: usize = 8192;

/// The `strftime` buffer of `t/f/...`.
const TIME_FORMAT_MAX: usize = 512;

/// A local time zone at some instant: its offset east of UTC and its abbreviation (`%Z`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    pub offset: i32,
    pub name: String,
}

impl Zone {
    pub fn utc() -> Zone {
        Zone {
            offset: 0,
            name: "UTC".to_string(),
        }
    }
}

/// What an `S:`, `W:` or `P:` loop (or an `N:` check) walks over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Sessions,
    Windows,
    Panes,
}

/// One session, window or pane of a loop: its variables, and whether it is the current one
/// (the current window of the session, the active pane of the window).
pub struct Item<'a> {
    pub values: Box<dyn Values + 'a>,
    pub current: bool,
}

/// The variables a template can refer to.
pub trait Values {
    /// The value of a variable, option or environment variable; `None` if unknown.
    fn get(&self, name: &str) -> Option<String>;

    /// The local time zone at unix time `t`, for `t:`, `t/p`, `t/f` and [`expand_time`].
    fn zone(&self, _t: i64) -> Zone {
        Zone::utc()
    }

    /// The items of a loop, in tmux's order. `None` means there is no session (for
    /// [`Scope::Windows`]) or no window (for [`Scope::Panes`]); the loop then fails like tmux's.
    fn each(&self, _scope: Scope) -> Option<Vec<Item<'_>>> {
        None
    }

    /// `N:` and `N/s:`: whether a window of the current session (or a session) has this name.
    /// `None` means there is no current session.
    fn name_exists(&self, _scope: Scope, _name: &str) -> Option<bool> {
        None
    }

    /// `C:`: the line in the pane where the text is found (tmux's `window_pane_search`).
    /// `None` means there is no pane.
    fn search(&self, _text: &str, _regex: bool, _ignore_case: bool) -> Option<u32> {
        None
    }

    /// `#(command)`: the latest output of the job running this (already expanded) command, or
    /// `None` while it has none. Starting and caching jobs is the engine's business.
    fn job(&self, _command: &str) -> Option<String> {
        None
    }
}

impl Values for HashMap<String, String> {
    fn get(&self, name: &str) -> Option<String> {
        HashMap::get(self, name).cloned()
    }
}

impl Values for BTreeMap<String, String> {
    fn get(&self, name: &str) -> Option<String> {
        BTreeMap::get(self, name).cloned()
    }
}

/// tmux's `format_true`: anything but the empty string and `0`.
pub fn is_true(s: &str) -> bool {
    !s.is_empty() && s != "0"
}

/// Expands a template as `format_expand` does (list commands, `-f` filters, `new-session -P`).
/// `now` (unix seconds) is only used by `T:` and `t/p`.
pub fn expand(template: &str, values: &dyn Values, now: i64) -> String {
    run(template, values, now, false)
}

/// Expands a template as `format_expand_time` does (`display-message`): every template and
/// subtemplate containing `%` first goes through `strftime` at time `now`.
pub fn expand_time(template: &str, values: &dyn Values, now: i64) -> String {
    run(template, values, now, true)
}

fn run(template: &str, values: &dyn Values, now: i64, time: bool) -> String {
    let budget = Cell::new(BUDGET);
    let mut exp = Exp {
        values,
        depth: 0,
        time,
        nojobs: false,
        now,
        budget: &budget,
    };
    let out = exp.expand1(template.as_bytes());
    match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

// Modifier flags (tmux's FORMAT_* modifier bits).
const TIMESTRING: u32 = 0x1;
const BASENAME: u32 = 0x2;
const DIRNAME: u32 = 0x4;
const QUOTE_SHELL: u32 = 0x8;
const LITERAL: u32 = 0x10;
const EXPAND: u32 = 0x20;
const EXPANDTIME: u32 = 0x40;
const SESSIONS: u32 = 0x80;
const WINDOWS: u32 = 0x100;
const PANES: u32 = 0x200;
const PRETTY: u32 = 0x400;
const LENGTH: u32 = 0x800;
const WIDTH: u32 = 0x1000;
const QUOTE_STYLE: u32 = 0x2000;
const WINDOW_NAME: u32 = 0x4000;
const SESSION_NAME: u32 = 0x8000;
const CHARACTER: u32 = 0x10000;
const COLOUR: u32 = 0x20000;

/// The byte at `i`, or 0 past the end (C's terminating NUL).
fn at(s: &[u8], i: usize) -> u8 {
    s.get(i).copied().unwrap_or(0)
}

fn alias(ch: u8) -> Option<&'static str> {
    Some(match ch {
        b'D' => "pane_id",
        b'F' => "window_flags",
        b'H' => "host",
        b'I' => "window_index",
        b'P' => "pane_index",
        b'S' => "session_name",
        b'T' => "pane_title",
        b'W' => "window_name",
        b'h' => "host_short",
        _ => return None,
    })
}

/// tmux's `format_skip`: the index of the first byte of `end` at bracket depth 0, skipping
/// `#`-escapes and nested `#{...}`.
pub(super) fn skip(s: &[u8], from: usize, end: &[u8]) -> Option<usize> {
    let mut brackets = 0i64;
    let mut i = from;
    while i < s.len() {
        let c = s[i];
        if c == b'#' {
            let next = at(s, i + 1);
            if next == b'{' {
                brackets += 1;
            }
            if next == 0 {
                // A lone '#' at the very end: tmux reads past the string; treat as unterminated.
                return None;
            }
            if b",#{}:".contains(&next) {
                i += 2;
                continue;
            }
        }
        if c == b'}' {
            brackets -= 1;
        }
        if end.contains(&c) && brackets == 0 {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// tmux's `format_strip`: drops the `#` of escapes outside `#{...}`.
fn strip(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut brackets = 0i64;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let next = at(s, i + 1);
        if c == b'#' && next == b'{' {
            brackets += 1;
        }
        if c == b'#' && next != 0 && b",#{}:".contains(&next) {
            if brackets != 0 {
                out.push(c);
            }
            i += 1;
            continue;
        }
        if c == b'}' {
            brackets -= 1;
        }
        out.push(c);
        i += 1;
    }
    out
}

fn is_end(c: u8) -> bool {
    c == b';' || c == b':'
}

fn is_punct(c: u8) -> bool {
    c.is_ascii_punctuation()
}

struct Modifier {
    name: [u8; 2],
    args: Vec<Vec<u8>>,
}

impl Modifier {
    fn is(&self, name: &str) -> bool {
        let b = name.as_bytes();
        match b.len() {
            1 => self.name == [b[0], 0],
            _ => self.name == [b[0], b[1]],
        }
    }

    fn arg_has(&self, i: usize, c: u8) -> bool {
        self.args.get(i).is_some_and(|a| a.contains(&c))
    }
}

/// The state of one expansion (tmux's `format_expand_state`).
struct Exp<'a> {
    values: &'a dyn Values,
    depth: u32,
    time: bool,
    nojobs: bool,
    now: i64,
    budget: &'a Cell<u64>,
}

impl<'a> Exp<'a> {
    fn charge(&self, units: usize) -> bool {
        charge(self.budget, units)
    }

    fn child<'b>(&'b self, values: &'b dyn Values) -> Exp<'b> {
        Exp {
            values,
            depth: self.depth,
            time: self.time,
            nojobs: self.nojobs,
            now: self.now,
            budget: self.budget,
        }
    }

    /// tmux's `format_expand1`.
    fn expand1(&mut self, fmt: &[u8]) -> Vec<u8> {
        if fmt.is_empty() || self.depth == LOOP_LIMIT || !self.charge(fmt.len() + 1) {
            return Vec::new();
        }
        self.depth += 1;

        let timed;
        let mut fmt = fmt;
        if self.time && fmt.contains(&b'%') {
            let tm = Tm::local(self.values, self.now);
            match strftime(fmt, &tm, TIME_TEMPLATE_MAX) {
                // As in tmux, the nesting level is not given back on this path.
                None => return Vec::new(),
                Some(s) if s.is_empty() => return Vec::new(),
                Some(s) => timed = s,
            }
            if !self.charge(timed.len()) {
                return Vec::new();
            }
            fmt = &timed;
        }

        let mut out = Vec::with_capacity(fmt.len());
        let mut i = 0;
        while i < fmt.len() {
            if fmt[i] != b'#' {
                out.push(fmt[i]);
                i += 1;
                continue;
            }
            i += 1;
            if i >= fmt.len() {
                // "#" then the terminating NUL: tmux copies both, so nothing after shows.
                out.push(b'#');
                break;
            }
            let ch = fmt[i];
            i += 1;
            match ch {
                b'(' => {
                    let mut brackets = 1;
                    let mut p = i;
                    while p < fmt.len() {
                        if fmt[p] == b'(' {
                            brackets += 1;
                        }
                        if fmt[p] == b')' {
                            brackets -= 1;
                            if brackets == 0 {
                                break;
                            }
                        }
                        p += 1;
                    }
                    if p >= fmt.len() {
                        break;
                    }
                    let value = self.job(&fmt[i..p]);
                    if !self.charge(value.len()) {
                        break;
                    }
                    out.extend_from_slice(&value);
                    i = p + 1;
                }
                b'{' => {
                    let Some(p) = skip(fmt, i - 2, b"}") else {
                        break;
                    };
                    if !self.replace(&fmt[i..p], &mut out) {
                        break;
                    }
                    i = p + 1;
                }
                b'#' => {
                    let mut p = i;
                    while p < fmt.len() && fmt[p] == b'#' {
                        p += 1;
                    }
                    if at(fmt, p) == b'[' {
                        out.extend_from_slice(&fmt[i - 2..=p]);
                        i = p + 1;
                    } else {
                        out.push(b'#');
                    }
                }
                b'}' | b',' => out.push(ch),
                _ => match alias(ch) {
                    Some(name) => {
                        if !self.replace(name.as_bytes(), &mut out) {
                            break;
                        }
                    }
                    None => {
                        out.push(b'#');
                        out.push(ch);
                    }
                },
            }
        }
        self.depth -= 1;
        if !self.charge(out.len()) {
            return Vec::new();
        }
        out
    }

    /// `#(command)` (tmux's `format_job_get`, minus the job management).
    fn job(&mut self, command: &[u8]) -> Vec<u8> {
        if self.nojobs {
            return Vec::new();
        }
        let mut next = self.child(self.values);
        next.nojobs = true;
        next.time = false;
        let expanded = next.expand1(command);
        match self.values.job(&String::from_utf8_lossy(&expanded)) {
            Some(output) => next.expand1(output.as_bytes()),
            None => Vec::new(),
        }
    }

    /// tmux's `format_build_modifiers`: the modifiers and where the rest of the key starts.
    fn build_modifiers(&mut self, key: &[u8]) -> Option<(Vec<Modifier>, usize)> {
        let mut list = Vec::new();
        let mut cp = 0;
        while cp < key.len() && key[cp] != b':' {
            if key[cp] == b';' {
                cp += 1;
            }
            let c0 = at(key, cp);
            let c1 = at(key, cp + 1);
            if c0 != 0 && b"labcdnwETSWP<>".contains(&c0) && is_end(c1) {
                list.push(Modifier {
                    name: [c0, 0],
                    args: Vec::new(),
                });
                cp += 1;
                continue;
            }
            let two = [c0, c1];
            if [b"||", b"&&", b"!=", b"==", b"<=", b">="]
                .iter()
                .any(|t| **t == two)
                && is_end(at(key, cp + 2))
            {
                list.push(Modifier {
                    name: two,
                    args: Vec::new(),
                });
                cp += 2;
                continue;
            }
            if c0 == 0 || !b"mCNst=peq".contains(&c0) {
                break;
            }
            if is_end(c1) {
                list.push(Modifier {
                    name: [c0, 0],
                    args: Vec::new(),
                });
                cp += 1;
                continue;
            }
            if !is_punct(c1) || c1 == b'-' {
                let Some(end) = skip(key, cp + 1, b":;") else {
                    break;
                };
                let arg = self.expand1(&key[cp + 1..end]);
                list.push(Modifier {
                    name: [c0, 0],
                    args: vec![arg],
                });
                cp = end;
                continue;
            }
            let last = [c1, b';', b':'];
            cp += 1;
            let mut args = Vec::new();
            loop {
                if at(key, cp) == c1 && is_end(at(key, cp + 1)) {
                    cp += 1;
                    break;
                }
                let Some(end) = skip(key, cp + 1, &last) else {
                    break;
                };
                cp += 1;
                args.push(self.expand1(&key[cp..end]));
                cp = end;
                if is_end(at(key, cp)) {
                    break;
                }
            }
            list.push(Modifier {
                name: [c0, 0],
                args,
            });
        }
        if at(key, cp) != b':' {
            return None;
        }
        Some((list, cp + 1))
    }

    /// tmux's `format_choose`: splits at the first top-level comma.
    fn choose(&mut self, s: &[u8], expand: bool) -> Option<(Vec<u8>, Vec<u8>)> {
        let cp = skip(s, 0, b",")?;
        let (left, right) = (&s[..cp], &s[cp + 1..]);
        if expand {
            let left = self.expand1(left);
            let right = self.expand1(right);
            Some((left, right))
        } else {
            Some((left.to_vec(), right.to_vec()))
        }
    }

    /// tmux's `format_find`.
    fn find(&self, name: &[u8], flags: u32, time_format: Option<&[u8]>) -> Option<Vec<u8>> {
        let found = self.values.get(&String::from_utf8_lossy(name))?;
        if flags & TIMESTRING != 0 {
            let t = strtonum(found.as_bytes(), 0, i64::MAX).unwrap_or(0);
            if t == 0 {
                return None;
            }
            let tm = Tm::local(self.values, t);
            if flags & PRETTY != 0 {
                let now = Tm::local(self.values, self.now.max(t));
                return Some(pretty_time(&tm, &now, self.now.max(t) - t));
            }
            if let Some(tf) = time_format {
                let s = strftime(tf, &tm, TIME_FORMAT_MAX).unwrap_or_default();
                return self.charge(tf.len() + s.len()).then_some(s);
            }
            return Some(tm.ctime());
        }
        let mut found = found.into_bytes();
        if flags & BASENAME != 0 {
            found = basename(&found);
        }
        if flags & DIRNAME != 0 {
            found = dirname(&found);
        }
        if flags & QUOTE_SHELL != 0 {
            let mut out = Vec::with_capacity(found.len() * 2);
            for &c in &found {
                if b"|&;<>()$`\\\"'*?[# =%".contains(&c) {
                    out.push(b'\\');
                }
                out.push(c);
            }
            found = out;
        }
        if flags & QUOTE_STYLE != 0 {
            let mut out = Vec::with_capacity(found.len() * 2);
            for &c in &found {
                if c == b'#' {
                    out.push(b'#');
                }
                out.push(c);
            }
            found = out;
        }
        Some(found)
    }

    /// tmux's `format_replace`: expands one `#{...}` body into `out`; false if it fails.
    fn replace(&mut self, key: &[u8], out: &mut Vec<u8>) -> bool {
        let (list, rest) = self.build_modifiers(key).unwrap_or((Vec::new(), 0));
        let copy = &key[rest..];

        let mut flags = 0u32;
        let mut limit: i64 = 0;
        let mut width: i64 = 0;
        let mut marker: Option<&[u8]> = None;
        let mut time_format: Option<Vec<u8>> = None;
        let mut cmp: Option<&Modifier> = None;
        let mut search: Option<&Modifier> = None;
        let mut mexp: Option<&Modifier> = None;
        let mut subs: Vec<&Modifier> = Vec::new();
        for fm in &list {
            if fm.name[1] == 0 {
                match fm.name[0] {
                    b'm' | b'<' | b'>' => cmp = Some(fm),
                    b'C' => search = Some(fm),
                    b's' if fm.args.len() >= 2 => subs.push(fm),
                    b'=' => {
                        if let Some(a) = fm.args.first() {
                            limit = strtonum(a, i32::MIN as i64, i32::MAX as i64).unwrap_or(0);
                            if let Some(m) = fm.args.get(1) {
                                marker = Some(m);
                            }
                        }
                    }
                    b'p' => {
                        if let Some(a) = fm.args.first() {
                            width = strtonum(a, i32::MIN as i64, i32::MAX as i64).unwrap_or(0);
                        }
                    }
                    b'w' => flags |= WIDTH,
                    b'e' if (1..=3).contains(&fm.args.len()) => mexp = Some(fm),
                    b'l' => flags |= LITERAL,
                    b'a' => flags |= CHARACTER,
                    b'b' => flags |= BASENAME,
                    b'c' => flags |= COLOUR,
                    b'd' => flags |= DIRNAME,
                    b'n' => flags |= LENGTH,
                    b't' => {
                        flags |= TIMESTRING;
                        if !fm.args.is_empty() {
                            if fm.arg_has(0, b'p') {
                                flags |= PRETTY;
                            } else if fm.args.len() >= 2 && fm.arg_has(0, b'f') {
                                time_format = Some(strip(&fm.args[1]));
                            }
                        }
                    }
                    b'q' => {
                        if fm.args.is_empty() {
                            flags |= QUOTE_SHELL;
                        } else if fm.arg_has(0, b'e') || fm.arg_has(0, b'h') {
                            flags |= QUOTE_STYLE;
                        }
                    }
                    b'E' => flags |= EXPAND,
                    b'T' => flags |= EXPANDTIME,
                    b'N' => {
                        if fm.args.is_empty() || fm.arg_has(0, b'w') {
                            flags |= WINDOW_NAME;
                        } else if fm.arg_has(0, b's') {
                            flags |= SESSION_NAME;
                        }
                    }
                    b'S' => flags |= SESSIONS,
                    b'W' => flags |= WINDOWS,
                    b'P' => flags |= PANES,
                    _ => {}
                }
            } else if ["||", "&&", "==", "!=", ">=", "<="]
                .iter()
                .any(|n| fm.is(n))
            {
                cmp = Some(fm);
            }
        }

        let mut value: Vec<u8>;
        if flags & LITERAL != 0 {
            value = copy.to_vec();
        } else if flags & CHARACTER != 0 {
            let new = self.expand1(copy);
            value = match strtonum(&new, 32, 126) {
                Ok(c) => vec![c as u8],
                Err(_) => Vec::new(),
            };
        } else if flags & COLOUR != 0 {
            let new = self.expand1(copy);
            value = match colour_rgb(&new) {
                Some(c) => format!("{c:06x}").into_bytes(),
                None => Vec::new(),
            };
        } else {
            if flags & SESSIONS != 0 {
                value = self.loop_over(Scope::Sessions, copy);
            } else if flags & WINDOWS != 0 {
                match self.loop_scoped(Scope::Windows, copy) {
                    Some(v) => value = v,
                    None => return false,
                }
            } else if flags & PANES != 0 {
                match self.loop_scoped(Scope::Panes, copy) {
                    Some(v) => value = v,
                    None => return false,
                }
            } else if flags & WINDOW_NAME != 0 {
                let name = self.expand1(copy);
                let name = String::from_utf8_lossy(&name);
                match self.values.name_exists(Scope::Windows, &name) {
                    Some(found) => value = bool_value(found),
                    None => return false,
                }
            } else if flags & SESSION_NAME != 0 {
                let name = self.expand1(copy);
                let name = String::from_utf8_lossy(&name);
                let found = self.values.name_exists(Scope::Sessions, &name);
                value = bool_value(found.unwrap_or(false));
            } else if let Some(fm) = search {
                let text = self.expand1(copy);
                let text = String::from_utf8_lossy(&text);
                let (ignore, regex) = (fm.arg_has(0, b'i'), fm.arg_has(0, b'r'));
                value = match self.values.search(&text, regex, ignore) {
                    Some(line) => line.to_string().into_bytes(),
                    None => b"0".to_vec(),
                };
            } else if let Some(fm) = cmp {
                let Some((left, right)) = self.choose(copy, true) else {
                    return false;
                };
                let result = match fm.name {
                    [b'|', b'|'] => is_true_bytes(&left) || is_true_bytes(&right),
                    [b'&', b'&'] => is_true_bytes(&left) && is_true_bytes(&right),
                    [b'=', b'='] => left == right,
                    [b'!', b'='] => left != right,
                    [b'<', 0] => left < right,
                    [b'>', 0] => left > right,
                    [b'<', b'='] => left <= right,
                    [b'>', b'='] => left >= right,
                    _ => self.matches(fm, &left, &right),
                };
                value = bool_value(result);
            } else if at(copy, 0) == b'?' {
                let Some(cp) = skip(copy, 1, b",") else {
                    return false;
                };
                let condition = &copy[1..cp];
                let found = match self.find(condition, flags, time_format.as_deref()) {
                    Some(found) => found,
                    None => {
                        let found = self.expand1(condition);
                        if found == condition {
                            Vec::new()
                        } else {
                            found
                        }
                    }
                };
                let Some((left, right)) = self.choose(&copy[cp + 1..], false) else {
                    return false;
                };
                value = if is_true_bytes(&found) {
                    self.expand1(&left)
                } else {
                    self.expand1(&right)
                };
            } else if let Some(fm) = mexp {
                value = self.expression(fm, copy).unwrap_or_default();
            } else if contains(copy, b"#{") {
                value = self.expand1(copy);
            } else {
                value = self
                    .find(copy, flags, time_format.as_deref())
                    .unwrap_or_default();
            }
        }

        if flags & EXPAND != 0 {
            value = self.expand1(&value);
        } else if flags & EXPANDTIME != 0 {
            let mut next = self.child(self.values);
            next.time = true;
            value = next.expand1(&value);
        }

        for fm in subs {
            let pattern = self.expand1(&fm.args[0]);
            let with = self.expand1(&fm.args[1]);
            let icase = fm.arg_has(2, b'i');
            let pattern = String::from_utf8_lossy(&pattern).into_owned();
            let with = String::from_utf8_lossy(&with).into_owned();
            let text = String::from_utf8_lossy(&value).into_owned();
            if let Some(new) = regsub(&pattern, &with, &text, icase, self.budget) {
                value = new.into_bytes();
            }
        }

        if limit > 0 {
            let new = trim_left(&value, limit as u64);
            value = match marker {
                Some(m) if new != value => [new.as_slice(), m].concat(),
                _ => new,
            };
        } else if limit < 0 {
            let new = trim_right(&value, limit.unsigned_abs());
            value = match marker {
                Some(m) if new != value => [m, new.as_slice()].concat(),
                _ => new,
            };
        }

        if width != 0 {
            let want = width.unsigned_abs();
            let have = cstr_width(&value);
            if have < want {
                let pad = (want - have) as usize;
                if !self.charge(pad) {
                    return false;
                }
                let spaces = vec![b' '; pad];
                value = if width > 0 {
                    [value.as_slice(), &spaces].concat()
                } else {
                    [spaces.as_slice(), &value].concat()
                };
            }
        }

        if flags & LENGTH != 0 {
            value = value.len().to_string().into_bytes();
        }
        if flags & WIDTH != 0 {
            value = format_width(&value).to_string().into_bytes();
        }

        if !self.charge(value.len()) {
            return false;
        }
        out.extend_from_slice(&value);
        true
    }

    /// `W:` and `P:`: `all,current` templates, the current item using the second.
    fn loop_scoped(&mut self, scope: Scope, fmt: &[u8]) -> Option<Vec<u8>> {
        let items = self.values.each(scope)?;
        let (all, current) = match self.choose(fmt, false) {
            Some((all, current)) => (all, Some(current)),
            None => (fmt.to_vec(), None),
        };
        let mut value = Vec::new();
        for item in &items {
            let use_ = match &current {
                Some(c) if item.current => c,
                _ => &all,
            };
            let mut next = self.child(item.values.as_ref());
            value.extend(next.expand1(use_));
        }
        Some(value)
    }

    /// `S:`: every session.
    fn loop_over(&mut self, scope: Scope, fmt: &[u8]) -> Vec<u8> {
        let items = self.values.each(scope).unwrap_or_default();
        let mut value = Vec::new();
        for item in &items {
            let mut next = self.child(item.values.as_ref());
            value.extend(next.expand1(fmt));
        }
        value
    }

    /// tmux's `format_match`: `m` (fnmatch) and `m/r` (regex), with `i` for case folding.
    fn matches(&self, fm: &Modifier, pattern: &[u8], text: &[u8]) -> bool {
        let icase = fm.arg_has(0, b'i');
        let pattern = String::from_utf8_lossy(pattern);
        let text = String::from_utf8_lossy(text);
        if !fm.arg_has(0, b'r') {
            let p: Vec<char> = pattern.chars().collect();
            let t: Vec<char> = text.chars().collect();
            if !self.charge(p.len().saturating_mul(t.len() + 1)) {
                return false;
            }
            return fnmatch(&p, &t, icase);
        }
        let Ok(re) = regex::Regex::new(&pattern, icase) else {
            return false;
        };
        let t: Vec<char> = text.chars().collect();
        re.search(&t, self.budget).is_some()
    }

    /// tmux's `format_replace_expression`: `e|op|flags|precision|`.
    fn expression(&mut self, fm: &Modifier, copy: &[u8]) -> Option<Vec<u8>> {
        #[derive(PartialEq)]
        enum Op {
            Add,
            Sub,
            Mul,
            Div,
            Mod,
            Eq,
            Ne,
            Gt,
            Ge,
            Lt,
            Le,
        }
        let op = match fm.args[0].as_slice() {
            b"+" => Op::Add,
            b"-" => Op::Sub,
            b"*" => Op::Mul,
            b"/" => Op::Div,
            b"%" | b"m" => Op::Mod,
            b"==" => Op::Eq,
            b"!=" => Op::Ne,
            b">" => Op::Gt,
            b"<" => Op::Lt,
            b">=" => Op::Ge,
            b"<=" => Op::Le,
            _ => return None,
        };
        let use_fp = fm.arg_has(1, b'f');
        let mut prec: i64 = if use_fp { 2 } else { 0 };
        if let Some(p) = fm.args.get(2) {
            prec = strtonum(p, i32::MIN as i64, i32::MAX as i64).ok()?;
        }
        let (left, right) = self.choose(copy, true)?;
        let mut l = strtod(&left)?;
        let mut r = strtod(&right)?;
        if !use_fp {
            l = c_trunc(l) as f64;
            r = c_trunc(r) as f64;
        }
        let result = match op {
            Op::Add => l + r,
            Op::Sub => l - r,
            Op::Mul => l * r,
            Op::Div => l / r,
            Op::Mod => l % r,
            Op::Eq => f64::from((l - r).abs() < 1e-9),
            Op::Ne => f64::from((l - r).abs() > 1e-9),
            Op::Gt => f64::from(l > r),
            Op::Ge => f64::from(l >= r),
            Op::Lt => f64::from(l < r),
            Op::Le => f64::from(l <= r),
        };
        let result = if use_fp {
            result
        } else {
            c_trunc(result) as f64
        };
        // printf's "%.*f": a negative precision is as if none were given.
        let prec = if prec < 0 { 6 } else { prec.min(4096) as usize };
        if !self.charge(prec) {
            return None;
        }
        Some(printf_f(result, prec).into_bytes())
    }
}

/// Takes `units` from the budget; false (and the budget emptied) if there are not that many.
fn charge(budget: &Cell<u64>, units: usize) -> bool {
    let left = budget.get();
    let units = units as u64;
    if units > left {
        budget.set(0);
        false
    } else {
        budget.set(left - units);
        true
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn is_true_bytes(s: &[u8]) -> bool {
    !s.is_empty() && s != b"0"
}

fn bool_value(b: bool) -> Vec<u8> {
    if b {
        b"1".to_vec()
    } else {
        b"0".to_vec()
    }
}

/// A C `(long long)` conversion as x86-64 performs it: out of range and NaN give `i64::MIN`.
fn c_trunc(v: f64) -> i64 {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2^63
    if v.is_nan() || !(-LIMIT..LIMIT).contains(&v) {
        i64::MIN
    } else {
        v as i64
    }
}

/// printf's `%.*f`.
fn printf_f(v: f64, prec: usize) -> String {
    if v.is_nan() {
        if v.is_sign_negative() {
            "-nan".to_string()
        } else {
            "nan".to_string()
        }
    } else if v.is_infinite() {
        if v < 0.0 {
            "-inf".to_string()
        } else {
            "inf".to_string()
        }
    } else {
        format!("{v:.prec$}")
    }
}

/// C's `strtod`, requiring the whole string to be consumed (as tmux's expressions do).
fn strtod(s: &[u8]) -> Option<f64> {
    if s.is_empty() {
        return Some(0.0);
    }
    let mut i = 0;
    while i < s.len() && is_c_space(s[i]) {
        i += 1;
    }
    let rest = std::str::from_utf8(&s[i..]).ok()?;
    let (negative, body) = match rest.as_bytes().first() {
        Some(b'-') => (true, &rest[1..]),
        Some(b'+') => (false, &rest[1..]),
        _ => (false, rest),
    };
    let lower = body.to_ascii_lowercase();
    let magnitude = if lower == "inf" || lower == "infinity" {
        f64::INFINITY
    } else if lower == "nan"
        || (lower.starts_with("nan(")
            && lower.ends_with(')')
            && lower[4..lower.len() - 1]
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_'))
    {
        f64::NAN
    } else if let Some(hex) = lower.strip_prefix("0x") {
        parse_hex_float(hex)?
    } else {
        let b = body.as_bytes();
        let mut j = 0;
        let int_start = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let mut digits = j - int_start;
        if j < b.len() && b[j] == b'.' {
            j += 1;
            let frac = j;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            digits += j - frac;
        }
        if digits == 0 {
            return None;
        }
        if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
            j += 1;
            if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                j += 1;
            }
            let e = j;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j == e {
                return None;
            }
        }
        if j != b.len() {
            return None;
        }
        body.parse::<f64>().ok()?
    };
    Some(if negative { -magnitude } else { magnitude })
}

fn parse_hex_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut j = 0;
    let mut mantissa = 0f64;
    let mut digits = 0;
    let mut exp: i64 = 0;
    while j < b.len() && b[j].is_ascii_hexdigit() {
        mantissa = mantissa * 16.0 + (b[j] as char).to_digit(16)? as f64;
        j += 1;
        digits += 1;
    }
    if j < b.len() && b[j] == b'.' {
        j += 1;
        while j < b.len() && b[j].is_ascii_hexdigit() {
            mantissa = mantissa * 16.0 + (b[j] as char).to_digit(16)? as f64;
            exp -= 4;
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if j < b.len() && b[j] == b'p' {
        j += 1;
        let (neg, start) = match b.get(j) {
            Some(b'-') => (true, j + 1),
            Some(b'+') => (false, j + 1),
            _ => (false, j),
        };
        j = start;
        let mut e: i64 = 0;
        while j < b.len() && b[j].is_ascii_digit() {
            e = (e * 10 + (b[j] - b'0') as i64).min(100_000);
            j += 1;
        }
        if j == start {
            return None;
        }
        exp += if neg { -e } else { e };
    }
    if j != b.len() {
        return None;
    }
    Some(mantissa * 2f64.powi(exp.clamp(-100_000, 100_000) as i32))
}

/// tmux's `colour_fromstring` then `colour_force_rgb`, as `c:` uses them.
fn colour_rgb(s: &[u8]) -> Option<u32> {
    if s.len() == 7 && s[0] == b'#' {
        if !s[1..].iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        return u32::from_str_radix(std::str::from_utf8(&s[1..]).ok()?, 16).ok();
    }
    let lower = s.to_ascii_lowercase();
    for prefix in [&b"colour"[..], b"color"] {
        if lower.starts_with(prefix) {
            let n = strtonum(&s[prefix.len()..], 0, 255).ok()?;
            return Some(PALETTE[n as usize]);
        }
    }
    const NAMES: [(&str, &str, usize); 16] = [
        ("black", "0", 0),
        ("red", "1", 1),
        ("green", "2", 2),
        ("yellow", "3", 3),
        ("blue", "4", 4),
        ("magenta", "5", 5),
        ("cyan", "6", 6),
        ("white", "7", 7),
        ("brightblack", "90", 8),
        ("brightred", "91", 9),
        ("brightgreen", "92", 10),
        ("brightyellow", "93", 11),
        ("brightblue", "94", 12),
        ("brightmagenta", "95", 13),
        ("brightcyan", "96", 14),
        ("brightwhite", "97", 15),
    ];
    for (name, number, index) in NAMES {
        if lower == name.as_bytes() || s == number.as_bytes() {
            return Some(PALETTE[index]);
        }
    }
    // "default", "terminal" and X11 colour names have no RGB value here.
    None
}

/// tmux's 256-colour palette in RGB (`colour_256toRGB`).
static PALETTE: [u32; 256] = {
    let mut t = [0u32; 256];
    let base = [
        0x000000, 0x800000, 0x008000, 0x808000, 0x000080, 0x800080, 0x008080, 0xc0c0c0, 0x808080,
        0xff0000, 0x00ff00, 0xffff00, 0x0000ff, 0xff00ff, 0x00ffff, 0xffffff,
    ];
    let mut i = 0;
    while i < 16 {
        t[i] = base[i];
        i += 1;
    }
    let level = [0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff];
    let mut c = 0;
    while c < 216 {
        t[16 + c] = (level[c / 36] << 16) | (level[(c / 6) % 6] << 8) | level[c % 6];
        c += 1;
    }
    let mut g = 0;
    while g < 24 {
        let v = 8 + 10 * g as u32;
        t[232 + g] = (v << 16) | (v << 8) | v;
        g += 1;
    }
    t
};

/// glibc's POSIX `basename` (libgen.h).
fn basename(s: &[u8]) -> Vec<u8> {
    if s.is_empty() {
        return b".".to_vec();
    }
    let mut end = s.len();
    while end > 1 && s[end - 1] == b'/' {
        end -= 1;
    }
    if end == 1 && s[0] == b'/' {
        return b"/".to_vec();
    }
    let start = s[..end]
        .iter()
        .rposition(|&c| c == b'/')
        .map_or(0, |p| p + 1);
    s[start..end].to_vec()
}

/// glibc's `dirname`.
fn dirname(s: &[u8]) -> Vec<u8> {
    let Some(mut last) = s.iter().rposition(|&c| c == b'/') else {
        return b".".to_vec();
    };
    if last != 0 && last + 1 == s.len() {
        // Trailing slashes: look for the slash before the last component.
        let mut run = last;
        while run > 0 && s[run - 1] == b'/' {
            run -= 1;
        }
        if run != 0 {
            match s[..run].iter().rposition(|&c| c == b'/') {
                Some(p) => last = p,
                None => return b".".to_vec(),
            }
        }
    }
    let mut run = last;
    while run > 0 && s[run - 1] == b'/' {
        run -= 1;
    }
    let end = if run == 0 {
        if last == 1 {
            2
        } else {
            1
        }
    } else {
        run
    };
    s[..end].to_vec()
}

// ---------------------------------------------------------------------------------------------
// Widths: format_width, format_trim_left/right and utf8_cstrwidth.

/// One multi-byte character at `i`: `Some((width, len))` as utf8_open/utf8_append decode it,
/// `None` if it does not decode (or `wcwidth` rejects it). Only called for lead bytes.
fn decode(s: &[u8], i: usize) -> Option<(u64, usize)> {
    let size = match s[i] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let bytes = s.get(i..i + size)?;
    let c = std::str::from_utf8(bytes).ok()?.chars().next()?;
    if tmux_discards(c) {
        return None;
    }
    Some((char_width(c) as u64, size))
}

/// tmux's `format_leading_hashes`: (count, width, next index).
fn leading_hashes(s: &[u8], i: usize) -> (usize, u64, usize) {
    let mut n = 0;
    while at(s, i + n) == b'#' {
        n += 1;
    }
    let half = (n / 2) as u64;
    if at(s, i + n) != b'[' {
        return (n, half + (n % 2) as u64, i + n);
    }
    if n % 2 == 0 {
        (n, half, i + n)
    } else {
        (n, half, i + n - 1)
    }
}

/// The cells an expanded format takes once drawn (`#[...]` styles take none).
pub fn width(s: &str) -> u32 {
    u32::try_from(format_width(s.as_bytes())).unwrap_or(u32::MAX)
}

/// tmux's `format_width`: display width, `#[...]` styles counting nothing.
fn format_width(s: &[u8]) -> u64 {
    let mut width = 0;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == b'#' {
            let (_, w, next) = leading_hashes(s, i);
            width += w;
            i = next;
            if at(s, i) == b'#' {
                match skip(s, i + 2, b"]") {
                    Some(end) => i = end + 1,
                    None => return 0,
                }
            }
        } else if (0xc2..=0xf4).contains(&c) {
            match decode(s, i) {
                Some((w, len)) => {
                    width += w;
                    i += len;
                }
                // tmux loops forever here; skip the byte instead.
                None => i += 1,
            }
        } else {
            if (0x20..0x7f).contains(&c) {
                width += 1;
            }
            i += 1;
        }
    }
    width
}

/// tmux's `format_trim_left`: the leftmost `limit` columns.
fn trim_left(s: &[u8], limit: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut width = 0u64;
    let mut i = 0;
    while i < s.len() {
        if width >= limit {
            break;
        }
        let c = s[i];
        if c == b'#' {
            let (n, mut w, next) = leading_hashes(s, i);
            w = w.min(limit - width);
            if w != 0 {
                push_hashes(&mut out, n, w);
                width += w;
            }
            i = next;
            if at(s, i) == b'#' {
                let Some(end) = skip(s, i + 2, b"]") else {
                    break;
                };
                out.extend_from_slice(&s[i..=end]);
                i = end + 1;
            }
        } else if (0xc2..=0xf4).contains(&c) {
            match decode(s, i) {
                Some((w, len)) => {
                    if width + w <= limit {
                        out.extend_from_slice(&s[i..i + len]);
                    }
                    width += w;
                    i += len;
                }
                None => i += 1,
            }
        } else {
            if (0x20..0x7f).contains(&c) {
                if width < limit {
                    out.push(c);
                }
                width += 1;
            }
            i += 1;
        }
    }
    out
}

/// tmux's `format_trim_right`: the rightmost `limit` columns.
fn trim_right(s: &[u8], limit: u64) -> Vec<u8> {
    let total = format_width(s);
    if total <= limit {
        return s.to_vec();
    }
    let skip_width = total - limit;
    let mut out = Vec::with_capacity(s.len());
    let mut width = 0u64;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == b'#' {
            let (n, w, next) = leading_hashes(s, i);
            let mut copy = w;
            if width <= skip_width {
                if skip_width - width >= copy {
                    copy = 0;
                } else {
                    copy -= skip_width - width;
                }
            }
            if copy != 0 {
                push_hashes(&mut out, n, copy);
            }
            width += w;
            i = next;
            if at(s, i) == b'#' {
                let Some(end) = skip(s, i + 2, b"]") else {
                    break;
                };
                out.extend_from_slice(&s[i..=end]);
                i = end + 1;
            }
        } else if (0xc2..=0xf4).contains(&c) {
            match decode(s, i) {
                Some((w, len)) => {
                    if width >= skip_width {
                        out.extend_from_slice(&s[i..i + len]);
                    }
                    width += w;
                    i += len;
                }
                None => i += 1,
            }
        } else {
            if (0x20..0x7f).contains(&c) {
                if width >= skip_width {
                    out.push(c);
                }
                width += 1;
            }
            i += 1;
        }
    }
    out
}

/// tmux's `utf8_cstrwidth`, used by padding (`#` counts as one column here).
fn cstr_width(s: &[u8]) -> u64 {
    let mut width = 0;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if (0xc2..=0xf4).contains(&c) {
            if let Some((w, len)) = decode(s, i) {
                width += w;
                i += len;
                continue;
            }
        }
        if (0x20..0x7f).contains(&c) {
            width += 1;
        }
        i += 1;
    }
    width
}

// ---------------------------------------------------------------------------------------------
// Time: localtime from Values::zone, ctime, a C-locale strftime and tmux's pretty times.

const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A broken-down local time (C's `struct tm`).
struct Tm {
    t: i64,
    year: i64,
    mon: usize,
    mday: i64,
    hour: i64,
    min: i64,
    sec: i64,
    wday: usize,
    yday: i64,
    zone: Zone,
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

impl Tm {
    fn local(values: &dyn Values, t: i64) -> Tm {
        let zone = values.zone(t);
        let lt = t.saturating_add(zone.offset as i64);
        let days = lt.div_euclid(86400);
        let secs = lt.rem_euclid(86400);
        let z = days + 719468;
        let era = z.div_euclid(146097);
        let doe = z - era * 146097;
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let mday = doy - (153 * mp + 2) / 5 + 1;
        let mon = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(mon <= 2);
        Tm {
            t,
            year,
            mon: (mon - 1) as usize,
            mday,
            hour: secs / 3600,
            min: secs / 60 % 60,
            sec: secs % 60,
            wday: (days + 4).rem_euclid(7) as usize,
            yday: days - days_from_civil(year, 1, 1),
            zone,
        }
    }

    /// `ctime_r` without the newline.
    fn ctime(&self) -> Vec<u8> {
        if self.year - 1900 > i32::MAX as i64 {
            return Vec::new();
        }
        format!(
            "{} {}{:3} {:02}:{:02}:{:02} {}",
            &WEEKDAYS[self.wday][..3],
            &MONTHS[self.mon][..3],
            self.mday,
            self.hour,
            self.min,
            self.sec,
            self.year
        )
        .into_bytes()
    }

    fn hour12(&self) -> i64 {
        let h = self.hour % 12;
        if h == 0 {
            12
        } else {
            h
        }
    }

    /// ISO 8601 week-based year and week number.
    fn iso_week(&self) -> (i64, i64) {
        let wday_mon = (self.wday as i64 + 6) % 7; // Monday = 0
        let mut year = self.year;
        let mut week = (self.yday - wday_mon + 10) / 7;
        let year_days = |y: i64| if is_leap(y) { 366 } else { 365 };
        if week < 1 {
            year -= 1;
            let yday = self.yday + year_days(year);
            week = (yday - wday_mon + 10) / 7;
        } else if week > 52 {
            let jan1 = (wday_mon - self.yday).rem_euclid(7); // Monday-based day of Jan 1
            let days = year_days(year);
            let dec31 = (jan1 + days - 1) % 7;
            if dec31 < 3 {
                year += 1;
                week = 1;
            }
        }
        (year, week)
    }
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// tmux's `format_pretty_time`.
fn pretty_time(tm: &Tm, now: &Tm, age: i64) -> Vec<u8> {
    let f: &[u8] = if age < 24 * 3600 {
        b"%H:%M"
    } else if (tm.year == now.year && tm.mon == now.mon) || age < 28 * 24 * 3600 {
        b"%a%d"
    } else if (tm.year == now.year && tm.mon < now.mon)
        || (tm.year == now.year - 1 && tm.mon > now.mon)
    {
        b"%d%b"
    } else {
        b"%h%y"
    };
    strftime(f, tm, 6).unwrap_or_default()
}

/// glibc's `strftime` in the C locale. `None` if the result needs `max` bytes or more (the
/// C function's 0 return).
fn strftime(fmt: &[u8], tm: &Tm, max: usize) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
        } else {
            i = conversion(fmt, i, tm, &mut out);
        }
        if out.len() >= max {
            return None;
        }
    }
    Some(out)
}

/// One `%` conversion starting at `start`; returns the index after it.
fn conversion(fmt: &[u8], start: usize, tm: &Tm, out: &mut Vec<u8>) -> usize {
    let mut i = start + 1;
    let mut pad = 0u8;
    let mut upcase = false;
    let mut change_case = false;
    loop {
        match at(fmt, i) {
            c @ (b'_' | b'-' | b'0') => pad = c,
            b'^' => upcase = true,
            b'#' => change_case = true,
            _ => break,
        }
        i += 1;
    }
    let mut width: i64 = -1;
    if at(fmt, i).is_ascii_digit() {
        width = 0;
        while at(fmt, i).is_ascii_digit() {
            // Wider results never fit the callers' buffers; clamping keeps the work bounded.
            width = (width * 10 + (fmt[i] - b'0') as i64).min(TIME_TEMPLATE_MAX as i64 + 1);
            i += 1;
        }
    }
    let mut modifier = 0u8;
    if matches!(at(fmt, i), b'E' | b'O') {
        modifier = fmt[i];
        i += 1;
    }
    let c = at(fmt, i);
    let next = if c == 0 { fmt.len() } else { i + 1 };

    enum Kind {
        Text(Vec<u8>),
        Number(i64, usize, bool),
        Sub(&'static [u8]),
    }
    let mut lowcase = false;
    // An unknown conversion is copied as it stands (upper-cased under '^').
    let literal_upcase = upcase;
    let bad = |out: &mut Vec<u8>| {
        let mut text = fmt[start..next].to_vec();
        if literal_upcase {
            text.make_ascii_uppercase();
        }
        emit(out, &text, width, pad);
        next
    };
    let kind = match c {
        b'a' | b'A' => {
            if modifier != 0 {
                return bad(out);
            }
            upcase |= change_case;
            let name = WEEKDAYS[tm.wday];
            Kind::Text(if c == b'a' { &name[..3] } else { name }.into())
        }
        b'b' | b'h' | b'B' => {
            if modifier == b'E' {
                return bad(out);
            }
            upcase |= change_case;
            let name = MONTHS[tm.mon];
            Kind::Text(if c == b'B' { name } else { &name[..3] }.into())
        }
        b'c' => {
            if modifier == b'O' {
                return bad(out);
            }
            Kind::Sub(b"%a %b %e %H:%M:%S %Y")
        }
        b'C' => {
            if modifier == b'O' {
                return bad(out);
            }
            Kind::Number(tm.year.div_euclid(100), 2, false)
        }
        b'x' => {
            if modifier == b'O' {
                return bad(out);
            }
            Kind::Sub(b"%m/%d/%y")
        }
        b'D' => {
            if modifier != 0 {
                return bad(out);
            }
            Kind::Sub(b"%m/%d/%y")
        }
        b'F' => {
            if modifier != 0 {
                return bad(out);
            }
            Kind::Sub(b"%Y-%m-%d")
        }
        b'd' | b'e' | b'H' | b'I' | b'k' | b'l' | b'j' | b'M' | b'm' | b'S' | b'U' | b'W'
        | b'V' | b'g' | b'G' | b'u' | b'w' => {
            if modifier == b'E' {
                return bad(out);
            }
            let (iso_year, iso_week) = tm.iso_week();
            match c {
                b'd' => Kind::Number(tm.mday, 2, false),
                b'e' => Kind::Number(tm.mday, 2, true),
                b'H' => Kind::Number(tm.hour, 2, false),
                b'I' => Kind::Number(tm.hour12(), 2, false),
                b'k' => Kind::Number(tm.hour, 2, true),
                b'l' => Kind::Number(tm.hour12(), 2, true),
                b'j' => Kind::Number(tm.yday + 1, 3, false),
                b'M' => Kind::Number(tm.min, 2, false),
                b'm' => Kind::Number(tm.mon as i64 + 1, 2, false),
                b'S' => Kind::Number(tm.sec, 2, false),
                b'U' => Kind::Number((tm.yday - tm.wday as i64 + 7) / 7, 2, false),
                b'W' => Kind::Number((tm.yday - (tm.wday as i64 + 6) % 7 + 7) / 7, 2, false),
                b'V' => Kind::Number(iso_week, 2, false),
                b'g' => Kind::Number(iso_year.rem_euclid(100), 2, false),
                b'G' => Kind::Number(iso_year, 4, false),
                b'u' => Kind::Number((tm.wday as i64 + 6) % 7 + 1, 1, false),
                _ => Kind::Number(tm.wday as i64, 1, false),
            }
        }
        b'n' => Kind::Text(b"\n".to_vec()),
        b't' => Kind::Text(b"\t".to_vec()),
        b'p' | b'P' => {
            if c == b'P' || change_case {
                lowcase = true;
                upcase = false;
            }
            Kind::Text(if tm.hour < 12 { b"AM" } else { b"PM" }.to_vec())
        }
        b'r' => Kind::Sub(b"%I:%M:%S %p"),
        b'R' => Kind::Sub(b"%H:%M"),
        b'T' => Kind::Sub(b"%H:%M:%S"),
        b'X' => {
            if modifier == b'O' {
                return bad(out);
            }
            Kind::Sub(b"%H:%M:%S")
        }
        b's' => Kind::Number(tm.t, 1, false),
        b'y' => Kind::Number(tm.year.rem_euclid(100), 2, false),
        b'Y' => {
            if modifier == b'O' {
                return bad(out);
            }
            Kind::Number(tm.year, 4, false)
        }
        b'Z' => {
            if change_case {
                lowcase = true;
                upcase = false;
            }
            Kind::Text(tm.zone.name.clone().into_bytes())
        }
        b'z' => {
            // glibc pads the sign and the number to the width separately.
            let off = tm.zone.offset as i64;
            emit(out, if off < 0 { b"-" } else { b"+" }, width, pad);
            let minutes = off.abs() / 60;
            Kind::Number(minutes / 60 * 100 + minutes % 60, 4, false)
        }
        b'%' => Kind::Text(b"%".to_vec()),
        _ => return bad(out),
    };
    match kind {
        Kind::Text(mut text) => {
            if upcase {
                text.make_ascii_uppercase();
            } else if lowcase {
                text.make_ascii_lowercase();
            }
            emit(out, &text, width, pad);
        }
        Kind::Sub(sub) => {
            let mut text = Vec::new();
            let mut j = 0;
            while j < sub.len() {
                if sub[j] == b'%' {
                    j = conversion(sub, j, tm, &mut text);
                } else {
                    text.push(sub[j]);
                    j += 1;
                }
            }
            if upcase {
                text.make_ascii_uppercase();
            }
            emit(out, &text, width, pad);
        }
        Kind::Number(value, digits, spacepad) => {
            // The number is padded to its usual digits (or a wider width) unless the flag is
            // '-'; then the result as a whole is padded to an explicit width as text is.
            let pad = match pad {
                0 if spacepad => b'_',
                0 => b'0',
                p => p,
            };
            let want = (digits as i64).max(width);
            let text = value.unsigned_abs().to_string();
            let negative = value < 0;
            let shortage = want - text.len() as i64 - i64::from(negative);
            let mut number = Vec::new();
            if pad != b'-' && shortage > 0 {
                if pad == b'_' {
                    number.extend(std::iter::repeat_n(b' ', shortage as usize));
                    if negative {
                        number.push(b'-');
                    }
                } else {
                    if negative {
                        number.push(b'-');
                    }
                    number.extend(std::iter::repeat_n(b'0', shortage as usize));
                }
            } else if negative {
                number.push(b'-');
            }
            number.extend_from_slice(text.as_bytes());
            emit(out, &number, width, pad);
        }
    }
    next
}

/// Appends `text` padded on the left to an explicit `width` (glibc's `cpy`; even the `-` flag
/// pads here).
fn emit(out: &mut Vec<u8>, text: &[u8], width: i64, pad: u8) {
    if width > text.len() as i64 {
        let fill = if pad == b'0' { b'0' } else { b' ' };
        out.extend(std::iter::repeat_n(
            fill,
            (width - text.len() as i64) as usize,
        ));
    }
    out.extend_from_slice(text);
}

// ---------------------------------------------------------------------------------------------
// Matching: fnmatch(3) without flags (or FNM_CASEFOLD), and regsub.

fn fold(c: char, icase: bool) -> char {
    if icase {
        c.to_lowercase().next().unwrap_or(c)
    } else {
        c
    }
}

fn class_matches(name: &str, c: char) -> Option<bool> {
    Some(match name {
        "alnum" => c.is_alphanumeric(),
        "alpha" => c.is_alphabetic(),
        "blank" => c == ' ' || c == '\t',
        "cntrl" => c.is_control(),
        "digit" => c.is_ascii_digit(),
        "graph" => !c.is_control() && !c.is_whitespace(),
        "lower" => c.is_lowercase(),
        "print" => !c.is_control(),
        "punct" => c.is_ascii_punctuation(),
        "space" => c.is_whitespace(),
        "upper" => c.is_uppercase(),
        "xdigit" => c.is_ascii_hexdigit(),
        _ => return None,
    })
}

enum Bracket {
    /// Matched or not, and the index after the bracket expression.
    Done(bool, usize),
    /// No closing `]`: the `[` is an ordinary character.
    Literal,
    /// An unknown `[:class:]`: the whole pattern fails.
    Invalid,
}

/// A fnmatch bracket expression at `p[start] == '['`, tested against `c`.
fn fn_bracket(p: &[char], start: usize, c: char, icase: bool) -> Bracket {
    let mut i = start + 1;
    let negate = matches!(p.get(i), Some('!') | Some('^'));
    if negate {
        i += 1;
    }
    let fc = fold(c, icase);
    let mut matched = false;
    let mut first = true;
    loop {
        let Some(&ch) = p.get(i) else {
            return Bracket::Literal;
        };
        if ch == ']' && !first {
            i += 1;
            break;
        }
        first = false;
        let lo;
        if ch == '[' && p.get(i + 1) == Some(&':') {
            // Class names are short: look for the closing ":]" in a bounded window.
            let body = i + 2;
            let window = &p[body..p.len().min(body + 64)];
            let Some(len) = window.windows(2).position(|w| w == [':', ']']) else {
                return Bracket::Literal;
            };
            let name: String = p[body..body + len].iter().collect();
            match class_matches(&name, c) {
                Some(m) => matched |= m,
                None => return Bracket::Invalid,
            }
            i = body + len + 2;
            continue;
        } else if ch == '[' && matches!(p.get(i + 1), Some('=') | Some('.')) {
            let kind = p[i + 1];
            match (p.get(i + 2), p.get(i + 3), p.get(i + 4)) {
                (Some(&x), Some(&k), Some(']')) if k == kind => {
                    lo = x;
                    i += 5;
                }
                _ => return Bracket::Literal,
            }
        } else if ch == '\\' {
            let Some(&x) = p.get(i + 1) else {
                return Bracket::Literal;
            };
            lo = x;
            i += 2;
        } else {
            lo = ch;
            i += 1;
        }
        if p.get(i) == Some(&'-') && p.get(i + 1).is_some_and(|&x| x != ']') {
            let mut hi = p[i + 1];
            i += 2;
            if hi == '\\' {
                let Some(&x) = p.get(i) else {
                    return Bracket::Literal;
                };
                hi = x;
                i += 1;
            }
            let (flo, fhi) = (fold(lo, icase), fold(hi, icase));
            if (flo <= fc && fc <= fhi) || (lo <= c && c <= hi) {
                matched = true;
            }
        } else if fold(lo, icase) == fc {
            matched = true;
        }
    }
    Bracket::Done(matched != negate, i)
}

/// fnmatch(3) with no flags, or FNM_CASEFOLD.
fn fnmatch(p: &[char], s: &[char], icase: bool) -> bool {
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    loop {
        let mut ok = false;
        if pi < p.len() {
            match p[pi] {
                '*' => {
                    while pi < p.len() && p[pi] == '*' {
                        pi += 1;
                    }
                    star = Some((pi, si));
                    continue;
                }
                '?' => {
                    if si < s.len() {
                        pi += 1;
                        si += 1;
                        ok = true;
                    }
                }
                '[' => match if si < s.len() {
                    fn_bracket(p, pi, s[si], icase)
                } else {
                    Bracket::Done(false, pi)
                } {
                    Bracket::Done(m, next) => {
                        if m {
                            pi = next;
                            si += 1;
                            ok = true;
                        }
                    }
                    Bracket::Invalid => return false,
                    Bracket::Literal => {
                        if si < s.len() && fold(s[si], icase) == '[' {
                            pi += 1;
                            si += 1;
                            ok = true;
                        }
                    }
                },
                '\\' => {
                    if pi + 1 >= p.len() {
                        return false;
                    }
                    if si < s.len() && fold(s[si], icase) == fold(p[pi + 1], icase) {
                        pi += 2;
                        si += 1;
                        ok = true;
                    }
                }
                c => {
                    if si < s.len() && fold(s[si], icase) == fold(c, icase) {
                        pi += 1;
                        si += 1;
                        ok = true;
                    }
                }
            }
        } else if si == s.len() {
            return true;
        }
        if ok {
            continue;
        }
        match star {
            Some((sp, ss)) if ss < s.len() => {
                star = Some((sp, ss + 1));
                pi = sp;
                si = ss + 1;
            }
            _ => return false,
        }
    }
}

/// tmux's `regsub`: replaces every match of `pattern` in `text`; `None` if the pattern does not
/// compile (tmux then keeps the text).
fn regsub(
    pattern: &str,
    with: &str,
    text: &str,
    icase: bool,
    budget: &Cell<u64>,
) -> Option<String> {
    if text.is_empty() {
        return Some(String::new());
    }
    let re = regex::Regex::new(pattern, icase).ok()?;
    let chars: Vec<char> = text.chars().collect();
    let with: Vec<char> = with.chars().collect();
    let end = chars.len();
    let (mut start, mut last) = (0usize, 0usize);
    let mut empty = false;
    let mut buf: Vec<char> = Vec::new();
    // A replacement ending in a lone backslash makes tmux copy a NUL: nothing after it shows.
    let mut cut: Option<usize> = None;
    while start <= end {
        let Some(m) = re.search(&chars[start..], budget) else {
            buf.extend_from_slice(&chars[start..end]);
            break;
        };
        let (so, eo) = m[0].unwrap_or((0, 0));
        if start + so > last {
            buf.extend_from_slice(&chars[last..start + so]);
        }
        if empty || start + so != last || so != eo {
            if !charge(budget, with.len() + 1) {
                return Some(String::new());
            }
            let sub = &chars[start..];
            let mut k = 0;
            while k < with.len() {
                let mut c = with[k];
                if c == '\\' {
                    k += 1;
                    match with.get(k) {
                        None => {
                            cut.get_or_insert(buf.len());
                            break;
                        }
                        Some(&d) => {
                            if let Some(g) = d.to_digit(10) {
                                if let Some((gs, ge)) = m[g as usize] {
                                    if gs != ge {
                                        buf.extend_from_slice(&sub[gs..ge]);
                                        k += 1;
                                        continue;
                                    }
                                }
                            }
                            c = d;
                        }
                    }
                }
                buf.push(c);
                k += 1;
            }
            last = start + eo;
            start += eo;
            empty = false;
        } else {
            last = start + eo;
            start += eo + 1;
            empty = true;
        }
        if pattern.starts_with('^') {
            if start < end {
                buf.extend_from_slice(&chars[start..end]);
            }
            break;
        }
    }
    if let Some(cut) = cut {
        buf.truncate(cut);
    }
    Some(buf.into_iter().collect())
}

/// POSIX extended regular expressions as glibc's `regcomp(REG_EXTENDED)` reads them, matched
/// leftmost-longest by a Pike VM (linear in the text for each start position).
mod regex {
    use super::class_matches;
    use std::cell::Cell;

    const MAX_NESTING: usize = 100;
    const MAX_PROGRAM: usize = 20_000;
    const DUP_MAX: u32 = 255;

    pub type Captures = [Option<(usize, usize)>; 10];

    #[derive(Clone)]
    enum Node {
        Empty,
        Char(char),
        Any,
        Set(Box<Set>),
        Assert(Assertion),
        Group(Box<Node>, Option<usize>),
        Concat(Vec<Node>),
        Alt(Vec<Node>),
        Repeat(Box<Node>, u32, Option<u32>),
    }

    #[derive(Clone, Copy)]
    enum Assertion {
        Bol,
        Eol,
        WordBoundary,
        NotWordBoundary,
        WordStart,
        WordEnd,
    }

    #[derive(Clone)]
    struct Set {
        negate: bool,
        chars: Vec<char>,
        ranges: Vec<(char, char)>,
        classes: Vec<String>,
    }

    impl Set {
        fn matches(&self, c: char, icase: bool) -> bool {
            let test = |c: char| {
                self.chars.contains(&c)
                    || self.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi)
                    || self
                        .classes
                        .iter()
                        .any(|n| class_matches(n, c).unwrap_or(false))
            };
            let mut m = test(c);
            if !m && icase {
                m = c.to_lowercase().any(test) || c.to_uppercase().any(test);
            }
            m != self.negate
        }
    }

    enum Inst {
        Char(char),
        Any,
        Set(Box<Set>),
        Assert(Assertion),
        Split(usize, usize),
        Jmp(usize),
        Save(usize),
        Match,
    }

    pub struct Regex {
        prog: Vec<Inst>,
        icase: bool,
    }

    struct Parser<'a> {
        p: &'a [char],
        i: usize,
        groups: usize,
        depth: usize,
    }

    impl Parser<'_> {
        fn peek(&self) -> Option<char> {
            self.p.get(self.i).copied()
        }

        fn alternation(&mut self) -> Result<Node, ()> {
            self.depth += 1;
            if self.depth > MAX_NESTING {
                return Err(());
            }
            let mut branches = vec![self.concat()?];
            while self.peek() == Some('|') {
                self.i += 1;
                branches.push(self.concat()?);
            }
            self.depth -= 1;
            Ok(if branches.len() == 1 {
                branches.pop().unwrap_or(Node::Empty)
            } else {
                Node::Alt(branches)
            })
        }

        fn concat(&mut self) -> Result<Node, ()> {
            let mut items = Vec::new();
            while let Some(c) = self.peek() {
                if c == '|' || (c == ')' && self.depth > 1) {
                    break;
                }
                let atom = self.atom()?;
                let atom = self.quantifiers(atom)?;
                items.push(atom);
            }
            Ok(Node::Concat(items))
        }

        fn quantifiers(&mut self, mut atom: Node) -> Result<Node, ()> {
            let mut stacked = 0;
            while let Some(c) = self.peek() {
                let (lo, hi) = match c {
                    '*' => (0, None),
                    '+' => (1, None),
                    '?' => (0, Some(1)),
                    '{' => {
                        self.i += 1;
                        let lo = self.number();
                        let hi = if self.peek() == Some(',') {
                            self.i += 1;
                            self.number()
                        } else {
                            Some(lo.ok_or(())?)
                        };
                        if self.peek() != Some('}') {
                            return Err(());
                        }
                        let lo = lo.unwrap_or(0);
                        if hi.is_some_and(|h| h < lo) || lo > DUP_MAX || hi.unwrap_or(0) > DUP_MAX {
                            return Err(());
                        }
                        (lo, hi)
                    }
                    _ => break,
                };
                self.i += 1;
                stacked += 1;
                if matches!(atom, Node::Assert(_)) || stacked > MAX_NESTING {
                    return Err(());
                }
                atom = Node::Repeat(Box::new(atom), lo, hi);
            }
            Ok(atom)
        }

        fn number(&mut self) -> Option<u32> {
            let start = self.i;
            let mut n: u32 = 0;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(d);
                self.i += 1;
            }
            (self.i > start).then_some(n)
        }

        fn atom(&mut self) -> Result<Node, ()> {
            let c = self.peek().ok_or(())?;
            self.i += 1;
            Ok(match c {
                '(' => {
                    self.groups += 1;
                    let index = (self.groups < 10).then_some(self.groups);
                    let inner = if self.peek() == Some(')') {
                        Node::Empty
                    } else {
                        self.alternation()?
                    };
                    if self.peek() != Some(')') {
                        return Err(());
                    }
                    self.i += 1;
                    Node::Group(Box::new(inner), index)
                }
                '.' => Node::Any,
                '^' => Node::Assert(Assertion::Bol),
                '$' => Node::Assert(Assertion::Eol),
                '[' => Node::Set(Box::new(self.set()?)),
                '*' | '+' | '?' | '{' => return Err(()),
                '\\' => {
                    let e = self.peek().ok_or(())?;
                    self.i += 1;
                    match e {
                        'w' | 'W' | 's' | 'S' => Node::Set(Box::new(Set {
                            negate: e.is_uppercase(),
                            chars: if e == 'w' || e == 'W' {
                                vec!['_']
                            } else {
                                Vec::new()
                            },
                            ranges: Vec::new(),
                            classes: vec![if e == 'w' || e == 'W' {
                                "alnum".into()
                            } else {
                                "space".into()
                            }],
                        })),
                        'b' => Node::Assert(Assertion::WordBoundary),
                        'B' => Node::Assert(Assertion::NotWordBoundary),
                        '<' => Node::Assert(Assertion::WordStart),
                        '>' => Node::Assert(Assertion::WordEnd),
                        '`' => Node::Assert(Assertion::Bol),
                        '\'' => Node::Assert(Assertion::Eol),
                        '1'..='9' => return Err(()),
                        other => Node::Char(other),
                    }
                }
                other => Node::Char(other),
            })
        }

        fn set(&mut self) -> Result<Set, ()> {
            let mut set = Set {
                negate: false,
                chars: Vec::new(),
                ranges: Vec::new(),
                classes: Vec::new(),
            };
            if self.peek() == Some('^') {
                set.negate = true;
                self.i += 1;
            }
            let mut first = true;
            loop {
                let c = self.peek().ok_or(())?;
                if c == ']' && !first {
                    self.i += 1;
                    break;
                }
                first = false;
                let lo = if c == '[' && matches!(self.p.get(self.i + 1), Some(':' | '=' | '.')) {
                    let kind = self.p[self.i + 1];
                    let body_start = self.i + 2;
                    let mut j = body_start;
                    while j + 1 < self.p.len() && !(self.p[j] == kind && self.p[j + 1] == ']') {
                        j += 1;
                    }
                    if j + 1 >= self.p.len() {
                        return Err(());
                    }
                    let body: String = self.p[body_start..j].iter().collect();
                    self.i = j + 2;
                    if kind == ':' {
                        if class_matches(&body, 'a').is_none() {
                            return Err(());
                        }
                        set.classes.push(body);
                        continue;
                    }
                    let mut chars = body.chars();
                    match (chars.next(), chars.next()) {
                        (Some(x), None) => x,
                        _ => return Err(()),
                    }
                } else {
                    self.i += 1;
                    c
                };
                if self.peek() == Some('-') && self.p.get(self.i + 1).is_some_and(|&x| x != ']') {
                    let hi = self.p[self.i + 1];
                    self.i += 2;
                    if hi < lo {
                        return Err(());
                    }
                    set.ranges.push((lo, hi));
                } else {
                    set.chars.push(lo);
                }
            }
            Ok(set)
        }
    }

    struct Compiler {
        prog: Vec<Inst>,
    }

    impl Compiler {
        fn emit(&mut self, inst: Inst) -> Result<usize, ()> {
            if self.prog.len() >= MAX_PROGRAM {
                return Err(());
            }
            self.prog.push(inst);
            Ok(self.prog.len() - 1)
        }

        fn node(&mut self, n: &Node, icase: bool) -> Result<(), ()> {
            match n {
                Node::Empty => {}
                Node::Char(c) => {
                    let c = if icase { super::fold(*c, true) } else { *c };
                    self.emit(Inst::Char(c))?;
                }
                Node::Any => {
                    self.emit(Inst::Any)?;
                }
                Node::Set(s) => {
                    self.emit(Inst::Set(s.clone()))?;
                }
                Node::Assert(a) => {
                    self.emit(Inst::Assert(*a))?;
                }
                Node::Group(inner, index) => {
                    if let Some(g) = index {
                        self.emit(Inst::Save(2 * g))?;
                    }
                    self.node(inner, icase)?;
                    if let Some(g) = index {
                        self.emit(Inst::Save(2 * g + 1))?;
                    }
                }
                Node::Concat(items) => {
                    for item in items {
                        self.node(item, icase)?;
                    }
                }
                Node::Alt(branches) => {
                    let mut jumps = Vec::new();
                    for (k, b) in branches.iter().enumerate() {
                        if k + 1 < branches.len() {
                            let split = self.emit(Inst::Split(0, 0))?;
                            self.node(b, icase)?;
                            jumps.push(self.emit(Inst::Jmp(0))?);
                            let next = self.prog.len();
                            self.prog[split] = Inst::Split(split + 1, next);
                        } else {
                            self.node(b, icase)?;
                        }
                    }
                    let end = self.prog.len();
                    for j in jumps {
                        self.prog[j] = Inst::Jmp(end);
                    }
                }
                Node::Repeat(inner, lo, hi) => {
                    for _ in 0..*lo {
                        self.node(inner, icase)?;
                    }
                    match hi {
                        None => {
                            let split = self.emit(Inst::Split(0, 0))?;
                            self.node(inner, icase)?;
                            self.emit(Inst::Jmp(split))?;
                            let end = self.prog.len();
                            self.prog[split] = Inst::Split(split + 1, end);
                        }
                        Some(hi) => {
                            let mut splits = Vec::new();
                            for _ in *lo..*hi {
                                splits.push(self.emit(Inst::Split(0, 0))?);
                                self.node(inner, icase)?;
                            }
                            let end = self.prog.len();
                            for s in splits {
                                self.prog[s] = Inst::Split(s + 1, end);
                            }
                        }
                    }
                }
            }
            Ok(())
        }
    }

    fn is_word(c: Option<char>) -> bool {
        c.is_some_and(|c| c.is_alphanumeric() || c == '_')
    }

    impl Regex {
        pub fn new(pattern: &str, icase: bool) -> Result<Regex, ()> {
            let chars: Vec<char> = pattern.chars().collect();
            let mut parser = Parser {
                p: &chars,
                i: 0,
                groups: 0,
                depth: 0,
            };
            // At the top level an unmatched ')' is an ordinary character.
            let node = parser.alternation()?;
            let mut c = Compiler { prog: Vec::new() };
            c.emit(Inst::Save(0))?;
            c.node(&node, icase)?;
            c.emit(Inst::Save(1))?;
            c.emit(Inst::Match)?;
            Ok(Regex {
                prog: c.prog,
                icase,
            })
        }

        /// The leftmost-longest match in `text` (treated as a whole string), or `None`; also
        /// `None` once the budget is spent.
        pub fn search(&self, text: &[char], budget: &Cell<u64>) -> Option<Captures> {
            let n = self.prog.len();
            let mut seen = vec![usize::MAX; n];
            let mut clist: Vec<Thread> = Vec::new();
            let mut best: Option<[usize; 20]> = None;
            for pos in 0..=text.len() {
                // Seed a new thread at this position while nothing has matched yet.
                if best.is_none() {
                    let caps = [usize::MAX; 20];
                    self.add(&mut clist, &mut seen, pos, text, 0, caps);
                }
                if clist.is_empty() {
                    if best.is_some() {
                        break;
                    }
                    continue;
                }
                let cost = clist.len() as u64;
                let left = budget.get();
                if cost > left {
                    budget.set(0);
                    return None;
                }
                budget.set(left - cost);
                let c = text.get(pos).copied();
                let mut nlist = Vec::new();
                let step = pos + 1;
                for th in clist.drain(..) {
                    let next = match &self.prog[th.pc] {
                        Inst::Match => {
                            let start = th.caps[0];
                            let better = match &best {
                                None => true,
                                Some(b) => start < b[0] || (start == b[0] && pos > b[1]),
                            };
                            if better {
                                let mut caps = th.caps;
                                caps[1] = pos;
                                best = Some(caps);
                            }
                            false
                        }
                        Inst::Char(want) => c.is_some_and(|c| super::fold(c, self.icase) == *want),
                        Inst::Any => c.is_some(),
                        Inst::Set(set) => c.is_some_and(|c| set.matches(c, self.icase)),
                        _ => false,
                    };
                    if next {
                        self.add(&mut nlist, &mut seen, step, text, th.pc + 1, th.caps);
                    }
                }
                if let Some(b) = &best {
                    nlist.retain(|t| t.caps[0] <= b[0]);
                }
                clist = nlist;
            }
            let b = best?;
            let mut caps: Captures = [None; 10];
            for (g, cap) in caps.iter_mut().enumerate() {
                let (s, e) = (b[2 * g], b[2 * g + 1]);
                if s != usize::MAX && e != usize::MAX {
                    *cap = Some((s, e));
                }
            }
            Some(caps)
        }

        /// Adds a thread and everything reachable from it without consuming input.
        fn add(
            &self,
            list: &mut Vec<Thread>,
            seen: &mut [usize],
            pos: usize,
            text: &[char],
            pc: usize,
            caps: [usize; 20],
        ) {
            let mut stack = vec![(pc, caps)];
            while let Some((pc, mut caps)) = stack.pop() {
                if seen[pc] == pos {
                    continue;
                }
                seen[pc] = pos;
                match &self.prog[pc] {
                    Inst::Jmp(to) => stack.push((*to, caps)),
                    Inst::Split(a, b) => {
                        stack.push((*b, caps));
                        stack.push((*a, caps));
                    }
                    Inst::Save(slot) => {
                        if *slot < 20 {
                            caps[*slot] = pos;
                        }
                        stack.push((pc + 1, caps));
                    }
                    Inst::Assert(a) => {
                        let before = pos.checked_sub(1).and_then(|p| text.get(p).copied());
                        let after = text.get(pos).copied();
                        let ok = match a {
                            Assertion::Bol => pos == 0,
                            Assertion::Eol => pos == text.len(),
                            Assertion::WordBoundary => is_word(before) != is_word(after),
                            Assertion::NotWordBoundary => is_word(before) == is_word(after),
                            Assertion::WordStart => !is_word(before) && is_word(after),
                            Assertion::WordEnd => is_word(before) && !is_word(after),
                        };
                        if ok {
                            stack.push((pc + 1, caps));
                        }
                    }
                    _ => list.push(Thread { pc, caps }),
                }
            }
        }
    }

    struct Thread {
        pc: usize,
        caps: [usize; 20],
    }
}

/// Writes the `#`s a run of `n` leading hashes of display width `w` stands for: a lone `#`
/// stays one, a run of escaped ones is written doubled so it stays escaped.
fn push_hashes(out: &mut Vec<u8>, n: usize, w: u64) {
    if n == 1 {
        out.push(b'#');
    } else {
        out.extend(std::iter::repeat_n(b'#', 2 * w as usize));
    }
}
