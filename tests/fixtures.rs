//! Reference test: byte streams from real programs, third-party screen corpora and synthetic
//! escape sequences, each with the screen tmux 3.3a showed after reading it
//! (`tests/fixtures/*/CASE.json`, made by `scripts/gen-fixtures.py`). Every capture form and the
//! pane's mode flags must match tmux exactly.
mod common;

use std::path::Path;
use zeropty::term::capture::printable;
use zeropty::term::{mode, CaptureOptions, LineSpec, Terminal};

/// The host name the fixtures were recorded under (tmux titles a new pane with it).
const FIXTURE_HOST: &str = "zeropty";

fn formats(term: &Terminal) -> Vec<(&'static str, String)> {
    let m = term.mode();
    let flag = |bit: u32| if m & bit != 0 { "1" } else { "0" }.to_string();
    let (x, y) = term.cursor();
    vec![
        ("cursor_x", x.to_string()),
        ("cursor_y", y.to_string()),
        (
            "alternate_on",
            if term.alternate_on() { "1" } else { "0" }.into(),
        ),
        ("pane_title", term.title().to_string()),
        ("cursor_flag", flag(mode::CURSOR)),
        ("insert_flag", flag(mode::INSERT)),
        ("keypad_cursor_flag", flag(mode::KCURSOR)),
        ("keypad_flag", flag(mode::KKEYPAD)),
        ("wrap_flag", flag(mode::WRAP)),
        ("origin_flag", flag(mode::ORIGIN)),
        ("mouse_any_flag", flag(mode::ALL_MOUSE)),
        ("mouse_sgr_flag", flag(mode::MOUSE_SGR)),
        ("history_size", term.history_size().to_string()),
    ]
}

fn whole(escapes: bool, join: bool) -> CaptureOptions {
    CaptureOptions {
        start: Some(LineSpec::Edge),
        end: Some(LineSpec::Edge),
        escapes,
        join,
        ..Default::default()
    }
}

/// Checks one case; returns a description of each mismatch.
fn check_case(input: &Path) -> Vec<String> {
    let json = input.with_extension("json");
    let spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let num = |k: &str| spec[k].as_u64().unwrap() as u32;
    let mut term = Terminal::new(num("cols"), num("rows"), num("history"));
    term.set_title(FIXTURE_HOST);
    term.feed(&std::fs::read(input).unwrap());
    if let Some(r) = spec["resize"].as_array() {
        term.resize(r[0].as_u64().unwrap() as u32, r[1].as_u64().unwrap() as u32);
    }
    let mut errors = Vec::new();
    let captures = [
        ("p", whole(false, false)),
        ("pe", whole(true, false)),
        ("pJ", whole(false, true)),
        (
            "screen_pe",
            CaptureOptions {
                escapes: true,
                ..Default::default()
            },
        ),
    ];
    for (key, opts) in captures {
        let Some(want) = spec[key].as_str() else {
            continue;
        };
        let got = printable(term.capture(&opts));
        if got != want.as_bytes() {
            errors.push(format!(
                "{key}: {}",
                common::first_difference(&got, want.as_bytes())
            ));
        }
    }
    for (key, got) in formats(&term) {
        if let Some(want) = spec["formats"][key].as_str() {
            if got != want {
                errors.push(format!("{key}: got {got:?}, want {want:?}"));
            }
        }
    }
    errors
}

fn check_set(set: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(set);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no cases in {}", dir.display());
    let mut failures = Vec::new();
    for input in &inputs {
        let errors = check_case(input);
        if !errors.is_empty() {
            let name = input.file_stem().unwrap().to_string_lossy();
            failures.push(format!("{name}:\n    {}", errors.join("\n    ")));
        }
    }
    eprintln!("{set}: {} cases, {} differ", inputs.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{set}: {} of {} cases differ from tmux:\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n")
    );
}

#[test]
fn synthetic_sequences_match_tmux() {
    check_set("synthetic");
}

#[test]
fn recorded_programs_match_tmux() {
    check_set("programs");
}

#[test]
fn pyte_corpus_matches_tmux() {
    check_set("pyte");
}

#[test]
fn vt100_crate_corpus_matches_tmux() {
    check_set("vt100");
}

#[test]
fn vt100_parser_corpus_matches_tmux() {
    check_set("vtparser");
}
