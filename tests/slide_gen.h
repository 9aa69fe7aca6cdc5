/* slide_gen: random sliding-block puzzles in SLIDING's format, for the
 * differential tests (tests/test_random_slide.c, fuzz/fuzz_slide_diff.c).
 *
 * A puzzle is drawn as a person might write one, and as none of the
 * bundled ones are: boards from 1 x 2 to 6 x 6; one to six kinds with
 * names anywhere in 1..f, each a random shape in a box of up to 3 x 3
 * (grown cell by cell, or any cells of the box, so pieces may be in
 * several parts), patterns sometimes with leading empty rows or columns;
 * zero to eight blocks of a kind, placed at random until the board is as
 * full as drawn (from nearly empty to packed); x cells sometimes; then one
 * to four stop lines, each of them
 *   - the start itself,
 *   - a configuration reached by a random walk of one-step moves (so
 *     reachable in every style),
 *   - the same blocks placed anew at random (reachable or not),
 *   - and any of these made partial: blocks left unnamed, cells left free
 *     with `.`, the line cut short by `*`.
 * One puzzle in four has kinds locked to an axis (`h` or `v` after the
 * pattern, as Rush Hour's cars).  Whether a puzzle has them, and which,
 * comes from a second stream seeded apart, so that the puzzles without
 * them are drawn exactly as before the locks existed.
 * Choices come from a seeded generator or, for the fuzz target, from the
 * fuzzer's bytes (sg_src), so a fuzzed input is a puzzle too.
 *
 * Uses tests/slide_oracle.h for the random walk; shares nothing with the
 * library. */
#ifndef SBFS_SLIDE_GEN_H
#define SBFS_SLIDE_GEN_H

#include "slide_oracle.h"

#define SG_MAXTEXT 4096

/* Where choices come from: data[0..len) when data is set (zeros once it
 * runs out), else a splitmix64 stream from state. */
typedef struct sg_src {
    uint64_t state;
    const uint8_t *data;
    size_t len, pos;
} sg_src;

static inline uint32_t sg_below(sg_src *r, uint32_t n)
{
    if (n <= 1)
        return 0;
    if (r->data) {
        uint32_t v = 0;
        for (uint32_t span = 1; span < n && span < (1u << 24); span <<= 8)
            v = v << 8 | (r->pos < r->len ? r->data[r->pos++] : 0);
        return v % n;
    }
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (uint32_t)((z >> 11) % n);
}

/* What a puzzle holds, for the coverage figures of the tests. */
typedef struct sg_info {
    int cells, kinds, blocks, xcells, empty;
    int disconnected; /* some piece in more than one part */
    int locked;       /* kinds locked to an axis */
    int unused_kind;  /* some kind defined with no block */
    int stops, partial, walked, placed, at_start;
} sg_info;

typedef struct sg_walk {
    char (*b)[SO_MAXN];
    int n, cap;
} sg_walk;

static inline void sg_walk_emit(void *ctx, const char *board)
{
    sg_walk *w = ctx;
    if (w->n < w->cap)
        memcpy(w->b[w->n++], board, SO_MAXN);
}

/* Board b in SLIDING's shorthand: at each cell not covered by a block
 * named before it, the name of the block anchored there, 0 or x; trailing
 * zeros dropped. */
static inline void sg_shorthand(const so_puzzle *P, const char *b, const so_blocks *B, char *out)
{
    int n = 0;
    for (int c = 0; c < P->N; c++) {
        int k = B->own[c];
        if (k >= 0 && B->cell[B->first[k]] != c)
            continue;
        out[n++] = k >= 0 ? B->name[k] : b[c];
    }
    while (n && out[n - 1] == '0')
        n--;
    out[n] = 0;
}

/* The stop line for board b with some blocks unnamed and cells free. */
static inline void sg_partial(sg_src *r, const so_puzzle *P, const char *b, const so_blocks *B, char *out)
{
    char keep[SO_MAXN], covered[SO_MAXN] = {0};
    int n = 0, pkeep = 2 + (int)sg_below(r, 3), pfree = (int)sg_below(r, 3), any = 0;
    for (int k = 0; k < B->nb; k++)
        any |= keep[k] = (int)sg_below(r, 4) < pkeep;
    if (!any) /* one block named at least */
        keep[sg_below(r, (uint32_t)B->nb)] = 1;
    for (int c = 0; c < P->N; c++) {
        if (covered[c])
            continue;
        int k = B->own[c];
        if (k >= 0 && keep[k] && B->cell[B->first[k]] == c) {
            for (int t = B->first[k]; t < B->first[k + 1]; t++)
                covered[B->cell[t]] = 1;
            out[n++] = B->name[k];
        } else if (k >= 0) {
            out[n++] = '.'; /* a cell of an unnamed block */
        } else {
            out[n++] = (int)sg_below(r, 4) < pfree ? '.' : b[c];
        }
    }
    if (sg_below(r, 2)) { /* cut short: the rest free */
        n -= (int)sg_below(r, (uint32_t)n / 2 + 1);
        out[n++] = '*';
    } else {
        while (n && out[n - 1] == '0')
            n--;
    }
    out[n] = 0;
}

/* Place blocks of the kinds count[v] at random on board b (x cells and
 * blocks already there kept); gives up on a block after a few tries. */
static inline int sg_place(sg_src *r, const so_puzzle *P, const int *count, char *b)
{
    int placed = 0;
    for (int v = 1; v < 16; v++)
        for (int i = 0; i < count[v]; i++)
            for (int tries = 0; tries < 12; tries++) {
                int a = (int)sg_below(r, (uint32_t)P->N), ok = 1;
                for (int t = 0; t < P->kn[v] && ok; t++) {
                    int rr = a / P->C + P->kr[v][t], cc = a % P->C + P->kc[v][t];
                    ok = rr >= 0 && rr < P->R && cc >= 0 && cc < P->C && b[rr * P->C + cc] == '0';
                }
                if (!ok)
                    continue;
                for (int t = 0; t < P->kn[v]; t++)
                    b[(a / P->C + P->kr[v][t]) * P->C + a % P->C + P->kc[v][t]] = so_name(v);
                placed++;
                break;
            }
    return placed;
}

/* A random shape in an h x w box, as a pattern "0110/11" (rows joined by
 * '/'); grown from one cell by adding neighbours, or any cells at all. */
static inline void sg_shape(sg_src *r, int h, int w, char *pat, int *parts)
{
    char on[9] = {0};
    int want = 1 + (int)sg_below(r, (uint32_t)(h * w)), n = 1;
    on[sg_below(r, (uint32_t)(h * w))] = 1;
    if (sg_below(r, 3)) {
        for (int tries = 0; n < want && tries < 60; tries++) {
            int c = (int)sg_below(r, (uint32_t)(h * w)), rr = c / w, cc = c % w;
            if (on[c])
                continue;
            if ((cc > 0 && on[c - 1]) || (cc + 1 < w && on[c + 1]) || (rr > 0 && on[c - w]) ||
                (rr + 1 < h && on[c + w]))
                on[c] = 1, n++;
        }
    } else {
        for (int c = 0; c < h * w; c++)
            on[c] |= sg_below(r, 2);
    }
    /* parts: flood fill over the box */
    int seen[9] = {0}, q[9];
    *parts = 0;
    for (int c = 0; c < h * w; c++) {
        if (!on[c] || seen[c])
            continue;
        int qh = 0, qt = 0;
        (*parts)++;
        q[qt++] = c;
        seen[c] = 1;
        while (qh < qt) {
            int x = q[qh++], xr = x / w, xc = x % w;
            int nb[4] = {xc > 0 ? x - 1 : -1, xc + 1 < w ? x + 1 : -1, xr > 0 ? x - w : -1,
                         xr + 1 < h ? x + w : -1};
            for (int j = 0; j < 4; j++)
                if (nb[j] >= 0 && on[nb[j]] && !seen[nb[j]])
                    seen[nb[j]] = 1, q[qt++] = nb[j];
        }
    }
    int k = 0;
    for (int rr = 0; rr < h; rr++) {
        if (rr)
            pat[k++] = '/';
        for (int cc = 0; cc < w; cc++)
            pat[k++] = on[rr * w + cc] ? '1' : '0';
    }
    pat[k] = 0;
}

/* Write a random puzzle into text (SG_MAXTEXT bytes).  Returns 0, or -1
 * when the draw came out with no block (the caller draws again). */
static inline int sg_puzzle(sg_src *r, char *text, sg_info *info)
{
    static const char kindnames[] = "123456789abcdef";
    so_puzzle *P = malloc(sizeof *P);
    so_blocks *B = malloc(sizeof *B);
    sg_walk w = {malloc(64 * SO_MAXN), 0, 64};
    int rc = -1, len = 0, count[16] = {0};
    char b[SO_MAXN], line[SO_MAXN + 2], pat[20];
    /* the locks' own stream (the fuzzer's bytes when fuzzing) */
    sg_src side = {r->state ^ 0x6a09e667f3bcc909ULL, NULL, 0, 0}, *lk = r->data ? r : &side;
    int locks = !sg_below(lk, 4);
    if (!P || !B || !w.b)
        goto done;
    memset(P, 0, sizeof *P);
    memset(info, 0, sizeof *info);
    P->R = 1 + (int)sg_below(r, 6);
    P->C = 1 + (int)sg_below(r, 6);
    if (P->R * P->C < 2)
        P->C = 2;
    P->N = P->R * P->C;
    len += snprintf(text + len, SG_MAXTEXT - len, "%d x %d random\n", P->R, P->C);
    /* kinds: distinct names, random shapes */
    int nk = 1 + (int)sg_below(r, 6), fill = 1 + (int)sg_below(r, 10);
    char names[16];
    memcpy(names, kindnames, 16);
    for (int i = 0; i < nk; i++) {
        int j = i + (int)sg_below(r, (uint32_t)(15 - i)), parts;
        char t = names[i];
        names[i] = names[j];
        names[j] = t;
        int v = so_val(names[i]);
        int h = 1 + (int)sg_below(r, (uint32_t)(P->R < 3 ? P->R : 3));
        int wd = 1 + (int)sg_below(r, (uint32_t)(P->C < 3 ? P->C : 3));
        sg_shape(r, h, wd, pat, &parts);
        info->disconnected |= parts > 1;
        char full[24];
        snprintf(full, sizeof full, "%s%s", sg_below(r, 8) ? "" : sg_below(r, 2) ? "0/" : "0", pat);
        char axis = locks && sg_below(lk, 3) ? (sg_below(lk, 2) ? 'h' : 'v') : 0;
        if (axis)
            len += snprintf(text + len, SG_MAXTEXT - len, "%c = %s%s%c\n", names[i], full,
                            sg_below(lk, 4) ? " " : "", axis);
        else
            len += snprintf(text + len, SG_MAXTEXT - len, "%c = %s\n", names[i], full);
        info->locked += axis != 0;
        /* the shape as the oracle reads it, for placing blocks */
        P->kdef[v] = 1;
        P->kaxis[v] = axis;
        int rr = 0, cc = 0, r0 = -1, c0 = 0;
        for (const char *p = full; *p; p++) {
            if (*p == '/') {
                rr++, cc = 0;
                continue;
            }
            if (*p == '1') {
                if (r0 < 0)
                    r0 = rr, c0 = cc;
                P->kr[v][P->kn[v]] = rr - r0;
                P->kc[v][P->kn[v]] = cc - c0;
                P->kn[v]++;
            }
            cc++;
        }
        /* 0 to 8 blocks, about enough to fill a tenth of the board per
         * unit of fill among the kinds */
        int room = fill * P->N / (10 * nk * P->kn[v]) + 1;
        count[v] = (int)sg_below(r, (uint32_t)(1 + (room < 8 ? room : 8)));
        info->unused_kind |= count[v] == 0;
    }
    info->kinds = nk;
    /* the start */
    memset(b, '0', (size_t)P->N);
    if (!sg_below(r, 3)) {
        int nx = (int)sg_below(r, (uint32_t)(P->N / 4 + 1));
        for (int i = 0; i < nx; i++)
            b[sg_below(r, (uint32_t)P->N)] = 'x';
    }
    for (int c = 0; c < P->N; c++)
        P->xcell[c] = b[c] == 'x';
    info->blocks = sg_place(r, P, count, b);
    if (!info->blocks)
        goto done;
    if (so_split(P, b, B) < 0)
        goto done;
    for (int v = 1; v < 16; v++) /* the blocks that found room */
        count[v] = 0;
    for (int k = 0; k < B->nb; k++)
        count[so_val(B->name[k])]++;
    info->cells = P->N;
    for (int c = 0; c < P->N; c++) {
        info->xcells += b[c] == 'x';
        info->empty += b[c] == '0';
    }
    sg_shorthand(P, b, B, line);
    len += snprintf(text + len, SG_MAXTEXT - len, "%s\n", line);
    /* the stop lines */
    int nstop = 1 + (sg_below(r, 3) ? 0 : (int)sg_below(r, 4));
    info->stops = nstop;
    for (int s = 0; s < nstop; s++) {
        char g[SO_MAXN];
        int how = (int)sg_below(r, 16) ? 1 + (int)sg_below(r, 7) : 0;
        memcpy(g, b, (size_t)P->N);
        if (how == 0) {
            info->at_start = 1;
        } else if (how <= 4) { /* a random walk of one-step moves */
            int steps = 10 + (int)sg_below(r, 50);
            for (int i = 0; i < steps; i++) {
                w.n = 0;
                if (so_expand(P, 0, g, 0, sg_walk_emit, &w) || !w.n)
                    break;
                memcpy(g, w.b[sg_below(r, (uint32_t)w.n)], (size_t)P->N);
            }
            info->walked = 1;
        } else { /* the same blocks anywhere */
            for (int c = 0; c < P->N; c++)
                g[c] = P->xcell[c] ? 'x' : '0';
            if (sg_place(r, P, count, g) != B->nb)
                memcpy(g, b, (size_t)P->N);
            else
                info->placed = 1;
        }
        so_blocks *G = malloc(sizeof *G);
        if (!G || so_split(P, g, G) < 0) {
            free(G);
            goto done;
        }
        if (sg_below(r, 2)) {
            sg_partial(r, P, g, G, line);
            info->partial = 1;
        } else {
            sg_shorthand(P, g, G, line);
        }
        free(G);
        len += snprintf(text + len, SG_MAXTEXT - len, "%s\n", line);
    }
    rc = len < SG_MAXTEXT - 1 ? 0 : -1;
done:
    free(P);
    free(B);
    free(w.b);
    return rc;
}

#endif
