//! Reference test for the line discipline: keys sent through tmux 3.3a to a program on a real
//! PTY, with what Linux's n_tty gave the program and echoed on the screen
//! (`tests/fixtures/ldisc/*.json`, made by `scripts/gen-ldisc-fixtures.py`).
//!
//! The recorder's prompt (no newlines) is fed to the screen and to
//! [`LineDiscipline::program_output`] first. Each case's writes go through [`LineDiscipline::input`] with the termios the recorder had;
//! what the program would read (one line per read in canonical mode; in non-canonical mode
//! read boundaries depend on timing, so only the bytes between signals are compared) and the
//! signals must match the recording, and the echo, fed into a [`Terminal`] of the pane's size,
//! must capture exactly as tmux's pane did.

use serde_json::Value;
use std::path::{Path, PathBuf};
use zeropty::engine::ldisc::{LdAction, LineDiscipline};
use zeropty::engine::tty::{flags, Termios};
use zeropty::term::capture::printable;
use zeropty::term::{CaptureOptions, Terminal};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Event {
    Read(Vec<u8>),
    Signal(i32),
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn termios(v: &Value) -> Termios {
    let word = |k: &str| v[k].as_u64().expect(k) as u32;
    let mut cc = [0u8; 32];
    cc.copy_from_slice(&hex(v["cc"].as_str().expect("cc")));
    Termios {
        iflag: word("iflag"),
        oflag: word("oflag"),
        cflag: word("cflag"),
        lflag: word("lflag"),
        cc,
    }
}

/// Joins adjacent reads (non-canonical reads return whatever has arrived).
fn join_reads(events: Vec<Event>) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::new();
    for e in events {
        match (out.last_mut(), e) {
            (Some(Event::Read(a)), Event::Read(b)) => a.extend(b),
            (_, e) => out.push(e),
        }
    }
    out
}

fn show(events: &[Event]) -> String {
    let parts: Vec<String> = events
        .iter()
        .map(|e| match e {
            Event::Read(b) if b.len() > 64 => format!(
                "read({} bytes: {:?}...{:?})",
                b.len(),
                String::from_utf8_lossy(&b[..24]),
                String::from_utf8_lossy(&b[b.len() - 24..])
            ),
            Event::Read(b) => format!("read({:?})", String::from_utf8_lossy(b)),
            Event::Signal(s) => format!("signal({s})"),
        })
        .collect();
    parts.join(", ")
}

/// Checks one case; returns a description of each mismatch.
fn check_case(path: &Path) -> Vec<String> {
    let spec: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let t = termios(&spec["termios"]);
    let num = |k: &str| spec[k].as_u64().expect(k) as u32;
    let mut term = Terminal::new(num("cols"), num("rows"), 2000);
    let mut ld = LineDiscipline::new();
    let prompt = hex(spec["prompt"].as_str().unwrap_or(""));
    term.feed(&prompt);
    ld.program_output(&t, &prompt);
    let mut got = Vec::new();
    for step in spec["steps"].as_array().expect("steps") {
        let mut out = Vec::new();
        ld.input(&t, &hex(step.as_str().expect("step")), &mut out);
        for action in out {
            match action {
                LdAction::Echo(bytes) => term.feed(&bytes),
                LdAction::ToProgram(bytes) => got.push(Event::Read(bytes)),
                LdAction::Eof => got.push(Event::Read(Vec::new())),
                LdAction::Signal(sig) => got.push(Event::Signal(sig)),
                LdAction::StopOutput | LdAction::StartOutput => {}
            }
        }
    }
    let mut want: Vec<Event> = spec["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| match e.get("signal") {
            Some(s) => Event::Signal(s.as_i64().expect("signal") as i32),
            None => Event::Read(hex(e["read"].as_str().expect("read"))),
        })
        .collect();
    if !t.has_l(flags::ICANON) {
        want = join_reads(want);
        got = join_reads(got);
    }
    let mut errors = Vec::new();
    if got != want {
        errors.push(format!(
            "program got [{}], want [{}]",
            show(&got),
            show(&want)
        ));
    }
    let screen = printable(term.capture(&CaptureOptions::default()));
    let want_screen = spec["screen"].as_str().expect("screen").as_bytes();
    if screen != want_screen {
        errors.push(format!(
            "screen:\n{}\nwant:\n{}",
            String::from_utf8_lossy(&screen).trim_end(),
            String::from_utf8_lossy(want_screen).trim_end()
        ));
    }
    errors
}

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ldisc");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
}

#[test]
fn line_discipline_matches_linux_through_tmux() {
    let paths = cases();
    assert!(paths.len() >= 40, "only {} ldisc fixtures", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        for e in check_case(path) {
            let name = path.file_stem().unwrap().to_string_lossy();
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
}

/// The cases the reference set must keep covering.
#[test]
fn fixture_set_covers_the_required_behaviour() {
    let names: Vec<String> = cases()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    for required in [
        "type-enter",
        "erase-ascii",
        "erase-utf8",
        "erase-control",
        "kill-line",
        "werase",
        "werase-utf8",
        "lnext-control",
        "sigint",
        "sigquit",
        "sigtstp",
        "eof-line-start",
        "eof-mid-line",
        "stop-start",
        "icrnl-off",
        "raw-all-bytes",
        "no-echo",
        "noncanon-echo",
        "two-lines-typed-ahead",
        "line-limit-overflow",
    ] {
        assert!(
            names.iter().any(|n| n == required),
            "missing case {required}"
        );
    }
}
