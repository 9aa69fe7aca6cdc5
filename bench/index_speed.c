/* Speed of the ranking schemes and of table building, for bench_index.sh.
 *
 *   index_speed rank                 rank and unrank per second, each scheme
 *   index_speed table RxC THREADS    build the n-puzzle table once; prints
 *                                    seconds, positions per second, budget peak
 *
 * Every figure of `rank` is the median of five timed runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbfs/sbfs.h"
#include "../tests/rank_ref.h"

#define SAMPLES 4096
#define ROUNDS 200

typedef struct scheme {
    const char *name;
    int n, k;            /* size and second parameter (v, m or k) */
    uint64_t count;
} scheme;

static uint64_t sink;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One run: rank then unrank SAMPLES arrangements ROUNDS times; returns the
 * two rates in operations per second. */
static void run(const scheme *s, int which, uint8_t (*arr)[32], const uint64_t *ranks,
                double *rank_rate, double *unrank_rate)
{
    static const int kinds4[4] = {4, 4, 4, 4};
    uint8_t out[32];
    double t0 = sb_now(), t1, t2;
    uint64_t acc = 0;
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < SAMPLES; i++) {
            const uint8_t *a = arr[i];
            switch (which) {
            case 0: acc += sb_rank_perm(a, s->n); break;
            case 1: acc += rank_perm_ref(a, s->n); break;
            case 2: acc += sb_rank_perm_even(a, s->n); break;
            case 3: acc += sb_rank_orient(a, s->n, s->k); break;
            case 4: acc += sb_rank_orient_sum0(a, s->n, s->k); break;
            case 5: acc += sb_rank_comb(a, s->n, s->k); break;
            case 6: acc += sb_rank_partial(a, s->n, s->k); break;
            default: acc += sb_rank_multiset(a, s->n, kinds4, 4); break;
            }
        }
    t1 = sb_now();
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < SAMPLES; i++) {
            uint64_t x = ranks[i];
            switch (which) {
            case 0: sb_unrank_perm(x, out, s->n); break;
            case 1: unrank_perm_ref(x, out, s->n); break;
            case 2: sb_unrank_perm_even(x, out, s->n); break;
            case 3: sb_unrank_orient(x, out, s->n, s->k); break;
            case 4: sb_unrank_orient_sum0(x, out, s->n, s->k); break;
            case 5: sb_unrank_comb(x, out, s->n, s->k); break;
            case 6: sb_unrank_partial(x, out, s->n, s->k); break;
            default: sb_unrank_multiset(x, out, s->n, kinds4, 4); break;
            }
            acc += out[0];
        }
    t2 = sb_now();
    sink += acc;
    *rank_rate = (double)SAMPLES * ROUNDS / (t1 - t0);
    *unrank_rate = (double)SAMPLES * ROUNDS / (t2 - t1);
}

static int bench_rank(void)
{
    static const int kinds4[4] = {4, 4, 4, 4};
    scheme s[8] = {
        {"perm n=12", 12, 0, 0},          {"perm_ref n=12 (quadratic)", 12, 0, 0},
        {"perm_even n=12", 12, 0, 0},     {"orient n=8 v=3", 8, 3, 0},
        {"orient_sum0 n=8 v=3", 8, 3, 0}, {"comb n=24 m=8", 24, 8, 0},
        {"partial n=16 k=8", 16, 8, 0},   {"multiset n=16 4x4", 16, 4, 0},
    };
    static uint8_t arr[SAMPLES][32];
    static uint64_t ranks[SAMPLES];
    sb_rng rng;
    sb_rng_seed(&rng, 42);
    s[0].count = s[1].count = sb_factorial(12);
    s[2].count = sb_factorial(12) / 2;
    s[3].count = 6561;
    s[4].count = 2187;
    s[5].count = sb_binom(24, 8);
    s[6].count = sb_falling(16, 8);
    s[7].count = sb_count_multiset(kinds4, 4);
    printf("%-28s %14s %14s\n", "scheme", "rank/s", "unrank/s");
    for (int w = 0; w < 8; w++) {
        double rr[5], ur[5];
        for (int i = 0; i < SAMPLES; i++) {
            ranks[i] = sb_rng_below(&rng, s[w].count);
            switch (w) {
            case 0: case 1: sb_unrank_perm(ranks[i], arr[i], 12); break;
            case 2: sb_unrank_perm_even(ranks[i], arr[i], 12); break;
            case 3: sb_unrank_orient(ranks[i], arr[i], 8, 3); break;
            case 4: sb_unrank_orient_sum0(ranks[i], arr[i], 8, 3); break;
            case 5: sb_unrank_comb(ranks[i], arr[i], 24, 8); break;
            case 6: sb_unrank_partial(ranks[i], arr[i], 16, 8); break;
            default: sb_unrank_multiset(ranks[i], arr[i], 16, kinds4, 4); break;
            }
        }
        for (int r = 0; r < 5; r++)
            run(&s[w], w, arr, ranks, &rr[r], &ur[r]);
        qsort(rr, 5, sizeof *rr, cmp_double);
        qsort(ur, 5, sizeof *ur, cmp_double);
        printf("%-28s %12.1fM %12.1fM\n", s[w].name, rr[2] / 1e6, ur[2] / 1e6);
    }
    return sink == 42; /* keeps the work from being optimised away */
}

static int bench_table(const char *board, int threads)
{
    sb_np_table t;
    sb_mem mem;
    sb_error err;
    sb_table_opts o = {2, threads, SB_SCAN_AUTO, -1};
    int rows, cols;
    double t0, dt;
    if (sscanf(board, "%dx%d", &rows, &cols) != 2 || sb_np_table_init(&t, rows, cols, &err)) {
        fprintf(stderr, "index_speed: bad board '%s'\n", board);
        return 2;
    }
    sb_mem_init(&mem, 0);
    t0 = sb_now();
    if (sb_np_table_build(&t, &o, &mem, NULL, &err)) {
        fprintf(stderr, "index_speed: %s\n", err.msg);
        return 1;
    }
    dt = sb_now() - t0;
    printf("%s threads %d: %.3f s, %.1fM positions/s, largest distance %d, table %zu bytes, "
           "peak budget %zu bytes\n",
           board, threads, dt, (double)sb_table_about(t.table).reached / dt / 1e6, (sb_table_about(t.table).levels - 1),
           sb_table_about(t.table).data_bytes, mem.peak);
    sb_np_table_free(&t);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "rank"))
        return bench_rank();
    if (argc >= 4 && !strcmp(argv[1], "table"))
        return bench_table(argv[2], atoi(argv[3]));
    fprintf(stderr, "usage: index_speed rank | table RxC THREADS\n");
    return 2;
}
