//! Attaching, tested in a real terminal: `zeropty attach` runs inside a pane of a real tmux
//! 3.3a (the "outer" tmux, a private server), is driven with tmux's `send-keys`, and what it
//! draws is read back with tmux's `capture-pane`. Also `wait-for`, whose replies wait.
//!
//! Each test has its own directory for both servers' sockets and kills both when it ends.

mod common;

use common::outer::Outer;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const ZP: &str = env!("CARGO_BIN_EXE_zeropty");

struct Env {
    dir: PathBuf,
    outer: Outer,
}

impl Env {
    fn new(name: &str) -> Env {
        let dir = std::env::temp_dir().join(format!("zpatt-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("z")).unwrap();
        let outer = Outer::new(format!("zpatt{name}{}", std::process::id()), dir.join("t"));
        Env { dir, outer }
    }

    fn zp(&self, args: &[&str]) -> Output {
        Command::new(ZP)
            .args(args)
            .env("ZEROPTY_TMPDIR", self.dir.join("z"))
            .env_remove("ZEROPTY")
            .env_remove("ZEROPTY_PANE")
            .env("SHELL", "/bin/sh")
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    fn zp_ok(&self, args: &[&str]) -> String {
        let o = self.zp(args);
        assert!(
            o.status.success(),
            "zeropty {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    }

    /// A shell command line that runs zeropty with this test's socket directory, then says
    /// how it ended and stays, so the outer pane keeps showing the message.
    fn in_outer(&self, args: &str) -> String {
        format!(
            "ZEROPTY_TMPDIR={} LANG=C.UTF-8 {ZP} {args}; echo \"rc=$?\"; sleep 1000",
            self.dir.join("z").display()
        )
    }

    /// Starts an outer tmux session `name` of the given size running zeropty with `args`.
    fn outer(&self, name: &str, cols: u32, rows: u32, args: &str) {
        let o = self.outer.tmux(&[
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            &cols.to_string(),
            "-y",
            &rows.to_string(),
            &self.in_outer(args),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }

    fn keys(&self, target: &str, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", target];
        args.extend_from_slice(keys);
        let o = self.outer.tmux(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }

    /// Waits until a zeropty query prints `want`.
    fn wait_zp(&self, args: &[&str], want: &str) {
        self.wait_zp_until(args, want, |got| got == want);
    }

    /// Waits until what a zeropty query prints satisfies `f`.
    fn wait_zp_until(&self, args: &[&str], what: &str, f: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let got = String::from_utf8_lossy(&self.zp(args).stdout).into_owned();
            if f(&got) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "zeropty {args:?}: got {got:?}, want {what:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A zeropty session running a plain shell with a known prompt.
    fn session(&self, name: &str) {
        self.zp_ok(&[
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            "80",
            "-y",
            "24",
            "-e",
            "PS1=$ ",
            "sh",
        ]);
        self.wait_zp_until(&["capture-pane", "-p", "-t", name], "a prompt", |s| {
            s.starts_with("$\n")
        });
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        // Before the directory holding its socket goes.
        let _ = self.outer.tmux(&["kill-server"]);
        let _ = self.zp(&["kill-server"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn last_line(screen: &str) -> &str {
    screen.lines().last().unwrap_or("")
}

fn attached(screen: &str, session: &str) -> bool {
    last_line(screen).starts_with(&format!("[{session}] 0:"))
}

#[test]
fn attached_view_shows_the_screen_and_status_and_keys_reach_the_program() {
    let env = Env::new("view");
    env.session("work");
    env.zp_ok(&[
        "send-keys",
        "-t",
        "work",
        "printf '\\033[31mred\\033[0m plain\\n'",
        "Enter",
    ]);
    env.outer("a", 100, 30, "attach -t work");
    let s = env
        .outer
        .wait_screen("a", "status line", |s| attached(s, "work"));
    assert_eq!(s.lines().count(), 30, "{s}");
    assert!(last_line(&s).starts_with("[work] 0:sh* "), "{s}");
    assert!(s.lines().any(|l| l == "red plain"), "{s}");
    // The window follows the client: 100 columns, 29 rows above the status line.
    env.wait_zp(
        &[
            "display-message",
            "-p",
            "-t",
            "work",
            "#{window_width}x#{window_height} #{session_attached}",
        ],
        "100x29 1\n",
    );
    // Colours and the status bar's green come through as SGR.
    let e = env.outer.screen("a", true);
    assert!(e.contains("\x1b[31mred\x1b[39m plain"), "{e:?}");
    assert!(last_line(&e).contains("42m[work] 0:sh*"), "{e:?}");
    // Keys typed in the outer terminal reach the program, through its line discipline.
    env.keys(
        "a",
        &["echo hello", "BSpace", "BSpace", "p-from-outer", "Enter"],
    );
    env.outer.wait_screen("a", "typed command", |s| {
        s.lines().any(|l| l == "help-from-outer")
    });
    let inner = env.zp_ok(&["capture-pane", "-p", "-t", "work"]);
    assert!(inner.lines().any(|l| l == "help-from-outer"), "{inner}");
    // The cursor is where the program's is.
    let cursor = String::from_utf8(
        env.outer
            .tmux(&[
                "display-message",
                "-p",
                "-t",
                "a",
                "#{cursor_x},#{cursor_y}",
            ])
            .stdout,
    )
    .unwrap();
    let inner_cursor = env.zp_ok(&[
        "display-message",
        "-p",
        "-t",
        "work",
        "#{cursor_x},#{cursor_y}",
    ]);
    assert_eq!(cursor, inner_cursor);
    let lsc = env.zp_ok(&[
        "list-clients",
        "-F",
        "#{client_width}x#{client_height} #{client_session} #{client_flags}",
    ]);
    assert_eq!(lsc, "100x30 work attached,focused,UTF-8\n");
}

/// The client that starts the server waits, as under tmux, until the configuration file's
/// jobs have run (a plugin manager's `run` line), then makes its session and attaches.
#[test]
fn the_first_client_attaches_after_the_configuration_files_jobs() {
    let env = Env::new("cfgjob");
    let config = env.dir.join("conf");
    let job = format!(
        "run-shell 'sleep 1; ZEROPTY_TMPDIR={} {ZP} set -g base-index 7'\n",
        env.dir.join("z").display()
    );
    std::fs::write(&config, job).unwrap();
    env.outer(
        "a",
        80,
        20,
        &format!("-f {} new-session -s first", config.display()),
    );
    let s = env
        .outer
        .wait_screen("a", "attached", |s| last_line(s).starts_with("[first] "));
    assert!(
        last_line(&s).starts_with("[first] 7:"),
        "the session was made after the job set base-index:\n{s}"
    );
    env.wait_zp(&["list-clients", "-F", "#{client_session}"], "first\n");
}

#[test]
fn prefix_d_detaches_with_tmux_message_and_prefix_twice_sends_it() {
    let env = Env::new("detach");
    env.session("work");
    env.zp_ok(&["new-session", "-d", "-s", "cat", "cat -v"]);
    env.zp_ok(&["set-hook", "-g", "client-attached", "set -g @attached yes"]);
    env.zp_ok(&["set-hook", "-g", "client-detached", "set -g @detached yes"]);
    env.outer("a", 90, 20, "attach -t cat");
    env.outer
        .wait_screen("a", "attached", |s| attached(s, "cat"));
    env.wait_zp(&["show-options", "-gv", "@attached"], "yes\n");
    env.keys("a", &["C-b", "C-b", "x"]);
    env.outer.wait_screen("a", "prefix sent through", |s| {
        s.lines().next() == Some("^Bx")
    });
    env.keys("a", &["C-b", "d"]);
    let s = env
        .outer
        .wait_screen("a", "detached", |s| s.contains("rc="));
    assert!(s.contains("[detached (from session cat)]\nrc=0"), "{s}");
    env.wait_zp(&["list-clients"], "");
    env.wait_zp(
        &["display-message", "-p", "-t", "cat", "#{session_attached}"],
        "0\n",
    );
    env.wait_zp(&["show-options", "-gv", "@detached"], "yes\n");
}

#[test]
fn two_clients_share_a_session_at_the_smaller_size() {
    let env = Env::new("two");
    env.session("work");
    env.outer("a", 100, 30, "attach -t work");
    env.outer.wait_screen("a", "first", |s| attached(s, "work"));
    env.outer("b", 70, 20, "attach -t work");
    env.outer
        .wait_screen("b", "second", |s| attached(s, "work"));
    env.wait_zp(
        &[
            "display-message",
            "-p",
            "-t",
            "work",
            "#{window_width}x#{window_height} #{session_attached}",
        ],
        "70x19 2\n",
    );
    let lsc = env.zp_ok(&["list-clients", "-F", "#{client_width}x#{client_height}"]);
    assert_eq!(lsc, "100x30\n70x20\n");
    // What one types, both see.
    env.keys("a", &["echo both-see-this", "Enter"]);
    env.outer.wait_screen("b", "typed in a", |s| {
        s.lines().any(|l| l == "both-see-this")
    });
    // The larger client shows the smaller window: its status line is still at its bottom.
    let s = env
        .outer
        .wait_screen("a", "status at bottom", |s| attached(s, "work"));
    assert_eq!(s.lines().count(), 30);
    env.keys("b", &["C-b", "d"]);
    env.outer.wait_screen("b", "b detached", |s| {
        s.contains("[detached (from session work)]")
    });
    env.wait_zp(
        &[
            "display-message",
            "-p",
            "-t",
            "work",
            "#{window_width}x#{window_height} #{session_attached}",
        ],
        "100x29 1\n",
    );
}

#[test]
fn read_only_clients_only_watch() {
    let env = Env::new("ro");
    env.session("work");
    env.outer("a", 80, 24, "attach -r -t work");
    env.outer
        .wait_screen("a", "attached", |s| attached(s, "work"));
    let flags = env.zp_ok(&["list-clients", "-F", "#{client_flags} #{client_readonly}"]);
    assert_eq!(flags, "attached,focused,ignore-size,read-only,UTF-8 1\n");
    env.keys("a", &["echo typed-by-watcher", "Enter"]);
    env.zp_ok(&["send-keys", "-t", "work", "echo sent-by-script", "Enter"]);
    env.outer.wait_screen("a", "script output", |s| {
        s.lines().any(|l| l == "sent-by-script")
    });
    let inner = env.zp_ok(&["capture-pane", "-p", "-t", "work"]);
    assert!(!inner.contains("typed-by-watcher"), "{inner}");
    // Read-only clients do not size the window.
    env.wait_zp(
        &[
            "display-message",
            "-p",
            "-t",
            "work",
            "#{window_width}x#{window_height}",
        ],
        "80x24\n",
    );
    env.keys("a", &["C-b", "d"]);
    env.outer.wait_screen("a", "detached", |s| {
        s.contains("[detached (from session work)]\nrc=0")
    });
}

#[test]
fn the_window_follows_the_terminal_size() {
    let env = Env::new("resize");
    // The program reports every SIGWINCH with the size it then reads.
    env.zp_ok(&[
        "new-session",
        "-d",
        "-s",
        "work",
        "trap 'stty size' WINCH; while :; do sleep 0.05; done",
    ]);
    env.outer("a", 100, 30, "attach -t work");
    env.outer
        .wait_screen("a", "attached", |s| attached(s, "work"));
    env.wait_zp(
        &[
            "display-message",
            "-p",
            "-t",
            "work",
            "#{window_width}x#{window_height}",
        ],
        "100x29\n",
    );
    env.outer
        .wait_screen("a", "first SIGWINCH", |s| s.lines().any(|l| l == "29 100"));
    let o = env
        .outer
        .tmux(&["resize-window", "-t", "a", "-x", "120", "-y", "40"]);
    assert!(o.status.success());
    env.wait_zp(
        &[
            "display-message",
            "-p",
            "-t",
            "work",
            "#{window_width}x#{window_height}",
        ],
        "120x39\n",
    );
    let s = env.outer.wait_screen("a", "status moved", |s| {
        s.lines().count() == 40 && attached(s, "work") && s.lines().any(|l| l == "39 120")
    });
    assert_eq!(last_line(&s).chars().count(), 120, "{s}");
    // A window sized by hand keeps its size.
    env.zp_ok(&["resize-window", "-t", "work", "-x", "50", "-y", "10"]);
    env.outer
        .tmux(&["resize-window", "-t", "a", "-x", "110", "-y", "35"]);
    env.outer.wait_screen("a", "smaller terminal", |s| {
        s.lines().count() == 35 && attached(s, "work")
    });
    env.wait_zp(
        &[
            "display-message",
            "-p",
            "-t",
            "work",
            "#{window_width}x#{window_height}",
        ],
        "50x10\n",
    );
}

#[test]
fn scrollback_view_pages_through_history() {
    let env = Env::new("scroll");
    env.zp_ok(&[
        "new-session",
        "-d",
        "-s",
        "log",
        "-x",
        "80",
        "-y",
        "24",
        "seq 1 300; exec cat",
    ]);
    env.wait_zp(
        &["display-message", "-p", "-t", "log", "#{history_size}"],
        "277\n",
    );
    env.outer("a", 80, 24, "attach -t log");
    let s = env
        .outer
        .wait_screen("a", "attached", |s| attached(s, "log"));
    // 24 rows less the status line: the window shrank to 23 rows, one more line in history.
    assert!(s.lines().any(|l| l == "300"), "{s}");
    env.keys("a", &["C-b", "["]);
    let s = env.outer.wait_screen("a", "view open", |s| {
        s.lines().next().is_some_and(|l| l.ends_with("[0/278]"))
    });
    assert!(s.lines().any(|l| l == "300"), "{s}");
    env.keys("a", &["PPage"]);
    let s = env.outer.wait_screen("a", "page up", |s| {
        s.lines().next().is_some_and(|l| l.ends_with("[21/278]"))
    });
    assert!(
        s.lines().any(|l| l == "279") && !s.lines().any(|l| l == "300"),
        "{s}"
    );
    // Up moves copy mode's cursor; C-Up scrolls, as in tmux.
    env.keys("a", &["Up", "C-Up", "C-Up"]);
    let s = env.outer.wait_screen("a", "scrolled up", |s| {
        s.lines().next().is_some_and(|l| l.ends_with("[23/278]"))
    });
    assert!(s.lines().any(|l| l == "277"), "{s}");
    env.keys("a", &["NPage"]);
    env.outer.wait_screen("a", "page down", |s| {
        s.lines().next().is_some_and(|l| l.ends_with("[2/278]"))
    });
    // Keys in the view are not typed into the program.
    env.keys("a", &["x", "q"]);
    let s = env
        .outer
        .wait_screen("a", "view closed", |s| s.lines().nth(21) == Some("300"));
    assert!(!s.contains("[2/278]"), "{s}");
    let inner = env.zp_ok(&["capture-pane", "-p", "-t", "log"]);
    assert!(!inner.contains('x'), "{inner}");
    // Scripts drive the view as tmux's copy mode: copy-mode, send-keys -X, #{pane_in_mode}.
    let in_mode = [
        "display-message",
        "-p",
        "-t",
        "log",
        "#{pane_in_mode} #{pane_mode}",
    ];
    env.wait_zp(&in_mode, "0 \n");
    let refused = env.zp(&["send-keys", "-t", "log", "-X", "cancel"]);
    assert_eq!(String::from_utf8_lossy(&refused.stderr), "not in a mode\n");
    env.zp_ok(&["copy-mode", "-u", "-t", "log"]);
    env.outer.wait_screen("a", "copy-mode -u", |s| {
        s.lines().next().is_some_and(|l| l.ends_with("[21/278]"))
    });
    env.wait_zp(&in_mode, "1 copy-mode\n");
    env.zp_ok(&["send-keys", "-t", "log", "-X", "history-top"]);
    env.outer.wait_screen("a", "history-top", |s| {
        s.lines().next().is_some_and(|l| l.ends_with("[278/278]"))
    });
    env.zp_ok(&["send-keys", "-t", "log", "-N", "3", "-X", "scroll-down"]);
    env.outer.wait_screen("a", "scroll-down", |s| {
        s.lines().next().is_some_and(|l| l.ends_with("[275/278]"))
    });
    env.zp_ok(&["send-keys", "-t", "log", "-X", "cancel"]);
    env.wait_zp(&in_mode, "0 \n");
    env.outer
        .wait_screen("a", "cancelled", |s| s.lines().nth(21) == Some("300"));
    env.zp_ok(&["copy-mode", "-t", "log"]);
    env.outer.wait_screen("a", "copy mode again", |s| {
        s.lines().next().is_some_and(|l| l.ends_with("[0/278]"))
    });
    // Copy mode is the client's: keys a script sends still reach the program (tmux's copy
    // mode, the pane's, would take them), which goes on writing under the mode's copy.
    env.zp_ok(&["send-keys", "-t", "log", "typed under copy mode", "Enter"]);
    env.wait_zp_until(
        &["capture-pane", "-p", "-t", "log"],
        "the program got the keys",
        |s| s.contains("typed under copy mode"),
    );
    std::thread::sleep(Duration::from_millis(300));
    let s = env.outer.screen("a", false);
    assert!(
        s.lines().next().is_some_and(|l| l.ends_with("[0/278]")),
        "{s}"
    );
    assert!(!s.contains("typed under copy mode"), "{s}");
}

#[test]
fn clients_leave_when_the_session_or_server_ends() {
    let env = Env::new("end");
    env.session("one");
    env.session("two");
    env.outer("a", 80, 24, "attach -t one");
    env.outer("b", 80, 24, "attach -t two");
    env.outer
        .wait_screen("a", "a attached", |s| attached(s, "one"));
    env.outer
        .wait_screen("b", "b attached", |s| attached(s, "two"));
    env.zp_ok(&["kill-session", "-t", "one"]);
    let s = env.outer.wait_screen("a", "exited", |s| s.contains("rc="));
    assert!(s.contains("[exited]\nrc=0"), "{s}");
    env.zp_ok(&["kill-server"]);
    let s = env
        .outer
        .wait_screen("b", "server exited", |s| s.contains("rc="));
    assert!(s.contains("[server exited]\nrc=1"), "{s}");
}

#[test]
fn detach_and_switch_client_commands() {
    let env = Env::new("cmds");
    env.session("work");
    env.session("other");
    let last_attached = |session: &str| {
        let format = "#{session_created} #{session_last_attached}";
        let v = env.zp_ok(&["display-message", "-p", "-t", session, format]);
        let (created, last) = v.trim_end_matches('\n').split_once(' ').unwrap();
        let created: i64 = created.parse().unwrap();
        (!last.is_empty()).then(|| last.parse::<i64>().unwrap() - created)
    };
    // Empty until a client attaches (as tmux shows a time of 0), then when it last did.
    assert_eq!(last_attached("work"), None);
    env.outer("a", 80, 24, "attach -t work");
    env.outer
        .wait_screen("a", "attached", |s| attached(s, "work"));
    assert!(last_attached("work").is_some_and(|t| t >= 0));
    assert_eq!(last_attached("other"), None);
    let name = env.zp_ok(&["list-clients", "-F", "#{client_name}"]);
    let name = name.trim();
    assert!(name.starts_with("/dev/pts/"), "{name}");
    // With a client to act on, what needs one is refused (not there without one).
    for (args, why) in [
        (
            &["show-messages", "-J", "-t", name][..],
            "no job or terminal summary",
        ),
        (&["lock-server"], "clients are never locked or suspended"),
        (
            &["lock-session", "-t", "work"],
            "clients are never locked or suspended",
        ),
        (
            &["display-panes", "-t", name],
            "no interactive modes or menus",
        ),
    ] {
        let o = env.zp(args);
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!("zeropty: {why}; {} is not supported\n", args[0])
        );
    }
    env.zp_ok(&["switch-client", "-t", "other"]);
    env.outer
        .wait_screen("a", "switched", |s| attached(s, "other"));
    assert!(last_attached("other").is_some_and(|t| t >= 0));
    env.zp_ok(&["switch-client", "-l"]);
    env.outer.wait_screen("a", "last", |s| attached(s, "work"));
    env.zp_ok(&["switch-client", "-c", name, "-n"]);
    env.outer.wait_screen("a", "next", |s| attached(s, "other"));
    assert_eq!(
        env.zp_ok(&["list-sessions", "-F", "#{session_name} #{session_attached}"]),
        "other 1\nwork 0\n"
    );
    env.keys("a", &["C-b", "("]);
    env.outer
        .wait_screen("a", "previous by key", |s| attached(s, "work"));
    // A target naming a window switches to its session and selects that window.
    env.zp_ok(&["new-window", "-d", "-t", "other:"]);
    env.zp_ok(&["switch-client", "-t", "other:1"]);
    env.outer
        .wait_screen("a", "switched to a window", |s| attached(s, "other"));
    assert_eq!(
        env.zp_ok(&["display-message", "-p", "-t", "other", "#{window_index}"]),
        "1\n"
    );
    let o = env.zp(&["detach-client", "-t", "/dev/pts/99999"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "can't find client: /dev/pts/99999\n"
    );
    // tmux accepts the name without /dev/.
    env.zp_ok(&["detach-client", "-P", "-t", &name["/dev/".len()..]]);
    // -P also hangs up the client's parent (the pane's shell), so the outer pane goes away.
    let deadline = Instant::now() + Duration::from_secs(10);
    while env.outer.tmux(&["has-session", "-t", "a"]).status.success() {
        assert!(Instant::now() < deadline, "parent not hung up");
        std::thread::sleep(Duration::from_millis(50));
    }
    env.wait_zp(&["list-clients"], "");
}

#[test]
fn attach_d_detaches_the_other_clients() {
    let env = Env::new("dflag");
    env.session("work");
    env.outer("a", 80, 24, "attach -t work");
    env.outer
        .wait_screen("a", "a attached", |s| attached(s, "work"));
    env.outer("b", 80, 24, "attach -d -t work");
    env.outer
        .wait_screen("b", "b attached", |s| attached(s, "work"));
    let s = env
        .outer
        .wait_screen("a", "a detached", |s| s.contains("rc="));
    assert!(s.contains("[detached (from session work)]\nrc=0"), "{s}");
    assert_eq!(
        env.zp_ok(&["list-clients", "-F", "#{session_name}"]),
        "work\n"
    );
    env.zp_ok(&["detach-client", "-s", "work"]);
    env.outer.wait_screen("b", "b detached", |s| {
        s.contains("[detached (from session work)]")
    });
}

#[test]
fn new_session_from_a_terminal_attaches() {
    let env = Env::new("new");
    env.outer("a", 90, 25, "new-session -s fresh 'PS1=\"% \" exec sh'");
    env.outer
        .wait_screen("a", "attached", |s| attached(s, "fresh"));
    env.wait_zp(
        &[
            "display-message",
            "-p",
            "-t",
            "fresh",
            "#{window_width}x#{window_height} #{session_attached}",
        ],
        "90x24 1\n",
    );
    env.keys("a", &["exit", "Enter"]);
    let s = env.outer.wait_screen("a", "exited", |s| s.contains("rc="));
    assert!(s.contains("[exited]\nrc=0"), "{s}");
}

#[test]
fn attaching_needs_a_terminal() {
    let env = Env::new("noterm");
    env.session("work");
    let o = env.zp(&["attach", "-t", "work"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "open terminal failed: not a terminal\n"
    );
    let o = env.zp(&["attach", "-t", "nope"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "can't find session: nope\n"
    );
}

fn spawn_zp(env: &Env, args: &[&str]) -> std::process::Child {
    Command::new(ZP)
        .args(args)
        .env("ZEROPTY_TMPDIR", env.dir.join("z"))
        .env_remove("ZEROPTY")
        .env_remove("ZEROPTY_PANE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits up to `ms` for a child to exit.
fn exited_within(child: &mut std::process::Child, ms: u64) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + Duration::from_millis(ms);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn wait_for_returns_only_after_a_signal() {
    let env = Env::new("wait");
    env.session("work");
    let mut waiter = spawn_zp(
        &env,
        &["wait-for", "chan", ";", "display-message", "-p", "after"],
    );
    let mut second = spawn_zp(&env, &["wait-for", "chan"]);
    assert!(
        exited_within(&mut waiter, 500).is_none(),
        "wait-for returned before the signal"
    );
    // Other clients are served meanwhile.
    env.zp_ok(&["has-session", "-t", "work"]);
    env.zp_ok(&["wait-for", "-S", "chan"]);
    let status = exited_within(&mut waiter, 5000).expect("waiter released");
    assert!(status.success());
    let out = waiter.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "after\n");
    assert!(exited_within(&mut second, 5000).is_some_and(|s| s.success()));
    // A signal nobody waits for is kept for the next wait.
    env.zp_ok(&["wait-for", "-S", "early"]);
    let mut w = spawn_zp(&env, &["wait-for", "early"]);
    assert!(exited_within(&mut w, 5000).is_some_and(|s| s.success()));
}

#[test]
fn wait_for_locks_queue_in_order() {
    let env = Env::new("lock");
    env.session("work");
    env.zp_ok(&["wait-for", "-L", "l"]);
    let mut second = spawn_zp(&env, &["wait-for", "-L", "l"]);
    assert!(
        exited_within(&mut second, 400).is_none(),
        "lock taken twice"
    );
    env.zp_ok(&["wait-for", "-U", "l"]);
    assert!(exited_within(&mut second, 5000).is_some_and(|s| s.success()));
    env.zp_ok(&["wait-for", "-U", "l"]);
    let o = env.zp(&["wait-for", "-U", "l"]);
    assert_eq!(String::from_utf8_lossy(&o.stderr), "channel l not locked\n");
}

#[test]
fn waiting_clients_keep_the_server_until_the_last_session_ends() {
    let env = Env::new("waitexit");
    env.session("work");
    let mut waiter = spawn_zp(&env, &["wait-for", "never"]);
    assert!(exited_within(&mut waiter, 300).is_none());
    env.zp_ok(&["has-session"]);
    // As tmux: with the last session gone, waiters are let go and the server exits.
    env.zp_ok(&["kill-session", "-t", "work"]);
    assert!(exited_within(&mut waiter, 5000).is_some_and(|s| s.success()));
    let deadline = Instant::now() + Duration::from_secs(5);
    while !String::from_utf8_lossy(&env.zp(&["has-session"]).stderr).contains("no server running") {
        assert!(Instant::now() < deadline, "server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The same program attached through tmux and through zeropty, each in an outer pane of the
/// same size: the outer terminals end up showing the same cells, colours and cursor.
/// A tmux 3.3a server beside a test's zeropty server: both run session `work` (window
/// `prog`, 80x24) with the same program, attached in outer panes `t` (tmux's client) and `z`
/// (zeropty's) of the same size.
struct Twins<'a> {
    env: &'a Env,
    inner: String,
}

impl<'a> Twins<'a> {
    fn start(env: &'a Env, program: &str, cols: u32, rows: u32) -> Twins<'a> {
        let twins = Twins {
            env,
            inner: format!("{}in", env.outer.label),
        };
        let new = [
            "new-session",
            "-d",
            "-s",
            "work",
            "-n",
            "prog",
            "-x",
            "80",
            "-y",
            "24",
            program,
        ];
        assert!(twins.tmux(&new).status.success());
        env.zp_ok(&new);
        let o = env.outer.tmux(&[
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            &cols.to_string(),
            "-y",
            &rows.to_string(),
            &format!(
                "TMUX= LANG=C.UTF-8 tmux -L {} -f/dev/null attach -t work",
                twins.inner
            ),
        ]);
        assert!(o.status.success());
        env.outer("z", cols, rows, "attach -t work");
        env.outer
            .wait_screen("t", "tmux attached", |s| attached(s, "work"));
        env.outer
            .wait_screen("z", "zeropty attached", |s| attached(s, "work"));
        // The outer terminal sometimes repeats or loses a key typed in the first moments
        // after both clients attach (tmux's client and zeropty's alike): let it settle.
        std::thread::sleep(Duration::from_millis(1000));
        twins
    }

    /// A command for the tmux server, its input closed.
    fn tmux_command(&self, args: &[&str]) -> Command {
        let mut command = Command::new("tmux");
        command
            .args(["-L", &self.inner, "-f/dev/null"])
            .args(args)
            .env("TMUX_TMPDIR", self.env.dir.join("t"))
            .env_remove("TMUX")
            .stdin(Stdio::null());
        command
    }

    /// Runs a command on the tmux server.
    fn tmux(&self, args: &[&str]) -> Output {
        self.tmux_command(args).output().unwrap()
    }

    /// Starts a command on the tmux server without waiting for it.
    fn spawn_tmux(&self, args: &[&str]) -> std::process::Child {
        let mut command = self.tmux_command(args);
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        command.spawn().unwrap()
    }

    /// Runs a command on both servers; both must succeed.
    fn both(&self, args: &[&str]) {
        let o = self.tmux(args);
        assert!(o.status.success(), "tmux {args:?}");
        self.env.zp_ok(args);
    }

    /// Types keys on both clients.
    fn keys(&self, keys: &[&str]) {
        self.env.keys("t", keys);
        self.env.keys("z", keys);
    }

    /// Resizes both clients' terminals (the outer windows they are attached in).
    fn resize_terminals(&self, cols: u32, rows: u32) {
        let (x, y) = (cols.to_string(), rows.to_string());
        for target in ["t", "z"] {
            let args = ["resize-window", "-t", target, "-x", &x, "-y", &y];
            assert!(self.env.outer.tmux(&args).status.success());
        }
    }

    /// Bytes as both clients' terminals would send them (mouse reports), in one write each.
    fn type_raw(&self, bytes: &str) {
        let hex: Vec<String> = bytes.bytes().map(|b| format!("{b:02x}")).collect();
        for target in ["t", "z"] {
            let mut args = vec!["send-keys", "-t", target, "-H"];
            args.extend(hex.iter().map(String::as_str));
            assert!(self.env.outer.tmux(&args).status.success());
        }
    }

    /// Waits until both clients' screens satisfy `f`, then returns them (with escapes).
    fn wait_both(&self, what: &str, f: impl Fn(&str) -> bool) -> (String, String) {
        let outer = &self.env.outer;
        outer.wait_screen("t", &format!("tmux: {what}"), &f);
        outer.wait_screen("z", &format!("zeropty: {what}"), &f);
        (outer.screen("t", true), outer.screen("z", true))
    }

    /// Where each client's terminal has its cursor, and whether it shows.
    fn cursors(&self) -> (String, String) {
        let cursor = |target: &str| {
            let o = self.env.outer.tmux(&[
                "display-message",
                "-p",
                "-t",
                target,
                "#{cursor_x},#{cursor_y},#{cursor_flag}",
            ]);
            String::from_utf8(o.stdout).unwrap()
        };
        (cursor("t"), cursor("z"))
    }
}

impl Twins<'_> {
    /// Waits until both clients' top rows show `shows` (a view's position, `[17/`), and
    /// checks that they are the same.
    fn view_position(&self, what: &str, shows: &str) {
        let shows = shows.to_string();
        let (t, z) = self.wait_both(what, move |s| top_row(s).contains(&shows));
        assert_eq!(top_row(&t), top_row(&z), "{what}");
    }

    /// The names of the windows of session `work` on both servers.
    fn windows(&self) -> (String, String) {
        let args = ["list-windows", "-t", "work", "-F", "#{window_name}"];
        let t = String::from_utf8(self.tmux(&args).stdout).unwrap();
        (t, self.env.zp_ok(&args))
    }
}

impl Drop for Twins<'_> {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// A captured screen (`capture-pane -e`) as what each cell shows: its character and the
/// colours and attributes it is drawn in, up to the row's last character that is not a
/// space. Two terminals drawn differently (a row's end written as spaces, or left
/// unwritten) that look the same give the same cells.
fn seen_cells(screen: &str) -> Vec<Vec<(char, String)>> {
    #[derive(Clone, Default)]
    struct Pen {
        fg: String,
        bg: String,
        attrs: std::collections::BTreeSet<u32>,
    }
    let mut pen = Pen::default();
    let mut rows = Vec::new();
    for line in screen.lines() {
        let mut row = Vec::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '\x1b' {
                let style = format!("{}/{}/{:?}", pen.fg, pen.bg, pen.attrs);
                row.push((c, style));
                continue;
            }
            let mut params = String::new();
            chars.next();
            for p in chars.by_ref() {
                if p == 'm' {
                    break;
                }
                params.push(p);
            }
            let codes: Vec<u32> = params.split(';').map(|p| p.parse().unwrap_or(0)).collect();
            let mut i = 0;
            while i < codes.len() {
                let extended = |i: usize| match codes.get(i + 1) {
                    Some(5) => 3,
                    Some(2) => 5,
                    _ => 1,
                };
                match codes[i] {
                    0 => pen = Pen::default(),
                    39 => pen.fg.clear(),
                    49 => pen.bg.clear(),
                    38 | 48 => {
                        let n = extended(i);
                        let value = format!("{:?}", &codes[i..(i + n).min(codes.len())]);
                        if codes[i] == 38 {
                            pen.fg = value
                        } else {
                            pen.bg = value
                        }
                        i += n - 1;
                    }
                    c @ (30..=37 | 90..=97) => pen.fg = c.to_string(),
                    c @ (40..=47 | 100..=107) => pen.bg = c.to_string(),
                    c @ 21..=29 => {
                        pen.attrs.remove(&(c - 20));
                        if c == 22 {
                            pen.attrs.remove(&1);
                        }
                    }
                    c => {
                        pen.attrs.insert(c);
                    }
                }
                i += 1;
            }
        }
        // capture-pane leaves out a row's trailing spaces whatever their style, so they
        // cannot be compared.
        while row.last().is_some_and(|(c, _)| *c == ' ') {
            row.pop();
        }
        rows.push(row);
    }
    rows
}

fn top_row(screen: &str) -> &str {
    screen.lines().next().unwrap_or("")
}

/// The status line with the clock's digits masked (a minute may turn between two captures).
fn status_masked(screen: &str) -> String {
    last_line(screen).replace(|c: char| c.is_ascii_digit(), "#")
}

#[test]
fn attached_screen_matches_tmux_attached_screen() {
    let env = Env::new("cmp");
    let program = "printf 'plain\\n\\033[1;31mbold red\\033[0m and \\033[4munder\\033[0m\\n\\033[38;5;120mcol\\033[44mblue bg\\033[m\\nwide \u{4e2d}\u{6587} \u{e9}\\n\\033[7mrev   \\033[0m end\\n\\033(0lqqk\\033(B\\n\\033[2;30Hmoved\\033[8;3H'; exec cat";
    let twins = Twins::start(&env, program, 70, 20);
    std::thread::sleep(Duration::from_millis(300));
    let (a, b) = (env.outer.screen("t", true), env.outer.screen("z", true));
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(&b).enumerate().take(a.len() - 1) {
        assert_eq!(x, y, "row {i}");
    }
    assert_eq!(status_masked(a[a.len() - 1]), status_masked(b[b.len() - 1]));
    let (t, z) = twins.cursors();
    assert_eq!(t, z);
}

/// display-message on an attached client, errors of the commands its keys run, and the
/// message log, side by side with tmux: the message's row (message-style, the text's own
/// `#[style]`), the hidden cursor, a key clearing it (`-N`: keys going nowhere until it
/// expires), the last row when the status line is off, and show-messages.
#[test]
fn status_messages_and_the_message_log_match_tmux() {
    let env = Env::new("msg");
    let twins = Twins::start(&env, "cat", 70, 20);
    twins.both(&["set-option", "-g", "display-time", "5000"]);
    let showing = |text: &'static str| move |s: &str| last_line(s).contains(text);
    twins.both(&[
        "display-message",
        "-d",
        "0",
        "hello #[fg=red]there #{session_name}",
    ]);
    let (t, z) = twins.wait_both("the message", showing("hello there work"));
    assert_eq!(last_line(&t), last_line(&z));
    assert!(last_line(&z).contains("43mhello"), "{z:?}");
    let (t, z) = twins.cursors();
    assert_eq!(t, z);
    assert!(z.ends_with(",0\n"), "the cursor hides: {z}");
    // A key clears the message and reaches the pane.
    twins.keys(&["x"]);
    let (t, z) = twins.wait_both("the status line back", |s| attached(s, "work"));
    assert_eq!(status_masked(&t), status_masked(&z));
    twins.wait_both("the key in the pane", |s| s.starts_with('x'));
    // With -N, keys go nowhere while the message shows; it goes when its time is up.
    twins.both(&["display-message", "-N", "-d", "1500", "held"]);
    twins.wait_both("the held message", showing("held"));
    twins.keys(&["y"]);
    std::thread::sleep(Duration::from_millis(300));
    let (t, z) = twins.wait_both("still held", showing("held"));
    assert_eq!(last_line(&t), last_line(&z));
    let (t, z) = twins.wait_both("the held message gone", |s| attached(s, "work"));
    assert!(t.starts_with("x\n") && z.starts_with("x\n"), "{t:?}\n{z:?}");
    // An error of a command a key runs shows capitalised, as it is (no styles drawn).
    twins.both(&["bind-key", "-n", "F5", "has-session", "-t", "#[nosuch]"]);
    twins.keys(&["F5"]);
    let (t, z) = twins.wait_both("the error", showing("Can't find session: #[nosuch]"));
    assert_eq!(last_line(&t), last_line(&z));
    twins.keys(&["x"]);
    twins.wait_both("the error gone", |s| attached(s, "work"));
    // A message's directives place and colour it as the status line's do.
    twins.both(&[
        "display-message",
        "-d",
        "0",
        "#[align=centre,bold]mid#[align=right,fg=blue,bg=default]end",
    ]);
    let (t, z) = twins.wait_both("the aligned message", showing("end"));
    assert_eq!(
        seen_cells(last_line(&z)),
        seen_cells(last_line(&t)),
        "{z:?}\n{t:?}"
    );
    twins.keys(&["x"]);
    twins.wait_both("the aligned message gone", |s| attached(s, "work"));
    // One key's note (list-keys -1N) shows on the current client instead of being printed.
    let args = ["list-keys", "-1", "-N"];
    let (t, z) = (twins.tmux(&args), env.zp(&args));
    assert!(t.status.success() && z.status.success());
    assert_eq!((t.stdout.len(), z.stdout.len()), (0, 0));
    let (t, z) = twins.wait_both("the note", showing("Send the prefix key"));
    assert_eq!(last_line(&t), last_line(&z));
    // With the status line off, a message takes the last row.
    twins.both(&["set-option", "-g", "status", "off"]);
    twins.both(&["display-message", "-d", "0", "at the bottom"]);
    let (t, z) = twins.wait_both("the message", showing("at the bottom"));
    assert_eq!(last_line(&t), last_line(&z));
    // The log: every command, key and message, newest first (times and client names
    // differ between the two).
    let normal = |log: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(log)
            .lines()
            .map(|l| {
                let l = l.split_once(": ").map_or(l, |(_, rest)| rest);
                let (name, rest) = l.split_once(' ').unwrap_or((l, ""));
                let name = if name.starts_with("client-") {
                    "client"
                } else if name.starts_with("/dev/") {
                    "tty"
                } else {
                    name
                };
                format!("{name} {rest}")
            })
            .collect()
    };
    let t = normal(&twins.tmux(&["show-messages"]).stdout);
    let z = normal(env.zp_ok(&["show-messages"]).as_bytes());
    assert_eq!(t, z);
    assert!(
        z.contains(&"tty key F5: has-session -t \"#[nosuch]\"".to_string()),
        "{z:?}"
    );
    assert!(
        z.contains(&"tty message: Can't find session: #[nosuch]".to_string()),
        "{z:?}"
    );
    // A command zeropty lacks, run by a key, says so in the product's own words.
    env.keys("z", &["C-b", "q"]);
    env.outer.wait_screen("z", "the refusal", |s| {
        last_line(s).starts_with("zeropty: no interactive modes or menus;")
    });
}

/// confirm-before asks on the status line as tmux asks: its prompt (a format) and the
/// answer's cell in reverse video; `y` runs the command as the client, another key declines,
/// keys that are not characters leave it asking. A script's request waits for the answer
/// and exits 0 when it confirms, 1 when it declines, as tmux's does.
#[test]
fn confirm_before_asks_as_tmux_asks() {
    let env = Env::new("confirm");
    let twins = Twins::start(&env, "cat", 70, 20);
    twins.both(&["new-window", "-d", "-n", "second", "cat"]);
    let asking = |text: &'static str| move |s: &str| last_line(s).contains(text);
    // A key binding's question (C-b &): declined by `n`, then confirmed by `y`.
    twins.keys(&["C-b", "&"]);
    let (t, z) = twins.wait_both("the question", asking("kill-window prog? (y/n)"));
    assert_eq!(last_line(&t), last_line(&z));
    let (t, z) = twins.cursors();
    assert_eq!(t, z);
    twins.keys(&["Left", "C-x"]);
    std::thread::sleep(Duration::from_millis(200));
    twins.wait_both("still asking", asking("kill-window prog? (y/n)"));
    twins.keys(&["n"]);
    twins.wait_both("declined", |s| attached(s, "work"));
    assert_eq!(
        twins.windows(),
        ("prog\nsecond\n".into(), "prog\nsecond\n".into())
    );
    twins.keys(&["C-b", "&"]);
    twins.wait_both("asked again", asking("kill-window prog? (y/n)"));
    twins.keys(&["y"]);
    twins.wait_both("confirmed", |s| last_line(s).contains("1:second*"));
    assert_eq!(twins.windows(), ("second\n".into(), "second\n".into()));
    // A script's question waits for the answer; its exit status is the answer.
    for (key, code, names) in [("y", 0, "renamed\n"), ("Escape", 1, "renamed\n")] {
        let args = [
            "confirm-before",
            "-p",
            "rename #{session_name}?",
            "rename-window -t work:1 renamed",
        ];
        let mut t = twins.spawn_tmux(&args);
        let mut z = spawn_zp(&env, &args);
        let (ts, zs) = twins.wait_both("the script's question", asking("rename work?"));
        assert_eq!(last_line(&ts), last_line(&zs));
        assert!(exited_within(&mut t, 200).is_none() && exited_within(&mut z, 1).is_none());
        twins.keys(&[key]);
        let codes = (exited_within(&mut t, 5000), exited_within(&mut z, 5000));
        let codes = (
            codes.0.and_then(|s| s.code()),
            codes.1.and_then(|s| s.code()),
        );
        assert_eq!(codes, (Some(code), Some(code)), "{key}");
        assert_eq!(twins.windows(), (names.into(), names.into()));
    }
    // A client that leaves while asked releases the script that waits.
    let mut z = spawn_zp(&env, &["confirm-before", "kill-server"]);
    env.outer
        .wait_screen("z", "asked", asking("Confirm 'kill-server'? (y/n)"));
    env.zp_ok(&["detach-client", "-s", "work"]);
    let code = exited_within(&mut z, 5000).and_then(|s| s.code());
    assert_eq!(code, Some(1));
    env.zp_ok(&["has-session", "-t", "work"]);
}

#[test]
fn key_bindings_run_from_the_attached_client() {
    let env = Env::new("bind");
    env.zp_ok(&["new-session", "-d", "-s", "k", "cat -v"]);
    env.zp_ok(&["set-option", "-g", "prefix", "C-a"]);
    env.zp_ok(&["bind-key", "x", "new-window", "-d", "-n", "by-x", "cat"]);
    env.zp_ok(&[
        "bind-key",
        "-r",
        "a",
        "new-window",
        "-d",
        "-n",
        "by-a",
        "cat",
    ]);
    env.zp_ok(&["bind-key", "-n", "F5", "switch-client", "-T", "mine"]);
    env.zp_ok(&[
        "bind-key",
        "-T",
        "mine",
        "y",
        "rename-window",
        "-t",
        "k:0",
        "renamed",
    ]);
    env.outer("a", 90, 20, "attach -t k");
    env.outer.wait_screen("a", "attached", |s| attached(s, "k"));
    let windows = || env.zp_ok(&["list-windows", "-t", "k", "-F", "#{window_name}"]);
    // The new prefix starts a binding; the old one is a key like any other.
    env.keys("a", &["C-a", "x", "C-b"]);
    env.wait_zp(
        &["list-windows", "-t", "k", "-F", "#{window_name}"],
        "cat\nby-x\n",
    );
    // A repeating binding runs again without the prefix within repeat-time.
    env.keys("a", &["C-a", "a", "a"]);
    env.wait_zp(
        &["list-windows", "-t", "k", "-F", "#{window_name}"],
        "cat\nby-x\nby-a\nby-a\n",
    );
    // After repeat-time the key goes to the pane; a key bound nowhere after the prefix goes
    // nowhere.
    std::thread::sleep(std::time::Duration::from_millis(700));
    env.keys("a", &["a", "C-a", "j", "z"]);
    // A root binding switches tables, and the next key is looked up there.
    env.keys("a", &["F5", "y"]);
    env.wait_zp(
        &["list-windows", "-t", "k", "-F", "#{window_name}"],
        "renamed\nby-x\nby-a\nby-a\n",
    );
    env.outer
        .wait_screen("a", "keys that reached the pane", |s| {
            s.lines().next() == Some("^Baz")
        });
    assert_eq!(windows().lines().count(), 4);
    // refresh-client sets the client's flags and refuses what only control clients do.
    let flags = ["list-clients", "-F", "#{client_readonly} #{client_flags}"];
    env.zp_ok(&["refresh-client", "-f", "read-only"]);
    assert_eq!(env.zp_ok(&flags), "1 attached,focused,read-only,UTF-8\n");
    env.zp_ok(&["refresh-client", "-F", "!read-only,ignore-size"]);
    assert_eq!(env.zp_ok(&flags), "0 attached,focused,ignore-size,UTF-8\n");
    env.zp_ok(&["refresh-client", "-f", "!ignore-size", "-S"]);
    let refused = env.zp(&["refresh-client", "-C", "80x24"]);
    assert_eq!(
        String::from_utf8_lossy(&refused.stderr),
        "not a control client\n"
    );
    let refused = env.zp(&["refresh-client", "-L", "0"]);
    assert_eq!(
        String::from_utf8_lossy(&refused.stderr),
        "adjustment too small\n"
    );
    // Unbound, the key goes to the pane again (as does the prefix once none is set).
    env.zp_ok(&["unbind-key", "-n", "F5"]);
    env.zp_ok(&["set-option", "-g", "prefix", "None"]);
    env.keys("a", &["F5", "C-a", "Enter"]);
    // The terminal echoed every key the pane got; `cat -v` prints the line back.
    env.outer
        .wait_screen("a", "unbound keys reach the pane", |s| {
            s.lines().nth(1) == Some("^Baz^[[15~^A")
        });
}

/// The command prompt (`C-b :`, `C-b ,`, command-prompt from a script): what it shows while
/// keys edit it, what its answers run, its history and its kinds of answer, each compared
/// with tmux 3.3a's on the same keys.
#[test]
fn command_prompt_edits_and_runs_as_tmux_does() {
    let env = Env::new("cprompt");
    let twins = Twins::start(&env, "cat", 70, 20);
    let same_prompt = |what: &str, shows: &str| {
        let shows = shows.to_string();
        let (t, z) = twins.wait_both(what, move |s| {
            last_line(s).contains(&shows) && !last_line(s).contains("[work] ")
        });
        assert_eq!(last_line(&t), last_line(&z), "{what}");
        let (t, z) = twins.cursors();
        assert_eq!(t, z, "{what}: cursors");
    };
    // Keys after the one that opens a prompt are typed once it shows: tmux queues a
    // binding's command, so keys read with it reach the pane before the prompt is there.
    // Typing and the emacs keys; Enter runs the line.
    twins.keys(&["C-b", ":"]);
    same_prompt("the empty prompt", ":");
    twins.keys(&["xnew-window -d -n typed cat"]);
    same_prompt("typed", "typed cat");
    twins.keys(&[
        "C-a", "C-d", "C-e", "M-b", "C-k", "dog", "Left", "Left", "BSpace",
    ]);
    same_prompt("edited", "new-window -d -n typed og");
    twins.keys(&["C-u", "new-window -d -n typed cat", "Enter"]);
    twins.wait_both("back", |s| attached(s, "work"));
    assert_eq!(
        twins.windows(),
        ("prog\ntyped\n".into(), "prog\ntyped\n".into())
    );
    // The history brings the line back; Escape cancels.
    twins.keys(&["C-b", ":"]);
    same_prompt("asked again", ":");
    twins.keys(&["Up"]);
    same_prompt("from the history", "new-window -d -n typed cat");
    twins.keys(&["Escape"]);
    twins.wait_both("cancelled", |s| attached(s, "work"));
    // Tab completes a command's name; a line longer than the row scrolls with the cursor.
    twins.keys(&["C-b", ":"]);
    same_prompt("asked for a completion", ":");
    twins.keys(&["new-w", "Tab"]);
    same_prompt("completed", ":new-window");
    twins.keys(&[&"0123456789".repeat(8), "C-b", "C-b", "C-b"]);
    same_prompt("scrolled", "0123456789");
    twins.keys(&["C-c"]);
    twins.wait_both("cancelled again", |s| attached(s, "work"));
    // C-b , asks with the window's name; an answer with a space stays one argument.
    twins.keys(&["C-b", ","]);
    same_prompt("rename", "(rename-window) prog");
    twins.keys(&["C-u", "my \"name\"", "Enter"]);
    twins.wait_both("renamed", |s| attached(s, "work"));
    let names = "my \"name\"\ntyped\n";
    assert_eq!(twins.windows(), (names.into(), names.into()));
    // vi keys: Escape enters command mode, drawn in message-command-style.
    twins.both(&["set-option", "-g", "status-keys", "vi"]);
    twins.keys(&["C-b", ":"]);
    same_prompt("asked with vi keys", ":");
    twins.keys(&["abc def"]);
    same_prompt("typed with vi keys", "abc def");
    // Escape alone: with another key after it, it would be Meta with that key.
    twins.keys(&["Escape"]);
    let command_mode = |target: &str| {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let screen = env.outer.screen(target, true);
            if last_line(&screen).contains("\x1b[40m") || Instant::now() > deadline {
                return last_line(&screen).to_string();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let (t, z) = (command_mode("t"), command_mode("z"));
    assert!(t.contains("\x1b[40m"), "{t:?}");
    assert_eq!(t, z);
    twins.keys(&["0", "x", "w"]);
    same_prompt("vi keys", ":bc def");
    twins.keys(&["q"]);
    twins.wait_both("vi cancelled", |s| attached(s, "work"));
    twins.both(&["set-option", "-g", "status-keys", "emacs"]);
    // A script's prompts: asked in turn with their inputs; the script waits and exits as
    // tmux's does, answered or cancelled.
    let args = [
        "command-prompt",
        "-p",
        "first,second #{session_name}",
        "-I",
        "a,b",
        "rename-window -t work:0 '%1-%2'",
    ];
    for (keys, code, name) in [
        (["Enter", "Enter"], 0, "a-b"),
        (["Enter", "Escape"], 0, "a-b"),
    ] {
        twins.both(&["rename-window", "-t", "work:0", "prog"]);
        let mut t = twins.spawn_tmux(&args);
        let mut z = spawn_zp(&env, &args);
        same_prompt("the first prompt", "first a");
        twins.keys(&[keys[0]]);
        same_prompt("the second prompt", "second work b");
        assert!(exited_within(&mut t, 200).is_none() && exited_within(&mut z, 1).is_none());
        twins.keys(&[keys[1]]);
        let codes = (exited_within(&mut t, 5000), exited_within(&mut z, 5000));
        let codes = (
            codes.0.and_then(|s| s.code()),
            codes.1.and_then(|s| s.code()),
        );
        assert_eq!(codes, (Some(code), Some(code)), "{keys:?}");
        let want = if keys[1] == "Enter" { name } else { "prog" };
        let names = format!("{want}\ntyped\n");
        assert_eq!(twins.windows(), (names.clone(), names), "{keys:?}");
    }
    // One character, a number (its first other key goes on to the pane), a key's name.
    let rename = |flag: &str, keys: &[&str], want: &str| {
        twins.both(&[
            "command-prompt",
            "-b",
            flag,
            "-p",
            "answer",
            "rename-window -t work:0 '%%'",
        ]);
        same_prompt(flag, "answer");
        twins.keys(keys);
        twins.wait_both(flag, |s| attached(s, "work"));
        let names = format!("{want}\ntyped\n");
        assert_eq!(twins.windows(), (names.clone(), names), "{flag}");
    };
    rename("-1", &["k"], "k");
    rename("-N", &["1", "2", "z"], "12");
    rename("-k", &["Up"], "Up");
    let (t, z) = twins.wait_both("z in the pane", |s| {
        s.lines().next().unwrap_or("").contains('z')
    });
    assert_eq!(t.lines().next(), z.lines().next());
    // An incremental prompt runs its template as the answer changes, `=` before the text
    // (`-` after C-r); Enter ends it without running it again.
    twins.both(&[
        "command-prompt",
        "-i",
        "-p",
        "find",
        "rename-window -t work:0 -- '%%'",
    ]);
    same_prompt("incremental", "find");
    twins.keys(&["ab"]);
    twins.wait_both("changed", |s| last_line(s).contains("find ab"));
    let names = |want: &str| format!("{want}\ntyped\n");
    twins.env.wait_zp(
        &["list-windows", "-t", "work", "-F", "#{window_name}"],
        &names("=ab"),
    );
    assert_eq!(twins.windows(), (names("=ab"), names("=ab")));
    twins.keys(&["C-r"]);
    twins.env.wait_zp(
        &["list-windows", "-t", "work", "-F", "#{window_name}"],
        &names("-ab"),
    );
    twins.keys(&["Enter"]);
    twins.wait_both("incremental ended", |s| attached(s, "work"));
    assert_eq!(twins.windows(), (names("-ab"), names("-ab")));
    // The history as show-prompt-history prints it, then cleared.
    let history = |args: &[&str]| {
        let t = String::from_utf8(twins.tmux(args).stdout).unwrap();
        (t, env.zp_ok(args))
    };
    let (t, z) = history(&["show-prompt-history"]);
    assert_eq!(t, z);
    assert!(z.contains("1: new-window -d -n typed cat\n"), "{z}");
    twins.both(&["clear-prompt-history", "-T", "command"]);
    let (t, z) = history(&["show-prompt-history", "-T", "command"]);
    assert_eq!(
        (t.as_str(), z.as_str()),
        ("History for command:\n\n\n", "History for command:\n\n\n")
    );
}

/// What commands run by keys print shows in place of the pane (tmux's view mode): `C-b ?`'s
/// list from its first line, pages, more output below, long lines cut into rows, `q` back.
#[test]
fn output_of_commands_run_by_keys_shows_as_tmux_shows_it() {
    let env = Env::new("viewmode");
    let twins = Twins::start(&env, "cat", 70, 20);
    let rows = |screen: &str| -> Vec<String> {
        let lines: Vec<&str> = screen.lines().collect();
        lines[..lines.len() - 1]
            .iter()
            .map(|l| l.to_string())
            .collect()
    };
    let same_view = |what: &str, f: &dyn Fn(&str) -> bool| {
        let (t, z) = twins.wait_both(what, f);
        assert_eq!(rows(&t), rows(&z), "{what}");
    };
    let mode = || {
        let args = ["display-message", "-p", "-t", "work", "#{pane_mode}"];
        (
            String::from_utf8(twins.tmux(&args).stdout).unwrap(),
            env.zp_ok(&args),
        )
    };
    twins.keys(&["C-b", "?"]);
    same_view("the list of keys", &|s| s.starts_with("C-b C-b"));
    assert_eq!(mode(), ("view-mode\n".into(), "view-mode\n".into()));
    twins.keys(&["NPage"]);
    same_view("a page down", &|s| !s.starts_with("C-b C-b"));
    twins.keys(&["q"]);
    twins.wait_both("back", |s| !s.contains("C-b"));
    assert_eq!(mode(), ("\n".into(), "\n".into()));
    // More output adds to what shows; a long line is cut into rows.
    twins.keys(&["C-b", ":"]);
    twins.wait_both("the prompt", |s| last_line(s).starts_with(':'));
    twins.keys(&["display-message -p 'first line'", "Enter"]);
    same_view("one line", &|s| s.starts_with("first line"));
    twins.keys(&["C-b", ":"]);
    twins.wait_both("the prompt again", |s| last_line(s).starts_with(':'));
    let long = format!("display-message -p '{}'", "0123456789".repeat(9));
    twins.keys(&[&long, "Enter"]);
    same_view("a long line", &|s| {
        s.lines()
            .nth(2)
            .is_some_and(|l| l.starts_with("0123456789"))
    });
    twins.keys(&["q"]);
    twins.wait_both("back again", |s| !s.contains("first line"));
}

/// The status line's window names follow the program in the foreground and the pane's mode
/// as tmux's do, with no command run: a program started from the shell names its window,
/// `[tmux]` while a view shows the pane.
#[test]
fn window_names_follow_programs_and_modes_while_attached() {
    let env = Env::new("names");
    let twins = Twins::start(&env, "bash --norc --noprofile", 70, 20);
    // The window was named when made; its name follows its program again.
    twins.both(&["set-option", "-w", "-t", "work:0", "automatic-rename", "on"]);
    let same_status = |what: &str, name: &'static str| {
        let (t, z) = twins.wait_both(what, move |s| last_line(s).contains(name));
        assert_eq!(status_masked(&t), status_masked(&z), "{what}");
    };
    twins.keys(&[
        "perl -e '$|=1; while (1) { print qq(tick\\n); sleep 1 }'",
        "Enter",
    ]);
    same_status("the program's name", " 0:perl* ");
    twins.keys(&["C-b", "["]);
    same_status("in a mode", " 0:[tmux]* ");
    twins.keys(&["q"]);
    same_status("out of the mode", " 0:perl* ");
}

/// Keys in the scrollback view go through tmux's copy-mode tables: emacs' and vi's pages and
/// ends move it as they move tmux's, a key bound in neither the mode's table nor the root one
/// does nothing, and a root binding still runs.
#[test]
fn keys_in_the_view_go_through_the_copy_mode_tables() {
    let env = Env::new("viewkeys");
    let twins = Twins::start(&env, "seq 1 300; exec cat", 70, 20);
    twins.both(&["set-option", "-g", "mode-keys", "emacs"]);
    twins.both(&["bind-key", "-n", "F5", "rename-window", "viewed"]);
    twins.keys(&["C-b", "["]);
    twins.view_position("opened", "[0/");
    twins.keys(&["M-v"]);
    twins.view_position("emacs page up", "[17/");
    twins.keys(&["x", "C-v"]);
    twins.view_position("emacs page down", "[0/");
    twins.both(&["set-option", "-g", "mode-keys", "vi"]);
    twins.keys(&["C-u"]);
    twins.view_position("vi half page up", "[9/");
    // Escape alone (vi's clear-selection: the view stays); a key right after it would make
    // it Meta with that key.
    twins.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(700));
    twins.keys(&["g"]);
    twins.view_position("vi top", "[2");
    twins.keys(&["F5", "G"]);
    twins.view_position("vi bottom", "[0/");
    assert_eq!(twins.windows(), ("viewed\n".into(), "viewed\n".into()));
    twins.keys(&["q"]);
    twins.wait_both("closed", |s| !top_row(s).contains("[0/"));
}

/// emacs' `g` in the view asks for a line on the command prompt and goes there, as tmux's
/// `goto-line` does (past the history: its top).
#[test]
fn goto_line_from_the_prompt_moves_the_view() {
    let env = Env::new("gotoline");
    let twins = Twins::start(&env, "seq 1 300; exec cat", 70, 20);
    twins.both(&["set-option", "-g", "mode-keys", "emacs"]);
    twins.keys(&["C-b", "["]);
    twins.view_position("opened", "[0/");
    for (line, shows) in [("42", "[42/"), ("99999", "[2"), ("7", "[7/")] {
        twins.keys(&["g"]);
        twins.wait_both("asked", |s| last_line(s).starts_with("(goto line)"));
        twins.keys(&[line, "Enter"]);
        twins.view_position(line, shows);
    }
}

impl Twins<'_> {
    /// A detached 80x24 session running cat on both servers, its window named.
    fn cat_session(&self, session: &str, window: &str) {
        let size = ["-x", "80", "-y", "24", "exec cat"];
        let new = ["new-session", "-d", "-s", session, "-n", window];
        self.both(&[&new[..], &size[..]].concat());
    }

    /// Checks that `#{pane_mode}` of the session's pane is `mode` on both servers (waiting for
    /// zeropty's).
    fn pane_mode_is(&self, session: &str, mode: &str) {
        let args = ["display-message", "-p", "-t", session, "#{pane_mode}"];
        let want = format!("{mode}\n");
        assert_eq!(String::from_utf8(self.tmux(&args).stdout).unwrap(), want);
        self.env.wait_zp(&args, &want);
    }

    /// Waits until both clients show the same screen (the status line left out; cell by
    /// cell, characters and styles, as a person sees it) with the same cursor, and fails with
    /// both when they do not within a few seconds.
    fn same(&self, what: &str) {
        let outer = &self.env.outer;
        let without_status = |target: &str| {
            let s = outer.screen(target, true);
            let mut rows: Vec<&str> = s.lines().collect();
            rows.pop();
            rows.join("\n")
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let (t, z) = (without_status("t"), without_status("z"));
            let (tc, zc) = self.cursors();
            if seen_cells(&t) == seen_cells(&z) && tc == zc {
                return;
            }
            if Instant::now() > deadline {
                assert_eq!(z, t, "{what}: zeropty's screen, then tmux's");
                assert_eq!(zc, tc, "{what}: zeropty's cursor, then tmux's");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Both clients' last `rows` rows (the status lines), with escapes.
    fn status_rows(&self, rows: usize) -> (String, String) {
        let status = |target: &str| {
            let s = self.env.outer.screen(target, true);
            let lines: Vec<&str> = s.lines().collect();
            lines[lines.len().saturating_sub(rows)..].join("\n")
        };
        (status("t"), status("z"))
    }

    /// Runs `change`, which must change both clients' last `rows` rows (the status lines),
    /// waits until both have changed and then until they show the same cells, colours and
    /// attributes included.
    fn status_step(&self, what: &str, rows: usize, change: impl FnOnce()) {
        let before = self.status_rows(rows);
        change();
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let (t, z) = self.status_rows(rows);
            if t != before.0 && z != before.1 && seen_cells(&t) == seen_cells(&z) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: zeropty's status\n{z}\ntmux's\n{t}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Sets `mode-keys` on both servers and opens copy mode on both clients (`C-b [`).
    fn open_copy_mode(&self, mode_keys: &str) {
        self.both(&["set-option", "-g", "mode-keys", mode_keys]);
        self.type_one_by_one(&["C-b", "["]);
        self.view_position(&format!("{mode_keys} copy mode opened"), "[0/");
    }

    /// Types keys on both clients one at a time, as a person would: tmux's client, given
    /// several at once, sometimes acts on fewer.
    fn type_one_by_one(&self, keys: &[&str]) {
        for key in keys {
            self.keys(&[key]);
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// The newest paste buffer on both servers, once both have one other than `not`.
    fn newest_buffers(&self, not: &str) -> (String, String) {
        let args = ["show-buffer"];
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let t = String::from_utf8(self.tmux(&args).stdout).unwrap();
            let z = String::from_utf8(self.env.zp(&args).stdout).unwrap();
            if t != not && z != not {
                return (t, z);
            }
            assert!(
                Instant::now() < deadline,
                "no new buffer: tmux {t:?}, zeropty {z:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Copy mode's cursor, selections and copies side by side with tmux: the cursor after
/// emacs' and vi's moves (lines, words, a line's ends and indentation, jumps, pages), the
/// selection drawn in mode-style as it grows, a rectangle, a line selection, and the text
/// each copies into a paste buffer or gives to a command.
#[test]
fn copy_mode_moves_selects_and_copies_as_tmux_does() {
    let env = Env::new("copysel");
    let program = "printf 'alpha beta-gamma  delta\\n    indented line, here\\nwide \u{4e2d}\u{6587} text end\\n\\033[1;31mred words\\033[m plain\\n'; seq 1 40; printf 'last: one two\\n'; exec cat";
    let twins = Twins::start(&env, program, 70, 20);
    twins.open_copy_mode("emacs");
    twins.same("copy mode opened");
    twins.type_one_by_one(&["Up", "Up", "C-a", "M-f"]);
    twins.same("emacs: up, start of line, a word on");
    twins.type_one_by_one(&["M-f"]);
    twins.same("emacs: the next word on the next line");
    twins.type_one_by_one(&["C-Space"]);
    twins.type_one_by_one(&["M-f"]);
    twins.same("emacs: a word selected");
    twins.type_one_by_one(&["Up", "Up"]);
    twins.same("emacs: a selection over three lines");
    twins.type_one_by_one(&["M-w"]);
    twins.wait_both("emacs copy ends the mode", |s| !top_row(s).contains("[0/"));
    let (t, z) = twins.newest_buffers("");
    assert_eq!(z, t, "emacs copy");
    assert!(!t.is_empty());

    twins.open_copy_mode("vi");
    twins.type_one_by_one(&["C-u", "C-u"]);
    twins.same("vi: two half pages up");
    twins.type_one_by_one(&["k", "k", "0", "w", "w", "Space", "e", "j", "j"]);
    twins.same("vi: a selection from a word's start to a word's end two lines down");
    twins.type_one_by_one(&["o", "b"]);
    twins.same("vi: the other end moved a word back");
    twins.type_one_by_one(&["Enter"]);
    let (t, z) = twins.newest_buffers(&t);
    assert_eq!(z, t, "vi copy");

    twins.type_one_by_one(&["C-b", "["]);
    twins.view_position("vi opened again", "[0/");
    twins.type_one_by_one(&["g"]);
    twins.view_position("vi top", "[2");
    twins.type_one_by_one(&["w", "Space", "C-v", "l", "l", "l", "j", "j"]);
    twins.same("vi: a rectangle through wide characters");
    twins.type_one_by_one(&["Enter"]);
    let (t, z) = twins.newest_buffers(&t);
    assert_eq!(z, t, "vi rectangle copy");

    twins.type_one_by_one(&["C-b", "["]);
    twins.view_position("vi line selection", "[0/");
    twins.type_one_by_one(&["g", "j", "j", "^", "V", "j"]);
    twins.same("vi: two lines selected, from the indentation");
    twins.type_one_by_one(&["f"]);
    twins.wait_both("jump asked", |s| last_line(s).contains("(jump forward)"));
    twins.type_one_by_one(&["e"]);
    twins.same("vi: jumped to an e");
    twins.type_one_by_one(&["Escape"]);
    std::thread::sleep(Duration::from_millis(700));
    twins.same("vi: selection cleared");
    twins.type_one_by_one(&["w", "w", "D"]);
    let (t, z) = twins.newest_buffers(&t);
    assert_eq!(z, t, "vi copy to the end of the line");

    // A copy given to a command: the same text reaches it as the buffer holds.
    let (tf, zf) = (env.dir.join("piped-t"), env.dir.join("piped-z"));
    for (file, is_tmux) in [(&tf, true), (&zf, false)] {
        let bind = [
            "bind-key",
            "-T",
            "copy-mode-vi",
            "Y",
            "send-keys",
            "-X",
            "copy-pipe-and-cancel",
            &format!("cat > {}", file.display()),
            "piped",
        ];
        if is_tmux {
            assert!(twins.tmux(&bind).status.success());
        } else {
            env.zp_ok(&bind);
        }
    }
    twins.type_one_by_one(&["C-b", "["]);
    twins.view_position("vi piped", "[0/");
    twins.type_one_by_one(&["k", "k", "k", "V", "k", "Y"]);
    let read = |f: &PathBuf| {
        common::zp::wait_for(
            || std::fs::read_to_string(f).unwrap_or_default(),
            |s| !s.is_empty(),
        )
    };
    let (tp, zp) = (read(&tf), read(&zf));
    assert_eq!(zp, tp, "piped");
    let names = ["list-buffers", "-F", "#{buffer_name}"];
    let t_names = String::from_utf8(twins.tmux(&names).stdout).unwrap();
    assert!(t_names.starts_with("piped"), "{t_names}");
    assert_eq!(env.zp_ok(&names).lines().next(), t_names.lines().next());
}

/// A copy given to a command reaches it whole however long it is: the command is written
/// to as it reads, not only what its pipe takes at once (here about 1.2 MB to a command that
/// waits a second before reading).
#[test]
fn a_long_copy_reaches_its_command_whole() {
    let env = Env::new("longpipe");
    env.session("w");
    env.zp_ok(&["set-option", "-g", "history-limit", "20000"]);
    let program = "seq -f '%05g ........................................................................' 1 15000; exec cat";
    env.zp_ok(&["new-window", "-t", "w", program]);
    env.outer("z", 80, 24, "attach -t w");
    env.outer
        .wait_screen("z", "zeropty attached", |s| attached(s, "w"));
    env.wait_zp_until(&["capture-pane", "-p", "-t", "w"], "all lines", |s| {
        s.contains("15000 ....")
    });
    env.keys("z", &["C-b", "["]);
    env.outer
        .wait_screen("z", "copy mode", |s| top_row(s).contains("[0/"));
    let file = env.dir.join("piped");
    for command in [
        "history-top",
        "begin-selection",
        "history-bottom",
        "end-of-line",
    ] {
        env.zp_ok(&["send-keys", "-X", "-t", "w", command]);
    }
    let pipe = format!("sleep 1; cat > {}", file.display());
    env.zp_ok(&["send-keys", "-X", "-t", "w", "copy-pipe-and-cancel", &pipe]);
    let copied = env.zp_ok(&["show-buffer"]);
    assert!(copied.starts_with("00001 ...."), "{:?}", &copied[..100]);
    assert!(
        copied.contains("\n15000 ...."),
        "the copy ends at the last line"
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    let piped = loop {
        let piped = std::fs::read_to_string(&file).unwrap_or_default();
        if piped.len() >= copied.len() || Instant::now() > deadline {
            break piped;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(piped.len(), copied.len(), "bytes the command got");
    assert!(
        piped == copied,
        "the command got other text than the buffer holds"
    );
}

/// Copy mode follows its pane's size as tmux's does: the copy reflows to the new width, the
/// cursor stays on its character (shown on the top row when that is in the history), and
/// the selection goes.
#[test]
fn copy_mode_follows_the_pane_size_as_tmux_does() {
    let env = Env::new("copyresize");
    let program = "for i in $(seq 1 40); do echo \"line $i: the quick brown fox jumps over the lazy dog again\"; done; exec cat";
    let twins = Twins::start(&env, program, 70, 20);
    twins.wait_both("the program wrote", |s| s.contains("line 40:"));
    twins.open_copy_mode("vi");
    twins.type_one_by_one(&["k", "k", "k", "k", "w", "w", "Space", "j"]);
    twins.same("a selection before the resize");
    for (cols, rows) in [(50, 15), (30, 12), (80, 22), (70, 20)] {
        twins.resize_terminals(cols, rows);
        twins.same(&format!("copy mode at {cols}x{rows}"));
    }
    // Moves from a place that hides no remembered column (a line move goes back to the
    // column of the line moves before the resizes, which the sizes on the way, seen at
    // moments that vary, can leave differently in each).
    std::thread::sleep(Duration::from_millis(500));
    twins.type_one_by_one(&["g", "j", "w", "Space", "e"]);
    twins.same("moved and selected after the resizes");
}

/// Searching in copy mode side by side with tmux: vi's `/` and `?` from the prompt, `n` and
/// `N`, a search that goes round the end, regular expressions, matches marked in their styles with the count at
/// the top, the marks kept by vi's moves and cleared by emacs', and emacs' incremental C-s
/// and C-r as the text is typed.
#[test]
fn copy_mode_searches_as_tmux_does() {
    let env = Env::new("copysearch");
    let program = "printf 'Line one\\nthe line two\\n  a LINE three\\nlast line\\n'; seq 1 30; printf 'x line y\\n'; exec cat";
    let twins = Twins::start(&env, program, 70, 20);
    twins.open_copy_mode("vi");
    twins.type_one_by_one(&["?"]);
    twins.wait_both("asked up", |s| last_line(s).contains("(search up)"));
    twins.type_one_by_one(&["l", "i", "n", "e", "Enter"]);
    twins.same("vi: searched up for line, every case");
    twins.type_one_by_one(&["n", "n"]);
    twins.same("vi: two more up");
    twins.type_one_by_one(&["N"]);
    twins.same("vi: one back down");
    twins.type_one_by_one(&["k", "k"]);
    twins.same("vi: the marks stay while moving");
    twins.type_one_by_one(&["/"]);
    twins.wait_both("asked down", |s| last_line(s).contains("(search down)"));
    twins.type_one_by_one(&["L", "I", "N", "E", "Enter"]);
    twins.same("vi: searched down for LINE, only capitals");
    twins.type_one_by_one(&["n"]);
    twins.same("vi: round the end to the top");
    // A pattern with regular expression characters is one (POSIX extended, as tmux's).
    twins.type_one_by_one(&["?"]);
    twins.wait_both("asked up again", |s| last_line(s).contains("(search up)"));
    twins.type_one_by_one(&[
        "t", "(", "w", "|", "h", "r", ")", "[", "e", "o", "]", "Enter",
    ]);
    twins.same("vi: a regular expression up, matches of two lengths marked");
    twins.type_one_by_one(&["N"]);
    twins.same("vi: the regular expression down again");
    twins.type_one_by_one(&["/"]);
    twins.wait_both("asked down again", |s| {
        last_line(s).contains("(search down)")
    });
    // Lines are searched with their blank cells to the width, so `$` is never right after
    // the text, in tmux as here.
    twins.type_one_by_one(&["^", "2", "[", "0", "-", "9", "]", " ", "Enter"]);
    twins.same("vi: an anchored regular expression");
    twins.type_one_by_one(&["q"]);
    twins.wait_both("closed", |s| !top_row(s).contains("results"));
    let search_string = [
        "display-message",
        "-p",
        "-t",
        "work",
        "#{pane_search_string}",
    ];
    let t = String::from_utf8(twins.tmux(&search_string).stdout).unwrap();
    assert_eq!(env.zp_ok(&search_string), t, "the pane's last search");
    assert_eq!(t, "^2[0-9] \n");
    twins.type_one_by_one(&["C-b", "["]);
    twins.view_position("reopened", "[0/");
    twins.type_one_by_one(&["n"]);
    twins.same("vi: a new copy mode repeats the pane's last search, upwards");
    twins.type_one_by_one(&["q"]);
    twins.wait_both("closed again", |s| !top_row(s).contains("results"));

    twins.open_copy_mode("emacs");
    twins.type_one_by_one(&["C-r"]);
    twins.wait_both("asked incrementally", |s| {
        last_line(s).contains("(search up)")
    });
    twins.type_one_by_one(&["t", "w"]);
    twins.same("emacs: incremental up for tw");
    twins.type_one_by_one(&["BSpace", "h"]);
    twins.same("emacs: the text changed to th, from the start again");
    twins.type_one_by_one(&["Enter"]);
    twins.same("emacs: answered");
    twins.type_one_by_one(&["C-s"]);
    twins.wait_both("asked down", |s| last_line(s).contains("(search down)"));
    twins.type_one_by_one(&["l", "a", "Enter"]);
    twins.same("emacs: down for la, the cursor after the match");
    twins.type_one_by_one(&["C-f"]);
    twins.same("emacs: a move clears the marks");
}

/// copy-mode's flags as tmux's: `-s` shows another pane's content, `-H` hides the position,
/// `-e` ends the mode when paging reaches the bottom, `-u` starts a page up.
#[test]
fn copy_mode_flags_match_tmux() {
    let env = Env::new("copyflags");
    let twins = Twins::start(&env, "seq 1 60; exec cat", 70, 20);
    twins.both(&["new-window", "-d", "-n", "other", "seq 500 560; exec cat"]);
    // Its program has written everything before its content is copied.
    let other = ["capture-pane", "-p", "-t", "work:other"];
    env.wait_zp_until(&other, "zeropty's other window", |s| s.contains("560"));
    common::zp::wait_for(
        || String::from_utf8(twins.tmux(&other).stdout).unwrap(),
        |s| s.contains("560"),
    );
    twins.both(&["copy-mode", "-H", "-t", "work:0", "-s", "work:other"]);
    twins.wait_both("the other pane's lines", |s| s.contains("559"));
    twins.same("-s and -H");
    twins.both(&["send-keys", "-t", "work:0", "-X", "cancel"]);
    twins.wait_both("cancelled", |s| s.contains("60") && !s.contains("559"));
    twins.both(&["copy-mode", "-e", "-u", "-t", "work:0"]);
    twins.view_position("-u", "[17/");
    twins.same("-e -u");
    // append-selection adds to the newest buffer, as tmux's.
    twins.both(&["set-buffer", "-b", "kept", "head: "]);
    for command in ["begin-selection", "cursor-up", "append-selection"] {
        twins.both(&["send-keys", "-t", "work:0", "-X", command]);
    }
    let kept = ["show-buffer", "-b", "kept"];
    let t = String::from_utf8(twins.tmux(&kept).stdout).unwrap();
    assert_eq!(env.zp_ok(&kept), t, "the appended buffer");
    assert!(t.starts_with("head: ") && t.len() > "head: ".len(), "{t:?}");
    twins.both(&["send-keys", "-t", "work:0", "-X", "page-down"]);
    let in_mode = ["display-message", "-p", "-t", "work:0", "#{pane_in_mode}"];
    env.wait_zp(&in_mode, "0\n");
    assert_eq!(
        String::from_utf8(twins.tmux(&in_mode).stdout).unwrap(),
        "0\n"
    );
    twins.same("-e: paged to the bottom, the mode ended");
}

/// A copy reaches the terminal's clipboard as tmux sends it (OSC 52, to terminals whose
/// `TERM` has the clipboard in `terminal-features`): an outer tmux with `set-clipboard on`
/// keeps what each inner client sends as one of its own paste buffers.
#[test]
fn copies_reach_the_terminal_clipboard_as_tmux_sends_them() {
    let env = Env::new("clipboard");
    let inner = format!("{}in", env.outer.label);
    let tmux_inner = |args: &[&str]| {
        Command::new("tmux")
            .args(["-L", &inner, "-f/dev/null"])
            .args(args)
            .env("TMUX_TMPDIR", env.dir.join("t"))
            .env_remove("TMUX")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let new = [
        "new-session",
        "-d",
        "-s",
        "work",
        "printf 'copy m\u{e9}\\n'; exec cat",
    ];
    assert!(tmux_inner(&new).status.success());
    env.zp_ok(&new);
    let attach_tmux = format!(
        "TERM=xterm-256color TMUX= LANG=C.UTF-8 tmux -L {inner} -f/dev/null attach -t work"
    );
    let attach_zp = format!("TERM=xterm-256color {}", env.in_outer("attach -t work"));
    for (name, command) in [("t", attach_tmux), ("z", attach_zp)] {
        let o = env.outer.tmux(&[
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            "60",
            "-y",
            "12",
            &command,
        ]);
        assert!(o.status.success());
        env.outer
            .wait_screen(name, "attached", |s| attached(s, "work"));
    }
    let on = env.outer.tmux(&["set-option", "-g", "set-clipboard", "on"]);
    assert!(on.status.success());
    let outer_buffers = || {
        String::from_utf8(
            env.outer
                .tmux(&["list-buffers", "-F", "#{buffer_name}"])
                .stdout,
        )
        .unwrap()
    };
    let mut copied = Vec::new();
    for (i, is_tmux) in [true, false].into_iter().enumerate() {
        for args in [
            &["copy-mode", "-t", "work"][..],
            &["send-keys", "-t", "work", "-X", "cursor-up"],
            &["send-keys", "-t", "work", "-X", "select-line"],
            &["send-keys", "-t", "work", "-X", "copy-selection-and-cancel"],
        ] {
            if is_tmux {
                assert!(tmux_inner(args).status.success(), "{args:?}");
            } else {
                env.zp_ok(args);
            }
        }
        common::zp::wait_for(outer_buffers, |s| s.lines().count() == i + 1);
        let top = env.outer.tmux(&["show-buffer"]);
        copied.push(String::from_utf8(top.stdout).unwrap());
        let inner_top = match is_tmux {
            true => String::from_utf8(tmux_inner(&["show-buffer"]).stdout).unwrap(),
            false => env.zp_ok(&["show-buffer"]),
        };
        assert_eq!(copied[i], inner_top, "the clipboard holds the copy");
    }
    assert_eq!(
        copied[1], copied[0],
        "zeropty's clipboard copy, then tmux's"
    );
    assert_eq!(copied[0], "copy m\u{e9}");
    let _ = tmux_inner(&["kill-server"]);
}

/// With `mouse` on, the wheel, clicks and drags as tmux's default bindings take them: the
/// wheel over a pane starts copy mode (`-e`) and scrolls it five lines a step, scrolling back
/// to the bottom ends it; a click goes to a program that asked for the mouse, in its form; a
/// drag selects from where it started and its release copies.
#[test]
fn the_mouse_wheel_scrolls_and_clicks_reach_programs_as_in_tmux() {
    let env = Env::new("mouse");
    let program = "seq 1 100; stty raw -echo; printf '\\033[?1000h\\033[?1006h'; exec cat -v";
    let twins = Twins::start(&env, program, 70, 20);
    twins.both(&["set-option", "-g", "mouse", "on"]);
    std::thread::sleep(Duration::from_millis(300));
    let send = |text: &str| {
        twins.type_raw(text);
        std::thread::sleep(Duration::from_millis(200));
    };
    send("\x1b[<0;3;4M\x1b[<0;3;4m");
    twins.same("a click went to the program");
    let (t, _) = twins.wait_both("the program saw it", |s| s.contains("^[[<0;3;4M"));
    assert!(t.contains("^[[<0;3;4m"), "{t}");
    twins.both(&["send-keys", "-t", "work", "q"]);
    twins.both(&["send-keys", "-t", "work", "C-c"]);
    twins.both(&["respawn-pane", "-k", "-t", "work", "seq 1 100; exec cat"]);
    twins.wait_both("respawned", |s| s.contains("100"));
    send("\x1b[<64;10;5M");
    twins.view_position("the wheel started copy mode", "[0/");
    twins.same("copy mode from the wheel");
    send("\x1b[<64;10;5M");
    twins.view_position("up five", "[5/");
    send("\x1b[<64;10;5M");
    twins.view_position("up ten", "[10/");
    twins.same("scrolled up by the wheel");
    send("\x1b[<65;10;5M");
    twins.view_position("down five", "[5/");
    send("\x1b[<65;10;5M");
    twins.wait_both("back at the bottom, the mode ended", |s| {
        !top_row(s).contains("/")
    });
    twins.same("the wheel ended copy mode");
    // A drag selects from where the button went down, and its release copies.
    send("\x1b[<0;3;6M\x1b[<32;6;8M");
    twins.view_position("a drag started copy mode", "[0/");
    send("\x1b[<32;9;9M");
    twins.same("the selection follows the drag");
    send("\x1b[<0;9;9m");
    twins.wait_both("the release copied and ended the mode", |s| {
        !top_row(s).contains("/")
    });
    let (t, z) = twins.newest_buffers("");
    assert_eq!(z, t, "the drag's copy");
    assert_eq!(t.lines().count(), 4, "{t:?}");
}

/// Mouse keys over the status line as tmux's default status line's ranges tell them apart: a
/// window's name is `MouseDown1Status` and the window under it the `=` target (so a click
/// selects it), the wheel there goes through the windows, and the left part, the right part
/// and the rest (the gap before the right part) are keys of their own.
#[test]
fn clicks_on_the_status_line_choose_windows_as_in_tmux() {
    let env = Env::new("statusclick");
    let twins = Twins::start(&env, "exec cat", 70, 20);
    twins.both(&["set-option", "-g", "mouse", "on"]);
    twins.both(&["set-option", "-g", "status-right", "RIGHT"]);
    for name in ["second", "third"] {
        twins.both(&["new-window", "-t", "work", "-n", name, "exec cat"]);
    }
    for (place, word) in [("Left", "left"), ("Right", "right"), ("Default", "default")] {
        let key = format!("MouseDown1Status{place}");
        twins.both(&["bind-key", "-n", &key, "set-option", "-g", "@where", word]);
    }
    twins.wait_both("three windows", |s| last_line(s).contains("2:third*"));
    let (t, z) = (env.outer.screen("t", false), env.outer.screen("z", false));
    assert_eq!(last_line(&z), last_line(&t), "the status lines");
    let status = last_line(&t).to_string();
    let column = |text: &str| status.find(text).expect(text) as u32 + 1;
    let click = |x: u32| {
        twins.type_raw(&format!("\x1b[<0;{x};20M\x1b[<0;{x};20m"));
        // Past the wait for a second click, so the next click is a first one.
        std::thread::sleep(Duration::from_millis(400));
    };
    let current = || {
        let args = [
            "display-message",
            "-p",
            "-t",
            "work",
            "#{window_index} #{@where}",
        ];
        let t = String::from_utf8(twins.tmux(&args).stdout).unwrap();
        (t, env.zp_ok(&args))
    };
    let expect = |what: &str, want: &str| {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let (t, z) = current();
            if (t.trim(), z.trim()) == (want, want) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: tmux {t:?}, zeropty {z:?}, want {want:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    click(column("1:second") + 2);
    expect("a click on a window's name", "1");
    twins.type_raw("\x1b[<64;10;20M");
    std::thread::sleep(Duration::from_millis(300));
    expect("the wheel up over the status line", "0");
    twins.type_raw("\x1b[<65;10;20M");
    std::thread::sleep(Duration::from_millis(300));
    expect("the wheel down over the status line", "1");
    click(2);
    expect("a click on the left part", "1 left");
    // tmux's ranges end a cell past their text, so the separator after a window's name is
    // that window's (the last name's range stops at the end of the list).
    click(column("1:second") - 1);
    expect("a click on the separator after the first window", "0 left");
    click(68);
    expect("a click on the right part", "0 right");
    click(column("2:third") + 8);
    expect("a click just past the list", "0 default");
    click(column("2:third"));
    expect("a click on the last window's name", "2 default");
    click(column("0:"));
    expect("a click on the first cell after the left part", "0 default");
}

/// Status lines drawn from the user's formats and styles as tmux draws them: `#[...]` styles
/// in the left and right parts and in the windows' formats, the window styles, a list too
/// long for the line cut around the current window with `<` and `>`, each `status-justify`,
/// a second line (tmux's default one), a `fill` colour, and a click on a window of a cut
/// list choosing the window its range names.
#[test]
fn styled_status_lines_match_tmux() {
    let env = Env::new("statusstyle");
    let twins = Twins::start(&env, "exec cat", 60, 16);
    let set = |option: &str, value: &str| twins.both(&["set-option", "-g", option, value]);
    let step = |what: &str, option: &str, value: &str| {
        twins.status_step(what, 1, || set(option, value));
    };
    twins.status_step("a themed status line", 1, || {
        set("status-style", "bg=colour235,fg=colour250");
        set(
            "status-left",
            "#[fg=colour232,bg=colour154,bold] #S #[fg=colour154,bg=colour238,nobold]>#[default] ",
        );
        set("status-left-length", "20");
        set(
            "status-right",
            "#[fg=yellow]#{session_windows}w #[reverse]R#[noreverse,fg=red] !",
        );
        set("window-status-format", "#[fg=colour244]#I #W");
        set("window-status-current-format", "#[bold]#I:#W#F");
        set("window-status-current-style", "fg=red,bg=blue,underscore");
        set("window-status-separator", "|");
    });
    for justify in ["centre", "right", "absolute-centre", "left"] {
        step(justify, "status-justify", justify);
    }
    twins.status_step("a list cut at its right end", 1, || {
        for i in 1..10 {
            let name = format!("window{i}");
            twins.both(&["new-window", "-d", "-t", "work", "-n", &name, "exec cat"]);
        }
    });
    let select = |what: &str, target: &str| {
        twins.status_step(what, 1, || twins.both(&["select-window", "-t", target]));
    };
    select("a list cut at both ends", "work:5");
    select("a list cut at its left end", "work:9");
    step(
        "the last window in its style",
        "window-status-last-style",
        "bg=green",
    );
    twins.status_step("two lines, the second tmux's", 2, || set("status", "2"));
    twins.status_step("a filled second line", 2, || {
        set(
            "status-format[1]",
            "#[fill=blue align=right]#{session_name}#[align=centre]mid",
        );
    });
    step("one line again", "status", "on");
    // What keys and programs change shows without a command having run: the prefix key's
    // table, a title the program sets.
    set(
        "status-right",
        "#{?client_prefix,PREFIX,plain} #{pane_title}",
    );
    twins.status_step("the prefix key pressed", 1, || twins.keys(&["C-b"]));
    twins.status_step("a key the prefix table does not bind", 1, || {
        twins.keys(&["F11"])
    });
    twins.status_step("a title set by the program", 1, || {
        twins.both(&["send-keys", "-t", "work", "-l", "\x1b]2;TITLE\x07"]);
        twins.both(&["send-keys", "-t", "work", "Enter"]);
    });
    // A click on a window of the cut list chooses the window its range names.
    twins.both(&["set-option", "-g", "mouse", "on"]);
    select("window 5 current", "work:5");
    let status = last_line(&env.outer.screen("z", false)).to_string();
    let x = status.find("4 window4").expect("window 4 shows") as u32 + 3;
    twins.type_raw(&format!("\x1b[<0;{x};16M\x1b[<0;{x};16m"));
    let args = ["display-message", "-p", "-t", "work", "#{window_index}"];
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let t = String::from_utf8(twins.tmux(&args).stdout).unwrap();
        let z = env.zp_ok(&args);
        if t.trim() == "4" && z.trim() == "4" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the click: tmux {t:?}, zeropty {z:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `status-position top` as tmux draws it: the status line above the pane, the pane and its
/// cursor a row down, a message and copy mode over them, a click on a window's name at the
/// top choosing it, and a drag in the pane selecting the rows under it.
#[test]
fn a_status_line_at_the_top_matches_tmux() {
    let env = Env::new("statustop");
    let twins = Twins::start(&env, "seq 1 40; exec cat", 60, 16);
    twins.both(&["set-option", "-g", "status-right", "right"]);
    twins.both(&["new-window", "-d", "-t", "work", "-n", "other", "exec cat"]);
    let whole = |what: &str| {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let (t, z) = (env.outer.screen("t", true), env.outer.screen("z", true));
            let (tc, zc) = twins.cursors();
            if seen_cells(&t) == seen_cells(&z) && tc == zc {
                return z;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: zeropty's screen\n{z}\ntmux's\n{t}\ncursors {zc} {tc}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    twins.both(&["set-option", "-g", "status-position", "top"]);
    twins.wait_both("the status line at the top", |s| {
        top_row(s).contains("[work]")
    });
    whole("the status line at the top");
    twins.both(&["display-message", "-d", "0", "a message"]);
    twins.wait_both("the message", |s| top_row(s).contains("a message"));
    whole("a message at the top");
    twins.keys(&["x"]);
    twins.wait_both("the message gone", |s| top_row(s).contains("[work]"));
    twins.type_one_by_one(&["C-b", "["]);
    twins.wait_both("copy mode", |s| {
        s.lines().nth(1).is_some_and(|l| l.contains("[0/"))
    });
    twins.type_one_by_one(&["Up", "Up", "C-Space", "Up"]);
    whole("a selection in copy mode");
    twins.type_one_by_one(&["q"]);
    twins.both(&["set-option", "-g", "mouse", "on"]);
    whole("copy mode left");
    let z = env.outer.screen("z", false);
    let x = top_row(&z)
        .find("1:other")
        .expect("the second window's name") as u32
        + 2;
    twins.type_raw(&format!("\x1b[<0;{x};1M\x1b[<0;{x};1m"));
    twins.wait_both("the second window chosen", |s| {
        top_row(s).contains("1:other*")
    });
    whole("the second window chosen by a click at the top");
    twins.both(&["select-window", "-t", "work:0"]);
    std::thread::sleep(Duration::from_millis(400));
    twins.type_raw("\x1b[<0;3;9M\x1b[<32;8;11M");
    twins.wait_both("a drag's copy mode", |s| {
        s.lines().nth(1).is_some_and(|l| l.contains("[0/"))
    });
    whole("a drag in the pane below the status line");
}

/// A drag held on the pane's top row goes on scrolling copy mode up, a line every 50 ms, as
/// tmux's does, until it is released: the copy holds the lines scrolled past.
#[test]
fn a_drag_held_at_the_top_keeps_scrolling_as_in_tmux() {
    let env = Env::new("dragscroll");
    let twins = Twins::start(&env, "seq 1 500; exec cat", 70, 20);
    twins.both(&["set-option", "-g", "mouse", "on"]);
    twins.wait_both("the program wrote", |s| s.contains("500"));
    twins.type_raw("\x1b[<0;3;12M\x1b[<32;3;8M");
    twins.view_position("the drag started copy mode", "[0/");
    twins.type_raw("\x1b[<32;3;1M");
    std::thread::sleep(Duration::from_millis(1500));
    twins.type_raw("\x1b[<0;3;1m");
    let (t, z) = twins.newest_buffers("");
    let (tn, zn) = (t.lines().count(), z.lines().count());
    // Held for 1.5 s: about 30 lines scrolled past, where one report alone scrolls one.
    assert!(tn > 20, "tmux copied {tn} lines");
    assert!(zn > 20, "zeropty copied {zn} lines (tmux {tn})");
    assert!(
        t.ends_with(&z) || z.ends_with(&t),
        "both copies end where the drag began"
    );
}

/// Clock mode as tmux's: `C-b t` draws the time in blocks in the middle of the pane in
/// `clock-mode-colour` (or as text when the pane is too small, or with AM and PM in the
/// 12-hour style), `#{pane_mode}` says so, a resize draws it again, and a key no table binds
/// ends it without reaching the program.
#[test]
fn clock_mode_draws_the_time_as_tmux_does() {
    let env = Env::new("clock");
    let twins = Twins::start(&env, "exec cat", 70, 20);
    twins.type_one_by_one(&["C-b", "t"]);
    twins.same("the clock");
    twins.pane_mode_is("work", "clock-mode");
    twins.resize_terminals(40, 12);
    twins.same("the clock redrawn smaller");
    twins.resize_terminals(20, 8);
    twins.same("the time as text in a small pane");
    twins.both(&["set-option", "-g", "clock-mode-style", "12"]);
    twins.both(&["set-option", "-g", "clock-mode-colour", "colour160"]);
    twins.resize_terminals(70, 20);
    twins.same("the 12-hour clock in another colour");
    twins.type_one_by_one(&["x"]);
    twins.same("a key ended clock mode");
    twins.pane_mode_is("work", "");
    let pane = env.zp_ok(&["capture-pane", "-p", "-t", "work"]);
    assert!(!pane.contains('x'), "the key went nowhere: {pane:?}");
}

/// Double and triple clicks as tmux 3.3a counts and binds them: presses of one button within
/// 300 ms are a second click (`SecondClick1Pane`), then a third (`TripleClick1Pane`); a second
/// that no third follows is a double click once the wait ends (`DoubleClick1Pane`). The
/// default bindings copy the word or the line clicked; a program that asked for the mouse
/// gets every press and release, and nothing more for the double click.
#[test]
fn double_and_triple_clicks_copy_words_and_lines_as_in_tmux() {
    let env = Env::new("clicks");
    let program = "printf 'alpha beta-gamma delta\\nsecond line here\\n'; exec cat";
    let twins = Twins::start(&env, program, 70, 20);
    twins.both(&["set-option", "-g", "mouse", "on"]);
    twins.wait_both("the program wrote", |s| s.contains("second line here"));
    let click = |x: u32, y: u32, times: usize| {
        twins.type_raw(&format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m").repeat(times));
    };
    let out_of_copy_mode = |what: &str| {
        twins.wait_both(what, |s| !top_row(s).contains('/'));
    };
    click(9, 1, 2);
    let (t, z) = twins.newest_buffers("");
    assert_eq!(z, t, "the double click's copy");
    assert!(t.contains("beta"), "{t:?}");
    out_of_copy_mode("the double click copied and left copy mode");
    // After a triple click nothing more is copied when the double click's wait ends.
    click(3, 2, 3);
    twins.newest_buffers(&t);
    out_of_copy_mode("the triple click copied and left copy mode");
    std::thread::sleep(Duration::from_millis(700));
    let (t, z) = twins.newest_buffers("");
    assert_eq!(z, t, "the triple click's copy");
    assert_eq!(t, "second line here", "{t:?}");
    twins.same("after the clicks");
    // The second click has a name of its own.
    twins.both(&[
        "bind-key",
        "-n",
        "SecondClick1Pane",
        "set-option",
        "-g",
        "@second",
        "yes",
    ]);
    click(3, 1, 2);
    out_of_copy_mode("the double click's copy after a second click");
    let second = ["show-options", "-gv", "@second"];
    env.wait_zp(&second, "yes\n");
    assert_eq!(
        String::from_utf8(twins.tmux(&second).stdout).unwrap(),
        "yes\n"
    );
    // A program that asked for the mouse gets the presses and releases alone.
    twins.both(&["unbind-key", "-n", "SecondClick1Pane"]);
    let reader = "stty raw -echo; printf '\\033[?1000h\\033[?1006h'; exec cat -v";
    twins.both(&["respawn-pane", "-k", "-t", "work", reader]);
    std::thread::sleep(Duration::from_millis(500));
    click(5, 3, 2);
    std::thread::sleep(Duration::from_millis(700));
    click(6, 3, 3);
    // Rows joined: the reports wrap at the pane's width.
    let joined = |s: &str| s.lines().collect::<String>();
    let (t, _) = twins.wait_both("the program saw the clicks", |s| {
        joined(s).matches("^[[<0;6;3m").count() == 3
    });
    twins.same("the program's view of the clicks");
    assert_eq!(joined(&t).matches("^[[<0;5;3M").count(), 2, "{t}");
    assert_eq!(joined(&t).matches("^[[<0;6;3M").count(), 3, "{t}");
}

/// Copy mode's paragraphs, mark and refresh as tmux's: `}` and `{` move by blank lines, `X`
/// sets the mark (its row drawn in copy-mode-mark-style, its cell with the colours swapped),
/// `M-x` swaps cursor and mark, and `r` takes a new copy with what the program wrote since.
#[test]
fn copy_mode_paragraphs_mark_and_refresh_as_tmux_does() {
    let env = Env::new("copymark");
    let program = "printf 'one\\ntwo\\n\\nthree\\nfour\\n\\n\\nfive\\n'; seq 1 20; sleep 4; echo more output; exec cat";
    let twins = Twins::start(&env, program, 70, 20);
    twins.open_copy_mode("vi");
    twins.type_one_by_one(&["g", "}"]);
    twins.same("vi: to the end of the first paragraph");
    twins.type_one_by_one(&["}", "l", "X"]);
    twins.same("vi: the mark set");
    twins.type_one_by_one(&["G", "{"]);
    twins.same("vi: back a paragraph from the bottom");
    twins.type_one_by_one(&["M-x"]);
    twins.same("vi: jumped to the mark");
    // The program writes on underneath; copy mode shows its copy until refreshed.
    let pane = ["capture-pane", "-p", "-t", "work"];
    env.wait_zp_until(&pane, "zeropty's pane written to", |s| {
        s.contains("more output")
    });
    common::zp::wait_for(
        || String::from_utf8(twins.tmux(&pane).stdout).unwrap(),
        |s| s.contains("more output"),
    );
    twins.same("the program's new output not shown");
    // tmux 3.3a's refreshed copy counts one history line fewer than its pane holds (the
    // position and the rows differ by that line); zeropty's copy is the pane's. Both show
    // the new output.
    twins.type_one_by_one(&["r", "G"]);
    twins.wait_both("refreshed", |s| s.contains("more output"));
}

/// choose-tree side by side with tmux: the sessions listed (`C-b s`), a session's windows
/// previewed side by side and a window's pane, expanding, moving, tagging, the preview turned
/// off and on, the sort orders, choosing with Enter (both clients switch), the windows listed
/// (`C-b w`), killing one after tmux's question, `H`, a search and a filter asked on the
/// status line, a format and a filter given on the command line, and leaving.
#[test]
fn choose_tree_lists_previews_and_chooses_as_tmux_does() {
    let env = Env::new("tree");
    let twins = Twins::start(&env, "exec cat", 80, 30);
    let two = "printf 'hello\\n\\033[31mworld\\033[m\\n'; exec cat";
    twins.both(&["new-window", "-d", "-t", "work", "-n", "two", two]);
    for (session, window) in [("other", "one"), ("third", "three")] {
        twins.cat_session(session, window);
    }
    std::thread::sleep(Duration::from_millis(300));
    twins.type_one_by_one(&["C-b", "s"]);
    twins.same("the sessions, the current one's windows previewed");
    twins.pane_mode_is("work", "tree-mode");
    twins.type_one_by_one(&["Down", "Right"]);
    twins.same("a session expanded");
    twins.type_one_by_one(&["Down"]);
    twins.same("a window previewed");
    twins.type_one_by_one(&["t"]);
    twins.same("a window tagged, the next line current");
    twins.type_one_by_one(&["v"]);
    twins.same("no preview");
    twins.type_one_by_one(&["v", "O"]);
    twins.same("sorted by name");
    twins.type_one_by_one(&["r"]);
    twins.same("sorted by name, reversed");
    twins.type_one_by_one(&["Enter"]);
    let (t, z) = twins.wait_both("switched to the chosen session", |s| {
        last_line(s).starts_with("[third]")
    });
    assert_eq!(status_masked(&t), status_masked(&z));
    twins.same("the chosen session shown");
    twins.type_one_by_one(&["C-b", "w"]);
    twins.same("the windows, the current one's pane previewed");
    twins.type_one_by_one(&["g", "Down", "Down"]);
    twins.same("another window");
    twins.type_one_by_one(&["x"]);
    let (t, z) = twins.wait_both("asked to kill", |s| last_line(s).starts_with("Kill"));
    assert_eq!(last_line(&t), last_line(&z));
    twins.type_one_by_one(&["y"]);
    twins.same("the window killed, the tree built again");
    assert_eq!(twins.windows().0, twins.windows().1);
    twins.type_one_by_one(&["g", "H"]);
    twins.same("back at the current window");
    twins.type_one_by_one(&["Escape"]);
    twins.same("tree mode left");
    twins.pane_mode_is("third", "");
    twins.type_one_by_one(&["C-b", "s", "/", "t", "h", "Enter"]);
    twins.same("a search found a window in a collapsed session");
    twins.type_one_by_one(&["n", "f"]);
    twins.keys(&["-l", "#{==:#{window_name},one}"]);
    twins.type_one_by_one(&["Enter"]);
    twins.same("the search again, then a filter from the prompt");
    twins.type_one_by_one(&["q"]);
    let format = "#{?window_format,#{window_name},#{session_name}}";
    let choose = ["choose-tree", "-t", "third", "-F", format, "-f"];
    twins.both(&[&choose[..], &["#{==:#{window_name},one}"]].concat());
    twins.same("a format and a filter");
    twins.type_one_by_one(&["q"]);
    twins.both(&[&choose[..], &["#{==:#{window_name},none}", "-N"]].concat());
    twins.same("a filter that matches nothing, no preview");
    twins.type_one_by_one(&["1"]);
    let (t, z) = twins.wait_both("chosen by its key", |s| last_line(s).starts_with("[work]"));
    assert_eq!(status_masked(&t), status_masked(&z));
}

/// choose-tree with more than fits, side by side with tmux: a list longer than its part of
/// the pane, moved through with wraps and pages (lines past the tenth keyed `M-a`...), a
/// session whose windows do not all fit its preview (`<`, `>` and their arrows), a pane too
/// small for a preview, the tree drawn again at a new size, and the mouse (a click on an
/// arrow, on a line). Only positions tmux's own rebuilds (on a status line redraw) keep are
/// compared.
#[test]
fn choose_tree_scrolls_and_narrows_as_tmux_does() {
    let env = Env::new("treescroll");
    let twins = Twins::start(&env, "exec cat", 80, 30);
    for i in 1..6 {
        let (name, program) = (format!("w{i}"), format!("seq {i} 40; exec cat"));
        twins.both(&["new-window", "-d", "-t", "work", "-n", &name, &program]);
    }
    twins.both(&["select-window", "-t", "work:3"]);
    for i in 10..35 {
        twins.cat_session(&format!("s{i}"), "x");
    }
    std::thread::sleep(Duration::from_millis(300));
    twins.type_one_by_one(&["C-b", "s"]);
    twins.same("six windows previewed, some hidden");
    twins.type_one_by_one(&["C-b", "n"]);
    twins.same("the next window, without the tree (it belongs to the other pane)");
    twins.type_one_by_one(&["C-b", "p"]);
    twins.same("the tree again over its pane");
    twins.type_one_by_one(&["<"]);
    twins.same("the preview scrolled left");
    twins.type_one_by_one(&[">", ">", ">"]);
    twins.same("the preview scrolled right as far as it goes");
    twins.type_one_by_one(&["Up"]);
    twins.same("up from the first line: the last page");
    twins.type_one_by_one(&["g", "C-f"]);
    twins.same("a page down");
    twins.type_one_by_one(&["G"]);
    twins.same("the last line");
    twins.type_one_by_one(&["g", "Down"]);
    twins.same("the first page again");
    twins.resize_terminals(50, 12);
    twins.same("no room for a preview");
    twins.resize_terminals(80, 30);
    twins.same("the preview back at the larger size");
    twins.both(&["set-option", "-g", "mouse", "on"]);
    twins.type_one_by_one(&["g"]);
    twins.type_raw("\x1b[<0;2;21M\x1b[<0;2;21m");
    twins.same("a click on the preview's left arrow");
    twins.type_raw("\x1b[<0;5;4M\x1b[<0;5;4m");
    twins.same("a click on a line");
    twins.type_one_by_one(&["M-c"]);
    twins.wait_both("chosen by M-c", |s| last_line(s).starts_with("[s21]"));
}
