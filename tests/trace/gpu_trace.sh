#!/usr/bin/env bash
# gpu_trace.sh GPUMEM WORKDIR - `gpumem trace` on a GPU (scripts/gpu_session.sh stage trace): builds the test
# programs of tests/trace/ with nvcc into WORKDIR and checks what the report says and how each run ends:
# the planted array of structures (its line and class), the control (nothing to fix), a launch on a stream the
# program created and CUDA graph nodes (graph_streams: ends, with its notes), --stop-after, 10^5 launches
# (bounded), and a program with no kernel. Exit 0 when every check passes; 77 without nvcc or a GPU.
set -u
bin=$(readlink -f "$1") w=$2
src=$(cd "$(dirname "$0")" && pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] && nvidia-smi -L >/dev/null 2>&1 || { echo "no nvcc or no GPU: skipped"; exit 77; }
mkdir -p "$w"
fail=0
for p in planted_aos control graph_streams many_launches; do
  "$nvcc" -O3 -arch=sm_90 -lineinfo "$src/$p.cu" -o "$w/$p" || { echo "FAIL: cannot build $p"; exit 1; }
done
# t NAME WANT_RC TIMEOUT [trace options] -- PROGRAM: runs it, checks the exit code, leaves NAME.txt / NAME.json
t() {
  local name=$1 want=$2 to=$3; shift 3
  local t0=$(date +%s.%N)
  timeout "$to" "$bin" trace --json "$w/$name.json" "$@" >"$w/$name.txt" 2>&1
  local rc=$?
  local s=$(python3 -c "import time; print(round(time.time() - $t0, 1))")
  if [ "$rc" = "$want" ]; then echo "ok: $name (exit $rc, $s s)"; else echo "FAIL: $name exit $rc, want $want ($s s)"; tail -5 "$w/$name.txt"; fail=1; fi
}
# has NAME TEXT: the report (text) says it
has() { grep -qF -- "$2" "$w/$1.txt" && echo "ok: $1 says '$2'" || { echo "FAIL: $1 does not say '$2'"; fail=1; }; }
t aos 0 60 -- "$w/planted_aos"
has aos "planted_aos.cu:15"
has aos "strided by 8"
t control 0 60 -c 1 -- "$w/control" 16777216
has control "nothing worth changing"
# launch 0 is on a created stream: traced again with modules patched at load; then graph nodes and the
# default stream (hung before: docs/TRACE.md, "What is not followed")
t graph_c1 0 40 -c 1 -- "$w/graph_streams"
has graph_c1 "patched as it loaded"
t graph_c3 0 40 -c 3 -- "$w/graph_streams"
has graph_c3 "is a CUDA graph node"
t graph_stop 0 40 --stop-after -c 1 -- "$w/graph_streams"
t many 0 120 -s 99999 -c 1 -- "$w/many_launches"
t none 1 30 -- /bin/true
exit $fail
