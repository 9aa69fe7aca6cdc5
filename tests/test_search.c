/* Tests of the two search engines on their own: the hashed engine's key
 * set, the sorted-level engine's key arrays, and breadth-first search over
 * a toy model whose level sizes are known in closed form. */
#include "harness.h"
#include "../src/search/keysort.h"
#include "../src/search/levels.h"
#include "../src/search/bfs.h"
#include "../src/core/internal.h"
#include "../src/search/levelstore.h"
#include "../src/search/diskbfs.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void test_set_basic(void)
{
    sb_mem mem;
    sb_stateset s;
    sb_error err;
    int added;
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_stateset_init(&s, 2, &mem, &err), 0);
    /* 200000 keys: crosses several table doublings and chunk boundaries */
    for (uint64_t i = 0; i < 200000; i++) {
        uint64_t k[2] = {i * 0x9e3779b97f4a7c15ULL, i};
        int64_t at = sb_stateset_add(&s, k, &added, &err);
        if (at != (int64_t)i || !added) {
            CHECK_INT(at, (int64_t)i);
            break;
        }
    }
    CHECK_U64(s.n, 200000);
    int bad = 0;
    for (uint64_t i = 0; i < 200000; i++) {
        uint64_t k[2] = {i * 0x9e3779b97f4a7c15ULL, i};
        if (sb_stateset_find(&s, k) != (int64_t)i)
            bad++;
        if (sb_stateset_add(&s, k, &added, &err) != (int64_t)i || added)
            bad++;
        if (sb_stateset_key(&s, i)[1] != i)
            bad++;
    }
    CHECK_INT(bad, 0);
    uint64_t absent[2] = {1, 200001};
    CHECK_INT(sb_stateset_find(&s, absent), -1);
    CHECK(s.n * 10 <= s.tsize * 7);
    sb_stateset_free(&s);
    CHECK_U64(mem.used, 0);
}

static void test_set_budget(void)
{
    sb_mem mem;
    sb_stateset s;
    sb_error err;
    int added, rc = 0;
    sb_mem_init(&mem, 1 << 20); /* room for the first chunk only */
    CHECK_INT(sb_stateset_init(&s, 1, &mem, &err), 0);
    for (uint64_t i = 0; i < 1000000 && rc >= 0; i++)
        rc = (int)sb_stateset_add(&s, &i, &added, &err);
    CHECK_INT(rc, SB_ENOMEM);
    CHECK_INT(err.code, SB_ENOMEM);
    sb_stateset_free(&s);
}

/* Toy model: points (x, y) of a W x H grid, moves to the 4 neighbours.
 * From a corner, level d holds the points with x + y = d. */
enum { W = 300, H = 200 };

static int grid_expand(void *ud, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    (void)ud;
    uint64_t x = key[0] >> 32, y = key[0] & 0xffffffff, k;
    if (x + 1 < W) { k = ((x + 1) << 32) | y; emit(ctx, &k); }
    if (x > 0)     { k = ((x - 1) << 32) | y; emit(ctx, &k); }
    if (y + 1 < H) { k = (x << 32) | (y + 1); emit(ctx, &k); }
    if (y > 0)     { k = (x << 32) | (y - 1); emit(ctx, &k); }
    return 0;
}

static void test_bfs_grid(void)
{
    sb_mem mem;
    sb_bfs b;
    sb_error err;
    sb_keymodel m = {1, NULL, grid_expand, NULL, 0, 1};
    uint64_t start = 0, goal = ((uint64_t)(W - 1) << 32) | (H - 1);
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_bfs_init(&b, &m, &mem, &err), 0);
    CHECK_INT(sb_bfs_run(&b, &start, &goal, 0, NULL, &err), 0);
    CHECK_INT(b.goal_level, W + H - 2);
    CHECK_INT(b.nlevels, W + H - 1);
    int bad = 0;
    for (int d = 0; d < b.nlevels; d++) {
        int want = 0;
        for (int x = 0; x < W; x++)
            want += d - x >= 0 && d - x < H;
        bad += sb_bfs_level_size(&b, d) != (uint64_t)want;
    }
    CHECK_INT(bad, 0);
    CHECK_U64(b.set.n, (uint64_t)W * H);
    uint64_t path[W + H];
    CHECK_INT(sb_bfs_path(&b, (uint64_t)b.goal, path, &err), 0);
    CHECK_U64(path[0], 0);
    /* first-found parents: the walk goes along x first, then y */
    CHECK_U64(sb_stateset_key(&b.set, path[W - 1])[0], (uint64_t)(W - 1) << 32);
    bad = 0;
    for (int d = 1; d <= W + H - 2; d++) {
        uint64_t a = sb_stateset_key(&b.set, path[d - 1])[0], c = sb_stateset_key(&b.set, path[d])[0];
        uint64_t dx = (a >> 32) > (c >> 32) ? (a >> 32) - (c >> 32) : (c >> 32) - (a >> 32);
        uint64_t dy = (a & 0xffffffff) > (c & 0xffffffff) ? (a & 0xffffffff) - (c & 0xffffffff)
                                                          : (c & 0xffffffff) - (a & 0xffffffff);
        bad += dx + dy != 1;
    }
    CHECK_INT(bad, 0);
    sb_bfs_free(&b);

    /* stop at the goal at once: the goal's level is only partly filled */
    CHECK_INT(sb_bfs_init(&b, &m, &mem, &err), 0);
    goal = (uint64_t)2 << 32;
    CHECK_INT(sb_bfs_run(&b, &start, &goal, 1, NULL, &err), 0);
    CHECK_INT(b.goal_level, 2);
    CHECK_U64(sb_bfs_level_size(&b, 2), 1); /* (2,0) is the first found at distance 2 */
    sb_bfs_free(&b);

    /* no goal: the whole grid, then "exhausted" */
    CHECK_INT(sb_bfs_init(&b, &m, &mem, &err), 0);
    CHECK_INT(sb_bfs_run(&b, &start, NULL, 0, NULL, &err), 0);
    CHECK_INT(b.goal, -1);
    CHECK_INT(b.complete, 1);
    CHECK_U64(b.set.n, (uint64_t)W * H);
    CHECK_INT(b.nlevels, W + H - 1);
    sb_bfs_free(&b);
    CHECK_U64(mem.used, 0);
}

static void test_bfs_stop(void)
{
    sb_mem mem;
    sb_bfs b;
    sb_error err;
    sb_keymodel m = {1, NULL, grid_expand, NULL, 0, 1};
    volatile sig_atomic_t stop = 1;
    sb_control ctl = {NULL, NULL, &stop};
    uint64_t start = 0;
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_bfs_init(&b, &m, &mem, &err), 0);
    CHECK_INT(sb_bfs_run(&b, &start, NULL, 0, &ctl, &err), SB_EINTR);
    CHECK(b.set.n >= 1);
    CHECK_U64(sb_bfs_level_size(&b, 0), 1);
    sb_bfs_free(&b);
}


/* ---- sorted key arrays ---- */

#define ALL (~(uint64_t)0)

/* insertion sort as the reference: simple enough to trust */
static void ref_sort(uint64_t *a, uint64_t n, int kw)
{
    uint64_t t[4];
    for (uint64_t i = 1; i < n; i++) {
        memcpy(t, a + i * kw, kw * 8);
        uint64_t j = i;
        while (j > 0 && sb_key_cmp(a + (j - 1) * kw, t, kw) > 0) {
            memcpy(a + j * kw, a + (j - 1) * kw, kw * 8);
            j--;
        }
        memcpy(a + j * kw, t, kw * 8);
    }
}

static void test_keys_sort(void)
{
    sb_rng r;
    sb_rng_seed(&r, 7);
    for (int kw = 1; kw <= 3; kw++)
        for (int round = 0; round < 4; round++) {
            uint64_t n = 3000, a[3000 * 3], b[3000 * 3], t[3000 * 3];
            /* round 0: full words; 1: 40-bit keys; 2: few distinct; 3: equal */
            for (uint64_t i = 0; i < n * kw; i++) {
                uint64_t v = sb_rng_next(&r);
                a[i] = round == 0 ? v : round == 1 ? v >> 24 : round == 2 ? v % 5 : 42;
            }
            memcpy(b, a, sizeof a);
            uint64_t *got = sb_keys_sort(a, t, n, kw, ALL);
            ref_sort(b, n, kw);
            CHECK(got && !memcmp(got, b, n * kw * 8));
        }
}

static void test_keys_sets(void)
{
    /* 1-word: a = {1 1 2 3 5 8 8 9}, x = {2 9}, y = {0 5 7} */
    uint64_t a[] = {1, 1, 2, 3, 5, 8, 8, 9}, x[] = {2, 9}, y[] = {0, 5, 7};
    uint64_t k = sb_keys_unique_minus(a, 8, x, 2, y, 3, 1, ALL);
    CHECK_U64(k, 3);
    CHECK(a[0] == 1 && a[1] == 3 && a[2] == 8);
    /* 2-word keys, high word last: (lo, hi) */
    uint64_t b[] = {5, 0, 5, 0, 1, 1, 2, 1}, z[] = {1, 1};
    k = sb_keys_unique_minus(b, 4, z, 1, NULL, 0, 2, ALL);
    CHECK_U64(k, 2);
    CHECK(b[0] == 5 && b[1] == 0 && b[2] == 2 && b[3] == 1);
    uint64_t r1[] = {1, 4, 7}, r2[] = {2, 4, 9}, r3[] = {0}, out[7];
    uint64_t *in[] = {r1, r2, r3};
    uint64_t n[] = {3, 3, 1};
    CHECK_U64(sb_keys_merge(in, n, 3, NULL, 0, NULL, 0, out, 1, ALL), 6);
    CHECK(out[0] == 0 && out[1] == 1 && out[2] == 2 && out[3] == 4 && out[4] == 7 && out[5] == 9);
    uint64_t m1[] = {4, 8}, m2[] = {0, 9};
    CHECK_U64(sb_keys_merge(in, n, 3, m1, 2, m2, 2, out, 1, ALL), 3);
    CHECK(out[0] == 1 && out[1] == 2 && out[2] == 7);
    CHECK_U64(sb_keys_lower(r2, 3, &r1[1], 1, ALL), 1);
    CHECK_U64(sb_keys_lower(r2, 3, &r2[2], 1, ALL), 2);
    uint64_t big = 100;
    CHECK_U64(sb_keys_lower(r2, 3, &big, 1, ALL), 3);
    uint64_t sorted[] = {0, 1, 2, 4, 7, 9}, three = 3;
    CHECK_INT(sb_keys_find(sorted, 6, &r1[2], 1, ALL), 4);
    CHECK_INT(sb_keys_find(sorted, 6, &three, 1, ALL), -1);
    CHECK_INT(sb_keys_first_common(r1, 3, r2, 3, 1, ALL), 1);
    CHECK_INT(sb_keys_first_common(r1, 3, r3, 1, 1, ALL), -1);
}

/* One-word keys with hints in the top 8 bits: sorted and compared without
 * them, repeats keeping the OR of their hints. */
static void test_keys_hints(void)
{
    const uint64_t M = ~(uint64_t)0 >> 8;
#define H(h, v) ((uint64_t)(h) << 56 | (v))
    uint64_t a[] = {H(1, 9), H(0x80, 3), H(2, 9), H(4, 3), H(0, 5), H(8, 9), H(0x10, 7)}, t[7];
    uint64_t *s = sb_keys_sort(a, t, 7, 1, M);
    CHECK(s != NULL);
    /* sorted on the state alone, stable: 3 3 5 7 9 9 9 */
    CHECK(s[0] == H(0x80, 3) && s[1] == H(4, 3) && s[2] == H(0, 5) && s[3] == H(0x10, 7) &&
          s[4] == H(1, 9) && s[5] == H(2, 9) && s[6] == H(8, 9));
    uint64_t x[] = {H(0x40, 7)}, y[] = {H(0xff, 1)};
    uint64_t k = sb_keys_unique_minus(s, 7, x, 1, y, 1, 1, M);
    CHECK_U64(k, 3);
    CHECK(s[0] == H(0x84, 3) && s[1] == H(0, 5) && s[2] == H(0xb, 9));
    /* minus alone, on keys free of repeats: 5 is in x2 under other hints */
    uint64_t x2[] = {H(0x3c, 5)};
    CHECK_U64(sb_keys_minus(s, 3, x2, 1, y, 1, 1, M), 2);
    CHECK(s[0] == H(0x84, 3) && s[1] == H(0xb, 9));
    /* merging runs ORs the hints of a state in several runs */
    uint64_t r1[] = {H(1, 2), H(1, 4)}, r2[] = {H(2, 2), H(0x20, 6)}, r3[] = {H(4, 2), H(0, 4)}, out[6];
    uint64_t *in[] = {r1, r2, r3};
    uint64_t n[] = {2, 2, 2}, m4[] = {H(0x11, 4)};
    CHECK_U64(sb_keys_merge(in, n, 3, m4, 1, NULL, 0, out, 1, M), 2);
    CHECK(out[0] == H(7, 2) && out[1] == H(0x20, 6));
    uint64_t lv[] = {H(3, 2), H(9, 4), H(1, 6)}, q = H(0x55, 4), other[] = {H(0x77, 6)};
    CHECK_INT(sb_keys_find(lv, 3, &q, 1, M), 1);
    CHECK_U64(sb_keys_lower(lv, 3, &q, 1, M), 1);
    CHECK_INT(sb_keys_first_common(lv, 3, other, 1, 1, M), 2);
#undef H
}

/* ---- the sorted-level engine on the grid ---- */

/* The grid again with two-word keys (y, x): exercises the general key code. */
static int grid_expand2(void *ud, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    (void)ud;
    uint64_t k[2], x = key[1], y = key[0];
    if (x + 1 < W) { k[0] = y; k[1] = x + 1; emit(ctx, k); }
    if (x > 0)     { k[0] = y; k[1] = x - 1; emit(ctx, k); }
    if (y + 1 < H) { k[0] = y + 1; k[1] = x; emit(ctx, k); }
    if (y > 0)     { k[0] = y - 1; k[1] = x; emit(ctx, k); }
    return 0;
}

static int path_ok(const uint64_t *p, int D, int kw)
{
    for (int d = 1; d <= D; d++) {
        uint64_t ax, ay, cx, cy;
        if (kw == 1) {
            ax = p[d - 1] >> 32, ay = p[d - 1] & 0xffffffff, cx = p[d] >> 32, cy = p[d] & 0xffffffff;
        } else {
            ax = p[2 * d - 1], ay = p[2 * d - 2], cx = p[2 * d + 1], cy = p[2 * d];
        }
        if ((ax > cx ? ax - cx : cx - ax) + (ay > cy ? ay - cy : cy - ay) != 1)
            return 0;
    }
    return 1;
}

static void test_levels_grid(void)
{
    for (int kw = 1; kw <= 2; kw++) {
        sb_mem mem;
        sb_levels s;
        sb_error err;
        sb_keymodel m = {kw, NULL, kw == 1 ? grid_expand : grid_expand2, NULL, 0, 1};
        uint64_t start[2] = {0, 0}, goal[2];
        if (kw == 1)
            goal[0] = ((uint64_t)(W - 1) << 32) | (H - 1);
        else
            goal[0] = H - 1, goal[1] = W - 1;
        uint64_t *p1 = malloc((W + H) * 2 * 8), *p2 = malloc((W + H) * 2 * 8);
        sb_mem_init(&mem, 0);
        /* one way, one thread and two: every level exact, one path */
        for (int T = 1; T <= 2; T++) {
            CHECK_INT(sb_levels_init(&s, &m, T, &mem, &err), 0);
            CHECK_INT(sb_levels_run(&s, start, goal, 0, NULL, &err), 0);
            CHECK_INT(s.found, 1);
            CHECK_INT(s.length, W + H - 2);
            CHECK_INT(sb_levels_count(&s, 0), W + H - 1);
            int bad = 0;
            for (int d = 0; d < W + H - 1; d++) {
                int want = 0;
                for (int x = 0; x < W; x++)
                    want += d - x >= 0 && d - x < H;
                bad += sb_levels_size(&s, 0, d) != (uint64_t)want;
            }
            CHECK_INT(bad, 0);
            CHECK_U64(sb_levels_total(&s), (uint64_t)W * H);
            CHECK_INT(sb_levels_path(&s, T == 1 ? p1 : p2, NULL, &err), 0);
            CHECK(path_ok(T == 1 ? p1 : p2, W + H - 2, kw));
            sb_levels_free(&s);
        }
        CHECK(!memcmp(p1, p2, (W + H - 1) * kw * 8));
        /* the smallest parent each time: x (the high part) falls first,
         * so the path runs along y at x = 0 at its start */
        CHECK_U64(kw == 1 ? p1[H - 1] : p1[2 * (H - 1)], H - 1);
        /* both ways: the same length (on a grid the two balls cover it) */
        CHECK_INT(sb_levels_init(&s, &m, 2, &mem, &err), 0);
        CHECK_INT(sb_levels_run(&s, start, goal, SB_LEVELS_BIDIR, NULL, &err), 0);
        CHECK_INT(s.bidir, 1);
        CHECK_INT(s.length, W + H - 2);
        CHECK_INT(sb_levels_path(&s, p2, NULL, &err), 0);
        CHECK(path_ok(p2, W + H - 2, kw));
        CHECK(!memcmp(p2, start, kw * 8) && !memcmp(p2 + (W + H - 2) * kw, goal, kw * 8));
        sb_levels_free(&s);
        /* a budget for some levels only: dropped, rebuilt, the same path */
        sb_mem_init(&mem, (size_t)W * H * kw * 8 / 3);
        CHECK_INT(sb_levels_init(&s, &m, 2, &mem, &err), 0);
        CHECK_INT(sb_levels_run(&s, start, goal, 0, NULL, &err), 0);
        CHECK(s.dropped > 0);
        CHECK_INT(s.length, W + H - 2);
        CHECK_INT(sb_levels_path(&s, p2, NULL, &err), 0);
        CHECK(!memcmp(p1, p2, (W + H - 1) * kw * 8));
        sb_levels_free(&s);
        CHECK_U64(mem.used, 0);
        /* a budget too small for two levels: a clean stop, counts kept */
        sb_mem_init(&mem, 12000);
        CHECK_INT(sb_levels_init(&s, &m, 1, &mem, &err), 0);
        CHECK_INT(sb_levels_run(&s, start, goal, 0, NULL, &err), SB_ENOMEM);
        CHECK(sb_levels_count(&s, 0) > 2);
        CHECK_U64(sb_levels_size(&s, 0, 2), 3);
        sb_levels_free(&s);
        CHECK_U64(mem.used, 0);
        /* the census: the whole grid, at most three levels held at once */
        sb_mem_init(&mem, 0);
        CHECK_INT(sb_levels_init(&s, &m, 2, &mem, &err), 0);
        CHECK_INT(sb_levels_run(&s, start, NULL, SB_LEVELS_CENSUS, NULL, &err), 0);
        CHECK_INT(s.complete, 1);
        CHECK_INT(s.found, 0);
        CHECK_U64(sb_levels_total(&s), (uint64_t)W * H);
        CHECK_INT(sb_levels_count(&s, 0), W + H - 1);
        CHECK(mem.peak < (size_t)W * H * kw * 8 / 4);
        uint64_t nlast;
        const uint64_t *last = sb_levels_last(&s, &nlast);
        CHECK_U64(nlast, 1);
        CHECK(last && !memcmp(last, goal, kw * 8));
        sb_levels_free(&s);
        free(p1);
        free(p2);
    }
}

static void test_levels_stop(void)
{
    sb_mem mem;
    sb_levels s;
    sb_error err;
    sb_keymodel m = {1, NULL, grid_expand, NULL, 0, 1};
    volatile sig_atomic_t stop = 1;
    sb_control ctl = {NULL, NULL, &stop};
    uint64_t start = 0;
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_levels_init(&s, &m, 1, &mem, &err), 0);
    CHECK_INT(sb_levels_run(&s, &start, NULL, 0, &ctl, &err), SB_EINTR);
    CHECK_U64(sb_levels_size(&s, 0, 0), 1);
    sb_levels_free(&s);
    CHECK_U64(mem.used, 0);
}

/* ---- the two engines against each other on Cayley graphs ---- */

/* States are 0..2^16-1; a move adds or subtracts one of a few constants
 * (mod 2^16) or xors one of a few masks, so every move has its inverse
 * among the moves.  Keys are the states scrambled by an invertible mix,
 * so that sorted order and state order have nothing in common. */
enum { CN = 1 << 16 };

typedef struct cayley {
    int nadd, nxor, kw;
    uint32_t add[4], mask[4];
    int hints; /* keys of 56 bits, leaving 8 for hints (one a move) */
    int skew;  /* keys crowded: the state, 1 << 50 added to 7 in 8 of them */
    int rep;   /* states below CN / 16 list each neighbour rep times (0: once) */
} cayley;

/* With hints the key is the state times an odd number mod 2^56, undone
 * by the number's inverse (Newton's iteration for 1/x mod 2^64). */
#define CM56 ((uint64_t)0x9e3779b97f4a7c15ULL)
#define LOW56 (~(uint64_t)0 >> 8)
static uint64_t inverse64(uint64_t a)
{
    uint64_t x = a;
    for (int i = 0; i < 6; i++)
        x *= 2 - a * x;
    return x;
}

static uint64_t scramble(uint64_t x)
{
    x *= 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 29);
}

static uint64_t unscramble(uint64_t y)
{
    uint64_t x = y ^ (y >> 29) ^ (y >> 58); /* inverse of x ^ (x >> 29) */
    return x * 0xf1de83e19937733dULL;       /* inverse of the odd multiplier */
}

/* Draw c's moves: one or two adds (each both ways) and 1 to max_xor xors. */
static void cayley_moves(cayley *c, sb_rng *r, int max_xor)
{
    c->nadd = 1 + (int)sb_rng_below(r, 2);
    c->nxor = 1 + (int)sb_rng_below(r, (uint64_t)max_xor);
    for (int j = 0; j < 4; j++) {
        c->add[j] = (uint32_t)sb_rng_below(r, CN);
        c->mask[j] = (uint32_t)sb_rng_below(r, CN);
    }
}

static void cayley_key(const cayley *c, uint64_t state, uint64_t *key)
{
    if (c->skew) {
        key[0] = state | (uint64_t)(state >= CN / 8) << 50;
        return;
    }
    key[0] = c->hints ? state * CM56 & LOW56 : scramble(state);
    if (c->kw == 2)
        key[1] = state & 3; /* a second word that matters to the order */
}

static uint64_t cayley_state(const cayley *c, uint64_t key0)
{
    if (c->skew)
        return key0 & (CN - 1);
    return c->hints ? (key0 & LOW56) * inverse64(CM56) & LOW56 : unscramble(key0);
}

static int cayley_expand(void *ud, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    const cayley *c = ud;
    uint64_t x = cayley_state(c, key[0]), k[2];
    for (int r = 0; r < (c->rep && x < CN / 16 ? c->rep : 1); r++) {
        for (int j = 0; j < c->nadd; j++) {
            cayley_key(c, (x + c->add[j]) % CN, k);
            emit(ctx, k);
            cayley_key(c, (x + CN - c->add[j]) % CN, k);
            emit(ctx, k);
        }
        for (int j = 0; j < c->nxor; j++) {
            cayley_key(c, x ^ c->mask[j], k);
            emit(ctx, k);
        }
    }
    return 0;
}

/* The same with hints: move i is +add[i/2] for even i < 2 nadd, -add[i/2]
 * for odd ones, then the xors; the neighbour by move i gets the hint bit
 * of the move back, and moves whose bit the key has are left out. */
static int cayley_expand_hinted(void *ud, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    const cayley *c = ud;
    uint64_t x = cayley_state(c, key[0]), h = key[0] >> 56, k[2];
    for (int i = 0; i < 2 * c->nadd + c->nxor; i++) {
        if (h >> i & 1)
            continue;
        int back = i < 2 * c->nadd ? i ^ 1 : i;
        uint64_t y = i < 2 * c->nadd ? (i & 1 ? x + CN - c->add[i / 2] : x + c->add[i / 2]) % CN
                                     : x ^ c->mask[i - 2 * c->nadd];
        cayley_key(c, y, k);
        k[0] |= (uint64_t)1 << (56 + back);
        emit(ctx, k);
    }
    return 0;
}

/* Is every step of path[0..len] one move? */
static int cayley_path_ok(const cayley *c, const uint64_t *path, int len)
{
    for (int d = 1; d <= len; d++) {
        uint64_t a = cayley_state(c, path[(d - 1) * c->kw]), b = cayley_state(c, path[d * c->kw]);
        int ok = 0;
        for (int j = 0; j < c->nadd; j++)
            ok |= (a + c->add[j]) % CN == b || (b + c->add[j]) % CN == a;
        for (int j = 0; j < c->nxor; j++)
            ok |= (a ^ c->mask[j]) == b;
        if (!ok)
            return 0;
    }
    return 1;
}

static void test_engines_agree(void)
{
    sb_rng r;
    int rebuilt = 0; /* budget runs that dropped levels and still found the path */
    sb_rng_seed(&r, 2026);
    CHECK_U64(unscramble(scramble(123456789)), 123456789);
    int hinted = 0; /* levels made with hints that skipped moves */
    for (int round = 0; round < 8; round++) {
        cayley c;
        memset(&c, 0, sizeof c);
        c.hints = round >= 6;
        c.kw = c.hints ? 1 : 1 + round % 2;
        cayley_moves(&c, &r, 3);
        sb_keymodel m0 = {c.kw, &c, cayley_expand, NULL, 0, 1}, m = m0;
        if (c.hints) {
            m.expand = cayley_expand_hinted;
            m.hint_bits = 8;
        }
        uint64_t start[2], goal[2];
        cayley_key(&c, sb_rng_below(&r, CN), start);
        sb_mem mem;
        sb_error err;
        sb_search *b, *s;
        sb_mem_init(&mem, 0);
        /* both engines through the same calls */
        CHECK_INT(sb_search_new(&b, SB_ENGINE_HASHED, &m0, NULL, &mem, &err), 0);
        CHECK_INT(sb_search_run(b, start, NULL, SB_SEARCH_CENSUS, NULL, &err), 0);
        const sb_search_info *hb = sb_search_result(b);
        CHECK(hb->states > 1000);
        CHECK(hb->complete);
        for (int T = 1; T <= 3; T++) {
            sb_search_opts o = {T, NULL, NULL, NULL, 0, NULL, 0, 0};
            CHECK_INT(sb_search_new(&s, SB_ENGINE_LEVELS, &m, &o, &mem, &err), 0);
            CHECK_INT(sb_search_run(s, start, NULL, SB_SEARCH_CENSUS, NULL, &err), 0);
            const sb_search_info *in = sb_search_result(s);
            CHECK_INT(in->nlevels[0], hb->nlevels[0]);
            CHECK_U64(in->states, hb->states);
            int bad = 0;
            for (int d = 0; d < hb->nlevels[0]; d++)
                bad += sb_search_level(s, 0, d) != sb_search_level(b, 0, d);
            CHECK_INT(bad, 0);
            /* every state is listed by all its moves, or with hints by all
             * but the one back at least (the start has no hints) */
            uint64_t all = hb->states * (uint64_t)(2 * c.nadd + c.nxor);
            CHECK_U64(hb->generated, all);
            if (c.hints) {
                CHECK(in->generated <= all - (hb->states - 1));
                hinted++;
            } else {
                CHECK_U64(in->generated, all);
            }
            /* the goal: the first of the farthest */
            uint64_t nlast;
            memcpy(goal, sb_search_last(s, &nlast), c.kw * 8);
            /* to the goal: one way, both ways, and in half the memory the
             * one-way search took */
            mem.peak = mem.used;
            CHECK_INT(sb_search_run(s, start, goal, 0, NULL, &err), 0);
            int len = in->length;
            size_t need = mem.peak;
            CHECK_INT(len, hb->nlevels[0] - 1);
            CHECK_INT(sb_search_run(s, start, goal, SB_SEARCH_BIDIR, NULL, &err), 0);
            CHECK_INT(in->length, len);
            CHECK(in->bidir);
            uint64_t *path = malloc((size_t)(len + 1) * 2 * 8);
            CHECK_INT(sb_search_path(s, path, NULL, &err), 0);
            CHECK(!memcmp(path + len * c.kw, goal, c.kw * 8));
            CHECK(cayley_path_ok(&c, path, len));
            sb_search_free(s);
            sb_mem small;
            sb_mem_init(&small, need / 2);
            CHECK_INT(sb_search_new(&s, SB_ENGINE_LEVELS, &m, &o, &small, &err), 0);
            int rc = sb_search_run(s, start, goal, 0, NULL, &err);
            CHECK(rc == 0 || rc == SB_ENOMEM);
            if (rc == 0) {
                rebuilt += sb_search_result(s)->dropped > 0;
                CHECK_INT(sb_search_result(s)->length, len);
                CHECK_INT(sb_search_path(s, path, NULL, &err), 0);
                CHECK(!memcmp(path, start, c.kw * 8));
                CHECK(!memcmp(path + len * c.kw, goal, c.kw * 8));
                CHECK(cayley_path_ok(&c, path, len));
            }
            sb_search_free(s);
            CHECK_U64(small.used, 0);
            free(path);
        }
        /* the hashed engine finds the same length and a path too */
        CHECK_INT(sb_search_run(b, start, goal, 0, NULL, &err), 0);
        CHECK_INT(hb->length, hb->nlevels[0] - 1);
        uint64_t *path = malloc((size_t)(hb->length + 1) * 2 * 8);
        CHECK_INT(sb_search_path(b, path, NULL, &err), 0);
        CHECK(cayley_path_ok(&c, path, hb->length));
        free(path);
        sb_search_free(b);
        CHECK_U64(mem.used, 0);
    }
    CHECK(rebuilt > 0);
    CHECK(hinted > 0);
}

/* Levels of one-word keys are made in buckets unless the budget is
 * short; sorted runs merged (sb_levels_tune's runs_only) are the plain way
 * and the reference.  Both must give the same levels key for key, hints
 * included, whatever the threads and the size of the buckets: buckets of
 * 1 or 7 keys make thousands of them, reach the cap on their number and
 * are dealt again as heavy ones.  Keys spread evenly (the top bit
 * varying), keys with hints above them, and keys crowded into one bin. */
static void test_levels_buckets(void)
{
    sb_rng r;
    sb_rng_seed(&r, 15);
    int runs = 0;
    for (int round = 0; round < 6; round++) {
        cayley c;
        memset(&c, 0, sizeof c);
        c.kw = 1;
        c.hints = round % 3 == 1;
        c.skew = round % 3 == 2;
        cayley_moves(&c, &r, 3);
        sb_keymodel m = {1, &c, c.hints ? cayley_expand_hinted : cayley_expand, NULL, c.hints ? 8 : 0, 1};
        uint64_t start[2];
        cayley_key(&c, sb_rng_below(&r, CN), start);
        sb_mem mem;
        sb_error err;
        sb_levels ref, s;
        sb_mem_init(&mem, 0);
        CHECK_INT(sb_levels_init(&ref, &m, 1, &mem, &err), 0);
        sb_levels_tune(&ref, 0, 1);
        CHECK_INT(sb_levels_run(&ref, start, NULL, 0, NULL, &err), 0);
        CHECK_U64(ref.bucketed, 0);
        CHECK(sb_levels_total(&ref) > 1000);
        for (int T = 1; T <= 3; T++)
            for (int b = 0; b < 4; b++) {
                const uint64_t size[4] = {1, 7, 300, 0};
                CHECK_INT(sb_levels_init(&s, &m, T, &mem, &err), 0);
                sb_levels_tune(&s, size[b], 0);
                CHECK_INT(sb_levels_run(&s, start, NULL, 0, NULL, &err), 0);
                CHECK_U64(s.bucketed, (uint64_t)sb_levels_count(&s, 0));
                CHECK_INT(sb_levels_count(&s, 0), sb_levels_count(&ref, 0));
                int bad = 0;
                for (int d = 0; d < sb_levels_count(&ref, 0); d++) {
                    const sb_level *x = &ref.side[0].lev[d], *y = &s.side[0].lev[d];
                    bad += x->n != y->n || memcmp(x->keys, y->keys, x->n * sizeof *x->keys);
                }
                CHECK_INT(bad, 0);
                CHECK_U64(s.generated, ref.generated);
                sb_levels_free(&s);
                runs++;
            }
        sb_levels_free(&ref);
        CHECK_U64(mem.used, 0);
    }
    CHECK_INT(runs, 72);
}

/* The sorted-level engine under budgets from half to a twelfth of what it
 * took with none: small batches, many runs, pressure, dropped levels and
 * paths rebuilt through them.  Each search either gives exactly the
 * counts and the path it gave with no budget, or stops with SB_ENOMEM
 * with every level it made right; and it stops without redoing levels
 * over and over (the neighbours it listed stay within a few times those
 * of the search with no budget). */
static void test_levels_budgets(void)
{
    sb_rng r;
    sb_rng_seed(&r, 4242);
    int fitted = 0, rebuilt = 0, refused = 0, worst = 0;
    for (int round = 0; round < 6; round++) {
        cayley c;
        memset(&c, 0, sizeof c);
        c.hints = round % 3 == 2;
        c.kw = c.hints ? 1 : 1 + round % 3;
        cayley_moves(&c, &r, 2);
        sb_keymodel m = {c.kw, &c, cayley_expand, NULL, 0, 1};
        if (c.hints) {
            m.expand = cayley_expand_hinted;
            m.hint_bits = 8;
        }
        uint64_t start[2], goal[2];
        cayley_key(&c, sb_rng_below(&r, CN), start);
        sb_mem mem;
        sb_error err;
        sb_levels s;
        /* with no budget: the counts, the census's peak, the path */
        sb_mem_init(&mem, 0);
        CHECK_INT(sb_levels_init(&s, &m, 1, &mem, &err), 0);
        CHECK_INT(sb_levels_run(&s, start, NULL, SB_LEVELS_CENSUS, NULL, &err), 0);
        int nlev = sb_levels_count(&s, 0);
        uint64_t *size = malloc((size_t)nlev * sizeof *size), nlast, gen_census = s.generated;
        for (int d = 0; d < nlev; d++)
            size[d] = sb_levels_size(&s, 0, d);
        memcpy(goal, sb_levels_last(&s, &nlast), c.kw * 8);
        size_t peak_census = mem.peak;
        mem.peak = mem.used;
        CHECK_INT(sb_levels_run(&s, start, goal, 0, NULL, &err), 0);
        size_t peak_path = mem.peak;
        uint64_t gen_path = s.generated;
        int len = s.length;
        uint64_t *path = malloc((size_t)(len + 1) * 2 * 8), *p2 = malloc((size_t)(len + 1) * 2 * 8);
        CHECK_INT(sb_levels_path(&s, path, NULL, &err), 0);
        CHECK(cayley_path_ok(&c, path, len));
        sb_levels_free(&s);
        static const int div[] = {2, 3, 4, 6, 8, 12};
        for (int T = 1; T <= 2; T++)
            for (int f = 0; f < 6; f++)
                for (int census = 0; census <= 1; census++) {
                    sb_mem small;
                    sb_mem_init(&small, (census ? peak_census : peak_path) / div[f]);
                    CHECK_INT(sb_levels_init(&s, &m, T, &small, &err), 0);
                    int rc = sb_levels_run(&s, start, census ? NULL : goal, census ? SB_LEVELS_CENSUS : 0,
                                           NULL, &err);
                    uint64_t listed = s.generated;
                    int bad = !(rc == 0 || rc == SB_ENOMEM);
                    int made = sb_levels_count(&s, 0);
                    bad += rc == 0 && made != (census ? nlev : len + 1);
                    bad += made > nlev;
                    for (int d = 0; d < made && d < nlev; d++)
                        bad += sb_levels_size(&s, 0, d) != size[d];
                    if (rc == 0 && !census) {
                        bad += s.length != len;
                        /* the rebuild searches again on top of the
                         * checkpoints, and may itself run out */
                        int prc = sb_levels_path(&s, p2, NULL, &err);
                        bad += prc != 0 && prc != SB_ENOMEM;
                        bad += prc == 0 && memcmp(p2, path, (size_t)(len + 1) * c.kw * 8) != 0;
                        rebuilt += prc == 0 && s.dropped > 0;
                    }
                    fitted += rc == 0 && f >= 2;
                    refused += rc == SB_ENOMEM;
                    uint64_t gen = census ? gen_census : gen_path;
                    int ratio = (int)(listed / (gen ? gen : 1));
                    worst = ratio > worst ? ratio : worst;
                    if (bad)
                        T_FAIL_AT("round %d, %d threads, budget 1/%d, %s: rc %d, %d levels", round, T,
                                  div[f], census ? "census" : "path", rc, made);
                    else
                        t_passed++;
                    sb_levels_free(&s);
                    CHECK_U64(small.used, 0);
                }
        free(size);
        free(path);
        free(p2);
    }
    CHECK(fitted > 0);
    CHECK(rebuilt > 0);
    CHECK(refused > 0);
    /* at most a few tries a level, not a ladder of them */
    if (getenv("SBFS_TEST_VERBOSE"))
        printf("budgets: %d fitted, %d rebuilt, %d refused, worst %d\n", fitted, rebuilt, refused, worst);
    if (worst <= 3)
        t_passed++;
    else
        T_FAIL_AT("a budgeted search listed %d times the neighbours of the one with none", worst);
}

/* A fresh folder for files, and how many entries it holds. */
static char *temp_dir(char *buf, size_t n)
{
    const char *t = getenv("TMPDIR");
    snprintf(buf, n, "%s/sbfs-test.XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(buf);
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* Sorted key files: random keys (gaps of every size, the key 0, words
 * above the first) read back exactly, the count and the bytes they take
 * are what the header says, and a file damaged anywhere, cut short, or
 * read as the wrong width is refused, never read as other keys. */
static void test_levelstore(void)
{
    char dir[256];
    sb_rng r;
    sb_mem mem;
    sb_error err;
    sb_rng_seed(&r, 77);
    sb_mem_init(&mem, 0);
    CHECK(temp_dir(dir, sizeof dir) != NULL);
    for (int kw = 1; kw <= 3; kw++) {
        sb_lstore ls;
        CHECK_INT(sb_lstore_open(&ls, dir, 1, 0, kw, &mem, 4096, &err), 0);
        enum { N = 20000 };
        uint64_t *k = malloc(sizeof *k * N * (size_t)kw), n = 0;
        uint64_t cur[3] = {0, 0, 0};
        for (int i = 0; i < N; i++) {
            /* the first key is 0; then steps of 1, small, large, or in a higher word */
            int how = (int)sb_rng_below(&r, 4), j = kw > 1 ? (int)sb_rng_below(&r, (uint64_t)kw) : 0;
            if (i) {
                uint64_t step = how == 0 ? 1 : how == 1 ? 1 + sb_rng_below(&r, 300) : 1 + (sb_rng_next(&r) >> 20);
                if (j && how == 3) {
                    cur[j]++;
                    for (int t = 0; t < j; t++)
                        cur[t] = sb_rng_next(&r);
                } else if (cur[0] > UINT64_MAX - step) {
                    if (kw == 1)
                        break;
                    cur[1]++;
                    cur[0] = step;
                } else {
                    cur[0] += step;
                }
            }
            memcpy(k + n * kw, cur, sizeof *cur * (size_t)kw);
            n++;
        }
        sb_lwriter w;
        CHECK_INT(sb_lwriter_open(&w, &ls, "keys", &err), 0);
        for (uint64_t i = 0; i < n; i++)
            CHECK_INT(sb_lwriter_put(&w, k + i * kw, &err), 0);
        CHECK_INT(sb_lwriter_close(&w, &err), 0);
        CHECK_U64(ls.used, w.bytes + SB_LS_HEADER);
        sb_lreader rd;
        uint64_t got = 0, bad = 0, cnt;
        CHECK_INT(sb_lreader_open(&rd, &ls, "keys", &cnt, &err), 0);
        CHECK_U64(cnt, n);
        int g;
        while ((g = sb_lreader_next(&rd, &err)) == 1) {
            bad += got >= n || memcmp(rd.key, k + got * kw, sizeof *k * (size_t)kw) != 0;
            got++;
        }
        CHECK_INT(g, 0);
        CHECK_U64(got, n);
        CHECK_U64(bad, 0);
        sb_lreader_close(&rd);
        /* damage: one byte anywhere in the body, a cut, a wrong width */
        char path[600];
        sb_lstore_path(&ls, "keys", path, sizeof path);
        for (int t = 0; t < 4; t++) {
            FILE *f = fopen(path, "r+b");
            long at = SB_LS_HEADER + (long)sb_rng_below(&r, w.bytes);
            fseek(f, at, SEEK_SET);
            int c = fgetc(f);
            fseek(f, at, SEEK_SET);
            fputc(c ^ (1 << (t % 8)), f);
            fclose(f);
            CHECK_INT(sb_lstore_check(&ls, "keys", NULL, &err), SB_EBADFILE);
            f = fopen(path, "r+b");
            fseek(f, at, SEEK_SET);
            fputc(c, f);
            fclose(f);
            CHECK_INT(sb_lstore_check(&ls, "keys", NULL, &err), 0);
        }
        CHECK_INT(truncate(path, SB_LS_HEADER + (off_t)w.bytes - 1), 0);
        CHECK_INT(sb_lstore_check(&ls, "keys", NULL, &err), SB_EBADFILE);
        CHECK(strstr(err.msg, "size") != NULL);
        ls.kw = kw % 3 + 1;
        CHECK_INT(sb_lstore_check(&ls, "keys", NULL, &err), SB_EBADFILE);
        ls.kw = kw;
        /* the disk limit: a write past it fails, and nothing is left over */
        ls.limit = ls.used + 1000;
        CHECK_INT(sb_lwriter_open(&w, &ls, "more", &err), 0);
        int rc = 0;
        for (uint64_t i = 0; i < n && !rc; i++)
            rc = sb_lwriter_put(&w, k + i * kw, &err);
        if (!rc)
            rc = sb_lwriter_close(&w, &err);
        else
            sb_lwriter_abort(&w);
        CHECK_INT(rc, SB_ENOMEM);
        CHECK(strstr(err.msg, "disk limit") != NULL);
        sb_lstore_close(&ls);
        free(k);
    }
    CHECK_U64(mem.used, 0);
    CHECK_INT(entries(dir), 0);
    rmdir(dir);
}

/* The engine with its levels on disk against the one in memory, on the
 * Cayley graphs of test_engines_agree (scrambled keys: large gaps; keys of
 * two words; hints; keys crowded into a corner of the range; states that
 * list their neighbours forty times over): in budgets so small that
 * levels are cut into many buckets, and some buckets sorted in chunks and
 * merged as runs in several passes, the same counts, lengths and paths,
 * key for key, one way, both ways and as a census; memory stays in the
 * budget; the disk limit stops it cleanly; and the folder is left empty.
 * (Budgets this small give one thread: test_disk_threads has more.) */
static void test_disk_agree(void)
{
    char dir[256];
    sb_rng r;
    sb_rng_seed(&r, 915);
    CHECK(temp_dir(dir, sizeof dir) != NULL);
    int multipass = 0;
    uint64_t cut = 0, large = 0;
    for (int round = 0; round < 9; round++) {
        cayley c;
        memset(&c, 0, sizeof c);
        c.hints = round >= 4 && round < 6;
        c.skew = round >= 6;
        c.rep = round >= 7 ? 40 : 0;
        c.kw = c.hints || c.skew ? 1 : 1 + round % 2;
        cayley_moves(&c, &r, 3);
        sb_keymodel m = {c.kw, &c, cayley_expand, NULL, 0, 1};
        if (c.hints) {
            m.expand = cayley_expand_hinted;
            m.hint_bits = 8;
        }
        uint64_t start[2], goal[2], nlast;
        cayley_key(&c, sb_rng_below(&r, CN), start);
        sb_error err;
        sb_mem mem, small;
        sb_search *a, *d;
        sb_mem_init(&mem, 0);
        size_t budget = round % 3 == 2 ? 320 << 10 : 48 << 10;
        sb_mem_init(&small, budget);
        sb_search_opts o = {1, NULL, NULL, NULL, 0, NULL, 0, 0}, od = {1 + round % 3, NULL, NULL, dir, 0, NULL, 0, 0};
        CHECK_INT(sb_search_new(&a, SB_ENGINE_LEVELS, &m, &o, &mem, &err), 0);
        CHECK_INT(sb_search_new(&d, SB_ENGINE_LEVELS, &m, &od, &small, &err), 0);
        /* the census */
        CHECK_INT(sb_search_run(a, start, NULL, SB_SEARCH_CENSUS, NULL, &err), 0);
        CHECK_INT(sb_search_run(d, start, NULL, SB_SEARCH_CENSUS, NULL, &err), 0);
        const sb_search_info *ia = sb_search_result(a), *id = sb_search_result(d);
        CHECK_INT(id->nlevels[0], ia->nlevels[0]);
        CHECK_U64(id->states, ia->states);
        CHECK(id->complete);
        int bad = 0;
        for (int k = 0; k < ia->nlevels[0]; k++)
            bad += sb_search_level(a, 0, k) != sb_search_level(d, 0, k);
        CHECK_INT(bad, 0);
        const uint64_t *la = sb_search_last(a, &nlast), *ld;
        uint64_t nd;
        ld = sb_search_last(d, &nd);
        CHECK_U64(nd, nlast < 16 ? nlast : 16);
        CHECK(ld && !memcmp(la, ld, sizeof *la * (size_t)c.kw * nd));
        memcpy(goal, la, sizeof *la * (size_t)c.kw);
        CHECK(small.peak <= budget);
        /* a level made of many runs, merged in more than one pass */
        multipass += id->disk_peak > 0 && ia->states * 8 > 8 * budget;
        cut += id->disk_buckets > (uint64_t)id->nlevels[0];
        large += id->disk_large;
        /* to the farthest: one way and both ways, the same path */
        for (unsigned fl = 0; fl <= SB_SEARCH_BIDIR; fl += SB_SEARCH_BIDIR) {
            CHECK_INT(sb_search_run(a, start, goal, fl, NULL, &err), 0);
            CHECK_INT(sb_search_run(d, start, goal, fl, NULL, &err), 0);
            CHECK_INT(id->length, ia->length);
            CHECK_INT(id->bidir, ia->bidir);
            for (int side = 0; side < 2; side++) {
                CHECK_INT(id->nlevels[side], ia->nlevels[side]);
                bad = 0;
                for (int k = 0; k < ia->nlevels[side]; k++)
                    bad += sb_search_level(a, side, k) != sb_search_level(d, side, k);
                CHECK_INT(bad, 0);
            }
            int len = ia->length;
            uint64_t *pa = malloc((size_t)(len + 1) * 16), *pd = malloc((size_t)(len + 1) * 16);
            CHECK_INT(sb_search_path(a, pa, NULL, &err), 0);
            CHECK_INT(sb_search_path(d, pd, NULL, &err), 0);
            CHECK(!memcmp(pa, pd, (size_t)(len + 1) * 8 * (size_t)c.kw));
            CHECK(cayley_path_ok(&c, pd, len));
            free(pa);
            free(pd);
        }
        CHECK(small.peak <= budget);
        sb_search_free(d);
        CHECK_U64(small.used, 0);
        CHECK_INT(entries(dir), 0);
        /* a disk limit below what the census takes: SB_ENOMEM, counts so far right */
        od.disk_limit = 4096;
        CHECK_INT(sb_search_new(&d, SB_ENGINE_LEVELS, &m, &od, &small, &err), 0);
        CHECK_INT(sb_search_run(d, start, NULL, SB_SEARCH_CENSUS, NULL, &err), SB_ENOMEM);
        CHECK(strstr(err.msg, "disk limit") != NULL);
        id = sb_search_result(d);
        CHECK(id->nlevels[0] >= 1);
        bad = 0;
        for (int k = 0; k < id->nlevels[0]; k++)
            bad += sb_search_level(a, 0, k) != sb_search_level(d, 0, k);
        CHECK_INT(bad, 0);
        sb_search_free(d);
        sb_search_free(a);
        CHECK_INT(entries(dir), 0);
        /* a budget too small for even the buffers: refused cleanly */
        sb_mem tiny;
        sb_mem_init(&tiny, 8 << 10);
        od.disk_limit = 0;
        CHECK_INT(sb_search_new(&d, SB_ENGINE_LEVELS, &m, &od, &tiny, &err), 0);
        CHECK_INT(sb_search_run(d, start, NULL, SB_SEARCH_CENSUS, NULL, &err), SB_ENOMEM);
        sb_search_free(d);
        CHECK_U64(tiny.used, 0);
    }
    CHECK(multipass > 0);
    CHECK(cut >= 6);
    CHECK(large > 0);
    /* a folder that is not there */
    sb_keymodel m = {1, NULL, grid_expand, NULL, 0, 1};
    sb_search *d;
    sb_error err;
    sb_search_opts od = {1, NULL, NULL, "/nonexistent/sbfs", 0, NULL, 0, 0};
    uint64_t k0 = 0;
    CHECK_INT(sb_search_new(&d, SB_ENGINE_LEVELS, &m, &od, NULL, &err), 0);
    CHECK_INT(sb_search_run(d, &k0, NULL, SB_SEARCH_CENSUS, NULL, &err), SB_EIO);
    CHECK(strstr(err.msg, "/nonexistent/sbfs") != NULL);
    sb_search_free(d);
    rmdir(dir);
}

/* The disk engine on two and three threads, which share the work here
 * whenever each can sort 64 keys (par_keys), against the engine in
 * memory, on the Cayley graphs of test_disk_agree (spread keys of one and
 * two words, crowded keys, neighbours listed forty times over) in budgets
 * that cut levels into many buckets, some too large for a thread: as a
 * census, one way (neighbours listed as levels are made) and both ways
 * (listed from the files), the same level sizes, lengths and paths; the
 * budget kept, nothing left in memory or on disk. */
static void test_disk_threads(void)
{
    char dir[256];
    sb_rng r;
    sb_rng_seed(&r, 4242);
    CHECK(temp_dir(dir, sizeof dir) != NULL);
    uint64_t cut = 0, large = 0, threaded = 0;
    for (int round = 0; round < 8; round++) {
        cayley c;
        memset(&c, 0, sizeof c);
        c.skew = round % 4 >= 2;
        c.rep = round % 4 == 3 ? 40 : 0;
        c.kw = c.skew ? 1 : 1 + round % 2;
        cayley_moves(&c, &r, 3);
        sb_keymodel m = {c.kw, &c, cayley_expand, NULL, 0, 1};
        uint64_t start[2], goal[2], nlast;
        cayley_key(&c, sb_rng_below(&r, CN), start);
        sb_error err;
        sb_mem mem;
        sb_mem_init(&mem, 0);
        sb_search *a;
        sb_search_opts o = {1, NULL, NULL, NULL, 0, NULL, 0, 0};
        CHECK_INT(sb_search_new(&a, SB_ENGINE_LEVELS, &m, &o, &mem, &err), 0);
        CHECK_INT(sb_search_run(a, start, NULL, SB_SEARCH_CENSUS, NULL, &err), 0);
        memcpy(goal, sb_search_last(a, &nlast), sizeof *goal * (size_t)c.kw);
        for (int kind = 0; kind < 3; kind++) {
            unsigned fl = kind == 0 ? SB_SEARCH_CENSUS : kind == 1 ? 0 : SB_SEARCH_BIDIR;
            unsigned lf = kind == 0 ? SB_LEVELS_CENSUS : kind == 1 ? 0 : SB_LEVELS_BIDIR;
            const uint64_t *g = kind ? goal : NULL;
            CHECK_INT(sb_search_run(a, start, g, fl, NULL, &err), 0);
            const sb_search_info *ia = sb_search_result(a);
            size_t budget = (size_t)(96 + 64 * sb_rng_below(&r, 4)) << 10;
            sb_mem small;
            sb_mem_init(&small, budget);
            sb_dlevels dl;
            CHECK_INT(sb_dlevels_init(&dl, &m, dir, 0, &small, &err), 0);
            dl.threads = 2 + round % 2;
            dl.par_keys = 64;
            CHECK_INT(sb_dlevels_run(&dl, start, g, lf, NULL, &err), 0);
            int bad = 0;
            for (int side = 0; side < 2; side++) {
                CHECK_INT(dl.nlev[side], ia->nlevels[side]);
                for (int k = 0; k < ia->nlevels[side]; k++)
                    bad += sb_search_level(a, side, k) != sb_dlevels_size(&dl, side, k);
            }
            CHECK_INT(bad, 0);
            if (kind) {
                CHECK_INT(dl.length, ia->length);
                int len = ia->length;
                uint64_t *pa = malloc((size_t)(len + 1) * 16), *pd = malloc((size_t)(len + 1) * 16);
                CHECK_INT(sb_search_path(a, pa, NULL, &err), 0);
                CHECK_INT(sb_dlevels_path(&dl, pd, NULL, &err), 0);
                CHECK(!memcmp(pa, pd, (size_t)(len + 1) * 8 * (size_t)c.kw));
                free(pa);
                free(pd);
            }
            cut += dl.buckets > (uint64_t)(dl.nlev[0] + dl.nlev[1]);
            large += dl.large;
            threaded += dl.threads_used > 1;
            CHECK(small.peak <= budget);
            sb_dlevels_free(&dl);
            CHECK_U64(small.used, 0);
            CHECK_INT(entries(dir), 0);
        }
        sb_search_free(a);
        CHECK_U64(mem.used, 0);
    }
    CHECK(cut >= 12);
    CHECK(large > 0);
    CHECK(threaded >= 20);
    rmdir(dir);
}

/* --spill through the API: a search in memory that runs out of its budget
 * part way carries its levels to disk and ends with the counts, lengths
 * and paths of the search with no budget, as a census, one way and both
 * ways, on the Cayley graphs of test_disk_agree (keys of one and two
 * words, hints), in budgets from where the first levels barely fit to
 * where most do; the budget holds throughout and no file is left. */
static void test_spill_agree(void)
{
    char dir[256];
    sb_rng r;
    sb_rng_seed(&r, 1516);
    CHECK(temp_dir(dir, sizeof dir) != NULL);
    int spilled = 0, runs = 0;
    for (int round = 0; round < 6; round++) {
        cayley c;
        memset(&c, 0, sizeof c);
        c.hints = round >= 4;
        c.kw = c.hints ? 1 : 1 + round % 2;
        cayley_moves(&c, &r, 3);
        sb_keymodel m = {c.kw, &c, cayley_expand, NULL, 0, 1};
        if (c.hints) {
            m.expand = cayley_expand_hinted;
            m.hint_bits = 8;
        }
        uint64_t start[2], goal[2], nlast;
        cayley_key(&c, sb_rng_below(&r, CN), start);
        sb_error err;
        sb_mem mem;
        sb_search *a;
        sb_mem_init(&mem, 0);
        sb_search_opts o = {1 + round % 2, NULL, NULL, NULL, 0, NULL, 0, 0};
        CHECK_INT(sb_search_new(&a, SB_ENGINE_LEVELS, &m, &o, &mem, &err), 0);
        CHECK_INT(sb_search_run(a, start, NULL, SB_SEARCH_CENSUS, NULL, &err), 0);
        const sb_search_info *ia = sb_search_result(a);
        memcpy(goal, sb_search_last(a, &nlast), sizeof *goal * (size_t)c.kw);
        for (int t = 0; t < 4; t++) {
            size_t budget = (size_t)(24 + sb_rng_below(&r, 160)) << 10;
            for (unsigned fl = 0; fl < 3; fl++) { /* census, one way, both ways */
                unsigned flags = fl == 0 ? SB_SEARCH_CENSUS : fl == 2 ? SB_SEARCH_BIDIR : 0;
                sb_mem small;
                sb_search *d;
                sb_mem_init(&small, budget);
                CHECK_INT(sb_search_run(a, start, fl ? goal : NULL, flags, NULL, &err), 0);
                CHECK_INT(sb_search_new(&d, SB_ENGINE_LEVELS, &m, &o, &small, &err), 0);
                CHECK_INT(sb_search_spill(d, dir, &err), 0);
                int rc = sb_search_run(d, start, fl ? goal : NULL, flags, NULL, &err);
                const sb_search_info *id = sb_search_result(d);
                if (rc == SB_ENOMEM) { /* not even the buffers of the disk fitted */
                    sb_search_free(d);
                    continue;
                }
                runs++;
                CHECK_INT(rc, 0);
                spilled += id->spilled > 0;
                CHECK_INT(id->length, ia->length);
                CHECK_U64(id->states, ia->states);
                int bad = 0;
                for (int side = 0; side < 2; side++) {
                    bad += id->nlevels[side] != ia->nlevels[side];
                    for (int k = 0; k < ia->nlevels[side]; k++)
                        bad += sb_search_level(a, side, k) != sb_search_level(d, side, k);
                }
                CHECK_INT(bad, 0);
                if (fl) {
                    int len = ia->length;
                    uint64_t *pa = malloc((size_t)(len + 1) * 16), *pd = malloc((size_t)(len + 1) * 16);
                    CHECK_INT(sb_search_path(a, pa, NULL, &err), 0);
                    CHECK_INT(sb_search_path(d, pd, NULL, &err), 0);
                    CHECK(!memcmp(pa, pd, (size_t)(len + 1) * 8 * (size_t)c.kw));
                    free(pa);
                    free(pd);
                } else {
                    uint64_t nd;
                    const uint64_t *la = sb_search_last(a, &nlast), *ld = sb_search_last(d, &nd);
                    CHECK(nd >= 1 && nd <= nlast && la && ld && !memcmp(la, ld, sizeof *la * (size_t)c.kw * nd));
                }
                CHECK(small.peak <= budget);
                sb_search_free(d);
                CHECK_U64(small.used, 0);
                CHECK_INT(entries(dir), 0);
            }
        }
        sb_search_free(a);
    }
    CHECK(runs > 40);
    CHECK(spilled > 20);
    /* only for the levels engine in memory */
    sb_keymodel m = {1, NULL, grid_expand, NULL, 0, 1};
    sb_search *h;
    sb_error err;
    sb_search_opts od = {1, NULL, NULL, dir, 0, NULL, 0, 0};
    CHECK_INT(sb_search_new(&h, SB_ENGINE_HASHED, &m, NULL, NULL, &err), 0);
    CHECK_INT(sb_search_spill(h, dir, &err), SB_EUSAGE);
    sb_search_free(h);
    CHECK_INT(sb_search_new(&h, SB_ENGINE_LEVELS, &m, &od, NULL, &err), 0);
    CHECK_INT(sb_search_spill(h, dir, &err), SB_EUSAGE);
    sb_search_free(h);
    rmdir(dir);
}

/* A Cayley model that asks its search to stop after `left` expansions
 * (a run interrupted at a point of its own choosing). */
typedef struct stopper {
    cayley c;
    long left;
    volatile sig_atomic_t stop;
} stopper;

static int stopper_expand(void *ud, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    stopper *t = ud;
    if (--t->left == 0)
        t->stop = 1;
    return cayley_expand(&t->c, key, emit, ctx);
}

/* Checkpoints through the API: a search with levels on disk stopped at
 * random points (mid-level), taken up again, once or several times, ends
 * with the counts and path of the search never stopped; a checkpoint is
 * refused for a search with another fingerprint, start or flags. */
static void test_disk_resume(void)
{
    char dir[256];
    sb_rng r;
    sb_rng_seed(&r, 31337);
    CHECK(temp_dir(dir, sizeof dir) != NULL);
    int stops = 0;
    for (int round = 0; round < 6; round++) {
        stopper t;
        memset(&t, 0, sizeof t);
        t.c.kw = 1 + round % 2;
        cayley_moves(&t.c, &r, 3);
        sb_keymodel m = {t.c.kw, &t, stopper_expand, NULL, 0, 1};
        uint64_t start[2], goal[2], nlast;
        cayley_key(&t.c, sb_rng_below(&r, CN), start);
        sb_error err;
        sb_mem mem;
        sb_mem_init(&mem, 0);
        sb_search *a, *d;
        sb_search_opts o = {1, NULL, NULL, NULL, 0, NULL, 0, 0};
        CHECK_INT(sb_search_new(&a, SB_ENGINE_LEVELS, &m, &o, &mem, &err), 0);
        CHECK_INT(sb_search_run(a, start, NULL, SB_SEARCH_CENSUS, NULL, &err), 0);
        memcpy(goal, sb_search_last(a, &nlast), 8 * (size_t)t.c.kw);
        unsigned flags = round % 3 == 0 ? SB_SEARCH_CENSUS : round % 3 == 1 ? 0 : SB_SEARCH_BIDIR;
        CHECK_INT(sb_search_run(a, start, goal, flags, NULL, &err), 0);
        const sb_search_info *ia = sb_search_result(a);
        long total = (long)ia->states; /* about the expansions of one run */
        char ck[300];
        snprintf(ck, sizeof ck, "%s/ck%d", dir, round);
        CHECK_INT(mkdir(ck, 0755), 0);
        sb_control ctl = {NULL, NULL, &t.stop};
        int rc = SB_EINTR, tries = 0;
        uint64_t ident = 1000 + (uint64_t)round;
        for (; rc == SB_EINTR && tries < 40; tries++) {
            sb_search_opts oc = {1, NULL, NULL, NULL, 0, ck, tries > 0, ident};
            t.stop = 0;
            /* a level one way costs the expansions of its own states too
             * (listed as it is made), and after a resume those of the level
             * before: up to the whole run's, so that each try gets on */
            t.left = 1 + (long)sb_rng_below(&r, (uint64_t)total + 1);
            sb_mem small;
            sb_mem_init(&small, 64 << 10);
            CHECK_INT(sb_search_new(&d, SB_ENGINE_LEVELS, &m, &oc, &small, &err), 0);
            rc = sb_search_run(d, start, goal, flags, &ctl, &err);
            stops += rc == SB_EINTR;
            if (rc == 0) {
                const sb_search_info *id = sb_search_result(d);
                CHECK_INT(id->length, ia->length);
                for (int side = 0; side < 2; side++) {
                    CHECK_INT(id->nlevels[side], ia->nlevels[side]);
                    int bad = 0;
                    for (int k = 0; k < ia->nlevels[side]; k++)
                        bad += sb_search_level(a, side, k) != sb_search_level(d, side, k);
                    CHECK_INT(bad, 0);
                }
                if (!(flags & SB_SEARCH_CENSUS)) {
                    int len = ia->length;
                    uint64_t *pa = malloc((size_t)(len + 1) * 16), *pd = malloc((size_t)(len + 1) * 16);
                    CHECK_INT(sb_search_path(a, pa, NULL, &err), 0);
                    CHECK_INT(sb_search_path(d, pd, NULL, &err), 0);
                    CHECK(!memcmp(pa, pd, (size_t)(len + 1) * 8 * (size_t)t.c.kw));
                    free(pa);
                    free(pd);
                }
            }
            sb_search_free(d);
            CHECK_U64(small.used, 0);
        }
        CHECK_INT(rc, 0);
        /* starting afresh in the folder, or resuming another search, is refused */
        sb_search_opts fresh = {1, NULL, NULL, NULL, 0, ck, 0, ident}, other = {1, NULL, NULL, NULL, 0, ck, 1, ident + 1},
                       same = {1, NULL, NULL, NULL, 0, ck, 1, ident};
        CHECK_INT(sb_search_new(&d, SB_ENGINE_LEVELS, &m, &fresh, &mem, &err), 0);
        CHECK_INT(sb_search_run(d, start, goal, flags, NULL, &err), SB_EUSAGE);
        sb_search_free(d);
        CHECK_INT(sb_search_new(&d, SB_ENGINE_LEVELS, &m, &other, &mem, &err), 0);
        CHECK_INT(sb_search_run(d, start, goal, flags, NULL, &err), SB_EBADFILE);
        sb_search_free(d);
        CHECK_INT(sb_search_new(&d, SB_ENGINE_LEVELS, &m, &same, &mem, &err), 0);
        CHECK_INT(sb_search_run(d, goal, start, flags, NULL, &err), SB_EBADFILE);
        CHECK_INT(sb_search_run(d, start, goal, flags ^ SB_SEARCH_CENSUS, NULL, &err), SB_EBADFILE);
        CHECK_INT(sb_search_run(d, start, goal, flags, NULL, &err), 0);
        CHECK_INT(sb_search_result(d)->length, ia->length);
        sb_search_free(d);
        sb_search_free(a);
        CHECK_U64(mem.used, 0);
        /* clear the folder */
        DIR *dd = opendir(ck);
        struct dirent *e;
        char p[700];
        while (dd && (e = readdir(dd)) != NULL)
            if (e->d_name[0] != '.') {
                snprintf(p, sizeof p, "%s/%s", ck, e->d_name);
                unlink(p);
            }
        if (dd)
            closedir(dd);
        rmdir(ck);
    }
    CHECK(stops > 3);
    rmdir(dir);
}

int main(void)
{
    RUN(test_set_basic);
    RUN(test_set_budget);
    RUN(test_bfs_grid);
    RUN(test_bfs_stop);
    RUN(test_keys_sort);
    RUN(test_keys_sets);
    RUN(test_keys_hints);
    RUN(test_levels_grid);
    RUN(test_levels_stop);
    RUN(test_engines_agree);
    RUN(test_levels_buckets);
    RUN(test_levels_budgets);
    RUN(test_levelstore);
    RUN(test_disk_agree);
    RUN(test_disk_threads);
    RUN(test_disk_resume);
    RUN(test_spill_agree);
    return TEST_END();
}
