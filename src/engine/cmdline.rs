//! Command lines and command text, split and parsed as tmux 3.3a does, and tmux's flag parsing.
//!
//! Responsibilities:
//! - [`split_argv`] splits a command line that arrives already split into arguments (what
//!   `tmux a b \; c d` passes, or the arguments of `bind-key` and friends) into commands, as
//!   `cmd_parse_from_arguments` does: an argument ending in `;` ends a command (the `;` is
//!   removed, and an argument that was only `;` disappears); an argument ending in `\;` keeps
//!   a literal `;` instead. Nothing else is special there: `{`, quotes, `$` and `~` are
//!   ordinary text on a command line. [`split_args`] does the same for [`Arg`]s, where a
//!   parsed `{ }` block passes through untouched.
//! - [`parse`] and [`parse_text`] parse command text (configuration files, `source-file`,
//!   command strings given to `if-shell`, `bind-key` and others) as tmux's `cmd-parse.y`
//!   does: `#` comments, newline and `;` separators, `\;`, single quotes (literal), double
//!   quotes and bare words (with `\` escapes: `\a \b \e \f \n \r \s \t \v`, octal `\NNN`,
//!   `\uXXXX`, `\UXXXXXXXX`, any other character literally), `\` at the end of a line joining
//!   lines (everywhere, comments and quotes included), `~` and `~user`, `$NAME` and `${NAME}`,
//!   `NAME=value` and `%hidden NAME=value` assignments, `{ ... }` blocks as arguments and
//!   `%if`/`%elif`/`%else`/`%endif`, both spanning lines and inline on one line.
//! - [`parse_args`] parses one command's arguments against its getopt-style template, as
//!   tmux's `args_parse` does, and [`ArgError`] gives tmux's messages for the failures.
//!
//! Invariants and tmux behaviour kept on purpose:
//! - Pure: no I/O and no process environment. Variables, home directories and `%if`
//!   conditions come from the caller through [`ParseInput`].
//! - Assignments take effect while the text is parsed, as in tmux: a later `$NAME` in the same
//!   text sees them, and they are returned apart from the commands ([`Parsed::assignments`],
//!   in order) because tmux applies them before any command of the text runs, even when a
//!   later line has a syntax error ([`ParseError::assignments`]). An assignment is made when
//!   the innermost `%if` branch around it is true, even inside an outer false branch, and a
//!   `%elif`'s or `%else`'s truth is its own condition (or the negation of the branch just
//!   before it), whether or not an earlier branch was taken: tmux's scope rules, reproduced.
//! - Only the first error is reported, with the line counter as tmux has it at that moment.
//!   Line numbers follow tmux exactly, quirks included: a command's line is the line of the
//!   token after it, so a command followed by a comment is on the next line, and newlines
//!   inside quotes are not counted.
//! - Quotes left open run to the end of the text without error. Inside quotes a newline is
//!   kept and the blanks after it dropped; a following line starting with `#` is a comment
//!   unless `#` is followed by one of `,#{}:`.
//! - `cmd ; NAME=value` drops `cmd` (tmux's grammar replaces the list when a `;` is followed
//!   by an empty command); empty commands are never returned.
//! - Arguments are bytes in tmux; here a `\NNN` or `\U` escape that does not make valid UTF-8
//!   is replaced by U+FFFD as [`String::from_utf8_lossy`] does, and a NUL byte ends its
//!   argument (tmux's arguments are C strings). `\U` encodes up to 0x7FFFFFFF the way glibc's
//!   `wctomb` does (old five- and six-byte forms included) and rejects surrogates.
//! - A flag that takes a value may end the arguments without one (tmux 3.3a treats every such
//!   flag as optional there): [`Args::has`] is true and [`Args::get`] gives no new value.
//! - Limits are tmux's: its parser stack holds 9999 symbols, so about 3332 nested blocks,
//!   4998 nested `%if` lines or 9997 arguments of one command fail with `yacc stack
//!   overflow`, at the same token as in tmux. Nesting is kept in an explicit stack, not in
//!   native recursion, and dropping a [`Command`] is iterative, so any input tmux accepts
//!   needs little native stack.
//! - A `{ }` block is an [`Arg::Commands`], parsed (and expanded) with the text around it, as
//!   in tmux; a command that accepts one at a position says so in its [`ArgSpec`], elsewhere
//!   it is an error, as in tmux.

use std::collections::HashMap;
use std::fmt;

/// One argument of a command: a string, or a `{ }` block already parsed into commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    String(String),
    Commands(Vec<Command>),
}

impl Arg {
    /// The string, or `None` for a block.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Arg::String(s) => Some(s),
            Arg::Commands(_) => None,
        }
    }

    /// The block's commands, or `None` for a string.
    pub fn commands(&self) -> Option<&[Command]> {
        match self {
            Arg::String(_) => None,
            Arg::Commands(c) => Some(c),
        }
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::String(s)
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::String(s.to_string())
    }
}

/// One parsed command: its arguments, the first being the command name, and its line.
/// (It implements `Drop`; take its arguments with `std::mem::take(&mut cmd.argv)`.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub argv: Vec<Arg>,
    pub line: usize,
}

impl Command {
    /// The command name; `None` if the first argument is a block (tmux: `no command`).
    pub fn name(&self) -> Option<&str> {
        self.argv.first().and_then(Arg::as_str)
    }
}

/// Blocks nest as deep as tmux allows (over 3000 levels); they are taken apart without
/// recursion so dropping one needs no deep native stack.
impl Drop for Command {
    fn drop(&mut self) {
        fn take(argv: &mut [Arg], pending: &mut Vec<Command>) {
            for arg in argv {
                if let Arg::Commands(cmds) = arg {
                    pending.append(cmds);
                }
            }
        }
        let mut pending = Vec::new();
        take(&mut self.argv, &mut pending);
        while let Some(mut cmd) = pending.pop() {
            take(&mut cmd.argv, &mut pending);
        }
    }
}

/// A `NAME=value` (or `%hidden NAME=value`) line: tmux puts it in the global environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    pub name: String,
    pub value: String,
    pub hidden: bool,
}

/// The result of parsing command text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The commands, in order, from the branches of `%if` that were taken.
    pub commands: Vec<Command>,
    /// The assignments made while parsing, in order; tmux applies them before any command.
    pub assignments: Vec<Assignment>,
}

/// A parse error. It displays as tmux reports it: `FILE:LINE: message` when the text came
/// from a file, the message alone otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub file: Option<String>,
    pub line: usize,
    pub message: String,
    /// Assignments made before the error; tmux keeps them.
    pub assignments: Vec<Assignment>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_error(
            self.file.as_deref(),
            self.line,
            &self.message,
        ))
    }
}

impl std::error::Error for ParseError {}

/// An error about a parsed command, placed as tmux places it (`cmd_parse_get_error`):
/// `FILE:LINE: cause` when there is a file, `cause` alone otherwise. Used for parse errors
/// and for the command table's `unknown command: NAME` and [`ArgError::message`].
pub fn format_error(file: Option<&str>, line: usize, cause: &str) -> String {
    match file {
        Some(file) => format!("{file}:{line}: {cause}"),
        None => cause.to_string(),
    }
}

/// tmux's `format_true`: a condition is true unless it is empty or exactly `0`.
pub fn format_true(s: &str) -> bool {
    !s.is_empty() && s != "0"
}

/// Looks up a name: an environment variable, or a user's home directory.
pub type Lookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Where command text comes from and what its expansions see.
pub struct ParseInput<'a> {
    /// The file name for error messages; `None` for a command string.
    pub file: Option<&'a str>,
    /// The number of the first line (tmux uses 1 for files).
    pub line: usize,
    /// The global environment, for `$NAME`, `${NAME}` and `~` (through `HOME`).
    pub env: Lookup<'a>,
    /// The current user's home directory from the password database, used by `~` when the
    /// environment has no non-empty `HOME`.
    pub home: Option<&'a str>,
    /// Home directories of other users, for `~user`; without it `~user` is an error, as an
    /// unknown user is in tmux.
    pub user_home: Option<Lookup<'a>>,
    /// Expands an `%if`/`%elif` format and tests it; [`format_true`] is tmux's test.
    pub cond: &'a dyn Fn(&str) -> bool,
    /// Parse only (`source-file -n`): assignments are not made, so later `$NAME`s do not see
    /// them, and none are returned.
    pub parse_only: bool,
}

/// Parses command text with a [`ParseInput`].
pub fn parse(text: &str, input: &ParseInput) -> Result<Parsed, ParseError> {
    if text.is_empty() {
        return Ok(Parsed::default());
    }
    let mut p = Parser {
        lx: Lexer::new(text.as_bytes(), input),
        look: None,
        scope: None,
        stack: Vec::new(),
        depth: 0,
    };
    match p.lines() {
        Ok(commands) => Ok(Parsed {
            commands,
            assignments: p.lx.assignments,
        }),
        Err(()) => {
            let (line, message) =
                p.lx.error
                    .take()
                    .unwrap_or((p.lx.line, "syntax error".to_string()));
            Err(ParseError {
                file: input.file.map(str::to_string),
                line,
                message,
                assignments: p.lx.assignments,
            })
        }
    }
}

/// Parses command text that is not from a file (errors are the bare message), starting at
/// line 1, with `env` as the environment, `home` as the current user's home directory and
/// `cond` testing `%if` formats.
pub fn parse_text(
    text: &str,
    env: &dyn Fn(&str) -> Option<String>,
    home: Option<&str>,
    cond: &dyn Fn(&str) -> bool,
) -> Result<Parsed, ParseError> {
    parse(
        text,
        &ParseInput {
            file: None,
            line: 1,
            env,
            home,
            user_home: None,
            cond,
            parse_only: false,
        },
    )
}

/// Splits arguments into commands at arguments ending in `;`, as tmux splits its own command
/// line; see the module documentation. Empty commands (`a \; \; b`) are dropped: tmux runs
/// them as nothing.
pub fn split_argv(args: &[String]) -> Vec<Vec<String>> {
    split_with(args.iter().cloned(), |s: &String| Some(s.clone()), |s| s)
}

/// [`split_argv`] for arguments that may be parsed blocks; a block never ends a command.
pub fn split_args(args: &[Arg]) -> Vec<Vec<Arg>> {
    split_with(
        args.iter().cloned(),
        |a: &Arg| a.as_str().map(str::to_string),
        Arg::String,
    )
}

fn split_with<T, I, S, W>(args: I, string: S, wrap: W) -> Vec<Vec<T>>
where
    I: Iterator<Item = T>,
    S: Fn(&T) -> Option<String>,
    W: Fn(String) -> T,
{
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for arg in args {
        let Some(mut s) = string(&arg) else {
            cur.push(arg);
            continue;
        };
        let mut end = false;
        if s.ends_with(';') {
            s.pop();
            if s.ends_with('\\') {
                s.pop();
                s.push(';');
            } else {
                end = true;
            }
        }
        if !end || !s.is_empty() {
            cur.push(wrap(s));
        }
        if end && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Lexer: tmux's yylex, character for character.

const EOF: i32 = -1;

#[derive(Debug)]
enum Tok {
    End,
    Newline,
    Semi,
    Open,
    Close,
    Hidden,
    If,
    Else,
    Elif,
    Endif,
    Error,
    Format(Vec<u8>),
    Token(Vec<u8>),
    Equals(Vec<u8>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    Start,
    None,
    Double,
    Single,
}

/// The longest variable or user name tmux accepts, in bytes.
const NAME_MAX: usize = 1022;

struct Lexer<'a, 'i> {
    buf: &'a [u8],
    off: usize,
    /// Backslashes read but not yet returned (how tmux finds `\` at the end of a line).
    escapes: u32,
    line: usize,
    eol: bool,
    eof: bool,
    condition: bool,
    input: &'i ParseInput<'i>,
    /// Assignments made so far, consulted before the caller's environment.
    vars: HashMap<String, String>,
    assignments: Vec<Assignment>,
    error: Option<(usize, String)>,
}

/// C's `strchr(set, ch) != NULL`: NUL is in every set, EOF in none.
fn in_set(ch: i32, set: &[u8]) -> bool {
    ch == 0 || (ch > 0 && set.contains(&(ch as u8)))
}

fn is_var(ch: i32, first: bool) -> bool {
    if !(0..128).contains(&ch) || ch == i32::from(b'=') {
        return false;
    }
    let c = ch as u8;
    if first && c.is_ascii_digit() {
        return false;
    }
    c.is_ascii_alphanumeric() || c == b'_'
}

fn is_assignment(token: &[u8]) -> bool {
    let Some(eq) = token.iter().position(|&c| c == b'=') else {
        return false;
    };
    !token.is_empty()
        && is_var(i32::from(token[0]), true)
        && token[1..eq].iter().all(|&c| is_var(i32::from(c), false))
}

/// glibc's `wctomb` in a UTF-8 locale: the original UTF-8 forms up to six bytes, surrogates
/// and values above 0x7FFFFFFF rejected.
fn encode_wide(v: u32) -> Option<Vec<u8>> {
    if (0xd800..=0xdfff).contains(&v) || v > 0x7fff_ffff {
        return None;
    }
    if v < 0x80 {
        return Some(vec![v as u8]);
    }
    let n = match v {
        0..=0x7ff => 2,
        0x800..=0xffff => 3,
        0x1_0000..=0x1f_ffff => 4,
        0x20_0000..=0x3ff_ffff => 5,
        _ => 6,
    };
    let mut out = vec![0u8; n];
    let mut v = v;
    for b in out[1..].iter_mut().rev() {
        *b = 0x80 | (v & 0x3f) as u8;
        v >>= 6;
    }
    out[0] = (0xff00u32 >> n) as u8 | v as u8;
    Some(out)
}

impl<'a, 'i> Lexer<'a, 'i> {
    fn new(buf: &'a [u8], input: &'i ParseInput<'i>) -> Self {
        Lexer {
            buf,
            off: 0,
            escapes: 0,
            line: input.line,
            eol: false,
            eof: false,
            condition: false,
            input,
            vars: HashMap::new(),
            assignments: Vec::new(),
            error: None,
        }
    }

    fn error(&mut self, message: &str) {
        if self.error.is_none() {
            self.error = Some((self.line, message.to_string()));
        }
    }

    fn getc1(&mut self) -> i32 {
        match self.buf.get(self.off) {
            Some(&c) => {
                self.off += 1;
                i32::from(c)
            }
            None => EOF,
        }
    }

    fn ungetc(&mut self, ch: i32) {
        if self.off > 0 && ch != EOF {
            self.off -= 1;
        }
    }

    /// The next character, with `\` newline removed (and counted as a line).
    fn getc(&mut self) -> i32 {
        if self.escapes != 0 {
            self.escapes -= 1;
            return i32::from(b'\\');
        }
        loop {
            let ch = self.getc1();
            if ch == i32::from(b'\\') {
                self.escapes += 1;
                continue;
            }
            if ch == i32::from(b'\n') && self.escapes % 2 == 1 {
                self.line += 1;
                self.escapes -= 1;
                continue;
            }
            if self.escapes != 0 {
                self.ungetc(ch);
                self.escapes -= 1;
                return i32::from(b'\\');
            }
            return ch;
        }
    }

    fn lookup(&self, name: &str) -> Option<String> {
        match self.vars.get(name) {
            Some(v) => Some(v.clone()),
            None => (self.input.env)(name),
        }
    }

    fn assign(&mut self, token: &[u8], hidden: bool) {
        if self.input.parse_only {
            return;
        }
        let text = String::from_utf8_lossy(token);
        let (name, value) = text.split_once('=').unwrap_or((&text, ""));
        self.vars.insert(name.to_string(), value.to_string());
        self.assignments.push(Assignment {
            name: name.to_string(),
            value: value.to_string(),
            hidden,
        });
    }

    fn next_token(&mut self) -> Tok {
        if self.eol {
            self.line += 1;
        }
        self.eol = false;
        let condition = self.condition;
        self.condition = false;

        loop {
            let ch = self.getc();
            if ch == EOF {
                // Every text ends with a newline, then the end.
                if self.eof {
                    return Tok::End;
                }
                self.eof = true;
                return Tok::Newline;
            }
            match ch as u8 {
                b' ' | b'\t' => continue,
                b'\n' => {
                    self.eol = true;
                    return Tok::Newline;
                }
                b';' => return Tok::Semi,
                b'{' => return Tok::Open,
                b'}' => return Tok::Close,
                b'#' => {
                    let mut next = self.getc();
                    if condition && next == i32::from(b'{') {
                        return match self.format() {
                            Some(f) => Tok::Format(f),
                            None => Tok::Error,
                        };
                    }
                    while next != i32::from(b'\n') && next != EOF {
                        next = self.getc();
                    }
                    if next == i32::from(b'\n') {
                        self.line += 1;
                        return Tok::Newline;
                    }
                    continue;
                }
                b'%' => {
                    let word = self.word(ch);
                    if word.iter().all(|&c| c == b'%' || c.is_ascii_digit()) {
                        return Tok::Token(word);
                    }
                    self.condition = true;
                    return match word.as_slice() {
                        b"%hidden" => Tok::Hidden,
                        b"%if" => Tok::If,
                        b"%else" => Tok::Else,
                        b"%elif" => Tok::Elif,
                        b"%endif" => Tok::Endif,
                        _ => Tok::Error,
                    };
                }
                _ => {}
            }
            return match self.token(ch) {
                None => Tok::Error,
                Some(t) if is_assignment(&t) => Tok::Equals(t),
                Some(t) => Tok::Token(t),
            };
        }
    }

    /// A `%` word: everything up to a blank or newline, unprocessed.
    fn word(&mut self, first: i32) -> Vec<u8> {
        let mut out = Vec::new();
        let mut ch = first;
        loop {
            out.push(ch as u8);
            ch = self.getc();
            if ch == EOF || in_set(ch, b" \t\n") {
                break;
            }
        }
        self.ungetc(ch);
        out
    }

    /// `#{...}` after `%if` or `%elif`: up to the matching `}`, on one line, unprocessed.
    fn format(&mut self) -> Option<Vec<u8>> {
        let mut out = b"#{".to_vec();
        let mut depth = 1u32;
        loop {
            let mut ch = self.getc();
            if ch == EOF || ch == i32::from(b'\n') {
                return None;
            }
            if ch == i32::from(b'#') {
                ch = self.getc();
                if ch == EOF || ch == i32::from(b'\n') {
                    return None;
                }
                if ch == i32::from(b'{') {
                    depth += 1;
                }
                out.push(b'#');
            } else if ch == i32::from(b'}') && depth != 0 {
                depth -= 1;
                if depth == 0 {
                    out.push(b'}');
                    break;
                }
            }
            out.push(ch as u8);
        }
        Some(out)
    }

    /// A word: quotes, escapes, `~` and `$` processed. `None` on error.
    fn token(&mut self, mut ch: i32) -> Option<Vec<u8>> {
        let mut buf = Vec::new();
        let mut state = Quote::None;
        let mut last = Quote::Start;
        loop {
            if ch == EOF || (state == Quote::None && ch == i32::from(b'\n')) {
                break;
            }
            if state == Quote::None && [b' ', b'\t', b';', b'}'].map(i32::from).contains(&ch) {
                break;
            }
            if ch == i32::from(b'\n') {
                // Inside quotes: keep the newline, drop the blanks after it, and drop a
                // comment line unless its # starts one of tmux's # sequences.
                buf.push(b'\n');
                loop {
                    ch = self.getc();
                    if ch != i32::from(b' ') && ch != i32::from(b'\t') {
                        break;
                    }
                }
                if ch != i32::from(b'#') {
                    continue;
                }
                ch = self.getc();
                if in_set(ch, b",#{}:") {
                    self.ungetc(ch);
                    ch = i32::from(b'#');
                } else {
                    loop {
                        ch = self.getc();
                        if ch == i32::from(b'\n') || ch == EOF {
                            break;
                        }
                    }
                }
                continue;
            }
            let expanded = if ch == i32::from(b'\\') && state != Quote::Single {
                Some(self.escape(&mut buf))
            } else if ch == i32::from(b'~') && last != state && state != Quote::Single {
                Some(self.tilde(&mut buf))
            } else if ch == i32::from(b'$') && state != Quote::Single {
                Some(self.variable(&mut buf))
            } else {
                None
            };
            match expanded {
                Some(false) => return None,
                Some(true) => last = state,
                None => {
                    let quote = match (ch as u8, state) {
                        (b'\'', Quote::None) => Some(Quote::Single),
                        (b'\'', Quote::Single) => Some(Quote::None),
                        (b'"', Quote::None) => Some(Quote::Double),
                        (b'"', Quote::Double) => Some(Quote::None),
                        _ => None,
                    };
                    match quote {
                        Some(q) => state = q,
                        None => {
                            buf.push(ch as u8);
                            last = state;
                        }
                    }
                }
            }
            ch = self.getc();
        }
        self.ungetc(ch);
        // tmux's arguments are C strings: a NUL byte ends one.
        if let Some(nul) = buf.iter().position(|&c| c == 0) {
            buf.truncate(nul);
        }
        Some(buf)
    }

    /// After `\`.
    fn escape(&mut self, buf: &mut Vec<u8>) -> bool {
        let ch = self.getc();
        if (i32::from(b'4')..=i32::from(b'7')).contains(&ch) {
            self.error("invalid octal escape");
            return false;
        }
        if (i32::from(b'0')..=i32::from(b'3')).contains(&ch) {
            let octal = |c: i32| (i32::from(b'0')..=i32::from(b'7')).contains(&c);
            let o2 = self.getc();
            if octal(o2) {
                let o3 = self.getc();
                if octal(o3) {
                    let v = 64 * (ch - i32::from(b'0'))
                        + 8 * (o2 - i32::from(b'0'))
                        + (o3 - i32::from(b'0'));
                    buf.push(v as u8);
                    return true;
                }
            }
            self.error("invalid octal escape");
            return false;
        }
        if ch == EOF {
            return false;
        }
        let c = match ch as u8 {
            b'a' => 0x07,
            b'b' => 0x08,
            b'e' => 0x1b,
            b'f' => 0x0c,
            b's' => b' ',
            b'v' => 0x0b,
            b'r' => b'\r',
            b'n' => b'\n',
            b't' => b'\t',
            b'u' => return self.unicode(buf, 'u', 4),
            b'U' => return self.unicode(buf, 'U', 8),
            other => other,
        };
        buf.push(c);
        true
    }

    fn unicode(&mut self, buf: &mut Vec<u8>, kind: char, size: usize) -> bool {
        let mut value = 0u32;
        for _ in 0..size {
            let ch = self.getc();
            if ch == EOF || ch == i32::from(b'\n') {
                return false;
            }
            let digit = u8::try_from(ch).ok().and_then(|c| (c as char).to_digit(16));
            let Some(digit) = digit else {
                self.error(&format!("invalid \\{kind} argument"));
                return false;
            };
            value = value << 4 | digit;
        }
        match encode_wide(value) {
            Some(bytes) => {
                buf.extend_from_slice(&bytes);
                true
            }
            None => {
                self.error(&format!("invalid \\{kind} argument"));
                false
            }
        }
    }

    /// After `$`.
    fn variable(&mut self, buf: &mut Vec<u8>) -> bool {
        let mut ch = self.getc();
        if ch == EOF {
            return false;
        }
        let brackets = ch == i32::from(b'{');
        let mut name = Vec::new();
        if !brackets {
            if !is_var(ch, true) {
                buf.push(b'$');
                self.ungetc(ch);
                return true;
            }
            name.push(ch as u8);
        }
        loop {
            ch = self.getc();
            if brackets && ch == i32::from(b'}') {
                break;
            }
            if ch == EOF || !is_var(ch, false) {
                if !brackets {
                    self.ungetc(ch);
                    break;
                }
                self.error("invalid environment variable");
                return false;
            }
            if name.len() == NAME_MAX {
                self.error("environment variable is too long");
                return false;
            }
            name.push(ch as u8);
        }
        // Variable names are ASCII.
        let name = String::from_utf8_lossy(&name).into_owned();
        if let Some(value) = self.lookup(&name) {
            buf.extend_from_slice(value.as_bytes());
        }
        true
    }

    /// After `~` at the start of a word or of a quoted part.
    fn tilde(&mut self, buf: &mut Vec<u8>) -> bool {
        let mut name = Vec::new();
        loop {
            let ch = self.getc();
            if ch == EOF || in_set(ch, b"/ \t\n\"'") {
                self.ungetc(ch);
                break;
            }
            if name.len() == NAME_MAX {
                self.error("user name is too long");
                return false;
            }
            name.push(ch as u8);
        }
        let home = if name.is_empty() {
            match self.lookup("HOME") {
                Some(h) if !h.is_empty() => Some(h),
                _ => self.input.home.map(str::to_string),
            }
        } else {
            let name = String::from_utf8_lossy(&name);
            self.input.user_home.and_then(|f| f(&name))
        };
        match home {
            Some(h) => {
                buf.extend_from_slice(h.as_bytes());
                true
            }
            None => false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Parser: cmd-parse.y's grammar, top down, with its actions at the same moments. The rules in
// progress are `Frame`s on an explicit stack; `step` runs the top one until it needs another
// rule (`Step::Call`) or finishes (`Step::Return`).
//
// tmux's parser is an LR parser whose stack holds at most STACK_MAX symbols; deeper input
// fails with `yacc stack overflow`. `depth` follows that stack: every shifted token and every
// empty rule pushes a symbol, and a finished rule leaves one symbol where its first one was.
// Right-recursive rules (the arguments of a command, `%elif` chains) keep all their parts on
// the stack until they end, as in tmux.

/// The most symbols tmux's parser stack holds (a 10000-entry state stack).
const STACK_MAX: usize = 9999;

struct Parser<'a, 'i> {
    lx: Lexer<'a, 'i>,
    look: Option<Tok>,
    /// The innermost `%if` branch's truth (tmux's `ps->scope`), and the enclosing ones.
    scope: Option<bool>,
    stack: Vec<bool>,
    depth: usize,
}

type PResult<T> = Result<T, ()>;

fn lossy(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

impl Parser<'_, '_> {
    fn peek(&mut self) -> &Tok {
        if self.look.is_none() {
            self.look = Some(self.lx.next_token());
        }
        self.look.as_ref().expect("lookahead")
    }

    fn next(&mut self) -> Tok {
        self.peek();
        self.look.take().expect("lookahead")
    }

    fn syntax_error<T>(&mut self) -> PResult<T> {
        self.lx.error("syntax error");
        Err(())
    }

    /// One more symbol on the parser stack.
    fn push(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > STACK_MAX {
            self.lx.error("yacc stack overflow");
            return Err(());
        }
        Ok(())
    }

    /// Shifts the lookahead, which the caller has checked.
    fn shift(&mut self) -> PResult<Tok> {
        let tok = self.next();
        self.push()?;
        Ok(tok)
    }

    fn expect_newline(&mut self) -> PResult<()> {
        match self.peek() {
            Tok::Newline => self.shift().map(drop),
            _ => self.syntax_error(),
        }
    }

    fn expect_endif(&mut self) -> PResult<()> {
        match self.peek() {
            Tok::Endif => {
                self.shift()?;
                self.scope = self.stack.pop();
                Ok(())
            }
            _ => self.syntax_error(),
        }
    }

    fn in_scope(&self) -> bool {
        self.scope.unwrap_or(true)
    }

    /// `%if` and its condition; the new scope is entered at once, as tmux does.
    fn if_open(&mut self) -> PResult<bool> {
        let base = self.depth;
        self.shift()?;
        let flag = self.expanded()?;
        self.depth = base + 1;
        if let Some(s) = self.scope {
            self.stack.push(s);
        }
        self.scope = Some(flag);
        Ok(flag)
    }

    /// The condition after `%if` or `%elif`: a format or a word, tested by the caller.
    fn expanded(&mut self) -> PResult<bool> {
        match self.peek() {
            Tok::Format(_) | Tok::Token(_) => {}
            _ => return self.syntax_error(),
        }
        match self.shift()? {
            Tok::Format(t) | Tok::Token(t) => Ok((self.lx.input.cond)(&lossy(t))),
            _ => unreachable!("checked above"),
        }
    }

    /// `%elif` and its condition, which becomes the scope's truth.
    fn if_elif(&mut self) -> PResult<bool> {
        let base = self.depth;
        self.shift()?;
        let flag = self.expanded()?;
        self.depth = base + 1;
        self.scope = Some(flag);
        Ok(flag)
    }

    /// `%else`: the scope's truth flips.
    fn if_else(&mut self) -> PResult<()> {
        self.shift()?;
        self.scope = Some(!self.in_scope());
        Ok(())
    }

    /// `%hidden NAME=value`, from `%hidden`.
    fn hidden(&mut self) -> PResult<()> {
        self.shift()?;
        if !matches!(self.peek(), Tok::Equals(_)) {
            return self.syntax_error();
        }
        if let Tok::Equals(t) = self.shift()? {
            if self.in_scope() {
                self.lx.assign(&t, true);
            }
        }
        Ok(())
    }

    /// The whole text. Nesting (blocks, `%if`) is kept in `frames` rather than in native
    /// recursion, so input as deep as tmux accepts needs no deep native stack.
    fn lines(&mut self) -> PResult<Vec<Command>> {
        let mut frames = vec![Frame::Lines { out: Vec::new() }];
        let mut ret = None;
        loop {
            let frame = frames.last_mut().expect("a frame");
            match self.step(frame, ret.take())? {
                Step::Call(f) => frames.push(f),
                Step::Return(r) => {
                    frames.pop();
                    if frames.is_empty() {
                        return Ok(match r {
                            Ret::Cmds(c) => c,
                            Ret::Cmd(_) => unreachable!("the text returns commands"),
                        });
                    }
                    ret = Some(r);
                }
            }
        }
    }

    /// Runs `frame` until it calls another rule or returns; `ret` is what the rule it called
    /// last returned.
    fn step(&mut self, frame: &mut Frame, ret: Option<Ret>) -> PResult<Step> {
        match frame {
            Frame::Lines { out } => {
                if let Some(r) = ret {
                    out.extend(r.cmds());
                    self.expect_newline()?;
                    self.depth = 1;
                }
                if matches!(self.peek(), Tok::End) {
                    return Ok(Step::Return(Ret::Cmds(std::mem::take(out))));
                }
                Ok(Step::Call(Frame::statement(self.depth)))
            }

            Frame::Statement { base, at } => {
                let base = *base;
                match (*at, ret) {
                    (StatementAt::Start, _) => match self.peek() {
                        Tok::Newline | Tok::Close => {
                            self.push()?;
                            Ok(Step::Return(Ret::Cmds(Vec::new())))
                        }
                        Tok::Hidden => {
                            self.hidden()?;
                            self.depth = base + 1;
                            Ok(Step::Return(Ret::Cmds(Vec::new())))
                        }
                        Tok::If => {
                            let flag = self.if_open()?;
                            if matches!(self.peek(), Tok::Newline) {
                                *at = StatementAt::Done;
                                Ok(Step::Call(Frame::condition(base, flag)))
                            } else {
                                *at = StatementAt::Inline;
                                Ok(Step::Call(Frame::condition1(base, flag)))
                            }
                        }
                        Tok::Token(_) | Tok::Equals(_) => {
                            *at = StatementAt::Done;
                            Ok(Step::Call(Frame::commands(base)))
                        }
                        _ => self.syntax_error(),
                    },
                    (StatementAt::Inline, Some(r)) => {
                        // A one-line %if is the first element of a command list.
                        *at = StatementAt::Done;
                        Ok(Step::Call(Frame::Commands {
                            base,
                            list: r.cmds(),
                            at: CommandsAt::Rest,
                        }))
                    }
                    (StatementAt::Done, Some(r)) => {
                        self.depth = base + 1;
                        let cmds = if self.in_scope() {
                            r.cmds()
                        } else {
                            Vec::new()
                        };
                        Ok(Step::Return(Ret::Cmds(cmds)))
                    }
                    (_, None) => unreachable!("statement resumed without a result"),
                }
            }

            Frame::Commands { base, list, at } => {
                let base = *base;
                match (*at, ret) {
                    (CommandsAt::Start, _) => match self.peek() {
                        Tok::If => {
                            let flag = self.if_open()?;
                            *at = CommandsAt::AfterIf;
                            return Ok(Step::Call(Frame::condition1(base, flag)));
                        }
                        Tok::Token(_) | Tok::Equals(_) => {
                            *at = CommandsAt::AfterFirst;
                            return Ok(Step::Call(Frame::command(base)));
                        }
                        _ => return self.syntax_error(),
                    },
                    (CommandsAt::AfterFirst, Some(Ret::Cmd(cmd))) => {
                        if !cmd.argv.is_empty() && self.in_scope() {
                            list.push(cmd);
                        }
                    }
                    (CommandsAt::AfterSemi, Some(Ret::Cmd(cmd))) => {
                        if !cmd.argv.is_empty() && self.in_scope() {
                            list.push(cmd);
                        } else {
                            // tmux replaces the whole list here.
                            list.clear();
                        }
                    }
                    (CommandsAt::AfterIf, Some(r)) => list.extend(r.cmds()),
                    (CommandsAt::Rest, None) => {}
                    _ => unreachable!("commands resumed wrongly"),
                }
                // `;`, then nothing, a command or a one-line %if.
                self.depth = base + 1;
                *at = CommandsAt::Rest;
                while matches!(self.peek(), Tok::Semi) {
                    self.shift()?;
                    match self.peek() {
                        Tok::Token(_) | Tok::Equals(_) => {
                            *at = CommandsAt::AfterSemi;
                            return Ok(Step::Call(Frame::command(self.depth)));
                        }
                        Tok::If => {
                            let at_if = self.depth;
                            let flag = self.if_open()?;
                            *at = CommandsAt::AfterIf;
                            return Ok(Step::Call(Frame::condition1(at_if, flag)));
                        }
                        _ => self.depth = base + 1,
                    }
                }
                Ok(Step::Return(Ret::Cmds(std::mem::take(list))))
            }

            Frame::Condition(c) => self.condition_step(c, true, ret),
            Frame::Condition1(c) => self.condition_step(c, false, ret),

            Frame::Branch { base, out } => {
                let base = *base;
                if let Some(r) = ret {
                    out.extend(r.cmds());
                    self.expect_newline()?;
                    self.depth = base + 1;
                    if matches!(self.peek(), Tok::Elif | Tok::Else | Tok::Endif) {
                        return Ok(Step::Return(Ret::Cmds(std::mem::take(out))));
                    }
                }
                Ok(Step::Call(Frame::statement(self.depth)))
            }

            Frame::Command {
                base,
                argv,
                started,
            } => {
                let base = *base;
                if let Some(r) = ret {
                    argv.push(Arg::Commands(r.cmds()));
                } else if !*started {
                    *started = true;
                    if let Tok::Equals(_) = self.peek() {
                        if let Tok::Equals(t) = self.shift()? {
                            if self.in_scope() {
                                self.lx.assign(&t, false);
                            }
                        }
                        if !matches!(self.peek(), Tok::Token(_)) {
                            return Ok(Step::Return(Ret::Cmd(Command {
                                argv: Vec::new(),
                                line: self.lx.line,
                            })));
                        }
                    } else {
                        // The empty optional assignment.
                        self.push()?;
                    }
                    match self.shift()? {
                        Tok::Token(name) => argv.push(Arg::String(lossy(name))),
                        _ => unreachable!("checked by the caller"),
                    }
                }
                loop {
                    match self.peek() {
                        Tok::Token(_) | Tok::Equals(_) => {
                            if let Tok::Token(t) | Tok::Equals(t) = self.shift()? {
                                argv.push(Arg::String(lossy(t)));
                            }
                        }
                        Tok::Open => {
                            self.shift()?;
                            return Ok(Step::Call(Frame::Block {
                                open: self.depth,
                                out: Vec::new(),
                            }));
                        }
                        _ => break,
                    }
                }
                self.depth = base + 1;
                Ok(Step::Return(Ret::Cmd(Command {
                    argv: std::mem::take(argv),
                    line: self.lx.line,
                })))
            }

            Frame::Block { open, out } => {
                let open = *open;
                if let Some(r) = ret {
                    out.extend(r.cmds());
                    match self.peek() {
                        Tok::Close => {
                            self.shift()?;
                            // The block becomes one argument where the `{` was.
                            self.depth = open;
                            return Ok(Step::Return(Ret::Cmds(std::mem::take(out))));
                        }
                        Tok::Newline => {
                            self.shift()?;
                            self.depth = open + 1;
                        }
                        _ => return self.syntax_error(),
                    }
                }
                Ok(Step::Call(Frame::statement(self.depth)))
            }
        }
    }

    /// A `%if` after its condition: spanning lines (`multi`: each part followed by a newline
    /// and made of statements) or on one line (each part a command list).
    fn condition_step(&mut self, c: &mut Cond, multi: bool, ret: Option<Ret>) -> PResult<Step> {
        let body = |depth| {
            if multi {
                Frame::Branch {
                    base: depth,
                    out: Vec::new(),
                }
            } else {
                Frame::commands(depth)
            }
        };
        match (c.at, ret) {
            (CondAt::Start, _) => {
                if multi {
                    self.expect_newline()?;
                }
                c.at = CondAt::First;
                return Ok(Step::Call(body(self.depth)));
            }
            (CondAt::First, Some(r)) => {
                if c.flag {
                    c.chosen = Some(r.cmds());
                }
            }
            (CondAt::Elif(f), Some(r)) => {
                c.elifs = true;
                if f && c.chosen.is_none() {
                    c.chosen = Some(r.cmds());
                }
            }
            (CondAt::Else, Some(r)) => {
                self.expect_endif()?;
                self.depth = c.base + 1;
                let chosen = c.chosen.take().unwrap_or(r.cmds());
                return Ok(Step::Return(Ret::Cmds(chosen)));
            }
            (_, None) => unreachable!("condition resumed without a result"),
        }
        if matches!(self.peek(), Tok::Elif) {
            let f = self.if_elif()?;
            if multi {
                self.expect_newline()?;
            }
            c.at = CondAt::Elif(f);
            return Ok(Step::Call(body(self.depth)));
        }
        // A chain of %elif becomes one symbol when it ends.
        self.depth = c.base + usize::from(multi) + if c.elifs { 3 } else { 2 };
        if matches!(self.peek(), Tok::Else) {
            self.if_else()?;
            if multi {
                self.expect_newline()?;
            }
            c.at = CondAt::Else;
            return Ok(Step::Call(body(self.depth)));
        }
        self.expect_endif()?;
        self.depth = c.base + 1;
        Ok(Step::Return(Ret::Cmds(c.chosen.take().unwrap_or_default())))
    }
}

/// A rule being parsed, with what it has so far and where it resumes.
enum Frame {
    Lines {
        out: Vec<Command>,
    },
    Statement {
        base: usize,
        at: StatementAt,
    },
    Commands {
        base: usize,
        list: Vec<Command>,
        at: CommandsAt,
    },
    Condition(Cond),
    Condition1(Cond),
    /// The statements of one branch of a `%if` spanning lines.
    Branch {
        base: usize,
        out: Vec<Command>,
    },
    Command {
        base: usize,
        argv: Vec<Arg>,
        started: bool,
    },
    /// After `{`; `open` is the stack depth with the `{` on it.
    Block {
        open: usize,
        out: Vec<Command>,
    },
}

impl Frame {
    fn statement(base: usize) -> Frame {
        Frame::Statement {
            base,
            at: StatementAt::Start,
        }
    }

    fn commands(base: usize) -> Frame {
        Frame::Commands {
            base,
            list: Vec::new(),
            at: CommandsAt::Start,
        }
    }

    fn command(base: usize) -> Frame {
        Frame::Command {
            base,
            argv: Vec::new(),
            started: false,
        }
    }

    fn condition(base: usize, flag: bool) -> Frame {
        Frame::Condition(Cond::new(base, flag))
    }

    fn condition1(base: usize, flag: bool) -> Frame {
        Frame::Condition1(Cond::new(base, flag))
    }
}

#[derive(Clone, Copy)]
enum StatementAt {
    Start,
    /// After a one-line `%if` that starts the statement's command list.
    Inline,
    Done,
}

#[derive(Clone, Copy)]
enum CommandsAt {
    Start,
    AfterFirst,
    AfterSemi,
    AfterIf,
    Rest,
}

#[derive(Clone, Copy)]
enum CondAt {
    Start,
    First,
    Elif(bool),
    Else,
}

/// A `%if` in progress: the depth before `%if`, its truth, the branch taken so far.
struct Cond {
    base: usize,
    flag: bool,
    chosen: Option<Vec<Command>>,
    elifs: bool,
    at: CondAt,
}

impl Cond {
    fn new(base: usize, flag: bool) -> Cond {
        Cond {
            base,
            flag,
            chosen: None,
            elifs: false,
            at: CondAt::Start,
        }
    }
}

enum Step {
    Call(Frame),
    Return(Ret),
}

enum Ret {
    Cmds(Vec<Command>),
    Cmd(Command),
}

impl Ret {
    fn cmds(self) -> Vec<Command> {
        match self {
            Ret::Cmds(c) => c,
            Ret::Cmd(_) => unreachable!("a command list was expected"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Flags: tmux's args_parse.

/// A command's argument rules, as in tmux's command table: the getopt-style flag template
/// (`"dPs:t:"`: a letter, with `:` after it if it takes a value), the number of positional
/// arguments allowed, and which positions may be `{ }` blocks.
#[derive(Clone, Copy, Debug)]
pub struct ArgSpec {
    pub flags: &'static str,
    pub min: usize,
    pub max: Option<usize>,
    /// Whether positional argument `index` (from 0) may be a block, given the flags and
    /// positional arguments parsed so far (tmux's per-command callback); `None`: never.
    pub commands: Option<fn(usize, &Args) -> bool>,
}

impl ArgSpec {
    pub const fn new(flags: &'static str, min: usize, max: Option<usize>) -> ArgSpec {
        ArgSpec {
            flags,
            min,
            max,
            commands: None,
        }
    }

    /// With positional arguments that may be blocks.
    pub const fn with_commands(self, commands: fn(usize, &Args) -> bool) -> ArgSpec {
        ArgSpec {
            commands: Some(commands),
            ..self
        }
    }

    /// Whether `flag` is in the template, and whether it takes a value.
    fn lookup(&self, flag: u8) -> Option<bool> {
        let t = self.flags.as_bytes();
        let i = t.iter().position(|&c| c == flag)?;
        Some(t.get(i + 1) == Some(&b':'))
    }
}

/// Why a command's arguments were rejected. [`fmt::Display`] gives tmux's cause text;
/// [`ArgError::message`] the whole message tmux prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// `-?`: tmux prints the command's usage.
    Usage,
    /// A flag byte that is not an ASCII letter or digit (tmux shows the first byte of a
    /// multibyte character).
    InvalidFlag(u8),
    /// A letter or digit not in the template.
    UnknownFlag(char),
    /// A flag's value would be a `{ }` block.
    FlagNotString(char),
    /// Positional argument number N (from 1) is a block where a string is required.
    NotString(usize),
    /// Fewer positional arguments than the minimum (which is given).
    TooFew(usize),
    /// More positional arguments than the maximum (which is given).
    TooMany(usize),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::Usage => f.write_str("usage"),
            ArgError::InvalidFlag(b) => {
                let c = if b.is_ascii() {
                    char::from(*b)
                } else {
                    '\u{fffd}'
                };
                write!(f, "invalid flag -{c}")
            }
            ArgError::UnknownFlag(c) => write!(f, "unknown flag -{c}"),
            ArgError::FlagNotString(c) => write!(f, "-{c} argument must be a string"),
            ArgError::NotString(n) => write!(f, "argument {n} must be \"string\""),
            ArgError::TooFew(n) => write!(f, "too few arguments (need at least {n})"),
            ArgError::TooMany(n) => write!(f, "too many arguments (need at most {n})"),
        }
    }
}

impl std::error::Error for ArgError {}

impl ArgError {
    /// The message tmux prints for this error on command `name` with usage text `usage`:
    /// `usage: NAME USAGE` for [`ArgError::Usage`], `command NAME: CAUSE` otherwise.
    pub fn message(&self, name: &str, usage: &str) -> String {
        match self {
            ArgError::Usage => format!("usage: {name} {usage}"),
            other => format!("command {name}: {other}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct FlagEntry {
    flag: u8,
    count: usize,
    values: Vec<String>,
}

/// A command's parsed arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    /// Sorted by flag byte, as tmux's tree is.
    flags: Vec<FlagEntry>,
    positional: Vec<Arg>,
}

impl Args {
    fn entry(&self, flag: char) -> Option<&FlagEntry> {
        let b = u8::try_from(flag).ok()?;
        self.flags
            .binary_search_by_key(&b, |e| e.flag)
            .ok()
            .map(|i| &self.flags[i])
    }

    fn set(&mut self, flag: u8, value: Option<String>) {
        let i = match self.flags.binary_search_by_key(&flag, |e| e.flag) {
            Ok(i) => {
                self.flags[i].count += 1;
                i
            }
            Err(i) => {
                self.flags.insert(
                    i,
                    FlagEntry {
                        flag,
                        count: 1,
                        values: Vec::new(),
                    },
                );
                i
            }
        };
        if let Some(v) = value {
            self.flags[i].values.push(v);
        }
    }

    /// Whether the flag was given.
    pub fn has(&self, flag: char) -> bool {
        self.entry(flag).is_some()
    }

    /// How many times the flag was given (tmux's `args_has`).
    pub fn count(&self, flag: char) -> usize {
        self.entry(flag).map_or(0, |e| e.count)
    }

    /// The flag's last value.
    pub fn get(&self, flag: char) -> Option<&str> {
        self.entry(flag)?.values.last().map(String::as_str)
    }

    /// All the flag's values, in order.
    pub fn values(&self, flag: char) -> &[String] {
        self.entry(flag).map_or(&[], |e| &e.values)
    }

    /// The flags given, in byte order.
    pub fn flags(&self) -> impl Iterator<Item = char> + '_ {
        self.flags.iter().map(|e| char::from(e.flag))
    }

    /// The positional arguments.
    pub fn positional(&self) -> &[Arg] {
        &self.positional
    }

    /// Positional argument `i` if it is a string.
    pub fn string(&self, i: usize) -> Option<&str> {
        self.positional.get(i).and_then(Arg::as_str)
    }
}

/// Parses a command's arguments (without the command name) as tmux's `args_parse` does.
pub fn parse_args(spec: &ArgSpec, argv: &[String]) -> Result<Args, ArgError> {
    let values: Vec<Arg> = argv.iter().cloned().map(Arg::String).collect();
    parse_arg_values(spec, &values)
}

/// [`parse_args`] for arguments that may be `{ }` blocks.
///
/// Flags come first: an argument starting with `-` (other than `-` itself) holds one or more
/// flags; `--` ends them, as does the first other argument or block. A flag that takes a
/// value takes the rest of its argument, or the next argument whatever it is, or nothing at
/// the end. Every later argument is positional.
pub fn parse_arg_values(spec: &ArgSpec, argv: &[Arg]) -> Result<Args, ArgError> {
    let mut args = Args::default();
    let mut i = 0;
    while i < argv.len() {
        let Arg::String(s) = &argv[i] else { break };
        let bytes = s.as_bytes();
        if bytes.len() < 2 || bytes[0] != b'-' {
            break;
        }
        i += 1;
        if bytes == b"--" {
            break;
        }
        let mut j = 1;
        while j < bytes.len() {
            let flag = bytes[j];
            j += 1;
            if flag == b'?' {
                return Err(ArgError::Usage);
            }
            if !flag.is_ascii_alphanumeric() {
                return Err(ArgError::InvalidFlag(flag));
            }
            let c = char::from(flag);
            let takes_value = spec.lookup(flag).ok_or(ArgError::UnknownFlag(c))?;
            if !takes_value {
                args.set(flag, None);
                continue;
            }
            if j < bytes.len() {
                args.set(
                    flag,
                    Some(String::from_utf8_lossy(&bytes[j..]).into_owned()),
                );
            } else if i == argv.len() {
                args.set(flag, None);
            } else {
                match &argv[i] {
                    Arg::String(v) => args.set(flag, Some(v.clone())),
                    Arg::Commands(_) => return Err(ArgError::FlagNotString(c)),
                }
                i += 1;
            }
            break;
        }
    }
    for value in &argv[i..] {
        let idx = args.positional.len();
        let block_ok = spec.commands.is_some_and(|f| f(idx, &args));
        if matches!(value, Arg::Commands(_)) && !block_ok {
            return Err(ArgError::NotString(idx + 1));
        }
        args.positional.push(value.clone());
    }
    if args.positional.len() < spec.min {
        return Err(ArgError::TooFew(spec.min));
    }
    if let Some(max) = spec.max {
        if args.positional.len() > max {
            return Err(ArgError::TooMany(max));
        }
    }
    Ok(args)
}
