/* sbfs npuzzle: optimal solutions of R x C sliding-tile puzzles, one
 * instance per input line, solved by the library's batch solver on as many
 * threads as asked; results come out in input order. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "sbfs/npuzzle.h"
#include "view.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct np_opts {
    const char *goal, *size, *pdb, *pdbdir, *memarg;
    int jobs, verbose, nocache, progress, verify;
    int json;
    const char *html;
} np_opts;

static const cli_opt options[] = {
    {'g', "goal", CLI_STR, offsetof(np_opts, goal), 0, 0, "GOAL",
     "blank-last (1..N then the blank, default) or blank-first"},
    {'s', "size", CLI_STR, offsetof(np_opts, size), 0, 0, "RxC", "board size (default: square, from the tile count)"},
    CLI_OPT_THREADS(np_opts, jobs, "solve on N threads (default: the number of cores)"),
    {0, "jobs", CLI_INT, offsetof(np_opts, jobs), 1, 64, "N", NULL}, /* the older name of --threads */
    CLI_OPT_VERBOSE(np_opts, verbose, "statistics on stdout, after each solution"),
    {0, "pdb", CLI_STR, offsetof(np_opts, pdb), 0, 0, "NAME",
     "4x4 partition: 663 (default unless 78 is cached), 78, or\n555 (weaker, builds in a moment); 5x5: 6666\n(default when cached, else five-tile rows)"},
    {0, "pdb-dir", CLI_STR, offsetof(np_opts, pdbdir), 0, 0, "DIR",
     "pattern database folder (default $XDG_CACHE_HOME/sbfs,\nelse ~/.cache/sbfs)"},
    {0, "no-cache", CLI_FLAG, offsetof(np_opts, nocache), 1, 0, NULL,
     "build the databases in memory, read and write no files"},
    {0, "verify-cache", CLI_FLAG, offsetof(np_opts, verify), 1, 0, NULL,
     "check every cached pattern database in full, remove damaged\nones, and exit (no FILE read)"},
    CLI_OPT_MEMORY(np_opts, memarg),
    CLI_OPT_PROGRESS(np_opts, progress),
    CLI_OPT_JSON(np_opts, json, "one JSON object a line per instance (statistics stay on stderr)"),
    {0, "html", CLI_STR, offsetof(np_opts, html), 0, 0, "FILE",
     "also write the first solution as a page to FILE: the board,\nstepped through the moves"},
    {0},
};

static const cli_cmd command = {
    "npuzzle", "[OPTIONS] [FILE]",
    "Optimal solutions of R x C sliding-tile puzzles (2 <= R, C <= 5), one instance\n"
    "per line of FILE (or stdin): the tiles row by row, 0 or x for the blank.\n"
    "Prints '<length>TAB<moves>' per instance (moves: the direction the blank\n"
    "moves, u d l r) or 'unsolvable'; statistics go to stderr.\n",
    options, NULL, 1, 0,
};

static void note(void *ud, const char *msg)
{
    cli_note(ud, msg);
}

/* A line holding a NUL byte, which the line parser (C strings) would take
 * for the end: the token around the first one is no tile, and is quoted
 * with the NUL shown as \0. */
static int nul_token(const char *line, size_t n, int lineno, sb_error *err)
{
    size_t z = (size_t)((const char *)memchr(line, 0, n) - line), a = z, b = z;
    char q[48];
    while (a > 0 && !strchr(" \t\r\n,", line[a - 1]))
        a--;
    while (b < n && (line[b] == 0 || !strchr(" \t\r\n,", line[b])))
        b++;
    return sb_error_set(err, SB_EINPUT, lineno, (int)a + 1,
                        "'%s' is not a tile (numbers, 0 or x for the blank)",
                        sb_error_quote(q, sizeof q, line + a, b - a));
}

/* RxC with 2 <= R, C <= 5; digits only, so that no number overflows. */
static int parse_size(const char *s, int *r, int *c)
{
    if (s[0] < '2' || s[0] > '5' || (s[1] != 'x' && s[1] != 'X') || s[2] < '2' || s[2] > '5' || s[3])
        return 0;
    *r = s[0] - '0';
    *c = s[2] - '0';
    return 1;
}

/* Instances read and solved at a time, at most: fewer when the budget is
 * short, one at a time from a terminal (each line answered as typed). */
#define BATCH 1024

/* One run of sbfs npuzzle: its settings, the solver of each board size
 * met so far (solvers 0..built-1 are made), the budget and the totals. */
typedef struct npr {
    int goal, jobs, verbose, rows, cols;
    const char *pdbname, *dir;
    sb_mem mem;
    sb_control ctl;
    cli_progress prog;
    int nsets, built;
    int setsize[8][2];
    int set_of_job[BATCH];
    sb_np_solver *solver[8];
    const sb_table *god[8]; /* each size's God's table, NULL for pattern databases */
    int count, solved, unsolvable, lost, status;
    int json;
    const char *html; /* the page of the first solution, not written yet; NULL once written */
    uint64_t nodes;
    long total_len;
    uint64_t last_done; /* progress: nodes of the search shown last */
    void (*prog_show)(void *, const sb_progress_info *);
} npr;

/* Read up to `batch` instances into jl (*n of them), checking each and
 * noting the board sizes not met before.  Returns 0 (*eof set at the end
 * of the input), or an SB_E* code with err filled: the instances read
 * before the bad line are in jl all the same. */
static int read_batch(npr *r, cli_input *in, sb_np_job *jl, int batch, int *n, int *eof, sb_error *err)
{
    sb_error_clear(err);
    *n = 0;
    while (*n < batch) {
        const char *line;
        size_t len;
        if (cli_interrupted())
            return sb_error_set(err, SB_EINTR, 0, 0, "interrupted");
        int rc = cli_input_line(in, &line, &len, err);
        if (rc <= 0) {
            *eof = 1;
            return rc;
        }
        if (memchr(line, 0, len))
            return nul_token(line, len, in->line, err);
        const char *s = line + strspn(line, " \t\r\n");
        if (!*s || *s == '#')
            continue;
        sb_np_job *j = &jl[*n];
        memset(j, 0, sizeof *j);
        j->tag = in->line;
        if (sb_np_parse_line(line, in->line, r->rows, r->cols, &j->p, err))
            return err->code;
        ++*n;
        /* Parity first: an unsolvable instance needs no tables, so a board
         * size seen only in unsolvable instances builds none. */
        if (!sb_np_solvable(&j->p, r->goal)) {
            r->set_of_job[*n - 1] = -1;
            continue;
        }
        int k;
        for (k = 0; k < r->nsets; k++)
            if (r->setsize[k][0] == j->p.rows && r->setsize[k][1] == j->p.cols)
                break;
        if (k == r->nsets) {
            if (r->nsets == 8) {
                --*n;
                return sb_error_set(err, SB_EINPUT, in->line, 1, "too many different board sizes in one input");
            }
            r->setsize[k][0] = j->p.rows;
            r->setsize[k][1] = j->p.cols;
            r->nsets++;
        }
        r->set_of_job[*n - 1] = k;
    }
    return 0;
}

/* Make the solvers of the board sizes met since the last call. */
static int open_tables(npr *r, sb_error *err)
{
    for (; r->built < r->nsets; r->built++) {
        int k = r->built, rr = r->setsize[k][0], c = r->setsize[k][1];
        FILE *st = r->verbose && !r->json ? stdout : stderr;
        sb_np_solver_opts o = {NULL, *r->dir ? r->dir : NULL, r->jobs, 0, note, &r->prog};
        sb_np_solver_info in;
        /* NULL: 78 when cached, else 663 (4x4); 6666 when cached, else
         * auto (5x5) */
        int five = r->pdbname && !strcmp(r->pdbname, "6666");
        if ((rr == 4 && c == 4 && !five) || (rr == 5 && c == 5 && five))
            o.partition = r->pdbname;
        else if (r->pdbname && rr * c > 9)
            fprintf(stderr, "sbfs: --pdb %s applies to %s boards; %dx%d uses its own partition\n",
                    r->pdbname, five ? "5x5" : "4x4", rr, c);
        r->solver[k] = sb_np_solver_open(rr, c, &o, &r->mem, &r->ctl, &in, err);
        if (!r->solver[k])
            return err->code;
        cli_progress_clear(&r->prog);
        r->god[k] = in.table;
        if (in.god)
            fprintf(st, "# %dx%d: God's table, %llu positions, %.1f MB, built in %.3f s\n", rr, c,
                    (unsigned long long)in.positions, in.bytes / 1e6, in.build_seconds);
        else
            fprintf(st, "# %dx%d: partition %s, %d tables, %.1f MB, built %d in %.2f s, loaded %d in %.2f s\n",
                    rr, c, in.partition, in.tables, in.bytes / 1e6, in.built, in.build_seconds,
                    in.loaded, in.load_seconds);
    }
    return 0;
}

/* One instance as a JSON object on a line of its own. */
static void print_json(const sb_np_job *j)
{
    sb_npuzzle q = j->p, *p = &q; /* stepped through the moves */
    printf("{\"command\": \"npuzzle\", \"line\": %d, \"rows\": %d, \"cols\": %d, \"tiles\": [", j->tag, p->rows,
           p->cols);
    for (int i = 0; i < p->n; i++)
        printf("%s%d", i ? ", " : "", p->cell[i]);
    printf("], \"solvable\": %s", j->res.length < 0 ? "false" : "true");
    if (j->res.length < 0) {
        printf(", \"length\": null}\n");
        return;
    }
    printf(", \"length\": %d, \"nodes\": %llu, \"moves\": [", j->res.length, (unsigned long long)j->res.nodes);
    for (int i = 0; j->res.moves[i]; i++) {
        printf("%s", i ? ", " : "");
        view_np_move_json(stdout, p, j->res.moves[i]);
    }
    printf("]}\n");
}

/* --html: the first solution drawn, with the God's table of its board size
 * for the chart when it has one (3 x 3 and smaller). */
static int write_page(npr *r, const sb_np_job *j, const sb_table *god)
{
    view v;
    sb_error err;
    uint64_t hist[256];
    int nh = 0;
    sb_error_clear(&err);
    if (god) {
        sb_table_info in = sb_table_about(god);
        for (nh = 0; nh < in.levels && nh < 256; nh++)
            hist[nh] = sb_table_count(god, nh);
    }
    int rc = view_npuzzle(&v, &j->p, r->goal, j->res.moves, nh ? hist : NULL, nh, &err);
    if (!rc)
        rc = view_write_html(&v, r->html, &err);
    view_free(&v);
    r->html = NULL;
    return rc ? cli_fail(NULL, &err) : 0;
}

/* One answer, in input order (called by the library's batch). */
static int deliver(void *ud, sb_np_job *j)
{
    npr *r = ud;
    FILE *st = r->verbose && !r->json ? stdout : stderr;
    cli_progress_clear(&r->prog);
    r->count++;
    if (j->rc) {
        r->status = cli_fail(NULL, &j->err);
        return j->rc == SB_EINTR;
    }
    if (r->json)
        print_json(j);
    else if (j->res.length < 0)
        printf("unsolvable\n");
    else
        printf("%d\t%s\n", j->res.length, j->res.moves);
    if (j->res.length < 0) {
        r->unsolvable++;
    } else {
        r->solved++;
        r->total_len += j->res.length;
    }
    r->nodes += j->res.nodes;
    if (r->html && j->res.length >= 0) {
        const sb_table *god = NULL;
        for (int k = 0; k < r->built; k++)
            if (r->solver[k] == j->solver)
                god = r->god[k];
        if ((r->status = write_page(r, j, god)))
            return 1;
    }
    cli_flush();
    if (j->res.length < 0)
        fprintf(st, "# %d: line %d, unsolvable\n", r->count, j->tag);
    else
        fprintf(st, "# %d: line %d, %d moves, %llu nodes, %.3f s\n", r->count, j->tag, j->res.length,
                (unsigned long long)j->res.nodes, j->seconds);
    if (cli_output_failed()) {
        /* nobody reads the answers: stop the workers; main reports */
        cli_request_stop();
        r->lost = 1;
        return 1;
    }
    return 0;
}

/* The progress line of a search: the IDA* threshold and nodes a second,
 * counted from the start of the search shown (a smaller count than the
 * last one shown means another search). */
static void np_progress(void *ud, const sb_progress_info *in)
{
    npr *r = ud;
    char phase[64];
    sb_progress_info out = *in;
    if (in->phase && !strcmp(in->phase, "ida*")) {
        if (in->done < r->last_done)
            r->prog.start = sb_now();
        r->last_done = in->done;
        snprintf(phase, sizeof phase, "ida* threshold %d", in->level);
        out.phase = phase;
        out.level = -1;
        out.mem_used = r->mem.used;
    }
    r->prog_show(&r->prog, &out);
}

/* Solve jl[0..n) on the threads and print the answers in input order.
 * Returns 0 or the exit status of the first failure (message printed);
 * sets r->lost when the output can no longer be written. */
static int solve_batch(npr *r, sb_np_job *jl, int n)
{
    sb_control ctl = r->ctl;
    int rc;
    for (int i = 0; i < n; i++)
        jl[i].solver = r->set_of_job[i] < 0 ? NULL : r->solver[r->set_of_job[i]];
    r->status = 0;
    ctl.progress = np_progress;
    ctl.ud = r;
    rc = sb_np_solve_batch(jl, n, r->goal, r->jobs, deliver, r, &ctl);
    cli_progress_clear(&r->prog);
    if (rc == SB_EINTR && !r->status && !r->lost) {
        sb_error e;
        sb_error_set(&e, SB_EINTR, 0, 0, "interrupted");
        r->status = cli_fail(NULL, &e);
    }
    return r->status;
}

/* sbfs npuzzle --verify-cache: every table in the folder read whole. */
static int verify_cache(const char *dir)
{
    sb_error err;
    int bad = 0, n;
    if (!*dir) {
        sb_error_set(&err, SB_EUSAGE, 0, 0, "--verify-cache: no cache folder");
        return cli_fail(NULL, &err);
    }
    n = sb_np_verify_cache(dir, note, NULL, &bad, &err);
    if (n < 0)
        return cli_fail(NULL, &err);
    fprintf(stderr, "# %s: %d pattern databases checked, %d damaged and removed\n", dir, n, bad);
    return bad ? 7 : 0;
}

int cmd_npuzzle(int argc, char **argv)
{
    const char *file = NULL;
    np_opts o = {NULL, NULL, NULL, NULL, NULL, 0, 0, 0, -1, 0, 0, NULL};
    int goal = SB_NP_BLANK_LAST, rows = 0, cols = 0, nops = 0, status = 0;
    char dir[4096] = "";
    size_t budget;
    cli_input in;
    sb_error err;
    static npr r; /* large: the tables of eight board sizes */
    sb_np_job *jl;

    sb_error_clear(&err);
    if ((status = cli_parse(&command, argc, argv, &o, &file, &nops)) >= 0)
        return status;
    status = 0;
    if (!nops)
        file = NULL;
    if (o.goal && !strcmp(o.goal, "blank-first"))
        goal = SB_NP_BLANK_FIRST;
    else if (o.goal && strcmp(o.goal, "blank-last"))
        return cli_usage_error_in(command.name, "npuzzle: unknown goal '%s' (blank-last or blank-first)", o.goal);
    if (o.size && !parse_size(o.size, &rows, &cols))
        return cli_usage_error_in(command.name, "npuzzle: bad size '%s' (RxC, 2 <= R, C <= 5)", o.size);
    if (o.pdb && strcmp(o.pdb, "663") && strcmp(o.pdb, "78") && strcmp(o.pdb, "555") && strcmp(o.pdb, "6666"))
        return cli_usage_error_in(command.name, "npuzzle: unknown partition '%s' (663, 78, 555 or 6666)",
                                  o.pdb);
    const char *pdbname = o.pdb, *dirarg = o.pdbdir, *memarg = o.memarg;
    int jobs = o.jobs, verbose = o.verbose, nocache = o.nocache, progress = o.progress;
    if (cli_memory_budget(memarg, &budget, &err))
        return cli_fail(NULL, &err);
    memset(&r, 0, sizeof r);
    sb_mem_init(&r.mem, budget);
    if (jobs == 0)
        jobs = sb_pool_threads(0);
    r.goal = goal;
    r.jobs = jobs;
    r.verbose = verbose;
    r.rows = rows;
    r.cols = cols;
    r.pdbname = pdbname;
    r.json = o.json;
    r.html = o.html;
    r.dir = dir;
    if (!nocache)
        cli_cache_dir(dirarg, dir, sizeof dir, "pattern databases");

    if (o.verify)
        return verify_cache(dir);

    /* The input is a stream: a batch of instances is read and checked,
     * the tables of any new board size are made, the batch is solved on
     * the threads and printed, then the next batch is read.  The batch
     * is held in memory taken from the budget (smaller when the budget is
     * short), so the peak reported is all the run took, and an input of
     * any length runs in the same room.  A bad line stops the run after
     * the lines before it are answered. */
    if (cli_input_open(&in, file, 0, &err))
        return cli_fail(NULL, &err);
    /* an eighth of the budget at most: the rest is for the tables */
    size_t room = sb_mem_left(&r.mem) / 8 / sizeof *jl;
    int batch = isatty(fileno(in.f)) || room < 1 ? 1 : room < BATCH ? (int)room : BATCH;
    jl = sb_mem_alloc(&r.mem, sizeof *jl * (size_t)batch, &err);
    if (!jl) {
        cli_input_close(&in);
        return cli_fail(NULL, &err);
    }
    cli_control_init(&r.ctl, &r.prog, progress);
    r.prog_show = r.ctl.progress;
    double t0 = sb_now();
    int eof = 0;
    while (!eof && !status && !r.lost) {
        sb_error rerr;
        int n = 0, rc = read_batch(&r, &in, jl, batch, &n, &eof, &rerr);
        if (n && open_tables(&r, &err))
            status = cli_fail(NULL, &err);
        if (n && !status)
            status = solve_batch(&r, jl, n);
        if (rc && !status && !r.lost) {
            cli_progress_clear(&r.prog);
            status = cli_fail(rc == SB_EINPUT || rc == SB_ENOMEM ? (file ? file : "-") : NULL, &rerr);
        }
    }
    cli_input_close(&in);
    cli_control_done(&r.ctl, &r.prog);
    if (status == 0 && !r.lost)
        fprintf(verbose && !o.json ? stdout : stderr,
                "# %d instances: %d solved (%ld moves in all), %d unsolvable, %llu nodes, %.3f s, "
                "%d threads, peak memory %.1f MB\n",
                r.count, r.solved, r.total_len, r.unsolvable, (unsigned long long)r.nodes, sb_now() - t0,
                jobs, r.mem.peak / 1e6);
    for (int k = 0; k < r.built; k++)
        sb_np_solver_close(r.solver[k]);
    sb_mem_free(&r.mem, jl, sizeof *jl * (size_t)batch);
    return status;
}
