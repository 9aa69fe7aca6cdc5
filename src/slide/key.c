/* The slide model's tables and its canonical key.
 *
 * Key layout (fixed width for a puzzle), the anchor form: bit c, for c <
 * ncells, is 1 when a block is anchored at cell c; then, for the anchored
 * cells in increasing order, the kind of the block there in kbits =
 * ceil(log2 nk) bits each (nothing at all when every block is of one
 * kind).  Blocks of one kind swapped give the same anchors and the same
 * kinds in cell order, hence the same key, and the key determines the
 * configuration.  On SHIFT (20 cells, 10 blocks of 4 kinds) that is
 * 20 + 10*2 = 40 bits, one word; the widest, 256 cells of 1x1 blocks of 15
 * kinds, 256 + 256*4 bits = 20 words.
 *
 * The slot form, when every block is a kind of its own and it is no wider:
 * block k (the k-th kind) has its anchor in bits k*pbits .. k*pbits +
 * pbits - 1, pbits = ceil(log2 ncells).  On the 15-puzzle that is 15*4 =
 * 60 bits, one word, against 76 in the anchor form; on the distinct-piece
 * Klotski 10*5 = 50 against 60.  A block's move changes its own field and
 * nothing else, and reading a block is one shift: no ranks to count. */
#include <string.h>

#include "keycodec.h"

int sb_slide_pack(const sb_slide *sl, const unsigned char *anchors, uint64_t *key)
{
    int pos, blocks = 0;
    if (!sl_ready(sl) || !anchors || !key)
        return SB_EUSAGE;
    /* the key has room for sl->nblocks blocks of the model's kinds */
    for (int c = 0; c < sl->ncells; c++)
        if (anchors[c]) {
            if (anchors[c] > 15 || sl->kidx[anchors[c]] < 0)
                return SB_EUSAGE;
            blocks++;
        }
    if (blocks != sl->nblocks)
        return SB_EUSAGE;
    pos = sl->ncells;
    memset(key, 0, sl->key_words * sizeof *key);
    if (sl->pbits) {
        for (int c = 0; c < sl->ncells; c++)
            if (anchors[c])
                key[0] |= (uint64_t)c << (sl->kidx[anchors[c]] * sl->pbits);
        return 0;
    }
    for (int c = 0; c < sl->ncells; c++) {
        if (!anchors[c])
            continue;
        key[c >> 6] |= (uint64_t)1 << (c & 63);
        if (sl->kbits) {
            kc_put(key, pos, sl->kbits, (uint64_t)sl->kidx[anchors[c]]);
            pos += sl->kbits;
        }
    }
    return 0;
}

int sb_slide_unpack(const sb_slide *sl, const uint64_t *key, unsigned char *anchors)
{
    int pos;
    if (!sl_ready(sl) || !key || !anchors)
        return SB_EUSAGE;
    pos = sl->ncells;
    memset(anchors, 0, SB_SLIDE_MAXCELLS);
    if (sl->pbits) {
        for (int k = 0; k < sl->nk; k++)
            anchors[sb_slide_field(sl, key[0], k)] = (unsigned char)sl->kval[k];
        return 0;
    }
    for (int c = 0; c < sl->ncells; c++) {
        if (!(key[c >> 6] >> (c & 63) & 1))
            continue;
        uint64_t v = 0;
        if (sl->kbits) {
            v = kc_get(key, pos, sl->kbits);
            pos += sl->kbits;
        }
        anchors[c] = (unsigned char)sl->kval[v < (uint64_t)sl->nk ? v : 0];
    }
    return 0;
}
