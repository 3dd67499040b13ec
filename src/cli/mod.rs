//! The `zeropty` program's command line: tmux's global flags, then a command sent to the
//! server (started first when the command needs one, as tmux does), or `serve`, `help` or
//! `-V`.
//!
//! Output and exit status follow tmux: the command's output on stdout, errors on stderr, exit
//! status 1 on error; with no server, `no server running on PATH` or
//! `error connecting to PATH (REASON)`.
//!
//! A command that attaches (attach-session, new-session without `-d`) run from a terminal
//! becomes an attached client (`attach`); with `-C` (or `-CC`) the program is a control-mode
//! client whatever its command (`control`).

mod attach;
mod control;

use crate::engine::{cmdline, commands};
use crate::protocol;
use crate::server::{self, ServeOptions};
use crate::sys::{fd, socket};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::path::PathBuf;

/// The program's usage line, as tmux words it; completions read the global flags from it.
pub const USAGE: &str = "usage: zeropty [-2CDlNuVv] [-c shell-command] [-f file] [-L socket-name]\n               [-S socket-path] [-T features] [command [flags]]";

struct Global {
    label: Option<String>,
    path: Option<String>,
    /// `-f` files, in order (tmux takes several).
    config: Vec<String>,
    shell_command: Option<String>,
    version: bool,
    /// How many times `-C` was given: control mode, and `-CC` its DCS-wrapped form.
    control: usize,
    args: Vec<String>,
}

fn parse_global(argv: &[String]) -> Result<Global, ()> {
    let mut g = Global {
        label: None,
        path: None,
        config: Vec::new(),
        shell_command: None,
        version: false,
        control: 0,
        args: Vec::new(),
    };
    let mut i = 0;
    while i < argv.len() {
        let a = &argv[i];
        if a == "--" {
            i += 1;
            break;
        }
        if !a.starts_with('-') || a == "-" {
            break;
        }
        let flags: Vec<char> = a[1..].chars().collect();
        let mut j = 0;
        while j < flags.len() {
            let c = flags[j];
            match c {
                'C' => g.control += 1,
                '2' | 'D' | 'l' | 'N' | 'u' | 'v' => {}
                'V' => g.version = true,
                'c' | 'f' | 'L' | 'S' | 'T' => {
                    let rest: String = flags[j + 1..].iter().collect();
                    let value = if !rest.is_empty() {
                        rest
                    } else {
                        i += 1;
                        argv.get(i).cloned().ok_or(())?
                    };
                    match c {
                        'c' => g.shell_command = Some(value),
                        'f' => g.config.push(value),
                        'L' => g.label = Some(value),
                        'S' => g.path = Some(value),
                        _ => {}
                    }
                    j = flags.len();
                    continue;
                }
                _ => return Err(()),
            }
            j += 1;
        }
        i += 1;
    }
    g.args = argv[i..].to_vec();
    Ok(g)
}

/// The server's socket: `-S`, else `-L` in the socket directory, else the server of the
/// session this runs in (`ZEROPTY=PATH,PID,SESSION`), else `default`.
fn socket_path(g: &Global) -> PathBuf {
    if let Some(p) = &g.path {
        return PathBuf::from(p);
    }
    if g.label.is_none() {
        if let Some(inside) = std::env::var("ZEROPTY").ok().filter(|v| !v.is_empty()) {
            if let Some((path, _)) = inside.rsplitn(3, ',').last().map(|p| (p, ())) {
                return PathBuf::from(path);
            }
        }
    }
    socket::socket_dir().join(g.label.as_deref().unwrap_or("default"))
}

/// Runs the program; returns the exit status. A server started here calls `release_memory`
/// at most once a second while it works (see [`ServeOptions`]).
pub fn main(argv0: &str, argv: &[String], release_memory: fn()) -> i32 {
    let Ok(g) = parse_global(argv) else {
        eprintln!("{USAGE}");
        return 1;
    };
    if g.version {
        let as_tmux = std::path::Path::new(argv0)
            .file_name()
            .is_some_and(|n| n == "tmux");
        if as_tmux {
            println!("tmux 3.3a");
        } else {
            println!("zeropty {}", env!("CARGO_PKG_VERSION"));
        }
        return 0;
    }
    match g.args.first().map(String::as_str) {
        Some("serve") => return serve_command(&g, release_memory),
        Some("help") => return help_command(&g.args[1..]),
        _ => {}
    }
    if let Some(cmd) = &g.shell_command {
        return run_shell_command(cmd);
    }
    let args = if g.args.is_empty() {
        vec!["new-session".to_string()]
    } else {
        g.args.clone()
    };
    client(&g, &args)
}

fn run_shell_command(cmd: &str) -> i32 {
    let shell = crate::sys::process::user_shell(std::env::var("SHELL").ok().as_deref());
    match std::process::Command::new(shell)
        .arg("-c")
        .arg(cmd)
        .status()
    {
        Ok(s) => s.code().unwrap_or(1),
        Err(_) => 1,
    }
}

/// `zeropty help`: the usage and every command's synopsis; `zeropty help COMMAND`: that
/// command's (found by name, alias or unique prefix, as the server finds it).
fn help_command(words: &[String]) -> i32 {
    let mut out = String::new();
    match words.first() {
        None => {
            out.push_str(USAGE);
            out.push_str("\n\ncommands:\n");
            for c in commands::all() {
                out.push_str(&format!("  {}\n", c.synopsis()));
            }
        }
        Some(name) => match commands::find(name) {
            Ok(c) => out.push_str(&format!("usage: {}\n", c.synopsis())),
            Err(e) => {
                eprintln!("zeropty: {e}");
                return 1;
            }
        },
    }
    let _ = std::io::stdout().write_all(out.as_bytes());
    0
}

fn serve_command(g: &Global, release_memory: fn()) -> i32 {
    let daemon = g.args.iter().any(|a| a == "--daemon");
    if daemon {
        // SAFETY: setsid in a fresh single-threaded process.
        unsafe { libc::setsid() };
    }
    let handed = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    let ready_fd = handed("ZEROPTY_READY_FD");
    let first_client_fd = handed("ZEROPTY_CLIENT_FD");
    let opts = ServeOptions {
        socket: socket_path(g),
        config: config_files(g),
        ready_fd,
        first_client_fd,
        release_memory,
    };
    match server::serve(opts) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// The configuration files: each `-f FILE` (must exist), else `~/.zeropty.conf` if present.
fn config_files(g: &Global) -> Vec<(PathBuf, bool)> {
    if g.config.is_empty() {
        let home = std::env::var_os("HOME");
        return home
            .map(|h| (PathBuf::from(h).join(".zeropty.conf"), false))
            .into_iter()
            .collect();
    }
    g.config.iter().map(|f| (PathBuf::from(f), true)).collect()
}

fn starts_server(args: &[String]) -> bool {
    cmdline::split_argv(args).iter().any(|cmd| {
        cmd.first()
            .and_then(|n| commands::find(n).ok())
            .is_some_and(|c| c.starts_server)
    })
}

fn client(g: &Global, args: &[String]) -> i32 {
    let path = socket_path(g);
    if g.path.is_none() {
        if let Err(e) = socket::ensure_private_dir(&socket::socket_dir()) {
            eprintln!("{e}");
            return 1;
        }
    }
    let conn = match socket::connect(&path) {
        Ok(fd) => fd,
        Err(e) => {
            let refused = matches!(
                e.raw_os_error(),
                Some(libc::ECONNREFUSED) | Some(libc::ENOENT)
            );
            if !(refused && starts_server(args)) {
                report_connect_error(&path, &e);
                return 1;
            }
            match start_server(g, &path) {
                Ok(fd) => fd,
                Err(e) => {
                    report_connect_error(&path, &e);
                    return 1;
                }
            }
        }
    };
    let cwd = std::env::current_dir()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "/".into());
    // A variable that is not UTF-8 crosses as best it can rather than failing the command.
    let env: BTreeMap<String, String> = std::env::vars_os()
        .map(|(k, v)| {
            (
                k.to_string_lossy().into_owned(),
                v.to_string_lossy().into_owned(),
            )
        })
        .collect();
    // Arguments carry bytes that are not UTF-8 escaped (see protocol::bytes_to_arg).
    let argv: Vec<Vec<u8>> = args.iter().map(|a| protocol::arg_to_bytes(a)).collect();
    if g.control > 0 {
        return control::run(conn, &argv, &cwd, &env, g.control > 1);
    }
    // A command that attaches takes over the terminal, if there is one; without one the
    // request goes as usual and the server answers as tmux does (`not a terminal`).
    if commands::attaches(args) && attach::have_terminal() {
        return attach::run(conn, &argv, &cwd, &env);
    }
    // A command that reads standard input (load-buffer -) gets all of it, as tmux's client
    // sends it.
    let mut stdin = Vec::new();
    let stdin = commands::reads_stdin(args)
        .then(|| {
            std::io::stdin()
                .read_to_end(&mut stdin)
                .map(|_| stdin.as_slice())
        })
        .transpose()
        .unwrap_or(Some(&[]));
    let line = protocol::request_line(&argv, &cwd, &env, stdin);
    if fd::write_all(conn.as_raw_fd(), &line).is_err() {
        eprintln!("server exited unexpectedly");
        return 1;
    }
    let mut reply = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match fd::read(conn.as_raw_fd(), &mut buf) {
            Ok(0) => break,
            Ok(n) => {
                reply.extend_from_slice(&buf[..n]);
                if reply.ends_with(b"\n") {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    match protocol::parse_reply(reply.trim_ascii_end()) {
        Ok((code, out, err)) => {
            let _ = std::io::stdout().write_all(&out);
            let _ = std::io::stdout().flush();
            let _ = std::io::stderr().write_all(&err);
            code
        }
        Err(_) => {
            eprintln!("server exited unexpectedly");
            1
        }
    }
}

fn report_connect_error(path: &std::path::Path, e: &std::io::Error) {
    if e.raw_os_error() == Some(libc::ECONNREFUSED) {
        eprintln!("no server running on {}", path.display());
    } else {
        eprintln!(
            "error connecting to {} ({})",
            path.display(),
            socket::os_error(e)
        );
    }
}

/// Starts a server in the background (one at a time, under a lock beside the socket) and
/// connects to it.
fn start_server(g: &Global, path: &std::path::Path) -> std::io::Result<std::os::fd::OwnedFd> {
    let lock_path = PathBuf::from(format!("{}.lock", path.display()));
    let _lock = socket::lock(&lock_path)?;
    // Another client may have started it while we waited for the lock.
    if let Ok(fd) = socket::connect(path) {
        return Ok(fd);
    }
    let (ready_read, ready_write) = crate::sys::process::pipe()?;
    // This client's connection is made before the server starts and handed to it, as tmux
    // does, so the server serves it even if the configuration file's sessions all end before
    // it could have connected.
    let (connection, server_end) = socket::socketpair()?;
    let exe = std::env::current_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("-S").arg(path);
    for f in &g.config {
        cmd.arg("-f").arg(f);
    }
    cmd.arg("serve").arg("--daemon");
    cmd.env("ZEROPTY_READY_FD", ready_write.as_raw_fd().to_string());
    cmd.env("ZEROPTY_CLIENT_FD", server_end.as_raw_fd().to_string());
    cmd.stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    crate::sys::process::keep_across_exec(&mut cmd, ready_write.as_raw_fd());
    crate::sys::process::keep_across_exec(&mut cmd, server_end.as_raw_fd());
    let mut child = cmd.spawn()?;
    drop(ready_write);
    drop(server_end);
    let mut b = [0u8; 1];
    let _ = fd::read(ready_read.as_raw_fd(), &mut b);
    // The server daemon is reaped here: it keeps running in its own session.
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    let _ = std::fs::remove_file(&lock_path);
    Ok(connection)
}
