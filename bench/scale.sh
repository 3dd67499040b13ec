#!/bin/bash
# What N sessions cost under tmux and under zeropty, run alternately on this machine with the
# same session programs (bench/replay.c, compiled here with gcc) and the same workloads:
#
#   idle    one realistic agent screen (the last screen of ../shared/traces/claude-a.cast, in
#           colour), then quiet
#   redraw  a 31-line live region redrawn every second (about 5 KB a frame), nothing scrolls
#   clear   the same, each frame starting by clearing the screen (ESC[H ESC[2J): both servers,
#           like tmux 3.3a, move a cleared screen into history, so the 78 lines down to the
#           region's last go into it every second and it is full (2000 lines) after 26 s
#   dump    a 15 KB transcript (the start of claude-a.cast's history) re-sent every 2 s, after
#           clearing the screen
#   cast    the recordings in ../shared/traces/ replayed at their recorded pace and looped:
#           even sessions play claude-a.cast, odd ones the others in turn; session i starts at
#           the (i x 0.618 mod 1) point of its recording
#   bulk    one session writes a 5.4 MB, 60,000-line coloured log (examples/gen_colour_log):
#           the time until the writer has written it all, with nothing reading the screen,
#           and, in separate runs, the time until capture-pane shows its last line
#
# For each workload and N, sessions are 220x80 and every measure is of one server holding
# the N sessions, taken after they settle: its PSS (/proc/PID/smaps_rollup) plus what any
# memfd it holds has allocated (zeropty's store of compressed quiet screens), the mean of
# samples taken every second over the window, the system's MemAvailable drop and Slab growth
# from before the server started (PTYs and sockets cost kernel memory), at the window's
# opening, and over a window of WINDOW seconds the server's CPU and the session
# programs' output rate (wchar in /proc/PID/io) and CPU, and what the server read (rchar: its
# programs' output and its clients' requests). Ratios are tmux / zeropty, from the
# medians over ROUNDS rounds; a CPU ratio is printed only when both servers' programs wrote
# at the same rate (the larger within TOLERANCE percent of the smaller), as "n/c" otherwise.
# zeropty's screens at the window's end (how many hot, frozen, cold, and their average
# #{pane_memory}) go to stderr. With more than one N, what each session beyond the first N
# given costs follows: give the smallest first (1 measures it beyond a server with one
# session, without the process floor).
#
#     bench/scale.sh [WORKLOAD ...] [N ...]   # default: all six workloads at N = 200
#     bench/scale.sh idle redraw 200 400 1000
#     ROUNDS=3 bench/scale.sh bulk            # bulk takes no N
#
# Needs tmux, gcc, and zeropty built: cargo build --release --bins --examples (the program,
# examples/render, examples/gen_colour_log and, for BULK_POLL=builtin, zeropty_bash.so).
# Environment: ZEROPTY_BIN (default target/release/zeropty; the examples are looked for
# beside it), BASE (another zeropty program to run in tmux's place: compares two builds), WINDOW seconds of sampling (10), START_MS milliseconds allowed per session
# to start (10): the programs' schedules start N x START_MS after the first session, SETTLE
# seconds after that the measures are taken and the window opens (5; dump: 35, until its
# history is full; clear: 30), ROUNDS (1; bulk: 5), TOLERANCE percent (5), BATCH sessions started per
# command (50), BULK_POLL: how the bulk timing polls capture-pane, "program" (each server's
# own program, one process per poll, the default) or "builtin" (zeropty through its bash
# builtin; tmux still through its program), SYSCALLS (set: count the server's system calls
# over the window with strace -c and print them to stderr; tracing slows the servers, so such
# a run's CPU figures are not comparable with others), PERF (a directory: record each server's
# profile over the window with perf record -g into DIR/SERVER-WORKLOAD-N.data; like SYSCALLS,
# it slows the servers).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${ZEROPTY_BIN:-$here/target/release/zeropty}
bindir=$(cd "$(dirname "$bin")" && pwd)
so=${ZEROPTY_BASH_SO:-$bindir/zeropty_bash.so}
render=$bindir/examples/render
gen_log=$bindir/examples/gen_colour_log
traces=$here/../shared/traces
window=${WINDOW:-10}
# Both servers, like tmux 3.3a (scroll-on-clear), move a cleared screen into history, so each
# dump adds 128 lines to it: it is full (2000 lines) after 16 dumps, 32 s.
settle_for() { # WORKLOAD
	if [ -n "${SETTLE:-}" ]; then
		echo "$SETTLE"
	elif [ "$1" = dump ]; then
		echo 35
	elif [ "$1" = clear ]; then
		echo 30
	else
		echo 5
	fi
}
tolerance=${TOLERANCE:-5}
batch=${BATCH:-50}
start_ms=${START_MS:-10}
bulk_poll=${BULK_POLL:-program}
clk_tck=$(getconf CLK_TCK)
sock=zpscale
# The reference server: tmux, or with BASE another zeropty build, to compare two builds.
base_bin=${BASE:-}
ref=tmux
[ -z "$base_bin" ] || ref=base

workloads=() counts=()
for a in "$@"; do
	case $a in
	idle | redraw | clear | dump | cast | bulk) workloads+=("$a") ;;
	*[!0-9]* | '') echo "usage: bench/scale.sh [idle|redraw|clear|dump|cast|bulk ...] [N ...]" >&2 && exit 2 ;;
	*) counts+=("$a") ;;
	esac
done
[ ${#workloads[@]} -gt 0 ] || workloads=(idle redraw clear dump cast bulk)
[ ${#counts[@]} -gt 0 ] || counts=(200)

work=$(mktemp -d)
export ZEROPTY_TMPDIR=$work TMUX_TMPDIR=$work
replay=$work/replay

# Session programs are found by their executable, which lives only in $work, so cleaning up
# never reaches anyone else's processes.
our_programs() {
	find /proc -mindepth 2 -maxdepth 2 -name exe -lname "$replay" 2>/dev/null |
		awk -F/ '{ print $3 }'
}
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	"$bin" -L "$sock" kill-server 2>/dev/null || true
	sleep 0.5
	local left
	mapfile -t left < <(our_programs)
	[ ${#left[@]} -eq 0 ] || kill "${left[@]}" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

gcc -O2 -Wall -Wextra -Werror -o "$replay" "$here/bench/replay.c"

# The inputs, made once. The screens come from the recordings through examples/render, with
# CR LF line ends because the programs write in raw mode (no output processing) like the
# recorded agents.
screen=$work/screen.ans
"$render" --size 220x80 -e "$traces/claude-a.cast" | sed 's/$/\r/' >"$screen"
transcript=$work/transcript.ans
"$render" --size 220x80 -e -S -2000 "$traces/claude-a.cast" | head -c 15000 | sed '$d' |
	sed 's/$/\r/' >"$transcript"
casts=("$work/claude-a.rc")
"$replay" compile "$traces/claude-a.cast" "$work/claude-a.rc"
for c in "$traces"/*.cast; do
	[ "$(basename "$c")" != claude-a.cast ] || continue
	"$replay" compile "$c" "$work/$(basename "$c" .cast).rc"
	casts+=("$work/$(basename "$c" .cast).rc")
done

meminfo() { # FIELD: its value in KiB
	awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo
}
pss() { # PID: its PSS in KiB
	awk '$1 == "Pss:" { print $2 }' "/proc/$1/smaps_rollup"
}
memfd_kb() { # PID: KiB allocated by the memfds it holds open
	local fds
	fds=$(find "/proc/$1/fd" -lname '/memfd:*' 2>/dev/null)
	if [ -z "$fds" ]; then
		echo 0
		return
	fi
	# shellcheck disable=SC2086 # one path a word; /proc paths have no spaces
	stat -L -c '%b %B' $fds | awk '{ s += $1 * $2 } END { printf "%.0f\n", s / 1024 }'
}
cpu_ticks() { # PID...: user + system clock ticks so far, summed
	local p files=()
	for p in "$@"; do files+=("/proc/$p/stat"); done
	# The fields are counted after the command name, which may hold spaces ("tmux: server"):
	# utime and stime, stat's 14th and 15th fields, are the 12th and 13th after it.
	cat "${files[@]}" 2>/dev/null | awk '{ sub(/.*\) /, ""); s += $12 + $13 } END { printf "%.0f\n", s }'
}
io_bytes() { # FIELD PID...: bytes written (FIELD wchar) or read (rchar) so far, summed
	local field=$1 p files=()
	shift
	for p in "$@"; do files+=("/proc/$p/io"); done
	cat "${files[@]}" 2>/dev/null | awk -v f="$field:" '$1 == f { s += $2 } END { printf "%.0f\n", s }'
}
# server NAME: sets run to the command line that reaches NAME's server.
server() {
	case $1 in
	tmux) run=(tmux -L "$sock" -f /dev/null) ;;
	zeropty) run=("$bin" -L "$sock" -f /dev/null) ;;
	base) run=("$base_bin" -L "$sock" -f /dev/null) ;;
	esac
}
stop_server() { # PID
	"${run[@]}" kill-server 2>/dev/null || true
	while kill -0 "$1" 2>/dev/null; do sleep 0.1; done
	local i
	for ((i = 0; i < 50; i++)); do
		[ -n "$(our_programs)" ] || return 0
		sleep 0.1
	done
	echo "bench/scale.sh: session programs outlived the server: $(our_programs)" >&2
	exit 1
}

# program WORKLOAD I FRACTION EPOCH: sets cmd to session I's command line.
program() {
	case $1 in
	idle) cmd="exec $replay idle $screen" ;;
	redraw | clear) cmd="exec $replay $1 $3 $4" ;;
	dump) cmd="exec $replay dump $transcript $3 $4" ;;
	cast)
		local c=${casts[0]}
		if (($2 % 2 == 1 && ${#casts[@]} > 1)); then
			c=${casts[1 + ($2 / 2) % (${#casts[@]} - 1)]}
		fi
		cmd="exec $replay cast $c $3 $4"
		;;
	esac
}

# measure SERVER WORKLOAD N: starts SERVER with N sessions of WORKLOAD and prints
# "pss_kb memfd_kb avail_kb slab_kb cpu_ms rate_Bps programs_cpu_ms late server_read_Bps".
measure() {
	local name=$1 load=$2 n=$3 pid i j avail0 slab0 epoch window_at late=0 cmd
	server "$name"
	sync
	sleep 1
	avail0=$(meminfo MemAvailable)
	slab0=$(meminfo Slab)
	# Every program's schedule starts at epoch and the window opens SETTLE seconds later, so
	# under both servers the window sees the same part of every schedule, however long the
	# sessions took to start.
	epoch=$(awk -v t="$EPOCHREALTIME" -v n="$n" -v ms="$start_ms" \
		'BEGIN { printf "%.3f", t + n * ms / 1000 }')
	window_at=$(awk -v e="$epoch" -v s="$(settle_for "$load")" 'BEGIN { printf "%.3f", e + s }')
	local fractions
	mapfile -t fractions < <(awk -v n="$n" \
		'BEGIN { for (i = 0; i < n; i++) { f = i * 0.618; printf "%.6f\n", f - int(f) } }')
	for ((i = 0; i < n; i += batch)); do
		local args=()
		for ((j = i; j < n && j < i + batch; j++)); do
			((j == i)) || args+=(';')
			program "$load" "$j" "${fractions[j]}" "$epoch"
			args+=(new-session -d -s "s$j" -x 220 -y 80 "$cmd")
		done
		"${run[@]}" "${args[@]}"
	done
	pid=$("${run[@]}" display-message -p '#{pid}')
	local wait_s
	wait_s=$(awk -v w="$window_at" -v t="$EPOCHREALTIME" 'BEGIN { printf "%.3f", w - t }')
	if awk -v w="$wait_s" 'BEGIN { exit !(w < 1) }'; then
		# Started too slowly for the schedule: still measured, marked late.
		late=1
		wait_s=1
	fi
	sleep "$wait_s"
	local programs
	mapfile -t programs < <("${run[@]}" list-panes -a -F '#{pane_pid}')
	local alive=0
	for i in "${programs[@]}"; do
		[ "$(cat "/proc/$i/comm" 2>/dev/null)" != replay ] || alive=$((alive + 1))
	done
	if [ "$alive" -ne "$n" ]; then
		echo "bench/scale.sh: $name $load: $alive of $n session programs running" >&2
		exit 1
	fi
	# The counters first, at the window's opening: that moment is the same point of every
	# program's schedule under both servers, so both windows hold the same writes.
	local pss_kb memfd avail_kb slab_kb t0 t1 w0 w1 r0 r1 p0 p1 window_end
	t0=$(cpu_ticks "$pid")
	w0=$(io_bytes wchar "${programs[@]}")
	r0=$(io_bytes rchar "$pid")
	p0=$(cpu_ticks "${programs[@]}")
	window_end=$(awk -v t="$EPOCHREALTIME" -v w="$window" 'BEGIN { printf "%.3f", t + w }')
	avail_kb=$((avail0 - $(meminfo MemAvailable)))
	slab_kb=$(($(meminfo Slab) - slab0))
	local rest tracer=""
	rest=$(awk -v e="$window_end" -v t="$EPOCHREALTIME" 'BEGIN { printf "%.3f", e - t }')
	if [ -n "${SYSCALLS:-}" ]; then
		strace -c -o "$work/syscalls" -p "$pid" 2>/dev/null &
		tracer=$!
	elif [ -n "${PERF:-}" ]; then
		mkdir -p "$PERF"
		perf record -q -g -o "$PERF/$name-$load-$n.data" -p "$pid" 2>/dev/null &
		tracer=$!
	fi
	# Memory sampled every second over the window, the mean kept: the servers' memory moves
	# in steps as screens fold and history lines are compressed, so one sample could fall
	# anywhere between them (zeropty's `clear` 400 moved from 13.5 to 19.0 MB within 10 s).
	local samples=0 pss_sum=0 memfd_sum=0
	while :; do
		pss_sum=$((pss_sum + $(pss "$pid")))
		memfd_sum=$((memfd_sum + $(memfd_kb "$pid")))
		samples=$((samples + 1))
		rest=$(awk -v e="$window_end" -v t="$EPOCHREALTIME" 'BEGIN { printf "%.3f", e - t }')
		awk -v r="$rest" 'BEGIN { exit !(r > 1) }' || break
		sleep 1
	done
	awk -v r="$rest" 'BEGIN { exit !(r > 0) }' && sleep "$rest"
	pss_kb=$((pss_sum / samples))
	memfd=$((memfd_sum / samples))
	if [ -n "$tracer" ]; then
		kill -INT "$tracer"
		wait "$tracer" || true
	fi
	if [ -n "${SYSCALLS:-}" ]; then
		# The server's system calls over the window, on stderr beside the table.
		echo "$name $load $n: system calls over the window" >&2
		awk 'NR > 2 && $1 !~ /^-/ && NF >= 5 { print "   ", $NF, $4 }' "$work/syscalls" >&2
	fi
	t1=$(cpu_ticks "$pid")
	w1=$(io_bytes wchar "${programs[@]}")
	r1=$(io_bytes rchar "$pid")
	p1=$(cpu_ticks "${programs[@]}")
	if [ "$load" = idle ]; then
		# Every session shows its screen: the last session's holds every line of it.
		local want got
		want=$(tr -d '\r' <"$screen" | grep -c . || true)
		got=$("${run[@]}" capture-pane -p -t "s$((n - 1))" | grep -c . || true)
		if [ "$got" -ne "$want" ]; then
			echo "bench/scale.sh: $name: session s$((n - 1)) shows $got lines, not $want" >&2
			exit 1
		fi
	fi
	if [ "$name" != tmux ]; then
		# Where the screens are at the window's end, on stderr beside the table.
		"${run[@]}" list-panes -a -F '#{pane_memory_state} #{pane_memory}' | awk -v l="$load" \
			-v n="$n" -v s="$name" '{ c[$1]++; m[$1] += $2 } END { printf "%s %s %d: screens", s, l, n
			for (k in c) printf " %s %d (%.1f KB each)", k, c[k], m[k] / c[k] / 1000
			print "" }' >&2
	fi
	stop_server "$pid"
	echo "$pss_kb $memfd $avail_kb $slab_kb $(((t1 - t0) * 1000 / clk_tck))" \
		"$(((w1 - w0) / window)) $(((p1 - p0) * 1000 / clk_tck)) $late $(((r1 - r0) / window))"
}

median() { # VALUES...: their median (the mean of the middle two for an even count, printed
	# as awk would not print a mean of a million or more: in full, not in exponent form)
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) { print v[(NR + 1) / 2]; exit }
		m = (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf (m == int(m) ? "%d\n" : "%.1f\n"), m }'
}
# ratio A B: A / B, or "-" when either is not above zero (no work to compare, or a system
# figure that other processes moved the wrong way).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.1fx", a / b; else print "-" }'; }
percent() { awk -v ms="$1" -v w="$window" 'BEGIN { printf "%.1f%%", ms / w / 10 }'; }
# comparable RATE_A RATE_B: whether the larger is within TOLERANCE percent of the smaller.
comparable() {
	awk -v a="$1" -v b="$2" -v t="$tolerance" 'BEGIN {
		lo = a < b ? a : b; hi = a < b ? b : a
		exit !(hi == 0 || (lo > 0 && hi <= lo * (1 + t / 100))) }'
}

row() { printf '%6s %-8s %9s %7s %10s %10s %8s %8s %12s %9s %9s\n' "$@"; }

run_workload() {
	local load=$1 n r name rounds=${ROUNDS:-1}
	echo
	echo "$load: N sessions; KiB, and over ${window}s the server's CPU (% of one core), the"
	echo "programs' output (KiB/s) and their CPU, and what the server read (KiB/s); medians of"
	echo "$rounds round(s); ratio $ref/zeropty"
	row N server PSS memfd PSS+memfd MemAvail- Slab+ CPU 'prog KiB/s' 'prog CPU' 'read KiB/s'
	local -A got med totals=()
	for n in "${counts[@]}"; do
		got=() med=()
		for ((r = 0; r < rounds; r++)); do
			for name in "$ref" zeropty; do
				got[$name]+="$(measure "$name" "$load" "$n")"$'\n'
			done
		done
		for name in "$ref" zeropty; do
			local f vals
			for f in 1 2 3 4 5 6 7 8 9; do
				mapfile -t vals < <(printf '%s' "${got[$name]}" | awk -v f="$f" '{ print $f }')
				med[$name.$f]=$(median "${vals[@]}")
			done
			med[$name.total]=$((${med[$name.1]%.*} + ${med[$name.2]%.*}))
			# shellcheck disable=SC2034 # read through a nameref in per_session_rows
			totals[$name.$n]=${med[$name.total]}
			local late=""
			[ "${med[$name.8]}" = 0 ] || late=" (late start)"
			row "$n" "$name" "${med[$name.1]}" "${med[$name.2]}" "${med[$name.total]}" \
				"${med[$name.3]}" "${med[$name.4]}" "$(percent "${med[$name.5]}")" \
				"$((${med[$name.6]%.*} / 1024))" "$(percent "${med[$name.7]}")$late" \
				"$((${med[$name.9]%.*} / 1024))"
		done
		local cpu
		if comparable "${med[$ref.6]}" "${med[zeropty.6]}"; then
			cpu=$(ratio "${med[$ref.5]}" "${med[zeropty.5]}")
		else
			cpu=n/c
		fi
		row "$n" ratio "$(ratio "${med[$ref.1]}" "${med[zeropty.1]}")" "" \
			"$(ratio "${med[$ref.total]}" "${med[zeropty.total]}")" \
			"$(ratio "${med[$ref.3]}" "${med[zeropty.3]}")" \
			"$(ratio "${med[$ref.4]}" "${med[zeropty.4]}")" "$cpu" \
			"$(ratio "${med[$ref.6]}" "${med[zeropty.6]}")" \
			"$(ratio "${med[$ref.7]}" "${med[zeropty.7]}")" \
			"$(ratio "${med[$ref.9]}" "${med[zeropty.9]}")"
	done
	per_session_rows totals
}

# per_session_rows TOTALS: what each session beyond the first N given costs, from the
# PSS+memfd medians in the associative array TOTALS (SERVER.N): what a server holds for a
# session, without the floor of a process that holds one, or a few.
per_session_rows() {
	local -n of=$1
	local base=${counts[0]} n name
	((${#counts[@]} > 1)) || return 0
	echo "PSS+memfd per session beyond the first $base: (at N - at $base) / (N - $base), KiB"
	for n in "${counts[@]:1}"; do
		local -A each=()
		for name in "$ref" zeropty; do
			each[$name]=$(awk -v a="${of[$name.$n]}" -v b="${of[$name.$base]}" \
				-v n="$n" -v m="$base" 'BEGIN { printf "%.1f", (a - b) / (n - m) }')
		done
		printf "%6s $ref %s, zeropty %s: %s\n" "$n" "${each[$ref]}" "${each[zeropty]}" \
			"$(ratio "${each[$ref]}" "${each[zeropty]}")"
	done
}

# Bulk output. The log's last line, as capture-pane prints it, is what the poll waits for.
bulk_setup() {
	log=$work/colour.log
	"$gen_log" "$log" >/dev/null
	last=$("$render" --size 220x80 "$log" | grep . | tail -n 1)
	if [ "$bulk_poll" = builtin ]; then
		enable -f "$so" zeropty
	fi
	# A file descriptor nothing ever writes to, for sleeping in short steps without a process.
	exec {nap_fd}<> <(:)
}
nap() { read -r -t "$1" -u "$nap_fd" _ || true; }

# bulk_once SERVER MODE: MODE "finish" prints the ms until the writer finished, with nothing
# reading the screen; "visible" prints the ms from the writer's start until capture-pane,
# polled back to back, shows the log's last line.
bulk_once() {
	local name=$1 mode=$2 stamp=$work/stamp pid t_seen="" i out
	server "$name"
	rm -f "$stamp"
	"${run[@]}" new-session -d -s bulk -x 220 -y 80 "exec $replay bulk $log $stamp"
	pid=$("${run[@]}" display-message -p '#{pid}')
	local deadline=$((${EPOCHREALTIME%.*} + 60))
	if [ "$mode" = visible ]; then
		while :; do
			if [ "$bulk_poll" = builtin ] && [ "$name" = zeropty ]; then
				zeropty -L "$sock" capture-pane -p -t bulk >"$work/capture"
				read -r -d '' out <"$work/capture" || true
			else
				out=$("${run[@]}" capture-pane -p -t bulk)
			fi
			if [[ $out == *"$last"* ]]; then
				t_seen=$EPOCHREALTIME
				break
			fi
			((${EPOCHREALTIME%.*} < deadline)) || break
		done
	fi
	while [ ! -s "$stamp" ] && ((${EPOCHREALTIME%.*} < deadline)); do nap 0.02; done
	local t0 t1
	read -r t0 t1 <"$stamp" || {
		echo "bench/scale.sh: $name: the bulk writer did not finish in 60 s" >&2
		exit 1
	}
	if [ "$mode" = finish ]; then
		# Not timed: the screen must end up showing the last line all the same.
		for ((i = 0; i < 300; i++)); do
			out=$("${run[@]}" capture-pane -p -t bulk)
			[[ $out != *"$last"* ]] || break
			nap 0.1
		done
		t_seen=x
	fi
	if [ -z "$t_seen" ] || [[ $out != *"$last"* ]]; then
		echo "bench/scale.sh: $name: the log's last line never showed" >&2
		exit 1
	fi
	stop_server "$pid"
	if [ "$mode" = finish ]; then
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f\n", (b - a) * 1000 }'
	else
		awk -v a="$t0" -v b="$t_seen" 'BEGIN { printf "%.0f\n", (b - a) * 1000 }'
	fi
}

run_bulk() {
	local rounds=${ROUNDS:-5} r name mode
	bulk_setup
	declare -A got=()
	for ((r = 0; r < rounds; r++)); do
		for mode in finish visible; do
			for name in "$ref" zeropty; do
				got[$name.$mode]+=" $(bulk_once "$name" "$mode")"
			done
		done
	done
	echo
	echo "bulk: $(wc -c <"$log") bytes, $(wc -l <"$log") coloured lines into one 220x80 session;"
	echo "ms, median of $rounds round(s) (every round in brackets); polled by: $bulk_poll;"
	echo "ratio $ref/zeropty"
	printf '%-8s %-34s %s\n' server 'writer done' 'last line visible'
	local -A med=()
	for name in "$ref" zeropty; do
		for mode in finish visible; do
			# shellcheck disable=SC2086 # the rounds' values, one a word
			med[$name.$mode]=$(median ${got[$name.$mode]})
		done
		printf '%-8s %-34s %s\n' "$name" "${med[$name.finish]} (${got[$name.finish]# })" \
			"${med[$name.visible]} (${got[$name.visible]# })"
	done
	printf '%-8s %-34s %s\n' ratio "$(ratio "${med[$ref.finish]}" "${med[zeropty.finish]}")" \
		"$(ratio "${med[$ref.visible]}" "${med[zeropty.visible]}")"
}

echo "bench/scale.sh ${*:-}: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
	"load average $(cut -d' ' -f1-3 /proc/loadavg), $(tmux -V), $("$bin" -V)"
echo "WINDOW=$window SETTLE=${SETTLE:-default} ROUNDS=${ROUNDS:-default} TOLERANCE=$tolerance%"
for load in "${workloads[@]}"; do
	if [ "$load" = bulk ]; then
		run_bulk
	else
		run_workload "$load"
	fi
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
