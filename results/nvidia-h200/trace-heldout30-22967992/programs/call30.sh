#!/usr/bin/env bash
# w30's one device call for held-out trace set 30 (run from the repository root: bash .carry/w30/call.sh); at most
# 105 s of wall in all: the set's script is stopped at 100 s (its analyses at 97 s; the GPU's description is written
# beside it, in the background), then the packing (a second or two). Everything comes back as two files in $OUT/w30:
# traces.tar.gz (the trace documents) and reports.tar.gz (the live reports, each run's output and exit line, the
# plain runs, log.txt, gpu.txt, ls.txt).
set -u
cd .carry/w30 || { echo "no .carry/w30"; exit 3; }
O=${OUT:-/tmp/out}/w30; P=/tmp/pk30; rm -rf /tmp/h30 $P  # a warm machine: nothing stale
L=reports-live-$(head -c 7 gpu/COMMIT 2>/dev/null)
mkdir -p $O $P/outputs $P/plain $P/$L
{ echo "start $(date -u '+%F %T') UTC"; nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv
  python3 -c "import cupy, numpy; print('cupy', cupy.__version__, 'numpy', numpy.__version__)"
  python3 --version; echo "gpumem COMMIT $(cat gpu/COMMIT)"; sha256sum gpu/gpumem gpu/libgpumem_trace.so bin/*
  nproc; } > $P/outputs/gpu.txt 2>&1 &
INFO=$!
export GPUMEM_TRACE_LIB=$PWD/gpu/libgpumem_trace.so PYTHONUNBUFFERED=1
timeout 100 bash programs/heldout30.sh $PWD/gpu/gpumem $PWD/bin /tmp/h30 97 2>&1 | tee $P/outputs/log.txt
kill $INFO 2>/dev/null; wait $INFO 2>/dev/null  # long done (it takes a few seconds)
echo "end $(date -u '+%F %T') UTC" >> $P/outputs/gpu.txt
cd /tmp/h30 && ls -la > $P/outputs/ls.txt
cp /tmp/h30/*.report.json $P/$L/ 2>/dev/null
for f in /tmp/h30/*.plain.txt; do cp $f $P/plain/; done
for f in /tmp/h30/*.txt; do case $f in *.plain.txt) ;; *) cp $f $P/outputs/ ;; esac; done
tar czf $O/traces.tar.gz *.trace.json
cd $P && tar czf $O/reports.tar.gz $L outputs plain
ls -la $O
