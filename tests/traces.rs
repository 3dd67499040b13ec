//! Reference test: real agent recordings replayed into a screen must capture exactly as tmux
//! 3.3a captured them (`capture-pane -p` and `-p -e` at marked moments, and the whole history at
//! the end).
mod common;

use common::{first_difference, load_cast, replay, shared_dir};
use zeropty::term::capture::printable;
use zeropty::term::{CaptureOptions, LineSpec, Terminal, DEFAULT_HISTORY_LIMIT};

fn check_trace(name: &str) {
    let dir = shared_dir().join("traces");
    let cast = load_cast(&dir.join(format!("{name}.cast")));
    let screens = dir.join("screens").join(name);
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(screens.join("index.json")).unwrap())
            .unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for s in index["screens"].as_array().unwrap() {
        let label = s["name"].as_str().unwrap();
        let offset = s["byte_offset"].as_u64().unwrap() as usize;
        // The whole-history screen was captured with `-S -` from a pane with history-limit 5000.
        let whole_history = s["note"].as_str().is_some_and(|n| n.contains("-S -"));
        let limit = if whole_history {
            5000
        } else {
            DEFAULT_HISTORY_LIMIT
        };
        let mut term = Terminal::new(cast.width, cast.height, limit);
        replay(&mut term, &cast, offset);
        for (file, escapes) in [("txt", false), ("ansi", true)] {
            let Some(f) = s[file].as_str() else { continue };
            let want = std::fs::read(screens.join(f)).unwrap();
            let opts = CaptureOptions {
                escapes,
                start: whole_history.then_some(LineSpec::Edge),
                ..Default::default()
            };
            let got = printable(term.capture(&opts));
            checked += 1;
            if got != want {
                failures.push(format!("{label}.{file}: {}", first_difference(&got, &want)));
            }
        }
    }
    assert!(checked > 10, "{name}: only {checked} screens found");
    assert!(
        failures.is_empty(),
        "{name}: {} of {checked} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn claude_code_trace_matches_tmux_screens() {
    check_trace("claude-a");
}

#[test]
fn gemini_cli_trace_matches_tmux_screens() {
    check_trace("gemini-a");
}
