# bash completion for zeropty(1). Source it from ~/.bashrc, or install it as
# share/bash-completion/completions/zeropty for bash-completion to load on demand.
#
# Generated from the command table by `cargo run --example gen_docs`; do not edit.

# The words each kind of name may be, from the tables.
_zeropty_commands='attach-session attach bind-key bind break-pane breakp capture-pane capturep choose-buffer choose-client choose-tree clear-history clearhist clear-prompt-history clearphist clock-mode command-prompt confirm-before confirm copy-mode customize-mode delete-buffer deleteb detach-client detach display-menu menu display-message display display-popup popup display-panes displayp find-window findw has-session has if-shell if join-pane joinp kill-pane killp kill-server kill-session kill-window killw last-pane lastp last-window last link-window linkw list-buffers lsb list-clients lsc list-commands lscm list-keys lsk list-panes lsp list-sessions ls list-windows lsw load-buffer loadb lock-client lockc lock-server lock lock-session locks move-pane movep move-window movew new-session new new-window neww next-layout nextl next-window next paste-buffer pasteb pipe-pane pipep previous-layout prevl previous-window prev refresh-client refresh rename-session rename rename-window renamew resize-pane resizep resize-window resizew respawn-pane respawnp respawn-window respawnw rotate-window rotatew run-shell run save-buffer saveb select-layout selectl select-pane selectp select-window selectw send-keys send send-prefix server-access set-buffer setb set-environment setenv set-hook set-option set set-window-option setw show-buffer showb show-environment showenv show-hooks show-messages showmsgs show-options show show-prompt-history showphist show-window-options showw source-file source split-window splitw start-server start suspend-client suspendc swap-pane swapp swap-window swapw switch-client switchc unbind-key unbind unlink-window unlinkw wait-for wait'
_zeropty_names='attach-session bind-key break-pane capture-pane choose-buffer choose-client choose-tree clear-history clear-prompt-history clock-mode command-prompt confirm-before copy-mode customize-mode delete-buffer detach-client display-menu display-message display-popup display-panes find-window has-session if-shell join-pane kill-pane kill-server kill-session kill-window last-pane last-window link-window list-buffers list-clients list-commands list-keys list-panes list-sessions list-windows load-buffer lock-client lock-server lock-session move-pane move-window new-session new-window next-layout next-window paste-buffer pipe-pane previous-layout previous-window refresh-client rename-session rename-window resize-pane resize-window respawn-pane respawn-window rotate-window run-shell save-buffer select-layout select-pane select-window send-keys send-prefix server-access set-buffer set-environment set-hook set-option set-window-option show-buffer show-environment show-hooks show-messages show-options show-prompt-history show-window-options source-file split-window start-server suspend-client swap-pane swap-window switch-client unbind-key unlink-window wait-for'
_zeropty_program_words='serve help'
_zeropty_options='activity-action after-bind-key after-capture-pane after-copy-mode after-display-message after-display-panes after-kill-pane after-list-buffers after-list-clients after-list-keys after-list-panes after-list-sessions after-list-windows after-load-buffer after-lock-server after-new-session after-new-window after-paste-buffer after-pipe-pane after-queue after-refresh-client after-rename-session after-rename-window after-resize-pane after-resize-window after-save-buffer after-select-layout after-select-pane after-select-window after-send-keys after-set-buffer after-set-environment after-set-hook after-set-option after-show-environment after-show-messages after-show-options after-split-window after-unbind-key aggressive-resize alert-activity alert-bell alert-silence allow-passthrough allow-rename alternate-screen assume-paste-time automatic-rename automatic-rename-format backspace base-index bell-action buffer-limit client-active client-attached client-detached client-focus-in client-focus-out client-resized client-session-changed clock-mode-colour clock-mode-style command-alias copy-command copy-mode-current-match-style copy-mode-mark-style copy-mode-match-style cursor-colour cursor-style default-backend default-command default-shell default-size default-terminal destroy-unattached detach-on-destroy display-panes-active-colour display-panes-colour display-panes-time display-time editor escape-time exit-empty exit-unattached extended-keys fill-character focus-events history-file history-limit key-table lock-after-time lock-command main-pane-height main-pane-width message-command-style message-limit message-style mode-keys mode-style monitor-activity monitor-bell monitor-silence mouse other-pane-height other-pane-width pane-active-border-style pane-base-index pane-border-format pane-border-indicators pane-border-lines pane-border-status pane-border-style pane-colours pane-died pane-exited pane-focus-in pane-focus-out pane-mode-changed pane-set-clipboard pane-title-changed popup-border-lines popup-border-style popup-style prefix prefix2 prompt-history-limit remain-on-exit remain-on-exit-format renumber-windows repeat-time scroll-on-clear session-closed session-created session-renamed session-window-changed set-clipboard set-titles set-titles-string silence-action status status-bg status-fg status-format status-interval status-justify status-keys status-left status-left-length status-left-style status-position status-right status-right-length status-right-style status-style synchronize-panes terminal-features terminal-overrides update-environment user-keys visual-activity visual-bell visual-silence window-active-style window-layout-changed window-linked window-pane-changed window-renamed window-resized window-size window-status-activity-style window-status-bell-style window-status-current-format window-status-current-style window-status-format window-status-last-style window-status-separator window-status-style window-style window-unlinked word-separators wrap-search xterm-keys'
_zeropty_server_options='backspace buffer-limit command-alias copy-command default-backend default-terminal editor escape-time exit-empty exit-unattached extended-keys focus-events history-file message-limit prompt-history-limit set-clipboard terminal-features terminal-overrides user-keys'
_zeropty_window_options='aggressive-resize allow-passthrough allow-rename alternate-screen automatic-rename automatic-rename-format clock-mode-colour clock-mode-style copy-mode-current-match-style copy-mode-mark-style copy-mode-match-style cursor-colour cursor-style fill-character main-pane-height main-pane-width mode-keys mode-style monitor-activity monitor-bell monitor-silence other-pane-height other-pane-width pane-active-border-style pane-base-index pane-border-format pane-border-indicators pane-border-lines pane-border-status pane-border-style pane-colours pane-died pane-exited pane-focus-in pane-focus-out pane-mode-changed pane-set-clipboard pane-title-changed popup-border-lines popup-border-style popup-style remain-on-exit remain-on-exit-format scroll-on-clear synchronize-panes window-active-style window-layout-changed window-pane-changed window-renamed window-resized window-size window-status-activity-style window-status-bell-style window-status-current-format window-status-current-style window-status-format window-status-last-style window-status-separator window-status-style window-style wrap-search xterm-keys'
_zeropty_pane_options='allow-passthrough allow-rename alternate-screen cursor-colour cursor-style pane-border-format pane-colours pane-died pane-exited pane-focus-in pane-focus-out pane-mode-changed pane-set-clipboard pane-title-changed remain-on-exit remain-on-exit-format scroll-on-clear synchronize-panes window-active-style window-style'

# How NAME is called: sets `switches` (its flags that take no value), `values` (flag:kind
# for those that take one) and `args` (the kinds of its arguments; `...` repeats the last).
_zeropty_spec() {
    case $1 in
    zeropty)
        switches='2CDlNuVv' values='c:shell-command f:file L:socket S:file T:free' args='program-command'
        ;;
    attach-session | attach)
        switches='dErx' values='c:directory f:free t:session' args=''
        ;;
    bind-key | bind)
        switches='nr' values='N:free T:free' args='free free'
        ;;
    break-pane | breakp)
        switches='abdP' values='F:free n:free s:pane t:window' args=''
        ;;
    capture-pane | capturep)
        switches='aCeJNpPq' values='b:buffer E:free S:free t:pane' args=''
        ;;
    choose-buffer)
        switches='NrZ' values='F:free f:free K:free O:free t:pane' args='free'
        ;;
    choose-client)
        switches='NrZ' values='F:free f:free K:free O:free t:pane' args='free'
        ;;
    choose-tree)
        switches='GNrswZ' values='F:free f:free K:free O:free t:pane' args='free'
        ;;
    clear-history | clearhist)
        switches='' values='t:pane' args=''
        ;;
    clear-prompt-history | clearphist)
        switches='' values='T:free' args=''
        ;;
    clock-mode)
        switches='' values='t:pane' args=''
        ;;
    command-prompt)
        switches='1bFkiN' values='I:free p:free t:client T:free' args='free'
        ;;
    confirm-before | confirm)
        switches='b' values='p:free t:client' args='command'
        ;;
    copy-mode)
        switches='eHMuq' values='s:pane t:pane' args=''
        ;;
    customize-mode)
        switches='NZ' values='F:free f:free t:pane' args=''
        ;;
    delete-buffer | deleteb)
        switches='' values='b:buffer' args=''
        ;;
    detach-client | detach)
        switches='aP' values='E:shell-command s:session t:client' args=''
        ;;
    display-menu | menu)
        switches='O' values='c:client t:pane T:free x:free y:free' args='free free command ...'
        ;;
    display-message | display)
        switches='aINpv' values='c:client d:free t:pane F:free' args='free'
        ;;
    display-popup | popup)
        switches='BCE' values='b:free c:client d:directory e:free h:free s:free S:free t:pane T:free w:free x:free y:free' args='shell-command'
        ;;
    display-panes | displayp)
        switches='bN' values='d:free t:client' args='free'
        ;;
    find-window | findw)
        switches='CiNrTZ' values='t:pane' args='free'
        ;;
    has-session | has)
        switches='' values='t:session' args=''
        ;;
    if-shell | if)
        switches='bF' values='t:pane' args='shell-command command command'
        ;;
    join-pane | joinp)
        switches='bdfhv' values='p:free l:free s:pane t:pane' args=''
        ;;
    kill-pane | killp)
        switches='a' values='t:pane' args=''
        ;;
    kill-server)
        switches='' values='' args=''
        ;;
    kill-session)
        switches='aC' values='t:session' args=''
        ;;
    kill-window | killw)
        switches='a' values='t:window' args=''
        ;;
    last-pane | lastp)
        switches='deZ' values='t:window' args=''
        ;;
    last-window | last)
        switches='' values='t:session' args=''
        ;;
    link-window | linkw)
        switches='abdk' values='s:window t:window' args=''
        ;;
    list-buffers | lsb)
        switches='' values='F:free f:free' args=''
        ;;
    list-clients | lsc)
        switches='' values='F:free t:session' args=''
        ;;
    list-commands | lscm)
        switches='' values='F:free' args='command'
        ;;
    list-keys | lsk)
        switches='1aN' values='P:free T:free' args='free'
        ;;
    list-panes | lsp)
        switches='as' values='F:free f:free t:window' args=''
        ;;
    list-sessions | ls)
        switches='' values='F:free f:free' args=''
        ;;
    list-windows | lsw)
        switches='a' values='F:free f:free t:session' args=''
        ;;
    load-buffer | loadb)
        switches='w' values='b:buffer t:client' args='file'
        ;;
    lock-client | lockc)
        switches='' values='t:client' args=''
        ;;
    lock-server | lock)
        switches='' values='' args=''
        ;;
    lock-session | locks)
        switches='' values='t:session' args=''
        ;;
    move-pane | movep)
        switches='bdfhv' values='p:free l:free s:pane t:pane' args=''
        ;;
    move-window | movew)
        switches='abdkr' values='s:window t:window' args=''
        ;;
    new-session | new)
        switches='AdDEPX' values='c:directory e:free F:free f:free n:free s:free t:session T:free x:free y:free' args='shell-command'
        ;;
    new-window | neww)
        switches='abdkPS' values='c:directory e:free F:free n:free t:window' args='shell-command'
        ;;
    next-layout | nextl)
        switches='' values='t:window' args=''
        ;;
    next-window | next)
        switches='a' values='t:session' args=''
        ;;
    paste-buffer | pasteb)
        switches='dpr' values='b:buffer s:free t:pane' args=''
        ;;
    pipe-pane | pipep)
        switches='IOo' values='t:pane' args='shell-command'
        ;;
    previous-layout | prevl)
        switches='' values='t:window' args=''
        ;;
    previous-window | prev)
        switches='a' values='t:session' args=''
        ;;
    refresh-client | refresh)
        switches='cDLRSU' values='A:free B:free C:free f:free F:free l:free t:client' args='free'
        ;;
    rename-session | rename)
        switches='' values='t:session' args='free'
        ;;
    rename-window | renamew)
        switches='' values='t:window' args='free'
        ;;
    resize-pane | resizep)
        switches='DLMRTUZ' values='t:pane x:free y:free' args='free'
        ;;
    resize-window | resizew)
        switches='aADLRU' values='t:window x:free y:free' args='free'
        ;;
    respawn-pane | respawnp)
        switches='k' values='c:directory e:free t:pane' args='shell-command'
        ;;
    respawn-window | respawnw)
        switches='k' values='c:directory e:free t:window' args='shell-command'
        ;;
    rotate-window | rotatew)
        switches='DUZ' values='t:window' args=''
        ;;
    run-shell | run)
        switches='bC' values='d:free t:pane' args='shell-command'
        ;;
    save-buffer | saveb)
        switches='a' values='b:buffer' args='file'
        ;;
    select-layout | selectl)
        switches='Enop' values='t:pane' args='free'
        ;;
    select-pane | selectp)
        switches='DdegLlMmRUZ' values='P:free T:free t:pane' args=''
        ;;
    select-window | selectw)
        switches='lnpT' values='t:window' args=''
        ;;
    send-keys | send)
        switches='FHlMRX' values='N:free t:pane' args='free ...'
        ;;
    send-prefix)
        switches='2' values='t:pane' args=''
        ;;
    server-access)
        switches='adlrw' values='' args='free'
        ;;
    set-buffer | setb)
        switches='aw' values='b:buffer t:client n:free' args='free'
        ;;
    set-environment | setenv)
        switches='Fhgru' values='t:session' args='free free'
        ;;
    set-hook)
        switches='agpRuw' values='t:pane' args='free command'
        ;;
    set-option | set)
        switches='aFgopqsuUw' values='t:pane' args='option free'
        ;;
    set-window-option | setw)
        switches='aFgoqu' values='t:window' args='window-option free'
        ;;
    show-buffer | showb)
        switches='' values='b:buffer' args=''
        ;;
    show-environment | showenv)
        switches='hgs' values='t:session' args='free'
        ;;
    show-hooks)
        switches='gpw' values='t:pane' args=''
        ;;
    show-messages | showmsgs)
        switches='JT' values='t:client' args=''
        ;;
    show-options | show)
        switches='AgHpqsvw' values='t:pane' args='option'
        ;;
    show-prompt-history | showphist)
        switches='' values='T:free' args=''
        ;;
    show-window-options | showw)
        switches='gv' values='t:window' args='window-option'
        ;;
    source-file | source)
        switches='Fnqv' values='' args='file ...'
        ;;
    split-window | splitw)
        switches='bdfhIPvZ' values='c:directory e:free F:free l:free p:free t:pane' args='shell-command'
        ;;
    start-server | start)
        switches='' values='' args=''
        ;;
    suspend-client | suspendc)
        switches='' values='t:client' args=''
        ;;
    swap-pane | swapp)
        switches='dDUZ' values='s:pane t:pane' args=''
        ;;
    swap-window | swapw)
        switches='d' values='s:window t:window' args=''
        ;;
    switch-client | switchc)
        switches='lEFnprZ' values='c:client t:session T:free' args=''
        ;;
    unbind-key | unbind)
        switches='anq' values='T:free' args='free'
        ;;
    unlink-window | unlinkw)
        switches='k' values='t:window' args=''
        ;;
    wait-for | wait)
        switches='LSU' values='' args='free'
        ;;
    *) return 1 ;;
    esac
}

# Completes the word under the cursor: global flags, the command, its flags, their values and
# its arguments, starting over after each `;` that chains another command.
_zeropty() {
    local -a words socket=()
    local cword cur switches values args pending start kind
    local -A given=()
    _zeropty_reassemble_words
    cur=${words[cword]}
    COMPREPLY=()

    _zeropty_spec zeropty
    _zeropty_read_flags 0
    [[ -n ${given[L]+set} ]] && socket+=(-L "${given[L]}")
    [[ -n ${given[S]+set} ]] && socket+=(-S "${given[S]}")
    if ((start < cword)); then
        _zeropty_find_command_start
        if ((start == cword)); then
            _zeropty_offer command
            return 0
        fi
        _zeropty_spec "${words[start]}" || _zeropty_spec "$(_zeropty_resolve "${words[start]}")" ||
            return 0
        given=()
        _zeropty_read_flags "$start"
    fi
    _zeropty_complete_word
}

# bash splits words at `:` (see COMP_WORDBREAKS) but targets are `session:window.pane`: glue
# back the pieces that touch in the line, into `words` and `cword`.
_zeropty_reassemble_words() {
    local line=${COMP_LINE:0:COMP_POINT} piece trimmed i
    words=()
    for ((i = 0; i <= COMP_CWORD; i++)); do
        piece=${COMP_WORDS[i]}
        trimmed=${line#"${line%%[![:space:]]*}"}
        if ((i > 0)) && [[ $trimmed == "$line" ]] && [[ $piece == :* || ${words[-1]} == *: ]]; then
            words[-1]+=$piece
        else
            words+=("$piece")
        fi
        line=${trimmed#"$piece"}
    done
    cword=$((${#words[@]} - 1))
}

# Reads the flags after words[$1] up to the word being completed: sets `given` (flag letter to
# value), `pending` (the flag whose value is being completed) and `start` (the first argument).
_zeropty_read_flags() {
    local i word
    pending=''
    for ((i = $1 + 1; i < cword; i++)); do
        word=${words[i]}
        if [[ -n $pending ]]; then
            given[$pending]=$word
            pending=''
        elif [[ $word == -- ]]; then
            ((i++))
            break
        elif [[ $word == -?* ]]; then
            _zeropty_read_flag_word "${word#-}"
        else
            break
        fi
    done
    start=$i
}

# Reads one word of flags: a flag that takes a value takes the rest of the word (`-talpha`),
# or the next word.
_zeropty_read_flag_word() {
    local rest=$1 letter
    while [[ -n $rest ]]; do
        letter=${rest:0:1}
        rest=${rest:1}
        if [[ " $values" == *" $letter:"* ]]; then
            if [[ -n $rest ]]; then given[$letter]=$rest; else pending=$letter; fi
            return
        fi
        given[$letter]=''
    done
}

# A command chained with `;` starts after the last one before the cursor.
_zeropty_find_command_start() {
    local i
    for ((i = cword - 1; i > start; i--)); do
        case ${words[i]} in
        ';' | '\;' | "';'" | '";"')
            start=$((i + 1))
            return
            ;;
        esac
    done
}

# Offers what may stand at the cursor: the pending flag's value, a flag, or an argument.
_zeropty_complete_word() {
    local pair
    if [[ -n $pending ]]; then
        for pair in $values; do
            [[ $pair == "$pending":* ]] && _zeropty_offer "${pair#*:}"
        done
    elif ((start == cword)) && [[ $cur == -* ]]; then
        _zeropty_offer_flags
    else
        _zeropty_argument_kind $((cword - start))
        _zeropty_offer "$kind"
    fi
}

_zeropty_offer_flags() {
    local letters=$switches pair i
    for pair in $values; do letters+=${pair%%:*}; done
    for ((i = 0; i < ${#letters}; i++)); do
        [[ -${letters:i:1} == "$cur"* ]] && COMPREPLY+=("-${letters:i:1}")
    done
}

# Sets `kind` to the kind of argument $1 (from 0); a last kind of `...` repeats the one before.
_zeropty_argument_kind() {
    local -a kinds
    read -r -a kinds <<<"$args"
    local n=$1 last=$((${#kinds[@]} - 1))
    if ((last > 0)) && [[ ${kinds[last]} == ... ]] && ((n >= last)); then
        n=$((last - 1))
    fi
    kind=${kinds[n]:-}
}

# Asks the running server (the one -L or -S chose); prints nothing when none runs.
_zeropty_ask() {
    zeropty "${socket[@]}" "$@" 2>/dev/null
}

# Offers the words of the list $1 that begin with the word being completed.
_zeropty_offer_words() {
    mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "$1" -- "$cur")
}

# Offers the lines of $1 that begin with the word being completed.
_zeropty_offer_lines() {
    local line quoted
    while IFS= read -r line; do
        [[ -n $line && $line == "$cur"* ]] || continue
        # Names may hold spaces or quotes: offer them quoted for the command line.
        printf -v quoted '%q' "$line"
        COMPREPLY+=("$quoted")
    done <<<"$1"
    _zeropty_trim_colon
}

# The command a word names when it is no name or alias: the one name it begins, as the
# server finds commands (`kill-ses` is kill-session); itself when none or several do.
_zeropty_resolve() {
    local name found=
    for name in $_zeropty_names; do
        [[ $name == "$1"* ]] || continue
        [[ -n $found ]] && { echo "$1"; return; }
        found=$name
    done
    echo "${found:-$1}"
}

# bash replaces only what follows the last `:` of the word: drop what precedes it.
_zeropty_trim_colon() {
    [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]] || return 0
    local typed=${cur%"${cur##*:}"}
    COMPREPLY=("${COMPREPLY[@]#"$typed"}")
}

# Offers what compgen's action $1 (file, directory, command) finds.
_zeropty_offer_action() {
    [[ $1 == command ]] || compopt -o filenames 2>/dev/null
    mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -A "$1" -- "$cur")
}

# The names of the server sockets in the socket directory.
_zeropty_sockets() {
    local path
    for path in "${ZEROPTY_TMPDIR:-${TMUX_TMPDIR:-/tmp}}/zeropty-$UID"/*; do
        [[ -S $path ]] && printf '%s\n' "${path##*/}"
    done
}

# Offers the candidates of one kind that begin with the word being completed.
_zeropty_offer() {
    case $1 in
    session)
        _zeropty_offer_lines "$(_zeropty_ask list-sessions -F '#{session_name}')"
        ;;
    window)
        _zeropty_offer_lines "$(_zeropty_ask list-windows -a -F '#{session_name}:#{window_index}'; _zeropty_ask list-windows -a -F '#{session_name}:#{window_name}')"
        ;;
    pane)
        _zeropty_offer_lines "$(_zeropty_ask list-panes -a -F '#{pane_id}'; _zeropty_ask list-panes -a -F '#{session_name}:#{window_index}.#{pane_index}')"
        ;;
    client)
        _zeropty_offer_lines "$(_zeropty_ask list-clients -F '#{client_name}')"
        ;;
    buffer)
        _zeropty_offer_lines "$(_zeropty_ask list-buffers -F '#{buffer_name}')"
        ;;
    option)
        _zeropty_offer_words "$(_zeropty_scoped_options)"
        ;;
    window-option)
        _zeropty_offer_words "$_zeropty_window_options"
        ;;
    command)
        _zeropty_offer_words "$_zeropty_commands"
        ;;
    program-command)
        _zeropty_offer_words "$_zeropty_commands $_zeropty_program_words"
        ;;
    shell-command)
        _zeropty_offer_action command
        ;;
    file)
        _zeropty_offer_action file
        ;;
    directory)
        _zeropty_offer_action directory
        ;;
    socket)
        _zeropty_offer_lines "$(_zeropty_sockets)"
        ;;
    esac
}

# The options of the scope the flags given chose, or all of them.
_zeropty_scoped_options() {
    if [[ -n ${given[s]+set} ]]; then
        echo "$_zeropty_server_options"
    elif [[ -n ${given[w]+set} ]]; then
        echo "$_zeropty_window_options"
    elif [[ -n ${given[p]+set} ]]; then
        echo "$_zeropty_pane_options"
    else
        echo "$_zeropty_options"
    fi
}

complete -F _zeropty zeropty
