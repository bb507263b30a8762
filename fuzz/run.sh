#!/usr/bin/env bash
# fuzz/run.sh [SECONDS] [TARGET...] - build the libFuzzer targets and fuzz each
# for SECONDS (default 60), starting from its seed corpus and its regression
# inputs (fuzz/regress/<target>/, crashes found earlier). Targets (default all):
#   expr     the expression parser and the warp model   (fuzz/corpus, expr.dict)
#   runfile  the run-file reader, plain and gzip         (fuzz/seeds/runfile)
#   profile  the device-profile reader + launch model    (fuzz/seeds/profile)
#   fleet    the multi-device (fleet) reader + view      (fuzz/seeds/fleet)
#   args     the subcommands' option parsers, parse only (fuzz/seeds/args)
# Exits non-zero when a target does not build, or the fuzzer finds a crash, a
# sanitizer error, a leak or a broken invariant; the reproducer lands in
# fuzz/out/<target>-crash-*. The last lines give each target's final stats.
#   GPUMEM_FUZZ_BUILD  build directory (default build-fuzz)
#   GPUMEM_FUZZ_KEEP   a directory: keep each target's grown corpus there
#   GPUMEM_FUZZ_JOBS   how many targets fuzz at once (default 1; GPUMEM_FUZZ_PARALLEL=1: all)
set -euo pipefail

secs=${1:-60}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(expr runfile profile fleet args)
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GPUMEM_FUZZ_BUILD:-$root/build-fuzz}
out=$root/fuzz/out

case $secs in
''|*[!0-9]*) echo "error: seconds must be a whole number, got '$secs'" >&2; exit 2 ;;
esac
for t in "${targets[@]}"; do
	case $t in expr|runfile|profile|fleet|args) ;;
	*) echo "error: unknown fuzz target '$t' (expr runfile profile fleet args)" >&2; exit 2 ;;
	esac
done

CC=clang cmake -S "$root" -B "$build" -DGPUMEM_FUZZ=ON -DGPUMEM_CUDA=OFF \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target $(printf 'fuzz_%s ' "${targets[@]}")

# New inputs go to scratch copies; the committed corpora stay as they are.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# one target: fuzz it, keep what it found if asked, write its one-line verdict to $work/$t.verdict
run_target() {
	local t=$1 seeds dict maxlen rc=0 runs cov
	case $t in
	expr) seeds=$root/fuzz/corpus dict=$root/fuzz/expr.dict maxlen=4400 ;;
	runfile|fleet) seeds=$root/fuzz/seeds/$t dict=$root/fuzz/$t.dict maxlen=32768 ;;
	*) seeds=$root/fuzz/seeds/$t dict=$root/fuzz/$t.dict maxlen=4096 ;;
	esac
	mkdir -p "$work/$t"
	cp "$seeds"/* "$work/$t"/
	if [ -d "$root/fuzz/regress/$t" ]; then
		cp "$root/fuzz/regress/$t"/* "$work/$t"/
	fi
	echo "== fuzz_$t: $secs s from $(ls "$work/$t" | wc -l) inputs"
	(cd "$work" && "$build/fuzz/fuzz_$t" "$work/$t" \
		-dict="$dict" \
		-max_total_time="$secs" \
		-max_len="$maxlen" \
		-timeout=20 \
		-rss_limit_mb=2048 \
		-print_final_stats=1 \
		-artifact_prefix="$out/$t-") >"$work/$t.log" 2>&1 || rc=$?
	if [ -n "${GPUMEM_FUZZ_KEEP:-}" ]; then
		mkdir -p "$GPUMEM_FUZZ_KEEP/$t"
		cp -r "$work/$t"/. "$GPUMEM_FUZZ_KEEP/$t"/
		cp "$work/$t.log" "$GPUMEM_FUZZ_KEEP/$t.log"
	fi
	runs=$(grep -m1 'stat::number_of_executed_units' "$work/$t.log" | awk '{print $2}' || true)
	cov=$(grep -oE 'cov: [0-9]+' "$work/$t.log" | tail -1 || true)
	if grep -qE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: ' "$work/$t.log" || [ "$rc" != 0 ]; then
		grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)' "$work/$t.log" | tail -60
		echo "fuzz_$t: FAILED (exit $rc; reproducer in $out/)" >"$work/$t.verdict"
	else
		grep -E '^(Done|stat::)' "$work/$t.log"
		echo "fuzz_$t: ok, ${runs:-?} runs in $secs s, ${cov:-cov ?}" >"$work/$t.verdict"
	fi
}

# GPUMEM_FUZZ_PARALLEL=1: every target at once (a long run in the background); GPUMEM_FUZZ_JOBS=N: N at a time
# (each target still has a core for its SECONDS: scripts/harden.sh runs one a core); else one after another
jobs=${GPUMEM_FUZZ_JOBS:-1}
[ "${GPUMEM_FUZZ_PARALLEL:-0}" = 1 ] && jobs=${#targets[@]}
for t in "${targets[@]}"; do
	if [ "$jobs" -gt 1 ]; then
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
		run_target "$t" >"$work/$t.out" 2>&1 &
	else
		run_target "$t"
	fi
done
wait
fails=0
summary=""
for t in "${targets[@]}"; do
	[ "$jobs" -gt 1 ] && cat "$work/$t.out"
	summary+="$(cat "$work/$t.verdict" 2>/dev/null || echo "fuzz_$t: FAILED (no verdict)")"$'\n'
	grep -q ': ok,' "$work/$t.verdict" 2>/dev/null || fails=$((fails + 1))
done
printf '%s' "$summary"
[ $fails -eq 0 ]
