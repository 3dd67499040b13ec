//! Random command lines against the engine on the fake host (see `tests.rs`): every command
//! of the table, with its own flags and random values (targets that exist and that do not,
//! hostile formats, numbers at and past every limit, bytes that are not text), chained with
//! `;`, between program output, exits, ticks and keys typed on an attached client (its
//! bindings run, its messages and frames drawn). Whatever a client sends, the engine must
//! answer: no panic, no command that takes seconds, an error said in words, and sessions that
//! still list.
//!
//! A short run with a fixed seed is part of `cargo test`; `ZEROPTY_FUZZ_SECONDS=N` runs N
//! seconds from a seed of the clock, `ZEROPTY_FUZZ_SEED=S` from a given one. The fake host's
//! clock moves only when the run moves it, so a seed replays a run step for step: a failure
//! names the seed, the step and the command line.

use super::commands;
use super::os::IoEvent;
use super::tests::{engine, World};
use super::{Engine, Reply, Request};
use crate::rng::{parse_seed, SplitMix64};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The run's generator, with the few draws the fuzzer makes.
struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        self.0.pick(from)
    }
}

const TARGETS: &[&str] = &[
    "a",
    "b",
    "=a",
    "a:",
    "a:0",
    "a:1",
    "a:0.0",
    "a:.",
    ":",
    ":.",
    ".",
    "%0",
    "%1",
    "%2",
    "%99",
    "%-1",
    "@0",
    "@1",
    "@99",
    "$0",
    "$1",
    "$99",
    "{last}",
    "{next}",
    "{previous}",
    "{start}",
    "{end}",
    "a:{end}",
    "a:{last}",
    "{marked}",
    "{mouse}",
    "!",
    "~",
    "+",
    "-",
    "a:+",
    "a:-9",
    "a:+99999999999999999999",
    "a:-0",
    "a: 0",
    "",
    "*",
    "a*",
    "nope",
    "nope:",
    ":0.1",
    "a:0.-1",
    "a.b",
    "é",
    "#{session_name}",
    "a:b:c",
    "=",
    "$",
    "%",
    "@",
];

const FORMATS: &[&str] = &[
    "#{session_name}",
    "#{?pane_active,y,n}",
    "#{?#{==:#{session_name},a},A,other}",
    "#{=5:pane_title}",
    "#{=-3:session_name}",
    "#{=/2/...:window_name}",
    "#{p-20:window_name}",
    "#{p9999:x}",
    "#{e|/:1,0}",
    "#{e|%|f|3:7,0}",
    "#{e|*:99999999999999,99999999999}",
    "#{e|<<:1,99}",
    "#{s/a/b/:session_name}",
    "#{s/(/x/:session_name}",
    "#{s/a*/[&]/i:session_name}",
    "#{m/ri:^A,a}",
    "#{S:#{W:#{P:#{pane_id}}}}",
    "#{W:#{window_index} ,#{window_index}* }",
    "#{",
    "#{{{{",
    "}}}",
    "#{l:#{l:x}}",
    "#{t:window_activity}",
    "#{t/f/%%Y%%%%:start_time}",
    "#{R:ab,99}",
    "#{a:99999999}",
    "#{a:65}",
    "#{q:pane_current_path}",
    "#{q/h:session_name}",
    "#{n:#{l:x}}",
    "#{w:session_name}",
    "#{b:pane_current_path}",
    "#{d:pane_current_path}",
    "#{E:status-left}",
    "#{T:status-left}",
    "#{@user}",
    "#{C:x}",
    "#{C/r:x}",
    "#{==:a,a}",
    "#{!=:a,b}",
    "#{||:1,0}",
    "#{&&:1,0}",
    "#{<:a,b}",
    "#{N/s:a}",
    "#{N/w:0}",
    "#{pane_memory} #{server_memory}",
    "%%%",
    "#[fg=red]x#[default]",
    "#(echo hi)",
    "##{}",
    "#{pane_in_mode}#{history_size}#{cursor_x}",
];

const WORDS: &[&str] = &[
    "x",
    "-X",
    "begin-selection",
    "select-word",
    "search-backward",
    "search-forward-incremental",
    "copy-pipe-and-cancel",
    "history-top",
    "rectangle-toggle",
    "Enter",
    "C-c",
    "C-d",
    "M-x",
    "F1",
    "Up",
    "BSpace",
    "Escape",
    "0x41",
    "C-",
    "M-",
    "S-Up",
    "NoSuchKey",
    "",
    "-",
    "--",
    "{",
    "}",
    ";",
    "\\;",
    "'",
    "\"",
    "\\",
    "0",
    "1",
    "-1",
    "2",
    "50%",
    "101%",
    " 3",
    "+5",
    "99999999999999999999999",
    "4294967296",
    "10000",
    "10001",
    "1x1",
    "9999x9999",
    "abc",
    "on",
    "off",
    "yes",
    "no",
    "history-limit",
    "status",
    "base-index",
    "@user",
    "remain-on-exit",
    "default-size",
    "window-size",
    "automatic-rename",
    "status-left",
    "mode-keys",
    "mouse",
    "exit-empty",
    "default-command",
    "aggressive-resize",
    "pane-base-index",
    "buffer-limit",
    "escape-time",
    "set-titles",
    "word-separators",
    "monitor-activity",
    "after-new-window",
    "pane-exited",
    "session-created",
    "new-window",
    "kill-server",
    "kill-session",
    "display-message -p hi",
    "list-sessions",
    "true",
    "sleep 0",
    "exit 3",
    "vi",
    "emacs",
    "red",
    "colour300",
    "#ff00ff",
    "default",
    "1-",
    "/nonexistent/file",
    ".",
    "/",
    "~",
    "*",
    "?",
    "[",
    "\u{1}",
    "\u{7f}",
    "\u{1b}[31m",
    "é",
    "中文",
    "\u{200d}",
    "PATH",
    "HOME",
    "FOO=bar",
    "=",
    "-FOO",
    "a b c",
];

/// The flags of `spec` (getopt style: `s:` takes a value), as (letter, takes a value).
fn flags(spec: &str) -> Vec<(char, bool)> {
    let b: Vec<char> = spec.chars().collect();
    (0..b.len())
        .filter(|&i| b[i] != ':')
        .map(|i| (b[i], b.get(i + 1) == Some(&':')))
        .collect()
}

fn flag_value(rng: &mut Rng, letter: char) -> String {
    match letter {
        't' | 's' if rng.below(4) > 0 => rng.pick(TARGETS).to_string(),
        'F' | 'f' if rng.below(3) > 0 => rng.pick(FORMATS).to_string(),
        _ if rng.chance(4) => rng.pick(FORMATS).to_string(),
        _ if rng.chance(3) => rng.pick(TARGETS).to_string(),
        _ => rng.pick(WORDS).to_string(),
    }
}

/// One command of the table with random flags and arguments.
fn random_command(rng: &mut Rng) -> Vec<String> {
    let all = commands::all();
    let def = all[rng.below(all.len())];
    let name = match def.alias {
        Some(alias) if rng.chance(3) => alias,
        _ => def.name,
    };
    let mut argv = vec![name.to_string()];
    for (letter, takes) in flags(def.flags) {
        if !rng.chance(4) {
            continue;
        }
        argv.push(format!("-{letter}"));
        if takes {
            argv.push(flag_value(rng, letter));
        }
    }
    if rng.chance(20) {
        // A flag the command does not know, or a value missing.
        argv.push(rng.pick(&["-Q", "-", "--", "-t"]).to_string());
    }
    let most = def.max.unwrap_or(def.min + 3).min(6);
    let n = if rng.chance(10) {
        rng.below(most + 3)
    } else {
        def.min + rng.below(most.saturating_sub(def.min) + 1)
    };
    for _ in 0..n {
        argv.push(if rng.chance(4) {
            rng.pick(FORMATS).to_string()
        } else {
            rng.pick(WORDS).to_string()
        });
    }
    argv
}

/// A command line: one command, or a few chained with `;` (sometimes inside `{ }`).
fn random_line(rng: &mut Rng) -> Vec<String> {
    let mut argv = random_command(rng);
    while rng.chance(5) {
        argv.push(";".into());
        argv.extend(random_command(rng));
    }
    argv
}

/// What a program might write: text, escapes, and bytes that are not text.
fn random_output(rng: &mut Rng) -> Vec<u8> {
    const PIECES: &[&[u8]] = &[
        b"hello\r\n",
        b"\x1b[2J\x1b[H",
        b"\x1b[31mred\x1b[m",
        b"\x1b]0;title\x07",
        b"\x1b[?1049h",
        b"\x1b[?1049l",
        b"\xff\xfe\xc3",
        "é中\u{200d}".as_bytes(),
        b"\x1b[999;999H*",
        b"\r\n\r\n\r\n\r\n",
        b"\x1b[6n",
        b"\x1bP$q m\x1b\\",
    ];
    pieces(rng, PIECES, 6)
}

/// One to `most` of `from`, drawn at random and joined.
fn pieces(rng: &mut Rng, from: &[&[u8]], most: usize) -> Vec<u8> {
    (0..1 + rng.below(most))
        .flat_map(|_| from[rng.below(from.len())].to_vec())
        .collect()
}

/// What a client's terminal may send: keys bound by default after the prefix (C-b), keys
/// bound nowhere, named keys' sequences, a paste, a focus report, half a sequence.
fn random_keys(rng: &mut Rng) -> Vec<u8> {
    const PIECES: &[&[u8]] = &[
        b"\x02",
        b"c",
        b"n",
        b"p",
        b"d",
        b"i",
        b"~",
        b"?",
        b"[",
        b"q",
        b"x",
        b"$",
        b":",
        b"z",
        b"!",
        b"&",
        b"\r",
        b"\x1b",
        b"\x1b[A",
        b"\x1b[5~",
        b"\x1b[1;5D",
        b"\x1b[200~pasted\x1b[201~",
        b"\x1b[I",
        b"\x1b[",
        b"\x7f",
        "é".as_bytes(),
        // Copy mode's keys: C-Space, C-s, C-r, M-f, M-w, C-v, and vi's.
        b"\x00",
        b"\x13",
        b"\x12",
        b"\x1bf",
        b"\x1bw",
        b"\x16",
        b" ",
        b"V",
        b"/",
        b"N",
        b"w",
        b"G",
        // Tree mode's keys (C-b s, C-b w open it): moves, expand, tags, orders, kills.
        b"s",
        b"\x1b[B",
        b"\x1b[C",
        b"t",
        b"T",
        b"\x14",
        b"O",
        b"r",
        b"H",
        b"v",
        b"<",
        b">",
        b"X",
        b"y",
        b"1",
        b"\x1ba",
        b"f",
        // Mouse reports (with `mouse` on): the wheel, a click, a drag, a malformed one.
        b"\x1b[<64;3;3M",
        b"\x1b[<65;3;3M",
        b"\x1b[<0;2;2M",
        b"\x1b[<0;2;2m",
        b"\x1b[<32;4;2M",
        b"\x1b[<0;99999;0M",
        b"\x1b[M`!!",
    ];
    pieces(rng, PIECES, 8)
}

/// The attached client of the run: a 30x8 terminal on the first session.
const ATTACHED: u64 = 7;

/// The control-mode client of the run (`-C`), on the first session.
const CONTROL: u64 = 9;

/// Attaches `client` to the first session, a control client with `control`.
fn attach(e: &mut Engine, client: u64, control: Option<u8>) {
    let req = Request {
        argv: vec!["attach-session".into(), "-t".into(), "a".into()],
        cwd: "/".into(),
        client: Some(client),
        control,
        terminal: Some(crate::protocol::ClientTerminal {
            cols: 30,
            rows: 8,
            term: "xterm".into(),
            tty: "/dev/pts/77".into(),
            pid: 77,
            utf8: true,
        }),
        ..Request::default()
    };
    let _ = e.submit(&req);
}

/// The attached client types keys and is drawn, failing with `step` when the engine panics
/// or stops listing its sessions.
fn check_keys(e: &mut Engine, asking: &mut Asking, keys: &[u8], step: &str) {
    let shown = format!("keys {:?} at {step}", String::from_utf8_lossy(keys));
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        e.client_input(ATTACHED, keys);
        e.clients_tick();
        e.client_frame(ATTACHED);
    }))
    .unwrap_or_else(|_| panic!("the engine panicked on {shown}"));
    check_finished(e, asking, &shown);
    check_listing(e, &shown);
}

/// The control client sends a command line (its words joined by spaces: what they parse to
/// matters less than that anything may come), failing with `step` when the engine panics or
/// stops listing its sessions.
fn check_control(e: &mut Engine, asking: &mut Asking, argv: &[String], step: &str) {
    let line = format!("{}\n", argv.join(" "));
    let shown = format!("control line {line:?} at {step}");
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if !e.is_control(CONTROL) {
            attach(e, CONTROL, Some(0));
        }
        e.client_input(CONTROL, line.as_bytes());
        e.clients_tick();
        e.control_text(CONTROL);
    }))
    .unwrap_or_else(|_| panic!("the engine panicked on {shown}"));
    check_finished(e, asking, &shown);
    check_listing(e, &shown);
}

/// The clients whose request waits on a question (confirm-before, command-prompt):
/// declined, or its client gone, it exits 1 with nothing said, as tmux's confirm-before does.
type Asking = std::collections::HashSet<u64>;

/// Checks the replies to requests that waited.
fn check_finished(e: &mut Engine, asking: &mut Asking, shown: &str) {
    for (client, reply) in e.take_finished() {
        if asking.remove(&client) {
            check_code(&reply, shown);
        } else {
            check_reply(&reply, shown);
        }
    }
}

/// A fresh engine with two sessions, the first with two windows and a client attached.
fn populated() -> (Engine, Rc<RefCell<World>>) {
    let (mut e, world) = engine("/bin/sh");
    for argv in [
        &[
            "new-session",
            "-d",
            "-s",
            "a",
            "-x",
            "40",
            "-y",
            "10",
            "prog",
        ][..],
        &["new-window", "-t", "a", "prog"],
        &["new-session", "-d", "-s", "b", "prog"],
    ] {
        let reply = run(&mut e, argv.iter().map(|s| s.to_string()).collect());
        assert_eq!(
            reply.code,
            0,
            "{argv:?}: {}",
            String::from_utf8_lossy(&reply.err)
        );
    }
    attach(&mut e, ATTACHED, None);
    (e, world)
}

fn run(e: &mut Engine, argv: Vec<String>) -> Reply {
    e.run(&Request {
        argv,
        cwd: "/".into(),
        ..Request::default()
    })
}

/// A request from a client (which may wait), or with none (as a hook's or an embedding
/// host's).
fn submit(e: &mut Engine, argv: Vec<String>, client: Option<u64>) -> Option<Reply> {
    let req = Request {
        argv,
        cwd: "/".into(),
        client,
        ..Request::default()
    };
    match client {
        Some(_) => e.submit(&req),
        None => Some(e.run(&req)),
    }
}

/// What every answer must be: an exit code tmux gives (a job's own status passes through
/// run-shell), and a failure said in words.
fn check_reply(reply: &Reply, shown: &str) {
    check_code(reply, shown);
    if reply.code == 1 {
        assert!(
            !reply.err.is_empty(),
            "a failure without a message: {shown}"
        );
    }
}

fn check_code(reply: &Reply, shown: &str) {
    assert!(
        (0..=255).contains(&reply.code),
        "exit code {} for {shown}",
        reply.code
    );
}

/// Runs one command line, failing with `step` (where the run was) and the line when the
/// engine panics, takes too long, fails without saying why, or stops listing its sessions.
fn check_line(
    e: &mut Engine,
    asking: &mut Asking,
    argv: Vec<String>,
    client: Option<u64>,
    step: &str,
) {
    let shown = format!("{argv:?} from {client:?} at {step}");
    let asks = argv
        .iter()
        .any(|a| a.starts_with("confirm") || a == "command-prompt");
    let start = Instant::now();
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| submit(e, argv, client)))
        .unwrap_or_else(|_| panic!("the engine panicked on {shown}"));
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "{shown} took {took:?}");
    match (&reply, client) {
        (Some(reply), _) => check_reply(reply, &shown),
        (None, Some(client)) if asks => drop(asking.insert(client)),
        (None, _) => {}
    }
    check_finished(e, asking, &shown);
    check_listing(e, &shown);
}

fn check_listing(e: &mut Engine, shown: &str) {
    let listed = run(
        e,
        vec![
            "list-sessions".into(),
            "-F".into(),
            "#{session_name}".into(),
        ],
    );
    let names = String::from_utf8_lossy(&listed.out).lines().count();
    assert_eq!(
        names,
        e.sessions.len(),
        "sessions listed after {shown}: {:?}",
        String::from_utf8_lossy(&listed.out)
    );
    for s in e.sessions.iter() {
        assert!(
            !s.windows.is_empty(),
            "session without windows after {shown}"
        );
        check_session(s, shown);
    }
}

/// The invariants of `session.rs`: windows ordered by unique indices, the current one among
/// them, the last-window stack holding other windows of the session, each once.
fn check_session(s: &super::session::Session, shown: &str) {
    let what = format!("session {} after {shown}", s.name);
    assert!(
        s.windows.windows(2).all(|w| w[0].index < w[1].index),
        "{what}: indices out of order"
    );
    assert!(s.current < s.windows.len(), "{what}: no current window");
    let current = s.windows[s.current].id;
    for (i, id) in s.last.iter().enumerate() {
        assert!(*id != current, "{what}: the current window is in the stack");
        assert!(
            s.position_of_id(*id).is_some(),
            "{what}: window {id} in the stack is gone"
        );
        assert!(
            !s.last[..i].contains(id),
            "{what}: window {id} twice in the stack"
        );
    }
}

fn seed_and_budget() -> (u64, Duration) {
    let seconds = std::env::var("ZEROPTY_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok());
    let seed = std::env::var("ZEROPTY_FUZZ_SEED")
        .ok()
        .map(|s| parse_seed(&s).unwrap_or_else(|| panic!("ZEROPTY_FUZZ_SEED={s} is not a number")))
        .unwrap_or_else(|| match seconds {
            Some(_) => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64 | 1),
            // Short runs (CI) use a fixed seed so that a failure is the code's, not the draw's.
            None => 0x00c0_ffee_f00d_0001,
        });
    (seed, Duration::from_secs_f64(seconds.unwrap_or(3.0)))
}

#[test]
fn random_command_lines_leave_the_engine_answering() {
    let (seed, budget) = seed_and_budget();
    let mut rng = Rng(SplitMix64(seed));
    let (mut e, mut world) = populated();
    let mut asking = Asking::new();
    let start = Instant::now();
    let mut lines = 0u64;
    while lines == 0 || start.elapsed() < budget {
        lines += 1;
        match rng.below(10) {
            0 => {
                let mut ios: Vec<_> = e.panes_by_io.keys().copied().collect();
                ios.sort_unstable();
                if let Some(&io) = ios.get(rng.below(ios.len().max(1))) {
                    let out = random_output(&mut rng);
                    world.borrow_mut().program_writes(io, &out);
                    e.io_event(io, IoEvent::Readable);
                }
            }
            1 => {
                world.borrow_mut().now += rng.below(3000) as u64;
                e.tick();
            }
            3 => {
                if !e.clients.is_attached(ATTACHED) {
                    attach(&mut e, ATTACHED, None);
                }
                let step = format!("step {lines} of ZEROPTY_FUZZ_SEED={seed:#x}");
                check_keys(&mut e, &mut asking, &random_keys(&mut rng), &step);
            }
            4 => {
                let step = format!("step {lines} of ZEROPTY_FUZZ_SEED={seed:#x}");
                check_control(&mut e, &mut asking, &random_line(&mut rng), &step);
            }
            2 if !world.borrow().jobs.is_empty() => {
                // A job ends (one that ended already is reported again: a stray report).
                let (_, io, pid) = {
                    let w = world.borrow();
                    w.jobs[rng.below(w.jobs.len())].clone()
                };
                // Never status 1, so that a code of 1 is always a command's failure.
                let status = [0, 2 << 8, 3 << 8, 9][rng.below(4)];
                world.borrow_mut().statuses.insert(pid, status);
                e.io_event(io, IoEvent::Exited);
                let shown = format!("a job's end at step {lines} of ZEROPTY_FUZZ_SEED={seed:#x}");
                check_finished(&mut e, &mut asking, &shown);
                check_listing(&mut e, &shown);
            }
            _ => {
                let step = format!("step {lines} of ZEROPTY_FUZZ_SEED={seed:#x}");
                // As the server does, a client's next request waits while one of its waits.
                let client = rng
                    .chance(2)
                    .then(|| 1 + rng.below(3) as u64)
                    .filter(|&c| !e.waits.is_waiting(c));
                check_line(&mut e, &mut asking, random_line(&mut rng), client, &step);
            }
        }
        if e.wants_exit() || e.sessions.is_empty() {
            (e, world) = populated();
            asking.clear();
        }
    }
    eprintln!(
        "command_fuzz: {lines} steps in {:?} from seed {seed:#x}",
        start.elapsed()
    );
}
