#!/usr/bin/env bash
# mpirun from an unpacked Open MPI (scripts/carry_mpi.sh) beside this script:
# for the GPU machine, which has no MPI installed and runs as root.
#   ./fleet_mpirun.sh -np 2 ./gpumem-mpi run --mpi copy --json $OUT/mpi.json
# Environment: GPUMEM_MPI_ROOT (default: ./mpi beside this script).
set -euo pipefail
root=${GPUMEM_MPI_ROOT:-$(cd "$(dirname "$0")" && pwd)/mpi}
[ -x "$root/usr/bin/orterun" ] || { echo "error: no unpacked Open MPI at '$root' (run scripts/carry_mpi.sh)" >&2; exit 2; }
export OPAL_PREFIX=$root/usr
export PATH=$root/usr/bin:$PATH
export LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu:$root/usr/lib/x86_64-linux-gnu/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PMIX_INSTALL_PREFIX=$root/usr
export PMIX_MCA_mca_base_component_path=$root/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
export PMIX_MCA_pcompress_base_silence_warning=1
# one node, shared memory only; no ssh/rsh needed
export OMPI_MCA_plm=isolated OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_osc=sm,pt2pt
export OMPI_MCA_mca_base_component_show_load_errors=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# --bind-to none: a rank's benchmark runs in a child process that should not inherit a one-core binding
exec "$root/usr/bin/orterun" --allow-run-as-root --oversubscribe --bind-to none "$@"
