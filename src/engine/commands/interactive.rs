//! The tmux 3.3a commands zeropty does not have: the interactive modes, menus and prompts,
//! the message log, locking and suspending clients, windows linked into several sessions, and
//! access for other users. Each is in the command table with tmux's flags, argument counts and
//! usage, so that command lines, configuration files and key bindings naming them parse as
//! tmux parses them (`bind-key s choose-tree -Zs` binds; `choose-tree -Q` is a usage error),
//! `list-commands` lists what tmux lists, and running one fails with a message saying why it
//! is not there, instead of `unknown command`.
//!
//! The prompt history is here too: with no prompts it stays empty, so `show-prompt-history`
//! prints tmux's empty history and `clear-prompt-history` has nothing to clear (tmux's
//! `history-file` is not read).

use crate::engine::cmdline::Args;
use crate::engine::{Ctx, Engine};

/// Why each group of commands is missing.
const MODES: &str = "no interactive modes, menus or prompts";
const MESSAGES: &str = "no message log";
const LOCKS: &str = "clients are never locked or suspended";
const LINKS: &str = "a window is in one session at a time";
const ACCESS: &str = "only the server's own user may connect";

macro_rules! unsupported {
    ($name:expr, $alias:expr, $flags:expr, $min:expr, $max:expr, $usage:expr, $why:expr) => {
        crate::command_def!(
            $name,
            $alias,
            $flags,
            $min,
            $max,
            $usage,
            false,
            |_, _, _| { refuse($name, $why) }
        )
    };
}

pub(super) static COMMANDS: &[super::CommandDef] = &[
    unsupported!("choose-client", None, "F:f:K:NO:rt:Z", 0, Some(1), "[-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] [template]", MODES),
    unsupported!("choose-tree", None, "F:f:GK:NO:rst:wZ", 0, Some(1), "[-GNrswZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] [template]", MODES),
    crate::command_def!("clear-prompt-history", Some("clearphist"), "T:", 0, Some(0), "[-T type]", false, clear_prompt_history),
    unsupported!("clock-mode", None, "t:", 0, Some(0), "[-t target-pane]", MODES),
    unsupported!("command-prompt", None, "1bFkiI:Np:t:T:", 0, Some(1), "[-1bFkiN] [-I inputs] [-p prompts] [-t target-client] [-T type] [template]", MODES),
    unsupported!("confirm-before", Some("confirm"), "bp:t:", 1, Some(1), "[-b] [-p prompt] [-t target-client] command", MODES),
    unsupported!("customize-mode", None, "F:f:Nt:Z", 0, Some(0), "[-NZ] [-F format] [-f filter] [-t target-pane]", MODES),
    unsupported!("display-menu", Some("menu"), "c:t:OT:x:y:", 1, None, "[-O] [-c target-client] [-t target-pane] [-T title] [-x position] [-y position] name key command ...", MODES),
    unsupported!("display-panes", Some("displayp"), "bd:Nt:", 0, Some(1), "[-bN] [-d duration] [-t target-client] [template]", MODES),
    unsupported!("display-popup", Some("popup"), "Bb:Cc:d:e:Eh:s:S:t:T:w:x:y:", 0, None, "[-BCE] [-b border-lines] [-c target-client] [-d start-directory] [-e environment] [-h height] [-s style] [-S border-style] [-t target-pane][-T title] [-w width] [-x position] [-y position] [shell-command]", MODES),
    unsupported!("find-window", Some("findw"), "CiNrt:TZ", 1, Some(1), "[-CiNrTZ] [-t target-pane] match-string", MODES),
    unsupported!("link-window", Some("linkw"), "abdks:t:", 0, Some(0), "[-abdk] [-s src-window] [-t dst-window]", LINKS),
    unsupported!("lock-client", Some("lockc"), "t:", 0, Some(0), "[-t target-client]", LOCKS),
    unsupported!("lock-server", Some("lock"), "", 0, Some(0), "", LOCKS),
    unsupported!("lock-session", Some("locks"), "t:", 0, Some(0), "[-t target-session]", LOCKS),
    unsupported!("server-access", None, "adlrw", 0, Some(1), "[-adlrw] [-t target-pane] [user]", ACCESS),
    unsupported!("show-messages", Some("showmsgs"), "JTt:", 0, Some(0), "[-JT] [-t target-client]", MESSAGES),
    crate::command_def!("show-prompt-history", Some("showphist"), "T:", 0, Some(0), "[-T type]", false, show_prompt_history),
    unsupported!("suspend-client", Some("suspendc"), "t:", 0, Some(0), "[-t target-client]", LOCKS),
];

fn refuse(name: &str, why: &str) -> Result<(), String> {
    Err(format!("zeropty: {why}; {name} is not supported"))
}

/// tmux's prompt types, in its order (status.c).
const PROMPT_TYPES: &[&str] = &["command", "search", "target", "window-target"];

/// The prompt types `-T` names: all of them without it.
fn prompt_types(args: &Args) -> Result<&'static [&'static str], String> {
    match args.get('T') {
        None => Ok(PROMPT_TYPES),
        Some(t) => PROMPT_TYPES
            .iter()
            .position(|p| *p == t)
            .map(|i| &PROMPT_TYPES[i..=i])
            .ok_or_else(|| format!("invalid type: {t}")),
    }
}

fn show_prompt_history(_: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    for t in prompt_types(args)? {
        ctx.print(&format!("History for {t}:\n"));
        ctx.print("");
    }
    Ok(())
}

fn clear_prompt_history(_: &mut Engine, _: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    prompt_types(args).map(|_| ())
}
