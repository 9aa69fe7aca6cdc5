/* The text forms of the slide model: a board drawn as SLIDING draws it,
 * a configuration in SLIDING's shorthand, a stop line drawn with its free
 * cells.  They work on anchors (kind per cell), not on keys. */
#include <string.h>

#include "slide_internal.h"

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

int sb_slide_goal_text(const sb_slide_puzzle *pz, int g, char *buf)
{
    const sb_slide_goal *gl;
    if (!pz_ready(pz) || g < 0 || g >= pz->ngoals || !buf)
        return SB_EUSAGE;
    gl = &pz->goal[g];
    if (sb_slide_board_text(pz, gl->anchors, buf))
        return SB_EUSAGE;
    /* the name of cell (r, c) is character 2c + 1 of line 2r + 1, and a
     * line holds 2 * cols characters and its newline */
    for (int j = 0; j < pz->ncells; j++)
        if (gl->free[j] && !pz->xcell[j])
            buf[(size_t)(2 * (j / pz->cols) + 1) * (2 * pz->cols + 1) + 2 * (j % pz->cols) + 1] = '.';
    return 0;
}

int sb_slide_draw(const sb_slide *sl, const uint64_t *key, int form, char *buf)
{
    unsigned char anchors[SB_SLIDE_MAXCELLS];
    if (!sl_ready(sl) || !key || !buf || sb_slide_unpack(sl, key, anchors))
        return SB_EUSAGE;
    switch (form) {
    case SB_SLIDE_BOARD:
        return sb_slide_board_text(sl->pz, anchors, buf);
    case SB_SLIDE_SHORTHAND:
        return sb_slide_shorthand(sl->pz, anchors, buf);
    case SB_SLIDE_CELLS:
        return sb_slide_cells(sl->pz, anchors, buf);
    }
    return SB_EUSAGE;
}
