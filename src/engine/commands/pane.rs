//! Pane commands: send-keys, send-prefix, capture-pane, clear-history, display-message, pipe-pane.

use super::format_values::VARIABLES;
use super::{pane_id_at, resolve, words, FormatValues};
use crate::engine::attach::StatusMessage;
use crate::engine::cmdline::Args;
use crate::engine::format::{self, Values};
use crate::engine::keys;
use crate::engine::numbers;
use crate::engine::target::Kind;
use crate::engine::{Ctx, Engine};
use crate::term::capture::{parse_line_spec, printable};
use crate::term::CaptureOptions;

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!(
        "capture-pane",
        Some("capturep"),
        "ab:CeE:JNpPqS:t:",
        0,
        Some(0),
        "[-aCeJNpPq] [-b buffer-name] [-E end-line] [-S start-line] [-t target-pane]",
        false,
        capture_pane
    ),
    crate::command_def!(
        "clear-history",
        Some("clearhist"),
        "t:",
        0,
        Some(0),
        "[-t target-pane]",
        false,
        clear_history
    ),
    crate::command_def!(
        "display-message",
        Some("display"),
        "ac:d:INpt:F:v",
        0,
        Some(1),
        "[-aINpv] [-c target-client] [-d delay] [-F format] [-t target-pane] [message]",
        false,
        display_message
    ),
    crate::command_def!(
        "pipe-pane",
        Some("pipep"),
        "IOot:",
        0,
        Some(1),
        "[-IOo] [-t target-pane] [shell-command]",
        false,
        pipe_pane
    ),
    crate::command_def!(
        "send-keys",
        Some("send"),
        "FHlMN:Rt:X",
        0,
        None,
        "[-FHlMRX] [-N repeat-count] [-t target-pane] key ...",
        false,
        send_keys
    ),
    crate::command_def!(
        "send-prefix",
        None,
        "2t:",
        0,
        Some(0),
        "[-2] [-t target-pane]",
        false,
        send_prefix
    ),
];

fn send_keys(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    let pane_id = pane_id_at(e, f);
    let repeat = match args.get('N') {
        Some(v) => numbers::argument(v, 1, u32::MAX.into(), "repeat count")? as u32,
        None => 1,
    };
    if args.has('M') {
        // The mouse event whose binding runs goes to tree mode when the client shows it,
        // else to the pane as its program asks for it (a double click is a name only:
        // nothing goes).
        if e.tree_mouse(pane_id) {
            return Ok(());
        }
        if let Some(at) = e.mouse_event.filter(|at| !at.ignored) {
            e.mouse_event_to(pane_id, at.now, at.before);
        }
        return Ok(());
    }
    let command = words(args);
    let dragging = ctx.req.client.filter(|_| e.mouse_event.is_some());
    if let (Some(conn), Some("begin-selection")) = (dragging, command.first().map(String::as_str)) {
        // From a mouse binding, as tmux's: the selection follows the drag.
        if !e.start_drag(conn) {
            return Err("not in a mode".into());
        }
        return Ok(());
    }
    if args.has('X') {
        if !e.view_command(pane_id, &command, repeat) {
            return Err("not in a mode".into());
        }
        return Ok(());
    }
    e.drain(pane_id);
    let literal = args.has('l');
    let hex = args.has('H');
    let reset = args.has('R');
    let keys_args: Vec<String> = words(args);
    e.with_pane(pane_id, |pane, os, _| {
        if reset {
            pane.term.feed(b"\x1bc");
        }
        let mode = pane.term.mode();
        let mut bytes = Vec::new();
        for _ in 0..repeat {
            for k in &keys_args {
                let raw = crate::protocol::arg_to_bytes(k);
                if hex {
                    keys::send_keys_hex(k, &mut bytes);
                } else if literal || raw.len() != k.len() && std::str::from_utf8(&raw).is_err() {
                    // Literal text goes as its bytes, whatever they are.
                    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
                    bytes.extend_from_slice(&raw[..end]);
                } else {
                    keys::send_keys_arg(k, false, mode, &mut bytes);
                }
            }
        }
        if !bytes.is_empty() {
            pane.queue_keys(os, &bytes);
        }
    });
    e.note_queued_input(pane_id);
    Ok(())
}

/// send-prefix: the session's `prefix` key (`prefix2` with -2) to the pane, as the pane's
/// modes encode it; nothing when the option is `None`.
fn send_prefix(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    let pane_id = pane_id_at(e, f);
    let option = if args.has('2') { "prefix2" } else { "prefix" };
    let Some(key) = keys::parse_key(&e.options.session_string(&e.sessions[f.session], option))
    else {
        return Ok(());
    };
    e.drain(pane_id);
    e.with_pane(pane_id, |pane, os, _| {
        let mut bytes = Vec::new();
        let modes = keys::KeyModes::from_mode(pane.term.mode());
        if keys::encode(key, modes, &mut bytes) && !bytes.is_empty() {
            pane.queue_keys(os, &bytes);
        }
    });
    e.note_queued_input(pane_id);
    Ok(())
}

fn capture_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    let pane_id = pane_id_at(e, f);
    e.read_screen(pane_id);
    let pane = &e.sessions[f.session].windows[f.window].pane;
    let buf = if args.has('P') {
        pane.term.capture_pending(args.has('C'))
    } else {
        let opts = CaptureOptions {
            start: args.get('S').map(parse_line_spec),
            end: args.get('E').map(parse_line_spec),
            escapes: args.has('e'),
            escape_c0: args.has('C'),
            join: args.has('J'),
            no_trim: args.has('N'),
        };
        if args.has('a') {
            match pane.term.capture_alternate(&opts) {
                Ok(b) => b,
                Err(_) if args.has('q') => Vec::new(),
                Err(err) => return Err(err.to_string()),
            }
        } else {
            pane.term.capture(&opts)
        }
    };
    if args.has('p') {
        ctx.out.extend_from_slice(&printable(buf));
        Ok(())
    } else {
        // Without -p the capture becomes a paste buffer (named with -b), as in tmux.
        super::buffer::store(e, args.get('b'), buf)
    }
}

fn clear_history(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    let pane_id = pane_id_at(e, f);
    e.read_screen(pane_id);
    e.sessions[f.session].windows[f.window]
        .pane
        .term
        .clear_history();
    Ok(())
}

const DISPLAY_MESSAGE_TEMPLATE: &str =
    "[#{session_name}] #{window_index}:#{window_name}, current pane #{pane_index} - (%H:%M %d-%b-%y)";

fn display_message(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    // As in tmux, a target that cannot be found leaves the message without one.
    let f = resolve(e, ctx, args, Kind::Pane).ok();
    // The client the message shows on: -c's, else the current one; none is no error.
    let target_client = e.find_client(ctx, args.get('c')).ok();
    if args.has('I') {
        // Input goes only to a pane started with no program (tmux's empty panes), which
        // zeropty does not make.
        return match f {
            Some(_) => Err("pane is not empty".into()),
            None => Ok(()),
        };
    }
    if args.has('F') && !words(args).is_empty() {
        return Err("only one of -F or argument must be given".into());
    }
    let delay = match args.get('d') {
        Some(d) => Some(numbers::argument(d, 0, u32::MAX.into(), "delay")? as u64),
        None => None,
    };
    if let Some(f) = f {
        let pane_id = pane_id_at(e, f);
        e.read_screen(pane_id);
    }
    if args.has('a') {
        let values = FormatValues::new(e, f);
        // As tmux, the command's own name comes after the variables of its target.
        let (of_target, of_command): (Vec<&str>, Vec<&str>) =
            VARIABLES.iter().partition(|&&name| name != "command");
        for name in of_target.into_iter().chain(of_command) {
            if let Some(v) = values.get(name) {
                ctx.print(&format!("{name}={v}"));
            }
        }
        return Ok(());
    }
    let template = match (args.get('F'), words(args).first()) {
        (_, Some(t)) => t.clone(),
        (Some(t), None) => t.to_string(),
        (None, None) => DISPLAY_MESSAGE_TEMPLATE.to_string(),
    };
    // The client's variables are the target client's.
    let text = match target_client.and_then(|conn| e.clients.get(conn)) {
        Some(client) => super::expand_for_client(e, &template, f, client),
        None => format::expand_time(&template, &FormatValues::new(e, f), e.host.wall_time()),
    };
    if ctx.config && ctx.req.client.is_none() {
        // With no client to show it to, tmux reports the message as a configuration error.
        return Err(text);
    }
    if args.has('p') {
        ctx.print(&text);
    } else if let Some(conn) = target_client {
        e.show_message(
            conn,
            StatusMessage {
                text,
                delay,
                styled: true,
                holds_keys: args.has('N'),
            },
        );
    }
    Ok(())
}

fn pipe_pane(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let f = resolve(e, ctx, args, Kind::Pane)?;
    let pane_id = pane_id_at(e, f);
    let pane = &e.sessions[f.session].windows[f.window].pane;
    if pane.dead || pane.io.is_none() {
        return Err("target pane has exited".into());
    }
    // Any open pipe closes first; -o then only opens one if none was open (a toggle).
    let had_pipe = e.close_pane_pipe(pane_id);
    let command = match args.string(0) {
        Some(c) if !c.is_empty() => c.to_string(),
        _ => return Ok(()),
    };
    if args.has('o') && had_pipe {
        return Ok(());
    }
    // Neither -I nor -O means -O.
    let input = args.has('I');
    let output = !input || args.has('O');
    let values = FormatValues::new(e, Some(f));
    let command = format::expand_time(&command, &values, e.host.wall_time());
    // tmux runs the command in the server's directory, which is where the client that started
    // the server was; the client's directory stands in for it.
    let cwd = ctx.req.cwd.clone();
    e.open_pipe(pane_id, &command, &cwd, output, input)
}
