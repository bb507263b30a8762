#!/usr/bin/env bash
# Put what scripts/gpu_session.sh needs on a GPU machine into DIR (default
# .carry/gpu): the build folder is past the device tool's 64 MiB carry limit,
# so only the binaries travel: gpumem, the unit-test executables (tests/) with
# the libcmocka copy their rpath names (lib/), and the probe (tests/gpu/).
# Then: BUILD_DIR=DIR bash scripts/gpu_session.sh STAGE... (stage_tests runs
# the executables directly when DIR has no CTestTestfile.cmake).
# NO_TESTS=1 packs gpumem alone (9 MB instead of 33): the tree plus the carry
# must stay under 64 MiB; the committed results take up to 20 MB (tests/results_size.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
src=${BUILD_DIR:-build}
dir=${1:-.carry/gpu}
rm -rf "$dir"
mkdir -p "$dir/tests/gpu" "$dir/lib"
install -m 755 "$src/gpumem" "$dir/gpumem"
[ -f "$src/libgpumem_trace.so" ] && install -m 755 "$src/libgpumem_trace.so" "$dir/"   # gpumem trace finds it beside
git rev-parse --short HEAD >"$dir/COMMIT"
if [ "${NO_TESTS:-0}" = 1 ]; then
  du -sh "$dir"
  exit 0
fi
for t in "$src"/tests/test_*; do install -m 755 -s "$t" "$dir/tests/"; done
install -m 755 -s "$src/tests/gpu/gm_probe" "$dir/tests/gpu/"
install -m 755 -s "$src/tests/libgmt_fake_inject.so" "$dir/tests/"   # the errors table's trace row T24
cp "$src/lib/libcmocka.so.0" "$dir/lib/"
git rev-parse --short HEAD >"$dir/COMMIT"
du -sh "$dir"
