#!/usr/bin/env bash
# The "Add a family" recipe of CONTRIBUTING.md, followed in a copy of the tree: the planted family
# (tests/recipes/planted/) goes into src/families/planted/ and one line GM_FAMILY(planted) into
# src/families/families.def; at most 4 files touched; the pure-C tier builds and `gpumem list` shows the
# case; where nvcc is here, the kernels file compiles against the family headers too.
# usage: family.sh SOURCE_DIR
set -euo pipefail
src=$(cd "${1:?usage: family.sh SOURCE_DIR}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# the tracked and untracked files as they are now (the working tree, not HEAD), results/ left out (the build reads data/, never results/)
cd "$src"
git ls-files -z --cached --others --exclude-standard | grep -zv '^results/' | xargs -0 cp --parents -t "$tmp" 2>/dev/null || true
git ls-files -z 'data/*' | xargs -0 -r cp --parents -t "$tmp"
cd "$tmp"
git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm base
# the recipe
mkdir -p src/families/planted
cp "$src"/tests/recipes/planted/{cases.c,planted.cu,README.md} src/families/planted/
echo 'GM_FAMILY(planted)' >>src/families/families.def
git add -A
touched=$(git status --porcelain | wc -l)
echo "files touched: $touched"
[ "$touched" -le 4 ] || { git status --porcelain; fail "the recipe touched $touched files (at most 4)"; }
cmake -S . -B build -DGPUMEM_CUDA=OFF >cmake.log 2>&1 || { cat cmake.log; fail "configure"; }
cmake --build build -j2 --target gpumem >build.log 2>&1 || { tail -30 build.log; fail "build"; }
build/gpumem list planted | tee list.txt
grep -q '^planted\.fill_b4' list.txt || fail "gpumem list does not show planted.fill_b4"
build/gpumem list >all.txt; grep -q '^copy\.' all.txt || fail "the other families are gone"
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nvcc" -std=c++17 -arch=sm_90 -c -Iinclude -Isrc -DGPUMEM_HAVE_CUDA=1 --expt-relaxed-constexpr \
    src/families/planted/planted.cu -o planted.o || fail "planted.cu does not compile"
  echo "planted.cu compiles (nvcc)"
fi
echo "family recipe: ok"
