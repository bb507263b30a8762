#!/usr/bin/env bash
# remnants helper's device run: the family, with and without --scrub, the env claim.
cd "$(dirname "$0")/../.."
B=.carry/rem/gpumem
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
{ nvidia-smi -L; nvidia-smi --query-gpu=driver_version,compute_mode,ecc.mode.current --format=csv; echo "commit $(cat .carry/rem/COMMIT)"; date -u; } > $OUT/env.txt 2>&1
t=$(date +%s%N); timeout 60 $B run remnants --json $OUT/remnants.json > $OUT/remnants.txt 2>&1; echo "rc=$? wall_ms=$(ms $t)" >> $OUT/remnants.txt
for g in "inproc:remnants.same remnants.smaller remnants.larger remnants.pool remnants.pinned remnants.scrub_cost" "ctx:remnants.ctx_other_64k" "proc:remnants.proc_free remnants.proc_self_64k remnants.proc_env_no_reuse_64k"; do
  n=${g%%:*}; sel=${g#*:}
  t=$(date +%s%N); timeout 30 $B run $sel --scrub --json $OUT/scrub_$n.json > $OUT/scrub_$n.txt 2>&1; echo "rc=$? wall_ms=$(ms $t)" >> $OUT/scrub_$n.txt
done
t=$(date +%s%N); timeout 30 $B run remnants.proc_exit --reps 5 --json $OUT/proc_exit.json > $OUT/proc_exit.txt 2>&1; echo "rc=$? wall_ms=$(ms $t)" >> $OUT/proc_exit.txt
t=$(date +%s%N); CUDA_DISABLE_MEMORY_REUSE=1 timeout 20 $B run remnants.same_64m remnants.same_64k remnants.smaller_16k remnants.larger_1m remnants.pool remnants.pinned_16m remnants.ctx_other_64k --json $OUT/env_no_reuse.json > $OUT/env_no_reuse.txt 2>&1; echo "rc=$? wall_ms=$(ms $t)" >> $OUT/env_no_reuse.txt
cd $OUT && for f in *.txt; do echo "== $f"; grep -E "remnants\.|rc=|GPU|driver|commit|rror|arning" $f | cut -c1-230 | head -30; done
tar czf all.tgz *.json *.txt && find . -type f ! -name all.tgz -delete
