/* The geometry of the slide model: which cells a block of each kind
 * covers from each anchor, where one step in each direction takes it and
 * which cells that step newly covers, and, for boards of up to 64 cells,
 * the same as bit masks of one word (the fast path of fastmoves.c).  Every
 * move generator reads only these tables and the key; nothing here knows
 * the key's layout.
 *
 * A piece locked to one axis (a Rush Hour car, `1 = 11 h`) is an entry of
 * -1 in step for the two directions of the other axis, as if a wall stood
 * there: every generator that starts a move by a step (styles 0 and 1 on
 * both paths, the first step of every style, the "stuck" blocks of the
 * superpieces) then leaves it alone, with no test of its own.  Only the
 * walks that go on in other directions (the floods of styles 2 and 5)
 * test the lock again, in moves.c's legal(). */
#include <string.h>

#include "slide_internal.h"
#include "../core/internal.h"

static char kd_axis(const sb_slide *sl, int k)
{
    return sl->pz->kind[sl->kval[k]].axis;
}

int slide_geometry(sb_slide *sl, sb_error *err)
{
    size_t nshape = (size_t)sl->nk * sl->ncells * sl->nw;
    sl->shape = sb_mem_alloc(sl->mem, nshape * sizeof *sl->shape, err);
    sl->fits = sb_mem_alloc(sl->mem, (size_t)sl->nk * sl->ncells, err);
    if (!sl->shape || !sl->fits)
        return SB_ENOMEM;
    for (int k = 0; k < sl->nk; k++) {
        const sb_slide_kind *kd = &sl->pz->kind[sl->kval[k]];
        for (int a = 0; a < sl->ncells; a++) {
            uint64_t *m = sl->shape + ((size_t)k * sl->ncells + a) * sl->nw;
            int r = a / sl->cols, c = a % sl->cols, ok = 1;
            for (int t = 0; t < kd->n && ok; t++) {
                int rr = r + kd->dr[t], cc = c + kd->dc[t];
                if (rr >= sl->rows || cc < 0 || cc >= sl->cols || sl->pz->xcell[rr * sl->cols + cc])
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
    sl->step = sb_mem_alloc(sl->mem, 4 * per * sizeof *sl->step, err);
    sl->enter = sb_mem_alloc(sl->mem, 4 * per * sl->nw * sizeof *sl->enter, err);
    if (!sl->step || !sl->enter)
        return SB_ENOMEM;
    for (int d = 0; d < 4; d++)
        for (int k = 0; k < sl->nk; k++)
            for (int a = 0; a < sl->ncells; a++) {
                size_t at = ((size_t)d * sl->nk + k) * sl->ncells + a;
                int r = a / sl->cols + DR[d], c = a % sl->cols + DC[d], na = r * sl->cols + c;
                sl->step[at] = -1;
                if (kd_axis(sl, k) == (d < 2 ? 'v' : 'h'))
                    continue; /* locked to the other axis */
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
        sl->enter1 = sb_mem_alloc(sl->mem, 4 * per * sizeof *sl->enter1, err);
        if (!sl->enter1)
            return SB_ENOMEM;
        /* the one-cell path of fastmoves.c moves a block wherever a
         * neighbour is empty, without the step tables: not for locked kinds */
        sl->mono1 = 1;
        for (int k = 0; k < sl->nk; k++)
            sl->mono1 &= sl->pz->kind[sl->kval[k]].n == 1 && !sl->pz->kind[sl->kval[k]].axis;
        for (int d = 0; d < 4; d++)
            for (size_t ka = 0; ka < per; ka++)
                sl->enter1[ka * 4 + d] = sl->step[d * per + ka] < 0 ? ~(uint64_t)0 : sl->enter[d * per + ka];
        for (int j = 0; j < sl->ncells; j++) {
            uint64_t bit = (uint64_t)1 << j;
            int r = j / sl->cols, c = j % sl->cols;
            sl->board1 |= bit;
            sl->open1 |= sl->pz->xcell[j] ? 0 : bit;
            sl->edge1[0] |= c + 1 < sl->cols ? bit : 0;
            sl->edge1[1] |= c > 0 ? bit : 0;
            sl->edge1[2] |= r + 1 < sl->rows ? bit : 0;
            sl->edge1[3] |= r > 0 ? bit : 0;
        }
    }
    return 0;
}

void slide_geometry_free(sb_slide *sl)
{
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
