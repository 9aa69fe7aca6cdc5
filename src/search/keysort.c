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

/* The digits (word, shift) on which keys differ, in the bits of m (word 0). */
static int varying_digits(const uint64_t *a, uint64_t n, int kw, uint64_t m, int *dw, int *ds)
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
            if ((((orv[w] ^ andv[w]) & (w ? ~(uint64_t)0 : m)) >> sh) & (DSIZE - 1)) {
                dw[nd] = w;
                ds[nd] = sh;
                nd++;
            }
    return nd;
}

static inline __attribute__((always_inline)) uint64_t *sort_w(uint64_t *a, uint64_t *t, uint64_t n,
                                                             const int kw, uint64_t m)
{
    int dw[MAXDIG], ds[MAXDIG];
    if (n < 2)
        return a;
    int nd = varying_digits(a, n, kw, m, dw, ds);
    if (!nd)
        return a;
    uint32_t(*cnt)[DSIZE] = calloc((size_t)nd, sizeof *cnt); /* 8 KB a digit */
    if (!cnt)
        return NULL;
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t *k = a + i * kw;
        for (int j = 0; j < nd; j++)
            cnt[j][((k[dw[j]] & (dw[j] ? ~(uint64_t)0 : m)) >> ds[j]) & (DSIZE - 1)]++;
    }
    for (int j = 0; j < nd; j++) {
        uint32_t sum = 0, *c = cnt[j];
        for (unsigned b = 0; b < DSIZE; b++) {
            uint32_t v = c[b];
            c[b] = sum;
            sum += v;
        }
        const int w = dw[j], sh = ds[j];
        const uint64_t mw = w ? ~(uint64_t)0 : m;
        if (kw == 1) {
            for (uint64_t i = 0; i < n; i++) {
                uint64_t v = a[i];
                t[c[((v & mw) >> sh) & (DSIZE - 1)]++] = v;
            }
        } else {
            for (uint64_t i = 0; i < n; i++) {
                const uint64_t *k = a + i * kw;
                uint64_t *o = t + (uint64_t)c[((k[w] & mw) >> sh) & (DSIZE - 1)]++ * kw;
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

uint64_t *sb_keys_sort(uint64_t *a, uint64_t *t, uint64_t n, int kw, uint64_t m)
{
    if (kw == 1)
        return sort_w(a, t, n, 1, m);
    if (kw == 2)
        return sort_w(a, t, n, 2, ~(uint64_t)0);
    return sort_w(a, t, n, kw, ~(uint64_t)0);
}

/* The keys of two sorted arrays x and y, walked in step with increasing
 * keys: absent() says whether a key is in neither. */
typedef struct filter {
    const uint64_t *x, *y;
    uint64_t nx, ny, ix, iy;
} filter;

static inline __attribute__((always_inline)) int absent(filter *f, const uint64_t *k, const int kw)
{
    while (f->ix < f->nx && sb_key_cmp(f->x + f->ix * kw, k, kw) < 0)
        f->ix++;
    if (f->ix < f->nx && sb_key_cmp(f->x + f->ix * kw, k, kw) == 0)
        return 0;
    while (f->iy < f->ny && sb_key_cmp(f->y + f->iy * kw, k, kw) < 0)
        f->iy++;
    return !(f->iy < f->ny && sb_key_cmp(f->y + f->iy * kw, k, kw) == 0);
}

/* Append key to out[0..*o) unless it repeats the last key out holds or
 * f holds it. */
static inline __attribute__((always_inline)) void keep(uint64_t *out, uint64_t *o, const uint64_t *k,
                                                       filter *f, const int kw)
{
    if (*o && sb_key_cmp(out + (*o - 1) * kw, k, kw) == 0)
        return;
    if (!absent(f, k, kw))
        return;
    if (out + *o * kw != k)
        for (int w = 0; w < kw; w++)
            out[*o * kw + w] = k[w];
    (*o)++;
}

/* One word: the same without branches on the data, in passes.  Which
 * branch the walks above take is a coin toss for every key (is it new, is
 * it in level d?), and a mispredicted branch costs more than the compare.
 * Removing repeats keeps a key when it differs from the last one kept;
 * a minus b advances in a, in b or in both by the outcome of the
 * compare, as in a merge, and keeps a's key when it is the smaller:
 *   a = 1 3 5, b = 3 4: 1<3 keep 1; 3=3 skip, advance both; 5>4 advance b;
 *   b done: keep 5.  Result 1 5.
 * Keys compare on the bits of m; the bits outside m (the model's hints)
 * of repeats are OR-ed into the key kept. */
static uint64_t dedupe_1(uint64_t *a, uint64_t n, uint64_t m)
{
    if (!n)
        return 0;
    uint64_t o = 0, last = a[0];
    for (uint64_t i = 1; i < n; i++) {
        uint64_t v = a[i];
        int same = ((v ^ last) & m) == 0;
        a[o] = last;
        o += !same;
        last = same ? last | v : v;
    }
    a[o++] = last;
    return o;
}

static uint64_t minus_1(uint64_t *a, uint64_t n, const uint64_t *b, uint64_t nb, uint64_t m)
{
    uint64_t i = 0, j = 0, o = 0;
    while (i < n && j < nb) {
        uint64_t v = a[i], vm = v & m, um = b[j] & m;
        a[o] = v;
        o += vm < um;
        i += vm <= um;
        j += um <= vm;
    }
    while (i < n)
        a[o++] = a[i++];
    return o;
}

static inline __attribute__((always_inline)) uint64_t
uniq_w(uint64_t *a, uint64_t n, filter *f, const int kw)
{
    uint64_t o = 0;
    for (uint64_t i = 0; i < n; i++)
        keep(a, &o, a + i * kw, f, kw);
    return o;
}

uint64_t sb_keys_unique_minus(uint64_t *a, uint64_t n, const uint64_t *x, uint64_t nx,
                              const uint64_t *y, uint64_t ny, int kw, uint64_t m)
{
    filter f = {x, y, nx, ny, 0, 0};
    if (kw == 1)
        return minus_1(a, minus_1(a, dedupe_1(a, n, m), x, nx, m), y, ny, m);
    if (kw == 2)
        return uniq_w(a, n, &f, 2);
    return uniq_w(a, n, &f, kw);
}

uint64_t sb_keys_minus(uint64_t *a, uint64_t n, const uint64_t *x, uint64_t nx, const uint64_t *y,
                       uint64_t ny, int kw, uint64_t m)
{
    if (kw == 1)
        return minus_1(a, minus_1(a, n, x, nx, m), y, ny, m);
    return sb_keys_unique_minus(a, n, x, nx, y, ny, kw, m);
}

/* The heads of the k runs sit in an array that shrinks as runs run out,
 * so picking the least head needs no bounds tests.  k is the number of
 * runs of a level, a few per thread: too few for a heap. */
static inline __attribute__((always_inline)) uint64_t
merge_w(uint64_t *const *in, const uint64_t *n, int k, filter *f, uint64_t *out, const int kw)
{
    const uint64_t *at[64], *end[64];
    uint64_t o = 0;
    int m = 0;
    for (int j = 0; j < k; j++)
        if (n[j]) {
            at[m] = in[j];
            end[m] = in[j] + n[j] * kw;
            m++;
        }
    while (m) {
        int b = 0;
        for (int j = 1; j < m; j++)
            b = sb_key_cmp(at[j], at[b], kw) < 0 ? j : b;
        keep(out, &o, at[b], f, kw);
        at[b] += kw;
        if (at[b] == end[b]) {
            m--;
            at[b] = at[m];
            end[b] = end[m];
        }
    }
    return o;
}

/* One word, as merge_w, with keys compared on the bits of m and the hints
 * of repeats OR-ed together as in dedupe_1.  Picking the least head
 * compiles to a conditional move per run and no branch on the data (the
 * generic loop cost twice as much on the distinct-piece Klotski). */
static uint64_t merge_1(uint64_t *const *in, const uint64_t *n, int k, uint64_t *out, uint64_t m)
{
    const uint64_t *at[64], *end[64];
    uint64_t o = 0, last = 0;
    int c = 0, have = 0;
    for (int j = 0; j < k; j++)
        if (n[j]) {
            at[c] = in[j];
            end[c] = in[j] + n[j];
            c++;
        }
    while (c) {
        int b = 0;
        for (int j = 1; j < c; j++)
            b = (*at[j] & m) < (*at[b] & m) ? j : b;
        uint64_t v = *at[b];
        int same = have && ((v ^ last) & m) == 0;
        out[o] = last;
        o += have && !same;
        last = same ? last | v : v;
        have = 1;
        if (++at[b] == end[b]) {
            c--;
            at[b] = at[c];
            end[b] = end[c];
        }
    }
    if (have)
        out[o++] = last;
    return o;
}

uint64_t sb_keys_merge(uint64_t *const *in, const uint64_t *n, int k, const uint64_t *x, uint64_t nx,
                       const uint64_t *y, uint64_t ny, uint64_t *out, int kw, uint64_t m)
{
    filter f = {x, y, nx, ny, 0, 0};
    if (k > 64)
        k = 64;
    if (kw == 1)
        return minus_1(out, minus_1(out, merge_1(in, n, k, out, m), x, nx, m), y, ny, m);
    if (kw == 2)
        return merge_w(in, n, k, &f, out, 2);
    return merge_w(in, n, k, &f, out, kw);
}

/* Compare keys, one-word keys on the bits of m only. */
static inline int cmp_m(const uint64_t *a, const uint64_t *b, int kw, uint64_t m)
{
    if (kw == 1)
        return (a[0] & m) < (b[0] & m) ? -1 : (a[0] & m) > (b[0] & m);
    return sb_key_cmp(a, b, kw);
}

uint64_t sb_keys_lower(const uint64_t *a, uint64_t n, const uint64_t *key, int kw, uint64_t m)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (cmp_m(a + mid * kw, key, kw, m) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int64_t sb_keys_find(const uint64_t *a, uint64_t n, const uint64_t *key, int kw, uint64_t m)
{
    uint64_t i = sb_keys_lower(a, n, key, kw, m);
    return i < n && cmp_m(a + i * kw, key, kw, m) == 0 ? (int64_t)i : -1;
}

int64_t sb_keys_first_common(const uint64_t *a, uint64_t na, const uint64_t *b, uint64_t nb, int kw,
                             uint64_t m)
{
    uint64_t i = 0, j = 0;
    while (i < na && j < nb) {
        int c = cmp_m(a + i * kw, b + j * kw, kw, m);
        if (c == 0)
            return (int64_t)i;
        if (c < 0)
            i++;
        else
            j++;
    }
    return -1;
}
