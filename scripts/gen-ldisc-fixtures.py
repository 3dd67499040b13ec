#!/usr/bin/env python3
# gen-ldisc-fixtures.py: build tests/fixtures/ldisc/*.json, what Linux's line
# discipline (n_tty) makes of keys sent to a program through tmux 3.3a: the
# bytes and read boundaries the program gets, the signals it gets, and the
# echo on the screen.
#
# usage: scripts/gen-ldisc-fixtures.py [--check] [--only NAME ...]
#   --check  compare with the existing fixtures instead of writing them; exit 1
#            on any difference
#   --only   record only the named cases
#
# Requirements: python3 (stdlib only), tmux 3.3a on PATH (or $TMUX_BIN), Linux.
#
# How: for each case, a private tmux server (-L zpld<pid>-<n>, -f /dev/null) runs
# one 80x24 pane with a recorder that sets the case's termios on its terminal,
# installs handlers for SIGINT, SIGQUIT and SIGTSTP, and then reads fd 0 in a
# loop.  It prints nothing but the case's prompt (no newlines; before any key
# is sent): every read (as hex, one line per read, so read
# boundaries are kept) and every signal goes to a log file, so the pane shows
# only what the tty echoed.  The termios it reads back after setting it is
# logged too and stored in the fixture.  Each step of the case is one
# `send-keys -H` command (one write to the pty, which the kernel processes as
# one batch), followed by a pause; then `capture-pane -p` records the screen.
#
# Output, one file per case:
#   {"name", "description", "cols", "rows",
#    "termios": {"iflag", "oflag", "cflag", "lflag", "cc": HEX of 32 bytes},
#    "prompt": HEX,                       what the recorder printed first
#    "steps": [HEX, ...],                 one write each
#    "events": [{"read": HEX} | {"signal": N}, ...]   in the order they came
#    "screen": TEXT}                      capture-pane -p

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "ldisc"
TMUX = os.environ.get("TMUX_BIN") or shutil.which("tmux") or "tmux"
ENV = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
ENV.pop("TMUX", None)
ENV.pop("TMUX_PANE", None)

# Linux termios values.
IGNBRK, BRKINT, IGNPAR, PARMRK, INPCK, ISTRIP = 0o1, 0o2, 0o4, 0o10, 0o20, 0o40
INLCR, IGNCR, ICRNL, IUCLC, IXON, IXANY, IXOFF = 0o100, 0o200, 0o400, 0o1000, 0o2000, 0o4000, 0o10000
IMAXBEL, IUTF8 = 0o20000, 0o40000
OPOST, OLCUC, ONLCR, OCRNL, ONOCR, ONLRET = 0o1, 0o2, 0o4, 0o10, 0o20, 0o40
XTABS = 0o14000
ISIG, ICANON, ECHO, ECHOE, ECHOK, ECHONL, NOFLSH = 0o1, 0o2, 0o10, 0o20, 0o40, 0o100, 0o200
ECHOCTL, ECHOPRT, ECHOKE, IEXTEN = 0o1000, 0o2000, 0o4000, 0o100000
VINTR, VQUIT, VERASE, VKILL, VEOF, VTIME, VMIN = 0, 1, 2, 3, 4, 5, 6
VSTART, VSTOP, VSUSP, VEOL, VREPRINT, VDISCARD, VWERASE, VLNEXT, VEOL2 = (
    8, 9, 10, 11, 12, 13, 14, 15, 16)

# A tmux pane's settings (what zeropty's Termios::pane_default() holds).
BASE = {
    "iflag": ICRNL | IXON | IUTF8,
    "oflag": OPOST | ONLCR,
    "lflag": ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
    "cc": {VINTR: 0x03, VQUIT: 0x1c, VERASE: 0x7f, VKILL: 0x15, VEOF: 0x04, VTIME: 0,
           VMIN: 1, VSTART: 0x11, VSTOP: 0x13, VSUSP: 0x1a, VEOL: 0, VREPRINT: 0x12,
           VDISCARD: 0x0f, VWERASE: 0x17, VLNEXT: 0x16, VEOL2: 0},
}

RAW_I = IGNBRK | BRKINT | IGNPAR | PARMRK | INPCK | ISTRIP | INLCR | IGNCR | ICRNL | IXON \
    | IXOFF | IUCLC | IXANY | IMAXBEL

RECORDER = r"""
import json, os, signal, sys, termios
log = open(sys.argv[1], "a", buffering=1)
spec = json.loads(sys.argv[2])
def handler(n, frame):
    log.write("S %d\n" % n)
for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP):
    signal.signal(s, handler)
a = termios.tcgetattr(0)
a[0], a[1], a[3] = spec["iflag"], spec["oflag"], spec["lflag"]
for i, v in spec["cc"].items():
    a[6][int(i)] = bytes([v])
if not spec["lflag"] & termios.ICANON:
    a[6][termios.VMIN] = spec["cc"][str(termios.VMIN)]
    a[6][termios.VTIME] = spec["cc"][str(termios.VTIME)]
termios.tcsetattr(0, termios.TCSANOW, a)
os.write(1, bytes.fromhex(spec["prompt"]))
b = termios.tcgetattr(0)
cc = bytes(x if isinstance(x, int) else x[0] for x in b[6])
log.write("T %d %d %d %d %s\n" % (b[0], b[1], b[2], b[3], cc.hex()))
while True:
    d = os.read(0, 65536)
    log.write("R %s\n" % d.hex())
"""


def termios_of(iset=0, iclr=0, oset=0, oclr=0, lset=0, lclr=0, cc=None):
    spec = {
        "iflag": (BASE["iflag"] | iset) & ~iclr,
        "oflag": (BASE["oflag"] | oset) & ~oclr,
        "lflag": (BASE["lflag"] | lset) & ~lclr,
        "cc": dict(BASE["cc"]),
    }
    spec["cc"].update(cc or {})
    return spec


def b(s):
    return s.encode() if isinstance(s, str) else bytes(s)


CASES = []


def case(name, description, steps, prompt="", **termios):
    CASES.append({
        "name": name,
        "description": description,
        "prompt": b(prompt),
        "steps": [b(s) for s in steps],
        "termios": termios_of(**termios),
    })


RAW = dict(iclr=RAW_I, oclr=OPOST, lclr=ISIG | ICANON | ECHO, cc={VMIN: 1, VTIME: 0})

case("type-enter", "typing a line and Enter", ["hello", "\r"])
case("type-enter-one-write", "a line and Enter in one write", ["hello world\r"])
case("two-lines-typed-ahead", "two lines in one write reach the program in two reads",
     ["one\rtwo\r"])
case("erase-ascii", "DEL erases the last character", ["abcd\x7f\x7f", "x\x7fyz\r"])
case("erase-past-start", "DEL on an empty line does nothing", ["\x7f\x7fa\x7f\x7f\r"])
case("erase-ctrl-h-literal", "C-h is not the erase key: it is kept and echoed as ^H",
     ["ab\x08c\r"])
case("erase-ctrl-h-then-del", "DEL erases a ^H (two columns)", ["ab\x08c\x7f\x7f\r"])
case("erase-bs-as-verase", "stty erase ^H: C-h erases", ["abc\x08\x08x\r"],
     cc={VERASE: 0x08})
case("erase-utf8", "DEL erases whole UTF-8 characters (é, 中)",
     ["aé中", "\x7f", "\x7fb\r"])
case("erase-utf8-wide-echo", "erasing 中 backs up one column only",
     ["中文\x7f"])
case("erase-utf8-no-iutf8", "without IUTF8 DEL erases one byte", ["aé\x7f\r"], iclr=IUTF8)
case("erase-control", "DEL over control characters echoed as ^X",
     ["a\x01\x02\x1b", "\x7f\x7f", "\x7f\r"])
case("erase-control-no-echoctl", "without ECHOCTL control characters echo raw and erase silently",
     ["a\x01\x02\x7f\x7fb\r"], lclr=ECHOCTL)
case("erase-no-echoe", "without ECHOE the erase key echoes as ^?", ["abc\x7f\x7fd\r"],
     lclr=ECHOE)
case("erase-echoprt", "ECHOPRT prints erased characters between \\ and /",
     ["abcé\x7f\x7f\x7fd\r"], lset=ECHOPRT)
case("erase-tab", "DEL over a tab backs up to where the tab started",
     ["a\tb\x7f\x7f", "xy\t\t\x7f\x7fz\r"])
case("erase-tab-after-control", "tab erase counts ^X as two columns",
     ["\x01ab\t\x7fc\r"])
case("erase-tab-after-prompt", "tab erase counts the columns the program wrote",
     ["ab\tc\x7f\x7f\x7fd\t\x7f\r"], prompt="$ ")
case("erase-tab-after-tab-prompt", "tab erase after a prompt ending in a tab",
     ["x\t\x7f\x7f\t\x7f\r"], prompt="ab\tc")
case("erase-euro", "€ has a continuation byte 0x82, which is not a control character",
     ["a€\x7f€\r"])
case("kill-line", "C-u erases the line", ["abc def", "\x15", "x\r"])
case("kill-utf8", "C-u over UTF-8 and controls", ["é中\x01\tz\x15y\r"])
case("kill-no-echoke", "without ECHOKE C-u echoes ^U and a newline", ["abc\x15x\r"],
     lclr=ECHOKE)
case("kill-no-echok", "without ECHOK and ECHOKE C-u echoes ^U only", ["abc\x15x\r"],
     lclr=ECHOKE | ECHOK)
case("kill-no-echo", "C-u without echo", ["abc\x15x\r"], lclr=ECHO)
case("werase", "C-w erases words", ["foo bar-baz  \x17", "\x17\x17", "\x17q\r"])
case("werase-utf8", "C-w over UTF-8 words", ["été 中文 x\x17\x17", "\r"])
case("werase-underscore", "C-w treats _ as part of a word", ["a b_c.d_e \x17\x17\r"])
case("werase-no-iexten", "without IEXTEN C-w is an ordinary character", ["ab \x17\r"],
     lclr=IEXTEN)
case("lnext-control", "C-v then C-c inserts a literal ^C", ["a\x16", "\x03b\r"])
case("lnext-one-write", "C-v C-u, C-v DEL, C-v C-s in one write",
     ["\x16\x15\x16\x7f\x16\x13x\r"])
case("lnext-no-echoctl", "C-v without ECHOCTL echoes nothing", ["a\x16\x03b\r"],
     lclr=ECHOCTL)
case("lnext-then-erase", "erasing a literal control character", ["a\x16\x01\x7f\r"])
case("reprint", "C-r reprints the line", ["ab\x01c", "\x12", "d\r"])
case("sigint", "C-c flushes the line and sends SIGINT", ["abc", "\x03", "def\r"])
case("sigquit", "C-\\ sends SIGQUIT", ["abc", "\x1c", "x\r"])
case("sigtstp", "C-z sends SIGTSTP", ["abc", "\x1a", "x\r"])
case("sigint-same-write", "C-c flushes the echo and the lines of its own write",
     ["x\ryz\x03", "w\r"])
case("sigint-noflsh", "with NOFLSH C-c keeps the line", ["abc", "\x03", "def\r"],
     lset=NOFLSH)
case("sigint-no-echoctl", "C-c echoes a raw 0x03 without ECHOCTL", ["ab", "\x03", "c\r"],
     lclr=ECHOCTL)
case("sigint-no-isig", "without ISIG C-c is an ordinary character", ["a\x03\x1c\x1ab\r"],
     lclr=ISIG)
case("eof-line-start", "C-d on an empty line: the read returns 0", ["\x04", "\x04"])
case("eof-mid-line", "C-d mid-line delivers the line without a newline",
     ["ab\x04", "cd\r"])
case("eof-after-erase", "C-d after erasing to an empty line", ["ab\x7f\x7f\x04"])
case("stop-start", "C-s stops output (echo held), C-q starts it",
     ["\x13", "abc", "\x11", "\r"])
case("stop-then-sigint", "echo held by C-s is dropped by C-c", ["\x13", "de", "\x03", "x\r"])
case("stop-start-one-write", "C-s and C-q in one write", ["ab\x13cd\x11ef\r"])
case("stop-start-sigint-one-write", "C-c drops echo released by C-q in the same write",
     ["ab\x13cd\x11ef\x03", "g\r"])
case("ixany", "with IXANY any key restarts output", ["\x13", "ab", "c\r"], iset=IXANY)
case("no-ixon", "without IXON C-s and C-q are ordinary", ["a\x13\x11b\r"], iclr=IXON)
case("icrnl-off", "without ICRNL Enter is ^M and C-j ends the line", ["abc\r", "\n"],
     iclr=ICRNL)
case("inlcr", "INLCR turns C-j into CR", ["ab\n", "\r"], iset=INLCR)
case("igncr", "IGNCR drops CR", ["a\rb", "\n"], iset=IGNCR)
case("iuclc", "IUCLC lowercases input (with IEXTEN)", ["AbC\r"], iset=IUCLC)
case("parmrk", "PARMRK doubles 0xff", [b"a\xff\r"], iset=PARMRK)
case("nul-and-discard", "NUL and C-o are ordinary characters", ["a\x00b\x0fc\r"])
case("istrip", "ISTRIP clears the high bit", ["é\r"], iset=ISTRIP)
case("raw-all-bytes", "stty raw -echo: every byte 0x01-0xff passes untouched",
     [bytes(range(1, 256))], **RAW)
case("raw-echo", "stty raw with echo: bytes echoed raw, output not processed",
     ["ab\rc\x01d"], iclr=RAW_I, oclr=OPOST, lclr=ISIG | ICANON, cc={VMIN: 1, VTIME: 0})
case("no-echo", "stty -echo: nothing is echoed", ["secret\x7f\x7fxy\r", "\x03"], lclr=ECHO)
case("no-echo-echonl", "stty -echo echonl: only the newline is echoed", ["abc\r"],
     lclr=ECHO, lset=ECHONL)
case("noncanon-echo", "stty -icanon: bytes reach the program at once, echoed",
     ["abc", "\x7f", "\r", "\n\x01\t"], lclr=ICANON, cc={VMIN: 1, VTIME: 0})
case("noncanon-echo-all-bytes", "stty -icanon -isig -ixon: every byte 0x01-0xff echoed",
     [bytes(range(1, 256))], iclr=IXON, lclr=ICANON | ISIG, cc={VMIN: 1, VTIME: 0})
case("noncanon-sigint", "stty -icanon: C-c flushes bytes of its own write",
     ["ab", "cd\x03", "e"], lclr=ICANON, cc={VMIN: 1, VTIME: 0})
case("noncanon-no-echoctl", "stty -icanon -echoctl: control characters echo raw",
     ["a\x01\x7fb\x1b[1mc"], lclr=ICANON | ECHOCTL, cc={VMIN: 1, VTIME: 0})
case("eol-char", "VEOL ends a line and is delivered", ["ab#cd\r"], cc={VEOL: ord("#")})
case("eol2-char", "VEOL2 ends a line (IEXTEN)", ["ab!cd\r"], cc={VEOL2: ord("!")})
case("no-onlcr", "without ONLCR the echoed newline has no CR", ["ab\r", "cd\r"],
     oclr=ONLCR)
case("ocrnl", "OCRNL turns an echoed CR (-icrnl -echoctl) into LF",
     ["ab\rcd\n"], iclr=ICRNL, lclr=ECHOCTL, oset=OCRNL)
case("xtabs", "tab3 echoes tabs as spaces", ["a\tb\x7f\x7f\r"], oset=XTABS)
case("olcuc", "OLCUC uppercases the echo", ["abc\r"], oset=OLCUC)
case("line-limit-overflow", "a line longer than 4095 bytes keeps its first 4095",
     ["a" * 4094 + "bcdef\r"])
case("line-limit-exact", "4095 bytes and Enter", ["0123456789" * 409 + "abcde", "\r"])
case("line-limit-erase", "erase after overflowing the line", ["a" * 4095 + "bc", "\x7f\r"])
case("line-limit-eof", "C-d after overflowing the line", ["x" * 4100 + "\x04"])
case("line-limit-split-writes", "overflow across writes", ["a" * 3000, "b" * 2000, "c\r"])


def tmux(server, *args, check=True):
    return subprocess.run([TMUX, "-L", server, "-f", "/dev/null", *args], env=ENV,
                          check=check, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for(path, prefix, timeout=10.0):
    end = time.time() + timeout
    while time.time() < end:
        if path.exists():
            for line in path.read_text().splitlines():
                if line.startswith(prefix):
                    return line
        time.sleep(0.02)
    raise RuntimeError("recorder did not start")


def record(c, tmp, server):
    log = tmp / (c["name"] + ".log")
    spec = json.dumps({"iflag": c["termios"]["iflag"], "oflag": c["termios"]["oflag"],
                       "lflag": c["termios"]["lflag"],
                       "cc": {str(k): v for k, v in c["termios"]["cc"].items()},
                       "prompt": c["prompt"].hex()})
    rec = tmp / "recorder.py"
    cmd = "exec python3 %s %s '%s'" % (rec, log, spec)
    tmux(server, "new-session", "-d", "-x", "80", "-y", "24", cmd)
    try:
        tline = wait_for(log, "T ").split()
        time.sleep(0.1)
        for step in c["steps"]:
            tmux(server, "send-keys", "-H", *["%02x" % x for x in step])
            time.sleep(0.25 + len(step) / 20000)
        time.sleep(0.3)
        size = tmux(server, "display", "-p", "#{pane_width} #{pane_height}").stdout.split()
        screen = tmux(server, "capture-pane", "-p").stdout
    finally:
        socket = tmux(server, "display", "-p", "#{socket_path}", check=False).stdout.strip()
        tmux(server, "kill-server", check=False)
        # tmux leaves its socket file behind.
        if socket:
            Path(socket.decode()).unlink(missing_ok=True)
    events = []
    for line in log.read_text().splitlines():
        if line.startswith("R "):
            events.append({"read": line[2:]})
        elif line.startswith("R"):
            events.append({"read": ""})
        elif line.startswith("S "):
            events.append({"signal": int(line[2:])})
    return {
        "name": c["name"],
        "description": c["description"],
        "cols": int(size[0]),
        "rows": int(size[1]),
        "termios": {"iflag": int(tline[1]), "oflag": int(tline[2]), "cflag": int(tline[3]),
                    "lflag": int(tline[4]), "cc": tline[5]},
        "prompt": c["prompt"].hex(),
        "steps": [s.hex() for s in c["steps"]],
        "events": events,
        "screen": screen.decode("utf-8"),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    version = subprocess.run([TMUX, "-V"], stdout=subprocess.PIPE, check=True).stdout
    if version.strip() != b"tmux 3.3a":
        print("warning: %s is %s, fixtures were made with tmux 3.3a" % (TMUX, version.strip()),
              file=sys.stderr)
    server = "zpld%d" % os.getpid()
    n = 0
    OUT.mkdir(parents=True, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "recorder.py").write_text(RECORDER)
        for c in CASES:
            if args.only and c["name"] not in args.only:
                continue
            n += 1
            got = record(c, tmp, "%s-%d" % (server, n))
            path = OUT / (c["name"] + ".json")
            text = json.dumps(got, indent=1, ensure_ascii=False) + "\n"
            if args.check:
                old = path.read_text() if path.exists() else ""
                if old != text:
                    print("differs: %s" % c["name"])
                    failed += 1
            else:
                path.write_text(text)
                print("wrote %s" % path.relative_to(ROOT))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
