//! The cold store: screens quiet for long, zstd-compressed, in one shared file.
//!
//! A frozen screen is one byte chunk in process memory. After [`COLD_AFTER_MS`] of quiet the
//! engine compresses it and puts it here, at an extent of one file (by default an unnamed
//! memfd: the host's [`ColdFile`]), so thousands of quiet screens cost no heap and no
//! allocation each; with `ZEROPTY_COLD=memory` the file is a plain buffer in the heap. The
//! file still costs RAM (a memfd's pages are shared memory), so every memory figure counts
//! [`ColdStore::file_bytes`] too: what is won is the compression, not the accounting.
//!
//! Extents are placed first-fit in the freed space, freed space is given back to the file
//! (whole pages punched out, the tail truncated), and neighbouring free extents merge.
//!
//! Screens alike are compressed against each other. Agents in a fleet run the same few
//! programs, so their quiet screens share most of their bytes (the same start screen, the same
//! frames and help lines); zstd alone finds none of that across screens. So the store keeps up
//! to [`MAX_REFERENCES`] chunks whole in memory, *references*, and stores a chunk against the
//! one that makes it smallest, when that is at most half of what it takes alone: then it takes
//! only what differs. A chunk that no reference halves is stored alone and becomes a
//! *candidate* (the [`MAX_CANDIDATES`] latest are kept, so that screens of a few programs
//! taking turns each find their own); when a later chunk is halved against one, its bytes
//! become a reference. A reference goes when the last chunk stored against it leaves.
//!
//! Measured: 400 sessions showing Claude Code's last screen (`bench/scale.sh idle 400`) took
//! 3,153 bytes each alone; now one does, and 399 take 21 bytes each against it, kept whole
//! (7.8 KB). 40 screens of the two recorded agents, taking turns, each at the point where the
//! `cast` workload starts its session (`examples/cold_store`): 91,926 bytes alone, 24,059
//! against 26,368 bytes of references.
//!
//! Invariants: live extents never overlap; `free` holds disjoint, non-adjacent extents
//! below `end`; `live` is the sum of live extents' lengths; a reference's `users` counts
//! the live chunks stored against it, and is never zero; candidates are live chunks stored
//! alone.

use crate::term::{can_be_reference, decompress_against, Compressor};
use std::collections::{BTreeMap, VecDeque};
use std::io;

/// How long a frozen screen stays in process memory before it is compressed into the store.
pub const COLD_AFTER_MS: u64 = 10_000;

/// Chunks kept whole to compress others against: each costs its bytes in memory, and each
/// put tries them all.
pub const MAX_REFERENCES: usize = 4;

/// Chunks stored alone that a later chunk may make a reference.
const MAX_CANDIDATES: usize = 4;

/// The largest chunk kept whole as a reference. Larger chunks are mostly history, which
/// screens of different sessions do not share.
const MAX_REFERENCE_BYTES: usize = 64 * 1024;

/// The file behind the store (an unnamed memfd from the host, or memory).
pub trait ColdFile {
    fn write_at(&mut self, offset: u64, data: &[u8]) -> io::Result<()>;
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>>;
    /// The bytes at `offset..offset + len` are no longer needed: give their memory back.
    fn discard(&mut self, offset: u64, len: u64);
    /// The file ends at `len`.
    fn truncate(&mut self, len: u64);
    /// Memory the file holds now.
    fn allocated_bytes(&self) -> u64;
}

/// A cold screen's place in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColdRef {
    offset: u64,
    len: u32,
    /// The chunk's length before compression.
    raw_len: u32,
    /// The slot of the reference it was compressed against.
    reference: Option<u8>,
}

/// A chunk kept whole for others to be compressed against.
struct Reference {
    raw: Box<[u8]>,
    /// Live chunks stored against it.
    users: u32,
}

impl ColdRef {
    /// Bytes it takes in the store.
    pub fn stored_bytes(&self) -> usize {
        self.len as usize
    }
}

pub struct ColdStore {
    file: Box<dyn ColdFile>,
    /// Free extents below `end`: offset to length.
    free: BTreeMap<u64, u64>,
    end: u64,
    live: u64,
    /// zstd's compression context, kept from the first put of a sweep to its end.
    compressor: Compressor,
    /// Slots of references; a `ColdRef` names its reference by slot.
    references: [Option<Reference>; MAX_REFERENCES],
    /// The latest chunks stored alone, small enough to become references, newest first.
    candidates: VecDeque<ColdRef>,
}

impl Default for ColdStore {
    fn default() -> Self {
        ColdStore::new(Box::<MemoryFile>::default())
    }
}

impl ColdStore {
    pub fn new(file: Box<dyn ColdFile>) -> ColdStore {
        ColdStore {
            file,
            free: BTreeMap::new(),
            end: 0,
            live: 0,
            compressor: Compressor::default(),
            references: Default::default(),
            candidates: VecDeque::new(),
        }
    }

    /// Compresses a frozen chunk into the store. On failure the caller keeps the chunk.
    pub fn put(&mut self, chunk: &[u8]) -> io::Result<ColdRef> {
        let (packed, reference) = self.pack(chunk)?;
        let len = packed.len() as u64;
        let offset = self.allocate(len);
        if let Err(e) = self.file.write_at(offset, &packed) {
            self.release(offset, len);
            self.drop_unused_references();
            return Err(e);
        }
        self.live += len;
        let at = ColdRef {
            offset,
            len: len as u32,
            raw_len: chunk.len() as u32,
            reference,
        };
        match reference.and_then(|slot| self.references[usize::from(slot)].as_mut()) {
            Some(r) => r.users += 1,
            None if chunk.len() <= MAX_REFERENCE_BYTES && can_be_reference(chunk) => {
                self.candidates.truncate(MAX_CANDIDATES - 1);
                self.candidates.push_front(at);
            }
            None => {}
        }
        Ok(at)
    }

    /// The chunk's bytes as stored, and the slot of the reference they need. Against the
    /// reference that makes them fewest, when that is at most half of what they take alone,
    /// or at most an eighth of the chunk (then they are not compressed alone at all: agent
    /// screens take a third to a half of their bytes alone); else against the first candidate
    /// that halves them, which becomes a reference; else alone.
    fn pack(&mut self, chunk: &[u8]) -> io::Result<(Vec<u8>, Option<u8>)> {
        let mut best = self.fewest_against_a_reference(chunk);
        if let Some((packed, slot)) = best.take_if(|(p, _)| p.len() * 8 <= chunk.len()) {
            return Ok((packed, Some(slot)));
        }
        let alone = self.compressor.compress(chunk)?;
        if let Some((packed, slot)) = best.filter(|(p, _)| p.len() * 2 <= alone.len()) {
            return Ok((packed, Some(slot)));
        }
        Ok(match self.against_a_candidate(chunk, alone.len()) {
            Some((packed, slot)) => (packed, Some(slot)),
            None => (alone, None),
        })
    }

    /// `chunk` compressed against the reference that makes it smallest, and its slot.
    fn fewest_against_a_reference(&mut self, chunk: &[u8]) -> Option<(Vec<u8>, u8)> {
        let mut best: Option<(Vec<u8>, u8)> = None;
        for (slot, reference) in self.references.iter().enumerate() {
            let Some(reference) = reference else { continue };
            let Ok(packed) = self.compressor.compress_against(chunk, &reference.raw) else {
                continue;
            };
            if best.as_ref().is_none_or(|(b, _)| packed.len() < b.len()) {
                best = Some((packed, slot as u8));
            }
        }
        best
    }

    /// `chunk` compressed against the newest candidate that makes it at most half of `alone`
    /// bytes, which becomes a reference, and its slot.
    fn against_a_candidate(&mut self, chunk: &[u8], alone: usize) -> Option<(Vec<u8>, u8)> {
        let free_slot = self.references.iter().position(Option::is_none)?;
        for i in 0..self.candidates.len() {
            let Ok(raw) = self.read(self.candidates[i]) else {
                continue;
            };
            match self.compressor.compress_against(chunk, &raw) {
                Ok(packed) if packed.len() * 2 <= alone => {
                    self.candidates.remove(i);
                    self.references[free_slot] = Some(Reference {
                        raw: raw.into_boxed_slice(),
                        users: 0,
                    });
                    return Some((packed, free_slot as u8));
                }
                _ => {}
            }
        }
        None
    }

    /// The puts of a sweep are done: the compression context goes (it holds a working space
    /// sized for the largest screen it compressed).
    pub fn end_sweep(&mut self) {
        self.compressor = Compressor::default();
    }

    /// Takes a chunk back out of the store (its extent is freed, whether or not it could be
    /// read).
    pub fn take(&mut self, at: ColdRef) -> io::Result<Box<[u8]>> {
        let chunk = self.read(at);
        self.forget(at);
        Ok(chunk?.into_boxed_slice())
    }

    fn read(&self, at: ColdRef) -> io::Result<Vec<u8>> {
        let packed = self.file.read_at(at.offset, at.len as usize)?;
        let raw_len = at.raw_len as usize;
        match at.reference {
            None => zstd::bulk::decompress(&packed, raw_len),
            Some(slot) => {
                let reference = self.references[usize::from(slot)]
                    .as_ref()
                    .ok_or(io::ErrorKind::NotFound)?;
                decompress_against(&packed, raw_len, &reference.raw)
            }
        }
    }

    /// Frees a chunk's extent without reading it (its pane is gone).
    pub fn forget(&mut self, at: ColdRef) {
        self.live -= u64::from(at.len);
        self.release(at.offset, u64::from(at.len));
        self.candidates.retain(|&c| c != at);
        if let Some(slot) = at.reference {
            if let Some(r) = &mut self.references[usize::from(slot)] {
                r.users -= 1;
            }
            self.drop_unused_references();
        }
    }

    /// References no chunk is stored against go.
    fn drop_unused_references(&mut self) {
        for slot in &mut self.references {
            if slot.as_ref().is_some_and(|r| r.users == 0) {
                *slot = None;
            }
        }
    }

    /// Bytes of the references kept whole in memory.
    pub fn reference_bytes(&self) -> usize {
        self.references.iter().flatten().map(|r| r.raw.len()).sum()
    }

    /// Bytes of live chunks.
    pub fn live_bytes(&self) -> u64 {
        self.live
    }

    /// Memory the store's file holds (live chunks, plus the pages they share with free space).
    pub fn file_bytes(&self) -> u64 {
        self.file.allocated_bytes()
    }

    fn allocate(&mut self, len: u64) -> u64 {
        let fit = self
            .free
            .iter()
            .find(|&(_, &free_len)| free_len >= len)
            .map(|(&offset, &free_len)| (offset, free_len));
        match fit {
            Some((offset, free_len)) => {
                self.free.remove(&offset);
                if free_len > len {
                    self.free.insert(offset + len, free_len - len);
                }
                offset
            }
            None => {
                self.end += len;
                self.end - len
            }
        }
    }

    fn release(&mut self, mut offset: u64, mut len: u64) {
        if let Some((&before, &before_len)) = self.free.range(..offset).next_back() {
            if before + before_len == offset {
                self.free.remove(&before);
                offset = before;
                len += before_len;
            }
        }
        if let Some(after_len) = self.free.remove(&(offset + len)) {
            len += after_len;
        }
        if offset + len == self.end {
            self.end = offset;
            self.file.truncate(self.end);
        } else {
            self.free.insert(offset, len);
            self.file.discard(offset, len);
        }
    }
}

/// A [`ColdFile`] in the heap (`ZEROPTY_COLD=memory`, and hosts without memfds).
#[derive(Default)]
pub struct MemoryFile {
    bytes: Vec<u8>,
}

impl ColdFile for MemoryFile {
    fn write_at(&mut self, offset: u64, data: &[u8]) -> io::Result<()> {
        let (start, end) = (offset as usize, offset as usize + data.len());
        if self.bytes.len() < end {
            self.bytes.resize(end, 0);
        }
        self.bytes[start..end].copy_from_slice(data);
        Ok(())
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        let start = offset as usize;
        self.bytes
            .get(start..start + len)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| io::ErrorKind::UnexpectedEof.into())
    }

    fn discard(&mut self, _offset: u64, _len: u64) {}

    fn truncate(&mut self, len: u64) {
        self.bytes.truncate(len as usize);
        if self.bytes.is_empty() || self.bytes.capacity() > 2 * self.bytes.len() + 4096 {
            self.bytes.shrink_to_fit();
        }
    }

    fn allocated_bytes(&self) -> u64 {
        self.bytes.capacity() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(seed: u8, len: usize) -> Vec<u8> {
        (0..len).map(|i| seed.wrapping_add((i % 7) as u8)).collect()
    }

    #[test]
    fn chunks_come_back_exactly_and_space_is_reused() {
        let mut store = ColdStore::default();
        let a = store.put(&chunk(1, 5000)).unwrap();
        let b = store.put(&chunk(2, 9000)).unwrap();
        let c = store.put(&chunk(3, 700)).unwrap();
        assert_eq!(&*store.take(b).unwrap(), &chunk(2, 9000)[..]);
        // b's extent is reused by a chunk that fits in it.
        let d = store.put(&chunk(4, 300)).unwrap();
        assert!(d.offset < c.offset, "first fit: {d:?} {c:?}");
        assert_eq!(&*store.take(a).unwrap(), &chunk(1, 5000)[..]);
        assert_eq!(&*store.take(c).unwrap(), &chunk(3, 700)[..]);
        assert_eq!(&*store.take(d).unwrap(), &chunk(4, 300)[..]);
        assert_eq!(store.live_bytes(), 0);
        assert_eq!(store.end, 0, "everything freed: the file is empty");
        assert!(store.free.is_empty());
    }

    #[test]
    fn free_extents_merge_with_their_neighbours() {
        let mut store = ColdStore::default();
        let refs: Vec<ColdRef> = (0..5)
            .map(|i| store.put(&chunk(i, 2000)).unwrap())
            .collect();
        store.forget(refs[1]);
        store.forget(refs[3]);
        assert_eq!(store.free.len(), 2);
        store.forget(refs[2]);
        assert_eq!(store.free.len(), 1, "1, 2 and 3 are one extent");
        store.forget(refs[4]);
        assert!(store.free.is_empty(), "the tail is truncated");
        assert_eq!(store.end, u64::from(refs[0].len));
        assert_eq!(store.live_bytes(), u64::from(refs[0].len));
    }

    /// `len` bytes no compressor shrinks, the same for the same seed.
    fn noise(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    /// `base` with a few bytes changed, as screens of one program differ.
    fn alike(base: &[u8], change: u8) -> Vec<u8> {
        let mut c = base.to_vec();
        for i in (0..c.len()).step_by(997) {
            c[i] = c[i].wrapping_add(change);
        }
        c
    }

    #[test]
    fn chunks_alike_are_stored_against_a_reference_until_the_last_leaves() {
        let mut store = ColdStore::default();
        let base = noise(1, 6000);
        let first = store.put(&base).unwrap();
        assert_eq!(first.reference, None);
        assert!(first.len as usize > 5000, "noise stays its size alone");
        assert_eq!(
            store.reference_bytes(),
            0,
            "one chunk alone is only a candidate"
        );
        let others: Vec<(Vec<u8>, ColdRef)> = (1..=5)
            .map(|i| {
                let c = alike(&base, i);
                let at = store.put(&c).unwrap();
                (c, at)
            })
            .collect();
        assert_eq!(
            store.reference_bytes(),
            base.len(),
            "the candidate became a reference"
        );
        for (_, at) in &others {
            assert!(at.reference.is_some());
            assert!(at.len < 500, "only what differs is stored: {at:?}");
        }
        assert_eq!(&*store.take(first).unwrap(), &base[..]);
        let (last, rest) = others.split_last().unwrap();
        for (c, at) in rest {
            assert_eq!(&*store.take(*at).unwrap(), &c[..]);
        }
        assert_eq!(
            store.reference_bytes(),
            base.len(),
            "one chunk still needs it"
        );
        assert_eq!(&*store.take(last.1).unwrap(), &last.0[..]);
        assert_eq!(store.reference_bytes(), 0, "the last chunk against it left");
        assert_eq!((store.live_bytes(), store.end), (0, 0));
    }

    #[test]
    fn screens_of_programs_taking_turns_each_find_their_own_reference() {
        let mut store = ColdStore::default();
        let bases = [noise(3, 5000), noise(4, 7000), noise(5, 6000)];
        let mut stored = Vec::new();
        for round in 0..3 {
            for base in &bases {
                let c = alike(base, round);
                let at = store.put(&c).unwrap();
                stored.push((c, at));
            }
        }
        let against = stored
            .iter()
            .filter(|(_, at)| at.reference.is_some())
            .count();
        assert_eq!(against, 6, "all but each program's first");
        let total: usize = bases.iter().map(Vec::len).sum();
        assert_eq!(store.reference_bytes(), total, "one reference a program");
        for (c, at) in stored {
            assert_eq!(&*store.take(at).unwrap(), &c[..]);
        }
        assert_eq!(store.reference_bytes(), 0);
    }

    #[test]
    fn chunks_unlike_are_stored_alone() {
        let mut store = ColdStore::default();
        let chunks: Vec<Vec<u8>> = (0..6).map(|i| noise(10 + i, 3000)).collect();
        let refs: Vec<ColdRef> = chunks.iter().map(|c| store.put(c).unwrap()).collect();
        assert!(refs.iter().all(|at| at.reference.is_none()));
        assert_eq!(store.reference_bytes(), 0);
        for (c, at) in chunks.iter().zip(refs) {
            assert_eq!(&*store.take(at).unwrap(), &c[..]);
        }
    }

    #[test]
    fn a_forgotten_candidate_or_one_zstd_would_misread_becomes_no_reference() {
        let mut store = ColdStore::default();
        let base = noise(2, 4000);
        let first = store.put(&base).unwrap();
        store.forget(first);
        let second = store.put(&alike(&base, 1)).unwrap();
        assert_eq!(second.reference, None, "the candidate left with its chunk");
        store.forget(second);
        let mut magic = base.clone();
        magic[..4].copy_from_slice(&0xEC30_A437u32.to_le_bytes());
        let misread = store.put(&magic).unwrap();
        let after = store.put(&alike(&magic, 1)).unwrap();
        assert_eq!(
            after.reference, None,
            "a trained dictionary's magic is no reference"
        );
        assert_eq!(&*store.take(misread).unwrap(), &magic[..]);
        assert_eq!(&*store.take(after).unwrap(), &alike(&magic, 1)[..]);
    }

    /// Random puts, takes and forgets of screens drawn from a few programs (alike, unlike,
    /// small and over the reference limit): every chunk comes back exactly, references are
    /// counted right and go with their last user, and an emptied store holds nothing.
    #[test]
    fn random_puts_and_takes_keep_every_chunk_and_count_references() {
        let mut rng = crate::rng::SplitMix64(6);
        let bases: Vec<Vec<u8>> = [3000, 9000, 700, MAX_REFERENCE_BYTES + 500]
            .iter()
            .enumerate()
            .map(|(i, &len)| noise(100 + i as u64, len))
            .collect();
        let mut store = ColdStore::default();
        let mut live: Vec<(Vec<u8>, ColdRef)> = Vec::new();
        for step in 0..3000 {
            if live.is_empty() || rng.below(5) < 3 {
                let base = &bases[rng.below(bases.len() as u64) as usize];
                let chunk = match rng.below(3) {
                    0 => noise(rng.next_u64(), base.len()),
                    _ => alike(base, rng.below(256) as u8),
                };
                let at = store.put(&chunk).unwrap();
                live.push((chunk, at));
            } else {
                let (chunk, at) = live.swap_remove(rng.below(live.len() as u64) as usize);
                if rng.below(2) == 0 {
                    assert_eq!(&*store.take(at).unwrap(), &chunk[..], "step {step}");
                } else {
                    store.forget(at);
                }
            }
            for (slot, reference) in store.references.iter().enumerate() {
                let users = live
                    .iter()
                    .filter(|(_, at)| at.reference == Some(slot as u8))
                    .count();
                match reference {
                    Some(r) => assert_eq!(r.users as usize, users, "step {step}"),
                    None => assert_eq!(users, 0, "step {step}"),
                }
            }
            assert!(store
                .candidates
                .iter()
                .all(|c| live.iter().any(|(_, at)| at == c)));
            let stored: u64 = live.iter().map(|(_, at)| u64::from(at.len)).sum();
            assert_eq!(store.live_bytes(), stored);
        }
        assert!(live.iter().any(|(_, at)| at.reference.is_some()));
        for (chunk, at) in live.drain(..) {
            assert_eq!(&*store.take(at).unwrap(), &chunk[..]);
        }
        assert_eq!(store.reference_bytes(), 0);
        assert!(store.candidates.is_empty());
        assert_eq!((store.live_bytes(), store.end), (0, 0));
    }

    #[test]
    fn a_failed_write_leaves_the_store_as_it_was() {
        struct Full;
        impl ColdFile for Full {
            fn write_at(&mut self, _: u64, _: &[u8]) -> io::Result<()> {
                Err(io::ErrorKind::StorageFull.into())
            }
            fn read_at(&self, _: u64, _: usize) -> io::Result<Vec<u8>> {
                unreachable!()
            }
            fn discard(&mut self, _: u64, _: u64) {}
            fn truncate(&mut self, _: u64) {}
            fn allocated_bytes(&self) -> u64 {
                0
            }
        }
        let mut store = ColdStore::new(Box::new(Full));
        assert!(store.put(&chunk(1, 100)).is_err());
        assert_eq!((store.end, store.live), (0, 0));
    }
}
