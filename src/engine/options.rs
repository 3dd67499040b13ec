//! Options: the server-wide (`-g`) values the engine consults, with tmux 3.3a's defaults.
//!
//! Every option tmux has can be set and shown; zeropty acts on the ones listed in [`KNOWN`]
//! with a meaning and stores the rest so scripts that set them keep working. Session and
//! window scopes come with the windows issue; today every option is global.

use std::collections::BTreeMap;

/// Options zeropty acts on, with tmux 3.3a's default values.
pub const KNOWN: &[(&str, &str)] = &[
    ("base-index", "0"),
    ("default-command", ""),
    ("default-shell", "/bin/sh"),
    ("default-size", "80x24"),
    ("default-terminal", "screen"),
    ("escape-time", "500"),
    ("exit-empty", "on"),
    ("history-limit", "2000"),
    ("remain-on-exit", "off"),
];

#[derive(Clone, Debug, Default)]
pub struct Options {
    values: BTreeMap<String, String>,
}

impl Options {
    /// Defaults, with `default-shell` taken from the server's environment as tmux does.
    pub fn new(shell: Option<String>) -> Options {
        let mut o = Options::default();
        for (k, v) in KNOWN {
            o.values.insert(k.to_string(), v.to_string());
        }
        if let Some(s) = shell {
            o.values.insert("default-shell".into(), s);
        }
        o
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    pub fn string(&self, name: &str) -> String {
        self.get(name).unwrap_or("").to_string()
    }

    pub fn number(&self, name: &str) -> i64 {
        self.get(name).and_then(|v| v.parse().ok()).unwrap_or(0)
    }

    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some("on" | "1" | "yes"))
    }

    pub fn set(&mut self, name: &str, value: &str) {
        self.values.insert(name.to_string(), value.to_string());
    }

    pub fn unset(&mut self, name: &str) {
        match KNOWN.iter().find(|(k, _)| *k == name) {
            Some((_, v)) => {
                self.values.insert(name.to_string(), v.to_string());
            }
            None => {
                self.values.remove(name);
            }
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}
