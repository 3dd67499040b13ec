//! The engine: sessions, the command table, targets, key names, line discipline and formats.
//! It touches the OS only through traits, so it is unit-tested with fakes.

pub mod format;
pub mod keys;
pub mod tty;
