//! Compiles the C parts, with the compiler the `cc` crate finds and `-Wall -Wextra -Werror`:
//!
//! - the terminal shim (`shim/shim.c`) into `OUT_DIR`; the binary embeds it
//!   (`sys::shim::SHIM_SO`) so one file carries everything a server needs;
//! - the bash builtin (`builtins/zeropty_bash.c`) against the headers of Debian's
//!   `bash-builtins` package, into `OUT_DIR` and beside the binary (`target/PROFILE/`), where
//!   `install.sh` takes it from; `ZEROPTY_BASH_BUILTIN` names it for the tests. Without the
//!   headers the builtin is left out with a warning, and the tests that load it say why.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where Debian's `bash-builtins` puts bash's headers.
const BASH_HEADERS: &str = "/usr/include/bash";

fn main() {
    println!("cargo:rerun-if-changed=shim/shim.c");
    println!("cargo:rerun-if-changed=builtins/zeropty_bash.c");
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    // The shim is embedded in the server's binary and read whole at start, so every byte of it
    // is server memory: stripped and without page-aligned segments it is 27 KB, not 130 KB.
    compile_shared(
        "shim/shim.c",
        &out.join("zeropty-shim.so"),
        &["-D_GNU_SOURCE", "-s", "-Wl,-z,noseparate-code"],
        &["-ldl"],
    );
    build_bash_builtin(&out);
}

fn build_bash_builtin(out: &Path) {
    let headers = Path::new(BASH_HEADERS);
    if !headers.join("builtins.h").exists() {
        println!(
            "cargo:warning=bash headers not found in {BASH_HEADERS} (install bash-builtins): \
             the bash builtin is not built"
        );
        println!("cargo:rustc-env=ZEROPTY_BASH_BUILTIN=");
        return;
    }
    let so = out.join("zeropty_bash.so");
    // bash's own headers are not -Wextra clean: they are system headers here.
    let includes: Vec<String> = ["", "/include", "/builtins"]
        .iter()
        .flat_map(|sub| ["-isystem".to_string(), format!("{BASH_HEADERS}{sub}")])
        .collect();
    let mut flags: Vec<&str> = vec!["-DHAVE_CONFIG_H", "-DSHELL"];
    flags.extend(includes.iter().map(String::as_str));
    compile_shared("builtins/zeropty_bash.c", &so, &flags, &[]);
    // OUT_DIR is target/PROFILE/build/zeropty-HASH/out: the binary lives three levels up.
    if let Some(profile_dir) = out.ancestors().nth(3) {
        let beside_binary = profile_dir.join("zeropty_bash.so");
        std::fs::copy(&so, &beside_binary)
            .unwrap_or_else(|e| panic!("copying {} there: {e}", beside_binary.display()));
    }
    println!("cargo:rustc-env=ZEROPTY_BASH_BUILTIN={}", so.display());
}

/// Compiles one C file into a shared object, warnings being errors.
fn compile_shared(source: &str, so: &Path, flags: &[&str], libs: &[&str]) {
    let compiler = cc::Build::new().get_compiler();
    let mut cmd: Command = compiler.to_command();
    cmd.args(["-shared", "-fPIC", "-Wall", "-Wextra", "-Werror", "-O2"])
        .args(flags)
        .arg("-o")
        .arg(so)
        .arg(source)
        .args(libs);
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("running {:?}: {e}", compiler.path()));
    assert!(status.success(), "compiling {source} failed: {cmd:?}");
}
