/* Sorted arrays of fixed-width keys: radix sort, removal of repeats and of
 * the keys of other sorted arrays, merging.  Internal to src/search/.
 *
 * A key is kw 64-bit words compared as one number whose most significant
 * word is the last (word kw-1).  Every function is written once for any
 * kw and instantiated for one word, the common case.
 *
 * Hints.  A one-word key may carry bits that are not part of the state:
 * the model's hints (sb_keymodel.hint_bits), in the bits outside the
 * mask m.  One-word keys are sorted and compared on the bits of m alone,
 * and where repeats of a state are made one, the hints of all of them are
 * OR-ed into the one kept.  Keys of more words carry no hints: m must be
 * all ones for them. */
#ifndef SBFS_KEYSORT_H
#define SBFS_KEYSORT_H

#include <stddef.h>
#include <stdint.h>

static inline int sb_key_cmp(const uint64_t *a, const uint64_t *b, int kw)
{
    for (int i = kw - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Sort a[0..n) (n < 2^32 keys); t is scratch of the same size.  Returns a
 * or t, whichever holds the result, or NULL when the 8 KB per digit of
 * counters cannot be had.  Digits on which all keys agree are
 * skipped, so a key's unused high bits cost nothing. */
uint64_t *sb_keys_sort(uint64_t *a, uint64_t *t, uint64_t n, int kw, uint64_t m);

/* The same result, faster on large arrays of one-word keys (a first
 * pass by the highest bits, then parts that fit in the cache). */
uint64_t *sb_keys_sort_large(uint64_t *a, uint64_t *t, uint64_t n, int kw, uint64_t m);

/* In the sorted a[0..n), keep each key once and only if it is in neither
 * sorted array x[0..nx) nor y[0..ny); the kept keys move to the front, in
 * order.  Returns how many were kept. */
uint64_t sb_keys_unique_minus(uint64_t *a, uint64_t n, const uint64_t *x, uint64_t nx,
                              const uint64_t *y, uint64_t ny, int kw, uint64_t m);

/* The same for a[0..n) already free of repeats: one pass fewer.  Both walk
 * x and y in step with a, or gallop through them when they are much
 * longer, so a short a against long x and y costs little. */
uint64_t sb_keys_minus(uint64_t *a, uint64_t n, const uint64_t *x, uint64_t nx, const uint64_t *y,
                       uint64_t ny, int kw, uint64_t m);

/* Merge k sorted arrays (each free of repeats; any k >= 0) into out (room
 * for the sum), keeping each key once and only if it is in neither sorted
 * array x[0..nx) nor y[0..ny) (either may be empty).  Returns the number
 * written, or UINT64_MAX when the merge's tree (beyond 8 runs: 20 bytes
 * a run) cannot be allocated. */
uint64_t sb_keys_merge(uint64_t *const *in, const uint64_t *n, int k, const uint64_t *x, uint64_t nx,
                       const uint64_t *y, uint64_t ny, uint64_t *out, int kw, uint64_t m);

/* How many distinct keys the k sorted arrays (each free of repeats) hold
 * together: what sb_keys_merge would write with x and y empty, with no
 * room for them.  UINT64_MAX as for sb_keys_merge. */
uint64_t sb_keys_union_size(uint64_t *const *in, const uint64_t *n, int k, int kw, uint64_t m);

/* The first index i of sorted a[0..n) with a[i] >= key. */
uint64_t sb_keys_lower(const uint64_t *a, uint64_t n, const uint64_t *key, int kw, uint64_t m);

/* Index of key in sorted a[0..n), or -1. */
int64_t sb_keys_find(const uint64_t *a, uint64_t n, const uint64_t *key, int kw, uint64_t m);

/* Index of the first key common to sorted a[0..na) and b[0..nb), or -1. */
int64_t sb_keys_first_common(const uint64_t *a, uint64_t na, const uint64_t *b, uint64_t nb,
                             int kw, uint64_t m);

#endif
