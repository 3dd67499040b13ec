//! The tmux 3.3a commands zeropty does not have: the interactive modes and menus, locking
//! and suspending clients, windows linked into several sessions, and access for other users. Each is in the command table with tmux's flags, argument counts and
//! usage, so that command lines, configuration files and key bindings naming them parse as
//! tmux parses them (`bind-key C-c choose-client` binds; `choose-client -Q` is a usage error),
//! `list-commands` lists what tmux lists, and running one fails with a message saying why it
//! is not there, instead of `unknown command`. What tmux finds before running one (its
//! client, its target) is found first, so a script sees tmux's `no current client` where
//! tmux would fail the same way; locking with no client attached has nothing to do and
//! succeeds, as in tmux.

use crate::engine::cmdline::Args;
use crate::engine::target::{self, Kind};
use crate::engine::{Ctx, Engine};

/// Why each group of commands is missing.
const MODES: &str = "no interactive modes or menus";
const LOCKS: &str = "clients are never locked or suspended";
const LINKS: &str = "a window is in one session at a time";
const ACCESS: &str = "only the server's own user may connect";

/// What tmux finds before it runs a command, so that its errors (`no current client`,
/// `can't find pane: %9`) come first, as in tmux: a client by a flag, a target by `-t`.
#[derive(Clone, Copy)]
struct Finds {
    client: Option<char>,
    target: Option<Kind>,
}

const NOTHING: Finds = Finds {
    client: None,
    target: None,
};
const PANE: Finds = Finds {
    client: None,
    target: Some(Kind::Pane),
};
const CLIENT: Finds = Finds {
    client: Some('t'),
    target: None,
};
/// display-menu and display-popup: the client by `-c`, the pane by `-t`.
const CLIENT_AND_PANE: Finds = Finds {
    client: Some('c'),
    target: Some(Kind::Pane),
};

macro_rules! unsupported {
    ($name:expr, $alias:expr, $flags:expr, $min:expr, $max:expr, $usage:expr, $why:expr, $finds:expr) => {
        crate::command_def!(
            $name,
            $alias,
            $flags,
            $min,
            $max,
            $usage,
            false,
            |e, ctx, args| {
                find_first(e, ctx, args, $finds)?;
                refuse($name, $why)
            }
        )
    };
}

pub(super) static COMMANDS: &[super::CommandDef] = &[
    unsupported!("choose-client", None, "F:f:K:NO:rt:Z", 0, Some(1), "[-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] [template]", MODES, PANE),
    unsupported!("customize-mode", None, "F:f:Nt:Z", 0, Some(0), "[-NZ] [-F format] [-f filter] [-t target-pane]", MODES, PANE),
    unsupported!("display-menu", Some("menu"), "c:t:OT:x:y:", 1, None, "[-O] [-c target-client] [-t target-pane] [-T title] [-x position] [-y position] name key command ...", MODES, CLIENT_AND_PANE),
    unsupported!("display-panes", Some("displayp"), "bd:Nt:", 0, Some(1), "[-bN] [-d duration] [-t target-client] [template]", MODES, CLIENT),
    unsupported!("display-popup", Some("popup"), "Bb:Cc:d:e:Eh:s:S:t:T:w:x:y:", 0, None, "[-BCE] [-b border-lines] [-c target-client] [-d start-directory] [-e environment] [-h height] [-s style] [-S border-style] [-t target-pane][-T title] [-w width] [-x position] [-y position] [shell-command]", MODES, CLIENT_AND_PANE),
    unsupported!("find-window", Some("findw"), "CiNrt:TZ", 1, Some(1), "[-CiNrTZ] [-t target-pane] match-string", MODES, PANE),
    crate::command_def!("link-window", Some("linkw"), "abdks:t:", 0, Some(0), "[-abdk] [-s src-window] [-t dst-window]", false, link_window),
    unsupported!("lock-client", Some("lockc"), "t:", 0, Some(0), "[-t target-client]", LOCKS, CLIENT),
    crate::command_def!("lock-server", Some("lock"), "", 0, Some(0), "", false, lock_server),
    crate::command_def!("lock-session", Some("locks"), "t:", 0, Some(0), "[-t target-session]", false, lock_session),
    unsupported!("server-access", None, "adlrw", 0, Some(1), "[-adlrw] [-t target-pane] [user]", ACCESS, NOTHING),
    unsupported!("suspend-client", Some("suspendc"), "t:", 0, Some(0), "[-t target-client]", LOCKS, CLIENT),
];

fn find_first(e: &Engine, ctx: &Ctx<'_>, args: &Args, finds: Finds) -> Result<(), String> {
    if let Some(flag) = finds.client {
        e.find_client(ctx, args.get(flag))?;
    }
    if let Some(kind) = finds.target {
        target::resolve(&e.sessions, args.get('t'), kind, ctx.calling_pane)?;
    }
    Ok(())
}

fn refuse(name: &str, why: &str) -> Result<(), String> {
    Err(format!("zeropty: {why}; {name} is not supported"))
}

/// link-window finds its source window and target index as tmux does, then is refused.
fn link_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    target::resolve(&e.sessions, args.get('s'), Kind::Window, ctx.calling_pane)?;
    target::resolve_index(&e.sessions, args.get('t'), ctx.calling_pane)?;
    refuse("link-window", LINKS)
}

/// lock-server locks every client: with none attached there is nothing to do, as in tmux.
fn lock_server(e: &mut Engine, _: &mut Ctx<'_>, _: &Args) -> Result<(), String> {
    if e.clients.is_empty() {
        return Ok(());
    }
    refuse("lock-server", LOCKS)
}

/// lock-session locks the session's clients: with none attached there is nothing to do.
fn lock_session(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = target::resolve(&e.sessions, args.get('t'), Kind::Session, ctx.calling_pane)?;
    if e.sessions[f.session].attached == 0 {
        return Ok(());
    }
    refuse("lock-session", LOCKS)
}
