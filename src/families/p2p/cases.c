/*
 * cases.c - the p2p family's case table: GPU to GPU (the harness device and the next one): copy-engine
 * copies (cudaMemcpyPeerAsync) one way and both ways, a kernel reading and a
 * kernel writing the peer's memory through peer access, and 4 KiB latency.
 * With one GPU, or without peer access, every case is skipped with the
 * reason. derive(): level "NVLink" (or "PCIe" peer) best unidirectional and
 * bidirectional figures against active links x 25 GB/s (NVLink 4) when NVML
 * reports the links. Ops: src/families/p2p/p2p.cu.
 */
#include <stdio.h>
#include <string.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/common/xfer_shapes.h"

static const struct {
	int mode, quick;
	long long bytes;
	const char *label, *desc;
} variants[] = {
	{ P2P_CE_WRITE, 1, 256ll << 20, "ce_write", "cudaMemcpyPeerAsync this GPU -> peer, 256 MiB" },
	{ P2P_CE_BIDIR, 0, 256ll << 20, "ce_bidir", "cudaMemcpyPeerAsync both ways at once, 256 MiB each" },
	{ P2P_KERNEL_READ, 0, 256ll << 20, "kernel_read", "kernel reads the peer's memory (peer access), writes local" },
	{ P2P_KERNEL_WRITE, 0, 256ll << 20, "kernel_write", "kernel reads local, writes the peer's memory (peer access)" },
	{ P2P_CE_READ, 0, 256ll << 20, "ce_read", "cudaMemcpyPeerAsync peer -> this GPU (a pull), 256 MiB" },
	{ P2P_KERNEL_BIDIR, 0, 256ll << 20, "kernel_bidir", "each GPU's kernel writes into the other at once" },
	{ P2P_LATENCY, 0, 4096, "lat_ce_4k", "4 KiB cudaMemcpyPeerAsync, us per copy" },
};

static int p2p_enumerate(struct gm_case *out, int max)
{
	const int n = (int)(sizeof(variants) / sizeof(variants[0]));
	struct gm_case scratch;

	for (int i = 0; i < n; i++) {
		struct gm_case *c = gm_case_slot(out, max, i, &scratch);

		gm_case_begin(c, &gm_family_p2p, -1, GM_KIND_MEASURE, variants[i].quick, variants[i].desc, "%s",
			      variants[i].label);
		gm_case_measure(c, variants[i].mode == P2P_LATENCY ? GM_UNIT_US : GM_UNIT_GBS, GM_TIME_EVENTS);
		gm_case_param_add(c, "mode", variants[i].mode);
		gm_case_param_add(c, "bytes", variants[i].bytes);
	}
	return n;
}

static double note_of(const struct gm_case_result *cr, const char *name)
{
	for (int i = 0; i < cr->nnotes; i++)
		if (!strcmp(cr->notes[i].name, name))
			return cr->notes[i].median;
	return 0;
}

static void p2p_one(struct gm_run_result *r, const char *cname, const char *quantity, int both)
{
	const struct gm_case_result *cr = gm_result_find(r, cname);
	char dname[64];

	if (!cr || cr->status != GM_CASE_OK)
		return;
	snprintf(dname, sizeof(dname), "p2p.%s", quantity);
	for (char *p = dname; *p; p++)
		if (*p == ' ')
			*p = '_';
	struct gm_derived *x = gm_result_derive(r, "p2p", dname);
	if (!x)
		return;
	double links = note_of(cr, "nvlink_links");
	snprintf(x->level, sizeof(x->level), "%s", links > 0 ? "NVLink" : "PCIe");
	snprintf(x->quantity, sizeof(x->quantity), "%s", quantity);
	x->unit = GM_UNIT_GBS;
	x->value = cr->value.median;
	if (links > 0) {
		x->reference = links * 25.0 * (both ? 2 : 1);
		snprintf(x->reference_what, sizeof(x->reference_what), "%.0f NVLink links x 25 GB/s%s", links,
			 both ? " x 2 ways" : "");
	}
	snprintf(x->how, sizeof(x->how), "case %s, %s bytes / time", cname,
		 both ? "both directions'" : "one direction's");
}

static void p2p_derive(struct gm_run_result *r)
{
	p2p_one(r, "p2p.ce_write", "peer bandwidth", 0);
	p2p_one(r, "p2p.ce_bidir", "peer bidir bandwidth", 1);
	p2p_one(r, "p2p.kernel_bidir", "peer bidir kernel", 1);
}

const struct gm_family gm_family_p2p = {
	"p2p", "GPU to GPU: copy engine and kernel copies, one and both ways, latency; skipped with one GPU",
	p2p_enumerate, gm_p2p_ops, p2p_derive,
};
