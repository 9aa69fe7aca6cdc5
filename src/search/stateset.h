/* The key set of the hashed engine (private to src/search): fixed-width
 * keys stored once, in the order first added, in a chunked array, found
 * again through an open-addressing table of 32-bit indices (see
 * stateset.c).  Every function refuses NULL pointers and a set that init
 * did not set up (SB_EUSAGE, or the value its comment names); free accepts
 * NULL. */
#ifndef SBFS_STATESET_H
#define SBFS_STATESET_H

#include <stddef.h>
#include <stdint.h>

#include "sbfs/search.h"
#include "../core/hash.h"

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
static inline uint64_t sb_stateset_hash_key(const uint64_t *k, int kw)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < kw; i++)
        h = sb_mix64(h ^ k[i]) + (uint64_t)i;
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

#endif
