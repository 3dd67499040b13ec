//! Clock mode (`clock-mode`, `C-b t`): the time in large block characters in the middle of a
//! pane, as tmux 3.3a's `window-clock.c` draws it, in place of the pane for the clients that
//! show it until a key no table binds is typed.
//!
//! This module is pure: the engine gives it the time as text (`%H:%M`, or `%l:%M %p` with
//! `clock-mode-style 12`) and the colour's SGR parameters, and gets back a terminal holding
//! the drawing, which it shows as it shows a pane.
//!
//! Invariant: [`Clock::text`] is the time the drawing shows, so the engine redraws it only
//! when the text it would show now differs.

use crate::term::Terminal;

/// How often the engine looks whether the minute has changed (tmux's clock timer).
pub const CLOCK_CHECK_MS: u64 = 1000;

/// A clock drawn for a pane's size.
#[derive(Debug)]
pub struct Clock {
    pub text: String,
    pub term: Terminal,
    /// When the engine next looks at the time (monotonic ms).
    pub check_at: u64,
}

/// The block characters: five rows of five cells, `#` for a filled one.
fn glyph(c: char) -> Option<[&'static str; 5]> {
    Some(match c {
        '0' => ["#####", "#   #", "#   #", "#   #", "#####"],
        '1' => ["    #", "    #", "    #", "    #", "    #"],
        '2' => ["#####", "    #", "#####", "#    ", "#####"],
        '3' => ["#####", "    #", "#####", "    #", "#####"],
        '4' => ["#   #", "#   #", "#####", "    #", "    #"],
        '5' => ["#####", "#    ", "#####", "    #", "#####"],
        '6' => ["#####", "#    ", "#####", "#   #", "#####"],
        '7' => ["#####", "    #", "    #", "    #", "    #"],
        '8' => ["#####", "#   #", "#####", "#   #", "#####"],
        '9' => ["#####", "#   #", "#####", "    #", "#####"],
        ':' => ["     ", "  #  ", "     ", "  #  ", "     "],
        'A' => ["#####", "#   #", "#####", "#   #", "#   #"],
        'P' => ["#####", "#   #", "#####", "#    ", "#    "],
        'M' => ["#   #", "## ##", "# # #", "#   #", "#   #"],
        _ => return None,
    })
}

impl Clock {
    /// The clock showing `text` on a `cols` by `rows` pane in a colour given as the SGR
    /// parameters that set it as foreground and as background (`34` and `44`), as tmux draws
    /// it: each character six cells apart, its filled cells in the background colour, centred;
    /// on a pane too small for that, the text itself in the foreground colour in the middle.
    pub fn draw(text: &str, cols: u32, rows: u32, colour: (&str, &str), check_at: u64) -> Clock {
        let mut term = Terminal::new(cols, rows, 0);
        let len = text.chars().count() as u32;
        let mut out = String::new();
        if cols < 6 * len || rows < 6 {
            if cols >= len {
                let x = cols / 2 - len / 2;
                out += &format!("\x1b[{};{}H\x1b[{}m{text}", rows / 2 + 1, x + 1, colour.0);
            }
        } else {
            let background = colour.1;
            let (mut x, y) = (cols / 2 - 3 * len, rows / 2 - 3);
            for c in text.chars() {
                for (j, row) in glyph(c).iter().flatten().enumerate() {
                    for (i, cell) in row.bytes().enumerate() {
                        if cell == b'#' {
                            let (cx, cy) = (x + i as u32 + 1, y + j as u32 + 1);
                            out += &format!("\x1b[{cy};{cx}H\x1b[{background}m \x1b[0m");
                        }
                    }
                }
                x += 6;
            }
        }
        term.feed(out.as_bytes());
        Clock {
            text: text.to_string(),
            term,
            check_at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{CaptureOptions, LineSpec};

    fn row(clock: &Clock, y: i64) -> String {
        let line = clock.term.capture(&CaptureOptions {
            start: Some(LineSpec::Line(y)),
            end: Some(LineSpec::Line(y)),
            escapes: true,
            ..Default::default()
        });
        String::from_utf8(line).unwrap()
    }

    #[test]
    fn the_time_is_drawn_in_blocks_in_the_middle_or_as_text_when_it_does_not_fit() {
        // 40 by 10: the characters' rows are 2 to 6 (10 / 2 - 3), from column 5.
        let clock = Clock::draw("12:05", 40, 10, ("34", "44"), 0);
        for y in 0..10 {
            let filled = row(&clock, y).contains("44m");
            assert_eq!(
                filled,
                (2..=6).contains(&y),
                "row {y}: {:?}",
                row(&clock, y)
            );
        }
        // The 1 fills its last column only: the first filled cell of row 2 is column 9.
        assert!(
            row(&clock, 2).starts_with("         \x1b[44m "),
            "{:?}",
            row(&clock, 2)
        );
        let small = Clock::draw("12:05", 20, 4, ("34", "44"), 0);
        assert_eq!(row(&small, 2).trim(), "\x1b[34m12:05");
        assert_eq!(small.text, "12:05");
    }
}
