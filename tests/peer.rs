//! Other projects' test suites, run through their runners in `../shared/peer/run/` against the
//! built `zeropty`: tmux's own regression scripts (every one in the baseline list), and
//! the screen corpora compared with tmux 3.3a's screens, colours and attributes included.
mod common;

use std::process::Command;
use std::sync::Mutex;

/// The runners time their captures (they wait a fixed half second for a pane to settle), so
/// they run one at a time rather than loading the machine together.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn runner(name: &str) -> std::path::PathBuf {
    common::shared_dir().join("peer/run").join(name)
}

/// Runs a runner and checks its closing `N passed, N failed` line says nothing failed.
fn check(mut cmd: Command, what: &str) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or("");
    assert!(
        out.status.success() && last.ends_with(" 0 failed"),
        "{what}:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let passed: u32 = last
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed > 0, "{what}: nothing ran\n{text}");
}

/// The regress scripts: sessions, formats, capture-pane, the parser, the environment, windows
/// and resize-window (with reflow), and key names through new-window's pane.
const REGRESS: &[&str] = &[
    "has-session-return.sh",
    "kill-session-process-exit.sh",
    "new-session-size.sh",
    "new-session-command.sh",
    "new-session-no-client.sh",
    "new-session-environment.sh",
    "input-edit.sh",
    "input-sgr.sh",
    "input-cursor.sh",
    "input-scroll.sh",
    "input-unicode.sh",
    "input-osc.sh",
    "input-malformed.sh",
    "input-modes.sh",
    "environ.sh",
    "cursor-test1.sh",
    "cursor-test2.sh",
    "cursor-test3.sh",
    "cursor-test4.sh",
    "input-keys.sh",
];

#[test]
fn tmux_regression_scripts_pass() {
    let mut cmd = Command::new("sh");
    cmd.arg(runner("tmux-regress.sh"))
        .arg(env!("CARGO_BIN_EXE_zeropty"))
        .args(REGRESS);
    check(cmd, "tmux regress");
}

fn corpus(kind: &str, dir: &str) {
    let tmux = Command::new("sh")
        .args(["-c", "command -v tmux"])
        .output()
        .unwrap();
    let tmux = String::from_utf8_lossy(&tmux.stdout).trim().to_string();
    let mut cmd = Command::new("sh");
    cmd.arg(runner("screen-corpus.sh"))
        .arg(kind)
        .arg(common::shared_dir().join("peer").join(dir))
        .arg(env!("CARGO_BIN_EXE_zeropty"))
        .arg(tmux)
        .env("CAPTURE", "-pe");
    check(cmd, &format!("{kind} corpus against tmux"));
}

#[test]
fn pyte_corpus_matches_tmux_with_attributes() {
    corpus("pyte", "pyte-captured/captured");
}

#[test]
fn vt100_parser_corpus_matches_tmux_with_attributes() {
    corpus("vtparser", "vt100-parser/test");
}

#[test]
fn vt100_crate_corpus_matches_tmux_with_attributes() {
    corpus("vt100", "vt100-rust/data/fixtures");
}
