/* Unit tests of the Tetraminx model, layer by layer: facelets, pieces,
 * coordinates, parsing, the God table and its solutions, saving and
 * loading.  Expected facelet strings and move permutations are those of
 * docs/FORMAT.md, written out here again as data. */
#include "harness.h"
#include "sbfs/sbfs.h"
#include "../src/index/table_internal.h"
#include "../src/tetraminx/tet_internal.h"

#include <stdlib.h>
#include <unistd.h>

/* new[j] = old[src[m][j]] for each move, as docs/FORMAT.md lists them. */
static const uint8_t doc_src[8][28] = {
    {18, 19, 2, 3, 4, 23, 6, 7, 8, 9, 10, 11, 12, 5, 0, 1, 16, 17, 14, 15, 20, 21, 22, 13, 24, 25, 26, 27},
    {14, 15, 2, 3, 4, 13, 6, 7, 8, 9, 10, 11, 12, 23, 18, 19, 16, 17, 0, 1, 20, 21, 22, 5, 24, 25, 26, 27},
    {0, 1, 2, 15, 16, 17, 4, 5, 8, 9, 10, 3, 12, 13, 14, 11, 6, 7, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27},
    {0, 1, 2, 11, 6, 7, 16, 17, 8, 9, 10, 15, 12, 13, 14, 3, 4, 5, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27},
    {0, 7, 8, 9, 4, 5, 6, 21, 22, 23, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 1, 2, 3, 24, 25, 26, 27},
    {0, 21, 22, 23, 4, 5, 6, 1, 2, 3, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 7, 8, 9, 24, 25, 26, 27},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 17, 12, 13, 20, 21, 14, 15, 16, 19, 18, 9, 10, 11, 22, 23, 24, 25, 26, 27},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 19, 20, 21, 10, 11, 14, 15, 16, 9, 18, 17, 12, 13, 22, 23, 24, 25, 26, 27},
};
static const char *const after_one[8] = {
    "RRFFFRDDDDDDLFFFLLLLRRRLDRLF", "LLFFFLDDDDDDLRRRLLFFRRRFDRLF",
    "FFFLLLFFDDDFLLLDDDRRRRRRDRLF", "FFFDDDLLDDDLLLLFFFRRRRRRDRLF",
    "FDDDFFDRRRDDLLLLLLRRRFFFDRLF", "FRRRFFDFFFDDLLLLLLRRRDDDDRLF",
    "FFFFFFDDDLLLRRLLLRRDDDRRDRLF", "FFFFFFDDDRRRDDLLLDRLLLRRDRLF",
};
static const char *const solved_str = "FFFFFFDDDDDDLLLLLLRRRRRRDRLF";

static int same_facelets(const sb_tet_facelets *a, const sb_tet_facelets *b)
{
    return memcmp(a->c, b->c, sizeof a->c) == 0;
}

static int same_pieces(const sb_tet_pieces *a, const sb_tet_pieces *b)
{
    return !memcmp(a->twist, b->twist, 4) && !memcmp(a->edge, b->edge, 6) &&
           !memcmp(a->flip, b->flip, 6);
}

static void fmt(const sb_tet_facelets *f, char *out)
{
    sb_tet_facelets_format(f, out);
}

/* A position from a random scramble of k moves, on the facelet layer. */
static void scramble_facelets(sb_rng *r, int k, sb_tet_facelets *f)
{
    sb_tet_facelets_solved(f);
    for (int i = 0; i < k; i++)
        sb_tet_facelets_move(f, (int)sb_rng_below(r, 8));
}

static void test_facelet_moves(void)
{
    sb_tet_facelets f, g, h;
    char s[29];
    sb_rng r;
    static const char *const names[8] = {"U", "U'", "L", "L'", "R", "R'", "B", "B'"};
    sb_tet_facelets_solved(&f);
    fmt(&f, s);
    CHECK_STR(s, solved_str);
    for (int m = 0; m < 8; m++) {
        /* the move as a permutation, checked on distinct labels */
        for (int i = 0; i < 28; i++)
            g.c[i] = (uint8_t)i;
        sb_tet_facelets_move(&g, m);
        int ok = 1;
        for (int j = 0; j < 28; j++)
            ok &= g.c[j] == doc_src[m][j];
        CHECK(ok);
        g = f;
        sb_tet_facelets_move(&g, m);
        fmt(&g, s);
        CHECK_STR(s, after_one[m]);
        CHECK_STR(sb_tet_move_name(m), names[m]);
    }
    sb_rng_seed(&r, 11);
    for (int trial = 0; trial < 200; trial++) {
        scramble_facelets(&r, trial % 17, &f);
        for (int m = 0; m < 8; m++) {
            g = f;
            sb_tet_facelets_move(&g, m);
            CHECK(!same_facelets(&g, &f));
            h = g;
            sb_tet_facelets_move(&h, m ^ 1); /* X X' = identity */
            CHECK(same_facelets(&h, &f));
            sb_tet_facelets_move(&g, m);
            sb_tet_facelets_move(&g, m); /* order 3 */
            CHECK(same_facelets(&g, &f));
            g = f;
            sb_tet_facelets_move(&g, m);
            sb_tet_facelets_move(&g, m); /* X X = X' */
            h = f;
            sb_tet_facelets_move(&h, m ^ 1);
            CHECK(same_facelets(&g, &h));
        }
    }
}

static void test_pieces(void)
{
    sb_tet_pieces p, q, solved;
    sb_tet_facelets f, g;
    sb_error e;
    sb_rng r;
    int agree = 1, round = 1, order = 1, inverse = 1, legal = 1;
    sb_tet_pieces_solved(&solved);
    sb_tet_pieces_to_facelets(&solved, &f);
    sb_tet_facelets_solved(&g);
    CHECK(same_facelets(&f, &g));
    CHECK(sb_tet_pieces_legal(&solved));
    sb_rng_seed(&r, 5);
    /* The piece layer and the facelet layer agree on every move, from
     * positions reached by scrambles on the piece layer. */
    for (int trial = 0; trial < 2000; trial++) {
        p = solved;
        for (int i = 0, k = trial % 23; i < k; i++)
            sb_tet_pieces_move(&p, (int)sb_rng_below(&r, 8));
        legal &= sb_tet_pieces_legal(&p);
        sb_tet_pieces_to_facelets(&p, &f);
        round &= sb_tet_facelets_to_pieces(&f, &q, &e) == 0 && same_pieces(&p, &q);
        for (int m = 0; m < 8; m++) {
            q = p;
            sb_tet_pieces_move(&q, m);
            g = f;
            sb_tet_facelets_move(&g, m);
            sb_tet_pieces_to_facelets(&q, &f);
            agree &= same_facelets(&f, &g);
            sb_tet_pieces_to_facelets(&p, &f);
            sb_tet_pieces_move(&q, m ^ 1);
            inverse &= same_pieces(&q, &p);
            sb_tet_pieces_move(&q, m);
            sb_tet_pieces_move(&q, m);
            sb_tet_pieces_move(&q, m);
            order &= same_pieces(&q, &p);
        }
    }
    CHECK(agree);
    CHECK(round);
    CHECK(order);
    CHECK(inverse);
    CHECK(legal);
    /* illegal piece states are recognised */
    p = solved;
    p.flip[0] = 1;
    CHECK(!sb_tet_pieces_legal(&p));
    p = solved;
    p.edge[0] = 1, p.edge[1] = 0;
    CHECK(!sb_tet_pieces_legal(&p));
    p = solved;
    p.edge[0] = 1;
    CHECK(!sb_tet_pieces_legal(&p));
    p = solved;
    p.twist[2] = 3;
    CHECK(!sb_tet_pieces_legal(&p));
}

/* Every index: unrank gives a legal position that ranks back, and the
 * facelets of every index are different (933,120 different colourings). */
static void test_coordinates(void)
{
    sb_tet_pieces p, q, solved;
    sb_tet_tables *t = malloc(sizeof *t);
    int bij = 1, legal = 1, tab = 1, ord = 1;
    uint32_t step = t_sanitized() ? 7 : 1;
    sb_tet_pieces_solved(&solved);
    CHECK_U64(sb_tet_rank(&solved), 0);
    sb_tet_unrank(0, &p);
    CHECK(same_pieces(&p, &solved));
    CHECK_INT(SB_TET_NPOS, 933120);
    sb_tet_tables_init(t);
    for (uint32_t i = 0; i < SB_TET_NPOS; i += step) {
        sb_tet_unrank(i, &p);
        legal &= sb_tet_pieces_legal(&p);
        bij &= sb_tet_rank(&p) == i;
        for (int m = 0; m < 8; m++) {
            q = p;
            sb_tet_pieces_move(&q, m);
            uint32_t j = sb_tet_index_move(t, i, m);
            tab &= sb_tet_rank(&q) == j;
            ord &= sb_tet_index_move(t, sb_tet_index_move(t, j, m), m) == i &&
                   sb_tet_index_move(t, j, m ^ 1) == i;
        }
    }
    CHECK(legal);
    CHECK(bij);
    CHECK(tab);
    CHECK(ord);
    /* the solved value of each coordinate's table is 0 and a move leaves it */
    for (int m = 0; m < 8; m++) {
        CHECK(t->twist_move[0][m] != 0);
        CHECK(t->eperm_move[0][m] != 0);
        CHECK(t->eo_move[0][m] != 0);
    }
    /* facelets -> pieces -> rank recovers every index, so different
     * indices have different facelet strings */
    int round = 1;
    for (uint32_t i = 0; i < SB_TET_NPOS; i += step * 3) {
        sb_tet_facelets f;
        sb_error e;
        sb_tet_unrank(i, &p);
        sb_tet_pieces_to_facelets(&p, &f);
        round &= sb_tet_facelets_to_pieces(&f, &q, &e) == 0 && sb_tet_rank(&q) == i;
    }
    CHECK(round);
    free(t);
}

static int parse_str(const char *s, sb_tet_pieces *p, sb_error *e)
{
    sb_error_clear(e);
    return sb_tet_parse(s, strlen(s), 4, p, e);
}

static void parse_to_string(const char *s, char *out)
{
    sb_tet_pieces p;
    sb_tet_facelets f;
    sb_error e;
    out[0] = '\0';
    if (parse_str(s, &p, &e) == 0) {
        sb_tet_pieces_to_facelets(&p, &f);
        sb_tet_facelets_format(&f, out);
    }
}

static void test_parse_ok(void)
{
    char s[64];
    const char *names[8] = {"U", "U'", "L", "L'", "R", "R'", "B", "B'"};
    for (int m = 0; m < 8; m++) {
        parse_to_string(names[m], s);
        CHECK_STR(s, after_one[m]);
        parse_to_string(after_one[m], s);
        CHECK_STR(s, after_one[m]);
    }
    parse_to_string("R U R' L' U R", s);
    CHECK_STR(s, "LLDDDRLRRFDDLRRFFFFLRLFDDRLF");
    parse_to_string("B R B' R B L R B U' L' U'", s);
    CHECK_STR(s, "RRFDFLDFDRRLDRFFLDLLLDRFDRLF");
    /* tips skipped, X2 = X', blanks and CR tolerated, empty = solved */
    parse_to_string("  u R  l' U2 b2 R'\tr L'\r", s);
    char t[64];
    parse_to_string("R U' R' L'", t);
    CHECK_STR(s, t);
    parse_to_string("", s);
    CHECK_STR(s, solved_str);
    parse_to_string("   ", s);
    CHECK_STR(s, solved_str);
    parse_to_string("  FFFFFFDDDDDDLLLLLLRRRRRRDRLF \r", s);
    CHECK_STR(s, solved_str);
}

/* One malformed line: its code, column and the start of its message. */
static void bad(const char *s, int code, int col, const char *msg)
{
    sb_tet_pieces p;
    sb_error e;
    int rc = parse_str(s, &p, &e);
    CHECK_INT(rc, code);
    CHECK_INT(e.code, code);
    CHECK_INT(e.line, 4);
    CHECK_INT(e.col, col);
    if (strncmp(e.msg, msg, strlen(msg)) != 0)
        T_FAIL_AT("'%s': message '%s', want it to start '%s'", s, e.msg, msg);
    else
        t_passed++;
}

static void test_parse_errors(void)
{
    bad("U X", SB_EINPUT, 3, "'X' is not a move");
    bad("U R'' L", SB_EINPUT, 3, "'R''' is not a move");
    bad("UR", SB_EINPUT, 1, "'UR' is not a move");
    bad("R3", SB_EINPUT, 1, "'R3' is not a move");
    /* an unprintable byte is shown as such, not copied into the message */
    bad("U R\x01", SB_EINPUT, 4, "'\\x01' cannot be part of a move");
    bad("U \x7f", SB_EINPUT, 3, "'\\x7f' cannot be part of a move");
    {
        sb_tet_pieces p;
        sb_error e;
        sb_error_clear(&e);
        CHECK_INT(sb_tet_parse("U \0L", 4, 1, &p, &e), SB_EINPUT);
        CHECK_INT(e.col, 3);
        CHECK_STR(e.msg, "'\\0' cannot be part of a move (moves are U U' L L' R R' B B')");
    }
    bad("FFFFFFDDDDDDLLLLLLRRRRRRDRL", SB_EINPUT, 28, "a facelet string has 28 letters, this one 27");
    bad("FFFFFFDDDDDDLLLLLLRRRRRRDRLFF", SB_EINPUT, 29, "a facelet string has 28 letters, this one 29");
    bad("  FFFFFFDDDXDDLLLLLLRRRRRRDRLF", SB_EINPUT, 12, "'X' is not a colour");
    bad("FFFFFFDDDDDDLLLLLLRRRRRRDRLU", SB_EINPUT, 28, "'U' is not a colour");
    /* the rules of a legal position, one broken at a time */
    bad("FFFFFFDDDDDDLLLLLLRRRRRRDRFL", SB_EINVALPOS, 27, "the triangle at corner R must be L, not F");
    bad("FFFFFFFDDDDDLLLLLLRRRRRRDRLF", SB_EINVALPOS, 28,
        "colour F appears more than 7 times");
    /* tet U (columns 1 15 19) showing D L R: facelets 0 and 6 swapped */
    bad("DFFFFFFDDDDDLLLLLLRRRRRRDRLF", SB_EINVALPOS, 1,
        "the tet at corner U shows D L R (facelets 1 15 19); it must show F, L and R");
    /* tet U mirrored: F R L instead of F L R */
    bad("FFFFFFDDDDDDLLRLLLLRRRRRDRLF", SB_EINVALPOS, 1,
        "the tet at corner U shows its colours in mirror order");
    /* facelets 3 and 23 swapped: U-R shows F twice */
    bad("FFFRFFDDDDDDLLLLLLRRRRRFDRLF", SB_EINVALPOS, 2,
        "the edge at U-R shows F twice (facelets 2 and 24)");
    /* U-R shows F D (facelet 23 D), so does L-R; R-B took the R (facelet 9) */
    bad("FFFFFFDDDRDDLLLLLLRRRRRDDRLF", SB_EINVALPOS, 4,
        "the FD edge appears twice (at U-R and at L-R)");
    /* two edges swapped: U-R and U-L exchanged without flipping */
    bad("FFFFFFDDDDDDLLLRLLRRRRRLDRLF", SB_EINVALPOS, 1, "the edge permutation is odd");
    /* one edge flipped */
    bad("FRFFFFDDDDDDLLLLLLRRRRRFDRLF", SB_EINVALPOS, 1, "an odd number of edges is flipped (1)");
    /* a non-printable character is shown escaped */
    bad("FFFFFFDDDDDDLLLLLL\001RRRRRDRLF", SB_EINPUT, 19, "'\\x01' is not a colour");
}

/* Random junk from an alphabet close to the real one: parse either
 * succeeds with a legal position or fails with a column inside the line
 * (or just past it) and a message. */
static void test_parse_junk(void)
{
    static const char alpha[] = "UULLRRBBFFDD'''22ulrb  \t\rXx\001";
    sb_rng r;
    int ok = 1, good = 0;
    sb_rng_seed(&r, 77);
    for (int trial = 0; trial < 20000; trial++) {
        char s[40];
        size_t n = (size_t)sb_rng_below(&r, 36);
        sb_tet_pieces p;
        sb_error e;
        for (size_t i = 0; i < n; i++)
            s[i] = alpha[sb_rng_below(&r, sizeof alpha - 1)];
        /* one in four a word of 28 random colours; one in four a legal
         * position with two facelets swapped (legal only if the two have
         * the same colour) */
        if (trial % 4 == 1) {
            n = 28;
            for (size_t i = 0; i < n; i++)
                s[i] = "FDLR"[sb_rng_below(&r, 4)];
        } else if (trial % 4 == 3) {
            sb_tet_facelets f;
            sb_tet_unrank(sb_tet_random(&r), &p);
            sb_tet_pieces_to_facelets(&p, &f);
            sb_tet_facelets_format(&f, s);
            size_t i = (size_t)sb_rng_below(&r, 28), j = (size_t)sb_rng_below(&r, 28);
            char c = s[i];
            s[i] = s[j];
            s[j] = c;
            n = 28;
        }
        s[n] = '\0';
        sb_error_clear(&e);
        if (sb_tet_parse(s, n, 1, &p, &e) == 0) {
            ok &= sb_tet_pieces_legal(&p);
            if (n == 28 && strspn(s, "FDLR") >= 28) {
                /* read as facelets: they must be exactly p's */
                sb_tet_facelets f;
                char back[29];
                sb_tet_pieces_to_facelets(&p, &f);
                sb_tet_facelets_format(&f, back);
                ok &= memcmp(back, s, 28) == 0;
            }
            good++;
        } else {
            ok &= e.line == 1 && e.col >= 1 && e.col <= (int)n + 1 && e.msg[0] != '\0' &&
                  (e.code == SB_EINPUT || e.code == SB_EINVALPOS);
        }
    }
    CHECK(ok);
    CHECK(good > 0);
}

static sb_tet_god *build(void)
{
    static sb_mem mem;
    sb_error e;
    sb_tet_god *g = NULL;
    sb_mem_init(&mem, 0);
    if (sb_tet_god_build(&g, 1, &mem, NULL, &e) != 0) {
        T_FAIL_AT("build: %s", e.msg);
        return NULL;
    }
    return g;
}

/* Positions at distance d, and the largest distance, as the table says. */
static uint64_t hist(const sb_tet_god *g, int d)
{
    return sb_table_count(sb_tet_god_table(g), d);
}

static int maxdist(const sb_tet_god *g)
{
    return sb_table_about(sb_tet_god_table(g)).levels - 1;
}

/* 1 when the two tables have the same histogram. */
static int same_hist(const sb_tet_god *g, const sb_tet_god *h)
{
    for (int d = 0; d <= SB_TET_MAXDIST + 1; d++)
        if (hist(g, d) != hist(h, d))
            return 0;
    return 1;
}

/* The histogram, and every position's solution: replayed on the piece
 * layer it reaches solved, and its length is the exact distance found by a
 * second breadth-first search here that uses the piece layer and ranking
 * only (no move tables). */
static void test_god(void)
{
    static const uint64_t want[12] = {1,      8,      48,     288,  1728, 9896,
                                      51808,  220111, 480467, 166276, 2457, 32};
    uint64_t within = 0;
    sb_tet_god *g = build();
    uint8_t *dist;
    uint32_t *queue, head = 0, tail = 0;
    int ok_replay = 1, ok_len = 1, ok_bfs = 1;
    uint32_t step = t_sanitized() ? 13 : 1;
    if (!g)
        return;
    CHECK_INT(maxdist(g), 11);
    for (int d = 0; d <= 11; d++)
        CHECK_U64(hist(g, d), want[d]);
    /* the seed's cumulative figures */
    for (int d = 0; d <= 11; d++) {
        within += hist(g, d);
        if (d == 7) CHECK_U64(within, 283888);
        if (d == 8) CHECK_U64(within, 764355);
        if (d == 9) CHECK_U64(within, 930631);
        if (d == 10) CHECK_U64(within, 933088);
        if (d == 11) CHECK_U64(within, 933120);
    }
    dist = malloc(SB_TET_NPOS);
    queue = malloc(SB_TET_NPOS * sizeof *queue);
    memset(dist, 0xff, SB_TET_NPOS);
    dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        sb_tet_pieces p, q;
        uint32_t x = queue[head++];
        sb_tet_unrank(x, &p);
        for (int m = 0; m < 8; m++) {
            uint32_t y;
            q = p;
            sb_tet_pieces_move(&q, m);
            y = sb_tet_rank(&q);
            if (dist[y] == 0xff) {
                dist[y] = (uint8_t)(dist[x] + 1);
                queue[tail++] = y;
            }
        }
    }
    CHECK_U64(tail, SB_TET_NPOS);
    for (uint32_t i = 0; i < SB_TET_NPOS; i += step) {
        uint8_t moves[SB_TET_MAXDIST];
        sb_tet_pieces p;
        int d = sb_tet_god_solve(g, i, moves);
        ok_bfs &= sb_tet_god_mod3(g, i) == dist[i] % 3;
        ok_len &= d == dist[i];
        sb_tet_unrank(i, &p);
        for (int k = 0; k < d; k++)
            sb_tet_pieces_move(&p, moves[k]);
        ok_replay &= d >= 0 && sb_tet_rank(&p) == 0;
    }
    CHECK(ok_bfs);
    CHECK(ok_len);
    CHECK(ok_replay);
    /* the worked examples: distance 6 and an antipode at 11, whose solution
     * is the one docs/FORMAT.md gives */
    {
        sb_tet_pieces p;
        sb_error e;
        uint8_t moves[SB_TET_MAXDIST];
        char s[64];
        CHECK_INT(parse_str("R U R' L' U R", &p, &e), 0);
        CHECK_INT(sb_tet_god_solve(g, sb_tet_rank(&p), moves), 6);
        CHECK_INT(parse_str("RRFDFLDFDRRLDRFFLDLLLDRFDRLF", &p, &e), 0);
        int d = sb_tet_god_solve(g, sb_tet_rank(&p), moves);
        CHECK_INT(d, 11);
        sb_tet_format_moves(moves, d, s);
        CHECK_STR(s, "U L U B' R' L' B' R' B R' B'");
        CHECK_INT(sb_tet_god_solve(g, 0, moves), 0);
        sb_tet_format_moves(moves, 0, s);
        CHECK_STR(s, "");
    }
    free(dist);
    free(queue);
    sb_tet_god_free(g);
}

/* Uniform draws: the twist of tet U (3 values), the edge in place U-R (6)
 * and its flip (2) are independent and uniform in a uniform position, so
 * 36 cells of equal weight.  Chi-square with 35 degrees of freedom: the
 * 0.1% critical value is 66.6; this seed gives a value well below. */
static void test_random(void)
{
    enum { N = 36000, CELLS = 36 };
    int count[CELLS] = {0};
    double chi = 0;
    sb_rng r;
    sb_rng_seed(&r, 2024);
    for (int i = 0; i < N; i++) {
        sb_tet_pieces p;
        sb_tet_unrank(sb_tet_random(&r), &p);
        count[(p.twist[0] * 6 + p.edge[0]) * 2 + p.flip[0]]++;
    }
    for (int c = 0; c < CELLS; c++) {
        double dlt = count[c] - (double)N / CELLS;
        chi += dlt * dlt / ((double)N / CELLS);
    }
    CHECK(chi < 66.6);
    /* and every draw is in range, the stream repeatable */
    sb_rng_seed(&r, 9);
    uint32_t a = sb_tet_random(&r);
    sb_rng_seed(&r, 9);
    CHECK_U64(sb_tet_random(&r), a);
}

/* A ring of n positions, two moves (+1, -1): a foreign table to load. */
static uint64_t ring_move(void *ud, void *scratch, uint64_t r, int m)
{
    uint64_t n = *(const uint64_t *)ud;
    (void)scratch;
    return m ? (r + n - 1) % n : (r + 1) % n;
}

static void foreign(const char *path, const char *name, uint64_t n, int depth, const char *why)
{
    sb_table_opts o = {2, 1, SB_SCAN_AUTO, depth};
    sb_model m;
    sb_table *t = NULL;
    sb_mem mem;
    sb_error e;
    sb_tet_god *h = NULL;
    const uint64_t start = 0;
    memset(&m, 0, sizeof m);
    m.name = name;
    m.size = n;
    m.nmoves = 2;
    m.symmetric = 1;
    m.move = ring_move;
    m.ud = &n;
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_table_build(&t, &m, &start, 1, &o, &mem, NULL, &e), 0);
    CHECK_INT(sb_table_save(t, path, &e), 0);
    sb_table_free(t);
    CHECK_INT(sb_tet_god_load(&h, path, &mem, &e), SB_EBADFILE);
    CHECK(h == NULL);
    if (!strstr(e.msg, why))
        T_FAIL_AT("foreign table %s: message '%s' lacks '%s'", name, e.msg, why);
    else
        t_passed++;
    CHECK_U64(mem.used, 0);
}

static void test_save_load(void)
{
    sb_tet_god *g = build(), *h = NULL;
    sb_mem mem;
    sb_error e;
    char path[] = "/tmp/sbfs_tet_XXXXXX";
    int fd = mkstemp(path);
    FILE *f;
    long size;
    if (!g || fd < 0) {
        T_FAIL_AT("setup");
        sb_tet_god_free(g);
        return;
    }
    close(fd);
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_table_save(sb_tet_god_table(g), path, &e), 0);
    CHECK_INT(sb_tet_god_load(&h, path, &mem, &e), 0);
    CHECK_U64(sb_table_about(h->table).data_bytes, SB_TET_NPOS / 4);
    CHECK(memcmp(sb_table_codes(g->table), sb_table_codes(h->table), SB_TET_NPOS / 4) == 0);
    CHECK(same_hist(g, h));
    CHECK_INT(maxdist(h), 11);
    {
        uint8_t moves[SB_TET_MAXDIST];
        CHECK_INT(sb_tet_god_solve(h, SB_TET_NPOS - 1, moves), sb_tet_god_solve(g, SB_TET_NPOS - 1, moves));
    }
    sb_tet_god_free(h);
    CHECK_U64(mem.used, 0);
    /* one byte of the table changed: refused */
    f = fopen(path, "r+b");
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    CHECK(size > SB_TET_NPOS / 4 && size < SB_TET_NPOS / 4 + 1024);
    fseek(f, size - 5000, SEEK_SET);
    fputc(0x00, f);
    fclose(f);
    CHECK_INT(sb_tet_god_load(&h, path, &mem, &e), SB_EBADFILE);
    CHECK(strstr(e.msg, "checksum") != NULL);
    CHECK_U64(mem.used, 0);
    /* a different magic */
    f = fopen(path, "r+b");
    fputc('X', f);
    fclose(f);
    CHECK_INT(sb_tet_god_load(&h, path, &mem, &e), SB_EBADFILE);
    /* truncated */
    CHECK_INT(sb_table_save(sb_tet_god_table(g), path, &e), 0);
    CHECK_INT(truncate(path, 100000), 0);
    CHECK_INT(sb_tet_god_load(&h, path, &mem, &e), SB_EBADFILE);
    CHECK(strstr(e.msg, "truncated") != NULL);
    CHECK_U64(mem.used, 0);
    /* tables of other puzzles, or of another size, are refused */
    foreign(path, "ring", 12, -1, "table is for ring");
    foreign(path, "tetraminx", 12, -1, "table is for tetraminx");
    /* right name and size, but a search cut short at distance 3 */
    foreign(path, "tetraminx", SB_TET_NPOS, 3, "not the complete Tetraminx table");
    remove(path);
    CHECK_INT(sb_tet_god_load(&h, path, &mem, &e), SB_EIO);
    CHECK_INT(sb_table_save(sb_tet_god_table(g), "/nonexistent-dir/x", &e), SB_EIO);
    /* two threads build the same table */
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_tet_god_build(&h, 2, &mem, NULL, &e), 0);
    CHECK(memcmp(sb_table_codes(g->table), sb_table_codes(h->table), SB_TET_NPOS / 4) == 0);
    CHECK(same_hist(g, h));
    sb_tet_god_free(h);
    /* a budget too small for the table */
    sb_mem_init(&mem, 1000);
    CHECK_INT(sb_tet_god_build(&h, 1, &mem, NULL, &e), SB_ENOMEM);
    CHECK(h == NULL);
    CHECK_U64(mem.used, 0);
    sb_tet_god_free(g);
}

int main(void)
{
    RUN(test_facelet_moves);
    RUN(test_pieces);
    RUN(test_coordinates);
    RUN(test_parse_ok);
    RUN(test_parse_errors);
    RUN(test_parse_junk);
    RUN(test_god);
    RUN(test_random);
    RUN(test_save_load);
    return TEST_END();
}
