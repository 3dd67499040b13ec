#!/bin/bash
# Command latency from bash: the tmux program, the zeropty program and the zeropty bash
# builtin, each timed per call (the call returns once its answer is back) on has-session,
# send-keys -l and capture-pane -p -S -2000, in alternating rounds on one machine.
# Prints p50 and p95 in microseconds and each one's ratio to tmux's (tmux / it, by p50).
#
#     bench/shell.sh [ROUNDS] [CALLS]      # defaults: 5 rounds of 200 calls per command
#
# Needs tmux, and zeropty and zeropty_bash.so built (cargo build --release); ZEROPTY_BIN
# and ZEROPTY_BASH_SO override where they are found. Every key sent is checked at the end
# with capture-pane: a run where one went missing fails.
set -euo pipefail
rounds=${1:-5}
calls=${2:-200}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${ZEROPTY_BIN:-$here/target/release/zeropty}
so=${ZEROPTY_BASH_SO:-$here/target/release/zeropty_bash.so}
PATH="$(dirname "$bin"):$PATH"
export PATH
work=$(mktemp -d)
export ZEROPTY_TMPDIR=$work TMUX_TMPDIR=$work
trap 'tmux -L bench kill-server 2>/dev/null; "$bin" kill-server 2>/dev/null; rm -rf "$work"' EXIT
enable -f "$so" zeropty

tmux_program() { tmux -L bench "$@"; }
zeropty_program() { "$bin" "$@"; }
# The builtin is timed as scripts call it: `zeropty ...`, with no wrapper around it.
clients=(tmux_program zeropty_program zeropty)

# Each client gets a raw `cat` to type into (every key shows on its screen) and a screen with
# 2000 lines of history to capture.
for c in "${clients[@]}"; do
	$c new-session -d -s "keys-$c" -x 200 -y 50 "stty raw -echo; cat"
	$c new-session -d -s "history-$c" -x 80 -y 24 "seq 1 2100; exec sleep 100000"
done
sleep 1

declare -A samples
# time_calls CLIENT NAME ARGS...: CALLS timed calls; microseconds appended to samples.
time_calls() {
	local client=$1 name=$2 i t0 t1 out=""
	shift 2
	for ((i = 0; i < calls; i++)); do
		t0=${EPOCHREALTIME/./}
		"$client" "$@" >/dev/null
		t1=${EPOCHREALTIME/./}
		out+="$((t1 - t0)) "
	done
	samples[$client.$name]+=$out
}

for ((round = 0; round < rounds; round++)); do
	# Rotate who goes first, so no client always meets a warmer or cooler machine.
	for ((k = 0; k < ${#clients[@]}; k++)); do
		c=${clients[(round + k) % ${#clients[@]}]}
		time_calls "$c" has-session has-session -t "keys-$c"
		time_calls "$c" send-keys send-keys -t "keys-$c" -l x
		time_calls "$c" capture-pane capture-pane -p -t "history-$c" -S -2000
	done
done

# Every key arrived: each client's cat shows rounds x calls x's.
want=$((rounds * calls))
for c in "${clients[@]}"; do
	got=$($c capture-pane -p -J -S - -t "keys-$c" | tr -cd x | wc -c)
	if [ "$got" -ne "$want" ]; then
		echo "bench/shell.sh: $c: $got of $want keys arrived" >&2
		exit 1
	fi
done

percentile() { # P: the P-th percentile of the numbers on standard input
	sort -n | awk -v p="$1" '{ v[NR] = $1 } END { i = int((NR - 1) * p / 100) + 1; print v[i] }'
}
echo "bash $BASH_VERSION, $rounds rounds x $calls calls, microseconds per call (ratio: tmux p50 / p50)"
printf '%-16s %-14s %8s %8s %8s\n' client command p50 p95 ratio
for name in has-session send-keys capture-pane; do
	base=$(tr ' ' '\n' <<<"${samples[tmux_program.$name]}" | grep . | percentile 50)
	for c in "${clients[@]}"; do
		list=$(tr ' ' '\n' <<<"${samples[$c.$name]}" | grep .)
		p50=$(percentile 50 <<<"$list")
		p95=$(percentile 95 <<<"$list")
		printf '%-16s %-14s %8d %8d %7.1fx\n' "$c" "$name" "$p50" "$p95" \
			"$(awk -v a="$base" -v b="$p50" 'BEGIN { print a / b }')"
	done
done
echo "all $want keys arrived for each client"
