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
#include "sbfs/npuzzle_table.h"
#include "sbfs/pdb.h"

#define SB_NP_MAXCELLS 25
#define SB_NP_MAXLEN 400 /* longest move string a solution may have */

enum { SB_NP_BLANK_LAST = 0, SB_NP_BLANK_FIRST = 1 };

typedef struct sb_npuzzle {
    int rows, cols, n;
    uint8_t cell[SB_NP_MAXCELLS]; /* tile in each cell, 0 = blank */
} sb_npuzzle;

/* The goal position of an R x C board.  Returns 0, or SB_EUSAGE (p NULL,
 * a side outside 2..5, an unknown goal; p, if any, is then zeroed). */
int sb_np_goal(sb_npuzzle *p, int rows, int cols, int goal);

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

/* Apply a move string (u d l r, the blank's direction); returns 0, or
 * SB_EINVALPOS at the first move that would leave the board; SB_EUSAGE
 * when p is not a position or moves is NULL. */
int sb_np_apply(sb_npuzzle *p, const char *moves, sb_error *err);
/* 1 when p is the goal position, 0 when not, SB_EUSAGE as sb_np_solvable. */
int sb_np_is_goal(const sb_npuzzle *p, int goal);

/* The heuristic set for one board size: the disjoint pattern databases
 * (each built or loaded by the caller through sb_pdb) and whether the
 * transposed lookups are used too.  Read-only during solves, so any number
 * of threads may share one. */
#define SB_NP_MAXPDB 8
typedef struct sb_np_heur {
    int rows, cols, n;
    int npdb;
    const sb_pdb *pdb[SB_NP_MAXPDB];
    int reflect; /* square boards: max(h(s), h(transpose(s))) */
} sb_np_heur;

/* Partitions of the tiles 1..n-1 (in the blank-first frame) into patterns.
 * name: "663", "78" or "555" (4 x 4 only) or "auto" (every size: consecutive tiles
 * in groups as large as keeps each table under about 2^24 entries).
 * Fills groups[g][0..size[g]-1] with goal cells and returns the group
 * count, or SB_EUSAGE for a name that does not fit the size, a side outside
 * 2..5 or a NULL pointer.  groups and size need room for SB_NP_MAXPDB. */
int sb_np_partition(int rows, int cols, const char *name, uint8_t groups[][SB_PDB_MAXK],
                    int *size, sb_error *err);

/* A heuristic set with the tables it owns: for each pattern of the
 * partition, the table is loaded from DIR (when dir is not NULL) or built,
 * and a freshly built table is saved there when it has at least
 * cache_min entries (small ones build faster than they load); threads
 * is passed to sb_pdb_build.  A file that
 * is damaged or describes another table is reported through note() and
 * rebuilt, never used.  note (may be NULL) gets one-line remarks meant for
 * the user: "building ...", "rebuilding damaged ...".  SB_EUSAGE: s or
 * partition NULL, a partition that does not fit the size.  close accepts
 * NULL; cached is 0 for NULL arguments. */
typedef struct sb_np_pdbset {
    sb_np_heur heur;
    sb_pdb pdb[SB_NP_MAXPDB];
    double build_seconds, load_seconds;
    uint64_t bytes;       /* table bytes held */
    int built, loaded;    /* tables built, tables loaded */
} sb_np_pdbset;

int sb_np_pdbset_open(sb_np_pdbset *s, int rows, int cols, const char *partition, const char *dir,
                      uint64_t cache_min, int threads, sb_mem *mem, const sb_control *ctl,
                      void (*note)(void *ud, const char *msg), void *ud, sb_error *err);
void sb_np_pdbset_close(sb_np_pdbset *s);
/* 1 when every table of the partition is in dir with a matching header
 * (the data is checked only when loaded). */
int sb_np_pdbset_cached(int rows, int cols, const char *partition, const char *dir);

typedef struct sb_np_result {
    int length;                      /* moves, -1 when unsolvable */
    char moves[SB_NP_MAXLEN + 1];    /* u d l r, NUL-terminated */
    uint64_t nodes;                  /* nodes generated */
    int iterations;                  /* IDA* thresholds tried */
} sb_np_result;

/* A shortest solution of p towards goal with IDA* over the heuristic h
 * (which must be of p's size).  Unsolvable positions return 0 with
 * length -1 without searching.  ctl may be NULL; SB_EINTR when stopped.
 * SB_EUSAGE: h, p or res NULL, p not a position, an unknown goal, or h
 * not for p's size (or holding a pattern database that is not). */
int sb_np_solve(const sb_np_heur *h, const sb_npuzzle *p, int goal, sb_np_result *res,
                const sb_control *ctl, sb_error *err);

/* A shortest solution read from a God's-algorithm table (sbfs/npuzzle_table.h,
 * built by the caller for p's size): the table's goal is blank-last, so a
 * blank-first instance is turned 180 degrees first.  nodes = 0.  The
 * table's descent is not known to be safe from several threads at once:
 * callers serialise it.  SB_EUSAGE: t, p or res NULL, p not a position, an
 * unknown goal, or no table of p's size in t. */
int sb_np_solve_table(const sb_npt *t, const sb_npuzzle *p, int goal, sb_np_result *res,
                      sb_error *err);

#endif
