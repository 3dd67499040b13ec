//! zeropty: a tmux-compatible terminal session engine.
//!
//! The library is layered from pure code upwards: [`term`] turns a program's output bytes into the
//! screen `capture-pane` prints and never touches the OS or a clock.
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod cast;
pub mod cli;
pub mod docs;
pub mod engine;
pub mod protocol;
pub mod rng;
pub mod server;
pub mod sys;
pub mod term;
