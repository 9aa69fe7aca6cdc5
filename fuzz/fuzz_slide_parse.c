/* libFuzzer target for the SLIDING-format reader: parse from memory; when
 * the puzzle is accepted, also build its style-0 and style-3 models and
 * generate the start's moves, so the tables built from odd pieces (empty
 * rows, disconnected cells, pieces larger than the board) are exercised. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbfs/sbfs.h"

static void ignore(void *ctx, const uint64_t *key)
{
    (void)key;
    (*(int *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sb_slide_puzzle pz;
    sb_error err;
    if (sb_slide_parse(&pz, (const char *)data, size, &err))
        return 0;
    char board[SB_SLIDE_BOARD_MAX];
    sb_slide_board_text(&pz, pz.start, board);
    sb_slide_shorthand(&pz, pz.stop, board);
    for (int style = 0; style < 6; style += 3) {
        sb_mem mem;
        sb_slide sl;
        int n = 0;
        sb_mem_init(&mem, (size_t)64 << 20);
        if (sb_slide_init(&sl, &pz, style, &mem, &err))
            continue;
        if (style == 0 || pz.nblocks <= 12) /* superpieces: up to 2^blocks ideals */
            sb_slide_expand(&sl, sl.start, ignore, &n);
        sb_slide_free(&sl);
        if (mem.used)
            abort();
    }
    return 0;
}
