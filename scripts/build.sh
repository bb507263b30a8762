#!/usr/bin/env bash
# Configure and build into ${BUILD_DIR:-build}: with CUDA when nvcc is there. GPUMEM_TARGETS="a b": only those
# targets (and what they need), not all.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
build=${BUILD_DIR:-build}
cuda=OFF
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  cuda=ON
  export PATH="$PATH:/usr/local/cuda/bin"
fi
cmake -S . -B "$build" -DGPUMEM_CUDA="${GPUMEM_CUDA:-$cuda}" \
  -DGPUMEM_CUDA_ARCHS="${GPUMEM_CUDA_ARCHS:-90}" -DGPUMEM_MPI="${GPUMEM_MPI:-OFF}" >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j"$(nproc)" ${GPUMEM_TARGETS:+--target $GPUMEM_TARGETS}
