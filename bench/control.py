#!/usr/bin/env python3
"""Control mode (`-C`) against tmux's: command throughput and keystroke-to-output latency.

For each session count N, a tmux server and a zeropty server each get N sessions running a
raw `cat` (every key echoes back as output) and one control client attached to the first.
Then, in alternating rounds (who goes first rotates):

- throughput: LINES command lines written at once (`display -p x`; `send-keys -l x`;
  `select-window -t :0`, which makes the server compare what changed), timed until every
  `%end` is back; microseconds per command;
- latency: `send-keys -l x` written one at a time, each timed until its `%output` arrives;
  p50 and p95 in microseconds.

Prints medians over the rounds and tmux / zeropty (above 1: zeropty is faster).

    bench/control.py [--rounds 5] [--lines 5000] [--keys 300] [N ...]   # default N: 1 1000

Needs tmux and zeropty built (cargo build --release); ZEROPTY_BIN overrides where it is.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ZEROPTY = os.environ.get("ZEROPTY_BIN", os.path.join(HERE, "target/release/zeropty"))
THROUGHPUT = ["display -p x", "send-keys -l x", "select-window -t :0"]


class Server:
    def __init__(self, name, binary, sessions, work):
        self.name, self.binary, self.label = name, binary, "ctlbench"
        self.env = dict(os.environ, TMUX_TMPDIR=work, ZEROPTY_TMPDIR=work)
        self.env.pop("TMUX", None)
        self.env.pop("ZEROPTY_PANE", None)
        program = "stty raw -echo; exec cat"
        self.run("-f/dev/null", "new-session", "-d", "-s", "s0", "-x", "80", "-y", "24", program)
        for first in range(1, sessions, 50):
            args = []
            for i in range(first, min(first + 50, sessions)):
                args += ["new-session", "-d", "-s", f"s{i}", program, ";"]
            self.run(*args)
        time.sleep(1)
        self.client = subprocess.Popen(
            [binary, "-L", self.label, "-C", "attach", "-t", "s0"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=self.env)
        self.ends(1)

    def run(self, *args):
        subprocess.run([self.binary, "-L", self.label, *args], env=self.env, check=True,
                       stdout=subprocess.DEVNULL)

    def ends(self, count):
        """Reads until `count` command blocks have ended."""
        seen = 0
        while seen < count:
            line = self.client.stdout.readline()
            if not line:
                sys.exit(f"{self.name}: the control client ended")
            if line.startswith((b"%end ", b"%error ")):
                seen += 1

    def throughput(self, command, lines):
        start = time.perf_counter()
        self.client.stdin.write((command + "\n").encode() * lines)
        self.client.stdin.flush()
        self.ends(lines)
        return (time.perf_counter() - start) * 1e6 / lines

    def latency(self, keys):
        samples = []
        for _ in range(keys):
            start = time.perf_counter()
            self.client.stdin.write(b"send-keys -l x\n")
            self.client.stdin.flush()
            while not self.client.stdout.readline().startswith(b"%output %0 x"):
                pass
            samples.append((time.perf_counter() - start) * 1e6)
        samples.sort()
        return samples[len(samples) // 2], samples[len(samples) * 95 // 100]

    def stop(self):
        self.client.stdin.close()
        self.client.wait()
        subprocess.run([self.binary, "-L", self.label, "kill-server"], env=self.env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--keys", type=int, default=300)
    ap.add_argument("sessions", type=int, nargs="*", default=[1, 1000])
    a = ap.parse_args()
    for n in a.sessions:
        with tempfile.TemporaryDirectory() as work:
            servers = [Server("tmux", "tmux", n, work), Server("zeropty", ZEROPTY, n, work)]
            results = {}
            for r in range(a.rounds):
                for s in servers[r % 2:] + servers[:r % 2]:
                    for command in THROUGHPUT:
                        results.setdefault((s.name, command), []).append(
                            s.throughput(command, a.lines))
                    p50, p95 = s.latency(a.keys)
                    results.setdefault((s.name, "p50"), []).append(p50)
                    results.setdefault((s.name, "p95"), []).append(p95)
            for s in servers:
                s.stop()
        print(f"{n} sessions, {a.rounds} rounds (medians):")
        rows = [(c, f"us per `{c}`") for c in THROUGHPUT]
        rows += [("p50", "send-keys to %output p50, us"), ("p95", "send-keys to %output p95, us")]
        for key, title in rows:
            t = statistics.median(results[("tmux", key)])
            z = statistics.median(results[("zeropty", key)])
            print(f"  {title:36} tmux {t:8.1f}  zeropty {z:8.1f}  {t / z:5.2f}x")


if __name__ == "__main__":
    main()
