//! Styles as tmux 3.3a reads them (`style.c`): the text of a `*-style` option or of a
//! `#[...]` directive in a format (`fg=red,bold`, `align=right`, `range=window|3`,
//! `push-default`...) applied over a [`Style`], and the terminal codes that draw a cell in
//! its [`Pen`].
//!
//! Invariants:
//! - Pure: no I/O; colours are tmux's numbers (0 to 7, 8 for the default, 9 for the
//!   terminal's, 90 to 97, `COLOUR_FLAG_256 | n`, `COLOUR_FLAG_RGB | rrggbb`), so a style
//!   round-trips through the option code's `colour_from_string`.
//! - A style that does not parse leaves the style it was applied to as it was (tmux's
//!   `style_parse` restores its copy), so a bad directive changes nothing it follows.

use super::options::{colour_from_string, COLOUR_FLAG_256, COLOUR_FLAG_RGB};
use crate::term::cell::attr;

/// The colour tmux calls default (8): the terminal's own, or the base style's in a style.
pub const DEFAULT_COLOUR: i32 = 8;

/// Attribute names as tmux's `attributes_fromstring` knows them.
const ATTRIBUTES: &[(&str, u16)] = &[
    ("acs", attr::CHARSET),
    ("bright", attr::BRIGHT),
    ("bold", attr::BRIGHT),
    ("dim", attr::DIM),
    ("underscore", attr::UNDERSCORE),
    ("blink", attr::BLINK),
    ("reverse", attr::REVERSE),
    ("hidden", attr::HIDDEN),
    ("italics", attr::ITALICS),
    ("strikethrough", attr::STRIKETHROUGH),
    ("double-underscore", attr::UNDERSCORE_2),
    ("curly-underscore", attr::UNDERSCORE_3),
    ("dotted-underscore", attr::UNDERSCORE_4),
    ("dashed-underscore", attr::UNDERSCORE_5),
    ("overline", attr::OVERLINE),
];

/// What a cell is drawn in: its colours and attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pen {
    pub fg: i32,
    pub bg: i32,
    pub attr: u16,
}

impl Default for Pen {
    fn default() -> Pen {
        Pen {
            fg: DEFAULT_COLOUR,
            bg: DEFAULT_COLOUR,
            attr: 0,
        }
    }
}

/// Where text goes on a line drawn from a format (`align=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Align {
    #[default]
    Default,
    Left,
    Centre,
    Right,
    AbsoluteCentre,
}

/// The part of a window list text belongs to (`list=`, `nolist`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum List {
    #[default]
    Off,
    On,
    Focus,
    LeftMarker,
    RightMarker,
}

/// What a click on text means (`range=`): tmux 3.3a knows the left and right parts of the
/// status line and windows by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Range {
    #[default]
    None,
    Left,
    Right,
    Window(u32),
}

/// A `push-default` or `pop-default` waiting to be applied by the drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DefaultChange {
    #[default]
    Base,
    Push,
    Pop,
}

/// A style: a pen and what a format drawing reads besides (tmux's `struct style`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub pen: Pen,
    /// `ignore`: the text that follows is drawn without reading its directives.
    pub ignore: bool,
    /// `fill=`: the colour the whole line is cleared to first, or the default (8).
    pub fill: i32,
    pub align: Align,
    pub list: List,
    pub range: Range,
    pub default_change: DefaultChange,
}

impl Style {
    /// tmux's `style_set`: the default style drawing in `pen`.
    pub fn with_pen(pen: Pen) -> Style {
        Style {
            pen,
            ignore: false,
            fill: DEFAULT_COLOUR,
            align: Align::Default,
            list: List::Off,
            range: Range::None,
            default_change: DefaultChange::Base,
        }
    }

    /// tmux's `style_parse`: applies `text` over this style, `base` being what `default`
    /// and the default colour mean. A style that does not parse changes nothing and gives
    /// false.
    pub fn apply(&mut self, base: &Pen, text: &str) -> bool {
        let saved = *self;
        let result = text
            .split([' ', ',', '\n'])
            .filter(|t| !t.is_empty())
            .try_for_each(|token| self.apply_token(base, token));
        if result.is_err() {
            *self = saved;
        }
        result.is_ok()
    }

    fn apply_token(&mut self, base: &Pen, token: &str) -> Result<(), ()> {
        // tmux copies each token into a 256-byte buffer and refuses longer ones.
        if token.len() > 255 {
            return Err(());
        }
        let lower = token.to_ascii_lowercase();
        let t = lower.as_str();
        match t {
            "default" => self.pen = *base,
            "ignore" => self.ignore = true,
            "noignore" => self.ignore = false,
            "push-default" => self.default_change = DefaultChange::Push,
            "pop-default" => self.default_change = DefaultChange::Pop,
            "nolist" => self.list = List::Off,
            "norange" => self.range = Range::None,
            "noalign" => self.align = Align::Default,
            "none" => self.pen.attr = 0,
            _ if t.starts_with("list=") => self.list = list(&t[5..])?,
            _ if t.len() > 6 && t.starts_with("range=") => {
                if let Some(range) = range(&t[6..])? {
                    self.range = range;
                }
            }
            _ if t.len() > 6 && t.starts_with("align=") => self.align = align(&t[6..])?,
            _ if t.len() > 5 && t.starts_with("fill=") => self.fill = colour(&token[5..])?,
            _ if t.len() > 3 && &t[1..3] == "g=" => {
                let c = colour(&token[3..])?;
                match &t[..1] {
                    "f" => self.pen.fg = if c == DEFAULT_COLOUR { base.fg } else { c },
                    "b" => self.pen.bg = if c == DEFAULT_COLOUR { base.bg } else { c },
                    _ => return Err(()),
                }
            }
            _ if t.len() > 2 && t.starts_with("no") => self.pen.attr &= !attributes(&token[2..])?,
            _ => self.pen.attr |= attributes(token)?,
        }
        Ok(())
    }
}

/// Whether tmux's `style_parse` accepts a style (what `set-option` checks).
pub fn is_valid(text: &str) -> bool {
    Style::with_pen(Pen::default()).apply(&Pen::default(), text)
}

/// A style option's text over `base`, as tmux's `style_add` folds it into a cell: colours
/// that are not the default replace the cell's, attributes are added. A style that does not
/// parse leaves the cell as it was.
pub fn add(base: Pen, text: &str) -> Pen {
    let mut style = Style::with_pen(Pen::default());
    if !style.apply(&Pen::default(), text) {
        return base;
    }
    let p = style.pen;
    Pen {
        fg: if p.fg != DEFAULT_COLOUR {
            p.fg
        } else {
            base.fg
        },
        bg: if p.bg != DEFAULT_COLOUR {
            p.bg
        } else {
            base.bg
        },
        attr: base.attr | p.attr,
    }
}

fn colour(text: &str) -> Result<i32, ()> {
    colour_from_string(text).ok_or(())
}

fn list(text: &str) -> Result<List, ()> {
    match text {
        "on" => Ok(List::On),
        "focus" => Ok(List::Focus),
        "left-marker" => Ok(List::LeftMarker),
        "right-marker" => Ok(List::RightMarker),
        _ => Err(()),
    }
}

fn align(text: &str) -> Result<Align, ()> {
    match text {
        "left" => Ok(Align::Left),
        "centre" => Ok(Align::Centre),
        "right" => Ok(Align::Right),
        "absolute-centre" => Ok(Align::AbsoluteCentre),
        _ => Err(()),
    }
}

/// `range=KIND[|N]`: the range, or none for a kind tmux 3.3a passes over without a word.
fn range(text: &str) -> Result<Option<Range>, ()> {
    let (kind, argument) = match text.split_once('|') {
        Some((_, n)) if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) => return Err(()),
        Some((kind, n)) => (kind, Some(n)),
        None => (text, None),
    };
    match (kind, argument) {
        ("left", None) => Ok(Some(Range::Left)),
        ("right", None) => Ok(Some(Range::Right)),
        ("left" | "right", Some(_)) | ("window", None) => Err(()),
        // atoi: digits beyond an int wrap, as they do in tmux; only the low bits matter.
        ("window", Some(n)) => Ok(Some(Range::Window(n.bytes().fold(0u32, |v, d| {
            v.wrapping_mul(10).wrapping_add(u32::from(d - b'0'))
        })))),
        _ => Ok(None),
    }
}

/// tmux's `attributes_fromstring`: names separated by spaces, commas or bars.
fn attributes(text: &str) -> Result<u16, ()> {
    let delimiters = [' ', ',', '|'];
    if text.is_empty() || text.starts_with(delimiters) || text.ends_with(delimiters) {
        return Err(());
    }
    if text.eq_ignore_ascii_case("default") || text.eq_ignore_ascii_case("none") {
        return Ok(0);
    }
    text.split(delimiters)
        .filter(|w| !w.is_empty())
        .try_fold(0, |bits, word| {
            ATTRIBUTES
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(word))
                .map(|(_, bit)| bits | bit)
                .ok_or(())
        })
}

impl Pen {
    /// The pen with its colours traded (copy mode draws the mark's own cell so).
    pub fn swapped(self) -> Pen {
        Pen {
            fg: self.bg,
            bg: self.fg,
            ..self
        }
    }

    /// The SGR sequence that draws in this pen from the terminal's defaults.
    pub fn sgr(&self) -> String {
        let mut codes = vec!["0".to_string()];
        const CODES: &[(u16, &str)] = &[
            (attr::BRIGHT, "1"),
            (attr::DIM, "2"),
            (attr::ITALICS, "3"),
            (attr::UNDERSCORE, "4"),
            (attr::BLINK, "5"),
            (attr::REVERSE, "7"),
            (attr::HIDDEN, "8"),
            (attr::STRIKETHROUGH, "9"),
            (attr::UNDERSCORE_2, "4:2"),
            (attr::UNDERSCORE_3, "4:3"),
            (attr::UNDERSCORE_4, "4:4"),
            (attr::UNDERSCORE_5, "4:5"),
            (attr::OVERLINE, "53"),
        ];
        codes.extend(
            CODES
                .iter()
                .filter(|(bit, _)| self.attr & bit != 0)
                .map(|(_, code)| code.to_string()),
        );
        codes.extend(colour_sgr(self.fg, 30));
        codes.extend(colour_sgr(self.bg, 40));
        format!("\x1b[{}m", codes.join(";"))
    }
}

/// The SGR parameters of colour `c` (`base` 30 for the foreground, 40 for the background);
/// none for the default, which the reset before them already gives.
pub fn colour_sgr(c: i32, base: i32) -> Option<String> {
    if c & COLOUR_FLAG_RGB != 0 {
        let (r, g, b) = ((c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff);
        return Some(format!("{};2;{r};{g};{b}", base + 8));
    }
    if c & COLOUR_FLAG_256 != 0 {
        return Some(format!("{};5;{}", base + 8, c & 0xff));
    }
    match c {
        0..=7 => Some((base + c).to_string()),
        90..=97 => Some((base + 60 + c - 90).to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Style {
        let mut s = Style::with_pen(Pen::default());
        assert!(s.apply(&Pen::default(), text));
        s
    }

    #[test]
    fn colours_attributes_and_their_removal_apply_in_order() {
        let s = parsed("fg=red,bg=colour33 bold,italics,noitalics");
        assert_eq!(s.pen.fg, 1);
        assert_eq!(s.pen.bg, 33 | COLOUR_FLAG_256);
        assert_eq!(s.pen.attr, attr::BRIGHT);
        assert_eq!(parsed("reverse none").pen.attr, 0);
        assert_eq!(parsed("fg=#102030").pen.fg, 0x102030 | COLOUR_FLAG_RGB);
    }

    #[test]
    fn default_means_the_base_pen() {
        let base = Pen {
            fg: 0,
            bg: 2,
            attr: attr::DIM,
        };
        let mut s = Style::with_pen(Pen {
            fg: 1,
            bg: 4,
            attr: attr::BRIGHT,
        });
        assert!(s.apply(&base, "default"));
        assert_eq!(s.pen, base);
        assert!(s.apply(&base, "fg=red,bg=default"));
        assert_eq!((s.pen.fg, s.pen.bg), (1, 2));
    }

    #[test]
    fn drawing_directives_are_read() {
        let s = parsed("align=right list=focus range=window|12 fill=blue push-default");
        assert_eq!(s.align, Align::Right);
        assert_eq!(s.list, List::Focus);
        assert_eq!(s.range, Range::Window(12));
        assert_eq!(s.fill, 4);
        assert_eq!(s.default_change, DefaultChange::Push);
        assert_eq!(parsed("range=left norange").range, Range::None);
        // tmux 3.3a passes over range kinds it does not know.
        assert_eq!(parsed("range=session|1").range, Range::None);
    }

    #[test]
    fn a_bad_style_changes_nothing() {
        let mut s = parsed("fg=red");
        for bad in [
            "fg=nosuch",
            "bold,frobnicate",
            "range=window",
            "range=left|1",
            "range=window|x",
            "align=middle",
            "list=maybe",
            "xg=red",
        ] {
            assert!(
                !s.apply(&Pen::default(), &format!("bg=blue {bad}")),
                "{bad}"
            );
            assert_eq!(s, parsed("fg=red"), "{bad}");
            assert!(!is_valid(bad), "{bad}");
        }
        assert!(is_valid("") && is_valid("default") && is_valid("bold|italics"));
        assert!(!is_valid(&"b".repeat(256)));
    }

    #[test]
    fn options_fold_into_a_cell_as_style_add_does() {
        let base = Pen {
            fg: 0,
            bg: 2,
            attr: attr::BRIGHT,
        };
        let p = add(base, "fg=yellow,underscore");
        assert_eq!(
            (p.fg, p.bg, p.attr),
            (3, 2, attr::BRIGHT | attr::UNDERSCORE)
        );
        assert_eq!(add(base, "fg=nosuch"), base);
    }

    #[test]
    fn pens_draw_as_sgr() {
        assert_eq!(Pen::default().sgr(), "\x1b[0m");
        let p = Pen {
            fg: 0,
            bg: 92,
            attr: attr::BRIGHT | attr::REVERSE,
        };
        assert_eq!(p.sgr(), "\x1b[0;1;7;30;102m");
        let p = Pen {
            fg: 200 | COLOUR_FLAG_256,
            bg: 0x0a0b0c | COLOUR_FLAG_RGB,
            attr: 0,
        };
        assert_eq!(p.sgr(), "\x1b[0;38;5;200;48;2;10;11;12m");
    }
}
