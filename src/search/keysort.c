/* Radix sort and set operations on sorted key arrays (see keysort.h).
 *
 * The sort is least-significant-digit first with 11-bit digits: one pass
 * counts every digit's histogram at once, then each digit scatters the
 * keys from one buffer into the other.  A digit on which all keys agree
 * needs no pass, and that is common: a sliding-block key of 40 bits in a
 * word has its top 24 bits zero, and the first pass finds this by OR-ing
 * and AND-ing the keys (bits where OR and AND differ are the only ones
 * that vary).  For SHIFT's 40-bit keys that is 4 passes, not 6. */
#include <stdlib.h>
#include <string.h>

#include "keysort.h"

#define DBITS 11
#define DSIZE (1u << DBITS)
#define MAXDIG 256 /* digits in the widest key: 24 words of 6 digits is 144 */

/* The digits (word, shift) on which keys differ. */
static int varying_digits(const uint64_t *a, uint64_t n, int kw, int *dw, int *ds)
{
    uint64_t orv[32] = {0}, andv[32];
    int nd = 0;
    for (int w = 0; w < kw; w++)
        andv[w] = ~(uint64_t)0;
    for (uint64_t i = 0; i < n; i++)
        for (int w = 0; w < kw; w++) {
            orv[w] |= a[i * kw + w];
            andv[w] &= a[i * kw + w];
        }
    for (int w = 0; w < kw; w++)
        for (int sh = 0; sh < 64; sh += DBITS)
            if (((orv[w] ^ andv[w]) >> sh) & (DSIZE - 1)) {
                dw[nd] = w;
                ds[nd] = sh;
                nd++;
            }
    return nd;
}

static inline __attribute__((always_inline)) uint64_t *sort_w(uint64_t *a, uint64_t *t, uint64_t n,
                                                             const int kw)
{
    int dw[MAXDIG], ds[MAXDIG];
    if (n < 2)
        return a;
    int nd = varying_digits(a, n, kw, dw, ds);
    if (!nd)
        return a;
    uint32_t(*cnt)[DSIZE] = calloc((size_t)nd, sizeof *cnt); /* 8 KB a digit */
    if (!cnt)
        return NULL;
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t *k = a + i * kw;
        for (int j = 0; j < nd; j++)
            cnt[j][(k[dw[j]] >> ds[j]) & (DSIZE - 1)]++;
    }
    for (int j = 0; j < nd; j++) {
        uint32_t sum = 0, *c = cnt[j];
        for (unsigned b = 0; b < DSIZE; b++) {
            uint32_t v = c[b];
            c[b] = sum;
            sum += v;
        }
        const int w = dw[j], sh = ds[j];
        if (kw == 1) {
            for (uint64_t i = 0; i < n; i++) {
                uint64_t v = a[i];
                t[c[(v >> sh) & (DSIZE - 1)]++] = v;
            }
        } else {
            for (uint64_t i = 0; i < n; i++) {
                const uint64_t *k = a + i * kw;
                uint64_t *o = t + (uint64_t)c[(k[w] >> sh) & (DSIZE - 1)]++ * kw;
                for (int x = 0; x < kw; x++)
                    o[x] = k[x];
            }
        }
        uint64_t *x = a;
        a = t;
        t = x;
    }
    free(cnt);
    return a;
}

uint64_t *sb_keys_sort(uint64_t *a, uint64_t *t, uint64_t n, int kw)
{
    if (kw == 1)
        return sort_w(a, t, n, 1);
    if (kw == 2)
        return sort_w(a, t, n, 2);
    return sort_w(a, t, n, kw);
}

static inline __attribute__((always_inline)) uint64_t
uniq_w(uint64_t *a, uint64_t n, const uint64_t *x, uint64_t nx, const uint64_t *y, uint64_t ny,
       const int kw)
{
    uint64_t o = 0, ix = 0, iy = 0;
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t *k = a + i * kw;
        if (o && sb_key_cmp(a + (o - 1) * kw, k, kw) == 0)
            continue;
        while (ix < nx && sb_key_cmp(x + ix * kw, k, kw) < 0)
            ix++;
        if (ix < nx && sb_key_cmp(x + ix * kw, k, kw) == 0)
            continue;
        while (iy < ny && sb_key_cmp(y + iy * kw, k, kw) < 0)
            iy++;
        if (iy < ny && sb_key_cmp(y + iy * kw, k, kw) == 0)
            continue;
        if (o != i)
            memmove(a + o * kw, k, kw * sizeof *k);
        o++;
    }
    return o;
}

/* One word: the same walk with plain comparisons, and a sentinel instead
 * of the bounds tests. */
static uint64_t uniq_1(uint64_t *a, uint64_t n, const uint64_t *x, uint64_t nx, const uint64_t *y,
                       uint64_t ny)
{
    uint64_t o = 0, ix = 0, iy = 0, last = 0;
    int any = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = a[i];
        if (any && k == last)
            continue;
        any = 1;
        last = k;
        while (ix < nx && x[ix] < k)
            ix++;
        if (ix < nx && x[ix] == k)
            continue;
        while (iy < ny && y[iy] < k)
            iy++;
        if (iy < ny && y[iy] == k)
            continue;
        a[o++] = k;
    }
    return o;
}

uint64_t sb_keys_unique_minus(uint64_t *a, uint64_t n, const uint64_t *x, uint64_t nx,
                              const uint64_t *y, uint64_t ny, int kw)
{
    if (kw == 1)
        return uniq_1(a, n, x, nx, y, ny);
    if (kw == 2)
        return uniq_w(a, n, x, nx, y, ny, 2);
    return uniq_w(a, n, x, nx, y, ny, kw);
}

/* The k heads are compared one after another: k is the number of runs of
 * a level (a few per thread), too small for a heap to pay. */
static inline __attribute__((always_inline)) uint64_t
merge_w(uint64_t *const *in, const uint64_t *n, int k, const uint64_t *x, uint64_t nx,
        const uint64_t *y, uint64_t ny, uint64_t *out, const int kw)
{
    uint64_t pos[64] = {0}, o = 0, ix = 0, iy = 0;
    for (;;) {
        int best = -1;
        for (int j = 0; j < k; j++)
            if (pos[j] < n[j] &&
                (best < 0 || sb_key_cmp(in[j] + pos[j] * kw, in[best] + pos[best] * kw, kw) < 0))
                best = j;
        if (best < 0)
            return o;
        const uint64_t *key = in[best] + pos[best] * kw;
        pos[best]++;
        if (o && sb_key_cmp(out + (o - 1) * kw, key, kw) == 0)
            continue;
        while (ix < nx && sb_key_cmp(x + ix * kw, key, kw) < 0)
            ix++;
        if (ix < nx && sb_key_cmp(x + ix * kw, key, kw) == 0)
            continue;
        while (iy < ny && sb_key_cmp(y + iy * kw, key, kw) < 0)
            iy++;
        if (iy < ny && sb_key_cmp(y + iy * kw, key, kw) == 0)
            continue;
        for (int w = 0; w < kw; w++)
            out[o * kw + w] = key[w];
        o++;
    }
}

/* One word: the heads in an array that shrinks as runs run out, so the
 * loop that picks the least head has no bounds tests and no branch on
 * the data (a conditional move per run). */
static uint64_t merge_1(uint64_t *const *in, const uint64_t *n, int k, const uint64_t *x, uint64_t nx,
                        const uint64_t *y, uint64_t ny, uint64_t *out)
{
    const uint64_t *at[64], *end[64];
    uint64_t o = 0, ix = 0, iy = 0, last = 0;
    int m = 0, any = 0;
    for (int j = 0; j < k; j++)
        if (n[j]) {
            at[m] = in[j];
            end[m] = in[j] + n[j];
            m++;
        }
    while (m) {
        int b = 0;
        uint64_t v = *at[0];
        for (int j = 1; j < m; j++) {
            uint64_t u = *at[j];
            b = u < v ? j : b;
            v = u < v ? u : v;
        }
        if (++at[b] == end[b]) {
            m--;
            at[b] = at[m];
            end[b] = end[m];
        }
        if (any && v == last)
            continue;
        any = 1;
        last = v;
        while (ix < nx && x[ix] < v)
            ix++;
        if (ix < nx && x[ix] == v)
            continue;
        while (iy < ny && y[iy] < v)
            iy++;
        if (iy < ny && y[iy] == v)
            continue;
        out[o++] = v;
    }
    return o;
}

uint64_t sb_keys_merge(uint64_t *const *in, const uint64_t *n, int k, const uint64_t *x, uint64_t nx,
                       const uint64_t *y, uint64_t ny, uint64_t *out, int kw)
{
    if (k > 64)
        k = 64;
    if (kw == 1)
        return merge_1(in, n, k, x, nx, y, ny, out);
    if (kw == 2)
        return merge_w(in, n, k, x, nx, y, ny, out, 2);
    return merge_w(in, n, k, x, nx, y, ny, out, kw);
}

uint64_t sb_keys_lower(const uint64_t *a, uint64_t n, const uint64_t *key, int kw)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (sb_key_cmp(a + mid * kw, key, kw) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int64_t sb_keys_find(const uint64_t *a, uint64_t n, const uint64_t *key, int kw)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        int c = sb_key_cmp(a + mid * kw, key, kw);
        if (c == 0)
            return (int64_t)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

int64_t sb_keys_first_common(const uint64_t *a, uint64_t na, const uint64_t *b, uint64_t nb,
                             int kw)
{
    uint64_t i = 0, j = 0;
    while (i < na && j < nb) {
        int c = sb_key_cmp(a + i * kw, b + j * kw, kw);
        if (c == 0)
            return (int64_t)i;
        if (c < 0)
            i++;
        else
            j++;
    }
    return -1;
}
