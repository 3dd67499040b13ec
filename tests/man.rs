//! The manual page: the checked-in `man/zeropty.1` is what the tables generate, it passes
//! groff's and mandoc's checks, and it describes every command, flag, option and format
//! variable the engine has.

use std::process::Command;
use zeropty::docs::man::{man_page, undocumented};
use zeropty::engine::commands::{self, VARIABLES};
use zeropty::engine::options;

const PAGE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/man/zeropty.1");

/// As the page writes a name: hyphens are minus signs.
fn escaped(name: &str) -> String {
    name.replace('-', "\\-")
}

/// The lines of one command's subsection, up to the next heading.
fn command_section<'a>(page: &'a str, name: &str) -> &'a str {
    let heading = format!("\n.SS {}\n", escaped(name));
    let start = page
        .find(&heading)
        .unwrap_or_else(|| panic!("no section for command {name}"))
        + heading.len();
    let rest = &page[start..];
    let end = [rest.find("\n.SS "), rest.find("\n.SH ")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Runs a lint tool on the page; its output must be empty.
fn lint(program: &str, args: &[&str], package: &str) {
    let output = Command::new(program)
        .args(args)
        .arg(PAGE_PATH)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} ({e}): install {package}"));
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.is_empty() && output.status.success(),
        "{program} {args:?} reports on man/zeropty.1:\n{report}"
    );
}

#[test]
fn checked_in_page_is_generated() {
    let on_disk = std::fs::read_to_string(PAGE_PATH).unwrap_or_default();
    assert!(
        on_disk == man_page(),
        "man/zeropty.1 is out of date: run `cargo run --example gen_docs`"
    );
}

#[test]
fn groff_finds_nothing_to_warn_about() {
    lint("groff", &["-man", "-ww", "-z"], "groff-base");
}

#[test]
fn mandoc_finds_nothing_to_warn_about() {
    lint("mandoc", &["-T", "lint", "-W", "warning"], "mandoc");
}

#[test]
fn every_table_entry_is_described() {
    let problems = undocumented();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_command_section_has_its_alias_and_flags() {
    let page = man_page();
    for def in commands::all() {
        let section = command_section(&page, def.name);
        if let Some(alias) = def.alias {
            assert!(
                section.contains(&format!("\\fB{}\\fR", escaped(alias))),
                "{}: alias {alias} missing",
                def.name
            );
        }
        for flag in def.flags.chars().filter(|&c| c != ':') {
            assert!(
                section.contains(&format!(".TP\n\\fB\\-{flag}\\fR")),
                "{}: flag -{flag} not described",
                def.name
            );
        }
    }
}

#[test]
fn every_option_and_variable_is_listed() {
    let page = man_page();
    for def in options::TABLE.iter().chain(options::EXTRA) {
        assert!(
            page.contains(&format!(".TP\n\\fB{}\\fR\n", escaped(def.name))),
            "option {} missing",
            def.name
        );
    }
    for name in VARIABLES {
        assert!(
            page.contains(&format!(".TP\n\\fB{name}\\fR\n")),
            "format variable {name} missing"
        );
    }
}

#[test]
fn page_is_plain_ascii() {
    assert!(
        man_page().is_ascii(),
        "the page must stay ASCII for every roff"
    );
}
