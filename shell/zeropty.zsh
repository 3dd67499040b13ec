# zeropty.zsh: `zeropty` as a zsh function that talks to the server's socket itself, so a
# command starts no process. Source it from ~/.zshrc:
#
#     source /usr/local/share/zeropty/zeropty.zsh
#
# `zeropty ARGS` then takes the program's arguments and prints what the program prints, with
# its exit status. It speaks the socket protocol (see `man zeropty`, "SOCKET PROTOCOL") over
# zsh/net/socket, keeping one connection per shell process:
#
# - a subshell (a pipeline, `$(...)`, `( ... )`) opens its own connection;
# - another socket (a changed -L, -S, ZEROPTY, ZEROPTY_TMPDIR or TMUX_TMPDIR) opens another;
# - a call interrupted while it waited drops its connection, whose reply would be stale;
# - a request is sent again on a new connection only when the server did not take it (the
#   connection closed before a byte of the reply: the server was gone or exiting).
#
# Replies are raw (a head line, then the output bytes as they are), so any bytes come back
# exactly. Arguments are sent as JSON strings when they are ASCII, else all of them as base64
# (`argv_b64`), which carries any bytes. The environment goes when the connection opens, with
# every command that starts a program (which takes it), and when PATH, ZEROPTY, ZEROPTY_PANE
# or a variable of tmux's default update-environment list changes; values that are not UTF-8
# (or any that are not ASCII, outside a UTF-8 locale) are left out.
#
# The `zeropty` program, found in PATH, runs instead for what only it can do: attach-session
# and new-session without -d from a terminal, serve, help, -V, -h, -c, unknown flags, and
# any command when no server answers (so new-session still starts one).

zmodload zsh/net/socket zsh/system || return 1

typeset -gi _zeropty_fd=-1 _zeropty_pid=0 _zeropty_busy=0
typeset -g _zeropty_path= _zeropty_dir= _zeropty_env_key= _zeropty_pwd= _zeropty_cwd=
typeset -g _zeropty_sock= _zeropty_socket_key=

# Closes the connection (a subshell closes only its inherited copy).
_zeropty_disconnect() {
	(( _zeropty_fd >= 0 )) && exec {_zeropty_fd}>&-
	_zeropty_fd=-1
	_zeropty_path=
	_zeropty_env_key=
	_zeropty_busy=0
}

# REPLY: $1 as a JSON string (ASCII; quotes, backslashes and control characters escaped).
_zeropty_json() {
	local s=$1 out= c
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	if [[ $s == *[$'\x01'-$'\x1f\x7f']* ]]; then
		while [[ -n $s ]]; do
			c=${s[1]}
			if [[ $c == [$'\x01'-$'\x1f'] ]]; then
				out+=$(printf '\\u%04x' $(( #c )))
			else
				out+=$c
			fi
			s=${s[2,-1]}
		done
		s=$out
	fi
	REPLY="\"$s\""
}

# REPLY: the base64 of $1's bytes, quoted.
_zeropty_base64() {
	local s=$1 out= t=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/
	local -i i n=${#1} v a b c
	local x y z
	for (( i = 1; i <= n; i += 3 )); do
		x=${s[i]} y=${s[i+1]} z=${s[i+2]}
		(( a = #x & 255, b = i + 1 <= n ? #y & 255 : 0, c = i + 2 <= n ? #z & 255 : 0 ))
		(( v = a << 16 | b << 8 | c ))
		out+=${t[(v >> 18) + 1]}${t[((v >> 12) & 63) + 1]}
		if (( i + 1 <= n )); then out+=${t[((v >> 6) & 63) + 1]}; else out+='='; fi
		if (( i + 2 <= n )); then out+=${t[(v & 63) + 1]}; else out+='='; fi
	done
	REPLY="\"$out\""
}

# REPLY: the exported environment as a JSON object.
_zeropty_env() {
	local name value out=
	local -i utf8=0
	[[ ${LC_ALL:-${LC_CTYPE:-$LANG}} == *(#i)utf(-|)8* ]] && utf8=1
	for name in ${(k)parameters[(R)*export*]}; do
		value=${(P)name}
		# JSON carries UTF-8 as it is; zsh can tell valid UTF-8 only in a UTF-8 locale, and
		# anything it cannot vouch for stays home.
		if [[ $name$value == *[$'\x80'-$'\xff']* ]] && ! _zeropty_utf8 $name$value; then
			continue
		fi
		_zeropty_json $name; out+=$REPLY:
		_zeropty_json $value; out+=$REPLY,
	done
	REPLY="{${out%,}}"
}

# Whether $1 is valid UTF-8 (in a UTF-8 locale; elsewhere nothing with high bytes is).
_zeropty_utf8() {
	(( utf8 )) || return 1
	setopt local_options multibyte
	[[ $1 != *[[:INVALID:][:INCOMPLETE:]]* ]]
}

# An exported variable's value (the program sees only those).
_zeropty_exported() {
	[[ ${(tP)1} == *export* ]] && REPLY=${(P)1} || REPLY=
}

# REPLY: the socket path, as the program finds it; _zeropty_dir: its directory when that must
# be private (empty for -S or ZEROPTY).
_zeropty_socket() {
	local label=$1 given=$2
	_zeropty_dir=
	if [[ -n $given ]]; then
		REPLY=$given
		return
	fi
	_zeropty_exported ZEROPTY
	if [[ -z $label && -n $REPLY ]]; then
		if [[ $REPLY == *,*,* ]]; then REPLY=${REPLY%,*,*}
		elif [[ $REPLY == *,* ]]; then REPLY=${REPLY%,*}
		fi
		return
	fi
	local base
	_zeropty_exported ZEROPTY_TMPDIR; base=$REPLY
	[[ -z $base ]] && { _zeropty_exported TMUX_TMPDIR; base=$REPLY; }
	_zeropty_dir=${base:-/tmp}/zeropty-$UID
	REPLY=$_zeropty_dir/${label:-default}
}

# Opens a connection to $1 (closing the one there was); fails when nothing answers there or its directory is
# not a private one of ours.
_zeropty_connect() {
	local sock=$1
	_zeropty_disconnect
	if [[ -n $_zeropty_dir ]]; then
		local -a private
		private=( $_zeropty_dir(N/Uf:go-rwx:) )
		(( $#private )) || return 1
	fi
	zsocket $sock 2>/dev/null || return 1
	_zeropty_fd=$REPLY
	_zeropty_pid=$sysparams[pid]
	_zeropty_path=$sock
}

# REPLY: the "argv" (or "argv_b64") member for $@ when an argument needs escaping.
_zeropty_argv() {
	local arg field=argv
	local -a words
	[[ "$*" == *[$'\x80'-$'\xff']* ]] && field=argv_b64
	for arg in "$@"; do
		if [[ $field == argv ]]; then _zeropty_json $arg; else _zeropty_base64 $arg; fi
		words+=$REPLY
	done
	REPLY="\"$field\":[${(j:,:)words}]"
}

# Each step of a call is written out in this one function: a zsh function call costs about
# ten microseconds here, as much as the server takes to answer, so the common path calls
# none; helpers run only when something changed or needs escaping.
zeropty() {
	emulate -L zsh
	setopt extended_glob no_multibyte local_traps
	# A closed socket or standard output fails a write rather than ending the shell (the
	# program ignores SIGPIPE too).
	trap '' PIPE
	local label= given= arg flags value req buf chunk key args=("$@")
	local -i program_only=0 i=1 attempt code out err skip have
	while [[ $args[i] == -* ]]; do
		arg=$args[i]
		if [[ $arg == -- ]]; then (( i++ )); break; fi
		[[ $arg == - ]] && break
		flags=${arg#-}
		while [[ -n $flags ]]; do
			case $flags[1] in
			([2DlNuv]) flags=${flags[2,-1]} ;;
			([fLST])
				value=${flags[2,-1]}
				if [[ -z $value ]]; then
					(( i++ ))
					(( i <= $#args )) || { program_only=1; break; }
					value=$args[i]
				fi
				[[ $flags[1] == L ]] && label=$value
				[[ $flags[1] == S ]] && given=$value
				flags= ;;
			(*) program_only=1; flags=${flags[2,-1]} ;;
			esac
		done
		(( i++ ))
	done
	(( i > 1 )) && args=("${(@)args[i,-1]}")
	if (( program_only )) || [[ $args[1] == (serve|help) ]]; then
		command zeropty "$@"
		return
	fi
	(( $#args )) || args=(new-session)
	key="$label|$given|$ZEROPTY|$ZEROPTY_TMPDIR|$TMUX_TMPDIR|${(t)ZEROPTY}|${(t)ZEROPTY_TMPDIR}|${(t)TMUX_TMPDIR}"
	if [[ $key != $_zeropty_socket_key ]]; then
		_zeropty_socket "$label" "$given"
		_zeropty_sock=$REPLY
		_zeropty_socket_key=$key
	fi
	if [[ "${args[*]}" == *[\\\"$'\x01'-$'\x1f\x7f\x80'-$'\xff']* ]]; then
		_zeropty_argv "${args[@]}"
		req="{$REPLY"
	else
		req="{\"argv\":[\"${(j:",":)args}\"]"
	fi
	if [[ $PWD != $_zeropty_pwd ]]; then
		_zeropty_pwd=$PWD
		_zeropty_json ${PWD:A}
		_zeropty_cwd=$REPLY
	fi
	req+=",\"cwd\":$_zeropty_cwd"
	[[ -t 0 ]] && req+=',"refuse_attach":true'
	# A command that reads standard input (load-buffer -) is left to the program.
	req+=',"refuse_stdin":true'
	# A reused connection may find its server gone, and a new one a server exiting.
	for (( attempt = 0; attempt < 3; attempt++ )); do
		if (( _zeropty_fd < 0 || _zeropty_pid != sysparams[pid] || _zeropty_busy )) ||
			[[ $_zeropty_path != $_zeropty_sock ]]; then
			_zeropty_connect $_zeropty_sock || break
		fi
		# The environment goes again when what every command reads from it changed (PATH,
		# ZEROPTY, ZEROPTY_PANE, and tmux's default update-environment list), and whole with
		# any command that starts a program (new-session, new-window, respawn-*, by name,
		# alias or prefix), which takes the client's environment. Checking costs a few
		# microseconds; encoding the environment a hundred and fifty.
		key="$PATH|$ZEROPTY|$ZEROPTY_PANE|$DISPLAY|$KRB5CCNAME|$SSH_ASKPASS|$SSH_AUTH_SOCK|$SSH_AGENT_PID|$SSH_CONNECTION|$WINDOWID|$XAUTHORITY"
		if [[ $key != $_zeropty_env_key ]] || (( ${#${(M)args:#(new|resp)*}} )); then
			_zeropty_env_key=$key
			_zeropty_env
			REPLY="$req,\"env\":$REPLY,\"reply\":\"raw\"}"$'\n'
		else
			REPLY="$req,\"reply\":\"raw\"}"$'\n'
		fi
		_zeropty_busy=1
		if ! syswrite -o $_zeropty_fd -- $REPLY 2>/dev/null; then
			_zeropty_disconnect
			continue
		fi
		# The common reply is a raw head and its bytes: one anchored pattern on the first
		# bytes the first read brought both checks the head and takes its numbers (zsh
		# copies a string to match it: a pattern over a whole 10 KB capture cost 85 us; the
		# head is under 100 bytes).
		sysread -i $_zeropty_fd -s 65536 buf || buf=
		while [[ ${buf[1,160]} != '{"code":'(#b)(-#[0-9]##)',"out_bytes":'([0-9]##)',"err_bytes":'([0-9]##)$'}\n'* ]]; do
			if [[ ${buf[1,160]} == *$'\n'* ]]; then
				# A whole head of another kind: the program must attach, or the reply is
				# not one this function understands.
				if [[ $buf == '{"code":0,"must_attach":true'* ]]; then
					_zeropty_busy=0
					break 2
				fi
				_zeropty_disconnect
				print -ru2 -- "server exited unexpectedly"
				return 1
			fi
			if ! sysread -i $_zeropty_fd -s 65536 chunk; then
				_zeropty_disconnect
				[[ -z $buf ]] && continue 2
				print -ru2 -- "server exited unexpectedly"
				return 1
			fi
			buf+=$chunk
		done
		# The head's fixed text is 36 bytes; its numbers are the rest.
		(( skip = 36 + ${#match[1]} + ${#match[2]} + ${#match[3]} ))
		code=$match[1] out=$match[2] err=$match[3]
		(( have = ${#buf} - skip ))
		while (( have < out + err )); do
			if ! sysread -i $_zeropty_fd -s 65536 chunk; then
				_zeropty_disconnect
				print -ru2 -- "server exited unexpectedly"
				return 1
			fi
			buf+=$chunk
			(( have += ${#chunk} ))
		done
		_zeropty_busy=0
		(( out )) && print -rn -- ${buf[skip+1,skip+out]}
		(( err )) && print -rnu2 -- ${buf[skip+out+1,skip+out+err]}
		return code
	done
	command zeropty "$@"
}
