/* The fast path (styles 0-2, boards of up to 64 cells, keys of up to 128
 * bits: every bundled puzzle).  A breadth-first search calls us once per
 * configuration, and on the distinct-piece Klotski a configuration has ten
 * blocks but only 3.2 moves, so the general path spends most of its time
 * proving that blocks cannot move.  The fast path asks the empty cells
 * instead.  A unit step of a block in direction d is legal exactly when
 * the cells it newly covers (enter, tabulated) are empty; those cells lie
 * next to the block, so a block that can move has a cell whose neighbour
 * in direction d is empty.  With the board as one word, "cells whose
 * right neighbour is empty" is (empty >> 1) less the last column, and
 * likewise for the other directions: four shifts give `near`, and only the
 * blocks touching near are tested, each with one AND per direction
 * against enter1 (enter's four masks side by side, all ones where the step
 * leaves the board or hits an x).  A 3 x 3 board with 1 = 11 and 2 = 1:
 *
 *     1 1 2      cells 0 1 2     empty = {4}; near right = {3} (its right
 *     2 0 2            3 4 5     neighbour is 4), left = {5}, down = {1},
 *     1 1 2            6 7 8     up = {7}.  The blocks on near are the 1 at
 *                                0, the 2s at 3 and 5 and the 1 at 6; the
 * corner 2s are never looked at.  Of the sixteen tests left the 2 at 3
 * going right and the 2 at 5 going left pass (the 1s would need cell 3),
 * and they are the two moves.
 *
 * Nothing of the size of the board is cleared or built per configuration:
 * decoding fills one entry per block (kind, anchor, cells) and the
 * occupancy.  When every piece is one cell (the n-puzzles) even that goes:
 * the blocks are the anchor bits themselves, a movable one is an anchor
 * in near, its rank b (which block it is in cell order) is the popcount
 * of the anchors below it, and its kind is the b-th kind field of the key.
 * The neighbour's key is then made from the old one in place (emit_one's
 * update, in 64-bit arithmetic when the key is one word).  Legal moves are
 * collected per direction as a bit set over blocks and taken from the
 * highest block down, so the order of emission is SLIDING's, as on the
 * general path; style 1 extends a move while the whole shape misses the
 * other blocks, and style 2 floods over the moving block's anchors with a
 * 64-bit visited set, in flood()'s order.  tests/test_slide.c compares the
 * two paths' output, neighbour by neighbour, on a dozen puzzles.
 *
 * Keys of the slot form (key.c: every block a kind of its own) are read
 * field by field into the same per-block entries, and a move changes one
 * field.  With hints (style 0, sb_slide_expand_hinted) the steps a key's
 * hints name are taken out of the legal set by adding the named empty
 * cell to what the step must not enter, and each neighbour gets the hint
 * of the step back; on keys of the slot form with at most 16 blocks of
 * which some are larger than one cell, slot_moves_hinted does all of it
 * without ranks or decoding in cell order, since the engine that takes
 * hints does not care about the order of the neighbours. */
#ifdef __SSE4_1__
#include <smmintrin.h>
#endif

#include "moves.h"

typedef struct fstate {
    uint64_t A, occ, empty;                  /* anchors, occupied and empty cells */
    u128 key;                                /* the key (one or two words) */
    unsigned char kind[64], anchor[64];      /* blocks in cell order */
    uint64_t cells[64];                      /* the cells of each block */
} fstate;

/* The hint (sb_slide_model, SB_SLIDE_HINTS) of the configuration made by
 * a step in direction d of a block from the cells `from` to the cells `to`, the
 * empty cells being `empty` before the step: the step back enters the
 * cells the block leaves, the lowest of which names it, in the opposite
 * direction.  0 when that cell's rank is past what the key can name. */
static inline uint64_t back_hint(const sb_slide *sl, uint64_t empty, uint64_t from, uint64_t to, int d)
{
    uint64_t left = from & ~to, after = (empty | left) & ~to;
    int rank = __builtin_popcountll(after & ((left & -left) - 1));
    return rank < sl->hint_ranks ? (uint64_t)1 << (64 - sl->hint_bits + 4 * rank + (d ^ 1)) : 0;
}

/* Emit the configuration with block b moved to anchor na, updating the key
 * in place (see emit_one); kw is the key's width in words, 1 or 2.  The
 * block's rank among the anchors is b itself. */
static inline __attribute__((always_inline)) void fast_emit(const sb_slide *sl, const fstate *fs, int b,
                                                            int na, int d, sb_emit_fn emit, void *ctx,
                                                            const int kw, const int hint)
{
    int n = sl->ncells, kb = sl->kbits;
    uint64_t A1 = fs->A ^ (uint64_t)1 << fs->anchor[b];
    int r = b * kb, r2 = __builtin_popcountll(A1 & (((uint64_t)1 << na) - 1)) * kb;
    if (kw == 1) {
        /* key_bits <= 64 here, so with a kind field n < 64 and every shift
         * below is less than 64 */
        uint64_t key = A1 | (uint64_t)1 << na;
        if (sl->pbits)
            key = (uint64_t)fs->key ^ (uint64_t)(fs->anchor[b] ^ na) << (fs->kind[b] * sl->pbits);
        else if (kb) {
            uint64_t K = (uint64_t)fs->key >> n;
            K = (K & (((uint64_t)1 << r) - 1)) | ((K >> (r + kb)) << r);
            K = (K & (((uint64_t)1 << r2) - 1)) | ((uint64_t)fs->kind[b] << r2) | ((K >> r2) << (r2 + kb));
            key |= K << n;
        }
        if (hint)
            key |= back_hint(sl, fs->empty, fs->cells[b], sl->shape[(size_t)fs->kind[b] * n + na], d);
        emit(ctx, &key);
    } else if (r2 == r) {
        /* the block keeps its rank (a sideways move, say): the kinds keep
         * their order and only two anchor bits change */
        uint64_t out[2] = {(uint64_t)fs->key ^ ((uint64_t)1 << fs->anchor[b] | (uint64_t)1 << na),
                           (uint64_t)(fs->key >> 64)};
        emit(ctx, out);
    } else {
        u128 K = fs->key >> n;
        K = (K & (((u128)1 << r) - 1)) | ((K >> (r + kb)) << r);
        K = (K & (((u128)1 << r2) - 1)) | ((u128)fs->kind[b] << r2) | ((K >> r2) << (r2 + kb));
        u128 key = (u128)(A1 | (uint64_t)1 << na) | (K << n);
        uint64_t out[2] = {(uint64_t)key, (uint64_t)(key >> 64)};
        emit(ctx, out);
    }
}

/* The occupied cells whose neighbour in direction d is in the set e. */
static inline uint64_t next_to(const sb_slide *sl, uint64_t e, int d)
{
    uint64_t m = d == 0 ? e >> 1 : d == 1 ? e << 1 : sl->cols >= 64 ? 0 : d == 2 ? e >> sl->cols : e << sl->cols;
    return m & sl->edge1[d];
}

/* Move block b, which can take one step in direction d, per the style;
 * earlier says whether it can also step in a direction before d. */
static inline __attribute__((always_inline)) void fast_block(const sb_slide *sl, const fstate *fs, int d,
                                                             int b, int earlier, sb_emit_fn emit,
                                                             void *ctx, const int mode, const int kw,
                                                             const int hint)
{
    int n = sl->ncells, k = fs->kind[b], a = fs->anchor[b];
    size_t per = (size_t)sl->nk * n;
    const short *step = sl->step + (size_t)k * n;
    int na = step[d * per + a];
    if (mode == 0) {
        fast_emit(sl, fs, b, na, d, emit, ctx, kw, hint);
        return;
    }
    const uint64_t *shape = sl->shape + (size_t)k * n;
    uint64_t rest = fs->occ & ~fs->cells[b]; /* the other blocks */
    if (mode == 1) {
        do {
            fast_emit(sl, fs, b, na, d, emit, ctx, kw, 0);
            na = step[d * per + na];
        } while (na >= 0 && !(shape[na] & rest));
        return;
    }
    if (earlier)
        return; /* flooded already from an earlier direction */
    /* the flood fill over b's anchors, in flood()'s order */
    uint64_t seen = (uint64_t)1 << a;
    unsigned char stack[64];
    int sp = 0;
    stack[sp++] = (unsigned char)a;
    while (sp) {
        int c0 = stack[--sp];
        for (int e = 0; e < 4; e++) {
            int nn = step[e * per + c0];
            if (nn < 0 || (seen >> nn & 1) || (shape[nn] & rest))
                continue;
            seen |= (uint64_t)1 << nn;
            fast_emit(sl, fs, b, nn, e, emit, ctx, kw, 0);
            stack[sp++] = (unsigned char)nn;
        }
    }
}

/* The cells, per direction, that the hints h (of a key) say no block is
 * to enter: the r-th empty cell for each bit 4r + d. */
static inline void hinted_cells(const sb_slide *sl, uint64_t h, uint64_t empty, uint64_t skip[4])
{
    for (int r = 0; r < sl->hint_ranks; r++, h >>= 4, empty &= empty - 1) {
        uint64_t cell = empty & -empty;
        for (int d = 0; d < 4; d++)
            skip[d] |= (h >> d & 1) ? cell : 0;
    }
}

static inline __attribute__((always_inline)) void fast_moves(const sb_slide *sl, const uint64_t *key,
                                                             sb_emit_fn emit, void *ctx, const int mode,
                                                             const int kw, const int hint)
{
    fstate fs;
    int n = sl->ncells, kb = sl->kbits, nb = 0;
    /* the kind fields, K the next ones and K2 the rest (two-word keys,
     * where kb > 0), consumed in 64-bit arithmetic */
    uint64_t K, K2 = 0, h = 0, skip[4] = {0, 0, 0, 0};
    if (kw == 1) {
        uint64_t k0 = key[0];
        if (hint) {
            h = k0 >> (64 - sl->hint_bits);
            k0 &= ~(uint64_t)0 >> sl->hint_bits;
        }
        fs.key = k0;
        K = kb && !sl->pbits ? k0 >> n : 0; /* n < 64 when there are kind fields */
    } else {
        fs.key = (u128)key[0] | (u128)key[1] << 64;
        K = (uint64_t)(fs.key >> n);
        K2 = (uint64_t)(fs.key >> n >> 64);
    }
    uint64_t kmask = ((uint64_t)1 << kb) - 1, occ = 0;
    fs.A = key[0] & sl->board1;
    if (sl->pbits) {
        /* the slot form (one word): the anchors are the fields, and each
         * block goes to its rank among them, so that blocks are in cell
         * order as below */
        uint64_t pmask = ((uint64_t)1 << sl->pbits) - 1;
        fs.A = 0;
        for (int k = 0; k < sl->nk; k++)
            fs.A |= (uint64_t)1 << ((uint64_t)fs.key >> (k * sl->pbits) & pmask);
        for (int k = 0; k < sl->nk; k++) {
            int a = (int)((uint64_t)fs.key >> (k * sl->pbits) & pmask);
            int b = __builtin_popcountll(fs.A & (((uint64_t)1 << a) - 1));
            fs.kind[b] = (unsigned char)k;
            fs.anchor[b] = (unsigned char)a;
            fs.cells[b] = sl->shape[(size_t)k * n + a];
            occ |= fs.cells[b];
        }
        nb = sl->nk;
    }
    if (sl->mono1) {
        /* Every piece one cell: the blocks are the anchors, and a block
         * can step wherever its neighbour is empty; its rank b is the
         * number of anchors before it, its kind the b-th field. */
        uint64_t empty = sl->open1 & ~fs.A, earlier = 0;
        fs.occ = fs.A;
        fs.empty = empty;
        if (hint)
            hinted_cells(sl, h, empty, skip);
        for (int d = 0; d < 4; earlier |= next_to(sl, empty, d++) & fs.A)
            for (uint64_t B = next_to(sl, empty & ~skip[d], d) & fs.A; B;) {
                int a = 63 - __builtin_clzll(B);
                uint64_t bit = (uint64_t)1 << a;
                int b = __builtin_popcountll(fs.A & (bit - 1));
                B ^= bit;
                if (!sl->pbits) /* the slot form has them in place */
                    fs.kind[b] = (unsigned char)(kw == 1 ? (K >> (b * kb)) & kmask
                                                         : (uint64_t)(fs.key >> n >> (b * kb)) & kmask);
                fs.anchor[b] = (unsigned char)a;
                fs.cells[b] = bit;
                fast_block(sl, &fs, d, b, (int)(earlier >> a & 1), emit, ctx, mode, kw, hint);
            }
        return;
    }
    for (uint64_t bits = sl->pbits ? 0 : fs.A; bits; bits &= bits - 1, nb++) {
        int a = __builtin_ctzll(bits), k = (int)(K & kmask);
        if (kw == 1) {
            K >>= kb;
        } else {
            K = K >> kb | K2 << (64 - kb);
            K2 >>= kb;
        }
        fs.kind[nb] = (unsigned char)k;
        fs.anchor[nb] = (unsigned char)a;
        fs.cells[nb] = sl->shape[(size_t)k * n + a];
        occ |= fs.cells[nb];
    }
    fs.occ = occ;
    uint64_t empty = sl->open1 & ~occ, near = 0, C = 0, L[4] = {0, 0, 0, 0};
    fs.empty = empty;
    if (hint)
        hinted_cells(sl, h, empty, skip);
    for (int d = 0; d < 4; d++) {
        near |= next_to(sl, empty, d);
        skip[d] |= occ; /* a step may enter neither a block nor a hinted cell */
    }
    for (int b = 0; b < nb; b++)
        C |= (uint64_t)((fs.cells[b] & near) != 0) << b;
    for (; C; C &= C - 1) {
        int b = __builtin_ctzll(C);
        const uint64_t *ent = sl->enter1 + ((size_t)fs.kind[b] * n + fs.anchor[b]) * 4;
        for (int d = 0; d < 4; d++) /* without hints occ stays in a register */
            L[d] |= (uint64_t)((ent[d] & (hint ? skip[d] : occ)) == 0) << b;
    }
    uint64_t earlier = 0; /* blocks that can move in a direction before d */
    for (int d = 0; d < 4; earlier |= L[d++])
        for (uint64_t B = L[d]; B;) {
            int b = 63 - __builtin_clzll(B);
            B ^= (uint64_t)1 << b;
            fast_block(sl, &fs, d, b, (int)(earlier >> b & 1), emit, ctx, mode, kw, hint);
        }
}

/* Style 0 with hints on a key of the slot form, at most 16 blocks and not
 * all of one cell (the distinct-piece Klotski).  Hints are for the
 * sorted-level engine, to which the order of the neighbours is nothing, so
 * the blocks are taken by slot: reading block k is one shift, and there
 * are no ranks to count.  Every (block, direction) is tested without a
 * branch, one bit 4k + d each in the set M of legal steps, and M is walked
 * in one loop: on the distinct-piece Klotski a configuration has ten
 * blocks and about 1.6 steps left after the hints. */
static void slot_moves_hinted(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    const int n = sl->ncells, nk = sl->nk, pb = sl->pbits, H = sl->hint_bits;
    const uint64_t pmask = ((uint64_t)1 << pb) - 1;
    uint64_t k0 = key[0] & (~(uint64_t)0 >> H), h = key[0] >> (64 - H);
    unsigned char anc[16];
    uint64_t cells[16], occ = 0, M = 0;
    for (int k = 0; k < nk; k++) {
        int a = (int)(k0 >> (k * pb) & pmask);
        anc[k] = (unsigned char)a;
        cells[k] = sl->shape[(size_t)k * n + a];
        occ |= cells[k];
    }
    uint64_t empty = sl->open1 & ~occ, skip[4] = {occ, occ, occ, occ};
    hinted_cells(sl, h, empty, skip);
#ifdef __SSE4_1__
    /* two directions a 128-bit test, four bits a block */
    const __m128i s01 = _mm_set_epi64x((long long)skip[1], (long long)skip[0]);
    const __m128i s23 = _mm_set_epi64x((long long)skip[3], (long long)skip[2]), zero = _mm_setzero_si128();
    for (int k = 0; k < nk; k++) {
        const __m128i *ent = (const __m128i *)(sl->enter1 + ((size_t)k * n + anc[k]) * 4);
        __m128i z01 = _mm_cmpeq_epi64(_mm_and_si128(_mm_loadu_si128(ent), s01), zero);
        __m128i z23 = _mm_cmpeq_epi64(_mm_and_si128(_mm_loadu_si128(ent + 1), s23), zero);
        unsigned nib = (unsigned)(_mm_movemask_pd(_mm_castsi128_pd(z01)) |
                                  _mm_movemask_pd(_mm_castsi128_pd(z23)) << 2);
        M |= (uint64_t)nib << (4 * k);
    }
#else
    for (int k = 0; k < nk; k++) {
        const uint64_t *ent = sl->enter1 + ((size_t)k * n + anc[k]) * 4;
        unsigned nib = 0;
        for (int d = 0; d < 4; d++)
            nib |= (unsigned)((ent[d] & skip[d]) == 0) << d;
        M |= (uint64_t)nib << (4 * k);
    }
#endif
    for (; M; M &= M - 1) {
        int i = __builtin_ctzll(M), k = i >> 2, d = i & 3, a = anc[k];
        int na = sl->step[((size_t)d * nk + k) * n + a];
        uint64_t out = k0 ^ (uint64_t)(a ^ na) << (k * pb);
        out |= back_hint(sl, empty, cells[k], sl->shape[(size_t)k * n + na], d);
        emit(ctx, &out);
    }
}

static void fast_moves_01(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    fast_moves(sl, key, emit, ctx, 0, 1, 0);
}
static void fast_moves_01h(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    fast_moves(sl, key, emit, ctx, 0, 1, 1);
}
static void fast_moves_02(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    fast_moves(sl, key, emit, ctx, 0, 2, 0);
}
static void fast_moves_11(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    fast_moves(sl, key, emit, ctx, 1, 1, 0);
}
static void fast_moves_12(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    fast_moves(sl, key, emit, ctx, 1, 2, 0);
}
static void fast_moves_21(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    fast_moves(sl, key, emit, ctx, 2, 1, 0);
}
static void fast_moves_22(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    fast_moves(sl, key, emit, ctx, 2, 2, 0);
}


void slide_fast_moves(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    typedef void (*fast_fn)(const sb_slide *, const uint64_t *, sb_emit_fn, void *);
    static const fast_fn FAST[3][2] = {{fast_moves_01, fast_moves_02},
                                       {fast_moves_11, fast_moves_12},
                                       {fast_moves_21, fast_moves_22}};
    FAST[sl->style][sl->key_words - 1](sl, key, emit, ctx);
}

void slide_fast_hinted(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    if (sl->pbits && !sl->mono1 && sl->nk <= 16)
        slot_moves_hinted(sl, key, emit, ctx);
    else
        fast_moves_01h(sl, key, emit, ctx);
}
