//! Mouse events from an attached client's terminal, as tmux 3.3a reads, names and passes
//! them on (`tty-keys.c`, `server_client_check_mouse`, `input_key_get_mouse`).
//!
//! With the session's `mouse` option on, the client's terminal reports the mouse (button
//! events in SGR form); each report becomes a key named for what happened and where:
//! `WheelUpPane`, `MouseDown1Status`, `MouseUp3Pane`, with `M-`, `C-` and `S-` for the
//! modifiers held. Key tables bind these as any other key; an event bound nowhere, or passed
//! on with `send-keys -M`, goes to the pane's program in the form its mouse mode asked for,
//! or nowhere when it asked for none.
//!
//! A drag is named once, where its button went down (`MouseDrag1Pane`); when its binding
//! starts a selection in copy mode (`copy-mode -M`, `begin-selection`), the reports that
//! follow move the selection's end, and the release is `MouseDragEnd1Pane`. Double and
//! triple clicks are not told apart (a second click is another press).
//!
//! This module is pure.

use crate::term::mode;

/// One report from the terminal, positions from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MouseEvent {
    /// tmux's `b`: the button and modifier bits, 3 in the button bits for a release.
    pub b: u32,
    pub x: u32,
    pub y: u32,
    /// The SGR form's button bits and final character (`M` or `m`); `None` for the legacy
    /// form.
    pub sgr: Option<(u32, char)>,
}

/// A mouse event whose binding runs: the report, and the one before it (where a drag's
/// button went down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MouseAt {
    pub now: MouseEvent,
    pub before: Option<MouseEvent>,
}

const BUTTONS: u32 = 195;
const SHIFT: u32 = 4;
const META: u32 = 8;
const CTRL: u32 = 16;
const DRAG: u32 = 32;
const WHEEL_UP: u32 = 64;

impl MouseEvent {
    /// A report as the terminal sent it: `ESC [ < b ; x ; y M` (or `m` for a release) or
    /// `ESC [ M` and three bytes.
    pub fn parse(bytes: &[u8]) -> Option<MouseEvent> {
        match bytes {
            [0x1b, b'[', b'M', b, x, y] => Some(MouseEvent {
                b: u32::from(*b).checked_sub(32)?,
                x: u32::from(*x).checked_sub(33)?,
                y: u32::from(*y).checked_sub(33)?,
                sgr: None,
            }),
            [0x1b, b'[', b'<', rest @ .., last @ (b'M' | b'm')] => {
                let text = std::str::from_utf8(rest).ok()?;
                let mut numbers = text.split(';').map(|n| n.parse::<u32>().ok());
                let (b, x, y) = (numbers.next()??, numbers.next()??, numbers.next()??);
                if numbers.next().is_some() || x == 0 || y == 0 {
                    return None;
                }
                let release = *last == b'm';
                Some(MouseEvent {
                    b: if release { b | 3 } else { b },
                    x: x - 1,
                    y: y - 1,
                    sgr: Some((b, char::from(*last))),
                })
            }
            _ => None,
        }
    }

    pub fn is_drag(&self) -> bool {
        self.b & DRAG != 0
    }

    fn is_release(&self) -> bool {
        self.b & BUTTONS == 3
    }

    pub fn is_wheel(&self) -> bool {
        matches!(self.b & BUTTONS, 64 | 65)
    }

    /// The name of the key this event is over the pane or the status line (`on_status`),
    /// or `None` for the events zeropty does not name (drags and moves). `last_pressed`: the
    /// button bits of the last press, which a release names.
    pub fn key_name(&self, on_status: bool, last_pressed: u32) -> Option<String> {
        if self.is_drag() {
            return None;
        }
        let (what, b) = if self.is_wheel() {
            let up = self.b & BUTTONS == WHEEL_UP;
            (if up { "WheelUp" } else { "WheelDown" }.to_string(), self.b)
        } else if self.is_release() {
            (format!("MouseUp{}", button(last_pressed)?), last_pressed)
        } else {
            (format!("MouseDown{}", button(self.b)?), self.b)
        };
        Some(named(&what, b | self.b, on_status))
    }

    /// The name of a drag of the button in `pressed` (its first report, or with `end` its
    /// release), over the pane or the status line.
    pub fn drag_name(pressed: u32, on_status: bool, end: bool) -> Option<String> {
        let what = if end { "MouseDragEnd" } else { "MouseDrag" };
        Some(named(
            &format!("{what}{}", button(pressed)?),
            pressed,
            on_status,
        ))
    }

    /// The event as a program whose terminal modes are `modes` wants it (tmux's
    /// `input_key_get_mouse`), or `None` when it asked for no such events.
    pub fn for_program(&self, modes: u32, last: Option<MouseEvent>) -> Option<Vec<u8>> {
        let any = mode::MOUSE_STANDARD | mode::MOUSE_BUTTON | mode::MOUSE_ALL;
        let motion = mode::MOUSE_BUTTON | mode::MOUSE_ALL;
        if modes & any == 0 || (self.is_drag() && modes & motion == 0) {
            return None;
        }
        let all = modes & mode::MOUSE_ALL != 0;
        let moved_without_button = match self.sgr {
            Some((b, _)) => b & DRAG != 0 && b & BUTTONS == 3,
            None => self.is_drag() && self.is_release() && last.is_some_and(|l| l.is_release()),
        };
        if moved_without_button && !all {
            return None;
        }
        let (x, y) = (self.x, self.y);
        Some(match self.sgr {
            Some((b, last)) if modes & mode::MOUSE_SGR != 0 => {
                format!("\x1b[<{b};{};{}{last}", x + 1, y + 1).into_bytes()
            }
            _ if modes & mode::MOUSE_UTF8 != 0 => {
                let mut out = b"\x1b[M".to_vec();
                for v in [self.b + 32, x + 33, y + 33] {
                    let c = char::from_u32(v).filter(|_| v <= 0x7ff)?;
                    out.extend_from_slice(c.to_string().as_bytes());
                }
                out
            }
            _ => {
                let bytes = [self.b + 32, x + 33, y + 33];
                if self.b > 223 || bytes.iter().any(|&v| v > 255) {
                    return None;
                }
                let mut out = b"\x1b[M".to_vec();
                out.extend(bytes.iter().map(|&v| v as u8));
                out
            }
        })
    }
}

/// A mouse key's name: the modifiers held, what happened, and where.
fn named(what: &str, b: u32, on_status: bool) -> String {
    let mut name = String::new();
    for (bit, prefix) in [(CTRL, "C-"), (META, "M-"), (SHIFT, "S-")] {
        if b & bit != 0 {
            name.push_str(prefix);
        }
    }
    let place = if on_status { "Status" } else { "Pane" };
    format!("{name}{what}{place}")
}

/// The button number (1 to 3) of button bits, `None` for others.
fn button(b: u32) -> Option<u32> {
    match b & BUTTONS {
        0 => Some(1),
        1 => Some(2),
        2 => Some(3),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_become_tmuxs_key_names() {
        let sgr = |s: &str| MouseEvent::parse(s.as_bytes()).expect(s);
        assert_eq!(
            sgr("\x1b[<64;10;5M").key_name(false, 0).as_deref(),
            Some("WheelUpPane")
        );
        assert_eq!(
            sgr("\x1b[<65;1;1M").key_name(true, 0).as_deref(),
            Some("WheelDownStatus")
        );
        assert_eq!(
            sgr("\x1b[<0;3;4M").key_name(false, 0).as_deref(),
            Some("MouseDown1Pane")
        );
        assert_eq!(
            sgr("\x1b[<2;3;4m").key_name(false, 2).as_deref(),
            Some("MouseUp3Pane")
        );
        assert_eq!(
            sgr("\x1b[<72;3;4M").key_name(false, 0).as_deref(),
            Some("M-WheelUpPane")
        );
        assert_eq!(sgr("\x1b[<32;3;4M").key_name(false, 0), None, "a drag");
        assert_eq!(
            MouseEvent::drag_name(0, false, false).as_deref(),
            Some("MouseDrag1Pane")
        );
        assert_eq!(
            MouseEvent::drag_name(2, true, true).as_deref(),
            Some("MouseDragEnd3Status")
        );
        let legacy = MouseEvent::parse(b"\x1b[M`*%").expect("legacy");
        assert_eq!((legacy.b, legacy.x, legacy.y), (64, 9, 4));
        assert_eq!(MouseEvent::parse(b"\x1b[<0;0;4M"), None);
        assert_eq!(MouseEvent::parse(b"\x1b[<0;1M"), None);
    }

    #[test]
    fn programs_get_events_in_the_form_they_asked_for() {
        let press = MouseEvent::parse(b"\x1b[<0;3;4M").expect("press");
        assert_eq!(press.for_program(0, None), None);
        let sgr = mode::MOUSE_STANDARD | mode::MOUSE_SGR;
        assert_eq!(press.for_program(sgr, None), Some(b"\x1b[<0;3;4M".to_vec()));
        assert_eq!(
            press.for_program(mode::MOUSE_STANDARD, None),
            Some(b"\x1b[M #$".to_vec())
        );
        let drag = MouseEvent::parse(b"\x1b[<32;3;4M").expect("drag");
        assert_eq!(drag.for_program(mode::MOUSE_STANDARD, None), None);
        assert!(drag.for_program(mode::MOUSE_BUTTON, None).is_some());
    }
}
