//! Sessions past the PTY limit: more sessions than `kernel.pty.max` allows pseudo-terminals,
//! each costing the server one descriptor and the machine one process, all answering, their
//! exits noticed, and nothing left behind after kill-server. And many programs writing at
//! their own moments waking the server far less often than they write.

mod common;

use common::zp::Zp;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

/// Descriptors the server holds besides its sessions' terminals: standard streams, listener,
/// epoll, signalfd, state file, the client connections of the moment, and whatever the
/// starting process leaked to it.
const SERVER_FDS: usize = 16;

/// Requests written before their replies are read: the replies to a batch fit in the
/// socket's buffer, so neither side blocks the other.
const BATCH: usize = 200;

fn read_number(path: &str) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .trim()
        .parse()
        .unwrap()
}

/// One connection speaking the JSON line protocol.
struct Conn {
    writer: UnixStream,
    reader: BufReader<UnixStream>,
}

impl Conn {
    fn open(zp: &Zp) -> Conn {
        let writer = UnixStream::connect(zp.socket()).unwrap();
        let reader = BufReader::new(writer.try_clone().unwrap());
        Conn { writer, reader }
    }

    /// Sends every request, BATCH at a time, and returns each reply's exit code and output.
    fn run(&mut self, requests: &[Vec<String>]) -> Vec<(i64, String)> {
        let mut replies = Vec::with_capacity(requests.len());
        for chunk in requests.chunks(BATCH) {
            let mut lines = String::new();
            for argv in chunk {
                lines.push_str(&serde_json::json!({ "argv": argv }).to_string());
                lines.push('\n');
            }
            self.writer.write_all(lines.as_bytes()).unwrap();
            for _ in chunk {
                let mut line = String::new();
                self.reader.read_line(&mut line).unwrap();
                let v: serde_json::Value = serde_json::from_str(&line).unwrap();
                let out = v["out"].as_str().unwrap_or_default().to_string();
                replies.push((v["code"].as_i64().unwrap(), out));
            }
        }
        replies
    }
}

fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The pids whose parent is `parent`, and how many of them are zombies.
fn children_of(parent: u32) -> (Vec<u32>, usize) {
    let mut pids = Vec::new();
    let mut zombies = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // The fields after the command name, which is in parentheses and may hold spaces.
        let rest: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        if rest[1].parse::<u32>() == Ok(parent) {
            pids.push(pid);
            zombies += usize::from(rest[0] == "Z");
        }
    }
    (pids, zombies)
}

fn alive(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

fn wait_until(what: &str, f: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sessions past the PTY limit, one server descriptor and one process each. The count is the
/// PTY limit plus a tenth (4505 here, where kernel.pty.max is 4096): enough to show the limit
/// does not apply, in 8 to 15 seconds on this shared 2-core machine, most of it starting the
/// sessions (their programs' exec, mostly). bench/max_sessions.sh goes to 10,000.
#[test]
fn sessions_past_the_pty_limit_cost_one_descriptor_and_one_process_each() {
    let pty_max = read_number("/proc/sys/kernel/pty/max");
    let n = pty_max + pty_max / 10;
    // SAFETY: getrlimit writes the struct.
    let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
    assert_eq!(
        unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) },
        0
    );
    assert!(
        limit.rlim_max as usize > n + SERVER_FDS,
        "the open-file hard limit ({}) is too low for {n} sessions",
        limit.rlim_max
    );
    let zp = Zp::new("scale").with_shell("/bin/sh");
    // `exec` leaves one process per session: dash runs a list's last command in a child.
    let program = |i: usize| format!("printf 'idle {i}\\n'; exec sleep 1000000");
    zp.ok(&["new-session", "-d", "-s", "s0", &program(0)]);
    let server: u32 = zp
        .ok(&["display-message", "-p", "#{pid}"])
        .trim()
        .parse()
        .unwrap();
    let mut conn = Conn::open(&zp);

    let started = Instant::now();
    let create: Vec<Vec<String>> = (1..n)
        .map(|i| argv(&["new-session", "-d", "-s", &format!("s{i}"), &program(i)]))
        .collect();
    for (i, (code, _)) in conn.run(&create).iter().enumerate() {
        assert_eq!(*code, 0, "new-session s{} failed", i + 1);
    }
    eprintln!("{n} sessions started in {:?}", started.elapsed());

    let has: Vec<Vec<String>> = (0..n)
        .map(|i| argv(&["has-session", "-t", &format!("=s{i}")]))
        .collect();
    let answered = conn.run(&has).iter().filter(|(code, _)| *code == 0).count();
    assert_eq!(answered, n);

    for i in (0..n).step_by(n / 50) {
        let target = format!("=s{i}:");
        common::zp::wait_for(
            || zp.ok(&["capture-pane", "-p", "-t", &target]),
            |s| s.trim_end() == format!("idle {i}"),
        );
    }

    let fds = std::fs::read_dir(format!("/proc/{server}/fd"))
        .unwrap()
        .count();
    assert!(
        (n..=n + SERVER_FDS).contains(&fds),
        "{fds} server descriptors for {n} sessions"
    );
    let (programs, _) = children_of(server);
    assert_eq!(programs.len(), n, "one process per session");

    // Programs that end are noticed and collected: their sessions close, and no zombie stays.
    let ended: Vec<u32> = programs.iter().copied().take(20).collect();
    for &pid in &ended {
        // SAFETY: plain kill of a session program.
        unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    }
    wait_until("ended sessions to close", || {
        let listed = zp.ok(&["list-sessions", "-F", "x"]).lines().count();
        listed == n - ended.len() && children_of(server).1 == 0
    });
    assert!(ended.iter().all(|&pid| !alive(pid)));

    zp.ok(&["kill-server"]);
    wait_until("the server to exit", || !alive(server));
    wait_until("every session program to end", || {
        programs.iter().all(|&pid| !alive(pid))
    });
}

/// The frame number each of the `gathered` test's sessions `sampled` shows last.
fn latest_frames(zp: &Zp, sampled: &[usize]) -> Vec<u64> {
    let frame = |i: &usize| {
        let shown = zp.ok(&["capture-pane", "-p", "-t", &format!("=g{i}:")]);
        let last = shown.lines().rfind(|l| !l.is_empty()).unwrap_or_default();
        assert_eq!(last.len(), 300, "g{i}: {shown:?}");
        last.trim_start_matches('0').parse().unwrap_or(0)
    };
    sampled.iter().map(frame).collect()
}

fn voluntary_switches(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("voluntary_ctxt_switches:"))
        .unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Programs nobody waits on, each writing a frame a second at its own moment, share the
/// server's wakeups: their reports are gathered, one take every 50 ms at most, instead of a
/// wakeup for each frame. The server sleeps once per wakeup (a voluntary context switch), so
/// 200 such programs over 3 s, 600 frames, must cost well under 600 switches (at most 60 for
/// the takes and a few dozen for the batch boundaries; 529 with takes never held back).
#[test]
fn programs_writing_at_their_own_moments_share_the_servers_wakeups() {
    const N: usize = 200;
    const WINDOW_S: u64 = 3;
    let zp = Zp::new("gather").with_shell("/bin/sh");
    // Frame k is k as 300 digits, on a line wide enough to hold it.
    let program = "i=0; while :; do i=$((i+1)); printf '%0300d\\r\\n' $i; sleep 1; done";
    let new_session = |i: usize| {
        let name = format!("g{i}");
        argv(&[
            "new-session",
            "-d",
            "-s",
            &name,
            "-x",
            "400",
            "-y",
            "10",
            program,
        ])
    };
    let first = new_session(0);
    zp.ok(&first.iter().map(String::as_str).collect::<Vec<_>>());
    let created = Conn::open(&zp).run(&(1..N).map(new_session).collect::<Vec<_>>());
    assert!(created.iter().all(|(code, _)| *code == 0));
    let server: u32 = zp
        .ok(&["display-message", "-p", "#{pid}"])
        .trim()
        .parse()
        .unwrap();
    // Past their start, every program is silent between frames (read when reported).
    std::thread::sleep(Duration::from_secs(4));
    let sampled: Vec<usize> = (0..N).step_by(N / 10).collect();
    let first = latest_frames(&zp, &sampled);
    let before = voluntary_switches(server);
    std::thread::sleep(Duration::from_secs(WINDOW_S));
    let wakeups = voluntary_switches(server) - before;
    let frames = N * WINDOW_S as usize;
    eprintln!("{wakeups} server wakeups for about {frames} frames");
    assert!(
        wakeups < frames / 2,
        "{wakeups} server wakeups for about {frames} frames"
    );
    // Each screen shows its program's frames, whole, and the newer ones.
    let then = latest_frames(&zp, &sampled);
    for ((i, first), then) in sampled.iter().zip(first).zip(then) {
        assert!(then > first, "g{i}: frame {first}, then {then}");
    }
    zp.ok(&["kill-server"]);
    wait_until("the server to exit", || !alive(server));
}
