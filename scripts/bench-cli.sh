#!/usr/bin/env bash
# `make bench-cli`: how long a whole process takes to hand out one stored password. credctl read
# (key file, no agent) and credctl --version; floor programs in C and Swift that do the least
# the job needs (bench/cli/); and what a user would otherwise pick — secret-tool lookup against
# gnome-keyring, pass show, gopass show — each against a store of the same size. Timed by
# hyperfine (no shell), reported by `credbench cli-report`: a table on stdout,
# bench-results/cli.json.
#
# Usage: scripts/bench-cli.sh BIN_DIR    (a release build directory holding credctl and credbench)
# BENCH_CLI_SIZES (ascending; default "1000 10000"), BENCH_CLI_HYPERFINE (default "--warmup 3
# --min-runs 20 --max-runs 400"), BENCH_CLI_ROUNDS (default 6); BENCH_CLI_KEEP=1 leaves the
# stores behind.
#
# Every row is timed once per round, the rounds one after another, and its samples pooled: a
# shared machine's speed drifts over the minutes a run takes, and a row timed only at the start
# would be compared with one timed only at the end. Six short rounds (at most 400 runs, about a
# second, for a fast row) follow the drift more closely than three long ones.
set -euo pipefail

bin=$(cd "${1:?usage: scripts/bench-cli.sh BIN_DIR}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
read -r -a sizes <<< "${BENCH_CLI_SIZES:-1000 10000}"
read -r -a hyperfine_options <<< "${BENCH_CLI_HYPERFINE:---warmup 3 --min-runs 20 --max-runs 400}"
rounds=${BENCH_CLI_ROUNDS:-6}
largest=${sizes[-1]}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-cli.XXXXXX")
results=$work/results
mkdir -p "$results" "$work/home" "$work/floor" "$work/vaults"
# Empty and private: credctl finds no agent socket there, so every read unlocks with the key file.
mkdir -m 700 "$work/run"
# Every process below gets this environment and nothing of the caller's.
base=(PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 XDG_RUNTIME_DIR="$work/run"
      XDG_CONFIG_HOME="$work/home/config" XDG_DATA_HOME="$work/home/data")
pids=()

cleanup() {
    # Only what this script started: the keyring daemons and their buses, and the gpg-agent.
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -d "$work/gnupg" ] && env -i "${base[@]}" GNUPGHOME="$work/gnupg" gpgconf --kill all 2>/dev/null
    if [ "${BENCH_CLI_KEEP:-}" = 1 ]; then echo "stores kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

progress() { echo "bench-cli: $*" >&2; }
note() { echo "$*" >> "$results/notes.txt"; }
seconds_since() { awk -v start="$1" -v now="$EPOCHREALTIME" 'BEGIN { printf "%.1f", now - start }'; }
# 10000 -> 10k: the row names.
short() { if (( $1 % 1000 == 0 )); then echo "$(( $1 / 1000 ))k"; else echo "$1"; fi; }
version() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo "?"; }
# Entry names as credbench names its vault's hosts.
labels() { awk -v count="$1" 'BEGIN { for (i = 0; i < count; i++) printf "host-%06d\n", i }'; }

# measure NAME EXPECTED VAR=VALUE... -- COMMAND ARGUMENT...
# Runs the command once and checks it prints EXPECTED (any output for "-"), so a fast wrong
# answer never becomes a number; then times it with hyperfine into the next row's NN-ROUND.json.
measure() {
    local name=$1 expected=$2 variables=() command="" output
    shift 2
    while [ "$1" != -- ]; do variables+=("$1"); shift; done
    shift
    output=$(env -i "${base[@]}" "${variables[@]}" "$@") || { echo "bench-cli: $name failed" >&2; exit 1; }
    if [ -z "$output" ] || { [ "$expected" != - ] && [ "$output" != "$expected" ]; }; then
        echo "bench-cli: $name printed something else than the stored password" >&2; exit 1
    fi
    # hyperfine --shell=none splits the command line as a POSIX shell would: quote every word.
    for word in "$@"; do command+="'${word//\'/\'\\\'\'}' "; done
    row=$((row + 1))
    progress "measuring $name"
    env -i "${base[@]}" "${variables[@]}" hyperfine --shell=none --style=basic "${hyperfine_options[@]}" \
        --command-name "$name" --export-json "$(printf '%s/%02d-%d.json' "$results" "$row" "$round")" "$command" >&2
}

# skip NAME REASON: a row left out, with its reason in the table.
skip() {
    row=$((row + 1))
    printf '%s\n%s\n' "$1" "$2" > "$(printf '%s/%02d.skip' "$results" "$row")"
}

note "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine makes every number noisy)"
password=$(head -c 18 /dev/urandom | base64)

# --- Floors: one sealed row among as many as the largest vault has hosts.
progress "building the floor programs"
flags=(-I "$root/Sources/CSQLite" -I "$root/Sources/CSodium")
gcc -O2 -o "$work/floor/setup" "$root/bench/cli/floor-setup.c" $(pkg-config --cflags --libs libsodium sqlite3)
gcc -O2 -o "$work/floor/c" "$root/bench/cli/floor.c" $(pkg-config --cflags --libs libsodium sqlite3)
swiftc -O "${flags[@]}" "$root/bench/cli/floor.swift" -o "$work/floor/swift"
swiftc -O -static-stdlib "${flags[@]}" "$root/bench/cli/floor.swift" -o "$work/floor/swift-static"
# Linked as make release links credctl: the C++ runtime under the Swift runtime static too.
"$root/scripts/static-cxx.sh" "$work/floor/static-c++"
swiftc -O -static-stdlib "${flags[@]}" "$root/bench/cli/floor.swift" -o "$work/floor/swift-static-cxx" \
    -L "$work/floor/static-c++" -Xclang-linker -static-libgcc
"$work/floor/setup" "$work/floor/db" "$work/floor/key" "$largest"
floor_row=$(( largest / 2 ))
note "floors: bench/cli/floor.{c,swift}: key file, SQLite read-only, row $floor_row of $largest, XChaCha20-Poly1305 open; gcc -O2, swiftc -O"

# --- credctl vaults: one vault grown through the sizes, a copy at each (credbench cli-vaults).
progress "building vaults of ${sizes[*]} hosts"
start=$EPOCHREALTIME
reference=$(env -i "${base[@]}" "$bin/credbench" cli-vaults --directory "$work/vaults" --sizes "$(IFS=,; echo "${sizes[*]}")")
note "credctl: $bin/credctl, --key-file, XDG_RUNTIME_DIR empty (no agent); vaults built in $(seconds_since "$start") s"

# --- gnome-keyring: one daemon per size, each on a private session bus with no service
# directories, so nothing starts by bus activation behind the script's back.
# Storing N items one by one takes time quadratic in N: gnome-keyring rewrites the whole keyring
# file on every store (0.4-1.3 s per store at 10k items here; 10k stores took 46 minutes). So N-1 items
# are written as the login keyring file in gnome-keyring's own unencrypted format (what it
# writes for a keyring without a password), which the daemon loads at unlock and keeps
# encrypted with the unlock password from then on; the one item read is stored with
# secret-tool store, its time noted. Lookups go through the login collection as a user's do.
start_keyring() {
    local size=$1 directory=$work/keyring-$1 address start
    mkdir -p -m 700 "$directory" "$directory/run" "$directory/data" "$directory/data/keyrings"
    cat > "$directory/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=$directory/run</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
EOF
    dbus-daemon --config-file="$directory/bus.conf" --fork --print-address=1 --print-pid=1 > "$directory/bus"
    pids+=("$(sed -n 2p "$directory/bus")")
    address=$(sed -n 1p "$directory/bus")
    {
        printf '[keyring]\ndisplay-name=Login\nctime=0\nmtime=0\nlock-on-idle=false\nlock-after=false\n'
        labels $((size - 1)) | awk '{ printf "\n[%d]\nitem-type=0\ndisplay-name=%s\nsecret=pw-%s-%d\nmtime=0\nctime=0\n\n", NR, $1, $1, NR
                                      printf "[%d:attribute0]\nname=service\ntype=string\nvalue=credbench\n\n", NR
                                      printf "[%d:attribute1]\nname=host\ntype=string\nvalue=%s\n", NR, $1 }'
    } > "$directory/data/keyrings/login.keyring"
    printf login > "$directory/data/keyrings/default"
    chmod 600 "$directory/data/keyrings/"*
    keyring_environment=(DBUS_SESSION_BUS_ADDRESS="$address" XDG_DATA_HOME="$directory/data" XDG_RUNTIME_DIR="$directory/run")
    start=$EPOCHREALTIME
    head -c 12 /dev/urandom | base64 | env -i "${base[@]}" "${keyring_environment[@]}" \
        gnome-keyring-daemon --unlock --components=secrets > /dev/null
    # Ready once the default alias names the login collection; the file loads first (tens of
    # seconds at 10k items on a busy machine: the unencrypted format parses in quadratic time).
    local deadline=$((SECONDS + 300)) reply=""
    until [[ $reply == *collection/login* ]]; do
        (( SECONDS < deadline )) || { echo "bench-cli: gnome-keyring did not come up with $size items" >&2; exit 1; }
        sleep 0.2
        reply=$(env -i "${base[@]}" "${keyring_environment[@]}" dbus-send --session --print-reply --dest=org.freedesktop.secrets \
            /org/freedesktop/secrets org.freedesktop.Secret.Service.ReadAlias string:default 2>/dev/null) || true
    done
    local loaded
    loaded=$(seconds_since "$start")
    pids+=("$(env -i "${base[@]}" "${keyring_environment[@]}" dbus-send --session --print-reply --dest=org.freedesktop.DBus \
        /org/freedesktop/DBus org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets | awk '/uint32/ { print $2 }')")
    start=$EPOCHREALTIME
    printf %s "$password" | env -i "${base[@]}" "${keyring_environment[@]}" \
        secret-tool store --label=with-password service credbench host with-password
    note "secret-tool, $(short "$size"): $((size - 1)) items loaded at unlock in $loaded s; one secret-tool store into them: $(seconds_since "$start") s"
}

progress "starting gnome-keyring with ${sizes[*]} items"
declare -A keyring_buses
for size in "${sizes[@]}"; do
    start_keyring "$size"
    keyring_buses[$size]=${keyring_environment[0]}
done
note "secret-tool: libsecret-tools $(version libsecret-tools), gnome-keyring $(version gnome-keyring), login keyring, each on a private bus"

# --- pass: a key without a passphrase (%no-protection) in a private GNUPGHOME; its agent stays
# up between reads, as a user's does. Ed25519/Cv25519, GnuPG's faster kind of key (RSA 3072,
# GnuPG 2.2's default, decrypts more slowly): the comparison gives pass its best case.
# `pass insert` runs gpg once per entry, so the largest store's N-1 entries are encrypted by one
# gpg --encrypt-files with pass's own options, and the smaller stores are copies of its first
# entries; the entry read is inserted with pass insert into each.
progress "creating pass stores of ${sizes[*]} entries"
gnupg=(GNUPGHOME="$work/gnupg")
mkdir -m 700 "$work/gnupg"
env -i "${base[@]}" "${gnupg[@]}" gpg --batch --quiet --gen-key <<EOF
%no-protection
Key-Type: eddsa
Key-Curve: ed25519
Subkey-Type: ecdh
Subkey-Curve: cv25519
Name-Real: credbench
Name-Email: credbench@example.invalid
Expire-Date: 0
%commit
EOF
fingerprint=$(env -i "${base[@]}" "${gnupg[@]}" gpg --batch --with-colons --list-secret-keys | awk -F: '/^fpr/ { print $10; exit }')
mkdir -m 700 "$work/plain"
labels $((largest - 1)) | while read -r label; do echo "pw-$label" > "$work/plain/$label"; done
start=$EPOCHREALTIME
(cd "$work/plain" && labels $((largest - 1)) | env -i "${base[@]}" "${gnupg[@]}" \
    gpg --batch --quiet --yes --compress-algo=none --no-encrypt-to -r "$fingerprint" --encrypt-files)
note "pass: pass $(version pass), GnuPG $(version gpg), $((largest - 1)) entries encrypted by one gpg --encrypt-files in $(seconds_since "$start") s"
for size in "${sizes[@]}"; do
    store=$work/pass-$size
    env -i "${base[@]}" "${gnupg[@]}" PASSWORD_STORE_DIR="$store" pass init "$fingerprint" > /dev/null
    mkdir "$store/hosts"
    labels $((size - 1)) | sed 's/$/.gpg/' | (cd "$work/plain" && xargs cp -t "$store/hosts")
    start=$EPOCHREALTIME
    env -i "${base[@]}" "${gnupg[@]}" PASSWORD_STORE_DIR="$store" pass insert --echo hosts/with-password <<< "$password" > /dev/null
    note "pass, $(short "$size"): one pass insert: $(seconds_since "$start") s"
done
rm -rf "$work/plain"

# --- gopass: Debian 12's package is aviau/gopass, a pass clone in Go (gopasspw/gopass, the
# better-known gopass, is not in Debian 12); it reads a copy of each pass store.
if command -v gopass > /dev/null; then
    for size in "${sizes[@]}"; do cp -a "$work/pass-$size" "$work/gopass-$size"; done
    note "gopass: gopass $(version gopass) (Debian's: aviau/gopass, a pass clone in Go; gopasspw/gopass is not packaged), on copies of the pass stores"
fi

# --- Measure, one row at a time, every row once per round.
for round in $(seq "$rounds"); do
    row=0  # a row's number names its files: the same in every round
    progress "round $round of $rounds"
    measure "C floor (gcc -O2)" - -- "$work/floor/c" "$work/floor/db" "$work/floor/key" "$floor_row"
    measure "Swift floor, -static-stdlib" - -- "$work/floor/swift-static" "$work/floor/db" "$work/floor/key" "$floor_row"
    measure "Swift floor, -static-stdlib, static C++ runtime" - -- "$work/floor/swift-static-cxx" "$work/floor/db" "$work/floor/key" "$floor_row"
    measure "Swift floor, dynamic stdlib" - -- "$work/floor/swift" "$work/floor/db" "$work/floor/key" "$floor_row"
    measure "credctl --version" - -- "$bin/credctl" --version
    for size in "${sizes[@]}"; do
        measure "credctl read, $(short "$size") hosts" - -- "$bin/credctl" --vault "$work/vaults/vault-$size" --key-file "$work/vaults/vault.key" read "$reference"
    done
    for size in "${sizes[@]}"; do
        measure "secret-tool lookup, $(short "$size") items" "$password" "${keyring_buses[$size]}" -- secret-tool lookup service credbench host with-password
    done
    for size in "${sizes[@]}"; do
        measure "pass show, $(short "$size") entries" "$password" "${gnupg[@]}" PASSWORD_STORE_DIR="$work/pass-$size" -- pass show hosts/with-password
    done
    for size in "${sizes[@]}"; do
        if command -v gopass > /dev/null; then
            measure "gopass show, $(short "$size") entries" "$password" "${gnupg[@]}" PASSWORD_STORE_DIR="$work/gopass-$size" -- gopass show hosts/with-password
        else
            skip "gopass show, $(short "$size") entries" "gopass is not installed ($(apt-cache policy gopass 2>/dev/null | awk '/Candidate/ { print "Debian candidate: " $2 }'))"
        fi
    done
done
note "each row timed in $rounds rounds, one after another, its samples pooled"
note "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

reference_row="credctl read, $(short "$largest") hosts"
# The targets are the issue's: the floor is the static Swift program (swiftc -static-stdlib). The
# floor linked as make release links credctl (its C++ runtime static too) is a row of the table.
floor_name="Swift floor, -static-stdlib"
"$bin/credbench" cli-report --results "$results" --floor "$floor_name" --reference "$reference_row" \
    --target "$reference_row / $floor_name <= 1.3" \
    --target "secret-tool lookup, $(short "$largest") items / $reference_row >= 3" \
    --target "pass show, $(short "$largest") entries / $reference_row >= 3" \
    --output "$root/bench-results/cli.json"
