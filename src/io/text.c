/* text.c - CSV, the human table and the device block. */
#include <stdio.h>
#include <string.h>
#include "gpumem/io.h"

static void params_string(const struct gm_case_result *c, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->nparams && used < n; i++) {
		if (!strcmp(c->param_keys[i], "mode") || !strcmp(c->param_keys[i], "group") ||
		    !strcmp(c->param_keys[i], "ideal"))
			continue;
		used += (size_t)snprintf(buf + used, n - used, "%s%s=%lld", used ? " " : "",
					 c->param_keys[i], (long long)c->params[i].value);
	}
}

/* The model's headline for a case: first pattern's sectors/request or wavefronts. */
static void pred_string(const struct gm_case_result *c, char *buf, size_t n)
{
	const struct gm_pattern_prediction *p = NULL;

	for (int i = 0; i < c->npred && !p; i++)
		if (c->pred[i].per_request > c->pred[i].ideal || i == c->npred - 1)
			p = &c->pred[i];
	if (!p || p->per_request < 0) {
		snprintf(buf, n, "-");
		return;
	}
	snprintf(buf, n, "%s %.0f%s/%.0f", p->what, p->per_request,
		 strcmp(p->space, "shared") ? "sec" : "wf", p->ideal);
}

gm_status gm_csv_write(FILE *f, const struct gm_run_result *r)
{
	fprintf(f, "name,family,label,version,params,status,verified,bytes_useful,bytes_hw,samples,"
		   "median_ms,min_ms,max_ms,cov_pct,gbs_median,gbs_min,gbs_max,gbs_hw,pct_peak,"
		   "ns_per_access,slowdown,pred_efficiency_pct,pred_per_request,pred_ideal,pred_gbs,"
		   "pred_slowdown\n");
	for (int i = 0; i < r->ncases; i++) {
		const struct gm_case_result *c = &r->cases[i];
		char params[160];
		params_string(c, params, sizeof(params));
		fprintf(f, "%s,%s,%s,%d,\"%s\",%s,%d,%.0f,%.0f,%d,%.6f,%.6f,%.6f,%.3f,%.2f,%.2f,%.2f,"
			   "%.2f,%.2f,%.4f,%.3f,%.2f,%.2f,%.2f,%.2f,%.3f\n",
			c->name, c->family, c->label, c->version, params, gm_case_status_name(c->status),
			c->verified, c->traffic.bytes_useful, c->traffic.bytes_hw, c->nsamples, c->ms.median,
			c->ms.min, c->ms.max, c->ms.cov_pct, c->gbs_median, c->gbs_min, c->gbs_max,
			c->gbs_hw_median, c->pct_peak, c->ns_per_access, c->slowdown,
			c->pred_efficiency_pct, c->npred ? c->pred[0].per_request : 0,
			c->npred ? c->pred[0].ideal : 0, c->pred_gbs, c->pred_slowdown);
	}
	return ferror(f) ? gm_fail(GM_ERR_IO, "cannot write CSV") : GM_OK;
}

static void table_row(FILE *f, const struct gm_case_result *c)
{
	char params[160], pred[64];

	params_string(c, params, sizeof(params));
	pred_string(c, pred, sizeof(pred));
	fprintf(f, "%-30s %-30s ", c->name, params);
	if (c->status != GM_CASE_OK) {
		fprintf(f, "%-8s %s\n", gm_case_status_name(c->status), c->message);
		return;
	}
	if (c->kind == GM_KIND_SMEM)
		fprintf(f, "%8.3f ns %6.2fx  %7.2fx      ", c->ns_per_access, c->slowdown, c->pred_slowdown);
	else
		fprintf(f, "%8.1f    %5.1f%%  %8.1f %4.0f%%", c->gbs_median, c->pct_peak, c->pred_gbs,
			c->pred_gbs > 0 ? 100.0 * c->gbs_median / c->pred_gbs : 0);
	fprintf(f, " %5.2f%%  %-3s  %s\n", c->ms.cov_pct, c->verified ? "yes" : "no", pred);
}

void gm_table_write(FILE *f, const struct gm_run_result *r)
{
	const char *last = "";

	fprintf(f, "%-30s %-30s %11s %6s  %8s %5s %6s  %-3s  %s\n", "case", "params", "GB/s|ns/acc",
		"%pk|x", "model", "meas", "cov", "ok", "model: per request / ideal");
	fprintf(f, "%-30s %-30s %11s %6s  %8s %5s\n", "", "", "", "", "bound|x", "/bnd");
	for (int i = 0; i < r->ncases; i++) {
		if (strcmp(last, r->cases[i].family))
			fprintf(f, "\n");
		last = r->cases[i].family;
		table_row(f, &r->cases[i]);
	}
}

void gm_device_write(FILE *f, const struct gm_device_info *d)
{
	fprintf(f, "device %d: %s\n", d->index, d->name);
	fprintf(f, "  compute capability   %d.%d\n", d->cc_major, d->cc_minor);
	fprintf(f, "  multiprocessors      %d (%d threads each)\n", d->sm_count, d->max_threads_per_sm);
	fprintf(f, "  SM clock (peak)      %.0f MHz\n", d->sm_clock_khz / 1e3);
	fprintf(f, "  memory clock (peak)  %.0f MHz\n", d->mem_clock_khz / 1e3);
	fprintf(f, "  memory bus           %d bits\n", d->bus_width_bits);
	fprintf(f, "  memory               %.2f GiB total, %.2f GiB free\n", d->total_mem / 1073741824.0,
		d->free_mem / 1073741824.0);
	fprintf(f, "  L2 cache             %.1f MiB (persisting max %.1f MiB)\n", d->l2_bytes / 1048576.0,
		d->persisting_l2_max_bytes / 1048576.0);
	fprintf(f, "  shared memory        %lld KiB per SM, %lld KiB per block (opt-in)\n",
		(long long)d->smem_per_sm / 1024, (long long)d->smem_per_block_optin / 1024);
	fprintf(f, "  ECC                  %s\n", d->ecc ? "on" : "off");
	fprintf(f, "  driver / runtime     %d.%d / %d.%d\n", d->driver_version / 1000,
		d->driver_version % 1000 / 10, d->runtime_version / 1000, d->runtime_version % 1000 / 10);
	fprintf(f, "  PCI bus id           %04x:%02x:%02x.0\n", d->pci_domain, d->pci_bus, d->pci_device);
	if (d->pcie_gen > 0)
		fprintf(f, "  PCIe link            gen %d x%d\n", d->pcie_gen, d->pcie_width);
	else
		fprintf(f, "  PCIe link            unknown (NVML not available)\n");
	fprintf(f, "  peak DRAM bandwidth  %.1f GB/s  (2 x %.0f MHz x %d bit / 8)\n", d->peak_gbs,
		d->mem_clock_khz / 1e3, d->bus_width_bits);
}
