//! The `zeropty` program: tmux's command line in front of zeropty's server.
//!
//! The program chooses the allocator (an embedding host keeps its own): mimalloc, told to give
//! freed pages back to the system at once.
use mimalloc::MiMalloc;
use std::ffi::{c_int, c_long};
use std::os::unix::ffi::OsStringExt;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

/// `mi_option_purge_delay` in mimalloc.h's `mi_option_e` (the same in v2 and v3).
const MI_OPTION_PURGE_DELAY: c_int = 15;

extern "C" {
    fn mi_option_set(option: c_int, value: c_long);
}

fn main() {
    // mimalloc purges freed pages only after a delay, and only when a later allocation or free
    // looks at them: a server that goes quiet kept what its busiest moment left, 400 idle
    // sessions 9.5 MB PSS instead of 5.4 MB (SETTLE=15 bench/scale.sh idle 400). Purging at
    // once cost no CPU that the 400-session replay and redraw workloads showed.
    // SAFETY: sets a number in mimalloc's option table; any value is valid.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    // Arguments may be any bytes; they are carried escaped, never rejected.
    let mut args = std::env::args_os().map(|a| zeropty::protocol::bytes_to_arg(&a.into_vec()));
    let argv0 = args.next().unwrap_or_default();
    let rest: Vec<String> = args.collect();
    std::process::exit(zeropty::cli::main(&argv0, &rest));
}
