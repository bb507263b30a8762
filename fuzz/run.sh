#!/usr/bin/env bash
# fuzz/run.sh [SECONDS] - build the libFuzzer target and fuzz the expression
# parser and the model for SECONDS (default 60), starting from fuzz/corpus.
# Exits non-zero when the fuzzer finds a crash, a sanitizer error or a broken
# model invariant; the reproducer lands in fuzz/out/.
#   GPUMEM_FUZZ_BUILD  build directory (default build-fuzz)
set -euo pipefail

secs=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GPUMEM_FUZZ_BUILD:-$root/build-fuzz}
out=$root/fuzz/out

case $secs in
''|*[!0-9]*) echo "error: seconds must be a whole number, got '$secs'" >&2; exit 2 ;;
esac

CC=clang cmake -S "$root" -B "$build" -DGPUMEM_FUZZ=ON -DGPUMEM_CUDA=OFF \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target fuzz_expr -j2

# New inputs go to a scratch copy; the committed corpus stays as it is.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cp "$root"/fuzz/corpus/* "$work"/

"$build/fuzz/fuzz_expr" "$work" \
	-dict="$root/fuzz/expr.dict" \
	-max_total_time="$secs" \
	-max_len=4400 \
	-timeout=10 \
	-rss_limit_mb=2048 \
	-print_final_stats=1 \
	-artifact_prefix="$out/"
