//! Layout commands: select-layout (selectl), next-layout (nextl), previous-layout (prevl) and
//! rotate-window (rotatew), as tmux 3.3a has them for windows of one pane.
//!
//! Every preset arranges one pane the same way (it fills the window), and rotating one pane
//! moves nothing, so those succeed and change nothing. A layout string (`#{window_layout}`
//! of a window, possibly of more panes) gives the window the size tmux gives it, as
//! [`crate::engine::layout`] folds it; `-o` goes back to the size the window had when a layout
//! command last ran. A name that is neither a preset nor a layout is refused with
//! `invalid layout: NAME` (tmux 3.3a's server crashes on those that do not start with a hex
//! digit).

use super::resolve;
use super::window::resize_to;
use crate::engine::cmdline::Args;
use crate::engine::layout;
use crate::engine::target::{Found, Kind};
use crate::engine::{Ctx, Engine};

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!(
        "next-layout",
        Some("nextl"),
        "t:",
        0,
        Some(0),
        "[-t target-window]",
        false,
        next_layout
    ),
    crate::command_def!(
        "previous-layout",
        Some("prevl"),
        "t:",
        0,
        Some(0),
        "[-t target-window]",
        false,
        next_layout
    ),
    crate::command_def!(
        "rotate-window",
        Some("rotatew"),
        "Dt:UZ",
        0,
        Some(0),
        "[-DUZ] [-t target-window]",
        false,
        rotate_window
    ),
    crate::command_def!(
        "select-layout",
        Some("selectl"),
        "Enopt:",
        0,
        Some(1),
        "[-Enop] [-t target-pane] [layout-name]",
        false,
        select_layout
    ),
];

/// Notes the window's size as the layout `-o` goes back to, returning the one noted before.
fn note_layout(e: &mut Engine, f: Found) -> Option<(u32, u32)> {
    let w = &mut e.sessions[f.session].windows[f.window];
    let now = (w.pane.term.cols(), w.pane.term.rows());
    w.layout_before.replace(now)
}

fn next_layout(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Window)?;
    note_layout(e, f);
    Ok(())
}

fn rotate_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    resolve(e, ctx, args, Kind::Window)?;
    Ok(())
}

fn select_layout(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    let before = note_layout(e, f);
    if args.has('n') || args.has('p') || args.has('E') {
        return Ok(());
    }
    let size = if let Some(name) = args.string(0) {
        if !args.has('o') && layout::preset(name).is_some() {
            return Ok(());
        }
        match layout::one_pane_size(name) {
            Some(size) => size,
            None => {
                // As in tmux, a failed command leaves the layout `-o` goes back to as it was.
                e.sessions[f.session].windows[f.window].layout_before = before;
                return Err(format!("invalid layout: {name}"));
            }
        }
    } else {
        match before {
            Some((sx, sy)) if args.has('o') => (sx.into(), sy.into()),
            _ => return Ok(()),
        }
    };
    let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    resize_to(e, f, clamp(size.0), clamp(size.1));
    Ok(())
}
