/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
/* sbfs: shortest solutions of combinatorial puzzles.  One header for all of
 * the public API. */
#ifndef SBFS_H
#define SBFS_H

#include "sbfs/core.h"
#include "sbfs/rank.h"
#include "sbfs/search.h"
#include "sbfs/slide.h"
#include "sbfs/table.h"
#include "sbfs/npuzzle_table.h"
#include "sbfs/tetraminx.h"
#include "sbfs/playfair.h"
#include "sbfs/playfair_challenge.h"
#include "sbfs/npuzzle.h"
#include "sbfs/easy.h"

#endif
