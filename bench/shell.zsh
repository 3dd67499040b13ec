#!/usr/bin/env zsh
# Command latency from zsh: the tmux program, the zeropty program and the zeropty zsh
# function (shell/zeropty.zsh), each timed per call (the call returns once its answer is
# back) on has-session, send-keys -l and capture-pane -p -S -2000, in alternating rounds on
# one machine. Prints p50 and p95 in microseconds and each one's ratio to tmux's (tmux / it,
# by p50). The bash builtin's numbers come from bench/shell.sh.
#
#     bench/shell.zsh [ROUNDS] [CALLS]     # defaults: 5 rounds of 200 calls per command
#
# Needs tmux and zeropty built (cargo build --release); ZEROPTY_BIN overrides where it is
# found. Every key sent is checked at the end with capture-pane: a run where one went
# missing fails.
emulate -L zsh
zmodload zsh/mathfunc
setopt err_exit pipe_fail
zmodload zsh/datetime
integer rounds=${1:-5} calls=${2:-200}
here=${0:A:h:h}
bin=${ZEROPTY_BIN:-$here/target/release/zeropty}
path=(${bin:h} $path)
work=$(mktemp -d)
export ZEROPTY_TMPDIR=$work TMUX_TMPDIR=$work
trap 'tmux -L bench kill-server 2>/dev/null; $bin kill-server 2>/dev/null; rm -rf $work' EXIT
source $here/shell/zeropty.zsh

tmux_program() { tmux -L bench "$@" }
zeropty_program() { $bin "$@" }
# The function is timed as scripts call it: `zeropty ...`, with no wrapper around it.
clients=(tmux_program zeropty_program zeropty)

# Each client gets a raw `cat` to type into (every key shows on its screen) and a screen with
# 2000 lines of history to capture.
for c in $clients; do
	$c new-session -d -s keys-$c -x 200 -y 50 "stty raw -echo; cat"
	$c new-session -d -s history-$c -x 80 -y 24 "seq 1 2100; exec sleep 100000"
done
sleep 1

typeset -A samples
# time_calls CLIENT NAME ARGS...: CALLS timed calls; microseconds appended to samples.
time_calls() {
	local client=$1 name=$2 out= t0 t1
	integer i
	shift 2
	for (( i = 0; i < calls; i++ )); do
		t0=$EPOCHREALTIME
		$client "$@" >/dev/null
		t1=$EPOCHREALTIME
		out+="$(( int((t1 - t0) * 1e6) )) "
	done
	samples[$client.$name]+=$out
}

integer round k
for (( round = 0; round < rounds; round++ )); do
	# Rotate who goes first, so no client always meets a warmer or cooler machine.
	for (( k = 0; k < $#clients; k++ )); do
		c=$clients[$(( (round + k) % $#clients + 1 ))]
		time_calls $c has-session has-session -t keys-$c
		time_calls $c send-keys send-keys -t keys-$c -l x
		time_calls $c capture-pane capture-pane -p -t history-$c -S -2000
	done
done

# Every key arrived: each client's cat shows rounds x calls x's.
integer want=$(( rounds * calls )) got
for c in $clients; do
	got=$($c capture-pane -p -J -S - -t keys-$c | tr -cd x | wc -c)
	if (( got != want )); then
		print -u2 "bench/shell.zsh: $c: $got of $want keys arrived"
		exit 1
	fi
done

# percentile P NUMBERS...: the P-th percentile.
percentile() {
	local p=$1; shift
	local -a sorted=(${(n)@})
	print $sorted[$(( (${#sorted} - 1) * p / 100 + 1 ))]
}
print "zsh $ZSH_VERSION, $rounds rounds x $calls calls, microseconds per call (ratio: tmux p50 / p50)"
printf '%-16s %-14s %8s %8s %8s\n' client command p50 p95 ratio
for name in has-session send-keys capture-pane; do
	base=$(percentile 50 ${=samples[tmux_program.$name]})
	for c in $clients; do
		p50=$(percentile 50 ${=samples[$c.$name]})
		p95=$(percentile 95 ${=samples[$c.$name]})
		printf '%-16s %-14s %8d %8d %7.1fx\n' $c $name $p50 $p95 $(( base * 1.0 / p50 ))
	done
done
print "all $want keys arrived for each client"
