//! A client's prompt in the engine: asking (`command-prompt`, `confirm-before`), the keys
//! typed at it, and what its answer does, as tmux 3.3a's prompt callbacks do.
//!
//! The editing itself is pure (`prompt.rs`); here the prompt meets the engine: the session's
//! `status-keys` and `word-separators`, the newest paste buffer, completions from the
//! command and option tables and the sessions, the server's prompt history, and the
//! commands an answer runs: as the client (errors on its status line), or in the request
//! of the script that asked, which waits until the prompt ends.
//!
//! Invariants: a client has at most one prompt; a request waiting on a prompt is released
//! exactly once: when the prompt is answered, cancelled, replaced or dropped, or its client
//! leaves (`attach.rs`).

use super::commands::{self, FormatValues};
use super::format;
use super::layout::PRESETS;
use super::options::{Value, SERVER};
use super::prompt::{self, Entry, KeyContext, Outcome, Prompt, PromptAction, PromptType};
use super::Engine;

impl Engine {
    /// Asks a client a question on its status line, in place of any message or prompt it
    /// showed (a prompt replaced ends without an answer). An incremental prompt reports its
    /// empty start at once, as tmux's does.
    pub fn set_prompt(&mut self, conn: u64, new: Prompt) {
        let waiter = new.action.waiter();
        let incremental = new.entry == Entry::Incremental;
        let Some(old) = self.clients.replace_prompt(conn, Some(new)) else {
            return;
        };
        if let Some(old) = old {
            self.prompt_ended(conn, old, None);
        }
        if let Some(waiter) = waiter {
            self.clients.prompt_waiters.push((conn, waiter));
        }
        if incremental {
            self.prompt_changed(conn, "=".into());
        }
    }

    /// A key typed while a client's prompt is asked goes to the prompt. True when the key
    /// then goes on to be read as a key (a numeric prompt's first other key).
    pub(super) fn prompt_key(&mut self, conn: u64, typed: &[u8]) -> bool {
        let modes = self.client_key_modes(conn);
        let Some(si) = self
            .clients
            .get(conn)
            .and_then(|c| self.session_index(c.session))
        else {
            return false;
        };
        let vi = self.option_or(Some(si), None, "status-keys", "emacs") == "vi";
        let separators = self.option_or(Some(si), None, "word-separators", "");
        let Some(mut p) = self.clients.replace_prompt(conn, None).flatten() else {
            return false;
        };
        let outcome = {
            let complete = |kind, word: &str, at_start| self.complete_word(kind, word, at_start);
            let cx = KeyContext {
                vi,
                separators: &separators,
                history: &self.prompt_history,
                paste: self.buffers.top().map(|b| b.data.as_slice()),
                complete: &complete,
            };
            p.editor.key(typed, modes, p.entry, p.kind, &cx)
        };
        let (answer, passed) = match outcome {
            Outcome::Edited => {
                self.clients.replace_prompt(conn, Some(p));
                return false;
            }
            Outcome::Changed(prefix) => {
                let text = format!("{prefix}{}", p.editor.text());
                let incremental = p.entry == Entry::Incremental;
                self.clients.replace_prompt(conn, Some(p));
                if incremental {
                    self.prompt_changed(conn, text);
                }
                return false;
            }
            Outcome::Entered(text) => {
                if !text.is_empty() {
                    let limit = self
                        .options
                        .get("prompt-history-limit")
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(100);
                    self.prompt_history.add(p.kind, &text, limit);
                }
                (Some(text), false)
            }
            Outcome::Answered(text) => (Some(text), false),
            Outcome::AnsweredAndPassed(text) => (Some(text), true),
            Outcome::Cancelled | Outcome::Dropped => (None, false),
        };
        // An incremental prompt ran its template as it changed: Enter ends it with no more.
        let answer = answer.filter(|_| p.entry != Entry::Incremental);
        self.prompt_ended(conn, p, answer);
        self.resume_ready();
        passed
    }

    /// An incremental prompt changed: its template runs with the text (after `=`, `-` or
    /// `+`), as the client, the prompt staying.
    fn prompt_changed(&mut self, conn: u64, text: String) {
        let Some(Some(p)) = self.clients.get(conn).map(|c| c.prompt.as_ref()) else {
            return;
        };
        let PromptAction::Command {
            template, answers, ..
        } = &p.action
        else {
            return;
        };
        let text = fill_template(template, answers.iter().chain([&text]));
        self.run_text_for_client(conn, &text);
    }

    /// A prompt ended with `answer` (`None`: cancelled or replaced): what it was for happens.
    /// A command prompt with more questions asks the next one instead.
    fn prompt_ended(&mut self, conn: u64, ended: Prompt, answer: Option<String>) {
        match ended.action {
            PromptAction::Tree(ask) => self.tree_answer(conn, ask, answer),
            PromptAction::Confirm { commands, waiter } => {
                let yes = prompt::confirms(answer.as_deref());
                let cmds = if yes {
                    commands::command_lines(self, &commands)
                } else {
                    Ok(Vec::new())
                };
                match waiter {
                    // As tmux's, the waiting client exits 0 only when the answer confirms.
                    // It goes on once the command that ended the prompt is done.
                    Some(waiter) => self.release_prompt_waiter(
                        conn,
                        waiter,
                        cmds,
                        Some(if yes { 0 } else { 1 }),
                    ),
                    None => {
                        if let (true, Ok(cmds)) = (yes, cmds) {
                            self.run_for_client(conn, cmds);
                        }
                    }
                }
            }
            PromptAction::Command {
                template,
                prompts,
                mut answers,
                waiter,
            } => {
                let Some(answer) = answer else {
                    if let Some(waiter) = waiter {
                        self.release_prompt_waiter(conn, waiter, Ok(Vec::new()), None);
                    }
                    return;
                };
                answers.push(answer);
                if let Some((text, input)) = prompts.get(answers.len()).cloned() {
                    let next = Prompt {
                        text: self.expand_for_client(conn, &text),
                        editor: prompt::Editor::new(
                            &self.expand_for_client(conn, &input),
                            ended.entry,
                        ),
                        action: PromptAction::Command {
                            template,
                            prompts,
                            answers,
                            waiter,
                        },
                        ..ended
                    };
                    self.clients.replace_prompt(conn, Some(next));
                    return;
                }
                let text = fill_template(&template, answers.iter());
                match waiter {
                    Some(waiter) => {
                        let cmds = commands::command_lines(self, &text);
                        self.release_prompt_waiter(conn, waiter, cmds, None);
                    }
                    None => self.run_text_for_client(conn, &text),
                }
            }
        }
    }

    /// The request waiting on a client's prompt goes on, running `cmds` first.
    fn release_prompt_waiter(
        &mut self,
        conn: u64,
        waiter: u64,
        cmds: Result<Vec<Vec<String>>, String>,
        exit_code: Option<i32>,
    ) {
        self.clients
            .prompt_waiters
            .retain(|&(c, w)| (c, w) != (conn, waiter));
        self.waits.finish(waiter, cmds, exit_code);
    }

    /// Runs command text as the client; a parse error shows on its status line.
    fn run_text_for_client(&mut self, conn: u64, text: &str) {
        match commands::command_lines(self, text) {
            Ok(cmds) => self.run_for_client(conn, cmds),
            Err(err) => self.show_error(conn, &err),
        }
    }

    /// A prompt's text or input, expanded as a format for the client's current pane.
    pub(super) fn expand_for_client(&self, conn: u64, text: &str) -> String {
        let values = FormatValues::new(self, self.client_place(conn));
        format::expand_time(text, &values, self.host.wall_time())
    }

    /// Tab at a prompt: the completion of `word`, as tmux's `status_prompt_complete`: a
    /// command's name or alias (at the line's start), or an option's or layout's name; a
    /// session after `-t` or `-s`, or for a target prompt. One match gets a space after it;
    /// several, their common start. (tmux offers a menu of several, or of windows; zeropty
    /// completes only what is common.)
    fn complete_word(&self, kind: PromptType, word: &str, at_start: bool) -> Option<String> {
        let targets = matches!(kind, PromptType::Target | PromptType::WindowTarget);
        if word.is_empty() && !targets {
            return None;
        }
        if !targets && !word.starts_with("-t") && !word.starts_with("-s") {
            let list = self.completions(word, at_start);
            return match list.as_slice() {
                [] => None,
                [one] => Some(format!("{one} ")),
                many => Some(common_start(many)),
            };
        }
        if kind == PromptType::WindowTarget {
            return None;
        }
        let (flag, s) = if targets {
            ("", word)
        } else {
            word.split_at(2)
        };
        if s.contains(':') {
            return None;
        }
        let list: Vec<String> = self
            .sessions
            .iter()
            .filter_map(|session| {
                if s.is_empty() || session.name.starts_with(s) {
                    Some(format!("{}:", session.name))
                } else {
                    let id = s.strip_prefix('$')?;
                    let n = session.id.to_string();
                    n.starts_with(id).then(|| format!("${n}:"))
                }
            })
            .collect();
        (!list.is_empty()).then(|| format!("{flag}{}", common_start(&list)))
    }

    /// The command names, aliases, option names and layouts starting with `word`.
    fn completions(&self, word: &str, at_start: bool) -> Vec<String> {
        let mut list: Vec<String> = Vec::new();
        let mut add = |name: &str| {
            if name.starts_with(word) && !list.iter().any(|n| n == name) {
                list.push(name.to_string());
            }
        };
        for def in commands::all() {
            add(def.name);
            if let Some(alias) = def.alias {
                add(alias);
            }
        }
        if let Some(Value::Array(items)) = self.options.global(SERVER).get("command-alias") {
            for item in items.values() {
                if let Some((name, _)) = item.split_once('=') {
                    add(name);
                }
            }
        }
        if !at_start {
            for def in super::options::TABLE {
                add(def.name);
            }
            for layout in PRESETS {
                add(layout);
            }
        }
        list
    }
}

/// The template with each answer put in its place (`%1`, `%2`, ... or the next `%%`).
fn fill_template<'a>(template: &str, answers: impl Iterator<Item = &'a String>) -> String {
    answers.enumerate().fold(template.to_string(), |t, (i, a)| {
        prompt::replace_template(&t, a, i + 1)
    })
}

/// The longest start the names share.
fn common_start(names: &[String]) -> String {
    let mut start: Vec<char> = names[0].chars().collect();
    for name in &names[1..] {
        let common = start
            .iter()
            .zip(name.chars())
            .take_while(|(a, b)| **a == *b)
            .count();
        start.truncate(common);
    }
    start.into_iter().collect()
}
