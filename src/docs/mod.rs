//! Reference documents generated from the tables the engine runs on: the manual page
//! (`man/zeropty.1`) and the bash and zsh completions (`completions/`). Pure text: nothing
//! here touches the OS. `examples/gen_docs.rs` writes the files; tests check that the files
//! in the tree are what these functions produce, so they never drift from the command,
//! option and format tables.

pub mod completion;
pub mod man;
