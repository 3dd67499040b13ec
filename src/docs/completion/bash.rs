//! The bash completion script: the tables become a `case` that tells how each command is
//! called and word lists; a fixed set of functions reads the command line with them. Only bash
//! builtins are used, so the script works alone or under the bash-completion package.

use super::{
    all_option_names, command_syntaxes, option_names, program_syntax, Syntax, Value, OPTION_SCOPES,
    PROGRAM_WORDS, WINDOW_OPTION_SCOPE,
};

const HEADER: &str = "\
# bash completion for zeropty(1). Source it from ~/.bashrc, or install it as
# share/bash-completion/completions/zeropty for bash-completion to load on demand.
#
# Generated from the command table by `cargo run --example gen_docs`; do not edit.
";

/// The part of the script that does not depend on the tables: reading the command line and
/// offering each kind of value.
const READER: &str = r#"
# Completes the word under the cursor: global flags, the command, its flags, their values and
# its arguments, starting over after each `;` that chains another command.
_zeropty() {
    local -a words socket=()
    local cword cur switches values args pending start kind
    local -A given=()
    _zeropty_reassemble_words
    cur=${words[cword]}
    COMPREPLY=()

    _zeropty_spec zeropty
    _zeropty_read_flags 0
    [[ -n ${given[L]+set} ]] && socket+=(-L "${given[L]}")
    [[ -n ${given[S]+set} ]] && socket+=(-S "${given[S]}")
    if ((start < cword)); then
        _zeropty_find_command_start
        if ((start == cword)); then
            _zeropty_offer command
            return 0
        fi
        _zeropty_spec "${words[start]}" || _zeropty_spec "$(_zeropty_resolve "${words[start]}")" ||
            return 0
        given=()
        _zeropty_read_flags "$start"
    fi
    _zeropty_complete_word
}

# bash splits words at `:` (see COMP_WORDBREAKS) but targets are `session:window.pane`: glue
# back the pieces that touch in the line, into `words` and `cword`.
_zeropty_reassemble_words() {
    local line=${COMP_LINE:0:COMP_POINT} piece trimmed i
    words=()
    for ((i = 0; i <= COMP_CWORD; i++)); do
        piece=${COMP_WORDS[i]}
        trimmed=${line#"${line%%[![:space:]]*}"}
        if ((i > 0)) && [[ $trimmed == "$line" ]] && [[ $piece == :* || ${words[-1]} == *: ]]; then
            words[-1]+=$piece
        else
            words+=("$piece")
        fi
        line=${trimmed#"$piece"}
    done
    cword=$((${#words[@]} - 1))
}

# Reads the flags after words[$1] up to the word being completed: sets `given` (flag letter to
# value), `pending` (the flag whose value is being completed) and `start` (the first argument).
_zeropty_read_flags() {
    local i word
    pending=''
    for ((i = $1 + 1; i < cword; i++)); do
        word=${words[i]}
        if [[ -n $pending ]]; then
            given[$pending]=$word
            pending=''
        elif [[ $word == -- ]]; then
            ((i++))
            break
        elif [[ $word == -?* ]]; then
            _zeropty_read_flag_word "${word#-}"
        else
            break
        fi
    done
    start=$i
}

# Reads one word of flags: a flag that takes a value takes the rest of the word (`-talpha`),
# or the next word.
_zeropty_read_flag_word() {
    local rest=$1 letter
    while [[ -n $rest ]]; do
        letter=${rest:0:1}
        rest=${rest:1}
        if [[ " $values" == *" $letter:"* ]]; then
            if [[ -n $rest ]]; then given[$letter]=$rest; else pending=$letter; fi
            return
        fi
        given[$letter]=''
    done
}

# A command chained with `;` starts after the last one before the cursor.
_zeropty_find_command_start() {
    local i
    for ((i = cword - 1; i > start; i--)); do
        case ${words[i]} in
        ';' | '\;' | "';'" | '";"')
            start=$((i + 1))
            return
            ;;
        esac
    done
}

# Offers what may stand at the cursor: the pending flag's value, a flag, or an argument.
_zeropty_complete_word() {
    local pair
    if [[ -n $pending ]]; then
        for pair in $values; do
            [[ $pair == "$pending":* ]] && _zeropty_offer "${pair#*:}"
        done
    elif ((start == cword)) && [[ $cur == -* ]]; then
        _zeropty_offer_flags
    else
        _zeropty_argument_kind $((cword - start))
        _zeropty_offer "$kind"
    fi
}

_zeropty_offer_flags() {
    local letters=$switches pair i
    for pair in $values; do letters+=${pair%%:*}; done
    for ((i = 0; i < ${#letters}; i++)); do
        [[ -${letters:i:1} == "$cur"* ]] && COMPREPLY+=("-${letters:i:1}")
    done
}

# Sets `kind` to the kind of argument $1 (from 0); a last kind of `...` repeats the one before.
_zeropty_argument_kind() {
    local -a kinds
    read -r -a kinds <<<"$args"
    local n=$1 last=$((${#kinds[@]} - 1))
    if ((last > 0)) && [[ ${kinds[last]} == ... ]] && ((n >= last)); then
        n=$((last - 1))
    fi
    kind=${kinds[n]:-}
}

# Asks the running server (the one -L or -S chose); prints nothing when none runs.
_zeropty_ask() {
    zeropty "${socket[@]}" "$@" 2>/dev/null
}

# Offers the words of the list $1 that begin with the word being completed.
_zeropty_offer_words() {
    mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "$1" -- "$cur")
}

# Offers the lines of $1 that begin with the word being completed.
_zeropty_offer_lines() {
    local line quoted
    while IFS= read -r line; do
        [[ -n $line && $line == "$cur"* ]] || continue
        # Names may hold spaces or quotes: offer them quoted for the command line.
        printf -v quoted '%q' "$line"
        COMPREPLY+=("$quoted")
    done <<<"$1"
    _zeropty_trim_colon
}

# The command a word names when it is no name or alias: the one name it begins, as the
# server finds commands (`kill-ses` is kill-session); itself when none or several do.
_zeropty_resolve() {
    local name found=
    for name in $_zeropty_names; do
        [[ $name == "$1"* ]] || continue
        [[ -n $found ]] && { echo "$1"; return; }
        found=$name
    done
    echo "${found:-$1}"
}

# bash replaces only what follows the last `:` of the word: drop what precedes it.
_zeropty_trim_colon() {
    [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]] || return 0
    local typed=${cur%"${cur##*:}"}
    COMPREPLY=("${COMPREPLY[@]#"$typed"}")
}

# Offers what compgen's action $1 (file, directory, command) finds.
_zeropty_offer_action() {
    [[ $1 == command ]] || compopt -o filenames 2>/dev/null
    mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -A "$1" -- "$cur")
}

# The names of the server sockets in the socket directory.
_zeropty_sockets() {
    local path
    for path in "${ZEROPTY_TMPDIR:-${TMUX_TMPDIR:-/tmp}}/zeropty-$UID"/*; do
        [[ -S $path ]] && printf '%s\n' "${path##*/}"
    done
}
"#;

/// The generated script.
pub fn bash_completion() -> String {
    let program = program_syntax();
    let commands = command_syntaxes();
    let mut script = String::from(HEADER);
    script.push_str(&word_lists());
    script.push_str(&spec_function(std::iter::once(&program).chain(&commands)));
    script.push_str(READER);
    script.push_str(&offer_function());
    script.push_str(&scoped_options_function());
    script.push_str("\ncomplete -F _zeropty zeropty\n");
    script
}

fn word_lists() -> String {
    let command_names: Vec<&str> = command_syntaxes().iter().flat_map(Syntax::names).collect();
    let program_words: Vec<&str> = PROGRAM_WORDS.iter().map(|(word, _)| *word).collect();
    let full_names: Vec<&str> = command_syntaxes().iter().map(|c| c.name).collect();
    let mut lists = vec![
        ("_zeropty_commands".to_string(), command_names),
        ("_zeropty_names".to_string(), full_names),
        ("_zeropty_program_words".to_string(), program_words),
        ("_zeropty_options".to_string(), all_option_names()),
    ];
    lists.extend(
        OPTION_SCOPES
            .iter()
            .map(|&(_, scope, bits)| (scoped_options_variable(scope), option_names(bits))),
    );
    let mut text = String::from("\n# The words each kind of name may be, from the tables.\n");
    for (variable, words) in lists {
        text.push_str(&format!("{variable}='{}'\n", words.join(" ")));
    }
    text
}

fn scoped_options_variable(scope: &str) -> String {
    format!("_zeropty_{scope}_options")
}

/// `_zeropty_spec NAME`: how the program and each command are called.
fn spec_function<'a>(syntaxes: impl Iterator<Item = &'a Syntax>) -> String {
    let mut text = String::from(
        "\n# How NAME is called: sets `switches` (its flags that take no value), `values` (flag:kind\n\
         # for those that take one) and `args` (the kinds of its arguments; `...` repeats the last).\n\
         _zeropty_spec() {\n    case $1 in\n",
    );
    for syntax in syntaxes {
        text.push_str(&spec_case(syntax));
    }
    text.push_str("    *) return 1 ;;\n    esac\n}\n");
    text
}

fn spec_case(syntax: &Syntax) -> String {
    let names: Vec<&str> = syntax.names().collect();
    let switches: String = syntax.switches().collect();
    let values: Vec<String> = syntax
        .value_flags()
        .map(|(flag, value)| format!("{}:{}", flag.letter, value.name()))
        .collect();
    let mut args: Vec<&str> = syntax.args.iter().map(|a| a.value.name()).collect();
    if syntax.last_repeats {
        args.push("...");
    }
    format!(
        "    {})\n        switches='{switches}' values='{}' args='{}'\n        ;;\n",
        names.join(" | "),
        values.join(" "),
        args.join(" ")
    )
}

/// `_zeropty_offer KIND`: the candidates for each kind of value.
fn offer_function() -> String {
    let mut text = String::from(
        "\n# Offers the candidates of one kind that begin with the word being completed.\n\
         _zeropty_offer() {\n    case $1 in\n",
    );
    for value in OFFERED {
        text.push_str(&format!(
            "    {})\n        {}\n        ;;\n",
            value.name(),
            offer_command(*value)
        ));
    }
    text.push_str("    esac\n}\n");
    text
}

/// The kinds completion has candidates for.
const OFFERED: &[Value] = &[
    Value::Session,
    Value::Window,
    Value::Pane,
    Value::Client,
    Value::Buffer,
    Value::Option,
    Value::WindowOption,
    Value::Command,
    Value::ProgramCommand,
    Value::ShellCommand,
    Value::File,
    Value::Directory,
    Value::Socket,
];

fn offer_command(value: Value) -> String {
    if let Some((command, formats)) = value.server_listing() {
        let asks: Vec<String> = formats
            .iter()
            .map(|format| format!("_zeropty_ask {command} -F '{format}'"))
            .collect();
        return format!("_zeropty_offer_lines \"$({})\"", asks.join("; "));
    }
    match value {
        Value::Option => "_zeropty_offer_words \"$(_zeropty_scoped_options)\"".into(),
        Value::WindowOption => format!(
            "_zeropty_offer_words \"${}\"",
            scoped_options_variable(WINDOW_OPTION_SCOPE)
        ),
        Value::Command => "_zeropty_offer_words \"$_zeropty_commands\"".into(),
        Value::ProgramCommand => {
            "_zeropty_offer_words \"$_zeropty_commands $_zeropty_program_words\"".into()
        }
        Value::ShellCommand => "_zeropty_offer_action command".into(),
        Value::File => "_zeropty_offer_action file".into(),
        Value::Directory => "_zeropty_offer_action directory".into(),
        Value::Socket => "_zeropty_offer_lines \"$(_zeropty_sockets)\"".into(),
        _ => ":".into(),
    }
}

/// `_zeropty_scoped_options`: the options of the scope the flags given chose.
fn scoped_options_function() -> String {
    let mut text = String::from(
        "\n# The options of the scope the flags given chose, or all of them.\n\
         _zeropty_scoped_options() {\n",
    );
    for (i, (letter, scope, _)) in OPTION_SCOPES.iter().enumerate() {
        let keyword = if i == 0 { "if" } else { "elif" };
        text.push_str(&format!(
            "    {keyword} [[ -n ${{given[{letter}]+set}} ]]; then\n        echo \"${}\"\n",
            scoped_options_variable(scope)
        ));
    }
    text.push_str("    else\n        echo \"$_zeropty_options\"\n    fi\n}\n");
    text
}
