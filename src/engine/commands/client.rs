//! Client commands: attach-session, detach-client, switch-client, list-clients, show-messages,
//! and wait-for (the command whose reply waits).
//!
//! A client is a connection with a terminal attached to a session (`crate::engine::attach`);
//! commands that name none act on the current client as tmux's do: the one the command came
//! from, else the most recently active client of the current session, else `no current client`.

use super::{absolute, pane_id_at, resolve, words, FormatValues};
use crate::engine::attach::{AttachFlags, Client};
use crate::engine::client_copy::CopyModeFlags;
use crate::engine::cmdline::Args;
use crate::engine::format::{self, Item, Scope, Values, Zone};
use crate::engine::messages::Message;
use crate::engine::target::{self, Found, Kind};
use crate::engine::{Ctx, Engine};

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!(
        "attach-session",
        Some("attach"),
        "c:dEf:rt:x",
        0,
        Some(0),
        "[-dErx] [-c working-directory] [-f flags] [-t target-session]",
        true,
        attach_session
    ),
    crate::command_def!(
        "choose-tree",
        None,
        "F:f:GK:NO:rst:wZ",
        0,
        Some(1),
        "[-GNrswZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] [template]",
        false,
        choose_tree
    ),
    crate::command_def!(
        "clock-mode",
        None,
        "t:",
        0,
        Some(0),
        "[-t target-pane]",
        false,
        clock_mode
    ),
    crate::command_def!(
        "copy-mode",
        None,
        "eHMs:t:uq",
        0,
        Some(0),
        "[-eHMuq] [-s src-pane] [-t target-pane]",
        false,
        copy_mode
    ),
    crate::command_def!(
        "detach-client",
        Some("detach"),
        "aE:s:t:P",
        0,
        Some(0),
        "[-aP] [-E shell-command] [-s target-session] [-t target-client]",
        false,
        detach_client
    ),
    crate::command_def!(
        "show-messages",
        Some("showmsgs"),
        "JTt:",
        0,
        Some(0),
        "[-JT] [-t target-client]",
        false,
        show_messages
    ),
    crate::command_def!(
        "list-clients",
        Some("lsc"),
        "F:t:",
        0,
        Some(0),
        "[-F format] [-t target-session]",
        false,
        list_clients
    ),
    crate::command_def!(
        "refresh-client",
        Some("refresh"),
        "A:B:cC:Df:F:l::LRSt:U",
        0,
        Some(1),
        "[-cDlLRSU] [-A pane:state] [-B name:what:format] [-C XxY] [-f flags] [-t target-client] [adjustment]",
        false,
        refresh_client
    ),
    crate::command_def!(
        "switch-client",
        Some("switchc"),
        "lc:EFnpt:rT:Z",
        0,
        Some(0),
        "[-ElnprZ] [-c target-client] [-t target-session] [-T key-table]",
        false,
        switch_client
    ),
    crate::command_def!(
        "wait-for",
        Some("wait"),
        "LSU",
        1,
        Some(1),
        "[-L|-S|-U] channel",
        false,
        wait_for
    ),
];

/// What a client with a terminal must pass before it attaches (the checks tmux makes before
/// opening the terminal): not nested in one of this server's panes, and a terminal at all.
pub(crate) fn check_can_attach(e: &Engine, ctx: &Ctx<'_>) -> Result<(), String> {
    if ctx.req.client.is_some_and(|c| e.clients.is_attached(c)) {
        return Ok(());
    }
    if ctx.req.terminal.is_some() && e.is_nested(ctx.req) {
        return Err("sessions should be nested with care, unset $ZEROPTY to force".into());
    }
    if ctx.req.terminal.is_none() {
        return Err("open terminal failed: not a terminal".into());
    }
    Ok(())
}

/// The window size a session created for an attaching client starts with: its terminal's.
pub(crate) fn attach_size(e: &Engine, ctx: &Ctx<'_>) -> Option<(u32, u32)> {
    // A control client has no size of its own: its sessions start at default-size.
    let t = ctx
        .req
        .terminal
        .as_ref()
        .filter(|_| ctx.req.control.is_none())?;
    Some(e.window_size_for(None, t.cols, t.rows))
}

/// `-f flags` of attach-session: the ones zeropty acts on.
fn client_flags(list: Option<&str>, flags: &mut AttachFlags) {
    let flags_given = list.unwrap_or("").split(',');
    for (on, name) in flags_given.map(crate::engine::control::flag_setting) {
        match name {
            "read-only" => flags.readonly = on,
            "ignore-size" => flags.ignore_size = on,
            _ => {}
        }
    }
}

/// Attaches to an existing session by name (new-session -A when the session exists).
pub(crate) fn attach_named(
    e: &mut Engine,
    ctx: &mut Ctx<'_>,
    name: &str,
    detach_others: bool,
    hup_others: bool,
    flags: Option<&str>,
) -> Result<(), String> {
    let si = e
        .sessions
        .iter()
        .position(|s| s.name == name)
        .ok_or_else(|| format!("can't find session: {name}"))?;
    if ctx.config {
        return Ok(());
    }
    check_can_attach(e, ctx)?;
    let mut f = AttachFlags {
        detach_others: detach_others || hup_others,
        hup_others,
        ..Default::default()
    };
    client_flags(flags, &mut f);
    e.attach_client(ctx, si, f)?;
    control_flags(e, ctx, flags);
    Ok(())
}

/// `-f`'s flags that are a control client's (`no-output`, `wait-exit`, `pause-after`), for
/// the client a command has just attached.
fn control_flags(e: &mut Engine, ctx: &Ctx<'_>, list: Option<&str>) {
    if let (Some(list), Some(conn)) = (list, ctx.req.client) {
        e.set_control_flags(conn, list);
    }
}

fn attach_session(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    if e.sessions.is_empty() {
        return Err("no sessions".into());
    }
    if ctx.config {
        // No client to attach while the configuration loads.
        return Ok(());
    }
    if ctx.req.terminal.is_some() && e.is_nested(ctx.req) {
        return Err("sessions should be nested with care, unset $ZEROPTY to force".into());
    }
    let current = e.best_session(true);
    let (found, names_window) = session_or_window(e, ctx, args, &[':', '.'], current)?;
    if names_window {
        e.sessions[found.session].select(found.window);
    }
    if let Some(dir) = args.get('c') {
        e.sessions[found.session].cwd = absolute(&ctx.req.cwd, dir);
    }
    let mut flags = AttachFlags {
        detach_others: args.has('d') || args.has('x'),
        hup_others: args.has('x'),
        ..Default::default()
    };
    client_flags(args.get('f'), &mut flags);
    if args.has('r') {
        flags.readonly = true;
        flags.ignore_size = true;
    }
    e.attach_client(ctx, found.session, flags)?;
    control_flags(e, ctx, args.get('f'));
    Ok(())
}

/// Starts copy mode on the target pane (`-u`: a page up; `-e`: scrolling to the bottom ends
/// it; `-H`: no position shown; `-s`: over another pane's content; `-q`: ends it) for the
/// client that ran the command when it shows that pane, else for every client showing it.
/// zeropty's copy mode belongs to clients, not to the pane: a pane no client shows is left
/// as it is. `-M`, from a mouse binding, starts a selection that follows the drag.
/// clock-mode: the clock in place of the pane on the clients that show it (none shows it
/// with no client attached).
fn clock_mode(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let pane = pane_id_at(e, resolve(e, ctx, args, Kind::Pane)?);
    e.open_clocks(pane, ctx.req.client);
    Ok(())
}

/// choose-tree: tree mode in place of the target pane on the clients that show it (`-s`:
/// sessions collapsed, `-w`: windows; `-N`: no preview; `-F`, `-f`, `-O`, `-r`: the lines'
/// format, filter and order; the template runs for the item chosen). `-Z` and `-G` change
/// nothing: a window has one pane and sessions are never grouped. `-K` is read but the keys
/// are always tmux's default ones.
fn choose_tree(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    use crate::engine::client_tree::TreeOptions;
    use crate::engine::tree_mode::StartAt;
    let at = resolve(e, ctx, args, Kind::Pane)?;
    let start = if args.has('s') {
        StartAt::Sessions
    } else if args.has('w') {
        StartAt::Windows
    } else {
        StartAt::Panes
    };
    let options = TreeOptions {
        start,
        format: args.get('F').map(str::to_string),
        filter: args.get('f').map(str::to_string),
        sort: args.get('O').map(str::to_string),
        reversed: args.has('r'),
        preview: !args.has('N'),
        template: args.string(0).map(str::to_string),
    };
    e.open_trees(at, ctx.req.client, &options);
    Ok(())
}

fn copy_mode(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let source = match args.get('s') {
        Some(s) => Some(target::resolve(
            &e.sessions,
            Some(s),
            Kind::Pane,
            ctx.calling_pane,
        )?),
        None => None,
    };
    let source = source.map(|f| pane_id_at(e, f));
    let pane = pane_id_at(e, resolve(e, ctx, args, Kind::Pane)?);
    let dragging = ctx.req.client.filter(|_| e.mouse_event.is_some());
    if args.has('M') && dragging.is_none() {
        return Ok(());
    }
    if args.has('q') {
        e.close_views(pane);
    } else {
        let flags = CopyModeFlags {
            source,
            page_up: args.has('u'),
            scroll_exit: args.has('e'),
            hide_position: args.has('H'),
        };
        let started = e.pane_copy_mode(pane).is_none();
        e.open_views(pane, ctx.req.client, flags);
        // `-M`: a mouse drag's selection, in a mode that has just started (tmux's).
        if let Some(conn) = dragging.filter(|_| started && args.has('M')) {
            e.start_drag(conn);
        }
    }
    Ok(())
}

/// Draws the target client again. Panning (`-c -D -L -R -U`) checks its adjustment and
/// redraws, as the whole window is always shown; `-f` sets the `read-only`, `ignore-size`
/// and (for a control client) `no-output` flags. For control clients only: `-C` gives the
/// client a size, `-A %ID:on|off` turns a pane's `%output` on or off, `-B` adds or removes a
/// subscription.
fn refresh_client(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let tc = e.find_client(ctx, args.get('t'))?;
    if ['c', 'L', 'R', 'U', 'D'].iter().any(|&f| args.has(f)) {
        if let Some(adjust) = words(args).first() {
            crate::engine::numbers::strtonum(adjust, 1, i32::MAX as i64)
                .map_err(|why| format!("adjustment {why}"))?;
        }
    } else if !args.has('l') {
        for list in [args.get('F'), args.get('f')].into_iter().flatten() {
            let c = e.clients.get(tc).ok_or("no current client")?;
            let mut flags = AttachFlags {
                readonly: c.readonly,
                ignore_size: c.ignore_size,
                ..Default::default()
            };
            client_flags(Some(list), &mut flags);
            e.set_client_flags(tc, flags.readonly, flags.ignore_size);
            e.set_control_flags(tc, list);
        }
        if ['A', 'B', 'C'].iter().any(|&f| args.has(f)) {
            if !e.is_control(tc) {
                return Err("not a control client".into());
            }
            // As tmux: -A, else -B, else -C.
            if args.has('A') {
                for spec in args.values('A') {
                    e.set_control_pane(tc, spec);
                }
            } else if args.has('B') {
                for spec in args.values('B') {
                    e.set_control_subscription(tc, spec);
                }
            } else if let Some(size) = args.get('C') {
                e.set_control_size(tc, size)?;
            }
            return Ok(());
        }
    }
    e.redraw_client(tc);
    Ok(())
}

/// The place attach-session and switch-client go to: the session `-t` names, or the window
/// it names when it holds one of `window_marks` (the flag says so; the caller selects that
/// window); without `-t`, the `current` session at its current window.
fn session_or_window(
    e: &Engine,
    ctx: &Ctx<'_>,
    args: &Args,
    window_marks: &[char],
    current: Option<usize>,
) -> Result<(Found, bool), String> {
    let Some(t) = args.get('t') else {
        let si = current.ok_or("no current session")?;
        let found = Found {
            session: si,
            window: e.sessions[si].current,
        };
        return Ok((found, false));
    };
    let names_window = t.contains(window_marks);
    let kind = if names_window {
        Kind::Pane
    } else {
        Kind::Session
    };
    let found = target::resolve(&e.sessions, Some(t), kind, ctx.calling_pane)?;
    Ok((found, names_window))
}

fn detach_client(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    // tmux finds -s quietly (a session that is not there detaches nobody) and the target
    // client strictly, before anything happens.
    let source = args
        .get('s')
        .map(|s| target::resolve(&e.sessions, Some(s), Kind::Session, ctx.calling_pane).ok());
    let tc = e.find_client(ctx, args.get('t'))?;
    // -E runs a command in place of the client in tmux; here the client is detached.
    let hup = args.has('P');
    if let Some(source) = source {
        if let Some(f) = source {
            let sid = e.sessions[f.session].id;
            e.detach_session_clients(sid, None, hup);
        }
        return Ok(());
    }
    if args.has('a') {
        let others: Vec<u64> = e
            .clients
            .iter()
            .map(|c| c.conn)
            .filter(|&c| c != tc)
            .collect();
        for c in others {
            e.detach_client(c, hup);
        }
        return Ok(());
    }
    e.detach_client(tc, hup);
    Ok(())
}

fn switch_client(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let tc = e.find_client(ctx, args.get('c'))?;
    // The current session: the client's own, else tmux's best (unattached first).
    let current = e
        .clients
        .get(tc)
        .and_then(|c| e.sessions.iter().position(|s| s.id == c.session))
        .or_else(|| e.best_session(true));
    let (found, names_window) = session_or_window(e, ctx, args, &[':', '.', '%'], current)?;
    if args.has('r') {
        let ro = e.clients.get(tc).is_some_and(|c| c.readonly);
        e.set_client_readonly(tc, !ro);
    }
    if let Some(table) = args.get('T') {
        if !e.key_tables.has_table(table) {
            return Err(format!("table {table} doesn't exist"));
        }
        e.set_client_key_table(tc, Some(table.to_string()));
        return Ok(());
    }
    let current = e
        .clients
        .get(tc)
        .and_then(|c| e.sessions.iter().position(|s| s.id == c.session));
    let si = if args.has('n') || args.has('p') {
        let step = |si: usize| -> Option<usize> {
            // Sessions in name order, wrapping; none when the client's is the only one.
            let mut order: Vec<usize> = (0..e.sessions.len()).collect();
            order.sort_by(|&a, &b| e.sessions[a].name.cmp(&e.sessions[b].name));
            let at = order.iter().position(|&x| x == si)?;
            let n = order.len();
            let next = if args.has('n') {
                order[(at + 1) % n]
            } else {
                order[(at + n - 1) % n]
            };
            (next != si).then_some(next)
        };
        match current.and_then(step) {
            Some(si) => si,
            None if args.has('n') => return Err("can't find next session".into()),
            None => return Err("can't find previous session".into()),
        }
    } else if args.has('l') {
        let last = e.clients.get(tc).and_then(|c| c.last_session);
        match last.and_then(|id| e.sessions.iter().position(|s| s.id == id)) {
            Some(si) => si,
            None => return Err("can't find last session".into()),
        }
    } else {
        if names_window {
            e.sessions[found.session].select(found.window);
        }
        found.session
    };
    e.switch_client(tc, si);
    Ok(())
}

const LIST_CLIENTS_TEMPLATE: &str = "#{client_name}: #{session_name} [#{client_width}x#{client_height} #{client_termname}] #{?#{!=:#{client_uid},#{uid}},[user #{?client_user,#{client_user},#{client_uid},}] ,}#{?client_flags,(,}#{client_flags}#{?client_flags,),}";

const SHOW_MESSAGES_TEMPLATE: &str = "#{t/p:message_time}: #{message_text}";

/// show-messages: the message log, newest first, as tmux prints it (it needs a client, as
/// tmux's does). tmux's job and terminal summaries (`-J`, `-T`) are not kept.
fn show_messages(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    e.find_client(ctx, args.get('t'))?;
    if args.has('J') || args.has('T') {
        return Err("zeropty: no job or terminal summary; show-messages is not supported".into());
    }
    let now = e.host.wall_time();
    for message in e.messages.newest_first() {
        let values = MessageValues {
            message: &message,
            rest: FormatValues::new(e, None),
        };
        ctx.print(&format::expand(SHOW_MESSAGES_TEMPLATE, &values, now));
    }
    Ok(())
}

/// Format variables for one entry of the message log, over the server's.
struct MessageValues<'a> {
    message: &'a Message,
    rest: FormatValues<'a>,
}

impl Values for MessageValues<'_> {
    fn get(&self, name: &str) -> Option<String> {
        let m = self.message;
        match name {
            "message_text" => Some(m.text.clone()),
            "message_number" => Some(m.number.to_string()),
            "message_time" => Some(m.time.to_string()),
            _ => self.rest.get(name),
        }
    }

    fn zone(&self, t: i64) -> Zone {
        self.rest.zone(t)
    }
}

fn list_clients(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    // tmux resolves the target even without -t (and fails without a session).
    let only = match args.get('t') {
        Some(t) => {
            let f = target::resolve(&e.sessions, Some(t), Kind::Session, ctx.calling_pane)?;
            Some(e.sessions[f.session].id)
        }
        None => {
            target::current(&e.sessions, ctx.calling_pane).ok_or("no current target")?;
            None
        }
    };
    let template = args.get('F').unwrap_or(LIST_CLIENTS_TEMPLATE).to_string();
    let mut lines = Vec::new();
    for (n, c) in e
        .clients
        .iter()
        .filter(|c| only.is_none_or(|s| s == c.session))
        .enumerate()
    {
        let Some(si) = e.sessions.iter().position(|s| s.id == c.session) else {
            continue;
        };
        let at = Found {
            session: si,
            window: e.sessions[si].current,
        };
        let values = ClientValues {
            e,
            client: c,
            inner: FormatValues::new(e, Some(at)).line(n),
        };
        lines.push(format::expand(&template, &values, e.host.wall_time()));
    }
    for l in lines {
        ctx.print(&l);
    }
    Ok(())
}

/// Expands `template` for a place as `client` sees it: its `client_*` variables over the
/// place's (with strftime's `%` sequences, as display-message expands).
pub fn expand_for_client(e: &Engine, template: &str, at: Option<Found>, client: &Client) -> String {
    let values = ClientValues {
        e,
        client,
        inner: FormatValues::new(e, at),
    };
    format::expand_time(template, &values, e.host.wall_time())
}

/// Format variables of a client (`client_*`), over those of its session's current pane.
pub(crate) struct ClientValues<'a> {
    pub e: &'a Engine,
    pub client: &'a Client,
    pub inner: FormatValues<'a>,
}

impl Values for ClientValues<'_> {
    fn get(&self, name: &str) -> Option<String> {
        let c = self.client;
        let flag = |b: bool| if b { "1" } else { "0" }.to_string();
        let session_name = |id: u32| {
            self.e
                .sessions
                .iter()
                .find(|s| s.id == id)
                .map(|s| s.name.clone())
        };
        let v = match name {
            "client_name" => c.name.clone(),
            "client_tty" => c.tty.clone(),
            "client_termname" => c.term.clone(),
            "client_termtype" => String::new(),
            "client_width" => c.cols.to_string(),
            // tmux has no height for a client whose terminal it did not start (control).
            "client_height" if c.control.is_some() => String::new(),
            "client_height" => c.rows.to_string(),
            "client_pid" => c.pid.to_string(),
            "client_created" => c.created.to_string(),
            "client_activity" => c.activity.to_string(),
            "client_session" => session_name(c.session).unwrap_or_default(),
            "client_last_session" => c.last_session.and_then(session_name).unwrap_or_default(),
            "client_readonly" => flag(c.readonly),
            "client_utf8" => flag(c.utf8),
            "client_prefix" => flag(self.e.client_prefix(c)),
            "client_key_table" => self.e.client_key_table(c),
            "client_control_mode" => flag(c.control.is_some()),
            "client_flags" => {
                // tmux's order.
                let mut f = vec!["attached".to_string(), "focused".into()];
                if c.control.is_some() {
                    f.push("control-mode".into());
                }
                if c.ignore_size {
                    f.push("ignore-size".into());
                }
                f.extend(c.control.iter().flat_map(|ctl| ctl.flags()));
                if c.readonly {
                    f.push("read-only".into());
                }
                if c.utf8 {
                    f.push("UTF-8".into());
                }
                f.join(",")
            }
            "client_uid" => self.e.user.id.to_string(),
            "client_user" => self.e.user.name.clone(),
            _ => return self.inner.get(name),
        };
        Some(v)
    }

    fn zone(&self, t: i64) -> Zone {
        self.inner.zone(t)
    }

    fn each(&self, scope: Scope) -> Option<Vec<Item<'_>>> {
        self.inner.each(scope)
    }

    fn name_exists(&self, scope: Scope, name: &str) -> Option<bool> {
        self.inner.name_exists(scope, name)
    }

    fn search(&self, text: &str, regex: bool, ignore_case: bool) -> Option<u32> {
        self.inner.search(text, regex, ignore_case)
    }

    fn job(&self, command: &str) -> Option<String> {
        self.inner.job(command)
    }
}

fn wait_for(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let name = words(args).remove(0);
    let waits = &mut e.waits.channels;
    if args.has('S') {
        waits.signal(&name);
        return Ok(());
    }
    if args.has('L') {
        let client = ctx.req.client.ok_or("not able to lock")?;
        if !waits.lock(&name, client) {
            ctx.suspended = true;
        }
        return Ok(());
    }
    if args.has('U') {
        return waits.unlock(&name);
    }
    let client = ctx.req.client.ok_or("not able to wait")?;
    if !waits.wait(&name, client) {
        ctx.suspended = true;
    }
    Ok(())
}
