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
 * The sets of blocks of styles 3-5 are found in supermoves.c, and the
 * fast path of styles 0-2 on small boards is fastmoves.c; both share
 * the decoded configuration of moves.h.  expand.c, above all three,
 * picks the generator for a key and describes moves. */
#include <stdio.h>

#include "keycodec.h"
#include "moves.h"


static inline __attribute__((always_inline)) void decode_w(const sb_slide *sl, const uint64_t *key,
                                                         dstate *ds, const int nw)
{
    int pos = sl->ncells, nb = 0;
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
                k = (int)kc_get(key, pos, sl->kbits);
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
void slide_decode(const sb_slide *sl, const uint64_t *key, dstate *ds)
{
    if (sl->pbits)
        decode_slots(sl, key, ds);
    else if (sl->nw == 1)
        decode_w(sl, key, ds, 1);
    else
        decode_w(sl, key, ds, sl->nw);
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
        /* a locked piece stays on its line: every displacement of a flood
         * is reached through legal ones, so the path stays on it too */
        char axis = sl->pz->kind[sl->kval[k]].axis;
        if ((axis == 'h' && dr) || (axis == 'v' && dc))
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

void slide_cells_of(const gen *g, const short *S, int n, uint64_t *cur)
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
void slide_move_set(gen *g, const short *S, int n, const uint64_t *cur, int d, int mode)
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
                slide_move_set(g, S, 1, shape_of(sl, k, a), d, 2);
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

void slide_single_moves(gen *g, int mode)
{
    if (g->sl->nw == 1)
        single_moves_1(g, mode);
    else
        single_moves_n(g, mode);
}

/* legal() for the describer in expand.c; the generators here call legal()
 * itself, which the compiler inlines into their loops. */
int slide_legal(const gen *g, const short *S, int n, const uint64_t *cur, int dr, int dc)
{
    return legal(g, S, n, cur, dr, dc);
}
