/* Shared between the n-puzzle sources; not a public header. */
#ifndef SBFS_NP_INTERNAL_H
#define SBFS_NP_INTERNAL_H

#include "sbfs/npuzzle.h"
#include "sbfs/npuzzle_table.h"
#include "pdb.h"

/* 0 when p is a position of an R x C board (2 <= R, C <= 5, n = R*C, the
 * cells a permutation of 0..n-1), else SB_EUSAGE with err (may be NULL)
 * saying what is wrong; `what` names the function for the message. */
/* The one move enum of the n-puzzle: the direction the blank moves, in
 * this order, so that the inverse of m is m ^ 1 and a board turned 180
 * degrees sees move m as m ^ 1.  np_letter[m] is its letter. */
enum { NP_U, NP_D, NP_L, NP_R };
extern const char np_letter[4];
/* The move of a letter (u d l r), or -1. */
int np_move_of(int letter);

/* The one frame conversion: the board turned 180 degrees and each tile t
 * renamed n - t (the blank stays 0), which maps the blank-last goal onto
 * the blank-first one and back (it is its own inverse).  Lengths are kept
 * and move m becomes m ^ 1.  out may not be in. */
void np_turn(const uint8_t *in, uint8_t *out, int n);

int np_check_position(const sb_npuzzle *p, const char *what, sb_error *err);

/* The goal position of an R x C board.  Returns 0, or SB_EUSAGE (p NULL,
 * a side outside 2..5, an unknown goal; p, if any, is then zeroed). */
int sb_np_goal(sb_npuzzle *p, int rows, int cols, int goal);

/* Apply a move string (u d l r, the blank's direction); returns 0, or
 * SB_EINVALPOS at the first move that would leave the board; SB_EUSAGE
 * when p is not a position or moves is NULL. */
int sb_np_apply(sb_npuzzle *p, const char *moves, sb_error *err);
/* 1 when p is the goal position, 0 when not, SB_EUSAGE as sb_np_solvable. */
int sb_np_is_goal(const sb_npuzzle *p, int goal);

/* The heuristic set for one board size: the disjoint pattern databases
 * (each built or loaded by the caller through sb_np_pdb) and whether the
 * transposed lookups are used too.  Read-only during solves, so any number
 * of threads may share one. */
#define SB_NP_MAXPDB 8
typedef struct sb_np_heur {
    int rows, cols, n;
    int npdb;
    const sb_np_pdb *pdb[SB_NP_MAXPDB];
    int reflect; /* square boards: max(h(s), h(transpose(s))) */
} sb_np_heur;

/* Partitions of the tiles 1..n-1 (in the blank-first frame) into patterns.
 * name: "663", "78" or "555" (4 x 4 only), "6666" (5 x 5 only, Korf and
 * Felner's) or "auto" (every size: consecutive tiles
 * in groups as large as keeps each table under about 2^24 entries).
 * Fills groups[g][0..size[g]-1] with goal cells and returns the group
 * count, or SB_EUSAGE for a name that does not fit the size, a side outside
 * 2..5 or a NULL pointer.  groups and size need room for SB_NP_MAXPDB. */
int sb_np_partition(int rows, int cols, const char *name, uint8_t groups[][SB_NP_PDB_MAXK],
                    int *size, sb_error *err);

/* A heuristic set with the tables it owns: for each pattern of the
 * partition, the table is mapped from DIR (when dir is not NULL; its
 * checksum checked unless its marker vouches for it and verify is 0) or built,
 * and a freshly built table is saved there when it has at least
 * cache_min entries (small ones build faster than they load); threads
 * is passed to sb_np_pdb_build.  A file that
 * is damaged or describes another table is reported through note() and
 * rebuilt, never used.  note (may be NULL) gets one-line remarks meant for
 * the user: "building ...", "rebuilding damaged ...".  SB_EUSAGE: s or
 * partition NULL, a partition that does not fit the size.  close accepts
 * NULL; cached is 0 for NULL arguments. */
typedef struct sb_np_pdbset {
    sb_np_heur heur;
    sb_np_pdb pdb[SB_NP_MAXPDB];
    double build_seconds, load_seconds;
    uint64_t bytes;       /* table bytes held */
    int built, loaded;    /* tables built, tables loaded */
} sb_np_pdbset;

int sb_np_pdbset_open(sb_np_pdbset *s, int rows, int cols, const char *partition, const char *dir,
                      uint64_t cache_min, int threads, int verify, sb_mem *mem,
                      const sb_control *ctl, void (*note)(void *ud, const char *msg), void *ud,
                      sb_error *err);
void sb_np_pdbset_close(sb_np_pdbset *s);
/* 1 when every table of the partition is in dir with a matching header
 * (the data is checked only when loaded). */
int sb_np_pdbset_cached(int rows, int cols, const char *partition, const char *dir);

/* A shortest solution of p towards goal with IDA* over the heuristic h
 * (which must be of p's size), on `threads` threads (sb_ida_search_mt).  Unsolvable positions return 0 with
 * length -1 without searching.  ctl may be NULL; SB_EINTR when stopped.
 * SB_EUSAGE: h, p or res NULL, p not a position, an unknown goal, or h
 * not for p's size (or holding a pattern database that is not). */
int np_solve_heur(const sb_np_heur *h, const sb_npuzzle *p, int goal, int threads,
                  sb_np_result *res, const sb_control *ctl, sb_error *err);

/* A shortest solution read from a God's-algorithm table (sbfs/npuzzle_table.h,
 * built by the caller for p's size): the table's goal is blank-last, so a
 * blank-first instance is turned 180 degrees first.  nodes = 0.  The
 * table's descent is not known to be safe from several threads at once:
 * callers serialise it.  SB_EUSAGE: t, p or res NULL, p not a position, an
 * unknown goal, or no table of p's size in t. */
int np_solve_table(const sb_np_table *t, const sb_npuzzle *p, int goal, sb_np_result *res,
                      sb_error *err);

/* The God's-table numbering and walk (see sbfs/npuzzle_table.h). */
/* Index of a position, or SB_NO_INDEX when cell[] is not a permutation of
 * 0..N or cannot reach the goal (or t or cell is NULL). */
uint64_t sb_np_table_rank(const sb_np_table *t, const uint8_t *cell);
/* The position with index r < t->size.  0, or SB_EUSAGE (r out of range,
 * a NULL pointer; cell is then not written). */
int sb_np_table_unrank(const sb_np_table *t, uint64_t r, uint8_t *cell);
/* Index of the goal (1..N then the blank); SB_NO_INDEX for a bad t. */
uint64_t sb_np_table_goal(const sb_np_table *t);
/* The positions one move from index r: out[i] reached by moving the blank
 * dir[i] ('u', 'd', 'l' or 'r'); returns how many (2 to 4), or SB_EUSAGE
 * when r >= t->size or a pointer is NULL. */
int sb_np_table_neighbours(const sb_np_table *t, uint64_t r, uint64_t out[4], char dir[4]);

/* Distance of a position from the goal: -1 when it cannot reach the goal
 * (or is not a position, or there is no table); SB_EUSAGE for a bad t or
 * cell NULL. */
int sb_np_table_distance(const sb_np_table *t, const uint8_t *cell);
/* A shortest move string from the position to the goal, written to
 * moves[] (u d l r, NUL-terminated, room for max+1 bytes).  Returns its
 * length, -1 when the goal cannot be reached, SB_EUSAGE if it would be
 * longer than max.  Needs the table.  SB_EUSAGE also for a bad t, a NULL
 * pointer or max < 0 (moves is then not written). */
int sb_np_table_descend(const sb_np_table *t, const uint8_t *cell, char *moves, int max);


#endif
