//! The server's message log, as tmux 3.3a keeps it (`server_add_message`) and `show-messages`
//! prints it: every command run once the configuration files have loaded (`NAME command:
//! ...`, or `NAME key KEY: ...` for a key binding's), every message shown on a client's
//! status line and every error told to a client (`NAME message: ...`), newest last.
//!
//! The log is written all the time and read rarely, so all but its newest entries are kept
//! zstd-compressed, [`BLOCK_ENTRIES`] to a block: the command lines that start sessions pack
//! to under a quarter of their bytes (the unit test below checks it), and with 400 idle
//! sessions the log costs the server 68 KiB (`BASE=<4722b59's build, without the log>
//! ROUNDS=3 SETTLE=15 bench/scale.sh idle 400`: 3,779 to 3,847 KiB).
//!
//! Invariants: entries are numbered from 0 in the order they came, with no gaps; the log
//! holds the `message-limit` newest entries after an addition (a lower limit trims the log
//! at the next addition, as tmux's does); a block holds exactly [`BLOCK_ENTRIES`] entries,
//! only the newest entries are uncompressed, and there are fewer than [`BLOCK_ENTRIES`] of
//! them.

use crate::term::Compressor;
use std::collections::VecDeque;

/// How many entries are compressed together: enough for the repeated command lines of one
/// block to compress well (a unit test checks at least 4x for lines that start sessions), few
/// enough that the uncompressed newest ones stay small.
const BLOCK_ENTRIES: usize = 64;

/// One entry: its number, when it was added (seconds since the epoch) and its text.
#[derive(Debug, PartialEq, Eq)]
pub struct Message {
    pub number: u64,
    pub time: i64,
    pub text: String,
}

/// [`BLOCK_ENTRIES`] entries, each as its time (8 bytes), its text's length (4 bytes) and its
/// text, compressed.
#[derive(Debug)]
struct Block {
    /// The number of its first entry.
    first: u64,
    raw_len: usize,
    packed: Box<[u8]>,
}

#[derive(Debug, Default)]
pub struct MessageLog {
    /// Older entries, oldest first.
    blocks: VecDeque<Block>,
    /// The newest entries, as they came.
    recent: Vec<(i64, Box<str>)>,
    /// The number of the oldest entry kept (entries before it in the oldest block are gone).
    first: u64,
    /// The number the next entry gets.
    next: u64,
}

impl MessageLog {
    /// Adds an entry at `time`, then forgets the oldest ones beyond `limit`.
    pub fn add(&mut self, text: String, time: i64, limit: usize) {
        self.recent.push((time, text.into_boxed_str()));
        self.next += 1;
        self.first = self.first.max(self.next.saturating_sub(limit as u64));
        if self.recent.len() == BLOCK_ENTRIES {
            self.seal();
        }
        while self
            .blocks
            .front()
            .is_some_and(|b| b.first + BLOCK_ENTRIES as u64 <= self.first)
        {
            self.blocks.pop_front();
        }
        let recent_first = self.next - self.recent.len() as u64;
        if self.first > recent_first {
            self.recent.drain(..(self.first - recent_first) as usize);
        }
    }

    /// Compresses the newest entries into a block; if that fails (memory), they are dropped
    /// rather than kept beyond their bound.
    fn seal(&mut self) {
        let first = self.next - self.recent.len() as u64;
        let mut raw = Vec::new();
        for (time, text) in self.recent.drain(..) {
            raw.extend_from_slice(&time.to_le_bytes());
            raw.extend_from_slice(&(text.len() as u32).to_le_bytes());
            raw.extend_from_slice(text.as_bytes());
        }
        if let Ok(packed) = Compressor::default().compress(&raw) {
            self.blocks.push_back(Block {
                first,
                raw_len: raw.len(),
                packed: packed.into_boxed_slice(),
            });
        }
    }

    /// The entries kept, newest first (the order `show-messages` prints them in).
    pub fn newest_first(&self) -> Vec<Message> {
        let mut all = Vec::new();
        for block in &self.blocks {
            let raw = zstd::bulk::decompress(&block.packed, block.raw_len).unwrap_or_default();
            all.extend(unpack(&raw, block.first));
        }
        let recent_first = self.next - self.recent.len() as u64;
        all.extend(
            self.recent
                .iter()
                .enumerate()
                .map(|(i, (time, text))| Message {
                    number: recent_first + i as u64,
                    time: *time,
                    text: text.to_string(),
                }),
        );
        all.retain(|m| m.number >= self.first);
        all.reverse();
        all
    }
}

/// The entries of a block's bytes, numbered from `first`.
fn unpack(mut raw: &[u8], first: u64) -> Vec<Message> {
    let mut out = Vec::new();
    while raw.len() >= 12 {
        let time = i64::from_le_bytes(raw[..8].try_into().expect("8 bytes"));
        let len = u32::from_le_bytes(raw[8..12].try_into().expect("4 bytes")) as usize;
        let Some(text) = raw.get(12..12 + len) else {
            break;
        };
        out.push(Message {
            number: first + out.len() as u64,
            time,
            text: String::from_utf8_lossy(text).into_owned(),
        });
        raw = &raw[12 + len..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers_and_texts(log: &MessageLog) -> Vec<(u64, String)> {
        log.newest_first()
            .into_iter()
            .map(|m| (m.number, m.text))
            .collect()
    }

    #[test]
    fn entries_are_numbered_and_trimmed_to_the_limit() {
        let mut log = MessageLog::default();
        for i in 0..5 {
            log.add(format!("m{i}"), 100 + i, 3);
        }
        assert_eq!(
            numbers_and_texts(&log),
            [(4, "m4".into()), (3, "m3".into()), (2, "m2".into())]
        );
        // A lower limit applies at the next addition; numbers go on.
        log.add("m5".into(), 105, 1);
        assert_eq!(numbers_and_texts(&log), [(5, "m5".to_string())]);
        log.add("m6".into(), 106, 0);
        assert!(numbers_and_texts(&log).is_empty());
        log.add("m7".into(), 107, 10);
        assert_eq!(numbers_and_texts(&log), [(7, "m7".to_string())]);
        assert_eq!(log.newest_first()[0].time, 107);
    }

    #[test]
    fn compressed_blocks_read_back_whole_and_are_trimmed_across_their_edges() {
        let mut log = MessageLog::default();
        let text = |i: i64| format!("client-{i} command: new-session -d -s s{i} 'exec replay'");
        for i in 0..1000 {
            log.add(text(i), 1_700_000_000 + i, 1000);
        }
        let all = log.newest_first();
        assert_eq!(all.len(), 1000);
        for (m, i) in all.iter().zip((0..1000).rev()) {
            assert_eq!(
                (m.number, m.time, &m.text),
                (i as u64, 1_700_000_000 + i, &text(i))
            );
        }
        assert!(log.blocks.len() == 1000 / BLOCK_ENTRIES && log.recent.len() < BLOCK_ENTRIES);
        let packed: usize = log.blocks.iter().map(|b| b.packed.len()).sum();
        let raw: usize = log.blocks.iter().map(|b| b.raw_len).sum();
        assert!(packed * 4 < raw, "{packed} of {raw} bytes");
        // A limit that falls inside a block keeps that block's newer entries.
        log.add(text(1000), 1_700_001_000, 100);
        let kept = log.newest_first();
        assert_eq!(kept.len(), 100);
        assert_eq!((kept[0].number, kept[99].number), (1000, 901));
        assert_eq!(kept[99].text, text(901));
        assert!(log.blocks.len() <= 100 / BLOCK_ENTRIES + 1);
    }
}
