/*
 * trace.c - the trace pass: Compute Sanitizer callbacks that patch the program's modules with
 * patches.cu, pick the selected launches, give each its device buffer (struct gmt_launch), wait for
 * it at its end, and rewrite the partial document after every traced launch.
 *
 * Cost control: launches that are not selected run with userdata NULL (the callback returns at once);
 * once the window is past, every patched module is unpatched (GPUMEM_TRACE_UNPATCH=0 keeps them) and
 * modules loaded later are left alone, so the program's remaining launches run at native speed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include <sanitizer.h>
#include "inject.h"
#include "trace_dev.h"
#include "trace_launch.h"

extern const unsigned char gmt_patches[];
extern const size_t gmt_patches_len;

#define MAX_CTX 64
#define MAX_MOD 8192
#define MAX_STREAMS 1024
#define CUBIN_BUDGET (512u << 20)

struct ctx_state {
	CUcontext ctx;
	int patches_added;
	struct gmt_launch *dev;   /* one buffer, reused by each traced launch (they are serialised) */
};

static pthread_mutex_t lock;
static Sanitizer_SubscriberHandle subscriber;
static struct ctx_state ctxs[MAX_CTX];
static int nctx;
static struct gmt_module mods[MAX_MOD];
static int nmod;
static CUstream streams[MAX_STREAMS];
static int nstreams;
static size_t cubin_bytes;
static long seen, matched, graph_kernels, traced, captured_noted;
static int done, device_ordinal = -1;
static struct gmt_buf *launch_json;   /* one serialised launch each */
static size_t nlaunch_json;
static struct gmt_current cur;

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static struct ctx_state *ctx_of(CUcontext c)
{
	for (int i = 0; i < nctx; i++)
		if (ctxs[i].ctx == c)
			return &ctxs[i];
	if (nctx == MAX_CTX)
		return NULL;
	memset(&ctxs[nctx], 0, sizeof(ctxs[nctx]));
	ctxs[nctx].ctx = c;
	if (nctx == 1)
		gmt_note("the program used more than one CUDA context: launches in all of them are counted");
	return &ctxs[nctx++];
}

static int stream_id(CUstream s)
{
	if (!s)
		return 0;
	for (int i = 0; i < nstreams; i++)
		if (streams[i] == s)
			return i + 1;
	if (nstreams == MAX_STREAMS)
		return -1;
	streams[nstreams++] = s;
	if (nstreams == 2)
		gmt_note("the program launched on several streams: each traced launch was waited for at its end, "
		         "so traced launches did not overlap other work");
	return nstreams;
}

struct gmt_module *gmt_module_of(CUmodule m)
{
	for (int i = 0; i < nmod; i++)
		if (mods[i].module == m)
			return &mods[i];
	return NULL;
}

static int add_patches(struct ctx_state *c)
{
	static int adding;
	SanitizerResult r;

	if (c->patches_added || adding)
		return c->patches_added ? 0 : -1;
	adding = 1;
	r = sanitizerAddPatches(gmt_patches, c->ctx);
	adding = 0;
	if (r != SANITIZER_SUCCESS) {
		const char *s = NULL;
		sanitizerGetResultString(r, &s);
		gmt_note("sanitizer: cannot load the patches (%s): nothing traced", s ? s : "?");
		return -1;
	}
	c->patches_added = 1;
	return 0;
}

static void patch_module(struct gmt_module *m, CUcontext ctx)
{
	struct ctx_state *c = ctx_of(ctx);
	SanitizerResult r;

	if (m->patched || done || !c || add_patches(c) != 0)
		return;
	sanitizerPatchInstructions(SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, m->module, "gmt_global_cb");
	sanitizerPatchInstructions(SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, m->module, "gmt_shared_cb");
	sanitizerPatchInstructions(SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS, m->module, "gmt_local_cb");
	r = sanitizerPatchModule(m->module);
	if (r != SANITIZER_SUCCESS) {
		const char *s = NULL;
		sanitizerGetResultString(r, &s);
		gmt_note("sanitizer: cannot patch module %d (%s)", m->id, s ? s : "?");
		return;
	}
	m->patched = 1;
}

static void module_loaded(const Sanitizer_ResourceModuleData *d)
{
	struct gmt_module *m;

	if (nmod == MAX_MOD) {
		gmt_note("more than %d modules: later ones not traced", MAX_MOD);
		return;
	}
	m = &mods[nmod];
	memset(m, 0, sizeof(*m));
	m->module = d->module;
	m->id = nmod++;
	/* the cubin is only ours during this callback: keep a copy for the line table while tracing lasts */
	if (!done && d->pCubin && d->cubinSize && cubin_bytes + d->cubinSize <= CUBIN_BUDGET) {
		m->cubin = malloc(d->cubinSize);
		if (m->cubin) {
			memcpy(m->cubin, d->pCubin, d->cubinSize);
			m->cubin_size = d->cubinSize;
			cubin_bytes += d->cubinSize;
		}
	} else if (!done && d->pCubin) {
		gmt_note("cubins past %u MiB not kept: lines of later modules missing", CUBIN_BUDGET >> 20);
	}
	/* the patches are loaded into the context here, outside any launch: loaded from the first selected launch's
	   callback, their module load waited forever when that launch was on a stream the program created
	   (graph_streams with GPUMEM_TRACE_DEBUG=1 on an H200: docs/TRACE.md) */
	if (!done) {
		struct ctx_state *c = ctx_of(d->context);
		gmt_dbg("module %d loaded: adding the patches to its context", m->id);
		if (c)
			add_patches(c);
	}
	if (!gmt_opt.patch_at_launch)
		patch_module(m, d->context);
}

static void unpatch_all(void)
{
	for (int i = 0; i < nmod; i++) {
		if (mods[i].patched && sanitizerUnpatchModule(mods[i].module) == SANITIZER_SUCCESS)
			mods[i].patched = 0;
		free(mods[i].cubin);
		mods[i].cubin = NULL;
	}
}

static int any_patched(void)
{
	for (int i = 0; i < nmod; i++)
		if (mods[i].patched)
			return 1;
	return 0;
}

static int stopped;
static int need_load_patch;   /* a selected launch on a created stream found its module unpatched */
static int unpatch_pending;   /* the window ended on a created stream: unpatch at the next default-stream launch */

static void write_doc(int complete)
{
	struct gmt_buf b = {0};

	gmt_buf_printf(&b, "{\"schema\": \"gpumem-trace-part/1\", \"mode\": \"trace\", \"pid\": %ld, "
	               "\"complete\": %s, \"stopped\": %s, \"launches_seen\": %ld, \"launches_matched\": %ld, "
	               "\"graph_kernel_launches\": %ld, \"needs_patch_at_load\": %s,\n\"device\": ", (long)getpid(),
	               complete ? "true" : "false", stopped ? "true" : "false", seen, matched, graph_kernels,
	               need_load_patch ? "true" : "false");
	if (device_ordinal >= 0)
		gmt_device_json(&b, device_ordinal);
	else
		gmt_buf_printf(&b, "null");
	gmt_buf_printf(&b, ",\n\"notes\": ");
	gmt_notes_json(&b);
	gmt_buf_printf(&b, ",\n\"launches\": [");
	for (size_t i = 0; i < nlaunch_json; i++)
		gmt_buf_printf(&b, "%s\n%s", i ? "," : "", launch_json[i].p ? launch_json[i].p : "null");
	gmt_buf_printf(&b, "]}\n");
	if (b.oom || gmt_write_atomic(gmt_opt.out, b.p, b.len) != 0)
		fprintf(stderr, "gpumem trace: cannot write '%s'\n", gmt_opt.out);
	gmt_buf_free(&b);
}

static void launch_begin(const Sanitizer_LaunchData *ld, int graph_node)
{
	CUstreamCaptureStatus cap = CU_STREAM_CAPTURE_STATUS_NONE;

	/* a launch into a stream being captured does not run: it becomes a graph node, counted when the graph
	   is launched; its stream must not be synchronised (the capture would be invalidated) */
	if (!graph_node && ld->stream && cuStreamIsCapturing(ld->stream, &cap) == CUDA_SUCCESS &&
	    cap != CU_STREAM_CAPTURE_STATUS_NONE) {
		if (!captured_noted++)
			gmt_note("launches captured into a CUDA graph are not counted where captured; the graph's kernel "
			         "nodes are counted when it is launched, never traced");
		return;
	}
	long ordinal = seen++;
	int match = gmt_name_matches(ld->functionName);
	gmt_dbg("launch %ld %s on stream %p (graph node %d)", ordinal, ld->functionName ? ld->functionName : "?",
	        (void *)ld->stream, graph_node);
	int sel = match && matched >= gmt_opt.skip && matched < gmt_opt.skip + gmt_opt.count;
	struct ctx_state *c;

	if (graph_node) {
		graph_kernels++;
		if (sel)
			gmt_note("launch %ld (%s) is a CUDA graph node: graph nodes are counted, never traced", ordinal,
			         ld->functionName ? ld->functionName : "?");
		/* a node of a patched module runs the patched code: its callbacks must get no buffer (left unset,
		   they faulted: "misaligned address" in graph_streams) */
		if (any_patched())
			sanitizerSetLaunchCallbackData(ld->hLaunch, ld->function, ld->hStream, NULL);
		return;
	}
	if (match)
		matched++;
	if (unpatch_pending && !ld->stream) {
		unpatch_pending = 0;
		unpatch_all();
	}
	if (!sel || done) {
		if (any_patched())
			sanitizerSetLaunchCallbackData(ld->hLaunch, ld->function, ld->hStream, NULL);
		return;
	}
	c = ctx_of(ld->context);
	if (device_ordinal < 0)
		device_ordinal = (int)ld->device;
	struct gmt_module *m = gmt_module_of(ld->module);
	if (m && !m->patched && ld->stream) {
		/* patching a module from the launch callback of a stream the program created waits forever (H200,
		   driver 580: graph_streams); the collector runs the trace pass again with every module patched as
		   it loads (GPUMEM_TRACE_PATCH=load), where such a launch is traced */
		gmt_dbg("launch %ld: on a created stream, its module unpatched: patch at load needed", ordinal);
		need_load_patch = 1;
		done = 1;
		if (gmt_opt.stop) {
			write_doc(1);
			_exit(0);
		}
		return;
	}
	if (m && !m->patched) {
		gmt_dbg("launch %ld: patching module %d", ordinal, m->id);
		patch_module(m, ld->context);
		gmt_dbg("launch %ld: patched", ordinal);
	}
	if (!c || !m || !m->patched) {
		gmt_note("launch %ld (%s): its module could not be patched, not traced", ordinal, ld->functionName);
		return;
	}
	gmt_dbg("launch %ld: trace buffer %s", ordinal, c->dev ? "kept" : "to allocate");
	if (!c->dev && sanitizerAlloc(ld->context, (void **)&c->dev, sizeof(struct gmt_launch)) != SANITIZER_SUCCESS) {
		c->dev = NULL;
		gmt_note("launch %ld: no device memory for the trace buffer (%zu MB), not traced", ordinal,
		         sizeof(struct gmt_launch) >> 20);
		return;
	}
	/* work queued before on the stream ends first, so that traced_ms is this launch's alone */
	gmt_dbg("launch %ld selected: waiting for its stream", ordinal);
	sanitizerStreamSynchronize(ld->hStream);
	gmt_dbg("launch %ld: stream idle", ordinal);
	gmt_current_begin(&cur, ld, ordinal, m, c->dev, stream_id(ld->stream));
	sanitizerMemset(c->dev, 0, sizeof(struct gmt_launch), ld->hStream);
	sanitizerMemcpyHostToDeviceAsync(c->dev, &cur.hdr, sizeof(cur.hdr), ld->hStream);
	sanitizerSetLaunchCallbackData(ld->hLaunch, ld->function, ld->hStream, c->dev);
	cur.t_begin_ms = now_ms();
}

static void launch_end(const Sanitizer_LaunchData *ld)
{
	struct gmt_buf b = {0};

	if (!cur.active || cur.function != ld->function || cur.hstream != ld->hStream)
		return;
	gmt_dbg("launch end: waiting for the traced launch");
	sanitizerStreamSynchronize(ld->hStream);
	gmt_dbg("launch end: collecting");
	cur.traced_ms = now_ms() - cur.t_begin_ms;
	if (gmt_current_collect(&cur, ld->hStream, &b) == 0) {
		struct gmt_buf *p = realloc(launch_json, (nlaunch_json + 1) * sizeof(*p));
		if (p) {
			launch_json = p;
			launch_json[nlaunch_json++] = b;
			traced++;
		} else {
			gmt_buf_free(&b);
		}
	}
	cur.active = 0;
	if (matched >= gmt_opt.skip + gmt_opt.count)
		done = 1;
	if (done && gmt_opt.stop) {   /* the window is traced: end here, as asked */
		stopped = 1;
		write_doc(1);
		_exit(0);
	}
	/* unpatching from the end callback of a launch on a created stream waits forever, as patching does
	   (graph_streams -c 1): then it waits for the next launch on the default stream */
	if (done && gmt_opt.unpatch) {
		if (ld->stream)
			unpatch_pending = 1;
		else
			unpatch_all();
	}
	write_doc(0);
}

static void callback(void *ud, Sanitizer_CallbackDomain dom, Sanitizer_CallbackId cbid, const void *data)
{
	(void)ud;
	pthread_mutex_lock(&lock);
	gmt_dbg("callback domain %d id %d (launches %ld, matched %ld, traced %ld)", (int)dom, (int)cbid, seen, matched,
	        traced);
	if (dom == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED) {
		module_loaded((const Sanitizer_ResourceModuleData *)data);
	} else if (dom == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_BEGIN) {
		launch_begin((const Sanitizer_LaunchData *)data, 0);
	} else if (dom == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_END) {
		launch_end((const Sanitizer_LaunchData *)data);
	} else if (dom == SANITIZER_CB_DOMAIN_GRAPHS && cbid == SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN) {
		const Sanitizer_GraphNodeLaunchData *g = data;
		if (g->nodeType == CU_GRAPH_NODE_TYPE_KERNEL && !g->isGraphUpload)
			launch_begin(&g->launchData, 1);
	} else if (dom == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC) {
		const Sanitizer_ResourceMemoryData *m = data;   /* pinned host memory: mapped where a kernel reads it */
		gmt_hostmem_alloc(m->address, m->size);
	} else if (dom == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE) {
		gmt_hostmem_free(((const Sanitizer_ResourceMemoryData *)data)->address);
	} else if (dom == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_STREAM_CREATED) {
		/* streams are numbered by first launch, not by creation */
	}
	gmt_dbg("callback domain %d id %d done", (int)dom, (int)cbid);
	pthread_mutex_unlock(&lock);
}

static void at_exit(void)
{
	gmt_dbg("at exit");
	pthread_mutex_lock(&lock);
	if (seen == 0)
		gmt_note("the program launched no kernel");
	else if (traced == 0 && matched == 0)
		gmt_note("no launch matched the kernel selection (%ld launches)", seen);
	else if (traced == 0)
		gmt_note("%ld launches matched, fewer than --launch-skip %ld + 1", matched, gmt_opt.skip);
	write_doc(1);
	pthread_mutex_unlock(&lock);
}

int gmt_trace_start(void)
{
	pthread_mutexattr_t a;
	SanitizerResult r;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&lock, &a);
	r = sanitizerSubscribe(&subscriber, callback, NULL);
	if (r != SANITIZER_SUCCESS) {
		const char *s = NULL;
		sanitizerGetResultString(r, &s);
		gmt_note("sanitizer: subscribe failed (%s)", s ? s : "?");
		write_doc(0);
		return -1;
	}
	sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_RESOURCE);
	sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_LAUNCH);
	sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_GRAPHS);
	if (!gmt_opt.patch_at_launch)
		gmt_note("every module was patched as it loaded (a selected launch is on a stream the program created, "
		         "where a module cannot be patched during its launch): launches before the window ran "
		         "instrumented, slower");
	write_doc(0);   /* the document exists from the start: "no kernels" is told apart from "never loaded" */
	atexit(at_exit);
	return 0;
}
