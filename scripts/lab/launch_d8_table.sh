#!/usr/bin/env bash
# usage: launch_d8_table.sh GPUMEM PROFILE L2_DISTANCE_LOG : the new model's DRAM bytes for each kernel of the log beside the counted ones
bin=$1; prof=$2; log=$3
printf "%-11s %-8s %-27s %-27s %s\n" kernel P "predicted read/written GB" "counted read/written GB" "measured/predicted time"
grep -E "^=== " "$log" | while read -r _ kind Pp _ _ _ _ _ op expr; do
  expr=${expr#\'}; expr=${expr%\'}
  P=${Pp#P=}; P=${P%:}
  line=$(awk -v k="=== $kind $Pp" 'index($0,k)==1{f=1;next} f&&/launch DRAM/{print;exit}' "$log")
  meas=$(awk -v k="=== $kind $Pp" 'index($0,k)==1{f=1;next} f&&/launch model/{print;exit}' "$log" | sed -E 's/.*measured ([0-9.]+) GB.*/\1/')
  out=$("$bin" explain --n 268435456 --op "$op" --profile "$prof" "$expr" | grep -E "DRAM bytes|predicted  ")
  pr=$(echo "$out" | grep "DRAM bytes" | sed -E 's/.*read ([0-9.e+]+), written ([0-9.e+]+).*/\1 \2/')
  pg=$(echo "$out" | grep "predicted" | sed -E 's/.* ([0-9.]+) GB\/s.*/\1/')
  cnt=$(echo "$line" | sed -E 's/.*counted ([0-9.]+) and ([0-9.]+) GB/\1 \2/')
  printf "%-11s %-8s %-27s %-27s %s\n" "$kind" "$P" "$(awk -v a="${pr% *}" -v b="${pr#* }" 'BEGIN{printf "%.3f / %.3f", a/1e9, b/1e9}')" "${cnt% *} / ${cnt#* }" "$(awk -v m="$meas" -v p="$pg" 'BEGIN{printf "%.0f %%", 100*m/p}')"
done
