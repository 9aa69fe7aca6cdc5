/* Shared between the sliding-block sources; not a public header. */
#ifndef SBFS_SLIDE_INTERNAL_H
#define SBFS_SLIDE_INTERNAL_H

#include "sbfs/slide.h"

/* 1 when sl is a model sb_slide_init made (and sb_slide_free has not
 * undone): the tables every move and key function reads are there.  A few
 * loads, cheap enough for the per-state entry points. */
static inline int sl_ready(const sb_slide *sl)
{
    return sl && sl->pz && sl->shape && sl->key_words >= 1 && sl->key_words <= SB_SLIDE_MAXKW;
}

/* 1 when pz has the shape of a puzzle sb_slide_parse made: a board of at
 * most SB_SLIDE_MAXCELLS cells, rows * cols of them. */
static inline int pz_ready(const sb_slide_puzzle *pz)
{
    return pz && pz->rows >= 1 && pz->cols >= 1 && pz->ncells == pz->rows * pz->cols &&
           pz->ncells <= SB_SLIDE_MAXCELLS && pz->ngoals >= 0 && pz->ngoals <= SB_SLIDE_MAXGOALS;
}

/* geometry.c: the tables of sl's kinds on sl's board (shape, fits, step,
 * enter and the one-word masks), charged to sl->mem; SB_ENOMEM. */
int slide_geometry(sb_slide *sl, sb_error *err);
void slide_geometry_free(sb_slide *sl);

#endif
