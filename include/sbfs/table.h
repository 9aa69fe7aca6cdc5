/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
/* The indexed engine: breadth-first distance tables over a space whose
 * positions are numbered 0..size-1 (God's-algorithm tables, pruning tables).
 *
 * A puzzle is described by an sb_model: how many indices there are and how
 * to get from an index to its successors.  The engine knows nothing else
 * about the puzzle.  For a pruning table the indices are abstract states
 * (many positions to one index); the engine does not care.
 *
 * Distances are stored packed, a few bits per index:
 *  - bits = 2: the distance mod 3, with 3 meaning "not reached".  A
 *    reached index's exact distance is found by
 *    walking down through its neighbours (sb_table_distance), since a
 *    neighbour of a position at distance d is at d-1, d or d+1 and those are
 *    three different values mod 3.  Needs a symmetric model.
 *  - bits = 4 or 8: the distance itself (up to 14 or 254), all ones meaning
 *    "not reached".
 *
 * Every table here is deterministic: the same model and starts give the
 * same bytes whatever the number of threads. */
#ifndef SBFS_TABLE_H
#define SBFS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "sbfs/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "No successor" (a move that does not apply), or "no index". */
#define SB_NO_INDEX UINT64_MAX
/* Most moves per index and coordinates per model. */
#define SB_MAX_MOVES 64
#define SB_MAX_COORDS 8
/* Bytes of per-thread scratch a model may ask for. */
#define SB_MAX_SCRATCH 1024
/* Most indices a model may have (2^56: 16 PiB at 2 bits an index). */
#define SB_TABLE_MAXSIZE (UINT64_C(1) << 56)
/* Largest distance a table can hold (histogram length - 1). */
#define SB_TABLE_MAXDIST 1023

/* One coordinate with its transition table: values 0..size-1, and
 * move[v * nmoves + m] the value after move m from v. */
typedef struct sb_coord {
    uint32_t size;
    const uint32_t *move;
} sb_coord;

/* A puzzle as the engine sees it.  Successors come from `move` (one move at
 * a time), `succ` (all at once), or, when neither is set, the coordinate
 * tables.  A model may give both functions: forward levels then take all
 * successors from succ, while backward levels and walks, which stop at the
 * first neighbour that will do, use move (so it pays to number the cheapest
 * moves first).  Both must then agree.  Callbacks are
 * called from several threads at once with the same ud (ud must not be
 * written by them); each thread has its own scratch block of scratch_size
 * bytes (zeroed before first use, kept between calls: a model may cache the
 * last index it decoded there). */
typedef struct sb_model {
    const char *name;     /* puzzle name, kept in saved files ("npuzzle") */
    const char *params;   /* its parameters ("3x4"), or NULL */
    uint64_t size;        /* indices are 0..size-1 */
    int nmoves;           /* moves (successors) per index, <= SB_MAX_MOVES */
    int symmetric;        /* nonzero when q is a successor of p exactly when p
                             is one of q: allows backward scans and walking
                             down 2-bit tables */
    size_t scratch_size;  /* <= SB_MAX_SCRATCH */
    /* The index move m (0..nmoves-1) leads to from r, or SB_NO_INDEX. */
    uint64_t (*move)(void *ud, void *scratch, uint64_t r, int m);
    /* All successors of r into out[0..nmoves-1]; returns how many. */
    int (*succ)(void *ud, void *scratch, uint64_t r, uint64_t *out);
    /* Or: index = mixed-radix number of ncoords coordinates, coords[0] most
     * significant, each move acting on every coordinate by its table. */
    int ncoords;
    const sb_coord *coords;
    void *ud;
} sb_model;

/* How each level is computed.  FORWARD expands the positions at distance d
 * (the frontier); BACKWARD looks at every position not yet reached and asks
 * whether some neighbour is at distance d (symmetric models only).  AUTO
 * picks per level: forward while the frontier is small compared with what
 * is left, backward after. */
enum { SB_SCAN_AUTO = 0, SB_SCAN_FORWARD = 1, SB_SCAN_BACKWARD = 2 };

typedef struct sb_table_opts {
    int bits;      /* 2, 4 or 8; 0 means 2 */
    int threads;   /* worker threads (at most 64); 0 or 1: the calling
                      thread only */
    int scan;      /* SB_SCAN_* */
    int max_depth; /* stop after this distance; < 0: no limit */
} sb_table_opts;

/* A distance table: an opaque handle, made by sb_table_build or
 * sb_table_load, read through the functions below, released by
 * sb_table_free. */
typedef struct sb_table sb_table;

/* What a table holds (sb_table_about). */
typedef struct sb_table_info {
    uint64_t size;     /* indices covered */
    int bits;          /* bits per index: 2, 4 or 8 */
    size_t data_bytes; /* bytes of packed codes */
    int levels;        /* distances reached: 0..levels-1; 0 when empty */
    uint64_t reached;  /* indices reached (the sum of the level counts) */
    int complete;      /* 1 when the search ran out of new positions */
    const char *name;  /* the model's name and params at build time ("" for t NULL) */
    const char *params;
    int slices;         /* built on disk (sb_table_build_disk): in this many
                           slices; 0 when built in memory or loaded */
    uint64_t disk_peak; /* built on disk: bytes of files held at most */
} sb_table_info;

/* Bytes sb_table_build will take from the budget at most for a model of
 * `size` indices (the table itself plus a frontier bitmap when it fits).
 * 0 for bits other than 0, 2, 4, 8 or size past SB_TABLE_MAXSIZE. */
size_t sb_table_bytes(uint64_t size, int bits);

/* A new table in *t holding the distance of every index from the start
 * indices.  On success returns 0.  Errors: SB_EUSAGE (t or m NULL, bad model or
 * options, starts NULL or a start past the model, a distance too large
 * for the chosen bits), SB_ENOMEM (budget), SB_EINTR (stopped:
 * the levels finished so far are valid).  Whatever it returns, *t may
 * hold a table (NULL when none was made): call sb_table_free(*t).
 * Progress goes to ctl (phase "table (forward)" or "table (backward)",
 * level = the distance being filled, done = indices reached so far). */
int sb_table_build(sb_table **t, const sb_model *m, const uint64_t *starts, size_t nstarts,
                   const sb_table_opts *opts, sb_mem *mem, const sb_control *ctl,
                   sb_error *err);
/* Where a table too large for the budget is built (sb_table_build_disk). */
typedef struct sb_table_disk {
    const char *dir; /* a private folder for the files is made in it; NULL:
                        $TMPDIR, or /tmp when that is not set */
    uint64_t limit;  /* most bytes of files at any time; 0: no limit but the
                        free space */
    int slice_log2;  /* 0: on disk only when the codes do not fit the budget,
                        in slices the budget chooses; 6..31: on disk
                        whatever the budget, in slices of 2^slice_log2
                        indices (for tests and measurements) */
    const char *checkpoint; /* NULL, or a folder (made if missing) that holds
                        the files instead, and keeps them when the build
                        stops (SB_EINTR, an error, a kill, a power loss) so
                        that it can be taken up: always on disk */
    int resume;      /* with checkpoint: take up the build stopped there
                        (same model; the slicing is the recorded one) */
} sb_table_disk;

/* As sb_table_build, but when the packed codes do not fit what is left of
 * mem's budget (and disk is not NULL) the table is built on disk: its
 * codes in a file, cut into slices of a power of two indices, each level
 * made slice by slice with the neighbours that fall in other slices
 * passed on through files (docs/ALGORITHMS.md, "God tables on disk").
 * Memory stays within the budget; the result is the same table, byte for
 * byte, as in memory, whatever the budget and the number of threads.
 * Such a table is 2 bits an index and built by forward levels only (the
 * scan option is not used).  At the end the file is mapped read-only and
 * removed (with its folder, but a checkpoint's): the table is then read,
 * saved and freed like any other, its pages in the page cache rather than
 * in the budget.
 * Progress goes to ctl with phase "table (on disk)" and disk_used.
 * Errors as sb_table_build, and: SB_EIO (the folder cannot be made, a file
 * cannot be written or read: the message names it), SB_ENOMEM (disk->limit
 * or the free space is passed, or the budget is too small even for
 * slices, or bits other than 2 do not fit).  Every file is removed,
 * whatever it returns, but a checkpoint's after it began; on SB_EINTR *t
 * holds the levels finished.  A checkpoint takes twice the codes' space
 * (a pass writes each slice to the other copy) and keeps the files a pass
 * reads until the pass ends.  With checkpoint: SB_EUSAGE when the folder
 * holds a stopped build and resume is 0; with resume, SB_EBADFILE when it
 * holds none, or one of another model or size, or a damaged one (the
 * message says which); the table is the one a build never stopped makes. */
int sb_table_build_disk(sb_table **t, const sb_model *m, const uint64_t *starts, size_t nstarts,
                        const sb_table_opts *opts, const sb_table_disk *disk, sb_mem *mem,
                        const sb_control *ctl, sb_error *err);
/* Release t and its memory (t may be NULL). */
void sb_table_free(sb_table *t);
/* Its size, bits, levels and counts; all zero for t NULL. */
sb_table_info sb_table_about(const sb_table *t);
/* Indices at distance d (0 past the last level or for t NULL). */
uint64_t sb_table_count(const sb_table *t, int d);

/* The reading functions below refuse a t that is NULL or whose bits and
 * data do not agree, and a model that sb_table_build would refuse or of
 * another size than t: SB_EUSAGE.  An index past the table reads as not
 * reached. */

/* The stored code of index r: the distance (bits 4, 8) or the distance mod 3
 * (bits 2); (1 << bits) - 1 when r was not reached. */
int sb_table_code(const sb_table *t, uint64_t r);

/* The distance of r, -1 when r was not reached.  With 2 bits it walks down
 * to distance 0 through m's successors (m must be symmetric and be the model
 * the table was built with). */
int sb_table_distance(const sb_table *t, const sb_model *m, uint64_t r);

/* One step toward the start set: a successor of r one closer, in *next (and
 * the move that leads there in *move, if move is not NULL).  Returns 1 when
 * a step was found, 0 when r is at distance 0, -1 when r was not reached.
 * Needs a symmetric model.  SB_EUSAGE also when next is NULL. */
int sb_table_step(const sb_table *t, const sb_model *m, uint64_t r, uint64_t *next, int *move);

/* Write t to path: the table file of docs/FORMAT.md, kind "distance",
 * version 2: a header (puzzle name and params, size, bits, histogram) with
 * its checksum, then the packed codes and theirs.  Written beside path and
 * renamed into place.  SB_EIO when it cannot be written; SB_EUSAGE: t
 * without a table, path NULL. */
int sb_table_save(const sb_table *t, const char *path, sb_error *err);

/* Read a table saved for model m into a new table *t (NULL on failure).  A file that is not a table, is of
 * another format version (the message names it), is damaged (checksum), or
 * was built for another puzzle, other params or another size is refused
 * with SB_EBADFILE; SB_EIO when it cannot be read;
 * SB_EUSAGE for t or path NULL or a model sb_table_build would refuse. */
int sb_table_load(sb_table **t, const sb_model *m, const char *path, sb_mem *mem,
                  sb_error *err);

#ifdef __cplusplus
}
#endif

#endif
