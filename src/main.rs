//! The `zeropty` program: tmux's command line in front of zeropty's server.
use mimalloc::MiMalloc;
use std::os::unix::ffi::OsStringExt;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn main() {
    // Arguments may be any bytes; they are carried escaped, never rejected.
    let mut args = std::env::args_os().map(|a| zeropty::protocol::bytes_to_arg(&a.into_vec()));
    let argv0 = args.next().unwrap_or_default();
    let rest: Vec<String> = args.collect();
    std::process::exit(zeropty::cli::main(&argv0, &rest));
}
