/* The comparison point for the indexed engine: a plain breadth-first search
 * of an R x C sliding-tile puzzle that keeps every position seen in a hash
 * set (open addressing, linear probing, doubled when half full) and each
 * level in an array.  A position is its board packed 4 bits a cell.  No
 * numbering, no packing of distances: what one writes first.
 *
 *   hash_bfs R C     prints the histogram, and the seconds on stderr */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t *set, cap, used;

static uint64_t hash(uint64_t x)
{
    x ^= x >> 31;
    x *= UINT64_C(0x7fb5d329728ea185);
    x ^= x >> 27;
    x *= UINT64_C(0x81dadef4bc2dd44d);
    return x ^ (x >> 33);
}

/* Board keys are never 0 (the tiles are not all blank), so 0 marks free. */
static int insert(uint64_t k)
{
    uint64_t i = hash(k) & (cap - 1);
    while (set[i]) {
        if (set[i] == k)
            return 0;
        i = (i + 1) & (cap - 1);
    }
    set[i] = k;
    used++;
    return 1;
}

static void grow(void)
{
    uint64_t *old = set, oldcap = cap;
    cap *= 2;
    set = calloc(cap, 8);
    if (!set) {
        fprintf(stderr, "hash_bfs: out of memory\n");
        exit(1);
    }
    used = 0;
    for (uint64_t i = 0; i < oldcap; i++)
        if (old[i])
            insert(old[i]);
    free(old);
}

int main(int argc, char **argv)
{
    int rows = argc > 2 ? atoi(argv[1]) : 3, cols = argc > 2 ? atoi(argv[2]) : 3;
    int cells = rows * cols, d = 0;
    uint64_t *cur, *next, ncur = 1, nnext, total = 0, capnext = 1024;
    struct timespec t0, t1;
    if (cells < 4 || cells > 16) {
        fprintf(stderr, "usage: hash_bfs ROWS COLS (at most 16 cells)\n");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cap = 1024;
    set = calloc(cap, 8);
    cur = malloc(8);
    next = malloc(capnext * 8);
    cur[0] = 0;
    for (int i = 0; i < cells - 1; i++)
        cur[0] |= (uint64_t)(i + 1) << (4 * i);
    insert(cur[0]);
    while (ncur) {
        printf("distance %d: %llu\n", d, (unsigned long long)ncur);
        total += ncur;
        nnext = 0;
        for (uint64_t i = 0; i < ncur; i++) {
            uint64_t k = cur[i];
            int b = 0;
            while ((k >> (4 * b)) & 15)
                b++;
            for (int m = 0; m < 4; m++) {
                int nb;
                uint64_t t, q;
                if (m == 0) { if (b < cols) continue; nb = b - cols; }
                else if (m == 1) { if (b + cols >= cells) continue; nb = b + cols; }
                else if (m == 2) { if (b % cols == 0) continue; nb = b - 1; }
                else { if (b % cols == cols - 1) continue; nb = b + 1; }
                t = (k >> (4 * nb)) & 15;
                q = (k & ~(UINT64_C(15) << (4 * nb))) | (t << (4 * b));
                if (2 * (used + 1) > cap)
                    grow();
                if (insert(q)) {
                    if (nnext == capnext) {
                        next = realloc(next, capnext * 2 * 8);
                        capnext *= 2;
                    }
                    next[nnext++] = q;
                }
            }
        }
        free(cur);
        cur = next;
        ncur = nnext;
        next = malloc(capnext * 8);
        d++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("total: %llu positions, largest distance %d\n", (unsigned long long)total, d - 1);
    fprintf(stderr, "hash_bfs %dx%d: %.1f s\n", rows, cols,
            (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    free(cur);
    free(next);
    free(set);
    return 0;
}
