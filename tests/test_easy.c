/* The easy API (sbfs/easy.h): exact answers for each family, the data of
 * each move against its text, and every kind of failure reported with the
 * line and column of the text and nothing left to free. */
#include "sbfs/easy.h"

#include "harness.h"

static const char SILLY[] = "5 x 5 (a silly example)\n1 = 111/01\n2 = 101/111\n3 = 1\n"
                            "1xx200000000033\n000xx00033001002\n";

static void slide_styles(void)
{
    /* the silly example, style by style: sbfs solve's lengths */
    static const int want[6] = {20, 10, 4, 10, 4, 2};
    for (int style = 0; style < 6; style++) {
        sb_easy_slide sol;
        sb_error err;
        CHECK_INT(sb_easy_slide_solve(SILLY, sizeof SILLY - 1, style, &sol, &err), 0);
        CHECK_INT(sol.length, want[style]);
        for (int k = 0; k < sol.length; k++) {
            /* the data says what the text says: each block's "N@rRcC"
             * opens the text (blocks first), and the steps add up */
            const sb_easy_move *m = &sol.moves[k];
            char head[16];
            snprintf(head, sizeof head, "%c@r%dc%d", m->block[0].name, m->block[0].row, m->block[0].col);
            CHECK(strncmp(m->text, head, strlen(head)) == 0);
            int dr = 0, dc = 0;
            for (const char *s = m->steps; *s; s++)
                dr += (*s == 'd') - (*s == 'u'), dc += (*s == 'r') - (*s == 'l');
            CHECK(dr == m->drow && dc == m->dcol);
            CHECK(m->nblocks == 1 || style >= 3);
        }
        CHECK_STR(sol.boards[0], "111xx\n21200\n22200\n00000\n33000\n");
        CHECK_STR(sol.boards[sol.length], "000xx\n00033\n00111\n00212\n00222\n");
        sb_easy_slide_free(&sol);
        CHECK(sol.moves == NULL && sol.boards == NULL);
    }
}

static void slide_text(void)
{
    sb_easy_slide sol;
    sb_error err;
    CHECK_INT(sb_easy_slide_solve(SILLY, sizeof SILLY - 1, 0, &sol, &err), 0);
    CHECK_STR(sol.moves[0].text, "2@r2c1 down");
    CHECK_STR(sol.moves[0].steps, "d");
    CHECK_INT(sol.moves[0].drow, 1);
    CHECK_INT(sol.moves[0].block[0].row, 2);
    sb_easy_slide_free(&sol);
    /* a Rush Hour line: the hardest position without walls */
    static const char rush[] = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo\n";
    CHECK_INT(sb_easy_slide_solve(rush, sizeof rush - 1, 1, &sol, &err), 0);
    CHECK_INT(sol.length, 51);
    sb_easy_slide_free(&sol);
    /* already at the stop: no moves, one board */
    static const char done[] = "1 x 2\n1 = 1\n10\n10\n";
    CHECK_INT(sb_easy_slide_solve(done, sizeof done - 1, 0, &sol, &err), 0);
    CHECK_INT(sol.length, 0);
    CHECK(sol.moves == NULL);
    CHECK_STR(sol.boards[0], "10\n");
    sb_easy_slide_free(&sol);
    /* no way to the stop: the start alone */
    static const char stuck[] = "1 x 3\n1 = 1\n2 = 1\n120\n210\n";
    CHECK_INT(sb_easy_slide_solve(stuck, sizeof stuck - 1, 0, &sol, &err), 0);
    CHECK_INT(sol.length, -1);
    CHECK_U64(sol.configurations, 4); /* 3 from the start, 1 from the stop */
    CHECK_STR(sol.boards[0], "120\n");
    sb_easy_slide_free(&sol);
}

static void slide_errors(void)
{
    sb_easy_slide sol;
    sb_error err;
    static const char bad[] = "3 x 3\n1 = 11\n1z0\n000\n";
    CHECK_INT(sb_easy_slide_solve(bad, sizeof bad - 1, 0, &sol, &err), SB_EBADCHAR);
    CHECK_INT(err.line, 3);
    CHECK_INT(err.col, 2);
    CHECK(sol.moves == NULL && sol.boards == NULL && sol.own_ == NULL);
    static const char grid[] = "grid\nAA.\n..%\n";
    CHECK(sb_easy_slide_solve(grid, sizeof grid - 1, 0, &sol, &err) < 0);
    CHECK_INT(err.line, 3);
    CHECK(sol.own_ == NULL);
    CHECK_INT(sb_easy_slide_solve(SILLY, sizeof SILLY - 1, -1, &sol, &err), SB_EUSAGE);
    CHECK_INT(sb_easy_slide_solve(NULL, 0, 0, &sol, &err), SB_EUSAGE);
    CHECK_INT(sb_easy_slide_solve(SILLY, sizeof SILLY - 1, 0, NULL, NULL), SB_EUSAGE);
    sb_easy_slide_free(NULL);
}

static void tiles(void)
{
    sb_np_result res;
    sb_error err;
    CHECK_INT(sb_easy_npuzzle_solve("2 3 4 1 5 x 7 6 8", SB_NP_BLANK_LAST, NULL, &res, &err), 0);
    CHECK_INT(res.length, 19);
    CHECK_STR(res.moves, "ldruullddrurdllurrd");
    CHECK_INT(sb_easy_npuzzle_solve("1 2 3 4 5 6 8 7 0", SB_NP_BLANK_LAST, NULL, &res, NULL), 0);
    CHECK_INT(res.length, -1);
    CHECK_INT(sb_easy_npuzzle_solve("0 1 2 3", SB_NP_BLANK_FIRST, NULL, &res, &err), 0);
    CHECK_INT(res.length, 0);
    CHECK(sb_easy_npuzzle_solve("1 2 3 4 5 6 7 8 9", SB_NP_BLANK_LAST, NULL, &res, &err) < 0);
    CHECK_INT(err.line, 1);
    CHECK_INT(sb_easy_npuzzle_solve("1 2 3 0", 7, NULL, &res, NULL), SB_EUSAGE);
    CHECK_INT(sb_easy_npuzzle_solve(NULL, SB_NP_BLANK_LAST, NULL, &res, &err), SB_EUSAGE);
}

static void tetraminx(void)
{
    sb_easy_tetraminx t;
    sb_error err;
    CHECK_INT(sb_easy_tetraminx_solve("RRFDFLDFDRRLDRFFLDLLLDRFDRLF", &t, &err), 0);
    CHECK_INT(t.length, 11);
    CHECK_STR(t.text, "U L U B' R' L' B' R' B R' B'");
    CHECK_INT(sb_easy_tetraminx_solve("", &t, &err), 0);
    CHECK_INT(t.length, 0);
    CHECK_STR(t.text, "");
    CHECK_INT(sb_easy_tetraminx_solve("R U Q", &t, &err), SB_EINPUT);
    CHECK_INT(err.col, 5);
    CHECK_INT(sb_easy_tetraminx_solve(NULL, &t, &err), SB_EUSAGE);
}

static void playfair(void)
{
    static const char *const words[] = {"THE", "SCHEME", "REALLY", "WORKS", "CRYPTOGRAM", "DOG"};
    char *key, *plain;
    int amb = -1;
    sb_error err;
    CHECK_INT(sb_easy_playfair_crack("HW UY RF UL UQ YL QL AE FK DG EO", words, 6, &key, &plain, &amb, &err), 0);
    CHECK_STR(key, "CRYPTOGRAM");
    CHECK_STR(plain, "THE SCHEME REALLY WORKS");
    CHECK_INT(amb, 0);
    free(key);
    free(plain);
    CHECK_INT(sb_easy_playfair_crack("QZ VQ WK", words, 6, &key, &plain, NULL, &err), SB_ENOTFOUND);
    CHECK(key == NULL && plain == NULL);
    static const char *const bad[] = {"THE", "DON'T"};
    CHECK_INT(sb_easy_playfair_crack("HW UY", bad, 2, &key, &plain, NULL, &err), SB_EINPUT);
    CHECK_INT(err.line, 2);
    CHECK_INT(sb_easy_playfair_crack("HW UY", bad, 2, NULL, &plain, NULL, NULL), SB_EUSAGE);
}

int main(void)
{
    RUN(slide_styles);
    RUN(slide_text);
    RUN(slide_errors);
    RUN(tiles);
    RUN(tetraminx);
    RUN(playfair);
    return TEST_END();
}
