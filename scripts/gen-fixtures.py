#!/usr/bin/env python3
# gen-fixtures.py: build the screen reference fixtures under tests/fixtures/.
#
# Each case is a pair tests/fixtures/SET/CASE.in (raw bytes a program wrote to
# its terminal) and tests/fixtures/SET/CASE.json (the screen tmux 3.3a shows
# after reading those bytes: capture-pane output and pane formats).  The JSON
# format is described in tests/fixtures/README.md.
#
# usage: scripts/gen-fixtures.py [-j N] COMMAND [ARGS]
#   import  [--peer DIR] [--no-screens]
#           copy the third-party corpora into the sets pyte, vtparser, vt100
#           (DIR defaults to $ZP_PEER_DIR or ../shared/peer, relative to the
#           repository root), then generate their screens
#   record  [--no-screens] [CASE...]
#           write the synthetic cases and record the real programs (set
#           programs) by running them in tmux, then generate their screens
#   screens [--check] [SET | SET/CASE | PATH.in ...]
#           (re)generate the .json of every case (or of the named ones) by
#           replaying the .in in tmux; --check compares with the existing
#           .json instead of writing and exits 1 on any difference
#   all     import, record, then screens for everything
#   -j N    cases replayed in parallel (default 4; each on its own server)
#
# Requirements: python3 (stdlib only), tmux 3.3a on PATH (or $TMUX_BIN), the
# C.UTF-8 locale; for `record`: vim, less, top, bash, ls.  Screens are always
# taken by replaying the .in file in a fresh tmux server, never from a live
# program, so the .in and the .json always agree.

import argparse
import concurrent.futures
import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
TMUX = os.environ.get("TMUX_BIN") or shutil.which("tmux") or "tmux"
ENV = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
ENV.pop("TMUX", None)
ENV.pop("TMUX_PANE", None)

# set -> (cols, rows, history-limit) used when a case has no .json yet
SET_DEFAULTS = {
    "pyte": (80, 24, 0),
    "vtparser": (80, 24, 2000),
    "vt100": (80, 24, 0),
    "programs": (80, 24, 2000),
    "synthetic": (80, 24, 2000),
}
DEFAULT = (80, 24, 2000)

FORMATS = [
    "cursor_x", "cursor_y", "alternate_on", "pane_title", "cursor_flag",
    "insert_flag", "keypad_cursor_flag", "keypad_flag", "wrap_flag",
    "origin_flag", "mouse_any_flag", "mouse_sgr_flag", "history_size",
]
CAPTURES = [
    ("p", ["-p", "-S", "-", "-E", "-"]),
    ("pe", ["-p", "-e", "-S", "-", "-E", "-"]),
    ("pJ", ["-p", "-J", "-S", "-", "-E", "-"]),
    ("screen_pe", ["-p", "-e"]),
]

# tmux titles a new pane with the host name.  So that fixtures do not depend on
# the machine that made them, the server runs in its own UTS namespace with
# this host name when that is possible (running as root with unshare(1)).
HOSTNAME = "zeropty"


def _host_prefix():
    if os.getuid() != 0 or not shutil.which("unshare"):
        return None
    try:
        ok = subprocess.run(["unshare", "--uts", "sh", "-c", "hostname %s" % HOSTNAME],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    if not ok:
        return None
    return ["unshare", "--uts", "sh", "-c", 'hostname %s && exec "$@"' % HOSTNAME, "sh"]


HOST_PREFIX = _host_prefix()

_counter = itertools.count()
_print_lock = threading.Lock()


def say(*a):
    with _print_lock:
        print(*a, flush=True)


class Fatal(Exception):
    pass


# ---------------------------------------------------------------- tmux server

class Server:
    """A private tmux server (own socket), killed and removed on close."""

    def __init__(self, prefix="zpfix"):
        self.name = "%s%d-%d" % (prefix, os.getpid(), next(_counter))
        self.argv = [TMUX, "-L", self.name, "-f", "/dev/null", "-u"]
        # the same server, as a shell command for use inside panes
        self.sh = " ".join(shlex.quote(x) for x in [TMUX, "-L", self.name, "-f", "/dev/null"])

    def run(self, *args, timeout=60, check=True, start=False):
        """Run a tmux client; start=True: this call starts the server."""
        pre = HOST_PREFIX if start and HOST_PREFIX else []
        p = subprocess.run(pre + self.argv + list(args), env=ENV, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        if check and p.returncode != 0:
            raise Fatal("tmux %s failed (%d): %s" % (args[0], p.returncode,
                                                    p.stderr.decode(errors="replace").strip()))
        return p.stdout

    def socket_path(self):
        base = os.environ.get("TMUX_TMPDIR") or "/tmp"
        return Path(base) / ("tmux-%d" % os.getuid()) / self.name

    def close(self):
        try:
            subprocess.run(self.argv + ["kill-server"], env=ENV, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=20)
        except subprocess.TimeoutExpired:
            pass
        try:
            self.socket_path().unlink()
        except OSError:
            pass

    def snapshot(self, target="c:"):
        """All captures plus the formats, taken by one tmux client."""
        tok = "zpfix-sep-%s" % os.urandom(8).hex()
        args = []
        for i, (_, flags) in enumerate(CAPTURES):
            args += ["capture-pane", "-t", target] + flags + [";"]
            args += ["display-message", "-p", "%s-%d" % (tok, i), ";"]
        args += ["display-message", "-p", "-t", target,
                 "\x1f".join("#{%s}" % f for f in FORMATS)]
        raw = self.run(*args)
        try:
            out = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise Fatal("tmux printed non-UTF-8 output (%s); stopping" % e)
        res = {}
        for i, (key, _) in enumerate(CAPTURES):
            sep = "%s-%d\n" % (tok, i)
            part, found, out = out.partition(sep)
            if not found:
                raise Fatal("separator missing in tmux output")
            res[key] = part
        if not out.endswith("\n"):
            raise Fatal("format output not newline-terminated: %r" % out)
        vals = out[:-1].split("\x1f")
        if len(vals) != len(FORMATS):
            raise Fatal("unexpected format output: %r" % out)
        res["formats"] = dict(zip(FORMATS, vals))
        return res

    def settle(self, interval=0.1, limit=300):
        """Capture until two captures `interval` seconds apart are identical."""
        prev = self.snapshot()
        for _ in range(limit):
            time.sleep(interval)
            cur = self.snapshot()
            if cur == prev:
                return cur
            prev = cur
        raise Fatal("screen never settled")


def wait_size(path, size, timeout):
    end = time.monotonic() + timeout
    while True:
        try:
            n = path.stat().st_size
        except OSError:
            n = -1
        if n >= size:
            return n
        if time.monotonic() > end:
            return n
        time.sleep(0.01)


def replay(inpath, cols, rows, history, resize=None):
    """Feed inpath to a fresh tmux pane and return the settled screen."""
    inpath = Path(inpath).resolve()
    size = inpath.stat().st_size
    srv = Server()
    with tempfile.TemporaryDirectory(prefix="zpfix") as tmp:
        piped = Path(tmp) / "piped"
        # The pane waits for "go" so pipe-pane is attached before the first
        # byte; the piped copy then tells us when tmux has read (and parsed)
        # every byte.  stty raw -echo: no output processing, bytes unchanged.
        cmd = ("stty raw -echo; %s wait-for go; cat %s; %s wait-for -S fed; exec sleep 600"
               % (srv.sh, shlex.quote(str(inpath)), srv.sh))
        try:
            srv.run("set", "-g", "history-limit", str(history), ";",
                    "set", "-g", "default-shell", "/bin/sh", ";",
                    "new-session", "-d", "-x", str(cols), "-y", str(rows), "-s", "c", cmd, ";",
                    "pipe-pane", "-O", "-t", "c:", "cat > %s" % shlex.quote(str(piped)), ";",
                    "wait-for", "-S", "go", ";",
                    "wait-for", "fed", timeout=120, start=True)
            got = wait_size(piped, size, 60)
            if got != size:
                raise Fatal("tmux read %d of %d bytes" % (got, size))
            shot = srv.settle()
            if resize:
                srv.run("resize-window", "-t", "c:", "-x", str(resize[0]), "-y", str(resize[1]))
                shot = srv.settle()
        finally:
            srv.close()
    return shot


# ---------------------------------------------------------------- cases / json

def case_params(inpath):
    """(cols, rows, history, resize) from the existing .json or the set default."""
    js = inpath.with_suffix(".json")
    cols, rows, hist = SET_DEFAULTS.get(inpath.parent.name, DEFAULT)
    resize = None
    if js.exists():
        try:
            d = json.loads(js.read_text(encoding="utf-8"))
            cols, rows, hist = d.get("cols", cols), d.get("rows", rows), d.get("history", hist)
            resize = d.get("resize")
        except ValueError:
            pass
    return cols, rows, hist, resize


def make_json(cols, rows, hist, resize, shot=None):
    d = {"cols": cols, "rows": rows, "history": hist}
    if resize:
        d["resize"] = list(resize)
    if shot:
        for key, _ in CAPTURES:
            d[key] = shot[key]
        d["formats"] = shot["formats"]
    return json.dumps(d, ensure_ascii=False, indent=1) + "\n"


def write_stub(inpath, cols, rows, hist, resize=None):
    """Write the parameters only; `screens` fills in the rest."""
    js = inpath.with_suffix(".json")
    old = None
    if js.exists():
        try:
            old = json.loads(js.read_text(encoding="utf-8"))
        except ValueError:
            pass
    if old and (old.get("cols"), old.get("rows"), old.get("history"), old.get("resize")) == \
            (cols, rows, hist, list(resize) if resize else None):
        return
    js.write_text(make_json(cols, rows, hist, resize), encoding="utf-8")


def find_cases(names):
    if not names:
        return sorted(FIXTURES.glob("*/*.in"))
    out = []
    for n in names:
        p = Path(n)
        if p.suffix == ".in" and p.exists():
            out.append(p.resolve())
        elif (FIXTURES / n).is_dir():
            out += sorted((FIXTURES / n).glob("*.in"))
        elif (FIXTURES / (n + ".in")).exists():
            out.append(FIXTURES / (n + ".in"))
        else:
            raise SystemExit("no such set or case: %s" % n)
    return out


def cmd_screens(names, jobs, check=False):
    cases = find_cases(names)
    if not cases:
        say("no cases")
        return 0
    t0 = time.monotonic()
    done = itertools.count(1)
    failed, differ = [], []
    per_set = {}

    def one(inpath):
        label = "%s/%s" % (inpath.parent.name, inpath.stem)
        cols, rows, hist, resize = case_params(inpath)
        t = time.monotonic()
        try:
            shot = replay(inpath, cols, rows, hist, resize)
        except (Fatal, subprocess.TimeoutExpired, OSError) as e:
            failed.append(label)
            say("[%d/%d] %s FAILED: %s" % (next(done), len(cases), label, e))
            if isinstance(e, Fatal) and "non-UTF-8" in str(e):
                raise
            return
        text = make_json(cols, rows, hist, resize, shot)
        js = inpath.with_suffix(".json")
        status = "ok"
        if check:
            old = js.read_text(encoding="utf-8") if js.exists() else None
            if old != text:
                differ.append(label)
                status = "DIFFERS"
        else:
            js.write_text(text, encoding="utf-8")
        with _print_lock:
            per_set[inpath.parent.name] = per_set.get(inpath.parent.name, 0) + 1
        say("[%d/%d] %s %dx%d%s %s %.2fs" % (next(done), len(cases), label, cols, rows,
                                             " -> %dx%d" % tuple(resize) if resize else "",
                                             status, time.monotonic() - t))

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for f in [ex.submit(one, c) for c in cases]:
            f.result()
    el = time.monotonic() - t0
    say("screens: %d cases (%s) in %.1fs, %d failed%s" % (
        len(cases), ", ".join("%s %d" % kv for kv in sorted(per_set.items())), el, len(failed),
        (", %d differ from the stored .json" % len(differ)) if check else ""))
    for x in failed:
        say("  failed: " + x)
    for x in differ:
        say("  differs: " + x)
    return 1 if failed or differ else 0


# ---------------------------------------------------------------- import

SCRIPT_LINE = re.compile(rb"(?m)^Script (started|done) on .*\n?")


def cmd_import(peer, jobs, screens=True):
    peer = Path(peer)
    if not peer.is_absolute():
        peer = (ROOT / peer).resolve()
    if not peer.is_dir():
        raise SystemExit("peer corpus not found: %s" % peer)
    sets = {}

    def put(set_name, case, data):
        sets.setdefault(set_name, {})[case] = data

    src = peer / "pyte-captured" / "captured"
    for f in sorted(src.glob("*.input")):
        put("pyte", f.stem, f.read_bytes())
    src = peer / "vt100-parser" / "test"
    for f in sorted(src.glob("t????-*.in")):
        put("vtparser", f.stem, SCRIPT_LINE.sub(b"", f.read_bytes()))
    src = peer / "vt100-rust" / "data" / "fixtures"
    for d in sorted(p for p in src.iterdir() if p.is_dir()):
        acc, i = b"", 1
        while (d / ("%d.typescript" % i)).exists():
            acc += (d / ("%d.typescript" % i)).read_bytes()
            put("vt100", "%s-%d" % (d.name, i), acc)
            i += 1
    licence_src = {"pyte": peer / "pyte-captured", "vtparser": peer / "vt100-parser",
                   "vt100": peer / "vt100-rust"}
    touched = []
    for set_name, cases in sets.items():
        out = FIXTURES / set_name
        out.mkdir(parents=True, exist_ok=True)
        for f in ("LICENSE", "NOTICE"):
            shutil.copyfile(licence_src[set_name] / f, out / f)
        for old in list(out.glob("*.in")) + list(out.glob("*.json")):
            if old.stem not in cases:
                old.unlink()
        cols, rows, hist = SET_DEFAULTS[set_name]
        for case, data in cases.items():
            p = out / (case + ".in")
            if not p.exists() or p.read_bytes() != data:
                p.write_bytes(data)
                jp = p.with_suffix(".json")
                if jp.exists():
                    jp.unlink()
                touched.append(p)
        say("import: %s: %d cases" % (set_name, len(cases)))
    if screens and touched:
        return cmd_screens([str(p) for p in touched], jobs)
    return 0


# ---------------------------------------------------------------- synthetic cases

def B(*parts):
    out = b""
    for x in parts:
        out += x if isinstance(x, bytes) else x.encode("utf-8")
    return out


E, C, OSC, ST, BEL = "\x1b", "\x1b[", "\x1b]", "\x1b\\", "\x07"


def fill(rows=24, cols=80, start=0):
    """Rows of distinct printable text, CRLF-separated, no trailing newline."""
    lines = []
    for r in range(rows):
        base = "%02d:" % (r + start)
        s = (base + "".join(chr(0x41 + (r + i) % 26) for i in range(cols)))[:cols]
        lines.append(s)
    return "\r\n".join(lines)


def numbered(n, width=None, start=1):
    out = []
    for i in range(start, start + n):
        s = "line %d" % i
        if width:
            s = (s + " " + "".join(chr(0x61 + (i + k) % 26) for k in range(width)))[:width]
        out.append(s)
    return "\r\n".join(out) + "\r\n"


def synthetic_cases():
    """name -> (bytes, cols, rows, history, resize)"""
    cs = {}

    def add(name, data, cols=80, rows=24, hist=2000, resize=None):
        cs[name] = (B(*data) if isinstance(data, (list, tuple)) else B(data), cols, rows, hist, resize)

    add("cursor-movement", [
        C, "2J", C, "H", "origin",
        C, "5;10HA", C, "3;5fB", C, "H", C, "2BC", C, "10CD", C, "AE", C, "3DF",
        C, "2EG", C, "FH", C, "30GI", C, "40`J", C, "12dK", C, "5aL", C, "2eM",
        C, "0;0HN", C, "999;999HO", C, "999DP", C, "999AQ", C, "0CR", C, "0BS",
        C, "10;70H", C, "1000CT", C, "15;20H", C, ";HU", C, "18;H", "V", C, ";7H", "W",
        C, "20;30H"])
    add("ind-nel-ri", [
        fill(24), C, "24;5H", E, "D", "ind", E, "E", "nel", C, "1;10H", E, "M", "ri-top",
        C, "10;10H", E, "M", "ri-mid", C, "12;3H", E, "D", "x", C, "24;1H", "\n", "lf", E, "E"])
    add("ed-0", [fill(24), C, "12;40H", C, "J", "after"])
    add("ed-1", [fill(24), C, "12;40H", C, "1J", "after"])
    add("ed-2", [numbered(40), fill(24), C, "12;40H", C, "2J", "after"])
    add("ed-3", [numbered(60), fill(10), C, "3J", "after"])
    add("el", [fill(12), C, "2;40H", C, "K", C, "4;40H", C, "0K", C, "6;40H", C, "1K",
               C, "8;40H", C, "2K", C, "44m", C, "10;20H", C, "K", C, "11;20H", C, "1K",
               C, "12;1H", C, "2K", C, "0m", C, "13;1Hdone"])
    add("su-sd", [fill(24), C, "3S", C, "1;1Hsu", C, "2T", C, "5;15r", C, "4S", C, "2T",
                  C, "r", C, "24;1Hend", C, "S", C, "0S", C, "100T"])
    add("scroll-region", [
        fill(24), C, "5;15r", C, "15;1H", "\n\nbottom-lf", C, "5;1H", E, "M", E, "M", "top-ri",
        C, "10;1H", C, "2L", "il2", C, "12;1H", C, "3M", "dl3", C, "2;1H", C, "L", "il-outside",
        C, "20;1H", C, "M", "dl-outside", C, "24;1H", "\n\nbelow", C, "1;1H", E, "M", "above",
        C, "r", C, "3;3Hreset"])
    add("scroll-region-history", [
        numbered(30), C, "1;12r", C, "12;1H", "\n\n\ntop-region", C, "2;24r", C, "24;1H",
        "\n\n\nlower-region", C, "r", C, "24;1H", "\n\nfull"])
    add("altscreen-1049", [
        numbered(30), "main text", C, "31m", C, "?1049h", C, "H", C, "2J", "alt screen",
        C, "10;10Halt line", C, "?1049l", "back"])
    add("altscreen-47", [
        numbered(5), "main", C, "?47h", "on-alt", C, "5;5Halt", C, "?47l", "after"])
    add("altscreen-1047", [
        numbered(5), C, "10;10H", C, "?1048h", "saved", C, "?1047h", C, "2J", "alt",
        C, "20;20H", C, "?1047l", C, "?1048l", "restored"])
    add("altscreen-active", [
        numbered(40), C, "?1049h", C, "H", C, "2J", "\x1b[1mstill on the alternate screen",
        "\r\n", numbered(30), C, "0m"])
    add("origin-mode", [
        fill(24), C, "5;15r", C, "?6h", C, "HA", C, "3;3HB", C, "99;1HC", C, "99;99HD",
        C, "?6l", C, "HE", C, "?6h", E, "7", C, "?6l", E, "8", "F", C, "?6h", C, "r", "G"])
    add("origin-mode-stays", [fill(24), C, "10;20r", C, "?6h", C, "2;2Hin-region"])
    add("tabs", [
        "\ta\tb\tc\r\n", "0123456789" * 8, "\r\n", C, "3g", E, "H",
        C, "5G", E, "H", C, "11G", E, "H", C, "21G", E, "H", "\r\tx\ty\tz\tw\r\n",
        C, "2Ia", C, "Ib", C, "Zc", C, "2Zd", "\r\n", C, "?5W", "\tp\tq\r\n", C, "0g",
        "\r\n", C, "70G", "\t\t\tend", "\r\n", C, "10G", C, "0g", "\r\ttab\r\n",
        C, "3g", "\tnone"])
    add("sgr-16", ["".join("%s%dm fg%d %s0m" % (C, 30 + i, i, C) for i in range(8)), "\r\n",
                   "".join("%s%dm bg%d %s0m" % (C, 40 + i, i, C) for i in range(8)), "\r\n",
                   "".join("%s%dm br%d %s0m" % (C, 90 + i, i, C) for i in range(8)), "\r\n",
                   "".join("%s%dm bb%d %s0m" % (C, 100 + i, i, C) for i in range(8)), "\r\n",
                   C, "31;42mboth", C, "39mdefault-fg", C, "49mdefault-bg", C, "1;34mbold-blue",
                   C, "0m", "\r\n", C, "37;40m", C, "K", "erase with bg", C, "m"])
    add("sgr-256", ["".join("%s38;5;%dm%02x" % (C, i, i) + ("\r\n" if i % 26 == 25 else "")
                            for i in range(256)), C, "0m\r\n",
                    "".join("%s48;5;%dm " % (C, i) for i in range(0, 256, 5)), C, "0m\r\n",
                    C, "38:5:196mcolon", C, "48:5:21mcolon-bg", C, "m\r\n",
                    C, "38;5;300mout-of-range", C, "m", C, "38;5mmissing", C, "m"])
    add("sgr-truecolor", [
        "".join("%s38;2;%d;%d;%dm#" % (C, i * 4, 255 - i * 4, (i * 37) % 256) for i in range(64)),
        C, "0m\r\n",
        "".join("%s48;2;%d;%d;%dm " % (C, 255 - i * 4, i * 2, i * 4) for i in range(64)),
        C, "0m\r\n", C, "38:2::255:128:0mcolon-empty-cs", C, "m ", C, "38:2:0:10:20:30mcolon-cs",
        C, "m ", C, "48:2::1:2:3mbg", C, "m\r\n", C, "38;2;300;0;0mbad", C, "m ",
        C, "38;2;1;2mshort", C, "m"])
    add("sgr-underline", [
        C, "4msingle", C, "24m ", C, "4:0mnone", C, "m ", C, "4:1msingle", C, "m ",
        C, "4:2mdouble", C, "m ", C, "4:3mcurly", C, "m ", C, "4:4mdotted", C, "m ",
        C, "4:5mdashed", C, "m ", C, "21mdbl21", C, "m\r\n",
        C, "4:3;58:2::255:0:0mred-curly", C, "m ", C, "4;58;5;82mgreen-ul", C, "m ",
        C, "4;58;2;0;0;255mblue-semi", C, "m ", C, "4;58:5:200mcol256", C, "59mno-ulcolor",
        C, "m ", C, "4:6munknown-style", C, "m"])
    add("sgr-attrs", [
        "".join("%s%dmattr%d%s0m " % (C, i, i, C) for i in (1, 2, 3, 4, 5, 6, 7, 8, 9, 53)),
        "\r\n", C, "1;2;3;4;5;7;9;53mall-on", C, "22mno-bold-dim", C, "23mno-it", C, "24mno-ul",
        C, "25mno-blink", C, "27mno-rev", C, "29mno-strike", C, "55mno-over", C, "mreset\r\n",
        C, "1;31mbold-red", C, ";32mreset-then-green", C, "0;;1mempty-params", C, "m\r\n",
        C, "7;8mreverse-hidden", C, "28mvisible", C, "m", C, "100;200;300mjunk", C, "m"])
    add("wrap-pending", [
        "a" * 80, "\rB\n", "c" * 80, "\nD\r\n", "e" * 80, "\bF\r\n", "g" * 80, "H\r\n",
        "i" * 80, C, "KJ\r\n", "k" * 80, E, "7", E, "8L\r\n", "m" * 80, C, "1;1H",
        C, "8;1H", "n" * 80, C, "CO\r\n", "p" * 79, "\u4e2d\r\n", "q" * 80, "\tR\r\n",
        "s" * 80, C, "?7l", "T", C, "?7h", "U"])
    add("autowrap-off", [C, "?7l", "x" * 100, "END\r\n", "\u4e2d" * 45, "\r\n", C, "?7h",
                         "y" * 100])
    add("decaln", [E, "#8", C, "5;5Hinside", C, "10;1H", C, "K", C, "20;1H", C, "J"])
    add("rep", ["a", C, "5b|", "\r\n", "\u4e2d", C, "3b|", "\r\n", "x", C, "1000b", "after",
                "\r\n", C, "b", "nothing-before", C, "3b", "\r\n", "\r", C, "4b", "\r\n",
                "e\u0301", C, "3b", "\r\n", C, "31mR", C, "2b", C, "m"])
    add("ich-dch-ech", [
        fill(12), C, "1;10H", C, "5@", C, "2;10H", C, "3P", C, "3;10H", C, "4X",
        C, "4;75H", C, "20@", C, "5;75H", C, "20P", C, "6;1H", C, "44m", C, "5@", C, "3P",
        C, "4X", C, "0m", C, "8;1H", "\u4e2d\u6587\u5b57\u7b26\u4e32", C, "8;3H", C, "1@",
        C, "9;1H", "\u4e2d\u6587\u5b57\u7b26\u4e32", C, "9;2H", C, "1P",
        C, "10;1H", "\u4e2d\u6587\u5b57\u7b26\u4e32", C, "10;4H", C, "1X",
        C, "11;1H", C, "1000@", C, "12;1H", C, "0P"])
    add("insert-mode", [fill(4), C, "1;10H", C, "4hINSERTED", C, "4l", C, "2;10Hover",
                        C, "3;75H", C, "4h", "abcdefghij", C, "4;1H", "\u4e2d", C, "4l",
                        C, "5;1H", C, "4hstill-on"])
    add("charsets", [
        E, "(0", "lqqqqk\r\nx    x\r\nmqqqqj\r\n", "`abcdefghijklmnopqrstuvwxyz{|}~\r\n", E, "(B",
        "ascii again\r\n", E, ")0", "\x0e", "lqk shifted", "\x0f", " unshifted\r\n",
        E, "(A", "#pound", E, "(B", " #hash\r\n", E, "(0", "\u4e2dq", E, "(B", "\r\n",
        E, ")0", "\x0e", "still g1 at end"])
    add("decsc-decrc", [
        C, "5;5H", C, "1;31m", E, "7", C, "20;20H", C, "0;32m", "green", E, "8", "saved-red",
        C, "0m", C, "10;10H", C, "s", C, "1;1H", "top", C, "u", "csi-u", C, "12;1H",
        E, "(0", E, "7", E, "(B", E, "8", "qqq", E, "(B", C, "14;1H", E, "8", "no-save-twice",
        C, "5;10r", C, "?6h", C, "2;2H", E, "7", C, "?6l", C, "r", C, "20;1H", E, "8", "om"])
    add("ris", [fill(24), C, "?1h", E, "=", C, "?25l", C, "4h", C, "?1000h", C, "5;10r",
                OSC, "2;before-reset", BEL, C, "31m", E, "c", "after reset", C, "3;3Hx"])
    add("osc-title-bel", [OSC, "0;first title", BEL, "text", OSC, "2;second \u00e9 title", BEL,
                          OSC, "1;icon only", BEL, " more"])
    add("osc-title-st", [OSC, "2;title one", ST, "a", OSC, "0;final title", ST, "b",
                         OSC, "2;unterminated"])
    add("osc8-hyperlinks", [
        OSC, "8;;https://example.com/", ST, "a link", OSC, "8;;", ST, " plain ",
        OSC, "8;id=x;https://example.org/", BEL, "with id", OSC, "8;;", BEL, "\r\n",
        OSC, "8;;http://e.com", ST, C, "1mbold link", C, "m", OSC, "8;;", ST])
    add("dcs-apc-pm-sos", [
        "a", E, "Pq#0;2;0;0;0#1!6~", ST, "b", E, "P1$r0m", ST, "c",
        E, "_apc text", ST, "d", E, "^pm text", ST, "e", E, "Xsos text", ST, "f",
        E, "ktitle-k", ST, "g", E, "Ptmux;", E, E, "[31mpassthrough", ST, "h\r\n",
        E, "_", "x" * 300, ST, "i", E, "P", "y" * 5000, ST, "j"])
    add("invalid-utf8", [
        "ok ", b"\x80", " cont ", b"\xbf\xbf", " trunc2 ", b"\xc3", "A trunc3 ", b"\xe4\xb8",
        "B trunc4 ", b"\xf0\x9f\x98", "C\r\n", "overlong ", b"\xc0\xaf", " ", b"\xe0\x80\xaf",
        " surrogate ", b"\xed\xa0\x80", " big ", b"\xf4\x90\x80\x80", " fe ", b"\xfe\xff",
        "\r\n", "five ", b"\xf8\x88\x80\x80\x80", " six ", b"\xfc\x84\x80\x80\x80\x80",
        "\r\n", "mixed ", b"\xe4\xb8\xad\xe4\xb8", "\u6587", b"\xff", "end\r\n",
        "at-end ", b"\xe4"])
    add("huge-params", [
        C, "99999999999999999999C", "a", C, "65536;65536H", "b", C, "1;1H",
        C, "4294967296B", "c", C, "1;1H", C, ";".join(str(i) for i in range(40)), "m", "many",
        C, "0m", C, "5;5H", C, "0000000000000000000001;00000000000000000002H", "z",
        C, "8;1H", C, "99999999999@", "i", C, "9;1H", C, "99999999999L", "L",
        C, "12;1H", "r", C, "99999999999b", C, "14;1H", C, "38;5;99999999999mcol", C, "m",
        C, "15;1H", C, "1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;"
        "26;27;28;29;30;31;32;33;34H", "many-cup", C, "16;1H", C, "-5Cneg"])
    add("c1-bytes", [
        "raw ", b"\x9b31mX", " ", b"\x9d2;t", b"\x9c", " ", b"\x84\x85\x8d", "\r\n",
        "encoded ", "\u009b31mY", " ", "\u0085", " ", "\u008d", " ", "\u0090q", "\u009c",
        "\r\n", "csi8 ", b"\xc2\x9b", "1m", "Z", C, "m"])
    add("modes-on", [C, "?1h", E, "=", C, "?25l", C, "4h", C, "?7l", C, "?1000h", C, "?1006h",
                     C, "?2004h", C, "?1004h", C, "?12h", C, "5;20r", C, "?6h", "modes set"])
    add("modes-off", [C, "?1h", E, "=", C, "?25l", C, "4h", C, "?7l", C, "?1000h", C, "?1006h",
                      C, "?6h", C, "?1l", E, ">", C, "?25h", C, "4l", C, "?7h", C, "?1000l",
                      C, "?1006l", C, "?6l", "modes reset"])
    add("mouse-modes", [C, "?1003h", C, "?1005h", C, "?1006h", "any+sgr ", C, "?1002h", C, "?1003l",
                        "button"])
    add("mouse-1000-off", [C, "?1000h", C, "?1002h", C, "?1000l", C, "?1015h", "x"])
    add("dsr-da-queries", [
        "a", C, "6n", "b", C, "5n", "c", C, "c", "d", C, ">c", "e", C, "=c", "f", C, "?6n", "g",
        C, "18t", "h", C, ">q", "i", C, "?u", "j", OSC, "10;?", BEL, "k", OSC, "4;1;?", ST, "l",
        E, "P$qm", ST, "m", C, "?2026$p", "n", C, "0c", "o", E, "Z", "p"])
    add("control-chars", [
        "bel", BEL, "|nul\x00|enq\x05|del\x7f|vt\x0bx|ff\x0cy|\r\n",
        "can", C, "31\x18m|sub", C, "1\x1am|esc-esc", E, E, "[32mgreen", C, "m|\r\n",
        "in-csi", C, "3\x08C|", "lf-in-csi", C, "1\nB", "\r\n", "cr-in-esc", E, "\r7", "|",
        "bs-at-0\r\x08\x08X"])
    add("wide-cjk", [
        "\u4e2d\u6587\u5b57\u7b26 \u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8 "
        "\uff21\uff22\uff23 \u3042\u3044\u3046\r\n",
        "mixed a\u4e2db\u6587c\r\n", "\u4e2d" * 50, "\r\n",
        C, "6;2H", "x", C, "7;1H", "\u4e2d\u6587", C, "7;2H", "\u5b57", C, "8;1H",
        "\u4e2d\u6587", C, "8;1H", "y", C, "10;1H", "\U0001f600 \U0001f680 \u2615 \u231a"])
    add("wide-last-column", [
        "x" * 79, "\u4e2d", "after\r\n", "x" * 78, "\u4e2d", "after\r\n",
        "x" * 77, "\u4e2d\u6587", "|\r\n", C, "?7l", "x" * 79, "\u4e2d", "nowrap", C, "?7h",
        "\r\n", C, "10;80H", "\u4e2d", C, "12;79H", "\u4e2d", C, "13;80H", "\U0001f600"])
    add("combining", [
        "e\u0301 a\u0300 n\u0303 o\u0308\u0304 x\u0336\u0336\u0336\r\n",
        "\u0301start combining\r\n", "\u4e2d\u0301 wide+comb\r\n",
        "x" * 79, "e\u0301", "\r\n", "x" * 80, "\u0301", "|after wrap\r\n",
        "a\u200bb zero-width-space\r\n", "\u0915\u094d\u0937 devanagari\r\n",
        "e", C, "C", "\u0301 moved\r\n", "\u05e9\u05dc\u05d5\u05dd hebrew"])
    add("emoji-zwj", [
        "family \U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466|\r\n",
        "flag \U0001f1eb\U0001f1f7|\U0001f1ef\U0001f1f5|\r\n",
        "skin \U0001f44d\U0001f3fd|\r\n", "vs16 \u2764\ufe0f| \u263a\ufe0f| vs15 \u2764\ufe0e|\r\n",
        "keycap 1\ufe0f\u20e3|\r\n", "rainbow \U0001f3f3\ufe0f\u200d\U0001f308|\r\n",
        "x" * 78, "\U0001f468\u200d\U0001f469\u200d\U0001f467", "|"])
    add("korean", [
        "\ud55c\uad6d\uc5b4 \ud14d\uc2a4\ud2b8 \uc548\ub155\ud558\uc138\uc694\r\n",
        "jamo \u1112\u1161\u11ab\u1100\u1173\u11af|\r\n",
        "compat \u314e\u314f\u3134|\r\n", "\ud55c" * 41])
    add("history-long", [numbered(300), "".join(
        "long %d " % i + "-" * (50 + i * 17) + "\r\n" for i in range(10)), "tail"])
    add("history-limit-small", [numbered(100)], hist=10)
    add("bce", [C, "44m", C, "2J", C, "H", "blue screen", C, "5;1H", C, "K", C, "41m",
                C, "7;10H", C, "K", C, "9;1H", C, "L", C, "42m", C, "S", C, "12;5H", C, "10X",
                C, "43m", C, "15;1H", C, "J", C, "0m", C, "20;1Hdefault"])
    add("cursor-style", [C, "2 qblock", C, "5 q", C, "?12l", C, "?25l", "hidden", C, "?25h",
                         C, "?25l"])
    add("window-name-title", [E, "kwindow name", ST, OSC, "2;pane title", ST, "x", C, "22;0t",
                              C, "23;0t", "y"])

    long_lines = "".join("%02d " % i + "".join(chr(0x61 + (i + k) % 26) for k in range(30 + i * 9))
                         + "\r\n" for i in range(30))
    add("resize-narrower", [numbered(10), long_lines, "cursor here"], resize=(40, 24))
    add("resize-wider", [numbered(10), long_lines, "cursor here"], cols=40, resize=(100, 24))
    add("resize-shorter", [numbered(23), "bottom line"], resize=(80, 10))
    add("resize-taller", [numbered(60), "prompt$ "], rows=24, resize=(80, 40))
    add("resize-both", [long_lines, "x" * 150], resize=(50, 30))
    add("resize-cursor-mid", [numbered(5), "0123456789" * 15, C, "7;10H"], resize=(30, 24))
    add("resize-alt", [numbered(30), C, "?1049h", C, "H", "alt " * 30, C, "10;10H"],
        resize=(40, 12))
    add("resize-no-history", [long_lines], hist=0, resize=(40, 24))
    add("resize-wide-chars", ["\u4e2d\u6587" * 30, "\r\n", "a" + "\u4e2d" * 45], resize=(41, 24))
    return cs


# ---------------------------------------------------------------- real programs

VIM_FILE = '''#!/usr/bin/env python3
"""A small module to edit."""

import sys


def greet(name):
    """Return a greeting."""
    return "Hello, %s!" % name


class Counter:
    def __init__(self):
        self.n = 0

    def bump(self, by=1):
        self.n += by
        return self.n


def main(argv):
    c = Counter()
    for arg in argv[1:]:
        print(greet(arg))
        c.bump()
    print("greeted", c.n, "people")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''


def long_text():
    out = []
    for i in range(1, 401):
        if i % 37 == 0:
            out.append("%4d  a long line: " % i + " ".join("word%d" % k for k in range(60)))
        elif i % 23 == 0:
            out.append("%4d\tTabbed\tcolumns\there" % i)
        elif i % 29 == 0:
            out.append("%4d  " % i + "".join(c + "\b" + c for c in "BOLD") + " and " +
                       "".join("_\b" + c for c in "underlined") + " text")
        elif i % 50 == 0:
            out.append("%4d  the needle is here" % i)
        else:
            out.append("%4d  lorem ipsum dolor sit amet %s" % (i, "x" * (i % 40)))
    return "\n".join(out) + "\n"


def K(*keys):
    return ("keys", keys)


def L(text):
    return ("literal", text)


def W(seconds):
    return ("sleep", seconds)


def U(text):
    return ("until", text)


def M(suffix):
    """Also save the bytes recorded so far (program idle) as case NAME-SUFFIX."""
    return ("mark", suffix)


# top shows only a few known processes, not whatever runs on this machine
TOP = ("sleep 3001 & a=$!; sleep 3002 & b=$!; sh -c 'sleep 3003' & c=$!; "
       "top -d 1 -p $$,$a,$b,$c; kill $a $b $c")


BASH = "bash --norc --noprofile -i"

PROGRAM_CASES = {
    # name: (cols, rows, shell command, steps, resize)
    "vim-edit": (80, 24, "vim --clean -n notes.py", [
        U("Counter"), K("G"), K("o"), L("# appended by the test"), K("Escape"), K("g", "g"),
        K("5", "j"), K("d", "d"), K("2", "d", "d"), L(":set number"), K("Enter"),
        K("1", "2", "G"), K("x", "x"), K("O"), L("    pass  # new"), K("Escape"),
        K("C-f"), K("C-b"), L("/greet"), K("Enter"), K("n"), M("open"), L(":q!"), K("Enter")],
        None),
    "vim-edit-wide": (220, 80, "vim --clean -n notes.py", [
        U("Counter"), L(":set number"), K("Enter"), K("G"), K("o"), L("x = " + "1 + " * 70 + "1"),
        K("Escape"), K("g", "g"), K("3", "d", "d"), L(":vsplit"), K("Enter"), K("C-w", "l"),
        K("G"), M("open"), L(":q!"), K("Enter"), L(":q!"), K("Enter")], None),
    "less-scroll": (80, 24, "less long.txt", [
        U("lorem"), K("Space"), K("Space"), K("b"), K("j", "j", "j"), K("k"), L("/needle"),
        K("Enter"), K("n"), K("n"), K("N"), K("G"), K("g"), K("3", "7", "g"), M("open"),
        K("q")], None),
    "less-scroll-wide": (220, 80, "less -S long.txt", [
        U("lorem"), K("Space"), K("Right"), K("Left"), L("/long line"), K("Enter"), K("n"),
        K("G"), M("open"), K("q")], None),
    "top": (80, 24, TOP, [W(2.5), K("M"), W(1.5), K("c"), W(1.2), M("open"), K("q")], None),
    "top-wide": (220, 80, TOP, [W(2.5), K("1"), W(1.2), M("open"), K("q")], None),
    "bash-readline": (80, 24, BASH, [
        U("zp$"), L("echo one two three four"), K("C-a"), K("M-f"), K("C-e"), K("M-b"),
        K("M-b"), K("C-w"), K("C-e"), L(" five"), K("Enter"), L("ls -la | wc -l"), K("C-u"),
        L("printf '%s\\n' abc"), K("Enter"), K("Up"), K("Up"), K("C-a"), K("C-k"),
        L("echo again"), K("Enter"), L("echo " + "long " * 30), K("C-a"), K("M-f", "M-f"),
        K("C-w"), K("Enter"), L("exit"), K("Enter")], None),
    "bash-readline-wide": (220, 80, BASH, [
        U("zp$"), L("for i in 1 2 3; do echo $i; done"), K("Enter"), L("echo " + "wide " * 60),
        K("C-a"), K("M-f"), K("M-d"), K("C-e"), K("BSpace", "BSpace"), K("Enter"), K("Up"),
        K("C-u"), L("exit"), K("Enter")], None),
    "ls-color": (80, 24, "ls --color=always -la /usr/bin | head -100", [], None),
    "ls-color-wide": (220, 80, "ls --color=always -la /usr/bin | head -100", [], None),
    "ls-color-resize-narrower": (80, 24, "ls --color=always -la /usr/bin | head -60", [],
                                 (50, 24)),
    "cat-resize-wider": (60, 24, "cat long.txt | head -80", [], (132, 30)),
}

OPTIONAL_PROGRAMS = {"htop": "htop"}


class Recorder:
    def __init__(self, name, cols, rows, command, steps, workdir, out):
        self.name, self.cols, self.rows = name, cols, rows
        self.command, self.steps, self.workdir, self.out = command, steps, workdir, out
        self.marks = {}

    def run(self):
        srv = self._srv = Server("zprec")
        runsh = self.workdir / ("run-%s.sh" % self.name)
        # programs get a small fixed environment so the recording does not
        # depend on the user running the script
        runsh.write_text(
            "T=%s\n$T wait-for go\ncd %s\n"
            "env -i HOME=%s TERM=\"$TERM\" LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin "
            "PS1='zp$ ' HISTFILE= LESSHISTFILE=- SHELL=/bin/bash /bin/sh -c %s\n"
            "$T wait-for -S done\nexec sleep 600\n" % (
                shlex.quote(srv.sh), shlex.quote(str(self.workdir)),
                shlex.quote(str(self.workdir)), shlex.quote(self.command)))
        rec = self.workdir / ("%s.rec" % self.name)
        rec.write_bytes(b"")
        try:
            srv.run("set", "-g", "history-limit", "2000", ";",
                    "set", "-g", "default-shell", "/bin/sh", ";",
                    "set", "-g", "default-terminal", "tmux-256color", ";",
                    "new-session", "-d", "-x", str(self.cols), "-y", str(self.rows), "-s", "c",
                    "sh %s" % shlex.quote(str(runsh)), ";",
                    "pipe-pane", "-O", "-t", "c:", "cat >> %s" % shlex.quote(str(rec)), ";",
                    "wait-for", "-S", "go", start=True)
            for kind, arg in self.steps:
                if kind == "sleep":
                    time.sleep(arg)
                    continue
                if kind == "until":
                    self.wait_text(arg)
                    continue
                if kind == "mark":
                    self.wait_quiet()
                    self.marks[arg] = self.wait_pipe(rec)
                    continue
                self.wait_quiet()
                if kind == "keys":
                    srv.run("send-keys", "-t", "c:", *arg)
                else:
                    srv.run("send-keys", "-t", "c:", "-l", arg)
            srv.run("wait-for", "done", timeout=30)
            self.wait_pipe(rec)
        finally:
            srv.close()
        data = rec.read_bytes()
        # the path of the scratch folder must not end up in the fixture
        if str(self.workdir).encode() in data:
            raise Fatal("%s: recording contains the scratch path" % self.name)
        self.out.write_bytes(data)
        for suffix, n in self.marks.items():
            self.out.with_name("%s-%s.in" % (self.name, suffix)).write_bytes(data[:n])
        return len(data)

    @staticmethod
    def wait_pipe(rec, quiet=0.5):
        """pipe-pane writes asynchronously: wait until the file stops growing."""
        last, since = -1, time.monotonic()
        while time.monotonic() - since < quiet:
            n = rec.stat().st_size
            if n != last:
                last, since = n, time.monotonic()
            time.sleep(0.05)
        return last

    # helpers used while driving the program
    def _screen(self, srv):
        return srv.run("capture-pane", "-p", "-e", "-t", "c:", ";",
                       "display-message", "-p", "-t", "c:", "#{cursor_x},#{cursor_y}")

    def wait_quiet(self, quiet=0.4, timeout=10):
        srv = self._srv
        prev, since, end = None, time.monotonic(), time.monotonic() + timeout
        while time.monotonic() < end:
            cur = self._screen(srv)
            if cur != prev:
                prev, since = cur, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return
            time.sleep(0.05)

    def wait_text(self, text, timeout=15):
        srv = self._srv
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text.encode() in srv.run("capture-pane", "-p", "-t", "c:"):
                self.wait_quiet()
                return
            time.sleep(0.05)
        raise Fatal("%s: %r never appeared" % (self.name, text))


def cmd_record(names, jobs, screens=True):
    syn = synthetic_cases()
    wanted = set(names)
    known = set(syn) | set(PROGRAM_CASES) | set(OPTIONAL_PROGRAMS)
    bad = wanted - known
    if bad:
        raise SystemExit("unknown case(s): %s" % ", ".join(sorted(bad)))
    touched = []
    sdir = FIXTURES / "synthetic"
    sdir.mkdir(parents=True, exist_ok=True)
    if not wanted:
        for old in sdir.glob("*.in"):
            if old.stem not in syn:
                old.unlink()
                old.with_suffix(".json").unlink(missing_ok=True)
    for name, (data, cols, rows, hist, resize) in syn.items():
        if wanted and name not in wanted:
            continue
        p = sdir / (name + ".in")
        changed = not p.exists() or p.read_bytes() != data
        if changed:
            p.write_bytes(data)
            p.with_suffix(".json").unlink(missing_ok=True)
        write_stub(p, cols, rows, hist, resize)
        touched.append(p)
    say("record: synthetic: %d cases" % len([n for n in syn if not wanted or n in wanted]))

    pdir = FIXTURES / "programs"
    pdir.mkdir(parents=True, exist_ok=True)
    for opt, binary in OPTIONAL_PROGRAMS.items():
        if (not wanted or opt in wanted) and not shutil.which(binary):
            say("record: programs/%s skipped: %s is not installed" % (opt, binary))
    cases = {k: v for k, v in PROGRAM_CASES.items() if not wanted or k in wanted}
    if shutil.which("htop") and (not wanted or "htop" in wanted):
        cases["htop"] = (80, 24, "htop -d 5", [W(2.5), K("F6"), W(1), K("Escape"), W(1),
                                               K("q")], None)
    if not wanted:
        expect = set()
        for name, (_, _, _, steps, _) in cases.items():
            expect.add(name)
            expect.update("%s-%s" % (name, a) for k, a in steps if k == "mark")
        for old in pdir.glob("*.in"):
            if old.stem not in expect:
                old.unlink()
                old.with_suffix(".json").unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="zprec") as tmp:
        work = Path(tmp)
        (work / "notes.py").write_text(VIM_FILE)
        (work / "long.txt").write_text(long_text())

        def one(item):
            name, (cols, rows, command, steps, resize) = item
            out = pdir / (name + ".in")
            t = time.monotonic()
            rec = Recorder(name, cols, rows, command, steps, work, out)
            n = rec.run()
            say("record: programs/%s %dx%d %d bytes %.1fs" % (name, cols, rows, n,
                                                              time.monotonic() - t))
            outs = [out] + [pdir / ("%s-%s.in" % (name, sfx)) for sfx in rec.marks]
            for o in outs:
                o.with_suffix(".json").unlink(missing_ok=True)
                write_stub(o, cols, rows, 2000, resize)
            return outs

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(jobs, 2))) as ex:
            for f in [ex.submit(one, it) for it in cases.items()]:
                touched += f.result()
    if screens and touched:
        return cmd_screens([str(p) for p in touched], jobs)
    return 0


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description="Generate the tmux reference screen fixtures.")
    ap.add_argument("-j", "--jobs", type=int, default=4, help="parallel tmux servers (default 4)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    peer_default = os.environ.get("ZP_PEER_DIR", "../shared/peer")
    a = sub.add_parser("import", help="copy the third-party corpora")
    a.add_argument("--peer", default=peer_default)
    a.add_argument("--no-screens", action="store_true")
    a = sub.add_parser("record", help="write synthetic cases, record real programs")
    a.add_argument("--no-screens", action="store_true")
    a.add_argument("cases", nargs="*")
    a = sub.add_parser("screens", help="(re)generate .json files by replaying in tmux")
    a.add_argument("--check", action="store_true",
                   help="compare with the stored .json instead of writing")
    a.add_argument("cases", nargs="*")
    a = sub.add_parser("all", help="import, record, screens")
    a.add_argument("--peer", default=peer_default)
    args = ap.parse_args()

    ver = subprocess.run([TMUX, "-V"], stdout=subprocess.PIPE, text=True).stdout.strip()
    if ver != "tmux 3.3a":
        say("warning: fixtures are defined by tmux 3.3a, found %r" % ver)
    if HOST_PREFIX is None:
        say("warning: cannot pin the host name (needs root and unshare --uts): the default "
            "pane_title will be this machine's name, not %r" % HOSTNAME)
    try:
        if args.cmd == "import":
            return cmd_import(args.peer, args.jobs, not args.no_screens)
        if args.cmd == "record":
            return cmd_record(args.cases, args.jobs, not args.no_screens)
        if args.cmd == "screens":
            return cmd_screens(args.cases, args.jobs, args.check)
        cmd_import(args.peer, args.jobs, screens=False)
        cmd_record([], args.jobs, screens=False)
        return cmd_screens([], args.jobs)
    except Fatal as e:
        say("error: %s" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
