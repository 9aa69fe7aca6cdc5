/* sbfs solve: the shortest solution of a sliding-block puzzle in SLIDING's
 * format, searched from both ends when the stop is one configuration. */
#include "slide.h"
#include "view.h"

#include <stdlib.h>
#include <string.h>

#define STYLE_HELP                                                                                   \
    "0 one step, 1 straight line, 2 any path of one piece;\n"                                        \
    "3, 4, 5 the same for sets of pieces moving together (default 0)"

static const cli_opt options[] = {
    {'s', "style", CLI_INT, offsetof(search_opts, style), 0, 5, "STYLE", STYLE_HELP},
    CLI_OPT_THREADS(search_opts, threads, "threads (default: one per core); results do not depend on N"),
    CLI_OPT_QUIET(search_opts, quiet, "print only the distance lines and the summary"),
    CLI_OPT_VERBOSE(search_opts, verbose, "also print figures (time, memory, rate) on stderr"),
    CLI_OPT_JSON(search_opts, json, "print the result as one JSON document instead"),
    {0, "moves", CLI_FLAG, offsetof(search_opts, moves), 1, 0, NULL, "print only the moves, one a line"},
    {0, "html", CLI_STR, offsetof(search_opts, html), 0, 0, "FILE",
     "also write the solution as a page to FILE: the board, stepped\nthrough the moves"},
    {0, "svg", CLI_STR, offsetof(search_opts, svg), 0, 0, "FILE", "also draw the start as SVG in FILE"},
    {0, "no-bidir", CLI_FLAG, offsetof(search_opts, bidir), 0, 0, NULL,
     "search from the start only, even when the goal is one configuration"},
    CLI_OPT_MEMORY(search_opts, memarg),
    SEARCH_DISK_OPTS,
    CLI_OPT_FORMAT(search_opts, format),
    CLI_OPT_PROGRESS(search_opts, progress),
    {0},
};

static const cli_cmd command = {
    "solve", "[OPTIONS] [FILE|-]",
    "Shortest solution of a sliding-block puzzle in SLIDING's format (docs/FORMAT.md).\n",
    options,
    "Output: 'distance D: N' per distance (both ways: 'forward D: N' and\n"
    "'backward D: N'), the boards from start to stop with one 'move K: ...' line\n"
    "per move, then 'solution: N moves' or 'no solution: N configurations reachable'.\n",
    1, 0,
};

/* Returns the run's status code, as print_text. */
static int print_json(search_run *r, const uint64_t *path, int rc, char *line, size_t size)
{
    int D = r->info->length, kw = r->kw;
    printf("{\"command\": \"solve\", \"puzzle\": ");
    cli_json_str(r->file ? r->file : "-");
    printf(", \"style\": %d, \"bidirectional\": %s", r->o.style, r->info->bidir ? "true" : "false");
    if (r->info->bidir) {
        printf(", \"forward\": ");
        cli_slide_json_counts(r->srch, 0);
        printf(", \"backward\": ");
        cli_slide_json_counts(r->srch, 1);
    } else {
        printf(", \"distances\": ");
        cli_slide_json_counts(r->srch, 0);
    }
    printf(", \"configurations\": %llu", (unsigned long long)r->info->states);
    if (rc)
        printf(", \"error\": "), cli_json_str(r->err.msg);
    if (!rc && path) {
        printf(", \"length\": %d, \"moves\": [", D);
        for (int d = 1; d <= D && !rc; d++) {
            rc = sb_slide_describe(r->sl, path + (size_t)(d - 1) * kw, path + (size_t)d * kw, line, size,
                                   &r->err);
            view_move m;
            printf("%s", d > 1 ? ", " : "");
            if (!rc && view_move_parse(line, &m))
                rc = sb_error_set(&r->err, SB_EINTERNAL, 0, 0, "cannot read move %d: %s", d, line);
            if (!rc)
                view_move_json(stdout, line, &m);
        }
        printf("], \"boards\": [");
        for (int d = 0; d <= D && !rc; d++) {
            printf("%s", d ? ", " : "");
            cli_slide_json_board(r->sl, path + (size_t)d * kw);
        }
        printf("]");
    } else if (!rc) {
        printf(", \"length\": null");
    }
    printf("}\n");
    return rc;
}

/* Returns the run's status code: a move that cannot be described ends it. */
static int print_text(search_run *r, const uint64_t *path, int rc, char *line, size_t size)
{
    int D = r->info->length, kw = r->kw;
    cli_slide_counts(r->srch);
    if (!rc && path) {
        if (!r->o.quiet) {
            printf("start:\n");
            cli_slide_board(r->sl, path);
            for (int d = 1; d <= D && !rc; d++) {
                rc = sb_slide_describe(r->sl, path + (size_t)(d - 1) * kw, path + (size_t)d * kw, line, size,
                                       &r->err);
                printf("move %d: %s\n", d, line);
                cli_slide_board(r->sl, path + (size_t)d * kw);
            }
        }
        if (!rc)
            printf("solution: %d move%s\n", D, D == 1 ? "" : "s");
    } else if (!rc) {
        /* the component of the start, or (both ways) of the stop if that
         * side ran dry first */
        int side = r->info->exhausted;
        uint64_t n = 0;
        for (int d = 0; d < r->info->nlevels[side]; d++)
            n += sb_search_level(r->srch, side, d);
        printf("no solution: %llu configurations reachable%s\n", (unsigned long long)n,
               side ? " from the stop" : "");
    }
    return rc;
}

/* --moves: the move lines alone; nothing when there is no solution. */
static int print_moves(search_run *r, const uint64_t *path, int rc, char *line, size_t size)
{
    int kw = r->kw;
    for (int d = 1; !rc && path && d <= r->info->length; d++) {
        rc = sb_slide_describe(r->sl, path + (size_t)(d - 1) * kw, path + (size_t)d * kw, line, size, &r->err);
        if (!rc)
            printf("%s\n", line);
    }
    if (!rc && !path)
        fprintf(stderr, "sbfs: no solution\n");
    return rc;
}

/* --html and --svg: the solution (or, without one, the start) drawn. */
static int write_pictures(search_run *r, const uint64_t *path)
{
    view v;
    int rc = view_slide(&v, r->pz, r->sl, r->o.style, r->kw, path, path ? r->info->length : 0, r->srch, &r->err);
    if (!rc && r->o.html)
        rc = view_write_html(&v, r->o.html, &r->err);
    if (!rc && r->o.svg)
        rc = view_write_svg(&v, 0, r->o.svg, &r->err);
    view_free(&v);
    return rc;
}

int cmd_solve(int argc, char **argv)
{
    search_run r;
    int st = cli_search_args(&command, argc, argv, &r);
    if (st >= 0)
        return st;
    const char *fname = r.file ? r.file : "-";
    int rc = cli_search(&r, 0);
    if (rc > 0) {
        cli_search_done(&r);
        return rc;
    }
    const uint64_t *path = r.path;
    cli_search_quiet(&r);
    static char line[16384]; /* 256 pieces and 1023 steps fit */
    if (!rc && (r.o.html || r.o.svg))
        rc = write_pictures(&r, r.info->found ? path : NULL);
    if (r.o.moves)
        rc = print_moves(&r, path, rc, line, sizeof line);
    else if (r.o.json)
        rc = print_json(&r, path, rc, line, sizeof line);
    else
        rc = print_text(&r, path, rc, line, sizeof line);
    cli_flush();
    if (r.o.verbose)
        cli_search_figures(&r);
    cli_search_done(&r);
    if (rc)
        return cli_fail(rc == SB_EINTR || rc == SB_ENOMEM || rc == SB_EBADFILE || rc == SB_EIO ? NULL : fname, &r.err);
    return 0;
}
