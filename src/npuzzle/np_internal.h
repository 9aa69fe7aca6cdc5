/* Shared between the n-puzzle sources; not a public header. */
#ifndef SBFS_NP_INTERNAL_H
#define SBFS_NP_INTERNAL_H

#include "sbfs/npuzzle.h"

/* 0 when p is a position of an R x C board (2 <= R, C <= 5, n = R*C, the
 * cells a permutation of 0..n-1), else SB_EUSAGE with err (may be NULL)
 * saying what is wrong; `what` names the function for the message. */
int np_check_position(const sb_npuzzle *p, const char *what, sb_error *err);

#endif
