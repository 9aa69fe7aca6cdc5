/* Superpieces (styles 3-5; SLIDING's "Supermoving").  Fix a direction and
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
 * (0,0) would be the same. */
#include "moves.h"

static void build_owner(const sb_slide *sl, dstate *ds)
{
    for (int b = 0; b < ds->nb; b++) {
        const uint64_t *m = shape_of(sl, ds->kind[b], ds->anchor[b]);
        for (int w = 0; w < sl->nw; w++)
            for (uint64_t bits = m[w]; bits; bits &= bits - 1)
                ds->owner[w * 64 + __builtin_ctzll(bits)] = (short)(b + 1);
    }
}

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
    slide_cells_of(id->g, S, n, cur);
    slide_move_set(id->g, S, n, cur, id->d, id->mode);
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
        /* off the board, on an x, or across a piece's axis lock */
        int na = sl->step[((size_t)d * sl->nk + k) * sl->ncells + a];
        memset(adj[u], 0, sizeof adj[u]);
        stuck[u] = 0;
        if (na < 0) {
            stuck[u] = 1;
            continue;
        }
        const uint64_t *m = shape_of(sl, k, na), *own = shape_of(sl, k, a);
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


void slide_supermoves(gen *g, int mode)
{
    ideals id; /* 16 KB of closures: on the stack, no allocation per state */
    build_owner(g->sl, g->ds);
    for (int d = 0; d < 4; d++)
        superpieces(g, d, mode, &id);
}
