//! The `zeropty` program: tmux's command line in front of zeropty's server.
//!
//! The program chooses the allocator (an embedding host keeps its own): mimalloc, which keeps
//! freed pages for [`PURGE_DELAY_MS`], with screen data (rows and tables, which come and go by
//! the hundred while screens are busy) in a heap of its own, so that the pages of long-lived
//! data are not held by one or two blocks each once a busy moment's rows are gone
//! (`zeropty::term::allocating_screen_data`). A server also has both allocators, mimalloc and
//! the C library's, give back what they hold freed once a second while it works.
use mimalloc::MiMalloc;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::{c_int, c_long, c_void};
use std::os::unix::ffi::OsStringExt;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicPtr, Ordering};
use zeropty::term::allocating_screen_data;

#[global_allocator]
static GLOBAL: ScreenDataApart = ScreenDataApart;

/// `mi_option_purge_delay` in mimalloc.h's `mi_option_e` (the same in v2 and v3).
const MI_OPTION_PURGE_DELAY: c_int = 15;

/// How long mimalloc keeps freed pages before it gives them back (v3's own default is 1 s).
/// Busy screens parsed again soon reuse them: given back at once, 400 dump sessions took 5.3%
/// of a core and with 100 ms 4.3% (`BASE= ROUNDS=2 bench/scale.sh dump 400`), memory 2 to 6%
/// more.
const PURGE_DELAY_MS: c_long = 100;

/// `mi_option_arena_reserve` in v3's `mi_option_e`: the address space (KiB) mimalloc reserves
/// for its first arenas; later ones grow (twice as large every eight).
const MI_OPTION_ARENA_RESERVE: c_int = 23;

/// 32 MiB, mimalloc's least, instead of its 1 GiB: each heap keeps bitmaps for each arena it
/// uses, sized by the arena. A server with one idle session took 262 KiB less PSS, one with 400
/// took 298 KiB less
/// (`BASE= ROUNDS=2 SETTLE=15 bench/scale.sh idle 1 400`, BENCHMARKS.md "Screen data apart").
const ARENA_RESERVE_KIB: c_long = 32 * 1024;

/// Sets mimalloc's options. They must be set before its first allocation, which reserves its
/// first arena, and Rust's runtime allocates before `main`: so this runs among the program's
/// initializers (`.init_array`), which the loader calls before the runtime starts.
extern "C" fn set_allocator_options() {
    // SAFETY: sets numbers in mimalloc's option table; any value is valid.
    unsafe {
        mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS);
        mi_option_set(MI_OPTION_ARENA_RESERVE, ARENA_RESERVE_KIB);
    }
}

#[used]
#[link_section = ".init_array"]
static SET_ALLOCATOR_OPTIONS: extern "C" fn() = set_allocator_options;

/// mimalloc's `mi_heap_t`: a heap of its own, in pages no other heap uses.
#[repr(C)]
struct MiHeap {
    _private: [u8; 0],
}

// mimalloc v3's heaps are first-class: any thread may allocate from one and free its blocks.
extern "C" {
    fn mi_option_set(option: c_int, value: c_long);
    fn mi_collect(force: bool);
    fn mi_heap_new() -> *mut MiHeap;
    fn mi_heap_delete(heap: *mut MiHeap);
    fn mi_heap_collect(heap: *mut MiHeap, force: bool);
    fn mi_malloc(size: usize) -> *mut c_void;
    fn mi_zalloc(size: usize) -> *mut c_void;
    fn mi_realloc(p: *mut c_void, size: usize) -> *mut c_void;
    fn mi_heap_malloc(heap: *mut MiHeap, size: usize) -> *mut c_void;
    fn mi_heap_zalloc(heap: *mut MiHeap, size: usize) -> *mut c_void;
    fn mi_heap_realloc(heap: *mut MiHeap, p: *mut c_void, size: usize) -> *mut c_void;
    fn mi_heap_malloc_aligned(heap: *mut MiHeap, size: usize, alignment: usize) -> *mut c_void;
    fn mi_heap_zalloc_aligned(heap: *mut MiHeap, size: usize, alignment: usize) -> *mut c_void;
    fn mi_heap_realloc_aligned(
        heap: *mut MiHeap,
        p: *mut c_void,
        size: usize,
        alignment: usize,
    ) -> *mut c_void;
}

/// The heap of screen data, made at the first screen-data allocation (a client never makes
/// one).
static SCREEN_HEAP: AtomicPtr<MiHeap> = AtomicPtr::new(null_mut());

/// The screen-data heap, made if there is none yet.
fn screen_heap() -> *mut MiHeap {
    let heap = SCREEN_HEAP.load(Ordering::Acquire);
    if !heap.is_null() {
        return heap;
    }
    // SAFETY: mi_heap_new has no preconditions; it returns null when memory runs out.
    let made = unsafe { mi_heap_new() };
    if made.is_null() {
        return made;
    }
    match SCREEN_HEAP.compare_exchange(null_mut(), made, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => made,
        Err(first) => {
            // SAFETY: `made` is a heap of ours with no blocks, which nobody else has seen.
            unsafe { mi_heap_delete(made) };
            first
        }
    }
}

/// mimalloc with screen data apart: what is allocated while
/// [`allocating_screen_data`] comes from the screen-data heap (mimalloc's default heap when
/// none could be made), the rest from mimalloc's default heap. Any block is freed by
/// mimalloc's `mi_free`, whichever heap it came from; a reallocation moves a block into the
/// heap of the moment only when it has to move.
struct ScreenDataApart;

/// The screen-data heap when what is allocated now is screen data and it could be made.
fn heap_of_the_moment() -> Option<*mut MiHeap> {
    if !allocating_screen_data() {
        return None;
    }
    Some(screen_heap()).filter(|h| !h.is_null())
}

/// mimalloc's plain calls align every block of `size` to `align` (its own aligned calls make
/// the same test, `mi_malloc_is_naturally_aligned`, before using them). Its aligned calls
/// take their slow path for any block over 1 KiB before they make that test: an expanded row
/// of 220 cells is 1,320 bytes.
fn naturally_aligned(size: usize, align: usize) -> bool {
    align <= 16 && align <= size
}

// SAFETY: every block comes from mimalloc, which meets `Layout`'s size and alignment in each
// call used here (the plain calls only for naturally aligned layouts), and is freed or
// reallocated by it.
unsafe impl GlobalAlloc for ScreenDataApart {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        match (heap_of_the_moment(), naturally_aligned(size, align)) {
            (Some(heap), true) => mi_heap_malloc(heap, size).cast(),
            (Some(heap), false) => mi_heap_malloc_aligned(heap, size, align).cast(),
            (None, true) => mi_malloc(size).cast(),
            (None, false) => MiMalloc.alloc(layout),
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        match (heap_of_the_moment(), naturally_aligned(size, align)) {
            (Some(heap), true) => mi_heap_zalloc(heap, size).cast(),
            (Some(heap), false) => mi_heap_zalloc_aligned(heap, size, align).cast(),
            (None, true) => mi_zalloc(size).cast(),
            (None, false) => MiMalloc.alloc_zeroed(layout),
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        MiMalloc.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let (p, align) = (ptr.cast(), layout.align());
        match (heap_of_the_moment(), naturally_aligned(new_size, align)) {
            (Some(heap), true) => mi_heap_realloc(heap, p, new_size).cast(),
            (Some(heap), false) => mi_heap_realloc_aligned(heap, p, new_size, align).cast(),
            (None, true) => mi_realloc(p, new_size).cast(),
            (None, false) => MiMalloc.realloc(ptr, layout, new_size),
        }
    }
}

/// mimalloc gives back freed pages only when a later free of a whole page looks at them, so a
/// server would keep what its busiest moment left: it calls this once a second while it works
/// (see `zeropty::server::RELEASE_INTERVAL_MS`). The C library's allocator serves zstd's
/// compression contexts, and after the first large one is freed it raises the size it keeps
/// freed without giving back: without the trim here, screens going cold leave its heap
/// (`[heap]` in `/proc/PID/smaps`) resident for the server's life (`tests/freezing.rs`,
/// `screens_alike_are_stored_against_each_other`, waits for it to go back).
fn release_memory() {
    // SAFETY: mimalloc's collection of the calling thread's part of its default heap, and of
    // the screen-data heap (a heap of ours, never deleted once published), has no
    // preconditions.
    unsafe {
        mi_collect(true);
        let screen = SCREEN_HEAP.load(Ordering::Acquire);
        if !screen.is_null() {
            mi_heap_collect(screen, true);
        }
    }
    // SAFETY: malloc_trim only returns free pages of the C allocator's heaps to the system.
    unsafe { libc::malloc_trim(0) };
}

fn main() {
    // Arguments may be any bytes; they are carried escaped, never rejected.
    let mut args = std::env::args_os().map(|a| zeropty::protocol::bytes_to_arg(&a.into_vec()));
    let argv0 = args.next().unwrap_or_default();
    let rest: Vec<String> = args.collect();
    std::process::exit(zeropty::cli::main(&argv0, &rest, release_memory));
}

#[cfg(test)]
mod tests {
    use std::alloc::{alloc, alloc_zeroed, dealloc, realloc, Layout};

    /// Blocks of every alignment, in sizes on both sides of the 1 KiB where mimalloc's aligned
    /// calls change path and of the sizes its plain calls align naturally, come back aligned,
    /// zeroed when asked, and keep their bytes when they grow and shrink.
    #[test]
    fn blocks_meet_their_layout_whichever_call_serves_them() {
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [
                1, 2, 3, 6, 8, 12, 16, 24, 100, 1024, 1025, 1320, 5000, 70_000,
            ] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: each block is used within its layout and freed with it.
                unsafe {
                    let p = if size % 2 == 0 {
                        alloc_zeroed(layout)
                    } else {
                        alloc(layout)
                    };
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "{size} bytes aligned to {align}");
                    if size % 2 == 0 {
                        assert!((0..size).all(|i| *p.add(i) == 0));
                    }
                    (0..size).for_each(|i| *p.add(i) = i as u8);
                    let grown = realloc(p, layout, size * 3);
                    assert_eq!(grown as usize % align, 0);
                    assert!((0..size).all(|i| *grown.add(i) == i as u8));
                    let bigger = Layout::from_size_align(size * 3, align).unwrap();
                    let shrunk = realloc(grown, bigger, size.div_ceil(2));
                    assert_eq!(shrunk as usize % align, 0);
                    assert!((0..size.div_ceil(2)).all(|i| *shrunk.add(i) == i as u8));
                    dealloc(
                        shrunk,
                        Layout::from_size_align(size.div_ceil(2), align).unwrap(),
                    );
                }
            }
        }
    }
}
