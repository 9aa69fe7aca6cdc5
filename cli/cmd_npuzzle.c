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

static void help(FILE *out)
{
    fprintf(out,
            "usage: sbfs npuzzle [OPTIONS] [FILE]\n"
            "Optimal solutions of R x C sliding-tile puzzles (2 <= R, C <= 5), one instance\n"
            "per line of FILE (or stdin): the tiles row by row, 0 or x for the blank.\n"
            "Prints '<length>TAB<moves>' per instance (moves: the direction the blank\n"
            "moves, u d l r) or 'unsolvable'; statistics go to stderr.\n\n"
            "  -g, --goal GOAL    blank-last (1..N then the blank, default) or blank-first\n"
            "  -s, --size RxC     board size (default: square, from the tile count)\n"
            "  -j, --jobs N       solve on N threads (default: the number of cores)\n"
            "  -v, --verbose      statistics on stdout, after each solution\n"
            "      --pdb NAME     4x4 partition: 663 (default unless 78 is cached), 78, or\n"
            "                     555 (weaker, builds in a moment)\n"
            "      --pdb-dir DIR  pattern database folder (default $XDG_CACHE_HOME/sbfs,\n"
            "                     else ~/.cache/sbfs)\n"
            "      --no-cache     build the databases in memory, read and write no files\n"
            "      --memory SIZE  memory budget (e.g. 4G)\n"
            "      --progress, --no-progress   progress line on stderr (default: on a tty)\n");
}

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

int cmd_npuzzle(int argc, char **argv)
{
    const char *file = NULL, *pdbname = NULL, *dirarg = NULL, *memarg = NULL;
    int goal = SB_NP_BLANK_LAST, rows = 0, cols = 0, jobs = 0, verbose = 0, nocache = 0;
    int progress = -1, status = 0, nsets = 0, cap = 0, njobs = 0;
    char dir[4096] = "", *linebuf = NULL;
    size_t linecap = 0, budget;
    FILE *in;
    sb_error err;
    sb_mem mem;
    sb_control ctl;
    cli_progress prog;
    sb_np_pdbset sets[8];
    sb_npt tables[8];
    int is_table[8] = {0};
    int setsize[8][2];
    job *jl = NULL;
    pool pl;
    pthread_t th[64];
    double t0;
    uint64_t total_nodes = 0;
    long total_len = 0;
    int solved = 0, unsolvable = 0, output_lost = 0;

    sb_error_clear(&err);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV() do { if (!v) return cli_usage_error("%s needs a value", a); i++; } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            help(stdout);
            return 0;
        } else if (!strcmp(a, "-g") || !strcmp(a, "--goal")) {
            NEEDV();
            if (!strcmp(v, "blank-last"))
                goal = SB_NP_BLANK_LAST;
            else if (!strcmp(v, "blank-first"))
                goal = SB_NP_BLANK_FIRST;
            else
                return cli_usage_error("unknown goal '%s' (blank-last or blank-first)", v);
        } else if (!strcmp(a, "-s") || !strcmp(a, "--size")) {
            NEEDV();
            if (!parse_size(v, &rows, &cols))
                return cli_usage_error("bad size '%s' (RxC, 2 <= R, C <= 5)", v);
        } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
            NEEDV();
            jobs = atoi(v);
            if (jobs < 1 || jobs > 64)
                return cli_usage_error("bad job count '%s' (1..64)", v);
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            verbose = 1;
        } else if (!strcmp(a, "--pdb")) {
            NEEDV();
            if (strcmp(v, "663") && strcmp(v, "78") && strcmp(v, "555"))
                return cli_usage_error("unknown partition '%s' (663, 78 or 555)", v);
            pdbname = v;
        } else if (!strcmp(a, "--pdb-dir")) {
            NEEDV();
            dirarg = v;
        } else if (!strcmp(a, "--no-cache")) {
            nocache = 1;
        } else if (!strcmp(a, "--memory")) {
            NEEDV();
            memarg = v;
        } else if (!strcmp(a, "--progress")) {
            progress = 1;
        } else if (!strcmp(a, "--no-progress")) {
            progress = 0;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown option '%s'", a);
        } else if (file) {
            return cli_usage_error("more than one input file");
        } else
            file = a;
#undef NEEDV
    }
    if (cli_memory_budget(memarg, &budget, &err))
        return cli_fail(NULL, &err);
    sb_mem_init(&mem, budget);
    if (jobs == 0) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = nc < 1 ? 1 : nc > 64 ? 64 : (int)nc;
    }
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

    /* Read and check every instance before solving any.  The instances
     * are held in memory taken from the budget, so --memory bounds the
     * input as well and the peak reported is all the run took. */
    in = cli_open(file, &err);
    if (!in)
        return cli_fail(NULL, &err);
    for (int line = 1; !cli_interrupted(); line++) {
        ssize_t got = getline(&linebuf, &linecap, in);
        char *s;
        int k;
        if (got < 0) {
            if (cli_read_check(in, file, &err)) {
                free(linebuf);
                sb_mem_free(&mem, jl, sizeof *jl * (size_t)cap);
                cli_close(in);
                return cli_fail(NULL, &err);
            }
            break;
        }
        if (memchr(linebuf, 0, (size_t)got)) {
            nul_token(linebuf, (size_t)got, line, &err);
            goto fail_input;
        }
        s = linebuf + strspn(linebuf, " \t\r\n");
        if (!*s || *s == '#')
            continue;
        if (njobs == cap) {
            size_t was = sizeof *jl * (size_t)cap, now = was ? 2 * was : 64 * sizeof *jl;
            job *nj = sb_mem_realloc(&mem, jl, was, now, &err);
            if (!nj) {
                if (err.code == SB_ENOMEM)
                    sb_error_set(&err, SB_ENOMEM, line, 1,
                                 "%d instances read, and the next ones do not fit in the memory "
                                 "budget (see --memory)", njobs);
                goto fail_input;
            }
            jl = nj;
            cap = (int)(now / sizeof *jl);
        }
        memset(&jl[njobs], 0, sizeof *jl);
        jl[njobs].line = line;
        if (sb_np_parse_line(linebuf, line, rows, cols, &jl[njobs].p, &err))
            goto fail_input;
        /* Parity first: an unsolvable instance needs no tables, so a board
         * size seen only in unsolvable instances builds none. */
        if (!sb_np_solvable(&jl[njobs].p, goal)) {
            jl[njobs++].set = -1;
            continue;
        }
        for (k = 0; k < nsets; k++)
            if (setsize[k][0] == jl[njobs].p.rows && setsize[k][1] == jl[njobs].p.cols)
                break;
        if (k == nsets) {
            if (nsets == 8) {
                sb_error_set(&err, SB_EINPUT, line, 1, "too many different board sizes in one input");
                goto fail_input;
            }
            setsize[nsets][0] = jl[njobs].p.rows;
            setsize[nsets][1] = jl[njobs].p.cols;
            nsets++;
        }
        jl[njobs++].set = k;
    }
    free(linebuf);
    linebuf = NULL;
    cli_close(in);
    if (cli_interrupted()) {
        sb_mem_free(&mem, jl, sizeof *jl * (size_t)cap);
        return cli_fail(NULL, &(sb_error){SB_EINTR, 0, 0, "interrupted"});
    }

    cli_control_init(&ctl, &prog, progress);
    for (int k = 0; k < nsets; k++) {
        int r = setsize[k][0], c = setsize[k][1];
        const char *part = "auto";
        if (r * c <= 9) {
            /* 3 x 3 and smaller: the whole God's table, built in milliseconds */
            double tb = sb_now();
            if (sb_npt_init(&tables[k], r, c, &err) ||
                sb_npt_build(&tables[k], NULL, &mem, &ctl, &err)) {
                for (int q = 0; q < k; q++)
                    is_table[q] ? sb_npt_free(&tables[q]) : sb_np_pdbset_close(&sets[q]);
                cli_control_done(&ctl, &prog);
                sb_mem_free(&mem, jl, sizeof *jl * (size_t)cap);
                return cli_fail(NULL, &err);
            }
            is_table[k] = 1;
            fprintf(verbose ? stdout : stderr,
                    "# %dx%d: God's table, %llu positions, %.1f MB, built in %.3f s\n", r, c,
                    (unsigned long long)tables[k].size, tables[k].table.data_bytes / 1e6, sb_now() - tb);
            continue;
        }
        if (r == 4 && c == 4)
            part = pdbname ? pdbname : sb_np_pdbset_cached(4, 4, "78", *dir ? dir : NULL) ? "78" : "663";
        else if (pdbname)
            fprintf(stderr, "sbfs: --pdb %s applies to 4x4 boards; %dx%d uses its own partition\n",
                    pdbname, r, c);
        if (sb_np_pdbset_open(&sets[k], r, c, part, *dir ? dir : NULL, (uint64_t)1 << 16, jobs, &mem, &ctl,
                              note, &prog, &err)) {
            for (int q = 0; q < k; q++)
                is_table[q] ? sb_npt_free(&tables[q]) : sb_np_pdbset_close(&sets[q]);
            cli_control_done(&ctl, &prog);
            sb_mem_free(&mem, jl, sizeof *jl * (size_t)cap);
            return cli_fail(NULL, &err);
        }
        fprintf(verbose ? stdout : stderr,
                "# %dx%d: partition %s, %d tables, %.1f MB, built %d in %.2f s, loaded %d in %.2f s\n", r,
                c, part, sets[k].heur.npdb, sets[k].bytes / 1e6, sets[k].built, sets[k].build_seconds,
                sets[k].loaded, sets[k].load_seconds);
    }

    memset(&pl, 0, sizeof pl);
    pl.jobs = jl;
    pl.njobs = njobs;
    pl.goal = goal;
    for (int k = 0; k < nsets; k++) {
        pl.heur[k] = is_table[k] ? NULL : &sets[k].heur;
        pl.table[k] = is_table[k] ? &tables[k] : NULL;
    }
    pl.ctl.stop = ctl.stop;
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    if (jobs > njobs)
        jobs = njobs > 0 ? njobs : 1;
    t0 = sb_now();
    for (int i = 0; i < jobs; i++)
        if (pthread_create(&th[i], NULL, worker, &pl) != 0) {
            jobs = i;
            break;
        }
    if (jobs == 0 && njobs > 0)
        worker(&pl);
    for (int i = 0; i < njobs; i++) {
        job *j = &jl[i];
        FILE *st = verbose ? stdout : stderr;
        pthread_mutex_lock(&pl.mu);
        while (!j->done) {
            struct timespec ts;
            if (sb_control_stopped(&ctl) && pl.next <= i)
                break; /* stopped before this one was started */
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 250000000;
            if (ts.tv_nsec >= 1000000000)
                ts.tv_sec++, ts.tv_nsec -= 1000000000;
            pthread_cond_timedwait(&pl.cv, &pl.mu, &ts);
            if (ctl.progress) {
                sb_progress_info info = {"solving", -1, (uint64_t)pl.finished, (uint64_t)njobs,
                                         mem.used};
                ctl.progress(ctl.ud, &info);
            }
        }
        pthread_mutex_unlock(&pl.mu);
        if (!j->done) {
            sb_error_set(&err, SB_EINTR, 0, 0, "interrupted");
            status = cli_fail(NULL, &err);
            break;
        }
        cli_progress_clear(&prog);
        if (j->rc) {
            status = cli_fail(NULL, &j->err);
            if (j->rc == SB_EINTR)
                break;
            continue;
        }
        if (j->res.length < 0) {
            printf("unsolvable\n");
            unsolvable++;
        } else {
            printf("%d\t%s\n", j->res.length, j->res.moves);
            solved++;
            total_len += j->res.length;
        }
        total_nodes += j->res.nodes;
        cli_flush();
        if (j->res.length < 0)
            fprintf(st, "# %d: line %d, unsolvable\n", i + 1, j->line);
        else
            fprintf(st, "# %d: line %d, %d moves, %llu nodes, %.3f s\n", i + 1, j->line,
                    j->res.length, (unsigned long long)j->res.nodes, j->seconds);
        if (cli_output_failed()) {
            /* nobody reads the answers: stop the workers; main reports */
            cli_request_stop();
            output_lost = 1;
            break;
        }
    }
    /* on Ctrl-C the workers see the stop flag and return */
    for (int i = 0; i < jobs; i++)
        pthread_join(th[i], NULL);
    cli_control_done(&ctl, &prog);
    if (status == 0 && !output_lost) {
        double sec = sb_now() - t0;
        fprintf(verbose ? stdout : stderr,
                "# %d instances: %d solved (%ld moves in all), %d unsolvable, %llu nodes, %.3f s, "
                "%d threads, peak memory %.1f MB\n",
                njobs, solved, total_len, unsolvable, (unsigned long long)total_nodes, sec, jobs,
                mem.peak / 1e6);
    }
    pthread_mutex_destroy(&pl.mu);
    pthread_cond_destroy(&pl.cv);
    for (int k = 0; k < nsets; k++)
        is_table[k] ? sb_npt_free(&tables[k]) : sb_np_pdbset_close(&sets[k]);
    sb_mem_free(&mem, jl, sizeof *jl * (size_t)cap);
    return status;

fail_input:
    free(linebuf);
    sb_mem_free(&mem, jl, sizeof *jl * (size_t)cap);
    cli_close(in);
    return cli_fail(file ? file : "-", &err);
}
