/* fleet_out.c - the fleet view as text and as an HTML section (src/analysis/fleet.c computes it). */
#include <stdio.h>
#include <string.h>
#include "gpumem/fleet.h"
#include "gpumem/io.h"
#include "gpumem/units.h"

/* a device's model: its run's device name, else what the placement saw */
static const char *model_of(const struct gm_multi_run *m, int d)
{
	return m->runs[d].have_device && m->runs[d].dev.name[0] ? m->runs[d].dev.name : m->pl[d].name;
}

/* "rank 1 host:GPU 0 (0000:19:00.0)" */
static void device_label(const struct gm_multi_run *m, int d, char *buf, size_t n)
{
	const struct gm_placement *p = &m->pl[d];
	char rank[24] = "";

	if (p->rank >= 0)
		snprintf(rank, sizeof(rank), "rank %d ", p->rank);
	snprintf(buf, n, "%s%s%sGPU %d (%s)", rank, p->host, p->host[0] ? ":" : "", p->device,
		 p->pci_bus_id[0] ? p->pci_bus_id : "bus ?");
}

static void write_devices(FILE *f, const struct gm_multi_run *m, const struct gm_fleet *fl)
{
	fprintf(f, "%-40s %-24s %-6s %-4s %-9s %-13s %-9s %-5s %s\n", "device", "model", "status", "numa",
		"pcie", "sm MHz", "temp C", "procs", "cases");
	for (int d = 0; d < m->n; d++) {
		const struct gm_placement *p = &m->pl[d];
		char lab[128], link[32] = "?", sm[48] = "-", temp[48] = "-";
		if (p->pcie_gen > 0)
			snprintf(link, sizeof(link), "Gen%d x%d", p->pcie_gen, p->pcie_width);
		if (p->tel.samples) {
			snprintf(sm, sizeof(sm), "%.0f-%.0f", p->tel.sm_mhz_min, p->tel.sm_mhz_max);
			snprintf(temp, sizeof(temp), "%.0f-%.0f", p->tel.temp_c_min, p->tel.temp_c_max);
		}
		device_label(m, d, lab, sizeof(lab));
		fprintf(f, "%-40s %-24.24s %-6s %-4d %-9s %-13s %-9s %-5d %d%s%s\n", lab,
			model_of(m, d)[0] ? model_of(m, d) : "-", p->status, p->numa_node, link, sm, temp,
			p->tel.max_processes, d < fl->ndevs ? fl->devs[d].n : 0, p->message[0] ? "  " : "", p->message);
	}
}

void gm_fleet_write(FILE *f, const struct gm_multi_run *m, const struct gm_fleet *fl)
{
	char a[32], b[32], c[32], e[32], lab[128];

	fprintf(f, "fleet: %d device(s), mode %s, %d model(s); outlier = more than %.1f spreads worse than the median\n\n",
		m->n, m->mode[0] ? m->mode : "?", fl->nmodels, fl->k);
	write_devices(f, m, fl);
	for (int g = 0; g < fl->nmodels; g++) {
		fprintf(f, "\n%s\n%-40s %4s %14s %12s %14s %14s  %s\n", fl->models[g], "case", "n", "median", "spread",
			"min", "max", "outliers");
		for (int i = 0; i < fl->ncases; i++) {
			const struct gm_fleet_case *fc = &fl->cases[i];
			if (strcmp(fc->model, fl->models[g]) || !fc->n)
				continue;
			gm_value_format(fc->median, fc->unit, a, sizeof(a));
			gm_value_format(fc->spread, fc->unit, b, sizeof(b));
			gm_value_format(fc->min, fc->unit, c, sizeof(c));
			gm_value_format(fc->max, fc->unit, e, sizeof(e));
			fprintf(f, "%-40s %4d %14s %12s %14s %14s  %d\n", fc->name, fc->n, a, b, c, e, fc->noutliers);
		}
	}
	if (fl->nbaselines) {
		fprintf(f, "\n%d case(s) where the model's median is more than %.1f tolerances below its baseline\n",
			fl->nbelow, fl->k);
		for (int i = 0; i < fl->ncases; i++)
			if (fl->cases[i].below_baseline) {
				gm_value_format(fl->cases[i].median, fl->cases[i].unit, a, sizeof(a));
				gm_value_format(fl->cases[i].baseline_median, fl->cases[i].unit, b, sizeof(b));
				fprintf(f, "  %s  %s: median of %d GPU(s) %s vs baseline %s (%.1f tolerances worse)\n",
					fl->cases[i].model, fl->cases[i].name, fl->cases[i].n, a, b,
					fl->cases[i].baseline_tolerances);
			}
	}
	fprintf(f, "\n%d outlier(s)\n", fl->noutliers);
	for (int i = 0; i < fl->ncases; i++)
		for (int j = 0; j < fl->cases[i].noutliers; j++) {
			const struct gm_fleet_outlier *o = &fl->cases[i].out[j];
			device_label(m, o->device, lab, sizeof(lab));
			gm_value_format(o->value, fl->cases[i].unit, a, sizeof(a));
			gm_value_format(o->median, fl->cases[i].unit, b, sizeof(b));
			if (o->jitter)
				fprintf(f, "  %s  %s: erratic samples, CoV %.1f %% vs fleet median %.2f %% (median %s vs "
					"%s)%s%s\n", lab, fl->cases[i].name, o->cov_pct, o->fleet_cov_pct, a, b,
					o->cause[0] ? "; likely: " : "", o->cause);
			else
				fprintf(f, "  %s  %s: %s vs median %s (%+.1f %%, %.1f spreads worse)%s%s\n", lab,
					fl->cases[i].name, a, b, o->pct, o->spreads_below, o->cause[0] ? "; likely: " : "",
					o->cause);
		}
}


void gm_fleet_html(FILE *f, const struct gm_multi_run *m, const struct gm_fleet *fl)
{
	char a[32], b[32], lab[128];

	fprintf(f, "<section id=\"fleet\"><h2>Fleet: %d devices</h2>\n<p>Per case the distribution over the "
		   "devices of one model; a device more than %.1f spreads worse than the median is listed "
		   "below with the likely cause the data shows.</p>\n<table><tr><th>device</th><th>model</th>"
		   "<th>status</th><th>NUMA</th><th>PCIe</th><th>SM MHz</th><th>max temp C</th></tr>\n",
		m->n, fl->k);
	for (int d = 0; d < m->n; d++) {
		device_label(m, d, lab, sizeof(lab));
		fputs("<tr><td>", f);
		gm_html_escape(f, lab);
		fputs("</td><td>", f);
		gm_html_escape(f, model_of(m, d));
		char link[32] = "?", sm[24] = "-", temp[24] = "-";
		if (m->pl[d].pcie_gen > 0)
			snprintf(link, sizeof(link), "Gen%d x%d", m->pl[d].pcie_gen, m->pl[d].pcie_width);
		if (m->pl[d].tel.samples) {
			snprintf(sm, sizeof(sm), "%.0f", m->pl[d].tel.sm_mhz_median);
			snprintf(temp, sizeof(temp), "%.0f", m->pl[d].tel.temp_c_max);
		}
		fprintf(f, "</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", m->pl[d].status,
			m->pl[d].numa_node, link, sm, temp);
	}
	fprintf(f, "</table>\n<h3>%d outliers</h3>\n<table><tr><th>device</th><th>case</th><th>value</th>"
		   "<th>median</th><th>%%</th><th>spreads</th><th>likely cause</th></tr>\n", fl->noutliers);
	for (int i = 0; i < fl->ncases; i++)
		for (int j = 0; j < fl->cases[i].noutliers; j++) {
			const struct gm_fleet_outlier *o = &fl->cases[i].out[j];
			device_label(m, o->device, lab, sizeof(lab));
			gm_value_format(o->value, fl->cases[i].unit, a, sizeof(a));
			gm_value_format(o->median, fl->cases[i].unit, b, sizeof(b));
			fputs("<tr><td>", f);
			gm_html_escape(f, lab);
			if (o->jitter)
				fprintf(f, "</td><td>%s</td><td>%s</td><td>%s</td><td>%+.1f</td><td>erratic: CoV %.1f %%"
					" vs %.2f %%</td><td>", fl->cases[i].name, a, b, o->pct, o->cov_pct,
					o->fleet_cov_pct);
			else
				fprintf(f, "</td><td>%s</td><td>%s</td><td>%s</td><td>%+.1f</td><td>%.1f</td><td>",
					fl->cases[i].name, a, b, o->pct, o->spreads_below);
			gm_html_escape(f, o->cause);
			fputs("</td></tr>\n", f);
		}
	fputs("</table></section>\n", f);
}
