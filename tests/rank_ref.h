/* The obviously correct quadratic ranking of permutations (Lehmer code by
 * counting inversions), against which tests/test_rank.c checks the fast
 * one of src/index/rank.c and bench/index_speed.c times it.  p holds
 * 0..n-1 once each, n <= 20; the rank is that of lexicographic order. */
#ifndef SBFS_RANK_REF_H
#define SBFS_RANK_REF_H

#include <stdint.h>

static inline uint64_t rank_perm_ref(const uint8_t *p, int n)
{
    uint64_t t = 0;
    for (int i = 0; i < n; i++) {
        t *= (uint64_t)(n - i);
        for (int j = i + 1; j < n; j++)
            if (p[i] > p[j])
                t++;
    }
    return t;
}

/* Its inverse: the digits from the last place up, each later item at or
 * above the one placed moved up by one. */
static inline void unrank_perm_ref(uint64_t t, uint8_t *p, int n)
{
    if (n == 0)
        return;
    p[n - 1] = 0;
    for (int i = n - 2; i >= 0; i--) {
        uint64_t radix = (uint64_t)(n - i);
        p[i] = (uint8_t)(t % radix);
        t /= radix;
        for (int j = i + 1; j < n; j++)
            if (p[j] >= p[i])
                p[j]++;
    }
}

#endif
