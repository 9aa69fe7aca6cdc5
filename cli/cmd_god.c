/* sbfs god PUZZLE: the distance of every position of a whole puzzle from
 * its goal, printed as a histogram ("God's algorithm").  The n-puzzle tables
 * are built here; the Tetraminx's by its own module (god_tetraminx). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: sbfs god npuzzle RxC [OPTIONS]\n"
            "       sbfs god tetraminx [OPTIONS]\n\n"
            "Builds the table of distances from the goal of every position of a whole\n"
            "puzzle and prints how many positions lie at each distance:\n"
            "  distance D: N          one line per distance\n"
            "  total: N positions, largest distance D\n\n"
            "npuzzle RxC: the R x C sliding-tile puzzle (sides 2 or more, at most 16\n"
            "cells), goal 1..N then the blank; the table takes (R*C)!/2 x 2 bits.\n\n"
            "options:\n"
            "  --save FILE      write the table to FILE after building it\n"
            "  --load FILE      read the table from FILE instead of building it\n"
            "  --memory SIZE    memory budget (e.g. 128M, 2G; default 3/4 of RAM)\n"
            "  -j N             worker threads (default: the number of cores)\n"
            "  --bits B         bits per position: 2 (the distance mod 3, the default), or\n"
            "                   4 or 8 (the distance itself, up to 14 or 254)\n"
            "  --progress       show progress on stderr (default: when a terminal)\n"
            "  --no-progress    never show progress\n"
            "  -h, --help       this help\n");
}

static int parse_board(const char *s, int *rows, int *cols)
{
    char *end;
    long r, c;
    r = strtol(s, &end, 10);
    if (end == s || *end != 'x')
        return -1;
    s = end + 1;
    c = strtol(s, &end, 10);
    if (end == s || *end || r < 1 || r > 64 || c < 1 || c > 64)
        return -1;
    *rows = (int)r;
    *cols = (int)c;
    return 0;
}

static int cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* The histogram; the total line only for a whole table. */
static void print_table(const sb_table *t, int whole)
{
    for (int d = 0; d <= t->maxdist; d++)
        printf("distance %d: %llu\n", d, (unsigned long long)t->count[d]);
    if (whole)
        printf("total: %llu positions, largest distance %d\n", (unsigned long long)t->reached,
               t->maxdist);
}

static int god_npuzzle(int argc, char **argv)
{
    const char *board = NULL, *save = NULL, *load = NULL, *memarg = NULL;
    int progress = -1, threads = cores(), rows = 0, cols = 0, rc, bits = 2;
    size_t budget;
    uint64_t need;
    sb_error err;
    sb_mem mem;
    sb_npt t;
    sb_control ctl;
    cli_progress prog;

    sb_error_clear(&err);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--save") || !strcmp(a, "--load") || !strcmp(a, "--memory") ||
                   !strcmp(a, "-j") || !strcmp(a, "--bits")) {
            if (i + 1 >= argc)
                return cli_usage_error("god: %s needs an argument", a);
            if (!strcmp(a, "--save"))
                save = argv[++i];
            else if (!strcmp(a, "--load"))
                load = argv[++i];
            else if (!strcmp(a, "--memory"))
                memarg = argv[++i];
            else if (!strcmp(a, "--bits")) {
                const char *b = argv[++i];
                if (strcmp(b, "2") && strcmp(b, "4") && strcmp(b, "8"))
                    return cli_usage_error("god: --bits wants 2, 4 or 8, not '%s'", b);
                bits = atoi(b);
            } else {
                char *end;
                long j = strtol(argv[++i], &end, 10);
                if (*end || end == argv[i] || j < 1 || j > 64)
                    return cli_usage_error("god: -j wants a number of threads from 1 to 64, not '%s'",
                                           argv[i]);
                threads = (int)j;
            }
        } else if (!strcmp(a, "--progress")) {
            progress = 1;
        } else if (!strcmp(a, "--no-progress")) {
            progress = 0;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("god: unknown option '%s'", a);
        } else if (!board) {
            board = a;
        } else {
            return cli_usage_error("god: unexpected argument '%s'", a);
        }
    }
    if (!board)
        return cli_usage_error("god npuzzle: give the board size, e.g. 'sbfs god npuzzle 3x3'");
    if (parse_board(board, &rows, &cols))
        return cli_usage_error("god npuzzle: bad board size '%s' (want RxC, e.g. 3x3)", board);
    if (sb_npt_init(&t, rows, cols, &err))
        return cli_fail(NULL, &err);
    if (cli_memory_budget(memarg, &budget, &err))
        return cli_fail(NULL, &err);
    sb_mem_init(&mem, budget);
    need = (t.size + 64 / (uint64_t)bits - 1) / (64 / (uint64_t)bits) * 8; /* in 64-bit words */
    if (!load && budget && need > budget) {
        sb_error_set(&err, SB_ENOMEM, 0, 0,
                     "npuzzle %s: the table needs %llu bytes (%d bits for each of %llu "
                     "positions), more than the memory budget of %zu bytes (see --memory)",
                     t.params, (unsigned long long)need, bits,
                     (unsigned long long)t.size, budget);
        return cli_fail(NULL, &err);
    }

    if (load) {
        rc = sb_npt_load(&t, load, &mem, &err);
    } else {
        sb_table_opts o = {bits, threads, SB_SCAN_AUTO, -1};
        cli_control_init(&ctl, &prog, progress);
        rc = sb_npt_build(&t, &o, &mem, &ctl, &err);
        cli_control_done(&ctl, &prog);
    }
    if (rc == SB_EINTR && t.have_table) {
        /* Ctrl-C: the distances finished so far, as solve and explore
         * print theirs; the table is cut short, so it is not saved. */
        print_table(&t.table, 0);
        sb_npt_free(&t);
        return cli_fail(NULL, &err);
    }
    if (rc) {
        sb_npt_free(&t);
        return cli_fail(NULL, &err);
    }
    /* Saved before printing, as god tetraminx does: a run that fails
     * leaves nothing on stdout. */
    if (save && sb_npt_save(&t, save, &err)) {
        sb_npt_free(&t);
        return cli_fail(NULL, &err);
    }
    print_table(&t.table, 1);
    sb_npt_free(&t);
    return 0;
}

int cmd_god(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("god: name a puzzle: npuzzle RxC or tetraminx");
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "npuzzle"))
        return god_npuzzle(argc - 1, argv + 1);
    if (!strcmp(argv[1], "tetraminx"))
        return god_tetraminx(argc - 1, argv + 1);
    return cli_usage_error("god: unknown puzzle '%s' (known: npuzzle RxC, tetraminx)", argv[1]);
}
