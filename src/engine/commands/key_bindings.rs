//! bind-key, unbind-key and list-keys, as tmux 3.3a's (the tables are in
//! `engine/key_bindings.rs`; what a key press runs is in `engine/attach.rs`).

use super::options::{parse_commands, printed_commands};
use super::words;
use crate::command_def;
use crate::engine::attach::StatusMessage;
use crate::engine::cmdline::{split_argv, Arg, Args, Command};
use crate::engine::key_bindings::{Binding, Tables};
use crate::engine::keys::{parse_key, Key};
use crate::engine::options::escape;
use crate::engine::{Ctx, Engine};

pub static COMMANDS: &[super::CommandDef] = &[
    command_def!(
        "bind-key",
        Some("bind"),
        "nrN:T:",
        1,
        None,
        "[-nr] [-T key-table] [-N note] key [command [arguments]]",
        false,
        bind_key
    ),
    command_def!(
        "list-keys",
        Some("lsk"),
        "1aNP:T:",
        0,
        Some(1),
        "[-1aN] [-P prefix-string] [-T key-table] [key]",
        true,
        list_keys
    ),
    command_def!(
        "unbind-key",
        Some("unbind"),
        "anqT:",
        0,
        Some(1),
        "[-anq] [-T key-table] key",
        false,
        unbind_key
    ),
];

/// The table a command names: `-T`, else `root` with `-n`, else `prefix`.
fn table_name(args: &Args) -> &str {
    args.get('T')
        .unwrap_or(if args.has('n') { "root" } else { "prefix" })
}

fn bind_key(e: &mut Engine, _: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let pos = words(args);
    let key = parse_key(&pos[0]).ok_or_else(|| format!("unknown key: {}", pos[0]))?;
    let commands = match &pos[1..] {
        [] => None,
        // One argument is command text (a `{ }` block arrives as its text).
        [text] => Some(printed_commands(e, &parse_commands(e, text)?)?),
        // More are a command line, split at `;` as tmux splits arguments.
        argv => {
            let cmds: Vec<Command> = split_argv(argv)
                .into_iter()
                .map(|argv| Command {
                    argv: argv.into_iter().map(Arg::String).collect(),
                    line: 0,
                })
                .collect();
            Some(printed_commands(e, &cmds)?)
        }
    };
    let note = args.get('N').map(str::to_string);
    e.key_tables
        .bind(table_name(args), key, note, args.has('r'), commands);
    Ok(())
}

fn unbind_key(e: &mut Engine, _: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    // tmux stops the command list on a quiet failure but exits 0: zeropty goes on.
    let quiet = args.has('q');
    let fail = |message: String| if quiet { Ok(()) } else { Err(message) };
    let key = words(args).into_iter().next();
    let table = table_name(args);
    if args.has('a') {
        if key.is_some() {
            return fail("key given with -a".into());
        }
        if !e.key_tables.has_table(table) {
            return fail(format!("table {table} doesn't exist"));
        }
        e.key_tables.remove_table(table);
        e.key_table_removed(table);
        return Ok(());
    }
    let Some(name) = key else {
        return fail("missing key".into());
    };
    let Some(key) = parse_key(&name) else {
        return fail(format!("unknown key: {name}"));
    };
    if args.has('T') && !e.key_tables.has_table(table) {
        return fail(format!("table {table} doesn't exist"));
    }
    e.key_tables.unbind(table, key);
    if !e.key_tables.has_table(table) {
        e.key_table_removed(table);
    }
    Ok(())
}

fn list_keys(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let key_arg = words(args).into_iter().next();
    let only = match &key_arg {
        Some(name) => Some(
            parse_key(name)
                .ok_or_else(|| format!("invalid key: {name}"))?
                .without_flags(),
        ),
        None => None,
    };
    let table = args.get('T');
    if let Some(t) = table.filter(|t| !e.key_tables.has_table(t)) {
        return Err(format!("table {t} doesn't exist"));
    }
    let tables = e.key_tables.tables();
    let found = if args.has('N') {
        let prefix = e
            .options
            .get("prefix")
            .and_then(parse_key)
            .map(Key::without_flags);
        let mut lines = Vec::new();
        let found = list_notes(&mut lines, args, &tables, table, only, prefix);
        drop(tables);
        // As tmux's, a single note (-1) shows on the current client's status line, if any.
        match e.find_client(ctx, None).ok().filter(|_| args.has('1')) {
            Some(conn) => lines
                .into_iter()
                .for_each(|line| e.show_message(conn, StatusMessage::error(line))),
            None => lines.iter().for_each(|line| ctx.print(line)),
        }
        found
    } else {
        list_bindings(ctx, &tables, table, only)
    };
    match key_arg {
        Some(name) if !found => Err(format!("unknown key: {name}")),
        _ => Ok(()),
    }
}

/// `bind-key` lines, aligned as tmux aligns them; whether any was printed.
fn list_bindings(
    ctx: &mut Ctx<'_>,
    tables: &Tables,
    table: Option<&str>,
    only: Option<Key>,
) -> bool {
    let shown: Vec<(&str, Key, &Binding)> = tables
        .iter()
        .filter(|(name, _)| table.is_none_or(|t| t == name.as_str()))
        .flat_map(|(name, t)| t.bindings.iter().map(move |(k, b)| (name.as_str(), *k, b)))
        .filter(|(_, k, _)| only.is_none_or(|o| o == *k))
        .collect();
    let key_names: Vec<String> = shown.iter().map(|(_, k, _)| escape(&k.name())).collect();
    let table_width = shown.iter().map(|(t, _, _)| width(t)).max().unwrap_or(0);
    let key_width = key_names.iter().map(|k| width(k)).max().unwrap_or(0);
    let any_repeat = shown.iter().any(|(_, _, b)| b.repeat);
    for ((table, _, binding), key) in shown.iter().zip(&key_names) {
        let repeat = match (any_repeat, binding.repeat) {
            (false, _) => "",
            (true, true) => "-r ",
            (true, false) => "   ",
        };
        ctx.print(&format!(
            "bind-key {repeat}-T {} {} {}",
            pad(table, table_width),
            pad(key, key_width),
            binding.listed()
        ));
    }
    !shown.is_empty()
}

/// `list-keys -N`: each key with its note (its commands with `-a`), the root table's then
/// the prefix table's behind the prefix key when no table is named, as lines into `out`;
/// whether any was found.
fn list_notes(
    out: &mut Vec<String>,
    args: &Args,
    tables: &Tables,
    table: Option<&str>,
    only: Option<Key>,
    prefix: Option<Key>,
) -> bool {
    let notes = |name: &str| -> Vec<(String, String)> {
        let Some(t) = tables.get(name) else {
            return Vec::new();
        };
        t.bindings
            .iter()
            .filter(|(k, b)| {
                only.is_none_or(|o| o == **k)
                    && !k.is_mouse()
                    && (b.note.as_deref().is_some_and(|n| !n.is_empty()) || args.has('a'))
            })
            .map(|(k, b)| {
                let note = b.note.as_deref().filter(|n| !n.is_empty());
                (k.name(), note.unwrap_or(b.listed()).to_string())
            })
            .collect()
    };
    // Widths count noted keys only, as tmux's do, even with -a.
    let noted_width = |name: &str| -> usize {
        tables.get(name).map_or(0, |t| {
            t.bindings
                .iter()
                .filter(|(k, b)| {
                    only.is_none_or(|o| o == **k)
                        && !k.is_mouse()
                        && b.note.as_deref().is_some_and(|n| !n.is_empty())
                })
                .map(|(k, _)| width(&k.name()))
                .max()
                .unwrap_or(0)
        })
    };
    let mut print = |lines: Vec<(String, String)>, start: &str, key_width: usize| -> bool {
        let found = !lines.is_empty();
        let take = if args.has('1') { 1 } else { lines.len() };
        for (key, note) in lines.into_iter().take(take) {
            out.push(format!("{start}{}{note}", pad(&key, key_width + 1)));
        }
        found
    };
    let given_prefix = args.get('P').map(str::to_string);
    let Some(table) = table else {
        let start =
            given_prefix.unwrap_or_else(|| prefix.map_or(String::new(), |p| p.name() + " "));
        let mut key_width = noted_width("root");
        let prefix_width = prefix.map_or(0, |_| noted_width("prefix"));
        key_width = key_width.max(prefix_width);
        let mut found = print(notes("root"), &pad("", width(&start)), key_width);
        if prefix.is_some() && prefix_width > 0 {
            found |= print(notes("prefix"), &start, key_width);
        }
        return found;
    };
    let start = given_prefix.unwrap_or_default();
    print(notes(table), &start, noted_width(table))
}

fn width(s: &str) -> usize {
    crate::engine::attach::text_width(s) as usize
}

/// `s` padded with spaces to `cells` wide (`utf8_padcstr`).
fn pad(s: &str, cells: usize) -> String {
    format!("{s}{}", " ".repeat(cells.saturating_sub(width(s))))
}
