/* Pictures of puzzles and their solutions: one self-contained HTML page
 * (the board drawn on a canvas, stepped through the solution by buttons, a
 * slider, the move list and the arrow keys, with a chart of configurations
 * per distance) or one board as SVG.  Each command fills a view with what
 * it knows (view_slide, view_npuzzle, view_tetraminx) and writes it; view.c
 * turns a view into the page, its data as JSON read by one script that
 * serves every puzzle.
 *
 * Two kinds of picture: a grid of cells (sliding blocks, sliding tiles),
 * where each frame says which piece covers each cell, and a net of
 * polygons (the Tetraminx's 28 facelets), where each frame says which
 * colour each polygon has.  Either way a frame is an array of indices into
 * pieces[], -1 for nothing (an empty cell). */
#ifndef SBFS_CLI_VIEW_H
#define SBFS_CLI_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "sbfs/npuzzle.h"
#include "sbfs/slide.h"
#include "sbfs/search.h"
#include "sbfs/tetraminx.h"

typedef struct view_piece {
    char name[12];  /* shown in the legend and on the board ("1", "15", "F") */
    char color[8];  /* "#rrggbb" */
} view_piece;

typedef struct view_series {
    const char *name;        /* "forward", "positions" */
    const uint64_t *values;  /* count at each distance (owned by the view) */
    int n;
} view_series;

typedef struct view {
    char title[256];
    int net;                 /* 0 grid, 1 net */
    int rows, cols;          /* grid */
    int ncells;              /* cells (grid: rows * cols) or polygons (net) */
    unsigned char *wall;     /* grid: 1 for a wall cell (ncells), may be NULL */
    unsigned char *goal;     /* grid: 1 for a cell a goal names (ncells), may be NULL */
    int npieces;
    view_piece *pieces;
    int nframes;
    short *frames;           /* nframes * ncells */
    char **moves;            /* nframes - 1 texts */
    const char *chart_title; /* NULL: no chart */
    int nseries;
    view_series series[2];
    int *chart_at;           /* per frame: series * 1024 + distance to mark, -1 none */
    double *polys;           /* net: ncells triangles, x0 y0 x1 y1 x2 y2 */
    int nghosts;
    double *ghosts;          /* net: outlines drawn empty (the missing tips) */
    double width, height;    /* net: extent of the coordinates */
    int nlabels;
    double label_xy[4][2];   /* net: where the faces' letters go */
    char label[4][4];
} view;

/* The puzzle pz drawn at its start (sl, path NULL, D 0), or the solution
 * path[0..D] (keys of sl in its style, kw words each, D + 1 of them) with
 * the level counts of srch for the chart (srch may be NULL).  0, or SB_ENOMEM / SB_EINTERNAL. */
int view_slide(view *v, const sb_slide_puzzle *pz, const sb_slide *sl, int style, int kw, const uint64_t *path,
               int D, const sb_search *srch, sb_error *err);
/* An n-puzzle p and the blank's moves (u d l r) that solve it towards goal;
 * hist[0..nhist): positions by distance from the goal for the chart (NULL:
 * none). */
int view_npuzzle(view *v, const sb_npuzzle *p, int goal, const char *moves, const uint64_t *hist, int nhist,
                 sb_error *err);
/* A Tetraminx position f and moves[0..d) (0..7) that solve it; hist as
 * above. */
int view_tetraminx(view *v, const sb_tet_facelets *f, const uint8_t *moves, int d, const uint64_t *hist,
                   int nhist, sb_error *err);
void view_free(view *v);

/* Write the page, or frame `frame` as SVG, to path ("-": standard output).
 * 0, or SB_EIO naming the path. */
int view_write_html(const view *v, const char *path, sb_error *err);
int view_write_svg(const view *v, int frame, const char *path, sb_error *err);

/* One move of a grid puzzle, structured: the pieces that move (name and
 * anchor before, rows and columns from 1) and the unit steps they take
 * together.  From a move as sb_slide_describe writes it. */
typedef struct view_move {
    int n;                  /* pieces moved */
    char name[16];
    int row[16], col[16];
    int nsteps;
    char steps[256];        /* 'u' 'd' 'l' 'r' */
    int dr, dc;             /* the whole displacement */
} view_move;
/* 0, or -1 when text is not of that form. */
int view_move_parse(const char *text, view_move *m);
/* The move as a JSON object on f: text, piece, from, to, direction
 * ("up" ... when every step goes one way, else "path"), steps, and pieces
 * when several move. */
void view_move_json(FILE *f, const char *text, const view_move *m);
/* The n-puzzle move mv (u d l r: the way the blank goes) as a JSON object
 * of the same keys: the tile that moves, from its cell to the blank's, the
 * way the tile goes.  p is moved.  0, or -1 when mv leaves the board. */
int view_np_move_json(FILE *f, sb_npuzzle *p, char mv);
/* Tetraminx move m (0..7) as a JSON object: text ("U'"), piece (the corner
 * turned), direction (clockwise or counterclockwise).  0, or -1. */
int view_tet_move_json(FILE *f, int m);
/* A JSON string on f, escaped (also '<', '>' and '&', so that it may stand
 * inside a page). */
void view_json_str(FILE *f, const char *s);

#endif
