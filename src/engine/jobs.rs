//! Shell commands that a request waits for (`run-shell`, `if-shell` without `-b`), run as tmux
//! runs them: as jobs. The host starts the job and goes on serving everyone; the request that
//! started it is suspended as for `wait-for` (see `wait.rs`) and goes on when the job ends,
//! with the job's exit status as the client's (`run-shell`) or the branch it chose run next
//! (`if-shell`). A job that itself asks this server something is answered meanwhile, as under
//! tmux (plugin managers' `run` lines do exactly that from the configuration file).
//!
//! The configuration file has no client: its request waits under [`CONFIG_CLIENT`], the
//! errors of what it runs later join the ones kept for the first client, and the first
//! client's request waits until the file has run, as tmux holds the client that started it. A request with
//! neither (a hook, an embedding host's [`Engine::run`]) cannot be answered later, so its job
//! runs as with `-b`.
//!
//! Invariant: every job in [`Jobs`] was started by the host and has not been reported ended;
//! its waiter may have gone away meanwhile, in which case its end changes nothing.

use super::os::IoId;
use super::Engine;
use std::collections::HashMap;

/// The waiter the configuration file's request is suspended under (no connection has it).
pub const CONFIG_CLIENT: u64 = u64::MAX;

/// What the waiting request does with a job's end.
#[derive(Debug)]
pub enum JobEnd {
    /// `run-shell`: the job's exit status becomes the client's.
    ExitStatus,
    /// `if-shell`: the first command text runs next if the job succeeded, the second (if
    /// any) if not.
    Branch {
        then: String,
        otherwise: Option<String>,
    },
}

#[derive(Debug)]
struct Job {
    pid: i32,
    /// The request waiting for it; none for a `-b` job.
    waiter: Option<u64>,
    end: JobEnd,
}

/// The jobs requests wait for, by the id the host reports their exits as.
#[derive(Debug, Default)]
pub struct Jobs {
    running: HashMap<IoId, Job>,
}

impl Jobs {
    pub fn start(&mut self, io: IoId, pid: i32, waiter: Option<u64>, end: JobEnd) {
        self.running.insert(io, Job { pid, waiter, end });
    }

    pub fn is_job(&self, io: IoId) -> bool {
        self.running.contains_key(&io)
    }
}

/// The client-visible exit code of a wait status: the exit status, or 128 plus the signal
/// that killed the job (as tmux gives it).
pub fn exit_code(status: i32) -> i32 {
    if status & 0x7f == 0 {
        (status >> 8) & 0xff
    } else {
        128 + (status & 0x7f)
    }
}

impl Engine {
    /// The host reports that the job with id `io` ended: its waiter goes on, or a `-b` job's
    /// branch runs with no client.
    pub(super) fn job_ended(&mut self, io: IoId) {
        let Some(job) = self.jobs.running.remove(&io) else {
            return;
        };
        // A status the host could not collect counts as a failure.
        let status = self.host.reap(job.pid).unwrap_or(1 << 8);
        let (branch, code) = match job.end {
            JobEnd::ExitStatus => (None, Some(exit_code(status))),
            JobEnd::Branch { then, .. } if exit_code(status) == 0 => (Some(then), None),
            JobEnd::Branch { otherwise, .. } => (otherwise, None),
        };
        match (job.waiter, branch) {
            (Some(waiter), branch) => {
                let next =
                    branch.map_or(Ok(Vec::new()), |b| super::commands::command_lines(self, &b));
                self.waits.finish(waiter, next, code);
                self.resume_ready();
            }
            (None, Some(branch)) => super::commands::run_detached(self, &branch, None),
            (None, None) => {}
        }
    }
}
