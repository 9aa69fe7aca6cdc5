/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
/* The key search: breadth-first search over states that are fixed-width
 * keys, for spaces whose states have no dense numbering (sliding-block
 * puzzles).
 *
 * The engines do not know what puzzle they solve.  A model (sb_keymodel,
 * in the manner of Redis's dictType) tells them how wide a key is, how to
 * list the neighbours of a key and, optionally, which keys are goals.  One
 * opaque handle (sb_search) runs it on one of two engines:
 *   - SB_ENGINE_HASHED stores every state once, in the order first
 *     reached, in a hash table: SLIDING's own method, and its listing
 *     order (the observer in the options sees each state as it is found);
 *   - SB_ENGINE_LEVELS keeps each distance as one sorted array of keys
 *     (8-9 bytes a state, radix sort, repeats removed against the two
 *     levels before), on as many threads as asked, searches both ways,
 *     and under a memory budget drops old levels and rebuilds the path
 *     from checkpoints.  It needs moves that can be undone.
 * Both give the same lengths and level sizes (tests/test_random_slide.c
 * holds them to an independent oracle).
 *
 * Every function refuses NULL pointers (SB_EUSAGE with a message, or the
 * value its comment names); sb_search_free accepts NULL. */
#ifndef SBFS_SEARCH_H
#define SBFS_SEARCH_H

#include <stdint.h>

#include "sbfs/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Widest key, in 64-bit words, that the engines take. */
#define SB_SEARCH_MAXKW 32

typedef void (*sb_emit_fn)(void *ctx, const uint64_t *key);

/* A puzzle as the engines see it. */
typedef struct sb_keymodel {
    int key_words;  /* width of a key in 64-bit words, 1..SB_SEARCH_MAXKW */
    void *ud;       /* the model's own data, passed back to the callbacks */
    /* Call emit(ctx, k) once or more for every neighbour k of key (repeats
     * are harmless).  Returns 0 or an SB_E* code.  Called from several
     * threads at once by SB_ENGINE_LEVELS. */
    int (*expand)(void *ud, const uint64_t *key, sb_emit_fn emit, void *ctx);
    /* Nonzero when key is a goal.  NULL: the goal is the key given to
     * sb_search_run. */
    int (*is_goal)(void *ud, const uint64_t *key);
    /* Hints (SB_ENGINE_LEVELS only, one-word keys): the top hint_bits
     * bits of a key are not part of the state but notes the model leaves
     * for itself when it makes a neighbour, such as "this move leads back
     * to where I came from, do not list it".  The engine compares keys
     * without them, ORs together the hints of every copy of a state it
     * merges, and hands expand a key whose hints are the OR of those of
     * all the ways it was reached from the level before; a key it passes
     * with no hints (the start, the goal, a path being traced) must be
     * expanded in full.  Whatever the hints, expand must list every
     * neighbour not at a smaller distance.  Keys handed out carry none.
     * 0 for no hints. */
    int hint_bits;
    int reversible; /* 1 when every move can be undone (SB_ENGINE_LEVELS needs it) */
} sb_keymodel;

enum { SB_ENGINE_HASHED, SB_ENGINE_LEVELS };

/* Flags of sb_search_run. */
enum {
    SB_SEARCH_BIDIR = 1,  /* levels: search from both ends when the goal is one key */
    SB_SEARCH_CENSUS = 2, /* no goal, no path: the whole component, keeping only the
                             levels the search needs */
    SB_SEARCH_FIRST = 4,  /* hashed: stop the moment a goal is found, as SLIDING does
                             (its level's count is then partial); without it the goal's
                             level is completed, so that every count is exact */
};

typedef struct sb_search_opts {
    int threads; /* levels: worker threads, 0 for one per core */
    /* hashed: called for every new state, in the order found, with its
     * distance, its number (the order found, from 0) and the number of the
     * state it was reached from (SLIDING's verbose listing).  NULL: none. */
    void (*on_new)(void *ud, const uint64_t *key, int level, uint64_t index, uint64_t from);
    void *on_new_ud;
    /* levels: keep the levels in files in a new folder made inside this
     * one (removed by sb_search_free), memory holding only buffers, so
     * that a search can be larger than the budget; NULL: in memory.  The
     * results are those of the engine in memory, byte for byte. */
    const char *disk_dir;
    uint64_t disk_limit; /* then: bytes of files allowed (0: no limit); past it SB_ENOMEM */
    /* levels: keep the levels in this folder itself, kept after the run
     * with the run's parameters, each level flushed to the disk as it is
     * finished, so that a search stopped at any point (Ctrl-C, a kill, a
     * power loss) can be taken up again; sb_search_run refuses a folder
     * that holds a search already (SB_EUSAGE) unless resume is set, and
     * then continues the search kept there from its last complete level,
     * to the same result as a run never stopped, or refuses a damaged
     * checkpoint or one of another search (SB_EBADFILE).  ident: the
     * caller's fingerprint of the problem (puzzle, style...), kept and
     * compared with the start, goal, key width and flags. */
    const char *checkpoint;
    int resume;
    uint64_t ident;
} sb_search_opts;

/* What the last run found. */
typedef struct sb_search_info {
    int found;          /* a goal was reached */
    int length;         /* its distance from the start, -1 for none */
    int bidir;          /* the run searched both ways */
    int complete;       /* a whole component was walked */
    int exhausted;      /* then: the side (0 start, 1 goal) whose component it was */
    int nlevels[2];     /* levels made from the start [0] and from the goal [1] */
    int dropped;        /* levels dropped to stay in the budget */
    int threads;        /* threads used */
    uint64_t states;    /* states stored, both sides (a state on both counted twice) */
    uint64_t generated; /* neighbours listed */
    uint64_t disk_peak; /* levels on disk: most bytes of files held at once */
    uint64_t disk_used; /* and bytes held at the end */
    uint64_t disk_levels; /* bytes of all the level files written (their keys coded) */
    uint64_t disk_buckets; /* ranges of keys the new levels' neighbours were cut into, all levels */
    uint64_t disk_large;   /* of those, too large to sort at once: sorted in runs */
    int spilled;        /* sb_search_spill: levels made in memory and carried to disk (0: none) */
} sb_search_info;

typedef struct sb_search sb_search;

/* A search of model m (copied) on engine SB_ENGINE_HASHED or
 * SB_ENGINE_LEVELS; o may be NULL.  Large memory is charged to mem (NULL:
 * no budget), which must outlive the search.  SB_EUSAGE: a bad engine, m
 * or m->expand NULL, keys wider than SB_SEARCH_MAXKW, hints the engine
 * cannot take (the hashed engine takes none, the levels one up to 63 bits
 * of a one-word key), a model that is not reversible for SB_ENGINE_LEVELS,
 * an observer for SB_ENGINE_LEVELS. */
int sb_search_new(sb_search **s, int engine, const sb_keymodel *m, const sb_search_opts *o, sb_mem *mem,
                  sb_error *err);
void sb_search_free(sb_search *s);

/* SB_ENGINE_LEVELS in memory: when the budget runs out, carry the levels
 * made so far to files in a new folder made inside dir (which must outlive
 * the search; removed by sb_search_free) and go on there from the newest,
 * within the options' disk_limit, rather than drop old levels; the
 * results are the same, and the search's engine is then the one on disk.
 * SB_EUSAGE for another engine or dir NULL. */
int sb_search_spill(sb_search *s, const char *dir, sb_error *err);

/* Search from start, forgetting any earlier run.  The goal is m->is_goal
 * when the model has one, else the key goal, else nothing (the whole
 * component is walked); flags as above.  Returns 0 (the result says
 * whether a goal was found), SB_EINTR when ctl asked to stop, SB_ENOMEM
 * when the budget cannot hold what the search needs (the counts so far
 * stay valid in both cases), or another SB_E* code. */
int sb_search_run(sb_search *s, const uint64_t *start, const uint64_t *goal, unsigned flags, sb_control *ctl,
                  sb_error *err);

/* The result of the last run (all zero before one, length -1). */
const sb_search_info *sb_search_result(const sb_search *s);
/* States at distance d from the start (side 0) or from the goal (side 1);
 * 0 past the last level or for a bad side. */
uint64_t sb_search_level(const sb_search *s, int side, int d);
/* The states of the newest level from the start, *n of them, without
 * hints; NULL when the engine does not keep them side by side (hashed) or
 * dropped them.  With levels on disk only the first few (up to 16) are
 * kept in memory, and *n says how many (sb_search_level says how many
 * the level has). */
const uint64_t *sb_search_last(const sb_search *s, uint64_t *n);

/* A shortest path after a run that found a goal: keys[0 .. (length+1) *
 * key_words) from the start to the goal, without hints.  The levels
 * engine takes, of the neighbours one level nearer the start, the one of
 * smallest key (so the path does not depend on threads or budget) and
 * searches dropped levels again from a checkpoint; the hashed engine the
 * one found first (SLIDING's path).  SB_EUSAGE: no goal reached, a census
 * run. */
int sb_search_path(sb_search *s, uint64_t *keys, sb_control *ctl, sb_error *err);

#ifdef __cplusplus
}
#endif

#endif
