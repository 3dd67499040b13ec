//! The command table: every command zeropty knows, its flags, argument counts and usage, and
//! the code that runs it. Parsing, usage errors and `list-commands` all come from this one
//! table (as will completions and the manual page).
//!
//! Each area keeps its commands in its own module (`session`, `pane`, `server`, `options`,
//! `environment`, `shell`, ...) as a slice of [`CommandDef`]s; [`all`] joins them, sorted by
//! name. Commands behave as tmux 3.3a's do, with tmux's messages and exit codes; a command
//! returns `Err(message)` to fail the request (exit code 1).

mod buffer;
mod client;
mod environment;
mod format_values;
mod interactive;
mod key_bindings;
mod layout;
mod options;
mod pane;
mod prompts;
mod server;
mod session;
mod shell;
mod window;
mod window_moves;

pub use buffer::limit as buffer_limit;
pub use client::expand_for_client;
pub use environment::{job_environment, new_session_environ};
pub use format_values::{expand, FormatKind, FormatValues, TREE_MODE_FORMAT, VARIABLES};
pub use options::{command_argv, command_lines, run_detached, run_pending_hooks};
pub use server::run_text;
pub use session::{spawn_window, SpawnWindow};
pub use shell::{collect_status, keep_dead_pane};
pub use window::NAME_INTERVAL_MS;

use super::cmdline::{parse_args, ArgSpec, Args};
use super::options::{Value, SERVER};
use super::target::{self, Found, Kind};
use super::{Ctx, Engine};
use std::sync::OnceLock;

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

impl CommandDef {
    /// `name (alias) usage`, as `list-commands` prints it.
    pub fn synopsis(&self) -> String {
        match self.alias {
            Some(alias) => format!("{} ({alias}) {}", self.name, self.usage),
            None => format!("{} {}", self.name, self.usage),
        }
    }
}

#[macro_export]
#[doc(hidden)]
macro_rules! command_def {
    ($name:expr, $alias:expr, $flags:expr, $min:expr, $max:expr, $usage:expr, $start:expr, $run:expr) => {
        $crate::engine::commands::CommandDef {
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
pub fn all() -> &'static [&'static CommandDef] {
    static ALL: OnceLock<Vec<&'static CommandDef>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut v: Vec<&'static CommandDef> = session::COMMANDS
            .iter()
            .chain(pane::COMMANDS)
            .chain(server::COMMANDS)
            .chain(window::COMMANDS)
            .chain(window_moves::COMMANDS)
            .chain(layout::COMMANDS)
            .chain(buffer::COMMANDS)
            .chain(client::COMMANDS)
            .chain(key_bindings::COMMANDS)
            .chain(interactive::COMMANDS)
            .chain(prompts::COMMANDS)
            .chain(options::COMMANDS)
            .chain(environment::COMMANDS)
            .chain(shell::COMMANDS)
            .collect();
        v.sort_by_key(|c| c.name);
        // tmux's table (cmd.c) is in name order but for display-popup, which comes before
        // display-panes: `list-commands` and the ambiguous-command message show its order.
        let at = |v: &[&CommandDef], name| v.iter().position(|c| c.name == name);
        if let (Some(panes), Some(popup)) = (at(&v, "display-panes"), at(&v, "display-popup")) {
            v.swap(panes, popup);
        }
        v
    })
}

/// Whether a command line (commands separated by `;`) would attach a terminal:
/// attach-session, or new-session without -d (or with -A, which attaches to an existing
/// session). Clients decide by it whether they need their terminal.
pub fn attaches(args: &[String]) -> bool {
    super::cmdline::split_argv(args).iter().any(|cmd| {
        let Some(def) = cmd.first().and_then(|n| find(n).ok()) else {
            return false;
        };
        let spec = ArgSpec {
            flags: def.flags,
            min: def.min,
            max: def.max,
            commands: None,
        };
        match def.name {
            "attach-session" => true,
            "new-session" => parse_args(&spec, &cmd[1..]).is_ok_and(|a| !a.has('d') || a.has('A')),
            _ => false,
        }
    })
}

/// Whether a command line (commands separated by `;`) reads the client's standard input:
/// `load-buffer -`, `source-file -`. Clients send it with the request.
pub fn reads_stdin(args: &[String]) -> bool {
    super::cmdline::split_argv(args).iter().any(|cmd| {
        let Some(def) = cmd.first().and_then(|n| find(n).ok()) else {
            return false;
        };
        ["load-buffer", "source-file"].contains(&def.name)
            && parse(cmd).is_ok_and(|(_, args)| words(&args).iter().any(|w| w == "-"))
    })
}

/// The `-e NAME=VALUE` flags of the commands that start a program (values without `=` are
/// ignored, as tmux ignores them).
fn environment_flags(args: &Args) -> Vec<(String, String)> {
    args.values('e')
        .iter()
        .filter_map(|v| {
            v.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect()
}

/// Finds a command by name or alias, or by unique prefix of a name, as tmux does.
pub fn find(name: &str) -> Result<&'static CommandDef, String> {
    if let Some(c) = all()
        .iter()
        .copied()
        .find(|c| c.name == name || c.alias == Some(name))
    {
        return Ok(c);
    }
    let matches: Vec<&CommandDef> = all()
        .iter()
        .copied()
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

/// Parses one command: its definition and its arguments, or tmux's message.
fn parse(argv: &[String]) -> Result<(&'static CommandDef, Args), String> {
    let def = find(&argv[0])?;
    let spec = ArgSpec {
        flags: def.flags,
        min: def.min,
        max: def.max,
        commands: None,
    };
    let args = parse_args(&spec, &argv[1..]).map_err(|err| err.message(def.name, def.usage))?;
    Ok((def, args))
}

/// The command text `name` is an alias of (the `command-alias` server option, items
/// `NAME=COMMAND TEXT`, as `cmd_get_alias`).
/// Whether `name` is a `command-alias`.
pub fn is_alias(e: &Engine, name: &str) -> bool {
    alias(e, name).is_some()
}

fn alias<'a>(e: &'a Engine, name: &str) -> Option<&'a str> {
    let Some(Value::Array(items)) = e.options.global(SERVER).get("command-alias") else {
        return None;
    };
    items
        .values()
        .find_map(|item| item.strip_prefix(name)?.strip_prefix('='))
}

/// The commands a command line stands for when its name is an alias: the alias's commands,
/// its own arguments appended to the last of them, none of them expanded again (as
/// `cmd_parse_expand_alias`).
fn expand_alias(e: &Engine, argv: &[String]) -> Result<Option<Vec<Vec<String>>>, String> {
    let Some(text) = argv.first().and_then(|name| alias(e, name)) else {
        return Ok(None);
    };
    let mut lines = options::command_lines(e, text)?;
    if let Some(last) = lines.last_mut() {
        last.extend_from_slice(&argv[1..]);
    }
    Ok(Some(lines))
}

/// Checks a command line before any of it runs, as tmux parses a whole line first: an
/// unknown command or bad arguments anywhere and nothing runs.
pub fn check(e: &Engine, cmds: &[Vec<String>]) -> Result<(), String> {
    for argv in cmds.iter().filter(|argv| !argv.is_empty()) {
        match expand_alias(e, argv)? {
            Some(lines) => lines.iter().try_for_each(|line| parse(line).map(drop))?,
            None => drop(parse(argv)?),
        }
    }
    Ok(())
}

/// How deep commands may run inside commands. tmux queues them and has no limit: an alias
/// whose `if-shell` runs the alias again keeps its server busy for ever; here each level takes
/// some of the server's stack, so the hundredth fails instead.
const MAX_NESTING: u32 = 100;

/// Parses and runs one command, or the commands its name is an alias of (those left when one
/// must wait run after it, before the rest of the caller's).
pub fn run(e: &mut Engine, ctx: &mut Ctx<'_>, argv: &[String]) -> Result<(), String> {
    if ctx.nesting >= MAX_NESTING {
        return Err(format!("zeropty: commands nested too deeply: {}", argv[0]));
    }
    ctx.nesting += 1;
    let ran = run_expanded(e, ctx, argv);
    ctx.nesting -= 1;
    ran
}

fn run_expanded(e: &mut Engine, ctx: &mut Ctx<'_>, argv: &[String]) -> Result<(), String> {
    let Some(lines) = expand_alias(e, argv)? else {
        return run_one(e, ctx, argv);
    };
    for (i, line) in lines.iter().enumerate() {
        run_one(e, ctx, line)?;
        if ctx.suspended {
            ctx.deferred.extend(lines[i + 1..].iter().cloned());
            break;
        }
    }
    Ok(())
}

/// Automatic window names of the sessions clients show, checked as their status lines are
/// drawn (the others are checked before every command); true when one changed.
pub(super) fn refresh_shown_names(e: &mut Engine) -> bool {
    window::refresh_names(e, true)
}

fn run_one(e: &mut Engine, ctx: &mut Ctx<'_>, argv: &[String]) -> Result<(), String> {
    let (def, args) = parse(argv)?;
    // As tmux, once the configuration files have loaded, every command is logged.
    if !ctx.config {
        let text = options::print_command(def.name, &args)
            .unwrap_or_else(|_| format!("{} {}", def.name, stringify_argv(&argv[1..])));
        e.log_command(ctx.req, &text);
    }
    window::refresh_names(e, false);
    e.clients.status_generation = e.clients.status_generation.wrapping_add(1);
    // Commands run commands (if-shell, hooks): each sees its own name, then its caller's.
    let caller = e.running_command.replace(def.name);
    let ran = (def.run)(e, ctx, &args);
    e.running_command = caller;
    ran?;
    options::after_hook(e, ctx, def.name, &args);
    Ok(())
}

/// The positional arguments as strings.
pub(super) fn words(args: &Args) -> Vec<String> {
    args.positional()
        .iter()
        .filter_map(|a| a.as_str().map(str::to_string))
        .collect()
}

// ---- helpers ----

/// The target of `-t`. While a mouse event's binding runs, `=` (`{mouse}`) is the window
/// under the mouse, as tmux's: the one whose name in the status line was clicked, or the one
/// the client shows for the pane.
pub(super) fn resolve(e: &Engine, ctx: &Ctx<'_>, args: &Args, kind: Kind) -> Result<Found, String> {
    let target = args.get('t');
    if matches!(target, Some("=" | "{mouse}")) && e.mouse_event.is_some() {
        if let Some(found) = ctx.req.client.and_then(|c| e.mouse_target(c)) {
            return Ok(found);
        }
    }
    target::resolve(&e.sessions, target, kind, ctx.calling_pane)
}

pub(super) fn pane_id_at(e: &Engine, f: Found) -> u32 {
    e.sessions[f.session].windows[f.window].pane.id
}

/// tmux's session name rules: `:` and `.` become `_`; empty is invalid.
pub(super) fn session_name(name: &str) -> Result<String, String> {
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
pub(super) fn stringify_argv(argv: &[String]) -> String {
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

/// tmux's WINDOW_MAXIMUM: no window is wider or taller.
pub(super) const WINDOW_MAXIMUM: u32 = 10000;

pub(super) fn absolute(base: &str, path: &str) -> String {
    if path.starts_with('/') || base.is_empty() {
        path.to_string()
    } else {
        format!("{}/{path}", base.trim_end_matches('/'))
    }
}
