/*
 * multi.h - runs on several GPUs (src/cli/multi/multi_run.c): each device's run is
 * a child process (`gpumem run ... --device N --json FILE`), so a crash or a
 * hang on one GPU never takes the others with it, no CUDA state is shared,
 * and the parent watches every GPU through NVML while its child runs. The
 * MPI path (src/cli/multi/) runs one such child per rank.
 */
#ifndef GPUMEM_CLI_MULTI_H
#define GPUMEM_CLI_MULTI_H

#include <sys/types.h>
#include "cli/cli.h"
#include "gpumem/fleet.h"
#include "gpumem/telemetry.h"

struct gm_job {
	int device;
	const char *const *args;      /* the run's arguments to pass on (no --device/--json) */
	int nargs;
	char json[4200], log[4200];   /* files the child writes */
	pid_t pid;
	int running, timed_out;
	int wstatus;
	double t_start;
	struct gm_tel_acc acc;
	struct gm_placement *pl;      /* filled: placement, status, telemetry */
	struct gm_run_result *run;    /* filled from the child's JSON */
};

/* The arguments of `run` minus the multi-device options, --device, --json and --csv. */
int gm_multi_filter_args(int argc, char **argv, const char **out);

/* A private temporary directory (mkdtemp) into dir; removed by gm_multi_tmp_remove. */
gm_status gm_multi_tmpdir(char *dir, size_t n);
void gm_multi_tmp_remove(const char *dir, struct gm_job *jobs, int n);

/* Prepare job j for device d in tmpdir: paths, placement, telemetry accumulator. */
void gm_job_init(struct gm_job *j, int device, const char *tmpdir, const char *tag,
		 struct gm_placement *pl, struct gm_run_result *run);

/*
 * Run the jobs: all at once (concurrent) or one after another; sample NVML
 * every 100 ms while they run; kill a job after timeout_s (0 = never);
 * *stop (SIGINT) forwards SIGINT and starts no more jobs. Then read every
 * child's JSON and set each placement's status.
 */
gm_status gm_jobs_run(struct gm_job *jobs, int n, int concurrent, double timeout_s, volatile int *stop);

/* Print the child's captured output, under a header naming the device. */
void gm_job_print_log(const struct gm_job *j, FILE *f);

/* `run --all-devices | --concurrent` (multi_run.c) and `run --mpi` (src/cli/multi/). */
int gm_multi_run_main(const struct gm_run_args *a, int argc, char **argv);
int gm_mpi_run_main(const struct gm_run_args *a, int argc, char **argv);

/* Every selector names a case (else one line, GM_EXIT_USAGE). */
int gm_multi_check_selectors(const struct gm_run_args *a);

/* Print the fleet view of m and write it as a multi-device JSON document (path may be NULL). */
int gm_multi_finish(struct gm_multi_run *m, const char *json_path, double k);

#endif
