//! The engine: sessions, the command table, targets, key names, line discipline and formats.
//! It touches the OS only through traits ([`os::Programs`], [`os::Clock`]), so it is
//! unit-tested with fakes, and it owns no thread: a host (the server's loop, or a program that
//! embeds zeropty) calls [`Engine::run`] for commands, [`Engine::io_event`] for readiness and
//! [`Engine::tick`] when [`Engine::next_deadline`] passes (the server calls it at the end of
//! every turn, once the turn's replies are written: keys that commands queued reach their
//! programs then, and the deadline is now while any wait).
//!
//! Every interface reaches the engine the same way: an argument vector in, a [`Reply`] with an
//! exit code, standard output and standard error out.
//!
//! Invariants: every live pane's terminal is watched for output; a pane whose program ended is
//! removed (or kept dead with remain-on-exit) before the next command sees it; the engine asks
//! to stop ([`Engine::wants_exit`]) only when it has no sessions and exit-empty is on.

pub mod attach;
pub mod buffers;
pub mod client_clock;
pub mod client_copy;
mod client_prompt;
pub mod client_tree;
pub mod clock;
pub mod cmdline;
pub mod cold;
pub mod commands;
pub mod control;
pub mod copy_mode;
pub mod format;
pub mod format_draw;
pub mod freezer;
pub mod jobs;
pub mod key_bindings;
pub mod keys;
pub mod layout;
pub mod ldisc;
pub mod messages;
pub mod mouse;
pub mod numbers;
pub mod options;
pub mod os;
pub mod pane;
pub mod pipe;
pub mod prompt;
pub mod reads;
pub mod session;
mod status_line;
pub mod style;
pub mod target;
pub mod tree_mode;
pub mod tty;
pub mod wait;

#[cfg(test)]
mod command_fuzz;
#[cfg(test)]
mod tests;

use os::{Clock, IoEvent, IoId, Programs, User};
use pane::Pane;
use session::Session;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

/// What the host gives the engine: programs and a clock.
pub trait Host: Programs + Clock {}

impl<T: Programs + Clock> Host for T {}

/// A command request: the arguments and the client's context.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub argv: Vec<String>,
    /// The client's working directory (new sessions start there; relative paths resolve there).
    pub cwd: String,
    /// The client's environment (new sessions take PATH from it, as tmux does). Shared, as
    /// a connection's environment serves each of its requests unchanged.
    pub env: Arc<BTreeMap<String, String>>,
    /// The connection the request came on, for commands that act on their client
    /// (attach-session, detach-client, wait-for); `None` when there is no such client.
    pub client: Option<u64>,
    /// The client's terminal, when it has one: commands that attach need it.
    pub terminal: Option<crate::protocol::ClientTerminal>,
    /// The client's standard input, sent for a command that reads it (`load-buffer -`).
    pub stdin: Option<Arc<[u8]>>,
    /// The client's process, which names a client that is not attached (`client-PID`) in
    /// the message log.
    pub pid: u32,
    /// From a control-mode client (`engine/control.rs`): each command's output and errors are
    /// framed by guard lines with these flags (0 for the command line it started with, 1 for
    /// the lines it sends), and a command that attaches makes it a control client.
    pub control: Option<u8>,
}

/// A command's result: exit code, standard output, standard error.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub code: i32,
    pub out: Vec<u8>,
    pub err: Vec<u8>,
}

/// What one command run is writing, and whom it runs for.
pub struct Ctx<'a> {
    pub req: &'a Request,
    pub out: Vec<u8>,
    pub err: Vec<u8>,
    /// The pane the client runs in (`ZEROPTY_PANE`), which is the default target.
    pub calling_pane: Option<u32>,
    /// Nesting depth of `source-file`.
    pub depth: u32,
    /// Commands running inside other commands (if-shell branches, aliases, sourced files).
    pub nesting: u32,
    /// Running a configuration file at server start: there is no client, so new sessions are
    /// created detached.
    pub config: bool,
    /// Set by a command that must wait (wait-for, a job): the rest of the request runs later.
    pub suspended: bool,
    /// Commands of an inner list (a sourced file, a branch) after the one that waited: they
    /// run after it, before the rest of the request.
    pub deferred: Vec<Vec<String>>,
    /// The exit status a command gives the client (`run-shell`: its job's), unless a later
    /// command fails.
    pub exit_code: Option<i32>,
}

/// Ends a control-mode command's block: its errors (kept apart while it ran) go inside it,
/// then `%end`, or `%error` when it failed.
fn close_guard(ctx: &mut Ctx<'_>, (time, number): (i64, u32), flags: u8, failed: bool) {
    let errors = std::mem::take(&mut ctx.err);
    ctx.out.extend_from_slice(&errors);
    let word = if failed { "error" } else { "end" };
    let end = format!("%{word} {time} {number} {flags}\n");
    ctx.out.extend_from_slice(end.as_bytes());
}

impl<'a> Ctx<'a> {
    /// A context for `req` with nothing written yet and no calling pane.
    pub fn new(req: &'a Request) -> Ctx<'a> {
        Ctx {
            req,
            out: Vec::new(),
            err: Vec::new(),
            calling_pane: None,
            depth: 0,
            nesting: 0,
            config: false,
            suspended: false,
            deferred: Vec::new(),
            exit_code: None,
        }
    }

    /// Whom the request can be answered for later: its client, or the configuration file.
    pub fn waiter(&self) -> Option<u64> {
        self.req
            .client
            .or(self.config.then_some(jobs::CONFIG_CLIENT))
    }
}

impl Ctx<'_> {
    pub fn print(&mut self, line: &str) {
        self.out.extend_from_slice(line.as_bytes());
        self.out.push(b'\n');
    }

    pub fn error(&mut self, line: &str) {
        self.err.extend_from_slice(line.as_bytes());
        self.err.push(b'\n');
    }
}

pub struct Engine {
    pub host: Box<dyn Host>,
    pub sessions: session::Sessions,
    next_session: u32,
    next_window: u32,
    next_pane: u32,
    pub options: options::Options,
    /// The global environment: the server's environment when it started, plus set-environment.
    pub environ: BTreeMap<String, String>,
    /// Global environment variables hidden from programs (`set-environment -gh`).
    pub environ_hidden: BTreeSet<String>,
    /// Global environment variables cleared (`set-environment -gr`): not in `environ`.
    pub environ_cleared: BTreeSet<String>,
    /// Hook events waiting to run (see `commands::run_pending_hooks`).
    pub pending_hooks: Vec<options::HookEvent>,
    /// Hooks are running: the events their commands raise are dropped.
    pub running_hooks: bool,
    /// What the server tells programs in `ZEROPTY` (its socket path).
    pub socket_path: String,
    pub host_name: String,
    /// The command being run, for `#{command}`.
    pub running_command: Option<&'static str>,
    /// Who the server runs as, and so every client.
    pub user: User,
    pub server_pid: u32,
    pub started: i64,
    /// Which pane each terminal belongs to.
    panes_by_io: HashMap<IoId, u32>,
    kill_requested: bool,
    /// Errors from the configuration file, shown to the first client (as tmux shows them).
    pub config_errors: Vec<u8>,
    /// The configuration files the server started with, as named (`#{config_files}`).
    pub config_files: Vec<String>,
    /// Paste buffers (server-wide, as in tmux).
    pub buffers: buffers::Buffers,
    /// Clients attached with a terminal.
    pub clients: attach::Clients,
    /// The commands run and messages shown since the server started (`show-messages`).
    pub messages: messages::MessageLog,
    /// The answers typed at prompts, per prompt type (`show-prompt-history`).
    pub prompt_history: prompt::PromptHistory,
    /// The key whose binding's commands are running, for the message log.
    pub(super) binding_key: Option<keys::Key>,
    /// The mouse event whose binding is running (`send-keys -M`, the `=` target).
    mouse_event: Option<mouse::MouseAt>,
    /// Commands given text on their standard input (`copy-pipe`) that their pipe has not
    /// taken all of yet.
    feeds: Vec<pipe::PanePipe>,
    /// Each pane's last copy-mode search, and whether it was a regular expression
    /// (`#{pane_search_string}`; a new copy mode's `n` repeats it upwards, as tmux's).
    pane_searches: HashMap<u32, (String, bool)>,
    /// What keys typed on clients run.
    pub key_tables: key_bindings::KeyTables,
    /// wait-for channels, and the requests waiting on them.
    pub waits: wait::Waits,
    /// Shell commands requests wait for.
    pub jobs: jobs::Jobs,
    /// Panes with keys queued this turn, flushed by [`Engine::tick`].
    queued_input: Vec<u32>,
    /// Which panes' output waits to be read, and until when.
    reads: reads::Reads,
    /// Which screens are hot and frozen, and since when.
    freezer: freezer::Freezer,
    /// Where cold screens are kept (the host may give it a file outside the heap).
    pub cold: cold::ColdStore,
    /// Panes inside an unterminated string sequence (checked for tmux's string timeout); may
    /// list panes that have left it or are gone.
    in_string: Vec<u32>,
    /// Where each pane was last found (session index, window index): checked before use, so
    /// moves and removals only cost a search when they happen. A pane is found from its
    /// terminal's events, so with thousands of sessions a search per event would dominate.
    pane_places: std::cell::RefCell<HashMap<u32, (usize, usize)>>,
    /// Panes whose programs wrote or ended since the sweeps last looked (see [`pane::Arrivals`]).
    arrivals: pane::Arrivals,
    /// Panes with output their window's automatic name has not been checked against.
    names_due: HashSet<u32>,
    /// A pane has ended since the last reaping.
    reap_wanted: bool,
}

impl Engine {
    pub fn new(
        host: Box<dyn Host>,
        environ: BTreeMap<String, String>,
        socket_path: &str,
        server_pid: u32,
    ) -> Engine {
        let host_name = host.host_name();
        let user = host.user();
        let started = host.wall_time();
        let shell = host.user_shell(environ.get("SHELL").map(String::as_str));
        Engine {
            host,
            sessions: session::Sessions::default(),
            next_session: 0,
            next_window: 0,
            next_pane: 0,
            options: options::Options::new(&environ, &shell),
            environ,
            environ_hidden: BTreeSet::new(),
            environ_cleared: BTreeSet::new(),
            pending_hooks: Vec::new(),
            running_hooks: false,
            socket_path: socket_path.to_string(),
            host_name,
            user,
            running_command: None,
            server_pid,
            started,
            panes_by_io: HashMap::new(),
            kill_requested: false,
            config_errors: Vec::new(),
            config_files: Vec::new(),
            buffers: buffers::Buffers::new(),
            clients: attach::Clients::default(),
            messages: messages::MessageLog::default(),
            prompt_history: prompt::PromptHistory::default(),
            binding_key: None,
            mouse_event: None,
            feeds: Vec::new(),
            pane_searches: HashMap::new(),
            key_tables: key_bindings::KeyTables::default(),
            waits: wait::Waits::default(),
            jobs: jobs::Jobs::default(),
            queued_input: Vec::new(),
            reads: reads::Reads::default(),
            freezer: freezer::Freezer::default(),
            cold: cold::ColdStore::default(),
            in_string: Vec::new(),
            pane_places: Default::default(),
            arrivals: Default::default(),
            names_due: HashSet::new(),
            reap_wanted: false,
        }
    }

    /// Runs one request (possibly several commands joined by `;`) for a caller that cannot
    /// wait for an answer: a command that would wait (wait-for) fails as tmux's do without a
    /// client. Hosts that can answer later use [`Engine::submit`].
    pub fn run(&mut self, req: &Request) -> Reply {
        let req = Request {
            client: None,
            ..req.clone()
        };
        let reply = self.run_as(&req, false).unwrap_or_default();
        self.resume_ready();
        self.with_config_errors(reply)
    }

    /// Runs one client request; `None` when its answer comes later, from
    /// [`Engine::take_finished`] under the request's client id.
    pub fn submit(&mut self, req: &Request) -> Option<Reply> {
        if let Some(conn) = req
            .client
            .filter(|&c| req.control.is_some() && !self.is_control(c))
        {
            self.clients.control_before = Some((conn, control::Seen::of(self, conn)));
        }
        let reply = self.run_as(req, false);
        self.resume_ready();
        reply.map(|r| self.with_config_errors(r))
    }

    /// Configuration errors go to the first client that gets a reply, before its own errors.
    pub(super) fn with_config_errors(&mut self, mut reply: Reply) -> Reply {
        if !self.config_errors.is_empty() {
            let mut err = std::mem::take(&mut self.config_errors);
            err.extend_from_slice(&reply.err);
            reply.err = err;
        }
        reply
    }

    /// Runs commands from a configuration file loaded at server start.
    pub fn run_config(&mut self, req: &Request) -> Reply {
        self.run_as(req, true).unwrap_or_default()
    }

    pub fn kill_requested(&self) -> bool {
        self.kill_requested
    }

    fn run_as(&mut self, req: &Request, config: bool) -> Option<Reply> {
        let cmds = cmdline::split_argv(&req.argv);
        self.run_commands_as(req, cmds, config)
    }

    /// Runs commands already split (a request's, a key binding's) as `req`'s client, once
    /// every one of them parses.
    fn run_commands_as(
        &mut self,
        req: &Request,
        cmds: Vec<Vec<String>>,
        config: bool,
    ) -> Option<Reply> {
        if let Err(err) = commands::check(self, &cmds) {
            if req.control == Some(1) {
                // A control client's line: tmux's parser finds these, so a parse error, which
                // (unlike a command's error) leaves the client's exit status alone.
                return Some(Reply {
                    code: 0,
                    out: self.parse_error_block(&err),
                    err: Vec::new(),
                });
            }
            if !config {
                self.report_error(req, &err);
            }
            return Some(Reply {
                code: 1,
                out: Vec::new(),
                err: format!("{err}\n").into_bytes(),
            });
        }
        let run = wait::Suspended {
            req: req.clone(),
            cmds,
            next: 0,
            out: Vec::new(),
            err: Vec::new(),
            config,
            exit_code: None,
            attached: None,
            open_guard: None,
        };
        let run = if config {
            run
        } else {
            self.hold_for_config(run)?
        };
        self.run_commands(run)
    }

    /// Runs a request's commands from `run.next` on. A command that must wait stops the run:
    /// the rest is kept under the request's client and `None` is returned.
    fn run_commands(&mut self, mut run: wait::Suspended) -> Option<Reply> {
        let calling_pane = run
            .req
            .env
            .get("ZEROPTY_PANE")
            .and_then(|p| p.strip_prefix('%'))
            .and_then(|p| p.parse().ok());
        let mut ctx = Ctx {
            req: &run.req,
            out: std::mem::take(&mut run.out),
            err: std::mem::take(&mut run.err),
            calling_pane,
            depth: 0,
            nesting: 0,
            config: run.config,
            suspended: false,
            deferred: Vec::new(),
            exit_code: run.exit_code.take(),
        };
        let mut code = 0;
        let mut stopped_at = None;
        let guards = run.req.control;
        if let (Some(flags), Some(open)) = (guards, run.open_guard.take()) {
            // The command that waited has ended.
            let failed = !ctx.err.is_empty() || ctx.exit_code.is_some_and(|c| c != 0);
            close_guard(&mut ctx, open, flags, failed);
        }
        let mut open_guard = None;
        for (i, argv) in run.cmds.iter().enumerate().skip(run.next) {
            if argv.is_empty() {
                continue;
            }
            let guard = guards.map(|flags| {
                let (time, number) = self.next_command_guard();
                let begin = format!("%begin {time} {number} {flags}\n");
                ctx.out.extend_from_slice(begin.as_bytes());
                (time, number)
            });
            let reported = ctx.err.len();
            let ran = commands::run(self, &mut ctx, argv);
            if let Err(e) = &ran {
                if !e.is_empty() {
                    ctx.error(e);
                }
            }
            if !ctx.config {
                let errors = String::from_utf8_lossy(&ctx.err[reported..]);
                errors
                    .lines()
                    .for_each(|line| self.report_error(ctx.req, line));
            }
            if let (Some(flags), Some(open)) = (guards, guard) {
                if ctx.suspended {
                    open_guard = Some(open);
                } else {
                    close_guard(&mut ctx, open, flags, ran.is_err());
                }
            }
            if ran.is_err() {
                code = 1;
                break;
            }
            if ctx.suspended {
                stopped_at = Some(i + 1);
                break;
            }
        }
        if code == 0 {
            code = ctx.exit_code.unwrap_or(0);
        }
        let waiter = ctx.waiter();
        let (out, err, deferred, exit_code) = (ctx.out, ctx.err, ctx.deferred, ctx.exit_code);
        self.reap_dead();
        commands::run_pending_hooks(self);
        self.clients.touch_all();
        match (stopped_at, waiter) {
            (Some(next), Some(waiter)) => {
                run.cmds.splice(next..next, deferred);
                run.next = next;
                run.open_guard = open_guard;
                run.out = out;
                run.err = err;
                run.exit_code = exit_code;
                self.waits.suspend(waiter, run);
                None
            }
            _ => Some(Reply { code, out, err }),
        }
    }

    /// Tells a request's client of an error as tmux's `cmdq_error` does: an attached client
    /// sees it on its status line (capitalised), another gets it on standard error (the
    /// caller's reply) and the message log keeps it.
    fn report_error(&mut self, req: &Request, error: &str) {
        let Some(conn) = req.client else {
            return;
        };
        if req.control.is_some() {
            // A control client reads its errors in the command's block.
            return;
        }
        if self.clients.is_attached(conn) {
            self.show_error(conn, error);
        } else {
            let name = self.request_client_name(req);
            self.log_message(format!("{name} message: {error}"));
        }
    }

    /// Shows an error on an attached client's status line, capitalised as tmux shows it.
    fn show_error(&mut self, conn: u64, error: &str) {
        // The product's name stays as it is written.
        let mut text = error.to_string();
        match text.get(..1) {
            Some(first) if !text.starts_with("zeropty:") => {
                text.replace_range(..1, &first.to_ascii_uppercase());
            }
            _ => {}
        }
        self.show_message(conn, attach::StatusMessage::error(text));
    }

    /// How the message log names a request's client (tmux's `c->name`): by its terminal
    /// (an attached client, or one bringing a terminal to attach), else by its process.
    fn request_client_name(&self, req: &Request) -> String {
        match req.client.and_then(|conn| self.clients.get(conn)) {
            Some(c) => c.name.clone(),
            None => match req.terminal.as_ref().filter(|t| !t.tty.is_empty()) {
                Some(t) => t.tty.clone(),
                None => format!("client-{}", req.pid),
            },
        }
    }

    /// Logs a command about to run, as tmux's `cmdq_add_message`: `NAME command: TEXT`, or
    /// `NAME key KEY: TEXT` for an attached client's key binding; `command: TEXT` when no
    /// client sent it.
    pub(crate) fn log_command(&mut self, req: &Request, text: &str) {
        let entry = match req.client {
            None => format!("command: {text}"),
            Some(conn) => {
                let name = self.request_client_name(req);
                match self.binding_key.filter(|_| self.clients.is_attached(conn)) {
                    Some(key) => format!("{name} key {}: {text}", key.name()),
                    None => format!("{name} command: {text}"),
                }
            }
        };
        self.log_message(entry);
    }

    /// Adds an entry to the message log, which keeps the server's `message-limit` newest.
    pub(crate) fn log_message(&mut self, text: String) {
        let limit = self
            .options
            .get("message-limit")
            .and_then(|v| v.parse().ok())
            .unwrap_or(1000);
        let now = self.host.wall_time();
        self.messages.add(text, now, limit);
    }

    /// The host reports readiness on a program's terminal.
    pub fn io_event(&mut self, io: IoId, event: IoEvent) {
        let Some(&pane_id) = self.panes_by_io.get(&io) else {
            if event == IoEvent::Exited && self.jobs.is_job(io) {
                self.job_ended(io);
            } else {
                self.host.release(io);
            }
            return;
        };
        match event {
            IoEvent::Readable => {
                self.host.watch_fired(io);
                self.output_ready(pane_id);
                self.with_pane(pane_id, |pane, os, _| pane.update_watch(os));
            }
            IoEvent::Writable => {
                self.host.watch_fired(io);
                self.with_pane(pane_id, |pane, os, _| pane.flush_input(os));
            }
            IoEvent::Exited => {
                self.with_pane(pane_id, |pane, os, now| {
                    if let Some(status) = os.reap(pane.pid) {
                        pane.dead_status = Some(status);
                    }
                    pane.drain_output(os, now);
                    pane.dead = true;
                });
            }
        }
        let Some(ended) = self.with_pane(pane_id, |pane, _, _| pane.dead || pane.eof) else {
            return;
        };
        self.note_string_state(pane_id);
        if ended {
            self.reap_wanted = true;
            self.reap_dead();
            commands::run_pending_hooks(self);
        }
    }

    /// Keeps the list of panes inside a string sequence current after their output was read.
    fn note_string_state(&mut self, pane_id: u32) {
        let in_string = self.pane(pane_id).is_some_and(|p| p.string_since.is_some());
        if in_string && !self.in_string.contains(&pane_id) {
            self.in_string.push(pane_id);
        }
    }

    /// When the engine next needs [`Engine::tick`] (monotonic ms), if ever: now while keys
    /// wait to reach their programs.
    pub fn next_deadline(&self) -> Option<u64> {
        let now = self.host.now_ms();
        if !self.queued_input.is_empty() {
            return Some(now);
        }
        let strings = self
            .in_string
            .iter()
            .filter_map(|&id| self.pane(id)?.string_since)
            .map(|t| t + crate::term::STRING_TIMEOUT_MS);
        let backlog_due = |id| {
            let p = self.pane(id)?;
            (p.backlog_len() > 0).then_some(p.read_ahead_at + reads::PAUSE_MS)
        };
        strings
            .chain(self.reads.deadline(backlog_due))
            .chain(self.freezer.deadline(now))
            .min()
    }

    /// Queues keys for a pane's program (see [`pane::Pane::queue_keys`]); they reach it at
    /// the end of the turn, in [`Engine::tick`].
    pub fn queue_keys(&mut self, pane_id: u32, keys: &[u8]) {
        if self
            .with_pane(pane_id, |p, os, _| p.queue_keys(os, keys))
            .is_some()
        {
            self.note_queued_input(pane_id);
        }
    }

    /// Records that a pane has keys queued (by a caller that queued them itself).
    pub fn note_queued_input(&mut self, pane_id: u32) {
        if !self.queued_input.contains(&pane_id) {
            self.queued_input.push(pane_id);
        }
    }

    /// The end of a turn, after the host has written the turn's replies: keys queued by
    /// commands reach their programs, output due is read, and unterminated string sequences
    /// time out as in tmux.
    pub fn tick(&mut self) {
        for pane_id in std::mem::take(&mut self.queued_input) {
            self.with_pane(pane_id, |p, os, _| p.flush_input(os));
        }
        let now = self.host.now_ms();
        let mut in_string = std::mem::take(&mut self.in_string);
        in_string.retain(|&id| {
            self.with_pane(id, |p, _, _| {
                if p.string_since
                    .is_some_and(|t| now >= t + crate::term::STRING_TIMEOUT_MS)
                {
                    p.term.abandon_string();
                    p.string_since = None;
                }
                p.string_since.is_some()
            })
            .unwrap_or(false)
        });
        self.in_string.extend(in_string);
        if self.read_due() {
            self.reap_dead();
            commands::run_pending_hooks(self);
        }
        self.fold_quiet();
    }

    /// The engine has nothing left to serve (no sessions, exit-empty on) or was told to stop.
    pub fn wants_exit(&self) -> bool {
        self.kill_requested || (self.sessions.is_empty() && self.options.flag("exit-empty"))
    }

    /// `kill-server`: end every session and stop.
    pub fn kill_all(&mut self) {
        let ids: Vec<u32> = self.sessions.iter().map(|s| s.id).collect();
        for id in ids {
            self.kill_session(id);
        }
        self.kill_requested = true;
    }

    pub fn panes(&self) -> impl Iterator<Item = &Pane> {
        self.sessions
            .iter()
            .flat_map(|s| s.windows.iter().map(|w| &w.pane))
    }

    fn locate_pane(&self, pane_id: u32) -> Option<(usize, usize)> {
        let cached = self.pane_places.borrow().get(&pane_id).copied();
        if let Some((si, wi)) = cached {
            let here = self.sessions.get(si).and_then(|s| s.windows.get(wi));
            if here.is_some_and(|w| w.pane.id == pane_id) {
                return Some((si, wi));
            }
        }
        let found = self.sessions.iter().enumerate().find_map(|(si, s)| {
            s.windows
                .iter()
                .position(|w| w.pane.id == pane_id)
                .map(|wi| (si, wi))
        });
        let mut places = self.pane_places.borrow_mut();
        match found {
            Some(place) => places.insert(pane_id, place),
            None => places.remove(&pane_id),
        };
        found
    }

    pub fn pane(&self, pane_id: u32) -> Option<&Pane> {
        let (si, wi) = self.locate_pane(pane_id)?;
        Some(&self.sessions[si].windows[wi].pane)
    }

    pub fn pane_mut(&mut self, pane_id: u32) -> Option<&mut Pane> {
        let (si, wi) = self.locate_pane(pane_id)?;
        Some(&mut self.sessions[si].windows[wi].pane)
    }

    /// Runs `f` with a pane and the host's program interface.
    pub fn with_pane<R>(
        &mut self,
        pane_id: u32,
        f: impl FnOnce(&mut Pane, &mut dyn Programs, u64) -> R,
    ) -> Option<R> {
        let (si, wi) = self.locate_pane(pane_id)?;
        let now = self.host.now_ms();
        let os: &mut dyn Programs = &mut *self.host;
        let pane = &mut self.sessions[si].windows[wi].pane;
        Engine::warm(pane, &mut self.cold);
        let result = f(pane, os, now);
        self.after_touch(pane_id, (si, wi), now);
        Some(result)
    }

    /// Reads what a pane's program has written so far, so a reader never sees a stale screen.
    /// One pass takes everything queued (a socket holds far less than a pass's limit); a program
    /// that keeps writing cannot hold the reader here. A cold screen with nothing to read stays
    /// in the store: this is for readers of what a pane is, not of its rows (those call
    /// [`Engine::read_screen`]).
    pub fn drain(&mut self, pane_id: u32) {
        let Some(pane) = self.pane(pane_id) else {
            return;
        };
        let waiting = |io| self.host.pending_output(io) > 0;
        if pane.fold.cold.is_some() && !pane.deferred && !pane.io.is_some_and(waiting) {
            return;
        }
        self.read_screen(pane_id);
    }

    /// [`Engine::drain`], and a cold screen comes back from the store, for readers of its rows
    /// (capture-pane, formats of one pane, attach). A frozen screen is read as it is: its
    /// readers decode it without thawing it.
    pub fn read_screen(&mut self, pane_id: u32) {
        self.with_pane(pane_id, |pane, os, now| {
            pane.drain_output(os, now);
        });
        self.note_string_state(pane_id);
    }

    /// Moves the panes whose programs wrote or ended since the last look into the sweeps'
    /// lists: `names_due` for automatic names, `reap_wanted` for reaping.
    fn sort_arrivals(&mut self) {
        for pane_id in self.arrivals.take() {
            let Some(pane) = self.pane_mut(pane_id) else {
                continue;
            };
            pane.arrival_seen();
            if pane.dead || pane.eof {
                self.reap_wanted = true;
            }
            self.names_due.insert(pane_id);
        }
    }

    /// Removes panes whose programs have ended (unless remain-on-exit keeps them), then
    /// windows without panes and sessions without windows. Looks only when a pane has ended
    /// since the last time: a dead pane that stayed stays whatever remain-on-exit becomes.
    fn reap_dead(&mut self) {
        self.sort_arrivals();
        if !std::mem::take(&mut self.reap_wanted) {
            return;
        }
        let mut i = 0;
        while i < self.sessions.len() {
            let mut wi = 0;
            while wi < self.sessions[i].windows.len() {
                let pane = &self.sessions[i].windows[wi].pane;
                let gone = pane.dead || (pane.eof && pane.io.is_some());
                if gone && pane.io.is_some() {
                    let now = self.host.now_ms();
                    let pane = &mut self.sessions[i].windows[wi].pane;
                    // What a busy writer left read ahead belongs on the screen it leaves.
                    pane.parse_backlog(&mut *self.host, now);
                    // Before the terminal closes: closing may collect the program. A pane
                    // that waits for its program's exit keeps its terminal, watched for
                    // nothing (its output has ended), until the exit is reported.
                    if commands::collect_status(self, i, wi) {
                        wi += 1;
                        continue;
                    }
                    let pane = &mut self.sessions[i].windows[wi].pane;
                    let os: &mut dyn Programs = &mut *self.host;
                    if let Some(io) = pane.io {
                        self.panes_by_io.remove(&io);
                    }
                    pane.close(os);
                    pane.dead = true;
                }
                if self.sessions[i].windows[wi].pane.dead && !commands::keep_dead_pane(self, i, wi)
                {
                    self.pending_hooks.push(options::HookEvent {
                        name: "pane-exited",
                        session: Some(self.sessions[i].id),
                        pane: Some(self.sessions[i].windows[wi].pane.id),
                    });
                    let mut gone = self.sessions[i].remove_window(wi);
                    self.pane_places.get_mut().remove(&gone.pane.id);
                    self.forget_fold(&mut gone.pane);
                    let s = &self.sessions[i];
                    if self.options.session_string(s, "renumber-windows") == "on" {
                        let base = self.options.session_number(s, "base-index").max(0) as u32;
                        self.sessions[i].renumber(base);
                    }
                } else {
                    wi += 1;
                }
            }
            if self.sessions[i].windows.is_empty() {
                let s = self.sessions.remove(i);
                self.pending_hooks.push(options::HookEvent {
                    name: "session-closed",
                    session: Some(s.id),
                    pane: None,
                });
            } else {
                i += 1;
            }
        }
    }

    /// Ends a session: hangs up its programs as a closing PTY would, and forgets it.
    pub fn kill_session(&mut self, session_id: u32) {
        let Some(si) = self.sessions.iter().position(|s| s.id == session_id) else {
            return;
        };
        let s = self.sessions.remove(si);
        self.pending_hooks.push(options::HookEvent {
            name: "session-closed",
            session: Some(s.id),
            pane: None,
        });
        self.note_session_killed(s.id);
        for mut w in s.windows {
            self.hang_up(&mut w.pane);
        }
    }

    /// SIGHUP (and SIGCONT, so stopped jobs see it) to the pane's process group and its
    /// foreground group, then close the terminal.
    pub fn hang_up(&mut self, pane: &mut Pane) {
        self.pane_searches.remove(&pane.id);
        let os: &mut dyn Programs = &mut *self.host;
        if pane.io.is_some() {
            let fg = os.foreground_group(pane.slot).unwrap_or(pane.foreground);
            for group in [pane.pid, fg] {
                os.signal_group(group, libc_sig::SIGHUP);
                os.signal_group(group, libc_sig::SIGCONT);
            }
        }
        if let Some(io) = pane.io {
            self.panes_by_io.remove(&io);
        }
        self.pane_places.get_mut().remove(&pane.id);
        pane.close(os);
        self.forget_fold(pane);
    }

    pub fn alloc_session_id(&mut self) -> u32 {
        self.next_session += 1;
        self.next_session - 1
    }

    pub fn alloc_window_id(&mut self) -> u32 {
        self.next_window += 1;
        self.next_window - 1
    }

    pub fn alloc_pane_id(&mut self) -> u32 {
        self.next_pane += 1;
        self.next_pane - 1
    }

    /// Registers a new pane's terminal so its events reach it and its output reaches the
    /// sweeps; its screen starts hot, so it freezes even if its program never writes.
    /// Called once the pane is in its window.
    pub fn track(&mut self, pane_id: u32) {
        let Some(place) = self.locate_pane(pane_id) else {
            return;
        };
        let arrivals = self.arrivals.clone();
        let pane = &mut self.sessions[place.0].windows[place.1].pane;
        pane.report_arrivals(arrivals);
        if let Some(io) = pane.io {
            self.panes_by_io.insert(io, pane_id);
        }
        let now = self.host.now_ms();
        self.after_touch(pane_id, place, now);
    }

    /// The shell a session's new programs run under: `default-shell` when it is a usable
    /// shell, else /bin/sh, as tmux decides at each spawn.
    pub fn session_shell(&self, session: &Session) -> String {
        let shell = self.options.session_string(session, "default-shell");
        if self.host.is_shell(&shell) {
            shell
        } else {
            "/bin/sh".into()
        }
    }

    /// The environment a new pane's program gets: the global environment, the session's
    /// changes, `-e` values, PATH from the client, and zeropty's own variables.
    pub fn pane_environment(
        &self,
        session: &Session,
        extra: &[(String, String)],
        client_path: Option<&str>,
        pane_id: u32,
    ) -> Vec<(String, String)> {
        // Hidden and cleared variables are not given to programs, and a session's variable
        // (hidden or not) replaces the global one of its name.
        let mut merged: BTreeMap<String, Option<String>> = BTreeMap::new();
        for (k, v) in &self.environ {
            let visible = !self.environ_hidden.contains(k);
            merged.insert(k.clone(), Some(v.clone()).filter(|_| visible));
        }
        for (k, v) in session.environ.iter() {
            let visible = !session.environ_hidden.contains(k);
            merged.insert(k.clone(), v.clone().filter(|_| visible));
        }
        let mut env: BTreeMap<String, String> = merged
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k, v)))
            .collect();
        for (k, v) in extra {
            env.insert(k.clone(), v.clone());
        }
        if let Some(path) = client_path {
            env.insert("PATH".into(), path.into());
        }
        env.entry("PATH".into())
            .or_insert_with(|| "/usr/bin:/bin".into());
        env.insert("TERM".into(), self.options.string("default-terminal"));
        env.insert("SHELL".into(), self.session_shell(session));
        // zeropty's sessions are not tmux's: programs see ZEROPTY, and TMUX is not passed on
        // from the environment the server started in.
        env.remove("TMUX");
        env.remove("TMUX_PANE");
        env.insert(
            "ZEROPTY".into(),
            format!("{},{},{}", self.socket_path, self.server_pid, session.id),
        );
        env.insert("ZEROPTY_PANE".into(), format!("%{pane_id}"));
        env.into_iter().collect()
    }
}

/// Signal numbers (Linux), kept here so the engine needs no libc.
pub mod libc_sig {
    pub const SIGHUP: i32 = 1;
    pub const SIGINT: i32 = 2;
    pub const SIGQUIT: i32 = 3;
    pub const SIGKILL: i32 = 9;
    pub const SIGTERM: i32 = 15;
    pub const SIGCONT: i32 = 18;
    pub const SIGTSTP: i32 = 20;
    pub const SIGWINCH: i32 = 28;
}
