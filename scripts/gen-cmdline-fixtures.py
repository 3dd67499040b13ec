#!/usr/bin/env python3
# gen-cmdline-fixtures.py: build tests/fixtures/cmdline/*.json, how tmux 3.3a splits and
# parses commands, recorded from a real tmux.
#
# usage: scripts/gen-cmdline-fixtures.py [--check]
#   --check   compare with the existing fixtures instead of writing them; exit 1 on any
#             difference
#
# Requirements: python3 (stdlib only), tmux 3.3a on PATH (or $TMUX_BIN), its source tree
# in $TMUX_SRC (default /work/tmuxsrc) for the command table, /bin/sh, the C.UTF-8 locale.
#
# How: every case gets its own private tmux server (-L, -f /dev/null), started with a
# chosen environment and HOME and kept alive by a session running `sleep`.  The server has
# a command alias `r` for `new-session -d REC`, where REC is a small recorder script:
# `r ARGS...` starts a pane whose program is REC itself (tmux runs several arguments with
# execvp, so REC sees exactly the arguments tmux parsed), and REC writes them, NUL
# separated, to a file named after its pane number.  Panes are numbered in the order tmux
# runs the commands, so the records come back in that order.
#
# Output (JSON arrays, one object per line):
#   parse.json  {"name", "text", "env", "home", "passwd_home", "users", "conds",
#                "runs", "error", "environ", "hidden"}
#       text is given to `source-file`; env/home are the server's environment and HOME
#       (home "" means HOME is empty and tmux falls back to passwd_home); users maps user
#       names to home directories for ~user; conds maps each %if/%elif format used (and 0
#       and 1) to its truth (tmux's format_true of `display -p FORMAT`); runs lists the arguments of each
#       `r` run, in order; error is {"line", "message"} from tmux's `FILE:LINE: message`
#       (or null); environ/hidden are the ZP* variables of the global environment after
#       the text ran (`show-environment -g` and `-gh`).
#   split.json  {"argv", "runs", "error"}: `tmux ARGV...` as a command line; error is
#       tmux's standard error line, or null.
#   args.json   {"kind": "command", "name", "alias", "flags", "min", "max", "usage",
#                "callback"}: tmux's command table, from the source; then
#               {"kind": "case", "command", "argv", "error", "observe", "observed"}: one
#       command line `COMMAND ARGV...`; error is tmux's message when the arguments were
#       rejected (null when they were accepted, whatever happened next); observe says what
#       was read back afterwards: "session" (the name of the session created),
#       "session-env" (its environment, sorted), "option" (`show -gv @zp`), "environ"
#       (`show-environment -g ZPV`), "display" (the standard output).
#   depth.json  {"name", "head", "open", "middle", "close", "tail", "results"}: the text
#       HEAD + OPEN*n + MIDDLE + CLOSE*n + TAIL; results gives, for the largest n tmux
#       parses and the smallest it rejects with `yacc stack overflow` (found by bisection
#       up to 12000), that error as {"line", "message"} or null.

import argparse
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "cmdline"
TMUX = os.environ.get("TMUX_BIN") or shutil.which("tmux") or "tmux"
TMUX_SRC = Path(os.environ.get("TMUX_SRC", "/work/tmuxsrc"))

RECORDER = r"""#!/bin/sh
n=${TMUX_PANE#%}
for a in "$@"; do printf '%s\000' "$a"; done > "$ZPREC_DIR/$n.tmp"
mv "$ZPREC_DIR/$n.tmp" "$ZPREC_DIR/$n"
"""

# ---------------------------------------------------------------------------------------------
# Cases.

A1022 = "A" * 1022
U1023 = "u" * 1023


def P(name, text, env=None, home="/home/zp", conds=()):
    return {
        "name": name,
        "text": text,
        "env": {"ZPA": "va"} if env is None else env,
        "home": home,
        "conds": list(conds),
    }


PARSE_CASES = [
    # Words, separators, comments.
    P("words", "r a b   c\td"),
    P("empty text", ""),
    P("blank lines", "   \n\n\t\n"),
    P("comment only", "# nothing here"),
    P("comments", "# full line\nr a # trailing\nr b#not-a-comment c #x"),
    P("semicolons", "r a; r b ;r c;r d"),
    P("double semicolon", "r a ;; r b"),
    P("trailing semicolon", "r a ;\nr b ;"),
    P("leading semicolon", "; r a"),
    P("escaped semicolon", "r a\\;b c\\; ; r d"),
    P("quoted semicolons", "r \";\" ';' x"),
    P("command then assignment drops command", "r a ; ZPX=2\nr b"),
    P("assignment in the middle", "r a ; ZPX=2 ; r c\nr b"),
    P("carriage return", "r a\r\nr b"),
    P("brace ends a word", "r a{b} c"),
    P("close brace alone", "r a }b"),
    P("quoted command name", "\"r\" x"),
    # Quotes.
    P("single quotes", "r 'a b' 'x\\ny' '$ZPA' '~' 'a\"b' '\\t' ''"),
    P(
        "double quotes",
        "r \"a b\" \"a'b\" \"\\\"q\\\"\" \"\\\\\" \"\\$ZPA\" \"t\\tx\" \"n\\nx\" \"e\\e[\" \"s\\sx\" \"\"",
    ),
    P("adjacent quotes", "r a'b'\"c\"d 'x'y\"\""),
    P("unterminated double quote", "r \"abc\nr d"),
    P("unterminated single quote", "r 'abc\n  # comment\n  #{x}\nr d'"),
    P("quoted newlines and # lines", "r \"#{a}\n#{b}\n#,x\n#:y\n#}z\n##w\n#x\nq\""),
    P("quoted newline keeps no blanks", "r \"a\n   \t b\" c"),
    P("quoted newline is not counted", "r \"a\n   # comm\n  b\"\nzpbad"),
    # Escapes.
    P("escapes outside quotes", "r \\a\\b\\f\\s\\v\\r\\n\\t\\q\\\"\\'\\$\\~\\\\ \\ x"),
    P("escapes in single quotes are literal", "r '\\n' \"\\n\" '\\''"),
    P("octal", "r \\101\\102 \"\\033[1m\" \\001 \\377 \\300\\251"),
    P("octal nul ends the argument", "r \"a\\000b\" c"),
    P("octal digit 8", "r \\8 \\9"),
    P("octal bad second digit", "r \\18"),
    P("octal bad first digit", "r \\4"),
    P("octal short at end", "r \\01"),
    P("unicode", "r \\u00e9 \"\\u20ac\" \"\\U0001F600\" \"\\U0010ffff\" \\u0041\\u00C9"),
    P("unicode past U+10FFFF", "r \"\\U00110000\" x"),
    P("unicode six bytes", "r \"\\U7fffffff\""),
    P("unicode nul", "r \"\\u0000x\" y"),
    P("unicode surrogate", "r \"\\ud800\""),
    P("unicode surrogate U", "r \"\\U0000dfff\""),
    P("unicode too large", "r \"\\U80000000\""),
    P("unicode bad digit", "r \"\\u12g4\""),
    P("unicode short", "r \"\\u12\""),
    P("unicode at end", "r \\u00"),
    P("unicode newline", "r \"\\u0\n0\""),
    P("backslash at end", "r a\\"),
    # Line continuation.
    P("continuation", "r a \\\n b\nzpbad x \\\n y"),
    P("continuation in quotes", "r 'a\\\nb' \"c\\\nd\" e\\\nf"),
    P("two backslashes then newline", "r a\\\\\nr b"),
    P("three backslashes then newline", "r \\\\\\\nb"),
    P("continuation in a comment", "r # comment \\\nr continued\nr after"),
    # Home directories.
    P("tilde", "r ~ ~/x a~ \"~\" '~' \"a\"~ \"\"~ x~ \"~\"a ~\"/x\" a\"~\""),
    P("tilde other user", "r ~root/x ~root"),
    P("tilde unknown user", "r ~zpnosuchuser"),
    P("tilde name stops at quote", "r ~'root'"),
    P("tilde with semicolon", "r ~;r b"),
    P("tilde without HOME", "r ~ ~/y", home=""),
    P("tilde after HOME assignment", "HOME=/zp/h\nr ~/x"),
    P("user name too long", "r ~" + U1023),
    # Variables.
    P("variables", "r $ZPA ${ZPA} \"$ZPA\" '$ZPA' $1 $ ${ZPA}x $ZPA-x $ZPNONE. a$ZPA"),
    P("variables joined", "r \"$ZPA$ZPA\" \"${ZPA}${ZPNONE}x\" $ZPA\"$ZPA\""),
    P("variable braces allow digits first", "r ${1ZP}x ${_ZP} ${}y", env={"ZPA": "va", "1ZP": "one", "_ZP": "under"}),
    P("variable with bad character", "r ${ZP-A}"),
    P("variable unterminated", "r ${ZPA"),
    P("dollar at end", "r $"),
    P("variable name too long", "r ${" + A1022 + "A}"),
    P("variable name at limit", "r x${" + A1022 + "}y"),
    P("variable value with specials", "r $ZPS \"$ZPS\"", env={"ZPS": "a b;c 'd' $ZPA"}),
    # Assignments.
    P("assignment then use", "ZPA=hello\nr $ZPA"),
    P("assignment before command", "ZPA=hello r $ZPA"),
    P("quoted assignment", "\"ZPA=2\" r $ZPA"),
    P("assignment with quotes inside", "ZP'A'=1\nr $ZPA"),
    P("assignment as argument", "r ZPA=3 $ZPA"),
    P("digit first is not an assignment", "1ZP=3"),
    P("empty value", "ZPQ= \nr \"$ZPQ\""),
    P("value with equals", "ZPX=a=b\nr $ZPX"),
    P("two assignments", "ZPX=1 ZPY=2\n"),
    P("assignment before error", "ZPX=1\n%foo\n"),
    P("hidden", "%hidden ZPH=secret\nr $ZPH"),
    P("hidden replaces visible", "ZPV=visible\n%hidden ZPV=h"),
    P("hidden alone", "%hidden"),
    P("hidden word", "%hidden r"),
    P("hidden then command", "%hidden ZPH=1 r"),
    # %if.
    P("if else", "%if 1\nr yes\n%else\nr no\n%endif"),
    P("if false else", "%if 0\nr yes\n%else\nr no\n%endif"),
    P("if format", "%if #{==:a b,a b}\nr yes\n%else\nr no\n%endif", conds=["#{==:a b,a b}"]),
    P("if nested format", "%if #{==:#{ZPA},}\nr yes\n%endif", conds=["#{==:#{ZPA},}"]),
    P("if quoted format", "%if \"#{==:a,b}\"\nr yes\n%elif \"1\"\nr elif\n%endif", conds=["#{==:a,b}"]),
    P("if variable", "%if \"$ZPA\"\nr yes\n%endif\n%if '$ZPA'\nr single\n%endif", conds=["va", "$ZPA"]),
    P("if empty", "%if ''\nr yes\n%else\nr no\n%endif", conds=[""]),
    P("elif chain", "%if 0\nr a\n%elif 0\nr b\n%elif 1\nr c\n%elif 1\nr d\n%else\nr e\n%endif"),
    P("nested if", "%if 1\n%if 0\nr a\n%else\nr b\n%endif\nr c\n%endif\nr d"),
    P("if multiple lines", "%if 1\nr a\n\n# comment\nr b ; r c\n%endif"),
    P("assignment in inner true if inside false if", "%if 0\n%if 1\nZPX=1\n%endif\n%endif"),
    P("assignment in false if", "%if 0\nZPX=1\n%hidden ZPH=1\n%endif"),
    P("assignment in elif after taken if", "%if 1\nZPA=1\n%elif 1\nZPB=1\n%endif"),
    P("assignment in else after false elif", "%if 1\nr a\n%elif 0\nr b\n%else\nZPC=1\nr c\n%endif"),
    P("inline if", "%if 1 r inline %else r other %endif ; r after"),
    P("inline elif", "%if 0 r inline %elif 1 r two %else r other %endif"),
    P("inline if after command", "r before ; %if 1 r in %endif"),
    P("inline if false", "r before ; %if 0 r in %endif ; r after"),
    P("inline nested if", "%if 1 %if 0 r a %else r b %endif %endif"),
    P("inline if with semicolons", "%if 1 r a ; r b ; %endif"),
    P("comment after endif", "%if 1\nr a\n%endif # comment\nr b"),
    P("format after endif", "%if 1\nr a\n%endif #{x}\nr b"),
    P("empty if", "%if 1\n%endif\nr a"),
    P("if without condition", "%if\nr a\n%endif"),
    P("unterminated if", "%if 1\nr a\n"),
    P("endif alone", "%endif"),
    P("else alone", "%else"),
    P("elif after else", "%if 0\nr a\n%else\nr b\n%elif 1\nr c\n%endif"),
    P("inline if without commands", "%if 1 %endif"),
    P("unterminated format", "%if #{==:a,\nr a\n%endif"),
    P("assignment as condition", "%if ZPX=1\nr a\n%endif"),
    P("unknown keyword", "%foo"),
    P("percent word argument", "r %abc"),
    P("percent tokens", "r %1 %% % %12%"),
    P("percent word with semicolon", "r %1;"),
    # Blocks.
    P("block if", "if-shell -F 1 { r a ; r b } { r c }"),
    P("block else", "if-shell -F 0 { r a } { r c\n r d }"),
    P("string command", "if -F 1 \"r \\$ZPA\" ; r x"),
    P("block expands at parse time", "if -F 1 { r $ZPA }\nif -F 1 \"r \\$ZPA\"\nZPA=changed"),
    P("nested blocks", "if -F 1 { if -F 0 { r no } { r deep ; if -F 1 { r deeper } } }"),
    P("block unknown command line", "if -F 1 {\n  r a\n  zpbad\n}\n"),
    P("block then unknown command", "if -F 1 {\n r a\n} ; zpbad"),
    P("block error line", "if -F 1 {\n r a\n r b\n} x y"),
    P("unterminated block", "r a\nif -F 1 {\n  r a\n  r b\n\n"),
    P("empty block", "if -F 1 {} ; if -F 1 { } ; r x"),
    P("block starting with semicolon", "if -F 1 { ; }"),
    P("block over lines", "if -F 1 {\n}\nr b"),
    P("block with if", "if -F 1 {\n%if 1\nr a\n%else\nr b\n%endif\n}"),
    P("block with comments", "if -F 1 { # comment\n r a # more\n}"),
    P("open brace alone", "r {"),
    P("block as command", "{ r a }"),
    P("block as flag value", "new-session -d -s { r a }"),
    P("block where string required", "display-message { r a }"),
    P("third block", "if-shell -F 1 { r a } { r b } { r c }"),
    P("block in alias arguments", "r a { r b }"),
    P("unknown command with block", "zpbad { r a }"),
    P("unknown command in block", "r x { zpbad2 }"),
    # Line numbers.
    P("comment moves the line", "zpbad # c\n"),
    P("line after command and comment", "r a # c\nzpbad"),
    P("blank lines count", "\n\n\nzpbad"),
    P("unknown command", "zpbad"),
]

SPLIT_CASES = [
    ["r", "a", "b"],
    ["r", "a", ";", "r", "b"],
    ["r", "a", "b;", "r", "c"],
    ["r", "a", "b\\;", "c"],
    ["r", "a", "\\;", "b"],
    ["r", "a", "\\\\;"],
    ["r", "a", ";", ";", "r", "b"],
    ["r", "a", "b;", ";", "r", "c"],
    ["r", "", "x;"],
    ["r", "a;b"],
    ["r", ";x"],
    ["r", "a", ";;"],
    ["r", "a", "b;;", "r", "c"],
    ["r", "{", "x", "}"],
    ["r", "$ZPA", "~", "'q'", "\"d\"", "#x"],
    [";", "r", "a"],
    ["zpbad", ";", "r", "a"],
    ["r", "a", ";", "zpbad;"],
    ["r", "a", ";", "b;;", "r", "c"],
]


def D(name, open_, head="", middle="", close="", tail=""):
    return {"name": name, "head": head, "open": open_, "middle": middle, "close": close, "tail": tail}


# Nesting and length limits: tmux's parser stack holds 9999 symbols.
DEPTH_CASES = [
    D("arguments", " a", head="r"),
    D("arguments on line 2", " a", head="r x\nr"),
    D("arguments after semicolons", " a", head="r x ; r y ; r"),
    D("arguments after an assignment", " a", head="ZPX=1 r"),
    D("arguments in a block", " a", head="if -F 1 { r", tail=" }"),
    D("arguments in a block over lines", " a", head="if -F 1 {\nr x\nr", tail="\n}"),
    D("arguments in an if", " a", head="%if 1\nr", tail="\n%endif"),
    D("arguments in an inline if", " a", head="%if 1 r", tail=" %endif"),
    D("arguments in an elif chain", " a", head="%if 0\nr\n%elif 0\nr\n%elif 1\nr", tail="\n%endif"),
    D("arguments in an else", " a", head="%if 0\nr\n%elif 0\nr\n%else\nr", tail="\n%endif"),
    D("arguments in an inline else", " a", head="%if 0 r %elif 0 r %else r", tail=" %endif"),
    D("blocks", "{ r ", head="r ", close="}"),
    D("blocks over lines", "{\nr x\nr ", head="r ", close="\n}"),
    D("ifs", "%if 1\n", middle="r a\n", close="%endif\n"),
    D("ifs after a line", "%if 1\n", head="r x\n", middle="r a\n", close="%endif\n"),
    D("ifs with hidden", "%if 1\n", middle="%hidden ZPX=1\n", close="%endif\n"),
    D("ifs with assignment", "%if 1\n", middle="ZPX=1\n", close="%endif\n"),
    D("inline ifs", "%if 1 ", middle="r a ", close="%endif "),
    D("inline ifs after semicolon", "%if 1 ", head="r x ; ", middle="r a ", close="%endif "),
    D("elifs", "%elif 0\nr a\n", head="%if 0\nr a\n", tail="%endif"),
    D("elifs then else", "%elif 0\nr a\n", head="%if 0\nr a\n", tail="%else\nr a\n%endif"),
    D("inline elifs", "%elif 0 r a ", head="%if 0 r a ", tail="%endif"),
    D("semicolons", " ; r a", head="r a"),
    D("lines", "r a\n"),
]


def C(command, *argv, observe=None):
    return {"command": command, "argv": list(argv), "observe": observe}


ARG_CASES = [
    C("new-session", "-z"),
    C("new-session", "-dz"),
    C("new-window", "-?"),
    C("new-window", "-d?"),
    C("new-window", "-,"),
    C("new-window", "-\u00e9"),
    C("new-window", "-:"),
    C("kill-session", "-t", "keep", "extra"),
    C("if-shell", "-F", "1"),
    C("if-shell", "-F", "1", "a", "b", "c", "d"),
    C("has-session", "-t"),
    C("list-sessions", "--"),
    C("list-sessions", "--", "x"),
    C("list-sessions", "-F"),
    C("list-sessions", "-F", "-z"),
    C("display-message", "-p", "--", "-x", observe="display"),
    C("display-message", "-p", "-", observe="display"),
    C("display-message", "-p", "a", "-z"),
    C("display-message", "-p", "a", "b"),
    C("new-session", "-d", "-s", "ZPN1", observe="session"),
    C("new-session", "-dsZPN2", observe="session"),
    C("new-session", "-ds", "ZPN3", observe="session"),
    C("new-session", "-d", "-s", "ZPN4", "-s", "ZPN5", observe="session"),
    C("new-session", "-s", "-d", "-d", observe="session"),
    C("new-session", "-d", "-s", observe="session"),
    C("new-session", "-d", "-s", "ZPN6", "-e", "ZPA=1", "-eZPB=2", "-e", "ZPC=3", observe="session-env"),
    C("new-session", "-d", "-s", "ZPN7", "--", "sleep 1", observe="session"),
    C("set-option", "-g", "@zp", "-x", observe="option"),
    C("set-option", "-g", "@zp", "-", observe="option"),
    C("set-option", "-g", "--", "@zp", "v", observe="option"),
    C("set-option", "-gq", "@zp", "v2", observe="option"),
    C("set-option", "-g", "@zp", "a", "b"),
    C("set-option", "-g"),
    C("set-environment", "-g", "ZPV", "-u", observe="environ"),
    C("set-environment", "-g", "ZPV", "--", observe="environ"),
    C("set-environment", "-gr", "ZPV", "x"),
]

# ---------------------------------------------------------------------------------------------
# Running tmux.


class Runner:
    def __init__(self):
        self.work = Path(tempfile.mkdtemp(prefix="zpcmd"))
        self.rec = self.work / "rec"
        self.rec.write_text(RECORDER)
        self.rec.chmod(0o755)
        self.n = 0

    def close(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def env(self, extra, home, recdir):
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("TMUX") and not k.startswith("ZP")
        }
        env["LC_ALL"] = "C.UTF-8"
        env["LANG"] = "C.UTF-8"
        env["HOME"] = home
        env.update(extra)
        env["ZPREC_DIR"] = str(recdir)
        return env

    def start(self, extra, home, alias=True):
        self.n += 1
        sock = f"zpcmd{os.getpid()}_{self.n}"
        d = self.work / f"c{self.n}"
        d.mkdir()
        env = self.env(extra, home, d)
        t = [TMUX, "-L", sock, "-f", "/dev/null"]
        setup = ["new-session", "-d", "-s", "keep", "sleep 1000"]
        if alias:
            setup += [";", "set", "-s", "command-alias[100]", f"r=new-session -d {self.rec}"]
        subprocess.run(
            t + setup,
            env=env,
            check=True,
            stdin=subprocess.DEVNULL,
        )
        return t, env, d

    def tmux(self, t, env, *args):
        return subprocess.run(
            t + list(args), env=env, capture_output=True, stdin=subprocess.DEVNULL
        )

    def settle(self, t, env, keep=("keep",)):
        for _ in range(500):
            out = self.tmux(t, env, "list-sessions", "-F", "#{session_name}").stdout.split()
            if sorted(x.decode() for x in out) == sorted(keep):
                return
            time.sleep(0.01)
        raise RuntimeError("recorder panes did not finish")

    def records(self, d):
        runs = []
        for i in sorted(int(x.name) for x in d.iterdir() if x.name.isdigit()):
            data = (d / str(i)).read_bytes()
            runs.append([a.decode(errors="replace") for a in data.split(b"\0")[:-1]])
        return runs

    def environ(self, t, env):
        def zp(flags):
            out = self.tmux(t, env, "show-environment", flags).stdout.decode(errors="replace")
            vals = {}
            for line in out.splitlines():
                name, _, value = line.partition("=")
                if name.startswith("ZP") and name != "ZPREC_DIR":
                    vals[name] = value
            return vals

        return zp("-g"), zp("-gh")

    def kill(self, t, env):
        self.tmux(t, env, "kill-server")


def format_true(s):
    return s != "" and s != "0"


def parse_case(r, case):
    t, env, d = r.start(case["env"], case["home"])
    try:
        conds = {}
        literal = ["0", "1"] if "%if" in case["text"] else []
        for f in literal + case["conds"]:
            out = r.tmux(t, env, "display-message", "-p", f).stdout.decode()
            conds[f] = format_true(out.rstrip("\n"))
        path = d / "case.conf"
        path.write_bytes(case["text"].encode())
        p = r.tmux(t, env, "source-file", str(path))
        r.settle(t, env)
        environ, hidden = r.environ(t, env)
    finally:
        r.kill(t, env)
    error = None
    out = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
    if out:
        lines = out.splitlines()
        assert len(lines) == 1, (case["name"], out)
        m = re.fullmatch(re.escape(str(path)) + r":(\d+): (.*)", lines[0], re.S)
        assert m, (case["name"], out)
        error = {"line": int(m.group(1)), "message": m.group(2)}
    assert (p.returncode != 0) == (error is not None), (case["name"], p.returncode, out)
    return {
        "name": case["name"],
        "text": case["text"],
        "env": case["env"],
        "home": case["home"],
        "passwd_home": pwd.getpwuid(os.getuid()).pw_dir,
        "users": {"root": pwd.getpwnam("root").pw_dir},
        "conds": conds,
        "runs": r.records(d),
        "error": error,
        "environ": environ,
        "hidden": hidden,
    }


def split_case(r, argv):
    t, env, d = r.start({"ZPA": "va"}, "/home/zp")
    try:
        p = r.tmux(t, env, *argv)
        r.settle(t, env)
    finally:
        r.kill(t, env)
    err = p.stderr.decode(errors="replace").strip("\n") or None
    assert (p.returncode != 0) == (err is not None), (argv, p.returncode, err)
    return {"argv": argv, "runs": r.records(d), "error": err}


PARSE_ERROR = re.compile(r"(usage: .*|command [a-z-]+: .*)")


def arg_case(r, case):
    t, env, d = r.start({}, "/home/zp")
    try:
        before = set(r.tmux(t, env, "list-sessions", "-F", "#{session_name}").stdout.decode().split())
        p = r.tmux(t, env, case["command"], *case["argv"])
        err = p.stderr.decode(errors="replace").strip("\n")
        observed = None
        kind = case["observe"]
        if kind == "display":
            observed = p.stdout.decode(errors="replace").rstrip("\n")
        elif kind in ("session", "session-env"):
            after = r.tmux(t, env, "list-sessions", "-F", "#{session_name}").stdout.decode().split()
            new = [s for s in after if s not in before]
            assert len(new) == 1, (case, new)
            observed = new[0]
            if kind == "session-env":
                out = r.tmux(t, env, "show-environment", "-t", "=" + new[0]).stdout.decode()
                observed = sorted(line for line in out.splitlines() if line.startswith("ZP"))
        elif kind == "option":
            observed = r.tmux(t, env, "show-option", "-gv", "@zp").stdout.decode().rstrip("\n")
        elif kind == "environ":
            out = r.tmux(t, env, "show-environment", "-g", "ZPV").stdout.decode().rstrip("\n")
            observed = out.partition("=")[2]
    finally:
        r.kill(t, env)
    error = err if PARSE_ERROR.fullmatch(err) else None
    assert error is not None or kind is None or p.returncode == 0, (case, err)
    return {
        "kind": "case",
        "command": case["command"],
        "argv": case["argv"],
        "error": error,
        "observe": kind,
        "observed": observed,
    }


def probe(r, text):
    """tmux's error for source-file TEXT, as (line, message), or None. Without the alias,
    `r` is an ambiguous command: the text is parsed in full but nothing runs."""
    t, env, d = r.start({}, "/home/zp", alias=False)
    try:
        path = d / "case.conf"
        path.write_bytes(text.encode())
        p = r.tmux(t, env, "source-file", str(path))
    finally:
        r.kill(t, env)
    out = (p.stdout + p.stderr).decode(errors="replace").strip("\n")
    if not out:
        return None
    m = re.fullmatch(re.escape(str(path)) + r":(\d+): (.*)", out, re.S)
    assert m, out
    return {"line": int(m.group(1)), "message": m.group(2)}


DEPTH_LIMIT = 12000


def depth_text(case, n):
    return case["head"] + case["open"] * n + case["middle"] + case["close"] * n + case["tail"]


def depth_case(r, case):
    def overflow(n):
        e = probe(r, depth_text(case, n))
        return e if e is not None and e["message"] == "yacc stack overflow" else None

    results = []
    if overflow(DEPTH_LIMIT) is None:
        results.append({"n": DEPTH_LIMIT, "overflow": None})
    else:
        lo, hi = 1, DEPTH_LIMIT
        assert overflow(lo) is None, case["name"]
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if overflow(mid) is None:
                lo = mid
            else:
                hi = mid
        results.append({"n": lo, "overflow": None})
        results.append({"n": hi, "overflow": overflow(hi)})
    return dict(case, results=results)


# ---------------------------------------------------------------------------------------------
# tmux's command table, from its source.


def command_table():
    macros = {}
    for m in re.finditer(r'#define\s+(CMD_\w+_USAGE)\s+"([^"]*)"', (TMUX_SRC / "tmux.h").read_text()):
        macros[m.group(1)] = m.group(2)
    table = []
    for path in sorted(TMUX_SRC.glob("cmd-*.c")):
        src = path.read_text()
        for m in re.finditer(r"const struct cmd_entry \w+ = \{(.*?)\n\};", src, re.S):
            body = m.group(1)
            name = re.search(r'\.name = "([^"]+)"', body).group(1)
            alias = re.search(r"\.alias = (NULL|\"[^\"]*\")", body).group(1)
            args = re.search(r'\.args = \{ "([^"]*)", (-?\d+), (-?\d+), (\w+) \}', body)
            usage_src = re.search(r"\.usage = (.*?),\n", body, re.S).group(1)
            usage = ""
            for tok in re.finditer(r'"((?:[^"\\]|\\.)*)"|(CMD_\w+)', usage_src):
                usage += tok.group(1) if tok.group(1) is not None else macros[tok.group(2)]
            table.append(
                {
                    "kind": "command",
                    "name": name,
                    "alias": None if alias == "NULL" else alias.strip('"'),
                    "flags": args.group(1),
                    "min": int(args.group(2)),
                    "max": None if args.group(3) == "-1" else int(args.group(3)),
                    "usage": usage,
                    "callback": None if args.group(4) == "NULL" else args.group(4),
                }
            )
    table.sort(key=lambda e: e["name"])
    return table


# ---------------------------------------------------------------------------------------------


def dump(entries):
    return "[\n" + ",\n".join(json.dumps(e, ensure_ascii=False) for e in entries) + "\n]\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    opts = ap.parse_args()

    version = subprocess.run([TMUX, "-V"], capture_output=True, text=True).stdout.strip()
    if version != "tmux 3.3a":
        sys.exit(f"need tmux 3.3a, found {version!r}")

    r = Runner()
    try:
        outputs = {
            "parse.json": dump([parse_case(r, c) for c in PARSE_CASES]),
            "split.json": dump([split_case(r, a) for a in SPLIT_CASES]),
            "args.json": dump(command_table() + [arg_case(r, c) for c in ARG_CASES]),
            "depth.json": dump([depth_case(r, c) for c in DEPTH_CASES]),
        }
    finally:
        r.close()

    failed = False
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in outputs.items():
        path = OUT / name
        if opts.check:
            old = path.read_text() if path.exists() else ""
            if old != text:
                print(f"{path}: differs from tmux", file=sys.stderr)
                failed = True
        else:
            path.write_text(text)
            print(f"wrote {path} ({text.count(chr(10)) - 2} entries)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
