/* Speed of sliding-block move generation alone, for bench_slidegen.sh.
 *
 *   slide_gen [-g] PUZZLE [STYLES [PASSES]]
 *
 * Collects every configuration reachable from PUZZLE's start by a style-0
 * breadth-first search (styles 1 and 2 reach the same configurations: their
 * moves are chains of unit steps), or with -g only those up to the stop
 * configuration's distance (for spaces too large to list, the 15-puzzle),
 * then, for each style in STYLES (default
 * "012"), times sb_slide_expand over all of them PASSES times (default 5)
 * with an emit that only folds the key into a checksum.  Prints per style
 * the median CPU nanoseconds per configuration, the neighbours per
 * configuration, and an order-independent checksum of all neighbours
 * emitted (a sum of hashes), which must not change when the generator is
 * rewritten.  Where style 0 has hints (sb_slide_model_hints) it also times
 * the generator the search uses, each configuration carrying the hints
 * its neighbours one level nearer the start give it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sbfs/sbfs.h"
#include "../src/search/bfs.h" /* the hashed engine's own key set, to time the generator alone */

typedef struct sink {
    int kw;
    uint64_t n, sum;
} sink;

static void count_emit(void *ctx, const uint64_t *key)
{
    sink *s = ctx;
    s->n++;
    s->sum += sb_stateset_hash_key(key, s->kw);
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Hints as the sorted-level engine gives them: each configuration's are
 * the OR of those its neighbours one level nearer the start emit for it. */
typedef struct hint_ctx {
    const sb_bfs *b;
    uint64_t *hints, lo, hi, mask; /* the next level's index range */
} hint_ctx;

static void hint_emit(void *ctx, const uint64_t *key)
{
    hint_ctx *h = ctx;
    uint64_t id = key[0] & h->mask;
    int64_t i = sb_stateset_find(&h->b->set, &id);
    if (i >= 0 && (uint64_t)i >= h->lo && (uint64_t)i < h->hi)
        h->hints[i] |= key[0] & ~h->mask;
}

/* The style-0 generator the search uses (sb_slide_expand_hinted), timed
 * over every configuration with its hints. */
static void time_hinted(const sb_slide *sl, const sb_bfs *b, int passes)
{
    uint64_t n = b->set.n, mask = ~(uint64_t)0 >> sl->hint_bits;
    uint64_t *hints = calloc(n, sizeof *hints);
    if (!hints)
        return;
    hint_ctx h = {b, hints, 0, 0, mask};
    for (int d = 0; d + 1 < b->nlevels; d++) {
        h.lo = b->level[d + 1];
        h.hi = b->level[d + 2];
        for (uint64_t i = b->level[d]; i < b->level[d + 1]; i++) {
            uint64_t k = sb_stateset_key(&b->set, i)[0] | hints[i];
            sb_slide_expand_hinted(sl, &k, hint_emit, &h);
        }
    }
    double t[99];
    sink s = {1, 0, 0};
    for (int r = 0; r < passes; r++) {
        s.n = s.sum = 0;
        double t0 = cpu_now();
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = sb_stateset_key(&b->set, i)[0] | hints[i];
            sb_slide_expand_hinted(sl, &k, count_emit, &s);
        }
        t[r] = cpu_now() - t0;
    }
    qsort(t, (size_t)passes, sizeof *t, cmp_double);
    printf("style 0 with hints: %6.1f ns/state (median of %d; least %.1f), %.3f neighbours/state\n",
           t[passes / 2] * 1e9 / (double)n, passes, t[0] * 1e9 / (double)n, (double)s.n / (double)n);
    free(hints);
}

int main(int argc, char **argv)
{
    static sb_slide_puzzle pz;
    int to_goal = argc > 1 && strcmp(argv[1], "-g") == 0;
    argv += to_goal;
    argc -= to_goal;
    const char *styles = argc > 2 ? argv[2] : "012";
    int passes = argc > 3 ? atoi(argv[3]) : 5;
    if (argc < 2 || passes < 1 || passes > 99) {
        fprintf(stderr, "usage: slide_gen [-g] PUZZLE [STYLES [PASSES]]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    static char text[1 << 16];
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fclose(f);
    sb_error err;
    sb_mem mem;
    sb_slide sl0;
    sb_bfs b;
    sb_keymodel m;
    sb_mem_init(&mem, 0);
    if (sb_slide_parse(&pz, text, len, &err) || sb_slide_init(&sl0, &pz, 0, &mem, &err)) {
        fprintf(stderr, "slide_gen: %s\n", err.msg);
        return 1;
    }
    sl0.fast = 0; /* collect with the general generator, which the timed one is checked against */
    sb_slide_model(&sl0, &m);
    if (sb_bfs_init(&b, &m, &mem, &err) || sb_bfs_run(&b, sl0.start, to_goal ? sl0.stop : NULL, 0, NULL, &err)) {
        fprintf(stderr, "slide_gen: %s\n", err.msg);
        return 1;
    }
    uint64_t n = b.set.n;
    printf("%s: %llu configurations, key %d word%s\n", argv[1], (unsigned long long)n,
           sl0.key_words, sl0.key_words > 1 ? "s" : "");
    for (const char *p = styles; *p; p++) {
        sb_slide sl;
        if (sb_slide_init(&sl, &pz, *p - '0', &mem, &err)) {
            fprintf(stderr, "slide_gen: %s\n", err.msg);
            return 1;
        }
        double t[99];
        sink s = {sl.key_words, 0, 0};
        for (int r = 0; r < passes; r++) {
            s.n = s.sum = 0;
            double t0 = cpu_now();
            for (uint64_t i = 0; i < n; i++)
                sb_slide_expand(&sl, sb_stateset_key(&b.set, i), count_emit, &s);
            t[r] = cpu_now() - t0;
        }
        qsort(t, (size_t)passes, sizeof *t, cmp_double);
        printf("style %c: %6.1f ns/state (median of %d; least %.1f), %.3f neighbours/state, checksum %016llx\n", *p,
               t[passes / 2] * 1e9 / (double)n, passes, t[0] * 1e9 / (double)n, (double)s.n / (double)n,
               (unsigned long long)s.sum);
        if (sl.hint_bits && !to_goal)
            time_hinted(&sl, &b, passes);
        sb_slide_free(&sl);
    }
    sb_bfs_free(&b);
    sb_slide_free(&sl0);
    return 0;
}
