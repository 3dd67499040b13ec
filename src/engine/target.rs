//! Targets (`-t`): finding the session, window and pane a command names, as tmux 3.3a's
//! cmd-find does.
//!
//! A target is `session:window.pane`, any part optional: `$id`, `@id` and `%id` name objects
//! directly; a session is matched by exact name (`=name` allows only that), then unique prefix,
//! then unique glob; a window by offset (`+N`, `-N`), `!` (last), `^`, `$`, index, exact name,
//! unique prefix, unique glob (`=name`: index or exact name only); a pane by index, `%id`,
//! offset or position word (`top`, `left`...), which in a one-pane window all name its pane.
//! tmux's `{last}`, `{next}`, `{start}`... are the same as their characters. A bare word is
//! tried as the kind the command wants, then as window and session. Missing parts are the
//! current ones: the pane the command runs in (`ZEROPTY_PANE`, or what an earlier command of
//! the same request made current), or the most recently active session.
//!
//! `new-window -t` may name an index no window has yet ([`resolve_index`]).
//!
//! Errors are tmux's: `can't find session: X`, `can't find window: X`, `can't find pane: X`,
//! `can't specify pane here`, `no current target`, `no mouse target`, `no marked target`.

use super::numbers::strtonum;
use super::session::{Session, Sessions};

/// What a command's `-t` must resolve to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Session,
    Window,
    Pane,
}

/// A resolved target: positions in the engine's session list and the session's window list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub session: usize,
    pub window: usize,
}

/// The session a command runs against when it names none: the one containing the calling pane,
/// else the most recently active (ties: the higher id, as tmux's newest-first order gives).
pub fn current(sessions: &[Session], calling_pane: Option<u32>) -> Option<Found> {
    if let Some(id) = calling_pane {
        if let Some(f) = find_pane_id(sessions, id) {
            return Some(f);
        }
    }
    let s = (0..sessions.len()).max_by_key(|&i| (sessions[i].activity, sessions[i].id))?;
    Some(Found {
        session: s,
        window: sessions[s].current,
    })
}

fn find_pane_id(sessions: &[Session], id: u32) -> Option<Found> {
    for (si, s) in sessions.iter().enumerate() {
        if let Some(wi) = s.windows.iter().position(|w| w.pane.id == id) {
            return Some(Found {
                session: si,
                window: wi,
            });
        }
    }
    None
}

fn find_window_id(sessions: &[Session], id: u32, prefer: Option<usize>) -> Option<Found> {
    let order = prefer.into_iter().chain(0..sessions.len());
    for si in order {
        if let Some(wi) = sessions[si].windows.iter().position(|w| w.id == id) {
            return Some(Found {
                session: si,
                window: wi,
            });
        }
    }
    None
}

fn parse_id(s: &str, sigil: char) -> Option<u32> {
    s.strip_prefix(sigil)?.parse().ok()
}

/// Finds a session by name as tmux does (`exact` for `=name`).
pub fn find_session(sessions: &Sessions, name: &str, exact: bool) -> Option<usize> {
    if name.starts_with('$') {
        let id = parse_id(name, '$')?;
        return sessions.iter().position(|s| s.id == id);
    }
    if let Some(i) = sessions.position_of_name(name) {
        return Some(i);
    }
    if exact {
        return None;
    }
    unique(sessions.iter().map(|s| s.name.starts_with(name)))
        .or_else(|| unique(sessions.iter().map(|s| glob(name, &s.name))))
}

/// The single true position, or `None` for none or several.
fn unique(mut hits: impl Iterator<Item = bool>) -> Option<usize> {
    let first = hits.position(|h| h)?;
    if hits.any(|h| h) {
        None
    } else {
        Some(first)
    }
}

/// Where a window word leads within one session: an existing window (position) and the index
/// it names. With `index_ok` (new-window's `-t`), a free index or an offset from the current
/// window may name no window at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WindowHit {
    window: Option<usize>,
    index: Option<u32>,
}

/// Finds a window in a session by index, name, prefix or glob (`exact`: no offsets or
/// specials), as tmux's cmd_find_get_window_with_session.
pub fn find_window(s: &Session, name: &str, exact: bool) -> Option<usize> {
    window_in_session(s, name, exact, false).and_then(|h| h.window)
}

fn window_in_session(s: &Session, name: &str, exact: bool, index_ok: bool) -> Option<WindowHit> {
    let hit = |i: usize| {
        Some(WindowHit {
            window: Some(i),
            index: Some(s.windows[i].index),
        })
    };
    if name.starts_with('@') {
        let id = parse_id(name, '@')?;
        return hit(s.position_of_id(id)?);
    }
    if !exact && (name.starts_with('+') || name.starts_with('-')) {
        let n = offset(name);
        if index_ok {
            let cur = s.windows[s.current].index as i64;
            let idx = if name.starts_with('+') {
                cur + n
            } else {
                cur - n
            };
            if !(0..=i32::MAX as i64).contains(&idx) {
                return None;
            }
            return Some(WindowHit {
                window: Some(s.current),
                index: Some(idx as u32),
            });
        }
        let len = s.windows.len() as i64;
        let step = if name.starts_with('+') { n } else { -n };
        return hit((s.current as i64 + step).rem_euclid(len) as usize);
    }
    if !exact {
        match name {
            "!" => return hit(s.last.first().and_then(|&id| s.position_of_id(id))?),
            "^" => return hit(0),
            "$" => return hit(s.windows.len().checked_sub(1)?),
            _ => {}
        }
    }
    if !name.starts_with('+') && !name.starts_with('-') {
        if let Some(idx) = index(name) {
            if let Some(i) = s.position_of_index(idx) {
                return hit(i);
            }
            if index_ok {
                return Some(WindowHit {
                    window: None,
                    index: Some(idx),
                });
            }
        }
    }
    let exact_hits = s.windows.iter().filter(|w| w.name == name).count();
    if exact_hits == 1 {
        return hit(s.windows.iter().position(|w| w.name == name)?);
    }
    if exact_hits > 1 || exact {
        return None;
    }
    unique(s.windows.iter().map(|w| w.name.starts_with(name)))
        .or_else(|| unique(s.windows.iter().map(|w| glob(name, &w.name))))
        .and_then(hit)
}

/// A window or pane index: a number from 0 to `i32::MAX`, as tmux reads it.
fn index(s: &str) -> Option<u32> {
    strtonum(s, 0, i32::MAX.into()).ok().map(|n| n as u32)
}

/// The distance of `+N` / `-N` (a bare `+` or `-` is 1; anything unparsable is 0, which tmux
/// treats as the current window).
fn offset(s: &str) -> i64 {
    let rest = &s[1..];
    if rest.is_empty() {
        return 1;
    }
    match rest.parse::<i64>() {
        Ok(n) if (1..=i32::MAX as i64).contains(&n) => n,
        _ => 0,
    }
}

/// tmux's names for special targets, mapped to the characters it uses for them.
fn map_window(w: &str) -> &str {
    match w {
        "{start}" => "^",
        "{last}" => "!",
        "{end}" => "$",
        "{next}" => "+",
        "{previous}" => "-",
        _ => w,
    }
}

fn map_pane(p: &str) -> &str {
    match p {
        "{last}" => "!",
        "{next}" => "+",
        "{previous}" => "-",
        "{top}" => "top",
        "{bottom}" => "bottom",
        "{left}" => "left",
        "{right}" => "right",
        "{top-left}" => "top-left",
        "{top-right}" => "top-right",
        "{bottom-left}" => "bottom-left",
        "{bottom-right}" => "bottom-right",
        _ => p,
    }
}

/// Whether `p` names the one pane of a window: its index, `%id`, an offset (panes wrap, so
/// every offset lands on it) or a position word. `!` (the last pane) and `{up-of}` and the
/// like name nothing in a one-pane window.
fn pane_in_window(s: &Session, wi: usize, p: &str) -> bool {
    if p.starts_with('%') {
        return parse_id(p, '%') == Some(s.windows[wi].pane.id);
    }
    if p.starts_with('+') || p.starts_with('-') {
        return true;
    }
    if index(p) == Some(0) {
        return true;
    }
    const PLACES: &[&str] = &[
        "top",
        "bottom",
        "left",
        "right",
        "top-left",
        "top-right",
        "bottom-left",
        "bottom-right",
    ];
    PLACES.iter().any(|w| w.eq_ignore_ascii_case(p))
}

/// A resolved `new-window -t`: the session, the window named (if any) and the index named
/// (`None`: the next free index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexTarget {
    pub session: usize,
    pub window: Option<usize>,
    pub index: Option<u32>,
}

/// Resolves `target` (or the current target when `None`) to what a command of `kind` needs.
pub fn resolve(
    sessions: &Sessions,
    target: Option<&str>,
    kind: Kind,
    calling_pane: Option<u32>,
) -> Result<Found, String> {
    let t = find(sessions, target, kind, false, calling_pane)?;
    let window = t.window.unwrap_or_else(|| sessions[t.session].current);
    Ok(Found {
        session: t.session,
        window,
    })
}

/// Resolves a window target that may name a free index (tmux's CMD_FIND_WINDOW_INDEX, for
/// `new-window -t`): `sess:5` with no window 5 is index 5, `:+1` the index after the current
/// window's.
pub fn resolve_index(
    sessions: &Sessions,
    target: Option<&str>,
    calling_pane: Option<u32>,
) -> Result<IndexTarget, String> {
    find(sessions, target, Kind::Window, true, calling_pane)
}

fn find(
    sessions: &Sessions,
    target: Option<&str>,
    kind: Kind,
    index_ok: bool,
    calling_pane: Option<u32>,
) -> Result<IndexTarget, String> {
    if sessions.is_empty() {
        return Err("no current target".into());
    }
    // Found only when the target is relative to it (once or twice on a path): a named
    // session is found without a look at every session's activity.
    let cur = || {
        current(sessions, calling_pane).unwrap_or(Found {
            session: 0,
            window: sessions[0].current,
        })
    };
    let at = |f: Found| IndexTarget {
        session: f.session,
        window: Some(f.window),
        index: Some(sessions[f.session].windows[f.window].index),
    };
    let target = match target {
        None | Some("") => {
            let mut t = at(cur());
            if index_ok {
                t.index = None;
            }
            return Ok(t);
        }
        Some(t) => t,
    };
    if target == "=" || target == "{mouse}" {
        return Err("no mouse target".into());
    }
    if target == "~" || target == "{marked}" {
        return Err("no marked target".into());
    }
    let p = split(target, kind);
    let (session, exact_session) = match p.session {
        Some(s) => strip_exact(s),
        None => ("", false),
    };
    let (window, exact_window) = match p.window {
        Some(w) => strip_exact(w),
        None => ("", false),
    };
    let session = Some(session).filter(|s| !s.is_empty());
    let window = Some(window).filter(|w| !w.is_empty()).map(map_window);
    let pane = p.pane.filter(|p| !p.is_empty()).map(map_pane);
    if pane.is_some() && index_ok {
        return Err("can't specify pane here".into());
    }
    let no_window = |w: &str| format!("can't find window: {w}");
    let no_pane = |p: &str| format!("can't find pane: {p}");

    if let Some(name) = session {
        let si = find_session(sessions, name, exact_session)
            .ok_or_else(|| format!("can't find session: {name}"))?;
        let s = &sessions[si];
        let mut t = IndexTarget {
            session: si,
            window: Some(s.current),
            index: None,
        };
        if let Some(w) = window {
            let hit =
                window_in_session(s, w, exact_window, index_ok).ok_or_else(|| no_window(w))?;
            t.window = hit.window;
            t.index = hit.index;
        }
        if let Some(p) = pane {
            if window.is_none() && p.starts_with('%') {
                let f = parse_id(p, '%')
                    .and_then(|id| find_pane_id(sessions, id))
                    .filter(|f| f.session == si)
                    .ok_or_else(|| no_pane(p))?;
                return Ok(at(f));
            }
            let wi = t.window.unwrap_or(s.current);
            if !pane_in_window(s, wi, p) {
                return Err(no_pane(p));
            }
            t.index = Some(s.windows[wi].index);
        }
        return Ok(t);
    }

    // No session: a window alone may also name a session (unless written after a colon).
    let get_window = |w: &str, only: bool| -> Option<IndexTarget> {
        if w.starts_with('@') {
            let id = parse_id(w, '@')?;
            return find_window_id(sessions, id, Some(cur().session)).map(at);
        }
        let cur = cur();
        if let Some(hit) = window_in_session(&sessions[cur.session], w, exact_window, index_ok) {
            return Some(IndexTarget {
                session: cur.session,
                window: hit.window,
                index: hit.index,
            });
        }
        if only {
            return None;
        }
        let si = find_session(sessions, w, false)?;
        let mut t = at(Found {
            session: si,
            window: sessions[si].current,
        });
        if index_ok {
            t.index = None;
        }
        Some(t)
    };
    match (window, pane) {
        (Some(w), Some(p)) => {
            let t = get_window(w, target.contains(':')).ok_or_else(|| no_window(w))?;
            let wi = t.window.unwrap_or(sessions[t.session].current);
            if !pane_in_window(&sessions[t.session], wi, p) {
                return Err(no_pane(p));
            }
            Ok(t)
        }
        (Some(w), None) => get_window(w, target.contains(':')).ok_or_else(|| no_window(w)),
        (None, Some(p)) => {
            if p.starts_with('%') {
                return parse_id(p, '%')
                    .and_then(|id| find_pane_id(sessions, id))
                    .map(at)
                    .ok_or_else(|| no_pane(p));
            }
            let cur = cur();
            if pane_in_window(&sessions[cur.session], cur.window, p) {
                return Ok(at(cur));
            }
            if target.contains('.') {
                return Err(no_pane(p));
            }
            get_window(p, false).ok_or_else(|| no_pane(p))
        }
        (None, None) => {
            let mut t = at(cur());
            if index_ok {
                t.index = None;
            }
            Ok(t)
        }
    }
}

fn strip_exact(s: &str) -> (&str, bool) {
    match s.strip_prefix('=') {
        Some(rest) => (rest, true),
        None => (s, false),
    }
}

/// The parts of a target, split as tmux does.
#[derive(Debug, PartialEq, Eq)]
struct Parts<'a> {
    session: Option<&'a str>,
    window: Option<&'a str>,
    pane: Option<&'a str>,
}

/// Splits `session:window.pane` as tmux does; a bare word goes where `kind` puts it.
fn split(target: &str, kind: Kind) -> Parts<'_> {
    let parts = |session, window, pane| Parts {
        session,
        window,
        pane,
    };
    match target.split_once(':') {
        Some((s, rest)) => match rest.split_once('.') {
            Some((w, p)) => parts(Some(s), Some(w), Some(p)),
            None => parts(Some(s), Some(rest), None),
        },
        None => match target.split_once('.') {
            Some((w, p)) => parts(None, Some(w), Some(p)),
            None => {
                if target.starts_with('$') {
                    parts(Some(target), None, None)
                } else if target.starts_with('@') {
                    parts(None, Some(target), None)
                } else if target.starts_with('%') {
                    parts(None, None, Some(target))
                } else {
                    match kind {
                        Kind::Session => parts(Some(target), None, None),
                        Kind::Window => parts(None, Some(target), None),
                        Kind::Pane => parts(None, None, Some(target)),
                    }
                }
            }
        },
    }
}

/// fnmatch(3) with no flags: `*`, `?`, `[...]` (with `!`/`^` negation and ranges), `\` escapes.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    glob_at(&p, &t)
}

fn glob_at(p: &[char], t: &[char]) -> bool {
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() {
            match p[pi] {
                '*' => {
                    star = Some((pi, ti));
                    pi += 1;
                    continue;
                }
                '?' => {
                    pi += 1;
                    ti += 1;
                    continue;
                }
                '[' => {
                    if let Some((matched, next)) = class(p, pi, t[ti]) {
                        if matched {
                            pi = next;
                            ti += 1;
                            continue;
                        }
                    } else if t[ti] == '[' {
                        pi += 1;
                        ti += 1;
                        continue;
                    }
                }
                '\\' if pi + 1 < p.len() && p[pi + 1] == t[ti] => {
                    pi += 2;
                    ti += 1;
                    continue;
                }
                c if c == t[ti] => {
                    pi += 1;
                    ti += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((sp, st)) => {
                pi = sp + 1;
                ti = st + 1;
                star = Some((sp, st + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Matches `c` against the bracket expression at `p[at]`; `None` if it is not one.
fn class(p: &[char], at: usize, c: char) -> Option<(bool, usize)> {
    let mut i = at + 1;
    let negate = matches!(p.get(i), Some('!') | Some('^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    while i < p.len() && (p[i] != ']' || first) {
        first = false;
        let lo = p[i];
        if p.get(i + 1) == Some(&'-') && p.get(i + 2).is_some_and(|&h| h != ']') {
            let hi = p[i + 2];
            matched |= lo <= c && c <= hi;
            i += 3;
        } else {
            matched |= lo == c;
            i += 1;
        }
    }
    if i >= p.len() {
        return None;
    }
    Some((matched != negate, i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_matches_like_fnmatch() {
        assert!(glob("w*p", "workshop"));
        assert!(!glob("w*p", "work"));
        assert!(glob("wor?", "work"));
        assert!(glob("[a-c]x", "bx"));
        assert!(!glob("[!a-c]x", "bx"));
        assert!(glob("*", ""));
        assert!(glob("a\\*", "a*"));
    }

    #[test]
    fn offsets_parse() {
        assert_eq!(offset("+"), 1);
        assert_eq!(offset("-2"), 2);
        assert_eq!(offset("+x"), 0);
    }

    fn parts(target: &str, kind: Kind) -> (Option<&str>, Option<&str>, Option<&str>) {
        let p = split(target, kind);
        (p.session, p.window, p.pane)
    }

    #[test]
    fn split_follows_separators_and_kind() {
        assert_eq!(
            parts("a:1.0", Kind::Pane),
            (Some("a"), Some("1"), Some("0"))
        );
        assert_eq!(parts("a:", Kind::Pane), (Some("a"), Some(""), None));
        assert_eq!(parts("a", Kind::Session), (Some("a"), None, None));
        assert_eq!(parts("a", Kind::Window), (None, Some("a"), None));
        assert_eq!(parts("$3", Kind::Pane), (Some("$3"), None, None));
        assert_eq!(parts("%3", Kind::Session), (None, None, Some("%3")));
    }
}
