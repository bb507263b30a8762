#!/usr/bin/env bash
# GPU test: every case of every family validates (random inputs, poisoned
# outputs, every element checked) at a small size. Exit 77 = skipped (no GPU).
bin=$1
"$bin" info >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 3 ]; then
  echo "no CUDA device: skipped"
  exit 77
fi
[ "$rc" -eq 0 ] || exit "$rc"
exec "$bin" run --reps 2 --size 64M
