/* The ranking schemes one function each, as the library's models call
 * them (no scheme to dispatch on in their inner loops), and the halves of
 * unranking a permutation.  sbfs/rank.h offers the same schemes through
 * sb_rank / sb_unrank, with the conventions stated there.  Not installed. */
#ifndef SBFS_RANK_INTERNAL_H
#define SBFS_RANK_INTERNAL_H

#include "sbfs/rank.h"

/* Permutations of n <= 20 items, p[i] = item in place i.  Lexicographic
 * order: the identity is 0, the reversal n!-1. */
uint64_t sb_rank_perm(const uint8_t *p, int n);
int sb_unrank_perm(uint64_t r, uint8_t *p, int n);

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

/* The two halves of unranking, for callers that keep the digits to update
 * a rank cheaply: the Lehmer digits of rank r (d[i] in 0..n-1-i, the rank
 * being d[0] d[1] ... d[n-1] read in radices n, n-1, ..., 1), and the
 * permutation a digit list describes (p[i] = the d[i]-th smallest item not
 * in p[0..i-1]).  sb_unrank_perm is the one after the other.  SB_EUSAGE for
 * r >= n! or a digit d[i] > n-1-i. */
int sb_perm_digits(uint64_t r, uint8_t *d, int n);
int sb_perm_from_digits(const uint8_t *d, uint8_t *p, int n);

#endif
