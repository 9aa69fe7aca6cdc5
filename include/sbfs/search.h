/* The hashed search engine: breadth-first search over fixed-width keys.
 *
 * The engine does not know what puzzle it solves.  A model (sb_search_model, in the
 * manner of Redis's dictType) tells it how wide a key is, how to list the
 * neighbours of a key and, optionally, which keys are goals.  Keys are
 * stored once, in the order they are first reached, in a chunked array (the
 * BFS queue: level d is a contiguous range of indices), and an
 * open-addressing table of 32-bit indices into that array finds them again.
 * There are no parent pointers: a path is rebuilt backwards by looking, for
 * the state at distance d, for a neighbour whose index lies in level d-1. */
#ifndef SBFS_SEARCH_H
#define SBFS_SEARCH_H

#include <stdint.h>

#include "sbfs/core.h"

/* Every function here refuses NULL pointers and an engine or set that was
 * not set up by its init (SB_EUSAGE with a message, or the value its
 * comment names); the free functions accept NULL. */

/* Widest key, in 64-bit words, that the engines take. */
#define SB_SEARCH_MAXKW 32

/* ---- the key set ------------------------------------------------------ */

#define SB_SET_CHUNK_BITS 18 /* keys per chunk of the key array: 262144 */

typedef struct sb_stateset {
    int kw;             /* 64-bit words per key, >= 1 */
    uint64_t n;         /* keys stored; indices are 0..n-1 */
    uint64_t **chunk;   /* chunk[i >> 16] holds keys i with the same high bits */
    uint64_t nchunks, chunkcap;
    uint32_t *table;    /* 0 = empty, else tag | (index + 1) */
    uint64_t tsize;     /* table slots, a power of two */
    int ibits;          /* log2(tsize): low bits of a slot hold index + 1 */
    sb_mem *mem;
} sb_stateset;

/* An empty set of keys kw words wide (1..SB_SEARCH_MAXKW), memory charged
 * to mem. */
int sb_stateset_init(sb_stateset *s, int kw, sb_mem *mem, sb_error *err);
void sb_stateset_free(sb_stateset *s);
/* Index of key, or -1 if absent (SB_EUSAGE for a NULL pointer). */
int64_t sb_stateset_find(const sb_stateset *s, const uint64_t *key);
/* Index of key, adding it at index n if absent (*added says which).
 * Returns a negative SB_E* code when the budget runs out, SB_EUSAGE for a
 * NULL pointer (added too). */
int64_t sb_stateset_add(sb_stateset *s, const uint64_t *key, int *added, sb_error *err);
/* The key stored at index i (i < n).  Unchecked: the engines call it for
 * every state they expand, with indices the set gave them. */
static inline const uint64_t *sb_stateset_key(const sb_stateset *s, uint64_t i)
{
    return s->chunk[i >> SB_SET_CHUNK_BITS] + (i & ((1u << SB_SET_CHUNK_BITS) - 1)) * (uint64_t)s->kw;
}
/* The same, in steps, for callers that batch their lookups to hide memory
 * latency: the hash of a key, a prefetch of its table slot, a prefetch of
 * the key that slot points to (call after the slot has arrived), and the
 * add given the hash.  The inline steps are unchecked (they run once per
 * key in the engine's batches); sb_stateset_add_h checks as
 * sb_stateset_add does. */
static inline uint64_t sb_stateset_mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}
static inline uint64_t sb_stateset_hash_key(const uint64_t *k, int kw)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < kw; i++)
        h = sb_stateset_mix64(h ^ k[i]) + (uint64_t)i;
    return h;
}
static inline uint64_t sb_stateset_hash(const sb_stateset *s, const uint64_t *key)
{
    return sb_stateset_hash_key(key, s->kw);
}
static inline void sb_stateset_prefetch(const sb_stateset *s, uint64_t h)
{
    __builtin_prefetch(&s->table[h & (s->tsize - 1)]);
}
/* The tag kept beside an index in a table slot: the hash's high bits. */
static inline uint32_t sb_stateset_tag(uint64_t h, int ibits)
{
    if (ibits >= 32)
        return 0;
    return (uint32_t)(h >> 32) & ~(uint32_t)(((uint64_t)1 << ibits) - 1);
}
void sb_stateset_prefetch_key(const sb_stateset *s, uint64_t h);
int64_t sb_stateset_add_h(sb_stateset *s, const uint64_t *key, uint64_t h, int *added, sb_error *err);
/* Bytes held by the set (keys and table; 0 for NULL). */
size_t sb_stateset_bytes(const sb_stateset *s);

/* ---- the model -------------------------------------------------------- */

typedef void (*sb_emit_fn)(void *ctx, const uint64_t *key);

typedef struct sb_search_model {
    int key_words;  /* width of a key in 64-bit words */
    void *ud;       /* the model's own data, passed back to the callbacks */
    /* Call emit(ctx, k) once or more for every neighbour k of key (repeats
     * are harmless).  Returns 0 or an SB_E* code. */
    int (*expand)(void *ud, const uint64_t *key, sb_emit_fn emit, void *ctx);
    /* Nonzero when key is a goal.  NULL: the goal is the key given to
     * sb_bfs_run. */
    int (*is_goal)(void *ud, const uint64_t *key);
    /* Hints (sorted-level engine only, one-word keys): the top hint_bits
     * bits of a key are not part of the state but notes the model leaves
     * for itself when it makes a neighbour, such as "this move leads back
     * to where I came from, do not list it".  The engine compares keys
     * without them, ORs together the hints of every copy of a state it
     * merges, and hands expand a key whose hints are the OR of those of
     * all the ways it was reached from the level before; a key it passes
     * with no hints (the start, the goal, a path being traced) must be
     * expanded in full.  Whatever the hints, expand must list every
     * neighbour not at a smaller distance.  0 for no hints. */
    int hint_bits;
} sb_search_model;

/* ---- breadth-first search --------------------------------------------- */

typedef struct sb_bfs {
    sb_search_model model;
    sb_stateset set;
    uint64_t *level;     /* level[d] = first index at distance d; level[nlevels] = set.n */
    int nlevels;         /* levels holding at least one state */
    int levcap;
    int complete;        /* 1 when the last level was expanded to the end */
    int64_t goal;        /* index of the goal state found, or -1 */
    int goal_level;      /* its distance, or -1 */
    uint64_t expanded;   /* states whose neighbours were generated */
    /* Called for each new state (index, index of the state it was reached
     * from) when set; used by SLIDING's verbose listing. */
    void (*on_new)(void *ud, uint64_t index, uint64_t from);
    void *on_new_ud;
    sb_mem *mem;
} sb_bfs;

/* SB_EUSAGE: b, m or m->expand NULL, hints, a key width out of range. */
int sb_bfs_init(sb_bfs *b, const sb_search_model *m, sb_mem *mem, sb_error *err);
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
