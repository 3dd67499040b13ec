//! Subscriptions of control clients (`refresh-client -B NAME:WHAT:FORMAT`): formats whose
//! values a client is told, as `%subscription-changed NAME $S @W INDEX %P : VALUE`, whenever
//! they change, checked once a second as tmux's timer checks them. WHAT is the session
//! (anything but the forms below: the line has `- - -` for the window and pane), `%ID` (a
//! pane of the client's session whose program runs), `%*` (every pane of it), `@ID` or `@*`
//! (its windows: `-` for the pane).
//!
//! Invariant: a client's check is due exactly while it has subscriptions.

use super::super::commands::expand_for_client;
use super::super::target::Found;
use super::super::Engine;
use super::leading_number;
use std::collections::BTreeMap;

/// How often subscriptions are checked (tmux's timer).
const SUBSCRIPTION_INTERVAL_MS: u64 = 1000;

/// A format whose value the client is told whenever it changes (`refresh-client -B
/// NAME:WHAT:FORMAT`), checked once a second as tmux checks it.
#[derive(Debug)]
pub struct Subscription {
    what: Watched,
    format: String,
    /// The value last told for each place: (pane or window id, window index), or one entry
    /// for the session.
    last: BTreeMap<(u32, u32), String>,
}

/// What a subscription's format is expanded for, in the client's session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Watched {
    Session,
    /// `%ID`, while its program runs.
    Pane(u32),
    /// `%*`.
    Panes,
    /// `@ID`.
    Window(u32),
    /// `@*`.
    Windows,
}

impl Watched {
    /// WHAT as tmux reads it: `%*`, `%N`, `@*`, `@N`, anything else the session.
    fn parse(what: &str) -> Watched {
        let id = |mark: char| what.strip_prefix(mark).and_then(leading_number);
        match (what, id('%'), id('@')) {
            ("%*", ..) => Watched::Panes,
            ("@*", ..) => Watched::Windows,
            (_, Some(pane), _) => Watched::Pane(pane),
            (_, _, Some(window)) => Watched::Window(window),
            _ => Watched::Session,
        }
    }
}

impl Engine {
    /// `refresh-client -B NAME:WHAT:FORMAT` adds (or replaces) a subscription; `-B NAME`
    /// removes one; a value with one colon does nothing, as in tmux.
    pub fn set_control_subscription(&mut self, conn: u64, spec: &str) {
        let now = self.host.now_ms();
        let Some(ctl) = self.control_mut(conn) else {
            return;
        };
        let Some((name, rest)) = spec.split_once(':') else {
            ctl.subscriptions.remove(spec);
            if ctl.subscriptions.is_empty() {
                ctl.subscriptions_due = None;
            }
            return;
        };
        let Some((what, format)) = rest.split_once(':') else {
            return;
        };
        let subscription = Subscription {
            what: Watched::parse(what),
            format: format.to_string(),
            last: BTreeMap::new(),
        };
        ctl.subscriptions.insert(name.to_string(), subscription);
        ctl.subscriptions_due
            .get_or_insert(now + SUBSCRIPTION_INTERVAL_MS);
    }

    /// When control clients' subscriptions are next checked.
    pub(crate) fn subscriptions_deadline(&self) -> Option<u64> {
        self.clients
            .iter()
            .filter_map(|c| c.control.as_ref()?.subscriptions_due)
            .min()
    }

    /// Tells each control client whose check is due the subscriptions whose values changed.
    pub(super) fn check_subscriptions(&mut self) {
        let now = self.host.now_ms();
        let due: Vec<u64> = self
            .clients
            .iter()
            .filter(|c| {
                c.control
                    .as_ref()
                    .and_then(|ctl| ctl.subscriptions_due)
                    .is_some_and(|t| now >= t)
            })
            .map(|c| c.conn)
            .collect();
        for conn in due {
            let changed = self.changed_subscriptions(conn);
            let Some(ctl) = self.control_mut(conn) else {
                continue;
            };
            for (name, key, line, value) in changed {
                ctl.line(&line);
                if let Some(sub) = ctl.subscriptions.get_mut(&name) {
                    sub.last.insert(key, value);
                }
            }
            ctl.subscriptions_due =
                (!ctl.subscriptions.is_empty()).then_some(now + SUBSCRIPTION_INTERVAL_MS);
        }
    }

    /// A client's subscriptions whose values changed: name, place, line and value.
    fn changed_subscriptions(&self, conn: u64) -> Vec<(String, (u32, u32), String, String)> {
        let mut changed = Vec::new();
        let Some(c) = self.clients.get(conn) else {
            return changed;
        };
        let (Some(ctl), Some(si)) = (c.control.as_deref(), self.session_index(c.session)) else {
            return changed;
        };
        for (name, sub) in &ctl.subscriptions {
            for (key, place, at) in self.watched_places(si, sub.what) {
                let value = expand_for_client(self, &sub.format, Some(at), c);
                if sub.last.get(&key) != Some(&value) {
                    let line = format!("%subscription-changed {name} {place} : {value}");
                    changed.push((name.clone(), key, line, value));
                }
            }
        }
        changed
    }

    /// Where a subscription is expanded in session `si`: each place's key, how the line
    /// names it (`$S @W INDEX %P`, with `-` for what it is not), and the place.
    fn watched_places(&self, si: usize, what: Watched) -> Vec<((u32, u32), String, Found)> {
        let s = &self.sessions[si];
        let sid = s.id;
        let at = |wi: usize| Found {
            session: si,
            window: wi,
        };
        let pane = |wi: usize| {
            let w = &s.windows[wi];
            let place = format!("${sid} @{} {} %{}", w.id, w.index, w.pane.id);
            ((w.pane.id, w.index), place, at(wi))
        };
        let window = |wi: usize| {
            let w = &s.windows[wi];
            (
                (w.id, w.index),
                format!("${sid} @{} {} -", w.id, w.index),
                at(wi),
            )
        };
        let all = 0..s.windows.len();
        match what {
            Watched::Session => vec![((u32::MAX, 0), format!("${sid} - - -"), at(s.current))],
            Watched::Panes => all.map(pane).collect(),
            Watched::Windows => all.map(window).collect(),
            Watched::Pane(id) => all
                .filter(|&wi| s.windows[wi].pane.id == id && s.windows[wi].pane.io.is_some())
                .map(pane)
                .collect(),
            Watched::Window(id) => all
                .filter(|&wi| s.windows[wi].id == id)
                .map(window)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_read_as_tmux_reads_it() {
        assert_eq!(Watched::parse("%*"), Watched::Panes);
        assert_eq!(Watched::parse("@*"), Watched::Windows);
        assert_eq!(Watched::parse("%12"), Watched::Pane(12));
        assert_eq!(Watched::parse("@3x"), Watched::Window(3));
        assert_eq!(Watched::parse(""), Watched::Session);
        assert_eq!(Watched::parse("%-1"), Watched::Session);
        assert_eq!(Watched::parse("$0"), Watched::Session);
    }
}
