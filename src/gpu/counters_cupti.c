/*
 * counters_cupti.c - hardware counters through CUPTI's Range Profiler and
 * Profiler Host API (CUDA 13), libcupti loaded with dlopen.
 *
 * Recipe (/work notes "cuda13-facts" section 3; CUPTI docs "Range
 * Profiling"): cuptiProfilerInitialize -> chip name -> counter availability
 * -> host object + config image (once per metric set, at open) -> per
 * collection: Enable -> counter data image -> SetConfig(AutoRange,
 * KernelReplay) -> Start -> one call of the case's launch -> Stop -> sync ->
 * DecodeData -> evaluate every range (one per kernel) -> Disable.
 *
 * cupti_profiler_host.h includes the C++ header <string>; src/gpu/cshim has
 * an empty file of that name so that this C11 file compiles (the header
 * uses nothing from it).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <cupti_profiler_target.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include "gpumem/counters.h"
#include "gpu/gpu_internal.h"

#define MAX_RANGES 64   /* kernels per launch that are counted; more are reported as dropped */

/* ---- the metric sets ---- */

enum {
	M_DUR, M_DRAM_RD, M_DRAM_WR, M_L2_SEC, M_L2_HIT,
	M_GLD_REQ, M_GLD_SEC, M_GST_REQ, M_GST_SEC,
	M_SLD_WF, M_SST_WF, M_SLD_BC, M_SST_BC, M_SLD_INST, M_SST_INST,
	M_OCC, M_ISSUE, M_DRAM_PCT, M_L2_PCT, M_L1_PCT, M_COUNT
};

static const char *const case_metrics[M_COUNT] = {
	[M_DUR] = "gpu__time_duration.sum",
	[M_DRAM_RD] = "dram__bytes_read.sum",
	[M_DRAM_WR] = "dram__bytes_write.sum",
	[M_L2_SEC] = "lts__t_sectors.sum",
	[M_L2_HIT] = "lts__t_sector_hit_rate.pct",
	[M_GLD_REQ] = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
	[M_GLD_SEC] = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
	[M_GST_REQ] = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
	[M_GST_SEC] = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
	[M_SLD_WF] = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
	[M_SST_WF] = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
	[M_SLD_BC] = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
	[M_SST_BC] = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
	[M_SLD_INST] = "smsp__inst_executed_op_shared_ld.sum",
	[M_SST_INST] = "smsp__inst_executed_op_shared_st.sum",
	[M_OCC] = "sm__warps_active.avg.pct_of_peak_sustained_active",
	[M_ISSUE] = "smsp__issue_active.avg.pct_of_peak_sustained_active",
	[M_DRAM_PCT] = "dram__throughput.avg.pct_of_peak_sustained_elapsed",
	[M_L2_PCT] = "lts__throughput.avg.pct_of_peak_sustained_elapsed",
	[M_L1_PCT] = "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
};

/* selftest probes: the access counters only (one pass fewer, no DRAM) */
static const int probe_ids[] = { M_GLD_REQ, M_GLD_SEC, M_GST_REQ, M_GST_SEC,
				 M_SLD_WF, M_SST_WF, M_SLD_BC, M_SST_BC };

/* GM_COUNTERS_TRACE=1: each profiler step on stderr (to locate a failure inside CUPTI). */
static void trace(const char *step)
{
	static int on = -1;

	if (on < 0)
		on = getenv("GM_COUNTERS_TRACE") != NULL;
	if (on)
		fprintf(stderr, "counters: %s\n", step);
}

/* ---- libcupti by dlopen ---- */

#define FN(name, type) CUptiResult (*name)(type *)
static struct {
	void *lib;
	CUptiResult (*result_string)(CUptiResult, const char **);
	FN(init, CUpti_Profiler_Initialize_Params);
	FN(deinit, CUpti_Profiler_DeInitialize_Params);
	FN(chip, CUpti_Device_GetChipName_Params);
	FN(avail, CUpti_Profiler_GetCounterAvailability_Params);
	FN(host_init, CUpti_Profiler_Host_Initialize_Params);
	FN(host_deinit, CUpti_Profiler_Host_Deinitialize_Params);
	FN(add_metrics, CUpti_Profiler_Host_ConfigAddMetrics_Params);
	FN(config_size, CUpti_Profiler_Host_GetConfigImageSize_Params);
	FN(config_image, CUpti_Profiler_Host_GetConfigImage_Params);
	FN(num_passes, CUpti_Profiler_Host_GetNumOfPasses_Params);
	FN(evaluate, CUpti_Profiler_Host_EvaluateToGpuValues_Params);
	FN(enable, CUpti_RangeProfiler_Enable_Params);
	FN(disable, CUpti_RangeProfiler_Disable_Params);
	FN(set_config, CUpti_RangeProfiler_SetConfig_Params);
	FN(start, CUpti_RangeProfiler_Start_Params);
	FN(stop, CUpti_RangeProfiler_Stop_Params);
	FN(decode, CUpti_RangeProfiler_DecodeData_Params);
	FN(data_size, CUpti_RangeProfiler_GetCounterDataSize_Params);
	FN(data_init, CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
	FN(data_info, CUpti_RangeProfiler_GetCounterDataInfo_Params);
	int initialized;
	CUresult (*ctx_current)(CUcontext *);
} cu;
#undef FN

struct gm_counters_session {
	enum gm_counters_set set;
	const char *names[M_COUNT];
	int ids[M_COUNT];
	int n;
	char chip[32];
	uint8_t *avail;
	CUpti_Profiler_Host_Object *host;
	uint8_t *config;
	size_t config_size;
	uint8_t *data;
	size_t data_size;
	int passes;
	CUcontext ctx;
	CUpti_RangeProfiler_Object *obj; /* enable_once: enabled at open, disabled at close */
	int enable_once;         /* default; GM_COUNTERS_ENABLE=case: enable and disable around each launch */
	int user_replay;         /* the launch is re-run once per pass (default for cases; GM_COUNTERS_REPLAY=kernel|user) */
	char dead[200];          /* set once profiling turned out impossible: why */
};

/* Where libcupti may live: the loader's paths, then the toolkit's usual places. */
static void *open_in(const char *dir, const char *name)
{
	char path[1024];

	if (!dir || !*dir)
		return dlopen(name, RTLD_NOW | RTLD_LOCAL);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return dlopen(path, RTLD_NOW | RTLD_GLOBAL);
}

static void *load_cupti(char *where, size_t n)
{
	const char *home = getenv("CUDA_HOME");
	char d1[512] = "", d2[512] = "";
	const char *dirs[6];
	void *lib = NULL;

	if (home) {
		snprintf(d1, sizeof(d1), "%s/extras/CUPTI/lib64", home);
		snprintf(d2, sizeof(d2), "%s/lib64", home);
	}
	dirs[0] = "";
	dirs[1] = "/usr/local/cuda/extras/CUPTI/lib64";
	dirs[2] = "/usr/local/cuda/lib64";
	dirs[3] = d1;
	dirs[4] = d2;
	for (int i = 0; i < 5 && !lib; i++) {
		if (i > 0 && !*dirs[i])
			continue;
		/* libcupti dlopens libnvperf_host by name: load it from the same place first */
		if (i > 0) {
			open_in(dirs[i], "libnvperf_host.so");
			open_in(dirs[i], "libnvperf_target.so");
		}
		lib = open_in(dirs[i], "libcupti.so.13");
		if (lib)
			snprintf(where, n, "%s", i ? dirs[i] : "the loader's path");
	}
	return lib;
}

static gm_status bind(void)
{
	char where[512];
	void *cuda;

	if (cu.lib)
		return GM_OK;
	cu.lib = load_cupti(where, sizeof(where));
	if (!cu.lib)
		return gm_fail(GM_ERR_UNSUPPORTED, "counters off: libcupti.so.13 not found (searched the loader's path, "
			       "/usr/local/cuda/extras/CUPTI/lib64, /usr/local/cuda/lib64 and $CUDA_HOME); install "
			       "the CUDA toolkit's CUPTI or add its directory to LD_LIBRARY_PATH");
#define SYM(field, name) *(void **)&cu.field = dlsym(cu.lib, name); if (!cu.field) goto missing
	SYM(result_string, "cuptiGetResultString");
	SYM(init, "cuptiProfilerInitialize");
	SYM(deinit, "cuptiProfilerDeInitialize");
	SYM(chip, "cuptiDeviceGetChipName");
	SYM(avail, "cuptiProfilerGetCounterAvailability");
	SYM(host_init, "cuptiProfilerHostInitialize");
	SYM(host_deinit, "cuptiProfilerHostDeinitialize");
	SYM(add_metrics, "cuptiProfilerHostConfigAddMetrics");
	SYM(config_size, "cuptiProfilerHostGetConfigImageSize");
	SYM(config_image, "cuptiProfilerHostGetConfigImage");
	SYM(num_passes, "cuptiProfilerHostGetNumOfPasses");
	SYM(evaluate, "cuptiProfilerHostEvaluateToGpuValues");
	SYM(enable, "cuptiRangeProfilerEnable");
	SYM(disable, "cuptiRangeProfilerDisable");
	SYM(set_config, "cuptiRangeProfilerSetConfig");
	SYM(start, "cuptiRangeProfilerStart");
	SYM(stop, "cuptiRangeProfilerStop");
	SYM(decode, "cuptiRangeProfilerDecodeData");
	SYM(data_size, "cuptiRangeProfilerGetCounterDataSize");
	SYM(data_init, "cuptiRangeProfilerCounterDataImageInitialize");
	SYM(data_info, "cuptiRangeProfilerGetCounterDataInfo");
#undef SYM
	cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (cuda)
		*(void **)&cu.ctx_current = dlsym(cuda, "cuCtxGetCurrent");
	if (!cu.ctx_current)
		return gm_fail(GM_ERR_DRIVER, "counters off: libcuda.so.1 has no cuCtxGetCurrent");
	return GM_OK;
missing:
	dlclose(cu.lib);
	cu.lib = NULL;
	return gm_fail(GM_ERR_UNSUPPORTED, "counters off: libcupti.so.13 from %s lacks the Range Profiler API "
		       "(CUDA 13 CUPTI needed)", where);
}

/* One line for a CUPTI error, naming the usual causes in the user's terms. */
static gm_status cupti_fail(CUptiResult r, const char *call)
{
	const char *txt = NULL;

	if (cu.result_string)
		cu.result_string(r, &txt);
	if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
		return gm_fail(GM_ERR_UNSUPPORTED, "counters off: GPU performance counters are restricted to "
			       "administrators (%s in %s); run as root or allow them "
			       "(NVreg_RestrictProfilingToAdminUsers=0, see developer.nvidia.com/ERR_NVGPUCTRPERM)",
			       "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", call);
	if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED || r == CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED)
		return gm_fail(GM_ERR_UNSUPPORTED, "counters off: another profiler holds the GPU's counters (%s in %s: "
			       "ncu, nsys or compute-sanitizer attached?); run without it, or read that tool's "
			       "counters instead", txt ? txt : "CUPTI error", call);
	return gm_fail(GM_ERR_UNSUPPORTED, "counters: %s failed: %s (CUPTI error %d)", call,
		       txt ? txt : "unknown", (int)r);
}

#define CUPTI(call, params) do { CUptiResult r_ = cu.call(&params); \
	if (r_ != CUPTI_SUCCESS) return cupti_fail(r_, "cupti " #call); } while (0)

/* A tool that injects itself into CUDA (ncu, nsys, compute-sanitizer) sets this for its target. */
static gm_status other_tool(void)
{
	const char *inj = getenv("CUDA_INJECTION64_PATH");

	if (inj && *inj)
		return gm_fail(GM_ERR_UNSUPPORTED, "counters off: a CUDA tool is attached to this process "
			       "(CUDA_INJECTION64_PATH=%s: ncu, nsys or compute-sanitizer); its counters and gpumem's "
			       "cannot be read together, so this run goes on without --counters", inj);
	return GM_OK;
}

static gm_status host_setup(struct gm_counters_session *s)
{
	CUpti_Profiler_Host_Initialize_Params hi = { CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE };
	CUpti_Profiler_Host_ConfigAddMetrics_Params am = { CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE };
	CUpti_Profiler_Host_GetConfigImageSize_Params cs = { CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE };
	CUpti_Profiler_Host_GetConfigImage_Params ci = { CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE };
	CUpti_Profiler_Host_GetNumOfPasses_Params np = { CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE };

	hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
	hi.pChipName = s->chip;
	hi.pCounterAvailabilityImage = s->avail;
	CUPTI(host_init, hi);
	s->host = hi.pHostObject;
	am.pHostObject = s->host;
	am.ppMetricNames = s->names;
	am.numMetrics = (size_t)s->n;
	CUPTI(add_metrics, am);
	cs.pHostObject = s->host;
	CUPTI(config_size, cs);
	s->config = malloc(cs.configImageSize);
	if (!s->config)
		return GM_ERR_NOMEM;
	s->config_size = cs.configImageSize;
	ci.pHostObject = s->host;
	ci.configImageSize = s->config_size;
	ci.pConfigImage = s->config;
	CUPTI(config_image, ci);
	np.configImageSize = s->config_size;
	np.pConfigImage = s->config;
	CUPTI(num_passes, np);
	s->passes = (int)np.numOfPasses;
	return GM_OK;
}

static gm_status session_setup(struct gm_counters_session *s, int device)
{
	CUpti_Profiler_Initialize_Params ip = { CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
	CUpti_Device_GetChipName_Params cn = { CUpti_Device_GetChipName_Params_STRUCT_SIZE };
	CUpti_Profiler_GetCounterAvailability_Params ca = { CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE };

	if (cu.ctx_current(&s->ctx) != CUDA_SUCCESS || !s->ctx)
		return gm_fail(GM_ERR_CUDA, "counters off: no current CUDA context");
	if (!cu.initialized) {
		CUPTI(init, ip);
		cu.initialized = 1;
	}
	cn.deviceIndex = (size_t)device;
	CUPTI(chip, cn);
	snprintf(s->chip, sizeof(s->chip), "%s", cn.pChipName);
	ca.ctx = s->ctx;
	CUPTI(avail, ca);
	s->avail = calloc(1, ca.counterAvailabilityImageSize);
	if (!s->avail)
		return GM_ERR_NOMEM;
	ca.pCounterAvailabilityImage = s->avail;
	CUPTI(avail, ca);
	trace("host setup");
	{
		gm_status hs = host_setup(s);
		if (hs)
			return hs;
	}
	/* enabling per launch took > 100 ms each on an H100 (selftest timed out): enable once by default */
	s->enable_once = !(getenv("GM_COUNTERS_ENABLE") && !strcmp(getenv("GM_COUNTERS_ENABLE"), "case"));
	/*
	 * Cases: user replay (the launch, one of the timed iterations, repeated once per pass). Kernel replay
	 * restores the memory a kernel wrote before each pass, and the write-backs of that restore landed in
	 * the counted DRAM writes (+22 MB on a 34 MB output on an H200, against ncu). Probes: kernel replay.
	 */
	{
		const char *r = getenv("GM_COUNTERS_REPLAY");

		s->user_replay = r ? !strcmp(r, "user") : s->set == GM_CSET_CASE;
	}
	if (s->enable_once) {
		CUpti_RangeProfiler_Enable_Params en = { CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE };
		en.ctx = s->ctx;
		trace("enable once");
		CUPTI(enable, en);
		s->obj = en.pRangeProfilerObject;
	}
	return GM_OK;
}

gm_status gm_counters_open(enum gm_counters_set set, struct gm_counters_session **out)
{
	struct gm_counters_session *s;
	int device = 0;
	gm_status st;

	*out = NULL;
	if ((st = other_tool()) || (st = bind()))
		return st;
	if (cudaGetDevice(&device) != cudaSuccess)
		return gm_fail(GM_ERR_CUDA, "counters off: no current CUDA device");
	s = calloc(1, sizeof(*s));
	if (!s)
		return GM_ERR_NOMEM;
	s->set = set;
	if (set == GM_CSET_PROBE) {
		for (size_t i = 0; i < sizeof(probe_ids) / sizeof(probe_ids[0]); i++) {
			s->ids[s->n] = probe_ids[i];
			s->names[s->n++] = case_metrics[probe_ids[i]];
		}
	} else {
		for (int i = 0; i < M_COUNT; i++) {
			s->ids[s->n] = i;
			s->names[s->n++] = case_metrics[i];
		}
	}
	st = session_setup(s, device);
	if (st) {
		gm_counters_close(s);
		return st;
	}
	*out = s;
	return GM_OK;
}

int gm_counters_passes(const struct gm_counters_session *s)
{
	return s ? s->passes : 0;
}

/* Sum one range's values into out: counts add, percentages weigh by duration. */
static void accumulate(const struct gm_counters_session *s, const double *v, double *sum, double *wsum)
{
	double dur = 1;

	for (int k = 0; k < s->n; k++)
		if (s->ids[k] == M_DUR && v[k] > 0)
			dur = v[k];
	for (int k = 0; k < s->n; k++) {
		int id = s->ids[k];
		if (id == M_L2_HIT) {
			double sec = 0;
			for (int j = 0; j < s->n; j++)
				if (s->ids[j] == M_L2_SEC)
					sec = v[j];
			sum[id] += v[k] * sec;
			wsum[id] += sec;
		} else if (id >= M_OCC) {
			sum[id] += v[k] * dur;
			wsum[id] += dur;
		} else
			sum[id] += v[k];
	}
}

static void fill(struct gm_counters *c, const double *sum, const double *wsum)
{
	double m[M_COUNT];

	for (int i = 0; i < M_COUNT; i++)
		m[i] = (i == M_L2_HIT || i >= M_OCC) ? (wsum[i] > 0 ? sum[i] / wsum[i] : 0) : sum[i];
	c->duration_ns = m[M_DUR];
	c->dram_read_bytes = m[M_DRAM_RD];
	c->dram_write_bytes = m[M_DRAM_WR];
	c->l2_sectors = m[M_L2_SEC];
	c->l2_hit_pct = m[M_L2_HIT];
	c->gld_requests = m[M_GLD_REQ];
	c->gld_sectors = m[M_GLD_SEC];
	c->gst_requests = m[M_GST_REQ];
	c->gst_sectors = m[M_GST_SEC];
	c->smem_ld_wavefronts = m[M_SLD_WF];
	c->smem_st_wavefronts = m[M_SST_WF];
	c->smem_ld_conflicts = m[M_SLD_BC];
	c->smem_st_conflicts = m[M_SST_BC];
	c->smem_ld_inst = m[M_SLD_INST];
	c->smem_st_inst = m[M_SST_INST];
	c->occupancy_pct = m[M_OCC];
	c->issue_pct = m[M_ISSUE];
	c->dram_pct = m[M_DRAM_PCT];
	c->l2_pct = m[M_L2_PCT];
	c->l1_pct = m[M_L1_PCT];
}

static gm_status evaluate(struct gm_counters_session *s, struct gm_counters *c)
{
	CUpti_RangeProfiler_GetCounterDataInfo_Params di = { CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE };
	double v[M_COUNT], sum[M_COUNT] = { 0 }, wsum[M_COUNT] = { 0 };

	di.pCounterDataImage = s->data;
	di.counterDataImageSize = s->data_size;
	trace("evaluate");
	CUPTI(data_info, di);
	c->kernels = (int)di.numTotalRanges;
	for (size_t r = 0; r < di.numTotalRanges; r++) {
		CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
			CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE };
		ev.pHostObject = s->host;
		ev.pCounterDataImage = s->data;
		ev.counterDataImageSize = s->data_size;
		ev.rangeIndex = r;
		ev.ppMetricNames = s->names;
		ev.numMetrics = (size_t)s->n;
		ev.pMetricValues = v;
		CUPTI(evaluate, ev);
		accumulate(s, v, sum, wsum);
	}
	fill(c, sum, wsum);
	return GM_OK;
}

/* Counter data image, sized once (it depends only on the metric set and MAX_RANGES). */
static gm_status prepare_data(struct gm_counters_session *s, CUpti_RangeProfiler_Object *obj)
{
	CUpti_RangeProfiler_CounterDataImage_Initialize_Params in = {
		CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE };
	CUpti_RangeProfiler_SetConfig_Params sc = { CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE };

	free(s->data);
	s->data = NULL;
	{
		CUpti_RangeProfiler_GetCounterDataSize_Params ds = {
			CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE };
		ds.pRangeProfilerObject = obj;
		ds.pMetricNames = s->names;
		ds.numMetrics = (size_t)s->n;
		ds.maxNumOfRanges = MAX_RANGES;
		ds.maxNumRangeTreeNodes = MAX_RANGES;
		trace("counter data size");
		CUPTI(data_size, ds);
		s->data = calloc(1, ds.counterDataSize);
		if (!s->data)
			return GM_ERR_NOMEM;
		s->data_size = ds.counterDataSize;
	}
	in.pRangeProfilerObject = obj;
	in.counterDataSize = s->data_size;
	in.pCounterData = s->data;
	trace("counter data init");
	CUPTI(data_init, in);
	sc.pRangeProfilerObject = obj;
	sc.configSize = s->config_size;
	sc.pConfig = s->config;
	sc.counterDataImageSize = s->data_size;
	sc.pCounterDataImage = s->data;
	sc.range = CUPTI_AutoRange;
	sc.replayMode = s->user_replay ? CUPTI_UserReplay : CUPTI_KernelReplay;
	sc.maxRangesPerPass = MAX_RANGES;
	sc.numNestingLevels = 1;
	sc.minNestingLevel = 1;
	sc.passIndex = 0;
	sc.targetNestingLevel = 1;
	trace("set config");
	CUPTI(set_config, sc);
	return GM_OK;
}

/* Start, one call of the launch, stop, wait, decode. */
static gm_status profile(struct gm_counters_session *s, CUpti_RangeProfiler_Object *obj,
			 gm_status (*launch)(void *), void *state, size_t *dropped)
{
	CUpti_RangeProfiler_Start_Params sp = { CUpti_RangeProfiler_Start_Params_STRUCT_SIZE };
	CUpti_RangeProfiler_Stop_Params tp = { CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE };
	CUpti_RangeProfiler_DecodeData_Params dd = { CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE };
	gm_status st;
	cudaError_t e;

	/* kernel replay: one round; user replay: one round per pass (bounded: a launch with no kernel) */
	for (int pass = 0; pass < (s->user_replay ? s->passes + 1 : 256); pass++) {
		sp.pRangeProfilerObject = obj;
		trace("start");
		CUPTI(start, sp);
		trace("launch");
		st = launch(state);
		tp.pRangeProfilerObject = obj;
		trace("stop");
		CUPTI(stop, tp);
		if (st || tp.isAllPassSubmitted)
			break;
	}
	e = cudaDeviceSynchronize();
	trace("decode");
	if (st)
		return st;
	if (e != cudaSuccess)
		return gm_cuda_status(e, "cudaDeviceSynchronize() after the profiled launch", __FILE__, __LINE__);
	dd.pRangeProfilerObject = obj;
	CUPTI(decode, dd);
	*dropped = dd.numOfRangeDropped;
	return GM_OK;
}

static gm_status collect_enabled(struct gm_counters_session *s, CUpti_RangeProfiler_Object *obj,
				 gm_status (*launch)(void *), void *state, struct gm_counters *out)
{
	size_t dropped = 0;
	gm_status st = prepare_data(s, obj);

	if (!st)
		st = profile(s, obj, launch, state, &dropped);
	if (!st)
		st = evaluate(s, out);
	if (st)
		return st;
	out->passes = s->passes;
	if (out->kernels == 0) {
		out->state = GM_COUNTERS_NA;
		snprintf(out->note, sizeof(out->note), "n/a: its launch runs no kernel (copies or host work)");
	} else {
		out->state = GM_COUNTERS_OK;
		if (dropped)
			snprintf(out->note, sizeof(out->note), "%zu kernels beyond the first %d not counted", dropped,
				 MAX_RANGES);
	}
	return GM_OK;
}

gm_status gm_counters_collect(struct gm_counters_session *s, gm_status (*launch)(void *state), void *state,
			      struct gm_counters *out)
{
	CUpti_RangeProfiler_Enable_Params en = { CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE };
	CUpti_RangeProfiler_Disable_Params dis = { CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE };
	CUptiResult r;
	gm_status st;

	memset(out, 0, sizeof(*out));
	if (!launch) {
		out->state = GM_COUNTERS_NA;
		snprintf(out->note, sizeof(out->note), "n/a: the case has no launch to replay");
		return GM_OK;
	}
	if (s->dead[0]) {
		out->state = GM_COUNTERS_ERROR;
		snprintf(out->note, sizeof(out->note), "%s", s->dead);
		return GM_ERR_UNSUPPORTED;
	}
	if (s->enable_once)
		st = collect_enabled(s, s->obj, launch, state, out);
	else {
		en.ctx = s->ctx;
		trace("enable");
		r = cu.enable(&en);
		if (r != CUPTI_SUCCESS)
			st = cupti_fail(r, "cuptiRangeProfilerEnable");
		else {
			st = collect_enabled(s, en.pRangeProfilerObject, launch, state, out);
			dis.pRangeProfilerObject = en.pRangeProfilerObject;
			trace("disable");
			cu.disable(&dis);
		}
	}
	trace("collected");
	if (st) {
		out->state = GM_COUNTERS_ERROR;
		snprintf(out->note, sizeof(out->note), "%s", gm_last_error());
		/* privileges or another profiler: stop asking, say so once */
		if (st == GM_ERR_UNSUPPORTED && strstr(gm_last_error(), "counters off:"))
			snprintf(s->dead, sizeof(s->dead), "%s", gm_last_error());
	}
	return st;
}

void gm_counters_close(struct gm_counters_session *s)
{
	if (!s)
		return;
	if (s->obj) {
		CUpti_RangeProfiler_Disable_Params dis = { CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE };
		dis.pRangeProfilerObject = s->obj;
		cu.disable(&dis);
	}
	if (s->host) {
		CUpti_Profiler_Host_Deinitialize_Params hd = { CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE };
		hd.pHostObject = s->host;
		cu.host_deinit(&hd);
	}
	free(s->avail);
	free(s->config);
	free(s->data);
	free(s);
}
