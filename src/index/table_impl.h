/* What the two builders of distance tables share (table.c in memory,
 * table_disk.c on disk in slices): the table behind the opaque handle, how
 * codes lie in words, and the successors of an index for the three kinds
 * of model.  Private to src/index. */
#ifndef SBFS_TABLE_IMPL_H
#define SBFS_TABLE_IMPL_H

#include "sbfs/table.h"

#include "../core/tablefile.h"

#include <stdatomic.h>
#include <string.h>

#define CHUNK_SHIFT 16
#define CHUNK ((uint64_t)1 << CHUNK_SHIFT)

typedef _Atomic uint64_t aword;

/* Successors a forward expansion collects, their table words prefetched,
 * before it looks at any: the table is far larger than the caches, and
 * looking up one successor at a time would wait for memory every time. */
#define PEND (2 * SB_MAX_MOVES)

_Static_assert(sizeof(aword) == sizeof(uint64_t), "atomic words must be plain words");

/* ---- codes in words -------------------------------------------------- */

/* The table behind the opaque handle.  count[d] indices at distance d,
 * d <= maxdist (-1 when empty). */
struct sb_table {
    uint64_t size;
    int bits;
    uint64_t *data;  /* packed codes, bits each, index 0 in the low bits of data[0] */
    size_t data_bytes;
    int maxdist;
    uint64_t reached;
    uint64_t count[SB_TABLE_MAXDIST + 1];
    int complete;
    char name[32];   /* the model's name and params at build time */
    char params[64];
    sb_mem *mem;     /* the budget data was charged to */
    sb_tf_map map;   /* when data is a file mapped by sb_table_load */
    void *disk_map;  /* when data is the file sb_table_build_disk filled */
    size_t disk_map_bytes;
    int slices;      /* slices it was built in on disk, 0 in memory */
    uint64_t disk_peak; /* bytes of files the build held at most */
};

static inline int per_word(int bits) { return 64 / bits; }

/* log2 of bits (1, 2 or 3), so that locating an index takes shifts, not
 * divisions: index r is in word r >> (6 - lg), at bit (r mod 64/bits) << lg. */
static inline int lg_bits(int bits) { return bits == 2 ? 1 : bits == 4 ? 2 : 3; }

static inline uint64_t word_of(uint64_t r, int lg) { return r >> (6 - lg); }

static inline unsigned shift_of(uint64_t r, int lg)
{
    return (unsigned)((r & ((UINT64_C(64) >> lg) - 1)) << lg);
}

static inline uint64_t ones(int bits)
{
    return bits == 2 ? UINT64_C(0x5555555555555555)
         : bits == 4 ? UINT64_C(0x1111111111111111)
                     : UINT64_C(0x0101010101010101);
}

/* One bit (the lowest of its field) for each field of x equal to code c. */
static inline uint64_t fields_equal(uint64_t x, uint64_t c, int bits)
{
    uint64_t y = x ^ (c * ones(bits)), t = y | (y >> 1);
    if (bits >= 4)
        t |= t >> 2;
    if (bits == 8)
        t |= t >> 4;
    return ~t & ones(bits);
}

static inline int get_code(const uint64_t *w, uint64_t r, int bits)
{
    int lg = lg_bits(bits);
    return (int)((w[word_of(r, lg)] >> shift_of(r, lg)) &
                 ((UINT64_C(1) << bits) - 1));
}

static inline int load_code(aword *w, uint64_t r, int bits)
{
    int lg = lg_bits(bits);
    uint64_t x = atomic_load_explicit(&w[word_of(r, lg)], memory_order_relaxed);
    return (int)((x >> shift_of(r, lg)) & ((UINT64_C(1) << bits) - 1));
}

static inline int level_code(int d, int bits)
{
    return bits == 2 ? d % 3 : d;
}

/* ---- successors, the same way for the three kinds of model ----------- */

typedef struct gen {
    const sb_model *m;
    void *scratch;
    uint64_t r;
    int nall;
    uint32_t digit[SB_MAX_COORDS];
    uint64_t all[SB_MAX_MOVES];
    int npend;                 /* successors waiting for their words */
    uint64_t pend[PEND];
} gen;

/* Start on index r.  all: the caller wants every successor (a forward
 * expansion) rather than the first that will do. */
static inline void gen_begin(gen *g, uint64_t r, int all)
{
    const sb_model *m = g->m;
    g->r = r;
    g->nall = -1;
    if (m->succ && (all || !m->move)) {
        g->nall = m->succ(m->ud, g->scratch, r, g->all);
        return;
    }
    if (m->move)
        return;
    for (int j = m->ncoords - 1; j >= 0; j--) {
        g->digit[j] = (uint32_t)(r % m->coords[j].size);
        r /= m->coords[j].size;
    }
}

static inline uint64_t gen_move(gen *g, int mv)
{
    const sb_model *m = g->m;
    uint64_t q = 0;
    if (g->nall >= 0)
        return mv < g->nall ? g->all[mv] : SB_NO_INDEX;
    if (m->move)
        return m->move(m->ud, g->scratch, g->r, mv);
    for (int j = 0; j < m->ncoords; j++)
        q = q * m->coords[j].size +
            m->coords[j].move[(size_t)g->digit[j] * (size_t)m->nmoves + (size_t)mv];
    return q;
}


static inline size_t words_for(uint64_t size, int bits)
{
    uint64_t per = (uint64_t)per_word(bits);
    return (size_t)((size + per - 1) / per);
}

/* 0, or SB_EUSAGE (err filled) for a model sb_table_build refuses. */
int sb_table_check_model(const sb_model *m, sb_error *err);
/* src (may be NULL) into dst[0..n-1], cut short and NUL-padded. */
void sb_table_copy_name(char *dst, size_t n, const char *src);

#endif
