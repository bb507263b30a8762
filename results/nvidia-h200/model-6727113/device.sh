#!/usr/bin/env bash
# h43m's second device call (issue 36): sealed-36g scored once with a fresh calibrate (with copy.pages_2m_b4 and
# copy.pages_16m_b4, rule P4), then probe-43 and dev-36e (development) in the same call; the quick suite off.
# Run from the repository root on the device: bash .carry/h43m/device2.sh   (carry [".carry/h43m"])
C=$(cd "$(dirname "$0")" && pwd)
: "${OUT:?OUT must be set}"
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
{
  nvidia-smi -L
  "$C/gpumem" --version
  QUICK_BUDGET_S=0 LIMIT_S=170 timeout 175 bash "$C/scripts/launch_sealed_session.sh" "$C/gpumem" "$OUT/model" \
    sealed36g="$C/tests/fixtures/sealed-36g.tsv" probe43="$C/tests/fixtures/dev/probe-43.tsv" \
    dev36e="$C/tests/fixtures/dev/dev-36e.tsv"
  echo "session: exit $?"
  ls -la "$OUT/model"
} >"$OUT/device_log.txt" 2>&1
tar czf "$OUT/model.tar.gz" -C "$OUT" model && rm -rf "$OUT/model"
echo "device2.sh: done; $(ls "$OUT")"
tail -4 "$OUT/device_log.txt"
grep -E 'calibrate:' "$OUT/device_log.txt" | head -2
