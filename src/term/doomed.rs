//! Text that scrolls out of the grid before the write that holds it ends.
//!
//! `cat` of a large log hands the parser megabytes in one write, and all but its last few
//! thousand lines scroll off the top of the history before anyone can look: writing their
//! cells is wasted. This module finds, before a write is parsed, from which byte on the text
//! is doomed, so that the parser only moves the cursor over it
//! ([`super::Screen::pass_over_ascii`]).
//! Everything else is done as usual (styles, line feeds and the history's trimming, wide and
//! combining characters, titles, replies), so the screen, history, cursor and pen a write leaves
//! are exactly those of writing every cell.
//!
//! Why it is exact: a write ends with a *clean tail*, bytes that can only print, move the cursor
//! right or down, or set the pen (printable ASCII, UTF-8, CR, LF, VT, FF, TAB, BEL, SO, SI and
//! SGR sequences `ESC [ digits ; : m`). Parsed from the ground state at a line feed inside that
//! tail, nothing can move the cursor up, change the scroll region or switch screens, so with a
//! whole-screen scroll region each line feed either moves the cursor down (at most `sy - 1`
//! times) or scrolls the top line off the screen (into the history, or away on the alternate
//! screen, which must then be taller than one line: there tmux scrolls nothing). Every scroll
//! drops at least the oldest history line once the history has reached its limit (tmux trims
//! a tenth of the limit, at least one line, each time), and a history longer than its limit
//! (a resize can leave one) is at its limit already; so a line now in the grid is gone after
//! `max(history-limit, history size, 1) + sy` scrolls, and text is doomed when at least that
//! many line feeds and `sy - 1` more follow it.
//! A scan finds the tail (the bytes after the last one that is not clean); the parser enters
//! it only just after a line feed it parsed in the ground state, where its reading of the bytes
//! and the scan's agree.
//!
//! Measured on the 5.4 MB coloured log (`examples/replay`, callgrind): writing the cells of its
//! ASCII text was over 40% of the parser's instructions.
//!
//! The scan also finds the tail's *plain lines*: printable ASCII, SGR sequences and carriage
//! returns, ended by CR LF, with fewer bytes than the screen has columns (so they cannot wrap,
//! and leave the cursor in the first column). Over doomed plain lines the parser does not look
//! at each piece of text and each sequence: it counts their line feeds and sets the styles
//! from the last sequence that resets the pen ([`DoomedText::plain_lines`],
//! [`last_styles`]). The pieces were half of the log's parse once its cells were skipped.

use super::screen::Screen;

/// Where doomed text lies in one write.
#[derive(Clone, Debug)]
pub struct DoomedText {
    /// The clean tail starts here.
    clean_from: usize,
    /// Text before this offset has enough line feeds after it to scroll away.
    until: usize,
    /// The parser has parsed a line feed of the clean tail in the ground state.
    entered: bool,
    /// Runs of plain lines in the clean tail, in order: where each starts (just after a line
    /// feed, or at the tail's start) and where it ends (just after its last line feed).
    plain_runs: Vec<(usize, usize)>,
    /// The first run that may still be ahead of the parser.
    next_run: usize,
}

impl DoomedText {
    /// Looks at a write before it is parsed: `None` if none of its text can be doomed (judged
    /// on the screen as it is now, which only saves scanning writes too short to doom text;
    /// the parser decides on the screen as it is when it enters the clean tail).
    pub fn plan(screen: &Screen, bytes: &[u8]) -> Option<DoomedText> {
        let threshold = threshold(screen)?;
        // Frames and transcripts hold far fewer lines than a screen and its history. A write
        // of lines shorter than four bytes on average is passed over unscanned (such lines
        // cost little to write, and agents' frames of a few KB would otherwise all be counted:
        // 1.4% of the instructions replaying the Gemini CLI trace); counting line feeds
        // rejects the others for a tenth of what finding the clean tail costs.
        if bytes.len() <= 4 * threshold || line_feeds(bytes) <= threshold {
            return None;
        }
        let tail = clean_tail(bytes, screen.sx() as usize);
        (tail.line_feeds > threshold).then_some(DoomedText {
            clean_from: tail.start,
            until: 0,
            entered: false,
            plain_runs: tail.plain_runs,
            next_run: 0,
        })
    }

    /// The parser parsed the line feed at `at` in the ground state. Returns whether text after
    /// it may still be doomed.
    pub fn line_fed(&mut self, screen: &Screen, bytes: &[u8], at: usize) -> bool {
        if !self.entered && at >= self.clean_from {
            // What came before the clean tail may have changed the screen since the plan
            // (switched screens, resized the history by leaving the alternate screen, set a
            // scroll region): nothing in the tail can.
            self.entered = true;
            if let Some(threshold) = threshold(screen) {
                self.until = nth_line_feed_from_end(bytes, threshold);
            }
        }
        !self.entered || at < self.until
    }

    /// If text from `at` is doomed, where doomed text ends.
    pub fn until(&self, at: usize) -> Option<usize> {
        (self.entered && at < self.until).then_some(self.until)
    }

    /// If a line starting at `at` (just after a line feed) is plain, where the plain lines
    /// from it end (just after the last one's line feed). The parser asks in order.
    pub fn plain_lines(&mut self, at: usize) -> Option<usize> {
        while self.plain_runs.get(self.next_run)?.1 <= at {
            self.next_run += 1;
        }
        let (start, end) = self.plain_runs[self.next_run];
        (start <= at).then_some(end)
    }
}

/// How many line feeds must follow text on `screen` for it to scroll away, if any can.
fn threshold(screen: &Screen) -> Option<usize> {
    // On a one-line screen without history (the alternate screen) a line feed scrolls nothing
    // away: tmux moves no lines and clears none.
    let sy = screen.sy();
    if sy < 2 || screen.rupper != 0 || screen.rlower != sy - 1 {
        return None;
    }
    let grid = &screen.grid;
    Some(grid.hlimit.max(grid.hsize).max(1) as usize + 2 * sy as usize)
}

/// How many line feeds `bytes` holds, counted in blocks a byte counter holds (which the
/// compiler turns into vector instructions).
pub(super) fn line_feeds(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|block| block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n')) as usize)
        .sum()
}

/// What [`clean_tail`] finds.
#[derive(Debug, Default, PartialEq, Eq)]
struct CleanTail {
    start: usize,
    line_feeds: usize,
    /// Runs of plain lines (see the module's doc) in the tail.
    plain_runs: Vec<(usize, usize)>,
}

/// Where the clean tail of `bytes` starts, how many line feeds it holds and where its plain
/// lines are, for a screen `width` columns wide.
fn clean_tail(bytes: &[u8], width: usize) -> CleanTail {
    let mut scan = Scan {
        width,
        tail: CleanTail::default(),
        line_start: 0,
        line_plain: true,
    };
    let (words, rest) = bytes.as_chunks::<8>();
    // Eight bytes at a time, looking only at control bytes (and, while a line may be plain,
    // bytes that are not ASCII): most words of text hold none. Scanning byte by byte was a
    // quarter of the parser's time on the coloured log.
    for (i, word) in words.iter().enumerate() {
        let word = u64::from_le_bytes(*word);
        let mut marks = scan.marks(word);
        while marks != 0 {
            let bit = marks.trailing_zeros();
            marks &= marks - 1;
            if scan.classify(bytes, i * 8 + bit as usize / 8) {
                // A line starts within the word: its bytes that are not ASCII count too.
                marks |= scan.marks(word) & ((u64::MAX << bit) << 1);
            }
        }
    }
    for at in bytes.len() - rest.len()..bytes.len() {
        scan.classify(bytes, at);
    }
    scan.tail
}

/// The state of [`clean_tail`]'s scan.
struct Scan {
    width: usize,
    tail: CleanTail,
    /// Where the line being scanned starts, and whether it may still be plain.
    line_start: usize,
    line_plain: bool,
}

impl Scan {
    /// The bytes of `word` the scan looks at.
    #[inline]
    fn marks(&self, word: u64) -> u64 {
        // Without a branch: which way it goes changes from line to line.
        let plain = u64::from(self.line_plain).wrapping_neg();
        control_bytes(word) | (del_or_high_bytes(word) & plain)
    }

    /// Counts the byte at `at` into the clean tail as far as scanned. Returns whether a line
    /// starts after it.
    #[inline(always)]
    fn classify(&mut self, bytes: &[u8], at: usize) -> bool {
        let clean = match bytes[at] {
            b'\n' => {
                self.line_fed(bytes, at);
                return true;
            }
            b'\r' | 0x20..=0x7e => true,
            0x1b => match sgr_len(bytes, at) {
                Some(len) => {
                    self.line_plain &= len <= super::parser::PARAM_LIMIT;
                    true
                }
                None => false,
            },
            0x07 | 0x09 | 0x0b..=0x0f | 0x7f..=0xff => {
                self.line_plain = false;
                true
            }
            _ => false,
        };
        if !clean {
            self.tail = CleanTail {
                start: at + 1,
                ..CleanTail::default()
            };
            self.line_plain = false;
        }
        false
    }

    /// The line feed at `at` ends a line of the tail: plain ones join the last run when it
    /// ends where they start.
    fn line_fed(&mut self, bytes: &[u8], at: usize) {
        let tail = &mut self.tail;
        tail.line_feeds += 1;
        let plain = self.line_plain
            && at > self.line_start
            && bytes[at - 1] == b'\r'
            && at - self.line_start < self.width;
        if plain {
            match tail.plain_runs.last_mut() {
                Some(run) if run.1 == self.line_start => run.1 = at + 1,
                _ => tail.plain_runs.push((self.line_start, at + 1)),
            }
        }
        self.line_start = at + 1;
        self.line_plain = true;
    }
}

/// Marks the bytes of `word` below 0x20 (and perhaps a few others just above one of them,
/// through the borrow: callers look at each marked byte).
pub(super) fn control_bytes(word: u64) -> u64 {
    word.wrapping_sub(0x20 * ONES) & !word & HIGH_BITS
}

/// Marks the bytes of `word` that are DEL (0x7f) or above 0x7f (perhaps a few more above a
/// DEL, through the borrow).
pub(super) fn del_or_high_bytes(word: u64) -> u64 {
    let del = word ^ (0x7f * ONES);
    (del.wrapping_sub(ONES) & !del & HIGH_BITS) | (word & HIGH_BITS)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// If an SGR sequence (`ESC [`, parameters, `m`) starts at `at`, the length of its
/// parameters.
fn sgr_len(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at + 1) != Some(&b'[') {
        return None;
    }
    let len = sgr_params(&bytes[at..]).len();
    (bytes.get(at + 2 + len) == Some(&b'm')).then_some(len)
}

/// The parameters of what may be an SGR sequence at the start of `bytes` (`ESC [`, then
/// digits, `:` and `;`).
#[inline]
pub(super) fn sgr_params(bytes: &[u8]) -> &[u8] {
    // Most parameters fit in two words (`38;2;255;135;0`), looked at whole. A byte at a time, this
    // was a tenth of the coloured log's parse once its doomed lines were passed over.
    for from in [2, 10] {
        let Some(word) = bytes.get(from..from + 8) else {
            break;
        };
        let others = not_parameter_bytes(u64::from_le_bytes(word.try_into().unwrap()));
        if others != 0 {
            return &bytes[2..from + others.trailing_zeros() as usize / 8];
        }
    }
    long_sgr_params(bytes)
}

/// [`sgr_params`] past two words, or near the end of `bytes`.
#[cold]
fn long_sgr_params(bytes: &[u8]) -> &[u8] {
    let rest = &bytes[2.min(bytes.len())..];
    &rest[..rest.iter().take_while(|b| matches!(b, b'0'..=b';')).count()]
}

/// Marks the bytes of `word` that are not `0` to `;` (exactly: no borrow crosses a byte, as
/// each subtraction is from a byte with its high bit set).
fn not_parameter_bytes(word: u64) -> u64 {
    let at_least = |n: u64| (word | HIGH_BITS).wrapping_sub(n * ONES) & HIGH_BITS;
    let parameter = at_least(0x30) & !at_least(0x3c) & !word;
    !parameter & HIGH_BITS
}

/// Whether SGR parameters reset the pen (as they read before any other).
pub(super) fn resets_pen(params: &[u8]) -> bool {
    matches!(params, b"" | b"0")
}

/// Where, in clean bytes, the SGR sequences that decide the pen they leave start: the last that
/// resets it (`true`), or else the first (`false`); `None` if they hold none.
pub(super) fn last_styles(bytes: &[u8]) -> Option<(usize, bool)> {
    let mut first = None;
    for (at, _) in bytes.iter().enumerate().rev().filter(|&(_, &b)| b == 0x1b) {
        if resets_pen(sgr_params(&bytes[at..])) {
            return Some((at, true));
        }
        first = Some(at);
    }
    first.map(|at| (at, false))
}

/// The offset of the line feed that has `n` line feeds from it to the end (itself included);
/// 0 if `bytes` holds fewer.
fn nth_line_feed_from_end(bytes: &[u8], n: usize) -> usize {
    let mut seen = 0;
    for (at, &b) in bytes.iter().enumerate().rev() {
        if b == b'\n' {
            seen += 1;
            if seen == n {
                return at;
            }
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{CaptureOptions, LineSpec, Terminal};

    fn clean_from(bytes: &[u8]) -> usize {
        clean_tail(bytes, 80).start
    }

    fn start_and_line_feeds(bytes: &[u8]) -> (usize, usize) {
        let tail = clean_tail(bytes, 80);
        (tail.start, tail.line_feeds)
    }

    #[test]
    fn the_clean_tail_starts_after_the_last_byte_that_could_move_the_cursor_up() {
        assert_eq!(clean_from(b"ab\x1b[1;31mc\r\nd\x1b[m"), 0);
        // The scan takes `[2A` for text: the parser enters the tail only at a line feed it
        // parsed in the ground state, after the sequence.
        assert_eq!(clean_from(b"ab\x1b[2Ac\r\n"), 3);
        assert_eq!(clean_from(b"ab\x08c"), 3);
        // A private marker or an intermediate makes it something else than SGR.
        assert_eq!(clean_from(b"a\x1b[?1mb"), 2);
        assert_eq!(clean_from(b"a\x1b[1 mb"), 2);
        // Text that only looks like the end of one is text.
        assert_eq!(clean_from(b"x[1m\n"), 0);
        assert_eq!(clean_from(b"\x1b\x1b[1m"), 1);
        assert_eq!(clean_from(b"a\x1b"), 2);
        // Found in whole words and in the bytes after them, past false marks of the borrow.
        let mut long = b"\x1b[1m0123456 \x1f \n\x1b[m".repeat(3);
        long.extend_from_slice(b"\x05 \x20\n\x20\n");
        assert_eq!(start_and_line_feeds(&long), (long.len() - 5, 2));
        long.pop();
        assert_eq!(start_and_line_feeds(&long), (long.len() - 4, 1));
        // A sequence cut short is not clean.
        long.truncate(long.len() - 7);
        assert_eq!(start_and_line_feeds(&long), (long.len(), 0));
    }

    #[test]
    fn sgr_parameters_are_found_a_word_at_a_time_as_a_byte_at_a_time() {
        let bytewise = |b: &[u8]| {
            b[2..]
                .iter()
                .take_while(|b| matches!(b, b'0'..=b';'))
                .count()
        };
        let mut cases: Vec<Vec<u8>> = vec![b"\x1b[m".to_vec(), b"\x1b[".to_vec(), b"\x1b".to_vec()];
        for len in 0..20 {
            for end in [b'm', b'/', b'<', b'?', 0x80, 0xbb, b'\x1b', b'0'] {
                let mut seq = b"\x1b[".to_vec();
                seq.extend((0..len).map(|i| b"0123456789:;"[i % 12]));
                seq.push(end);
                seq.extend_from_slice(b"12m");
                cases.push(seq);
            }
        }
        for case in &cases {
            let want = if case.len() < 2 { 0 } else { bytewise(case) };
            assert_eq!(sgr_params(case).len(), want, "{case:?}");
        }
        assert!((0..=255u8).all(|b| {
            let word = u64::from_le_bytes([b'1', b, b'2', b'3', b'4', b'5', b'6', b'7']);
            (not_parameter_bytes(word) == 0) == matches!(b, b'0'..=b';')
        }));
    }

    #[test]
    fn plain_lines_are_ascii_styles_and_returns_ended_by_cr_lf_and_narrower_than_the_screen() {
        let runs = |bytes: &[u8]| clean_tail(bytes, 10).plain_runs;
        let lines: [&[u8]; 8] = [
            b"ab\x1b[1mc\r\n",       // 0..9 plain
            b"\r\n",                 // 9..11 plain (empty)
            b"x\rabc\r\n",           // 11..18 plain (a return within)
            b"abc\n",                // 18..22: no return before the line feed
            b"a\tb\r\n",             // 22..27: a tab
            b"123456789\r\n", // 27..38: ten bytes before the line feed, as wide as the screen
            "\u{e9}\r\n".as_bytes(), // 38..42: not ASCII
            b"12345678\r\n",  // 42..52 plain
        ];
        let log = lines.concat();
        assert_eq!(runs(&log), [(0, 18), (42, 52)]);
        // A line that is not clean ends the tail, and the runs before it with it.
        let mut jolted = log.clone();
        jolted.extend_from_slice(b"\x1b[Ab\r\nc\r\n");
        assert_eq!(runs(&jolted), [(58, 61)]);
        // Long parameters are left to the parser.
        let long = format!("\x1b[{}m\r\n", "1;".repeat(40));
        assert_eq!(clean_tail(long.as_bytes(), 200).plain_runs, []);
        // Lines that start within a word of bytes that are not ASCII are looked at whole.
        assert_eq!(runs("\u{e9}\n\u{e9}\r\na\r\n".as_bytes()), [(7, 10)]);
    }

    #[test]
    fn text_is_doomed_until_the_line_feeds_left_could_not_scroll_it_away() {
        // 4 history lines and two screens: 10 line feeds must follow doomed text.
        let screen = Screen::new(10, 3, 4);
        let bytes = b"x\n".repeat(30);
        let lf = |n: usize| 1 + 2 * n;
        let mut doomed = DoomedText::plan(&screen, &bytes).unwrap();
        assert_eq!(doomed.until(0), None);
        assert!(doomed.line_fed(&screen, &bytes, lf(0)));
        assert_eq!(doomed.until(lf(0) + 1), Some(lf(20)));
        // 30 line feeds: the 21st (lf(20)) has 10 from it to the end.
        assert_eq!(doomed.until(lf(20) - 1), Some(lf(20)));
        assert_eq!(doomed.until(lf(20)), None);
        assert!(!doomed.line_fed(&screen, &bytes, lf(20)));
        // Nothing is doomed before the clean tail.
        let mut jolted = b"x\n\x1b[A".to_vec();
        jolted.extend_from_slice(&bytes);
        let mut doomed = DoomedText::plan(&screen, &jolted).unwrap();
        assert!(doomed.line_fed(&screen, &jolted, 1));
        assert_eq!(doomed.until(2), None);
        assert!(doomed.line_fed(&screen, &jolted, 6));
        assert!(doomed.until(7).is_some());
        // Decided on the screen as it is at the tail: with a scroll region set since the
        // plan, nothing is doomed.
        let mut doomed = DoomedText::plan(&screen, &bytes).unwrap();
        let mut regioned = Screen::new(10, 3, 4);
        regioned.set_scroll_region(0, 1);
        assert!(!doomed.line_fed(&regioned, &bytes, lf(0)));
        assert_eq!(doomed.until(lf(0) + 1), None);
    }

    /// Feeds `log` whole (its doomed text not written) and a line at a time (every line
    /// written: no read holds enough lines to doom any) to two terminals made alike by `setup`,
    /// and compares everything `capture-pane -e -S - -E -` prints, and the cursor.
    fn assert_whole_reads_as_by_line(
        new: (u32, u32, u32),
        setup: impl Fn(&mut Terminal),
        log: &[u8],
    ) {
        let opts = CaptureOptions {
            start: Some(LineSpec::Edge),
            end: Some(LineSpec::Edge),
            escapes: true,
            ..Default::default()
        };
        let seen = |feed: &dyn Fn(&mut Terminal)| {
            let mut t = Terminal::new(new.0, new.1, new.2);
            setup(&mut t);
            feed(&mut t);
            (t.capture(&opts), t.cursor())
        };
        let whole = seen(&|t| t.feed(log));
        let by_line = seen(&|t| log.split_inclusive(|&b| b == b'\n').for_each(|l| t.feed(l)));
        assert_eq!(whole, by_line);
    }

    fn numbered_lines(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| format!("line {i}\r\n").into_bytes())
            .collect()
    }

    #[test]
    fn styles_set_in_doomed_text_carry_on_after_it() {
        // Green and underlined, then lines that set red, then bold, then lines that set
        // nothing: these show the pen the doomed lines left, which must be as written a line
        // at a time (a reset drops what came before it).
        for (sgrs, after) in [
            (b"t\x1b[31mr\x1b[1mb\r\n".as_slice(), b"\x1b[4mu".as_slice()),
            (b"t\x1b[31mr\x1b[0m\x1b[1mb\r\n", b"u"),
            (b"t\x1b[31mr\x1b[00m\x1b[1mb\r\n", b"u"),
            (b"t\x1b[31mr\x1b[1m\x1b[mb\r\n", b"u"),
            (b"t\x1b[31mr\x1b[;1mb\r\n", b"u"),
        ] {
            let mut log = b"\x1b[32;4mg\r\n".to_vec();
            log.extend_from_slice(&sgrs.repeat(300));
            log.extend_from_slice(&b"plain\r\n".repeat(120));
            log.extend_from_slice(after);
            assert_whole_reads_as_by_line((20, 5, 100), |_| {}, &log);
        }
    }

    /// Line feeds over doomed text scroll the screen together, between what must touch the
    /// rows: text that wraps, characters the doomed loop leaves to the parser (UTF-8, a tab),
    /// the end of the doomed text. The history's trims, the lines' background and the
    /// history's size must be those of scrolling a line at a time.
    #[test]
    fn line_feeds_over_doomed_text_scroll_together_as_one_by_one() {
        let mut log = b"\x1b[44m".to_vec();
        for i in 0..700 {
            match i % 7 {
                0 => log.extend_from_slice(&b"w".repeat(35)),
                1 => log.extend_from_slice("\u{4e2d}\u{6587}".as_bytes()),
                2 => log.extend_from_slice(b"a\tb"),
                _ => log.extend_from_slice(format!("{i}").as_bytes()),
            }
            log.extend_from_slice(if i % 3 == 0 { b"\n" } else { b"\r\n" });
        }
        for hlimit in [0, 1, 9, 23, 100] {
            assert_whole_reads_as_by_line((16, 5, hlimit), |_| {}, &log);
            let size = |feed: &dyn Fn(&mut Terminal)| {
                let mut t = Terminal::new(16, 5, hlimit);
                feed(&mut t);
                t.history_size()
            };
            let whole = size(&|t| t.feed(&log));
            let by_line = size(&|t| log.split_inclusive(|&b| b == b'\n').for_each(|l| t.feed(l)));
            assert_eq!(whole, by_line, "history limit {hlimit}");
        }
    }

    /// Plain lines (see the module's doc) are passed over whole, between lines the doomed loop
    /// passes over piece by piece; the end of the doomed text may fall within a run of them.
    #[test]
    fn plain_lines_passed_over_whole_leave_what_they_leave_line_by_line() {
        let mut log = Vec::new();
        for i in 0..900 {
            match i % 11 {
                0 => log.extend_from_slice(b"\x1b[41mred ground"),
                1 => log.extend_from_slice(b"\x1b[m"),
                2 => log.extend_from_slice(b"wraps past the edge of the screen"),
                3 => log.extend_from_slice(b"\x1b[1;4mbold\x1b[22m"),
                4 => log.extend_from_slice("\u{4e2d}".as_bytes()),
                5 => log.extend_from_slice(b"\x0e"),
                6 => log.extend_from_slice(b"\x0f"),
                _ => log.extend_from_slice(format!("{i}\x1b[3{}m.", i % 8).as_bytes()),
            }
            log.extend_from_slice(if i % 13 == 0 { b"\n" } else { b"\r\n" });
        }
        for (hlimit, tail) in [(0, 0), (7, 3), (50, 1), (100, 5)] {
            let mut log = log.clone();
            log.extend_from_slice(&b"x\r\n".repeat(tail));
            log.extend_from_slice(b"end");
            assert_whole_reads_as_by_line((24, 6, hlimit), |_| {}, &log);
        }
        // From the screen's last line on, the first lines plain: the styles they set without a
        // reset are the pen's.
        let log = [
            b"a\r\n\x1b[4mb\x1b[35mc\r\n".to_vec(),
            b"x\r\n".repeat(60),
            b"end".to_vec(),
        ];
        let fill = |t: &mut Terminal| t.feed(&b"\r\n".repeat(10));
        assert_whole_reads_as_by_line((24, 6, 7), fill, &log.concat());
    }

    #[test]
    fn a_history_a_resize_left_past_its_limit_keeps_doomed_text_longer() {
        // Eleven wrapped lines of 40 columns reflowed to 10 columns: 39 history lines for a
        // limit of 10, which each scroll trims by one line only.
        let setup = |t: &mut Terminal| {
            t.feed(&b"0123456789".repeat(4 * 30));
            t.resize(10, 5);
            assert_eq!(t.history_size(), 39);
        };
        assert_whole_reads_as_by_line((40, 1, 10), setup, &numbered_lines(60));
    }

    #[test]
    fn leaving_the_alternate_screen_in_the_write_decides_on_the_primary_screen() {
        // The write plans on the alternate screen and enters its tail on the primary one,
        // whose history the resize left past its limit.
        let mut log = b"\x1b[?1049l".to_vec();
        log.extend(numbered_lines(40));
        let setup = |t: &mut Terminal| {
            t.feed(&b"0123456789".repeat(4 * 30));
            t.feed(b"\x1b[?1049h");
            t.resize(10, 5);
        };
        assert_whole_reads_as_by_line((40, 24, 2), setup, &log);
    }

    #[test]
    fn short_writes_one_line_screens_and_scroll_regions_doom_nothing() {
        let mut screen = Screen::new(10, 3, 4);
        // 10 line feeds must follow doomed text: 10 lines cannot doom any, 11 can; lines of
        // fewer than four bytes on average are not looked at.
        assert!(DoomedText::plan(&screen, &b"xyz\n".repeat(10)).is_none());
        assert!(DoomedText::plan(&screen, &b"xyz\n".repeat(11)).is_some());
        assert!(DoomedText::plan(&screen, &b"xy\n".repeat(11)).is_none());
        assert!(DoomedText::plan(&Screen::new(10, 1, 4), &b"x\n".repeat(30)).is_none());
        screen.set_scroll_region(0, 1);
        assert!(DoomedText::plan(&screen, &b"x\n".repeat(30)).is_none());
    }
}
