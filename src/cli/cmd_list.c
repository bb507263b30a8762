/* cmd_list.c - `gpumem list [SELECTOR...]`: every case, one line each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/bench.h"

static const struct gm_opt list_opts[] = {
	{ "SELECTOR", GM_OPT_OPERAND, 0, NULL, "a family, a case name or a prefix; none = every case", "@case" },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_list = {
	"list", "list every benchmark case with a one-line description", "[SELECTOR...]",
	"Without a selector: one line per family ('# name  description'), then every case. Cases of the\n"
	"quick suite are marked [quick], the long sweeps that only 'run --full' includes [full].",
	list_opts, NULL,
};

static int no_option(void *ctx, const struct gm_opt *o, const char *v)
{
	(void)ctx, (void)o, (void)v;
	return 0;
}

static void print_cases(const struct gm_case *cases, int n, const unsigned char *sel, int families)
{
	for (int f = 0; families && gm_families[f]; f++)
		printf("# %-10s %s\n", gm_families[f]->name, gm_families[f]->desc);
	for (int i = 0; i < n; i++)
		if (sel[i])
			printf("%-32s %s%s\n", cases[i].name, cases[i].desc,
			       cases[i].quick ? " [quick]" : cases[i].full ? " [full]" : "");
}

int cmd_list(int argc, char **argv)
{
	int n, bad, rc;
	const struct gm_case *cases = gm_registry_cases(&n);
	unsigned char *sel = calloc((size_t)n + 1, 1);
	struct gm_opts_state st;

	if (!sel)
		return gm_error(GM_EXIT_USAGE, "out of memory");
	rc = gm_opts_parse(&gm_doc_list, argc, argv, no_option, NULL, &st);
	if (rc == GM_OPTS_HELP)
		gm_cmd_help(stdout, &gm_doc_list);
	else if (rc == GM_OPTS_UNKNOWN || rc == GM_OPTS_MISSING) /* an option is no selector either */
		rc = gm_error(GM_EXIT_USAGE, "no benchmark matches '%s'", st.bad);
	else if (rc)
		rc = gm_opts_error(&gm_doc_list, rc, &st);
	else if (gm_registry_select((const char *const *)st.operands, st.noperands, GM_TIER_FULL, sel, &bad))
		rc = gm_error(GM_EXIT_USAGE, "no benchmark matches '%s'", st.operands[bad]);
	else
		print_cases(cases, n, sel, st.noperands == 0);
	gm_opts_release(&st);
	free(sel);
	return rc == GM_OPTS_HELP ? GM_EXIT_OK : rc;
}
