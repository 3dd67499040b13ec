#!/bin/bash
# How fast a program writes when zeropty puts off reading quiet sessions: one session runs a
# writer that times itself (from before its first write to after its last), under tmux and
# under zeropty alternately, ROUNDS times (default 2). Each round prints the writer's time,
# the server's CPU time meanwhile, and the whole machine's (every core's, so the writer's own
# and the kernel's work for tmux's PTY count too), in ms. Writers:
#
#   seq     seq 1 200000: a line per write under a line-buffered terminal
#   python  Python's print(i, flush=True) 100,000 times: a write per 6-byte line
#   cat     cat of the 5.4 MB coloured log (examples/gen_colour_log): large writes
#   prompt  a prompt, 50 ms of quiet, then seq 1 200000 (timed): a program that floods its
#           terminal right after a little output, as a command run from a shell does
#   blank   a prompt, 50 ms of quiet, then 100,000 empty lines from Python, a write each
#           (timed): the flood of the shortest writes, which fills a socket with the fewest
#           bytes (zeropty's known slow case, see src/engine/reads.rs)
#
#     bench/line_writer.sh [seq|python|cat|prompt|blank ...]     # default: all five
#
# BESIDE=N runs N sessions beside the writer's, each redrawing a frame a second
# (bench/replay.c redraw, at phases spread over the second), started 2 s before it: a writer
# that starts while many programs nobody waits on report their frames, whose reports zeropty
# gathers (src/server.rs, GATHER_MS).
#
# Needs tmux, python3, gcc, and zeropty built (cargo build --release --bins --examples).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${ZEROPTY_BIN:-$here/target/release/zeropty}
rounds=${ROUNDS:-2}
beside=${BESIDE:-0}
work=$(mktemp -d)
export ZEROPTY_TMPDIR=$work TMUX_TMPDIR=$work
trap 'tmux -L lw kill-server 2>/dev/null; "$bin" -L lw kill-server 2>/dev/null; rm -rf "$work"' EXIT
"$(dirname "$bin")/examples/gen_colour_log" "$work/colour.log" >/dev/null
if ((beside > 0)); then
	gcc -O2 -Wall -Wextra -Werror -o "$work/replay" "$here/bench/replay.c"
fi

# on SERVER ARGS...: runs a command of SERVER's program against the bench's server.
on() {
	case $1 in
	tmux) tmux -L lw -f /dev/null "${@:2}" ;;
	zeropty) "$bin" -L lw -f /dev/null "${@:2}" ;;
	esac
}

# start_beside SERVER: starts the BESIDE sessions, 50 to a command, and lets them run 2 s.
start_beside() {
	local i args=()
	((beside > 0)) || return 0
	for ((i = 0; i < beside; i++)); do
		((i % 50 == 0)) || args+=(';')
		args+=(new-session -d -s "b$i" -x 220 -y 80 "exec $work/replay redraw $(printf '0.%03d' $((i * 618 % 1000)))")
		if ((i % 50 == 49 || i == beside - 1)); then
			on "$1" "${args[@]}"
			args=()
		fi
	done
	sleep 2
}

writer() { # KIND: the command that writes
	case $1 in
	seq | prompt) echo "seq 1 200000" ;;
	python) echo "python3 -c 'for i in range(100000): print(i, flush=True)'" ;;
	cat) echo "cat $work/colour.log" ;;
	blank) printf '%s\n' "python3 -c 'import os; [os.write(1, b\"\\n\") for i in range(100000)]'" ;;
	esac
}

# cpu_ms PID: the process's CPU time so far (user and system), in ms.
cpu_ms() {
	local stat
	stat=$(cat "/proc/$1/stat")
	stat=${stat##*) }
	read -ra fields <<<"$stat"
	echo $(((fields[11] + fields[12]) * 1000 / $(getconf CLK_TCK)))
}

# machine_ms: the CPU time every core has spent at work so far (user, nice, system, irq and
# softirq), in ms: with a PTY, part of tmux's work is done by the kernel's worker threads,
# which its own CPU time does not show.
machine_ms() {
	local fields
	read -ra fields </proc/stat
	echo $(((fields[1] + fields[2] + fields[3] + fields[6] + fields[7]) * 1000 / $(getconf CLK_TCK)))
}

# run SERVER KIND: prints the writer's own time, the server's CPU meanwhile and the
# machine's, in ms, as WRITER/SERVER/MACHINE. The server is started before the writer (with
# the BESIDE sessions, or an idle one), so its own start is not counted.
run() {
	local out=$work/took cmd pid cpu machine
	rm -f "$out"
	cmd=""
	case $2 in prompt | blank) cmd="printf '\$ '; sleep 0.05; " ;; esac
	cmd+="s=\$(date +%s%N); $(writer "$2"); e=\$(date +%s%N); echo \$(((e - s) / 1000000)) >$out; exec sleep 100"
	start_beside "$1"
	((beside > 0)) || on "$1" new-session -d -s idle "exec sleep 100"
	pid=$(on "$1" display-message -p '#{pid}')
	cpu=$(cpu_ms "$pid")
	machine=$(machine_ms)
	on "$1" new-session -d -x 220 -y 80 "$cmd"
	while [ ! -s "$out" ]; do sleep 0.05; done
	echo "$(cat "$out")/$(($(cpu_ms "$pid") - cpu))/$(($(machine_ms) - machine))"
	on "$1" kill-server
}

[ $# -gt 0 ] || set -- seq python cat prompt blank
echo "bench/line_writer.sh $*: $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $beside sessions beside"
echo "writer's own time / the server's CPU / the machine's CPU until it is done, ms, per round (tmux first in each round)"
for kind in "$@"; do
	t=() z=()
	for ((i = 0; i < rounds; i++)); do
		t+=("$(run tmux "$kind")")
		z+=("$(run zeropty "$kind")")
	done
	printf '%-7s tmux %s   zeropty %s\n' "$kind" "${t[*]}" "${z[*]}"
done
