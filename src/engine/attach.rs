//! Attached clients: terminals that show a session's current window (`zeropty attach`).
//!
//! The server owns each client's connection and moves its frames (see `crate::protocol`);
//! the engine keeps what tmux keeps about a client (its session, last session, size, flags,
//! prefix state, copy mode) and draws it.
//!
//! Drawing: a frame is a full redraw built from the screen (each row from
//! [`Terminal::capture`](crate::term::Terminal::capture) with SGR codes, cleared to the end of
//! the line unless it fills it), the status lines at the bottom (`engine/status_line.rs`), the
//! pane's key, paste, focus and mouse modes, and the cursor. A message (display-message, an
//! error of a command a key ran) takes the last status line's place, the cursor hidden, until its
//! time is up or a key is typed, as tmux shows one; unlike tmux, the pane above keeps drawing
//! meanwhile. A prompt (command-prompt's line, confirm-before's question: `engine/prompt.rs`,
//! `engine/client_prompt.rs`) takes it until it is answered; a message shows over it. A
//! client is drawn when something it shows may have
//! changed (output of the pane it shows, any command, its own keys, the status line's clock),
//! at most once per [`FRAME_INTERVAL_MS`], and only when the frame differs from the last one
//! sent. The server asks for a frame only when the previous one has left, so a slow client
//! gets the newest screen and never a backlog.
//!
//! Sizes: every window of a session takes the smallest size among the clients attached to it
//! that are not read-only or ignore-size (less the status lines' rows), unless its
//! `window-size` says otherwise (`manual` after resize-window, `largest`, `latest`). With no
//! such client, windows keep the size they have.
//!
//! Keys: each key typed is looked up in the client's key table (`engine/key_bindings.rs`) as
//! tmux looks it up: the `prefix` key (C-b) switches to the `prefix` table, a bound key runs
//! its commands as the client (a repeating one keeps the table for `repeat-time`), and a key
//! bound nowhere goes to the pane through [`Pane::keys`](super::pane::Pane::keys), so the
//! line discipline applies. A read-only client runs only bindings of commands read-only
//! clients may run (detach, switch) and sends no keys. In copy mode (`copy-mode`, `C-b [`:
//! `engine/copy_mode.rs`, `engine/client_copy.rs`), keys are looked up first in the
//! `copy-mode` table (`copy-mode-vi` with `mode-keys vi`), whose `send-keys -X` commands
//! drive it, then in the root table, and go nowhere when bound in neither, as in tmux; what
//! the commands keys run print shows the same way in place of the pane, from its first line
//! (tmux's view mode). With `mouse` on, the terminal's mouse reports are keys too
//! (`engine/mouse.rs`), and drags move copy mode's selection.
//! A key first clears a message (or, with `display-message -N`, goes nowhere while it
//! shows); while a prompt is asked, keys go to it before any table. Keys after one whose
//! binding moved the client or ended its session are read where the client is then.
//!
//! Invariants: every client in the list is attached to a session that exists (a client whose
//! session ends is detached, with `[exited]`, before it is drawn again);
//! `Session::attached` is the number of clients on each session; a request waiting on a
//! client's prompt is released (declined) when that client leaves.

use super::control::{Control, Seen};
use super::copy_mode::{CopyMode, Mark};
use super::format;
use super::format_draw::{self, Cell};
use super::key_bindings::Binding;
use super::keys::{self, Key, KeyModes};
use super::mouse::{Clicks, MouseAt, MouseEvent, Place};
use super::options::Value;
use super::prompt::Prompt;
use super::style::{self, Pen};
use super::target::Found;
use super::{Ctx, Engine, Request};
use crate::protocol::ClientTerminal;
use crate::term::{mode, CaptureOptions, LineSpec, TextLine};

/// Shortest time between two frames for one client (about 60 a second).
pub const FRAME_INTERVAL_MS: u64 = 16;

/// Why a client's attachment ended: the message it prints in brackets and its exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// detach-client, `C-b d`, another client's `attach -d`; with `hup` the client also sends
    /// SIGHUP to its parent (`detach-client -P`, `attach -x`).
    Detached { session: String, hup: bool },
    /// The session ended.
    Exited,
    /// kill-server.
    ServerExited,
    /// A control client's end, whatever the cause: the lines it had not been sent yet, then
    /// it prints `%exit` and the reason (empty but for `too far behind`), and exits with the
    /// status (1 once a command it ran failed).
    Control {
        text: Vec<u8>,
        reason: String,
        status: u8,
        /// `wait-exit`: it waits for an empty line after `%exit`.
        wait: bool,
    },
}

impl Exit {
    /// The message, as tmux's client prints it (without the brackets).
    pub fn message(&self) -> String {
        match self {
            Exit::Detached {
                session,
                hup: false,
            } => format!("detached (from session {session})"),
            Exit::Detached { session, hup: true } => {
                format!("detached and SIGHUP (from session {session})")
            }
            Exit::Exited => "exited".into(),
            Exit::ServerExited => "server exited".into(),
            Exit::Control { reason, .. } => reason.clone(),
        }
    }

    /// The client's exit status (tmux's client exits 1 only when the server went away).
    pub fn status(&self) -> u8 {
        match self {
            Exit::Control { status, .. } => *status,
            exit => matches!(exit, Exit::ServerExited) as u8,
        }
    }

    /// Whether the client takes one more step before it exits: SIGHUP to its parent (a
    /// terminal's client), waiting for an empty line (a control client with `wait-exit`).
    pub fn last_step(&self) -> bool {
        match self {
            Exit::Control { wait, .. } => *wait,
            exit => matches!(exit, Exit::Detached { hup: true, .. }),
        }
    }
}

/// How a client attaches (attach-session's flags).
#[derive(Clone, Copy, Debug, Default)]
pub struct AttachFlags {
    pub readonly: bool,
    pub ignore_size: bool,
    /// `-d`: detach the session's other clients; `-x` also sends their parents SIGHUP.
    pub detach_others: bool,
    pub hup_others: bool,
}

/// How a window's size follows its session's clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SizePolicy {
    Smallest,
    Largest,
    Latest,
    Manual,
}

/// A message shown in place of a client's status line, as tmux's `status_message_set`
/// shows one (display-message, an error of a command a key ran).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusMessage {
    pub text: String,
    /// How long it shows (ms): `None` is the session's `display-time`; 0 until a key.
    pub delay: Option<u64>,
    /// `#[style]` directives in the text are drawn (display-message's), rather than shown as
    /// they are (an error's).
    pub styled: bool,
    /// Keys typed while it shows (with a delay) go nowhere rather than clear it
    /// (`display-message -N`).
    pub holds_keys: bool,
}

impl StatusMessage {
    /// An error, shown for `display-time` as it is.
    pub fn error(text: String) -> StatusMessage {
        StatusMessage {
            text,
            delay: None,
            styled: false,
            holds_keys: false,
        }
    }
}

/// A message a client shows, and until when (monotonic ms; `None` until a key is typed).
#[derive(Debug)]
struct Shown {
    message: StatusMessage,
    until: Option<u64>,
}

/// One attached client.
#[derive(Debug)]
pub struct Client {
    /// The server's id for the connection.
    pub conn: u64,
    /// The terminal's path (`/dev/pts/3`), or `client-PID` without one, as tmux names clients.
    pub name: String,
    pub tty: String,
    pub term: String,
    pub pid: u32,
    pub utf8: bool,
    pub cols: u32,
    pub rows: u32,
    pub readonly: bool,
    pub ignore_size: bool,
    /// The session's id.
    pub session: u32,
    pub last_session: Option<u32>,
    pub created: i64,
    pub activity: i64,
    /// Orders clients by their last activity (tmux compares microsecond times).
    activity_seq: u64,
    /// The key table the client's next key is looked up in (`prefix` after the prefix key,
    /// `switch-client -T`); `None`: the session's `key-table` (`root`).
    pub key_table: Option<String>,
    /// Until when (monotonic ms) a repeating binding keeps the client in its table.
    repeat_until: Option<u64>,
    /// Copy mode or view mode over the pane (`engine/copy_mode.rs`).
    pub(super) view: Option<Box<CopyMode>>,
    message: Option<Shown>,
    /// A prompt waiting for keys (command-prompt, confirm-before); a message shows over it.
    pub(super) prompt: Option<Prompt>,
    pub(super) dirty: bool,
    last_draw: Option<u64>,
    last_frame: Vec<u8>,
    /// The status lines last drawn, each line's bytes, and what they were drawn from
    /// (`engine/status_line.rs`).
    pub(super) status_drawn: Option<(u64, Vec<Vec<u8>>)>,
    /// Inside a bracketed paste from the terminal: keys go through uninterpreted.
    pasting: bool,
    /// Bytes for the terminal itself (the clipboard's escape sequence), sent before the
    /// next frame.
    pub(super) passthrough: Vec<u8>,
    /// The terminal's last mouse report (a release is named for the button pressed before).
    last_mouse: Option<MouseEvent>,
    /// A mouse drag under way.
    pub(super) drag: Option<Drag>,
    /// Presses counted into double and triple clicks.
    clicks: Clicks,
    /// What the terminal sent while commands the client ran wait, read once they end (as
    /// tmux's client queue holds key events behind a waiting command).
    pub(super) held_input: Vec<u8>,
    /// Clock mode shown in place of the pane (`engine/client_clock.rs`).
    pub(super) clock: Option<super::clock::Clock>,
    /// Tree mode shown in place of the pane (`engine/client_tree.rs`).
    pub(super) tree: Option<Box<super::tree_mode::TreeMode>>,
    /// A control-mode client's state (`engine/control.rs`): such a client is never drawn.
    pub(super) control: Option<Box<Control>>,
}

/// Most input held for a client while its commands wait; a terminal that sends more meanwhile
/// loses the rest, so a command that waits for ever cannot make the server grow without end.
pub(super) const HELD_INPUT_LIMIT: usize = 1 << 20;

impl Client {
    /// Whether the client's size counts for its session's windows: not with ignore-size, nor
    /// for a control client refresh-client -C has not sized.
    fn sizes_windows(&self) -> bool {
        !self.ignore_size && self.control.as_ref().is_none_or(|ctl| ctl.sized)
    }

    fn hold_input(&mut self, bytes: &[u8]) {
        let room = HELD_INPUT_LIMIT.saturating_sub(self.held_input.len());
        self.held_input
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }
}

/// A mouse drag: the button bits of its press, whether it moves a copy-mode selection, and
/// when copy mode next scrolls while it is held on the top or bottom row.
#[derive(Clone, Copy, Debug)]
pub struct Drag {
    pressed: u32,
    pub(super) selecting: bool,
    pub(super) scroll_at: Option<u64>,
}

/// Every attached client, in the order they attached (tmux's client list order).
#[derive(Debug, Default)]
pub struct Clients {
    pub(super) list: Vec<Client>,
    exits: Vec<(u64, Exit)>,
    seq: u64,
    /// When status lines are next redrawn for their clock (monotonic ms).
    next_status: u64,
    /// Clients whose prompt a request waits on, with that request's client: a client that
    /// leaves declines its prompt, so the request does not wait for ever.
    pub(super) prompt_waiters: Vec<(u64, u64)>,
    /// When each session was last attached, switched to or typed in, as a sequence number:
    /// sessions' activity times are whole seconds, and tmux tells apart events within one.
    session_seq: std::collections::HashMap<u32, u64>,
    /// Commands run with control mode's guard lines so far (the lines' NUMBER).
    pub(super) commands_run: u32,
    /// Moves on with every command and every `status-interval`: status lines are drawn
    /// again when it has moved (see `engine/status_line.rs`).
    pub(super) status_generation: u64,
    /// What a control client's request found before it ran: the client, once attached, is
    /// told what the request changed.
    pub(super) control_before: Option<(u64, Seen)>,
    /// Sessions killed (not ended by their last program) since control clients were last
    /// told: tmux reports their windows' close after `%sessions-changed`.
    pub(super) sessions_killed: Vec<u32>,
    /// Panes over which a mode opened or closed since control clients were last told.
    pub(super) modes_changed: Vec<u32>,
}

impl Clients {
    /// Something any client may show changed: draw them all again (unchanged frames are not
    /// sent).
    pub fn touch_all(&mut self) {
        for c in &mut self.list {
            c.dirty = true;
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Client> {
        self.list.iter()
    }

    pub fn get(&self, conn: u64) -> Option<&Client> {
        self.list.iter().find(|c| c.conn == conn)
    }

    /// Puts a prompt on a client (clearing its message) or takes it off; the prompt it had.
    /// `None` when there is no such client.
    pub(super) fn replace_prompt(
        &mut self,
        conn: u64,
        new: Option<Prompt>,
    ) -> Option<Option<Prompt>> {
        let c = self.get_mut(conn)?;
        if new.is_some() {
            c.message = None;
        }
        c.dirty = true;
        Some(std::mem::replace(&mut c.prompt, new))
    }

    pub(super) fn get_mut(&mut self, conn: u64) -> Option<&mut Client> {
        self.list.iter_mut().find(|c| c.conn == conn)
    }

    pub fn is_attached(&self, conn: u64) -> bool {
        self.get(conn).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Clients whose attachment ended since the last call, with why.
    pub fn take_exits(&mut self) -> Vec<(u64, Exit)> {
        std::mem::take(&mut self.exits)
    }

    fn bump(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// Marks a session active now (and returns the new sequence number).
    fn touch_session(&mut self, session: u32) -> u64 {
        let seq = self.bump();
        self.session_seq.insert(session, seq);
        seq
    }

    fn session_seq(&self, session: u32) -> u64 {
        self.session_seq.get(&session).copied().unwrap_or(0)
    }
}

impl Engine {
    /// An option as session `si` (window `wi` of it, for window options) sees it: its own
    /// value, else the global one, else `default`.
    pub(super) fn option_or(
        &self,
        si: Option<usize>,
        wi: Option<usize>,
        name: &str,
        default: &str,
    ) -> String {
        let session = si.map(|i| &self.sessions[i]);
        let value = match (session, wi) {
            (Some(s), Some(w)) => self.options.pane_value(Some(&s.windows[w]), name),
            (s, _) => self.options.session_value(s, name),
        };
        value
            .and_then(Value::as_str)
            .or_else(|| self.options.get(name))
            .map_or_else(|| default.to_string(), str::to_string)
    }

    pub(super) fn session_index(&self, id: u32) -> Option<usize> {
        self.sessions.iter().position(|s| s.id == id)
    }

    /// The size windows of session `si` (or of a new session) get for a client of this
    /// terminal size.
    pub fn window_size_for(&self, si: Option<usize>, cols: u32, rows: u32) -> (u32, u32) {
        let status = self.status_lines(si);
        (cols.max(1), if rows > status { rows - status } else { 1 })
    }

    /// tmux's nesting check: a client running inside one of this server's panes may not
    /// attach (it would draw itself).
    pub fn is_nested(&self, req: &Request) -> bool {
        if req.env.get("ZEROPTY").is_none_or(|v| v.is_empty()) {
            return false;
        }
        let tty = req.terminal.as_ref().map_or("", |t| t.tty.as_str());
        let pane = req
            .env
            .get("ZEROPTY_PANE")
            .and_then(|p| p.strip_prefix('%'))
            .and_then(|p| p.parse::<u32>().ok());
        self.panes()
            .any(|p| (!tty.is_empty() && p.tty == tty) || Some(p.id) == pane)
    }

    /// tmux's best session: the most recently active, unattached ones first if asked.
    pub fn best_session(&self, prefer_unattached: bool) -> Option<usize> {
        (0..self.sessions.len()).max_by_key(|&i| {
            let s = &self.sessions[i];
            (
                prefer_unattached && s.attached == 0,
                s.activity,
                self.clients.session_seq(s.id),
                s.id,
            )
        })
    }

    /// The client a command acts on when it names none (tmux's current client): the client
    /// the command came from if it is attached, else the most recently active client of the
    /// session the command runs in (or of the most recently active session).
    pub fn current_client(&self, ctx: &Ctx<'_>) -> Result<u64, String> {
        if let Some(conn) = ctx.req.client.filter(|&c| self.clients.is_attached(c)) {
            return Ok(conn);
        }
        // The session the command runs in (its pane's), else the most recently active one.
        let inside = ctx.calling_pane.and_then(|p| {
            self.sessions
                .iter()
                .position(|s| s.windows.iter().any(|w| w.pane.id == p))
        });
        inside
            .or_else(|| self.best_session(false))
            .and_then(|si| self.best_client(self.sessions[si].id))
            .ok_or_else(|| "no current client".to_string())
    }

    /// The most recently active client attached to a session.
    pub fn best_client(&self, session: u32) -> Option<u64> {
        self.clients
            .list
            .iter()
            .filter(|c| c.session == session)
            .max_by_key(|c| c.activity_seq)
            .map(|c| c.conn)
    }

    /// `-t target-client`: a client by name or terminal (`/dev/` may be left out; one
    /// trailing colon is ignored), or the current client.
    pub fn find_client(&self, ctx: &Ctx<'_>, name: Option<&str>) -> Result<u64, String> {
        let Some(name) = name else {
            return self.current_client(ctx);
        };
        let name = name.strip_suffix(':').unwrap_or(name);
        self.clients
            .list
            .iter()
            .find(|c| {
                c.name == name
                    || (!c.tty.is_empty()
                        && (c.tty == name || c.tty.strip_prefix("/dev/") == Some(name)))
            })
            .map(|c| c.conn)
            .ok_or_else(|| format!("can't find client: {name}"))
    }

    /// Attaches the requesting client to session `si` (attach-session, new-session), or
    /// moves it there if it is attached already.
    pub fn attach_client(
        &mut self,
        ctx: &Ctx<'_>,
        si: usize,
        flags: AttachFlags,
    ) -> Result<(), String> {
        let sid = self.sessions[si].id;
        let conn = ctx.req.client;
        if let Some(conn) = conn.filter(|&c| self.clients.is_attached(c)) {
            if flags.detach_others {
                self.detach_session_clients(sid, Some(conn), flags.hup_others);
            }
            if let Some(c) = self.clients.get_mut(conn) {
                c.readonly |= flags.readonly;
                c.ignore_size |= flags.ignore_size;
            }
            self.switch_client(conn, si);
            return Ok(());
        }
        let (Some(conn), Some(t)) = (conn, ctx.req.terminal.as_ref()) else {
            return Err("open terminal failed: not a terminal".into());
        };
        if flags.detach_others {
            self.detach_session_clients(sid, None, flags.hup_others);
        }
        let now = self.host.wall_time();
        let seq = self.clients.bump();
        let mut client = new_client(conn, t, sid, now, seq, flags);
        if ctx.req.control.is_some() {
            let seen = match self.clients.control_before.take() {
                Some((before, seen)) if before == conn => seen,
                _ => Seen::of(self, conn),
            };
            // Unsized until refresh-client -C: tmux's default for a control client.
            (client.cols, client.rows) = (80, 24);
            client.control = Some(Box::new(Control::new(seen)));
        }
        self.clients.list.push(client);
        self.clients.touch_session(sid);
        self.sessions[si].activity = now;
        self.sessions[si].last_attached = now;
        self.sync_clients();
        self.client_hook("client-attached", sid);
        Ok(())
    }

    /// Moves an attached client to session `si`.
    pub fn switch_client(&mut self, conn: u64, si: usize) {
        let sid = self.sessions[si].id;
        let now = self.host.wall_time();
        let seq = self.clients.bump();
        let shown = self.client_pane(conn);
        let Some(c) = self.clients.get_mut(conn) else {
            return;
        };
        let changed = c.session != sid;
        if changed {
            c.last_session = Some(c.session);
        }
        c.session = sid;
        let left_view =
            c.view.take().is_some() | c.clock.take().is_some() | c.tree.take().is_some();
        c.key_table = None;
        c.repeat_until = None;
        c.activity_seq = seq;
        self.clients.touch_session(sid);
        self.sessions[si].activity = now;
        self.sessions[si].last_attached = now;
        self.sync_clients();
        if let Some(pane) = shown.filter(|_| left_view) {
            self.pane_mode_changed(pane);
        }
        if changed {
            self.client_hook("client-session-changed", sid);
        }
    }

    /// Queues a client hook (client-attached...) for the session it concerns.
    fn client_hook(&mut self, name: &'static str, session: u32) {
        self.pending_hooks.push(super::options::HookEvent {
            name,
            session: Some(session),
            pane: None,
        });
    }

    /// Ends a client's attachment with "detached".
    pub fn detach_client(&mut self, conn: u64, hup: bool) {
        let Some(c) = self.clients.get(conn) else {
            return;
        };
        let sid = c.session;
        let session = self
            .session_index(sid)
            .map(|si| self.sessions[si].name.clone())
            .unwrap_or_default();
        self.let_go(conn, Exit::Detached { session, hup });
        self.client_hook("client-detached", sid);
    }

    /// Ends a client's attachment: it leaves the list and is told why (a control client
    /// only that it ends).
    pub(super) fn let_go(&mut self, conn: u64, exit: Exit) {
        if self.is_control(conn) {
            // What changed before it left, it hears.
            self.control_notify_all();
        }
        let Some(pos) = self.clients.list.iter().position(|c| c.conn == conn) else {
            return;
        };
        let c = self.clients.list.remove(pos);
        self.clients.exits.push((conn, exit_for(c, exit)));
        self.sync_clients();
    }

    /// Detaches every client of a session, except `keep`.
    pub fn detach_session_clients(&mut self, session: u32, keep: Option<u64>, hup: bool) {
        let victims: Vec<u64> = self
            .clients
            .list
            .iter()
            .filter(|c| c.session == session && Some(c.conn) != keep)
            .map(|c| c.conn)
            .collect();
        for conn in victims {
            self.detach_client(conn, hup);
        }
    }

    /// Changes a client's read-only flag (switch-client -r toggles it).
    pub fn set_client_readonly(&mut self, conn: u64, readonly: bool) {
        self.set_client_flags(conn, readonly, readonly);
    }

    /// Sets a client's read-only and ignore-size flags (refresh-client -f).
    pub fn set_client_flags(&mut self, conn: u64, readonly: bool, ignore_size: bool) {
        if let Some(c) = self.clients.get_mut(conn) {
            c.readonly = readonly;
            c.ignore_size = ignore_size;
        }
        self.sync_clients();
    }

    /// Draws a client again (refresh-client).
    pub fn redraw_client(&mut self, conn: u64) {
        if let Some(c) = self.clients.get_mut(conn) {
            c.dirty = true;
            c.last_frame.clear();
        }
    }

    /// Shows a message in place of a client's status line, replacing any it showed, and logs
    /// it (`NAME message: TEXT`).
    pub fn show_message(&mut self, conn: u64, message: StatusMessage) {
        let Some(c) = self.clients.get(conn) else {
            return;
        };
        let entry = format!("{} message: {}", c.name, message.text);
        let si = self.session_index(c.session);
        let delay = message.delay.unwrap_or_else(|| {
            self.option_or(si, None, "display-time", "750")
                .parse()
                .unwrap_or(750)
        });
        let now = self.host.now_ms();
        self.log_message(entry);
        if let Some(c) = self.clients.get_mut(conn) {
            let holds_keys = message.holds_keys && delay != 0;
            c.message = Some(Shown {
                message: StatusMessage {
                    holds_keys,
                    ..message
                },
                until: (delay != 0).then(|| now.saturating_add(delay)),
            });
            c.dirty = true;
        }
    }

    /// The `=` target while a mouse binding of the client runs: the window whose name in the
    /// status line was clicked, else the one the client shows.
    pub fn mouse_target(&self, conn: u64) -> Option<Found> {
        let place = self.client_place(conn)?;
        let clicked = self
            .mouse_event
            .filter(|at| at.client == conn)
            .and_then(|at| at.window)
            .filter(|&wi| wi < self.sessions[place.session].windows.len());
        Some(Found {
            window: clicked.unwrap_or(place.window),
            ..place
        })
    }

    /// Where a client is: its session's current window.
    pub fn client_place(&self, conn: u64) -> Option<Found> {
        let si = self.session_index(self.clients.get(conn)?.session)?;
        Some(Found {
            session: si,
            window: self.sessions[si].current,
        })
    }

    /// Sets the key table a client's next key is looked up in (switch-client -T).
    pub fn set_client_key_table(&mut self, conn: u64, table: Option<String>) {
        if let Some(c) = self.clients.get_mut(conn) {
            c.key_table = table;
            c.repeat_until = None;
        }
    }

    /// A key table is gone: clients in it go back to their session's.
    pub fn key_table_removed(&mut self, table: &str) {
        for c in &mut self.clients.list {
            if c.key_table.as_deref() == Some(table) {
                c.key_table = None;
                c.repeat_until = None;
            }
        }
    }

    /// The key table a client's next key is looked up in, as `#{client_key_table}` shows it.
    pub fn client_key_table(&self, c: &Client) -> String {
        c.key_table
            .clone()
            .unwrap_or_else(|| self.default_key_table(c))
    }

    /// Whether a client's next key is looked up in another table than its session's
    /// `key-table` (`#{client_prefix}`).
    pub fn client_prefix(&self, c: &Client) -> bool {
        c.key_table
            .as_ref()
            .is_some_and(|t| *t != self.default_key_table(c))
    }

    fn default_key_table(&self, c: &Client) -> String {
        let si = self.session_index(c.session);
        self.option_or(si, None, "key-table", "root")
    }

    /// The server is stopping: every client is told so.
    pub fn end_all_clients(&mut self) {
        self.control_notify_all();
        for c in std::mem::take(&mut self.clients.list) {
            let conn = c.conn;
            self.clients
                .exits
                .push((conn, exit_for(c, Exit::ServerExited)));
        }
    }

    /// A client's connection closed: forget it (and anything it waited for).
    pub fn client_gone(&mut self, conn: u64) {
        self.forget_waiting(conn);
        if let Some(pos) = self.clients.list.iter().position(|c| c.conn == conn) {
            self.clients.list.remove(pos);
            self.sync_clients();
        }
    }

    /// A client's terminal changed size.
    pub fn client_resize(&mut self, conn: u64, cols: u32, rows: u32) {
        let Some(c) = self.clients.get_mut(conn) else {
            return;
        };
        let changed = (c.cols, c.rows) != (cols.max(1), rows.max(1));
        c.cols = cols.max(1);
        c.rows = rows.max(1);
        let session = c.session;
        self.sync_clients();
        if changed {
            self.client_hook("client-resized", session);
            super::commands::run_pending_hooks(self);
        }
    }

    /// A program's terminal had an event: redraw the clients showing its pane.
    pub fn client_terminal_event(&mut self, io: super::os::IoId) {
        if self.clients.is_empty() {
            return;
        }
        if let Some(&pane) = self.panes_by_io.get(&io) {
            self.touch_pane(pane);
        }
    }

    fn touch_pane(&mut self, pane: u32) {
        for i in 0..self.clients.list.len() {
            if self.session_shows(self.clients.list[i].session, pane) {
                self.clients.list[i].dirty = true;
            }
        }
    }

    /// Whether a session's current window shows the pane (what its clients see).
    pub(super) fn session_shows(&self, session: u32, pane: u32) -> bool {
        self.sessions
            .iter()
            .find(|s| s.id == session)
            .is_some_and(|s| s.current_window().pane.id == pane)
    }

    /// Counts clients per session, sizes windows and redraws everyone.
    fn sync_clients(&mut self) {
        let list = &self.clients.list;
        let (kept, gone): (Vec<_>, Vec<_>) = std::mem::take(&mut self.clients.prompt_waiters)
            .into_iter()
            .partition(|(conn, _)| list.iter().any(|c| c.conn == *conn));
        self.clients.prompt_waiters = kept;
        for (_, waiter) in gone {
            self.waits.finish(waiter, Ok(Vec::new()), Some(1));
        }
        for s in self.sessions.iter_mut() {
            s.attached = self
                .clients
                .list
                .iter()
                .filter(|c| c.session == s.id)
                .count() as u32;
        }
        self.apply_sizes();
        self.clients.touch_all();
    }

    /// Gives every window of each attached session the smallest size among its clients.
    fn apply_sizes(&mut self) {
        let mut attached: Vec<u32> = self.clients.list.iter().map(|c| c.session).collect();
        attached.sort_unstable();
        attached.dedup();
        for sid in attached {
            let Some(si) = self.session_index(sid) else {
                continue;
            };
            for wi in 0..self.sessions[si].windows.len() {
                let policy = self.window_size_policy(si, wi);
                let Some((cols, rows)) = self.clients_window_size(si, policy) else {
                    continue;
                };
                let t = &self.sessions[si].windows[wi].pane.term;
                if (t.cols(), t.rows()) != (cols, rows) {
                    self.resize_pane(si, wi, cols, rows);
                }
            }
        }
    }

    /// The size a new window of session `si` takes from the session's clients (none when
    /// nobody sizes it, or `window-size` is `manual`), so it starts at the size they would
    /// give it rather than being resized as soon as it starts.
    pub(super) fn new_window_size(&self, si: usize) -> Option<(u32, u32)> {
        let policy = match self.options.get("window-size") {
            Some("manual") => SizePolicy::Manual,
            Some("largest") => SizePolicy::Largest,
            _ => SizePolicy::Smallest,
        };
        self.clients_window_size(si, policy)
    }

    /// The size session `si`'s clients give a window that follows `policy`.
    fn clients_window_size(&self, si: usize, policy: SizePolicy) -> Option<(u32, u32)> {
        let sid = self.sessions[si].id;
        let sizing = self
            .clients
            .list
            .iter()
            .filter(|c| c.session == sid && c.sizes_windows())
            .map(|c| {
                // A control client has no status line to leave room for.
                let (cols, rows) = match c.control {
                    Some(_) => (c.cols, c.rows),
                    None => self.window_size_for(Some(si), c.cols, c.rows),
                };
                (cols, rows, c.activity_seq)
            });
        match policy {
            SizePolicy::Manual => None,
            SizePolicy::Smallest => sizing
                .map(|(c, r, _)| (c, r))
                .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1))),
            SizePolicy::Largest => sizing
                .map(|(c, r, _)| (c, r))
                .reduce(|a, b| (a.0.max(b.0), a.1.max(b.1))),
            SizePolicy::Latest => sizing
                .max_by_key(|&(_, _, seq)| seq)
                .map(|(c, r, _)| (c, r)),
        }
    }

    /// How a window follows its clients' sizes: the `window-size` option. The global default
    /// (tmux's `latest`) is taken as `smallest`, so every client sees the whole window; a
    /// window's own value (`manual` after resize-window, or set with set-window-option) and
    /// a global value set to something else are followed.
    fn window_size_policy(&self, si: usize, wi: usize) -> SizePolicy {
        let w = &self.sessions[si].windows[wi];
        let local = w.window_options("window-size").and_then(Value::as_str);
        let value = local.or_else(|| self.options.get("window-size"));
        match (local.is_some(), value) {
            (_, Some("manual")) => SizePolicy::Manual,
            (_, Some("largest")) => SizePolicy::Largest,
            (true, Some("latest")) => SizePolicy::Latest,
            _ => SizePolicy::Smallest,
        }
    }

    /// Resizes a window's pane: output already written is parsed at the old size first, then
    /// the screen reflows and the program is told (a PTY's kernel sends SIGWINCH itself; the
    /// socket backend's programs get it from here). Copy and view modes over the pane follow
    /// it, as tmux resizes a pane's mode with the pane.
    pub(super) fn resize_pane(&mut self, si: usize, wi: usize, cols: u32, rows: u32) {
        let id = self.sessions[si].windows[wi].pane.id;
        let Some((cols, rows)) = self.with_pane(id, |pane, os, now| {
            pane.resize(os, now, cols, rows);
            (pane.term.cols(), pane.term.rows())
        }) else {
            return;
        };
        let showing: Vec<u64> = self
            .clients
            .list
            .iter()
            .filter(|c| c.view.is_some() && self.client_pane(c.conn) == Some(id))
            .map(|c| c.conn)
            .collect();
        for conn in showing {
            if let Some(c) = self.clients.get_mut(conn) {
                if let Some(view) = c.view.as_mut() {
                    view.resize(cols, rows);
                }
                c.dirty = true;
            }
        }
        self.refresh_clocks(Some(id));
    }

    /// Work for every turn of the host's loop: clients whose session ended are detached (or
    /// moved on, with detach-on-destroy off), new windows get their session's size, and the
    /// status line's clock is redrawn.
    pub fn clients_tick(&mut self) {
        // Requests that a leaving client's prompt released go on.
        self.resume_ready();
        if self.clients.is_empty() {
            return;
        }
        // Before clients of sessions that ended leave, so their control clients hear it.
        self.control_notify_all();
        let orphans: Vec<u64> = self
            .clients
            .list
            .iter()
            .filter(|c| self.session_index(c.session).is_none())
            .map(|c| c.conn)
            .collect();
        for conn in orphans {
            let next = match self.options.get("detach-on-destroy") {
                // The session is gone, so its own value is too: the global one applies.
                Some("off") => self.best_session(false),
                _ => None,
            };
            match next {
                Some(si) => self.switch_client(conn, si),
                None => self.let_go(conn, Exit::Exited),
            }
        }
        // And those that the prompts of clients whose session ended released.
        self.resume_ready();
        self.apply_sizes();
        if super::commands::refresh_shown_names(self) {
            self.clients.touch_all();
        }
        let awaiting: Vec<u64> = self
            .clients
            .list
            .iter()
            .filter(|c| c.clicks.deadline().is_some())
            .map(|c| c.conn)
            .collect();
        for conn in awaiting {
            self.expire_clicks(conn);
        }
        self.refresh_clocks(None);
        let now = self.host.now_ms();
        for c in &mut self.clients.list {
            c.scroll_held_drag(now);
        }
        for c in &mut self.clients.list {
            if c.message
                .as_ref()
                .is_some_and(|m| m.until.is_some_and(|t| now >= t))
            {
                c.message = None;
                c.dirty = true;
            }
        }
        if now >= self.clients.next_status {
            let secs = self
                .options
                .get("status-interval")
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(15);
            // A clock redraw only sends anything when the text changed.
            self.clients.next_status = now + secs.clamp(1, 3600) * 1000;
            self.clients.status_generation += 1;
            self.clients.touch_all();
        }
        self.control_tick();
    }

    /// When a client that can be written to next needs drawing (monotonic ms).
    pub fn clients_deadline(&self, writable: impl Fn(u64) -> bool) -> Option<u64> {
        if self.clients.is_empty() {
            return None;
        }
        self.clients
            .list
            .iter()
            .filter(|c| c.dirty && c.control.is_none() && writable(c.conn))
            .map(|c| c.last_draw.map_or(0, |t| t + FRAME_INTERVAL_MS))
            .chain(
                self.clients
                    .list
                    .iter()
                    .filter_map(|c| c.message.as_ref()?.until),
            )
            .chain(self.clients.list.iter().filter_map(|c| c.clicks.deadline()))
            .chain(self.clients.list.iter().filter_map(|c| c.drag?.scroll_at))
            .chain(self.clocks_deadline())
            .chain(self.subscriptions_deadline())
            .chain(self.pauses_deadline())
            .chain(std::iter::once(self.clients.next_status))
            .chain(self.shown_name_checks())
            .min()
    }

    /// When the automatic names of the windows clients show, changed since last checked, may
    /// be checked again (at most every 500 ms, as in tmux).
    fn shown_name_checks(&self) -> impl Iterator<Item = u64> + '_ {
        self.sessions
            .iter()
            .filter(|s| s.attached > 0)
            .flat_map(|s| &s.windows)
            .filter(|w| {
                self.names_due.contains(&w.pane.id) && w.pane.bytes_read != w.name_checked.0
            })
            .map(|w| w.name_checked.1 + super::commands::NAME_INTERVAL_MS)
    }

    /// A view opened or closed on a pane: its window's automatic name (`[tmux]` in a mode)
    /// is checked again, as tmux checks it after a mode change.
    pub(super) fn pane_mode_changed(&mut self, pane: u32) {
        self.note_mode_changed(pane);
        if let Some((si, wi)) = self.locate_pane(pane) {
            self.sessions[si].windows[wi].name_checked.0 = u64::MAX;
            self.names_due.insert(pane);
        }
    }

    /// The frame to send a client now, if it is due and differs from the last one.
    pub fn client_frame(&mut self, conn: u64) -> Option<Vec<u8>> {
        let now = self.host.now_ms();
        let c = self.clients.get(conn)?;
        if c.control.is_some()
            || !c.dirty
            || c.last_draw.is_some_and(|t| now < t + FRAME_INTERVAL_MS)
        {
            return None;
        }
        self.follow_history(conn);
        self.refresh_tree(conn);
        self.refresh_status(conn);
        let frame = self.render(self.clients.get(conn)?)?;
        let c = self.clients.get_mut(conn)?;
        c.dirty = false;
        c.last_draw = Some(now);
        let mut out = std::mem::take(&mut c.passthrough);
        if frame != c.last_frame {
            out.extend_from_slice(&frame);
            c.last_frame = frame;
        }
        (!out.is_empty()).then_some(out)
    }

    /// Reads what the shown pane's program wrote, as every reader of a screen does first.
    fn follow_history(&mut self, conn: u64) {
        let Some(c) = self.clients.get(conn) else {
            return;
        };
        let Some(si) = self.session_index(c.session) else {
            return;
        };
        let pane_id = self.sessions[si].current_window().pane.id;
        self.read_screen(pane_id);
        self.with_pane(pane_id, |pane, os, _| {
            // Its events are wanted at once from now on, not from its next one (which then
            // finds whether anyone still shows it).
            if !pane.shown {
                pane.shown = true;
                pane.update_watch(os);
            }
        });
    }

    // ---- input ----

    /// Bytes typed on a client's terminal.
    pub fn client_input(&mut self, conn: u64, bytes: &[u8]) {
        if self.is_control(conn) {
            self.control_input(conn, bytes);
            return;
        }
        let now = self.host.wall_time();
        let seq = self.clients.bump();
        let waits = self.waits.client_run_waits(conn);
        let Some(c) = self.clients.get_mut(conn) else {
            return;
        };
        if waits || !c.held_input.is_empty() {
            c.hold_input(bytes);
            return;
        }
        // A key clears a message, or goes nowhere while one that holds keys shows.
        if let Some(shown) = c.message.as_ref().filter(|_| !c.readonly) {
            if shown.message.holds_keys {
                return;
            }
            c.message = None;
            c.dirty = true;
        }
        c.activity = now;
        c.activity_seq = seq;
        let session = c.session;
        self.clients.touch_session(session);
        let si = self.session_index(session);
        if let Some(si) = si {
            // Typing makes the session the most recently active, as in tmux.
            self.sessions[si].activity = now;
        }
        let (mut si, mut prefixes) = (si, self.prefix_keys(si));
        let mut forward = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if self.waits.client_run_waits(conn) {
                // A key's commands wait: the rest is read after them.
                if let Some(c) = self.clients.get_mut(conn) {
                    c.hold_input(&bytes[i..]);
                }
                break;
            }
            let Some(c) = self.clients.get_mut(conn) else {
                return;
            };
            let rest = &bytes[i..];
            if c.prompt.is_some() && c.readonly {
                // As in tmux, a read-only client's keys go nowhere while it shows a prompt.
                i += key_len(rest);
                continue;
            }
            if c.prompt.is_some() {
                let n = key_len(rest);
                self.send_forward(conn, &mut forward);
                let passed = self.prompt_key(conn, &rest[..n]);
                (si, prefixes) = self.input_place(conn);
                if !passed {
                    i += n;
                    continue;
                }
            }
            // A key a numeric prompt ended with goes on as a key, as in tmux.
            let Some(c) = self.clients.get_mut(conn) else {
                return;
            };
            if c.pasting {
                // Pasted text is never a key binding; it ends at the terminal's end marker.
                let marker = find(rest, PASTE_END);
                c.pasting = marker.is_none();
                let end = marker.map_or(rest.len(), |p| p + PASTE_END.len());
                if c.view.is_none() {
                    forward.extend_from_slice(&rest[..end]);
                }
                i += end;
                continue;
            }
            let n = key_len(rest);
            let key = &rest[..n];
            i += n;
            let mouse = MouseEvent::parse(key).filter(|_| self.mouse_on(si));
            if let Some(event) = mouse {
                self.send_forward(conn, &mut forward);
                self.mouse_input(conn, event, si);
                (si, prefixes) = self.input_place(conn);
                continue;
            }
            let is_prefix = prefixes.iter().any(|p| p.as_slice() == key);
            match self.key_action(conn, key, None, is_prefix, si) {
                KeyAction::Forward if self.close_clock(conn) => {}
                // Tree mode's Enter runs commands, which may move the client.
                KeyAction::Forward if self.tree_key(conn, key) => {
                    (si, prefixes) = self.input_place(conn);
                }
                KeyAction::Forward => {
                    if key == PASTE_START {
                        if let Some(c) = self.clients.get_mut(conn) {
                            c.pasting = true;
                        }
                    }
                    forward.extend_from_slice(key);
                }
                KeyAction::Drop => {}
                KeyAction::Run(key, binding) => {
                    self.send_forward(conn, &mut forward);
                    self.run_binding(conn, key, &binding);
                    (si, prefixes) = self.input_place(conn);
                }
            }
        }
        self.send_forward(conn, &mut forward);
    }

    /// Whether the session's `mouse` option is on: the terminal reports the mouse to zeropty.
    fn mouse_on(&self, si: Option<usize>) -> bool {
        self.option_or(si, None, "mouse", "off") == "on"
    }

    /// A mouse report from a client's terminal, with `mouse` on: named as a key and looked
    /// up in the key tables; a bound key runs with the event at hand (`send-keys -M`, the
    /// `=` target), an unbound one goes to the pane's program as its mouse mode asks.
    fn mouse_input(&mut self, conn: u64, event: MouseEvent, si: Option<usize>) {
        // A double click whose wait is over is named before the press that follows it.
        self.expire_clicks(conn);
        let now = self.host.now_ms();
        let Some(c) = self.clients.get_mut(conn) else {
            return;
        };
        let last = c.last_mouse.replace(event);
        if c.readonly {
            return;
        }
        let Some(c) = self.clients.get(conn) else {
            return;
        };
        // A click on a range naming no window is dropped, as tmux drops it.
        let Some((place, window)) = self.mouse_place(si, c, event) else {
            return;
        };
        let pressed = last.map_or(0, |l| l.b);
        let pane_event = self.pane_relative(si, c, event);
        let before = last.map(|l| self.pane_relative(si, c, l));
        // As tmux's: a drag is named where it starts; while it selects, its reports move the
        // selection; the release that ends it is its own key.
        let Some(c) = self.clients.get_mut(conn) else {
            return;
        };
        let name = match c.drag {
            Some(drag) if event.is_drag() && drag.selecting => {
                self.drag_to(conn, pane_event.x, pane_event.y);
                return;
            }
            Some(drag) if event.is_drag() => MouseEvent::drag_name(drag.pressed, place, false),
            None if event.is_drag() => {
                c.drag = Some(Drag {
                    pressed,
                    selecting: false,
                    scroll_at: None,
                });
                MouseEvent::drag_name(pressed, place, false)
            }
            Some(drag) if !event.is_wheel() => {
                c.drag = None;
                MouseEvent::drag_name(drag.pressed, place, true)
            }
            _ if event.is_press() => match c.clicks.press(event, now) {
                Some(what) => event.press_name(what, place),
                // Another button pressed while a click was awaited: tmux drops it.
                None => return,
            },
            _ => event.key_name(place, pressed),
        };
        let at = MouseAt {
            now: pane_event,
            before,
            ignored: false,
            client: conn,
            window,
        };
        self.mouse_key(conn, name, at, si);
    }

    /// Names the double clicks of clients whose wait for a third click is over, as tmux's
    /// click timer does.
    fn expire_clicks(&mut self, conn: u64) {
        let now = self.host.now_ms();
        let Some(c) = self.clients.get_mut(conn) else {
            return;
        };
        let Some(event) = c.clicks.expire(now) else {
            return;
        };
        let Some(c) = self.clients.get(conn).filter(|c| !c.readonly) else {
            return;
        };
        let si = self.session_index(c.session);
        let Some((place, window)) = self.mouse_place(si, c, event) else {
            return;
        };
        let at = MouseAt {
            now: self.pane_relative(si, c, event),
            before: None,
            ignored: true,
            client: conn,
            window,
        };
        self.mouse_key(conn, event.press_name("DoubleClick", place), at, si);
    }

    /// Runs the binding of a mouse key named `name`, with the event at hand; an event bound
    /// nowhere (or not named) goes to the pane's program, unless it is a name only.
    fn mouse_key(&mut self, conn: u64, name: Option<String>, at: MouseAt, si: Option<usize>) {
        let forward = |e: &mut Self| {
            if !at.ignored {
                e.mouse_to_pane(conn, at.now, at.before);
            }
        };
        let Some(key) = name.and_then(|n| keys::parse_key(&n)) else {
            forward(self);
            return;
        };
        match self.key_action(conn, &[], Some(key), false, si) {
            KeyAction::Run(key, binding) => {
                self.mouse_event = Some(at);
                self.run_binding(conn, key, &binding);
                self.mouse_event = None;
            }
            KeyAction::Forward => forward(self),
            KeyAction::Drop => {}
        }
    }

    /// A mouse event for the pane a client shows, as its program's mouse mode asks for it
    /// (nothing while the pane is shown in a mode).
    fn mouse_to_pane(&mut self, conn: u64, event: MouseEvent, last: Option<MouseEvent>) {
        let Some(pane) = self.client_pane(conn) else {
            return;
        };
        let in_mode = |c: &Client| c.view.is_some() || c.tree.is_some();
        if self.close_clock(conn) || self.clients.get(conn).is_some_and(in_mode) {
            return;
        }
        self.mouse_event_to(pane, event, last);
    }

    /// Types a mouse event into a pane in the form its program asked for.
    pub(super) fn mouse_event_to(
        &mut self,
        pane: u32,
        event: MouseEvent,
        last: Option<MouseEvent>,
    ) {
        let modes = self
            .panes()
            .find(|p| p.id == pane)
            .map_or(0, |p| p.term.mode());
        if let Some(bytes) = event.for_program(modes, last) {
            self.queue_keys(pane, &bytes);
            self.touch_pane(pane);
        }
    }

    /// The session a client's next key is read in and its prefix keys: what ran for the
    /// keys before may have moved the client or ended sessions.
    fn input_place(&self, conn: u64) -> (Option<usize>, Vec<Vec<u8>>) {
        let si = self
            .clients
            .get(conn)
            .and_then(|c| self.session_index(c.session));
        (si, self.prefix_keys(si))
    }

    /// What a key typed on a client does, decided as tmux 3.3a decides it
    /// (`server_client_key_callback`): the prefix key switches to the `prefix` table; a key
    /// bound in the client's table runs its binding, and a repeating one keeps the client in
    /// that table for `repeat-time` ms; a key bound nowhere in a table other than the
    /// session's `key-table` (`root`), or after a repeat, is looked up there again; a key
    /// bound nowhere goes to the pane, unless the table first tried was another.
    ///
    /// A client whose table changed is drawn again (`#{client_prefix}` may show it).
    fn key_action(
        &mut self,
        conn: u64,
        typed: &[u8],
        named: Option<Key>,
        is_prefix: bool,
        si: Option<usize>,
    ) -> KeyAction {
        let before = self.clients.get(conn).map(|c| c.key_table.clone());
        let action = self.find_key_action(conn, typed, named, is_prefix, si);
        if let Some(c) = self.clients.get_mut(conn) {
            if before.as_ref() != Some(&c.key_table) {
                c.dirty = true;
            }
        }
        action
    }

    fn find_key_action(
        &mut self,
        conn: u64,
        typed: &[u8],
        named: Option<Key>,
        is_prefix: bool,
        si: Option<usize>,
    ) -> KeyAction {
        let now = self.host.now_ms();
        let root = self.option_or(si, None, "key-table", "root");
        let repeat_time = self.option_or(si, None, "repeat-time", "500");
        let repeat_time: u64 = repeat_time.parse().unwrap_or(500);
        let typed_key = named.or_else(|| keys::typed_key(typed));
        // Only the sequences of named keys depend on the pane's modes.
        let modes = match typed_key {
            Some(_) => KeyModes::default(),
            None => self.client_key_modes(conn),
        };
        // In a view, keys are looked up first in the mode's table, as tmux looks them up for
        // a pane in copy or view mode.
        let mode_table = match self
            .option_or(
                si,
                si.map(|i| self.sessions[i].current),
                "mode-keys",
                "emacs",
            )
            .as_str()
        {
            "vi" => "copy-mode-vi",
            _ => "copy-mode",
        };
        let Some(c) = self.clients.get_mut(conn) else {
            return KeyAction::Drop;
        };
        if c.repeat_until.is_some_and(|until| now >= until) {
            c.repeat_until = None;
            c.key_table = None;
        }
        let was_repeating = c.repeat_until.is_some();
        let default_table = match c.view {
            Some(_) => mode_table.to_string(),
            None => root.clone(),
        };
        let mut table = c.key_table.clone().unwrap_or(default_table);
        let mut first = table.clone();
        loop {
            if is_prefix && table != "prefix" {
                c.key_table = Some("prefix".into());
                c.repeat_until = None;
                return KeyAction::Drop;
            }
            let binding = match typed_key {
                Some(key) => self.key_tables.binding(&table, key).map(|b| (key, b)),
                None => self
                    .key_tables
                    .binding_where(&table, |k| keys::encodes_as(k, typed, modes)),
            }
            .map(|(key, b)| (key, b.clone()));
            let binding = binding.or_else(|| {
                let b = self.key_tables.binding(&table, Key::ANY)?;
                Some((typed_key.unwrap_or(Key::ANY), b.clone()))
            });
            let repeating = c.repeat_until.is_some();
            if let Some((key, b)) = binding {
                if repeating && !b.repeat {
                    c.key_table = None;
                    c.repeat_until = None;
                    table = root.clone();
                    first = table.clone();
                    continue;
                }
                if repeat_time != 0 && b.repeat {
                    c.key_table = Some(table);
                    c.repeat_until = Some(now + repeat_time);
                } else {
                    c.key_table = None;
                    c.repeat_until = None;
                }
                return KeyAction::Run(key, b);
            }
            if table != root || repeating {
                c.key_table = None;
                c.repeat_until = None;
                table = root.clone();
                if repeating {
                    first = table.clone();
                }
                continue;
            }
            if first != table && !was_repeating {
                return KeyAction::Drop;
            }
            return KeyAction::Forward;
        }
    }

    /// The key modes of the pane a client shows, which its terminal follows.
    pub(super) fn client_key_modes(&self, conn: u64) -> KeyModes {
        let pane = self
            .clients
            .get(conn)
            .and_then(|c| self.session_index(c.session))
            .map(|si| &self.sessions[si].current_window().pane);
        pane.map_or_else(KeyModes::default, |p| KeyModes::from_mode(p.term.mode()))
    }

    /// The prefix keys (`prefix`, `prefix2`) as the bytes a terminal sends for them.
    fn prefix_keys(&self, si: Option<usize>) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for (name, default) in [("prefix", "C-b"), ("prefix2", "None")] {
            let value = self.option_or(si, None, name, default);
            if let Some(key) = keys::parse_key(&value) {
                let mut bytes = Vec::new();
                if keys::encode(key, KeyModes::default(), &mut bytes) && !bytes.is_empty() {
                    out.push(bytes);
                }
            }
        }
        out
    }

    /// The pane a client shows.
    pub(super) fn client_pane(&self, conn: u64) -> Option<u32> {
        let c = self.clients.get(conn)?;
        let si = self.session_index(c.session)?;
        Some(self.sessions[si].current_window().pane.id)
    }

    /// Gives keys collected for the pane to it (dropped for a read-only client).
    fn send_forward(&mut self, conn: u64, forward: &mut Vec<u8>) {
        if forward.is_empty() {
            return;
        }
        let keys = std::mem::take(forward);
        let Some(c) = self.clients.get(conn) else {
            return;
        };
        if c.readonly {
            return;
        }
        let Some(pane) = self.client_pane(conn) else {
            return;
        };
        self.queue_keys(pane, &keys);
        self.touch_pane(pane);
    }

    /// Runs a binding's commands for a client, as tmux's `key_bindings_dispatch`: a read-only
    /// client runs only bindings whose every command is one a read-only client may run.
    fn run_binding(&mut self, conn: u64, key: Key, binding: &Binding) {
        let Ok(cmds) = super::commands::command_lines(self, &binding.text()) else {
            return;
        };
        let readonly = self.clients.get(conn).is_some_and(|c| c.readonly);
        let allowed = |argv: &Vec<String>| {
            argv.first()
                .and_then(|name| super::commands::find(name).ok())
                .is_some_and(|def| READ_ONLY_COMMANDS.contains(&def.name))
        };
        if readonly && !cmds.iter().all(allowed) {
            return;
        }
        self.binding_key = Some(key);
        self.run_for_client(conn, cmds);
        self.binding_key = None;
    }

    /// Runs commands as a key binding of this client would: errors show on its status line,
    /// output in place of its pane; while commands it ran before wait, these wait after them.
    pub(super) fn run_for_client(&mut self, conn: u64, cmds: Vec<Vec<String>>) {
        if self.waits.queue_after_waiting(conn, &cmds) {
            return;
        }
        let mut env = std::collections::BTreeMap::new();
        if let Some(pane) = self.client_pane(conn) {
            env.insert("ZEROPTY_PANE".to_string(), format!("%{pane}"));
        }
        let cwd = self
            .clients
            .get(conn)
            .and_then(|c| self.session_index(c.session))
            .map_or_else(|| "/".to_string(), |si| self.sessions[si].cwd.clone());
        let req = Request {
            argv: Vec::new(),
            cwd,
            env: std::sync::Arc::new(env),
            client: Some(conn),
            terminal: None,
            stdin: None,
            pid: self.clients.get(conn).map_or(0, |c| c.pid),
            control: self.is_control(conn).then_some(1),
        };
        match self.run_commands_as(&req, cmds, false) {
            Some(reply) => self.client_run_ended(conn, &reply),
            // They wait (for a job, a channel) and go on later.
            None => self.waits.mark_attached(conn, self.binding_key),
        }
        self.clients.touch_all();
    }

    /// Reads what the client typed while its commands waited.
    pub(super) fn read_held_input(&mut self, conn: u64) {
        if self.is_control(conn) {
            // What the commands that waited changed, then the lines after them.
            self.control_notify_all();
            self.control_run_lines(conn);
            return;
        }
        if let Some(held) = self
            .clients
            .get_mut(conn)
            .map(|c| std::mem::take(&mut c.held_input))
        {
            if !held.is_empty() {
                self.client_input(conn, &held);
            }
        }
    }

    /// Commands a client ran ended: what they printed shows in place of the pane, as tmux's
    /// view mode shows it (their errors showed on the status line as they came).
    pub(super) fn client_run_ended(&mut self, conn: u64, reply: &super::Reply) {
        if self.is_control(conn) {
            self.control_run_ended(conn, reply);
        } else if !reply.out.is_empty() {
            self.show_output(conn, &reply.out);
        }
    }

    // ---- drawing ----

    /// A full redraw of what a client shows.
    fn render(&self, c: &Client) -> Option<Vec<u8>> {
        let si = self.session_index(c.session)?;
        let s = &self.sessions[si];
        let pane = &s.current_window().pane;
        let t = &pane.term;
        let status = self.shown_status_lines(Some(si), c);
        let rows = c.rows - status;
        let top = self.rows_above_pane(Some(si), c);
        let copy = c.view.as_deref();
        // Copy and view modes show their own copy of the lines, `oy` above its bottom; clock
        // mode its drawing.
        // Tree mode shows only over the pane it was opened for, as tmux's.
        let tree = c.tree.as_ref().filter(|t| t.pane == pane.id);
        let (shown, offset) = match (&c.clock, copy) {
            _ if tree.is_some() => (&tree?.drawing, 0),
            (Some(clock), _) => (&clock.term, 0),
            (None, Some(m)) => (m.backing(), m.oy),
            (None, None) => (t, 0),
        };
        let mut out = Vec::with_capacity((c.cols as usize + 16) * c.rows as usize);
        // Cursor hidden while drawing; no autowrap, so the last column never scrolls; G1 is
        // the line-drawing set the screen's SO/SI codes select.
        out.extend_from_slice(b"\x1b[?25l\x1b[?7l\x1b)0");
        for y in 0..rows {
            out.extend_from_slice(format!("\x1b[{};1H\x1b[0m", top + y + 1).as_bytes());
            let mut used = 0;
            if y < shown.rows() {
                let line = shown.capture(&CaptureOptions {
                    start: Some(LineSpec::Line(y as i64 - offset as i64)),
                    end: Some(LineSpec::Line(y as i64 - offset as i64)),
                    escapes: true,
                    no_trim: true,
                    ..Default::default()
                });
                let mut line = line.strip_suffix(b"\n").unwrap_or(&line).to_vec();
                if c.utf8 && line.contains(&0x0e) {
                    line = line_drawing_as_utf8(&line);
                }
                used = push_cropped(&mut out, &line, c.cols);
            }
            out.extend_from_slice(b"\x1b[0m\x0f");
            // Not on a full row: with autowrap off the cursor stays on its last cell, which
            // an erase would clear. Copy mode writes every cell of its rows, as tmux's does.
            if used < c.cols && copy.is_some() {
                out.resize(out.len() + (c.cols - used) as usize, b' ');
            } else if used < c.cols {
                out.extend_from_slice(b"\x1b[K");
            }
        }
        if let Some(m) = copy {
            let pen = |name, default| {
                style::add(
                    Pen::default(),
                    &self.option_or(Some(si), Some(s.current), name, default),
                )
            };
            let both = |name, default| {
                let p = pen(name, default);
                [p.sgr(), p.swapped().sgr()]
            };
            let styles = CopyStyles {
                selection: pen("mode-style", "bg=yellow,fg=black").sgr(),
                matched: both("copy-mode-match-style", "bg=cyan,fg=black"),
                current: both("copy-mode-current-match-style", "bg=magenta,fg=black"),
                mark: both("copy-mode-mark-style", "bg=red,fg=black"),
                vi: self.option_or(Some(si), Some(s.current), "mode-keys", "emacs") == "vi",
            };
            let cols = c.cols.min(m.backing().cols());
            push_copy_mode(&mut out, m, &styles, cols, (top, rows));
        }
        // A message takes the last status line's place, or the last row when there is none.
        let message_row = if top > 0 { top } else { c.rows };
        let mut prompt_cursor = None;
        if let Some(shown) = &c.message {
            out.extend_from_slice(format!("\x1b[{message_row};1H").as_bytes());
            self.push_message(&mut out, si, c, &shown.message);
        } else if let Some(p) = &c.prompt {
            out.extend_from_slice(format!("\x1b[{message_row};1H").as_bytes());
            prompt_cursor = Some(self.push_prompt(&mut out, si, c, p));
        }
        // Status lines above a message or prompt stay; without one, all of them show.
        let covered = u32::from(c.message.is_some() || c.prompt.is_some());
        if status > covered {
            let first = if top > 0 { 1 } else { rows + 1 };
            out.extend_from_slice(format!("\x1b[{first};1H").as_bytes());
            self.push_status(&mut out, si, c, (status - covered) as usize);
        }
        let m = t.mode();
        let set = |on: bool, code: &str| format!("\x1b[?{code}{}", if on { 'h' } else { 'l' });
        // With `mouse` on, the terminal reports the mouse to zeropty (buttons and drags, in
        // SGR form, all motion too when the program asked for it), as tmux asks for it.
        let mouse_on = self.mouse_on(Some(si));
        let mouse = c.view.is_none() && !mouse_on;
        let mut modes = String::new();
        modes += &set(m & mode::KCURSOR != 0, "1");
        modes += if m & mode::KKEYPAD != 0 {
            "\x1b="
        } else {
            "\x1b>"
        };
        modes += &set(m & mode::BRACKETPASTE != 0, "2004");
        modes += &set(m & mode::FOCUSON != 0, "1004");
        let all = m & mode::MOUSE_ALL != 0;
        modes += &set(mouse_on || (mouse && m & mode::MOUSE_STANDARD != 0), "1000");
        modes += &set(mouse_on || (mouse && m & mode::MOUSE_BUTTON != 0), "1002");
        modes += &set((mouse_on || mouse) && all, "1003");
        modes += &set(mouse && m & mode::MOUSE_UTF8 != 0, "1005");
        modes += &set(mouse_on || (mouse && m & mode::MOUSE_SGR != 0), "1006");
        out.extend_from_slice(modes.as_bytes());
        let (cx, cy) = t.cursor();
        let cx = cx
            .min(t.cols().saturating_sub(1))
            .min(c.cols.saturating_sub(1));
        // As in tmux, the cursor hides while a message or a prompt shows (a prompt marks
        // its own in reverse video).
        let on_status_line = c.message.is_some() || c.prompt.is_some();
        if let Some(x) = prompt_cursor {
            // As in tmux, the (hidden) cursor waits where the answer goes.
            out.extend_from_slice(format!("\x1b[{message_row};{}H", x + 1).as_bytes());
        } else if let Some(drawing) = c
            .clock
            .as_ref()
            .map(|k| &k.term)
            .or(tree.map(|t| &t.drawing))
        {
            // Hidden, where the drawing ended, as tmux leaves clock and tree mode's.
            let (x, y) = drawing.cursor();
            let (x, y) = (x.min(c.cols.saturating_sub(1)), y.min(rows - 1));
            out.extend_from_slice(format!("\x1b[{};{}H", top + y + 1, x + 1).as_bytes());
        } else if let Some(copy) = copy.filter(|m| !on_status_line && m.cy < rows) {
            // As in tmux, copy mode's own cursor shows, whatever the program's does.
            let x = copy.cx.min(c.cols.saturating_sub(1));
            let y = top + copy.cy + 1;
            out.extend_from_slice(format!("\x1b[{y};{}H\x1b[?25h", x + 1).as_bytes());
        } else if c.view.is_none() && !on_status_line && m & mode::CURSOR != 0 && cy < rows {
            out.extend_from_slice(format!("\x1b[{};{}H\x1b[?25h", top + cy + 1, cx + 1).as_bytes());
        } else {
            let y = top + cy.min(rows - 1) + 1;
            out.extend_from_slice(format!("\x1b[{y};{}H", cx + 1).as_bytes());
        }
        Some(out)
    }

    /// A message as tmux's `status_message_redraw` draws one: the row in `message-style`,
    /// the text over it cut to the width, its `#[style]` directives applied over that style
    /// when it is styled. Control characters are left out, as tmux leaves them out.
    fn push_message(&self, out: &mut Vec<u8>, si: usize, c: &Client, message: &StatusMessage) {
        let base = self.style_pen(si, c, "message-style", Pen::default());
        let mut line = vec![Cell::blank(base); c.cols as usize];
        if message.styled {
            format_draw::draw(&mut line, base, &message.text);
        } else {
            format_draw::draw_plain(&mut line, base, &message.text);
        }
        format_draw::push_line(out, &line);
    }

    /// A prompt as tmux's `status_prompt_redraw` draws one: its text as a styled message's
    /// (in `message-command-style` in vi's command mode), then what has been typed, scrolled
    /// so the cursor shows, the cursor's cell in reverse video; that cell's column.
    fn push_prompt(&self, out: &mut Vec<u8>, si: usize, c: &Client, p: &Prompt) -> u32 {
        let style = if p.editor.vi_command {
            "message-command-style"
        } else {
            "message-style"
        };
        let pen = self.style_pen(si, c, style, Pen::default());
        let cols = c.cols;
        let start = format::width(&p.text).min(cols);
        let mut line = vec![Cell::blank(pen); start as usize];
        format_draw::draw(&mut line, pen, &p.text);
        format_draw::push_line(out, &line);
        let base = pen.sgr();
        out.extend_from_slice(base.as_bytes());
        let left = cols - start;
        let (chars, index) = p.editor.chars();
        let width_to = |n: usize| chars[..n].iter().map(|&c| char_width(c)).sum::<u32>();
        let (cursor, all) = (width_to(index), width_to(chars.len()));
        let (offset, room) = if cursor >= left {
            (cursor + 1 - left, left)
        } else {
            (0, all.min(left))
        };
        let mut used = start;
        let mut width = 0;
        let mut drawn = chars.len();
        for (i, &c) in chars.iter().enumerate() {
            let w = char_width(c);
            if width < offset {
                width += w;
                continue;
            }
            if width >= offset + room || width + w > offset + room {
                drawn = i;
                break;
            }
            width += w;
            let cell = c.to_string();
            if i == index {
                out.extend_from_slice(format!("\x1b[7m{cell}\x1b[27m").as_bytes());
            } else {
                out.extend_from_slice(cell.as_bytes());
            }
            used += w;
        }
        if used < cols && index >= drawn {
            out.extend_from_slice(b"\x1b[7m \x1b[27m");
            used += 1;
        }
        push_fill(out, &base, cols - used);
        (start + index as u32).saturating_sub(offset).min(cols - 1)
    }

    /// Where on client `c` a mouse event is, and the window whose name in the status line it
    /// is over.
    fn mouse_place(
        &self,
        si: Option<usize>,
        c: &Client,
        event: MouseEvent,
    ) -> Option<(Place, Option<usize>)> {
        let status = self.shown_status_lines(si, c);
        let first_status_row = if self.rows_above_pane(si, c) > 0 {
            0
        } else {
            c.rows - status
        };
        match si {
            Some(si) if (first_status_row..first_status_row + status).contains(&event.y) => {
                self.status_place(si, c, event.y - first_status_row, event.x)
            }
            _ => Some((Place::Pane, None)),
        }
    }
}

/// The SGR codes of copy mode's styles, and whether `mode-keys` is vi (the match under the
/// cursor is found differently).
struct CopyStyles {
    selection: String,
    /// Each as given, then with its colours swapped (on the mark's own cell).
    matched: [String; 2],
    current: [String; 2],
    mark: [String; 2],
    vi: bool,
}

/// What copy mode draws over its lines, as tmux draws it: search matches in their styles,
/// the selection's cells in `mode-style` over them (the cells' own colours and attributes
/// left out), a `$` when the cursor is past the last column, and the position at the top
/// right. `cols` and `rows`: the cells drawn, `top` rows down the terminal.
fn push_copy_mode(
    out: &mut Vec<u8>,
    m: &CopyMode,
    styles: &CopyStyles,
    cols: u32,
    (top, rows): (u32, u32),
) {
    let selection = m.shown_selection();
    let mark = m.shown_mark();
    for y in 0..rows.min(m.backing().rows()) {
        // As tmux's `window_copy_update_style`: the mark's row in its style (the mark's cell
        // with the colours swapped), search matches over it, the selection over all.
        let style_at = |x: u32| {
            if selection.is_some_and(|s| s.contains(x, y)) {
                return Some(styles.selection.as_str());
            }
            let on_mark = mark.filter(|&(_, my)| my == y);
            let swap = usize::from(on_mark.is_some_and(|(mx, _)| mx == x));
            match m.mark_at(x, y, styles.vi) {
                Some(Mark::Current) => Some(styles.current[swap].as_str()),
                Some(Mark::Match) => Some(styles.matched[swap].as_str()),
                None => on_mark.map(|_| styles.mark[swap].as_str()),
            }
        };
        if (0..cols).any(|x| style_at(x).is_some()) {
            let line = m.backing().text_line(m.line_of_row(y));
            push_styled_runs(out, &line, top + y, cols, style_at);
        }
    }
    if m.cx == m.backing().cols() && m.cy < rows {
        out.extend_from_slice(format!("\x1b[{};{}H\x1b[0m$", top + m.cy + 1, cols).as_bytes());
    }
    if !m.hide_position && rows > 1 {
        let text = m.position_text();
        let x = cols.saturating_sub(text.len() as u32) + 1;
        let style = &styles.selection;
        out.extend_from_slice(format!("\x1b[{};{x}H{style}{text}\x1b[0m", top + 1).as_bytes());
    }
}

/// Draws again, on row `y`, the runs of `line`'s cells that `style_at` gives a style.
fn push_styled_runs<'a>(
    out: &mut Vec<u8>,
    line: &TextLine,
    y: u32,
    cols: u32,
    style_at: impl Fn(u32) -> Option<&'a str>,
) {
    let mut x = 0;
    while x < cols {
        let Some(style) = style_at(x) else {
            x += 1;
            continue;
        };
        // The right half of a wide character is drawn with its left half.
        let start = x + u32::from(line.is_padding(x));
        while x < cols && style_at(x) == Some(style) {
            x += 1;
        }
        let mut text = String::new();
        line.copy_text(start, x, &mut text);
        out.extend_from_slice(format!("\x1b[{};{}H{style}", y + 1, start + 1).as_bytes());
        out.extend_from_slice(text.as_bytes());
        out.extend_from_slice(b"\x1b[0m");
    }
}

/// The rest of a row, `cells` wide, blank in the `base` style; then the terminal's defaults.
fn push_fill(out: &mut Vec<u8>, base: &str, cells: u32) {
    out.extend_from_slice(base.as_bytes());
    out.extend_from_slice(" ".repeat(cells as usize).as_bytes());
    out.extend_from_slice(b"\x1b[0m");
}

/// The commands a read-only client's key bindings may run (tmux's `CMD_READONLY`).
const READ_ONLY_COMMANDS: &[&str] = &[
    "attach-session",
    "detach-client",
    "list-clients",
    "switch-client",
];

/// What a key typed on a client does.
enum KeyAction {
    /// Goes to the pane.
    Forward,
    /// Goes nowhere (it switched tables, or was not bound in the table it was looked up in).
    Drop,
    /// Runs a binding, found for this key.
    Run(Key, Binding),
}

const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";

fn new_client(
    conn: u64,
    t: &ClientTerminal,
    session: u32,
    now: i64,
    seq: u64,
    flags: AttachFlags,
) -> Client {
    let name = if t.tty.is_empty() {
        format!("client-{}", t.pid)
    } else {
        t.tty.clone()
    };
    Client {
        conn,
        name,
        tty: t.tty.clone(),
        term: t.term.clone(),
        pid: t.pid,
        utf8: t.utf8,
        cols: t.cols.max(1),
        rows: t.rows.max(1),
        readonly: flags.readonly,
        ignore_size: flags.ignore_size,
        session,
        last_session: None,
        created: now,
        activity: now,
        activity_seq: seq,
        key_table: None,
        repeat_until: None,
        view: None,
        message: None,
        prompt: None,
        dirty: true,
        last_draw: None,
        last_frame: Vec::new(),
        status_drawn: None,
        pasting: false,
        passthrough: Vec::new(),
        last_mouse: None,
        clicks: Clicks::default(),
        held_input: Vec::new(),
        clock: None,
        tree: None,
        drag: None,
        control: None,
    }
}

/// How a client is told its attachment ended: a control client gets what it had not been
/// sent, and only that it ended (or why, when it fell too far behind).
fn exit_for(c: Client, exit: Exit) -> Exit {
    let Some(ctl) = c.control else {
        return exit;
    };
    let reason = match exit {
        Exit::Control { reason, .. } => reason,
        _ => String::new(),
    };
    let (status, wait) = (ctl.failed as u8, ctl.wait_exit);
    Exit::Control {
        text: ctl.untaken(),
        reason,
        status,
        wait,
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The length of the key at the start of `b`: an escape sequence (CSI, SS3, X10 mouse
/// report), an Alt-modified key, one UTF-8 character or one byte.
pub(super) fn key_len(b: &[u8]) -> usize {
    match b {
        [0x1b, b'[', b'M', ..] => 6.min(b.len()),
        [0x1b, b'[', rest @ ..] => rest
            .iter()
            .position(|x| (0x40..=0x7e).contains(x))
            .map_or(b.len(), |p| p + 3),
        [0x1b, b'O', _, ..] => 3,
        [0x1b, 0x1b, ..] => 1,
        [0x1b, rest @ ..] if !rest.is_empty() => 1 + utf8_len(rest),
        _ => utf8_len(b),
    }
}

pub(super) fn utf8_len(b: &[u8]) -> usize {
    let n = match b.first() {
        Some(0xc0..=0xdf) => 2,
        Some(0xe0..=0xef) => 3,
        Some(0xf0..=0xf7) => 4,
        _ => 1,
    };
    n.min(b.len()).max(1)
}

fn char_width(c: char) -> u32 {
    if c.is_ascii() {
        return (c >= ' ') as u32;
    }
    crate::term::width::tmux_width(c).unwrap_or(0) as u32
}

pub(super) fn text_width(s: &str) -> u32 {
    s.chars().map(char_width).sum()
}

/// Replaces characters drawn from the line-drawing set (between SO and SI in a capture) by
/// their Unicode forms, as tmux does for UTF-8 terminals.
fn line_drawing_as_utf8(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len() + 16);
    let mut acs = false;
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            0x0e => acs = true,
            0x0f => acs = false,
            0x1b => {
                let n = key_len(&line[i..]);
                out.extend_from_slice(&line[i..i + n]);
                i += n;
                continue;
            }
            b if acs => match crate::term::text::line_drawing_char(b) {
                Some(c) => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                None => out.push(b),
            },
            b => out.push(b),
        }
        i += 1;
    }
    out
}

/// Copies a captured row with SGR codes, keeping at most `cols` cells of text; the cells
/// copied.
pub(super) fn push_cropped(out: &mut Vec<u8>, line: &[u8], cols: u32) -> u32 {
    let mut used = 0;
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if b == 0x1b {
            let n = key_len(&line[i..]);
            out.extend_from_slice(&line[i..i + n]);
            i += n;
            continue;
        }
        if b < 0x20 {
            out.push(b);
            i += 1;
            continue;
        }
        let n = utf8_len(&line[i..]);
        let w = std::str::from_utf8(&line[i..i + n])
            .ok()
            .and_then(|s| s.chars().next())
            .map_or(1, char_width);
        if used + w > cols {
            return used;
        }
        used += w;
        out.extend_from_slice(&line[i..i + n]);
        i += n;
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_split_whole() {
        assert_eq!(key_len(b"abc"), 1);
        assert_eq!(key_len(b"\x1b[5~x"), 4);
        assert_eq!(key_len(b"\x1bOAx"), 3);
        assert_eq!(key_len(b"\x1b[M !!x"), 6);
        assert_eq!(key_len(b"\x1bdx"), 2);
        assert_eq!(key_len(b"\x1b"), 1);
        assert_eq!(key_len("éx".as_bytes()), 2);
    }

    #[test]
    fn crop_keeps_codes_and_cells() {
        let mut out = Vec::new();
        push_cropped(&mut out, "\x1b[31mab\u{4e00}cd".as_bytes(), 3);
        assert_eq!(out, b"\x1b[31mab");
        let mut out = Vec::new();
        push_cropped(&mut out, "ab\u{4e00}cd".as_bytes(), 4);
        assert_eq!(out, "ab\u{4e00}".as_bytes());
    }

    #[test]
    fn line_drawing_becomes_utf8() {
        let out = line_drawing_as_utf8(b"a\x1b[31m\x0elqk\x0fq");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "a\x1b[31m\u{250c}\u{2500}\u{2510}q"
        );
    }

    #[test]
    fn styles_and_widths() {
        assert_eq!(
            Exit::Detached {
                session: "w".into(),
                hup: false
            }
            .message(),
            "detached (from session w)"
        );
    }
}
