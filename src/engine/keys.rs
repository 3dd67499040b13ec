//! Key names and the bytes `send-keys` writes for them, as tmux 3.3a does.
//!
//! Three steps, each following tmux:
//!
//! - [`parse_key`] turns a key argument (`C-a`, `M-Up`, `KP5`, `^X`, `é`, `0x1b`, ...) into a
//!   [`Key`], as `key_string_lookup_string` does: modifier prefixes `C-`, `M-`, `S-` in any
//!   order and case, a leading `^` for Ctrl, the named keys case-insensitively, one ASCII or
//!   UTF-8 character, or a `0x` code point.
//! - [`encode`] turns a [`Key`] into the bytes written to the pane's program, as `input_key`
//!   does: the pane's cursor key mode (DECCKM), keypad mode (DECKPAM) and extended key mode
//!   (`CSI > 4 ; 1 m`) choose between the sequences, and the server's `backspace` option gives
//!   the byte for `BSpace`.
//! - [`send_keys_arg`] is one argument of `send-keys`: a key if it names one that can be sent,
//!   otherwise its text, character by character.
//!
//! tmux quirks kept on purpose, because programs and scripts see them:
//!
//! - An argument that names no key, or names one that tmux has no sequence for (`S-a` outside
//!   extended mode, mouse keys, `Any`), is typed as its own text: `S-a` sends `S`, `-`, `a`.
//! - Ctrl with a key that has no control code (`C-1`, `C-Enter`, `C-BSpace`, `C-KP1`) sends
//!   nothing at all outside extended mode; it is not typed as text.
//! - Ctrl and Shift on a non-ASCII character are dropped: `C-é` sends `é`.
//! - Extended keys are `CSI code ; modifier u`, where `code` is the character, or tmux's
//!   internal number for keys such as `BTab` or the keypad (`C-KP1` is `CSI 1106358;5u`).
//! - `User0`..`User999` are keys that send nothing.
//!
//! Invariants: a [`Key`] is laid out as a tmux `key_code`: bits 0..44 are the key (ASCII, a
//! named key at tmux's own number, a `User` key, or a Unicode character; tmux packs the
//! character's UTF-8 bytes there, here it is the code point tagged with [`Key::UNICODE`]),
//! bits 44..48 the modifiers ([`Key::META`], [`Key::CTRL`], [`Key::SHIFT`]) and bits 48..56
//! tmux's flags ([`Key::KEYPAD`], [`Key::CURSOR`], [`Key::IMPLIED_META`]). [`parse_key`] never
//! returns a Unicode key below U+0080 or one tmux rejects for its width. [`encode`] appends to
//! its output only when it returns true.

use crate::term::mode;
use crate::term::width_table::tmux_discards;

/// A key code, laid out as tmux's `key_code`; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(u64);

const BASE: u64 = 0x10e000;
const BASE_END: u64 = BASE + 444;
const USER_BASE: u64 = 0x10f000;
const NUSER: u64 = 1000;
const MASK_KEY: u64 = (1 << 44) - 1;
const MASK_MODIFIERS: u64 = 0xf << 44;
const MASK_FLAGS: u64 = 0xff << 48;
const KEY_NONE: u64 = 0xff << 36;
const KEY_UNKNOWN: u64 = 0xfe << 36;

/// The first mouse key (tmux's `KEYC_MOUSE`); mouse keys run up to [`Key::BSPACE`].
const MOUSE: u64 = BASE + 5;
/// The first mouse key with a name (`MouseMovePane`, which has none, comes before it).
const MOUSE_NAMED: u64 = BASE + 8 + 6;

impl Key {
    pub const META: u64 = 1 << 44;
    pub const CTRL: u64 = 1 << 45;
    pub const SHIFT: u64 = 1 << 46;
    /// The key came from the keypad: application keypad mode changes its sequence.
    pub const KEYPAD: u64 = 1 << 49;
    /// A cursor key: application cursor key mode changes its sequence.
    pub const CURSOR: u64 = 1 << 50;
    /// Meta is part of the key's modified sequence (`M-Up` is `CSI 1;3A`, not ESC `CSI A`).
    pub const IMPLIED_META: u64 = 1 << 51;
    /// Marks a Unicode character in the key bits (a tmux key above U+007F).
    pub const UNICODE: u64 = 1 << 32;

    pub const ANY: Key = Key(BASE + 2);
    pub const PASTE_START: Key = Key(BASE + 3);
    pub const PASTE_END: Key = Key(BASE + 4);
    pub const BSPACE: Key = Key(BASE + 404);
    pub const F1: Key = Key(BASE + 405);
    pub const F2: Key = Key(BASE + 406);
    pub const F3: Key = Key(BASE + 407);
    pub const F4: Key = Key(BASE + 408);
    pub const F5: Key = Key(BASE + 409);
    pub const F6: Key = Key(BASE + 410);
    pub const F7: Key = Key(BASE + 411);
    pub const F8: Key = Key(BASE + 412);
    pub const F9: Key = Key(BASE + 413);
    pub const F10: Key = Key(BASE + 414);
    pub const F11: Key = Key(BASE + 415);
    pub const F12: Key = Key(BASE + 416);
    pub const IC: Key = Key(BASE + 417);
    pub const DC: Key = Key(BASE + 418);
    pub const HOME: Key = Key(BASE + 419);
    pub const END: Key = Key(BASE + 420);
    pub const NPAGE: Key = Key(BASE + 421);
    pub const PPAGE: Key = Key(BASE + 422);
    pub const BTAB: Key = Key(BASE + 423);
    pub const UP: Key = Key((BASE + 424) | Key::CURSOR);
    pub const DOWN: Key = Key((BASE + 425) | Key::CURSOR);
    pub const LEFT: Key = Key((BASE + 426) | Key::CURSOR);
    pub const RIGHT: Key = Key((BASE + 427) | Key::CURSOR);
    pub const KP_SLASH: Key = Key((BASE + 428) | Key::KEYPAD);
    pub const KP_STAR: Key = Key((BASE + 429) | Key::KEYPAD);
    pub const KP_MINUS: Key = Key((BASE + 430) | Key::KEYPAD);
    pub const KP_SEVEN: Key = Key((BASE + 431) | Key::KEYPAD);
    pub const KP_EIGHT: Key = Key((BASE + 432) | Key::KEYPAD);
    pub const KP_NINE: Key = Key((BASE + 433) | Key::KEYPAD);
    pub const KP_PLUS: Key = Key((BASE + 434) | Key::KEYPAD);
    pub const KP_FOUR: Key = Key((BASE + 435) | Key::KEYPAD);
    pub const KP_FIVE: Key = Key((BASE + 436) | Key::KEYPAD);
    pub const KP_SIX: Key = Key((BASE + 437) | Key::KEYPAD);
    pub const KP_ONE: Key = Key((BASE + 438) | Key::KEYPAD);
    pub const KP_TWO: Key = Key((BASE + 439) | Key::KEYPAD);
    pub const KP_THREE: Key = Key((BASE + 440) | Key::KEYPAD);
    pub const KP_ENTER: Key = Key((BASE + 441) | Key::KEYPAD);
    pub const KP_ZERO: Key = Key((BASE + 442) | Key::KEYPAD);
    pub const KP_PERIOD: Key = Key((BASE + 443) | Key::KEYPAD);
    pub const ENTER: Key = Key(b'\r' as u64);
    pub const ESCAPE: Key = Key(0x1b);
    pub const TAB: Key = Key(b'\t' as u64);
    pub const SPACE: Key = Key(b' ' as u64);

    /// The key without tmux's flags, as key tables hold it (`key & ~KEYC_MASK_FLAGS`).
    pub const fn without_flags(self) -> Key {
        Key(self.0 & !MASK_FLAGS)
    }

    /// The key's name as tmux shows it (`key_string_lookup_key` without flags).
    pub fn name(self) -> String {
        key_string(self.0)
    }

    /// The key with tmux's `key_code` value `raw`.
    pub const fn from_raw(raw: u64) -> Key {
        Key(raw)
    }

    /// tmux's `key_code` value.
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// The key typing `c` gives, without modifiers.
    pub const fn from_char(c: char) -> Key {
        let cp = c as u64;
        if cp <= 0x7f {
            Key(cp)
        } else {
            Key(Key::UNICODE | cp)
        }
    }

    /// User key `n` (`User0`..`User999`), if `n` is in range.
    pub const fn user(n: u32) -> Option<Key> {
        if (n as u64) < NUSER {
            Some(Key(USER_BASE + n as u64))
        } else {
            None
        }
    }

    /// The key bits alone, without modifiers or flags.
    pub const fn code(self) -> u64 {
        self.0 & MASK_KEY
    }

    /// The modifier bits ([`Key::META`], [`Key::CTRL`], [`Key::SHIFT`]).
    pub const fn modifiers(self) -> u64 {
        self.0 & MASK_MODIFIERS
    }

    /// The key with the modifier bits in `modifiers` added, as the prefixes `C-`, `M-`, `S-`
    /// add them (Meta on a key that has a modified sequence of its own uses that sequence).
    pub fn with_modifiers(self, modifiers: u64) -> Key {
        let mut k = self.0 | (modifiers & MASK_MODIFIERS);
        if modifiers & Key::META != 0 && implies_meta(self.code()) {
            k |= Key::IMPLIED_META;
        }
        Key(k)
    }

    /// The character, for a key that is one character without modifiers' effect.
    pub fn char(self) -> Option<char> {
        let code = self.code();
        if code <= 0x7f {
            char::from_u32(code as u32)
        } else if code & !0xff_ffff == Key::UNICODE {
            char::from_u32((code & 0xff_ffff) as u32)
        } else {
            None
        }
    }

    /// True for the mouse keys (`MouseDown1Pane`, `WheelUpStatus`, ...): `send-keys` cannot
    /// send them without a mouse event, so it types their names instead.
    pub const fn is_mouse(self) -> bool {
        let code = self.code();
        code >= MOUSE && code < Key::BSPACE.0
    }
}

/// True for the named keys whose table entry carries tmux's implied-Meta flag.
fn implies_meta(code: u64) -> bool {
    (Key::F1.0..=Key::PPAGE.0).contains(&code) || (BASE + 424..=BASE + 427).contains(&code)
}

/// The pane state that chooses between key sequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyModes {
    /// Application cursor keys (DECCKM, `CSI ? 1 h`; tmux's `MODE_KCURSOR`).
    pub cursor: bool,
    /// Application keypad (DECKPAM, `ESC =`; tmux's `MODE_KKEYPAD`).
    pub keypad: bool,
    /// Extended keys (`CSI > 4 ; 1 m`; tmux's `MODE_KEXTENDED`). With the server option
    /// `extended-keys` at `always` the pane is always in this mode; with `off` or `on` the
    /// program turns it on and off.
    pub extended: bool,
    /// The server's `backspace` option: the key sent for `BSpace` (`C-?`, 0x7f, by default;
    /// anything at or above 0x7f counts as 0x7f).
    pub backspace: Key,
}

impl Default for KeyModes {
    fn default() -> Self {
        KeyModes {
            cursor: false,
            keypad: false,
            extended: false,
            backspace: Key(0x7f),
        }
    }
}

impl KeyModes {
    /// The modes of a pane whose screen mode word is `mode` (from
    /// [`Terminal::mode`](crate::term::Terminal::mode)), with the default `backspace`.
    pub fn from_mode(mode: u32) -> KeyModes {
        KeyModes {
            cursor: mode & mode::KCURSOR != 0,
            keypad: mode & mode::KKEYPAD != 0,
            extended: mode & mode::KEXTENDED != 0,
            ..KeyModes::default()
        }
    }
}

impl From<u32> for KeyModes {
    fn from(mode: u32) -> Self {
        KeyModes::from_mode(mode)
    }
}

/// Named keys, in tmux's order, with the flags their names give.
const NAMES: &[(&str, u64)] = &[
    ("F1", Key::F1.0 | Key::IMPLIED_META),
    ("F2", Key::F2.0 | Key::IMPLIED_META),
    ("F3", Key::F3.0 | Key::IMPLIED_META),
    ("F4", Key::F4.0 | Key::IMPLIED_META),
    ("F5", Key::F5.0 | Key::IMPLIED_META),
    ("F6", Key::F6.0 | Key::IMPLIED_META),
    ("F7", Key::F7.0 | Key::IMPLIED_META),
    ("F8", Key::F8.0 | Key::IMPLIED_META),
    ("F9", Key::F9.0 | Key::IMPLIED_META),
    ("F10", Key::F10.0 | Key::IMPLIED_META),
    ("F11", Key::F11.0 | Key::IMPLIED_META),
    ("F12", Key::F12.0 | Key::IMPLIED_META),
    ("IC", Key::IC.0 | Key::IMPLIED_META),
    ("Insert", Key::IC.0 | Key::IMPLIED_META),
    ("DC", Key::DC.0 | Key::IMPLIED_META),
    ("Delete", Key::DC.0 | Key::IMPLIED_META),
    ("Home", Key::HOME.0 | Key::IMPLIED_META),
    ("End", Key::END.0 | Key::IMPLIED_META),
    ("NPage", Key::NPAGE.0 | Key::IMPLIED_META),
    ("PageDown", Key::NPAGE.0 | Key::IMPLIED_META),
    ("PgDn", Key::NPAGE.0 | Key::IMPLIED_META),
    ("PPage", Key::PPAGE.0 | Key::IMPLIED_META),
    ("PageUp", Key::PPAGE.0 | Key::IMPLIED_META),
    ("PgUp", Key::PPAGE.0 | Key::IMPLIED_META),
    ("Tab", Key::TAB.0),
    ("BTab", Key::BTAB.0),
    ("Space", Key::SPACE.0),
    ("BSpace", Key::BSPACE.0),
    ("Enter", Key::ENTER.0),
    ("Escape", Key::ESCAPE.0),
    ("Up", Key::UP.0 | Key::IMPLIED_META),
    ("Down", Key::DOWN.0 | Key::IMPLIED_META),
    ("Left", Key::LEFT.0 | Key::IMPLIED_META),
    ("Right", Key::RIGHT.0 | Key::IMPLIED_META),
    ("KP/", Key::KP_SLASH.0),
    ("KP*", Key::KP_STAR.0),
    ("KP-", Key::KP_MINUS.0),
    ("KP7", Key::KP_SEVEN.0),
    ("KP8", Key::KP_EIGHT.0),
    ("KP9", Key::KP_NINE.0),
    ("KP+", Key::KP_PLUS.0),
    ("KP4", Key::KP_FOUR.0),
    ("KP5", Key::KP_FIVE.0),
    ("KP6", Key::KP_SIX.0),
    ("KP1", Key::KP_ONE.0),
    ("KP2", Key::KP_TWO.0),
    ("KP3", Key::KP_THREE.0),
    ("KPEnter", Key::KP_ENTER.0),
    ("KP0", Key::KP_ZERO.0),
    ("KP.", Key::KP_PERIOD.0),
];

/// Named mouse key groups, in tmux's order (each has the six [`MOUSE_WHERE`] variants).
const MOUSE_GROUPS: &[&str] = &[
    "MouseDown1",
    "MouseDown2",
    "MouseDown3",
    "MouseDown6",
    "MouseDown7",
    "MouseDown8",
    "MouseDown9",
    "MouseDown10",
    "MouseDown11",
    "MouseUp1",
    "MouseUp2",
    "MouseUp3",
    "MouseUp6",
    "MouseUp7",
    "MouseUp8",
    "MouseUp9",
    "MouseUp10",
    "MouseUp11",
    "MouseDrag1",
    "MouseDrag2",
    "MouseDrag3",
    "MouseDrag6",
    "MouseDrag7",
    "MouseDrag8",
    "MouseDrag9",
    "MouseDrag10",
    "MouseDrag11",
    "MouseDragEnd1",
    "MouseDragEnd2",
    "MouseDragEnd3",
    "MouseDragEnd6",
    "MouseDragEnd7",
    "MouseDragEnd8",
    "MouseDragEnd9",
    "MouseDragEnd10",
    "MouseDragEnd11",
    "WheelUp",
    "WheelDown",
    "SecondClick1",
    "SecondClick2",
    "SecondClick3",
    "SecondClick6",
    "SecondClick7",
    "SecondClick8",
    "SecondClick9",
    "SecondClick10",
    "SecondClick11",
    "DoubleClick1",
    "DoubleClick2",
    "DoubleClick3",
    "DoubleClick6",
    "DoubleClick7",
    "DoubleClick8",
    "DoubleClick9",
    "DoubleClick10",
    "DoubleClick11",
    "TripleClick1",
    "TripleClick2",
    "TripleClick3",
    "TripleClick6",
    "TripleClick7",
    "TripleClick8",
    "TripleClick9",
    "TripleClick10",
    "TripleClick11",
];
const MOUSE_WHERE: [&str; 6] = [
    "Pane",
    "Status",
    "StatusLeft",
    "StatusRight",
    "StatusDefault",
    "Border",
];

/// Characters tmux leaves alone under Ctrl when parsing (`C-1` stays Ctrl+1, it is not a
/// control code); `\t`, `\r` and ESC are left alone too.
const CTRL_OTHER: &[u8] = b"!#()+,-.0123456789:;<=>'\r\t\x7f`/";

/// The key `name` names, as `send-keys` and `bind-key` read key arguments; `None` when tmux
/// would find no key (`send-keys` then types the argument as text). `None` and `Any` follow
/// tmux: `None` is no key, `Any` is [`Key::ANY`]. A NUL ends the name, as in C.
pub fn parse_key(name: &str) -> Option<Key> {
    let name = name.split('\0').next().unwrap_or("");
    match lookup(name) {
        KEY_NONE | KEY_UNKNOWN => None,
        k => Some(Key(k)),
    }
}

fn lookup(string: &str) -> u64 {
    if string.eq_ignore_ascii_case("None") {
        return KEY_NONE;
    }
    if string.eq_ignore_ascii_case("Any") {
        return Key::ANY.0;
    }
    if let Some(rest) = string.strip_prefix("0x") {
        return lookup_hex(rest);
    }

    let mut s = string.as_bytes();
    let mut modifiers = 0;
    if s.len() > 1 && s[0] == b'^' {
        modifiers |= Key::CTRL;
        s = &s[1..];
    }
    while s.len() > 1 && s[1] == b'-' {
        modifiers |= match s[0] {
            b'C' | b'c' => Key::CTRL,
            b'M' | b'm' => Key::META,
            b'S' | b's' => Key::SHIFT,
            _ => return KEY_UNKNOWN,
        };
        s = &s[2..];
    }
    if s.is_empty() {
        return KEY_UNKNOWN;
    }

    let mut key;
    if s.len() == 1 && s[0] <= 127 {
        key = s[0] as u64;
        if key < 32 {
            return KEY_UNKNOWN;
        }
    } else {
        if (0xc2..=0xf4).contains(&s[0]) {
            // Only ASCII bytes were removed, so `s` is still UTF-8.
            let rest = std::str::from_utf8(s).unwrap_or("");
            let mut chars = rest.chars();
            return match (chars.next(), chars.next()) {
                (Some(c), None) if !tmux_discards(c) => Key::from_char(c).0 | modifiers,
                _ => KEY_UNKNOWN,
            };
        }
        key = search_names(s);
        if key == KEY_UNKNOWN {
            return KEY_UNKNOWN;
        }
        if modifiers & Key::META == 0 {
            key &= !Key::IMPLIED_META;
        }
    }

    if key <= 127 && modifiers & Key::CTRL != 0 && !CTRL_OTHER.contains(&(key as u8)) && key != 27 {
        key = match key {
            97..=122 => key - 96,
            64..=95 => key - 64,
            32 => 0,
            63 => 127,
            _ => return KEY_UNKNOWN,
        };
        modifiers &= !Key::CTRL;
    }
    key | modifiers
}

/// A name from the key table, a mouse key or `User<n>`.
fn search_names(s: &[u8]) -> u64 {
    for &(name, key) in NAMES {
        if s.eq_ignore_ascii_case(name.as_bytes()) {
            return key;
        }
    }
    for (g, group) in MOUSE_GROUPS.iter().enumerate() {
        let group = group.as_bytes();
        if s.len() > group.len() && s[..group.len()].eq_ignore_ascii_case(group) {
            let tail = &s[group.len()..];
            for (w, place) in MOUSE_WHERE.iter().enumerate() {
                if tail.eq_ignore_ascii_case(place.as_bytes()) {
                    return MOUSE_NAMED + (g * 6 + w) as u64;
                }
            }
        }
    }
    if let Some(rest) = s.strip_prefix(b"User") {
        if let Some(n) = scan_unsigned(rest, 10) {
            if let Some(k) = Key::user(n) {
                return k.0;
            }
        }
    }
    KEY_UNKNOWN
}

/// A `0x` key: a code point in hex, read as C's `sscanf("%x")` reads it.
fn lookup_hex(rest: &str) -> u64 {
    let Some(u) = scan_unsigned(rest.as_bytes(), 16) else {
        return KEY_UNKNOWN;
    };
    if u < 32 {
        return u as u64;
    }
    match char::from_u32(u) {
        Some(c) if u < 0x80 || !tmux_discards(c) => Key::from_char(c).0,
        _ => KEY_UNKNOWN,
    }
}

fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// A number as C's `sscanf` and `strtol` read it from the start of a string: leading white
/// space, a sign, `0x` before hex digits (radix 16), then digits.
struct CNumber {
    negative: bool,
    /// `None` when the digits overflow 64 bits.
    magnitude: Option<u64>,
    /// Index just past the last digit.
    end: usize,
}

/// Reads a [`CNumber`] in `radix` (10 or 16) from the start of `s`; `None` without digits.
fn scan_c_number(s: &[u8], radix: u32) -> Option<CNumber> {
    let mut i = 0;
    while i < s.len() && is_c_space(s[i]) {
        i += 1;
    }
    let negative = s.get(i) == Some(&b'-');
    if matches!(s.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    if radix == 16
        && s.get(i) == Some(&b'0')
        && matches!(s.get(i + 1), Some(b'x' | b'X'))
        && s.get(i + 2).is_some_and(|b| b.is_ascii_hexdigit())
    {
        i += 2;
    }
    let start = i;
    let mut magnitude = Some(0u64);
    while let Some(d) = s.get(i).and_then(|&b| (b as char).to_digit(radix)) {
        magnitude = magnitude.and_then(|v| v.checked_mul(radix as u64)?.checked_add(d as u64));
        i += 1;
    }
    (i > start).then_some(CNumber {
        negative,
        magnitude,
        end: i,
    })
}

/// The number C's `sscanf` with `%u` (radix 10) or `%x` (radix 16) reads from the start of
/// `s` into an `unsigned int`: what follows the digits is ignored; a negative value wraps and
/// an out-of-range value is cut to 32 bits.
fn scan_unsigned(s: &[u8], radix: u32) -> Option<u32> {
    let n = scan_c_number(s, radix)?;
    Some(match n.magnitude {
        None => u32::MAX,
        Some(v) if n.negative => v.wrapping_neg() as u32,
        Some(v) => v as u32,
    })
}

/// The byte `send-keys -H` sends for `s`, read as C's `strtol(s, &end, 16)` with nothing
/// left over: white space, a sign and `0x` may lead; `None` (nothing is sent) unless the
/// whole argument is a number from 0 to 0xff.
pub fn hex_byte(s: &str) -> Option<u8> {
    let n = scan_c_number(s.as_bytes(), 16)?;
    if n.end != s.len() {
        return None;
    }
    match (n.negative, n.magnitude) {
        (_, Some(0)) => Some(0),
        (false, Some(v)) if v <= 0xff => Some(v as u8),
        _ => None,
    }
}

/// The sequence the key table gives `key` exactly (flags and modifiers included), if any.
fn table(key: u64, out: &mut Vec<u8>) -> bool {
    let fixed: &[u8] = match key {
        k if k == Key::PASTE_START.0 => b"\x1b[200~",
        k if k == Key::PASTE_END.0 => b"\x1b[201~",
        k if k == Key::F1.0 => b"\x1bOP",
        k if k == Key::F2.0 => b"\x1bOQ",
        k if k == Key::F3.0 => b"\x1bOR",
        k if k == Key::F4.0 => b"\x1bOS",
        k if k == Key::F5.0 => b"\x1b[15~",
        k if k == Key::F6.0 => b"\x1b[17~",
        k if k == Key::F7.0 => b"\x1b[18~",
        k if k == Key::F8.0 => b"\x1b[19~",
        k if k == Key::F9.0 => b"\x1b[20~",
        k if k == Key::F10.0 => b"\x1b[21~",
        k if k == Key::F11.0 => b"\x1b[23~",
        k if k == Key::F12.0 => b"\x1b[24~",
        k if k == Key::IC.0 => b"\x1b[2~",
        k if k == Key::DC.0 => b"\x1b[3~",
        k if k == Key::HOME.0 => b"\x1b[1~",
        k if k == Key::END.0 => b"\x1b[4~",
        k if k == Key::NPAGE.0 => b"\x1b[6~",
        k if k == Key::PPAGE.0 => b"\x1b[5~",
        k if k == Key::BTAB.0 => b"\x1b[Z",
        k if k == Key::UP.0 => b"\x1bOA",
        k if k == Key::DOWN.0 => b"\x1bOB",
        k if k == Key::RIGHT.0 => b"\x1bOC",
        k if k == Key::LEFT.0 => b"\x1bOD",
        k if k == Key::UP.code() => b"\x1b[A",
        k if k == Key::DOWN.code() => b"\x1b[B",
        k if k == Key::RIGHT.code() => b"\x1b[C",
        k if k == Key::LEFT.code() => b"\x1b[D",
        k if k == Key::KP_SLASH.0 => b"\x1bOo",
        k if k == Key::KP_STAR.0 => b"\x1bOj",
        k if k == Key::KP_MINUS.0 => b"\x1bOm",
        k if k == Key::KP_SEVEN.0 => b"\x1bOw",
        k if k == Key::KP_EIGHT.0 => b"\x1bOx",
        k if k == Key::KP_NINE.0 => b"\x1bOy",
        k if k == Key::KP_PLUS.0 => b"\x1bOk",
        k if k == Key::KP_FOUR.0 => b"\x1bOt",
        k if k == Key::KP_FIVE.0 => b"\x1bOu",
        k if k == Key::KP_SIX.0 => b"\x1bOv",
        k if k == Key::KP_ONE.0 => b"\x1bOq",
        k if k == Key::KP_TWO.0 => b"\x1bOr",
        k if k == Key::KP_THREE.0 => b"\x1bOs",
        k if k == Key::KP_ENTER.0 => b"\x1bOM",
        k if k == Key::KP_ZERO.0 => b"\x1bOp",
        k if k == Key::KP_PERIOD.0 => b"\x1bOn",
        k if k == Key::KP_SLASH.code() => b"/",
        k if k == Key::KP_STAR.code() => b"*",
        k if k == Key::KP_MINUS.code() => b"-",
        k if k == Key::KP_SEVEN.code() => b"7",
        k if k == Key::KP_EIGHT.code() => b"8",
        k if k == Key::KP_NINE.code() => b"9",
        k if k == Key::KP_PLUS.code() => b"+",
        k if k == Key::KP_FOUR.code() => b"4",
        k if k == Key::KP_FIVE.code() => b"5",
        k if k == Key::KP_SIX.code() => b"6",
        k if k == Key::KP_ONE.code() => b"1",
        k if k == Key::KP_TWO.code() => b"2",
        k if k == Key::KP_THREE.code() => b"3",
        k if k == Key::KP_ENTER.code() => b"\n",
        k if k == Key::KP_ZERO.code() => b"0",
        k if k == Key::KP_PERIOD.code() => b".",
        _ => return modified(key, out),
    };
    out.extend_from_slice(fixed);
    true
}

/// The `CSI ... ; m X` entries: named keys with a modifier parameter `m` from 2 to 8.
fn modified(key: u64, out: &mut Vec<u8>) -> bool {
    let digit = match key & !MASK_KEY {
        Key::SHIFT => b'2',
        m if m == Key::META | Key::IMPLIED_META => b'3',
        m if m == Key::SHIFT | Key::META | Key::IMPLIED_META => b'4',
        Key::CTRL => b'5',
        m if m == Key::SHIFT | Key::CTRL => b'6',
        m if m == Key::META | Key::IMPLIED_META | Key::CTRL => b'7',
        m if m == Key::SHIFT | Key::META | Key::IMPLIED_META | Key::CTRL => b'8',
        _ => return false,
    };
    let (param, fin): (&[u8], u8) = match key & MASK_KEY {
        k if k == Key::F1.0 => (b"1", b'P'),
        k if k == Key::F2.0 => (b"1", b'Q'),
        k if k == Key::F3.0 => (b"1", b'R'),
        k if k == Key::F4.0 => (b"1", b'S'),
        k if k == Key::F5.0 => (b"15", b'~'),
        k if k == Key::F6.0 => (b"17", b'~'),
        k if k == Key::F7.0 => (b"18", b'~'),
        k if k == Key::F8.0 => (b"19", b'~'),
        k if k == Key::F9.0 => (b"20", b'~'),
        k if k == Key::F10.0 => (b"21", b'~'),
        k if k == Key::F11.0 => (b"23", b'~'),
        k if k == Key::F12.0 => (b"24", b'~'),
        k if k == Key::UP.code() => (b"1", b'A'),
        k if k == Key::DOWN.code() => (b"1", b'B'),
        k if k == Key::RIGHT.code() => (b"1", b'C'),
        k if k == Key::LEFT.code() => (b"1", b'D'),
        k if k == Key::HOME.0 => (b"1", b'H'),
        k if k == Key::END.0 => (b"1", b'F'),
        k if k == Key::PPAGE.0 => (b"5", b'~'),
        k if k == Key::NPAGE.0 => (b"6", b'~'),
        k if k == Key::IC.0 => (b"2", b'~'),
        k if k == Key::DC.0 => (b"3", b'~'),
        _ => return false,
    };
    out.extend_from_slice(b"\x1b[");
    out.extend_from_slice(param);
    out.extend_from_slice(&[b';', digit, fin]);
    true
}

/// Appends the bytes tmux writes to a pane's program for `key` in a pane with `modes`.
///
/// Returns false, appending nothing, when tmux has no sequence for the key (for example `S-a`
/// outside extended mode, or a mouse key); `send-keys` then types the argument as text.
/// Returns true with nothing appended for keys tmux swallows (`C-1` outside extended mode,
/// `User` keys).
pub fn encode(key: Key, modes: KeyModes, out: &mut Vec<u8>) -> bool {
    let mut key = key.0;
    if Key(key).is_mouse() {
        return false;
    }

    if key & MASK_KEY == Key::BSPACE.0 {
        let new = modes.backspace.0.min(0x7f);
        key = new | (key & (MASK_MODIFIERS | MASK_FLAGS));
    }

    // A 7-bit key goes as itself, a character as its UTF-8; Meta adds a leading ESC. Ctrl and
    // Shift on a character are dropped.
    let just = key & !(Key::META | Key::IMPLIED_META);
    if just <= 0x7f {
        if key & Key::META != 0 {
            out.push(0x1b);
        }
        out.push(just as u8);
        return true;
    }
    let code = just & MASK_KEY;
    if code > 0x7f && !(BASE..BASE_END).contains(&code) {
        if key & Key::META != 0 {
            out.push(0x1b);
        }
        if let Some(c) = Key(code).char() {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        return true;
    }

    // The key table, without the flags of modes the pane is not in.
    if !modes.keypad {
        key &= !Key::KEYPAD;
    }
    if !modes.cursor {
        key &= !Key::CURSOR;
    }
    let explicit_meta = key & Key::META != 0 && key & Key::IMPLIED_META == 0;
    let mut found = Vec::new();
    let hit = table(key, &mut found)
        || (explicit_meta && table(key & !Key::META, &mut found))
        || (key & Key::CURSOR != 0 && table(key & !Key::CURSOR, &mut found))
        || (key & Key::KEYPAD != 0 && table(key & !Key::KEYPAD, &mut found));
    if hit {
        if explicit_meta {
            out.push(0x1b);
        }
        out.extend_from_slice(&found);
        return true;
    }

    if !modes.extended {
        // Only Ctrl alone has a fallback: the control code, or nothing.
        if key & MASK_MODIFIERS != Key::CTRL {
            return false;
        }
        let just = key & MASK_KEY;
        let rest = key & !MASK_KEY & !Key::CTRL;
        let control = match just {
            0x20 | 0x32 => 0,
            0x7c => 28,
            0x36 => 30,
            0x2d | 0x2f => 31,
            0x3f => 127,
            0x41..=0x5f => just - 0x41,
            0x61..=0x7e => just - 96,
            _ => return true,
        };
        return encode(Key(control | rest), modes, out);
    }

    // Extended keys: CSI code ; modifier u.
    let mut outkey = key & MASK_KEY;
    let mut modifiers = key & MASK_MODIFIERS;
    if outkey < 32 && outkey != 9 && outkey != 13 && outkey != 27 {
        outkey += 64;
        modifiers |= Key::CTRL;
    }
    let digit = match modifiers {
        Key::SHIFT => 2,
        Key::META => 3,
        m if m == Key::SHIFT | Key::META => 4,
        Key::CTRL => 5,
        m if m == Key::SHIFT | Key::CTRL => 6,
        m if m == Key::META | Key::CTRL => 7,
        m if m == Key::SHIFT | Key::META | Key::CTRL => 8,
        _ => return false,
    };
    out.extend_from_slice(format!("\x1b[{outkey};{digit}u").as_bytes());
    true
}

/// Appends what `send-keys` writes for one argument `arg` to a pane whose screen mode word
/// is `modes` (from [`Terminal::mode`](crate::term::Terminal::mode)).
///
/// With `literal` (`-l`) the argument's bytes go as they are. Without it, a key name is sent
/// as [`encode`] sends it; an argument that names no key, or a key [`encode`] refuses, is
/// sent as its text, each character through the same path, which leaves every byte as it
/// is. A NUL ends the argument, as in C.
pub fn send_keys_arg(arg: &str, literal: bool, modes: u32, out: &mut Vec<u8>) {
    send_keys_arg_with(arg, literal, KeyModes::from_mode(modes), out)
}

/// [`send_keys_arg`] with explicit [`KeyModes`] (for a non-default `backspace` option).
pub fn send_keys_arg_with(arg: &str, literal: bool, modes: KeyModes, out: &mut Vec<u8>) {
    let arg = arg.split('\0').next().unwrap_or("");
    if !literal {
        if let Some(key) = parse_key(arg) {
            if encode(key, modes, out) {
                return;
            }
        }
    }
    out.extend_from_slice(arg.as_bytes());
}

/// Appends what `send-keys -H` writes for one argument: one byte, or nothing if the argument
/// is not a hex number from 0 to 0xff (see [`hex_byte`]).
pub fn send_keys_hex(arg: &str, out: &mut Vec<u8>) {
    if let Some(b) = hex_byte(arg) {
        out.push(b);
    }
}

/// The key a client's terminal sent as `typed` (one key's bytes), when it is a character, a
/// control code or either after ESC (Meta), as tmux's `tty_keys_next` reads them: DEL is
/// `BSpace`. `None` for the sequences of named keys, which [`encodes_as`] recognises.
pub fn typed_key(typed: &[u8]) -> Option<Key> {
    let (meta, rest) = match typed {
        [0x1b, rest @ ..] if !rest.is_empty() => (Key::META, rest),
        _ => (0, typed),
    };
    let key = match rest {
        [0x7f] => Key::BSPACE,
        [b] if *b < 0x80 => Key(*b as u64),
        _ => {
            let mut chars = std::str::from_utf8(rest).ok()?.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Key::from_char(c),
                _ => return None,
            }
        }
    };
    Some(Key(key.0 | meta))
}

/// Whether `typed` is what a terminal sends for `key` (without its flags) in the pane's
/// `modes` or in the default ones: the keys [`typed_key`] does not read.
pub fn encodes_as(key: Key, typed: &[u8], modes: KeyModes) -> bool {
    let Some(key) = parse_key(&key.name()) else {
        return false;
    };
    [KeyModes::default(), modes].iter().any(|&m| {
        let mut out = Vec::new();
        encode(key, m, &mut out) && out == typed
    })
}

/// The name tmux shows for the key `name` names (`key_string_lookup_key` of
/// `key_string_lookup_string`), as key options (`prefix`, `backspace`) show their values:
/// `c-B` is `C-b`, `^?` is `C-?`, `none` is `None`. `None` when tmux finds no key.
pub fn canonical_key_name(name: &str) -> Option<String> {
    let name = name.split('\0').next().unwrap_or("");
    let key = lookup(name);
    if key == KEY_UNKNOWN {
        return None;
    }
    Some(key_string(key))
}

/// tmux's `key_string_lookup_key` without flags.
fn key_string(key: u64) -> String {
    let mut key = key;
    // C-@ shows as C-Space.
    if key & (MASK_KEY | MASK_MODIFIERS) == 0 {
        key = b' ' as u64 | Key::CTRL;
    }
    let mut out = String::new();
    for (bit, prefix) in [(Key::CTRL, "C-"), (Key::META, "M-"), (Key::SHIFT, "S-")] {
        if key & bit != 0 {
            out.push_str(prefix);
        }
    }
    let code = key & MASK_KEY;
    let special = match code {
        KEY_NONE => Some("None"),
        KEY_UNKNOWN => Some("Unknown"),
        c if c == Key::ANY.0 => Some("Any"),
        c if c == Key::PASTE_START.0 => Some("PasteStart"),
        c if c == Key::PASTE_END.0 => Some("PasteEnd"),
        _ => None,
    };
    if let Some(s) = special {
        out.push_str(s);
        return out;
    }
    if (USER_BASE..USER_BASE + NUSER).contains(&code) {
        out.push_str(&format!("User{}", code - USER_BASE));
        return out;
    }
    if let Some((name, _)) = NAMES.iter().find(|(_, k)| k & MASK_KEY == code) {
        out.push_str(name);
        return out;
    }
    if code >= MOUSE_NAMED && code < MOUSE_NAMED + (MOUSE_GROUPS.len() * 6) as u64 {
        let i = (code - MOUSE_NAMED) as usize;
        out.push_str(MOUSE_GROUPS[i / 6]);
        out.push_str(MOUSE_WHERE[i % 6]);
        return out;
    }
    if let Some(c) = Key(code).char().filter(|_| code > 0x7f) {
        out.push(c);
        return out;
    }
    match code {
        0 | 27..=32 => out.push_str(&format!("C-{}", char::from(64 + code as u8))),
        1..=26 => out.push_str(&format!("C-{}", char::from(96 + code as u8))),
        33..=126 => out.push(char::from(code as u8)),
        127 => out.push_str("C-?"),
        128..=255 => out.push_str(&format!("\\{code:o}")),
        _ => out.push_str(&format!("Invalid#{key:x}")),
    }
    out
}
