//! The output parser: turns the bytes a program writes into screen operations.
//!
//! The state machine is tmux 3.3a's (input.c): the same states, the same byte ranges, the same
//! tables of escape and control sequences, the same limits (63 parameter bytes, 23 parameters,
//! three intermediate bytes, 1 MiB strings) and the same handling of malformed input, so that
//! whatever a program writes, the screen ends up as tmux's does. Answers to queries (DSR, DA,
//! XTVERSION, window size) are collected as bytes for the caller to write back to the program.
//!
//! Fast paths handle the common cases without stepping the state machine byte by byte: runs of
//! printable ASCII, UTF-8 characters, and complete CSI sequences found whole in the input.
//!
//! Invariants: every buffer is bounded (parameters by tmux's sizes, strings by
//! [`STRING_LIMIT`], pending bytes by [`PENDING_LIMIT`]); no input can make the parser panic.

use super::cell::{attr, colour, Style};
use super::doomed::{
    control_bytes, del_or_high_bytes, last_styles, line_feeds, resets_pen, sgr_params, DoomedText,
};
use super::screen::{mode, Screen};
use super::sgr::{self, SgrEffect};
use super::width::tmux_width;

/// Longest OSC/APC string kept, as tmux (longer strings are discarded whole).
const STRING_LIMIT: usize = 1 << 20;
/// Bytes of an unfinished sequence kept for `capture-pane -P`.
const PENDING_LIMIT: usize = 64 * 1024;
pub(super) const PARAM_LIMIT: usize = 63;
const INTERM_LIMIT: usize = 3;
const MAX_PARAMS: usize = 24;
/// What XTVERSION reports; tools that check the terminal's version see tmux's.
pub const XTVERSION: &str = "tmux 3.3a";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Ground,
    EscEnter,
    EscIntermediate,
    CsiEnter,
    CsiParameter,
    CsiIntermediate,
    CsiIgnore,
    DcsEnter,
    DcsParameter,
    DcsIntermediate,
    DcsHandler,
    DcsEscape,
    DcsIgnore,
    OscString,
    ApcString,
    RenameString,
    ConsumeSt,
}

/// The pen and character sets (tmux's `input_cell`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pen {
    style: Style,
    /// SO selected G1.
    shifted: bool,
    g0_graphics: bool,
    g1_graphics: bool,
}

impl Pen {
    const DEFAULT: Pen = Pen {
        style: Style::DEFAULT,
        shifted: false,
        g0_graphics: false,
        g1_graphics: false,
    };

    fn graphics(&self) -> bool {
        if self.shifted {
            self.g1_graphics
        } else {
            self.g0_graphics
        }
    }
}

/// DECSC state.
#[derive(Clone, Copy, Debug)]
struct Saved {
    pen: Pen,
    cx: u32,
    cy: u32,
    origin: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Param {
    Missing,
    Number(i32),
    /// A parameter with colons (ISO 8613-6 subparameters), kept as its byte range.
    Sub(u8, u8),
}

/// A partly read UTF-8 character.
#[derive(Clone, Copy, Debug, Default)]
struct Utf8 {
    buf: [u8; 4],
    have: u8,
    size: u8,
    bad: bool,
}

#[derive(Clone, Debug)]
pub struct Parser {
    state: State,
    pen: Pen,
    saved: Saved,
    interm: [u8; INTERM_LIMIT],
    interm_len: usize,
    params: [u8; PARAM_LIMIT],
    params_len: usize,
    discard: bool,
    string: Vec<u8>,
    /// OSC whose text is not needed: only its number is kept.
    string_skip: bool,
    /// Last printable ASCII byte written, for REP.
    last: Option<u8>,
    utf8: Option<Utf8>,
    pending: Vec<u8>,
    replies: Vec<u8>,
    /// Text of the write being parsed that scrolls away before it ends.
    doomed: Option<DoomedText>,
}

impl Default for Parser {
    fn default() -> Self {
        Parser::new()
    }
}

/// Printable UTF-8 as tmux's `utf8_isvalid` judges it (titles must pass this).
pub fn is_printable_utf8(s: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(s) else {
        return false;
    };
    text.chars().all(|c| {
        if (c as u32) < 0x80 {
            (' '..='~').contains(&c)
        } else {
            tmux_width(c).is_some()
        }
    })
}

impl Parser {
    pub fn new() -> Parser {
        Parser {
            state: State::Ground,
            pen: Pen::DEFAULT,
            saved: Saved {
                pen: Pen::DEFAULT,
                cx: 0,
                cy: 0,
                origin: false,
            },
            interm: [0; INTERM_LIMIT],
            interm_len: 0,
            params: [0; PARAM_LIMIT],
            params_len: 0,
            discard: false,
            string: Vec::new(),
            string_skip: false,
            last: None,
            utf8: None,
            pending: Vec::new(),
            replies: Vec::new(),
            doomed: None,
        }
    }

    /// Bytes to write back to the program (answers to its queries), in order.
    pub fn take_replies(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.replies)
    }

    pub fn replies(&self) -> &[u8] {
        &self.replies
    }

    /// The parser is inside a string (OSC, DCS, APC, PM, SOS or a window name) that has not
    /// been terminated. tmux gives up on such a string after five seconds; the host measures
    /// the time and calls [`Parser::abandon_string`].
    pub fn in_string(&self) -> bool {
        use State::*;
        matches!(
            self.state,
            DcsEnter
                | DcsParameter
                | DcsIntermediate
                | DcsHandler
                | DcsEscape
                | DcsIgnore
                | OscString
                | ApcString
                | RenameString
                | ConsumeSt
        )
    }

    /// Drops an unterminated string and returns to the ground state, resetting the pen and the
    /// saved cursor as tmux's input timer does.
    pub fn abandon_string(&mut self) {
        self.pen = Pen::DEFAULT;
        self.saved = Saved {
            pen: Pen::DEFAULT,
            cx: 0,
            cy: 0,
            origin: self.saved.origin,
        };
        self.clear();
        self.last = None;
        self.state = State::Ground;
        self.pending.clear();
        self.string = Vec::new();
    }

    /// Bytes of an escape sequence not finished yet (`capture-pane -P`).
    pub fn pending(&self) -> &[u8] {
        &self.pending
    }

    pub fn heap_bytes(&self) -> usize {
        self.string.capacity() + self.pending.capacity() + self.replies.capacity()
    }

    /// Gives back the spare room of the buffers (a quiet terminal keeps only what they hold).
    pub fn shrink(&mut self) {
        self.string.shrink_to_fit();
        self.pending.shrink_to_fit();
        self.replies.shrink_to_fit();
    }

    /// Parses `bytes` into `screen`.
    pub fn feed(&mut self, screen: &mut Screen, bytes: &[u8]) {
        self.doomed = DoomedText::plan(screen, bytes);
        let mut i = 0;
        while i < bytes.len() {
            if self.state == State::Ground {
                i = self.ground_fast(screen, bytes, i);
                if i >= bytes.len() {
                    break;
                }
            }
            let b = bytes[i];
            i += 1;
            self.step(screen, b);
        }
        self.doomed = None;
    }

    /// Consumes what the fast paths can of `bytes` from `at` (in the ground state) and returns
    /// where it stopped: there the next byte needs the state machine.
    fn ground_fast(&mut self, screen: &mut Screen, bytes: &[u8], mut at: usize) -> usize {
        loop {
            let rest = &bytes[at..];
            let Some(&b) = rest.first() else {
                return at;
            };
            // Not while a UTF-8 character is unfinished: the doomed loop keeps no such state.
            let doomed = self.doomed.as_ref().filter(|_| self.utf8.is_none());
            if let Some(until) = doomed.and_then(|d| d.until(at)) {
                let end = self.pass_doomed(screen, bytes, at, until);
                if end > at {
                    at = end;
                    continue;
                }
            }
            let n = match b {
                0x20..=0x7e if self.utf8.is_none() => self.print_run(screen, rest),
                0x80..=0xff => self.utf8_run(screen, rest),
                0x1b if rest.get(1) == Some(&b'[') => self.csi_whole(screen, rest),
                b'\n' => {
                    self.c0(screen, b);
                    if let Some(d) = &mut self.doomed {
                        if !d.line_fed(screen, bytes, at) {
                            self.doomed = None;
                        }
                    }
                    1
                }
                b'\r' => {
                    self.c0(screen, b);
                    1
                }
                _ => 0,
            };
            if n == 0 {
                return at;
            }
            at += n;
        }
    }

    /// Parses doomed text (see `doomed.rs`) from `at` to `until` at most, in the ground state
    /// with no UTF-8 character unfinished (none is when it returns): text only moves the
    /// cursor, and styles are set once, as the loop ends, by the SGR sequences from the last
    /// that resets the pen on (nothing reads the pen meanwhile but writes to doomed rows).
    /// Stops early at a byte it leaves to the other paths (UTF-8, SO, SI, TAB...), which
    /// handle doomed text as any other; returns where it stopped.
    fn pass_doomed(
        &mut self,
        screen: &mut Screen,
        bytes: &[u8],
        mut at: usize,
        until: usize,
    ) -> usize {
        let mut styles_from = None;
        // Line feeds that scroll the screen are counted, and scrolled together before
        // anything else touches the rows.
        let mut scrolls = 0u32;
        let bg = self.pen.style.bg;
        let scroll = |screen: &mut Screen, scrolls: &mut u32| {
            if *scrolls > 0 {
                screen.scroll_screen_up(std::mem::take(scrolls), bg);
            }
        };
        while at < until {
            if let Some(end) = self.plain_lines(screen, bytes, at) {
                // Plain lines only scroll, and leave the cursor in the first column.
                let end = end.min(until);
                scrolls += line_feeds(&bytes[at..end]) as u32;
                match last_styles(&bytes[at..end]) {
                    Some((from, true)) => styles_from = Some(at + from),
                    Some((from, false)) => _ = styles_from.get_or_insert(at + from),
                    None => {}
                }
                self.utf8 = None;
                self.last = None;
                at = end;
                continue;
            }
            match bytes[at] {
                0x20..=0x7e if self.collects(screen) => {
                    let n = printable_len(&bytes[at..until]);
                    if screen.cx as usize + n >= screen.sx() as usize {
                        scroll(screen, &mut scrolls);
                    }
                    screen.pass_over_ascii(n);
                    at += n;
                    self.last = Some(bytes[at - 1]);
                }
                b'\n' if screen.scrolls_screen() => {
                    scrolls += 1;
                    self.utf8 = None;
                    self.last = None;
                    at += 1;
                }
                b @ (b'\r' | b'\n') => {
                    self.c0(screen, b);
                    at += 1;
                }
                // Every escape in the clean tail starts an SGR sequence.
                0x1b => {
                    let params = sgr_params(&bytes[at..]);
                    if params.len() > PARAM_LIMIT {
                        break;
                    }
                    if resets_pen(params) {
                        styles_from = Some(at);
                    } else {
                        styles_from.get_or_insert(at);
                    }
                    at += params.len() + 3;
                }
                _ => break,
            }
        }
        scroll(screen, &mut scrolls);
        if let Some(from) = styles_from {
            let mut esc = from;
            while let Some(i) = bytes[esc..at].iter().position(|&b| b == 0x1b) {
                esc += i;
                esc += self.csi_whole(screen, &bytes[esc..]);
            }
        }
        at
    }

    /// If doomed text at `at` starts plain lines (see `doomed.rs`) that the parser may pass
    /// over whole, where they end: the cursor must be in the first column of the screen's last
    /// line, where each line feed scrolls, and their text must be what [`Parser::pass_doomed`]
    /// passes over.
    fn plain_lines(&mut self, screen: &Screen, bytes: &[u8], at: usize) -> Option<usize> {
        let at_line_start = at > 0 && bytes[at - 1] == b'\n' && screen.cx == 0;
        if !at_line_start || !screen.scrolls_screen() || !self.collects(screen) {
            return None;
        }
        self.doomed.as_mut()?.plain_lines(at)
    }

    /// Printable ASCII is written as collected runs (tmux's collected writes).
    fn collects(&self, screen: &Screen) -> bool {
        !self.pen.graphics() && screen.mode & mode::WRAP != 0 && screen.mode & mode::INSERT == 0
    }

    fn print_run(&mut self, screen: &mut Screen, bytes: &[u8]) -> usize {
        let n = printable_len(bytes);
        let run = &bytes[..n];
        if self.collects(screen) {
            let style = screen.style_index(&self.pen.style);
            screen.write_ascii(style, run);
            self.last = run.last().copied();
        } else {
            for &b in run {
                self.print(screen, b);
            }
        }
        n
    }

    /// Prints UTF-8 characters while the input holds them whole. A run of one repeated
    /// narrow character (the rules agent TUIs draw, 220 `─` at a time) is written as one fill.
    fn utf8_run(&mut self, screen: &mut Screen, bytes: &[u8]) -> usize {
        let mut used = 0;
        while used < bytes.len() && bytes[used] >= 0x80 && self.utf8.is_none() {
            let Some((decoded, size)) = decode_utf8(&bytes[used..]) else {
                break;
            };
            self.last = None;
            let seq = &bytes[used..used + size];
            used += size;
            let Some(c) = decoded else { continue };
            match tmux_width(c) {
                None => {}
                Some(1) if c != '\u{200d}' => {
                    let more = repeats(&bytes[used..], seq);
                    used += more * size;
                    let n = more + 1;
                    let style = screen.style_index(&self.pen.style);
                    screen.write_narrow(c, style, n);
                }
                Some(width) => {
                    let style = screen.style_index(&self.pen.style);
                    screen.write_cell(c, width as u32, style);
                }
            }
        }
        used
    }

    /// Dispatches a CSI sequence found complete at the start of `bytes`; 0 if it is not whole
    /// or holds anything but parameters, intermediates and a final byte.
    #[inline]
    fn csi_whole(&mut self, screen: &mut Screen, bytes: &[u8]) -> usize {
        let mut i = 2;
        let mut interm_len = 0;
        let mut interm = [0u8; INTERM_LIMIT];
        if let Some(&p @ 0x3c..=0x3f) = bytes.get(i) {
            interm[0] = p;
            interm_len = 1;
            i += 1;
        }
        let params_start = i;
        while let Some(b'0'..=b';') = bytes.get(i) {
            i += 1;
        }
        let params_end = i;
        while let Some(&b @ 0x20..=0x2f) = bytes.get(i) {
            if interm_len == INTERM_LIMIT {
                return 0;
            }
            interm[interm_len] = b;
            interm_len += 1;
            i += 1;
        }
        let Some(&fin @ 0x40..=0x7e) = bytes.get(i) else {
            return 0;
        };
        let params = &bytes[params_start..params_end];
        if params.len() > PARAM_LIMIT {
            return 0;
        }
        if fin == b'm' && interm_len == 0 {
            if let Some(effect) = self.sgr_effect(screen, &bytes[params_start..], params.len()) {
                effect.apply(&mut self.pen.style);
                // As every sequence `csi_dispatch` handles.
                self.last = None;
                return i + 1;
            }
        }
        self.dispatch_whole(screen, params, interm, interm_len, fin);
        i + 1
    }

    fn dispatch_whole(
        &mut self,
        screen: &mut Screen,
        params: &[u8],
        interm: [u8; INTERM_LIMIT],
        interm_len: usize,
        fin: u8,
    ) {
        self.params[..params.len()].copy_from_slice(params);
        self.params_len = params.len();
        self.interm = interm;
        self.interm_len = interm_len;
        self.discard = false;
        self.csi_dispatch(screen, fin);
    }

    /// What the SGR sequence whose `len` parameter bytes start `input` does to the pen (see
    /// `sgr.rs`), found by dispatching it on the probe styles if it is not remembered. None for
    /// a sequence that is ignored whole (its parameters overflow): it does not even forget the
    /// last character.
    #[inline]
    fn sgr_effect(&mut self, screen: &mut Screen, input: &[u8], len: usize) -> Option<SgrEffect> {
        sgr::remembered(input, len, || self.find_sgr_effect(screen, &input[..len]))
    }

    /// What the SGR sequence with parameters `params` does to the pen, found by dispatching it
    /// on the probe styles. Out of line: it runs once a sequence, and inlined its three
    /// dispatches would bloat the loop `sgr::remembered` is inlined into.
    #[inline(never)]
    fn find_sgr_effect(&mut self, screen: &mut Screen, params: &[u8]) -> Option<SgrEffect> {
        let (pen, last) = (self.pen.style, self.last);
        let mut handled = true;
        let results = SgrEffect::PROBES.map(|probe| {
            (self.pen.style, self.last) = (probe, Some(b'x'));
            self.dispatch_whole(screen, params, [0; INTERM_LIMIT], 0, b'm');
            handled &= self.last.is_none();
            self.pen.style
        });
        (self.pen.style, self.last) = (pen, last);
        handled.then(|| SgrEffect::from_probes(results)).flatten()
    }

    fn step(&mut self, screen: &mut Screen, b: u8) {
        use State::*;
        let state = self.state;
        // Transitions available from all states but the DCS string ones.
        if !matches!(state, DcsHandler | DcsEscape) {
            match b {
                0x18 | 0x1a => {
                    self.c0(screen, b);
                    self.set_state(screen, Ground);
                    return;
                }
                0x1b => {
                    self.set_state(screen, EscEnter);
                    self.save_pending(b);
                    return;
                }
                _ => {}
            }
        }
        let c0 = matches!(b, 0x00..=0x17 | 0x19 | 0x1c..=0x1f);
        let next = match state {
            Ground => {
                match b {
                    _ if c0 => self.c0(screen, b),
                    0x20..=0x7e => self.print(screen, b),
                    0x80..=0xff => self.top_bit(screen, b),
                    _ => {}
                }
                None
            }
            EscEnter => match b {
                _ if c0 => {
                    self.c0(screen, b);
                    None
                }
                0x20..=0x2f => {
                    self.intermediate(b);
                    Some(EscIntermediate)
                }
                b'P' => Some(DcsEnter),
                b'X' | b'^' => Some(ConsumeSt),
                b'[' => Some(CsiEnter),
                b']' => Some(OscString),
                b'_' => Some(ApcString),
                b'k' => Some(RenameString),
                0x30..=0x7e => {
                    self.esc_dispatch(screen, b);
                    Some(Ground)
                }
                _ => None,
            },
            EscIntermediate => match b {
                _ if c0 => {
                    self.c0(screen, b);
                    None
                }
                0x20..=0x2f => {
                    self.intermediate(b);
                    None
                }
                0x30..=0x7e => {
                    self.esc_dispatch(screen, b);
                    Some(Ground)
                }
                _ => None,
            },
            CsiEnter | CsiParameter | CsiIntermediate => self.csi_byte(screen, state, b, c0),
            CsiIgnore => match b {
                _ if c0 => {
                    self.c0(screen, b);
                    None
                }
                0x40..=0x7e => Some(Ground),
                _ => None,
            },
            DcsEnter | DcsParameter | DcsIntermediate => self.dcs_byte(state, b),
            DcsHandler => match b {
                0x1b => Some(DcsEscape),
                _ => None,
            },
            DcsEscape => match b {
                b'\\' => Some(Ground),
                _ => Some(DcsHandler),
            },
            DcsIgnore | ConsumeSt => None,
            OscString => match b {
                0x07 => Some(Ground),
                0x20..=0xff => {
                    self.string_byte(b);
                    None
                }
                _ => None,
            },
            ApcString | RenameString => {
                if b >= 0x20 {
                    self.string_byte(b);
                }
                None
            }
        };
        if let Some(next) = next {
            self.set_state(screen, next);
        }
        self.save_pending(b);
    }

    fn save_pending(&mut self, b: u8) {
        if self.state != State::Ground && self.pending.len() < PENDING_LIMIT {
            self.pending.push(b);
        }
    }

    fn csi_byte(&mut self, screen: &mut Screen, state: State, b: u8, c0: bool) -> Option<State> {
        use State::*;
        match b {
            _ if c0 => {
                self.c0(screen, b);
                None
            }
            0x20..=0x2f => {
                self.intermediate(b);
                Some(CsiIntermediate)
            }
            0x30..=0x3b if state != CsiIntermediate => {
                self.parameter(b);
                Some(CsiParameter)
            }
            0x3c..=0x3f if state == CsiEnter => {
                self.intermediate(b);
                Some(CsiParameter)
            }
            0x30..=0x3f => Some(CsiIgnore),
            0x40..=0x7e => {
                self.csi_dispatch(screen, b);
                Some(Ground)
            }
            _ => None,
        }
    }

    fn dcs_byte(&mut self, state: State, b: u8) -> Option<State> {
        use State::*;
        match b {
            0x20..=0x2f => {
                self.intermediate(b);
                Some(DcsIntermediate)
            }
            0x30..=0x39 | 0x3b if state != DcsIntermediate => {
                self.parameter(b);
                Some(DcsParameter)
            }
            0x3c..=0x3f if state == DcsEnter => {
                self.intermediate(b);
                Some(DcsParameter)
            }
            0x30..=0x3f => Some(DcsIgnore),
            0x40..=0x7e => Some(DcsHandler),
            _ => None,
        }
    }

    fn set_state(&mut self, screen: &mut Screen, next: State) {
        match self.state {
            State::OscString => self.osc_dispatch(screen),
            State::ApcString if !self.discard => {
                screen.set_title(&self.string);
            }
            _ => {}
        }
        self.state = next;
        match next {
            State::Ground => {
                self.pending.clear();
                if self.string.capacity() > 32 {
                    self.string = Vec::new();
                }
                if self.pending.capacity() > 256 {
                    self.pending = Vec::new();
                }
            }
            State::EscEnter | State::CsiEnter => self.clear(),
            State::DcsEnter
            | State::OscString
            | State::ApcString
            | State::RenameString
            | State::ConsumeSt => {
                self.clear();
                self.last = None;
            }
            _ => {}
        }
    }

    fn clear(&mut self) {
        self.interm_len = 0;
        self.params_len = 0;
        self.string.clear();
        self.string_skip = false;
        self.discard = false;
    }

    fn intermediate(&mut self, b: u8) {
        self.discard |= !push_bounded(&mut self.interm, &mut self.interm_len, b);
    }

    fn parameter(&mut self, b: u8) {
        self.discard |= !push_bounded(&mut self.params, &mut self.params_len, b);
    }

    fn string_byte(&mut self, b: u8) {
        if self.string_skip {
            return;
        }
        if self.string.len() + 1 >= STRING_LIMIT {
            self.discard = true;
            return;
        }
        self.string.push(b);
        // Only a few OSCs are acted on; for the rest (hyperlinks, clipboard, colours) keep the
        // number and drop the text instead of buffering it.
        let head = &self.string[..self.string.len() - 1];
        if self.state == State::OscString
            && !b.is_ascii_digit()
            && head.iter().all(u8::is_ascii_digit)
        {
            let number = osc_number(head);
            if !matches!(number, Some(0 | 2 | 7)) {
                self.string_skip = true;
            }
        }
    }

    // ---- printing ----

    fn print(&mut self, screen: &mut Screen, b: u8) {
        self.utf8 = None;
        let mut style = self.pen.style;
        if self.pen.graphics() {
            style.attr |= attr::CHARSET;
        }
        let index = screen.style_index(&style);
        if self.collects(screen) {
            screen.write_ascii(index, &[b]);
        } else {
            screen.write_cell(b as char, 1, index);
        }
        self.last = Some(b);
    }

    fn write_char(&mut self, screen: &mut Screen, c: char) {
        if let Some(width) = tmux_width(c) {
            let index = screen.style_index(&self.pen.style);
            screen.write_cell(c, width as u32, index);
        }
    }

    /// A byte with the top bit set, in the ground state: part of a UTF-8 character.
    fn top_bit(&mut self, screen: &mut Screen, b: u8) {
        self.last = None;
        let Some(mut u) = self.utf8 else {
            let size = match b {
                0xc2..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf4 => 4,
                _ => return,
            };
            self.utf8 = Some(Utf8 {
                buf: [b, 0, 0, 0],
                have: 1,
                size,
                bad: false,
            });
            return;
        };
        if b & 0xc0 != 0x80 {
            u.bad = true;
        }
        u.buf[u.have as usize] = b;
        u.have += 1;
        if u.have < u.size {
            self.utf8 = Some(u);
            return;
        }
        self.utf8 = None;
        if u.bad {
            return;
        }
        if let Some((Some(c), _)) = decode_utf8(&u.buf[..u.size as usize]) {
            self.write_char(screen, c);
        }
    }

    // ---- C0 and ESC ----

    fn c0(&mut self, screen: &mut Screen, b: u8) {
        self.utf8 = None;
        match b {
            0x08 => screen.backspace(),
            0x09 => screen.tab(),
            0x0a..=0x0c => screen.linefeed(false, self.pen.style.bg),
            0x0d => screen.carriage_return(),
            0x0e => self.pen.shifted = true,
            0x0f => self.pen.shifted = false,
            _ => {}
        }
        self.last = None;
    }

    fn interm(&self) -> &[u8] {
        &self.interm[..self.interm_len]
    }

    fn esc_dispatch(&mut self, screen: &mut Screen, b: u8) {
        if self.discard {
            return;
        }
        let bg = self.pen.style.bg;
        match (self.interm(), b) {
            (b"", b'c') => {
                self.pen = Pen::DEFAULT;
                self.saved = Saved {
                    pen: Pen::DEFAULT,
                    cx: 0,
                    cy: 0,
                    origin: self.saved.origin,
                };
                screen.reset();
            }
            (b"", b'D') => screen.linefeed(false, bg),
            (b"", b'E') => {
                screen.carriage_return();
                screen.linefeed(false, bg);
            }
            (b"", b'H') => {
                if screen.cx < screen.sx() {
                    screen.set_tab(true);
                }
            }
            (b"", b'M') => screen.reverse_index(bg),
            (b"", b'=') => screen.mode |= mode::KKEYPAD,
            (b"", b'>') => screen.mode &= !mode::KKEYPAD,
            (b"", b'7') => self.save_state(screen),
            (b"", b'8') => self.restore_state(screen),
            (b"#", b'8') => screen.alignment_test(),
            (b"(", b'0') => self.pen.g0_graphics = true,
            (b"(", b'B') => self.pen.g0_graphics = false,
            (b")", b'0') => self.pen.g1_graphics = true,
            (b")", b'B') => self.pen.g1_graphics = false,
            // ST: the string it ends was handled when the ESC arrived.
            (b"", b'\\') => {}
            // tmux leaves REP's character alone after an unknown sequence.
            _ => return,
        }
        self.last = None;
    }

    fn save_state(&mut self, screen: &Screen) {
        self.saved = Saved {
            pen: self.pen,
            cx: screen.cx,
            cy: screen.cy,
            origin: screen.mode & mode::ORIGIN != 0,
        };
    }

    fn restore_state(&mut self, screen: &mut Screen) {
        self.pen = self.saved.pen;
        if self.saved.origin {
            screen.mode |= mode::ORIGIN;
        } else {
            screen.mode &= !mode::ORIGIN;
        }
        screen.cursor_move(Some(self.saved.cx), Some(self.saved.cy), false);
    }

    // ---- CSI ----

    /// Splits the parameter bytes as tmux's `input_split`; `None` when the sequence must be
    /// ignored (a number too large or too many parameters).
    fn split_params(&self, out: &mut [Param; MAX_PARAMS]) -> Option<usize> {
        let bytes = &self.params[..self.params_len];
        if bytes.is_empty() {
            return Some(0);
        }
        let (mut n, mut start) = (0, 0);
        let (mut value, mut digits, mut colon, mut overflow) = (0i64, false, false, false);
        for i in 0..=bytes.len() {
            match bytes.get(i).copied().unwrap_or(b';') {
                b';' => {
                    out[n] = if colon {
                        Param::Sub(start as u8, i as u8)
                    } else if overflow {
                        return None;
                    } else if digits {
                        Param::Number(value as i32)
                    } else {
                        Param::Missing
                    };
                    n += 1;
                    if n == MAX_PARAMS {
                        return None;
                    }
                    start = i + 1;
                    (value, digits, colon, overflow) = (0, false, false, false);
                }
                b':' => colon = true,
                d => {
                    value = value * 10 + (d - b'0') as i64;
                    overflow |= value > i32::MAX as i64;
                    value = value.min(i32::MAX as i64 + 1);
                    digits = true;
                }
            }
        }
        Some(n)
    }

    fn csi_dispatch(&mut self, screen: &mut Screen, fin: u8) {
        if self.discard {
            return;
        }
        let mut params = [Param::Missing; MAX_PARAMS];
        let Some(n) = self.split_params(&mut params) else {
            return;
        };
        let p = Params { list: &params[..n] };
        let bg = self.pen.style.bg;
        // One byte names the intermediate ("?", ">", " "); no sequence tmux knows has two.
        let interm = match self.interm_len {
            0 => 0,
            1 => self.interm[0],
            _ => return,
        };
        let plain = interm == 0;
        match fin {
            b'@' if plain => p.count(|n| screen.insert_characters(n, bg)),
            b'A' if plain => p.count(|n| screen.cursor_up(n)),
            b'B' if plain => p.count(|n| screen.cursor_down(n)),
            b'C' if plain => p.count(|n| screen.cursor_right(n)),
            b'D' if plain => p.count(|n| screen.cursor_left(n)),
            b'E' if plain => p.count(|n| {
                screen.carriage_return();
                screen.cursor_down(n);
            }),
            b'F' if plain => p.count(|n| {
                screen.carriage_return();
                screen.cursor_up(n);
            }),
            b'G' | b'`' if plain => p.count(|n| screen.cursor_move(Some(n - 1), None, true)),
            b'd' if plain => p.count(|n| screen.cursor_move(None, Some(n - 1), true)),
            b'H' | b'f' if plain => {
                let (y, x) = (p.get(0, 1, 1), p.get(1, 1, 1));
                if let (Some(y), Some(x)) = (y, x) {
                    screen.cursor_move(Some(x - 1), Some(y - 1), true);
                }
            }
            b'J' if plain => match p.get(0, 0, 0) {
                Some(0) => screen.clear_end_of_screen(bg),
                Some(1) => screen.clear_start_of_screen(bg),
                Some(2) => screen.clear_screen(bg),
                Some(3) if p.get(1, 0, 0) == Some(0) => screen.clear_history(),
                _ => {}
            },
            b'K' if plain => match p.get(0, 0, 0) {
                Some(0) => screen.clear_end_of_line(bg),
                Some(1) => screen.clear_start_of_line(bg),
                Some(2) => screen.clear_line(bg),
                _ => {}
            },
            b'L' if plain => p.count(|n| screen.insert_lines(n, bg)),
            b'M' if plain => p.count(|n| screen.delete_lines(n, bg)),
            b'P' if plain => p.count(|n| screen.delete_characters(n, bg)),
            b'S' if plain => p.count(|n| screen.scroll_up(n, bg)),
            b'T' if plain => p.count(|n| screen.scroll_down(n, bg)),
            b'X' if plain => p.count(|n| screen.erase_characters(n, bg)),
            b'Z' if plain => p.count(|n| screen.back_tab(n)),
            b'b' if plain => {
                if let Some(n) = p.get(0, 1, 1) {
                    let n = n.min(screen.sx().saturating_sub(screen.cx));
                    if let Some(ch) = self.last {
                        for _ in 0..n {
                            self.print(screen, ch);
                        }
                    }
                }
            }
            b'c' if plain => {
                if p.get(0, 0, 0) == Some(0) {
                    self.replies.extend_from_slice(b"\x1b[?1;2c");
                }
            }
            b'c' if interm == b'>' => {
                if p.get(0, 0, 0) == Some(0) {
                    self.replies.extend_from_slice(b"\x1b[>84;0;0c");
                }
            }
            b'g' if plain => match p.get(0, 0, 0) {
                Some(0) if screen.cx < screen.sx() => screen.set_tab(false),
                Some(3) => screen.clear_all_tabs(),
                _ => {}
            },
            b'h' | b'l' if plain => {
                for i in 0..p.list.len() {
                    match p.get(i, 0, u32::MAX) {
                        Some(4) => set_mode(screen, mode::INSERT, fin == b'h'),
                        Some(34) => set_mode(screen, mode::CURSOR_VERY_VISIBLE, fin == b'l'),
                        _ => {}
                    }
                }
            }
            b'h' | b'l' if interm == b'?' => {
                for i in 0..p.list.len() {
                    if let Some(m) = p.get(i, 0, u32::MAX) {
                        self.private_mode(screen, m, fin == b'h');
                    }
                }
            }
            b'm' if plain => self.sgr(&p),
            b'm' if interm == b'>' => {
                let (n, m) = (p.get(0, 0, 0), p.get(1, 0, 0));
                if n == Some(0) || (n == Some(4) && m == Some(0)) {
                    screen.mode &= !mode::KEXTENDED;
                } else if n == Some(4) && matches!(m, Some(1 | 2)) {
                    screen.mode |= mode::KEXTENDED;
                }
            }
            b'n' if plain => match p.get(0, 0, 0) {
                Some(5) => self.replies.extend_from_slice(b"\x1b[0n"),
                Some(6) => self.replies.extend_from_slice(
                    format!("\x1b[{};{}R", screen.cy + 1, screen.cx + 1).as_bytes(),
                ),
                _ => {}
            },
            b'n' if interm == b'>' => {
                if p.get(0, 0, 0) == Some(4) {
                    screen.mode &= !mode::KEXTENDED;
                }
            }
            b'q' if interm == b' ' => {
                if let Some(n) = p.get(0, 0, 0) {
                    set_cursor_style(screen, n);
                }
            }
            b'q' if interm == b'>' => {
                if p.get(0, 0, 0) == Some(0) {
                    self.replies
                        .extend_from_slice(format!("\x1bP>|{XTVERSION}\x1b\\").as_bytes());
                }
            }
            b'r' if plain => {
                let top = p.get(0, 1, 1);
                let bottom = p.get(1, 1, screen.sy());
                if let (Some(t), Some(b)) = (top, bottom) {
                    screen.set_scroll_region(t - 1, b - 1);
                }
            }
            b's' if plain => self.save_state(screen),
            b'u' if plain => self.restore_state(screen),
            b't' if plain => self.window_ops(screen, &p),
            _ => return,
        }
        self.last = None;
    }

    fn private_mode(&mut self, screen: &mut Screen, m: u32, on: bool) {
        let bg = self.pen.style.bg;
        match m {
            1 => set_mode(screen, mode::KCURSOR, on),
            3 => {
                screen.cursor_move(Some(0), Some(0), true);
                screen.clear_screen(bg);
            }
            6 => {
                set_mode(screen, mode::ORIGIN, on);
                screen.cursor_move(Some(0), Some(0), true);
            }
            7 => set_mode(screen, mode::WRAP, on),
            12 => {
                set_mode(screen, mode::CURSOR_BLINKING, on);
                screen.mode |= mode::CURSOR_BLINKING_SET;
            }
            25 => set_mode(screen, mode::CURSOR, on),
            1000 | 1002 | 1003 if on => {
                screen.mode &= !mode::ALL_MOUSE;
                screen.mode |= match m {
                    1000 => mode::MOUSE_STANDARD,
                    1002 => mode::MOUSE_BUTTON,
                    _ => mode::MOUSE_ALL,
                };
            }
            1000..=1003 if !on => screen.mode &= !mode::ALL_MOUSE,
            1004 => set_mode(screen, mode::FOCUSON, on),
            1005 => set_mode(screen, mode::MOUSE_UTF8, on),
            1006 => set_mode(screen, mode::MOUSE_SGR, on),
            47 | 1047 | 1049 => {
                let cursor = m == 1049;
                if on {
                    screen.enter_alternate(&self.pen.style, cursor);
                } else {
                    screen.leave_alternate(&mut self.pen.style, cursor);
                }
            }
            2004 => set_mode(screen, mode::BRACKETPASTE, on),
            _ => {}
        }
    }

    fn window_ops(&mut self, screen: &mut Screen, p: &Params) {
        let mut m = 0;
        while let Some(n) = p.get(m, 0, u32::MAX).filter(|&n| n != u32::MAX) {
            match n {
                3 | 4 | 8 => {
                    m += 1;
                    if p.get(m, 0, u32::MAX).is_none_or(|v| v == u32::MAX) {
                        return;
                    }
                    m += 1;
                    if p.get(m, 0, u32::MAX).is_none_or(|v| v == u32::MAX) {
                        return;
                    }
                }
                9 | 10 => {
                    m += 1;
                    if p.get(m, 0, u32::MAX).is_none_or(|v| v == u32::MAX) {
                        return;
                    }
                }
                22 | 23 => {
                    m += 1;
                    match p.get(m, 0, u32::MAX) {
                        None | Some(u32::MAX) => return,
                        Some(0 | 2) if n == 22 => screen.push_title(),
                        Some(0 | 2) => screen.pop_title(),
                        _ => {}
                    }
                }
                18 => self.replies.extend_from_slice(
                    format!("\x1b[8;{};{}t", screen.sx(), screen.sy()).as_bytes(),
                ),
                _ => {}
            }
            m += 1;
        }
    }

    // ---- SGR ----

    fn sgr(&mut self, p: &Params) {
        let st = &mut self.pen.style;
        if p.list.is_empty() {
            *st = Style::DEFAULT;
            return;
        }
        let mut i = 0;
        while i < p.list.len() {
            if let Param::Sub(a, b) = p.list[i] {
                let text = self.params[a as usize..b as usize].to_vec();
                sgr_colon(&mut self.pen.style, &text);
                i += 1;
                continue;
            }
            let st = &mut self.pen.style;
            let Some(n) = p.get(i, 0, 0) else {
                i += 1;
                continue;
            };
            if matches!(n, 38 | 48 | 58) {
                i += 1;
                match p.get(i, 0, u32::MAX) {
                    Some(2) => {
                        let rgb = [
                            p.get(i + 1, 0, u32::MAX),
                            p.get(i + 2, 0, u32::MAX),
                            p.get(i + 3, 0, u32::MAX),
                        ];
                        if set_rgb(st, n, rgb) {
                            i += 3;
                        }
                    }
                    Some(5) => {
                        set_256(st, n, p.get(i + 1, 0, u32::MAX));
                        i += 1;
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            apply_sgr(st, n);
            i += 1;
        }
    }

    // ---- OSC ----

    fn osc_dispatch(&mut self, screen: &mut Screen) {
        if self.discard {
            return;
        }
        let s = &self.string;
        let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
        let Some(option) = osc_number(&s[..digits]) else {
            return;
        };
        let mut text = &s[digits..];
        if text.first() == Some(&b';') {
            text = &text[1..];
        }
        match option {
            0 | 2 => {
                screen.set_title(text);
            }
            7 if is_printable_utf8(text) => {
                screen.path = Some(String::from_utf8_lossy(text).into_owned());
            }
            _ => {}
        }
    }
}

/// CSI parameters as tmux's `input_get` reads them.
struct Params<'a> {
    list: &'a [Param],
}

impl Params<'_> {
    /// Parameter `i`: `Some(default)` when missing, `None` for a colon parameter (which makes
    /// most sequences ignore themselves), at least `min` otherwise.
    fn get(&self, i: usize, min: u32, default: u32) -> Option<u32> {
        match self.list.get(i) {
            None | Some(Param::Missing) => Some(default),
            Some(Param::Sub(..)) => None,
            Some(Param::Number(n)) => Some((*n as u32).max(min)),
        }
    }

    /// Runs `f` with the first parameter as a count (at least 1, default 1).
    fn count(&self, f: impl FnOnce(u32)) {
        if let Some(n) = self.get(0, 1, 1) {
            f(n)
        }
    }
}

/// How many printable ASCII bytes (0x20 to 0x7e) `bytes` starts with, looked at eight at a
/// time: a replay of the 5.4 MB coloured log took 126.7M instructions with a byte-by-byte
/// scan, 113.2M so (callgrind, `examples/replay`; BENCHMARKS.md "Parse cost").
fn printable_len(bytes: &[u8]) -> usize {
    let (words, _) = bytes.as_chunks::<8>();
    for (i, word) in words.iter().enumerate() {
        let word = u64::from_le_bytes(*word);
        // The lowest byte each mask marks is one it looks for (a borrow marks bytes above it).
        let others = control_bytes(word) | del_or_high_bytes(word);
        if others != 0 {
            return i * 8 + others.trailing_zeros() as usize / 8;
        }
    }
    let from = words.len() * 8;
    from + printable_len_bytewise(&bytes[from..])
}

/// [`printable_len`] a byte at a time: for the last few bytes, and what tests check it by.
fn printable_len_bytewise(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|b| !(0x20..=0x7e).contains(b))
        .unwrap_or(bytes.len())
}

/// Appends `b` to a fixed buffer; false when it is full (tmux then discards the sequence).
fn push_bounded(buf: &mut [u8], len: &mut usize, b: u8) -> bool {
    match buf.get_mut(*len) {
        Some(slot) => {
            *slot = b;
            *len += 1;
            true
        }
        None => false,
    }
}

/// The number an OSC starts with (wrapping as tmux's does); `None` if it starts with none.
fn osc_number(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(digits.iter().fold(0u32, |n, d| {
        n.wrapping_mul(10).wrapping_add((d - b'0') as u32)
    }))
}

fn parse_number(digits: &[u8]) -> Option<i32> {
    let mut n: i64 = 0;
    for d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n * 10 + (d - b'0') as i64;
        if n > i32::MAX as i64 {
            return None;
        }
    }
    Some(n as i32)
}

/// How many times the character encoded as `seq` repeats at the start of `rest`. Compared
/// byte by byte: a library comparison per 3-byte character was 3% of the server's CPU under
/// agent replays, whose rules are hundreds of `─`.
fn repeats(rest: &[u8], seq: &[u8]) -> usize {
    rest.chunks_exact(seq.len())
        .take_while(|c| c.iter().zip(seq).all(|(a, b)| a == b))
        .count()
}

/// Decodes the UTF-8 sequence at the start of `b` as tmux reads it: `None` if it is not
/// complete and well formed (the state machine then takes over), `Some((None, len))` for a
/// complete sequence glibc rejects (overlong, surrogate, beyond U+10FFFF), which tmux drops.
fn decode_utf8(b: &[u8]) -> Option<(Option<char>, usize)> {
    let (len, init) = match b[0] {
        0xc2..=0xdf => (2, (b[0] & 0x1f) as u32),
        0xe0..=0xef => (3, (b[0] & 0x0f) as u32),
        0xf0..=0xf4 => (4, (b[0] & 0x07) as u32),
        _ => return None,
    };
    let tail = b.get(1..len)?;
    let mut cp = init;
    for &c in tail {
        if c & 0xc0 != 0x80 {
            return None;
        }
        cp = cp << 6 | (c & 0x3f) as u32;
    }
    let min = [0, 0, 0x80, 0x800, 0x10000][len];
    let c = if cp < min { None } else { char::from_u32(cp) };
    Some((c, len))
}

fn set_mode(screen: &mut Screen, bit: u32, on: bool) {
    if on {
        screen.mode |= bit;
    } else {
        screen.mode &= !bit;
    }
}

fn set_cursor_style(screen: &mut Screen, n: u32) {
    let blinking = match n {
        0 => None,
        1 | 3 | 5 => Some(true),
        2 | 4 | 6 => Some(false),
        _ => return,
    };
    screen.cursor_style = n as u8;
    match blinking {
        Some(true) => screen.mode |= mode::CURSOR_BLINKING,
        Some(false) => screen.mode &= !mode::CURSOR_BLINKING,
        None => {}
    }
}

fn set_256(st: &mut Style, which: u32, c: Option<u32>) {
    match c {
        Some(c) if c <= 255 => {
            let c = c | colour::FLAG_256;
            match which {
                38 => st.fg = c,
                48 => st.bg = c,
                _ => st.us = c,
            }
        }
        _ => match which {
            38 => st.fg = colour::DEFAULT,
            48 => st.bg = colour::DEFAULT,
            _ => {}
        },
    }
}

fn set_rgb(st: &mut Style, which: u32, rgb: [Option<u32>; 3]) -> bool {
    let [Some(r), Some(g), Some(b)] = rgb else {
        return false;
    };
    if r > 255 || g > 255 || b > 255 {
        return false;
    }
    let c = colour::rgb(r as u8, g as u8, b as u8);
    match which {
        38 => st.fg = c,
        48 => st.bg = c,
        _ => st.us = c,
    }
    true
}

/// SGR with colon subparameters (`4:3`, `38:2::r:g:b`, `58:5:n`).
fn sgr_colon(st: &mut Style, text: &[u8]) {
    let mut p = [u32::MAX; 8];
    let mut n = 0;
    for part in text.split(|&b| b == b':') {
        if !part.is_empty() {
            let Some(v) = parse_number(part) else { return };
            p[n] = v as u32;
        }
        n += 1;
        if n == p.len() {
            return;
        }
    }
    if n == 0 {
        return;
    }
    if p[0] == 4 {
        if n != 2 {
            return;
        }
        let bit = match p[1] {
            0 => 0,
            1 => attr::UNDERSCORE,
            2 => attr::UNDERSCORE_2,
            3 => attr::UNDERSCORE_3,
            4 => attr::UNDERSCORE_4,
            5 => attr::UNDERSCORE_5,
            _ => return,
        };
        st.attr = (st.attr & !attr::ALL_UNDERSCORE) | bit;
        return;
    }
    if n < 2 || !matches!(p[0], 38 | 48 | 58) {
        return;
    }
    let opt = |v: u32| if v == u32::MAX { None } else { Some(v) };
    match p[1] {
        2 if n >= 3 => {
            let i = if n == 5 { 2 } else { 3 };
            if n >= i + 3 {
                set_rgb(st, p[0], [opt(p[i]), opt(p[i + 1]), opt(p[i + 2])]);
            }
        }
        5 if n >= 3 => set_256(st, p[0], opt(p[2])),
        _ => {}
    }
}

fn apply_sgr(st: &mut Style, n: u32) {
    match n {
        0 => *st = Style::DEFAULT,
        1 => st.attr |= attr::BRIGHT,
        2 => st.attr |= attr::DIM,
        3 => st.attr |= attr::ITALICS,
        4 => st.attr = (st.attr & !attr::ALL_UNDERSCORE) | attr::UNDERSCORE,
        5 | 6 => st.attr |= attr::BLINK,
        7 => st.attr |= attr::REVERSE,
        8 => st.attr |= attr::HIDDEN,
        9 => st.attr |= attr::STRIKETHROUGH,
        21 => st.attr = (st.attr & !attr::ALL_UNDERSCORE) | attr::UNDERSCORE_2,
        22 => st.attr &= !(attr::BRIGHT | attr::DIM),
        23 => st.attr &= !attr::ITALICS,
        24 => st.attr &= !attr::ALL_UNDERSCORE,
        25 => st.attr &= !attr::BLINK,
        27 => st.attr &= !attr::REVERSE,
        28 => st.attr &= !attr::HIDDEN,
        29 => st.attr &= !attr::STRIKETHROUGH,
        30..=37 => st.fg = n - 30,
        39 => st.fg = colour::DEFAULT,
        40..=47 => st.bg = n - 40,
        49 => st.bg = colour::DEFAULT,
        53 => st.attr |= attr::OVERLINE,
        55 => st.attr &= !attr::OVERLINE,
        59 => st.us = 0,
        90..=97 => st.fg = n,
        100..=107 => st.bg = n - 10,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{CaptureOptions, Terminal};

    /// Whole sequences may take the remembered effect (`sgr.rs`); bytes fed one by one go
    /// through the state machine, which parses every sequence.
    #[test]
    fn remembered_sgr_sequences_leave_what_parsed_ones_leave() {
        let sequences = [
            "",
            "0",
            "1;31",
            "38;2;255;135;0",
            "48;5;236",
            "4:3",
            "58;2;1;2;3",
            "22;24;39;49",
            "7;27",
            "0;1;4;5;7;8;9;53",
            "38;5;300",
            "38;2;1;2",
            ";;1",
            "99999999999",
            "21;59",
            "38:2::9:8:7",
            "1;2;3;4;5;6;7;8;9;21;53;90;100",
        ];
        let mut input = Vec::new();
        // Each sequence three times: new, then remembered. REP after each repeats nothing (a
        // sequence forgets the last character) but after one ignored whole (`99999999999`).
        for _ in 0..3 {
            for s in sequences {
                input.extend(format!("x\x1b[{s}m\x1b[2by\x1b[{s}mz ").bytes());
            }
            input.extend(b"\r\n");
        }
        let (mut whole, mut bytewise) = (Terminal::new(80, 24, 100), Terminal::new(80, 24, 100));
        whole.feed(&input);
        input.iter().for_each(|b| bytewise.feed(&[*b]));
        let opts = CaptureOptions {
            escapes: true,
            ..CaptureOptions::default()
        };
        let screen = whole.capture(&opts);
        assert_eq!(
            String::from_utf8_lossy(&screen),
            String::from_utf8_lossy(&bytewise.capture(&opts))
        );
        assert!(
            screen.windows(4).any(|w| w == b"\x1b[1m"),
            "styles were drawn"
        );
    }

    /// Every byte value anywhere in runs up to three words long, on text of every byte around
    /// the limits, and two such bytes together (a borrow from the first must not move the end).
    #[test]
    fn printable_runs_end_where_a_byte_by_byte_scan_ends_them() {
        let edges = [
            0x00, 0x0a, 0x1b, 0x1f, 0x20, 0x21, 0x7e, 0x7f, 0x80, 0xc3, 0xff,
        ];
        for len in 0..=24 {
            for fill in [b' ', b'!', b'~', b'a'] {
                let text = vec![fill; len];
                assert_eq!(printable_len(&text), len);
                for at in 0..len {
                    for value in 0..=255u8 {
                        let mut run = text.clone();
                        run[at] = value;
                        assert_eq!(printable_len(&run), printable_len_bytewise(&run));
                    }
                    for second in at + 1..len {
                        for (&a, &b) in edges.iter().flat_map(|a| edges.iter().map(move |b| (a, b)))
                        {
                            let mut run = text.clone();
                            (run[at], run[second]) = (a, b);
                            let want = printable_len_bytewise(&run);
                            assert_eq!(printable_len(&run), want, "{run:?}");
                        }
                    }
                }
            }
        }
    }
}
