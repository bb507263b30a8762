#!/usr/bin/env bash
# Unpack the Open MPI runtime that gpumem's MPI build links against (Debian
# packages, no installation) into DIR, for a GPU machine without MPI or a
# package registry, and put the launcher scripts/fleet_mpirun.sh beside it.
#   bash scripts/carry_mpi.sh /work/main/.carry/fleet      -> DIR/mpi (about 12 MiB), DIR/fleet_mpirun.sh
# Only the shared-memory transports are kept (vader, self): the plugins for
# InfiniBand, UCX, libfabric and PSM need libraries that are not carried.
set -euo pipefail
dir=${1:?usage: carry_mpi.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
pkgs="libopenmpi3 openmpi-bin openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7
      libevent-pthreads-2.1-7 libnuma1 libudev1 libmunge2"
debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT
(cd "$debs" && apt-get download $pkgs >/dev/null 2>&1) || { echo "error: apt-get download failed" >&2; exit 1; }
rm -rf "$dir/mpi"
mkdir -p "$dir/mpi"
for f in "$debs"/*.deb; do dpkg -x "$f" "$dir/mpi"; done
m=$dir/mpi
rm -rf "$m/usr/share/doc" "$m/usr/share/man" "$m/usr/share/lintian"
find "$m" \( -name '*ucx*' -o -name '*ofi*' -o -name '*psm*' -o -name '*openib*' -o -name '*verbs*' \
  -o -name '*java*' \) -path '*/lib/*' -delete
# what gpumem does not use: Fortran and C++ bindings, OpenSHMEM, MPI-IO, tracing
find "$m" \( -name 'libmpi_mpifh*' -o -name 'libmpi_usempi*' -o -name 'libmpi_cxx*' -o -name 'liboshmem*' \
  -o -name 'libompitrace*' -o -name 'mca_spml_*' -o -name 'mca_sshmem_*' -o -name 'mca_atomic_*' \
  -o -name 'mca_scoll_*' -o -name 'mca_memheap_*' -o -name 'mca_io_romio*' -o -name 'osh*' \) -delete
install -m 755 "$here/fleet_mpirun.sh" "$dir/fleet_mpirun.sh"
echo "$dir/mpi: $(du -sh "$m" | cut -f1); launcher $dir/fleet_mpirun.sh"
