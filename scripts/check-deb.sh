#!/usr/bin/env bash
# Installs the Debian package on this machine (root, as in CI) and checks it as a user meets it:
# exactly the expected files; every library credctl loads a dependency or a recommendation;
# `credctl --version`; `man credctl`; bash, zsh and fish each finding and loading the completion
# from where they look; systemd accepting the user units. Then purges it and checks that nothing
# of it is left. The package is purged on any failure too, so the machine is left as it was.
set -euo pipefail
deb="${1:?usage: check-deb.sh PACKAGE.deb}"
[ -f "$deb" ] || { echo "check-deb: no package $deb" >&2; exit 1; }
export LC_ALL=C
work="$(mktemp -d)"
fail() { echo "check-deb: $*" >&2; exit 1; }
cleanup() {
    if dpkg-query -W credctl > /dev/null 2>&1; then dpkg --purge credctl > /dev/null; fi
    rm -rf "$work"
}
trap cleanup EXIT
if dpkg-query -W credctl > /dev/null 2>&1; then fail "credctl is already installed here; the check needs a machine without it"; fi

# dpkg -i does not fetch dependencies; apt-get install -f brings any that are missing.
dpkg -i "$deb" > /dev/null || apt-get install -f -y -qq > /dev/null
version="$(dpkg-query -W -f '${Version}' credctl)"

dpkg -L credctl | sort > "$work/owned"
while read -r path; do [ -d "$path" ] || echo "$path"; done < "$work/owned" > "$work/files"
diff -u - "$work/files" <<'EOF' || fail "the package holds other files than expected (- expected, + installed)"
/usr/bin/credctl
/usr/lib/systemd/user/credctl-agent-ssh.socket
/usr/lib/systemd/user/credctl-agent.service
/usr/lib/systemd/user/credctl-agent.socket
/usr/share/bash-completion/completions/credctl
/usr/share/doc/credctl/README.md.gz
/usr/share/doc/credctl/changelog.Debian.gz
/usr/share/doc/credctl/copyright
/usr/share/fish/vendor_completions.d/credctl.fish
/usr/share/man/man1/credctl.1.gz
/usr/share/zsh/vendor-completions/_credctl
EOF

# Linked or opened on demand (libsecret with GLib, libsodium, SQLite; libcurl, libcrypto, GIO),
# each library's package is a Depends or a Recommends.
relations="$(dpkg-query -W -f '${Depends}, ${Recommends}' credctl | sed 's/ *([^)]*)//g; s/, */\n/g')"
for package in libsecret-1-0 libglib2.0-0 libsodium23 libsqlite3-0 libcurl4 libssl3; do
    grep -qx "$package" <<< "$relations" || fail "$package is neither a dependency nor a recommendation: $(paste -sd' ' <<< "$relations")"
done

[ "$(credctl --version)" = "credctl ${version%-*}" ] || fail "credctl --version says '$(credctl --version)', the package is $version"
[ "$(command -v credctl)" = /usr/bin/credctl ] || fail "credctl on PATH is $(command -v credctl), not /usr/bin/credctl"

[ "$(man -w credctl)" = /usr/share/man/man1/credctl.1.gz ] || fail "man finds $(man -w credctl 2>&1)"
# At its default 80 columns man-db keeps a formatted copy in /var/cache/man/cat1, which the purge
# would leave behind; at another width it formats and keeps nothing.
page="$(MANWIDTH=100 man credctl 2> "$work/man.err")"
[ ! -s "$work/man.err" ] || fail "man credctl warned: $(cat "$work/man.err")"
grep -q '^NAME' <<< "$page" && grep -q 'credctl - ' <<< "$page" || fail "man credctl renders no NAME section: $(head -5 <<< "$page")"

# Each shell runs with a fresh home, so nothing but the system's own places can supply the script.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
mkdir -p "$HOME"
bash_result="$(bash --norc --noprofile -c '
    source /usr/share/bash-completion/bash_completion
    __load_completion credctl && complete -p credctl
    COMP_WORDS=(credctl ho); COMP_CWORD=1; _credctl; echo "${COMPREPLY[*]}"')"
[ "$bash_result" = $'complete -F _credctl credctl\nhost' ] || fail "bash-completion did not load and run credctl's completion: $bash_result"

zsh_result="$(zsh -f -c '
    autoload -U compinit && compinit -u -d "$HOME/zcompdump"
    print -r -- ${_comps[credctl]} ${^fpath}/_credctl(N)
    autoload +X _credctl && whence -w _credctl')"
[ "$zsh_result" = $'_credctl /usr/share/zsh/vendor-completions/_credctl\n_credctl: function' ] \
    || fail "zsh did not find credctl's completion in \$fpath and load it: $zsh_result"

fish_result="$(fish -c 'complete -C "credctl "; complete -C "credctl host "' | cut -f1)"
for word in init host identity completion add edit list show rm; do
    grep -qx "$word" <<< "$fish_result" || fail "fish does not complete '$word' after credctl: $(paste -sd' ' <<< "$fish_result")"
done

grep -qx 'ExecStart=/usr/bin/credctl agent' /usr/lib/systemd/user/credctl-agent.service || fail "credctl-agent.service does not run /usr/bin/credctl"
mkdir -m 0700 "$work/runtime"
XDG_RUNTIME_DIR="$work/runtime" systemd-analyze verify --user /usr/lib/systemd/user/credctl-agent.service \
    /usr/lib/systemd/user/credctl-agent.socket /usr/lib/systemd/user/credctl-agent-ssh.socket \
    || fail "systemd-analyze refuses the installed user units"

# Left behind: a path of the package that is still a file, or an empty directory no other
# package owns; or a formatted copy of the man page in man-db's cache.
dpkg --purge credctl > /dev/null
while read -r path; do
    if [ -e "$path" ] && { [ ! -d "$path" ] || { [ -z "$(ls -A "$path")" ] && ! dpkg -S "$path" > /dev/null 2>&1; }; }; then
        echo "$path"
    fi
done < "$work/owned" > "$work/left"
[ ! -d /var/cache/man ] || find /var/cache/man -name 'credctl.*' >> "$work/left"
[ ! -s "$work/left" ] || fail "dpkg --purge left $(paste -sd' ' "$work/left")"
echo "check-deb: $deb ($version) installed, ran, completed in bash, zsh and fish, and purged without a trace"
