#!/usr/bin/env bash
# Installs credctl under $DESTDIR$PREFIX (PREFIX defaults to /usr/local): the binary, the man
# page, the bash, zsh and fish completions where each shell looks for them, the agent's systemd
# user units, the README and the LICENSE. Every file it installs and every directory it creates
# is listed in $PREFIX/share/doc/credctl/installed-files, so that uninstall.sh removes exactly
# those and never a directory it found already there.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:?usage: install.sh PATH_TO_CREDCTL}"
prefix="${PREFIX:-/usr/local}"
prefix="${prefix%/}"
destdir="${DESTDIR:-}"
manifest="$prefix/share/doc/credctl/installed-files"
case "$prefix" in /*) ;; *) echo "install: PREFIX must be an absolute path, not '$prefix'" >&2; exit 64 ;; esac

# A reinstall replaces the previous install, so a file only an older version installed does not
# linger; the directories it created are then created, and recorded, again.
if [ -f "$destdir$manifest" ]; then ./scripts/uninstall.sh; fi

# zsh reads completions from $fpath. Debian's zsh puts /usr/share/zsh/vendor-completions there for
# packages, and /usr/local/share/zsh/site-functions (upstream zsh's place, $prefix/share/zsh/
# site-functions) for everything installed locally.
if [ "$prefix" = /usr ]; then zsh_dir=share/zsh/vendor-completions; else zsh_dir=share/zsh/site-functions; fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for shell in bash zsh fish; do "$binary" completion "$shell" > "$work/completion.$shell"; done
# systemd runs a bare `ExecStart=credctl` only when it finds it on its fixed search path
# (/usr/local/bin, /usr/bin, …); the installed units name the installed binary, so any PREFIX works.
for unit in systemd/*; do
    sed "s|^ExecStart=credctl |ExecStart=$prefix/bin/credctl |" "$unit" > "$work/${unit##*/}"
    if grep -q '^ExecStart=' "$unit" && ! grep -q "^ExecStart=$prefix/bin/credctl " "$work/${unit##*/}"; then
        echo "install: $unit: its ExecStart is not 'credctl …', so it cannot be pointed at $prefix/bin/credctl" >&2
        exit 1
    fi
done

installed=()
# Creates PATH and its missing parents, recording each directory it creates, parents first.
directory() {
    local path="$1" missing=()
    while [ "$path" != / ] && [ ! -d "$destdir$path" ]; do missing=("$path" "${missing[@]}"); path="$(dirname "$path")"; done
    for path in "${missing[@]}"; do
        install -d -m 0755 "$destdir$path"
        installed+=("$path/")
    done
}
# put MODE SOURCE DESTINATION: installs one file, recorded by its path without DESTDIR.
put() {
    directory "$(dirname "$3")"
    install -m "$1" "$2" "$destdir$3"
    installed+=("$3")
}

put 0755 "$binary" "$prefix/bin/credctl"
put 0644 man/credctl.1 "$prefix/share/man/man1/credctl.1"
put 0644 "$work/completion.bash" "$prefix/share/bash-completion/completions/credctl"
put 0644 "$work/completion.zsh" "$prefix/$zsh_dir/_credctl"
put 0644 "$work/completion.fish" "$prefix/share/fish/vendor_completions.d/credctl.fish"
for unit in systemd/*; do put 0644 "$work/${unit##*/}" "$prefix/lib/systemd/user/${unit##*/}"; done
put 0644 README.md "$prefix/share/doc/credctl/README.md"
put 0644 LICENSE "$prefix/share/doc/credctl/LICENSE"
installed+=("$manifest")
printf '%s\n' "${installed[@]}" > "$destdir$manifest"
chmod 0644 "$destdir$manifest"
echo "Installed credctl under $destdir$prefix (list: $destdir$manifest)"
