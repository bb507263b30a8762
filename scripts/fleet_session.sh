#!/usr/bin/env bash
# fleet_session.sh - issue 11 on a GPU machine in one go (made for the
# two-H200 machine, nvidia-h200-x2; degrades to one GPU): every GPU one after
# another (--all-devices), all at once (--concurrent), two MPI ranks with one
# GPU each (run --mpi, with the carried Open MPI), the same with --barrier,
# and a deliberately slowed GPU (a second gpumem process loading the last
# GPU during a run) that `gpumem fleet` must flag.
#
# Layout (scripts/carry_fleet.sh makes it): beside this script gpumem (the
# default build), gpumem-mpi (-DGPUMEM_MPI=ON), fleet_mpirun.sh and mpi/ or
# mpi.tar.xz (scripts/carry_mpi.sh). Everything lands in $OUT (default
# ./fleet-out): SUMMARY.txt first, then the run documents, session.log and
# fleet_session.tar.gz with every file. About 2-3 minutes on two H200s; every
# step is bounded by `timeout`.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
OUT=${OUT:-$here/fleet-out}
mkdir -p "$OUT"
W=$(mktemp -d)
S=$OUT/SUMMARY.txt                # written as the session goes: a cut-off session still says how far it got
LOG=$OUT/session.log
: >"$S"
: >"$LOG"
STEP_S=${STEP_S:-150}
sel=(--quick)                     # the small suite: ~6 s per GPU on an H100
export CUDA_DEVICE_ORDER=PCI_BUS_ID   # CUDA's device numbers = nvidia-smi's (the load's -i below)
[ -d mpi ] || { [ -f mpi.tar.xz ] && tar xJf mpi.tar.xz; }

say() { echo "$*" | tee -a "$S"; }
# step NAME EXPECT COMMAND...: run it bounded, log its output, note exit code and time
step() {
  local name=$1 expect=$2; shift 2
  local t0=$(date +%s%N) rc
  { echo; echo "### $name: $*"; } >>"$LOG"
  timeout --kill-after=10 "$STEP_S" "$@" >"$W/$name.txt" 2>&1
  rc=$?
  cat "$W/$name.txt" >>"$LOG"
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  say "$(printf '%-14s exit %-3s (expected %s) %4d.%01d s  %s' "$name" "$rc" "$expect" $((ms / 1000)) $((ms % 1000 / 100)) "$*")"
  return $rc
}
outliers() {   # the outlier lines of a fleet view
  sed -n '/outlier(s)$/,$p' "$W/$1.txt" | sed 's/^/    /' | tee -a "$S"
}

ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
say "gpumem fleet session, $(date -u +%FT%TZ), host $(hostname), $ngpu GPU(s):"
nvidia-smi -L 2>/dev/null | sed 's/^/  /' | tee -a "$S"
nvidia-smi --query-gpu=index,pci.bus_id,pcie.link.gen.current,pcie.link.width.current,clocks.sm,temperature.gpu \
  --format=csv 2>/dev/null | sed 's/^/  /' | tee -a "$S"
say "binaries: $(./gpumem --version), $(LD_LIBRARY_PATH=$here/mpi/usr/lib/x86_64-linux-gnu ./gpumem-mpi --version 2>&1)"
say ""
step info "0" ./gpumem info

# 1. every GPU one after another, then all at once
step all-devices "0" ./gpumem run --all-devices "${sel[@]}" --timeout 120 --json "$W/all-devices.json"
step concurrent "0" ./gpumem run --concurrent "${sel[@]}" --timeout 120 --json "$W/concurrent.json"

# 2. MPI: one rank per GPU (two ranks share the GPU when there is one), then with a barrier per case
np=$(( ngpu >= 2 ? ngpu : 2 ))
step mpi "0" ./fleet_mpirun.sh -np "$np" ./gpumem-mpi run --mpi "${sel[@]}" --timeout 120 --json "$W/mpi.json"
step mpi-barrier "0" ./fleet_mpirun.sh -np "$np" ./gpumem-mpi run --mpi --barrier copy --quick --timeout 60 \
  --json "$W/mpi-barrier.json"

# 3. a slowed GPU: a second gpumem process streams copies on the last GPU during a concurrent run.
# The load is cudaMemcpy device-to-device (copy.memcpy_d2d): copy engines run beside another process's
# kernels and take HBM bandwidth from them, where a kernel load would only time-slice with them (each
# kernel then still runs alone: its event-timed median does not move; seen on an H100, 2026-11-23).
# (1 GiB arrays: validation takes a few seconds, then back-to-back copies; SIGKILL at the end, since
# gpumem ends a case it has begun before it honours SIGTERM)
last=$(( ngpu > 0 ? ngpu - 1 : 0 ))
LOAD_CASE=${LOAD_CASE:-copy.memcpy_d2d}
./gpumem run "$LOAD_CASE" --device "$last" --reps 100000 --size 1G >"$W/load.txt" 2>&1 &
load=$!
busy=0
for i in $(seq 1 60); do      # wait (at most 30 s) until the load keeps GPU $last's memory busy
  # copy engines do not count in utilization.gpu: the memory controller's share says the load runs
  u=$(nvidia-smi --query-gpu=utilization.memory --format=csv,noheader,nounits -i "$last" 2>/dev/null | tr -dc 0-9)
  [ -n "$u" ] && [ "$u" -ge 50 ] && { busy=1; break; }
  kill -0 "$load" 2>/dev/null || break
  sleep 0.5
done
say "  load on GPU $last: 'gpumem run $LOAD_CASE --device $last --reps 100000 --size 1G' (pid $load), memory busy: $([ $busy = 1 ] && echo "yes, ${u} %" || echo "NO")"
step slowed "0" ./gpumem run --concurrent copy --quick --timeout 120 --json "$W/slowed.json"
kill -KILL "$load" 2>/dev/null
wait "$load" 2>/dev/null
say "  load killed after the run"

# 4. the fleet views: on two or more GPUs the slowed run alone must flag GPU $last (exit 1);
#    on one GPU the slowed run is set against the unloaded concurrent run of the same GPU.
say ""
step fleet-all "0 or 1" ./gpumem fleet "$W/all-devices.json"
outliers fleet-all
step fleet-conc "0 or 1" ./gpumem fleet "$W/concurrent.json"
outliers fleet-conc
step fleet-mpi "0 or 1" ./gpumem fleet "$W/mpi.json"
outliers fleet-mpi
if [ "$ngpu" -ge 2 ]; then
  step fleet-slowed "1: GPU $last flagged" ./gpumem fleet "$W/slowed.json"
else
  step fleet-slowed "1: the loaded run flagged" ./gpumem fleet "$W/concurrent.json" "$W/slowed.json"
fi
outliers fleet-slowed
if grep -q "GPU $last .*likely: .*processes were on this GPU" "$W/fleet-slowed.txt"; then
  say "RESULT: the slowed GPU $last is flagged, cause: a second process on it"
else
  say "RESULT: the slowed GPU $last was NOT flagged with its cause (see fleet-slowed.txt)"
fi
step report "0" ./gpumem report "$W/slowed.json" -o "$W/slowed.html"

# outputs: SUMMARY first; the documents; everything in one archive
cp "$S" "$LOG" "$W/" 2>/dev/null
for f in all-devices concurrent mpi slowed; do [ -f "$W/$f.json" ] && cp "$W/$f.json" "$OUT/"; done
tar czf "$OUT/fleet_session.tar.gz" -C "$W" .
rm -rf "$W"
echo "outputs in $OUT: $(ls "$OUT" | tr '\n' ' ')"
