/* Tests of the ranking schemes.  The lexicographic schemes are checked
 * against an independent enumeration in lexicographic order (the k-th
 * arrangement produced must rank to k), which proves rank a bijection onto
 * 0..N-1 and unrank its inverse; the others against a "seen" bitmap.  Small
 * n exhaustively, large n by random round trips and against the quadratic
 * reference versions. */
#include "harness.h"
#include "sbfs/core.h"
#include "sbfs/rank.h"
#include "../src/index/rank_internal.h"
#include "rank_ref.h"

static int same(const uint8_t *a, const uint8_t *b, int n)
{
    return memcmp(a, b, (size_t)n) == 0;
}

static void test_counts(void)
{
    CHECK_U64(sb_factorial(0), 1);
    CHECK_U64(sb_factorial(9), 362880);
    CHECK_U64(sb_factorial(20), UINT64_C(2432902008176640000));
    CHECK_U64(sb_falling(16, 8), UINT64_C(518918400));
    CHECK_U64(sb_falling(5, 0), 1);
    CHECK_U64(sb_binom(64, 32), UINT64_C(1832624140942590534));
    CHECK_U64(sb_binom(5, 7), 0);
    CHECK_U64(sb_binom(5, -1), 0);
    /* every entry of the table obeys Pascal's rule */
    int bad = 0;
    for (int n = 1; n <= 64; n++)
        for (int k = 0; k <= n; k++) {
            uint64_t want = (k ? sb_binom(n - 1, k - 1) : 0) + sb_binom(n - 1, k);
            if (sb_binom(n, k) != want)
                bad++;
        }
    CHECK_INT(bad, 0);
}

/* ---- permutations and partial permutations by depth-first enumeration:
 * at depth k the prefix is a k-of-n partial permutation, and prefixes of
 * one length are met in lexicographic order. */
typedef struct enum_state {
    int n;
    uint8_t pos[20];
    uint8_t used[20];
    uint64_t seen[21];      /* prefixes of each length met so far */
    uint64_t seen_even;     /* even full permutations met so far */
    int bad_partial, bad_perm, bad_even, bad_parity;
} enum_state;

static int naive_parity(const uint8_t *p, int n)
{
    int inv = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            inv += p[i] > p[j];
    return inv & 1;
}

static void visit(enum_state *s, int k)
{
    uint8_t back[20];
    int n = s->n;
    uint64_t want = s->seen[k]++;
    if (sb_rank_partial(s->pos, n, k) != want)
        s->bad_partial++;
    sb_unrank_partial(want, back, n, k);
    if (!same(back, s->pos, k))
        s->bad_partial++;
    if (k == n) {
        if (sb_rank_perm(s->pos, n) != want || rank_perm_ref(s->pos, n) != want)
            s->bad_perm++;
        sb_unrank_perm(want, back, n);
        if (!same(back, s->pos, n))
            s->bad_perm++;
        unrank_perm_ref(want, back, n);
        if (!same(back, s->pos, n))
            s->bad_perm++;
        {
            uint8_t d[20];
            uint64_t r = 0;
            sb_perm_digits(want, d, n);
            sb_perm_from_digits(d, back, n);
            for (int i = 0; i < n; i++)
                r = r * (uint64_t)(n - i) + d[i];
            if (!same(back, s->pos, n) || r != want)
                s->bad_perm++;
        }
        if (sb_perm_parity(s->pos, n) != naive_parity(s->pos, n))
            s->bad_parity++;
        if (n >= 2 && !naive_parity(s->pos, n)) {
            uint64_t e = s->seen_even++;
            if (sb_rank_perm_even(s->pos, n) != e)
                s->bad_even++;
            sb_unrank_perm_even(e, back, n);
            if (!same(back, s->pos, n))
                s->bad_even++;
        }
        return;
    }
    for (int place = 0; place < n; place++) {
        if (s->used[place])
            continue;
        s->used[place] = 1;
        s->pos[k] = (uint8_t)place;
        visit(s, k + 1);
        s->used[place] = 0;
    }
}

static void test_perm_exhaustive(void)
{
    for (int n = 0; n <= 9; n++) {
        enum_state s;
        memset(&s, 0, sizeof s);
        s.n = n;
        visit(&s, 0);
        CHECK_INT(s.bad_partial, 0);
        CHECK_INT(s.bad_perm, 0);
        CHECK_INT(s.bad_even, 0);
        CHECK_INT(s.bad_parity, 0);
        CHECK_U64(s.seen[n], sb_factorial(n));
        for (int k = 0; k <= n; k++)
            CHECK_U64(s.seen[k], sb_falling(n, k));
        if (n >= 2)
            CHECK_U64(s.seen_even, sb_factorial(n) / 2);
    }
}

static void test_perm_fixed_points(void)
{
    uint8_t id[20], rev[20], p[20];
    for (int i = 0; i < 20; i++)
        id[i] = (uint8_t)i, rev[i] = (uint8_t)(19 - i);
    CHECK_U64(sb_rank_perm(id, 20), 0);
    CHECK_U64(sb_rank_perm(rev, 20), sb_factorial(20) - 1);
    CHECK_U64(sb_rank_perm_even(id, 20), 0);
    sb_unrank_perm(sb_factorial(20) - 1, p, 20);
    CHECK(same(p, rev, 20));
    sb_unrank_perm_even(0, p, 12);
    CHECK(same(p, id, 12));
    /* 2 0 3 1: digits 2 0 1 0 -> 2*6 + 0*2 + 1 = 13 */
    {
        const uint8_t q[4] = {2, 0, 3, 1};
        CHECK_U64(sb_rank_perm(q, 4), 13);
        CHECK_INT(sb_perm_parity(q, 4), 1);
    }
}

static void random_perm(sb_rng *r, uint8_t *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)sb_rng_below(r, (uint64_t)i + 1);
        uint8_t t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

static void test_perm_random(void)
{
    sb_rng rng;
    int bad = 0, bad_even = 0, bad_partial = 0;
    sb_rng_seed(&rng, 5);
    for (int n = 10; n <= 20; n++)
        for (int t = 0; t < 2000; t++) {
            uint8_t p[32], q[32];
            uint64_t r;
            random_perm(&rng, p, n);
            r = sb_rank_perm(p, n);
            if (r != rank_perm_ref(p, n) || r >= sb_factorial(n))
                bad++;
            sb_unrank_perm(r, q, n);
            if (!same(p, q, n))
                bad++;
            r = sb_rng_below(&rng, sb_factorial(n));
            sb_unrank_perm(r, p, n);
            unrank_perm_ref(r, q, n);
            if (!same(p, q, n) || sb_rank_perm(p, n) != r)
                bad++;
            /* even: unrank gives an even permutation that ranks back */
            r = sb_rng_below(&rng, sb_factorial(n) / 2);
            sb_unrank_perm_even(r, p, n);
            if (sb_perm_parity(p, n) != 0 || naive_parity(p, n) != 0 || sb_rank_perm_even(p, n) != r)
                bad_even++;
            /* the even rank is the full rank halved */
            if (sb_rank_perm(p, n) / 2 != r)
                bad_even++;
            /* partial: k pieces of a random permutation of n places */
            {
                int k = (int)sb_rng_below(&rng, (uint64_t)n + 1);
                random_perm(&rng, p, n);
                r = sb_rank_partial(p, n, k);
                if (r >= sb_falling(n, k))
                    bad_partial++;
                sb_unrank_partial(r, q, n, k);
                if (!same(p, q, k))
                    bad_partial++;
            }
        }
    /* partial permutations of up to 32 places */
    for (int t = 0; t < 20000; t++) {
        int n = 17 + (int)sb_rng_below(&rng, 16), k = 1 + (int)sb_rng_below(&rng, 8);
        uint8_t p[32], q[32];
        uint64_t r;
        random_perm(&rng, p, n);
        r = sb_rank_partial(p, n, k);
        sb_unrank_partial(r, q, n, k);
        if (!same(p, q, k) || r >= sb_falling(n, k))
            bad_partial++;
    }
    CHECK_INT(bad, 0);
    CHECK_INT(bad_even, 0);
    CHECK_INT(bad_partial, 0);
}

/* ---- orientations: counting in base v is lexicographic order ---- */
static void test_orient(void)
{
    for (int v = 2; v <= 4; v++)
        for (int n = 1; n <= 8; n++) {
            uint8_t o[8] = {0}, back[8];
            uint64_t total = 1, k0 = 0;
            int bad = 0, bad0 = 0;
            for (int i = 0; i < n; i++)
                total *= (uint64_t)v;
            for (uint64_t k = 0; k < total; k++) {
                int s = 0;
                if (sb_rank_orient(o, n, v) != k)
                    bad++;
                sb_unrank_orient(k, back, n, v);
                if (!same(o, back, n))
                    bad++;
                for (int i = 0; i < n; i++)
                    s += o[i];
                if (s % v == 0) {
                    if (sb_rank_orient_sum0(o, n, v) != k0)
                        bad0++;
                    sb_unrank_orient_sum0(k0, back, n, v);
                    if (!same(o, back, n))
                        bad0++;
                    k0++;
                }
                for (int i = n - 1; i >= 0; i--) { /* next in base v */
                    if (++o[i] < v)
                        break;
                    o[i] = 0;
                }
            }
            CHECK_INT(bad, 0);
            CHECK_INT(bad0, 0);
            CHECK_U64(k0, total / (uint64_t)v);
        }
    {
        uint8_t o[40], back[40];
        sb_rng rng;
        int bad = 0;
        sb_rng_seed(&rng, 7);
        for (int t = 0; t < 10000; t++) {
            int s = 0;
            for (int i = 0; i < 39; i++)
                o[i] = (uint8_t)sb_rng_below(&rng, 3), s += o[i];
            o[39] = (uint8_t)((3 - s % 3) % 3);
            sb_unrank_orient_sum0(sb_rank_orient_sum0(o, 40, 3), back, 40, 3);
            if (!same(o, back, 40))
                bad++;
            sb_unrank_orient(sb_rank_orient(o, 40, 3), back, 40, 3);
            if (!same(o, back, 40))
                bad++;
        }
        CHECK_INT(bad, 0);
    }
}

/* ---- combinations: every subset of size m gets its own rank < C(n,m) */
static void test_comb(void)
{
    static uint8_t seen[1 << 12];
    for (int n = 0; n <= 12; n++)
        for (int m = 0; m <= n; m++) {
            uint64_t want = sb_binom(n, m), hits = 0;
            int bad = 0;
            memset(seen, 0, sizeof seen);
            for (uint32_t mask = 0; mask < (1u << n); mask++) {
                uint8_t occ[12], back[12];
                uint64_t r;
                if (__builtin_popcount(mask) != m)
                    continue;
                for (int i = 0; i < n; i++)
                    occ[i] = (uint8_t)((mask >> i) & 1);
                r = sb_rank_comb(occ, n, m);
                if (r >= want || seen[r]++)
                    bad++;
                sb_unrank_comb(r, back, n, m);
                if (!same(occ, back, n))
                    bad++;
                if (mask == (1u << m) - 1 && r != 0)
                    bad++;
                hits++;
            }
            CHECK_INT(bad, 0);
            CHECK_U64(hits, want);
        }
    {
        sb_rng rng;
        int bad = 0;
        sb_rng_seed(&rng, 11);
        for (int t = 0; t < 20000; t++) {
            uint8_t occ[64], back[64];
            int n = 1 + (int)sb_rng_below(&rng, 64), m = 0;
            uint64_t r;
            for (int i = 0; i < n; i++)
                occ[i] = (uint8_t)sb_rng_below(&rng, 2), m += occ[i];
            r = sb_rank_comb(occ, n, m);
            sb_unrank_comb(r, back, n, m);
            if (!same(occ, back, n) || r >= sb_binom(n, m))
                bad++;
        }
        CHECK_INT(bad, 0);
    }
}

/* ---- multiset permutations against next-permutation order ---- */
static int next_perm(uint8_t *a, int n)
{
    int i = n - 2, j = n - 1;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return 0;
    while (a[j] <= a[i])
        j--;
    {
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    for (int l = i + 1, r = n - 1; l < r; l++, r--) {
        uint8_t t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return 1;
}

static void check_multiset(const int *count, int kinds)
{
    uint8_t a[16], back[16];
    int n = 0, bad = 0;
    uint64_t k = 0, total = sb_count_multiset(count, kinds);
    for (int j = 0; j < kinds; j++)
        for (int i = 0; i < count[j]; i++)
            a[n++] = (uint8_t)j;
    do {
        if (sb_rank_multiset(a, n, count, kinds) != k)
            bad++;
        sb_unrank_multiset(k, back, n, count, kinds);
        if (!same(a, back, n))
            bad++;
        k++;
    } while (next_perm(a, n));
    CHECK_INT(bad, 0);
    CHECK_U64(k, total);
}

static void test_multiset(void)
{
    static const int c1[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    static const int c2[] = {3, 3, 3};
    static const int c3[] = {4, 1, 2, 2};
    static const int c4[] = {8, 1};
    static const int c5[] = {0, 2, 0, 3, 4};
    static const int c6[] = {9};
    static const int c7[] = {2, 2, 2, 2, 1};
    check_multiset(c1, 9);
    check_multiset(c2, 3);
    check_multiset(c3, 4);
    check_multiset(c4, 2);
    check_multiset(c5, 5);
    check_multiset(c6, 1);
    check_multiset(c7, 5);
    CHECK_U64(sb_count_multiset(c2, 3), 1680);
    {
        static const int big[] = {20, 20, 20, 20}; /* 80!/(20!)^4 > 2^64 */
        static const int fits[] = {8, 8, 7, 7};
        CHECK_U64(sb_count_multiset(big, 4), 0);
        CHECK_U64(sb_count_multiset(fits, 4), UINT64_C(6423296287122000));
    }
    /* random round trips on 30 places */
    {
        static const int cnt[] = {8, 8, 7, 7};
        sb_rng rng;
        int bad = 0;
        uint64_t total = sb_count_multiset(cnt, 4);
        sb_rng_seed(&rng, 13);
        for (int t = 0; t < 20000; t++) {
            uint8_t a[30], back[30];
            uint64_t r = sb_rng_below(&rng, total);
            sb_unrank_multiset(r, a, 30, cnt, 4);
            if (sb_rank_multiset(a, 30, cnt, 4) != r)
                bad++;
            sb_unrank_multiset(sb_rank_multiset(a, 30, cnt, 4), back, 30, cnt, 4);
            if (!same(a, back, 30))
                bad++;
        }
        CHECK_INT(bad, 0);
    }
}

/* The one entry point: for every scheme and small sizes, sb_rank_count is
 * the scheme's count, and sb_unrank / sb_rank give exactly what the
 * scheme's own functions give, rank by rank; sizes out of range are
 * refused with nothing written. */
static uint64_t own_rank(const sb_ranking *s, const uint8_t *a)
{
    switch (s->scheme) {
    case SB_RANK_PERM: return sb_rank_perm(a, s->n);
    case SB_RANK_PERM_EVEN: return sb_rank_perm_even(a, s->n);
    case SB_RANK_ORIENT: return sb_rank_orient(a, s->n, s->k);
    case SB_RANK_ORIENT_SUM0: return sb_rank_orient_sum0(a, s->n, s->k);
    case SB_RANK_COMB: return sb_rank_comb(a, s->n, s->k);
    case SB_RANK_PARTIAL: return sb_rank_partial(a, s->n, s->k);
    default: return sb_rank_multiset(a, s->n, s->count, s->k);
    }
}

static int own_unrank(const sb_ranking *s, uint64_t r, uint8_t *a)
{
    switch (s->scheme) {
    case SB_RANK_PERM: return sb_unrank_perm(r, a, s->n);
    case SB_RANK_PERM_EVEN: return sb_unrank_perm_even(r, a, s->n);
    case SB_RANK_ORIENT: return sb_unrank_orient(r, a, s->n, s->k);
    case SB_RANK_ORIENT_SUM0: return sb_unrank_orient_sum0(r, a, s->n, s->k);
    case SB_RANK_COMB: return sb_unrank_comb(r, a, s->n, s->k);
    case SB_RANK_PARTIAL: return sb_unrank_partial(r, a, s->n, s->k);
    default: return sb_unrank_multiset(r, a, s->n, s->count, s->k);
    }
}

static void test_entry_point(void)
{
    static const int c3[3] = {2, 1, 3}, c2[2] = {3, 3};
    static const struct {
        sb_ranking s;
        uint64_t count;
    } cases[] = {
        {{SB_RANK_PERM, 0, 0, NULL}, 1},        {{SB_RANK_PERM, 6, 0, NULL}, 720},
        {{SB_RANK_PERM_EVEN, 2, 0, NULL}, 1},   {{SB_RANK_PERM_EVEN, 6, 0, NULL}, 360},
        {{SB_RANK_ORIENT, 4, 3, NULL}, 81},     {{SB_RANK_ORIENT, 0, 5, NULL}, 1},
        {{SB_RANK_ORIENT_SUM0, 6, 2, NULL}, 32}, {{SB_RANK_ORIENT_SUM0, 1, 3, NULL}, 1},
        {{SB_RANK_COMB, 8, 3, NULL}, 56},       {{SB_RANK_COMB, 5, 0, NULL}, 1},
        {{SB_RANK_PARTIAL, 7, 3, NULL}, 210},   {{SB_RANK_PARTIAL, 4, 4, NULL}, 24},
        {{SB_RANK_MULTISET, 6, 3, c3}, 60},     {{SB_RANK_MULTISET, 6, 2, c2}, 20},
    };
    static const sb_ranking refused[] = {
        {SB_RANK_PERM, 21, 0, NULL},       {SB_RANK_PERM, -1, 0, NULL},
        {SB_RANK_PERM_EVEN, 1, 0, NULL},   {SB_RANK_ORIENT, 3, 0, NULL},
        {SB_RANK_ORIENT, 3, 257, NULL},    {SB_RANK_ORIENT, 65, 2, NULL},
        {SB_RANK_ORIENT_SUM0, 0, 3, NULL}, {SB_RANK_COMB, 65, 1, NULL},
        {SB_RANK_COMB, 4, 5, NULL},        {SB_RANK_PARTIAL, 33, 1, NULL},
        {SB_RANK_PARTIAL, 3, 4, NULL},     {SB_RANK_MULTISET, 7, 3, c3},
        {SB_RANK_MULTISET, 6, 3, NULL},    {SB_RANK_MULTISET, 6, 0, c3},
        {7, 3, 3, NULL},                   {-1, 3, 3, NULL},
    };
    uint8_t a[32], b[32];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const sb_ranking *s = &cases[c].s;
        uint64_t n = sb_rank_count(s), bad = 0;
        CHECK_U64(n, cases[c].count);
        for (uint64_t r = 0; r < n; r++) {
            memset(a, 0xee, sizeof a);
            memset(b, 0xee, sizeof b);
            bad += sb_unrank(s, r, a) != 0 || own_unrank(s, r, b) != 0 || memcmp(a, b, sizeof a) != 0;
            bad += sb_rank(s, a) != r || own_rank(s, a) != r;
        }
        CHECK_U64(bad, 0);
        memset(a, 0xee, sizeof a);
        CHECK_INT(sb_unrank(s, n, a), SB_EUSAGE);
        CHECK_INT(a[0], 0xee);
    }
    for (size_t c = 0; c < sizeof refused / sizeof refused[0]; c++) {
        memset(a, 0, sizeof a);
        CHECK_U64(sb_rank_count(&refused[c]), 0);
        CHECK_U64(sb_rank(&refused[c], a), SB_RANK_BAD);
        CHECK_INT(sb_unrank(&refused[c], 0, a), SB_EUSAGE);
    }
    CHECK_U64(sb_rank_count(NULL), 0);
    CHECK_U64(sb_rank(NULL, a), SB_RANK_BAD);
    CHECK_INT(sb_unrank(NULL, 0, a), SB_EUSAGE);
    CHECK_U64(sb_rank(&cases[1].s, NULL), SB_RANK_BAD);
    CHECK_INT(sb_unrank(&cases[1].s, 0, NULL), SB_EUSAGE);
}

int main(void)
{
    RUN(test_counts);
    RUN(test_perm_fixed_points);
    RUN(test_perm_exhaustive);
    RUN(test_perm_random);
    RUN(test_orient);
    RUN(test_comb);
    RUN(test_multiset);
    RUN(test_entry_point);
    return TEST_END();
}
