/* sbfs eight: the ACM South Central USA 1998 problem "Eight".  Reads the
 * nine tiles (FILE, else eight.inp in the current folder if there is one,
 * else stdin) and prints a shortest move string or "unsolvable". */
#include "cli.h"
#include "sbfs/npuzzle.h"
#include "view.h"

#include <string.h>

typedef struct eight_opts {
    int json;
} eight_opts;

static const cli_opt options[] = {
    CLI_OPT_JSON(eight_opts, json, "print the answer as one JSON document instead"),
    {0},
};

static const cli_cmd command = {
    "eight", "[FILE]",
    "Solve an 8-puzzle given as the nine tokens 1..8 and x (row by row, one line\n"
    "or three).  Without FILE, reads eight.inp in the current folder if it exists,\n"
    "else standard input.  Prints a shortest solution as a string of r l u d (the\n"
    "neighbour of x that is swapped with x) or the word 'unsolvable'.\n",
    options, NULL, 1, 0,
};

/* The position and its solution (moves NULL: unsolvable), with the keys
 * of npuzzle --json. */
static void print_json(const sb_npuzzle *p0, const char *moves)
{
    sb_npuzzle p = *p0;
    printf("{\"command\": \"eight\", \"tiles\": [");
    for (int i = 0; i < p.n; i++)
        printf("%s%d", i ? ", " : "", p.cell[i]);
    printf("], \"solvable\": %s, \"length\": ", moves ? "true" : "false");
    if (!moves) {
        printf("null}\n");
        return;
    }
    printf("%d, \"moves\": [", (int)strlen(moves));
    for (int i = 0; moves[i]; i++) {
        printf("%s", i ? ", " : "");
        view_np_move_json(stdout, &p, moves[i]);
    }
    printf("]}\n");
}

int cmd_eight(int argc, char **argv)
{
    const char *file = NULL;
    char buf[4096];
    size_t len;
    cli_input in;
    sb_error err;
    sb_npuzzle p;
    sb_np_solver *t;
    sb_np_result res;
    sb_mem mem;
    int rc, nops = 0;
    eight_opts o = {0};

    sb_error_clear(&err);
    if ((rc = cli_parse(&command, argc, argv, &o, &file, &nops)) >= 0)
        return rc;
    if (!nops) {
        FILE *f = fopen("eight.inp", "r");
        if (f) {
            fclose(f);
            file = "eight.inp";
        } else
            file = NULL;
    }
    if (cli_input_open(&in, file, 0, &err))
        return cli_fail(NULL, &err);
    rc = cli_input_all(&in, buf, sizeof buf, &len, &err);
    cli_input_close(&in);
    if (rc)
        return cli_fail(NULL, &err);
    if (len == sizeof buf) {
        sb_error_set(&err, SB_EINPUT, 0, 0, "input longer than %zu bytes", sizeof buf);
        return cli_fail(file ? file : "-", &err);
    }
    if (sb_np_parse_eight(buf, len, &p, &err))
        return cli_fail(file ? file : "-", &err);
    if (!sb_np_solvable(&p, SB_NP_BLANK_LAST)) {
        if (o.json)
            print_json(&p, NULL);
        else
            printf("unsolvable\n");
        return 0;
    }
    /* The 8-puzzle's God's-algorithm table (181,440 positions, built in
     * milliseconds), then a walk down it: each step to a neighbour one
     * closer to the goal. */
    sb_mem_init(&mem, 0);
    if (!(t = sb_np_solver_open(3, 3, NULL, &mem, NULL, NULL, &err)))
        return cli_fail(NULL, &err);
    rc = sb_np_solve(t, &p, SB_NP_BLANK_LAST, 1, &res, NULL, &err);
    sb_np_solver_close(t);
    if (rc)
        return cli_fail(NULL, &err);
    if (o.json)
        print_json(&p, res.moves);
    else
        printf("%s\n", res.moves);
    return 0;
}
