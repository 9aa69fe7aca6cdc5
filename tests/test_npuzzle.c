/* Unit tests of the sliding-tile model and solver: parsing (with error
 * positions), solvability, replay, and optimality of IDA* against a plain
 * breadth-first search written here, on every position of the small boards
 * and a sample of the 8-puzzle. */
#include "harness.h"
#include "../src/npuzzle/np_internal.h"

static void test_parse_line(void)
{
    sb_npuzzle p;
    sb_error e;
    CHECK_INT(sb_np_parse_line("1 2 3 4 5 6 7 8 0", 1, 0, 0, &p, &e), 0);
    CHECK_INT(p.rows, 3);
    CHECK_INT(p.cell[8], 0);
    CHECK_INT(sb_np_parse_line(" 1 2 3 x\n", 1, 0, 0, &p, &e), 0);
    CHECK_INT(p.rows * p.cols, 4);
    CHECK_INT(p.cell[3], 0);
    CHECK_INT(sb_np_parse_line("1 2 3 4 5 0", 4, 2, 3, &p, &e), 0);
    CHECK_INT(p.cols, 3);
    CHECK_INT(sb_np_parse_line("1 2 3 4 5 0", 4, 0, 0, &p, &e), SB_EINPUT);
    CHECK_INT(e.line, 4);
    CHECK_INT(sb_np_parse_line("1 2 3 4 5 6 7 7 0", 2, 0, 0, &p, &e), SB_EINPUT);
    CHECK_INT(e.line, 2);
    CHECK_INT(e.col, 15);
    CHECK_STR(e.msg, "tile 7 appears twice (first at column 13)");
    CHECK_INT(sb_np_parse_line("1 2 3 4 5 6 7 9 0", 1, 0, 0, &p, &e), SB_EINPUT);
    CHECK_INT(e.col, 15);
    CHECK_INT(sb_np_parse_line("1 2 y 4 5 6 7 8 0", 1, 0, 0, &p, &e), SB_EINPUT);
    CHECK_INT(e.col, 5);
    CHECK_INT(sb_np_parse_line("1 2 3 4 5 6 7 8 0", 1, 2, 3, &p, &e), SB_EINPUT);
    CHECK_INT(sb_np_parse_line("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", 1, 0, 0, &p, &e), 0);
    CHECK_INT(p.cell[15], 15);
}

static void test_parse_eight(void)
{
    sb_npuzzle p;
    sb_error e;
    const char *three = " 2  3  4\n 1  5  x\n 7  6  8\n";
    CHECK_INT(sb_np_parse_eight(three, strlen(three), &p, &e), 0);
    CHECK_INT(p.cell[0], 2);
    CHECK_INT(p.cell[5], 0);
    CHECK_INT(p.cell[8], 8);
    CHECK_INT(sb_np_parse_eight("1 2 3\n4 5 5\n", 12, &p, &e), SB_EINPUT);
    CHECK_INT(e.line, 2);
    CHECK_INT(e.col, 5);
    CHECK_STR(e.msg, "tile 5 appears twice (first at 2:3)");
    CHECK_INT(sb_np_parse_eight("1 2 3 4 5 6 7 8", 15, &p, &e), SB_EINPUT);
    CHECK_STR(e.msg, "only 8 of the nine tiles: missing x");
    CHECK_INT(sb_np_parse_eight("1 2 3\n4 0 6 7 8 x", 17, &p, &e), SB_EINPUT);
    CHECK_INT(e.line, 2);
    CHECK_INT(e.col, 3);
    CHECK_INT(sb_np_parse_eight("1 2 3 4 5 6 7 8 x 1", 19, &p, &e), SB_EINPUT);
    CHECK_STR(e.msg, "more than nine tiles");
    CHECK_INT(sb_np_parse_eight("1 2 3 4 5 6 7 8 xx", 18, &p, &e), SB_EINPUT);
    CHECK_INT(e.col, 17);
}

static void test_solvable(void)
{
    sb_npuzzle p;
    sb_error e;
    sb_np_goal(&p, 3, 3, SB_NP_BLANK_LAST);
    CHECK(sb_np_solvable(&p, SB_NP_BLANK_LAST));
    CHECK(sb_np_is_goal(&p, SB_NP_BLANK_LAST));
    /* the blank-last goal seen from the blank-first one: a cyclic shift of
     * 9 cells (even) and the blank 4 moves away (even) */
    CHECK(sb_np_solvable(&p, SB_NP_BLANK_FIRST));
    p.cell[0] = 2, p.cell[1] = 1;
    CHECK(!sb_np_solvable(&p, SB_NP_BLANK_LAST));
    sb_np_goal(&p, 4, 4, SB_NP_BLANK_LAST);
    /* on 4 x 4 the shift is odd and the blank's distance (6) even */
    CHECK(!sb_np_solvable(&p, SB_NP_BLANK_FIRST));
    CHECK_INT(sb_np_apply(&p, "uulldr", &e), 0);
    CHECK(sb_np_solvable(&p, SB_NP_BLANK_LAST));
    CHECK_INT(sb_np_apply(&p, "ldruur", &e), 0);
    CHECK_INT(sb_np_apply(&p, "dr", &e), SB_EINVALPOS);
    CHECK_INT(e.col, 2);
}

/* --- a plain breadth-first search over one whole board, for reference --- */

static int n_ref;

static uint32_t rank_ref(const uint8_t *c)
{
    /* lexicographic rank, quadratic and obviously right */
    uint32_t r = 0;
    for (int i = 0; i < n_ref; i++) {
        int less = 0;
        for (int j = i + 1; j < n_ref; j++)
            less += c[j] < c[i];
        r = r * (uint32_t)(n_ref - i) + (uint32_t)less;
    }
    return r;
}

static void unrank_ref(uint32_t r, uint8_t *c)
{
    int used[SB_NP_MAXCELLS] = {0};
    uint32_t div[SB_NP_MAXCELLS];
    div[n_ref - 1] = 1;
    for (int i = n_ref - 2; i >= 0; i--)
        div[i] = div[i + 1] * (uint32_t)(n_ref - 1 - i);
    for (int i = 0; i < n_ref; i++) {
        int d = (int)(r / div[i]), t = 0;
        r %= div[i];
        for (;; t++)
            if (!used[t] && d-- == 0)
                break;
        used[t] = 1;
        c[i] = (uint8_t)t;
    }
}

/* dist[rank] from the goal; returns the number of positions reached */
static uint32_t bfs_ref(int rows, int cols, int goal, uint8_t *dist, uint32_t total)
{
    sb_npuzzle g;
    uint32_t *q = malloc(sizeof *q * total), head = 0, tail = 0;
    n_ref = rows * cols;
    memset(dist, 0xff, total);
    sb_np_goal(&g, rows, cols, goal);
    q[tail++] = rank_ref(g.cell);
    dist[q[0]] = 0;
    while (head < tail) {
        uint8_t c[SB_NP_MAXCELLS];
        uint32_t r = q[head++];
        int b = 0;
        unrank_ref(r, c);
        while (c[b])
            b++;
        for (int d = 0; d < 4; d++) {
            int rr = b / cols + (d == 0 ? -1 : d == 1 ? 1 : 0);
            int cc = b % cols + (d == 2 ? -1 : d == 3 ? 1 : 0);
            uint32_t s;
            if (rr < 0 || rr >= rows || cc < 0 || cc >= cols)
                continue;
            c[b] = c[rr * cols + cc];
            c[rr * cols + cc] = 0;
            s = rank_ref(c);
            if (dist[s] == 0xff) {
                dist[s] = (uint8_t)(dist[r] + 1);
                q[tail++] = s;
            }
            c[rr * cols + cc] = c[b];
            c[b] = 0;
        }
    }
    free(q);
    return tail;
}

static void solve_all(int rows, int cols, int goal, uint32_t step, uint32_t want_reached, int want_max)
{
    uint32_t total = 1, reached, solved = 0, agree = 0, unsolv = 0, maxd = 0, tagree = 0;
    sb_np_table npt;
    uint8_t *dist;
    sb_np_pdbset set;
    sb_mem mem;
    sb_error e;
    for (int i = 2; i <= rows * cols; i++)
        total *= (uint32_t)i;
    dist = malloc(total);
    reached = bfs_ref(rows, cols, goal, dist, total);
    CHECK_U64(reached, want_reached);
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_np_pdbset_open(&set, rows, cols, "auto", NULL, UINT64_MAX, 1, 0, &mem, NULL, NULL, NULL, &e), 0);
    CHECK_INT(sb_np_table_init(&npt, rows, cols, &e), 0);
    CHECK_INT(sb_np_table_build(&npt, NULL, &mem, NULL, &e), 0);
    for (uint32_t r = 0; r < total; r += step) {
        sb_npuzzle p, q;
        sb_np_result res;
        p.rows = rows, p.cols = cols, p.n = rows * cols;
        unrank_ref(r, p.cell);
        if (np_solve_heur(&set.heur, &p, goal, 1, &res, NULL, &e) != 0)
            continue;
        if (dist[r] == 0xff) {
            unsolv += res.length == -1;
            continue;
        }
        solved++;
        if (res.length > (int)maxd)
            maxd = (uint32_t)res.length;
        q = p;
        if (res.length == dist[r] && (int)strlen(res.moves) == res.length &&
            sb_np_apply(&q, res.moves, &e) == 0 && sb_np_is_goal(&q, goal))
            agree++;
        /* the same length from the God's table, by its own path */
        q = p;
        if (np_solve_table(&npt, &p, goal, &res, &e) == 0 && res.length == dist[r] &&
            sb_np_apply(&q, res.moves, &e) == 0 && sb_np_is_goal(&q, goal))
            tagree++;
    }
    CHECK_U64(tagree, solved);
    sb_np_table_free(&npt);
    CHECK_U64(agree, solved);
    CHECK_U64(solved + unsolv, (total + step - 1) / step);
    if (want_max >= 0)
        CHECK_INT(maxd, want_max);
    sb_np_pdbset_close(&set);
    CHECK_U64(mem.used, 0);
    free(dist);
}

static void test_small_boards(void)
{
    /* every position: 2x2 (12 solvable, farthest 6), 2x3 (360, 21), 3x2 */
    solve_all(2, 2, SB_NP_BLANK_LAST, 1, 12, 6);
    solve_all(2, 3, SB_NP_BLANK_LAST, 1, 360, 21);
    solve_all(3, 2, SB_NP_BLANK_FIRST, 1, 360, 21);
    /* the 8-puzzle: 181,440 solvable positions; every 97th position */
    solve_all(3, 3, SB_NP_BLANK_LAST, t_sanitized() ? 997 : 97, 181440, -1);
    solve_all(2, 4, SB_NP_BLANK_FIRST, t_sanitized() ? 499 : 41, 20160, -1);
}

static void test_eight_samples(void)
{
    static const struct {
        const char *in;
        int len;
    } cases[] = {
        {"2 3 4 1 5 x 7 6 8", 19}, /* the problem's sample */
        {"6 4 7 8 5 x 3 2 1", 31}, /* the judge's input */
        {"8 6 7 2 5 4 3 x 1", 31}, /* the other position at distance 31 */
        {"1 2 3 4 5 6 7 8 x", 0},
        {"2 1 3 4 5 6 7 8 x", -1}, /* a swapped pair */
    };
    sb_np_pdbset set;
    sb_mem mem;
    sb_error e;
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_np_pdbset_open(&set, 3, 3, "auto", NULL, UINT64_MAX, 1, 0, &mem, NULL, NULL, NULL, &e), 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sb_npuzzle p;
        sb_np_result res;
        CHECK_INT(sb_np_parse_eight(cases[i].in, strlen(cases[i].in), &p, &e), 0);
        CHECK_INT(np_solve_heur(&set.heur, &p, SB_NP_BLANK_LAST, 1, &res, NULL, &e), 0);
        CHECK_INT(res.length, cases[i].len);
        if (res.length >= 0) {
            CHECK_INT(sb_np_apply(&p, res.moves, &e), 0);
            CHECK(sb_np_is_goal(&p, SB_NP_BLANK_LAST));
        }
    }
    sb_np_pdbset_close(&set);
}

static void test_partitions(void)
{
    uint8_t g[SB_NP_MAXPDB][SB_NP_PDB_MAXK];
    int size[SB_NP_MAXPDB];
    sb_error e;
    CHECK_INT(sb_np_partition(4, 4, "663", g, size, &e), 3);
    CHECK_INT(size[0] + size[1] + size[2], 15);
    CHECK_INT(sb_np_partition(4, 4, "78", g, size, &e), 2);
    CHECK_INT(g[1][7], 15);
    CHECK_INT(sb_np_partition(4, 4, "555", g, size, &e), 3);
    CHECK_INT(sb_np_partition(3, 4, "78", g, size, &e), SB_EUSAGE);
    CHECK_INT(sb_np_partition(3, 3, "auto", g, size, &e), 1);
    CHECK_INT(size[0], 8);
    CHECK_INT(sb_np_partition(5, 5, "auto", g, size, &e), 5);
    CHECK_INT(sb_np_partition(3, 4, "auto", g, size, &e), 2);
    CHECK_INT(size[0], 7);
    /* 6666: four groups of six that cover 1..24 once, on 5 x 5 only */
    {
        uint32_t cover = 0;
        int twice = 0;
        CHECK_INT(sb_np_partition(5, 5, "6666", g, size, &e), 4);
        for (int i = 0; i < 4; i++) {
            CHECK_INT(size[i], 6);
            for (int j = 0; j < 6; j++) {
                twice += (cover >> g[i][j] & 1) != 0;
                cover |= 1u << g[i][j];
            }
        }
        CHECK_INT(twice, 0);
        CHECK_U64(cover, 0x1fffffe);
        CHECK_INT(g[0][5], 12);
        CHECK_INT(g[3][0], 17);
        CHECK_INT(sb_np_partition(4, 4, "6666", g, size, &e), SB_EUSAGE);
        CHECK_INT(sb_np_partition(5, 5, "78", g, size, &e), SB_EUSAGE);
    }
}

/* Optimal lengths on the 24-puzzle need no big table to be checked: short
 * random walks from the goal, solved by IDA* over eight random patterns of
 * three tiles (tables of 13,800 entries), with and without the transposed
 * lookups, must come out exactly as long as a plain IDA* over the
 * Manhattan distance written here finds, and the moves must reach the
 * goal. */
static int man_n, man_cols;
static uint8_t man_cell[25];

static int manhattan(void)
{
    int h = 0;
    for (int c = 0; c < man_n; c++)
        if (man_cell[c])
            h += abs(c / man_cols - man_cell[c] / man_cols) + abs(c % man_cols - man_cell[c] % man_cols);
    return h;
}

static int man_dfs(int blank, int g, int bound, int last, int *next)
{
    int h = manhattan(), best = INT32_MAX;
    if (g + h > bound) {
        *next = g + h < *next ? g + h : *next;
        return 0;
    }
    if (h == 0)
        return 1;
    for (int d = 0; d < 4; d++) {
        int to = blank + (d == 0 ? -man_cols : d == 1 ? man_cols : d == 2 ? -1 : 1);
        if (d == (last ^ 1) || to < 0 || to >= man_n || (d == 2 && blank % man_cols == 0) ||
            (d == 3 && blank % man_cols == man_cols - 1))
            continue;
        man_cell[blank] = man_cell[to];
        man_cell[to] = 0;
        best = man_dfs(to, g + 1, bound, d, next);
        man_cell[to] = man_cell[blank];
        man_cell[blank] = 0;
        if (best)
            return 1;
    }
    return 0;
}

/* the optimal length from cell[] to the blank-first goal */
static int man_solve(const uint8_t *cell, int rows, int cols)
{
    int blank = 0, bound;
    man_n = rows * cols;
    man_cols = cols;
    memcpy(man_cell, cell, (size_t)man_n);
    while (man_cell[blank])
        blank++;
    for (bound = manhattan();;) {
        int next = INT32_MAX;
        if (man_dfs(blank, 0, bound, 9, &next))
            return bound;
        bound = next;
    }
}

static void test_five(void)
{
    sb_np_pdb pdb[8];
    sb_np_heur h;
    sb_rng rng;
    uint8_t tiles[24];
    sb_error e;
    int solved = 0;
    sb_rng_seed(&rng, 24);
    for (int i = 0; i < 24; i++)
        tiles[i] = (uint8_t)(i + 1);
    for (int i = 0; i < 23; i++) {
        int j = i + (int)sb_rng_below(&rng, (uint64_t)(24 - i));
        uint8_t t = tiles[i];
        tiles[i] = tiles[j];
        tiles[j] = t;
    }
    memset(&h, 0, sizeof h);
    h.rows = h.cols = 5;
    h.n = 25;
    h.npdb = 8;
    for (int g = 0; g < 8; g++) {
        CHECK_INT(sb_np_pdb_init(&pdb[g], 5, 5, tiles + 3 * g, 3, &e), 0);
        CHECK_INT(sb_np_pdb_build(&pdb[g], NULL, 1, NULL, &e), 0);
        h.pdb[g] = &pdb[g];
    }
    for (int i = 0; i < 12; i++) {
        sb_npuzzle p, q;
        int len = 14 + i * 2, k = 0, want;
        sb_np_goal(&p, 5, 5, SB_NP_BLANK_FIRST);
        while (k < len) {
            char walk[2] = {"udlr"[sb_rng_below(&rng, 4)], 0};
            q = p;
            if (sb_np_apply(&q, walk, NULL) == 0)
                p = q, k++;
        }
        want = man_solve(p.cell, 5, 5);
        for (h.reflect = 0; h.reflect <= 1; h.reflect++) {
            sb_np_result r;
            CHECK_INT(np_solve_heur(&h, &p, SB_NP_BLANK_FIRST, 1 + h.reflect, &r, NULL, &e), 0);
            CHECK_INT(r.length, want);
            q = p;
            CHECK_INT(sb_np_apply(&q, r.moves, NULL), 0);
            CHECK_INT(sb_np_is_goal(&q, SB_NP_BLANK_FIRST), 1);
            solved += r.length == want;
        }
    }
    CHECK_INT(solved, 24);
    for (int g = 0; g < 8; g++)
        sb_np_pdb_free(&pdb[g]);
}

/* The 15-puzzle with the quick 5-5-5 databases through the public
 * solver: on 2 and 3 threads one instance gets exactly the moves and the
 * node count of one thread, and a batch delivers every instance in input
 * order with the answers of the one-at-a-time solves.  Instances: random
 * walks of 20..59 moves from the goal (lengths up to about 50), both goals. */
typedef struct order {
    int next, bad;
    const sb_np_result *want;
} order;

static int in_order(void *ud, sb_np_job *j)
{
    order *o = ud;
    o->bad += j->tag != o->next || j->rc != 0 || j->res.length != o->want[j->tag].length ||
              strcmp(j->res.moves, o->want[j->tag].moves) != 0 ||
              j->res.nodes != o->want[j->tag].nodes;
    o->next++;
    return 0;
}

static void test_threads(void)
{
    enum { N = 12 };
    sb_np_solver_opts so = {"555", NULL, 2, 0, NULL, NULL};
    sb_np_solver_info in;
    sb_np_solver *s;
    sb_np_result one[N];
    sb_np_job jobs[N];
    sb_mem mem;
    sb_error e;
    uint64_t x = 99;
    int same = 0, goal = SB_NP_BLANK_FIRST;
    order o = {0, 0, one};
    sb_mem_init(&mem, 0);
    s = sb_np_solver_open(4, 4, &so, &mem, NULL, &in, &e);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_INT(in.tables, 3);
    CHECK_INT(in.built, 3);
    CHECK_STR(in.partition, "555");
    for (int i = 0; i < N; i++) {
        sb_npuzzle p;
        char walk[64];
        int len = 20 + i * 40 / N, k = 0;
        sb_np_goal(&p, 4, 4, goal);
        while (k < len) {
            sb_npuzzle q = p;
            x = x * 6364136223846793005u + 1442695040888963407u;
            walk[0] = "udlr"[(x >> 33) & 3];
            walk[1] = 0;
            if (sb_np_apply(&q, walk, NULL) == 0)
                p = q, k++;
        }
        CHECK_INT(sb_np_solve(s, &p, goal, 1, &one[i], NULL, &e), 0);
        for (int t = 2; t <= 3; t++) {
            sb_np_result r;
            CHECK_INT(sb_np_solve(s, &p, goal, t, &r, NULL, &e), 0);
            same += r.length == one[i].length && r.nodes == one[i].nodes &&
                    r.iterations == one[i].iterations && strcmp(r.moves, one[i].moves) == 0;
        }
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].solver = s;
        jobs[i].p = p;
        jobs[i].tag = i;
    }
    CHECK_INT(same, 2 * N);
    CHECK_INT(sb_np_solve_batch(jobs, N, goal, 2, in_order, &o, NULL), 0);
    CHECK_INT(o.next, N);
    CHECK_INT(o.bad, 0);
    /* fewer jobs than threads: each search gets the spare ones */
    o.next = 0;
    CHECK_INT(sb_np_solve_batch(jobs, 1, goal, 3, in_order, &o, NULL), 0);
    CHECK_INT(o.next, 1);
    CHECK_INT(o.bad, 0);
    sb_np_solver_close(s);
    CHECK_U64(mem.used, 0);
}

int main(void)
{
    RUN(test_threads);
    RUN(test_parse_line);
    RUN(test_parse_eight);
    RUN(test_solvable);
    RUN(test_partitions);
    RUN(test_five);
    RUN(test_eight_samples);
    RUN(test_small_boards);
    return TEST_END();
}
