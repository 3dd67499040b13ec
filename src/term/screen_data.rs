//! A hint for the program's allocator: which allocations are screen data.
//!
//! A busy screen makes and frees rows by the hundred (each row is an allocation of its own,
//! `row.rs`), while the rest of a server's data (sessions, windows, their names, options and
//! commands) is made in between and lives long. In one allocator's pages the two mix, and once
//! the rows are freed a page stays whole for the one or two long-lived blocks left in it. The
//! terminal therefore marks the work that makes and frees rows and tables (parsing, packing,
//! resizing, sealing, freezing, thawing, decoding a copy), and a program's allocator may serve
//! what is allocated meanwhile from a heap of its own: the `zeropty` program does
//! (`src/main.rs`), which took 400 idle agent sessions started together from 4.8 to 2.4 KiB of
//! PSS a session beyond the first once their screens were cold (`BASE=<the build before>
//! SETTLE=15 bench/scale.sh idle 1 400`, BENCHMARKS.md "Screen data apart"). An allocator that
//! ignores the mark loses nothing but a thread-local write at each marked call.
//!
//! Invariant: the mark is on only while a marked terminal method runs on this thread, and a
//! mark restores what it found when it ends (also when unwinding), so marks nest.

use std::cell::Cell;

thread_local! {
    static MARKED: Cell<bool> = const { Cell::new(false) };
}

/// Whether what this thread allocates now is screen data: for a global allocator to read on
/// each allocation (a const thread-local without a destructor, so it can be read at any time,
/// also while the thread ends).
pub fn allocating_screen_data() -> bool {
    MARKED.with(Cell::get)
}

/// Screen-data work, from [`ScreenData::mark`] until dropped.
pub(super) struct ScreenData {
    was: bool,
}

impl ScreenData {
    #[must_use = "the mark ends when this is dropped"]
    pub(super) fn mark() -> ScreenData {
        ScreenData {
            was: MARKED.with(|m| m.replace(true)),
        }
    }
}

impl Drop for ScreenData {
    fn drop(&mut self) {
        MARKED.with(|m| m.set(self.was));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_lasts_until_dropped_and_marks_nest() {
        assert!(!allocating_screen_data());
        let outer = ScreenData::mark();
        assert!(allocating_screen_data());
        drop(ScreenData::mark());
        assert!(
            allocating_screen_data(),
            "an inner mark ended the outer one"
        );
        drop(outer);
        assert!(!allocating_screen_data());
    }

    #[test]
    fn a_mark_ends_when_a_panic_unwinds_through_it() {
        let unwound = std::panic::catch_unwind(|| {
            let _mark = ScreenData::mark();
            panic!("in screen-data work");
        });
        assert!(unwound.is_err());
        assert!(!allocating_screen_data());
    }

    #[test]
    fn each_thread_has_its_own_mark() {
        let _mark = ScreenData::mark();
        let elsewhere = std::thread::spawn(allocating_screen_data).join().unwrap();
        assert!(!elsewhere);
        assert!(allocating_screen_data());
    }
}
