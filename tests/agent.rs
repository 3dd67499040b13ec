//! A real agent in a session: Claude Code (installed by `.ci/run` through
//! `../shared/agents/setup_claude.sh`) runs against the local mock API inside zeropty (socket
//! backend, shim preloaded) and inside tmux 3.3a; both must reach the prompt, answer the prompt
//! typed with send-keys, and end on the same screen once times and random verbs are masked.
mod common;

use std::path::PathBuf;
use std::process::Command;

fn agents_dir() -> PathBuf {
    common::shared_dir().join("agents")
}

/// Runs the demo (mock API, client in a 220x80 session, first prompt of conversation "a")
/// under `mux` and returns the final screen.
fn demo(mux: &str) -> String {
    let out = Command::new("bash")
        .arg(agents_dir().join("demo.sh"))
        .env("MUX", mux)
        .env("DEMO_TIMEOUT", "150")
        .output()
        .expect("run demo.sh");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the agent did not finish under {mux}:\n{log}\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stdout).expect("screen is UTF-8")
}

/// Hides what differs between two runs of the same conversation: elapsed times and the random
/// verb of the end-of-turn line.
fn mask(screen: &str) -> String {
    screen
        .lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with('✻') || t.contains("Thought for") {
                "<timing line>".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn claude_code_answers_under_zeropty_as_under_tmux() {
    let bin = Command::new("bash")
        .arg(agents_dir().join("setup_claude.sh"))
        .arg("bin")
        .output()
        .expect("run setup_claude.sh bin");
    let client = String::from_utf8_lossy(&bin.stdout).trim().to_string();
    assert!(
        bin.status.success() && std::path::Path::new(&client).exists(),
        "Claude Code is not installed; run ../shared/agents/setup_claude.sh (.ci/run does)"
    );
    let zeropty = demo(env!("CARGO_BIN_EXE_zeropty"));
    assert!(
        zeropty.contains("All 7 tests pass"),
        "zeropty screen:\n{zeropty}"
    );
    assert!(
        zeropty.contains("There is no fsync"),
        "zeropty screen:\n{zeropty}"
    );
    let tmux = demo("tmux");
    let (z, t) = (mask(&zeropty), mask(&tmux));
    assert_eq!(
        z, t,
        "final screens differ\n--- zeropty ---\n{zeropty}\n--- tmux ---\n{tmux}"
    );
}
