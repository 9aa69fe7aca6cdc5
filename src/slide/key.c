/* The slide model's tables and its canonical key.
 *
 * Key layout (fixed width for a puzzle), the anchor form: bit c, for c <
 * ncells, is 1 when a block is anchored at cell c; then, for the anchored
 * cells in increasing order, the kind of the block there in kbits =
 * ceil(log2 nk) bits each (nothing at all when every block is of one
 * kind).  Blocks of one kind swapped give the same anchors and the same
 * kinds in cell order, hence the same key, and the key determines the
 * configuration.  On SHIFT (20 cells, 10 blocks of 4 kinds) that is
 * 20 + 10*2 = 40 bits, one word; the widest, 256 cells of 1x1 blocks of 15
 * kinds, 256 + 256*4 bits = 20 words.
 *
 * The slot form, when every block is a kind of its own and it is no wider:
 * block k (the k-th kind) has its anchor in bits k*pbits .. k*pbits +
 * pbits - 1, pbits = ceil(log2 ncells).  On the 15-puzzle that is 15*4 =
 * 60 bits, one word, against 76 in the anchor form; on the distinct-piece
 * Klotski 10*5 = 50 against 60.  A block's move changes its own field and
 * nothing else, and reading a block is one shift: no ranks to count. */
#include <string.h>

#include "sbfs/slide.h"
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
    size_t nshape = (size_t)sl->nk * sl->ncells * sl->nw;
    sl->shape = sb_mem_alloc(mem, nshape * sizeof *sl->shape, err);
    sl->fits = sb_mem_alloc(mem, (size_t)sl->nk * sl->ncells, err);
    if (!sl->shape || !sl->fits) {
        sb_slide_free(sl);
        return SB_ENOMEM;
    }
    for (int k = 0; k < sl->nk; k++) {
        const sb_slide_kind *kd = &pz->kind[sl->kval[k]];
        for (int a = 0; a < sl->ncells; a++) {
            uint64_t *m = sl->shape + ((size_t)k * sl->ncells + a) * sl->nw;
            int r = a / sl->cols, c = a % sl->cols, ok = 1;
            for (int t = 0; t < kd->n && ok; t++) {
                int rr = r + kd->dr[t], cc = c + kd->dc[t];
                if (rr >= sl->rows || cc < 0 || cc >= sl->cols || pz->xcell[rr * sl->cols + cc])
                    ok = 0;
                else
                    m[(rr * sl->cols + cc) >> 6] |= (uint64_t)1 << ((rr * sl->cols + cc) & 63);
            }
            if (!ok)
                memset(m, 0, sl->nw * sizeof *m);
            sl->fits[(size_t)k * sl->ncells + a] = (unsigned char)ok;
        }
    }
    /* one-step tables: right, left, down, up (the order of moves.c) */
    static const int DR[4] = {0, 0, 1, -1}, DC[4] = {1, -1, 0, 0};
    size_t per = (size_t)sl->nk * sl->ncells;
    sl->step = sb_mem_alloc(mem, 4 * per * sizeof *sl->step, err);
    sl->enter = sb_mem_alloc(mem, 4 * per * sl->nw * sizeof *sl->enter, err);
    if (!sl->step || !sl->enter) {
        sb_slide_free(sl);
        return SB_ENOMEM;
    }
    for (int d = 0; d < 4; d++)
        for (int k = 0; k < sl->nk; k++)
            for (int a = 0; a < sl->ncells; a++) {
                size_t at = ((size_t)d * sl->nk + k) * sl->ncells + a;
                int r = a / sl->cols + DR[d], c = a % sl->cols + DC[d], na = r * sl->cols + c;
                sl->step[at] = -1;
                if (r < 0 || r >= sl->rows || c < 0 || c >= sl->cols || !sl->fits[(size_t)k * sl->ncells + na])
                    continue;
                sl->step[at] = (short)na;
                const uint64_t *from = sl->shape + ((size_t)k * sl->ncells + a) * sl->nw;
                const uint64_t *to = sl->shape + ((size_t)k * sl->ncells + na) * sl->nw;
                for (int w = 0; w < sl->nw; w++)
                    sl->enter[at * sl->nw + w] = to[w] & ~from[w];
            }
    sl->fast = sl->nw == 1 && sl->key_words <= 2;
    if (sl->nw == 1) {
        sl->enter1 = sb_mem_alloc(mem, 4 * per * sizeof *sl->enter1, err);
        if (!sl->enter1) {
            sb_slide_free(sl);
            return SB_ENOMEM;
        }
        sl->mono1 = 1;
        for (int k = 0; k < sl->nk; k++)
            sl->mono1 &= pz->kind[sl->kval[k]].n == 1;
        for (int d = 0; d < 4; d++)
            for (size_t ka = 0; ka < per; ka++)
                sl->enter1[ka * 4 + d] = sl->step[d * per + ka] < 0 ? ~(uint64_t)0 : sl->enter[d * per + ka];
        for (int j = 0; j < sl->ncells; j++) {
            uint64_t bit = (uint64_t)1 << j;
            int r = j / sl->cols, c = j % sl->cols;
            sl->board1 |= bit;
            sl->open1 |= pz->xcell[j] ? 0 : bit;
            sl->edge1[0] |= c + 1 < sl->cols ? bit : 0;
            sl->edge1[1] |= c > 0 ? bit : 0;
            sl->edge1[2] |= r + 1 < sl->rows ? bit : 0;
            sl->edge1[3] |= r > 0 ? bit : 0;
        }
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

void sb_slide_free(sb_slide *sl)
{
    if (!sl)
        return;
    sb_mem_free(sl->mem, sl->shape, (size_t)sl->nk * sl->ncells * sl->nw * sizeof *sl->shape);
    sb_mem_free(sl->mem, sl->fits, (size_t)sl->nk * sl->ncells);
    size_t per = (size_t)sl->nk * sl->ncells;
    sb_mem_free(sl->mem, sl->step, 4 * per * sizeof *sl->step);
    sb_mem_free(sl->mem, sl->enter, 4 * per * sl->nw * sizeof *sl->enter);
    sb_mem_free(sl->mem, sl->enter1, 4 * per * sizeof *sl->enter1);
    sl->enter1 = NULL;
    sl->shape = NULL;
    sl->fits = NULL;
    sl->step = NULL;
    sl->enter = NULL;
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

int sb_slide_model(const sb_slide *sl, sb_keymodel *m)
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
    return 0;
}

int sb_slide_model_hints(const sb_slide *sl, sb_keymodel *m)
{
    int rc = sb_slide_model(sl, m);
    if (rc)
        return rc;
    if (sl->hint_bits) {
        m->hint_bits = sl->hint_bits;
        m->expand = expand_hinted_cb;
    }
    return 0;
}

int sb_slide_pack(const sb_slide *sl, const unsigned char *anchors, uint64_t *key)
{
    int pos, blocks = 0;
    if (!sl_ready(sl) || !anchors || !key)
        return SB_EUSAGE;
    /* the key has room for sl->nblocks blocks of the model's kinds */
    for (int c = 0; c < sl->ncells; c++)
        if (anchors[c]) {
            if (anchors[c] > 15 || sl->kidx[anchors[c]] < 0)
                return SB_EUSAGE;
            blocks++;
        }
    if (blocks != sl->nblocks)
        return SB_EUSAGE;
    pos = sl->ncells;
    memset(key, 0, sl->key_words * sizeof *key);
    if (sl->pbits) {
        for (int c = 0; c < sl->ncells; c++)
            if (anchors[c])
                key[0] |= (uint64_t)c << (sl->kidx[anchors[c]] * sl->pbits);
        return 0;
    }
    for (int c = 0; c < sl->ncells; c++) {
        if (!anchors[c])
            continue;
        key[c >> 6] |= (uint64_t)1 << (c & 63);
        if (sl->kbits) {
            uint64_t v = (uint64_t)sl->kidx[anchors[c]];
            key[pos >> 6] |= v << (pos & 63);
            if ((pos & 63) + sl->kbits > 64)
                key[(pos >> 6) + 1] |= v >> (64 - (pos & 63));
            pos += sl->kbits;
        }
    }
    return 0;
}

int sb_slide_unpack(const sb_slide *sl, const uint64_t *key, unsigned char *anchors)
{
    int pos;
    uint64_t kmask;
    if (!sl_ready(sl) || !key || !anchors)
        return SB_EUSAGE;
    pos = sl->ncells;
    kmask = ((uint64_t)1 << sl->kbits) - 1;
    memset(anchors, 0, SB_SLIDE_MAXCELLS);
    if (sl->pbits) {
        for (int k = 0; k < sl->nk; k++)
            anchors[sb_slide_field(sl, key[0], k)] = (unsigned char)sl->kval[k];
        return 0;
    }
    for (int c = 0; c < sl->ncells; c++) {
        if (!(key[c >> 6] >> (c & 63) & 1))
            continue;
        uint64_t v = 0;
        if (sl->kbits) {
            v = key[pos >> 6] >> (pos & 63);
            if ((pos & 63) + sl->kbits > 64)
                v |= key[(pos >> 6) + 1] << (64 - (pos & 63));
            v &= kmask;
            pos += sl->kbits;
        }
        anchors[c] = (unsigned char)sl->kval[v < (uint64_t)sl->nk ? v : 0];
    }
    return 0;
}

/* 0 when pz and anchors can be drawn: every anchor names one of the 15
 * kinds (kind[] has 16 entries). */
static int drawable(const sb_slide_puzzle *pz, const unsigned char *anchors, const char *buf)
{
    if (!pz_ready(pz) || !anchors || !buf)
        return SB_EUSAGE;
    for (int j = 0; j < pz->ncells; j++)
        if (anchors[j] > 15 || pz->kind[anchors[j]].n < 0 ||
            pz->kind[anchors[j]].n > SB_SLIDE_MAXCELLS)
            return SB_EUSAGE;
    return 0;
}

/* ---- text forms ---- */

size_t sb_slide_board_size(const sb_slide_puzzle *pz)
{
    if (!pz_ready(pz))
        return 0;
    return (size_t)pz->rows * 2 * (2 * pz->cols + 1) + 1;
}

int sb_slide_board_text(const sb_slide_puzzle *pz, const unsigned char *anchors, char *buf)
{
    short id[SB_SLIDE_MAXCELLS]; /* block number + 1 per cell, 0 empty, -1 x */
    char name[SB_SLIDE_MAXCELLS];
    int nb = 0, R, C;
    if (drawable(pz, anchors, buf))
        return SB_EUSAGE;
    R = pz->rows, C = pz->cols;
    for (int j = 0; j < pz->ncells; j++) {
        id[j] = pz->xcell[j] ? -1 : 0;
        name[j] = pz->xcell[j] ? ' ' : '0';
    }
    for (int j = 0; j < pz->ncells; j++) {
        if (!anchors[j])
            continue;
        const sb_slide_kind *k = &pz->kind[anchors[j]];
        nb++;
        for (int t = 0; t < k->n; t++) {
            int rr = j / C + k->dr[t], cc = j % C + k->dc[t];
            if (rr < R && cc >= 0 && cc < C) {
                id[rr * C + cc] = (short)nb;
                name[rr * C + cc] = sb_slide_name(anchors[j]);
            }
        }
    }
    char *p = buf;
    for (int r = 0; r < R; r++) {
        for (int c = 0; c < C; c++) {
            int j = r * C + c;
            *p++ = ' ';
            *p++ = (r > 0 && id[j] > 0 && id[j] == id[j - C]) ? '|' : ' ';
        }
        *p++ = '\n';
        for (int c = 0; c < C; c++) {
            int j = r * C + c;
            *p++ = (c > 0 && id[j] > 0 && id[j] == id[j - 1]) ? '-' : ' ';
            *p++ = name[j];
        }
        *p++ = '\n';
    }
    *p = 0;
    return 0;
}

int sb_slide_shorthand(const sb_slide_puzzle *pz, const unsigned char *anchors, char *buf)
{
    unsigned char covered[SB_SLIDE_MAXCELLS];
    int left = 0, C;
    char *p = buf;
    if (drawable(pz, anchors, buf))
        return SB_EUSAGE;
    C = pz->cols;
    memset(covered, 0, sizeof covered);
    for (int j = 0; j < pz->ncells; j++)
        left += anchors[j] != 0;
    for (int j = 0; j < pz->ncells && left; j++) {
        if (pz->xcell[j] || covered[j])
            continue;
        if (!anchors[j]) {
            *p++ = '0';
            continue;
        }
        const sb_slide_kind *k = &pz->kind[anchors[j]];
        for (int t = 0; t < k->n; t++) {
            int rr = j / C + k->dr[t], cc = j % C + k->dc[t];
            if (rr < pz->rows && cc >= 0 && cc < C)
                covered[rr * C + cc] = 1;
        }
        *p++ = sb_slide_name(anchors[j]);
        left--;
    }
    *p = 0;
    return 0;
}

int sb_slide_cells(const sb_slide_puzzle *pz, const unsigned char *anchors, char *buf)
{
    char cell[SB_SLIDE_MAXCELLS];
    int C;
    if (drawable(pz, anchors, buf))
        return SB_EUSAGE;
    C = pz->cols;
    for (int j = 0; j < pz->ncells; j++)
        cell[j] = pz->xcell[j] ? 'x' : '0';
    for (int j = 0; j < pz->ncells; j++) {
        if (!anchors[j])
            continue;
        const sb_slide_kind *k = &pz->kind[anchors[j]];
        for (int t = 0; t < k->n; t++) {
            int rr = j / C + k->dr[t], cc = j % C + k->dc[t];
            if (rr < pz->rows && cc >= 0 && cc < C)
                cell[rr * C + cc] = sb_slide_name(anchors[j]);
        }
    }
    for (int r = 0; r < pz->rows; r++) {
        memcpy(buf, cell + r * C, (size_t)C);
        buf += C;
        *buf++ = '\n';
    }
    *buf = 0;
    return 0;
}
