/* IDA* (Korf, "Depth-first iterative-deepening: an optimal admissible tree
 * search", 1985).  The depth-first part is written with an explicit stack of
 * move lists rather than recursion, so that the stop flag and the progress
 * report can be checked in one place and the depth is bounded by the caller's
 * max_len, not by the C stack.
 *
 * On several threads (sb_ida_search_mt) each iteration is split below the
 * root: the first D moves are searched on the caller's thread, in the very
 * order a single thread would,
 * and every node at depth D that survives the bound becomes a work item
 * (its move prefix and h); the threads then take items in that order from
 * a shared counter, each on its own copy of the model (tree splitting, after
 * Rao and Kumar, "Parallel depth-first search", 1987).  Why the answer does
 * not depend on the threads: a one-thread search meets the items in list
 * order and stops in the first item that holds a solution.  Items after
 * the best one found so far are skipped or given up, items before it run
 * to the end, so when the threads are done the lowest item with a solution
 * is known and its solution is the one the single thread would print.
 * The node counts are put together the same way: the frontier's own count
 * up to that item (recorded as each item was listed) plus the full counts
 * of the items before it and the count of the item up to the solution.
 * Example: items 0..9, solutions in items 4 and 7; a thread finishing 7
 * first sets best = 7, another then finds 4 and sets best = 4; items 5, 6
 * and the rest of 7, 8, 9 are abandoned, 0..3 complete; the path is item
 * 4's prefix and its solution. */
#include "ida.h"
#include "../core/internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/pool.h"

typedef struct frame {
    int mv[SB_IDA_MAXMOVES];
    int n, next;
    int h;
} frame;

enum { FOUND = -1, STOPPED = -2, BADMOVES = -3, GIVEUP = -4 };

/* What one depth-first search needs besides its stack. */
typedef struct run {
    const sb_ida_model *md;
    void *m;
    int bound;
    const sb_control *ctl;
    int report;          /* may call ctl->progress (the caller's thread) */
    uint64_t *shared;    /* nodes of every thread, for progress; NULL: one thread */
    const int *best;     /* give up when *best < item; NULL: never */
    int item;
} run;

/* The search below a node at depth g0 (reached by path[0..g0-1], the last
 * move `last`, heuristic h0) that has passed the bound and goal tests.
 * Returns FOUND (*len = the solution's length, path filled), STOPPED,
 * BADMOVES, GIVEUP, or the least f above the bound that was cut (INT_MAX
 * if none); the model is left at the node either way. */
static int dfs(const run *r, int g0, int last, int h0, frame *fr, int *path, int *len,
               sb_ida_stats *st)
{
    const sb_ida_model *md = r->md;
    void *m = r->m;
    int depth = 0, least = INT_MAX, bound = r->bound;
    fr[0].n = md->moves(m, last, fr[0].mv);
    if ((unsigned)fr[0].n > SB_IDA_MAXMOVES)
        return BADMOVES;
    fr[0].next = 0;
    fr[0].h = h0;
    st->expanded++;
    for (;;) {
        frame *f = &fr[depth];
        int mv, h, g;
        if (f->next == f->n) {
            /* this node is done: back up */
            if (depth == 0)
                return least;
            depth--;
            md->undo(m, path[g0 + depth]);
            continue;
        }
        mv = f->mv[f->next++];
        h = md->apply(m, mv);
        st->generated++;
        if ((st->generated & 0x3fff) == 0) {
            int quit = r->ctl && sb_control_stopped(r->ctl) ? STOPPED : 0;
            uint64_t done = st->generated;
            if (!quit && r->best && __atomic_load_n(r->best, __ATOMIC_RELAXED) < r->item)
                quit = GIVEUP;
            if (quit) {
                md->undo(m, mv);
                while (depth > 0)
                    md->undo(m, path[g0 + --depth]);
                return quit;
            }
            if (r->shared)
                done = __atomic_add_fetch(r->shared, 0x4000, __ATOMIC_RELAXED);
            if (r->report && r->ctl && r->ctl->progress) {
                sb_progress_info in = {"ida*", bound, done, 0, 0, 0, 0};
                r->ctl->progress(r->ctl->ud, &in);
            }
        }
        g = g0 + depth + 1;
        if (g + h > bound) {
            if (g + h < least)
                least = g + h;
            md->undo(m, mv);
            continue;
        }
        path[g - 1] = mv;
        if (md->is_goal ? md->is_goal(m, h) : h == 0) {
            *len = g;
            /* leave the model where it started */
            md->undo(m, mv);
            while (depth > 0)
                md->undo(m, path[g0 + --depth]);
            return FOUND;
        }
        if (g >= bound) { /* h == 0 but not a goal: nothing shorter below */
            md->undo(m, mv);
            if (bound + 1 < least)
                least = bound + 1;
            continue;
        }
        depth++;
        fr[depth].n = md->moves(m, mv, fr[depth].mv);
        /* one compare a node: a count the frame cannot hold ends the search */
        if ((unsigned)fr[depth].n > SB_IDA_MAXMOVES) {
            while (depth > 0)
                md->undo(m, path[g0 + --depth]);
            return BADMOVES;
        }
        fr[depth].next = 0;
        fr[depth].h = h;
        st->expanded++;
    }
}

static int is_goal(const sb_ida_model *md, void *m, int h)
{
    return md->is_goal ? md->is_goal(m, h) : h == 0;
}

static int check_args(const sb_ida_model *model, int max_len, int *path, int *len, sb_error *err)
{
    if (!model || !model->moves || !model->apply || !model->undo || !path || !len)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "ida*: %s is NULL",
                            !model ? "the model" : !path ? "path" : !len ? "len"
                                                                     : "a model callback");
    if (max_len < 0)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "ida*: negative length limit");
    return 0;
}

static int finish(int r, int max_len, sb_error *err)
{
    if (r == FOUND)
        return 0;
    if (r == STOPPED)
        return sb_error_set(err, SB_EINTR, 0, 0, "interrupted");
    if (r == BADMOVES)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "ida*: the model listed more than %d moves",
                            SB_IDA_MAXMOVES);
    if (r == SB_ENOMEM)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "ida*: out of memory");
    return sb_error_set(err, SB_ENOTFOUND, 0, 0, "no solution within %d moves", max_len);
}

int sb_ida_search(const sb_ida_model *model, int h0, int max_len, int *path, int *len,
                  sb_ida_stats *st, const sb_control *ctl, sb_error *err)
{
    sb_ida_stats local;
    frame *fr;
    int bound = h0, r = INT_MAX, rc;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if ((rc = check_args(model, max_len, path, len, err)))
        return rc;
    /* one frame per depth 0..max_len: a few kilobytes, not budgeted */
    fr = malloc(sizeof *fr * (size_t)(max_len + 1));
    if (!fr)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "ida*: out of memory");
    while (bound <= max_len) {
        run ru = {model, model->ud, bound, ctl, 1, NULL, NULL, 0};
        st->iterations++;
        st->bound = bound;
        if (h0 > bound)
            r = h0;
        else if (is_goal(model, model->ud, h0)) {
            *len = 0;
            r = FOUND;
        } else
            r = dfs(&ru, 0, -1, h0, fr, path, len, st);
        if (r == FOUND || r == STOPPED || r == BADMOVES || r == INT_MAX)
            break;
        bound = r;
    }
    free(fr);
    return finish(r, max_len, err);
}

/* ---- several threads ---- */

/* A subtree below the split depth, or (goal) a solution met while
 * listing them. */
typedef struct item {
    int prefix[24];
    int depth, h, goal;
    uint64_t gen, exp;    /* the frontier's counts when the item was listed */
    uint64_t sub_gen, sub_exp;
    int result;           /* dfs's answer for the subtree */
} item;

typedef struct split {
    const sb_ida_model *md;
    void *m;
    int bound, depth, max_len;
    item *it;
    size_t n, cap;
    int least;
    uint64_t gen, exp;
    int prefix[24];
    int stopped, bad, nomem;
    const sb_control *ctl;
} split;

static void add_item(split *s, int depth, int h, int goal)
{
    item *it;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        item *p = realloc(s->it, cap * sizeof *p);
        if (!p) {
            s->nomem = 1;
            return;
        }
        s->it = p, s->cap = cap;
    }
    it = &s->it[s->n++];
    memset(it, 0, sizeof *it);
    memcpy(it->prefix, s->prefix, sizeof it->prefix);
    it->depth = depth;
    it->h = h;
    it->goal = goal;
    it->gen = s->gen;
    it->exp = s->exp;
}

/* The first s->depth moves below a node at depth g, as dfs would search
 * them; nodes at the split depth become items.  Stops listing at the first
 * solution, as dfs stops there. */
static int list_items(split *s, int g, int last)
{
    int mv[SB_IDA_MAXMOVES], n = s->md->moves(s->m, last, mv);
    if ((unsigned)n > SB_IDA_MAXMOVES) {
        s->bad = 1;
        return 1;
    }
    s->exp++;
    for (int i = 0; i < n; i++) {
        int h = s->md->apply(s->m, mv[i]), g1 = g + 1, stop = 0;
        s->gen++;
        if ((s->gen & 0x3fff) == 0 && s->ctl && sb_control_stopped(s->ctl)) {
            s->md->undo(s->m, mv[i]);
            s->stopped = 1;
            return 1;
        }
        if (g1 + h > s->bound) {
            if (g1 + h < s->least)
                s->least = g1 + h;
        } else {
            s->prefix[g] = mv[i];
            if (is_goal(s->md, s->m, h)) {
                add_item(s, g1, h, 1);
                stop = 1;
            } else if (g1 >= s->bound) {
                if (s->bound + 1 < s->least)
                    s->least = s->bound + 1;
            } else if (g1 == s->depth)
                add_item(s, g1, h, 0);
            else
                stop = list_items(s, g1, mv[i]);
        }
        s->md->undo(s->m, mv[i]);
        if (stop || s->nomem)
            return 1;
    }
    return 0;
}

typedef struct worker {
    const sb_ida_model *md;
    void *m;              /* this thread's copy of the model */
    frame *fr;
    int *path;
    split *s;
    int *next, *best;
    int *sol, *sol_len;   /* the best item's solution */
    pthread_mutex_t *mu;
    uint64_t *shared;
    const sb_control *ctl;
    int id;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    split *s = w->s;
    for (;;) {
        int i = __atomic_fetch_add(w->next, 1, __ATOMIC_RELAXED), len = 0;
        item *it;
        sb_ida_stats st = {0, 0, 0, 0};
        run ru = {w->md, w->m, s->bound, w->ctl, w->id == 0, w->shared, w->best, i};
        if (i >= (int)s->n || __atomic_load_n(w->best, __ATOMIC_RELAXED) < i)
            return NULL;
        it = &s->it[i];
        if (it->goal) {
            len = it->depth;
            memcpy(w->path, it->prefix, sizeof(int) * (size_t)len);
            it->result = FOUND;
        } else {
            for (int d = 0; d < it->depth; d++) {
                w->md->apply(w->m, it->prefix[d]);
                w->path[d] = it->prefix[d];
            }
            it->result = dfs(&ru, it->depth, it->prefix[it->depth - 1], it->h, w->fr, w->path,
                             &len, &st);
            for (int d = it->depth; d-- > 0;)
                w->md->undo(w->m, it->prefix[d]);
            it->sub_gen = st.generated;
            it->sub_exp = st.expanded;
        }
        if (it->result == FOUND) {
            pthread_mutex_lock(w->mu);
            if (i < __atomic_load_n(w->best, __ATOMIC_RELAXED)) {
                __atomic_store_n(w->best, i, __ATOMIC_RELAXED);
                memcpy(w->sol, w->path, sizeof(int) * (size_t)len);
                *w->sol_len = len;
            }
            pthread_mutex_unlock(w->mu);
        }
        if (it->result == STOPPED || it->result == BADMOVES) {
            /* nothing after this item matters: end every thread */
            __atomic_store_n(w->best, -1, __ATOMIC_RELAXED);
            return NULL;
        }
    }
}

/* One iteration on the threads.  Returns as dfs does; st gets the
 * counts a single thread would have. */
static int iterate(const sb_ida_model *md, void **copies, frame **frs, int **paths, int threads,
                   int bound, int *path, int *len, sb_ida_stats *st, uint64_t *shared,
                   const sb_control *ctl)
{
    split s;
    int next = 0, best = INT_MAX, r, sol_len = 0;
    pthread_mutex_t mu;
    worker w[SB_IDA_MAXTHREADS];
    /* The split depth: the least that gives every thread a few dozen
     * items, found by listing (its counts are not kept) until it does. */
    memset(&s, 0, sizeof s);
    s.md = md, s.m = md->ud, s.bound = bound, s.ctl = ctl;
    for (s.depth = 1;; s.depth++) {
        s.n = 0, s.least = INT_MAX, s.gen = s.exp = 0;
        list_items(&s, 0, -1);
        if (s.stopped || s.bad || s.nomem)
            break;
        if (s.n >= (size_t)(32 * threads) || s.depth + 1 >= bound || s.depth + 1 >= 24 ||
            (s.n && s.it[s.n - 1].goal))
            break;
    }
    if (s.stopped || s.bad || s.nomem) {
        free(s.it);
        return s.stopped ? STOPPED : s.bad ? BADMOVES : SB_ENOMEM;
    }
    pthread_mutex_init(&mu, NULL);
    for (int t = 0; t < threads; t++) {
        memcpy(copies[t], md->ud, md->ud_size);
        w[t] = (worker){md, copies[t], frs[t], paths[t], &s, &next, &best, path, &sol_len, &mu,
                        shared, ctl, t};
    }
    sb_pool_run(threads, work, w, sizeof *w);
    pthread_mutex_destroy(&mu);
    /* the counts a single thread would have */
    r = s.least;
    if (best == -1) {
        r = BADMOVES;
        for (size_t i = 0; i < s.n; i++)
            if (s.it[i].result == STOPPED)
                r = STOPPED;
    } else if (best != INT_MAX) {
        st->generated += s.it[best].gen + s.it[best].sub_gen;
        st->expanded += s.it[best].exp + s.it[best].sub_exp;
        for (int i = 0; i < best; i++) {
            st->generated += s.it[i].sub_gen;
            st->expanded += s.it[i].sub_exp;
        }
        *len = sol_len;
        r = FOUND;
    } else {
        st->generated += s.gen;
        st->expanded += s.exp;
        for (size_t i = 0; i < s.n; i++) {
            st->generated += s.it[i].sub_gen;
            st->expanded += s.it[i].sub_exp;
            if (s.it[i].result >= 0 && s.it[i].result < r)
                r = s.it[i].result;
        }
    }
    free(s.it);
    return r;
}

int sb_ida_search_mt(const sb_ida_model *model, int h0, int max_len, int threads, int *path,
                     int *len, sb_ida_stats *st, const sb_control *ctl, sb_error *err)
{
    sb_ida_stats local;
    void *copies[SB_IDA_MAXTHREADS] = {0};
    frame *frs[SB_IDA_MAXTHREADS] = {0};
    int *paths[SB_IDA_MAXTHREADS] = {0};
    int bound = h0, r = INT_MAX, rc, ok = 1;
    uint64_t shared = 0;
    if ((rc = check_args(model, max_len, path, len, err)))
        return rc;
    if (threads <= 1 || model->ud_size == 0)
        return sb_ida_search(model, h0, max_len, path, len, st, ctl, err);
    if (threads > SB_IDA_MAXTHREADS)
        threads = SB_IDA_MAXTHREADS;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    for (int t = 0; t < threads && ok; t++) {
        copies[t] = malloc(model->ud_size);
        frs[t] = malloc(sizeof(frame) * (size_t)(max_len + 1));
        paths[t] = malloc(sizeof(int) * (size_t)(max_len + 1));
        ok = copies[t] && frs[t] && paths[t];
    }
    if (!ok)
        r = SB_ENOMEM;
    while (ok && bound <= max_len) {
        st->iterations++;
        st->bound = bound;
        if (h0 > bound)
            r = h0;
        else if (is_goal(model, model->ud, h0)) {
            *len = 0;
            r = FOUND;
        } else if (bound < 3) {
            /* too shallow to split */
            run ru = {model, model->ud, bound, ctl, 1, NULL, NULL, 0};
            r = dfs(&ru, 0, -1, h0, frs[0], path, len, st);
        } else
            r = iterate(model, copies, frs, paths, threads, bound, path, len, st, &shared, ctl);
        if (r == FOUND || r == STOPPED || r == BADMOVES || r == SB_ENOMEM || r == INT_MAX)
            break;
        bound = r;
    }
    for (int t = 0; t < threads; t++) {
        free(copies[t]);
        free(frs[t]);
        free(paths[t]);
    }
    return finish(r, max_len, err);
}
