//! Environment commands: set-environment (setenv) and show-environment (showenv), over the
//! global environment and each session's, as tmux 3.3a has them.
//!
//! A variable may have a value, or be cleared (`-r`: it has no value and removes the
//! variable from programs' environments), and may be hidden (`-h`: kept for the server, never
//! given to programs, shown only by `show-environment -h`). The global environment keeps
//! valued variables in `Engine::environ` and the cleared and hidden names beside it; a
//! session keeps `None` for a cleared variable and its hidden names beside its environment.
//!
//! A new session's environment starts from the client's: each `update-environment` pattern
//! copies the first matching variable the client has, or clears the pattern's name when it
//! has none; `new-session -e` adds to it.

use super::{expand, resolve, words};
use crate::engine::cmdline::Args;
use crate::engine::options::Value;
use crate::engine::target::{self, Kind};
use crate::engine::{Ctx, Engine};
use std::collections::BTreeMap;
use std::rc::Rc;

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!(
        "set-environment",
        Some("setenv"),
        "Fhgrt:u",
        1,
        Some(2),
        "[-Fhgru] [-t target-session] name [value]",
        false,
        set_environment
    ),
    crate::command_def!(
        "show-environment",
        Some("showenv"),
        "hgst:",
        0,
        Some(1),
        "[-hgs] [-t target-session] [name]",
        false,
        show_environment
    ),
];

/// One variable as show-environment sees it.
struct Entry {
    name: String,
    value: Option<String>,
    hidden: bool,
}

fn set_environment(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let pos = words(args);
    let name = pos[0].clone();
    if name.is_empty() {
        return Err("empty variable name".into());
    }
    if name.contains('=') {
        return Err("variable name contains =".into());
    }
    let found = resolve(e, ctx, args, Kind::Session).ok();
    let mut value = pos.get(1).cloned();
    if args.has('F') {
        value = value.map(|v| expand(e, &v, found));
    }
    let session = if args.has('g') {
        None
    } else {
        match found {
            Some(f) => Some(f.session),
            None => return Err(missing_session(args)),
        }
    };
    if args.has('u') {
        if value.is_some() {
            return Err("can't specify a value with -u".into());
        }
        match session {
            None => {
                e.environ.remove(&name);
                e.environ_cleared.remove(&name);
                e.environ_hidden.remove(&name);
            }
            Some(si) => {
                let s = &mut e.sessions[si];
                Rc::make_mut(&mut s.environ).remove(&name);
                s.environ_hidden.remove(&name);
            }
        }
    } else if args.has('r') {
        if value.is_some() {
            return Err("can't specify a value with -r".into());
        }
        // A cleared variable keeps whether it is hidden, as tmux's does.
        match session {
            None => {
                e.environ.remove(&name);
                e.environ_cleared.insert(name);
            }
            Some(si) => {
                Rc::make_mut(&mut e.sessions[si].environ).insert(name, None);
            }
        }
    } else {
        let Some(value) = value else {
            return Err("no value specified".into());
        };
        let hidden = args.has('h');
        match session {
            None => {
                e.environ_cleared.remove(&name);
                set_flag(&mut e.environ_hidden, &name, hidden);
                e.environ.insert(name, value);
            }
            Some(si) => {
                let s = &mut e.sessions[si];
                set_flag(&mut s.environ_hidden, &name, hidden);
                Rc::make_mut(&mut s.environ).insert(name, Some(value));
            }
        }
    }
    Ok(())
}

fn set_flag(set: &mut std::collections::BTreeSet<String>, name: &str, on: bool) {
    if on {
        set.insert(name.to_string());
    } else {
        set.remove(name);
    }
}

fn missing_session(args: &Args) -> String {
    match args.get('t') {
        Some(t) => format!("no such session: {t}"),
        None => "no current session".into(),
    }
}

fn show_environment(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let found = resolve(e, ctx, args, Kind::Session).ok();
    if let (Some(t), None) = (args.get('t'), found) {
        return Err(format!("no such session: {t}"));
    }
    let entries = if args.has('g') {
        global_entries(e)
    } else {
        match found {
            Some(f) => session_entries(e, f.session),
            None => return Err(missing_session(args)),
        }
    };
    match words(args).first() {
        Some(name) => {
            let entry = entries
                .iter()
                .find(|v| &v.name == name)
                .ok_or_else(|| format!("unknown variable: {name}"))?;
            print_entry(ctx, args, entry);
        }
        None => {
            for entry in &entries {
                print_entry(ctx, args, entry);
            }
        }
    }
    Ok(())
}

fn global_entries(e: &Engine) -> Vec<Entry> {
    let mut all: BTreeMap<&str, Option<&str>> = e
        .environ
        .iter()
        .map(|(k, v)| (k.as_str(), Some(v.as_str())))
        .collect();
    for k in &e.environ_cleared {
        all.insert(k, None);
    }
    all.into_iter()
        .map(|(k, v)| Entry {
            name: k.to_string(),
            value: v.map(str::to_string),
            hidden: e.environ_hidden.contains(k),
        })
        .collect()
}

fn session_entries(e: &Engine, si: usize) -> Vec<Entry> {
    let s = &e.sessions[si];
    s.environ
        .iter()
        .map(|(k, v)| Entry {
            name: k.clone(),
            value: v.clone(),
            hidden: s.environ_hidden.contains(k),
        })
        .collect()
}

/// tmux's `cmd_show_environment_print`: hidden variables only with `-h` (and only they);
/// `NAME=value` or `-NAME`, or with `-s` shell commands (`$`, `` ` ``, `"` and `\` escaped).
fn print_entry(ctx: &mut Ctx<'_>, args: &Args, v: &Entry) {
    if v.hidden != args.has('h') {
        return;
    }
    let line = match (&v.value, args.has('s')) {
        (Some(value), false) => format!("{}={value}", v.name),
        (None, false) => format!("-{}", v.name),
        (Some(value), true) => {
            let mut escaped = String::new();
            for c in value.chars() {
                if matches!(c, '$' | '`' | '"' | '\\') {
                    escaped.push('\\');
                }
                escaped.push(c);
            }
            format!("{}=\"{escaped}\"; export {};", v.name, v.name)
        }
        (None, true) => format!("unset {};", v.name),
    };
    ctx.print(&line);
}

/// A new session's environment (tmux's `environ_update` with the client's environment,
/// then `-e`): `update_from_client` is false for `new-session -E`.
pub fn new_session_environ(
    e: &Engine,
    client_env: &BTreeMap<String, String>,
    extra: &[(String, String)],
    update_from_client: bool,
) -> Rc<BTreeMap<String, Option<String>>> {
    let env = session_environ(e, client_env, extra, update_from_client);
    match e.sessions.last() {
        Some(s) if *s.environ == env => s.environ.clone(),
        _ => Rc::new(env),
    }
}

fn session_environ(
    e: &Engine,
    client_env: &BTreeMap<String, String>,
    extra: &[(String, String)],
    update_from_client: bool,
) -> BTreeMap<String, Option<String>> {
    let mut env = BTreeMap::new();
    if update_from_client {
        let patterns: Vec<String> = match e.options.session.get("update-environment") {
            Some(Value::Array(items)) => items.values().cloned().collect(),
            _ => Vec::new(),
        };
        for pattern in patterns {
            match client_env.iter().find(|(k, _)| target::glob(&pattern, k)) {
                Some((k, v)) => env.insert(k.clone(), Some(v.clone())),
                None => env.insert(pattern, None),
            };
        }
    }
    for (k, v) in extra {
        env.insert(k.clone(), Some(v.clone()));
    }
    env
}

/// The environment of a shell command the server runs for a session (`run-shell`,
/// `if-shell`; tmux's `environ_for_session`): the global environment, the session's changes,
/// `TERM` (except while the configuration file loads), and zeropty's own variable.
pub fn job_environment(e: &Engine, session: Option<usize>, config: bool) -> Vec<(String, String)> {
    let mut env: BTreeMap<String, Option<String>> = BTreeMap::new();
    for (k, v) in &e.environ {
        env.insert(
            k.clone(),
            Some(v.clone()).filter(|_| !e.environ_hidden.contains(k)),
        );
    }
    let s = session.map(|si| &e.sessions[si]);
    if let Some(s) = s {
        for (k, v) in s.environ.iter() {
            env.insert(
                k.clone(),
                v.clone().filter(|_| !s.environ_hidden.contains(k)),
            );
        }
    }
    if !config {
        env.insert("TERM".into(), Some(e.options.string("default-terminal")));
    }
    // As for panes: programs see ZEROPTY, and TMUX from the server's start is not passed on.
    env.remove("TMUX");
    env.remove("TMUX_PANE");
    let id = s.map_or(-1, |s| s.id as i64);
    env.insert(
        "ZEROPTY".into(),
        Some(format!("{},{},{id}", e.socket_path, e.server_pid)),
    );
    env.into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect()
}

/// A `NAME=value` or `%hidden NAME=value` line of command text: a global variable.
pub(super) fn assign(e: &mut Engine, a: &crate::engine::cmdline::Assignment) {
    e.environ_cleared.remove(&a.name);
    set_flag(&mut e.environ_hidden, &a.name, a.hidden);
    e.environ.insert(a.name.clone(), a.value.clone());
}
