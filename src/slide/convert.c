/* Puzzles written as pictures (the grid format) and Rush Hour's one-line
 * notation, turned into SLIDING's format, and SLIDING's format turned into
 * a grid (docs/FORMAT.md, "Grids" and "Rush Hour").
 *
 *   grid Klotski              the word grid, then any title
 *   ABBC                      the start: one character per cell, the same
 *   ABBC                      letter for the cells of one block, `.` empty,
 *   DEEF                      `#` or `x` a wall
 *   DGHF
 *   I..J
 *   goal:                     a goal: a picture of the same size where `?`
 *   ????                      is any content (several goal: pictures: any
 *   ????                      of them will do)
 *   ????
 *   ?BB?
 *   ?BB?
 *   same: ACDF                letters whose blocks are interchangeable
 *   same: GHIJ
 *   h: ...                    blocks that slide only across (v: up and down)
 *
 * Every line with a colon is a keyword line, which no picture row can be
 * (rows hold no colon and no blank), so the pictures need no sizes.
 *
 * A picture becomes SLIDING's text by naming kinds: the letters of one
 * `same:` line are one kind, every other letter a kind of its own, named
 * 1..9, a..f in the order their first blocks come in reading order; a
 * block's pattern is its cells relative to its topmost-leftmost cell.  The
 * start and each goal are then written in SLIDING's shorthand: the cells
 * in reading order, skipping those covered by a block already named, each
 * a kind name (a block's first cell), 0 (empty), x (wall) or, in a goal,
 * `.` (any).  The reverse gives the blocks letters in reading order
 * (A..Z, a..z without x, 0..9), the i-th block of a kind in a goal the
 * kind's i-th letter.  So the two forms a conversion writes convert into
 * each other exactly (tests/test_convert.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbfs/slide.h"
#include "../core/internal.h"

#define MAXC SB_SLIDE_MAXCELLS
#define MAXG SB_SLIDE_MAXGOALS

/* ---- a growing output text ---------------------------------------------- */

typedef struct text {
    char *s;
    size_t n, cap;
    int oom;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = t->cap - t->n;
        va_start(ap, fmt);
        int k = t->oom ? 0 : vsnprintf(t->s ? t->s + t->n : NULL, room, fmt, ap);
        va_end(ap);
        if (t->oom || k < 0)
            return;
        if ((size_t)k < room) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = (t->cap + (size_t)k + 1) * 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->oom = 1;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

/* ---- lines of the input -------------------------------------------------- */

typedef struct lines {
    const char *p, *end;
    int line;
} lines;

/* The next line, trailing blanks and carriage returns cut; 0 at the end,
 * -1 (err set) for a line that is too long. */
static int next(lines *r, const char **s, size_t *n, sb_error *err)
{
    if (r->p >= r->end)
        return 0;
    const char *e = memchr(r->p, '\n', (size_t)(r->end - r->p));
    if (!e)
        e = r->end;
    *s = r->p;
    *n = (size_t)(e - r->p);
    r->p = e < r->end ? e + 1 : e;
    r->line++;
    if (*n > SB_SLIDE_MAXLINE)
        return sb_error_set(err, SB_ELONGLINE, r->line, SB_SLIDE_MAXLINE + 1, "line longer than %d characters",
                            SB_SLIDE_MAXLINE);
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' || (*s)[*n - 1] == '\r'))
        (*n)--;
    return 1;
}

static int is_letter(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z' && c != 'x') || (c >= '0' && c <= '9');
}

/* The letters blocks get, in order. */
static const char LETTERS[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwyz0123456789";

int sb_slide_detect(const char *line, size_t n)
{
    if (!line)
        return SB_SLIDE_SLIDING;
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
        n--;
    if (n >= 4 && !memcmp(line, "grid", 4) && (n == 4 || line[4] == ' ' || line[4] == '\t'))
        return SB_SLIDE_GRID;
    if (n >= 36 && (n == 36 || line[36] == ' ' || line[36] == '\t')) {
        int ok = 1, red = 0;
        for (int i = 0; i < 36 && ok; i++) {
            ok = (line[i] >= 'A' && line[i] <= 'Z') || line[i] == 'o' || line[i] == '.' || line[i] == 'x';
            red += line[i] == 'A';
        }
        if (ok && red)
            return SB_SLIDE_RUSH;
    }
    return SB_SLIDE_SLIDING;
}

/* ---- the grid, read ------------------------------------------------------ */

typedef struct pic {
    int line; /* of the keyword (goals) or the first row */
    int rows, cols;
    char cell[MAXC];
    int ln[MAXC], col[MAXC]; /* where each cell was written */
} pic;

typedef struct grid {
    char title[SB_SLIDE_MAXLINE + 1];
    pic start;
    int ngoals;
    pic goal[MAXG];
    /* per letter (a byte value): its group (the first letter of its
     * same: line, or itself), its axis, where the legend named it */
    unsigned char group[128];
    char axis[128];
    int sline[128], lline[128], lcol[128];
    int kind[128]; /* kind value 1..15 of each letter's group */
} grid;

static int add_row(pic *p, const char *s, size_t n, int line, int in_goal, sb_error *err)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!is_letter(c) && c != '.' && c != '#' && c != 'x' && !(in_goal && c == '?')) {
            char q[8];
            return sb_error_set(err, SB_EBADCHAR, line, (int)i + 1,
                                "illegal character '%s' in a picture (use letters, digits, ., # or x%s)",
                                sb_error_quote(q, sizeof q, s + i, 1), in_goal ? ", ?" : "");
        }
    }
    if (!p->rows) {
        p->cols = (int)n;
        if (!p->line)
            p->line = line;
    } else if ((int)n != p->cols) {
        return sb_error_set(err, SB_EINPUT, line, (int)n < p->cols ? (int)n + 1 : p->cols + 1,
                            "this row has %d cells, the picture's first row %d", (int)n, p->cols);
    }
    if ((p->rows + 1) * p->cols > MAXC)
        return sb_error_set(err, SB_EBIGBOARD, line, 1, "the picture has more than %d cells", MAXC);
    for (size_t i = 0; i < n; i++) {
        int j = p->rows * p->cols + (int)i;
        p->cell[j] = s[i] == 'x' ? '#' : s[i];
        p->ln[j] = line;
        p->col[j] = (int)i + 1;
    }
    p->rows++;
    return 0;
}

/* A legend line: same:, h: or v: and letters (blanks between them are
 * allowed). */
static int legend(grid *g, const char *s, size_t n, size_t colon, int line, sb_error *err)
{
    int kw = colon == 4 && !memcmp(s, "same", 4) ? 's'
             : colon == 1 && (s[0] == 'h' || s[0] == 'v') ? s[0]
                                                           : 0;
    if (!kw)
        return sb_error_set(err, SB_EINPUT, line, 1,
                            "unknown keyword '%.*s': use goal:, same:, h: or v:", (int)(colon < 20 ? colon : 20), s);
    int first = 0;
    for (size_t i = colon + 1; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\t')
            continue;
        if (!is_letter(c)) {
            char q[8];
            return sb_error_set(err, SB_EBADCHAR, line, (int)i + 1, "'%s' is not a block's letter",
                                sb_error_quote(q, sizeof q, s + i, 1));
        }
        if (kw == 's') {
            if (g->sline[c])
                return sb_error_set(err, SB_EINPUT, line, (int)i + 1, "%c is in a same: line already (line %d)",
                                    c, g->sline[c]);
            if (!first)
                first = c;
            g->group[c] = (unsigned char)first;
            g->sline[c] = line;
            g->lline[c] = line;
            g->lcol[c] = (int)i + 1;
        } else {
            if (g->axis[c] && g->axis[c] != kw)
                return sb_error_set(err, SB_EINPUT, line, (int)i + 1, "%c is in both h: and v:", c);
            g->axis[c] = (char)kw;
            if (!g->lline[c]) {
                g->lline[c] = line;
                g->lcol[c] = (int)i + 1;
            }
        }
    }
    return 0;
}

static int read_grid(grid *g, const char *txt, size_t len, sb_error *err)
{
    lines r = {txt, txt + len, 0};
    const char *s;
    size_t n;
    int rc, where = 0; /* 0 start, 1 goal, 2 legend */
    pic *cur = &g->start;
    memset(g, 0, sizeof *g);
    for (int c = 0; c < 128; c++)
        g->group[c] = (unsigned char)c;
    while ((rc = next(&r, &s, &n, err)) > 0 && !n)
        ;
    if (rc < 0)
        return rc;
    if (!rc || sb_slide_detect(s, n) != SB_SLIDE_GRID)
        return sb_error_set(err, SB_EBADSIZE, r.line ? r.line : 1, 1, "a grid starts with the word grid");
    size_t t = 4;
    while (t < n && (s[t] == ' ' || s[t] == '\t'))
        t++;
    memcpy(g->title, s + t, n - t);
    g->title[n - t] = 0;
    while ((rc = next(&r, &s, &n, err)) > 0) {
        if (!n)
            continue;
        const char *colon = memchr(s, ':', n);
        if (colon) {
            size_t at = (size_t)(colon - s);
            if (at == 4 && !memcmp(s, "goal", 4)) {
                for (size_t i = at + 1; i < n; i++)
                    if (s[i] != ' ' && s[i] != '\t')
                        return sb_error_set(err, SB_EINPUT, r.line, (int)i + 1,
                                            "goal: stands alone on its line; the picture follows");
                if (g->ngoals == MAXG)
                    return sb_error_set(err, SB_EBIGBOARD, r.line, 1, "more than %d goals", MAXG);
                if (!g->start.rows)
                    return sb_error_set(err, SB_EMISSING, r.line, 1, "the start picture is missing");
                cur = &g->goal[g->ngoals++];
                cur->line = r.line;
                where = 1;
            } else {
                if ((rc = legend(g, s, n, at, r.line, err)))
                    return rc;
                where = 2;
            }
            continue;
        }
        if (where == 2)
            return sb_error_set(err, SB_EINPUT, r.line, 1,
                                "a picture row after the legend (begin a goal with goal:)");
        if ((rc = add_row(cur, s, n, r.line, where == 1, err)))
            return rc;
    }
    if (rc < 0)
        return rc;
    if (!g->start.rows)
        return sb_error_set(err, SB_EMISSING, r.line + 1, 1, "the start picture is missing");
    if (!g->ngoals)
        return sb_error_set(err, SB_EMISSING, r.line + 1, 1, "no goal: add goal: and a picture of the goal");
    for (int k = 0; k < g->ngoals; k++) {
        pic *p = &g->goal[k];
        if (!p->rows)
            return sb_error_set(err, SB_EMISSING, p->line, 1, "the goal has no picture");
        if (p->rows != g->start.rows || p->cols != g->start.cols)
            return sb_error_set(err, SB_EMISMATCH, p->line + 1, 1, "the goal is %d x %d, the start %d x %d",
                                p->rows, p->cols, g->start.rows, g->start.cols);
    }
    return 0;
}

/* The blocks of picture p as (letter -> anchor, offsets); letters[] gets
 * the letters in the order of their anchors. */
typedef struct blocks {
    int n[128], anchor[128];
    short dr[128][MAXC], dc[128][MAXC];
    int nl;
    unsigned char letters[128];
} blocks;

static void find_blocks(const pic *p, blocks *b)
{
    b->nl = 0;
    for (int c = 0; c < 128; c++)
        b->n[c] = 0;
    for (int j = 0; j < p->rows * p->cols; j++) {
        unsigned char c = (unsigned char)p->cell[j];
        if (!is_letter(c))
            continue;
        if (!b->n[c]) {
            b->anchor[c] = j;
            b->letters[b->nl++] = c;
        }
        int a = b->anchor[c];
        b->dr[c][b->n[c]] = (short)(j / p->cols - a / p->cols);
        b->dc[c][b->n[c]] = (short)(j % p->cols - a % p->cols);
        b->n[c]++;
    }
}

static int same_shape(const blocks *a, int ca, const blocks *b, int cb)
{
    if (a->n[ca] != b->n[cb])
        return 0;
    for (int t = 0; t < a->n[ca]; t++)
        if (a->dr[ca][t] != b->dr[cb][t] || a->dc[ca][t] != b->dc[cb][t])
            return 0;
    return 1;
}

/* The picture p in SLIDING's shorthand (kind names from g->kind). */
static void shorthand(const grid *g, const pic *p, const blocks *b, text *out)
{
    unsigned char covered[MAXC] = {0};
    char line[MAXC + 2];
    int len = 0, N = p->rows * p->cols;
    for (int j = 0; j < N; j++) {
        if (covered[j])
            continue;
        unsigned char c = (unsigned char)p->cell[j];
        if (is_letter(c)) {
            line[len++] = sb_slide_name(g->kind[c]);
            for (int t = 0; t < b->n[c]; t++)
                covered[(j / p->cols + b->dr[c][t]) * p->cols + j % p->cols + b->dc[c][t]] = 1;
        } else {
            line[len++] = c == '.' ? '0' : c == '#' ? 'x' : '.';
        }
    }
    /* cells after the line are empty: trailing zeros go; trailing free
     * cells are all the cells left, which is what a final * says */
    if (len && line[len - 1] == '.') {
        while (len && line[len - 1] == '.')
            len--;
        line[len++] = '*';
    } else {
        while (len && line[len - 1] == '0')
            len--;
    }
    line[len] = 0;
    put(out, "%s\n", line);
}

static int grid_to_sliding(const char *txt, size_t len, text *out, sb_error *err)
{
    grid *g = malloc(sizeof *g);
    blocks *b = malloc(sizeof *b), *gb = malloc(sizeof *gb);
    int rc = 0;
    if (!g || !b || !gb) {
        rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        goto done;
    }
    if ((rc = read_grid(g, txt, len, err)))
        goto done;
    const pic *st = &g->start;
    find_blocks(st, b);
    if (!b->nl) {
        rc = sb_error_set(err, SB_ENOPIECES, st->line, 1, "the start picture has no blocks");
        goto done;
    }
    /* the legend against the start */
    for (int c = 0; c < 128; c++) {
        if (!g->lline[c])
            continue;
        if (!b->n[c]) {
            rc = sb_error_set(err, SB_EMISMATCH, g->lline[c], g->lcol[c], "%c is not a block of the start", c);
            goto done;
        }
        int f = g->group[c];
        if (!same_shape(b, c, b, f)) {
            rc = sb_error_set(err, SB_EMISMATCH, g->lline[c], g->lcol[c],
                              "%c and %c are not the same shape, so they cannot be interchangeable", f, c);
            goto done;
        }
    }
    for (int c = 0; c < 128; c++)
        if (b->n[c] && g->axis[c] != g->axis[g->group[c]]) {
            int at = g->axis[c] ? c : g->group[c];
            rc = sb_error_set(err, SB_EMISMATCH, g->lline[at], g->lcol[at],
                              "%c and %c are interchangeable but only one slides on one axis", g->group[c], c);
            goto done;
        }
    /* kinds in the order of their first blocks */
    int nk = 0, count[16] = {0};
    char first[16];
    for (int i = 0; i < b->nl; i++) {
        int c = b->letters[i], f = g->group[c];
        if (!g->kind[f]) {
            if (nk == 15) {
                rc = sb_error_set(err, SB_EPIECENAME, st->ln[b->anchor[c]], st->col[b->anchor[c]],
                                  "more than 15 kinds of block (SLIDING names them 1..9, a..f): "
                                  "say which are interchangeable with same:");
                goto done;
            }
            g->kind[f] = ++nk;
            first[nk] = (char)c;
        }
        g->kind[c] = g->kind[f];
        count[g->kind[c]]++;
    }
    /* the goals against the start */
    for (int k = 0; k < g->ngoals; k++) {
        const pic *p = &g->goal[k];
        int any = 0, have[16] = {0};
        find_blocks(p, gb);
        for (int j = 0; j < p->rows * p->cols; j++) {
            char c = p->cell[j];
            any |= c == '?';
            if (c == '#' && st->cell[j] != '#') {
                rc = sb_error_set(err, SB_EMISMATCH, p->ln[j], p->col[j], "a wall in the goal where the start has none");
                goto done;
            }
            if (c != '#' && c != '?' && st->cell[j] == '#') {
                rc = sb_error_set(err, SB_EMISMATCH, p->ln[j], p->col[j],
                                  "the start has a wall here: write # or ?");
                goto done;
            }
        }
        for (int i = 0; i < gb->nl; i++) {
            int c = gb->letters[i], a = gb->anchor[c];
            if (!b->n[c]) {
                rc = sb_error_set(err, SB_EMISMATCH, p->ln[a], p->col[a], "%c is not a block of the start", c);
                goto done;
            }
            if (!same_shape(gb, c, b, c)) {
                rc = sb_error_set(err, SB_EMISMATCH, p->ln[a], p->col[a],
                                  "%c has another shape here than in the start", c);
                goto done;
            }
            have[g->kind[c]]++;
        }
        if (!any)
            for (int v = 1; v <= nk; v++)
                if (have[v] != count[v]) {
                    rc = sb_error_set(err, SB_EMISMATCH, p->line, 1,
                                      "a goal without ? shows every block, and %c is missing", first[v]);
                    goto done;
                }
    }
    /* the text */
    put(out, "%d x %d%s%s\n", st->rows, st->cols, g->title[0] ? " " : "", g->title);
    for (int v = 1; v <= nk; v++) {
        int c = first[v], rmax = 0;
        for (int t = 0; t < b->n[c]; t++)
            rmax = b->dr[c][t] > rmax ? b->dr[c][t] : rmax;
        int cmin = 0;
        for (int t = 0; t < b->n[c]; t++)
            cmin = b->dc[c][t] < cmin ? b->dc[c][t] : cmin;
        put(out, "%c = ", sb_slide_name(v));
        for (int r = 0; r <= rmax; r++) {
            char row[MAXC + 1];
            int w = 0;
            for (int t = 0; t < b->n[c]; t++)
                if (b->dr[c][t] == r) {
                    int at = b->dc[c][t] - cmin;
                    while (w <= at)
                        row[w++] = '0';
                    row[at] = '1';
                }
            row[w] = 0;
            put(out, "%s%s", r ? "/" : "", row);
        }
        put(out, "%s\n", g->axis[c] == 'h' ? " h" : g->axis[c] == 'v' ? " v" : "");
    }
    shorthand(g, st, b, out);
    for (int k = 0; k < g->ngoals; k++) {
        find_blocks(&g->goal[k], gb);
        shorthand(g, &g->goal[k], gb, out);
    }
done:
    free(g);
    free(b);
    free(gb);
    return rc;
}

/* ---- SLIDING's format as a grid ------------------------------------------ */

static void draw_block(char *cells, const sb_slide_puzzle *pz, int a, int v, char letter)
{
    const sb_slide_kind *k = &pz->kind[v];
    for (int t = 0; t < k->n; t++)
        cells[(a / pz->cols + k->dr[t]) * pz->cols + a % pz->cols + k->dc[t]] = letter;
}

static void put_cells(text *out, const sb_slide_puzzle *pz, const char *cells)
{
    for (int r = 0; r < pz->rows; r++)
        put(out, "%.*s\n", pz->cols, cells + r * pz->cols);
}

static int sliding_to_grid(const char *txt, size_t len, text *out, sb_error *err)
{
    sb_slide_puzzle *pz = malloc(sizeof *pz);
    int rc;
    if (!pz)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    if ((rc = sb_slide_parse(pz, txt, len, err)))
        goto done;
    char cells[MAXC], letters[16][sizeof LETTERS];
    int nl[16] = {0}, used = 0, N = pz->ncells, kind_of[sizeof LETTERS];
    for (int j = 0; j < N; j++)
        cells[j] = pz->xcell[j] ? '#' : '.';
    for (int j = 0; j < N; j++) {
        int v = pz->start[j];
        if (!v)
            continue;
        if (used == (int)sizeof LETTERS - 1) {
            rc = sb_error_set(err, SB_EBIGBOARD, 0, 0, "more than %d blocks: a grid has no letters for them",
                              (int)sizeof LETTERS - 1);
            goto done;
        }
        letters[v][nl[v]++] = LETTERS[used];
        kind_of[used] = v;
        draw_block(cells, pz, j, v, LETTERS[used++]);
    }
    put(out, "grid%s%s\n", pz->title[0] ? " " : "", pz->title);
    put_cells(out, pz, cells);
    for (int g = 0; g < pz->ngoals; g++) {
        const sb_slide_goal *gl = &pz->goal[g];
        int next_of[16] = {0};
        for (int j = 0; j < N; j++)
            cells[j] = gl->free[j] ? '?' : pz->xcell[j] ? '#' : '.';
        for (int j = 0; j < N; j++) {
            int v = gl->anchors[j];
            if (v)
                draw_block(cells, pz, j, v, letters[v][next_of[v]++]);
        }
        put(out, "goal:\n");
        put_cells(out, pz, cells);
    }
    /* the legend in the order of the letters (of first appearance), so
     * that the grid does not depend on how the kinds were numbered */
    for (int i = 0; i < used; i++) {
        int v = kind_of[i];
        if (nl[v] > 1 && letters[v][0] == LETTERS[i])
            put(out, "same: %.*s\n", nl[v], letters[v]);
    }
    for (int ax = 0; ax < 2; ax++) {
        char which = ax ? 'v' : 'h', line[sizeof LETTERS];
        int n = 0;
        for (int i = 0; i < used; i++)
            if (pz->kind[kind_of[i]].axis == which)
                line[n++] = LETTERS[i];
        if (n)
            put(out, "%c: %.*s\n", which, n, line);
    }
done:
    free(pz);
    return rc;
}

/* ---- Rush Hour ----------------------------------------------------------- */

/* The 36 characters as a grid: the letters kept, o and . empty, x a wall;
 * the cars of one length and direction interchangeable (not A, the red
 * car), each locked to its direction; the goal A at the right edge of the
 * third row. */
static int rush_to_grid(const char *txt, size_t len, text *out, sb_error *err)
{
    lines r = {txt, txt + len, 0};
    const char *s;
    size_t n;
    int rc;
    while ((rc = next(&r, &s, &n, err)) > 0 && !n)
        ;
    if (rc < 0)
        return rc;
    if (!rc || sb_slide_detect(s, n) != SB_SLIDE_RUSH)
        return sb_error_set(err, SB_EBADSIZE, r.line ? r.line : 1, 1,
                            "a Rush Hour position is one line of 36 characters (A..Z, o, x)");
    int line = r.line;
    char cells[36];
    int cnt[128] = {0}, first[128], last[128];
    for (int i = 0; i < 36; i++) {
        unsigned char c = (unsigned char)s[i];
        cells[i] = c == 'o' || c == '.' ? '.' : c == 'x' ? '#' : (char)c;
        if (cells[i] == '.' || cells[i] == '#')
            continue;
        if (!cnt[c])
            first[c] = i;
        last[c] = i;
        cnt[c]++;
    }
    /* each car a straight run of 2 or more cells */
    char axis[128] = {0};
    for (int c = 'A'; c <= 'Z'; c++) {
        if (!cnt[c])
            continue;
        int f = first[c], l = last[c];
        if (cnt[c] >= 2 && f / 6 == l / 6 && l - f == cnt[c] - 1)
            axis[c] = 'h';
        else if (cnt[c] >= 2 && f % 6 == l % 6 && l - f == 6 * (cnt[c] - 1))
            axis[c] = 'v';
        else
            return sb_error_set(err, SB_EINPUT, line, f + 1,
                                "car %c is not a straight run of 2 or more cells", c);
    }
    if (axis['A'] != 'h' || first['A'] / 6 != 2)
        return sb_error_set(err, SB_EINPUT, line, first['A'] + 1,
                            "the red car A must lie across the third row, where the exit is");
    size_t t = 36;
    while (t < n && (s[t] == ' ' || s[t] == '\t'))
        t++;
    if (t < n)
        put(out, "grid %.*s\n", (int)(n - t), s + t);
    else
        put(out, "grid Rush Hour %.36s\n", s);
    for (int row = 0; row < 6; row++)
        put(out, "%.6s\n", cells + 6 * row);
    put(out, "goal:\n??????\n??????\n????AA\n??????\n??????\n??????\n");
    for (int ax = 0; ax < 2; ax++)
        for (int L = 2; L <= 6; L++) {
            char same[27];
            int k = 0;
            for (int c = 'B'; c <= 'Z'; c++)
                if (cnt[c] == L && axis[c] == (ax ? 'v' : 'h'))
                    same[k++] = (char)c;
            if (k > 1)
                put(out, "same: %.*s\n", k, same);
        }
    for (int ax = 0; ax < 2; ax++) {
        char which = ax ? 'v' : 'h', l2[27];
        int k = 0;
        for (int c = 'A'; c <= 'Z'; c++)
            if (axis[c] == which)
                l2[k++] = (char)c;
        if (k)
            put(out, "%c: %.*s\n", which, k, l2);
    }
    return 0;
}

/* ---- the entry point ----------------------------------------------------- */

int sb_slide_convert(const char *txt, size_t len, int from, int to, char **out, size_t *outlen, sb_error *err)
{
    if (out)
        *out = NULL;
    if (!out || (!txt && len) || from < SB_SLIDE_AUTO || from > SB_SLIDE_RUSH ||
        (to != SB_SLIDE_SLIDING && to != SB_SLIDE_GRID))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_slide_convert: bad arguments");
    if (from == SB_SLIDE_AUTO) {
        lines r = {txt, txt + len, 0};
        const char *s = NULL;
        size_t n = 0;
        int rc;
        while ((rc = next(&r, &s, &n, err)) > 0 && !n)
            ;
        if (rc < 0)
            return rc;
        from = rc ? sb_slide_detect(s, n) : SB_SLIDE_SLIDING;
    }
    text t = {NULL, 0, 0, 0}, mid = {NULL, 0, 0, 0};
    int rc = 0;
    if (from == to) {
        put(&t, "%.*s", (int)len, txt ? txt : "");
    } else if (from == SB_SLIDE_RUSH) {
        rc = rush_to_grid(txt, len, to == SB_SLIDE_GRID ? &t : &mid, err);
        if (!rc && to == SB_SLIDE_SLIDING && !mid.oom)
            rc = grid_to_sliding(mid.s, mid.n, &t, err);
    } else if (from == SB_SLIDE_GRID) {
        rc = grid_to_sliding(txt, len, &t, err);
    } else {
        rc = sliding_to_grid(txt, len, &t, err);
    }
    free(mid.s);
    if (!rc && (t.oom || mid.oom || !t.s))
        rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    if (rc) {
        free(t.s);
        return rc;
    }
    *out = t.s;
    if (outlen)
        *outlen = t.n;
    return 0;
}
