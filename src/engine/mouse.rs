//! Mouse events from an attached client's terminal, as tmux 3.3a reads, names and passes
//! them on (`tty-keys.c`, `server_client_check_mouse`, `input_key_get_mouse`).
//!
//! With the session's `mouse` option on, the client's terminal reports the mouse (button
//! events in SGR form); each report becomes a key named for what happened and where:
//! `WheelUpPane`, `MouseDown1Status` (over a window's name in the status line: that window is
//! the `=` target; `StatusLeft`, `StatusRight` and `StatusDefault` name the rest of it),
//! `MouseUp3Pane`, with `M-`, `C-` and `S-` for the
//! modifiers held. Key tables bind these as any other key; an event bound nowhere, or passed
//! on with `send-keys -M`, goes to the pane's program in the form its mouse mode asked for,
//! or nowhere when it asked for none.
//!
//! A drag is named once, where its button went down (`MouseDrag1Pane`); when its binding
//! starts a selection in copy mode (`copy-mode -M`, `begin-selection`), the reports that
//! follow move the selection's end (held on the top or bottom row, copy mode keeps scrolling:
//! `copy_mode::DRAG_SCROLL_MS`), and the release is `MouseDragEnd1Pane`. Presses of one
//! button within [`CLICK_TIMEOUT_MS`] of each other are counted as tmux counts them
//! ([`Clicks`]): the second is `SecondClick1Pane`, a third `TripleClick1Pane`, and a second
//! that no third follows is also `DoubleClick1Pane` once the wait ends; that key is only a
//! name, never passed to a program.
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
    /// The event is a name only (a double click, named after its presses were): `send-keys
    /// -M` passes nothing on, as tmux's `ignore`.
    pub ignored: bool,
    /// The client whose terminal reported it.
    pub client: u64,
    /// The window whose name in the status line it is over.
    pub window: Option<usize>,
}

/// Where on a client an event is, as tmux tells the places apart (the last part of a mouse
/// key's name): over a pane, over a window's name in the status line, over its left or right
/// part, or elsewhere on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Pane,
    Status,
    StatusLeft,
    StatusRight,
    StatusDefault,
}

impl Place {
    fn name(self) -> &'static str {
        match self {
            Place::Pane => "Pane",
            Place::Status => "Status",
            Place::StatusLeft => "StatusLeft",
            Place::StatusRight => "StatusRight",
            Place::StatusDefault => "StatusDefault",
        }
    }
}

/// How long a press waits for the next one of a double or triple click (tmux's
/// `KEYC_CLICK_TIMEOUT`).
pub const CLICK_TIMEOUT_MS: u64 = 300;

/// Presses counted into double and triple clicks, as tmux 3.3a's `server_client_check_mouse`
/// and its click timer count them: every press starts a wait of [`CLICK_TIMEOUT_MS`]; a press
/// of the same button (with the same modifiers) within it is the second click, and one more
/// within the next wait the third. A press of another button while a click is awaited is
/// dropped, and the count starts again after it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clicks {
    /// The last press and when the wait it started ends (monotonic ms).
    last: Option<(MouseEvent, u64)>,
    /// Clicks counted towards the one awaited: 1 awaits a second, 2 a third, 0 none.
    count: u8,
}

impl Clicks {
    /// A button press at `now`: the name of what it is (`MouseDown`, `SecondClick`,
    /// `TripleClick`), or `None` when tmux drops it. Call [`Clicks::expire`] first.
    pub fn press(&mut self, event: MouseEvent, now: u64) -> Option<&'static str> {
        let same = self.last.is_some_and(|(last, _)| last.b == event.b);
        let what = match (self.count, same) {
            (0, _) => Some("MouseDown"),
            (1, true) => Some("SecondClick"),
            (2, true) => {
                *self = Clicks::default();
                return Some("TripleClick");
            }
            _ => None,
        };
        self.count = if what.is_some() { self.count + 1 } else { 0 };
        self.last = Some((event, now + CLICK_TIMEOUT_MS));
        what
    }

    /// When the wait for the next click ends, while one is awaited.
    pub fn deadline(&self) -> Option<u64> {
        self.last.filter(|_| self.count > 0).map(|(_, until)| until)
    }

    /// Ends a wait that is over at `now`: the second press of a double click that no third
    /// followed, which tmux names `DoubleClick` then.
    pub fn expire(&mut self, now: u64) -> Option<MouseEvent> {
        let (event, until) = self.last?;
        if now < until {
            return None;
        }
        let count = std::mem::take(self).count;
        (count == 2).then_some(event)
    }
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

    /// The name of the key this event is at `place`,
    /// or `None` for the events zeropty does not name (drags and moves). `last_pressed`: the
    /// button bits of the last press, which a release names.
    pub fn key_name(&self, place: Place, last_pressed: u32) -> Option<String> {
        if self.is_drag() {
            return None;
        }
        let (what, b) = if self.is_wheel() {
            let up = self.b & BUTTONS == WHEEL_UP;
            (if up { "WheelUp" } else { "WheelDown" }.to_string(), self.b)
        } else if self.is_release() {
            (format!("MouseUp{}", button(last_pressed)?), last_pressed)
        } else {
            return self.press_name("MouseDown", place);
        };
        Some(named(&what, b | self.b, place))
    }

    /// Whether the event is a button's press (not a release, a drag or the wheel).
    pub fn is_press(&self) -> bool {
        !self.is_drag() && !self.is_wheel() && !self.is_release()
    }

    /// The name of a press counted as `what` ([`Clicks::press`], or `DoubleClick`), or `None`
    /// for a button zeropty does not name.
    pub fn press_name(&self, what: &str, place: Place) -> Option<String> {
        Some(named(&format!("{what}{}", button(self.b)?), self.b, place))
    }

    /// The name of a drag of the button in `pressed` (its first report, or with `end` its
    /// release), over the pane or the status line.
    pub fn drag_name(pressed: u32, place: Place, end: bool) -> Option<String> {
        let what = if end { "MouseDragEnd" } else { "MouseDrag" };
        Some(named(
            &format!("{what}{}", button(pressed)?),
            pressed,
            place,
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
fn named(what: &str, b: u32, place: Place) -> String {
    let mut name = String::new();
    for (bit, prefix) in [(CTRL, "C-"), (META, "M-"), (SHIFT, "S-")] {
        if b & bit != 0 {
            name.push_str(prefix);
        }
    }
    format!("{name}{what}{}", place.name())
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
            sgr("\x1b[<64;10;5M").key_name(Place::Pane, 0).as_deref(),
            Some("WheelUpPane")
        );
        assert_eq!(
            sgr("\x1b[<65;1;1M").key_name(Place::Status, 0).as_deref(),
            Some("WheelDownStatus")
        );
        assert_eq!(
            sgr("\x1b[<0;3;4M").key_name(Place::Pane, 0).as_deref(),
            Some("MouseDown1Pane")
        );
        assert_eq!(
            sgr("\x1b[<2;3;4m").key_name(Place::Pane, 2).as_deref(),
            Some("MouseUp3Pane")
        );
        assert_eq!(
            sgr("\x1b[<72;3;4M").key_name(Place::Pane, 0).as_deref(),
            Some("M-WheelUpPane")
        );
        assert_eq!(
            sgr("\x1b[<32;3;4M").key_name(Place::Pane, 0),
            None,
            "a drag"
        );
        assert_eq!(
            MouseEvent::drag_name(0, Place::Pane, false).as_deref(),
            Some("MouseDrag1Pane")
        );
        assert_eq!(
            MouseEvent::drag_name(2, Place::StatusLeft, true).as_deref(),
            Some("MouseDragEnd3StatusLeft")
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

    #[test]
    fn presses_count_into_double_and_triple_clicks_as_tmuxs() {
        let left = MouseEvent::parse(b"\x1b[<0;3;4M").expect("left");
        let right = MouseEvent::parse(b"\x1b[<2;3;4M").expect("right");
        let mut clicks = Clicks::default();
        assert_eq!(clicks.press(left, 0), Some("MouseDown"));
        assert_eq!(clicks.deadline(), Some(CLICK_TIMEOUT_MS));
        assert_eq!(clicks.press(left, 100), Some("SecondClick"));
        assert_eq!(
            clicks.expire(399),
            None,
            "the wait runs from the second press"
        );
        assert_eq!(clicks.press(left, 399), Some("TripleClick"));
        assert_eq!(clicks.deadline(), None, "a triple click awaits nothing");
        assert_eq!(clicks.press(left, 400), Some("MouseDown"));

        // A second click that no third follows is a double click when the wait ends.
        let mut clicks = Clicks::default();
        clicks.press(left, 0);
        clicks.press(left, 250);
        assert_eq!(clicks.expire(549), None);
        assert_eq!(clicks.expire(550), Some(left));
        assert_eq!(clicks.deadline(), None);
        assert_eq!(clicks.press(left, 560), Some("MouseDown"));

        // A single click's wait ends with nothing; another button while waiting is dropped.
        let mut clicks = Clicks::default();
        clicks.press(left, 0);
        assert_eq!(clicks.expire(300), None);
        assert_eq!(clicks.press(left, 310), Some("MouseDown"));
        assert_eq!(clicks.press(right, 320), None);
        assert_eq!(clicks.press(right, 330), Some("MouseDown"));
        assert_eq!(
            right
                .press_name("DoubleClick", Place::StatusDefault)
                .as_deref(),
            Some("DoubleClick3StatusDefault")
        );
    }
}
