//! The engine against a fake host: programs are byte queues the test fills and reads, time
//! stands still, and nothing touches the operating system. What these tests hold is the
//! engine's side of the host contract: when bytes reach programs, when output is read, what
//! it asks the host to start.

use super::os::{Backend, Clock, IoEvent, IoId, Programs, SpawnRequest, Spawned};
use super::{Engine, Reply, Request};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::io;
use std::rc::Rc;

/// What the fake programs did, shared between the test and the host inside the engine.
#[derive(Default)]
struct World {
    spawned: Vec<SpawnRequest>,
    /// Output programs have written that the engine has not read yet.
    output: HashMap<IoId, Vec<u8>>,
    /// Everything the engine wrote to each program.
    input: HashMap<IoId, Vec<u8>>,
}

struct FakeHost {
    world: Rc<RefCell<World>>,
    /// What `read` lends out.
    read_buf: Vec<u8>,
}

impl Clock for FakeHost {
    fn now_ms(&self) -> u64 {
        1_000
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
        let waiting = std::mem::take(self.world.borrow_mut().output.entry(io).or_default());
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
        self.world.borrow().output.get(&io).map_or(0, Vec::len)
    }

    fn watch(&mut self, _io: IoId, _readable: bool, _writable: bool) {}
    fn close(&mut self, _io: IoId) {}
    fn release(&mut self, _io: IoId) {}
    fn reap(&mut self, _pid: i32) -> Option<i32> {
        None
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

    fn read_file(&self, _path: &str) -> io::Result<Vec<u8>> {
        Err(io::ErrorKind::NotFound.into())
    }
}

/// An engine on a fake host whose environment says `SHELL=shell`.
fn engine(shell: &str) -> (Engine, Rc<RefCell<World>>) {
    let world = Rc::new(RefCell::new(World::default()));
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
    assert_eq!(e.next_deadline(), None);
}

#[test]
fn output_is_read_on_readiness_and_before_any_reader() {
    let (mut e, world) = engine("/bin/sh");
    let io = session(&mut e);
    world.borrow_mut().output.insert(io, b"first\r\n".to_vec());
    e.io_event(io, IoEvent::Readable);
    assert!(world.borrow().output[&io].is_empty(), "read on readiness");
    // Output no event has announced yet is still what a capture shows.
    world.borrow_mut().output.insert(io, b"second".to_vec());
    let screen = ok(&mut e, &["capture-pane", "-p", "-t", "a"]);
    assert!(screen.starts_with("first\nsecond\n"), "{screen:?}");
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
