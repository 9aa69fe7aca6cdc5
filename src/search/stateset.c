/* An open-addressing set of fixed-width keys, stored once in insertion order.
 *
 * Keys live in a chunked array (chunks of 65536 keys, never moved, so the
 * array grows without copying and without a transient double allocation).
 * The table holds 32-bit entries: the low ibits = log2(tsize) bits hold
 * index + 1 (0 marks an empty slot), and the bits above hold a tag, the top
 * bits of the key's hash.  Since the table is kept at most 70% full,
 * index + 1 < tsize always fits in ibits bits, and the spare high bits are
 * free: while the table is small (under 2^24 slots, say) the tag has 8 or
 * more bits and a probe that meets another key's slot is rejected without
 * touching the key array (one cache miss saved per collision).
 *
 * Probing is linear.  Memory per state: 8 * kw bytes of key plus 4 bytes of
 * table per slot at a load between 35% and 70%, i.e. 5.7 to 11.4 bytes. */
#include <stdlib.h>
#include <string.h>

#include "sbfs/search.h"

#define CHUNK ((uint64_t)1 << SB_SET_CHUNK_BITS)
#define MAX_STATES ((uint64_t)0xfffffffe)

static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t hash_key(const uint64_t *k, int kw)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < kw; i++)
        h = mix64(h ^ k[i]) + (uint64_t)i;
    return h;
}

static inline int key_eq(const uint64_t *a, const uint64_t *b, int kw)
{
    for (int i = 0; i < kw; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

int sb_stateset_init(sb_stateset *s, int kw, sb_mem *mem, sb_error *err)
{
    memset(s, 0, sizeof *s);
    if (kw < 1)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "key width must be at least one word");
    s->kw = kw;
    s->mem = mem;
    s->ibits = 10;
    s->tsize = (uint64_t)1 << s->ibits;
    s->table = sb_mem_alloc(mem, s->tsize * sizeof *s->table, err);
    if (!s->table)
        return SB_ENOMEM;
    return 0;
}

void sb_stateset_free(sb_stateset *s)
{
    for (uint64_t i = 0; i < s->nchunks; i++)
        sb_mem_free(s->mem, s->chunk[i], CHUNK * s->kw * sizeof(uint64_t));
    sb_mem_free(s->mem, s->chunk, s->chunkcap * sizeof *s->chunk);
    sb_mem_free(s->mem, s->table, s->tsize * sizeof *s->table);
    memset(s, 0, sizeof *s);
}

size_t sb_stateset_bytes(const sb_stateset *s)
{
    return (size_t)(s->nchunks * CHUNK * s->kw * sizeof(uint64_t) + s->tsize * sizeof *s->table +
                    s->chunkcap * sizeof *s->chunk);
}

static inline uint32_t tag_of(uint64_t h, int ibits)
{
    if (ibits >= 32)
        return 0;
    return (uint32_t)(h >> 32) & ~(uint32_t)(((uint64_t)1 << ibits) - 1);
}

int64_t sb_stateset_find(const sb_stateset *s, const uint64_t *key)
{
    uint64_t h = hash_key(key, s->kw), m = s->tsize - 1;
    uint32_t tag = tag_of(h, s->ibits), imask = (uint32_t)(((uint64_t)1 << s->ibits) - 1);
    for (uint64_t j = h & m;; j = (j + 1) & m) {
        uint32_t e = s->table[j];
        if (!e)
            return -1;
        if ((e & ~imask) == tag) {
            uint64_t i = (e & imask) - 1;
            if (key_eq(sb_stateset_key(s, i), key, s->kw))
                return (int64_t)i;
        }
    }
}

static void place(sb_stateset *s, uint64_t h, uint64_t index)
{
    uint64_t m = s->tsize - 1;
    uint64_t j = h & m;
    while (s->table[j])
        j = (j + 1) & m;
    s->table[j] = tag_of(h, s->ibits) | (uint32_t)(index + 1);
}

static int grow_table(sb_stateset *s, sb_error *err)
{
    uint32_t *old = s->table;
    uint64_t oldsize = s->tsize;
    uint32_t *t = sb_mem_alloc(s->mem, 2 * oldsize * sizeof *t, err);
    if (!t)
        return SB_ENOMEM;
    s->table = t;
    s->tsize = 2 * oldsize;
    s->ibits++;
    for (uint64_t i = 0; i < s->n; i++)
        place(s, hash_key(sb_stateset_key(s, i), s->kw), i);
    sb_mem_free(s->mem, old, oldsize * sizeof *old);
    return 0;
}

uint64_t sb_stateset_hash(const sb_stateset *s, const uint64_t *key)
{
    return hash_key(key, s->kw);
}

void sb_stateset_prefetch(const sb_stateset *s, uint64_t h)
{
    __builtin_prefetch(&s->table[h & (s->tsize - 1)]);
}

void sb_stateset_prefetch_key(const sb_stateset *s, uint64_t h)
{
    uint32_t e = s->table[h & (s->tsize - 1)];
    uint32_t imask = (uint32_t)(((uint64_t)1 << s->ibits) - 1);
    if (e && (e & ~imask) == tag_of(h, s->ibits) && (e & imask) - 1 < s->n)
        __builtin_prefetch(sb_stateset_key(s, (e & imask) - 1));
}

int64_t sb_stateset_add(sb_stateset *s, const uint64_t *key, int *added, sb_error *err)
{
    return sb_stateset_add_h(s, key, hash_key(key, s->kw), added, err);
}

int64_t sb_stateset_add_h(sb_stateset *s, const uint64_t *key, uint64_t h, int *added, sb_error *err)
{
    uint64_t m = s->tsize - 1;
    uint32_t tag = tag_of(h, s->ibits), imask = (uint32_t)(((uint64_t)1 << s->ibits) - 1);
    uint64_t j;
    *added = 0;
    for (j = h & m; s->table[j]; j = (j + 1) & m) {
        uint32_t e = s->table[j];
        if ((e & ~imask) == tag) {
            uint64_t i = (e & imask) - 1;
            if (key_eq(sb_stateset_key(s, i), key, s->kw))
                return (int64_t)i;
        }
    }
    if (s->n >= MAX_STATES)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "more than %llu states",
                            (unsigned long long)MAX_STATES);
    /* A new key: find room for it in the key array, then in the table. */
    uint64_t i = s->n;
    if ((i & (CHUNK - 1)) == 0) {
        if (s->nchunks == s->chunkcap) {
            uint64_t nc = s->chunkcap ? 2 * s->chunkcap : 16;
            uint64_t **c = sb_mem_realloc(s->mem, s->chunk, s->chunkcap * sizeof *c, nc * sizeof *c, err);
            if (!c)
                return SB_ENOMEM;
            s->chunk = c;
            s->chunkcap = nc;
        }
        uint64_t *c = sb_mem_alloc(s->mem, CHUNK * s->kw * sizeof *c, err);
        if (!c)
            return SB_ENOMEM;
        s->chunk[s->nchunks++] = c;
    }
    memcpy((uint64_t *)sb_stateset_key(s, i), key, s->kw * sizeof *key);
    s->n = i + 1;
    s->table[j] = tag | (uint32_t)(i + 1);
    *added = 1;
    if ((s->n + 1) * 10 > s->tsize * 7) {
        int rc = grow_table(s, err);
        if (rc)
            return rc;
    }
    return (int64_t)i;
}
