/* Ranking and unranking (Jaap Scherphuis, "Indexing: pseudo-code examples",
 * Jaap's Puzzle Page): each scheme numbers the arrangements of one part of a
 * puzzle 0..N-1 so that whole puzzles fit in tables indexed by number.
 *
 * Permutations are numbered by their Lehmer code read as a mixed-radix
 * number: digit i counts the items after place i that are smaller than
 * p[i], and has radix n-i.  Jaap's pseudo-code counts those with an inner
 * loop, which makes rank quadratic.  The same count is "how many of the items
 * not yet used are smaller than p[i]", and with the unused items kept as the
 * set bits of one word that is a single popcount:
 *
 *     p = 2 0 3 1     unused 1111 -> digit popcount(1111 & 0011) = 2
 *                     unused 1011 -> digit popcount(1011 & 0001) = 1, ...
 *
 * so rank is linear.  Unrank needs the reverse, "the d-th unused item"; the
 * unused items are kept as a list of 4-bit numbers packed in one 64-bit word
 * (n <= 16), where taking out the d-th costs two shifts and a mask.  Larger
 * n fall back to clearing the lowest set bit d times.  The quadratic
 * versions, against which the tests check these, are tests/rank_ref.h. */
#include "sbfs/rank.h"

#include <stddef.h>

#include "binom_tab.h"
#include "rank_internal.h"

/* Every function checks its sizes first (one or two compares) and, where
 * an entry of an array is used as a shift count or an index, that entry
 * too; a rank that fails says so with SB_RANK_BAD, an unrank with
 * SB_EUSAGE, before anything is written. */

static const uint64_t fact_tab[21] = {
    1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880, 3628800, 39916800, 479001600,
    UINT64_C(6227020800), UINT64_C(87178291200), UINT64_C(1307674368000),
    UINT64_C(20922789888000), UINT64_C(355687428096000), UINT64_C(6402373705728000),
    UINT64_C(121645100408832000), UINT64_C(2432902008176640000)};

uint64_t sb_factorial(int n)
{
    return n >= 0 && n <= 20 ? fact_tab[n] : 0;
}

uint64_t sb_falling(int n, int k)
{
    uint64_t f = 1;
    if (k < 0 || k > n)
        return 0;
    for (int i = 0; i < k; i++) {
        if (f > UINT64_MAX / (uint64_t)(n - i))
            return 0;
        f *= (uint64_t)(n - i);
    }
    return f;
}

uint64_t sb_binom(int n, int k)
{
    if (n < 0 || n > 64 || k < 0 || k > n)
        return 0;
    return binom_tab[n * (n + 1) / 2 + k];
}

/* v^n, or 0 when v is outside 1..256, n < 0 or v^n does not fit in 64
 * bits.  One division for the whole product, not one per factor. */
static uint64_t power(int v, int n)
{
    uint64_t t = 1, limit;
    if (v < 1 || v > 256 || n < 0)
        return 0;
    limit = UINT64_MAX / (uint64_t)v;
    for (int i = 0; i < n; i++) {
        if (t > limit)
            return 0;
        t *= (uint64_t)v;
    }
    return t;
}

/* 1 when p[0..k-1] are distinct items below n (n <= 32). */
static int distinct_below(const uint8_t *p, int k, int n)
{
    uint32_t seen = 0;
    for (int i = 0; i < k; i++) {
        if (p[i] >= n || (seen >> p[i] & 1))
            return 0;
        seen |= 1u << p[i];
    }
    return 1;
}

static int popcount32(uint32_t x)
{
#if defined(__GNUC__)
    return __builtin_popcount(x);
#else
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
#endif
}

static int ctz32(uint32_t x)
{
#if defined(__GNUC__)
    return __builtin_ctz(x);
#else
    int c = 0;
    while (!(x & 1))
        x >>= 1, c++;
    return c;
#endif
}

/* The d-th (from 0) set bit of x, which has more than d of them. */
static int select_bit(uint32_t x, int d)
{
    while (d-- > 0)
        x &= x - 1;
    return ctz32(x);
}

/* ceil(2^32 / d) for d = 1..32 (index 0 unused). */
static const uint64_t recip32[33] = {
    0, 0x100000000ull, 0x80000000ull, 0x55555556ull, 0x40000000ull, 0x33333334ull,
    0x2aaaaaabull, 0x24924925ull, 0x20000000ull, 0x1c71c71dull, 0x1999999aull, 0x1745d175ull,
    0x15555556ull, 0x13b13b14ull, 0x12492493ull, 0x11111112ull, 0x10000000ull, 0xf0f0f10ull,
    0xe38e38full, 0xd79435full, 0xccccccdull, 0xc30c30dull, 0xba2e8bbull, 0xb21642dull,
    0xaaaaaabull, 0xa3d70a4ull, 0x9d89d8aull, 0x97b425full, 0x924924aull, 0x8d3dcb1ull,
    0x8888889ull, 0x8421085ull, 0x8000000ull,
};

/* Mixed-radix digits: d[i] = digit of radix n-i for i = cnt-1 down to 0,
 * the last (lowest) digit first.  Division by a variable is slow, and
 * 64-bit division slower still, so once r fits in 32 bits (at the latest
 * after the first few digits of a 20-item rank) the quotient comes from a
 * multiplication by ceil(2^32 / radix): for x < 2^32 the product shifted
 * down by 32 is x / radix or one more, and one comparison settles which. */
static void radix_digits(uint64_t r, uint8_t *d, int n, int cnt)
{
    int i = cnt - 1;
    for (; i >= 0 && r > UINT32_MAX; i--) {
        uint64_t radix = (uint64_t)(n - i);
        d[i] = (uint8_t)(r % radix);
        r /= radix;
    }
    for (; i >= 0; i--) {
        uint64_t radix = (uint64_t)(n - i), m = recip32[n - i];
        uint64_t q = (r * m) >> 32;
        if (q * radix > r)
            q--;
        d[i] = (uint8_t)(r - q * radix);
        r = q;
    }
}

/* ---- permutations --------------------------------------------------- */

uint64_t sb_rank_perm(const uint8_t *p, int n)
{
    uint32_t unused, hi = 0;
    uint64_t r = 0;
    if (n < 0 || n > 20 || (!p && n))
        return SB_RANK_BAD;
    unused = (1u << n) - 1;
    for (int i = 0; i < n; i++) {
        uint32_t bit = 1u << (p[i] & 31), below = bit - 1;
        hi |= p[i];
        r = r * (uint64_t)(n - i) + (uint64_t)popcount32(unused & below);
        unused &= ~bit;
    }
    /* The check costs one OR an item: n items clear all n bits of unused
     * only when they are n different items below n, provided none is 32 or
     * more (masked to 5 bits, 33 would pass for 1). */
    return unused || hi >= 32 ? SB_RANK_BAD : r;
}

/* Fill p[0..k-1]: p[i] is the d[i]-th smallest item of `unused` not taken
 * by p[0..i-1].  The packed list needs every unused item below 16. */
static void digits_to_items(const uint8_t *d, uint8_t *p, int k, uint32_t unused)
{
    if (unused < (1u << 16)) {
        /* list of unused items, 4 bits each, smallest in the low nibble */
        uint64_t list = 0;
        int cnt = 0;
        if ((unused & (unused + 1)) == 0) {
            /* 0..n-1, the usual case: the list is a constant's low nibbles */
            int n = popcount32(unused);
            list = n == 16 ? UINT64_C(0xfedcba9876543210)
                           : UINT64_C(0xfedcba9876543210) & ((UINT64_C(1) << (4 * n)) - 1);
        } else {
            for (uint32_t u = unused; u; u &= u - 1)
                list |= (uint64_t)ctz32(u) << (4 * cnt++);
        }
        for (int i = 0; i < k; i++) {
            /* take nibble d[i] out: the ones above it move down by 4 */
            int s = 4 * d[i];
            uint64_t below = (UINT64_C(1) << s) - 1;
            p[i] = (uint8_t)((list >> s) & 15);
            list = (list & below) | ((list >> 4) & ~below);
        }
        return;
    }
    for (int i = 0; i < k; i++) {
        int item = select_bit(unused, d[i]);
        p[i] = (uint8_t)item;
        unused &= ~(1u << item);
    }
}

int sb_unrank_perm(uint64_t r, uint8_t *p, int n)
{
    uint8_t d[32];
    if (n < 0 || n > 20 || (!p && n) || r >= fact_tab[n])
        return SB_EUSAGE;
    radix_digits(r, d, n, n);
    digits_to_items(d, p, n, (1u << n) - 1);
    return 0;
}

int sb_perm_digits(uint64_t r, uint8_t *d, int n)
{
    if (n < 0 || n > 20 || (!d && n) || r >= fact_tab[n])
        return SB_EUSAGE;
    radix_digits(r, d, n, n);
    return 0;
}

int sb_perm_from_digits(const uint8_t *d, uint8_t *p, int n)
{
    uint8_t over = 0;
    if (n < 0 || n > 20 || (!(d && p) && n))
        return SB_EUSAGE;
    /* digit i must pick one of the n-i items left: d[i] + i < n */
    for (int i = 0; i < n; i++)
        over |= (uint8_t)(d[i] + i >= n);
    if (over)
        return SB_EUSAGE;
    digits_to_items(d, p, n, (1u << n) - 1);
    return 0;
}

/* Jaap's pseudo-code as it stands, shifted to count from 0. */
/* The parity of a permutation is the parity of the sum of its Lehmer
 * digits (each digit counts inversions), so it is one popcount per place. */
int sb_perm_parity(const uint8_t *p, int n)
{
    uint32_t unused = (n >= 32) ? 0xffffffffu : ((1u << n) - 1);
    int s = 0;
    if (n < 0 || n > 32 || (!p && n) || !distinct_below(p, n, n))
        return SB_EUSAGE;
    for (int i = 0; i < n; i++) {
        s += popcount32(unused & ((1u << p[i]) - 1));
        unused &= ~(1u << p[i]);
    }
    return s & 1;
}

/* Even permutations: the last two Lehmer digits are a 0/1 digit and a 0
 * digit, and the 0/1 one is fixed by the parity, so the even rank is the
 * full rank with those two digits dropped (Jaap: "do not encode the
 * position of the last two pieces"). */
uint64_t sb_rank_perm_even(const uint8_t *p, int n)
{
    uint32_t unused, hi = 0;
    uint64_t r = 0;
    if (n < 2 || n > 20 || !p)
        return SB_RANK_BAD;
    unused = (1u << n) - 1;
    for (int i = 0; i < n - 2; i++) {
        uint32_t bit = 1u << (p[i] & 31);
        hi |= p[i];
        r = r * (uint64_t)(n - i) + (uint64_t)popcount32(unused & (bit - 1));
        unused &= ~bit;
    }
    /* as in sb_rank_perm: n-2 good items leave exactly two bits */
    return popcount32(unused) != 2 || hi >= 32 ? SB_RANK_BAD : r;
}

int sb_unrank_perm_even(uint64_t r, uint8_t *p, int n)
{
    uint8_t d[32];
    int s = 0;
    if (n < 2 || n > 20 || !p || r >= fact_tab[n] / 2)
        return SB_EUSAGE;
    d[n - 1] = 0;
    radix_digits(r, d, n, n - 2);
    for (int i = 0; i < n - 2; i++)
        s += d[i];
    /* the odd digit sum is made even by the second-last digit */
    d[n - 2] = (uint8_t)(s & 1);
    digits_to_items(d, p, n, (1u << n) - 1);
    return 0;
}

/* ---- orientations --------------------------------------------------- */

/* 1 when 1 <= v <= 256, n >= 0 and v^n fits in 64 bits.  Ranks are cheap
 * (a multiply-add an item), so the usual case is settled without a loop:
 * v^n < 2^(n * b) when v <= 2^b, which fits when n * b <= 63. */
static int orient_fits(int v, int n)
{
    int b = 0;
    if (v < 1 || v > 256 || n < 0)
        return 0;
    while ((1 << b) < v)
        b++;
    return n * b <= 63 || power(v, n) != 0;
}

uint64_t sb_rank_orient(const uint8_t *o, int n, int v)
{
    uint64_t t = 0;
    int over = 0;
    if (!orient_fits(v, n) || (!o && n))
        return SB_RANK_BAD;
    for (int i = 0; i < n; i++) {
        over |= o[i] >= v;
        t = t * (uint64_t)v + o[i];
    }
    return over ? SB_RANK_BAD : t;
}

int sb_unrank_orient(uint64_t t, uint8_t *o, int n, int v)
{
    uint64_t count = power(v, n);
    if (!count || (!o && n) || t >= count)
        return SB_EUSAGE;
    for (int i = n - 1; i >= 0; i--) {
        o[i] = (uint8_t)(t % (uint64_t)v);
        t /= (uint64_t)v;
    }
    return 0;
}

uint64_t sb_rank_orient_sum0(const uint8_t *o, int n, int v)
{
    if (n < 1)
        return SB_RANK_BAD;
    return sb_rank_orient(o, n - 1, v);
}

int sb_unrank_orient_sum0(uint64_t t, uint8_t *o, int n, int v)
{
    int s = 0;
    uint64_t count = n < 1 ? 0 : power(v, n - 1);
    if (!count || !o || t >= count)
        return SB_EUSAGE;
    for (int i = n - 2; i >= 0; i--) {
        o[i] = (uint8_t)(t % (uint64_t)v);
        s += o[i];
        t /= (uint64_t)v;
    }
    o[n - 1] = (uint8_t)((v - s % v) % v);
    return 0;
}

/* ---- combinations --------------------------------------------------- */

/* The combinatorial number system: a piece in place i, with r pieces in
 * places 0..i (itself included), adds C(i, r).  Pieces in 0..m-1 add
 * C(i, i+1) = 0 each; pieces in the top m places add up to C(n,m)-1. */
uint64_t sb_rank_comb(const uint8_t *occ, int n, int m)
{
    uint64_t t = 0;
    int r = m, pieces = 0;
    if (n < 0 || n > 64 || m < 0 || m > n || (!occ && n))
        return SB_RANK_BAD;
    for (int i = 0; i < n; i++)
        pieces += occ[i] != 0;
    if (pieces != m)
        return SB_RANK_BAD;
    for (int i = n - 1; i >= 0 && r > 0; i--)
        if (occ[i]) {
            t += sb_binom(i, r);
            r--;
        }
    return t;
}

int sb_unrank_comb(uint64_t t, uint8_t *occ, int n, int m)
{
    int r = m;
    if (n < 0 || n > 64 || m < 0 || m > n || (!occ && n) || t >= sb_binom(n, m))
        return SB_EUSAGE;
    for (int i = n - 1; i >= 0; i--) {
        uint64_t c = sb_binom(i, r);
        if (r > 0 && t >= c) {
            t -= c;
            occ[i] = 1;
            r--;
        } else {
            occ[i] = 0;
        }
    }
    return 0;
}

/* ---- partial permutations ------------------------------------------- */

/* 1 when 0 <= k <= n <= 32 and n!/(n-k)! fits in 64 bits: always for
 * n <= 20, else for k up to max_k[n - 21] (by a table, since this is
 * checked on every rank). */
static int partial_fits(int n, int k)
{
    static const uint8_t max_k[12] = {18, 17, 16, 16, 15, 15, 14, 14, 14, 14, 13, 13};
    return n >= 0 && n <= 32 && k >= 0 && k <= n && (n <= 20 || k <= max_k[n - 21]);
}

/* A permutation cut short: digit i is the number of free places below
 * pos[i], radix n-i, for the k pieces only. */
uint64_t sb_rank_partial(const uint8_t *pos, int n, int k)
{
    uint32_t unused = (n >= 32) ? 0xffffffffu : ((1u << n) - 1), hi = 0;
    uint64_t r = 0;
    if (!partial_fits(n, k) || (!pos && k))
        return SB_RANK_BAD;
    for (int i = 0; i < k; i++) {
        uint32_t bit = 1u << (pos[i] & 31), below = bit - 1;
        hi |= pos[i];
        r = r * (uint64_t)(n - i) + (uint64_t)popcount32(unused & below);
        unused &= ~bit;
    }
    /* as in sb_rank_perm: k good pieces leave exactly n-k bits */
    return popcount32(unused) != n - k || hi >= 32 ? SB_RANK_BAD : r;
}

int sb_unrank_partial(uint64_t r, uint8_t *pos, int n, int k)
{
    uint8_t d[32];
    uint32_t unused = (n >= 32) ? 0xffffffffu : ((1u << n) - 1);
    if (!partial_fits(n, k) || (!pos && k) || r >= sb_falling(n, k))
        return SB_EUSAGE;
    radix_digits(r, d, n, k);
    digits_to_items(d, pos, k, unused);
    return 0;
}

/* ---- multiset permutations ------------------------------------------ */

/* a * b / c for a result known to be a whole number, without forming a * b
 * (which may pass 2^64): a = q c + t gives q b + t b / c, where t b < c b
 * is small and t b / c is exact because the total and q b are whole. */
static uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t q = a / c, t = a % c;
    return q * b + t * b / c;
}

uint64_t sb_count_multiset(const int *count, int kinds)
{
    /* product of binomials C(placed + c, c), each built as a running
     * multinomial: total * (placed + 1) / (j + 1), overflow-checked */
    uint64_t total = 1;
    int placed = 0;
    if (!count || kinds < 1 || kinds > 16)
        return 0;
    for (int j = 0; j < kinds; j++)
        if (count[j] < 0 || count[j] > 64)
            return 0;
    for (int j = 0; j < kinds; j++)
        for (int i = 0; i < count[j]; i++) {
            uint64_t f = (uint64_t)(placed + 1), q = total / (uint64_t)(i + 1);
            /* total * f / (i+1) = q*f + (total % (i+1)) * f / (i+1) */
            if (q > UINT64_MAX / f)
                return 0;
            {
                uint64_t a = q * f, b = (total % (uint64_t)(i + 1)) * f / (uint64_t)(i + 1);
                if (a > UINT64_MAX - b)
                    return 0;
                total = a + b;
            }
            placed++;
        }
    return total;
}

/* Lexicographic rank: at each place, every kind smaller than the one there
 * (and still available) would have started a block of arrangements of the
 * rest; the block for kind c is total * cnt[c] / rem. */
/* 1 when count[0..kinds) adds up to n and (a not NULL) a holds exactly
 * count[j] pieces of kind j; count and kinds are checked by the caller. */
static int multiset_ok(const uint8_t *a, int n, const int *count, int kinds)
{
    int cnt[16] = {0}, sum = 0;
    for (int j = 0; j < kinds; j++)
        sum += count[j];
    if (sum != n)
        return 0;
    if (!a)
        return 1;
    for (int i = 0; i < n; i++) {
        if (a[i] >= kinds)
            return 0;
        cnt[a[i]]++;
    }
    for (int j = 0; j < kinds; j++)
        if (cnt[j] != count[j])
            return 0;
    return 1;
}

uint64_t sb_rank_multiset(const uint8_t *a, int n, const int *count, int kinds)
{
    int cnt[16];
    uint64_t total = sb_count_multiset(count, kinds), r = 0;
    if (!total || !a || !multiset_ok(a, n, count, kinds))
        return SB_RANK_BAD;
    for (int j = 0; j < kinds; j++)
        cnt[j] = count[j];
    for (int i = 0, rem = n; i < n; i++, rem--) {
        int k = a[i], below = 0;
        for (int c = 0; c < k; c++)
            below += cnt[c];
        if (below)
            r += muldiv(total, (uint64_t)below, (uint64_t)rem);
        total = muldiv(total, (uint64_t)cnt[k], (uint64_t)rem);
        cnt[k]--;
    }
    return r;
}

int sb_unrank_multiset(uint64_t r, uint8_t *a, int n, const int *count, int kinds)
{
    int cnt[16];
    uint64_t total = sb_count_multiset(count, kinds);
    if (!total || !a || r >= total || !multiset_ok(NULL, n, count, kinds))
        return SB_EUSAGE;
    for (int j = 0; j < kinds; j++)
        cnt[j] = count[j];
    for (int i = 0, rem = n; i < n; i++, rem--) {
        int c, last = 0;
        for (c = 0; c < kinds; c++)
            if (cnt[c])
                last = c;
        for (c = 0; c < last; c++) {
            uint64_t block;
            if (!cnt[c])
                continue;
            block = muldiv(total, (uint64_t)cnt[c], (uint64_t)rem);
            if (r < block)
                break;
            r -= block;
        }
        total = muldiv(total, (uint64_t)cnt[c], (uint64_t)rem);
        a[i] = (uint8_t)c;
        cnt[c]--;
    }
    return 0;
}

/* ---- one entry point over the schemes ------------------------------- */

uint64_t sb_rank_count(const sb_ranking *s)
{
    int sum = 0;
    if (!s || s->n < 0)
        return 0;
    switch (s->scheme) {
    case SB_RANK_PERM:
        return s->n <= 20 ? sb_factorial(s->n) : 0;
    case SB_RANK_PERM_EVEN:
        return s->n >= 2 && s->n <= 20 ? sb_factorial(s->n) / 2 : 0;
    case SB_RANK_ORIENT:
        return power(s->k, s->n);
    case SB_RANK_ORIENT_SUM0:
        return s->n >= 1 ? power(s->k, s->n - 1) : 0;
    case SB_RANK_COMB:
        return s->n <= 64 ? sb_binom(s->n, s->k) : 0;
    case SB_RANK_PARTIAL:
        return s->n <= 32 ? sb_falling(s->n, s->k) : 0;
    case SB_RANK_MULTISET:
        if (!s->count || s->k < 1 || s->k > 16)
            return 0;
        for (int j = 0; j < s->k; j++)
            sum += s->count[j] >= 0 && s->count[j] <= 64 ? s->count[j] : 65 * 16;
        return sum == s->n ? sb_count_multiset(s->count, s->k) : 0;
    }
    return 0;
}

uint64_t sb_rank(const sb_ranking *s, const uint8_t *a)
{
    if (!sb_rank_count(s))
        return SB_RANK_BAD;
    switch (s->scheme) {
    case SB_RANK_PERM:
        return sb_rank_perm(a, s->n);
    case SB_RANK_PERM_EVEN:
        return sb_rank_perm_even(a, s->n);
    case SB_RANK_ORIENT:
        return sb_rank_orient(a, s->n, s->k);
    case SB_RANK_ORIENT_SUM0:
        return sb_rank_orient_sum0(a, s->n, s->k);
    case SB_RANK_COMB:
        return sb_rank_comb(a, s->n, s->k);
    case SB_RANK_PARTIAL:
        return sb_rank_partial(a, s->n, s->k);
    default:
        return sb_rank_multiset(a, s->n, s->count, s->k);
    }
}

int sb_unrank(const sb_ranking *s, uint64_t r, uint8_t *a)
{
    if (!sb_rank_count(s))
        return SB_EUSAGE;
    switch (s->scheme) {
    case SB_RANK_PERM:
        return sb_unrank_perm(r, a, s->n);
    case SB_RANK_PERM_EVEN:
        return sb_unrank_perm_even(r, a, s->n);
    case SB_RANK_ORIENT:
        return sb_unrank_orient(r, a, s->n, s->k);
    case SB_RANK_ORIENT_SUM0:
        return sb_unrank_orient_sum0(r, a, s->n, s->k);
    case SB_RANK_COMB:
        return sb_unrank_comb(r, a, s->n, s->k);
    case SB_RANK_PARTIAL:
        return sb_unrank_partial(r, a, s->n, s->k);
    default:
        return sb_unrank_multiset(r, a, s->n, s->count, s->k);
    }
}
