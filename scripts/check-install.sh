#!/usr/bin/env bash
# Checks make install and make uninstall in temporary DESTDIRs: the files installed (with their
# modes) are exactly the expected list, the units run the installed binary, the manifest names
# what was installed; a second install over the first replaces it; uninstall then leaves nothing
# of credctl's, and keeps another package's file put in a directory credctl created; it refuses
# a manifest that names a path outside PREFIX.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# One byte order for every sort and comparison, whatever the caller's locale.
export LC_ALL=C
fail() { echo "check-install: $*" >&2; exit 1; }

expected="0755 usr/local/bin/credctl
0644 usr/local/lib/systemd/user/credctl-agent-ssh.socket
0644 usr/local/lib/systemd/user/credctl-agent.service
0644 usr/local/lib/systemd/user/credctl-agent.socket
0644 usr/local/share/bash-completion/completions/credctl
0644 usr/local/share/doc/credctl/LICENSE
0644 usr/local/share/doc/credctl/README.md
0644 usr/local/share/doc/credctl/installed-files
0644 usr/local/share/fish/vendor_completions.d/credctl.fish
0644 usr/local/share/man/man1/credctl.1
0644 usr/local/share/zsh/site-functions/_credctl"

# The files under DIR, with their modes, one a line, sorted by path.
files() { (cd "$1" && find . -type f -printf '%m %P\n' | sed 's/^\([0-7]\{3\}\) /0\1 /' | sort -k2); }
# Everything left under DIR.
leftovers() { (cd "$1" && find . -mindepth 1 -printf '%P\n' | sort); }
install_into() { make --no-print-directory install DESTDIR="$1" > /dev/null; }
uninstall_from() { make --no-print-directory uninstall DESTDIR="$1" > /dev/null; }

# Into an empty DESTDIR: exactly the expected files; uninstall leaves DESTDIR empty.
fresh="$work/fresh"
install_into "$fresh"
diff -u <(sort -k2 <<< "$expected") <(files "$fresh") || fail "make install did not install the expected files (- expected, + installed)"
grep -qx 'ExecStart=/usr/local/bin/credctl agent' "$fresh/usr/local/lib/systemd/user/credctl-agent.service" \
    || fail "credctl-agent.service does not run /usr/local/bin/credctl: $(grep ExecStart "$fresh/usr/local/lib/systemd/user/credctl-agent.service")"
diff -u <(sed 's|^[0-7]* |/|' <<< "$expected" | sort) <(grep -v '/$' "$fresh/usr/local/share/doc/credctl/installed-files" | sort) \
    || fail "the manifest does not list the installed files (- installed, + listed)"
"$fresh/usr/local/bin/credctl" --version > /dev/null || fail "the installed credctl does not run"
# The Swift runtime and the C++ runtime under it are linked in (make release): the binary
# needs only the C libraries it calls, and no library beside it (no RUNPATH).
needed=$(readelf -d "$fresh/usr/local/bin/credctl" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v '^ld-linux' | sort | paste -sd' ')
[ "$needed" = "libc.so.6 libm.so.6 libsodium.so.23 libsqlite3.so.0" ] \
    || fail "the installed credctl links more than libc, libm, libsodium and libsqlite3: $needed"
! readelf -d "$fresh/usr/local/bin/credctl" | grep -q 'R\(UN\)\?PATH' || fail "the installed credctl has a RUNPATH"
# Its relative relocations packed (lld, -z pack-relative-relocs): a few kilobytes for the loader.
readelf -d "$fresh/usr/local/bin/credctl" | grep -q '(RELR)' || fail "the installed credctl's relocations are not packed (no DT_RELR)"
# The functions of the commands run most come first and together (make release, startup-order.txt):
# most of those listed still exist, and credctl's own among them span little more than their
# size (about 20 times it when the order is not applied). Stale: make startup-order.
nm -S -t d --defined-only "$fresh/usr/local/bin/credctl" > "$work/symbols"
modules=$(find Sources -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | grep -v '^C[A-Z]' | paste -sd' ')
layout=$(awk -v modules="$modules" '
    BEGIN { n = split(modules, m, " "); for (i = 1; i <= n; i++) own["$s" length(m[i]) m[i]] = 1 }
    FNR == NR { if ($0 !~ /^#/ && NF) { listed[$1] = 1; count++ } next }
    NF == 4 && $3 ~ /^[tTwW]$/ && ($4 in listed) && !($4 in seen) {
        seen[$4] = 1; found++
        if (!match($4, /^\$s[0-9]+/)) next
        prefix = substr($4, 1, RLENGTH); name = substr($4, RLENGTH + 1, substr(prefix, 3) + 0)
        if (!((prefix name) in own)) next
        start = $1 + 0; end = start + $2; size += $2
        if (low == "" || start < low) low = start
        if (end > high) high = end
    }
    END { printf "%d %d %.2f\n", count, found, (high - low) / size }' scripts/startup-order.txt "$work/symbols")
read -r listed found spread <<< "$layout"
[ $((found * 10)) -ge $((listed * 9)) ] || fail "only $found of the $listed functions in scripts/startup-order.txt are in credctl: run make startup-order"
awk -v s="$spread" 'BEGIN { exit !(s <= 1.5) }' || fail "credctl's own start-up functions span $spread times their size: scripts/startup-order.txt was not applied"
uninstall_from "$fresh"
[ -z "$(leftovers "$fresh")" ] || fail "make uninstall left $(leftovers "$fresh" | paste -sd' ')"

# Another package's completion put beside credctl's, in directories credctl created: a second
# install replaces the first, and uninstall removes credctl's files but keeps the other file and
# the directories that hold it.
shared="$work/shared"
install_into "$shared"
echo "complete -F _other other" > "$shared/usr/local/share/bash-completion/completions/other"
install_into "$shared"
diff -u <(printf '%s\n0644 usr/local/share/bash-completion/completions/other\n' "$expected" | sort -k2) <(files "$shared") \
    || fail "make install over an install did not leave the expected files (- expected, + installed)"
uninstall_from "$shared"
diff -u <(printf '%s\n' usr usr/local usr/local/share usr/local/share/bash-completion usr/local/share/bash-completion/completions \
    usr/local/share/bash-completion/completions/other) <(leftovers "$shared") \
    || fail "make uninstall did not leave exactly the other package's file and its directories (- expected, + left)"
# A manifest naming a path outside PREFIX (edited, or damaged) makes uninstall refuse, removing
# nothing: it runs as root.
tampered="$work/tampered"
install_into "$tampered"
touch "$tampered/outside"
echo /usr/local/../../outside >> "$tampered/usr/local/share/doc/credctl/installed-files"
! uninstall_from "$tampered" 2> /dev/null || fail "make uninstall followed a manifest line outside PREFIX"
[ -f "$tampered/outside" ] && [ -f "$tampered/usr/local/bin/credctl" ] || fail "make uninstall removed files before refusing a manifest line outside PREFIX"
echo "check-install: make install and make uninstall installed and removed exactly the expected files"
