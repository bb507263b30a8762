#!/usr/bin/env bash
# The development evidence the interval's bands are made from (docs/MODEL.md 7.6), re-predicted by BIN: the
# committed suites that have the profile `calibrate` measured in the same call (each with that profile; the
# calibration cases are left out by scripts/launch_interval_bands.py), the kernel sets unseen2, its page test
# and unseen3 (scripts/unseen_repredict.sh's measurements, each with its call's profile), dev-36a (measured
# at 048524d, results/nvidia-h200/model-048524d/), dev-36b and probe-36c (measured at 8d12c4d,
# results/nvidia-h200/model-8d12c4d/) and dev-36d (measured at f136fe1 when it was sealed-36d,
# results/nvidia-h200/model-f136fe1/) and dev-36e (measured at 86d7d21 when it was sealed-36e,
# results/nvidia-h200/model-86d7d21/) and dev-36f (measured at bda781d when it was sealed-36f,
# results/nvidia-h200/model-bda781d/), and dev-36f, dev-36e and probe-43 as measured at 7346610
# (results/nvidia-h200/model-7346610/), dev-36g and dev-36e as measured at 6727113 (dev-36g when it was sealed-36g,
# results/nvidia-h200/model-6727113/) and dev-36h as measured at df7f3fb when it was sealed-36h
# (results/nvidia-h200/model-df7f3fb/; the three added in branch h45m), dev-36i as measured at 1e50f90 when it was
# sealed-36i (results/nvidia-h200/model-1e50f90/) and dev-36j as measured at d0741e0 when it was sealed-36j
# (results/nvidia-h200/model-d0741e0/; the two added in branch h48i); dev-36k as measured at 10a753a (when it was
# sealed-36k) and d7a2e60, dev-36j and probe-49 as measured at d7a2e60 (results/nvidia-h200/probe49-d7a2e60/), dev-36l as
# measured at d72a308 (when it was sealed-36l) and f29e031 with dev-36j, probe-49 and probe-50 (results/nvidia-h200/l6-f29e031/;
# the nine added in branch h50m); dev-36m, dev-36n, dev-36o, dev-36p and dev-36q as measured when each was sealed (at
# 800c3ed, 93d0b55, 20ef76f, f048626 and 3e03402: results/nvidia-h200/model-COMMIT/; the five added in branch m56);
# dev-36r as measured at a4fa7e2 when it was sealed-36r (results/nvidia-h200/model-a4fa7e2/; added in branch m58);
# dev-36s as measured at d7da685 when it was sealed-36s (results/nvidia-h200/model-d7da685/; added in branch m60);
# dev-36t as measured at fac3346 when it was sealed-36t (results/nvidia-h200/model-fac3346/; added in branch m62);
# probe-36d, column walks of the rule combinations that had no band, measured at cdb1b27
# (results/nvidia-h200/probe36d-cdb1b27/; added in branch m63); dev-36u .. dev-36aa as measured when each was sealed (at
# cdb1b27, 1b54c47, e233f7f, 3272f77, bee4e4c, 427bb0d, 5e8cd5e: results/nvidia-h200/model-COMMIT/) and dev-36s, dev-36k
# as measured at b86c490 (results/nvidia-h200/probe-b86c490/; the nine added in branch m76); dev-36ab .. dev-36ae as
# measured when each was sealed (at 51cc4d1, d16eeaa, af9a8ea, 187b50a: results/nvidia-h200/model-COMMIT/; added in
# branch i83); dev-36af and dev-36ag as measured at 09db49d when each was sealed (results/nvidia-h200/model-09db49d/
# and model-09db49d-ag/); dev-36ah, dev-36ai and dev-36aj as measured at d25f2b9 when each was sealed
# (results/nvidia-h200/model-d25f2b9/, model-d25f2b9-ai/, model-d25f2b9-aj/). An H200 call whose calibrate did not measure floor_us (every call before dev-36u's) is predicted with
# its profile and floor-c5bd278's 3.03 planted (OUTDIR/profiles/TAG.json), as the tables were made since m62.
# Never a sealed set (tests/fixtures/sealed/).
# usage: scripts/launch_interval_evidence.sh BIN OUTDIR [suites|sets|all]
#   prints the EVIDENCE arguments of scripts/launch_interval_bands.py, one a line
#   PROFILE_DIR: where PROFILE_DIR/TAG.json exists, that profile instead of the set's call's (as launch_dev_score.sh)
set -uo pipefail
bin=$(readlink -f "$1") out=$(mkdir -p "$2" && readlink -f "$2") which=${3:-all}
cd "$(dirname "$0")/.."
export XDG_CACHE_HOME=$out/cache   # never a cached profile
if [ "$which" != sets ]; then
  for f in $(git ls-files 'results/*/suite_profile.json.gz'); do
    d=$(dirname "$f")
    [ -f "$d/profile-calibrate.json" ] || continue
    t=$(echo "$d" | sed 's#^results/##; s#/launch$##; s#/#_#g')
    [ -s "$out/$t.json" ] || "$bin" predict "$f" --profile "$d/profile-calibrate.json" --json "$out/$t.json" >/dev/null 2>&1
    echo "$out/$t.json"
  done
fi
[ "$which" = suites ] && exit 0
# the kernel sets: tag, set file, folder with the runs' tar and profile-calibrate.json, the tar's subfolder
h1=results/nvidia-h100-80gb-hbm3 h2=results/nvidia-h200
sets=(
  h100-46d856e-unseen2 tests/gpu/unseen2.tsv $h1/launch/unseen2/gpu-46d856e unseen2
  h100-46d856e-pages tests/gpu/unseen2_pages.tsv $h1/launch/unseen2/gpu-46d856e unseen2_pages
  h100-46d856e-unseen3 tests/gpu/unseen3.tsv $h1/launch/unseen3/gpu-46d856e unseen3
  h100-4136874-unseen2 tests/gpu/unseen2.tsv $h1/launch/unseen2/gpu-4136874 unseen2
  h100-4136874-pages tests/gpu/unseen2_pages.tsv $h1/launch/unseen2/gpu-4136874 unseen2_pages
  h200-71a472f-unseen2 tests/gpu/unseen2.tsv $h2/launch/unseen2/gpu-71a472f unseen2
  h200-71a472f-pages tests/gpu/unseen2_pages.tsv $h2/launch/unseen2/gpu-71a472f unseen2_pages
  h200-71a472f-unseen3 tests/gpu/unseen3.tsv $h2/launch/unseen3/gpu-71a472f unseen3
  h100-s24-unseen2 tests/gpu/unseen2.tsv $h1/s24-0d0fd8e/launch unseen2
  h100-s24-pages tests/gpu/unseen2_pages.tsv $h1/s24-0d0fd8e/launch unseen2_pages
  h100-s24-unseen3 tests/gpu/unseen3.tsv $h1/s24-0d0fd8e/launch unseen3
  h200-s25-unseen2 tests/gpu/unseen2.tsv $h2/s25-0d0fd8e/launch unseen2
  h200-s25-pages tests/gpu/unseen2_pages.tsv $h2/s25-0d0fd8e/launch unseen2_pages
  h200-s25-unseen3 tests/gpu/unseen3.tsv $h2/s25-0d0fd8e/launch unseen3
  h200-048524d-dev36a tests/fixtures/dev/dev-36a.tsv $h2/model-048524d sealed_run
  h200-8d12c4d-dev36b tests/fixtures/dev/dev-36b.tsv $h2/model-8d12c4d sealed36b_run
  h200-8d12c4d-probe36c tests/fixtures/dev/probe-36c.tsv $h2/model-8d12c4d probe36c_run
  h200-f136fe1-dev36d tests/fixtures/dev/dev-36d.tsv $h2/model-f136fe1 sealed36d_run
  h200-86d7d21-dev36e tests/fixtures/dev/dev-36e.tsv $h2/model-86d7d21 sealed36e_run
  h200-bda781d-dev36f tests/fixtures/dev/dev-36f.tsv $h2/model-bda781d sealed36f_run
  h200-7346610-dev36f tests/fixtures/dev/dev-36f.tsv $h2/model-7346610 dev36f_run
  h200-7346610-dev36e tests/fixtures/dev/dev-36e.tsv $h2/model-7346610 dev36e_run
  h200-7346610-probe43 tests/fixtures/dev/probe-43.tsv $h2/model-7346610 probe43_run
  h200-6727113-dev36g tests/fixtures/dev/dev-36g.tsv $h2/model-6727113 sealed36g_run
  h200-6727113-dev36e tests/fixtures/dev/dev-36e.tsv $h2/model-6727113 dev36e_run
  h200-df7f3fb-dev36h tests/fixtures/dev/dev-36h.tsv $h2/model-df7f3fb sealed36h_run
  h200-1e50f90-dev36i tests/fixtures/dev/dev-36i.tsv $h2/model-1e50f90 sealed36i_run
  h200-d0741e0-dev36j tests/fixtures/dev/dev-36j.tsv $h2/model-d0741e0 sealed36j_run
  h200-10a753a-dev36k tests/fixtures/dev/dev-36k.tsv $h2/model-10a753a sealed36k_run
  h200-d7a2e60-dev36k tests/fixtures/dev/dev-36k.tsv $h2/probe49-d7a2e60 dev36k_run
  h200-d7a2e60-dev36j tests/fixtures/dev/dev-36j.tsv $h2/probe49-d7a2e60 dev36j_run
  h200-d7a2e60-probe49 tests/fixtures/dev/probe-49.tsv $h2/probe49-d7a2e60 probe49_run
  h200-d72a308-dev36l tests/fixtures/dev/dev-36l.tsv $h2/model-d72a308 sealed36l_run
  h200-f29e031-dev36l tests/fixtures/dev/dev-36l.tsv $h2/l6-f29e031 dev36l_run
  h200-f29e031-dev36j tests/fixtures/dev/dev-36j.tsv $h2/l6-f29e031 dev36j_run
  h200-f29e031-probe49 tests/fixtures/dev/probe-49.tsv $h2/l6-f29e031 probe49_run
  h200-f29e031-probe50 tests/fixtures/dev/probe-50.tsv $h2/l6-f29e031 probe50_run
  h200-800c3ed-dev36m tests/fixtures/dev/dev-36m.tsv $h2/model-800c3ed sealed36m_run
  h200-93d0b55-dev36n tests/fixtures/dev/dev-36n.tsv $h2/model-93d0b55 sealed36n_run
  h200-20ef76f-dev36o tests/fixtures/dev/dev-36o.tsv $h2/model-20ef76f sealed36o_run
  h200-f048626-dev36p tests/fixtures/dev/dev-36p.tsv $h2/model-f048626 sealed36p_run
  h200-3e03402-dev36q tests/fixtures/dev/dev-36q.tsv $h2/model-3e03402 sealed36q_run
  h200-a4fa7e2-dev36r tests/fixtures/dev/dev-36r.tsv $h2/model-a4fa7e2 sealed36r_run
  h200-d7da685-dev36s tests/fixtures/dev/dev-36s.tsv $h2/model-d7da685 sealed36s_run
  h200-fac3346-dev36t tests/fixtures/dev/dev-36t.tsv $h2/model-fac3346 sealed36t_run
  h200-cdb1b27-probe36d tests/fixtures/dev/probe-36d.tsv $h2/probe36d-cdb1b27 probe36d_run
  h200-cdb1b27-dev36u tests/fixtures/dev/dev-36u.tsv $h2/model-cdb1b27 sealed36u_run
  h200-1b54c47-dev36v tests/fixtures/dev/dev-36v.tsv $h2/model-1b54c47 sealed36v_run
  h200-e233f7f-dev36w tests/fixtures/dev/dev-36w.tsv $h2/model-e233f7f sealed36w_run
  h200-3272f77-dev36x tests/fixtures/dev/dev-36x.tsv $h2/model-3272f77 sealed36x_run
  h200-bee4e4c-dev36y tests/fixtures/dev/dev-36y.tsv $h2/model-bee4e4c sealed36y_run
  h200-427bb0d-dev36z tests/fixtures/dev/dev-36z.tsv $h2/model-427bb0d sealed36z_run
  h200-5e8cd5e-dev36aa tests/fixtures/dev/dev-36aa.tsv $h2/model-5e8cd5e sealed36aa_run
  h200-b86c490-dev36s tests/fixtures/dev/dev-36s.tsv $h2/probe-b86c490 dev36s_run
  h200-b86c490-dev36k tests/fixtures/dev/dev-36k.tsv $h2/probe-b86c490 dev36k_run
  h200-51cc4d1-dev36ab tests/fixtures/dev/dev-36ab.tsv $h2/model-51cc4d1 sealed36ab_run
  h200-d16eeaa-dev36ac tests/fixtures/dev/dev-36ac.tsv $h2/model-d16eeaa sealed36ac_run
  h200-af9a8ea-dev36ad tests/fixtures/dev/dev-36ad.tsv $h2/model-af9a8ea sealed36ad_run
  h200-187b50a-dev36ae tests/fixtures/dev/dev-36ae.tsv $h2/model-187b50a sealed36ae_run
  h200-09db49d-dev36af tests/fixtures/dev/dev-36af.tsv $h2/model-09db49d sealed36af_run
  h200-09db49d-dev36ag tests/fixtures/dev/dev-36ag.tsv $h2/model-09db49d-ag sealed36ag_run
  h200-d25f2b9-dev36ah tests/fixtures/dev/dev-36ah.tsv $h2/model-d25f2b9 sealed36ah_run
  h200-d25f2b9-dev36ai tests/fixtures/dev/dev-36ai.tsv $h2/model-d25f2b9-ai sealed36ai_run
  h200-d25f2b9-dev36aj tests/fixtures/dev/dev-36aj.tsv $h2/model-d25f2b9-aj sealed36aj_run
)
for ((i = 0; i < ${#sets[@]}; i += 4)); do
  tag=${sets[i]} set=${sets[i+1]} dir=${sets[i+2]} sub=${sets[i+3]}
  for tarf in "$dir"/{runs,unseen_runs,sealed_runs}.tar.{xz,gz}; do [ -f "$tarf" ] && break; done
  if [ ! -d "$out/$tag/pred" ]; then
    mkdir -p "$out/$tag/runs"
    tar xf "$tarf" -C "$out/$tag/runs" 2>/dev/null
    prof=$dir/profile-calibrate.json
    if [ -n "${PROFILE_DIR:-}" ] && [ -f "$PROFILE_DIR/$tag.json" ]; then
      prof=$PROFILE_DIR/$tag.json
    elif [ "$dir" != "${dir#"$h2"/}" ] && ! grep -q '"floor_us"' "$prof"; then
      # an H200 call before dev-36u's: its calibrate did not measure floor_us; floor-c5bd278's 3.03 planted
      mkdir -p "$out/profiles"
      python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); p["floor_us"] = 3.03
json.dump(p, open(sys.argv[2], "w"), indent=2)' "$prof" "$out/profiles/$tag.json"
      prof=$out/profiles/$tag.json
    fi
    bash scripts/unseen_set.sh predict "$bin" "$set" "$out/$tag/pred" "$prof" >/dev/null
  fi
  echo "$set:$out/$tag/runs/$sub:$out/$tag/pred"
done
