//! Prompt commands: command-prompt, confirm-before, show-prompt-history and
//! clear-prompt-history, as tmux 3.3a's.
//!
//! A prompt is asked on a client's status line (`engine/client_prompt.rs` reads its keys);
//! its answers go into a command template that runs as the client. A script's request that
//! asks waits for the prompt to end, as tmux's client does (unless `-b`, or `-i` for
//! command-prompt), and the commands the answer runs are then that request's, so their
//! output and errors reach the script; a key binding's prompt never waits.

use super::words;
use crate::engine::cmdline::Args;
use crate::engine::jobs::CONFIG_CLIENT;
use crate::engine::prompt::{Editor, Entry, Prompt, PromptAction, PromptType};
use crate::engine::{Ctx, Engine};

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!(
        "clear-prompt-history",
        Some("clearphist"),
        "T:",
        0,
        Some(0),
        "[-T type]",
        false,
        clear_prompt_history
    ),
    crate::command_def!(
        "command-prompt",
        None,
        "1bFkiI:Np:t:T:",
        0,
        Some(1),
        "[-1bFkiN] [-I inputs] [-p prompts] [-t target-client] [-T type] [template]",
        false,
        command_prompt
    ),
    crate::command_def!(
        "confirm-before",
        Some("confirm"),
        "bp:t:",
        1,
        Some(1),
        "[-b] [-p prompt] [-t target-client] command",
        false,
        confirm_before
    ),
    crate::command_def!(
        "show-prompt-history",
        Some("showphist"),
        "T:",
        0,
        Some(0),
        "[-T type]",
        false,
        show_prompt_history
    ),
];

/// command-prompt: asks each of `-p`'s prompts in turn (`:` alone without a template, else
/// `(NAME)` after the template's first word), each starting with `-I`'s input, both
/// expanded as formats; the answers go into the template (`%1` by default) as `%1`, `%2`,
/// ... or each `%%` in turn, and it runs as the client. Nothing happens while the client
/// already shows a prompt, as in tmux.
fn command_prompt(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let conn = e.find_client(ctx, args.get('t'))?;
    if e.clients.get(conn).is_some_and(|c| c.prompt.is_some()) {
        return Ok(());
    }
    let mut template = words(args).pop().unwrap_or_else(|| "%1".into());
    if args.has('F') {
        template = e.expand_for_client(conn, &template);
    }
    let prompts: Vec<String> = match args.get('p') {
        Some(p) => p.split(',').map(|p| format!("{p} ")).collect(),
        None if args.positional().is_empty() => vec![":".into()],
        None => {
            let first = template.split([' ', ',']).next().unwrap_or("");
            vec![format!("({first}) ")]
        }
    };
    let mut inputs = args.get('I').map(|i| i.split(',')).into_iter().flatten();
    let prompts: Vec<(String, String)> = prompts
        .into_iter()
        .map(|p| (p, inputs.next().unwrap_or("").to_string()))
        .collect();
    let kind = match args.get('T') {
        Some(t) => PromptType::from_name(t).ok_or_else(|| format!("unknown type: {t}"))?,
        None => PromptType::Command,
    };
    let entry = if args.has('1') {
        Entry::Single
    } else if args.has('N') {
        Entry::Numeric
    } else if args.has('i') {
        Entry::Incremental
    } else if args.has('k') {
        Entry::KeyName
    } else {
        Entry::Line
    };
    let waits = !args.has('b') && entry != Entry::Incremental;
    let waiter = request_waiter(e, ctx, waits);
    let (text, input) = &prompts[0];
    let prompt = Prompt {
        text: e.expand_for_client(conn, text),
        entry,
        kind,
        editor: Editor::new(&e.expand_for_client(conn, input), entry),
        action: PromptAction::Command {
            template,
            prompts,
            answers: Vec::new(),
            waiter,
        },
    };
    e.set_prompt(conn, prompt);
    ctx.suspended = waiter.is_some();
    Ok(())
}

/// The request that waits for a prompt to end: a script's, unless told not to wait; an
/// attached client's requests are key bindings', which do not wait.
fn request_waiter(e: &Engine, ctx: &Ctx<'_>, waits: bool) -> Option<u64> {
    ctx.waiter()
        .filter(|&w| waits && !e.clients.is_attached(w) && w != CONFIG_CLIENT)
}

/// confirm-before: asks on a client's status line whether to run a command, as tmux does
/// (`Confirm 'NAME'? (y/n)`, or `-p`'s prompt expanded as a format); `y` runs it as that
/// client. The request waits for the answer (unless `-b`, or when it is a key binding's)
/// and exits 1 when the answer declines.
fn confirm_before(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let conn = e.find_client(ctx, args.get('t'))?;
    let commands = words(args).remove(0);
    let parsed = super::options::command_lines(e, &commands)?;
    let prompt = match args.get('p') {
        Some(p) => format!("{p} "),
        None => {
            let first = parsed.first().and_then(|argv| argv.first());
            let name = first
                .and_then(|n| super::find(n).ok())
                .map_or("", |d| d.name);
            format!("Confirm '{name}'? (y/n) ")
        }
    };
    let text = e.expand_for_client(conn, &prompt);
    let waiter = request_waiter(e, ctx, !args.has('b'));
    let prompt = Prompt {
        text,
        entry: Entry::Single,
        kind: PromptType::Command,
        editor: Editor::new("", Entry::Single),
        action: PromptAction::Confirm { commands, waiter },
    };
    e.set_prompt(conn, prompt);
    ctx.suspended = waiter.is_some();
    Ok(())
}

/// The prompt types `-T` names: all of them without it.
fn prompt_types(args: &Args) -> Result<Vec<PromptType>, String> {
    match args.get('T') {
        None => Ok(PromptType::ALL.to_vec()),
        Some(t) => PromptType::from_name(t)
            .map(|t| vec![t])
            .ok_or_else(|| format!("invalid type: {t}")),
    }
}

/// show-prompt-history: each type's answers, oldest first and numbered, as tmux prints them.
fn show_prompt_history(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    for t in prompt_types(args)? {
        ctx.print(&format!("History for {}:\n", t.name()));
        for (i, line) in e.prompt_history.list(t).iter().enumerate() {
            ctx.print(&format!("{}: {line}", i + 1));
        }
        ctx.print("");
    }
    Ok(())
}

fn clear_prompt_history(e: &mut Engine, _: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let types = prompt_types(args)?;
    let only = (types.len() == 1).then(|| types[0]);
    e.prompt_history.clear(only);
    Ok(())
}
