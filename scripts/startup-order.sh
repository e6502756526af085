#!/usr/bin/env bash
# `make startup-order`: writes scripts/startup-order.txt, the functions credctl runs for the
# commands other programs run most (read, resolve, host list and show, --version), as the
# release binary BINARY has them. make release links those functions first, next to each other
# (lld --symbol-ordering-file), so a command maps a few pages of code instead of pages spread
# over the whole 11 MB of it: docs/startup.md, "Code laid out by use".
#
# The list is a build input, kept in the tree: building needs no profiler. Run this again after
# large changes to the read path; make check-install fails when the list no longer matches the
# binary (most of its functions gone, or the layout not applied).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:?usage: startup-order.sh PATH_TO_RELEASE_CREDCTL}"
./scripts/install-deps.sh valgrind binutils
export LC_ALL=C
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -m 700 "$work/home" "$work/run"

# Valgrind cannot read the Swift debug information of the release binary; a copy without it
# keeps every symbol (docs/startup.md, "How it is measured").
objcopy --strip-debug "$binary" "$work/credctl"
# No agent: an empty runtime directory, so every command opens the vault itself.
credctl() { env -i HOME="$work/home" XDG_RUNTIME_DIR="$work/run" PATH=/usr/bin:/bin "$@"; }
vault=(--vault "$work/vault" --key-file "$work/key")
credctl "$work/credctl" --vault "$work/vault" init --key-file "$work/key" > /dev/null
head -c 18 /dev/urandom | base64 | credctl "$work/credctl" "${vault[@]}" host add web-1 --hostname 192.0.2.10 --user deploy --password-stdin > /dev/null
credctl "$work/credctl" "${vault[@]}" host add web-2 --hostname 192.0.2.11 --user deploy --auth agent > /dev/null

# Each command once under callgrind, names as the symbol table has them (not demangled).
profile() {
    credctl valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.$1" "$work/credctl" "${@:2}" > /dev/null 2> "$work/valgrind.log" \
        || { cat "$work/valgrind.log" >&2; echo "startup-order: credctl ${*:2} failed under valgrind" >&2; exit 1; }
}
profile version --version
profile read "${vault[@]}" read cred://host/web-1/password
profile resolve "${vault[@]}" resolve web-1
profile list "${vault[@]}" host list
profile show "${vault[@]}" host show web-2

# Callgrind names a function the first time it appears (fn= or cfn=, "(id) name"). Only the
# binary's own functions can be ordered: those its symbol table defines as code.
sed -n 's/^c\{0,1\}fn=([0-9]*) //p' "$work"/callgrind.* | sort -u > "$work/run-functions"
nm --defined-only "$binary" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u > "$work/defined"
{
    echo "# The functions credctl runs for read, resolve, host list, host show and --version, which"
    echo "# make release links first (lld --symbol-ordering-file). Written by scripts/startup-order.sh."
    comm -12 "$work/run-functions" "$work/defined"
} > scripts/startup-order.txt
echo "startup-order: $(grep -vc '^#' scripts/startup-order.txt) functions in scripts/startup-order.txt"
