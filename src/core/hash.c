/* The checksum: see hash.h. */
#include "hash.h"

#include <string.h>

#include "le.h"

/* Where the lanes start: the first 32 bytes of the fraction of pi, so
 * that no lane starts at zero or equal to another. */
static const uint64_t lane0[4] = {UINT64_C(0x243f6a8885a308d3), UINT64_C(0x13198a2e03707344),
                                  UINT64_C(0xa4093822299f31d0), UINT64_C(0x082efa98ec4e6c89)};

void sb_sum_init(sb_sum *s)
{
    memcpy(s->h, lane0, sizeof s->h);
    s->n = 0;
}

/* Whole blocks of 32 bytes into the lanes. */
static void blocks(uint64_t *h, const unsigned char *b, size_t nblocks)
{
    uint64_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3];
    const uint64_t k = UINT64_C(0x9e3779b97f4a7c15);
    for (size_t i = 0; i < nblocks; i++, b += 32) {
        h0 = (h0 ^ sb_le_get64(b)) * k, h0 ^= h0 >> 31;
        h1 = (h1 ^ sb_le_get64(b + 8)) * k, h1 ^= h1 >> 31;
        h2 = (h2 ^ sb_le_get64(b + 16)) * k, h2 ^= h2 >> 31;
        h3 = (h3 ^ sb_le_get64(b + 24)) * k, h3 ^= h3 >> 31;
    }
    h[0] = h0, h[1] = h1, h[2] = h2, h[3] = h3;
}

void sb_sum_add(sb_sum *s, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t have = (size_t)(s->n & 31);
    if (n == 0)
        return; /* p may be NULL, which memcpy must not see even for 0 bytes */
    s->n += n;
    if (have) {
        size_t k = 32 - have < n ? 32 - have : n;
        memcpy(s->part + have, b, k);
        b += k, n -= k;
        if (have + k < 32)
            return;
        blocks(s->h, s->part, 1);
    }
    blocks(s->h, b, n / 32);
    if (n % 32)
        memcpy(s->part, b + n / 32 * 32, n % 32);
}

uint64_t sb_sum_end(const sb_sum *s)
{
    uint64_t h[4], r = s->n;
    size_t have = (size_t)(s->n & 31);
    memcpy(h, s->h, sizeof h);
    if (have) {
        unsigned char last[32] = {0};
        memcpy(last, s->part, have);
        blocks(h, last, 1);
    }
    for (int l = 0; l < 4; l++)
        r = sb_mix64(r ^ h[l]);
    return r;
}

uint64_t sb_checksum(const void *p, size_t n)
{
    sb_sum s;
    sb_sum_init(&s);
    sb_sum_add(&s, p, n);
    return sb_sum_end(&s);
}
