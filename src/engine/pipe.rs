//! Pane pipes (`pipe-pane`): a command started with `/bin/sh -c` that gets a copy of a pane's
//! output on its standard input (`-O`) and/or whose standard output is typed into the pane
//! (`-I`), as tmux 3.3a does it.
//!
//! The copy is what the pane's terminal shows before parsing: bytes read from the program
//! (shim markers removed, output processing applied as a PTY would) and the echo of typed
//! keys, which a PTY would also have sent. What the command writes goes through the pane's
//! line discipline, as bytes tmux writes to a PTY do.
//!
//! Neither direction may block the engine or grow without bound:
//! - output for a command that reads slowly waits in a queue of at most [`PIPE_OUTPUT_LIMIT`]
//!   bytes; what does not fit is dropped (the pane never waits for its pipe; tmux would buffer
//!   without limit instead);
//! - the command's output is read while the pane's input queue holds less than
//!   [`PIPE_INPUT_LIMIT`] bytes; above that the pipe is not read (nothing is lost: the command
//!   waits) until the program has taken its input.
//!
//! A feed is the same pipe in one direction with a fixed text (`copy-pipe`'s selection): the
//! text is written as the command takes it, however long it is, and the pipe closes once it
//! is all written or the command has gone.
//!
//! Invariant: a pane's pipe is registered with the host from `open_pipe` until `close_pipe`,
//! and belongs to exactly one pane; a feed's from `feed_command` until its text is written or
//! its command has gone.

use super::os::{IoEvent, PipeId, Programs};
use super::pane::Pane;
use super::Engine;

/// Most pane output queued for a pipe's command; the rest is dropped.
pub const PIPE_OUTPUT_LIMIT: usize = 1 << 20;
/// Pane input queued for the program above which the pipe's command is not read.
pub const PIPE_INPUT_LIMIT: usize = 1 << 20;
/// Most bytes read from one pipe in one turn, so other panes get theirs.
const PIPE_READ_PER_TURN: usize = 256 << 10;

/// A pane's open pipe.
#[derive(Debug)]
pub struct PanePipe {
    pub id: PipeId,
    /// The pane's output goes to the command (`-O`).
    pub output: bool,
    /// What the command writes is sent to the pane (`-I`).
    pub input: bool,
    pending: Vec<u8>,
    sent: usize,
    /// Output bytes dropped because the command did not keep up.
    pub dropped: u64,
    /// Not read while the pane's input queue is full.
    paused: bool,
    watching_write: bool,
}

impl PanePipe {
    pub fn new(id: PipeId, output: bool, input: bool) -> PanePipe {
        PanePipe {
            id,
            output,
            input,
            pending: Vec::new(),
            sent: 0,
            dropped: 0,
            paused: false,
            watching_write: false,
        }
    }

    /// Queues a copy of pane output (up to the bound).
    pub fn copy(&mut self, bytes: &[u8]) {
        if !self.output {
            return;
        }
        let room = PIPE_OUTPUT_LIMIT.saturating_sub(self.pending.len() - self.sent);
        let take = bytes.len().min(room);
        if self.sent > 0 && self.pending.len() + take > self.pending.capacity() {
            // Reuse the space of what was written before growing.
            self.pending.drain(..self.sent);
            self.sent = 0;
        }
        self.pending.extend_from_slice(&bytes[..take]);
        self.dropped += (bytes.len() - take) as u64;
    }

    /// Bytes queued for the command.
    pub fn queued(&self) -> usize {
        self.pending.len() - self.sent
    }

    /// Writes what the command accepts; `false` when the pipe is broken.
    fn flush(&mut self, os: &mut dyn Programs) -> bool {
        while self.sent < self.pending.len() {
            match os.pipe_write(self.id, &self.pending[self.sent..]) {
                Ok(0) => break,
                Ok(n) => self.sent += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(_) => return false,
            }
        }
        if self.sent == self.pending.len() {
            self.pending.clear();
            self.sent = 0;
        }
        self.watch(os);
        true
    }

    /// Asks the host for the events the pipe needs now.
    fn watch(&mut self, os: &mut dyn Programs) {
        let want_write = self.queued() > 0;
        if want_write != self.watching_write {
            os.pipe_watch(self.id, !self.paused, want_write);
            self.watching_write = want_write;
        }
    }

    fn pause(&mut self, os: &mut dyn Programs, paused: bool) {
        if self.paused != paused {
            self.paused = paused;
            self.watching_write = self.queued() > 0;
            os.pipe_watch(self.id, !paused, self.watching_write);
        }
    }
}

impl Pane {
    /// Gives the pipe's command the output queued for it.
    pub fn flush_pipe(&mut self, os: &mut dyn Programs) {
        let Some(p) = self.pipe.as_mut() else { return };
        if p.queued() > 0 && !p.flush(os) {
            self.close_pipe(os);
        }
    }

    /// Reads what the pipe's command wrote and sends it to the program as keys.
    fn read_pipe(&mut self, os: &mut dyn Programs) {
        let Some(p) = self.pipe.as_ref() else { return };
        let (id, input) = (p.id, p.input);
        // Readiness while paused can only be the command hanging up: what is left is bounded
        // by the socket's buffer, so it is read to the end whatever the pane has queued.
        let draining = p.paused;
        let mut buf = [0u8; 65536];
        let mut total = 0;
        while total < PIPE_READ_PER_TURN {
            if input && !draining && self.input_pending() >= PIPE_INPUT_LIMIT {
                if let Some(p) = self.pipe.as_mut() {
                    p.pause(os, true);
                }
                return;
            }
            match os.pipe_read(id, &mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    total += n;
                    if input {
                        self.keys(os, &buf[..n]);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(_) => break,
            }
        }
        if total < PIPE_READ_PER_TURN {
            // End of file or an error: the command is gone.
            self.close_pipe(os);
        }
    }

    /// Reads the pipe again once the program has taken enough of its input.
    pub fn resume_pipe(&mut self, os: &mut dyn Programs) {
        if self.input_pending() >= PIPE_INPUT_LIMIT {
            return;
        }
        if let Some(p) = self.pipe.as_mut() {
            p.pause(os, false);
        }
    }

    /// Closes the pipe (what the command has not taken yet is given one last chance).
    pub fn close_pipe(&mut self, os: &mut dyn Programs) -> bool {
        let Some(mut p) = self.pipe.take() else {
            return false;
        };
        if p.queued() > 0 {
            p.flush(os);
        }
        os.close_pipe(p.id);
        true
    }
}

impl Engine {
    /// Starts `command` as the pane's pipe (the caller has closed any previous one).
    pub fn open_pipe(
        &mut self,
        pane_id: u32,
        command: &str,
        cwd: &str,
        output: bool,
        input: bool,
    ) -> Result<(), String> {
        let env: Vec<(String, String)> = self
            .environ
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let id = self
            .host
            .spawn_pipe(command, cwd, &env, output, input)
            .map_err(|err| format!("fork error: {}", crate::sys::socket::os_error(&err)))?;
        // The copy starts with output the program writes from now on, as tmux's does: what
        // it wrote before goes to the screen first.
        self.drain(pane_id);
        let opened = self.with_pane(pane_id, |pane, _, _| {
            pane.pipe = Some(Box::new(PanePipe::new(id, output, input)));
        });
        if opened.is_none() {
            self.host.close_pipe(id);
        }
        Ok(())
    }

    /// Starts `command` with `text` on its standard input; what its pipe does not take at once
    /// is written as it can take more.
    pub fn feed_command(
        &mut self,
        command: &str,
        cwd: &str,
        env: &[(String, String)],
        text: &[u8],
    ) {
        let Ok(id) = self.host.spawn_pipe(command, cwd, env, true, false) else {
            return;
        };
        let mut feed = PanePipe::new(id, true, false);
        feed.pending = text.to_vec();
        self.feeds.push(feed);
        self.pipe_event(id, IoEvent::Writable);
    }

    /// Writes what a feed's command takes; the feed ends once its text is all written or its
    /// command has gone (its end of the pipe closed: what it writes back is read and dropped).
    fn feed_event(&mut self, index: usize, event: IoEvent) {
        let feed = &mut self.feeds[index];
        let done = match event {
            IoEvent::Writable => !feed.flush(&mut *self.host) || feed.queued() == 0,
            IoEvent::Readable => match self.host.pipe_read(feed.id, &mut [0u8; 4096]) {
                Ok(n) => n == 0,
                Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
            },
            IoEvent::Exited => false,
        };
        if done {
            let feed = self.feeds.swap_remove(index);
            self.host.close_pipe(feed.id);
        }
    }

    /// Closes a pane's pipe; returns whether it had one.
    pub fn close_pane_pipe(&mut self, pane_id: u32) -> bool {
        self.with_pane(pane_id, |pane, os, _| pane.close_pipe(os))
            .unwrap_or(false)
    }

    /// The host reports readiness on a pipe.
    pub fn pipe_event(&mut self, id: PipeId, event: IoEvent) {
        // Pipes are rare, so a scan costs less than keeping an index in step.
        let owner = self
            .panes()
            .find(|p| p.pipe.as_ref().is_some_and(|x| x.id == id))
            .map(|p| p.id);
        let Some(pane_id) = owner else {
            match self.feeds.iter().position(|f| f.id == id) {
                Some(index) => self.feed_event(index, event),
                None => self.host.close_pipe(id),
            }
            return;
        };
        self.with_pane(pane_id, |pane, os, _| match event {
            IoEvent::Readable => pane.read_pipe(os),
            IoEvent::Writable => pane.flush_pipe(os),
            IoEvent::Exited => {}
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_is_bounded_and_counts_what_it_drops() {
        let mut p = PanePipe::new(1, true, false);
        p.copy(&vec![b'x'; PIPE_OUTPUT_LIMIT - 10]);
        p.copy(&[b'y'; 25]);
        assert_eq!(p.queued(), PIPE_OUTPUT_LIMIT);
        assert_eq!(p.dropped, 15);
        let mut q = PanePipe::new(2, false, true);
        q.copy(b"ignored");
        assert_eq!(q.queued(), 0);
    }
}
