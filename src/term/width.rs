//! How many cells tmux 3.3a gives a character, in one lookup.
//!
//! [`width_table`](super::width_table) answers with up to three binary searches; the parser asks
//! for every non-ASCII character it prints, so the Basic Multilingual Plane is folded into a
//! 16 KiB table of 2-bit classes (box drawing and CJK, which agent screens are full of, never
//! reach the binary searches). The table is built by the compiler into read-only data: built
//! at run time it cost every server 11.4 million instructions at its first non-ASCII
//! character (callgrind, `examples/replay`) and 16 KiB of heap.

use super::width_table::{char_width, tmux_discards, DOUBLE_WIDTH, UNPRINTABLE, ZERO_WIDTH};

const DISCARD: u8 = 0;
const ZERO: u8 = 1;
const ONE: u8 = 2;
const TWO: u8 = 3;

fn class_of(c: char) -> u8 {
    if tmux_discards(c) {
        DISCARD
    } else {
        match char_width(c) {
            0 => ZERO,
            2 => TWO,
            _ => ONE,
        }
    }
}

/// Four code points a byte, two bits each, the lowest code point in the lowest bits.
static BMP: [u8; 16384] = bmp_table();

/// The classes of U+0000..U+FFFF as [`class_of`] gives them: widths from the range tables
/// (from U+0300 up, below which every character is one cell; zero width before wide, as
/// `char_width` asks), then what tmux discards (from U+0080 up) and the surrogates, which are
/// not characters.
const fn bmp_table() -> [u8; 16384] {
    let mut t = [0u8; 16384];
    let mut i = 0;
    while i < t.len() {
        t[i] = ONE * 0b0101_0101;
        i += 1;
    }
    mark(&mut t, &DOUBLE_WIDTH, 0x300, TWO);
    mark(&mut t, &ZERO_WIDTH, 0x300, ZERO);
    mark(&mut t, &UNPRINTABLE, 0x80, DISCARD);
    mark(&mut t, &[(0xD800, 0xDFFF)], 0, DISCARD);
    t
}

/// Sets the class of every BMP code point at or above `from` in `ranges` (inclusive pairs).
const fn mark(t: &mut [u8; 16384], ranges: &[(u32, u32)], from: u32, class: u8) {
    let mut r = 0;
    while r < ranges.len() {
        let (start, end) = ranges[r];
        let mut cp = if start > from { start } else { from };
        while cp <= end && cp < 0x10000 {
            let shift = (cp & 3) * 2;
            let byte = &mut t[(cp >> 2) as usize];
            *byte = (*byte & !(3 << shift)) | class << shift;
            cp += 1;
        }
        r += 1;
    }
}

/// The width tmux gives `c` (for U+0080 and above): `None` when tmux drops the character
/// (glibc's wcwidth says -1), otherwise 0 (joins the previous cell), 1 or 2.
#[inline]
pub fn tmux_width(c: char) -> Option<u8> {
    let cp = c as u32;
    let class = if cp < 0x10000 {
        (BMP[(cp >> 2) as usize] >> ((cp & 3) * 2)) & 3
    } else {
        class_of(c)
    };
    match class {
        DISCARD => None,
        ZERO => Some(0),
        ONE => Some(1),
        _ => Some(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_agrees_with_the_generated_ranges() {
        for cp in (0x80..0x30000u32).chain([0xE0001, 0x10FFFD]) {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let want = if tmux_discards(c) {
                None
            } else {
                Some(char_width(c))
            };
            assert_eq!(tmux_width(c), want, "U+{cp:04X}");
        }
    }
}
