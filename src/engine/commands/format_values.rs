//! The variables formats see (`#{session_name}`, `#{pane_pid}`...), for one target, and the
//! `S:`, `W:` and `P:` loops over sessions, windows and panes.
//!
//! Window and pane variables follow from each window holding one pane: the pane fills the
//! window (`pane_at_*` are 1, its layout is one cell), it is always the active pane, and
//! there is never a last or zoomed pane. Values describe a server with no attached client
//! (no alerts, no client lists).

use super::window_name_from;
use crate::engine::format::{self, Item, Scope, Values};
use crate::engine::layout;
use crate::engine::pane::Pane;
use crate::engine::session::{Session, Window};
use crate::engine::target::Found;
use crate::engine::Engine;

/// Expands a format for a target (or for nothing in particular).
pub fn expand(e: &Engine, template: &str, at: Option<Found>) -> String {
    let values = FormatValues::new(e, at);
    format::expand(template, &values, e.host.wall_time())
}

/// Variables whose values come from a screen's rows rather than its counters.
pub const ROW_VARIABLES: &[&str] = &["cursor_character", "history_bytes"];

/// tmux 3.3a's `WINDOW_TREE_DEFAULT_FORMAT` (window-tree.c), `#{tree_mode_format}`.
pub const TREE_MODE_FORMAT: &str = concat!(
    "#{?pane_format,",
    "#{?pane_marked,#[reverse],}",
    "#{pane_current_command}#{?pane_active,*,}#{?pane_marked,M,}",
    "#{?#{&&:#{pane_title},#{!=:#{pane_title},#{host_short}}},: \"#{pane_title}\",}",
    ",",
    "#{?window_format,",
    "#{?window_marked_flag,#[reverse],}",
    "#{window_name}#{window_flags}",
    "#{?#{&&:#{==:#{window_panes},1},#{&&:#{pane_title},#{!=:#{pane_title},#{host_short}}}},: \"#{pane_title}\",}",
    ",",
    "#{session_windows} windows",
    "#{?session_grouped, (group #{session_group}: #{session_group_list}),}",
    "#{?session_attached, (attached),}",
    "}",
    "}"
);

/// Variables `display-message -a` lists.
pub const VARIABLES: &[&str] = &[
    "active_window_index",
    "alternate_on",
    "alternate_saved_x",
    "alternate_saved_y",
    "buffer_mode_format",
    "client_mode_format",
    "command",
    "config_files",
    "copy_cursor_x",
    "copy_cursor_y",
    "cursor_character",
    "cursor_flag",
    "cursor_x",
    "cursor_y",
    "history_bytes",
    "history_limit",
    "history_size",
    "host",
    "host_short",
    "insert_flag",
    "keypad_cursor_flag",
    "keypad_flag",
    "last_window_index",
    "mouse_all_flag",
    "mouse_any_flag",
    "mouse_button_flag",
    "mouse_sgr_flag",
    "mouse_standard_flag",
    "mouse_utf8_flag",
    "next_session_id",
    "origin_flag",
    "pane_active",
    "pane_at_bottom",
    "pane_at_left",
    "pane_at_right",
    "pane_at_top",
    "pane_bg",
    "pane_bottom",
    "pane_current_command",
    "pane_current_path",
    "pane_dead",
    "pane_dead_status",
    "pane_fg",
    "pane_format",
    "pane_height",
    "pane_id",
    "pane_in_mode",
    "pane_index",
    "pane_input_off",
    "pane_last",
    "pane_left",
    "pane_marked",
    "pane_marked_set",
    "pane_path",
    "pane_pid",
    "pane_pipe",
    "pane_right",
    "pane_search_string",
    "pane_start_command",
    "pane_start_path",
    "pane_synchronized",
    "pane_tabs",
    "pane_title",
    "pane_top",
    "pane_tty",
    "pane_width",
    "pid",
    "scroll_position",
    "scroll_region_lower",
    "scroll_region_upper",
    "selection_active",
    "selection_present",
    "session_activity",
    "session_alerts",
    "session_attached",
    "session_created",
    "session_format",
    "session_grouped",
    "session_id",
    "session_last_attached",
    "session_many_attached",
    "session_marked",
    "session_name",
    "session_path",
    "session_stack",
    "session_windows",
    "socket_path",
    "start_time",
    "tree_mode_format",
    "uid",
    "user",
    "version",
    "window_active",
    "window_active_clients",
    "window_active_sessions",
    "window_active_sessions_list",
    "window_activity",
    "window_activity_flag",
    "window_bell_flag",
    "window_cell_height",
    "window_cell_width",
    "window_end_flag",
    "window_flags",
    "window_format",
    "window_height",
    "window_id",
    "window_index",
    "window_last_flag",
    "window_layout",
    "window_linked",
    "window_linked_sessions",
    "window_linked_sessions_list",
    "window_marked_flag",
    "window_name",
    "window_panes",
    "window_raw_flags",
    "window_silence_flag",
    "window_stack_index",
    "window_start_flag",
    "window_visible_layout",
    "window_width",
    "window_zoomed_flag",
    "wrap_flag",
];

/// What a format describes, for `session_format`, `window_format` and `pane_format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatKind {
    Session,
    Window,
    Pane,
}

/// The variables a format sees for one target.
pub struct FormatValues<'a> {
    e: &'a Engine,
    at: Option<Found>,
    session: Option<&'a Session>,
    window: Option<&'a Window>,
    window_current: bool,
    kind: FormatKind,
    /// `#{line}`: the item's number in a list command's output.
    line: Option<usize>,
}

impl<'a> FormatValues<'a> {
    pub fn new(e: &'a Engine, at: Option<Found>) -> FormatValues<'a> {
        let session = at.map(|f| &e.sessions[f.session]);
        let window = at.map(|f| &e.sessions[f.session].windows[f.window]);
        FormatValues {
            e,
            at,
            session,
            window,
            window_current: at.is_some_and(|f| e.sessions[f.session].current == f.window),
            kind: FormatKind::Pane,
            line: None,
        }
    }

    /// Sets what the format describes (list-windows formats a window, list-panes a pane).
    pub fn kind(mut self, kind: FormatKind) -> Self {
        self.kind = kind;
        self
    }

    /// Sets `#{line}`.
    pub fn line(mut self, n: usize) -> Self {
        self.line = Some(n);
        self
    }

    /// Expands a template with these values.
    pub fn expand(&self, template: &str) -> String {
        format::expand(template, self, self.e.host.wall_time())
    }

    fn pane(&self) -> Option<&'a Pane> {
        self.window.map(|w| &w.pane)
    }

    /// The window's name (kept current by automatic-rename before each command).
    fn window_name(&self, w: &Window) -> String {
        w.name.clone()
    }

    /// The window is the session's last window (top of its last-window stack).
    fn is_last(&self, w: &Window) -> bool {
        self.session.is_some_and(|s| s.last.first() == Some(&w.id))
    }
}

fn flag(b: bool) -> String {
    if b { "1" } else { "0" }.to_string()
}

/// Heap bytes a session's panes hold: their screens (history included) and queues.
fn session_memory(s: &Session) -> usize {
    s.windows.iter().map(|w| w.pane.heap_bytes()).sum()
}

/// Bytes a pane's screen takes in the cold store (0 unless it is cold).
fn pane_memory_cold(p: &Pane) -> usize {
    p.fold.cold.map_or(0, |at| at.stored_bytes())
}

/// Default tab stops as `pane_tabs` lists them: every eighth column.
fn tab_stops(cols: u32) -> String {
    (1..)
        .map(|i| i * 8)
        .take_while(|&x| x < cols)
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

impl Values for FormatValues<'_> {
    fn each(&self, scope: Scope) -> Option<Vec<Item<'_>>> {
        let e = self.e;
        let kind = match scope {
            Scope::Sessions => FormatKind::Session,
            Scope::Windows => FormatKind::Window,
            Scope::Panes => FormatKind::Pane,
        };
        let item = |f: Found, current: bool| Item {
            values: Box::new(FormatValues::new(e, Some(f)).kind(kind)) as Box<dyn Values>,
            current,
        };
        match scope {
            Scope::Sessions => {
                let mut order: Vec<usize> = (0..e.sessions.len()).collect();
                order.sort_by(|&a, &b| e.sessions[a].name.cmp(&e.sessions[b].name));
                Some(
                    order
                        .into_iter()
                        .map(|si| {
                            let f = Found {
                                session: si,
                                window: e.sessions[si].current,
                            };
                            item(f, false)
                        })
                        .collect(),
                )
            }
            Scope::Windows => {
                let at = self.at?;
                let s = &e.sessions[at.session];
                Some(
                    (0..s.windows.len())
                        .map(|wi| {
                            let f = Found {
                                session: at.session,
                                window: wi,
                            };
                            item(f, wi == s.current)
                        })
                        .collect(),
                )
            }
            Scope::Panes => Some(vec![item(self.at?, true)]),
        }
    }

    fn name_exists(&self, scope: Scope, name: &str) -> Option<bool> {
        match scope {
            Scope::Sessions => Some(self.e.sessions.iter().any(|s| s.name == name)),
            _ => Some(self.session?.windows.iter().any(|w| w.name == name)),
        }
    }

    fn get(&self, name: &str) -> Option<String> {
        use crate::term::mode;
        let e = self.e;
        let v = match name {
            "host" => e.host_name.clone(),
            "host_short" => e.host_name.split('.').next().unwrap_or("").to_string(),
            "pid" => e.server_pid.to_string(),
            "socket_path" => e.socket_path.clone(),
            "command" => e.running_command?.to_string(),
            "next_session_id" => format!("${}", e.next_session),
            "uid" => e.user.id.to_string(),
            "user" => e.user.name.clone(),
            "start_time" => e.started.to_string(),
            "config_files" => e.config_files.join(","),
            // The formats of tmux's choose-buffer, choose-client and choose-tree, which
            // scripts read to list what those modes would: fixed texts, not expanded.
            "buffer_mode_format" => "#{t/p:buffer_created}: #{buffer_sample}".into(),
            "client_mode_format" => "#{t/p:client_activity}: session #{session_name}".into(),
            "tree_mode_format" => TREE_MODE_FORMAT.into(),
            "version" => env!("CARGO_PKG_VERSION").to_string(),
            "server_memory" => {
                let sessions: usize = e.sessions.iter().map(session_memory).sum();
                (sessions + e.buffers.heap_bytes()).to_string()
            }
            "server_memory_cold" => {
                (e.cold.file_bytes() + e.cold.reference_bytes() as u64).to_string()
            }
            _ => {
                return self.object_value(name).or_else(|| {
                    let mode_flag = |bit: u32| self.pane().map(|p| flag(p.term.mode() & bit != 0));
                    match name {
                        "cursor_flag" => mode_flag(mode::CURSOR),
                        "insert_flag" => mode_flag(mode::INSERT),
                        "keypad_cursor_flag" => mode_flag(mode::KCURSOR),
                        "keypad_flag" => mode_flag(mode::KKEYPAD),
                        "wrap_flag" => mode_flag(mode::WRAP),
                        "origin_flag" => mode_flag(mode::ORIGIN),
                        "mouse_any_flag" => mode_flag(mode::ALL_MOUSE),
                        "mouse_standard_flag" => mode_flag(mode::MOUSE_STANDARD),
                        "mouse_button_flag" => mode_flag(mode::MOUSE_BUTTON),
                        "mouse_all_flag" => mode_flag(mode::MOUSE_ALL),
                        "mouse_sgr_flag" => mode_flag(mode::MOUSE_SGR),
                        "mouse_utf8_flag" => mode_flag(mode::MOUSE_UTF8),
                        // Options by name, as tmux's formats see them (scoped to the target).
                        _ => e.options.format_value(name, self.session, self.window),
                    }
                });
            }
        };
        Some(v)
    }
}

impl FormatValues<'_> {
    fn object_value(&self, name: &str) -> Option<String> {
        if let Some(s) = self.session {
            let v = match name {
                "session_name" => Some(s.name.clone()),
                "session_id" => Some(format!("${}", s.id)),
                "session_created" => Some(s.created.to_string()),
                "session_activity" => Some(s.activity.to_string()),
                // A time of 0 shows as nothing, as tmux shows a session never attached.
                "session_last_attached" if s.last_attached == 0 => Some(String::new()),
                "session_last_attached" => Some(s.last_attached.to_string()),
                "session_attached" => Some(s.attached.to_string()),
                "session_windows" => Some(s.windows.len().to_string()),
                "active_window_index" => Some(s.current_window().index.to_string()),
                // The highest index (windows are kept in index order).
                "last_window_index" => s.windows.last().map(|w| w.index.to_string()),
                "session_path" => Some(s.cwd.clone()),
                "session_memory" => Some(session_memory(s).to_string()),
                "session_memory_cold" => {
                    let cold: usize = s.windows.iter().map(|w| pane_memory_cold(&w.pane)).sum();
                    Some(cold.to_string())
                }
                "session_many_attached" => Some(flag(s.attached > 1)),
                "session_grouped" | "session_marked" => Some("0".into()),
                "session_alerts" | "session_attached_list" => Some(String::new()),
                "session_format" => Some(flag(self.kind == FormatKind::Session)),
                "session_stack" => {
                    let mut ids = vec![s.current_window().id];
                    ids.extend(&s.last);
                    let idx: Vec<String> = ids
                        .iter()
                        .filter_map(|&id| s.position_of_id(id))
                        .map(|i| s.windows[i].index.to_string())
                        .collect();
                    Some(idx.join(","))
                }
                "window_format" => Some(flag(self.kind == FormatKind::Window)),
                "pane_format" => Some(flag(self.kind == FormatKind::Pane)),
                "line" => self.line.map(|n| n.to_string()),
                _ => None,
            };
            if v.is_some() {
                return v;
            }
        }
        let w = self.window?;
        let p = &w.pane;
        let t = &p.term;
        Some(match name {
            "window_index" => w.index.to_string(),
            "window_id" => format!("@{}", w.id),
            "window_name" => self.window_name(w),
            "window_active" => flag(self.window_current),
            "window_width" | "pane_width" => t.cols().to_string(),
            "window_height" | "pane_height" => t.rows().to_string(),
            "window_panes" => "1".into(),
            // tmux's order is activity, bell, silence, current, last, marked, zoomed; only
            // current and last can happen without a client.
            "window_flags" | "window_raw_flags" => {
                let mut f = String::new();
                if self.window_current {
                    f.push('*');
                }
                if self.is_last(w) {
                    f.push('-');
                }
                f
            }
            "window_last_flag" => flag(self.is_last(w)),
            "window_start_flag" => flag(
                self.session
                    .is_some_and(|s| s.windows.first().map(|x| x.id) == Some(w.id)),
            ),
            "window_end_flag" => flag(
                self.session
                    .is_some_and(|s| s.windows.last().map(|x| x.id) == Some(w.id)),
            ),
            "window_stack_index" => self.session.map_or(0, |s| s.stack_index(w.id)).to_string(),
            "window_layout" | "window_visible_layout" => layout::one_pane(t.cols(), t.rows(), p.id),
            "window_zoomed_flag"
            | "window_marked_flag"
            | "window_activity_flag"
            | "window_bell_flag"
            | "window_silence_flag"
            | "window_linked" => "0".into(),
            "window_active_clients" => match self.session {
                Some(s) if self.window_current => {
                    let showing = self.e.clients.iter().filter(|c| c.session == s.id);
                    showing.count().to_string()
                }
                _ => "0".into(),
            },
            "window_active_clients_list" => String::new(),
            "window_linked_sessions" => "1".into(),
            "window_linked_sessions_list" => self.session.map(|s| s.name.clone())?,
            "window_active_sessions" => flag(self.window_current),
            "window_active_sessions_list" => match self.session {
                Some(s) if self.window_current => s.name.clone(),
                _ => String::new(),
            },
            // tmux's default cell size in pixels when no client reports one.
            "window_cell_width" => "16".into(),
            "window_cell_height" => "32".into(),
            "pane_at_top" | "pane_at_bottom" | "pane_at_left" | "pane_at_right" => "1".into(),
            "pane_top" | "pane_left" => "0".into(),
            "pane_bottom" => t.rows().saturating_sub(1).to_string(),
            "pane_right" => t.cols().saturating_sub(1).to_string(),
            "pane_last" | "pane_marked" | "pane_marked_set" | "pane_synchronized" => "0".into(),
            "pane_input_off" => flag(w.input_off),
            "pane_mode" => self.e.pane_mode(p.id).unwrap_or_default().into(),
            // Copy mode's, when a client shows the pane in it (unset otherwise, as in tmux).
            "copy_cursor_x" | "copy_cursor_y" | "scroll_position" | "selection_active"
            | "selection_present" => self.e.pane_copy_mode(p.id)?.format(name),
            "pane_search_string" => self
                .e
                .pane_searches
                .get(&p.id)
                .map(|(text, _)| text.clone())
                .unwrap_or_default(),
            "pane_path" => String::new(),
            "pane_fg" | "pane_bg" => "default".into(),
            "pane_tabs" => tab_stops(t.cols()),
            "window_activity" => w.activity.to_string(),
            "pane_id" => format!("%{}", p.id),
            "pane_index" => "0".into(),
            "pane_active" => "1".into(),
            "pane_pid" => p.pid.to_string(),
            "pane_pipe" => flag(p.pipe.is_some()),
            "pane_tty" => p.tty.clone(),
            "pane_start_command" => p.start_command.clone(),
            "pane_current_command" => {
                let os = &*self.e.host;
                let fg = os.foreground_group(p.slot).unwrap_or(p.pid);
                os.process_name(fg)
                    .map(|n| window_name_from(&n))
                    .unwrap_or_default()
            }
            "pane_current_path" => self
                .e
                .host
                .process_cwd(p.pid)
                .unwrap_or_else(|| p.start_cwd.clone()),
            "pane_dead" => flag(p.dead),
            // Unset, not empty, while the pane lives: `display-message -a` leaves it out.
            "pane_dead_status" => p
                .dead_status
                .filter(|s| s & 0x7f == 0)
                .map(|s| ((s >> 8) & 0xff).to_string())?,
            "pane_dead_signal" => p
                .dead_status
                .filter(|s| s & 0x7f != 0 && s & 0x7f != 0x7f)
                .map(|s| (s & 0x7f).to_string())
                .unwrap_or_default(),
            "pane_dead_time" => w.dead_time.map(|t| t.to_string()).unwrap_or_default(),
            "pane_in_mode" => u8::from(self.e.pane_in_view(p.id)).to_string(),
            "pane_title" => t.title().to_string(),
            "cursor_x" => t.cursor().0.to_string(),
            "cursor_y" => t.cursor().1.to_string(),
            "cursor_character" => t.cursor_character(),
            "history_size" => t.history_size().to_string(),
            "history_limit" => t.history_limit().to_string(),
            "history_bytes" => t.history_bytes().to_string(),
            "pane_memory" => p.heap_bytes().to_string(),
            "pane_memory_cold" => pane_memory_cold(p).to_string(),
            "pane_memory_state" => p.fold.state_name(t.is_frozen()).to_string(),
            "pane_bytes_read" => p.bytes_read.to_string(),
            "alternate_on" => flag(t.alternate_on()),
            "alternate_saved_x" => t.alternate_saved_cursor().0.to_string(),
            "alternate_saved_y" => t.alternate_saved_cursor().1.to_string(),
            "scroll_region_upper" => t.scroll_region().0.to_string(),
            "scroll_region_lower" => t.scroll_region().1.to_string(),
            "pane_start_path" => p.start_cwd.clone(),
            _ => return None,
        })
    }
}
