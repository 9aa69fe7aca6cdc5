/* The one 64-bit mix and the one checksum of the library (library-internal).
 *
 * sb_mix64 scrambles a 64-bit value so that every input bit affects every
 * output bit about half the time: the finaliser of SplitMix64 (Steele, Lea
 * and Flood, 2014; Stafford's "variant 13" constants).  It is a bijection,
 * so distinct inputs stay distinct.  The random generator seeds itself with
 * it and the checksum folds its lanes with it.
 *
 * sb_checksum is the 64-bit checksum saved files carry: it catches a
 * damaged or cut file, not a forger.  The bytes, zero-padded to a multiple
 * of 32, are read as little-endian 64-bit words; word i goes to lane i mod 4,
 * and each lane does h = (h XOR w) * 0x9e3779b97f4a7c15, h ^= h >> 31 (mod
 * 2^64) from a fixed start.  Four lanes because one lane waits for its
 * multiply before it can take the next word, while four keep the
 * multiplier busy: a table is summed about as fast as memory delivers it.
 * The result is r = byte count, then r = sb_mix64(r XOR lane) for lanes
 * 0..3; the count makes trailing zero bytes count.  docs/FORMAT.md gives the
 * start values.
 *
 * sb_sum is the same sum taken piece by piece (a file read or written a
 * block at a time): any split of the bytes gives the same result. */
#ifndef SBFS_HASH_H
#define SBFS_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t sb_mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

typedef struct sb_sum {
    uint64_t h[4];            /* the lanes */
    uint64_t n;               /* bytes added so far */
    unsigned char part[32];   /* the bytes of an unfinished block: n mod 32 */
} sb_sum;

void sb_sum_init(sb_sum *s);
/* Add n bytes (p may be NULL when n is 0). */
void sb_sum_add(sb_sum *s, const void *p, size_t n);
/* The checksum of everything added; s is left as it was. */
uint64_t sb_sum_end(const sb_sum *s);
/* The checksum of n bytes at p, in one call. */
uint64_t sb_checksum(const void *p, size_t n);

#endif
