#!/usr/bin/env bash
# held-out set 30 (issue 38): programs no trace rule has seen, naive/fixed pairs, three controls and a data-dependent
# walk, at sizes of real workloads: CuPy RawKernels written for this set (p30_*.py, -lineinfo through NVRTC;
# p30_blur.py run twice, as the runs blur2d and blursep) and three CUDA C++ programs (p30_hash.cu, p30_sum.cu,
# p30_bsr.cu, nvcc -O3 -lineinfo -arch=sm_90, passed built in BIN as p30_NAME). heldout28.sh with this set's names and
# binaries (the whole call in 105 s).
# Every program is traced once (the controls first), one collection at a time on the GPU; its analysis (CPU work)
# goes on in the background while the next program is collected, so a slow analysis cuts no collection: the next
# collection starts as soon as the trace document exists (written whole, by a rename) or the run ended. Then the
# programs' own timings and pair checks, untraced and alone on the GPU (PLAIN=1: each kernel once, the checks, the
# median of 20), while the analyses finish. Every analysis is stopped at END_S seconds (its document stays).
# Usage: heldout30.sh GPUMEM BIN OUTDIR END_S  (a collection that would start after END_S - 22 s, a plain run
# after END_S - 5 s, is skipped; one collection may take 20 s, the first 30 s; a plain run 10 s, and none past
# END_S + 2 s)
set -u
G=$1 BIN=$2 H=$3 END=$4; D=$(cd "$(dirname "$0")" && pwd)
for f in "$G" "$BIN/p30_hash" "$BIN/p30_sum" "$BIN/p30_bsr"; do
  case $f in /*) ;; *) echo "GPUMEM and BIN must be absolute paths (the runs start in programs/)"; exit 2 ;; esac
  [ -x "$f" ] || { echo "not executable: $f"; exit 2; }
done
mkdir -p $H
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
cmd() {
  case $1 in
    hash|sum|bsr) echo "$BIN/p30_$1" ;;
    blur2d) echo "python3 $D/p30_blur.py blur2d" ;;
    blursep) echo "python3 $D/p30_blur.py blursep" ;;
    *) echo "python3 $D/p30_$1.py" ;;
  esac
}
ht() { # name collection-limit: start the traced run in the background, return once its document exists
  local name=$1 lim=$2 left=$(( END - $(el) ))
  if [ $(el) -gt $(( END - 22 )) ]; then echo "skipped $name (late)"; echo "skipped: late" > $H/$name.txt; return; fi
  ( t1=$(date +%s.%N)
    timeout $left $G trace --stop-after --kernel . -s 0 -c 64 --keep-trace $H/$name.trace.json \
      --json $H/$name.report.json -- $(cmd $name) > $H/$name.txt 2>&1
    echo "rc=$? wall=$(python3 -c "import time; print(round(time.time() - $t1, 2))")" >> $H/$name.txt ) &
  local pid=$! t=$(date +%s)
  while kill -0 $pid 2>/dev/null && [ ! -e $H/$name.trace.json ] && [ $(( $(date +%s) - t )) -lt $lim ]; do
    sleep 0.2
  done
  if [ -e $H/$name.trace.json ]; then echo "$(el) s: $name traced ($(( $(date +%s) - t )) s), analysing"
  elif kill -0 $pid 2>/dev/null; then echo "$(el) s: $name not traced in $lim s: stopped"; pkill -TERM -P $pid; wait $pid
  else echo "$(el) s: $name ended without a document: $(tail -1 $H/$name.txt)"; fi
}
pr() { # name
  local name=$1
  local left=$(( END + 2 - $(el) ))
  if [ $(el) -gt $(( END - 5 )) ]; then echo "skipped plain $name (late)"; return; fi
  [ $left -gt 10 ] && left=10
  PLAIN=1 timeout $left $(cmd $name) > $H/$name.plain.txt 2>&1; echo "rc=$?" >> $H/$name.plain.txt
  echo "$(el) s: plain $name $(grep -c '^check.* ok' $H/$name.plain.txt) ok, $(grep -c WRONG $H/$name.plain.txt) wrong, $(tail -1 $H/$name.plain.txt)"
}
PROGS=${PROGS:-"control hash sum bsr interp blur2d blursep cumsum walk"}
cd $D
lim=30
for p in $PROGS; do ht $p $lim; lim=20; done
echo "$(el) s: collections done"
for p in $PROGS; do pr $p; done
echo "$(el) s: plain runs done; waiting for the analyses"
wait
for p in $PROGS; do echo "$p: $(tail -1 $H/$p.txt)"; done
echo "$(el) s: done"
