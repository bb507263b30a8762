#!/usr/bin/env bash
# Install what gpumem builds with (Debian packages). Quiet when all is there.
set -euo pipefail
pkgs="cmake pkg-config libjansson-dev zlib1g-dev libcmocka-dev clang libjs-chart.js libopenmpi-dev openmpi-bin"
missing=""
for p in $pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "installing:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
