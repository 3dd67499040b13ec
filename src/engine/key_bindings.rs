//! Key tables: what a key typed on an attached client runs, kept as tmux 3.3a keeps them
//! (`bind-key`, `unbind-key`, `list-keys`, `switch-client -T`, the session's `key-table`).
//!
//! A table maps keys to bindings: the commands to run (as `list-keys` prints them), a note
//! and whether the key repeats. The server starts with tmux 3.3a's tables (`copy-mode`,
//! `copy-mode-vi`, `prefix`, `root`: [`DEFAULT_BINDINGS`], generated from tmux itself by
//! `scripts/gen-key-bindings.py`), and they stay that static data until a command changes a
//! table or a client's key is looked up: a server nobody binds keys on or types into holds
//! none of them in its heap (built, the 255 defaults take 29.8 KB: `examples/screen_memory`). Bindings to commands
//! zeropty does not have (the interactive modes and menus) are listed as tmux lists them and
//! fail when run.
//!
//! Invariants, as tmux's: tables are in name order, keys in key-code order (tmux's order for
//! every key but non-ASCII characters, which tmux orders by their UTF-8 bytes); a key carries
//! none of tmux's flags; a table goes when its last binding is unbound unless it is one of the
//! defaults (which stays, empty, until `unbind-key -a` removes it); a binding's command list
//! may be empty (`bind-key x ''`).

use super::keys::{parse_key, Key};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// One binding: what `list-keys` shows of it and what a key press runs. A default binding's
/// texts are the static data's own, not copies: built, the 255 defaults hold 29.8 KB of heap
/// (`examples/screen_memory` counts it), and held 69.5 KB with their texts copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub repeat: bool,
    pub note: Option<Cow<'static, str>>,
    /// The commands as `list-keys` prints them (`cmd_list_print` escaped: ` \; ` between
    /// them, which no printed argument contains).
    listed: Cow<'static, str>,
}

impl Binding {
    /// A binding to `commands`, each as tmux prints it (`cmd_print`).
    pub fn new(repeat: bool, note: Option<String>, commands: &[String]) -> Binding {
        Binding {
            repeat,
            note: note.map(Cow::Owned),
            listed: Cow::Owned(commands.join(" \\; ")),
        }
    }

    /// The commands as command text, to parse and run.
    pub fn text(&self) -> String {
        self.listed.replace(" \\; ", " ; ")
    }

    /// The commands as `list-keys` prints them.
    pub fn listed(&self) -> &str {
        &self.listed
    }
}

#[derive(Clone, Debug, Default)]
pub struct Table {
    pub bindings: BTreeMap<Key, Binding>,
    /// One of the tables the server starts with: it stays when emptied.
    has_defaults: bool,
}

pub type Tables = BTreeMap<String, Table>;

/// Every key table: tmux's defaults as static data until a command changes a table or a
/// client's key is looked up.
#[derive(Debug, Default)]
pub struct KeyTables {
    built: Option<Tables>,
}

impl KeyTables {
    /// Every table, built from the defaults for the caller when none has been built.
    pub fn tables(&self) -> Cow<'_, Tables> {
        match &self.built {
            Some(t) => Cow::Borrowed(t),
            None => Cow::Owned(default_tables()),
        }
    }

    fn tables_mut(&mut self) -> &mut Tables {
        self.built.get_or_insert_with(default_tables)
    }

    pub fn has_table(&self, name: &str) -> bool {
        match &self.built {
            Some(t) => t.contains_key(name),
            None => DEFAULT_BINDINGS.iter().any(|d| d.0 == name),
        }
    }

    /// `key`'s binding in `table`.
    pub fn binding(&mut self, table: &str, key: Key) -> Option<&Binding> {
        self.tables_mut()
            .get(table)?
            .bindings
            .get(&key.without_flags())
    }

    /// The first binding in `table` whose key `matches`, with its key.
    pub fn binding_where(
        &mut self,
        table: &str,
        matches: impl Fn(Key) -> bool,
    ) -> Option<(Key, &Binding)> {
        let bindings = &self.tables_mut().get(table)?.bindings;
        bindings
            .iter()
            .find(|(k, _)| matches(**k))
            .map(|(k, b)| (*k, b))
    }

    /// Binds `key` in `table` (made when missing) to `commands`; with no commands only the
    /// note of an existing binding changes, as tmux's `bind-key` with a key alone does.
    pub fn bind(
        &mut self,
        table: &str,
        key: Key,
        note: Option<String>,
        repeat: bool,
        commands: Option<Vec<String>>,
    ) {
        let key = key.without_flags();
        let bindings = &mut self.tables_mut().entry(table.into()).or_default().bindings;
        match commands {
            Some(commands) => {
                bindings.insert(key, Binding::new(repeat, note, &commands));
            }
            None => {
                if let Some(b) = bindings.get_mut(&key) {
                    b.note = note.map(Cow::Owned);
                }
            }
        }
    }

    /// Removes `key`'s binding from `table`; a table left empty goes unless it is a default.
    pub fn unbind(&mut self, table: &str, key: Key) {
        let tables = self.tables_mut();
        let Some(t) = tables.get_mut(table) else {
            return;
        };
        if t.bindings.remove(&key.without_flags()).is_some()
            && t.bindings.is_empty()
            && !t.has_defaults
        {
            tables.remove(table);
        }
    }

    /// Removes a whole table, defaults and all.
    pub fn remove_table(&mut self, table: &str) {
        self.tables_mut().remove(table);
    }
}

/// A row of [`DEFAULT_BINDINGS`]: table, key name, repeats, note (empty for none), commands
/// as `list-keys` prints them.
type DefaultBinding = (&'static str, &'static str, bool, &'static str, &'static str);

fn default_binding(d: &DefaultBinding) -> (Key, Binding) {
    let &(_, name, repeat, note, listed) = d;
    let key = parse_key(name).map_or(Key::from_raw(0), Key::without_flags);
    let binding = Binding {
        repeat,
        note: (!note.is_empty()).then_some(Cow::Borrowed(note)),
        listed: Cow::Borrowed(listed),
    };
    (key, binding)
}

fn default_tables() -> Tables {
    let mut tables = Tables::new();
    for d in DEFAULT_BINDINGS {
        let table = tables.entry(d.0.to_string()).or_insert_with(|| Table {
            bindings: BTreeMap::new(),
            has_defaults: true,
        });
        let (key, binding) = default_binding(d);
        table.bindings.insert(key, binding);
    }
    tables
}

// BEGIN GENERATED by scripts/gen-key-bindings.py (do not edit by hand)
const DEFAULT_BINDINGS: &[DefaultBinding] = &[
    ("copy-mode", "C-Space", false, "", "send-keys -X begin-selection"),
    ("copy-mode", "C-a", false, "", "send-keys -X start-of-line"),
    ("copy-mode", "C-b", false, "", "send-keys -X cursor-left"),
    ("copy-mode", "C-c", false, "", "send-keys -X cancel"),
    ("copy-mode", "C-e", false, "", "send-keys -X end-of-line"),
    ("copy-mode", "C-f", false, "", "send-keys -X cursor-right"),
    ("copy-mode", "C-g", false, "", "send-keys -X clear-selection"),
    ("copy-mode", "C-k", false, "", "send-keys -X copy-pipe-end-of-line-and-cancel"),
    ("copy-mode", "C-n", false, "", "send-keys -X cursor-down"),
    ("copy-mode", "C-p", false, "", "send-keys -X cursor-up"),
    ("copy-mode", "C-r", false, "", "command-prompt -i -I \"#{pane_search_string}\" -T search -p \"(search up)\" { send-keys -X search-backward-incremental \"%%\" }"),
    ("copy-mode", "C-s", false, "", "command-prompt -i -I \"#{pane_search_string}\" -T search -p \"(search down)\" { send-keys -X search-forward-incremental \"%%\" }"),
    ("copy-mode", "C-v", false, "", "send-keys -X page-down"),
    ("copy-mode", "C-w", false, "", "send-keys -X copy-pipe-and-cancel"),
    ("copy-mode", "Escape", false, "", "send-keys -X cancel"),
    ("copy-mode", "Space", false, "", "send-keys -X page-down"),
    ("copy-mode", ",", false, "", "send-keys -X jump-reverse"),
    ("copy-mode", ";", false, "", "send-keys -X jump-again"),
    ("copy-mode", "F", false, "", "command-prompt -1 -p \"(jump backward)\" { send-keys -X jump-backward \"%%\" }"),
    ("copy-mode", "N", false, "", "send-keys -X search-reverse"),
    ("copy-mode", "P", false, "", "send-keys -X toggle-position"),
    ("copy-mode", "R", false, "", "send-keys -X rectangle-toggle"),
    ("copy-mode", "T", false, "", "command-prompt -1 -p \"(jump to backward)\" { send-keys -X jump-to-backward \"%%\" }"),
    ("copy-mode", "X", false, "", "send-keys -X set-mark"),
    ("copy-mode", "f", false, "", "command-prompt -1 -p \"(jump forward)\" { send-keys -X jump-forward \"%%\" }"),
    ("copy-mode", "g", false, "", "command-prompt -p \"(goto line)\" { send-keys -X goto-line \"%%\" }"),
    ("copy-mode", "n", false, "", "send-keys -X search-again"),
    ("copy-mode", "q", false, "", "send-keys -X cancel"),
    ("copy-mode", "r", false, "", "send-keys -X refresh-from-pane"),
    ("copy-mode", "t", false, "", "command-prompt -1 -p \"(jump to forward)\" { send-keys -X jump-to-forward \"%%\" }"),
    ("copy-mode", "MouseDown1Pane", false, "", "select-pane"),
    ("copy-mode", "MouseDrag1Pane", false, "", "select-pane \\; send-keys -X begin-selection"),
    ("copy-mode", "MouseDragEnd1Pane", false, "", "send-keys -X copy-pipe-and-cancel"),
    ("copy-mode", "WheelUpPane", false, "", "select-pane \\; send-keys -X -N 5 scroll-up"),
    ("copy-mode", "WheelDownPane", false, "", "select-pane \\; send-keys -X -N 5 scroll-down"),
    ("copy-mode", "DoubleClick1Pane", false, "", "select-pane \\; send-keys -X select-word \\; run-shell -d 0.3 \\; send-keys -X copy-pipe-and-cancel"),
    ("copy-mode", "TripleClick1Pane", false, "", "select-pane \\; send-keys -X select-line \\; run-shell -d 0.3 \\; send-keys -X copy-pipe-and-cancel"),
    ("copy-mode", "Home", false, "", "send-keys -X start-of-line"),
    ("copy-mode", "End", false, "", "send-keys -X end-of-line"),
    ("copy-mode", "NPage", false, "", "send-keys -X page-down"),
    ("copy-mode", "PPage", false, "", "send-keys -X page-up"),
    ("copy-mode", "Up", false, "", "send-keys -X cursor-up"),
    ("copy-mode", "Down", false, "", "send-keys -X cursor-down"),
    ("copy-mode", "Left", false, "", "send-keys -X cursor-left"),
    ("copy-mode", "Right", false, "", "send-keys -X cursor-right"),
    ("copy-mode", "M-C-b", false, "", "send-keys -X previous-matching-bracket"),
    ("copy-mode", "M-C-f", false, "", "send-keys -X next-matching-bracket"),
    ("copy-mode", "M-1", false, "", "command-prompt -N -I 1 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode", "M-2", false, "", "command-prompt -N -I 2 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode", "M-3", false, "", "command-prompt -N -I 3 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode", "M-4", false, "", "command-prompt -N -I 4 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode", "M-5", false, "", "command-prompt -N -I 5 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode", "M-6", false, "", "command-prompt -N -I 6 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode", "M-7", false, "", "command-prompt -N -I 7 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode", "M-8", false, "", "command-prompt -N -I 8 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode", "M-9", false, "", "command-prompt -N -I 9 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode", "M-<", false, "", "send-keys -X history-top"),
    ("copy-mode", "M->", false, "", "send-keys -X history-bottom"),
    ("copy-mode", "M-R", false, "", "send-keys -X top-line"),
    ("copy-mode", "M-b", false, "", "send-keys -X previous-word"),
    ("copy-mode", "M-f", false, "", "send-keys -X next-word-end"),
    ("copy-mode", "M-m", false, "", "send-keys -X back-to-indentation"),
    ("copy-mode", "M-r", false, "", "send-keys -X middle-line"),
    ("copy-mode", "M-v", false, "", "send-keys -X page-up"),
    ("copy-mode", "M-w", false, "", "send-keys -X copy-pipe-and-cancel"),
    ("copy-mode", "M-x", false, "", "send-keys -X jump-to-mark"),
    ("copy-mode", "M-{", false, "", "send-keys -X previous-paragraph"),
    ("copy-mode", "M-}", false, "", "send-keys -X next-paragraph"),
    ("copy-mode", "M-Up", false, "", "send-keys -X halfpage-up"),
    ("copy-mode", "M-Down", false, "", "send-keys -X halfpage-down"),
    ("copy-mode", "C-Up", false, "", "send-keys -X scroll-up"),
    ("copy-mode", "C-Down", false, "", "send-keys -X scroll-down"),
    ("copy-mode-vi", "C-b", false, "", "send-keys -X page-up"),
    ("copy-mode-vi", "C-c", false, "", "send-keys -X cancel"),
    ("copy-mode-vi", "C-d", false, "", "send-keys -X halfpage-down"),
    ("copy-mode-vi", "C-e", false, "", "send-keys -X scroll-down"),
    ("copy-mode-vi", "C-f", false, "", "send-keys -X page-down"),
    ("copy-mode-vi", "C-h", false, "", "send-keys -X cursor-left"),
    ("copy-mode-vi", "C-j", false, "", "send-keys -X copy-pipe-and-cancel"),
    ("copy-mode-vi", "Enter", false, "", "send-keys -X copy-pipe-and-cancel"),
    ("copy-mode-vi", "C-u", false, "", "send-keys -X halfpage-up"),
    ("copy-mode-vi", "C-v", false, "", "send-keys -X rectangle-toggle"),
    ("copy-mode-vi", "C-y", false, "", "send-keys -X scroll-up"),
    ("copy-mode-vi", "Escape", false, "", "send-keys -X clear-selection"),
    ("copy-mode-vi", "Space", false, "", "send-keys -X begin-selection"),
    ("copy-mode-vi", "#", false, "", "send-keys -FX search-backward \"#{copy_cursor_word}\""),
    ("copy-mode-vi", "$", false, "", "send-keys -X end-of-line"),
    ("copy-mode-vi", "%", false, "", "send-keys -X next-matching-bracket"),
    ("copy-mode-vi", "*", false, "", "send-keys -FX search-forward \"#{copy_cursor_word}\""),
    ("copy-mode-vi", ",", false, "", "send-keys -X jump-reverse"),
    ("copy-mode-vi", "/", false, "", "command-prompt -T search -p \"(search down)\" { send-keys -X search-forward \"%%\" }"),
    ("copy-mode-vi", "0", false, "", "send-keys -X start-of-line"),
    ("copy-mode-vi", "1", false, "", "command-prompt -N -I 1 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode-vi", "2", false, "", "command-prompt -N -I 2 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode-vi", "3", false, "", "command-prompt -N -I 3 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode-vi", "4", false, "", "command-prompt -N -I 4 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode-vi", "5", false, "", "command-prompt -N -I 5 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode-vi", "6", false, "", "command-prompt -N -I 6 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode-vi", "7", false, "", "command-prompt -N -I 7 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode-vi", "8", false, "", "command-prompt -N -I 8 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode-vi", "9", false, "", "command-prompt -N -I 9 -p (repeat) { send-keys -N \"%%\" }"),
    ("copy-mode-vi", ":", false, "", "command-prompt -p \"(goto line)\" { send-keys -X goto-line \"%%\" }"),
    ("copy-mode-vi", ";", false, "", "send-keys -X jump-again"),
    ("copy-mode-vi", "?", false, "", "command-prompt -T search -p \"(search up)\" { send-keys -X search-backward \"%%\" }"),
    ("copy-mode-vi", "A", false, "", "send-keys -X append-selection-and-cancel"),
    ("copy-mode-vi", "B", false, "", "send-keys -X previous-space"),
    ("copy-mode-vi", "D", false, "", "send-keys -X copy-pipe-end-of-line-and-cancel"),
    ("copy-mode-vi", "E", false, "", "send-keys -X next-space-end"),
    ("copy-mode-vi", "F", false, "", "command-prompt -1 -p \"(jump backward)\" { send-keys -X jump-backward \"%%\" }"),
    ("copy-mode-vi", "G", false, "", "send-keys -X history-bottom"),
    ("copy-mode-vi", "H", false, "", "send-keys -X top-line"),
    ("copy-mode-vi", "J", false, "", "send-keys -X scroll-down"),
    ("copy-mode-vi", "K", false, "", "send-keys -X scroll-up"),
    ("copy-mode-vi", "L", false, "", "send-keys -X bottom-line"),
    ("copy-mode-vi", "M", false, "", "send-keys -X middle-line"),
    ("copy-mode-vi", "N", false, "", "send-keys -X search-reverse"),
    ("copy-mode-vi", "P", false, "", "send-keys -X toggle-position"),
    ("copy-mode-vi", "T", false, "", "command-prompt -1 -p \"(jump to backward)\" { send-keys -X jump-to-backward \"%%\" }"),
    ("copy-mode-vi", "V", false, "", "send-keys -X select-line"),
    ("copy-mode-vi", "W", false, "", "send-keys -X next-space"),
    ("copy-mode-vi", "X", false, "", "send-keys -X set-mark"),
    ("copy-mode-vi", "^", false, "", "send-keys -X back-to-indentation"),
    ("copy-mode-vi", "b", false, "", "send-keys -X previous-word"),
    ("copy-mode-vi", "e", false, "", "send-keys -X next-word-end"),
    ("copy-mode-vi", "f", false, "", "command-prompt -1 -p \"(jump forward)\" { send-keys -X jump-forward \"%%\" }"),
    ("copy-mode-vi", "g", false, "", "send-keys -X history-top"),
    ("copy-mode-vi", "h", false, "", "send-keys -X cursor-left"),
    ("copy-mode-vi", "j", false, "", "send-keys -X cursor-down"),
    ("copy-mode-vi", "k", false, "", "send-keys -X cursor-up"),
    ("copy-mode-vi", "l", false, "", "send-keys -X cursor-right"),
    ("copy-mode-vi", "n", false, "", "send-keys -X search-again"),
    ("copy-mode-vi", "o", false, "", "send-keys -X other-end"),
    ("copy-mode-vi", "q", false, "", "send-keys -X cancel"),
    ("copy-mode-vi", "r", false, "", "send-keys -X refresh-from-pane"),
    ("copy-mode-vi", "t", false, "", "command-prompt -1 -p \"(jump to forward)\" { send-keys -X jump-to-forward \"%%\" }"),
    ("copy-mode-vi", "v", false, "", "send-keys -X rectangle-toggle"),
    ("copy-mode-vi", "w", false, "", "send-keys -X next-word"),
    ("copy-mode-vi", "{", false, "", "send-keys -X previous-paragraph"),
    ("copy-mode-vi", "}", false, "", "send-keys -X next-paragraph"),
    ("copy-mode-vi", "MouseDown1Pane", false, "", "select-pane"),
    ("copy-mode-vi", "MouseDrag1Pane", false, "", "select-pane \\; send-keys -X begin-selection"),
    ("copy-mode-vi", "MouseDragEnd1Pane", false, "", "send-keys -X copy-pipe-and-cancel"),
    ("copy-mode-vi", "WheelUpPane", false, "", "select-pane \\; send-keys -X -N 5 scroll-up"),
    ("copy-mode-vi", "WheelDownPane", false, "", "select-pane \\; send-keys -X -N 5 scroll-down"),
    ("copy-mode-vi", "DoubleClick1Pane", false, "", "select-pane \\; send-keys -X select-word \\; run-shell -d 0.3 \\; send-keys -X copy-pipe-and-cancel"),
    ("copy-mode-vi", "TripleClick1Pane", false, "", "select-pane \\; send-keys -X select-line \\; run-shell -d 0.3 \\; send-keys -X copy-pipe-and-cancel"),
    ("copy-mode-vi", "BSpace", false, "", "send-keys -X cursor-left"),
    ("copy-mode-vi", "NPage", false, "", "send-keys -X page-down"),
    ("copy-mode-vi", "PPage", false, "", "send-keys -X page-up"),
    ("copy-mode-vi", "Up", false, "", "send-keys -X cursor-up"),
    ("copy-mode-vi", "Down", false, "", "send-keys -X cursor-down"),
    ("copy-mode-vi", "Left", false, "", "send-keys -X cursor-left"),
    ("copy-mode-vi", "Right", false, "", "send-keys -X cursor-right"),
    ("copy-mode-vi", "M-x", false, "", "send-keys -X jump-to-mark"),
    ("copy-mode-vi", "C-Up", false, "", "send-keys -X scroll-up"),
    ("copy-mode-vi", "C-Down", false, "", "send-keys -X scroll-down"),
    ("prefix", "C-b", false, "Send the prefix key", "send-prefix"),
    ("prefix", "C-o", false, "Rotate through the panes", "rotate-window"),
    ("prefix", "C-z", false, "Suspend the current client", "suspend-client"),
    ("prefix", "Space", false, "Select next layout", "next-layout"),
    ("prefix", "!", false, "Break pane to a new window", "break-pane"),
    ("prefix", "\"", false, "Split window vertically", "split-window"),
    ("prefix", "#", false, "List all paste buffers", "list-buffers"),
    ("prefix", "$", false, "Rename current session", "command-prompt -I \"#S\" { rename-session \"%%\" }"),
    ("prefix", "%", false, "Split window horizontally", "split-window -h"),
    ("prefix", "&", false, "Kill current window", "confirm-before -p \"kill-window #W? (y/n)\" kill-window"),
    ("prefix", "'", false, "Prompt for window index to select", "command-prompt -T window-target -p index { select-window -t \":%%\" }"),
    ("prefix", "(", false, "Switch to previous client", "switch-client -p"),
    ("prefix", ")", false, "Switch to next client", "switch-client -n"),
    ("prefix", ",", false, "Rename current window", "command-prompt -I \"#W\" { rename-window \"%%\" }"),
    ("prefix", "-", false, "Delete the most recent paste buffer", "delete-buffer"),
    ("prefix", ".", false, "Move the current window", "command-prompt -T target { move-window -t \"%%\" }"),
    ("prefix", "/", false, "Describe key binding", "command-prompt -k -p key { list-keys -1N \"%%\" }"),
    ("prefix", "0", false, "Select window 0", "select-window -t :=0"),
    ("prefix", "1", false, "Select window 1", "select-window -t :=1"),
    ("prefix", "2", false, "Select window 2", "select-window -t :=2"),
    ("prefix", "3", false, "Select window 3", "select-window -t :=3"),
    ("prefix", "4", false, "Select window 4", "select-window -t :=4"),
    ("prefix", "5", false, "Select window 5", "select-window -t :=5"),
    ("prefix", "6", false, "Select window 6", "select-window -t :=6"),
    ("prefix", "7", false, "Select window 7", "select-window -t :=7"),
    ("prefix", "8", false, "Select window 8", "select-window -t :=8"),
    ("prefix", "9", false, "Select window 9", "select-window -t :=9"),
    ("prefix", ":", false, "Prompt for a command", "command-prompt"),
    ("prefix", ";", false, "Move to the previously active pane", "last-pane"),
    ("prefix", "<", false, "", "display-menu -T \"#[align=centre]#{window_index}:#{window_name}\" -x W -y W \"#{?#{>:#{session_windows},1},,-}Swap Left\" l { swap-window -t :-1 } \"#{?#{>:#{session_windows},1},,-}Swap Right\" r { swap-window -t :+1 } \"#{?pane_marked_set,,-}Swap Marked\" s { swap-window } '' Kill X { kill-window } Respawn R { respawn-window -k } \"#{?pane_marked,Unmark,Mark}\" m { select-pane -m } Rename n { command-prompt -F -I \"#W\" { rename-window -t \"#{window_id}\" \"%%\" } } '' \"New After\" w { new-window -a } \"New At End\" W { new-window }"),
    ("prefix", "=", false, "Choose a paste buffer from a list", "choose-buffer -Z"),
    ("prefix", ">", false, "", "display-menu -T \"#[align=centre]#{pane_index} (#{pane_id})\" -x P -y P \"#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Top,}\" < { send-keys -X history-top } \"#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Bottom,}\" > { send-keys -X history-bottom } '' \"#{?mouse_word,Search For #[underscore]#{=/9/...:mouse_word},}\" C-r { if-shell -F \"#{?#{m/r:(copy|view)-mode,#{pane_mode}},0,1}\" \"copy-mode -t=\" ; send-keys -X -t = search-backward \"#{q:mouse_word}\" } \"#{?mouse_word,Type #[underscore]#{=/9/...:mouse_word},}\" C-y { copy-mode -q ; send-keys -l \"#{q:mouse_word}\" } \"#{?mouse_word,Copy #[underscore]#{=/9/...:mouse_word},}\" c { copy-mode -q ; set-buffer \"#{q:mouse_word}\" } \"#{?mouse_line,Copy Line,}\" l { copy-mode -q ; set-buffer \"#{q:mouse_line}\" } '' \"Horizontal Split\" h { split-window -h } \"Vertical Split\" v { split-window -v } '' \"#{?#{>:#{window_panes},1},,-}Swap Up\" u { swap-pane -U } \"#{?#{>:#{window_panes},1},,-}Swap Down\" d { swap-pane -D } \"#{?pane_marked_set,,-}Swap Marked\" s { swap-pane } '' Kill X { kill-pane } Respawn R { respawn-pane -k } \"#{?pane_marked,Unmark,Mark}\" m { select-pane -m } \"#{?#{>:#{window_panes},1},,-}#{?window_zoomed_flag,Unzoom,Zoom}\" z { resize-pane -Z }"),
    ("prefix", "?", false, "List key bindings", "list-keys -N"),
    ("prefix", "C", false, "Customize options", "customize-mode -Z"),
    ("prefix", "D", false, "Choose a client from a list", "choose-client -Z"),
    ("prefix", "E", false, "Spread panes out evenly", "select-layout -E"),
    ("prefix", "L", false, "Switch to the last client", "switch-client -l"),
    ("prefix", "M", false, "Clear the marked pane", "select-pane -M"),
    ("prefix", "[", false, "Enter copy mode", "copy-mode"),
    ("prefix", "]", false, "Paste the most recent paste buffer", "paste-buffer -p"),
    ("prefix", "c", false, "Create a new window", "new-window"),
    ("prefix", "d", false, "Detach the current client", "detach-client"),
    ("prefix", "f", false, "Search for a pane", "command-prompt { find-window -Z \"%%\" }"),
    ("prefix", "i", false, "Display window information", "display-message"),
    ("prefix", "l", false, "Select the previously current window", "last-window"),
    ("prefix", "m", false, "Toggle the marked pane", "select-pane -m"),
    ("prefix", "n", false, "Select the next window", "next-window"),
    ("prefix", "o", false, "Select the next pane", "select-pane -t :.+"),
    ("prefix", "p", false, "Select the previous window", "previous-window"),
    ("prefix", "q", false, "Display pane numbers", "display-panes"),
    ("prefix", "r", false, "Redraw the current client", "refresh-client"),
    ("prefix", "s", false, "Choose a session from a list", "choose-tree -Zs"),
    ("prefix", "t", false, "Show a clock", "clock-mode"),
    ("prefix", "w", false, "Choose a window from a list", "choose-tree -Zw"),
    ("prefix", "x", false, "Kill the active pane", "confirm-before -p \"kill-pane #P? (y/n)\" kill-pane"),
    ("prefix", "z", false, "Zoom the active pane", "resize-pane -Z"),
    ("prefix", "{", false, "Swap the active pane with the pane above", "swap-pane -U"),
    ("prefix", "}", false, "Swap the active pane with the pane below", "swap-pane -D"),
    ("prefix", "~", false, "Show messages", "show-messages"),
    ("prefix", "DC", true, "Reset so the visible part of the window follows the cursor", "refresh-client -c"),
    ("prefix", "PPage", false, "Enter copy mode and scroll up", "copy-mode -u"),
    ("prefix", "Up", true, "Select the pane above the active pane", "select-pane -U"),
    ("prefix", "Down", true, "Select the pane below the active pane", "select-pane -D"),
    ("prefix", "Left", true, "Select the pane to the left of the active pane", "select-pane -L"),
    ("prefix", "Right", true, "Select the pane to the right of the active pane", "select-pane -R"),
    ("prefix", "M-1", false, "Set the even-horizontal layout", "select-layout even-horizontal"),
    ("prefix", "M-2", false, "Set the even-vertical layout", "select-layout even-vertical"),
    ("prefix", "M-3", false, "Set the main-horizontal layout", "select-layout main-horizontal"),
    ("prefix", "M-4", false, "Set the main-vertical layout", "select-layout main-vertical"),
    ("prefix", "M-5", false, "Select the tiled layout", "select-layout tiled"),
    ("prefix", "M-n", false, "Select the next window with an alert", "next-window -a"),
    ("prefix", "M-o", false, "Rotate through the panes in reverse", "rotate-window -D"),
    ("prefix", "M-p", false, "Select the previous window with an alert", "previous-window -a"),
    ("prefix", "M-Up", true, "Resize the pane up by 5", "resize-pane -U 5"),
    ("prefix", "M-Down", true, "Resize the pane down by 5", "resize-pane -D 5"),
    ("prefix", "M-Left", true, "Resize the pane left by 5", "resize-pane -L 5"),
    ("prefix", "M-Right", true, "Resize the pane right by 5", "resize-pane -R 5"),
    ("prefix", "C-Up", true, "Resize the pane up", "resize-pane -U"),
    ("prefix", "C-Down", true, "Resize the pane down", "resize-pane -D"),
    ("prefix", "C-Left", true, "Resize the pane left", "resize-pane -L"),
    ("prefix", "C-Right", true, "Resize the pane right", "resize-pane -R"),
    ("prefix", "S-Up", true, "Move the visible part of the window up", "refresh-client -U 10"),
    ("prefix", "S-Down", true, "Move the visible part of the window down", "refresh-client -D 10"),
    ("prefix", "S-Left", true, "Move the visible part of the window left", "refresh-client -L 10"),
    ("prefix", "S-Right", true, "Move the visible part of the window right", "refresh-client -R 10"),
    ("root", "MouseDown1Pane", false, "", "select-pane -t = \\; send-keys -M"),
    ("root", "MouseDown1Status", false, "", "select-window -t ="),
    ("root", "MouseDown2Pane", false, "", "select-pane -t = \\; if-shell -F \"#{||:#{pane_in_mode},#{mouse_any_flag}}\" { send-keys -M } { paste-buffer -p }"),
    ("root", "MouseDown3Pane", false, "", "if-shell -F -t = \"#{||:#{mouse_any_flag},#{&&:#{pane_in_mode},#{?#{m/r:(copy|view)-mode,#{pane_mode}},0,1}}}\" { select-pane -t = ; send-keys -M } { display-menu -T \"#[align=centre]#{pane_index} (#{pane_id})\" -t = -x M -y M \"#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Top,}\" < { send-keys -X history-top } \"#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Bottom,}\" > { send-keys -X history-bottom } '' \"#{?mouse_word,Search For #[underscore]#{=/9/...:mouse_word},}\" C-r { if-shell -F \"#{?#{m/r:(copy|view)-mode,#{pane_mode}},0,1}\" \"copy-mode -t=\" ; send-keys -X -t = search-backward \"#{q:mouse_word}\" } \"#{?mouse_word,Type #[underscore]#{=/9/...:mouse_word},}\" C-y { copy-mode -q ; send-keys -l \"#{q:mouse_word}\" } \"#{?mouse_word,Copy #[underscore]#{=/9/...:mouse_word},}\" c { copy-mode -q ; set-buffer \"#{q:mouse_word}\" } \"#{?mouse_line,Copy Line,}\" l { copy-mode -q ; set-buffer \"#{q:mouse_line}\" } '' \"Horizontal Split\" h { split-window -h } \"Vertical Split\" v { split-window -v } '' \"#{?#{>:#{window_panes},1},,-}Swap Up\" u { swap-pane -U } \"#{?#{>:#{window_panes},1},,-}Swap Down\" d { swap-pane -D } \"#{?pane_marked_set,,-}Swap Marked\" s { swap-pane } '' Kill X { kill-pane } Respawn R { respawn-pane -k } \"#{?pane_marked,Unmark,Mark}\" m { select-pane -m } \"#{?#{>:#{window_panes},1},,-}#{?window_zoomed_flag,Unzoom,Zoom}\" z { resize-pane -Z } }"),
    ("root", "MouseDown3Status", false, "", "display-menu -T \"#[align=centre]#{window_index}:#{window_name}\" -t = -x W -y W \"#{?#{>:#{session_windows},1},,-}Swap Left\" l { swap-window -t :-1 } \"#{?#{>:#{session_windows},1},,-}Swap Right\" r { swap-window -t :+1 } \"#{?pane_marked_set,,-}Swap Marked\" s { swap-window } '' Kill X { kill-window } Respawn R { respawn-window -k } \"#{?pane_marked,Unmark,Mark}\" m { select-pane -m } Rename n { command-prompt -F -I \"#W\" { rename-window -t \"#{window_id}\" \"%%\" } } '' \"New After\" w { new-window -a } \"New At End\" W { new-window }"),
    ("root", "MouseDown3StatusLeft", false, "", "display-menu -T \"#[align=centre]#{session_name}\" -t = -x M -y W Next n { switch-client -n } Previous p { switch-client -p } '' Renumber N { move-window -r } Rename n { command-prompt -I \"#S\" { rename-session \"%%\" } } '' \"New Session\" s { new-session } \"New Window\" w { new-window }"),
    ("root", "MouseDrag1Pane", false, "", "if-shell -F \"#{||:#{pane_in_mode},#{mouse_any_flag}}\" { send-keys -M } { copy-mode -M }"),
    ("root", "MouseDrag1Border", false, "", "resize-pane -M"),
    ("root", "WheelUpPane", false, "", "if-shell -F \"#{||:#{pane_in_mode},#{mouse_any_flag}}\" { send-keys -M } { copy-mode -e }"),
    ("root", "WheelUpStatus", false, "", "previous-window"),
    ("root", "WheelDownStatus", false, "", "next-window"),
    ("root", "DoubleClick1Pane", false, "", "select-pane -t = \\; if-shell -F \"#{||:#{pane_in_mode},#{mouse_any_flag}}\" { send-keys -M } { copy-mode -H ; send-keys -X select-word ; run-shell -d 0.3 ; send-keys -X copy-pipe-and-cancel }"),
    ("root", "TripleClick1Pane", false, "", "select-pane -t = \\; if-shell -F \"#{||:#{pane_in_mode},#{mouse_any_flag}}\" { send-keys -M } { copy-mode -H ; send-keys -X select-line ; run-shell -d 0.3 ; send-keys -X copy-pipe-and-cancel }"),
    ("root", "M-MouseDown3Pane", false, "", "display-menu -T \"#[align=centre]#{pane_index} (#{pane_id})\" -t = -x M -y M \"#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Top,}\" < { send-keys -X history-top } \"#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Bottom,}\" > { send-keys -X history-bottom } '' \"#{?mouse_word,Search For #[underscore]#{=/9/...:mouse_word},}\" C-r { if-shell -F \"#{?#{m/r:(copy|view)-mode,#{pane_mode}},0,1}\" \"copy-mode -t=\" ; send-keys -X -t = search-backward \"#{q:mouse_word}\" } \"#{?mouse_word,Type #[underscore]#{=/9/...:mouse_word},}\" C-y { copy-mode -q ; send-keys -l \"#{q:mouse_word}\" } \"#{?mouse_word,Copy #[underscore]#{=/9/...:mouse_word},}\" c { copy-mode -q ; set-buffer \"#{q:mouse_word}\" } \"#{?mouse_line,Copy Line,}\" l { copy-mode -q ; set-buffer \"#{q:mouse_line}\" } '' \"Horizontal Split\" h { split-window -h } \"Vertical Split\" v { split-window -v } '' \"#{?#{>:#{window_panes},1},,-}Swap Up\" u { swap-pane -U } \"#{?#{>:#{window_panes},1},,-}Swap Down\" d { swap-pane -D } \"#{?pane_marked_set,,-}Swap Marked\" s { swap-pane } '' Kill X { kill-pane } Respawn R { respawn-pane -k } \"#{?pane_marked,Unmark,Mark}\" m { select-pane -m } \"#{?#{>:#{window_panes},1},,-}#{?window_zoomed_flag,Unzoom,Zoom}\" z { resize-pane -Z }"),
];
// END GENERATED

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_key_is_a_key_tmux_names_the_same_way() {
        for d in DEFAULT_BINDINGS {
            let key = parse_key(d.1).unwrap_or_else(|| panic!("no key: {}", d.1));
            assert_eq!(key.without_flags().name(), d.1);
        }
    }

    #[test]
    fn defaults_are_in_tmuxs_order_by_table_then_key() {
        let from_tables: Vec<(String, String)> = default_tables()
            .iter()
            .flat_map(|(name, t)| t.bindings.keys().map(move |k| (name.clone(), k.name())))
            .collect();
        let listed: Vec<(String, String)> = DEFAULT_BINDINGS
            .iter()
            .map(|d| (d.0.to_string(), d.1.to_string()))
            .collect();
        assert_eq!(from_tables, listed);
    }

    #[test]
    fn tables_stay_default_data_until_used() {
        let mut tables = KeyTables::default();
        assert!(tables.has_table("copy-mode-vi"));
        assert_eq!(tables.tables()["prefix"].bindings.len(), 85);
        assert!(tables.built.is_none(), "listing builds no table");
        let c_b = parse_key("C-b").unwrap();
        assert_eq!(
            tables.binding("prefix", c_b).unwrap().listed(),
            "send-prefix"
        );
        tables.unbind("prefix", c_b);
        assert!(tables.binding("prefix", c_b).is_none());
        assert!(tables.has_table("prefix"));
    }

    #[test]
    fn an_emptied_table_goes_unless_it_is_a_default() {
        let mut tables = KeyTables::default();
        let a = parse_key("a").unwrap();
        tables.bind("mine", a, None, false, Some(vec!["new-window".into()]));
        assert!(tables.has_table("mine"));
        tables.unbind("mine", a);
        assert!(!tables.has_table("mine"));
        let keys: Vec<Key> = tables.tables()["root"].bindings.keys().copied().collect();
        for k in keys {
            tables.unbind("root", k);
        }
        assert!(tables.has_table("root"));
        tables.remove_table("root");
        assert!(!tables.has_table("root"));
    }

    #[test]
    fn a_bindings_commands_are_listed_escaped_and_run_as_a_list() {
        let commands = [
            "display-message \"a;b\"".to_string(),
            "new-window".to_string(),
        ];
        let b = Binding::new(false, None, &commands);
        assert_eq!(b.listed(), "display-message \"a;b\" \\; new-window");
        assert_eq!(b.text(), "display-message \"a;b\" ; new-window");
    }

    #[test]
    fn a_key_alone_changes_only_the_note() {
        let mut tables = KeyTables::default();
        let x = parse_key("x").unwrap();
        tables.bind("prefix", x, Some("kill".into()), false, None);
        let b = tables.binding("prefix", x).unwrap();
        assert_eq!(b.note.as_deref(), Some("kill"));
        assert_eq!(
            b.listed(),
            "confirm-before -p \"kill-pane #P? (y/n)\" kill-pane"
        );
        let y = parse_key("y").unwrap();
        tables.bind("prefix", y, Some("nothing".into()), false, None);
        assert!(tables.binding("prefix", y).is_none());
    }
}
