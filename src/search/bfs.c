/* Level-by-level breadth-first search over an sb_keymodel.
 *
 * The key array of the state set is the queue: states are appended as they
 * are first reached, so the states at distance d are exactly the indices
 * level[d] .. level[d+1]-1, and expanding level d-1 in index order appends
 * level d.  Nothing else is stored per state.  To print a solution we walk
 * backwards: the state at distance d has a neighbour at distance d-1 (moves
 * are undoable in every puzzle this engine serves; a model whose moves are
 * not must not use sb_bfs_path), and a lookup tells us which neighbours lie
 * in that level's index range.  Taking the smallest such index gives the
 * same parent a pointer set on first discovery would, since level d-1 is
 * expanded in index order. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bfs.h"
#include "../core/internal.h"

/* Neighbours are not looked up one by one: they are queued (key, hash,
 * parent) and the queue is flushed every BATCH entries.  Each entry's table
 * slot is prefetched when it is queued, and the key its slot points to just
 * before the flush, so the lookups of a batch wait for memory together
 * rather than in turn.  The flush handles entries in the order they were
 * emitted, so the result (indices, levels, the first state found) is the
 * same as unbatched. */
#define BATCH 512

typedef struct run_ctx {
    sb_bfs *b;
    const uint64_t *goal;
    uint64_t from;
    int stop_at_goal;
    int rc;
    sb_error *err;
    int nq;
    uint64_t qhash[BATCH], qfrom[BATCH];
    uint64_t *qkey; /* BATCH * kw words */
} run_ctx;

static int push_level(sb_bfs *b, uint64_t start_index, sb_error *err)
{
    if (b->nlevels + 2 > b->levcap) {
        int nc = b->levcap ? 2 * b->levcap : 64;
        uint64_t *l = sb_mem_realloc(b->mem, b->level, b->levcap * sizeof *l, nc * sizeof *l, err);
        if (!l)
            return SB_ENOMEM;
        b->level = l;
        b->levcap = nc;
    }
    b->level[b->nlevels] = start_index;
    return 0;
}

int sb_bfs_init(sb_bfs *b, const sb_keymodel *m, sb_mem *mem, sb_error *err)
{
    if (!b)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_bfs_init: b is NULL");
    memset(b, 0, sizeof *b);
    if (!m || !m->expand)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_bfs_init: %s is NULL",
                            m ? "the model's expand" : "the model");
    if (m->hint_bits)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "the hashed engine takes no hints");
    b->model = *m;
    b->mem = mem;
    b->goal = -1;
    b->goal_level = -1;
    return sb_stateset_init(&b->set, m->key_words, mem, err);
}

void sb_bfs_free(sb_bfs *b)
{
    if (!b)
        return;
    sb_stateset_free(&b->set);
    sb_mem_free(b->mem, b->level, b->levcap * sizeof *b->level);
    b->level = NULL;
    b->levcap = 0;
}

static int is_goal(run_ctx *c, const uint64_t *key)
{
    const sb_keymodel *m = &c->b->model;
    if (m->is_goal)
        return m->is_goal(m->ud, key);
    if (!c->goal)
        return 0;
    for (int i = 0; i < m->key_words; i++)
        if (key[i] != c->goal[i])
            return 0;
    return 1;
}

static void add_one(run_ctx *c, const uint64_t *key, uint64_t h, uint64_t from)
{
    sb_bfs *b = c->b;
    int added;
    if (c->rc || (c->stop_at_goal && b->goal >= 0))
        return;
    int64_t i = sb_stateset_add_h(&b->set, key, h, &added, c->err);
    if (i < 0) {
        c->rc = (int)i;
        return;
    }
    if (!added)
        return;
    if (b->on_new)
        b->on_new(b->on_new_ud, (uint64_t)i, from);
    if (b->goal < 0 && is_goal(c, key)) {
        b->goal = i;
        b->goal_level = b->nlevels - 1;
    }
}

static void flush(run_ctx *c)
{
    const sb_stateset *set = &c->b->set;
    int kw = set->kw;
    for (int j = 0; j < c->nq; j++)
        sb_stateset_prefetch_key(set, c->qhash[j]);
    for (int j = 0; j < c->nq; j++)
        add_one(c, c->qkey + (size_t)j * kw, c->qhash[j], c->qfrom[j]);
    c->nq = 0;
}

static void on_neighbour(void *ctx, const uint64_t *key)
{
    run_ctx *c = ctx;
    const sb_stateset *set = &c->b->set;
    uint64_t h = sb_stateset_hash(set, key);
    sb_stateset_prefetch(set, h);
    memcpy(c->qkey + (size_t)c->nq * set->kw, key, set->kw * sizeof *key);
    c->qhash[c->nq] = h;
    c->qfrom[c->nq] = c->from;
    c->b->generated++;
    if (++c->nq == BATCH)
        flush(c);
}

static void report(const sb_bfs *b, sb_control *ctl, int level)
{
    if (ctl && ctl->progress) {
        sb_progress_info in = {"search", level, b->set.n, 0, b->mem ? b->mem->used : 0, 0, 0};
        ctl->progress(ctl->ud, &in);
    }
}

static int run(sb_bfs *b, run_ctx *cp, const uint64_t *start, const uint64_t *goal, int stop_at_goal,
               sb_control *ctl, sb_error *err);

int sb_bfs_run(sb_bfs *b, const uint64_t *start, const uint64_t *goal, int stop_at_goal,
               sb_control *ctl, sb_error *err)
{
    run_ctx *cp;
    if (!b || !b->set.table || !b->model.expand || !start)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_bfs_run: %s",
                            !start ? "start is NULL" : "the engine is NULL or not set up");
    cp = malloc(sizeof *cp);
    if (!cp || !(cp->qkey = malloc((size_t)BATCH * b->model.key_words * sizeof *cp->qkey))) {
        free(cp);
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    int rc = run(b, cp, start, goal, stop_at_goal, ctl, err);
    free(cp->qkey);
    free(cp);
    return rc;
}

static int run(sb_bfs *b, run_ctx *c, const uint64_t *start, const uint64_t *goal, int stop_at_goal,
               sb_control *ctl, sb_error *err)
{
    uint64_t *qkey = c->qkey;
    int rc;
    double last = sb_now();
    memset(c, 0, offsetof(run_ctx, qhash));
    c->b = b;
    c->goal = goal;
    c->stop_at_goal = stop_at_goal;
    c->err = err;
    c->qkey = qkey;
    b->complete = 0;
    if ((rc = push_level(b, 0, err)))
        return rc;
    b->nlevels = 1;
    add_one(c, start, sb_stateset_hash(&b->set, start), 0);
    if (c->rc)
        return c->rc;
    b->level[1] = b->set.n;
    for (int d = 1;; d++) {
        if (b->goal >= 0)
            break;
        uint64_t lo = b->level[d - 1], hi = b->level[d];
        /* level d starts at hi; it is open while we expand level d-1 */
        if ((rc = push_level(b, hi, err)))
            return rc;
        b->nlevels = d + 1;
        for (uint64_t i = lo; i < hi; i++) {
            c->from = i;
            rc = b->model.expand(b->model.ud, sb_stateset_key(&b->set, i), on_neighbour, c);
            b->expanded++;
            if (rc || c->rc || i + 1 == hi || ((i & 1023) == 0 && sb_control_stopped(ctl)))
                flush(c);
            if (rc || c->rc) {
                b->level[d + 1] = b->set.n;
                return rc ? rc : c->rc;
            }
            if (stop_at_goal && b->goal >= 0)
                break;
            if ((i & 1023) == 0) {
                if (sb_control_stopped(ctl)) {
                    b->level[d + 1] = b->set.n;
                    return sb_error_set(err, SB_EINTR, 0, 0, "stopped at distance %d", d);
                }
                double now = sb_now();
                if (now - last > 0.2) {
                    report(b, ctl, d);
                    last = now;
                }
            }
        }
        b->level[d + 1] = b->set.n;
        if (b->set.n == hi) { /* nothing new: the space is exhausted */
            b->nlevels = d;
            b->complete = 1;
            break;
        }
        if (sb_control_stopped(ctl))
            return sb_error_set(err, SB_EINTR, 0, 0, "stopped after distance %d", d);
    }
    if (b->goal >= 0 && !stop_at_goal)
        b->complete = 1;
    return 0;
}

uint64_t sb_bfs_level_size(const sb_bfs *b, int d)
{
    if (!b || d < 0 || d >= b->nlevels)
        return 0;
    return b->level[d + 1] - b->level[d];
}

int sb_bfs_level_of(const sb_bfs *b, uint64_t i)
{
    int lo = 0, hi;
    if (!b || !b->level || b->nlevels < 1 || i >= b->level[b->nlevels])
        return SB_EUSAGE;
    hi = b->nlevels - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (b->level[mid] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

typedef struct back_ctx {
    const sb_bfs *b;
    uint64_t lo, hi, best;
} back_ctx;

static void on_back(void *ctx, const uint64_t *key)
{
    back_ctx *c = ctx;
    int64_t i = sb_stateset_find(&c->b->set, key);
    if (i >= 0 && (uint64_t)i >= c->lo && (uint64_t)i < c->hi && (uint64_t)i < c->best)
        c->best = (uint64_t)i;
}

int sb_bfs_path(const sb_bfs *b, uint64_t target, uint64_t *path, sb_error *err)
{
    int d;
    if (!path)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_bfs_path: path is NULL");
    if ((d = sb_bfs_level_of(b, target)) < 0)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_bfs_path: state %llu was not reached",
                            (unsigned long long)target);
    path[d] = target;
    for (; d > 0; d--) {
        back_ctx c = {b, b->level[d - 1], b->level[d], UINT64_MAX};
        int rc = b->model.expand(b->model.ud, sb_stateset_key(&b->set, path[d]), on_back, &c);
        if (rc)
            return rc;
        if (c.best == UINT64_MAX)
            return sb_error_set(err, SB_EINTERNAL, 0, 0, "no parent at distance %d", d - 1);
        path[d - 1] = c.best;
    }
    return 0;
}
