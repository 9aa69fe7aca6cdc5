/* Tests of the sliding-block model: the reader (every error), the printer,
 * the keys, move generation in all six styles (hand-counted boards), and
 * exact results of the bundled puzzles.  Whole searches are checked
 * against an independent oracle in tests/test_random_slide.c. */
#include "harness.h"
#include "sbfs/sbfs.h"
#include "../src/search/stateset.h" /* a plain key set for the generator tests */
#include "../src/slide/slide_internal.h"

static const char SILLY[] = "5 x 5 (a silly example)\n1 = 111/01\n2 = 101/111\n3 = 1\n"
                            "1xx200000000033\n000xx00033001002\n";

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 16);
    *len = fread(buf, 1, (1 << 16) - 1, f);
    buf[*len] = 0;
    fclose(f);
    return buf;
}

/* ---- the reader ---- */

/* Lines of a text one at a time, for sb_slide_parse_lines. */
typedef struct text_lines {
    const char *p;
} text_lines;

static int text_next(void *ud, const char **s, size_t *n, sb_error *err)
{
    text_lines *t = ud;
    (void)err;
    if (!*t->p)
        return 0;
    *s = t->p;
    *n = strcspn(t->p, "\n");
    t->p += *n + (t->p[*n] == '\n');
    return 1;
}

/* The code of reading text, which must be the same read from memory and
 * read line by line (the same puzzle, or the same error and place). */
static int parse_code(const char *text, sb_error *err)
{
    static sb_slide_puzzle pz, pz2;
    sb_error e2;
    text_lines t = {text};
    sb_error_clear(err);
    sb_error_clear(&e2);
    int rc = sb_slide_parse(&pz, text, strlen(text), err);
    int rc2 = sb_slide_parse_lines(&pz2, text_next, &t, &e2);
    CHECK_INT(rc2, rc);
    CHECK(rc ? e2.line == err->line && e2.col == err->col && !strcmp(e2.msg, err->msg)
             : !memcmp(&pz, &pz2, sizeof pz));
    return rc;
}

#define EXPECT_ERR(text, code, ln, cl)                                          \
    do {                                                                        \
        sb_error e_;                                                            \
        CHECK_INT(parse_code(text, &e_), code);                                 \
        CHECK_INT(e_.line, ln);                                                 \
        CHECK_INT(e_.col, cl);                                                  \
    } while (0)

static void test_parse_silly(void)
{
    static sb_slide_puzzle pz;
    sb_error err;
    CHECK_INT(sb_slide_parse(&pz, SILLY, strlen(SILLY), &err), 0);
    CHECK_INT(pz.rows, 5);
    CHECK_INT(pz.cols, 5);
    CHECK_STR(pz.title, "(a silly example)");
    CHECK_INT(pz.kind[1].n, 4);
    CHECK_INT(pz.kind[1].dr[3], 1);
    CHECK_INT(pz.kind[1].dc[3], 1);
    CHECK_INT(pz.kind[2].n, 5);
    CHECK_INT(pz.kind[3].n, 1);
    CHECK_INT(pz.kind[4].defined, 0);
    CHECK_INT(pz.nblocks, 4);
    CHECK_INT(pz.start[0], 1);
    CHECK_INT(pz.start[5], 2);
    CHECK_INT(pz.start[20], 3);
    CHECK_INT(pz.start[21], 3);
    CHECK_INT(pz.xcell[3] + pz.xcell[4], 2);
    CHECK_INT(pz.stop[12], 1);
    CHECK_INT(pz.stop[17], 2);
    CHECK_INT(pz.nwarn, 0);
    /* CRLF, trailing blanks and blank lines are accepted */
    const char *crlf = "2 x 2\r\n\r\n1 = 1 \r\n\n10\r\n\n01\r\n";
    CHECK_INT(sb_slide_parse(&pz, crlf, strlen(crlf), &err), 0);
    CHECK_INT(pz.start[0], 1);
    CHECK_INT(pz.stop[1], 1);
}

static void test_parse_errors(void)
{
    EXPECT_ERR("5 5 oops\n1 = 1\n1\n1\n", SB_EBADSIZE, 1, 3);
    EXPECT_ERR("x x 5\n", SB_EBADSIZE, 1, 1);
    EXPECT_ERR("0 x 5\n", SB_EBADSIZE, 1, 1);
    EXPECT_ERR("17 x 16\n1 = 1\n1\n1\n", SB_EBIGBOARD, 1, 1);
    EXPECT_ERR("2 x 2\ng = 1\n1\n1\n", SB_EPIECENAME, 2, 1);
    EXPECT_ERR("2 x 2\n1 = 12\n1\n1\n", SB_EPATTERN, 2, 6);
    EXPECT_ERR("2 x 2\n1 = 00/0\n1\n1\n", SB_EEMPTYPIECE, 2, 5);
    /* 2 x 2: piece 1 = 11/01 at cell 2 would fill cell 3, already the 2's */
    EXPECT_ERR("2 x 2\n1 = 11/01\n2 = 1/1\n021\n021\n", SB_EFILLTWICE, 4, 3);
    EXPECT_ERR("2 x 2\n1 = 1\n00000\n1\n", SB_EPASTEND, 3, 5);
    EXPECT_ERR("2 x 3\n1 = 11\n001\n1\n", SB_EPASTEND, 3, 3);
    EXPECT_ERR("2 x 2\n1 = 1\n0z1\n1\n", SB_EBADCHAR, 3, 2);
    EXPECT_ERR("2 x 2\n1 = 1\n005\n1\n", SB_EUNDEFINED, 3, 3);
    EXPECT_ERR("2 x 2\n1 = 1\n000\n1\n", SB_ENOPIECES, 3, 1);
    EXPECT_ERR("2 x 2\n1 = 1\n1\n11\n", SB_EMISMATCH, 4, 1);
    EXPECT_ERR("2 x 2\n1 = 1\n1x\n01\n", SB_EMISMATCH, 4, 1);
    EXPECT_ERR("", SB_EMISSING, 1, 1);
    EXPECT_ERR("2 x 2\n1 = 1\n", SB_EMISSING, 3, 1);
    EXPECT_ERR("2 x 2\n1 = 1\n1\n\n", SB_EMISSING, 5, 1);
    char longline[1200];
    memset(longline, '0', sizeof longline);
    memcpy(longline, "2 x 2\n1 = 1\n1\n", 14);
    longline[sizeof longline - 1] = 0;
    EXPECT_ERR(longline, SB_ELONGLINE, 4, SB_SLIDE_MAXLINE + 1);
    /* a redefinition is a warning, as in SLIDING */
    static sb_slide_puzzle pz;
    sb_error err;
    const char *re = "2 x 2\n1 = 1\n1 = 11\n1\n01\n";
    CHECK_INT(sb_slide_parse(&pz, re, strlen(re), &err), 0);
    CHECK_INT(pz.nwarn, 1);
    CHECK_INT(pz.warn[0].line, 3);
    CHECK_INT(pz.warn_name[0], '1');
    CHECK_INT(pz.kind[1].n, 1);
}

/* ---- goals: several stop lines, '.' and '*' ---- */

#define BIT(m, c) ((m)[(c) >> 6] >> ((c) & 63) & 1)

static void test_goal_parse(void)
{
    static sb_slide_puzzle pz;
    sb_error err;
    /* the worked example of docs/FORMAT.md: after the 2x2 at cell 0 the
     * '.' skips cell 2 (cells 1, 3 and 4 are the 1's), and the 2 lands on
     * cell 5; '*' frees the last row */
    const char *t = "3 x 3\n1 = 11/11\n2 = 1\n102\n1.2*\n";
    CHECK_INT(sb_slide_parse(&pz, t, strlen(t), &err), 0);
    CHECK_INT(pz.ngoals, 1);
    CHECK_INT(pz.goal_full, 0);
    CHECK_INT(pz.goal[0].full, 0);
    CHECK_INT(pz.goal[0].line, 5);
    CHECK_INT(pz.goal[0].nnamed, 2);
    CHECK_INT(pz.goal[0].anchors[0], 1);
    CHECK_INT(pz.goal[0].anchors[5], 2);
    CHECK_INT(pz.goal[0].free[2], 1);
    CHECK_INT(pz.goal[0].free[1] + pz.goal[0].free[3] + pz.goal[0].free[4] + pz.goal[0].free[5], 0);
    CHECK_INT(pz.goal[0].free[6] + pz.goal[0].free[7] + pz.goal[0].free[8], 3);
    CHECK(pz.goal[0].need[0] == ((1u << 0) | (1u << 5)));
    CHECK(pz.goal[0].empty[0] == 0);
    CHECK(memcmp(pz.stop, pz.goal[0].anchors, sizeof pz.stop) == 0);
    /* without '*' the cells after the line are empty, as trailing zeros */
    t = "3 x 3\n1 = 11/11\n2 = 1\n102\n1.2\n";
    CHECK_INT(sb_slide_parse(&pz, t, strlen(t), &err), 0);
    CHECK(pz.goal[0].empty[0] == ((1u << 6) | (1u << 7) | (1u << 8)));
    /* risky anchors: a 2 (1x1) anchored on an empty cell; the 2x2 anchored
     * at cell 3 or 4 would reach the last row, at 1 it would cover the 2 */
    CHECK(BIT(pz.goal[0].risky, 6) && BIT(pz.goal[0].risky, 3) && BIT(pz.goal[0].risky, 4));
    CHECK(!BIT(pz.goal[0].risky, 0) && !BIT(pz.goal[0].risky, 2) && !BIT(pz.goal[0].risky, 8 - 8));
    /* SLIDING's files: one full stop line, goal_full */
    CHECK_INT(sb_slide_parse(&pz, SILLY, strlen(SILLY), &err), 0);
    CHECK_INT(pz.ngoals, 1);
    CHECK_INT(pz.goal_full, 1);
    CHECK_INT(pz.goal[0].full, 1);
    /* several stop lines, blank lines between them; two full lines are
     * two goals, so no longer a single key */
    t = "1 x 3\n1 = 1\n2 = 1\n12\n\n021\n\n210\n";
    CHECK_INT(sb_slide_parse(&pz, t, strlen(t), &err), 0);
    CHECK_INT(pz.ngoals, 2);
    CHECK_INT(pz.goal_full, 0);
    CHECK_INT(pz.goal[1].line, 8);
    CHECK_INT(pz.goal[1].anchors[0], 2);
    CHECK_INT(pz.stop[1], 2);
    /* '*' with nothing left, and '.' on an x cell of the start */
    t = "1 x 3\n1 = 1\n1x\n1.0*\n";
    CHECK_INT(sb_slide_parse(&pz, t, strlen(t), &err), 0);
    CHECK_INT(pz.goal[0].free[1], 1);
    t = "1 x 3\n1 = 1\n1x\n*\n";
    CHECK_INT(sb_slide_parse(&pz, t, strlen(t), &err), 0);
    CHECK_INT(pz.goal[0].nnamed, 0);
    /* a start x cell may be written x in a partial line */
    t = "1 x 3\n1 = 1\n1x\n.x1\n";
    CHECK_INT(sb_slide_parse(&pz, t, strlen(t), &err), 0);
    CHECK_INT(pz.goal[0].anchors[2], 1);
}

static void test_goal_errors(void)
{
    /* '.' and '*' belong to stop lines only */
    EXPECT_ERR("2 x 2\n1 = 1\n.1\n1\n", SB_EBADCHAR, 3, 1);
    EXPECT_ERR("2 x 2\n1 = 1\n1*\n1\n", SB_EBADCHAR, 3, 2);
    /* '*' must end the line */
    EXPECT_ERR("2 x 2\n1 = 1\n1\n*1\n", SB_EBADCHAR, 4, 1);
    /* an illegal character in a stop line, in the second stop line */
    EXPECT_ERR("2 x 2\n1 = 1\n1\n.1\n0?\n", SB_EBADCHAR, 5, 2);
    /* past the end: a '.' too many, a named block off the edge */
    EXPECT_ERR("2 x 2\n1 = 1\n1\n....\n.....\n", SB_EPASTEND, 5, 5);
    EXPECT_ERR("2 x 3\n1 = 11\n1\n..1*\n", SB_EPASTEND, 4, 3);
    /* a cell filled twice by two named blocks of a partial line */
    EXPECT_ERR("2 x 2\n1 = 11/01\n2 = 1/1\n1\n.21*\n", SB_EFILLTWICE, 5, 3);
    /* an undefined piece */
    EXPECT_ERR("2 x 2\n1 = 1\n1\n.5\n", SB_EUNDEFINED, 4, 2);
    /* a partial line names more of a kind than the start holds, or a kind
     * the start does not hold at all: the column of the one too many */
    EXPECT_ERR("2 x 2\n1 = 1\n2 = 1\n12\n.11*\n", SB_EMISMATCH, 5, 3);
    EXPECT_ERR("2 x 2\n1 = 1\n2 = 1\n11\n.2*\n", SB_EMISMATCH, 5, 2);
    /* x cells: written x where the start has none, a start x cell written 0
     * or left to the implicit trailing zeros */
    EXPECT_ERR("2 x 2\n1 = 1\n1\n.x*\n", SB_EMISMATCH, 4, 2);
    EXPECT_ERR("2 x 2\n1 = 1\n1x\n.0*\n", SB_EMISMATCH, 4, 2);
    EXPECT_ERR("2 x 2\n1 = 1\n1x\n.\n", SB_EMISMATCH, 4, 1);
    /* a full line after a partial one still holds exactly the start's
     * blocks (today's message, column 1) */
    EXPECT_ERR("2 x 2\n1 = 1\n1\n.1*\n11\n", SB_EMISMATCH, 5, 1);
    /* more stop lines than sbfs keeps */
    char many[600] = "2 x 2\n1 = 1\n1\n";
    for (int i = 0; i <= SB_SLIDE_MAXGOALS; i++)
        strcat(many, "1*\n");
    EXPECT_ERR(many, SB_EBIGBOARD, 4 + SB_SLIDE_MAXGOALS, 1);
    many[strlen(many) - 3] = 0; /* exactly the most: accepted */
    sb_error e;
    CHECK_INT(parse_code(many, &e), 0);
}

/* The goal test on keys against a direct reading of the stop lines on the
 * board, for every configuration of the component of the start. */
static int naive_goal(const sb_slide_puzzle *pz, const unsigned char *a)
{
    for (int g = 0; g < pz->ngoals; g++) {
        const sb_slide_goal *gl = &pz->goal[g];
        unsigned char cov[SB_SLIDE_MAXCELLS] = {0}, gcov[SB_SLIDE_MAXCELLS] = {0};
        int ok = 1;
        for (int j = 0; j < pz->ncells; j++) {
            for (int pass = 0; pass < 2; pass++) {
                int v = pass ? gl->anchors[j] : a[j];
                unsigned char *m = pass ? gcov : cov;
                for (int t = 0; v && t < pz->kind[v].n; t++)
                    m[(j / pz->cols + pz->kind[v].dr[t]) * pz->cols + j % pz->cols + pz->kind[v].dc[t]] = 1;
            }
        }
        for (int j = 0; j < pz->ncells && ok; j++) {
            if (gl->anchors[j] && a[j] != gl->anchors[j])
                ok = 0;
            if (!gl->free[j] && !gcov[j] && !pz->xcell[j] && cov[j])
                ok = 0;
        }
        if (ok)
            return 1;
    }
    return 0;
}

/* Every configuration the hashed engine finds from the start (the whole
 * component with SB_SEARCH_CENSUS), handed to visit as it is found.  The
 * search is returned for its result, NULL when it failed. */
typedef struct visitor {
    void (*fn)(void *ud, const uint64_t *key);
    void *ud;
} visitor;

static void visit_new(void *ud, const uint64_t *key, int level, uint64_t index, uint64_t from)
{
    visitor *v = ud;
    (void)level, (void)index, (void)from;
    v->fn(v->ud, key);
}

static sb_search *hashed(const sb_slide *sl, unsigned flags, visitor *v, sb_mem *mem)
{
    sb_keymodel m;
    sb_search *s = NULL;
    sb_error err;
    sb_search_opts o = {0, v ? visit_new : NULL, v, NULL, 0, NULL, 0, 0};
    sb_slide_model(sl, 0, &m);
    if (sb_search_new(&s, SB_ENGINE_HASHED, &m, &o, mem, &err) ||
        sb_search_run(s, sl->start, sl->stop, flags, NULL, &err)) {
        T_FAIL_AT("hashed search: %s", err.msg);
        sb_search_free(s);
        return NULL;
    }
    return s;
}

typedef struct goal_count {
    const sb_slide *sl;
    const sb_slide_puzzle *pz;
    long matches, bad;
} goal_count;

static void count_goal(void *ud, const uint64_t *key)
{
    goal_count *g = ud;
    unsigned char a[SB_SLIDE_MAXCELLS];
    sb_slide_unpack(g->sl, key, a);
    int got = sb_slide_is_goal(g->sl, key), want = naive_goal(g->pz, a);
    g->bad += got != want;
    g->matches += want;
}

static void goal_agrees(const char *name, const char *text, int style, long want_matches)
{
    static sb_slide_puzzle pz;
    sb_slide sl;
    sb_mem mem;
    sb_keymodel m;
    sb_error err;
    sb_mem_init(&mem, 0);
    if (sb_slide_parse(&pz, text, strlen(text), &err) || sb_slide_init(&sl, &pz, style, &mem, &err)) {
        T_FAIL_AT("%s: %s", name, err.msg);
        return;
    }
    sb_slide_model(&sl, 0, &m);
    CHECK((m.is_goal != NULL) == !pz.goal_full);
    goal_count g = {&sl, &pz, 0, 0};
    visitor v = {count_goal, &g};
    sb_search_free(hashed(&sl, SB_SEARCH_CENSUS, &v, &mem)); /* the whole component */
    if (g.bad)
        T_FAIL_AT("%s: the key test and the board test disagree on %ld configurations", name, g.bad);
    else
        t_passed++;
    CHECK_INT(g.matches, want_matches);
    sb_slide_fini(&sl);
}

static void test_goal_match(void)
{
    /* SHIFT's layout under goals of every sort: the 2x2 at the bottom
     * centre; cells that must be empty (reached over by blocks anchored
     * elsewhere); several lines at once; a full line among partial ones.
     * The counts, out of 25955 configurations, pin what both readings
     * agree on. */
    const char *head = "5 x 4 SHIFT\n1 = 1/1\n2 = 11/11\n3 = 11\n4 = 1\n121131444004\n";
    char t[512];
    snprintf(t, sizeof t, "%s.............2*\n", head);
    goal_agrees("x at the bottom centre", t, 0, 964);
    snprintf(t, sizeof t, "%s00*\n", head);
    goal_agrees("two empty cells top left", t, 0, 318);
    snprintf(t, sizeof t, "%s....0..0*\n", head);
    goal_agrees("empty cells under blocks", t, 0, 20);
    snprintf(t, sizeof t, "%s.............2*\n00*\n2*\n", head);
    goal_agrees("three lines", t, 0, 6830);
    snprintf(t, sizeof t, "%s121131444004\n.2*\n", head);
    goal_agrees("full and partial", t, 0, 4861);
    /* one kind only: no kind bits in the key */
    goal_agrees("ones", "2 x 3\n1 = 1\n111\n.0.1\n", 0, 1);
    /* the silly puzzle: pieces with holes, x cells, three kinds */
    goal_agrees("silly", "5 x 5\n1 = 111/01\n2 = 101/111\n3 = 1\n1xx200000000033\n...xx0.3*\n", 2, 132);
}

static void test_goal_text(void)
{
    static sb_slide_puzzle pz;
    sb_error err;
    char buf[SB_SLIDE_BOARD_MAX];
    const char *t = "3 x 3\n1 = 11/11\n2 = 1\n1x2\n1x2*\n";
    CHECK_INT(sb_slide_parse(&pz, t, strlen(t), &err), 0);
    sb_slide_goal_text(&pz, 0, buf);
    CHECK_STR(buf, "      \n"
                   " 1-1  \n"
                   " | |  \n"
                   " 1-1 2\n"
                   "      \n"
                   " . . .\n");
}

/* ---- printing ---- */

static void test_print(void)
{
    static sb_slide_puzzle pz;
    sb_error err;
    char buf[1024];
    sb_slide_parse(&pz, SILLY, strlen(SILLY), &err);
    sb_slide_board_text(&pz, pz.start, buf);
    CHECK_STR(buf, "          \n"
                   " 1-1-1    \n"
                   "   |      \n"
                   " 2 1 2 0 0\n"
                   " |   |    \n"
                   " 2-2-2 0 0\n"
                   "          \n"
                   " 0 0 0 0 0\n"
                   "          \n"
                   " 3 3 0 0 0\n");
    CHECK_INT((int)sb_slide_board_size(&pz), (int)strlen(buf) + 1);
    sb_slide_shorthand(&pz, pz.start, buf);
    CHECK_STR(buf, "1200000000033");
    sb_slide_shorthand(&pz, pz.stop, buf);
    CHECK_STR(buf, "00000033001002");
    sb_slide_cells(&pz, pz.start, buf);
    CHECK_STR(buf, "111xx\n21200\n22200\n00000\n33000\n");
}

/* ---- keys ---- */

static void test_keys(void)
{
    static sb_slide_puzzle pz;
    sb_slide sl;
    sb_mem mem;
    sb_error err;
    unsigned char a[SB_SLIDE_MAXCELLS];
    uint64_t k1[SB_SLIDE_MAXKW], k2[SB_SLIDE_MAXKW];
    sb_mem_init(&mem, 0);
    sb_slide_parse(&pz, SILLY, strlen(SILLY), &err);
    CHECK_INT(sb_slide_init(&sl, &pz, 0, &mem, &err), 0);
    CHECK_INT(sl.nk, 3);
    CHECK_INT(sl.kbits, 2);
    CHECK_INT(sl.key_bits, 25 + 4 * 2);
    CHECK_INT(sl.key_words, 1);
    sb_slide_unpack(&sl, sl.start, a);
    CHECK(memcmp(a, pz.start, pz.ncells) == 0);
    sb_slide_pack(&sl, a, k1);
    CHECK(k1[0] == sl.start[0]);
    CHECK(sl.start[0] != sl.stop[0]);
    sb_slide_fini(&sl);

    /* Two 3s on a 2 x 2 board: swapping them changes nothing, so there are
     * C(4,2) = 6 configurations; with a 4 instead of the second 3 there are
     * 4 * 3 = 12.  The key cannot tell the two 3s apart by construction;
     * the search shows it. */
    const char *same = "2 x 2\n3 = 1\n33\n0033\n", *diff = "2 x 2\n3 = 1\n4 = 1\n34\n0034\n";
    sb_search *b;
    sb_slide_parse(&pz, same, strlen(same), &err);
    sb_slide_init(&sl, &pz, 0, &mem, &err);
    CHECK_INT(sl.kbits, 0);
    CHECK_INT(sl.key_bits, 4);
    b = hashed(&sl, SB_SEARCH_CENSUS, NULL, &mem);
    CHECK_U64(sb_search_result(b)->states, 6);
    sb_search_free(b);
    /* the configuration 3 at cell 0 and 3 at cell 3, built two ways */
    memset(a, 0, sizeof a);
    a[0] = 3, a[3] = 3;
    sb_slide_pack(&sl, a, k1);
    a[0] = 3, a[3] = 3; /* the "other" 3 first: the same anchors */
    sb_slide_pack(&sl, a, k2);
    CHECK(k1[0] == k2[0]);
    sb_slide_fini(&sl);
    sb_slide_parse(&pz, diff, strlen(diff), &err);
    sb_slide_init(&sl, &pz, 0, &mem, &err);
    b = hashed(&sl, SB_SEARCH_CENSUS, NULL, &mem);
    CHECK_U64(sb_search_result(b)->states, 12);
    sb_search_free(b);
    sb_slide_fini(&sl);

    /* widths: SHIFT 20 + 10*2 bits; the 15-puzzle 16 + 15*4; a 16 x 16 board */
    size_t len;
    char *t = read_file("puzzles/shift.txt", &len);
    CHECK(t != NULL);
    if (t) {
        sb_slide_parse(&pz, t, len, &err);
        sb_slide_init(&sl, &pz, 0, &mem, &err);
        CHECK_INT(sl.key_bits, 40);
        CHECK_INT(sl.key_words, 1);
        sb_slide_fini(&sl);
        free(t);
    }
    t = read_file("bench/fifteen-18.txt", &len);
    CHECK(t != NULL);
    if (t) {
        sb_slide_parse(&pz, t, len, &err);
        sb_slide_init(&sl, &pz, 0, &mem, &err);
        /* every tile a kind of its own: the slot form, 15 * 4 bits, with
         * room for hints on the one empty cell */
        CHECK_INT(sl.pbits, 4);
        CHECK_INT(sl.key_bits, 60);
        CHECK_INT(sl.key_words, 1);
        CHECK_INT(sl.hint_ranks, 1);
        CHECK_INT(sl.hint_bits, 4);
        sb_slide_unpack(&sl, sl.start, a);
        CHECK(memcmp(a, pz.start, pz.ncells) == 0);
        sb_slide_pack(&sl, a, k1);
        CHECK(k1[0] == sl.start[0]);
        /* the start is 23471056abc89def: tile 1 (the first kind) is at
         * cell 4, tile 2 at cell 0, tile f at cell 15 */
        CHECK_INT(sb_slide_field(&sl, sl.start[0], 0), 4);
        CHECK_INT(sb_slide_field(&sl, sl.start[0], 1), 0);
        CHECK_INT(sb_slide_field(&sl, sl.start[0], 14), 15);
        static const int at[15] = {4, 0, 1, 2, 6, 7, 3, 11, 12, 8, 9, 10, 13, 14, 15};
        uint64_t want = 0;
        for (int k = 0; k < 15; k++)
            want |= (uint64_t)at[k] << (4 * k);
        CHECK(sl.start[0] == want);
        sb_slide_fini(&sl);
        free(t);
    }
    t = read_file("bench/klotski-distinct.txt", &len);
    CHECK(t != NULL);
    if (t) {
        sb_slide_parse(&pz, t, len, &err);
        sb_slide_init(&sl, &pz, 0, &mem, &err);
        CHECK_INT(sl.key_bits, 10 * 5); /* not 20 + 10 * 4 */
        CHECK_INT(sl.hint_ranks, 2);    /* both empty cells */
        sb_slide_fini(&sl);
        sb_slide_init(&sl, &pz, 1, &mem, &err);
        CHECK_INT(sl.hint_bits, 0); /* hints are for style 0 only */
        sb_slide_fini(&sl);
        free(t);
    }
    CHECK_U64(mem.used, 0);
}

/* ---- neighbour counts on hand-made boards ---- */


/* Distinct neighbours of key: every key listed, sorted, repeats dropped. */
typedef struct listed {
    uint64_t k[4096][SB_SLIDE_MAXKW];
    int n, kw;
} listed;

static void list_key(void *ctx, const uint64_t *key)
{
    listed *l = ctx;
    if (l->n < 4096)
        memcpy(l->k[l->n++], key, sizeof *key * (size_t)l->kw);
}

static int cmp_keys(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(uint64_t) * SB_SLIDE_MAXKW);
}

static int count_moves(const sb_slide *sl, const uint64_t *key)
{
    static listed l;
    memset(&l, 0, sizeof l);
    l.kw = sl->key_words;
    int rc = sb_slide_expand(sl, key, list_key, &l);
    if (rc)
        return rc;
    qsort(l.k, (size_t)l.n, sizeof l.k[0], cmp_keys);
    int distinct = 0;
    for (int i = 0; i < l.n; i++)
        distinct += i == 0 || cmp_keys(l.k[i - 1], l.k[i]) != 0;
    return distinct;
}

static int count_in(const char *text, int style, const char *config)
{
    static sb_slide_puzzle pz;
    sb_slide sl;
    sb_mem mem;
    sb_error err;
    uint64_t key[SB_SLIDE_MAXKW];
    sb_mem_init(&mem, 0);
    if (sb_slide_parse(&pz, text, strlen(text), &err) || sb_slide_init(&sl, &pz, style, &mem, &err))
        return -100;
    if (config) { /* a configuration other than the start, in shorthand */
        char buf[600];
        snprintf(buf, sizeof buf, "%s", text);
        /* rebuild the text with config as start and stop */
        char *p = buf + strlen(buf) - 1;
        int nl = 0;
        while (p > buf && nl < 2)
            if (*--p == '\n')
                nl++;
        snprintf(p + 1, sizeof buf - (size_t)(p + 1 - buf), "%s\n%s\n", config, config);
        static sb_slide_puzzle pz2;
        if (sb_slide_parse(&pz2, buf, strlen(buf), &err))
            return -200;
        sb_slide_pack(&sl, pz2.start, key);
    } else {
        memcpy(key, sl.start, sizeof key);
    }
    int n = count_moves(&sl, key);
    sb_slide_fini(&sl);
    return n;
}

static void test_move_counts(void)
{
    /* silly start, counted by hand in all six styles (see docs/ALGORITHMS.md) */
    static const int silly[6] = {4, 6, 29, 7, 11, 41};
    for (int s = 0; s < 6; s++)
        CHECK_INT(count_in(SILLY, s, NULL), silly[s]);
    /* Knuth's 0102: 1 goes left or right, 2 goes left: three moves, and the
     * pair 12 may also go left together in styles 3-5. */
    const char *row = "1 x 4\n1 = 1\n2 = 1\n0102\n0102\n";
    static const int r0102[6] = {3, 3, 3, 4, 4, 4};
    for (int s = 0; s < 6; s++)
        CHECK_INT(count_in(row, s, NULL), r0102[s]);
    /* from 1002 one style-2 move of the 2 goes through 1020 to 1200:
     * neighbours 0102, 0012 (the 1) and 1020, 1200 (the 2) */
    CHECK_INT(count_in(row, 2, "1002"), 4);
    CHECK_INT(count_in(row, 1, "1002"), 4);
    CHECK_INT(count_in(row, 0, "1002"), 2);
    /* a 3 x 3 box with one 2x2 block and empty L: style 0 moves right and
     * down; style 2 also reaches the far corner; superpieces add nothing */
    const char *box = "3 x 3\n1 = 11/11\n1\n01\n";
    static const int rbox[6] = {2, 2, 3, 2, 2, 3};
    for (int s = 0; s < 6; s++)
        CHECK_INT(count_in(box, s, NULL), rbox[s]);
    /* x cells are walls: a 1x1 between two x cells can only go down, and
     * then (styles 2 and 5) on to either side of the lower row */
    const char *walls = "2 x 3\n1 = 1\nx1x\nx1x\n";
    static const int rwalls[6] = {1, 1, 3, 1, 1, 3};
    for (int s = 0; s < 6; s++)
        CHECK_INT(count_in(walls, s, NULL), rwalls[s]);
    /* a disconnected piece 1 = 101 straddling a 2 on a 2 x 3 board: each
     * can go down alone; the 2 can then go sideways (style 2: 1 + 3); the
     * pair can go down together (styles 3-5), sideways never, since the 1
     * would leave the board or the 2 would bump into the 1 */
    const char *apart = "2 x 3\n1 = 101\n2 = 1\n12\n12\n";
    static const int rapart[6] = {2, 2, 4, 3, 3, 5};
    for (int s = 0; s < 6; s++)
        CHECK_INT(count_in(apart, s, NULL), rapart[s]);
}

static void test_knuth_0102(void)
{
    /* from 0102 in style 2: distance 1 = {1002, 0012, 0120},
     * distance 2 = {1020, 1200}: 1200 is found although the walk of the 2
     * from 1002 passes the already known 1020 */
    static sb_slide_puzzle pz;
    sb_slide sl;
    sb_mem mem;
    sb_error err;
    const char *t = "1 x 4\n1 = 1\n2 = 1\n0102\n12\n";
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_slide_parse(&pz, t, strlen(t), &err), 0);
    sb_slide_init(&sl, &pz, 2, &mem, &err);
    sb_search *b = hashed(&sl, 0, NULL, &mem);
    CHECK_INT(sb_search_result(b)->length, 2);
    CHECK_U64(sb_search_level(b, 0, 1), 3);
    CHECK_U64(sb_search_level(b, 0, 2), 2);
    uint64_t path[3];
    char line[200];
    CHECK_INT(sb_search_path(b, path, NULL, &err), 0);
    CHECK_INT(sb_slide_describe(&sl, &path[1], &path[2], line, sizeof line, &err), 0);
    CHECK_STR(line, "2@r1c4 left left");
    sb_search_free(b);
    sb_slide_fini(&sl);
}

/* ---- exact results of the bundled puzzles ---- */

static int solve_len(const char *path, int style, uint64_t *total)
{
    static sb_slide_puzzle pz;
    sb_slide sl;
    sb_mem mem;
    sb_error err;
    size_t len;
    char *t = read_file(path, &len);
    if (!t)
        return -1;
    sb_mem_init(&mem, 0);
    int rc = sb_slide_parse(&pz, t, len, &err);
    free(t);
    if (rc || sb_slide_init(&sl, &pz, style, &mem, &err))
        return -1;
    sb_search *b = hashed(&sl, 0, NULL, &mem);
    int d = b ? sb_search_result(b)->length : -1;
    *total = b ? sb_search_result(b)->states : 0;
    sb_search_free(b);
    sb_slide_fini(&sl);
    return d;
}

static void test_bundled(void)
{
    static const int silly[6] = {20, 10, 4, 10, 4, 2};
    static const int shift[6] = {116, 90, 81, 72, 58, 55};
    uint64_t n;
    for (int s = 0; s < 6; s++) {
        CHECK_INT(solve_len("puzzles/silly.txt", s, &n), silly[s]);
        CHECK_INT(solve_len("puzzles/shift.txt", s, &n), shift[s]);
        CHECK_INT(solve_len("puzzles/klotski.txt", s, &n), shift[s]);
    }
    CHECK_INT(solve_len("puzzles/eight-judge.txt", 0, &n), 31);
    CHECK_U64(n, 181440); /* 31 is the diameter: the whole even half */
    CHECK_INT(solve_len("puzzles/eight-sample.txt", 0, &n), 19);
}

/* ---- the fast move generator against the general one ---- */

/* moves.c has a fast path for styles 0-2 on boards of up to 64 cells,
 * taken when sl->fast is set; clearing the flag forces the general path.
 * Both must emit the same neighbours in the same order (SLIDING's, which
 * the command line's listings depend on), so we compare the sequences on
 * random configurations reached from the start of each puzzle. */

#define SEQ_MAX 4096

typedef struct seq {
    int kw, n, over;
    uint64_t k[SEQ_MAX * 2];
} seq;

static void seq_emit(void *ctx, const uint64_t *key)
{
    seq *q = ctx;
    if (q->n == SEQ_MAX || q->kw > 2) {
        q->over = 1;
        return;
    }
    memcpy(q->k + (size_t)q->n * q->kw, key, (size_t)q->kw * sizeof *key);
    q->n++;
}

typedef struct collect_ctx {
    sb_stateset *set;
    sb_error *err;
} collect_ctx;

static void collect_emit(void *ctx, const uint64_t *key)
{
    collect_ctx *c = ctx;
    int added;
    sb_stateset_add(c->set, key, &added, c->err);
}

/* Sorted identities (hints cleared) of q's keys, one word. */
static void seq_ids(seq *q, uint64_t mask)
{
    for (int i = 0; i < q->n; i++)
        q->k[i] &= mask;
    for (int i = 1; i < q->n; i++)
        for (int j = i; j > 0 && q->k[j - 1] > q->k[j]; j--) {
            uint64_t t = q->k[j];
            q->k[j] = q->k[j - 1];
            q->k[j - 1] = t;
        }
}

/* Hints (sb_slide_model_hints), checked from key (which has none): every
 * neighbour c is listed with the hint of the move back, and c expanded
 * with that hint lists exactly its neighbours but key.  Returns 1 if so;
 * adds to *bare the neighbours without a hint (possible only when the
 * hints cannot name every empty cell). */
static int hints_ok(const sb_slide *sl, const uint64_t *key, int *bare)
{
    static seq plain, hinted, back, full;
    uint64_t mask = ~(uint64_t)0 >> sl->hint_bits;
    plain.kw = hinted.kw = back.kw = full.kw = 1;
    plain.n = hinted.n = plain.over = hinted.over = 0;
    sb_slide_expand(sl, key, seq_emit, &plain);
    sb_slide_expand_hinted(sl, key, seq_emit, &hinted);
    if (plain.over || hinted.over || plain.n != hinted.n)
        return 0;
    for (int i = 0; i < hinted.n; i++) {
        uint64_t c = hinted.k[i];
        *bare += !(c & ~mask);
        back.n = full.n = back.over = full.over = 0;
        uint64_t id = c & mask;
        sb_slide_expand_hinted(sl, &c, seq_emit, &back);
        sb_slide_expand(sl, &id, seq_emit, &full);
        if (back.over || full.over || back.n + (c != id) != full.n)
            return 0;
        if (c != id && back.n < SEQ_MAX)
            back.k[back.n++] = key[0];
        seq_ids(&back, mask);
        seq_ids(&full, mask);
        if (memcmp(back.k, full.k, (size_t)full.n * sizeof *full.k))
            return 0;
    }
    seq_ids(&plain, mask);
    seq_ids(&hinted, mask);
    return !memcmp(plain.k, hinted.k, (size_t)plain.n * sizeof *plain.k);
}

/* Returns the number of configurations compared, -1 on a setup error. */
static int fast_vs_general(const char *name, const char *text, int style, int limit, int samples)
{
    static sb_slide_puzzle pz;
    static seq qa, qb;
    sb_slide sl;
    sb_mem mem;
    sb_error err;
    sb_stateset set;
    sb_rng rng;
    sb_mem_init(&mem, 0);
    if (sb_slide_parse(&pz, text, strlen(text), &err) || sb_slide_init(&sl, &pz, style, &mem, &err) ||
        sb_stateset_init(&set, sl.key_words, &mem, &err)) {
        T_FAIL_AT("%s: %s", name, err.msg);
        return -1;
    }
    int fast = sl.fast, done = 0, bare = 0, empty = __builtin_popcountll(sl.open1);
    for (int c = 0; c < pz.ncells; c++)
        empty -= pz.start[c] ? pz.kind[pz.start[c]].n : 0;
    collect_ctx cc = {&set, &err};
    int added;
    sb_stateset_add(&set, sl.start, &added, &err);
    sl.fast = 0; /* breadth-first with the general generator */
    for (uint64_t i = 0; i < set.n && set.n < (uint64_t)limit; i++)
        sb_slide_expand(&sl, sb_stateset_key(&set, i), collect_emit, &cc);
    sb_rng_seed(&rng, 12345u + (uint64_t)style);
    for (int t = 0; t < samples; t++) {
        const uint64_t *key = sb_stateset_key(&set, t == 0 ? 0 : sb_rng_below(&rng, set.n));
        qa.kw = qb.kw = sl.key_words;
        qa.n = qb.n = qa.over = qb.over = 0;
        sl.fast = fast;
        sb_slide_expand(&sl, key, seq_emit, &qa);
        sl.fast = 0;
        sb_slide_expand(&sl, key, seq_emit, &qb);
        if (qa.over || qb.over || qa.n != qb.n ||
            memcmp(qa.k, qb.k, (size_t)qa.n * sl.key_words * sizeof *qa.k)) {
            T_FAIL_AT("%s style %d: fast and general generators differ (%d vs %d neighbours)", name, style,
                      qa.n, qb.n);
            break;
        }
        sl.fast = fast;
        if (sl.hint_bits && !hints_ok(&sl, key, &bare)) {
            T_FAIL_AT("%s style %d: a hint does not name the move back", name, style);
            break;
        }
        done++;
    }
    /* with room for every empty cell, every neighbour has its hint */
    if (sl.hint_bits && sl.hint_ranks == empty && bare) {
        T_FAIL_AT("%s: %d neighbours without a hint", name, bare);
        done = 0;
    }
    sb_stateset_free(&set);
    sb_slide_fini(&sl);
    return done;
}

static void test_fast_moves(void)
{
    int few = t_sanitized();
    int limit = few ? 3000 : 30000, samples = few ? 200 : 2000;
    static const struct {
        const char *name, *path, *text;
        int fast; /* whether the fast path applies */
    } P[] = {
        {"silly", NULL, SILLY, 1},
        {"shift", "puzzles/shift.txt", NULL, 1},
        {"klotski", "puzzles/klotski.txt", NULL, 1},
        {"eight", "puzzles/eight-judge.txt", NULL, 1},
        {"klotski-distinct", "bench/klotski-distinct.txt", NULL, 1},
        {"fifteen", "bench/fifteen-18.txt", NULL, 1},
        /* one-cell pieces (decoded by rank) with several holes and an x */
        {"mono-x", NULL, "3 x 4\n1 = 1\n2 = 1\n3 = 1\n1203x0102\n1203x0102\n", 1},
        /* disconnected pieces (101, and 1/01 diagonal) among x cells */
        {"apart-x", NULL, "4 x 4\n1 = 101\n2 = 1\n3 = 11\n4 = 1/01\n120x03400x020\n120x03400x020\n", 1},
        /* 64 cells exactly: anchors fill the first word, kinds the second */
        {"8x8", NULL, "8 x 8\n1 = 11/11\n2 = 1\n3 = 111\n4 = 1/1\n5 = 1/11\n"
                      "10203040502\n10203040502\n", 1},
        /* every piece a kind of its own (the slot form), x cells */
        {"slots-x", NULL, "3 x 4\n1 = 11\n2 = 1/1\n3 = 1\n4 = 1\n1x200034\n1x200034\n", 1},
        /* one row of 64: no vertical neighbours at all */
        {"1x64", NULL, "1 x 64\n1 = 1\n2 = 11\n3 = 101\n1020030\n1020030\n", 1},
        /* more than 64 cells: the general path only */
        {"7x10", NULL, "7 x 10\n1 = 11/11\n2 = 1\n3 = 111\n4 = 1/1\n"
                       "1020304x2000000x2\n1020304x2000000x2\n", 0},
    };
    for (size_t p = 0; p < sizeof P / sizeof *P; p++) {
        size_t len;
        char *t = P[p].path ? read_file(P[p].path, &len) : NULL;
        const char *text = P[p].path ? t : P[p].text;
        if (!text) {
            T_FAIL_AT("cannot read %s", P[p].path);
            continue;
        }
        {
            static sb_slide_puzzle pz;
            sb_slide sl;
            sb_mem mem;
            sb_error err;
            sb_mem_init(&mem, 0);
            int rc = sb_slide_parse(&pz, text, strlen(text), &err) || sb_slide_init(&sl, &pz, 0, &mem, &err);
            CHECK_INT(rc, 0);
            if (!rc) {
                CHECK_INT(sl.fast, P[p].fast);
                sb_slide_fini(&sl);
            }
        }
        for (int s = 0; s < 6; s++) {
            int n = fast_vs_general(P[p].name, text, s, limit, s < 3 ? samples : samples / 10);
            CHECK(n > 0);
        }
        free(t);
    }
}

int main(void)
{
    RUN(test_parse_silly);
    RUN(test_parse_errors);
    RUN(test_goal_parse);
    RUN(test_goal_errors);
    RUN(test_goal_match);
    RUN(test_goal_text);
    RUN(test_print);
    RUN(test_keys);
    RUN(test_move_counts);
    RUN(test_knuth_0102);
    RUN(test_bundled);
    RUN(test_fast_moves);
    return TEST_END();
}
