//! Writes the generated reference documents into the tree: `man/zeropty.1`,
//! `completions/zeropty.bash` and `completions/_zeropty`. Run after changing a command, an
//! option or a format variable: `cargo run --example gen_docs`.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = [
        ("man/zeropty.1", zeropty::docs::man::man_page()),
        (
            "completions/zeropty.bash",
            zeropty::docs::completion::bash_completion(),
        ),
        (
            "completions/_zeropty",
            zeropty::docs::completion::zsh_completion(),
        ),
    ];
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a file in a folder")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
        println!("wrote {}", path.display());
    }
}
