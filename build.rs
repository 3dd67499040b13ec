//! Compiles the terminal shim (`shim/shim.c`) into a shared object in `OUT_DIR`; the binary
//! embeds it (`sys::shim::SHIM_SO`) so one file installs everything.

use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=shim/shim.c");
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    let so = out.join("zeropty-shim.so");
    let compiler = cc::Build::new().get_compiler();
    let mut cmd: Command = compiler.to_command();
    cmd.args([
        "-D_GNU_SOURCE",
        "-shared",
        "-fPIC",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-O2",
        "-o",
    ])
    .arg(&so)
    .arg("shim/shim.c")
    .arg("-ldl");
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("running {:?}: {e}", compiler.path()));
    assert!(status.success(), "compiling shim/shim.c failed: {cmd:?}");
}
