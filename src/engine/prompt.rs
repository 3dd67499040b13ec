//! Prompts on a client's status line, read as tmux 3.3a's `status_prompt_key` reads keys
//! into them. zeropty has the single-key prompt that `confirm-before` asks its question with:
//! a character answers it (`y` or `Y` confirms, anything else declines), Enter, Escape, C-c
//! and C-g decline, and every other key (named keys, control characters) leaves it waiting,
//! as in tmux, whose editing keys have nothing to edit in a prompt answered by one key.
//!
//! Pure: the engine keeps a client's prompt, draws it (`attach.rs`) and acts on the answer.

use super::keys::typed_key;

/// What a prompt does once answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptAction {
    /// `confirm-before`: run `commands` (command text) if confirmed; `waiter`, the client
    /// whose request waits for the answer (none when nobody waits: `-b`, or a key binding).
    Confirm {
        commands: String,
        waiter: Option<u64>,
    },
}

/// A prompt a client shows: its text (expanded, drawn with its styles) and what it is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    pub text: String,
    pub action: PromptAction,
}

/// What a key typed at a single-key prompt does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The prompt is answered with this character.
    Char(char),
    /// The prompt is answered with nothing (Enter) or cancelled (Escape, C-c, C-g).
    Nothing,
    /// The prompt goes on waiting.
    Ignored,
}

/// The answer a key's bytes (one key, as a terminal sends it) give a single-key prompt.
pub fn single_key_answer(typed: &[u8]) -> Answer {
    let Some(key) = typed_key(typed) else {
        return Answer::Ignored;
    };
    // As tmux, a modifier does not change the character (M-y answers y).
    match key.char() {
        Some('\r' | '\n' | '\x1b' | '\x03' | '\x07') => Answer::Nothing,
        Some(c) if !c.is_control() => Answer::Char(c),
        _ => Answer::Ignored,
    }
}

/// Whether an answer confirms (`confirm-before`: `y` or `Y` alone).
pub fn confirms(answer: Answer) -> bool {
    matches!(answer, Answer::Char('y' | 'Y'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_keys_answer_as_tmux_reads_them() {
        assert_eq!(single_key_answer(b"y"), Answer::Char('y'));
        assert_eq!(single_key_answer(b"\x1by"), Answer::Char('y'));
        assert_eq!(single_key_answer("é".as_bytes()), Answer::Char('é'));
        for declined in [&b"\r"[..], b"\n", b"\x1b", b"\x03", b"\x07"] {
            assert_eq!(single_key_answer(declined), Answer::Nothing, "{declined:?}");
        }
        for ignored in [&b"\x1b[A"[..], b"\x7f", b"\x02", b"\x1b[1;5D", b"\x01"] {
            assert_eq!(single_key_answer(ignored), Answer::Ignored, "{ignored:?}");
        }
        assert!(confirms(Answer::Char('y')) && confirms(Answer::Char('Y')));
        assert!(!confirms(Answer::Char('n')) && !confirms(Answer::Nothing));
    }
}
