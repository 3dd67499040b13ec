//! `wait-for` channels, and requests answered later: those waiting on a channel, on a job
//! (`jobs.rs`) or on a prompt's answer (`confirm-before`).
//!
//! A waiting client is named by its connection id. [`Channels`] keeps the queues and says which
//! clients may go on; [`Waits`] keeps, for each waiting client, the rest of its request (the
//! commands after the one that waits, and what the earlier ones wrote), which the engine runs
//! when the client is ready ([`Engine::resume_ready`]); the host collects the finished replies
//! with [`Engine::take_finished`].
//!
//! Semantics (tmux's): `-S` wakes every waiter, or, with none, marks the channel woken so the
//! next wait returns at once (once); `-L` takes the lock or queues for it; `-U` hands the lock to
//! the first queued client or releases it, and fails with `channel NAME not locked`. A channel
//! is forgotten once it is unlocked, has no waiters and its wake-up was used.
//!
//! The first client's request waits, as in tmux, while the configuration file waits for a job
//! ([`Engine::hold_for_config`]). Commands an attached client runs (a key's binding, a
//! prompt's answer) wait the same way (for `run-shell`'s job, a channel); what the client
//! types meanwhile is read after them, and other commands it runs (a double click's binding)
//! are queued after them, as tmux's client queue runs them; what they printed shows in place
//! of the pane.
//!
//! Invariant: a client id is in at most one queue (a client waits for one command at a time).

use super::{Engine, Reply, Request};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// The unfinished part of a request.
#[derive(Debug)]
pub struct Suspended {
    pub req: Request,
    pub cmds: Vec<Vec<String>>,
    /// The first command not yet run.
    pub next: usize,
    pub out: Vec<u8>,
    pub err: Vec<u8>,
    pub config: bool,
    /// The exit status a command before the wait gave the client (`run-shell`).
    pub exit_code: Option<i32>,
    /// Commands an attached client runs itself (a key's binding, with its key; a prompt's
    /// answer): what they print shows in place of the pane when they end, instead of going
    /// back as a reply.
    pub attached: Option<Option<super::keys::Key>>,
    /// A control-mode command that waits: its block's guard (time and number), ended when
    /// it goes on.
    pub open_guard: Option<(i64, u32)>,
}

/// Channels, the requests suspended on them and replies ready for their clients.
#[derive(Default, Debug)]
pub struct Waits {
    pub channels: Channels,
    suspended: HashMap<u64, Suspended>,
    finished: Vec<(u64, Reply)>,
    /// Whether a client's request came yet (the first is held for the configuration file).
    first_request_came: bool,
    /// The first client, its request held until the configuration file has run.
    held_for_config: Option<u64>,
}

impl Waits {
    pub fn suspend(&mut self, client: u64, run: Suspended) {
        self.suspended.insert(client, run);
    }

    /// Whether a client has a request waiting.
    pub fn is_waiting(&self, client: u64) -> bool {
        self.suspended.contains_key(&client)
    }

    /// Marks the commands an attached client waits on as its own (a key's binding, with
    /// its key, or a prompt's answer).
    pub fn mark_attached(&mut self, client: u64, key: Option<super::keys::Key>) {
        if let Some(run) = self.suspended.get_mut(&client) {
            run.attached = Some(key);
        }
    }

    /// Whether commands an attached client ran itself wait (its typing waits after them).
    pub fn client_run_waits(&self, client: u64) -> bool {
        self.suspended
            .get(&client)
            .is_some_and(|run| run.attached.is_some())
    }

    /// Queues commands an attached client runs after those it waits on, as tmux's client
    /// command queue runs them in turn; false when it waits on none.
    pub fn queue_after_waiting(&mut self, client: u64, cmds: &[Vec<String>]) -> bool {
        match self.suspended.get_mut(&client) {
            Some(run) if run.attached.is_some() => {
                run.cmds.extend_from_slice(cmds);
                true
            }
            _ => false,
        }
    }

    /// What `waiter`'s request waited for (a job, a prompt's answer) has come: `next`
    /// (commands to run first, or why they could not be parsed) and `exit_code` complete the
    /// command that started it, and the request goes on. Nothing happens when the waiter has
    /// gone.
    pub fn finish(
        &mut self,
        waiter: u64,
        next: Result<Vec<Vec<String>>, String>,
        exit_code: Option<i32>,
    ) {
        let Some(run) = self.suspended.get_mut(&waiter) else {
            return;
        };
        match next {
            Ok(cmds) => {
                run.cmds.splice(run.next..run.next, cmds);
            }
            Err(e) => {
                // As a failed command: the error, and nothing after it runs.
                run.err.extend_from_slice(e.as_bytes());
                run.err.push(b'\n');
                run.cmds.truncate(run.next);
                run.exit_code = Some(1);
            }
        }
        if exit_code.is_some() {
            run.exit_code = exit_code;
        }
        self.channels.ready.push_back(waiter);
    }
}

impl Engine {
    /// Holds the first client's request while the configuration file waits for a job, as
    /// tmux holds the client that started it: its commands run once the file has run (so a
    /// plugin manager's `run` line has set its options before the first session is made).
    /// Later clients, and callers without one, are not held: their request comes back.
    pub(super) fn hold_for_config(&mut self, run: Suspended) -> Option<Suspended> {
        let Some(client) = run.req.client else {
            return Some(run);
        };
        let first = !std::mem::replace(&mut self.waits.first_request_came, true);
        if !first || !self.waits.is_waiting(super::jobs::CONFIG_CLIENT) {
            return Some(run);
        }
        self.waits.held_for_config = Some(client);
        self.waits.suspend(client, run);
        None
    }

    /// Runs the rest of every request whose wait is over (which may release others).
    pub fn resume_ready(&mut self) {
        while let Some(client) = self.waits.channels.take_ready() {
            let Some(run) = self.waits.suspended.remove(&client) else {
                continue;
            };
            let attached = run.attached;
            self.binding_key = attached.flatten();
            let reply = self.run_commands(run);
            self.binding_key = None;
            match reply {
                Some(reply) if attached.is_some() => {
                    self.client_run_ended(client, &reply);
                    self.read_held_input(client);
                }
                Some(reply) if client == super::jobs::CONFIG_CLIENT => {
                    self.config_errors.extend_from_slice(&reply.err);
                    if let Some(held) = self.waits.held_for_config.take() {
                        self.waits.channels.ready.push_back(held);
                    }
                }
                Some(reply) => {
                    let reply = self.with_config_errors(reply);
                    self.waits.finished.push((client, reply));
                }
                None => {}
            }
        }
    }

    /// Replies to requests that waited, with the client each is for.
    pub fn take_finished(&mut self) -> Vec<(u64, Reply)> {
        std::mem::take(&mut self.waits.finished)
    }

    /// The server is about to exit (no sessions left): every waiting request goes on, as
    /// tmux lets them before it exits.
    pub fn flush_waits(&mut self) {
        self.waits.channels.flush();
        self.resume_ready();
    }

    /// The server is stopping (kill-server): every waiting request ends where it is, as
    /// tmux's clients leave quietly then. Returns their clients.
    pub fn abandon_waits(&mut self) -> Vec<u64> {
        self.waits.channels = Channels::default();
        self.waits
            .suspended
            .drain()
            .map(|(client, _)| client)
            .collect()
    }

    /// Forgets a request that waits for a client that went away.
    pub fn forget_waiting(&mut self, client: u64) {
        self.waits.channels.forget(client);
        self.waits.suspended.remove(&client);
    }
}

#[derive(Default, Debug)]
struct Channel {
    locked: bool,
    woken: bool,
    waiters: Vec<u64>,
    lockers: VecDeque<u64>,
}

impl Channel {
    fn unused(&self) -> bool {
        !self.locked && self.waiters.is_empty() && self.lockers.is_empty()
    }
}

#[derive(Default, Debug)]
pub struct Channels {
    channels: BTreeMap<String, Channel>,
    /// Clients whose wait ended, in the order they were released.
    ready: VecDeque<u64>,
}

impl Channels {
    /// `wait-for -S`.
    pub fn signal(&mut self, name: &str) {
        let ch = self.channels.entry(name.to_string()).or_default();
        if ch.waiters.is_empty() && !ch.woken {
            ch.woken = true;
            return;
        }
        self.ready.extend(ch.waiters.drain(..));
        // A signal with waiters is spent on them; a stored wake-up stays for the next wait.
        if ch.woken && ch.unused() {
            self.channels.remove(name);
        }
    }

    /// `wait-for`: true when the client goes on at once (the channel was already woken),
    /// false when it now waits.
    pub fn wait(&mut self, name: &str, client: u64) -> bool {
        let ch = self.channels.entry(name.to_string()).or_default();
        if ch.woken {
            if ch.unused() {
                self.channels.remove(name);
            }
            return true;
        }
        ch.waiters.push(client);
        false
    }

    /// `wait-for -L`: true when the client holds the lock now, false when it queues for it.
    pub fn lock(&mut self, name: &str, client: u64) -> bool {
        let ch = self.channels.entry(name.to_string()).or_default();
        if ch.locked {
            ch.lockers.push_back(client);
            return false;
        }
        ch.locked = true;
        true
    }

    /// `wait-for -U`.
    pub fn unlock(&mut self, name: &str) -> Result<(), String> {
        let Some(ch) = self.channels.get_mut(name).filter(|c| c.locked) else {
            return Err(format!("channel {name} not locked"));
        };
        match ch.lockers.pop_front() {
            Some(next) => self.ready.push_back(next),
            None => {
                ch.locked = false;
                if ch.woken && ch.unused() {
                    self.channels.remove(name);
                }
            }
        }
        Ok(())
    }

    /// Releases every waiter and locker and forgets every channel, as tmux does when the
    /// server is about to exit.
    pub fn flush(&mut self) {
        for ch in std::mem::take(&mut self.channels).into_values() {
            self.ready.extend(ch.waiters);
            self.ready.extend(ch.lockers);
        }
    }

    /// A client went away: it no longer waits or queues anywhere.
    pub fn forget(&mut self, client: u64) {
        for ch in self.channels.values_mut() {
            ch.waiters.retain(|&c| c != client);
            ch.lockers.retain(|&c| c != client);
        }
        self.ready.retain(|&c| c != client);
    }

    /// The next client whose wait is over.
    pub fn take_ready(&mut self) -> Option<u64> {
        self.ready.pop_front()
    }

    /// Whether any client waits or queues.
    pub fn has_waiting(&self) -> bool {
        self.channels
            .values()
            .any(|c| !c.waiters.is_empty() || !c.lockers.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ready(c: &mut Channels) -> Vec<u64> {
        std::iter::from_fn(|| c.take_ready()).collect()
    }

    #[test]
    fn signal_wakes_all_waiters_or_is_kept_once() {
        let mut c = Channels::default();
        assert!(!c.wait("a", 1));
        assert!(!c.wait("a", 2));
        assert!(c.has_waiting());
        c.signal("a");
        assert_eq!(ready(&mut c), vec![1, 2]);
        assert!(!c.has_waiting());
        // No waiter: the wake-up is stored for exactly one wait.
        c.signal("b");
        assert!(c.wait("b", 3));
        assert!(!c.wait("b", 4));
        c.signal("b");
        assert_eq!(ready(&mut c), vec![4]);
    }

    #[test]
    fn locks_queue_in_order_and_unlock_checks() {
        let mut c = Channels::default();
        assert_eq!(c.unlock("l"), Err("channel l not locked".into()));
        assert!(c.lock("l", 1));
        assert!(!c.lock("l", 2));
        assert!(!c.lock("l", 3));
        c.unlock("l").unwrap();
        assert_eq!(ready(&mut c), vec![2]);
        c.forget(3);
        c.unlock("l").unwrap();
        assert!(ready(&mut c).is_empty());
        assert_eq!(c.unlock("l"), Err("channel l not locked".into()));
    }

    #[test]
    fn flush_releases_everyone() {
        let mut c = Channels::default();
        c.wait("a", 1);
        c.lock("b", 2);
        c.lock("b", 3);
        c.flush();
        assert_eq!(ready(&mut c), vec![1, 3]);
        assert!(!c.wait("a", 4));
        assert!(c.lock("b", 5));
    }
}
