//! The attached client: `zeropty attach`, and `zeropty new-session` without `-d`, run from a
//! terminal.
//!
//! It sends its request with the terminal's description (`crate::protocol`), and if the
//! reply says it is attached it puts the terminal in raw mode on the alternate screen, then
//! copies keys to the server as input frames, the terminal's size as resize frames (at start
//! and on SIGWINCH), and draw frames to the terminal, until an exit frame comes. Leaving, it
//! resets the modes the session turned on, restores the terminal and prints why it left, as
//! tmux does: `[detached (from session NAME)]`, `[exited]`, `[server exited]`.

use crate::protocol::{self, ClientTerminal};
use crate::sys::{fd, tty};
use std::collections::BTreeMap;
use std::io::Write;
use std::os::fd::{AsRawFd, OwnedFd};

const STDIN: i32 = 0;
const STDOUT: i32 = 1;

/// Alternate screen on, cleared.
const ENTER: &[u8] = b"\x1b[?1049h\x1b[H\x1b[2J";
/// Every mode a session may have turned on, off again; autowrap and the cursor back; the
/// alternate screen off (the shell's screen returns).
const LEAVE: &[u8] = b"\x1b[?1l\x1b>\x1b[?2004l\x1b[?1004l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1005l\x1b[?1006l\x1b[?7h\x1b[0m\x0f\x1b[?25h\x1b[?1049l";

/// Whether standard input is a terminal a client can attach with.
pub fn have_terminal() -> bool {
    tty::is_terminal(STDIN)
}

/// The client's locale is UTF-8 (tmux's test: LC_ALL, else LC_CTYPE, else LANG).
fn utf8_locale(env: &BTreeMap<String, String>) -> bool {
    let value = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|k| env.get(*k))
        .find(|v| !v.is_empty())
        .map(|v| v.to_ascii_uppercase())
        .unwrap_or_default();
    value.contains("UTF-8") || value.contains("UTF8")
}

/// Sends the request from a terminal and, once attached, runs the client until it leaves.
/// Returns the exit status.
pub fn run(conn: OwnedFd, argv: &[Vec<u8>], cwd: &str, env: &BTreeMap<String, String>) -> i32 {
    let (cols, rows) = tty::size(STDIN).unwrap_or((80, 24));
    let terminal = client_terminal(env, cols as u32, rows as u32);
    let line = protocol::attach_request_line(argv, cwd, env, &terminal, false);
    match send_request(&conn, &line, 2) {
        Err(code) => code,
        Ok(rest) => attached(conn, rest),
    }
}

/// The terminal a client brings, as the server is told of it.
pub(super) fn client_terminal(
    env: &BTreeMap<String, String>,
    cols: u32,
    rows: u32,
) -> ClientTerminal {
    ClientTerminal {
        cols,
        rows,
        term: env.get("TERM").cloned().unwrap_or_else(|| "unknown".into()),
        tty: tty::name(STDIN).unwrap_or_default(),
        pid: std::process::id(),
        utf8: utf8_locale(env),
    }
}

/// Sends a request that may attach and prints its reply's output and its errors (on
/// `errors_to`: 2, or 1 for a control client, whose errors tmux prints as output). `Ok` with
/// the bytes read past the reply when it attached the client, else `Err` with the exit status.
pub(super) fn send_request(conn: &OwnedFd, line: &[u8], errors_to: i32) -> Result<Vec<u8>, i32> {
    if fd::write_all(conn.as_raw_fd(), line).is_err() {
        eprintln!("server exited unexpectedly");
        return Err(1);
    }
    let mut buf = Vec::new();
    let mut chunk = [0u8; 65536];
    let nl = loop {
        if let Some(nl) = buf.iter().position(|&b| b == b'\n') {
            break nl;
        }
        match fd::read(conn.as_raw_fd(), &mut chunk) {
            Ok(n) if n > 0 => buf.extend_from_slice(&chunk[..n]),
            _ => {
                eprintln!("server exited unexpectedly");
                return Err(1);
            }
        }
    };
    let reply = &buf[..nl];
    let Ok((code, out, err)) = protocol::parse_reply(reply) else {
        eprintln!("server exited unexpectedly");
        return Err(1);
    };
    let _ = std::io::stdout().write_all(&out);
    let _ = std::io::stdout().flush();
    let _ = fd::write_all(errors_to, &err);
    if !protocol::reply_attached(reply) {
        return Err(code);
    }
    Ok(buf[nl + 1..].to_vec())
}

/// Why the client stopped: exit status, whether to SIGHUP the parent, message.
pub(super) type Leave = (u8, bool, String);

fn attached(conn: OwnedFd, mut inbuf: Vec<u8>) -> i32 {
    let signals = tty::Signals::catch(&[tty::SIGWINCH, tty::SIGTERM, tty::SIGHUP]).ok();
    let raw = tty::RawMode::enter(STDIN).ok();
    let _ = fd::write_all(STDOUT, ENTER);
    let sock = conn.as_raw_fd();
    let leave = run_loop(sock, &mut inbuf, signals.as_ref());
    let _ = fd::write_all(STDOUT, LEAVE);
    drop(raw);
    drop(signals);
    let (status, hup, message) = leave;
    println!("[{message}]");
    let _ = std::io::stdout().flush();
    if hup {
        tty::hang_up_parent();
    }
    status as i32
}

pub(super) fn send(sock: i32, kind: u8, payload: &[u8]) -> bool {
    let mut frame = Vec::with_capacity(payload.len() + 5);
    protocol::push_frame(&mut frame, kind, payload);
    fd::write_all(sock, &frame).is_ok()
}

fn send_size(sock: i32) -> bool {
    match tty::size(STDIN) {
        Some((cols, rows)) => send(
            sock,
            protocol::FRAME_RESIZE,
            &protocol::resize_payload(cols, rows),
        ),
        None => true,
    }
}

/// Handles the whole frames at the start of `inbuf`: those of kind `shown` are written to
/// standard output; an exit frame (or a broken frame, or output that cannot be written) ends
/// the client, with why.
pub(super) fn take_frames(inbuf: &mut Vec<u8>, shown: u8) -> Option<Leave> {
    loop {
        let (kind, payload, used) = match protocol::parse_frame(inbuf) {
            Ok(Some(frame)) => frame,
            Ok(None) => return None,
            Err(_) => return Some((1, false, "server exited unexpectedly".into())),
        };
        if kind == protocol::FRAME_EXIT {
            return Some(protocol::parse_exit(payload));
        }
        if kind == shown && fd::write_all(STDOUT, payload).is_err() {
            return Some((1, false, "lost tty".into()));
        }
        inbuf.drain(..used);
    }
}

fn run_loop(sock: i32, inbuf: &mut Vec<u8>, signals: Option<&tty::Signals>) -> Leave {
    let lost_server = || (1, false, "server exited unexpectedly".to_string());
    // The size may have changed while the request was on its way.
    if !send_size(sock) {
        return lost_server();
    }
    let mut chunk = vec![0u8; 65536];
    loop {
        if let Some(leave) = take_frames(inbuf, protocol::FRAME_DRAW) {
            return leave;
        }
        let sig_fd = signals.map_or(-1, |s| s.fd());
        let ready = match tty::wait_readable(&[STDIN, sock, sig_fd]) {
            Ok(r) => r,
            Err(_) => return lost_server(),
        };
        if ready[2] {
            for sig in signals.map(|s| s.take()).unwrap_or_default() {
                match sig {
                    tty::SIGWINCH if !send_size(sock) => return lost_server(),
                    tty::SIGTERM => return (1, false, "terminated".into()),
                    tty::SIGHUP => return (1, false, "lost tty".into()),
                    _ => {}
                }
            }
        }
        if ready[0] {
            match fd::read(STDIN, &mut chunk) {
                Ok(n) if n > 0 => {
                    if !send(sock, protocol::FRAME_INPUT, &chunk[..n]) {
                        return lost_server();
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                _ => return (1, false, "lost tty".into()),
            }
        }
        if ready[1] {
            match fd::read(sock, &mut chunk) {
                Ok(n) if n > 0 => inbuf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                _ => return lost_server(),
            }
        }
    }
}
