//! Server commands: kill-server, start-server, list-commands, source-file.

use super::{absolute, all, expand, find, run, words};
use crate::engine::cmdline::Args;
use crate::engine::format;
use crate::engine::{Ctx, Engine};
use std::collections::BTreeMap;

pub(super) static COMMANDS: &[super::CommandDef] = &[
    crate::command_def!("kill-server", None, "", 0, Some(0), "", false, kill_server),
    crate::command_def!(
        "list-commands",
        Some("lscm"),
        "F:",
        0,
        Some(1),
        "[-F format] [command]",
        true,
        list_commands
    ),
    crate::command_def!(
        "source-file",
        Some("source"),
        "Fnqv",
        1,
        None,
        "[-Fnqv] path ...",
        false,
        source_file
    ),
    crate::command_def!(
        "start-server",
        Some("start"),
        "",
        0,
        Some(0),
        "",
        true,
        start_server
    ),
];

fn list_commands(_e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    let template = args
        .get('F')
        .unwrap_or("#{command_list_name}#{?command_list_alias, (#{command_list_alias}),} #{command_list_usage}");
    let only = match words(args).first() {
        Some(name) => Some(find(name)?.name),
        None => None,
    };
    for c in all().iter().filter(|c| only.is_none_or(|n| n == c.name)) {
        let mut vars = BTreeMap::new();
        vars.insert("command_list_name".to_string(), c.name.to_string());
        vars.insert(
            "command_list_alias".to_string(),
            c.alias.unwrap_or("").to_string(),
        );
        vars.insert("command_list_usage".to_string(), c.usage.to_string());
        ctx.print(&format::expand(template, &vars, 0));
    }
    Ok(())
}

/// How deep `source-file` may nest, as tmux limits it.
const SOURCE_DEPTH_LIMIT: u32 = 50;

fn source_file(e: &mut Engine, ctx: &mut Ctx<'_>, args: &Args) -> Result<(), String> {
    if ctx.depth >= SOURCE_DEPTH_LIMIT {
        return Err("too many nested files".into());
    }
    let mut failed = false;
    for path in words(args) {
        // `-` is the client's standard input, sent with the request (empty without it).
        let (path, read) = match path.as_str() {
            "-" => (
                path,
                Ok(ctx.req.stdin.as_deref().unwrap_or_default().to_vec()),
            ),
            _ => {
                let path = absolute(&ctx.req.cwd, &path);
                let read = e.host.read_file(&path);
                (path, read)
            }
        };
        match read {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                if !run_text(e, ctx, &path, &text, args.has('n')) {
                    failed = true;
                }
            }
            Err(err) if args.has('q') && err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => {
                ctx.error(&format!("{path}: {}", crate::sys::socket::os_error(&err)));
                failed = true;
            }
        }
    }
    if failed {
        Err(String::new())
    } else {
        Ok(())
    }
}

/// Runs the commands of a configuration file; errors are reported as `FILE:LINE: message`.
/// Returns whether every command succeeded.
pub fn run_text(
    e: &mut Engine,
    ctx: &mut Ctx<'_>,
    path: &str,
    text: &str,
    parse_only: bool,
) -> bool {
    use crate::engine::cmdline::{parse, ParseInput};
    let env = e.environ.clone();
    let home = env.get("HOME").cloned();
    let lookup = |k: &str| env.get(k).cloned();
    let cond = |f: &str| format::is_true(&expand(e, f, None));
    let input = ParseInput {
        file: Some(path),
        line: 1,
        env: &lookup,
        home: home.as_deref(),
        user_home: None,
        cond: &cond,
        parse_only,
    };
    let parsed = parse(text, &input);
    let parsed = match parsed {
        Ok(p) => p,
        Err(err) => {
            for a in &err.assignments {
                super::environment::assign(e, a);
            }
            ctx.error(&err.to_string());
            return false;
        }
    };
    for a in &parsed.assignments {
        super::environment::assign(e, a);
    }
    if parse_only {
        return true;
    }
    let mut ok = true;
    ctx.depth += 1;
    for c in parsed.commands {
        let argv = super::options::command_argv(&c);
        if argv.is_empty() {
            continue;
        }
        if let Err(err) = run(e, ctx, &argv) {
            if !err.is_empty() {
                ctx.error(&format!("{path}:{}: {err}", c.line));
            }
            ok = false;
        }
    }
    ctx.depth -= 1;
    ok
}

fn kill_server(e: &mut Engine, _ctx: &mut Ctx<'_>, _args: &Args) -> Result<(), String> {
    e.kill_all();
    Ok(())
}

fn start_server(_e: &mut Engine, _ctx: &mut Ctx<'_>, _args: &Args) -> Result<(), String> {
    Ok(())
}
