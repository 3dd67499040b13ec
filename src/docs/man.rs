//! The manual page, `man/zeropty.1`, in man(7) macros.
//!
//! The lists on the page come from the engine's tables: every command of the command table
//! with its alias, synopsis and flags, every option of the option table with its scope, type
//! and default, and every format variable. What the tables cannot say (what a command or
//! flag does, what a variable holds) is written here, keyed by name; [`undocumented`] names
//! whatever the tables have that this file does not describe, and descriptions of names the
//! tables no longer have, so a test keeps the two in step.
//!
//! Prose is written as plain text in which `` `word` `` is set in bold; [`roff`] escapes the
//! rest, so no description can break the page's markup.

use crate::engine::commands::{self, CommandDef, VARIABLES};
use crate::engine::options::{self, Kind, OptionDef};

/// The page's date: change it when the page changes in substance.
const PAGE_DATE: &str = "2026-11-30";

/// The whole page.
pub fn man_page() -> String {
    let mut page = Page::default();
    // Names and flags must stay whole to be copied: groff's man macros read this register
    // when the page starts, and would otherwise hyphenate them.
    page.request(".nr HY 0");
    page.request(&format!(
        ".TH ZEROPTY 1 {PAGE_DATE} \"zeropty {}\" \"User Commands\"",
        env!("CARGO_PKG_VERSION")
    ));
    page.section("NAME");
    page.request(&roff(NAME));
    write_synopsis(&mut page);
    write_prose_sections(&mut page, INTRODUCTION);
    write_prose_sections(&mut page, TARGETS);
    write_commands(&mut page);
    write_formats(&mut page);
    write_options(&mut page);
    write_prose_sections(&mut page, REFERENCE);
    page.text
}

/// What the tables hold that the page does not describe, and descriptions of commands,
/// flags, variables and options the tables do not have. Empty when the two agree.
pub fn undocumented() -> Vec<String> {
    let mut problems = Vec::new();
    for def in commands::all() {
        let Some(doc) = command_doc(def.name) else {
            problems.push(format!("command {} has no description", def.name));
            continue;
        };
        for (flag, _) in flag_letters(def.flags) {
            if flag_doc(doc, flag).is_none() {
                problems.push(format!("flag -{flag} of {} has no description", def.name));
            }
        }
        for &(flag, _) in doc.flags {
            if !flag_letters(def.flags).iter().any(|&(f, _)| f == flag) {
                problems.push(format!("{} has no flag -{flag} to describe", def.name));
            }
        }
    }
    for doc in COMMAND_DOCS {
        if commands::find(doc.name).map(|d| d.name) != Ok(doc.name) {
            problems.push(format!("no command {} to describe", doc.name));
        }
    }
    for name in VARIABLES {
        if variable_doc(name).is_none() {
            problems.push(format!("format variable {name} has no description"));
        }
    }
    for (name, _) in VARIABLE_DOCS {
        if !VARIABLES.contains(name) {
            problems.push(format!("no format variable {name} to describe"));
        }
    }
    for (name, _) in ACTED_ON {
        if options::find(name).map(|d| d.name) != Some(name) {
            problems.push(format!("no option {name} to describe"));
        }
    }
    problems
}

// ---- writing man(7) ----

/// man(7) source being written.
#[derive(Default)]
struct Page {
    text: String,
}

impl Page {
    fn request(&mut self, line: &str) {
        self.text.push_str(line);
        self.text.push('\n');
    }

    fn section(&mut self, title: &str) {
        self.request(&format!(".SH {title}"));
    }

    fn subsection(&mut self, title_roff: &str) {
        self.request(&format!(".SS {title_roff}"));
    }

    /// Starts a paragraph. Right after a heading a paragraph macro would be redundant
    /// (mandoc warns about it), so none is written there.
    fn paragraph_break(&mut self) {
        let last_line = self.text.lines().last().unwrap_or_default();
        if !last_line.starts_with(".SH") && !last_line.starts_with(".SS") {
            self.request(".PP");
        }
    }

    fn paragraph(&mut self, prose: &str) {
        self.paragraph_break();
        self.request(&roff(prose));
    }

    /// An indented item: a tag line (already roff) and its description.
    fn item(&mut self, tag_roff: &str, prose: &str) {
        self.request(".TP");
        self.request(tag_roff);
        self.request(&roff(prose));
    }

    /// Lines shown as they are, in a constant-width, unfilled block.
    fn example(&mut self, lines: &[&str]) {
        self.paragraph_break();
        self.request(".RS 4");
        self.request(".EX");
        for line in lines {
            self.request(&protect_line_start(escape(line)));
        }
        self.request(".EE");
        self.request(".RE");
    }
}

/// Escapes text for a roff text line: backslashes print as themselves, hyphens as the minus
/// signs that flags and names are typed with.
fn escape(text: &str) -> String {
    text.replace('\\', "\\e").replace('-', "\\-")
}

fn bold(text: &str) -> String {
    format!("\\fB{}\\fR", escape(text))
}

fn italic(text: &str) -> String {
    format!("\\fI{}\\fR", escape(text))
}

/// A line starting with `.` or `'` would be read as a request.
fn protect_line_start(line: String) -> String {
    if line.starts_with(['.', '\'']) {
        format!("\\&{line}")
    } else {
        line
    }
}

/// Prose to one roff text line: `` `word` `` in bold, everything else escaped.
fn roff(prose: &str) -> String {
    let line: String = prose
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { bold(part) } else { escape(part) })
        .collect();
    protect_line_start(line)
}

// ---- sections written from prose ----

/// A section: its title and paragraphs; a paragraph starting with `> ` is an example line
/// (consecutive ones form one block), and one of the form `tag :: text` is an indented item.
type ProseSection = (&'static str, &'static [&'static str]);

fn write_prose_sections(page: &mut Page, sections: &[ProseSection]) {
    for (title, paragraphs) in sections {
        if let Some(sub) = title.strip_prefix("SS ") {
            page.subsection(&escape(sub));
        } else {
            page.section(title);
        }
        write_paragraphs(page, paragraphs);
    }
}

fn write_paragraphs(page: &mut Page, paragraphs: &[&str]) {
    let mut rest = paragraphs;
    while let Some((first, tail)) = rest.split_first() {
        if first.starts_with("> ") {
            let count = rest.iter().take_while(|p| p.starts_with("> ")).count();
            let lines: Vec<&str> = rest[..count].iter().map(|p| &p[2..]).collect();
            page.example(&lines);
            rest = &rest[count..];
            continue;
        }
        match first.split_once(" :: ") {
            Some((tag, text)) => page.item(&roff(tag), text),
            None => page.paragraph(first),
        }
        rest = tail;
    }
}

/// The program's own usage, then its commands that never reach a server.
const SYNOPSES: &[(&str, &str)] = &[
    (
        "zeropty",
        "[-2CDlNuVv] [-c shell-command] [-f file] [-L socket-name] [-S socket-path] \
         [-T features] [command [flags]]",
    ),
    ("zeropty serve", ""),
    ("zeropty help", "[command]"),
];

fn write_synopsis(page: &mut Page) {
    page.section("SYNOPSIS");
    for (i, (program, usage)) in SYNOPSES.iter().enumerate() {
        if i > 0 {
            page.request(".br");
        }
        page.request(format!("{} {}", bold(program), usage_roff(usage)).trim_end());
    }
}

// ---- commands ----

/// What one command does and what each of its flags means.
struct CommandDoc {
    name: &'static str,
    about: &'static str,
    flags: &'static [(char, &'static str)],
}

fn command_doc(name: &str) -> Option<&'static CommandDoc> {
    COMMAND_DOCS.iter().find(|d| d.name == name)
}

fn flag_doc(doc: &CommandDoc, flag: char) -> Option<&'static str> {
    doc.flags
        .iter()
        .find(|(f, _)| *f == flag)
        .map(|(_, text)| *text)
}

/// The letters of a getopt string, each with whether it takes a value (`x:`).
fn flag_letters(flags: &str) -> Vec<(char, bool)> {
    let letters: Vec<char> = flags.chars().collect();
    (0..letters.len())
        .filter(|&i| letters[i] != ':')
        .map(|i| (letters[i], letters.get(i + 1) == Some(&':')))
        .collect()
}

/// The name the usage gives a flag's value (`-c working-directory`); flags tmux keeps out of
/// its usage get a plain `value`.
fn flag_value_name(usage: &str, flag: char) -> &str {
    let marker = format!("-{flag} ");
    usage
        .split('[')
        .find_map(|part| part.strip_prefix(marker.as_str()))
        .and_then(|rest| rest.split([']', ' ']).next())
        .unwrap_or("value")
}

/// The usage in roff: flags bold, placeholders italic.
fn usage_roff(usage: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in usage.chars().chain(std::iter::once(' ')) {
        if "[]| ".contains(c) {
            out.push_str(&usage_word_roff(&word));
            word.clear();
            out.push(c);
        } else {
            word.push(c);
        }
    }
    out.pop();
    out
}

fn usage_word_roff(word: &str) -> String {
    match word {
        "" | "..." => word.to_string(),
        flags if flags.starts_with('-') => bold(flags),
        placeholder => italic(placeholder),
    }
}

fn command_synopsis(def: &CommandDef) -> String {
    let mut line = bold(def.name);
    if let Some(alias) = def.alias {
        line.push_str(&format!(" (alias {})", bold(alias)));
    }
    if !def.usage.trim().is_empty() {
        line.push(' ');
        line.push_str(&usage_roff(def.usage.trim()));
    }
    line
}

fn flag_tag(def: &CommandDef, flag: char, takes_value: bool) -> String {
    let tag = bold(&format!("-{flag}"));
    if takes_value {
        format!("{tag} {}", italic(flag_value_name(def.usage, flag)))
    } else {
        tag
    }
}

/// Flags in the order a reader looks them up: by letter, lower case before upper.
fn sorted_flags(flags: &str) -> Vec<(char, bool)> {
    let mut letters = flag_letters(flags);
    letters.sort_by_key(|(c, _)| (c.to_ascii_lowercase(), c.is_ascii_uppercase()));
    letters
}

fn write_commands(page: &mut Page) {
    page.section("COMMANDS");
    page.paragraph(
        "Each command below is given as the first argument after the global flags, or sent \
         over the socket (see `SOCKET PROTOCOL`). A command may be shortened to a unique \
         prefix of its name, or given by its alias. Several commands may be run by one \
         invocation, separated by an argument that is a single `;`; if any of them is unknown \
         or has bad arguments, none runs. A name that is an item of the `command-alias` server \
         option (`NAME=COMMANDS`, by default tmux's: `info`, `splitp`, ...) stands for those \
         commands, its arguments appended to the last. `zeropty list-commands` prints the same \
         synopses.",
    );
    for def in commands::all() {
        write_command(page, def);
    }
}

fn write_command(page: &mut Page, def: &CommandDef) {
    page.subsection(&escape(def.name));
    page.request(&command_synopsis(def));
    let Some(doc) = command_doc(def.name) else {
        return;
    };
    page.paragraph(doc.about);
    for (flag, takes_value) in sorted_flags(def.flags) {
        if let Some(text) = flag_doc(doc, flag) {
            page.item(&flag_tag(def, flag, takes_value), text);
        }
    }
}

// ---- formats ----

fn variable_doc(name: &str) -> Option<&'static str> {
    VARIABLE_DOCS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

fn write_formats(page: &mut Page) {
    write_prose_sections(page, FORMATS);
    page.subsection("Variables");
    page.paragraph(
        "These variables describe the target of the command (or the session, window or pane \
         a loop is at); `display-message -a` lists them with their values. Options are \
         variables too (`#{history-limit}`, `#{@myoption}`), and so are the names of the \
         global environment.",
    );
    for name in VARIABLES {
        page.item(&bold(name), variable_doc(name).unwrap_or_default());
    }
}

// ---- options ----

fn scope_name(scope: u8) -> String {
    let names = [
        (options::SERVER, "server"),
        (options::SESSION, "session"),
        (options::WINDOW, "window"),
        (options::PANE, "pane"),
    ];
    names
        .iter()
        .filter(|(bit, _)| scope & bit != 0)
        .map(|(_, name)| *name)
        .collect::<Vec<_>>()
        .join(" and ")
}

fn type_name(def: &OptionDef) -> String {
    let kind = match def.kind {
        Kind::String if def.flags & options::STYLE != 0 => "style".to_string(),
        Kind::String => "string".to_string(),
        Kind::Number { min, max } => format!("number from {min} to {max}"),
        Kind::Key => "key".to_string(),
        Kind::Colour => "colour".to_string(),
        Kind::Flag => "on or off".to_string(),
        Kind::Choice(choices) => format!("one of {}", choices.join(", ")),
        Kind::Command => "command".to_string(),
    };
    if def.is_array() && !def.is_hook() {
        format!("array of {kind}")
    } else {
        kind
    }
}

/// The default, with break points after separators so that long defaults (status-format)
/// can be folded onto several lines.
fn default_roff(def: &OptionDef) -> String {
    let shown: Vec<String> = def
        .default
        .iter()
        .map(|item| format!("\\(dq{}\\(dq", breakable(&escape(item))))
        .collect();
    match shown.as_slice() {
        [] => "none".to_string(),
        [one] => one.clone(),
        many => many.join(" and "),
    }
}

fn breakable(escaped: &str) -> String {
    let mut out = String::new();
    for c in escaped.chars() {
        out.push(c);
        if ",]}".contains(c) {
            out.push_str("\\:");
        }
    }
    out
}

fn option_entry(def: &OptionDef) -> String {
    let what = if def.is_hook() {
        "hook".to_string()
    } else {
        type_name(def)
    };
    let mut entry = format!(
        "{} option; {}; default {}.",
        escape(&scope_name(def.scope)),
        escape(&what),
        default_roff(def)
    );
    if let Some((_, note)) = ACTED_ON.iter().find(|(name, _)| *name == def.name) {
        entry.push(' ');
        entry.push_str(&roff(note));
    }
    protect_line_start(entry)
}

/// Which options a subsection of `OPTIONS` lists.
type OptionFilter = fn(&OptionDef) -> bool;

fn write_options(page: &mut Page) {
    write_prose_sections(page, OPTIONS);
    let groups: [(&str, OptionFilter); 4] = [
        ("Server options", |d| {
            !d.is_hook() && d.scope == options::SERVER
        }),
        ("Session options", |d| {
            !d.is_hook() && d.scope == options::SESSION
        }),
        ("Window and pane options", |d| {
            !d.is_hook() && d.scope & (options::WINDOW | options::PANE) != 0
        }),
        ("Hooks", OptionDef::is_hook),
    ];
    let all: Vec<&OptionDef> = options::TABLE.iter().chain(options::EXTRA).collect();
    // Defaults such as status-format are long runs without spaces: justified, their lines
    // would be stretched at the few spaces they have.
    page.request(".ad l");
    for (title, belongs) in groups {
        page.subsection(title);
        for def in all.iter().filter(|d| belongs(d)) {
            page.request(".TP");
            page.request(&bold(def.name));
            page.request(&option_entry(def));
        }
    }
    page.request(".ad b");
}

// ---- the descriptions ----

const NAME: &str = "zeropty - tmux-compatible terminal sessions for many programs at once";

const INTRODUCTION: &[ProseSection] = &[
    (
        "DESCRIPTION",
        &[
            "`zeropty` runs interactive programs in sessions kept by a server, as `tmux`(1) does, \
             and takes tmux 3.3a's commands, flags, targets, formats, options, messages and exit \
             statuses, so that scripts written for tmux keep working when `tmux` is replaced by \
             `zeropty`. It is made for machines that run hundreds or thousands of interactive \
             programs at once.",
            "A session holds windows, and each window holds exactly one pane: the program and the \
             screen it draws on. The server is one process with one thread; it starts the first \
             time a command that needs it runs (as `new-session` does) and, with the default \
             `exit-empty` option, exits when its last session ends. Commands reach it as one JSON \
             line each on a Unix socket, so any language can drive it without starting a \
             process (see `SOCKET PROTOCOL` and `SHELL HELPERS`).",
            "By default a session's program gets one end of a socket pair as its terminal, made to \
             look like a terminal by a small library the server preloads into it, while the server \
             plays the kernel's line discipline (echo, line editing, interrupt, suspend and end of \
             file keys). There is then no limit on pseudo-terminals. A session may instead use a \
             real pseudo-terminal (`new-session -T pty`, or the `default-backend` option), which \
             programs the library cannot reach need: statically linked and setuid programs.",
            "With no command, `zeropty` runs `new-session`.",
        ],
    ),
    (
        "GLOBAL FLAGS",
        &[
            "Flags before the command apply to the program itself. They are tmux's; those zeropty \
             has no use for are accepted and ignored, so command lines written for tmux keep \
             working.",
            "`-2`, `-D`, `-l`, `-N`, `-u`, `-v` :: Accepted and ignored.",
            "`-C` :: Control mode (see `CONTROL MODE`): the program reads commands from its \
             standard input and prints their output and the server's notifications as tmux's \
             control mode does. Given twice (`-CC`), standard input must be a terminal, which is \
             set to raw mode, and the output is wrapped in the `ESC P 1000 p` ... `ESC \\` \
             sequence terminals that speak the protocol look for.",
            "`-c` shell-command :: Run shell-command with the user's shell (`SHELL`, else the \
             login shell, else /bin/sh) instead of a command, and exit with its status.",
            "`-f` file :: Read this configuration file when the server starts, instead of \
             ~/.zeropty.conf; the file must exist. Given more than once, the files are read \
             in order (`#{config_files}` names them).",
            "`-L` socket-name :: Use the server whose socket is socket-name in the socket \
             directory (see `FILES`), instead of `default`.",
            "`-S` socket-path :: Use the server at this socket path; takes precedence over `-L`.",
            "`-T` features :: Accepted and ignored.",
            "`-V` :: Print the version and exit. Run through a link named `tmux`, print `tmux 3.3a`, \
             so that tools which check tmux's version accept the program.",
            "Without `-L` or `-S`, a program running inside a session talks to the server of that \
             session, found through the `ZEROPTY` environment variable; otherwise the socket is \
             `default` in the socket directory.",
        ],
    ),
    (
        "PROGRAM COMMANDS",
        &[
            "Two commands are the program's own and never go to a server:",
            "`serve` :: Run a server in the foreground on the chosen socket, reading the \
             configuration file first. It returns when the server exits; its status is 1 if the \
             server could not start (the socket directory is unsafe, or a server already runs \
             there).",
            "`help` [command] :: Print the usage of every command, or of the one named, as \
             `list-commands` shows it.",
        ],
    ),
];

const TARGETS: &[ProseSection] = &[(
    "TARGETS",
    &[
        "Most commands act on a session, window, pane or client named by `-t` (or `-s` for a \
         source). A target is written as tmux writes it: `session:window.pane`, where every part \
         may be left out and a missing part means the current one. The current pane is the one \
         the command runs in (given by the `ZEROPTY_PANE` variable of its caller, or made current \
         by an earlier command of the same request); failing that, the current session is the \
         most recently active one.",
        "target-session :: `$id` names a session by its id. `=name` matches only a session \
         named exactly name. Otherwise a session is looked for by exact name, then by a unique \
         prefix of its name, then by a unique match of the word as a shell-style pattern \
         (fnmatch(3)).",
        "target-window :: `session:window`, or a window alone. A window is `@id`, an index, \
         `+N` or `-N` (an offset from the current window), `!` or `{last}` (the last window), \
         `^` or `{start}` (the lowest index), `$` or `{end}` (the highest), `{next}` and \
         `{previous}`, then an exact name, a unique prefix and a unique pattern; after `=` only \
         an index or an exact name. `new-window -t` may name an index that no window has yet.",
        "target-pane :: `session:window.pane`, or a pane alone. `%id` names a pane by its id. \
         Since a window holds one pane, its index (`pane-base-index`), an offset, `{last}`, \
         `{next}`, `{previous}` and the position words (`top`, `bottom`, `left`, `right`, \
         `top-left`, `top-right`, `bottom-left`, `bottom-right` and their braced forms) all \
         name that pane.",
        "target-client :: The terminal device of an attached client (`/dev/pts/3`), as \
         `list-clients` shows it. Without one, a command uses the client it came from, else the \
         most recently active client of the current session.",
        "A word with none of these marks is tried as the kind of object the command wants, \
         then as a window and as a session. The mouse target (`=` or `{mouse}`) is the window \
         under the mouse while a mouse binding runs (the one whose name in the status line was \
         clicked, or the client's for a pane); the marked pane (`~` or `{marked}`) is never \
         set here. Failures are reported as tmux reports \
         them: `can't find session: NAME`, `can't find window: NAME`, `can't find pane: NAME`, \
         `no current target`.",
    ],
)];

const FORMATS: &[ProseSection] = &[
    (
        "FORMATS",
        &[
            "The `-F` flag of the list commands, `display-message`, `new-session -P` and other \
             commands takes a format: text in which `#{...}` is replaced by a value. The `-f` \
             flag of the list commands takes a format too, and keeps the entries for which it \
             expands to something other than empty or `0`. Formats are tmux 3.3a's:",
            "`#{name}` :: The value of a variable or option; an unknown name expands to nothing.",
            "`#D #F #H #I #P #S #T #W #h` :: Short forms of `pane_id`, `window_flags`, `host`, \
             `window_index`, `pane_index`, `session_name`, `pane_title`, `window_name` and \
             `host_short`.",
            "`##`, `#,`, `#}` :: A literal #, comma or closing brace.",
            "`#{?cond,then,else}` :: then if cond (a variable name or a format) is true, that is \
             neither empty nor `0`, else else.",
            "`#{==:a,b}`, `#{!=:a,b}`, `#{<:a,b}`, `#{>:a,b}`, `#{<=:a,b}`, `#{>=:a,b}` :: \
             Compare two expansions as strings: 1 or 0.",
            "`#{||:a,b}`, `#{&&:a,b}` :: Logical or and and of two expansions.",
            "`#{m:pattern,text}` :: 1 if text matches the shell pattern; `m/r` matches a POSIX \
             extended regular expression instead, and `m/i` ignores case.",
            "`#{C:text}` :: The line number where text appears in the pane, or 0.",
            "`#{e|op|:a,b}` :: Arithmetic: op is one of `+ - * / % == != < > <= >=`; flag `f` \
             computes in floating point, and a number after it gives the precision.",
            "`#{=N:name}`, `#{=-N:name}`, `#{=/N/marker/:name}` :: At most N characters from the \
             start (or the end, for a negative N), adding marker where text was cut.",
            "`#{pN:name}`, `#{p-N:name}` :: Pad to N columns on the right (or the left).",
            "`#{s/re/with/flags:name}` :: Replace matches of the regular expression re; flag \
             `i` ignores case.",
            "`#{t:name}`, `#{t/p:name}`, `#{t/f/fmt:name}` :: A time as ctime(3) writes it, \
             shortened, or through strftime(3) with fmt.",
            "`#{l:text}` :: The text as it is, not expanded.",
            "`#{b:name}`, `#{d:name}` :: The base name or directory name of a path.",
            "`#{q:name}`, `#{q/e:name}` :: Quoted for the shell, or with # doubled.",
            "`#{n:name}`, `#{w:name}` :: The length of the value in characters, or its width in \
             columns.",
            "`#{a:name}`, `#{c:name}` :: The character with this number; a colour as six \
             hexadecimal digits.",
            "`#{E:name}`, `#{T:name}` :: Expand the value as a format again (with `T`, also \
             passing it through strftime(3)).",
            "`#{S:fmt}`, `#{W:fmt}`, `#{P:fmt}` :: fmt repeated for every session, every window \
             of the session, or every pane of the window; a second part after a comma is used \
             for the current one.",
            "`#{N/s:name}`, `#{N/w:name}` :: 1 if a session (or window) of that name exists.",
            "`#(command)` :: The first line of the output of a shell command.",
            "Modifiers combine with `;` (`#{=10;q:pane_title}`) and formats nest as deeply as \
             tmux allows. `display-message` and the status line also pass the format through \
             strftime(3). Unlike tmux, regular expressions have no back-references, and every \
             expansion has a limit on the work it may do, so that formats which refer to each \
             other cannot hang the server.",
        ],
    ),
    (
        "SS Syntax examples",
        &[
            "> zeropty list-sessions -F '#{session_name}: #{session_windows} windows'",
            "> zeropty display-message -p '#{?pane_dead,exited #{pane_dead_status},running}'",
            "> zeropty list-windows -a -f '#{m:*vim*,#{pane_current_command}}'",
        ],
    ),
    (
        "SS What sessions cost",
        &[
            "zeropty's own variables, not in tmux and not listed by `display-message -a`:",
            "A screen is hot while its program writes or someone reads it, frozen into one              chunk of bytes after about 250 ms of quiet (longer for screens that keep waking), and              cold after 10 s frozen: compressed into a file in memory outside the server's heap              (an unnamed memfd; with `ZEROPTY_COLD=memory` in the server's environment, in the              heap). Output, a reader (`capture-pane`, `display-message`, `list-panes`) or a resize              brings a screen back.",
            "`pane_memory` :: Bytes the pane holds in the server's heap: its screen, history              included (the frozen chunk while frozen, nothing while cold), and the queues of its              input and output.",
            "`pane_memory_state` :: `hot`, `frozen` or `cold`.",
            "`pane_memory_cold` :: Bytes its screen takes in the cold store.",
            "`session_memory`, `session_memory_cold` :: The sums over the session's panes.",
            "`server_memory` :: The `session_memory` of every session and the bytes of the              paste buffers.",
            "`server_memory_cold` :: Memory the cold store holds: its file (whole pages) and the \
             screens it keeps whole to store screens alike against them.",
            "> zeropty list-sessions -F '#{session_name} #{session_memory} #{session_memory_cold}'",
            "> zeropty list-windows -a -F '#{pane_id} #{pane_memory_state} #{pane_memory}'",
            "> zeropty display-message -p '#{server_memory} #{server_memory_cold}'",
        ],
    ),
];

const OPTIONS: &[ProseSection] = &[(
    "OPTIONS",
    &[
        "Options are set with `set-option` and shown with `show-options`. Every option of \
         tmux 3.3a exists with tmux's scope, type, default and checks, so configuration files \
         and scripts written for tmux are accepted. zeropty acts on the options marked \
         below with what it does with them; the others are accepted, checked and shown for \
         compatibility only. Server options have one global value; session options have a \
         global value that each session may override; window options likewise per window, and \
         options of the pane scope per pane. User options (`@name`) hold any string.",
        "Hooks are array options holding commands: `set-hook` sets them and the command runs \
         after the event the hook is named for (`after-new-window`, `session-closed`...), with \
         its output dropped. Of the event hooks, zeropty raises `client-attached`, \
         `client-detached`, `client-resized`, `client-session-changed`, `pane-died`, \
         `pane-exited`, `session-closed`, `window-linked`, `window-renamed` and \
         `window-unlinked`; `after-` hooks run after their command.",
        "`default-backend` is zeropty's own server option: `socket` (the default) or `pty`, the \
         terminal that programs of new sessions get (see `new-session -T`). `show-options` does \
         not list it, so that listings stay tmux's, but it is set and shown by name.",
    ],
)];

const REFERENCE: &[ProseSection] = &[
    (
        "ENVIRONMENT",
        &[
            "`ZEROPTY_TMPDIR` :: The directory in which the socket directory is made. Takes \
             precedence over TMUX_TMPDIR.",
            "`TMUX_TMPDIR` :: Used, as tmux uses it, when ZEROPTY_TMPDIR is unset or empty; \
             without either, /tmp.",
            "`ZEROPTY` :: Set in the environment of every program in a session to \
             SOCKET,PID,SESSION: the server's socket path, its process id and the session's id \
             number. A `zeropty` command run inside a session talks to that server. (Programs do \
             not get TMUX, so tmux itself is not confused by them.)",
            "`ZEROPTY_PANE` :: Set for every program to its pane's id, `%N`; commands run from the \
             pane take it as their current pane.",
            "`TERM` :: Programs in a session get the value of the `default-terminal` option \
             (tmux-256color by default). An attaching client sends its own TERM to the server.",
            "`SHELL` :: The default of the `default-shell` option, the shell that starts \
             windows' commands, when it is a usable shell; otherwise the user's login shell, \
             else /bin/sh. Jobs of `run-shell`, `if-shell` and `pipe-pane` run with /bin/sh.",
            "`HOME` :: The directory holding the configuration file, ~/.zeropty.conf.",
            "A new session's environment starts from the client's environment as the \
             `update-environment` option selects it, then the global environment \
             (`set-environment -g`), then `new-session -e`.",
        ],
    ),
    (
        "FILES",
        &[
            "`${ZEROPTY_TMPDIR:-${TMUX_TMPDIR:-/tmp}}/zeropty-UID/NAME` :: The socket of the server \
             named NAME (`-L`; `default` without it). The directory zeropty-UID is created with \
             mode 0700, and a directory that is not owned by the user or that others may use is \
             refused.",
            "`zeropty-UID/zeropty-shim-HASH.so` :: The terminal library the server preloads into \
             the programs of socket-backed sessions, written by the server from a copy carried \
             inside the program and named by a hash of its contents, so an upgraded program \
             installs its own beside the old one.",
            "`zeropty-UID/.NAME.PID.state` :: The state the library and the server share, one \
             file per running server.",
            "`~/.zeropty.conf` :: Commands run by the server when it starts, one per line as \
             `source-file` reads them (`-f` chooses another file).",
        ],
    ),
    (
        "SOCKET PROTOCOL",
        &[
            "Clients talk to the server over its Unix socket. A connection carries any number of \
             requests, each one JSON object on one line; each is answered by one line, in the \
             order the requests came.",
            "> {\"argv\":[\"capture-pane\",\"-p\",\"-t\",\"=work:\"],\"cwd\":\"/home/me\",\"env\":{\"PATH\":\"/usr/bin\"}}",
            "> {\"code\":0,\"err\":\"\",\"out\":\"...screen...\\n\"}",
            "`argv` :: The command and its arguments, as on the command line (several commands \
             separated by `;`). Arguments that are not UTF-8 are sent as `argv_b64` instead, \
             each element the base64 of one argument.",
            "`cwd` :: The client's working directory: where new sessions start and where relative \
             paths begin.",
            "`env` :: The client's environment, used as tmux uses a client's (new sessions take \
             PATH and `update-environment` variables from it). It may be omitted: the server \
             then uses the environment the same connection sent last.",
            "`reply` :: With `\"reply\":\"raw\"` the reply is a line \
             {\"code\":N,\"out_bytes\":A,\"err_bytes\":B} followed by exactly A bytes of standard \
             output and B bytes of standard error, raw, with no encoding.",
            "`refuse_attach` :: With `\"refuse_attach\":true`, a request in which a command would \
             attach a terminal (`attach-session`, `new-session` without `-d`) runs nothing and \
             is answered with `\"must_attach\":true`: the client should run the `zeropty` \
             program instead, which can attach.",
            "`stdin` :: The client's standard input, for a command that reads it \
             (`load-buffer -`, `source-file -`); `stdin_b64` when it is not UTF-8. Without it \
             the command reads an empty input.",
            "`refuse_stdin` :: With `\"refuse_stdin\":true`, a request without `stdin` in which a \
             command would read it runs nothing and is answered with `\"must_attach\":true`: the \
             client should run the program, which sends it.",
            "`terminal` :: Sent by a client that has a terminal and may attach: its columns, rows, \
             TERM, device, process id and whether its locale is UTF-8.",
            "The reply holds the exit code, `code`, and the command's standard output and error, \
             `out` and `err`; either is sent as `out_b64` or `err_b64` exactly when its bytes are \
             not valid UTF-8. A command that waits (`wait-for`) is answered when it completes, \
             and later requests on the connection after it. A line longer than 64 MiB is refused \
             and the connection closed.",
            "When a command attached the connection, the reply carries `\"attached\":true` and \
             from the next byte the connection carries frames each way: one type byte, a 4-byte \
             big-endian length and the payload. The server sends `D` (bytes that redraw the whole \
             terminal) and `X` (the end: the exit status, whether to send SIGHUP to the client's \
             parent, and the message to print); the client sends `I` (bytes read from the \
             terminal) and `R` (its new size, columns and rows, 2 bytes each). Frames of other \
             types are ignored.",
            "A control-mode client (`-C`) adds `\"control\":true` to the request that may \
             attach: each command's output comes between guard lines (see `CONTROL MODE`), and \
             once attached it sends `I` frames of command lines and `E` (its input ended) and \
             is sent `T` frames (the lines it prints, never dropped) and `X`.",
            "From a shell, with socat(1):",
            "> echo '{\"argv\":[\"has-session\",\"-t\",\"work\"]}' | socat - UNIX-CONNECT:/tmp/zeropty-$(id -u)/default",
        ],
    ),
    (
        "CONTROL MODE",
        &[
            "`zeropty -C` is tmux's control mode, for programs that drive the server through one \
             long-lived client: it runs its command (`new-session` when none is given) and, if \
             that attached it, reads command lines from its standard input and prints, for \
             each command, its output between a `%begin TIME NUMBER FLAGS` line and an `%end` \
             line with the same three numbers (`%error` when the command failed, with the error \
             inside). FLAGS is 0 for the commands of the command line, 1 for those read from \
             standard input. A line that does not parse is one `%error` block reading `parse \
             error: ...`. An empty line, or the end of standard input, detaches; the program \
             then prints `%exit` (and a reason, `too far behind`, when the server let it go \
             for not reading), waits for an empty line if `refresh-client -f wait-exit` asked \
             it to, and exits 1 if a command it ran failed, else 0.",
            "Between blocks come notifications, as tmux words them: `%output %PANE TEXT` (what \
             the programs of the client's session write: bytes below a space and backslashes \
             as three-digit octal escapes), `%session-changed $ID NAME`, \
             `%client-session-changed CLIENT $ID NAME`, `%client-detached CLIENT`, \
             `%sessions-changed`, `%session-renamed $ID NAME`, `%session-window-changed $ID @ID`, \
             `%window-add @ID`, `%unlinked-window-add @ID`, `%unlinked-window-close @ID`, \
             `%window-renamed @ID NAME`, `%unlinked-window-renamed @ID NAME`, \
             `%layout-change @ID LAYOUT VISIBLE-LAYOUT FLAGS`, and `%subscription-changed NAME \
             $ID @ID INDEX %ID : VALUE` (`-` for what the subscription is not about) for \
             `refresh-client -B` subscriptions, checked once a second.",
            "A control client does not size its session's windows until `refresh-client -C \
             WIDTHxHEIGHT` gives it a size; `refresh-client -f no-output` stops its `%output`, \
             `refresh-client -A %ID:off` a pane's. It reads changes as they stand at the end of \
             each command and of each turn of the server: a change undone within one turn is \
             not reported, and several changes of one thing are reported once. \
             `%pane-mode-changed %ID` is sent when a client opens or closes copy, view or clock \
             mode over a pane (modes belong to clients here). Output of `run-shell` is not \
             sent.",
            "Flow control: with `refresh-client -f pause-after=SECONDS` (`pause-after` alone: \
             0), output lines are `%extended-output %ID AGE : TEXT` (AGE: how long, in \
             milliseconds, the pane's output has waited for the client), and a pane whose \
             output has waited longer than SECONDS for a client that does not read is paused: \
             its waiting output is dropped, the client is told `%pause %ID`, and nothing more \
             of it is sent until `refresh-client -A '%ID:continue'` (`%continue %ID`). \
             `-A '%ID:pause'` pauses a pane at once. Without it, a client that leaves 64 MiB \
             unread is let go (`%exit too far behind`).",
            "> printf 'list-windows\\n' | zeropty -C attach -t work",
        ],
    ),
    (
        "SHELL HELPERS",
        &[
            "Starting the `zeropty` program costs more than the command it runs. Shells can send \
             commands over the socket themselves instead:",
            "`bash` :: A loadable builtin: after `enable -f /usr/local/lib/bash/zeropty_bash.so \
             zeropty`, `zeropty ARGS` works as the program does, with the same output and exit \
             status, without starting a process. It keeps one connection per shell process and \
             connects again when the server has been replaced or when `-L`, `-S` or \
             ZEROPTY_TMPDIR change. For `attach-session`, `new-session` without `-d`, `serve`, \
             `help`, `-h`, `-V`, and when no server runs (to start one), it runs the `zeropty` \
             program found in PATH. `help zeropty` describes it.",
            "`zsh` :: A function: `source /usr/local/share/zeropty/zeropty.zsh` defines `zeropty`, \
             which talks to the server through the zsh/net/socket module with the same \
             behaviour.",
            "Completions :: For bash in \
             /usr/local/share/bash-completion/completions/zeropty and for zsh in \
             /usr/local/share/zsh/site-functions/_zeropty: commands, their flags, and sessions, \
             windows and panes for targets.",
        ],
    ),
    (
        "EXIT STATUS",
        &[
            "0 when every command succeeded, 1 when one failed: the message is on standard error, \
             worded as tmux words it (`can't find session: work`, `usage: ...`) or, for what \
             tmux would do but zeropty does not, beginning with `zeropty:`. Without a server, \
             `no server running on PATH` or `error connecting to PATH (REASON)` and status 1. \
             `run-shell` and `if-shell` pass on their shell command's exit status as tmux does.",
            "An attached client exits 0 when it was detached or its session ended, and 1 when \
             the server exited or its terminal went away; it prints why in brackets \
             (`[detached (from session work)]`, `[exited]`, `[server exited]`).",
        ],
    ),
    (
        "DIFFERENCES FROM TMUX",
        &[
            "A window holds exactly one pane. `split-window`, `join-pane` and `move-pane` fail \
             with `zeropty: windows hold one pane; COMMAND is not supported`, and there are no \
             layouts; `break-pane` moves the pane's window and `swap-pane` swaps the panes of \
             two windows, as tmux does for panes alone in their windows.",
            "Programs get a socket made a terminal by a preloaded library, unless their session \
             uses the PTY backend. A program started with an emptied environment (env -i), a \
             statically linked program or a setuid one does not see a terminal on the socket \
             backend; use `new-session -T pty` for them. `#{pane_tty}` is empty on the socket \
             backend.",
            "The attached view's status line is drawn as tmux draws it (status-format, one to \
             five lines, with its styles, alignments and a window list cut around the current \
             window, at the status-position). Its copy mode (`copy-mode`, `C-b [`) belongs to the client, not to the pane: \
             its moves, selections, copies (to paste buffers, to a command with copy-pipe, to \
             the terminal's clipboard) and searches are tmux's, over a copy of the pane taken \
             when it starts and reflowed when the pane is resized, with the keys of tmux's \
             copy-mode and copy-mode-vi tables; keys sent with send-keys reach the program \
             meanwhile (tmux gives them to the mode). What the commands keys run print \
             (`C-b ?`, `C-b ~`) shows in its place, as tmux's view mode shows it, and \
             clock-mode (`C-b t`) shows tmux's clock there, and choose-tree (`C-b s`, \
             `C-b w`) tmux's tree mode, drawn as tmux draws it, with its keys, prompts and \
             clicks but its menu and marks. Key tables \
             are tmux's: bind-key, \
             unbind-key and list-keys list and change the same bindings, and keys typed on a \
             client run them as tmux runs them; bindings to the commands below do nothing.",
            "With the mouse option on, the wheel, presses, releases, drags and double and \
             triple clicks are tmux's mouse keys (WheelUpPane, MouseDrag1Pane, \
             DoubleClick1Pane, MouseDown1Status over a window's name in the status line, \
             ...) with tmux's default bindings.",
            "Status-line messages (display-message, errors of the commands key bindings run) \
             show as tmux shows them, but the pane under them keeps drawing (tmux freezes a \
             client's screen while a message shows). show-messages prints the message log, \
             without tmux's job and terminal summaries (-J, -T).",
            "The command prompt (command-prompt, `C-b :`, `C-b ,`) edits as tmux's with the \
             emacs or vi keys of status-keys and keeps tmux's history, but Tab completes only \
             what the matches have in common (tmux offers a menu of several, or of windows).",
            "Every tmux command parses as tmux's, but these fail with `zeropty: REASON; COMMAND \
             is not supported`: the interactive modes and menus (\
             choose-client, customize-mode, find-window, \
             display-menu, display-popup, display-panes), \
             lock-client, lock-server, lock-session, suspend-client, server-access, and \
             link-window (a window is in one session at a time, so unlink-window removes one \
             only with -k). Their targets are found first, as tmux finds them: with no client \
             attached, those acting on a client fail with tmux's `no current client`, and \
             lock-server and lock-session have nothing to lock and succeed.",
            "Configuration errors are printed to the first client that runs a command (tmux \
             keeps them for the first client to attach and shows them in its pane).",
            "`default-backend` and `new-session -T` are zeropty's own.",
            "As in tmux, `run-shell` prints nothing on the client's output (its job's output is \
             not kept).",
            "Choose modes (`choose-buffer`) and the marked pane are not there.",
            "Programs see ZEROPTY and ZEROPTY_PANE, not TMUX and TMUX_PANE, and sockets live in \
             zeropty-UID, not tmux-UID, so zeropty and tmux run side by side.",
        ],
    ),
    ("SEE ALSO", &["`tmux`(1), `bash`(1), `zsh`(1), `socat`(1)"]),
];

/// Options zeropty acts on, with what it does with them.
const ACTED_ON: &[(&str, &str)] = &[
    (
        "automatic-rename",
        "Used: window names follow the running program while on.",
    ),
    (
        "automatic-rename-format",
        "Used: the format of automatic window names.",
    ),
    ("base-index", "Used: the first index given to new windows."),
    (
        "buffer-limit",
        "Used: how many automatically named paste buffers are kept.",
    ),
    (
        "default-backend",
        "Used: `socket` or `pty`, the terminal of new sessions' programs.",
    ),
    (
        "default-command",
        "Used: the command of new windows when none is given.",
    ),
    (
        "default-shell",
        "Used: the shell that starts windows' commands; only a usable shell is taken.",
    ),
    ("default-size", "Used: the size of new detached sessions."),
    (
        "default-terminal",
        "Used: TERM for the programs of sessions.",
    ),
    (
        "display-time",
        "Used: how long a status-line message shows, in milliseconds (0: until a key).",
    ),
    (
        "detach-on-destroy",
        "Used: what an attached client does when its session ends.",
    ),
    (
        "exit-empty",
        "Used: the server exits when its last session ends.",
    ),
    (
        "history-limit",
        "Used: lines of scrollback kept for new panes.",
    ),
    (
        "message-limit",
        "Used: how many entries the message log (show-messages) keeps.",
    ),
    ("message-style", "Used: the style of a status-line message."),
    (
        "mode-style",
        "Used: the style of the scrollback view's position indicator.",
    ),
    ("pane-base-index", "Used: the index of a window's pane."),
    ("prefix", "Used: the prefix key of attached clients."),
    ("prefix2", "Used: a second prefix key."),
    (
        "remain-on-exit",
        "Used: keep a pane whose program exited, as a dead pane.",
    ),
    (
        "remain-on-exit-format",
        "Used: the line written into a dead pane.",
    ),
    (
        "renumber-windows",
        "Used: renumber windows from base-index after one closes.",
    ),
    (
        "status",
        "Used: whether attached clients show the status line.",
    ),
    (
        "status-interval",
        "Used: how often the status line is redrawn.",
    ),
    ("status-left", "Used: the left part of the status line."),
    ("status-left-length", "Used: the longest left part."),
    ("status-right", "Used: the right part of the status line."),
    ("status-right-length", "Used: the longest right part."),
    ("status-style", "Used: the status line's colours."),
    (
        "update-environment",
        "Used: client variables copied into new sessions.",
    ),
    (
        "window-size",
        "Used: how windows follow the sizes of attached clients.",
    ),
    (
        "window-status-current-format",
        "Used: the current window in the status line.",
    ),
    (
        "window-status-format",
        "Used: other windows in the status line.",
    ),
    (
        "window-status-separator",
        "Used: between windows in the status line.",
    ),
    ("window-style", "Used: shown by `select-pane -g`."),
];

/// What each format variable holds.
const VARIABLE_DOCS: &[(&str, &str)] = &[
    (
        "active_window_index",
        "The index of the session's current window.",
    ),
    ("alternate_on", "1 if the pane shows its alternate screen."),
    (
        "alternate_saved_x",
        "The cursor's column when the alternate screen came on (4294967295 before any).",
    ),
    (
        "alternate_saved_y",
        "The cursor's row when the alternate screen came on (4294967295 before any).",
    ),
    (
        "buffer_mode_format",
        "tmux's format for choose-buffer's lines (a fixed text).",
    ),
    (
        "client_mode_format",
        "tmux's format for choose-client's lines (a fixed text).",
    ),
    ("command", "The name of the command whose format this is."),
    (
        "config_files",
        "The configuration files the server started with, as named, separated by commas.",
    ),
    (
        "copy_cursor_x",
        "In copy mode, the column of its cursor (empty when no client shows the pane in a mode).",
    ),
    ("copy_cursor_y", "In copy mode, the row of its cursor."),
    ("cursor_character", "The character under the cursor."),
    ("cursor_flag", "1 if the cursor is visible."),
    ("cursor_x", "The cursor's column, from 0."),
    ("cursor_y", "The cursor's row, from 0."),
    (
        "history_bytes",
        "Bytes tmux would hold for the pane's lines: 5 a cell written and 32 a line.",
    ),
    ("history_limit", "The most lines the pane's history keeps."),
    ("history_size", "The lines in the pane's history now."),
    ("host", "The host name."),
    ("host_short", "The host name up to its first dot."),
    ("insert_flag", "1 if the pane is in insert mode."),
    (
        "keypad_cursor_flag",
        "1 if the cursor keys are in application mode.",
    ),
    ("keypad_flag", "1 if the keypad is in application mode."),
    (
        "last_window_index",
        "The highest window index in the session.",
    ),
    (
        "mouse_all_flag",
        "1 if the program asked for every mouse motion.",
    ),
    (
        "mouse_any_flag",
        "1 if the program asked for any mouse reporting.",
    ),
    (
        "mouse_button_flag",
        "1 if the program asked for motion with a button down.",
    ),
    ("mouse_sgr_flag", "1 if mouse reports are in the SGR form."),
    (
        "mouse_standard_flag",
        "1 if the program asked for presses and releases.",
    ),
    (
        "mouse_utf8_flag",
        "1 if mouse reports are in the UTF-8 form.",
    ),
    ("next_session_id", "The id the next session will have, $N."),
    ("origin_flag", "1 if origin mode is on."),
    (
        "pane_active",
        "1: a window's only pane is always its active one.",
    ),
    (
        "pane_at_bottom",
        "1 if the pane is at the window's bottom: always.",
    ),
    (
        "pane_at_left",
        "1 if the pane is at the window's left: always.",
    ),
    (
        "pane_at_right",
        "1 if the pane is at the window's right: always.",
    ),
    (
        "pane_at_top",
        "1 if the pane is at the window's top: always.",
    ),
    ("pane_bg", "The pane's default background colour: default."),
    ("pane_bottom", "The pane's last row in the window."),
    (
        "pane_current_command",
        "The name of the pane's foreground program.",
    ),
    (
        "pane_current_path",
        "The working directory of the pane's foreground program.",
    ),
    (
        "pane_dead",
        "1 if the pane's program has exited (see remain-on-exit).",
    ),
    (
        "pane_dead_status",
        "The exit status of a dead pane's program.",
    ),
    ("pane_fg", "The pane's default foreground colour: default."),
    ("pane_format", "1 if the format describes a pane."),
    ("pane_height", "The pane's rows."),
    ("pane_id", "The pane's id, %N."),
    (
        "pane_in_mode",
        "1 if a client shows the pane in the scrollback view (copy-mode).",
    ),
    ("pane_index", "The pane's index (pane-base-index)."),
    (
        "pane_input_off",
        "1 if the pane's input is off (select-pane -d).",
    ),
    (
        "pane_last",
        "1 if the pane is the window's last active pane: never (one pane a window).",
    ),
    ("pane_left", "The pane's first column in the window: 0."),
    ("pane_marked", "1 if the pane is marked: never."),
    ("pane_marked_set", "1 if any pane is marked: never."),
    ("pane_path", "The path the program set (OSC 7): empty."),
    ("pane_pid", "The process id of the pane's program."),
    ("pane_pipe", "1 if the pane's output goes to pipe-pane."),
    ("pane_right", "The pane's last column in the window."),
    ("pane_search_string", "The text of the pane's last search in copy mode."),
    (
        "pane_start_command",
        "The command the pane was started with.",
    ),
    ("pane_start_path", "The directory the pane was started in."),
    (
        "pane_synchronized",
        "1 if the window's panes take the same input: never.",
    ),
    ("pane_tabs", "The pane's tab stops, as columns."),
    ("pane_title", "The pane's title, as the program set it."),
    ("pane_top", "The pane's first row in the window: 0."),
    (
        "pane_tty",
        "The pane's pseudo-terminal device on the PTY backend; empty on the socket backend.",
    ),
    ("pane_width", "The pane's columns."),
    ("pid", "The server's process id."),
    (
        "scroll_position",
        "In copy mode, how many lines above the bottom of the history the view is.",
    ),
    (
        "scroll_region_lower",
        "The last row of the pane's scroll region, from 0.",
    ),
    (
        "scroll_region_upper",
        "The first row of the pane's scroll region, from 0.",
    ),
    (
        "selection_active",
        "In copy mode, 1 while the selection's end follows the cursor.",
    ),
    ("selection_present", "In copy mode, 1 when there is a selection."),
    (
        "session_activity",
        "When the session was last active, in seconds since the epoch.",
    ),
    ("session_alerts", "The session's windows with alerts: none."),
    (
        "session_attached",
        "How many clients are attached to the session.",
    ),
    (
        "session_created",
        "When the session was created, in seconds since the epoch.",
    ),
    ("session_format", "1 if the format describes a session."),
    ("session_grouped", "1 if the session is in a group: never."),
    ("session_id", "The session's id, $N."),
    (
        "session_last_attached",
        "When a client last attached or switched to the session, in seconds since the epoch (empty before).",
    ),
    (
        "session_many_attached",
        "1 if more than one client is attached to the session.",
    ),
    (
        "session_marked",
        "1 if the session holds the marked pane: never.",
    ),
    ("session_name", "The session's name."),
    ("session_path", "The session's working directory."),
    (
        "session_stack",
        "The session's windows, current first, then the ones last current.",
    ),
    ("session_windows", "How many windows the session has."),
    ("socket_path", "The server's socket."),
    (
        "start_time",
        "When the server started, in seconds since the epoch.",
    ),
    (
        "tree_mode_format",
        "tmux's format for choose-tree's lines (a fixed text).",
    ),
    ("uid", "The id of the user the server runs as."),
    ("user", "The name of the user the server runs as."),
    ("version", "zeropty's version."),
    (
        "window_active",
        "1 if the window is its session's current window.",
    ),
    (
        "window_active_clients",
        "How many attached clients show the window.",
    ),
    (
        "window_active_sessions",
        "How many sessions have the window as their current one.",
    ),
    (
        "window_active_sessions_list",
        "The sessions that have the window as their current one.",
    ),
    (
        "window_activity",
        "When the window last had output, in seconds since the epoch.",
    ),
    (
        "window_activity_flag",
        "1 if the window has an activity alert: never.",
    ),
    (
        "window_bell_flag",
        "1 if the window has a bell alert: never.",
    ),
    (
        "window_cell_height",
        "A cell's height in pixels as tmux assumes it: 32.",
    ),
    (
        "window_cell_width",
        "A cell's width in pixels as tmux assumes it: 16.",
    ),
    (
        "window_end_flag",
        "1 if the window has the session's highest index.",
    ),
    ("window_flags", "The window's flags: * current, - last."),
    ("window_format", "1 if the format describes a window."),
    ("window_height", "The window's rows."),
    ("window_id", "The window's id, @N."),
    ("window_index", "The window's index in its session."),
    (
        "window_last_flag",
        "1 if the window is the session's last current one.",
    ),
    ("window_layout", "The window's layout, as tmux writes it."),
    (
        "window_linked",
        "1 if the window is in more than one session: never.",
    ),
    (
        "window_linked_sessions",
        "How many sessions hold the window: 1.",
    ),
    (
        "window_linked_sessions_list",
        "The sessions that hold the window.",
    ),
    (
        "window_marked_flag",
        "1 if the window holds the marked pane: never.",
    ),
    ("window_name", "The window's name."),
    ("window_panes", "How many panes the window has: 1."),
    ("window_raw_flags", "The window's flags, as window_flags."),
    (
        "window_silence_flag",
        "1 if the window has a silence alert: never.",
    ),
    (
        "window_stack_index",
        "The window's place among the session's last current windows, from 1 (0: not among them).",
    ),
    (
        "window_start_flag",
        "1 if the window has the session's lowest index.",
    ),
    (
        "window_visible_layout",
        "The window's layout, as window_layout.",
    ),
    ("window_width", "The window's columns."),
    ("window_zoomed_flag", "1 if the window is zoomed: never."),
    ("wrap_flag", "1 if the pane wraps text at the right margin."),
];

/// The common meaning of `-F` on commands that print one line per object.
const FORMAT_FLAG: &str = "Print each entry with this format instead of the default one.";
const FILTER_FLAG: &str = "Only list the entries for which this format is true.";
/// What each flag of a tmux command zeropty does not have does.
const NOT_HERE: &str = "Parsed as tmux parses it; the command fails all the same.";

const ONE_PANE: &str = "Accepted as tmux accepts it; the command fails anyway.";

/// join-pane and move-pane take the same flags, each of which only tmux's layouts use.
const JOIN_PANE_FLAGS: &[(char, &str)] = &[
    ('b', ONE_PANE),
    ('d', ONE_PANE),
    ('f', ONE_PANE),
    ('h', ONE_PANE),
    ('l', ONE_PANE),
    ('p', ONE_PANE),
    (
        's',
        "The pane to move (default: the current one); it must not be the target.",
    ),
    ('t', "The pane to put it beside."),
    ('v', ONE_PANE),
];

/// What each command does and what its flags mean.
const COMMAND_DOCS: &[CommandDoc] = &[
    CommandDoc {
        name: "attach-session",
        about: "Attach the terminal the program runs in to a session, which then shows on it and \
                takes its keys until the client detaches (`C-b d`) or the session ends. Without \
                a terminal it fails as tmux does (`not a terminal`). Inside one of the server's \
                panes it is refused (`sessions should be nested with care, unset $ZEROPTY to \
                force`).",
        flags: &[
            ('c', "Also set the session's working directory."),
            ('d', "Detach the other clients attached to the session."),
            (
                'E',
                "Do not copy variables from the client's environment (update-environment).",
            ),
            (
                'f',
                "Client flags: read-only and ignore-size, and for a control client \
                 no-output, wait-exit and pause-after[=SECONDS] (a ! prefix clears one); \
                 tmux's others are accepted.",
            ),
            (
                'r',
                "Read-only: the client's keys do not reach the session.",
            ),
            ('t', "The session to attach to."),
            (
                'x',
                "Like -d, and send SIGHUP to the parent process of the other clients.",
            ),
        ],
    },
    CommandDoc {
        name: "bind-key",
        about: "Bind a key in a key table to commands: one argument is command text, more are \
                a command line (split at `;`); with the key alone only the note changes. A \
                key typed on an attached client is looked up in the client's table (`root`, \
                or `prefix` after the prefix key) and runs its commands as that client. The \
                server starts with tmux's default tables; bindings to commands zeropty does not \
                have (the interactive modes and menus) are kept and listed, and do nothing.",
        flags: &[
            ('n', "Bind in the root table (no prefix), as -T root."),
            ('N', "A note, shown by list-keys -N."),
            (
                'r',
                "The key repeats: after it, the client stays in the table for repeat-time \
                 milliseconds, so the key runs again without the prefix.",
            ),
            (
                'T',
                "The key table (default prefix); it is made if missing.",
            ),
        ],
    },
    CommandDoc {
        name: "break-pane",
        about: "Move a pane into a window of its own. Its window holds only it, so, as tmux does \
                for such a pane, the window itself moves as with move-window: to the target \
                index, or the first free one from base-index in the target session, made current \
                there. Nothing is renumbered; a session whose last window moves away ends.",
        flags: &[
            (
                'a',
                "Put the window at the index after the target window, moving later windows up.",
            ),
            ('b', "Put the window at the index before the target window."),
            ('d', "Do not make the window current."),
            ('F', "Accepted: tmux prints nothing for a pane alone in its window."),
            ('n', "Name the window (automatic-rename off)."),
            ('P', "Accepted: tmux prints nothing for a pane alone in its window."),
            ('s', "The pane (default: the current one)."),
            ('t', "Where the window goes: a session, or a session and an index."),
        ],
    },
    CommandDoc {
        name: "capture-pane",
        about: "Copy the contents of a pane, its visible screen by default, into a paste \
                buffer, or print them with -p. The text is byte for byte what tmux 3.3a \
                captures.",
        flags: &[
            (
                'a',
                "Capture the alternate screen (fails if the pane has none showing).",
            ),
            (
                'b',
                "The buffer to write instead of a new automatically named one.",
            ),
            ('C', "Escape non-printable characters as octal \\nnn."),
            (
                'e',
                "Include the escape sequences for colours and attributes.",
            ),
            (
                'E',
                "The last line to capture: a number (0 is the first visible line, negative \
                   numbers are history) or - for the end of the screen.",
            ),
            ('J', "Join wrapped lines and keep trailing spaces."),
            ('N', "Keep trailing spaces at the ends of lines."),
            ('p', "Print to standard output instead of writing a buffer."),
            (
                'P',
                "Capture only what the program wrote that is not yet a complete escape \
                   sequence.",
            ),
            ('q', "Be quiet about errors."),
            (
                'S',
                "The first line to capture, as for -E; - is the start of the history.",
            ),
            ('t', "The pane to capture."),
        ],
    },
    CommandDoc {
        name: "choose-buffer",
        about: "In tmux, shows the paste buffers in a pane to choose one from. zeropty has no \
                choose mode: with no buffers it does nothing, otherwise it fails with \
                `buffer mode is not supported`.",
        flags: &[
            ('F', "The format of each buffer's line."),
            ('f', "A filter format."),
            ('K', "The format of the key of each line."),
            ('N', "Start without the preview."),
            ('O', "The sort order: time, name or size."),
            ('r', "Reverse the sort order."),
            ('t', "The pane to show the choice in."),
            ('Z', "Zoom the pane."),
        ],
    },
    CommandDoc {
        name: "choose-client",
        about: "In tmux, a mode to choose a client from a list. zeropty does not have it: it parses \
                as tmux's and fails with `zeropty: no interactive modes or menus; \
                choose-client is not supported`.",
        flags: &[('F', NOT_HERE), ('f', NOT_HERE), ('K', NOT_HERE), ('N', NOT_HERE), ('O', NOT_HERE), ('r', NOT_HERE), ('t', NOT_HERE), ('Z', NOT_HERE)],
    },
    CommandDoc {
        name: "choose-tree",
        about: "Tree mode (`C-b s`, `C-b w`): the sessions and their windows as a tree to \
                choose from, in place of the target pane on the clients showing it, with a \
                preview of the current item below (a session's windows side by side, a \
                window's pane), drawn as tmux 3.3a draws it. Keys: Up, Down, PageUp, \
                PageDown, g, G move; Left and Right (or - and +) collapse and expand; t, T \
                and C-t tag; O and r change the order; v shows or hides the preview; H goes \
                back to the current window; / and n search the names; f asks for a filter and \
                : for a command run for the tagged or current items; 0 to 9 and M-a to M-z \
                choose their line; Enter \
                runs the template for the current item; x and X ask before killing the \
                current or the tagged items; q or Escape leave. The template (default \
                `switch-client -Zt '%%'`) gets `=SESSION:` for a session, `=SESSION:INDEX.` \
                for a window in place of `%%`.",
        flags: &[
            ('F', "The format of each line (tmux's tree-mode format by default)."),
            ('f', "Only the windows for which this format is true (all, and `no matches`, when none is)."),
            ('G', "Accepted as tmux's: sessions are never grouped."),
            ('K', "Parsed as tmux parses it; the line keys are always tmux's default ones."),
            ('N', "No preview."),
            ('O', "Sort by index, name or time."),
            ('r', "Reverse the order."),
            ('s', "Start with the sessions collapsed."),
            ('t', "The pane the mode shows in place of."),
            ('w', "Start with the windows shown, collapsed."),
            ('Z', "Accepted as tmux's: a window has one pane, so there is nothing to zoom."),
        ],
    },
    CommandDoc {
        name: "clear-history",
        about: "Remove the lines that scrolled off the top of a pane (its history).",
        flags: &[('t', "The pane whose history to clear.")],
    },
    CommandDoc {
        name: "clear-prompt-history",
        about: "Clear the prompts' history: every type's, or one.",
        flags: &[(
            'T',
            "Only this type: command, search, target or window-target.",
        )],
    },
    CommandDoc {
        name: "clock-mode",
        about: "Clock mode (`C-b t`): the time in large digits in place of the target pane, \
                on every client showing it, in `clock-mode-colour` and `clock-mode-style`, until \
                a key no table binds is typed, as tmux 3.3a draws it.",
        flags: &[('t', "The pane to show the clock over.")],
    },
    CommandDoc {
        name: "command-prompt",
        about: "Ask on a client's status line for a command (`C-b :`) or for the answers a \
                template takes. Each prompt asks in turn; its answer goes into the template \
                (`%1` by default) as `%1`, `%2`, ... or the next `%%` (`%%%` escapes it for \
                double quotes), and the template runs as that client. Keys edit as tmux's \
                (status-keys emacs or vi): Enter answers, Escape, C-c or C-g cancel, Up and \
                Down go through the history of the prompt's type, Tab completes a command, \
                option, layout or session name. A script's request waits until the prompt \
                ends and then runs what the answers make (a key binding's does not wait). \
                Nothing happens while the client shows a prompt.",
        flags: &[
            ('1', "Answer with one key."),
            ('b', "Do not wait for the answer."),
            ('F', "Expand the template as a format first."),
            ('k', "Answer with the name of the next key."),
            ('i', "Run the template as the answer changes, with `=`, `-` (C-r) or `+` (C-s) \
                   before it; Enter ends it and runs nothing."),
            ('I', "The prompts' initial inputs, comma-separated, expanded as formats."),
            ('N', "Digits only: the first other key answers and goes on as a key."),
            ('p', "The prompts, comma-separated, expanded as formats (a space is added); \
                   without, `:` or `(NAME)` after the template's first word."),
            ('t', "The client to ask."),
            ('T', "The prompt's type (command, search, target, window-target), which chooses \
                   its history and completions."),
        ],
    },
    CommandDoc {
        name: "confirm-before",
        about: "Ask on a client's status line before running a command: `Confirm 'NAME'? \
                (y/n)` in message-style, the answer's place in reverse video. `y` (or `Y`) runs \
                the command as that client; any other character, Enter, Escape, C-c or C-g \
                declines; other keys leave the question asked. The request waits for the \
                answer and exits 0 when it confirms, 1 when it declines or the client leaves \
                (a key binding's does not wait). A new question replaces one still asked, \
                which is declined.",
        flags: &[
            ('b', "Do not wait for the answer."),
            ('p', "The question, expanded as a format (a space is added)."),
            ('t', "The client to ask."),
        ],
    },
    CommandDoc {
        name: "copy-mode",
        about: "Open the scrollback view on a pane for the client that ran the command, or \
                for every client showing the pane when run from elsewhere (zeropty's view \
                belongs to clients, not to the pane, and moves without a copy cursor). While a \
                client shows it, #{pane_in_mode} is 1 and #{pane_mode} is copy-mode, and \
                send-keys -X moves it.",
        flags: &[
            ('e', "Accepted; the view is closed with q, Escape or C-c."),
            ('H', "Accepted; changes nothing."),
            ('M', "Accepted; changes nothing (no mouse event)."),
            ('q', "Close the view instead."),
            ('s', "A source pane, found as tmux finds it; the view still shows the target's history."),
            ('t', "The pane."),
            ('u', "Scroll up a page."),
        ],
    },
    CommandDoc {
        name: "customize-mode",
        about: "In tmux, a mode to browse and change options and key bindings. zeropty does not have \
                it: it parses as tmux's and fails with `zeropty: no interactive modes or \
                menus; customize-mode is not supported`.",
        flags: &[('F', NOT_HERE), ('f', NOT_HERE), ('N', NOT_HERE), ('t', NOT_HERE), ('Z', NOT_HERE)],
    },
    CommandDoc {
        name: "delete-buffer",
        about: "Delete a paste buffer, by default the most recent one.",
        flags: &[('b', "The buffer to delete.")],
    },
    CommandDoc {
        name: "detach-client",
        about: "Detach a client from its session; the client prints \
                `[detached (from session NAME)]` and exits.",
        flags: &[
            ('a', "Detach every client except the target one."),
            (
                'E',
                "Run this shell command in the client's place instead of exiting (accepted; \
                   the client exits).",
            ),
            (
                'P',
                "Also send SIGHUP to the client's parent process, closing the shell it ran \
                   in.",
            ),
            ('s', "Detach every client attached to this session."),
            ('t', "The client to detach."),
        ],
    },
    CommandDoc {
        name: "display-menu",
        about: "In tmux, shows a menu on a client. zeropty does not have it: it parses as tmux's and \
                fails with `zeropty: no interactive modes or menus; display-menu is not \
                supported`.",
        flags: &[('c', NOT_HERE), ('t', NOT_HERE), ('O', NOT_HERE), ('T', NOT_HERE), ('x', NOT_HERE), ('y', NOT_HERE)],
    },
    CommandDoc {
        name: "display-message",
        about: "Expand a message as a format for a target and show it; with -p print it, as \
                scripts use it to read a value (`display-message -p '#{pane_pid}'`). Without -p, \
                the message shows in place of the status line (on the last row when it is off) \
                of a client: -c's, else the current one; with none attached nothing shows. It \
                is drawn in message-style with its `#[style]` directives, the cursor hidden, \
                for display-time milliseconds or until a key is pressed, and it goes into the \
                message log (show-messages). An error of a command a key binding runs shows \
                the same way. Run from a configuration file while the server starts, with no \
                client, the message is reported as a configuration error, as tmux reports it.",
        flags: &[
            ('a', "List every format variable with its value."),
            (
                'c',
                "The client whose status line shows the message; one not found is ignored.",
            ),
            (
                'd',
                "How long the message shows, in milliseconds (0: until a key is pressed); \
                 the session's display-time by default.",
            ),
            (
                'F',
                "The format to expand (instead of the message argument).",
            ),
            (
                'I',
                "Send standard input into an empty pane (one tmux starts with no program). \
                 zeropty makes none, so with a pane it fails with tmux's `pane is not empty`.",
            ),
            (
                'N',
                "Keys pressed while the message shows (with a delay) go nowhere instead of \
                 dismissing it.",
            ),
            ('p', "Print the message to standard output."),
            ('t', "The pane whose variables the format sees."),
            ('v', "Print how the format was expanded, step by step."),
        ],
    },
    CommandDoc {
        name: "display-panes",
        about: "In tmux, shows each pane's number on a client. zeropty does not have it: it parses \
                as tmux's and fails with `zeropty: no interactive modes or menus; \
                display-panes is not supported`.",
        flags: &[('b', NOT_HERE), ('d', NOT_HERE), ('N', NOT_HERE), ('t', NOT_HERE)],
    },
    CommandDoc {
        name: "display-popup",
        about: "In tmux, shows a popup running a command on a client. zeropty does not have it: it \
                parses as tmux's and fails with `zeropty: no interactive modes or menus; \
                display-popup is not supported`.",
        flags: &[('B', NOT_HERE), ('b', NOT_HERE), ('C', NOT_HERE), ('c', NOT_HERE), ('d', NOT_HERE), ('e', NOT_HERE), ('E', NOT_HERE), ('h', NOT_HERE), ('s', NOT_HERE), ('S', NOT_HERE), ('t', NOT_HERE), ('T', NOT_HERE), ('w', NOT_HERE), ('x', NOT_HERE), ('y', NOT_HERE)],
    },
    CommandDoc {
        name: "find-window",
        about: "In tmux, a mode listing the windows that match a string. zeropty does not have it: \
                it parses as tmux's and fails with `zeropty: no interactive modes or menus; \
                find-window is not supported`.",
        flags: &[('C', NOT_HERE), ('i', NOT_HERE), ('N', NOT_HERE), ('r', NOT_HERE), ('t', NOT_HERE), ('T', NOT_HERE), ('Z', NOT_HERE)],
    },
    CommandDoc {
        name: "has-session",
        about: "Succeed if the session exists; fail with `can't find session: NAME` (and exit \
                status 1) otherwise.",
        flags: &[('t', "The session to look for.")],
    },
    CommandDoc {
        name: "if-shell",
        about: "Run a shell command and then the first zeropty command if it succeeded, or the \
                second (if given) if it failed. The server serves everyone while the job runs; \
                the client is answered once the chosen commands have run.",
        flags: &[
            (
                'b',
                "Answer at once; the chosen commands run when the job ends, with no client \
                 (their output goes nowhere).",
            ),
            (
                'F',
                "Treat the first argument as a format, true unless empty or 0, instead of \
                   running it.",
            ),
            (
                't',
                "The pane that formats and the commands see as current.",
            ),
        ],
    },
    CommandDoc {
        name: "join-pane",
        about: "In tmux, moves a pane into another window beside its pane. A window holds one \
                pane here, so once both panes are found (and found to differ, else tmux's \
                `source and target panes must be different`) the command fails.",
        flags: JOIN_PANE_FLAGS,
    },
    CommandDoc {
        name: "kill-pane",
        about: "Kill a pane: its program is hung up, and since the window holds only this pane, \
                the window closes with it (and the session, if it was the last window).",
        flags: &[
            (
                'a',
                "Kill every other pane of the window; there are none, so nothing happens.",
            ),
            ('t', "The pane to kill."),
        ],
    },
    CommandDoc {
        name: "kill-server",
        about: "Kill every session, detach every client and stop the server.",
        flags: &[],
    },
    CommandDoc {
        name: "kill-session",
        about: "Kill a session and the programs of all its windows.",
        flags: &[
            ('a', "Kill every session except the target one."),
            ('C', "Only clear the alert flags of the session's windows."),
            ('t', "The session to kill."),
        ],
    },
    CommandDoc {
        name: "kill-window",
        about: "Kill a window and its program; a session left without windows ends.",
        flags: &[
            ('a', "Kill every other window of the session instead."),
            ('t', "The window to kill."),
        ],
    },
    CommandDoc {
        name: "last-pane",
        about: "In tmux, selects the previously active pane of a window. A window has one pane \
                here, so there is no last pane and the command fails as tmux does then.",
        flags: &[
            ('d', "Disable input to the pane."),
            ('e', "Enable input to the pane."),
            ('t', "The window."),
            ('Z', "Keep the window zoomed."),
        ],
    },
    CommandDoc {
        name: "last-window",
        about: "Make the previously current window of a session current again.",
        flags: &[('t', "The session.")],
    },
    CommandDoc {
        name: "link-window",
        about: "In tmux, links a window into a second session. zeropty does not have it: it parses \
                as tmux's and fails with `zeropty: a window is in one session at a time; link-window \
                is not supported`.",
        flags: &[('a', NOT_HERE), ('b', NOT_HERE), ('d', NOT_HERE), ('k', NOT_HERE), ('s', NOT_HERE), ('t', NOT_HERE)],
    },
    CommandDoc {
        name: "list-buffers",
        about: "List the paste buffers, most recent first.",
        flags: &[('F', FORMAT_FLAG), ('f', FILTER_FLAG)],
    },
    CommandDoc {
        name: "list-clients",
        about: "List the attached clients.",
        flags: &[
            ('F', FORMAT_FLAG),
            ('t', "Only the clients attached to this session."),
        ],
    },
    CommandDoc {
        name: "list-commands",
        about: "List every command with its alias and usage, or only the one named.",
        flags: &[('F', FORMAT_FLAG)],
    },
    CommandDoc {
        name: "list-keys",
        about: "List key bindings as bind-key commands, aligned as tmux aligns them, tables \
                by name and keys in tmux's order; with a key, that key's bindings only (an \
                error if it has none).",
        flags: &[
            ('1', "With -N, only the first key of each table."),
            (
                'a',
                "With -N, keys without a note too, with their commands instead.",
            ),
            (
                'N',
                "Each key with its note: without -T, the root table's, then the prefix \
                 table's behind the prefix key.",
            ),
            (
                'P',
                "With -N, the text before each key instead of the prefix key's name.",
            ),
            ('T', "Only this key table."),
        ],
    },
    CommandDoc {
        name: "list-panes",
        about: "List the panes of a window: one per window.",
        flags: &[
            ('a', "List the panes of every session."),
            ('F', FORMAT_FLAG),
            ('f', FILTER_FLAG),
            ('s', "List the panes of every window of the target session."),
            ('t', "The window (or, with -s, the session)."),
        ],
    },
    CommandDoc {
        name: "list-sessions",
        about: "List the sessions.",
        flags: &[('F', FORMAT_FLAG), ('f', FILTER_FLAG)],
    },
    CommandDoc {
        name: "list-windows",
        about: "List the windows of a session.",
        flags: &[
            ('a', "List the windows of every session."),
            ('F', FORMAT_FLAG),
            ('f', FILTER_FLAG),
            ('t', "The session."),
        ],
    },
    CommandDoc {
        name: "load-buffer",
        about: "Read a file into a paste buffer. A relative path starts at the client's \
                working directory; - reads the client's standard input to its end (the \
                program sends it with the request; empty input sets no buffer).",
        flags: &[
            (
                'b',
                "The buffer to write instead of a new automatically named one.",
            ),
            (
                't',
                "The client whose clipboard would also be set (with -w).",
            ),
            ('w', "Also send the buffer to the client's clipboard."),
        ],
    },
    CommandDoc {
        name: "lock-client",
        about: "In tmux, locks a client with lock-command. zeropty does not have it: it parses as \
                tmux's and fails with `zeropty: clients are never locked or suspended; lock-client \
                is not supported`.",
        flags: &[('t', NOT_HERE)],
    },
    CommandDoc {
        name: "lock-server",
        about: "In tmux, locks every client. zeropty does not lock clients: with none attached \
                there is nothing to lock and it succeeds, as tmux's; otherwise it fails with \
                `zeropty: clients are never locked or suspended; lock-server is not supported`.",
        flags: &[],
    },
    CommandDoc {
        name: "lock-session",
        about: "In tmux, locks the clients of a session. zeropty does not lock clients: with none \
                attached to the session there is nothing to lock and it succeeds, as tmux's; \
                otherwise it fails with `zeropty: clients are never locked or suspended; \
                lock-session is not supported`.",
        flags: &[('t', "The session.")],
    },
    CommandDoc {
        name: "move-pane",
        about: "Like join-pane: moves a pane beside another in tmux, and fails here once its \
                panes are found, as a window holds one pane.",
        flags: JOIN_PANE_FLAGS,
    },
    CommandDoc {
        name: "move-window",
        about: "Move a window to another index of its session or into another session (at the \
                first free index from base-index when the target names no index), and make it \
                current there. A session whose last window moves away ends. With \
                renumber-windows on, the source session is renumbered unless -s is given.",
        flags: &[
            (
                'a',
                "Put the window at the index after the target window, moving later windows up.",
            ),
            ('b', "Put the window at the index before the target window."),
            (
                'd',
                "Do not make the window current (a moved current window hands over to the last \
                 window, as when it is killed).",
            ),
            (
                'k',
                "If the target index is in use, kill that window first.",
            ),
            (
                'r',
                "Renumber the windows of the -t session from base-index instead; nothing moves.",
            ),
            ('s', "The window to move."),
            ('t', "Where to: a session, or a session and an index."),
        ],
    },
    CommandDoc {
        name: "new-session",
        about: "Create a session with one window running the shell command (or the \
                default-command option, or the shell) and attach the terminal to it, unless -d \
                is given. The session is named by -s, or gets the next free number.",
        flags: &[
            (
                'A',
                "If the session already exists, attach to it (as attach-session) instead of \
                   failing.",
            ),
            ('c', "The working directory of the session's programs."),
            ('D', "With -A, detach the session's other clients."),
            ('d', "Do not attach: create the session in the background."),
            (
                'E',
                "Do not copy variables from the client's environment (update-environment).",
            ),
            (
                'e',
                "Set a variable, NAME=VALUE, in the session's environment; may be repeated.",
            ),
            ('F', "The format of what -P prints."),
            ('f', "Client flags for the attaching client; accepted."),
            ('n', "The name of the first window."),
            (
                'P',
                "Print information about the new session (by default NAME:).",
            ),
            ('s', "The session's name; : and . in it become _."),
            (
                'T',
                "The terminal the session's programs get: socket (a socket pair made a \
                   terminal by the preloaded library) or pty (a pseudo-terminal). Without it \
                   the default-backend option decides. zeropty's own flag.",
            ),
            (
                't',
                "In tmux, put the new session in the same group as this one. There are no \
                 session groups here: accepted and ignored.",
            ),
            (
                'X',
                "With -A, send SIGHUP to the parent processes of the detached clients.",
            ),
            (
                'x',
                "The session's width in columns, for a detached session (default from \
                   default-size).",
            ),
            ('y', "The session's height in rows."),
        ],
    },
    CommandDoc {
        name: "new-window",
        about: "Create a window running the shell command (or the default-command option, or \
                the shell) in a session, at the first free index from base-index, and make it \
                current.",
        flags: &[
            (
                'a',
                "Put the window at the index after the target window, moving later windows up.",
            ),
            ('b', "Put the window at the index before the target window."),
            ('c', "The working directory of the window's program."),
            ('d', "Do not make the new window current."),
            (
                'e',
                "Set a variable, NAME=VALUE, in the program's environment; may be repeated.",
            ),
            ('F', "The format of what -P prints."),
            (
                'k',
                "If the target index is in use, kill that window first.",
            ),
            ('n', "The window's name."),
            (
                'P',
                "Print information about the new window (by default SESSION:INDEX.).",
            ),
            (
                'S',
                "If a window with the -n name exists, select it instead of creating one.",
            ),
            (
                't',
                "Where to create the window: a session, or an index in one.",
            ),
        ],
    },
    CommandDoc {
        name: "next-layout",
        about: "Move to the next of tmux's preset layouts. A window holds one pane, which \
                every layout gives the whole window, so nothing changes.",
        flags: &[('t', "The window.")],
    },
    CommandDoc {
        name: "next-window",
        about: "Make the next window of a session (by index, wrapping around) current.",
        flags: &[
            (
                'a',
                "Move to the next window with an alert; windows here raise none.",
            ),
            ('t', "The session."),
        ],
    },
    CommandDoc {
        name: "paste-buffer",
        about: "Write a paste buffer's contents into a pane as if typed, turning line feeds \
                into carriage returns.",
        flags: &[
            ('b', "The buffer to paste, instead of the most recent."),
            ('d', "Delete the buffer after pasting."),
            (
                'p',
                "Wrap the text in bracketed paste sequences if the program asked for them.",
            ),
            ('r', "Keep line feeds as they are."),
            ('s', "The separator that replaces each line feed."),
            ('t', "The pane to paste into."),
        ],
    },
    CommandDoc {
        name: "pipe-pane",
        about: "Start a shell command connected to a pane: by default the pane's output is \
                written to the command's input. With no command, or when the pane already has \
                one, the current pipe is closed.",
        flags: &[
            ('I', "Write the command's output into the pane as if typed."),
            ('O', "Send the pane's output to the command (the default)."),
            (
                'o',
                "Only open a pipe if the pane has none, so the same command toggles it.",
            ),
            ('t', "The pane."),
        ],
    },
    CommandDoc {
        name: "previous-layout",
        about: "Move to the previous preset layout; as next-layout, nothing changes.",
        flags: &[('t', "The window.")],
    },
    CommandDoc {
        name: "previous-window",
        about: "Make the previous window of a session (by index, wrapping around) current.",
        flags: &[
            (
                'a',
                "Move to the previous window with an alert; windows here raise none.",
            ),
            ('t', "The session."),
        ],
    },
    CommandDoc {
        name: "refresh-client",
        about: "Draw a client again.",
        flags: &[
            (
                'A',
                "For control clients: `%ID:on` or `%ID:off` turns the `%output` of a pane \
                 on or off, `%ID:pause` and `%ID:continue` pause and continue it (others: \
                 `not a control client`).",
            ),
            (
                'B',
                "For control clients: a subscription, `NAME:WHAT:FORMAT` (WHAT: empty for \
                 the session, `%ID`, `%*`, `@ID` or `@*`), whose value the client is told as \
                 `%subscription-changed` when it changes; `NAME` alone removes it (others: \
                 `not a control client`).",
            ),
            (
                'c',
                "Stop panning (the whole window is always shown): draws again.",
            ),
            (
                'C',
                "For control clients: their size, `WIDTHxHEIGHT` or `WIDTH,HEIGHT`; from then \
                 on they size their session's windows as a terminal would (others: `not a \
                 control client`).",
            ),
            (
                'D',
                "Pan down: draws again (the whole window is always shown).",
            ),
            (
                'f',
                "Client flags to set: read-only, ignore-size, and for a control client no-output, \
                 wait-exit and pause-after[=SECONDS] (a ! prefix clears one).",
            ),
            ('F', "The same as -f."),
            ('l', "Accepted; the clipboard is not asked for."),
            ('L', "Pan left: draws again."),
            ('R', "Pan right: draws again."),
            ('S', "Draw the status line again."),
            ('t', "The client."),
            ('U', "Pan up: draws again."),
        ],
    },
    CommandDoc {
        name: "rename-session",
        about: "Give a session a new name.",
        flags: &[('t', "The session.")],
    },
    CommandDoc {
        name: "rename-window",
        about: "Give a window a new name, which also turns off its automatic-rename.",
        flags: &[('t', "The window.")],
    },
    CommandDoc {
        name: "resize-pane",
        about: "Resize a pane. As the pane fills its window, this resizes the window: the screen \
                is reflowed, the program is told its new size and its foreground process group \
                gets SIGWINCH.",
        flags: &[
            ('D', "Grow downwards by the adjustment (1 by default)."),
            ('L', "Grow to the left by the adjustment."),
            ('M', "Begin a resize with the mouse; accepted."),
            ('R', "Grow to the right by the adjustment."),
            (
                'T',
                "Trim the lines below the cursor that scrolled into history; accepted.",
            ),
            ('t', "The pane."),
            ('U', "Grow upwards by the adjustment."),
            ('x', "The width in columns, or a percentage of the window."),
            ('y', "The height in rows, or a percentage of the window."),
            (
                'Z',
                "Zoom or unzoom the pane; a lone pane has nothing to zoom over.",
            ),
        ],
    },
    CommandDoc {
        name: "resize-window",
        about: "Resize a window (and so its pane); the window-size option becomes manual, so \
                clients no longer change it.",
        flags: &[
            ('A', "Resize to the largest attached client's size."),
            ('a', "Resize to the smallest attached client's size."),
            ('D', "Grow downwards by the adjustment (1 by default)."),
            ('L', "Shrink by the adjustment in columns."),
            ('R', "Grow by the adjustment in columns."),
            ('t', "The window."),
            ('U', "Shrink by the adjustment in rows."),
            ('x', "The width in columns."),
            ('y', "The height in rows."),
        ],
    },
    CommandDoc {
        name: "respawn-pane",
        about: "Start a pane's program again, with the given command or the one it was started \
                with. Fails if the program still runs, unless -k is given.",
        flags: &[
            ('c', "The working directory of the new program."),
            (
                'e',
                "Set a variable, NAME=VALUE, in the program's environment; may be repeated.",
            ),
            ('k', "Kill the running program first."),
            ('t', "The pane."),
        ],
    },
    CommandDoc {
        name: "respawn-window",
        about: "Start the program of a window's pane again, as respawn-pane does (a window \
                holds one pane). Fails if the program still runs, unless -k is given.",
        flags: &[
            ('c', "The working directory of the new program."),
            (
                'e',
                "Set a variable, NAME=VALUE, in the program's environment; may be repeated.",
            ),
            ('k', "Kill the running program first."),
            ('t', "The window."),
        ],
    },
    CommandDoc {
        name: "rotate-window",
        about: "Rotate the panes of a window: with one pane, nothing moves.",
        flags: &[
            ('D', "Rotate downwards."),
            ('t', "The window."),
            ('U', "Rotate upwards."),
            ('Z', "Keep the window zoomed."),
        ],
    },
    CommandDoc {
        name: "run-shell",
        about: "Run a shell command (with /bin/sh) and answer when it ends; its exit status \
                becomes the client's. The server serves everyone meanwhile, the job's own \
                commands included. Its output is not printed, as in tmux when no pane shows it.",
        flags: &[
            ('b', "Start the job and answer at once, leaving it running."),
            (
                'C',
                "Run the argument as zeropty commands instead of a shell command.",
            ),
            (
                'd',
                "Wait this many seconds before running (the server does not wait).",
            ),
            ('t', "The pane whose variables formats in the command see."),
        ],
    },
    CommandDoc {
        name: "save-buffer",
        about: "Write a paste buffer to a file; - writes it to standard output. A relative path \
                starts at the client's working directory.",
        flags: &[
            ('a', "Append to the file instead of replacing it."),
            ('b', "The buffer, instead of the most recent."),
        ],
    },
    CommandDoc {
        name: "select-layout",
        about: "Arrange a window's panes. A preset (even-horizontal, even-vertical, \
                main-horizontal, main-vertical, tiled, or a prefix of exactly one) changes \
                nothing, as a window holds one pane. A layout string as #{window_layout} prints \
                it (of this window or another, of any number of panes) gives the window the size \
                tmux gives a window of one pane: that of the layout's first cell once every other \
                cell is closed, each giving its size to the cell before it. Anything else is an \
                invalid layout.",
        flags: &[
            ('E', "Spread the panes out evenly (nothing changes)."),
            ('n', "As next-layout."),
            (
                'o',
                "Go back to the size the window had when a layout command last ran.",
            ),
            ('p', "As previous-layout."),
            ('t', "The pane."),
        ],
    },
    CommandDoc {
        name: "select-pane",
        about: "Make a pane the active one of its window. With one pane per window there is \
                nothing else to select; the flags that change the pane itself work.",
        flags: &[
            ('D', "Select the pane below; there is none."),
            ('d', "Disable input to the pane."),
            ('e', "Enable input to the pane."),
            ('g', "Print the window-style option."),
            ('L', "Select the pane to the left; there is none."),
            ('l', "Select the last pane; there is none."),
            ('M', "Clear the marked pane; accepted."),
            ('m', "Mark the pane; accepted."),
            ('P', "Set the pane's style; accepted."),
            ('R', "Select the pane to the right; there is none."),
            ('T', "Set the pane's title."),
            ('t', "The pane."),
            ('U', "Select the pane above; there is none."),
            ('Z', "Keep the window zoomed."),
        ],
    },
    CommandDoc {
        name: "select-window",
        about: "Make a window its session's current window.",
        flags: &[
            ('l', "Select the last window instead, as last-window."),
            ('n', "Select the next window instead, as next-window."),
            (
                'p',
                "Select the previous window instead, as previous-window.",
            ),
            (
                'T',
                "If the window is current already, select the last window (a toggle).",
            ),
            ('t', "The window."),
        ],
    },
    CommandDoc {
        name: "send-keys",
        about: "Send keys to a pane as if typed. Each argument is a key name (Enter, C-c, \
                Escape, Up, F1, M-x...) or, if it names no key, text sent character by \
                character. Keys go through the pane's line discipline as on a terminal.",
        flags: &[
            ('F', "Expand each argument as a format first."),
            ('H', "Each argument is a key given as a hexadecimal byte."),
            (
                'l',
                "Send every argument as literal text, never as a key name.",
            ),
            (
                'M',
                "Send the mouse event the command was bound to; requests carry none.",
            ),
            ('N', "Send the keys this many times."),
            ('R', "Reset the pane's terminal state first."),
            ('t', "The pane."),
            (
                'X',
                "Send a copy-mode command to the scrollback views showing the pane: cancel, \
                 history-top, history-bottom, page-up, page-down, halfpage-up, halfpage-down, \
                 scroll-up, scroll-down, cursor-up and cursor-down move or close them (-N \
                 times), others do nothing; `not in a mode` when no client shows the pane in \
                 the view.",
            ),
        ],
    },
    CommandDoc {
        name: "send-prefix",
        about: "Send the session's prefix key (the prefix option) to a pane, as the pane's \
                modes encode it; nothing if the option is None.",
        flags: &[('2', "Send the prefix2 key instead."), ('t', "The pane.")],
    },
    CommandDoc {
        name: "server-access",
        about: "In tmux, lets other users connect to the server. zeropty does not have it: it parses \
                as tmux's and fails with `zeropty: only the server's own user may connect; \
                server-access is not supported`.",
        flags: &[('a', NOT_HERE), ('d', NOT_HERE), ('l', NOT_HERE), ('r', NOT_HERE), ('w', NOT_HERE)],
    },
    CommandDoc {
        name: "set-buffer",
        about: "Set a paste buffer's contents, creating it if needed.",
        flags: &[
            ('a', "Append to the buffer instead of replacing it."),
            ('b', "The buffer, instead of a new automatically named one."),
            ('n', "Rename the buffer to this name instead of setting it."),
            (
                't',
                "The client whose clipboard would also be set (with -w).",
            ),
            ('w', "Also send the buffer to the client's clipboard."),
        ],
    },
    CommandDoc {
        name: "set-environment",
        about: "Set a variable in a session's environment, or the global one, for programs \
                started from now on.",
        flags: &[
            ('F', "Expand the value as a format first."),
            ('g', "Set it in the global environment."),
            (
                'h',
                "Hide the variable: kept by the server, never given to programs.",
            ),
            (
                'r',
                "Clear the variable, so that it is removed from programs' environments.",
            ),
            ('t', "The session."),
            ('u', "Unset the variable."),
        ],
    },
    CommandDoc {
        name: "set-hook",
        about: "Set or unset a hook: a command run after an event or after another command \
                (see `OPTIONS`).",
        flags: &[
            ('a', "Append the command to the hook's array."),
            ('g', "Set the global hook."),
            ('p', "Set the pane's hook."),
            ('R', "Run the hook now."),
            ('t', "The target whose hook is set."),
            ('u', "Unset the hook."),
            ('w', "Set the window's hook."),
        ],
    },
    CommandDoc {
        name: "set-option",
        about: "Set an option. Where it is set follows the option's scope: the server, the \
                target session, window or pane, or with -g the global value.",
        flags: &[
            (
                'a',
                "Append the value to the current one (arrays: add an item).",
            ),
            ('F', "Expand the value as a format first."),
            ('g', "Set the global value."),
            ('o', "Do not change an option that is already set locally."),
            ('p', "A pane option."),
            ('q', "Be quiet about unknown or ambiguous options."),
            ('s', "A server option."),
            ('t', "The target."),
            ('U', "Unset the option on the window and on its panes."),
            ('u', "Unset the option, so the global value applies again."),
            ('w', "A window option."),
        ],
    },
    CommandDoc {
        name: "set-window-option",
        about: "Set a window option, as set-option -w.",
        flags: &[
            ('a', "Append the value to the current one."),
            ('F', "Expand the value as a format first."),
            ('g', "Set the global value."),
            ('o', "Do not change an option that is already set."),
            ('q', "Be quiet about unknown or ambiguous options."),
            ('t', "The window."),
            ('u', "Unset the option."),
        ],
    },
    CommandDoc {
        name: "show-buffer",
        about: "Print a paste buffer's contents, by default the most recent one.",
        flags: &[('b', "The buffer.")],
    },
    CommandDoc {
        name: "show-environment",
        about: "Print a session's environment, or the global one, as NAME=VALUE lines; a \
                cleared variable shows as -NAME.",
        flags: &[
            ('g', "The global environment."),
            ('h', "Show the hidden variables."),
            (
                's',
                "Print as Bourne shell commands that set the variables.",
            ),
            ('t', "The session."),
        ],
    },
    CommandDoc {
        name: "show-hooks",
        about: "Print the hooks that are set.",
        flags: &[
            ('g', "The global hooks."),
            ('p', "The pane's hooks."),
            ('t', "The target."),
            ('w', "The window's hooks."),
        ],
    },
    CommandDoc {
        name: "show-messages",
        about: "Print the server's message log, newest first, each entry after its time: the \
                commands run since the configuration files loaded (`NAME command: ...`, or \
                `NAME key KEY: ...` for a key binding's), the messages shown on status lines \
                and the errors told to clients (`NAME message: ...`). A client is named by its \
                terminal when it has one, else as `client-PID`. The log keeps the newest \
                message-limit entries. As tmux's, it needs an attached client. tmux's job and \
                terminal summaries are not kept: -J and -T fail with `zeropty: no job or \
                terminal summary; show-messages is not supported`.",
        flags: &[
            ('J', NOT_HERE),
            ('T', NOT_HERE),
            ('t', "The client it runs for (the log is the server's)."),
        ],
    },
    CommandDoc {
        name: "show-options",
        about: "Print options and their values, or one option.",
        flags: &[
            (
                'A',
                "Include the values inherited from the global options, marked with *.",
            ),
            ('g', "The global options."),
            ('H', "Include hooks."),
            ('p', "Pane options."),
            ('q', "Be quiet about unknown options."),
            ('s', "Server options."),
            ('t', "The target."),
            ('v', "Print the values only."),
            ('w', "Window options."),
        ],
    },
    CommandDoc {
        name: "show-prompt-history",
        about: "Print the answers given at prompts, by type and oldest first, as tmux prints \
                them; at most prompt-history-limit of each type are kept.",
        flags: &[(
            'T',
            "Only this type: command, search, target or window-target.",
        )],
    },
    CommandDoc {
        name: "show-window-options",
        about: "Print window options, as show-options -w.",
        flags: &[
            ('g', "The global options."),
            ('t', "The window."),
            ('v', "Print the values only."),
        ],
    },
    CommandDoc {
        name: "source-file",
        about: "Run the commands in files, one per line; # starts a comment and a line ending \
                in \\ continues on the next. Paths may be shell patterns; - is the client's \
                standard input.",
        flags: &[
            ('F', "Expand the path as a format first."),
            ('n', "Only check the syntax; run nothing."),
            ('q', "Do not complain about files that do not exist."),
            ('v', "Print each command before running it."),
        ],
    },
    CommandDoc {
        name: "split-window",
        about: "In tmux, splits a window to add a pane. A window holds one pane here, so the \
                command always fails; new-window gives a program a window of its own.",
        flags: &[
            ('b', ONE_PANE),
            ('c', ONE_PANE),
            ('d', ONE_PANE),
            ('e', ONE_PANE),
            ('F', ONE_PANE),
            ('f', ONE_PANE),
            ('h', ONE_PANE),
            ('I', ONE_PANE),
            ('l', ONE_PANE),
            ('P', ONE_PANE),
            ('p', ONE_PANE),
            ('t', ONE_PANE),
            ('v', ONE_PANE),
            ('Z', ONE_PANE),
        ],
    },
    CommandDoc {
        name: "start-server",
        about: "Start the server if none runs, and do nothing else.",
        flags: &[],
    },
    CommandDoc {
        name: "suspend-client",
        about: "In tmux, suspends a client (as SIGTSTP). zeropty does not have it: it parses as \
                tmux's and fails with `zeropty: clients are never locked or suspended; \
                suspend-client is not supported`.",
        flags: &[('t', NOT_HERE)],
    },
    CommandDoc {
        name: "swap-pane",
        about: "Swap two panes. A window holds one pane here, so the panes of two windows \
                change places: each takes its screen, id, options, start command and running \
                program with it, and the size of the window it goes to; the windows keep their \
                names, indices and sizes. A pane swapped with itself stays.",
        flags: &[
            (
                'D',
                "Swap the target with the next pane of its window: itself, so nothing moves.",
            ),
            ('d', "Accepted: a window's only pane is always its active one."),
            ('s', "The source pane (default: the target, there being no marked pane)."),
            ('t', "The target pane."),
            (
                'U',
                "Swap the target with the previous pane of its window: itself, so nothing moves.",
            ),
            ('Z', "Accepted: windows are never zoomed."),
        ],
    },
    CommandDoc {
        name: "swap-window",
        about: "Exchange two windows, in one session or between two: each takes the other's \
                index, and the current window and last-window stack stay with the indices.",
        flags: &[
            (
                'd',
                "Make the two indices current in their sessions (as tmux 3.3a does with -d; its \
                 manual says the opposite).",
            ),
            ('s', "One window (by default the current one)."),
            ('t', "The other."),
        ],
    },
    CommandDoc {
        name: "switch-client",
        about: "Show another session on a client.",
        flags: &[
            ('c', "The client."),
            (
                'E',
                "Do not copy variables from the client's environment (update-environment).",
            ),
            ('F', "Accepted, as in tmux."),
            ('l', "Switch to the client's last session."),
            ('n', "Switch to the next session."),
            ('p', "Switch to the previous session."),
            ('r', "Toggle the client's read-only mode."),
            ('T', "Set the client's key table for the next key."),
            (
                't',
                "The session (or window, which then becomes current) to show.",
            ),
            ('Z', "Keep the window zoomed."),
        ],
    },
    CommandDoc {
        name: "unbind-key",
        about: "Remove a key's binding from a key table; a table left empty goes, unless it \
                is one the server started with.",
        flags: &[
            ('a', "Remove the whole table instead, defaults and all."),
            ('n', "The root table, as -T root."),
            ('q', "No error when the key or table does not exist."),
            ('T', "The key table (default prefix)."),
        ],
    },
    CommandDoc {
        name: "unlink-window",
        about: "Unlink a window from its session. A window is in one session at a time, so \
                without -k this fails with tmux's `window only linked to one session`; with -k \
                the window goes, as with kill-window but without renumbering.",
        flags: &[
            ('k', "Remove a window that is in no other session (every window here)."),
            ('t', "The window."),
        ],
    },
    CommandDoc {
        name: "wait-for",
        about: "Wait on a channel until another command signals it; the reply comes when it is \
                signalled. With a flag, act on the channel instead.",
        flags: &[
            ('L', "Lock the channel, waiting until no one else holds it."),
            (
                'S',
                "Signal the channel, waking every command waiting on it.",
            ),
            ('U', "Unlock the channel."),
        ],
    },
];
