//! Commands that move windows between indices and sessions, and panes between windows:
//! move-window (movew), swap-window (swapw), break-pane (breakp), unlink-window (unlinkw)
//! and swap-pane (swapp), as tmux 3.3a has them. Every zeropty window holds one pane, which
//! is a case tmux has too: its break-pane then moves the window as move-window does, its
//! swap-pane swaps the panes of two windows, and its unlink-window refuses a window in a
//! single session unless `-k` (then the window goes).
//!
//! tmux links a window at its new place before it unlinks it from the old one, and a
//! session's current window and last-window stack name places, not windows; zeropty keeps
//! a window in one place and names windows by id, so each move states what tmux's order of
//! links leaves: which window is current and what the stack holds (see
//! [`Session::reindex_window`](crate::engine::session::Session::reindex_window)). A window
//! moved out of a session's last window ends the session, as in tmux. Windows are never in
//! two sessions at once (tmux's link-window is not supported).

use super::window::{
    base_index, notify, remove_window, renumber_session, resize_to, room_beside, visible_name,
};
use crate::engine::cmdline::Args;
use crate::engine::session::Window;
use crate::engine::target::{self, Found, IndexTarget, Kind};
use crate::engine::{Ctx, Engine};

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!(
        "move-window",
        Some("movew"),
        "abdkrs:t:",
        0,
        Some(0),
        "[-abdkr] [-s src-window] [-t dst-window]",
        false,
        move_window
    ),
    crate::command_def!(
        "swap-window",
        Some("swapw"),
        "ds:t:",
        0,
        Some(0),
        "[-d] [-s src-window] [-t dst-window]",
        false,
        swap_window
    ),
    crate::command_def!(
        "break-pane",
        Some("breakp"),
        "abdPF:n:s:t:",
        0,
        Some(0),
        "[-abdP] [-F format] [-n window-name] [-s src-pane] [-t dst-window]",
        false,
        break_pane
    ),
    crate::command_def!(
        "swap-pane",
        Some("swapp"),
        "dDs:t:UZ",
        0,
        Some(0),
        "[-dDUZ] [-s src-pane] [-t dst-pane]",
        false,
        swap_pane
    ),
    crate::command_def!(
        "unlink-window",
        Some("unlinkw"),
        "kt:",
        0,
        Some(0),
        "[-k] [-t target-window]",
        false,
        unlink_window
    ),
];

fn move_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    if args.has('r') {
        // tmux looks for the session quietly: none found, nothing done, no error.
        if let Ok(f) = target::resolve(&e.sessions, args.get('t'), Kind::Session, ctx.calling_pane)
        {
            let base = base_index(e, f.session);
            e.sessions[f.session].renumber(base);
        }
        return Ok(());
    }
    let src = target::resolve(&e.sessions, args.get('s'), Kind::Window, ctx.calling_pane)?;
    let dst = target::resolve_index(&e.sessions, args.get('t'), ctx.calling_pane)?;
    let si = src.session;
    let source_ended = relink(e, src, dst, args)?;
    if !source_ended && !args.has('s') {
        // Only the source: the window's new index was chosen (or given) in the target.
        renumber_session(e, si);
    }
    Ok(())
}

/// Moves the window at `src` to `dst` (an index, or the first free one from base-index) as
/// tmux's server_link_window then server_unlink_window: `-a`/`-b` make room beside the
/// target, `-k` kills a window in the way, `-d` leaves the current window alone. Returns
/// whether the source session ended (it lost its last window).
fn relink(e: &mut Engine, src: Found, dst: IndexTarget, args: &Args) -> Result<bool, String> {
    let (si, di) = (src.session, dst.session);
    let (moving, pane) = {
        let w = &e.sessions[si].windows[src.window];
        (w.id, w.pane.id)
    };
    let mut index = dst.index;
    if args.has('a') || args.has('b') {
        let wi = dst.window.unwrap_or(e.sessions[di].current);
        index = room_beside(e, di, wi, args.has('b')).or(index);
    }
    let mut current = Some(e.sessions[di].current_window().id);
    if let Some(i) = index {
        if let Some(wi) = e.sessions[di].position_of_index(i) {
            if e.sessions[di].windows[wi].id == moving {
                return Err(format!("same index: {i}"));
            }
            if !args.has('k') {
                return Err(format!("index in use: {i}"));
            }
            let (mut old, was_current) = e.sessions[di].unlink_window(wi);
            notify(e, "window-unlinked", di, Some(old.pane.id));
            e.hang_up(&mut old.pane);
            if was_current {
                current = None;
            }
        }
    }
    let index = index.unwrap_or_else(|| e.sessions[di].next_index(base_index(e, di)));
    // A killed current window makes the moved one current, -d or not.
    let select = !args.has('d') || current.is_none();
    if si == di {
        e.sessions[si].reindex_window(moving, index, current, select);
    } else {
        let mut window = e.sessions[si].remove_window(src.window);
        window.index = index;
        let at = e.sessions[di].insert_window(window);
        match current {
            None => e.sessions[di].set_current(at),
            Some(_) if select => {
                e.sessions[di].select(at);
            }
            Some(_) => {}
        }
    }
    notify(e, "window-linked", di, Some(pane));
    notify(e, "window-unlinked", si, Some(pane));
    if e.sessions[si].windows.is_empty() {
        let id = e.sessions[si].id;
        e.kill_session(id);
        return Ok(true);
    }
    Ok(false)
}

/// break-pane of a window's only pane: its window moves (tmux renumbers nothing here, and
/// `-P` prints nothing on this path of tmux's); `-n` names it, automatic-rename off.
fn break_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let src = target::resolve(&e.sessions, args.get('s'), Kind::Pane, ctx.calling_pane)?;
    let dst = target::resolve_index(&e.sessions, args.get('t'), ctx.calling_pane)?;
    let moving = e.sessions[src.session].windows[src.window].id;
    relink(e, src, dst, args)?;
    if let Some(name) = args.get('n') {
        let found = e
            .sessions
            .iter()
            .enumerate()
            .find_map(|(si, s)| s.position_of_id(moving).map(|wi| (si, wi)));
        if let Some((si, wi)) = found {
            let w = &mut e.sessions[si].windows[wi];
            w.name = visible_name(name);
            w.automatic_rename = false;
            let pane = w.pane.id;
            notify(e, "window-renamed", si, Some(pane));
        }
    }
    Ok(())
}

/// unlink-window: a window is only ever in one session, so without `-k` it fails as tmux's
/// does for such a window, and with `-k` the window goes (no renumbering, as in tmux).
fn unlink_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = target::resolve(&e.sessions, args.get('t'), Kind::Window, ctx.calling_pane)?;
    if !args.has('k') {
        return Err("window only linked to one session".into());
    }
    remove_window(e, f.session, f.window, false);
    Ok(())
}

fn swap_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let src = target::resolve(&e.sessions, args.get('s'), Kind::Window, ctx.calling_pane)?;
    let dst = target::resolve(&e.sessions, args.get('t'), Kind::Window, ctx.calling_pane)?;
    if src == dst {
        return Ok(());
    }
    let a = e.sessions[src.session].windows[src.window].id;
    let b = e.sessions[dst.session].windows[dst.window].id;
    if src.session == dst.session {
        let s = &mut e.sessions[src.session];
        s.windows.swap(src.window, dst.window);
        let (i, j) = (s.windows[src.window].index, s.windows[dst.window].index);
        (s.windows[src.window].index, s.windows[dst.window].index) = (j, i);
        s.swap_in_stack(a, b);
    } else {
        let (x, y) = pair_mut(&mut e.sessions, src.session, dst.session);
        let (wa, wb) = (&mut x.windows[src.window], &mut y.windows[dst.window]);
        std::mem::swap(wa, wb);
        std::mem::swap(&mut wa.index, &mut wb.index);
        x.swap_in_stack(a, b);
        y.swap_in_stack(a, b);
    }
    // tmux 3.3a selects the windows' places with -d, not without (its manual says the
    // opposite).
    if args.has('d') {
        e.sessions[dst.session].select(dst.window);
        if src.session != dst.session {
            e.sessions[src.session].select(src.window);
        }
    }
    Ok(())
}

/// swap-pane: the panes of two windows change places, each taking its options, start command
/// and state with it, and the size of the window it goes to (windows keep their names,
/// indices and sizes), as tmux's. With no marked pane the source defaults to the target,
/// and `-U`/`-D` pick the next pane of the target's window, which is itself: such a swap
/// leaves everything alone, as in tmux. A window's automatic name follows its new pane from
/// that pane's next output, as tmux renames on output.
fn swap_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let src = target::resolve(&e.sessions, args.get('s'), Kind::Pane, ctx.calling_pane)?;
    let dst = target::resolve(&e.sessions, args.get('t'), Kind::Pane, ctx.calling_pane)?;
    if src == dst || args.has('U') || args.has('D') {
        return Ok(());
    }
    let size = |f: Found| {
        let pane = &e.sessions[f.session].windows[f.window].pane;
        (pane.term.cols(), pane.term.rows())
    };
    let sizes = [(src, size(src)), (dst, size(dst))];
    let swap = |a: &mut Window, b: &mut Window| {
        std::mem::swap(&mut a.pane, &mut b.pane);
        std::mem::swap(&mut a.pane_options, &mut b.pane_options);
        std::mem::swap(&mut a.command, &mut b.command);
        std::mem::swap(&mut a.dead_time, &mut b.dead_time);
        std::mem::swap(&mut a.input_off, &mut b.input_off);
        a.name_checked = (0, 0);
        b.name_checked = (0, 0);
    };
    if src.session == dst.session {
        let windows = &mut e.sessions[src.session].windows;
        let (a, b) = pair_mut(windows, src.window, dst.window);
        swap(a, b);
    } else {
        let (x, y) = pair_mut(&mut e.sessions[..], src.session, dst.session);
        swap(&mut x.windows[src.window], &mut y.windows[dst.window]);
    }
    for (f, (cols, rows)) in sizes {
        resize_to(e, f, cols, rows);
    }
    e.clients.touch_all();
    Ok(())
}

/// Two different elements of a slice, both mutable.
fn pair_mut<T>(items: &mut [T], i: usize, j: usize) -> (&mut T, &mut T) {
    debug_assert_ne!(i, j);
    if i < j {
        let (low, high) = items.split_at_mut(j);
        (&mut low[i], &mut high[0])
    } else {
        let (low, high) = items.split_at_mut(i);
        (&mut high[0], &mut low[j])
    }
}
