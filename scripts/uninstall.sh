#!/usr/bin/env bash
# Removes what install.sh installed under $DESTDIR$PREFIX, as its manifest lists it: every file,
# then every directory it created, deepest first and only while empty, since another package may
# have put files there since.
set -euo pipefail
prefix="${PREFIX:-/usr/local}"
prefix="${prefix%/}"
destdir="${DESTDIR:-}"
manifest="$prefix/share/doc/credctl/installed-files"
if [ ! -f "$destdir$manifest" ]; then
    echo "uninstall: credctl is not installed under $destdir$prefix: $destdir$manifest does not exist" >&2
    exit 1
fi
mapfile -t entries < "$destdir$manifest"
# The manifest decides what root deletes: only paths under PREFIX, and directories on the way to
# it (install.sh creates those in an empty DESTDIR), are taken; any other line stops everything.
for entry in "${entries[@]}"; do
    case "$entry" in
        */../*|*/..|*/../) ;;
        "$prefix"/*) continue ;;
        */) case "$prefix/" in "$entry"*) continue ;; esac ;;
    esac
    echo "uninstall: $destdir$manifest names '$entry', outside $prefix; nothing removed" >&2
    exit 1
done
for entry in "${entries[@]}"; do
    case "$entry" in */) ;; *) rm -f -- "$destdir$entry" ;; esac
done
# install.sh records a directory after its parent, so the reverse order empties children first.
for ((i = ${#entries[@]} - 1; i >= 0; i--)); do
    case "${entries[i]}" in */) [ ! -d "$destdir${entries[i]}" ] || rmdir --ignore-fail-on-non-empty -- "$destdir${entries[i]}" ;; esac
done
echo "Removed credctl from $destdir$prefix"
