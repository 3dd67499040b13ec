//! Shell completion scripts: `completions/zeropty.bash` and `completions/_zeropty` (zsh).

/// The bash completion script.
pub fn bash_completion() -> String {
    String::new()
}

/// The zsh completion function (`#compdef zeropty tmux`-style file for `fpath`).
pub fn zsh_completion() -> String {
    String::new()
}
