#!/usr/bin/env bash
# The main job end to end, on a temporary vault that is removed afterwards:
# create a vault, add a host with a password and one with a key, resolve both, then show the
# honest "not synced yet" error by removing a body behind the config's back.
set -euo pipefail
credctl="${1:?usage: demo.sh PATH_TO_CREDCTL}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CREDCTL_VAULT="$work/vault"
export CREDCTL_KEY_FILE="$work/vault.key"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }
cred() { printf '$ credctl %s\n' "$*"; "$credctl" "$@"; }

step "Create a vault that unlocks with a key file (created 0600)"
cred init
ls -l "$work/vault.key" | awk '{print $1, $NF}'

step "Add a host with a password (read from standard input, never from argv)"
password="demo-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
echo '$ printf %s "$password" | credctl host add web-1 --hostname 192.0.2.10 --user deploy --password-stdin'
printf '%s\n' "$password" | "$credctl" host add web-1 --hostname 192.0.2.10 --user deploy --password-stdin

step "Add an identity from an ed25519 key, and a host that uses it through web-1"
ssh-keygen -q -t ed25519 -N '' -C demo@credvault -f "$work/id_demo"
cred identity add laptop --private-key "$work/id_demo" --user admin
cred host add db-1 --hostname db.internal --identity laptop --jump web-1
cred host list

step "Resolve both (the secrets are checked but not printed)"
cred resolve web-1
cred resolve db-1
echo '$ credctl read cred://host/web-1/password   # piped, so it prints'
stored="$("$credctl" read cred://host/web-1/password)"
[ "$stored" = "$password" ] && echo "the stored password round-trips byte for byte (${#stored} bytes)"
"$credctl" read cred://identity/laptop/privkey | cmp -s - "$work/id_demo" && echo "the stored private key equals the key file"

step "Config holds only the reference; the secret track holds the sealed body"
cred host show web-1 --json
if grep -a -q "$password" "$work"/vault/*.sqlite*; then echo "FAIL: the password is readable in the vault files"; exit 1; fi
echo "the password appears in no vault file"

step "Remove the body behind the config's back: resolving is an explicit not-yet-synced error"
reference="$("$credctl" host show web-1 --json | sed -n 's/.*"password_ref": "\(.*\)".*/\1/p')"
show sqlite3 "$work/vault/secrets.sqlite" "DELETE FROM secret_items WHERE reference = '$reference'"
set +e
echo "$ credctl resolve web-1"
"$credctl" resolve web-1
status=$?
set -e
echo "exit status: $status (75 = credentials have not synced to this device yet)"
[ "$status" -eq 75 ]

step "Status"
cred status

step "Two devices, one remote directory (stand-in for a Syncthing or Nextcloud folder)"
remote="$work/remote"
export CREDCTL_VAULT="$work/laptop" CREDCTL_KEY_FILE="$work/laptop.key"
echo '# on the laptop'
cred init
cred remote set "$remote" --recovery-key-file "$work/recovery-key"
echo '$ printf %s "$PW" | credctl host add db-2 --hostname 192.0.2.20 --user app --password-stdin'
printf '%s' "$password" | "$credctl" host add db-2 --hostname 192.0.2.20 --user app --password-stdin
cred sync --zone config
export CREDCTL_VAULT="$work/desktop" CREDCTL_KEY_FILE="$work/desktop.key"
echo '# on the desktop: ask to join (exit 75 until a device of the vault approves it)'
echo "\$ credctl init --join $remote --name desktop"
set +e
"$credctl" init --join "$remote" --name desktop | tee "$work/join.out"
status=${PIPESTATUS[0]}
set -e
echo "exit status: $status (75 = waiting for approval)"
[ "$status" -eq 75 ]
code="$(grep -o 'Verification code: [0-9A-Z-]*' "$work/join.out" | cut -d' ' -f3)"
export CREDCTL_VAULT="$work/laptop" CREDCTL_KEY_FILE="$work/laptop.key"
echo '# on the laptop: the same code is listed; approve it'
cred device requests
echo "\$ credctl device approve $code --yes"
"$credctl" device approve "$code" --yes | tee "$work/approve.out"
confirmation="$(grep -o '[0-9A-Z]\{4\}-[0-9A-Z]\{4\}$' "$work/approve.out")"
export CREDCTL_VAULT="$work/desktop" CREDCTL_KEY_FILE="$work/desktop.key"
echo '# on the desktop: the confirmation code finishes the join; the config arrives, the password has not yet'
cred init --join "$remote" --confirm "$confirmation"
cred host list
echo '$ credctl read cred://host/db-2/password'
set +e
"$credctl" read cred://host/db-2/password >/dev/null
status=$?
set -e
echo "exit status: $status (75 = not synced to this device yet)"
[ "$status" -eq 75 ]
export CREDCTL_VAULT="$work/laptop" CREDCTL_KEY_FILE="$work/laptop.key"
echo '# on the laptop'
cred sync
export CREDCTL_VAULT="$work/desktop" CREDCTL_KEY_FILE="$work/desktop.key"
echo '# on the desktop'
cred sync
stored="$("$credctl" read cred://host/db-2/password)"
[ "$stored" = "$password" ] && echo "the desktop reads the laptop's password byte for byte"
cred device list
cred status
if grep -r -a -q -e "$password" -e "db-2" -e "192.0.2.20" "$remote"; then echo "FAIL: the remote holds readable data"; exit 1; fi
echo "the remote holds only sealed objects: $(find "$remote" -type f | wc -l) files, none with a label, address or secret in it"
printf '\nDemo complete.\n'
