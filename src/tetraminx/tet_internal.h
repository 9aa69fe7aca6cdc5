/* The Tetraminx's inner layers (sbfs/tetraminx.h has the public ones): the
 * moves on facelets and pieces, the coordinate move tables, and the God
 * table's layout.  The library's models and the tests use them.  Not
 * installed. */
#ifndef SBFS_TET_INTERNAL_H
#define SBFS_TET_INTERNAL_H

#include "sbfs/tetraminx.h"

/* "U", "U'", ..., "B'" for m in 0..7; "?" for any other m. */
const char *sb_tet_move_name(int m);

/* 0, or SB_EUSAGE for a NULL pointer. */
int sb_tet_facelets_solved(sb_tet_facelets *f);

/* 0, or SB_EUSAGE for p NULL or a move outside 0..7 (p unchanged). */
int sb_tet_pieces_solved(sb_tet_pieces *p);
int sb_tet_pieces_move(sb_tet_pieces *p, int m);
/* 1 when p is a legal position (values in range, edges a permutation, even
 * permutation, even number of flips), else 0; SB_EUSAGE when p is NULL. */
int sb_tet_pieces_legal(const sb_tet_pieces *p);

/* Facelets -> pieces, checking every rule of a legal position in turn:
 * triangles DRLF, each tet showing its own three colours in the solved
 * cyclic order, six different edges, even permutation, even flips.  Fails
 * with SB_EINVALPOS and a message naming the broken rule; err->col is the
 * 1-based facelet where the fault shows (1 when it belongs to no facelet),
 * err->line 0.  SB_EUSAGE when f or p is NULL. */
int sb_tet_facelets_to_pieces(const sb_tet_facelets *f, sb_tet_pieces *p, sb_error *err);

/* The move tables of the coordinates: twist_move[t][m] is the twist
 * coordinate after move m from twist t, and so on.  About 190 KB. */
typedef struct sb_tet_tables {
    uint8_t twist_move[SB_TET_NTWIST][SB_TET_NMOVES];
    uint16_t eperm_move[SB_TET_NEPERM][SB_TET_NMOVES];
    uint8_t eflip_move[SB_TET_NEFLIP][SB_TET_NMOVES];
    uint16_t eo_move[SB_TET_NEO][SB_TET_NMOVES];
} sb_tet_tables;

/* Fill t (in microseconds: every entry comes from the piece layer).  0, or
 * SB_EUSAGE when t is NULL. */
int sb_tet_tables_init(sb_tet_tables *t);

/* The index after move m, by table; UINT32_MAX when index >= SB_TET_NPOS
 * or m is outside 0..7 (two compares: the God table's engine uses a copy
 * without them, since it only asks for valid ones). */
static inline uint32_t sb_tet_index_move(const sb_tet_tables *t, uint32_t index, int m)
{
    if (index >= SB_TET_NPOS || (unsigned)m >= SB_TET_NMOVES)
        return UINT32_MAX;
    uint32_t eo = index / SB_TET_NTWIST, tw = index % SB_TET_NTWIST;
    return (uint32_t)t->eo_move[eo][m] * SB_TET_NTWIST + t->twist_move[tw][m];
}

/* The God table.  It holds a pointer into itself (the model given to the
 * engine points at its move tables): it is allocated by build or load and
 * never moves. */
struct sb_tet_god {
    sb_tet_tables tables;             /* the coordinate move tables */
    sb_model model;                   /* "tetraminx", 933,120 indices, 8 moves */
    sb_table *table;                  /* the distances mod 3 */
    const uint64_t *codes;            /* its packed codes, 2 bits each (sb_table_codes) */
};

/* Distance mod 3 of index; SB_EUSAGE when index >= SB_TET_NPOS (one
 * compare; g must hold the table). */
static inline int sb_tet_god_mod3(const sb_tet_god *g, uint32_t index)
{
    if (index >= SB_TET_NPOS)
        return SB_EUSAGE;
    return (int)(g->codes[index >> 5] >> ((index & 31) * 2)) & 3;
}

#endif
