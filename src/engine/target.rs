//! Targets (`-t`): finding the session, window and pane a command names, as tmux 3.3a's
//! cmd-find does.
//!
//! A target is `session:window.pane`, any part optional: `$id`, `@id` and `%id` name objects
//! directly; a session is matched by exact name (`=name` allows only that), then unique prefix,
//! then unique glob; a window by index, exact name, unique prefix, unique glob (or `=name`); a
//! pane by index or `%id`. A bare word is tried as the kind the command wants, then as window
//! and session. Missing parts are the current ones: the pane the command runs in
//! (`ZEROPTY_PANE`), or the most recently active session.
//!
//! Errors are tmux's: `can't find session: X`, `can't find window: X`, `can't find pane: X`,
//! `no current target`.

use super::session::Session;

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
pub fn find_session(sessions: &[Session], name: &str, exact: bool) -> Option<usize> {
    if name.starts_with('$') {
        let id = parse_id(name, '$')?;
        return sessions.iter().position(|s| s.id == id);
    }
    if let Some(i) = sessions.iter().position(|s| s.name == name) {
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

/// Finds a window in a session by index, name, prefix or glob (`exact`: name only).
pub fn find_window(s: &Session, name: &str, exact: bool) -> Option<usize> {
    if name.starts_with('@') {
        let id = parse_id(name, '@')?;
        return s.windows.iter().position(|w| w.id == id);
    }
    if !exact {
        match name {
            "!" => {
                return s
                    .last
                    .and_then(|id| s.windows.iter().position(|w| w.id == id))
            }
            "^" => return (!s.windows.is_empty()).then_some(0),
            "$" => return s.windows.len().checked_sub(1),
            _ => {}
        }
        if let Some(off) = offset(name) {
            let n = s.windows.len() as i64;
            return Some((s.current as i64 + off).rem_euclid(n) as usize);
        }
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            if let Ok(idx) = name.parse::<u32>() {
                if let Some(i) = s.windows.iter().position(|w| w.index == idx) {
                    return Some(i);
                }
            }
        }
    }
    let exact_hits = s.windows.iter().filter(|w| w.name == name).count();
    if exact_hits == 1 {
        return s.windows.iter().position(|w| w.name == name);
    }
    if exact_hits > 1 || exact {
        return None;
    }
    unique(s.windows.iter().map(|w| w.name.starts_with(name)))
        .or_else(|| unique(s.windows.iter().map(|w| glob(name, &w.name))))
}

/// `+N` / `-N` (a bare `+` or `-` is 1).
fn offset(s: &str) -> Option<i64> {
    let (sign, rest) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    if rest.is_empty() {
        return Some(sign);
    }
    rest.parse::<i64>().ok().map(|n| sign * n)
}

/// Resolves `target` (or the current target when `None`) to what a command of `kind` needs.
pub fn resolve(
    sessions: &[Session],
    target: Option<&str>,
    kind: Kind,
    calling_pane: Option<u32>,
) -> Result<Found, String> {
    let cur = current(sessions, calling_pane).ok_or("no current target")?;
    let Some(target) = target else {
        return Ok(cur);
    };
    if let Some(id) = target.strip_prefix('%').and_then(|r| r.parse().ok()) {
        return find_pane_id(sessions, id).ok_or_else(|| format!("can't find pane: {target}"));
    }
    let (session, window, pane) = split(target, kind);
    let session = session.filter(|s| !s.is_empty() && *s != "=");
    let window = window.filter(|w| !w.is_empty() && *w != "=");
    let pane = pane.filter(|p| !p.is_empty());

    // A bare word given to a pane or window command may name a window or a session.
    if let (None, None, Some(p)) = (session, window, pane) {
        if !target.contains('.') && kind == Kind::Pane && !p.starts_with('%') {
            if let Ok(f) = resolve_window(sessions, cur, None, p) {
                return Ok(f);
            }
            return match find_session(sessions, p, false) {
                Some(si) => Ok(Found {
                    session: si,
                    window: sessions[si].current,
                }),
                None => Err(format!("can't find pane: {p}")),
            };
        }
    }
    if let (None, Some(w), None) = (session, window, pane) {
        if !target.contains(':') && kind == Kind::Window && !w.starts_with('@') {
            if let Ok(f) = resolve_window(sessions, cur, None, w) {
                return Ok(f);
            }
            let (name, exact) = strip_exact(w);
            return match find_session(sessions, name, exact) {
                Some(si) => Ok(Found {
                    session: si,
                    window: sessions[si].current,
                }),
                None => Err(format!("can't find window: {w}")),
            };
        }
    }

    let mut found = match session {
        Some(name) => {
            let (n, exact) = strip_exact(name);
            let si = find_session(sessions, n, exact)
                .ok_or_else(|| format!("can't find session: {n}"))?;
            Found {
                session: si,
                window: sessions[si].current,
            }
        }
        None => cur,
    };
    if let Some(w) = window {
        found = resolve_window(sessions, found, session, w)?;
    }
    if let Some(p) = pane {
        let ok =
            p == "0" || p.starts_with('%') && parse_id(p, '%') == Some(pane_id(sessions, found));
        if !ok {
            return Err(format!("can't find pane: {p}"));
        }
    }
    Ok(found)
}

fn pane_id(sessions: &[Session], f: Found) -> u32 {
    sessions[f.session].windows[f.window].pane.id
}

fn strip_exact(s: &str) -> (&str, bool) {
    match s.strip_prefix('=') {
        Some(rest) => (rest, true),
        None => (s, false),
    }
}

fn resolve_window(
    sessions: &[Session],
    base: Found,
    session_given: Option<&str>,
    w: &str,
) -> Result<Found, String> {
    if let Some(id) = parse_id(w, '@') {
        let prefer = session_given.map(|_| base.session).or(Some(base.session));
        let f = find_window_id(sessions, id, prefer)
            .ok_or_else(|| format!("can't find window: {w}"))?;
        if session_given.is_some() && f.session != base.session {
            return Err(format!("can't find window: {w}"));
        }
        return Ok(f);
    }
    let (name, exact) = strip_exact(w);
    let s = &sessions[base.session];
    find_window(s, name, exact)
        .map(|wi| Found {
            session: base.session,
            window: wi,
        })
        .ok_or_else(|| format!("can't find window: {name}"))
}

/// Splits `session:window.pane` as tmux does; a bare word goes where `kind` puts it.
fn split(target: &str, kind: Kind) -> (Option<&str>, Option<&str>, Option<&str>) {
    let (before, after) = match target.split_once(':') {
        Some((s, rest)) => (Some(s), Some(rest)),
        None => (None, None),
    };
    match (before, after) {
        (Some(s), Some(rest)) => match rest.split_once('.') {
            Some((w, p)) => (Some(s), Some(w), Some(p)),
            None => (Some(s), Some(rest), None),
        },
        _ => match target.split_once('.') {
            Some((w, p)) => (None, Some(w), Some(p)),
            None => {
                if target.starts_with('$') {
                    (Some(target), None, None)
                } else if target.starts_with('@') {
                    (None, Some(target), None)
                } else {
                    match kind {
                        Kind::Session => (Some(target), None, None),
                        Kind::Window => (None, Some(target), None),
                        Kind::Pane => (None, None, Some(target)),
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
        assert_eq!(offset("+"), Some(1));
        assert_eq!(offset("-2"), Some(-2));
        assert_eq!(offset("x"), None);
    }

    #[test]
    fn split_follows_separators_and_kind() {
        assert_eq!(
            split("a:1.0", Kind::Pane),
            (Some("a"), Some("1"), Some("0"))
        );
        assert_eq!(split("a:", Kind::Pane), (Some("a"), Some(""), None));
        assert_eq!(split("a", Kind::Session), (Some("a"), None, None));
        assert_eq!(split("a", Kind::Window), (None, Some("a"), None));
        assert_eq!(split("$3", Kind::Pane), (Some("$3"), None, None));
    }
}
