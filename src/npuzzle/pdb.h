/* Pattern databases for R x C sliding-tile puzzles (Culberson and
 * Schaeffer; additive disjoint form after Korf and Felner, "Disjoint pattern
 * database heuristics", Artificial Intelligence 134, 2002).
 *
 * A pattern is a set of k tiles, named by their goal cells in the
 * blank-first frame (tile t belongs in cell t).  The table holds, for every
 * placement of the k tiles on the n cells, the least number of moves OF
 * PATTERN TILES needed to bring them home, the blank free to wander through
 * the other cells at no cost.  Because every real move moves one tile, the
 * values of patterns that share no tile add up to a lower bound.
 *
 * A placement is numbered by the lexicographic rank of the partial
 * permutation pos[0..k-1] (the cell of each pattern tile): 0 .. n!/(n-k)!-1,
 * the goal placement 0.  Values are bytes. */
#ifndef SBFS_PDB_H
#define SBFS_PDB_H

#include <stddef.h>
#include <stdint.h>

#include "sbfs/core.h"

#include "../core/tablefile.h"

#define SB_NP_PDB_MAXK 8
#define SB_NP_PDB_VERSION 3
#define SB_NP_PDB_MAXTHREADS 16

typedef struct sb_np_pdb {
    int rows, cols, n, k;
    uint8_t tiles[SB_NP_PDB_MAXK]; /* goal cells of the pattern tiles */
    uint64_t size;              /* n!/(n-k)! entries */
    uint64_t mult[SB_NP_PDB_MAXK]; /* place values of the rank digits */
    uint8_t *dist;              /* size bytes */
    uint64_t checksum;          /* of dist, as saved or built */
    sb_mem *mem;                /* the budget dist was taken from */
    sb_tf_map map;              /* when dist is a mapped file (sb_np_pdb_map) */
} sb_np_pdb;

/* Describe the pattern (no table yet): checks 2 <= rows, cols <= 5,
 * 1 <= k <= 8, tiles distinct goal cells 1..n-1.  SB_EUSAGE otherwise, and
 * for pdb or tiles NULL.  Every function below refuses a pdb that is NULL
 * or was not set up here: SB_EUSAGE, or the value its comment names. */
int sb_np_pdb_init(sb_np_pdb *pdb, int rows, int cols, const uint8_t *tiles, int k, sb_error *err);

/* Build the table by a breadth-first search from the goal placement over
 * (placement, blank region) pairs, cost 1 for a pattern tile's move and 0
 * for the blank's moves among the other cells.  Memory from mem: the
 * table (size bytes) plus three arrays of blank-cell sets during the build
 * (1, 2 or 4 bytes per placement by the number of free cells).
 * threads: how many threads scan each level (1..16; tables under 64K
 * entries use one).  ctl: progress (phase "pdb"), stop -> SB_EINTR. */
int sb_np_pdb_build(sb_np_pdb *pdb, sb_mem *mem, int threads, const sb_control *ctl, sb_error *err);

/* A file name for the pattern, e.g. "npuzzle-4x4-1.2.3-v3.pdb" (the
 * format version last, so that programs reading different versions can
 * share a cache folder), cut to fit n bytes.  0, or SB_EUSAGE (buf NULL or
 * n 0; a bad pdb, buf then ""). */
int sb_np_pdb_filename(const sb_np_pdb *pdb, char *buf, size_t n);

/* Save to path (written to path.PID.tmp, then renamed): the table file of
 * docs/FORMAT.md, kind "pdb", version SB_NP_PDB_VERSION.  SB_EIO when it
 * cannot be written; SB_EUSAGE: path NULL, no table. */
int sb_np_pdb_save(const sb_np_pdb *pdb, const char *path, sb_error *err);
/* Load the table pdb describes from path.  The header (magic, kind,
 * version, board, pattern, size) must match and both checksums agree:
 * otherwise SB_EBADFILE with the reason (a file of an older version says
 * which; the caller rebuilds); SB_EIO if it cannot be read; SB_EUSAGE for
 * path NULL. */
int sb_np_pdb_load(sb_np_pdb *pdb, const char *path, sb_mem *mem, const sb_control *ctl, sb_error *err);

/* Open the table pdb describes by mapping path read-only (tablefile.h):
 * the header is checked as by sb_np_pdb_load, the length from the file's
 * size, and the data's checksum as check says: SB_TF_VERIFY always,
 * SB_TF_TRUSTED only when the marker beside the file does not vouch for
 * it (a full check that passes writes the marker, see tablefile.h).  The table then
 * takes no memory from a budget: its pages are the page cache's, shared by
 * every process that maps the file.  Errors as sb_np_pdb_load. */
int sb_np_pdb_map(sb_np_pdb *pdb, const char *path, int check, sb_error *err);

/* Check the pattern database file at path in full, whatever pattern it
 * holds (read from its header): 0 and a fresh marker when it is sound,
 * else nonzero with the reason in why (n bytes). */
int sb_np_pdb_verify_file(const char *path, char *why, size_t n);

/* 1 when path starts with the header pdb expects (data not read); 0 when
 * not, or for a bad pdb or path NULL. */
int sb_np_pdb_probe(const sb_np_pdb *pdb, const char *path);

/* Release the table (pdb may be NULL). */
void sb_np_pdb_free(sb_np_pdb *pdb);

/* The checksum the files carry (64-bit, over a byte buffer, see
 * docs/FORMAT.md; 0 when p is NULL). */
uint64_t sb_np_pdb_checksum(const uint8_t *p, uint64_t n);

/* Rank of a placement (pos[i] = cell of pattern tile i).  Digit i is the
 * number of free cells below pos[i] once tiles 0..i-1 are placed.
 * Unchecked: IDA* calls it on every move, with placements it made itself;
 * pos[i] must be distinct cells below pdb->n.  sb_np_pdb_rank is the checked
 * entry for placements from elsewhere. */
static inline uint64_t sb_np_pdb_index(const sb_np_pdb *pdb, const uint8_t *pos)
{
    uint32_t used = 0;
    uint64_t r = 0;
    for (int i = 0; i < pdb->k; i++) {
        uint32_t below = (1u << pos[i]) - 1;
        r += (uint64_t)(pos[i] - __builtin_popcount(used & below)) * pdb->mult[i];
        used |= 1u << pos[i];
    }
    return r;
}
/* sb_np_pdb_index after checking pdb and pos: UINT64_MAX for a bad pdb, pos
 * NULL, a cell past n-1 or a cell twice. */
uint64_t sb_np_pdb_rank(const sb_np_pdb *pdb, const uint8_t *pos);
/* The inverse of sb_np_pdb_index: 0, or SB_EUSAGE (a bad pdb, pos NULL,
 * r >= pdb->size; pos is then not written). */
int sb_np_pdb_unrank(const sb_np_pdb *pdb, uint64_t r, uint8_t *pos);

#endif
