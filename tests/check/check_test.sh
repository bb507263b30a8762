#!/usr/bin/env bash
# check_test.sh GPUMEM - `gpumem check --from` on planted runs, no GPU (docs/CHECK.md "Tests"):
#  - a committed run of a good H200 passes against data/baselines/nvidia-h200.json (exit 0);
#  - that run with ONE figure scaled (halved, or 4x slower for a time) fails that line and only that line
#    (exit 9), for every judged line; a 5 % lower HBM read warns (exit 8);
#  - error counters planted in the document fail or warn by themselves, each alone;
#  - the JSON verdict (schema gpumem-check) re-judges to the same verdict; the Prometheus file parses line by
#    line against the text format's grammar;
#  - no baseline for the SKU: the figures, "no baseline for <SKU>", exit 10; baseline make refuses mixed SKUs.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
RUN=tests/fixtures/runs/h200/s25-suite-profile.json.gz   # the documents it reads: tests/fixtures/README.md
BASE=data/baselines/nvidia-h200.json
py() { python3 "$here/plant.py" "$@"; }

want_rc 0 "a good H200's run passes" -- "$bin" check --from "$RUN" --baseline "$BASE" --json "$T/pass.json"
py verdicts "$T/pass.json" >"$T/v" || bad "pass.json does not follow the schema"
grep -q "^gpu pass 0$" "$T/v" && ok "its JSON verdict is pass" || bad "pass.json verdict: $(tail -1 "$T/v")"

# every judged line: one figure scaled, that line fails and no other line or counter does
lines=$(python3 -c "
import json; b = json.load(open('$BASE')); print(' '.join(l['case'] + ':' + l['better'] for l in b['lines']))")
for lc in $lines; do
  c=${lc%%:*}; better=${lc#*:}
  f=0.5; [ "$better" = lower ] && f=4
  py scale "$RUN" "$T/s.json" "$c" "$f"
  want_rc 9 "$c x$f fails" -- "$bin" check --from "$T/s.json" --json "$T/s_check.json"
  id=$(py verdicts "$T/s_check.json" | awk -v c="$c" 'BEGIN{}{print}' | head -0)
  py verdicts "$T/s_check.json" >"$T/v"
  nfail=$(grep -c " fail$" "$T/v")
  line=$(python3 -c "
import json; d = json.load(open('$T/s_check.json'))
print(' '.join(l['id'] for l in d['gpus'][0]['lines'] if l['case'] == '$c' and l['verdict'] == 'fail'))")
  if [ "$nfail" = 1 ] && [ -n "$line" ]; then ok "  only $line failed"; else bad "$c: $nfail lines failed: $(grep ' fail$' "$T/v" | tr '\n' ' ')"; fi
done

py scale "$RUN" "$T/w.json" copy.read_b16_tile4 0.95
want_rc 8 "HBM read 5 % low warns" -- "$bin" check --from "$T/w.json" --json "$T/w_check.json"
py verdicts "$T/w_check.json" >"$T/wv"   # to a file: grep -q closing the pipe early would fail it under pipefail
grep -q "^hbm_read warn$" "$T/wv" && ok "  hbm_read warn" || bad "hbm_read is not warn"

# counters: healthy, then each planted alone
py counters "$RUN" "$T/c0.json"
want_rc 0 "healthy counters pass" -- "$bin" check --from "$T/c0.json" --json "$T/c0_check.json" --prometheus "$T/c0.prom"
python3 -c "
import json, sys; g = json.load(open('$T/c0_check.json'))['gpus'][0]
sys.exit(0 if g['counters'] and g['counters']['after']['pcie_link_width']['value'] == 16 else 1)" &&
  ok "  the raw counters in the JSON" || bad "the JSON lacks the counters read"
grep -q '^gpumem_check_counter{.*counter="pcie_link_width"} 16$' "$T/c0.prom" && ok "  and in the Prometheus text" ||
  bad "no gpumem_check_counter sample"
while read -r plant code counter verdict; do
  case $plant in ''|'#'*) continue ;; esac
  py counters "$RUN" "$T/c.json" "$plant"
  want_rc "$code" "counter $plant: $verdict" -- "$bin" check --from "$T/c.json" --json "$T/c_check.json" \
    --prometheus "$T/c.prom"
  py verdicts "$T/c_check.json" >"$T/v"
  grep -q "^$counter $verdict$" "$T/v" || bad "$counter is not $verdict"
  others=$(grep -E " (warn|fail)$" "$T/v" | grep -vc "^$counter ")
  [ "$others" = 0 ] || bad "$plant: other lines or counters moved: $(grep -E ' (warn|fail)$' "$T/v" | tr '\n' ' ')"
  grep -q "gpumem_check_failure{.*counter\|gpumem_check_failure{.*subject=\"$counter\"" "$T/c.prom" ||
    bad "$plant: no gpumem_check_failure sample for $counter"
done <<'ROWS'
# plant (name=before:after)          exit  counter                    verdict
xid_events=0:1                        9    xid_events                 fail
ecc_volatile_uncorrected=0:1          9    ecc_volatile_uncorrected   fail
ecc_volatile_corrected=2:5            8    ecc_volatile_corrected     warn
ecc_aggregate_uncorrected=1:1         8    ecc_aggregate_uncorrected  warn
row_remap_pending=0:1                 9    row_remap_pending          fail
row_remap_failed=0:1                  9    row_remap_failed           fail
retired_pages_pending=0:1             9    retired_pages_pending      fail
retired_pages_dbe=0:1                 8    retired_pages_dbe          warn
pcie_replays=10:12                    8    pcie_replays               warn
pcie_link_width=16:8                  9    pcie_link_width            fail
pcie_link_gen=5:4                     8    pcie_link_gen              warn
nvlink_crc_errors=0:4                 9    nvlink_crc_errors          fail
nvlink_replays=1:2                    9    nvlink_replays             fail
nvlink_recoveries=0:1                 9    nvlink_recoveries          fail
throttle_reasons=0:0x8                9    throttle_reasons           fail
throttle_reasons=0:0x40               9    throttle_reasons           fail
throttle_reasons=0:0x20               8    throttle_reasons           warn
ROWS

# the JSON re-judged (check --from a check document) and the Prometheus text
py scale "$RUN" "$T/s.json" copy.write_b16_tile4 0.5
"$bin" check --from "$T/s.json" --json "$T/a.json" --prometheus "$T/a.prom" >/dev/null 2>&1
want_rc 9 "check --from its own JSON judges alike" -- "$bin" check --from "$T/a.json" --json "$T/b.json"
diff <(py verdicts "$T/a.json") <(py verdicts "$T/b.json") >/dev/null && ok "  same verdicts" || bad "re-judged differently"
py prom "$T/a.prom" || bad "a.prom does not parse"
py prom "$T/c.prom" || bad "c.prom does not parse"
grep -q '^gpumem_check_verdict{gpu="0",uuid="GPU-d1986a90-9e95-5ca3-dcc6-2f66a03db72c",model="NVIDIA H200"} 4$' "$T/a.prom" &&
  ok "  gpumem_check_verdict 4 (fail)" || bad "no gpumem_check_verdict 4 sample"

# no baseline for this SKU: figures reported, the line, exit 10
py device "$RUN" "$T/a100.json" "NVIDIA A100-SXM4-80GB"
want_rc 10 "no baseline for the SKU" -- "$bin" check --from "$T/a100.json"
grep -q "no baseline for NVIDIA A100-SXM4-80GB: run \`gpumem baseline make\`" "$T/err" && ok "  the line on stderr" ||
  bad "no 'no baseline for' line"
grep -q "^hbm_read .*4602.2 GB/s.*not-judged" "$T/out" && ok "  the figures reported" || bad "figures not reported"

# baseline make: the committed H200 baseline again from its runs (same lines); mixed SKUs refused
want_rc 0 "baseline make of one SKU" -- "$bin" baseline make "$RUN" tests/fixtures/runs/h200/s14-suite-profile.json.gz -o "$T/b.json"
grep -q '"schema": "gpumem-baseline"' "$T/b.json" && ok "  a gpumem-baseline document" || bad "not a baseline"
want_rc 2 "baseline make of two SKUs" -- "$bin" baseline make "$RUN" tests/fixtures/launch/h100-suite.json.gz -o "$T/x.json"
[ ! -e "$T/x.json" ] && ok "  nothing written" || bad "a half baseline was written"

# fleet --baseline: the three runs of the old kernels (equally slow in L1 and FP16) flagged against the baseline
want_rc 1 "fleet of three equally slow runs against the baseline" -- "$bin" fleet tests/fixtures/launch/h200-suite.json.gz \
  tests/fixtures/runs/h200/counters.json.gz tests/fixtures/launch/h200-launch-suite.json.gz --baseline "$BASE"
grep -q "roofline.fma_fp16x2: median of 3 GPU(s)" "$T/out" && ok "  fma_fp16x2 below the baseline" || bad "not flagged"

echo "check test: $fail failure(s)"
[ "$fail" = 0 ]
