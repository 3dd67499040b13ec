#!/bin/sh
# Builds zeropty and installs the program, the bash builtin, the zsh function, the bash and
# zsh completions and the manual page under PREFIX (default /usr/local), where bash, zsh and
# man look for them; then says what to add to ~/.bashrc and ~/.zshrc.
#
#     ./install.sh                      # PREFIX=/usr/local
#     PREFIX=$HOME/.local ./install.sh
#     ./install.sh --no-build           # install what ${CARGO_TARGET_DIR:-target}/release holds
#
# DESTDIR is prepended to every installed path, for packaging.
set -eu
cd "$(dirname "$0")"
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
built=${CARGO_TARGET_DIR:-target}/release
if [ "${1:-}" != --no-build ]; then
	cargo build --release --locked
fi
if [ ! -f "$built/zeropty_bash.so" ]; then
	echo "install.sh: $built/zeropty_bash.so was not built: install bash-builtins (Debian) and build again" >&2
	exit 1
fi
put() { # MODE FROM TO
	install -D -m "$1" "$2" "$DESTDIR$PREFIX/$3"
}
put 755 "$built/zeropty" bin/zeropty
put 644 "$built/zeropty_bash.so" lib/bash/zeropty_bash.so
put 644 shell/zeropty.zsh share/zeropty/zeropty.zsh
put 644 completions/zeropty.bash share/bash-completion/completions/zeropty
put 644 completions/_zeropty share/zsh/site-functions/_zeropty
put 644 man/zeropty.1 share/man/man1/zeropty.1
cat <<DONE
zeropty is installed under $PREFIX.

Add to ~/.bashrc (Debian's bash does not load completions by itself):
# >>> zeropty bash
enable -f $PREFIX/lib/bash/zeropty_bash.so zeropty
. $PREFIX/share/bash-completion/completions/zeropty
# <<< zeropty bash

Add to ~/.zshrc:
# >>> zeropty zsh
source $PREFIX/share/zeropty/zeropty.zsh
fpath=($PREFIX/share/zsh/site-functions \$fpath)
autoload -Uz compinit && compinit
# <<< zeropty zsh
DONE
