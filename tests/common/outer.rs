//! An outer terminal for tests that need a real one: a private tmux 3.3a server (its own
//! socket directory and label), whose panes run what the test starts there; the test drives
//! them with tmux's `send-keys` and reads them with `capture-pane`. The server is killed
//! when the value is dropped.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub struct Outer {
    pub label: String,
    dir: PathBuf,
}

impl Outer {
    /// A tmux server named `label` with its socket directory in `dir` (created).
    pub fn new(label: String, dir: PathBuf) -> Outer {
        std::fs::create_dir_all(&dir).unwrap();
        Outer { label, dir }
    }

    /// Runs `tmux ARGS` against this server.
    pub fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.label)
            .arg("-f/dev/null")
            .args(args)
            .env("TMUX_TMPDIR", &self.dir)
            .env_remove("TMUX")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// What `target` shows (`-e`: with its colours and attributes).
    pub fn screen(&self, target: &str, escapes: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-t", target];
        if escapes {
            args.push("-e");
        }
        String::from_utf8_lossy(&self.tmux(&args).stdout).into_owned()
    }

    /// Waits until what `target` shows satisfies `f` (ten seconds at most).
    pub fn wait_screen(&self, target: &str, what: &str, f: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let s = self.screen(target, false);
            if f(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: the outer terminal never showed it:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Outer {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}
