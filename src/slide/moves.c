/* Move generation for the six styles of SLIDING.
 *
 * A configuration is decoded from its key into blocks (kind, anchor) in cell
 * order and an occupancy set.  Everything that moves is a set S of blocks
 * (one block in styles 0-2, a superpiece in styles 3-5) shifted by a
 * displacement (dr, dc); S+(dr,dc) is legal when every block's new anchor is
 * on the board, its kind fits there (tabulated: no cell off the board or on
 * an x), and the union of the new shapes misses every block outside S.  So
 * the styles differ only in which sets S they try and which displacements:
 *
 *   style 0/3: (dr,dc) one unit step;
 *   style 1/4: k unit steps in one direction, k = 1, 2, ... while legal
 *              (each intermediate position is checked: S may not jump);
 *   style 2/5: every displacement reachable from (0,0) by legal unit steps
 *              with the rest of the board fixed: a flood fill over
 *              displacements, each one reached being one move.
 *
 * Why a flood fill is right for styles 2 and 5 (Knuth's "0102" example in
 * SLIDING).  On the one-row board 0102 (two 1x1 pieces of different kinds)
 * one move reaches 1002 (the 1 to the left), 0012 (the 1 to the right) and
 * 0120 (the 2 to the left).  At distance 2, from 0120 the 1 goes left:
 * 1020.  From 1002 the 2 slides left twice, through 1020 to 1200, and that
 * is one style-2 move.  SLIDING walks each piece depth-first through the
 * global table, and had to take care not to stop at the known 1020 lest it
 * miss 1200.  We never consult the global table inside a move: the flood
 * fill runs over the displacements of the moving piece alone, with a
 * visited set of its own, so from 1002 both 1020 and 1200 are emitted and
 * the engine, not the move generator, decides what is new.
 * (tests/test_slide.c checks 1200 at distance 2.)
 *
 * Superpieces (styles 3-5; SLIDING's "Supermoving").  Fix a direction and
 * draw an arc u -> v when block u, shifted one step, would bump into block
 * v; let a pseudo-block "stuck" stand for the walls and the x cells, and
 * give u -> stuck when u's shift leaves the board or hits an x.  A set S
 * can shift one step exactly when it is closed under the arcs (if u is in S
 * and u -> v then v is in S) and does not contain stuck: an *ideal* of the
 * digraph not containing stuck.  So the superpieces for a direction are the
 * nonempty ideals avoiding stuck.  We list them with a binary decision per
 * block in cell order: excluding u excludes everything that reaches u
 * (P(u), predecessor closure), including u includes everything u reaches
 * (F(u), forward closure); blocks that reach stuck are excluded from the
 * outset.  Both branches are always consistent (if u were forced both ways
 * some w in the ideal would reach an excluded block), so every leaf is a
 * distinct ideal and the work is proportional to their number.  Knuth
 * handles left/right (and up/down) together by complementing ideals of one
 * digraph; we simply enumerate each of the four directions, which is as
 * cheap at our sizes and easier to check.  Styles 4 and 5 then move an
 * ideal S of the first step further, checking legality at every step, as
 * SLIDING's supermove does: after the first step the arcs change, but S
 * stays fixed for the rest of the move.  In style 5 (and 2) a set that
 * could also start in an earlier direction is skipped: its flood fill from
 * (0,0) would be the same.
 *
 * The fast path (styles 0-2, boards of up to 64 cells, keys of up to 128
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
#include <stdio.h>
#include <string.h>
#ifdef __SSE4_1__
#include <smmintrin.h>
#endif

#include "sbfs/slide.h"
#include "slide_internal.h"

#define MAXC SB_SLIDE_MAXCELLS
#define MAXW SB_SLIDE_MAXW

static const int DR[4] = {0, 0, 1, -1}, DC[4] = {1, -1, 0, 0}; /* right, left, down, up */
static const char *const DIRNAME[4] = {"right", "left", "down", "up"};

__extension__ typedef unsigned __int128 u128;

typedef struct dstate {
    int nb;
    u128 key;                       /* the key itself when sl->fast */
    short kind[MAXC], anchor[MAXC]; /* blocks in cell order */
    uint64_t occ[MAXW], amask[MAXW];
    unsigned char kat[MAXC];        /* kind + 1 at each anchor, 0 elsewhere */
    short owner[MAXC];              /* block + 1 at each occupied cell (styles 3-5) */
} dstate;

/* What is being emitted, for sb_slide_describe. */
typedef struct minfo {
    int n;
    const short *blk;
    int dr, dc;
    short one; /* storage for blk when one block moves */
} minfo;

typedef struct gen {
    const sb_slide *sl;
    dstate *ds;
    sb_emit_fn emit;
    void *ctx;
    minfo *mi;
    int nw;
} gen;

static inline const uint64_t *shape_of(const sb_slide *sl, int k, int a)
{
    return sl->shape + ((size_t)k * sl->ncells + a) * sl->nw;
}

static inline __attribute__((always_inline)) void decode_w(const sb_slide *sl, const uint64_t *key,
                                                         dstate *ds, const int nw)
{
    int pos = sl->ncells, nb = 0;
    uint64_t kmask = ((uint64_t)1 << sl->kbits) - 1;
    memset(ds->kat, 0, (size_t)sl->ncells);
    for (int w = 0; w < nw; w++) {
        ds->occ[w] = 0;
        ds->amask[w] = key[w];
    }
    if (sl->ncells & 63)
        ds->amask[nw - 1] &= ((uint64_t)1 << (sl->ncells & 63)) - 1;
    for (int w = 0; w < nw; w++) {
        for (uint64_t bits = ds->amask[w]; bits; bits &= bits - 1) {
            int c = w * 64 + __builtin_ctzll(bits), k = 0;
            if (sl->kbits) {
                uint64_t v = key[pos >> 6] >> (pos & 63);
                if ((pos & 63) + sl->kbits > 64)
                    v |= key[(pos >> 6) + 1] << (64 - (pos & 63));
                k = (int)(v & kmask);
                pos += sl->kbits;
            }
            ds->kind[nb] = (short)k;
            ds->anchor[nb] = (short)c;
            ds->kat[c] = (unsigned char)(k + 1);
            const uint64_t *m = shape_of(sl, k, c);
            for (int i = 0; i < nw; i++)
                ds->occ[i] |= m[i];
            nb++;
        }
    }
    ds->nb = nb;
    if (sl->fast)
        ds->key = (u128)key[0] | (sl->key_words > 1 ? (u128)key[1] << 64 : 0);
}

/* The same for a key of the slot form (one word, one block a kind). */
static void decode_slots(const sb_slide *sl, const uint64_t *key, dstate *ds)
{
    int nb = 0;
    memset(ds->kat, 0, (size_t)sl->ncells);
    ds->amask[0] = ds->occ[0] = 0;
    for (int k = 0; k < sl->nk; k++) {
        int a = sb_slide_field(sl, key[0], k);
        ds->amask[0] |= (uint64_t)1 << a;
        ds->kat[a] = (unsigned char)(k + 1);
        ds->occ[0] |= *shape_of(sl, k, a);
    }
    for (uint64_t bits = ds->amask[0]; bits; bits &= bits - 1, nb++) {
        int c = __builtin_ctzll(bits);
        ds->kind[nb] = (short)(ds->kat[c] - 1);
        ds->anchor[nb] = (short)c;
    }
    ds->nb = nb;
    ds->key = key[0] & (~(uint64_t)0 >> (64 - sl->key_bits));
}

/* Blocks, occupancy and anchors of a key (one-word boards specialised). */
static void decode(const sb_slide *sl, const uint64_t *key, dstate *ds)
{
    if (sl->pbits)
        decode_slots(sl, key, ds);
    else if (sl->nw == 1)
        decode_w(sl, key, ds, 1);
    else
        decode_w(sl, key, ds, sl->nw);
}

static void build_owner(const sb_slide *sl, dstate *ds)
{
    for (int b = 0; b < ds->nb; b++) {
        const uint64_t *m = shape_of(sl, ds->kind[b], ds->anchor[b]);
        for (int w = 0; w < sl->nw; w++)
            for (uint64_t bits = m[w]; bits; bits &= bits - 1)
                ds->owner[w * 64 + __builtin_ctzll(bits)] = (short)(b + 1);
    }
}

/* The key of the configuration with the blocks S[0..n) shifted by off
 * cells: in the slot form each block's own field changes; in the anchor
 * form the anchors move and the kinds are listed again in cell order. */
static void moved_key(gen *g, const short *S, int n, int off, uint64_t *key)
{
    const sb_slide *sl = g->sl;
    dstate *ds = g->ds;
    uint64_t A[MAXW];
    int nw = g->nw, pos = sl->ncells, kb = sl->kbits;
    if (sl->pbits) {
        key[0] = (uint64_t)ds->key;
        for (int i = 0; i < n; i++) {
            int a = ds->anchor[S[i]];
            key[0] ^= (uint64_t)(a ^ (a + off)) << (ds->kind[S[i]] * sl->pbits);
        }
        return;
    }
    for (int w = 0; w < nw; w++)
        A[w] = ds->amask[w];
    for (int i = 0; i < n; i++) {
        int a = ds->anchor[S[i]];
        A[a >> 6] &= ~((uint64_t)1 << (a & 63));
        ds->kat[a] = 0;
    }
    for (int i = 0; i < n; i++) {
        int a = ds->anchor[S[i]] + off;
        A[a >> 6] |= (uint64_t)1 << (a & 63);
        ds->kat[a] = (unsigned char)(ds->kind[S[i]] + 1);
    }
    for (int w = 0; w < nw; w++)
        key[w] = A[w];
    for (int w = nw; w < sl->key_words; w++)
        key[w] = 0;
    if (kb) {
        for (int w = 0; w < nw; w++)
            for (uint64_t bits = A[w]; bits; bits &= bits - 1) {
                uint64_t v = (uint64_t)(ds->kat[w * 64 + __builtin_ctzll(bits)] - 1);
                key[pos >> 6] |= v << (pos & 63);
                if ((pos & 63) + kb > 64)
                    key[(pos >> 6) + 1] |= v >> (64 - (pos & 63));
                pos += kb;
            }
    }
    for (int i = 0; i < n; i++)
        ds->kat[ds->anchor[S[i]] + off] = 0;
    for (int i = 0; i < n; i++)
        ds->kat[ds->anchor[S[i]]] = (unsigned char)(ds->kind[S[i]] + 1);
}

/* Emit the configuration with the blocks S[0..n) shifted by (dr, dc). */
static void emit_moved(gen *g, const short *S, int n, int dr, int dc)
{
    uint64_t key[SB_SLIDE_MAXKW];
    moved_key(g, S, n, dr * g->sl->cols + dc, key);
    if (g->mi) {
        g->mi->n = n;
        g->mi->blk = S;
        g->mi->dr = dr;
        g->mi->dc = dc;
    }
    g->emit(g->ctx, key);
}

/* Emit the configuration with block b moved to anchor na.  On boards of up
 * to 64 cells with keys of up to 128 bits the key is updated in place: the
 * anchor bit moves, and the block's kind leaves its rank among the anchors
 * (the number of anchors before it) and enters at its new rank; the kinds
 * of all other blocks keep their order. */
static void emit_one(gen *g, int b, int na)
{
    const sb_slide *sl = g->sl;
    const dstate *ds = g->ds;
    int a = ds->anchor[b];
    if (!sl->fast || sl->pbits) {
        short S[1] = {(short)b};
        emit_moved(g, S, 1, sl->rowof[na] - sl->rowof[a], sl->colof[na] - sl->colof[a]);
        return;
    }
    u128 key = ds->key;
    uint64_t A = (uint64_t)key & ~(uint64_t)0 >> (64 - sl->ncells), A1 = A ^ (uint64_t)1 << a;
    int kb = sl->kbits;
    if (kb) {
        int n = sl->ncells;
        u128 K = key >> n;
        int r = __builtin_popcountll(A & (((uint64_t)1 << a) - 1)) * kb;
        int r2 = __builtin_popcountll(A1 & (((uint64_t)1 << na) - 1)) * kb;
        K = (K & (((u128)1 << r) - 1)) | ((K >> (r + kb)) << r);
        K = (K & (((u128)1 << r2) - 1)) | ((u128)ds->kind[b] << r2) | ((K >> r2) << (r2 + kb));
        key = (u128)(A1 | (uint64_t)1 << na) | (K << n);
    } else {
        key = (u128)(A1 | (uint64_t)1 << na);
    }
    uint64_t out[2] = {(uint64_t)key, (uint64_t)(key >> 64)};
    if (g->mi) {
        g->mi->one = (short)b;
        g->mi->n = 1;
        g->mi->blk = &g->mi->one;
        g->mi->dr = sl->rowof[na] - sl->rowof[a];
        g->mi->dc = sl->colof[na] - sl->colof[a];
    }
    g->emit(g->ctx, out);
}

/* Is S (whose cells are cur) legal shifted by (dr, dc)? */
static int legal(const gen *g, const short *S, int n, const uint64_t *cur, int dr, int dc)
{
    const sb_slide *sl = g->sl;
    const dstate *ds = g->ds;
    uint64_t nm[MAXW] = {0};
    int nw = g->nw;
    for (int i = 0; i < n; i++) {
        int a = ds->anchor[S[i]], k = ds->kind[S[i]];
        int r = sl->rowof[a] + dr, c = sl->colof[a] + dc;
        if (r < 0 || r >= sl->rows || c < 0 || c >= sl->cols)
            return 0;
        int na = r * sl->cols + c;
        if (!sl->fits[(size_t)k * sl->ncells + na])
            return 0;
        const uint64_t *m = shape_of(sl, k, na);
        for (int w = 0; w < nw; w++)
            nm[w] |= m[w];
    }
    for (int w = 0; w < nw; w++)
        if (nm[w] & ds->occ[w] & ~cur[w])
            return 0;
    return 1;
}

static void cells_of(const gen *g, const short *S, int n, uint64_t *cur)
{
    for (int w = 0; w < g->nw; w++)
        cur[w] = 0;
    for (int i = 0; i < n; i++) {
        const uint64_t *m = shape_of(g->sl, g->ds->kind[S[i]], g->ds->anchor[S[i]]);
        for (int w = 0; w < g->nw; w++)
            cur[w] |= m[w];
    }
}

/* Every displacement reachable by legal unit steps, each emitted once. */
static void flood(gen *g, const short *S, int n, const uint64_t *cur)
{
    const sb_slide *sl = g->sl;
    int W = 2 * sl->cols - 1, H = 2 * sl->rows - 1;
    unsigned char seen[4 * MAXC];
    short stack[4 * MAXC][2];
    int sp = 0;
    memset(seen, 0, (size_t)W * H);
    seen[(sl->rows - 1) * W + sl->cols - 1] = 1;
    stack[sp][0] = 0;
    stack[sp][1] = 0;
    sp++;
    while (sp) {
        sp--;
        int r0 = stack[sp][0], c0 = stack[sp][1];
        for (int d = 0; d < 4; d++) {
            int r = r0 + DR[d], c = c0 + DC[d];
            if (r <= -sl->rows || r >= sl->rows || c <= -sl->cols || c >= sl->cols)
                continue;
            int at = (r + sl->rows - 1) * W + c + sl->cols - 1;
            if (seen[at] || !legal(g, S, n, cur, r, c))
                continue;
            seen[at] = 1;
            emit_moved(g, S, n, r, c);
            stack[sp][0] = (short)r;
            stack[sp][1] = (short)c;
            sp++;
        }
    }
}

/* Move the set S, legal (at least) one step in direction d, per the style. */
static void move_set(gen *g, const short *S, int n, const uint64_t *cur, int d, int mode)
{
    if (mode == 0) {
        emit_moved(g, S, n, DR[d], DC[d]);
    } else if (mode == 1) {
        for (int k = 1; k == 1 || legal(g, S, n, cur, k * DR[d], k * DC[d]); k++)
            emit_moved(g, S, n, k * DR[d], k * DC[d]);
    } else {
        for (int e = 0; e < d; e++)
            if (legal(g, S, n, cur, DR[e], DC[e]))
                return; /* flooded already from direction e */
        flood(g, S, n, cur);
    }
}

/* ---- superpieces ---- */

#define BW MAXW /* words in a set of blocks (blocks <= cells) */

typedef struct ideals {
    gen *g;
    int d, nbw, mode;
    uint64_t F[MAXC][BW], P[MAXC][BW];
} ideals;

static void ideal_leaf(ideals *id, const uint64_t *I)
{
    short S[MAXC];
    uint64_t cur[MAXW];
    int n = 0;
    for (int w = 0; w < id->nbw; w++)
        for (uint64_t bits = I[w]; bits; bits &= bits - 1)
            S[n++] = (short)(w * 64 + __builtin_ctzll(bits));
    if (!n)
        return;
    cells_of(id->g, S, n, cur);
    move_set(id->g, S, n, cur, id->d, id->mode);
}

static void ideal_rec(ideals *id, int i, const uint64_t *I, const uint64_t *X)
{
    int nb = id->g->ds->nb;
    while (i < nb && ((I[i >> 6] | X[i >> 6]) >> (i & 63) & 1))
        i++;
    if (i == nb) {
        ideal_leaf(id, I);
        return;
    }
    uint64_t I2[BW], X2[BW];
    for (int w = 0; w < id->nbw; w++) {
        X2[w] = X[w] | id->P[i][w];
        I2[w] = I[w] | id->F[i][w];
    }
    ideal_rec(id, i + 1, I, X2);  /* exclude block i and all that reach it */
    ideal_rec(id, i + 1, I2, X);  /* include block i and all it reaches */
}

static void superpieces(gen *g, int d, int mode, ideals *id)
{
    const sb_slide *sl = g->sl;
    dstate *ds = g->ds;
    int nb = ds->nb, nbw = (nb + 63) / 64;
    uint64_t adj[MAXC][BW], X[BW] = {0}, I[BW] = {0};
    unsigned char stuck[MAXC];
    id->g = g;
    id->d = d;
    id->nbw = nbw;
    id->mode = mode;
    for (int u = 0; u < nb; u++) {
        int a = ds->anchor[u], k = ds->kind[u];
        int r = sl->rowof[a] + DR[d], c = sl->colof[a] + DC[d];
        memset(adj[u], 0, sizeof adj[u]);
        stuck[u] = 0;
        if (r < 0 || r >= sl->rows || c < 0 || c >= sl->cols ||
            !sl->fits[(size_t)k * sl->ncells + r * sl->cols + c]) {
            stuck[u] = 1;
            continue;
        }
        const uint64_t *m = shape_of(sl, k, r * sl->cols + c), *own = shape_of(sl, k, a);
        for (int w = 0; w < g->nw; w++)
            for (uint64_t bits = m[w] & ds->occ[w] & ~own[w]; bits; bits &= bits - 1) {
                int v = ds->owner[w * 64 + __builtin_ctzll(bits)] - 1;
                adj[u][v >> 6] |= (uint64_t)1 << (v & 63);
            }
    }
    /* forward closures by depth-first search, then predecessor closures */
    for (int u = 0; u < nb; u++) {
        short stack[MAXC];
        int sp = 0;
        memset(id->F[u], 0, sizeof id->F[u]);
        memset(id->P[u], 0, sizeof id->P[u]);
        id->F[u][u >> 6] |= (uint64_t)1 << (u & 63);
        stack[sp++] = (short)u;
        while (sp) {
            int v = stack[--sp];
            for (int w = 0; w < nbw; w++)
                for (uint64_t bits = adj[v][w] & ~id->F[u][w]; bits; bits &= bits - 1) {
                    int x = w * 64 + __builtin_ctzll(bits);
                    id->F[u][w] |= (uint64_t)1 << (x & 63);
                    stack[sp++] = (short)x;
                }
        }
    }
    for (int v = 0; v < nb; v++)
        for (int w = 0; w < nbw; w++)
            for (uint64_t bits = id->F[v][w]; bits; bits &= bits - 1) {
                int u = w * 64 + __builtin_ctzll(bits);
                id->P[u][v >> 6] |= (uint64_t)1 << (v & 63);
            }
    for (int u = 0; u < nb; u++)
        if (stuck[u])
            for (int w = 0; w < nbw; w++)
                X[w] |= id->P[u][w];
    ideal_rec(id, 0, I, X);
}

/* Styles 0-2, in SLIDING's order: directions right, left, down, up;
 * blocks from the last anchor to the first.  A first step is legal when
 * the cells it newly covers are empty (tabulated per kind, anchor and
 * direction); later steps of styles 1 and 2 test the whole shape against
 * the other blocks, since a disconnected piece may re-enter cells it left.
 * Written once for any number of words per set of cells and instantiated
 * for one word (boards of up to 64 cells), where the word loops vanish. */
static inline __attribute__((always_inline)) void single_moves(gen *g, const int nw, int mode)
{
    const sb_slide *sl = g->sl;
    const dstate *ds = g->ds;
    size_t per = (size_t)sl->nk * sl->ncells;
    for (int d = 0; d < 4; d++)
        for (int b = ds->nb - 1; b >= 0; b--) {
            int k = ds->kind[b], a = ds->anchor[b];
            size_t at = (size_t)d * per + (size_t)k * sl->ncells + a;
            int na = sl->step[at];
            if (na < 0)
                continue;
            const uint64_t *enter = sl->enter + at * nw;
            int blocked = 0;
            for (int w = 0; w < nw; w++)
                blocked |= (enter[w] & ds->occ[w]) != 0;
            if (blocked)
                continue;
            if (mode == 0) {
                emit_one(g, b, na);
            } else if (mode == 1) {
                const uint64_t *own = shape_of(sl, k, a);
                for (;;) {
                    emit_one(g, b, na);
                    int nn = sl->step[(size_t)d * per + (size_t)k * sl->ncells + na];
                    if (nn < 0)
                        break;
                    const uint64_t *m = shape_of(sl, k, nn);
                    for (int w = 0; w < nw; w++)
                        blocked |= (m[w] & ds->occ[w] & ~own[w]) != 0;
                    if (blocked)
                        break;
                    na = nn;
                }
            } else {
                short S[1] = {(short)b};
                move_set(g, S, 1, shape_of(sl, k, a), d, 2);
            }
        }
}

static void single_moves_1(gen *g, int mode)
{
    single_moves(g, 1, mode);
}

static void single_moves_n(gen *g, int mode)
{
    single_moves(g, g->nw, mode);
}

/* ---- the fast path: styles 0-2 on boards of up to 64 cells ---- */

typedef struct fstate {
    uint64_t A, occ, empty;                  /* anchors, occupied and empty cells */
    u128 key;                                /* the key (one or two words) */
    unsigned char kind[64], anchor[64];      /* blocks in cell order */
    uint64_t cells[64];                      /* the cells of each block */
} fstate;

/* The hint (sb_slide_model_hints) of the configuration made by a step in
 * direction d of a block from the cells `from` to the cells `to`, the
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

static int generate(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx, minfo *mi)
{
    if (sl->fast && sl->style < 3 && !mi) {
        typedef void (*fast_fn)(const sb_slide *, const uint64_t *, sb_emit_fn, void *);
        static const fast_fn FAST[3][2] = {{fast_moves_01, fast_moves_02},
                                           {fast_moves_11, fast_moves_12},
                                           {fast_moves_21, fast_moves_22}};
        FAST[sl->style][sl->key_words - 1](sl, key, emit, ctx);
        return 0;
    }
    dstate ds;
    gen g = {sl, &ds, emit, ctx, mi, sl->nw};
    int mode = sl->style % 3;
    decode(sl, key, &ds);
    if (sl->style < 3) {
        if (sl->nw == 1)
            single_moves_1(&g, mode);
        else
            single_moves_n(&g, mode);
        return 0;
    }
    ideals id; /* 16 KB of closures: on the stack, no allocation per state */
    build_owner(sl, &ds);
    for (int d = 0; d < 4; d++)
        superpieces(&g, d, mode, &id);
    return 0;
}

int sb_slide_expand(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    if (!sl_ready(sl) || !key || !emit)
        return SB_EUSAGE;
    return generate(sl, key, emit, ctx, NULL);
}

int sb_slide_expand_hinted(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    if (!sl_ready(sl) || !key || !emit)
        return SB_EUSAGE;
    if (!sl->hint_bits)
        return generate(sl, key, emit, ctx, NULL);
    /* hints: style 0, fast, one word */
    if (sl->pbits && !sl->mono1 && sl->nk <= 16)
        slot_moves_hinted(sl, key, emit, ctx);
    else
        fast_moves_01h(sl, key, emit, ctx);
    return 0;
}

/* ---- describing a move ---- */

typedef struct desc_ctx {
    const uint64_t *target;
    int kw, found;
    minfo mi;
    short S[MAXC];
    int n, dr, dc;
} desc_ctx;

static void desc_cb(void *ctx, const uint64_t *key)
{
    desc_ctx *c = ctx;
    if (c->found || memcmp(key, c->target, c->kw * sizeof *key))
        return;
    c->found = 1;
    c->n = c->mi.n;
    memcpy(c->S, c->mi.blk, c->n * sizeof *c->S);
    c->dr = c->mi.dr;
    c->dc = c->mi.dc;
}

static void put(char *buf, size_t size, size_t *len, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 1 <= size) {
        memcpy(buf + *len, s, n + 1);
    } else if (*len + 1 < size) {
        memcpy(buf + *len, s, size - *len - 1);
        buf[size - 1] = 0;
    }
    *len += n;
}

static int describe(const sb_slide *sl, const uint64_t *from, const uint64_t *to, char *buf,
                    size_t size, sb_error *err);

int sb_slide_describe(const sb_slide *sl, const uint64_t *from, const uint64_t *to, char *buf,
                      size_t size, sb_error *err)
{
    if (!sl_ready(sl) || !from || !to || !buf || size == 0)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_slide_describe: %s",
                            !sl_ready(sl) ? "the model is NULL or not set up"
                            : !buf || !size ? "no room in buf"
                                            : "a key is NULL");
    return describe(sl, from, to, buf, size, err);
}

static int describe(const sb_slide *sl, const uint64_t *from, const uint64_t *to, char *buf,
                    size_t size, sb_error *err)
{
    dstate ds;
    desc_ctx c;
    gen g = {sl, &ds, desc_cb, &c, &c.mi, sl->nw};
    size_t len = 0;
    char tmp[64];
    memset(&c, 0, sizeof c);
    c.target = to;
    c.kw = sl->key_words;
    if (size)
        buf[0] = 0;
    int rc = generate(sl, from, desc_cb, &c, &c.mi);
    if (rc)
        return rc;
    if (!c.found)
        return sb_error_set(err, SB_EINTERNAL, 0, 0, "the two configurations are not one move apart");
    decode(sl, from, &ds);
    for (int i = 0; i < c.n; i++) {
        int a = ds.anchor[c.S[i]];
        snprintf(tmp, sizeof tmp, "%s%c@r%dc%d", i ? " " : "", sb_slide_name(sl->kval[ds.kind[c.S[i]]]),
                 sl->rowof[a] + 1, sl->colof[a] + 1);
        put(buf, size, &len, tmp);
    }
    /* The unit steps: straight for styles 0, 1, 3, 4; for 2 and 5 a
     * shortest path of legal steps found by breadth-first search over
     * displacements. */
    int W = 2 * sl->cols - 1, H = 2 * sl->rows - 1, R0 = sl->rows - 1, C0 = sl->cols - 1;
    short par[4 * MAXC], queue[4 * MAXC];
    signed char how[4 * MAXC];
    uint64_t cur[MAXW];
    int qh = 0, qt = 0, goal = (c.dr + R0) * W + c.dc + C0, at0 = R0 * W + C0;
    cells_of(&g, c.S, c.n, cur);
    for (int i = 0; i < W * H; i++)
        par[i] = -1;
    par[at0] = (short)at0;
    queue[qt++] = (short)at0;
    while (qh < qt && par[goal] < 0) {
        int at = queue[qh++], r0 = at / W - R0, c0 = at % W - C0;
        for (int d = 0; d < 4; d++) {
            int r = r0 + DR[d], cc = c0 + DC[d];
            if (r < -R0 || r > R0 || cc < -C0 || cc > C0)
                continue;
            int nat = (r + R0) * W + cc + C0;
            if (par[nat] >= 0)
                continue;
            /* styles 0, 1, 3, 4 move straight: only the target's direction */
            if (sl->style % 3 != 2 && (DR[d] * c.dc != DC[d] * c.dr || DR[d] * c.dr + DC[d] * c.dc <= 0))
                continue;
            if (!legal(&g, c.S, c.n, cur, r, cc))
                continue;
            par[nat] = (short)at;
            how[nat] = (signed char)d;
            queue[qt++] = (short)nat;
        }
    }
    if (par[goal] < 0)
        return sb_error_set(err, SB_EINTERNAL, 0, 0, "no path of legal steps for the move");
    int dirs[4 * MAXC], nd = 0;
    for (int at = goal; at != at0; at = par[at])
        dirs[nd++] = how[at];
    while (nd--) {
        put(buf, size, &len, " ");
        put(buf, size, &len, DIRNAME[dirs[nd]]);
    }
    return 0;
}
