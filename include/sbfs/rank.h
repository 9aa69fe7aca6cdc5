/* Ranking and unranking: a one-to-one numbering 0..N-1 of the positions of
 * one part of a puzzle, so whole puzzles fit in tables indexed by number
 * (Jaap's Puzzle Page, "Indexing").
 *
 * Conventions for every scheme:
 *  - arrays are of uint8_t, places and pieces numbered from 0;
 *  - the solved arrangement (identity permutation, all orientations 0, the
 *    pieces in the lowest places) ranks to 0;
 *  - rank is a bijection onto 0..count-1 and unrank is its inverse;
 *  - arguments are checked: a size out of the range a scheme states, a
 *    NULL array (where the size is not 0), an array that is not what the
 *    scheme numbers (an item repeated or out of range, a wrong piece
 *    count), or a rank >= count.  A rank function then returns
 *    SB_RANK_BAD, an unrank function SB_EUSAGE without writing; unrank
 *    functions return 0 otherwise.  The checks cost a compare or two per
 *    item, next to the popcount each item costs anyway.
 * Nothing here allocates or keeps state. */
#ifndef SBFS_RANK_H
#define SBFS_RANK_H

#include <stdint.h>

#include "sbfs/core.h"

/* What a rank function returns for arguments it refuses (no count of a
 * scheme reaches it). */
#define SB_RANK_BAD UINT64_MAX

/* n! for 0 <= n <= 20; n!/(n-k)! for 0 <= k <= n while it fits in 64 bits;
 * C(n, k) for 0 <= n <= 64 (0 when k < 0 or k > n).  0 for anything else. */
uint64_t sb_factorial(int n);
uint64_t sb_falling(int n, int k);
uint64_t sb_binom(int n, int k);

/* Permutations of n <= 20 items, p[i] = item in place i.  Lexicographic
 * order: the identity is 0, the reversal n!-1. */
uint64_t sb_rank_perm(const uint8_t *p, int n);
int sb_unrank_perm(uint64_t r, uint8_t *p, int n);
/* 0 for an even permutation, 1 for an odd one (n <= 32); SB_EUSAGE when p
 * is not a permutation of 0..n-1. */
int sb_perm_parity(const uint8_t *p, int n);

/* Even permutations of n >= 2 items: 0..n!/2-1.  The last two places are
 * implied by the parity, so rank looks at p[0..n-3] only and unrank fills
 * all n places with an even permutation.  The identity ranks to 0.  n <= 20,
 * p[0..n-3] distinct items below n. */
uint64_t sb_rank_perm_even(const uint8_t *p, int n);
int sb_unrank_perm_even(uint64_t r, uint8_t *p, int n);

/* Orientations of n pieces, each 0..v-1: the base-v number o[0] o[1] ...
 * o[n-1] (o[0] most significant), 0..v^n-1.  1 <= v <= 256, v^n < 2^64. */
uint64_t sb_rank_orient(const uint8_t *o, int n, int v);
int sb_unrank_orient(uint64_t r, uint8_t *o, int n, int v);
/* Orientations whose sum is 0 mod v: the last one is implied, so the rank
 * reads o[0..n-2] only (0..v^(n-1)-1) and unrank fills o[n-1].  n >= 1. */
uint64_t sb_rank_orient_sum0(const uint8_t *o, int n, int v);
int sb_unrank_orient_sum0(uint64_t r, uint8_t *o, int n, int v);

/* Combinations: m identical pieces among n <= 64 places, occ[i] = 1 when
 * place i holds a piece.  0..C(n,m)-1; pieces in places 0..m-1 rank to 0.
 * Rank counts the nonzero occ[i], which must be m. */
uint64_t sb_rank_comb(const uint8_t *occ, int n, int m);
int sb_unrank_comb(uint64_t r, uint8_t *occ, int n, int m);

/* Partial permutations: k distinct pieces among n <= 32 places, pos[i] =
 * the place of piece i (all different).  0..n!/(n-k)!-1; pos[i] = i ranks
 * to 0.  Used for pattern databases.  n!/(n-k)! must fit in 64 bits. */
uint64_t sb_rank_partial(const uint8_t *pos, int n, int k);
int sb_unrank_partial(uint64_t r, uint8_t *pos, int n, int k);

/* Multiset permutations: n places, a[i] = kind of the piece in place i, kind
 * j appearing count[j] times (the counts add up to n; 1 <= kinds <= 16,
 * counts 0..64).  Ranks 0..n!/(count[0]!...count[kinds-1]!)-1; sorted a
 * ranks to 0.  sb_count_multiset gives that number (0 if it passes 2^64,
 * and for counts or kinds out of range; the rank functions then refuse). */
uint64_t sb_count_multiset(const int *count, int kinds);
uint64_t sb_rank_multiset(const uint8_t *a, int n, const int *count, int kinds);
int sb_unrank_multiset(uint64_t r, uint8_t *a, int n, const int *count, int kinds);

#endif
