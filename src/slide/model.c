/* The slide model: a puzzle read by parse.c made into what the search
 * engines take (sb_keymodel): the geometry's tables (geometry.c), the
 * kinds present and the key's layout (key.c), the start and stop keys,
 * the hints that style 0 has room for, and the callbacks to the move
 * generators (moves.c) and the goal test (goal.c). */
#include <stdlib.h>
#include <string.h>

#include "slide_internal.h"

int sb_slide_init(sb_slide *sl, const sb_slide_puzzle *pz, int style, sb_mem *mem, sb_error *err)
{
    if (!sl)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_slide_init: sl is NULL");
    memset(sl, 0, sizeof *sl);
    if (!pz_ready(pz) || pz->ngoals < 1)
        return sb_error_set(err, SB_EUSAGE, 0, 0,
                            "sb_slide_init: the puzzle is NULL or not one sb_slide_parse made");
    if (style < 0 || style > 5)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "the style must be between 0 and 5, not %d", style);
    sl->pz = pz;
    sl->style = style;
    sl->mem = mem;
    sl->rows = pz->rows;
    sl->cols = pz->cols;
    sl->ncells = pz->ncells;
    sl->nw = (pz->ncells + 63) / 64;
    sl->nblocks = pz->nblocks;
    for (int v = 0; v < 16; v++)
        sl->kidx[v] = -1;
    for (int j = 0; j < pz->ncells; j++) {
        int v = pz->start[j];
        if (v && sl->kidx[v] < 0)
            sl->kidx[v] = 1;
        sl->rowof[j] = (unsigned char)(j / pz->cols);
        sl->colof[j] = (unsigned char)(j % pz->cols);
    }
    for (int v = 1; v < 16; v++)
        if (sl->kidx[v] > 0) {
            sl->kval[sl->nk] = v;
            sl->kidx[v] = sl->nk++;
        }
    while ((1 << sl->kbits) < sl->nk)
        sl->kbits++;
    sl->key_bits = sl->ncells + sl->nblocks * sl->kbits;
    int pbits = 1;
    while ((1 << pbits) < sl->ncells)
        pbits++;
    if (sl->nw == 1 && sl->nblocks == sl->nk && sl->nblocks * pbits <= sl->key_bits &&
        sl->nblocks * pbits <= 64) {
        sl->pbits = pbits;
        sl->key_bits = sl->nblocks * pbits;
    }
    sl->key_words = (sl->key_bits + 63) / 64;
    int rc = slide_geometry(sl, err);
    if (rc) {
        sb_slide_fini(sl);
        return rc;
    }
    sb_slide_pack(sl, pz->start, sl->start);
    sb_slide_pack(sl, pz->stop, sl->stop);
    if (style == 0 && sl->fast && sl->key_words == 1) {
        /* as many empty cells as the spare bits of the key can name */
        int covered = 0;
        for (int c = 0; c < sl->ncells; c++)
            if (pz->start[c])
                covered += pz->kind[pz->start[c]].n;
        int empty = __builtin_popcountll(sl->open1) - covered, room = (64 - sl->key_bits) / 4;
        sl->hint_ranks = empty < room ? empty : room;
        sl->hint_bits = 4 * sl->hint_ranks;
    }
    return 0;
}

void sb_slide_fini(sb_slide *sl)
{
    if (!sl)
        return;
    slide_geometry_free(sl);
}

int sb_slide_new(sb_slide **out, const sb_slide_puzzle *pz, int style, sb_mem *mem, sb_error *err)
{
    sb_slide *sl;
    int rc;
    if (!out)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_slide_new: sl is NULL");
    *out = NULL;
    if (!(sl = malloc(sizeof *sl)))
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory for the puzzle's model");
    if ((rc = sb_slide_init(sl, pz, style, mem, err)) != 0) {
        free(sl);
        return rc;
    }
    *out = sl;
    return 0;
}

void sb_slide_free(sb_slide *sl)
{
    sb_slide_fini(sl);
    free(sl);
}

const uint64_t *sb_slide_key(const sb_slide *sl, int which)
{
    if (!sl_ready(sl))
        return NULL;
    return which == SB_SLIDE_START ? sl->start : which == SB_SLIDE_STOP ? sl->stop : NULL;
}

static int expand_cb(void *ud, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    return sb_slide_expand(ud, key, emit, ctx);
}

static int expand_hinted_cb(void *ud, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    return sb_slide_expand_hinted(ud, key, emit, ctx);
}

static int goal_cb(void *ud, const uint64_t *key)
{
    return sb_slide_is_goal(ud, key);
}

int sb_slide_model(const sb_slide *sl, unsigned flags, sb_keymodel *m)
{
    if (!m)
        return SB_EUSAGE;
    memset(m, 0, sizeof *m);
    if (!sl_ready(sl))
        return SB_EUSAGE;
    m->key_words = sl->key_words;
    m->reversible = 1; /* a block slides back the way it came, in every style */
    m->ud = (void *)sl;
    m->expand = expand_cb;
    /* one whole configuration: the engine compares keys with sl->stop */
    if (!sl->pz->goal_full)
        m->is_goal = goal_cb;
    if ((flags & SB_SLIDE_HINTS) && sl->hint_bits) {
        m->hint_bits = sl->hint_bits;
        m->expand = expand_hinted_cb;
    }
    return 0;
}

