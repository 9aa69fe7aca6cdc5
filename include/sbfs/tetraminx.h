/* The Tetraminx (a Pyraminx without its four tips) in three layers, each
 * usable and testable alone, in the manner of Kociemba's coordinate cube:
 *
 *   facelets     28 coloured triangles, the way a person sees the puzzle;
 *   pieces       4 tets that twist in place and 6 edges that move and flip;
 *   coordinates  one number 0..933119 per position, and move tables.
 *
 * On top of them sits the God table: the distance from solved of all 933,120
 * positions, 2 bits each, from which an optimal solution of any position is
 * read off move by move.  Notation, facelet numbering and move direction are
 * those of docs/FORMAT.md (WCA Pyraminx notation, the tnoodle sticker order).
 *
 * Nothing here keeps global state: the move tables and the God table live
 * in structures the caller owns.
 *
 * Every function checks its pointers (not NULL) and move numbers (0..7)
 * and refuses them with SB_EUSAGE, or the value its comment names, before
 * touching anything. */
#ifndef SBFS_TETRAMINX_H
#define SBFS_TETRAMINX_H

#include <stddef.h>
#include <stdint.h>

#include "sbfs/core.h"
#include "sbfs/table.h"

/* ---- Moves ----------------------------------------------------------------
 * Eight moves, numbered 0 U, 1 U', 2 L, 3 L', 4 R, 5 R', 6 B, 7 B': move m
 * turns the corner m/2 (0 U, 1 L, 2 R, 3 B) clockwise when m is even, counter-
 * clockwise when odd, so the inverse of m is m ^ 1. */
enum { SB_TET_NMOVES = 8, SB_TET_NCORNERS = 4, SB_TET_NEDGES = 6 };
/* "U", "U'", ..., "B'" for m in 0..7; "?" for any other m. */
const char *sb_tet_move_name(int m);

/* ---- Facelet layer -------------------------------------------------------
 * c[i] is the colour of facelet i (0..27, numbered as in docs/FORMAT.md):
 * 0 F, 1 D, 2 L, 3 R, written as those letters.  Facelets 24..27 are the
 * truncation triangles, which never change. */
enum { SB_TET_NFACELETS = 28 };
enum { SB_TET_F = 0, SB_TET_D = 1, SB_TET_L = 2, SB_TET_R = 3 };
typedef struct sb_tet_facelets {
    uint8_t c[SB_TET_NFACELETS];
} sb_tet_facelets;

/* These return 0, or SB_EUSAGE for a NULL pointer or a move outside 0..7
 * (nothing written then). */
int sb_tet_facelets_solved(sb_tet_facelets *f);
/* Apply move m (0..7) to f. */
int sb_tet_facelets_move(sb_tet_facelets *f, int m);
/* The 28-letter string of f, NUL-terminated (out has room for 29). */
int sb_tet_facelets_format(const sb_tet_facelets *f, char *out);

/* ---- Piece layer ----------------------------------------------------------
 * twist[c]  how many thirds (0..2) the tet at corner c (0 U, 1 L, 2 R, 3 B)
 *           is turned clockwise from solved: the sticker that belongs on its
 *           facelet j sits on facelet j + twist[c], in the cycle order of
 *           docs/FORMAT.md (tet U: 0, 14, 18);
 * edge[p]   the edge piece in edge place p, 0..5; places and pieces are
 *           numbered 0 U-R, 1 L-R, 2 U-L, 3 R-B, 4 B-L, 5 U-B;
 * flip[p]   1 when the edge in place p shows its colours the other way round.
 * Solved: all zero, edge[p] = p.  A legal position has an even edge
 * permutation and an even number of flips; every one of those 81 * 360 * 32
 * combinations is reachable. */
typedef struct sb_tet_pieces {
    uint8_t twist[SB_TET_NCORNERS];
    uint8_t edge[SB_TET_NEDGES];
    uint8_t flip[SB_TET_NEDGES];
} sb_tet_pieces;

/* 0, or SB_EUSAGE for p NULL or a move outside 0..7 (p unchanged). */
int sb_tet_pieces_solved(sb_tet_pieces *p);
int sb_tet_pieces_move(sb_tet_pieces *p, int m);
/* 1 when p is a legal position (values in range, edges a permutation, even
 * permutation, even number of flips), else 0; SB_EUSAGE when p is NULL. */
int sb_tet_pieces_legal(const sb_tet_pieces *p);
/* Pieces -> facelets (p must be legal, or at least well-formed: twists
 * 0..2, edges 0..5, flips 0..1).  0, or SB_EUSAGE (a NULL pointer, p not
 * well-formed; f not written). */
int sb_tet_pieces_to_facelets(const sb_tet_pieces *p, sb_tet_facelets *f);
/* Facelets -> pieces, checking every rule of a legal position in turn:
 * triangles DRLF, each tet showing its own three colours in the solved
 * cyclic order, six different edges, even permutation, even flips.  Fails
 * with SB_EINVALPOS and a message naming the broken rule; err->col is the
 * 1-based facelet where the fault shows (1 when it belongs to no facelet),
 * err->line 0.  SB_EUSAGE when f or p is NULL. */
int sb_tet_facelets_to_pieces(const sb_tet_facelets *f, sb_tet_pieces *p, sb_error *err);

/* ---- Coordinate layer ------------------------------------------------------
 *   twist  0..80    the 4 tet twists, base 3, U most significant; solved 0
 *   eperm  0..359   the even edge permutation (rank of edge[]); solved 0
 *   eflip  0..31    the flips of places 0..4, base 2 (place 5's is implied
 *                   by the even count); solved 0
 *   eo     0..11519 eperm * 32 + eflip: the whole edge state; solved 0
 *   index  0..933119  eo * 81 + twist: the whole position; solved 0
 * Each coordinate moves independently of the others, so a move is three
 * table lookups. */
enum {
    SB_TET_NTWIST = 81,
    SB_TET_NEPERM = 360,
    SB_TET_NEFLIP = 32,
    SB_TET_NEO = SB_TET_NEPERM * SB_TET_NEFLIP,
    SB_TET_NPOS = SB_TET_NEO * SB_TET_NTWIST /* 933,120 */
};

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
/* Coordinates of a legal position (UINT32_MAX when p is NULL or not
 * legal), and back (0, or SB_EUSAGE for p NULL or index >= SB_TET_NPOS). */
uint32_t sb_tet_rank(const sb_tet_pieces *p);
int sb_tet_unrank(uint32_t index, sb_tet_pieces *p);
/* A position drawn uniformly from all SB_TET_NPOS: every index is equally
 * likely, and indices and positions are one to one.  UINT32_MAX when rng
 * is NULL. */
uint32_t sb_tet_random(sb_rng *rng);
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

/* ---- Parsing and printing ---------------------------------------------------
 * One position per line, either
 *  - a facelet string: 28 letters F D L R in the order of docs/FORMAT.md, or
 *  - a scramble applied to the solved puzzle: moves U U' L L' R R' B B'
 *    separated by blanks; X2 is read as X' (two thirds forwards are one
 *    third backwards); the tip moves u l r b (with ' or 2) are skipped; an empty
 *    line is the empty scramble.
 * Blanks at either end (and a trailing CR) are ignored.  A single word of
 * 3 or more characters and no apostrophe is taken for a facelet string.
 * Errors: SB_EINPUT (a word that is no move, a wrong letter or length),
 * SB_EINVALPOS (a facelet string that is no position), with line = `line`
 * and the 1-based column in s.  SB_EUSAGE: out NULL, or s NULL with n > 0. */
int sb_tet_parse(const char *s, size_t n, int line, sb_tet_pieces *out, sb_error *err);
/* Write moves[0..len-1] as "U L' B" into out (room for 3 * len + 1 bytes);
 * returns the string length.  len 0 gives "".  SIZE_MAX, and "" when out
 * is not NULL, for a move outside 0..7, len < 0 or a NULL pointer. */
size_t sb_tet_format_moves(const uint8_t *moves, int len, char *out);

/* ---- The God table -----------------------------------------------------------
 * The distance of every position from solved, modulo 3, 2 bits per index,
 * built, saved and loaded by the indexed engine (sbfs/table.h).  Modulo 3
 * is enough: a move changes the distance by -1, 0 or +1, three different
 * residues, so the neighbour one move nearer is always recognisable.
 * An sb_tet_god holds a pointer into itself (the model given to the engine
 * points at its move tables): allocate it where it stays, don't copy it. */
enum { SB_TET_MAXDIST = 11 };
typedef struct sb_tet_god {
    sb_tet_tables tables;             /* the coordinate move tables */
    sb_model model;                   /* "tetraminx", 933,120 indices, 8 moves */
    sb_table *table;                  /* the distances mod 3 */
    const uint64_t *codes;            /* its packed codes, 2 bits each (sb_table_codes) */
    uint64_t hist[SB_TET_MAXDIST + 1];/* positions at each distance */
    int maxdist;                      /* largest distance */
} sb_tet_god;

/* Build the table by breadth-first search from solved, on `threads`
 * threads (0 or 1: the calling thread only; the table is the same for any
 * number).  The engine scans forward while the frontier is small, backward
 * after.  ctl may be NULL.  SB_ENOMEM, SB_EINTR (nothing is then left to
 * free), SB_EUSAGE (g NULL; likewise for save and load).  free accepts
 * NULL. */
int sb_tet_god_build(sb_tet_god *g, int threads, sb_mem *mem, const sb_control *ctl,
                     sb_error *err);
void sb_tet_god_free(sb_tet_god *g);
/* Distance mod 3 of index; SB_EUSAGE when index >= SB_TET_NPOS (one
 * compare; g must hold the table). */
static inline int sb_tet_god_mod3(const sb_tet_god *g, uint32_t index)
{
    if (index >= SB_TET_NPOS)
        return SB_EUSAGE;
    return (int)(g->codes[index >> 5] >> ((index & 31) * 2)) & 3;
}
/* An optimal solution of index: moves[0..d-1] (room for SB_TET_MAXDIST)
 * take it to solved; returns d, its distance.  Of several optimal
 * solutions it gives the least in move-number order.  SB_EINTERNAL only
 * if the table is damaged; SB_EUSAGE for a NULL pointer, index >=
 * SB_TET_NPOS or g without its table. */
int sb_tet_god_solve(const sb_tet_god *g, uint32_t index, uint8_t *moves);

/* Save the table to path / load it back, in the engine's file format (a
 * header naming the puzzle "tetraminx", its size, the histogram and a
 * checksum).  Load refuses (SB_EBADFILE) a file for another puzzle or size,
 * a damaged one, or one that is not the complete 2-bit table.  SB_EIO when
 * the file cannot be read or written. */
int sb_tet_god_save(const sb_tet_god *g, const char *path, sb_error *err);
int sb_tet_god_load(sb_tet_god *g, const char *path, sb_mem *mem, sb_error *err);

#endif
