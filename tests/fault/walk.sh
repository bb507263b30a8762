#!/usr/bin/env bash
# The fault-injection walk (issue 22 item 4; docs/HARDENING.md): BIN must be a
# -DGPUMEM_FAULT=ON build. Usage: walk.sh BIN [OUTDIR] [walk.py options, e.g. --budget 90 --part fs]
# On a GPU: the setup, every case's call sites of each class, explain --run and
# the output files; without one the output-file part only, then exit 77 (skipped).
set -euo pipefail
bin=$1
out=${2:-fault-walk}
shift $(($# < 2 ? $# : 2))
if ! grep -qa 'gpumem-fault: injected' "$bin"; then
  echo "error: $bin is not a fault-injection build (cmake -DGPUMEM_FAULT=ON)" >&2
  exit 2
fi
exec python3 "$(dirname "$0")/walk.py" "$bin" "$out" "$@"
