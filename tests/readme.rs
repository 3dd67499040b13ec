//! The README's command list is `zeropty list-commands`, so it stays in step with the one
//! command table.

#[test]
fn readme_lists_every_command_as_list_commands_prints_it() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("<!-- list-commands -->\n```\n")
        .expect("README command list")
        + 27;
    let end = readme[start..]
        .find("```")
        .expect("end of README command list")
        + start;
    let listed = &readme[start..end];
    let dir = std::env::temp_dir().join(format!("zp-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_zeropty"))
            .args(["-L", "readme", "-f/dev/null"])
            .args(args)
            .env("ZEROPTY_TMPDIR", &dir)
            .output()
            .unwrap()
    };
    let out = run(&["list-commands"]);
    let _ = run(&["kill-server"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success());
    assert_eq!(listed, String::from_utf8(out.stdout).unwrap());
}
