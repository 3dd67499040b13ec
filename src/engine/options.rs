//! Options: tmux 3.3a's option table, option sets and the rules for their values.
//!
//! Every option tmux has is in [`TABLE`] (generated from tmux by
//! `scripts/gen-options-table.py`), in tmux's order, which is the order `show-options` lists
//! them in. Each has a scope: server options live in one global set; session options in a
//! global set that each session's own set overrides; window options in a global set that each
//! window's set overrides, and options with the pane scope too in each pane's set, which
//! overrides its window's. Values are kept as the text tmux shows (`on`, `C-b`, `red`, a
//! command list as tmux prints it), so showing one needs no conversion.
//!
//! zeropty acts on history-limit, remain-on-exit, remain-on-exit-format, default-command,
//! default-shell, default-terminal, exit-empty, base-index and default-size; the others are
//! accepted, checked as tmux checks them, and shown.
//!
//! Invariants: the three global sets hold every table option of their scope (the defaults
//! until set), so lookups that reach them always find a table option; local sets hold only
//! what was set on them. Values in a set are valid for their option's type.

use super::numbers::strtonum;
use super::session::{Session, Window};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Scope bits, as tmux's `OPTIONS_TABLE_SERVER` and friends.
pub const SERVER: u8 = 1;
pub const SESSION: u8 = 2;
pub const WINDOW: u8 = 4;
pub const PANE: u8 = 8;

/// Flag bits: the option is an array (`name[0]`, `name[1]`...), a hook, a style.
pub const ARRAY: u8 = 1;
pub const HOOK: u8 = 2;
pub const STYLE: u8 = 4;

/// An option's type, which decides what values it takes and how they are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    String,
    Number {
        min: i64,
        max: i64,
    },
    Key,
    Colour,
    Flag,
    Choice(&'static [&'static str]),
    /// A command list (hooks): kept as tmux prints it.
    Command,
}

/// One entry of tmux's option table.
#[derive(Debug)]
pub struct OptionDef {
    pub name: &'static str,
    pub kind: Kind,
    pub scope: u8,
    pub flags: u8,
    /// What `set -a` puts between the old and the new value (arrays: what splits a value
    /// into items; `None` is tmux's default, a space or a comma).
    pub separator: Option<&'static str>,
    /// A value must match this glob (`default-size`).
    pub pattern: Option<&'static str>,
    /// The default value; one per item for arrays.
    pub default: &'static [&'static str],
}

impl OptionDef {
    pub fn is_array(&self) -> bool {
        self.flags & ARRAY != 0
    }

    pub fn is_hook(&self) -> bool {
        self.flags & HOOK != 0
    }

    /// Whether `show-options` quotes the value (string options; user options are strings).
    pub fn is_string(&self) -> bool {
        self.kind == Kind::String
    }
}

fn map_name(name: &str) -> &str {
    OTHER_NAMES
        .iter()
        .find(|(from, _)| *from == name)
        .map_or(name, |(_, to)| to)
}

/// zeropty's own options (tmux has none of them). They are set and shown by name, but not
/// listed by `show-options` and not matched by prefix, so what scripts see of tmux's options
/// stays exactly tmux's.
pub static EXTRA: &[OptionDef] = &[OptionDef {
    // The terminal new sessions' programs get: the shim's socket, or a pseudo-terminal.
    name: "default-backend",
    kind: Kind::Choice(&["socket", "pty"]),
    scope: SERVER,
    flags: 0,
    separator: None,
    pattern: None,
    default: &["socket"],
}];

/// The table entry for an option name (exact, or one of [`OTHER_NAMES`]).
pub fn find(name: &str) -> Option<&'static OptionDef> {
    let name = map_name(name);
    TABLE.iter().chain(EXTRA).find(|d| d.name == name)
}

/// Why an option argument names no option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameError {
    Invalid,
    Ambiguous,
}

/// Splits `name[index]` as tmux's `options_parse` does; `None` when the brackets are
/// malformed or the name is empty.
pub fn parse_name(s: &str) -> Option<(String, Option<u32>)> {
    if s.is_empty() {
        return None;
    }
    let Some(open) = s.find('[') else {
        return Some((s.to_string(), None));
    };
    let rest = &s[open + 1..];
    let close = rest.find(']')?;
    if close + 1 != rest.len() || !rest[..close].ends_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let index = scan_index(&rest[..close])?;
    Some((s[..open].to_string(), Some(index)))
}

/// The number `sscanf("[%d]")` reads, when it is not negative.
fn scan_index(s: &str) -> Option<u32> {
    let t = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    if end == 0 {
        return None;
    }
    let n: i64 = digits[..end].parse().unwrap_or(i64::MAX);
    let n = if neg { -n } else { n };
    u32::try_from(n).ok().filter(|&n| n <= i32::MAX as u32)
}

/// tmux's `options_match`: a user option (`@name`) as given, else a table option by exact
/// name or unique prefix. A malformed index is reported as ambiguous, as tmux 3.3a reports it.
pub fn match_name(s: &str) -> Result<(String, Option<u32>), NameError> {
    let (name, index) = parse_name(s).ok_or(NameError::Ambiguous)?;
    if name.starts_with('@') {
        return Ok((name, index));
    }
    let name = map_name(&name);
    if let Some(d) = EXTRA.iter().find(|d| d.name == name) {
        return Ok((d.name.to_string(), index));
    }
    let mut found: Option<&OptionDef> = None;
    for d in TABLE {
        if d.name == name {
            found = Some(d);
            break;
        }
        if d.name.starts_with(name) {
            if found.is_some() {
                return Err(NameError::Ambiguous);
            }
            found = Some(d);
        }
    }
    found
        .map(|d| (d.name.to_string(), index))
        .ok_or(NameError::Invalid)
}

/// An option's value in one set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    One(String),
    Array(BTreeMap<u32, String>),
}

impl Value {
    /// The value as tmux's `options_to_string` gives it: an array item (empty if absent;
    /// an array without an index is empty), or the value. `numeric` shows flags as `1`/`0`
    /// (as formats see them).
    pub fn text(&self, index: Option<u32>, def: Option<&OptionDef>, numeric: bool) -> String {
        match self {
            Value::Array(items) => index
                .and_then(|i| items.get(&i))
                .cloned()
                .unwrap_or_default(),
            Value::One(v) => {
                if numeric && def.is_some_and(|d| d.kind == Kind::Flag) {
                    if v == "on" { "1" } else { "0" }.to_string()
                } else {
                    v.clone()
                }
            }
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::One(v) => Some(v),
            Value::Array(_) => None,
        }
    }
}

/// One set of options: a global set, or what a session, window or pane overrides.
///
/// Kept as a vector sorted by name, a table option named by the table's own static text:
/// a session or window that sets one option (`new-session -x -y` sets `default-size`) pays
/// one entry of 56 bytes and its value's text, where a map's first node has room for eleven
/// (BENCHMARKS.md "A session's size kept as its `default-size` option": 116 to 180 bytes a
/// session in all).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionSet {
    values: Vec<(Cow<'static, str>, Value)>,
}

impl OptionSet {
    /// Every table option with scope bit `scope`, at its default.
    pub fn defaults(scope: u8) -> OptionSet {
        let mut set = OptionSet::default();
        for d in TABLE.iter().chain(EXTRA).filter(|d| d.scope & scope != 0) {
            set.reset(d);
        }
        set
    }

    fn position(&self, name: &str) -> Result<usize, usize> {
        self.values.binary_search_by(|(k, _)| k.as_ref().cmp(name))
    }

    /// Where `name` is, by name or other name.
    fn find_position(&self, name: &str) -> Option<usize> {
        self.position(name)
            .or_else(|_| self.position(map_name(name)))
            .ok()
    }

    /// The option set here (not in a parent), by name or other name.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.find_position(name).map(|i| &self.values[i].1)
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.find_position(name).map(|i| &mut self.values[i].1)
    }

    pub fn set(&mut self, name: &str, value: Value) {
        self.put(name, value, || match find(name) {
            Some(d) if d.name == name => Cow::Borrowed(d.name),
            _ => Cow::Owned(name.to_string()),
        });
    }

    /// Sets `name`; `stored` gives the name to keep when the option is new here.
    fn put(&mut self, name: &str, value: Value, stored: impl FnOnce() -> Cow<'static, str>) {
        match self.position(name) {
            Ok(i) => self.values[i].1 = value,
            Err(i) => {
                // Local sets hold one or two options: no room kept for more.
                self.values.reserve_exact(1);
                self.values.insert(i, (stored(), value));
            }
        }
    }

    pub fn remove(&mut self, name: &str) {
        if let Some(i) = self.find_position(name) {
            self.values.remove(i);
        }
    }

    /// Puts a table option back to its default.
    pub fn reset(&mut self, d: &OptionDef) {
        let value = if d.is_array() {
            Value::Array(
                d.default
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (i as u32, v.to_string()))
                    .collect(),
            )
        } else {
            Value::One(d.default.first().copied().unwrap_or("").to_string())
        };
        self.put(d.name, value, || Cow::Borrowed(d.name));
    }

    /// The user options (`@name`) set here, in name order.
    pub fn user_options(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.values
            .iter()
            .filter(|(k, _)| k.starts_with('@'))
            .map(|(k, v)| (k.as_ref(), v))
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// The global option sets (tmux's `global_options`, `global_s_options`, `global_w_options`).
#[derive(Clone, Debug)]
pub struct Options {
    pub server: OptionSet,
    pub session: OptionSet,
    pub window: OptionSet,
}

impl Options {
    /// Defaults, with what tmux takes from its environment at start: `default-shell` is
    /// `shell` (the host's choice from `SHELL`), `editor` from `VISUAL` or `EDITOR` (and vi
    /// or emacs keys from its name).
    pub fn new(environ: &BTreeMap<String, String>, shell: &str) -> Options {
        let mut o = Options {
            server: OptionSet::defaults(SERVER),
            session: OptionSet::defaults(SESSION),
            window: OptionSet::defaults(WINDOW),
        };
        o.session
            .set("default-shell", Value::One(shell.to_string()));
        if let Some(editor) = environ.get("VISUAL").or_else(|| environ.get("EDITOR")) {
            o.server.set("editor", Value::One(editor.clone()));
            // An editor whose name has "vi" in it makes the key tables vi's, as in tmux.
            let base = editor.rsplit('/').next().unwrap_or(editor);
            let keys = if base.contains("vi") { "vi" } else { "emacs" };
            o.session.set("status-keys", Value::One(keys.into()));
            o.window.set("mode-keys", Value::One(keys.into()));
        }
        o
    }

    /// The global set an option of scope `scope` lives in.
    pub fn global(&self, scope: u8) -> &OptionSet {
        if scope & SERVER != 0 {
            &self.server
        } else if scope & SESSION != 0 {
            &self.session
        } else {
            &self.window
        }
    }

    pub fn global_mut(&mut self, scope: u8) -> &mut OptionSet {
        if scope & SERVER != 0 {
            &mut self.server
        } else if scope & SESSION != 0 {
            &mut self.session
        } else {
            &mut self.window
        }
    }

    /// The global value of a table option (at its own scope), or of a user option in the
    /// global session set.
    pub fn get(&self, name: &str) -> Option<&str> {
        let set = match find(name) {
            Some(d) => self.global(d.scope),
            None => &self.session,
        };
        set.get(name).and_then(Value::as_str)
    }

    pub fn string(&self, name: &str) -> String {
        self.get(name).unwrap_or("").to_string()
    }

    pub fn number(&self, name: &str) -> i64 {
        self.get(name).and_then(|v| v.parse().ok()).unwrap_or(0)
    }

    pub fn flag(&self, name: &str) -> bool {
        self.get(name) == Some("on")
    }

    /// A session option as `session` sees it: its own value, else the global one.
    pub fn session_value<'a>(
        &'a self,
        session: Option<&'a Session>,
        name: &str,
    ) -> Option<&'a Value> {
        session
            .and_then(|s| s.options.get(name))
            .or_else(|| self.session.get(name))
    }

    /// A window or pane option as the pane of `window` sees it: the pane's value, the
    /// window's, else the global one.
    pub fn pane_value<'a>(&'a self, window: Option<&'a Window>, name: &str) -> Option<&'a Value> {
        window
            .and_then(|w| w.pane_options.get(name).or_else(|| w.window_options(name)))
            .or_else(|| self.window.get(name))
    }

    pub fn session_string(&self, session: &Session, name: &str) -> String {
        self.session_value(Some(session), name)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }

    pub fn session_number(&self, session: &Session, name: &str) -> i64 {
        self.session_string(session, name).parse().unwrap_or(0)
    }

    pub fn pane_string(&self, window: &Window, name: &str) -> String {
        self.pane_value(Some(window), name)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }

    /// An option as a format sees it (`#{history-limit}`, `#{@name}`, `#{name[1]}`), looked
    /// up as tmux's `format_find` does: server, then pane, window and session, each with its
    /// parents. Flags are `1` or `0`.
    pub fn format_value(
        &self,
        key: &str,
        session: Option<&Session>,
        window: Option<&Window>,
    ) -> Option<String> {
        let (name, index) = parse_name(key)?;
        let found = self
            .server
            .get(&name)
            .or_else(|| window.and_then(|w| self.pane_value(Some(w), &name)))
            .or_else(|| self.window.get(&name))
            .or_else(|| session.and_then(|s| s.options.get(&name)))
            .or_else(|| self.session.get(&name))?;
        Some(found.text(index, find(&name), true))
    }
}

impl Window {
    /// The window's own value of an option. A window named when it was made (or renamed)
    /// has automatic-rename off, as tmux sets it there.
    pub fn window_options(&self, name: &str) -> Option<&Value> {
        static OFF: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
        self.options.get(name).or_else(|| {
            (name == "automatic-rename" && !self.automatic_rename)
                .then(|| OFF.get_or_init(|| Value::One("off".into())))
        })
    }
}

/// Something that happened that a hook may want (tmux's notifications): the hook's name and
/// the objects it is about, by id, which may be gone by the time it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookEvent {
    pub name: &'static str,
    pub session: Option<u32>,
    pub pane: Option<u32>,
}

// ---- values ----

/// Checks and normalises a value for a non-array table option, as tmux's
/// `options_from_string` does; `current` is the value the option has now where the target
/// set sees it (a flag or choice given no value toggles it). Strings (and their `-a`) are the
/// caller's: see [`check_string`].
pub fn parse_value(
    def: &OptionDef,
    value: Option<&str>,
    current: Option<&str>,
) -> Result<String, String> {
    let Some(value) = value else {
        return match def.kind {
            Kind::Flag => Ok(if current == Some("on") { "off" } else { "on" }.into()),
            Kind::Choice(choices) => {
                let now = choices
                    .iter()
                    .position(|c| Some(*c) == current)
                    .unwrap_or(0);
                let next = if now < 2 { 1 - now } else { now };
                Ok(choices[next].to_string())
            }
            _ => Err("empty value".into()),
        };
    };
    match def.kind {
        Kind::String | Kind::Command => Ok(value.to_string()),
        Kind::Number { min, max } => strtonum(value, min, max)
            .map(|n| n.to_string())
            .map_err(|e| format!("value is {e}: {value}")),
        Kind::Key => {
            super::keys::canonical_key_name(value).ok_or_else(|| format!("bad key: {value}"))
        }
        Kind::Colour => colour_from_string(value)
            .map(colour_to_string)
            .ok_or_else(|| format!("bad colour: {value}")),
        Kind::Flag => {
            let v = value.to_ascii_lowercase();
            if value == "1" || v == "on" || v == "yes" {
                Ok("on".into())
            } else if value == "0" || v == "off" || v == "no" {
                Ok("off".into())
            } else {
                Err(format!("bad value: {value}"))
            }
        }
        Kind::Choice(choices) => choices
            .iter()
            .find(|c| **c == value)
            .map(|c| c.to_string())
            .ok_or_else(|| format!("unknown value: {value}")),
    }
}

/// The checks tmux makes on a string option's new value: a suitable shell for
/// `default-shell` (`is_shell` asks the host), the option's pattern, a valid style.
pub fn check_string(
    def: &OptionDef,
    value: &str,
    is_shell: impl Fn(&str) -> bool,
) -> Result<(), String> {
    if def.name == "default-shell" && !is_shell(value) {
        return Err(format!("not a suitable shell: {value}"));
    }
    if let Some(p) = def.pattern {
        if !super::target::glob(p, value) {
            return Err(format!("value is invalid: {value}"));
        }
    }
    if def.flags & STYLE != 0 && !value.contains("#{") && !super::style::is_valid(value) {
        return Err(format!("invalid style: {value}"));
    }
    Ok(())
}

/// An array item for an option of this type: strings as given, colours normalised; commands
/// are the caller's (they need the command table).
pub fn parse_item(def: &OptionDef, value: &str) -> Result<String, String> {
    match def.kind {
        Kind::String | Kind::Command => Ok(value.to_string()),
        Kind::Colour => colour_from_string(value)
            .map(colour_to_string)
            .ok_or_else(|| format!("bad colour: {value}")),
        _ => Err("wrong array type".into()),
    }
}

pub const COLOUR_FLAG_256: i32 = 0x0100_0000;
pub const COLOUR_FLAG_RGB: i32 = 0x0200_0000;
const COLOUR_NAMES: &[(&str, i32)] = &[
    ("black", 0),
    ("red", 1),
    ("green", 2),
    ("yellow", 3),
    ("blue", 4),
    ("magenta", 5),
    ("cyan", 6),
    ("white", 7),
    ("default", 8),
    ("terminal", 9),
    ("brightblack", 90),
    ("brightred", 91),
    ("brightgreen", 92),
    ("brightyellow", 93),
    ("brightblue", 94),
    ("brightmagenta", 95),
    ("brightcyan", 96),
    ("brightwhite", 97),
];

/// tmux's `colour_fromstring`: `#rrggbb`, `colourN`, the named and numbered basic colours,
/// `default`, `terminal`, and `grey`/`grayN`. (tmux also knows the X11 colour names; they
/// are not accepted here.)
pub fn colour_from_string(s: &str) -> Option<i32> {
    if s.len() == 7 && s.starts_with('#') {
        let hex = &s[1..];
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let rgb = i32::from_str_radix(hex, 16).ok()?;
        return Some(rgb | COLOUR_FLAG_RGB);
    }
    let lower = s.to_ascii_lowercase();
    for prefix in ["colour", "color"] {
        if let Some(n) = lower.strip_prefix(prefix) {
            return strtonum(n, 0, 255).ok().map(|n| n as i32 | COLOUR_FLAG_256);
        }
    }
    for (i, (name, c)) in COLOUR_NAMES.iter().enumerate() {
        let number = if i < 8 {
            i.to_string()
        } else if *c >= 90 {
            c.to_string()
        } else {
            String::new()
        };
        if lower == *name || (!number.is_empty() && s == number) {
            return Some(*c);
        }
    }
    for prefix in ["grey", "gray"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            if !rest.starts_with(|c: char| c.is_ascii_digit()) {
                return Some(0xbebebe | COLOUR_FLAG_RGB);
            }
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let n: f64 = digits.parse().unwrap_or(0.0);
            let c = (2.55 * n).round() as i64;
            if !(0..=255).contains(&c) {
                return None;
            }
            let c = c as i32;
            return Some((c << 16) | (c << 8) | c | COLOUR_FLAG_RGB);
        }
    }
    None
}

/// tmux's `colour_tostring`.
pub fn colour_to_string(c: i32) -> String {
    if c == -1 {
        return "none".into();
    }
    if c & COLOUR_FLAG_RGB != 0 {
        return format!("#{:06x}", c & 0xff_ffff);
    }
    if c & COLOUR_FLAG_256 != 0 {
        return format!("colour{}", c & 0xff);
    }
    COLOUR_NAMES
        .iter()
        .find(|(_, v)| *v == c)
        .map_or("invalid", |(n, _)| n)
        .to_string()
}

/// How tmux shows a string argument or value (`args_escape`): as is when it is safe, in
/// single quotes when it has spaces or double quotes, in double quotes (with `\`, `"` and
/// `$NAME` escaped) when it has `#`, `'`, `;`, `$`, braces or `%`; control characters and
/// bytes that are not printable UTF-8 as C-style or octal escapes; empty as `''`.
pub fn escape(s: &str) -> String {
    if s.is_empty() {
        return "''".into();
    }
    let dquote = s.contains([' ', '#', '\'', ';', '$', '{', '}', '%']);
    let quote = if dquote {
        Some('"')
    } else if s.contains([' ', '"']) {
        Some('\'')
    } else {
        None
    };
    let mut chars = s.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if c != ' ' && (quote.is_some() || c == '~') {
            return format!("\\{c}");
        }
    }
    let escaped = vis(s, quote == Some('"'));
    match quote {
        Some('\'') => format!("'{escaped}'"),
        Some(_) if escaped.starts_with('~') => format!("\"\\{escaped}\""),
        Some(_) => format!("\"{escaped}\""),
        None if escaped.starts_with('~') => format!("\\{escaped}"),
        None => escaped,
    }
}

/// `utf8_stravis` with `VIS_OCTAL|VIS_CSTYLE|VIS_TAB|VIS_NL` (and `VIS_DQ`).
fn vis(s: &str, dq: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b >= 0x80 {
            // A whole printable UTF-8 character is kept; anything else is escaped by byte.
            let len = match b {
                0xc2..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf4 => 4,
                _ => 1,
            };
            if let Some(c) = bytes
                .get(i..i + len)
                .and_then(|seq| std::str::from_utf8(seq).ok())
                .and_then(|t| t.chars().next())
                .filter(|&c| !crate::term::width_table::tmux_discards(c))
            {
                out.push(c);
                i += len;
                continue;
            }
        }
        let next = bytes.get(i + 1).copied().unwrap_or(0);
        if b == b'$' && i + 1 < bytes.len() {
            if next.is_ascii_alphabetic() || next == b'_' || next == b'{' {
                out.push('\\');
            }
            out.push('$');
        } else if b.is_ascii_graphic() || b == b' ' {
            if b == b'\\' || (dq && b == b'"') {
                out.push('\\');
            }
            out.push(b as char);
        } else {
            let c_style = match b {
                b'\n' => Some("\\n"),
                b'\r' => Some("\\r"),
                0x08 => Some("\\b"),
                0x07 => Some("\\a"),
                0x0b => Some("\\v"),
                b'\t' => Some("\\t"),
                0x0c => Some("\\f"),
                _ => None,
            };
            match c_style {
                Some(e) => out.push_str(e),
                None if b == 0 => {
                    out.push_str("\\0");
                    if (b'0'..=b'7').contains(&next) {
                        out.push_str("00");
                    }
                }
                None => out.push_str(&format!("\\{:03o}", b)),
            }
        }
        i += 1;
    }
    out
}

// ---- the table ----

// BEGIN GENERATED by scripts/gen-options-table.py (do not edit by hand)
#[rustfmt::skip]
pub static TABLE: &[OptionDef] = &[
    OptionDef { name: "backspace", kind: Kind::Key, scope: SERVER, flags: 0, separator: None, pattern: None, default: &["C-?"] },
    OptionDef { name: "buffer-limit", kind: Kind::Number { min: 1, max: 2147483647 }, scope: SERVER, flags: 0, separator: None, pattern: None, default: &["50"] },
    OptionDef { name: "command-alias", kind: Kind::String, scope: SERVER, flags: ARRAY, separator: Some(","), pattern: None, default: &["split-pane=split-window", "splitp=split-window", "server-info=show-messages -JT", "info=show-messages -JT", "choose-window=choose-tree -w", "choose-session=choose-tree -s"] },
    OptionDef { name: "copy-command", kind: Kind::String, scope: SERVER, flags: 0, separator: None, pattern: None, default: &[""] },
    OptionDef { name: "cursor-colour", kind: Kind::Colour, scope: WINDOW | PANE, flags: 0, separator: None, pattern: None, default: &["none"] },
    OptionDef { name: "cursor-style", kind: Kind::Choice(&["default", "blinking-block", "block", "blinking-underline", "underline", "blinking-bar", "bar"]), scope: WINDOW | PANE, flags: 0, separator: None, pattern: None, default: &["default"] },
    OptionDef { name: "default-terminal", kind: Kind::String, scope: SERVER, flags: 0, separator: None, pattern: None, default: &["tmux-256color"] },
    OptionDef { name: "editor", kind: Kind::String, scope: SERVER, flags: 0, separator: None, pattern: None, default: &["/usr/bin/vi"] },
    OptionDef { name: "escape-time", kind: Kind::Number { min: 0, max: 2147483647 }, scope: SERVER, flags: 0, separator: None, pattern: None, default: &["500"] },
    OptionDef { name: "exit-empty", kind: Kind::Flag, scope: SERVER, flags: 0, separator: None, pattern: None, default: &["on"] },
    OptionDef { name: "exit-unattached", kind: Kind::Flag, scope: SERVER, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "extended-keys", kind: Kind::Choice(&["off", "on", "always"]), scope: SERVER, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "focus-events", kind: Kind::Flag, scope: SERVER, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "history-file", kind: Kind::String, scope: SERVER, flags: 0, separator: None, pattern: None, default: &[""] },
    OptionDef { name: "message-limit", kind: Kind::Number { min: 0, max: 2147483647 }, scope: SERVER, flags: 0, separator: None, pattern: None, default: &["1000"] },
    OptionDef { name: "prompt-history-limit", kind: Kind::Number { min: 0, max: 2147483647 }, scope: SERVER, flags: 0, separator: None, pattern: None, default: &["100"] },
    OptionDef { name: "set-clipboard", kind: Kind::Choice(&["off", "external", "on"]), scope: SERVER, flags: 0, separator: None, pattern: None, default: &["external"] },
    OptionDef { name: "terminal-overrides", kind: Kind::String, scope: SERVER, flags: ARRAY, separator: Some(","), pattern: None, default: &[] },
    OptionDef { name: "terminal-features", kind: Kind::String, scope: SERVER, flags: ARRAY, separator: Some(","), pattern: None, default: &["xterm*:clipboard:ccolour:cstyle:focus:title", "screen*:title"] },
    OptionDef { name: "user-keys", kind: Kind::String, scope: SERVER, flags: ARRAY, separator: Some(","), pattern: None, default: &[] },
    OptionDef { name: "activity-action", kind: Kind::Choice(&["none", "any", "current", "other"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["other"] },
    OptionDef { name: "assume-paste-time", kind: Kind::Number { min: 0, max: 2147483647 }, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["1"] },
    OptionDef { name: "base-index", kind: Kind::Number { min: 0, max: 2147483647 }, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["0"] },
    OptionDef { name: "bell-action", kind: Kind::Choice(&["none", "any", "current", "other"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["any"] },
    OptionDef { name: "default-command", kind: Kind::String, scope: SESSION, flags: 0, separator: None, pattern: None, default: &[""] },
    OptionDef { name: "default-shell", kind: Kind::String, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["/bin/sh"] },
    OptionDef { name: "default-size", kind: Kind::String, scope: SESSION, flags: 0, separator: None, pattern: Some("[0-9]*x[0-9]*"), default: &["80x24"] },
    OptionDef { name: "destroy-unattached", kind: Kind::Flag, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "detach-on-destroy", kind: Kind::Choice(&["off", "on", "no-detached"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["on"] },
    OptionDef { name: "display-panes-active-colour", kind: Kind::Colour, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["red"] },
    OptionDef { name: "display-panes-colour", kind: Kind::Colour, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["blue"] },
    OptionDef { name: "display-panes-time", kind: Kind::Number { min: 1, max: 2147483647 }, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["1000"] },
    OptionDef { name: "display-time", kind: Kind::Number { min: 0, max: 2147483647 }, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["750"] },
    OptionDef { name: "history-limit", kind: Kind::Number { min: 0, max: 2147483647 }, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["2000"] },
    OptionDef { name: "key-table", kind: Kind::String, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["root"] },
    OptionDef { name: "lock-after-time", kind: Kind::Number { min: 0, max: 2147483647 }, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["0"] },
    OptionDef { name: "lock-command", kind: Kind::String, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["lock -np"] },
    OptionDef { name: "message-command-style", kind: Kind::String, scope: SESSION, flags: STYLE, separator: Some(","), pattern: None, default: &["bg=black,fg=yellow"] },
    OptionDef { name: "message-style", kind: Kind::String, scope: SESSION, flags: STYLE, separator: Some(","), pattern: None, default: &["bg=yellow,fg=black"] },
    OptionDef { name: "mouse", kind: Kind::Flag, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "prefix", kind: Kind::Key, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["C-b"] },
    OptionDef { name: "prefix2", kind: Kind::Key, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["None"] },
    OptionDef { name: "renumber-windows", kind: Kind::Flag, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "repeat-time", kind: Kind::Number { min: 0, max: 32767 }, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["500"] },
    OptionDef { name: "set-titles", kind: Kind::Flag, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "set-titles-string", kind: Kind::String, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["#S:#I:#W - \"#T\" #{session_alerts}"] },
    OptionDef { name: "silence-action", kind: Kind::Choice(&["none", "any", "current", "other"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["other"] },
    OptionDef { name: "status", kind: Kind::Choice(&["off", "on", "2", "3", "4", "5"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["on"] },
    OptionDef { name: "status-bg", kind: Kind::Colour, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["default"] },
    OptionDef { name: "status-fg", kind: Kind::Colour, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["default"] },
    OptionDef { name: "status-format", kind: Kind::String, scope: SESSION, flags: ARRAY, separator: None, pattern: None, default: &["#[align=left range=left #{E:status-left-style}]#[push-default]#{T;=/#{status-left-length}:status-left}#[pop-default]#[norange default]#[list=on align=#{status-justify}]#[list=left-marker]<#[list=right-marker]>#[list=on]#{W:#[range=window|#{window_index} #{E:window-status-style}#{?#{&&:#{window_last_flag},#{!=:#{E:window-status-last-style},default}}, #{E:window-status-last-style},}#{?#{&&:#{window_bell_flag},#{!=:#{E:window-status-bell-style},default}}, #{E:window-status-bell-style},#{?#{&&:#{||:#{window_activity_flag},#{window_silence_flag}},#{!=:#{E:window-status-activity-style},default}}, #{E:window-status-activity-style},}}]#[push-default]#{T:window-status-format}#[pop-default]#[norange default]#{?window_end_flag,,#{window-status-separator}},#[range=window|#{window_index} list=focus #{?#{!=:#{E:window-status-current-style},default},#{E:window-status-current-style},#{E:window-status-style}}#{?#{&&:#{window_last_flag},#{!=:#{E:window-status-last-style},default}}, #{E:window-status-last-style},}#{?#{&&:#{window_bell_flag},#{!=:#{E:window-status-bell-style},default}}, #{E:window-status-bell-style},#{?#{&&:#{||:#{window_activity_flag},#{window_silence_flag}},#{!=:#{E:window-status-activity-style},default}}, #{E:window-status-activity-style},}}]#[push-default]#{T:window-status-current-format}#[pop-default]#[norange list=on default]#{?window_end_flag,,#{window-status-separator}}}#[nolist align=right range=right #{E:status-right-style}]#[push-default]#{T;=/#{status-right-length}:status-right}#[pop-default]#[norange default]", "#[align=centre]#{P:#{?pane_active,#[reverse],}#{pane_index}[#{pane_width}x#{pane_height}]#[default] }"] },
    OptionDef { name: "status-interval", kind: Kind::Number { min: 0, max: 2147483647 }, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["15"] },
    OptionDef { name: "status-justify", kind: Kind::Choice(&["left", "centre", "right", "absolute-centre"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["left"] },
    OptionDef { name: "status-keys", kind: Kind::Choice(&["emacs", "vi"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["emacs"] },
    OptionDef { name: "status-left", kind: Kind::String, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["[#{session_name}] "] },
    OptionDef { name: "status-left-length", kind: Kind::Number { min: 0, max: 32767 }, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["10"] },
    OptionDef { name: "status-left-style", kind: Kind::String, scope: SESSION, flags: STYLE, separator: Some(","), pattern: None, default: &["default"] },
    OptionDef { name: "status-position", kind: Kind::Choice(&["top", "bottom"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["bottom"] },
    OptionDef { name: "status-right", kind: Kind::String, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["#{?window_bigger,[#{window_offset_x}#,#{window_offset_y}] ,}\"#{=21:pane_title}\" %H:%M %d-%b-%y"] },
    OptionDef { name: "status-right-length", kind: Kind::Number { min: 0, max: 32767 }, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["40"] },
    OptionDef { name: "status-right-style", kind: Kind::String, scope: SESSION, flags: STYLE, separator: Some(","), pattern: None, default: &["default"] },
    OptionDef { name: "status-style", kind: Kind::String, scope: SESSION, flags: STYLE, separator: Some(","), pattern: None, default: &["bg=green,fg=black"] },
    OptionDef { name: "update-environment", kind: Kind::String, scope: SESSION, flags: ARRAY, separator: None, pattern: None, default: &["DISPLAY", "KRB5CCNAME", "SSH_ASKPASS", "SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_CONNECTION", "WINDOWID", "XAUTHORITY"] },
    OptionDef { name: "visual-activity", kind: Kind::Choice(&["off", "on", "both"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "visual-bell", kind: Kind::Choice(&["off", "on", "both"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "visual-silence", kind: Kind::Choice(&["off", "on", "both"]), scope: SESSION, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "word-separators", kind: Kind::String, scope: SESSION, flags: 0, separator: None, pattern: None, default: &["!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~"] },
    OptionDef { name: "aggressive-resize", kind: Kind::Flag, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "allow-passthrough", kind: Kind::Flag, scope: WINDOW | PANE, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "allow-rename", kind: Kind::Flag, scope: WINDOW | PANE, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "alternate-screen", kind: Kind::Flag, scope: WINDOW | PANE, flags: 0, separator: None, pattern: None, default: &["on"] },
    OptionDef { name: "automatic-rename", kind: Kind::Flag, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["on"] },
    OptionDef { name: "automatic-rename-format", kind: Kind::String, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["#{?pane_in_mode,[tmux],#{pane_current_command}}#{?pane_dead,[dead],}"] },
    OptionDef { name: "clock-mode-colour", kind: Kind::Colour, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["blue"] },
    OptionDef { name: "clock-mode-style", kind: Kind::Choice(&["12", "24"]), scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["24"] },
    OptionDef { name: "copy-mode-match-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["bg=cyan,fg=black"] },
    OptionDef { name: "copy-mode-current-match-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["bg=magenta,fg=black"] },
    OptionDef { name: "copy-mode-mark-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["bg=red,fg=black"] },
    OptionDef { name: "fill-character", kind: Kind::String, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &[""] },
    OptionDef { name: "main-pane-height", kind: Kind::String, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["24"] },
    OptionDef { name: "main-pane-width", kind: Kind::String, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["80"] },
    OptionDef { name: "mode-keys", kind: Kind::Choice(&["emacs", "vi"]), scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["emacs"] },
    OptionDef { name: "mode-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["bg=yellow,fg=black"] },
    OptionDef { name: "monitor-activity", kind: Kind::Flag, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "monitor-bell", kind: Kind::Flag, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["on"] },
    OptionDef { name: "monitor-silence", kind: Kind::Number { min: 0, max: 2147483647 }, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["0"] },
    OptionDef { name: "other-pane-height", kind: Kind::String, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["0"] },
    OptionDef { name: "other-pane-width", kind: Kind::String, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["0"] },
    OptionDef { name: "pane-active-border-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["#{?pane_in_mode,fg=yellow,#{?synchronize-panes,fg=red,fg=green}}"] },
    OptionDef { name: "pane-base-index", kind: Kind::Number { min: 0, max: 65535 }, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["0"] },
    OptionDef { name: "pane-border-format", kind: Kind::String, scope: WINDOW | PANE, flags: 0, separator: None, pattern: None, default: &["#{?pane_active,#[reverse],}#{pane_index}#[default] \"#{pane_title}\""] },
    OptionDef { name: "pane-border-indicators", kind: Kind::Choice(&["off", "colour", "arrows", "both"]), scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["colour"] },
    OptionDef { name: "pane-border-lines", kind: Kind::Choice(&["single", "double", "heavy", "simple", "number"]), scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["single"] },
    OptionDef { name: "pane-border-status", kind: Kind::Choice(&["off", "top", "bottom"]), scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "pane-border-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["default"] },
    OptionDef { name: "pane-colours", kind: Kind::Colour, scope: WINDOW | PANE, flags: ARRAY, separator: None, pattern: None, default: &[] },
    OptionDef { name: "popup-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["default"] },
    OptionDef { name: "popup-border-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["default"] },
    OptionDef { name: "popup-border-lines", kind: Kind::Choice(&["single", "double", "heavy", "simple", "rounded", "padded", "none"]), scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["single"] },
    OptionDef { name: "remain-on-exit", kind: Kind::Choice(&["off", "on", "failed"]), scope: WINDOW | PANE, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "remain-on-exit-format", kind: Kind::String, scope: WINDOW | PANE, flags: 0, separator: None, pattern: None, default: &["Pane is dead (#{?#{!=:#{pane_dead_status},},status #{pane_dead_status},}#{?#{!=:#{pane_dead_signal},},signal #{pane_dead_signal},}, #{t:pane_dead_time})"] },
    OptionDef { name: "scroll-on-clear", kind: Kind::Flag, scope: WINDOW | PANE, flags: 0, separator: None, pattern: None, default: &["on"] },
    OptionDef { name: "synchronize-panes", kind: Kind::Flag, scope: WINDOW | PANE, flags: 0, separator: None, pattern: None, default: &["off"] },
    OptionDef { name: "window-active-style", kind: Kind::String, scope: WINDOW | PANE, flags: STYLE, separator: Some(","), pattern: None, default: &["default"] },
    OptionDef { name: "window-size", kind: Kind::Choice(&["largest", "smallest", "manual", "latest"]), scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["latest"] },
    OptionDef { name: "window-style", kind: Kind::String, scope: WINDOW | PANE, flags: STYLE, separator: Some(","), pattern: None, default: &["default"] },
    OptionDef { name: "window-status-activity-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["reverse"] },
    OptionDef { name: "window-status-bell-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["reverse"] },
    OptionDef { name: "window-status-current-format", kind: Kind::String, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["#I:#W#{?window_flags,#{window_flags}, }"] },
    OptionDef { name: "window-status-current-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["default"] },
    OptionDef { name: "window-status-format", kind: Kind::String, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["#I:#W#{?window_flags,#{window_flags}, }"] },
    OptionDef { name: "window-status-last-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["default"] },
    OptionDef { name: "window-status-separator", kind: Kind::String, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &[" "] },
    OptionDef { name: "window-status-style", kind: Kind::String, scope: WINDOW, flags: STYLE, separator: Some(","), pattern: None, default: &["default"] },
    OptionDef { name: "wrap-search", kind: Kind::Flag, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["on"] },
    OptionDef { name: "xterm-keys", kind: Kind::Flag, scope: WINDOW, flags: 0, separator: None, pattern: None, default: &["on"] },
    OptionDef { name: "after-bind-key", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-capture-pane", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-copy-mode", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-display-message", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-display-panes", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-kill-pane", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-list-buffers", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-list-clients", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-list-keys", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-list-panes", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-list-sessions", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-list-windows", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-load-buffer", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-lock-server", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-new-session", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-new-window", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-paste-buffer", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-pipe-pane", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-queue", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-refresh-client", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-rename-session", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-rename-window", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-resize-pane", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-resize-window", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-save-buffer", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-select-layout", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-select-pane", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-select-window", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-send-keys", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-set-buffer", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-set-environment", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-set-hook", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-set-option", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-show-environment", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-show-messages", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-show-options", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-split-window", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "after-unbind-key", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "alert-activity", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "alert-bell", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "alert-silence", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "client-active", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "client-attached", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "client-detached", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "client-focus-in", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "client-focus-out", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "client-resized", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "client-session-changed", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "pane-died", kind: Kind::Command, scope: WINDOW | PANE, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "pane-exited", kind: Kind::Command, scope: WINDOW | PANE, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "pane-focus-in", kind: Kind::Command, scope: WINDOW | PANE, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "pane-focus-out", kind: Kind::Command, scope: WINDOW | PANE, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "pane-mode-changed", kind: Kind::Command, scope: WINDOW | PANE, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "pane-set-clipboard", kind: Kind::Command, scope: WINDOW | PANE, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "pane-title-changed", kind: Kind::Command, scope: WINDOW | PANE, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "session-closed", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "session-created", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "session-renamed", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "session-window-changed", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "window-layout-changed", kind: Kind::Command, scope: WINDOW, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "window-linked", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "window-pane-changed", kind: Kind::Command, scope: WINDOW, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "window-renamed", kind: Kind::Command, scope: WINDOW, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "window-resized", kind: Kind::Command, scope: WINDOW, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
    OptionDef { name: "window-unlinked", kind: Kind::Command, scope: SESSION, flags: ARRAY | HOOK, separator: Some(""), pattern: None, default: &[] },
];

/// Names tmux also accepts for some options (American spellings).
#[rustfmt::skip]
pub const OTHER_NAMES: &[(&str, &str)] = &[
    ("display-panes-color", "display-panes-colour"),
    ("display-panes-active-color", "display-panes-active-colour"),
    ("clock-mode-color", "clock-mode-colour"),
    ("cursor-color", "cursor-colour"),
    ("pane-colors", "pane-colours"),
];
// END GENERATED

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_sets_keep_table_names_borrowed_and_user_options_in_order() {
        // The entry size the set's documentation states.
        assert_eq!(std::mem::size_of::<(Cow<'static, str>, Value)>(), 56);
        let mut set = OptionSet::default();
        set.set("@zeta", Value::One("z".into()));
        set.set("default-size", Value::One("220x80".into()));
        set.set("@alpha", Value::One("a".into()));
        set.set("default-size", Value::One("100x30".into()));
        assert_eq!(set.values.len(), 3);
        assert!(matches!(set.values[0].0, Cow::Owned(_)));
        assert!(matches!(set.values[2].0, Cow::Borrowed("default-size")));
        assert_eq!(set.get("default-size"), Some(&Value::One("100x30".into())));
        let users: Vec<&str> = set.user_options().map(|(k, _)| k).collect();
        assert_eq!(users, ["@alpha", "@zeta"]);
        set.remove("default-size");
        assert_eq!(set.get("default-size"), None);
        let defaults = OptionSet::defaults(SESSION);
        assert!(defaults.values.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(defaults
            .values
            .iter()
            .all(|(k, _)| matches!(k, Cow::Borrowed(_))));
    }

    #[test]
    fn escapes_as_tmux_shows_values() {
        assert_eq!(escape(""), "''");
        assert_eq!(escape("abc"), "abc");
        assert_eq!(escape("a b"), "\"a b\"");
        assert_eq!(escape("a\"b"), "'a\"b'");
        assert_eq!(escape("a$b\"c\\d`e"), "\"a\\$b\\\"c\\\\d`e\"");
        assert_eq!(escape("~x"), "\\~x");
        assert_eq!(escape("~"), "\\~");
        assert_eq!(escape("$"), "\\$");
        assert_eq!(escape("tab\tx"), "tab\\tx");
        assert_eq!(escape("a\x01b\x1bc\rd"), "a\\001b\\033c\\rd");
        assert_eq!(escape("é ü"), "\"é ü\"");
        assert_eq!(escape("\u{80}"), "\\302\\200");
    }

    #[test]
    fn colours_read_and_shown_as_tmux_does() {
        assert_eq!(
            colour_from_string("Red").map(colour_to_string),
            Some("red".into())
        );
        assert_eq!(
            colour_from_string("#ABCDEF").map(colour_to_string),
            Some("#abcdef".into())
        );
        assert_eq!(colour_from_string("colour300"), None);
        assert_eq!(
            colour_from_string("colour30").map(colour_to_string),
            Some("colour30".into())
        );
    }

    #[test]
    fn names_match_as_tmux_matches_them() {
        assert_eq!(match_name("hist"), Err(NameError::Ambiguous));
        assert_eq!(match_name("history-l"), Ok(("history-limit".into(), None)));
        assert_eq!(match_name("bogus"), Err(NameError::Invalid));
        assert_eq!(
            match_name("update-environment[2]"),
            Ok(("update-environment".into(), Some(2)))
        );
        assert_eq!(
            match_name("update-environment[x]"),
            Err(NameError::Ambiguous)
        );
        assert_eq!(match_name("@a[1]"), Ok(("@a".into(), Some(1))));
    }
}
