//! Tree mode for attached clients (`choose-tree`, `C-b s`, `C-b w`): the engine side of
//! `engine/tree_mode.rs`. It describes the sessions and windows to the tree (their lines'
//! texts from the format, the filter, the sort keys), hands it the keys no table binds, runs
//! the template for the item chosen, asks before killing, and gives it the panes' screens for
//! its preview. The tree is built again before each drawing, so what it lists follows the
//! sessions as they change.
//!
//! Invariant: a client holds at most one of tree mode, clock mode and a copy or view mode:
//! opening one closes the others, and all go when the client moves to another session. The
//! tree knows its pane and shows (and takes keys) only while the client shows that pane, as
//! tmux's tree mode belongs to its pane.

use super::commands::{FormatKind, FormatValues};
use super::keys;
use super::options::colour_from_string;
use super::prompt::{Editor, Entry, Prompt, PromptAction, PromptType};
use super::style::{self, Pen};
use super::target::Found;
use super::tree_mode::{
    Outcome, Preview, SessionInfo, SortKeys, StartAt, Styles, Tag, TreeAsk, TreeMode, WindowInfo,
};
use super::Engine;

/// How `choose-tree` was asked to start.
pub struct TreeOptions {
    pub start: StartAt,
    pub format: Option<String>,
    pub filter: Option<String>,
    pub sort: Option<String>,
    pub reversed: bool,
    pub preview: bool,
    pub template: Option<String>,
}

/// tmux's `WINDOW_TREE_DEFAULT_COMMAND`.
const DEFAULT_TEMPLATE: &str = "switch-client -Zt '%%'";

/// Keys sent as escape sequences that tree mode reads (the others are read from their bytes).
const NAMED_KEYS: &[&str] = &[
    "Up", "Down", "Left", "Right", "PPage", "NPage", "Home", "End",
];

impl Engine {
    /// Shows tree mode for the target `at` in place of its pane on every client showing it
    /// (or `conn` alone).
    pub fn open_trees(&mut self, at: Found, conn: Option<u64>, options: &TreeOptions) {
        let s = &self.sessions[at.session];
        let home = (s.id, s.windows[at.window].id);
        let pane = s.windows[at.window].pane.id;
        let want = match options.start {
            StartAt::Sessions => Tag::Session(home.0),
            _ => Tag::Window(home.1),
        };
        for conn in self.viewers(pane, conn) {
            // As tmux, which leaves a pane already in tree mode as it is.
            if self.tree_shown(conn) {
                continue;
            }
            let mut tree = TreeMode::new(options.start, home);
            tree.pane = pane;
            tree.format = options
                .format
                .clone()
                .unwrap_or_else(|| super::commands::TREE_MODE_FORMAT.to_string());
            tree.template = options
                .template
                .clone()
                .unwrap_or_else(|| DEFAULT_TEMPLATE.to_string());
            tree.filter = options.filter.clone();
            tree.reversed = options.reversed;
            tree.preview = options.preview;
            if let Some(sort) = &options.sort {
                tree.set_sort(sort);
            }
            let (sessions, no_matches) = self.tree_sessions(&tree);
            tree.build(sessions, no_matches, Some(want), self.pane_size(pane));
            if let Some(c) = self.clients.get_mut(conn) {
                c.view = None;
                c.clock = None;
                c.tree = Some(Box::new(tree));
                c.dirty = true;
            }
        }
        self.pane_mode_changed(pane);
    }

    fn pane_size(&self, pane: u32) -> (u32, u32) {
        self.panes()
            .find(|p| p.id == pane)
            .map_or((1, 1), |p| (p.term.cols(), p.term.rows()))
    }

    /// The sessions and windows as the tree lists them, the filter applied; when it keeps
    /// nothing, all of them and true (tmux then shows everything and says `no matches`).
    fn tree_sessions(&self, tree: &TreeMode) -> (Vec<SessionInfo>, bool) {
        let filtered = self.tree_sessions_filtered(tree, tree.filter.as_deref());
        if tree.filter.is_none() || !filtered.is_empty() {
            return (filtered, false);
        }
        (self.tree_sessions_filtered(tree, None), true)
    }

    fn tree_sessions_filtered(&self, tree: &TreeMode, filter: Option<&str>) -> Vec<SessionInfo> {
        let mut out = Vec::new();
        for (si, s) in self.sessions.iter().enumerate() {
            let at = |window| {
                Some(Found {
                    session: si,
                    window,
                })
            };
            let windows: Vec<WindowInfo> = (0..s.windows.len())
                .filter(|&wi| {
                    filter.is_none_or(|f| {
                        let values = FormatValues::new(self, at(wi)).kind(FormatKind::Pane);
                        super::format::is_true(&values.expand(f))
                    })
                })
                .map(|wi| {
                    let w = &s.windows[wi];
                    let values = FormatValues::new(self, at(wi)).kind(FormatKind::Window);
                    WindowInfo {
                        id: w.id,
                        index: w.index,
                        text: values.expand(&tree.format),
                        sort: SortKeys {
                            index: w.index,
                            name: w.name.clone(),
                            time: w.activity,
                        },
                    }
                })
                .collect();
            if windows.is_empty() {
                continue;
            }
            let values = FormatValues::new(self, at(s.current)).kind(FormatKind::Session);
            out.push(SessionInfo {
                id: s.id,
                name: s.name.clone(),
                text: values.expand(&tree.format),
                sort: SortKeys {
                    index: s.id,
                    name: s.name.clone(),
                    time: s.activity,
                },
                windows,
            });
        }
        out
    }

    /// Whether a client shows its tree: it shows the pane the tree was opened for.
    pub(super) fn tree_shown(&self, conn: u64) -> bool {
        let tree = self.clients.get(conn).and_then(|c| c.tree.as_ref());
        tree.is_some_and(|t| self.client_pane(conn) == Some(t.pane))
    }

    /// Builds a client's tree again from the sessions as they are now and draws it, before
    /// its frame is drawn.
    pub(super) fn refresh_tree(&mut self, conn: u64) {
        let Some(pane) = self.client_pane(conn).filter(|_| self.tree_shown(conn)) else {
            return;
        };
        let Some(mut tree) = self.clients.get_mut(conn).and_then(|c| c.tree.take()) else {
            return;
        };
        let (sessions, no_matches) = self.tree_sessions(&tree);
        tree.refresh(sessions, no_matches, self.pane_size(pane));
        if tree.is_empty() {
            self.pane_mode_changed(pane);
            return;
        }
        let styles = self.tree_styles(conn);
        for pane in tree
            .current_tag()
            .map_or(Vec::new(), |t| self.tree_preview_panes(t))
        {
            self.read_screen(pane);
        }
        let preview = tree.current_tag().and_then(|t| self.tree_preview(t));
        tree.draw(&styles, preview);
        if let Some(c) = self.clients.get_mut(conn) {
            c.tree = Some(tree);
        }
    }

    /// `mode-style` and the label colours, from the options of the client's window.
    fn tree_styles(&self, conn: u64) -> Styles {
        let place = self.client_place(conn);
        let (si, wi) = (place.map(|f| f.session), place.map(|f| f.window));
        let mode = self.option_or(si, wi, "mode-style", "bg=yellow,fg=black");
        let mode = style::add(Pen::default(), &mode);
        let mode_bg = Pen {
            bg: mode.bg,
            ..Pen::default()
        };
        let colour = |name, default| {
            let value = self.option_or(si, None, name, default);
            colour_from_string(&value)
                .and_then(|c| style::colour_sgr(c, 30))
                .unwrap_or_else(|| "39".into())
        };
        Styles {
            mode_pen: mode,
            mode: mode.sgr(),
            mode_bg: mode_bg.sgr(),
            label: colour("display-panes-colour", "blue"),
            active_label: colour("display-panes-active-colour", "red"),
        }
    }

    /// What the preview of an item shows: a session's windows, or a window's pane.
    fn tree_preview(&self, tag: Tag) -> Option<Preview<'_>> {
        match tag {
            Tag::Session(id) => {
                let s = self.sessions.iter().find(|s| s.id == id)?;
                let windows = s
                    .windows
                    .iter()
                    .map(|w| (w.index, w.name.clone(), &w.pane.term))
                    .collect();
                Some(Preview::Session {
                    windows,
                    current: s.current,
                })
            }
            Tag::Window(id) => {
                let (si, wi) = self.tree_window(id)?;
                let base = self.option_or(Some(si), Some(wi), "pane-base-index", "0");
                Some(Preview::Window {
                    pane: &self.sessions[si].windows[wi].pane.term,
                    index: base.parse().unwrap_or(0),
                })
            }
        }
    }

    /// The panes a preview shows, which are read before it is drawn.
    fn tree_preview_panes(&self, tag: Tag) -> Vec<u32> {
        let windows = match tag {
            Tag::Session(id) => self
                .sessions
                .iter()
                .find(|s| s.id == id)
                .map(|s| &s.windows[..]),
            Tag::Window(id) => self
                .tree_window(id)
                .map(|(si, wi)| std::slice::from_ref(&self.sessions[si].windows[wi])),
        };
        windows.unwrap_or(&[]).iter().map(|w| w.pane.id).collect()
    }

    fn tree_window(&self, id: u32) -> Option<(usize, usize)> {
        self.sessions.iter().enumerate().find_map(|(si, s)| {
            let wi = s.windows.iter().position(|w| w.id == id)?;
            Some((si, wi))
        })
    }

    /// A key no table binds, typed on a client in tree mode, goes to the tree; false when the
    /// client shows none.
    pub(super) fn tree_key(&mut self, conn: u64, typed: &[u8]) -> bool {
        if !self.tree_shown(conn) {
            return false;
        }
        let modes = self.client_key_modes(conn);
        let name = keys::typed_key(typed).map(|k| k.name()).or_else(|| {
            NAMED_KEYS
                .iter()
                .find(|n| keys::parse_key(n).is_some_and(|k| keys::encodes_as(k, typed, modes)))
                .map(|n| n.to_string())
        });
        let outcome = match self.clients.get_mut(conn).and_then(|c| c.tree.as_mut()) {
            Some(tree) => tree.key(name.as_deref().unwrap_or("")),
            None => return false,
        };
        self.tree_outcome(conn, outcome);
        if let Some(c) = self.clients.get_mut(conn) {
            c.dirty = true;
        }
        true
    }

    /// `send-keys -M` from a mouse binding: the event goes to the tree of the client it came
    /// from when that client shows `pane` in tree mode; false when it does not.
    pub fn tree_mouse(&mut self, pane: u32) -> bool {
        let Some(at) = self.mouse_event else {
            return false;
        };
        let conn = at.client;
        let shows = self.client_pane(conn) == Some(pane) && self.tree_shown(conn);
        let key = self.binding_key.map(|k| k.name()).unwrap_or_default();
        let outcome = match self.clients.get_mut(conn).and_then(|c| c.tree.as_mut()) {
            Some(tree) if shows => tree.mouse(&key, at.now.x, at.now.y),
            _ => return false,
        };
        self.tree_outcome(conn, outcome);
        if let Some(c) = self.clients.get_mut(conn) {
            c.dirty = true;
        }
        true
    }

    fn tree_outcome(&mut self, conn: u64, outcome: Outcome) {
        match outcome {
            Outcome::Redraw | Outcome::Ignored => {}
            Outcome::Quit => self.close_tree(conn),
            Outcome::Rebuild => self.rebuild_tree(conn),
            Outcome::Home => {
                if let Some(tree) = self.clients.get_mut(conn).and_then(|c| c.tree.as_mut()) {
                    tree.go_home();
                }
            }
            Outcome::Choose(tag) => {
                let template = self
                    .clients
                    .get(conn)
                    .and_then(|c| c.tree.as_ref())
                    .map(|t| t.template.clone());
                self.close_tree(conn);
                if let (Some(template), Some(target)) = (template, self.tree_target(tag)) {
                    self.run_tree_template(conn, &template, &target);
                }
            }
            Outcome::Ask(ask) => self.tree_ask(conn, ask),
            Outcome::SearchAgain => self.tree_search(conn),
            Outcome::Kill(tag) => self.ask_tree_kill(conn, &[tag]),
            Outcome::KillTagged(tags) => self.ask_tree_kill(conn, &tags),
        }
    }

    /// Builds the tree again from scratch (a new sort order), as tmux's `mode_tree_build`.
    fn rebuild_tree(&mut self, conn: u64) {
        let Some(pane) = self.client_pane(conn) else {
            return;
        };
        let Some(mut tree) = self.clients.get_mut(conn).and_then(|c| c.tree.take()) else {
            return;
        };
        let (sessions, no_matches) = self.tree_sessions(&tree);
        tree.build(sessions, no_matches, None, self.pane_size(pane));
        if let Some(c) = self.clients.get_mut(conn) {
            c.tree = Some(tree);
        }
    }

    /// The target the template gets for an item, as tmux's `window_tree_get_target`:
    /// `=name:` for a session, `=name:index.` for a window.
    fn tree_target(&self, tag: Tag) -> Option<String> {
        match tag {
            Tag::Session(id) => {
                let s = self.sessions.iter().find(|s| s.id == id)?;
                Some(format!("={}:", s.name))
            }
            Tag::Window(id) => {
                let (si, wi) = self.tree_window(id)?;
                let s = &self.sessions[si];
                Some(format!("={}:{}.", s.name, s.windows[wi].index))
            }
        }
    }

    /// Runs the template with `%%` replaced by the target, as the client; a template that
    /// does not parse shows its error on the status line, its first letter in capitals.
    fn run_tree_template(&mut self, conn: u64, template: &str, target: &str) {
        let text = super::prompt::replace_template(template, target, 1);
        if text.is_empty() {
            return;
        }
        match super::commands::command_lines(self, &text) {
            Ok(cmds) => self.run_for_client(conn, cmds),
            Err(e) => {
                let mut chars = e.chars();
                let e = chars
                    .next()
                    .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect());
                self.show_message(conn, super::attach::StatusMessage::error(e));
            }
        }
    }

    /// `x` and `X`: asks on the status line whether to kill the items, as tmux asks
    /// (`Kill session work? `, `Kill window 1? `, `Kill 2 tagged? `); `y` kills them.
    fn ask_tree_kill(&mut self, conn: u64, tags: &[Tag]) {
        let commands: Vec<String> = tags
            .iter()
            .map(|&tag| match tag {
                Tag::Session(id) => format!("kill-session -t '${id}'"),
                Tag::Window(id) => format!("kill-window -t '@{id}'"),
            })
            .collect();
        let text = match tags {
            [Tag::Session(id)] => {
                let Some(s) = self.sessions.iter().find(|s| s.id == *id) else {
                    return;
                };
                format!("Kill session {}? ", s.name)
            }
            [Tag::Window(id)] => {
                let Some((si, wi)) = self.tree_window(*id) else {
                    return;
                };
                format!("Kill window {}? ", self.sessions[si].windows[wi].index)
            }
            _ => format!("Kill {} tagged? ", tags.len()),
        };
        let prompt = Prompt {
            text,
            entry: Entry::Single,
            kind: PromptType::Command,
            editor: Editor::new("", Entry::Single),
            action: PromptAction::Confirm {
                commands: commands.join(" ; "),
                waiter: None,
            },
        };
        self.set_prompt(conn, prompt);
    }

    /// Asks for a filter, a search or a command on the status line, as tmux's tree mode asks.
    fn tree_ask(&mut self, conn: u64, ask: TreeAsk) {
        let Some(tree) = self.clients.get(conn).and_then(|c| c.tree.as_ref()) else {
            return;
        };
        let (text, input, kind) = match ask {
            TreeAsk::Filter => {
                let filter = tree.filter.clone().unwrap_or_default();
                ("(filter) ".to_string(), filter, PromptType::Search)
            }
            TreeAsk::Search => ("(search) ".into(), String::new(), PromptType::Search),
            TreeAsk::Command => match tree.tagged().len() {
                0 => ("(current) ".into(), String::new(), PromptType::Command),
                n => (format!("({n} tagged) "), String::new(), PromptType::Command),
            },
        };
        let prompt = Prompt {
            text,
            entry: Entry::Line,
            kind,
            editor: Editor::new(&input, Entry::Line),
            action: PromptAction::Tree(ask),
        };
        self.set_prompt(conn, prompt);
    }

    /// The answer to a question tree mode asked: a filter (none when cancelled or empty, as
    /// in tmux), a search, or a command run for the tagged items or the current one.
    pub(super) fn tree_answer(&mut self, conn: u64, ask: TreeAsk, answer: Option<String>) {
        let answer = answer.filter(|a| !a.is_empty());
        let Some(tree) = self.clients.get_mut(conn).and_then(|c| c.tree.as_mut()) else {
            return;
        };
        match ask {
            TreeAsk::Filter => {
                tree.filter = answer;
                self.rebuild_tree(conn);
            }
            TreeAsk::Search => {
                tree.search = answer;
                self.tree_search(conn);
            }
            TreeAsk::Command => {
                let Some(template) = answer else {
                    return;
                };
                let mut tags = tree.tagged();
                if tags.is_empty() {
                    tags.extend(tree.current_tag());
                }
                let targets: Vec<String> = tags
                    .into_iter()
                    .filter_map(|t| self.tree_target(t))
                    .collect();
                for target in targets {
                    self.run_tree_template(conn, &template, &target);
                }
            }
        }
        if let Some(c) = self.clients.get_mut(conn) {
            c.dirty = true;
        }
    }

    /// Moves to the next item whose name has the search in it (a session's or a window's
    /// name, as tmux's `window_tree_search`).
    fn tree_search(&mut self, conn: u64) {
        let Some(mut tree) = self.clients.get_mut(conn).and_then(|c| c.tree.take()) else {
            return;
        };
        if let Some(search) = tree.search.clone() {
            tree.search_next(|tag| match tag {
                Tag::Session(id) => self
                    .sessions
                    .iter()
                    .any(|s| s.id == id && s.name.contains(&search)),
                Tag::Window(id) => self
                    .tree_window(id)
                    .is_some_and(|(si, wi)| self.sessions[si].windows[wi].name.contains(&search)),
            });
        }
        if let Some(c) = self.clients.get_mut(conn) {
            c.tree = Some(tree);
        }
    }

    /// Ends a client's tree mode.
    pub(super) fn close_tree(&mut self, conn: u64) {
        let Some(c) = self.clients.get_mut(conn).filter(|c| c.tree.is_some()) else {
            return;
        };
        c.tree = None;
        c.dirty = true;
        if let Some(pane) = self.client_pane(conn) {
            self.pane_mode_changed(pane);
        }
    }

    /// Whether a client has `pane` in tree mode (`#{pane_mode}` is `tree-mode`).
    pub(super) fn pane_in_tree(&self, pane: u32) -> bool {
        let has = |c: &super::attach::Client| c.tree.as_ref().is_some_and(|t| t.pane == pane);
        self.clients.iter().any(has)
    }
}
