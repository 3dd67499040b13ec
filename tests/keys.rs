//! `send-keys` against tmux 3.3a: every entry of `tests/fixtures/keys.json` (recorded from real
//! tmux by `scripts/gen-key-fixtures.py`) must come out byte for byte, plus checks of the key
//! API that the fixture cannot show.

use std::collections::BTreeMap;

use zeropty::engine::keys::{
    encode, hex_byte, parse_key, send_keys_arg, send_keys_arg_with, send_keys_hex, Key, KeyModes,
};
use zeropty::term::mode;

fn mode_word(name: &str) -> u32 {
    if name == "normal" {
        return 0;
    }
    name.split('+')
        .map(|part| match part {
            "cursor" => mode::KCURSOR,
            "keypad" => mode::KKEYPAD,
            "extended" => mode::KEXTENDED,
            other => panic!("unknown mode {other:?} in keys.json"),
        })
        .fold(0, |a, b| a | b)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn fixture_matches_tmux() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/keys.json");
    let text = std::fs::read_to_string(path).expect("tests/fixtures/keys.json");
    let entries: Vec<serde_json::Value> = serde_json::from_str(&text).expect("keys.json");
    assert!(
        entries.len() > 5000,
        "keys.json has {} entries",
        entries.len()
    );

    let mut failures = Vec::new();
    let mut per_mode: BTreeMap<String, usize> = BTreeMap::new();
    for e in &entries {
        let mode_name = e["mode"].as_str().expect("mode");
        let key = e["key"].as_str().expect("key");
        let want = e["bytes"].as_str().expect("bytes");
        let flag = e.get("flag").and_then(|f| f.as_str());
        let mut out = Vec::new();
        match flag {
            None => send_keys_arg(key, false, mode_word(mode_name), &mut out),
            Some("-l") => send_keys_arg(key, true, mode_word(mode_name), &mut out),
            Some("-H") => send_keys_hex(key, &mut out),
            Some(other) => panic!("unknown flag {other:?}"),
        }
        *per_mode.entry(mode_name.to_string()).or_default() += 1;
        if hex(&out) != want {
            failures.push(format!(
                "{mode_name} {} {key:?}: tmux {want}, got {}",
                flag.unwrap_or(""),
                hex(&out)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} entries differ from tmux:\n{}",
        failures.len(),
        entries.len(),
        failures[..failures.len().min(60)].join("\n")
    );
    assert_eq!(per_mode.len(), 6, "modes: {per_mode:?}");
}

fn send(arg: &str, modes: u32) -> Vec<u8> {
    let mut out = Vec::new();
    send_keys_arg(arg, false, modes, &mut out);
    out
}

#[test]
fn parse_names_and_modifiers() {
    assert_eq!(parse_key("Enter"), Some(Key::ENTER));
    assert_eq!(parse_key("eNTER"), Some(Key::ENTER));
    assert_eq!(parse_key("C-a"), Some(Key::from_raw(1)));
    assert_eq!(parse_key("c-A"), Some(Key::from_raw(1)));
    assert_eq!(parse_key("^a"), Some(Key::from_raw(1)));
    assert_eq!(parse_key("C-Space"), Some(Key::from_raw(0)));
    assert_eq!(parse_key("C-?"), Some(Key::from_raw(0x7f)));
    assert_eq!(parse_key("M-C-x"), Some(Key::from_raw(0x18 | Key::META)));
    assert_eq!(parse_key("Up"), Some(Key::UP));
    assert_eq!(parse_key("KP1"), Some(Key::KP_ONE));
    assert_eq!(parse_key("M-Up"), Some(Key::UP.with_modifiers(Key::META)));
    assert_eq!(parse_key("S-F1"), Some(Key::F1.with_modifiers(Key::SHIFT)));
    assert_eq!(parse_key("é"), Some(Key::from_char('é')));
    assert_eq!(parse_key("é").and_then(Key::char), Some('é'));
    assert_eq!(parse_key("0x1b"), Some(Key::ESCAPE));
    assert_eq!(parse_key("0x4e2d"), Some(Key::from_char('中')));
    assert_eq!(parse_key("User7"), Key::user(7));
    assert_eq!(parse_key("Any"), Some(Key::ANY));
    assert!(parse_key("MouseDown1Pane").is_some_and(Key::is_mouse));
    for none in [
        "None", "", "C-", "hello", "F13", "C-\"", "X-a", "\u{85}", "0x80", "0xzz", "C-Any",
    ] {
        assert_eq!(parse_key(none), None, "{none:?}");
    }
}

#[test]
fn encode_modes() {
    let normal = KeyModes::default();
    let app = KeyModes::from_mode(mode::KCURSOR | mode::KKEYPAD);
    let ext = KeyModes::from(mode::KEXTENDED);
    let enc = |k: &str, m: KeyModes| {
        let mut out = Vec::new();
        let ok = encode(parse_key(k).unwrap(), m, &mut out);
        (ok, out)
    };
    assert_eq!(enc("Up", normal), (true, b"\x1b[A".to_vec()));
    assert_eq!(enc("Up", app), (true, b"\x1bOA".to_vec()));
    assert_eq!(enc("C-Up", app), (true, b"\x1b[1;5A".to_vec()));
    assert_eq!(enc("KP5", normal), (true, b"5".to_vec()));
    assert_eq!(enc("KP5", app), (true, b"\x1bOu".to_vec()));
    assert_eq!(enc("M-KP5", app), (true, b"\x1b\x1bOu".to_vec()));
    assert_eq!(enc("BSpace", normal), (true, b"\x7f".to_vec()));
    assert_eq!(enc("S-a", normal), (false, Vec::new()));
    assert_eq!(enc("S-a", ext), (true, b"\x1b[97;2u".to_vec()));
    assert_eq!(enc("C-1", normal), (true, Vec::new()));
    assert_eq!(enc("C-1", ext), (true, b"\x1b[49;5u".to_vec()));
    assert_eq!(enc("MouseDown1Pane", normal), (false, Vec::new()));

    // The backspace option.
    let ctrl_h = KeyModes {
        backspace: parse_key("C-h").unwrap(),
        ..KeyModes::default()
    };
    let mut out = Vec::new();
    send_keys_arg_with("BSpace", false, ctrl_h, &mut out);
    send_keys_arg_with("M-BSpace", false, ctrl_h, &mut out);
    assert_eq!(out, b"\x08\x1b\x08");
}

#[test]
fn send_keys_text_fallback() {
    assert_eq!(send("hello", 0), b"hello");
    assert_eq!(send("S-a", 0), b"S-a");
    assert_eq!(send("C-é", 0), "é".as_bytes());
    assert_eq!(send("C-Enter", 0), b"");
    assert_eq!(send("C-Enter", mode::KEXTENDED), b"\x1b[13;5u");
    assert_eq!(send("Any", 0), b"Any");
    assert_eq!(send("User0", 0), b"");
    assert_eq!(send("a\0b", 0), b"a");
    let mut out = Vec::new();
    send_keys_arg("Enter", true, 0, &mut out);
    assert_eq!(out, b"Enter");
}

#[test]
fn hex_arguments() {
    assert_eq!(hex_byte("41"), Some(0x41));
    assert_eq!(hex_byte("0x41"), Some(0x41));
    assert_eq!(hex_byte(" +ff"), Some(0xff));
    assert_eq!(hex_byte("-0"), Some(0));
    assert_eq!(hex_byte("-1"), None);
    assert_eq!(hex_byte("100"), None);
    assert_eq!(hex_byte("41 "), None);
    assert_eq!(hex_byte(""), None);
    assert_eq!(hex_byte("0x"), None);
}
