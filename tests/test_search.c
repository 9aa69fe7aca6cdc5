/* Tests of the hashed engine on its own: the key set, and breadth-first
 * search over a toy model whose level sizes are known in closed form. */
#include "harness.h"
#include "sbfs/search.h"

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
    sb_search_model m = {1, NULL, grid_expand, NULL};
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
    sb_search_model m = {1, NULL, grid_expand, NULL};
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

int main(void)
{
    RUN(test_set_basic);
    RUN(test_set_budget);
    RUN(test_bfs_grid);
    RUN(test_bfs_stop);
    return TEST_END();
}
