//! The socket server: accepts clients on the private unix socket, reads request lines, runs
//! them through the engine and writes reply lines, while the same loop moves every session's
//! output and input.
//!
//! One thread serves every session, client and timer. A turn of the loop waits for readiness
//! (or the engine's next deadline), hands pane events to the engine, serves clients in arrival
//! order, then checks whether the server should stop (no sessions left and no client
//! connected, as tmux's exit-empty; or kill-server).
//!
//! Programs' terminals wake the loop about once every [`GATHER_MS`] at most: they sit in an
//! epoll set of their own (the host's `gathered` set), watched once from the loop's set. When
//! it reports, the loop takes every ready terminal; if reports come close together it leaves
//! the set unwatched until the next multiple of [`GATHER_MS`], then takes what came meanwhile
//! (or watches the set again if nothing did), and otherwise watches it again at once. A
//! program that writes after a quiet spell is heard at once; hundreds writing frames at their
//! own moments share a wakeup. Terminals someone waits on (see `Watch::prompt`) are in the
//! loop's set itself, reported at once.
//!
//! A request may have to wait for its reply (`wait-for`): the engine answers it later
//! ([`Engine::take_finished`]) and the client's later lines wait unread in its buffer, so
//! replies stay in order. A connection that attaches (see `crate::protocol`) carries frames
//! from then on: input and resizes in, screens out. A screen is asked of the engine only when
//! the previous one has been written, so an attached client that reads slowly is sent the
//! newest screen when it catches up, never a backlog.
//!
//! Invariants: a client from another uid is dropped at accept (SO_PEERCRED); a client's
//! malformed line gets an error reply and changes nothing; a client that disconnects mid-way
//! loses only its own replies; a slow client never blocks the loop (replies are buffered);
//! with no descriptor free, connections wait in the backlog while the listener rests, and the
//! loop does not spin on them.

use crate::engine::attach::Exit;
use crate::engine::cold::ColdStore;
use crate::engine::commands;
use crate::engine::os::IoEvent;
use crate::engine::{Engine, Reply, Request};
use crate::protocol;
use crate::sys::children::Children;
use crate::sys::cold_file::Memfd;
use crate::sys::fd;
use crate::sys::host_os::{HostOs, TOKEN_EXIT, TOKEN_KIND, TOKEN_PIPE, TOKEN_TERMINAL};
use crate::sys::poll::{Epoll, Event, ONCE, READABLE, WRITABLE};
use crate::sys::socket;
use std::collections::{BTreeMap, HashMap};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

const TOKEN_LISTENER: u64 = 3 << 56;
const TOKEN_CLIENT: u64 = 4 << 56;
/// The set of programs' terminals whose reports the loop gathers.
const TOKEN_GATHERED: u64 = 6 << 56;

/// The shortest time between two takes of the gathered terminals' reports (ms). Nobody sees
/// the wait (every reader of a screen drains it first); a program that starts to flood while
/// others report waits this long at most for its first read. 50 ms against 20: 1.3x less CPU
/// for 200 sessions redrawing a frame a second, 1.2x for `clear`, 1.1x for agent replays
/// (`BASE=<a build with 20> ROUNDS=3 WINDOW=20 bench/scale.sh redraw 200`; BENCHMARKS.md);
/// 100 ms would save another tenth for twice the wait.
pub const GATHER_MS: u64 = 50;

/// How the server was asked to start.
pub struct ServeOptions {
    pub socket: PathBuf,
    /// Configuration files to load first (`-f`, in order), and whether a missing one is an
    /// error.
    pub config: Vec<(PathBuf, bool)>,
    /// Descriptor to write one byte to once the socket accepts connections.
    pub ready_fd: Option<i32>,
    /// The connection of the client that started the server (its end of a socketpair), served
    /// as a client from before the configuration file runs, as tmux serves the client that
    /// starts it: a file whose sessions all end at once cannot leave it without a server.
    pub first_client_fd: Option<i32>,
    /// Gives the memory the allocator holds freed back to the system (the program chose the
    /// allocator); called at most every [`RELEASE_INTERVAL_MS`], and within that of the
    /// server's last work.
    pub release_memory: fn(),
}

/// How often the server releases the memory its allocator holds freed, while it works. The
/// allocator keeps freed pages for a while, so a screen parsed again soon reuses them instead
/// of faulting in fresh ones (400 dump sessions: 5.3% of a core with pages returned at once,
/// 4.3% with this, `BASE= ROUNDS=2 bench/scale.sh dump 400`); but it returns them only when a
/// later free looks, which a quiet server never does (400 idle sessions would keep what their
/// start-up parsing used: 9.5 MB PSS where 5.4 MB is in use) and a busy one may not (19 MB of
/// output read ahead and parsed stayed while commands came every 50 ms).
pub const RELEASE_INTERVAL_MS: u64 = 1000;

/// How long the listener rests after a failed accept before connections are taken again.
const ACCEPT_RETRY_MS: u64 = 1000;

struct Client {
    fd: OwnedFd,
    /// The process that connected (SO_PEERCRED), which names it in the message log.
    pid: u32,
    inbuf: Vec<u8>,
    outbuf: Vec<u8>,
    closing: bool,
    /// The connection carries frames (an attached terminal), not lines.
    attached: bool,
    /// A request of this client waits for its reply; later lines stay in `inbuf`.
    waiting: bool,
    /// The descriptor is in the epoll set (a closed client that still waits for a reply is
    /// taken out, so its hangup is not reported over and over).
    registered: bool,
    /// The environment this connection sent last (requests may leave it out).
    env: Arc<BTreeMap<String, String>>,
    /// The request being answered asked for a raw reply.
    raw_reply: bool,
    /// A request of this connection has been answered.
    answered: bool,
    /// What the epoll set watches for now, so it is changed only when that changes (a
    /// request and its reply then cost no epoll_ctl).
    interest: u32,
}

impl Client {
    /// A request connection between requests: it has been answered, and asks and is owed
    /// nothing (a new connection has yet to send its first request).
    fn is_idle(&self) -> bool {
        self.answered
            && !self.attached
            && !self.waiting
            && self.outbuf.is_empty()
            && self.inbuf.is_empty()
    }

    fn new(fd: OwnedFd, pid: u32) -> Client {
        Client {
            fd,
            pid,
            inbuf: Vec::new(),
            outbuf: Vec::new(),
            closing: false,
            attached: false,
            waiting: false,
            registered: true,
            env: Arc::default(),
            raw_reply: false,
            interest: READABLE,
            answered: false,
        }
    }
}

pub struct Server {
    epoll: Rc<Epoll>,
    /// Programs' terminals not wanted at once (watched from `epoll` as [`TOKEN_GATHERED`]).
    gathered: Rc<Epoll>,
    /// When the gathered terminals are next taken, while their set is not watched.
    gather_at: Option<u64>,
    /// When a take of the gathered terminals last found any (monotonic ms).
    gathered_at: Option<u64>,
    /// `None` once the server has decided to exit: new connections are then refused at
    /// once instead of waiting in the backlog for a server that will not answer.
    listener: Option<OwnedFd>,
    /// While set, the listener is out of the epoll set until then (monotonic ms): accepting
    /// failed for want of a descriptor (see [`ACCEPT_RETRY_MS`]).
    accept_resumes_at: Option<u64>,
    engine: Engine,
    /// Whose programs ended, when the epoll reports `TOKEN_EXIT`.
    children: Rc<Children>,
    clients: HashMap<u64, Client>,
    next_client: u64,
    /// Where clients' requests are read: kept, not zeroed on the stack for every read.
    read_buf: Box<[u8]>,
    release_memory: fn(),
    /// When freed memory was last released (monotonic ms), and whether the server has
    /// worked since.
    released_at: u64,
    worked_since_release: bool,
}

/// Runs a server until it has nothing left to serve. Returns the process exit code.
pub fn serve(opts: ServeOptions) -> Result<(), String> {
    fd::close_inherited(&[opts.ready_fd, opts.first_client_fd].map(|fd| fd.unwrap_or(-1)));
    crate::sys::process::ignore_sigpipe();
    crate::sys::process::raise_open_file_limit();
    let dir = socket::socket_dir();
    socket::ensure_private_dir(&dir)?;
    let shim = crate::sys::shim::install(&dir).map_err(|e| {
        format!(
            "couldn't install {} ({})",
            dir.display(),
            socket::os_error(&e)
        )
    })?;
    remove_stale_socket(&opts.socket)?;
    let listener = socket::listen(&opts.socket).map_err(|e| {
        format!(
            "error creating {} ({})",
            opts.socket.display(),
            socket::os_error(&e)
        )
    })?;
    let epoll = Rc::new(Epoll::new().map_err(|e| e.to_string())?);
    epoll
        .add(listener.as_raw_fd(), TOKEN_LISTENER, READABLE)
        .map_err(|e| e.to_string())?;
    let name = opts
        .socket
        .file_name()
        .map_or("default".into(), |n| n.to_string_lossy().into_owned());
    let state = dir.join(format!(".{name}.{}.state", std::process::id()));
    let gathered = Rc::new(Epoll::new().map_err(|e| e.to_string())?);
    epoll
        .add(gathered.raw_fd(), TOKEN_GATHERED, READABLE | ONCE)
        .map_err(|e| e.to_string())?;
    let host = HostOs::new(epoll.clone(), gathered.clone(), state.clone(), shim)
        .map_err(|e| e.to_string())?;
    let children = host.children();
    let mut environ: BTreeMap<String, String> = std::env::vars()
        .filter(|(k, _)| k != "ZEROPTY_READY_FD" && k != "ZEROPTY_CLIENT_FD")
        .collect();
    // As tmux does, the global environment's PWD is the directory the server started in
    // (the inherited PWD when it names that directory, keeping its symbolic links).
    if let Ok(cwd) = std::env::current_dir() {
        let same = environ
            .get("PWD")
            .is_some_and(|p| std::fs::canonicalize(p).ok() == std::fs::canonicalize(&cwd).ok());
        if !same {
            environ.insert("PWD".into(), cwd.to_string_lossy().into_owned());
        }
    }
    let mut engine = Engine::new(
        Box::new(host),
        environ,
        &opts.socket.to_string_lossy(),
        std::process::id(),
    );
    engine.cold = cold_store();
    let mut server = Server {
        epoll,
        gathered,
        gather_at: None,
        gathered_at: None,
        listener: Some(listener),
        accept_resumes_at: None,
        engine,
        children,
        clients: HashMap::new(),
        next_client: 0,
        read_buf: vec![0; 65536].into_boxed_slice(),
        release_memory: opts.release_memory,
        released_at: 0,
        worked_since_release: true,
    };
    let first_client = opts.first_client_fd.map(fd::adopt_handed);
    // Served as accepted connections are: never blocking the server.
    if let Some(Ok(fd)) = first_client {
        if fd::set_nonblocking(fd.as_raw_fd(), true).is_ok() {
            server.add_client(fd);
        }
    }
    // As tmux's `#{config_files}`: the files named, and a default one only if it exists.
    server.engine.config_files = opts
        .config
        .iter()
        .filter(|(path, must_exist)| *must_exist || path.exists())
        .map(|(path, _)| path.to_string_lossy().into_owned())
        .collect();
    for (path, must_exist) in &opts.config {
        server.load_config(path, *must_exist);
    }
    // The server keeps no directory busy.
    let _ = std::env::set_current_dir("/");
    if let Some(fd) = opts.ready_fd {
        let _ = fd::write(fd, b"1");
        // SAFETY: the descriptor was handed to us for this one byte.
        unsafe { libc::close(fd) };
    }
    let result = server.run();
    // The socket file stays, as tmux leaves it: clients then report "no server running on".
    let _ = std::fs::remove_file(&state);
    result
}

/// Where cold screens go: an unnamed memfd, outside the heap, unless `ZEROPTY_COLD=memory`
/// asks for the heap (or no memfd can be made).
fn cold_store() -> ColdStore {
    if std::env::var_os("ZEROPTY_COLD").is_some_and(|v| v == "memory") {
        return ColdStore::default();
    }
    match Memfd::new() {
        Ok(file) => ColdStore::new(Box::new(file)),
        Err(_) => ColdStore::default(),
    }
}

/// A socket file nobody listens on is left over from a server that died: remove it.
fn remove_stale_socket(path: &Path) -> Result<(), String> {
    if !path.exists() {
        return Ok(());
    }
    match socket::connect(path) {
        Ok(_) => Err(format!("server already running on {}", path.display())),
        Err(_) => std::fs::remove_file(path).map_err(|e| {
            format!(
                "couldn't remove {} ({})",
                path.display(),
                socket::os_error(&e)
            )
        }),
    }
}

impl Server {
    fn load_config(&mut self, path: &Path, must_exist: bool) {
        let cwd = std::env::current_dir()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "/".into());
        let mut argv = vec!["source-file".to_string()];
        if !must_exist {
            argv.push("-q".into());
        }
        argv.push(path.to_string_lossy().into_owned());
        let req = Request {
            argv,
            cwd,
            env: Arc::new(self.engine.environ.clone()),
            ..Default::default()
        };
        let reply = self.engine.run_config(&req);
        if !reply.err.is_empty() {
            // tmux shows configuration errors to the first client; keep them for it.
            self.engine.config_errors.extend_from_slice(&reply.err);
        }
    }

    fn run(&mut self) -> Result<(), String> {
        loop {
            let clients = &self.clients;
            let frames = self
                .engine
                .clients_deadline(|c| clients.get(&c).is_some_and(|c| c.outbuf.is_empty()));
            let now = self.engine.host.now_ms();
            let timeout = [
                self.engine.next_deadline(),
                frames,
                self.gather_at,
                self.accept_resumes_at,
            ]
            .into_iter()
            .flatten()
            .min()
            .map(|d| d.saturating_sub(now));
            let timeout = self.release_memory_between_waits(timeout, now);
            let events = self.epoll.wait(timeout).map_err(|e| e.to_string())?;
            self.worked_since_release = true;
            for ev in events {
                self.handle(ev);
            }
            if self
                .gather_at
                .is_some_and(|t| self.engine.host.now_ms() >= t)
            {
                self.take_gathered(true);
            }
            self.resume_accepting();
            self.engine.tick();
            if self.engine.kill_requested() {
                self.stop_listening();
                self.flush_clients();
                return Ok(());
            }
            self.serve_clients();
            if self.engine.sessions.is_empty() && self.engine.options.flag("exit-empty") {
                // As tmux: with nothing left, waiting clients are let go before the exit.
                self.engine.flush_waits();
                self.serve_clients();
                // Connections that only stay open between requests (the shell helpers keep
                // one) do not keep an empty server alive: they find it gone and reconnect.
                if self.clients.values().all(Client::is_idle) {
                    self.stop_listening();
                    return Ok(());
                }
            }
        }
    }

    fn handle(&mut self, ev: Event) {
        let kind = ev.token & TOKEN_KIND;
        let id = ev.token & !TOKEN_KIND;
        match kind {
            TOKEN_LISTENER => self.accept(),
            TOKEN_CLIENT => self.client_event(id, ev.readable || ev.hangup, ev.writable),
            TOKEN_GATHERED => self.take_gathered(false),
            TOKEN_TERMINAL => {
                self.engine.client_terminal_event(id);
                if ev.readable || ev.hangup {
                    self.engine.io_event(id, IoEvent::Readable);
                }
                if ev.writable {
                    self.engine.io_event(id, IoEvent::Writable);
                }
            }
            TOKEN_EXIT => {
                for id in self.children.collect() {
                    self.engine.client_terminal_event(id);
                    self.engine.io_event(id, IoEvent::Exited);
                }
            }
            TOKEN_PIPE => {
                if ev.readable || ev.hangup {
                    self.engine.pipe_event(id, IoEvent::Readable);
                }
                if ev.writable {
                    self.engine.pipe_event(id, IoEvent::Writable);
                }
            }
            _ => {}
        }
    }

    /// Hands the gathered terminals' events to the engine. The set stays unwatched until the
    /// next multiple of [`GATHER_MS`] if reports come close together: this take was due at
    /// such a multiple (`due`) and found some, or the last take that found some was less than
    /// [`GATHER_MS`] ago. Otherwise, or with none ready, it is watched again at once: a
    /// program's first write after a quiet spell is often its prompt or its terminal's set-up,
    /// and a flood that follows at once must be heard at once to be read as busy.
    fn take_gathered(&mut self, due: bool) {
        let events = self.gathered.wait(Some(0)).unwrap_or_default();
        let now = self.engine.host.now_ms();
        let close_together = due || self.gathered_at.is_some_and(|t| now < t + GATHER_MS);
        if !events.is_empty() {
            self.gathered_at = Some(now);
        }
        for ev in events.iter().copied() {
            self.handle(ev);
        }
        if close_together && !events.is_empty() {
            self.gather_at = Some((now / GATHER_MS + 1) * GATHER_MS);
        } else {
            // A terminal that became ready since the wait above makes the set ready, and
            // watching a ready set reports it.
            let _ = self
                .epoll
                .modify(self.gathered.raw_fd(), TOKEN_GATHERED, READABLE | ONCE);
            self.gather_at = None;
        }
    }

    /// Releases freed memory if the server has worked since the last release and that was
    /// [`RELEASE_INTERVAL_MS`] ago; when it was more recent, shortens the wait to when the next
    /// may come. Returns the wait.
    fn release_memory_between_waits(&mut self, timeout: Option<u64>, now: u64) -> Option<u64> {
        if !self.worked_since_release {
            return timeout;
        }
        let next_release = self.released_at + RELEASE_INTERVAL_MS;
        if now < next_release {
            let until_release = next_release - now;
            return Some(timeout.map_or(until_release, |t| t.min(until_release)));
        }
        (self.release_memory)();
        self.released_at = now;
        self.worked_since_release = false;
        timeout
    }

    fn stop_listening(&mut self) {
        if let Some(listener) = self.listener.take() {
            self.epoll.remove(listener.as_raw_fd());
        }
    }

    fn accept(&mut self) {
        loop {
            let Some(listener) = &self.listener else {
                return;
            };
            let listener = listener.as_raw_fd();
            let fd = match socket::accept(listener) {
                Ok(Some(fd)) => fd,
                Ok(None) => return,
                Err(_) => {
                    self.pause_accepting(listener);
                    return;
                }
            };
            self.add_client(fd);
        }
    }

    /// Stops watching the listener for [`ACCEPT_RETRY_MS`] after accepting failed: with every
    /// descriptor in use (EMFILE, ENFILE) the waiting connection stays, and a watched listener
    /// would report it at once, over and over (as tmux, which retries after a second).
    fn pause_accepting(&mut self, listener: RawFd) {
        self.epoll.remove(listener);
        self.accept_resumes_at = Some(self.engine.host.now_ms() + ACCEPT_RETRY_MS);
    }

    /// Watches the listener again once its pause is over.
    fn resume_accepting(&mut self) {
        let Some(due) = self.accept_resumes_at else {
            return;
        };
        let now = self.engine.host.now_ms();
        if now < due {
            return;
        }
        self.accept_resumes_at = None;
        if let Some(listener) = &self.listener {
            if self
                .epoll
                .add(listener.as_raw_fd(), TOKEN_LISTENER, READABLE)
                .is_err()
            {
                self.accept_resumes_at = Some(now + ACCEPT_RETRY_MS);
            }
        }
    }

    /// Serves a connection as a client if its peer is this user.
    fn add_client(&mut self, fd: OwnedFd) {
        let Some(peer) = socket::peer(fd.as_raw_fd())
            .ok()
            .filter(|p| p.uid == socket::my_uid())
        else {
            return;
        };
        let id = self.next_client;
        self.next_client += 1;
        if self
            .epoll
            .add(fd.as_raw_fd(), TOKEN_CLIENT | id, READABLE)
            .is_ok()
        {
            self.clients.insert(id, Client::new(fd, peer.pid));
        }
    }

    fn client_event(&mut self, id: u64, readable: bool, writable: bool) {
        if readable {
            self.client_read(id);
        }
        if writable {
            self.client_write(id);
        }
    }

    fn client_read(&mut self, id: u64) {
        let Some(c) = self.clients.get_mut(&id) else {
            return;
        };
        let buf = &mut self.read_buf;
        let mut eof = false;
        loop {
            match fd::read(c.fd.as_raw_fd(), buf) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => {
                    c.inbuf.extend_from_slice(&buf[..n]);
                    // A short read took all there was; what comes later is reported again,
                    // so the read that would only say EAGAIN is saved.
                    if n < buf.len() {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    eof = true;
                    break;
                }
            }
            if c.inbuf.len() > protocol::MAX_LINE + protocol::MAX_FRAME {
                eof = true;
                break;
            }
        }
        self.process_input(id);
        if eof {
            if let Some(c) = self.clients.get_mut(&id) {
                c.closing = true;
                if c.attached {
                    // A terminal that goes away just leaves.
                    c.outbuf.clear();
                }
            }
        }
        self.client_write(id);
    }

    /// Handles what a client has sent: request lines (until one must wait), or frames once
    /// the connection is attached.
    fn process_input(&mut self, id: u64) {
        loop {
            let Some(c) = self.clients.get_mut(&id) else {
                return;
            };
            if c.attached {
                self.process_frames(id);
                return;
            }
            if c.waiting || self.engine.kill_requested() {
                return;
            }
            let Some(nl) = c.inbuf.iter().position(|&b| b == b'\n') else {
                if c.inbuf.len() > protocol::MAX_LINE {
                    c.closing = true;
                }
                return;
            };
            let line: Vec<u8> = c.inbuf.drain(..=nl).collect();
            let line = &line[..line.len() - 1];
            match self.handle_line(id, line) {
                Some(reply) => {
                    let attached = self.engine.clients.is_attached(id);
                    if let Some(c) = self.clients.get_mut(&id) {
                        c.outbuf.extend_from_slice(&reply);
                        c.attached = attached;
                        c.answered = true;
                    }
                }
                None => {
                    if let Some(c) = self.clients.get_mut(&id) {
                        c.waiting = true;
                    }
                }
            }
        }
    }

    /// Input and resize frames from an attached terminal.
    fn process_frames(&mut self, id: u64) {
        loop {
            let Some(c) = self.clients.get_mut(&id) else {
                return;
            };
            let (kind, payload, used) = match protocol::parse_frame(&c.inbuf) {
                Ok(Some((kind, payload, used))) => (kind, payload.to_vec(), used),
                Ok(None) => return,
                Err(_) => {
                    c.inbuf.clear();
                    c.closing = true;
                    return;
                }
            };
            c.inbuf.drain(..used);
            match kind {
                protocol::FRAME_INPUT => self.engine.client_input(id, &payload),
                protocol::FRAME_INPUT_END => self.engine.control_input_ended(id),
                protocol::FRAME_RESIZE => {
                    if let Some((cols, rows)) = protocol::parse_resize(&payload) {
                        self.engine.client_resize(id, cols, rows);
                    }
                }
                _ => {}
            }
        }
    }

    /// Runs one request line; `None` when its reply comes later.
    fn handle_line(&mut self, id: u64, line: &[u8]) -> Option<Vec<u8>> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return Some(Vec::new());
        }
        let wire = match protocol::parse_request(line) {
            Ok(w) => w,
            Err(e) => {
                return Some(protocol::reply_line(
                    1,
                    b"",
                    format!("zeropty: {e}\n").as_bytes(),
                ))
            }
        };
        let c = self.clients.get_mut(&id)?;
        if let Some(env) = wire.env {
            c.env = Arc::new(env);
        }
        c.raw_reply = wire.raw_reply;
        let req = Request {
            argv: wire
                .argv
                .iter()
                .map(|a| protocol::bytes_to_arg(a))
                .collect(),
            cwd: wire.cwd.unwrap_or_else(|| "/".into()),
            env: c.env.clone(),
            client: Some(id),
            terminal: wire.terminal,
            stdin: wire.stdin.map(Arc::from),
            pid: c.pid,
            control: wire.control.then_some(0),
        };
        let must_run_program = (wire.refuse_attach && commands::attaches(&req.argv))
            || (wire.refuse_stdin && req.stdin.is_none() && commands::reads_stdin(&req.argv));
        if must_run_program {
            return Some(protocol::must_attach_reply(wire.raw_reply));
        }
        let reply = self.engine.submit(&req)?;
        Some(self.reply_line(id, wire.raw_reply, &reply))
    }

    /// A reply's line: one that starts the attached terminal's frames if the request
    /// attached the client.
    fn reply_line(&self, id: u64, raw_reply: bool, reply: &Reply) -> Vec<u8> {
        if self.engine.clients.is_attached(id) {
            protocol::attached_reply_line(reply.code, &reply.out, &reply.err)
        } else {
            encode_reply(raw_reply, reply)
        }
    }

    /// After each turn: the clients' own work (which may let requests that waited go on),
    /// then replies that waited, attached clients' exits and screens.
    fn serve_clients(&mut self) {
        self.engine.clients_tick();
        for (id, reply) in self.engine.take_finished() {
            let Some(raw_reply) = self
                .clients
                .get(&id)
                .filter(|c| !c.attached)
                .map(|c| c.raw_reply)
            else {
                continue;
            };
            // A request held for the configuration file may attach when it goes on.
            let line = self.reply_line(id, raw_reply, &reply);
            let attached = self.engine.clients.is_attached(id);
            let Some(c) = self.clients.get_mut(&id) else {
                continue;
            };
            c.outbuf.extend_from_slice(&line);
            c.attached = attached;
            c.waiting = false;
            c.answered = true;
            self.process_input(id);
            self.client_write(id);
        }
        self.send_exits();
        let attached: Vec<u64> = self
            .clients
            .iter()
            .filter(|(_, c)| c.attached && !c.closing && c.outbuf.is_empty())
            .map(|(&id, _)| id)
            .collect();
        for id in attached {
            let frame = if self.engine.is_control(id) {
                self.engine
                    .control_text(id)
                    .map(|text| (protocol::FRAME_TEXT, text))
            } else {
                self.engine
                    .client_frame(id)
                    .map(|frame| (protocol::FRAME_DRAW, frame))
            };
            if let Some((kind, payload)) = frame {
                if let Some(c) = self.clients.get_mut(&id) {
                    protocol::push_frame(&mut c.outbuf, kind, &payload);
                }
                self.client_write(id);
            }
        }
    }

    /// Tells clients whose attachment ended why, then closes them.
    fn send_exits(&mut self) {
        for (id, exit) in self.engine.clients.take_exits() {
            let Some(c) = self.clients.get_mut(&id) else {
                continue;
            };
            push_exit(&mut c.outbuf, &exit);
            c.closing = true;
            self.client_write(id);
        }
    }

    fn client_write(&mut self, id: u64) {
        let Some(c) = self.clients.get_mut(&id) else {
            return;
        };
        while !c.outbuf.is_empty() {
            match fd::write(c.fd.as_raw_fd(), &c.outbuf) {
                Ok(n) if n > 0 => {
                    c.outbuf.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                _ => {
                    c.outbuf.clear();
                    c.closing = true;
                }
            }
        }
        let want_write = !c.outbuf.is_empty();
        // A client that closed its side while its request waits keeps the connection for the
        // reply, out of the epoll set until there is something to write.
        let parked = c.closing && c.waiting && !want_write;
        let done = c.closing && !want_write && !c.waiting;
        let interest = if c.closing { 0 } else { READABLE } | if want_write { WRITABLE } else { 0 };
        if done || parked {
            if c.registered {
                self.epoll.remove(c.fd.as_raw_fd());
                c.registered = false;
            }
            if done {
                self.clients.remove(&id);
                self.engine.client_gone(id);
            }
        } else if c.registered {
            if c.interest != interest {
                let _ = self
                    .epoll
                    .modify(c.fd.as_raw_fd(), TOKEN_CLIENT | id, interest);
                c.interest = interest;
            }
        } else {
            c.registered = self
                .epoll
                .add(c.fd.as_raw_fd(), TOKEN_CLIENT | id, interest)
                .is_ok();
            c.interest = interest;
        }
    }

    /// Before exiting, gives every client its pending replies (blocking briefly); attached
    /// terminals are told the server exited.
    fn flush_clients(&mut self) {
        for id in self.engine.abandon_waits() {
            if let Some(c) = self.clients.get_mut(&id) {
                c.outbuf
                    .extend_from_slice(&encode_reply(c.raw_reply, &Reply::default()));
            }
        }
        self.engine.end_all_clients();
        for (id, exit) in self.engine.clients.take_exits() {
            if let Some(c) = self.clients.get_mut(&id) {
                push_exit(&mut c.outbuf, &exit);
            }
        }
        for c in self.clients.values_mut() {
            let _ = fd::set_nonblocking(c.fd.as_raw_fd(), false);
            let _ = fd::write_all(c.fd.as_raw_fd(), &c.outbuf);
            c.outbuf.clear();
        }
    }
}

/// The frames that end an attached client: a control client's last lines, then the exit.
fn push_exit(outbuf: &mut Vec<u8>, exit: &Exit) {
    if let Exit::Control { text, .. } = exit {
        if !text.is_empty() {
            protocol::push_frame(outbuf, protocol::FRAME_TEXT, text);
        }
    }
    let payload = protocol::exit_payload(exit.status(), exit.last_step(), &exit.message());
    protocol::push_frame(outbuf, protocol::FRAME_EXIT, &payload);
}

/// A reply as the request asked for it: one JSON line, or raw (see `protocol`).
fn encode_reply(raw: bool, reply: &Reply) -> Vec<u8> {
    if raw {
        protocol::raw_reply(reply.code, &reply.out, &reply.err)
    } else {
        protocol::reply_line(reply.code, &reply.out, &reply.err)
    }
}
