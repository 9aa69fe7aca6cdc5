/* The kind fields of a key of the anchor form (key.c): after the ncells
 * anchor bits, kbits bits per anchored block, in the cell order of the
 * anchors; a field may straddle two words.  The one place that reads and
 * writes them (pack and unpack, the goal test, the move decoder); not a
 * public header. */
#ifndef SBFS_SLIDE_KEYCODEC_H
#define SBFS_SLIDE_KEYCODEC_H

#include "slide_internal.h"

/* The kbits-bit field at bit pos of key. */
static inline unsigned kc_get(const uint64_t *key, int pos, int kbits)
{
    uint64_t v = key[pos >> 6] >> (pos & 63);
    if ((pos & 63) + kbits > 64)
        v |= key[(pos >> 6) + 1] << (64 - (pos & 63));
    return (unsigned)(v & (((uint64_t)1 << kbits) - 1));
}

/* OR v (kbits bits) into the field at bit pos of key. */
static inline void kc_put(uint64_t *key, int pos, int kbits, uint64_t v)
{
    key[pos >> 6] |= v << (pos & 63);
    if ((pos & 63) + kbits > 64)
        key[(pos >> 6) + 1] |= v >> (64 - (pos & 63));
}

/* The kind index of the rank-th anchored block of a key of sl. */
static inline unsigned kc_kind(const sb_slide *sl, const uint64_t *key, int rank)
{
    return kc_get(key, sl->ncells + rank * sl->kbits, sl->kbits);
}

#endif
