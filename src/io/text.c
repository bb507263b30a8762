/* text.c - CSV, the human table and the device block. */
#include <stdio.h>
#include <string.h>
#include "gpumem/io.h"
#include "gpumem/units.h"

void gm_value_format(double v, enum gm_unit u, char *buf, size_t n)
{
	double a = v < 0 ? -v : v;

	if (u == GM_UNIT_BYTES) {
		gm_format_bytes(v, buf, n);
		return;
	}
	snprintf(buf, n, a >= 1000 ? "%.0f %s" : a >= 100 ? "%.1f %s" : a >= 10 ? "%.2f %s" : "%.3f %s", v,
		 gm_unit_name(u));
}

/* "name=value unit" for each extra and note. */
static void extras_string(const struct gm_case_result *c, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->nextras + c->nnotes && used < n; i++) {
		const struct gm_value *v = i < c->nextras ? &c->extras[i] : &c->notes[i - c->nextras];
		char val[48];
		gm_value_format(v->median, v->unit, val, sizeof(val));
		used += (size_t)snprintf(buf + used, n - used, "%s%s=%s", used ? " " : "", v->name, val);
	}
}

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
	fprintf(f, "name,family,label,version,params,status,verified,unit,value_median,value_min,"
		   "value_max,timing,bytes_useful,bytes_hw,samples,"
		   "median_ms,min_ms,max_ms,cov_pct,gbs_median,gbs_min,gbs_max,gbs_hw,pct_peak,"
		   "ns_per_access,slowdown,pred_efficiency_pct,pred_per_request,pred_ideal,pred_gbs,"
		   "pred_slowdown,extras\n");
	for (int i = 0; i < r->ncases; i++) {
		const struct gm_case_result *c = &r->cases[i];
		char params[160], extras[256];
		params_string(c, params, sizeof(params));
		extras_string(c, extras, sizeof(extras));
		fprintf(f, "%s,%s,%s,%d,\"%s\",%s,%d,%s,%.10g,%.10g,%.10g,%s,%.0f,%.0f,%d,%.6f,%.6f,%.6f,%.3f,"
			   "%.2f,%.2f,%.2f,%.2f,%.2f,%.4f,%.3f,%.2f,%.2f,%.2f,%.2f,%.3f,\"%s\"\n",
			c->name, c->family, c->label, c->version, params, gm_case_status_name(c->status),
			c->verified, gm_unit_name(c->unit), c->value.median, c->value.min, c->value.max,
			gm_timing_name(c->timing), c->traffic.bytes_useful, c->traffic.bytes_hw, c->nsamples, c->ms.median,
			c->ms.min, c->ms.max, c->ms.cov_pct, c->gbs_median, c->gbs_min, c->gbs_max,
			c->gbs_hw_median, c->pct_peak, c->ns_per_access, c->slowdown,
			c->pred_efficiency_pct, c->npred ? c->pred[0].per_request : 0,
			c->npred ? c->pred[0].ideal : 0, c->pred_gbs, c->pred_slowdown, extras);
	}
	/* derived results: same columns, status "derived", the value in value_median */
	for (int i = 0; i < r->nderived; i++) {
		const struct gm_derived *d = &r->derived[i];
		fprintf(f, "%s,%s,,,\"level=%s quantity=%s\",derived,0,%s,%.10g,%.10g,%.10g,,,,,,,,,,,,,,,,,,,,,"
			   "\"reference=%.10g\"\n",
			d->name, d->family, d->level, d->quantity, gm_unit_name(d->unit), d->value, d->value,
			d->value, d->reference);
	}
	return ferror(f) ? gm_fail(GM_ERR_IO, "cannot write CSV") : GM_OK;
}

static void table_row(FILE *f, const struct gm_case_result *c, int64_t l2_bytes)
{
	char params[160], pred[64];
	const char *moves = gm_between_processes(c, l2_bytes, NULL);

	params_string(c, params, sizeof(params));
	pred_string(c, pred, sizeof(pred));
	fprintf(f, "%-30s %-30s ", c->name, params);
	if (c->status != GM_CASE_OK) {
		fprintf(f, "%-8s %s\n", gm_case_status_name(c->status), c->message);
		return;
	}
	if (c->kind == GM_KIND_MEASURE) {
		char val[48], extras[200];
		gm_value_format(c->value.median, c->unit, val, sizeof(val));
		extras_string(c, extras, sizeof(extras));
		fprintf(f, "%-18s %16s %5.2f%%  %-3s  %s%s%s\n", val, "", c->ms.cov_pct, c->verified ? "yes" : "no",
			extras, moves ? "  ~" : "", moves ? moves : "");
		return;
	}
	if (c->kind == GM_KIND_SMEM)
		fprintf(f, "%8.3f ns %6.2fx  %7.2fx      ", c->ns_per_access, c->slowdown, c->pred_slowdown);
	else if (c->launch_gbs > 0) /* the launch model's prediction (docs/MODEL.md) */
		fprintf(f, "%8.1f    %5.1f%%  %8.1f %4.0f%%", c->gbs_median, c->pct_peak, c->launch_gbs,
			100.0 * c->gbs_median / c->launch_gbs);
	else
		fprintf(f, "%8.1f    %5.1f%%  %7.1fb %4.0f%%", c->gbs_median, c->pct_peak, c->pred_gbs,
			c->pred_gbs > 0 ? 100.0 * c->gbs_median / c->pred_gbs : 0);
	fprintf(f, " %5.2f%%  %-3s  %s%s%s\n", c->ms.cov_pct, c->verified ? "yes" : "no", pred, moves ? "  ~" : "",
		moves ? moves : "");
}

void gm_table_write(FILE *f, const struct gm_run_result *r)
{
	const char *last = "";
	int64_t l2 = r->have_device ? r->dev.l2_bytes : 0;
	int moved = 0;

	if (r->sanitize)
		fprintf(f, "%s\n", GM_SANITIZE_NOTE);
	fprintf(f, "%-30s %-30s %11s %6s  %8s %5s %6s  %-3s  %s\n", "case", "params", "GB/s|ns/acc",
		"%pk|x", "model", "meas", "cov", "ok", "model: per request / ideal");
	fprintf(f, "%-30s %-30s %11s %6s  %8s %5s\n", "", "", "", "", "pred|x", "/pred");
	for (int i = 0; i < r->ncases; i++) {
		if (strcmp(last, r->cases[i].family))
			fprintf(f, "\n");
		last = r->cases[i].family;
		table_row(f, &r->cases[i], l2);
		moved += r->cases[i].status == GM_CASE_OK && gm_between_processes(&r->cases[i], l2, NULL);
	}
	if (moved)
		fprintf(f, "\n~host ~link ~power ~placement: %d figures that can move from one process to the next by more "
			   "than their spread here (docs/METHODOLOGY.md \"Between processes\")\n", moved);
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
	if (d->uuid[0])
		fprintf(f, "  UUID                 %s\n", d->uuid);
	if (d->pcie_gen > 0)
		fprintf(f, "  PCIe link            gen %d x%d\n", d->pcie_gen, d->pcie_width);
	else
		fprintf(f, "  PCIe link            unknown (NVML not available)\n");
	fprintf(f, "  peak DRAM bandwidth  %.1f GB/s  (2 x %.0f MHz x %d bit / 8)\n", d->peak_gbs,
		d->mem_clock_khz / 1e3, d->bus_width_bits);
}

void gm_derived_write(FILE *f, const struct gm_run_result *r)
{
	if (!r->nderived)
		return;
	fprintf(f, "\nderived results\n");
	for (int i = 0; i < r->nderived; i++) {
		const struct gm_derived *d = &r->derived[i];
		char val[48], ref[48] = "";
		gm_value_format(d->value, d->unit, val, sizeof(val));
		if (d->reference > 0)
			gm_value_format(d->reference, d->unit, ref, sizeof(ref));
		fprintf(f, "  %-34s %14s  %s%s%s%s\n    %s\n", d->name, val, ref[0] ? "ref " : "", ref,
			ref[0] ? " = " : "", d->reference_what, d->how);
	}
}

/* Levels in the order of the spec sheet; others follow in order of appearance. */
static const char *const spec_levels[] = { "registers", "L1", "smem", "L2", "L2 near", "L2 far", "HBM",
					   "TLB", "constant", "texture", "local", "PCIe", "NVLink", NULL };

static void spec_line(FILE *f, const struct gm_derived *d)
{
	char val[48], ref[48];

	gm_value_format(d->value, d->unit, val, sizeof(val));
	fprintf(f, "  %-9s %-24s %16s", d->level, d->quantity, val);
	if (d->reference > 0) {
		gm_value_format(d->reference, d->unit, ref, sizeof(ref));
		fprintf(f, "  %16s  %5.1f%%  %s", ref, 100.0 * d->value / d->reference, d->reference_what);
	}
	/* a line whose cases stayed above their CoV limit says so, with the spread seen */
	const char *unstable = strstr(d->how, "unstable:");
	if (unstable)
		fprintf(f, "\n  %-9s %s", "", unstable);
	fputc('\n', f);
}

static int level_known(const char *level)
{
	for (int i = 0; spec_levels[i]; i++)
		if (!strcmp(level, spec_levels[i]))
			return 1;
	return 0;
}

int gm_spec_write(FILE *f, const struct gm_run_result *r)
{
	int lines = 0;

	for (int l = 0; spec_levels[l]; l++)
		for (int i = 0; i < r->nderived; i++)
			if (!strcmp(r->derived[i].level, spec_levels[l])) {
				if (!lines++)
					fprintf(f, "\nmeasured spec sheet\n  %-9s %-24s %16s  %16s  %6s\n", "level",
						"quantity", "measured", "reference", "ratio");
				spec_line(f, &r->derived[i]);
			}
	for (int i = 0; i < r->nderived; i++)
		if (r->derived[i].level[0] && !level_known(r->derived[i].level)) {
			if (!lines++)
				fprintf(f, "\nmeasured spec sheet\n");
			spec_line(f, &r->derived[i]);
		}
	return lines;
}
