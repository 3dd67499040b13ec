//! SGR sequences remembered by their bytes: what a sequence does to the pen, found once by
//! the parser's own SGR code and then applied without parsing its parameters again.
//!
//! Every SGR parameter sets a colour or sets or clears attribute bits, so whatever a sequence
//! holds, its effect on any style is a [`SgrEffect`]: each colour kept or set to one value, the
//! attributes `(attr & keep) | set`. The parser finds it by applying the sequence to the
//! [`SgrEffect::PROBES`], styles no sequence can produce, and reading the effect off the
//! results ([`SgrEffect::from_probes`]); a result that no effect explains is not remembered.
//!
//! The memo is direct-mapped and shared by every parser on the host's thread (the engine starts
//! none), so it costs each screen nothing. A sequence is remembered the second time it comes:
//! finding an effect costs three dispatches, and programs that colour by gradients send many
//! sequences once (`redraw`'s 60 frames hold 172 distinct ones, the coloured log 228).
//! Measured in callgrind (`examples/replay`): a `redraw` frame's 208 SGR sequences cost about
//! 270 instructions each to parse and apply, more than a tenth of the frame; remembered, a
//! frame takes 1.06x fewer instructions, a `clear` frame 1.05x, the Gemini CLI recording 1.14x
//! and the Claude Code one 1.05x (BENCHMARKS.md, "Parse cost").

use std::cell::RefCell;

use super::cell::Style;

/// What an SGR sequence does to a style, whatever the style was: each colour set to its value
/// here or, [`KEPT`], kept. Sixteen bytes, which the parser copies out of the memo and loads
/// whole: with `Option` colours (28 bytes) the copy was stored in pieces and loaded across them,
/// which stalled on store forwarding (an eighth of `Parser::csi_whole`'s samples, `perf record`
/// on `examples/replay` with `redraw`'s frames).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SgrEffect {
    fg: u32,
    bg: u32,
    us: u32,
    keep: u16,
    set: u16,
}

/// A colour an effect keeps (no colour is this: the highest byte holds only a kind's flag).
const KEPT: u32 = u32::MAX;

/// Colours no SGR sequence sets (the highest byte of a colour holds only its kind's flag).
const PROBE_COLOURS: [u32; 3] = [0xf000_0001, 0xf000_0002, 0xf000_0003];

impl SgrEffect {
    /// The styles a sequence is applied to for [`SgrEffect::from_probes`]: colours no sequence
    /// sets, and attributes with every bit clear, set, and set every other bit.
    pub const PROBES: [Style; 3] = [
        probe(PROBE_COLOURS[0], 0),
        probe(PROBE_COLOURS[1], u16::MAX),
        probe(PROBE_COLOURS[2], 0x5555),
    ];

    /// The effect that turns each of [`SgrEffect::PROBES`] into `results`' style, if one does.
    pub fn from_probes(results: [Style; 3]) -> Option<SgrEffect> {
        let colour = |get: fn(&Style) -> u32| -> Option<u32> {
            let after = results.map(|s| get(&s));
            if after == PROBE_COLOURS {
                Some(KEPT)
            } else {
                let set = after[0];
                (after.iter().all(|&c| c == set) && !PROBE_COLOURS.contains(&set) && set != KEPT)
                    .then_some(set)
            }
        };
        let set = results[0].attr;
        let effect = SgrEffect {
            fg: colour(|s| s.fg)?,
            bg: colour(|s| s.bg)?,
            us: colour(|s| s.us)?,
            keep: results[1].attr & !set,
            set,
        };
        let explains = Self::PROBES.iter().zip(&results).all(|(probe, result)| {
            let mut s = *probe;
            effect.apply(&mut s);
            s == *result
        });
        explains.then_some(effect)
    }

    #[inline]
    pub fn apply(self, style: &mut Style) {
        let colour = |set: u32, was: u32| if set == KEPT { was } else { set };
        style.fg = colour(self.fg, style.fg);
        style.bg = colour(self.bg, style.bg);
        style.us = colour(self.us, style.us);
        style.attr = (style.attr & self.keep) | self.set;
    }
}

const fn probe(colour: u32, attr: u16) -> Style {
    Style {
        fg: colour,
        bg: colour,
        us: colour,
        attr,
    }
}

/// Parameter bytes a remembered sequence may have: most fit (`38;2;255;135;0` is 14).
const KEY_BYTES: usize = 16;
const MEMO_BITS: u32 = 8;

/// A sequence's parameters, zero-padded, and their length.
type Key = ([u64; 2], u8);

/// Each slot holds the last sequence seen there, with its effect once it came twice.
struct Memo {
    entries: [Option<(Key, Option<SgrEffect>)>; 1 << MEMO_BITS],
}

thread_local! {
    static MEMO: RefCell<Memo> = const { RefCell::new(Memo { entries: [None; 1 << MEMO_BITS] }) };
}

/// The key of the `len` parameter bytes at the start of `input`, loaded as two words and
/// masked when `input` runs on for 16 bytes (as it does but at the end of a read). Copying the
/// parameters into a zeroed buffer and loading that stalled on store forwarding: a third of
/// the lookup's samples in a server running `bench/scale.sh redraw 200` (`perf record`).
fn key(input: &[u8], len: usize) -> Option<Key> {
    if len > KEY_BYTES {
        return None;
    }
    let mut padded = [0u8; KEY_BYTES];
    let loaded = match input.get(..KEY_BYTES) {
        Some(loaded) => loaded,
        None => {
            padded[..len].copy_from_slice(&input[..len]);
            &padded
        }
    };
    let word = |i: usize| u64::from_le_bytes(loaded[i * 8..i * 8 + 8].try_into().unwrap());
    let words = [
        word(0) & low_bytes(len),
        word(1) & low_bytes(len.saturating_sub(8)),
    ];
    Some((words, len as u8))
}

/// A mask of the low `n` bytes of a word.
fn low_bytes(n: usize) -> u64 {
    if n >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

fn slot((words, len): &Key) -> usize {
    let mixed =
        (words[0] ^ words[1].rotate_left(29) ^ u64::from(*len)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed >> (64 - MEMO_BITS)) as usize
}

/// The effect of the SGR sequence whose `len` parameter bytes start `input` if it is
/// remembered, or found by `find` because it came before. None when it is new (or too long to
/// remember, or `find` finds none): the parser parses it.
///
/// Inlined into the parser's loop, with finding an effect kept out of it: returned from a call,
/// the effect was loaded whole from memory while its pieces were still being stored, which
/// stalled on store forwarding (a quarter of `Parser::csi_whole`'s samples in the same profile).
#[inline]
pub fn remembered(
    input: &[u8],
    len: usize,
    find: impl FnOnce() -> Option<SgrEffect>,
) -> Option<SgrEffect> {
    let key = key(input, len)?;
    let slot = slot(&key);
    let seen = MEMO.with_borrow_mut(|memo| match &mut memo.entries[slot] {
        Some((k, effect)) if *k == key => Some(*effect),
        entry => {
            *entry = Some((key, None));
            None
        }
    })?;
    match seen {
        Some(effect) => Some(effect),
        None => remember(slot, key, find),
    }
}

/// Finds the effect of a sequence seen for the second time and remembers it.
#[cold]
fn remember(slot: usize, key: Key, find: impl FnOnce() -> Option<SgrEffect>) -> Option<SgrEffect> {
    let effect = find()?;
    MEMO.with_borrow_mut(|memo| memo.entries[slot] = Some((key, Some(effect))));
    Some(effect)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::cell::{attr, colour};

    #[test]
    fn effects_found_from_probes_apply_as_the_sequence_does() {
        // A sequence that sets the foreground, keeps the background and underline colour,
        // sets bold and clears the underlines.
        let apply = |mut s: Style| {
            s.fg = colour::rgb(1, 2, 3);
            s.attr = (s.attr & !attr::ALL_UNDERSCORE) | attr::BRIGHT;
            s
        };
        let effect = SgrEffect::from_probes(SgrEffect::PROBES.map(apply)).unwrap();
        let style = Style {
            fg: 3,
            bg: colour::FLAG_256 | 7,
            us: 0,
            attr: attr::UNDERSCORE_3 | attr::ITALICS,
        };
        let mut applied = style;
        effect.apply(&mut applied);
        assert_eq!(applied, apply(style));
    }

    #[test]
    fn results_no_effect_explains_are_refused() {
        // A colour that follows the style before it is neither kept nor set.
        let follows = |mut s: Style| {
            s.fg = s.bg ^ 1;
            s
        };
        assert_eq!(SgrEffect::from_probes(SgrEffect::PROBES.map(follows)), None);
        // Attribute bits that depend on each other.
        let toggles = |mut s: Style| {
            s.attr ^= attr::BRIGHT;
            s
        };
        assert_eq!(SgrEffect::from_probes(SgrEffect::PROBES.map(toggles)), None);
    }

    #[test]
    fn the_memo_finds_each_sequence_once_and_keeps_sequences_apart() {
        let effect = |fg| {
            let set = |mut s: Style| {
                s.fg = fg;
                s
            };
            SgrEffect::from_probes(SgrEffect::PROBES.map(set))
        };
        let mut finds = 0;
        for time in 0..4 {
            let found = remembered(b"31;;;", 5, || {
                finds += 1;
                effect(1)
            });
            // New the first time: the parser parses it then.
            assert_eq!(found, if time == 0 { None } else { effect(1) });
        }
        assert_eq!(finds, 1);
        // Another sequence, even one whose bytes pad alike, is not taken for the one remembered.
        assert_eq!(remembered(b"31;;;;", 6, || unreachable!()), None);
        assert_eq!(remembered(b"31;;;;", 6, || effect(2)), effect(2));
        // The same parameters with more input after them are the same sequence.
        let more = b"31;;;;mtext that follows";
        assert_eq!(remembered(more, 6, || unreachable!()), effect(2));
        // Too long to remember: left to the parser, which parses it as it comes.
        let long = b"38;2;255;255;255;1";
        assert_eq!(remembered(long, long.len(), || unreachable!()), None);
    }

    #[test]
    fn keys_are_the_parameters_alone_whatever_input_follows() {
        let input = b"38;2;215;119;87;1m\x1b[39mWorking";
        for len in 0..=KEY_BYTES {
            let alone = key(&input[..len], len);
            assert_eq!(key(input, len), alone, "{len} bytes, loaded as words");
            let mut other = input.to_vec();
            other[len..].iter_mut().for_each(|b| *b = !*b);
            assert_eq!(key(&other, len), alone, "{len} bytes, other bytes after");
        }
        assert_ne!(key(b"31;;", 4), key(b"31;", 3));
    }
}
