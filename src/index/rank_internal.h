/* Ranking helpers the library's models use but that are not part of the
 * public indexing API (sbfs/rank.h).  Not installed. */
#ifndef SBFS_RANK_INTERNAL_H
#define SBFS_RANK_INTERNAL_H

#include "sbfs/rank.h"

/* The two halves of unranking, for callers that keep the digits to update
 * a rank cheaply: the Lehmer digits of rank r (d[i] in 0..n-1-i, the rank
 * being d[0] d[1] ... d[n-1] read in radices n, n-1, ..., 1), and the
 * permutation a digit list describes (p[i] = the d[i]-th smallest item not
 * in p[0..i-1]).  sb_unrank_perm is the one after the other.  SB_EUSAGE for
 * r >= n! or a digit d[i] > n-1-i. */
int sb_perm_digits(uint64_t r, uint8_t *d, int n);
int sb_perm_from_digits(const uint8_t *d, uint8_t *p, int n);

#endif
