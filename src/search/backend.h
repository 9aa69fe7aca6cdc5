/* A key-search engine that lives outside the library (the MPI back-end in
 * mpi/, built only with `make MPI=1`), plugged into the one key-search API
 * (sbfs/search.h) through a table of functions.  Private: the library's
 * default build knows no such engine and needs none.
 *
 * The back-end owns its state `st`; sb_search_free calls free(st).  run
 * fills *info as the built-in engines do; level, last and path answer as
 * sb_search_level, sb_search_last and sb_search_path. */
#ifndef SBFS_SEARCH_BACKEND_H
#define SBFS_SEARCH_BACKEND_H

#include "sbfs/search.h"

typedef struct sb_search_backend {
    int (*run)(void *st, const uint64_t *start, const uint64_t *goal, unsigned flags, sb_control *ctl,
               sb_search_info *info, sb_error *err);
    uint64_t (*level)(const void *st, int side, int d);
    const uint64_t *(*last)(const void *st, uint64_t *n);
    int (*path)(void *st, uint64_t *keys, sb_control *ctl, sb_error *err);
    void (*free)(void *st);
} sb_search_backend;

/* A search of model m (copied) run by back-end be on state st (which the
 * handle then owns, even when this fails).  The model must be reversible;
 * SB_EUSAGE as for sb_search_new. */
int sb_search_new_backend(sb_search **s, const sb_keymodel *m, const sb_search_backend *be, void *st,
                          sb_error *err);

/* Which levels go when memory is short: the one rule of the sorted-level
 * engines, in one process (levels.c) and across processes (mpi/), so
 * that they drop the same levels.  A side's levels 0..nlev-1 (base: the
 * distance of level 0; its first `borrowed` belong to another side and
 * stay) are seen through the callbacks: held (its keys are in memory),
 * checkpoint (its flag, which the rule may set or clear: a checkpoint is
 * kept with the level before it) and drop.  In a census all held levels
 * but the two newest go; else those that are not checkpoints, the two
 * newest becoming a checkpoint pair, or when only checkpoints are left,
 * the oldest pair.  Returns the levels dropped. */
typedef struct sb_droprule {
    void *ctx;
    int nlev, base, borrowed, census;
    int (*held)(void *ctx, int i);
    int *(*checkpoint)(void *ctx, int i);
    void (*drop)(void *ctx, int i);
} sb_droprule;

int sb_levels_drop(const sb_droprule *r);

#endif
