//! Window and pane commands: new-window, kill-window, list-windows, rename-window,
//! select-window, next-window, previous-window, last-window, list-panes, kill-pane,
//! select-pane, last-pane, resize-window, resize-pane, and the commands that would build
//! multi-pane layouts (split-window, join-pane, move-pane), which fail.
//!
//! Each window holds exactly one pane, so the pane commands act on the window's pane and
//! whatever would pick between panes finds the only one (or none, for the last pane). A
//! window's size is its pane's size: resizing a window resizes the pane's screen (reflowing
//! it), tells the program its new size and sends SIGWINCH to the terminal's foreground
//! process group, as a PTY's TIOCSWINSZ would.
//!
//! Invariants kept here: a window removed from its session hangs up its program, and a
//! session left without windows is removed; window indices are renumbered from base-index
//! after a kill when renumber-windows is on; commands that make a window current also make
//! it the current target of the rest of the request (tmux's command-queue state), through
//! `Ctx::calling_pane`.

use super::format_values::FormatKind;
use super::session::{spawn_window, SpawnWindow};
use super::{absolute, expand, resolve, words, FormatValues, WINDOW_MAXIMUM};
use crate::engine::cmdline::Args;
use crate::engine::format;
use crate::engine::numbers;
use crate::engine::options::{HookEvent, Value};
use crate::engine::target::{self, Found, Kind};
use crate::engine::{Ctx, Engine};

/// The message for commands that would put a second pane in a window.
fn one_pane_only(command: &str) -> String {
    format!("zeropty: windows hold one pane; {command} is not supported")
}

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!("join-pane", Some("joinp"), "bdfhvp:l:s:t:", 0, Some(0),
        "[-bdfhv] [-l size] [-s src-pane] [-t dst-pane]", false, join_pane),
    crate::command_def!("kill-pane", Some("killp"), "at:", 0, Some(0), "[-a] [-t target-pane]", false, kill_pane),
    crate::command_def!("kill-window", Some("killw"), "at:", 0, Some(0), "[-a] [-t target-window]", false, kill_window),
    crate::command_def!("last-pane", Some("lastp"), "det:Z", 0, Some(0), "[-deZ] [-t target-window]", false, last_pane),
    crate::command_def!("last-window", Some("last"), "t:", 0, Some(0), "[-t target-session]", false, last_window),
    crate::command_def!("list-panes", Some("lsp"), "asF:f:t:", 0, Some(0),
        "[-as] [-F format] [-f filter] [-t target-window]", false, list_panes),
    crate::command_def!("list-windows", Some("lsw"), "F:f:at:", 0, Some(0),
        "[-a] [-F format] [-f filter] [-t target-session]", false, list_windows),
    crate::command_def!("move-pane", Some("movep"), "bdfhvp:l:s:t:", 0, Some(0),
        "[-bdfhv] [-l size] [-s src-pane] [-t dst-pane]", false, move_pane),
    crate::command_def!("new-window", Some("neww"), "abc:de:F:kn:PSt:", 0, None,
        "[-abdkPS] [-c start-directory] [-e environment] [-F format] [-n window-name] [-t target-window] [shell-command]",
        false, new_window),
    crate::command_def!("next-window", Some("next"), "at:", 0, Some(0), "[-a] [-t target-session]", false, next_window),
    crate::command_def!("previous-window", Some("prev"), "at:", 0, Some(0), "[-a] [-t target-session]", false, previous_window),
    crate::command_def!("rename-window", Some("renamew"), "t:", 1, Some(1), "[-t target-window] new-name", false, rename_window),
    crate::command_def!("resize-pane", Some("resizep"), "DLMRTt:Ux:y:Z", 0, Some(1),
        "[-DLMRTUZ] [-x width] [-y height] [-t target-pane] [adjustment]", false, resize_pane),
    crate::command_def!("resize-window", Some("resizew"), "aADLRt:Ux:y:", 0, Some(1),
        "[-aADLRU] [-x width] [-y height] [-t target-window] [adjustment]", false, resize_window),
    crate::command_def!("select-pane", Some("selectp"), "DdegLlMmP:RT:t:UZ", 0, Some(0),
        "[-DdeLlMmRUZ] [-T title] [-t target-pane]", false, select_pane),
    crate::command_def!("select-window", Some("selectw"), "lnpTt:", 0, Some(0), "[-lnpT] [-t target-window]", false, select_window),
    // tmux 3.3a's usage string really lacks the space before [shell-command].
    crate::command_def!("split-window", Some("splitw"), "bc:de:fF:hIl:p:Pt:vZ", 0, None,
        "[-bdefhIPvZ] [-c start-directory] [-e environment] [-F format] [-l size] [-t target-pane][shell-command]",
        false, split_window),
];

// ---- shared helpers ----

/// Makes the session's current window the current target for the rest of the request.
fn follow_current(e: &Engine, ctx: &mut Ctx<'_>, si: usize) {
    ctx.calling_pane = Some(e.sessions[si].current_window().pane.id);
}

/// The size new windows of a session get: what its attached clients give its windows, else
/// its `default-size` option (which `new-session -x/-y` sets).
fn session_size(e: &Engine, si: usize) -> (u32, u32) {
    if let Some(size) = e.new_window_size(si) {
        return size;
    }
    e.options
        .session_string(&e.sessions[si], "default-size")
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .map_or((80, 24), |(w, h): (u32, u32)| {
            (w.clamp(1, WINDOW_MAXIMUM), h.clamp(1, WINDOW_MAXIMUM))
        })
}

/// Removes a window as tmux's server_kill_window: hangs up its program, removes a session
/// left empty, renumbers when asked and renumber-windows is on. Returns whether the session
/// is gone (positions after `si` then moved down).
pub(super) fn remove_window(e: &mut Engine, si: usize, wi: usize, renumber: bool) -> bool {
    let mut w = e.sessions[si].remove_window(wi);
    notify(e, "window-unlinked", si, Some(w.pane.id));
    e.hang_up(&mut w.pane);
    if e.sessions[si].windows.is_empty() {
        let id = e.sessions[si].id;
        e.kill_session(id);
        return true;
    }
    if renumber {
        renumber_session(e, si);
    }
    false
}

/// Queues a notification for hooks (tmux's notify_session_window and notify_window).
pub(super) fn notify(e: &mut Engine, name: &'static str, si: usize, pane: Option<u32>) {
    e.pending_hooks.push(HookEvent {
        name,
        session: Some(e.sessions[si].id),
        pane,
    });
}

pub(super) fn renumber_session(e: &mut Engine, si: usize) {
    let s = &e.sessions[si];
    if e.options.session_string(s, "renumber-windows") == "on" {
        let base = base_index(e, si);
        e.sessions[si].renumber(base);
    }
}

/// `-a` and `-b`: makes room after (or before, `before`) the window at `wi` by moving the
/// windows from there up to the first free index; returns the index made free (`None`
/// when none is, as tmux then leaves the index alone).
pub(super) fn room_beside(e: &mut Engine, si: usize, wi: usize, before: bool) -> Option<u32> {
    let at = e.sessions[si].windows[wi].index;
    let from = if before { Some(at) } else { at.checked_add(1) };
    from.and_then(|f| e.sessions[si].shuffle_up(f))
}

pub(super) fn base_index(e: &Engine, si: usize) -> u32 {
    e.options
        .session_number(&e.sessions[si], "base-index")
        .clamp(0, i32::MAX as i64) as u32
}

/// Resizes a window (its pane): the screen reflows, the program learns the size and gets
/// SIGWINCH, copy modes over it follow. Sizes are clamped to tmux's 1..=10000.
pub(super) fn resize_to(e: &mut Engine, f: Found, cols: u32, rows: u32) {
    let cols = cols.clamp(1, WINDOW_MAXIMUM);
    let rows = rows.clamp(1, WINDOW_MAXIMUM);
    e.resize_pane(f.session, f.window, cols, rows);
}

/// tmux's strtonum for a count (`adjustment`): 1..=INT_MAX, with its error words.
fn adjustment(args: &Args) -> Result<u32, String> {
    let Some(v) = words(args).into_iter().next() else {
        return Ok(1);
    };
    Ok(numbers::argument(&v, 1, i32::MAX.into(), "adjustment")? as u32)
}

/// tmux's window_set_name: the name is stored made visible (utf8_stravis with
/// VIS_OCTAL|VIS_CSTYLE|VIS_TAB|VIS_NL), so control characters show as escapes.
pub(super) fn visible_name(name: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        match c {
            '$' if next.is_some_and(|n| n.is_ascii_alphabetic() || n == '_' || n == '{') => {
                out.push_str("\\$")
            }
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\x08' => out.push_str("\\b"),
            '\x07' => out.push_str("\\a"),
            '\x0b' => out.push_str("\\v"),
            '\t' => out.push_str("\\t"),
            '\x0c' => out.push_str("\\f"),
            c if c.is_ascii_control() => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

// ---- automatic names ----

/// tmux's NAME_INTERVAL: a window's automatic name is checked at most this often (ms).
pub const NAME_INTERVAL_MS: u64 = 500;

/// tmux's automatic-rename: a window whose program has written since its name was last
/// checked, at least [`NAME_INTERVAL_MS`] ago, takes the name `automatic-rename-format`
/// gives (by default the command running in the foreground). tmux checks after every turn of
/// its loop; here the check runs before every command, which is when a name can be seen.
/// Only windows whose panes wrote since their name was checked are looked at
/// (`Engine::names_due`); with `attached_only`, only those of sessions a client shows (the
/// names a status line draws: the others wait for the next command). True when a name
/// changed.
pub(super) fn refresh_names(e: &mut Engine, attached_only: bool) -> bool {
    e.sort_arrivals();
    let now = e.host.now_ms();
    let mut due = Vec::new();
    let mut pending = std::mem::take(&mut e.names_due);
    pending.retain(|&pane_id| {
        let Some((si, wi)) = e.locate_pane(pane_id) else {
            return false;
        };
        if attached_only && e.sessions[si].attached == 0 {
            return true;
        }
        let w = &e.sessions[si].windows[wi];
        let (seen, at) = w.name_checked;
        if w.pane.bytes_read == seen {
            return false;
        }
        // Checked too recently, or automatic-rename is off: the change stays pending, as in
        // tmux.
        if now < at.saturating_add(NAME_INTERVAL_MS)
            || e.options.pane_string(w, "automatic-rename") != "on"
        {
            return true;
        }
        due.push((si, wi));
        false
    });
    e.names_due = pending;
    // In the order of the sessions and windows, as their renaming hooks run.
    due.sort_unstable();
    let mut renamed = false;
    for (si, wi) in due {
        let w = &e.sessions[si].windows[wi];
        let template = e.options.pane_string(w, "automatic-rename-format");
        let at = Found {
            session: si,
            window: wi,
        };
        let name = FormatValues::new(e, Some(at))
            .kind(FormatKind::Window)
            .expand(&template);
        let w = &mut e.sessions[si].windows[wi];
        w.name_checked = (w.pane.bytes_read, now);
        let name = visible_name(&name);
        if name != w.name {
            w.name = name;
            let pane_id = w.pane.id;
            notify(e, "window-renamed", si, Some(pane_id));
            renamed = true;
        }
    }
    renamed
}

// ---- new-window ----

const NEW_WINDOW_TEMPLATE: &str = "#{session_name}:#{window_index}.#{pane_index}";

fn new_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let t = target::resolve_index(&e.sessions, args.get('t'), ctx.calling_pane)?;
    let si = t.session;
    let name = args.get('n').map(str::to_string);

    // -S with -n and no index: select the window of that name if there is one.
    if let (true, Some(n), None) = (args.has('S'), &name, t.index) {
        let s = &e.sessions[si];
        let mut same = s.windows.iter().enumerate().filter(|(_, w)| &w.name == n);
        if let Some((wi, _)) = same.next() {
            if same.next().is_some() {
                return Err(format!("multiple windows named {n}"));
            }
            if !args.has('d') {
                e.sessions[si].select(wi);
                follow_current(e, ctx, si);
            }
            return Ok(());
        }
    }

    let mut index = t.index;
    if args.has('a') || args.has('b') {
        if let Some(wi) = t.window {
            index = room_beside(e, si, wi, args.has('b')).or(index);
        }
    }

    let mut replace = None;
    if let Some(i) = index {
        if let Some(wi) = e.sessions[si].position_of_index(i) {
            if !args.has('k') {
                return Err(format!("create window failed: index {i} in use"));
            }
            replace = Some(wi);
        }
    }
    let base = base_index(e, si);
    let cur = Found {
        session: si,
        window: e.sessions[si].current,
    };
    // The name and directory are formats, expanded for the session's current window.
    let name = name.map(|n| expand(e, &n, Some(cur)));
    let client_cwd = if ctx.req.cwd.is_empty() {
        e.sessions[si].cwd.clone()
    } else {
        ctx.req.cwd.clone()
    };
    let cwd = match args.get('c') {
        Some(c) => absolute(&client_cwd, &expand(e, c, Some(cur))),
        None => client_cwd,
    };
    let extra = super::environment_flags(args);
    let (cols, rows) = session_size(e, si);
    let spawn = SpawnWindow {
        index: 0,
        name,
        command: words(args),
        cwd,
        extra,
        client_path: ctx.req.env.get("PATH").cloned(),
        cols,
        rows,
    };

    let index = match index {
        Some(i) => i,
        None => e.sessions[si].next_index(base),
    };
    // spawn_window reads the session (its environment and backend) while the engine
    // allocates ids, so the session steps out of the list for the moment.
    let session = e.sessions.remove(si);
    let spawned = spawn_window(e, &session, SpawnWindow { index, ..spawn });
    e.sessions.insert(si, session);
    let window = spawned.map_err(|err| format!("create window failed: {err}"))?;
    // -k: the window at the index goes (without choosing another current window: the new one
    // takes its place).
    let mut was_current = false;
    if let Some(wi) = replace {
        let (mut old, current) = e.sessions[si].unlink_window(wi);
        was_current = current;
        notify(e, "window-unlinked", si, Some(old.pane.id));
        e.hang_up(&mut old.pane);
    }
    let at = e.sessions[si].insert_window(window);
    let pane_id = e.sessions[si].windows[at].pane.id;
    e.track(pane_id);
    notify(e, "window-linked", si, Some(pane_id));
    if was_current {
        e.sessions[si].set_current(at);
    } else if !args.has('d') {
        e.sessions[si].select(at);
    }
    if !args.has('d') || e.sessions[si].current == at {
        ctx.calling_pane = Some(e.sessions[si].windows[at].pane.id);
    }
    if args.has('P') {
        let template = args.get('F').unwrap_or(NEW_WINDOW_TEMPLATE);
        let text = expand(
            e,
            template,
            Some(Found {
                session: si,
                window: at,
            }),
        );
        ctx.print(&text);
    }
    Ok(())
}

// ---- kill-window, kill-pane ----

fn kill_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Window)?;
    let si = f.session;
    if args.has('a') {
        if e.sessions[si].windows.len() == 1 {
            return Ok(());
        }
        let keep = e.sessions[si].windows[f.window].id;
        let others: Vec<u32> = e.sessions[si]
            .windows
            .iter()
            .map(|w| w.id)
            .filter(|&id| id != keep)
            .collect();
        for id in others {
            if let Some(wi) = e.sessions[si].position_of_id(id) {
                remove_window(e, si, wi, false);
            }
        }
        // tmux renumbers every session after kill-window -a.
        for s in 0..e.sessions.len() {
            renumber_session(e, s);
        }
        return Ok(());
    }
    remove_window(e, si, f.window, true);
    Ok(())
}

fn kill_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    if args.has('a') {
        // Every other pane of the window: there is none.
        return Ok(());
    }
    // The window's only pane: the window goes with it.
    remove_window(e, f.session, f.window, true);
    Ok(())
}

// ---- list-windows, list-panes ----

const LIST_WINDOWS_TEMPLATE: &str = "#{window_index}: #{window_name}#{window_raw_flags} (#{window_panes} panes) [#{window_width}x#{window_height}] [layout #{window_layout}] #{window_id}#{?window_active, (active),}";
const LIST_WINDOWS_WITH_SESSION_TEMPLATE: &str = "#{session_name}:#{window_index}: #{window_name}#{window_raw_flags} (#{window_panes} panes) [#{window_width}x#{window_height}] ";

/// Sessions in tmux's order (by name).
fn sessions_by_name(e: &Engine) -> Vec<usize> {
    let mut order: Vec<usize> = (0..e.sessions.len()).collect();
    order.sort_by(|&a, &b| e.sessions[a].name.cmp(&e.sessions[b].name));
    order
}

/// Prints one list line for a target unless the filter is false.
fn list_line(
    e: &Engine,
    ctx: &mut Ctx<'_>,
    at: Found,
    kind: FormatKind,
    line: usize,
    template: &str,
    filter: Option<&str>,
) {
    let values = FormatValues::new(e, Some(at)).kind(kind).line(line);
    if let Some(f) = filter {
        if !format::is_true(&values.expand(f)) {
            return;
        }
    }
    let text = values.expand(template);
    ctx.print(&text);
}

fn list_windows(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let (sessions, default) = if args.has('a') {
        (sessions_by_name(e), LIST_WINDOWS_WITH_SESSION_TEMPLATE)
    } else {
        let f = resolve(e, ctx, args, Kind::Session)?;
        (vec![f.session], LIST_WINDOWS_TEMPLATE)
    };
    let template = args.get('F').unwrap_or(default);
    let filter = args.get('f');
    for si in sessions {
        for wi in 0..e.sessions[si].windows.len() {
            let at = Found {
                session: si,
                window: wi,
            };
            list_line(e, ctx, at, FormatKind::Window, wi, template, filter);
        }
    }
    Ok(())
}

const LIST_PANES_TEMPLATE: &str = "#{pane_index}: [#{pane_width}x#{pane_height}] [history #{history_size}/#{history_limit}, #{history_bytes} bytes] #{pane_id}#{?pane_active, (active),}#{?pane_dead, (dead),}";
const LIST_PANES_SESSION_TEMPLATE: &str = "#{window_index}.#{pane_index}: [#{pane_width}x#{pane_height}] [history #{history_size}/#{history_limit}, #{history_bytes} bytes] #{pane_id}#{?pane_active, (active),}#{?pane_dead, (dead),}";
const LIST_PANES_SERVER_TEMPLATE: &str = "#{session_name}:#{window_index}.#{pane_index}: [#{pane_width}x#{pane_height}] [history #{history_size}/#{history_limit}, #{history_bytes} bytes] #{pane_id}#{?pane_active, (active),}#{?pane_dead, (dead),}";

/// Whether a format uses variables read from a screen's rows (so a cold screen must come
/// back from the store for it).
fn reads_rows(format: &str) -> bool {
    super::format_values::ROW_VARIABLES
        .iter()
        .any(|v| format.contains(v))
}

fn list_panes(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let mut targets = Vec::new();
    let default = if args.has('a') {
        for si in sessions_by_name(e) {
            targets.extend((0..e.sessions[si].windows.len()).map(|wi| (si, wi)));
        }
        LIST_PANES_SERVER_TEMPLATE
    } else {
        let f = resolve(e, ctx, args, Kind::Window)?;
        if args.has('s') {
            targets.extend((0..e.sessions[f.session].windows.len()).map(|wi| (f.session, wi)));
            LIST_PANES_SESSION_TEMPLATE
        } else {
            targets.push((f.session, f.window));
            LIST_PANES_TEMPLATE
        }
    };
    let template = args.get('F').unwrap_or(default);
    let filter = args.get('f');
    let rows = reads_rows(template) || filter.is_some_and(reads_rows);
    for (si, wi) in targets {
        let pane_id = e.sessions[si].windows[wi].pane.id;
        if rows {
            e.read_screen(pane_id);
        } else {
            e.drain(pane_id);
        }
        let at = Found {
            session: si,
            window: wi,
        };
        // `line` counts panes within the window: the only pane is 0.
        list_line(e, ctx, at, FormatKind::Pane, 0, template, filter);
    }
    Ok(())
}

// ---- rename-window ----

fn rename_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Window)?;
    let name = expand(e, &words(args)[0], Some(f));
    let w = &mut e.sessions[f.session].windows[f.window];
    w.name = visible_name(&name);
    w.automatic_rename = false;
    let pane_id = w.pane.id;
    notify(e, "window-renamed", f.session, Some(pane_id));
    Ok(())
}

// ---- select-window and friends ----

fn select_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    if args.has('n') {
        return step_window(e, ctx, args, Step::Next);
    }
    if args.has('p') {
        return step_window(e, ctx, args, Step::Previous);
    }
    if args.has('l') {
        return step_window(e, ctx, args, Step::Last);
    }
    let f = resolve(e, ctx, args, Kind::Window)?;
    let s = &mut e.sessions[f.session];
    if args.has('T') && f.window == s.current {
        // -T on the current window toggles back to the last one.
        if !s.select_last() {
            return Err("no last window".into());
        }
    } else {
        s.select(f.window);
    }
    follow_current(e, ctx, f.session);
    Ok(())
}

#[derive(Clone, Copy)]
enum Step {
    Next,
    Previous,
    Last,
}

fn step_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args, step: Step) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Session)?;
    let s = &mut e.sessions[f.session];
    // -a moves to the next window with an alert; without a client no window has one.
    let alerts_only = args.has('a');
    let moved = match step {
        Step::Next => !alerts_only && s.select_next(),
        Step::Previous => !alerts_only && s.select_previous(),
        Step::Last => s.select_last(),
    };
    if !moved {
        return Err(match step {
            Step::Next => "no next window",
            Step::Previous => "no previous window",
            Step::Last => "no last window",
        }
        .into());
    }
    follow_current(e, ctx, f.session);
    Ok(())
}

fn next_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    step_window(e, ctx, args, Step::Next)
}

fn previous_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    step_window(e, ctx, args, Step::Previous)
}

fn last_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    step_window(e, ctx, args, Step::Last)
}

// ---- select-pane, last-pane ----

fn select_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    if args.has('l') {
        return Err("no last pane".into());
    }
    if args.has('m') || args.has('M') {
        // Marking is kept for the window's pane by tmux; zeropty has no marked pane, and
        // the request succeeds as tmux's does.
        return Ok(());
    }
    if args.has('g') {
        let style = e
            .options
            .get("window-style")
            .unwrap_or("default")
            .to_string();
        ctx.print(&style);
        return Ok(());
    }
    // No pane lies left, right, above or below the only one: nothing is selected.
    if ['L', 'R', 'U', 'D'].iter().any(|&d| args.has(d)) {
        return Ok(());
    }
    let w = &mut e.sessions[f.session].windows[f.window];
    if args.has('e') {
        w.input_off = false;
        return Ok(());
    }
    if args.has('d') {
        w.input_off = true;
        return Ok(());
    }
    if let Some(title) = args.get('T') {
        let title = expand(e, title, Some(f));
        e.sessions[f.session].windows[f.window]
            .pane
            .term
            .set_title(&title);
    }
    // Otherwise the pane is already its window's active pane.
    Ok(())
}

fn last_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    resolve(e, ctx, args, Kind::Window)?;
    Err("no last pane".into())
}

// ---- resize-window, resize-pane ----

fn resize_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Window)?;
    let adjust = adjustment(args)?;
    let term = &e.sessions[f.session].windows[f.window].pane.term;
    let (mut sx, mut sy) = (term.cols(), term.rows());
    if let Some(v) = args.get('x') {
        sx = numbers::argument(v, 1, WINDOW_MAXIMUM.into(), "width")? as u32;
    }
    if let Some(v) = args.get('y') {
        sy = numbers::argument(v, 1, WINDOW_MAXIMUM.into(), "height")? as u32;
    }
    if args.has('L') {
        if sx >= adjust {
            sx -= adjust;
        }
    } else if args.has('R') {
        sx = sx.saturating_add(adjust);
    } else if args.has('U') {
        if sy >= adjust {
            sy -= adjust;
        }
    } else if args.has('D') {
        sy = sy.saturating_add(adjust);
    }
    if args.has('A') || args.has('a') {
        // Largest or smallest of the clients' sizes; with none, the session's default.
        (sx, sy) = session_size(e, f.session);
    }
    // As in tmux, a window sized by hand keeps its size: clients no longer size it.
    e.sessions[f.session].windows[f.window]
        .options
        .set("window-size", Value::One("manual".into()));
    resize_to(e, f, sx, sy);
    Ok(())
}

/// A `resize-pane -x/-y` value: cells, or a percentage of the window (tmux's
/// args_percentage), with tmux's error words.
fn pane_size(v: &str, whole: u32, what: &str) -> Result<u32, String> {
    let number = |s: &str, max: i64| numbers::argument(s, 0, max, what);
    match v.strip_suffix('%') {
        Some(p) => Ok((whole as i64 * number(p, 100)? / 100) as u32),
        None => Ok(number(v, i32::MAX as i64)? as u32),
    }
}

fn resize_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    // -T (trim history below the cursor), -M (mouse drag) and -Z (zoom, which needs two
    // panes) change nothing here.
    if args.has('T') || args.has('M') || args.has('Z') {
        return Ok(());
    }
    adjustment(args)?;
    let term = &e.sessions[f.session].windows[f.window].pane.term;
    let (cols, rows) = (term.cols(), term.rows());
    if let Some(v) = args.get('x') {
        pane_size(v, cols, "width")?;
    }
    if let Some(v) = args.get('y') {
        pane_size(v, rows, "height")?;
    }
    // A pane that fills its window has no neighbour to take space from: as in tmux, its size
    // only changes with the window's (resize-window).
    Ok(())
}

// ---- commands that need several panes in a window ----

fn split_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    resolve(e, ctx, args, Kind::Pane)?;
    Err(one_pane_only("split-window"))
}

fn join_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    split_into(e, ctx, args, "join-pane")
}

fn move_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    split_into(e, ctx, args, "move-pane")
}

/// join-pane and move-pane put the source pane beside the target one in its window: their
/// panes are found, and a pane joined to itself fails, as in tmux, before the split that a
/// window of one pane cannot take.
fn split_into(e: &Engine, ctx: &Ctx<'_>, args: &Args, command: &str) -> Result<(), String> {
    let src = target::resolve(&e.sessions, args.get('s'), Kind::Pane, ctx.calling_pane)?;
    let dst = resolve(e, ctx, args, Kind::Pane)?;
    if src == dst {
        return Err("source and target panes must be different".into());
    }
    Err(one_pane_only(command))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_visible_as_tmux_does() {
        assert_eq!(visible_name("plain name"), "plain name");
        assert_eq!(visible_name("a\tb\nc"), "a\\tb\\nc");
        assert_eq!(visible_name("\x1b[1m"), "\\033[1m");
        assert_eq!(visible_name("$HOME $1 $"), "\\$HOME $1 $");
        assert_eq!(visible_name("back\\slash"), "back\\\\slash");
        assert_eq!(visible_name("é中"), "é中");
    }

    #[test]
    fn pane_sizes_take_percentages() {
        assert_eq!(pane_size("50%", 80, "width"), Ok(40));
        assert_eq!(pane_size("10", 80, "width"), Ok(10));
        assert_eq!(
            pane_size("200%", 80, "width"),
            Err("width too large".into())
        );
        assert_eq!(pane_size("x", 80, "height"), Err("height invalid".into()));
    }
}
