//! Command splitting, command text parsing and flag parsing against tmux 3.3a.
//!
//! The fixtures in `tests/fixtures/cmdline/` were recorded from real tmux by
//! `scripts/gen-cmdline-fixtures.py`: `parse.json` (texts run with `source-file`), `split.json`
//! (command lines), `args.json` (tmux's command table and command lines whose flags were
//! accepted or rejected) and `depth.json` (where tmux's parser stack overflows). tmux runs the recorded texts for real, so the checks here do the
//! same steps tmux does after parsing: resolve each command name through the command table
//! (with the fixture's alias `r`), parse its flags, report the first failure as
//! `FILE:LINE: message`, then run the few commands the texts use (`r` records its arguments,
//! `if-shell -F` runs a branch). The rest of the file checks the API directly.

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde_json::Value;
use zeropty::engine::cmdline::{
    format_error, format_true, parse, parse_arg_values, parse_args, parse_text, split_args,
    split_argv, Arg, ArgError, ArgSpec, Args, Command, ParseInput,
};

fn fixture(name: &str) -> Vec<Value> {
    let path = format!(
        "{}/tests/fixtures/cmdline/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|s| s.as_str().expect("string").to_string())
        .collect()
}

fn runs(v: &Value) -> Vec<Vec<String>> {
    v.as_array().expect("runs").iter().map(strings).collect()
}

fn map(v: &Value) -> BTreeMap<String, String> {
    v.as_object()
        .expect("object")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("string").to_string()))
        .collect()
}

fn s(v: &str) -> String {
    v.to_string()
}

fn argv(list: &[&str]) -> Vec<String> {
    list.iter().map(|a| a.to_string()).collect()
}

// ---------------------------------------------------------------------------------------------
// tmux's command table, from args.json.

struct Entry {
    name: String,
    alias: Option<String>,
    usage: String,
    spec: ArgSpec,
}

fn callback(name: &str) -> fn(usize, &Args) -> bool {
    match name {
        "cmd_if_shell_args_parse" => |i, _| i == 1 || i == 2,
        "cmd_set_option_args_parse" => |i, _| i == 1,
        "cmd_run_shell_args_parse" => |_, a| a.has('C'),
        "cmd_display_menu_args_parse" => |idx, a| {
            // Menu items are name, key, command; an empty name is a separator.
            let mut i = 0;
            loop {
                if i == idx {
                    return false;
                }
                let empty = a.string(i) == Some("");
                i += 1;
                if empty {
                    continue;
                }
                if i == idx {
                    return false;
                }
                i += 1;
                if i == idx {
                    return true;
                }
                i += 1;
            }
        },
        // bind-key, choose-tree, command-prompt, confirm-before, display-panes.
        _ => |_, _| true,
    }
}

fn table() -> Vec<Entry> {
    fixture("args.json")
        .iter()
        .filter(|e| e["kind"] == "command")
        .map(|e| {
            let flags: &'static str = Box::leak(e["flags"].as_str().unwrap().to_string().into());
            let mut spec = ArgSpec::new(
                flags,
                e["min"].as_u64().unwrap() as usize,
                e["max"].as_u64().map(|m| m as usize),
            );
            if let Some(cb) = e["callback"].as_str() {
                spec = spec.with_commands(callback(cb));
            }
            Entry {
                name: e["name"].as_str().unwrap().to_string(),
                alias: e["alias"].as_str().map(str::to_string),
                usage: e["usage"].as_str().unwrap().to_string(),
                spec,
            }
        })
        .collect()
}

/// tmux's `cmd_find`: an alias matches exactly, a name by any unique prefix (an exact name
/// wins over longer ones).
fn find<'t>(table: &'t [Entry], name: &str) -> Result<&'t Entry, String> {
    let mut found = None;
    let mut ambiguous = false;
    for e in table {
        if e.alias.as_deref() == Some(name) {
            ambiguous = false;
            found = Some(e);
            break;
        }
        if !e.name.starts_with(name) {
            continue;
        }
        if found.is_some() {
            ambiguous = true;
        }
        found = Some(e);
        if e.name == name {
            break;
        }
    }
    if ambiguous {
        let all: Vec<&str> = table
            .iter()
            .filter(|e| e.name.starts_with(name))
            .map(|e| e.name.as_str())
            .collect();
        return Err(format!(
            "ambiguous command: {name}, could be: {}",
            all.join(", ")
        ));
    }
    found.ok_or_else(|| format!("unknown command: {name}"))
}

// ---------------------------------------------------------------------------------------------
// What tmux does with parsed commands, for the fixture texts.

/// The recorder the generator's alias `r` runs: `r ARGS` is `new-session -d REC ARGS`.
const REC: &str = "/zp/rec";

struct World<'a> {
    table: &'a [Entry],
    env: RefCell<BTreeMap<String, (String, bool)>>,
    home: String,
    users: BTreeMap<String, String>,
    conds: BTreeMap<String, bool>,
    file: Option<&'a str>,
    runs: RefCell<Vec<Vec<String>>>,
}

/// A command after `cmd_parse`: its table entry and parsed arguments.
struct Built<'t> {
    entry: &'t Entry,
    args: Args,
}

impl<'a> World<'a> {
    fn lookup(&self, name: &str) -> Option<String> {
        self.env.borrow().get(name).map(|(v, _)| v.clone())
    }

    fn parse(&self, text: &str, line: usize) -> Result<Vec<Command>, (usize, String)> {
        let env = |n: &str| self.lookup(n);
        let users = |u: &str| self.users.get(u).cloned();
        let cond = |f: &str| {
            *self
                .conds
                .get(f)
                .unwrap_or_else(|| panic!("no truth recorded for condition {f:?}"))
        };
        let input = ParseInput {
            file: self.file,
            line,
            env: &env,
            home: Some(&self.home),
            user_home: Some(&users),
            cond: &cond,
            parse_only: false,
        };
        let result = parse(text, &input);
        let assignments = match &result {
            Ok(p) => &p.assignments,
            Err(e) => &e.assignments,
        };
        for a in assignments {
            self.env
                .borrow_mut()
                .insert(a.name.clone(), (a.value.clone(), a.hidden));
        }
        match result {
            Ok(p) => Ok(p.commands),
            Err(e) => {
                assert_eq!(e.file.as_deref(), self.file);
                Err((e.line, e.message))
            }
        }
    }

    /// `cmd_parse_build_commands`: every command (blocks first, then the name and flags);
    /// the first failure with tmux's line counter at that moment.
    fn build(
        &self,
        cmds: &[Command],
        line: &mut usize,
        aliases: bool,
    ) -> Result<Vec<Built<'a>>, (usize, String)> {
        let mut out = Vec::new();
        for cmd in cmds {
            *line = cmd.line;
            out.extend(self.build_one(cmd.argv.clone(), line, aliases)?);
        }
        Ok(out)
    }

    fn build_one(
        &self,
        mut argv: Vec<Arg>,
        line: &mut usize,
        aliases: bool,
    ) -> Result<Vec<Built<'a>>, (usize, String)> {
        if aliases && argv[0].as_str() == Some("r") {
            // The alias's own text ends up with the arguments; its blocks are built with
            // aliases off, as tmux does.
            argv.splice(0..1, ["new-session", "-d", REC].map(Arg::from));
            return self.build_one(argv, line, false);
        }
        for arg in &argv {
            if let Arg::Commands(block) = arg {
                self.build(block, line, aliases)?;
            }
        }
        let err = |m: String| (*line, m);
        let name = argv[0].as_str().ok_or_else(|| err(s("no command")))?;
        let entry = find(self.table, name).map_err(err)?;
        let args = parse_arg_values(&entry.spec, &argv[1..])
            .map_err(|e| err(e.message(&entry.name, &entry.usage)))?;
        Ok(vec![Built { entry, args }])
    }

    fn run(&self, built: &[Built]) {
        for b in built {
            match b.entry.name.as_str() {
                "new-session" if b.args.string(0) == Some(REC) => {
                    let record = b.args.positional()[1..]
                        .iter()
                        .map(|a| a.as_str().expect("string").to_string())
                        .collect();
                    self.runs.borrow_mut().push(record);
                }
                "if-shell" => {
                    assert!(b.args.has('F'), "only if-shell -F is simulated");
                    let branch = if format_true(b.args.string(0).unwrap()) {
                        b.args.positional().get(1)
                    } else {
                        b.args.positional().get(2)
                    };
                    let cmds = match branch {
                        None => continue,
                        Some(Arg::Commands(cmds)) => cmds.clone(),
                        Some(Arg::String(text)) => self.parse(text, 1).expect("branch parses"),
                    };
                    let built = self.build(&cmds, &mut 0, true).expect("branch builds");
                    self.run(&built);
                }
                other => panic!("{other} is not simulated"),
            }
        }
    }

    /// Parses, builds and runs a text as `source-file` does.
    fn source(&self, text: &str) -> Result<(), (usize, String)> {
        let cmds = self.parse(text, 1)?;
        let built = self.build(&cmds, &mut 1, true)?;
        self.run(&built);
        Ok(())
    }
}

#[test]
fn parse_fixture_matches_tmux() {
    let table = table();
    let cases = fixture("parse.json");
    assert!(cases.len() >= 140, "parse.json has {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let text = case["text"].as_str().unwrap();
        let mut env: BTreeMap<String, (String, bool)> = map(&case["env"])
            .into_iter()
            .map(|(k, v)| (k, (v, false)))
            .collect();
        env.insert(
            s("HOME"),
            (case["home"].as_str().unwrap().to_string(), false),
        );
        let world = World {
            table: &table,
            env: RefCell::new(env),
            home: case["passwd_home"].as_str().unwrap().to_string(),
            users: map(&case["users"]),
            conds: case["conds"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_bool().unwrap()))
                .collect(),
            file: Some("FILE"),
            runs: RefCell::new(Vec::new()),
        };
        let got_error = world.source(text).err();
        let want_error = case["error"].as_object().map(|e| {
            (
                e["line"].as_u64().unwrap() as usize,
                e["message"].as_str().unwrap().to_string(),
            )
        });
        if got_error != want_error {
            failures.push(format!(
                "{name}: error: tmux {want_error:?}, got {got_error:?}"
            ));
        }
        let want_runs = runs(&case["runs"]);
        if *world.runs.borrow() != want_runs {
            failures.push(format!(
                "{name}: ran: tmux {want_runs:?}, got {:?}",
                world.runs.borrow()
            ));
        }
        let env = world.env.borrow();
        let zp = |hidden: bool| -> BTreeMap<String, String> {
            env.iter()
                .filter(|(k, (_, h))| k.starts_with("ZP") && *h == hidden)
                .map(|(k, (v, _))| (k.clone(), v.clone()))
                .collect()
        };
        for (which, hidden) in [("environ", false), ("hidden", true)] {
            let want = map(&case[which]);
            if zp(hidden) != want {
                failures.push(format!(
                    "{name}: {which}: tmux {want:?}, got {:?}",
                    zp(hidden)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from tmux:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn split_fixture_matches_tmux() {
    let table = table();
    let cases = fixture("split.json");
    assert!(cases.len() >= 15);
    for case in &cases {
        let args = strings(&case["argv"]);
        let world = World {
            table: &table,
            env: RefCell::new(BTreeMap::new()),
            home: s("/"),
            users: BTreeMap::new(),
            conds: BTreeMap::new(),
            file: None,
            runs: RefCell::new(Vec::new()),
        };
        // The command line is split, then every command is built before any runs.
        let mut built = Vec::new();
        let mut error = None;
        for cmd in split_argv(&args) {
            match world.build_one(cmd.into_iter().map(Arg::String).collect(), &mut 0, true) {
                Ok(b) => built.extend(b),
                Err((_, e)) => {
                    error = Some(e);
                    break;
                }
            }
        }
        if error.is_none() {
            world.run(&built);
        }
        assert_eq!(
            error.as_deref(),
            case["error"].as_str(),
            "error for {args:?}"
        );
        assert_eq!(
            *world.runs.borrow(),
            runs(&case["runs"]),
            "runs for {args:?}"
        );
    }
}

#[test]
fn args_fixture_matches_tmux() {
    let table = table();
    assert_eq!(table.len(), 90, "tmux 3.3a has 90 commands");
    let cases: Vec<Value> = fixture("args.json")
        .into_iter()
        .filter(|e| e["kind"] == "case")
        .collect();
    assert!(cases.len() >= 30);
    for case in &cases {
        let command = case["command"].as_str().unwrap();
        let args = strings(&case["argv"]);
        let entry = find(&table, command).unwrap();
        let what = format!("{command} {args:?}");
        match (parse_args(&entry.spec, &args), case["error"].as_str()) {
            (Err(e), Some(want)) => {
                assert_eq!(e.message(&entry.name, &entry.usage), want, "{what}")
            }
            (Err(e), None) => panic!("{what}: tmux accepted it, got {e:?}"),
            (Ok(_), Some(want)) => panic!("{what}: tmux said {want:?}"),
            (Ok(parsed), None) => check_observed(&parsed, case, &what),
        }
    }
}

#[test]
fn depth_fixture_matches_tmux() {
    // tmux's parser stack holds 9999 symbols: the largest input of each shape that tmux
    // parses must parse, and the smallest it rejects must fail as tmux fails.
    let cases = fixture("depth.json");
    assert!(cases.len() >= 20);
    let env = |_: &str| None;
    let cond = |_: &str| false;
    for case in &cases {
        let part = |k: &str| case[k].as_str().unwrap().to_string();
        for result in case["results"].as_array().unwrap() {
            let n = result["n"].as_u64().unwrap() as usize;
            let text = part("head")
                + &part("open").repeat(n)
                + &part("middle")
                + &part("close").repeat(n)
                + &part("tail");
            let input = ParseInput {
                file: Some("FILE"),
                line: 1,
                env: &env,
                home: Some("/"),
                user_home: None,
                cond: &cond,
                parse_only: false,
            };
            let got = match parse(&text, &input) {
                Err(e) if e.message == "yacc stack overflow" => Some((e.line, e.message)),
                _ => None,
            };
            let want = result["overflow"].as_object().map(|o| {
                (
                    o["line"].as_u64().unwrap() as usize,
                    o["message"].as_str().unwrap().to_string(),
                )
            });
            assert_eq!(got, want, "{} with n = {n}", case["name"]);
        }
    }
}

fn check_observed(args: &Args, case: &Value, what: &str) {
    let observed = &case["observed"];
    match case["observe"].as_str() {
        None => {}
        Some("display") => assert_eq!(args.string(0), observed.as_str(), "{what}"),
        Some("option") | Some("environ") => {
            assert_eq!(args.string(1), observed.as_str(), "{what}")
        }
        Some("session") => {
            let name = observed.as_str().unwrap();
            if name.bytes().all(|b| b.is_ascii_digit()) {
                // tmux named it itself: -s was absent or had no value.
                assert_eq!(args.get('s'), None, "{what}");
            } else {
                assert_eq!(args.get('s'), Some(name), "{what}");
            }
        }
        Some("session-env") => {
            let mut e = args.values('e').to_vec();
            e.sort();
            assert_eq!(e, strings(observed), "{what}");
        }
        Some(other) => panic!("unknown observation {other}"),
    }
}

// ---------------------------------------------------------------------------------------------
// The API directly.

fn no_env(_: &str) -> Option<String> {
    None
}

fn parse_simple(text: &str) -> Vec<Vec<String>> {
    let parsed = parse_text(text, &no_env, Some("/home/u"), &format_true).expect("parses");
    parsed
        .commands
        .iter()
        .map(|c| {
            c.argv
                .iter()
                .map(|a| a.as_str().unwrap_or("{}").to_string())
                .collect()
        })
        .collect()
}

#[test]
fn split_argv_rules() {
    assert_eq!(
        split_argv(&argv(&["new", "-d", ";", "ls"])),
        vec![argv(&["new", "-d"]), argv(&["ls"])]
    );
    assert_eq!(
        split_argv(&argv(&["a", "b;", "c"])),
        vec![argv(&["a", "b"]), argv(&["c"])]
    );
    assert_eq!(split_argv(&argv(&["a", "b\\;"])), vec![argv(&["a", "b;"])]);
    assert_eq!(split_argv(&argv(&["a", "\\;"])), vec![argv(&["a", ";"])]);
    assert_eq!(split_argv(&argv(&["a", ";;"])), vec![argv(&["a", ";"])]);
    assert_eq!(split_argv(&argv(&["a", "x;y"])), vec![argv(&["a", "x;y"])]);
    assert_eq!(split_argv(&argv(&["a", ""])), vec![argv(&["a", ""])]);
    // Empty commands do nothing in tmux and are dropped.
    assert_eq!(split_argv(&argv(&[";", ";", "a", ";"])), vec![argv(&["a"])]);
    assert!(split_argv(&[]).is_empty());
    // Braces are not special on a command line.
    assert_eq!(
        split_argv(&argv(&["bind", "x", "{", "a", "}"])),
        vec![argv(&["bind", "x", "{", "a", "}"])]
    );
}

#[test]
fn split_args_passes_blocks_through() {
    let block = Arg::Commands(vec![Command {
        argv: vec![Arg::from("ls")],
        line: 1,
    }]);
    let args = vec![
        Arg::from("bind"),
        Arg::from("x"),
        Arg::from("if;"),
        Arg::from("true"),
        block.clone(),
        Arg::from(";"),
    ];
    assert_eq!(
        split_args(&args),
        vec![
            vec![Arg::from("bind"), Arg::from("x"), Arg::from("if")],
            vec![Arg::from("true"), block],
        ]
    );
}

#[test]
fn parse_basics() {
    assert_eq!(
        parse_simple("new -d -s 'a b' \"c\\td\" e\\ f ; ls\n# c\nneww"),
        vec![
            argv(&["new", "-d", "-s", "a b", "c\td", "e f"]),
            argv(&["ls"]),
            argv(&["neww"]),
        ]
    );
    assert!(parse_simple("").is_empty());
    assert!(parse_simple("\n \n# x\n").is_empty());
    assert_eq!(
        parse_simple("a ~/x ~"),
        vec![argv(&["a", "/home/u/x", "/home/u"])]
    );
}

#[test]
fn parse_blocks() {
    let parsed = parse_text(
        "bind x {\n  display a\n  display b ; display c\n} y",
        &no_env,
        None,
        &format_true,
    )
    .unwrap();
    assert_eq!(parsed.commands.len(), 1);
    let cmd = &parsed.commands[0];
    assert_eq!(cmd.name(), Some("bind"));
    assert_eq!(cmd.line, 4);
    let block = cmd.argv[2].commands().expect("block");
    let lines: Vec<(Vec<&str>, usize)> = block
        .iter()
        .map(|c| (c.argv.iter().map(|a| a.as_str().unwrap()).collect(), c.line))
        .collect();
    assert_eq!(
        lines,
        vec![
            (vec!["display", "a"], 2),
            (vec!["display", "b"], 3),
            (vec!["display", "c"], 3)
        ]
    );
    assert_eq!(cmd.argv[3], Arg::from("y"));
}

#[test]
fn parse_assignments_and_environment() {
    let env = |n: &str| (n == "A").then(|| s("outer"));
    let parsed = parse_text(
        "r $A\nA=inner\nr $A ${A}x\n%hidden B=h\nr \"$B\"",
        &env,
        None,
        &format_true,
    )
    .unwrap();
    let got: Vec<Vec<&str>> = parsed
        .commands
        .iter()
        .map(|c| c.argv.iter().map(|a| a.as_str().unwrap()).collect())
        .collect();
    assert_eq!(
        got,
        vec![
            vec!["r", "outer"],
            vec!["r", "inner", "innerx"],
            vec!["r", "h"]
        ]
    );
    let a: Vec<(&str, &str, bool)> = parsed
        .assignments
        .iter()
        .map(|a| (a.name.as_str(), a.value.as_str(), a.hidden))
        .collect();
    assert_eq!(a, vec![("A", "inner", false), ("B", "h", true)]);
}

#[test]
fn parse_only_makes_no_assignments() {
    let input = ParseInput {
        file: None,
        line: 1,
        env: &no_env,
        home: None,
        user_home: None,
        cond: &format_true,
        parse_only: true,
    };
    let parsed = parse("A=1\nr x$A", &input).unwrap();
    assert!(parsed.assignments.is_empty());
    assert_eq!(parsed.commands[0].argv[1], Arg::from("x"));
}

#[test]
fn parse_conditions_use_the_callback() {
    let seen = RefCell::new(Vec::new());
    let cond = |f: &str| {
        seen.borrow_mut().push(f.to_string());
        f == "#{yes}"
    };
    let parsed = parse_text(
        "%if #{no}\nr a\n%elif '#{yes}'\nr b\n%else\nr c\n%endif",
        &no_env,
        None,
        &cond,
    )
    .unwrap();
    assert_eq!(parsed.commands.len(), 1);
    assert_eq!(parsed.commands[0].argv[1], Arg::from("b"));
    assert_eq!(*seen.borrow(), vec![s("#{no}"), s("#{yes}")]);
}

#[test]
fn parse_errors_display_like_tmux() {
    let input = ParseInput {
        file: Some("/etc/zp.conf"),
        line: 1,
        env: &no_env,
        home: None,
        user_home: None,
        cond: &format_true,
        parse_only: false,
    };
    let err = parse("A=1\nr a\nr 'b\nc' }", &input).unwrap_err();
    assert_eq!(err.line, 3);
    assert_eq!(err.message, "syntax error");
    assert_eq!(err.to_string(), "/etc/zp.conf:3: syntax error");
    assert_eq!(err.assignments.len(), 1);

    let err = parse_text("r \\9\\4", &no_env, None, &format_true).unwrap_err();
    assert_eq!(err.to_string(), "invalid octal escape");

    // Without a home directory, ~ fails like an unknown user.
    let err = parse_text("r ~", &no_env, None, &format_true).unwrap_err();
    assert_eq!(err.to_string(), "syntax error");

    // A later starting line (tmux passes the calling command's line to nested parses).
    let input = ParseInput { line: 7, ..input };
    let err = parse("\n\nr {", &input).unwrap_err();
    assert_eq!(err.to_string(), "/etc/zp.conf:9: syntax error");

    assert_eq!(
        format_error(Some("f"), 2, "unknown command: x"),
        "f:2: unknown command: x"
    );
    assert_eq!(
        format_error(None, 2, "unknown command: x"),
        "unknown command: x"
    );
}

#[test]
fn parse_args_rules() {
    let spec = ArgSpec::new("AdDEPs:c:e:F:n:t:x:y:X", 0, None);
    let a = parse_args(
        &spec,
        &argv(&[
            "-dP", "-sname", "-e", "A=1", "-eB=2", "-dd", "cmd", "-x", "1",
        ]),
    )
    .unwrap();
    assert!(a.has('d') && a.has('P') && !a.has('A'));
    assert_eq!(a.count('d'), 3);
    assert_eq!(a.count('e'), 2);
    assert_eq!(a.get('s'), Some("name"));
    assert_eq!(a.values('e'), &[s("A=1"), s("B=2")]);
    assert_eq!(a.get('e'), Some("B=2"));
    assert_eq!(a.get('x'), None);
    assert_eq!(a.values('x'), &[] as &[String]);
    assert_eq!(a.flags().collect::<String>(), "Pdes");
    assert_eq!(
        a.positional(),
        &[Arg::from("cmd"), Arg::from("-x"), Arg::from("1")]
    );

    // A value is taken whatever it looks like; `--` ends flags; `-` is positional.
    let a = parse_args(&spec, &argv(&["-s", "-d", "--", "-A"])).unwrap();
    assert_eq!(a.get('s'), Some("-d"));
    assert!(!a.has('d') && !a.has('A'));
    assert_eq!(a.string(0), Some("-A"));
    let a = parse_args(&spec, &argv(&["-", "-d"])).unwrap();
    assert_eq!(a.positional(), &[Arg::from("-"), Arg::from("-d")]);

    // A value flag at the end has no value but is present; an earlier value stays.
    let a = parse_args(&spec, &argv(&["-s", "x", "-ds"])).unwrap();
    assert_eq!(a.count('s'), 2);
    assert_eq!(a.get('s'), Some("x"));

    let err = |spec: &ArgSpec, v: &[&str]| parse_args(spec, &argv(v)).unwrap_err();
    assert_eq!(err(&spec, &["-dz"]), ArgError::UnknownFlag('z'));
    assert_eq!(err(&spec, &["-?"]), ArgError::Usage);
    assert_eq!(err(&spec, &["-d-"]), ArgError::InvalidFlag(b'-'));
    assert_eq!(err(&spec, &["-é"]), ArgError::InvalidFlag(0xc3));
    let one = ArgSpec::new("t:", 1, Some(1));
    assert_eq!(err(&one, &[]), ArgError::TooFew(1));
    assert_eq!(err(&one, &["a", "b"]), ArgError::TooMany(1));
    assert_eq!(
        err(&one, &["a", "b"]).message("rename-window", "[-t target-window] new-name"),
        "command rename-window: too many arguments (need at most 1)"
    );
    assert_eq!(
        ArgError::Usage.message("kill-server", ""),
        "usage: kill-server "
    );
    assert_eq!(
        ArgError::InvalidFlag(0xc3).to_string(),
        "invalid flag -\u{fffd}"
    );
}

#[test]
fn parse_args_with_blocks() {
    let block = Arg::Commands(Vec::new());
    let if_shell = ArgSpec::new("bFt:", 2, Some(3)).with_commands(|i, _| i == 1 || i == 2);
    let a = parse_arg_values(
        &if_shell,
        &[
            Arg::from("-F"),
            Arg::from("1"),
            block.clone(),
            Arg::from("x"),
        ],
    )
    .unwrap();
    assert_eq!(a.positional()[1], block);
    assert_eq!(a.string(1), None);
    assert_eq!(
        parse_arg_values(&if_shell, &[block.clone(), Arg::from("x")]).unwrap_err(),
        ArgError::NotString(1)
    );
    assert_eq!(
        parse_arg_values(&if_shell, &[Arg::from("-t"), block.clone()]).unwrap_err(),
        ArgError::FlagNotString('t')
    );
    // A block ends the flags.
    let a = parse_arg_values(&if_shell, &[Arg::from("x"), block.clone(), Arg::from("-F")]).unwrap();
    assert!(!a.has('F'));
    assert_eq!(
        ArgError::NotString(4).to_string(),
        "argument 4 must be \"string\""
    );
    assert_eq!(
        ArgError::FlagNotString('s').to_string(),
        "-s argument must be a string"
    );
}
