//! The zsh completion function: an autoloadable `_zeropty` for `fpath`. Each command becomes
//! an `_arguments` call whose actions are small functions that ask the running server, list
//! the option table or hand over to zsh's own file and command completion.

use super::{
    all_option_names, command_syntaxes, option_names, program_syntax, Syntax, Value, OPTION_SCOPES,
    PROGRAM_WORDS, WINDOW_OPTION_SCOPE,
};

const HEADER: &str = "\
#compdef zeropty
# zsh completion for zeropty(1): put this file in a directory of $fpath before compinit runs.
#
# Generated from the command table by `cargo run --example gen_docs`; do not edit.
";

/// The part of the function that does not depend on the tables.
const READER: &str = r#"
# Starts over after the last `;` that chains another command, then completes that command.
__zeropty_command() {
  local -i i
  for (( i = CURRENT - 1; i > 1; i-- )); do
    if [[ $words[i] == (\;|\\\;) ]]; then
      shift i words
      (( CURRENT -= i ))
      break
    fi
  done
  if (( CURRENT == 1 )); then
    __zeropty_commands
  else
    curcontext="${curcontext%:*:*}:zeropty-$words[1]:"
    __zeropty_arguments $words[1]
  fi
}

# Asks the running server (the one -L or -S chose); prints nothing when none runs.
__zeropty_ask() {
  zeropty $_zeropty_socket "$@" 2>/dev/null
}

# Offers the lines the server prints for `$3 -F FORMAT`, for each FORMAT after it; $1 is the
# tag and $2 the description.
__zeropty_listed() {
  local tag=$1 description=$2 command=$3 format
  local -a found expl
  shift 3
  for format; do
    found+=(${(f)"$(__zeropty_ask ${=command} -F $format)"})
  done
  _wanted $tag expl $description compadd -a found
}

__zeropty_sockets() {
  local -a sockets expl
  sockets=(${ZEROPTY_TMPDIR:-${TMUX_TMPDIR:-/tmp}}/zeropty-$UID/*(N=:t))
  _wanted sockets expl socket compadd -a sockets
}

__zeropty_program_commands() {
  __zeropty_commands "${(@)_zeropty_program_words}"
}
"#;

/// The generated function file.
pub fn zsh_completion() -> String {
    let program = program_syntax();
    let commands = command_syntaxes();
    let mut text = String::from(HEADER);
    text.push_str(&main_function(&program));
    text.push_str(READER);
    text.push_str(&listing_functions());
    text.push_str(&commands_function(&commands));
    text.push_str(&options_functions());
    text.push_str(&arguments_function(&commands));
    text.push_str("\n_zeropty \"$@\"\n");
    text
}

/// `_zeropty`: the global flags and the command, with the -L and -S given kept for the
/// functions that ask the server.
fn main_function(program: &Syntax) -> String {
    let program_words: Vec<String> = PROGRAM_WORDS
        .iter()
        .map(|(word, what)| quote(&format!("{word}:{what}")))
        .collect();
    format!(
        "
# The global flags, then the command; the command's own words are __zeropty_command's.
_zeropty() {{
  local curcontext=$curcontext state state_descr line ret=1
  local -a _zeropty_socket _zeropty_program_words=({})
  local -A opt_args
  _arguments -C -s : \\
{}    '*:: :->command' && ret=0
  if [[ $state == command ]]; then
    (( $+opt_args[-L] )) && _zeropty_socket+=(-L $opt_args[-L])
    (( $+opt_args[-S] )) && _zeropty_socket+=(-S $opt_args[-S])
    __zeropty_command && ret=0
  fi
  return ret
}}
",
        program_words.join(" "),
        specs(program)
            .iter()
            .map(|spec| format!("    {spec} \\\n"))
            .collect::<String>()
    )
}

/// The `_arguments` specs of a command's flags and arguments.
fn specs(syntax: &Syntax) -> Vec<String> {
    let flags = syntax.flags.iter().map(|flag| match flag.value {
        None => quote(&format!("-{}", flag.letter)),
        Some(value) => quote(&format!(
            "-{letter}+[{name}]:{name}:{action}",
            letter = flag.letter,
            name = flag.value_name,
            action = action(value)
        )),
    });
    let last = syntax.args.len().saturating_sub(1);
    let args = syntax.args.iter().enumerate().map(|(i, arg)| {
        let position = if syntax.last_repeats && i == last {
            "*".to_string()
        } else {
            (i + 1).to_string()
        };
        quote(&format!("{position}:{}:{}", arg.name, action(arg.value)))
    });
    flags.chain(args).collect()
}

/// The `_arguments` action that completes a kind of value.
fn action(value: Value) -> String {
    match value {
        Value::ShellCommand => "_cmdstring".into(),
        Value::File => "_files".into(),
        Value::Directory => "_directories".into(),
        Value::Free => " ".into(),
        other => function_name(other),
    }
}

fn function_name(value: Value) -> String {
    format!("__zeropty_{}s", value.name().replace('-', "_"))
}

/// One function per kind of value the server lists (`__zeropty_sessions`, ...).
fn listing_functions() -> String {
    let mut text = String::new();
    for value in [
        Value::Session,
        Value::Window,
        Value::Pane,
        Value::Client,
        Value::Buffer,
    ] {
        let Some((command, formats)) = value.server_listing() else {
            continue;
        };
        let formats: Vec<String> = formats.iter().map(|f| quote(f)).collect();
        text.push_str(&format!(
            "\n{}() {{\n  __zeropty_listed {name}s {name} {} {}\n}}\n",
            function_name(value),
            quote(command),
            formats.join(" "),
            name = value.name(),
        ));
    }
    text
}

/// `__zeropty_commands`: every command and alias with its usage, and any extra words given.
fn commands_function(commands: &[Syntax]) -> String {
    let mut lines = Vec::new();
    for syntax in commands {
        lines.push(quote(&format!(
            "{}:{}",
            syntax.name,
            syntax.usage.replace(':', "\\:")
        )));
        lines.extend(
            syntax
                .alias
                .map(|alias| quote(&format!("{alias}:alias of {}", syntax.name))),
        );
    }
    format!(
        "\n__zeropty_commands() {{\n  local -a commands=(\n{}  )\n  commands+=(\"$@\")\n  _describe -t commands command commands\n}}\n",
        lines
            .iter()
            .map(|line| format!("    {line}\n"))
            .collect::<String>()
    )
}

/// `__zeropty_options` (scoped by the flags given) and `__zeropty_window_options`.
fn options_functions() -> String {
    let mut text = String::from(
        "\n# The options of the scope the flags given chose, or all of them.\n__zeropty_options() {\n  local -a expl names\n",
    );
    for (i, (letter, _, bits)) in OPTION_SCOPES.iter().enumerate() {
        let keyword = if i == 0 { "if" } else { "elif" };
        text.push_str(&format!(
            "  {keyword} (( $+opt_args[-{letter}] )); then\n    names=({})\n",
            option_names(*bits).join(" ")
        ));
    }
    text.push_str(&format!(
        "  else\n    names=({})\n  fi\n  _wanted options expl option compadd -a names\n}}\n",
        all_option_names().join(" ")
    ));
    let window_bits = OPTION_SCOPES
        .iter()
        .find(|(_, scope, _)| *scope == WINDOW_OPTION_SCOPE)
        .map_or(0, |(_, _, bits)| *bits);
    text.push_str(&format!(
        "\n{}() {{\n  local -a expl names=({})\n  _wanted options expl option compadd -a names\n}}\n",
        function_name(Value::WindowOption),
        option_names(window_bits).join(" ")
    ));
    text
}

/// `__zeropty_arguments NAME`: one `_arguments` call per command.
fn arguments_function(commands: &[Syntax]) -> String {
    let mut text = String::from(
        "\n# Completes the flags and arguments of command $1 (words[1]).\n__zeropty_arguments() {\n  case $1 in\n",
    );
    for syntax in commands {
        let names: Vec<&str> = syntax.names().collect();
        let specs: String = specs(syntax)
            .iter()
            .map(|spec| format!(" \\\n        {spec}"))
            .collect();
        text.push_str(&format!(
            "    ({})\n      _arguments -s :{specs}\n      ;;\n",
            names.join("|")
        ));
    }
    // Any other word: the one command name it begins, as the server finds commands.
    let full_names: Vec<&str> = commands.iter().map(|c| c.name).collect();
    text.push_str(&format!(
        "    (*)\n      local -a names=({})\n      names=(${{(M)names:#${{(b)1}}*}})\n      (( $#names == 1 )) && __zeropty_arguments $names[1]\n      ;;\n",
        full_names.join(" ")
    ));
    text.push_str("  esac\n}\n");
    text
}

/// Quotes a word for zsh with single quotes.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}
