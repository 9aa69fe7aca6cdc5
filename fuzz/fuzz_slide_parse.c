/* libFuzzer target for the SLIDING-format reader: parse from memory; when
 * the puzzle is accepted, also draw its goals, build its style-0 and
 * style-3 models, generate the start's moves and test every neighbour
 * against the goals, so the tables built from odd pieces (empty rows,
 * disconnected cells, pieces larger than the board) and the goal masks
 * built from partial stop lines are exercised. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbfs/sbfs.h"
#include "../src/slide/slide_internal.h"

typedef struct seen {
    const sb_slide *sl;
    int n, goals;
} seen;

static void visit(void *ctx, const uint64_t *key)
{
    seen *s = ctx;
    s->n++;
    s->goals += sb_slide_is_goal(s->sl, key) != 0;
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
    for (int g = 0; g < pz.ngoals; g++)
        sb_slide_goal_text(&pz, g, board);
    for (int style = 0; style < 6; style += 3) {
        sb_mem mem;
        sb_slide sl;
        sb_mem_init(&mem, (size_t)64 << 20);
        if (sb_slide_init(&sl, &pz, style, &mem, &err))
            continue;
        seen s = {&sl, 0, 0};
        if (style == 0 || pz.nblocks <= 12) /* superpieces: up to 2^blocks ideals */
            sb_slide_expand(&sl, sl.start, visit, &s);
        sb_slide_fini(&sl);
        if (mem.used)
            abort();
    }
    return 0;
}
