/* The goal test on keys: does a configuration match a stop line?
 *
 * A stop line names some blocks (kind and anchor), makes some cells empty
 * and leaves the others free (docs/FORMAT.md, "Goals").  A configuration
 * matches when every named block is there and no block covers an empty
 * cell.  The search engine asks this of every configuration it stores, so
 * the test works on the key itself (anchor bits, then the kinds of the
 * anchored blocks in cell order, src/slide/key.c) and decodes only the few
 * kinds it must look at:
 *
 *   1. every named anchor must be an anchor: (A & need) == need;
 *   2. no anchor may sit on an empty cell: (A & empty) == 0;
 *   3. the block at a named anchor c must be of the named kind: its kind is
 *      the rank-th kind field of the key, rank = popcount(A below c);
 *   4. a block anchored elsewhere may still reach over an empty cell.  The
 *      reader listed, per goal, the "risky" anchors from which a block of
 *      some kind of the start would cover an empty cell; only the blocks
 *      anchored there (A & risky) have their kind read and their shape
 *      compared with the empty cells.
 *
 * Step 4 is exact, not a filter: a cell is covered only by a block anchored
 * at or before it, every such (anchor, kind) pair that touches an empty cell
 * is risky, and for each we look at the true kind.  Example, SHIFT's goal
 * "the 2x2 X anchored at row 4 column 2, the rest free" (`.............2*`):
 * need = {13}, empty = {}, risky = {}; the test is one AND, one popcount
 * and one 2-bit field.  With several stop lines the configuration matches
 * when it matches any of them.  A full stop line matches exactly its own
 * configuration (every non-x cell is named or empty, so no other block has
 * room), but the single full goal is left to the engine's key comparison,
 * which is cheaper still.  Keys of the slot form (every block a kind of
 * its own) name each block's anchor outright, and the test reads them. */
#include <string.h>

#include "sbfs/slide.h"
#include "keycodec.h"

/* The slot form (key.c): every named anchor holds its kind's field, and
 * no block covers an empty cell. */
static int slot_match(const sb_slide *sl, const sb_slide_goal *g, uint64_t key0)
{
    for (uint64_t bits = g->need[0]; bits; bits &= bits - 1) {
        int c = __builtin_ctzll(bits);
        if (sb_slide_field(sl, key0, sl->kidx[g->anchors[c]]) != c)
            return 0;
    }
    for (int k = 0; k < sl->nk; k++)
        if (sl->shape[(size_t)k * sl->ncells + sb_slide_field(sl, key0, k)] & g->empty[0])
            return 0;
    return 1;
}

int sb_slide_goal_match(const sb_slide *sl, int gi, const uint64_t *key)
{
    const sb_slide_goal *g;
    if (!sl_ready(sl) || !key || gi < 0 || gi >= sl->pz->ngoals)
        return SB_EUSAGE;
    g = &sl->pz->goal[gi];
    if (sl->pbits)
        return slot_match(sl, g, key[0]);
    uint64_t A[SB_SLIDE_MAXW];
    int below[SB_SLIDE_MAXW]; /* anchors in the words before w */
    int nw = sl->nw, acc = 0;
    for (int w = 0; w < nw; w++) {
        A[w] = key[w];
        if (w == nw - 1 && (sl->ncells & 63))
            A[w] &= ((uint64_t)1 << (sl->ncells & 63)) - 1;
        if ((A[w] & g->need[w]) != g->need[w] || (A[w] & g->empty[w]))
            return 0;
        below[w] = acc;
        acc += __builtin_popcountll(A[w]);
    }
    if (sl->kbits) /* with one kind only, a named anchor holds the right kind */
        for (int w = 0; w < nw; w++)
            for (uint64_t bits = g->need[w]; bits; bits &= bits - 1) {
                int b = __builtin_ctzll(bits), c = w * 64 + b;
                int rank = below[w] + __builtin_popcountll(A[w] & (((uint64_t)1 << b) - 1));
                if ((int)kc_kind(sl, key, rank) != sl->kidx[g->anchors[c]])
                    return 0;
            }
    for (int w = 0; w < nw; w++)
        for (uint64_t bits = A[w] & g->risky[w]; bits; bits &= bits - 1) {
            int b = __builtin_ctzll(bits), c = w * 64 + b;
            unsigned k = 0;
            if (sl->kbits)
                k = kc_kind(sl, key, below[w] + __builtin_popcountll(A[w] & (((uint64_t)1 << b) - 1)));
            const uint64_t *m = sl->shape + ((size_t)k * sl->ncells + c) * nw;
            for (int v = 0; v < nw; v++)
                if (m[v] & g->empty[v])
                    return 0;
        }
    return 1;
}

int sb_slide_is_goal(const sb_slide *sl, const uint64_t *key)
{
    if (!sl_ready(sl) || !key)
        return SB_EUSAGE;
    for (int g = 0; g < sl->pz->ngoals; g++)
        if (sb_slide_goal_match(sl, g, key) == 1)
            return 1;
    return 0;
}
