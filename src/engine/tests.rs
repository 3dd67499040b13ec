//! The engine against a fake host: programs are byte queues the test fills and reads, time
//! stands still, and nothing touches the operating system. What these tests hold is the
//! engine's side of the host contract: when bytes reach programs, when output is read, what
//! it asks the host to start.

use super::attach::Exit;
use super::os::{Backend, Clock, IoEvent, IoId, Programs, SpawnRequest, Spawned, User, Watch};
use super::pane::BUSY_BYTES;
use super::{Engine, Reply, Request};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io;
use std::rc::Rc;

/// What the fake programs did, shared between the test and the host inside the engine.
#[derive(Default)]
pub(super) struct World {
    spawned: Vec<SpawnRequest>,
    /// Output programs have written that the engine has not read yet.
    output: HashMap<IoId, Vec<u8>>,
    /// Everything the engine wrote to each program.
    input: HashMap<IoId, Vec<u8>>,
    /// Whether the engine watches each terminal for output, as it last asked (a terminal
    /// is watched from its start).
    watched_readable: HashMap<IoId, bool>,
    /// Whether the engine wants each terminal's events reported at once, as it last asked.
    prompt: HashMap<IoId, bool>,
    /// Terminals whose watch the engine last asked to be steady (it stays after a report).
    steady: HashSet<IoId>,
    /// The monotonic clock (ms), moved by the test.
    pub(super) now: u64,
    /// How far the clock moves at each look (0: only the test moves it).
    clock_step: u64,
    /// How full each program's side of its terminal is (percent), where the test says.
    fill: HashMap<IoId, u32>,
    /// How many times the engine asked how full a program's side is.
    fill_asks: usize,
    /// How many times the engine asked how much output is queued.
    queue_asks: usize,
    /// Terminals whose programs closed their side: once their output is read, end of file.
    closed: HashSet<IoId>,
    /// Jobs started (`run-shell`, `if-shell`): their command, id and pid.
    pub(super) jobs: Vec<(String, IoId, i32)>,
    /// Wait statuses of ended children, by pid, for `reap`.
    pub(super) statuses: HashMap<i32, i32>,
}

struct FakeHost {
    world: Rc<RefCell<World>>,
    /// What `read` lends out.
    read_buf: Vec<u8>,
}

impl World {
    /// The program behind `io` writes `bytes` (after what it wrote before, unread).
    pub(super) fn program_writes(&mut self, io: IoId, bytes: &[u8]) {
        self.output.entry(io).or_default().extend_from_slice(bytes);
    }

    fn watching_output(&self, io: IoId) -> bool {
        self.watched_readable.get(&io).copied().unwrap_or(true)
    }
}

impl Clock for FakeHost {
    fn now_ms(&self) -> u64 {
        let mut w = self.world.borrow_mut();
        w.now += w.clock_step;
        w.now
    }

    fn wall_time(&self) -> i64 {
        1_700_000_000
    }
}

impl Programs for FakeHost {
    fn spawn(&mut self, req: &SpawnRequest) -> io::Result<Spawned> {
        let mut world = self.world.borrow_mut();
        world.spawned.push(req.clone());
        let io = world.spawned.len() as IoId;
        Ok(Spawned {
            io,
            pid: 1000 + io as i32,
            token: "token".into(),
            slot: io,
            tty: String::new(),
            backend: req.backend,
        })
    }

    fn read(&mut self, io: IoId) -> io::Result<&[u8]> {
        let mut world = self.world.borrow_mut();
        let waiting = std::mem::take(world.output.entry(io).or_default());
        if waiting.is_empty() && world.closed.contains(&io) {
            self.read_buf.clear();
            return Ok(&self.read_buf);
        }
        if waiting.is_empty() {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        self.read_buf = waiting;
        Ok(&self.read_buf)
    }

    fn write(&mut self, io: IoId, data: &[u8]) -> io::Result<usize> {
        let mut world = self.world.borrow_mut();
        world.input.entry(io).or_default().extend_from_slice(data);
        Ok(data.len())
    }

    fn pending_output(&self, io: IoId) -> usize {
        let mut world = self.world.borrow_mut();
        world.queue_asks += 1;
        world.output.get(&io).map_or(0, Vec::len)
    }

    fn output_fill(&self, io: IoId) -> Option<u32> {
        let mut world = self.world.borrow_mut();
        world.fill_asks += 1;
        world.fill.get(&io).copied()
    }

    fn watch(&mut self, io: IoId, want: Watch) {
        let mut world = self.world.borrow_mut();
        world.watched_readable.insert(io, want.readable);
        world.prompt.insert(io, want.prompt);
        if want.steady && want.readable && !want.writable {
            world.steady.insert(io);
        } else {
            world.steady.remove(&io);
        }
    }
    fn watch_fired(&mut self, io: IoId) {
        // As the real host: a reported terminal is watched again only when the engine asks,
        // unless its watch is steady.
        let mut world = self.world.borrow_mut();
        if !world.steady.contains(&io) {
            world.watched_readable.insert(io, false);
        }
    }
    fn close(&mut self, _io: IoId) {}
    fn release(&mut self, _io: IoId) {}
    fn reap(&mut self, pid: i32) -> Option<i32> {
        self.world.borrow_mut().statuses.remove(&pid)
    }
    fn signal_group(&mut self, _pgrp: i32, _signal: i32) {}
    fn set_window_size(&mut self, _slot: u64, _cols: u16, _rows: u16) {}
    fn foreground_group(&self, _slot: u64) -> Option<i32> {
        None
    }
    fn process_cwd(&self, _pid: i32) -> Option<String> {
        None
    }
    fn process_name(&self, _pid: i32) -> Option<String> {
        Some("prog".into())
    }

    /// Only /bin/sh and /bin/bash exist in this world.
    fn is_shell(&self, path: &str) -> bool {
        path == "/bin/sh" || path == "/bin/bash"
    }

    fn user_shell(&self, shell_variable: Option<&str>) -> String {
        shell_variable
            .filter(|s| self.is_shell(s))
            .unwrap_or("/bin/sh")
            .into()
    }

    fn host_name(&self) -> String {
        "fakehost".into()
    }

    fn user(&self) -> User {
        User {
            id: 1000,
            name: "fakeuser".into(),
        }
    }

    fn read_file(&self, _path: &str) -> io::Result<Vec<u8>> {
        Err(io::ErrorKind::NotFound.into())
    }

    fn start_job(
        &mut self,
        command: &str,
        _cwd: &str,
        _env: &[(String, String)],
    ) -> io::Result<(IoId, i32)> {
        let mut world = self.world.borrow_mut();
        let n = world.jobs.len() as u64;
        let (io, pid) = (JOB_IDS + n, 50_000 + n as i32);
        world.jobs.push((command.to_string(), io, pid));
        Ok((io, pid))
    }
}

/// Where the fake host numbers jobs (far from terminals).
const JOB_IDS: IoId = 1 << 40;

/// An engine on a fake host whose environment says `SHELL=shell`.
pub(super) fn engine(shell: &str) -> (Engine, Rc<RefCell<World>>) {
    let world = Rc::new(RefCell::new(World {
        now: 1_000,
        ..World::default()
    }));
    let host = FakeHost {
        world: world.clone(),
        read_buf: Vec::new(),
    };
    let environ = BTreeMap::from([("SHELL".to_string(), shell.to_string())]);
    (
        Engine::new(Box::new(host), environ, "/fake/socket", 1),
        world,
    )
}

fn run(e: &mut Engine, argv: &[&str]) -> Reply {
    let req = Request {
        argv: argv.iter().map(|a| a.to_string()).collect(),
        cwd: "/".into(),
        ..Request::default()
    };
    e.run(&req)
}

fn ok(e: &mut Engine, argv: &[&str]) -> String {
    let reply = run(e, argv);
    assert_eq!(
        reply.code,
        0,
        "{argv:?}: {}",
        String::from_utf8_lossy(&reply.err)
    );
    String::from_utf8(reply.out).unwrap()
}

/// A session whose program has queued `output`, its side of the socket `fill` percent full,
/// and has just reported it; its IoId.
fn reported(output: &[u8], fill: u32) -> (Engine, Rc<RefCell<World>>, IoId) {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    world.borrow_mut().fill.insert(io, fill);
    world.borrow_mut().output.insert(io, output.to_vec());
    e.io_event(io, IoEvent::Readable);
    (e, world, io)
}

/// A session `a` of 20x5 running one program, on the socket backend; its IoId.
fn session(e: &mut Engine) -> IoId {
    ok(
        e,
        &[
            "new-session",
            "-d",
            "-s",
            "a",
            "-x",
            "20",
            "-y",
            "5",
            "prog",
        ],
    );
    1
}

#[test]
fn keys_reach_the_program_at_the_end_of_the_turn() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    ok(&mut e, &["send-keys", "-t", "a", "hi", "Enter"]);
    // The line discipline echoed at once; the program gets its line when the turn ends,
    // after the host has sent the reply.
    assert!(ok(&mut e, &["capture-pane", "-p", "-t", "a"]).starts_with("hi\n"));
    assert!(world.borrow().input.get(&io).is_none_or(Vec::is_empty));
    assert_eq!(
        e.next_deadline(),
        Some(1_000),
        "a host that waits for deadlines ticks now"
    );
    e.tick();
    assert_eq!(world.borrow().input[&io], b"hi\n");
    assert_eq!(
        e.next_deadline(),
        Some(1_200),
        "nothing more now: the next boundary, to freeze the screen the echo thawed"
    );
}

#[test]
fn quiet_output_waits_for_the_batch_boundary_unless_a_reader_comes_first() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    world.borrow_mut().output.insert(io, b"first\r\n".to_vec());
    e.io_event(io, IoEvent::Readable);
    assert_eq!(
        world.borrow().output[&io],
        b"first\r\n",
        "deferred, not read"
    );
    assert!(!world.borrow().watching_output(io), "no wakeups meanwhile");
    assert_eq!(e.next_deadline(), Some(1_005), "a probe of its queue");
    world.borrow_mut().now = 1_005;
    e.tick();
    assert!(
        !world.borrow().watching_output(io),
        "its queue did not grow"
    );
    // Looked at for a flood every 50 ms (one ioctl each): it stays quiet.
    for late_look in [1_050, 1_100, 1_150] {
        assert_eq!(e.next_deadline(), Some(late_look));
        world.borrow_mut().now = late_look;
        e.tick();
        assert!(!world.borrow().watching_output(io));
    }
    assert_eq!(e.next_deadline(), Some(1_200), "the next 300 ms boundary");
    world.borrow_mut().now = 1_199;
    e.tick();
    assert!(
        !world.borrow().output[&io].is_empty(),
        "not before the boundary"
    );
    world.borrow_mut().now = 1_200;
    e.tick();
    assert!(
        world.borrow().output[&io].is_empty(),
        "read at the boundary"
    );
    assert!(world.borrow().watching_output(io));
    assert_eq!(
        e.next_deadline(),
        Some(1_500),
        "only the freezer's next look"
    );

    // A reader never sees a stale screen: deferred output and output no event has announced
    // yet are read before it answers.
    world.borrow_mut().output.insert(io, b"second\r\n".to_vec());
    e.io_event(io, IoEvent::Readable);
    world.borrow_mut().program_writes(io, b"third");
    let screen = ok(&mut e, &["capture-pane", "-p", "-t", "a"]);
    assert!(screen.starts_with("first\nsecond\nthird\n"), "{screen:?}");
    assert!(world.borrow().watching_output(io));
}

#[test]
fn a_queue_that_grows_after_its_pane_was_deferred_makes_the_pane_busy() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    world.borrow_mut().output.insert(io, b"1\r\n".to_vec());
    e.io_event(io, IoEvent::Readable);
    assert!(!world.borrow().watching_output(io));
    // Small writes fill a socket long before their bytes add up: growth is the sign.
    world.borrow_mut().program_writes(io, &b"2\r\n".repeat(50));
    world.borrow_mut().now = 1_005;
    e.tick();
    assert!(world.borrow().output[&io].is_empty(), "read at the probe");
    assert!(world.borrow().watching_output(io), "and whenever it writes");
    assert!(e.panes().next().unwrap().busy);
    e.tick();
    let screen = ok(&mut e, &["capture-pane", "-p", "-S", "-", "-t", "a"]);
    assert!(screen.starts_with("1\n2\n"), "{screen:?}");
}

#[test]
fn a_pane_read_as_it_writes_is_watched_again_after_each_event() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    // A bulk writer: busy at its first event, and read at each one after.
    world.borrow_mut().output.insert(io, vec![b'x'; BUSY_BYTES]);
    e.io_event(io, IoEvent::Readable);
    assert!(e.panes().next().unwrap().busy);
    for _ in 0..3 {
        assert!(world.borrow().watching_output(io));
        world.borrow_mut().program_writes(io, b"more");
        e.io_event(io, IoEvent::Readable);
        assert!(world.borrow().output[&io].is_empty(), "read at once");
    }
    assert!(world.borrow().watching_output(io));
}

#[test]
fn a_queue_too_short_to_fill_anything_is_not_asked_about() {
    // A spinner frame: the kernel is not asked, and the pane waits for the boundary.
    let (mut e, world, io) = reported(&[b'x'; 67], 3);
    world.borrow_mut().now = 1_005;
    e.tick();
    assert_eq!(world.borrow().fill_asks, 0);
    assert!(!world.borrow().watching_output(io), "still deferred");
    // A queue that could be filling its socket is read when the pane reports it, not asked
    // about; the pane stays deferred, and its queue is looked at once.
    world.borrow_mut().now = 1_200;
    e.tick();
    assert!(world.borrow().watching_output(io), "read at the boundary");
    world.borrow_mut().output.insert(io, vec![b'y'; 200]);
    e.io_event(io, IoEvent::Readable);
    assert!(world.borrow().output[&io].is_empty(), "read at once");
    assert!(!world.borrow().watching_output(io), "still deferred");
    let screen = ok(&mut e, &["capture-pane", "-p", "-t", "a"]);
    assert!(screen.contains("yyyy"), "{screen:?}");
    assert_eq!(e.next_deadline(), Some(1_205), "a look");
    world.borrow_mut().now = 1_205;
    e.tick();
    assert_eq!(world.borrow().fill_asks, 0);
    assert!(!e.panes().next().unwrap().busy);
    assert_eq!(e.next_deadline(), Some(1_500), "the boundary");
}

#[test]
fn how_full_the_programs_side_is_decides_over_byte_counts() {
    // Many small writes: few bytes, but by the probe the program is about to block.
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    world.borrow_mut().output.insert(io, b"1\r\n".repeat(50));
    e.io_event(io, IoEvent::Readable);
    assert!(
        !world.borrow().watching_output(io),
        "deferred: nothing is full yet"
    );
    world.borrow_mut().program_writes(io, &b"1\r\n".repeat(50));
    world.borrow_mut().fill.insert(io, 60);
    world.borrow_mut().now = 1_005;
    e.tick();
    assert!(e.panes().next().unwrap().busy, "read at the probe");
    assert!(world.borrow().output[&io].is_empty());

    // The same writer blocked on its full socket before its event was handled: read at once,
    // and the writer, free again, writes on: busy at the look.
    let (mut e, world, io) = reported(&b"1\r\n".repeat(100), 100);
    assert!(world.borrow().output[&io].is_empty(), "read at once");
    assert!(!e.panes().next().unwrap().busy);
    world.borrow_mut().program_writes(io, &b"2\r\n".repeat(100));
    world.borrow_mut().now = 1_005;
    e.tick();
    assert!(e.panes().next().unwrap().busy, "busy at the look");
    assert!(world.borrow().output[&io].is_empty());
    assert!(world.borrow().watching_output(io));

    // A few large frames: the queue grew by the probe, but far from blocking.
    let (mut e, world, io) = reported(&[b'x'; 6000], 12);
    world.borrow_mut().program_writes(io, &[b'y'; 6000]);
    world.borrow_mut().now = 1_005;
    e.tick();
    assert!(!world.borrow().watching_output(io), "still deferred");
    assert!(!e.panes().next().unwrap().busy);
}

#[test]
fn a_writer_that_speeds_up_after_the_first_look_is_caught_before_the_boundary() {
    let (mut e, world, io) = reported(b"start\r\n", 5);
    assert_eq!(e.next_deadline(), Some(1_005));
    // It goes on writing a little: looked at again, each time twice as long after.
    for (now, next) in [(1_005, 1_015), (1_015, 1_035)] {
        world.borrow_mut().program_writes(io, b"more\r\n");
        world.borrow_mut().now = now;
        e.tick();
        assert!(
            !world.borrow().watching_output(io),
            "still deferred at {now}"
        );
        assert_eq!(e.next_deadline(), Some(next));
    }
    // Then as fast as it can: busy at the next look, not at the boundary (1,200).
    world
        .borrow_mut()
        .program_writes(io, &b"fast\r\n".repeat(100));
    world.borrow_mut().fill.insert(io, 60);
    world.borrow_mut().now = 1_035;
    e.tick();
    assert!(e.panes().next().unwrap().busy);
    assert!(world.borrow().output[&io].is_empty(), "read at once");
    assert!(world.borrow().watching_output(io));

    // A program that wrote one frame and stopped is only looked at for a flood.
    let (mut e, world, _) = reported(b"frame\r\n", 5);
    world.borrow_mut().now = 1_005;
    e.tick();
    assert_eq!(e.next_deadline(), Some(1_050), "a late look, not a probe");
}

/// A program that printed a prompt, was quiet at its probe, and has written `bytes` (its side
/// of the socket `fill` percent full) by the first late look, which has just happened.
fn prompt_then_at_late_look(bytes: &[u8], fill: u32) -> (Engine, Rc<RefCell<World>>, IoId) {
    let (mut e, world, io) = reported(b"$ ", 1);
    world.borrow_mut().now = 1_005;
    e.tick();
    world.borrow_mut().program_writes(io, bytes);
    world.borrow_mut().fill.insert(io, fill);
    world.borrow_mut().now = 1_050;
    e.tick();
    (e, world, io)
}

#[test]
fn a_program_quiet_at_its_look_that_then_fills_its_socket_with_short_writes_is_busy_then() {
    // Empty lines, a write each: the socket is full with fewer bytes than a flood is read
    // for, so the kernel is asked, and the pane is busy at the late look.
    let (e, world, io) = prompt_then_at_late_look(&[b'\n'; 2_700], 100);
    assert_eq!(world.borrow().fill_asks, 1);
    assert!(e.panes().next().unwrap().busy);
    assert!(
        world.borrow().output[&io].is_empty(),
        "read at the late look"
    );
    assert!(world.borrow().watching_output(io));

    // The same bytes from a program that wrote them as a frame (its socket far from full):
    // left for the boundary.
    let (mut e, world, io) = prompt_then_at_late_look(&[b'x'; 2_700], 3);
    assert_eq!(world.borrow().fill_asks, 1);
    assert!(!e.panes().next().unwrap().busy);
    assert_eq!(world.borrow().output[&io].len(), 2_702, "not read");

    // A program at work (its last interval read more than a spinner's frame) is not asked
    // about: its frames wait for the boundary.
    tick_at(&mut e, &world, &[1_100, 1_150, 1_200]);
    assert!(
        world.borrow().output[&io].is_empty(),
        "read at the boundary"
    );
    world.borrow_mut().now = 1_210;
    world.borrow_mut().program_writes(io, b"*");
    e.io_event(io, IoEvent::Readable);
    tick_at(&mut e, &world, &[1_215]);
    world.borrow_mut().program_writes(io, &[b'y'; 2_700]);
    tick_at(&mut e, &world, &[1_250]);
    assert_eq!(world.borrow().fill_asks, 1);
    assert_eq!(world.borrow().output[&io].len(), 2_701, "not read");
}

#[test]
fn a_program_quiet_at_its_look_that_then_floods_is_read_at_the_next_late_look() {
    let (mut e, world, io) = reported(b"$ ", 1);
    world.borrow_mut().now = 1_005;
    e.tick();
    assert_eq!(e.next_deadline(), Some(1_050));
    // A spinner's worth of output by the late look: left for the boundary.
    world.borrow_mut().program_writes(io, &[b's'; 300]);
    world.borrow_mut().now = 1_050;
    e.tick();
    assert_eq!(world.borrow().output[&io].len(), 302, "not read");
    assert_eq!(world.borrow().fill_asks, 0);
    assert_eq!(e.next_deadline(), Some(1_100));
    // Then a command prints lines as fast as it can: read at the next late look, which
    // frees the writer, and busy at the probe after.
    let lines: Vec<u8> = (0..2_000)
        .flat_map(|i| format!("{i}\r\n").into_bytes())
        .collect();
    world.borrow_mut().program_writes(io, &lines);
    world.borrow_mut().fill.insert(io, 100);
    world.borrow_mut().now = 1_100;
    e.tick();
    assert!(
        world.borrow().output[&io].is_empty(),
        "read at the late look"
    );
    assert!(!e.panes().next().unwrap().busy);
    assert_eq!(e.next_deadline(), Some(1_105), "a probe");
    world.borrow_mut().program_writes(io, &lines);
    world.borrow_mut().fill.insert(io, 90);
    world.borrow_mut().now = 1_105;
    e.tick();
    assert!(
        e.panes().next().unwrap().busy,
        "busy well before the boundary"
    );
    assert!(world.borrow().watching_output(io));
    let screen = ok(&mut e, &["capture-pane", "-p", "-t", "a"]);
    assert!(screen.contains("1999"), "{screen:?}");
}

#[test]
fn busy_output_is_read_at_once_and_parsed_when_the_writer_pauses() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    let line = b"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\r\n";
    let burst: Vec<u8> = line.repeat(super::reads::BUSY_INTERVAL_BYTES / line.len() + 1);
    world.borrow_mut().output.insert(io, burst.clone());
    e.io_event(io, IoEvent::Readable);
    assert!(
        world.borrow().output[&io].is_empty(),
        "a full queue is read at once"
    );
    assert!(world.borrow().watching_output(io));
    let pane = e.panes().next().unwrap();
    assert_eq!(
        pane.backlog_len(),
        burst.len(),
        "read ahead, not parsed yet"
    );
    assert_eq!(
        e.next_deadline(),
        Some(1_000 + super::reads::PAUSE_MS),
        "parsed once the writer pauses"
    );
    // The writer keeps going: its output is read ahead at once, still not parsed, and the
    // pause is counted from it.
    world.borrow_mut().now = 1_004;
    e.tick();
    world.borrow_mut().output.insert(io, b"last\r\n".to_vec());
    e.io_event(io, IoEvent::Readable);
    assert_eq!(e.panes().next().unwrap().backlog_len(), burst.len() + 6);
    world.borrow_mut().now = 1_000 + super::reads::PAUSE_MS;
    e.tick();
    assert_eq!(e.panes().next().unwrap().backlog_len(), burst.len() + 6);
    // It pauses: everything is parsed in order.
    world.borrow_mut().now = 1_004 + super::reads::PAUSE_MS;
    e.tick();
    let pane = e.panes().next().unwrap();
    assert_eq!(pane.backlog_len(), 0);
    assert_eq!(pane.bytes_read, burst.len() as u64 + 6);
    let screen = ok(&mut e, &["capture-pane", "-p", "-t", "a"]);
    assert!(screen.contains("cde\nlast\n"), "in order: {screen:?}");

    // Busy while it writes a batch's worth an interval; back to batched reads after one
    // quiet interval.
    assert!(e.panes().next().unwrap().busy);
    world.borrow_mut().now = 1_200;
    e.tick();
    assert!(
        e.panes().next().unwrap().busy,
        "it wrote a batch's worth since 1000"
    );
    assert_eq!(e.next_deadline(), Some(1_500));
    world.borrow_mut().now = 1_500;
    e.tick();
    assert!(!e.panes().next().unwrap().busy);
    world.borrow_mut().output.insert(io, b"quiet\r\n".to_vec());
    e.io_event(io, IoEvent::Readable);
    assert!(!world.borrow().watching_output(io), "deferred again");
}

#[test]
fn programs_run_under_a_usable_shell() {
    // SHELL names no shell of this world: /bin/sh, as tmux falls back.
    let (mut e, world) = engine("/usr/bin/nonexistent");
    session(&mut e);
    ok(&mut e, &["set-option", "-g", "default-shell", "/bin/bash"]);
    ok(&mut e, &["new-window", "-t", "a", "prog"]);
    let reply = run(&mut e, &["set-option", "-g", "default-shell", "/bin/zsh"]);
    assert_eq!(reply.err, b"not a suitable shell: /bin/zsh\n");
    let world = world.borrow();
    let shells: Vec<&str> = world.spawned.iter().map(|s| s.shell.as_str()).collect();
    assert_eq!(shells, ["/bin/sh", "/bin/bash"]);
    assert!(world.spawned.iter().all(|s| s.backend == Backend::Socket));
    let env: BTreeMap<_, _> = world.spawned[1].env.iter().cloned().collect();
    assert_eq!(env.get("SHELL").map(String::as_str), Some("/bin/bash"));
}

/// `n` numbered lines in eight colours, as a program writes them.
fn coloured_lines(n: u32) -> Vec<u8> {
    (0..n)
        .flat_map(|i| format!("\x1b[3{}mline {i}\x1b[m\r\n", i % 8).into_bytes())
        .collect()
}

/// `n` sessions whose screens froze at 1,500 ms, going cold at 11,500.
fn frozen_sessions(n: usize) -> (Engine, Rc<RefCell<World>>) {
    let (mut e, world) = engine("/bin/sh");
    for i in 0..n {
        let name = format!("s{i}");
        let args = [
            "new-session",
            "-d",
            "-s",
            &name,
            "-x",
            "20",
            "-y",
            "5",
            "prog",
        ];
        ok(&mut e, &args);
    }
    for io in 1..=n as IoId {
        world.borrow_mut().output.insert(io, coloured_lines(3));
        e.io_event(io, IoEvent::Readable);
    }
    // Read at the next batch boundary, frozen at the first after a quarter second of quiet.
    for now in [1_200, 1_500] {
        world.borrow_mut().now = now;
        e.tick();
    }
    assert_eq!(e.panes().filter(|p| p.term.is_frozen()).count(), n);
    world.borrow_mut().now = 11_500;
    (e, world)
}

fn cold_panes(e: &Engine) -> usize {
    e.panes().filter(|p| p.term.is_cold()).count()
}

#[test]
fn screens_going_cold_together_go_over_turns() {
    let n = super::freezer::COLD_PUTS_PER_TURN + 8;
    let (mut e, _world) = frozen_sessions(n);
    e.tick();
    assert_eq!(cold_panes(&e), super::freezer::COLD_PUTS_PER_TURN);
    assert_eq!(e.next_deadline(), Some(11_500), "the rest are due at once");
    e.tick();
    assert_eq!(cold_panes(&e), n);
    assert_eq!(e.next_deadline(), None);
}

#[test]
fn a_turn_starts_no_more_cold_moves_once_its_time_is_up() {
    let (mut e, world) = frozen_sessions(20);
    // Every look at the clock finds it 4 ms later: the third move starts 12 ms in.
    world.borrow_mut().clock_step = 4;
    e.tick();
    let moved = cold_panes(&e);
    assert!((1..20).contains(&moved), "{moved} moved");
    world.borrow_mut().clock_step = 0;
    e.tick();
    assert_eq!(cold_panes(&e), 20);
}

#[test]
fn quiet_screens_freeze_then_go_cold_and_come_back_whole() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    let text = coloured_lines(200);
    world.borrow_mut().output.insert(io, text);
    e.io_event(io, IoEvent::Readable);
    let whole = ["capture-pane", "-p", "-e", "-S", "-", "-t", "a"];
    let before = ok(&mut e, &whole);
    let state = |e: &Engine| {
        let p = e.panes().next().unwrap();
        (p.fold.state_name(p.term.is_frozen()), p.heap_bytes())
    };
    let (_, hot_bytes) = state(&e);
    assert_eq!(state(&e).0, "hot");

    // Checked at boundaries: 1200 is 200 ms after the capture, 1500 is 500.
    for (now, want) in [(1_200, "hot"), (1_500, "frozen")] {
        world.borrow_mut().now = now;
        e.tick();
        assert_eq!(state(&e).0, want, "at {now}");
    }
    let (_, frozen_bytes) = state(&e);
    assert!(
        frozen_bytes * 2 < hot_bytes,
        "{frozen_bytes} against {hot_bytes}"
    );
    assert_eq!(
        e.next_deadline(),
        Some(11_500),
        "nothing until it goes cold"
    );

    world.borrow_mut().now = 11_500;
    e.tick();
    let (name, cold_bytes) = state(&e);
    assert_eq!(name, "cold");
    assert!(cold_bytes < frozen_bytes);
    assert!(e.cold.live_bytes() > 0);
    assert_eq!(e.next_deadline(), None, "a server of cold screens sleeps");

    // Readers that need no rows leave it in the store.
    ok(&mut e, &["list-panes", "-a", "-F", "#{pane_pid}"]);
    assert_eq!(state(&e).0, "cold");
    // A reader of its rows gets it back whole, frozen, and it goes cold again in its turn.
    assert_eq!(ok(&mut e, &whole), before);
    assert_eq!(state(&e).0, "frozen");
    assert_eq!(e.cold.live_bytes(), 0);
    assert_eq!(e.next_deadline(), Some(21_500));
    world.borrow_mut().now = 21_500;
    e.tick();
    assert_eq!(state(&e).0, "cold");
}

#[test]
fn a_hot_screen_quiet_for_a_batch_interval_seals_its_history_before_it_freezes() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    let log = coloured_lines(2100);
    world.borrow_mut().now = 1_000;
    world.borrow_mut().output.insert(io, log);
    e.io_event(io, IoEvent::Readable);
    let pane_id = e.panes().next().unwrap().id;
    e.drain(pane_id);
    // A screen that kept thawing soon after freezing: it waits the longest before freezing.
    e.pane_mut(pane_id).unwrap().fold.freeze_after = super::freezer::FREEZE_AFTER_MAX_MS;
    let whole = ["capture-pane", "-p", "-e", "-S", "-", "-t", "a"];
    let before = ok(&mut e, &whole);
    let pane = |e: &Engine| {
        let p = e.panes().next().unwrap();
        let state = p.fold.state_name(p.term.is_frozen());
        (state, p.term.sealed_bytes(), p.heap_bytes())
    };
    let (_, _, unsealed) = pane(&e);
    world.borrow_mut().now = 1_200;
    e.tick();
    assert_eq!(pane(&e).1, 0, "quiet for less than a batch interval");
    world.borrow_mut().now = 1_500;
    e.tick();
    let (state, sealed, heap) = pane(&e);
    assert_eq!(state, "hot");
    assert!(
        sealed > 0 && heap < unsealed / 2,
        "{heap} bytes, {unsealed} before"
    );
    assert_eq!(ok(&mut e, &whole), before);
}

#[test]
fn a_screen_that_thaws_soon_after_freezing_waits_longer_next_time() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    let wait_after_output = |e: &mut Engine, start: u64| {
        world.borrow_mut().now = start;
        world.borrow_mut().output.insert(io, b"tick\r\n".to_vec());
        e.io_event(io, IoEvent::Readable);
        let pane_id = e.panes().next().unwrap().id;
        e.drain(pane_id);
        let mut now = start;
        while !e.panes().next().unwrap().term.is_frozen() {
            now += 300;
            world.borrow_mut().now = now;
            e.tick();
            assert!(now < start + 3_000, "never froze");
        }
        e.panes().next().unwrap().fold.freeze_after
    };
    assert_eq!(
        wait_after_output(&mut e, 1_000),
        super::freezer::FREEZE_AFTER_MS
    );
    // Output again within two seconds of freezing: the next wait doubles, up to the limit.
    assert_eq!(wait_after_output(&mut e, 1_700), 500);
    assert_eq!(wait_after_output(&mut e, 2_600), 1_000);
    assert_eq!(wait_after_output(&mut e, 3_800), 2_000);
    assert_eq!(wait_after_output(&mut e, 6_200), 2_000);
    // After a long frozen stretch, the short wait again.
    assert_eq!(
        wait_after_output(&mut e, 20_000),
        super::freezer::FREEZE_AFTER_MS
    );
}

/// Three sessions, each program's terminal numbered as its session was made.
fn sessions_a_b_c(e: &mut Engine) -> [IoId; 3] {
    for name in ["a", "b", "c"] {
        ok(e, &["new-session", "-d", "-s", name, "started"]);
    }
    [1, 2, 3]
}

#[test]
fn sessions_are_found_by_name_after_renames_removals_and_new_sessions() {
    let (mut e, _world) = engine("/bin/sh");
    sessions_a_b_c(&mut e);
    let id_of =
        |e: &mut Engine, name: &str| ok(e, &["display-message", "-p", "-t", name, "#{session_id}"]);
    // Every name is looked up once, so the places of a, b and c are remembered.
    assert_eq!(id_of(&mut e, "a"), "$0\n");
    assert_eq!(id_of(&mut e, "b"), "$1\n");
    assert_eq!(id_of(&mut e, "c"), "$2\n");
    // a goes: b and c move up the list, and their remembered places are stale.
    ok(&mut e, &["kill-session", "-t", "a"]);
    assert_eq!(id_of(&mut e, "c"), "$2\n");
    assert_eq!(id_of(&mut e, "b"), "$1\n");
    assert_eq!(run(&mut e, &["has-session", "-t", "=a"]).code, 1);
    // b takes the name a; a new session takes the name b at b's old place in the list.
    ok(&mut e, &["rename-session", "-t", "b", "a"]);
    ok(&mut e, &["new-session", "-d", "-s", "b", "started"]);
    assert_eq!(id_of(&mut e, "=a:"), "$1\n");
    assert_eq!(id_of(&mut e, "=b:"), "$3\n");
    assert_eq!(id_of(&mut e, "=c:"), "$2\n");
    let reply = run(&mut e, &["rename-session", "-t", "c", "b"]);
    assert_eq!(
        String::from_utf8_lossy(&reply.err),
        "duplicate session: b\n"
    );
}

#[test]
fn windows_whose_programs_wrote_take_their_programs_names() {
    let (mut e, world) = engine("/bin/sh");
    let [_, b, c] = sessions_a_b_c(&mut e);
    let names = |e: &mut Engine| {
        ok(
            e,
            &["list-windows", "-a", "-F", "#{session_name} #{window_name}"],
        )
    };
    assert_eq!(names(&mut e), "a started\nb started\nc started\n");
    // A window's name is checked at most every 500 ms, from its creation on.
    world.borrow_mut().now += 500;
    world.borrow_mut().program_writes(c, b"out\r\n");
    ok(&mut e, &["capture-pane", "-t", "c"]);
    assert_eq!(names(&mut e), "a started\nb started\nc prog\n");
    // With automatic-rename off, output leaves the change pending until it is turned on.
    ok(
        &mut e,
        &["set-window-option", "-t", "b", "automatic-rename", "off"],
    );
    world.borrow_mut().program_writes(b, b"out\r\n");
    ok(&mut e, &["capture-pane", "-t", "b"]);
    world.borrow_mut().now += 1_000;
    assert_eq!(names(&mut e), "a started\nb started\nc prog\n");
    ok(
        &mut e,
        &["set-window-option", "-t", "b", "automatic-rename", "on"],
    );
    assert_eq!(names(&mut e), "a started\nb prog\nc prog\n");
}

#[test]
fn a_session_whose_program_ended_goes_when_its_end_is_read() {
    let (mut e, world) = engine("/bin/sh");
    let [_, b, _] = sessions_a_b_c(&mut e);
    // Reported with nothing queued: a hangup, read at once.
    world.borrow_mut().closed.insert(b);
    e.io_event(b, IoEvent::Readable);
    assert_eq!(
        ok(&mut e, &["list-sessions", "-F", "#{session_name}"]),
        "a\nc\n"
    );
    assert_eq!(run(&mut e, &["has-session", "-t", "b"]).code, 1);
}

#[test]
fn a_session_whose_program_wrote_then_ended_goes_when_its_end_is_read() {
    let (mut e, world) = engine("/bin/sh");
    let [_, b, _] = sessions_a_b_c(&mut e);
    world.borrow_mut().program_writes(b, b"bye\r\n");
    world.borrow_mut().closed.insert(b);
    e.io_event(b, IoEvent::Readable);
    assert_eq!(
        ok(&mut e, &["list-sessions", "-F", "#{session_name}"]),
        "a\nb\nc\n"
    );
    // Read at the batch boundary (after looks at its queue), and watched again: the host
    // reports the hangup at once, and reading it ends the session.
    tick_at(&mut e, &world, &[1_005, 1_050, 1_200]);
    assert!(world.borrow().output[&b].is_empty());
    assert!(world.borrow().watching_output(b));
    e.io_event(b, IoEvent::Readable);
    assert_eq!(
        ok(&mut e, &["list-sessions", "-F", "#{session_name}"]),
        "a\nc\n"
    );
}

#[test]
fn a_pane_kept_dead_waits_for_its_programs_exit_without_blocking() {
    let (mut e, world) = engine("/bin/sh");
    let [_, b, _] = sessions_a_b_c(&mut e);
    ok(&mut e, &["set-option", "-g", "remain-on-exit", "on"]);
    let how = [
        "display-message",
        "-p",
        "-t",
        "b",
        "#{pane_dead} [#{pane_dead_status}]",
    ];
    // The terminal ends before the program can be collected: the pane waits, undrawn.
    world.borrow_mut().closed.insert(b);
    e.io_event(b, IoEvent::Readable);
    assert_eq!(ok(&mut e, &how), "0 []\n");
    assert!(!world.borrow().watching_output(b));
    let screen = ["capture-pane", "-p", "-t", "b"];
    assert!(!ok(&mut e, &screen).contains("Pane is dead"));
    // Its exit, reported by the host, draws the line with the status.
    world.borrow_mut().statuses.insert(1000 + b as i32, 3 << 8);
    e.io_event(b, IoEvent::Exited);
    assert_eq!(ok(&mut e, &how), "1 [3]\n");
    assert!(ok(&mut e, &screen).contains("Pane is dead (status 3, "));
}

#[test]
fn a_pane_not_kept_goes_without_waiting_for_its_programs_exit() {
    let (mut e, world) = engine("/bin/sh");
    let [_, b, _] = sessions_a_b_c(&mut e);
    world.borrow_mut().closed.insert(b);
    e.io_event(b, IoEvent::Readable);
    assert_eq!(run(&mut e, &["has-session", "-t", "b"]).code, 1);
    // The exit reported after the pane went is only passed back to the host.
    e.io_event(b, IoEvent::Exited);
    assert_eq!(
        ok(&mut e, &["list-sessions", "-F", "#{session_name}"]),
        "a\nc\n"
    );
}

/// Ticks the engine at each of `times` (monotonic ms).
fn tick_at(e: &mut Engine, world: &Rc<RefCell<World>>, times: &[u64]) {
    for &now in times {
        world.borrow_mut().now = now;
        e.tick();
    }
}

#[test]
fn a_program_silent_after_its_frames_is_watched_again_once_a_frame_is_read() {
    let (mut e, world, io) = reported(&[b'x'; 3000], 1);
    assert!(world.borrow().output[&io].is_empty(), "read at once");
    // Nothing follows; not known yet to be its way: looked at until the boundary, where the
    // read finds nothing.
    tick_at(&mut e, &world, &[1_005, 1_050, 1_100, 1_150, 1_200]);
    assert!(world.borrow().watching_output(io));
    // The next frame is read when reported and the pane stays watched: no probe, no late
    // looks, no boundary (only the freezer's deadline, a quarter second or more away).
    world.borrow_mut().now = 1_500;
    world.borrow_mut().program_writes(io, &[b'y'; 3000]);
    let asks = world.borrow().queue_asks;
    e.io_event(io, IoEvent::Readable);
    assert!(world.borrow().output[&io].is_empty());
    assert_eq!(
        world.borrow().queue_asks,
        asks,
        "read without asking its queue"
    );
    assert!(world.borrow().watching_output(io));
    assert!(
        world.borrow().steady.contains(&io),
        "its watch stays after a report: not renewed at each frame"
    );
    assert!(e.next_deadline().is_none_or(|d| d >= 1_750));
    // It writes again within that interval (its frames come in parts): deferred to the
    // boundary, and its next frame's probe leaves it deferred.
    world.borrow_mut().now = 1_600;
    world.borrow_mut().program_writes(io, b"spin");
    e.io_event(io, IoEvent::Readable);
    assert!(!world.borrow().watching_output(io));
    assert!(!world.borrow().steady.contains(&io));
    assert_eq!(world.borrow().output[&io], b"spin");
    tick_at(&mut e, &world, &[1_605, 1_650, 1_800]);
    assert!(
        world.borrow().output[&io].is_empty(),
        "read at the boundary"
    );
    world.borrow_mut().now = 1_900;
    world.borrow_mut().program_writes(io, &[b'z'; 3000]);
    e.io_event(io, IoEvent::Readable);
    tick_at(&mut e, &world, &[1_905]);
    assert!(
        !world.borrow().watching_output(io),
        "deferred until the boundary"
    );
}

#[test]
fn a_program_silent_after_its_frames_that_floods_is_busy_and_its_flood_not_parsed_at_once() {
    let (mut e, world, io) = reported(&[b'x'; 3000], 1);
    tick_at(&mut e, &world, &[1_005, 1_050, 1_100, 1_150, 1_200]);
    assert!(world.borrow().watching_output(io));
    world.borrow_mut().now = 1_500;
    world
        .borrow_mut()
        .program_writes(io, &b"line\r\n".repeat(BUSY_BYTES / 6 + 1));
    e.io_event(io, IoEvent::Readable);
    let pane = e.panes().next().unwrap();
    assert!(pane.busy);
    assert!(
        pane.backlog_len() >= BUSY_BYTES,
        "left for the busy pane's pace"
    );
    // A part of a frame (too short to be one) waits for the boundary, already parsed.
    let (mut e, world, io) = reported(&[b'x'; 3000], 1);
    tick_at(&mut e, &world, &[1_005, 1_050, 1_100, 1_150, 1_200]);
    world.borrow_mut().now = 1_500;
    world.borrow_mut().program_writes(io, b"ab");
    e.io_event(io, IoEvent::Readable);
    assert!(world.borrow().output[&io].is_empty());
    assert_eq!(e.panes().next().unwrap().backlog_len(), 0, "parsed");
    assert!(
        !world.borrow().watching_output(io),
        "deferred to the boundary"
    );
    let screen = ok(&mut e, &["capture-pane", "-p", "-t", "a"]);
    assert!(screen.ends_with("xxxx\nab\n"), "{screen:?}");
}

#[test]
fn a_late_look_that_reads_a_programs_end_ends_its_session_then() {
    let (mut e, world, io) = reported(b"$ ", 1);
    world.borrow_mut().now = 1_005;
    e.tick();
    // The program prints a flood (more than one read takes) and exits before the next late
    // look.
    world
        .borrow_mut()
        .program_writes(io, &b"line\r\n".repeat(12_000));
    world.borrow_mut().closed.insert(io);
    world.borrow_mut().now = 1_050;
    e.tick();
    assert!(
        world.borrow().output[&io].is_empty(),
        "read at the late look"
    );
    assert_eq!(e.panes().count(), 0, "ended there, not at the boundary");
}

#[test]
fn terminals_are_wanted_at_once_while_someone_waits_on_them() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    let prompt = |world: &Rc<RefCell<World>>| world.borrow().prompt.get(&io).copied();
    // Nobody shows it: its output waits for the boundary, and its events may be gathered.
    world.borrow_mut().program_writes(io, b"$ ");
    e.io_event(io, IoEvent::Readable);
    assert_eq!(prompt(&world), Some(false));
    e.tick();
    // An attached client shows it: wanted at once from the client's first frame.
    let reply = e
        .submit(&attach_request(&["attach-session", "-t", "a"]))
        .unwrap();
    assert_eq!(reply.code, 0, "{}", String::from_utf8_lossy(&reply.err));
    assert!(e.client_frame(7).is_some());
    assert_eq!(
        prompt(&world),
        Some(true),
        "drawn for a client: wanted at once"
    );
    world.borrow_mut().program_writes(io, b"x");
    e.io_event(io, IoEvent::Readable);
    assert!(world.borrow().output[&io].is_empty(), "shown: read at once");
    assert_eq!(prompt(&world), Some(true));
    // Detached, it goes back to being gathered at its next event.
    ok(&mut e, &["detach-client", "-s", "a"]);
    world.borrow_mut().program_writes(io, b"y");
    e.io_event(io, IoEvent::Readable);
    assert_eq!(prompt(&world), Some(false));
    // A busy writer is read as it writes: wanted at once.
    world.borrow_mut().now += super::reads::BATCH_INTERVAL_MS;
    e.tick();
    world
        .borrow_mut()
        .program_writes(io, &vec![b'z'; BUSY_BYTES]);
    e.io_event(io, IoEvent::Readable);
    assert!(e.panes().next().unwrap().busy);
    assert_eq!(prompt(&world), Some(true));
}

/// A request from client 7, a 20x6 terminal (`/dev/pts/99`, process 4242) that attaches.
fn attach_request(argv: &[&str]) -> Request {
    Request {
        argv: argv.iter().map(|a| a.to_string()).collect(),
        cwd: "/".into(),
        client: Some(7),
        terminal: Some(crate::protocol::ClientTerminal {
            cols: 20,
            rows: 6,
            term: "xterm".into(),
            tty: "/dev/pts/99".into(),
            pid: 4242,
            utf8: true,
        }),
        pid: 4242,
        ..Request::default()
    }
}

/// An engine with session `a` (see [`session`]) and client 7 attached to it.
fn attached_engine() -> (Engine, Rc<RefCell<World>>) {
    let (mut e, world) = engine("/bin/sh");
    session(&mut e);
    let reply = e.submit(&attach_request(&["attach-session"])).unwrap();
    assert_eq!(reply.code, 0, "{}", String::from_utf8_lossy(&reply.err));
    (e, world)
}

/// A request from client `client`, answered now or later.
fn submit(e: &mut Engine, client: u64, argv: &[&str]) -> Option<Reply> {
    e.submit(&Request {
        argv: argv.iter().map(|a| a.to_string()).collect(),
        cwd: "/".into(),
        client: Some(client),
        ..Request::default()
    })
}

/// The job started last ends with wait status `status`, as the host reports it.
fn job_ends(e: &mut Engine, world: &Rc<RefCell<World>>, status: i32) {
    let (_, io, pid) = world.borrow().jobs.last().cloned().expect("a job started");
    world.borrow_mut().statuses.insert(pid, status);
    e.io_event(io, IoEvent::Exited);
}

#[test]
fn run_shell_answers_when_its_job_ends_and_serves_others_meanwhile() {
    let (mut e, world) = engine("/bin/sh");
    session(&mut e);
    assert_eq!(submit(&mut e, 7, &["run-shell", "-d", "2", "exit 3"]), None);
    assert_eq!(world.borrow().jobs[0].0, "sleep 2; exit 3");
    // The job's own requests, and everyone else's, are answered while it runs.
    let other = submit(&mut e, 8, &["display-message", "-p", "#{session_name}"]).unwrap();
    assert_eq!(other.out, b"a\n");
    assert!(e.take_finished().is_empty());
    job_ends(&mut e, &world, 3 << 8);
    let finished = e.take_finished();
    assert_eq!(finished.len(), 1);
    assert_eq!((finished[0].0, finished[0].1.code), (7, 3));
    // Killed by a signal: 128 plus the signal, as tmux gives it.
    assert_eq!(submit(&mut e, 7, &["run-shell", "kill -9 $$"]), None);
    job_ends(&mut e, &world, 9);
    assert_eq!(e.take_finished()[0].1.code, 137);
}

#[test]
fn if_shell_runs_the_branch_its_job_chose_before_the_rest_of_the_request() {
    let (mut e, world) = engine("/bin/sh");
    session(&mut e);
    let line = [
        "if-shell",
        "false",
        "display -p yes",
        "display -p no",
        ";",
        "display-message",
        "-p",
        "after",
    ];
    assert_eq!(submit(&mut e, 7, &line), None);
    job_ends(&mut e, &world, 1 << 8);
    let (client, reply) = e.take_finished().remove(0);
    assert_eq!((client, reply.code), (7, 0));
    assert_eq!(String::from_utf8(reply.out).unwrap(), "no\nafter\n");
    // The branch is parsed when the job has chosen it, as tmux parses it: an error there
    // fails the request and stops the rest.
    assert_eq!(
        submit(
            &mut e,
            7,
            &["if-shell", "true", "nosuchcmd", ";", "kill-server"]
        ),
        None
    );
    job_ends(&mut e, &world, 0);
    let (_, reply) = e.take_finished().remove(0);
    assert_eq!(reply.code, 1);
    assert!(!reply.err.is_empty());
    assert!(!e.kill_requested(), "nothing after the failed branch ran");
}

#[test]
fn a_job_inside_a_branch_keeps_the_commands_after_it_in_order() {
    let (mut e, world) = engine("/bin/sh");
    session(&mut e);
    let line = [
        "if-shell",
        "-F",
        "1",
        "run-shell 'exit 0' ; display -p inner",
        ";",
        "display-message",
        "-p",
        "outer",
    ];
    assert_eq!(submit(&mut e, 7, &line), None);
    job_ends(&mut e, &world, 0);
    let (_, reply) = e.take_finished().remove(0);
    assert_eq!(String::from_utf8(reply.out).unwrap(), "inner\nouter\n");
}

#[test]
fn the_first_client_waits_for_the_configuration_files_jobs_and_no_other_does() {
    let (mut e, world) = engine("/bin/sh");
    let config = Request {
        argv: [
            "set",
            "-g",
            "@before",
            "1",
            ";",
            "run-shell",
            "plugins",
            ";",
        ]
        .into_iter()
        .chain(["set", "-g", "@after", "1"])
        .map(String::from)
        .collect(),
        cwd: "/".into(),
        ..Request::default()
    };
    e.run_config(&config);
    let show = ["show-options", "-gv", "@after"];
    assert_eq!(submit(&mut e, 7, &show), None, "held while the job runs");
    let second = submit(&mut e, 8, &["show-options", "-gv", "@before"]).expect("answered");
    assert_eq!(second.out, b"1\n");
    job_ends(&mut e, &world, 0);
    let finished = e.take_finished();
    assert_eq!(finished.len(), 1);
    let (client, reply) = &finished[0];
    assert_eq!(*client, 7);
    assert_eq!(reply.out, b"1\n", "ran after the whole file: {reply:?}");
    // The file has run: nobody waits any more, the first client included.
    let again = submit(&mut e, 7, &show).expect("answered at once");
    assert_eq!(again.out, b"1\n");
}

#[test]
fn jobs_without_a_client_to_answer_do_not_hold_anything() {
    let (mut e, world) = engine("/bin/sh");
    session(&mut e);
    // An embedding host's run() (no client): the job is left running, as with -b.
    assert_eq!(ok(&mut e, &["run-shell", "sleep 9"]), "");
    assert!(world.borrow().jobs.is_empty(), "not waited for");
    // The configuration file waits for its job and goes on after it; what fails then is
    // kept for the first client, as the file's other errors are.
    let config = Request {
        argv: ["run-shell", "true", ";", "if-shell", "true", "nosuchcmd"]
            .iter()
            .map(|a| a.to_string())
            .collect(),
        cwd: "/".into(),
        ..Request::default()
    };
    e.run_config(&config);
    job_ends(&mut e, &world, 0);
    assert!(e.config_errors.is_empty());
    job_ends(&mut e, &world, 0);
    assert!(
        !e.config_errors.is_empty(),
        "the branch's parse error is kept"
    );
    let first = run(&mut e, &["list-sessions"]);
    assert!(!first.err.is_empty(), "and shown to the first client");
}

/// Every session's window is one allocation; mimalloc serves 1,537 to 1,792 bytes from its
/// 1,792-byte class and the next 256 bytes from the 2,048 one. At 1,800 bytes (the alternate
/// screen's saved grid held inline), 400 idle sessions' server took 5,121 KiB of PSS against
/// 4,950 (`BASE=<that build> SETTLE=15 bench/scale.sh idle 400`, BENCHMARKS.md).
#[test]
fn a_window_fits_the_allocators_1792_byte_class() {
    let size = std::mem::size_of::<super::session::Window>();
    assert!(size <= 1792, "a window takes {size} bytes");
}

/// `#{command}` is the name of the command a format belongs to, a command run by another
/// sees its own, and `display-message -a` lists it after its target's variables, as tmux.
#[test]
fn formats_know_their_command() {
    let (mut e, _) = engine("/bin/sh");
    session(&mut e);
    assert_eq!(
        ok(&mut e, &["display-message", "-p", "#{command}"]),
        "display-message\n"
    );
    assert_eq!(
        ok(
            &mut e,
            &["list-sessions", "-F", "#{command} #{user} #{uid}"]
        ),
        "list-sessions fakeuser 1000\n"
    );
    assert_eq!(
        ok(&mut e, &["if-shell", "-F", "1", "display -p '#{command}'"]),
        "display-message\n"
    );
    let listed = ok(&mut e, &["display-message", "-a"]);
    assert_eq!(listed.lines().last(), Some("command=display-message"));
    assert_eq!(
        listed.lines().filter(|l| l.starts_with("command=")).count(),
        1
    );
    assert!(e.running_command.is_none(), "left set after the command");
}

/// A status-line message on an attached client: drawn in message-style over the status line,
/// cut to the client's width with its control characters left out, the cursor hidden; gone
/// when display-time has passed on the host's clock; and every step is in the message log,
/// each client named as tmux names it.
#[test]
fn status_messages_are_cleaned_cut_and_expire() {
    let (mut e, world) = attached_engine();
    assert!(e.client_frame(7).is_some());
    ok(&mut e, &["set-option", "-g", "display-time", "500"]);
    let said = Request {
        argv: vec![
            "display-message".into(),
            "a\x1b[31mbc\tdefghijklmnopqrstuvwxyz".into(),
        ],
        cwd: "/".into(),
        client: Some(8),
        pid: 555,
        ..Request::default()
    };
    assert_eq!(e.submit(&said).unwrap().code, 0);
    let mut frame = || {
        world.borrow_mut().now += super::attach::FRAME_INTERVAL_MS;
        e.clients_tick();
        String::from_utf8(e.client_frame(7).unwrap_or_default()).unwrap()
    };
    let shown = frame();
    assert!(
        shown.contains("\x1b[6;1H\x1b[0;30;43ma[31mbcdefghijklmnop\x1b[0m"),
        "{shown:?}"
    );
    assert!(!shown.contains("\x1b[?25h"), "the cursor hides: {shown:?}");
    world.borrow_mut().now += 400;
    assert_eq!(frame(), "", "still shown, nothing new to draw");
    world.borrow_mut().now += 100;
    let gone = frame();
    assert!(gone.contains("\x1b[6;1H\x1b[0;30;42m[a] "), "{gone:?}");
    let log = ok(&mut e, &["show-messages"]);
    let entries: Vec<&str> = log
        .lines()
        .map(|l| l.split_once(": ").map_or(l, |(_, entry)| entry))
        .collect();
    assert_eq!(
        entries,
        [
            "command: show-messages",
            "/dev/pts/99 message: a\x1b[31mbc\tdefghijklmnopqrstuvwxyz",
            "client-555 command: display-message a\\033[31mbc\\tdefghijklmnopqrstuvwxyz",
            "command: set-option -g display-time 500",
            "/dev/pts/99 command: attach-session",
            "command: new-session -d -s a -x 20 -y 5 prog",
        ]
    );
}

/// confirm-before from a script: the request waits for the attached client's answer, `y`
/// runs the command and answers 0, another key answers 1 and runs nothing, and a client that
/// leaves while asked answers 1 (nothing waits for ever).
#[test]
fn confirm_before_waits_for_the_answer() {
    let (mut e, world) = attached_engine();
    let names = |e: &mut Engine| ok(e, &["list-windows", "-F", "#{window_name}"]);
    let ask = |e: &mut Engine, command: &str| {
        submit(
            e,
            8,
            &["confirm-before", "-p", "sure #{session_name}?", command],
        )
    };
    let asked = |e: &mut Engine| {
        world.borrow_mut().now += super::attach::FRAME_INTERVAL_MS;
        let frame = String::from_utf8(e.client_frame(7).unwrap_or_default()).unwrap();
        frame.contains("sure a? \x1b[0m\x1b[0;30;43m\x1b[7m \x1b[27m")
    };
    assert_eq!(
        ask(&mut e, "rename-window yes"),
        None,
        "waits for the answer"
    );
    assert!(asked(&mut e));
    e.client_input(7, b"\x1b[A\x02");
    assert!(e.take_finished().is_empty(), "keys that are no answer");
    e.client_input(7, b"y");
    let finished = e.take_finished();
    assert_eq!(finished.len(), 1);
    assert_eq!((finished[0].0, finished[0].1.code), (8, 0));
    assert_eq!(names(&mut e), "yes\n");
    assert_eq!(ask(&mut e, "rename-window no"), None);
    e.client_input(7, b"n");
    assert_eq!(e.take_finished()[0].1.code, 1);
    assert_eq!(names(&mut e), "yes\n");
    assert_eq!(ask(&mut e, "rename-window gone"), None);
    e.client_gone(7);
    e.clients_tick();
    assert_eq!(e.take_finished()[0].1.code, 1);
    assert_eq!(names(&mut e), "yes\n");
}

/// The command prompt from a key binding runs what is typed as the client (an error shows
/// on its status line); a script's prompt waits, and what its answer runs is the script's
/// (its output reaches it); a client that leaves releases the script.
#[test]
fn command_prompt_runs_the_answer_as_its_asker() {
    let (mut e, world) = attached_engine();
    let names = |e: &mut Engine| ok(e, &["list-windows", "-F", "#{window_name}"]);
    let frame = |e: &mut Engine| {
        world.borrow_mut().now += super::attach::FRAME_INTERVAL_MS;
        String::from_utf8(e.client_frame(7).unwrap_or_default()).unwrap()
    };
    e.client_input(7, b"\x02:rename-window typed\r");
    assert_eq!(names(&mut e), "typed\n");
    e.client_input(7, b"\x02:nosuch\r");
    assert!(frame(&mut e).contains("Unknown command: n"));
    e.client_input(7, b"\x02:\x1b[A\x1b[A\x01\x06\x06\x06\x06\x06\x06\x0b\r");
    assert_eq!(
        names(&mut e),
        "typed\n",
        "the history went back twice: rename- cut"
    );
    let history = ok(&mut e, &["show-prompt-history", "-T", "command"]);
    assert_eq!(
        history,
        "History for command:\n\n1: rename-window typed\n2: nosuch\n3: rename\n\n"
    );
    let asked = submit(
        &mut e,
        8,
        &[
            "command-prompt",
            "-p",
            "name,then",
            "rename-window '%1'; display-message -p '%2'",
        ],
    );
    assert_eq!(asked, None, "waits for the answers");
    assert!(frame(&mut e).contains("name "));
    e.client_input(7, b"first\rsecond\r");
    let finished = e.take_finished();
    assert_eq!(finished.len(), 1);
    assert_eq!((finished[0].0, finished[0].1.code), (8, 0));
    assert_eq!(finished[0].1.out, b"second\n");
    assert_eq!(names(&mut e), "first\n");
    assert_eq!(
        submit(&mut e, 8, &["command-prompt", "rename-window gone"]),
        None
    );
    e.client_gone(7);
    e.clients_tick();
    assert_eq!(e.take_finished()[0].1.code, 1);
    assert_eq!(names(&mut e), "first\n");
}

/// A read-only client's keys go nowhere while it shows a prompt, as in tmux.
#[test]
fn a_read_only_client_cannot_answer_a_prompt() {
    let (mut e, world) = attached_engine();
    e.set_client_readonly(7, true);
    assert_eq!(
        submit(
            &mut e,
            8,
            &["command-prompt", "-t", "/dev/pts/99", "rename-window %%"]
        ),
        None
    );
    e.client_input(7, b"renamed\r");
    assert!(e.take_finished().is_empty(), "still asked");
    world.borrow_mut().now += super::attach::FRAME_INTERVAL_MS;
    let frame = String::from_utf8(e.client_frame(7).unwrap_or_default()).unwrap();
    assert!(
        frame.contains("(rename-window) ") && !frame.contains("renamed"),
        "an empty prompt: {frame:?}"
    );
    assert_eq!(
        ok(&mut e, &["display-message", "-p", "#{window_name}"]),
        "prog\n"
    );
}

/// A script waiting on the prompt of a client whose session ends goes on at once (the engine
/// used to leave it ready but not resumed until some later event).
#[test]
fn a_prompt_whose_client_session_ends_releases_its_script() {
    let (mut e, _world) = attached_engine();
    assert_eq!(
        submit(&mut e, 8, &["command-prompt", "rename-window x"]),
        None
    );
    ok(&mut e, &["kill-session", "-t", "a"]);
    e.clients_tick();
    let finished = e.take_finished();
    assert_eq!(finished.len(), 1);
    assert_eq!((finished[0].0, finished[0].1.code), (8, 1));
}

/// Keys typed after one whose binding ends the client's session, in the same read, are read
/// where the client is then (the engine used to look them up in the session that ended, and
/// panicked).
#[test]
fn keys_after_a_binding_that_ends_the_session_are_read_where_the_client_is() {
    let (mut e, _world) = engine("/bin/sh");
    session(&mut e);
    ok(&mut e, &["new-session", "-d", "-s", "b", "prog"]);
    ok(&mut e, &["set-option", "-t", "a", "prefix", "C-a"]);
    ok(&mut e, &["bind-key", "k", "kill-session"]);
    ok(
        &mut e,
        &[
            "bind-key",
            "-n",
            "F9",
            "rename-window",
            "-t",
            "a:0",
            "typed",
        ],
    );
    ok(&mut e, &["set-option", "-g", "detach-on-destroy", "off"]);
    assert_eq!(
        e.submit(&attach_request(&["attach-session", "-t", "b"]))
            .unwrap()
            .code,
        0
    );
    // C-b k ends session b, the last; F9, read after it, still runs its binding.
    e.client_input(7, b"\x02k\x1b[20~");
    assert_eq!(
        ok(&mut e, &["list-sessions", "-F", "#{session_name}"]),
        "a\n"
    );
    let name = ["display-message", "-p", "-t", "a", "#{window_name}"];
    assert_eq!(ok(&mut e, &name), "typed\n");
    // The client moves to a, where its keys are read with a's prefix.
    e.clients_tick();
    e.client_input(7, b"\x01");
    let table = [
        "list-clients",
        "-F",
        "#{client_session} #{client_key_table}",
    ];
    assert_eq!(ok(&mut e, &table), "a prefix\n");
}

/// A key binding that waits for a job goes on when the job ends, with no reply to its
/// client; keys typed meanwhile are read after it, in turn, as in tmux's client queue.
#[test]
fn a_binding_that_waits_for_a_job_goes_on_and_holds_later_bindings() {
    let (mut e, world) = attached_engine();
    let bind = |e: &mut Engine, key: &str, commands: &str| {
        ok(e, &["bind-key", "-n", key, commands]);
    };
    bind(
        &mut e,
        "F5",
        "set -g @x one ; run-shell -d 0.3 ; set -g @x two",
    );
    bind(&mut e, "F6", "set -g @x three");
    bind(&mut e, "F7", "run-shell -d 0.3 ; display-message -p done");
    let x = |e: &mut Engine| ok(e, &["show-options", "-gv", "@x"]);
    e.client_input(7, b"\x1b[15~");
    assert_eq!(x(&mut e), "one\n");
    assert_eq!(
        world.borrow().jobs.last().map(|j| j.0.as_str()),
        Some("sleep 0.3")
    );
    let screen = |e: &mut Engine| ok(e, &["capture-pane", "-p", "-t", "a"]);
    e.client_input(7, b"\x1b[17~ab");
    e.client_input(7, b"c");
    assert_eq!(x(&mut e), "one\n", "F6's binding waits for F5's");
    assert!(!screen(&mut e).contains("abc"), "typing waits too");
    job_ends(&mut e, &world, 0);
    e.clients_tick();
    assert_eq!(x(&mut e), "three\n", "F5's binding went on, then F6's ran");
    assert!(
        screen(&mut e).contains("abc"),
        "then the keys typed after F6 went"
    );
    assert!(
        e.take_finished().is_empty(),
        "nothing goes back to the client as a reply"
    );
    let log = ok(&mut e, &["show-messages"]);
    assert!(log.contains("key F5: set-option -g @x two"), "{log}");
    // What a binding prints after its wait shows in place of the pane; what the terminal
    // sends meanwhile is held up to a bound.
    e.client_input(7, b"\x1b[18~");
    e.client_input(7, &vec![b'x'; 2 * super::attach::HELD_INPUT_LIMIT]);
    let held = e.clients.get(7).map(|c| c.held_input.len());
    assert_eq!(held, Some(super::attach::HELD_INPUT_LIMIT));
    job_ends(&mut e, &world, 0);
    e.clients_tick();
    world.borrow_mut().now += super::attach::FRAME_INTERVAL_MS;
    let frame = String::from_utf8(e.client_frame(7).unwrap_or_default()).unwrap();
    assert!(frame.contains("done"), "{frame:?}");
}

/// Client 7's request from a control-mode client.
fn control_request(argv: &[&str]) -> Request {
    Request {
        control: Some(0),
        ..attach_request(argv)
    }
}

/// What control client 7 is to be sent now, as text, with the guard lines' times left out.
fn control_text(e: &mut Engine) -> String {
    e.clients_tick();
    let text = e.control_text(7).unwrap_or_default();
    String::from_utf8_lossy(&text)
        .lines()
        .map(|l| match l.split(' ').collect::<Vec<_>>()[..] {
            [guard @ ("%begin" | "%end" | "%error"), _, n, f] => format!("{guard} {n} {f}\n"),
            _ => format!("{l}\n"),
        })
        .collect()
}

#[test]
fn a_control_client_gets_command_blocks_notifications_and_output() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    // The command line's commands: blocks with flags 0; the client is told what they did.
    let reply = e.submit(&control_request(&["display", "-p", "x", ";", "attach"]));
    let reply = reply.unwrap();
    assert_eq!(
        String::from_utf8_lossy(&reply.out),
        "%begin T 1 0\nx\n%end T 1 0\n%begin T 2 0\n%end T 2 0\n"
            .replace(" T ", &format!(" {} ", e.host.wall_time()))
    );
    assert!(reply.err.is_empty());
    assert_eq!(control_text(&mut e), "%session-changed $0 a\n");
    // An unsized control client sizes nothing: the window keeps its 20x5.
    assert_eq!(
        ok(
            &mut e,
            &["display", "-p", "#{window_width}x#{window_height}"]
        ),
        "20x5\n"
    );
    // Lines: a block per command, a parse error as one block, errors inside theirs.
    e.client_input(
        7,
        b"display -p a ; display -p b\nbogus\nkill-window -t :9\nnew-window -d -n two prog\n",
    );
    assert_eq!(
        control_text(&mut e),
        "%begin 3 1\na\n%end 3 1\n%begin 4 1\nb\n%end 4 1\n\
         %begin 5 1\nparse error: unknown command: bogus\n%error 5 1\n\
         %begin 6 1\ncan't find window: 9\n%error 6 1\n\
         %begin 7 1\n%end 7 1\n%window-add @1\n"
    );
    // Output of the session's programs as a terminal gives it (ONLCR), escaped; a size from
    // refresh-client -C.
    world.borrow_mut().program_writes(io, b"hi\\\n");
    e.io_event(io, IoEvent::Readable);
    e.client_input(7, b"refresh-client -C 30x8\n");
    assert_eq!(
        control_text(&mut e),
        "%begin 8 1\n%end 8 1\n\
         %layout-change @0 f9dd,30x8,0,0,0 f9dd,30x8,0,0,0 *\n\
         %layout-change @1 f9de,30x8,0,0,1 f9de,30x8,0,0,1 \n\
         %output %0 hi\\134\\015\\012\n"
    );
    // Another client's changes, then the end of the input: the client leaves.
    ok(&mut e, &["rename-session", "-t", "a", "b"]);
    e.control_input_ended(7);
    let exits = e.clients.take_exits();
    let [(
        7,
        Exit::Control {
            text,
            reason,
            status,
            ..
        },
    )] = &exits[..]
    else {
        panic!("not one control client's exit: {exits:?}");
    };
    assert_eq!(text, b"%session-renamed $0 b\n");
    assert_eq!(reason, "");
    assert_eq!(*status, 1, "a command failed");
}
