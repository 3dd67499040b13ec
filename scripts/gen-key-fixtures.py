#!/usr/bin/env python3
# gen-key-fixtures.py: build tests/fixtures/keys.json, the bytes tmux 3.3a's
# send-keys writes to a pane's program for each key argument.
#
# usage: scripts/gen-key-fixtures.py [--check] [--regress FILE]
#   --check        compare with the existing tests/fixtures/keys.json instead
#                  of writing it; exit 1 on any difference
#   --regress FILE also compare with the expectations of tmux's regress script
#                  input-keys.sh (cat -v notation) and list the differences
#
# Requirements: python3 (stdlib only), tmux 3.3a on PATH (or $TMUX_BIN), the
# C.UTF-8 locale.
#
# How: one private tmux server (-L, -f /dev/null), one pane per mode.  Each pane
# runs a small recorder that first prints the escape sequences selecting its
# modes (DECCKM \e[?1h, DECKPAM \e=, modifyOtherKeys \e[>4;1m), then puts its
# terminal in raw mode and appends every byte it reads to a file.  Keys are sent
# in batches of send-keys commands, each key followed by `send-keys -H ff fe 5a
# fe ff` as a delimiter: no key produces 0xfe (it never occurs in UTF-8 and -H
# sends one byte), so the first delimiter after a key's bytes ends them.
#
# Output: a JSON array, one object per line:
#   {"mode": MODE, "key": ARG, "bytes": HEX}
#   {"mode": MODE, "flag": "-l" or "-H", "key": ARG, "bytes": HEX}
# MODE is "normal" or a "+"-joined subset of cursor, keypad, extended (in that
# order); ARG is the argument exactly as send-keys received it; HEX is the
# lowercase hex of every byte written, "" if none.

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "keys.json"
TMUX = os.environ.get("TMUX_BIN") or shutil.which("tmux") or "tmux"
ENV = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
ENV.pop("TMUX", None)
ENV.pop("TMUX_PANE", None)

MODES = {
    "normal": "",
    "cursor": "\033[?1h",
    "keypad": "\033=",
    "cursor+keypad": "\033[?1h\033=",
    "extended": "\033[>4;1m",
    "cursor+keypad+extended": "\033[?1h\033=\033[>4;1m",
}
DELIM = ["ff", "fe", "5a", "fe", "ff"]
DELIM_BYTES = bytes(int(x, 16) for x in DELIM)

RECORDER = r"""
import os, sys, tty
out = open(sys.argv[1], "ab", buffering=0)
os.write(1, sys.argv[2].encode() + b"READY")
tty.setraw(0)
while True:
    d = os.read(0, 65536)
    if not d:
        break
    out.write(d)
"""

NAMED = (
    ["Enter", "Escape", "Tab", "BTab", "Space", "BSpace"]
    + ["F%d" % i for i in range(1, 13)]
    + ["IC", "Insert", "DC", "Delete", "Home", "End", "NPage", "PageDown", "PgDn",
       "PPage", "PageUp", "PgUp", "Up", "Down", "Left", "Right"]
    + ["KP/", "KP*", "KP-", "KP7", "KP8", "KP9", "KP+", "KP4", "KP5", "KP6", "KP1",
       "KP2", "KP3", "KPEnter", "KP0", "KP."]
)
MODS = ["", "C-", "M-", "S-", "C-M-", "C-S-", "M-S-", "C-M-S-"]
# The spellings tmux's regress script input-keys.sh uses, in normal mode.
REGRESS_MODS = ["M-C-", "S-M-", "S-C-", "S-C-M-"]

# Names that are not keys, or are only keys in some spelling.
ODD_NAMES = [
    "F0", "F13", "F20", "F24", "enter", "ENTER", "eNtEr", "bspace", "kpenter", "kp1", "kp.",
    "pgup", "PGDN", "up", "f1", "btab", "space", "tab", "escape", "Any", "any", "ANY", "None",
    "none", "User0", "User999", "User1000", "User5x", "User 5", "User+5", "User-1", "user0",
    "C-User0", "M-User0", "S-User3", "C-Any", "M-Any", "FocusIn", "FocusOut", "PasteStart",
    "PasteEnd", "Mouse", "Unknown", "MouseDown1Pane", "mousedown1pane", "WheelUpStatus",
    "WheelDownBorder", "DoubleClick1Border", "TripleClick11StatusDefault", "MouseMovePane",
    "MouseDragEnd3StatusRight", "SecondClick2StatusLeft", "MouseDown4Pane", "C-MouseDown1Pane",
    "M-WheelUpPane", "KP", "KP10", "KP=", "KP,", "Return", "Esc", "BackSpace", "Del",
    "PageDn", "Ins", "UP", "up ", " Up", "Up ",
]

# Prefix spellings: order, case, repeats and ^.
PREFIX_VARIANTS = [
    "M-C-", "S-C-", "S-M-", "M-S-C-", "S-C-M-", "C-S-M-", "S-M-C-", "M-C-S-", "c-", "m-",
    "s-", "c-m-", "C-m-s-", "C-C-", "M-M-", "S-S-", "^", "^M-", "^S-", "^C-", "^^", "X-",
    "C-X-", "-", "--", "C-", "M-",
]
PREFIX_BASES = ["a", "A", "x", "Up", "F1", "F5", "Home", "KP1", "KPEnter", "Tab", "Enter",
                "Space", "BSpace", "BTab", "Escape", "1", "-", "é", "^", "?", "@", "Left"]

UNICODE = [
    "é", "ü", "ß", "€", "中", "字", "😀", "🇫", "ａ", "\u0301", "e\u0301", "\u00a0", "\u00ad",
    "\u0085", "\u009b", "\u200b", "\u200d", "\ufeff", "\ue000", "\U000f0000", "\U0010fffd",
    "\U0010ffff", "\u0378", "\ufffd", "\uffff", "\u2028", "\U0001f600\U0001f600", "é中",
]
UNICODE_MODS = ["", "C-", "M-", "S-", "C-M-", "C-M-S-", "^"]

HEX_KEYS = [
    "0x0", "0x00", "0x1", "0x1b", "0x1f", "0x20", "0x41", "0x61", "0x7e", "0x7f", "0x80",
    "0x9f", "0xa0", "0xe9", "0xff", "0x100", "0x4e2d", "0x1f600", "0xd800", "0xdfff",
    "0xe000", "0x10ffff", "0x110000", "0x7fffffff", "0xffffffff", "0x100000041", "0x",
    "0xzz", "0x41zz", "0X41", "0x 41", "0x+41", "0x-1", "0x-0", "0x0x41", "0x0X41", "0x0xg",
    "0x00000041", "0xfffffffffffffffffffff", "0x0301", "0x378", "0x85", "0x\t41", "0x 0x41",
    "0x-ffffffbf", "0xD", "0xa", "0x9", "0x3", "0x 7f", "0x 20", "0x1F600",
]

STRINGS = [
    "hello", "Hello World", "C-", "M-", "S-", "C-M-", "C-a-b", "a-b", "--", "-", "C--",
    "M--", "S--", "^", "^^", "^a", "^A", "^[", "^?", "^C-a", "^-a", "C-^", "^M-a", "",
    "ab", "éa", "aé", "Enter Enter", "F1F2", "0", "00", "X-a", "C-x-y", ";", "M-;", "C-;",
    "a;", "{", "}", "#{pane_id}", "$HOME", "'", '"', "\\", "C-\\", "M-\\", "\t", "\x01",
    "\x1b", "\x7f", "\n", "\r", "M-\t", "C-\t", "M-\x1b", "C-\x7f", "M-\x7f", "\x1f",
    "C- ", "M- ", " ", "  ", "a ", " a", "C-a ", "Up Down", "0x41 ", "0x41\n", "x" * 40,
    "Ü", "C-Ü", "ÜÜ", "\x01\x02", "KP1KP2", "C-M", "C-m", "C-[", "C-]", "C-_", "C-@",
    "C-`", "C-~", "C-{", "C-|", "C-}", "C-\"", "C-$", "C-%", "C-&", "C-*", "C-?", "M-?",
]

LITERAL = [
    "C-a", "Enter", "hello", "é😀", "M-x", "\x01", "Up", "0x41", "", " ", "a b", "KP1",
    "\x1b[A", "C-", "^a", "\x7f", "\u0085", "e\u0301", "\ufeff", "\U0010ffff", ";", "M-;",
]

HEX = [
    "41", "0x41", "0X41", " 41", "\t41", "+41", "-0", "-1", "100", "ff", "0", "00", "",
    "zz", "41 ", "0x", "7f", "1b", "fe", "80", "c3", "0x0", "-0x0", "+0", "0ff", "000000ff",
    "1ff", "g", "4 1", "-", "+", "0xfg",
]


def keys_for_mode(mode):
    keys = []
    for base in NAMED:
        for m in MODS:
            keys.append(m + base)
    if mode == "normal":
        for base in NAMED:
            for m in REGRESS_MODS:
                keys.append(m + base)
    if mode in ("normal", "extended"):
        for c in range(0x20, 0x7f):
            for m in ["", "C-", "M-", "S-", "C-M-", "M-C-", "C-S-", "M-S-", "C-M-S-", "^"]:
                keys.append(m + chr(c))
        for m in ["", "C-", "M-", "S-", "C-M-"]:
            for c in range(1, 0x20):
                keys.append(m + chr(c))
            keys.append(m + "\x7f")
        for base in PREFIX_BASES:
            for p in PREFIX_VARIANTS:
                keys.append(p + base)
        for u in UNICODE:
            for m in UNICODE_MODS:
                keys.append(m + u)
        keys += ODD_NAMES + HEX_KEYS + STRINGS
    else:
        for base in ["a", "1", "-", "é"] + ODD_NAMES[:20]:
            for m in ["", "C-", "M-", "S-"]:
                keys.append(m + base)
    out, seen = [], set()
    for k in keys:
        # An argument ending in a backslash and ';' cannot reach send-keys from argv.
        if k.endswith("\\;") or k in seen:
            continue
        seen.add(k)
        out.append(k)
    return out


def cases():
    """(mode, flag, key) triples, in output order."""
    result = []
    for mode in MODES:
        for k in keys_for_mode(mode):
            result.append((mode, None, k))
        if mode in ("normal", "cursor+keypad+extended"):
            for k in LITERAL:
                result.append((mode, "-l", k))
    for k in HEX:
        result.append(("normal", "-H", k))
    return result


def argv_escape(arg):
    # tmux splits commands given as arguments at arguments ending in ';';
    # "\;" at the end stands for a literal ';'.
    if arg.endswith(";"):
        return arg[:-1] + "\\;"
    return arg


class Server:
    def __init__(self):
        self.name = "zpkeys%d" % os.getpid()
        self.argv = [TMUX, "-L", self.name, "-f", "/dev/null"]

    def run(self, *args, check=True):
        p = subprocess.run(self.argv + list(args), env=ENV, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        if check and p.returncode != 0:
            sys.exit("tmux %s failed: %s" % (args[0], p.stderr.decode(errors="replace")))
        return p.stdout.decode(errors="replace")

    def close(self):
        subprocess.run(self.argv + ["kill-server"], env=ENV, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=20)


def wait_for(pred, what, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.02)
    sys.exit("timed out waiting for %s" % what)


def record(server, tmp):
    """Run every case through tmux; returns {(mode, flag, key): bytes}."""
    recorder = tmp / "recorder.py"
    recorder.write_text(RECORDER)
    server.run("new-session", "-d", "-s", "keys", "-x", "80", "-y", "24", "sleep 1000")
    panes = {}
    for i, (mode, seq) in enumerate(MODES.items()):
        log = tmp / ("mode%d.bin" % i)
        log.write_bytes(b"")
        pane = server.run("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "keys",
                          sys.executable, str(recorder), str(log), seq).strip()
        panes[mode] = (pane, log)
    for mode, (pane, _) in panes.items():
        wait_for(lambda: "READY" in server.run("capture-pane", "-p", "-t", pane),
                 "pane for mode %s" % mode)
        want = ("1" if "cursor" in mode else "0", "1" if "keypad" in mode else "0")
        got = tuple(server.run("display", "-p", "-t", pane,
                               "#{keypad_cursor_flag} #{keypad_flag}").split())
        if got != want:
            sys.exit("pane for mode %s has flags %s" % (mode, got))

    all_cases = cases()
    by_mode = {}
    for c in all_cases:
        by_mode.setdefault(c[0], []).append(c)
    results = {}
    for mode, items in by_mode.items():
        pane, log = panes[mode]
        for start in range(0, len(items), 60):
            argv = []
            for (_, flag, key) in items[start:start + 60]:
                argv += ["send-keys", "-t", pane] + ([flag] if flag else [])
                argv += ["--", argv_escape(key), ";"]
                argv += ["send-keys", "-t", pane, "-H"] + DELIM + [";"]
            server.run(*argv[:-1])
        server.run("send-keys", "-t", pane, "-H", "fe", "fe", "fe")

        def done():
            # Every key's bytes end with the delimiter, so only the
            # terminator can end the log with three 0xfe.
            return log.read_bytes().endswith(b"\xfe\xfe\xfe")
        wait_for(done, "bytes of mode %s" % mode, timeout=60)
        data = log.read_bytes()[:-3]
        pos = 0
        for c in items:
            idx = data.find(DELIM_BYTES, pos)
            if idx < 0:
                sys.exit("missing delimiter after %r in mode %s" % (c[2], mode))
            results[c] = data[pos:idx]
            pos = idx + len(DELIM_BYTES)
        if pos != len(data):
            sys.exit("trailing bytes in mode %s: %r" % (mode, data[pos:]))
    # The modes must not have changed while the keys were sent.
    for mode, (pane, _) in panes.items():
        want = ("1" if "cursor" in mode else "0", "1" if "keypad" in mode else "0")
        got = tuple(server.run("display", "-p", "-t", pane,
                               "#{keypad_cursor_flag} #{keypad_flag}").split())
        if got != want:
            sys.exit("pane for mode %s ended with flags %s" % (mode, got))
    return [(c, results[c]) for c in all_cases]


def to_json(entries):
    lines = []
    for (mode, flag, key), data in entries:
        obj = {"mode": mode}
        if flag:
            obj["flag"] = flag
        obj["key"] = key
        obj["bytes"] = data.hex()
        lines.append(json.dumps(obj, ensure_ascii=False))
    return "[\n" + ",\n".join(lines) + "\n]\n"


def cat_v(data):
    """The first line `cat -tv` prints for these bytes (TAB shown as ^I)."""
    out = []
    for b in data.split(b"\n")[0]:
        if b >= 0x80:
            out.append("M-")
            b -= 0x80
        if b < 0x20:
            out.append("^" + chr(b + 0x40))
        elif b == 0x7f:
            out.append("^?")
        else:
            out.append(chr(b))
    return "".join(out)


def regress(entries, path):
    """Compare with input-keys.sh; returns the list of differences."""
    text = Path(path).read_text()
    table = {key: data for ((mode, flag, key), data) in entries if mode == "normal" and not flag}
    expects = []
    for line in text.splitlines():
        if not line.startswith("assert_key "):
            continue
        words = re.findall(r"'([^']*)'|\"((?:[^\"\\]|\\.)*)\"|(--)", line.split("#")[0])
        vals = []
        for sq, dq, sep in words:
            if sep:
                continue
            vals.append(sq if sq or not dq else re.sub(r"\\(.)", r"\1", dq))
        for i in range(0, len(vals) - 1, 2):
            expects.append((vals[i], vals[i + 1]))
    m = re.search(r"assert_extended_key \(\) \{(.*?)\n\}", text, re.S)
    if m:
        mods = re.findall(r"s/;_/;(\d)/'\)\n\s*assert_key \"([A-Z-]*)\$extended_key\"", m.group(1))
        for key, pat in re.findall(r"^assert_extended_key '([^']*)' ['\"]([^'\"]*)['\"]", text, re.M):
            for digit, prefix in mods:
                expects.append((prefix + key, pat.replace(";_", ";" + digit)))
    diffs = []
    for key, want in expects:
        if key == "\\;":
            key = ";"
        elif key == "M-\\;":
            key = "M-;"
        got = table.get(key)
        if got is None:
            diffs.append("%s: not in the fixture" % key)
        elif cat_v(got) != want:
            diffs.append("[FAIL] %s -> %s (Got: %s)" % (key, want, cat_v(got)))
    return len(expects), diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--regress")
    args = ap.parse_args()
    server = Server()
    tmp = Path(tempfile.mkdtemp(prefix="zpkeys"))
    try:
        entries = record(server, tmp)
    finally:
        server.close()
        shutil.rmtree(tmp, ignore_errors=True)
    text = to_json(entries)
    if args.regress:
        n, diffs = regress(entries, args.regress)
        print("input-keys.sh: %d expectations, %d differ" % (n, len(diffs)))
        for d in diffs:
            print("  " + d)
    if args.check:
        if OUT.read_text() != text:
            print("tests/fixtures/keys.json differs from tmux")
            sys.exit(1)
        print("tests/fixtures/keys.json matches tmux (%d entries)" % len(entries))
        return
    OUT.write_text(text)
    print("wrote %s (%d entries)" % (OUT.relative_to(ROOT), len(entries)))


if __name__ == "__main__":
    main()
