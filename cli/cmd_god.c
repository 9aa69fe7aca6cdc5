/* sbfs god PUZZLE: the distance of every position of a whole puzzle from
 * its goal, printed as a histogram ("God's algorithm").  The n-puzzle tables
 * are built here; the Tetraminx's by its own module (god_tetraminx). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "sbfs/npuzzle_table.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SBFS_MPI
#include "../mpi/sbmpi.h"
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "usage: sbfs god npuzzle RxC [OPTIONS]\n"
            "       sbfs god tetraminx [OPTIONS]\n\n"
            "Builds the table of distances from the goal of every position of a whole\n"
            "puzzle and prints how many positions lie at each distance:\n"
            "  distance D: N          one line per distance\n"
            "  total: N positions, largest distance D\n\n"
            "'sbfs god npuzzle --help' and 'sbfs god tetraminx --help' list the options.\n");
}

typedef struct god_opts {
    const char *save, *load, *memarg, *bits;
    int threads, progress, verbose;
    int json;
    cli_table_disk dk;
} god_opts;

static const cli_opt options[] = {
    {0, "save", CLI_STR, offsetof(god_opts, save), 0, 0, "FILE", "write the table to FILE after building it"},
    {0, "load", CLI_STR, offsetof(god_opts, load), 0, 0, "FILE", "read the table from FILE instead of building it"},
    CLI_OPT_MEMORY(god_opts, memarg),
    CLI_OPT_THREADS(god_opts, threads, "worker threads (default: the number of cores)"),
    CLI_OPTS_TABLE_DISK(god_opts, dk),
    {0, "bits", CLI_STR, offsetof(god_opts, bits), 0, 0, "B",
     "bits per position: 2 (the distance mod 3, the default), or\n"
     "4 or 8 (the distance itself, up to 14 or 254)"},
    CLI_OPT_PROGRESS(god_opts, progress),
    CLI_OPT_JSON(god_opts, json, "print the counts as one JSON document instead"),
    CLI_OPT_VERBOSE(god_opts, verbose, "also print figures (time, memory, rate) on stderr"),
    {0},
};

static const cli_cmd command = {
    "god npuzzle", "RxC [OPTIONS]",
    "The distance from the goal of every position of the R x C sliding-tile\n"
    "puzzle (sides 2 or more, at most 16 cells), goal 1..N then the blank:\n"
    "'distance D: N' per distance, then 'total: N positions, largest distance D'.\n"
    "The table takes (R*C)!/2 x 2 bits; when that is more than --memory it is\n"
    "built on disk, a slice at a time (see --disk).\n",
    options, NULL, 1, 0,
};

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

/* -v: the build's figures on stderr. */
static void figures(uint64_t size, double secs, const sb_mem *mem)
{
    fprintf(stderr, "sbfs: %llu positions, %.3f s, %.0f positions/s, memory %zu bytes (%.2f bytes/position)\n",
            (unsigned long long)size, secs, secs > 0 ? (double)size / secs : 0.0, mem->peak,
            (double)mem->peak / (double)size);
}

/* Build the table on disk (the codes do not fit the budget, or a
 * checkpoint was asked for): the same table as in memory, printed and
 * saved the same way. */
static int god_on_disk(const god_opts *o, sb_np_table *np, size_t dlimit, sb_mem *mem, const char *name)
{
    sb_np_table_info ti = sb_np_table_about(np);
    sb_table_opts to = {2, o->threads, SB_SCAN_AUTO, -1};
    sb_table_disk dk = {o->dk.disk, dlimit, 0, o->dk.resume ? o->dk.resume : o->dk.checkpoint, o->dk.resume != NULL};
    sb_table *t = NULL;
    sb_control ctl;
    cli_progress prog;
    sb_error err;
    double t0 = sb_now();
    int rc;

    sb_error_clear(&err);
    if (!dk.dir && !dk.checkpoint)
        cli_table_disk_note();
    cli_control_init(&ctl, &prog, o->progress);
    rc = sb_table_build_disk(&t, ti.model, &ti.goal, 1, &to, &dk, mem, &ctl, &err);
    cli_control_done(&ctl, &prog);
    if (o->verbose && !rc) {
        figures(ti.size, sb_now() - t0, mem);
        fprintf(stderr, "sbfs: table on disk: %d slices, %llu bytes of files at most\n", sb_table_about(t).slices,
                (unsigned long long)sb_table_about(t).disk_peak);
    }
    if (rc == SB_EINTR && t) /* Ctrl-C: the distances finished so far */
        cli_table_histogram(t, 0, o->json ? name : NULL);
    if (!rc && o->save)
        rc = sb_table_save(t, o->save, &err);
    if (!rc)
        cli_table_histogram(t, 1, o->json ? name : NULL);
    sb_table_free(t);
    return rc ? cli_fail(NULL, &err) : 0;
}

static int god_npuzzle(int argc, char **argv)
{
    const char *board = NULL;
    god_opts o = {NULL, NULL, NULL, NULL, sb_pool_threads(0), -1, 0, 0, {NULL, NULL, NULL, NULL, 0}};
    char name[32];
    int rows = 0, cols = 0, rc, bits = 2, n = 0;
    size_t budget, dlimit = 0;
    uint64_t need;
    sb_error err;
    sb_mem mem;
    sb_np_table t;
    sb_control ctl;
    cli_progress prog;

    sb_error_clear(&err);
    int st = cli_parse(&command, argc, argv, &o, &board, &n);
    if (st >= 0)
        return st;
    if (o.bits && strcmp(o.bits, "2") && strcmp(o.bits, "4") && strcmp(o.bits, "8"))
        return cli_usage_error_in(command.name, "god npuzzle: --bits wants 2, 4 or 8, not '%s'", o.bits);
    if (o.bits)
        bits = atoi(o.bits);
    if ((st = cli_table_disk_check(command.name, "god npuzzle", &o.dk, o.load, &dlimit)) >= 0)
        return st;
    if ((o.dk.checkpoint || o.dk.resume) && bits != 2)
        return cli_usage_error_in(command.name, "god npuzzle: tables on disk hold 2 bits a position, not %d", bits);
    if (!n)
        return cli_usage_error_in(command.name, "god npuzzle: give the board size, e.g. 'sbfs god npuzzle 3x3'");
    if (parse_board(board, &rows, &cols))
        return cli_usage_error_in(command.name, "god npuzzle: bad board size '%s' (want RxC, e.g. 3x3)", board);
    snprintf(name, sizeof name, "npuzzle %dx%d", rows, cols);
    if (sb_np_table_init(&t, rows, cols, &err))
        return cli_fail(NULL, &err);
    if (cli_memory_budget(o.memarg, &budget, &err))
        return cli_fail(NULL, &err);
    sb_mem_init(&mem, budget);
    sb_np_table_info ti = sb_np_table_about(&t);
#ifdef SBFS_MPI
    /* under MPI the table is cut among the processes (the budget is each one's) */
    if (!o.load) {
        st = sbmpi_god(ti.model, ti.goal, &mem, o.progress, o.save, o.verbose);
        sb_np_table_free(&t);
        return st;
    }
#endif
    need = (ti.size + 64 / (uint64_t)bits - 1) / (64 / (uint64_t)bits) * 8; /* in 64-bit words */
    if (!o.load && ((budget && need > budget) || o.dk.checkpoint || o.dk.resume)) {
        if (bits == 2 && !o.dk.no_disk) {
            st = god_on_disk(&o, &t, dlimit, &mem, name);
            sb_np_table_free(&t);
            return st;
        }
        sb_error_set(&err, SB_ENOMEM, 0, 0,
                     "npuzzle %s: the table needs %llu bytes (%d bits for each of %llu "
                     "positions), more than the memory budget of %zu bytes (see --memory%s)",
                     ti.params, (unsigned long long)need, bits,
                     (unsigned long long)ti.size, budget, bits == 2 ? "" : "; only 2-bit tables go on disk");
        return cli_fail(NULL, &err);
    }

    if (o.load) {
        rc = sb_np_table_load(&t, o.load, &mem, &err);
    } else {
        sb_table_opts to = {bits, o.threads, SB_SCAN_AUTO, -1};
        double t0 = sb_now();
        cli_control_init(&ctl, &prog, o.progress);
        rc = sb_np_table_build(&t, &to, &mem, &ctl, &err);
        cli_control_done(&ctl, &prog);
        if (o.verbose && !rc)
            figures(ti.size, sb_now() - t0, &mem);
    }
    if (rc == SB_EINTR && sb_np_table_about(&t).table) {
        /* Ctrl-C: the distances finished so far, as solve and explore
         * print theirs; the table is cut short, so it is not saved. */
        cli_table_histogram(sb_np_table_about(&t).table, 0, o.json ? name : NULL);
        sb_np_table_free(&t);
        return cli_fail(NULL, &err);
    }
    if (rc) {
        sb_np_table_free(&t);
        return cli_fail(NULL, &err);
    }
    /* Saved before printing, as god tetraminx does: a run that fails
     * leaves nothing on stdout. */
    if (o.save && sb_np_table_save(&t, o.save, &err)) {
        sb_np_table_free(&t);
        return cli_fail(NULL, &err);
    }
    cli_table_histogram(sb_np_table_about(&t).table, 1, o.json ? name : NULL);
    sb_np_table_free(&t);
    return 0;
}

int cmd_god(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error_in("god", "god: name a puzzle: npuzzle RxC or tetraminx");
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "npuzzle"))
        return god_npuzzle(argc - 1, argv + 1);
    if (!strcmp(argv[1], "tetraminx"))
        return god_tetraminx(argc - 1, argv + 1);
    return cli_usage_error_in("god", "god: unknown puzzle '%s' (known: npuzzle RxC, tetraminx)", argv[1]);
}
