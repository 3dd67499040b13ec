#!/bin/bash
# What N quiet sessions cost: tmux and zeropty, one after the other on this machine, each
# holding N sessions (220x80) that printed one realistic agent screen (the last screen of
# ../shared/traces/claude-a.cast, with its colours) and then sleep. For each server: its
# proportional set size (PSS, /proc/PID/smaps_rollup), the drop in the system's MemAvailable
# and the growth of its Slab (PTYs and sockets cost kernel memory) from before the server
# started, and the server's CPU time over a quiet window. Ratios are tmux / zeropty.
#
#     bench/scale.sh [N ...]          # default: 200; e.g. bench/scale.sh 200 400 1000
#
# Needs tmux, and zeropty built (cargo build --release --examples).
# Environment: WINDOW seconds of CPU sampling (default 10), SETTLE seconds before measuring
# (default 5).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${ZEROPTY_BIN:-$here/target/release/zeropty}
render=$here/target/release/examples/render
window=${WINDOW:-10}
settle=${SETTLE:-5}
work=$(mktemp -d)
export ZEROPTY_TMPDIR=$work TMUX_TMPDIR=$work
trap 'tmux -L scale kill-server 2>/dev/null; "$bin" kill-server 2>/dev/null; rm -rf "$work"' EXIT

screen=$work/screen.ans
"$render" --size 220x80 -e "$here/../shared/traces/claude-a.cast" >"$screen"
program="cat $screen; exec sleep 1000000"

meminfo() { # FIELD: its value in KiB
	awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo
}
pss() { # PID: its PSS in KiB
	awk '$1 == "Pss:" { print $2 }' "/proc/$1/smaps_rollup"
}
cpu_ticks() { # PID: user + system clock ticks so far
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# measure NAME N: starts NAME's server with N sessions, prints "pss avail slab cpu_ms".
measure() {
	local name=$1 n=$2 run pid i avail0 slab0 t0 t1
	case $name in
	tmux) run=(tmux -L scale -f /dev/null) ;;
	zeropty) run=("$bin") ;;
	esac
	sync
	sleep 1
	avail0=$(meminfo MemAvailable)
	slab0=$(meminfo Slab)
	for ((i = 0; i < n; i++)); do
		"${run[@]}" new-session -d -s "s$i" -x 220 -y 80 "$program"
	done
	pid=$("${run[@]}" display-message -p '#{pid}')
	sleep "$settle"
	local pss_kb avail_kb slab_kb
	pss_kb=$(pss "$pid")
	avail_kb=$((avail0 - $(meminfo MemAvailable)))
	slab_kb=$(($(meminfo Slab) - slab0))
	t0=$(cpu_ticks "$pid")
	sleep "$window"
	t1=$(cpu_ticks "$pid")
	# Every session shows its screen: the last line of the trace's screen is on each.
	local want got
	want=$(grep -c . "$screen" || true)
	got=$("${run[@]}" capture-pane -p -t "s$((n - 1))" | grep -c . || true)
	if [ "$got" -ne "$want" ]; then
		echo "bench/scale.sh: $name: session s$((n - 1)) shows $got lines, not $want" >&2
		exit 1
	fi
	"${run[@]}" kill-server
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	echo "$pss_kb $avail_kb $slab_kb $(((t1 - t0) * 1000 / $(getconf CLK_TCK)))"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }

echo "idle: N sessions, one agent screen each, then quiet; KiB and CPU ms over ${window}s"
printf '%6s %-8s %10s %14s %10s %8s\n' N server PSS MemAvailable- Slab+ CPU
for n in "${@:-200}"; do
	read -r tp ta ts tc <<<"$(measure tmux "$n")"
	read -r zp za zs zc <<<"$(measure zeropty "$n")"
	printf '%6s %-8s %10s %14s %10s %8s\n' "$n" tmux "$tp" "$ta" "$ts" "$tc"
	printf '%6s %-8s %10s %14s %10s %8s\n' "$n" zeropty "$zp" "$za" "$zs" "$zc"
	printf '%6s %-8s %10s %14s %10s %8s\n' "$n" ratio "$(ratio "$tp" "$zp")" \
		"$(ratio "$ta" "$za")" "$(ratio "$ts" "$zs")" "$(ratio "$tc" "$zc")"
done
