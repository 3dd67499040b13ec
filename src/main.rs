//! The `zeropty` program: tmux's command line in front of zeropty's server.
//!
//! The program chooses the allocator (an embedding host keeps its own): mimalloc, which keeps
//! freed pages for [`PURGE_DELAY_MS`]; a server also has both allocators, mimalloc and the C
//! library's, give back what they hold freed once a second while it works.
use mimalloc::MiMalloc;
use std::ffi::{c_int, c_long};
use std::os::unix::ffi::OsStringExt;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

/// `mi_option_purge_delay` in mimalloc.h's `mi_option_e` (the same in v2 and v3).
const MI_OPTION_PURGE_DELAY: c_int = 15;

/// How long mimalloc keeps freed pages before it gives them back (v3's own default is 1 s).
/// Busy screens parsed again soon reuse them: given back at once, 400 dump sessions took 5.3%
/// of a core and with 100 ms 4.3% (`BASE= ROUNDS=2 bench/scale.sh dump 400`), memory 2 to 6%
/// more.
const PURGE_DELAY_MS: c_long = 100;

extern "C" {
    fn mi_option_set(option: c_int, value: c_long);
    fn mi_collect(force: bool);
}

/// mimalloc gives back freed pages only when a later free of a whole page looks at them, so a
/// server would keep what its busiest moment left: it calls this once a second while it works
/// (see `zeropty::server::RELEASE_INTERVAL_MS`). The C library's allocator serves zstd's
/// compression contexts, and after the first large one is freed it raises the size it keeps
/// freed without giving back: 400 idle sessions going cold left 252 KiB of its heap resident
/// for the server's life (`/proc/PID/smaps`, `[heap]`) until it was trimmed here.
fn release_memory() {
    // SAFETY: mimalloc's collection of the calling thread's heap has no preconditions.
    unsafe { mi_collect(true) };
    // SAFETY: malloc_trim only returns free pages of the C allocator's heaps to the system.
    unsafe { libc::malloc_trim(0) };
}

fn main() {
    // SAFETY: sets a number in mimalloc's option table; any value is valid.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    // Arguments may be any bytes; they are carried escaped, never rejected.
    let mut args = std::env::args_os().map(|a| zeropty::protocol::bytes_to_arg(&a.into_vec()));
    let argv0 = args.next().unwrap_or_default();
    let rest: Vec<String> = args.collect();
    std::process::exit(zeropty::cli::main(&argv0, &rest, release_memory));
}
