//! Option and hook commands: set-option (set), set-window-option (setw), show-options
//! (show), show-window-options (showw), set-hook and show-hooks, as tmux 3.3a has them (hooks
//! are array options whose items are command lists); and running hooks when their events
//! happen.
//!
//! A command acts on one option set, chosen as tmux chooses it: from the option's scope in
//! the table (`-g` for the global set, otherwise the target's session, window or pane), or
//! for user options (`@name`) and listings from the flags (`-s`, `-w`, `-p`, `-g`). A target
//! that cannot be found is not an error in itself; the scope then reports `no such session`
//! (or window, pane), as tmux's do.
//!
//! Hooks run after the command (or event) that raised them, with their output dropped (tmux
//! runs them from its global queue, where no client reads it); hooks raised while hooks run
//! are dropped, as tmux drops them.

use super::{expand, resolve, words};
use crate::engine::cmdline::{self, Arg, ArgSpec, Args, Command};
use crate::engine::format;
use crate::engine::options::{
    self, escape, HookEvent, Kind, NameError, OptionDef, Value, PANE, SERVER, SESSION, WINDOW,
};
use crate::engine::target::{self, Found, Kind as TargetKind};
use crate::engine::{Ctx, Engine, Request};

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!(
        "set-hook",
        None,
        "agpRt:uw",
        1,
        Some(2),
        "[-agpRuw] [-t target-pane] hook [command]",
        false,
        set_hook
    ),
    crate::command_def!(
        "set-option",
        Some("set"),
        "aFgopqst:uUw",
        1,
        Some(2),
        "[-aFgopqsuUw] [-t target-pane] option [value]",
        false,
        set_option
    ),
    crate::command_def!(
        "set-window-option",
        Some("setw"),
        "aFgoqt:u",
        1,
        Some(2),
        "[-aFgoqu] [-t target-window] option [value]",
        false,
        set_window_option
    ),
    crate::command_def!(
        "show-hooks",
        None,
        "gpt:w",
        0,
        Some(1),
        "[-gpw] [-t target-pane]",
        false,
        show_hooks
    ),
    crate::command_def!(
        "show-options",
        Some("show"),
        "AgHpqst:vw",
        0,
        Some(1),
        "[-AgHpqsvw] [-t target-pane] [option]",
        false,
        show_options
    ),
    crate::command_def!(
        "show-window-options",
        Some("showw"),
        "gvt:",
        0,
        Some(1),
        "[-gv] [-t target-window] [option]",
        false,
        show_window_options
    ),
];

/// Which of the commands runs: they share their code, as in tmux.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    Option,
    Window,
    Hook,
}

impl Entry {
    /// The `-t` the command takes: a window for the `-window-` commands, else a pane.
    fn target_kind(self) -> TargetKind {
        match self {
            Entry::Window => TargetKind::Window,
            Entry::Option | Entry::Hook => TargetKind::Pane,
        }
    }
}

/// The option set a command acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Server,
    GlobalSession,
    GlobalWindow,
    Session(usize),
    Window(usize, usize),
    Pane(usize, usize),
}

/// The command's target (`-t`, or the current pane), which may be missing.
struct Target {
    found: Option<Found>,
    given: Option<String>,
}

impl Target {
    fn new(e: &Engine, ctx: &Ctx<'_>, args: &Args, kind: TargetKind) -> Target {
        Target {
            found: resolve(e, ctx, args, kind).ok(),
            given: args.get('t').map(str::to_string),
        }
    }

    /// tmux's `no such session: T` or `no current session` (and window, pane).
    fn missing(&self, what: &str) -> String {
        match &self.given {
            Some(t) => format!("no such {what}: {t}"),
            None => format!("no current {what}"),
        }
    }
}

/// The set for `-s`, `-p`, `-w` and `-g` (tmux's `options_scope_from_flags`), with its scope.
fn scope_from_flags(args: &Args, window: bool, t: &Target) -> Result<(u8, Place), String> {
    if args.has('s') {
        return Ok((SERVER, Place::Server));
    }
    if args.has('p') {
        let f = t.found.ok_or_else(|| t.missing("pane"))?;
        return Ok((PANE, Place::Pane(f.session, f.window)));
    }
    if window || args.has('w') {
        if args.has('g') {
            return Ok((WINDOW, Place::GlobalWindow));
        }
        let f = t.found.ok_or_else(|| t.missing("window"))?;
        return Ok((WINDOW, Place::Window(f.session, f.window)));
    }
    if args.has('g') {
        return Ok((SESSION, Place::GlobalSession));
    }
    let f = t.found.ok_or_else(|| t.missing("session"))?;
    Ok((SESSION, Place::Session(f.session)))
}

/// The set an option lives in (tmux's `options_scope_from_name`): its table scope decides,
/// `-g` picks the global set and `-p` the pane for options that panes have.
fn scope_from_name(
    args: &Args,
    window: bool,
    name: &str,
    t: &Target,
) -> Result<(u8, Place), String> {
    if name.starts_with('@') {
        return scope_from_flags(args, window, t);
    }
    let def = options::find(name).ok_or_else(|| format!("unknown option: {name}"))?;
    match def.scope {
        SERVER => Ok((SERVER, Place::Server)),
        SESSION => {
            if args.has('g') {
                return Ok((SESSION, Place::GlobalSession));
            }
            let f = t.found.ok_or_else(|| t.missing("session"))?;
            Ok((SESSION, Place::Session(f.session)))
        }
        scope => {
            if scope == WINDOW | PANE && args.has('p') {
                let f = t.found.ok_or_else(|| t.missing("pane"))?;
                return Ok((PANE, Place::Pane(f.session, f.window)));
            }
            if args.has('g') {
                return Ok((WINDOW, Place::GlobalWindow));
            }
            let f = t.found.ok_or_else(|| t.missing("window"))?;
            Ok((WINDOW, Place::Window(f.session, f.window)))
        }
    }
}

/// The value set in `place` itself (tmux's `options_get_only`).
fn get_only(e: &Engine, place: Place, name: &str) -> Option<Value> {
    let o = &e.options;
    match place {
        Place::Server => o.server.get(name),
        Place::GlobalSession => o.session.get(name),
        Place::GlobalWindow => o.window.get(name),
        Place::Session(s) => e.sessions[s].options.get(name),
        Place::Window(s, w) => e.sessions[s].windows[w].window_options(name),
        Place::Pane(s, w) => e.sessions[s].windows[w].pane_options.get(name),
    }
    .cloned()
}

/// The value `place` sees, its own or its parents' (tmux's `options_get`).
fn get_inherited(e: &Engine, place: Place, name: &str) -> Option<Value> {
    let o = &e.options;
    match place {
        Place::Server | Place::GlobalSession | Place::GlobalWindow => get_only(e, place, name),
        Place::Session(s) => o.session_value(Some(&e.sessions[s]), name).cloned(),
        Place::Window(s, w) => {
            let win = &e.sessions[s].windows[w];
            win.window_options(name)
                .or_else(|| o.window.get(name))
                .cloned()
        }
        Place::Pane(s, w) => o.pane_value(Some(&e.sessions[s].windows[w]), name).cloned(),
    }
}

fn set_value(e: &mut Engine, place: Place, name: &str, value: Value) {
    match place {
        Place::Server => e.options.server.set(name, value),
        Place::GlobalSession => e.options.session.set(name, value),
        Place::GlobalWindow => e.options.window.set(name, value),
        Place::Session(s) => e.sessions[s].options.set(name, value),
        Place::Window(s, w) => e.sessions[s].windows[w].options.set(name, value),
        Place::Pane(s, w) => e.sessions[s].windows[w].pane_options.set(name, value),
    }
}

/// tmux's `options_remove_or_default`: an item goes; a table option in a global set goes back
/// to its default; anything else is removed.
fn remove_or_default(e: &mut Engine, place: Place, name: &str, index: Option<u32>) {
    if let Some(i) = index {
        if let Some(Value::Array(mut items)) = get_only(e, place, name) {
            items.remove(&i);
            set_value(e, place, name, Value::Array(items));
        }
        return;
    }
    let global = matches!(
        place,
        Place::Server | Place::GlobalSession | Place::GlobalWindow
    );
    match (options::find(name), global) {
        (Some(def), true) => {
            let set = match place {
                Place::Server => &mut e.options.server,
                Place::GlobalSession => &mut e.options.session,
                _ => &mut e.options.window,
            };
            set.reset(def);
        }
        _ => match place {
            Place::Server => e.options.server.remove(name),
            Place::GlobalSession => e.options.session.remove(name),
            Place::GlobalWindow => e.options.window.remove(name),
            Place::Session(s) => e.sessions[s].options.remove(name),
            Place::Window(s, w) => {
                let win = &mut e.sessions[s].windows[w];
                win.options.remove(name);
                if name == "automatic-rename" {
                    // The off a named window starts with is a local value too.
                    win.automatic_rename = true;
                }
            }
            Place::Pane(s, w) => e.sessions[s].windows[w].pane_options.remove(name),
        },
    }
}

fn set_option(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    set_common(e, ctx, args, Entry::Option)
}

fn set_window_option(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    set_common(e, ctx, args, Entry::Window)
}

fn set_hook(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    set_common(e, ctx, args, Entry::Hook)
}

fn set_common(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args, entry: Entry) -> Result<(), String> {
    let window = entry == Entry::Window;
    let t = Target::new(e, ctx, args, entry.target_kind());
    let pos = words(args);
    let argument = expand(e, &pos[0], t.found);

    if entry == Entry::Hook && args.has('R') {
        return run_hook_now(e, ctx, &argument, t.found);
    }

    let quiet = args.has('q');
    let (name, index) = match options::match_name(&argument) {
        Ok(m) => m,
        Err(_) if quiet => return Ok(()),
        Err(NameError::Ambiguous) => return Err(format!("ambiguous option: {argument}")),
        Err(NameError::Invalid) => return Err(format!("invalid option: {argument}")),
    };
    let mut value = pos.get(1).cloned();
    if args.has('F') {
        value = value.map(|v| expand(e, &v, t.found));
    }
    let (scope, place) = match scope_from_name(args, window, &name, &t) {
        Ok(s) => s,
        Err(_) if quiet => return Ok(()),
        Err(cause) => return Err(cause),
    };
    let def = options::find(&name);
    let current = get_only(e, place, &name);

    if index.is_some() && !def.is_some_and(OptionDef::is_array) {
        return Err(format!("not an array: {argument}"));
    }
    if !args.has('u') && args.has('o') {
        let already = match (index, &current) {
            (None, c) => c.is_some(),
            (Some(i), Some(Value::Array(items))) => items.contains_key(&i),
            _ => false,
        };
        if already {
            if quiet {
                return Ok(());
            }
            return Err(format!("already set: {argument}"));
        }
    }

    // -U on a window also unsets the option on its pane.
    if args.has('U') && scope == WINDOW {
        if let Some(f) = t.found {
            let pane = Place::Pane(f.session, f.window);
            if get_only(e, pane, &name).is_some() {
                remove_or_default(e, pane, &name, index);
            }
        }
    }
    if args.has('u') || args.has('U') {
        if current.is_some() {
            remove_or_default(e, place, &name, index);
        }
    } else if let Some(def) = def.filter(|d| d.is_array()) {
        let Some(value) = value else {
            return Err("empty value".into());
        };
        let mut items = match current {
            Some(Value::Array(items)) => items,
            _ => Default::default(),
        };
        let result = match index {
            None => {
                if !args.has('a') {
                    items.clear();
                }
                assign_items(e, def, &mut items, &value)
            }
            Some(i) => item_value(e, def, &value).map(|v| {
                let v = match items.get(&i) {
                    Some(old) if args.has('a') && def.kind == Kind::String => format!("{old}{v}"),
                    _ => v,
                };
                items.insert(i, v);
            }),
        };
        // Items assigned before a bad one stay, as in tmux.
        set_value(e, place, &name, Value::Array(items));
        result?;
    } else if let Some(def) = def {
        let new = match def.kind {
            Kind::String => {
                let Some(value) = value else {
                    return Err("empty value".into());
                };
                let new = match (&current, args.has('a')) {
                    (Some(Value::One(old)), true) => {
                        format!("{old}{}{value}", def.separator.unwrap_or(""))
                    }
                    _ => value,
                };
                options::check_string(def, &new, |shell| e.host.is_shell(shell))?;
                new
            }
            _ => {
                let now = get_inherited(e, place, &name);
                options::parse_value(def, value.as_deref(), now.as_ref().and_then(Value::as_str))?
            }
        };
        set_value(e, place, &name, Value::One(new));
    } else {
        // A user option: a string, appended to without a separator.
        let Some(value) = value else {
            return Err("empty value".into());
        };
        let new = match (&current, args.has('a')) {
            (Some(Value::One(old)), true) => format!("{old}{value}"),
            _ => value,
        };
        set_value(e, place, &name, Value::One(new));
    }

    if name == "automatic-rename" {
        sync_automatic_rename(e);
    }
    Ok(())
}

/// Windows follow their automatic-rename option.
fn sync_automatic_rename(e: &mut Engine) {
    let global = e.options.window.get("automatic-rename").cloned();
    for s in e.sessions.iter_mut() {
        for w in &mut s.windows {
            let v = w
                .window_options("automatic-rename")
                .cloned()
                .or(global.clone());
            w.automatic_rename = v.as_ref().and_then(Value::as_str) == Some("on");
        }
    }
}

/// An array item for `def`: command lists are checked and kept as tmux prints them.
fn item_value(e: &Engine, def: &OptionDef, value: &str) -> Result<String, String> {
    if def.kind == Kind::Command {
        canonical_commands(e, value)
    } else {
        options::parse_item(def, value)
    }
}

/// tmux's `options_array_assign`: the value split at the separator, each piece into the
/// first free index (a separator of nothing keeps the value whole).
fn assign_items(
    e: &Engine,
    def: &OptionDef,
    items: &mut std::collections::BTreeMap<u32, String>,
    value: &str,
) -> Result<(), String> {
    let separator = def.separator.unwrap_or(" ,");
    let pieces: Vec<&str> = if separator.is_empty() {
        vec![value]
    } else {
        value.split(|c| separator.contains(c)).collect()
    };
    for piece in pieces.into_iter().filter(|p| !p.is_empty()) {
        let free = (0..).find(|i| !items.contains_key(i)).unwrap_or(0);
        items.insert(free, item_value(e, def, piece)?);
    }
    Ok(())
}

fn show_options(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    show_common(e, ctx, args, Entry::Option)
}

fn show_window_options(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    show_common(e, ctx, args, Entry::Window)
}

fn show_hooks(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    show_common(e, ctx, args, Entry::Hook)
}

fn show_common(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args, entry: Entry) -> Result<(), String> {
    let window = entry == Entry::Window;
    let t = Target::new(e, ctx, args, entry.target_kind());
    let quiet = args.has('q');
    let Some(arg) = words(args).into_iter().next() else {
        let (scope, place) = match scope_from_flags(args, window, &t) {
            Ok(s) => s,
            Err(_) if quiet => return Ok(()),
            Err(cause) => return Err(cause),
        };
        show_all(e, ctx, args, entry, scope, place);
        return Ok(());
    };
    let argument = expand(e, &arg, t.found);
    let (name, index) = match options::match_name(&argument) {
        Ok(m) => m,
        Err(_) if quiet => return Ok(()),
        Err(NameError::Ambiguous) => return Err(format!("ambiguous option: {argument}")),
        Err(NameError::Invalid) => return Err(format!("invalid option: {argument}")),
    };
    let (_, place) = match scope_from_name(args, window, &name, &t) {
        Ok(s) => s,
        Err(_) if quiet => return Ok(()),
        Err(cause) => return Err(cause),
    };
    let mut value = get_only(e, place, &name);
    let mut inherited = false;
    if args.has('A') && value.is_none() {
        value = get_inherited(e, place, &name);
        inherited = true;
    }
    match value {
        Some(v) => print_option(ctx, args, &name, &v, index, inherited),
        None if name.starts_with('@') && !quiet => {
            return Err(format!("invalid option: {argument}"));
        }
        None => {}
    }
    Ok(())
}

/// Lists a set: its user options, then the table's options of the scope in table order
/// (tmux's `cmd_show_options_all`). zeropty's own options are shown only by name.
fn show_all(e: &Engine, ctx: &mut Ctx<'_>, args: &Args, entry: Entry, scope: u8, place: Place) {
    if entry != Entry::Hook {
        let users: Vec<(String, Value)> = match place {
            Place::Server => user_options(&e.options.server),
            Place::GlobalSession => user_options(&e.options.session),
            Place::GlobalWindow => user_options(&e.options.window),
            Place::Session(s) => user_options(&e.sessions[s].options),
            Place::Window(s, w) => user_options(&e.sessions[s].windows[w].options),
            Place::Pane(s, w) => user_options(&e.sessions[s].windows[w].pane_options),
        };
        for (name, v) in users {
            print_option(ctx, args, &name, &v, None, false);
        }
    }
    for def in options::TABLE {
        if def.scope & scope == 0 {
            continue;
        }
        let wanted = if entry == Entry::Hook {
            def.is_hook()
        } else {
            args.has('H') || !def.is_hook()
        };
        if !wanted {
            continue;
        }
        let (value, inherited) = match get_only(e, place, def.name) {
            Some(v) => (v, false),
            None if args.has('A') => match get_inherited(e, place, def.name) {
                Some(v) => (v, true),
                None => continue,
            },
            None => continue,
        };
        match &value {
            Value::Array(items) if items.is_empty() => {
                if !args.has('v') {
                    let star = if inherited { "*" } else { "" };
                    ctx.print(&format!("{}{star}", def.name));
                }
            }
            _ => print_option(ctx, args, def.name, &value, None, inherited),
        }
    }
}

fn user_options(set: &options::OptionSet) -> Vec<(String, Value)> {
    set.user_options()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// One option as show-options prints it (tmux's `cmd_show_options_print`): `name value`,
/// `name[i] value` per array item, a `*` after the name for an inherited value, string
/// values quoted as tmux quotes them; `-v` prints the bare value.
fn print_option(
    ctx: &mut Ctx<'_>,
    args: &Args,
    name: &str,
    value: &Value,
    index: Option<u32>,
    inherited: bool,
) {
    let def = options::find(name);
    let star = if inherited { "*" } else { "" };
    let string = def.is_none_or(OptionDef::is_string);
    let mut line = |label: String, text: String| {
        if args.has('v') {
            ctx.print(&text);
        } else if string {
            ctx.print(&format!("{label}{star} {}", escape(&text)));
        } else {
            ctx.print(&format!("{label}{star} {text}"));
        }
    };
    match (index, value) {
        (Some(i), v) => line(format!("{name}[{i}]"), v.text(Some(i), def, false)),
        (None, Value::Array(items)) => {
            if items.is_empty() {
                if !args.has('v') {
                    ctx.print(name);
                }
                return;
            }
            for (i, item) in items {
                line(format!("{name}[{i}]"), item.clone());
            }
        }
        (None, Value::One(v)) => line(name.to_string(), v.clone()),
    }
}

// ---- command lists ----

/// Parses command text (a hook, an if-shell branch) as tmux parses a command string, with
/// the global environment for `$NAME` and `~`.
pub(super) fn parse_commands(e: &Engine, text: &str) -> Result<Vec<Command>, String> {
    let home = e.environ.get("HOME").cloned();
    let lookup = |k: &str| e.environ.get(k).cloned();
    let cond = |f: &str| format::is_true(&expand(e, f, None));
    cmdline::parse_text(text, &lookup, home.as_deref(), &cond)
        .map(|p| p.commands)
        .map_err(|err| err.to_string())
}

/// Checks command text as tmux does when it builds a command list (each command known, its
/// arguments valid) and prints the list as tmux prints it (`cmd_list_print`).
pub(super) fn canonical_commands(e: &Engine, text: &str) -> Result<String, String> {
    Ok(printed_commands(e, &parse_commands(e, text)?)?.join(" ; "))
}

/// Any positional argument may be a block when checking a command list: the commands that
/// take blocks re-parse them as text when they run.
fn any_block(_: usize, _: &Args) -> bool {
    true
}

fn print_commands(cmds: &[Command]) -> Result<String, String> {
    Ok(print_each(cmds)?.join(" ; "))
}

/// Each command, an alias expanded, checked as tmux checks a command list it builds (known,
/// its arguments valid) and printed as tmux prints it (`cmd_print`).
pub(super) fn printed_commands(e: &Engine, cmds: &[Command]) -> Result<Vec<String>, String> {
    let mut printed = Vec::new();
    for c in cmds {
        match c.name().and_then(|name| super::alias(e, name)) {
            Some(text) => {
                let mut expanded = parse_commands(e, text)?;
                if let Some(last) = expanded.last_mut() {
                    last.argv.extend_from_slice(&c.argv[1..]);
                }
                printed.extend(print_each(&expanded)?);
            }
            None => printed.extend(print_each(std::slice::from_ref(c))?),
        }
    }
    Ok(printed)
}

fn print_each(cmds: &[Command]) -> Result<Vec<String>, String> {
    let mut printed = Vec::new();
    for c in cmds {
        let name = c.name().ok_or("no command")?;
        let def = super::find(name)?;
        let spec = ArgSpec::new(def.flags, def.min, def.max).with_commands(any_block);
        let args = cmdline::parse_arg_values(&spec, &c.argv[1..])
            .map_err(|err| err.message(def.name, def.usage))?;
        printed.push(print_command(def.name, &args)?);
    }
    Ok(printed)
}

/// One command as tmux prints it (`cmd_print`, `args_print`): the full name, flags without
/// values together, then each flag with its value, then the arguments, quoted as needed.
pub(super) fn print_command(name: &str, args: &Args) -> Result<String, String> {
    let mut buf = String::new();
    for f in args.flags() {
        if args.values(f).is_empty() {
            if buf.is_empty() {
                buf.push('-');
            }
            for _ in 0..args.count(f) {
                buf.push(f);
            }
        }
    }
    for f in args.flags() {
        for v in args.values(f) {
            if !buf.is_empty() {
                buf.push(' ');
            }
            buf.push('-');
            buf.push(f);
            buf.push(' ');
            buf.push_str(&escape(v));
        }
    }
    for a in args.positional() {
        if !buf.is_empty() {
            buf.push(' ');
        }
        match a {
            Arg::String(s) => buf.push_str(&escape(s)),
            Arg::Commands(cmds) => buf.push_str(&format!("{{ {} }}", print_commands(cmds)?)),
        }
    }
    Ok(if buf.is_empty() {
        name.to_string()
    } else {
        format!("{name} {buf}")
    })
}

/// A parsed command's arguments as strings; a `{ }` block becomes its text, which the
/// commands that take blocks parse again.
pub fn command_argv(c: &Command) -> Vec<String> {
    c.argv
        .iter()
        .map(|a| match a {
            Arg::String(s) => s.clone(),
            Arg::Commands(cmds) => print_commands(cmds).unwrap_or_default(),
        })
        .collect()
}

/// Runs parsed commands in order; the first failure stops them. When one must wait, the
/// rest are left to the request, to run after it ([`Ctx::deferred`]).
pub(super) fn run_commands(
    e: &mut Engine,
    ctx: &mut Ctx<'_>,
    cmds: &[Command],
) -> Result<(), String> {
    for (i, c) in cmds.iter().enumerate() {
        let argv = command_argv(c);
        if argv.is_empty() {
            continue;
        }
        super::run(e, ctx, &argv)?;
        if ctx.suspended {
            ctx.deferred.extend(cmds[i + 1..].iter().map(command_argv));
            break;
        }
    }
    Ok(())
}

/// Command text as the argument vectors of its commands.
pub fn command_lines(e: &Engine, text: &str) -> Result<Vec<Vec<String>>, String> {
    Ok(parse_commands(e, text)?.iter().map(command_argv).collect())
}

/// Runs command text with no client: output and errors are dropped, as for tmux's queue
/// items without a client. `pane` is the current pane the commands see.
pub fn run_detached(e: &mut Engine, text: &str, pane: Option<u32>) {
    let Ok(cmds) = parse_commands(e, text) else {
        return;
    };
    let cwd = pane
        .and_then(|id| {
            e.sessions
                .iter()
                .find(|s| s.windows.iter().any(|w| w.pane.id == id))
        })
        .map(|s| s.cwd.clone())
        .or_else(|| e.environ.get("HOME").cloned())
        .unwrap_or_else(|| "/".into());
    let req = Request {
        cwd,
        ..Request::default()
    };
    let mut ctx = Ctx::new(&req);
    ctx.calling_pane = pane;
    let _ = run_commands(e, &mut ctx, &cmds);
}

// ---- hooks ----

/// The command lists of hook `name` as seen from `at` (tmux's `notify_insert_hook`): the
/// session's (or global) session options, then the pane's and the window's.
fn hook_commands(e: &Engine, name: &str, at: Option<Found>) -> Vec<String> {
    let session = at.map(|f| &e.sessions[f.session]);
    let window = at.map(|f| &e.sessions[f.session].windows[f.window]);
    let value = e
        .options
        .session_value(session, name)
        .or_else(|| window.and_then(|w| e.options.pane_value(Some(w), name)));
    match value {
        Some(Value::Array(items)) => items.values().cloned().collect(),
        Some(Value::One(text)) if name.starts_with('@') => vec![text.clone()],
        _ => Vec::new(),
    }
}

/// `set-hook -R`: runs a hook now, for the command's client (its output is the client's).
fn run_hook_now(
    e: &mut Engine,
    ctx: &mut Ctx<'_>,
    name: &str,
    at: Option<Found>,
) -> Result<(), String> {
    let saved = ctx.calling_pane;
    ctx.calling_pane = at.map(|f| e.sessions[f.session].windows[f.window].pane.id);
    let mut result = Ok(());
    for text in hook_commands(e, name, at) {
        let cmds = match parse_commands(e, &text) {
            Ok(c) => c,
            Err(err) => {
                result = Err(err);
                continue;
            }
        };
        if let Err(err) = run_commands(e, ctx, &cmds) {
            result = Err(err);
        }
    }
    ctx.calling_pane = saved;
    result
}

/// Runs the hooks of the events raised since the last call (a pane exited, a session
/// closed). What the hooks' commands raise in turn is dropped, as tmux drops notifications
/// from commands that hooks run.
pub fn run_pending_hooks(e: &mut Engine) {
    if e.running_hooks {
        return;
    }
    if e.kill_requested() {
        // The server is stopping (kill-server): tmux runs no hooks on its way out.
        e.pending_hooks.clear();
        return;
    }
    let events = std::mem::take(&mut e.pending_hooks);
    if events.is_empty() {
        return;
    }
    e.running_hooks = true;
    for ev in events {
        let at = locate(e, &ev);
        let pane = at.map(|f| e.sessions[f.session].windows[f.window].pane.id);
        for text in hook_commands(e, ev.name, at) {
            run_detached(e, &text, pane);
        }
    }
    e.pending_hooks.clear();
    e.running_hooks = false;
}

/// Where a hook runs: the object it is about if that still exists, else the most recently
/// used session (tmux's `cmd_find_from_nothing`).
fn locate(e: &Engine, ev: &HookEvent) -> Option<Found> {
    let sessions = &e.sessions;
    let by_pane = ev.pane.and_then(|id| {
        sessions.iter().enumerate().find_map(|(si, s)| {
            s.windows
                .iter()
                .position(|w| w.pane.id == id)
                .map(|wi| Found {
                    session: si,
                    window: wi,
                })
        })
    });
    let by_session = || {
        ev.session.and_then(|id| {
            sessions.iter().position(|s| s.id == id).map(|si| Found {
                session: si,
                window: sessions[si].current,
            })
        })
    };
    by_pane
        .or_else(by_session)
        .or_else(|| target::current(sessions, None))
}

/// tmux's after hooks (`after-set-option`, `after-new-session`...): run after the command
/// succeeds, for its client (what they print is the client's), at the command's target or
/// the current one.
pub(super) fn after_hook(e: &mut Engine, ctx: &mut Ctx<'_>, command: &str, args: &Args) {
    if e.running_hooks || ctx.config {
        return;
    }
    let name = format!("after-{command}");
    let Some(def) = options::find(&name).filter(|d| d.is_hook()) else {
        return;
    };
    let at = resolve(e, ctx, args, TargetKind::Pane)
        .ok()
        .or_else(|| target::current(&e.sessions, ctx.calling_pane));
    let Some(at) = at else {
        return;
    };
    let commands = hook_commands(e, def.name, Some(at));
    if commands.is_empty() {
        return;
    }
    let saved = ctx.calling_pane;
    ctx.calling_pane = Some(e.sessions[at.session].windows[at.window].pane.id);
    e.running_hooks = true;
    for text in commands {
        let result = parse_commands(e, &text).and_then(|cmds| run_commands(e, ctx, &cmds));
        if let Err(err) = result {
            if !err.is_empty() {
                ctx.error(&err);
            }
            ctx.exit_code = Some(1);
        }
    }
    e.running_hooks = false;
    ctx.calling_pane = saved;
}
