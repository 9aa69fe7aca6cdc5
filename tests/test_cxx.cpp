// The public headers as a C++ program sees them: sbfs.h must compile as
// C++11 without a warning (its extern "C" guards give the functions C
// linkage, so they link against the C library), and a few calls through
// it give the answers the C tests pin.
#include "sbfs/sbfs.h"

#include "harness.h"

static void errors_and_strings()
{
    sb_error err;
    sb_error_clear(&err);
    CHECK_INT(err.code, 0);
    CHECK_INT(sb_error_set(&err, SB_EINPUT, 3, 4, "tile %d", 7), SB_EINPUT);
    CHECK_STR(err.msg, "tile 7");
    CHECK(sizeof SBFS_VERSION > 1); /* the macros reach C++ too */
}

static void slide()
{
    static const char silly[] = "5 x 5 (a silly example)\n1 = 111/01\n2 = 101/111\n3 = 1\n"
                                "1xx200000000033\n000xx00033001002\n";
    sb_easy_slide sol;
    sb_error err;
    CHECK_INT(sb_easy_slide_solve(silly, sizeof silly - 1, 5, &sol, &err), 0);
    CHECK_INT(sol.length, 2);
    sb_easy_slide_free(&sol);
    CHECK_INT(sb_easy_slide_solve(silly, sizeof silly - 1, 6, &sol, &err), SB_EUSAGE);
    CHECK(sol.moves == nullptr);
    sb_easy_slide_free(&sol);
}

static void tetraminx()
{
    sb_easy_tetraminx t;
    sb_error err;
    CHECK_INT(sb_easy_tetraminx_solve("R U R' L' U R", &t, &err), 0);
    CHECK_INT(t.length, 6);
    CHECK_STR(t.text, "R' U' L R U' R'");
}

int main()
{
    RUN(errors_and_strings);
    RUN(slide);
    RUN(tetraminx);
    return TEST_END();
}
