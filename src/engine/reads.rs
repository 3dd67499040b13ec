//! When program output is read: batched at shared boundaries, at once for those who need it.
//!
//! Reading a session the moment it writes costs a wakeup, a read and a parse per write; agent
//! TUIs write many small frames a second, so with hundreds of sessions that is most of the
//! server's work. Instead, a pane that reports output is *deferred*: its readability stops
//! being watched and it is read at the next multiple of [`BATCH_INTERVAL_MS`] on the monotonic
//! clock, together with every other pane due then, in one wakeup. Nobody sees the delay:
//! every reader of a screen (capture-pane, formats, send-keys, attach) drains it first.
//!
//! Read at once instead: a pane an attached client shows, a pane with a `pipe-pane` command, a
//! pane that hung up (reported with nothing queued), and a *busy* pane. A writer that fills its
//! socket blocks, and Linux has no low-water wakeup for unix sockets. What fills a socket is the
//! count of writes more than their bytes (each queued write is charged its buffer overhead: a
//! program writing 5-byte lines blocked after 278 of them, 1,390 bytes). A pane that reports
//! output with [`FILL_MIN_BYTES`] or more queued (a frame, or a writer that filled its socket
//! before the event was handled: the two look alike) is read at once, which frees a blocked
//! writer to write on, and stays deferred. [`PROBE_MS`] after a pane was deferred its queue is
//! looked at (one `ioctl`): a queue that grew makes the engine ask the host how full the
//! program's side is (`Programs::output_fill`, from the kernel's socket diagnostics), and at
//! [`BUSY_FILL`] percent the pane is busy. While the queue keeps growing without filling the
//! socket the pane is looked at again, each time twice as long after; once it stops, every
//! [`LATE_LOOK_MS`] until the boundary, where a queue that grew by [`LATE_FLOOD_BYTES`] is read
//! (and one that grew by [`LATE_ASK_BYTES`] and fills its socket is busy): a program that writes
//! a frame and stops costs a few looks (one `ioctl` each, in shared wakeups), and one quiet at a
//! look that then floods its socket waits [`LATE_LOOK_MS`] at most.
//!
//! A program that writes each frame at once and then nothing until the next (its last boundary
//! read found nothing, `Pane::silent_after_frames`) has its frames read when reported and stays
//! watched (or is watched again when a probe after a late look's read finds nothing queued): its
//! next frame is heard by its event instead of looked for every [`LATE_LOOK_MS`] and read again
//! at the boundary (400 sessions redrawing a frame a second: 35,000 system calls in 10 s, then
//! 16,000). One that writes again within that interval has frames in parts and waits for the
//! boundaries again. On a socket its frame is read without asking how much is queued, and its
//! watch stays after each report (`Watch::steady`): a read a frame, where there were a queue
//! look, a read and a renewed watch.
//!
//! The engine tells the host which terminals someone waits on (`Watch::prompt`: shown by an
//! attached client, piped, busy, or with input to write). The host may hold back the others'
//! events for a moment to report many together (the server: up to 50 ms), which changes what
//! a frame read when reported costs, not what anyone sees.
//!
//! A queue of [`BUSY_BYTES`] when the pane reports output makes it busy at once, and where the
//! host cannot tell how full the socket is (a PTY), a queue that grew by the probe does. A busy
//! pane stays busy while it writes [`BUSY_INTERVAL_BYTES`] an interval. It is read as soon as it
//! writes, ahead into its backlog without parsing, and the backlog is parsed once the writer has
//! paused for [`PAUSE_MS`] (or the backlog reaches its limit), so the writer never waits on the
//! parser.
//!
//! Invariants: a deferred pane is in `deferred` (a listed pane may have been read since, or
//! be gone: entries are checked, not trusted); every pane with a backlog is in `backlogged`;
//! `boundary` is set whenever `deferred` or `busy` is non-empty.

use super::os::{Backend, Programs};
use super::pane::{Pane, BACKLOG_LIMIT, BUSY_BYTES};
use super::Engine;

/// The batch interval: output of quiet panes is read at multiples of this (ms). With 400
/// agent sessions the seeds measured 5.2% CPU reading every 100 ms and 3.7% every 300 ms.
pub const BATCH_INTERVAL_MS: u64 = 300;

/// How full a program's side of its socket must be for its pane to be busy (percent). Agent
/// TUIs write frames of a few KB in a few writes: a few percent.
pub const BUSY_FILL: u32 = 50;

/// Output an interval that keeps a pane busy: about 213 KB/s. The Gemini CLI recording
/// writes 59 KB/s in large frames, far from filling its socket, and is cheaper read in batches.
pub const BUSY_INTERVAL_BYTES: usize = 64 << 10;

/// How long a busy writer must have written nothing before its backlog is parsed. `cat` of
/// a 5.4 MB log pauses between its reads of the file and when the scheduler takes it off the
/// CPU: parsing after a 2 ms pause made it block on a full socket while megabytes were parsed
/// (13 to 61 ms to write it all); after 10 ms, 8 to 10 ms, of which 3.6 ms is starting `cat`
/// and `date` (the same command into /dev/null). `bench/line_writer.sh cat` measures it.
pub const PAUSE_MS: u64 = 10;

/// How long after deferring a pane its queue is looked at again. Probes of panes deferred
/// close together share a wakeup (they are due at multiples of this).
pub const PROBE_MS: u64 = 5;

/// How often a deferred pane whose queue has stopped growing is looked at until the boundary
/// (every such pane at the same multiples of this, in one wakeup). A shell's prompt and then
/// `seq 1 200000` fifty milliseconds later: the prompt's look found it quiet, and the writer
/// then filled its socket and waited for the boundary, 275 to 289 ms in all against tmux's 77
/// to 106; with these looks 75 to 94 (`bench/line_writer.sh prompt`, and `ZEROPTY_BIN=` the
/// build before), and a writer that fills its socket waits this long at most.
pub const LATE_LOOK_MS: u64 = 50;

/// What a queue must have grown by since the last late look for its pane to be read then. A
/// writer of 6-byte lines (Python's `print(flush=True)`) has half filled a 2 MiB socket after
/// 1,370 writes, 8 KB; agents add less in 50 ms (Claude Code writes 2.8 KB a second on
/// average). Reading every queue that grew by [`FILL_MIN_BYTES`] took 400 agent replays from
/// 4.3% to 5.0% of a core, this from 4.5% to 4.8% (`BASE= ROUNDS=3 bench/scale.sh cast 400`).
/// A program writing lines of a byte or two fills its socket with less: see [`LATE_ASK_BYTES`].
pub const LATE_FLOOD_BYTES: usize = 8 << 10;

/// What a queue must have grown by since the last late look for the engine to ask the host
/// how full the program's side is (when it grew by less than [`LATE_FLOOD_BYTES`]), if the
/// pane's last interval read next to nothing ([`FILL_MIN_BYTES`]): a command starting after a
/// prompt, not an agent at work. A prompt, then 100,000 empty lines a write each: the writer
/// filled its 2 MiB socket with 2.7 KB and waited for the boundary, 358 to 404 ms (once
/// 1,291) against tmux's 227 to 286 (`bench/line_writer.sh blank`); at the kernel's default
/// cap a socket holds about 550 such writes. Asking about every pane that grew by this much
/// took 400 agent replays from 4.9% to 6.1% of a core (1,000 kernel asks in 10 s to 16,700).
pub const LATE_ASK_BYTES: usize = 512;

/// Fewer bytes than this queued cannot be filling the program's side: a socket is charged 766
/// bytes a write whatever its length (278 writes of 1, 5 or 50 bytes filled one of the
/// kernel's default 212,992 bytes here; the host asks for more, see `PROGRAM_SEND_BUFFER` in
/// `sys/host_os.rs`), so half of even the default takes 139 writes and as many bytes at
/// least, and a PTY fills by bytes. Below it a pane is neither read when it reports output
/// nor asked about: Claude Code's spinner frames are 44 to 116 bytes (the middle half of
/// `claude-a.cast`'s writes) and wait for the boundary together; asking the kernel about each
/// was an eighth of the server's CPU under 400 agent replays.
pub const FILL_MIN_BYTES: usize = 128;

/// A deferred pane waiting for a look at its queue.
struct Probe {
    pane_id: u32,
    /// What it had queued at the last look (or when it was deferred).
    queued: usize,
    /// When the look is due (monotonic ms, a multiple of [`PROBE_MS`]).
    due: u64,
    /// How long after the last look this one comes: [`PROBE_MS`] for the first, doubling.
    wait: u64,
}

/// A deferred pane whose queue stopped growing, looked at for a flood until the boundary.
struct LateLook {
    pane_id: u32,
    /// What it had queued at the last look.
    queued: usize,
}

#[derive(Default)]
pub struct Reads {
    /// Panes whose output waits for the boundary.
    deferred: Vec<u32>,
    /// Panes read as soon as they write; re-judged at each boundary.
    busy: Vec<u32>,
    /// Panes holding output read ahead and not parsed.
    backlogged: Vec<u32>,
    /// Deferred panes to probe.
    probing: Vec<Probe>,
    /// Deferred panes whose queues stopped growing, all looked at together.
    late: Vec<LateLook>,
    /// The next batch boundary (monotonic ms), while anything waits for one.
    boundary: Option<u64>,
    /// When the first of the panes in `probing` is due.
    probe_at: Option<u64>,
    /// When the panes in `late` are looked at (a multiple of [`LATE_LOOK_MS`] before the
    /// boundary), while there are any.
    late_at: Option<u64>,
}

impl Reads {
    /// When the engine next has reading to do: the boundary, a probe, or a backlog's writer
    /// pausing (`backlog_due` for a pane's).
    pub fn deadline(&self, backlog_due: impl Fn(u32) -> Option<u64>) -> Option<u64> {
        let backlogs = self.backlogged.iter().filter_map(|&id| backlog_due(id));
        self.boundary
            .into_iter()
            .chain(self.probe_at)
            .chain(self.late_at)
            .chain(backlogs)
            .min()
    }

    fn schedule_boundary(&mut self, now: u64) {
        self.boundary
            .get_or_insert(next_multiple(now, BATCH_INTERVAL_MS));
    }

    fn defer(&mut self, pane_id: u32, queued: usize, now: u64) {
        self.deferred.push(pane_id);
        self.schedule_boundary(now);
        self.probe(Probe {
            pane_id,
            queued,
            due: next_multiple(now, PROBE_MS),
            wait: PROBE_MS,
        });
    }

    fn probe(&mut self, probe: Probe) {
        self.probe_at = Some(self.probe_at.map_or(probe.due, |t| t.min(probe.due)));
        self.probing.push(probe);
    }

    /// Looks at a quiet deferred pane again at the next late look, if that comes before the
    /// boundary.
    fn look_late(&mut self, look: LateLook, now: u64) {
        let due = next_multiple(now, LATE_LOOK_MS);
        if self.boundary.is_some_and(|b| due < b) {
            self.late_at.get_or_insert(due);
            self.late.push(look);
        }
    }

    fn note_busy(&mut self, pane_id: u32, newly: bool, now: u64) {
        if newly {
            self.busy.push(pane_id);
            self.schedule_boundary(now);
        }
        if !self.backlogged.contains(&pane_id) {
            self.backlogged.push(pane_id);
        }
    }
}

/// The first multiple of `step` after `now`.
fn next_multiple(now: u64, step: u64) -> u64 {
    (now / step + 1) * step
}

impl Engine {
    /// A pane's terminal reported output (or hangup): read it now or at the boundary.
    pub(super) fn output_ready(&mut self, pane_id: u32) {
        let viewed = self.is_viewed(pane_id);
        let now = self.host.now_ms();
        let Some(verdict) = self.with_pane(pane_id, |pane, os, now| {
            pane.shown = viewed;
            // Hangup is reported even while readability is not watched (a deferred pane):
            // read it now, or the loop would be woken for it until the boundary.
            if pane.deferred || (!pane.busy && (pane.shown || pane.copied())) {
                pane.drain_output(os, now);
                return Verdict::Read;
            }
            if pane.busy {
                return Verdict::Busy {
                    newly: read_busy(pane, os, now),
                };
            }
            let watched_again_lately = pane
                .watched_again_at
                .is_some_and(|t| now < t + BATCH_INTERVAL_MS);
            if pane.silent_after_frames && !watched_again_lately && pane.backend == Backend::Socket
            {
                return read_frame_unasked(pane, os, now);
            }
            // A large queue (a bulk writer) is busy at once. The kernel is not asked here (a
            // round trip per frame was a fifth of the redraw workload's CPU): a writer that
            // already filled its socket is found by reading it below, the probe asks.
            let queued = pane.queued_output(os);
            if queued == 0 {
                // Readable with nothing queued: the program's side hung up, and reading says so.
                pane.drain_output(os, now);
                return Verdict::Read;
            }
            if queued >= BUSY_BYTES {
                return Verdict::Busy {
                    newly: read_busy(pane, os, now),
                };
            }
            if pane
                .watched_again_at
                .take()
                .is_some_and(|t| now < t + BATCH_INTERVAL_MS)
            {
                // It wrote again within the interval it was watched again in: its frames come
                // in parts, and the parts wait for the boundary.
                pane.silent_after_frames = false;
            }
            if queued >= FILL_MIN_BYTES && pane.silent_after_frames {
                // A frame from a program silent after its frames: read whole (a socket's short
                // read takes all there was) and left watched, with no probe to find it silent.
                pane.take_pending(os, now);
                pane.watch_again(os, now);
                return Verdict::Read;
            }
            pane.deferred = true;
            pane.interval_bytes = 0;
            pane.update_watch(os);
            if queued < FILL_MIN_BYTES {
                return Verdict::Deferred { queued };
            }
            // Enough to be a frame, or a writer that filled its socket before this event was
            // handled (a writer of short lines fills one with a few KB queued): the two look
            // alike, and reading tells them apart. A blocked writer, freed, writes on and
            // the look sees its queue grow; a frame is read now, not at the boundary, and
            // the rest of the interval's writes wait for the boundary. Asking the kernel how
            // full the socket was at the first look instead (it finds the socket by walking
            // every unix socket on the machine) took 1000 sessions redrawing a frame a second
            // 5.2% of a core, reading the queue then 4.0% (`BASE=` bench/scale.sh redraw 1000).
            pane.take_pending(os, now);
            Verdict::Deferred { queued: 0 }
        }) else {
            return;
        };
        match verdict {
            Verdict::Read => {}
            Verdict::Busy { newly } => self.reads.note_busy(pane_id, newly, now),
            Verdict::Deferred { queued } => self.reads.defer(pane_id, queued, now),
        }
    }

    /// Deferred panes whose programs are filling their sockets are busy. A pane whose queue
    /// grew since the last look without filling its socket is looked at again, twice as long
    /// after: a program that starts slowly and then writes as fast as it can would otherwise
    /// block until the boundary. One whose queue stayed (an agent's frame: a look or two) is
    /// left to the late looks.
    fn probe_deferred(&mut self) {
        let now = self.host.now_ms();
        if self.reads.probe_at.is_none_or(|t| now < t) {
            return;
        }
        let (due, later): (Vec<Probe>, Vec<Probe>) = std::mem::take(&mut self.reads.probing)
            .into_iter()
            .partition(|p| p.due <= now);
        self.reads.probe_at = later.iter().map(|p| p.due).min();
        self.reads.probing = later;
        for probe in due {
            let outcome = self.with_pane(probe.pane_id, |pane, os, now| {
                let queued = pane.queued_output(os);
                if !pane.deferred {
                    Look::Done
                } else if queued == 0 && pane.silent_after_frames {
                    // Read by a late look and nothing followed, as at the last boundary:
                    // watched again, so its next frame is heard rather than looked for.
                    pane.watch_again(os, now);
                    Look::Done
                } else if queued <= probe.queued {
                    Look::Quiet(queued)
                } else if queued >= FILL_MIN_BYTES && filling(pane, os, true) {
                    Look::Busy(read_busy(pane, os, now))
                } else {
                    Look::Again(queued)
                }
            });
            match outcome {
                Some(Look::Busy(newly)) => self.reads.note_busy(probe.pane_id, newly, now),
                Some(Look::Again(queued)) => {
                    let wait = probe.wait * 2;
                    let due = next_multiple(now + wait - 1, PROBE_MS);
                    if self.reads.boundary.is_some_and(|b| due < b) {
                        self.reads.probe(Probe {
                            queued,
                            due,
                            wait,
                            ..probe
                        });
                    }
                }
                Some(Look::Quiet(queued)) => self.reads.look_late(
                    LateLook {
                        pane_id: probe.pane_id,
                        queued,
                    },
                    now,
                ),
                Some(Look::Done) | None => {}
            }
        }
    }

    /// Every [`LATE_LOOK_MS`] until the boundary, the quiet deferred panes are looked at for a
    /// flood: a queue that grew by [`LATE_FLOOD_BYTES`] since the last look is read (which
    /// frees a writer that filled its socket, or is about to) and probed again from the start;
    /// one that grew by [`LATE_ASK_BYTES`] and fills its socket (a flood of the shortest
    /// writes) is busy. Agents' frames add less than that in the interval and wait for the
    /// boundary. Returns whether a program's output reached its end.
    fn look_late(&mut self) -> bool {
        let now = self.host.now_ms();
        if self.reads.late_at.is_none_or(|t| now < t) {
            return false;
        }
        self.reads.late_at = None;
        let mut ended = false;
        for look in std::mem::take(&mut self.reads.late) {
            let outcome = self.with_pane(look.pane_id, |pane, os, now| {
                let queued = pane.queued_output(os);
                if !pane.deferred {
                    Look::Done
                } else if queued >= look.queued + LATE_FLOOD_BYTES {
                    pane.take_pending(os, now);
                    ended |= pane.eof;
                    Look::Again(0)
                } else if queued >= look.queued + LATE_ASK_BYTES
                    && pane.last_interval_bytes < FILL_MIN_BYTES
                    && filling(pane, os, false)
                {
                    Look::Busy(read_busy(pane, os, now))
                } else {
                    Look::Quiet(queued)
                }
            });
            match outcome {
                Some(Look::Busy(newly)) => self.reads.note_busy(look.pane_id, newly, now),
                Some(Look::Again(queued)) => {
                    self.reads.probe(Probe {
                        pane_id: look.pane_id,
                        queued,
                        due: next_multiple(now, PROBE_MS),
                        wait: PROBE_MS,
                    });
                    self.note_string_state(look.pane_id);
                }
                Some(Look::Quiet(queued)) => self.reads.look_late(LateLook { queued, ..look }, now),
                _ => {}
            }
        }
        ended
    }

    /// Whether an attached client shows the pane (its output is then read at once).
    pub(super) fn is_viewed(&self, pane_id: u32) -> bool {
        !self.clients.is_empty()
            && self
                .clients
                .iter()
                .any(|c| self.session_shows(c.session, pane_id))
    }

    /// Backlogs whose writers paused are parsed; at the boundary, deferred panes are read and
    /// busy panes re-judged. Returns whether a program's output reached its end (the pane is
    /// then to be reaped).
    pub(super) fn read_due(&mut self) -> bool {
        self.probe_deferred();
        let mut ended = self.look_late();
        ended |= self.parse_paused_backlogs();
        let now = self.host.now_ms();
        if self.reads.boundary.is_some_and(|b| now >= b) {
            self.reads.boundary = None;
            self.reads.late.clear();
            self.reads.late_at = None;
            // Judged before the deferred are read, so a pane that turns busy now keeps the
            // interval it has just begun.
            self.judge_busy();
            ended |= self.read_deferred();
            if !self.reads.busy.is_empty() {
                self.reads.schedule_boundary(now);
            }
        }
        ended
    }

    /// A backlog is parsed once its writer has paused (or it is full). Returns whether a
    /// program's output reached its end.
    fn parse_paused_backlogs(&mut self) -> bool {
        let mut ended = false;
        let mut backlogged = std::mem::take(&mut self.reads.backlogged);
        backlogged.retain(|&id| {
            // Nothing is read here: a writer that goes on is heard from through its events.
            self.with_pane(id, |pane, os, now| {
                let paused = now >= pane.read_ahead_at + PAUSE_MS || pane.eof;
                if paused || pane.backlog_len() >= BACKLOG_LIMIT {
                    pane.parse_backlog(os, now);
                }
                ended |= pane.eof;
                pane.backlog_len() > 0
            })
            .unwrap_or(false)
        });
        self.reads.backlogged.extend(backlogged);
        ended
    }

    /// Reads the panes deferred to this boundary. Returns whether a program's output reached
    /// its end.
    fn read_deferred(&mut self) -> bool {
        let mut ended = false;
        for id in std::mem::take(&mut self.reads.deferred) {
            let became_busy = self.with_pane(id, |pane, os, now| {
                if !pane.deferred {
                    return false;
                }
                pane.silent_after_frames = !pane.drain_output(os, now);
                ended |= pane.eof;
                let busy = pane.interval_bytes >= BUSY_INTERVAL_BYTES;
                pane.last_interval_bytes = pane.interval_bytes;
                pane.interval_bytes = 0;
                pane.busy = busy;
                busy
            });
            if became_busy == Some(true) {
                self.reads.busy.push(id);
            }
            self.note_string_state(id);
        }
        ended
    }

    /// A busy pane that wrote less than [`BUSY_INTERVAL_BYTES`] in the last interval goes
    /// back to batched reads.
    fn judge_busy(&mut self) {
        let mut busy = std::mem::take(&mut self.reads.busy);
        busy.retain(|&id| {
            self.with_pane(id, |pane, _, _| {
                pane.busy = pane.interval_bytes >= BUSY_INTERVAL_BYTES;
                pane.interval_bytes = 0;
                pane.busy
            })
            .unwrap_or(false)
        });
        self.reads.busy = busy;
    }
}

/// Whether a pane's program is near blocking on its socket: by how full its side is when the
/// host can tell, else by `by_bytes` (the caller's judgement from byte counts).
fn filling(pane: &Pane, os: &dyn Programs, by_bytes: bool) -> bool {
    match pane.io.and_then(|io| os.output_fill(io)) {
        Some(fill) => fill >= BUSY_FILL,
        None => by_bytes,
    }
}

/// Marks a pane busy and reads what it has ahead. Returns whether it was not busy before.
fn read_busy(pane: &mut Pane, os: &mut dyn Programs, now: u64) -> bool {
    let newly = !pane.busy;
    pane.busy = true;
    if pane.deferred {
        pane.deferred = false;
        pane.update_watch(os);
    }
    pane.read_ahead(os, now);
    if pane.backlog_len() >= BACKLOG_LIMIT {
        pane.parse_backlog(os, now);
    }
    newly
}

/// Reads the frame of a program silent after its frames without asking how much is queued
/// first (one of the three system calls of each frame: `SYSCALLS=1 bench/scale.sh redraw
/// 200`). What the read took decides as the queue would have: a flood makes the pane busy, a
/// part of a frame (parsed already) waits with the rest for the boundary.
fn read_frame_unasked(pane: &mut Pane, os: &mut dyn Programs, now: u64) -> Verdict {
    let read = pane.take_frame(os, now);
    if read >= BUSY_BYTES {
        return Verdict::Busy {
            newly: read_busy(pane, os, now),
        };
    }
    if read == 0 || read >= FILL_MIN_BYTES {
        pane.watch_again(os, now);
        return Verdict::Read;
    }
    pane.deferred = true;
    pane.interval_bytes = 0;
    pane.update_watch(os);
    Verdict::Deferred { queued: 0 }
}

/// What a probe of a deferred pane found.
enum Look {
    /// Filling its socket: busy now (newly).
    Busy(bool),
    /// Its queue grew to this without filling the socket: look again later.
    Again(usize),
    /// Its queue stayed at this: look for a flood until the boundary.
    Quiet(usize),
    /// Read since.
    Done,
}

enum Verdict {
    Read,
    Busy { newly: bool },
    Deferred { queued: usize },
}
