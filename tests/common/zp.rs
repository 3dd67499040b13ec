//! A private zeropty server namespace for integration tests: the real binary run with its own
//! `ZEROPTY_TMPDIR`, so tests never meet each other's servers; the server is killed and the
//! directory removed when the namespace is dropped.

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub struct Zp {
    pub dir: PathBuf,
    shell: Option<&'static str>,
    /// More environment for every command (and so for the server the first one starts).
    env: Vec<(&'static str, &'static str)>,
    /// The open-file limit (soft and hard) of every command, and so of the server.
    open_file_limit: Option<u64>,
}

impl Zp {
    /// A fresh namespace; `name` tells tests of one binary apart.
    pub fn new(name: &str) -> Zp {
        let dir = std::env::temp_dir().join(format!("zp-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Zp {
            dir,
            shell: None,
            env: Vec::new(),
            open_file_limit: None,
        }
    }

    /// Sessions of this namespace run `shell` rather than the caller's `$SHELL`.
    pub fn with_shell(mut self, shell: &'static str) -> Zp {
        self.shell = Some(shell);
        self
    }

    /// Commands of this namespace, and the server they start, have `key=value` in their
    /// environment.
    pub fn with_env(mut self, key: &'static str, value: &'static str) -> Zp {
        self.env.push((key, value));
        self
    }

    /// Commands of this namespace, and the server they start, may open `files` descriptors.
    pub fn with_open_file_limit(mut self, files: u64) -> Zp {
        self.open_file_limit = Some(files);
        self
    }

    /// The socket directory of this namespace (`ZEROPTY_TMPDIR/zeropty-UID`).
    pub fn socket_dir(&self) -> PathBuf {
        // SAFETY: getuid cannot fail.
        self.dir
            .join(format!("zeropty-{}", unsafe { libc::getuid() }))
    }

    /// The default server's socket.
    pub fn socket(&self) -> PathBuf {
        self.socket_dir().join("default")
    }

    /// Runs `zeropty ARGS` against this namespace's server.
    pub fn cmd(&self, args: &[&str]) -> Output {
        let mut command = Command::new(env!("CARGO_BIN_EXE_zeropty"));
        command
            .args(args)
            .env("ZEROPTY_TMPDIR", &self.dir)
            .env_remove("ZEROPTY_PANE")
            .current_dir(&self.dir);
        if let Some(shell) = self.shell {
            command.env("SHELL", shell);
        }
        command.envs(self.env.iter().copied());
        if let Some(files) = self.open_file_limit {
            let limit = libc::rlimit {
                rlim_cur: files,
                rlim_max: files,
            };
            // SAFETY: setrlimit is async-signal-safe and reads a struct copied into the closure.
            unsafe {
                command.pre_exec(move || {
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                        Ok(())
                    } else {
                        Err(std::io::Error::last_os_error())
                    }
                });
            }
        }
        command.output().unwrap()
    }

    /// Runs `zeropty ARGS`, which must succeed, and returns its standard output.
    pub fn ok(&self, args: &[&str]) -> String {
        let o = self.cmd(args);
        assert!(
            o.status.success(),
            "zeropty {args:?} failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    }

    /// `capture-pane -p` of `target`.
    pub fn screen(&self, target: &str) -> String {
        self.ok(&["capture-pane", "-p", "-t", target])
    }

    /// Waits until `capture-pane -p` of `target` satisfies `f`.
    pub fn wait_screen(&self, target: &str, f: impl Fn(&str) -> bool) -> String {
        wait_for(|| self.screen(target), f)
    }
}

impl Drop for Zp {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Polls `get` until `f` accepts what it returns (ten seconds at most).
pub fn wait_for(get: impl Fn() -> String, f: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let s = get();
        if f(&s) {
            return s;
        }
        assert!(Instant::now() < deadline, "never matched:\n{s}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
