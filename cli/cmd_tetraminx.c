/* sbfs tetraminx solve|random, and sbfs god tetraminx: the front end of the
 * Tetraminx model.  Reading lines, parsing options and printing live here;
 * the model, the table and the solver are in src/tetraminx/. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#ifdef SBFS_MPI
#include "../mpi/sbmpi.h"
#endif

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sbfs/tetraminx.h"
#include "view.h"

enum { MAX_LINE = 65536 };

static void usage_tetraminx(FILE *out)
{
    fprintf(out,
            "usage: sbfs tetraminx solve [OPTIONS] [FILE]\n"
            "       sbfs tetraminx random N [OPTIONS]\n"
            "       sbfs god tetraminx [OPTIONS]   (or sbfs tetraminx god)\n\n"
            "solve   one optimal solution per position read (a scramble or facelets)\n"
            "random  N positions drawn uniformly from all 933,120\n"
            "god     how many positions lie at each distance from solved\n\n"
            "'sbfs tetraminx solve --help' (random, god) lists the options of each.\n");
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* How the God table is had: options common to solve, random and god. */
typedef struct table_opts {
    const char *load;     /* --load FILE: read instead of building */
    const char *memory;   /* --memory SIZE */
    int threads;          /* -j N */
    int progress;         /* -1 auto, 0 --no-progress, 1 --progress */
} table_opts;

/* The table options in the table of a command whose options struct T
 * holds a table_opts named t. */
#define TABLE_OPTIONS(T)                                                                             \
    {0, "load", CLI_STR, offsetof(T, t.load), 0, 0, "TABLE",                                         \
     "use a table saved by 'sbfs god tetraminx --save TABLE'"},                                     \
        CLI_OPT_MEMORY(T, t.memory),                                                                 \
        CLI_OPT_THREADS(T, t.threads, "threads for building the table (default 1: it takes milliseconds)"), \
        CLI_OPT_PROGRESS(T, t.progress)

typedef struct solve_opts {
    int verbose, stats;
    table_opts t;
    int json;
    const char *html;
} solve_opts;

static const cli_opt solve_options[] = {
    CLI_OPT_VERBOSE(solve_opts, verbose, "put the distance first: \"D: moves\""),
    {0, "stats", CLI_FLAG, offsetof(solve_opts, stats), 1, 0, NULL,
     "timings and the total of moves on stderr at the end"},
    TABLE_OPTIONS(solve_opts),
    CLI_OPT_JSON(solve_opts, json, "one JSON object a line per position"),
    {0, "html", CLI_STR, offsetof(solve_opts, html), 0, 0, "FILE",
     "also write the first solution as a page to FILE: the net of\n28 facelets, stepped through the moves"},
    {0},
};

static const cli_cmd solve_command = {
    "tetraminx solve", "[OPTIONS] [FILE]",
    "Reads one position per line from FILE (default stdin): a scramble in WCA\n"
    "notation (U U' L L' R R' B B'; tips u l r b skipped) or a 28-letter facelet\n"
    "string (F D L R, see docs/FORMAT.md).  Prints one optimal solution per line,\n"
    "moves separated by single spaces, an empty line when solved.\n",
    solve_options, NULL, 1, 0,
};

typedef struct random_opts {
    const char *seed;
    int scramble;
    table_opts t;
    int json;
} random_opts;

static const cli_opt random_options[] = {
    {0, "seed", CLI_STR, offsetof(random_opts, seed), 0, 0, "S", "repeatable stream (default: from the clock)"},
    {0, "scramble", CLI_FLAG, offsetof(random_opts, scramble), 1, 0, NULL,
     "print a scramble that reaches each position, not its facelets"},
    TABLE_OPTIONS(random_opts),
    CLI_OPT_JSON(random_opts, json, "one JSON object a line: the facelets, and the scramble with --scramble"),
    {0},
};

static const cli_cmd random_command = {
    "tetraminx random", "N [OPTIONS]",
    "Prints N positions drawn uniformly from all 933,120, as facelet strings or,\n"
    "with --scramble, as optimal scrambles (the table is built for those only).\n",
    random_options, NULL, 1, 1,
};

typedef struct god_opts {
    const char *save;
    table_opts t;
    int json;
    cli_table_disk dk;
} god_opts;

static const cli_opt god_options[] = {
    {0, "save", CLI_STR, offsetof(god_opts, save), 0, 0, "TABLE",
     "also write the table (2 bits a position) to TABLE"},
    TABLE_OPTIONS(god_opts),
    CLI_OPTS_TABLE_DISK(god_opts, dk),
    CLI_OPT_JSON(god_opts, json, "print the counts as one JSON document instead"),
    {0},
};

static const cli_cmd god_command = {
    "god tetraminx", "[OPTIONS]   (or sbfs tetraminx god)",
    "Distances from solved of all 933,120 Tetraminx positions: one line\n"
    "'distance D: N' per distance, then 'total: N positions, largest distance D'.\n",
    god_options, NULL, 0, 0,
};

/* Build the God table (on disk as disk says, NULL: in memory), or load it
 * when o->load names a file; mem gets the budget of --memory.  0 with *out
 * set, or the exit status (error printed) with nothing left to free. */
static int get_table(sb_tet_god **out, sb_mem *mem, const table_opts *o, const sb_table_disk *disk)
{
    sb_control ctl;
    cli_progress prog;
    sb_error err;
    size_t limit;
    int rc;
    sb_error_clear(&err);
    *out = NULL;
    if (cli_memory_budget(o->memory, &limit, &err))
        return cli_fail(NULL, &err);
    sb_mem_init(mem, limit);
    if (o->load) {
        rc = sb_tet_god_load(out, o->load, mem, &err);
    } else {
        cli_control_init(&ctl, &prog, o->progress);
        rc = sb_tet_god_build_disk(out, o->threads, disk, mem, &ctl, &err);
        cli_control_done(&ctl, &prog);
    }
    return rc ? cli_fail(NULL, &err) : 0;
}

/* --html: one position and its solution drawn on the net. */
static int write_page(const sb_tet_god *g, const sb_tet_pieces *p, const uint8_t *moves, int d, const char *path)
{
    const sb_table *t = sb_tet_god_table(g);
    uint64_t hist[SB_TET_MAXDIST + 1];
    int levels = sb_table_about(t).levels;
    sb_tet_facelets f;
    sb_error err;
    view v;
    sb_error_clear(&err);
    for (int k = 0; k < levels && k <= SB_TET_MAXDIST; k++)
        hist[k] = sb_table_count(t, k);
    sb_tet_pieces_to_facelets(p, &f);
    int rc = view_tetraminx(&v, &f, moves, d, hist, levels, &err);
    if (!rc)
        rc = view_write_html(&v, path, &err);
    view_free(&v);
    return rc ? cli_fail(NULL, &err) : 0;
}

static int do_solve(int argc, char **argv)
{
    const char *file = NULL, *s;
    solve_opts o = {0, 0, {NULL, NULL, 1, -1}, 0, NULL};
    int rc, status = 0, nops = 0;
    uint64_t total_moves = 0;
    double t0, t1, t2;
    sb_tet_god *g;
    sb_mem mem;
    sb_error err;
    sb_control ctl;
    cli_progress prog;
    cli_input in;
    char out[64];
    size_t n;

    if ((rc = cli_parse(&solve_command, argc, argv, &o, &file, &nops)) >= 0)
        return rc;
    sb_error_clear(&err);
    if (cli_input_open(&in, nops ? file : NULL, MAX_LINE, &err))
        return cli_fail(NULL, &err);
    t0 = sb_now();
    if ((rc = get_table(&g, &mem, &o.t, NULL)) != 0) {
        cli_input_close(&in);
        return rc;
    }
    t1 = sb_now();
    /* Ctrl-C ends the run between two lines; what was printed stays.  A
     * Ctrl-C that comes while the read waits for input ends the read
     * (EINTR), and the reader says so. */
    cli_control_init(&ctl, &prog, 0);
    while (!sb_control_stopped(&ctl) && !cli_output_failed()) {
        sb_tet_pieces p;
        uint8_t moves[SB_TET_MAXDIST];
        int d;
        if ((rc = cli_input_line(&in, &s, &n, &err)) <= 0) {
            if (rc < 0)
                status = cli_fail(NULL, &err);
            break;
        }
        if (sb_control_stopped(&ctl))
            break;
        if (in.cut) {
            sb_error_set(&err, SB_ELONGLINE, in.line, MAX_LINE + 1, "line longer than %d characters", MAX_LINE);
            status = cli_fail(cli_input_name(&in), &err);
            break;
        }
        if (sb_tet_parse(s, n, in.line, &p, &err)) {
            status = cli_fail(cli_input_name(&in), &err);
            break;
        }
        d = sb_tet_god_solve(g, sb_tet_rank(&p), moves);
        if (d < 0) {
            status = cli_fail(NULL, &(sb_error){SB_EINTERNAL, 0, 0, "damaged table"});
            break;
        }
        total_moves += (uint64_t)d;
        sb_tet_format_moves(moves, d, out);
        if (o.html && (status = write_page(g, &p, moves, d, o.html)))
            break;
        o.html = NULL;
        if (o.json) {
            sb_tet_facelets f;
            char fs[SB_TET_NFACELETS + 1];
            sb_tet_pieces_to_facelets(&p, &f);
            sb_tet_facelets_format(&f, fs);
            printf("{\"command\": \"tetraminx solve\", \"line\": %d, \"facelets\": \"%s\", \"length\": %d, "
                   "\"moves\": [",
                   in.line, fs, d);
            for (int i = 0; i < d; i++) {
                printf("%s", i ? ", " : "");
                view_tet_move_json(stdout, moves[i]);
            }
            printf("]}\n");
        } else if (o.verbose)
            printf("%d:%s%s\n", d, d ? " " : "", out);
        else
            puts(out);
    }
    if (!status && sb_control_stopped(&ctl))
        status = cli_fail(NULL, &(sb_error){SB_EINTR, 0, 0, "interrupted"});
    cli_control_done(&ctl, &prog);
    t2 = sb_now();
    if (o.stats)
        fprintf(stderr, "table %s in %.1f ms; %d positions solved in %.1f ms, %llu moves\n",
                o.t.load ? "loaded" : "built", (t1 - t0) * 1e3, in.line - (status != 0), (t2 - t1) * 1e3,
                (unsigned long long)total_moves);
    cli_input_close(&in);
    sb_tet_god_free(g);
    return status;
}

static int do_random(int argc, char **argv)
{
    uint64_t count = 0, seed = 0;
    random_opts o = {NULL, 0, {NULL, NULL, 1, -1}, 0};
    const char *narg = NULL;
    int rc, status = 0, nops = 0, have_seed;
    sb_tet_god *g = NULL;
    sb_mem mem;
    sb_rng rng;
    sb_control ctl;
    cli_progress prog;

    if ((rc = cli_parse(&random_command, argc, argv, &o, &narg, &nops)) >= 0)
        return rc;
    if (o.seed && parse_u64(o.seed, &seed))
        return cli_usage_error_in(random_command.name, "tetraminx random: --seed wants a number, not '%s'",
                                  o.seed);
    have_seed = o.seed != NULL;
    if (!nops)
        return cli_usage_error_in(random_command.name,
                                  "tetraminx random: how many positions? (sbfs tetraminx random N)");
    if (parse_u64(narg, &count))
        return cli_usage_error_in(random_command.name, "tetraminx random: N is a count from 0 to %llu, not '%s'",
                                  (unsigned long long)UINT64_MAX, narg);
    if (!have_seed)
        seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
    sb_rng_seed(&rng, seed);
    if (o.scramble && (rc = get_table(&g, &mem, &o.t, NULL)) != 0)
        return rc;
    cli_control_init(&ctl, &prog, 0);
    for (uint64_t n = 0; n < count; n++) {
        uint32_t index = sb_tet_random(&rng);
        char out[64];
        if ((n & 1023) == 0 && sb_control_stopped(&ctl)) {
            status = cli_fail(NULL, &(sb_error){SB_EINTR, 0, 0, "interrupted"});
            break;
        }
        if (o.scramble) {
            /* The solution undone: its moves inverted, in reverse order. */
            uint8_t sol[SB_TET_MAXDIST], scr[SB_TET_MAXDIST];
            int d = sb_tet_god_solve(g, index, sol);
            if (d < 0) { /* as in solve: never an empty line for a position */
                status = cli_fail(NULL, &(sb_error){SB_EINTERNAL, 0, 0, "damaged table"});
                break;
            }
            for (int i = 0; i < d; i++)
                scr[i] = (uint8_t)(sol[d - 1 - i] ^ 1);
            sb_tet_format_moves(scr, d, out);
        }
        if (o.json) {
            sb_tet_pieces p;
            sb_tet_facelets f;
            char fs[SB_TET_NFACELETS + 1];
            sb_tet_unrank(index, &p);
            sb_tet_pieces_to_facelets(&p, &f);
            sb_tet_facelets_format(&f, fs);
            printf("{\"command\": \"tetraminx random\", \"facelets\": \"%s\"", fs);
            if (o.scramble)
                printf(", \"scramble\": \"%s\"", out);
            printf("}\n");
        } else if (o.scramble) {
            puts(out);
        } else {
            sb_tet_pieces p;
            sb_tet_facelets f;
            sb_tet_unrank(index, &p);
            sb_tet_pieces_to_facelets(&p, &f);
            sb_tet_facelets_format(&f, out);
            puts(out);
        }
        if (cli_output_failed())
            break; /* reported by cli_finish */
    }
    cli_control_done(&ctl, &prog);
    sb_tet_god_free(g);
    return status;
}

int cmd_tetraminx(int argc, char **argv)
{
    if (argc < 2) {
        usage_tetraminx(stderr);
        return cli_status(SB_EUSAGE);
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage_tetraminx(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "solve"))
        return do_solve(argc - 1, argv + 1);
    if (!strcmp(argv[1], "random"))
        return do_random(argc - 1, argv + 1);
    if (!strcmp(argv[1], "god")) /* the same as 'sbfs god tetraminx' */
        return god_tetraminx(argc - 1, argv + 1);
    return cli_usage_error_in("tetraminx", "tetraminx: unknown subcommand '%s' (solve, random or god)", argv[1]);
}

int god_tetraminx(int argc, char **argv)
{
    god_opts o = {NULL, {NULL, NULL, 1, -1}, 0, {NULL, NULL, NULL, NULL, 0}};
    sb_tet_god *g;
    sb_mem mem;
    sb_error err;
    size_t dlimit = 0, budget;
    int rc;

    if ((rc = cli_parse(&god_command, argc, argv, &o, NULL, NULL)) >= 0)
        return rc;
    sb_error_clear(&err);
    if ((rc = cli_table_disk_check(god_command.name, "god tetraminx", &o.dk, o.t.load, &dlimit)) >= 0)
        return rc;
    if (cli_memory_budget(o.t.memory, &budget, &err))
        return cli_fail(NULL, &err);
#ifdef SBFS_MPI
    /* under MPI the table is cut among the processes */
    if (!o.t.load) {
        sb_mem_init(&mem, budget);
        return sbmpi_god_tetraminx(&mem, o.t.progress, o.save, 0);
    }
#endif
    const char *ckpt = o.dk.resume ? o.dk.resume : o.dk.checkpoint;
    sb_table_disk dk = {o.dk.disk, dlimit, 0, ckpt, o.dk.resume != NULL};
    int on_disk = !o.t.load && !o.dk.no_disk && (ckpt || (budget && sb_table_bytes(SB_TET_NPOS, 2) > budget));
    if (on_disk && !dk.dir && !ckpt)
        cli_table_disk_note();
    if ((rc = get_table(&g, &mem, &o.t, on_disk ? &dk : NULL)) != 0)
        return rc;
    if (o.save && sb_table_save(sb_tet_god_table(g), o.save, &err) != 0) {
        sb_tet_god_free(g);
        return cli_fail(NULL, &err);
    }
    cli_table_histogram(sb_tet_god_table(g), 1, o.json ? "tetraminx" : NULL);
    sb_tet_god_free(g);
    return 0;
}
