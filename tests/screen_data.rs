//! A terminal marks the allocations it makes while it makes and frees rows as screen data
//! (`zeropty::term::allocating_screen_data`), so that the program's allocator can keep them
//! apart from long-lived data: parsing, packing, resizing, freezing, thawing and decoding a
//! frozen screen for a reader allocate only screen data, and nothing is marked around them.
//! Counted by this test program's own global allocator, which reads the mark as `zeropty`'s
//! does, per thread (tests run on threads of their own).
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use zeropty::term::{allocating_screen_data, CaptureOptions, Terminal};

thread_local! {
    /// Allocations on this thread: (marked as screen data, not marked).
    static COUNTS: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

struct Counting;

// SAFETY: every block comes from and goes back to the system allocator, unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
}

fn count() {
    let marked = allocating_screen_data();
    COUNTS.with(|c| {
        let (m, u) = c.get();
        c.set(if marked { (m + 1, u) } else { (m, u + 1) });
    });
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What `f` allocated on this thread: (marked, not marked).
fn allocations(f: impl FnOnce()) -> (usize, usize) {
    let before = COUNTS.with(Cell::get);
    f();
    let after = COUNTS.with(Cell::get);
    (after.0 - before.0, after.1 - before.1)
}

/// Lines of coloured text, more than a screen holds, so that some scroll into history.
fn coloured_lines() -> Vec<u8> {
    (0..40)
        .flat_map(|i| format!("\x1b[3{}mline {i} of coloured text\x1b[m\r\n", i % 8).into_bytes())
        .collect()
}

#[test]
fn a_terminals_work_on_rows_allocates_screen_data_only() {
    let text = coloured_lines();
    let mut t = Terminal::new(0, 0, 0);
    let made = allocations(|| t = Terminal::new(60, 20, 100));
    assert_eq!(made.1, 0, "made with allocations not marked: {made:?}");
    type Step = fn(&mut Terminal, &[u8]);
    let steps: [(&str, Step); 6] = [
        ("feed", |t, text| t.feed(text)),
        ("resize", |t, _| t.resize(45, 12)),
        ("freeze", |t, _| t.freeze()),
        ("thaw", |t, _| t.thaw()),
        ("feed after a thaw", |t, _| t.feed(b"\x1b[2J\x1b[Hnew text")),
        ("clear-history", |t, _| t.clear_history()),
    ];
    for (step, f) in steps {
        let (marked, unmarked) = allocations(|| f(&mut t, &text));
        assert!(marked > 0, "{step} allocated nothing marked");
        assert_eq!(unmarked, 0, "{step} allocated {unmarked} blocks not marked");
    }
    assert!(!allocating_screen_data(), "the mark outlived the calls");
}

#[test]
fn a_readers_decoded_copy_of_a_frozen_screen_is_screen_data() {
    let mut t = Terminal::new(60, 20, 100);
    t.feed(&coloured_lines());
    t.freeze();
    let mut captured = Vec::new();
    let (marked, _) = allocations(|| {
        let _ = t.screen();
    });
    assert!(marked > 0, "the decoded copy was not marked");
    // The capture's own text is the reader's, not the screen's.
    let (_, unmarked) = allocations(|| captured = t.capture(&CaptureOptions::default()));
    assert!(unmarked > 0, "a capture's text was marked as screen data");
    assert!(String::from_utf8_lossy(&captured).contains("line 39 of coloured text"));
}

#[test]
fn allocations_around_a_terminal_are_not_marked() {
    let mut t = Terminal::new(60, 20, 100);
    t.feed(&coloured_lines());
    let (marked, unmarked) = allocations(|| {
        let names: Vec<String> = (0..10).map(|i| format!("session {i}")).collect();
        assert_eq!(names.len(), 10);
    });
    assert_eq!(marked, 0);
    assert!(unmarked >= 10);
}
