/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
/* Sliding-block puzzles in Knuth's SLIDING format: the puzzle as read, the
 * model the search engine explores (canonical keys, the six move styles),
 * and the text forms of boards and moves.
 *
 * Vocabulary.  A *kind* is a piece pattern with a name 1..9, a..f; a *block*
 * is one piece of some kind on the board; its *anchor* is its topmost-
 * leftmost cell.  Blocks of one kind are interchangeable, so a configuration
 * is the set of (anchor, kind) pairs, and its key lists exactly that.
 * Cells are numbered 0..rows*cols-1 row by row.
 *
 * Every function checks its pointers, its goal numbers and that the
 * sb_slide it gets was made by sb_slide_new (the sb_slide_puzzle, that
 * it has the shape sb_slide_parse gives): SB_EUSAGE, or the value its
 * comment names, instead of reading or writing out of bounds.  Keys are
 * not checked beyond that: a key the model did not make may give wrong
 * neighbours, never a write out of bounds. */
#ifndef SBFS_SLIDE_H
#define SBFS_SLIDE_H

#include <stddef.h>
#include <stdint.h>

#include "sbfs/core.h"
#include "sbfs/search.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SB_SLIDE_MAXCELLS 256 /* SLIDING's own limit on rows * cols */
#define SB_SLIDE_MAXW 4       /* 64-bit words in a set of cells */
#define SB_SLIDE_MAXKW 24     /* 64-bit words in a key: 256 + 256 * 4 bits fit */
#define SB_SLIDE_MAXLINE 1022 /* characters in an input line (SLIDING's buffer) */
#define SB_SLIDE_MAXWARN 8

typedef struct sb_slide_kind {
    int defined;          /* 1 once a pattern was read for this name */
    int line;             /* where it was defined */
    int n;                /* cells in the pattern */
    int rmax, cmin, cmax; /* bounding box relative to the anchor (rmin = 0) */
    char axis;            /* 0: slides any way; 'h': left and right only; 'v': up and
                             down only (a Rush Hour car: `N = 11 h`) */
    short dr[SB_SLIDE_MAXCELLS], dc[SB_SLIDE_MAXCELLS]; /* cell offsets, [0] = (0,0) */
} sb_slide_kind;

#define SB_SLIDE_MAXGOALS 32 /* stop lines in one puzzle */

/* One stop line (docs/FORMAT.md, "Goals").  A configuration matches it when
 * every block the line names is there (a block of that kind anchored at
 * that cell), every cell the line makes empty is empty, and the cells left
 * free ('.' and '*') hold anything.  The masks are the same facts as sets of
 * cells, for the goal test on keys (src/slide/goal.c). */
typedef struct sb_slide_goal {
    int line;                                /* input line of the stop line */
    int full;                                /* 1: no '.' nor '*': one whole configuration */
    int nnamed;                              /* blocks the line names */
    unsigned char anchors[SB_SLIDE_MAXCELLS]; /* kind value anchored at each cell, 0 none */
    unsigned char free[SB_SLIDE_MAXCELLS];    /* 1: the cell may hold anything */
    uint64_t need[SB_SLIDE_MAXW];   /* cells where a named block is anchored */
    uint64_t empty[SB_SLIDE_MAXW];  /* cells that must be empty (never x cells) */
    uint64_t risky[SB_SLIDE_MAXW];  /* other anchors from which a block of some kind
                                       of the start would cover an empty cell */
} sb_slide_goal;

/* A puzzle as read.  kind[] is indexed by the name's value 1..15; start[]
 * and stop[] give, per cell, the value of the kind anchored there (0 none).
 * stop[] is the first stop line's named blocks: the whole stopping
 * configuration when goal_full, only part of a goal otherwise. */
typedef struct sb_slide_puzzle {
    int rows, cols, ncells;
    char title[SB_SLIDE_MAXLINE + 1];   /* rest of the first line, trimmed */
    sb_slide_kind kind[16];
    unsigned char xcell[SB_SLIDE_MAXCELLS];  /* 1 = permanently blocked */
    unsigned char start[SB_SLIDE_MAXCELLS];
    unsigned char stop[SB_SLIDE_MAXCELLS];
    int nblocks;                        /* blocks in each configuration */
    int nwarn;                          /* redefinitions seen (warnings) */
    sb_error warn[SB_SLIDE_MAXWARN];
    char warn_name[SB_SLIDE_MAXWARN];   /* the piece each warning is about */
    int ngoals;                         /* stop lines, 1..SB_SLIDE_MAXGOALS */
    int goal_full;                      /* 1: one stop line naming a whole configuration
                                           (stop[]), so "the goal" is a single key */
    sb_slide_goal goal[SB_SLIDE_MAXGOALS];
} sb_slide_puzzle;

/* Read a puzzle from text[0..len).  On error returns the SB_E* code of the
 * case (docs/FORMAT.md) with err naming line and column.  Redefining a
 * piece is not an error: the later definition is ignored and a warning is
 * kept in pz->warn.  SB_EUSAGE: pz NULL, or text NULL with len > 0. */
int sb_slide_parse(sb_slide_puzzle *pz, const char *text, size_t len, sb_error *err);
/* The same, line by line from a source: next(ud, &s, &n, err) gives the
 * next line (s[0..n), without its newline; it may be cut short past
 * SB_SLIDE_MAXLINE + 1 characters, which is an error anyway) and returns
 * 1, or 0 at the end, or a negative SB_E* code with err filled.  The
 * line stays valid until the next call.  A reader needs no more memory
 * than one line, however long the input (blank lines are skipped). */
typedef int (*sb_line_fn)(void *ud, const char **s, size_t *n, sb_error *err);
int sb_slide_parse_lines(sb_slide_puzzle *pz, sb_line_fn next, void *ud, sb_error *err);

/* Name character of a kind value 0..15 ('?' for any other value). */
char sb_slide_name(int value);

/* ---- other ways to write a puzzle ------------------------------------------ */

/* Puzzle formats (docs/FORMAT.md): SLIDING's; a grid, the board drawn one
 * character per cell (first line `grid`); Rush Hour's one-line 6 x 6
 * notation (36 characters A..Z, o, x).  AUTO: whichever the first
 * nonblank line says. */
enum { SB_SLIDE_AUTO, SB_SLIDE_SLIDING, SB_SLIDE_GRID, SB_SLIDE_RUSH };
/* The format a puzzle's first nonblank line line[0..n) announces
 * (SB_SLIDE_SLIDING when it is neither of the others). */
int sb_slide_detect(const char *line, size_t n);
/* Convert text[0..len) from format `from` (or AUTO) to SB_SLIDE_SLIDING or
 * SB_SLIDE_GRID (a Rush Hour line converts to either; the same format is
 * copied).  *out is a NUL-terminated text the caller frees with free(),
 * *outlen (when not NULL) its length.  Errors name line and column of the
 * input: the SB_E* code of the case, SB_ENOMEM, SB_EUSAGE for bad
 * arguments. */
int sb_slide_convert(const char *text, size_t len, int from, int to, char **out, size_t *outlen,
                     sb_error *err);

/* ---- the model ---------------------------------------------------------- */

/* The model of a puzzle: its kinds, its key layout and the tables of its
 * moves.  Opaque; sb_slide_new makes one, sb_slide_free (which accepts
 * NULL) releases it. */
typedef struct sb_slide sb_slide;

/* The model of pz for moves of the given style (0..5), into *sl; its tables
 * are charged to mem (NULL: no budget).  pz must outlive the model.
 * SB_EUSAGE: sl NULL, pz NULL or not parsed, a bad style; SB_ENOMEM; *sl is
 * NULL on failure. */
int sb_slide_new(sb_slide **sl, const sb_slide_puzzle *pz, int style, sb_mem *mem, sb_error *err);
void sb_slide_free(sb_slide *sl);

/* The sb_keymodel the search engines take (ud = sl; m->key_words is the
 * key width every key of this model has).  When the goal is not one whole
 * configuration (!pz->goal_full) it sets m->is_goal; otherwise is_goal is
 * NULL and the goal is the key sb_slide_key(sl, SB_SLIDE_STOP).  To walk
 * the whole component of the start, clear m->is_goal and give the engine
 * no goal key.
 *
 * With SB_SLIDE_HINTS in flags, the model carries hints for the
 * sorted-level engine when sl has room for them: style 0 on a board of up
 * to 64 cells, with 4 bits left in a one-word key per empty cell named (m
 * is the plain model otherwise).  A hint names the move that undoes the
 * one just made, so that it is not listed again: bit 4r + d of the hints
 * of a configuration says that the block entering its r-th empty cell (in
 * cell order) by a step in direction d (right, left, down, up) goes back
 * to a configuration one nearer the start.  Only one block can enter a
 * given empty cell in a given direction, so that names one move.
 *
 * 0, or SB_EUSAGE for m NULL or sl not set up (m is then zeroed when it
 * is not NULL). */
enum { SB_SLIDE_HINTS = 1 };
int sb_slide_model(const sb_slide *sl, unsigned flags, sb_keymodel *m);

/* The key of the start (SB_SLIDE_START) or of the first stop line's named
 * blocks (SB_SLIDE_STOP: the goal when pz->goal_full), key_words words;
 * NULL for sl NULL or another `which`. */
enum { SB_SLIDE_START = 0, SB_SLIDE_STOP = 1 };
const uint64_t *sb_slide_key(const sb_slide *sl, int which);

/* The configuration of a key as anchors: anchors[c] (c < SB_SLIDE_MAXCELLS)
 * is the value of the kind anchored at cell c, 0 for none.  Blocks of one
 * kind are interchangeable, so the key is the same for any order of them.
 * 0, or SB_EUSAGE for a NULL pointer. */
int sb_slide_unpack(const sb_slide *sl, const uint64_t *key, unsigned char *anchors);

/* Describe the move that takes configuration `from` to `to` (neighbours in
 * the model's style) as "P@rRcC [P@rRcC ...] DIR [DIR ...]": the blocks moved, by
 * name and anchor before the move (rows and columns from 1), then the unit
 * steps they take together, each left, right, up or down.  Returns 0 or
 * SB_EINTERNAL when the two are not neighbours; SB_EUSAGE for a NULL
 * pointer or size 0. */
int sb_slide_describe(const sb_slide *sl, const uint64_t *from, const uint64_t *to, char *buf,
                      size_t size, sb_error *err);

/* ---- text forms ----------------------------------------------------------- */

/* A configuration of sl drawn into buf, NUL-terminated, in one of three
 * forms:
 *  SB_SLIDE_BOARD      as SLIDING draws it: two lines per row, each two
 *                      characters per cell.  The first line of a pair shows
 *                      `|` under a cell joined to the cell above by one
 *                      block; the second the names (`0` empty, blank for x)
 *                      with `-` joining a cell to its left neighbour in one
 *                      block.  Lines end with '\n'.  SB_SLIDE_BOARD_MAX
 *                      bytes hold it on any board.
 *  SB_SLIDE_SHORTHAND  SLIDING's shorthand without the x cells and without
 *                      trailing zeros (how SLIDING lists configurations);
 *                      ncells + 1 bytes.
 *  SB_SLIDE_CELLS      rows of one character per cell: the name of the
 *                      piece that covers it, 0 empty, x blocked; each row
 *                      ends with '\n'; ncells + rows + 1 bytes
 *                      (SB_SLIDE_CELLS_MAX on any board).
 * 0, or SB_EUSAGE (buf not written) for a NULL pointer, sl not set up or
 * another form. */
enum { SB_SLIDE_BOARD = 0, SB_SLIDE_SHORTHAND = 1, SB_SLIDE_CELLS = 2 };
#define SB_SLIDE_BOARD_MAX (4 * SB_SLIDE_MAXCELLS + 2 * SB_SLIDE_MAXCELLS + 1)
#define SB_SLIDE_CELLS_MAX (2 * SB_SLIDE_MAXCELLS + 1)
int sb_slide_draw(const sb_slide *sl, const uint64_t *key, int form, char *buf);
/* Stop line g of pz drawn as SB_SLIDE_BOARD draws a board, with `.` as
 * the name of every cell the line leaves free (x cells stay blank).  0, or
 * SB_EUSAGE (buf not written) for a NULL pointer, a pz not parsed or g out
 * of range. */
int sb_slide_goal_text(const sb_slide_puzzle *pz, int g, char *buf);

#ifdef __cplusplus
}
#endif

#endif
