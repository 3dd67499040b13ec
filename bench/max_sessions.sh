#!/bin/bash
# The most idle sessions each server holds on this machine: tmux, then zeropty, each started
# empty and given sessions in batches (BATCH new-session commands chained with `;` per client
# call) until CAP sessions or until a batch fails, whose error is printed. Each session runs
# `printf 'idle N\n'; exec sleep 999999`: one process once the shell has exec'd. tmux is
# expected to stop at the PTY limit (kernel.pty.max, less kernel.pty.reserve outside the
# initial devpts instance, as in a container).
#
#     bench/max_sessions.sh [CAP]      # default 10000
#
# Then, for each server: every session answers has-session (zeropty through the bash builtin,
# one connection; tmux through chained has-session commands), a sample of SAMPLE sessions
# shows exactly what its program printed (capture-pane -p), and the script reports the time
# to create them and to ask every one, the server's CPU (ms) for asking every one and for
# asking every one again, the server's PSS (/proc/PID/smaps_rollup), open
# descriptors and child processes, and the system's MemAvailable drop and Slab growth from
# before the server started (these include the session programs). After kill-server no
# session program may remain.
#
# Needs tmux, and zeropty and zeropty_bash.so built (cargo build --release); ZEROPTY_BIN and
# ZEROPTY_BASH_SO override where they are found. Environment: BATCH (default 50), SAMPLE
# (default 50), SETTLE seconds before measuring (default 3).
set -euo pipefail
cap=${1:-10000}
batch=${BATCH:-50}
sample=${SAMPLE:-50}
settle=${SETTLE:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${ZEROPTY_BIN:-$here/target/release/zeropty}
so=${ZEROPTY_BASH_SO:-$(dirname "$bin")/zeropty_bash.so}
PATH="$(dirname "$bin"):$PATH"
export PATH
work=$(mktemp -d)
export ZEROPTY_TMPDIR=$work TMUX_TMPDIR=$work SHELL=/bin/sh
tmux=(tmux -L maxs -f /dev/null)
cleanup() {
	"${tmux[@]}" kill-server 2>/dev/null || true
	"$bin" kill-server 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
enable -f "$so" zeropty

meminfo() { # FIELD: its value in KiB
	awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo
}
pss() { # PID: its PSS in KiB
	awk '$1 == "Pss:" { print $2 }' "/proc/$1/smaps_rollup"
}
cpu_ms() { # PID: its user and system CPU so far, ms (fields counted after the command name,
	# which may hold spaces: "tmux: server")
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%d\n", ($12 + $13) * 1000 / hz }' "/proc/$1/stat"
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
seconds() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); } # MS as seconds

# create RUN...: adds sessions s0, s1, ... up to CAP in batches; prints the number the server
# holds, and the first error line to stderr when a batch failed.
create() {
	local i=0 j args err=$work/create.err
	while ((i < cap)); do
		args=()
		for ((j = i; j < i + batch && j < cap; j++)); do
			args+=(new-session -d -s "s$j" -x 80 -y 24 "printf 'idle $j\n'; exec sleep 999999" \;)
		done
		unset 'args[-1]'
		if ! "$@" "${args[@]}" 2>"$err"; then
			echo "stopped: $(head -1 "$err")" >&2
			break
		fi
		i=$j
	done
	"$@" list-sessions 2>/dev/null | wc -l
}

# answers_all N RUN...: how many of s0..s(N-1) answer has-session, in chains of 200.
answers_all() {
	local n=$1 i j ok=0 args
	shift
	for ((i = 0; i < n; i += 200)); do
		args=()
		for ((j = i; j < i + 200 && j < n; j++)); do
			args+=(has-session -t "=s$j" \;)
		done
		unset 'args[-1]'
		"$@" "${args[@]}" && ok=$((ok + j - i))
	done
	echo "$ok"
}

# answers_builtin N: the same through the bash builtin, one request per session.
answers_builtin() {
	local n=$1 i ok=0
	for ((i = 0; i < n; i++)); do
		zeropty has-session -t "=s$i" && ok=$((ok + 1))
	done
	echo "$ok"
}

# answers NAME N RUN...: how many of s0..s(N-1) answer, asked as NAME's server is asked.
answers() {
	local name=$1 n=$2
	shift 2
	if [ "$name" = zeropty ]; then
		answers_builtin "$n"
	else
		answers_all "$n" "$@"
	fi
}

# captures N RUN...: how many of SAMPLE sessions spread over s0..s(N-1) show exactly
# "idle K" as their screen.
captures() {
	local n=$1 k step i good=0 got
	shift
	step=$(((n + sample - 1) / sample))
	((step > 0)) || step=1
	for ((k = 0; k < n; k += step)); do
		i=$k
		got=$("$@" capture-pane -p -t "=s$i:" || true)
		[ "$got" = "idle $i" ] && good=$((good + 1))
	done
	echo "$good/$(((n + step - 1) / step))"
}

# measure NAME RUN...: prints one result line for NAME's server.
measure() {
	local name=$1 n pid t0 t1 t2 avail0 slab0 pss_kb fds procs answered shown left
	shift
	sync
	sleep 1
	avail0=$(meminfo MemAvailable)
	slab0=$(meminfo Slab)
	t0=$(now_ms)
	n=$(create "$@")
	t1=$(now_ms)
	local create_ms=$((t1 - t0))
	pid=$("$@" display-message -p '#{pid}')
	sleep "$settle"
	pss_kb=$(pss "$pid")
	fds=$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 | wc -l)
	procs=$(ps --ppid "$pid" -o pid= | wc -l)
	local avail_kb=$((avail0 - $(meminfo MemAvailable)))
	local slab_kb=$(($(meminfo Slab) - slab0))
	t1=$(now_ms)
	local c0 c1 c2
	c0=$(cpu_ms "$pid")
	answered=$(answers "$name" "$n" "$@")
	t2=$(now_ms)
	c1=$(cpu_ms "$pid")
	# Asked again: what the server spends per command once it has answered each session.
	answers "$name" "$n" "$@" >/dev/null
	c2=$(cpu_ms "$pid")
	shown=$(captures "$n" "$@")
	local programs
	programs=$(ps --ppid "$pid" -o pid=)
	"$@" kill-server
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	left=0
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		left=0
		for p in $programs; do
			if kill -0 "$p" 2>/dev/null; then left=$((left + 1)); fi
		done
		((left == 0)) && break
		sleep 0.5
	done
	printf '%-8s %8s %8s %8s %8s %9s %9s %8s %8s %8s %8s %12s %8s\n' "$name" "$n" \
		"$(seconds "$create_ms")" "$answered" "$(seconds $((t2 - t1)))" "$((c1 - c0))" \
		"$((c2 - c1))" "$shown" "$pss_kb" "$fds" "$procs" "$avail_kb" "$slab_kb"
	((left == 0)) || echo "bench/max_sessions.sh: $name: $left session programs left behind" >&2
	[ "$answered" = "$n" ] || echo "bench/max_sessions.sh: $name: only $answered of $n answered" >&2
}

echo "limits: open files soft $(ulimit -Sn) hard $(ulimit -Hn), pid_max $(cat /proc/sys/kernel/pid_max)," \
	"pty.max $(cat /proc/sys/kernel/pty/max), pty.reserve $(cat /proc/sys/kernel/pty/reserve);" \
	"cap $cap, batches of $batch"
printf '%-8s %8s %8s %8s %8s %9s %9s %8s %8s %8s %8s %12s %8s\n' server sessions create_s \
	answered answer_s answer_ms again_ms captured PSS_KiB fds children MemAvail-KiB Slab+KiB
measure tmux "${tmux[@]}"
measure zeropty "$bin"
