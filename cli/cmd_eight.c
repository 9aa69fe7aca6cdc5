/* sbfs eight: the ACM South Central USA 1998 problem "Eight".  Reads the
 * nine tiles (FILE, else eight.inp in the current folder if there is one,
 * else stdin) and prints a shortest move string or "unsolvable". */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static void help(FILE *out)
{
    fprintf(out, "usage: sbfs eight [FILE]\n"
                 "Solve an 8-puzzle given as the nine tokens 1..8 and x (row by row, one line\n"
                 "or three).  Without FILE, reads eight.inp in the current folder if it exists,\n"
                 "else standard input.  Prints a shortest solution as a string of r l u d (the\n"
                 "neighbour of x that is swapped with x) or the word 'unsolvable'.\n");
}

int cmd_eight(int argc, char **argv)
{
    const char *file = NULL;
    char buf[4096];
    size_t len = 0, got;
    FILE *in;
    sb_error err;
    sb_npuzzle p;
    sb_npt t;
    sb_np_result res;
    sb_mem mem;
    int rc;

    sb_error_clear(&err);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            help(stdout);
            return 0;
        }
        if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("unknown option '%s'", argv[i]);
        if (file)
            return cli_usage_error("more than one input file");
        file = argv[i];
    }
    if (!file) {
        FILE *f = fopen("eight.inp", "r");
        if (f) {
            fclose(f);
            file = "eight.inp";
        }
    }
    in = cli_open(file, &err);
    if (!in)
        return cli_fail(NULL, &err);
    while (!cli_interrupted() && (got = fread(buf + len, 1, sizeof buf - len, in)) > 0) {
        len += got;
        if (len == sizeof buf) {
            cli_close(in);
            sb_error_set(&err, SB_EINPUT, 0, 0, "input longer than %zu bytes", sizeof buf);
            return cli_fail(file ? file : "-", &err);
        }
    }
    if (cli_read_check(in, file, &err)) {
        cli_close(in);
        return cli_fail(NULL, &err);
    }
    cli_close(in);
    if (sb_np_parse_eight(buf, len, &p, &err))
        return cli_fail(file ? file : "-", &err);
    if (!sb_np_solvable(&p, SB_NP_BLANK_LAST)) {
        printf("unsolvable\n");
        return 0;
    }
    /* The 8-puzzle's God's-algorithm table (181,440 positions, built in
     * milliseconds), then a walk down it: each step to a neighbour one
     * closer to the goal. */
    sb_mem_init(&mem, 0);
    if ((rc = sb_npt_init(&t, 3, 3, &err)) || (rc = sb_npt_build(&t, NULL, &mem, NULL, &err)))
        return cli_fail(NULL, &err);
    rc = sb_np_solve_table(&t, &p, SB_NP_BLANK_LAST, &res, &err);
    sb_npt_free(&t);
    if (rc)
        return cli_fail(NULL, &err);
    printf("%s\n", res.moves);
    return 0;
}
