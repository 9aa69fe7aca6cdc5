/* The slide model's moves as the engines and the printers ask for them:
 * every neighbour of a key in the model's style (styles 0-2 from moves.c,
 * or their fast path in fastmoves.c; styles 3-5 from supermoves.c), the
 * same with hints, and a move described in words.  This file sits above
 * the generators, which do not call it back. */
#include <stdio.h>

#include "keycodec.h"
#include "moves.h"

static const char *const DIRNAME[4] = {"right", "left", "down", "up"};

static int generate(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx, minfo *mi)
{
    if (sl->fast && sl->style < 3 && !mi) {
        slide_fast_moves(sl, key, emit, ctx);
        return 0;
    }
    dstate ds;
    gen g = {sl, &ds, emit, ctx, mi, sl->nw};
    int mode = sl->style % 3;
    slide_decode(sl, key, &ds);
    if (sl->style < 3) {
        slide_single_moves(&g, mode);
        return 0;
    }
    slide_supermoves(&g, mode);
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
    slide_fast_hinted(sl, key, emit, ctx);
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
    slide_decode(sl, from, &ds);
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
    slide_cells_of(&g, c.S, c.n, cur);
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
            if (!slide_legal(&g, c.S, c.n, cur, r, cc))
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

