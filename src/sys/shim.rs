//! The terminal shim on disk: the shared object preloaded into session programs, and the state
//! file whose slots it maps (the protocol is in [`crate::engine::tty`]).
//!
//! - [`SHIM_SO`] is `shim/shim.c` compiled by the build script and embedded in the binary, so
//!   one file installs everything. [`install`] writes it as `zeropty-shim-<hash>.so`, named by
//!   a hash of its contents: a file of that name is only ever this content, so an existing
//!   identical file is reused and an upgraded binary installs beside the old one without
//!   disturbing programs that still have the old one mapped. It is written under a temporary
//!   name and renamed into place, so a program never preloads a half-written file.
//! - [`StateFile`] is the per-server file of [`SLOT_SIZE`]-byte slots. The engine uses
//!   `pread`/`pwrite` and never maps it: the shims in other processes write their slots at any
//!   time, and a copy taken by `pread` is plain memory Rust can read, where a shared mapping
//!   would need every access to be volatile or atomic. Reads take a consistent snapshot by
//!   reading twice until the writer lock is free and both copies agree. The file only grows
//!   (the shims map it, and a mapping past the end of a file faults), so slots stay valid for
//!   the server's lifetime.

use crate::engine::tty::{
    Termios, SLOT_GENERATION, SLOT_MAGIC, SLOT_PGRP, SLOT_SID, SLOT_SIZE, SLOT_TERMIOS,
    SLOT_WINSIZE, TERMIOS_SIZE,
};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{FileExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The shim shared object, built from `shim/shim.c`.
pub const SHIM_SO: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/zeropty-shim.so"));

/// Offset of the writer lock in a slot.
const SLOT_LOCK: usize = 4;

/// FNV-1a, 64-bit: names the installed file after its contents.
fn content_hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The file name [`install`] uses for the embedded shim.
pub fn shim_file_name() -> String {
    format!("zeropty-shim-{:016x}.so", content_hash(SHIM_SO))
}

/// Writes the shim into `dir` (which should be private to the user, like the socket
/// directory) and returns its path. An identical file already there is reused; anything else
/// under that name is replaced atomically. The file is mode 0500.
pub fn install(dir: &Path) -> io::Result<PathBuf> {
    let path = dir.join(shim_file_name());
    if is_identical(&path, SHIM_SO) {
        return Ok(path);
    }
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let tmp = dir.join(format!(
        ".{}.{}.{}.tmp",
        shim_file_name(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o700)
            .custom_flags(libc::O_CLOEXEC)
            .open(&tmp)?;
        f.write_all(SHIM_SO)?;
        f.set_permissions(std::fs::Permissions::from_mode(0o500))?;
        drop(f);
        std::fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map(|()| path)
}

fn is_identical(path: &Path, data: &[u8]) -> bool {
    let Ok(mut f) = File::open(path) else {
        return false;
    };
    let Ok(meta) = f.metadata() else {
        return false;
    };
    if !meta.is_file() || meta.len() != data.len() as u64 || meta.permissions().mode() & 0o077 != 0
    {
        return false;
    }
    let mut have = Vec::with_capacity(data.len());
    f.read_to_end(&mut have).is_ok() && have == data
}

/// The shared state file: one [`SLOT_SIZE`]-byte slot per session.
#[derive(Debug)]
pub struct StateFile {
    file: File,
    /// The file's length; only grows. The lock serialises growth.
    len: Mutex<u64>,
}

impl StateFile {
    /// Creates (or truncates) the state file, mode 0600, close-on-exec.
    pub fn create(path: &Path) -> io::Result<StateFile> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .custom_flags(libc::O_CLOEXEC)
            .open(path)?;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        Ok(StateFile {
            file,
            len: Mutex::new(0),
        })
    }

    /// The offset of slot `index` (the value after the `:` in `ZEROPTY_SHIM_STATE`), growing
    /// the file to hold it.
    pub fn slot(&self, index: usize) -> io::Result<u64> {
        let offset = (index as u64)
            .checked_mul(SLOT_SIZE as u64)
            .ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
        let end = offset + SLOT_SIZE as u64;
        let mut len = self.len.lock().unwrap_or_else(|e| e.into_inner());
        if *len < end {
            self.file.set_len(end)?;
            *len = end;
        }
        Ok(offset)
    }

    /// Writes a fresh slot: magic, window size 0x0, the foreground group, the session id, the
    /// termios and generation 0, with the lock free. One `pwrite`, no allocation, so it may be
    /// called in a child between fork and exec (where the child's own pid is known).
    pub fn init_slot(&self, offset: u64, sid: i32, pgrp: i32, termios: &Termios) -> io::Result<()> {
        let mut b = [0u8; SLOT_SIZE];
        b[0..4].copy_from_slice(&SLOT_MAGIC.to_ne_bytes());
        b[SLOT_PGRP..SLOT_PGRP + 4].copy_from_slice(&pgrp.to_ne_bytes());
        b[SLOT_SID..SLOT_SID + 4].copy_from_slice(&sid.to_ne_bytes());
        b[SLOT_TERMIOS..SLOT_TERMIOS + TERMIOS_SIZE].copy_from_slice(&termios.to_bytes());
        b[SLOT_GENERATION..SLOT_GENERATION + 4].copy_from_slice(&0u32.to_ne_bytes());
        self.file.write_all_at(&b, offset)
    }

    /// The bytes of a fresh slot (as [`StateFile::init_slot`] writes them) with a window size,
    /// for a child to complete with its pid and write before it execs.
    pub fn slot_bytes(termios: &Termios, rows: u16, cols: u16) -> [u8; SLOT_SIZE] {
        let mut b = [0u8; SLOT_SIZE];
        b[0..4].copy_from_slice(&SLOT_MAGIC.to_ne_bytes());
        b[SLOT_WINSIZE..SLOT_WINSIZE + 2].copy_from_slice(&rows.to_ne_bytes());
        b[SLOT_WINSIZE + 2..SLOT_WINSIZE + 4].copy_from_slice(&cols.to_ne_bytes());
        b[SLOT_TERMIOS..SLOT_TERMIOS + TERMIOS_SIZE].copy_from_slice(&termios.to_bytes());
        b
    }

    /// The descriptor of the state file (for a child to write its slot).
    pub fn raw_fd(&self) -> std::os::fd::RawFd {
        use std::os::fd::AsRawFd;
        self.file.as_raw_fd()
    }

    /// Sets the window size the shim reports for `TIOCGWINSZ` (pixel sizes 0). The caller
    /// then sends SIGWINCH to the foreground group.
    pub fn write_winsize(&self, offset: u64, rows: u16, cols: u16) -> io::Result<()> {
        let mut b = [0u8; 8];
        b[0..2].copy_from_slice(&rows.to_ne_bytes());
        b[2..4].copy_from_slice(&cols.to_ne_bytes());
        self.file.write_all_at(&b, offset + SLOT_WINSIZE as u64)
    }

    /// The window size in the slot, as (rows, cols).
    pub fn read_winsize(&self, offset: u64) -> io::Result<(u16, u16)> {
        let s = self.snapshot(offset)?;
        let w = SLOT_WINSIZE;
        Ok((
            u16::from_ne_bytes([s[w], s[w + 1]]),
            u16::from_ne_bytes([s[w + 2], s[w + 3]]),
        ))
    }

    /// The foreground process group the programs last set (`tcsetpgrp`).
    pub fn read_pgrp(&self, offset: u64) -> io::Result<i32> {
        let s = self.snapshot(offset)?;
        Ok(i32::from_ne_bytes(word(&s, SLOT_PGRP)))
    }

    /// The termios the programs last set (`tcsetattr`).
    pub fn read_termios(&self, offset: u64) -> io::Result<Termios> {
        let s = self.snapshot(offset)?;
        let mut t = [0u8; TERMIOS_SIZE];
        t.copy_from_slice(&s[SLOT_TERMIOS..SLOT_TERMIOS + TERMIOS_SIZE]);
        Ok(Termios::from_bytes(&t))
    }

    /// The slot's generation (bumped by every termios or process-group write).
    pub fn read_generation(&self, offset: u64) -> io::Result<u32> {
        let s = self.snapshot(offset)?;
        Ok(u32::from_ne_bytes(word(&s, SLOT_GENERATION)))
    }

    /// A consistent copy of a slot: two reads that agree with the writer lock free in both.
    /// A shim holds the lock only while it writes a few bytes and its marker; after a bounded
    /// number of attempts (a writer that died holding the lock) the last copy is returned.
    fn snapshot(&self, offset: u64) -> io::Result<[u8; SLOT_SIZE]> {
        let mut a = [0u8; SLOT_SIZE];
        let mut b = [0u8; SLOT_SIZE];
        self.file.read_exact_at(&mut a, offset)?;
        for attempt in 0..1000 {
            self.file.read_exact_at(&mut b, offset)?;
            let free = |s: &[u8; SLOT_SIZE]| word(s, SLOT_LOCK) == [0; 4];
            if a == b && free(&a) {
                return Ok(b);
            }
            if attempt > 10 {
                std::thread::yield_now();
            }
            a = b;
        }
        Ok(b)
    }
}

fn word(s: &[u8; SLOT_SIZE], at: usize) -> [u8; 4] {
    [s[at], s[at + 1], s[at + 2], s[at + 3]]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "zeropty-shim-unit-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn shim_is_an_elf_shared_object() {
        assert_eq!(&SHIM_SO[..4], b"\x7fELF");
    }

    #[test]
    fn install_writes_once_and_reuses_identical_file() {
        let dir = temp_dir("install");
        let p = install(&dir).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), SHIM_SO);
        let meta = std::fs::metadata(&p).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o500);
        let ino = std::os::unix::fs::MetadataExt::ino(&meta);
        let p2 = install(&dir).unwrap();
        assert_eq!(p, p2);
        assert_eq!(
            std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&p2).unwrap()),
            ino
        );
        // Only the installed file: no temporary left behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn install_replaces_a_damaged_file() {
        let dir = temp_dir("damaged");
        let p = dir.join(shim_file_name());
        std::fs::write(&p, b"not a shim").unwrap();
        assert_eq!(install(&dir).unwrap(), p);
        assert_eq!(std::fs::read(&p).unwrap(), SHIM_SO);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn state_file_slots_round_trip() {
        let dir = temp_dir("state");
        let path = dir.join("s.state");
        let st = StateFile::create(&path).unwrap();
        let o0 = st.slot(0).unwrap();
        let o3 = st.slot(3).unwrap();
        assert_eq!((o0, o3), (0, 3 * SLOT_SIZE as u64));
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            4 * SLOT_SIZE as u64
        );
        // Asking for an earlier slot never shrinks the file.
        st.slot(1).unwrap();
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            4 * SLOT_SIZE as u64
        );
        let mut t = Termios::pane_default();
        st.init_slot(o3, 77, 78, &t).unwrap();
        st.write_winsize(o3, 24, 80).unwrap();
        assert_eq!(st.read_winsize(o3).unwrap(), (24, 80));
        assert_eq!(st.read_pgrp(o3).unwrap(), 78);
        assert_eq!(st.read_termios(o3).unwrap(), t);
        assert_eq!(st.read_generation(o3).unwrap(), 0);
        let raw = std::fs::read(&path).unwrap();
        let o = o3 as usize;
        assert_eq!(raw[o..o + 4], SLOT_MAGIC.to_ne_bytes());
        assert_eq!(raw[o + SLOT_SID..o + SLOT_SID + 4], 77i32.to_ne_bytes());
        t.lflag = 0;
        st.init_slot(o0, 1, 1, &t).unwrap();
        assert_eq!(st.read_termios(o0).unwrap(), t);
        use std::os::unix::fs::MetadataExt;
        assert_eq!(std::fs::metadata(&path).unwrap().mode() & 0o777, 0o600);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
