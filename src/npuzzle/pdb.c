/* Pattern databases for sliding-tile puzzles: the builder, the files.
 *
 * The abstract puzzle.  Keep the k pattern tiles and the blank; every other
 * tile becomes an anonymous "hole" the blank can pass through.  A move that
 * swaps the blank with a pattern tile costs 1; a move that swaps it with a
 * hole costs 0 (in the real puzzle some other pattern pays for it).  The
 * table stores, for each placement of the pattern tiles, the cheapest way
 * home over all blank positions.  This is Korf and Felner's construction;
 * charging every tile move 1, as a plain breadth-first search over the
 * abstract states would, counts moves that other patterns also count, so
 * the tables could not be added, or, once made additive by discarding the
 * blank, come out far weaker.
 *
 * The search.  Cost-0 moves let the blank reach every free cell of the
 * connected region it stands in, so the state that matters is (placement,
 * region).  We run a breadth-first search by cost level over placements,
 * keeping for each placement the set of free cells the blank has been seen
 * in (`seen`), and the sets first reached at this level (`cur`) and the next
 * (`next`).  A set is stored as a bit mask over the placement's free cells in
 * increasing order (bit j = j-th free cell), so it takes n-k bits: one byte
 * per placement for the 8-tile pattern of the 15-puzzle.  Expanding a
 * placement at level d: for every blank cell b in cur, every pattern tile on
 * a neighbour c of b may slide into b; in the new placement the blank stands
 * at c and, at no further cost, anywhere in c's region, which is added to
 * next (and seen) unless already seen.  The first level a placement is
 * reached at is its value.  Tiny example on a 2 x 2 board with pattern {1}
 * (goal "0 1 / 2 3", tile 1 home in cell 1): the placement "tile 1 in cell
 * 2" has value 2, for tile 1 must go round a corner, while the blank's trips
 * around it, which the real puzzle pays for with tiles 2 and 3, are free.
 *
 * The start.  Level 0 holds the goal placement with the blank in the region
 * of its goal cell (cell 0 in the blank-first frame), as in Korf and Felner.
 * Taking the blank anywhere would also give a lower bound, but a weaker one
 * when the goal's free cells are split: for the 7-tile pattern {1..7} cell 0
 * is cut off from cells 8..15, and starting in both regions cost the 7-8
 * search nearly four times as many nodes on Korf's 100.
 *
 * Why not the indexed engine: the engine fills a distance per state index
 * by levels of unit-cost moves; here the blank's moves through holes cost
 * 0, and a placement collects blank regions over several levels, its value
 * being the first of them, so the state is (placement, region set).  In
 * numbers, for the 8-tile pattern of the 15-puzzle: 16!/8! = 518,918,400
 * placements, one byte each here (0.52 GB for the table); numbered as
 * (placement, blank cell) for the engine they would be 8 times as many,
 * 4,151,347,200 indices, 1.04 GB at the engine's 2 bits before its frontier
 * bitmaps, and a 0-cost move would still need a second pass per level. */
#include "pdb.h"

#include "../index/rank_internal.h"

#include "../core/hash.h"
#include "../core/le.h"
#include "../core/pool.h"
#include "../core/tablefile.h"
#include "../core/internal.h"

#include <stdio.h>
#include <string.h>


/* 1 when pdb is a pattern sb_np_pdb_init described: the fields every other
 * function indexes or sizes by are as init leaves them. */
static int pdb_ok(const sb_np_pdb *pdb)
{
    uint32_t seen = 0;
    if (!pdb || pdb->rows < 2 || pdb->rows > 5 || pdb->cols < 2 || pdb->cols > 5 ||
        pdb->n != pdb->rows * pdb->cols || pdb->k < 1 || pdb->k > SB_NP_PDB_MAXK ||
        pdb->k > pdb->n - 1 || pdb->size != sb_falling(pdb->n, pdb->k))
        return 0;
    for (int i = 0; i < pdb->k; i++) {
        if (pdb->tiles[i] < 1 || pdb->tiles[i] >= pdb->n || (seen >> pdb->tiles[i] & 1) ||
            pdb->mult[i] != sb_falling(pdb->n - 1 - i, pdb->k - 1 - i))
            return 0;
        seen |= 1u << pdb->tiles[i];
    }
    return 1;
}

static int bad_pdb(const char *what, sb_error *err)
{
    return sb_error_set(err, SB_EUSAGE, 0, 0,
                        "%s: the pattern is NULL or not set up by sb_np_pdb_init", what);
}

int sb_np_pdb_init(sb_np_pdb *pdb, int rows, int cols, const uint8_t *tiles, int k, sb_error *err)
{
    uint32_t seen = 0;
    if (!pdb || !tiles)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_pdb_init: %s is NULL",
                            pdb ? "tiles" : "pdb");
    memset(pdb, 0, sizeof *pdb);
    if (rows < 2 || rows > 5 || cols < 2 || cols > 5)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "pattern database: board %dx%d out of range", rows, cols);
    if (k < 1 || k > SB_NP_PDB_MAXK || k > rows * cols - 1)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "pattern database: %d tiles out of range", k);
    pdb->rows = rows;
    pdb->cols = cols;
    pdb->n = rows * cols;
    pdb->k = k;
    for (int i = 0; i < k; i++) {
        if (tiles[i] < 1 || tiles[i] >= pdb->n || (seen >> tiles[i] & 1))
            return sb_error_set(err, SB_EUSAGE, 0, 0, "pattern database: bad tile %d", tiles[i]);
        seen |= 1u << tiles[i];
        pdb->tiles[i] = tiles[i];
    }
    for (int i = 0; i < k; i++)
        pdb->mult[i] = sb_falling(pdb->n - 1 - i, k - 1 - i);
    pdb->size = sb_falling(pdb->n, k);
    return 0;
}

uint64_t sb_np_pdb_rank(const sb_np_pdb *pdb, const uint8_t *pos)
{
    uint32_t used = 0;
    if (!pdb_ok(pdb) || !pos)
        return UINT64_MAX;
    for (int i = 0; i < pdb->k; i++) {
        if (pos[i] >= pdb->n || (used >> pos[i] & 1))
            return UINT64_MAX;
        used |= 1u << pos[i];
    }
    return sb_np_pdb_index(pdb, pos);
}

int sb_np_pdb_unrank(const sb_np_pdb *pdb, uint64_t r, uint8_t *pos)
{
    if (!pdb_ok(pdb) || !pos || r >= pdb->size)
        return SB_EUSAGE;
    /* the numbering of sb_np_pdb_index is rank.h's partial permutations */
    return sb_unrank_partial(r, pos, pdb->n, pdb->k) ? SB_EUSAGE : 0;
}

void sb_np_pdb_free(sb_np_pdb *pdb)
{
    if (!pdb)
        return;
    if (pdb->map.base)
        sb_tf_unmap(&pdb->map);
    else if (pdb->dist)
        sb_mem_free(pdb->mem, pdb->dist, pdb->size);
    pdb->dist = NULL;
}

/* ---- the builder ---- */

typedef struct build {
    const sb_np_pdb *pdb;
    int width;            /* bytes per blank-cell set: 1, 2 or 4 */
    void *seen, *cur, *next;
    uint32_t left, right; /* cells not in the first / last column */
    uint32_t all;
} build;

/* A relaxed atomic load: other threads may OR into the same entry at the
 * same time (mor).  On the usual machines it is the plain load it was. */
static inline uint32_t mget(const build *b, const void *a, uint64_t i)
{
    switch (b->width) {
    case 1: return __atomic_load_n((const uint8_t *)a + i, __ATOMIC_RELAXED);
    case 2: return __atomic_load_n((const uint16_t *)a + i, __ATOMIC_RELAXED);
    default: return __atomic_load_n((const uint32_t *)a + i, __ATOMIC_RELAXED);
    }
}

/* Atomic OR (several threads fill `seen` and `next`); returns the old value. */
static inline uint32_t mor(const build *b, void *a, uint64_t i, uint32_t v)
{
    switch (b->width) {
    case 1: return __atomic_fetch_or((uint8_t *)a + i, (uint8_t)v, __ATOMIC_RELAXED);
    case 2: return __atomic_fetch_or((uint16_t *)a + i, (uint16_t)v, __ATOMIC_RELAXED);
    default: return __atomic_fetch_or((uint32_t *)a + i, v, __ATOMIC_RELAXED);
    }
}

static inline void mzero(const build *b, void *a, uint64_t i)
{
    switch (b->width) {
    case 1: ((uint8_t *)a)[i] = 0; break;
    case 2: ((uint16_t *)a)[i] = 0; break;
    default: ((uint32_t *)a)[i] = 0; break;
    }
}

static inline void prefetch(const build *b, const void *a, uint64_t i)
{
    __builtin_prefetch((const char *)a + i * (uint64_t)b->width, 1);
}

/* The connected region of free cells around cell c (cell masks). */
static inline uint32_t region(const build *b, uint32_t c, uint32_t freem)
{
    int cols = b->pdb->cols;
    uint32_t r = 1u << c, prev = 0;
    while (r != prev) {
        prev = r;
        r |= (((r & b->left) >> 1) | ((r & b->right) << 1) | (r >> cols) | (r << cols)) & freem;
    }
    return r;
}

/* Cell mask -> mask over the free cells' order, and back (what the BMI2
 * pext and pdep instructions do, done by hand for portability). */
static inline uint32_t compress(uint32_t m, uint32_t freem)
{
    uint32_t out = 0;
    while (m) {
        uint32_t bit = m & -m;
        out |= 1u << __builtin_popcount(freem & (bit - 1));
        m ^= bit;
    }
    return out;
}

static inline uint32_t expand(uint32_t m, uint32_t freem)
{
    uint32_t out = 0;
    for (int j = 0; freem; j++) {
        uint32_t bit = freem & -freem;
        if (m >> j & 1)
            out |= bit;
        freem ^= bit;
    }
    return out;
}

static void report(const sb_control *ctl, const sb_np_pdb *pdb, int level, uint64_t done, sb_mem *mem)
{
    sb_progress_info in;
    char phase[64];
    if (!ctl || !ctl->progress)
        return;
    snprintf(phase, sizeof phase, "pdb %dx%d, %d tiles", pdb->rows, pdb->cols, pdb->k);
    in.phase = phase;
    in.level = level;
    in.done = done;
    in.total = pdb->size;
    in.mem_used = mem ? mem->used : 0;
    ctl->progress(ctl->ud, &in);
}

/* A placement's cells and rank digits (see sb_np_pdb_index): digit i says
 * which free cell, counting up, tile i takes once tiles 0..i-1 are placed,
 * so it runs over n - i values.  The scan of a level visits placements in
 * increasing rank, and consecutive placements of a level differ mostly in
 * their last digits, so the cursor steps its digits forward as a
 * mixed-radix counter and finds the cells again from the first digit that
 * changed only.  Unranking each placement afresh (k divisions and a walk
 * over the free cells per tile) took a fifth of the 7-8 build. */
typedef struct cursor {
    uint64_t r;                           /* the placement */
    uint32_t dg[SB_NP_PDB_MAXK];          /* its digits */
    uint32_t fm[SB_NP_PDB_MAXK + 1];      /* fm[i]: cells free of tiles 0..i-1 */
    uint8_t pos[SB_NP_PDB_MAXK];          /* its cells */
} cursor;

/* The cells of tiles from..k-1, from their digits. */
static inline void cursor_cells(const sb_np_pdb *pdb, cursor *cu, int from)
{
    for (int i = from; i < pdb->k; i++) {
        uint32_t m = cu->fm[i];
        for (uint32_t j = 0; j < cu->dg[i]; j++)
            m &= m - 1;
        cu->pos[i] = (uint8_t)__builtin_ctz(m);
        cu->fm[i + 1] = cu->fm[i] & ~(1u << cu->pos[i]);
    }
}

/* Put the cursor on placement r < pdb->size. */
static inline void cursor_set(const sb_np_pdb *pdb, cursor *cu, uint64_t r)
{
    cu->r = r;
    for (int i = 0; i < pdb->k; i++) {
        uint64_t d = r / pdb->mult[i];
        r -= d * pdb->mult[i];
        cu->dg[i] = (uint32_t)d;
    }
    cu->fm[0] = (uint32_t)((1ull << pdb->n) - 1);
    cursor_cells(pdb, cu, 0);
}

/* Move the cursor forward to placement r (r >= cu->r, r < pdb->size). */
static inline void cursor_to(const sb_np_pdb *pdb, cursor *cu, uint64_t r)
{
    uint64_t carry = r - cu->r;
    int i = pdb->k - 1;
    if (!carry)
        return;
    cu->r = r;
    for (;; i--) {
        uint64_t v = cu->dg[i] + carry, radix = (uint64_t)(pdb->n - i);
        if (v < radix) {
            cu->dg[i] = (uint32_t)v;
            break;
        }
        cu->dg[i] = (uint32_t)(v % radix);
        carry = v / radix;
    }
    cursor_cells(pdb, cu, i);
}

/* The placements of a level are handed out in chunks from a shared
 * counter (a level's frontier is bunched in a few ranges of ranks, so
 * fixed slices would leave threads idle). */
#define CHUNK ((uint64_t)1 << 16)

/* One thread's part of a level. */
typedef struct slice {
    build *b;
    uint64_t *next_chunk; /* shared: the first placement not yet handed out */
    int level, id, rc;
    uint64_t frontier;
    const sb_control *ctl;
    sb_mem *mem;
    uint64_t *shared_done; /* placements of the level scanned, for progress */
} slice;

/* Expand placement p, whose blank cells first reached at this level are cm
 * (a mask over its free cells).  The child of a move differs from p in one
 * tile, so its rank is p's adjusted, not computed afresh: tile i going from
 * cell c to cell bl changes digit i, and the digit of every later tile
 * standing strictly between c and bl by one (it has one earlier tile fewer
 * or more below it).  A sideways move has no cell between; an up or down
 * move cols - 1 of them.  For example on 4 x 4 with two pattern tiles,
 * the first at cell 9 and the second at cell 6 (digits 9 and 6, rank
 * 9 * 15 + 6 = 141): the first moving up into the blank at cell 5 passes
 * cell 6, so its digit drops by 4 and the second's by 1 (one more tile now
 * below it), rank 141 - 4 * 15 - 1 = 80 = 5 * 15 + 5.  The children's `seen` entries are
 * prefetched before any is read, so their cache misses overlap. */
static void expand_one(slice *sl, const cursor *cu, uint32_t cm)
{
    build *b = sl->b;
    const sb_np_pdb *pdb = b->pdb;
    int k = pdb->k;
    const uint8_t *pos = cu->pos;
    const uint32_t *dg = cu->dg;
    uint64_t p = cu->r;
    uint32_t pre[SB_NP_PDB_MAXK + 1], freem, bm, beside[4];
    int cols = pdb->cols, step[4] = {cols, -cols, 1, -1};
    int8_t at[32];
    struct {
        uint64_t q;
        uint32_t c, nf;
    } kid[128];
    int nk = 0;

    memset(at, -1, sizeof at);
    pre[0] = 0;
    for (int i = 0; i < k; i++) {
        at[pos[i]] = (int8_t)i;
        pre[i + 1] = pre[i] | 1u << pos[i];
    }
    freem = b->all & ~pre[k];
    /* the tiles beside the blank's cells, by the side they are on: a tile
     * at c slides into bl = c + step[s] */
    bm = expand(cm, freem);
    beside[0] = (bm >> cols) & pre[k];          /* above a blank cell */
    beside[1] = (bm << cols) & pre[k];          /* below */
    beside[2] = ((bm & b->left) >> 1) & pre[k]; /* on its left */
    beside[3] = ((bm & b->right) << 1) & pre[k]; /* on its right */
    for (int sd = 0; sd < 4; sd++) {
        uint32_t m = beside[sd];
        while (m) {
            uint32_t c = (uint32_t)__builtin_ctz(m), bl = (uint32_t)((int)c + step[sd]), lo, hi, mid;
            int i = at[c];
            int64_t q;
            m &= m - 1;
            /* tile i slides from c into bl; the blank is now at c */
            q = (int64_t)p + ((int64_t)bl - __builtin_popcount(pre[i] & ((1u << bl) - 1)) -
                              (int64_t)dg[i]) * (int64_t)pdb->mult[i];
            lo = bl < c ? bl : c;
            hi = bl < c ? c : bl;
            mid = (((1u << hi) - 1) & ~((2u << lo) - 1)) & pre[k] & ~pre[i + 1];
            while (mid) {
                int j = at[__builtin_ctz(mid)];
                mid &= mid - 1;
                q += bl < c ? -(int64_t)pdb->mult[j] : (int64_t)pdb->mult[j];
            }
            kid[nk].q = (uint64_t)q;
            kid[nk].c = c;
            kid[nk].nf = (freem & ~(1u << bl)) | (1u << c);
            prefetch(b, b->seen, kid[nk].q);
            nk++;
        }
    }
    for (int j = 0; j < nk; j++) {
        uint32_t c = kid[j].c, nf = kid[j].nf, rm;
        uint64_t q = kid[j].q;
        uint32_t cbit = 1u << __builtin_popcount(nf & ((1u << c) - 1));
        if (mget(b, b->seen, q) & cbit)
            continue;
        rm = compress(region(b, c, nf), nf);
        if (mor(b, b->seen, q, rm) & cbit)
            continue; /* another thread got here first */
        mor(b, b->next, q, rm);
        sl->frontier++;
    }
}

/* A placement's value is the level at which its `cur` entry is first
 * nonzero, so it is written here, by the one thread that scans that
 * placement, in rank order, rather than at random places by whichever
 * thread finds it. */
static void *run_slice(void *arg)
{
    slice *sl = arg;
    build *b = sl->b;
    const sb_np_pdb *pdb = b->pdb;
    uint64_t size = pdb->size, per = 8 / (uint64_t)b->width;
    uint8_t *dist = pdb->dist;
    cursor cu;
    for (;;) {
        uint64_t lo = __atomic_fetch_add(sl->next_chunk, CHUNK, __ATOMIC_RELAXED);
        uint64_t hi = lo + CHUNK < size ? lo + CHUNK : size;
        if (lo >= size)
            break;
        cursor_set(pdb, &cu, lo);
        if (sb_control_stopped(sl->ctl)) {
            sl->rc = SB_EINTR;
            break;
        }
        for (uint64_t p = lo; p < hi; p++) {
            uint32_t cm;
            uint64_t word;
            /* most of a level's placements are not in it: skip 8 bytes
             * of zeros at a time (chunks start at multiples of 8) */
            if (p % per == 0 && p + per <= hi) {
                memcpy(&word, (const char *)b->cur + p * (uint64_t)b->width, 8);
                if (!word) {
                    p += per - 1;
                    continue;
                }
            }
            cm = mget(b, b->cur, p);
            if (!cm)
                continue;
            mzero(b, b->cur, p);
            if (dist[p] == 0xff)
                dist[p] = (uint8_t)sl->level;
            cursor_to(pdb, &cu, p);
            expand_one(sl, &cu, cm);
        }
        __atomic_fetch_add(sl->shared_done, hi - lo, __ATOMIC_RELAXED);
        if (sl->id == 0)
            report(sl->ctl, pdb, sl->level, __atomic_load_n(sl->shared_done, __ATOMIC_RELAXED),
                   sl->mem);
    }
    return NULL;
}

int sb_np_pdb_build(sb_np_pdb *pdb, sb_mem *mem, int threads, const sb_control *ctl, sb_error *err)
{
    build b;
    int n, k, cols, level = 0, rc = 0;
    uint64_t size, frontier = 1, done = 0;
    uint8_t pos[SB_NP_PDB_MAXK];
    slice sl[SB_NP_PDB_MAXTHREADS];

    if (!pdb_ok(pdb))
        return bad_pdb("sb_np_pdb_build", err);
    n = pdb->n, k = pdb->k, cols = pdb->cols, size = pdb->size;
    if (threads < 1 || size < (1u << 16))
        threads = 1;
    if (threads > SB_NP_PDB_MAXTHREADS)
        threads = SB_NP_PDB_MAXTHREADS;
    memset(&b, 0, sizeof b);
    b.pdb = pdb;
    b.width = n - k <= 8 ? 1 : n - k <= 16 ? 2 : 4;
    b.all = (uint32_t)((1ull << n) - 1);
    for (int c = 0; c < n; c++) {
        int q = c % cols;
        if (q > 0) b.left |= 1u << c;
        if (q < cols - 1) b.right |= 1u << c;
    }
    sb_np_pdb_free(pdb);
    pdb->mem = mem;
    pdb->dist = sb_mem_alloc(mem, size, err);
    if (!pdb->dist)
        return SB_ENOMEM;
    b.seen = sb_mem_alloc(mem, size * b.width, err);
    b.cur = b.seen ? sb_mem_alloc(mem, size * b.width, err) : NULL;
    b.next = b.cur ? sb_mem_alloc(mem, size * b.width, err) : NULL;
    if (!b.next) {
        rc = SB_ENOMEM;
        goto out;
    }
    memset(pdb->dist, 0xff, size);

    /* Level 0: the goal placement, the blank anywhere in the region of its
     * goal cell 0. */
    for (int i = 0; i < k; i++)
        pos[i] = pdb->tiles[i];
    {
        uint64_t r0 = sb_np_pdb_index(pdb, pos);
        uint32_t freem0 = b.all, m;
        for (int i = 0; i < k; i++)
            freem0 &= ~(1u << pos[i]);
        m = compress(region(&b, 0, freem0), freem0);
        pdb->dist[r0] = 0;
        mor(&b, b.seen, r0, m);
        mor(&b, b.cur, r0, m);
    }

    while (frontier) {
        uint64_t next_chunk = 0;
        frontier = 0;
        done = 0;
        for (int t = 0; t < threads; t++) {
            sl[t].b = &b;
            sl[t].next_chunk = &next_chunk;
            sl[t].level = level;
            sl[t].id = t;
            sl[t].rc = 0;
            sl[t].frontier = 0;
            sl[t].ctl = ctl;
            sl[t].mem = mem;
            sl[t].shared_done = &done;
        }
        sb_pool_run(threads, run_slice, sl, sizeof *sl);
        for (int t = 0; t < threads; t++) {
            frontier += sl[t].frontier;
            if (sl[t].rc)
                rc = sl[t].rc;
        }
        if (rc) {
            rc = sb_error_set(err, SB_EINTR, 0, 0, "interrupted while building a pattern database");
            goto out;
        }
        {
            void *t = b.cur;
            b.cur = b.next;
            b.next = t;
        }
        level++;
        if (level > 250) {
            rc = sb_error_set(err, SB_EINTERNAL, 0, 0, "pattern database: too many levels");
            goto out;
        }
    }
    /* Placements no solvable position has keep the value 255: when the
     * free cells are few, the blank's region may be too small to fix the
     * permutation parity (with every tile in the pattern, half of them). */
    pdb->checksum = sb_checksum(pdb->dist, (size_t)size);
out:
    sb_mem_free(mem, b.next, b.next ? size * b.width : 0);
    sb_mem_free(mem, b.cur, b.cur ? size * b.width : 0);
    sb_mem_free(mem, b.seen, b.seen ? size * b.width : 0);
    if (rc)
        sb_np_pdb_free(pdb);
    return rc;
}

/* ---- files ----
 * A pattern database file is the container of tablefile.h, kind "pdb",
 * version 3 (versions 1 and 2 had a header of their own, "sbfsPDB\n").
 * Its parameters, at these offsets in the file:
 *   32 rows, cols, k (u8 each), 0    36 tiles[8] (u8, zero past k)
 *   44 zero (u32)                    48 size (u64)
 * and the data is `size` bytes, one per placement. */

static const sb_tf_kind pdb_kind = {"pdb", SB_NP_PDB_VERSION, "a pattern database"};

#define NPARAMS 24

uint64_t sb_np_pdb_checksum(const uint8_t *p, uint64_t n)
{
    return p ? sb_checksum(p, (size_t)n) : 0;
}

static void params(const sb_np_pdb *pdb, uint8_t *p)
{
    memset(p, 0, NPARAMS);
    p[0] = (uint8_t)pdb->rows;
    p[1] = (uint8_t)pdb->cols;
    p[2] = (uint8_t)pdb->k;
    memcpy(p + 4, pdb->tiles, (size_t)pdb->k);
    sb_le_put64(p + 16, pdb->size);
}

/* Open path and check that its header is the one pdb's table has. */
static int open_pdb(const sb_np_pdb *pdb, sb_tf_reader *r, const char *path, sb_error *err)
{
    uint8_t got[NPARAMS], want[NPARAMS];
    size_t n;
    int rc = sb_tf_open(r, path, &pdb_kind, got, sizeof got, &n, err);
    if (rc)
        return rc;
    params(pdb, want);
    if (n != NPARAMS || memcmp(got, want, NPARAMS) != 0 || r->bytes != pdb->size)
        return sb_tf_refuse(r, err, "not the pattern database expected (header)");
    return 0;
}

int sb_np_pdb_filename(const sb_np_pdb *pdb, char *buf, size_t n)
{
    size_t at;
    if (!buf || n == 0)
        return SB_EUSAGE;
    buf[0] = 0;
    if (!pdb_ok(pdb))
        return SB_EUSAGE;
    at = (size_t)snprintf(buf, n, "npuzzle-%dx%d-", pdb->rows, pdb->cols);
    for (int i = 0; i < pdb->k && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%d", i ? "." : "", pdb->tiles[i]);
    if (at < n)
        snprintf(buf + at, n - at, "-v%d.pdb", SB_NP_PDB_VERSION);
    return 0;
}

int sb_np_pdb_save(const sb_np_pdb *pdb, const char *path, sb_error *err)
{
    uint8_t p[NPARAMS];
    if (!pdb_ok(pdb))
        return bad_pdb("sb_np_pdb_save", err);
    if (!path)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_pdb_save: path is NULL");
    if (!pdb->dist)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "pattern database not built");
    /* PATH.PID.tmp renamed into place (outfile.h): two runs that build the
     * same database at once each write their own, and a reader never sees
     * half of one. */
    params(pdb, p);
    return sb_tf_save(path, &pdb_kind, p, NPARAMS, pdb->dist, pdb->size, 1, err);
}

int sb_np_pdb_load(sb_np_pdb *pdb, const char *path, sb_mem *mem, const sb_control *ctl, sb_error *err)
{
    sb_tf_reader r;
    int rc;
    (void)ctl;
    if (!pdb_ok(pdb))
        return bad_pdb("sb_np_pdb_load", err);
    if (!path)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_pdb_load: path is NULL");
    if ((rc = open_pdb(pdb, &r, path, err)))
        return rc;
    sb_np_pdb_free(pdb);
    pdb->mem = mem;
    pdb->dist = sb_mem_alloc(mem, pdb->size, err);
    if (!pdb->dist) {
        sb_tf_close(&r);
        return SB_ENOMEM;
    }
    if ((rc = sb_tf_read(&r, pdb->dist, 1, err))) {
        sb_np_pdb_free(pdb);
        return rc;
    }
    pdb->checksum = r.sum;
    return 0;
}

int sb_np_pdb_map(sb_np_pdb *pdb, const char *path, int check, sb_error *err)
{
    sb_tf_reader r;
    sb_tf_map m;
    int rc;
    if (!pdb_ok(pdb))
        return bad_pdb("sb_np_pdb_map", err);
    if (!path)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_pdb_map: path is NULL");
    if ((rc = open_pdb(pdb, &r, path, err)))
        return rc;
    if ((rc = sb_tf_map_data(&r, check, &m, err)))
        return rc;
    sb_np_pdb_free(pdb);
    pdb->map = m;
    pdb->mem = NULL;
    /* read-only pages: nothing writes a mapped table (the builder writes
     * only tables it allocated) */
    pdb->dist = (uint8_t *)(uintptr_t)m.data;
    pdb->checksum = r.sum;
    return 0;
}

int sb_np_pdb_probe(const sb_np_pdb *pdb, const char *path)
{
    sb_tf_reader r;
    if (!pdb_ok(pdb) || !path || open_pdb(pdb, &r, path, NULL))
        return 0;
    sb_tf_close(&r);
    return 1;
}

int sb_np_pdb_verify_file(const char *path, char *why, size_t n)
{
    uint8_t got[NPARAMS];
    size_t np;
    sb_tf_reader r;
    sb_np_pdb p;
    sb_error e;
    int rc;
    sb_error_clear(&e);
    if ((rc = sb_tf_open(&r, path, &pdb_kind, got, sizeof got, &np, &e)) == 0) {
        sb_tf_close(&r);
        if (np != NPARAMS || sb_np_pdb_init(&p, got[0], got[1], got + 4, got[2], NULL) != 0)
            rc = sb_error_set(&e, SB_EBADFILE, 0, 0, "%s: damaged header", path);
        else if ((rc = sb_np_pdb_map(&p, path, SB_TF_VERIFY, &e)) == 0)
            sb_np_pdb_free(&p); /* and the check wrote a fresh marker */
    }
    if (rc && why)
        snprintf(why, n, "%s", e.msg);
    return rc;
}
