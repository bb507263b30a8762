#!/usr/bin/env bash
# The interval's tables (docs/MODEL.md 7.6) re-made from the committed development evidence in one command:
# scripts/launch_interval_evidence.sh re-predicts every evidence source with BIN (the model whose intervals they
# are: build it from the tree being committed), then scripts/launch_interval_bands.py --write writes the bands and
# the combinations into src/model/launch_interval.c and prints the bands, each source's coverage in-sample and held
# out, and the leave-one-set-out coverage of the development sets (also OUTDIR/bands.txt). Deterministic: the same
# BIN and evidence give the same tables. Rebuild afterwards (the tables are compiled in).
# usage: scripts/launch_interval_make.sh BIN [OUTDIR]   (OUTDIR: new, or made by this BIN; default a fresh temp dir)
set -euo pipefail
bin=$(readlink -f "$1") out=${2:-$(mktemp -d /tmp/gm-interval.XXXXXX)}
mkdir -p "$out" && out=$(readlink -f "$out")
cd "$(dirname "$0")/.."
bash scripts/launch_interval_evidence.sh "$bin" "$out" >"$out/evidence.txt"
mapfile -t ev <"$out/evidence.txt"
python3 scripts/launch_interval_bands.py --write src/model/launch_interval.c "${ev[@]}" | tee "$out/bands.txt"
