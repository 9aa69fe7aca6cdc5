/* xoshiro256** seeded through splitmix64: fast, small state, and the same
 * stream for the same seed on every machine, so tests and benchmarks that
 * draw random positions are repeatable. */
#include "sbfs/core.h"

#include "hash.h"
#include "internal.h"

/* SplitMix64: a Weyl sequence (steps of the golden ratio times 2^64, odd,
 * so it visits every value) through the mix. */
static uint64_t splitmix(uint64_t *x)
{
    return sb_mix64(*x += UINT64_C(0x9e3779b97f4a7c15));
}

int sb_rng_seed(sb_rng *r, uint64_t seed)
{
    if (!r)
        return SB_EUSAGE;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix(&seed);
    return 0;
}

uint64_t sb_rng_next(sb_rng *r)
{
    return r ? sb_rng_step(r) : 0;
}

uint64_t sb_rng_below(sb_rng *r, uint64_t n)
{
    /* Reject the top sliver of the 64-bit range that would make some
     * residues more likely than others. */
    uint64_t limit, x;
    if (!r || n == 0)
        return 0;
    limit = UINT64_MAX - UINT64_MAX % n;
    do
        x = sb_rng_next(r);
    while (x >= limit);
    return x % n;
}
