/* The n-puzzle solver of one board size, and batches of instances on a
 * pool of threads: the layer the command line (and any program) uses, so
 * that it needs no table, heuristic or engine of its own.
 *
 * Which tables: a board of at most 9 cells has 9!/2 = 181,440 positions
 * or fewer, so its whole God's table is built in milliseconds and each
 * answer is a walk down it; larger boards get IDA* over pattern databases.
 *
 * Batches: the jobs are taken in input order from a shared counter by
 * min(threads, jobs) workers; when there are fewer jobs than threads the
 * spare threads go into each search (parallel IDA*), so that one hard
 * instance does not leave cores idle.  Answers are handed back in input
 * order: whoever finishes job i while jobs 0..i-1 are already finished
 * delivers i and every finished job after it, under the batch's lock. */
#include "np_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/pool.h"
#include "../core/internal.h"

struct sb_np_solver {
    int rows, cols, god;
    sb_np_table table;           /* god */
    sb_np_pdbset set;       /* !god */
    pthread_mutex_t mu;     /* a God's table's descent is taken one at a time */
};

sb_np_solver *sb_np_solver_open(int rows, int cols, const sb_np_solver_opts *opts, sb_mem *mem,
                                const sb_control *ctl, sb_np_solver_info *info, sb_error *err)
{
    sb_np_solver_opts none = {NULL, NULL, 0, 0, NULL, NULL};
    const sb_np_solver_opts *o = opts ? opts : &none;
    sb_np_solver *s;
    double t0 = sb_now();
    int rc;
    if (info)
        memset(info, 0, sizeof *info);
    if (rows < 2 || rows > 5 || cols < 2 || cols > 5) {
        sb_error_set(err, SB_EUSAGE, 0, 0, "n-puzzle: a %dx%d board (sides 2..5)", rows, cols);
        return NULL;
    }
    s = calloc(1, sizeof *s);
    if (!s) {
        sb_error_set(err, SB_ENOMEM, 0, 0, "n-puzzle: out of memory");
        return NULL;
    }
    s->rows = rows;
    s->cols = cols;
    s->god = rows * cols <= 9;
    if (s->god) {
        if ((rc = sb_np_table_init(&s->table, rows, cols, err)) ||
            (rc = sb_np_table_build(&s->table, NULL, mem, ctl, err))) {
            sb_np_table_free(&s->table);
            free(s);
            return NULL;
        }
        if (info) {
            info->god = 1;
            info->positions = s->table.size;
            info->table = s->table.table;
            info->bytes = sb_table_about(s->table.table).data_bytes;
            info->built = 1;
            info->build_seconds = sb_now() - t0;
        }
    } else {
        const char *part = o->partition;
        if (!part)
            part = rows == 4 && cols == 4
                       ? (sb_np_pdbset_cached(4, 4, "78", o->cache_dir) ? "78" : "663")
                   : rows == 5 && cols == 5 && sb_np_pdbset_cached(5, 5, "6666", o->cache_dir)
                       ? "6666"
                       : "auto";
        if (sb_np_pdbset_open(&s->set, rows, cols, part, o->cache_dir, (uint64_t)1 << 16,
                              sb_pool_threads(o->threads), o->verify, mem, ctl, o->note, o->ud,
                              err)) {
            free(s);
            return NULL;
        }
        if (info) {
            snprintf(info->partition, sizeof info->partition, "%s", part);
            info->tables = s->set.heur.npdb;
            info->built = s->set.built;
            info->loaded = s->set.loaded;
            info->bytes = s->set.bytes;
            info->build_seconds = s->set.build_seconds;
            info->load_seconds = s->set.load_seconds;
        }
    }
    pthread_mutex_init(&s->mu, NULL);
    return s;
}

void sb_np_solver_close(sb_np_solver *s)
{
    if (!s)
        return;
    if (s->god)
        sb_np_table_free(&s->table);
    else
        sb_np_pdbset_close(&s->set);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

int sb_np_solve(const sb_np_solver *s, const sb_npuzzle *p, int goal, int threads,
                sb_np_result *res, const sb_control *ctl, sb_error *err)
{
    int rc;
    if (!s)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_solve: the solver is NULL");
    if (!s->god)
        return np_solve_heur(&s->set.heur, p, goal, sb_pool_threads(threads), res, ctl, err);
    pthread_mutex_lock((pthread_mutex_t *)&s->mu);
    rc = np_solve_table(&s->table, p, goal, res, err);
    pthread_mutex_unlock((pthread_mutex_t *)&s->mu);
    return rc;
}

/* ---- batches ---- */

typedef struct batch {
    sb_np_job *jobs;
    int n, goal, per_search;
    int next, delivered, halted;
    unsigned char *finished;
    int (*done)(void *, sb_np_job *);
    void *ud;
    const sb_control *ctl;  /* the caller's */
    pthread_mutex_t mu;
} batch;

typedef struct bworker {
    batch *b;
    sb_control ctl;         /* the caller's stop flag; progress on worker 0 only */
} bworker;

/* Progress from worker 0, never while an answer is being delivered. */
static void progress(void *ud, const sb_progress_info *in)
{
    batch *b = ud;
    if (pthread_mutex_trylock(&b->mu) != 0)
        return;
    b->ctl->progress(b->ctl->ud, in);
    pthread_mutex_unlock(&b->mu);
}

static void *bwork(void *arg)
{
    bworker *w = arg;
    batch *b = w->b;
    for (;;) {
        int i;
        sb_np_job *j;
        double t0;
        pthread_mutex_lock(&b->mu);
        if (b->halted || b->next == b->n || sb_control_stopped(b->ctl)) {
            pthread_mutex_unlock(&b->mu);
            return NULL;
        }
        i = b->next++;
        pthread_mutex_unlock(&b->mu);
        j = &b->jobs[i];
        t0 = sb_now();
        memset(&j->res, 0, sizeof j->res);
        sb_error_clear(&j->err);
        if (j->solver)
            j->rc = sb_np_solve(j->solver, &j->p, b->goal, b->per_search, &j->res, &w->ctl,
                                &j->err);
        else if (sb_np_solvable(&j->p, b->goal) == 0) {
            j->res.length = -1;
            j->rc = 0;
        } else
            j->rc = sb_error_set(&j->err, SB_EUSAGE, 0, 0,
                                 "sb_np_solve_batch: a solvable position without a solver");
        j->seconds = sb_now() - t0;
        pthread_mutex_lock(&b->mu);
        b->finished[i] = 1;
        while (!b->halted && b->delivered < b->n && b->finished[b->delivered]) {
            if (b->done && b->done(b->ud, &b->jobs[b->delivered]))
                b->halted = 1;
            b->delivered++;
        }
        pthread_mutex_unlock(&b->mu);
    }
}

int sb_np_solve_batch(sb_np_job *jobs, int n, int goal, int threads,
                      int (*done)(void *ud, sb_np_job *job), void *ud, const sb_control *ctl)
{
    batch b;
    bworker w[SB_POOL_MAX];
    int workers;
    if (!jobs || n < 0)
        return SB_EUSAGE;
    if (n == 0)
        return 0;
    threads = sb_pool_threads(threads);
    workers = threads < n ? threads : n;
    memset(&b, 0, sizeof b);
    b.jobs = jobs;
    b.n = n;
    b.goal = goal;
    b.per_search = threads / workers;
    b.done = done;
    b.ud = ud;
    b.ctl = ctl;
    b.finished = calloc((size_t)n, 1);
    if (!b.finished)
        return SB_ENOMEM;
    pthread_mutex_init(&b.mu, NULL);
    for (int t = 0; t < workers; t++) {
        w[t].b = &b;
        memset(&w[t].ctl, 0, sizeof w[t].ctl);
        if (ctl) {
            w[t].ctl.stop = ctl->stop;
            if (t == 0 && ctl->progress) {
                w[t].ctl.progress = progress;
                w[t].ctl.ud = &b;
            }
        }
    }
    sb_pool_run(workers, bwork, w, sizeof *w);
    pthread_mutex_destroy(&b.mu);
    free(b.finished);
    return b.delivered == n && !b.halted ? 0 : SB_EINTR;
}
