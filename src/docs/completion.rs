//! Shell completion scripts: `completions/zeropty.bash` and `completions/_zeropty` (zsh).
//!
//! Both shells are rendered from one reading of the tables, made here: every command's flags
//! with what their values are ([`Value`]), read from the command's usage line as tmux writes
//! it (`[-t target-pane]` takes a pane), and the same for its arguments and for the program's
//! global flags. The `bash` and `zsh` modules only spell that reading in their shell.

mod bash;
mod zsh;

pub use bash::bash_completion;
pub use zsh::zsh_completion;

use crate::engine::commands::{self, CommandDef};
use crate::engine::options::{self, OptionDef};

/// What a flag's value or an argument is, as far as completion can offer candidates for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Session,
    Window,
    Pane,
    Client,
    Buffer,
    /// An option of the scope the command's flags choose (`-s`, `-w`, `-p`), any without one.
    Option,
    /// An option of a window or its panes (`set-window-option`).
    WindowOption,
    Command,
    /// The program's first argument: a command or one of [`PROGRAM_WORDS`].
    ProgramCommand,
    ShellCommand,
    File,
    Directory,
    Socket,
    /// Anything the user makes up: a name, a size, a format.
    Free,
}

impl Value {
    /// The kind's name in the generated scripts.
    fn name(self) -> &'static str {
        match self {
            Value::Session => "session",
            Value::Window => "window",
            Value::Pane => "pane",
            Value::Client => "client",
            Value::Buffer => "buffer",
            Value::Option => "option",
            Value::WindowOption => "window-option",
            Value::Command => "command",
            Value::ProgramCommand => "program-command",
            Value::ShellCommand => "shell-command",
            Value::File => "file",
            Value::Directory => "directory",
            Value::Socket => "socket",
            Value::Free => "free",
        }
    }

    /// How the running server lists the names this kind of value may take: a command and
    /// the `-F` formats whose lines are the candidates.
    fn server_listing(self) -> Option<(&'static str, &'static [&'static str])> {
        match self {
            Value::Session => Some(("list-sessions", &["#{session_name}"])),
            Value::Window => Some((
                "list-windows -a",
                &[
                    "#{session_name}:#{window_index}",
                    "#{session_name}:#{window_name}",
                ],
            )),
            Value::Pane => Some((
                "list-panes -a",
                &[
                    "#{pane_id}",
                    "#{session_name}:#{window_index}.#{pane_index}",
                ],
            )),
            Value::Client => Some(("list-clients", &["#{client_name}"])),
            Value::Buffer => Some(("list-buffers", &["#{buffer_name}"])),
            _ => None,
        }
    }

    /// Reads the kind of value from the word a usage line names it with.
    fn from_usage_word(word: &str) -> Value {
        let object = ["target-", "src-", "dst-"]
            .iter()
            .find_map(|role| word.strip_prefix(role))
            .unwrap_or(word);
        match object {
            "session" => Value::Session,
            "window" => Value::Window,
            "pane" => Value::Pane,
            "client" => Value::Client,
            "buffer-name" => Value::Buffer,
            "option" => Value::Option,
            "command" => Value::Command,
            "shell-command" => Value::ShellCommand,
            "socket-name" => Value::Socket,
            "path" | "file" | "socket-path" => Value::File,
            _ if object.ends_with("directory") => Value::Directory,
            _ => Value::Free,
        }
    }
}

/// Words only the program takes in a command's place, with what they do.
const PROGRAM_WORDS: &[(&str, &str)] = &[("serve", "run the server"), ("help", "show usage")];

/// The flags that narrow `set-option` and `show-options` to one scope, with the scope's
/// name and bits. A window's options include its panes' (tmux sets those on the window too).
const OPTION_SCOPES: &[(char, &str, u8)] = &[
    ('s', "server", options::SERVER),
    ('w', "window", options::WINDOW | options::PANE),
    ('p', "pane", options::PANE),
];

/// The scope [`Value::WindowOption`] offers.
const WINDOW_OPTION_SCOPE: &str = "window";

struct Flag {
    letter: char,
    /// What the flag's value is; `None` for a flag that takes none.
    value: Option<Value>,
    /// The word the usage line names the value with (`target-pane`).
    value_name: &'static str,
}

struct Argument {
    value: Value,
    /// The word the usage line names the argument with (`new-name`).
    name: &'static str,
}

/// How a command (or the program itself) is called.
struct Syntax {
    name: &'static str,
    alias: Option<&'static str>,
    usage: &'static str,
    flags: Vec<Flag>,
    args: Vec<Argument>,
    /// The last argument may be given any number of times (`key ...`).
    last_repeats: bool,
}

impl Syntax {
    fn names(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.name).chain(self.alias)
    }

    fn switches(&self) -> impl Iterator<Item = char> + '_ {
        self.flags
            .iter()
            .filter(|f| f.value.is_none())
            .map(|f| f.letter)
    }

    fn value_flags(&self) -> impl Iterator<Item = (&Flag, Value)> {
        self.flags
            .iter()
            .filter_map(|f| f.value.map(|value| (f, value)))
    }
}

/// One piece of a usage line: `[-dE]`, `[-t target-pane]`, `[template]`, `path` or `...`.
enum UsageItem {
    Switches,
    ValueFlag(char, &'static str),
    Argument(&'static str),
    Repeat,
}

/// Splits a usage line into its bracketed groups and bare words (brackets may nest, and
/// tmux sometimes writes groups without a space between them).
fn usage_groups(usage: &'static str) -> Vec<&'static str> {
    let mut groups = Vec::new();
    let (mut depth, mut start) = (0, None);
    for (i, c) in usage.char_indices() {
        match c {
            '[' => {
                if depth == 0 {
                    start = Some(i + 1);
                }
                depth += 1;
            }
            ']' => {
                depth -= 1;
                if depth == 0 {
                    groups.extend(start.take().map(|s| &usage[s..i]));
                }
            }
            c if depth == 0 && !c.is_whitespace() && start.is_none() => start = Some(i),
            c if depth == 0 && c.is_whitespace() => {
                groups.extend(start.take().map(|s| &usage[s..i]));
            }
            _ => {}
        }
    }
    groups.extend(start.map(|s| &usage[s..]));
    groups
}

fn usage_items(usage: &'static str) -> Vec<UsageItem> {
    usage_groups(usage)
        .into_iter()
        .map(|group| match group.strip_prefix('-') {
            Some(rest) => match rest.split_once(' ') {
                Some((letter, word)) => {
                    UsageItem::ValueFlag(letter.chars().next().unwrap_or('-'), word)
                }
                None => UsageItem::Switches,
            },
            None if group == "..." => UsageItem::Repeat,
            None => UsageItem::Argument(group),
        })
        .collect()
}

/// The flags of a getopt string (`c:dE`), with their values named as the usage line names them.
fn flags_of(getopt: &str, items: &[UsageItem]) -> Vec<Flag> {
    let letters: Vec<char> = getopt.chars().collect();
    letters
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != ':')
        .map(|(i, &letter)| {
            let takes_value = letters.get(i + 1) == Some(&':');
            let value_name = items
                .iter()
                .find_map(|item| match item {
                    UsageItem::ValueFlag(l, word) if *l == letter => Some(*word),
                    _ => None,
                })
                .unwrap_or("value");
            Flag {
                letter,
                value: takes_value.then(|| Value::from_usage_word(value_name)),
                value_name,
            }
        })
        .collect()
}

fn command_syntax(def: &CommandDef) -> Syntax {
    let items = usage_items(def.usage);
    let window_options_only = def.name.contains("window-option");
    let args = items
        .iter()
        .filter_map(|item| match item {
            UsageItem::Argument(name) => Some(Argument {
                value: match Value::from_usage_word(name) {
                    Value::Option if window_options_only => Value::WindowOption,
                    other => other,
                },
                name,
            }),
            _ => None,
        })
        .collect();
    Syntax {
        name: def.name,
        alias: def.alias,
        usage: def.usage,
        flags: flags_of(def.flags, &items),
        args,
        last_repeats: items.iter().any(|i| matches!(i, UsageItem::Repeat)),
    }
}

/// The program's own syntax, read from its usage line: global flags, then a command.
fn program_syntax() -> Syntax {
    let usage = crate::cli::USAGE
        .trim_start_matches("usage: zeropty")
        .trim();
    let items = usage_items(usage);
    let getopt: String = usage_groups(usage)
        .iter()
        .filter_map(|group| group.strip_prefix('-'))
        .map(|flags| match flags.split_once(' ') {
            Some((letter, _)) => format!("{letter}:"),
            None => flags.to_string(),
        })
        .collect();
    Syntax {
        name: "zeropty",
        alias: None,
        usage,
        flags: flags_of(&getopt, &items),
        args: vec![Argument {
            value: Value::ProgramCommand,
            name: "command",
        }],
        last_repeats: false,
    }
}

fn command_syntaxes() -> Vec<Syntax> {
    commands::all()
        .iter()
        .map(|def| command_syntax(def))
        .collect()
}

/// The names of the options with any of the `scope` bits, sorted.
fn option_names(scope: u8) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = options::TABLE
        .iter()
        .chain(options::EXTRA)
        .filter(|def: &&OptionDef| def.scope & scope != 0)
        .map(|def| def.name)
        .collect();
    names.sort_unstable();
    names
}

fn all_option_names() -> Vec<&'static str> {
    option_names(options::SERVER | options::SESSION | options::WINDOW | options::PANE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_from_the_usage_line() {
        let def = commands::find("split-window").unwrap();
        let syntax = command_syntax(def);
        let value_of = |letter| {
            syntax
                .flags
                .iter()
                .find(|f| f.letter == letter)
                .unwrap()
                .value
        };
        assert_eq!(value_of('t'), Some(Value::Pane));
        assert_eq!(value_of('c'), Some(Value::Directory));
        assert_eq!(value_of('d'), None);
        let args: Vec<Value> = syntax.args.iter().map(|a| a.value).collect();
        assert_eq!(args, vec![Value::ShellCommand]);
    }

    #[test]
    fn the_program_flags_come_from_its_usage() {
        let program = program_syntax();
        assert_eq!(program.switches().collect::<String>(), "2CDlNuVv");
        let values: Vec<(char, Value)> =
            program.value_flags().map(|(f, v)| (f.letter, v)).collect();
        assert!(values.contains(&('L', Value::Socket)));
        assert!(values.contains(&('S', Value::File)));
        assert_eq!(values.len(), 5);
    }

    #[test]
    fn window_option_commands_take_window_options() {
        let def = commands::find("set-window-option").unwrap();
        assert_eq!(command_syntax(def).args[0].value, Value::WindowOption);
        let def = commands::find("set-option").unwrap();
        assert_eq!(command_syntax(def).args[0].value, Value::Option);
    }
}
