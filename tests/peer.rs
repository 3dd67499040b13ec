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

/// This test's turn to run a runner.
fn turn() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs a runner and returns its output, one runner at a time.
fn run(cmd: Command, what: &str) -> std::process::Output {
    let _turn = turn();
    output(cmd, what)
}

/// Runs a runner and returns its output, within the caller's turn.
fn output(mut cmd: Command, what: &str) -> std::process::Output {
    cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Whether a runner exited 0 with a closing `N passed, 0 failed` line.
fn all_passed(out: &std::process::Output) -> bool {
    let text = String::from_utf8_lossy(&out.stdout);
    out.status.success() && text.lines().last().unwrap_or("").ends_with(" 0 failed")
}

/// Runs a runner and checks its closing `N passed, N failed` line says nothing failed.
fn check(cmd: Command, what: &str) {
    check_output(&run(cmd, what), what);
}

fn check_output(out: &std::process::Output, what: &str) {
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or("");
    assert!(
        all_passed(out),
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
    "input-keys.sh",
];

/// Regress scripts that read the screen right after `new -d` returns, before the session's
/// `sh -c "cat cursor-test.txt; ..."` may have written it (the baseline marks them RETRY3).
/// The runner retries only runs that print FAIL lines, and these fail through `cmp` alone, so
/// each gets up to three whole runs here: a real difference fails all three.
const RACY_REGRESS: &[&str] = &[
    "cursor-test1.sh",
    "cursor-test2.sh",
    "cursor-test3.sh",
    "cursor-test4.sh",
];

fn regress(scripts: &[&str]) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg(runner("tmux-regress.sh"))
        .arg(env!("CARGO_BIN_EXE_zeropty"))
        .args(scripts);
    cmd
}

/// The sockets of servers the regress scripts start (`-LtestA$$`, `-LtestB$$`), in the
/// socket directory they use (the scripts run under `env -i`, so the default one).
fn regress_sockets() -> Vec<std::path::PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let uid = std::fs::metadata("/proc/self").map_or(0, |m| m.uid());
    let dir = std::path::PathBuf::from(format!("/tmp/zeropty-{uid}"));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            name.starts_with("testA") || name.starts_with("testB")
        })
        .collect()
}

/// Runs regress scripts; a script that fails or times out before its last `kill-server`
/// leaves its server running, so servers started meanwhile are killed after, within the same
/// turn (another test's scripts start theirs once the turn is over).
fn regress_passes(scripts: &[&str], what: &str, must_pass: bool) -> bool {
    let turn = turn();
    let before = regress_sockets();
    let out = output(regress(scripts), what);
    for socket in regress_sockets().iter().filter(|s| !before.contains(s)) {
        let _ = Command::new(env!("CARGO_BIN_EXE_zeropty"))
            .arg("-S")
            .arg(socket)
            .arg("kill-server")
            .output();
        let _ = std::fs::remove_file(socket);
    }
    drop(turn);
    if must_pass {
        check_output(&out, what);
    }
    all_passed(&out)
}

#[test]
fn tmux_regression_scripts_pass() {
    regress_passes(REGRESS, "tmux regress", true);
}

#[test]
fn tmux_cursor_regression_scripts_pass_within_three_runs() {
    for script in RACY_REGRESS {
        let what = format!("tmux regress {script}");
        let passed = (0..2).any(|_| regress_passes(&[script], &what, false));
        if !passed {
            regress_passes(&[script], &what, true);
        }
    }
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
