/* libFuzzer target for the saved-table reader: the input is written to a
 * file and loaded as a 2 x 3 n-puzzle table.  Whatever the bytes, loading
 * must either refuse them (SB_EBADFILE) or give a table whose every lookup
 * and every walk to the goal stays in bounds and ends. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sbfs/sbfs.h"
#include "../src/npuzzle/np_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void cleanup(void)
{
    remove(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sb_np_table t;
    sb_error err;
    sb_mem mem;
    FILE *f;
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/sbfs_fuzz_table_%d", (int)getpid());
        if (sb_np_table_init(&t, 2, 3, &err))
            abort();
        atexit(cleanup);
    }
    f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    sb_mem_init(&mem, (size_t)1 << 20);
    if (sb_np_table_load(&t, path, &mem, &err) == 0) {
        for (uint64_t r = 0; r < t.size; r++) {
            uint8_t cell[6];
            char moves[64];
            sb_np_table_unrank(&t, r, cell);
            (void)sb_np_table_distance(&t, cell);
            (void)sb_np_table_descend(&t, cell, moves, 63);
        }
        sb_np_table_free(&t);
    } else if (err.code != SB_EBADFILE && err.code != SB_ENOMEM) {
        abort();
    }
    if (mem.used)
        abort();
    return 0;
}
