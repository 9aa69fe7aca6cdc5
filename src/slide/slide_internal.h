/* Shared between the sliding-block sources (and the tests, which look
 * inside the model); not a public header.  The model itself, the
 * initialisation of one the caller places, and the layers under the public
 * calls: goals on keys, the key codec's entry points, the move generators
 * and the three drawings of sb_slide_draw on anchors. */
#ifndef SBFS_SLIDE_INTERNAL_H
#define SBFS_SLIDE_INTERNAL_H

#include "sbfs/slide.h"

struct sb_slide {
    const sb_slide_puzzle *pz;
    int style;               /* 0..5, see docs/ALGORITHMS.md */
    int rows, cols, ncells;
    int nw;                  /* words in a set of cells: ceil(ncells / 64) */
    int nk;                  /* kinds present in the configurations */
    int kval[16];            /* kind index -> name value */
    int kidx[16];            /* name value -> kind index, -1 if unused */
    int kbits;               /* bits per kind in a key: ceil(log2 nk) */
    int pbits;               /* > 0: the key is the slot form, pbits bits a block */
    int nblocks;
    int key_bits, key_words;
    uint64_t *shape;         /* [k][cell][nw]: cells of kind k anchored at cell */
    unsigned char *fits;     /* [k][cell]: 1 if kind k may be anchored there */
    short *step;             /* [dir][k][cell]: anchor one step on, -1 if it cannot be */
    uint64_t *enter;         /* [dir][k][cell][nw]: cells that step newly covers */
    int fast;                /* 1 when keys fit in 128 bits and boards in 64 cells;
                                tests clear it to force the general move generator */
    unsigned char rowof[SB_SLIDE_MAXCELLS], colof[SB_SLIDE_MAXCELLS];
    uint64_t start[SB_SLIDE_MAXKW], stop[SB_SLIDE_MAXKW];
    sb_mem *mem;
    /* Boards of up to 64 cells (the fast path of moves.c), bit c = cell c: */
    uint64_t board1;         /* the cells 0..ncells-1 */
    uint64_t open1;          /* the cells that are not x */
    uint64_t edge1[4];       /* cells with a neighbour on the board right, left, down, up */
    uint64_t *enter1;        /* [k][cell][dir]: enter's masks side by side, all ones
                                where step is -1 */
    int mono1;               /* 1 when every piece is one cell (the n-puzzles) */
    /* Hints (style 0, one-word keys; see sb_slide_model's SB_SLIDE_HINTS): */
    int hint_bits;           /* 4 * hint_ranks, 0 when there are none */
    int hint_ranks;          /* the first empty cells a hint can name */
};

/* Prepare the model of pz for moves of the given style (0..5).  pz must
 * outlive sl.  SB_EUSAGE: sl NULL, pz NULL or not parsed, a bad style.
 * sb_slide_fini accepts NULL. */
int sb_slide_init(sb_slide *sl, const sb_slide_puzzle *pz, int style, sb_mem *mem, sb_error *err);
void sb_slide_fini(sb_slide *sl);

/* 1 when the configuration key matches stop line g of sl->pz (0 <= g <
 * ngoals), resp. any of them; read-only, thread-safe.  0 when not;
 * SB_EUSAGE for a NULL pointer or g out of range. */
int sb_slide_goal_match(const sb_slide *sl, int g, const uint64_t *key);
int sb_slide_is_goal(const sb_slide *sl, const uint64_t *key);

/* The anchor of block (kind) k in a key of the slot form (sl->pbits > 0).
 * A field outside the board (only a corrupt key has one) reads as cell 0.
 * sl and k are unchecked: the move generator reads every block of every
 * key through it; k must be below sl->nk. */
static inline int sb_slide_field(const sb_slide *sl, uint64_t key0, int k)
{
    int a = (int)(key0 >> (k * sl->pbits) & (((uint64_t)1 << sl->pbits) - 1));
    return a < sl->ncells ? a : 0;
}

/* Canonical key of a configuration given as anchors (kind value per cell).
 * Configurations that differ only by swapping blocks of the same kind get
 * the same key.  key has sl->key_words words.  SB_EUSAGE (key not written)
 * for a NULL pointer, an anchor naming a kind the puzzle's configurations
 * do not hold, or another number of blocks than sl->nblocks. */
int sb_slide_pack(const sb_slide *sl, const unsigned char *anchors, uint64_t *key);

/* Call emit for every configuration one move (of sl->style) away from key.
 * Thread-safe: the model is only read.  SB_EUSAGE for a NULL pointer (a
 * few compares a call, next to the move generation). */
int sb_slide_expand(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx);
/* The same for a key that may carry hints (sb_slide_model with SB_SLIDE_HINTS): the
 * moves its hints name are left out, and every configuration emitted
 * carries the hint naming the move back.  Without hints in sl it is
 * sb_slide_expand. */
int sb_slide_expand_hinted(const sb_slide *sl, const uint64_t *key, sb_emit_fn emit, void *ctx);

/* Bytes sb_slide_board_text needs for pz (including the final NUL), and the
 * most it can need on any board: 2 lines of 2 * cols + 1 bytes per row.
 * sb_slide_board_size is 0 for a pz that is NULL or not parsed; the three
 * drawing functions return 0, or SB_EUSAGE (buf not written) for a NULL
 * pointer, such a pz, an anchor above 15 or g out of range. */
size_t sb_slide_board_size(const sb_slide_puzzle *pz);
/* The board drawn as SLIDING draws it: two lines per row, each two
 * characters per cell.  The first line of a pair shows `|` under a cell
 * joined to the cell above by one block; the second the names (`0` empty,
 * blank for x) with `-` joining a cell to its left neighbour in one block.
 * Lines end with '\n'. */
int sb_slide_board_text(const sb_slide_puzzle *pz, const unsigned char *anchors, char *buf);
/* The configuration in SLIDING's shorthand without the x cells and without
 * trailing zeros (how SLIDING lists configurations); buf holds
 * ncells + 1 bytes. */
int sb_slide_shorthand(const sb_slide_puzzle *pz, const unsigned char *anchors, char *buf);
/* The configuration as rows of one character per cell: the name of the
 * piece that covers it, 0 empty, x blocked; each row ends with '\n'.  buf
 * holds ncells + rows + 1 bytes (SB_SLIDE_CELLS_MAX on any board). */
int sb_slide_cells(const sb_slide_puzzle *pz, const unsigned char *anchors, char *buf);

/* 1 when sl is a model sb_slide_init made (and sb_slide_fini has not
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
