/* A tiny test harness: checks count as passed or failed, failures print
 * where and why, and TEST_END prints the closing "N passed, N failed" line
 * that tests/run.sh adds up.  Include it once per test program. */
#ifndef SBFS_TEST_HARNESS_H
#define SBFS_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int t_passed, t_failed;
static const char *t_current = "";

#define T_FAIL_AT(...)                                                          \
    do {                                                                        \
        t_failed++;                                                             \
        fprintf(stderr, "FAIL %s:%d [%s]: ", __FILE__, __LINE__, t_current);    \
        fprintf(stderr, __VA_ARGS__);                                           \
        fputc('\n', stderr);                                                    \
    } while (0)

#define CHECK(cond)                                                             \
    do {                                                                        \
        if (cond) t_passed++;                                                   \
        else T_FAIL_AT("%s", #cond);                                            \
    } while (0)

#define CHECK_INT(got, want)                                                    \
    do {                                                                        \
        long long g_ = (long long)(got), w_ = (long long)(want);                \
        if (g_ == w_) t_passed++;                                               \
        else T_FAIL_AT("%s = %lld, want %lld", #got, g_, w_);                   \
    } while (0)

#define CHECK_U64(got, want)                                                    \
    do {                                                                        \
        uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                   \
        if (g_ == w_) t_passed++;                                               \
        else T_FAIL_AT("%s = %" PRIu64 ", want %" PRIu64, #got, g_, w_);        \
    } while (0)

#define CHECK_STR(got, want)                                                    \
    do {                                                                        \
        const char *g_ = (got), *w_ = (want);                                   \
        if (g_ && w_ && strcmp(g_, w_) == 0) t_passed++;                        \
        else T_FAIL_AT("%s = \"%s\", want \"%s\"", #got, g_ ? g_ : "(null)",   \
                       w_ ? w_ : "(null)");                                     \
    } while (0)

/* Run one test function, naming it in any failure it reports. */
#define RUN(fn)                                                                 \
    do {                                                                        \
        t_current = #fn;                                                        \
        fn();                                                                   \
    } while (0)

/* Print the closing line and give main's return value. */
#define TEST_END()                                                              \
    (printf("%d passed, %d failed\n", t_passed, t_failed), t_failed ? 1 : 0)

/* Nonzero when the suite runs under sanitizers (tests may then use smaller
 * instances of their heaviest cases; the optimised run covers the rest). */
static inline int t_sanitized(void)
{
    const char *s = getenv("SBFS_SANITIZED");
    return s && *s && strcmp(s, "0") != 0;
}

#endif
