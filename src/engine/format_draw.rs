//! Drawing an expanded format onto a line of cells, as tmux 3.3a's `format_draw` does for the
//! status line and messages: `#[...]` directives change the pen, `align=` sends text to the
//! left, centre, right or absolute centre, `list=` gathers a window list that is cut around
//! its focus with `<` `>` markers when it does not fit, `range=` marks what a click on the
//! text means, `push-default`/`pop-default` change what `default` means, and `fill=` clears
//! the line first.
//!
//! Text is gathered into one buffer per part (tmux's screens) and the parts are then copied
//! onto the line, each cut by tmux's rules when they do not all fit: which part gives way
//! first depends on where the list is.
//!
//! Invariants:
//! - Pure: the line and what is drawn on it are the caller's; nothing is drawn past the
//!   line's end, and a format whose last directive has no `]` draws nothing (as tmux).
//! - Ranges are in the line's cells, half open, and only those still visible are returned.

use super::style::{Align, DefaultChange, List, Pen, Range, Style, DEFAULT_COLOUR};
use crate::term::width::tmux_width;

/// One cell of a drawn line: its text (a character, with any that join it), how many
/// columns it takes (0 for the right half of a wide character) and its pen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub text: String,
    pub width: u8,
    pub pen: Pen,
}

impl Cell {
    /// A space in `pen`.
    pub fn blank(pen: Pen) -> Cell {
        Cell {
            text: " ".into(),
            width: 1,
            pen,
        }
    }
}

/// What a click on cells `start..end` of the line means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawnRange {
    pub range: Range,
    pub start: u32,
    pub end: u32,
}

/// The parts text is gathered into, in tmux's order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Left,
    Centre,
    Right,
    AbsoluteCentre,
    List,
    ListLeft,
    ListRight,
    After,
}

const PARTS: usize = 8;

/// A range being gathered: in a part, until the drawing moves it onto the line.
struct PartRange {
    part: Part,
    start: u32,
    end: u32,
    range: Range,
}

/// The parts' cells and the ranges found in them.
struct Parts {
    cells: [Vec<Cell>; PARTS],
    /// What cells past a part's text hold (tmux clears its screens to the base background).
    blank: Cell,
    ranges: Vec<PartRange>,
}

impl Parts {
    fn width(&self, part: Part) -> u32 {
        self.cells[part as usize].len() as u32
    }

    fn push(&mut self, part: Part, text: String, width: u8, pen: Pen) {
        let cells = &mut self.cells[part as usize];
        if width == 0 {
            // A combining character joins the cell before it.
            if let Some(last) = cells.iter_mut().rev().find(|c| c.width > 0) {
                last.text.push_str(&text);
            }
            return;
        }
        cells.push(Cell { text, width, pen });
        if width == 2 {
            cells.push(Cell {
                text: String::new(),
                width: 0,
                pen,
            });
        }
    }

    /// tmux's `format_draw_put`: `width` cells of `part` from `start` onto the line at
    /// `offset`, and the part's ranges moved with them (those outside dropped).
    fn put(&mut self, line: &mut [Cell], part: Part, offset: u32, start: u32, width: u32) {
        self.copy(line, part, offset, start, width);
        self.ranges.retain_mut(|r| {
            if r.part != part {
                return true;
            }
            if r.end <= start || r.start >= start + width {
                return false;
            }
            r.start = r.start.max(start) - start + offset;
            r.end = r.end.min(start + width) - start + offset;
            r.start != r.end
        });
    }

    /// tmux's `screen_write_fast_copy` of one row: stops before a wide character that would
    /// not fit in `width`.
    fn copy(&self, line: &mut [Cell], part: Part, offset: u32, start: u32, width: u32) {
        let cells = &self.cells[part as usize];
        for i in 0..width {
            let x = start + i;
            let cell = cells.get(x as usize).unwrap_or(&self.blank);
            if i + u32::from(cell.width) > width {
                break;
            }
            if let Some(to) = line.get_mut((offset + i) as usize) {
                *to = cell.clone();
            }
        }
    }

    /// Appends `width` cells of `from` to the end of `to` (tmux draws what follows the list
    /// onto the part the list belonged to when the list has no room at all).
    fn append(&mut self, to: Part, from: Part, width: u32) {
        let mut moved = Vec::new();
        let from_cells = &self.cells[from as usize];
        for i in 0..width as usize {
            let cell = from_cells.get(i).unwrap_or(&self.blank);
            if i + usize::from(cell.width) > width as usize {
                break;
            }
            moved.push(cell.clone());
        }
        self.cells[to as usize].extend(moved);
    }
}

/// Where the list's focus (the current window) lies in the list, once known.
#[derive(Clone, Copy)]
struct Focus {
    start: Option<u32>,
    end: Option<u32>,
}

/// Draws `expanded` onto `line` (whose cells the caller has already cleared) from its
/// start, `base` being the pen text starts in and what `default` means; returns the ranges
/// still visible.
pub fn draw(line: &mut [Cell], base: Pen, expanded: &str) -> Vec<DrawnRange> {
    let Some(gathered) = gather(base, expanded) else {
        return Vec::new();
    };
    let Gathered {
        mut parts,
        focus,
        list_align,
        fill,
    } = gathered;
    let available = line.len() as u32;
    if let Some(fill) = fill {
        let pen = Pen {
            bg: fill,
            ..Pen::default()
        };
        line.fill(Cell::blank(pen));
    }
    match list_align {
        Align::Default => draw_none(&mut parts, line, available),
        Align::Left => draw_list_left(&mut parts, line, available, focus),
        Align::Centre => draw_list_centre(&mut parts, line, available, focus),
        Align::Right => draw_list_right(&mut parts, line, available, focus),
        Align::AbsoluteCentre => draw_list_absolute_centre(&mut parts, line, available, focus),
    }
    parts
        .ranges
        .into_iter()
        .map(|r| DrawnRange {
            range: r.range,
            start: r.start,
            end: r.end,
        })
        .collect()
}

/// What reading a format gathered: the parts, the list's focus and alignment, the fill.
struct Gathered {
    parts: Parts,
    focus: Focus,
    list_align: Align,
    fill: Option<i32>,
}

/// The state of the walk through a format.
struct Walk {
    parts: Parts,
    style: Style,
    current_default: Pen,
    current: Part,
    /// Where each alignment sends text; after the list, its own alignment sends it after it.
    map: [Part; 5],
    /// `None` before the list, `Some(true)` inside it, `Some(false)` after it.
    in_list: Option<bool>,
    list_align: Align,
    focus: Focus,
    fill: Option<i32>,
    /// A range begun and not yet ended by a change of range.
    open: Option<PartRange>,
}

/// Walks a format as tmux's `format_draw` does, gathering text into the parts; `None` when a
/// directive has no closing `]` (nothing is then drawn).
fn gather(base: Pen, expanded: &str) -> Option<Gathered> {
    let mut w = Walk {
        parts: Parts {
            cells: Default::default(),
            blank: Cell::blank(Pen {
                bg: base.bg,
                ..Pen::default()
            }),
            ranges: Vec::new(),
        },
        style: Style::with_pen(base),
        current_default: base,
        current: Part::Left,
        map: [
            Part::Left,
            Part::Left,
            Part::Centre,
            Part::Right,
            Part::AbsoluteCentre,
        ],
        in_list: None,
        list_align: Align::Default,
        focus: Focus {
            start: None,
            end: None,
        },
        fill: None,
        open: None,
    };
    let b = expanded.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'#' && i + 1 < b.len() && b[i + 1] != b'[' {
            i = w.hashes(b, i);
            continue;
        }
        if b[i] != b'#' || i + 1 >= b.len() || w.style.ignore {
            i = w.text(expanded, i);
            continue;
        }
        let end = super::format::skip(b, i + 2, b"]")?;
        w.directive(base, &expanded[i + 2..end]);
        i = end + 1;
    }
    Some(Gathered {
        parts: w.parts,
        focus: w.focus,
        list_align: w.list_align,
        fill: w.fill,
    })
}

impl Walk {
    fn put_text(&mut self, text: String, width: u8) {
        let pen = self.style.pen;
        self.parts.push(self.current, text, width, pen);
    }

    /// A run of `#`s at `i` not followed by `[`, or followed by one: halved, and a style
    /// directive when their count is odd. Returns where the walk goes on.
    fn hashes(&mut self, b: &[u8], i: usize) -> usize {
        let n = b[i..].iter().take_while(|&&c| c == b'#').count();
        let even = n % 2 == 0;
        if b.get(i + n) != Some(&b'[') {
            let shown = if even { n / 2 } else { n / 2 + 1 };
            for _ in 0..shown {
                self.put_text("#".into(), 1);
            }
            return i + n;
        }
        // An odd run ends with the `#` of a directive, which the walk reads next.
        let next = if even { i + n + 1 } else { i + n - 1 };
        if self.style.ignore {
            return next;
        }
        for _ in 0..n / 2 {
            self.put_text("#".into(), 1);
        }
        if even {
            self.put_text("[".into(), 1);
        }
        next
    }

    /// One character at `i` (printable ASCII or UTF-8 tmux gives a width), drawn; anything
    /// else passed over. Returns where the walk goes on.
    fn text(&mut self, s: &str, i: usize) -> usize {
        let b = s.as_bytes()[i];
        if b.is_ascii() {
            if (0x20..0x7f).contains(&b) {
                self.put_text((b as char).to_string(), 1);
            }
            return i + 1;
        }
        // The string is UTF-8, so a byte that is not ASCII starts a character here.
        let Some(c) = s.get(i..).and_then(|rest| rest.chars().next()) else {
            return i + 1;
        };
        if let Some(width) = tmux_width(c) {
            self.put_text(c.to_string(), width);
        }
        i + c.len_utf8()
    }

    /// A `#[...]` directive: the style changed (unless it does not parse), then what it says
    /// about the default, the list and ranges.
    fn directive(&mut self, base: Pen, text: &str) {
        let saved = self.style;
        if !self.style.apply(&self.current_default, text) {
            return;
        }
        if self.style.fill != DEFAULT_COLOUR {
            self.fill = Some(self.style.fill);
        }
        match self.style.default_change {
            DefaultChange::Push => self.current_default = saved.pen,
            DefaultChange::Pop => self.current_default = base,
            DefaultChange::Base => {}
        }
        self.style.default_change = DefaultChange::Base;
        self.list_change();
        self.range_change();
    }

    fn list_width(&self) -> u32 {
        self.parts.width(Part::List)
    }

    /// Ends the focus where the list now ends, if it began and has not ended.
    fn end_focus(&mut self) {
        if self.focus.start.is_some() && self.focus.end.is_none() {
            self.focus.end = Some(self.list_width());
        }
    }

    fn list_change(&mut self) {
        let inside = self.in_list == Some(true);
        match self.style.list {
            List::On => {
                if !inside {
                    self.open = None;
                    self.in_list = Some(true);
                    self.list_align = self.style.align;
                }
                self.end_focus();
                self.current = Part::List;
            }
            List::Focus => {
                if inside && self.focus.start.is_none() {
                    self.focus.start = Some(self.list_width());
                }
            }
            List::Off => {
                if inside {
                    self.open = None;
                    self.end_focus();
                    self.map[self.list_align as usize] = Part::After;
                    if self.list_align == Align::Left {
                        self.map[Align::Default as usize] = Part::After;
                    }
                    self.in_list = Some(false);
                }
                self.current = self.map[self.style.align as usize];
            }
            List::LeftMarker | List::RightMarker => {
                let marker = if self.style.list == List::LeftMarker {
                    Part::ListLeft
                } else {
                    Part::ListRight
                };
                if !inside || self.parts.width(marker) != 0 {
                    return;
                }
                self.open = None;
                if self.focus.start.is_some() && self.focus.end.is_none() {
                    self.focus = Focus {
                        start: None,
                        end: None,
                    };
                }
                self.current = marker;
            }
        }
    }

    /// Ends the open range if the style's range is another, and opens one for the style's.
    fn range_change(&mut self) {
        let here = self.parts.width(self.current);
        if let Some(open) = self.open.take() {
            if open.range == self.style.range {
                self.open = Some(open);
            } else if here != open.start {
                self.parts.ranges.push(PartRange {
                    end: here + 1,
                    ..open
                });
            }
        }
        if self.open.is_none() && self.style.range != Range::None {
            self.open = Some(PartRange {
                part: self.current,
                start: here,
                end: here,
                range: self.style.range,
            });
        }
    }
}

/// The cells each part gets on the line.
#[derive(Clone, Copy)]
struct Widths {
    left: u32,
    centre: u32,
    right: u32,
    list: u32,
    after: u32,
}

/// The widths the parts `order` names get when they must fit in `available` together, each
/// giving way a cell at a time in that order (tmux's loops); the others get none.
fn fit(parts: &Parts, available: u32, order: &[Part]) -> Widths {
    let mut w = [0; PARTS];
    for &part in order {
        w[part as usize] = parts.width(part);
    }
    while w.iter().sum::<u32>() > available {
        let Some(part) = order.iter().find(|p| w[**p as usize] > 0) else {
            break;
        };
        w[*part as usize] -= 1;
    }
    Widths {
        left: w[Part::Left as usize],
        centre: w[Part::Centre as usize],
        right: w[Part::Right as usize],
        list: w[Part::List as usize],
        after: w[Part::After as usize],
    }
}

impl Parts {
    /// The left part at the line's start.
    fn put_left(&mut self, line: &mut [Cell], w: Widths) {
        self.put(line, Part::Left, 0, 0, w.left);
    }

    /// The end of `part`, `width` cells of it, ending at `end`.
    fn put_end(&mut self, line: &mut [Cell], part: Part, end: u32, width: u32) {
        let whole = self.width(part);
        self.put(line, part, end - width, whole - width, width);
    }

    /// The middle of the centre part, `width` cells of it, halfway between `from` and `to`.
    fn put_centre_between(&mut self, line: &mut [Cell], from: u32, to: u32, width: u32) {
        let whole = self.width(Part::Centre);
        let offset = from + (to - from) / 2 - width / 2;
        self.put(line, Part::Centre, offset, whole / 2 - width / 2, width);
    }

    /// The absolute centre, in the middle of the whole line.
    fn put_absolute_centre(&mut self, line: &mut [Cell], available: u32) {
        let width = self.width(Part::AbsoluteCentre).min(available);
        self.put(
            line,
            Part::AbsoluteCentre,
            (available - width) / 2,
            0,
            width,
        );
    }
}

/// tmux's `format_draw_none`: no list; the centre gives way first, then the right, then
/// the left.
fn draw_none(parts: &mut Parts, line: &mut [Cell], available: u32) {
    use Part::*;
    let w = fit(parts, available, &[Centre, Right, Left]);
    parts.put_left(line, w);
    parts.put_end(line, Right, available, w.right);
    parts.put_centre_between(line, w.left, available - w.right, w.centre);
    parts.put_absolute_centre(line, available);
}

/// The widths for a line with a list, the parts giving way in `order`, and the left part
/// drawn; `None` when no room is left for the list, in which case what follows it has
/// joined `host` and the line has been drawn as one without a list.
fn start_with_list(
    parts: &mut Parts,
    line: &mut [Cell],
    available: u32,
    order: &[Part],
    host: Part,
) -> Option<Widths> {
    let w = fit(parts, available, order);
    if w.list == 0 {
        parts.append(host, Part::After, w.after);
        draw_none(parts, line, available);
        return None;
    }
    parts.put_left(line, w);
    Some(w)
}

/// tmux's `format_draw_left`: the list after the left part.
fn draw_list_left(parts: &mut Parts, line: &mut [Cell], available: u32, focus: Focus) {
    use Part::*;
    let order = [Centre, List, Right, After, Left];
    let Some(w) = start_with_list(parts, line, available, &order, Left) else {
        return;
    };
    parts.put_end(line, Right, available, w.right);
    parts.put(line, After, w.left + w.list, 0, w.after);
    let before = w.left + w.list + w.after;
    parts.put_centre_between(line, before, available - w.right, w.centre);
    put_list(parts, line, w.left, w.list, focus.or(0));
    parts.put_absolute_centre(line, available);
}

/// tmux's `format_draw_centre`: the list in the middle of the room between left and right.
fn draw_list_centre(parts: &mut Parts, line: &mut [Cell], available: u32, focus: Focus) {
    use Part::*;
    let order = [List, After, Centre, Right, Left];
    let Some(w) = start_with_list(parts, line, available, &order, Centre) else {
        return;
    };
    parts.put_end(line, Right, available, w.right);
    let middle = w.left + ((available - w.right) - w.left) / 2;
    let list_at = middle - w.list / 2;
    parts.put(line, Centre, list_at - w.centre, 0, w.centre);
    parts.put(line, After, list_at + w.list, 0, w.after);
    let half = parts.width(List) / 2;
    put_list(parts, line, list_at, w.list, focus.or(half));
    parts.put_absolute_centre(line, available);
}

/// tmux's `format_draw_right`: the list before what follows it, at the right.
fn draw_list_right(parts: &mut Parts, line: &mut [Cell], available: u32, focus: Focus) {
    use Part::*;
    let order = [Centre, List, Right, After, Left];
    let Some(w) = start_with_list(parts, line, available, &order, Right) else {
        return;
    };
    parts.put_end(line, After, available, w.after);
    let right_at = available - w.right - w.list - w.after;
    parts.put(line, Right, right_at, 0, w.right);
    parts.put_centre_between(line, w.left, right_at, w.centre);
    put_list(parts, line, right_at + w.right, w.list, focus.or(0));
    parts.put_absolute_centre(line, available);
}

/// tmux's `format_draw_absolute_centre`: the absolute centre and the list together in the
/// middle of the whole line, drawn over the rest, which gives way apart from them.
fn draw_list_absolute_centre(parts: &mut Parts, line: &mut [Cell], available: u32, focus: Focus) {
    use Part::*;
    let mut w = fit(parts, available, &[Centre, Right, Left]);
    let (mut list, mut after, mut abs) = (
        parts.width(List),
        parts.width(After),
        parts.width(AbsoluteCentre),
    );
    while list + after + abs > available {
        if list > 0 {
            list -= 1;
        } else if after > 0 {
            after -= 1;
        } else {
            abs -= 1;
        }
    }
    (w.list, w.after) = (list, after);
    parts.put_left(line, w);
    parts.put_end(line, Right, available, w.right);
    let middle = w.left + ((available - w.right) - w.left) / 2;
    parts.put(line, Centre, middle - w.centre, 0, w.centre);
    let half = parts.width(List) / 2;
    let mut offset = (available - list - abs) / 2;
    parts.put(line, AbsoluteCentre, offset, 0, abs);
    offset += abs;
    put_list(parts, line, offset, list, focus.or(half));
    offset += list;
    parts.put(line, After, offset, 0, after);
}

impl Focus {
    /// The focus, or `at` for both ends when the list has none.
    fn or(self, at: u32) -> (u32, u32) {
        match (self.start, self.end) {
            (Some(start), Some(end)) => (start, end),
            _ => (at, at),
        }
    }
}

/// tmux's `format_draw_put_list`: the list whole if it fits, else the part around its
/// focus, with the markers at the ends that are cut.
fn put_list(parts: &mut Parts, line: &mut [Cell], offset: u32, width: u32, focus: (u32, u32)) {
    let list = parts.width(Part::List);
    if width >= list {
        parts.put(line, Part::List, offset, 0, width);
        return;
    }
    let (mut offset, mut width) = (offset, width);
    let centre = focus.0 + (focus.1.saturating_sub(focus.0)) / 2;
    let mut start = centre.saturating_sub(width / 2);
    if start + width > list {
        start = list - width;
    }
    let left_marker = parts.width(Part::ListLeft);
    if start != 0 && width > left_marker {
        parts.copy(line, Part::ListLeft, offset, 0, left_marker);
        offset += left_marker;
        start += left_marker;
        width -= left_marker;
    }
    let right_marker = parts.width(Part::ListRight);
    if start + width < list && width > right_marker {
        parts.copy(
            line,
            Part::ListRight,
            offset + width - right_marker,
            0,
            right_marker,
        );
        width -= right_marker;
    }
    parts.put(line, Part::List, offset, start, width);
}

/// Draws `text` onto `line` without reading directives (tmux's `screen_write_nputs`):
/// printable characters in `pen` until the next would not fit; anything else left out.
pub fn draw_plain(line: &mut [Cell], pen: Pen, text: &str) {
    let mut parts = Parts {
        cells: Default::default(),
        blank: Cell::blank(pen),
        ranges: Vec::new(),
    };
    for c in text.chars() {
        let width = match c {
            ' '..='~' => Some(1),
            _ if c.is_ascii() => None,
            _ => tmux_width(c).filter(|&w| w > 0),
        };
        if let Some(width) = width {
            parts.push(Part::Left, c.to_string(), width, pen);
        }
    }
    let shown = parts.width(Part::Left).min(line.len() as u32);
    parts.copy(line, Part::Left, 0, 0, shown);
}

/// The terminal's bytes for a drawn line: each cell's text, the pen changed where it
/// changes; half of a wide character whose other half was drawn over shows as a space.
pub fn push_line(out: &mut Vec<u8>, line: &[Cell]) {
    let mut pen = None;
    for (x, cell) in line.iter().enumerate() {
        let whole_wide = cell.width == 2 && line.get(x + 1).is_some_and(|n| n.width == 0);
        let text = match cell.width {
            0 if x > 0 && line[x - 1].width == 2 => continue,
            2 if whole_wide => cell.text.as_str(),
            1 => cell.text.as_str(),
            _ => " ",
        };
        if pen != Some(cell.pen) {
            out.extend_from_slice(cell.pen.sgr().as_bytes());
            pen = Some(cell.pen);
        }
        out.extend_from_slice(text.as_bytes());
    }
    out.extend_from_slice(b"\x1b[0m");
}

#[cfg(test)]
mod tests {
    use super::*;

    const GREEN: Pen = Pen {
        fg: 0,
        bg: 2,
        attr: 0,
    };

    fn drawn(width: usize, format: &str) -> (String, Vec<Cell>, Vec<DrawnRange>) {
        let mut line = vec![Cell::blank(GREEN); width];
        let ranges = draw(&mut line, GREEN, format);
        let text = line.iter().map(|c| c.text.as_str()).collect();
        (text, line, ranges)
    }

    fn text(width: usize, format: &str) -> String {
        drawn(width, format).0
    }

    #[test]
    fn alignments_place_text() {
        assert_eq!(text(10, "ab"), "ab        ");
        assert_eq!(text(10, "#[align=right]ab"), "        ab");
        assert_eq!(text(10, "#[align=centre]ab"), "    ab    ");
        assert_eq!(text(10, "L#[align=right]R#[align=centre]C"), "L    C   R");
        assert_eq!(text(9, "LL#[align=absolute-centre]A"), "LL  A    ");
    }

    #[test]
    fn the_centre_gives_way_first_then_the_right() {
        assert_eq!(text(6, "left#[align=right]right"), "leftht");
        assert_eq!(text(5, "abc#[align=centre]XYZ#[align=right]de"), "abcde");
    }

    #[test]
    fn hashes_halve_and_escape_directives() {
        assert_eq!(text(8, "a##b"), "a#b     ");
        assert_eq!(text(8, "a###b"), "a##b    ");
        assert_eq!(text(8, "##[x]"), "#[x]    ");
        assert_eq!(text(8, "###[fg=red]x"), "#x      ");
    }

    #[test]
    fn styles_apply_and_default_returns_to_the_base() {
        let (_, line, _) = drawn(4, "a#[fg=red,bold]b#[default]c");
        assert_eq!(line[0].pen, GREEN);
        assert_eq!(
            (line[1].pen.fg, line[1].pen.bg, line[1].pen.attr),
            (1, 2, 1)
        );
        assert_eq!(line[2].pen, GREEN);
        // A bad directive changes nothing; an unterminated one draws nothing at all.
        assert_eq!(drawn(3, "#[fg=bogus]x").1[0].pen, GREEN);
        assert_eq!(text(3, "ab#[fg=red"), "   ");
    }

    #[test]
    fn push_default_changes_what_default_means() {
        let (_, line, _) = drawn(3, "#[fg=red]#[push-default]a#[fg=blue]b#[default]c");
        assert_eq!(line[0].pen.fg, 1);
        assert_eq!(line[1].pen.fg, 4);
        assert_eq!(line[2].pen.fg, 1);
        let (_, line, _) = drawn(2, "#[fg=red push-default]#[pop-default]#[default]a");
        assert_eq!(line[0].pen, GREEN);
    }

    #[test]
    fn fill_clears_the_line_first() {
        let (_, line, _) = drawn(3, "#[fill=blue]a");
        assert_eq!(line[2].pen.bg, 4);
        assert_eq!(line[2].pen.fg, 8);
    }

    fn list_format(windows: &[&str], current: usize) -> String {
        let mut f = String::from(
            "[s] #[list=on align=left]#[list=left-marker]<#[list=right-marker]>#[list=on]",
        );
        for (i, w) in windows.iter().enumerate() {
            let focus = if i == current { " list=focus" } else { "" };
            f += &format!("#[range=window|{i}{focus}]{w}#[norange list=on] ");
        }
        f + "#[nolist align=right range=right]R#[norange]"
    }

    #[test]
    fn a_list_that_fits_is_drawn_whole_with_ranges() {
        let (t, _, ranges) = drawn(20, &list_format(&["0:a", "1:b"], 0));
        assert_eq!(t, "[s] 0:a 1:b        R");
        let window = |n| ranges.iter().find(|r| r.range == Range::Window(n)).copied();
        assert_eq!(window(0).map(|r| (r.start, r.end)), Some((4, 8)));
        assert_eq!(window(1).map(|r| (r.start, r.end)), Some((8, 12)));
        let right = ranges.iter().find(|r| r.range == Range::Right).unwrap();
        assert_eq!((right.start, right.end), (19, 20));
    }

    #[test]
    fn a_long_list_is_cut_around_its_focus_with_markers() {
        let windows = ["0:aaaa", "1:bbbb", "2:cccc", "3:dddd", "4:eeee"];
        assert_eq!(text(20, &list_format(&windows, 0)), "[s] 0:aaaa 1:bbbb >R");
        assert_eq!(text(20, &list_format(&windows, 4)), "[s] <3:dddd 4:eeee R");
        assert_eq!(text(20, &list_format(&windows, 2)), "[s] <bb 2:cccc 3:d>R");
    }

    #[test]
    fn wide_characters_take_two_cells_and_are_not_split() {
        let (t, line, _) = drawn(3, "a\u{4e2d}b");
        assert_eq!(t, "a\u{4e2d}");
        assert_eq!(line[1].width, 2);
        assert_eq!(line[2].width, 0);
        let mut out = Vec::new();
        push_line(&mut out, &line);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("{}a\u{4e2d}\x1b[0m", GREEN.sgr())
        );
        // Cut at its first half, a wide character is left out.
        assert_eq!(text(3, "ab\u{4e2d}"), "ab ");
    }

    #[test]
    fn controls_are_left_out() {
        assert_eq!(text(4, "a\tb\x7fc"), "abc ");
    }
}
