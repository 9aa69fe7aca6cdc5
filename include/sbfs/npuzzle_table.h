/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
/* God's-algorithm tables of R x C sliding-tile puzzles: the distance of
 * every position from the goal 1 2 ... N then the blank, built by the
 * indexed engine (sbfs/table.h).
 *
 * Positions are arrays of R*C cells read row by row, tiles 1..N (N =
 * R*C-1) and 0 for the blank, as in sbfs/npuzzle.h.  Moves are written as
 * the direction the blank moves: u d l r.
 *
 * Numbering (docs/ALGORITHMS.md, "index"): a position is the pair (tile
 * order, blank cell), the tile order being the tiles read row by row with
 * the blank skipped.  Half of the positions can reach the goal, and for each
 * blank cell those have tile orders of one fixed parity, so
 *     index = (rank of the tile order among those of its parity) * cells
 *           + blank cell,
 * 0..(R*C)!/2 - 1.  The goal has index cells-1. */
#ifndef SBFS_NPUZZLE_TABLE_H
#define SBFS_NPUZZLE_TABLE_H

#include <stdint.h>

#include "sbfs/core.h"
#include "sbfs/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Boards up to 16 cells can be numbered (a 4 x 4 table would not fit in
 * memory, but its ranks do fit in 64 bits); each side at least 2. */
#define SB_NP_TABLE_MAXCELLS 16

typedef struct sb_np_table {
    int rows, cols, cells;
    uint64_t orders;       /* (cells-1)!/2: tile orders per blank cell */
    uint64_t size;         /* orders * cells: reachable positions */
    char params[16];       /* "RxC" */
    uint64_t fact[SB_NP_TABLE_MAXCELLS]; /* i!, the weights of the rank digits */
    sb_model model;        /* the engine's view; its ud points at this
                              struct, so an sb_np_table must not be copied */
    sb_table *table;       /* after sb_np_table_build or sb_np_table_load, else NULL */
    int have_table;
} sb_np_table;

/* Set up the numbering and the model for a rows x cols board (no table
 * yet).  SB_EUSAGE when t is NULL, a side is below 2 or the board has
 * more than SB_NP_TABLE_MAXCELLS cells.
 *
 * The functions below check that t was set up by sb_np_table_init and that
 * their pointers are not NULL; what each returns when not is said with
 * it. */
int sb_np_table_init(sb_np_table *t, int rows, int cols, sb_error *err);
/* Release the table, if any (t may be NULL). */
void sb_np_table_free(sb_np_table *t);

/* Build the table from the goal.  opts may be NULL (2 bits, one thread,
 * automatic scans).  Errors as sb_table_build, and SB_EUSAGE for a bad t. */
int sb_np_table_build(sb_np_table *t, const sb_table_opts *opts, sb_mem *mem, const sb_control *ctl,
                 sb_error *err);
/* Save / load the table (load refuses a table of another board size with
 * SB_EBADFILE).  SB_EUSAGE for a bad t, or (save) no table. */
int sb_np_table_save(const sb_np_table *t, const char *path, sb_error *err);
int sb_np_table_load(sb_np_table *t, const char *path, sb_mem *mem, sb_error *err);

/* What the table is, for callers that do not read the struct: its
 * board ("RxC"), positions numbered, the table (NULL before a build or
 * load), and the board as the indexed engine's model (for an engine of
 * the caller's, such as the MPI one) with the goal's index.  A zeroed info
 * for a bad t. */
typedef struct sb_np_table_info {
    int rows, cols;
    uint64_t size;
    const char *params;
    const sb_table *table;
    const sb_model *model;
    uint64_t goal;
} sb_np_table_info;
sb_np_table_info sb_np_table_about(const sb_np_table *t);

#ifdef __cplusplus
}
#endif

#endif
