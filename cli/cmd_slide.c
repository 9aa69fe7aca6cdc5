/* sbfs solve (the modern form) and sbfs STYLE [VERBOSE] (SLIDING's own
 * command line) for sliding-block puzzles in SLIDING's format. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* Read all of f into a malloc'd buffer. */
static char *slurp(FILE *f, size_t *len, sb_error *err)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory reading the input");
            return NULL;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            char *b = realloc(buf, cap * 2);
            if (!b)
                free(buf);
            buf = b;
            cap *= 2;
        }
    }
    if (ferror(f)) {
        free(buf);
        sb_error_set(err, SB_EIO, 0, 0, "read error");
        return NULL;
    }
    *len = n;
    return buf;
}

/* Read and parse FILE; prints the error (and warnings, on `warn`) itself. */
static int load(const char *file, sb_slide_puzzle *pz, FILE *warn, int sliding_words)
{
    sb_error err;
    size_t len;
    sb_error_clear(&err);
    FILE *f = cli_open(file, &err);
    if (!f)
        return cli_fail(file, &err);
    char *text = slurp(f, &len, &err);
    cli_close(f);
    if (!text)
        return cli_fail(file, &err);
    int rc = sb_slide_parse(pz, text, len, &err);
    free(text);
    for (int i = 0; i < pz->nwarn && i < SB_SLIDE_MAXWARN; i++) {
        if (sliding_words) /* SLIDING's own words, on stdout */
            fprintf(warn, "Warning: Redefinition of piece %c is being ignored.\n", pz->warn_name[i]);
        else
            fprintf(warn, "sbfs: %s:%d:%d: %s\n", file && strcmp(file, "-") ? file : "<stdin>", pz->warn[i].line, pz->warn[i].col,
                    pz->warn[i].msg);
    }
    if (rc)
        return cli_fail(file ? file : "-", &err);
    return 0;
}

static void print_board(const sb_slide *sl, const uint64_t *key)
{
    unsigned char anchors[SB_SLIDE_MAXCELLS];
    char buf[SB_SLIDE_BOARD_MAX];
    sb_slide_unpack(sl, key, anchors);
    sb_slide_board_text(sl->pz, anchors, buf);
    fputs(buf, stdout);
}

static double cpu_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru))
        return 0;
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru))
        return 0;
    return ru.ru_maxrss;
}

/* ------------------------------------------------------------------------ */

static void solve_usage(FILE *out)
{
    fprintf(out,
            "usage: sbfs solve [-s STYLE] [-q|-v] [--memory SIZE] [--progress|--no-progress] [FILE|-]\n"
            "Shortest solution of a sliding-block puzzle in SLIDING's format (docs/FORMAT.md).\n"
            "  -s STYLE   0 one step, 1 straight line, 2 any path of one piece;\n"
            "             3, 4, 5 the same for sets of pieces moving together (default 0)\n"
            "  -q         print only the distance lines and the summary\n"
            "  -v         also print figures (time, memory, rate) on stderr\n"
            "  --memory SIZE   memory budget, e.g. 2G (default: 3/4 of the machine)\n"
            "Output: 'distance D: N' per distance, the boards from start to stop with one\n"
            "'move K: ...' line per move, then 'solution: N moves' or\n"
            "'no solution: N configurations reachable'.\n");
}

int cmd_solve(int argc, char **argv)
{
    int style = 0, quiet = 0, verbose = 0, progress = -1;
    const char *file = NULL, *memarg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            solve_usage(stdout);
            return 0;
        } else if (!strcmp(a, "-s") || !strcmp(a, "--style")) {
            char *end;
            if (i + 1 >= argc)
                return cli_usage_error("%s needs a style 0..5", a);
            long v = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || v < 0 || v > 5)
                return cli_usage_error("the style must be 0..5, not '%s'", argv[i]);
            style = (int)v;
        } else if (!strncmp(a, "-s", 2) && a[2] >= '0' && a[2] <= '5' && !a[3]) {
            style = a[2] - '0';
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            verbose = 1;
        } else if (!strcmp(a, "--progress")) {
            progress = 1;
        } else if (!strcmp(a, "--no-progress")) {
            progress = 0;
        } else if (!strcmp(a, "--memory")) {
            if (i + 1 >= argc)
                return cli_usage_error("--memory needs a size");
            memarg = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("solve: unknown option '%s' (try 'sbfs solve --help')", a);
        } else if (file) {
            return cli_usage_error("solve: one puzzle file at a time");
        } else {
            file = a;
        }
    }
    const char *fname = file ? file : "-";
    sb_slide_puzzle *pz = malloc(sizeof *pz);
    if (!pz)
        return cli_status(SB_ENOMEM);
    int st = load(file, pz, stderr, 0);
    if (st) {
        free(pz);
        return st;
    }
    sb_error err;
    sb_error_clear(&err);
    size_t budget;
    if (cli_memory_budget(memarg, &budget, &err)) {
        free(pz);
        return cli_fail(NULL, &err);
    }
    sb_mem mem;
    sb_mem_init(&mem, budget);
    sb_slide sl;
    sb_bfs b;
    sb_search_model m;
    sb_control ctl;
    cli_progress prog;
    int rc = sb_slide_init(&sl, pz, style, &mem, &err);
    if (rc) {
        free(pz);
        return cli_fail(fname, &err);
    }
    sb_slide_model(&sl, &m);
    rc = sb_bfs_init(&b, &m, &mem, &err);
    double t0 = sb_now(), c0 = cpu_seconds();
    if (!rc) {
        cli_control_init(&ctl, &prog, progress);
        rc = sb_bfs_run(&b, sl.start, sl.stop, 0, &ctl, &err);
        cli_control_done(&ctl, &prog);
    }
    double t1 = sb_now(), c1 = cpu_seconds();
    for (int d = 0; d < b.nlevels; d++) /* a level cut short is marked as such */
        printf("distance %d: %llu%s\n", d, (unsigned long long)sb_bfs_level_size(&b, d),
               rc && d == b.nlevels - 1 ? " (incomplete)" : "");
    if (!rc && b.goal >= 0) {
        int D = b.goal_level;
        uint64_t *path = malloc((size_t)(D + 1) * sizeof *path);
        if (!path)
            rc = sb_error_set(&err, SB_ENOMEM, 0, 0, "out of memory");
        else
            rc = sb_bfs_path(&b, (uint64_t)b.goal, path, &err);
        if (!rc && !quiet) {
            printf("start:\n");
            print_board(&sl, sb_stateset_key(&b.set, path[0]));
            for (int d = 1; d <= D && !rc; d++) {
                char line[16384]; /* 256 pieces and 1023 steps fit */
                rc = sb_slide_describe(&sl, sb_stateset_key(&b.set, path[d - 1]),
                                       sb_stateset_key(&b.set, path[d]), line, sizeof line, &err);
                printf("move %d: %s\n", d, line);
                print_board(&sl, sb_stateset_key(&b.set, path[d]));
            }
        }
        if (!rc)
            printf("solution: %d move%s\n", D, D == 1 ? "" : "s");
        free(path);
    } else if (!rc) {
        printf("no solution: %llu configurations reachable\n", (unsigned long long)b.set.n);
    }
    fflush(stdout);
    if (verbose) {
        double secs = t1 - t0, cpu = c1 - c0;
        fprintf(stderr,
                "sbfs: style %d, %llu configurations, key %d word%s, %.3f s (cpu %.3f s), "
                "%.0f configurations/s (per cpu second %.0f), "
                "table %zu bytes (%.1f bytes/configuration), peak rss %ld KB\n",
                style, (unsigned long long)b.set.n, sl.key_words, sl.key_words == 1 ? "" : "s", secs, cpu,
                secs > 0 ? (double)b.set.n / secs : 0.0, cpu > 0 ? (double)b.set.n / cpu : 0.0,
                sb_stateset_bytes(&b.set),
                b.set.n ? (double)sb_stateset_bytes(&b.set) / (double)b.set.n : 0.0, peak_rss_kb());
    }
    sb_bfs_free(&b);
    sb_slide_free(&sl);
    free(pz);
    if (rc)
        return cli_fail(rc == SB_EINTR ? NULL : fname, &err);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* SLIDING's command line: sbfs STYLE [VERBOSE] < puzzle.  Its output is
 * SLIDING's (Knuth, SLIDING, "Breadth-first search" and "The answer"),
 * configurations listed in SLIDING's shorthand, then the summary line of
 * sbfs solve. */

typedef struct sliding_out {
    const sb_slide *sl;
    const sb_bfs *b;
    int verbose;
    int shown;     /* the highest distance whose header was printed */
} sliding_out;

static void print_config(const sb_slide *sl, const uint64_t *key)
{
    unsigned char anchors[SB_SLIDE_MAXCELLS];
    char buf[SB_SLIDE_MAXCELLS + 1];
    sb_slide_unpack(sl, key, anchors);
    sb_slide_shorthand(sl->pz, anchors, buf);
    fputs(buf, stdout);
}

static void close_level(sliding_out *o)
{
    if (o->verbose > 0)
        return;
    if (o->shown == 0)
        printf(".\n");
    else
        printf(" and %llu more.\n", (unsigned long long)(sb_bfs_level_size(o->b, o->shown) - 1));
}

static void sliding_new(void *ud, uint64_t index, uint64_t from)
{
    sliding_out *o = ud;
    int L = o->b->nlevels - 1;
    while (o->shown < L) {
        close_level(o);
        printf("*** Distance %d:\n", ++o->shown);
    }
    if (index == o->b->level[L] || o->verbose > 0) {
        print_config(o->sl, sb_stateset_key(&o->b->set, index));
        if (o->verbose > 0)
            printf(" (%llu=#%llx, from #%llx)\n", (unsigned long long)index, (unsigned long long)index,
                   (unsigned long long)from);
    }
}

int cmd_sliding(int argc, char **argv)
{
    int style, verbose = 0;
    char *end;
    if (argc < 2 || argc > 3)
        goto usage;
    style = (int)strtol(argv[1], &end, 10);
    if (*end || end == argv[1])
        goto usage;
    if (argc == 3) {
        verbose = (int)strtol(argv[2], &end, 10);
        if (*end || end == argv[2])
            goto usage;
    }
    if (style < 0 || style > 5) {
        fprintf(stderr, "sbfs: Sorry, the style should be between 0 and 5, not %d!\n", style);
        return cli_status(SB_EUSAGE);
    }
    sb_slide_puzzle *pz = malloc(sizeof *pz);
    if (!pz)
        return cli_status(SB_ENOMEM);
    int st = load(NULL, pz, stdout, 1);
    if (st) {
        free(pz);
        return st;
    }
    sb_error err;
    sb_error_clear(&err);
    size_t budget;
    cli_memory_budget(NULL, &budget, &err);
    sb_mem mem;
    sb_mem_init(&mem, budget);
    sb_slide sl;
    sb_bfs b;
    sb_search_model m;
    sb_control ctl;
    cli_progress prog;
    int rc = sb_slide_init(&sl, pz, style, &mem, &err);
    if (rc) {
        free(pz);
        return cli_fail("-", &err);
    }
    printf("Starting configuration:\n");
    print_board(&sl, sl.start);
    printf("\nStopping configuration:\n");
    for (int g = 0; g < pz->ngoals; g++) { /* free cells drawn as '.' */
        char buf[SB_SLIDE_BOARD_MAX];
        sb_slide_goal_text(pz, g, buf);
        printf("%s%s", g ? "or:\n" : "", buf);
    }
    printf("\n(using moves of style %d)\n", style);
    printf("*** Distance 0:\n");
    sb_slide_model(&sl, &m);
    sliding_out o = {&sl, &b, verbose, 0};
    rc = sb_bfs_init(&b, &m, &mem, &err);
    if (!rc) {
        b.on_new = sliding_new;
        b.on_new_ud = &o;
        cli_control_init(&ctl, &prog, -1);
        rc = sb_bfs_run(&b, sl.start, sl.stop, 1, &ctl, &err);
        cli_control_done(&ctl, &prog);
    }
    if (!rc && b.goal >= 0) {
        int D = b.goal_level;
        if (D == 0) {
            printf("\nYou're joking: That puzzle is solved in zero moves!\n");
        } else {
            printf("... Solution!\n");
            if (verbose >= 0) {
                uint64_t *path = malloc((size_t)(D + 1) * sizeof *path);
                if (!path)
                    rc = sb_error_set(&err, SB_ENOMEM, 0, 0, "out of memory");
                else
                    rc = sb_bfs_path(&b, (uint64_t)b.goal, path, &err);
                for (int d = D - 1; d >= 1 && !rc; d--) {
                    printf("\n%d:\n", d);
                    print_board(&sl, sb_stateset_key(&b.set, path[d]));
                }
                free(path);
            }
        }
        if (!rc)
            printf("solution: %d move%s\n", D, D == 1 ? "" : "s");
    } else if (!rc) {
        /* the last level found nothing new: its header, then the verdict */
        while (o.shown < b.nlevels) {
            close_level(&o);
            printf("*** Distance %d:\n", ++o.shown);
        }
        printf("no solution: %llu configurations reachable\n", (unsigned long long)b.set.n);
    } else {
        printf("\n");
    }
    fflush(stdout);
    sb_bfs_free(&b);
    sb_slide_free(&sl);
    free(pz);
    if (rc)
        return cli_fail(rc == SB_EINTR ? NULL : "-", &err);
    return 0;
usage:
    fprintf(stderr, "Usage: sbfs style [verbose]\n");
    return cli_status(SB_EUSAGE);
}

int cmd_explore(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sbfs: explore is not available yet\n");
    return 1;
}
