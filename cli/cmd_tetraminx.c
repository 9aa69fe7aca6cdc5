/* sbfs tetraminx solve|random, and sbfs god tetraminx: the front end of the
 * Tetraminx model.  Reading lines, parsing options and printing live here;
 * the model, the table and the solver are in src/tetraminx/. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sbfs/tetraminx.h"

enum { MAX_LINE = 65536 };

static void usage_tetraminx(FILE *out)
{
    fprintf(out,
            "usage: sbfs tetraminx solve [-v] [--stats] [TABLE OPTIONS] [FILE]\n"
            "       sbfs tetraminx random N [--seed S] [--scramble] [TABLE OPTIONS]\n"
            "       sbfs god tetraminx [--save TABLE] [TABLE OPTIONS]   (or sbfs tetraminx god)\n\n"
            "solve   reads one position per line from FILE (default stdin): a scramble in WCA\n"
            "        notation (U U' L L' R R' B B'; tips u l r b skipped) or a 28-letter facelet\n"
            "        string (F D L R, see docs/FORMAT.md).  Prints one optimal solution per\n"
            "        line, moves separated by single spaces, an empty line when solved.\n"
            "  -v             put the distance first: \"D: moves\"\n"
            "  --stats        timings and the total of moves on stderr at the end\n"
            "random  prints N positions drawn uniformly from all 933,120.\n"
            "  --seed S       repeatable stream (default: from the clock)\n"
            "  --scramble     print a scramble that reaches each position, not its facelets\n"
            "table options (the God table is built at start, in milliseconds):\n"
            "  --load TABLE   use a table saved by 'sbfs god tetraminx --save TABLE'\n"
            "  --memory SIZE  memory budget (e.g. 64M; default 3/4 of RAM)\n"
            "  -j N           threads for building the table (default 1)\n"
            "  --progress, --no-progress   progress on stderr (default: when a terminal)\n");
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

/* One line of in, without its newline, into buf (room for MAX_LINE
 * bytes): its length, -1 at the end of the input, -2 when the line is
 * longer than MAX_LINE (memory stays bounded whatever the input). */
static long read_line(FILE *in, char *buf)
{
    long n = 0;
    int c;
    while ((c = getc_unlocked(in)) != EOF && c != '\n') {
        if (n == MAX_LINE)
            return -2;
        buf[n++] = (char)c;
    }
    return c == EOF && n == 0 ? -1 : n;
}

/* How the God table is had: options common to solve, random and god. */
typedef struct table_opts {
    const char *load;     /* --load FILE: read instead of building */
    const char *memory;   /* --memory SIZE */
    int threads;          /* -j N */
    int progress;         /* -1 auto, 0 --no-progress, 1 --progress */
} table_opts;

/* If argv[*i] is a table option, take it (and its argument) and return 1;
 * 0 if it is not one; -1 (usage error printed) if its argument is bad. */
static int table_option(int argc, char **argv, int *i, table_opts *o, const char *cmd)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--load") || !strcmp(a, "--memory") || !strcmp(a, "-j")) {
        if (*i + 1 >= argc) {
            cli_usage_error("%s: %s wants an argument", cmd, a);
            return -1;
        }
        (*i)++;
        if (!strcmp(a, "--load"))
            o->load = argv[*i];
        else if (!strcmp(a, "--memory"))
            o->memory = argv[*i];
        else {
            uint64_t n;
            if (parse_u64(argv[*i], &n) || n < 1 || n > 64) {
                cli_usage_error("%s: -j wants a number of threads, 1 to 64", cmd);
                return -1;
            }
            o->threads = (int)n;
        }
        return 1;
    }
    if (!strcmp(a, "--progress") || !strcmp(a, "--no-progress")) {
        o->progress = a[2] == 'p';
        return 1;
    }
    return 0;
}

/* Allocate the God table (too big for the stack: it holds the move
 * tables) and build it, or load it when o->load names a file; mem gets the
 * budget of --memory.  0 with *out set, or the exit status (error printed)
 * with nothing left to free. */
static int get_table(sb_tet_god **out, sb_mem *mem, const table_opts *o)
{
    sb_control ctl;
    cli_progress prog;
    sb_error err;
    size_t limit;
    sb_tet_god *g;
    int rc;
    sb_error_clear(&err);
    *out = NULL;
    if (cli_memory_budget(o->memory, &limit, &err))
        return cli_fail(NULL, &err);
    sb_mem_init(mem, limit);
    if (!(g = malloc(sizeof *g)))
        return cli_fail(NULL, &(sb_error){SB_ENOMEM, 0, 0, "out of memory"});
    if (o->load) {
        rc = sb_tet_god_load(g, o->load, mem, &err);
    } else {
        cli_control_init(&ctl, &prog, o->progress);
        rc = sb_tet_god_build(g, o->threads, mem, &ctl, &err);
        cli_control_done(&ctl, &prog);
    }
    if (rc) {
        free(g);
        return cli_fail(NULL, &err);
    }
    *out = g;
    return 0;
}

static void put_table(sb_tet_god *g)
{
    if (g) {
        sb_tet_god_free(g);
        free(g);
    }
}

static int do_solve(int argc, char **argv)
{
    const char *file = NULL;
    table_opts topt = {NULL, NULL, 1, -1};
    int verbose = 0, stats = 0, rc, lineno = 0, status = 0, k;
    uint64_t total_moves = 0;
    double t0, t1, t2;
    sb_tet_god *g;
    sb_mem mem;
    sb_error err;
    sb_control ctl;
    cli_progress prog;
    char *line, out[64];
    long n;
    FILE *in;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
            verbose = 1;
        else if (!strcmp(argv[i], "--stats"))
            stats = 1;
        else if ((k = table_option(argc, argv, &i, &topt, "tetraminx solve")) != 0) {
            if (k < 0)
                return cli_status(SB_EUSAGE);
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage_tetraminx(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("tetraminx solve: unknown option '%s'", argv[i]);
        else if (file)
            return cli_usage_error("tetraminx solve: one input file at most");
        else
            file = argv[i];
    }
    sb_error_clear(&err);
    in = cli_open(file, &err);
    if (!in)
        return cli_fail(NULL, &err);
    line = malloc(MAX_LINE);
    if (!line) {
        cli_close(in);
        return cli_fail(NULL, &(sb_error){SB_ENOMEM, 0, 0, "out of memory"});
    }
    t0 = sb_now();
    if ((rc = get_table(&g, &mem, &topt)) != 0) {
        free(line);
        cli_close(in);
        return rc;
    }
    t1 = sb_now();
    /* Ctrl-C ends the run between two lines; what was printed stays. */
    cli_control_init(&ctl, &prog, 0);
    while (!sb_control_stopped(&ctl) && !cli_output_failed() && (n = read_line(in, line)) != -1) {
        sb_tet_pieces p;
        uint8_t moves[SB_TET_MAXDIST];
        int d;
        lineno++;
        if (sb_control_stopped(&ctl)) {
            status = cli_fail(NULL, &(sb_error){SB_EINTR, 0, 0, "interrupted"});
            break;
        }
        if (n == -2) {
            sb_error_set(&err, SB_ELONGLINE, lineno, MAX_LINE + 1,
                         "line longer than %d characters", MAX_LINE);
            status = cli_fail(file ? file : "-", &err);
            break;
        }
        if (sb_tet_parse(line, (size_t)n, lineno, &p, &err)) {
            status = cli_fail(file ? file : "-", &err);
            break;
        }
        d = sb_tet_god_solve(g, sb_tet_rank(&p), moves);
        if (d < 0) {
            status = cli_fail(NULL, &(sb_error){SB_EINTERNAL, 0, 0, "damaged table"});
            break;
        }
        total_moves += (uint64_t)d;
        sb_tet_format_moves(moves, d, out);
        if (verbose)
            printf("%d:%s%s\n", d, d ? " " : "", out);
        else
            puts(out);
    }
    /* A Ctrl-C that comes while getc waits for input ends the read with an
     * error (EINTR): cli_read_check asks the stop flag before ferror. */
    if (!status && cli_read_check(in, file, &err))
        status = cli_fail(NULL, &err);
    cli_control_done(&ctl, &prog);
    t2 = sb_now();
    if (stats)
        fprintf(stderr, "table %s in %.1f ms; %d positions solved in %.1f ms, %llu moves\n",
                topt.load ? "loaded" : "built", (t1 - t0) * 1e3, lineno - (status != 0),
                (t2 - t1) * 1e3, (unsigned long long)total_moves);
    free(line);
    cli_close(in);
    put_table(g);
    return status;
}

static int do_random(int argc, char **argv)
{
    uint64_t count = 0, seed = 0;
    table_opts topt = {NULL, NULL, 1, -1};
    int have_count = 0, have_seed = 0, scramble = 0, rc, status = 0, k;
    sb_tet_god *g = NULL;
    sb_mem mem;
    sb_rng rng;
    sb_control ctl;
    cli_progress prog;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed")) {
            if (i + 1 >= argc || parse_u64(argv[++i], &seed))
                return cli_usage_error("tetraminx random: --seed wants a number");
            have_seed = 1;
        } else if (!strcmp(argv[i], "--scramble"))
            scramble = 1;
        else if ((k = table_option(argc, argv, &i, &topt, "tetraminx random")) != 0) {
            if (k < 0)
                return cli_status(SB_EUSAGE);
        }
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage_tetraminx(stdout);
            return 0;
        } else if (!have_count && (argv[i][0] != '-' || (argv[i][1] >= '0' && argv[i][1] <= '9'))) {
            if (parse_u64(argv[i], &count))
                return cli_usage_error("tetraminx random: N is a count from 0 to %llu, not '%s'",
                                       (unsigned long long)UINT64_MAX, argv[i]);
            have_count = 1;
        } else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("tetraminx random: unknown option '%s'", argv[i]);
        else
            return cli_usage_error("tetraminx random: unexpected argument '%s'", argv[i]);
    }
    if (!have_count)
        return cli_usage_error("tetraminx random: how many positions? (sbfs tetraminx random N)");
    if (!have_seed)
        seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
    sb_rng_seed(&rng, seed);
    if (scramble && (rc = get_table(&g, &mem, &topt)) != 0)
        return rc;
    cli_control_init(&ctl, &prog, 0);
    for (uint64_t n = 0; n < count; n++) {
        uint32_t index = sb_tet_random(&rng);
        char out[64];
        if ((n & 1023) == 0 && sb_control_stopped(&ctl)) {
            status = cli_fail(NULL, &(sb_error){SB_EINTR, 0, 0, "interrupted"});
            break;
        }
        if (scramble) {
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
        } else {
            sb_tet_pieces p;
            sb_tet_facelets f;
            sb_tet_unrank(index, &p);
            sb_tet_pieces_to_facelets(&p, &f);
            sb_tet_facelets_format(&f, out);
        }
        puts(out);
        if (cli_output_failed())
            break; /* reported by cli_finish */
    }
    cli_control_done(&ctl, &prog);
    put_table(g);
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
    return cli_usage_error("tetraminx: unknown subcommand '%s' (solve or random)", argv[1]);
}

int god_tetraminx(int argc, char **argv)
{
    const char *save = NULL;
    table_opts topt = {NULL, NULL, 1, -1};
    sb_tet_god *g;
    sb_mem mem;
    sb_error err;
    uint64_t total = 0;
    int rc, k;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--save")) {
            if (i + 1 >= argc)
                return cli_usage_error("god tetraminx: --save wants an argument");
            save = argv[++i];
        } else if ((k = table_option(argc, argv, &i, &topt, "god tetraminx")) != 0) {
            if (k < 0)
                return cli_status(SB_EUSAGE);
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: sbfs god tetraminx [OPTIONS]   (or sbfs tetraminx god)\n\n"
                   "Distances from solved of all 933,120 Tetraminx positions: one line\n"
                   "'distance D: N' per distance, then 'total: N positions, largest distance D'.\n"
                   "  --save TABLE     also write the table (2 bits a position) to TABLE\n"
                   "  --load TABLE     read the table from TABLE instead of building it\n"
                   "  --memory SIZE    memory budget (e.g. 64M; default 3/4 of RAM)\n"
                   "  -j N             worker threads (default 1: the table takes milliseconds)\n"
                   "  --progress, --no-progress   progress on stderr (default: when a terminal)\n");
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("god tetraminx: unknown option '%s'", argv[i]);
        else
            return cli_usage_error("god tetraminx: unexpected argument '%s'", argv[i]);
    }
    if ((rc = get_table(&g, &mem, &topt)) != 0)
        return rc;
    sb_error_clear(&err);
    if (save && sb_tet_god_save(g, save, &err) != 0) {
        put_table(g);
        return cli_fail(NULL, &err);
    }
    for (int d = 0; d <= g->maxdist; d++) {
        printf("distance %d: %llu\n", d, (unsigned long long)g->hist[d]);
        total += g->hist[d];
    }
    printf("total: %llu positions, largest distance %d\n", (unsigned long long)total, g->maxdist);
    put_table(g);
    return 0;
}
