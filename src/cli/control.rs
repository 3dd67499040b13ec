//! The control-mode client: `zeropty -C` and `-CC`, tmux's control mode.
//!
//! It sends its command line as a control client's request (`crate::protocol`, "Control
//! mode") and prints the reply's blocks. If a command attached it, it then copies its standard
//! input to the server (command lines) and the server's lines to its standard output until the
//! server ends it; the end of its input ends it too. Last it prints `%exit` (with a reason when
//! there is one), as tmux's client does, and exits with the status of its commands (0 once
//! attached).
//!
//! `-CC` is for terminals that speak the protocol themselves: standard input must be a
//! terminal, which is set as tmux sets it (raw, but carriage returns read as newlines and
//! newlines written as CR LF), and everything printed is wrapped in the DCS tmux's `-CC`
//! client writes (`ESC P 1000 p` first, `ESC \` last).

use super::attach::{client_terminal, send, send_request, take_frames, Leave};
use crate::protocol;
use crate::sys::{fd, socket, tty};
use std::collections::BTreeMap;
use std::os::fd::{AsRawFd, OwnedFd};

const STDIN: i32 = 0;
const STDOUT: i32 = 1;

/// What `-CC` writes first and last.
const DCS_START: &[u8] = b"\x1bP1000p";
const DCS_END: &[u8] = b"\x1b\\";

/// Runs a control client (`doubled` for `-CC`); returns the exit status.
pub fn run(
    conn: OwnedFd,
    argv: &[Vec<u8>],
    cwd: &str,
    env: &BTreeMap<String, String>,
    doubled: bool,
) -> i32 {
    let raw = match doubled.then(|| tty::RawMode::enter_control(STDIN)) {
        Some(Err(e)) => {
            eprintln!("tcgetattr failed: {}", socket::os_error(&e));
            return 1;
        }
        Some(Ok(raw)) => Some(raw),
        None => None,
    };
    if doubled {
        let _ = fd::write_all(STDOUT, DCS_START);
    }
    // A control client has no size until refresh-client -C gives it one.
    let terminal = client_terminal(env, 80, 24);
    let line = protocol::attach_request_line(argv, cwd, env, &terminal, true);
    let (status, wait, reason) = match send_request(&conn, &line, STDOUT) {
        Err(code) => (code, false, String::new()),
        Ok(rest) => {
            let (status, wait, reason) = pump(conn.as_raw_fd(), rest);
            (status as i32, wait, reason)
        }
    };
    let exit = match reason.as_str() {
        "" => "%exit\n".to_string(),
        reason => format!("%exit {reason}\n"),
    };
    let _ = fd::write_all(STDOUT, exit.as_bytes());
    if wait {
        wait_for_empty_line();
    }
    if doubled {
        let _ = fd::write_all(STDOUT, DCS_END);
    }
    drop(raw);
    status
}

/// `wait-exit`: reads standard input until an empty line or its end, as tmux's client does
/// before it exits.
fn wait_for_empty_line() {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while let Ok(1) = fd::read(STDIN, &mut byte) {
        if byte[0] != b'\n' {
            line.push(byte[0]);
        } else if std::mem::take(&mut line).is_empty() {
            return;
        }
    }
}

/// Copies standard input to the server and its lines to standard output until it ends the
/// client: its exit frame (status, SIGHUP flag, reason).
fn pump(sock: i32, mut inbuf: Vec<u8>) -> Leave {
    let lost_server = || (1, false, "server exited unexpectedly".to_string());
    let mut chunk = vec![0u8; 65536];
    let mut input = STDIN;
    loop {
        if let Some(leave) = take_frames(&mut inbuf, protocol::FRAME_TEXT) {
            return leave;
        }
        // Once the input has ended, only the server is waited for (-1 is never ready).
        let ready = match tty::wait_readable(&[input, sock]) {
            Ok(r) => r,
            Err(_) => return lost_server(),
        };
        if ready[0] {
            let sent = match fd::read(STDIN, &mut chunk) {
                Ok(n) if n > 0 => send(sock, protocol::FRAME_INPUT, &chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => true,
                _ => {
                    input = -1;
                    send(sock, protocol::FRAME_INPUT_END, &[])
                }
            };
            if !sent {
                return lost_server();
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
