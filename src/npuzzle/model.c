/* The R x C sliding-tile model: goals, the two text formats, solvability,
 * replaying moves. */
#include "sbfs/npuzzle.h"
#include "np_internal.h"
#include "../core/internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char np_letter[4] = {'u', 'd', 'l', 'r'};

int np_move_of(int letter)
{
    for (int m = 0; m < 4; m++)
        if (np_letter[m] == letter)
            return m;
    return -1;
}

void np_turn(const uint8_t *in, uint8_t *out, int n)
{
    for (int i = 0; i < n; i++) {
        int t = in[n - 1 - i];
        out[i] = (uint8_t)(t ? n - t : 0);
    }
}

static int side_ok(int rows, int cols)
{
    return rows >= 2 && rows <= 5 && cols >= 2 && cols <= 5;
}

int np_check_position(const sb_npuzzle *p, const char *what, sb_error *err)
{
    unsigned seen = 0;
    if (!p)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "%s: no position (NULL)", what);
    if (!side_ok(p->rows, p->cols) || p->n != p->rows * p->cols)
        return sb_error_set(err, SB_EUSAGE, 0, 0,
                            "%s: a %dx%d board of %d cells (sides 2..5, cells rows * cols)", what,
                            p->rows, p->cols, p->n);
    /* one bit per tile: a repeat or a tile past n-1 leaves some bit clear */
    for (int i = 0; i < p->n; i++)
        if (p->cell[i] < p->n)
            seen |= 1u << p->cell[i];
    if (seen != (1u << p->n) - 1)
        return sb_error_set(err, SB_EUSAGE, 0, 0,
                            "%s: the cells do not hold each of 0..%d once", what, p->n - 1);
    return 0;
}

static int goal_ok(int goal)
{
    return goal == SB_NP_BLANK_LAST || goal == SB_NP_BLANK_FIRST;
}

int sb_np_goal(sb_npuzzle *p, int rows, int cols, int goal)
{
    if (!p)
        return SB_EUSAGE;
    memset(p, 0, sizeof *p);
    if (!side_ok(rows, cols) || !goal_ok(goal))
        return SB_EUSAGE;
    p->rows = rows;
    p->cols = cols;
    p->n = rows * cols;
    for (int i = 0; i < p->n; i++)
        p->cell[i] = (uint8_t)(goal == SB_NP_BLANK_FIRST ? i : (i + 1) % p->n);
    return 0;
}

/* Checks a complete list of tiles: each of 0..n-1 exactly once.  where[i]
 * is the column of token i for the messages. */
static int check_tiles(const sb_npuzzle *p, int lineno, const int *where, sb_error *err)
{
    int first[SB_NP_MAXCELLS];
    for (int t = 0; t < p->n; t++)
        first[t] = -1;
    for (int i = 0; i < p->n; i++) {
        int t = p->cell[i];
        if (first[t] >= 0)
            return sb_error_set(err, SB_EINPUT, lineno, where[i],
                                t ? "tile %d appears twice (first at column %d)"
                                  : "two blanks (first at column %d)",
                                t ? t : where[first[t]], where[first[t]]);
        first[t] = i;
    }
    return 0;
}

int sb_np_parse_line(const char *line, int lineno, int rows, int cols, sb_npuzzle *out,
                     sb_error *err)
{
    int where[SB_NP_MAXCELLS + 1], wlen[SB_NP_MAXCELLS + 1], count = 0, n;
    const char *s = line;
    char q[48];
    uint8_t tile[SB_NP_MAXCELLS];
    if (!line || !out)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_parse_line: %s is NULL",
                            line ? "out" : "line");
    memset(out, 0, sizeof *out);
    if (!(rows == 0 && cols == 0) && !side_ok(rows, cols))
        return sb_error_set(err, SB_EUSAGE, 0, 0,
                            "sb_np_parse_line: a %dx%d board (sides 2..5, or 0x0 to infer)", rows,
                            cols);
    /* first pass: the tokens */
    for (;;) {
        const char *tok;
        long v = 0;
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == ',')
            s++;
        if (!*s)
            break;
        tok = s;
        if (count == SB_NP_MAXCELLS)
            return sb_error_set(err, SB_EINPUT, lineno, (int)(tok - line) + 1,
                                "more than %d tiles on one line", SB_NP_MAXCELLS);
        if ((*s == 'x' || *s == 'X') && !isalnum((unsigned char)s[1]))
            s++;
        else if (isdigit((unsigned char)*s)) {
            while (isdigit((unsigned char)*s)) {
                v = v * 10 + (*s - '0');
                if (v > 99)
                    v = 99;
                s++;
            }
            if (isalpha((unsigned char)*s) || (*s && !isspace((unsigned char)*s) && *s != ','))
                v = -1;
        } else
            v = -1;
        if (v < 0) {
            while (*s && !isspace((unsigned char)*s))
                s++;
            return sb_error_set(err, SB_EINPUT, lineno, (int)(tok - line) + 1,
                                "'%s' is not a tile (numbers, 0 or x for the blank)",
                                sb_error_quote(q, sizeof q, tok, (size_t)(s - tok)));
        }
        where[count] = (int)(tok - line) + 1;
        wlen[count] = (int)(s - tok);
        tile[count++] = (uint8_t)(v > 30 ? 30 : v);
    }
    if (rows == 0) {
        for (rows = 2; rows <= 5 && rows * rows != count; rows++)
            ;
        if (rows > 5)
            return sb_error_set(err, SB_EINPUT, lineno, 1,
                                "%d tiles is not a square board (4, 9, 16 or 25): give the size with -s RxC",
                                count);
        cols = rows;
    }
    n = rows * cols;
    if (count != n)
        return sb_error_set(err, SB_EINPUT, lineno, count ? where[count - 1] : 1,
                            "%d tiles where a %dx%d board needs %d", count, rows, cols, n);
    for (int i = 0; i < n; i++)
        if (tile[i] >= n)
            return sb_error_set(err, SB_EINPUT, lineno, where[i],
                                "tile %s is out of range for a %dx%d board (1..%d)",
                                sb_error_quote(q, sizeof q, line + where[i] - 1, (size_t)wlen[i]),
                                rows, cols, n - 1);
    out->rows = rows;
    out->cols = cols;
    out->n = n;
    memcpy(out->cell, tile, (size_t)n);
    return check_tiles(out, lineno, where, err);
}

int sb_np_parse_eight(const char *text, size_t len, sb_npuzzle *out, sb_error *err)
{
    int line = 1, col = 1, count = 0;
    int tline[9], tcol[9], seenat[9];
    size_t i = 0;
    if (!out || (!text && len))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_parse_eight: %s is NULL",
                            out ? "text" : "out");
    memset(out, 0, sizeof *out);
    for (int t = 0; t < 9; t++)
        seenat[t] = -1;
    while (i < len) {
        unsigned char ch = (unsigned char)text[i];
        size_t start;
        int scol = col, t;
        if (ch == '\n') {
            line++, col = 1, i++;
            continue;
        }
        if (isspace(ch)) {
            col++, i++;
            continue;
        }
        start = i;
        while (i < len && !isspace((unsigned char)text[i]))
            i++, col++;
        if (i - start == 1 && (text[start] == 'x' || text[start] == 'X'))
            t = 0;
        else if (i - start == 1 && text[start] >= '1' && text[start] <= '8')
            t = text[start] - '0';
        else {
            char q[48];
            return sb_error_set(err, SB_EINPUT, line, scol,
                                "'%s' is not a tile of the 8-puzzle (1..8 or x)",
                                sb_error_quote(q, sizeof q, text + start, i - start));
        }
        if (count == 9)
            return sb_error_set(err, SB_EINPUT, line, scol, "more than nine tiles");
        if (seenat[t] >= 0)
            return sb_error_set(err, SB_EINPUT, line, scol,
                                t ? "tile %d appears twice (first at %d:%d)" : "x appears twice (first at %d:%d)",
                                t ? t : tline[seenat[t]], t ? tline[seenat[t]] : tcol[seenat[t]],
                                tcol[seenat[t]]);
        seenat[t] = count;
        tline[count] = line;
        tcol[count] = scol;
        out->cell[count++] = (uint8_t)t;
    }
    if (count < 9) {
        char miss[32];
        int at = 0;
        for (int t = 1; t <= 9; t++)
            if (seenat[t % 9] < 0)
                at += snprintf(miss + at, sizeof miss - (size_t)at, "%s%c", at ? ", " : "",
                               t == 9 ? 'x' : '0' + t);
        return sb_error_set(err, SB_EINPUT, line, col, "only %d of the nine tiles: missing %s", count,
                            miss);
    }
    out->rows = out->cols = 3;
    out->n = 9;
    return 0;
}

static int blank_at(const sb_npuzzle *p)
{
    for (int i = 0; i < p->n; i++)
        if (p->cell[i] == 0)
            return i;
    return -1;
}

int sb_np_solvable(const sb_npuzzle *p, int goal)
{
    /* Parity of the permutation taking the goal to p, counted by cycles:
     * work on the position of each label (the blank included). */
    sb_npuzzle g;
    int where[SB_NP_MAXCELLS], perm[SB_NP_MAXCELLS], seen[SB_NP_MAXCELLS] = {0};
    int parity = 0, b, gb;
    if (np_check_position(p, "sb_np_solvable", NULL) || !goal_ok(goal))
        return SB_EUSAGE;
    b = blank_at(p);
    sb_np_goal(&g, p->rows, p->cols, goal);
    gb = blank_at(&g);
    for (int i = 0; i < p->n; i++)
        where[g.cell[i]] = i;
    for (int i = 0; i < p->n; i++)
        perm[i] = where[p->cell[i]];
    for (int i = 0; i < p->n; i++) {
        int len = 0;
        for (int j = i; !seen[j]; j = perm[j])
            seen[j] = 1, len++;
        if (len)
            parity ^= (len - 1) & 1;
    }
    return parity == ((abs(b / p->cols - gb / p->cols) + abs(b % p->cols - gb % p->cols)) & 1);
}

int sb_np_apply(sb_npuzzle *p, const char *moves, sb_error *err)
{
    int b, rc;
    if ((rc = np_check_position(p, "sb_np_apply", err)))
        return rc;
    if (!moves)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_apply: no moves (NULL)");
    b = blank_at(p);
    for (int i = 0; moves[i]; i++) {
        int r = b / p->cols, c = b % p->cols, to;
        switch (np_move_of((unsigned char)moves[i])) {
        case NP_U: r--; break;
        case NP_D: r++; break;
        case NP_L: c--; break;
        case NP_R: c++; break;
        default:
            return sb_error_set(err, SB_EINVALPOS, 0, i + 1, "'%c' is not a move", moves[i]);
        }
        if (r < 0 || r >= p->rows || c < 0 || c >= p->cols)
            return sb_error_set(err, SB_EINVALPOS, 0, i + 1, "move %d ('%c') leaves the board", i + 1,
                                moves[i]);
        to = r * p->cols + c;
        p->cell[b] = p->cell[to];
        p->cell[to] = 0;
        b = to;
    }
    return 0;
}

int sb_np_is_goal(const sb_npuzzle *p, int goal)
{
    sb_npuzzle g;
    if (np_check_position(p, "sb_np_is_goal", NULL) || !goal_ok(goal))
        return SB_EUSAGE;
    sb_np_goal(&g, p->rows, p->cols, goal);
    return memcmp(g.cell, p->cell, (size_t)p->n) == 0;
}

int sb_np_partition(int rows, int cols, const char *name, uint8_t groups[][SB_NP_PDB_MAXK],
                    int *size, sb_error *err)
{
    /* Blank-first frame: tile t's goal is cell t.  For the 15-puzzle,
     *   0  1  2  3      663: {1,2,3} {4,5,8,9,12,13} {6,7,10,11,14,15}
     *   4  5  6  7      78:  {1..7} {8..15}  (Korf and Felner's split:
     *   8  9 10 11            the top two rows, the bottom two)
     *  12 13 14 15      555: {1,2,3,6,7} {4,5,8,9,12} {10,11,13,14,15}
     * 555 builds in a fraction of a second: the tests use it. */
    static const uint8_t p663[3][6] = {{1, 2, 3}, {4, 5, 8, 9, 12, 13}, {6, 7, 10, 11, 14, 15}};
    static const int s663[3] = {3, 6, 6};
    static const uint8_t p555[3][5] = {{1, 2, 3, 6, 7}, {4, 5, 8, 9, 12}, {10, 11, 13, 14, 15}};
    /* The 24-puzzle, Korf and Felner's 6-6-6-6:
     *   0  1  2  3  4     {1,2,5,6,7,12}     {3,4,8,9,13,14}
     *   5  6  7  8  9     {10,11,15,16,20,21} {17,18,19,22,23,24}
     *  10 11 12 13 14   The partition is not its own mirror image in the
     *  15 16 17 18 19   main diagonal ({1,2,5,6,7,12} turns into
     *  20 21 22 23 24   {1,5,6,10,11,12}), so the transposed lookups of
     * solve.c add a second, different bound. */
    static const uint8_t p6666[4][6] = {
        {1, 2, 5, 6, 7, 12}, {3, 4, 8, 9, 13, 14}, {10, 11, 15, 16, 20, 21}, {17, 18, 19, 22, 23, 24}};
    int n = rows * cols, g = 0;
    if (!name || !groups || !size)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_partition: %s is NULL",
                            !name ? "name" : !groups ? "groups" : "size");
    if (!side_ok(rows, cols))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_partition: a %dx%d board (sides 2..5)",
                            rows, cols);
    if (!strcmp(name, "663") || !strcmp(name, "78") || !strcmp(name, "555")) {
        if (rows != 4 || cols != 4)
            return sb_error_set(err, SB_EUSAGE, 0, 0, "the %s partition is for the 4x4 board only", name);
        if (name[0] == '5') {
            for (g = 0; g < 3; g++) {
                size[g] = 5;
                memcpy(groups[g], p555[g], 5);
            }
            return 3;
        }
        if (name[0] == '6') {
            for (g = 0; g < 3; g++) {
                size[g] = s663[g];
                memcpy(groups[g], p663[g], (size_t)s663[g]);
            }
            return 3;
        }
        size[0] = 7;
        size[1] = 8;
        for (int t = 1; t < 16; t++)
            groups[t >= 8][t >= 8 ? t - 8 : t - 1] = (uint8_t)t;
        return 2;
    }
    if (!strcmp(name, "6666")) {
        if (rows != 5 || cols != 5)
            return sb_error_set(err, SB_EUSAGE, 0, 0, "the 6666 partition is for the 5x5 board only");
        for (g = 0; g < 4; g++) {
            size[g] = 6;
            memcpy(groups[g], p6666[g], 6);
        }
        return 4;
    }
    if (strcmp(name, "auto") != 0)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "unknown partition '%s' (663, 78, 555, 6666 or auto)",
                            name);
    {
        /* the largest group size whose table stays under 2^24 entries */
        int k = 1;
        uint64_t f = (uint64_t)n;
        while (k < SB_NP_PDB_MAXK && k < n - 1 && f * (uint64_t)(n - k) <= (1u << 24))
            f *= (uint64_t)(n - k), k++;
        for (int t = 1; t < n; t += k, g++) {
            size[g] = t + k <= n ? k : n - t;
            for (int i = 0; i < size[g]; i++)
                groups[g][i] = (uint8_t)(t + i);
        }
    }
    return g;
}
