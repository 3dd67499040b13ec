//! Session commands: new-session, kill-session, has-session, list-sessions, rename-session.

use super::{
    absolute, expand, resolve, session_name, stringify_argv, window_name_from, words,
    WINDOW_MAXIMUM,
};
use crate::engine::cmdline::Args;
use crate::engine::format;
use crate::engine::numbers;
use crate::engine::options::Value;
use crate::engine::os::{Backend, SpawnRequest};
use crate::engine::pane::{NewPane, Pane};
use crate::engine::session::{Session, Window};
use crate::engine::target::{Found, Kind};
use crate::engine::tty::Termios;
use crate::engine::{Ctx, Engine};

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!("has-session", Some("has"), "t:", 0, Some(0), "[-t target-session]", false, has_session),
    crate::command_def!("kill-session", None, "aCt:", 0, Some(0), "[-aC] [-t target-session]", false, kill_session),
    crate::command_def!("list-sessions", Some("ls"), "F:f:", 0, Some(0), "[-F format] [-f filter]", false, list_sessions),
    crate::command_def!("new-session", Some("new"), "Ac:dDe:EF:f:n:Ps:t:T:x:Xy:", 0, None,
        "[-AdDEPX] [-c start-directory] [-e environment] [-F format] [-f flags] [-n window-name] [-s session-name] [-t target-session] [-T backend] [-x width] [-y height] [shell-command]",
        true, new_session),
    crate::command_def!("rename-session", Some("rename"), "t:", 1, Some(1), "[-t target-session] new-name", false, rename_session),
];

fn new_session(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let name = match args.get('s') {
        Some(n) => Some(session_name(n)?),
        None => None,
    };
    if let Some(n) = &name {
        if e.sessions.iter().any(|s| &s.name == n) {
            if args.has('A') {
                return super::client::attach_named(
                    e,
                    ctx,
                    n,
                    args.has('D'),
                    args.has('X'),
                    args.get('f'),
                );
            }
            return Err(format!("duplicate session: {n}"));
        }
    }
    // Without -d the client attaches: it must bring a terminal (`zeropty` run from one).
    let attach = !args.has('d') && !ctx.config;
    if attach {
        super::client::check_can_attach(e, ctx)?;
    }
    // zeropty's own flag (tmux has no backends): `-T pty` gives this session's programs
    // pseudo-terminals, `-T socket` the shim's sockets; the default is `default-backend`.
    let default_backend = e.options.string("default-backend");
    let backend = backend_named(args.get('T').unwrap_or(&default_backend))?;
    let (dx, dy) = super::client::attach_size(e, ctx)
        .filter(|_| attach)
        .unwrap_or_else(|| default_size(e));
    let cols = match args.get('x') {
        Some("-") | None => dx,
        Some(v) => window_size(v, "width")?,
    };
    let rows = match args.get('y') {
        Some("-") | None => dy,
        Some(v) => window_size(v, "height")?,
    };
    let cwd = match args.get('c') {
        Some(c) => absolute(&ctx.req.cwd, c),
        None => ctx.req.cwd.clone(),
    };
    let extra = super::environment_flags(args);
    let now = e.host.wall_time();
    let id = e.alloc_session_id();
    let name = name.unwrap_or_else(|| next_session_name(e));
    let mut session = Session {
        id,
        name,
        created: now,
        activity: now,
        last_attached: 0,
        windows: Vec::new(),
        current: 0,
        last: Vec::new(),
        environ: super::new_session_environ(e, &ctx.req.env, &extra, !args.has('E') && !ctx.config),
        environ_hidden: Default::default(),
        options: Default::default(),
        cwd: cwd.clone(),
        attached: 0,
    };
    // As tmux: the size asked for becomes the session's `default-size`, which its later
    // windows take (and `set-option -t` changes).
    if args.has('x') || args.has('y') {
        let size = Value::One(format!("{cols}x{rows}"));
        session.options.set("default-size", size);
    }
    let command: Vec<String> = words(args);
    let window_name = args.get('n').map(str::to_string);
    let base = e.options.number("base-index").max(0) as u32;
    let client_path = ctx.req.env.get("PATH").cloned();
    let window = spawn_window_with(
        e,
        &session,
        backend,
        SpawnWindow {
            index: base,
            name: window_name,
            command,
            cwd,
            extra,
            client_path,
            cols,
            rows,
        },
    )
    .map_err(|err| format!("create window failed: {err}"))?;
    session.insert_window(window);
    let format = args.get('F').unwrap_or("#{session_name}:").to_string();
    let pane_id = session.windows[0].pane.id;
    e.sessions.push(session);
    e.track(pane_id);
    if attach {
        e.attach_client(ctx, e.sessions.len() - 1, Default::default())?;
    }
    if args.has('P') {
        let si = e.sessions.len() - 1;
        let text = expand(
            e,
            &format,
            Some(Found {
                session: si,
                window: 0,
            }),
        );
        ctx.print(&text);
    }
    Ok(())
}

fn backend_named(name: &str) -> Result<Backend, String> {
    Backend::from_name(name).ok_or_else(|| format!("invalid backend: {name}"))
}

fn default_size(e: &Engine) -> (u32, u32) {
    let size = e.options.string("default-size");
    size.split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .unwrap_or((80, 24))
}

fn next_session_name(e: &Engine) -> String {
    let mut n = e.sessions.len() as u32;
    loop {
        let name = n.to_string();
        if !e.sessions.iter().any(|s| s.name == name) {
            return name;
        }
        n += 1;
    }
}

pub struct SpawnWindow {
    pub index: u32,
    pub name: Option<String>,
    pub command: Vec<String>,
    pub cwd: String,
    pub extra: Vec<(String, String)>,
    pub client_path: Option<String>,
    pub cols: u32,
    pub rows: u32,
}

/// Starts a window's program (the session is not yet, or already, in the engine's list) on
/// the session's backend: the one its windows have, else `default-backend`.
pub fn spawn_window(e: &mut Engine, session: &Session, w: SpawnWindow) -> Result<Window, String> {
    let backend = match session.windows.first() {
        Some(first) => first.pane.backend,
        None => backend_named(&e.options.string("default-backend"))?,
    };
    spawn_window_with(e, session, backend, w)
}

fn spawn_window_with(
    e: &mut Engine,
    session: &Session,
    backend: Backend,
    w: SpawnWindow,
) -> Result<Window, String> {
    let pane_id = e.alloc_pane_id();
    let window_id = e.alloc_window_id();
    let mut argv = w.command.clone();
    if argv.is_empty() {
        let default = e.options.session_string(session, "default-command");
        if !default.is_empty() {
            argv = vec![default];
        }
    }
    let env = e.pane_environment(session, &w.extra, w.client_path.as_deref(), pane_id);
    let termios = Termios::pane_default();
    let req = SpawnRequest {
        argv: argv.clone(),
        shell: e.session_shell(session),
        cwd: w.cwd.clone(),
        env,
        cols: w.cols as u16,
        rows: w.rows as u16,
        termios,
        backend,
    };
    let spawned = e
        .host
        .spawn(&req)
        .map_err(|err| format!("fork failed: {}", crate::sys::socket::os_error(&err)))?;
    let start_command = stringify_argv(&argv);
    let pane = Pane::new(NewPane {
        id: pane_id,
        cols: w.cols,
        rows: w.rows,
        history_limit: e.options.session_number(session, "history-limit").max(0) as u32,
        spawned,
        termios,
        start_command: start_command.clone(),
        start_cwd: w.cwd,
        title: e.host_name.clone(),
    });
    let automatic = w.name.is_none();
    let name = w.name.unwrap_or_else(|| {
        let shell = e.session_shell(session);
        window_name_from(argv.first().map_or(shell.as_str(), |c| c.as_str()))
    });
    Ok(Window {
        id: window_id,
        index: w.index,
        name,
        automatic_rename: automatic,
        pane,
        activity: e.host.wall_time(),
        input_off: false,
        options: Default::default(),
        pane_options: Default::default(),
        command: argv,
        dead_time: None,
        name_checked: (0, e.host.now_ms()),
        layout_before: None,
    })
}

fn kill_session(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Session)?;
    let id = e.sessions[f.session].id;
    let victims: Vec<u32> = if args.has('a') {
        e.sessions
            .iter()
            .map(|s| s.id)
            .filter(|&x| x != id)
            .collect()
    } else {
        vec![id]
    };
    if args.has('C') {
        return Ok(());
    }
    for v in victims {
        e.kill_session(v);
    }
    Ok(())
}

fn has_session(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    resolve(e, ctx, args, Kind::Session).map(|_| ())
}

const LIST_SESSIONS_TEMPLATE: &str = "#{session_name}: #{session_windows} windows (created #{t:session_created})#{?session_grouped, (group ,}#{session_group}#{?session_grouped,),}#{?session_attached, (attached),}";

fn list_sessions(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let template = args.get('F').unwrap_or(LIST_SESSIONS_TEMPLATE).to_string();
    let filter = args.get('f').map(str::to_string);
    let mut order: Vec<usize> = (0..e.sessions.len()).collect();
    order.sort_by(|&a, &b| e.sessions[a].name.cmp(&e.sessions[b].name));
    for si in order {
        let at = Some(Found {
            session: si,
            window: e.sessions[si].current,
        });
        if let Some(f) = &filter {
            if !format::is_true(&expand(e, f, at)) {
                continue;
            }
        }
        let line = expand(e, &template, at);
        ctx.print(&line);
    }
    Ok(())
}

fn rename_session(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Session)?;
    let name = session_name(&words(args)[0])?;
    if e.sessions
        .iter()
        .enumerate()
        .any(|(i, s)| s.name == name && i != f.session)
    {
        return Err(format!("duplicate session: {name}"));
    }
    e.sessions[f.session].name = name;
    Ok(())
}

/// A new session's `-x` or `-y`: tmux reads up to 65535 and makes the window at most
/// [`WINDOW_MAXIMUM`].
fn window_size(v: &str, what: &str) -> Result<u32, String> {
    Ok((numbers::argument(v, 1, u16::MAX.into(), what)? as u32).min(WINDOW_MAXIMUM))
}
