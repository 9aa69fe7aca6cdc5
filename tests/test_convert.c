/* Grids and Rush Hour lines (src/slide/convert.c): the conversions are
 * exact both ways on what they write, keep the puzzle (the same lengths in
 * every style), and refuse bad pictures naming line and column.  Random
 * puzzles of tests/slide_gen.h go round the same way. */
#include "harness.h"
#include "sbfs/sbfs.h"
#include "slide_gen.h"
#include "../src/slide/slide_internal.h"

static char *conv(const char *text, int from, int to, int *rc, sb_error *err)
{
    char *out = NULL;
    *rc = sb_slide_convert(text, strlen(text), from, to, &out, NULL, err);
    return out;
}

/* The length of a shortest solution in `style` (-1 none), by the
 * sorted-level engine from the start. */
static int length(const char *text, int style)
{
    static sb_slide_puzzle pz;
    sb_error err;
    sb_mem mem;
    sb_slide sl;
    sb_search *s;
    sb_keymodel m;
    sb_mem_init(&mem, 0);
    if (sb_slide_parse(&pz, text, strlen(text), &err) || sb_slide_init(&sl, &pz, style, &mem, &err))
        return -100;
    sb_slide_model(&sl, 0, &m);
    int len = -200;
    if (!sb_search_new(&s, SB_ENGINE_LEVELS, &m, NULL, &mem, &err)) {
        if (!sb_search_run(s, sl.start, sl.stop, 0, NULL, &err))
            len = sb_search_result(s)->found ? sb_search_result(s)->length : -1;
        sb_search_free(s);
    }
    sb_slide_fini(&sl);
    return len;
}

/* S -> grid G -> S2 -> G2: G2 is G and S2 converts to itself; S and S2
 * solve alike in styles 0..maxstyle.  Returns 1 when all held. */
static int round_trip(const char *what, const char *S, int maxstyle)
{
    sb_error err;
    int rc, ok = 1;
    char *G = conv(S, SB_SLIDE_AUTO, SB_SLIDE_GRID, &rc, &err);
    if (rc) {
        T_FAIL_AT("%s: to a grid: %s\n%s", what, err.msg, S);
        return 0;
    }
    char *S2 = conv(G, SB_SLIDE_AUTO, SB_SLIDE_SLIDING, &rc, &err);
    char *G2 = S2 ? conv(S2, SB_SLIDE_SLIDING, SB_SLIDE_GRID, &rc, &err) : NULL;
    char *S3 = G2 ? conv(G2, SB_SLIDE_GRID, SB_SLIDE_SLIDING, &rc, &err) : NULL;
    if (!S2 || !G2 || !S3) {
        T_FAIL_AT("%s: back: %s (line %d col %d)\n%s\n%s", what, err.msg, err.line, err.col, S, G);
        ok = 0;
    } else if (strcmp(G, G2) || strcmp(S2, S3)) {
        T_FAIL_AT("%s: not exact:\n%s\n%s\n%s\n%s", what, G, G2, S2, S3);
        ok = 0;
    } else {
        for (int s = 0; s <= maxstyle && ok; s++)
            if (length(S, s) != length(S2, s)) {
                T_FAIL_AT("%s: style %d: %d moves, as a grid %d\n%s\n%s", what, s, length(S, s),
                          length(S2, s), S, S2);
                ok = 0;
            }
    }
    t_passed += ok;
    free(G);
    free(S2);
    free(G2);
    free(S3);
    return ok;
}

static const char KLOTSKI_GRID[] = "grid Klotski\n"
                                   "ABBC\nABBC\nDEEF\nDGHF\nI..J\n"
                                   "goal:\n????\n????\n????\n?BB?\n?BB?\n"
                                   "same: ACDF\nsame: GHIJ\n";

static void test_klotski(void)
{
    sb_error err;
    int rc;
    char *S = conv(KLOTSKI_GRID, SB_SLIDE_AUTO, SB_SLIDE_SLIDING, &rc, &err);
    CHECK_INT(rc, 0);
    CHECK_STR(S, "5 x 4 Klotski\n1 = 1/1\n2 = 11/11\n3 = 11\n4 = 1\n121131444004\n.............2*\n");
    /* the written grid comes back exactly */
    char *G = S ? conv(S, SB_SLIDE_SLIDING, SB_SLIDE_GRID, &rc, &err) : NULL;
    CHECK_STR(G, KLOTSKI_GRID);
    /* the lengths of puzzles/klotski.txt (tests/cli/slide) */
    if (S) {
        CHECK_INT(length(S, 1), 90);
        CHECK_INT(length(S, 2), 81);
    }
    free(S);
    free(G);
    /* x is a wall as # is; blanks in the legend; blank lines anywhere */
    const char *g2 = "\ngrid\nAx.\n\n.BB\ngoal:\n???\n?BB\nh: A B\n";
    S = conv(g2, SB_SLIDE_AUTO, SB_SLIDE_SLIDING, &rc, &err);
    CHECK_STR(S, "2 x 3\n1 = 1 h\n2 = 11 h\n1x002\n....2\n");
    free(S);
}

static void test_rush(void)
{
    sb_error err;
    int rc;
    const char *line = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo\n";
    CHECK_INT(sb_slide_detect(line, 36), SB_SLIDE_RUSH);
    CHECK_INT(sb_slide_detect("grid", 4), SB_SLIDE_GRID);
    CHECK_INT(sb_slide_detect("grid x", 6), SB_SLIDE_GRID);
    CHECK_INT(sb_slide_detect("gridx", 5), SB_SLIDE_SLIDING);
    CHECK_INT(sb_slide_detect("5 x 4", 5), SB_SLIDE_SLIDING);
    char *G = conv(line, SB_SLIDE_AUTO, SB_SLIDE_GRID, &rc, &err);
    CHECK_STR(G, "grid Rush Hour GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo\n"
                 "GBB.L.\nGHI.LM\nGHIAAM\nCCCK.M\n..JKDD\nEEJFF.\n"
                 "goal:\n??????\n??????\n????AA\n??????\n??????\n??????\n"
                 "same: BDEF\nsame: HIJKL\nsame: GM\nh: ABCDEF\nv: GHIJKLM\n");
    char *S = conv(line, SB_SLIDE_RUSH, SB_SLIDE_SLIDING, &rc, &err);
    CHECK_INT(rc, 0);
    if (S) {
        CHECK_INT(length(S, 1), 51);
        round_trip("rush", S, 1);
    }
    free(G);
    free(S);
}

/* A bad picture: the code, line and column of the error. */
static void bad(const char *text, int code, int line, int col, const char *msg)
{
    sb_error err;
    int rc;
    char *out = conv(text, SB_SLIDE_AUTO, SB_SLIDE_SLIDING, &rc, &err);
    CHECK(out == NULL);
    if (rc != code || err.line != line || err.col != col || !strstr(err.msg, msg))
        T_FAIL_AT("%s: got %d at %d:%d \"%s\", want %d at %d:%d \"%s\"", text, rc, err.line, err.col, err.msg,
                  code, line, col, msg);
    else
        t_passed++;
    free(out);
}

static void test_errors(void)
{
    bad("grid\nAB\nA!\ngoal:\n??\n", SB_EBADCHAR, 3, 2, "illegal character '!'");
    bad("grid\nAB\nA\ngoal:\n??\n", SB_EINPUT, 3, 2, "this row has 1 cells, the picture's first row 2");
    bad("grid\nAB?\ngoal:\n???\n", SB_EBADCHAR, 2, 3, "illegal character '?'");
    bad("grid\nAB\n", SB_EMISSING, 3, 1, "no goal");
    bad("grid\ngoal:\n??\n", SB_EMISSING, 2, 1, "the start picture is missing");
    bad("grid\nAB\ngoal:\n???\n", SB_EMISMATCH, 4, 1, "the goal is 1 x 3, the start 1 x 2");
    bad("grid\nAB\ngoal:\n?C\n", SB_EMISMATCH, 4, 2, "C is not a block of the start");
    bad("grid\nAAB\ngoal:\nA??\n", SB_EMISMATCH, 4, 1, "A has another shape here");
    bad("grid\nAAB\ngoal:\n???\nsame: AB\n", SB_EMISMATCH, 5, 8, "A and B are not the same shape");
    bad("grid\nAB\ngoal:\n??\nsame: AB\nsame: B\n", SB_EINPUT, 6, 7, "B is in a same: line already");
    bad("grid\nAB\ngoal:\n??\nh: A\nv: A\n", SB_EINPUT, 6, 4, "A is in both h: and v:");
    bad("grid\nAB\ngoal:\n??\nsame: AB\nh: A\n", SB_EMISMATCH, 5, 7, "only one slides on one axis");
    bad("grid\nAB\ngoal:\n??\nfrob: A\n", SB_EINPUT, 5, 1, "unknown keyword 'frob'");
    bad("grid\nAB\ngoal:\n??\nsame: A\nAB\n", SB_EINPUT, 6, 1, "a picture row after the legend");
    bad("grid\nA#\ngoal:\n?.\n", SB_EMISMATCH, 4, 2, "the start has a wall here");
    bad("grid\nA.\ngoal:\n?#\n", SB_EMISMATCH, 4, 2, "a wall in the goal");
    bad("grid\nAB\ngoal:\nA.\n", SB_EMISMATCH, 3, 1, "a goal without ? shows every block, and B is missing");
    bad("grid\n..\ngoal:\n??\n", SB_ENOPIECES, 2, 1, "no blocks");
    bad("grid\nABCDEFGHIJKLMNOP\ngoal:\n????????????????\n", SB_EPIECENAME, 2, 16, "more than 15 kinds");
    sb_error err;
    int rc;
    char *out = conv("5 x 4\n", SB_SLIDE_AUTO, SB_SLIDE_GRID, &rc, &err); /* SLIDING's own errors */
    CHECK(!out && rc == SB_EMISSING && err.line == 2);
    out = conv("grid\nAB\ngoal:\n??\n", SB_SLIDE_RUSH, SB_SLIDE_GRID, &rc, &err);
    CHECK(!out && rc == SB_EBADSIZE && err.line == 1);
    out = conv("xx", SB_SLIDE_AUTO, 7, &rc, &err);
    CHECK(!out && rc == SB_EUSAGE);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = malloc(1 << 16);
    size_t n = f && buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    if (f)
        fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

static void test_bundled(void)
{
    static const char *const names[] = {"puzzles/silly.txt", "puzzles/shift.txt", "puzzles/klotski.txt",
                                        "puzzles/eight-judge.txt", "puzzles/eight-sample.txt"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *t = read_file(names[i]);
        CHECK(t && t[0]);
        if (t && t[0])
            round_trip(names[i], t, t_sanitized() ? 0 : 2);
        free(t);
    }
}

static void test_random(void)
{
    long n = t_sanitized() ? 200 : 1500, drawn = 0, locked = 0, partial = 0;
    static char text[SG_MAXTEXT];
    for (long i = 0; i < n; i++) {
        sg_src r = {(uint64_t)(1000 + i), NULL, 0, 0};
        sg_info in;
        if (sg_puzzle(&r, text, &in))
            continue;
        char what[64];
        snprintf(what, sizeof what, "random seed %ld", 1000 + i);
        /* solved both ways only when small: the oracle's census of the
         * start in style 0 stops past 2000 configurations */
        static so_puzzle P;
        int names[SO_MAXN], ids[SO_MAXN], small = 0;
        char b[SO_MAXN];
        if (!so_parse(&P, text) && !so_fill(&P, P.start, names, ids)) {
            so_census z;
            so_board(&P, names, b);
            small = so_run_census(&z, &P, 0, b, NULL, 2000, 4096) == NULL;
            so_census_free(&z);
        }
        round_trip(what, text, small ? 1 : -1);
        drawn++;
        locked += in.locked > 0;
        partial += in.partial;
    }
    printf("convert: %ld random puzzles round trip (%ld with locks, %ld with partial goals)\n", drawn, locked,
           partial);
    CHECK(locked > 0 && partial > 0);
}

int main(void)
{
    RUN(test_klotski);
    RUN(test_rush);
    RUN(test_errors);
    RUN(test_bundled);
    RUN(test_random);
    return TEST_END();
}
