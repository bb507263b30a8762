#!/usr/bin/env bash
# The development sets' committed measurements (docs/MODEL.md 7.8), each re-predicted by BIN with the profile
# `calibrate` measured in the same call, scored: within 10 %, mean error, per measurement and in all, and every
# kernel's measured / predicted (OUTDIR/ratios.tsv: tag, kernel, ratio, limit). Never a sealed set.
# usage: scripts/launch_dev_score.sh BIN OUTDIR
#   PROFILE_DIR: where PROFILE_DIR/TAG.json exists, that profile instead of the call's (a constant the call's
#   calibrate did not measure, carried over from a later call: say so wherever the figure is used)
#   Probes (tags c-*, probe*) are scored apart from "all (no probe)".
#   EXTRA_SETS: more "TAG SET.tsv RESULTS_DIR SUBFOLDER" quadruples, space-separated
set -uo pipefail
bin=$(readlink -f "$1") out=$(mkdir -p "$2" && readlink -f "$2")
cd "$(dirname "$0")/.."
export XDG_CACHE_HOME=$out/cache   # never a cached profile
h2=results/nvidia-h200 dv=tests/fixtures/dev
sets=(
  a-048524d $dv/dev-36a.tsv $h2/model-048524d sealed_run
  a-8d12c4d $dv/dev-36a.tsv $h2/model-8d12c4d dev36a_run
  b-8d12c4d $dv/dev-36b.tsv $h2/model-8d12c4d sealed36b_run
  b-f136fe1 $dv/dev-36b.tsv $h2/model-f136fe1 dev36b_run
  c-8d12c4d $dv/probe-36c.tsv $h2/model-8d12c4d probe36c_run
  c-f136fe1 $dv/probe-36c.tsv $h2/model-f136fe1 probe36c_run
  d-f136fe1 $dv/dev-36d.tsv $h2/model-f136fe1 sealed36d_run
  d-86d7d21 $dv/dev-36d.tsv $h2/model-86d7d21 dev36d_run
  e-86d7d21 $dv/dev-36e.tsv $h2/model-86d7d21 sealed36e_run
  e-bda781d $dv/dev-36e.tsv $h2/model-bda781d dev36e_run
  f-bda781d $dv/dev-36f.tsv $h2/model-bda781d sealed36f_run
  g-6727113 $dv/dev-36g.tsv $h2/model-6727113 sealed36g_run
  h-df7f3fb $dv/dev-36h.tsv $h2/model-df7f3fb sealed36h_run
  i-1e50f90 $dv/dev-36i.tsv $h2/model-1e50f90 sealed36i_run
  j-d0741e0 $dv/dev-36j.tsv $h2/model-d0741e0 sealed36j_run
  k-10a753a $dv/dev-36k.tsv $h2/model-10a753a sealed36k_run
  k-d7a2e60 $dv/dev-36k.tsv $h2/probe49-d7a2e60 dev36k_run
  j-d7a2e60 $dv/dev-36j.tsv $h2/probe49-d7a2e60 dev36j_run
  l-d72a308 $dv/dev-36l.tsv $h2/model-d72a308 sealed36l_run
  l-f29e031 $dv/dev-36l.tsv $h2/l6-f29e031 dev36l_run
  j-f29e031 $dv/dev-36j.tsv $h2/l6-f29e031 dev36j_run
  m-800c3ed $dv/dev-36m.tsv $h2/model-800c3ed sealed36m_run
  n-93d0b55 $dv/dev-36n.tsv $h2/model-93d0b55 sealed36n_run
  o-20ef76f $dv/dev-36o.tsv $h2/model-20ef76f sealed36o_run
  p-f048626 $dv/dev-36p.tsv $h2/model-f048626 sealed36p_run
  q-3e03402 $dv/dev-36q.tsv $h2/model-3e03402 sealed36q_run
  r-a4fa7e2 $dv/dev-36r.tsv $h2/model-a4fa7e2 sealed36r_run
  s-d7da685 $dv/dev-36s.tsv $h2/model-d7da685 sealed36s_run
  t-fac3346 $dv/dev-36t.tsv $h2/model-fac3346 sealed36t_run
  u-cdb1b27 $dv/dev-36u.tsv $h2/model-cdb1b27 sealed36u_run
  v-1b54c47 $dv/dev-36v.tsv $h2/model-1b54c47 sealed36v_run
  w-e233f7f $dv/dev-36w.tsv $h2/model-e233f7f sealed36w_run
  x-3272f77 $dv/dev-36x.tsv $h2/model-3272f77 sealed36x_run
  y-bee4e4c $dv/dev-36y.tsv $h2/model-bee4e4c sealed36y_run
  z-427bb0d $dv/dev-36z.tsv $h2/model-427bb0d sealed36z_run
  aa-5e8cd5e $dv/dev-36aa.tsv $h2/model-5e8cd5e sealed36aa_run
  ab-51cc4d1 $dv/dev-36ab.tsv $h2/model-51cc4d1 sealed36ab_run
  ac-d16eeaa $dv/dev-36ac.tsv $h2/model-d16eeaa sealed36ac_run
  ad-af9a8ea $dv/dev-36ad.tsv $h2/model-af9a8ea sealed36ad_run
  ae-187b50a $dv/dev-36ae.tsv $h2/model-187b50a sealed36ae_run
  af-09db49d $dv/dev-36af.tsv $h2/model-09db49d sealed36af_run
  ag-09db49d $dv/dev-36ag.tsv $h2/model-09db49d-ag sealed36ag_run
  ah-d25f2b9 $dv/dev-36ah.tsv $h2/model-d25f2b9 sealed36ah_run
  ai-d25f2b9 $dv/dev-36ai.tsv $h2/model-d25f2b9-ai sealed36ai_run
  aj-d25f2b9 $dv/dev-36aj.tsv $h2/model-d25f2b9-aj sealed36aj_run
  ak-d25f2b9 $dv/dev-36ak.tsv $h2/model-d25f2b9-ak sealed36ak_run
  al-3a7451b $dv/dev-36al.tsv $h2/model-3a7451b sealed36al_run
  am-3a7451b $dv/dev-36am.tsv $h2/model-3a7451b-am sealed36am_run
  an-3a7451b $dv/dev-36an.tsv $h2/model-3a7451b-an sealed36an_run
  s-b86c490 $dv/dev-36s.tsv $h2/probe-b86c490 dev36s_run
  k-b86c490 $dv/dev-36k.tsv $h2/probe-b86c490 dev36k_run
  probe66-967251a $dv/probe-66.tsv $h2/probe66-967251a probe66_run
  probe66-b84669f $dv/probe-66.tsv $h2/calib66-b84669f probe66_run
  probe67-b84669f $dv/probe-67.tsv $h2/probe67-b84669f probe67_run
  probe68-e233f7f $dv/probe-68.tsv $h2/probe68-e233f7f probe68_run
  probe69-1fc3507 $dv/probe-69.tsv $h2/probe69-1fc3507 probe69_run
  probe76-51cc4d1 $dv/probe-76.tsv $h2/model-51cc4d1 probe76_run
  probe77-d16eeaa $dv/probe-77.tsv $h2/model-d16eeaa probe77_run
  probe78-d16eeaa $dv/probe-78.tsv $h2/model-d16eeaa probe78_run
  probe80-53bcb4a $dv/probe-80.tsv $h2/probe80-53bcb4a probe80_run
)
[ -n "${EXTRA_SETS:-}" ] && read -r -a extra <<<"$EXTRA_SETS" && sets+=("${extra[@]}")
: >"$out/ratios.tsv"
for ((i = 0; i < ${#sets[@]}; i += 4)); do
  tag=${sets[i]} set=${sets[i+1]} dir=${sets[i+2]} sub=${sets[i+3]}
  for tarf in "$dir"/{runs,sealed_runs}.tar.{xz,gz}; do [ -f "$tarf" ] && break; done
  mkdir -p "$out/$tag/runs"
  [ -d "$out/$tag/runs/$sub" ] || tar xf "$tarf" -C "$out/$tag/runs" 2>/dev/null
  rm -rf "$out/$tag/pred"
  prof=$dir/profile-calibrate.json
  [ -n "${PROFILE_DIR:-}" ] && [ -f "$PROFILE_DIR/$tag.json" ] && prof=$PROFILE_DIR/$tag.json
  bash scripts/unseen_set.sh predict "$bin" "$set" "$out/$tag/pred" "$prof" >/dev/null
  python3 scripts/launch_set_rows.py "$tag" "$set" "$out/$tag/runs/$sub" "$out/$tag/pred" >>"$out/ratios.tsv"
done
python3 - "$out/ratios.tsv" <<'PY'
import statistics, sys
by = {}
for line in open(sys.argv[1]):
    tag, name, r, lim = line.rstrip("\n").split("\t")
    e = abs(float(r) - 1) * 100
    by.setdefault(tag, []).append(e)
    if not tag.startswith(("c-", "probe")):
        by.setdefault("all (no probe)", []).append(e)
for k, e in by.items():
    print("%-16s %3d of %3d within 10 %%, median %.1f %%, mean %.2f %%" % (k, sum(x <= 10 for x in e), len(e),
          statistics.median(e), statistics.mean(e)))
PY
