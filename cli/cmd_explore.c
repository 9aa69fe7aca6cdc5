/* sbfs explore: every configuration reachable from the start of a
 * sliding-block puzzle, by distance (a census of its component). */
#include "slide.h"

static const cli_opt options[] = {
    {'s', "style", CLI_INT, offsetof(search_opts, style), 0, 5, "STYLE",
     "0 one step, 1 straight line, 2 any path of one piece;\n"
     "3, 4, 5 the same for sets of pieces moving together (default 0)"},
    CLI_OPT_THREADS(search_opts, threads, "threads (default: one per core); results do not depend on N"),
    CLI_OPT_QUIET(search_opts, quiet, "print only the distance lines and the component line"),
    CLI_OPT_VERBOSE(search_opts, verbose, "also print figures (time, memory, rate) on stderr"),
    CLI_OPT_JSON(search_opts, json, "print the result as one JSON document instead"),
    CLI_OPT_MEMORY(search_opts, memarg),
    SEARCH_DISK_OPTS,
    CLI_OPT_FORMAT(search_opts, format),
    CLI_OPT_PROGRESS(search_opts, progress),
    /* accepted as solve accepts it; a census runs from the start only */
    {0, "no-bidir", CLI_FLAG, offsetof(search_opts, bidir), 0, 0, NULL, NULL},
    {0},
};

static const cli_cmd command = {
    "explore", "[OPTIONS] [FILE|-]",
    "Every configuration reachable from the start of a sliding-block puzzle, by\n"
    "distance: 'distance D: N' lines, a few of the farthest configurations, then\n"
    "'component: N configurations, largest distance D'.  Only the two newest\n"
    "levels are kept.\n",
    options, NULL, 1, 0,
};

enum { SHOW = 3 }; /* farthest configurations printed */

int cmd_explore(int argc, char **argv)
{
    search_run r;
    int st = cli_search_args(&command, argc, argv, &r);
    if (st >= 0)
        return st;
    int rc = cli_search(&r, 1);
    if (rc > 0) {
        cli_search_done(&r);
        return rc;
    }
    cli_search_quiet(&r);
    int D = r.info->nlevels[0] - 1, kw = r.kw;
    uint64_t nlast, total = r.info->states;
    const uint64_t *last = sb_search_last(r.srch, &nlast);
    if (r.o.json) {
        printf("{\"command\": \"explore\", \"puzzle\": ");
        cli_json_str(r.file ? r.file : "-");
        printf(", \"style\": %d, \"distances\": ", r.o.style);
        cli_slide_json_counts(r.srch, 0);
        printf(", \"complete\": %s", rc ? "false" : "true");
        if (rc)
            printf(", \"error\": "), cli_json_str(r.err.msg);
        printf(", \"configurations\": %llu, \"largest_distance\": %d, \"farthest\": [",
               (unsigned long long)total, D);
        for (uint64_t i = 0; !rc && last && i < nlast && i < SHOW; i++) {
            printf("%s", i ? ", " : "");
            cli_slide_json_board(r.sl, last + i * kw);
        }
        printf("]}\n");
    } else {
        cli_slide_counts(r.srch);
        if (!rc && !r.o.quiet) {
            uint64_t nfar = sb_search_level(r.srch, 0, D);
            printf("farthest (%llu at distance %d%s):\n", (unsigned long long)nfar, D,
                   nfar > SHOW ? ", the first 3 shown" : "");
            for (uint64_t i = 0; last && i < nlast && i < SHOW; i++) {
                if (i)
                    printf("\n");
                cli_slide_board(r.sl, last + i * kw);
            }
        }
        if (!rc)
            cli_histogram_end("component", total, "configurations", D);
    }
    cli_flush();
    if (r.o.verbose)
        cli_search_figures(&r);
    cli_search_done(&r);
    if (rc)
        return cli_fail(rc == SB_EINTR || rc == SB_ENOMEM || rc == SB_EBADFILE || rc == SB_EIO ? NULL : (r.file ? r.file : "-"), &r.err);
    return 0;
}
