/* Shared by the move generators of the slide model (moves.c: styles 0-2
 * and the common machinery, supermoves.c: styles 3-5, fastmoves.c: the
 * fast path of styles 0-2) and expand.c above them, which picks one for a
 * key; not a public header. */
#ifndef SBFS_SLIDE_MOVES_H
#define SBFS_SLIDE_MOVES_H

#include <string.h>

#include "sbfs/slide.h"
#include "slide_internal.h"

#define MAXC SB_SLIDE_MAXCELLS
#define MAXW SB_SLIDE_MAXW

static const int DR[4] = {0, 0, 1, -1}, DC[4] = {1, -1, 0, 0}; /* right, left, down, up */

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

/* moves.c: the cells of the blocks S[0..n); the moves of the set S,
 * legal (at least) one step in direction d, per the style's mode (0 one
 * step, 1 straight on, 2 any path). */
void slide_cells_of(const gen *g, const short *S, int n, uint64_t *cur);
void slide_move_set(gen *g, const short *S, int n, const uint64_t *cur, int d, int mode);
/* moves.c: the configuration of a key decoded into ds; whether the set S
 * (cells cur) may be shifted by (dr, dc); every single-block move of the
 * decoded configuration g->ds (styles 0-2) in mode 0, 1 or 2. */
void slide_decode(const sb_slide *sl, const uint64_t *key, dstate *ds);
int slide_legal(const gen *g, const short *S, int n, const uint64_t *cur, int dr, int dc);
void slide_single_moves(gen *g, int mode);

/* supermoves.c: every move of a set of blocks (styles 3-5) from the
 * decoded configuration g->ds, in mode 0, 1 or 2. */
void slide_supermoves(gen *g, int mode);

/* fastmoves.c: styles 0-2 on boards of up to 64 cells and keys of up to
 * two words (sl->fast), and style 0 with hints. */
void slide_fast_moves(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx);
void slide_fast_hinted(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx);

#endif
