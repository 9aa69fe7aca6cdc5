/* The library's contract with its callers: every public function that
 * takes a pointer, a size or a move number refuses a NULL pointer or a
 * value out of range with the error its header names (SB_EUSAGE and a
 * message where it takes an sb_error) instead of reading or writing out of
 * bounds.  The suite runs this under ASan, so a missing check fails here
 * even when the function happens to return the right code. */
#include "harness.h"

#include "sbfs/sbfs.h"
#include "../src/playfair/pf_internal.h" /* the calls kept out of the public API */
#include "../src/search/bfs.h" /* the engines behind sbfs/search.h check too */
#include "../src/search/levels.h"
#include "../src/core/internal.h"
#include "../src/index/rank_internal.h"
#include "../src/index/table_internal.h"
#include "../src/tetraminx/tet_internal.h"
#include "../src/slide/slide_internal.h"
#include "../src/search/ida.h"
#include "../src/npuzzle/np_internal.h" /* the n-puzzle layers below its public solver */

static sb_error e;

/* A call that takes &e: SB_EUSAGE, and e says so with a message. */
#define USAGE(call)                                                             \
    do {                                                                        \
        memset(&e, 0, sizeof e);                                                \
        CHECK_INT((call), SB_EUSAGE);                                           \
        CHECK_INT(e.code, SB_EUSAGE);                                           \
        CHECK(e.msg[0] != 0);                                                   \
    } while (0)

static void test_npuzzle(void)
{
    sb_npuzzle p, q;
    sb_np_result res;
    sb_np_heur h;
    sb_np_pdbset ps;
    uint8_t groups[SB_NP_MAXPDB][SB_NP_PDB_MAXK];
    int size[SB_NP_MAXPDB];

    /* sb_np_goal: sides 2..5, two goals */
    CHECK_INT(sb_np_goal(&p, 6, 6, SB_NP_BLANK_LAST), SB_EUSAGE);
    CHECK_INT(sb_np_goal(&p, 1, 4, SB_NP_BLANK_LAST), SB_EUSAGE);
    CHECK_INT(sb_np_goal(&p, 3, 3, 7), SB_EUSAGE);
    CHECK_INT(sb_np_goal(&p, -3, 3, SB_NP_BLANK_LAST), SB_EUSAGE);
    CHECK_INT(sb_np_goal(NULL, 3, 3, SB_NP_BLANK_LAST), SB_EUSAGE);
    CHECK_INT(sb_np_goal(&p, 5, 5, SB_NP_BLANK_FIRST), 0);

    /* parsing */
    USAGE(sb_np_parse_line("1 2 3 0", 1, 1, 4, &p, &e));
    USAGE(sb_np_parse_line("1 2 3 0", 1, 6, 6, &p, &e));
    USAGE(sb_np_parse_line("1 2 3 0", 1, 0, 2, &p, &e));
    USAGE(sb_np_parse_line(NULL, 1, 2, 2, &p, &e));
    USAGE(sb_np_parse_line("1 2 3 0", 1, 2, 2, NULL, &e));
    CHECK_INT(sb_np_parse_line("1 2 3 0", 1, 1, 4, &p, NULL), SB_EUSAGE);
    CHECK_INT(sb_np_parse_line("1 2 3 0", 1, 2, 2, &p, &e), 0);
    USAGE(sb_np_parse_eight(NULL, 5, &p, &e));
    USAGE(sb_np_parse_eight("1 2 3 4 5 6 7 8 x", 17, NULL, &e));

    /* positions that are not positions */
    sb_np_goal(&p, 3, 3, SB_NP_BLANK_LAST);
    q = p;
    q.rows = 6;
    CHECK_INT(sb_np_solvable(&q, SB_NP_BLANK_LAST), SB_EUSAGE);
    CHECK_INT(sb_np_is_goal(&q, SB_NP_BLANK_LAST), SB_EUSAGE);
    q = p;
    q.n = 25; /* 3 x 3 with 25 cells */
    CHECK_INT(sb_np_solvable(&q, SB_NP_BLANK_LAST), SB_EUSAGE);
    q = p;
    q.cell[0] = 200; /* a tile past the board */
    CHECK_INT(sb_np_solvable(&q, SB_NP_BLANK_LAST), SB_EUSAGE);
    CHECK_INT(sb_np_is_goal(&q, SB_NP_BLANK_LAST), SB_EUSAGE);
    USAGE(sb_np_apply(&q, "u", &e));
    q = p;
    q.cell[1] = q.cell[0]; /* a tile twice */
    CHECK_INT(sb_np_solvable(&q, SB_NP_BLANK_FIRST), SB_EUSAGE);
    CHECK_INT(sb_np_solvable(NULL, SB_NP_BLANK_LAST), SB_EUSAGE);
    CHECK_INT(sb_np_solvable(&p, 2), SB_EUSAGE);
    CHECK_INT(sb_np_is_goal(NULL, SB_NP_BLANK_LAST), SB_EUSAGE);
    CHECK_INT(sb_np_is_goal(&p, -1), SB_EUSAGE);
    CHECK_INT(sb_np_solvable(&p, SB_NP_BLANK_LAST), 1);
    CHECK_INT(sb_np_is_goal(&p, SB_NP_BLANK_LAST), 1);
    USAGE(sb_np_apply(NULL, "u", &e));
    USAGE(sb_np_apply(&p, NULL, &e));

    /* partitions and heuristic sets */
    USAGE(sb_np_partition(1, 4, "auto", groups, size, &e));
    USAGE(sb_np_partition(6, 6, "auto", groups, size, &e));
    USAGE(sb_np_partition(4, 4, NULL, groups, size, &e));
    USAGE(sb_np_partition(4, 4, "auto", NULL, size, &e));
    USAGE(sb_np_partition(4, 4, "auto", groups, NULL, &e));
    USAGE(sb_np_pdbset_open(NULL, 2, 2, "auto", NULL, 0, 1, 0, NULL, NULL, NULL, NULL, &e));
    USAGE(sb_np_pdbset_open(&ps, 2, 2, NULL, NULL, 0, 1, 0, NULL, NULL, NULL, NULL, &e));
    USAGE(sb_np_pdbset_open(&ps, 6, 2, "auto", NULL, 0, 1, 0, NULL, NULL, NULL, NULL, &e));
    sb_np_pdbset_close(NULL);
    CHECK_INT(sb_np_pdbset_cached(4, 4, NULL, "/tmp"), 0);
    CHECK_INT(sb_np_pdbset_cached(9, 4, "auto", "/tmp"), 0);

    /* solving */
    memset(&h, 0, sizeof h);
    h.rows = h.cols = 3;
    h.n = 9;
    h.npdb = 1; /* a pattern database that is not there */
    USAGE(np_solve_heur(&h, &p, SB_NP_BLANK_LAST, 1, &res, NULL, &e));
    h.npdb = 99;
    USAGE(np_solve_heur(&h, &p, SB_NP_BLANK_LAST, 1, &res, NULL, &e));
    h.npdb = 0;
    USAGE(np_solve_heur(NULL, &p, SB_NP_BLANK_LAST, 1, &res, NULL, &e));
    USAGE(np_solve_heur(&h, NULL, SB_NP_BLANK_LAST, 1, &res, NULL, &e));
    USAGE(np_solve_heur(&h, &p, SB_NP_BLANK_LAST, 1, NULL, NULL, &e));
    USAGE(np_solve_heur(&h, &p, 5, 1, &res, NULL, &e));
    q = p;
    q.cell[4] = 99;
    USAGE(np_solve_heur(&h, &q, SB_NP_BLANK_LAST, 1, &res, NULL, &e));
    CHECK_INT(np_solve_heur(&h, &p, SB_NP_BLANK_LAST, 1, &res, NULL, &e), 0);
    CHECK_INT(res.length, 0);

    /* the public solver */
    {
        sb_np_solver_opts so = {"663", NULL, 1, 0, NULL, NULL};
        sb_np_job job;
        int bad = 0;
        CHECK(sb_np_solver_open(1, 3, NULL, NULL, NULL, NULL, &e) == NULL);
        CHECK_INT(e.code, SB_EUSAGE);
        memset(&e, 0, sizeof e);
        CHECK(sb_np_solver_open(3, 4, &so, NULL, NULL, NULL, &e) == NULL); /* 663 is 4x4's */
        CHECK_INT(e.code, SB_EUSAGE);
        USAGE(sb_np_solve(NULL, &p, SB_NP_BLANK_LAST, 1, &res, NULL, &e));
        sb_np_solver_close(NULL);
        CHECK_INT(sb_np_solve_batch(NULL, 1, SB_NP_BLANK_LAST, 1, NULL, NULL, NULL), SB_EUSAGE);
        CHECK_INT(sb_np_solve_batch(&job, -1, SB_NP_BLANK_LAST, 1, NULL, NULL, NULL), SB_EUSAGE);
        USAGE(sb_np_verify_cache(NULL, NULL, NULL, &bad, &e));
        CHECK_INT(sb_np_verify_cache("/nonexistent/dir", NULL, NULL, &bad, &e), SB_EIO);
    }
}

static void test_npuzzle_table(void)
{
    sb_np_table t;
    sb_npuzzle p;
    sb_np_result res;
    uint8_t cell[16];
    uint64_t out[4];
    char dir[4], moves[8];

    USAGE(sb_np_table_init(NULL, 2, 2, &e));
    USAGE(sb_np_table_init(&t, 1, 4, &e));
    USAGE(sb_np_table_init(&t, 4, 5, &e));
    CHECK_INT(sb_np_table_init(&t, 2, 3, &e), 0);
    CHECK_U64(sb_np_table_rank(NULL, cell), SB_NO_INDEX);
    CHECK_U64(sb_np_table_rank(&t, NULL), SB_NO_INDEX);
    CHECK_INT(sb_np_table_unrank(&t, t.size, cell), SB_EUSAGE);
    CHECK_INT(sb_np_table_unrank(&t, 0, NULL), SB_EUSAGE);
    CHECK_INT(sb_np_table_unrank(NULL, 0, cell), SB_EUSAGE);
    CHECK_INT(sb_np_table_unrank(&t, 0, cell), 0);
    CHECK_U64(sb_np_table_goal(NULL), SB_NO_INDEX);
    CHECK_INT(sb_np_table_neighbours(&t, t.size, out, dir), SB_EUSAGE);
    CHECK_INT(sb_np_table_neighbours(&t, UINT64_MAX, out, dir), SB_EUSAGE);
    CHECK_INT(sb_np_table_neighbours(&t, 0, NULL, dir), SB_EUSAGE);
    CHECK_INT(sb_np_table_neighbours(&t, 0, out, NULL), SB_EUSAGE);
    CHECK_INT(sb_np_table_distance(NULL, cell), SB_EUSAGE);
    CHECK_INT(sb_np_table_distance(&t, NULL), SB_EUSAGE);
    CHECK_INT(sb_np_table_descend(&t, cell, NULL, 8), SB_EUSAGE);
    CHECK_INT(sb_np_table_descend(&t, cell, moves, -1), SB_EUSAGE);
    CHECK_INT(sb_np_table_descend(&t, NULL, moves, 8), SB_EUSAGE);
    USAGE(sb_np_table_save(&t, "/nonexistent/x", &e)); /* no table */
    USAGE(sb_np_table_build(NULL, NULL, NULL, NULL, &e));
    USAGE(sb_np_table_save(NULL, "x", &e));
    USAGE(sb_np_table_load(NULL, "x", NULL, &e));
    sb_np_table_free(NULL);
    /* a table that sb_np_table_init did not set up */
    {
        sb_np_table bad = t;
        bad.cells = 40;
        CHECK_U64(sb_np_table_rank(&bad, cell), SB_NO_INDEX);
        CHECK_INT(sb_np_table_unrank(&bad, 0, cell), SB_EUSAGE);
        USAGE(sb_np_table_build(&bad, NULL, NULL, NULL, &e));
    }
    sb_np_goal(&p, 2, 3, SB_NP_BLANK_LAST);
    USAGE(np_solve_table(NULL, &p, SB_NP_BLANK_LAST, &res, &e));
    USAGE(np_solve_table(&t, NULL, SB_NP_BLANK_LAST, &res, &e));
    USAGE(np_solve_table(&t, &p, SB_NP_BLANK_LAST, NULL, &e));
    USAGE(np_solve_table(&t, &p, 3, &res, &e));
    USAGE(np_solve_table(&t, &p, SB_NP_BLANK_LAST, &res, &e)); /* no table yet */
    sb_np_table_free(&t);
}

static void test_tetraminx(void)
{
    static sb_tet_tables tab;
    sb_tet_facelets f;
    sb_tet_pieces p, q;
    sb_tet_god g;
    uint8_t moves[SB_TET_MAXDIST + 1] = {0, 8};
    char out[64];

    CHECK_STR(sb_tet_move_name(-1), "?");
    CHECK_STR(sb_tet_move_name(8), "?");
    CHECK_INT(sb_tet_facelets_solved(NULL), SB_EUSAGE);
    CHECK_INT(sb_tet_facelets_solved(&f), 0);
    CHECK_INT(sb_tet_facelets_move(&f, -1), SB_EUSAGE);
    CHECK_INT(sb_tet_facelets_move(&f, 8), SB_EUSAGE);
    CHECK_INT(sb_tet_facelets_move(&f, 1 << 30), SB_EUSAGE);
    CHECK_INT(sb_tet_facelets_move(NULL, 0), SB_EUSAGE);
    CHECK_INT(sb_tet_facelets_format(&f, NULL), SB_EUSAGE);
    CHECK_INT(sb_tet_facelets_format(NULL, out), SB_EUSAGE);
    CHECK_INT(sb_tet_pieces_solved(NULL), SB_EUSAGE);
    CHECK_INT(sb_tet_pieces_solved(&p), 0);
    CHECK_INT(sb_tet_pieces_move(&p, -5), SB_EUSAGE);
    CHECK_INT(sb_tet_pieces_move(&p, 8), SB_EUSAGE);
    CHECK_INT(sb_tet_pieces_move(NULL, 0), SB_EUSAGE);
    CHECK_INT(sb_tet_pieces_legal(&p), 1);
    CHECK_INT(sb_tet_pieces_legal(NULL), SB_EUSAGE);
    q = p;
    q.edge[0] = 200;
    CHECK_INT(sb_tet_pieces_legal(&q), 0);
    CHECK_INT(sb_tet_pieces_to_facelets(&q, &f), SB_EUSAGE);
    CHECK_U64(sb_tet_rank(&q), UINT32_MAX);
    q = p;
    q.twist[3] = 3;
    CHECK_INT(sb_tet_pieces_to_facelets(&q, &f), SB_EUSAGE);
    CHECK_INT(sb_tet_pieces_to_facelets(NULL, &f), SB_EUSAGE);
    CHECK_INT(sb_tet_pieces_to_facelets(&p, NULL), SB_EUSAGE);
    USAGE(sb_tet_facelets_to_pieces(NULL, &p, &e));
    USAGE(sb_tet_facelets_to_pieces(&f, NULL, &e));
    CHECK_U64(sb_tet_rank(NULL), UINT32_MAX);
    CHECK_INT(sb_tet_unrank(SB_TET_NPOS, &p), SB_EUSAGE);
    CHECK_INT(sb_tet_unrank(UINT32_MAX, &p), SB_EUSAGE);
    CHECK_INT(sb_tet_unrank(0, NULL), SB_EUSAGE);
    CHECK_U64(sb_tet_random(NULL), UINT32_MAX);
    CHECK_INT(sb_tet_tables_init(NULL), SB_EUSAGE);
    CHECK_INT(sb_tet_tables_init(&tab), 0);
    CHECK_U64(sb_tet_index_move(&tab, SB_TET_NPOS, 0), UINT32_MAX);
    CHECK_U64(sb_tet_index_move(&tab, 0, 8), UINT32_MAX);
    CHECK_U64(sb_tet_index_move(&tab, 0, -1), UINT32_MAX);
    CHECK(sb_tet_index_move(&tab, 0, 0) < SB_TET_NPOS);
    USAGE(sb_tet_parse(NULL, 3, 1, &p, &e));
    USAGE(sb_tet_parse("U", 1, 1, NULL, &e));
    CHECK_INT(sb_tet_parse(NULL, 0, 1, &p, &e), 0);
    CHECK_U64(sb_tet_format_moves(moves, 2, out), SIZE_MAX); /* move 8 */
    CHECK_STR(out, "");
    CHECK_U64(sb_tet_format_moves(moves, -1, out), SIZE_MAX);
    CHECK_U64(sb_tet_format_moves(NULL, 1, out), SIZE_MAX);
    CHECK_U64(sb_tet_format_moves(moves, 1, NULL), SIZE_MAX);
    CHECK_U64(sb_tet_format_moves(moves, 1, out), 1);
    USAGE(sb_tet_god_build(NULL, 1, NULL, NULL, &e));
    USAGE(sb_tet_god_load(NULL, "x", NULL, &e));
    CHECK(sb_tet_god_table(NULL) == NULL);
    sb_tet_god_free(NULL);
    memset(&g, 0, sizeof g); /* no table */
    CHECK_INT(sb_tet_god_solve(&g, 0, moves), SB_EUSAGE);
    CHECK_INT(sb_tet_god_solve(NULL, 0, moves), SB_EUSAGE);
    CHECK_INT(sb_tet_god_mod3(&g, SB_TET_NPOS), SB_EUSAGE);
}

static void test_core(void)
{
    sb_mem m;
    sb_rng r;
    size_t z = 7;
    void *p;

    CHECK_INT(sb_error_set(&e, SB_EIO, 0, 0, NULL), SB_EIO);
    CHECK_STR(e.msg, sb_strerror(SB_EIO));
    sb_error_clear(NULL);
    CHECK_INT(sb_mem_init(NULL, 10), SB_EUSAGE);
    CHECK_INT(sb_mem_init(&m, 10), 0);
    CHECK_U64(sb_mem_left(NULL), SIZE_MAX);
    p = sb_mem_alloc(NULL, 16, &e); /* no budget */
    CHECK(p != NULL);
    p = sb_mem_realloc(NULL, p, 16, 32, &e);
    CHECK(p != NULL);
    sb_mem_free(NULL, p, 32);
    USAGE(sb_mem_parse_size("1M", NULL, &e));
    USAGE(sb_mem_parse_size(NULL, &z, &e));
    CHECK_U64(z, 7);
    CHECK_INT(sb_rng_seed(NULL, 1), SB_EUSAGE);
    CHECK_U64(sb_rng_next(NULL), 0);
    CHECK_INT(sb_rng_seed(&r, 1), 0);
    CHECK_U64(sb_rng_below(&r, 0), 0);
    CHECK_U64(sb_rng_below(NULL, 10), 0);
    CHECK(sb_rng_below(&r, 10) < 10);
}

static void test_rank(void)
{
    uint8_t p[40] = {0}, d[40] = {0};
    int count[17] = {2, 1}, neg[2] = {-1, 3};

    CHECK_U64(sb_factorial(-1), 0);
    CHECK_U64(sb_factorial(21), 0);
    CHECK_U64(sb_falling(3, 4), 0);
    CHECK_U64(sb_falling(3, -1), 0);
    CHECK_U64(sb_falling(64, 30), 0); /* past 2^64 */
    CHECK_U64(sb_binom(65, 2), 0);
    CHECK_U64(sb_binom(-1, 0), 0);
    CHECK_U64(sb_binom(1000, 2), 0);

    /* permutations: sizes, NULL, items that are not a permutation */
    CHECK_U64(sb_rank_perm(p, 21), SB_RANK_BAD);
    CHECK_U64(sb_rank_perm(p, -1), SB_RANK_BAD);
    CHECK_U64(sb_rank_perm(NULL, 3), SB_RANK_BAD);
    p[0] = 200, p[1] = 1, p[2] = 0;
    CHECK_U64(sb_rank_perm(p, 3), SB_RANK_BAD);
    CHECK_INT(sb_perm_parity(p, 3), SB_EUSAGE);
    p[0] = 1; /* a repeat */
    CHECK_U64(sb_rank_perm(p, 3), SB_RANK_BAD);
    CHECK_INT(sb_perm_parity(p, 3), SB_EUSAGE);
    CHECK_INT(sb_perm_parity(p, 33), SB_EUSAGE);
    CHECK_INT(sb_perm_parity(NULL, 3), SB_EUSAGE);
    p[0] = 33, p[1] = 1; /* 33 & 31 = 1 must not pass for 1 */
    CHECK_U64(sb_rank_perm(p, 2), SB_RANK_BAD);
    p[0] = 2;
    CHECK_U64(sb_rank_perm(p, 3), 5); /* the reversal */
    CHECK_U64(sb_rank_perm(NULL, 0), 0);
    CHECK_INT(sb_unrank_perm(6, p, 3), SB_EUSAGE);
    CHECK_INT(sb_unrank_perm(0, p, 21), SB_EUSAGE);
    CHECK_INT(sb_unrank_perm(0, NULL, 3), SB_EUSAGE);
    CHECK_INT(sb_unrank_perm(5, p, 3), 0);
    CHECK_INT(sb_perm_digits(UINT64_MAX, d, 20), SB_EUSAGE);
    CHECK_INT(sb_perm_digits(0, d, 40), SB_EUSAGE);
    CHECK_INT(sb_perm_digits(0, NULL, 4), SB_EUSAGE);
    d[0] = 0, d[1] = 2, d[2] = 0; /* digit 1 has radix 2 */
    CHECK_INT(sb_perm_from_digits(d, p, 3), SB_EUSAGE);
    d[0] = 255;
    CHECK_INT(sb_perm_from_digits(d, p, 3), SB_EUSAGE);
    CHECK_INT(sb_perm_from_digits(NULL, p, 3), SB_EUSAGE);
    CHECK_INT(sb_perm_from_digits(d, NULL, 3), SB_EUSAGE);
    CHECK_U64(sb_rank_perm_even(p, 1), SB_RANK_BAD);
    CHECK_U64(sb_rank_perm_even(p, 21), SB_RANK_BAD);
    CHECK_U64(sb_rank_perm_even(NULL, 4), SB_RANK_BAD);
    p[0] = 9, p[1] = 0, p[2] = 1, p[3] = 2;
    CHECK_U64(sb_rank_perm_even(p, 4), SB_RANK_BAD);
    CHECK_INT(sb_unrank_perm_even(12, p, 4), SB_EUSAGE);
    CHECK_INT(sb_unrank_perm_even(0, p, 1), SB_EUSAGE);
    CHECK_INT(sb_unrank_perm_even(0, NULL, 4), SB_EUSAGE);
    CHECK_INT(sb_unrank_perm_even(11, p, 4), 0);

    /* orientations */
    p[0] = 3, p[1] = 0;
    CHECK_U64(sb_rank_orient(p, 2, 3), SB_RANK_BAD);
    CHECK_U64(sb_rank_orient(p, 2, 0), SB_RANK_BAD);
    CHECK_U64(sb_rank_orient(p, 2, 300), SB_RANK_BAD);
    CHECK_U64(sb_rank_orient(p, 64, 2), SB_RANK_BAD); /* 2^64 ranks */
    CHECK_U64(sb_rank_orient(p, -1, 2), SB_RANK_BAD);
    CHECK_U64(sb_rank_orient(NULL, 2, 3), SB_RANK_BAD);
    CHECK_INT(sb_unrank_orient(9, p, 2, 3), SB_EUSAGE);
    CHECK_INT(sb_unrank_orient(0, p, 2, 0), SB_EUSAGE);
    CHECK_INT(sb_unrank_orient(0, NULL, 2, 3), SB_EUSAGE);
    CHECK_INT(sb_unrank_orient(8, p, 2, 3), 0);
    CHECK_U64(sb_rank_orient_sum0(p, 0, 3), SB_RANK_BAD);
    CHECK_INT(sb_unrank_orient_sum0(3, p, 2, 3), SB_EUSAGE);
    CHECK_INT(sb_unrank_orient_sum0(0, p, 0, 3), SB_EUSAGE);
    CHECK_INT(sb_unrank_orient_sum0(0, p, 2, 0), SB_EUSAGE);
    CHECK_INT(sb_unrank_orient_sum0(0, NULL, 2, 3), SB_EUSAGE);

    /* combinations */
    memset(p, 0, sizeof p);
    p[0] = p[5] = 1;
    CHECK_U64(sb_rank_comb(p, 65, 2), SB_RANK_BAD);
    CHECK_U64(sb_rank_comb(p, 6, 7), SB_RANK_BAD);
    CHECK_U64(sb_rank_comb(p, 6, 3), SB_RANK_BAD); /* two pieces, not three */
    CHECK_U64(sb_rank_comb(NULL, 6, 2), SB_RANK_BAD);
    CHECK_INT(sb_unrank_comb(15, p, 6, 2), SB_EUSAGE);
    CHECK_INT(sb_unrank_comb(0, p, 65, 2), SB_EUSAGE);
    CHECK_INT(sb_unrank_comb(0, p, 6, -1), SB_EUSAGE);
    CHECK_INT(sb_unrank_comb(0, NULL, 6, 2), SB_EUSAGE);
    CHECK_INT(sb_unrank_comb(14, p, 6, 2), 0);

    /* partial permutations */
    p[0] = 40, p[1] = 1;
    CHECK_U64(sb_rank_partial(p, 16, 2), SB_RANK_BAD);
    p[0] = 1;
    CHECK_U64(sb_rank_partial(p, 16, 2), SB_RANK_BAD); /* repeat */
    CHECK_U64(sb_rank_partial(p, 33, 2), SB_RANK_BAD);
    CHECK_U64(sb_rank_partial(p, 16, 17), SB_RANK_BAD);
    CHECK_U64(sb_rank_partial(p, 32, 32), SB_RANK_BAD); /* 32! > 2^64 */
    CHECK_U64(sb_rank_partial(NULL, 16, 2), SB_RANK_BAD);
    CHECK_INT(sb_unrank_partial(240, p, 16, 2), SB_EUSAGE);
    CHECK_INT(sb_unrank_partial(0, p, 16, -1), SB_EUSAGE);
    CHECK_INT(sb_unrank_partial(0, p, 32, 32), SB_EUSAGE);
    CHECK_INT(sb_unrank_partial(0, NULL, 16, 2), SB_EUSAGE);
    CHECK_INT(sb_unrank_partial(239, p, 16, 2), 0);

    /* multiset permutations: kinds 0 and 1 appearing 2 and 1 times */
    CHECK_U64(sb_count_multiset(count, 2), 3);
    CHECK_U64(sb_count_multiset(count, 0), 0);
    CHECK_U64(sb_count_multiset(count, 17), 0);
    CHECK_U64(sb_count_multiset(neg, 2), 0);
    CHECK_U64(sb_count_multiset(NULL, 2), 0);
    p[0] = 0, p[1] = 5, p[2] = 0; /* kind 5 of 2 */
    CHECK_U64(sb_rank_multiset(p, 3, count, 2), SB_RANK_BAD);
    p[1] = 0; /* three of kind 0 */
    CHECK_U64(sb_rank_multiset(p, 3, count, 2), SB_RANK_BAD);
    p[1] = 1;
    CHECK_U64(sb_rank_multiset(p, 4, count, 2), SB_RANK_BAD); /* counts add to 3 */
    CHECK_U64(sb_rank_multiset(p, 3, neg, 2), SB_RANK_BAD);
    CHECK_U64(sb_rank_multiset(NULL, 3, count, 2), SB_RANK_BAD);
    CHECK_U64(sb_rank_multiset(p, 3, NULL, 2), SB_RANK_BAD);
    CHECK_U64(sb_rank_multiset(p, 3, count, 2), 1);
    CHECK_INT(sb_unrank_multiset(3, p, 3, count, 2), SB_EUSAGE);
    CHECK_INT(sb_unrank_multiset(0, p, 5, count, 2), SB_EUSAGE);
    CHECK_INT(sb_unrank_multiset(0, p, 3, count, 17), SB_EUSAGE);
    CHECK_INT(sb_unrank_multiset(0, NULL, 3, count, 2), SB_EUSAGE);
    CHECK_INT(sb_unrank_multiset(2, p, 3, count, 2), 0);
}

static void test_pdb(void)
{
    sb_np_pdb d, bad;
    uint8_t tiles[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, pos[SB_NP_PDB_MAXK] = {0, 1};
    char name[64];

    USAGE(sb_np_pdb_init(NULL, 3, 3, tiles, 2, &e));
    USAGE(sb_np_pdb_init(&d, 3, 3, NULL, 2, &e));
    USAGE(sb_np_pdb_init(&d, 6, 3, tiles, 2, &e));
    USAGE(sb_np_pdb_init(&d, 3, 3, tiles, 9, &e));
    USAGE(sb_np_pdb_init(&d, 2, 2, tiles, 4, &e));
    USAGE(sb_np_pdb_init(&d, 2, 2, tiles + 3, 1, &e)); /* tile 4 on a 2x2 */
    CHECK_INT(sb_np_pdb_init(&d, 2, 3, tiles, 2, &e), 0);
    bad = d;
    bad.k = 40;
    USAGE(sb_np_pdb_build(&bad, NULL, 1, NULL, &e));
    USAGE(sb_np_pdb_build(NULL, NULL, 1, NULL, &e));
    bad = d;
    bad.tiles[1] = 200;
    USAGE(sb_np_pdb_save(&bad, "x", &e));
    USAGE(sb_np_pdb_load(&bad, "x", NULL, NULL, &e));
    USAGE(sb_np_pdb_save(&d, NULL, &e));
    USAGE(sb_np_pdb_load(&d, NULL, NULL, NULL, &e));
    USAGE(sb_np_pdb_save(&d, "/nonexistent/x", &e)); /* not built */
    CHECK_INT(sb_np_pdb_probe(NULL, "x"), 0);
    CHECK_INT(sb_np_pdb_probe(&d, NULL), 0);
    CHECK_INT(sb_np_pdb_filename(&d, NULL, 10), SB_EUSAGE);
    CHECK_INT(sb_np_pdb_filename(&d, name, 0), SB_EUSAGE);
    CHECK_INT(sb_np_pdb_filename(&bad, name, sizeof name), SB_EUSAGE);
    CHECK_STR(name, "");
    CHECK_INT(sb_np_pdb_filename(&d, name, 5), 0); /* cut short */
    CHECK_STR(name, "npuz");
    CHECK_U64(sb_np_pdb_checksum(NULL, 100), 0);
    CHECK_U64(sb_np_pdb_rank(&d, NULL), UINT64_MAX);
    CHECK_U64(sb_np_pdb_rank(&bad, pos), UINT64_MAX);
    pos[1] = 6; /* past the 6 cells */
    CHECK_U64(sb_np_pdb_rank(&d, pos), UINT64_MAX);
    pos[1] = 0; /* a cell twice */
    CHECK_U64(sb_np_pdb_rank(&d, pos), UINT64_MAX);
    pos[0] = 1, pos[1] = 2;
    CHECK_U64(sb_np_pdb_rank(&d, pos), 6);
    CHECK_INT(sb_np_pdb_unrank(&d, d.size, pos), SB_EUSAGE);
    CHECK_INT(sb_np_pdb_unrank(&d, 0, NULL), SB_EUSAGE);
    CHECK_INT(sb_np_pdb_unrank(&bad, 0, pos), SB_EUSAGE);
    CHECK_INT(sb_np_pdb_unrank(&d, 6, pos), 0);
    CHECK_INT(pos[0] * 10 + pos[1], 12);
    sb_np_pdb_free(NULL);
}

static uint64_t cycle_move(void *ud, void *scratch, uint64_t r, int m)
{
    (void)ud, (void)scratch;
    return m ? (r + 9) % 10 : (r + 1) % 10;
}

static void test_table(void)
{
    sb_model m = {"cycle", NULL, 10, 2, 1, 0, cycle_move, NULL, 0, NULL, NULL}, big = m;
    sb_table *t = NULL, *bad = NULL;
    sb_table_opts o = {3, 1, SB_SCAN_AUTO, -1};
    uint64_t start = 0, far = 10, next;

    CHECK_U64(sb_table_bytes(100, 3), 0);
    CHECK_U64(sb_table_bytes(100, -8), 0);
    CHECK_U64(sb_table_bytes(SB_TABLE_MAXSIZE + 1, 2), 0);
    USAGE(sb_table_build(NULL, &m, &start, 1, NULL, NULL, NULL, &e));
    USAGE(sb_table_build(&t, NULL, &start, 1, NULL, NULL, NULL, &e));
    CHECK(t == NULL); /* no table made */
    USAGE(sb_table_build(&t, &m, NULL, 1, NULL, NULL, NULL, &e));
    USAGE(sb_table_build(&t, &m, &far, 1, NULL, NULL, NULL, &e));
    sb_table_free(t); /* whatever build returns */
    USAGE(sb_table_build(&t, &m, &start, 1, &o, NULL, NULL, &e));
    sb_table_free(t);
    big.nmoves = SB_MAX_MOVES + 1;
    USAGE(sb_table_build(&t, &big, &start, 1, NULL, NULL, NULL, &e));
    big = m;
    big.scratch_size = SB_MAX_SCRATCH + 1;
    USAGE(sb_table_build(&t, &big, &start, 1, NULL, NULL, NULL, &e));
    sb_table_free(t);
    CHECK_INT(sb_table_build(&t, &m, &start, 1, NULL, NULL, NULL, &e), 0);
    CHECK_INT(sb_table_distance(t, &m, 5), 5);
    CHECK_INT(sb_table_code(NULL, 0), SB_EUSAGE);
    CHECK_INT(sb_table_code(t, 10), 3); /* past the end: not reached */
    CHECK_INT(sb_table_about(NULL).levels, 0);
    CHECK_STR(sb_table_about(NULL).name, "");
    CHECK_INT(sb_table_about(t).levels, 6);
    CHECK_U64(sb_table_count(t, -1), 0);
    CHECK_U64(sb_table_count(t, 6), 0);
    CHECK_U64(sb_table_count(NULL, 0), 0);
    CHECK(sb_table_codes(NULL) == NULL);
    CHECK_INT(sb_table_distance(NULL, &m, 5), SB_EUSAGE);
    CHECK_INT(sb_table_distance(t, NULL, 5), SB_EUSAGE);
    big = m;
    big.scratch_size = SB_MAX_SCRATCH * 4; /* would overrun the step's scratch */
    CHECK_INT(sb_table_distance(t, &big, 5), SB_EUSAGE);
    CHECK_INT(sb_table_step(t, &big, 5, &next, NULL), SB_EUSAGE);
    big = m;
    big.size = 20;
    CHECK_INT(sb_table_step(t, &big, 5, &next, NULL), SB_EUSAGE);
    CHECK_INT(sb_table_step(t, &m, 5, NULL, NULL), SB_EUSAGE);
    CHECK_INT(sb_table_step(NULL, &m, 5, &next, NULL), SB_EUSAGE);
    CHECK_INT(sb_table_step(t, NULL, 5, &next, NULL), SB_EUSAGE);
    CHECK_INT(sb_table_step(t, &m, 5, &next, NULL), 1);
    USAGE(sb_table_save(NULL, "x", &e));
    USAGE(sb_table_save(t, NULL, &e));
    USAGE(sb_table_load(NULL, &m, "x", NULL, &e));
    USAGE(sb_table_load(&bad, &m, NULL, NULL, &e));
    USAGE(sb_table_load(&bad, NULL, "x", NULL, &e));
    CHECK(bad == NULL);
    sb_table_free(t);
    sb_table_free(NULL);
}

static int line_expand(void *ud, const uint64_t *key, sb_emit_fn emit, void *ctx)
{
    uint64_t up = key[0] + 1, down = key[0] - 1; /* the line 0 - 1 - 2 - 3 - 4 */
    (void)ud;
    if (up < 5)
        emit(ctx, &up);
    if (key[0] > 0)
        emit(ctx, &down);
    return 0;
}

static int many_moves(void *m, int last, int *out)
{
    (void)m, (void)last, (void)out;
    return SB_IDA_MAXMOVES + 1; /* more than the frame holds */
}
static int no_apply(void *m, int mv)
{
    (void)m, (void)mv;
    return 1;
}
static void no_undo(void *m, int mv)
{
    (void)m, (void)mv;
}

static void watch_new(void *ud, const uint64_t *key, int level, uint64_t index, uint64_t from)
{
    (void)ud, (void)key, (void)level, (void)index, (void)from;
}

static void test_search(void)
{
    sb_keymodel m = {1, NULL, line_expand, NULL, 0, 1}, wide = m;
    sb_stateset s;
    sb_bfs b;
    sb_levels lv;
    sb_ida_model im = {many_moves, no_apply, no_undo, NULL, NULL, 0}, inull = im;
    uint64_t key = 0, path[8], n = 9;
    int added, len, ipath[8];

    USAGE(sb_stateset_init(NULL, 1, NULL, &e));
    USAGE(sb_stateset_init(&s, 0, NULL, &e));
    USAGE(sb_stateset_init(&s, SB_SEARCH_MAXKW + 1, NULL, &e));
    CHECK_INT(sb_stateset_init(&s, 1, NULL, &e), 0);
    USAGE(sb_stateset_add(&s, NULL, &added, &e));
    USAGE(sb_stateset_add(&s, &key, NULL, &e));
    USAGE(sb_stateset_add(NULL, &key, &added, &e));
    CHECK_INT(sb_stateset_find(&s, NULL), SB_EUSAGE);
    CHECK_INT(sb_stateset_find(NULL, &key), SB_EUSAGE);
    CHECK_INT(sb_stateset_find(&s, &key), -1);
    CHECK_U64(sb_stateset_bytes(NULL), 0);
    sb_stateset_prefetch_key(NULL, 0);
    sb_stateset_free(&s);
    USAGE(sb_stateset_add(&s, &key, &added, &e)); /* freed */
    sb_stateset_free(NULL);

    USAGE(sb_bfs_init(NULL, &m, NULL, &e));
    USAGE(sb_bfs_init(&b, NULL, NULL, &e));
    wide.expand = NULL;
    USAGE(sb_bfs_init(&b, &wide, NULL, &e));
    wide = m;
    wide.key_words = SB_SEARCH_MAXKW + 1;
    USAGE(sb_bfs_init(&b, &wide, NULL, &e));
    sb_bfs_free(&b);
    CHECK_INT(sb_bfs_init(&b, &m, NULL, &e), 0);
    USAGE(sb_bfs_run(&b, NULL, NULL, 0, NULL, &e));
    USAGE(sb_bfs_run(NULL, &key, NULL, 0, NULL, &e));
    CHECK_INT(sb_bfs_run(&b, &key, NULL, 0, NULL, &e), 0);
    CHECK_INT(sb_bfs_level_of(&b, 4), 4);
    CHECK_INT(sb_bfs_level_of(&b, 5), SB_EUSAGE);
    CHECK_INT(sb_bfs_level_of(NULL, 0), SB_EUSAGE);
    CHECK_U64(sb_bfs_level_size(NULL, 0), 0);
    USAGE(sb_bfs_path(&b, 5, path, &e));
    USAGE(sb_bfs_path(&b, UINT64_MAX, path, &e));
    USAGE(sb_bfs_path(&b, 4, NULL, &e));
    CHECK_INT(sb_bfs_path(&b, 4, path, &e), 0);
    sb_bfs_free(&b);
    sb_bfs_free(NULL);

    USAGE(sb_levels_init(NULL, &m, 1, NULL, &e));
    USAGE(sb_levels_init(&lv, NULL, 1, NULL, &e));
    wide = m;
    wide.key_words = SB_SEARCH_MAXKW + 1;
    USAGE(sb_levels_init(&lv, &wide, 1, NULL, &e));
    USAGE(sb_levels_run(&lv, &key, NULL, 0, NULL, &e)); /* init failed */
    CHECK_INT(sb_levels_init(&lv, &m, 1, NULL, &e), 0);
    USAGE(sb_levels_run(&lv, NULL, NULL, 0, NULL, &e));
    USAGE(sb_levels_run(NULL, &key, NULL, 0, NULL, &e));
    USAGE(sb_levels_path(&lv, path, NULL, &e)); /* no goal reached */
    USAGE(sb_levels_path(&lv, NULL, NULL, &e));
    USAGE(sb_levels_path(NULL, path, NULL, &e));
    CHECK_INT(sb_levels_count(NULL, 0), 0);
    CHECK_INT(sb_levels_count(&lv, 2), 0);
    CHECK_U64(sb_levels_size(NULL, 0, 0), 0);
    CHECK_U64(sb_levels_size(&lv, -1, 0), 0);
    CHECK_U64(sb_levels_total(NULL), 0);
    CHECK(sb_levels_last(NULL, &n) == NULL);
    CHECK_U64(n, 0);
    CHECK(sb_levels_last(&lv, NULL) == NULL);
    sb_levels_free(&lv);
    sb_levels_free(NULL);

    /* the one API over both */
    sb_search *sr = (sb_search *)&key;
    sb_search_opts watch = {0, NULL, NULL, NULL, 0, NULL, 0, 0};
    USAGE(sb_search_new(NULL, SB_ENGINE_HASHED, &m, NULL, NULL, &e));
    CHECK(sr != NULL);
    USAGE(sb_search_new(&sr, 7, &m, NULL, NULL, &e));
    CHECK(sr == NULL); /* set to NULL on failure */
    USAGE(sb_search_new(&sr, SB_ENGINE_LEVELS, NULL, NULL, NULL, &e));
    wide = m;
    wide.expand = NULL;
    USAGE(sb_search_new(&sr, SB_ENGINE_HASHED, &wide, NULL, NULL, &e));
    wide = m;
    wide.key_words = 0;
    USAGE(sb_search_new(&sr, SB_ENGINE_LEVELS, &wide, NULL, NULL, &e));
    wide = m;
    wide.hint_bits = 4;
    USAGE(sb_search_new(&sr, SB_ENGINE_HASHED, &wide, NULL, NULL, &e)); /* hints */
    wide = m;
    wide.reversible = 0;
    USAGE(sb_search_new(&sr, SB_ENGINE_LEVELS, &wide, NULL, NULL, &e));
    watch.on_new = watch_new;
    USAGE(sb_search_new(&sr, SB_ENGINE_LEVELS, &m, &watch, NULL, &e)); /* no observer */
    for (int eng = SB_ENGINE_HASHED; eng <= SB_ENGINE_LEVELS; eng++) {
        CHECK_INT(sb_search_new(&sr, eng, &m, NULL, NULL, &e), 0);
        CHECK_INT(sb_search_result(sr)->length, -1);
        USAGE(sb_search_path(sr, path, NULL, &e)); /* no run */
        USAGE(sb_search_run(sr, NULL, NULL, 0, NULL, &e));
        USAGE(sb_search_run(NULL, &key, NULL, 0, NULL, &e));
        USAGE(sb_search_run(sr, &key, NULL, 64, NULL, &e));
        CHECK_INT(sb_search_run(sr, &key, NULL, 0, NULL, &e), 0); /* no goal: the component */
        CHECK_INT(sb_search_result(sr)->found, 0);
        CHECK_INT(sb_search_result(sr)->nlevels[0], 5);
        USAGE(sb_search_path(sr, path, NULL, &e)); /* no goal reached */
        USAGE(sb_search_path(sr, NULL, NULL, &e));
        USAGE(sb_search_path(NULL, path, NULL, &e));
        CHECK_U64(sb_search_level(sr, 2, 0), 0);
        CHECK_U64(sb_search_level(sr, 0, -1), 0);
        CHECK_U64(sb_search_level(NULL, 0, 0), 0);
        CHECK(sb_search_last(sr, NULL) == NULL);
        CHECK(sb_search_last(NULL, &n) == NULL);
        CHECK_U64(n, 0);
        sb_search_free(sr);
    }
    CHECK_INT(sb_search_result(NULL)->length, -1);
    sb_search_free(NULL);

    USAGE(sb_ida_search(&im, 1, 5, ipath, &len, NULL, NULL, &e)); /* 33 moves */
    USAGE(sb_ida_search(NULL, 1, 5, ipath, &len, NULL, NULL, &e));
    inull.undo = NULL;
    USAGE(sb_ida_search(&inull, 1, 5, ipath, &len, NULL, NULL, &e));
    USAGE(sb_ida_search(&im, 1, 5, NULL, &len, NULL, NULL, &e));
    USAGE(sb_ida_search(&im, 1, 5, ipath, NULL, NULL, NULL, &e));
    USAGE(sb_ida_search(&im, 1, -1, ipath, &len, NULL, NULL, &e));
}

static void emit_none(void *ctx, const uint64_t *key)
{
    (void)ctx, (void)key;
}

static void test_slide(void)
{
    static const char text[] = "2 x 3 tiny\n1 = 1\n2 = 1\n120000\n000012\n";
    static sb_slide_puzzle pz, bad;
    static unsigned char anchors[SB_SLIDE_MAXCELLS], more[SB_SLIDE_MAXCELLS];
    static char buf[SB_SLIDE_BOARD_MAX];
    sb_slide sl, unset;
    sb_keymodel m;
    uint64_t key[SB_SLIDE_MAXKW];

    USAGE(sb_slide_parse(NULL, text, sizeof text - 1, &e));
    USAGE(sb_slide_parse(&pz, NULL, 5, &e));
    USAGE(sb_slide_parse_lines(NULL, NULL, NULL, &e));
    USAGE(sb_slide_parse_lines(&pz, NULL, NULL, &e));
    CHECK_INT(sb_slide_parse(&pz, text, sizeof text - 1, &e), 0);
    CHECK(sb_slide_name(16) == '?');
    CHECK(sb_slide_name(-1) == '?');
    USAGE(sb_slide_init(NULL, &pz, 0, NULL, &e));
    USAGE(sb_slide_init(&sl, NULL, 0, NULL, &e));
    USAGE(sb_slide_init(&sl, &pz, 6, NULL, &e));
    bad = pz;
    bad.ncells = 1000;
    USAGE(sb_slide_init(&sl, &bad, 0, NULL, &e));
    CHECK_U64(sb_slide_board_size(&bad), 0);
    CHECK_U64(sb_slide_board_size(NULL), 0);
    CHECK_INT(sb_slide_board_text(&bad, pz.start, buf), SB_EUSAGE);
    sb_slide_fini(NULL);
    memset(&unset, 0, sizeof unset);
    CHECK_INT(sb_slide_init(&sl, &pz, 0, NULL, &e), 0);

    CHECK_INT(sb_slide_model(&sl, 0, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_model(&unset, 0, &m), SB_EUSAGE);
    CHECK_INT(sb_slide_model(NULL, 0, &m), SB_EUSAGE);
    CHECK_INT(sb_slide_model(&unset, SB_SLIDE_HINTS, &m), SB_EUSAGE);
    CHECK_INT(sb_slide_model(&sl, 0, &m), 0);

    CHECK_INT(sb_slide_pack(&sl, pz.start, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_pack(&sl, NULL, key), SB_EUSAGE);
    CHECK_INT(sb_slide_pack(&unset, pz.start, key), SB_EUSAGE);
    memcpy(more, pz.start, sizeof more);
    more[5] = 1; /* one block more than the key holds */
    CHECK_INT(sb_slide_pack(&sl, more, key), SB_EUSAGE);
    more[5] = 9; /* a kind that was never defined */
    more[0] = 0;
    CHECK_INT(sb_slide_pack(&sl, more, key), SB_EUSAGE);
    more[5] = 200;
    CHECK_INT(sb_slide_pack(&sl, more, key), SB_EUSAGE);
    CHECK_INT(sb_slide_pack(&sl, pz.start, key), 0);
    CHECK_INT(sb_slide_unpack(&sl, key, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_unpack(&sl, NULL, anchors), SB_EUSAGE);
    CHECK_INT(sb_slide_unpack(&unset, key, anchors), SB_EUSAGE);
    CHECK_INT(sb_slide_unpack(&sl, key, anchors), 0);

    CHECK_INT(sb_slide_goal_match(&sl, 1, key), SB_EUSAGE);
    CHECK_INT(sb_slide_goal_match(&sl, -1, key), SB_EUSAGE);
    CHECK_INT(sb_slide_goal_match(&sl, 0, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_goal_match(NULL, 0, key), SB_EUSAGE);
    CHECK_INT(sb_slide_goal_match(&sl, 0, key), 0);
    CHECK_INT(sb_slide_is_goal(&sl, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_is_goal(&unset, key), SB_EUSAGE);
    CHECK_INT(sb_slide_expand(&sl, NULL, emit_none, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_expand(&sl, key, NULL, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_expand(&unset, key, emit_none, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_expand_hinted(NULL, key, emit_none, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_expand_hinted(&sl, key, NULL, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_expand(&sl, key, emit_none, NULL), 0);
    USAGE(sb_slide_describe(&sl, key, key, NULL, 10, &e));
    USAGE(sb_slide_describe(&sl, key, key, buf, 0, &e));
    USAGE(sb_slide_describe(&sl, NULL, key, buf, sizeof buf, &e));
    USAGE(sb_slide_describe(&unset, key, key, buf, sizeof buf, &e));

    CHECK_INT(sb_slide_board_text(&pz, NULL, buf), SB_EUSAGE);
    CHECK_INT(sb_slide_board_text(&pz, pz.start, NULL), SB_EUSAGE);
    more[5] = 16; /* kind[16] does not exist */
    CHECK_INT(sb_slide_board_text(&pz, more, buf), SB_EUSAGE);
    CHECK_INT(sb_slide_shorthand(&pz, more, buf), SB_EUSAGE);
    CHECK_INT(sb_slide_shorthand(NULL, pz.start, buf), SB_EUSAGE);
    CHECK_INT(sb_slide_shorthand(&pz, pz.start, buf), 0);
    CHECK_STR(buf, "12");
    CHECK_INT(sb_slide_goal_text(&pz, 1, buf), SB_EUSAGE);
    CHECK_INT(sb_slide_goal_text(&pz, -3, buf), SB_EUSAGE);
    CHECK_INT(sb_slide_goal_text(&pz, 0, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_goal_text(&pz, 0, buf), 0);
    sb_slide_fini(&sl);
    CHECK_INT(sb_slide_expand(&sl, key, emit_none, NULL), SB_EUSAGE); /* freed */

    /* the public handle: made by sb_slide_new, read through accessors */
    sb_slide *h = &unset;
    USAGE(sb_slide_new(NULL, &pz, 0, NULL, &e));
    USAGE(sb_slide_new(&h, &bad, 0, NULL, &e));
    CHECK(h == NULL);
    h = &unset;
    USAGE(sb_slide_new(&h, &pz, -1, NULL, &e));
    CHECK(h == NULL);
    sb_slide_free(NULL);
    CHECK(sb_slide_key(NULL, SB_SLIDE_START) == NULL);
    CHECK(sb_slide_key(&unset, SB_SLIDE_START) == NULL);
    CHECK_INT(sb_slide_draw(NULL, key, SB_SLIDE_BOARD, buf), SB_EUSAGE);
    CHECK_INT(sb_slide_new(&h, &pz, 0, NULL, &e), 0);
    CHECK(sb_slide_key(h, 2) == NULL);
    CHECK(sb_slide_key(h, -1) == NULL);
    CHECK(sb_slide_key(h, SB_SLIDE_START) != NULL);
    CHECK_INT(sb_slide_draw(h, NULL, SB_SLIDE_BOARD, buf), SB_EUSAGE);
    CHECK_INT(sb_slide_draw(h, key, SB_SLIDE_BOARD, NULL), SB_EUSAGE);
    CHECK_INT(sb_slide_draw(h, key, 3, buf), SB_EUSAGE);
    CHECK_INT(sb_slide_draw(h, key, -1, buf), SB_EUSAGE);
    CHECK_INT(sb_slide_draw(h, sb_slide_key(h, SB_SLIDE_START), SB_SLIDE_SHORTHAND, buf), 0);
    CHECK_STR(buf, "12");
    CHECK_INT(sb_slide_draw(h, sb_slide_key(h, SB_SLIDE_STOP), SB_SLIDE_CELLS, buf), 0);
    CHECK_STR(buf, "000\n012\n");
    CHECK_INT(sb_slide_model(h, SB_SLIDE_HINTS, &m), 0);
    CHECK_INT(m.key_words, 1);
    sb_slide_free(h);
}

static void test_playfair(void)
{
    static const char *const words[] = {"PLAYFAIR", NULL};
    char m[25], out[64];
    sb_playfair *pf;
    sb_playfair_result res;

    USAGE(sb_playfair_matrix(NULL, m, &e));
    USAGE(sb_playfair_matrix("KEY", NULL, &e));
    CHECK_INT(sb_playfair_matrix("PLAYFAIR", m, &e), 0);
    USAGE(sb_playfair_square(NULL, SB_PLAYFAIR_ROWS, m, &e));
    USAGE(sb_playfair_square("KEY", SB_PLAYFAIR_ROWS, NULL, &e));
    USAGE(sb_playfair_square("KEY", 7, m, &e));
    USAGE(sb_playfair_key_square(NULL, m, &e));
    USAGE(sb_playfair_key_square("ABCDEFGHIKLMNOPQRSTUVWXYZ", NULL, &e));
    CHECK_U64(sb_playfair_encrypt_pad(NULL, "ab", 'Q', out), SIZE_MAX);
    CHECK_U64(sb_playfair_encrypt_pad(m, "ab", '1', out), 0);
    {
        sb_playfair_anneal_result ar;
        sb_pfquad *q = sb_pfquad_new(NULL, &e);
        USAGE(sb_pfquad_add(NULL, "ABCD", 4, &e));
        USAGE(sb_pfquad_add(q, NULL, 4, &e));
        USAGE(sb_pfquad_finish(NULL, &e));
        USAGE(sb_pfquad_save(NULL, "q.tab", 1, &e));
        USAGE(sb_pfquad_save(q, NULL, 1, &e));
        USAGE(sb_pfquad_save(q, "q.tab", 1, &e)); /* not finished */
        memset(&e, 0, sizeof e);
        CHECK(sb_pfquad_load(NULL, 1, NULL, &e) == NULL);
        CHECK_INT(e.code, SB_EUSAGE);
        CHECK_U64(sb_pfquad_total(NULL), 0);
        CHECK(sb_pfquad_score(NULL, "ABCDEF") == 0);
        CHECK(sb_pfquad_score(q, NULL) == 0);
        USAGE(sb_playfair_anneal(NULL, "ABCDEFGH", NULL, NULL, &ar, out, &e));
        USAGE(sb_playfair_anneal(q, NULL, NULL, NULL, &ar, out, &e));
        USAGE(sb_playfair_anneal(q, "ABCDEFGH", NULL, NULL, NULL, out, &e));
        USAGE(sb_playfair_anneal(q, "ABCDEFGH", NULL, NULL, &ar, NULL, &e));
        USAGE(sb_playfair_anneal(q, "ABCDEFGH", NULL, NULL, &ar, out, &e)); /* not finished */
        sb_pfquad_free(q);
        sb_pfquad_free(NULL);
    }
    memset(&e, 0, sizeof e);
    CHECK(sb_playfair_new_square(words, 1, 9, NULL, &e) == NULL);
    CHECK_INT(e.code, SB_EUSAGE);
    CHECK_INT(sb_playfair_matrix("PLAYFAIR", m, &e), 0);
    CHECK_U64(sb_playfair_prepare(NULL, out), SIZE_MAX);
    CHECK_U64(sb_playfair_prepare("ab", NULL), SIZE_MAX);
    CHECK_U64(sb_playfair_encrypt(NULL, "ab", out), SIZE_MAX);
    CHECK_U64(sb_playfair_encrypt(m, NULL, out), SIZE_MAX);
    CHECK_U64(sb_playfair_encrypt(m, "ab", NULL), SIZE_MAX);
    CHECK_U64(sb_playfair_encrypt("AAAAAAAAAAAAAAAAAAAAAAAAA", "ab", out), SIZE_MAX);
    CHECK_STR(out, "");
    USAGE(sb_playfair_decrypt(NULL, "AB", out, &e));
    USAGE(sb_playfair_decrypt(m, NULL, out, &e));
    USAGE(sb_playfair_decrypt(m, "AB", NULL, &e));
    USAGE(sb_playfair_decrypt("AAAAAAAAAAAAAAAAAAAAAAAAA", "AB", out, &e));
    memset(&e, 0, sizeof e);
    CHECK(sb_playfair_new(NULL, 3, NULL, &e) == NULL);
    CHECK_INT(e.code, SB_EUSAGE);
    memset(&e, 0, sizeof e);
    CHECK(sb_playfair_new(words, 2, NULL, &e) == NULL); /* words[1] is NULL */
    CHECK_INT(e.code, SB_EUSAGE);
    CHECK_INT(e.line, 2);
    CHECK(e.msg[0] != 0);
    sb_playfair_free(NULL);
    CHECK_U64(sb_playfair_words(NULL), 0);
    CHECK_U64(sb_playfair_matrices(NULL), 0);
    CHECK_INT(sb_playfair_screen(NULL, SB_PLAYFAIR_SCREEN_OFF), SB_EUSAGE);
    CHECK_INT(sb_playfair_threads(NULL, 1), SB_EUSAGE);
    pf = sb_playfair_new(words, 1, NULL, &e);
    CHECK(pf != NULL);
    USAGE(sb_playfair_crack(NULL, "AB", NULL, &res, &e));
    USAGE(sb_playfair_crack(pf, NULL, NULL, &res, &e));
    USAGE(sb_playfair_crack(pf, "AB", NULL, NULL, &e));
    sb_playfair_free(pf);

    /* the 1999 interface: no errors to report, and nothing out of bounds */
    InitPlayfair(NULL, 5);
    InitPlayfair((const char **)words, -1);
    strcpy(out, "unchanged");
    DecodePlayfair("AB", out);
    CHECK_STR(out, "");
    DecodePlayfair(NULL, out);
    DecodePlayfair("AB", NULL);
    TermPlayfair();
}

int main(void)
{
    RUN(test_core);
    RUN(test_rank);
    RUN(test_pdb);
    RUN(test_table);
    RUN(test_search);
    RUN(test_slide);
    RUN(test_playfair);
    RUN(test_npuzzle);
    RUN(test_npuzzle_table);
    RUN(test_tetraminx);
    return TEST_END();
}
