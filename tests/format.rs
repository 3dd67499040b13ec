//! Reference test for format expansion: templates with what tmux 3.3a printed for them
//! (`tests/fixtures/format.json`, made by `scripts/gen-format-fixtures.py`). Each template is
//! expanded against the variables recorded from the same tmux server (the display-level
//! values, and every session, window and pane for the loops and for `list-sessions`), in the
//! recorded time zone and at the second the command ran; the output must match exactly.

use serde_json::Value;
use std::collections::BTreeMap;
use zeropty::engine::format::{self, Item, Scope, Values, Zone};

type Vars = BTreeMap<String, String>;

struct Pane {
    vars: Vars,
    current: bool,
}

struct Window {
    vars: Vars,
    current: bool,
    panes: Vec<Pane>,
}

struct Session {
    vars: Vars,
    windows: Vec<Window>,
}

struct Fixture {
    zone: Zone,
    target: usize,
    vars: Vars,
    sessions: Vec<Session>,
    cases: Vec<Case>,
}

struct Case {
    cmd: String,
    template: String,
    now: i64,
    output: String,
}

fn vars(v: &Value) -> Vars {
    v.as_object()
        .expect("vars object")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("string value").to_string()))
        .collect()
}

fn load() -> Fixture {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/format.json");
    let text = std::fs::read_to_string(path).expect("tests/fixtures/format.json");
    let data: Value = serde_json::from_str(&text).expect("valid JSON");
    let zone = Zone {
        offset: data["zone"]["offset"].as_i64().expect("zone offset") as i32,
        name: data["zone"]["name"]
            .as_str()
            .expect("zone name")
            .to_string(),
    };
    let sessions = data["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .map(|s| Session {
            vars: vars(&s["vars"]),
            windows: s["windows"]
                .as_array()
                .expect("windows")
                .iter()
                .map(|w| Window {
                    vars: vars(&w["vars"]),
                    current: w["current"].as_bool().expect("current"),
                    panes: w["panes"]
                        .as_array()
                        .expect("panes")
                        .iter()
                        .map(|p| Pane {
                            vars: vars(&p["vars"]),
                            current: p["current"].as_bool().expect("current"),
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    let cases = data["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            cmd: c["cmd"].as_str().expect("cmd").to_string(),
            template: c["template"].as_str().expect("template").to_string(),
            now: c["now"].as_i64().expect("now"),
            output: c["output"].as_str().expect("output").to_string(),
        })
        .collect();
    Fixture {
        zone,
        target: data["target_session"].as_u64().expect("target_session") as usize,
        vars: vars(&data["vars"]),
        sessions,
        cases,
    }
}

/// Where a format tree sits, as tmux's `format_defaults` builds it.
#[derive(Clone, Copy)]
enum Level {
    /// `display-message -t fmt:`.
    Display,
    /// A session, which also has its current window and that window's active pane.
    Session(usize),
    Window(usize, usize),
    Pane(usize, usize, usize),
}

struct Fake<'a> {
    fixture: &'a Fixture,
    level: Level,
}

impl Fake<'_> {
    fn current_window(&self, s: usize) -> usize {
        let windows = &self.fixture.sessions[s].windows;
        windows
            .iter()
            .position(|w| w.current)
            .expect("a current window")
    }

    fn item(&self, level: Level, current: bool) -> Item<'_> {
        Item {
            values: Box::new(Fake {
                fixture: self.fixture,
                level,
            }),
            current,
        }
    }

    /// The session and window of this tree.
    fn session_window(&self) -> (usize, usize) {
        match self.level {
            Level::Display => {
                let s = self.fixture.target;
                (s, self.current_window(s))
            }
            Level::Session(s) => (s, self.current_window(s)),
            Level::Window(s, w) | Level::Pane(s, w, _) => (s, w),
        }
    }
}

impl Values for Fake<'_> {
    fn get(&self, name: &str) -> Option<String> {
        let f = self.fixture;
        let vars = match self.level {
            Level::Display => &f.vars,
            Level::Session(s) => &f.sessions[s].vars,
            Level::Window(s, w) => &f.sessions[s].windows[w].vars,
            Level::Pane(s, w, p) => &f.sessions[s].windows[w].panes[p].vars,
        };
        vars.get(name).cloned()
    }

    fn zone(&self, _t: i64) -> Zone {
        self.fixture.zone.clone()
    }

    fn each(&self, scope: Scope) -> Option<Vec<Item<'_>>> {
        let f = self.fixture;
        let (s, w) = self.session_window();
        match scope {
            Scope::Sessions => Some(
                (0..f.sessions.len())
                    .map(|i| self.item(Level::Session(i), false))
                    .collect(),
            ),
            Scope::Windows => Some(
                f.sessions[s]
                    .windows
                    .iter()
                    .enumerate()
                    .map(|(i, win)| self.item(Level::Window(s, i), win.current))
                    .collect(),
            ),
            Scope::Panes => Some(
                f.sessions[s].windows[w]
                    .panes
                    .iter()
                    .enumerate()
                    .map(|(i, p)| self.item(Level::Pane(s, w, i), p.current))
                    .collect(),
            ),
        }
    }

    fn name_exists(&self, scope: Scope, name: &str) -> Option<bool> {
        let f = self.fixture;
        let is = |v: &Vars, key: &str| v.get(key).is_some_and(|n| n == name);
        match scope {
            Scope::Sessions => Some(f.sessions.iter().any(|s| is(&s.vars, "session_name"))),
            _ => {
                let (s, _) = self.session_window();
                Some(
                    f.sessions[s]
                        .windows
                        .iter()
                        .any(|w| is(&w.vars, "window_name")),
                )
            }
        }
    }

    fn search(&self, _text: &str, _regex: bool, _ignore_case: bool) -> Option<u32> {
        // The recorded panes show nothing, so no search finds anything.
        Some(0)
    }
}

fn actual(f: &Fixture, case: &Case) -> String {
    let fake = |level| Fake { fixture: f, level };
    match case.cmd.as_str() {
        "display" => format::expand_time(&case.template, &fake(Level::Display), case.now),
        "ls" => (0..f.sessions.len())
            .map(|s| format::expand(&case.template, &fake(Level::Session(s)), case.now))
            .collect::<Vec<_>>()
            .join("\n"),
        "filter" => (0..f.sessions.len())
            .filter(|&s| {
                let v = format::expand(&case.template, &fake(Level::Session(s)), case.now);
                format::is_true(&v)
            })
            .map(|s| f.sessions[s].vars["session_name"].clone())
            .collect::<Vec<_>>()
            .join("\n"),
        other => panic!("unknown command {other}"),
    }
}

#[test]
fn formats_match_tmux() {
    let f = load();
    assert!(f.cases.len() > 400, "fixture too small");
    let mut failures = Vec::new();
    for case in &f.cases {
        let got = actual(&f, case);
        if got != case.output {
            failures.push(format!(
                "{} {:?}\n    tmux: {:?}\n    ours: {:?}",
                case.cmd, case.template, case.output, got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        f.cases.len(),
        failures.join("\n")
    );
}

#[test]
fn self_referencing_variables_stay_bounded() {
    // Each level doubles the work; tmux would spin for 2^100 steps. The budget stops it.
    let mut vars = BTreeMap::new();
    vars.insert("@a".to_string(), "#{E:@a}#{E:@a}".to_string());
    let started = std::time::Instant::now();
    let out = format::expand("#{E:@a}", &vars, 0);
    assert!(out.is_empty());
    assert!(started.elapsed().as_secs() < 10);

    vars.insert("@b".to_string(), "#{E:@b}x".to_string());
    assert_eq!(format::expand("#{E:@b}", &vars, 0), "x".repeat(99));
}

#[test]
fn huge_padding_is_bounded() {
    let vars: BTreeMap<String, String> = BTreeMap::new();
    // tmux tries to allocate 2 GiB here and dies; the budget cuts the expansion short.
    let out = format::expand("a#{p2147483647:x}b", &vars, 0);
    assert!(out.len() <= format::BUDGET as usize);
    let out = format::expand("#{p-2147483648:x}", &vars, 0);
    assert!(out.len() <= format::BUDGET as usize);
}

#[test]
fn hostile_regexes_are_bounded() {
    let mut vars = BTreeMap::new();
    vars.insert("@v".to_string(), "a".repeat(5000));
    let started = std::time::Instant::now();
    format::expand("#{s/(a*)*b/x/:@v}", &vars, 0);
    format::expand("#{m:*a*a*a*a*a*a*b,#{@v}}", &vars, 0);
    format::expand(&format!("#{{s/{}/x/:@v}}", "(".repeat(500)), &vars, 0);
    format::expand(&format!("#{{s/a{}/x/:@v}}", "*".repeat(100_000)), &vars, 0);
    let classes = "[[:alpha:]]".repeat(10_000);
    format::expand(&format!("#{{m:*{classes}*,#{{@v}}}}"), &vars, 0);
    format::expand_time(&"%8000d".repeat(1000), &vars, 0);
    format::expand(&format!("#{{s/a/{}/:@v}}", "y".repeat(100_000)), &vars, 0);
    assert!(started.elapsed().as_secs() < 20);
}

#[test]
fn is_true_is_format_true() {
    assert!(!format::is_true(""));
    assert!(!format::is_true("0"));
    assert!(format::is_true("00"));
    assert!(format::is_true(" "));
    assert!(format::is_true("1"));
}

#[test]
fn random_templates_do_not_panic() {
    // Templates built from the format language's own characters, from a fixed seed.
    let alphabet: Vec<char> = "#{}(),:;?=/|-<>!&^$*+.[]\\%019abdlmnpqstwCENSWPT@xé日 "
        .chars()
        .collect();
    let mut vars = BTreeMap::new();
    vars.insert("@x".to_string(), "#{@x}#[x]日é%d".to_string());
    vars.insert("x".to_string(), "1700000000".to_string());
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let started = std::time::Instant::now();
    for _ in 0..20_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = (seed % 48) as usize;
        let template: String = (0..len)
            .map(|k| alphabet[((seed >> (k % 56)) as usize ^ (k * 7)) % alphabet.len()])
            .collect();
        format::expand(&template, &vars, 1_700_000_000);
        format::expand_time(&template, &vars, 1_700_000_000);
    }
    assert!(started.elapsed().as_secs() < 60);
}
