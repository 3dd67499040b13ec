//! The shell helpers in real shells against a real server: bash with the loadable builtin
//! (`enable -f zeropty_bash.so zeropty`) and zsh with the function (`source zeropty.zsh`).
//! Each test runs in both shells and holds them to the program: the same arguments must print
//! the same bytes on stdout and stderr and end with the same status.

mod common;

use common::outer::Outer;
use common::zp::Zp;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const ZP: &str = env!("CARGO_BIN_EXE_zeropty");

#[derive(Clone, Copy, Debug)]
enum Shell {
    Bash,
    Zsh,
}

const SHELLS: [Shell; 2] = [Shell::Bash, Shell::Zsh];

/// The builtin build.rs made; an empty name means the bash headers were missing.
fn bash_builtin() -> &'static str {
    let so = env!("ZEROPTY_BASH_BUILTIN");
    assert!(
        !so.is_empty(),
        "the bash builtin was not built: install bash-builtins (apt-get install bash-builtins) and rebuild"
    );
    so
}

fn zsh_function() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("shell/zeropty.zsh")
}

fn bin_dir() -> PathBuf {
    Path::new(ZP).parent().unwrap().to_path_buf()
}

/// `s` quoted for either shell.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

impl Shell {
    /// Runs `script` in this shell with `zeropty` loaded, against `zp`'s servers.
    fn run(self, zp: &Zp, script: &str) -> Output {
        let mut cmd = match self {
            Shell::Bash => {
                let mut c = Command::new("bash");
                c.args(["--norc", "--noprofile", "-c"]).arg(format!(
                    "enable -f {} zeropty || exit 99\n{script}",
                    quote(bash_builtin())
                ));
                c
            }
            Shell::Zsh => {
                let mut c = Command::new("zsh");
                c.args(["-f", "-c"]).arg(format!(
                    "source {} || exit 99\n{script}",
                    quote(&zsh_function().to_string_lossy())
                ));
                c
            }
        };
        let path = format!(
            "{}:{}",
            bin_dir().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let out = cmd
            .env("PATH", path)
            .env("ZEROPTY_TMPDIR", &zp.dir)
            .env("SHELL", "/bin/sh")
            .env_remove("ZEROPTY")
            .env_remove("ZEROPTY_PANE")
            .env_remove("TMUX_TMPDIR")
            .current_dir(&zp.dir)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("running {self:?}: {e} (install bash and zsh)"));
        assert_ne!(
            out.status.code(),
            Some(99),
            "{self:?} could not load zeropty: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// Runs each argument list through `zeropty` in one shell; each result as the program
    /// gives it: (status, stdout, stderr).
    fn each(self, zp: &Zp, commands: &[&[&str]]) -> Vec<(Option<i32>, Vec<u8>, Vec<u8>)> {
        let dir = zp.dir.join(format!("each-{self:?}"));
        std::fs::create_dir_all(&dir).unwrap();
        let mut script = String::from("type zeropty | head -1 >&2\n");
        for (i, args) in commands.iter().enumerate() {
            let words: Vec<String> = args.iter().map(|a| quote(a)).collect();
            script.push_str(&format!(
                "zeropty {} >{d}/out.{i} 2>{d}/err.{i}; echo $? >{d}/rc.{i}\n",
                words.join(" "),
                d = dir.display()
            ));
        }
        let o = self.run(zp, &script);
        let kind = String::from_utf8_lossy(&o.stderr);
        assert!(
            kind.contains("builtin") || kind.contains("function"),
            "{self:?}: zeropty is not the helper: {kind}"
        );
        (0..commands.len())
            .map(|i| {
                let read = |f: &str| std::fs::read(dir.join(format!("{f}.{i}"))).unwrap();
                let rc = String::from_utf8(read("rc")).unwrap();
                (rc.trim().parse().ok(), read("out"), read("err"))
            })
            .collect()
    }
}

/// The program's (status, stdout, stderr) for `args`.
fn program(zp: &Zp, args: &[&str]) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let o = zp.cmd(args);
    (o.status.code(), o.stdout, o.stderr)
}

/// Runs `commands` through the helper and through the program, one at a time alternately
/// against the same server (so each sees the same state), and demands the same results.
fn agree(zp: &Zp, shell: Shell, commands: &[&[&str]]) {
    for args in commands {
        let helper = shell.each(zp, &[args]).remove(0);
        let prog = program(zp, args);
        assert_eq!(
            helper,
            prog,
            "{shell:?}: zeropty {args:?}\n  helper stderr: {}\n  program stderr: {}",
            String::from_utf8_lossy(&helper.2),
            String::from_utf8_lossy(&prog.2)
        );
    }
}

#[test]
fn every_command_class_prints_what_the_program_prints() {
    for shell in SHELLS {
        let zp = Zp::new(&format!("classes{shell:?}"));
        zp.ok(&[
            "new-session",
            "-d",
            "-s",
            "s",
            "-x",
            "80",
            "-y",
            "24",
            "cat",
        ]);
        zp.ok(&["new-window", "-d", "-t", "s", "-n", "second", "cat"]);
        zp.ok(&["set-buffer", "-b", "b1", "buffer text"]);
        agree(
            &zp,
            shell,
            &[
                &["has-session", "-t", "s"],
                &["has-session", "-t", "nope"],
                &["list-sessions"],
                &["ls", "-F", "#{session_name} #{session_windows}"],
                &[
                    "list-windows",
                    "-t",
                    "s",
                    "-F",
                    "#{window_index}:#{window_name}",
                ],
                &[
                    "list-panes",
                    "-t",
                    "s",
                    "-F",
                    "#{pane_index} #{pane_width}x#{pane_height}",
                ],
                &[
                    "display-message",
                    "-p",
                    "-t",
                    "s:second",
                    "#{window_name} #{pane_dead}",
                ],
                &["show-options", "-g", "history-limit"],
                &["show-options", "-g", "no-such-option"],
                &["set-option", "-g", "@mine", "it's \"quoted\" \\ too"],
                &["show-options", "-gv", "@mine"],
                &["show-buffer", "-b", "b1"],
                &["list-buffers", "-F", "#{buffer_name} #{buffer_size}"],
                &["show-environment", "-g", "ZEROPTY_TMPDIR"],
                &["list-commands", "send-keys"],
                &["send-keys", "-t", "nope", "x"],
                &["select-window", "-t", "s:9"],
                &["split-window", "-t", "s"],
                &["no-such-command"],
                &["kill-session", "-t", "nope"],
                &["run-shell", "echo ran; echo to-stderr >&2; exit 3"],
                &[
                    "if-shell",
                    "true",
                    "display-message -p yes",
                    "display-message -p no",
                ],
                &[
                    "has-session",
                    "-t",
                    "s",
                    ";",
                    "display-message",
                    "-p",
                    "chained",
                ],
                &["capture-pane", "-p", "-t", "s"],
                &["wait-for", "-S", "nobody-waits"],
            ],
        );
        // Commands that change things change them.
        let results = shell.each(
            &zp,
            &[
                &["new-session", "-d", "-s", "made", "cat"],
                &["rename-session", "-t", "made", "renamed"],
                &["set-buffer", "-b", "b2", "from the helper"],
                &["kill-window", "-t", "s:second"],
            ],
        );
        for (rc, _, err) in &results {
            assert_eq!(*rc, Some(0), "{shell:?}: {}", String::from_utf8_lossy(err));
        }
        assert_eq!(zp.ok(&["ls", "-F", "#{session_name}"]), "renamed\ns\n");
        assert_eq!(zp.ok(&["show-buffer", "-b", "b2"]), "from the helper");
        assert_eq!(
            zp.ok(&["list-windows", "-t", "s", "-F", "#{window_name}"]),
            "cat\n"
        );
    }
}

#[test]
fn every_byte_goes_through_send_keys_and_comes_back_through_capture_pane() {
    let payload: Vec<u8> = (1..=255).collect();
    for shell in SHELLS {
        let zp = Zp::new(&format!("bytes{shell:?}"));
        // A raw program that shows each byte it reads in hex.
        let dump = "stty raw -echo; echo raw; dd bs=1 count=255 2>/dev/null | od -An -v -tx1 -w16; sleep 100";
        for name in ["by-program", "by-helper"] {
            zp.ok(&[
                "new-session",
                "-d",
                "-s",
                name,
                "-x",
                "60",
                "-y",
                "24",
                dump,
            ]);
        }
        // Both programs must be in raw mode before the bytes come.
        for name in ["by-program", "by-helper"] {
            zp.wait_screen(name, |s| s.starts_with("raw"));
        }
        std::fs::write(zp.dir.join("payload"), &payload).unwrap();
        let arg = zeropty::protocol::bytes_to_arg(&payload);
        zp.ok(&["send-keys", "-t", "by-program", "-l", &arg]);
        let o = shell.run(
            &zp,
            "p=$(<payload)\nzeropty send-keys -t by-helper -l \"$p\"; echo \"rc=$?\"",
        );
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "rc=0\n",
            "{shell:?}: {o:?}"
        );
        let want = zp.wait_screen("by-program", |s| {
            s.lines().filter(|l| !l.is_empty()).count() >= 17
        });
        assert!(want.contains(" ff"), "the program's bytes arrived:\n{want}");
        zp.wait_screen("by-helper", |s| s == want);
        // And back: the capture, read through the helper, is byte for byte the program's.
        let o = shell.run(&zp, "zeropty capture-pane -p -t by-helper -e");
        assert_eq!(
            o.stdout,
            zp.cmd(&["capture-pane", "-p", "-t", "by-helper", "-e"])
                .stdout,
            "{shell:?}"
        );
        // Output that is not UTF-8 arrives as it is.
        zp.ok(&["load-buffer", "-b", "raw", "payload"]);
        let o = shell.run(
            &zp,
            "zeropty show-buffer -b raw > shown; cmp shown payload && echo same",
        );
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "same\n",
            "{shell:?}: {o:?}"
        );
    }
}

#[test]
fn errors_without_a_server_and_across_a_restart() {
    for shell in SHELLS {
        let zp = Zp::new(&format!("restart{shell:?}"));
        // No socket directory yet, then a directory with no server in it.
        agree(
            &zp,
            shell,
            &[&["list-sessions"], &["has-session", "-t", "x"]],
        );
        let script = r#"
zeropty new-session -d -s first cat; echo "new=$?"
zeropty has-session -t first; echo "has=$?"
zeropty kill-server; echo "kill=$?"
zeropty has-session -t first 2>&1; echo "after-kill=$?"
zeropty new-session -d -s second cat; echo "new-again=$?"
zeropty ls -F '#{session_name}'
kill -9 $(zeropty display-message -p '#{pid}')
sleep 0.2
zeropty ls 2>&1 | sed 's/ on .*//'; echo "killed=$?"
zeropty new-session -d -s third cat; echo "third=$?"
zeropty ls -F '#{session_name}'
zeropty kill-session -t third; echo "last-gone=$?"
sleep 0.2
zeropty ls 2>&1 | sed 's/ on .*//'
"#;
        let o = shell.run(&zp, script);
        let sock = zp.socket();
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            format!(
                "new=0\nhas=0\nkill=0\nno server running on {}\nafter-kill=1\nnew-again=0\nsecond\n\
                 no server running\nkilled=0\nthird=0\nthird\nlast-gone=0\nno server running\n",
                sock.display()
            ),
            "{shell:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn subshells_pipelines_substitutions_and_set_e() {
    for shell in SHELLS {
        let zp = Zp::new(&format!("forms{shell:?}"));
        zp.ok(&["new-session", "-d", "-s", "s", "cat"]);
        let script = r#"
set -e
name=$(zeropty display-message -p '#{session_name}')
echo "substitution=$name"
zeropty list-sessions -F '#{session_name}' | tr a-z A-Z
( zeropty has-session -t s && echo "subshell=ok" )
zeropty display-message -p 'redirected' > out.txt 2> err.txt
echo "file=$(cat out.txt)"
zeropty has-session -t nope 2>/dev/null || echo "failure-caught"
# A background job blocks in wait-for on its own connection while this shell signals it:
# were the connection shared, the signal would queue behind the wait for ever.
zeropty wait-for chan & job=$!
sleep 0.3
zeropty wait-for -S chan
wait $job && echo "waited"
zeropty has-session -t nope 2>/dev/null
echo "not reached"
"#;
        let o = shell.run(&zp, script);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "substitution=s\nS\nsubshell=ok\nfile=redirected\nfailure-caught\nwaited\n",
            "{shell:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            o.status.code(),
            Some(1),
            "{shell:?}: set -e stops at the failure"
        );
    }
}

#[test]
fn a_changed_socket_is_a_new_connection() {
    for shell in SHELLS {
        let zp = Zp::new(&format!("sockets{shell:?}"));
        let other = zp.dir.join("other-tmpdir");
        std::fs::create_dir_all(&other).unwrap();
        let script = format!(
            r#"
zeropty -L one new-session -d -s in-one cat
zeropty -L two new-session -d -s in-two cat
zeropty new-session -d -s in-default cat
zeropty -L one ls -F '#{{session_name}}'
zeropty -L two ls -F '#{{session_name}}'
zeropty ls -F '#{{session_name}}'
zeropty -S "$ZEROPTY_TMPDIR/zeropty-$(id -u)/one" ls -F 'S:#{{session_name}}'
export ZEROPTY_TMPDIR={other}
zeropty new-session -d -s elsewhere cat
zeropty ls -F '#{{session_name}}'
zeropty kill-server
"#,
            other = quote(&other.to_string_lossy())
        );
        let o = shell.run(&zp, &script);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "in-one\nin-two\nin-default\nS:in-one\nelsewhere\n",
            "{shell:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        for label in ["one", "two"] {
            zp.ok(&["-L", label, "kill-server"]);
        }
    }
}

#[test]
fn the_program_does_what_only_it_can() {
    for shell in SHELLS {
        let zp = Zp::new(&format!("fallback{shell:?}"));
        zp.ok(&["new-session", "-d", "-s", "s", "cat"]);
        // -V, help, an unknown flag, -c, and commands that attach without a terminal.
        agree(
            &zp,
            shell,
            &[
                &["-V"],
                &["help"],
                &["help", "send"],
                &["-Q"],
                &["-c", "echo from -c"],
                &["attach-session", "-t", "s"],
                &["new-session", "-s", "needs-a-terminal"],
            ],
        );
        // serve: a foreground server (its configuration makes a session, so it does not
        // exit empty), which the next commands use once it answers.
        let script = r#"
echo 'new-session -d -s fg cat' > fg.conf
zeropty -S "$PWD/fg.sock" -f "$PWD/fg.conf" serve & server=$!
until zeropty -S "$PWD/fg.sock" has-session -t fg 2>/dev/null; do sleep 0.05; done
zeropty -S "$PWD/fg.sock" ls -F '#{session_name}'
zeropty -S "$PWD/fg.sock" kill-server
wait $server; echo "serve=$?"
"#;
        let o = shell.run(&zp, script);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "fg\nserve=0\n",
            "{shell:?}: {o:?}"
        );
    }
}

#[test]
fn help_describes_the_builtin() {
    let zp = Zp::new("help");
    let o = Shell::Bash.run(&zp, "help zeropty");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("without starting a process") && text.contains("capture-pane"),
        "{text}"
    );
}

#[test]
fn attach_from_a_terminal_runs_the_program() {
    for shell in SHELLS {
        let zp = Zp::new(&format!("attach{shell:?}"));
        zp.ok(&["new-session", "-d", "-s", "work", "cat"]);
        let outer = Outer::new(
            format!("zpshell{shell:?}{}", std::process::id()),
            zp.dir.join("outer"),
        );
        let (program, load) = match shell {
            Shell::Bash => (
                "bash --norc --noprofile",
                format!("enable -f {} zeropty", quote(bash_builtin())),
            ),
            Shell::Zsh => (
                "zsh -f",
                format!("source {}", quote(&zsh_function().to_string_lossy())),
            ),
        };
        let start = format!(
            "PATH={}:$PATH ZEROPTY_TMPDIR={} PS1='ready> ' {program}",
            bin_dir().display(),
            zp.dir.display()
        );
        let o = outer.tmux(&[
            "new-session",
            "-d",
            "-s",
            "outer",
            "-x",
            "80",
            "-y",
            "24",
            &start,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        outer.wait_screen("outer", "a prompt", |s| s.contains("ready>"));
        let line = format!("{load}; clear; zeropty attach -t work");
        outer.tmux(&["send-keys", "-t", "outer", "-l", &line]);
        outer.tmux(&["send-keys", "-t", "outer", "Enter"]);
        // Attached, the terminal shows the session's status line.
        outer.wait_screen("outer", "attached", |s| {
            s.lines().last().is_some_and(|l| l.starts_with("[work]"))
        });
        outer.tmux(&["send-keys", "-t", "outer", "C-b", "d"]);
        outer.wait_screen("outer", "detached", |s| {
            s.contains("[detached (from session work)]")
        });
    }
}

#[test]
fn the_environment_reaches_the_server() {
    for shell in SHELLS {
        let zp = Zp::new(&format!("env{shell:?}"));
        // update-environment copies the client's FOO into a new session's environment.
        let script = r#"
export LANG=C.UTF-8 FOO='héllo "x" \ y'
zeropty new-session -d -s first cat
zeropty set-option -g update-environment FOO
zeropty new-session -d -s second cat
zeropty show-environment -t second FOO
export FOO=changed
zeropty new-session -d -s third cat
zeropty show-environment -t third FOO
"#;
        let o = shell.run(&zp, script);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "FOO=héllo \"x\" \\ y\nFOO=changed\n",
            "{shell:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn commands_reading_standard_input_are_left_to_the_program() {
    for shell in SHELLS {
        let zp = Zp::new(&format!("stdin{shell:?}"));
        zp.ok(&["new-session", "-d", "-s", "s", "cat"]);
        let script = r#"
printf 'piped\nin' | zeropty load-buffer -b piped -
zeropty show-buffer -b piped; echo
zeropty load-buffer -b fromfile - < /dev/null; echo "empty=$?"
printf 'x' | zeropty set-buffer -b plain notstdin \; show-buffer -b plain; echo
zeropty list-buffers -F '#{buffer_name}'
echo 'set -g @sourced yes' | zeropty source-file -
zeropty show-options -gv @sourced
"#;
        let o = shell.run(&zp, script);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "piped\nin\nempty=0\nnotstdin\nplain\npiped\nyes\n",
            "{shell:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
