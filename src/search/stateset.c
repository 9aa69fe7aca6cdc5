/* An open-addressing set of fixed-width keys, stored once in insertion order.
 *
 * Keys live in a chunked array (chunks of 2^18 keys, never moved, so the
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
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "stateset.h"
#include "../core/internal.h"

#define CHUNK ((uint64_t)1 << SB_SET_CHUNK_BITS)
#define MAX_STATES ((uint64_t)0xfffffffe)

/* Ask for transparent huge pages on a large block: lookups land at random
 * in the table and the key array, and with 4 KB pages nearly every one
 * also misses the TLB.  Only the page-aligned interior can be advised;
 * where the system does not offer huge pages this does nothing. */
static void want_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
    uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095, e = ((uintptr_t)p + n) & ~(uintptr_t)4095;
    if (n >= ((size_t)2 << 20) && e > a)
        madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
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
    if (!s)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_stateset_init: s is NULL");
    memset(s, 0, sizeof *s);
    if (kw < 1 || kw > SB_SEARCH_MAXKW)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "key width %d words: 1..%d allowed", kw,
                            SB_SEARCH_MAXKW);
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
    if (!s)
        return;
    for (uint64_t i = 0; i < s->nchunks; i++)
        sb_mem_free(s->mem, s->chunk[i], CHUNK * s->kw * sizeof(uint64_t));
    sb_mem_free(s->mem, s->chunk, s->chunkcap * sizeof *s->chunk);
    sb_mem_free(s->mem, s->table, s->tsize * sizeof *s->table);
    memset(s, 0, sizeof *s);
}

size_t sb_stateset_bytes(const sb_stateset *s)
{
    if (!s)
        return 0;
    return (size_t)(s->nchunks * CHUNK * s->kw * sizeof(uint64_t) + s->tsize * sizeof *s->table +
                    s->chunkcap * sizeof *s->chunk);
}


int64_t sb_stateset_find(const sb_stateset *s, const uint64_t *key)
{
    uint64_t h, m;
    uint32_t tag, imask;
    if (!s || !s->table || !key)
        return SB_EUSAGE;
    h = sb_stateset_hash_key(key, s->kw), m = s->tsize - 1;
    tag = sb_stateset_tag(h, s->ibits), imask = (uint32_t)(((uint64_t)1 << s->ibits) - 1);
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
    s->table[j] = sb_stateset_tag(h, s->ibits) | (uint32_t)(index + 1);
}

static int grow_table(sb_stateset *s, sb_error *err)
{
    uint32_t *old = s->table;
    uint64_t oldsize = s->tsize;
    uint32_t *t = sb_mem_alloc(s->mem, 2 * oldsize * sizeof *t, err);
    if (!t)
        return SB_ENOMEM;
    want_huge(t, 2 * oldsize * sizeof *t);
    s->table = t;
    s->tsize = 2 * oldsize;
    s->ibits++;
    /* hashes are computed a little ahead so the slot is on its way */
    enum { AHEAD = 16 };
    uint64_t hq[AHEAD];
    for (uint64_t i = 0; i < s->n + AHEAD; i++) {
        if (i >= AHEAD)
            place(s, hq[i % AHEAD], i - AHEAD);
        if (i < s->n) {
            hq[i % AHEAD] = sb_stateset_hash_key(sb_stateset_key(s, i), s->kw);
            sb_stateset_prefetch(s, hq[i % AHEAD]);
        }
    }
    sb_mem_free(s->mem, old, oldsize * sizeof *old);
    return 0;
}

void sb_stateset_prefetch_key(const sb_stateset *s, uint64_t h)
{
    uint32_t e, imask;
    if (!s || !s->table)
        return;
    e = s->table[h & (s->tsize - 1)];
    imask = (uint32_t)(((uint64_t)1 << s->ibits) - 1);
    if (e && (e & ~imask) == sb_stateset_tag(h, s->ibits) && (e & imask) - 1 < s->n)
        __builtin_prefetch(sb_stateset_key(s, (e & imask) - 1));
}

/* The per-key checks: three pointer compares, predicted, next to a hash
 * and a table probe. */
static int bad_add(const sb_stateset *s, const uint64_t *key, const int *added, sb_error *err)
{
    return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_stateset_add: %s",
                        !s || !s->table ? "the set is NULL or not set up"
                        : !key          ? "key is NULL"
                                        : (added ? "?" : "added is NULL"));
}

int64_t sb_stateset_add(sb_stateset *s, const uint64_t *key, int *added, sb_error *err)
{
    if (!s || !s->table || !key || !added)
        return bad_add(s, key, added, err);
    return sb_stateset_add_h(s, key, sb_stateset_hash_key(key, s->kw), added, err);
}

int64_t sb_stateset_add_h(sb_stateset *s, const uint64_t *key, uint64_t h, int *added, sb_error *err)
{
    uint64_t m, j;
    uint32_t tag, imask;
    if (!s || !s->table || !key || !added)
        return bad_add(s, key, added, err);
    m = s->tsize - 1;
    tag = sb_stateset_tag(h, s->ibits), imask = (uint32_t)(((uint64_t)1 << s->ibits) - 1);
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
        want_huge(c, CHUNK * s->kw * sizeof *c);
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
