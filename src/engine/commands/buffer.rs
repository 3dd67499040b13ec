//! Paste buffer commands: set-buffer, delete-buffer, load-buffer, save-buffer, show-buffer,
//! paste-buffer, list-buffers and choose-buffer, with tmux 3.3a's flags, messages and exit
//! codes.
//!
//! Files are read and written by the server for the client (tmux's client does it; the result
//! is the same for a client on this machine): relative paths start at the client's working
//! directory. `load-buffer -` reads the standard input the client sent with the request
//! (nothing, as tmux reads an empty one, when it sent none); `save-buffer -` and `show-buffer`
//! write to the reply's standard output.

use super::{expand, pane_id_at, resolve};
use crate::engine::buffers::{Buffer, DEFAULT_LIMIT};
use crate::engine::cmdline::Args;
use crate::engine::format::{self, Values, Zone};
use crate::engine::target::{self, Kind};
use crate::engine::{Ctx, Engine};
use crate::protocol::arg_to_bytes;
use crate::sys::socket::os_error;

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!("choose-buffer", None, "F:f:K:NO:rt:Z", 0, Some(1),
        "[-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] [template]", false, choose_buffer),
    crate::command_def!("delete-buffer", Some("deleteb"), "b:", 0, Some(0), "[-b buffer-name]", false, delete_buffer),
    crate::command_def!("list-buffers", Some("lsb"), "F:f:", 0, Some(0), "[-F format] [-f filter]", false, list_buffers),
    crate::command_def!("load-buffer", Some("loadb"), "b:t:w", 1, Some(1),
        "[-b buffer-name] [-t target-client] path", false, load_buffer),
    crate::command_def!("paste-buffer", Some("pasteb"), "db:prs:t:", 0, Some(0),
        "[-dpr] [-s separator] [-b buffer-name] [-t target-pane]", false, paste_buffer),
    crate::command_def!("save-buffer", Some("saveb"), "ab:", 1, Some(1), "[-a] [-b buffer-name] path", false, save_buffer),
    crate::command_def!("set-buffer", Some("setb"), "ab:t:n:w", 0, Some(1),
        "[-aw] [-b buffer-name] [-n new-buffer-name] [-t target-client] data", false, set_buffer),
    crate::command_def!("show-buffer", Some("showb"), "b:", 0, Some(0), "[-b buffer-name]", false, show_buffer),
];

/// `buffer-limit`: how many automatic buffers are kept.
pub fn limit(e: &Engine) -> usize {
    e.options
        .get("buffer-limit")
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_LIMIT)
}

/// Stores data as buffer `name`, or as a new automatic buffer (capture-pane, load-buffer).
pub(super) fn store(e: &mut Engine, name: Option<&str>, data: Vec<u8>) -> Result<(), String> {
    let (now, limit) = (e.host.wall_time(), limit(e));
    e.buffers.set(name, data, now, limit)
}

/// The buffer `-b` names (an error naming it if there is none), or the most recent one.
fn named_or_top<'a>(e: &'a Engine, args: &Args, none: &str) -> Result<&'a Buffer, String> {
    match args.get('b') {
        Some(name) => e
            .buffers
            .get(name)
            .ok_or_else(|| format!("no buffer {name}")),
        None => e.buffers.top().ok_or_else(|| none.to_string()),
    }
}

/// For delete-buffer and set-buffer -n: a `-b` naming no buffer is an error; without `-b`,
/// the most recent buffer.
fn existing_name(e: &Engine, args: &Args) -> Result<String, String> {
    match args.get('b') {
        Some(name) if e.buffers.get(name).is_some() => Ok(name.to_string()),
        Some(name) => Err(format!("unknown buffer: {name}")),
        None => e
            .buffers
            .top()
            .map(|b| b.name.clone())
            .ok_or_else(|| "no buffer".to_string()),
    }
}

/// A client path as tmux's client opens it: formats expanded, relative to the client's
/// working directory.
fn client_path(e: &Engine, ctx: &Ctx<'_>, path: &str) -> String {
    let at = target::resolve(&e.sessions, None, Kind::Pane, ctx.calling_pane).ok();
    let path = expand(e, path, at);
    if path == "-" || path.starts_with('/') {
        path
    } else {
        format!("{}/{path}", ctx.req.cwd)
    }
}

fn set_buffer(e: &mut Engine, _ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    // -t names a client whose terminal -w would set the selection of; a client that is not
    // found is no error (as in tmux), and requests have no terminal to set.
    if let Some(new) = args.get('n') {
        let old = existing_name(e, args)?;
        return e.buffers.rename(&old, new);
    }
    let Some(data) = args.string(0) else {
        return Err("no data specified".into());
    };
    let mut data = arg_to_bytes(data);
    if data.is_empty() {
        return Ok(());
    }
    let name = args.get('b');
    if args.has('a') {
        if let Some(old) = name.and_then(|n| e.buffers.get(n)) {
            let mut joined = old.data.clone();
            joined.append(&mut data);
            data = joined;
        }
    }
    store(e, name, data)
}

fn delete_buffer(e: &mut Engine, _ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let name = existing_name(e, args)?;
    e.buffers.remove(&name);
    Ok(())
}

fn show_buffer(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    // A client outside any session gets the bytes as they are (tmux writes them to the
    // client's standard output).
    let b = named_or_top(e, args, "no buffers")?;
    ctx.out.extend_from_slice(&b.data);
    Ok(())
}

fn save_buffer(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let data = named_or_top(e, args, "no buffers")?.data.clone();
    let path = client_path(e, ctx, args.string(0).unwrap_or_default());
    if path == "-" {
        ctx.out.extend_from_slice(&data);
        return Ok(());
    }
    e.host
        .write_file(&path, &data, args.has('a'))
        .map_err(|err| format!("{path}: {}", os_error(&err)))
}

fn load_buffer(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let path = client_path(e, ctx, args.string(0).unwrap_or_default());
    // `-` is the client's standard input, sent with the request; without it, it reads as an
    // empty one.
    let read = match path.as_str() {
        "-" => Ok(ctx.req.stdin.as_deref().unwrap_or_default().to_vec()),
        _ => e.host.read_file(&path),
    };
    let data = match read {
        Ok(d) => d,
        // tmux's client opens the path and reads what it can: a directory opens, reads
        // nothing, and sets no buffer.
        Err(err) if err.kind() == std::io::ErrorKind::IsADirectory => Vec::new(),
        Err(err) => return Err(format!("{path}: {}", os_error(&err))),
    };
    store(e, args.get('b'), data)
}

fn paste_buffer(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    let pane_id = pane_id_at(e, f);
    let Some(b) = (match args.get('b') {
        Some(name) => Some(e.buffers.get(name).ok_or(format!("no buffer {name}"))?),
        None => e.buffers.top(),
    }) else {
        return Ok(());
    };
    let name = b.name.clone();
    // A pane whose input is off (select-pane -d) is pasted nothing; -d still deletes.
    let input_off = e.sessions[f.session].windows[f.window].input_off;
    let sep = match args.get('s') {
        Some(s) => arg_to_bytes(s),
        None if args.has('r') => b"\n".to_vec(),
        None => b"\r".to_vec(),
    };
    let mut bytes = Vec::with_capacity(b.data.len() + 12);
    let mut lines = b.data.split(|&c| c == b'\n').peekable();
    while let Some(line) = lines.next() {
        bytes.extend_from_slice(line);
        if lines.peek().is_some() {
            bytes.extend_from_slice(&sep);
        }
    }
    // Bracketed paste only if the program asked for it (mode 2004): read its output first
    // so the mode is current.
    e.drain(pane_id);
    let bracket = args.has('p');
    e.with_pane(pane_id, |pane, os, _| {
        let bracket = bracket && pane.term.mode() & crate::term::mode::BRACKETPASTE != 0;
        if bracket {
            bytes.splice(0..0, b"\x1b[200~".iter().copied());
            bytes.extend_from_slice(b"\x1b[201~");
        }
        // tmux writes the paste to the PTY, so the line discipline sees it as typed.
        if !bytes.is_empty() && !input_off {
            pane.queue_keys(os, &bytes);
        }
    });
    e.note_queued_input(pane_id);
    if args.has('d') {
        e.buffers.remove(&name);
    }
    Ok(())
}

const LIST_BUFFERS_TEMPLATE: &str = "#{buffer_name}: #{buffer_size} bytes: \"#{buffer_sample}\"";

/// Format variables for one buffer, over the server's.
struct BufferValues<'a> {
    buffer: &'a Buffer,
    rest: super::FormatValues<'a>,
}

impl Values for BufferValues<'_> {
    fn get(&self, name: &str) -> Option<String> {
        let b = self.buffer;
        match name {
            "buffer_name" => Some(b.name.clone()),
            "buffer_size" => Some(b.data.len().to_string()),
            "buffer_sample" => Some(b.sample()),
            "buffer_created" => Some(b.created.to_string()),
            _ => self.rest.get(name),
        }
    }

    fn zone(&self, t: i64) -> Zone {
        self.rest.zone(t)
    }
}

fn list_buffers(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let template = args.get('F').unwrap_or(LIST_BUFFERS_TEMPLATE);
    let filter = args.get('f');
    let now = e.host.wall_time();
    for buffer in e.buffers.iter() {
        let values = BufferValues {
            buffer,
            rest: super::FormatValues::new(e, None),
        };
        if let Some(f) = filter {
            if !format::is_true(&format::expand(f, &values, now)) {
                continue;
            }
        }
        ctx.print(&format::expand(template, &values, now));
    }
    Ok(())
}

fn choose_buffer(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    resolve(e, ctx, args, Kind::Pane)?;
    if e.buffers.is_empty() {
        return Ok(());
    }
    // Buffer mode is a pane mode drawn for an attached client; it is not implemented.
    Err("choose-buffer: buffer mode is not supported".into())
}
