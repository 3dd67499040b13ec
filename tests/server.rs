//! Integration tests of the server and the command line: the real `zeropty` binary, real
//! session programs (sh, cat, python3), a private socket directory per test.
mod common;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::zp::{wait_for, Zp};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn no_server_errors_match_tmux() {
    let zp = Zp::new("noserver");
    let o = zp.cmd(&["has-session", "-t", "x"]);
    assert_eq!(o.status.code(), Some(1));
    let sock = zp.socket();
    assert_eq!(
        stderr(&o),
        format!(
            "error connecting to {} (No such file or directory)\n",
            sock.display()
        )
    );
}

#[test]
fn sessions_start_list_and_end() {
    let zp = Zp::new("sessions");
    zp.ok(&[
        "new-session",
        "-d",
        "-s",
        "work",
        "-x",
        "100",
        "-y",
        "30",
        "exec sleep 100",
    ]);
    zp.ok(&["has-session", "-t", "=work"]);
    let o = zp.cmd(&["has-session", "-t", "nope"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "can't find session: nope\n");
    // The program may still be starting: wait for it to be `sleep`.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let ls = zp.ok(&[
            "ls",
            "-F",
            "#{session_name} #{window_width}x#{window_height} #{pane_current_command}",
        ]);
        if ls == "work 100x30 sleep\n" {
            break;
        }
        assert!(Instant::now() < deadline, "ls shows {ls:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = zp.cmd(&["new-session", "-d", "-s", "work"]);
    assert_eq!(stderr(&o), "duplicate session: work\n");
    zp.ok(&["rename-session", "-t", "work", "play"]);
    zp.ok(&["kill-session", "-t", "play"]);
    // The server exits once its last session is gone.
    let deadline = Instant::now() + Duration::from_secs(5);
    while zp.cmd(&["ls"]).status.success() {
        assert!(Instant::now() < deadline, "server did not exit");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn send_keys_reach_a_shell_and_capture_shows_them() {
    let zp = Zp::new("keys");
    zp.ok(&[
        "new-session",
        "-d",
        "-s",
        "sh",
        "-x",
        "80",
        "-y",
        "24",
        "/bin/sh",
    ]);
    zp.ok(&["send-keys", "-t", "sh", "echo hello-$((6*7))", "Enter"]);
    let screen = zp.wait_screen("sh", |s| s.contains("hello-42"));
    assert!(
        screen.contains("echo hello-$((6*7))"),
        "echo of the typed line: {screen}"
    );
}

#[test]
fn programs_see_a_terminal() {
    let zp = Zp::new("tty");
    zp.ok(&[
        "new-session", "-d", "-s", "t", "-x", "91", "-y", "27",
        "python3 -c 'import os,sys; print(os.isatty(0), os.get_terminal_size()); sys.stdout.flush(); import time; time.sleep(30)'",
    ]);
    zp.wait_screen("t", |s| {
        s.contains("True os.terminal_size(columns=91, lines=27)")
    });
}

#[test]
fn json_protocol_answers_in_order() {
    let zp = Zp::new("json");
    zp.ok(&["new-session", "-d", "-s", "j", "cat"]);
    let sock = zp.socket();
    use std::io::{BufRead, BufReader, Write};
    let mut s = std::os::unix::net::UnixStream::connect(&sock).unwrap();
    s.write_all(b"{\"argv\":[\"has-session\",\"-t\",\"j\"]}\n{\"argv\":[\"has-session\",\"-t\",\"zz\"]}\nnot json\n")
        .unwrap();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    assert_eq!(line, "{\"code\":0,\"err\":\"\",\"out\":\"\"}\n");
    line.clear();
    r.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        "{\"code\":1,\"err\":\"can't find session: zz\\n\",\"out\":\"\"}\n"
    );
    line.clear();
    r.read_line(&mut line).unwrap();
    assert!(
        line.starts_with("{\"code\":1,\"err\":\"zeropty: invalid request"),
        "{line}"
    );
    // The server is unharmed.
    zp.ok(&["has-session", "-t", "j"]);
}

#[test]
fn connections_keep_their_environment_and_may_ask_for_raw_replies() {
    let zp = Zp::new("raw");
    zp.ok(&["new-session", "-d", "-s", "r", "cat"]);
    let sock = zp.socket();
    use std::io::{BufRead, BufReader, Read, Write};
    let mut s = std::os::unix::net::UnixStream::connect(&sock).unwrap();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut ask = |line: &str| -> (String, Vec<u8>) {
        s.write_all(line.as_bytes()).unwrap();
        let mut head = String::new();
        r.read_line(&mut head).unwrap();
        let v: serde_json::Value = serde_json::from_str(&head).unwrap();
        let n = v["out_bytes"].as_u64().unwrap_or(0) + v["err_bytes"].as_u64().unwrap_or(0);
        let mut body = vec![0; n as usize];
        r.read_exact(&mut body).unwrap();
        (head, body)
    };
    // Output that is not UTF-8 (and a newline) crosses as it is, counted in bytes.
    let (head, body) = ask("{\"argv_b64\":[\"c2V0LWJ1ZmZlcg==\",\"/w==\"],\"reply\":\"raw\"}\n");
    assert_eq!(head, "{\"code\":0,\"out_bytes\":0,\"err_bytes\":0}\n");
    assert!(body.is_empty());
    let (head, body) = ask("{\"argv\":[\"show-buffer\"],\"reply\":\"raw\"}\n");
    assert_eq!(head, "{\"code\":0,\"out_bytes\":1,\"err_bytes\":0}\n");
    assert_eq!(body, b"\xff");
    let (head, body) = ask("{\"argv\":[\"has-session\",\"-t\",\"zz\"],\"reply\":\"raw\"}\n");
    assert_eq!(head, "{\"code\":1,\"out_bytes\":0,\"err_bytes\":23}\n");
    assert_eq!(body, b"can't find session: zz\n");
    // The environment sent once serves the requests that leave it out: ZEROPTY_PANE makes
    // r's pane the default target, where it would otherwise be the newer q's.
    zp.ok(&["new-session", "-d", "-s", "q", "cat"]);
    let pane = "{\"argv\":[\"display-message\",\"-p\",\"#{pane_id}\"],\"reply\":\"raw\"}\n";
    assert_eq!(ask(pane).1, b"%1\n");
    ask("{\"argv\":[\"has-session\"],\"env\":{\"ZEROPTY_PANE\":\"%0\"},\"reply\":\"raw\"}\n");
    assert_eq!(
        ask(pane).1,
        b"%0\n",
        "the remembered ZEROPTY_PANE picks the pane"
    );
    // A client that cannot attach is told to, and nothing runs.
    let (head, _) =
        ask("{\"argv\":[\"new-session\",\"-s\",\"x\"],\"refuse_attach\":true,\"reply\":\"raw\"}\n");
    assert_eq!(
        head,
        "{\"code\":0,\"must_attach\":true,\"out_bytes\":0,\"err_bytes\":0}\n"
    );
    let (head, _) =
        ask("{\"argv\":[\"new-session\",\"-d\",\"-s\",\"y\"],\"refuse_attach\":true}\n");
    assert_eq!(head, "{\"code\":0,\"err\":\"\",\"out\":\"\"}\n");
    assert_eq!(zp.ok(&["ls", "-F", "#{session_name}"]), "q\nr\ny\n");
}

#[test]
fn a_flood_of_output_is_read_completely() {
    let zp = Zp::new("flood");
    // 100 MB as fast as the program can write, then its last line.
    zp.ok(&[
        "new-session",
        "-d",
        "-s",
        "f",
        "-x",
        "80",
        "-y",
        "10",
        "head -c 100000000 /dev/zero | tr '\\0' x; printf '\\nthe-end\\n'; sleep 100",
    ]);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let read = zp.ok(&["display-message", "-p", "-t", "f", "#{pane_bytes_read}"]);
        let read: u64 = read.trim().parse().unwrap();
        // The program writes 100,000,000 bytes and then 9 more.
        if read >= 100_000_009 {
            assert_eq!(read, 100_000_009);
            break;
        }
        assert!(Instant::now() < deadline, "only {read} bytes read");
        std::thread::sleep(Duration::from_millis(100));
    }
    zp.wait_screen("f", |s| s.contains("the-end"));
    let pid = zp.ok(&["display-message", "-p", "-t", "f", "#{pid}"]);
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid.trim())).unwrap();
    let peak_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap();
    assert!(peak_kb < 64 * 1024, "server peak memory {peak_kb} kB");
}

/// A program may run 1 MiB ahead of the server (2 MiB once the kernel doubles it for its
/// bookkeeping), as far as `net.core.wmem_max` allows, rather than the kernel's default.
#[test]
fn a_program_may_write_far_ahead_of_the_server() {
    let zp = Zp::new("ahead");
    // Through libc: the shim tells Python's socket module that a terminal is not a socket.
    let ask = "import ctypes, socket; v = ctypes.c_int(); n = ctypes.c_uint(4); \
               ctypes.CDLL(None).getsockopt(1, socket.SOL_SOCKET, socket.SO_SNDBUF, \
               ctypes.byref(v), ctypes.byref(n)); print('sndbuf', v.value, 'end')";
    zp.ok(&[
        "new-session",
        "-d",
        "-s",
        "w",
        &format!("python3 -c \"{ask}\"; sleep 100"),
    ]);
    let screen = zp.wait_screen("w", |s| s.contains(" end"));
    let wmem_max: usize = std::fs::read_to_string("/proc/sys/net/core/wmem_max")
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let want = 2 * wmem_max.min(1 << 20);
    assert!(
        screen.contains(&format!("sndbuf {want} end")),
        "{screen:?}, want {want}"
    );
}

#[test]
fn a_program_that_never_reads_blocks_nobody() {
    let zp = Zp::new("noread");
    zp.ok(&["new-session", "-d", "-s", "deaf", "sleep 100"]);
    zp.ok(&["new-session", "-d", "-s", "other", "cat"]);
    let big = "y".repeat(100_000);
    for _ in 0..5 {
        zp.ok(&["send-keys", "-t", "deaf", "-l", &big]);
    }
    zp.ok(&["send-keys", "-t", "other", "still-alive", "Enter"]);
    zp.wait_screen("other", |s| s.matches("still-alive").count() == 2);
}

#[test]
fn garbage_and_vanishing_clients_change_nothing() {
    let zp = Zp::new("garbage");
    zp.ok(&["new-session", "-d", "-s", "g", "cat"]);
    let sock = zp.socket();
    use std::io::Write;
    for junk in [
        &b"\x00\xff{{{{\n"[..],
        b"{\"argv\":",
        b"[]\n",
        b"{\"argv\":[\"kill-ser",
    ] {
        let mut s = std::os::unix::net::UnixStream::connect(&sock).unwrap();
        s.write_all(junk).unwrap();
        drop(s);
    }
    zp.ok(&["has-session", "-t", "g"]);
    zp.ok(&["send-keys", "-t", "g", "ok", "Enter"]);
    zp.wait_screen("g", |s| s.contains("ok\nok"));
}

/// A configuration file whose only session ends at once leaves the server with nothing to
/// serve; the client that started it is served all the same, as under tmux (tmux's regress
/// `new-session-environment.sh` starts its servers so). Repeated because the client once
/// connected only after the server was ready, and lost a race with its exit.
#[test]
fn the_client_that_starts_a_server_is_served_though_its_sessions_end_at_once() {
    let zp = Zp::new("quickcfg");
    let config = zp.dir.join("conf");
    std::fs::write(&config, "new -- /bin/sh -c true\n").unwrap();
    let config = format!("-f{}", config.display());
    for round in 0..100 {
        let o = zp.cmd(&[
            &config,
            "start-server",
            ";",
            "display-message",
            "-p",
            "served",
        ]);
        assert!(
            o.status.success() && o.stdout == b"served\n",
            "round {round}: {}",
            stderr(&o)
        );
        // The server exits once its session and this client are gone.
        let deadline = Instant::now() + Duration::from_secs(10);
        while !stderr(&zp.cmd(&["ls"])).contains("no server running") {
            assert!(
                Instant::now() < deadline,
                "round {round}: the server stayed"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// What the starter of a server left open without close-on-exec is not kept by the server,
/// as tmux's server closes it: a caller reading a pipe to its end (`$(...)` around a script
/// that starts sessions) is not held up for the server's lifetime.
#[test]
fn a_server_keeps_nothing_its_starter_left_open() {
    let zp = Zp::new("inherited");
    let script = format!(
        "exec 7>&1; ZEROPTY_TMPDIR={} {} new-session -d -s s 'sleep 100' >/dev/null; echo started",
        zp.dir.display(),
        env!("CARGO_BIN_EXE_zeropty")
    );
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut all = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut all);
        let _ = done.send(all);
    });
    let got = finished.recv_timeout(Duration::from_secs(10));
    zp.ok(&["kill-server"]);
    let _ = child.wait();
    assert_eq!(
        got.as_deref(),
        Ok("started\n"),
        "the pipe ended with its writers"
    );
}

#[test]
fn jobs_run_while_the_server_serves_everyone() {
    let zp = Zp::new("jobs");
    zp.ok(&["new-session", "-d", "-s", "j", "cat"]);
    let bin = env!("CARGO_BIN_EXE_zeropty");
    // A job that asks this server something is answered while its run-shell waits for it
    // (as plugin managers' `run` lines do).
    let answer = zp.dir.join("answer");
    let job = format!(
        "{bin} display-message -p -t j 'from #{{session_name}}' > {}",
        answer.display()
    );
    zp.ok(&["run-shell", &job]);
    assert_eq!(std::fs::read_to_string(&answer).unwrap(), "from j\n");
    zp.ok(&[
        "if-shell",
        &format!("{bin} has-session -t j"),
        "set -g @seen yes",
    ]);
    assert_eq!(zp.ok(&["show-options", "-gv", "@seen"]), "yes\n");

    // A job that takes its time holds its own client only: others are answered, and its
    // client gets the job's exit status when it ends.
    let mut slow = std::process::Command::new(bin)
        .args(["run-shell", "-d", "0.5", "sleep 2; exit 4"])
        .env("ZEROPTY_TMPDIR", &zp.dir)
        .env_remove("ZEROPTY_PANE")
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    zp.ok(&["send-keys", "-t", "j", "meanwhile", "Enter"]);
    zp.wait_screen("j", |s| s.contains("meanwhile\nmeanwhile"));
    assert!(
        slow.try_wait().unwrap().is_none(),
        "the others were answered while the job ran"
    );
    assert_eq!(slow.wait().unwrap().code(), Some(4));
}

#[test]
fn commands_inside_a_session_target_it() {
    let zp = Zp::new("inside");
    zp.ok(&["new-session", "-d", "-s", "outer", "cat"]);
    let bin = env!("CARGO_BIN_EXE_zeropty");
    zp.ok(&[
        "new-session",
        "-d",
        "-s",
        "inner",
        &format!("{bin} display-message -p 'me=#{{session_name}}'; sleep 100"),
    ]);
    zp.wait_screen("inner", |s| s.contains("me=inner"));
}

#[test]
fn version_as_zeropty_and_as_tmux() {
    let out = Command::new(env!("CARGO_BIN_EXE_zeropty"))
        .arg("-V")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("zeropty {}\n", env!("CARGO_PKG_VERSION"))
    );
    let dir = std::env::temp_dir().join(format!("zp-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("tmux");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_zeropty"), &link).unwrap();
    let out = Command::new(&link).arg("-V").output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "tmux 3.3a\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn formats_show_what_sessions_cost() {
    let zp = Zp::new("memory");
    let bytes = |target: &str, format: &str| -> usize {
        let out = zp.ok(&["display-message", "-p", "-t", target, format]);
        out.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{format}: {out:?}"))
    };
    zp.ok(&[
        "new-session",
        "-d",
        "-s",
        "small",
        "-x",
        "80",
        "-y",
        "24",
        "cat",
    ]);
    zp.ok(&[
        "new-session",
        "-d",
        "-s",
        "big",
        "-x",
        "80",
        "-y",
        "24",
        "seq 1 5000; exec cat",
    ]);
    // seq is done once its last line shows; history is then over 1800 lines (tmux trims it
    // a tenth at a time past the 2000-line limit).
    zp.wait_screen("big", |s| s.contains("5000"));
    assert!(bytes("big", "#{history_size}") >= 1800);
    let small = bytes("small", "#{pane_memory}");
    let big = bytes("big", "#{pane_memory}");
    assert!(small > 0, "a screen costs something");
    assert!(
        big > small + 1800 * 4,
        "1800 lines of history cost more: {big} against {small}"
    );
    // A session's cost is its panes'.
    zp.ok(&["new-window", "-d", "-t", "small", "cat"]);
    let panes: usize = zp
        .ok(&["list-panes", "-s", "-t", "small", "-F", "#{pane_memory}"])
        .lines()
        .map(|l| l.parse::<usize>().unwrap())
        .sum();
    assert_eq!(bytes("small", "#{session_memory}"), panes);
    // The server's is its sessions' and its buffers'.
    let sessions = bytes("small", "#{session_memory}") + bytes("big", "#{session_memory}");
    assert_eq!(bytes("small", "#{server_memory}"), sessions);
    zp.ok(&["set-buffer", "-b", "b", &"x".repeat(10_000)]);
    assert!(bytes("small", "#{server_memory}") >= sessions + 10_000);
}

/// With every descriptor in use, a session that cannot start says why as tmux does, and
/// connections the server cannot accept yet do not make it spin: it stops watching its socket
/// for a second (as tmux does) and serves them once descriptors are free again.
#[test]
fn a_server_out_of_descriptors_refuses_sessions_and_waits_for_connections() {
    const FILES: u64 = 48;
    let zp = Zp::new("nofile").with_open_file_limit(FILES);
    zp.ok(&["new-session", "-d", "-s", "s0", "exec sleep 100"]);
    let pid = zp.ok(&["display-message", "-p", "#{pid}"]);
    let mut started = 1;
    let refusal = loop {
        let name = format!("s{started}");
        let o = zp.cmd(&["new-session", "-d", "-s", &name, "exec sleep 100"]);
        if !o.status.success() {
            break stderr(&o);
        }
        started += 1;
        assert!(
            started < FILES,
            "{started} sessions with {FILES} descriptors"
        );
    };
    assert_eq!(
        refusal,
        "create window failed: fork failed: Too many open files\n"
    );
    // Connections that take the last descriptors, and more that wait to be accepted.
    let held: Vec<_> = (0..8)
        .map(|_| std::os::unix::net::UnixStream::connect(zp.socket()).unwrap())
        .collect();
    let cpu_ticks = || {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).unwrap();
        let after_name = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<u64> = after_name
            .split(' ')
            .skip(11)
            .take(2)
            .map(|f| f.parse().unwrap())
            .collect();
        fields[0] + fields[1]
    };
    std::thread::sleep(Duration::from_millis(200));
    let before = cpu_ticks();
    std::thread::sleep(Duration::from_secs(2));
    let spent = cpu_ticks() - before;
    // A server that spins on its socket takes a core (200 ticks in 2 s, or its share of a
    // busy machine); one that waits takes next to none.
    assert!(
        spent < 40,
        "{spent} ticks of CPU in 2 s while out of descriptors"
    );
    drop(held);
    let listed = zp.ok(&["list-sessions", "-F", "#{session_name}"]);
    assert_eq!(listed.lines().count(), started as usize);
}

/// A frame as the protocol writes it (type, 4-byte big-endian length, payload).
fn frame(kind: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![kind];
    f.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    f.extend_from_slice(payload);
    f
}

/// Control clients that send junk, overlong lines, frames of unknown or impossible kinds, or
/// vanish without reading while their pane floods: the server answers what it can, lets them
/// go, and serves everyone else as before.
#[test]
fn hostile_control_clients_change_nothing() {
    use std::io::{Read, Write};
    let zp = Zp::new("ctlhostile");
    zp.ok(&["new-session", "-d", "-s", "g", "cat"]);
    let sock = zp.socket();
    let attach = concat!(
        "{\"argv\":[\"attach-session\",\"-t\",\"g\"],\"control\":true,",
        "\"terminal\":{\"cols\":80,\"rows\":24,\"term\":\"xterm\",\"tty\":\"\",\"pid\":1,\"utf8\":true}}\n"
    );
    let connect = || {
        let mut s = std::os::unix::net::UnixStream::connect(&sock).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(attach.as_bytes()).unwrap();
        s
    };
    // Junk, a line over the input bound, a good line, the end of input, then more frames.
    let mut s = connect();
    let mut junk = frame(b'I', b"\x00\xff{{\n");
    junk.extend(frame(b'I', &vec![b'x'; 3 << 20]));
    junk.extend(frame(b'I', b"\ndisplay -p still-here\n"));
    junk.extend(frame(b'Z', b"unknown kind"));
    junk.extend(frame(b'E', b""));
    junk.extend(frame(b'I', b"display -p after-the-end\n"));
    s.write_all(&junk).unwrap();
    let mut seen = Vec::new();
    let _ = s.read_to_end(&mut seen);
    let seen = String::from_utf8_lossy(&seen);
    assert!(seen.contains("\"attached\":true"), "{seen:.300}");
    assert!(seen.contains("parse error: "), "{seen:.300}");
    assert!(
        seen.contains("parse error: command too long"),
        "{seen:.300}"
    );
    assert!(seen.contains("still-here"), "{seen:.300}");
    assert!(!seen.contains("after-the-end"), "{seen:.300}");
    // An impossible frame length ends the connection.
    let mut s = connect();
    s.write_all(&[b'I', 0xff, 0xff, 0xff, 0xff]).unwrap();
    let _ = s.read_to_end(&mut Vec::new());
    // One that never reads while its pane floods, then vanishes.
    let s = connect();
    zp.ok(&["send-keys", "-t", "g", "-l", &"y".repeat(100_000)]);
    std::thread::sleep(Duration::from_millis(500));
    drop(s);
    zp.ok(&["has-session", "-t", "g"]);
    zp.ok(&["send-keys", "-t", "g", "C-u", "ok", "Enter"]);
    zp.wait_screen("g", |s| s.contains("ok\nok"));
    wait_for(
        || zp.ok(&["list-clients", "-F", "#{client_name}"]),
        |clients| clients.is_empty(),
    );
}
