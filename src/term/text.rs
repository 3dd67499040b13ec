//! The text of one line cell by cell, for readers that walk over it: copy mode's cursor
//! moves, word and character searches, and the text a selection copies.
//!
//! A [`TextLine`] answers what tmux's `grid_get_cell` answers for a line of the history or
//! the screen: each cell's characters (one space for cells past the line's end, as tmux's
//! default cell), whether it is the right half of a wide character, whether it was drawn
//! from the line-drawing set, and the line's lengths (`cellsize`, and tmux's
//! `grid_line_length`: trailing spaces left out). It is a copy: the terminal may change
//! after it is made.

use super::cell::{attr, push_cell_text, Cell};
use super::Terminal;

/// One line's cells as text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextLine {
    /// Every stored cell's characters, one after another.
    text: String,
    cells: Vec<TextCell>,
    /// The line continues on the next one.
    pub wrapped: bool,
    /// The screen's width.
    pub width: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct TextCell {
    /// Where its characters start in `text`.
    at: u32,
    padding: bool,
    line_drawing: bool,
}

impl TextLine {
    /// The characters of cell `x`: a space past the stored cells, empty for padding.
    pub fn cell(&self, x: u32) -> &str {
        let Some(c) = self.cells.get(x as usize) else {
            return " ";
        };
        if c.padding {
            return "";
        }
        let end = self
            .cells
            .get(x as usize + 1)
            .map_or(self.text.len(), |n| n.at as usize);
        &self.text[c.at as usize..end]
    }

    /// Whether cell `x` is the right half of a wide character.
    pub fn is_padding(&self, x: u32) -> bool {
        self.cells.get(x as usize).is_some_and(|c| c.padding)
    }

    /// tmux's `cellsize`: how many cells the line holds (at most the width).
    pub fn size(&self) -> u32 {
        (self.cells.len() as u32).min(self.width)
    }

    /// tmux's `grid_line_length`: the cells up to the last that is not a space.
    pub fn length(&self) -> u32 {
        let mut x = self.size();
        while x > 0 && !self.is_padding(x - 1) && self.cell(x - 1) == " " {
            x -= 1;
        }
        x
    }

    /// The characters of cells `from..to` as a copy takes them: padding left out and the
    /// line-drawing set as its Unicode characters.
    pub fn copy_text(&self, from: u32, to: u32, out: &mut String) {
        for x in from..to {
            let text = self.cell(x);
            let drawn = self.cells.get(x as usize).is_some_and(|c| c.line_drawing);
            match text.as_bytes() {
                [b] if drawn => match line_drawing_char(*b) {
                    Some(c) => out.push(c),
                    None => out.push_str(text),
                },
                _ => out.push_str(text),
            }
        }
    }
}

impl Terminal {
    /// Makes every line a row of its own (a frozen screen thawed, frozen and sealed history
    /// lines decoded), so that reading lines one at a time, as copy mode walks them, costs
    /// nothing per line. For a copy of a pane's terminal: a pane's own history stays packed.
    pub fn expand_all(&mut self) {
        if self.make_hot() {
            let _mark = super::ScreenData::mark();
            self.screen.grid.thaw_history();
        }
    }

    /// Leaves out the blank lines at the bottom of the screen, then grows it back to its
    /// height, taking lines back from the history where a resize put them: tmux's copy of a
    /// pane shown in another's place (`copy-mode -s`). A cursor on a line left out goes to
    /// the start of the last line kept.
    pub fn trim_blank_bottom(&mut self) {
        self.expand_all();
        let _mark = super::ScreenData::mark();
        let s = &mut self.screen;
        let (hsize, sy, sx) = (s.grid.hsize, s.grid.sy, s.sx());
        let mut kept = sy;
        while kept > 1 && s.grid.row(hsize + kept - 1).used == 0 {
            kept -= 1;
        }
        if kept == sy {
            return;
        }
        if s.cy > kept - 1 {
            (s.cx, s.cy) = (0, kept - 1);
        }
        s.grid.set_line_count(hsize + kept);
        s.grid.sy = kept;
        s.resize(sx, sy, false);
    }

    /// How many lines there are: the history's and the screen's.
    pub fn line_count(&self) -> u32 {
        self.history_size() + self.rows()
    }

    /// Line `y` as text, counted from the oldest history line; a line past the last is blank.
    pub fn text_line(&self, y: u32) -> TextLine {
        let s = self.view();
        let mut line = TextLine {
            width: s.sx(),
            ..TextLine::default()
        };
        if y >= s.grid.hsize + s.grid.sy {
            return line;
        }
        let Some(row) = s.grid.lines(y..y + 1).next() else {
            return line;
        };
        line.wrapped = row.wrapped;
        let mut cells: Vec<Cell> = Vec::new();
        row.read_into(&mut cells);
        cells.resize(row.size as usize, Cell::BLANK);
        let mut bytes = Vec::new();
        for cell in cells {
            let at = bytes.len() as u32;
            if !cell.is_padding() {
                push_cell_text(&mut bytes, cell, &s.graphemes);
            }
            line.cells.push(TextCell {
                at,
                padding: cell.is_padding(),
                line_drawing: s.palette.get(cell.style()).attr & attr::CHARSET != 0,
            });
        }
        line.text = String::from_utf8(bytes).unwrap_or_default();
        line
    }
}

/// The Unicode character for a VT100 line-drawing character (tmux's table).
pub fn line_drawing_char(b: u8) -> Option<char> {
    Some(match b {
        b'+' => '\u{2192}',
        b',' => '\u{2190}',
        b'-' => '\u{2191}',
        b'.' => '\u{2193}',
        b'0' => '\u{25ae}',
        b'`' => '\u{25c6}',
        b'a' => '\u{2592}',
        b'b' => '\u{2409}',
        b'c' => '\u{240c}',
        b'd' => '\u{240d}',
        b'e' => '\u{240a}',
        b'f' => '\u{b0}',
        b'g' => '\u{b1}',
        b'h' => '\u{2424}',
        b'i' => '\u{240b}',
        b'j' => '\u{2518}',
        b'k' => '\u{2510}',
        b'l' => '\u{250c}',
        b'm' => '\u{2514}',
        b'n' => '\u{253c}',
        b'o' => '\u{23ba}',
        b'p' => '\u{23bb}',
        b'q' => '\u{2500}',
        b'r' => '\u{23bc}',
        b's' => '\u{23bd}',
        b't' => '\u{251c}',
        b'u' => '\u{2524}',
        b'v' => '\u{2534}',
        b'w' => '\u{252c}',
        b'x' => '\u{2502}',
        b'y' => '\u{2264}',
        b'z' => '\u{2265}',
        b'{' => '\u{3c0}',
        b'|' => '\u{2260}',
        b'}' => '\u{a3}',
        b'~' => '\u{b7}',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fed(cols: u32, bytes: &[u8]) -> Terminal {
        let mut t = Terminal::new(cols, 4, 100);
        t.feed(bytes);
        t
    }

    #[test]
    fn cells_lengths_and_wrapping_are_tmuxs() {
        let mut t = fed(6, "ab \u{4e2d} \r\nx  y z1\r\n".as_bytes());
        let first = t.text_line(0);
        assert_eq!(
            (0..7).map(|x| first.cell(x)).collect::<Vec<_>>(),
            ["a", "b", " ", "\u{4e2d}", "", " ", " "]
        );
        assert!(first.is_padding(4) && !first.is_padding(3));
        assert_eq!((first.size(), first.length(), first.wrapped), (6, 5, false));
        let wrapped = t.text_line(1);
        assert!(wrapped.wrapped);
        assert_eq!((wrapped.size(), wrapped.length()), (6, 6));
        assert_eq!(t.text_line(2).length(), 1);
        assert_eq!(
            t.text_line(3),
            TextLine {
                width: 6,
                ..TextLine::default()
            }
        );
        assert_eq!(t.text_line(99).length(), 0);
        let before: Vec<TextLine> = (0..4).map(|y| t.text_line(y)).collect();
        t.freeze();
        t.expand_all();
        assert!(!t.is_frozen());
        assert_eq!((0..4).map(|y| t.text_line(y)).collect::<Vec<_>>(), before);
    }

    #[test]
    fn a_copy_leaves_out_padding_and_draws_lines_in_unicode() {
        let t = fed(10, "\u{4e2d}\x1b(0lqk\x1b(Bq".as_bytes());
        let mut out = String::new();
        t.text_line(0).copy_text(0, 10, &mut out);
        assert_eq!(out, "\u{4e2d}\u{250c}\u{2500}\u{2510}q    ");
    }
}
