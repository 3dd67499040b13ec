//! Reference tests: the same command scripts run against tmux 3.3a and zeropty, each with a
//! private server; standard output, standard error and exit status must match step by step.
//! Screens are compared once the programs have settled.
mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

struct Mux {
    bin: PathBuf,
    label: String,
    tmpdir: PathBuf,
}

#[derive(Debug, PartialEq, Eq)]
struct Step {
    code: Option<i32>,
    out: String,
    err: String,
}

impl Mux {
    fn new(bin: PathBuf, label: String, side: &str) -> Mux {
        let tmpdir = std::env::temp_dir().join(format!("zpref-{side}{label}"));
        let _ = std::fs::remove_dir_all(&tmpdir);
        std::fs::create_dir_all(&tmpdir).unwrap();
        Mux { bin, label, tmpdir }
    }

    fn run(&self, args: &[&str]) -> Step {
        let o = Command::new(&self.bin)
            .arg("-L")
            .arg(&self.label)
            .arg("-f/dev/null")
            // Arguments may stand for raw bytes (see protocol::bytes_to_arg): pass the bytes.
            .args(args.iter().map(|a| {
                use std::os::unix::ffi::OsStringExt;
                std::ffi::OsString::from_vec(zeropty::protocol::arg_to_bytes(a))
            }))
            .env("TMUX_TMPDIR", &self.tmpdir)
            .env("ZEROPTY_TMPDIR", &self.tmpdir)
            .env_remove("TMUX")
            .env_remove("ZEROPTY_PANE")
            .env("SHELL", "/bin/sh")
            .current_dir(&self.tmpdir)
            .output()
            .unwrap();
        let norm = |b: &[u8]| {
            String::from_utf8_lossy(b)
                .replace(&format!("zpref-t{}", self.label), "TMP")
                .replace(&format!("zpref-z{}", self.label), "TMP")
                .replace(&format!("tmux-{}", uid()), "DIR")
                .replace(&format!("zeropty-{}", uid()), "DIR")
        };
        Step {
            code: o.status.code(),
            out: norm(&o.stdout),
            err: norm(&o.stderr),
        }
    }
}

impl Drop for Mux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        let _ = std::fs::remove_dir_all(&self.tmpdir);
    }
}

fn uid() -> u32 {
    // SAFETY: getuid cannot fail.
    unsafe { libc::getuid() }
}

fn tmux() -> PathBuf {
    let out = Command::new("sh")
        .args(["-c", "command -v tmux"])
        .output()
        .unwrap();
    let path = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert!(
        !path.is_empty(),
        "tmux must be installed for the reference tests"
    );
    PathBuf::from(path)
}

/// Runs `script` against both; `None` steps are pauses (programs settle).
fn compare(name: &str, script: &[Option<&[&str]>]) {
    let pid = std::process::id();
    let label = format!("{name}{pid}");
    let t = Mux::new(tmux(), label.clone(), "t");
    let z = Mux::new(PathBuf::from(env!("CARGO_BIN_EXE_zeropty")), label, "z");
    let mut diffs = Vec::new();
    for (i, step) in script.iter().enumerate() {
        match step {
            None => std::thread::sleep(Duration::from_millis(400)),
            Some(args) => {
                let (a, b) = (t.run(args), z.run(args));
                if a != b {
                    diffs.push(format!(
                        "step {i} {args:?}:\n  tmux:    {a:?}\n  zeropty: {b:?}"
                    ));
                }
            }
        }
    }
    assert!(
        diffs.is_empty(),
        "{name}: differs from tmux:\n{}",
        diffs.join("\n")
    );
}

#[test]
fn errors_and_exit_codes() {
    compare(
        "err",
        &[
            Some(&["has-session", "-t", "nope"]),
            Some(&["new-session", "-d", "-s", "work", "cat"]),
            Some(&["new-session", "-d", "-s", "workshop", "cat"]),
            Some(&["has-session", "-t", "nope"]),
            Some(&["has-session", "-t", "wor"]),
            Some(&["has-session", "-t", "=work"]),
            Some(&["has-session", "-t", "w*p"]),
            Some(&["kill-session", "-t", "nope"]),
            Some(&["new-session", "-d", "-s", "work"]),
            Some(&["rename-session", "-t", "work", "workshop"]),
            Some(&["frobnicate"]),
            Some(&["new-session", "-z"]),
            Some(&["has-session", "a", "b"]),
            Some(&["rename-session"]),
            Some(&["send-keys", "-t", "work:5", "x"]),
            Some(&["send-keys", "-t", "work:0.3", "x"]),
            Some(&["send-keys", "-t", "%99", "x"]),
            Some(&["capture-pane", "-p", "-t", "nope:"]),
            Some(&["display-message", "-p", "-t", "$99", "x"]),
            Some(&["new-session", "-d", "-x", "0"]),
            Some(&["new-session", "-d", "-y", "abc"]),
            Some(&["kill-server"]),
            None,
            Some(&["has-session"]),
            Some(&["list-sessions"]),
        ],
    );
}

#[test]
fn formats_and_lists() {
    compare(
        "fmt",
        &[
            Some(&["new-session", "-d", "-s", "alpha", "-x", "120", "-y", "40", "cat"]),
            Some(&["new-session", "-d", "-s", "beta", "-n", "editor", "cat"]),
            Some(&["new-session", "-d", "-P", "-F", "#{session_name}+#{window_index}", "cat"]),
            None,
            Some(&["list-sessions", "-F", "#{session_name} #{session_windows} #{window_width}x#{window_height} #{session_attached}"]),
            Some(&["list-sessions", "-F", "#{session_name}", "-f", "#{==:#{session_name},beta}"]),
            Some(&["display-message", "-p", "-t", "alpha", "#{session_name}:#{window_index}.#{pane_index} #{pane_current_command} #{pane_width}x#{pane_height}"]),
            Some(&["display-message", "-p", "-t", "beta:", "#{window_name} #{?window_active,active,idle} #{=3:session_name} #{!=:a,b}"]),
            Some(&["display-message", "-p", "-t", "alpha", "#{cursor_x},#{cursor_y} #{history_size}/#{history_limit} #{alternate_on} #{pane_dead} #{pane_in_mode} [#{pane_start_command}] [#{no_such_variable}]"]),
            Some(&["display-message", "-p", "-t", "alpha", "#{cursor_flag}#{insert_flag}#{keypad_cursor_flag}#{keypad_flag}#{wrap_flag}#{origin_flag}#{mouse_any_flag}"]),
            Some(&["rename-session", "-t", "alpha", "gamma"]),
            Some(&["list-sessions", "-F", "#{session_name}"]),
            Some(&["kill-session", "-t", "beta"]),
            Some(&["list-sessions", "-F", "#{session_name}"]),
        ],
    );
}

#[test]
fn screens_of_programs_match() {
    compare(
        "scr",
        &[
            Some(&["new-session", "-d", "-s", "p", "-x", "60", "-y", "12",
                "printf 'plain\\n\\033[1;31mbold red\\033[0m and \\033[4munder\\033[0m\\n\\033[38;5;120mcol\\033[48;2;1;2;3mrgb\\033[m\\nwide 中文 é\\n'; sleep 100"]),
            Some(&["new-session", "-d", "-s", "q", "-x", "30", "-y", "5",
                "seq 1 40; sleep 100"]),
            None,
            Some(&["capture-pane", "-p", "-t", "p"]),
            Some(&["capture-pane", "-p", "-e", "-t", "p"]),
            Some(&["capture-pane", "-p", "-t", "q"]),
            Some(&["capture-pane", "-p", "-S", "-", "-t", "q"]),
            Some(&["capture-pane", "-p", "-S", "-10", "-E", "2", "-t", "q"]),
            Some(&["display-message", "-p", "-t", "q", "#{history_size} #{cursor_x},#{cursor_y}"]),
            Some(&["clear-history", "-t", "q"]),
            Some(&["display-message", "-p", "-t", "q", "#{history_size}"]),
        ],
    );
}

#[test]
fn keys_through_a_cooked_terminal() {
    compare(
        "keys",
        &[
            Some(&[
                "new-session",
                "-d",
                "-s",
                "k",
                "-x",
                "60",
                "-y",
                "10",
                "cat",
            ]),
            None,
            Some(&["send-keys", "-t", "k", "hello world", "Enter"]),
            Some(&["send-keys", "-t", "k", "-l", "abc def"]),
            Some(&[
                "send-keys",
                "-t",
                "k",
                "BSpace",
                "BSpace",
                "C-w",
                "xyz",
                "Enter",
            ]),
            Some(&["send-keys", "-t", "k", "one", "C-u", "two", "Enter"]),
            None,
            Some(&["capture-pane", "-p", "-t", "k"]),
            Some(&["send-keys", "-t", "k", "C-c"]),
            None,
            Some(&["has-session", "-t", "k"]),
        ],
    );
}

/// An interactive bash, as people and agents drive one.
///
/// Not under `env -i`: a program started with an emptied environment loses the preloaded
/// terminal library, and with it its terminal (a documented limit of the socket backend).
const BASH: &str = "PS1='$ ' bash --norc --noprofile -i";

#[test]
fn line_discipline_in_an_interactive_shell() {
    compare(
        "ldsh",
        &[
            Some(&["new-session", "-d", "-s", "b", "-x", "70", "-y", "20", BASH]),
            None,
            // C-d ends cat's input; bash carries on.
            Some(&["send-keys", "-t", "b", "cat", "Enter"]),
            None,
            Some(&["send-keys", "-t", "b", "typed to cat", "Enter", "C-d"]),
            None,
            Some(&["send-keys", "-t", "b", "echo after-cat", "Enter"]),
            None,
            // Two lines typed ahead: python reads one, the shell gets the other.
            Some(&[
                "send-keys",
                "-t",
                "b",
                "python3 -c 'print(repr(input()))'",
                "Enter",
            ]),
            None,
            None,
            Some(&[
                "send-keys",
                "-t",
                "b",
                "first line",
                "Enter",
                "echo second-went-to-bash",
                "Enter",
            ]),
            None,
            None,
            // C-w over UTF-8 words, C-u, C-v.
            Some(&[
                "send-keys",
                "-t",
                "b",
                "echo héllo wörld",
                "C-w",
                "C-w",
                "kept",
                "Enter",
            ]),
            Some(&[
                "send-keys",
                "-t",
                "b",
                "echo gone",
                "C-u",
                "echo x",
                "C-v",
                "C-a",
                "y",
                "Enter",
            ]),
            None,
            Some(&["capture-pane", "-p", "-t", "b"]),
        ],
    );
}

#[test]
fn job_control_in_an_interactive_shell() {
    compare(
        "jobs",
        &[
            Some(&["new-session", "-d", "-s", "j", "-x", "70", "-y", "20", BASH]),
            None,
            Some(&["send-keys", "-t", "j", "sleep 100", "Enter"]),
            None,
            Some(&["send-keys", "-t", "j", "C-z"]),
            None,
            Some(&["send-keys", "-t", "j", "fg", "Enter"]),
            None,
            Some(&["send-keys", "-t", "j", "C-c"]),
            None,
            Some(&["send-keys", "-t", "j", "echo status=$?", "Enter"]),
            None,
            Some(&["capture-pane", "-p", "-t", "j"]),
        ],
    );
}

#[test]
fn every_byte_reaches_a_raw_program() {
    // Bytes 0x01-0xff as one literal argument, to a program that reads them raw.
    let all: Vec<u8> = (1..=255).collect();
    let arg = zeropty::protocol::bytes_to_arg(&all);
    let script: Vec<Option<&[&str]>> = vec![
        Some(&[
            "new-session",
            "-d",
            "-s",
            "r",
            "-x",
            "60",
            "-y",
            "24",
            "stty raw -echo; dd bs=1 count=255 2>/dev/null | od -An -v -tx1 -w16; sleep 100",
        ]),
        None,
        None,
    ];
    let send = ["send-keys", "-t", "r", "-l", arg.as_str()];
    let capture: &[&str] = &["capture-pane", "-p", "-t", "r"];
    let mut steps = script;
    steps.push(Some(&send));
    steps.push(None);
    steps.push(None);
    steps.push(Some(capture));
    compare("bytes", &steps);
}
