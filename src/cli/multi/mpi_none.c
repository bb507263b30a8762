/* mpi_none.c - `run --mpi` in a build without MPI: one clear line, exit 2. */
#include "cli/multi/multi.h"

int gm_mpi_run_main(const struct gm_run_args *a, int argc, char **argv)
{
	(void)a;
	(void)argc;
	(void)argv;
	return gm_error(GM_EXIT_USAGE, "--mpi: this gpumem was built without MPI support "
				       "(configure with -DGPUMEM_MPI=ON; see docs/FLEET.md)");
}
