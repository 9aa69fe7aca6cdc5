/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
/* The short way in: one call per puzzle family, from text to a shortest
 * solution, for a program that wants an answer and not the engines.
 *
 *   sb_easy_slide_solve     a sliding-block puzzle (SLIDING's format, a grid
 *                           picture or a Rush Hour line), any of the six
 *                           move styles: the moves as text and as data;
 *   sb_easy_npuzzle_solve   an R x C sliding-tile position;
 *   sb_easy_tetraminx_solve a Tetraminx position or scramble;
 *   sb_easy_playfair_crack  a Playfair ciphertext, given a word list.
 *
 * Each call builds what it needs and releases it before returning, so it
 * costs what the CLI's command of the same name costs (a God table of the
 * Tetraminx, tens of milliseconds; pattern databases for a 4 x 4 board,
 * seconds, unless cached).  To solve many positions, or to set a memory
 * budget, threads or a stop flag, use the module headers, which these
 * calls are built on.  Nothing here keeps state between calls, prints, or
 * exits.
 *
 * Every call returns 0 or a negative SB_E* code and fills the sb_error it
 * is given (err may be NULL): input errors name the line and column of
 * the text, as the CLI reports them.  SB_EUSAGE for a NULL pointer where
 * one is needed. */
#ifndef SBFS_EASY_H
#define SBFS_EASY_H

#include <stddef.h>
#include <stdint.h>

#include "sbfs/core.h"
#include "sbfs/npuzzle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sliding-block puzzles ---------------------------------------------- */

/* One block that a move takes along: its name and its anchor (topmost-
 * leftmost cell) before the move, rows and columns counted from 1. */
typedef struct sb_easy_block {
    char name;
    int row, col;
} sb_easy_block;

/* One move of a solution.  Every block listed moves by the same unit
 * steps, so each ends at (row + drow, col + dcol). */
typedef struct sb_easy_move {
    const char *text;           /* as `sbfs solve` writes it: "2@r2c1 down" */
    int nblocks;                /* blocks moved together: 1, or more in styles 3-5 */
    const sb_easy_block *block; /* nblocks of them */
    int drow, dcol;             /* where the steps take them, in all */
    const char *steps;          /* the unit steps, 'u' 'd' 'l' 'r', NUL-terminated */
} sb_easy_move;

/* A solution.  All its pointers are owned by it until sb_easy_slide_free. */
typedef struct sb_easy_slide {
    int length;              /* moves of a shortest solution; -1 when the stop
                                cannot be reached */
    uint64_t configurations; /* configurations the search stored */
    sb_easy_move *moves;     /* length of them (NULL when length <= 0) */
    /* The configurations from the start to the stop (length + 1 of them;
     * the start alone when there is no solution), each drawn one character
     * per cell, a row a line: the name of the block covering a cell, 0
     * empty, x blocked. */
    char **boards;
    void *own_; /* the memory behind the pointers */
} sb_easy_slide;

/* Solve text[0..len) in move style 0..5 (SLIDING's: 0 one step, 1 a
 * straight line, 2 any path of one block, 3-5 the same for sets of blocks)
 * on every core, searching from both ends when the stop is one
 * configuration.  The format is told by the first nonblank line, as the CLI
 * does.  The answer does not depend on the number of cores.  On success
 * *sol holds the solution (length -1 when there is none); on failure it
 * holds nothing to free.  Errors: the parse's SB_E* code with line and
 * column, SB_ENOMEM, SB_EUSAGE (a style outside 0..5, text or sol NULL). */
int sb_easy_slide_solve(const char *text, size_t len, int style, sb_easy_slide *sol, sb_error *err);
/* Release what a solution holds and zero it (sol may be NULL). */
void sb_easy_slide_free(sb_easy_slide *sol);

/* ---- sliding tiles -------------------------------------------------------- */

/* A shortest solution of one position, its tiles in one line ("1 2 3 4 0 5
 * 7 8 6", `0` or `x` the blank; 4, 9, 16 or 25 tiles make a square board),
 * towards goal SB_NP_BLANK_LAST or SB_NP_BLANK_FIRST (sbfs/npuzzle.h): the
 * moves of the blank in res->moves, res->length of them, -1 when the goal
 * cannot be reached.  Boards of 16 or more cells need pattern databases:
 * kept in cache_dir when it is not NULL (built there once, then mapped),
 * built in memory for this call otherwise.  Errors: SB_EINPUT naming the
 * column of a bad tile, SB_ENOMEM, SB_EUSAGE. */
int sb_easy_npuzzle_solve(const char *tiles, int goal, const char *cache_dir, sb_np_result *res,
                          sb_error *err);

/* ---- the Tetraminx ---------------------------------------------------------- */

/* An optimal solution of one position, given as a 28-letter facelet string
 * or as a scramble ("R U R' L' U R"), as `sbfs tetraminx solve` reads a
 * line: res->length moves (at most 11), res->moves[0..length) numbered as
 * in sbfs/tetraminx.h, and the same as text in res->text ("U L' B", "" for
 * the solved position).  Errors: SB_EINPUT, SB_EINVALPOS (line 1, the
 * column), SB_ENOMEM. */
typedef struct sb_easy_tetraminx {
    int length;
    uint8_t moves[11];
    char text[34];
} sb_easy_tetraminx;
int sb_easy_tetraminx_solve(const char *position, sb_easy_tetraminx *res, sb_error *err);

/* ---- Playfair --------------------------------------------------------------- */

/* Crack a ciphertext with a dictionary attack (sbfs/playfair.h, the 1999
 * Challenge's square): every word of words[0..n) is tried as the keyword,
 * and the reading with the fewest dictionary words wins.  On success
 * *keyword and *plaintext are new strings the caller frees with free()
 * (the plaintext in upper-case words separated by spaces) and *ambiguous
 * (when not NULL) says whether another reading ties.  Errors: SB_ENOTFOUND
 * (no keyword explains the text), SB_EINPUT (a word that is not all
 * letters: line = its index from 1), SB_ENOMEM; the outputs are then
 * NULL. */
int sb_easy_playfair_crack(const char *cipher, const char *const *words, size_t n, char **keyword,
                           char **plaintext, int *ambiguous, sb_error *err);

#ifdef __cplusplus
}
#endif

#endif
