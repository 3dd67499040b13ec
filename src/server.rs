//! The socket server: accepts clients on the private unix socket, reads request lines, runs
//! them through the engine and writes reply lines, while the same loop moves every session's
//! output and input.
//!
//! One thread and one epoll serve every session, client and timer. A turn of the loop waits
//! for readiness (or the engine's next deadline), hands pane events to the engine, serves
//! clients in arrival order, then checks whether the server should stop (no sessions left and
//! no client connected, as tmux's exit-empty; or kill-server).
//!
//! Invariants: a client from another uid is dropped at accept (SO_PEERCRED); a client's
//! malformed line gets an error reply and changes nothing; a client that disconnects mid-way
//! loses only its own replies; a slow client never blocks the loop (replies are buffered).

use crate::engine::os::IoEvent;
use crate::engine::{Engine, Request};
use crate::protocol;
use crate::sys::fd;
use crate::sys::host_os::{HostOs, TOKEN_EXIT, TOKEN_KIND, TOKEN_TERMINAL};
use crate::sys::poll::{Epoll, READABLE, WRITABLE};
use crate::sys::socket;
use std::collections::{BTreeMap, HashMap};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::rc::Rc;

const TOKEN_LISTENER: u64 = 3 << 56;
const TOKEN_CLIENT: u64 = 4 << 56;

/// How the server was asked to start.
pub struct ServeOptions {
    pub socket: PathBuf,
    /// Configuration file to load first (`-f`), and whether a missing one is an error.
    pub config: Option<(PathBuf, bool)>,
    /// Descriptor to write one byte to once the socket accepts connections.
    pub ready_fd: Option<i32>,
}

struct Client {
    fd: OwnedFd,
    inbuf: Vec<u8>,
    outbuf: Vec<u8>,
    closing: bool,
}

pub struct Server {
    epoll: Rc<Epoll>,
    listener: OwnedFd,
    engine: Engine,
    clients: HashMap<u64, Client>,
    next_client: u64,
}

/// Runs a server until it has nothing left to serve. Returns the process exit code.
pub fn serve(opts: ServeOptions) -> Result<(), String> {
    crate::sys::process::ignore_sigpipe();
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
    let host = HostOs::new(epoll.clone(), state.clone(), shim).map_err(|e| e.to_string())?;
    let environ: BTreeMap<String, String> = std::env::vars()
        .filter(|(k, _)| k != "ZEROPTY_READY_FD")
        .collect();
    let engine = Engine::new(
        Box::new(host),
        environ,
        &opts.socket.to_string_lossy(),
        std::process::id(),
    );
    let mut server = Server {
        epoll,
        listener,
        engine,
        clients: HashMap::new(),
        next_client: 0,
    };
    if let Some((path, must_exist)) = &opts.config {
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
            env: self.engine.environ.clone(),
        };
        let reply = self.engine.run_config(&req);
        if !reply.err.is_empty() {
            // tmux shows configuration errors to the first client; keep them for it.
            self.engine.config_errors.extend_from_slice(&reply.err);
        }
    }

    fn run(&mut self) -> Result<(), String> {
        loop {
            let timeout = self
                .engine
                .next_deadline()
                .map(|d| d.saturating_sub(self.engine.host.now_ms()));
            let events = self.epoll.wait(timeout).map_err(|e| e.to_string())?;
            for ev in events {
                let kind = ev.token & TOKEN_KIND;
                let id = ev.token & !TOKEN_KIND;
                match kind {
                    TOKEN_LISTENER => self.accept(),
                    TOKEN_CLIENT => self.client_event(id, ev.readable || ev.hangup, ev.writable),
                    TOKEN_TERMINAL => {
                        if ev.readable || ev.hangup {
                            self.engine.io_event(id, IoEvent::Readable);
                        }
                        if ev.writable {
                            self.engine.io_event(id, IoEvent::Writable);
                        }
                    }
                    TOKEN_EXIT => self.engine.io_event(id, IoEvent::Exited),
                    _ => {}
                }
            }
            self.engine.tick();
            if self.engine.kill_requested() {
                self.flush_clients();
                return Ok(());
            }
            if self.engine.sessions.is_empty()
                && self.engine.options.flag("exit-empty")
                && self.clients.is_empty()
            {
                return Ok(());
            }
        }
    }

    fn accept(&mut self) {
        loop {
            let fd = match socket::accept(self.listener.as_raw_fd()) {
                Ok(Some(fd)) => fd,
                Ok(None) | Err(_) => return,
            };
            if socket::peer_uid(fd.as_raw_fd()).ok() != Some(socket::my_uid()) {
                continue;
            }
            let id = self.next_client;
            self.next_client += 1;
            if self
                .epoll
                .add(fd.as_raw_fd(), TOKEN_CLIENT | id, READABLE)
                .is_err()
            {
                continue;
            }
            self.clients.insert(
                id,
                Client {
                    fd,
                    inbuf: Vec::new(),
                    outbuf: Vec::new(),
                    closing: false,
                },
            );
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
        let mut buf = [0u8; 65536];
        let mut eof = false;
        loop {
            match fd::read(c.fd.as_raw_fd(), &mut buf) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => c.inbuf.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    eof = true;
                    break;
                }
            }
            if c.inbuf.len() > protocol::MAX_LINE {
                eof = true;
                break;
            }
        }
        while let Some(nl) = self
            .clients
            .get(&id)
            .and_then(|c| c.inbuf.iter().position(|&b| b == b'\n'))
        {
            let line: Vec<u8> = {
                let c = self.clients.get_mut(&id).expect("client present");
                let line = c.inbuf[..nl].to_vec();
                c.inbuf.drain(..=nl);
                line
            };
            let reply = self.handle_line(&line);
            if let Some(c) = self.clients.get_mut(&id) {
                c.outbuf.extend_from_slice(&reply);
            }
            if self.engine.kill_requested() {
                break;
            }
        }
        if eof {
            if let Some(c) = self.clients.get_mut(&id) {
                c.closing = true;
            }
        }
        self.client_write(id);
    }

    fn handle_line(&mut self, line: &[u8]) -> Vec<u8> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return Vec::new();
        }
        let wire = match protocol::parse_request(line) {
            Ok(w) => w,
            Err(e) => return protocol::reply_line(1, b"", format!("zeropty: {e}\n").as_bytes()),
        };
        let req = Request {
            argv: wire
                .argv
                .iter()
                .map(|a| protocol::bytes_to_arg(a))
                .collect(),
            cwd: wire.cwd.unwrap_or_else(|| "/".into()),
            env: wire.env,
        };
        let reply = self.engine.run(&req);
        protocol::reply_line(reply.code, &reply.out, &reply.err)
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
        let done = c.closing && c.outbuf.is_empty();
        let want_write = !c.outbuf.is_empty();
        let interest = if c.closing { 0 } else { READABLE } | if want_write { WRITABLE } else { 0 };
        if done {
            self.epoll.remove(c.fd.as_raw_fd());
            self.clients.remove(&id);
        } else {
            let _ = self
                .epoll
                .modify(c.fd.as_raw_fd(), TOKEN_CLIENT | id, interest);
        }
    }

    /// Before exiting, gives every client its pending replies (blocking briefly).
    fn flush_clients(&mut self) {
        for c in self.clients.values_mut() {
            let _ = fd::set_nonblocking(c.fd.as_raw_fd(), false);
            let _ = fd::write_all(c.fd.as_raw_fd(), &c.outbuf);
            c.outbuf.clear();
        }
    }
}
