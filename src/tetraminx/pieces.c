/* The Tetraminx piece and coordinate layers.
 *
 * Pieces.  A tet never leaves its corner; the move of its corner twists it a
 * third, and no other move touches it.  So the four twists are four
 * independent counters mod 3.  An edge move is a 3-cycle of edge places,
 * and with it some edges turn over.  Which ones follows from the facelet
 * cycles: U carries facelet 1 (primary facelet of place U-R) to facelet 15
 * (the secondary one of place U-L), so the edge arriving in U-L is flipped;
 * it carries 5 (primary of U-L) to 13 (primary of U-B), so that one is not.
 * Each 3-cycle flips 0 or 2 edges and is an even permutation, which is why
 * the flips and the permutation of a legal position are both even.
 *
 * Coordinates (Jaap's "Indexing", via include/sbfs/rank.h): the twists as a
 * base-3 number, the edge permutation as an even permutation of 6 (rank
 * 0..359, the last two places implied), the flips as a base-2 number of 5
 * digits (the sixth implied).  The three are independent under moves, so a
 * move table per coordinate is built from the piece layer by unranking,
 * moving and ranking each value once, and the edge tables are then folded
 * into one table for the 11,520 edge states. */
#include "../index/rank_internal.h"
#include "tet_internal.h"

static const char *const move_names[SB_TET_NMOVES] = {"U", "U'", "L", "L'", "R", "R'", "B", "B'"};

const char *sb_tet_move_name(int m)
{
    return m >= 0 && m < SB_TET_NMOVES ? move_names[m] : "?";
}

/* After move m, edge place q holds the edge that was in place
 * edge_src[m][q], turned over when edge_flip[m][q] is 1.  Read off the
 * facelet cycles as above; tests/test_tetraminx.c checks every entry
 * against the facelet layer. */
static const uint8_t edge_src[SB_TET_NMOVES][6] = {
    {5, 1, 0, 3, 4, 2}, /* U: U-R -> U-L -> U-B -> U-R */
    {2, 1, 5, 3, 4, 0}, /* U' */
    {0, 2, 4, 3, 1, 5}, /* L: L-R -> B-L -> U-L -> L-R */
    {0, 4, 1, 3, 2, 5}, /* L' */
    {1, 3, 2, 0, 4, 5}, /* R: U-R -> R-B -> L-R -> U-R */
    {3, 0, 2, 1, 4, 5}, /* R' */
    {0, 1, 2, 4, 5, 3}, /* B: R-B -> U-B -> B-L -> R-B */
    {0, 1, 2, 5, 3, 4}, /* B' */
};
static const uint8_t edge_flip[SB_TET_NMOVES][6] = {
    {1, 0, 1, 0, 0, 0}, {1, 0, 0, 0, 0, 1}, {0, 1, 1, 0, 0, 0}, {0, 0, 1, 0, 1, 0},
    {1, 0, 0, 1, 0, 0}, {1, 1, 0, 0, 0, 0}, {0, 0, 0, 1, 0, 1}, {0, 0, 0, 1, 1, 0},
};

int sb_tet_pieces_solved(sb_tet_pieces *p)
{
    if (!p)
        return SB_EUSAGE;
    for (int c = 0; c < SB_TET_NCORNERS; c++)
        p->twist[c] = 0;
    for (int q = 0; q < SB_TET_NEDGES; q++) {
        p->edge[q] = (uint8_t)q;
        p->flip[q] = 0;
    }
    return 0;
}

static void move_twist(uint8_t *twist, int m)
{
    uint8_t *t = &twist[m >> 1];
    *t = (uint8_t)((*t + ((m & 1) ? 2 : 1)) % 3);
}

static void move_edges(uint8_t *edge, uint8_t *flip, int m)
{
    uint8_t e[6], f[6];
    for (int q = 0; q < 6; q++) {
        e[q] = edge[edge_src[m][q]];
        f[q] = flip[edge_src[m][q]] ^ edge_flip[m][q];
    }
    for (int q = 0; q < 6; q++) {
        edge[q] = e[q];
        flip[q] = f[q];
    }
}

int sb_tet_pieces_move(sb_tet_pieces *p, int m)
{
    if (!p || (unsigned)m >= SB_TET_NMOVES)
        return SB_EUSAGE;
    move_twist(p->twist, m);
    move_edges(p->edge, p->flip, m);
    return 0;
}

int sb_tet_pieces_legal(const sb_tet_pieces *p)
{
    int seen = 0, flips = 0;
    if (!p)
        return SB_EUSAGE;
    for (int c = 0; c < SB_TET_NCORNERS; c++)
        if (p->twist[c] > 2)
            return 0;
    for (int q = 0; q < SB_TET_NEDGES; q++) {
        if (p->edge[q] > 5 || p->flip[q] > 1 || (seen >> p->edge[q] & 1))
            return 0;
        seen |= 1 << p->edge[q];
        flips += p->flip[q];
    }
    return sb_perm_parity(p->edge, SB_TET_NEDGES) == 0 && flips % 2 == 0;
}

uint32_t sb_tet_rank(const sb_tet_pieces *p)
{
    uint32_t twist, eperm, eflip;
    if (!p || sb_tet_pieces_legal(p) != 1)
        return UINT32_MAX;
    twist = (uint32_t)sb_rank_orient(p->twist, SB_TET_NCORNERS, 3);
    eperm = (uint32_t)sb_rank_perm_even(p->edge, SB_TET_NEDGES);
    eflip = (uint32_t)sb_rank_orient_sum0(p->flip, SB_TET_NEDGES, 2);
    return (eperm * SB_TET_NEFLIP + eflip) * SB_TET_NTWIST + twist;
}

int sb_tet_unrank(uint32_t index, sb_tet_pieces *p)
{
    uint32_t twist = index % SB_TET_NTWIST, eo = index / SB_TET_NTWIST;
    if (!p || index >= SB_TET_NPOS)
        return SB_EUSAGE;
    sb_unrank_orient(twist, p->twist, SB_TET_NCORNERS, 3);
    sb_unrank_perm_even(eo / SB_TET_NEFLIP, p->edge, SB_TET_NEDGES);
    sb_unrank_orient_sum0(eo % SB_TET_NEFLIP, p->flip, SB_TET_NEDGES, 2);
    return 0;
}

uint32_t sb_tet_random(sb_rng *rng)
{
    if (!rng)
        return UINT32_MAX;
    return (uint32_t)sb_rng_below(rng, SB_TET_NPOS);
}

int sb_tet_tables_init(sb_tet_tables *t)
{
    uint8_t a[6], b[6];
    if (!t)
        return SB_EUSAGE;
    for (int x = 0; x < SB_TET_NTWIST; x++)
        for (int m = 0; m < SB_TET_NMOVES; m++) {
            sb_unrank_orient((uint64_t)x, a, SB_TET_NCORNERS, 3);
            move_twist(a, m);
            t->twist_move[x][m] = (uint8_t)sb_rank_orient(a, SB_TET_NCORNERS, 3);
        }
    /* The permutation and the flips move independently: the flips follow
     * the places, whatever edges are in them. */
    for (int x = 0; x < SB_TET_NEPERM; x++)
        for (int m = 0; m < SB_TET_NMOVES; m++) {
            sb_unrank_perm_even((uint64_t)x, a, SB_TET_NEDGES);
            for (int q = 0; q < 6; q++)
                b[q] = 0;
            move_edges(a, b, m);
            t->eperm_move[x][m] = (uint16_t)sb_rank_perm_even(a, SB_TET_NEDGES);
        }
    for (int x = 0; x < SB_TET_NEFLIP; x++)
        for (int m = 0; m < SB_TET_NMOVES; m++) {
            for (int q = 0; q < 6; q++)
                a[q] = (uint8_t)q;
            sb_unrank_orient_sum0((uint64_t)x, b, SB_TET_NEDGES, 2);
            move_edges(a, b, m);
            t->eflip_move[x][m] = (uint8_t)sb_rank_orient_sum0(b, SB_TET_NEDGES, 2);
        }
    for (int e = 0; e < SB_TET_NEPERM; e++)
        for (int f = 0; f < SB_TET_NEFLIP; f++)
            for (int m = 0; m < SB_TET_NMOVES; m++)
                t->eo_move[e * SB_TET_NEFLIP + f][m] =
                    (uint16_t)(t->eperm_move[e][m] * SB_TET_NEFLIP + t->eflip_move[f][m]);
    return 0;
}
