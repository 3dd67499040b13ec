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
//! Invariants: live extents never overlap; `free` holds disjoint, non-adjacent extents
//! below `end`; `live` is the sum of live extents' lengths.

use crate::term::Compressor;
use std::collections::BTreeMap;
use std::io;

/// How long a frozen screen stays in process memory before it is compressed into the store.
pub const COLD_AFTER_MS: u64 = 10_000;

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
        }
    }

    /// Compresses a frozen chunk into the store. On failure the caller keeps the chunk.
    pub fn put(&mut self, chunk: &[u8]) -> io::Result<ColdRef> {
        let packed = self.compressor.compress(chunk)?;
        let len = packed.len() as u64;
        let offset = self.allocate(len);
        if let Err(e) = self.file.write_at(offset, &packed) {
            self.release(offset, len);
            return Err(e);
        }
        self.live += len;
        Ok(ColdRef {
            offset,
            len: len as u32,
            raw_len: chunk.len() as u32,
        })
    }

    /// The puts of a sweep are done: the compression context goes (it holds a working space
    /// sized for the largest screen it compressed).
    pub fn end_sweep(&mut self) {
        self.compressor = Compressor::default();
    }

    /// Takes a chunk back out of the store (its extent is freed).
    pub fn take(&mut self, at: ColdRef) -> io::Result<Box<[u8]>> {
        let packed = self.file.read_at(at.offset, at.len as usize)?;
        let chunk = zstd::bulk::decompress(&packed, at.raw_len as usize)?;
        self.forget(at);
        Ok(chunk.into_boxed_slice())
    }

    /// Frees a chunk's extent without reading it (its pane is gone).
    pub fn forget(&mut self, at: ColdRef) {
        self.live -= u64::from(at.len);
        self.release(at.offset, u64::from(at.len));
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
