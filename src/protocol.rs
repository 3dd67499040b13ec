//! The socket protocol: one JSON object per line each way, many requests per connection,
//! answered in order.
//!
//! Request: `{"argv":["capture-pane","-p","-t","=work:"],"cwd":"/home/me","env":{"PATH":"..."}}`
//! (`cwd` and `env` optional; `env` is the client's environment, used as tmux uses a client's).
//! A request whose command reads the client's standard input (`load-buffer -`, `source-file -`)
//! carries it as `"stdin"` (or `"stdin_b64"`); without it the command reads an empty input.
//! Reply: `{"code":0,"out":"...","err":""}`.
//!
//! Bytes that are not UTF-8 cross as base64 in a field named with `_b64`: a request may give
//! `"argv_b64":["..."]` instead of `argv` (each element the base64 of one argument's bytes);
//! a reply carries `"out_b64"` instead of `"out"` (and `"err_b64"` for `"err"`) exactly when
//! those bytes are not valid UTF-8. JSON strings otherwise follow RFC 8259.
//!
//! A command that must wait (`wait-for CHANNEL`, `run-shell` and `if-shell` while their job
//! runs) is answered when it completes; the requests after it on the same connection are
//! answered after it, still in order.
//!
//! # Clients that stay connected
//!
//! The shell helpers (the bash builtin and the zsh function) keep one connection across many
//! commands and ask for four things in their requests:
//!
//! - `env` may be left out: the request then runs with the `env` that connection sent last
//!   (an empty one if it never sent any), so an unchanged environment crosses once.
//! - `"reply":"raw"`: the reply is the line `{"code":N,"out_bytes":A,"err_bytes":B}` followed
//!   by exactly A bytes of standard output and B bytes of standard error, as they are. A shell
//!   reads that without decoding anything, whatever the bytes.
//! - `"refuse_attach":true`: the client has a terminal but cannot attach. If a command of the
//!   request would attach (attach-session, new-session without `-d`), nothing runs and the
//!   reply carries `"must_attach":true` (code 0, no output): the client runs the program
//!   instead, which attaches.
//! - `"refuse_stdin":true`: the client does not send its standard input. If a command of the
//!   request would read it (`load-buffer -`, `source-file -`) and the request carries none,
//!   nothing runs and the reply is the same `"must_attach":true`: the client runs the
//!   program, which sends it.
//!
//! # Attaching
//!
//! A client with a terminal (`zeropty attach`, `zeropty new-session` without `-d`) sends an
//! ordinary request with one more field describing that terminal:
//!
//! ```text
//! {"argv":["attach-session","-t","work"],"cwd":"/","env":{...},
//!  "terminal":{"cols":100,"rows":30,"term":"xterm-256color","tty":"/dev/pts/3","pid":4242,"utf8":true}}
//! ```
//!
//! The commands run as for any request; a command that attaches (attach-session, new-session
//! without `-d`) attaches the connection to a session. The reply line is the usual one, with
//! `"attached":true` when that happened. Without `attached` the connection stays a request
//! connection. With it, the connection carries binary frames from the next byte on, each way:
//!
//! ```text
//! type (1 byte) | payload length (4 bytes, big-endian) | payload (at most MAX_FRAME bytes)
//! ```
//!
//! Server to client:
//! - [`FRAME_DRAW`] `D`: bytes for the terminal, written as they are. Each is a full redraw
//!   (every row with its SGR codes, the status line, terminal modes, cursor position and
//!   visibility), so a slow client is sent only the newest one and the others are dropped.
//! - [`FRAME_EXIT`] `X`: the session is over for this client: payload byte 0 is the client's
//!   exit status, byte 1 is 1 when the client must take one more step before it exits (a
//!   terminal's client sends SIGHUP to its parent process, `detach-client -P`; a control
//!   client waits for an empty line, `wait-exit`), and the rest is the message the client
//!   prints in brackets (`detached (from session work)`, `exited`, `server exited`; a control
//!   client's reason after `%exit`). The server then closes.
//!
//! Client to server:
//! - [`FRAME_INPUT`] `I`: bytes read from the terminal (keys, pastes, mouse and focus reports).
//! - [`FRAME_RESIZE`] `R`: the terminal's new size, columns then rows, 2 bytes each, big-endian.
//!
//! Frames of any other type are ignored, so either side may add kinds later.
//!
//! # Control mode
//!
//! A control-mode client (`zeropty -C`, tmux's control mode) sends the attaching request with
//! `"control":true` (a `terminal` too: its `cols` and `rows` are unused). Each command's output
//! in the reply comes framed by guard lines, `%begin TIME NUMBER FLAGS` and `%end` (or `%error`
//! when it failed) with the same three numbers, and errors are inside the block rather than on
//! standard error. Once attached, the client's frames differ:
//!
//! - [`FRAME_INPUT`] `I` carries command lines (each ends with a newline; an empty line
//!   detaches), and [`FRAME_INPUT_END`] `E` says the input ended (the client detaches).
//! - [`FRAME_TEXT`] `T` carries the lines the client prints: command blocks, `%output` and the
//!   other notifications. Unlike draw frames, none is ever dropped.
//! - [`FRAME_EXIT`] ends it as for a terminal; its message is the reason printed after `%exit`
//!   (usually empty).

use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Longest request line accepted (a longer one is refused and the connection closed).
pub const MAX_LINE: usize = 64 << 20;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireRequest {
    pub argv: Vec<Vec<u8>>,
    pub cwd: Option<String>,
    /// `None` when the request left `env` out (the connection's last one applies).
    pub env: Option<BTreeMap<String, String>>,
    /// The client's terminal, when it has one and wants to attach.
    pub terminal: Option<ClientTerminal>,
    /// `"reply":"raw"`: answer with [`raw_reply`].
    pub raw_reply: bool,
    /// `"refuse_attach":true`: answer [`must_attach_reply`] rather than run a command that
    /// attaches.
    pub refuse_attach: bool,
    /// The client's standard input, for a command that reads it.
    pub stdin: Option<Vec<u8>>,
    /// `"refuse_stdin":true`: answer [`must_attach_reply`] rather than run a command that
    /// reads standard input the request does not carry.
    pub refuse_stdin: bool,
    /// `"control":true`: a control-mode client (`zeropty -C`, see "Control mode" above).
    pub control: bool,
}

/// The terminal an attaching client brings (the `terminal` field of a request).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientTerminal {
    pub cols: u32,
    pub rows: u32,
    /// `TERM` in the client's environment.
    pub term: String,
    /// The terminal device (`/dev/pts/3`): the client's name in list-clients and `-t`.
    pub tty: String,
    pub pid: u32,
    /// The client's locale is UTF-8.
    pub utf8: bool,
}

/// Parses a request line.
pub fn parse_request(line: &[u8]) -> Result<WireRequest, String> {
    let v: Value = serde_json::from_slice(line).map_err(|e| format!("invalid request: {e}"))?;
    let obj = v.as_object().ok_or("invalid request: not an object")?;
    let argv = if let Some(a) = obj.get("argv_b64") {
        strings(a, "argv_b64")?
            .into_iter()
            .map(|s| base64_decode(&s).ok_or("invalid request: bad base64 in argv_b64".to_string()))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        strings(obj.get("argv").ok_or("invalid request: no argv")?, "argv")?
            .into_iter()
            .map(String::into_bytes)
            .collect()
    };
    let cwd = match obj.get("cwd") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err("invalid request: cwd must be a string".into()),
    };
    let env = match obj.get("env") {
        None | Some(Value::Null) => None,
        Some(e) => Some(parse_env(e)?),
    };
    let terminal = match obj.get("terminal") {
        None | Some(Value::Null) => None,
        Some(t) => Some(parse_terminal(t)?),
    };
    let raw_reply = match obj.get("reply") {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) if s == "raw" => true,
        Some(Value::String(s)) if s == "json" => false,
        Some(_) => return Err("invalid request: reply must be \"raw\" or \"json\"".into()),
    };
    let stdin = match (obj.get("stdin"), obj.get("stdin_b64")) {
        (Some(Value::String(s)), _) => Some(s.clone().into_bytes()),
        (_, Some(Value::String(s))) => {
            Some(base64_decode(s).ok_or("invalid request: bad base64 in stdin_b64".to_string())?)
        }
        (None | Some(Value::Null), None | Some(Value::Null)) => None,
        _ => return Err("invalid request: stdin must be a string".into()),
    };
    Ok(WireRequest {
        argv,
        cwd,
        env,
        terminal,
        raw_reply,
        refuse_attach: flag(obj, "refuse_attach")?,
        stdin,
        refuse_stdin: flag(obj, "refuse_stdin")?,
        control: flag(obj, "control")?,
    })
}

/// A field that is true or false (false when absent).
fn flag(obj: &Map<String, Value>, name: &str) -> Result<bool, String> {
    match obj.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(format!("invalid request: {name} must be true or false")),
    }
}

fn parse_env(v: &Value) -> Result<BTreeMap<String, String>, String> {
    let e = v
        .as_object()
        .ok_or("invalid request: env must be an object")?;
    e.iter()
        .map(|(k, v)| {
            v.as_str()
                .map(|v| (k.clone(), v.to_string()))
                .ok_or_else(|| "invalid request: env values must be strings".to_string())
        })
        .collect()
}

fn parse_terminal(v: &Value) -> Result<ClientTerminal, String> {
    let bad = || "invalid request: bad terminal".to_string();
    let t = v.as_object().ok_or_else(bad)?;
    let number = |k: &str, max: u64| -> Result<u32, String> {
        match t.get(k).and_then(Value::as_u64) {
            Some(n) if n <= max => Ok(n as u32),
            _ => Err(bad()),
        }
    };
    let text = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    Ok(ClientTerminal {
        cols: number("cols", u16::MAX as u64)?,
        rows: number("rows", u16::MAX as u64)?,
        term: text("term"),
        tty: text("tty"),
        pid: t.get("pid").and_then(Value::as_u64).unwrap_or(0) as u32,
        utf8: t.get("utf8").and_then(Value::as_bool).unwrap_or(false),
    })
}

fn strings(v: &Value, what: &str) -> Result<Vec<String>, String> {
    v.as_array()
        .ok_or(format!("invalid request: {what} must be an array"))?
        .iter()
        .map(|x| {
            x.as_str()
                .map(str::to_string)
                .ok_or(format!("invalid request: {what} must hold strings"))
        })
        .collect()
}

/// Formats a request line (with its newline), with the client's standard input when a
/// command reads it.
pub fn request_line(
    argv: &[Vec<u8>],
    cwd: &str,
    env: &BTreeMap<String, String>,
    stdin: Option<&[u8]>,
) -> Vec<u8> {
    let mut obj = Map::new();
    match stdin.map(|s| (std::str::from_utf8(s), s)) {
        Some((Ok(text), _)) => obj.insert("stdin".into(), json!(text)),
        Some((Err(_), bytes)) => obj.insert("stdin_b64".into(), json!(base64_encode(bytes))),
        None => None,
    };
    match argv
        .iter()
        .map(|a| std::str::from_utf8(a).ok())
        .collect::<Option<Vec<_>>>()
    {
        Some(args) => obj.insert("argv".into(), json!(args)),
        None => obj.insert(
            "argv_b64".into(),
            json!(argv.iter().map(|a| base64_encode(a)).collect::<Vec<_>>()),
        ),
    };
    obj.insert("cwd".into(), json!(cwd));
    obj.insert("env".into(), json!(env));
    let mut line = serde_json::to_vec(&Value::Object(obj)).unwrap_or_default();
    line.push(b'\n');
    line
}

/// Formats a request line from a client with a terminal (with its newline); `control` makes
/// it a control-mode client's.
pub fn attach_request_line(
    argv: &[Vec<u8>],
    cwd: &str,
    env: &BTreeMap<String, String>,
    t: &ClientTerminal,
    control: bool,
) -> Vec<u8> {
    let mut line = request_line(argv, cwd, env, None);
    line.pop();
    let Ok(Value::Object(mut obj)) = serde_json::from_slice::<Value>(&line) else {
        return Vec::new();
    };
    obj.insert(
        "terminal".into(),
        json!({"cols": t.cols, "rows": t.rows, "term": t.term, "tty": t.tty,
               "pid": t.pid, "utf8": t.utf8}),
    );
    if control {
        obj.insert("control".into(), json!(true));
    }
    let mut line = serde_json::to_vec(&Value::Object(obj)).unwrap_or_default();
    line.push(b'\n');
    line
}

/// Formats a reply line (with its newline).
pub fn reply_line(code: i32, out: &[u8], err: &[u8]) -> Vec<u8> {
    let mut obj = Map::new();
    obj.insert("code".into(), json!(code));
    for (name, bytes) in [("out", out), ("err", err)] {
        match std::str::from_utf8(bytes) {
            Ok(s) => obj.insert(name.into(), json!(s)),
            Err(_) => obj.insert(format!("{name}_b64"), json!(base64_encode(bytes))),
        };
    }
    let mut line = serde_json::to_vec(&Value::Object(obj)).unwrap_or_default();
    line.push(b'\n');
    line
}

/// Formats a raw reply: the head line, then standard output and standard error as they are.
pub fn raw_reply(code: i32, out: &[u8], err: &[u8]) -> Vec<u8> {
    let head = format!(
        "{{\"code\":{code},\"out_bytes\":{},\"err_bytes\":{}}}\n",
        out.len(),
        err.len()
    );
    let mut reply = Vec::with_capacity(head.len() + out.len() + err.len());
    reply.extend_from_slice(head.as_bytes());
    reply.extend_from_slice(out);
    reply.extend_from_slice(err);
    reply
}

/// The reply to a `refuse_attach` request whose commands would attach: nothing ran.
pub fn must_attach_reply(raw: bool) -> Vec<u8> {
    if raw {
        b"{\"code\":0,\"must_attach\":true,\"out_bytes\":0,\"err_bytes\":0}\n".to_vec()
    } else {
        b"{\"code\":0,\"must_attach\":true,\"out\":\"\",\"err\":\"\"}\n".to_vec()
    }
}

/// Formats the reply line after which the connection carries frames (with its newline).
pub fn attached_reply_line(code: i32, out: &[u8], err: &[u8]) -> Vec<u8> {
    let mut line = reply_line(code, out, err);
    // `reply_line` ends with `}\n`: the flag goes just before the brace.
    line.truncate(line.len() - 2);
    line.extend_from_slice(b",\"attached\":true}\n");
    line
}

/// Whether a reply line says the connection now carries frames.
pub fn reply_attached(line: &[u8]) -> bool {
    serde_json::from_slice::<Value>(line)
        .ok()
        .and_then(|v| v.get("attached").and_then(Value::as_bool))
        .unwrap_or(false)
}

/// A parsed reply: code, standard output, standard error.
pub fn parse_reply(line: &[u8]) -> Result<(i32, Vec<u8>, Vec<u8>), String> {
    let v: Value = serde_json::from_slice(line).map_err(|e| format!("invalid reply: {e}"))?;
    let code = v
        .get("code")
        .and_then(Value::as_i64)
        .ok_or("invalid reply")? as i32;
    let field = |name: &str| -> Vec<u8> {
        if let Some(s) = v.get(name).and_then(Value::as_str) {
            return s.as_bytes().to_vec();
        }
        v.get(format!("{name}_b64"))
            .and_then(Value::as_str)
            .and_then(base64_decode)
            .unwrap_or_default()
    };
    Ok((code, field("out"), field("err")))
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn base64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes() {
        let v = B64.iter().position(|&x| x == c)? as u32;
        acc = acc << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_every_length() {
        let data: Vec<u8> = (0..=255).collect();
        for n in 0..data.len() {
            assert_eq!(
                base64_decode(&base64_encode(&data[..n])).unwrap(),
                &data[..n]
            );
        }
        assert_eq!(base64_encode(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64_encode(b"fo"), "Zm8=");
    }

    #[test]
    fn replies_use_b64_only_for_invalid_utf8() {
        let line = reply_line(0, "é\n".as_bytes(), b"");
        assert!(std::str::from_utf8(&line)
            .unwrap()
            .contains("\"out\":\"é\\n\""));
        let line = reply_line(1, b"\xff\xfe", b"bad");
        let text = std::str::from_utf8(&line).unwrap();
        assert!(text.contains("\"out_b64\":\"//4=\""));
        assert_eq!(
            parse_reply(&line).unwrap(),
            (1, vec![0xff, 0xfe], b"bad".to_vec())
        );
    }

    #[test]
    fn standard_input_crosses_as_text_or_base64() {
        for input in [&b"text\n"[..], b"\xff raw"] {
            let line = request_line(
                &[b"load-buffer".to_vec()],
                "/",
                &BTreeMap::new(),
                Some(input),
            );
            let r = parse_request(&line).unwrap();
            assert_eq!(r.stdin.as_deref(), Some(input));
        }
        let r = parse_request(br#"{"argv":["ls"],"refuse_stdin":true}"#).unwrap();
        assert!(r.refuse_stdin && r.stdin.is_none());
        assert!(parse_request(br#"{"argv":["ls"],"stdin":1}"#).is_err());
        assert!(parse_request(br#"{"argv":["ls"],"stdin_b64":"!"}"#).is_err());
        assert!(parse_request(br#"{"argv":["ls"],"refuse_stdin":"yes"}"#).is_err());
    }

    #[test]
    fn requests_accept_plain_and_b64_argv() {
        let r = parse_request(br#"{"argv":["ls"],"cwd":"/","env":{"A":"1"}}"#).unwrap();
        assert_eq!(r.argv, vec![b"ls".to_vec()]);
        assert_eq!(r.env.unwrap().get("A").map(String::as_str), Some("1"));
        let r = parse_request(br#"{"argv_b64":["/w=="]}"#).unwrap();
        assert_eq!(r.argv, vec![vec![0xff]]);
        assert!(parse_request(b"garbage").is_err());
        assert!(parse_request(br#"{"argv":[1]}"#).is_err());
        let line = request_line(
            &[b"send-keys".to_vec(), vec![0xc3]],
            "/",
            &BTreeMap::new(),
            None,
        );
        assert_eq!(
            parse_request(line.trim_ascii_end()).unwrap().argv[1],
            vec![0xc3]
        );
    }
}

/// Arguments travel through the engine as `String`s; bytes that are not UTF-8 are carried
/// as characters U+10FF80..U+10FFFF (one per byte, private use) and turned back into bytes
/// where bytes are what counts (`send-keys -l`). [`bytes_to_arg`] and [`arg_to_bytes`] convert.
pub const ESCAPED_BYTE_BASE: u32 = 0x10FF00;

pub fn bytes_to_arg(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                let n = e.error_len().unwrap_or(bad.len()).max(1);
                for &b in &bad[..n] {
                    out.push(char::from_u32(ESCAPED_BYTE_BASE + b as u32).unwrap_or('\u{fffd}'));
                }
                rest = &bad[n..];
            }
        }
    }
}

pub fn arg_to_bytes(arg: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(arg.len());
    for c in arg.chars() {
        let v = c as u32;
        if (ESCAPED_BYTE_BASE + 0x80..=ESCAPED_BYTE_BASE + 0xff).contains(&v) {
            out.push((v - ESCAPED_BYTE_BASE) as u8);
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    out
}

#[cfg(test)]
mod escape_tests {
    use super::*;

    #[test]
    fn every_byte_survives_the_argument_escape() {
        let all: Vec<u8> = (1..=255).collect();
        assert_eq!(arg_to_bytes(&bytes_to_arg(&all)), all);
        assert_eq!(bytes_to_arg("héllo".as_bytes()), "héllo");
    }
}

/// Longest frame payload accepted; a larger one is a protocol error and ends the connection.
pub const MAX_FRAME: usize = 64 << 20;
/// Server to client: bytes for the terminal (a full redraw).
pub const FRAME_DRAW: u8 = b'D';
/// Server to client: exit status, SIGHUP-parent flag, message.
pub const FRAME_EXIT: u8 = b'X';
/// Client to server: bytes typed.
pub const FRAME_INPUT: u8 = b'I';
/// Client to server: new terminal size.
pub const FRAME_RESIZE: u8 = b'R';
/// Server to control client: control mode's lines, in order (never dropped).
pub const FRAME_TEXT: u8 = b'T';
/// Control client to server: its standard input ended (no payload).
pub const FRAME_INPUT_END: u8 = b'E';
const FRAME_HEADER: usize = 5;

/// Appends one frame to `out`.
pub fn push_frame(out: &mut Vec<u8>, kind: u8, payload: &[u8]) {
    out.push(kind);
    out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    out.extend_from_slice(payload);
}

/// A frame read from a buffer: its type, its payload, and how many bytes it took.
pub type Frame<'a> = (u8, &'a [u8], usize);

/// The first complete frame at the start of `buf`: `Ok(Some((kind, payload, consumed)))`,
/// `Ok(None)` when more bytes are needed, `Err` when the length is beyond [`MAX_FRAME`].
pub fn parse_frame(buf: &[u8]) -> Result<Option<Frame<'_>>, String> {
    if buf.len() < FRAME_HEADER {
        return Ok(None);
    }
    let len = u32::from_be_bytes([buf[1], buf[2], buf[3], buf[4]]) as usize;
    if len > MAX_FRAME {
        return Err(format!("frame too large ({len} bytes)"));
    }
    if buf.len() < FRAME_HEADER + len {
        return Ok(None);
    }
    Ok(Some((
        buf[0],
        &buf[FRAME_HEADER..FRAME_HEADER + len],
        FRAME_HEADER + len,
    )))
}

/// The payload of a [`FRAME_RESIZE`].
pub fn resize_payload(cols: u16, rows: u16) -> [u8; 4] {
    let (c, r) = (cols.to_be_bytes(), rows.to_be_bytes());
    [c[0], c[1], r[0], r[1]]
}

/// Reads a [`FRAME_RESIZE`] payload.
pub fn parse_resize(payload: &[u8]) -> Option<(u32, u32)> {
    match payload {
        [c0, c1, r0, r1] => Some((
            u16::from_be_bytes([*c0, *c1]) as u32,
            u16::from_be_bytes([*r0, *r1]) as u32,
        )),
        _ => None,
    }
}

/// The payload of a [`FRAME_EXIT`].
pub fn exit_payload(status: u8, last_step: bool, message: &str) -> Vec<u8> {
    let mut p = vec![status, last_step as u8];
    p.extend_from_slice(message.as_bytes());
    p
}

/// Reads a [`FRAME_EXIT`] payload: status, last-step flag, message.
pub fn parse_exit(payload: &[u8]) -> (u8, bool, String) {
    match payload {
        [status, hup, message @ ..] => (
            *status,
            *hup != 0,
            String::from_utf8_lossy(message).into_owned(),
        ),
        _ => (1, false, String::new()),
    }
}

#[cfg(test)]
mod frame_tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_wait_for_their_bytes() {
        let mut buf = Vec::new();
        push_frame(&mut buf, FRAME_INPUT, b"ab");
        push_frame(&mut buf, FRAME_RESIZE, &resize_payload(300, 40));
        for cut in 0..7 {
            assert_eq!(parse_frame(&buf[..cut]).unwrap(), None);
        }
        let (kind, payload, used) = parse_frame(&buf).unwrap().unwrap();
        assert_eq!((kind, payload, used), (FRAME_INPUT, &b"ab"[..], 7));
        let (kind, payload, _) = parse_frame(&buf[used..]).unwrap().unwrap();
        assert_eq!(kind, FRAME_RESIZE);
        assert_eq!(parse_resize(payload), Some((300, 40)));
        assert!(parse_frame(b"D\xff\xff\xff\xff").is_err());
        let p = exit_payload(1, true, "server exited");
        assert_eq!(parse_exit(&p), (1, true, "server exited".into()));
    }

    #[test]
    fn terminal_field_round_trips() {
        let t = ClientTerminal {
            cols: 100,
            rows: 30,
            term: "screen".into(),
            tty: "/dev/pts/3".into(),
            pid: 7,
            utf8: true,
        };
        let line = attach_request_line(&[b"attach".to_vec()], "/", &BTreeMap::new(), &t, false);
        let r = parse_request(line.trim_ascii_end()).unwrap();
        assert_eq!(r.terminal, Some(t.clone()));
        assert!(!r.control);
        let line = attach_request_line(&[b"attach".to_vec()], "/", &BTreeMap::new(), &t, true);
        assert!(parse_request(line.trim_ascii_end()).unwrap().control);
        let reply = attached_reply_line(0, b"", b"");
        assert!(reply_attached(reply.trim_ascii_end()));
        assert_eq!(parse_reply(reply.trim_ascii_end()).unwrap().0, 0);
        assert!(!reply_attached(reply_line(0, b"", b"").trim_ascii_end()));
    }
}
