/* The indexed engine: breadth-first distance tables over a numbered space,
 * after the "Calculating tables" pseudo-code of Jaap's Puzzle Page
 * ("Indexing"), made to scale.
 *
 * The table is an array of small codes, `bits` to an index, packed into
 * 64-bit words.  With 2 bits a code is the distance mod 3 and 3 means "not
 * reached yet"; with 4 or 8 bits it is the distance itself, all ones for
 * "not reached".  Level d+1 is filled from level d in one of two ways:
 *
 *  - forward (the seed's loop): every index at distance d gives its
 *    successors, and those not reached yet get d+1.  With 2 bits, code d mod 3
 *    also marks the levels d-3, d-6, ...; expanding them again is harmless
 *    (their successors are all reached) but wasteful, so when the budget
 *    allows a one-bit-per-index frontier bitmap marks level d exactly.
 *
 *  - backward: every index not reached yet asks whether one of its
 *    neighbours is at distance d, and stops at the first that is.  This
 *    needs a symmetric move set (the neighbours of p are the positions p
 *    can be reached from).  Here mod 3 is no weakness: an unreached p has
 *    no neighbour nearer than d, so a neighbour with code d mod 3 is at
 *    distance d exactly.
 *
 * Forward costs (frontier) x (moves); backward costs (unreached) x (moves
 * tried before a hit).  Early on the frontier is tiny and almost everything
 * is unreached; late it is the other way round.  So each level is done the
 * cheaper way, as in direction-optimising BFS (Beamer, Asanovic and
 * Patterson, 2012): forward while the frontier is smaller than what is left
 * unreached, backward from then on.
 *
 * Threads split the indices into chunks of 2^16 and take chunks from a
 * shared counter.  In a forward level several threads may write the same
 * word, but only to turn "not reached" (all ones) into the one code of
 * level d+1: that is an atomic AND, which needs no retry loop, and whichever
 * thread's AND sees all ones in the old value counts the index, so each new
 * index is counted once.  In a backward level a thread writes only the words
 * of its own chunk and others only read them; the codes they look for (level
 * d) never change during the level.  Either way the result does not depend
 * on which thread did what. */
#include "sbfs/table.h"

#include "../core/le.h"
#include "../core/pool.h"
#include "../core/tablefile.h"
#include "../core/internal.h"
#include "table_internal.h"
#include "table_adopt.h"
#include "table_impl.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- one level, shared by all threads --------------------------------- */

typedef struct engine {
    const sb_model *m;
    aword *w;              /* the table */
    aword *front;          /* frontier bitmap, or NULL */
    uint64_t size;
    int bits;
    int backward;          /* this level's direction */
    uint64_t cur, next;    /* codes of level d and d+1 */
    uint64_t unreached;    /* code of "not reached" */
    uint64_t nchunks;
    atomic_uint_fast64_t next_chunk;
    atomic_uint_fast64_t found;   /* new indices so far this level */
    atomic_int stop;
    const sb_control *ctl;
    int level;
    uint64_t reached_before;
    size_t mem_used;
} engine;

typedef struct worker {
    engine *e;
    void *scratch;
    int report;            /* this worker calls the progress callback */
    uint64_t found;
} worker;

/* Mark q (if not reached) with code next; 1 when this call reached it. */
static inline int reach(engine *e, uint64_t q)
{
    int bits = e->bits, lg = lg_bits(bits);
    uint64_t wi = word_of(q, lg), sh = shift_of(q, lg);
    uint64_t mask = (UINT64_C(1) << bits) - 1, old;
    if (((atomic_load_explicit(&e->w[wi], memory_order_relaxed) >> sh) & mask) != e->unreached)
        return 0;
    old = atomic_fetch_and_explicit(&e->w[wi], ~((e->unreached ^ e->next) << sh),
                                    memory_order_relaxed);
    if (((old >> sh) & mask) != e->unreached)
        return 0;
    if (e->front)
        atomic_fetch_or_explicit(&e->front[q >> 6], UINT64_C(1) << (q & 63), memory_order_relaxed);
    return 1;
}

static uint64_t flush(engine *e, gen *g)
{
    uint64_t n = 0;
    for (int i = 0; i < g->npend; i++)
        n += (uint64_t)reach(e, g->pend[i]);
    g->npend = 0;
    return n;
}

/* Queue the successors of p (fetching their words meanwhile); reach the
 * queued ones when the queue is full. */
static uint64_t expand(engine *e, gen *g, uint64_t p)
{
    const sb_model *m = e->m;
    uint64_t n = 0, *out;
    int k = 0, lg = lg_bits(e->bits);
    if (g->npend + m->nmoves > PEND)
        n = flush(e, g);
    out = g->pend + g->npend;
    if (m->succ) {
        k = m->succ(m->ud, g->scratch, p, out);
    } else {
        gen_begin(g, p, 1);
        for (int mv = 0; mv < m->nmoves; mv++)
            out[k++] = gen_move(g, mv);
    }
    for (int i = 0; i < k; i++) {
        uint64_t q = out[i];
        if (q == SB_NO_INDEX || q >= e->size)
            continue;
        __builtin_prefetch((const void *)&e->w[word_of(q, lg)], 1);
        if (e->front)
            __builtin_prefetch((const void *)&e->front[q >> 6], 1);
        g->pend[g->npend++] = q; /* never past out[i]: compacting in place */
    }
    return n;
}

static uint64_t forward_chunk(engine *e, gen *g, uint64_t lo, uint64_t hi)
{
    uint64_t n = 0;
    if (e->front) {
        for (uint64_t i = lo >> 6; i < (hi + 63) >> 6; i++) {
            uint64_t f = atomic_load_explicit(&e->front[i], memory_order_relaxed), done = 0;
            while (f) {
                int b = __builtin_ctzll(f);
                uint64_t p = (i << 6) + (uint64_t)b;
                f &= f - 1;
                if (p >= hi || (uint64_t)load_code(e->w, p, e->bits) != e->cur)
                    continue; /* reached in this level: next level's frontier */
                n += expand(e, g, p);
                done |= UINT64_C(1) << b;
            }
            if (done)
                atomic_fetch_and_explicit(&e->front[i], ~done, memory_order_relaxed);
        }
        return n + flush(e, g);
    }
    {
        int bits = e->bits, lg = lg_bits(bits), per = per_word(bits);
        for (uint64_t i = word_of(lo, lg); i < word_of(hi + (uint64_t)per - 1, lg); i++) {
            uint64_t hit = fields_equal(atomic_load_explicit(&e->w[i], memory_order_relaxed),
                                        e->cur, bits);
            while (hit) {
                uint64_t p = (i << (6 - lg)) + (uint64_t)(__builtin_ctzll(hit) >> lg);
                hit &= hit - 1;
                if (p < hi)
                    n += expand(e, g, p);
            }
        }
    }
    return n + flush(e, g);
}

static uint64_t backward_chunk(engine *e, gen *g, uint64_t lo, uint64_t hi)
{
    int bits = e->bits, lg = lg_bits(bits), per = per_word(bits), nmoves = e->m->nmoves;
    uint64_t n = 0;
    for (uint64_t i = word_of(lo, lg); i < word_of(hi + (uint64_t)per - 1, lg); i++) {
        uint64_t x = atomic_load_explicit(&e->w[i], memory_order_relaxed);
        uint64_t hit = fields_equal(x, e->unreached, bits), clear = 0;
        while (hit) {
            int f = __builtin_ctzll(hit);
            uint64_t p = (i << (6 - lg)) + (uint64_t)(f >> lg);
            hit &= hit - 1;
            if (p >= hi)
                break;
            gen_begin(g, p, 0);
            for (int mv = 0; mv < nmoves; mv++) {
                uint64_t q = gen_move(g, mv);
                if (q != SB_NO_INDEX && q < e->size &&
                    (uint64_t)load_code(e->w, q, bits) == e->cur) {
                    clear |= (e->unreached ^ e->next) << f;
                    n++;
                    break;
                }
            }
        }
        if (clear)
            atomic_fetch_and_explicit(&e->w[i], ~clear, memory_order_relaxed);
    }
    return n;
}

static void *work(void *arg)
{
    worker *wk = arg;
    engine *e = wk->e;
    gen g;
    memset(&g, 0, sizeof g);
    g.m = e->m;
    g.scratch = wk->scratch;
    for (;;) {
        uint64_t c, lo, hi, n;
        if (atomic_load_explicit(&e->stop, memory_order_relaxed))
            break;
        if (sb_control_stopped(e->ctl)) {
            atomic_store(&e->stop, 1);
            break;
        }
        c = atomic_fetch_add(&e->next_chunk, 1);
        if (c >= e->nchunks)
            break;
        lo = c << CHUNK_SHIFT;
        hi = lo + CHUNK < e->size ? lo + CHUNK : e->size;
        n = e->backward ? backward_chunk(e, &g, lo, hi) : forward_chunk(e, &g, lo, hi);
        wk->found += n;
        atomic_fetch_add_explicit(&e->found, n, memory_order_relaxed);
        if (wk->report && e->ctl && e->ctl->progress) {
            sb_progress_info info;
            info.phase = e->backward ? "table (backward)" : "table (forward)";
            info.level = e->level + 1;
            info.done = e->reached_before + atomic_load_explicit(&e->found, memory_order_relaxed);
            info.total = e->size;
            info.mem_used = e->mem_used;
            e->ctl->progress(e->ctl->ud, &info);
        }
    }
    return NULL;
}

/* Run one level with `threads` workers (the caller's thread is one of
 * them); returns the number of indices reached.  A worker whose thread
 * cannot start runs after the others have taken every chunk, so it finds
 * none: the result is the same, only slower. */
static uint64_t run_level(engine *e, worker *wk, int threads)
{
    uint64_t total = 0;
    atomic_store(&e->next_chunk, 0);
    atomic_store(&e->found, 0);
    for (int i = 0; i < threads; i++)
        wk[i].found = 0;
    sb_pool_run(threads, work, wk, sizeof *wk);
    for (int i = 0; i < threads; i++)
        total += wk[i].found;
    return total;
}

/* ---- building --------------------------------------------------------- */


int sb_table_check_model(const sb_model *m, sb_error *err)
{
    if (!m || m->size == 0)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "model has no indices");
    /* Far more than any memory, and small enough that rounding the size
     * up to whole words and bitmap words cannot wrap round. */
    if (m->size > SB_TABLE_MAXSIZE)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "model has %llu indices, more than 2^56",
                            (unsigned long long)m->size);
    if (m->nmoves < 1 || m->nmoves > SB_MAX_MOVES)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "model has %d moves (1..%d allowed)",
                            m->nmoves, SB_MAX_MOVES);
    if (m->scratch_size > SB_MAX_SCRATCH)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "model scratch of %zu bytes is too large",
                            m->scratch_size);
    if (!m->move && !m->succ) {
        uint64_t n = 1;
        if (m->ncoords < 1 || m->ncoords > SB_MAX_COORDS || !m->coords)
            return sb_error_set(err, SB_EUSAGE, 0, 0, "model has no successor function");
        for (int j = 0; j < m->ncoords; j++) {
            if (!m->coords[j].size || !m->coords[j].move)
                return sb_error_set(err, SB_EUSAGE, 0, 0, "coordinate %d has no table", j);
            if (n > UINT64_MAX / m->coords[j].size)
                return sb_error_set(err, SB_EUSAGE, 0, 0, "coordinate sizes multiply past 2^64");
            n *= m->coords[j].size;
        }
        if (n != m->size)
            return sb_error_set(err, SB_EUSAGE, 0, 0,
                                "coordinate sizes multiply to %llu, not the model size %llu",
                                (unsigned long long)n, (unsigned long long)m->size);
    }
    return 0;
}

void sb_table_copy_name(char *dst, size_t n, const char *src)
{
    memset(dst, 0, n);
    if (src)
        strncpy(dst, src, n - 1);
}

size_t sb_table_bytes(uint64_t size, int bits)
{
    size_t b;
    if ((bits != 0 && bits != 2 && bits != 4 && bits != 8) || size > SB_TABLE_MAXSIZE)
        return 0;
    b = words_for(size, bits ? bits : 2) * 8;
    if (!bits || bits == 2)
        b += (size_t)((size + 63) / 64) * 8;
    return b;
}



/* Direction-switch threshold: go backward once the unreached indices are
 * fewer than this many times the indices the forward step would expand. */
#ifndef BACKWARD_RATIO
#define BACKWARD_RATIO 2
#endif

static int build(sb_table *t, const sb_model *m, const uint64_t *starts, size_t nstarts,
                 const sb_table_opts *opts, sb_mem *mem, const sb_control *ctl, sb_error *err);

int sb_table_build(sb_table **out, const sb_model *m, const uint64_t *starts, size_t nstarts,
                   const sb_table_opts *opts, sb_mem *mem, const sb_control *ctl,
                   sb_error *err)
{
    if (!out)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_table_build: t is NULL");
    *out = calloc(1, sizeof **out);
    if (!*out)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    int rc = build(*out, m, starts, nstarts, opts, mem, ctl, err);
    if (rc && !(*out)->data) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

static int build(sb_table *t, const sb_model *m, const uint64_t *starts, size_t nstarts,
                 const sb_table_opts *opts, sb_mem *mem, const sb_control *ctl, sb_error *err)
{
    sb_table_opts o = {2, 1, SB_SCAN_AUTO, -1};
    engine e;
    worker wk[SB_POOL_MAX];
    unsigned char *scratch = NULL;
    size_t nwords, front_bytes = 0;
    int rc = 0, threads, maxcode;

    t->maxdist = -1;
    if (opts)
        o = *opts;
    if (o.bits == 0)
        o.bits = 2;
    if ((rc = sb_table_check_model(m, err)))
        return rc;
    if (!starts && nstarts)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_table_build: starts is NULL");
    if (o.bits != 2 && o.bits != 4 && o.bits != 8)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "a table holds 2, 4 or 8 bits per index, not %d",
                            o.bits);
    if (o.scan == SB_SCAN_BACKWARD && !m->symmetric)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "backward scans need a symmetric model");
    threads = o.threads < 1 ? 1 : o.threads > SB_POOL_MAX ? SB_POOL_MAX : o.threads;
    maxcode = (1 << o.bits) - 1;

    t->size = m->size;
    t->bits = o.bits;
    t->mem = mem;
    sb_table_copy_name(t->name, sizeof t->name, m->name);
    sb_table_copy_name(t->params, sizeof t->params, m->params);
    nwords = words_for(m->size, o.bits);
    t->data_bytes = nwords * 8;
    t->data = sb_mem_alloc(mem, t->data_bytes, err);
    if (!t->data)
        return SB_ENOMEM;
    memset(t->data, 0xff, t->data_bytes);

    memset(&e, 0, sizeof e);
    e.m = m;
    e.w = (aword *)t->data;
    e.size = m->size;
    e.bits = o.bits;
    e.unreached = (uint64_t)maxcode;
    e.nchunks = (m->size + CHUNK - 1) >> CHUNK_SHIFT;
    if ((uint64_t)threads > e.nchunks)
        threads = (int)e.nchunks; /* a thread per chunk at most */
    e.ctl = ctl;
    atomic_store(&e.stop, 0);

    /* The frontier bitmap: only 2-bit tables need it, and only when the
     * budget has room; without it forward levels re-expand older levels. */
    if (o.bits == 2 && o.scan != SB_SCAN_BACKWARD) {
        front_bytes = (size_t)((m->size + 63) / 64) * 8;
        if (front_bytes <= sb_mem_left(mem)) {
            e.front = sb_mem_alloc(mem, front_bytes, NULL);
            if (!e.front)
                front_bytes = 0;
        } else {
            front_bytes = 0;
        }
    }
    e.mem_used = mem ? mem->used : t->data_bytes + front_bytes;

    if (m->scratch_size) {
        scratch = calloc((size_t)threads, m->scratch_size);
        if (!scratch) {
            rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory for thread scratch");
            goto out;
        }
    }
    for (int i = 0; i < threads; i++) {
        wk[i].e = &e;
        wk[i].scratch = scratch ? scratch + (size_t)i * m->scratch_size : NULL;
        wk[i].report = i == 0;
        wk[i].found = 0;
    }

    /* level 0: the starts */
    for (size_t i = 0; i < nstarts; i++) {
        uint64_t s = starts[i];
        if (s >= m->size) {
            rc = sb_error_set(err, SB_EUSAGE, 0, 0, "start index %llu is outside 0..%llu",
                              (unsigned long long)s, (unsigned long long)(m->size - 1));
            goto out;
        }
        if (get_code(t->data, s, o.bits) == maxcode) {
            t->data[word_of(s, lg_bits(o.bits))] &=
                ~((uint64_t)maxcode << shift_of(s, lg_bits(o.bits)));
            if (e.front)
                e.front[s >> 6] |= UINT64_C(1) << (s & 63);
            t->count[0]++;
        }
    }
    t->reached = t->count[0];
    t->maxdist = t->count[0] ? 0 : -1;

    for (int d = 0; t->count[d] > 0; d++) {
        uint64_t expanding = t->count[d], left = m->size - t->reached, n;
        if (o.max_depth >= 0 && d >= o.max_depth)
            break;
        if (d + 1 > SB_TABLE_MAXDIST) {
            rc = sb_error_set(err, SB_EUSAGE, 0, 0, "distances pass %d", SB_TABLE_MAXDIST);
            goto out;
        }
        if (o.bits == 2 && !e.front)
            for (int k = d - 3; k >= 0; k -= 3)
                expanding += t->count[k];
        if (o.scan == SB_SCAN_BACKWARD)
            e.backward = 1;
        else if (o.scan == SB_SCAN_AUTO && m->symmetric && !e.backward &&
                 left < expanding * BACKWARD_RATIO)
            e.backward = 1;
        if (e.backward && e.front) {
            /* forward levels are over: the bitmap is not kept up to date */
            sb_mem_free(mem, (void *)e.front, front_bytes);
            e.front = NULL;
            front_bytes = 0;
        }
        e.cur = (uint64_t)level_code(d, o.bits);
        e.level = d;
        e.reached_before = t->reached;
        if (o.bits != 2 && d + 1 >= maxcode) {
            /* d+1 has no code: find out whether any index is that far */
            e.next = (uint64_t)maxcode;
            n = run_level(&e, wk, threads);
            if (atomic_load(&e.stop))
                goto stopped;
            if (n) {
                rc = sb_error_set(err, SB_EUSAGE, 0, 0,
                                  "distances pass %d: a %d-bit table cannot hold them",
                                  maxcode - 1, o.bits);
                goto out;
            }
            break;
        }
        e.next = (uint64_t)level_code(d + 1, o.bits);
        n = run_level(&e, wk, threads);
        if (atomic_load(&e.stop))
            goto stopped;
        t->count[d + 1] = n;
        t->reached += n;
        if (n)
            t->maxdist = d + 1;
    }
    t->complete = o.max_depth < 0 || t->maxdist < o.max_depth;
    goto out;
stopped:
    rc = sb_error_set(err, SB_EINTR, 0, 0, "stopped at distance %d", e.level + 1);
out:
    if (e.front)
        sb_mem_free(mem, (void *)e.front, front_bytes);
    free(scratch);
    return rc;
}

void sb_table_free(sb_table *t)
{
    if (!t)
        return;
    if (t->map.base)
        sb_tf_unmap(&t->map);
    else if (t->disk_map)
        munmap(t->disk_map, t->disk_map_bytes);
    else if (t->data)
        sb_mem_free(t->mem, t->data, t->data_bytes);
    free(t);
}

sb_table_info sb_table_about(const sb_table *t)
{
    sb_table_info in = {0, 0, 0, 0, 0, 0, "", "", 0, 0};
    if (t) {
        in.name = t->name;
        in.params = t->params;
        in.size = t->size;
        in.bits = t->bits;
        in.data_bytes = t->data_bytes;
        in.levels = t->maxdist + 1;
        in.reached = t->reached;
        in.complete = t->complete;
        in.slices = t->slices;
        in.disk_peak = t->disk_peak;
    }
    return in;
}

uint64_t sb_table_count(const sb_table *t, int d)
{
    return t && d >= 0 && d <= t->maxdist ? t->count[d] : 0;
}

const uint64_t *sb_table_codes(const sb_table *t)
{
    return t ? t->data : NULL;
}

/* ---- reading ----------------------------------------------------------- */

/* 1 when t looks like a table sb_table_build or sb_table_load made: bits
 * one of 2, 4, 8 and data words for every index.  A zeroed sb_table (no
 * data) passes: it reads as "nothing reached". */
static int table_ok(const sb_table *t)
{
    return t && (t->bits == 2 || t->bits == 4 || t->bits == 8) &&
           (!t->data || (t->size <= SB_TABLE_MAXSIZE &&
                         t->data_bytes >= words_for(t->size, t->bits) * 8));
}

int sb_table_code(const sb_table *t, uint64_t r)
{
    if (!table_ok(t))
        return SB_EUSAGE;
    if (!t->data || r >= t->size)
        return (1 << t->bits) - 1;
    return get_code(t->data, r, t->bits);
}

int sb_table_step(const sb_table *t, const sb_model *m, uint64_t r, uint64_t *next, int *move)
{
    _Alignas(16) unsigned char scratch[SB_MAX_SCRATCH];
    int c, want;
    gen g;
    if (!table_ok(t) || !next || sb_table_check_model(m, NULL) || (t->data && m->size != t->size))
        return SB_EUSAGE;
    c = sb_table_code(t, r);
    if (c == (1 << t->bits) - 1)
        return -1;
    if (t->bits != 2 && c == 0)
        return 0;
    want = t->bits == 2 ? (c + 2) % 3 : c - 1;
    memset(&g, 0, sizeof g);
    if (m->scratch_size)
        memset(scratch, 0, m->scratch_size);
    g.m = m;
    g.scratch = scratch;
    gen_begin(&g, r, 0);
    for (int mv = 0; mv < m->nmoves; mv++) {
        uint64_t q = gen_move(&g, mv);
        if (q != SB_NO_INDEX && q < t->size && get_code(t->data, q, t->bits) == want) {
            *next = q;
            if (move)
                *move = mv;
            return 1;
        }
    }
    return 0; /* no neighbour one nearer: r is a start */
}

int sb_table_distance(const sb_table *t, const sb_model *m, uint64_t r)
{
    int c, d = 0, s;
    uint64_t q;
    if (!table_ok(t))
        return SB_EUSAGE;
    c = sb_table_code(t, r);
    if (c == (1 << t->bits) - 1)
        return -1;
    if (t->bits != 2)
        return c;
    if (sb_table_check_model(m, NULL) || m->size != t->size)
        return SB_EUSAGE;
    while ((s = sb_table_step(t, m, r, &q, NULL)) == 1) {
        r = q;
        if (++d > SB_TABLE_MAXDIST)
            return -1; /* not the model the table was built with */
    }
    return d;
}

/* ---- files ------------------------------------------------------------- */

/* A table file is the container of tablefile.h, kind "distance", version 2
 * (version 1 was a format of its own, "SBFSTBL1").  Its parameters, at
 * these offsets in the file (docs/FORMAT.md):
 *   32  name[32]           64  params[64]       128  size (u64)
 *  136  bits (u32)        140  maxdist (i32)    144  complete (u32)
 *  148  zero (u32)        152  reached (u64)    160  count[maxdist+1] (u64 each)
 * and the data is the packed words. */
static const sb_tf_kind table_kind = {"distance", 2, "an sbfs distance table"};

enum { P_NAME = 0, P_PARAMS = 32, P_SIZE = 96, P_BITS = 104, P_MAXDIST = 108,
       P_COMPLETE = 112, P_ZERO = 116, P_REACHED = 120, P_COUNT = 128 };

static size_t params_bytes(int maxdist)
{
    return P_COUNT + 8 * (size_t)(maxdist + 1);
}

int sb_table_save(const sb_table *t, const char *path, sb_error *err)
{
    unsigned char p[P_COUNT + 8 * (SB_TABLE_MAXDIST + 1)];
    if (!table_ok(t) || !t->data || !path || t->maxdist < -1 || t->maxdist > SB_TABLE_MAXDIST)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_table_save: %s",
                            !path ? "path is NULL" : "no table to save");
    memset(p, 0, P_COUNT);
    memcpy(p + P_NAME, t->name, 31);
    memcpy(p + P_PARAMS, t->params, 63);
    sb_le_put64(p + P_SIZE, t->size);
    sb_le_put32(p + P_BITS, (uint32_t)t->bits);
    sb_le_put32(p + P_MAXDIST, (uint32_t)t->maxdist);
    sb_le_put32(p + P_COMPLETE, (uint32_t)t->complete);
    sb_le_put64(p + P_REACHED, t->reached);
    for (int d = 0; d <= t->maxdist; d++)
        sb_le_put64(p + P_COUNT + 8 * (size_t)d, t->count[d]);
    /* only the words that hold codes: data_bytes may be more */
    return sb_tf_save(path, &table_kind, p, params_bytes(t->maxdist), t->data,
                      (uint64_t)words_for(t->size, t->bits) * 8, 8, err);
}

static int load(sb_table *t, const sb_model *m, const char *path, sb_mem *mem, sb_error *err);

int sb_table_load(sb_table **out, const sb_model *m, const char *path, sb_mem *mem, sb_error *err)
{
    if (!out || !path)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_table_load: %s is NULL", out ? "path" : "t");
    *out = calloc(1, sizeof **out);
    if (!*out)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    int rc = load(*out, m, path, mem, err);
    if (rc) {
        sb_table_free(*out);
        *out = NULL;
    }
    return rc;
}

static int load(sb_table *t, const sb_model *m, const char *path, sb_mem *mem, sb_error *err)
{
    unsigned char p[P_COUNT + 8 * (SB_TABLE_MAXDIST + 1)];
    char name[32], params[64], want_params[64];
    uint64_t size, reached, total = 0;
    int bits, maxdist, rc;
    size_t np;
    sb_tf_reader r;

    t->maxdist = -1;
    if ((rc = sb_table_check_model(m, err)))
        return rc;
    if ((rc = sb_tf_open(&r, path, &table_kind, p, sizeof p, &np, err)))
        return rc;
    if (np < P_COUNT)
        return sb_tf_refuse(&r, err, "damaged table header");
    memcpy(name, p + P_NAME, 32);
    memcpy(params, p + P_PARAMS, 64);
    name[31] = params[63] = 0;
    size = sb_le_get64(p + P_SIZE);
    bits = (int)sb_le_get32(p + P_BITS);
    maxdist = (int)sb_le_get32(p + P_MAXDIST);
    reached = sb_le_get64(p + P_REACHED);
    sb_table_copy_name(want_params, sizeof want_params, m->params);
    if (strncmp(name, m->name ? m->name : "", 31) != 0 || strcmp(params, want_params) != 0 ||
        size != m->size)
        return sb_tf_refuse(&r, err, "table is for %s%s%s, not %s%s%s", name,
                            params[0] ? " " : "", params, m->name ? m->name : "",
                            want_params[0] ? " " : "", want_params);
    if ((bits != 2 && bits != 4 && bits != 8) || maxdist < -1 || maxdist > SB_TABLE_MAXDIST ||
        size > SB_TABLE_MAXSIZE || np != params_bytes(maxdist) ||
        r.bytes != (uint64_t)words_for(size, bits) * 8)
        return sb_tf_refuse(&r, err, "damaged table header");
    for (int d = 0; d <= maxdist; d++) {
        t->count[d] = sb_le_get64(p + P_COUNT + 8 * (size_t)d);
        total += t->count[d];
    }
    if (total != reached || reached > size)
        return sb_tf_refuse(&r, err, "damaged table header");
    /* On a little-endian host the words are used where they lie in the
     * file: mapped read-only, not read and copied (tablefile.h), the whole
     * checksum taken on every load (a user's file has no marker). */
    if (!SB_LE_HOST) {
        t->data = sb_mem_alloc(mem, (size_t)r.bytes, err);
        if (!t->data) {
            sb_tf_close(&r);
            return SB_ENOMEM;
        }
        t->mem = mem;
    }
    t->data_bytes = (size_t)r.bytes;
    t->size = size;
    t->bits = bits;
    t->maxdist = maxdist;
    t->reached = reached;
    t->complete = (int)sb_le_get32(p + P_COMPLETE);
    memcpy(t->name, name, 32);
    memcpy(t->params, params, 64);
    if (SB_LE_HOST) {
        int rc2 = sb_tf_map_data(&r, SB_TF_VERIFY, &t->map, err);
        /* read-only pages: a loaded table is only read */
        t->data = rc2 ? NULL : (uint64_t *)(uintptr_t)t->map.data;
        return rc2;
    }
    return sb_tf_read(&r, t->data, 8, err);
}

/* ---- codes made elsewhere (table_adopt.h) ------------------------------ */

int sb_table_adopt(sb_table **out, const sb_model *m, uint64_t *data, size_t data_bytes, const uint64_t *count,
                   int levels, sb_mem *mem, sb_error *err)
{
    int rc = !out || !data || !count ? sb_error_set(err, SB_EUSAGE, 0, 0, "sb_table_adopt: NULL argument")
                                     : sb_table_check_model(m, err);
    if (!rc && (levels < 1 || levels > SB_TABLE_MAXDIST + 1 || data_bytes < words_for(m->size, 2) * 8))
        rc = sb_error_set(err, SB_EUSAGE, 0, 0, "sb_table_adopt: %d levels, %zu bytes", levels, data_bytes);
    sb_table *t = rc ? NULL : calloc(1, sizeof *t);
    if (!rc && !t)
        rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    if (rc) {
        if (data)
            sb_mem_free(mem, data, data_bytes);
        return rc;
    }
    t->size = m->size;
    t->bits = 2;
    t->data = data;
    t->data_bytes = data_bytes;
    t->mem = mem;
    t->maxdist = levels - 1;
    for (int d = 0; d < levels; d++)
        t->reached += t->count[d] = count[d];
    t->complete = 1;
    sb_table_copy_name(t->name, sizeof t->name, m->name);
    sb_table_copy_name(t->params, sizeof t->params, m->params);
    *out = t;
    return 0;
}
