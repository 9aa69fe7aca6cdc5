/* sbfs npuzzle: optimal solutions of R x C sliding-tile puzzles, one
 * instance per input line, solved by IDA* over pattern databases on as many
 * threads as asked; results come out in input order. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct np_opts {
    const char *goal, *size, *pdb, *pdbdir, *memarg;
    int jobs, verbose, nocache, progress;
} np_opts;

static const cli_opt options[] = {
    {'g', "goal", CLI_STR, offsetof(np_opts, goal), 0, 0, "GOAL",
     "blank-last (1..N then the blank, default) or blank-first"},
    {'s', "size", CLI_STR, offsetof(np_opts, size), 0, 0, "RxC", "board size (default: square, from the tile count)"},
    CLI_OPT_THREADS(np_opts, jobs, "solve on N threads (default: the number of cores)"),
    {0, "jobs", CLI_INT, offsetof(np_opts, jobs), 1, 64, "N", NULL}, /* the older name of --threads */
    CLI_OPT_VERBOSE(np_opts, verbose, "statistics on stdout, after each solution"),
    {0, "pdb", CLI_STR, offsetof(np_opts, pdb), 0, 0, "NAME",
     "4x4 partition: 663 (default unless 78 is cached), 78, or\n555 (weaker, builds in a moment)"},
    {0, "pdb-dir", CLI_STR, offsetof(np_opts, pdbdir), 0, 0, "DIR",
     "pattern database folder (default $XDG_CACHE_HOME/sbfs,\nelse ~/.cache/sbfs)"},
    {0, "no-cache", CLI_FLAG, offsetof(np_opts, nocache), 1, 0, NULL,
     "build the databases in memory, read and write no files"},
    CLI_OPT_MEMORY(np_opts, memarg),
    CLI_OPT_PROGRESS(np_opts, progress),
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

typedef struct job {
    sb_npuzzle p;
    int line, set; /* set: index of the board's tables, -1 when unsolvable */
    sb_np_result res;
    double seconds;
    int rc, done;
    sb_error err;
} job;

typedef struct pool {
    job *jobs;
    int njobs, next, finished;
    int goal;
    const sb_np_heur *heur[8];
    const sb_npt *table[8]; /* God's tables for the small boards, else NULL */
    sb_control ctl; /* stop flag only: progress is shown by the main thread */
    pthread_mutex_t mu;
    pthread_cond_t cv;
} pool;

static void *worker(void *arg)
{
    pool *pl = arg;
    for (;;) {
        job *j;
        double t0;
        pthread_mutex_lock(&pl->mu);
        if (pl->next == pl->njobs || sb_control_stopped(&pl->ctl)) {
            pthread_mutex_unlock(&pl->mu);
            return NULL;
        }
        j = &pl->jobs[pl->next++];
        pthread_mutex_unlock(&pl->mu);
        t0 = sb_now();
        if (j->set < 0) {
            /* decided by parity when it was read: no tables, no search */
            j->res.length = -1;
            j->rc = 0;
        } else if (pl->table[j->set]) {
            pthread_mutex_lock(&pl->mu);
            j->rc = sb_np_solve_table(pl->table[j->set], &j->p, pl->goal, &j->res, &j->err);
            pthread_mutex_unlock(&pl->mu);
        } else
            j->rc = sb_np_solve(pl->heur[j->set], &j->p, pl->goal, &j->res, &pl->ctl, &j->err);
        j->seconds = sb_now() - t0;
        pthread_mutex_lock(&pl->mu);
        j->done = 1;
        pl->finished++;
        pthread_cond_broadcast(&pl->cv);
        pthread_mutex_unlock(&pl->mu);
    }
}

static void note(void *ud, const char *msg)
{
    cli_note(ud, msg);
}

static int make_dirs(const char *dir)
{
    char buf[4096];
    size_t n = strlen(dir);
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, dir, n + 1);
    for (size_t i = 1; i <= n; i++)
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            buf[i] = c;
        }
    return 0;
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

/* One run of sbfs npuzzle: its settings, the tables of each board size
 * met so far (sets 0..built-1 are made), the budget and the totals. */
typedef struct npr {
    int goal, jobs, verbose, rows, cols;
    const char *pdbname, *dir;
    sb_mem mem;
    sb_control ctl;
    cli_progress prog;
    int nsets, built;
    int setsize[8][2];
    int is_table[8];
    sb_np_pdbset sets[8];
    sb_npt tables[8];
    int count, solved, unsolvable, lost;
    uint64_t nodes;
    long total_len;
} npr;

/* Read up to `batch` instances into jl (*n of them), checking each and
 * noting the board sizes not met before.  Returns 0 (*eof set at the end
 * of the input), or an SB_E* code with err filled: the instances read
 * before the bad line are in jl all the same. */
static int read_batch(npr *r, cli_input *in, job *jl, int batch, int *n, int *eof, sb_error *err)
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
        job *j = &jl[*n];
        memset(j, 0, sizeof *j);
        j->line = in->line;
        if (sb_np_parse_line(line, in->line, r->rows, r->cols, &j->p, err))
            return err->code;
        ++*n;
        /* Parity first: an unsolvable instance needs no tables, so a board
         * size seen only in unsolvable instances builds none. */
        if (!sb_np_solvable(&j->p, r->goal)) {
            j->set = -1;
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
        j->set = k;
    }
    return 0;
}

/* Make the tables of the board sizes met since the last call. */
static int open_tables(npr *r, sb_error *err)
{
    for (; r->built < r->nsets; r->built++) {
        int k = r->built, rr = r->setsize[k][0], c = r->setsize[k][1];
        FILE *st = r->verbose ? stdout : stderr;
        const char *part = "auto";
        if (rr * c <= 9) {
            /* 3 x 3 and smaller: the whole God's table, built in milliseconds */
            double tb = sb_now();
            if (sb_npt_init(&r->tables[k], rr, c, err))
                return err->code;
            if (sb_npt_build(&r->tables[k], NULL, &r->mem, &r->ctl, err)) {
                sb_npt_free(&r->tables[k]);
                return err->code;
            }
            r->is_table[k] = 1;
            cli_progress_clear(&r->prog);
            fprintf(st, "# %dx%d: God's table, %llu positions, %.1f MB, built in %.3f s\n", rr, c,
                    (unsigned long long)r->tables[k].size, sb_table_about(r->tables[k].table).data_bytes / 1e6, sb_now() - tb);
            continue;
        }
        if (rr == 4 && c == 4)
            part = r->pdbname ? r->pdbname
                   : sb_np_pdbset_cached(4, 4, "78", *r->dir ? r->dir : NULL) ? "78" : "663";
        else if (r->pdbname)
            fprintf(stderr, "sbfs: --pdb %s applies to 4x4 boards; %dx%d uses its own partition\n",
                    r->pdbname, rr, c);
        if (sb_np_pdbset_open(&r->sets[k], rr, c, part, *r->dir ? r->dir : NULL, (uint64_t)1 << 16, r->jobs,
                              &r->mem, &r->ctl, note, &r->prog, err))
            return err->code;
        cli_progress_clear(&r->prog);
        fprintf(st, "# %dx%d: partition %s, %d tables, %.1f MB, built %d in %.2f s, loaded %d in %.2f s\n",
                rr, c, part, r->sets[k].heur.npdb, r->sets[k].bytes / 1e6, r->sets[k].built,
                r->sets[k].build_seconds, r->sets[k].loaded, r->sets[k].load_seconds);
    }
    return 0;
}

/* Solve jl[0..n) on the threads and print the answers in input order.
 * Returns 0 or the exit status of the first failure (message printed);
 * sets r->lost when the output can no longer be written. */
static int solve_batch(npr *r, job *jl, int n)
{
    pool pl;
    pthread_t th[64];
    int jobs = r->jobs < n ? r->jobs : n, status = 0;
    memset(&pl, 0, sizeof pl);
    pl.jobs = jl;
    pl.njobs = n;
    pl.goal = r->goal;
    for (int k = 0; k < r->built; k++) {
        pl.heur[k] = r->is_table[k] ? NULL : &r->sets[k].heur;
        pl.table[k] = r->is_table[k] ? &r->tables[k] : NULL;
    }
    pl.ctl.stop = r->ctl.stop;
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    for (int i = 0; i < jobs; i++)
        if (pthread_create(&th[i], NULL, worker, &pl) != 0) {
            jobs = i;
            break;
        }
    if (jobs == 0)
        worker(&pl);
    for (int i = 0; i < n; i++) {
        job *j = &jl[i];
        FILE *st = r->verbose ? stdout : stderr;
        pthread_mutex_lock(&pl.mu);
        while (!j->done) {
            struct timespec ts;
            if (sb_control_stopped(&r->ctl) && pl.next <= i)
                break; /* stopped before this one was started */
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 250000000;
            if (ts.tv_nsec >= 1000000000)
                ts.tv_sec++, ts.tv_nsec -= 1000000000;
            pthread_cond_timedwait(&pl.cv, &pl.mu, &ts);
            if (r->ctl.progress) {
                sb_progress_info info = {"solving", -1, (uint64_t)(r->count + pl.finished), 0, r->mem.used, 0, 0};
                r->ctl.progress(r->ctl.ud, &info);
            }
        }
        pthread_mutex_unlock(&pl.mu);
        cli_progress_clear(&r->prog);
        if (!j->done) {
            sb_error e;
            sb_error_set(&e, SB_EINTR, 0, 0, "interrupted");
            status = cli_fail(NULL, &e);
            break;
        }
        r->count++;
        if (j->rc) {
            status = cli_fail(NULL, &j->err);
            if (j->rc == SB_EINTR)
                break;
            continue;
        }
        if (j->res.length < 0) {
            printf("unsolvable\n");
            r->unsolvable++;
        } else {
            printf("%d\t%s\n", j->res.length, j->res.moves);
            r->solved++;
            r->total_len += j->res.length;
        }
        r->nodes += j->res.nodes;
        cli_flush();
        if (j->res.length < 0)
            fprintf(st, "# %d: line %d, unsolvable\n", r->count, j->line);
        else
            fprintf(st, "# %d: line %d, %d moves, %llu nodes, %.3f s\n", r->count, j->line, j->res.length,
                    (unsigned long long)j->res.nodes, j->seconds);
        if (cli_output_failed()) {
            /* nobody reads the answers: stop the workers; main reports */
            cli_request_stop();
            r->lost = 1;
            break;
        }
    }
    /* on Ctrl-C the workers see the stop flag and return */
    for (int i = 0; i < jobs; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&pl.mu);
    pthread_cond_destroy(&pl.cv);
    return status;
}

int cmd_npuzzle(int argc, char **argv)
{
    const char *file = NULL;
    np_opts o = {NULL, NULL, NULL, NULL, NULL, 0, 0, 0, -1};
    int goal = SB_NP_BLANK_LAST, rows = 0, cols = 0, nops = 0, status = 0;
    char dir[4096] = "";
    size_t budget;
    cli_input in;
    sb_error err;
    static npr r; /* large: the tables of eight board sizes */
    job *jl;

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
    if (o.pdb && strcmp(o.pdb, "663") && strcmp(o.pdb, "78") && strcmp(o.pdb, "555"))
        return cli_usage_error_in(command.name, "npuzzle: unknown partition '%s' (663, 78 or 555)", o.pdb);
    const char *pdbname = o.pdb, *dirarg = o.pdbdir, *memarg = o.memarg;
    int jobs = o.jobs, verbose = o.verbose, nocache = o.nocache, progress = o.progress;
    if (cli_memory_budget(memarg, &budget, &err))
        return cli_fail(NULL, &err);
    memset(&r, 0, sizeof r);
    sb_mem_init(&r.mem, budget);
    if (jobs == 0) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = nc < 1 ? 1 : nc > 64 ? 64 : (int)nc;
    }
    r.goal = goal;
    r.jobs = jobs;
    r.verbose = verbose;
    r.rows = rows;
    r.cols = cols;
    r.pdbname = pdbname;
    r.dir = dir;
    if (!nocache) {
        const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (dirarg)
            snprintf(dir, sizeof dir, "%s", dirarg);
        else if (x && *x)
            snprintf(dir, sizeof dir, "%s/sbfs", x);
        else if (home && *home)
            snprintf(dir, sizeof dir, "%s/.cache/sbfs", home);
        if (*dir && make_dirs(dir) != 0) {
            fprintf(stderr, "sbfs: cannot create %s (%s): pattern databases will not be cached\n", dir,
                    strerror(errno));
            *dir = 0;
        }
    }

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
        fprintf(verbose ? stdout : stderr,
                "# %d instances: %d solved (%ld moves in all), %d unsolvable, %llu nodes, %.3f s, "
                "%d threads, peak memory %.1f MB\n",
                r.count, r.solved, r.total_len, r.unsolvable, (unsigned long long)r.nodes, sb_now() - t0,
                jobs, r.mem.peak / 1e6);
    for (int k = 0; k < r.built; k++)
        r.is_table[k] ? sb_npt_free(&r.tables[k]) : sb_np_pdbset_close(&r.sets[k]);
    sb_mem_free(&r.mem, jl, sizeof *jl * (size_t)batch);
    return status;
}
