/* The sorted-level engine (sbfs/levels.h).
 *
 * Making level d+1.  The states of level d are cut into one slice per
 * thread.  A thread lists the neighbours of its slice into a buffer; when
 * the slice is done (or the buffer cannot grow), it sorts the buffer and
 * keeps each key once and only if it is in neither level d nor level d-1.
 * What is left is a *run*: sorted keys, all at distance d+1.  The runs of
 * all threads are merged (dropping keys two runs share) into level d+1.
 * Example on a path graph 0-1-2-3-4 from 2: level 0 = {2}; its neighbours
 * {1, 3} are new, level 1 = {1, 3}; their neighbours 0, 2, 2, 4 sort to
 * 0 2 2 4, the repeat and the 2 of level 0 go, level 2 = {0, 4}; their
 * neighbours 1, 3 are all in level 1, so level 3 is empty: done.
 * Sets, not lists: level d+1 is the same whatever the number of threads.
 * That is the way under a short budget and for keys of several words;
 * one-word keys with room to spare go through buckets instead, which cost
 * the same per key however large the level (see "the bucketed level").
 *
 * Both ways.  With one goal configuration the engine grows the side (from
 * the start or from the goal) whose newest level is smaller, and checks
 * the new level against the other side's newest level.  That one check
 * suffices: if a new state s at distance f+1 from the start were at
 * distance j < g from the goal, its parent at distance f would be at
 * distance at most j+1 <= g from the goal, so the two sides would already
 * have met, when that parent's level or the goal side's level j+1 was
 * made.  The first common state m (the smallest key) gives length f+1+g.
 *
 * The budget.  Every buffer and level is charged to the sb_mem (under a
 * lock, since threads grow their buffers).  When a level cannot be made,
 * the older levels are dropped, except level 0 and *checkpoints*: at the
 * first drop the two newest levels become a checkpoint pair (a pair, since
 * making level c+1 needs levels c and c-1).  Then the level is made again.
 * If nothing more can go, and neither can smaller buffers help, the run
 * stops with SB_ENOMEM.  A path through dropped levels is rebuilt by
 * searching again from the nearest checkpoint below (a side of its own,
 * seeded with the pair, which may itself drop and checkpoint), up to the
 * level just below the state being traced. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/pool.h"
#include "backend.h"
#include "keysort.h"
#include "levels.h"
#include "../core/internal.h"

#define MAXKW SB_SEARCH_MAXKW
#define MIN_BATCH ((uint64_t)1 << 8)    /* keys: a thread's first and smallest buffer */
#define MAX_BATCH ((uint64_t)1 << 31)   /* keys: sb_keys_sort's limit */
#define MIN_RUN ((uint64_t)1 << 16)     /* keys: the least batch when the budget is not short */
#define BATCH_PER_STATE 8               /* keys a thread lists per state before sorting them */
#define BATCH_BYTES ((size_t)4 << 20)   /* bytes of keys sorted at once, at most */
#define PAR_MIN 8192                    /* states in a level before threads help */

/* A thread's buffers, kept from level to level: fresh memory for every
 * level would cost a page fault per 4 KB (7% of the time on the
 * distinct-piece Klotski). */
typedef struct scratch {
    uint64_t *buf, *tmp; /* neighbours listed; the sort's other buffer */
    uint64_t cap, tcap;  /* keys each holds */
} scratch;

#define MAXT SB_POOL_MAX

typedef struct priv {
    pthread_mutex_t lock; /* guards the sb_mem */
    uint64_t max_batch;   /* most keys in a thread's buffer; cut under pressure */
    int pressed;          /* the budget ran short in this run: runs leave out levels
                             d and d-1 as they are made, batches are fitted to the room */
    unsigned share;       /* then the threads' buffers take 1/share of the room */
    int runs_only;        /* make every level from runs (sb_levels_tune) */
    int no_buckets;       /* a bucketed level did not fit: runs for the rest of the run */
    uint64_t bucket_keys; /* keys a bucket aims at */
    scratch sc[MAXT];
    scratch deal;         /* buf: the buckets, kept from level to level */
    uint64_t *spare;      /* the largest level dropped, to hold a new one */
    size_t spare_bytes;
} priv;

/* ---- memory, under the lock ---- */

static void *m_alloc(sb_levels *s, size_t bytes, sb_error *err)
{
    priv *p = s->priv;
    pthread_mutex_lock(&p->lock);
    void *q = sb_mem_realloc(s->mem, NULL, 0, bytes, err);
    pthread_mutex_unlock(&p->lock);
    return q;
}

static void *m_realloc(sb_levels *s, void *q, size_t old, size_t bytes, sb_error *err)
{
    priv *p = s->priv;
    pthread_mutex_lock(&p->lock);
    void *r = sb_mem_realloc(s->mem, q, old, bytes, err);
    pthread_mutex_unlock(&p->lock);
    return r;
}

static void m_free(sb_levels *s, void *q, size_t bytes)
{
    priv *p = s->priv;
    pthread_mutex_lock(&p->lock);
    sb_mem_free(s->mem, q, bytes);
    pthread_mutex_unlock(&p->lock);
}

/* Bytes held now, for the progress line (other threads may be allocating). */
static size_t m_used(sb_levels *s)
{
    priv *p = s->priv;
    pthread_mutex_lock(&p->lock);
    size_t u = s->mem->used;
    pthread_mutex_unlock(&p->lock);
    return u;
}

/* Bytes the budget still allows. */
static size_t m_left(sb_levels *s)
{
    priv *p = s->priv;
    pthread_mutex_lock(&p->lock);
    size_t l = sb_mem_left(s->mem);
    pthread_mutex_unlock(&p->lock);
    return l;
}

static size_t kbytes(const sb_levels *s, uint64_t n)
{
    return (size_t)n * (size_t)s->kw * sizeof(uint64_t);
}

/* A stored array of n keys holds room for at least one. */
static size_t abytes(const sb_levels *s, uint64_t n)
{
    return kbytes(s, n ? n : 1);
}

/* ---- sides and levels ---- */

/* A level dropped while the budget is not short is kept as the spare,
 * if it is the largest so far: a census drops a level for every level it
 * makes, and the new level's pages, fresh from the system, cost a page
 * fault each 4 KB (a sixth of the CPU time on 10^9 configurations). */
static void level_drop(sb_levels *s, sb_level *L, int borrowed)
{
    priv *p = s->priv;
    size_t b = abytes(s, L->n);
    if (L->keys && !borrowed) {
        if (!p->pressed && b > p->spare_bytes) {
            m_free(s, p->spare, p->spare_bytes);
            p->spare = L->keys;
            p->spare_bytes = b;
        } else {
            m_free(s, L->keys, b);
        }
    }
    L->keys = NULL;
}

/* Room for a new level of `bytes`: the spare, fitted, or fresh memory. */
static uint64_t *level_alloc(sb_levels *s, size_t bytes, sb_error *err)
{
    priv *p = s->priv;
    if (!p->spare)
        return m_alloc(s, bytes, err);
    uint64_t *q = m_realloc(s, p->spare, p->spare_bytes, bytes, err);
    if (q)
        p->spare = NULL, p->spare_bytes = 0;
    return q;
}

static int side_push(sb_levels *s, sb_side *S, uint64_t *keys, uint64_t n, sb_error *err)
{
    if (S->nlev == S->cap) {
        int nc = S->cap ? 2 * S->cap : 64;
        sb_level *l = m_realloc(s, S->lev, S->cap * sizeof *l, nc * sizeof *l, err);
        if (!l)
            return SB_ENOMEM;
        S->lev = l;
        S->cap = nc;
    }
    S->lev[S->nlev].keys = keys;
    S->lev[S->nlev].n = n;
    S->lev[S->nlev].checkpoint = 0;
    S->nlev++;
    return 0;
}

/* A side's own levels are freed; the first `borrowed` are another's. */
static void side_free(sb_levels *s, sb_side *S, int borrowed)
{
    for (int i = 0; i < S->nlev; i++)
        level_drop(s, &S->lev[i], i < borrowed);
    m_free(s, S->lev, S->cap * sizeof *S->lev);
    memset(S, 0, sizeof *S);
}

/* ---- making one level ---- */

typedef struct run {
    uint64_t *keys;
    uint64_t n;
} run;

/* Aligned to cache lines: a worker's counters change with every key it
 * lists, and sharing a line with its neighbour's fields cost the two
 * threads a third of their speed. */
typedef struct worker {
    _Alignas(64) sb_levels *s;
    const uint64_t *cur, *prev; /* levels d and d-1 */
    uint64_t ncur, nprev;
    uint64_t lo, hi;            /* the slice of level d */
    scratch *sc;                /* this thread's buffers */
    void (*emit)(void *, const uint64_t *); /* emit (runs) or emit_all (buckets) */
    uint64_t orv, andv;         /* emit_all: OR and AND of the keys listed */
    uint64_t batch;             /* keys listed before they are sorted into a run */
    uint64_t n;                 /* keys in sc->buf */
    run *runs;
    int nruns, runcap;
    int rc;
    sb_error err;
    uint64_t generated;
    sb_control *ctl;            /* worker 0 only: progress */
    atomic_int *halt;           /* set by a worker that fails, seen by all */
    int level;
} worker;

/* Sort the buffer and store it, each key once, as a run.  What is in
 * levels d and d-1 is taken out when the runs are merged: one walk over
 * those levels per level made, not one per run. */
static int flush(worker *w)
{
    sb_levels *s = w->s;
    scratch *sc = w->sc;
    uint64_t n = w->n;
    if (!n)
        return 0;
    if (w->nruns == w->runcap) {
        int nc = w->runcap ? 2 * w->runcap : 4;
        run *r = m_realloc(s, w->runs, w->runcap * sizeof *r, nc * sizeof *r, &w->err);
        if (!r)
            return SB_ENOMEM;
        w->runs = r;
        w->runcap = nc;
    }
    if (sc->tcap < n) {
        m_free(s, sc->tmp, kbytes(s, sc->tcap));
        sc->tcap = 0;
        if (!(sc->tmp = m_alloc(s, kbytes(s, sc->cap), &w->err)))
            return SB_ENOMEM;
        sc->tcap = sc->cap;
    }
    uint64_t *sorted = sb_keys_sort(sc->buf, sc->tmp, n, s->kw, s->idm);
    if (!sorted)
        return sb_error_set(&w->err, SB_ENOMEM, 0, 0, "out of memory sorting");
    /* under a short budget, take levels d and d-1 out at once too: runs
     * then hold only new keys */
    const priv *p = s->priv;
    uint64_t k = p->pressed
                     ? sb_keys_unique_minus(sorted, n, w->cur, w->ncur, w->prev, w->nprev, s->kw, s->idm)
                     : sb_keys_unique_minus(sorted, n, NULL, 0, NULL, 0, s->kw, s->idm);
    uint64_t *keys = m_alloc(s, abytes(s, k), &w->err);
    if (!keys)
        return SB_ENOMEM;
    memcpy(keys, sorted, kbytes(s, k));
    w->runs[w->nruns].keys = keys;
    w->runs[w->nruns].n = k;
    w->nruns++;
    w->n = 0;
    return 0;
}

static void emit(void *ctx, const uint64_t *key)
{
    worker *w = ctx;
    sb_levels *s = w->s;
    scratch *sc = w->sc;
    if (w->rc)
        return;
    if (w->n == sc->cap || w->n >= w->batch) { /* a buffer left large by emit_all */
        uint64_t nc = sc->cap ? 2 * sc->cap : MIN_BATCH;
        uint64_t *b = NULL;
        if (nc <= w->batch) {
            sb_error ignored;
            b = m_realloc(s, sc->buf, kbytes(s, sc->cap), kbytes(s, nc), &ignored);
        }
        if (b) {
            sc->buf = b;
            sc->cap = nc;
        } else if (!sc->cap) {
            w->rc = sb_error_set(&w->err, SB_ENOMEM, 0, 0, "no room for a buffer of neighbours");
            return;
        } else if ((w->rc = flush(w)) != 0) { /* may not grow: sort it into a run */
            return;
        }
    }
    uint64_t *o = sc->buf + w->n * s->kw;
    if (s->kw == 1)
        o[0] = key[0];
    else
        memcpy(o, key, s->kw * sizeof *key);
    w->n++;
    w->generated++;
}

/* The bucketed level lists every neighbour of the slice before sorting
 * any (one word, see bucket_level). */
static void emit_all(void *ctx, const uint64_t *key)
{
    worker *w = ctx;
    scratch *sc = w->sc;
    if (w->rc)
        return;
    if (w->n == sc->cap) {
        uint64_t nc = sc->cap ? 2 * sc->cap : MIN_BATCH;
        uint64_t *b = m_realloc(w->s, sc->buf, kbytes(w->s, sc->cap), kbytes(w->s, nc), &w->err);
        if (!b) {
            w->rc = SB_ENOMEM;
            return;
        }
        sc->buf = b;
        sc->cap = nc;
    }
    uint64_t v = key[0];
    sc->buf[w->n++] = v;
    w->orv |= v;
    w->andv &= v;
    w->generated++;
}

static void *work(void *arg)
{
    worker *w = arg;
    sb_levels *s = w->s;
    double last = sb_now();
    for (uint64_t i = w->lo; i < w->hi && !w->rc; i++) {
        int rc = s->model.expand(s->model.ud, w->cur + i * s->kw, w->emit, w);
        if (rc && !w->rc)
            w->rc = sb_error_set(&w->err, rc, 0, 0, "the model failed to list moves");
        if ((i & 1023) != 0)
            continue;
        if (atomic_load_explicit(w->halt, memory_order_relaxed))
            break;
        if (w->ctl && sb_control_stopped(w->ctl)) {
            w->rc = sb_error_set(&w->err, SB_EINTR, 0, 0, "stopped at distance %d", w->level + 1);
            break;
        }
        if (w->ctl && w->ctl->progress) {
            double now = sb_now();
            if (now - last > 0.2) {
                const priv *p = s->priv;
                sb_progress_info in = {p->pressed ? "search, memory short," : "search", w->level + 1,
                                       sb_levels_total(s), 0, m_used(s), 0, 0};
                w->ctl->progress(w->ctl->ud, &in);
                last = now;
            }
        }
    }
    if (!w->rc && w->emit == emit && !atomic_load_explicit(w->halt, memory_order_relaxed))
        w->rc = flush(w);
    if (w->rc)
        atomic_store_explicit(w->halt, 1, memory_order_relaxed);
    return NULL;
}

static void worker_clean(sb_levels *s, worker *w)
{
    for (int j = 0; j < w->nruns; j++)
        m_free(s, w->runs[j].keys, abytes(s, w->runs[j].n));
    m_free(s, w->runs, w->runcap * sizeof *w->runs);
    w->runs = NULL;
    w->nruns = w->runcap = 0;
}

/* Give the threads' buffers back (when the budget is short, and at the end). */
static void free_scratch(sb_levels *s)
{
    priv *p = s->priv;
    m_free(s, p->spare, p->spare_bytes);
    p->spare = NULL;
    p->spare_bytes = 0;
    m_free(s, p->deal.buf, kbytes(s, p->deal.cap));
    memset(&p->deal, 0, sizeof p->deal);
    for (int t = 0; t < MAXT; t++) {
        m_free(s, p->sc[t].buf, kbytes(s, p->sc[t].cap));
        m_free(s, p->sc[t].tmp, kbytes(s, p->sc[t].tcap));
        memset(&p->sc[t], 0, sizeof p->sc[t]);
    }
}

/* One thread's share of the merge: the keys of every run, and of levels d
 * and d-1, between two splitters. */
typedef struct part {
    uint64_t **in;   /* k runs, cut to this part's keys */
    uint64_t *cnt;
    int k, kw;
    int count;       /* only count what the merge would write */
    uint64_t m;
    const uint64_t *x, *y;
    uint64_t nx, ny;
    uint64_t *out;
    uint64_t sum, got;
} part;

static void *merge_part(void *arg)
{
    part *m = arg;
    m->got = m->count ? sb_keys_union_size(m->in, m->cnt, m->k, m->kw, m->m)
                      : sb_keys_merge(m->in, m->cnt, m->k, m->x, m->nx, m->y, m->ny, m->out, m->kw, m->m);
    return NULL;
}

/* The part of sorted a[0..n) from key lo (NULL: the start) to key hi
 * (NULL: the end). */
static void cut(const uint64_t *a, uint64_t n, const uint64_t *lo, const uint64_t *hi, int kw,
                uint64_t m, const uint64_t **from, uint64_t *len)
{
    uint64_t i = lo ? sb_keys_lower(a, n, lo, kw, m) : 0, j = hi ? sb_keys_lower(a, n, hi, kw, m) : n;
    *from = a ? a + i * kw : a; /* an empty level may have no array at all */
    *len = j - i;
}

/* All runs of all workers, in (thread, run) order: k of them, sum keys. */
static int list_runs(worker *w, int T, uint64_t ***in, uint64_t **cnt, int *k, uint64_t *sum)
{
    int total = 0;
    for (int t = 0; t < T; t++)
        total += w[t].nruns;
    *in = malloc(((size_t)total + 1) * sizeof **in);
    *cnt = malloc(((size_t)total + 1) * sizeof **cnt);
    if (!*in || !*cnt) {
        free(*in);
        free(*cnt);
        return SB_ENOMEM;
    }
    *k = 0;
    *sum = 0;
    for (int t = 0; t < T; t++)
        for (int j = 0; j < w[t].nruns; j++) {
            (*in)[*k] = w[t].runs[j].keys;
            (*cnt)[*k] = w[t].runs[j].n;
            *sum += (*cnt)[(*k)++];
        }
    return 0;
}

/* The least bytes, beyond the levels held, that making the new level can
 * take, from runs that leave out levels d and d-1 (p->pressed): their
 * union is part of the new level, and a level of N keys is never made in
 * less than 2N keys of room, the runs and the level they merge into, or
 * the one buffer that listed them all and its sort buffer.  0 if unknown. */
static uint64_t level_need(sb_levels *s, worker *w, int T)
{
    uint64_t **in, *cnt, sum, u;
    int k;
    if (!((priv *)s->priv)->pressed || list_runs(w, T, &in, &cnt, &k, &sum))
        return 0;
    u = sb_keys_union_size(in, cnt, k, s->kw, s->idm);
    free(in);
    free(cnt);
    return u == UINT64_MAX ? 0 : 2 * (uint64_t)kbytes(s, u);
}

/* Merge the workers' runs, without the keys of levels d (cur) and d-1
 * (prev), into the new level.  The key range is cut at quantiles of level
 * d into one part per thread; the parts are merged side by side and laid
 * end to end.  Any number of runs is merged at once (a tournament beyond
 * eight).  The level takes the sum of the runs for the time of the merge;
 * when that does not fit under pressure, where the runs hold new keys
 * only, the parts are counted first (a merge that writes nothing) and the
 * level takes exactly its size.  Returns 0 with *keys, *n set; on
 * SB_ENOMEM, *need as for level_need. */
static int gather(sb_levels *s, worker *w, int T, const sb_level *cur, const sb_level *prev,
                  uint64_t **keys, uint64_t *n, uint64_t *need, sb_error *err)
{
    const priv *p = s->priv;
    int kw = s->kw, k;
    uint64_t **in, *cnt, sum;
    *keys = NULL;
    *n = 0;
    if (list_runs(w, T, &in, &cnt, &k, &sum))
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    const uint64_t *px = prev ? prev->keys : NULL;
    uint64_t npx = prev ? prev->n : 0;
    if (k <= 1) { /* no run, or one (free of repeats) that becomes the level */
        int rc = 0;
        if (k == 1) {
            uint64_t got = sb_keys_minus(in[0], cnt[0], cur->keys, cur->n, px, npx, kw, s->idm);
            uint64_t *r = m_realloc(s, in[0], abytes(s, cnt[0]), abytes(s, got), err);
            if (r) {
                for (int t = 0; t < T; t++)
                    w[t].nruns = 0;
                *keys = r;
                *n = got;
            } else {
                rc = SB_ENOMEM;
            }
        }
        free(in);
        free(cnt);
        return rc;
    }
    int P = s->threads;
    if (sum / PAR_MIN < (uint64_t)P)
        P = sum / PAR_MIN > 1 ? (int)(sum / PAR_MIN) : 1;
    if ((uint64_t)P > cur->n)
        P = (int)cur->n;
    if (P < 1)
        P = 1;
    part *pt = calloc((size_t)P, sizeof *pt);
    uint64_t **pin = malloc((size_t)P * k * sizeof *pin), *pcnt = malloc((size_t)P * k * sizeof *pcnt);
    if (!pt || !pin || !pcnt) {
        free(pt);
        free(pin);
        free(pcnt);
        free(in);
        free(cnt);
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    for (int t = 0; t < P; t++) {
        const uint64_t *lo = t ? cur->keys + cur->n * (uint64_t)t / (uint64_t)P * kw : NULL;
        const uint64_t *hi = t + 1 < P ? cur->keys + cur->n * (uint64_t)(t + 1) / (uint64_t)P * kw : NULL;
        part *m = &pt[t];
        m->in = pin + (size_t)t * k;
        m->cnt = pcnt + (size_t)t * k;
        m->k = k;
        m->kw = kw;
        m->m = s->idm;
        for (int j = 0; j < k; j++) {
            const uint64_t *from;
            cut(in[j], cnt[j], lo, hi, kw, s->idm, &from, &m->cnt[j]);
            m->in[j] = (uint64_t *)from;
            m->sum += m->cnt[j];
        }
        cut(cur->keys, cur->n, lo, hi, kw, s->idm, &m->x, &m->nx);
        if (px)
            cut(px, npx, lo, hi, kw, s->idm, &m->y, &m->ny);
    }
    free(in);
    free(cnt);
    int rc = 0;
    uint64_t total = 0;
    for (int t = 0; t < P; t++)
        total += pt[t].sum;
    /* The parts merge straight into the level, each from where it would
     * start if nothing were dropped; then they close up (fresh buffers for
     * the parts and a copy into the level cost a fifth of the two-thread
     * time on the distinct-piece Klotski). */
    sb_error ignored;
    uint64_t *lv = m_alloc(s, abytes(s, total), p->pressed ? &ignored : err), at = 0;
    if (!lv && p->pressed) {
        /* too little room for the sum of the runs: count the parts (the
         * runs hold new keys only) and take exactly the level's size */
        total = 0;
        for (int t = 0; t < P; t++)
            pt[t].count = 1;
        sb_pool_run(P, merge_part, pt, sizeof *pt);
        for (int t = 0; t < P; t++) {
            if (pt[t].got == UINT64_MAX)
                rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
            pt[t].sum = pt[t].got;
            pt[t].count = 0;
            total += pt[t].sum;
        }
        lv = rc ? NULL : m_alloc(s, abytes(s, total), err);
    }
    if (!lv) {
        if (!rc && p->pressed) /* total is the new level's exact size */
            *need = 2 * (uint64_t)kbytes(s, total);
        free(pt);
        free(pin);
        free(pcnt);
        return SB_ENOMEM;
    }
    for (int t = 0; t < P; t++) {
        pt[t].out = lv + at * kw;
        at += pt[t].sum;
    }
    sb_pool_run(P, merge_part, pt, sizeof *pt);
    at = 0;
    for (int t = 0; t < P && !rc; t++) {
        if (pt[t].got == UINT64_MAX) {
            rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
            break;
        }
        if (t)
            memmove(lv + at * kw, pt[t].out, kbytes(s, pt[t].got));
        at += pt[t].got;
    }
    free(pt);
    free(pin);
    free(pcnt);
    if (rc) {
        m_free(s, lv, abytes(s, total));
        return rc;
    }
    *keys = m_realloc(s, lv, abytes(s, total), abytes(s, at), err);
    if (!*keys) {
        m_free(s, lv, abytes(s, total));
        return SB_ENOMEM;
    }
    *n = at;
    return 0;
}

/* ---- the bucketed level ----
 *
 * Runs cost more as levels grow: a level of 10^8 states lists 3 x 10^8
 * neighbours, some 600 runs of 4 MB, and every key then plays log2(600)
 * = 9 rounds of the merge's tournament, each a compare whose outcome is a
 * coin toss.  So for one-word keys, when the budget is not short, the
 * level is made the other way round: cut first, sort after.  The threads
 * list all the neighbours of their slices (noting the OR and the AND of
 * the keys, whose difference says which bits vary).  The keys are then
 * dealt into buckets that are ranges of keys: one counting pass, one
 * pass that moves every key once, each thread dealing its own keys to its
 * own places in every bucket.  Each bucket, about bucket_keys keys, fits
 * in the caches and is sorted there, freed of repeats and of the keys of
 * levels d and d-1 in its range; the buckets, in key order, close up into
 * the level.  Example with keys of 4 bits, 1010 0011 1000 0110 1011 and
 * 2 buckets split at bit 3: {0011 0110} {1010 1000 1011}; sorted
 * {0011 0110} {1000 1010 1011}; end to end, the sorted level.  A key is
 * moved twice and compared a few times however large the level, and the
 * buckets are shared among the threads by a counter, so both threads
 * work in every phase but the last copy.  It needs room for every
 * neighbour twice (the lists and the buckets), as the runs and the level
 * they merge into do; when that is not there, runs take over for the rest
 * of the run.
 *
 * Where to cut.  Keys are seldom spread evenly: on a 4 x 4 board with
 * nine equal tiles the highest bits, the kinds of the last cells, are
 * mostly the common kind, and cut by its 5 highest varying bits into 32
 * buckets, one bucket took three quarters of the keys.  So the keys are
 * counted by their 16 highest varying bits (65,536 bins), and buckets are
 * runs of consecutive bins holding about bucket_keys keys together; a
 * bin larger than that is a bucket alone and is dealt once more, by its
 * own highest varying bits, when it is sorted (bucket_keep). */
#define BUCKET_KEYS ((uint64_t)1 << 16) /* 512 KB: a bucket and its sort buffer fit in L2 */
#define BIN_BITS 16                     /* bins counted: 256 KB of counters a thread */
#define MAX_BUCKETS 4096                /* about the most buckets dealt into at once */
#define HEAVY_BUCKET 8                  /* times the target: a bucket dealt again */

/* Keys cut by nb = 2^bits values of the bits [shift, shift + bits) of
 * v & m; every key has the bits `high` above them. */
typedef struct digit {
    uint64_t m, nb, high;
    int shift;
} digit;

/* The digit of the highest varying bits of keys whose OR and AND are
 * orv and andv: at most max_bits of them, fewer when n keys need fewer
 * for parts of about target keys. */
static digit digit_for(uint64_t orv, uint64_t andv, uint64_t m, uint64_t n, uint64_t target, int max_bits)
{
    digit d;
    uint64_t vary = (orv ^ andv) & m;
    int top = 64, bits = 0;
    while (top > 0 && !(vary >> (top - 1) & 1))
        top--;
    while (bits < max_bits && bits < top && n >> bits > target)
        bits++;
    d.m = m;
    d.nb = (uint64_t)1 << bits;
    d.shift = bits ? top - bits : 0; /* one part: every key in it */
    d.high = top == 64 ? 0 : andv & m & ~(((uint64_t)1 << top) - 1);
    return d;
}

static inline uint64_t digit_of(const digit *d, uint64_t v)
{
    return ((v & d->m) >> d->shift) & (d->nb - 1);
}

/* The least key whose digit is j. */
static uint64_t digit_low(const digit *d, uint64_t j)
{
    return d->high | j << d->shift;
}

typedef struct bucketing {
    uint64_t *keys;         /* every neighbour, bucket by bucket */
    digit bin;              /* the bins counted */
    uint32_t *bucket;       /* bin.nb: the bucket of each bin */
    uint64_t nb;            /* buckets */
    uint64_t *start;        /* nb + 1: where bucket j begins */
    uint64_t *low;          /* nb: the least key of bucket j (j > 0); then where its
                               kept keys go in the level */
    uint64_t *got;          /* nb: the keys bucket j keeps, at its start */
    uint64_t *order;        /* nb: the buckets in the order they are sorted, large first */
    uint64_t *level;        /* the new level */
    uint64_t target;
    const uint64_t *cur, *prev;
    uint64_t ncur, nprev;
    atomic_uint_fast64_t next; /* the next bucket to sort */
    atomic_int failed;
} bucketing;

typedef struct bworker {
    _Alignas(64) bucketing *g;
    const uint64_t *keys; /* this thread's neighbours */
    uint64_t n;
    uint32_t *bins;       /* bin.nb: its keys in each bin */
    uint64_t *at;         /* nb: where its next key of each bucket goes */
    uint64_t *tmp;        /* the sort's other buffer: the largest bucket */
} bworker;

static void *bucket_count(void *arg)
{
    bworker *b = arg;
    for (uint64_t i = 0; i < b->n; i++)
        b->bins[digit_of(&b->g->bin, b->keys[i])]++;
    return NULL;
}

static void *bucket_deal(void *arg)
{
    bworker *b = arg;
    const bucketing *g = b->g;
    uint64_t *out = g->keys;
    for (uint64_t i = 0; i < b->n; i++) {
        uint64_t v = b->keys[i];
        out[b->at[g->bucket[digit_of(&g->bin, v)]]++] = v;
    }
    return NULL;
}

/* Sort a[0..n) with tmp (as large) for scratch, keep each key once and
 * only if levels d and d-1 do not hold it, looking in them only between
 * the keys lo and hi (NULL: no bound); the kept keys end at the front of
 * a.  Returns how many. */
static uint64_t sort_keep(const bucketing *g, uint64_t *a, uint64_t *tmp, uint64_t n,
                          const uint64_t *lo, const uint64_t *hi, int *failed)
{
    const uint64_t *x, *y;
    uint64_t nx, ny, m = g->bin.m;
    uint64_t *sorted = sb_keys_sort(a, tmp, n, 1, m);
    if (!sorted) {
        *failed = 1;
        return 0;
    }
    cut(g->cur, g->ncur, lo, hi, 1, m, &x, &nx);
    cut(g->prev, g->nprev, lo, hi, 1, m, &y, &ny);
    uint64_t k = sb_keys_unique_minus(sorted, n, x, nx, y, ny, 1, m);
    if (sorted != a)
        memcpy(a, sorted, k * sizeof *a);
    return k;
}

/* A bucket: sort_keep, but one much larger than the target (a heavy bin)
 * is dealt once more, into tmp, by its own highest varying bits.  Each
 * part then sorts with the part of a under it for scratch (those keys
 * are all in tmp now) and its kept keys close up at the front of a,
 * which never passes the end of the part: later parts' scratch is not
 * touched. */
static uint64_t bucket_keep(const bucketing *g, uint64_t *a, uint64_t *tmp, uint64_t n,
                            const uint64_t *lo, const uint64_t *hi, int *failed)
{
    if (n <= HEAVY_BUCKET * g->target)
        return sort_keep(g, a, tmp, n, lo, hi, failed);
    uint64_t orv = 0, andv = ~(uint64_t)0;
    for (uint64_t i = 0; i < n; i++) {
        orv |= a[i];
        andv &= a[i];
    }
    digit d = digit_for(orv, andv, g->bin.m, n, g->target, BIN_BITS);
    uint64_t *end = calloc(d.nb + 1, sizeof *end);
    if (!end) {
        *failed = 1;
        return 0;
    }
    for (uint64_t i = 0; i < n; i++)
        end[digit_of(&d, a[i]) + 1]++;
    for (uint64_t j = 1; j <= d.nb; j++)
        end[j] += end[j - 1];
    for (uint64_t i = 0; i < n; i++)
        tmp[end[digit_of(&d, a[i])]++] = a[i]; /* then end[j] is where part j ends */
    uint64_t o = 0, from = 0;
    for (uint64_t j = 0; j < d.nb && !*failed; j++) {
        uint64_t l = digit_low(&d, j), u = j + 1 < d.nb ? digit_low(&d, j + 1) : 0;
        uint64_t k = sort_keep(g, tmp + from, a + from, end[j] - from, j ? &l : lo,
                               j + 1 < d.nb ? &u : hi, failed);
        memcpy(a + o, tmp + from, k * sizeof *a);
        o += k;
        from = end[j];
    }
    free(end);
    return o;
}

static void *bucket_sort(void *arg)
{
    bworker *b = arg;
    bucketing *g = b->g;
    int failed = 0;
    for (;;) {
        uint64_t i = atomic_fetch_add_explicit(&g->next, 1, memory_order_relaxed);
        if (i >= g->nb || failed)
            break;
        uint64_t j = g->order[i], n = g->start[j + 1] - g->start[j];
        /* an empty bucket is skipped: with no neighbours at all, keys is NULL */
        g->got[j] = n ? bucket_keep(g, g->keys + g->start[j], b->tmp, n, j ? &g->low[j] : NULL,
                                    j + 1 < g->nb ? &g->low[j + 1] : NULL, &failed)
                      : 0;
    }
    if (failed)
        atomic_store_explicit(&g->failed, 1, memory_order_relaxed);
    return NULL;
}

static void *bucket_copy(void *arg)
{
    bucketing *g = ((bworker *)arg)->g;
    for (;;) {
        uint64_t j = atomic_fetch_add_explicit(&g->next, 1, memory_order_relaxed);
        if (j >= g->nb)
            break;
        if (g->got[j])
            memcpy(g->level + g->low[j], g->keys + g->start[j], g->got[j] * sizeof *g->keys);
    }
    return NULL;
}

/* The new level from the neighbours the T workers listed with emit_all.
 * SB_ENOMEM when the buckets do not fit (the caller makes the level from
 * runs instead). */
static int bucket_level(sb_levels *s, worker *w, int T, const sb_level *cur, const sb_level *prev,
                        uint64_t **keys, uint64_t *n, sb_error *err)
{
    priv *p = s->priv;
    bucketing g;
    bworker bw[MAXT];
    uint64_t total = 0, orv = 0, andv = ~(uint64_t)0;
    int rc = 0;
    memset(&g, 0, sizeof g);
    memset(bw, 0, sizeof bw);
    for (int t = 0; t < T; t++) {
        if (w[t].n > UINT32_MAX)
            return sb_error_set(err, SB_ENOMEM, 0, 0, "too many keys for the bins' counters");
        total += w[t].n;
        orv |= w[t].orv;
        andv &= w[t].andv;
    }
    g.target = p->bucket_keys;
    if (total / MAX_BUCKETS >= g.target)
        g.target = total / MAX_BUCKETS + 1;
    g.bin = digit_for(orv, andv, s->idm, total, 1, BIN_BITS);
    g.cur = cur->keys;
    g.ncur = cur->n;
    g.prev = prev ? prev->keys : NULL;
    g.nprev = prev ? prev->n : 0;
    atomic_init(&g.next, 0);
    atomic_init(&g.failed, 0);
    size_t nbin = g.bin.nb;
    uint32_t *bins = calloc((size_t)T * nbin, sizeof *bins);
    uint64_t *at = malloc((size_t)T * nbin * sizeof *at);
    g.bucket = malloc(nbin * sizeof *g.bucket);
    g.start = malloc((nbin + 1) * sizeof *g.start);
    g.low = malloc(nbin * sizeof *g.low);
    g.got = malloc(nbin * sizeof *g.got);
    g.order = malloc(nbin * sizeof *g.order);
    if (!bins || !at || !g.bucket || !g.start || !g.low || !g.got || !g.order) {
        rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        goto out;
    }
    if (p->deal.cap < total) { /* grown in place: the pages it has are not faulted in again */
        uint64_t *d = m_realloc(s, p->deal.buf, kbytes(s, p->deal.cap), kbytes(s, total), err);
        if (!d) {
            rc = SB_ENOMEM;
            goto out;
        }
        p->deal.buf = d;
        p->deal.cap = total;
    }
    g.keys = p->deal.buf;
    for (int t = 0; t < T; t++) {
        bw[t].g = &g;
        bw[t].keys = w[t].sc->buf;
        bw[t].n = w[t].n;
        bw[t].bins = bins + (size_t)t * nbin;
        bw[t].at = at + (size_t)t * nbin;
    }
    sb_pool_run(T, bucket_count, bw, sizeof *bw);
    /* buckets: consecutive bins up to about the target */
    uint64_t nb = 0, in = 0;
    memset(at, 0, (size_t)T * nbin * sizeof *at);
    for (size_t f = 0; f < nbin; f++) {
        uint64_t c = 0;
        for (int t = 0; t < T; t++)
            c += bw[t].bins[f];
        if (in && in + c > g.target) { /* a bucket begins at bin f */
            g.low[++nb] = digit_low(&g.bin, f);
            in = 0;
        }
        g.bucket[f] = (uint32_t)nb;
        for (int t = 0; t < T; t++)
            bw[t].at[nb] += bw[t].bins[f];
        in += c;
    }
    g.nb = nb + 1;
    /* bucket j holds thread 0's keys of it, then thread 1's, ... */
    uint64_t pos = 0, most = 0;
    for (uint64_t j = 0; j < g.nb; j++) {
        g.start[j] = pos;
        for (int t = 0; t < T; t++) {
            uint64_t c = bw[t].at[j];
            bw[t].at[j] = pos;
            pos += c;
        }
        if (pos - g.start[j] > most)
            most = pos - g.start[j];
    }
    g.start[g.nb] = pos;
    /* large buckets first, so that no thread is left with one at the end */
    uint64_t o = 0;
    for (int large = 1; large >= 0; large--)
        for (uint64_t j = 0; j < g.nb; j++)
            if ((g.start[j + 1] - g.start[j] > 2 * g.target) == large)
                g.order[o++] = j;
    sb_pool_run(T, bucket_deal, bw, sizeof *bw);
    if (most >= MAX_BATCH) {
        rc = sb_error_set(err, SB_ENOMEM, 0, 0, "a bucket of %llu keys is too large to sort",
                          (unsigned long long)most);
        goto out;
    }
    /* the sorting threads: as many as there are buckets, at most s->threads */
    int P = s->threads < MAXT ? s->threads : MAXT;
    if ((uint64_t)P > g.nb)
        P = (int)g.nb;
    for (int t = 0; t < P; t++) {
        scratch *sc = &p->sc[t];
        if (sc->tcap < most) {
            m_free(s, sc->tmp, kbytes(s, sc->tcap));
            sc->tcap = 0;
            if (!(sc->tmp = m_alloc(s, kbytes(s, most), err))) {
                rc = SB_ENOMEM;
                goto out;
            }
            sc->tcap = most;
        }
        bw[t].g = &g;
        bw[t].tmp = sc->tmp;
    }
    sb_pool_run(P, bucket_sort, bw, sizeof *bw);
    if (atomic_load(&g.failed)) {
        rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory sorting");
        goto out;
    }
    /* the level: the buckets' kept keys end to end, copied by P threads
     * (the pages of a new array cost as much to touch as to fill) */
    uint64_t kept = 0;
    for (uint64_t j = 0; j < g.nb; j++) {
        g.low[j] = kept; /* now where bucket j's keys go */
        kept += g.got[j];
    }
    if (!(g.level = level_alloc(s, abytes(s, kept), err))) {
        rc = SB_ENOMEM;
        goto out;
    }
    atomic_store(&g.next, 0);
    sb_pool_run(P, bucket_copy, bw, sizeof *bw);
    *keys = g.level;
    *n = kept;
out:
    free(bins);
    free(at);
    free(g.bucket);
    free(g.start);
    free(g.low);
    free(g.got);
    free(g.order);
    return rc;
}

/* Make the level after S's newest, from it and the one before it (none
 * when the newest is level 0 of a search from one state).  On failure
 * nothing is added and every buffer is given back. */
static int make_level_as(sb_levels *s, sb_side *S, int buckets, sb_control *ctl, sb_error *err,
                         uint64_t *need)
{
    priv *p = s->priv;
    *need = 0;
    const sb_level *cur = &S->lev[S->nlev - 1];
    const sb_level *prev = S->nlev >= 2 ? &S->lev[S->nlev - 2] : NULL;
    int T = s->threads < MAXT ? s->threads : MAXT;
    if (cur->n / PAR_MIN < (uint64_t)T)
        T = cur->n / PAR_MIN > 1 ? (int)(cur->n / PAR_MIN) : 1;
    if (p->pressed) {
        /* the threads' buffers, two of max_batch keys each, take 1/share
         * of the room the levels leave */
        uint64_t b = m_left(s) / ((uint64_t)2 * T * p->share * kbytes(s, 1));
        p->max_batch = b < MIN_BATCH ? MIN_BATCH : b > MAX_BATCH ? MAX_BATCH : b;
    }
    worker w[MAXT];
    atomic_int halt = 0;
    memset(w, 0, sizeof w[0] * (size_t)T);
    for (int t = 0; t < T; t++) {
        w[t].s = s;
        w[t].cur = cur->keys;
        w[t].ncur = cur->n;
        w[t].prev = prev ? prev->keys : NULL;
        w[t].nprev = prev ? prev->n : 0;
        w[t].lo = cur->n * (uint64_t)t / (uint64_t)T;
        w[t].hi = cur->n * (uint64_t)(t + 1) / (uint64_t)T;
        w[t].ctl = t == 0 ? ctl : NULL;
        w[t].halt = &halt;
        w[t].sc = &p->sc[t];
        w[t].emit = buckets ? emit_all : emit;
        w[t].andv = ~(uint64_t)0;
        /* A batch has room for 8 keys a state of the slice (style 0 lists
         * 3 or 4) as long as that is at most 4 MB, so that the
         * radix sort stays in the caches; then there is one run per thread
         * and little to merge.  Larger slices are sorted in 4 MB runs.  On
         * the distinct-piece Klotski (levels under 100,000) this took 1.69 s
         * against 1.88 s for a batch of one key a state; on fifteen-18 (to
         * 700,000) 0.14 s against 0.17 s for unbounded batches. */
        w[t].batch = (w[t].hi - w[t].lo) * BATCH_PER_STATE;
        if (w[t].batch > BATCH_BYTES / kbytes(s, 1))
            w[t].batch = BATCH_BYTES / kbytes(s, 1);
        if (w[t].batch < MIN_RUN)
            w[t].batch = MIN_RUN;
        if (w[t].batch > p->max_batch)
            w[t].batch = p->max_batch;
        w[t].level = S->base + S->nlev - 1;
        sb_error_clear(&w[t].err);
    }
    sb_pool_run(T, work, w, sizeof *w);
    int rc = 0;
    for (int t = 0; t < T; t++) {
        s->generated += w[t].generated;
        if (w[t].rc && (!rc || rc == SB_ENOMEM)) {
            rc = w[t].rc;
            if (err)
                *err = w[t].err;
        }
    }
    uint64_t *keys = NULL, n = 0;
    if (buckets) {
        if (!rc)
            rc = bucket_level(s, w, T, cur, prev, &keys, &n, err);
    } else {
        if (rc == SB_ENOMEM)
            *need = level_need(s, w, T);
        if (!rc && p->pressed)
            free_scratch(s); /* their room goes to the merge */
        if (!rc)
            rc = gather(s, w, T, cur, prev, &keys, &n, need, err);
    }
    for (int t = 0; t < T; t++)
        worker_clean(s, &w[t]);
    if (!rc && !keys && !(keys = m_alloc(s, abytes(s, 0), err)))
        rc = SB_ENOMEM;
    if (!rc && (rc = side_push(s, S, keys, n, err)) != 0)
        m_free(s, keys, abytes(s, n));
    return rc;
}

/* Buckets for one-word keys while the budget allows them, else runs.  An
 * attempt that runs out of memory counts none of its neighbours: the
 * level is made again (or on disk after a spill), and counted then. */
static int make_level(sb_levels *s, sb_side *S, sb_control *ctl, sb_error *err, uint64_t *need)
{
    priv *p = s->priv;
    uint64_t generated = s->generated;
    int rc;
    if (s->kw == 1 && !p->pressed && !p->runs_only && !p->no_buckets) {
        rc = make_level_as(s, S, 1, ctl, err, need);
        s->bucketed += rc == 0;
        if (rc != SB_ENOMEM)
            return rc;
        s->generated = generated;
        p->no_buckets = 1;
        free_scratch(s);
    }
    rc = make_level_as(s, S, 0, ctl, err, need);
    if (rc == SB_ENOMEM)
        s->generated = generated;
    return rc;
}

/* ---- the budget ---- */

static int droppable(const sb_droprule *r, int i)
{
    if (i == 0 && r->base == 0)
        return 0; /* level 0: the start, one state, always a checkpoint */
    if (i >= r->nlev - 2 || !r->held(r->ctx, i))
        return 0;
    return !*r->checkpoint(r->ctx, i) && !(i + 1 < r->nlev && *r->checkpoint(r->ctx, i + 1));
}

int sb_levels_drop(const sb_droprule *r)
{
    int got = 0;
    if (!r->census) {
        /* the two newest become a checkpoint pair, if the older are not
         * already the only ones */
        for (int i = r->borrowed; i < r->nlev - 2; i++)
            if (droppable(r, i))
                got++;
        if (got && r->nlev >= 2)
            *r->checkpoint(r->ctx, r->nlev - 1) = 1;
        got = 0;
    }
    for (int i = r->borrowed; i < r->nlev - 2; i++)
        if (r->census ? r->held(r->ctx, i) : droppable(r, i)) {
            r->drop(r->ctx, i);
            got++;
        }
    if (!got && !r->census) {
        /* only checkpoints are left: give up the oldest pair */
        for (int i = r->borrowed; i < r->nlev - 2; i++)
            if (r->held(r->ctx, i) && !(i == 0 && r->base == 0)) {
                if (i + 1 < r->nlev && *r->checkpoint(r->ctx, i + 1))
                    *r->checkpoint(r->ctx, i + 1) = 0;
                *r->checkpoint(r->ctx, i) = 0;
                r->drop(r->ctx, i);
                got++;
                break;
            }
    }
    return got;
}

typedef struct {
    sb_levels *s;
    sb_side *S;
} drop_ctx;

static int held_level(void *ctx, int i)
{
    return ((drop_ctx *)ctx)->S->lev[i].keys != NULL;
}

static int *checkpoint_of(void *ctx, int i)
{
    return &((drop_ctx *)ctx)->S->lev[i].checkpoint;
}

static void drop_level(void *ctx, int i)
{
    drop_ctx *c = ctx;
    level_drop(c->s, &c->S->lev[i], 0);
}

/* Drop what may go on S (sb_levels_drop); its first `borrowed` levels
 * belong to another side.  Returns levels dropped. */
static int drop_levels(sb_levels *s, sb_side *S, int borrowed, int census)
{
    if (s->keep && !census)
        return 0;
    drop_ctx c = {s, S};
    sb_droprule r = {&c, S->nlev, S->base, borrowed, census, held_level, checkpoint_of, drop_level};
    int got = sb_levels_drop(&r);
    if (!census)
        s->dropped += got;
    return got;
}

/* Make the next level of S, dropping older levels (of S, then of `other`)
 * and then shrinking the buffers when the budget is short.
 *
 * Every failed attempt costs a level's worth of work, so the attempts are
 * few.  The first failure puts the run under pressure: from then on each
 * batch leaves out levels d and d-1 as it is made (galloping through
 * them, see keysort.c), so that the runs hold new keys only, and the
 * buffers are fitted to the room left.  Then an attempt that fails knows a
 * lower bound on what the level needs (level_need): enough levels are
 * dropped at once to make that room, and when even dropping all that may
 * go cannot, the run stops at once.  Only a failure that the bound does
 * not explain shrinks the buffers, by 4 each time.  Before this a 15-puzzle
 * census with 64 MB, which cannot hold distances 19 to 21, tried again
 * with buffers 4 times smaller down to 256 keys, a dozen full attempts
 * each slower than the last, and gave up after minutes; now it gives up
 * after two attempts. */
static int next_level(sb_levels *s, sb_side *S, int borrowed, sb_side *other, int census,
                      sb_control *ctl, sb_error *err)
{
    priv *p = s->priv;
    if (census)
        drop_levels(s, S, borrowed, 1);
    for (;;) {
        uint64_t need;
        int rc = make_level(s, S, ctl, err, &need);
        if (rc != SB_ENOMEM)
            return rc;
        free_scratch(s);
        int first = !p->pressed, dropped = 0;
        p->pressed = 1;
        for (;;) {
            if (!drop_levels(s, S, borrowed, census) && !(other && drop_levels(s, other, 0, census)))
                break;
            dropped = 1;
            if (m_left(s) >= need)
                break;
        }
        size_t left = m_left(s);
        if (left >= need && (dropped || first))
            continue;
        if (left >= need && p->max_batch > MIN_BATCH) {
            p->share *= 4;
            continue;
        }
        sb_error_set(err, SB_ENOMEM, 0, 0,
                     "memory budget exhausted: %zu bytes cannot hold distances %d and %d%s "
                     "(%llu and %llu configurations) while distance %d is made",
                     s->mem->limit, S->base + S->nlev - 2, S->base + S->nlev - 1,
                     S == &s->side[1] ? " from the goal" : "",
                     S->nlev >= 2 ? (unsigned long long)S->lev[S->nlev - 2].n : 0ULL,
                     (unsigned long long)S->lev[S->nlev - 1].n, S->base + S->nlev);
        if (err && left < need) {
            size_t l = strlen(err->msg);
            snprintf(err->msg + l, sizeof err->msg - l,
                     ", which needs at least %llu bytes more than the %zu left",
                     (unsigned long long)need, left);
        }
        return SB_ENOMEM;
    }
}

/* ---- the public engine ---- */

int sb_levels_model_ok(const sb_keymodel *m, const char *who, sb_error *err)
{
    if (!m || !m->expand)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "%s: %s is NULL", who, m ? "the model's expand" : "the model");
    if (m->key_words < 1 || m->key_words > MAXKW)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "keys of %d words are not supported", m->key_words);
    if (m->hint_bits < 0 || m->hint_bits > 63 || (m->hint_bits && m->key_words != 1))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "hints of %d bits in keys of %d words are not supported",
                            m->hint_bits, m->key_words);
    return 0;
}

int sb_levels_init(sb_levels *s, const sb_keymodel *m, int threads, sb_mem *mem, sb_error *err)
{
    int rc;
    if (!s)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_levels_init: s is NULL");
    memset(s, 0, sizeof *s);
    if ((rc = sb_levels_model_ok(m, "sb_levels_init", err)))
        return rc;
    threads = sb_pool_threads(threads);
    priv *p = calloc(1, sizeof *p);
    if (!p)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    pthread_mutex_init(&p->lock, NULL);
    p->max_batch = MAX_BATCH;
    p->share = 4;
    p->bucket_keys = BUCKET_KEYS;
    s->priv = p;
    s->model = *m;
    s->kw = m->key_words;
    s->idm = ~(uint64_t)0 >> m->hint_bits;
    s->threads = threads;
    s->mem = mem;
    return 0;
}

static void clear_result(sb_levels *s)
{
    side_free(s, &s->side[0], 0);
    side_free(s, &s->side[1], 0);
    if (s->meet)
        m_free(s, s->meet, kbytes(s, 1));
    s->meet = NULL;
    s->found = s->complete = s->exhausted = s->bidir = s->dropped = 0;
    s->length = -1;
    s->meet_level[0] = s->meet_level[1] = -1;
    s->generated = s->bucketed = 0;
}

void sb_levels_free(sb_levels *s)
{
    if (!s || !s->priv)
        return;
    clear_result(s);
    free_scratch(s);
    priv *p = s->priv;
    pthread_mutex_destroy(&p->lock);
    free(p);
    s->priv = NULL;
}

void sb_levels_tune(sb_levels *s, uint64_t bucket_keys, int runs_only)
{
    if (!s || !s->priv)
        return;
    priv *p = s->priv;
    p->bucket_keys = bucket_keys ? bucket_keys : BUCKET_KEYS;
    p->runs_only = runs_only;
}

int sb_levels_count(const sb_levels *s, int side)
{
    return s && (side == 0 || side == 1) ? s->side[side].nlev : 0;
}

uint64_t sb_levels_size(const sb_levels *s, int side, int d)
{
    if (!s || side < 0 || side > 1 || d < 0 || d >= s->side[side].nlev)
        return 0;
    return s->side[side].lev[d].n;
}

uint64_t sb_levels_total(const sb_levels *s)
{
    uint64_t t = 0;
    if (!s)
        return 0;
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < s->side[k].nlev; d++)
            t += s->side[k].lev[d].n;
    return t;
}

void sb_levels_release(sb_levels *s, int side, int d)
{
    if (s && s->priv && (side == 0 || side == 1) && d >= 0 && d < s->side[side].nlev)
        level_drop(s, &s->side[side].lev[d], 0);
}

const uint64_t *sb_levels_last(const sb_levels *s, uint64_t *n)
{
    const sb_side *S;
    if (!s || !n) {
        if (n)
            *n = 0;
        return NULL;
    }
    S = &s->side[0];
    *n = S->nlev ? S->lev[S->nlev - 1].n : 0;
    return S->nlev ? S->lev[S->nlev - 1].keys : NULL;
}

static int set_meet(sb_levels *s, const uint64_t *key, sb_error *err)
{
    s->meet = m_alloc(s, kbytes(s, 1), err);
    if (!s->meet)
        return SB_ENOMEM;
    memcpy(s->meet, key, kbytes(s, 1));
    s->meet[0] &= s->idm;
    s->found = 1;
    return 0;
}

/* The smallest goal in level L (is_goal, or the key goal), or -1. */
static int64_t find_goal(const sb_levels *s, const sb_level *L, const uint64_t *goal)
{
    if (s->model.is_goal) {
        uint64_t k[MAXKW];
        for (uint64_t i = 0; i < L->n; i++) {
            memcpy(k, L->keys + i * s->kw, kbytes(s, 1));
            k[0] &= s->idm;
            if (s->model.is_goal(s->model.ud, k))
                return (int64_t)i;
        }
        return -1;
    }
    return goal ? sb_keys_find(L->keys, L->n, goal, s->kw, s->idm) : -1;
}

static int start_side(sb_levels *s, sb_side *S, const uint64_t *key, sb_error *err)
{
    uint64_t *k = m_alloc(s, kbytes(s, 1), err);
    if (!k)
        return SB_ENOMEM;
    memcpy(k, key, kbytes(s, 1));
    int rc = side_push(s, S, k, 1, err);
    if (rc)
        m_free(s, k, kbytes(s, 1));
    return rc;
}

static int search(sb_levels *s, const uint64_t *start, const uint64_t *goal, unsigned flags,
                  sb_control *ctl, sb_error *err);

int sb_levels_run(sb_levels *s, const uint64_t *start, const uint64_t *goal, unsigned flags,
                  sb_control *ctl, sb_error *err)
{
    int rc;
    if (!s || !s->priv || !start)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_levels_run: %s",
                            !start ? "start is NULL" : "the engine is NULL or not set up");
    rc = search(s, start, goal, flags, ctl, err);
    free_scratch(s);
    /* the newest level goes out through sb_levels_last: without hints */
    sb_side *F = &s->side[0];
    if (F->nlev && F->lev[F->nlev - 1].keys && s->idm != ~(uint64_t)0)
        for (uint64_t i = 0; i < F->lev[F->nlev - 1].n; i++)
            F->lev[F->nlev - 1].keys[i] &= s->idm;
    return rc;
}

static int search(sb_levels *s, const uint64_t *start, const uint64_t *goal, unsigned flags,
                  sb_control *ctl, sb_error *err)
{
    int census = (flags & SB_LEVELS_CENSUS) != 0, rc;
    priv *p = s->priv;
    clear_result(s);
    p->pressed = 0;
    p->no_buckets = 0;
    p->share = 4;
    p->max_batch = MAX_BATCH;
    s->bidir = (flags & SB_LEVELS_BIDIR) && goal && !s->model.is_goal;
    if ((rc = start_side(s, &s->side[0], start, err)))
        return rc;
    if (!s->bidir) {
        sb_side *F = &s->side[0];
        int64_t g = find_goal(s, &F->lev[0], goal);
        while (g < 0) {
            if ((rc = next_level(s, F, 0, NULL, census, ctl, err)))
                return rc;
            const sb_level *L = &F->lev[F->nlev - 1];
            if (!L->n) { /* nothing new: the component is walked */
                F->nlev--;
                level_drop(s, &F->lev[F->nlev], 0);
                s->complete = 1;
                return 0;
            }
            g = find_goal(s, L, goal);
            if (sb_control_stopped(ctl))
                return sb_error_set(err, SB_EINTR, 0, 0, "stopped after distance %d", F->nlev - 1);
        }
        s->length = s->meet_level[0] = F->nlev - 1;
        s->meet_level[1] = 0;
        return set_meet(s, F->lev[F->nlev - 1].keys + (uint64_t)g * s->kw, err);
    }
    if (!memcmp(start, goal, kbytes(s, 1))) {
        s->length = s->meet_level[0] = s->meet_level[1] = 0;
        return set_meet(s, start, err);
    }
    if ((rc = start_side(s, &s->side[1], goal, err)))
        return rc;
    for (;;) {
        sb_side *F = &s->side[0], *B = &s->side[1];
        int k = F->lev[F->nlev - 1].n <= B->lev[B->nlev - 1].n ? 0 : 1;
        sb_side *X = &s->side[k], *Y = &s->side[1 - k];
        if ((rc = next_level(s, X, 0, Y, census, ctl, err)))
            return rc;
        const sb_level *L = &X->lev[X->nlev - 1], *M = &Y->lev[Y->nlev - 1];
        if (!L->n) { /* one side ran dry: the two are not connected */
            X->nlev--;
            level_drop(s, &X->lev[X->nlev], 0);
            s->complete = 1;
            s->exhausted = k;
            return 0;
        }
        int64_t i = sb_keys_first_common(L->keys, L->n, M->keys, M->n, s->kw, s->idm);
        if (i >= 0) {
            s->meet_level[k] = X->nlev - 1;
            s->meet_level[1 - k] = Y->nlev - 1;
            s->length = s->meet_level[0] + s->meet_level[1];
            return set_meet(s, L->keys + (uint64_t)i * s->kw, err);
        }
        if (sb_control_stopped(ctl))
            return sb_error_set(err, SB_EINTR, 0, 0, "stopped after distance %d", X->nlev - 1);
    }
}

/* ---- paths ---- */

typedef struct parent_ctx {
    const sb_levels *s;
    const sb_level *L;
    const uint64_t *best;
} parent_ctx;

static void on_parent(void *ctx, const uint64_t *key)
{
    parent_ctx *c = ctx;
    int kw = c->s->kw;
    int64_t i = sb_keys_find(c->L->keys, c->L->n, key, kw, c->s->idm);
    if (i >= 0 && (!c->best || (uint64_t)i * kw < (uint64_t)(c->best - c->L->keys)))
        c->best = c->L->keys + (uint64_t)i * kw;
}

/* out + d * kw receives the state at distance d (S's numbering) of a
 * shortest path to key (already in out at distance D), for d down to the
 * first distance S holds. */
static int trace(sb_levels *s, sb_side *S, int borrowed, int D, uint64_t *out, sb_control *ctl,
                 sb_error *err)
{
    int kw = s->kw;
    while (D > S->base) {
        int i = D - 1 - S->base; /* index of level D-1 in S */
        if (S->lev[i].keys) {
            parent_ctx c = {s, &S->lev[i], NULL};
            int rc = s->model.expand(s->model.ud, out + (uint64_t)D * kw, on_parent, &c);
            if (rc)
                return sb_error_set(err, rc, 0, 0, "the model failed to list moves");
            if (!c.best)
                return sb_error_set(err, SB_EINTERNAL, 0, 0, "no neighbour at distance %d", D - 1);
            memcpy(out + (uint64_t)(D - 1) * kw, c.best, kbytes(s, 1));
            out[(uint64_t)(D - 1) * kw] &= s->idm; /* hints would hide moves */
            D--;
            continue;
        }
        /* Level D-1 was dropped: search again from the nearest checkpoint
         * below it, a pair (c-1, c), or level 0 of a search from one
         * state; what is above D-1 is no longer needed. */
        for (int j = D - S->base; j < S->nlev; j++)
            if (j >= borrowed)
                level_drop(s, &S->lev[j], 0);
        int c = i - 1;
        while (c >= 0 && !(S->lev[c].keys && ((c == 0 && S->base == 0) || (c >= 1 && S->lev[c - 1].keys))))
            c--;
        if (c < 0)
            return sb_error_set(err, SB_EINTERNAL, 0, 0, "no checkpoint below distance %d", D - 1);
        sb_side sub = {0};
        int lent = c == 0 && S->base == 0 ? 1 : 2, rc = 0;
        for (int j = c + 1 - lent; j <= c && !rc; j++)
            rc = side_push(s, &sub, S->lev[j].keys, S->lev[j].n, err);
        sub.base = S->base + c + 1 - lent;
        while (!rc && sub.base + sub.nlev - 1 < D - 1)
            rc = next_level(s, &sub, lent, NULL, 0, ctl, err);
        if (!rc)
            rc = trace(s, &sub, lent, D, out, ctl, err);
        side_free(s, &sub, lent);
        if (rc)
            return rc;
        D = S->base + c + 1 - lent;
    }
    return 0;
}

static int path(sb_levels *s, uint64_t *keys, sb_control *ctl, sb_error *err);

int sb_levels_path(sb_levels *s, uint64_t *keys, sb_control *ctl, sb_error *err)
{
    int rc;
    if (!s || !s->priv || !keys)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_levels_path: %s",
                            !keys ? "keys is NULL" : "the engine is NULL or not set up");
    rc = path(s, keys, ctl, err);
    free_scratch(s);
    return rc;
}

static int path(sb_levels *s, uint64_t *keys, sb_control *ctl, sb_error *err)
{
    int kw = s->kw;
    if (!s->found)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "no goal was reached");
    int f = s->meet_level[0], g = s->meet_level[1];
    memcpy(keys + (uint64_t)f * kw, s->meet, kbytes(s, 1));
    int rc = trace(s, &s->side[0], 0, f, keys, ctl, err);
    if (rc || g == 0)
        return rc;
    /* the goal's side gives the rest backwards: distance j from the goal
     * is distance f + g - j from the start */
    uint64_t *back = malloc(kbytes(s, (uint64_t)g + 1));
    if (!back)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    memcpy(back + (uint64_t)g * kw, s->meet, kbytes(s, 1));
    rc = trace(s, &s->side[1], 0, g, back, ctl, err);
    for (int j = 0; j < g && !rc; j++)
        memcpy(keys + (uint64_t)(f + g - j) * kw, back + (uint64_t)j * kw, kbytes(s, 1));
    free(back);
    return rc;
}
