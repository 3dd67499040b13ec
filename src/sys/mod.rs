//! The OS boundary: the only place that calls libc I/O.

pub mod children;
pub mod cold_file;
pub mod fd;
pub mod host_os;
pub mod poll;
pub mod process;
pub mod pty;
pub mod regex;
pub mod shim;
pub mod sock_diag;
pub mod socket;
pub mod spawn;
pub mod tty;
