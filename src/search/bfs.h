/* The hashed engine (private to src/search; callers use sbfs/search.h):
 * breadth-first search that stores every state once, in the order first
 * reached, in a key set (stateset.h).  Level d is a contiguous range of
 * indices; there are no parent pointers: a path is rebuilt backwards by
 * looking, for the state at distance d, for a neighbour whose index lies in
 * level d-1.  Every function refuses NULL pointers and an engine init did
 * not set up (SB_EUSAGE, or the value its comment names); free accepts
 * NULL. */
#ifndef SBFS_BFS_H
#define SBFS_BFS_H

#include "stateset.h"

typedef struct sb_bfs {
    sb_keymodel model;
    sb_stateset set;
    uint64_t *level;     /* level[d] = first index at distance d; level[nlevels] = set.n */
    int nlevels;         /* levels holding at least one state */
    int levcap;
    int complete;        /* 1 when the last level was expanded to the end */
    int64_t goal;        /* index of the goal state found, or -1 */
    int goal_level;      /* its distance, or -1 */
    uint64_t expanded;   /* states whose neighbours were generated */
    uint64_t generated;  /* neighbours listed */
    /* Called for each new state (index, index of the state it was reached
     * from) when set; used by SLIDING's verbose listing. */
    void (*on_new)(void *ud, uint64_t index, uint64_t from);
    void *on_new_ud;
    sb_mem *mem;
} sb_bfs;

/* SB_EUSAGE: b, m or m->expand NULL, hints, a key width out of range. */
int sb_bfs_init(sb_bfs *b, const sb_keymodel *m, sb_mem *mem, sb_error *err);
void sb_bfs_free(sb_bfs *b);
/* Search from start until the goal (is_goal, or equality with goal when
 * is_goal is NULL and goal is not NULL) is reached or the space is
 * exhausted.  stop_at_goal = 1 stops the moment the goal is added (as
 * SLIDING does); 0 finishes the goal's level so that every level count is
 * exact.  Returns 0 (b->goal says whether a goal was found), SB_EINTR when
 * ctl asked to stop (levels so far stay valid), or another SB_E* code
 * (SB_EUSAGE: start NULL, b not set up). */
int sb_bfs_run(sb_bfs *b, const uint64_t *start, const uint64_t *goal, int stop_at_goal,
               sb_control *ctl, sb_error *err);
/* States first reached at distance d (0 past the last level). */
uint64_t sb_bfs_level_size(const sb_bfs *b, int d);
/* The distance of state index i; SB_EUSAGE when i was not reached. */
int sb_bfs_level_of(const sb_bfs *b, uint64_t i);
/* A shortest path from the start to state index target at distance D:
 * fills path[0..D] with indices (path[0] = 0, the start; path[D] =
 * target).  Among the neighbours at distance d-1 it takes the one reached
 * first, as a parent pointer set on first discovery would.  SB_EUSAGE:
 * path NULL, target not reached. */
int sb_bfs_path(const sb_bfs *b, uint64_t target, uint64_t *path, sb_error *err);

#endif
