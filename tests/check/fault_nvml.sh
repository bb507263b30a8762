#!/usr/bin/env bash
# fault_nvml.sh FAULT_BIN OUTDIR - on a GPU, with a -DGPUMEM_FAULT=ON build (docs/HARDENING.md): count the NVML
# call sites of `gpumem check --only alloc`, then fail the first call of each site in turn
# (GPUMEM_FAULT=nvml:@K). Each run must end as a check does (exit 0, 8 or 9: never a crash, never 10), write
# its JSON verdict, and a failed counter read must show as "could not be read" / "not read" in its row, never
# as a warning or a failure of that counter. Exit 0 when every site passed, 77 without a GPU.
set -uo pipefail
bin=$(readlink -f "$1")
out=${2:-fault-nvml}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
mkdir -p "$out"
"$bin" info >/dev/null 2>&1 || { echo "fault_nvml: no GPU here, skipped"; exit 77; }
GPUMEM_FAULT=count "$bin" check --only alloc --json "$out/count.json" >/dev/null 2>"$out/count.err"
sites=$(grep -o 'nvml=[0-9]*/[0-9]*' "$out/count.err" | tail -1 | cut -d/ -f2)
calls=$(grep -o 'nvml=[0-9]*/[0-9]*' "$out/count.err" | tail -1 | cut -d= -f2 | cut -d/ -f1)
echo "fault_nvml: check --only alloc makes $calls NVML calls from ${sites:-0} sites"
[ -n "$sites" ] && [ "$sites" -gt 0 ] || { echo "FAIL: no NVML call counted"; exit 1; }
fail=0
for k in $(seq 1 "$sites"); do
  GPUMEM_FAULT="nvml:@$k" "$bin" check --only alloc --json "$out/site$k.json" >"$out/site$k.out" 2>"$out/site$k.err"
  rc=$?
  what=$(grep -o 'injected [^ ]*' "$out/site$k.err" | head -1)
  rows=$(python3 - "$out/site$k.json" "$out/count.json" <<'PY'
import json, sys
def bad_of(path):
    g = json.load(open(path))["gpus"][0]
    return {c["id"] for c in g["counter_verdicts"] if c["verdict"] in ("warn", "fail")}
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("NO-JSON"); sys.exit(0)
g = d["gpus"][0]
bad = sorted(bad_of(sys.argv[1]) - bad_of(sys.argv[2]))   # only what the failed read itself turned bad
unread = [c["id"] for c in g["counter_verdicts"] if "could not be read" in c["message"] or "not read" in c["message"]]
print(("COUNTER-FAILED:" + ",".join(bad) + " ") if bad else "", "unread:" + (",".join(unread) or "-"))
PY
)
  status=ok
  case $rc in 0|8|9) ;; *) status=FAIL ;; esac
  case $rows in *NO-JSON*|*COUNTER-FAILED*) status=FAIL ;; esac
  [ "$status" = ok ] || fail=$((fail + 1))
  echo "site $k: $what -> exit $rc; $rows; $status"
done
echo "fault_nvml: $sites sites, $fail failure(s)"
[ "$fail" = 0 ]
