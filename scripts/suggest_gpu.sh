#!/usr/bin/env bash
# suggest_gpu.sh BIN OUT - `explain --suggest --run` over the anti-patterns of
# issue 24 and patterns it was not designed for, then the hand-written
# families doing the same work (transpose ladder, copies), in one GPU call.
# Writes OUT/json/<name>.json (+ .err), OUT/rc.txt (name, class, exit code,
# seconds: the pattern list scripts/suggest_table.py reads), OUT/text_col_read.txt,
# OUT/model_time.txt (the model without --run), OUT/families.json (the best copy
# and transposes suggest_table.py compares with; SUGGEST_FAMILIES=0 leaves them out)
# and OUT/gpu.txt. docs/SUGGEST.md.
set -uo pipefail
bin=$(readlink -f "$1")
out=$2
mkdir -p "$out/json"
nvidia-smi -L >"$out/gpu.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >>"$out/gpu.txt" 2>&1
budget=${SUGGEST_BUDGET_S:-200}
# name | class | arguments of explain (n is 1 GiB per array unless --n); PATTERNS=FILE reads them from a file
# (lines of the same form, '#' comments), e.g. tests/suggest/patterns-2026-11-29.tsv
patterns() {
if [ -n "${PATTERNS:-}" ]; then grep -v '^#' "$PATTERNS"; return; fi
cat <<'EOF'
col_read|anti|'(gid%16384)*16384 + gid/16384'
col_write|anti|--op store '(gid%16384)*16384 + gid/16384'
stride8|anti|--n 67108864 'gid*8'
stride2|anti|--n 67108864 'gid*2'
misaligned|anti|--n 67108864 'gid + 1'
bytes1|anti|--bytes 1 --n 268435456 gid
bytes2|anti|--bytes 2 --n 134217728 gid
scatter8|anti|--n 67108864 --op store 'gid*8'
smem_col32|anti|--space shared --block 1024 --n 67108864 '(tid%32)*32 + tid/32'
smem_lane16_b8|anti|--space shared --bytes 8 --n 33554432 'lane*16'
tr_4096x16384|anti|--n 67108864 '(gid%4096)*16384 + gid/4096'
batched_tr_store|unseen|--n 67108864 --op store '(gid%1024)*1024 + (gid/1024)%1024 + (gid/1048576)*1048576'
interleave|unseen|--n 67108864 'bx*256 + (tid%32)*8 + tid/32'
broadcast4|unseen|--n 67108864 'gid/4'
hash|unseen|--n 67108864 '(gid*7)%1000003'
aos3|unseen|--n 67108863 '(gid%3)*22369621 + gid/3'
stride3_blk64|unseen|--n 67108864 --block 64 'gid*3'
tr_f64_8192|unseen|--bytes 8 --n 67108864 '(gid%8192)*8192 + gid/8192'
tr_f16_8192|unseen|--bytes 2 --n 67108864 '(gid%8192)*8192 + gid/8192'
pad_pitch|unseen|--n 67108864 '(gid%8192)*8200 + gid/8192'
scatter4_b8|unseen|--bytes 8 --n 33554432 --op store 'gid*4'
EOF
}
start=$SECONDS
while IFS='|' read -r name class args; do
  if [ $((SECONDS - start)) -gt "$budget" ]; then echo "$name $class skipped (budget)" >>"$out/rc.txt"; continue; fi
  t0=$SECONDS
  eval "timeout 60 \"$bin\" explain --suggest --run --reps 10 --json $args" >"$out/json/$name.json" 2>"$out/json/$name.err"
  echo "$name $class rc=$? $((SECONDS - t0))s" >>"$out/rc.txt"
done < <(patterns)
# the text form of one, as a user sees it
timeout 60 "$bin" explain --suggest --run --reps 10 '(gid%16384)*16384 + gid/16384' >"$out/text_col_read.txt" 2>&1
# --suggest without --run at 1 GiB per array: the model alone, three times each
for e in '(gid%16384)*16384 + gid/16384' 'gid*8' 'gid + 1'; do
  for k in 1 2 3; do
    s=$(date +%s%N)
    "$bin" explain --suggest --json "$e" | grep '"model_ms"' | tr -d ' ,' | tr '\n' ' '
    echo "wall_ms=$((($(date +%s%N) - s) / 1000000)) expr='$e'"
  done
done >"$out/model_time.txt" 2>&1
# the hand-written versions of the same work, same call (SUGGEST_FAMILIES=0: left out, to keep a call short)
[ "${SUGGEST_FAMILIES:-1}" = 0 ] && exit 0
timeout 120 "$bin" run transpose.v0_naive transpose.v1_tiled transpose.v2_padded transpose.v3_padded_4r \
  transpose.v4_xor transpose.v5_vec16 transpose.v6_tall transpose.v7_shift transpose.copy_b4 \
  copy.v0_b4 copy.v2_b16 copy.v9_b16_tile4 stride.b04_s008 stride.b04_s002 \
  --json "$out/families.json" >"$out/families.txt" 2>&1
echo "families rc=$?" >>"$out/rc.txt"
