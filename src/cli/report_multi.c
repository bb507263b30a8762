/*
 * report_multi.c - `gpumem report` of a multi-device document: every device's
 * table under a header naming it, then the fleet view; with -o the HTML page
 * overlays the devices in every chart and opens with the fleet section.
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/findings.h"
#include "gpumem/fleet.h"
#include "gpumem/io.h"

#define MAX_DEV 64

static int write_html(const struct gm_multi_run *m, const struct gm_fleet *fl, const char *path)
{
	char names[MAX_DEV][64];
	const char *labels[MAX_DEV];
	struct gm_finding f[GM_FINDINGS_MAX];
	struct gm_outfile out;
	int n = m->n < MAX_DEV ? m->n : MAX_DEV;
	struct gm_fleet_doc doc = { m, fl, labels, n, f, n ? gm_findings(&m->runs[0], f, GM_FINDINGS_MAX) : 0 };

	for (int d = 0; d < n; d++) {
		if (m->pl[d].rank >= 0)
			snprintf(names[d], sizeof(names[d]), "rank %d GPU %d", m->pl[d].rank, m->pl[d].device);
		else
			snprintf(names[d], sizeof(names[d]), "GPU %d", m->pl[d].device);
		labels[d] = names[d];
	}
	if (gm_outfile_open(&out, path))
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	if (gm_write(out.f, GM_DOC_FLEET, "html", &doc) || gm_outfile_commit(&out)) {
		gm_outfile_abort(&out);
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	}
	printf("%s\n", path);
	return GM_EXIT_OK;
}

int report_multi(const char *path, const char *html, int csv)
{
	struct gm_multi_run m;
	struct gm_fleet fl;
	int code = GM_EXIT_OK;

	if (gm_multi_read(path, &m))
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (gm_fleet_compute(&m, GM_FLEET_DEFAULT_K, &fl)) {
		gm_multi_release(&m);
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	}
	if (html)
		code = write_html(&m, &fl, html);
	else {
		printf("%s\n%d devices, mode %s, %s\n", m.command, m.n, m.mode, m.started_utc);
		for (int d = 0; d < m.n; d++) {
			const struct gm_placement *p = &m.pl[d];
			printf("\n== %s%d GPU %d (%s) %s: %s ==\n", p->rank >= 0 ? "rank " : "device block ",
			       p->rank >= 0 ? p->rank : d, p->device, p->pci_bus_id, p->name, p->status);
			if (csv)
				gm_write(stdout, GM_DOC_RUN, "csv", &m.runs[d]);
			else {
				gm_table_write(stdout, &m.runs[d]);
				gm_derived_write(stdout, &m.runs[d]);
			}
		}
		printf("\n");
		gm_write(stdout, GM_DOC_FLEET, "text", &(struct gm_fleet_doc){ &m, &fl });
	}
	gm_fleet_release(&fl);
	gm_multi_release(&m);
	return code;
}
