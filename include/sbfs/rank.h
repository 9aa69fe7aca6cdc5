/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
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

#ifdef __cplusplus
extern "C" {
#endif

/* What a rank function returns for arguments it refuses (no count of a
 * scheme reaches it). */
#define SB_RANK_BAD UINT64_MAX

/* n! for 0 <= n <= 20; n!/(n-k)! for 0 <= k <= n while it fits in 64 bits;
 * C(n, k) for 0 <= n <= 64 (0 when k < 0 or k > n).  0 for anything else. */
uint64_t sb_factorial(int n);
uint64_t sb_falling(int n, int k);
uint64_t sb_binom(int n, int k);

/* 0 for an even permutation, 1 for an odd one (n <= 32); SB_EUSAGE when p
 * is not a permutation of 0..n-1. */
int sb_perm_parity(const uint8_t *p, int n);

/* The schemes, each numbering one kind of arrangement a[] (Jaap's names):
 *
 *  SB_RANK_PERM         permutations of n <= 20 items, a[i] = the item in
 *                       place i, in lexicographic order: the identity is 0,
 *                       the reversal n!-1.  n! ranks.
 *  SB_RANK_PERM_EVEN    even permutations of 2 <= n <= 20 items: the last
 *                       two places are implied by the parity, so rank reads
 *                       a[0..n-3] only and unrank fills all n.  n!/2 ranks.
 *  SB_RANK_ORIENT       orientations of n pieces, each 0..k-1 (1 <= k <=
 *                       256): the base-k number a[0] a[1] ... a[n-1], a[0]
 *                       most significant.  k^n ranks, which must fit in
 *                       64 bits.
 *  SB_RANK_ORIENT_SUM0  orientations of n >= 1 pieces whose sum is 0 mod k:
 *                       the last is implied, so rank reads a[0..n-2] and
 *                       unrank fills a[n-1].  k^(n-1) ranks.
 *  SB_RANK_COMB         k identical pieces among n <= 64 places, a[i] = 1
 *                       when place i holds one (rank counts the nonzero
 *                       a[i], which must be k); pieces in places 0..k-1
 *                       rank to 0.  C(n, k) ranks.
 *  SB_RANK_PARTIAL      k distinct pieces among n <= 32 places, a[i] = the
 *                       place of piece i (all different); a[i] = i ranks to
 *                       0.  n!/(n-k)! ranks, which must fit in 64 bits
 *                       (pattern databases number their patterns so).
 *  SB_RANK_MULTISET     n places, a[i] = the kind of the piece in place i,
 *                       kind j appearing count[j] times (1 <= k <= 16
 *                       kinds, counts 0..64 adding up to n); sorted a ranks
 *                       to 0.  n!/(count[0]! ... count[k-1]!) ranks, which
 *                       must fit in 64 bits.
 *
 * Example: the 4 corner twists of a Tetraminx are {SB_RANK_ORIENT, 4, 3}
 * (81 ranks); its 6 edges {SB_RANK_PERM_EVEN, 6} (360) and their flips
 * {SB_RANK_ORIENT_SUM0, 6, 2} (32). */
enum {
    SB_RANK_PERM, SB_RANK_PERM_EVEN, SB_RANK_ORIENT, SB_RANK_ORIENT_SUM0,
    SB_RANK_COMB, SB_RANK_PARTIAL, SB_RANK_MULTISET
};
typedef struct sb_ranking {
    int scheme;       /* SB_RANK_* */
    int n;            /* items, pieces or places */
    int k;            /* ORIENT*: values per piece; COMB, PARTIAL: pieces;
                         MULTISET: kinds; unused otherwise */
    const int *count; /* MULTISET: count[0..k) */
} sb_ranking;

/* How many ranks s has: 0 for a scheme or sizes out of the ranges above
 * (or s NULL), which rank and unrank then refuse. */
uint64_t sb_rank_count(const sb_ranking *s);
/* The rank of a under s, or SB_RANK_BAD. */
uint64_t sb_rank(const sb_ranking *s, const uint8_t *a);
/* The arrangement of rank r into a: 0, or SB_EUSAGE (a not written). */
int sb_unrank(const sb_ranking *s, uint64_t r, uint8_t *a);

#ifdef __cplusplus
}
#endif

#endif
