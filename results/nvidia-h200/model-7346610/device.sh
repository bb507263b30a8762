#!/usr/bin/env bash
# h43m's first device call (issue 36): a fresh calibrate with copy.scatter_b8/_b16, probe-43, dev-36f and dev-36e.
# Run from the repository root on the device: bash .carry/h43m/device1.sh   (carry [".carry/h43m"])
C=$(cd "$(dirname "$0")" && pwd)
: "${OUT:?OUT must be set}"
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
{
  nvidia-smi -L
  "$C/gpumem" --version
  QUICK_BUDGET_S=0 LIMIT_S=200 timeout 215 bash "$C/scripts/launch_sealed_session.sh" "$C/gpumem" "$OUT/model" \
    probe43="$C/tests/fixtures/dev/probe-43.tsv" dev36f="$C/tests/fixtures/dev/dev-36f.tsv" \
    dev36e="$C/tests/fixtures/dev/dev-36e.tsv"
  echo "session: exit $?"
  ls -la "$OUT/model"
} >"$OUT/device_log.txt" 2>&1
tar czf "$OUT/model.tar.gz" -C "$OUT" model && rm -rf "$OUT/model"
echo "device1.sh: done; $(ls "$OUT")"
tail -5 "$OUT/device_log.txt"
grep -E 'calibrate:|scatter' "$OUT/device_log.txt" | head
