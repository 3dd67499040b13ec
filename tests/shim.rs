//! The terminal shim with real programs: each test gives programs one end of a socketpair as
//! fds 0/1/2 with the shim preloaded, as a session does, and checks from the other end what
//! they print, which markers they send and what they leave in the state slot.
//!
//! Every wait has a deadline: a test that would hang fails with what it had read so far.

use std::io::Write as _;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use zeropty::engine::tty::{
    eof_marker, flags, MarkerScanner, Piece, ShimEvent, Termios, ENV_STATE, ENV_TOKEN, ENV_TTY,
};
use zeropty::sys::shim::{install, StateFile};

const TIMEOUT: Duration = Duration::from_secs(20);
const ROWS: u16 = 33;
const COLS: u16 = 101;

/// A session terminal: the engine's end of the socketpair, the program's end, a state file
/// with one slot, and the installed shim, all in a temporary directory removed on drop.
struct Session {
    dir: PathBuf,
    shim: PathBuf,
    state: Arc<StateFile>,
    state_path: PathBuf,
    offset: u64,
    token: String,
    ours: OwnedFd,
    theirs: OwnedFd,
    scanner: MarkerScanner,
    output: Vec<u8>,
    events: Vec<ShimEvent>,
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn random_token() -> String {
    let mut b = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut b))
        .expect("reading /dev/urandom");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

impl Session {
    fn new() -> Session {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "zeropty-shim-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let shim = install(&dir).unwrap();
        let state_path = dir.join("server.state");
        let state = StateFile::create(&state_path).unwrap();
        // A slot other than the first, so the offset is really used.
        let offset = state.slot(2).unwrap();
        let mut fds = [0 as RawFd; 2];
        // SAFETY: fds has room for two descriptors.
        let r = unsafe {
            libc::socketpair(
                libc::AF_UNIX,
                libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
                0,
                fds.as_mut_ptr(),
            )
        };
        assert_eq!(r, 0, "socketpair: {}", std::io::Error::last_os_error());
        // SAFETY: both descriptors are new and ours.
        let (ours, theirs) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // SAFETY: fcntl on an open descriptor.
        unsafe {
            let fl = libc::fcntl(ours.as_raw_fd(), libc::F_GETFL);
            libc::fcntl(ours.as_raw_fd(), libc::F_SETFL, fl | libc::O_NONBLOCK);
        }
        let token = random_token();
        Session {
            dir,
            shim,
            state: Arc::new(state),
            state_path,
            offset,
            scanner: MarkerScanner::new(&token),
            token,
            ours,
            theirs,
            output: Vec::new(),
            events: Vec::new(),
        }
    }

    fn tty_id(&self) -> String {
        // SAFETY: stat is plain data and fstat fills it.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: fstat on an open descriptor.
        assert_eq!(unsafe { libc::fstat(self.theirs.as_raw_fd(), &mut st) }, 0);
        format!("{}:{}", st.st_dev, st.st_ino)
    }

    /// A command run as a session's program: a new session, the terminal on 0/1/2, the slot
    /// initialised with the child as session leader and foreground group, the shim preloaded.
    fn command(&self, argv: &[&str]) -> Command {
        let mut cmd = Command::new(argv[0]);
        cmd.args(&argv[1..])
            .env("LD_PRELOAD", &self.shim)
            .env(ENV_TTY, self.tty_id())
            .env(ENV_TOKEN, &self.token)
            .env(
                ENV_STATE,
                format!("{}:{}", self.state_path.display(), self.offset),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let fd = self.theirs.as_raw_fd();
        let state = Arc::clone(&self.state);
        let offset = self.offset;
        let termios = Termios::pane_default();
        // SAFETY: the closure only makes async-signal-safe calls (setsid, getpid, pwrite, dup2).
        unsafe {
            cmd.pre_exec(move || {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                let pid = libc::getpid();
                state.init_slot(offset, pid, pid, &termios)?;
                state.write_winsize(offset, ROWS, COLS)?;
                for target in 0..3 {
                    if libc::dup2(fd, target) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        cmd
    }

    fn spawn(&self, argv: &[&str]) -> Child {
        self.command(argv)
            .spawn()
            .unwrap_or_else(|e| panic!("spawning {argv:?}: {e}"))
    }

    fn sh(&self, script: &str) -> Child {
        self.spawn(&["sh", "-c", script])
    }

    /// Sends bytes to the program as the engine would (keyboard input, EOF markers).
    fn send(&self, data: &[u8]) {
        let mut f = std::fs::File::from(self.ours.try_clone().unwrap());
        // The engine's end is non-blocking; these writes are small.
        f.write_all(data).unwrap();
    }

    fn send_eof(&self) {
        self.send(&eof_marker(&self.token));
    }

    /// Reads what is available, splitting it into output and events. Returns whether anything
    /// was read.
    fn pump(&mut self, wait: Duration) -> bool {
        let mut p = libc::pollfd {
            fd: self.ours.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        unsafe { libc::poll(&mut p, 1, wait.as_millis() as i32) };
        let mut any = false;
        let mut buf = [0u8; 65536];
        loop {
            // SAFETY: buf is valid for writes of its length.
            let n =
                unsafe { libc::read(self.ours.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
            if n <= 0 {
                break;
            }
            any = true;
            let (output, events) = (&mut self.output, &mut self.events);
            self.scanner.scan(&buf[..n as usize], |piece| match piece {
                Piece::Output(b) => output.extend_from_slice(b),
                Piece::Event(e) => events.push(e),
            });
        }
        any
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.output).into_owned()
    }

    /// Reads until `done` holds for the output and events so far.
    fn wait_for(&mut self, what: &str, done: impl Fn(&str, &[ShimEvent]) -> bool) {
        let deadline = Instant::now() + TIMEOUT;
        while !done(&self.text(), &self.events) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; output so far: {:?}, events: {:?}",
                self.text(),
                self.events
            );
            self.pump(Duration::from_millis(50));
        }
    }

    /// Waits for the child to exit, reading its output meanwhile, then drains what is left.
    fn finish(&mut self, child: &mut Child) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "program did not exit; output so far: {:?}, events: {:?}",
                    self.text(),
                    self.events
                );
            }
            self.pump(Duration::from_millis(20));
        };
        while self.pump(Duration::from_millis(50)) {}
        status
    }

    /// Runs a command to completion, returning its exit status.
    fn run(&mut self, argv: &[&str]) -> ExitStatus {
        let mut child = self.spawn(argv);
        self.finish(&mut child)
    }

    fn run_sh(&mut self, script: &str) -> ExitStatus {
        self.run(&["sh", "-c", script])
    }

    fn termios_events(&self) -> Vec<Termios> {
        self.events
            .iter()
            .filter_map(|e| match e {
                ShimEvent::Termios(t) => Some(*t),
                _ => None,
            })
            .collect()
    }
}

/// Compiles a small C program into the session's directory.
fn compile_c(dir: &Path, name: &str, source: &str) -> PathBuf {
    let src = dir.join(format!("{name}.c"));
    let bin = dir.join(name);
    std::fs::write(&src, source).unwrap();
    let out = Command::new("cc")
        .arg("-O1")
        .arg("-o")
        .arg(&bin)
        .arg(&src)
        .output()
        .expect("running cc");
    assert!(
        out.status.success(),
        "cc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    bin
}

#[test]
fn fds_are_terminals_with_the_slot_window_size() {
    let mut s = Session::new();
    let st = s.run(&[
        "python3",
        "-c",
        "import os,sys; print(os.isatty(0), os.isatty(1), os.get_terminal_size())",
    ]);
    assert!(st.success());
    assert_eq!(
        s.text(),
        format!("True True os.terminal_size(columns={COLS}, lines={ROWS})\n")
    );
}

#[test]
fn without_the_environment_the_shim_does_nothing() {
    let mut s = Session::new();
    let mut cmd = s.command(&["python3", "-c", "import os; print(os.isatty(0))"]);
    cmd.env_remove(ENV_TOKEN);
    let mut child = cmd.spawn().unwrap();
    assert!(s.finish(&mut child).success());
    assert_eq!(s.text(), "False\n");
}

#[test]
fn stty_a_prints_the_slot_settings() {
    let mut s = Session::new();
    assert!(s.run(&["stty", "-a"]).success());
    let out = s.text();
    for want in [
        &format!("rows {ROWS}; columns {COLS};") as &str,
        "intr = ^C;",
        "erase = ^?;",
        "eof = ^D;",
        " icanon ",
        " echo ",
        "iutf8",
        " onlcr ",
    ] {
        assert!(out.contains(want), "{want:?} missing from {out:?}");
    }
    assert!(
        s.events.is_empty(),
        "stty -a changed nothing: {:?}",
        s.events
    );
}

#[test]
fn stty_raw_sends_a_marker_and_updates_the_slot() {
    let mut s = Session::new();
    assert!(s.run(&["stty", "raw", "-echo"]).success());
    let ts = s.termios_events();
    let last = *ts
        .last()
        .unwrap_or_else(|| panic!("no termios marker: {:?}", s.text()));
    assert!(!last.has_l(flags::ICANON) && !last.has_l(flags::ECHO) && !last.has_l(flags::ISIG));
    assert_eq!(s.state.read_termios(s.offset).unwrap(), last);
    assert!(s.state.read_generation(s.offset).unwrap() >= 1);
    assert_eq!(s.text(), "", "markers are not output");
}

#[test]
fn stty_size_changes_write_the_slot() {
    let mut s = Session::new();
    assert!(s.run_sh("stty rows 40 cols 132 && stty size").success());
    assert_eq!(s.text(), "40 132\n");
    assert_eq!(s.state.read_winsize(s.offset).unwrap(), (40, 132));
}

#[test]
fn only_the_socket_is_a_terminal_in_children_too() {
    let mut s = Session::new();
    let st = s.run_sh(
        "python3 -c 'import os; r,w=os.pipe(); print(os.isatty(r))'; \
         sh -c 'python3 -c \"import os; print(os.isatty(0), os.isatty(2))\"'; \
         python3 -c 'import os; print(os.isatty(0))' < /dev/null",
    );
    assert!(st.success());
    assert_eq!(s.text(), "False\nTrue True\nFalse\n");
}

#[test]
fn tty_runs_without_crashing() {
    let mut s = Session::new();
    assert!(s.run_sh("tty; echo status=$?").success());
    let out = s.text();
    assert!(
        out == "not a tty\nstatus=0\n" || out == "not a tty\nstatus=1\n",
        "unexpected: {out:?}"
    );
}

#[test]
fn canonical_reads_return_one_line_each() {
    let mut s = Session::new();
    s.send(b"one\ntwo\n");
    let st = s.run(&[
        "python3",
        "-c",
        "import os; print(repr(os.read(0,100))); print(repr(os.read(0,100)))",
    ]);
    assert!(st.success());
    assert_eq!(s.text(), "b'one\\n'\nb'two\\n'\n");
}

#[test]
fn non_canonical_reads_return_what_is_there() {
    let mut s = Session::new();
    s.send(b"one\ntwo\n");
    let st = s.run_sh("stty -icanon && python3 -c 'import os; print(repr(os.read(0,100)))'");
    assert!(st.success());
    assert_eq!(s.text(), "b'one\\ntwo\\n'\n");
}

#[test]
fn eof_marker_ends_cat() {
    let mut s = Session::new();
    s.send(b"abc\n");
    s.send_eof();
    s.send(b"left for later\n");
    let st = s.run(&["cat"]);
    assert!(st.success());
    assert_eq!(s.text(), "abc\n");
}

#[test]
fn terminal_keeps_working_after_eof() {
    let mut s = Session::new();
    let mut child = s.sh("cat; echo after; cat; echo done");
    s.send(b"x\n");
    s.wait_for("first line", |out, _| out == "x\n");
    s.send_eof();
    s.wait_for("after", |out, _| out.ends_with("after\n"));
    s.send(b"y\n");
    s.send_eof();
    assert!(s.finish(&mut child).success());
    assert_eq!(s.text(), "x\nafter\ny\ndone\n");
}

#[test]
fn stdio_readers_see_eof() {
    // sort reads with fread, which glibc serves from its own internal read.
    let mut s = Session::new();
    s.send(b"pear\napple\n");
    s.send_eof();
    s.send(b"fig\n");
    let st = s.run_sh("sort; echo after; head -n 1");
    assert!(st.success());
    assert_eq!(s.text(), "apple\npear\nafter\nfig\n");
}

#[test]
fn dev_tty_is_the_session_terminal() {
    let mut s = Session::new();
    let st = s.run_sh(
        "echo hi > /dev/tty; \
         (exec </dev/null >/dev/null; echo via-stderr > /dev/tty); \
         exec 3>&1 </dev/null >/dev/null 2>&1; \
         { echo never > /dev/tty; } 2>/dev/null || echo no-terminal >&3",
    );
    assert!(st.success());
    assert_eq!(s.text(), "hi\nvia-stderr\nno-terminal\n");
}

#[test]
fn dev_tty_reads_keys_when_stdin_is_a_pipe() {
    let mut s = Session::new();
    let mut child = s.sh("echo piped | python3 -c 'import sys; d=sys.stdin.read(); \
         t=open(\"/dev/tty\"); print(d.strip(), t.readline().strip())'");
    s.send(b"typed\n");
    assert!(s.finish(&mut child).success());
    assert_eq!(s.text(), "piped typed\n");
}

const STDIO_PROGRAM: &str = r#"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "lines") == 0) {
        printf("first\n");
        sleep(3);
        printf("second\n");
    } else if (argc > 1 && strcmp(argv[1], "prompt") == 0) {
        char line[100];
        printf("name: ");
        if (fgets(line, sizeof line, stdin))
            printf("hello %s", line);
    } else if (argc > 1 && strcmp(argv[1], "getpass") == 0) {
        char *p = getpass("pw: ");
        printf("got [%s]\n", p ? p : "(null)");
    }
    return 0;
}
"#;

#[test]
fn stdout_is_line_buffered() {
    let mut s = Session::new();
    let prog = compile_c(&s.dir, "stdio", STDIO_PROGRAM);
    let mut child = s.spawn(&[prog.to_str().unwrap(), "lines"]);
    s.wait_for("the first line", |out, _| out == "first\n");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the line arrived before the program exited"
    );
    assert!(s.finish(&mut child).success());
    assert_eq!(s.text(), "first\nsecond\n");
}

#[test]
fn a_prompt_is_flushed_before_reading_stdin() {
    let mut s = Session::new();
    let prog = compile_c(&s.dir, "stdio", STDIO_PROGRAM);
    let mut child = s.spawn(&[prog.to_str().unwrap(), "prompt"]);
    s.wait_for("the prompt", |out, _| out == "name: ");
    s.send(b"ann\n");
    assert!(s.finish(&mut child).success());
    assert_eq!(s.text(), "name: hello ann\n");
}

fn echo_off_then_on(ts: &[Termios]) -> bool {
    let off = ts.iter().position(|t| !t.has_l(flags::ECHO));
    off.is_some_and(|i| ts[i..].iter().any(|t| t.has_l(flags::ECHO)))
}

#[test]
fn python_getpass_turns_echo_off_and_back_on() {
    let mut s = Session::new();
    let mut child = s.spawn(&[
        "python3",
        "-c",
        "import getpass; print('got', getpass.getpass('pw: '))",
    ]);
    s.wait_for("prompt with echo off", |out, ev| {
        out.contains("pw: ")
            && ev
                .iter()
                .any(|e| matches!(e, ShimEvent::Termios(t) if !t.has_l(flags::ECHO)))
    });
    s.send(b"secret\n");
    assert!(s.finish(&mut child).success());
    assert_eq!(s.text(), "pw: \ngot secret\n");
    assert!(echo_off_then_on(&s.termios_events()), "{:?}", s.events);
    assert!(s.state.read_termios(s.offset).unwrap().has_l(flags::ECHO));
}

#[test]
fn c_getpass_uses_the_terminal() {
    let mut s = Session::new();
    let prog = compile_c(&s.dir, "stdio", STDIO_PROGRAM);
    let mut child = s.spawn(&[prog.to_str().unwrap(), "getpass"]);
    s.wait_for("prompt with echo off", |out, ev| {
        out.contains("pw: ")
            && ev
                .iter()
                .any(|e| matches!(e, ShimEvent::Termios(t) if !t.has_l(flags::ECHO)))
    });
    s.send(b"hunter2\n");
    assert!(s.finish(&mut child).success());
    assert_eq!(s.text(), "pw: \ngot [hunter2]\n");
    assert!(echo_off_then_on(&s.termios_events()), "{:?}", s.events);
}

#[test]
fn interactive_bash_hands_the_terminal_to_jobs() {
    let mut s = Session::new();
    let mut child = s.spawn(&["bash", "--noprofile", "--norc", "-i"]);
    // Readline puts the terminal in its own mode once it is ready for a line.
    s.wait_for("readline", |_, ev| {
        ev.iter()
            .any(|e| matches!(e, ShimEvent::Termios(t) if !t.has_l(flags::ICANON)))
    });
    s.send(b"echo hello-$((6*7))\n");
    s.wait_for("the command's output", |out, _| out.contains("hello-42\n"));
    s.send(b"exit\n");
    assert!(s.finish(&mut child).success(), "output: {:?}", s.text());
    let groups: Vec<i32> = s
        .events
        .iter()
        .filter_map(|e| match e {
            ShimEvent::ForegroundGroup(g) => Some(*g),
            _ => None,
        })
        .collect();
    assert!(
        groups.contains(&(child.id() as i32)),
        "bash took the terminal for itself: {groups:?}"
    );
    // Readline switched to its own mode and back.
    let ts = s.termios_events();
    assert!(ts.iter().any(|t| !t.has_l(flags::ICANON)), "{ts:?}");
    assert!(ts.last().unwrap().has_l(flags::ICANON));
}
