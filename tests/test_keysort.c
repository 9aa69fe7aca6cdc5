/* The sorted-key operations of src/search/keysort.c against references
 * simple enough to trust: an insertion sort, and sets built by looking up
 * every key in every array one by one.  Inputs are random but shaped to
 * hit the edges: empty arrays, one run, thousands of tiny runs, all keys
 * equal, keys that differ only in their hint bits, a short array against
 * long ones (the galloping walk) and arrays of equal length (the walk in
 * step). */
#include "harness.h"
#include "sbfs/core.h"
#include "../src/search/keysort.h"
#include "../src/core/internal.h"

#define KW_MAX 3

typedef struct gen {
    sb_rng r;
    int kw;
    uint64_t m;     /* the state's bits of word 0 */
    uint64_t range; /* distinct states drawn from */
    int scatter;    /* one word: states spread over all the bits of m */
} gen;

/* A random key: a state below g->range (spread over every word) and, in
 * one-word keys, random hints above m. */
static void draw(gen *g, uint64_t *k)
{
    uint64_t s = sb_rng_below(&g->r, g->range);
    if (g->kw == 1) {
        /* the state in the low bits, or scattered over all of m */
        uint64_t v = (g->scatter ? s * 0x9E3779B97F4A7C15ull : s) & g->m;
        k[0] = v | (sb_rng_next(&g->r) & ~g->m);
        return;
    }
    /* more words: the state's bits go to the top word too, so that keys
     * equal in word 0 differ above it */
    for (int w = 0; w < g->kw; w++)
        k[w] = (s >> (w * 5)) ^ (w == g->kw - 1 ? s % 7 : 0);
    k[g->kw - 1] ^= s;
}

static int ref_cmp(const uint64_t *a, const uint64_t *b, int kw, uint64_t m)
{
    if (kw == 1)
        return (a[0] & m) < (b[0] & m) ? -1 : (a[0] & m) > (b[0] & m);
    return sb_key_cmp(a, b, kw);
}

/* A stable sort on the state: qsort on (key, place) pairs, the place
 * breaking ties. */
typedef struct tagged {
    uint64_t k[KW_MAX];
    uint64_t at;
} tagged;

static int ref_kw;
static uint64_t ref_m;

static int tagged_cmp(const void *p, const void *q)
{
    const tagged *a = p, *b = q;
    int c = ref_cmp(a->k, b->k, ref_kw, ref_m);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

static void ref_sort(uint64_t *a, uint64_t n, int kw, uint64_t m)
{
    tagged *t = malloc((n + 1) * sizeof *t);
    for (uint64_t i = 0; i < n; i++) {
        memcpy(t[i].k, a + i * kw, kw * 8);
        t[i].at = i;
    }
    ref_kw = kw;
    ref_m = m;
    qsort(t, n, sizeof *t, tagged_cmp);
    for (uint64_t i = 0; i < n; i++)
        memcpy(a + i * kw, t[i].k, kw * 8);
    free(t);
}

static int ref_has(const uint64_t *b, uint64_t nb, const uint64_t *k, int kw, uint64_t m)
{
    for (uint64_t j = 0; j < nb; j++)
        if (ref_cmp(b + j * kw, k, kw, m) == 0)
            return 1;
    return 0;
}

/* Sorted a: each state once with the OR of its copies' hints, and only
 * if x and y lack it.  Written to out; returns the count. */
static uint64_t ref_unique_minus(const uint64_t *a, uint64_t n, const uint64_t *x, uint64_t nx,
                                 const uint64_t *y, uint64_t ny, uint64_t *out, int kw, uint64_t m)
{
    uint64_t o = 0;
    for (uint64_t i = 0; i < n;) {
        uint64_t k[KW_MAX];
        memcpy(k, a + i * kw, kw * 8);
        uint64_t j = i + 1;
        for (; j < n && ref_cmp(a + j * kw, k, kw, m) == 0; j++)
            k[0] |= a[j * kw];
        if (!ref_has(x, nx, k, kw, m) && !ref_has(y, ny, k, kw, m))
            memcpy(out + o++ * kw, k, kw * 8);
        i = j;
    }
    return o;
}

/* n random keys, sorted and free of repeats (a run, or a level) */
static uint64_t make_set(gen *g, uint64_t *a, uint64_t n)
{
    uint64_t *t = malloc((n ? n : 1) * g->kw * 8);
    for (uint64_t i = 0; i < n; i++)
        draw(g, t + i * g->kw);
    ref_sort(t, n, g->kw, g->m);
    uint64_t k = ref_unique_minus(t, n, NULL, 0, NULL, 0, a, g->kw, g->m);
    free(t);
    return k;
}

static void gen_setup(gen *g, int round)
{
    static const int hint_bits[] = {0, 8, 20, 63};
    g->kw = 1 + round % KW_MAX;
    g->m = g->kw == 1 ? ~(uint64_t)0 >> hint_bits[(round / KW_MAX) % 4] : ~(uint64_t)0;
    /* mostly few states, so that repeats are common; sometimes one state
     * (every key equal but for its hints), sometimes many */
    uint64_t r = sb_rng_below(&g->r, 8);
    g->range = r == 0 ? 1 : r <= 4 ? 2 + sb_rng_below(&g->r, 60) : 1 + sb_rng_below(&g->r, 100000);
    g->scatter = (int)sb_rng_below(&g->r, 2);
    if (g->kw == 1 && g->m == 1)
        g->range = 1 + sb_rng_below(&g->r, 2); /* one state bit: two states at most */
}

static void test_sort_random(void)
{
    gen g;
    sb_rng_seed(&g.r, 11);
    int bad = 0;
    for (int round = 0; round < 240; round++) {
        gen_setup(&g, round);
        uint64_t n = sb_rng_below(&g.r, 4) == 0 ? sb_rng_below(&g.r, 3) : sb_rng_below(&g.r, 1500);
        uint64_t *a = malloc((n + 1) * g.kw * 8), *b = malloc((n + 1) * g.kw * 8),
                 *t = malloc((n + 1) * g.kw * 8);
        for (uint64_t i = 0; i < n; i++)
            draw(&g, a + i * g.kw);
        memcpy(b, a, n * g.kw * 8);
        uint64_t *got = sb_keys_sort(a, t, n, g.kw, g.m);
        ref_sort(b, n, g.kw, g.m);
        /* a radix sort from the lowest digit keeps equal states in the
         * order they came, so even the hints agree */
        bad += !got || memcmp(got, b, n * g.kw * 8) != 0;
        free(a);
        free(b);
        free(t);
    }
    CHECK_INT(bad, 0);
}

/* sb_keys_sort_large against sb_keys_sort on arrays past its threshold
 * (65,536 keys) and below it: keys spread, crowded under a few values
 * of their highest bits (one part takes most), all equal but for hints,
 * with hint bits; the same array, hints and order of equal keys too. */
static void test_sort_large_random(void)
{
    gen g;
    sb_rng_seed(&g.r, 13);
    int bad = 0;
    for (int round = 0; round < 24; round++) {
        gen_setup(&g, round * KW_MAX); /* one word, each mask in turn */
        uint64_t n = round % 4 == 0 ? 65535 + sb_rng_below(&g.r, 3) : 70000 + sb_rng_below(&g.r, 400000);
        uint64_t *a = malloc(n * 8), *b = malloc(n * 8), *t = malloc(n * 8), *u = malloc(n * 8);
        int crowd = round % 3;
        if (crowd == 0) {
            g.range = (uint64_t)1 << 40;
            g.scatter = round % 2;
        }
        for (uint64_t i = 0; i < n; i++) {
            if (crowd == 2 && g.range > 1)
                g.range = 1;
            draw(&g, a + i);
            if (crowd == 1 && sb_rng_below(&g.r, 10))
                a[i] &= g.m >> 20 | ~g.m; /* nine in ten under the top bits' zero */
        }
        memcpy(b, a, n * 8);
        uint64_t *got = sb_keys_sort_large(a, t, n, 1, g.m), *want = sb_keys_sort(b, u, n, 1, g.m);
        bad += !got || !want || memcmp(got, want, n * 8) != 0;
        free(a);
        free(b);
        free(t);
        free(u);
    }
    CHECK_INT(bad, 0);
}

/* unique_minus and minus on a batch against two levels, of lengths that
 * take the walk in step or the gallop */
static void test_unique_minus_random(void)
{
    gen g;
    sb_rng_seed(&g.r, 12);
    int bad = 0, galloped = 0;
    for (int round = 0; round < 400; round++) {
        gen_setup(&g, round);
        int kw = g.kw;
        int shape = (int)sb_rng_below(&g.r, 4);
        uint64_t n = shape == 0 ? sb_rng_below(&g.r, 3) : sb_rng_below(&g.r, shape == 1 ? 40 : 500);
        uint64_t nx = sb_rng_below(&g.r, 5) == 0 ? 0 : sb_rng_below(&g.r, shape == 1 ? 4000 : 500);
        uint64_t ny = sb_rng_below(&g.r, 5) == 0 ? 0 : sb_rng_below(&g.r, shape == 1 ? 4000 : 500);
        uint64_t *x = malloc((nx + 1) * kw * 8), *y = malloc((ny + 1) * kw * 8);
        nx = make_set(&g, x, nx);
        ny = make_set(&g, y, ny);
        galloped += nx / 16 > n || ny / 16 > n;
        uint64_t *a = malloc((n + 1) * kw * 8), *t = malloc((n + 1) * kw * 8),
                 *want = malloc((n + 1) * kw * 8);
        for (uint64_t i = 0; i < n; i++)
            draw(&g, a + i * kw);
        ref_sort(a, n, kw, g.m);
        uint64_t nw = ref_unique_minus(a, n, x, nx, y, ny, want, kw, g.m);
        memcpy(t, a, n * kw * 8);
        uint64_t got = sb_keys_unique_minus(a, n, x, nx, y, ny, kw, g.m);
        bad += got != nw || memcmp(a, want, nw * kw * 8) != 0;
        /* minus alone, on the batch made free of repeats */
        uint64_t u = ref_unique_minus(t, n, NULL, 0, NULL, 0, a, kw, g.m);
        got = sb_keys_minus(a, u, x, nx, y, ny, kw, g.m);
        bad += got != nw || memcmp(a, want, nw * kw * 8) != 0;
        free(a);
        free(t);
        free(want);
        free(x);
        free(y);
    }
    CHECK_INT(bad, 0);
    CHECK(galloped > 50);
}

/* merging k runs (none, one, a few, thousands of tiny ones), minus two
 * levels, and the size of their union */
static void test_merge_random(void)
{
    gen g;
    sb_rng_seed(&g.r, 13);
    int bad = 0, many = 0;
    for (int round = 0; round < 300; round++) {
        gen_setup(&g, round);
        int kw = g.kw;
        int shape = (int)sb_rng_below(&g.r, 5);
        int k = shape == 0 ? (int)sb_rng_below(&g.r, 2) : shape == 1 ? 2 + (int)sb_rng_below(&g.r, 7)
              : shape == 2 ? 9 + (int)sb_rng_below(&g.r, 30) : shape == 3 ? 1000 + (int)sb_rng_below(&g.r, 2000)
                           : 8 + (int)sb_rng_below(&g.r, 3);
        uint64_t maxlen = shape == 3 ? 3 : 100;
        uint64_t **in = malloc((k + 1) * sizeof *in), *cnt = malloc((k + 1) * sizeof *cnt), sum = 0;
        for (int j = 0; j < k; j++) {
            uint64_t n = sb_rng_below(&g.r, 6) == 0 ? 0 : sb_rng_below(&g.r, maxlen + 1);
            in[j] = malloc((n + 1) * kw * 8);
            cnt[j] = make_set(&g, in[j], n);
            sum += cnt[j];
        }
        many += k > 8;
        uint64_t nx = sb_rng_below(&g.r, 3) == 0 ? 0 : sb_rng_below(&g.r, 300);
        uint64_t ny = sb_rng_below(&g.r, 3) == 0 ? 0 : sb_rng_below(&g.r, 300);
        uint64_t *x = malloc((nx + 1) * kw * 8), *y = malloc((ny + 1) * kw * 8);
        nx = make_set(&g, x, nx);
        ny = make_set(&g, y, ny);
        /* the reference: every run end to end, a stable sort, then the
         * repeats made one */
        uint64_t *all = malloc((sum + 1) * kw * 8), *want = malloc((sum + 1) * kw * 8),
                 *out = malloc((sum + 1) * kw * 8), at = 0;
        for (int j = 0; j < k; j++) {
            memcpy(all + at * kw, in[j], cnt[j] * kw * 8);
            at += cnt[j];
        }
        ref_sort(all, sum, kw, g.m);
        uint64_t nu = ref_unique_minus(all, sum, NULL, 0, NULL, 0, want, kw, g.m);
        bad += sb_keys_union_size(in, cnt, k, kw, g.m) != nu;
        uint64_t nw = ref_unique_minus(all, sum, x, nx, y, ny, want, kw, g.m);
        uint64_t got = sb_keys_merge(in, cnt, k, x, nx, y, ny, out, kw, g.m);
        bad += got != nw || memcmp(out, want, nw * kw * 8) != 0;
        for (int j = 0; j < k; j++)
            free(in[j]);
        free(in);
        free(cnt);
        free(x);
        free(y);
        free(all);
        free(want);
        free(out);
    }
    CHECK_INT(bad, 0);
    CHECK(many > 100);
}

/* lower, find and first_common against linear scans */
static void test_search_random(void)
{
    gen g;
    sb_rng_seed(&g.r, 14);
    int bad = 0;
    for (int round = 0; round < 300; round++) {
        gen_setup(&g, round);
        int kw = g.kw;
        uint64_t na = sb_rng_below(&g.r, 200), nb = sb_rng_below(&g.r, 200);
        uint64_t *a = malloc((na + 1) * kw * 8), *b = malloc((nb + 1) * kw * 8), key[KW_MAX];
        na = make_set(&g, a, na);
        nb = make_set(&g, b, nb);
        draw(&g, key);
        uint64_t lo = 0;
        while (lo < na && ref_cmp(a + lo * kw, key, kw, g.m) < 0)
            lo++;
        bad += sb_keys_lower(a, na, key, kw, g.m) != lo;
        int64_t f = lo < na && ref_cmp(a + lo * kw, key, kw, g.m) == 0 ? (int64_t)lo : -1;
        bad += sb_keys_find(a, na, key, kw, g.m) != f;
        int64_t c = -1;
        for (uint64_t i = 0; i < na && c < 0; i++)
            if (ref_has(b, nb, a + i * kw, kw, g.m))
                c = (int64_t)i;
        bad += sb_keys_first_common(a, na, b, nb, kw, g.m) != c;
        free(a);
        free(b);
    }
    CHECK_INT(bad, 0);
}

int main(void)
{
    RUN(test_sort_random);
    RUN(test_sort_large_random);
    RUN(test_unique_minus_random);
    RUN(test_merge_random);
    RUN(test_search_random);
    return TEST_END();
}
