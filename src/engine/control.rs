//! Control mode: clients that speak tmux's control protocol (`zeropty -C`) instead of drawing
//! a terminal.
//!
//! A control client is an attached client with a [`Control`]. It is never drawn and types no
//! keys; it sizes its session's windows only once `refresh-client -C` has given it a size
//! (until then it is 80x24 and ignored, as tmux ignores an unsized control client). What it
//! sends are command lines: each line runs as the client, and every command's output and
//! errors come back between guard lines, `%begin TIME NUMBER FLAGS` and `%end` or `%error`
//! with the same numbers (`Engine::run_commands` writes them: FLAGS is 1 for a line the client
//! sent, 0 for the command line it started with). A line that does not parse is one `%error`
//! block saying `parse error: ...`; an empty line detaches. While a command waits (`run-shell`,
//! `wait-for`), the lines after it wait too, and its block comes when it ends.
//!
//! Everything else the client hears is a notification line, as tmux words them:
//! `%output %PANE TEXT` for what the programs of its session's panes write (bytes below a
//! space and backslashes as three-digit octal escapes, other bytes as they are),
//! `%session-changed`, `%client-session-changed`, `%client-detached`, `%sessions-changed`,
//! `%session-renamed`, `%session-window-changed`, `%window-add` and `%window-renamed` (with
//! `unlinked-` for windows of other sessions), `%unlinked-window-close`, `%layout-change` and
//! `%pane-mode-changed` (a client's copy, view or clock mode opened or closed over a pane);
//! and `%subscription-changed` for the formats it subscribed to (`refresh-client -B`),
//! checked once a second.
//!
//! Notifications are found by comparison rather than raised where things change: after each
//! line whose commands may change something (not after [`QUIET_COMMANDS`]), after a command
//! that waited, and at the end of every turn, what the client was last told ([`Seen`]) is
//! compared with the sessions, windows and clients as they are, and each difference is
//! written as tmux's line for it. No command, present or future, can change what a control
//! client sees without it hearing; the price is that a change undone within one turn is not
//! heard, and several changes of one thing are heard once, with the last value. Within one
//! comparison the lines come in the order tmux's come for a single command (a window made
//! current before it is added, windows before `%sessions-changed`, that before the client's
//! own session change). A window that goes is `%unlinked-window-close`, as tmux 3.3a reports
//! it once the window has left its session.
//!
//! Pane output reaches the client from a copy each pane keeps while a control client is
//! attached to its session and wants its output (`Pane::control_copy`, what a PTY would have
//! given tmux, echo included). With no control client nothing is copied or compared, so the
//! many sessions nobody watches this way pay nothing.
//!
//! Invariants: a pane keeps a copy exactly while a control client on its session wants its
//! output (after [`Engine::control_sync_copies`]); `out` holds whole lines; a client whose
//! `out` passes [`OUT_LIMIT`] (it stopped reading) is let go with `too far behind`.

mod flow;
mod subscriptions;

use super::attach::Exit;
use super::Engine;
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use subscriptions::Subscription;

/// Most text held for a control client that does not read it; past it the client is let go
/// (tmux lets go of one whose oldest output is five minutes old), so the server cannot grow
/// without end for a client that stopped reading.
pub const OUT_LIMIT: usize = 64 << 20;

/// Most text the host takes for a control client at a time (it takes more once that has
/// gone): a client that stops reading leaves the rest here, where `pause-after` sees it wait.
const TEXT_CHUNK: usize = 256 << 10;

/// Most command input held while a command of the client waits (as for a terminal's keys),
/// and the longest line taken.
const INPUT_LIMIT: usize = 1 << 20;

/// What stands in the input for a line too long to keep: it is answered `command too long`
/// (tmux's client's words for a command over its message size). A NUL cannot start a
/// command's name, so no line a client means as a command reads the same.
const OVERLONG: &[u8] = b"\0overlong";

/// Commands that change no session, window, name, size, current window or client.
const QUIET_COMMANDS: &[&str] = &[
    "capture-pane",
    "clear-history",
    "delete-buffer",
    "display-message",
    "has-session",
    "list-buffers",
    "list-clients",
    "list-commands",
    "list-keys",
    "list-panes",
    "list-sessions",
    "list-windows",
    "load-buffer",
    "paste-buffer",
    "save-buffer",
    "send-keys",
    "set-buffer",
    "show-buffer",
    "show-environment",
    "show-hooks",
    "show-messages",
    "show-options",
    "show-window-options",
];

/// What makes a client a control client.
#[derive(Debug, Default)]
pub struct Control {
    /// What the client sent that has not run: `input[input_at..]` (lines are taken from the
    /// front without moving the rest, which made a burst of short lines quadratic).
    input: Vec<u8>,
    input_at: usize,
    /// A line that outgrew [`INPUT_LIMIT`] is being dropped until its newline.
    in_overlong: bool,
    /// Lines for the client: `out[out_taken..]` the host has not taken yet.
    pub(super) out: Vec<u8>,
    out_taken: usize,
    /// What the client was last told.
    seen: Seen,
    /// `refresh-client -C` gave it a size: it sizes windows like a terminal.
    pub sized: bool,
    /// `refresh-client -f no-output`: no `%output` at all.
    pub no_output: bool,
    /// Panes whose output it does not want (`refresh-client -A %ID:off`).
    pub panes_off: BTreeSet<u32>,
    /// A command it ran failed: it exits 1, as tmux's client does after any error.
    pub(super) failed: bool,
    /// `wait-exit`: after `%exit` its program waits for an empty line.
    pub(super) wait_exit: bool,
    /// `pause-after`: a pane whose output has waited this long (ms) for the client is
    /// paused (`control/flow.rs`).
    pub(super) pause_after: Option<u64>,
    /// Panes paused for it: their output is dropped until `refresh-client -A %ID:continue`.
    paused: BTreeSet<u32>,
    /// For each pane with output in `out`, when the oldest of it came (monotonic ms).
    pending_since: BTreeMap<u32, u64>,
    /// Its subscriptions by name (`refresh-client -B`, `control/subscriptions.rs`), told in
    /// name order.
    subscriptions: BTreeMap<String, Subscription>,
    /// When its subscriptions are next checked (monotonic ms), while it has any.
    subscriptions_due: Option<u64>,
}

impl Control {
    /// A control client that has been told `seen` (what was there before the request that
    /// attached it ran, so what that request made is heard).
    pub fn new(seen: Seen) -> Control {
        Control {
            seen,
            ..Default::default()
        }
    }

    /// Its flags as `#{client_flags}` names them.
    pub fn flags(&self) -> Vec<String> {
        let pause = self
            .pause_after
            .map(|ms| format!("pause-after={}", ms / 1000));
        let no_output = self.no_output.then(|| "no-output".to_string());
        let wait = self.wait_exit.then(|| "wait-exit".to_string());
        no_output.into_iter().chain(wait).chain(pause).collect()
    }

    /// The next lines for the host to send: at most [`TEXT_CHUNK`] bytes (a longer line
    /// alone), so that what waits for a slow client waits here, where its age is known.
    fn take_text(&mut self) -> Option<Vec<u8>> {
        let rest = &self.out[self.out_taken..];
        if rest.is_empty() {
            return None;
        }
        let cut = match rest.len() <= TEXT_CHUNK {
            true => rest.len(),
            false => rest[..TEXT_CHUNK]
                .iter()
                .rposition(|&b| b == b'\n')
                .or_else(|| rest.iter().position(|&b| b == b'\n'))
                .map_or(rest.len(), |nl| nl + 1),
        };
        let text = rest[..cut].to_vec();
        self.out_taken += cut;
        if self.out_taken == self.out.len() {
            self.out.clear();
            self.out_taken = 0;
            self.pending_since.clear();
        } else if self.out_taken > self.out.len() / 2 {
            // Moved down once half is gone: each byte moves a bounded number of times.
            self.out.drain(..self.out_taken);
            self.out_taken = 0;
        }
        Some(text)
    }

    /// The lines the host has not taken, for a client that leaves.
    pub(super) fn untaken(mut self) -> Vec<u8> {
        self.out.drain(..self.out_taken);
        self.out
    }

    /// Bytes of lines waiting for the host.
    fn waiting(&self) -> usize {
        self.out.len() - self.out_taken
    }

    pub(super) fn line(&mut self, line: &str) {
        self.out.extend_from_slice(line.as_bytes());
        self.out.push(b'\n');
    }

    /// The next whole input line, without its newline.
    fn next_line(&mut self) -> Option<Vec<u8>> {
        let rest = &self.input[self.input_at..];
        let Some(nl) = rest.iter().position(|&b| b == b'\n') else {
            self.input.drain(..self.input_at);
            self.input_at = 0;
            return None;
        };
        let line = rest[..nl].to_vec();
        self.input_at += nl + 1;
        Some(line)
    }

    /// Adds what the client sent. What waits is bounded: whole lines past
    /// [`INPUT_LIMIT`] (behind a command that waits) are dropped, and a line that grows past
    /// it is cut out, the rest of it dropped as it comes, and stands as [`OVERLONG`].
    fn take_input(&mut self, mut bytes: &[u8]) {
        if self.in_overlong {
            let Some(nl) = bytes.iter().position(|&b| b == b'\n') else {
                return;
            };
            self.in_overlong = false;
            self.input.extend_from_slice(OVERLONG);
            bytes = &bytes[nl..];
        }
        let room = INPUT_LIMIT.saturating_sub(self.input.len() - self.input_at);
        self.input
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
        let line_start = self
            .input
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(self.input_at, |nl| nl + 1);
        if bytes.len() > room && line_start.max(self.input_at) < self.input.len() {
            // The last line did not fit: cut it out, and drop what comes until its end.
            self.input.truncate(line_start.max(self.input_at));
            self.in_overlong = true;
        }
    }
}

/// What a control client knows of the server, compared with what is there to find what to
/// tell it. Names are kept as hashes and everything in the engine's order, so that finding
/// nothing changed (almost always) is a pass over the sessions and one comparison, with no
/// allocation per session: comparing every name as a string after each command took a
/// control client's commands with 1,000 sessions from 7 to 677 us each (/tmp measurement:
/// 5,000 `display -p` lines, alternated with tmux's 10 us).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// Its own session.
    session: Option<u32>,
    sessions: Vec<SeenSession>,
    windows: Vec<SeenWindow>,
    /// The other clients (names kept whole: a client that leaves is named).
    clients: Vec<SeenClient>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SeenSession {
    id: u32,
    name: u64,
    current: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SeenWindow {
    id: u32,
    session: u32,
    name: u64,
    size: (u32, u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct SeenClient {
    conn: u64,
    session: u32,
    name: String,
}

impl Seen {
    /// The server as client `conn` would see it now.
    pub fn of(e: &Engine, conn: u64) -> Seen {
        let mut seen = Seen {
            session: e.clients.get(conn).map(|c| c.session),
            ..Default::default()
        };
        for s in e.sessions.iter() {
            seen.sessions.push(SeenSession {
                id: s.id,
                name: name_hash(&s.name),
                current: s.current_window().id,
            });
            seen.windows.extend(s.windows.iter().map(|w| SeenWindow {
                id: w.id,
                session: s.id,
                name: name_hash(&w.name),
                size: (w.pane.term.cols(), w.pane.term.rows()),
            }));
        }
        for c in e.clients.iter().filter(|c| c.conn != conn) {
            seen.clients.push(SeenClient {
                conn: c.conn,
                session: c.session,
                name: c.name.clone(),
            });
        }
        seen
    }
}

/// FNV-1a: names are compared by a 64-bit hash (a rename that kept the hash would go
/// unheard: one in 2^64).
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A pane's output as `%output` writes it: bytes below a space and backslashes as `\ooo`.
/// With `age` (a client with `pause-after`), as `%extended-output %ID AGE : ...`, AGE being
/// how long (ms) the pane's output has waited for the client.
pub fn escape_output(pane: u32, age: Option<u64>, bytes: &[u8], out: &mut Vec<u8>) {
    let head = match age {
        Some(age) => format!("%extended-output %{pane} {age} : "),
        None => format!("%output %{pane} "),
    };
    out.extend_from_slice(head.as_bytes());
    for &b in bytes {
        if b < b' ' || b == b'\\' {
            out.extend_from_slice(&[
                b'\\',
                b'0' + (b >> 6),
                b'0' + ((b >> 3) & 7),
                b'0' + (b & 7),
            ]);
        } else {
            out.push(b);
        }
    }
    out.push(b'\n');
}

impl Engine {
    /// Whether any control client is attached (the work of this module is skipped without).
    pub(super) fn has_control_clients(&self) -> bool {
        self.clients.iter().any(|c| c.control.is_some())
    }

    /// Command input from a control client: each whole line runs, in turn.
    pub(super) fn control_input(&mut self, conn: u64, bytes: &[u8]) {
        if let Some(c) = self.control_mut(conn) {
            c.take_input(bytes);
        }
        self.control_run_lines(conn);
    }

    /// A control client's input ended: it leaves once the whole lines it sent have run (a
    /// last line without its newline is dropped, as tmux reads only whole lines).
    pub fn control_input_ended(&mut self, conn: u64) {
        if let Some(c) = self.control_mut(conn) {
            let whole = c
                .input
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |nl| nl + 1);
            c.input.truncate(whole.max(c.input_at));
            // An empty line: the client detaches when it is reached.
            c.input.push(b'\n');
        }
        self.control_run_lines(conn);
    }

    pub(super) fn control_mut(&mut self, conn: u64) -> Option<&mut Control> {
        self.clients.get_mut(conn)?.control.as_deref_mut()
    }

    /// Runs the client's whole lines until one waits or none is left.
    pub(super) fn control_run_lines(&mut self, conn: u64) {
        while !self.waits.is_waiting(conn) {
            let Some(c) = self.control_mut(conn) else {
                return;
            };
            let Some(line) = c.next_line() else {
                return;
            };
            if line.is_empty() {
                // An empty line detaches (and so does the end of the input, which adds one).
                self.detach_client(conn, false);
                return;
            }
            if line == OVERLONG {
                self.control_parse_error(conn, "command too long");
                continue;
            }
            let text = String::from_utf8_lossy(&line).into_owned();
            // Unknown commands and bad flags are parse errors too, found by the run.
            match super::commands::command_lines(self, &text) {
                Ok(cmds) => {
                    let quiet = cmds.iter().all(|argv| self.is_quiet(argv));
                    self.run_for_client(conn, cmds);
                    // A quiet command may still open or close a mode (send-keys -X).
                    if !quiet || !self.clients.modes_changed.is_empty() {
                        self.control_notify_all();
                    }
                }
                Err(e) => self.control_parse_error(conn, &e),
            }
        }
    }

    /// Whether a command changes nothing control clients are told of (it is one of
    /// [`QUIET_COMMANDS`], not a `command-alias`): the comparison after it is skipped, which
    /// is most of what a control client's `send-keys` or `capture-pane` would cost with many
    /// sessions. What such a command sets off later (a program's output, its end) is found
    /// at the end of the turn.
    fn is_quiet(&self, argv: &[String]) -> bool {
        let Some(name) = argv.first() else {
            return true;
        };
        !super::commands::is_alias(self, name)
            && super::commands::find(name).is_ok_and(|def| QUIET_COMMANDS.contains(&def.name))
    }

    /// A line that does not parse: one `%error` block, as tmux's `control_error` writes it.
    fn control_parse_error(&mut self, conn: u64, error: &str) {
        let block = self.parse_error_block(error);
        if let Some(c) = self.control_mut(conn) {
            c.out.extend_from_slice(&block);
        }
    }

    /// The `%error` block of a control client's line that does not parse.
    pub(super) fn parse_error_block(&mut self, error: &str) -> Vec<u8> {
        let (time, number) = self.next_command_guard();
        format!("%begin {time} {number} 1\nparse error: {error}\n%error {time} {number} 1\n")
            .into_bytes()
    }

    /// The time and number of the next command's guard lines (tmux numbers every queued
    /// command, whoever runs it).
    pub(super) fn next_command_guard(&mut self) -> (i64, u32) {
        self.clients.commands_run = self.clients.commands_run.wrapping_add(1);
        (self.host.wall_time(), self.clients.commands_run)
    }

    /// The blocks of commands a control client ran (they wrote their own guard lines); what
    /// they changed is told by the caller.
    pub(super) fn control_run_ended(&mut self, conn: u64, reply: &super::Reply) {
        if let Some(c) = self.control_mut(conn) {
            c.out.extend_from_slice(&reply.out);
            c.out.extend_from_slice(&reply.err);
            c.failed |= reply.code != 0;
        }
    }

    /// A mode opened or closed over a pane (a client's copy, view or clock mode): control
    /// clients are told with what else changed, as tmux queues `%pane-mode-changed`.
    pub(super) fn note_mode_changed(&mut self, pane: u32) {
        if self.has_control_clients() {
            self.clients.modes_changed.push(pane);
        }
    }

    /// Tells every control client what changed since it was last told.
    pub(super) fn control_notify_all(&mut self) {
        if !self.has_control_clients() {
            return;
        }
        let conns: Vec<u64> = self
            .clients
            .iter()
            .filter(|c| c.control.is_some())
            .map(|c| c.conn)
            .collect();
        let mut changed = false;
        let modes: Vec<String> = std::mem::take(&mut self.clients.modes_changed)
            .into_iter()
            .map(|pane| format!("%pane-mode-changed %{pane}"))
            .collect();
        for conn in conns {
            let now = Seen::of(self, conn);
            let Some(before) = self.control_mut(conn).map(|c| std::mem::take(&mut c.seen)) else {
                continue;
            };
            let mut lines = modes.clone();
            if before != now {
                lines.extend(self.notifications(&before, &now));
                changed = true;
            }
            if let Some(c) = self.control_mut(conn) {
                for line in lines {
                    c.line(&line);
                }
                c.seen = now;
            }
        }
        self.clients.sessions_killed.clear();
        if changed {
            self.control_sync_copies();
        }
    }

    /// A session was killed: its control clients hear of its windows after it.
    pub(super) fn note_session_killed(&mut self, session: u32) {
        if self.has_control_clients() {
            self.clients.sessions_killed.push(session);
        }
    }

    /// The lines that tell a client what changed from `before` to `now`.
    fn notifications(&self, before: &Seen, now: &Seen) -> Vec<String> {
        let sessions = |s: &Seen| -> BTreeMap<u32, SeenSession> {
            s.sessions.iter().map(|x| (x.id, *x)).collect()
        };
        let windows = |s: &Seen| -> BTreeMap<u32, SeenWindow> {
            s.windows.iter().map(|x| (x.id, *x)).collect()
        };
        let clients = |s: &Seen| -> BTreeMap<u64, (u32, String)> {
            s.clients
                .iter()
                .map(|c| (c.conn, (c.session, c.name.clone())))
                .collect()
        };
        let (sessions_before, sessions_now) = (sessions(before), sessions(now));
        let (windows_before, windows_now) = (windows(before), windows(now));
        let (clients_before, clients_now) = (clients(before), clients(now));
        let session_name = |id: u32| self.sessions.iter().find(|s| s.id == id).map(|s| &s.name);
        let window_name = |id: u32| {
            self.sessions
                .iter()
                .flat_map(|s| &s.windows)
                .find(|w| w.id == id)
                .map(|w| &w.name)
        };
        let mut lines = Vec::new();
        let mine = |w: &SeenWindow| Some(w.session) == now.session;
        let unlinked = |w: &SeenWindow| if mine(w) { "" } else { "unlinked-" };
        // A client whose session has just ended hears of sessions only (tmux tells a client
        // without a session nothing of windows).
        let has_session = now.session.is_some_and(|s| sessions_now.contains_key(&s));
        for (id, s) in &sessions_now {
            if sessions_before
                .get(id)
                .is_some_and(|was| was.current != s.current)
            {
                lines.push(format!("%session-window-changed ${id} @{}", s.current));
            }
        }
        // A killed session's windows are closed after it, a window that ended before its
        // session (which then ends) as it goes.
        let killed = |w: &SeenWindow| self.clients.sessions_killed.contains(&w.session);
        let (after_sessions, closed): (Vec<_>, Vec<_>) = windows_before
            .values()
            .filter(|w| has_session && !windows_now.contains_key(&w.id))
            .partition(|w| killed(w));
        let close = |w: &SeenWindow| format!("%unlinked-window-close @{}", w.id);
        lines.extend(closed.into_iter().map(close));
        for (id, w) in windows_now.iter().filter(|_| has_session) {
            if !windows_before.contains_key(id) {
                lines.push(format!("%{}window-add @{id}", unlinked(w)));
            }
        }
        if sessions_before.keys().ne(sessions_now.keys()) {
            lines.push("%sessions-changed".into());
        }
        lines.extend(after_sessions.into_iter().map(close));
        for (id, s) in &sessions_now {
            if sessions_before
                .get(id)
                .is_some_and(|was| was.name != s.name)
            {
                let name = session_name(*id).map_or("", String::as_str);
                lines.push(format!("%session-renamed ${id} {name}"));
            }
        }
        if let Some(sid) = now.session.filter(|&s| Some(s) != before.session) {
            let name = session_name(sid).map_or("", String::as_str);
            lines.push(format!("%session-changed ${sid} {name}"));
        }
        for (conn, (sid, client)) in &clients_now {
            if clients_before.get(conn).map(|(s, _)| s) != Some(sid) {
                let name = session_name(*sid).map_or("", String::as_str);
                lines.push(format!("%client-session-changed {client} ${sid} {name}"));
            }
        }
        for (id, w) in windows_now.iter().filter(|_| has_session) {
            let Some(was) = windows_before.get(id) else {
                continue;
            };
            if was.name != w.name {
                let name = window_name(*id).map_or("", String::as_str);
                lines.push(format!("%{}window-renamed @{id} {name}", unlinked(w)));
            }
            if was.size != w.size && mine(w) {
                lines.push(self.layout_change(*id));
            }
        }
        for (conn, (_, client)) in &clients_before {
            if !clients_now.contains_key(conn) {
                lines.push(format!("%client-detached {client}"));
            }
        }
        lines
    }

    /// `%layout-change` for a window, as tmux's template writes it.
    fn layout_change(&self, window: u32) -> String {
        let at = self.sessions.iter().enumerate().find_map(|(si, s)| {
            let wi = s.windows.iter().position(|w| w.id == window)?;
            Some(super::target::Found {
                session: si,
                window: wi,
            })
        });
        super::commands::expand(
            self,
            "%layout-change #{window_id} #{window_layout} #{window_visible_layout} #{window_raw_flags}",
            at,
        )
    }

    /// Gives each pane a copy of its output exactly while a control client on its session
    /// wants it.
    pub(super) fn control_sync_copies(&mut self) {
        // Per session, the panes no control client there wants (every one turned it off).
        let mut off: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
        for c in self.clients.iter() {
            let Some(ctl) = c.control.as_deref().filter(|ctl| !ctl.no_output) else {
                continue;
            };
            match off.entry(c.session) {
                Entry::Vacant(v) => {
                    v.insert(ctl.panes_off.clone());
                }
                Entry::Occupied(mut o) => o.get_mut().retain(|p| ctl.panes_off.contains(p)),
            }
        }
        for s in self.sessions.iter_mut() {
            let off = off.get(&s.id);
            for w in &mut s.windows {
                let want = off.is_some_and(|off| !off.contains(&w.pane.id));
                match (want, w.pane.control_copy.is_some()) {
                    (true, false) => w.pane.control_copy = Some(Vec::new()),
                    (false, true) => w.pane.control_copy = None,
                    _ => {}
                }
            }
        }
    }

    /// End of a turn for control clients: what changed, then what their panes wrote; a
    /// client that stopped reading is let go.
    pub(super) fn control_tick(&mut self) {
        if !self.has_control_clients() {
            return;
        }
        self.control_notify_all();
        self.check_subscriptions();
        // Only the sessions of control clients have copies: the others are not visited.
        let watched: BTreeSet<u32> = self
            .clients
            .iter()
            .filter(|c| c.control.is_some())
            .map(|c| c.session)
            .collect();
        let mut output: Vec<(u32, u32, Vec<u8>)> = Vec::new();
        for s in self.sessions.iter_mut().filter(|s| watched.contains(&s.id)) {
            for w in &mut s.windows {
                if let Some(copy) = w.pane.control_copy.as_mut().filter(|c| !c.is_empty()) {
                    output.push((s.id, w.pane.id, std::mem::take(copy)));
                }
            }
        }
        self.deliver_output(&output);
        self.pause_late_panes();
        let behind: Vec<u64> = self
            .clients
            .iter()
            .filter(|c| {
                c.control
                    .as_ref()
                    .is_some_and(|ctl| ctl.waiting() > OUT_LIMIT)
            })
            .map(|c| c.conn)
            .collect();
        for conn in behind {
            let exit = Exit::Control {
                text: Vec::new(),
                reason: "too far behind".into(),
                status: 0,
                wait: false,
            };
            self.let_go(conn, exit);
        }
    }

    /// `%output` lines for the control clients of each pane's session that want them.
    pub(super) fn deliver_output(&mut self, output: &[(u32, u32, Vec<u8>)]) {
        if output.is_empty() {
            return;
        }
        let now = self.host.now_ms();
        for c in self.clients.list.iter_mut() {
            let session = c.session;
            let Some(ctl) = c.control.as_deref_mut().filter(|ctl| !ctl.no_output) else {
                continue;
            };
            for (_, pane, bytes) in output.iter().filter(|(s, ..)| *s == session) {
                if !ctl.panes_off.contains(pane) && !ctl.paused.contains(pane) {
                    let since = *ctl.pending_since.entry(*pane).or_insert(now);
                    let age = ctl.pause_after.map(|_| now - since);
                    escape_output(*pane, age, bytes, &mut ctl.out);
                }
            }
        }
    }

    /// What a control client is to be sent now: its lines, all of them.
    pub fn control_text(&mut self, conn: u64) -> Option<Vec<u8>> {
        self.control_mut(conn)?.take_text()
    }

    /// Whether a connection is a control client's.
    pub fn is_control(&self, conn: u64) -> bool {
        self.clients.get(conn).is_some_and(|c| c.control.is_some())
    }

    /// `refresh-client -C WIDTHxHEIGHT` (or `WIDTH,HEIGHT`): the control client now sizes
    /// its windows as a terminal of that size would.
    pub fn set_control_size(&mut self, conn: u64, size: &str) -> Result<(), String> {
        let parsed = size
            .split_once('x')
            .or_else(|| size.split_once(','))
            .and_then(|(w, h)| Some((leading_number(w)?, leading_number(h)?)));
        let (cols, rows) = parsed.ok_or("bad size argument")?;
        if !(1..=super::commands::WINDOW_MAXIMUM).contains(&cols)
            || !(1..=super::commands::WINDOW_MAXIMUM).contains(&rows)
        {
            return Err("size too small or too big".into());
        }
        let Some(c) = self.clients.get_mut(conn) else {
            return Ok(());
        };
        if let Some(ctl) = c.control.as_deref_mut() {
            ctl.sized = true;
        }
        self.client_resize(conn, cols, rows);
        Ok(())
    }

    /// `refresh-client -f` for a control client: `no-output`, `wait-exit`, `pause-after` (or
    /// `pause-after=SECONDS`), each cleared by a `!` before it; others are not its.
    pub fn set_control_flags(&mut self, conn: u64, list: &str) {
        let Some(ctl) = self.control_mut(conn) else {
            return;
        };
        for (on, name) in list.split(',').map(flag_setting) {
            match name {
                "no-output" => ctl.no_output = on,
                "wait-exit" => ctl.wait_exit = on,
                "pause-after" => ctl.pause_after = on.then_some(0),
                _ => {
                    if let Some(secs) = name.strip_prefix("pause-after=") {
                        let secs = leading_number(secs).filter(|_| !secs.starts_with(' '));
                        if let Some(secs) = secs {
                            ctl.pause_after = on.then_some(secs as u64 * 1000);
                        }
                    }
                }
            }
        }
        self.control_sync_copies();
    }

    /// `refresh-client -A %ID:on|off|pause|continue`: whether a control client hears a
    /// pane's output.
    pub fn set_control_pane(&mut self, conn: u64, spec: &str) {
        let Some((pane, state)) = spec.split_once(':') else {
            return;
        };
        let Some(pane) = pane.strip_prefix('%').and_then(|p| p.parse::<u32>().ok()) else {
            return;
        };
        if let Some(ctl) = self.control_mut(conn) {
            match state {
                "on" => {
                    ctl.panes_off.remove(&pane);
                }
                "off" => {
                    ctl.panes_off.insert(pane);
                }
                "pause" => ctl.pause(pane),
                "continue" => ctl.resume(pane),
                _ => {}
            }
        }
        self.control_sync_copies();
    }
}

/// One of a client's `-f` flags: whether it is set (no `!` before it) and its name.
pub(crate) fn flag_setting(flag: &str) -> (bool, &str) {
    match flag.strip_prefix('!') {
        Some(name) => (false, name),
        None => (true, flag),
    }
}

/// The number at the start of `text`, as `sscanf("%u")` reads it (digits after optional
/// spaces; what follows them is ignored).
pub(super) fn leading_number(text: &str) -> Option<u32> {
    let digits: String = text
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_escapes_controls_and_backslashes_only() {
        let mut out = Vec::new();
        escape_output(3, None, b"a\\b\r\n\x1b[1m\xc3\xa9 ~", &mut out);
        assert_eq!(
            out,
            b"%output %3 a\\134b\\015\\012\\033[1m\xc3\xa9 ~\n".to_vec()
        );
        out.clear();
        escape_output(3, Some(250), b"x\n", &mut out);
        assert_eq!(out, b"%extended-output %3 250 : x\\012\n".to_vec());
    }

    #[test]
    fn sizes_read_as_tmux_scans_them() {
        assert_eq!(leading_number("100"), Some(100));
        assert_eq!(leading_number(" 30junk"), Some(30));
        assert_eq!(leading_number("x"), None);
    }
}
