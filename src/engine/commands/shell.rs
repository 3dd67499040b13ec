//! Commands that run shell commands: run-shell (run), if-shell (if), respawn-pane (respawnp)
//! and respawn-window (respawnw), as tmux 3.3a has them.
//!
//! As in tmux, a shell command runs as a job and the client is answered when it ends (see
//! `jobs.rs`): the server serves everyone meanwhile, the job's own requests included, and a
//! `-d` delay is the job's first step. `run-shell -b` starts the job and leaves it. Where
//! tmux shows a job's output (a pane's view mode) nothing is shown here; the exit status of
//! `run-shell` becomes the client's, as in tmux.

use super::environment::job_environment;
use super::options::{parse_commands, run_commands, run_detached};
use super::{absolute, expand, resolve, stringify_argv, words};
use crate::engine::cmdline::Args;
use crate::engine::jobs::JobEnd;
use crate::engine::os::SpawnRequest;
use crate::engine::pane::{NewPane, Pane};
use crate::engine::target::{Found, Kind};
use crate::engine::tty::Termios;
use crate::engine::{Ctx, Engine};

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!(
        "if-shell",
        Some("if"),
        "bFt:",
        2,
        Some(3),
        "[-bF] [-t target-pane] shell-command command [command]",
        false,
        if_shell
    ),
    crate::command_def!(
        "respawn-pane",
        Some("respawnp"),
        "c:e:kt:",
        0,
        None,
        "[-k] [-c start-directory] [-e environment] [-t target-pane] [shell-command]",
        false,
        respawn_pane
    ),
    crate::command_def!(
        "respawn-window",
        Some("respawnw"),
        "c:e:kt:",
        0,
        None,
        "[-k] [-c start-directory] [-e environment] [-t target-window] [shell-command]",
        false,
        respawn_window
    ),
    crate::command_def!(
        "run-shell",
        Some("run"),
        "bd:Ct:",
        0,
        Some(1),
        "[-bC] [-d delay] [-t target-pane] [shell-command]",
        false,
        run_shell
    ),
];

/// Where a job runs: the client's directory, else the session's, else home (tmux's
/// `server_client_get_cwd`).
fn job_cwd(e: &Engine, ctx: &Ctx<'_>, at: Option<Found>) -> String {
    if !ctx.req.cwd.is_empty() {
        return ctx.req.cwd.clone();
    }
    at.map(|f| e.sessions[f.session].cwd.clone())
        .or_else(|| e.environ.get("HOME").cloned())
        .unwrap_or_else(|| "/".into())
}

/// Starts a shell command as a job. Unless `background`, the request waits for it and goes on
/// as `end` says once it ends; a request nobody can answer later (a hook's) does not wait,
/// as with `-b`. A job nobody waits for that has a branch runs it with no client.
fn start_job(
    e: &mut Engine,
    ctx: &mut Ctx<'_>,
    command: &str,
    at: Option<Found>,
    end: JobEnd,
    background: bool,
) -> Result<(), String> {
    let env = job_environment(e, at.map(|f| f.session), ctx.config);
    let cwd = job_cwd(e, ctx, at);
    let waiter = ctx.waiter().filter(|_| !background);
    if waiter.is_none() && matches!(end, JobEnd::ExitStatus) {
        let _ = e.host.spawn_shell(command, &cwd, &env);
        return Ok(());
    }
    let (io, pid) = e
        .host
        .start_job(command, &cwd, &env)
        .map_err(|_| format!("failed to run command: {command}"))?;
    e.jobs.start(io, pid, waiter, end);
    ctx.suspended = waiter.is_some();
    Ok(())
}

/// `command` after `delay` seconds, as the job's own first step.
fn delayed(command: String, delay: Option<f64>) -> String {
    match delay {
        Some(d) if d > 0.0 => format!("sleep {d}; {command}"),
        _ => command,
    }
}

/// C's `strtod` accepting the whole text (tmux checks nothing is left over).
fn parse_delay(s: &str) -> Option<f64> {
    let t = s.trim_start();
    if t.is_empty() {
        return None;
    }
    t.parse::<f64>().ok().filter(|d| d.is_finite())
}

fn run_shell(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let at = resolve(e, ctx, args, Kind::Pane).ok();
    let delay = match args.get('d') {
        Some(d) => Some(parse_delay(d).ok_or_else(|| format!("invalid delay time: {d}"))?),
        None => None,
    };
    let wait = !args.has('b');
    let Some(command) = words(args).into_iter().next() else {
        // Only a delay: a job that sleeps, which the client waits for.
        return match delay.filter(|d| *d > 0.0 && wait) {
            Some(d) => start_job(e, ctx, &format!("sleep {d}"), at, JobEnd::ExitStatus, false),
            None => Ok(()),
        };
    };
    if args.has('C') {
        // tmux expands the command text as a format before parsing it (if-shell does not).
        let command = expand(e, &command, at);
        if !wait {
            run_detached(e, &command, None);
            return Ok(());
        }
        let cmds = parse_commands(e, &command)?;
        return run_commands(e, ctx, &cmds);
    }
    let command = delayed(expand(e, &command, at), delay);
    start_job(e, ctx, &command, at, JobEnd::ExitStatus, !wait)
}

fn if_shell(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let at = resolve(e, ctx, args, Kind::Pane).ok();
    let pos = words(args);
    let shell_command = expand(e, &pos[0], at);
    if !args.has('F') {
        // The branch the job chooses is parsed when it ends, as tmux parses it. Nobody waits
        // for a -b job: its branch runs with no client, its output goes nowhere.
        let end = JobEnd::Branch {
            then: pos[1].clone(),
            otherwise: pos.get(2).cloned(),
        };
        return start_job(e, ctx, &shell_command, at, end, args.has('b'));
    }
    let branch = if !shell_command.is_empty() && !shell_command.starts_with('0') {
        Some(&pos[1])
    } else {
        pos.get(2)
    };
    let Some(branch) = branch else {
        return Ok(());
    };
    // The branch runs as the client's next commands: -t does not become their target.
    let cmds = parse_commands(e, branch)?;
    run_commands(e, ctx, &cmds)
}

/// Clears the visible screen and resets its modes for a respawned program, keeping the
/// history, as tmux's `screen_reinit` does.
fn reinit_screen(pane: &mut Pane) {
    let term = &mut pane.term;
    let mut reset = Vec::new();
    if term.alternate_on() {
        reset.extend_from_slice(b"\x1b[?1049l");
    }
    reset.extend_from_slice(b"\x1b[0m\x1b[r\x1b[?6l\x1b[3g");
    for x in (8..term.cols()).step_by(8) {
        reset.extend_from_slice(format!("\x1b[1;{}H\x1bH", x + 1).as_bytes());
    }
    for y in 1..=term.rows() {
        reset.extend_from_slice(format!("\x1b[{y};1H\x1b[2K").as_bytes());
    }
    reset.extend_from_slice(
        b"\x1b[H\x1b[?25h\x1b[?7h\x1b[4l\x1b>\x1b[?1l\x1b[?1000l\x1b[?1002l\x1b[?1003l\
          \x1b[?1005l\x1b[?1006l\x1b[?2004l\x1b[?1004l",
    );
    term.feed(&reset);
    let _ = term.take_replies();
}

fn respawn_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    respawn(e, ctx, args, Kind::Pane)
}

/// respawn-window: a window holds one pane, so this respawns it, with tmux's messages for a
/// window.
fn respawn_window(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    respawn(e, ctx, args, Kind::Window)
}

/// Starts the program of the pane `args` targets (as a pane or as its window, `kind`) again,
/// in place of the one it has: only when that one has ended, unless `-k` kills it.
fn respawn(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args, kind: Kind) -> Result<(), String> {
    let what = if kind == Kind::Window {
        "window"
    } else {
        "pane"
    };
    let f = resolve(e, ctx, args, kind)?;
    let (si, wi) = (f.session, f.window);
    let alive = e.sessions[si].windows[wi].pane.io.is_some();
    if alive && !args.has('k') {
        let s = &e.sessions[si];
        let w = &s.windows[wi];
        let active = if kind == Kind::Window {
            format!("window {}:{}", s.name, w.index)
        } else {
            let index = e.options.pane_string(w, "pane-base-index");
            format!("pane {}:{}.{index}", s.name, w.index)
        };
        return Err(format!("respawn {what} failed: {active} still active"));
    }
    let pos = words(args);
    let argv = if pos.is_empty() {
        e.sessions[si].windows[wi].command.clone()
    } else {
        pos
    };
    let cwd = match args.get('c') {
        Some(c) => absolute(&ctx.req.cwd, &expand(e, c, Some(f))),
        None => e.sessions[si].windows[wi].pane.start_cwd.clone(),
    };
    let extra = super::environment_flags(args);
    let client_path = ctx.req.env.get("PATH").cloned();
    let (pane_id, cols, rows, backend) = {
        let p = &e.sessions[si].windows[wi].pane;
        (p.id, p.term.cols(), p.term.rows(), p.backend)
    };
    let session = &e.sessions[si];
    let env = e.pane_environment(session, &extra, client_path.as_deref(), pane_id);
    let termios = Termios::pane_default();
    let req = SpawnRequest {
        argv: argv.clone(),
        shell: e.session_shell(session),
        cwd: cwd.clone(),
        env,
        cols: cols as u16,
        rows: rows as u16,
        termios,
        backend,
    };
    let spawned = e.host.spawn(&req).map_err(|err| {
        format!(
            "respawn {what} failed: fork failed: {}",
            crate::sys::socket::os_error(&err)
        )
    })?;
    let pane = Pane::new(NewPane {
        id: pane_id,
        cols,
        rows,
        history_limit: 0,
        spawned,
        termios,
        start_command: stringify_argv(&argv),
        start_cwd: cwd,
        title: String::new(),
    });
    // The old screen moves to the new pane: bring it back from the cold store first.
    e.read_screen(pane_id);
    let window = &mut e.sessions[si].windows[wi];
    let mut old = std::mem::replace(&mut window.pane, pane);
    reinit_screen(&mut old);
    std::mem::swap(&mut window.pane.term, &mut old.term);
    window.command = argv;
    window.dead_time = None;
    e.hang_up(&mut old);
    e.track(pane_id);
    Ok(())
}

// ---- panes whose program ended ----

/// Collects the exit status of the program of the pane at (`si`, `wi`), whose terminal
/// closed, if the program has been collected. Returns whether the pane must wait for its
/// program's exit to be reported before it dies: a program closes its terminal a moment
/// before it can be collected, and a pane remain-on-exit keeps shows the status (as tmux
/// 3.3a draws a dead pane's line only once the status is ready). The wait never blocks: the
/// host reports the exit as [`crate::engine::os::IoEvent::Exited`].
pub fn collect_status(e: &mut Engine, si: usize, wi: usize) -> bool {
    let w = &e.sessions[si].windows[wi];
    if w.pane.dead_status.is_some() {
        return false;
    }
    let status = e.host.reap(w.pane.pid);
    let w = &mut e.sessions[si].windows[wi];
    w.pane.dead_status = status;
    status.is_none() && !w.pane.dead && e.options.pane_string(w, "remain-on-exit") != "off"
}

/// Whether the dead pane at (`si`, `wi`) stays (remain-on-exit `on`, or `failed` when its
/// program did not exit with 0). The first time, it is marked with tmux's
/// remain-on-exit-format line at the bottom of the screen and its pane-died hook is raised.
pub fn keep_dead_pane(e: &mut Engine, si: usize, wi: usize) -> bool {
    let w = &e.sessions[si].windows[wi];
    // Once kept, a pane stays until killed or respawned, whatever the option becomes.
    if w.dead_time.is_some() {
        return true;
    }
    let remain = e.options.pane_string(w, "remain-on-exit");
    if remain == "off" {
        return false;
    }
    let exited_ok = w
        .pane
        .dead_status
        .is_some_and(|s| s & 0x7f == 0 && (s >> 8) & 0xff == 0);
    if remain == "failed" && exited_ok {
        return false;
    }
    let format = e.options.pane_string(w, "remain-on-exit-format");
    let (session_id, pane_id) = (e.sessions[si].id, w.pane.id);
    e.sessions[si].windows[wi].dead_time = Some(e.host.wall_time());
    if !format.is_empty() {
        let text = expand(
            e,
            &format,
            Some(Found {
                session: si,
                window: wi,
            }),
        );
        draw_dead_line(&mut e.sessions[si].windows[wi].pane, &text);
    }
    e.pending_hooks.push(crate::engine::options::HookEvent {
        name: "pane-died",
        session: Some(session_id),
        pane: Some(pane_id),
    });
    true
}

/// Writes `text` on a new line at the bottom of the screen in the default style, with the
/// cursor hidden (tmux's `server_destroy_pane`).
fn draw_dead_line(pane: &mut Pane, text: &str) {
    let term = &mut pane.term;
    let cols = term.cols() as usize;
    let shown: String = text
        .chars()
        .filter(|c| !c.is_control())
        .take(cols)
        .collect();
    let bytes = format!("\x1b[0m\x1b[r\x1b[{};1H\n{shown}\r\x1b[?25l", term.rows());
    term.feed(bytes.as_bytes());
    let _ = term.take_replies();
}
