//! Cells, styles and the per-screen tables they index.
//!
//! A [`Cell`] is six bytes: a 32-bit character word and a 16-bit field that, with seven spare
//! bits of the word, indexes the screen's [`Palette`] of [`Style`]s (a [`StyleId`] of 23 bits).
//! The character holds a Unicode scalar value, or an index into the screen's [`Graphemes`]
//! table when the cell holds more than one code point (a base character with combining marks,
//! or a ZWJ sequence). Flag bits mark a wide character and the padding cell that follows one,
//! as tmux's grid does.
//!
//! Word layout: bits 0-20 the code point or grapheme index, 21-27 the style id's high bits,
//! 28 unused, 29 padding, 30 interned, 31 wide. Eight million styles can be live at once, so
//! even a screen and history where every cell has its own colour never runs out.
//!
//! Invariants:
//! - palette index 0 is always [`Style::DEFAULT`], so a zeroed style field means "default";
//! - equal styles always have equal indices (the palette interns), so cells compare by value;
//! - a grapheme index is only ever stored with [`Cell::INTERNED`] set.

use super::row::{get_varint, put_varint};
use std::collections::HashMap;

/// An index into a screen's [`Palette`] (23 bits).
pub type StyleId = u32;

/// One screen cell: a character word and a palette index (6 bytes, 2-byte aligned).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Cell {
    ch_lo: u16,
    ch_hi: u16,
    style: u16,
}

const _: () = assert!(std::mem::size_of::<Cell>() == 6);

impl Cell {
    /// The character occupies two columns; the next cell is padding.
    pub const WIDE: u32 = 1 << 31;
    /// The low bits index the screen's grapheme table instead of being a code point.
    pub const INTERNED: u32 = 1 << 30;
    /// The right half of a wide character: never printed.
    pub const PADDING: u32 = 1 << 29;
    const VALUE_MASK: u32 = (1 << 21) - 1;
    const STYLE_HIGH_SHIFT: u32 = 21;
    const STYLE_HIGH_MASK: u32 = 0x7f << Self::STYLE_HIGH_SHIFT;
    /// Largest style id a cell can hold, plus one.
    pub const STYLE_LIMIT: usize = 1 << 23;

    /// A blank cell in the default style (tmux's cleared cell).
    pub const BLANK: Cell = Cell::new(b' ' as u32, 0);
    /// The padding cell that follows a wide character.
    pub const PAD: Cell = Cell::new(Cell::PADDING, 0);

    #[inline]
    pub const fn new(word: u32, style: StyleId) -> Cell {
        let raw = (word & !Self::STYLE_HIGH_MASK)
            | ((style >> 16) << Self::STYLE_HIGH_SHIFT) & Self::STYLE_HIGH_MASK;
        Cell::from_raw(raw, style as u16)
    }

    /// A cell from its stored form (see [`Cell::raw`]).
    #[inline]
    pub const fn from_raw(raw: u32, style_low: u16) -> Cell {
        Cell {
            ch_lo: raw as u16,
            ch_hi: (raw >> 16) as u16,
            style: style_low,
        }
    }

    /// The stored form: the whole 32-bit word (style high bits included) and the low 16 bits
    /// of the style id.
    #[inline]
    pub const fn raw(self) -> (u32, u16) {
        ((self.ch_hi as u32) << 16 | self.ch_lo as u32, self.style)
    }

    /// A blank cell whose background is that of `style` (an erase with a coloured background).
    #[inline]
    pub const fn blank(style: StyleId) -> Cell {
        Cell::new(b' ' as u32, style)
    }

    /// The character word: code point or grapheme index, and flags.
    #[inline]
    pub const fn word(self) -> u32 {
        self.raw().0 & !Self::STYLE_HIGH_MASK
    }

    #[inline]
    pub const fn style(self) -> StyleId {
        (self.raw().0 & Self::STYLE_HIGH_MASK) >> Self::STYLE_HIGH_SHIFT << 16 | self.style as u32
    }

    /// The code point or grapheme index, without flags.
    #[inline]
    pub const fn value(self) -> u32 {
        self.word() & Self::VALUE_MASK
    }

    #[inline]
    pub const fn is_padding(self) -> bool {
        self.word() & Self::PADDING != 0
    }

    #[inline]
    pub const fn is_wide(self) -> bool {
        self.word() & Self::WIDE != 0
    }

    #[inline]
    pub const fn is_interned(self) -> bool {
        self.word() & Self::INTERNED != 0
    }

    /// Columns the cell's character covers: 0 for padding, 2 for wide, else 1.
    #[inline]
    pub const fn width(self) -> u32 {
        if self.is_padding() {
            0
        } else if self.is_wide() {
            2
        } else {
            1
        }
    }

    /// The ASCII byte this cell holds when it holds one in `style`: one comparison of each
    /// half of the character word and of the style field (flags, high code point bits and the
    /// style's high bits all sit in the word's upper half).
    #[inline]
    pub const fn ascii_in(self, style: StyleId) -> Option<u8> {
        let high = (style >> 16 << (Self::STYLE_HIGH_SHIFT - 16)) as u16;
        if self.ch_hi == high && self.style == style as u16 && self.ch_lo < 0x80 {
            Some(self.ch_lo as u8)
        } else {
            None
        }
    }

    /// A single ASCII byte in this cell, if that is all it holds.
    #[inline]
    pub const fn ascii(self) -> Option<u8> {
        let w = self.word();
        if w < 0x80 {
            Some(w as u8)
        } else {
            None
        }
    }
}

/// Colours use tmux's encoding: 0-7 and 90-97 are the 16 colours, 8 is the default,
/// `FLAG_256 | n` a palette colour and `FLAG_RGB | rrggbb` a 24-bit colour.
pub mod colour {
    pub const DEFAULT: u32 = 8;
    pub const FLAG_256: u32 = 0x0100_0000;
    pub const FLAG_RGB: u32 = 0x0200_0000;

    pub const fn rgb(r: u8, g: u8, b: u8) -> u32 {
        FLAG_RGB | (r as u32) << 16 | (g as u32) << 8 | b as u32
    }

    pub const fn is_default(c: u32) -> bool {
        c == 8 || c == 9
    }
}

/// Attribute bits, numbered as in tmux so capture output can follow tmux's order.
pub mod attr {
    pub const BRIGHT: u16 = 0x1;
    pub const DIM: u16 = 0x2;
    pub const UNDERSCORE: u16 = 0x4;
    pub const BLINK: u16 = 0x8;
    pub const REVERSE: u16 = 0x10;
    pub const HIDDEN: u16 = 0x20;
    pub const ITALICS: u16 = 0x40;
    /// The character is from the DEC special graphics set (capture prints it with SO/SI).
    pub const CHARSET: u16 = 0x80;
    pub const STRIKETHROUGH: u16 = 0x100;
    pub const UNDERSCORE_2: u16 = 0x200;
    pub const UNDERSCORE_3: u16 = 0x400;
    pub const UNDERSCORE_4: u16 = 0x800;
    pub const UNDERSCORE_5: u16 = 0x1000;
    pub const OVERLINE: u16 = 0x2000;
    pub const ALL_UNDERSCORE: u16 =
        UNDERSCORE | UNDERSCORE_2 | UNDERSCORE_3 | UNDERSCORE_4 | UNDERSCORE_5;
}

/// How a cell is drawn: colours and attributes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Style {
    pub fg: u32,
    pub bg: u32,
    /// Underline colour; 0 means none (tmux's convention).
    pub us: u32,
    pub attr: u16,
}

impl Style {
    pub const DEFAULT: Style = Style {
        fg: colour::DEFAULT,
        bg: colour::DEFAULT,
        us: 0,
        attr: 0,
    };

    /// The style an erase leaves behind: default everything but the background.
    pub const fn erased(bg: u32) -> Style {
        Style {
            bg,
            ..Style::DEFAULT
        }
    }
}

/// Linear search is faster than hashing while the palette is small; past this many entries a
/// hash index is built. Agent screens use a few dozen styles.
const PALETTE_LINEAR_LIMIT: usize = 64;

/// The per-screen table of distinct styles; cells hold 16-bit indices into it.
///
/// The index for lookups is an open-addressed table of style ids (at most half full) rather
/// than a map from style to index, which took twice the memory on the agent traces. The owner
/// releases the styles no cell uses any more ([`Palette::release`]): their ids are reused by
/// the next new styles, so the cells that keep their styles, frozen history lines above all,
/// are never rewritten. A palette left mostly empty is renumbered instead
/// ([`Palette::retain`]), which does rewrite every cell.
#[derive(Clone, Debug)]
pub struct Palette {
    /// Styles by id; a released id holds [`FREE_STYLE`].
    styles: Vec<Style>,
    /// Open-addressed index: style ids (0 = empty slot), empty while the palette is small.
    slots: Vec<StyleId>,
    /// Released ids, reused before the palette grows.
    free: Vec<StyleId>,
}

/// What a released style id holds: no colour or attribute a terminal sets is `u32::MAX` or
/// `u16::MAX`, so no style interned ever equals it.
const FREE_STYLE: Style = Style {
    fg: u32::MAX,
    bg: u32::MAX,
    us: u32::MAX,
    attr: u16::MAX,
};

impl Default for Palette {
    fn default() -> Self {
        Palette {
            styles: vec![Style::DEFAULT],
            slots: Vec::new(),
            free: Vec::new(),
        }
    }
}

fn style_hash(s: &Style) -> usize {
    let mut h = (s.fg as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = (h ^ s.bg as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = (h ^ s.us as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = (h ^ s.attr as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 32) as usize
}

impl Palette {
    pub const CAPACITY: usize = Cell::STYLE_LIMIT;

    #[inline]
    pub fn get(&self, index: StyleId) -> &Style {
        &self.styles[index as usize]
    }

    /// How many ids are in use or released: every id a cell can hold is below this.
    pub fn len(&self) -> usize {
        self.styles.len()
    }

    /// How many styles the palette holds (released ids not counted).
    pub fn live(&self) -> usize {
        self.styles.len() - self.free.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn is_full(&self) -> bool {
        self.styles.len() >= Self::CAPACITY && self.free.is_empty()
    }

    /// The slot where `style` is, or the empty slot where it would go.
    fn slot_of(&self, style: &Style) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = style_hash(style) & mask;
        loop {
            let at = self.slots[i];
            if at == 0 || self.styles[at as usize] == *style {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    fn find(&self, style: &Style) -> Option<StyleId> {
        if self.slots.is_empty() {
            self.styles
                .iter()
                .position(|s| s == style)
                .map(|i| i as StyleId)
        } else {
            match self.slots[self.slot_of(style)] {
                0 => None,
                i => Some(i),
            }
        }
    }

    /// Rebuilds the lookup index and the list of released ids from `styles`.
    fn rebuild_index(&mut self) {
        self.slots = Vec::new();
        self.free = released(&self.styles, |s| *s == FREE_STYLE);
        if self.styles.len() <= PALETTE_LINEAR_LIMIT {
            return;
        }
        let n = (self.styles.len() * 2)
            .next_power_of_two()
            .min(2 * Self::CAPACITY);
        self.slots = vec![0; n];
        for i in 1..self.styles.len() {
            if self.styles[i] != FREE_STYLE {
                let slot = self.slot_of(&self.styles[i]);
                self.slots[slot] = i as StyleId;
            }
        }
    }

    /// The index of `style`, adding it if new. `None` when the palette is full and the style is
    /// not in it: the caller compacts and asks again.
    pub fn intern(&mut self, style: &Style) -> Option<StyleId> {
        if *style == Style::DEFAULT {
            return Some(0);
        }
        if let Some(i) = self.find(style) {
            return Some(i);
        }
        if self.is_full() {
            return None;
        }
        debug_assert!(*style != FREE_STYLE);
        let i = place(&mut self.styles, &mut self.free, *style);
        if self.slots.len() < 2 * self.styles.len() {
            self.rebuild_index();
        } else {
            let slot = self.slot_of(style);
            self.slots[slot] = i;
        }
        Some(i)
    }

    /// Releases the styles not marked in `used` (indexed by id): their ids go to the next new
    /// styles; the others keep theirs. Index 0 (the default style) always stays.
    pub fn release(&mut self, used: &[bool]) {
        for (i, style) in self.styles.iter_mut().enumerate().skip(1) {
            if !used.get(i).copied().unwrap_or(false) {
                *style = FREE_STYLE;
            }
        }
        trim_released(&mut self.styles, 1, |s| *s == FREE_STYLE);
        self.rebuild_index();
    }

    /// Keeps only the styles marked in `used` (indexed by old index) and returns the map from
    /// old to new index. Index 0 (the default style) always survives.
    pub fn retain(&mut self, used: &[bool]) -> Vec<StyleId> {
        let mut remap = vec![0 as StyleId; self.styles.len()];
        let old = std::mem::take(&mut self.styles);
        self.styles.push(Style::DEFAULT);
        for (i, style) in old.into_iter().enumerate().skip(1) {
            if used.get(i).copied().unwrap_or(false) && style != FREE_STYLE {
                remap[i] = self.styles.len() as StyleId;
                self.styles.push(style);
            }
        }
        self.styles.shrink_to_fit();
        self.rebuild_index();
        remap
    }

    /// Appends the styles to `out` (a count, then each style but the default as four varints,
    /// released ids as [`FREE_STYLE`]) and empties the palette, which stays unusable until
    /// [`Palette::thaw`].
    pub fn freeze_into(&mut self, out: &mut Vec<u8>) {
        put_varint(out, self.styles.len().saturating_sub(1));
        for s in self.styles.iter().skip(1) {
            for field in [s.fg, s.bg, s.us, s.attr as u32] {
                put_varint(out, field as usize);
            }
        }
        *self = Palette {
            styles: Vec::new(),
            slots: Vec::new(),
            free: Vec::new(),
        };
    }

    /// Reads back what [`Palette::freeze_into`] wrote: the same styles at the same indices, the
    /// same ids released.
    pub fn thaw(&mut self, chunk: &[u8], at: &mut usize) {
        let n = get_varint(chunk, at);
        let mut styles = Vec::with_capacity(n + 1);
        styles.push(Style::DEFAULT);
        for _ in 0..n {
            let mut field = || get_varint(chunk, at) as u32;
            let (fg, bg, us, attr) = (field(), field(), field(), field());
            styles.push(Style {
                fg,
                bg,
                us,
                attr: attr as u16,
            });
        }
        self.styles = styles;
        self.rebuild_index();
    }

    /// Heap bytes held, spare capacity included.
    pub fn heap_bytes(&self) -> usize {
        self.styles.capacity() * std::mem::size_of::<Style>()
            + (self.slots.capacity() + self.free.capacity()) * std::mem::size_of::<StyleId>()
    }
}

/// Characters made of several code points (combining marks, ZWJ sequences), stored once per
/// screen and referenced from cells by index. As with the palette, the owner releases the
/// graphemes no cell names any more ([`Graphemes::release`]) and their indices are reused, or
/// renumbers a table left mostly empty ([`Graphemes::retain`]).
#[derive(Clone, Debug, Default)]
pub struct Graphemes {
    /// Graphemes by index; a released index holds the empty string, which is never interned.
    strings: Vec<Box<str>>,
    index: HashMap<Box<str>, u32>,
    /// Released indices, reused before the table grows.
    free: Vec<u32>,
}

impl Graphemes {
    /// As many graphemes as a cell can name; the owner compacts the table before it fills.
    pub const CAPACITY: usize = 1 << 21;

    pub fn get(&self, index: u32) -> &str {
        self.strings.get(index as usize).map_or("\u{fffd}", |s| s)
    }

    /// How many indices are in use or released: every index a cell can name is below this.
    pub fn len(&self) -> usize {
        self.strings.len()
    }

    /// How many graphemes the table holds (released indices not counted).
    pub fn live(&self) -> usize {
        self.strings.len() - self.free.len()
    }

    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
    }

    pub fn is_full(&self) -> bool {
        self.strings.len() >= Self::CAPACITY && self.free.is_empty()
    }

    /// The index of `s` (not empty), adding it if new.
    pub fn intern(&mut self, s: &str) -> u32 {
        debug_assert!(!s.is_empty());
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let boxed: Box<str> = s.into();
        let i = place(&mut self.strings, &mut self.free, boxed.clone());
        self.index.insert(boxed, i);
        i
    }

    /// Releases the graphemes not marked in `used` (indexed by index): their indices go to the
    /// next new graphemes; the others keep theirs.
    pub fn release(&mut self, used: &[bool]) {
        for (i, s) in self.strings.iter_mut().enumerate() {
            if !s.is_empty() && !used.get(i).copied().unwrap_or(false) {
                self.index.remove(&**s);
                *s = Box::default();
            }
        }
        trim_released(&mut self.strings, 0, |s| s.is_empty());
        // Room kept for graphemes released for good is given back, as the index's is.
        if self.strings.capacity() > 2 * self.strings.len() {
            self.strings.shrink_to_fit();
        }
        if self.index.capacity() > 2 * self.index.len() {
            self.index.shrink_to_fit();
        }
        self.free = released(&self.strings, |s| s.is_empty());
    }

    /// Keeps the graphemes marked in `used` and returns the map from old to new index.
    pub fn retain(&mut self, used: &[bool]) -> Vec<u32> {
        let mut remap = vec![0u32; self.strings.len()];
        let old = std::mem::take(&mut self.strings);
        self.index.clear();
        // Every index is live after renumbering: the released ones' list goes, room and all.
        self.free = Vec::new();
        for (i, s) in old.into_iter().enumerate() {
            if used.get(i).copied().unwrap_or(false) && !s.is_empty() {
                remap[i] = self.strings.len() as u32;
                self.index.insert(s.clone(), remap[i]);
                self.strings.push(s);
            }
        }
        self.strings.shrink_to_fit();
        self.index.shrink_to_fit();
        remap
    }

    /// Appends the graphemes to `out` (a count, then each as a length and its UTF-8, released
    /// indices as empty strings) and empties the table.
    pub fn freeze_into(&mut self, out: &mut Vec<u8>) {
        put_varint(out, self.strings.len());
        for s in &self.strings {
            put_varint(out, s.len());
            out.extend_from_slice(s.as_bytes());
        }
        *self = Graphemes::default();
    }

    /// Reads back what [`Graphemes::freeze_into`] wrote: the same graphemes at the same
    /// indices, the same indices released.
    pub fn thaw(&mut self, chunk: &[u8], at: &mut usize) {
        let n = get_varint(chunk, at);
        let mut strings = Vec::with_capacity(n);
        let mut index = HashMap::with_capacity(n);
        for i in 0..n {
            let len = get_varint(chunk, at);
            let text = std::str::from_utf8(&chunk[*at..*at + len]).unwrap_or("\u{fffd}");
            *at += len;
            let boxed: Box<str> = text.into();
            if !boxed.is_empty() {
                index.entry(boxed.clone()).or_insert(i as u32);
            }
            strings.push(boxed);
        }
        self.free = released(&strings, |s| s.is_empty());
        self.strings = strings;
        self.index = index;
    }

    pub fn heap_bytes(&self) -> usize {
        let text: usize = self.strings.iter().map(|s| s.len()).sum();
        self.strings.capacity() * std::mem::size_of::<Box<str>>()
            + self.index.capacity() * (std::mem::size_of::<(Box<str>, u32)>() + 1)
            + self.free.capacity() * std::mem::size_of::<u32>()
            + 2 * text
    }
}

// The palette and the grapheme table release entries alike: a released entry holds a value
// never interned (a tombstone), its index waits in a list to be reused, and released entries
// at the end are dropped.

/// Puts `entry` at a released index if there is one, else at the end; returns its index.
fn place<T>(entries: &mut Vec<T>, free: &mut Vec<u32>, entry: T) -> u32 {
    match free.pop() {
        Some(i) => {
            entries[i as usize] = entry;
            i
        }
        None => {
            entries.push(entry);
            (entries.len() - 1) as u32
        }
    }
}

/// The indices of the released entries.
fn released<T>(entries: &[T], is_released: impl Fn(&T) -> bool) -> Vec<u32> {
    (0..entries.len())
        .filter(|&i| is_released(&entries[i]))
        .map(|i| i as u32)
        .collect()
}

/// Drops the released entries at the end (never the first `keep`), and gives back the room of
/// a table that released most of its entries.
fn trim_released<T>(entries: &mut Vec<T>, keep: usize, is_released: impl Fn(&T) -> bool) {
    let end = entries.iter().rposition(|e| !is_released(e));
    entries.truncate(end.map_or(0, |i| i + 1).max(keep));
    if entries.capacity() > 2 * entries.len() {
        entries.shrink_to_fit();
    }
}

/// A cell's character as text: its code point, or its interned grapheme.
pub fn push_cell_text(out: &mut Vec<u8>, cell: Cell, graphemes: &Graphemes) {
    if let Some(b) = cell.ascii() {
        out.push(b);
    } else if cell.is_interned() {
        out.extend_from_slice(graphemes.get(cell.value()).as_bytes());
    } else {
        let c = char::from_u32(cell.value()).unwrap_or('\u{fffd}');
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_in_a_style_agrees_with_ascii_and_style() {
        let styles = [
            0,
            1,
            0xffff,
            0x1_0000,
            0x1_2345,
            Cell::STYLE_LIMIT as u32 - 1,
        ];
        let words = [
            b'a' as u32,
            0,
            0x7f,
            0x80,
            0x4e2d | Cell::WIDE,
            Cell::PADDING,
            3 | Cell::INTERNED,
            b'a' as u32 | 1 << 16,
            b'a' as u32 | 1 << 28,
        ];
        for &word in &words {
            for &style in &styles {
                let cell = Cell::new(word, style);
                for &asked in &styles {
                    let want = cell.ascii().filter(|_| cell.style() == asked);
                    assert_eq!(cell.ascii_in(asked), want, "{word:#x} in {style}, {asked}");
                }
            }
        }
    }

    #[test]
    fn cell_is_six_bytes() {
        assert_eq!(std::mem::size_of::<Cell>(), 6);
        assert_eq!(std::mem::align_of::<Cell>(), 2);
    }

    #[test]
    fn cell_word_round_trips_flags() {
        let c = Cell::new(0x1F600 | Cell::WIDE, 7);
        assert!(c.is_wide() && !c.is_padding() && !c.is_interned());
        assert_eq!(c.value(), 0x1F600);
        assert_eq!(c.width(), 2);
        assert_eq!(c.style(), 7);
        assert_eq!(Cell::PAD.width(), 0);
    }

    #[test]
    fn palette_interns_and_switches_to_hash_index() {
        let mut p = Palette::default();
        assert_eq!(p.intern(&Style::DEFAULT), Some(0));
        let mut seen = Vec::new();
        for n in 0..200u32 {
            let s = Style {
                fg: colour::FLAG_256 | n,
                ..Style::DEFAULT
            };
            let i = p.intern(&s).unwrap();
            assert_eq!(p.intern(&s), Some(i));
            seen.push((s, i));
        }
        for (s, i) in seen {
            assert_eq!(*p.get(i), s);
        }
    }

    #[test]
    fn palette_retain_renumbers_only_used_styles() {
        let mut p = Palette::default();
        let a = p.intern(&Style::erased(1)).unwrap();
        let b = p.intern(&Style::erased(2)).unwrap();
        let mut used = vec![false; p.len()];
        used[b as usize] = true;
        let remap = p.retain(&used);
        assert_eq!(p.len(), 2);
        assert_eq!(*p.get(remap[b as usize]), Style::erased(2));
        assert_ne!(remap[a as usize], remap[b as usize]);
    }

    #[test]
    fn released_styles_give_their_ids_to_new_ones_and_kept_styles_keep_theirs() {
        let mut p = Palette::default();
        let ids: Vec<StyleId> = (1..=100)
            .map(|n| p.intern(&Style::erased(colour::FLAG_256 | n)).unwrap())
            .collect();
        let mut used = vec![false; p.len()];
        for &i in ids.iter().step_by(2) {
            used[i as usize] = true;
        }
        p.release(&used);
        assert_eq!((p.live(), p.len()), (51, 100), "the last id is released");
        for (n, &i) in (1..=100).zip(&ids).step_by(2) {
            assert_eq!(*p.get(i), Style::erased(colour::FLAG_256 | n));
            assert_eq!(p.intern(&Style::erased(colour::FLAG_256 | n)), Some(i));
        }
        // The palette travels through a freeze with its released ids, which new styles reuse.
        let mut chunk = Vec::new();
        p.freeze_into(&mut chunk);
        p.thaw(&chunk, &mut 0);
        assert_eq!((p.live(), p.len()), (51, 100));
        let released: Vec<StyleId> = ids.iter().skip(1).step_by(2).copied().collect();
        for n in 0..released.len() as u32 - 1 {
            let i = p
                .intern(&Style::erased(colour::rgb(1, 2, n as u8)))
                .unwrap();
            assert!(released.contains(&i), "new style {n} took id {i}");
        }
        assert_eq!((p.live(), p.len()), (100, 100));
        assert_eq!(p.intern(&Style::erased(colour::rgb(9, 9, 9))), Some(100));
    }

    #[test]
    fn a_renumbered_grapheme_table_keeps_no_room_for_released_indices() {
        let mut g = Graphemes::default();
        for i in 0..300 {
            g.intern(&format!("e\u{301}{i}"));
        }
        let last_only: Vec<bool> = (0..300).map(|i| i == 299).collect();
        g.release(&last_only);
        for i in 0..299 {
            g.intern(&format!("x\u{301}{i}"));
        }
        assert_eq!(g.live(), 300, "the released indices were reused");
        g.retain(&last_only);
        assert_eq!(g.len(), 1);
        assert!(
            g.heap_bytes() < 200,
            "{} bytes for one grapheme",
            g.heap_bytes()
        );
    }

    #[test]
    fn released_graphemes_give_their_indices_to_new_ones() {
        let mut g = Graphemes::default();
        let text = |n: u32| format!("e{}", char::from_u32(0x300 + n).unwrap());
        let ids: Vec<u32> = (0..10).map(|n| g.intern(&text(n))).collect();
        let mut used = vec![false; g.len()];
        used[ids[3] as usize] = true;
        g.release(&used);
        assert_eq!((g.live(), g.len()), (1, 4));
        assert_eq!(g.get(ids[3]), text(3));
        assert_eq!(g.intern(&text(3)), ids[3]);
        let mut chunk = Vec::new();
        g.freeze_into(&mut chunk);
        g.thaw(&chunk, &mut 0);
        assert_eq!((g.live(), g.len()), (1, 4));
        let reused: Vec<u32> = (20..23).map(|n| g.intern(&text(n))).collect();
        assert!(reused.iter().all(|i| ids[..3].contains(i)), "{reused:?}");
        assert_eq!(g.intern(&text(30)), 4);
        assert_eq!(g.get(ids[3]), text(3));
    }

    #[test]
    fn full_palette_refuses_new_styles() {
        let mut p = Palette::default();
        for n in 1..Palette::CAPACITY as u32 {
            assert!(p.intern(&Style::erased(colour::FLAG_RGB | n)).is_some());
        }
        assert!(p.is_full());
        assert_eq!(p.intern(&Style::erased(colour::FLAG_RGB | 0xffffff)), None);
        assert!(p.intern(&Style::erased(colour::FLAG_RGB | 5)).is_some());
    }
}
