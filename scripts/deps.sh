#!/usr/bin/env bash
# Install what gpumem builds with (Debian packages). Quiet when all is there.
set -euo pipefail
pkgs="cmake pkg-config libjansson-dev zlib1g-dev libcmocka-dev clang libjs-chart.js libopenmpi-dev openmpi-bin"
missing=""
for p in $pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then   # (no early exit: the trace's sanitizer API below is fetched even where every package is here)
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "installing:$missing" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
# ---- trace (issue 38): the Compute Sanitizer API for libgpumem_trace.so, from NVIDIA's pip wheel into .whl/sanitizer
R="$(cd "$(dirname "$0")/.." && pwd)"
# (only where CUDA is built; optional: without it gpumem builds, and `trace` says what is missing)
if { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; } &&
   [ ! -f /usr/local/cuda/compute-sanitizer/include/sanitizer.h ] && [ ! -f "$R/.whl/sanitizer/nvidia/cu13/include/sanitizer.h" ]; then
  { python3 -m pip download -q --no-deps "nvidia-cuda-sanitizer-api==13.0.*" -d "$R/.whl" &&
    python3 -m zipfile -e "$R"/.whl/nvidia_cuda_sanitizer_api-13.0.*.whl "$R/.whl/sanitizer"; } ||
    echo "note: the Compute Sanitizer API (pip nvidia-cuda-sanitizer-api) could not be had: gpumem trace will not be built" >&2
fi
