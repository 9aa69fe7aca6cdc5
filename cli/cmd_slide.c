/* sbfs solve (the modern form) and sbfs STYLE [VERBOSE] (SLIDING's own
 * command line) for sliding-block puzzles in SLIDING's format. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* Lines of a file for the reader (sb_slide_parse_lines), one at a time
 * in a buffer of one line: the input is a stream, and any number of blank
 * lines takes no memory.  A line past the longest the format allows is
 * kept in part (the reader then reports it too long); NUL bytes stay. */
typedef struct lines {
    FILE *f;
    const char *file;
    char buf[SB_SLIDE_MAXLINE + 2];
} lines;

static int next_line(void *ud, const char **s, size_t *n, sb_error *err)
{
    lines *l = ud;
    size_t k = 0;
    int c;
    while ((c = getc(l->f)) != EOF && c != '\n')
        if (k < sizeof l->buf)
            l->buf[k++] = (char)c;
    if (c == EOF && (ferror(l->f) || cli_interrupted()))
        return cli_read_check(l->f, l->file, err);
    if (c == EOF && !k)
        return 0;
    *s = l->buf;
    *n = k;
    return 1;
}

/* Read and parse FILE as a stream; prints the error (and warnings, on
 * `warn`) itself. */
static int load(const char *file, sb_slide_puzzle *pz, FILE *warn, int sliding_words)
{
    sb_error err;
    static lines l;
    sb_error_clear(&err);
    l.f = cli_open(file, &err);
    l.file = file;
    if (!l.f)
        return cli_fail(NULL, &err);
    int rc = sb_slide_parse_lines(pz, next_line, &l, &err);
    cli_close(l.f);
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

/* Options shared by solve and explore. */
typedef struct search_opts {
    int style, quiet, verbose, progress, json, bidir, threads;
    const char *file, *memarg;
} search_opts;

static void solve_usage(FILE *out)
{
    fprintf(out,
            "usage: sbfs solve [-s STYLE] [-j N] [-q|-v] [--json] [--no-bidir] [--memory SIZE]\n"
            "                  [--progress|--no-progress] [FILE|-]\n"
            "Shortest solution of a sliding-block puzzle in SLIDING's format (docs/FORMAT.md).\n"
            "  -s STYLE   0 one step, 1 straight line, 2 any path of one piece;\n"
            "             3, 4, 5 the same for sets of pieces moving together (default 0)\n"
            "  -j N       threads (default: one per core); results do not depend on N\n"
            "  -q         print only the distance lines and the summary\n"
            "  -v         also print figures (time, memory, rate) on stderr\n"
            "  --json     print the result as one JSON document instead\n"
            "  --no-bidir search from the start only, even when the goal is one configuration\n"
            "  --memory SIZE   memory budget, e.g. 2G (default: 3/4 of the machine)\n"
            "Output: 'distance D: N' per distance (both ways: 'forward D: N' and\n"
            "'backward D: N'), the boards from start to stop with one 'move K: ...' line\n"
            "per move, then 'solution: N moves' or 'no solution: N configurations reachable'.\n");
}

static void explore_usage(FILE *out)
{
    fprintf(out,
            "usage: sbfs explore [-s STYLE] [-j N] [-v] [--json] [--memory SIZE]\n"
            "                    [--progress|--no-progress] [FILE|-]\n"
            "Every configuration reachable from the start of a sliding-block puzzle, by\n"
            "distance: 'distance D: N' lines, a few of the farthest configurations, then\n"
            "'component: N configurations, largest distance D'.  Options as for solve.\n");
}

/* Returns -1 to go on, else the exit status. */
static int parse_search_opts(int argc, char **argv, search_opts *o, void (*usage)(FILE *))
{
    memset(o, 0, sizeof *o);
    o->progress = -1;
    o->bidir = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-s") || !strcmp(a, "--style")) {
            if (i + 1 >= argc)
                return cli_usage_error("%s needs a style 0..5", a);
            long v = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || v < 0 || v > 5)
                return cli_usage_error("the style must be 0..5, not '%s'", argv[i]);
            o->style = (int)v;
        } else if (!strncmp(a, "-s", 2) && a[2] >= '0' && a[2] <= '5' && !a[3]) {
            o->style = a[2] - '0';
        } else if (!strcmp(a, "-j") || !strcmp(a, "--threads")) {
            if (i + 1 >= argc)
                return cli_usage_error("%s needs a number of threads", a);
            long v = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || v < 1 || v > 64)
                return cli_usage_error("the number of threads must be 1..64, not '%s'", argv[i]);
            o->threads = (int)v;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->verbose = 1;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--no-bidir")) {
            o->bidir = 0;
        } else if (!strcmp(a, "--progress")) {
            o->progress = 1;
        } else if (!strcmp(a, "--no-progress")) {
            o->progress = 0;
        } else if (!strcmp(a, "--memory")) {
            if (i + 1 >= argc)
                return cli_usage_error("--memory needs a size");
            o->memarg = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error_in(argv[0], "%s: unknown option '%s'", argv[0], a);
        } else if (o->file) {
            return cli_usage_error("%s: one puzzle file at a time", argv[0]);
        } else {
            o->file = a;
        }
    }
    return -1;
}

/* ---- JSON ---- */

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

static void json_counts(const sb_search *s, int side)
{
    printf("[");
    for (int d = 0; d < sb_search_result(s)->nlevels[side]; d++)
        printf("%s%llu", d ? ", " : "", (unsigned long long)sb_search_level(s, side, d));
    printf("]");
}

/* A board as rows of one character per cell (piece name, 0 empty, x
 * blocked), its blocks as [name, row, column] of their anchors, and the
 * configuration in SLIDING's shorthand as SLIDING lists it (x cells left
 * out, trailing zeros dropped). */
static void json_board(const sb_slide *sl, const uint64_t *key)
{
    const sb_slide_puzzle *pz = sl->pz;
    unsigned char anchors[SB_SLIDE_MAXCELLS];
    char cell[SB_SLIDE_MAXCELLS];
    sb_slide_unpack(sl, key, anchors);
    for (int j = 0; j < pz->ncells; j++)
        cell[j] = pz->xcell[j] ? 'x' : '0';
    for (int j = 0; j < pz->ncells; j++) {
        if (!anchors[j])
            continue;
        const sb_slide_kind *k = &pz->kind[anchors[j]];
        for (int t = 0; t < k->n; t++)
            cell[(j / pz->cols + k->dr[t]) * pz->cols + j % pz->cols + k->dc[t]] = sb_slide_name(anchors[j]);
    }
    printf("{\"rows\": [");
    for (int r = 0; r < pz->rows; r++)
        printf("%s\"%.*s\"", r ? ", " : "", pz->cols, cell + r * pz->cols);
    printf("], \"blocks\": [");
    int first = 1;
    for (int j = 0; j < pz->ncells; j++)
        if (anchors[j]) {
            printf("%s[\"%c\", %d, %d]", first ? "" : ", ", sb_slide_name(anchors[j]), j / pz->cols + 1,
                   j % pz->cols + 1);
            first = 0;
        }
    char line[SB_SLIDE_MAXCELLS + 1];
    sb_slide_shorthand(pz, anchors, line);
    printf("], \"shorthand\": \"%s\"}", line);
}

/* ---- solve and explore ---- */

typedef struct search_run {
    search_opts o;
    sb_slide_puzzle *pz;
    sb_mem mem;
    sb_slide sl;
    sb_search *srch;
    const sb_search_info *info; /* the result, once searched */
    sb_error err;
    sb_control ctl;     /* progress and Ctrl-C, until control_done */
    cli_progress prog;
    double secs, cpu;
    int have_sl, have_ctl;
} search_run;

/* The progress line cleared and Ctrl-C back to its default, before the
 * result is printed. */
static void control_done(search_run *r)
{
    if (r->have_ctl)
        cli_control_done(&r->ctl, &r->prog);
    r->have_ctl = 0;
}

/* Load, build the model and search.  Returns the run's status code (0,
 * or an SB_E* code with r->err filled), or a positive exit status when
 * it failed before searching (message printed).  The progress line and
 * the Ctrl-C handling stay on (for the path) until control_done. */
static int search(search_run *r, int census)
{
    const char *fname = r->o.file ? r->o.file : "-";
    size_t budget;
    sb_error_clear(&r->err);
    if (cli_memory_budget(r->o.memarg, &budget, &r->err))
        return cli_fail(NULL, &r->err);
    sb_mem_init(&r->mem, budget);
    r->pz = malloc(sizeof *r->pz);
    if (!r->pz)
        return cli_status(SB_ENOMEM);
    int st = load(r->o.file, r->pz, stderr, 0);
    if (st)
        return st;
    if (sb_slide_init(&r->sl, r->pz, r->o.style, &r->mem, &r->err))
        return cli_fail(fname, &r->err);
    r->have_sl = 1;
    sb_keymodel m;
    sb_search_opts so = {r->o.threads, NULL, NULL};
    sb_slide_model_hints(&r->sl, &m);
    if (sb_search_new(&r->srch, SB_ENGINE_LEVELS, &m, &so, &r->mem, &r->err))
        return cli_fail(fname, &r->err);
    unsigned flags = census ? SB_SEARCH_CENSUS : r->o.bidir ? SB_SEARCH_BIDIR : 0;
    double t0 = sb_now(), c0 = cpu_seconds();
    cli_control_init(&r->ctl, &r->prog, r->o.progress);
    r->have_ctl = 1;
    int rc = sb_search_run(r->srch, r->sl.start, census ? NULL : r->sl.stop, flags, &r->ctl, &r->err);
    r->info = sb_search_result(r->srch);
    r->secs = sb_now() - t0;
    r->cpu = cpu_seconds() - c0;
    return rc;
}

static void search_done(search_run *r)
{
    control_done(r);
    sb_search_free(r->srch);
    if (r->have_sl)
        sb_slide_free(&r->sl);
    free(r->pz);
}

static void search_figures(const search_run *r)
{
    const sb_search_info *in = r->info;
    uint64_t n = in->states;
    fprintf(stderr,
            "sbfs: style %d, %llu configurations, %llu neighbours listed, key %d word%s, "
            "%.3f s (cpu %.3f s), "
            "%.0f configurations/s (per cpu second %.0f), "
            "memory %zu bytes (%.1f bytes/configuration), peak rss %ld KB, %d thread%s%s\n",
            r->o.style, (unsigned long long)n, (unsigned long long)in->generated, r->sl.key_words,
            r->sl.key_words == 1 ? "" : "s", r->secs, r->cpu, r->secs > 0 ? (double)n / r->secs : 0.0,
            r->cpu > 0 ? (double)n / r->cpu : 0.0, r->mem.peak, n ? (double)r->mem.peak / (double)n : 0.0, peak_rss_kb(), in->threads,
            in->threads == 1 ? "" : "s", in->dropped ? ", levels dropped for the budget" : "");
}

/* The distance lines: every level made in full (a level being made when
 * the search stopped is left out; the error message names it). */
static void print_counts(const sb_search *s)
{
    static const char *const word[2] = {"distance", "forward"};
    const sb_search_info *in = sb_search_result(s);
    for (int k = 0; k < (in->bidir ? 2 : 1); k++)
        for (int d = 0; d < in->nlevels[k]; d++)
            printf("%s %d: %llu\n", k ? "backward" : word[in->bidir], d,
                   (unsigned long long)sb_search_level(s, k, d));
}

int cmd_solve(int argc, char **argv)
{
    search_run r;
    memset(&r, 0, sizeof r);
    int st = parse_search_opts(argc, argv, &r.o, solve_usage);
    if (st >= 0)
        return st;
    const char *fname = r.o.file ? r.o.file : "-";
    int rc = search(&r, 0);
    if (rc > 0) {
        search_done(&r);
        return rc;
    }
    int D = r.info->length, kw = r.sl.key_words;
    uint64_t *path = NULL;
    if (!rc && r.info->found) {
        path = malloc((size_t)(D + 1) * (size_t)kw * sizeof *path);
        if (!path)
            rc = sb_error_set(&r.err, SB_ENOMEM, 0, 0, "out of memory");
        else
            rc = sb_search_path(r.srch, path, &r.ctl, &r.err);
    }
    control_done(&r);
    char line[16384]; /* 256 pieces and 1023 steps fit */
    if (r.o.json) {
        printf("{\"puzzle\": ");
        json_str(fname);
        printf(", \"style\": %d, \"bidirectional\": %s", r.o.style, r.info->bidir ? "true" : "false");
        if (r.info->bidir) {
            printf(", \"forward\": ");
            json_counts(r.srch, 0);
            printf(", \"backward\": ");
            json_counts(r.srch, 1);
        } else {
            printf(", \"distances\": ");
            json_counts(r.srch, 0);
        }
        printf(", \"configurations\": %llu", (unsigned long long)r.info->states);
        if (rc)
            printf(", \"error\": "), json_str(r.err.msg);
        if (!rc && path) {
            printf(", \"length\": %d, \"moves\": [", D);
            for (int d = 1; d <= D && !rc; d++) {
                rc = sb_slide_describe(&r.sl, path + (size_t)(d - 1) * kw, path + (size_t)d * kw, line,
                                       sizeof line, &r.err);
                printf("%s", d > 1 ? ", " : "");
                json_str(line);
            }
            printf("], \"boards\": [");
            for (int d = 0; d <= D && !rc; d++) {
                printf("%s", d ? ", " : "");
                json_board(&r.sl, path + (size_t)d * kw);
            }
            printf("]");
        } else if (!rc) {
            printf(", \"length\": null");
        }
        printf("}\n");
    } else {
        print_counts(r.srch);
        if (!rc && path) {
            if (!r.o.quiet) {
                printf("start:\n");
                print_board(&r.sl, path);
                for (int d = 1; d <= D && !rc; d++) {
                    rc = sb_slide_describe(&r.sl, path + (size_t)(d - 1) * kw, path + (size_t)d * kw, line,
                                           sizeof line, &r.err);
                    printf("move %d: %s\n", d, line);
                    print_board(&r.sl, path + (size_t)d * kw);
                }
            }
            if (!rc)
                printf("solution: %d move%s\n", D, D == 1 ? "" : "s");
        } else if (!rc) {
            /* the component of the start, or (both ways) of the stop if
             * that side ran dry first */
            uint64_t n = 0;
            for (int d = 0; d < r.info->nlevels[r.info->exhausted]; d++)
                n += sb_search_level(r.srch, r.info->exhausted, d);
            printf("no solution: %llu configurations reachable%s\n", (unsigned long long)n,
                   r.info->exhausted ? " from the stop" : "");
        }
    }
    cli_flush();
    if (r.o.verbose)
        search_figures(&r);
    free(path);
    search_done(&r);
    if (rc)
        return cli_fail(rc == SB_EINTR || rc == SB_ENOMEM ? NULL : fname, &r.err);
    return 0;
}

int cmd_explore(int argc, char **argv)
{
    search_run r;
    memset(&r, 0, sizeof r);
    int st = parse_search_opts(argc, argv, &r.o, explore_usage);
    if (st >= 0)
        return st;
    int rc = search(&r, 1);
    if (rc > 0) {
        search_done(&r);
        return rc;
    }
    control_done(&r);
    enum { SHOW = 3 }; /* farthest configurations printed */
    int D = r.info->nlevels[0] - 1;
    uint64_t nlast, total = r.info->states;
    const uint64_t *last = sb_search_last(r.srch, &nlast);
    int kw = r.sl.key_words;
    if (r.o.json) {
        printf("{\"puzzle\": ");
        json_str(r.o.file ? r.o.file : "-");
        printf(", \"style\": %d, \"distances\": ", r.o.style);
        json_counts(r.srch, 0);
        printf(", \"complete\": %s", rc ? "false" : "true");
        if (rc)
            printf(", \"error\": "), json_str(r.err.msg);
        printf(", \"configurations\": %llu, \"largest_distance\": %d, \"farthest\": [",
               (unsigned long long)total, D);
        for (uint64_t i = 0; !rc && last && i < nlast && i < SHOW; i++) {
            printf("%s", i ? ", " : "");
            json_board(&r.sl, last + i * kw);
        }
        printf("]}\n");
    } else {
        print_counts(r.srch);
        if (!rc) {
            printf("farthest (%llu at distance %d%s):\n", (unsigned long long)nlast, D,
                   nlast > SHOW ? ", the first 3 shown" : "");
            for (uint64_t i = 0; last && i < nlast && i < SHOW; i++) {
                if (i)
                    printf("\n");
                print_board(&r.sl, last + i * kw);
            }
            printf("component: %llu configurations, largest distance %d\n", (unsigned long long)total, D);
        }
    }
    cli_flush();
    if (r.o.verbose)
        search_figures(&r);
    search_done(&r);
    if (rc)
        return cli_fail(rc == SB_EINTR || rc == SB_ENOMEM ? NULL : (r.o.file ? r.o.file : "-"), &r.err);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* SLIDING's command line: sbfs STYLE [VERBOSE] < puzzle.  Its output is
 * SLIDING's (Knuth, SLIDING, "Breadth-first search" and "The answer"),
 * configurations listed in SLIDING's shorthand, then the summary line of
 * sbfs solve. */

typedef struct sliding_out {
    const sb_slide *sl;
    int verbose;
    int shown;     /* the highest distance whose header was printed */
    uint64_t seen; /* configurations found at that distance so far */
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
        printf(" and %llu more.\n", (unsigned long long)(o->seen - 1));
}

/* Each configuration as the hashed engine finds it: the first of each
 * distance (all of them when verbose), SLIDING's listing. */
static void sliding_new(void *ud, const uint64_t *key, int level, uint64_t index, uint64_t from)
{
    sliding_out *o = ud;
    while (o->shown < level) {
        close_level(o);
        printf("*** Distance %d:\n", ++o->shown);
        o->seen = 0;
    }
    if (o->seen++ == 0 || o->verbose > 0) {
        print_config(o->sl, key);
        if (o->verbose > 0)
            printf(" (%llu=#%llx, from #%llx)\n", (unsigned long long)index, (unsigned long long)index,
                   (unsigned long long)from);
        /* a listing nobody can read is not worth the search: stop it, and
         * let main report the write error */
        if (cli_output_failed())
            cli_request_stop();
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
    sb_error err;
    sb_error_clear(&err);
    size_t budget;
    cli_memory_budget(NULL, &budget, &err);
    sb_mem mem;
    sb_mem_init(&mem, budget);
    sb_slide_puzzle *pz = malloc(sizeof *pz);
    if (!pz)
        return cli_status(SB_ENOMEM);
    int st = load(NULL, pz, stdout, 1);
    if (st) {
        free(pz);
        return st;
    }
    sb_slide sl;
    sb_search *srch = NULL;
    sb_keymodel m;
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
    sliding_out o = {&sl, verbose, 0, 0};
    sb_search_opts so = {0, sliding_new, &o};
    rc = sb_search_new(&srch, SB_ENGINE_HASHED, &m, &so, &mem, &err);
    if (!rc) {
        cli_control_init(&ctl, &prog, -1);
        rc = sb_search_run(srch, sl.start, sl.stop, SB_SEARCH_FIRST, &ctl, &err);
        cli_control_done(&ctl, &prog);
    }
    const sb_search_info *in = sb_search_result(srch);
    if (!rc && in->found) {
        int D = in->length;
        if (D == 0) {
            printf("\nYou're joking: That puzzle is solved in zero moves!\n");
        } else {
            printf("... Solution!\n");
            if (verbose >= 0) {
                int kw = sl.key_words;
                uint64_t *path = malloc((size_t)(D + 1) * (size_t)kw * sizeof *path);
                if (!path)
                    rc = sb_error_set(&err, SB_ENOMEM, 0, 0, "out of memory");
                else
                    rc = sb_search_path(srch, path, NULL, &err);
                for (int d = D - 1; d >= 1 && !rc; d--) {
                    printf("\n%d:\n", d);
                    print_board(&sl, path + (size_t)d * kw);
                }
                free(path);
            }
        }
        if (!rc)
            printf("solution: %d move%s\n", D, D == 1 ? "" : "s");
    } else if (!rc) {
        /* the last level found nothing new: its header, then the verdict */
        while (o.shown < in->nlevels[0]) {
            close_level(&o);
            printf("*** Distance %d:\n", ++o.shown);
        }
        printf("no solution: %llu configurations reachable\n", (unsigned long long)in->states);
    } else {
        printf("\n");
    }
    sb_search_free(srch);
    sb_slide_free(&sl);
    free(pz);
    if (rc == SB_EINTR && cli_output_failed())
        return 0; /* stopped for a write error, which main reports */
    if (rc)
        return cli_fail(rc == SB_EINTR ? NULL : "-", &err);
    return 0;
usage:
    fprintf(stderr, "Usage: sbfs style [verbose]\n");
    return cli_status(SB_EUSAGE);
}
