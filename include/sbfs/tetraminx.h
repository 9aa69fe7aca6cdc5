/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
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
 * Nothing here keeps global state: the God table lives in a structure the
 * caller owns.
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

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Moves ----------------------------------------------------------------
 * Eight moves, numbered 0 U, 1 U', 2 L, 3 L', 4 R, 5 R', 6 B, 7 B': move m
 * turns the corner m/2 (0 U, 1 L, 2 R, 3 B) clockwise when m is even, counter-
 * clockwise when odd, so the inverse of m is m ^ 1. */
enum { SB_TET_NMOVES = 8, SB_TET_NCORNERS = 4, SB_TET_NEDGES = 6 };

/* ---- Facelet layer -------------------------------------------------------
 * c[i] is the colour of facelet i (0..27, numbered as in docs/FORMAT.md):
 * 0 F, 1 D, 2 L, 3 R, written as those letters.  Facelets 24..27 are the
 * truncation triangles, which never change. */
enum { SB_TET_NFACELETS = 28 };
enum { SB_TET_F = 0, SB_TET_D = 1, SB_TET_L = 2, SB_TET_R = 3 };
typedef struct sb_tet_facelets {
    uint8_t c[SB_TET_NFACELETS];
} sb_tet_facelets;

/* The 28-letter string of f, NUL-terminated (out has room for 29).  0, or
 * SB_EUSAGE for a NULL pointer. */
int sb_tet_facelets_format(const sb_tet_facelets *f, char *out);
/* Apply move m (0..7) to f: 0, or SB_EUSAGE for f NULL or another m (f
 * unchanged). */
int sb_tet_facelets_move(sb_tet_facelets *f, int m);

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

/* Pieces -> facelets (p must be legal, or at least well-formed: twists
 * 0..2, edges 0..5, flips 0..1).  0, or SB_EUSAGE (a NULL pointer, p not
 * well-formed; f not written). */
int sb_tet_pieces_to_facelets(const sb_tet_pieces *p, sb_tet_facelets *f);

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

/* Coordinates of a legal position (UINT32_MAX when p is NULL or not
 * legal), and back (0, or SB_EUSAGE for p NULL or index >= SB_TET_NPOS). */
uint32_t sb_tet_rank(const sb_tet_pieces *p);
int sb_tet_unrank(uint32_t index, sb_tet_pieces *p);
/* A position drawn uniformly from all SB_TET_NPOS: every index is equally
 * likely, and indices and positions are one to one.  UINT32_MAX when rng
 * is NULL. */
uint32_t sb_tet_random(sb_rng *rng);

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
 * The table is opaque: sb_tet_god_build and sb_tet_god_load make one,
 * sb_tet_god_free (which accepts NULL) releases it. */
typedef struct sb_tet_god sb_tet_god;
enum { SB_TET_MAXDIST = 11 };

/* Build the table by breadth-first search from solved, on `threads`
 * threads (0 or 1: the calling thread only; the table is the same for any
 * number).  The engine scans forward while the frontier is small, backward
 * after.  ctl may be NULL.  On success *g holds the table; on failure *g is
 * NULL and nothing is left to free: SB_ENOMEM, SB_EINTR, SB_EUSAGE (g
 * NULL; likewise for load). */
int sb_tet_god_build(sb_tet_god **g, int threads, sb_mem *mem, const sb_control *ctl,
                     sb_error *err);
/* The same, but when the table's 233,280 bytes do not fit the budget (or
 * disk asks for slices or a checkpoint) it is built on disk, in slices, as
 * sb_table_build_disk does (sbfs/table.h, whose errors it adds): the same
 * table.  disk NULL: as sb_tet_god_build. */
int sb_tet_god_build_disk(sb_tet_god **g, int threads, const sb_table_disk *disk, sb_mem *mem,
                          const sb_control *ctl, sb_error *err);
/* Load a table saved with sb_table_save(sb_tet_god_table(g), ...): the
 * engine's file format (a header naming the puzzle "tetraminx", its size,
 * the histogram and a checksum).  Refuses (SB_EBADFILE) a file for another
 * puzzle or size, a damaged one, or one that is not the complete 2-bit
 * table; SB_EIO when the file cannot be read. */
int sb_tet_god_load(sb_tet_god **g, const char *path, sb_mem *mem, sb_error *err);
void sb_tet_god_free(sb_tet_god *g);
/* The distances mod 3 as an indexed-engine table: its level counts
 * (sb_table_count: positions at each distance; sb_table_about(t).levels - 1
 * is the largest distance) and sb_table_save.  NULL for g NULL. */
const sb_table *sb_tet_god_table(const sb_tet_god *g);

/* An optimal solution of index: moves[0..d-1] (room for SB_TET_MAXDIST)
 * take it to solved; returns d, its distance.  Of several optimal
 * solutions it gives the least in move-number order.  SB_EINTERNAL only
 * if the table is damaged; SB_EUSAGE for a NULL pointer, index >=
 * SB_TET_NPOS or g without its table. */
int sb_tet_god_solve(const sb_tet_god *g, uint32_t index, uint8_t *moves);

#ifdef __cplusplus
}
#endif

#endif
