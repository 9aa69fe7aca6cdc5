/* Unit tests of the core utilities: errors, memory budget, random numbers,
 * and the library-internal ones: the little-endian codec, the mix and the
 * checksum, the worker pool, the table-file container. */
#define _GNU_SOURCE /* pthread_setattr_default_np, to make threads fail */
#include "harness.h"
#include "sbfs/core.h"

#include <pthread.h>
#include <unistd.h>

#include "../src/core/hash.h"
#include "../src/core/le.h"
#include "../src/core/pool.h"
#include "../src/core/tablefile.h"
#include "../src/core/internal.h"

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
    /* the stream is part of the interface (--seed): pinned */
    sb_rng_seed(&a, 42);
    CHECK_U64(sb_rng_next(&a), UINT64_C(0x15780b2e0c2ec716));
    CHECK_U64(sb_rng_next(&a), UINT64_C(0x6104d9866d113a7e));
}

static void test_le(void)
{
    unsigned char b[8];
    static const unsigned char want[8] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01};
    sb_le_put16(b, 0x0201);
    CHECK(b[0] == 1 && b[1] == 2);
    CHECK_U64(sb_le_get16(b), 0x0201);
    sb_le_put32(b, UINT32_C(0x04030201));
    CHECK(b[0] == 1 && b[1] == 2 && b[2] == 3 && b[3] == 4);
    CHECK_U64(sb_le_get32(b), UINT32_C(0x04030201));
    sb_le_put64(b, UINT64_C(0x0102030405060708));
    CHECK(memcmp(b, want, 8) == 0);
    CHECK_U64(sb_le_get64(want), UINT64_C(0x0102030405060708));
    /* round trips at the edges of each width */
    sb_le_put16(b, 0xffff);
    CHECK_U64(sb_le_get16(b), 0xffff);
    sb_le_put32(b, UINT32_C(0x80000001));
    CHECK_U64(sb_le_get32(b), UINT32_C(0x80000001));
    sb_le_put64(b, UINT64_MAX);
    CHECK_U64(sb_le_get64(b), UINT64_MAX);
    sb_le_put64(b, UINT64_C(0x8000000000000001));
    CHECK_U64(sb_le_get64(b), UINT64_C(0x8000000000000001));
}

/* Expected values computed apart from this code, from the definitions in
 * hash.h. */
static void test_hash(void)
{
    unsigned char b[100];
    sb_sum s;
    CHECK_U64(sb_mix64(0), 0);
    /* SplitMix64's first output from state 0, as published */
    CHECK_U64(sb_mix64(UINT64_C(0x9e3779b97f4a7c15)), UINT64_C(0xe220a8397b1dcdaf));
    CHECK_U64(sb_mix64(1), UINT64_C(0x5692161d100b05e5));
    for (int i = 0; i < 100; i++)
        b[i] = (unsigned char)i;
    CHECK_U64(sb_checksum(NULL, 0), UINT64_C(0x22a61ba7f80f5303));
    CHECK_U64(sb_checksum("abc", 3), UINT64_C(0xda3e35753ddfcee8));
    CHECK_U64(sb_checksum(b, 100), UINT64_C(0x441289aa94fb9b0a));
    /* zero padding does not hide a trailing zero: the count is summed */
    memset(b, 0, 32);
    CHECK_U64(sb_checksum(b, 32), UINT64_C(0x555f18e3a9ba8343));
    CHECK_U64(sb_checksum(b, 31), UINT64_C(0xf86b23651a141cfa));
    /* piece by piece, cut anywhere: the same */
    for (int i = 0; i < 100; i++)
        b[i] = (unsigned char)i;
    for (size_t cut1 = 0; cut1 <= 100; cut1 += 7)
        for (size_t cut2 = cut1; cut2 <= 100; cut2 += 13) {
            sb_sum_init(&s);
            sb_sum_add(&s, b, cut1);
            sb_sum_add(&s, b + cut1, cut2 - cut1);
            sb_sum_add(&s, NULL, 0);
            sb_sum_add(&s, b + cut2, 100 - cut2);
            CHECK_U64(sb_sum_end(&s), UINT64_C(0x441289aa94fb9b0a));
        }
}

/* ---- the worker pool ---- */
typedef struct job {
    pthread_t caller;
    int ran;          /* times fn ran on this item */
    int on_caller;    /* 1 when it ran on the caller's thread */
    int order;        /* when it ran, among the items run on the caller */
    int *next_order;
} job;

static void *note(void *arg)
{
    job *j = arg;
    j->ran++;
    j->on_caller = pthread_equal(pthread_self(), j->caller) != 0;
    if (j->on_caller)
        j->order = (*j->next_order)++;
    return NULL;
}

/* Run n items (of `have`) through the pool; returns what it returned. */
static int pool(job *jobs, int have, int n, int *next_order)
{
    *next_order = 0;
    for (int i = 0; i < have; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].caller = pthread_self();
        jobs[i].order = -1;
        jobs[i].next_order = next_order;
    }
    return sb_pool_run(n, note, jobs, sizeof *jobs);
}

static void test_pool(void)
{
    job jobs[100];
    int next, all_once = 1, none_here = 1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK_INT(sb_pool_threads(1), 1);
    CHECK_INT(sb_pool_threads(3), 3);
    CHECK_INT(sb_pool_threads(64), 64);
    CHECK_INT(sb_pool_threads(1000), SB_POOL_MAX);
    CHECK_INT(sb_pool_threads(0), cpus < 1 ? 1 : cpus > 64 ? 64 : cpus);
    CHECK_INT(sb_pool_threads(-5), sb_pool_threads(0));
    /* one: the caller's thread alone */
    CHECK_INT(pool(jobs, 100, 1, &next), 0);
    CHECK_INT(jobs[0].ran, 1);
    CHECK_INT(jobs[0].on_caller, 1);
    CHECK_INT(jobs[1].ran, 0);
    /* below one counts as one */
    CHECK_INT(pool(jobs, 100, 0, &next), 0);
    CHECK_INT(jobs[0].ran + jobs[1].ran, 1);
    /* two: item 0 here, item 1 on a thread of its own */
    CHECK_INT(pool(jobs, 100, 2, &next), 1);
    CHECK_INT(jobs[0].ran, 1);
    CHECK_INT(jobs[0].on_caller, 1);
    CHECK_INT(jobs[1].ran, 1);
    CHECK_INT(jobs[1].on_caller, 0);
    CHECK_INT(jobs[2].ran, 0);
    /* many, past the most: SB_POOL_MAX of them run, each once */
    CHECK_INT(pool(jobs, 100, 100, &next), SB_POOL_MAX - 1);
    for (int i = 0; i < 100; i++) {
        all_once &= jobs[i].ran == (i < SB_POOL_MAX);
        none_here &= jobs[i].on_caller == (i == 0);
    }
    CHECK(all_once);
    CHECK(none_here);
    {
        /* threads that cannot be created (a stack larger than any address
         * space): every item runs once, on the caller's thread, item 0
         * first, the others in order */
        pthread_attr_t old, huge;
        int in_order = 1;
        if (pthread_getattr_default_np(&old) != 0 || pthread_attr_init(&huge) != 0) {
            T_FAIL_AT("thread attributes");
            return;
        }
        pthread_attr_setstacksize(&huge, (size_t)1 << 46);
        CHECK_INT(pthread_setattr_default_np(&huge), 0);
        CHECK_INT(pool(jobs, 100, 5, &next), 0);
        CHECK_INT(pthread_setattr_default_np(&old), 0);
        pthread_attr_destroy(&huge);
        pthread_attr_destroy(&old);
        for (int i = 0; i < 5; i++)
            in_order &= jobs[i].ran == 1 && jobs[i].on_caller && jobs[i].order == i;
        CHECK(in_order);
        CHECK_INT(jobs[5].ran, 0);
        /* and threads start again once they can */
        CHECK_INT(pool(jobs, 100, 3, &next), 2);
    }
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

/* ---- the table-file container ---- */
static const sb_tf_kind demo = {"demo", 5, "a demo table"};
static char tf_path[64], tf_bad[64];

static long slurp(const char *path, unsigned char *b, long cap)
{
    FILE *f = fopen(path, "rb");
    long n = f ? (long)fread(b, 1, (size_t)cap, f) : -1;
    if (f)
        fclose(f);
    return n;
}

static void spew(const char *path, const unsigned char *b, long n)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(b, 1, (size_t)n, f);
        fclose(f);
    }
}

/* Load path as a demo table with words of 8 bytes; the code, and the
 * message in e. */
static int tf_load(const char *path, const sb_tf_kind *k, uint64_t *words, sb_error *e)
{
    unsigned char params[16];
    size_t np;
    sb_tf_reader r;
    int rc = sb_tf_open(&r, path, k, params, sizeof params, &np, e);
    if (rc)
        return rc;
    if (r.bytes != 24) {
        return sb_tf_refuse(&r, e, "%llu bytes of data", (unsigned long long)r.bytes);
    }
    return sb_tf_read(&r, words, 8, e);
}

/* The message a refusal of tf_bad must give. */
static int refused(int rc, const sb_error *e, const char *why)
{
    char want[300];
    snprintf(want, sizeof want, "%s: %s", tf_bad, why);
    if (rc == SB_EBADFILE && e->code == SB_EBADFILE && strcmp(e->msg, want) == 0)
        return 1;
    fprintf(stderr, "  got %d '%s', want '%s'\n", rc, e->msg, want);
    return 0;
}

static void test_tablefile(void)
{
    const uint64_t words[3] = {1, UINT64_C(0x0102030405060708), UINT64_MAX};
    const sb_tf_kind other = {"other", 5, "another table"}, old = {"demo", 4, "a demo table"};
    const sb_tf_kind dist = {"distance", 2, "an sbfs distance table"}, pdb = {"pdb", 3, "a pattern database"};
    unsigned char file[200], bad[600], params[16];
    uint64_t got[3];
    long len;
    size_t np;
    sb_tf_reader r;
    sb_error e;
    int ok;
    snprintf(tf_path, sizeof tf_path, "/tmp/sbfs_test_tf_%d", (int)getpid());
    snprintf(tf_bad, sizeof tf_bad, "/tmp/sbfs_test_tf_%d.bad", (int)getpid());

    /* round trip, and the bytes on disk */
    CHECK_INT(sb_tf_save(tf_path, &demo, (const unsigned char *)"hello", 5, words, 24, 8, &e), 0);
    len = slurp(tf_path, file, sizeof file);
    CHECK_INT(len, 32 + 5 + 8 + 24 + 8);
    CHECK(memcmp(file, "sbfsTAB\ndemo\0\0\0\0\x05\0\0\0\x2d\0\0\0\x18\0\0\0\0\0\0\0hello", 37) == 0);
    CHECK_U64(sb_le_get64(file + 37), sb_checksum(file, 37));
    CHECK(memcmp(file + 45, "\x01\0\0\0\0\0\0\0\x08\x07\x06\x05\x04\x03\x02\x01", 16) == 0);
    CHECK_U64(sb_le_get64(file + 69), sb_checksum(file + 45, 24));
    CHECK_INT(sb_tf_open(&r, tf_path, &demo, params, sizeof params, &np, &e), 0);
    CHECK_INT(np, 5);
    CHECK(memcmp(params, "hello", 5) == 0);
    CHECK_U64(r.bytes, 24);
    CHECK_INT(sb_tf_read(&r, got, 8, &e), 0);
    CHECK(memcmp(got, words, sizeof words) == 0);
    CHECK_U64(r.sum, sb_checksum(file + 45, 24));
    CHECK(r.f == NULL);
    /* bytes, no parameters */
    CHECK_INT(sb_tf_save(tf_path, &demo, NULL, 0, "abcdefg", 7, 1, &e), 0);
    CHECK_INT(sb_tf_open(&r, tf_path, &demo, params, sizeof params, &np, &e), 0);
    CHECK_INT(np, 0);
    CHECK_U64(r.bytes, 7);
    memset(params, 0, sizeof params);
    CHECK_INT(sb_tf_read(&r, params, 1, &e), 0);
    CHECK_STR((char *)params, "abcdefg");
    /* the caller refuses what it does not like, by path */
    CHECK_INT(sb_tf_open(&r, tf_path, &demo, params, sizeof params, &np, &e), 0);
    CHECK_INT(sb_tf_refuse(&r, &e, "%d apples", 3), SB_EBADFILE);
    CHECK(r.f == NULL);
    snprintf((char *)bad, sizeof bad, "%s: 3 apples", tf_path);
    CHECK_STR(e.msg, (char *)bad);

    /* cut anywhere: too short for a header, data cut, checksum cut */
    ok = 1;
    for (long n = 0; n < len; n++) {
        spew(tf_bad, file, n);
        ok &= refused(tf_load(tf_bad, &demo, got, &e), &e,
                      n < 45 ? "too short for a demo table"
                      : n < 69 ? "truncated (the data is cut short)"
                               : "truncated (the checksum is missing)");
    }
    CHECK(ok);
    /* one byte too many */
    memcpy(bad, file, (size_t)len);
    bad[len] = 0;
    spew(tf_bad, bad, len + 1);
    CHECK(refused(tf_load(tf_bad, &demo, got, &e), &e, "longer than its header says"));
    /* every byte flipped, one at a time */
    ok = 1;
    for (long i = 0; i < len; i++) {
        int rc;
        memcpy(bad, file, (size_t)len);
        bad[i] ^= 0x10;
        spew(tf_bad, bad, len);
        rc = tf_load(tf_bad, &demo, got, &e);
        if (i < 8)
            ok &= refused(rc, &e, "not a demo table");
        else if (i >= 24 && i < 45)
            ok &= refused(rc, &e, "damaged header (checksum mismatch)");
        else if (i >= 45)
            ok &= refused(rc, &e, "checksum mismatch, the file is damaged");
        else
            ok &= rc == SB_EBADFILE && strncmp(e.msg, tf_bad, strlen(tf_bad)) == 0;
    }
    CHECK(ok);
    /* the fields one by one: kind, version, header length */
    memcpy(bad, file, (size_t)len);
    bad[9] = 'E';
    spew(tf_bad, bad, len);
    CHECK(refused(tf_load(tf_bad, &demo, got, &e), &e, "not a demo table (a table file of kind 'dEmo')"));
    bad[9] = 0x01;
    spew(tf_bad, bad, len);
    CHECK(refused(tf_load(tf_bad, &demo, got, &e), &e, "not a demo table (a table file of kind 'd\\x01mo')"));
    memcpy(bad, file, (size_t)len);
    bad[16] = 6;
    spew(tf_bad, bad, len);
    CHECK(refused(tf_load(tf_bad, &demo, got, &e), &e,
                  "a demo table in format version 6; this sbfs reads only version 5"));
    memcpy(bad, file, (size_t)len);
    bad[20] = 39;
    spew(tf_bad, bad, len);
    CHECK(refused(tf_load(tf_bad, &demo, got, &e), &e, "damaged header (a header of 39 bytes)"));
    bad[20] = 45 + 16 + 1; /* more parameters than the reader has room for */
    spew(tf_bad, bad, len);
    CHECK(refused(tf_load(tf_bad, &demo, got, &e), &e, "damaged header (a header of 62 bytes)"));
    bad[20] = 46;
    spew(tf_bad, bad, len);
    CHECK(refused(tf_load(tf_bad, &demo, got, &e), &e, "damaged header (checksum mismatch)"));
    /* written as another kind or version */
    CHECK_INT(sb_tf_save(tf_bad, &other, (const unsigned char *)"hello", 5, words, 24, 8, &e), 0);
    CHECK(refused(tf_load(tf_bad, &demo, got, &e), &e, "not a demo table (a table file of kind 'other')"));
    CHECK_INT(sb_tf_save(tf_bad, &old, (const unsigned char *)"hello", 5, words, 24, 8, &e), 0);
    CHECK(refused(tf_load(tf_bad, &demo, got, &e), &e,
                  "a demo table in format version 4; this sbfs reads only version 5"));
    /* the formats before the container, named by their version */
    memcpy(bad, "SBFSTBL1", 8);
    memset(bad + 8, 0, sizeof bad - 8);
    spew(tf_bad, bad, 200);
    CHECK(refused(tf_load(tf_bad, &dist, got, &e), &e,
                  "an sbfs distance table in format version 1; this sbfs reads only version 2"));
    CHECK(refused(tf_load(tf_bad, &demo, got, &e), &e, "not a demo table"));
    memcpy(bad, "sbfsPDB\n\x02\0\0\0", 12);
    spew(tf_bad, bad, 64 + 504);
    CHECK(refused(tf_load(tf_bad, &pdb, got, &e), &e,
                  "a pattern database in format version 2; this sbfs reads only version 3"));
    spew(tf_bad, bad, 10);
    CHECK(refused(tf_load(tf_bad, &pdb, got, &e), &e, "too short for a pattern database"));
    spew(tf_bad, (const unsigned char *)"distance 0: 1\n", 14);
    CHECK(refused(tf_load(tf_bad, &dist, got, &e), &e, "not an sbfs distance table"));
    /* what cannot be read at all */
    CHECK_INT(tf_load("/tmp", &demo, got, &e), SB_EIO);
    CHECK_STR(e.msg, "/tmp: Is a directory");
    CHECK_INT(tf_load("/nonexistent/x", &demo, got, &e), SB_EIO);
    CHECK_STR(e.msg, "/nonexistent/x: No such file or directory");
    CHECK_INT(sb_tf_save("/nonexistent/x", &demo, NULL, 0, words, 24, 8, &e), SB_EIO);
    remove(tf_path);
    remove(tf_bad);
}

int main(void)
{
    RUN(test_error);
    RUN(test_quote);
    RUN(test_budget);
    RUN(test_parse_size);
    RUN(test_rng);
    RUN(test_le);
    RUN(test_hash);
    RUN(test_pool);
    RUN(test_tablefile);
    return TEST_END();
}
