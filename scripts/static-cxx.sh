#!/usr/bin/env bash
# Makes DIRECTORY hold libstdc++.a and nothing else (a link to the toolchain's archive), for
# `make release`: searched first with -L, it makes the link line's -lstdc++ static.
# Usage: scripts/static-cxx.sh DIRECTORY
set -euo pipefail
directory=${1:?usage: scripts/static-cxx.sh DIRECTORY}
# clang answers the bare name when it finds no such file.
archive=$(clang -print-file-name=libstdc++.a)
if [ "$archive" = libstdc++.a ] || [ ! -f "$archive" ]; then
    echo "static-cxx: the toolchain's clang finds no libstdc++.a (install libstdc++-12-dev)" >&2
    exit 1
fi
rm -rf "$directory"
mkdir -p "$directory"
ln -s "$archive" "$directory/libstdc++.a"
