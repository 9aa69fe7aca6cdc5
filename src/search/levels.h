/* The sorted-level engine (private to src/search; callers use
 * sbfs/search.h): breadth-first search that keeps each distance as one
 * sorted array of keys.
 *
 * Like the hashed engine (bfs.h) it takes an sb_keymodel and
 * knows nothing of the puzzle.  Level d+1 is made from level d by listing
 * every neighbour, sorting the list (radix sort), dropping repeats and
 * dropping what is in level d or d-1: since every move can be undone, a
 * neighbour of level d lies at distance d-1, d or d+1, so those two levels
 * are all the duplicate detection needs.  A state costs its key and nothing
 * else (8 bytes for keys of one word); all memory traffic is sequential;
 * the result does not depend on the number of threads.  A model may keep
 * hints in its keys (sb_keymodel.hint_bits): the engine ignores them
 * in comparisons and strips them from every key it hands out.
 *
 * It searches one way (from the start until a goal, or the whole
 * component) or both ways (start and one goal configuration, expanding the
 * smaller frontier, meeting in the middle).  Under a memory budget it drops
 * old levels, keeping a few as checkpoints, and rebuilds the path by
 * searching again from a checkpoint; it fails cleanly (SB_ENOMEM) only
 * when the two newest levels do not fit. */
#ifndef SBFS_LEVELS_PRIV_H
#define SBFS_LEVELS_PRIV_H

#include <stdint.h>

#include "sbfs/core.h"
#include "sbfs/search.h"

/* One distance of one side.  keys == NULL once the level was dropped; n
 * stays, since the counts are part of the result. */
typedef struct sb_level {
    uint64_t *keys; /* n keys, ascending, kw words each */
    uint64_t n;
    int checkpoint; /* kept with the level before it when others are dropped */
} sb_level;

/* The levels reached from one end.  lev[i] is distance base + i. */
typedef struct sb_side {
    sb_level *lev;
    int nlev, cap;
    int base;
} sb_side;

enum {
    SB_LEVELS_BIDIR = 1,  /* search from both ends when the goal is one key */
    SB_LEVELS_CENSUS = 2, /* no path wanted: keep only the two newest levels */
};

typedef struct sb_levels {
    sb_keymodel model;
    int kw;
    uint64_t idm;       /* the state's bits of a one-word key: all but the hints */
    int threads;        /* worker threads, >= 1 */
    sb_side side[2];    /* [0] from the start, [1] from the goal (both ways) */
    int bidir;          /* 1 when the last run searched both ways */
    int found;          /* 1 when a goal was reached */
    int length;         /* its distance from the start */
    int meet_level[2];  /* distance of meet from the start and from the goal */
    uint64_t *meet;     /* the goal reached, or where the two sides met */
    int complete;       /* 1 when a whole component was walked */
    int exhausted;      /* then: the side (0 start, 1 goal) whose component it was */
    int dropped;        /* levels dropped to stay in the budget */
    int keep;           /* set by the caller: never drop a level for the budget but stop
                           (SB_ENOMEM), every level made still there to be carried to disk
                           (a census still forgets all but its two newest) */
    uint64_t generated; /* neighbours listed */
    uint64_t bucketed;  /* levels made in buckets (see levels.c); the others from runs */
    sb_mem *mem;
    void *priv;         /* the engine's own state (threads, lock) */
} sb_levels;

/* 0 when the engines of sorted levels (in memory and on disk) can take m:
 * expand set, 1..SB_SEARCH_MAXKW words, hints only in one-word keys and
 * below 64 bits; else SB_EUSAGE with err naming `who`. */
int sb_levels_model_ok(const sb_keymodel *m, const char *who, sb_error *err);

/* An engine for model m; threads 0 means one per online processor.  All
 * large memory is charged to mem.  SB_EUSAGE: s, m or m->expand NULL, keys
 * wider than SB_SEARCH_MAXKW, hints that do not fit.  Every function below
 * refuses a NULL s or one init did not set up (SB_EUSAGE, or 0 / NULL for
 * the counts), and free accepts NULL. */
int sb_levels_init(sb_levels *s, const sb_keymodel *m, int threads, sb_mem *mem,
                   sb_error *err);
void sb_levels_free(sb_levels *s);

/* Search from start.  The goal is m->is_goal when the model has one, else
 * the key goal, else nothing (the whole component is walked).  flags:
 * SB_LEVELS_BIDIR searches both ways when the goal is the key `goal`;
 * SB_LEVELS_CENSUS keeps no more levels than the search needs (no path
 * can be asked for).  The level where a goal is found is always completed,
 * so every count is exact.  Returns 0 (s->found says whether a goal was
 * reached), SB_EINTR when ctl asked to stop, SB_ENOMEM when even two
 * levels do not fit the budget (the counts so far stay valid), or another
 * SB_E* code (SB_EUSAGE: start NULL). */
int sb_levels_run(sb_levels *s, const uint64_t *start, const uint64_t *goal, unsigned flags,
                  sb_control *ctl, sb_error *err);

/* How levels of one-word keys are made, for tests: buckets of about
 * bucket_keys keys (0: the default, 65536), or, with runs_only, sorted runs
 * merged, the way of wider keys and short budgets.  The levels are the same
 * either way. */
void sb_levels_tune(sb_levels *s, uint64_t bucket_keys, int runs_only);

/* Levels of a side (0 forward, 1 backward) and the states at distance d
 * from its end (0 past the last). */
int sb_levels_count(const sb_levels *s, int side);
uint64_t sb_levels_size(const sb_levels *s, int side, int d);
/* States stored on both sides in all (repeats across sides counted twice). */
uint64_t sb_levels_total(const sb_levels *s);
/* The states of the newest level of side 0, n of them (NULL if dropped;
 * NULL with *n = 0 for s NULL, and NULL when n is NULL). */
const uint64_t *sb_levels_last(const sb_levels *s, uint64_t *n);

/* Free the keys of level d of side (its count stays), for a caller that
 * has carried them elsewhere after a run. */
void sb_levels_release(sb_levels *s, int side, int d);

/* A shortest path after a run that found a goal: keys[0 .. (length+1)*kw)
 * from the start to the goal.  Of the neighbours one level nearer the
 * start it always takes the smallest key, so the path does not depend on
 * threads or on the budget.  Levels dropped for the budget are searched
 * again from the nearest checkpoint.  Not after SB_LEVELS_CENSUS.
 * SB_EUSAGE: keys NULL, no goal reached. */
int sb_levels_path(sb_levels *s, uint64_t *keys, sb_control *ctl, sb_error *err);

#endif
