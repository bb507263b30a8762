#!/usr/bin/env bash
# CPU benchmarks of the pure-C tier: how long the launch model takes on a 1 GiB launch (`explain --n`, issue 36's
# target: under 100 ms), then the scale benchmark (scripts/bench/scale.sh). Figures are printed against their
# targets and never failed on time: timing belongs here, not in the unit tests. A wrong exit code fails.
# usage: scripts/bench/cpu.sh GPUMEM
set -uo pipefail
bin=${1:?usage: scripts/bench/cpu.sh GPUMEM}
here=$(cd "$(dirname "$0")" && pwd)
# explain --n of a 1 GiB launch (gid*3 over 4-byte elements: 2^28 threads), best of 5 wall times
best=""
for _ in 1 2 3 4 5; do
  t0=$(date +%s%N)
  "$bin" explain --n 268435456 'gid*3' >/dev/null || { echo "FAIL: explain --n exited $?" >&2; exit 1; }
  t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000000 ))
  [ -z "$best" ] || [ "$ms" -lt "$best" ] && best=$ms
done
over=""; [ "$best" -le 100 ] || over=" (over target)"
echo "explain --n 268435456 'gid*3' (1 GiB): ${best} ms best of 5, process included (target: 100 ms)$over"
bash "$here/scale.sh" "$bin" "$(cd "$here/../.." && pwd)"
