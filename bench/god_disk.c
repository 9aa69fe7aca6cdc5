/* God tables on disk, for bench_index.sh: the n-puzzle table built by
 * sb_table_build_disk in slices of chosen sizes.
 *
 *   god_disk RxC THREADS BUDGET LOG2...   one build per slice size 2^LOG2,
 *                                         in BUDGET bytes (64M; 0: none)
 *
 * For each: the slices, CPU seconds (user + system, this process), wall
 * seconds, the budget's peak, the files' peak, and how many of the
 * successors of 2^20 sampled positions fall in their own slice (those are
 * marked at once; the others travel through the files). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "sbfs/sbfs.h"

static double cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec / 1e6;
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Share of successors in their position's slice of 2^lg indices. */
static double local_share(const sb_model *m, int lg)
{
    sb_rng rng;
    uint64_t in = 0, all = 0;
    unsigned char scratch[SB_MAX_SCRATCH] = {0};
    sb_rng_seed(&rng, 1);
    for (int i = 0; i < (1 << 20); i++) {
        uint64_t r = sb_rng_below(&rng, m->size);
        for (int mv = 0; mv < m->nmoves; mv++) {
            uint64_t q = m->move(m->ud, scratch, r, mv);
            if (q == SB_NO_INDEX)
                continue;
            all++;
            in += (q >> lg) == (r >> lg);
        }
    }
    return all ? (double)in / (double)all : 0.0;
}

int main(int argc, char **argv)
{
    sb_np_table np;
    sb_np_table_info ti;
    sb_error err;
    int rows, cols, threads;
    size_t budget = 0;
    if (argc < 5 || sscanf(argv[1], "%dx%d", &rows, &cols) != 2 || (threads = atoi(argv[2])) < 1 ||
        (strcmp(argv[3], "0") && sb_mem_parse_size(argv[3], &budget, &err))) {
        fprintf(stderr, "usage: god_disk RxC THREADS BUDGET LOG2...\n");
        return 2;
    }
    if (sb_np_table_init(&np, rows, cols, &err)) {
        fprintf(stderr, "god_disk: %s\n", err.msg);
        return 2;
    }
    ti = sb_np_table_about(&np);
    for (int a = 4; a < argc; a++) {
        sb_table_opts o = {2, threads, SB_SCAN_AUTO, -1};
        sb_table_disk dk = {NULL, 0, atoi(argv[a]), NULL, 0};
        sb_table *t = NULL;
        sb_mem mem;
        double c0 = cpu(), w0 = wall();
        sb_mem_init(&mem, budget);
        if (sb_table_build_disk(&t, ti.model, &ti.goal, 1, &o, &dk, &mem, NULL, &err)) {
            fprintf(stderr, "god_disk: %s\n", err.msg);
            return 1;
        }
        sb_table_info in = sb_table_about(t);
        printf("%s slices of 2^%d: %d slices, %.1f s CPU, %.1f s wall, memory %zu B, files %llu B at most, "
               "%.0f%% of successors in their slice, largest distance %d\n",
               ti.params, dk.slice_log2, in.slices, cpu() - c0, wall() - w0, mem.peak,
               (unsigned long long)in.disk_peak, 100.0 * local_share(ti.model, dk.slice_log2), in.levels - 1);
        fflush(stdout);
        sb_table_free(t);
    }
    sb_np_table_free(&np);
    return 0;
}
