//! Quiet screens fold away and come back unchanged, through the real server: hot while
//! written, frozen after a quarter second of quiet, cold (compressed, out of the heap) after
//! ten seconds, and whole again when read or written. Memory is read from the server's own
//! formats, with listing commands that do not read (and so do not thaw) the screens; what the
//! server's heap gives back after a burst of output, from /proc.

mod common;

use common::zp::{wait_for, Zp};
use std::time::Duration;

/// A screen with colours, a wrapped line and history, then a program that waits for input.
const PROGRAM: &str = "i=0; while [ $i -lt 150 ]; do \
     printf '\\033[3%dmline %d\\033[m of a quiet screen, %s\\n' $((i % 8)) $i \
     'with some text after it to fill the row'; i=$((i + 1)); done; \
     printf '%0300d\\n' 7; exec cat";

fn state(zp: &Zp) -> String {
    zp.ok(&["list-windows", "-t", "q", "-F", "#{pane_memory_state}"])
        .trim()
        .to_string()
}

fn number(zp: &Zp, format: &str) -> usize {
    let out = zp.ok(&["list-windows", "-t", "q", "-F", format]);
    out.trim()
        .parse()
        .unwrap_or_else(|_| panic!("{format}: {out:?}"))
}

fn wait_state(zp: &Zp, want: &str) {
    wait_for(|| state(zp), |s| s == want);
}

/// Everything a capture can show: history, colours, the visible screen.
fn whole_capture(zp: &Zp) -> String {
    zp.ok(&["capture-pane", "-p", "-e", "-J", "-S", "-", "-t", "q"])
}

/// Starts session `name` running `program` in 120x40 and waits for its screen.
fn start(zp: &Zp, name: &str, program: &str) {
    let args = [
        "-d", "-s", name, "-x", "120", "-y", "40", "/bin/sh", "-c", program,
    ];
    zp.ok(&[&["new-session"], &args[..]].concat());
    zp.wait_screen(name, |s| s.contains("0000007"));
}

fn screens_fold_away_and_come_back(zp: &Zp) {
    start(zp, "q", PROGRAM);
    let before = whole_capture(zp);
    assert_eq!(state(zp), "hot", "just read");
    let hot = number(zp, "#{pane_memory}");

    wait_state(zp, "frozen");
    let frozen = number(zp, "#{pane_memory}");
    // This screen is mostly text, which the chunk keeps as the packed rows had it; what goes
    // is each row's header and allocation and the row vector's room (about a fifth here,
    // 13,611 bytes to 10,906; agent screens, mostly blank and repeated cells, lose more: see
    // BENCHMARKS.md).
    assert!(
        frozen < hot * 17 / 20,
        "a frozen screen costs less: {frozen} against {hot}"
    );
    assert_eq!(number(zp, "#{pane_memory_cold}"), 0);

    // Ten seconds frozen: compressed into the cold store.
    std::thread::sleep(Duration::from_secs(9));
    wait_state(zp, "cold");
    let left = number(zp, "#{pane_memory}");
    let cold = number(zp, "#{pane_memory_cold}");
    assert!(
        left < frozen,
        "the chunk left the heap: {left} against {frozen}"
    );
    assert!(
        cold > 0 && cold < frozen,
        "compressed: {cold} against {frozen}"
    );
    assert_eq!(number(zp, "#{session_memory_cold}"), cold);
    let store = number(zp, "#{server_memory_cold}");
    assert!(store >= cold, "the store holds it: {store} < {cold}");

    // Listing panes needs no rows: the screen stays cold.
    zp.ok(&[
        "list-panes",
        "-a",
        "-F",
        "#{pane_pid} #{pane_current_command}",
    ]);
    assert_eq!(state(zp), "cold");
    // A reader of its rows brings it back exactly as it was (frozen: it is read without
    // thawing), and the store lets go.
    assert_eq!(whole_capture(zp), before);
    assert_eq!(state(zp), "frozen");
    assert_eq!(number(zp, "#{pane_memory_cold}"), 0);
    assert_eq!(number(zp, "#{server_memory_cold}"), 0);

    // Output thaws a frozen screen and lands after what was there.
    zp.ok(&["send-keys", "-t", "q", "-l", "after the thaw"]);
    zp.ok(&["send-keys", "-t", "q", "Enter"]);
    let screen = zp.wait_screen("q", |s| s.matches("after the thaw").count() == 2);
    assert!(
        screen.contains("0000007\nafter the thaw\nafter the thaw\n"),
        "{screen:?}"
    );
}

#[test]
fn screens_fold_into_a_memfd() {
    let zp = Zp::new("freeze-memfd");
    screens_fold_away_and_come_back(&zp);
}

#[test]
fn screens_fold_into_the_heap_with_zeropty_cold_memory() {
    let zp = Zp::new("freeze-heap").with_env("ZEROPTY_COLD", "memory");
    screens_fold_away_and_come_back(&zp);
}

/// Screens of one program, in sessions of their own, going cold together: the first is stored
/// alone, the others only for what differs from it, and each comes back whole.
#[test]
fn screens_alike_are_stored_against_each_other() {
    let zp = Zp::new("freeze-alike");
    let sessions = ["a", "b", "c"];
    for (i, name) in sessions.iter().enumerate() {
        // The same screen but for one word, as a fleet of agents shows the same program.
        let program = PROGRAM.replace("quiet screen", &format!("quiet screen {i}"));
        start(&zp, name, &program);
    }
    let captures: Vec<String> = sessions
        .iter()
        .map(|name| zp.ok(&["capture-pane", "-p", "-e", "-J", "-S", "-", "-t", name]))
        .collect();
    let panes = || {
        zp.ok(&[
            "list-panes",
            "-a",
            "-F",
            "#{pane_memory_state} #{pane_memory_cold}",
        ])
    };
    std::thread::sleep(Duration::from_secs(10));
    let cold = wait_for(panes, |l| l.lines().all(|l| l.starts_with("cold ")));
    let stored: Vec<usize> = cold
        .lines()
        .map(|l| l[5..].trim().parse().unwrap())
        .collect();
    let (smallest, largest) = (*stored.iter().min().unwrap(), *stored.iter().max().unwrap());
    assert!(
        smallest * 3 < largest,
        "one is stored alone, the others against it: {stored:?}"
    );
    let store: usize = zp
        .ok(&["display-message", "-p", "#{server_memory_cold}"])
        .trim()
        .parse()
        .unwrap();
    assert!(
        store > largest + smallest,
        "the store counts the screen kept whole: {store}, {stored:?}"
    );
    // zstd's compression context came from the C library's heap, which is given back with the
    // rest of what the server holds freed (glibc keeps it otherwise).
    wait_for(
        || server_c_heap_kib(&zp).to_string(),
        |kib| kib.parse::<usize>().unwrap() < C_HEAP_AT_REST_KIB,
    );
    for (name, capture) in sessions.iter().zip(&captures) {
        let now = zp.ok(&["capture-pane", "-p", "-e", "-J", "-S", "-", "-t", name]);
        assert_eq!(&now, capture, "{name} came back whole");
    }
    let store = zp.ok(&["display-message", "-p", "#{server_memory_cold}"]);
    assert_eq!(
        store.trim(),
        "0",
        "every screen left the store, and so did the reference"
    );
}

/// What the C library's heap (`[heap]`: the C allocator's, which serves zstd) keeps resident
/// when nothing uses it: a page or a few for the C library's own use.
const C_HEAP_AT_REST_KIB: usize = 64;

/// Resident KiB of the server's C heap (`[heap]` in /proc/PID/smaps; 0 without one).
fn server_c_heap_kib(zp: &Zp) -> usize {
    let smaps = std::fs::read_to_string(format!("/proc/{}/smaps", server_pid(zp))).unwrap();
    smaps
        .split_inclusive('\n')
        .skip_while(|l| !l.trim_end().ends_with("[heap]"))
        .find_map(|l| l.strip_prefix("Rss:"))
        .map_or(0, |v| {
            v.trim().trim_end_matches("kB").trim().parse().unwrap()
        })
}

fn server_pid(zp: &Zp) -> String {
    zp.ok(&["display-message", "-p", "#{pid}"])
        .trim()
        .to_string()
}

/// The server's allocator reserves address space in arenas of 32 MiB at first (their bitmaps
/// are sized by them): none of its private mappings is 1 GiB, mimalloc's own first reserve.
#[test]
fn the_allocator_reserves_small_arenas() {
    let zp = Zp::new("arenas");
    zp.ok(&["new-session", "-d", "-s", "q", "exec cat"]);
    let maps = std::fs::read_to_string(format!("/proc/{}/maps", server_pid(&zp))).unwrap();
    let largest_anonymous = maps
        .lines()
        .filter(|l| l.split_whitespace().nth(5).is_none())
        .map(|l| {
            let (start, end) = l
                .split_whitespace()
                .next()
                .unwrap()
                .split_once('-')
                .unwrap();
            let at = |hex| u64::from_str_radix(hex, 16).unwrap();
            at(end) - at(start)
        })
        .max()
        .unwrap();
    assert!(
        largest_anonymous < 1 << 30,
        "a mapping of {largest_anonymous} bytes:\n{maps}"
    );
}

/// The server's anonymous memory in KiB (its heap: what the allocator holds).
fn server_anonymous_kib(zp: &Zp) -> usize {
    let rollup = std::fs::read_to_string(format!("/proc/{}/smaps_rollup", server_pid(zp))).unwrap();
    rollup
        .lines()
        .find_map(|l| l.strip_prefix("Anonymous:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no Anonymous in {rollup}"))
}

#[test]
fn what_a_burst_of_output_used_goes_back_while_commands_keep_coming() {
    let zp = Zp::new("release");
    zp.ok(&["new-session", "-d", "-s", "q", "exec cat"]);
    zp.wait_screen("q", |_| true);
    let before = server_anonymous_kib(&zp);
    // About 19 MB as fast as the program can write: read ahead into a backlog of megabytes,
    // parsed, then freed.
    zp.ok(&[
        "respawn-pane",
        "-k",
        "-t",
        "q",
        "seq 1 2500000; echo burst over; exec cat",
    ]);
    zp.wait_screen("q", |s| s.contains("burst over"));
    // The server releases what its allocator holds freed once a second while it works (here
    // answering these commands every 50 ms).
    wait_for(
        || format!("{} KiB, {before} KiB before", server_anonymous_kib(&zp)),
        |now| now.split(' ').next().unwrap().parse::<usize>().unwrap() < before + 2048,
    );
}
