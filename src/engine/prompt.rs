//! Prompts on a client's status line, edited as tmux 3.3a's `status_prompt_key` edits them:
//! `command-prompt`'s line (`C-b :`, `C-b ,`, ...) and `confirm-before`'s question.
//!
//! An [`Editor`] holds what has been typed and where the cursor is, and reads one key at a
//! time: the emacs keys of `status-keys emacs` (C-a, C-e, C-b, C-f, C-h, C-d, C-k, C-u, C-w,
//! C-y, C-t, M-b, M-f, the arrows, Home, End, Delete, BSpace, Tab to complete, Up and Down
//! for the history, Enter to answer, Escape, C-c and C-g to cancel), or with `status-keys vi`
//! an entry mode and a command mode whose keys are translated into those, as tmux translates
//! them. How a key ends the prompt depends on its [`Entry`]: a line ends at Enter, a single
//! character answers at once (`-1`, confirm-before's `y`), a number ends at the first key
//! that is not a digit, which then goes on as a key (`-N`), a key's name answers at once
//! (`-k`), and an incremental prompt reports every change (`-i`).
//!
//! The history of answers is the server's, one list per prompt type, as tmux keeps it
//! ([`PromptHistory`]); [`replace_template`] puts answers into a command template as tmux's
//! `cmd_template_replace` does.
//!
//! Pure: the engine keeps a client's prompt, draws it (`attach.rs`), gives it the options,
//! paste buffer and completions it needs, and acts on the answer.

use super::keys::{encodes_as, typed_key, Key, KeyModes};

/// The four prompt types, each with its own history (tmux's `prompt_type_strings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptType {
    Command,
    Search,
    Target,
    WindowTarget,
}

impl PromptType {
    pub const ALL: [PromptType; 4] = [
        PromptType::Command,
        PromptType::Search,
        PromptType::Target,
        PromptType::WindowTarget,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PromptType::Command => "command",
            PromptType::Search => "search",
            PromptType::Target => "target",
            PromptType::WindowTarget => "window-target",
        }
    }

    pub fn from_name(name: &str) -> Option<PromptType> {
        PromptType::ALL.into_iter().find(|t| t.name() == name)
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// How a prompt's keys end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A line, answered by Enter.
    Line,
    /// One character (`-1`, confirm-before).
    Single,
    /// Digits, answered by the first other key (`-N`).
    Numeric,
    /// The name of the next key (`-k`).
    KeyName,
    /// Every change is reported (`-i`); Enter ends it.
    Incremental,
}

/// What a prompt does once answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptAction {
    /// `confirm-before`: run `commands` (command text) if confirmed; `waiter`, the client
    /// whose request waits for the answer (none when nobody waits: `-b`, or a key binding).
    Confirm {
        commands: String,
        waiter: Option<u64>,
    },
    /// `command-prompt`: its answers go into `template` (`%1`, `%2`, ... and `%%`), which
    /// then runs; each of `prompts` (text, initial input) asks in turn.
    Command {
        template: String,
        prompts: Vec<(String, String)>,
        answers: Vec<String>,
        waiter: Option<u64>,
    },
    /// Tree mode's questions (`engine/client_tree.rs`).
    Tree(super::tree_mode::TreeAsk),
}

impl PromptAction {
    /// The client whose request waits for the prompt to end.
    pub fn waiter(&self) -> Option<u64> {
        match self {
            PromptAction::Confirm { waiter, .. } | PromptAction::Command { waiter, .. } => *waiter,
            PromptAction::Tree(_) => None,
        }
    }
}

/// A prompt a client shows: its text (expanded, drawn with its styles), what has been typed
/// into it, and what it is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    pub text: String,
    pub entry: Entry,
    pub kind: PromptType,
    pub editor: Editor,
    pub action: PromptAction,
}

/// What a key typed at a prompt did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing to report (the cursor may have moved; the prompt is drawn again).
    Edited,
    /// The text changed; an incremental prompt reports it with this prefix (`=`, `-` after
    /// C-r, `+` after C-s) before the text.
    Changed(char),
    /// The prompt is answered with this text.
    Answered(String),
    /// Enter answered the prompt with this text (which the history keeps).
    Entered(String),
    /// Answered, and the key goes on to be read as a key (a numeric prompt's first other key).
    AnsweredAndPassed(String),
    /// Cancelled (Escape, C-c, C-g).
    Cancelled,
    /// Gone without an answer (a single-character prompt given more than one character).
    Dropped,
}

/// What a key needs from the engine: options, the history, the newest paste buffer and
/// completions.
pub struct KeyContext<'a> {
    /// `status-keys vi`.
    pub vi: bool,
    /// `word-separators`.
    pub separators: &'a str,
    pub history: &'a PromptHistory,
    /// The newest paste buffer, for C-y when nothing was cut.
    pub paste: Option<&'a [u8]>,
    /// Completes a word (the prompt's type, the word, whether it starts the line).
    pub complete: &'a dyn Fn(PromptType, &str, bool) -> Option<String>,
}

/// The text typed into a prompt and its cursor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Editor {
    buffer: Vec<char>,
    /// The cursor: an index into `buffer`, at most its length.
    index: usize,
    /// `status-keys vi`'s command mode (Escape from entry).
    pub vi_command: bool,
    /// What C-w cut, which C-y puts back before the paste buffer.
    saved: Option<Vec<char>>,
    /// How far back in the history Up has gone (0: not at all).
    history_index: usize,
    /// An incremental prompt's initial text, which C-r or C-s on an empty line brings back.
    last: String,
}

impl Editor {
    /// An editor holding `input`, the cursor at its end; an incremental prompt starts empty
    /// and keeps `input` for C-r and C-s.
    pub fn new(input: &str, entry: Entry) -> Editor {
        let mut e = Editor::default();
        if entry == Entry::Incremental {
            e.last = input.to_string();
        } else {
            e.set(input);
        }
        e
    }

    /// The text typed.
    pub fn text(&self) -> String {
        self.buffer.iter().collect()
    }

    /// The text as characters, and the cursor's index into them.
    pub fn chars(&self) -> (&[char], usize) {
        (&self.buffer, self.index)
    }

    fn set(&mut self, text: &str) {
        self.buffer = text.chars().collect();
        self.index = self.buffer.len();
    }

    /// Reads one key (its bytes as the terminal sent them) in the way `entry` says.
    pub fn key(
        &mut self,
        typed: &[u8],
        modes: KeyModes,
        entry: Entry,
        kind: PromptType,
        cx: &KeyContext<'_>,
    ) -> Outcome {
        let Some(key) = prompt_key(typed, modes) else {
            return Outcome::Edited;
        };
        match entry {
            Entry::KeyName => return Outcome::Answered(key.name()),
            Entry::Numeric
                if !key.char().is_some_and(|c| c.is_ascii_digit()) || key.modifiers() != 0 =>
            {
                return Outcome::AnsweredAndPassed(self.text());
            }
            Entry::Numeric => return self.append(key, entry),
            _ => {}
        }
        let key = if cx.vi {
            match self.translate_vi(key) {
                Vi::Drop => return Outcome::Edited,
                Vi::Append(key) => return self.append(key, entry),
                Vi::Process(key) => key,
            }
        } else {
            key
        };
        self.process(key, entry, kind, cx)
    }

    /// tmux's `status_prompt_translate_key`: in entry mode Escape goes to command mode and
    /// the editing keys pass; in command mode vi's keys become emacs ones.
    fn translate_vi(&mut self, key: Key) -> Vi {
        let raw = key.raw();
        if !self.vi_command {
            if raw == 0x1b {
                self.vi_command = true;
                return Vi::Drop;
            }
            let passes = matches!(
                raw,
                1 | 3 | 5 | 7 | 8 | 9 | 0xb | 0xe | 0x10 | 0x14 | 0x15 | 0x17 | 0x19 | 0xa | 0xd
            ) || [
                Key::BSPACE,
                Key::DC,
                Key::DOWN,
                Key::END,
                Key::HOME,
                Key::LEFT,
                Key::RIGHT,
                Key::UP,
            ]
            .contains(&key)
                || key == ctrl(Key::LEFT)
                || key == ctrl(Key::RIGHT);
            return if passes {
                Vi::Process(key)
            } else {
                Vi::Append(key)
            };
        }
        let c = key.char().filter(|_| key.modifiers() == 0);
        match c {
            Some('A' | 'I' | 'C' | 's' | 'a') => self.vi_command = false,
            Some('S') => {
                self.vi_command = false;
                return Vi::Process(Key::from_char('\x15'));
            }
            Some('i' | '\x1b') => {
                self.vi_command = false;
                return Vi::Drop;
            }
            _ => {}
        }
        let to = |k: Key| Vi::Process(k);
        match c {
            Some('A' | '$') => to(Key::END),
            Some('I' | '0' | '^') => to(Key::HOME),
            Some('C' | 'D') => to(Key::from_char('\x0b')),
            Some('X') => to(Key::BSPACE),
            Some('b') => to(meta('b')),
            Some(c @ ('B' | 'e' | 'E' | 'w' | 'W')) => to(vi_key(c)),
            Some('d') => to(Key::from_char('\x15')),
            Some('p') => to(Key::from_char('\x19')),
            Some('q') => to(Key::from_char('\x03')),
            Some('s' | 'x') => to(Key::DC),
            Some('j') => to(Key::DOWN),
            Some('h') => to(Key::LEFT),
            Some('a' | 'l') => to(Key::RIGHT),
            Some('k') => to(Key::UP),
            Some('\x08' | '\x03' | '\n' | '\r') => to(key),
            _ if key == Key::BSPACE => to(Key::LEFT),
            _ if [Key::DC, Key::DOWN, Key::LEFT, Key::RIGHT, Key::UP].contains(&key) => to(key),
            _ => Vi::Drop,
        }
    }

    /// The emacs keys, as `status_prompt_key` processes them; any other key is typed.
    fn process(
        &mut self,
        key: Key,
        entry: Entry,
        kind: PromptType,
        cx: &KeyContext<'_>,
    ) -> Outcome {
        let Some(edit) = Edit::of(key) else {
            return self.append(key, entry);
        };
        let len = self.buffer.len();
        let separators = cx.separators;
        let changed = match edit {
            Edit::Left => self.moved(self.index.saturating_sub(1)),
            Edit::Right => self.moved((self.index + 1).min(len)),
            Edit::Home => self.moved(0),
            Edit::End => self.moved(len),
            Edit::Complete => self.complete(kind, cx.complete),
            Edit::DeleteBefore if self.index > 0 => {
                self.index -= 1;
                self.buffer.remove(self.index);
                true
            }
            Edit::DeleteUnder if self.index < len => {
                self.buffer.remove(self.index);
                true
            }
            Edit::DeleteBefore | Edit::DeleteUnder => false,
            Edit::DeleteLine => {
                self.buffer.clear();
                self.index = 0;
                true
            }
            Edit::DeleteToEnd => {
                self.buffer.truncate(self.index);
                self.index < len
            }
            Edit::CutWord => {
                let start = self.word_start(separators);
                self.saved = Some(self.buffer.drain(start..self.index).collect());
                self.index = start;
                true
            }
            // As in tmux, a move by words counts as a change (an incremental prompt reports it).
            Edit::NextWord { vi, blanks_only } => {
                self.forward_word(vi, if blanks_only { "" } else { separators });
                true
            }
            Edit::WordEnd { blanks_only } => {
                self.end_word(if blanks_only { "" } else { separators });
                true
            }
            Edit::PreviousWord { blanks_only } => {
                self.index = self.word_start(if blanks_only { "" } else { separators });
                true
            }
            Edit::HistoryUp => match cx.history.up(kind, &mut self.history_index) {
                Some(line) => {
                    self.set(line);
                    true
                }
                None => false,
            },
            Edit::HistoryDown => {
                let line = cx.history.down(kind, &mut self.history_index).to_string();
                self.set(&line);
                true
            }
            Edit::Yank => self.paste(cx.paste),
            Edit::Transpose => self.transpose(),
            Edit::Enter => return Outcome::Entered(self.text()),
            Edit::Cancel => return Outcome::Cancelled,
            Edit::Search(_) if entry != Entry::Incremental => false,
            Edit::Search(_) if self.buffer.is_empty() => {
                let last = self.last.clone();
                self.set(&last);
                true
            }
            Edit::Search(direction) => return Outcome::Changed(direction),
        };
        if changed {
            Outcome::Changed('=')
        } else {
            Outcome::Edited
        }
    }

    /// The cursor moves (not a change).
    fn moved(&mut self, index: usize) -> bool {
        self.index = index;
        false
    }

    /// C-t: the characters before the cursor swap (the one under it and the one before, at
    /// the end the last two), the cursor going past them.
    fn transpose(&mut self) -> bool {
        let i = (self.index + 1).min(self.buffer.len());
        if i < 2 {
            return false;
        }
        self.buffer.swap(i - 2, i - 1);
        self.index = i;
        true
    }

    /// A character typed: inserted at the cursor (control characters, named keys and keys
    /// with modifiers are not). A single-character prompt is answered by it.
    fn append(&mut self, key: Key, entry: Entry) -> Outcome {
        let Some(c) = key
            .char()
            .filter(|c| !c.is_control() && key.modifiers() == 0)
        else {
            return Outcome::Edited;
        };
        self.buffer.insert(self.index, c);
        self.index += 1;
        if entry == Entry::Single {
            return match self.buffer.len() {
                1 => Outcome::Answered(self.text()),
                _ => Outcome::Dropped,
            };
        }
        Outcome::Changed('=')
    }

    /// C-y: what C-w cut, else the newest paste buffer up to its first control character.
    fn paste(&mut self, buffer: Option<&[u8]>) -> bool {
        let text: Vec<char> = match (&self.saved, buffer) {
            (Some(saved), _) => saved.clone(),
            (None, Some(data)) => String::from_utf8_lossy(data)
                .chars()
                .take_while(|c| !c.is_control())
                .collect(),
            (None, None) => return false,
        };
        if text.is_empty() {
            return false;
        }
        let n = text.len();
        self.buffer.splice(self.index..self.index, text);
        self.index += n;
        true
    }

    /// Where the word before the cursor starts (C-w, M-b): back over blanks, then over
    /// characters of the same class (separators or not).
    fn word_start(&self, separators: &str) -> usize {
        let b = &self.buffer;
        let mut i = self.index;
        while i > 0 {
            i -= 1;
            if b[i] != ' ' {
                break;
            }
        }
        let class = b.get(i).is_some_and(|&c| separators.contains(c));
        while i > 0 {
            i -= 1;
            if b[i] == ' ' || separators.contains(b[i]) != class {
                return i + 1;
            }
        }
        i
    }

    /// tmux's `status_prompt_forward_word`.
    fn forward_word(&mut self, vi: bool, separators: &str) {
        let b = &self.buffer;
        let size = b.len();
        let mut i = self.index;
        if !vi {
            while i != size && b[i] == ' ' {
                i += 1;
            }
        }
        if i == size {
            self.index = i;
            return;
        }
        let class = separators.contains(b[i]) && b[i] != ' ';
        loop {
            i += 1;
            if i < size && b[i] == ' ' {
                if vi {
                    while i != size && b[i] == ' ' {
                        i += 1;
                    }
                }
                break;
            }
            if i == size || class != separators.contains(b[i]) {
                break;
            }
        }
        self.index = i;
    }

    /// tmux's `status_prompt_end_word`.
    fn end_word(&mut self, separators: &str) {
        let b = &self.buffer;
        let size = b.len();
        let mut i = self.index;
        if i == size {
            return;
        }
        loop {
            i += 1;
            if i == size {
                self.index = i;
                return;
            }
            if b[i] != ' ' {
                break;
            }
        }
        let class = separators.contains(b[i]);
        loop {
            i += 1;
            if i == size || b[i] == ' ' || class != separators.contains(b[i]) {
                break;
            }
        }
        self.index = i - 1;
    }

    /// Tab: the word at the cursor replaced by its completion (tmux's
    /// `status_prompt_replace_complete`). False when there is none.
    fn complete(
        &mut self,
        kind: PromptType,
        complete: &dyn Fn(PromptType, &str, bool) -> Option<String>,
    ) -> bool {
        let b = &self.buffer;
        let size = b.len();
        let idx = self.index.saturating_sub(1).min(size);
        let mut first = idx;
        while first > 0 && b.get(first) != Some(&' ') {
            first -= 1;
        }
        while first < size && b[first] == ' ' {
            first += 1;
        }
        let mut last = idx;
        while last < size && b[last] != ' ' {
            last += 1;
        }
        while last > 0 && b.get(last).is_none_or(|&c| c == ' ') && last > first {
            last -= 1;
        }
        if last < size {
            last += 1;
        }
        if last < first {
            return false;
        }
        let word: String = b[first..last].iter().collect();
        if word.len() >= 64 {
            return false;
        }
        let Some(new) = complete(kind, &word, first == 0) else {
            return false;
        };
        if new == word {
            return false;
        }
        let n = new.chars().count();
        self.buffer.splice(first..last, new.chars());
        self.index = first + n;
        true
    }
}

/// What an editing key does, as `status_prompt_key` reads the emacs keys (vi's command keys
/// are translated into these first).
#[derive(Clone, Copy)]
enum Edit {
    Left,
    Right,
    Home,
    End,
    Complete,
    DeleteBefore,
    DeleteUnder,
    DeleteLine,
    DeleteToEnd,
    CutWord,
    NextWord {
        vi: bool,
        blanks_only: bool,
    },
    WordEnd {
        blanks_only: bool,
    },
    PreviousWord {
        blanks_only: bool,
    },
    HistoryUp,
    HistoryDown,
    Yank,
    Transpose,
    Enter,
    Cancel,
    /// C-r (`-`) or C-s (`+`) at an incremental prompt.
    Search(char),
}

impl Edit {
    fn of(key: Key) -> Option<Edit> {
        let named = [
            (Key::LEFT, Edit::Left),
            (Key::RIGHT, Edit::Right),
            (Key::HOME, Edit::Home),
            (Key::END, Edit::End),
            (Key::BSPACE, Edit::DeleteBefore),
            (Key::DC, Edit::DeleteUnder),
            (Key::UP, Edit::HistoryUp),
            (Key::DOWN, Edit::HistoryDown),
            (
                ctrl(Key::RIGHT),
                Edit::NextWord {
                    vi: false,
                    blanks_only: false,
                },
            ),
            (ctrl(Key::LEFT), Edit::PreviousWord { blanks_only: false }),
            (
                meta('f'),
                Edit::NextWord {
                    vi: false,
                    blanks_only: false,
                },
            ),
            (meta('b'), Edit::PreviousWord { blanks_only: false }),
            (
                vi_key('w'),
                Edit::NextWord {
                    vi: true,
                    blanks_only: false,
                },
            ),
            (
                vi_key('W'),
                Edit::NextWord {
                    vi: true,
                    blanks_only: true,
                },
            ),
            (vi_key('e'), Edit::WordEnd { blanks_only: false }),
            (vi_key('E'), Edit::WordEnd { blanks_only: true }),
            (vi_key('B'), Edit::PreviousWord { blanks_only: true }),
        ];
        if let Some(&(_, edit)) = named.iter().find(|(k, _)| *k == key) {
            return Some(edit);
        }
        Some(match key.raw() {
            0x01 => Edit::Home,
            0x02 => Edit::Left,
            0x03 | 0x07 | 0x1b => Edit::Cancel,
            0x04 => Edit::DeleteUnder,
            0x05 => Edit::End,
            0x06 => Edit::Right,
            0x08 => Edit::DeleteBefore,
            0x09 => Edit::Complete,
            0x0a | 0x0d => Edit::Enter,
            0x0b => Edit::DeleteToEnd,
            0x0e => Edit::HistoryDown,
            0x10 => Edit::HistoryUp,
            0x12 => Edit::Search('-'),
            0x13 => Edit::Search('+'),
            0x14 => Edit::Transpose,
            0x15 => Edit::DeleteLine,
            0x17 => Edit::CutWord,
            0x19 => Edit::Yank,
            _ => return None,
        })
    }
}

/// A vi key translation's result.
enum Vi {
    Drop,
    Process(Key),
    Append(Key),
}

/// tmux's internal `KEYC_VI` keys: vi's word moves, which have no emacs key.
fn vi_key(c: char) -> Key {
    const KEYC_VI: u64 = 1 << 52;
    Key::from_raw(c as u64 | KEYC_VI)
}

fn meta(c: char) -> Key {
    Key::from_char(c).with_modifiers(Key::META)
}

fn ctrl(key: Key) -> Key {
    key.with_modifiers(Key::CTRL).without_flags()
}

/// The key a prompt reads from a terminal's bytes: a character (with Meta after Escape), or
/// one of the named keys it edits with, in the pane's key modes or the default ones.
pub fn prompt_key(typed: &[u8], modes: KeyModes) -> Option<Key> {
    if let Some(key) = typed_key(typed) {
        return Some(key);
    }
    let named = [
        Key::UP,
        Key::DOWN,
        Key::LEFT,
        Key::RIGHT,
        Key::HOME,
        Key::END,
        Key::DC,
        Key::NPAGE,
        Key::PPAGE,
        Key::IC,
        Key::BTAB,
    ];
    let keys = named.into_iter().chain([ctrl(Key::LEFT), ctrl(Key::RIGHT)]);
    keys.chain((1..=12).filter_map(|n| super::keys::parse_key(&format!("F{n}"))))
        .find(|&k| encodes_as(k, typed, modes))
}

/// The answer a key gives confirm-before's question: `y` or `Y` alone confirms.
pub fn confirms(answer: Option<&str>) -> bool {
    matches!(answer, Some("y" | "Y"))
}

/// The server's prompt history: each type's answers, oldest first.
#[derive(Debug, Default)]
pub struct PromptHistory {
    lists: [Vec<String>; 4],
}

impl PromptHistory {
    pub fn list(&self, kind: PromptType) -> &[String] {
        &self.lists[kind.index()]
    }

    /// Adds an answer, as `status_prompt_add_history`: not twice in a row, and the oldest
    /// dropped past `limit` (`prompt-history-limit`; 0 keeps none).
    pub fn add(&mut self, kind: PromptType, line: &str, limit: usize) {
        let list = &mut self.lists[kind.index()];
        if list.last().is_some_and(|l| l == line) {
            return;
        }
        list.push(line.to_string());
        let excess = list.len().saturating_sub(limit);
        list.drain(..excess);
    }

    /// Empties one type's history, or every one.
    pub fn clear(&mut self, kind: Option<PromptType>) {
        for t in PromptType::ALL {
            if kind.is_none_or(|k| k == t) {
                self.lists[t.index()].clear();
            }
        }
    }

    /// Up: the answer before the one shown, if any.
    fn up(&self, kind: PromptType, index: &mut usize) -> Option<&str> {
        let list = self.list(kind);
        if list.is_empty() || *index == list.len() {
            return None;
        }
        *index += 1;
        Some(&list[list.len() - *index])
    }

    /// Down: the answer after the one shown, or an empty line past the newest.
    fn down(&self, kind: PromptType, index: &mut usize) -> &str {
        let list = self.list(kind);
        if list.is_empty() || *index == 0 {
            return "";
        }
        *index -= 1;
        match *index {
            0 => "",
            i => &list[list.len() - i],
        }
    }
}

/// Puts answer `s` into `template` as argument `idx` (from 1), as tmux's
/// `cmd_template_replace`: `%idx`, and the first `%%` when nothing else took this answer;
/// `%idx%` or `%%%` escape the answer's `"`, `\`, `$`, `;` and `~` for double quotes.
///
/// zeropty holds a `{ }` template as text, where `%%` is always inside double quotes; an
/// answer that lands inside double quotes is escaped there too, so it stays one argument
/// as it does in tmux's parsed block.
pub fn replace_template(template: &str, s: &str, idx: usize) -> String {
    if !template.contains('%') {
        return template.to_string();
    }
    let t: Vec<char> = template.chars().collect();
    let mut out = String::new();
    let mut replaced = false;
    // Which quotes the text around a placeholder is in: none, '\'' or '"'.
    let mut quote = None;
    let mut i = 0;
    while i < t.len() {
        let c = t[i];
        i += 1;
        let escaped = i >= 2 && t[i - 2] == '\\' && quote != Some('\'');
        match (quote, c) {
            (None, '"' | '\'') if !escaped => quote = Some(c),
            (Some(q), _) if q == c && !escaped => quote = None,
            _ => {}
        }
        let quoted_by_text = quote == Some('"');
        if c != '%' {
            out.push(c);
            continue;
        }
        let next = t.get(i).copied();
        let matches_index = next
            .and_then(|d| d.to_digit(10))
            .is_some_and(|d| d as usize == idx && d != 0);
        if !matches_index {
            if next != Some('%') || replaced {
                out.push(c);
                continue;
            }
            replaced = true;
        }
        i += 1;
        let quoted = t.get(i) == Some(&'%');
        if quoted {
            i += 1;
        }
        for ch in s.chars() {
            if (quoted || quoted_by_text) && "\"\\$;~".contains(ch) {
                out.push('\\');
            }
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_completion(_: PromptType, _: &str, _: bool) -> Option<String> {
        None
    }

    fn typed(
        editor: &mut Editor,
        keys: &[&[u8]],
        vi: bool,
        history: &PromptHistory,
    ) -> Vec<Outcome> {
        let cx = KeyContext {
            vi,
            separators: "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~",
            history,
            paste: Some(b"pasted\nnot this"),
            complete: &|kind, word, start| match (kind, word, start) {
                (PromptType::Command, "ren", true) => Some("rename-".into()),
                (PromptType::Command, "new-w", true) => Some("new-window ".into()),
                _ => no_completion(kind, word, start),
            },
        };
        keys.iter()
            .map(|k| {
                editor.key(
                    k,
                    KeyModes::default(),
                    Entry::Line,
                    PromptType::Command,
                    &cx,
                )
            })
            .collect()
    }

    fn edit(start: &str, keys: &[&[u8]]) -> (String, usize) {
        let mut e = Editor::new(start, Entry::Line);
        typed(&mut e, keys, false, &PromptHistory::default());
        (e.text(), e.index)
    }

    #[test]
    fn emacs_keys_edit_as_tmux_edits() {
        assert_eq!(edit("", &[b"a", b"b", b"\x1b[D", b"c"]), ("acb".into(), 2));
        assert_eq!(
            edit("hello", &[b"\x01", b"\x06", b"\x7f"]),
            ("ello".into(), 0)
        );
        assert_eq!(
            edit("hello", &[b"\x01", b"\x04", b"\x05"]),
            ("ello".into(), 4)
        );
        assert_eq!(edit("one two", &[b"\x17"]), ("one ".into(), 4));
        assert_eq!(
            edit("one two", &[b"\x17", b"\x01", b"\x19"]),
            ("twoone ".into(), 3)
        );
        assert_eq!(edit("one two", &[b"\x1bb", b"\x0b"]), ("one ".into(), 4));
        assert_eq!(edit("one two", &[b"\x01", b"\x1bf"]), ("one two".into(), 3));
        assert_eq!(edit("a-b", &[b"\x17"]), ("a-".into(), 2));
        assert_eq!(edit("ab", &[b"\x14"]), ("ba".into(), 2));
        assert_eq!(edit("abc", &[b"\x15", b"x"]), ("x".into(), 1));
        assert_eq!(edit("x", &[b"\x19"]), ("xpasted".into(), 7));
        assert_eq!(edit("ren", &[b"\t"]), ("rename-".into(), 7));
        assert_eq!(
            edit("new-w", &[b"\t", b"-", b"d"]),
            ("new-window -d".into(), 13)
        );
        // Keys with modifiers and control characters insert nothing.
        assert_eq!(edit("", &[b"\x1bx", b"\x02", b"\x1b[1;5A"]), ("".into(), 0));
    }

    #[test]
    fn enter_answers_and_escape_cancels() {
        let mut e = Editor::new("kill-server", Entry::Line);
        let h = PromptHistory::default();
        assert_eq!(
            typed(&mut e, &[b"\r"], false, &h),
            [Outcome::Entered("kill-server".into())]
        );
        assert_eq!(typed(&mut e, &[b"\x1b"], false, &h), [Outcome::Cancelled]);
        assert_eq!(typed(&mut e, &[b"\x07"], false, &h), [Outcome::Cancelled]);
    }

    #[test]
    fn vi_keys_translate_as_tmux_translates_them() {
        let h = PromptHistory::default();
        let mut e = Editor::new("one two", Entry::Line);
        typed(&mut e, &[b"\x1b", b"0", b"x", b"w"], true, &h);
        assert_eq!(
            (e.text(), e.index, e.vi_command),
            ("ne two".into(), 3, true)
        );
        typed(&mut e, &[b"i", b"X", b"\x1b", b"$", b"a", b"!"], true, &h);
        assert_eq!((e.text(), e.vi_command), ("ne Xtwo!".into(), false));
        typed(&mut e, &[b"\x1b", b"S", b"z"], true, &h);
        assert_eq!(e.text(), "z");
        assert_eq!(
            typed(&mut e, &[b"\x1b", b"q"], true, &h),
            [Outcome::Edited, Outcome::Cancelled]
        );
    }

    #[test]
    fn the_history_goes_back_and_forth() {
        let mut h = PromptHistory::default();
        for line in ["one", "two", "two", "three"] {
            h.add(PromptType::Command, line, 100);
        }
        assert_eq!(h.list(PromptType::Command), ["one", "two", "three"]);
        let mut e = Editor::new("", Entry::Line);
        typed(&mut e, &[b"\x1b[A", b"\x1b[A"], false, &h);
        assert_eq!(e.text(), "two");
        typed(&mut e, &[b"\x10", b"\x10"], false, &h);
        assert_eq!(e.text(), "one");
        typed(&mut e, &[b"\x1b[B"], false, &h);
        assert_eq!(e.text(), "two");
        typed(&mut e, &[b"\x0e", b"\x0e"], false, &h);
        assert_eq!(e.text(), "");
        h.add(PromptType::Command, "four", 2);
        assert_eq!(h.list(PromptType::Command), ["three", "four"]);
        h.clear(Some(PromptType::Search));
        assert_eq!(h.list(PromptType::Command).len(), 2);
        h.clear(None);
        assert!(h.list(PromptType::Command).is_empty());
    }

    #[test]
    fn entries_end_as_tmux_ends_them() {
        let h = PromptHistory::default();
        let cx = KeyContext {
            vi: false,
            separators: "",
            history: &h,
            paste: None,
            complete: &no_completion,
        };
        let m = KeyModes::default();
        let c = PromptType::Command;
        let mut e = Editor::new("", Entry::Single);
        assert_eq!(
            e.key(b"y", m, Entry::Single, c, &cx),
            Outcome::Answered("y".into())
        );
        let mut e = Editor::new("", Entry::Single);
        assert_eq!(
            e.key(b"\r", m, Entry::Single, c, &cx),
            Outcome::Entered(String::new())
        );
        assert_eq!(e.key(b"\x1b[A", m, Entry::Single, c, &cx), Outcome::Edited);
        let mut e = Editor::new("x", Entry::Single);
        assert_eq!(e.key(b"y", m, Entry::Single, c, &cx), Outcome::Dropped);
        let mut e = Editor::new("", Entry::Numeric);
        assert_eq!(
            e.key(b"4", m, Entry::Numeric, c, &cx),
            Outcome::Changed('=')
        );
        assert_eq!(
            e.key(b"2", m, Entry::Numeric, c, &cx),
            Outcome::Changed('=')
        );
        assert_eq!(
            e.key(b"j", m, Entry::Numeric, c, &cx),
            Outcome::AnsweredAndPassed("42".into())
        );
        let mut e = Editor::new("", Entry::KeyName);
        assert_eq!(
            e.key(b"\x1b[A", m, Entry::KeyName, c, &cx),
            Outcome::Answered("Up".into())
        );
        assert_eq!(
            e.key(b"\x02", m, Entry::KeyName, c, &cx),
            Outcome::Answered("C-b".into())
        );
        let mut e = Editor::new("last", Entry::Incremental);
        assert_eq!(e.text(), "");
        assert_eq!(
            e.key(b"\x12", m, Entry::Incremental, c, &cx),
            Outcome::Changed('=')
        );
        assert_eq!(e.text(), "last");
        assert_eq!(
            e.key(b"\x13", m, Entry::Incremental, c, &cx),
            Outcome::Changed('+')
        );
    }

    #[test]
    fn templates_take_answers_as_tmux_puts_them() {
        assert_eq!(replace_template("%1", "new-window -d", 1), "new-window -d");
        assert_eq!(
            replace_template("rename-window '%%'", "a b", 1),
            "rename-window 'a b'"
        );
        assert_eq!(
            replace_template("rename-window \"%%\"", "say \"hi\" $X", 1),
            "rename-window \"say \\\"hi\\\" \\$X\""
        );
        assert_eq!(replace_template("a %% b %%", "x", 1), "a x b %%");
        assert_eq!(
            replace_template(&replace_template("a %% b %%", "x", 1), "y", 2),
            "a x b y"
        );
        assert_eq!(replace_template("a %2 %1", "x", 1), "a %2 x");
        assert_eq!(replace_template("%%%", "a;b", 1), "a\\;b");
        assert_eq!(replace_template("100%", "x", 1), "100%");
    }

    #[test]
    fn confirmation_is_y_alone() {
        assert!(confirms(Some("y")) && confirms(Some("Y")));
        assert!(!confirms(Some("n")) && !confirms(Some("")) && !confirms(None));
    }
}
