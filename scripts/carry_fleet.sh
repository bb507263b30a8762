#!/usr/bin/env bash
# Put what scripts/fleet_session.sh needs on a GPU machine into DIR (default
# /work/main/.carry/fleet): gpumem (build/, the default build), gpumem-mpi
# (build-cmpi/: -DGPUMEM_CUDA=ON -DGPUMEM_MPI=ON), both stripped, the Open MPI
# runtime as mpi.tar.xz (scripts/carry_mpi.sh), the launcher and the session.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/work/main/.carry/fleet}
mkdir -p "$dir"
install -m 755 -s build/gpumem "$dir/gpumem"
install -m 755 -s build-cmpi/gpumem "$dir/gpumem-mpi"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash scripts/carry_mpi.sh "$tmp" >/dev/null
tar cJf "$dir/mpi.tar.xz" -C "$tmp" mpi
rm -rf "$dir/mpi"
install -m 755 scripts/fleet_mpirun.sh scripts/fleet_session.sh "$dir/"
du -sh "$dir"
