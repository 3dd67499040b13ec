//! The bash and zsh completions: the files in the tree are what the tables generate, and the
//! real shells, driven as a user's TAB drives them, complete commands, flags and the running
//! server's sessions, buffers, windows and panes.

mod common;

use common::zp::Zp;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use zeropty::engine::commands;

fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn checked_in_completions_are_generated_from_the_tables() {
    for (path, generated) in [
        (
            "completions/zeropty.bash",
            zeropty::docs::completion::bash_completion(),
        ),
        (
            "completions/_zeropty",
            zeropty::docs::completion::zsh_completion(),
        ),
    ] {
        let in_tree = std::fs::read_to_string(repo_file(path)).unwrap_or_default();
        assert!(
            in_tree == generated,
            "{path} is not what the tables generate: run `cargo run --example gen_docs`"
        );
    }
}

/// A private server with sessions `alpha` and `beta`, a window `work` and a buffer `clip`.
fn server(name: &str) -> Zp {
    let zp = Zp::new(name).with_shell("/bin/sh");
    zp.ok(&["new-session", "-d", "-s", "alpha"]);
    zp.ok(&["new-session", "-d", "-s", "beta"]);
    zp.ok(&["new-window", "-d", "-t", "alpha", "-n", "work"]);
    zp.ok(&["set-buffer", "-b", "clip", "hello"]);
    zp
}

fn binary_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_zeropty"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn path_with_binary() -> String {
    format!(
        "{}:{}",
        binary_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn single_quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// COMP_WORDS as bash makes them from a line: split at blanks, and at `:` (COMP_WORDBREAKS).
fn bash_comp_words(line: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for word in line.split_whitespace() {
        let mut piece = String::new();
        for c in word.chars() {
            if c == ':' {
                if !piece.is_empty() {
                    words.push(std::mem::take(&mut piece));
                }
                words.push(":".into());
            } else {
                piece.push(c);
            }
        }
        if !piece.is_empty() {
            words.push(piece);
        }
    }
    if line.ends_with(' ') {
        words.push(String::new());
    }
    words
}

/// Runs a bash that sources the completion and returns what `script` prints.
fn run_bash(zp: &Zp, script: &str) -> String {
    let source = repo_file("completions/zeropty.bash");
    let full = format!(
        "source {}\n{script}",
        single_quoted(&source.to_string_lossy())
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &full])
        .env("PATH", path_with_binary())
        .env("ZEROPTY_TMPDIR", &zp.dir)
        .env_remove("ZEROPTY_PANE")
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "bash failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// What bash's completion function offers for each line, the cursor at its end.
fn bash_complete(zp: &Zp, lines: &[&str]) -> Vec<Vec<String>> {
    let mut script = String::new();
    for line in lines {
        let words: Vec<String> = bash_comp_words(line)
            .iter()
            .map(|w| single_quoted(w))
            .collect();
        script.push_str(&format!(
            "COMP_WORDS=({}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); COMP_LINE={}; COMP_POINT=${{#COMP_LINE}}\n\
             _zeropty; printf '%s\\n' \"${{COMPREPLY[@]}}\" '<<end>>'\n",
            words.join(" "),
            single_quoted(line)
        ));
    }
    let out = run_bash(zp, &script);
    let mut replies: Vec<Vec<String>> = out
        .split("<<end>>\n")
        .map(|reply| reply.lines().map(str::to_string).collect())
        .collect();
    replies.pop();
    assert_eq!(replies.len(), lines.len(), "{out}");
    replies
}

fn set(words: &[String]) -> BTreeSet<&str> {
    words.iter().map(String::as_str).collect()
}

fn flags_of(def: &commands::CommandDef) -> BTreeSet<String> {
    def.flags
        .chars()
        .filter(|&c| c != ':')
        .map(|c| format!("-{c}"))
        .collect()
}

#[test]
fn bash_registers_the_function() {
    let zp = Zp::new("completion-bash-register");
    assert_eq!(
        run_bash(&zp, "complete -p zeropty").trim(),
        "complete -F _zeropty zeropty"
    );
}

#[test]
fn bash_completes_commands_and_flags() {
    let zp = Zp::new("completion-bash-commands");
    let all = commands::all();
    let mut lines = vec![
        "zeropty kill-s",
        "zeropty ",
        "zeropty new -d \\; kill-ses",
        "zeropty capture-p -",
    ];
    let flag_lines: Vec<String> = all
        .iter()
        .map(|c| format!("zeropty {} -", c.name))
        .collect();
    lines.extend(flag_lines.iter().map(String::as_str));
    let replies = bash_complete(&zp, &lines);

    assert_eq!(replies[0], ["kill-server", "kill-session"]);
    let offered = set(&replies[1]);
    for def in all {
        assert!(offered.contains(def.name), "{} not offered", def.name);
        if let Some(alias) = def.alias {
            assert!(offered.contains(alias), "alias {alias} not offered");
        }
    }
    assert!(offered.contains("serve") && offered.contains("help"));
    assert_eq!(replies[2], ["kill-session"], "after a chained command");
    // A unique prefix names its command, as the server reads it.
    let capture = commands::find("capture-pane").unwrap();
    assert_eq!(
        set(&replies[3]),
        flags_of(capture).iter().map(String::as_str).collect()
    );
    for (def, reply) in all.iter().zip(&replies[4..]) {
        let offered: BTreeSet<String> = reply.iter().cloned().collect();
        assert_eq!(offered, flags_of(def), "flags of {}", def.name);
    }
}

#[test]
fn bash_completes_from_the_running_server() {
    let zp = server("completion-bash-server");
    let other = Zp::new("completion-bash-other");
    other.ok(&["-L", "other", "new-session", "-d", "-s", "gamma"]);
    std::fs::write(zp.socket_dir().join("not-a-socket"), "").unwrap();
    let replies = bash_complete(
        &zp,
        &[
            "zeropty has-session -t al",
            "zeropty kill-session -t ",
            "zeropty paste-buffer -b ",
            "zeropty set-option -g hist",
            "zeropty set-window-option -g mode-",
            "zeropty select-window -t alpha:",
            "zeropty select-pane -t %",
            "zeropty -L ",
        ],
    );
    assert_eq!(replies[0], ["alpha"]);
    assert_eq!(set(&replies[1]), BTreeSet::from(["alpha", "beta"]));
    assert_eq!(replies[2], ["clip"]);
    assert!(replies[3].contains(&"history-limit".to_string()));
    assert_eq!(
        set(&replies[4]),
        BTreeSet::from(["mode-keys", "mode-style"])
    );
    // bash replaces only what follows the colon.
    assert!(replies[5].contains(&"1".to_string()), "{:?}", replies[5]);
    assert!(replies[5].contains(&"work".to_string()), "{:?}", replies[5]);
    assert_eq!(replies[6].len(), 3, "three panes: {:?}", replies[6]);
    assert_eq!(replies[7], ["default"], "only sockets are socket names");

    // -L chooses the server asked; `other` has its own ZEROPTY_TMPDIR.
    let reply = run_bash(
        &other,
        "COMP_WORDS=(zeropty -L other has-session -t ''); COMP_CWORD=5\n\
         COMP_LINE='zeropty -L other has-session -t '; COMP_POINT=${#COMP_LINE}\n\
         _zeropty; printf '%s\\n' \"${COMPREPLY[@]}\"",
    );
    other.cmd(&["-L", "other", "kill-server"]);
    assert_eq!(reply.trim(), "gamma");

    // A name with a space is offered quoted, as the command line needs it.
    zp.ok(&["new-session", "-d", "-s", "my work"]);
    let replies = bash_complete(&zp, &["zeropty has-session -t my"]);
    assert_eq!(replies[0], ["my\\ work"]);
}

/// Drives zsh's completion system in a pseudo-terminal: an interactive `zsh -f` loads the
/// function from `fpath` with compinit, the line is typed and TAB pressed; every match the
/// completion adds is printed (compadd is wrapped to show them) until completion ends.
const ZSH_DRIVER: &str = r#"
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
zpty -w z "source ${(q)INIT}"
local line
repeat 50; do
  zpty -r z line
  [[ $line == *READY* ]] && break
done
[[ $line == *READY* ]] || exit 4
zpty -w -n z "$TYPED"$'\t'
while zpty -r z line; do
  [[ $line == *'<<end>>'* ]] && break
  [[ $line == *'<<match>>'* ]] && print -r -- ${${line#*<<match>>}%%[[:space:]]#}
done
zpty -d z
"#;

const ZSH_INIT: &str = r#"
PROMPT=''
fpath=(${(q)COMPLETIONS} $fpath)
autoload -Uz compinit && compinit -u -D
bindkey '^I' complete-word
compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
    builtin compadd "$@"
    return
  fi
  local -a __matches
  builtin compadd -O __matches "$@"
  print -rl -- "<<match>>"${^__matches}
  builtin compadd "$@"
}
__zeropty_test_done() { print -r -- '<<end>>' }
comppostfuncs=(__zeropty_test_done)
print READY
"#;

fn zsh_complete(zp: &Zp, typed: &str) -> BTreeSet<String> {
    let have_zsh = Command::new("zsh").arg("-fc").arg("true").status();
    assert!(
        have_zsh.is_ok_and(|s| s.success()),
        "zsh is needed for this test: install it (apt-get install -y zsh)"
    );
    let init = zp.dir.join("init.zsh");
    let completions = repo_file("completions");
    std::fs::write(
        &init,
        ZSH_INIT.replace(
            "${(q)COMPLETIONS}",
            &single_quoted(&completions.to_string_lossy()),
        ),
    )
    .unwrap();
    let out = Command::new("timeout")
        .args(["30", "zsh", "-f", "-c", ZSH_DRIVER])
        .env("PATH", path_with_binary())
        .env("ZEROPTY_TMPDIR", &zp.dir)
        .env("INIT", &init)
        .env("TYPED", typed)
        .env_remove("ZEROPTY_PANE")
        .output()
        .expect("zsh runs");
    assert!(
        out.status.success(),
        "zsh driver failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|line| !line.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn zsh_completes_commands_flags_and_sessions() {
    let zp = server("completion-zsh");
    let has = |typed: &str, want: &[&str]| {
        let got = zsh_complete(&zp, typed);
        for w in want {
            assert!(got.contains(*w), "{typed:?}: {w} not in {got:?}");
        }
        got
    };

    let got = has("zeropty kill-ses", &["kill-session"]);
    assert!(!got.contains("kill-server"), "{got:?}");
    has(
        "zeropty ",
        &["attach-session", "new-session", "serve", "help"],
    );
    let split = commands::find("split-window").unwrap();
    let flags: Vec<String> = flags_of(split).into_iter().collect();
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    has("zeropty split-window -", &flags);
    let got = has("zeropty has-session -t ", &["alpha", "beta"]);
    assert_eq!(got.len(), 2, "{got:?}");
    has("zeropty paste-buffer -b ", &["clip"]);
    has("zeropty set-option -g hist", &["history-limit"]);
    has("zeropty new -d \\; kill-ses", &["kill-session"]);
    // A unique prefix names its command, as the server reads it.
    has("zeropty has-s -t ", &["alpha", "beta"]);
}
