//! The PTY backend with real processes: programs the shim cannot reach (a statically linked
//! program, a password prompt on `/dev/tty`) get a real terminal, the kernel's line discipline
//! handles keys (echo off, C-c), `#{pane_tty}` names the device, the window size reaches the
//! program, and the screen matches the same program under tmux 3.3a.
//!
//! The C programs are compiled here with gcc (`-static` needs glibc's static libraries).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use common::zp::{wait_for, Zp};

/// Where the compiled test programs live (once per test run).
fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("zp-pty-progs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        compile(&dir, "ttycheck", TTYCHECK_C, &["-static"]);
        compile(&dir, "password", PASSWORD_C, &[]);
        dir
    })
}

fn compile(dir: &Path, name: &str, source: &str, flags: &[&str]) {
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, source).unwrap();
    let o = Command::new("gcc")
        .args(flags)
        .args(["-O1", "-o"])
        .arg(dir.join(name))
        .arg(&src)
        .output()
        .expect("gcc");
    assert!(
        o.status.success(),
        "gcc {name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Asks the kernel directly (no libc wrapper an LD_PRELOAD library could answer, and a static
/// binary loads no such library anyway) whether fd 0 is a terminal.
const TTYCHECK_C: &str = r#"
#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>
int main(void) {
    struct termios t;
    long r = syscall(SYS_ioctl, 0, TCGETS, &t);
    if (r == 0)
        printf("TCGETS ok\n");
    else
        printf("TCGETS errno %d\n", errno);
    return 0;
}
"#;

/// What sudo does: the prompt and the reply go through /dev/tty, with echo turned off.
const PASSWORD_C: &str = r#"
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
int main(void) {
    int fd = open("/dev/tty", O_RDWR);
    if (fd < 0) {
        perror("open /dev/tty");
        return 1;
    }
    struct termios old, quiet;
    tcgetattr(fd, &old);
    quiet = old;
    quiet.c_lflag &= ~(ECHO | ECHOE | ECHOK | ECHONL);
    tcsetattr(fd, TCSAFLUSH, &quiet);
    write(fd, "Password: ", 10);
    char line[256];
    ssize_t n = read(fd, line, sizeof line - 1);
    tcsetattr(fd, TCSAFLUSH, &old);
    if (n > 0 && line[n - 1] == '\n')
        n--;
    dprintf(fd, "\nlength %zd\n", n);
    return 0;
}
"#;

#[test]
fn a_static_program_sees_a_terminal_only_on_the_pty_backend() {
    let prog = programs().join("ttycheck");
    let zp = Zp::new("pty-static").with_shell("/bin/sh");
    let cmd = format!("{}; exec sleep 30", prog.display());
    zp.ok(&["new-session", "-d", "-s", "p", "-T", "pty", &cmd]);
    zp.ok(&["new-session", "-d", "-s", "s", "-T", "socket", &cmd]);
    let pty = zp.wait_screen("=p:", |s| s.contains("TCGETS"));
    assert!(pty.contains("TCGETS ok"), "{pty}");
    // The shim cannot reach a static binary: on a socket it sees no terminal (ENOTTY).
    let socket = zp.wait_screen("=s:", |s| s.contains("TCGETS"));
    assert!(socket.contains("TCGETS errno 25"), "{socket}");
}

#[test]
fn a_password_prompt_reads_without_echo() {
    let prog = programs().join("password");
    let zp = Zp::new("pty-password").with_shell("/bin/sh");
    let cmd = format!("{}; exec sleep 30", prog.display());
    zp.ok(&["new-session", "-d", "-s", "w", "-T", "pty", &cmd]);
    zp.wait_screen("=w:", |s| s.contains("Password:"));
    zp.ok(&["send-keys", "-t", "=w:", "hunter2", "Enter"]);
    let s = zp.wait_screen("=w:", |s| s.contains("length"));
    assert!(s.contains("length 7"), "{s}");
    assert!(!s.contains("hunter2"), "the password was echoed:\n{s}");
}

#[test]
fn pane_tty_names_the_device_and_default_backend_picks_it() {
    let zp = Zp::new("pty-tty").with_shell("/bin/sh");
    zp.ok(&["new-session", "-d", "-s", "p", "-T", "pty", "sleep", "30"]);
    zp.ok(&["new-session", "-d", "-s", "s", "sleep", "30"]);
    let tty = zp.ok(&["display-message", "-p", "-t", "=p:", "#{pane_tty}"]);
    let tty = tty.trim();
    assert!(tty.starts_with("/dev/pts/"), "{tty:?}");
    // It is the program's own terminal.
    let pid = zp.ok(&["display-message", "-p", "-t", "=p:", "#{pane_pid}"]);
    // (Polled: the child may not have put the terminal on fd 0 yet.)
    let fd0 = format!("/proc/{}/fd/0", pid.trim());
    wait_for(
        || std::fs::read_link(&fd0).map_or(String::new(), |p| p.display().to_string()),
        |p| p == tty,
    );
    let socket = zp.ok(&["display-message", "-p", "-t", "=s:", "#{pane_tty}"]);
    assert_eq!(socket, "\n");

    zp.ok(&["set-option", "-g", "default-backend", "pty"]);
    zp.ok(&["new-session", "-d", "-s", "d", "sleep", "30"]);
    let d = zp.ok(&["display-message", "-p", "-t", "=d:", "#{pane_tty}"]);
    assert!(d.starts_with("/dev/pts/"), "{d:?}");
    // -T wins over the option.
    zp.ok(&[
        "new-session",
        "-d",
        "-s",
        "e",
        "-T",
        "socket",
        "sleep",
        "30",
    ]);
    assert_eq!(
        zp.ok(&["display-message", "-p", "-t", "=e:", "#{pane_tty}"]),
        "\n"
    );

    let o = zp.cmd(&["new-session", "-d", "-T", "serial", "sleep", "30"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "invalid backend: serial\n"
    );
}

#[test]
fn the_window_size_reaches_the_program() {
    let zp = Zp::new("pty-size").with_shell("/bin/sh");
    zp.ok(&[
        "new-session",
        "-d",
        "-s",
        "z",
        "-T",
        "pty",
        "-x",
        "123",
        "-y",
        "37",
        "trap 'stty size' WINCH; stty size; while :; do sleep 0.05; done",
    ]);
    let s = zp.wait_screen("=z:", |s| !s.trim().is_empty());
    assert_eq!(s.lines().next(), Some("37 123"), "{s}");
    // A resize reaches the terminal, and the kernel tells the program.
    zp.ok(&["resize-window", "-t", "=z:", "-x", "90", "-y", "20"]);
    zp.wait_screen("=z:", |s| s.contains("20 90"));
}

#[test]
fn c_c_interrupts_through_the_kernel() {
    let zp = Zp::new("pty-intr").with_shell("/bin/sh");
    let script =
        "trap 'echo got-INT' INT; echo waiting; sleep 30 & wait; echo after; exec sleep 30";
    zp.ok(&["new-session", "-d", "-s", "i", "-T", "pty", script]);
    zp.wait_screen("=i:", |s| s.contains("waiting"));
    zp.ok(&["send-keys", "-t", "=i:", "C-c"]);
    let s = zp.wait_screen("=i:", |s| s.contains("after"));
    // The kernel echoes the control character (ECHOCTL) and signals the foreground group.
    assert!(s.contains("^Cgot-INT"), "{s}");
}

/// A private tmux 3.3a server, killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn new(name: &str) -> Tmux {
        Tmux {
            socket: format!("zp-pty-{name}-{}", std::process::id()),
        }
    }

    fn cmd(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env_remove("TMUX")
            .env("SHELL", "/bin/sh")
            .output()
            .expect("tmux")
    }

    fn ok(&self, args: &[&str]) -> String {
        let o = self.cmd(args);
        assert!(
            o.status.success(),
            "tmux {args:?} failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

/// Starts the reference script with `start`, then types each line with `send`, waiting until
/// the echo and `cat`'s copy are both on the screen (so the two never interleave by timing).
fn run_reference(
    start: impl Fn(&[&str]),
    send: impl Fn(&[&str]),
    capture: impl Fn() -> String,
) -> String {
    // The kernel's output processing (ONLCR on and off), its echo and line editing, and the
    // program's own output, all on the same screen.
    let script = "printf 'tab\\there\\n'; stty -onlcr; printf 'raw\\nnext\\n'; stty onlcr; \
                  printf '\\033[1mbold\\033[0m end\\n'; exec cat";
    let lines: &[&[&str]] = &[
        &["hello", "Enter"],
        &["abc", "BSpace", "BSpace", "z", "Enter"],
        &["one two", "C-w", "three", "Enter"],
        &["C-v", "Tab", "x", "Enter"],
        &["C-u"],
        &["gone", "C-u", "fin", "Enter"],
    ];
    start(&["-x", "60", "-y", "20", "sh", "-c", script]);
    let filled = |s: &str| s.lines().filter(|l| !l.is_empty()).count();
    wait_for(&capture, |s| s.contains("end"));
    let mut want = filled(&capture());
    for keys in lines {
        send(keys);
        if keys.last() == Some(&"Enter") {
            want += 2;
        }
        wait_for(&capture, |s| filled(s) == want);
    }
    capture()
}

#[test]
fn capture_matches_tmux() {
    let zp = Zp::new("pty-reference").with_shell("/bin/sh");
    let ours = run_reference(
        |args| {
            let mut a = vec!["new-session", "-d", "-s", "r", "-T", "pty"];
            a.extend(args);
            zp.ok(&a);
        },
        |keys| {
            let mut a = vec!["send-keys", "-t", "=r:"];
            a.extend(keys);
            zp.ok(&a);
        },
        || zp.ok(&["capture-pane", "-p", "-t", "=r:"]),
    );
    let tmux = Tmux::new("reference");
    let theirs = run_reference(
        |args| {
            let mut a = vec!["new-session", "-d", "-s", "r"];
            a.extend(args);
            tmux.ok(&a);
        },
        |keys| {
            let mut a = vec!["send-keys", "-t", "=r:"];
            a.extend(keys);
            tmux.ok(&a);
        },
        || tmux.ok(&["capture-pane", "-p", "-t", "=r:"]),
    );
    assert_eq!(ours, theirs);
    // Styles too.
    assert_eq!(
        zp.ok(&["capture-pane", "-pe", "-t", "=r:"]),
        tmux.ok(&["capture-pane", "-pe", "-t", "=r:"])
    );
}
