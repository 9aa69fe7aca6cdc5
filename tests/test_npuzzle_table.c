/* Tests of the n-puzzle God tables: the numbering (a bijection onto the
 * positions that reach the goal), the neighbours (against moves made on the
 * board here), and the tables against a plain breadth-first search written
 * here with its own board encoding.  Every move string the table gives is
 * replayed on a board by the test's own code. */
#include "harness.h"
#include "sbfs/core.h"
#include "../src/npuzzle/np_internal.h"
#include "../src/index/table_internal.h"

#include <limits.h>
#include <unistd.h>

static sb_mem mem;
static sb_error err;

/* ---- the test's own board model -------------------------------------- */

/* Quadratic Lehmer code of all cells, blank included: 0..cells!-1. */
static uint32_t code_of(const uint8_t *c, int n)
{
    uint32_t t = 0;
    for (int i = 0; i < n; i++) {
        int less = 0;
        for (int j = i + 1; j < n; j++)
            less += c[j] < c[i];
        t = t * (uint32_t)(n - i) + (uint32_t)less;
    }
    return t;
}

/* Move the blank of a rows x cols board; 0 when it would leave the board. */
static int slide(uint8_t *c, int rows, int cols, char dir)
{
    int b = 0, nb;
    while (c[b])
        b++;
    switch (dir) {
    case 'u': if (b < cols) return 0; nb = b - cols; break;
    case 'd': if (b >= (rows - 1) * cols) return 0; nb = b + cols; break;
    case 'l': if (b % cols == 0) return 0; nb = b - 1; break;
    case 'r': if (b % cols == cols - 1) return 0; nb = b + 1; break;
    default: return 0;
    }
    c[b] = c[nb];
    c[nb] = 0;
    return 1;
}

typedef struct naive {
    int rows, cols, cells;
    uint32_t n;          /* cells! codes */
    int8_t *dist;        /* by code, -1 unreached */
    uint8_t *boards;     /* reached boards in BFS order, cells bytes each */
    uint32_t reached;
    uint64_t count[128];
    int maxdist;
} naive;

static void naive_bfs(naive *z, int rows, int cols)
{
    uint8_t goal[16];
    uint32_t head = 0;
    memset(z, 0, sizeof *z);
    z->rows = rows;
    z->cols = cols;
    z->cells = rows * cols;
    z->n = 1;
    for (int i = 2; i <= z->cells; i++)
        z->n *= (uint32_t)i;
    z->dist = malloc(z->n);
    z->boards = malloc((size_t)z->n / 2 * (size_t)z->cells);
    memset(z->dist, -1, z->n);
    for (int i = 0; i < z->cells; i++)
        goal[i] = (uint8_t)((i + 1) % z->cells);
    z->dist[code_of(goal, z->cells)] = 0;
    memcpy(z->boards, goal, (size_t)z->cells);
    z->reached = 1;
    while (head < z->reached) {
        const uint8_t *b = z->boards + (size_t)head * (size_t)z->cells;
        int d = z->dist[code_of(b, z->cells)];
        z->count[d]++;
        z->maxdist = d;
        for (int k = 0; k < 4; k++) {
            uint8_t nb[16];
            memcpy(nb, b, (size_t)z->cells);
            if (slide(nb, rows, cols, "udlr"[k])) {
                uint32_t c = code_of(nb, z->cells);
                if (z->dist[c] < 0) {
                    z->dist[c] = (int8_t)(d + 1);
                    memcpy(z->boards + (size_t)z->reached * (size_t)z->cells, nb, (size_t)z->cells);
                    z->reached++;
                }
            }
        }
        head++;
    }
}

static void naive_free(naive *z)
{
    free(z->dist);
    free(z->boards);
}

/* ---- numbering --------------------------------------------------------- */

static void test_numbering(void)
{
    static const int shapes[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        sb_np_table t;
        naive z;
        int bad = 0;
        uint8_t *seen;
        CHECK_INT(sb_np_table_init(&t, shapes[s][0], shapes[s][1], &err), 0);
        naive_bfs(&z, shapes[s][0], shapes[s][1]);
        CHECK_U64(t.size, z.reached);
        seen = calloc(t.size, 1);
        /* every reachable board has its own index, and unranks back */
        for (uint32_t i = 0; i < z.reached; i++) {
            const uint8_t *b = z.boards + (size_t)i * (size_t)z.cells;
            uint8_t back[16];
            uint64_t r = sb_np_table_rank(&t, b);
            if (r >= t.size || seen[r]++) {
                bad++;
                continue;
            }
            sb_np_table_unrank(&t, r, back);
            if (memcmp(back, b, (size_t)z.cells) != 0)
                bad++;
        }
        CHECK_INT(bad, 0);
        /* the other half of the boards: no index */
        bad = 0;
        for (uint32_t i = 0; i < z.reached && i < 5000; i++) {
            uint8_t b[16];
            int x = 0, y;
            memcpy(b, z.boards + (size_t)i * (size_t)z.cells, (size_t)z.cells);
            while (!b[x])
                x++;
            y = x + 1;
            while (!b[y])
                y++;
            b[x] ^= b[y], b[y] ^= b[x], b[x] ^= b[y]; /* swap two tiles */
            if (sb_np_table_rank(&t, b) != SB_NO_INDEX)
                bad++;
        }
        CHECK_INT(bad, 0);
        /* neighbours agree with moves made on the board */
        bad = 0;
        for (uint64_t r = 0; r < t.size; r += 1 + t.size / 3000) {
            uint64_t out[4];
            char dir[4];
            uint8_t b[16];
            int k = sb_np_table_neighbours(&t, r, out, dir), want = 0;
            for (int m = 0; m < 4; m++) {
                sb_np_table_unrank(&t, r, b);
                if (!slide(b, t.rows, t.cols, "udlr"[m]))
                    continue;
                want++;
                for (int i = 0; i < k; i++)
                    if (dir[i] == "udlr"[m] && out[i] != sb_np_table_rank(&t, b))
                        bad++;
            }
            if (k != want)
                bad++;
        }
        CHECK_INT(bad, 0);
        free(seen);
        naive_free(&z);
    }
    {
        sb_np_table t;
        const uint8_t goal[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
        const uint8_t dup[9] = {1, 1, 3, 4, 5, 6, 7, 8, 0};
        const uint8_t big[9] = {1, 2, 3, 4, 5, 6, 7, 9, 0};
        CHECK_INT(sb_np_table_init(&t, 3, 3, &err), 0);
        CHECK_U64(sb_np_table_rank(&t, goal), 8);
        CHECK_U64(sb_np_table_goal(&t), 8);
        CHECK_U64(sb_np_table_rank(&t, dup), SB_NO_INDEX);
        CHECK_U64(sb_np_table_rank(&t, big), SB_NO_INDEX);
        CHECK_U64(t.size, 181440);
        CHECK_STR(t.params, "3x3");
        CHECK_INT(sb_np_table_distance(&t, goal), -1); /* no table yet */
        CHECK_INT(sb_np_table_init(&t, 1, 9, &err), SB_EUSAGE);
        CHECK_INT(sb_np_table_init(&t, 4, 5, &err), SB_EUSAGE);
        /* sides whose product passes INT_MAX (and wraps to 0 in 32 bits) */
        CHECK_INT(sb_np_table_init(&t, 65536, 65536, &err), SB_EUSAGE);
        CHECK_INT(sb_np_table_init(&t, 2, INT_MAX, &err), SB_EUSAGE);
    }
    /* 4 x 4 ranks fit in 64 bits: random round trips */
    {
        sb_np_table t;
        sb_rng rng;
        int bad = 0;
        CHECK_INT(sb_np_table_init(&t, 4, 4, &err), 0);
        CHECK_U64(t.size, UINT64_C(10461394944000));
        sb_rng_seed(&rng, 3);
        for (int i = 0; i < 20000; i++) {
            uint8_t b[16], c[16];
            uint64_t r = sb_rng_below(&rng, t.size);
            sb_np_table_unrank(&t, r, b);
            if (sb_np_table_rank(&t, b) != r)
                bad++;
            memcpy(c, b, 16);
            if (slide(c, 4, 4, "udlr"[i & 3]) && sb_np_table_rank(&t, c) == SB_NO_INDEX)
                bad++;
        }
        CHECK_INT(bad, 0);
    }
}

/* ---- tables against the naive search ----------------------------------- */

static void check_table(int rows, int cols, int threads, int per_position)
{
    sb_np_table t;
    naive z;
    sb_table_opts o = {2, threads, SB_SCAN_AUTO, -1};
    int bad = 0, bad_path = 0;
    sb_rng rng;
    CHECK_INT(sb_np_table_init(&t, rows, cols, &err), 0);
    CHECK_INT(sb_np_table_build(&t, &o, &mem, NULL, &err), 0);
    naive_bfs(&z, rows, cols);
    CHECK_U64(sb_table_about(t.table).reached, z.reached);
    CHECK_INT((sb_table_about(t.table).levels - 1), z.maxdist);
    for (int d = 0; d <= z.maxdist; d++)
        if (sb_table_count(t.table, d) != z.count[d])
            bad++;
    CHECK_INT(bad, 0);
    sb_rng_seed(&rng, (uint64_t)(rows * 10 + cols));
    /* every position (or 3000 random ones): its distance, and a path that
     * replays on the board to the goal in that many moves */
    for (uint32_t k = 0; k < (per_position ? z.reached : 3000); k++) {
        uint32_t i = per_position ? k : (uint32_t)sb_rng_below(&rng, z.reached);
        const uint8_t *b = z.boards + (size_t)i * (size_t)z.cells;
        int want = z.dist[code_of(b, z.cells)];
        if (sb_np_table_distance(&t, b) != want)
            bad++;
        if (k % 7 == 0 || !per_position) {
            char moves[128];
            uint8_t c[16];
            int len = sb_np_table_descend(&t, b, moves, 127);
            memcpy(c, b, (size_t)z.cells);
            if (len != want || (int)strlen(moves) != len)
                bad_path++;
            for (int m = 0; m < len; m++)
                if (!slide(c, rows, cols, moves[m]))
                    bad_path++;
            for (int m = 0; m < z.cells; m++)
                if (c[m] != (uint8_t)((m + 1) % z.cells))
                    bad_path++;
        }
    }
    CHECK_INT(bad, 0);
    CHECK_INT(bad_path, 0);
    naive_free(&z);
    sb_np_table_free(&t);
}

static void test_small_tables(void)
{
    check_table(2, 2, 1, 1);
    check_table(2, 3, 2, 1);
    check_table(3, 2, 1, 1);
    check_table(2, 4, 2, 1);
    check_table(4, 2, 2, 1);
    check_table(3, 3, 2, 1);
    check_table(2, 5, 2, 0);
    check_table(5, 2, 1, 0);
    CHECK_U64(mem.used, 0);
}

/* Many chunks (2 x 5: 28 of them): every scan order and thread count gives
 * the same bytes, and an 8-bit table the same distances. */
static void test_same_bytes(void)
{
    sb_np_table a, b;
    sb_table_opts o[3] = {{2, 1, SB_SCAN_FORWARD, -1},
                          {2, 3, SB_SCAN_AUTO, -1},
                          {2, 2, SB_SCAN_BACKWARD, -1}};
    sb_table_opts wide = {8, 2, SB_SCAN_AUTO, -1};
    int bad = 0;
    CHECK_INT(sb_np_table_init(&a, 2, 5, &err), 0);
    CHECK_INT(sb_np_table_init(&b, 2, 5, &err), 0);
    CHECK_INT(sb_np_table_build(&a, &o[0], &mem, NULL, &err), 0);
    for (int i = 1; i < 3; i++) {
        CHECK_INT(sb_np_table_build(&b, &o[i], &mem, NULL, &err), 0);
        CHECK(memcmp(sb_table_codes(a.table), sb_table_codes(b.table), sb_table_about(a.table).data_bytes) == 0);
        CHECK_U64(sb_table_count(b.table, 55), sb_table_count(a.table, 55));
    }
    CHECK_INT(sb_np_table_build(&b, &wide, &mem, NULL, &err), 0);
    CHECK_INT((sb_table_about(b.table).levels - 1), 55);
    for (uint64_t r = 0; r < a.size; r += 97)
        if (sb_table_code(b.table, r) % 3 != sb_table_code(a.table, r))
            bad++;
    CHECK_INT(bad, 0);
    sb_np_table_free(&a);
    sb_np_table_free(&b);
    CHECK_U64(mem.used, 0);
}

/* The 8-puzzle's distances from 1..8 then the blank, pinned. */
static void test_eight(void)
{
    static const uint64_t want[32] = {
        1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485,
        5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910,
        760, 221, 2};
    sb_np_table t, u;
    sb_table_opts o1 = {2, 1, SB_SCAN_FORWARD, -1}, o2 = {2, 2, SB_SCAN_AUTO, -1};
    char path[64], moves[64];
    const uint8_t far1[9] = {8, 6, 7, 2, 5, 4, 3, 0, 1};
    const uint8_t far2[9] = {6, 4, 7, 8, 5, 0, 3, 2, 1};
    const uint8_t sample[9] = {2, 3, 4, 1, 5, 0, 7, 6, 8};
    CHECK_INT(sb_np_table_init(&t, 3, 3, &err), 0);
    CHECK_INT(sb_np_table_init(&u, 3, 3, &err), 0);
    CHECK_INT(sb_np_table_build(&t, &o1, &mem, NULL, &err), 0);
    CHECK_INT(sb_np_table_build(&u, &o2, &mem, NULL, &err), 0);
    CHECK_U64(sb_table_about(t.table).reached, 181440);
    CHECK_INT((sb_table_about(t.table).levels - 1), 31);
    for (int d = 0; d < 32; d++)
        CHECK_U64(sb_table_count(t.table, d), want[d]);
    CHECK(memcmp(sb_table_codes(t.table), sb_table_codes(u.table), sb_table_about(t.table).data_bytes) == 0);
    CHECK_INT(sb_np_table_distance(&t, far1), 31);
    CHECK_INT(sb_np_table_distance(&t, far2), 31);
    CHECK_INT(sb_np_table_descend(&t, sample, moves, 63), 19);
    CHECK_INT(sb_np_table_descend(&t, far1, moves, 30), SB_EUSAGE);
    /* save, load, refuse another size */
    snprintf(path, sizeof path, "/tmp/sbfs_test_npt_%d.tbl", (int)getpid());
    CHECK_INT(sb_np_table_save(&t, path, &err), 0);
    sb_np_table_free(&u);
    CHECK_INT(sb_np_table_load(&u, path, &mem, &err), 0);
    CHECK(memcmp(sb_table_codes(t.table), sb_table_codes(u.table), sb_table_about(t.table).data_bytes) == 0);
    CHECK_INT(sb_np_table_distance(&u, far1), 31);
    sb_np_table_free(&u);
    CHECK_INT(sb_np_table_init(&u, 2, 4, &err), 0);
    CHECK_INT(sb_np_table_load(&u, path, &mem, &err), SB_EBADFILE);
    CHECK(strstr(err.msg, "npuzzle 3x3, not npuzzle 2x4") != NULL);
    remove(path);
    sb_np_table_free(&t);
    sb_np_table_free(&u);
    CHECK_U64(mem.used, 0);
}

/* The 11-puzzle: 239,500,800 positions within a 128 MiB budget. */
static void test_eleven(void)
{
    sb_np_table t;
    sb_mem budget;
    sb_table_opts o = {2, 2, SB_SCAN_AUTO, -1};
    const uint8_t goal[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0};
    if (t_sanitized())
        return;
    sb_mem_init(&budget, (size_t)128 << 20);
    CHECK_INT(sb_np_table_init(&t, 3, 4, &err), 0);
    CHECK_INT(sb_np_table_build(&t, &o, &budget, NULL, &err), 0);
    CHECK_U64(sb_table_about(t.table).reached, 239500800);
    CHECK_INT((sb_table_about(t.table).levels - 1), 53);
    CHECK_U64(sb_table_count(t.table, 53), 18);
    CHECK_U64(sb_table_count(t.table, 52), 86);
    CHECK_U64(sb_table_count(t.table, 51), 1115);
    CHECK_U64(sb_table_count(t.table, 36), 21841159);
    CHECK(budget.peak <= (size_t)128 << 20);
    CHECK_INT(sb_np_table_distance(&t, goal), 0);
    {
        /* a position in the middle: its path replays to the goal */
        char moves[64];
        uint8_t b[12];
        int d;
        sb_np_table_unrank(&t, t.size / 2 + 12345, b);
        d = sb_np_table_distance(&t, b);
        CHECK(d > 0 && d <= 53);
        CHECK_INT(sb_np_table_descend(&t, b, moves, 63), d);
        for (int k = 0; k < d; k++)
            CHECK(slide(b, 3, 4, moves[k]));
        CHECK(memcmp(b, goal, 12) == 0);
    }
    sb_np_table_free(&t);
}

int main(void)
{
    sb_mem_init(&mem, 0);
    RUN(test_numbering);
    RUN(test_small_tables);
    RUN(test_same_bytes);
    RUN(test_eight);
    RUN(test_eleven);
    return TEST_END();
}
