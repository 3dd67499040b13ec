//! The command table: every command zeropty knows, its flags, argument counts and usage, and
//! the code that runs it. Parsing, usage errors and `list-commands` all come from this one
//! table (as will completions and the manual page).
//!
//! Commands behave as tmux 3.3a's do, with tmux's messages and exit codes; a command returns
//! `Err(message)` to fail the request (exit code 1) after printing nothing else.

use super::cmdline::{parse_args, ArgSpec, Args};
use super::format::{self, Values};
use super::os::SpawnRequest;
use super::pane::{NewPane, Pane};
use super::session::{Session, Window};
use super::target::{self, Found, Kind};
use super::tty::Termios;
use super::{keys, Ctx, Engine};
use crate::term::capture::{parse_line_spec, printable};
use crate::term::CaptureOptions;
use std::collections::BTreeMap;

pub type Handler = fn(&mut Engine, &mut Ctx<'_>, &Args) -> Result<(), String>;

pub struct CommandDef {
    pub name: &'static str,
    pub alias: Option<&'static str>,
    /// getopt-style flags, as tmux writes them (`s:` takes a value).
    pub flags: &'static str,
    pub min: usize,
    pub max: Option<usize>,
    pub usage: &'static str,
    /// Running this command starts a server when none runs (as tmux's CMD_STARTSERVER).
    pub starts_server: bool,
    pub run: Handler,
}

macro_rules! cmd {
    ($name:expr, $alias:expr, $flags:expr, $min:expr, $max:expr, $usage:expr, $start:expr, $run:expr) => {
        CommandDef {
            name: $name,
            alias: $alias,
            flags: $flags,
            min: $min,
            max: $max,
            usage: $usage,
            starts_server: $start,
            run: $run,
        }
    };
}

/// Every command, sorted by name (as `list-commands` prints them).
pub static COMMANDS: &[CommandDef] = &[
    cmd!("capture-pane", Some("capturep"), "ab:CeE:JNpPqS:t:", 0, Some(0),
        "[-aCeJNpPq] [-b buffer-name] [-E end-line] [-S start-line] [-t target-pane]", false, capture_pane),
    cmd!("clear-history", Some("clearhist"), "t:", 0, Some(0), "[-t target-pane]", false, clear_history),
    cmd!("display-message", Some("display"), "ac:d:INpt:F:v", 0, Some(1),
        "[-aINpv] [-c target-client] [-d delay] [-F format] [-t target-pane] [message]", false, display_message),
    cmd!("has-session", Some("has"), "t:", 0, Some(0), "[-t target-session]", false, has_session),
    cmd!("kill-server", None, "", 0, Some(0), "", false, kill_server),
    cmd!("kill-session", None, "aCt:", 0, Some(0), "[-aC] [-t target-session]", false, kill_session),
    cmd!("list-commands", Some("lscm"), "F:", 0, Some(1), "[-F format] [command]", true, list_commands),
    cmd!("list-sessions", Some("ls"), "F:f:", 0, Some(0), "[-F format] [-f filter]", false, list_sessions),
    cmd!("new-session", Some("new"), "Ac:dDe:EF:f:n:Ps:t:x:Xy:", 0, None,
        "[-AdDEPX] [-c start-directory] [-e environment] [-F format] [-f flags] [-n window-name] [-s session-name] [-t target-session] [-x width] [-y height] [shell-command]",
        true, new_session),
    cmd!("rename-session", Some("rename"), "t:", 1, Some(1), "[-t target-session] new-name", false, rename_session),
    cmd!("send-keys", Some("send"), "FHlMN:Rt:X", 0, None,
        "[-FHlMRX] [-N repeat-count] [-t target-pane] key ...", false, send_keys),
    cmd!("set-option", Some("set"), "aFgopqst:uUw", 1, Some(2),
        "[-aFgopqsuUw] [-t target-pane] option [value]", false, set_option),
    cmd!("show-options", Some("show"), "AgHpqst:vw", 0, Some(1),
        "[-AgHpqsvw] [-t target-pane] [option]", false, show_options),
    cmd!("source-file", Some("source"), "Fnqv", 1, None, "[-Fnqv] path ...", false, source_file),
    cmd!("start-server", Some("start"), "", 0, Some(0), "", true, start_server),
];

/// Finds a command by name or alias, or by unique prefix of a name, as tmux does.
pub fn find(name: &str) -> Result<&'static CommandDef, String> {
    if let Some(c) = COMMANDS
        .iter()
        .find(|c| c.name == name || c.alias == Some(name))
    {
        return Ok(c);
    }
    let matches: Vec<&CommandDef> = COMMANDS
        .iter()
        .filter(|c| c.name.starts_with(name))
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(format!("unknown command: {name}")),
        many => Err(format!(
            "ambiguous command: {name}, could be: {}",
            many.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// Parses and runs one command.
pub fn run(e: &mut Engine, ctx: &mut Ctx<'_>, argv: &[String]) -> Result<(), String> {
    let def = find(&argv[0])?;
    let spec = ArgSpec {
        flags: def.flags,
        min: def.min,
        max: def.max,
        commands: None,
    };
    let args = parse_args(&spec, &argv[1..]).map_err(|err| err.message(def.name, def.usage))?;
    (def.run)(e, ctx, &args)
}

/// The positional arguments as strings.
fn words(args: &Args) -> Vec<String> {
    args.positional()
        .iter()
        .filter_map(|a| a.as_str().map(str::to_string))
        .collect()
}

// ---- helpers ----

fn resolve(e: &Engine, ctx: &Ctx<'_>, args: &Args, kind: Kind) -> Result<Found, String> {
    target::resolve(&e.sessions, args.get('t'), kind, ctx.calling_pane)
}

fn pane_id_at(e: &Engine, f: Found) -> u32 {
    e.sessions[f.session].windows[f.window].pane.id
}

/// tmux's session name rules: `:` and `.` become `_`; empty is invalid.
fn session_name(name: &str) -> Result<String, String> {
    if name.is_empty() {
        return Err(format!("invalid session: {name}"));
    }
    Ok(name.replace([':', '.'], "_"))
}

/// tmux's window-name derivation from a command line (names.c).
pub fn window_name_from(command: &str) -> String {
    let mut name = command.strip_prefix('"').unwrap_or(command);
    if let Some(i) = name.find('"') {
        name = &name[..i];
    }
    if let Some(rest) = name.strip_prefix("exec ") {
        name = rest;
    }
    name = name.trim_start_matches([' ', '-']);
    if let Some(i) = name.find(' ') {
        name = &name[..i];
    }
    let name =
        name.trim_end_matches(|c: char| !c.is_ascii_alphanumeric() && !c.is_ascii_punctuation());
    if name.starts_with('/') {
        name.rsplit('/').next().unwrap_or(name).to_string()
    } else {
        name.to_string()
    }
}

/// tmux quotes arguments that need it when it shows a command (cmd_stringify_argv).
fn stringify_argv(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            if a.is_empty() || a.contains(|c: char| " \"'$;#{}~\\\t\n".contains(c)) {
                format!(
                    "\"{}\"",
                    a.replace('\\', "\\\\")
                        .replace('"', "\\\"")
                        .replace('$', "\\$")
                )
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_size(v: &str, what: &str) -> Result<u32, String> {
    match v.parse::<i64>() {
        Ok(n) if n < 1 => Err(format!("{what} too small")),
        Ok(n) if n > 10000 => Err(format!("{what} too large")),
        Ok(n) => Ok(n as u32),
        Err(_) => Err(format!("{what} invalid")),
    }
}

// ---- sessions ----

fn new_session(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let name = match args.get('s') {
        Some(n) => Some(session_name(n)?),
        None => None,
    };
    if let Some(n) = &name {
        if e.sessions.iter().any(|s| &s.name == n) {
            if args.has('A') {
                return Ok(());
            }
            return Err(format!("duplicate session: {n}"));
        }
    }
    if !args.has('d') && !ctx.config {
        // Attaching needs the client's terminal, which a request over the socket does not
        // carry; `zeropty attach` does that.
        return Err("open terminal failed: not a terminal".into());
    }
    let (dx, dy) = default_size(e);
    let cols = match args.get('x') {
        Some("-") | None => dx,
        Some(v) => parse_size(v, "width")?,
    };
    let rows = match args.get('y') {
        Some("-") | None => dy,
        Some(v) => parse_size(v, "height")?,
    };
    let cwd = match args.get('c') {
        Some(c) => absolute(&ctx.req.cwd, c),
        None => ctx.req.cwd.clone(),
    };
    let extra: Vec<(String, String)> = args
        .values('e')
        .iter()
        .filter_map(|v| {
            v.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect();
    let now = e.host.wall_time();
    let id = e.alloc_session_id();
    let name = name.unwrap_or_else(|| next_session_name(e));
    let mut session = Session {
        id,
        name,
        created: now,
        activity: now,
        windows: Vec::new(),
        current: 0,
        last: None,
        environ: BTreeMap::new(),
        cwd: cwd.clone(),
        attached: 0,
    };
    let command: Vec<String> = words(args);
    let window_name = args.get('n').map(str::to_string);
    let base = e.options.number("base-index").max(0) as u32;
    let client_path = ctx.req.env.get("PATH").cloned();
    let window = spawn_window(
        e,
        &session,
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
    )?;
    session.insert_window(window);
    let format = args.get('F').unwrap_or("#{session_name}:").to_string();
    e.sessions.push(session);
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

fn absolute(base: &str, path: &str) -> String {
    if path.starts_with('/') || base.is_empty() {
        path.to_string()
    } else {
        format!("{}/{path}", base.trim_end_matches('/'))
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

/// Starts a window's program (the session is not yet, or already, in the engine's list).
pub fn spawn_window(e: &mut Engine, session: &Session, w: SpawnWindow) -> Result<Window, String> {
    let pane_id = e.alloc_pane_id();
    let window_id = e.alloc_window_id();
    let mut argv = w.command.clone();
    if argv.is_empty() {
        let default = e.options.string("default-command");
        if !default.is_empty() {
            argv = vec![default];
        }
    }
    let env = e.pane_environment(session, &w.extra, w.client_path.as_deref(), pane_id);
    let termios = Termios::pane_default();
    let req = SpawnRequest {
        argv: argv.clone(),
        shell: e.options.string("default-shell"),
        cwd: w.cwd.clone(),
        env,
        cols: w.cols as u16,
        rows: w.rows as u16,
        termios,
    };
    let spawned = e
        .host
        .spawn(&req)
        .map_err(|err| format!("fork failed: {}", crate::sys::socket::os_error(&err)))?;
    let io = spawned.io;
    let start_command = stringify_argv(&argv);
    let pane = Pane::new(NewPane {
        id: pane_id,
        cols: w.cols,
        rows: w.rows,
        history_limit: e.options.number("history-limit").max(0) as u32,
        spawned,
        termios,
        start_command: start_command.clone(),
        start_cwd: w.cwd,
        title: e.host_name.clone(),
    });
    e.track(io, pane_id);
    let automatic = w.name.is_none();
    let name = w.name.unwrap_or_else(|| {
        let shell = e.options.string("default-shell");
        window_name_from(argv.first().map_or(shell.as_str(), |c| c.as_str()))
    });
    Ok(Window {
        id: window_id,
        index: w.index,
        name,
        automatic_rename: automatic,
        pane,
        activity: e.host.wall_time(),
        created_ms: e.host.now_ms(),
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

fn kill_server(e: &mut Engine, _ctx: &mut Ctx<'_>, _args: &Args) -> Result<(), String> {
    e.kill_all();
    Ok(())
}

fn start_server(_e: &mut Engine, _ctx: &mut Ctx<'_>, _args: &Args) -> Result<(), String> {
    Ok(())
}

// ---- panes ----

fn send_keys(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    let pane_id = pane_id_at(e, f);
    if args.has('X') {
        return Err("not in a mode".into());
    }
    let repeat = match args.get('N') {
        Some(v) => match v.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => return Err(format!("repeat count {v}")),
        },
        None => 1,
    };
    e.drain(pane_id);
    let literal = args.has('l');
    let hex = args.has('H');
    let reset = args.has('R');
    let keys_args: Vec<String> = words(args);
    e.with_pane(pane_id, |pane, os, _| {
        if reset {
            pane.term.feed(b"\x1bc");
        }
        let mode = pane.term.mode();
        let mut bytes = Vec::new();
        for _ in 0..repeat {
            for k in &keys_args {
                let raw = crate::protocol::arg_to_bytes(k);
                if hex {
                    keys::send_keys_hex(k, &mut bytes);
                } else if literal || raw.len() != k.len() && std::str::from_utf8(&raw).is_err() {
                    // Literal text goes as its bytes, whatever they are.
                    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
                    bytes.extend_from_slice(&raw[..end]);
                } else {
                    keys::send_keys_arg(k, false, mode, &mut bytes);
                }
            }
        }
        if !bytes.is_empty() {
            pane.keys(os, &bytes);
        }
    });
    Ok(())
}

fn capture_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    let pane_id = pane_id_at(e, f);
    e.drain(pane_id);
    let pane = &e.sessions[f.session].windows[f.window].pane;
    let buf = if args.has('P') {
        pane.term.capture_pending(args.has('C'))
    } else {
        let opts = CaptureOptions {
            start: args.get('S').map(parse_line_spec),
            end: args.get('E').map(parse_line_spec),
            escapes: args.has('e'),
            escape_c0: args.has('C'),
            join: args.has('J'),
            no_trim: args.has('N'),
        };
        if args.has('a') {
            match pane.term.capture_alternate(&opts) {
                Ok(b) => b,
                Err(_) if args.has('q') => Vec::new(),
                Err(err) => return Err(err.to_string()),
            }
        } else {
            pane.term.capture(&opts)
        }
    };
    if args.has('p') {
        ctx.out.extend_from_slice(&printable(buf));
    }
    Ok(())
}

fn clear_history(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    let pane_id = pane_id_at(e, f);
    e.drain(pane_id);
    e.sessions[f.session].windows[f.window]
        .pane
        .term
        .clear_history();
    Ok(())
}

const DISPLAY_MESSAGE_TEMPLATE: &str =
    "[#{session_name}] #{window_index}:#{window_name}, current pane #{pane_index} - (%H:%M %d-%b-%y)";

fn display_message(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    // As in tmux, a target that cannot be found leaves the message without one.
    let f = resolve(e, ctx, args, Kind::Pane).ok();
    if let Some(f) = f {
        let pane_id = pane_id_at(e, f);
        e.drain(pane_id);
    }
    if args.has('a') {
        let values = FormatValues::new(e, f);
        for name in VARIABLES {
            if let Some(v) = values.get(name) {
                ctx.print(&format!("{name}={v}"));
            }
        }
        return Ok(());
    }
    let template = match (args.get('F'), words(args).first()) {
        (Some(_), Some(_)) => return Err("only one of -F or argument must be given".into()),
        (Some(t), None) => t.to_string(),
        (None, Some(t)) => t.clone(),
        (None, None) => DISPLAY_MESSAGE_TEMPLATE.to_string(),
    };
    let values = FormatValues::new(e, f);
    let text = format::expand_time(&template, &values, e.host.wall_time());
    if args.has('p') {
        ctx.print(&text);
    }
    Ok(())
}

// ---- server ----

fn list_commands(_e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let template = args
        .get('F')
        .unwrap_or("#{command_list_name}#{?command_list_alias, (#{command_list_alias}),} #{command_list_usage}");
    let only = match words(args).first() {
        Some(name) => Some(find(name)?.name),
        None => None,
    };
    for c in COMMANDS.iter().filter(|c| only.is_none_or(|n| n == c.name)) {
        let mut vars = BTreeMap::new();
        vars.insert("command_list_name".to_string(), c.name.to_string());
        vars.insert(
            "command_list_alias".to_string(),
            c.alias.unwrap_or("").to_string(),
        );
        vars.insert("command_list_usage".to_string(), c.usage.to_string());
        ctx.print(&format::expand(template, &vars, 0));
    }
    Ok(())
}

fn set_option(e: &mut Engine, _ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let pos = words(args);
    let name = pos[0].clone();
    if args.has('u') || args.has('U') {
        e.options.unset(&name);
        return Ok(());
    }
    let Some(value) = pos.get(1) else {
        return Err(format!("no value for option: {name}"));
    };
    if args.has('o')
        && e.options.get(&name).is_some()
        && !super::options::KNOWN.iter().any(|(k, _)| *k == name)
    {
        return Ok(());
    }
    let value = if args.has('a') {
        format!("{}{}", e.options.string(&name), value)
    } else {
        value.clone()
    };
    e.options.set(&name, &value);
    Ok(())
}

fn show_options(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let value_only = args.has('v');
    match words(args).first() {
        Some(name) => match e.options.get(name) {
            Some(v) => {
                let v = v.to_string();
                ctx.print(&if value_only { v } else { format!("{name} {v}") })
            }
            None if args.has('q') => {}
            None => return Err(format!("invalid option: {name}")),
        },
        None => {
            let lines: Vec<String> = e
                .options
                .iter()
                .map(|(k, v)| {
                    if value_only {
                        v.to_string()
                    } else {
                        format!("{k} {v}")
                    }
                })
                .collect();
            for l in lines {
                ctx.print(&l);
            }
        }
    }
    Ok(())
}

/// How deep `source-file` may nest, as tmux limits it.
const SOURCE_DEPTH_LIMIT: u32 = 50;

fn source_file(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    if ctx.depth >= SOURCE_DEPTH_LIMIT {
        return Err("too many nested files".into());
    }
    let mut failed = false;
    for path in words(args) {
        let path = absolute(&ctx.req.cwd, &path);
        match e.host.read_file(&path) {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                if !run_text(e, ctx, &path, &text, args.has('n')) {
                    failed = true;
                }
            }
            Err(err) if args.has('q') && err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => {
                ctx.error(&format!("{path}: {}", crate::sys::socket::os_error(&err)));
                failed = true;
            }
        }
    }
    if failed {
        Err(String::new())
    } else {
        Ok(())
    }
}

/// Runs the commands of a configuration file; errors are reported as `FILE:LINE: message`.
/// Returns whether every command succeeded.
pub fn run_text(
    e: &mut Engine,
    ctx: &mut Ctx<'_>,
    path: &str,
    text: &str,
    parse_only: bool,
) -> bool {
    use super::cmdline::{parse, ParseInput};
    let env = e.environ.clone();
    let home = env.get("HOME").cloned();
    let lookup = |k: &str| env.get(k).cloned();
    let cond = |f: &str| format::is_true(&expand(e, f, None));
    let input = ParseInput {
        file: Some(path),
        line: 1,
        env: &lookup,
        home: home.as_deref(),
        user_home: None,
        cond: &cond,
        parse_only,
    };
    let parsed = parse(text, &input);
    let parsed = match parsed {
        Ok(p) => p,
        Err(err) => {
            for a in &err.assignments {
                e.environ.insert(a.name.clone(), a.value.clone());
            }
            ctx.error(&err.to_string());
            return false;
        }
    };
    for a in &parsed.assignments {
        e.environ.insert(a.name.clone(), a.value.clone());
    }
    if parse_only {
        return true;
    }
    let mut ok = true;
    ctx.depth += 1;
    for c in parsed.commands {
        let argv: Vec<String> = c
            .argv
            .iter()
            .map(|a| a.as_str().unwrap_or("").to_string())
            .collect();
        if argv.is_empty() {
            continue;
        }
        if let Err(err) = run(e, ctx, &argv) {
            if !err.is_empty() {
                ctx.error(&format!("{path}:{}: {err}", c.line));
            }
            ok = false;
        }
    }
    ctx.depth -= 1;
    ok
}

// ---- formats ----

/// Expands a format for a target (or for nothing in particular).
pub fn expand(e: &Engine, template: &str, at: Option<Found>) -> String {
    let values = FormatValues::new(e, at);
    format::expand(template, &values, e.host.wall_time())
}

/// Variables `display-message -a` lists.
const VARIABLES: &[&str] = &[
    "alternate_on",
    "cursor_character",
    "cursor_flag",
    "cursor_x",
    "cursor_y",
    "history_limit",
    "history_size",
    "host",
    "host_short",
    "insert_flag",
    "keypad_cursor_flag",
    "keypad_flag",
    "origin_flag",
    "pane_active",
    "pane_current_command",
    "pane_current_path",
    "pane_dead",
    "pane_dead_status",
    "pane_height",
    "pane_id",
    "pane_in_mode",
    "pane_index",
    "pane_pid",
    "pane_start_command",
    "pane_title",
    "pane_tty",
    "pane_width",
    "pid",
    "session_activity",
    "session_attached",
    "session_created",
    "session_id",
    "session_name",
    "session_windows",
    "socket_path",
    "start_time",
    "version",
    "window_active",
    "window_height",
    "window_id",
    "window_index",
    "window_name",
    "window_panes",
    "window_width",
    "wrap_flag",
];

/// The variables a format sees for one target.
pub struct FormatValues<'a> {
    e: &'a Engine,
    session: Option<&'a Session>,
    window: Option<&'a Window>,
    window_current: bool,
}

impl<'a> FormatValues<'a> {
    pub fn new(e: &'a Engine, at: Option<Found>) -> FormatValues<'a> {
        let session = at.map(|f| &e.sessions[f.session]);
        let window = at.map(|f| &e.sessions[f.session].windows[f.window]);
        FormatValues {
            e,
            session,
            window,
            window_current: at.is_some_and(|f| e.sessions[f.session].current == f.window),
        }
    }

    fn pane(&self) -> Option<&'a Pane> {
        self.window.map(|w| &w.pane)
    }

    /// The window's name. With automatic-rename (the default), tmux renames a window after its
    /// running command on a timer, no sooner than half a second after it starts; until then,
    /// and when the name was given, it is the name the window was made with.
    fn window_name(&self, w: &Window) -> String {
        const RENAME_INTERVAL_MS: u64 = 500;
        let os = &*self.e.host;
        if !w.automatic_rename
            || w.pane.io.is_none()
            || os.now_ms() < w.created_ms + RENAME_INTERVAL_MS
        {
            return w.name.clone();
        }
        let fg = os.foreground_group(w.pane.slot).unwrap_or(w.pane.pid);
        os.process_name(fg)
            .map(|n| window_name_from(&n))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| w.name.clone())
    }
}

fn flag(b: bool) -> String {
    if b { "1" } else { "0" }.to_string()
}

impl Values for FormatValues<'_> {
    fn get(&self, name: &str) -> Option<String> {
        use crate::term::mode;
        let e = self.e;
        let v = match name {
            "host" => e.host_name.clone(),
            "host_short" => e.host_name.split('.').next().unwrap_or("").to_string(),
            "pid" => e.server_pid.to_string(),
            "socket_path" => e.socket_path.clone(),
            "start_time" => e.started.to_string(),
            "version" => env!("CARGO_PKG_VERSION").to_string(),
            _ => {
                return self.object_value(name).or_else(|| {
                    let mode_flag = |bit: u32| self.pane().map(|p| flag(p.term.mode() & bit != 0));
                    match name {
                        "cursor_flag" => mode_flag(mode::CURSOR),
                        "insert_flag" => mode_flag(mode::INSERT),
                        "keypad_cursor_flag" => mode_flag(mode::KCURSOR),
                        "keypad_flag" => mode_flag(mode::KKEYPAD),
                        "wrap_flag" => mode_flag(mode::WRAP),
                        "origin_flag" => mode_flag(mode::ORIGIN),
                        "mouse_any_flag" => mode_flag(mode::ALL_MOUSE),
                        "mouse_standard_flag" => mode_flag(mode::MOUSE_STANDARD),
                        "mouse_button_flag" => mode_flag(mode::MOUSE_BUTTON),
                        "mouse_all_flag" => mode_flag(mode::MOUSE_ALL),
                        "mouse_sgr_flag" => mode_flag(mode::MOUSE_SGR),
                        "mouse_utf8_flag" => mode_flag(mode::MOUSE_UTF8),
                        _ => e.options.get(name).map(str::to_string),
                    }
                })
            }
        };
        Some(v)
    }
}

impl FormatValues<'_> {
    fn object_value(&self, name: &str) -> Option<String> {
        if let Some(s) = self.session {
            let v = match name {
                "session_name" => Some(s.name.clone()),
                "session_id" => Some(format!("${}", s.id)),
                "session_created" => Some(s.created.to_string()),
                "session_activity" => Some(s.activity.to_string()),
                "session_attached" => Some(s.attached.to_string()),
                "session_windows" => Some(s.windows.len().to_string()),
                "session_path" => Some(s.cwd.clone()),
                "session_grouped" | "session_many_attached" => Some("0".into()),
                _ => None,
            };
            if v.is_some() {
                return v;
            }
        }
        let w = self.window?;
        let p = &w.pane;
        let t = &p.term;
        Some(match name {
            "window_index" => w.index.to_string(),
            "window_id" => format!("@{}", w.id),
            "window_name" => self.window_name(w),
            "window_active" => flag(self.window_current),
            "window_width" | "pane_width" => t.cols().to_string(),
            "window_height" | "pane_height" => t.rows().to_string(),
            "window_panes" => "1".into(),
            "window_flags" | "window_raw_flags" => {
                let last = self.session.is_some_and(|s| s.last == Some(w.id));
                if self.window_current {
                    "*".into()
                } else if last {
                    "-".into()
                } else {
                    String::new()
                }
            }
            "window_activity" => w.activity.to_string(),
            "pane_id" => format!("%{}", p.id),
            "pane_index" => "0".into(),
            "pane_active" => "1".into(),
            "pane_pid" => p.pid.to_string(),
            "pane_tty" => p.tty.clone(),
            "pane_start_command" => p.start_command.clone(),
            "pane_current_command" => {
                let os = &*self.e.host;
                let fg = os.foreground_group(p.slot).unwrap_or(p.pid);
                os.process_name(fg)
                    .map(|n| window_name_from(&n))
                    .unwrap_or_default()
            }
            "pane_current_path" => self
                .e
                .host
                .process_cwd(p.pid)
                .unwrap_or_else(|| p.start_cwd.clone()),
            "pane_dead" => flag(p.dead),
            "pane_dead_status" => p
                .dead_status
                .filter(|s| s & 0x7f == 0)
                .map(|s| ((s >> 8) & 0xff).to_string())
                .unwrap_or_default(),
            "pane_in_mode" => "0".into(),
            "pane_title" => t.title().to_string(),
            "cursor_x" => t.cursor().0.to_string(),
            "cursor_y" => t.cursor().1.to_string(),
            "cursor_character" => t.cursor_character(),
            "history_size" => t.history_size().to_string(),
            "history_limit" => t.history_limit().to_string(),
            "history_bytes" => p.heap_bytes().to_string(),
            "pane_bytes_read" => p.bytes_read.to_string(),
            "alternate_on" => flag(t.alternate_on()),
            _ => return None,
        })
    }
}
