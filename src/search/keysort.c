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

/* Large arrays of one-word keys: one pass scatters them by their highest
 * varying bits into parts of about PART_KEYS keys, each then sorted from
 * its lowest digit while it sits in the second-level cache, instead of
 * five or six passes over the whole array, each scattering to 2048 places
 * spread over megabytes.  A part that takes most keys (keys crowded under
 * a few values of those bits) is only slower, never wrong.  Every move
 * keeps the order of equal keys, so the result is sb_keys_sort's. */
#define PART_KEYS 16384 /* 128 KB: a part and its scratch fit in the cache */

uint64_t *sb_keys_sort_large(uint64_t *a, uint64_t *t, uint64_t n, int kw, uint64_t m)
{
    if (kw != 1 || n < 4 * PART_KEYS)
        return sb_keys_sort(a, t, n, kw, m);
    uint64_t orv = 0, andv = ~(uint64_t)0;
    for (uint64_t i = 0; i < n; i++) {
        orv |= a[i] & m;
        andv &= a[i] & m;
    }
    uint64_t vary = orv ^ andv;
    if (!vary)
        return a;
    int top = 63 - __builtin_clzll(vary), bits = 1;
    while (bits < DBITS && (n >> bits) > PART_KEYS)
        bits++;
    int sh = top + 1 - bits;
    if (sh < 0) {
        sh = 0;
        bits = top + 1;
    }
    uint64_t mask = ((uint64_t)1 << bits) - 1, *at = calloc((size_t)mask + 2, sizeof *at);
    if (!at)
        return NULL;
    for (uint64_t i = 0; i < n; i++)
        at[(((a[i] & m) >> sh) & mask) + 1]++;
    for (uint64_t p = 1; p <= mask + 1; p++)
        at[p] += at[p - 1];
    for (uint64_t i = 0; i < n; i++)
        t[at[((a[i] & m) >> sh) & mask]++] = a[i];
    /* at[p] is now where part p ends */
    for (uint64_t p = 0, from = 0; p <= mask; from = at[p++]) {
        uint64_t len = at[p] - from, *r = sort_w(t + from, a + from, len, 1, m);
        if (!r) {
            free(at);
            return NULL;
        }
        if (r != t + from)
            memcpy(t + from, r, len * sizeof *t);
    }
    free(at);
    return t;
}

/* Compare keys, one-word keys on the bits of m only. */
static inline __attribute__((always_inline)) int cmp_m(const uint64_t *a, const uint64_t *b,
                                                       const int kw, uint64_t m)
{
    if (kw == 1)
        return (a[0] & m) < (b[0] & m) ? -1 : (a[0] & m) > (b[0] & m);
    return sb_key_cmp(a, b, kw);
}

/* Removing repeats keeps a key when it differs from the last one kept.
 * One word: without branches on the data, since whether a key repeats is
 * a coin toss and a mispredicted branch costs more than the compare; the
 * hints (bits outside m) of repeats are OR-ed into the key kept. */
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

static inline __attribute__((always_inline)) uint64_t dedupe_w(uint64_t *a, uint64_t n, const int kw)
{
    uint64_t o = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (o && sb_key_cmp(a + (o - 1) * kw, a + i * kw, kw) == 0)
            continue;
        if (o != i)
            memmove(a + o * kw, a + i * kw, (size_t)kw * sizeof *a);
        o++;
    }
    return o;
}

/* a minus b, both sorted, a free of repeats: the kept keys of a move to
 * its front.  Two ways to walk b.
 *
 * In step, as in a merge: advance in a, in b or in both by the outcome of
 * the compare, keeping a's key when it is the smaller:
 *   a = 1 3 5, b = 3 4: 1<3 keep 1; 3=3 skip, advance both; 5>4 advance b;
 *   b done: keep 5.  Result 1 5.
 * That costs n + nb steps, and for one word no branch on the data.
 *
 * Galloping: for each key of a, look in b from where the last key stopped
 * at distances 1, 2, 4, ... until a key of b is not smaller, then halve
 * the last gap.  That costs about 2 log2(gap) compares a key, so
 * n (2 + 2 log2(nb / n)) in all: a batch of 256 keys against a level of
 * 2,000,000 needs some 7,000 compares instead of 2,000,000 steps.  A short
 * budget makes batches that small, and walking the old levels in step for
 * every one of them made the search quadratic (minutes, where the level
 * takes a second).  The walk in step wins when b is not much longer than
 * a; the crossover measured on one word is near nb = 16 n. */
#define GALLOP_RATIO 16

static inline __attribute__((always_inline)) uint64_t gallop(const uint64_t *b, uint64_t from,
                                                            uint64_t nb, const uint64_t *key,
                                                            const int kw, uint64_t m)
{
    /* the first j >= from with b[j] >= key; every b[< lo] is smaller */
    uint64_t lo = from, step = 1;
    while (lo + step <= nb && cmp_m(b + (lo + step - 1) * kw, key, kw, m) < 0) {
        lo += step;
        step *= 2;
    }
    uint64_t hi = lo + step - 1 < nb ? lo + step - 1 : nb; /* b[hi] >= key, or hi = nb */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (cmp_m(b + mid * kw, key, kw, m) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static inline __attribute__((always_inline)) uint64_t minus_gallop(uint64_t *a, uint64_t n,
                                                                  const uint64_t *b, uint64_t nb,
                                                                  const int kw, uint64_t m)
{
    uint64_t j = 0, o = 0;
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t *k = a + i * kw;
        j = gallop(b, j, nb, k, kw, m);
        if (j < nb && cmp_m(b + j * kw, k, kw, m) == 0)
            continue;
        if (kw == 1)
            a[o] = k[0];
        else if (o != i)
            memmove(a + o * kw, k, (size_t)kw * sizeof *a);
        o++;
    }
    return o;
}

static uint64_t minus_1(uint64_t *a, uint64_t n, const uint64_t *b, uint64_t nb, uint64_t m)
{
    if (nb / GALLOP_RATIO > n)
        return minus_gallop(a, n, b, nb, 1, m);
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

static inline __attribute__((always_inline)) uint64_t minus_w(uint64_t *a, uint64_t n, const uint64_t *b,
                                                             uint64_t nb, const int kw)
{
    if (nb / GALLOP_RATIO > n)
        return minus_gallop(a, n, b, nb, kw, ~(uint64_t)0);
    uint64_t i = 0, j = 0, o = 0;
    while (i < n) {
        int c = j < nb ? sb_key_cmp(a + i * kw, b + j * kw, kw) : -1;
        if (c < 0) {
            if (o != i)
                memmove(a + o * kw, a + i * kw, (size_t)kw * sizeof *a);
            o++;
        }
        i += c <= 0;
        j += c >= 0;
    }
    return o;
}

static uint64_t minus_any(uint64_t *a, uint64_t n, const uint64_t *b, uint64_t nb, int kw, uint64_t m)
{
    if (kw == 1)
        return minus_1(a, n, b, nb, m);
    if (kw == 2)
        return minus_w(a, n, b, nb, 2);
    return minus_w(a, n, b, nb, kw);
}

uint64_t sb_keys_minus(uint64_t *a, uint64_t n, const uint64_t *x, uint64_t nx, const uint64_t *y,
                       uint64_t ny, int kw, uint64_t m)
{
    return minus_any(a, minus_any(a, n, x, nx, kw, m), y, ny, kw, m);
}

uint64_t sb_keys_unique_minus(uint64_t *a, uint64_t n, const uint64_t *x, uint64_t nx,
                              const uint64_t *y, uint64_t ny, int kw, uint64_t m)
{
    uint64_t k = kw == 1 ? dedupe_1(a, n, m) : kw == 2 ? dedupe_w(a, n, 2) : dedupe_w(a, n, kw);
    return sb_keys_minus(a, k, x, nx, y, ny, kw, m);
}

/* Merging k runs.  Each step takes the least head among the runs and
 * appends it unless it repeats the last key written (for one word, OR-ing
 * the hints of repeats as dedupe_1 does).  out may be NULL: then the keys
 * are only counted.
 *
 * For a few runs the heads sit in an array that shrinks as runs run out,
 * and picking the least is a scan: for one word a conditional move per
 * run and no branch on the data (a generic loop cost twice as much on the
 * distinct-piece Klotski).  But a scan costs k compares a key, and a short
 * budget makes thousands of runs; then the heads play a tournament: a
 * complete binary tree over the runs (padded to a power of two with runs
 * that are empty) whose every inner node holds the winner, the run with
 * the lesser head, of its two children.  The root names the least head;
 * when that run advances, only the log2 k nodes on its way to the root are
 * played again.  An empty run loses to every other. */
#define SCAN_RUNS 8

typedef struct emitter {
    uint64_t *out, o, last; /* keys written or counted; one word: the key held back */
    const uint64_t *prev;   /* more words: the last key taken */
    int have;
} emitter;

static inline __attribute__((always_inline)) void put(emitter *e, const uint64_t *k, const int kw,
                                                     uint64_t m)
{
    if (kw == 1) {
        uint64_t v = k[0];
        int same = e->have && ((v ^ e->last) & m) == 0;
        if (e->out)
            e->out[e->o] = e->last;
        e->o += e->have && !same;
        e->last = same ? e->last | v : v;
        e->have = 1;
        return;
    }
    if (e->have && sb_key_cmp(e->prev, k, kw) == 0)
        return;
    if (e->out)
        memcpy(e->out + e->o * kw, k, (size_t)kw * sizeof *k);
    e->prev = k; /* the inputs stay in place while they are merged */
    e->o++;
    e->have = 1;
}

static inline __attribute__((always_inline)) uint64_t done(emitter *e, const int kw)
{
    if (kw == 1 && e->have) {
        if (e->out)
            e->out[e->o] = e->last;
        e->o++;
    }
    return e->o;
}

static inline __attribute__((always_inline)) uint64_t merge_scan(uint64_t *const *in, const uint64_t *n,
                                                                int k, emitter *e, const int kw,
                                                                uint64_t m)
{
    const uint64_t *at[SCAN_RUNS], *end[SCAN_RUNS];
    int c = 0;
    for (int j = 0; j < k; j++)
        if (n[j]) {
            at[c] = in[j];
            end[c] = in[j] + n[j] * kw;
            c++;
        }
    while (c) {
        int b = 0;
        if (kw == 1)
            for (int j = 1; j < c; j++)
                b = (*at[j] & m) < (*at[b] & m) ? j : b;
        else
            for (int j = 1; j < c; j++)
                b = sb_key_cmp(at[j], at[b], kw) < 0 ? j : b;
        put(e, at[b], kw, m);
        at[b] += kw;
        if (at[b] == end[b]) {
            c--;
            at[b] = at[c];
            end[b] = end[c];
        }
    }
    return done(e, kw);
}

static inline __attribute__((always_inline)) int winner(const uint64_t **at, const uint64_t **end,
                                                       int i, int j, const int kw, uint64_t m)
{
    if (at[j] == end[j])
        return i;
    if (at[i] == end[i])
        return j;
    return cmp_m(at[j], at[i], kw, m) < 0 ? j : i;
}

static inline __attribute__((always_inline)) uint64_t merge_tree(uint64_t *const *in, const uint64_t *n,
                                                                int k, emitter *e, const int kw,
                                                                uint64_t m)
{
    int K = 1;
    while (K < k)
        K *= 2;
    const uint64_t **at = malloc(2 * (size_t)K * sizeof *at), **end = at + K;
    int *win = malloc(2 * (size_t)K * sizeof *win);
    if (!at || !win) {
        free(at);
        free(win);
        return UINT64_MAX;
    }
    for (int j = 0; j < K; j++) {
        at[j] = end[j] = j < k ? in[j] : NULL;
        if (j < k)
            end[j] += n[j] * kw;
        win[K + j] = j;
    }
    for (int v = K - 1; v >= 1; v--)
        win[v] = winner(at, end, win[2 * v], win[2 * v + 1], kw, m);
    for (;;) {
        int b = win[1];
        if (at[b] == end[b])
            break; /* the best is empty: all are */
        put(e, at[b], kw, m);
        at[b] += kw;
        for (int v = (K + b) / 2; v >= 1; v /= 2)
            win[v] = winner(at, end, win[2 * v], win[2 * v + 1], kw, m);
    }
    free(at);
    free(win);
    return done(e, kw);
}

static uint64_t merge_any(uint64_t *const *in, const uint64_t *n, int k, uint64_t *out, int kw,
                          uint64_t m)
{
    emitter e = {out, 0, 0, NULL, 0};
    if (k <= SCAN_RUNS)
        return kw == 1 ? merge_scan(in, n, k, &e, 1, m)
               : kw == 2 ? merge_scan(in, n, k, &e, 2, m)
                         : merge_scan(in, n, k, &e, kw, m);
    return kw == 1 ? merge_tree(in, n, k, &e, 1, m)
           : kw == 2 ? merge_tree(in, n, k, &e, 2, m)
                     : merge_tree(in, n, k, &e, kw, m);
}

uint64_t sb_keys_merge(uint64_t *const *in, const uint64_t *n, int k, const uint64_t *x, uint64_t nx,
                       const uint64_t *y, uint64_t ny, uint64_t *out, int kw, uint64_t m)
{
    uint64_t got = merge_any(in, n, k, out, kw, m);
    return got == UINT64_MAX ? got : sb_keys_minus(out, got, x, nx, y, ny, kw, m);
}

uint64_t sb_keys_union_size(uint64_t *const *in, const uint64_t *n, int k, int kw, uint64_t m)
{
    return merge_any(in, n, k, NULL, kw, m);
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
