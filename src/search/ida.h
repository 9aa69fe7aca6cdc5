/* IDA*: iterative-deepening A* (Korf 1985), for spaces too large for a
 * table.  The engine knows nothing of the puzzle: a model keeps the current
 * state itself, lists moves, makes and unmakes them and keeps its heuristic
 * up to date as it goes (incrementally, if it can).  Every move costs 1.
 *
 * Each iteration is a depth-first search that cuts a path as soon as
 * g + h exceeds the bound; the next bound is the least g + h that was cut.
 * With an admissible h the first solution found is a shortest one. */
#ifndef SBFS_IDA_H
#define SBFS_IDA_H

#include <stddef.h>
#include <stdint.h>

#include "sbfs/core.h"

#define SB_IDA_MAXMOVES 32

typedef struct sb_ida_model {
    /* Moves applicable in the current state, written to out[] (at most
     * SB_IDA_MAXMOVES); `last` is the move that led here (-1 at the root),
     * so the model can leave out the move that undoes it. */
    int (*moves)(void *m, int last, int *out);
    /* Make move mv and return the heuristic of the state it leads to. */
    int (*apply)(void *m, int mv);
    /* Unmake move mv (the last one made), restoring the heuristic too. */
    void (*undo)(void *m, int mv);
    /* Nonzero in a goal state; NULL means "the heuristic is 0". */
    int (*is_goal)(void *m, int h);
    /* The state the callbacks work on, passed back to them as m: the
     * model's own data, inside the model as sb_keymodel keeps it. */
    void *ud;
    /* Bytes of the state at ud, which must hold no pointer into itself:
     * a search on several threads gives each a copy (memcpy), taken while
     * the model is in its start state.  0: the state cannot be copied, and
     * the search runs on one thread whatever is asked. */
    size_t ud_size;
} sb_ida_model;

typedef struct sb_ida_stats {
    uint64_t generated;  /* states made by apply */
    uint64_t expanded;   /* states whose moves were listed */
    int iterations;      /* bounds tried */
    int bound;           /* the last bound (the solution length if found) */
} sb_ida_stats;

/* Search from the model's current state, whose heuristic is h0, for a path
 * of at most max_len moves.  On success returns 0, path[0..*len-1] = the
 * moves (path must hold max_len entries) and leaves the model in its start
 * state.  SB_ENOTFOUND when no path within max_len exists, SB_EINTR when
 * ctl's stop flag is raised (checked every few thousand states; progress
 * reported with phase "ida*", level = bound, done = generated).
 * SB_EUSAGE: model, one of its moves / apply / undo, path or len NULL,
 * max_len < 0, or moves returning a count outside 0..SB_IDA_MAXMOVES (the
 * search stops there, the model back in its start state). */
int sb_ida_search(const sb_ida_model *model, int h0, int max_len, int *path, int *len,
                  sb_ida_stats *st, const sb_control *ctl, sb_error *err);

/* sb_ida_search on `threads` threads (1..SB_IDA_MAXTHREADS; 1, or a model
 * with ud_size 0, is sb_ida_search itself).  Each iteration cuts the tree a
 * few moves below the root into subtrees, listed in the order a one-thread
 * search meets them, and the threads take them in that order.  The answer
 * is the one a single thread finds: the first solution in that order (a
 * subtree is given up only when one before it holds a solution), and the
 * statistics are those of the single thread too (counts of subtrees given
 * up are left out), so the path, its length and st are the same for any
 * number of threads.  ctl's progress is reported from the caller's thread
 * only, done counting the nodes of every thread. */
#define SB_IDA_MAXTHREADS 64
int sb_ida_search_mt(const sb_ida_model *model, int h0, int max_len, int threads, int *path,
                     int *len, sb_ida_stats *st, const sb_control *ctl, sb_error *err);

#endif
