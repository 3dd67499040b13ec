//! README's install command: `install.sh` puts the program, the bash builtin, the zsh
//! function, the completions and the manual page under PREFIX, and the lines it tells users
//! to add to ~/.bashrc and ~/.zshrc make a new shell load the helper and its completion.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const ZP: &str = env!("CARGO_BIN_EXE_zeropty");

struct Installed {
    root: PathBuf,
    prefix: PathBuf,
    said: String,
}

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Runs `install.sh --no-build` over what this test build made.
fn install(name: &str) -> Installed {
    let root = std::env::temp_dir().join(format!("zp-install-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("home")).unwrap();
    let prefix = root.join("prefix");
    // The binary is TARGET/release/zeropty: install.sh takes TARGET.
    let target = Path::new(ZP).parent().unwrap().parent().unwrap();
    let o = Command::new("sh")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("install.sh"))
        .arg("--no-build")
        .env("PREFIX", &prefix)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "install.sh: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    Installed {
        root,
        prefix,
        said: String::from_utf8(o.stdout).unwrap(),
    }
}

impl Installed {
    /// The lines install.sh says to add for `shell`, between its markers.
    fn snippet(&self, shell: &str) -> String {
        let start = format!("# >>> zeropty {shell}\n");
        let from = self.said.find(&start).expect("the snippet's start") + start.len();
        let to = self.said[from..].find("# <<<").expect("the snippet's end") + from;
        self.said[from..to].to_string()
    }

    /// A new interactive `shell` whose startup file holds the snippet, running `script`.
    fn new_shell(&self, shell: &str, script: &str) -> Output {
        let home = self.root.join("home");
        let (rc, args) = match shell {
            "bash" => (".bashrc", vec!["-i", "-c", script]),
            _ => (".zshrc", vec!["-i", "-c", script]),
        };
        std::fs::write(home.join(rc), self.snippet(shell)).unwrap();
        let path = format!("{}:/usr/bin:/bin", self.prefix.join("bin").display());
        Command::new(shell)
            .args(args)
            .env_clear()
            .env("HOME", &home)
            .env("ZDOTDIR", &home)
            .env("PATH", path)
            .env("ZEROPTY_TMPDIR", &self.root)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

#[test]
fn everything_lands_where_bash_zsh_and_man_look() {
    let i = install("files");
    for file in [
        "bin/zeropty",
        "lib/bash/zeropty_bash.so",
        "share/zeropty/zeropty.zsh",
        "share/bash-completion/completions/zeropty",
        "share/zsh/site-functions/_zeropty",
        "share/man/man1/zeropty.1",
    ] {
        assert!(i.prefix.join(file).is_file(), "{file} is not installed");
    }
    // man finds the page from PATH alone (PREFIX/bin beside PREFIX/share/man).
    let o = Command::new("man")
        .args(["-w", "zeropty"])
        .env_clear()
        .env(
            "PATH",
            format!("{}:/usr/bin:/bin", i.prefix.join("bin").display()),
        )
        .output()
        .expect("man must be installed (apt-get install man-db)");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        i.prefix.join("share/man/man1/zeropty.1").to_string_lossy(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_new_bash_has_the_builtin_and_its_completion() {
    let i = install("bash");
    let o = i.new_shell(
        "bash",
        "type -t zeropty; complete -p zeropty; COMP_WORDS=(zeropty kill-s); COMP_CWORD=1; \
         COMP_LINE='zeropty kill-s'; COMP_POINT=${#COMP_LINE}; _zeropty; echo \"${COMPREPLY[*]}\"",
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "builtin\ncomplete -F _zeropty zeropty\nkill-server kill-session\n",
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_new_zsh_has_the_function_and_its_completion() {
    let i = install("zsh");
    let o = i.new_shell("zsh", "whence -w zeropty; print -r -- $_comps[zeropty]");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "zeropty: function\n_zeropty\n",
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
