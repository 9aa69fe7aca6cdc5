/* The Tetraminx facelet layer: 28 coloured triangles and the 8 moves as
 * permutations of them, and the passage between facelets and pieces.
 *
 * A move is three 3-cycles of facelets: one for the tet at the turning
 * corner, and two for the six facelets of the three edges that touch it.
 * The cycle (a b c) means the sticker on a goes to b, the one on b to c and
 * the one on c to a (docs/FORMAT.md, the section on moves).
 * The counter-clockwise move runs the same cycles backwards.
 *
 * Reading pieces off facelets is where a string can fail to be a position,
 * and each way it can fail gets a message of its own.  The checks run from
 * the most local to the most global: the fixed triangles, the colour counts,
 * each tet, each edge, then the two parities, so that a message points at
 * the first facelet that cannot be right rather than at a consequence. */
#include "sbfs/rank.h"
#include "tet_internal.h"

#include <string.h>

static const char colour_letter[4] = {'F', 'D', 'L', 'R'};

/* Clockwise move of corner c (0 U, 1 L, 2 R, 3 B): three 3-cycles. */
static const uint8_t move_cycles[4][3][3] = {
    {{0, 14, 18}, {1, 15, 19}, {5, 13, 23}},   /* U */
    {{4, 6, 16}, {3, 11, 15}, {5, 7, 17}},     /* L */
    {{2, 22, 8}, {1, 21, 7}, {3, 23, 9}},      /* R */
    {{10, 20, 12}, {9, 19, 17}, {11, 21, 13}}, /* B */
};

/* The facelets of each tet, in the order the clockwise move of its corner
 * carries a sticker round: tet_facelet[c][j] -> tet_facelet[c][j+1]. */
static const uint8_t tet_facelet[4][3] = {
    {0, 14, 18}, {4, 6, 16}, {2, 22, 8}, {10, 20, 12}};
/* The facelets of each edge place, (primary, secondary), primary the lower
 * number; a flipped edge shows its primary colour on the secondary facelet. */
static const uint8_t edge_facelet[6][2] = {
    {1, 23}, {3, 7}, {5, 15}, {9, 21}, {11, 17}, {13, 19}};
/* The triangle colours, and the colour of every facelet when solved. */
static const uint8_t solved_colour[SB_TET_NFACELETS] = {
    0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
    1, 3, 2, 0};
static const char corner_name[4] = {'U', 'L', 'R', 'B'};
static const char *const edge_name[6] = {"U-R", "L-R", "U-L", "R-B", "B-L", "U-B"};

int sb_tet_facelets_solved(sb_tet_facelets *f)
{
    if (!f)
        return SB_EUSAGE;
    memcpy(f->c, solved_colour, sizeof f->c);
    return 0;
}

int sb_tet_facelets_move(sb_tet_facelets *f, int m)
{
    const uint8_t(*cy)[3];
    if (!f || (unsigned)m >= SB_TET_NMOVES)
        return SB_EUSAGE;
    cy = move_cycles[m >> 1];
    for (int k = 0; k < 3; k++) {
        uint8_t a = cy[k][0], b = cy[k][1], c = cy[k][2], t;
        if (m & 1) { /* a <- b <- c <- a */
            t = f->c[a];
            f->c[a] = f->c[b];
            f->c[b] = f->c[c];
            f->c[c] = t;
        } else {     /* a -> b -> c -> a */
            t = f->c[c];
            f->c[c] = f->c[b];
            f->c[b] = f->c[a];
            f->c[a] = t;
        }
    }
    return 0;
}

int sb_tet_facelets_format(const sb_tet_facelets *f, char *out)
{
    if (!f || !out)
        return SB_EUSAGE;
    for (int i = 0; i < SB_TET_NFACELETS; i++)
        out[i] = colour_letter[f->c[i] & 3];
    out[SB_TET_NFACELETS] = '\0';
    return 0;
}

int sb_tet_pieces_to_facelets(const sb_tet_pieces *p, sb_tet_facelets *f)
{
    if (!p || !f)
        return SB_EUSAGE;
    /* well-formed: the edge numbers index the facelet tables below */
    for (int q = 0; q < 6; q++)
        if (p->edge[q] > 5 || p->flip[q] > 1)
            return SB_EUSAGE;
    for (int c = 0; c < 4; c++)
        if (p->twist[c] > 2)
            return SB_EUSAGE;
    memcpy(f->c, solved_colour, sizeof f->c);
    /* A tet twisted o thirds shows the colour that belongs on facelet j on
     * facelet j + o. */
    for (int c = 0; c < 4; c++)
        for (int j = 0; j < 3; j++)
            f->c[tet_facelet[c][(j + p->twist[c]) % 3]] = solved_colour[tet_facelet[c][j]];
    for (int q = 0; q < 6; q++) {
        const uint8_t *home = edge_facelet[p->edge[q]], *at = edge_facelet[q];
        int fl = p->flip[q] & 1;
        f->c[at[fl]] = solved_colour[home[0]];
        f->c[at[!fl]] = solved_colour[home[1]];
    }
    return 0;
}

/* The slow path: every rule in turn, for the message. */
static int diagnose(const sb_tet_facelets *f, sb_tet_pieces *p, sb_error *err)
{
    int count[4] = {0, 0, 0, 0}, where[6], flips = 0;

    for (int i = 0; i < SB_TET_NFACELETS; i++)
        if (f->c[i] > 3)
            return sb_error_set(err, SB_EINPUT, 0, i + 1, "facelet %d has no colour", i + 1);
    for (int i = 24; i < 28; i++)
        if (f->c[i] != solved_colour[i])
            return sb_error_set(err, SB_EINVALPOS, 0, i + 1,
                                "the triangle at corner %c must be %c, not %c",
                                corner_name[i - 24], colour_letter[solved_colour[i]],
                                colour_letter[f->c[i]]);
    /* Seven of each colour: six on its hexagon and one triangle.  With 28
     * facelets, a colour short means another one over; point at the first
     * facelet past the seventh of that one. */
    for (int i = 0; i < SB_TET_NFACELETS; i++)
        if (++count[f->c[i]] == 8)
            return sb_error_set(err, SB_EINVALPOS, 0, i + 1,
                                "colour %c appears more than 7 times (each colour is on 7 facelets)",
                                colour_letter[f->c[i]]);

    /* Tets: the three colours of corner c's tet are its three solved
     * colours; a twist o puts colour j on facelet j + o.  Find o from where
     * the first colour is, then the other two must follow in order. */
    for (int c = 0; c < 4; c++) {
        const uint8_t *t = tet_facelet[c];
        uint8_t want[3], got[3];
        int o = -1;
        for (int j = 0; j < 3; j++) {
            want[j] = solved_colour[t[j]];
            got[j] = f->c[t[j]];
        }
        for (int j = 0; j < 3; j++)
            if (got[j] == want[0])
                o = j;
        int setok = 1;
        for (int j = 0; j < 3; j++) {
            int seen = 0;
            for (int k = 0; k < 3; k++)
                seen += got[k] == want[j];
            setok &= seen == 1;
        }
        if (!setok)
            return sb_error_set(err, SB_EINVALPOS, 0, t[0] + 1,
                                "the tet at corner %c shows %c %c %c (facelets %d %d %d); it must "
                                "show %c, %c and %c",
                                corner_name[c], colour_letter[got[0]], colour_letter[got[1]],
                                colour_letter[got[2]], t[0] + 1, t[1] + 1, t[2] + 1,
                                colour_letter[want[0]], colour_letter[want[1]],
                                colour_letter[want[2]]);
        if (got[(o + 1) % 3] != want[1])
            return sb_error_set(err, SB_EINVALPOS, 0, t[0] + 1,
                                "the tet at corner %c shows its colours in mirror order "
                                "(facelets %d %d %d: %c %c %c)",
                                corner_name[c], t[0] + 1, t[1] + 1, t[2] + 1,
                                colour_letter[got[0]], colour_letter[got[1]],
                                colour_letter[got[2]]);
        p->twist[c] = (uint8_t)o;
    }

    /* Edges: the six colour pairs are the six pairs of different colours,
     * one edge each.  The piece in a place is the one whose pair it shows;
     * it is flipped when its primary colour is not on the primary facelet. */
    for (int k = 0; k < 6; k++)
        where[k] = -1;
    for (int q = 0; q < 6; q++) {
        const uint8_t *at = edge_facelet[q];
        uint8_t a = f->c[at[0]], b = f->c[at[1]];
        int piece = -1;
        if (a == b)
            return sb_error_set(err, SB_EINVALPOS, 0, at[0] + 1,
                                "the edge at %s shows %c twice (facelets %d and %d); no edge has "
                                "one colour twice",
                                edge_name[q], colour_letter[a], at[0] + 1, at[1] + 1);
        for (int k = 0; k < 6; k++) {
            uint8_t x = solved_colour[edge_facelet[k][0]], y = solved_colour[edge_facelet[k][1]];
            if ((a == x && b == y) || (a == y && b == x))
                piece = k;
        }
        if (where[piece] >= 0)
            return sb_error_set(err, SB_EINVALPOS, 0, at[0] + 1,
                                "the %c%c edge appears twice (at %s and at %s)",
                                colour_letter[a], colour_letter[b], edge_name[where[piece]],
                                edge_name[q]);
        where[piece] = q;
        p->edge[q] = (uint8_t)piece;
        p->flip[q] = a != solved_colour[edge_facelet[piece][0]];
        flips += p->flip[q];
    }
    if (sb_perm_parity(p->edge, SB_TET_NEDGES))
        return sb_error_set(err, SB_EINVALPOS, 0, 1,
                            "the edge permutation is odd (as if two edges were swapped): "
                            "no sequence of moves does that");
    if (flips & 1)
        return sb_error_set(err, SB_EINVALPOS, 0, 1,
                            "an odd number of edges is flipped (%d): no sequence of moves does that",
                            flips);
    return 0;
}

/* The edge a pair of colours (primary facelet, secondary facelet) shows:
 * 2 * piece + flipped, or -1 for one colour twice.  Colours F D L R. */
static const int8_t edge_of[4][4] = {
    /* F   D   L   R   on the secondary facelet */
    {-1, 2, 4, 0},  /* F on the primary */
    {3, -1, 8, 6},  /* D */
    {5, 9, -1, 10}, /* L */
    {1, 7, 11, -1}, /* R */
};

/* The fast path, taken by every legal string: read each piece by table and
 * check only what a legal position needs (fixed triangles, tets in their
 * cyclic order, six different edges, two parities; the colour counts then
 * hold by themselves).  Anything else goes to diagnose for its message. */
int sb_tet_facelets_to_pieces(const sb_tet_facelets *f, sb_tet_pieces *p, sb_error *err)
{
    int seen = 0, flips = 0;
    if (!f || !p)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_tet_facelets_to_pieces: %s is NULL",
                            f ? "p" : "f");
    if (f->c[24] != SB_TET_D || f->c[25] != SB_TET_R || f->c[26] != SB_TET_L ||
        f->c[27] != SB_TET_F)
        return diagnose(f, p, err);
    for (int c = 0; c < 4; c++) {
        const uint8_t *t = tet_facelet[c];
        uint8_t w0 = solved_colour[t[0]], w1 = solved_colour[t[1]], w2 = solved_colour[t[2]];
        uint8_t g0 = f->c[t[0]], g1 = f->c[t[1]], g2 = f->c[t[2]];
        if (g0 == w0 && g1 == w1 && g2 == w2)
            p->twist[c] = 0;
        else if (g1 == w0 && g2 == w1 && g0 == w2)
            p->twist[c] = 1;
        else if (g2 == w0 && g0 == w1 && g1 == w2)
            p->twist[c] = 2;
        else
            return diagnose(f, p, err);
    }
    for (int q = 0; q < 6; q++) {
        uint8_t a = f->c[edge_facelet[q][0]], b = f->c[edge_facelet[q][1]];
        int e = a < 4 && b < 4 ? edge_of[a][b] : -1;
        if (e < 0 || (seen >> (e >> 1) & 1))
            return diagnose(f, p, err);
        seen |= 1 << (e >> 1);
        p->edge[q] = (uint8_t)(e >> 1);
        p->flip[q] = (uint8_t)(e & 1);
        flips += e & 1;
    }
    if (sb_perm_parity(p->edge, SB_TET_NEDGES) || (flips & 1))
        return diagnose(f, p, err);
    return 0;
}
