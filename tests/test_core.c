/* Unit tests of the core utilities: errors, memory budget, random numbers. */
#include "harness.h"
#include "sbfs/core.h"

static void test_error(void)
{
    sb_error e;
    sb_error_clear(&e);
    CHECK_INT(sb_error_set(&e, SB_EBADCHAR, 3, 7, "bad '%c'", 'z'), SB_EBADCHAR);
    CHECK_INT(e.line, 3);
    CHECK_INT(e.col, 7);
    CHECK_STR(e.msg, "bad 'z'");
    CHECK_STR(sb_strerror(SB_ENOMEM), "memory budget exhausted");
    CHECK_INT(sb_error_set(NULL, SB_EIO, 0, 0, "x"), SB_EIO);
    /* every code has a name of its own */
    for (int c = SB_ECODE_MIN; c <= 0; c++)
        CHECK(strcmp(sb_strerror(c), "unknown error") != 0);
}

static void test_budget(void)
{
    sb_mem m;
    sb_error e;
    char *a, *b;
    sb_mem_init(&m, 1000);
    a = sb_mem_alloc(&m, 600, &e);
    CHECK(a != NULL);
    CHECK_INT(a[599], 0);
    CHECK_INT(m.used, 600);
    b = sb_mem_alloc(&m, 500, &e);
    CHECK(b == NULL);
    CHECK_INT(e.code, SB_ENOMEM);
    CHECK_INT(m.used, 600);
    a = sb_mem_realloc(&m, a, 600, 900, &e);
    CHECK(a != NULL);
    CHECK_INT(m.used, 900);
    CHECK(sb_mem_realloc(&m, a, 900, 1200, &e) == NULL);
    CHECK_INT(m.used, 900);
    a = sb_mem_realloc(&m, a, 900, 100, &e);
    CHECK_INT(m.used, 100);
    sb_mem_free(&m, a, 100);
    CHECK_INT(m.used, 0);
    CHECK_INT(m.peak, 900);
}

static void test_parse_size(void)
{
    size_t v = 0;
    sb_error e;
    CHECK_INT(sb_mem_parse_size("512M", &v, &e), 0);
    CHECK_U64(v, 512ull << 20);
    CHECK_INT(sb_mem_parse_size("4G", &v, &e), 0);
    CHECK_U64(v, 4ull << 30);
    CHECK_INT(sb_mem_parse_size("1.5GiB", &v, &e), 0);
    CHECK_U64(v, 3ull << 29);
    CHECK_INT(sb_mem_parse_size("100000", &v, &e), 0);
    CHECK_U64(v, 100000);
    CHECK_INT(sb_mem_parse_size("12Q", &v, &e), SB_EUSAGE);
    CHECK_INT(sb_mem_parse_size("", &v, &e), SB_EUSAGE);
    CHECK_INT(sb_mem_parse_size("-5M", &v, &e), SB_EUSAGE);
    /* strtod's other forms are not sizes; NaN would not even convert */
    CHECK_INT(sb_mem_parse_size("nan", &v, &e), SB_EUSAGE);
    CHECK_INT(sb_mem_parse_size("inf", &v, &e), SB_EUSAGE);
    CHECK_INT(sb_mem_parse_size("0x10", &v, &e), SB_EUSAGE);
    CHECK_INT(sb_mem_parse_size("1e9", &v, &e), SB_EUSAGE);
    CHECK_INT(sb_mem_parse_size(" 5M", &v, &e), SB_EUSAGE);
    CHECK_INT(sb_mem_parse_size("+5M", &v, &e), SB_EUSAGE);
    CHECK_STR(e.msg, "bad memory size '+5M'");
    /* zero would mean "no limit" to sb_mem_init */
    CHECK_INT(sb_mem_parse_size("0", &v, &e), SB_EUSAGE);
    CHECK_STR(e.msg, "memory size '0' is less than a byte");
    CHECK_INT(sb_mem_parse_size("0.1K", &v, &e), 0);
    CHECK_U64(v, 102);
}

static void test_rng(void)
{
    sb_rng a, b;
    int counts[6] = {0};
    sb_rng_seed(&a, 42);
    sb_rng_seed(&b, 42);
    for (int i = 0; i < 100; i++)
        CHECK_U64(sb_rng_next(&a), sb_rng_next(&b));
    for (int i = 0; i < 60000; i++)
        counts[sb_rng_below(&a, 6)]++;
    for (int i = 0; i < 6; i++)
        CHECK(counts[i] > 9500 && counts[i] < 10500);
}

static void test_quote(void)
{
    char b[16];
    CHECK_STR(sb_error_quote(b, sizeof b, "abc", 3), "abc");
    CHECK_STR(sb_error_quote(b, sizeof b, "a\0b", 3), "a\\0b");
    CHECK_STR(sb_error_quote(b, sizeof b, "\x01\xff", 2), "\\x01\\xff");
    CHECK_STR(sb_error_quote(b, sizeof b, "", 0), "");
    /* numbers whole when they fit, else cut with "..." */
    CHECK_STR(sb_error_quote(b, sizeof b, "999999999999999", 15), "999999999999999");
    CHECK_STR(sb_error_quote(b, sizeof b, "9999999999999999", 16), "999999999999...");
    CHECK_STR(sb_error_quote(b, 4, "\0\0", 2), "...");
}

int main(void)
{
    RUN(test_error);
    RUN(test_quote);
    RUN(test_budget);
    RUN(test_parse_size);
    RUN(test_rng);
    return TEST_END();
}
