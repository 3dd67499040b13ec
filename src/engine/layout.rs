//! tmux's window layouts, as far as a window of one pane has them.
//!
//! A layout string (what `#{window_layout}` prints and `select-layout` takes) is a checksum
//! of four hex digits, a comma, and a tree of cells: `WxH,X,Y` then a pane id for a pane, or
//! `{...}` (side by side) or `[...]` (one above the other) holding cells separated by commas.
//! tmux fits a window with fewer panes than the layout has cells by closing the bottom-right
//! cell, giving its width (or height) and the border to the cell before it, until the panes
//! and cells are as many; here one cell is left, and its size becomes the window's. This
//! module parses and folds such a string; it keeps no state and touches nothing.

/// The five layouts tmux arranges panes in, in its order (`next-layout` cycles them).
pub const PRESETS: [&str; 5] = [
    "even-horizontal",
    "even-vertical",
    "main-horizontal",
    "main-vertical",
    "tiled",
];

/// The preset `name` abbreviates (tmux's layout_set_lookup: a prefix of exactly one).
pub fn preset(name: &str) -> Option<&'static str> {
    let mut matches = PRESETS.iter().filter(|p| p.starts_with(name));
    let first = matches.next()?;
    matches.next().is_none().then_some(*first)
}

/// tmux's layout_checksum of a layout's body (what follows the checksum and its comma).
fn checksum(body: &[u8]) -> u16 {
    body.iter().fold(0u16, |c, &b| {
        ((c >> 1) | ((c & 1) << 15)).wrapping_add(u16::from(b))
    })
}

/// The layout of a window of one pane `sx` by `sy` (pane `pane_id`), as tmux prints it.
pub fn one_pane(sx: u32, sy: u32, pane_id: u32) -> String {
    let body = format!("{sx}x{sy},0,0,{pane_id}");
    format!("{:04x},{body}", checksum(body.as_bytes()))
}

/// The size a window of one pane takes from layout string `layout`, or `None` when it is not
/// a valid layout (a checksum that does not match included).
pub fn one_pane_size(layout: &str) -> Option<(u64, u64)> {
    let (sum, body) = layout.split_at_checked(5)?;
    let sum = sum.strip_suffix(',')?;
    if sum.len() != 4 || !sum.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    if u16::from_str_radix(sum, 16).ok()? != checksum(body.as_bytes()) {
        return None;
    }
    let mut at = body.as_bytes();
    let cell = cell(&mut at, 0)?;
    at.is_empty().then(|| folded(&cell))
}

/// How deep cells may nest. tmux prints layouts into 8,192 bytes, so none of its own nests
/// deeper than about 800 (a level takes ten bytes at least); a request could nest far deeper,
/// and each level is a call of [`cell`] and [`folded`] on the server's stack.
const MAX_DEPTH: usize = 1024;

enum Cell {
    Pane(u64, u64),
    /// Children side by side (`{}`) or one above the other (`[]`).
    Split {
        across: bool,
        children: Vec<Cell>,
    },
}

/// The size of the one cell left once every cell but the first is closed, bottom-right first:
/// each closed cell's size and border go to the one before it.
fn folded(cell: &Cell) -> (u64, u64) {
    match cell {
        Cell::Pane(sx, sy) => (*sx, *sy),
        Cell::Split { across, children } => {
            let (first, rest) = children.split_first().expect("a split has children");
            let (mut sx, mut sy) = folded(first);
            // Saturating: the sizes are any numbers a request gives.
            for (cx, cy) in rest.iter().map(folded) {
                if *across {
                    sx = sx.saturating_add(cx).saturating_add(1);
                } else {
                    sy = sy.saturating_add(cy).saturating_add(1);
                }
            }
            (sx, sy)
        }
    }
}

/// Digits at the front of `at`, taken off it.
fn number(at: &mut &[u8]) -> Option<u64> {
    let n = at.iter().take_while(|b| b.is_ascii_digit()).count();
    let (digits, rest) = at.split_at(n);
    *at = rest;
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// `b` at the front of `at`, taken off it.
fn expect(at: &mut &[u8], b: u8) -> Option<()> {
    let (&first, rest) = at.split_first()?;
    *at = rest;
    (first == b).then_some(())
}

/// One cell from the front of `at`, `depth` cells deep (tmux's layout_construct).
fn cell(at: &mut &[u8], depth: usize) -> Option<Cell> {
    if depth > MAX_DEPTH {
        return None;
    }
    let sx = number(at)?;
    expect(at, b'x')?;
    let sy = number(at)?;
    expect(at, b',')?;
    number(at)?;
    expect(at, b',')?;
    number(at)?;
    // A pane id, unless the comma starts the next cell (`WxH`).
    if let Some(rest) = at.strip_prefix(b",") {
        let mut after = rest;
        if number(&mut after).is_some() && after.first() != Some(&b'x') {
            *at = after;
        }
    }
    let (across, close) = match at.first() {
        None | Some(b',' | b'}' | b']') => return Some(Cell::Pane(sx, sy)),
        Some(b'{') => (true, b'}'),
        Some(b'[') => (false, b']'),
        Some(_) => return None,
    };
    let mut children = Vec::new();
    loop {
        *at = &at[1..];
        children.push(cell(at, depth + 1)?);
        if at.first() != Some(&b',') {
            break;
        }
    }
    expect(at, close)?;
    Some(Cell::Split { across, children })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `body` with its checksum.
    fn layout(body: &str) -> String {
        format!("{:04x},{body}", checksum(body.as_bytes()))
    }

    #[test]
    fn checksums_are_tmuxs() {
        // As tmux 3.3a prints them for windows of one pane.
        assert_eq!(one_pane(100, 30, 0), "a87d,100x30,0,0,0");
        assert_eq!(one_pane(120, 40, 0), "aafd,120x40,0,0,0");
        assert_eq!(layout("5x3,0,0,0"), "d15d,5x3,0,0,0");
    }

    #[test]
    fn presets_are_found_by_a_prefix_of_one() {
        assert_eq!(preset("tiled"), Some("tiled"));
        assert_eq!(preset("t"), Some("tiled"));
        assert_eq!(preset("even-h"), Some("even-horizontal"));
        assert_eq!(preset("e"), None);
        assert_eq!(preset("main"), None);
        assert_eq!(preset(""), None);
        assert_eq!(preset("bogus"), None);
    }

    #[test]
    fn a_layout_folds_into_its_first_cell() {
        // Sizes as tmux 3.3a gave a window of one pane for these layouts.
        let cases = [
            ("100x30,0,0,0", (100, 30)),
            ("120x40,0,0,7", (120, 40)),
            ("120x40,0,0{60x40,0,0,1,59x40,61,0,2}", (120, 40)),
            ("120x40,0,0{60x40,0,0,1,50x40,61,0,2}", (111, 40)),
            (
                "120x40,0,0[120x20,0,0,1,120x19,0,21{60x19,0,21,3,59x19,61,21,4}]",
                (120, 40),
            ),
            ("120x40,0,0{60x40,0,0,1,59x40,61,0}", (120, 40)),
            ("1x1,0,0,0", (1, 1)),
        ];
        for (body, size) in cases {
            assert_eq!(one_pane_size(&layout(body)), Some(size), "{body}");
        }
    }

    #[test]
    fn bad_layouts_are_refused() {
        for text in [
            "a87d,100x30,0,0,0,5",
            "ab12,120x40,0,0,0",
            "",
            "b",
            "zzz",
            "a87d,",
            "a87,100x30,0,0,0",
        ] {
            assert_eq!(one_pane_size(text), None, "{text:?}");
        }
        for body in [
            "100x30,0,0{",
            "100x30,0,0{1x1,0,0,1",
            "x1,0,0,0",
            "1x1,0,0,0]",
        ] {
            assert_eq!(one_pane_size(&layout(body)), None, "{body}");
        }
    }

    #[test]
    fn what_a_request_may_send_is_refused_or_saturates() {
        // Nested past MAX_DEPTH: refused, not followed down the stack.
        let deep = format!(
            "{}1x1,0,0,1{}",
            "1x1,0,0{".repeat(100_000),
            "}".repeat(100_000)
        );
        assert_eq!(one_pane_size(&layout(&deep)), None);
        let nested = |n: usize| format!("{}1x1,0,0,1{}", "1x1,0,0{".repeat(n), "}".repeat(n));
        assert_eq!(one_pane_size(&layout(&nested(MAX_DEPTH))), Some((1, 1)));
        // Sizes that add past the largest number stop there.
        let huge = format!("1x1,0,0{{{0}x1,0,0,1,{0}x1,0,0,2}}", u64::MAX);
        assert_eq!(one_pane_size(&layout(&huge)), Some((u64::MAX, 1)));
    }
}
