//! How many cells tmux 3.3a gives a character, in one lookup.
//!
//! [`width_table`](super::width_table) answers with up to three binary searches; the parser asks
//! for every non-ASCII character it prints, so the Basic Multilingual Plane is folded into a
//! 16 KiB table of 2-bit classes built once per process (box drawing and CJK, which agent
//! screens are full of, never reach the binary searches). The table is shared by every screen.

use super::width_table::{char_width, tmux_discards};
use std::sync::OnceLock;

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

fn bmp_table() -> &'static [u8; 16384] {
    static TABLE: OnceLock<Box<[u8; 16384]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([0u8; 16384]);
        for cp in 0..0x10000u32 {
            let class = char::from_u32(cp).map_or(DISCARD, class_of);
            t[(cp >> 2) as usize] |= class << ((cp & 3) * 2);
        }
        t
    })
}

/// The width tmux gives `c` (for U+0080 and above): `None` when tmux drops the character
/// (glibc's wcwidth says -1), otherwise 0 (joins the previous cell), 1 or 2.
#[inline]
pub fn tmux_width(c: char) -> Option<u8> {
    let cp = c as u32;
    let class = if cp < 0x10000 {
        (bmp_table()[(cp >> 2) as usize] >> ((cp & 3) * 2)) & 3
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
