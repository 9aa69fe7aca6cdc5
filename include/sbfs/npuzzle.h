/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
/* R x C sliding-tile puzzles (2 <= R, C <= 5): the 8-puzzle, the 15-puzzle
 * and their rectangular kin.  A position lists the tile in each cell, row by
 * row; tiles are 1..n-1 and 0 is the blank (n = R*C).
 *
 * Two goals are known: SB_NP_BLANK_LAST (1 2 ... n-1 then the blank, the
 * ACM "Eight" goal and the default) and SB_NP_BLANK_FIRST (the blank then
 * 1 .. n-1, Korf's convention).  Internally every search runs towards the
 * blank-first goal: a blank-last instance is turned 180 degrees and its
 * tiles relabelled t -> n-t, a symmetry that keeps lengths and swaps the
 * move letters u<->d, l<->r.
 *
 * Moves are written as the direction the blank moves: u d l r.  In the ACM
 * problem's words this is "the neighbour of x that is swapped with x".
 *
 * Every function checks its arguments: a NULL pointer, a board side outside
 * 2..5, a goal other than the two below, or a position whose cells are not
 * each of 0..n-1 once gives SB_EUSAGE (with a message where the function
 * takes an sb_error). */
#ifndef SBFS_NPUZZLE_H
#define SBFS_NPUZZLE_H

#include <stddef.h>
#include <stdint.h>

#include "sbfs/core.h"
#include "sbfs/table.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SB_NP_MAXCELLS 25
#define SB_NP_MAXLEN 400 /* longest move string a solution may have */

enum { SB_NP_BLANK_LAST = 0, SB_NP_BLANK_FIRST = 1 };

typedef struct sb_npuzzle {
    int rows, cols, n;
    uint8_t cell[SB_NP_MAXCELLS]; /* tile in each cell, 0 = blank */
} sb_npuzzle;

/* One instance from one line of text: tiles separated by blanks, `0` or `x`
 * for the blank.  rows = cols = 0 infers a square board from the tile count
 * (4, 9, 16 or 25 tiles); otherwise the line must hold rows*cols tiles.
 * lineno is used in error messages (SB_EINPUT with line and column).
 * SB_EUSAGE: line or out NULL, a side outside 2..5 (other than 0 x 0). */
int sb_np_parse_line(const char *line, int lineno, int rows, int cols, sb_npuzzle *out,
                     sb_error *err);

/* The ACM "Eight" input: the nine tokens 1..8 and x over any number of
 * lines, any whitespace.  A missing, repeated or unknown tile, or anything
 * after the ninth, is SB_EINPUT naming the line and column.  SB_EUSAGE:
 * out NULL, or text NULL with len > 0. */
int sb_np_parse_eight(const char *text, size_t len, sb_npuzzle *out, sb_error *err);

/* 1 when the goal can be reached: the parity of the permutation of all n
 * cells (blank included) must equal the parity of the blank's taxicab
 * distance from its goal cell, since every move changes both.  0 when not;
 * SB_EUSAGE when p is not a position or goal is unknown. */
int sb_np_solvable(const sb_npuzzle *p, int goal);

typedef struct sb_np_result {
    int length;                      /* moves, -1 when unsolvable */
    char moves[SB_NP_MAXLEN + 1];    /* u d l r, NUL-terminated */
    uint64_t nodes;                  /* nodes generated */
    int iterations;                  /* IDA* thresholds tried */
} sb_np_result;

/* A solver for one board size: what it needs to answer, made once and
 * shared read-only by any number of threads.  Boards of at most 9 cells
 * get the whole God's-algorithm table (sbfs/npuzzle_table.h, built in
 * milliseconds); larger ones IDA* over additive pattern databases (Korf and
 * Felner), each table mapped from the cache folder when it is there (see
 * docs/ALGORITHMS.md for the integrity checks) or built and then saved.
 * A cached file that is damaged, cut, or of another table or version is
 * reported through note and rebuilt, never used. */
typedef struct sb_np_solver sb_np_solver;

typedef struct sb_np_solver_opts {
    const char *partition;  /* 4x4: "663", "78", "555"; 5x5: "6666";
                               every size "auto"; NULL: 4x4 "78" when
                               cached, else "663"; 5x5 "6666" when cached;
                               "auto" elsewhere */
    const char *cache_dir;  /* NULL: no file read or written */
    int threads;            /* for building tables; 0: every core */
    int verify;             /* 1: check every cached table whole, even
                               one its marker vouches for */
    void (*note)(void *ud, const char *msg); /* remarks for the user, or NULL */
    void *ud;
} sb_np_solver_opts;

typedef struct sb_np_solver_info {
    int god;                   /* 1: a God's table, 0: pattern databases */
    char partition[16];        /* the partition used ("" for a God's table) */
    int tables;                /* pattern databases */
    int built, loaded;         /* of them, built here / opened from the cache */
    uint64_t positions;        /* God's table: positions numbered */
    const sb_table *table;     /* God's table: its level counts (positions by
                                  distance), valid while the solver is open;
                                  NULL for pattern databases */
    uint64_t bytes;            /* table bytes, mapped ones included */
    double build_seconds, load_seconds;
} sb_np_solver_info;

/* Make the solver of rows x cols boards (opts may be NULL: defaults, no
 * cache).  info, when not NULL, says what was done.  NULL with err filled:
 * SB_EUSAGE (a side outside 2..5, a partition that does not fit the size),
 * SB_ENOMEM (mem's budget), SB_EINTR (ctl's stop flag while building). */
sb_np_solver *sb_np_solver_open(int rows, int cols, const sb_np_solver_opts *opts, sb_mem *mem,
                                const sb_control *ctl, sb_np_solver_info *info, sb_error *err);
/* Release the solver and its tables (s may be NULL). */
void sb_np_solver_close(sb_np_solver *s);

/* A shortest solution of p towards goal.  Unsolvable positions return 0
 * with length -1 without searching.  threads: how many threads search this
 * one instance (parallel IDA*; the answer and the node count are the same
 * for any number).  ctl may be NULL; SB_EINTR when stopped.  SB_EUSAGE: s,
 * p or res NULL, p not a position, an unknown goal, a solver of another
 * size. */
int sb_np_solve(const sb_np_solver *s, const sb_npuzzle *p, int goal, int threads,
                sb_np_result *res, const sb_control *ctl, sb_error *err);

/* Many instances on a pool of threads.  Each job names its solver (NULL
 * for a position the caller knows to be unsolvable: answered length -1).
 * threads: in all (0: every core); when there are fewer jobs than threads
 * each search gets several.  done(ud, job) is called for every job in the
 * order of jobs[], one call at a time (from any of the threads), as soon as
 * that job and all before it are finished; a nonzero return stops the
 * batch.  ctl's progress is reported from the caller's thread and never
 * during a done call.  Returns 0 when every job was delivered, SB_EINTR
 * when ctl's stop flag or done ended the batch first, SB_EUSAGE for jobs
 * NULL or n < 0.  Each job's own outcome is in its rc and err. */
typedef struct sb_np_job {
    const sb_np_solver *solver;
    sb_npuzzle p;
    int tag;               /* the caller's (a line number, say) */
    sb_np_result res;
    double seconds;        /* wall time of its search */
    int rc;                /* sb_np_solve's return */
    sb_error err;
} sb_np_job;
int sb_np_solve_batch(sb_np_job *jobs, int n, int goal, int threads,
                      int (*done)(void *ud, sb_np_job *job), void *ud, const sb_control *ctl);

/* Check every pattern database file in dir in full (all its bytes against
 * its checksum), whatever its marker says.  A sound file gets a fresh
 * marker; a damaged one is removed (it is rebuilt when next needed).
 * note gets one line per file ("NAME: ok", "NAME: REASON; removed").
 * Returns the number of files checked and sets *bad to the number removed,
 * or SB_EIO when dir cannot be read. */
int sb_np_verify_cache(const char *dir, void (*note)(void *ud, const char *msg), void *ud,
                       int *bad, sb_error *err);

#ifdef __cplusplus
}
#endif

#endif
