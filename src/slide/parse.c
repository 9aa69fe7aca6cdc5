/* Reading SLIDING's input format (Knuth, SLIDING, "Inputting the puzzle").
 *
 *   5 x 5 (a silly example)        rows x cols, then any comment
 *   1 = 111/01                     piece kinds: name = rows of 0/1 joined by /,
 *                                  then ` h` or ` v` for a piece that slides
 *                                  only across or only up and down
 *   2 = 101/111
 *   3 = 1
 *   1xx200000000033                start: name the piece whose anchor is the
 *   000xx00033001002               topmost-leftmost cell not yet filled
 *                                  (0 empty, x blocked); then the stop line
 *
 * As in SLIDING, blank lines among the definitions are skipped and the first
 * line that is not of the form "N = ..." is the start line.  We also skip
 * blank lines before the start and stop lines and ignore trailing blanks and
 * carriage returns.  SLIDING has one stop line ("I may extend this later to
 * allow several ways to stop"); here every nonblank line after the start is
 * a stop line, and a stop line may leave cells free with `.` and a final `*`
 * (see parse_config).  Every malformed input stops at its first fault with
 * a code of its own. */
#include <stdio.h>
#include <string.h>

#include "sbfs/slide.h"
#include "../core/internal.h"

/* Lines come from text in memory (p, end) or from the caller's source. */
typedef struct reader {
    const char *p, *end;
    sb_line_fn next;
    void *ud;
    int line;
} reader;

/* Next line without its newline and trailing blanks; 0 at end of input
 * (*rc set when that end is an error). */
static int next_line(reader *r, const char **s, size_t *n, sb_error *err, int *rc)
{
    const char *a;
    size_t len;
    *rc = 0;
    if (r->next) {
        int got = r->next(r->ud, &a, &len, err);
        if (got <= 0) {
            *rc = got;
            return 0;
        }
    } else {
        if (r->p >= r->end)
            return 0;
        const char *e = memchr(r->p, '\n', (size_t)(r->end - r->p));
        if (!e)
            e = r->end;
        a = r->p;
        len = (size_t)(e - a);
        r->p = e < r->end ? e + 1 : e;
    }
    r->line++;
    if (len > SB_SLIDE_MAXLINE) {
        *rc = sb_error_set(err, SB_ELONGLINE, r->line, SB_SLIDE_MAXLINE + 1,
                           "line longer than %d characters", SB_SLIDE_MAXLINE);
        return 0;
    }
    while (len && (a[len - 1] == ' ' || a[len - 1] == '\t' || a[len - 1] == '\r'))
        len--;
    *s = a;
    *n = len;
    return 1;
}

static int next_nonblank(reader *r, const char **s, size_t *n, sb_error *err, int *rc)
{
    while (next_line(r, s, n, err, rc))
        if (*n)
            return 1;
    return 0;
}

char sb_slide_name(int v)
{
    if (v < 0 || v > 15)
        return '?';
    return (char)(v < 10 ? '0' + v : 'a' + v - 10);
}

static int name_value(char c)
{
    if (c >= '1' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return 0;
}

static int parse_size(sb_slide_puzzle *pz, const char *s, size_t n, int line, sb_error *err)
{
    size_t i = 0, at[2] = {0, 0}, len[2] = {0, 0};
    long v[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (k == 1) {
            if (i >= n || s[i] != 'x')
                return sb_error_set(err, SB_EBADSIZE, line, (int)i + 1,
                                    "the first line must be ROWS x COLS");
            i++;
            while (i < n && (s[i] == ' ' || s[i] == '\t'))
                i++;
        }
        size_t d0 = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (v[k] < 100000)
                v[k] = v[k] * 10 + (s[i] - '0');
            i++;
        }
        if (i == d0 || v[k] <= 0)
            return sb_error_set(err, SB_EBADSIZE, line, (int)d0 + 1,
                                "the first line must be ROWS x COLS with positive numbers");
        at[k] = d0;
        len[k] = i - d0;
    }
    /* v[] stops growing at 100000, which is past any board; the message
     * quotes the numbers as written, however long */
    if (v[0] * v[1] > SB_SLIDE_MAXCELLS) {
        char r[64], c[64];
        sb_error_quote(r, sizeof r, s + at[0], len[0]);
        sb_error_quote(c, sizeof c, s + at[1], len[1]);
        return sb_error_set(err, SB_EBIGBOARD, line, 1, "a %s x %s board has more than %d cells", r,
                            c, SB_SLIDE_MAXCELLS);
    }
    pz->rows = (int)v[0];
    pz->cols = (int)v[1];
    pz->ncells = pz->rows * pz->cols;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    memcpy(pz->title, s + i, n - i);
    pz->title[n - i] = 0;
    return 0;
}

static int parse_kind(sb_slide_puzzle *pz, const char *s, size_t n, int line, sb_error *err)
{
    int v = name_value(s[0]);
    char q[8];
    if (!v)
        return sb_error_set(err, SB_EPIECENAME, line, 1,
                            "bad piece name '%s': use 1..9 or a..f", sb_error_quote(q, sizeof q, s, 1));
    sb_slide_kind *k = &pz->kind[v];
    if (k->defined) {
        if (pz->nwarn < SB_SLIDE_MAXWARN) {
            sb_error *w = &pz->warn[pz->nwarn];
            w->code = 0;
            w->line = line;
            w->col = 1;
            pz->warn_name[pz->nwarn] = s[0];
            snprintf(w->msg, sizeof w->msg,
                     "warning: piece %c is defined again (line %d); the new definition is ignored",
                     s[0], k->line);
        }
        pz->nwarn++;
        return 0;
    }
    int r = 0, c = 0, n1 = 0, r0 = 0, c0 = 0;
    sb_slide_kind tmp;
    memset(&tmp, 0, sizeof tmp);
    /* an axis lock: the last character h or v, after the pattern and
     * blanks (trailing blanks are gone already) */
    if (n > 4 && (s[n - 1] == 'h' || s[n - 1] == 'v')) {
        size_t e = n - 1;
        while (e > 4 && (s[e - 1] == ' ' || s[e - 1] == '\t'))
            e--;
        tmp.axis = s[n - 1];
        n = e;
    }
    for (size_t i = 4; i < n; i++) {
        switch (s[i]) {
        case '1':
            if (n1 == SB_SLIDE_MAXCELLS)
                return sb_error_set(err, SB_EBIGBOARD, line, (int)i + 1,
                                    "piece %c has more than %d cells", s[0], SB_SLIDE_MAXCELLS);
            if (!n1)
                r0 = r, c0 = c;
            tmp.dr[n1] = (short)(r - r0);
            tmp.dc[n1] = (short)(c - c0);
            n1++;
            c++;
            break;
        case '0':
            c++;
            break;
        case '/':
            r++;
            c = 0;
            break;
        default:
            return sb_error_set(err, SB_EPATTERN, line, (int)i + 1,
                                "bad character '%s' in the pattern of piece %c (use 0, 1 and /)",
                                sb_error_quote(q, sizeof q, s + i, 1), s[0]);
        }
    }
    if (!n1)
        return sb_error_set(err, SB_EEMPTYPIECE, line, 5, "piece %c is empty", s[0]);
    tmp.defined = 1;
    tmp.line = line;
    tmp.n = n1;
    for (int j = 0; j < n1; j++) {
        if (tmp.dr[j] > tmp.rmax)
            tmp.rmax = tmp.dr[j];
        if (tmp.dc[j] < tmp.cmin)
            tmp.cmin = tmp.dc[j];
        if (tmp.dc[j] > tmp.cmax)
            tmp.cmax = tmp.dc[j];
    }
    *k = tmp;
    return 0;
}

/* What a configuration line says, cell by cell. */
typedef struct config {
    unsigned char anchors[SB_SLIDE_MAXCELLS]; /* kind value anchored at the cell, 0 none */
    unsigned char xcell[SB_SLIDE_MAXCELLS];   /* 1: written x */
    unsigned char free[SB_SLIDE_MAXCELLS];    /* 1: '.' or '*' (stop lines only) */
    short col[SB_SLIDE_MAXCELLS];             /* column of the character that filled
                                                 the cell; 0 for omitted trailing zeros */
    int nblocks;
    int partial;                              /* 1 when the line holds '.' or '*' */
} config;

/* Fill a board from a configuration line, as SLIDING's fill_board does:
 * each character fills the cursor cell, the first cell not yet filled.  A
 * name puts a block anchored there and fills all the block's cells; 0 and
 * x fill the cursor cell alone.  A stop line (stop = 1) may also hold `.`,
 * which fills the cursor cell alone and leaves its contents free, and a
 * last `*`, which leaves every cell not yet filled free.  Cells never filled
 * are empty: trailing zeros may be omitted.
 *
 * So `.` skips, like 0, exactly one cell not covered by a block named
 * earlier.  On a 3 x 3 board with 1 = 11/11 and 2 = 1, `1.2*` puts the 1 at
 * row 1 column 1 (covering four cells), frees row 1 column 3, and puts the
 * 2 at row 2 column 3, the first cell neither covered nor skipped; the last
 * row is free.  A block named later never covers a cell skipped earlier:
 * the cursor only moves on, and a block's cells all come at or after its
 * anchor in reading order, so "fills twice" is always about two blocks. */
static int parse_config(const sb_slide_puzzle *pz, const char *s, size_t n, int line, int stop, config *cf,
                        sb_error *err)
{
    unsigned char filled[SB_SLIDE_MAXCELLS];
    int j = 0, nb = 0;
    memset(filled, 0, sizeof filled);
    memset(cf, 0, sizeof *cf);
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        int v = name_value(ch);
        if ((ch == '.' || ch == '*') && !stop)
            return sb_error_set(err, SB_EBADCHAR, line, (int)i + 1,
                                "'%c' may appear only in a stop line, not in the start", ch);
        if (ch == '*' && i + 1 < n)
            return sb_error_set(err, SB_EBADCHAR, line, (int)i + 1,
                                "'*' must be the last character of a stop line");
        if (!v && ch != '0' && ch != 'x' && ch != '.' && ch != '*') {
            char q[8];
            return sb_error_set(err, SB_EBADCHAR, line, (int)i + 1,
                                "illegal character '%s' in a configuration (use 0, x, 1..9, a..f)",
                                sb_error_quote(q, sizeof q, s + i, 1));
        }
        if (ch == '*') { /* the rest is free, however much (or little) is left */
            for (int t = 0; t < pz->ncells; t++)
                if (!filled[t]) {
                    filled[t] = 1;
                    cf->free[t] = 1;
                    cf->col[t] = (short)(i + 1);
                }
            cf->partial = 1;
            break;
        }
        while (j < pz->ncells && filled[j])
            j++;
        if (j >= pz->ncells)
            return sb_error_set(err, SB_EPASTEND, line, (int)i + 1,
                                "the configuration runs past the end of the %d x %d board",
                                pz->rows, pz->cols);
        cf->col[j] = (short)(i + 1);
        if (ch == '0') {
            filled[j] = 1;
        } else if (ch == 'x') {
            filled[j] = 1;
            cf->xcell[j] = 1;
        } else if (ch == '.') {
            filled[j] = 1;
            cf->free[j] = 1;
            cf->partial = 1;
        } else {
            const sb_slide_kind *k = &pz->kind[v];
            int r = j / pz->cols, c = j % pz->cols;
            if (!k->defined)
                return sb_error_set(err, SB_EUNDEFINED, line, (int)i + 1, "piece %c was never defined",
                                    ch);
            for (int t = 0; t < k->n; t++) {
                int rr = r + k->dr[t], cc = c + k->dc[t];
                if (rr >= pz->rows || cc < 0 || cc >= pz->cols)
                    return sb_error_set(err, SB_EPASTEND, line, (int)i + 1,
                                        "piece %c at row %d column %d runs off the board", ch, r + 1,
                                        c + 1);
                if (filled[rr * pz->cols + cc])
                    return sb_error_set(err, SB_EFILLTWICE, line, (int)i + 1,
                                        "piece %c at row %d column %d fills row %d column %d twice",
                                        ch, r + 1, c + 1, rr + 1, cc + 1);
                filled[rr * pz->cols + cc] = 1;
                cf->col[rr * pz->cols + cc] = (short)(i + 1);
            }
            cf->anchors[j] = (unsigned char)v;
            nb++;
        }
        j++;
    }
    cf->nblocks = nb;
    return 0;
}

/* Check stop line cf (input line `line`) against the start and record it
 * as goal g.  A full line must hold exactly the start's blocks and x cells,
 * as in SLIDING.  A partial line may name fewer blocks, never more of a
 * kind than the start holds; a cell it writes as x must be x in the start,
 * and an x cell of the start must be written x or left free. */
static int add_goal(sb_slide_puzzle *pz, const config *cf, int line, sb_error *err)
{
    sb_slide_goal *g = &pz->goal[pz->ngoals];
    int cs[16] = {0}, ct[16] = {0}, N = pz->ncells, C = pz->cols;
    for (int j = 0; j < N; j++) {
        cs[pz->start[j]]++;
        if (!cf->partial && pz->xcell[j] != cf->xcell[j])
            return sb_error_set(err, SB_EMISMATCH, line, 1,
                                "row %d column %d is x in only one of start and stop", j / C + 1,
                                j % C + 1);
        if (cf->partial && (cf->xcell[j] ? !pz->xcell[j] : pz->xcell[j] && !cf->free[j]))
            return sb_error_set(err, SB_EMISMATCH, line, cf->col[j] ? cf->col[j] : 1,
                                "row %d column %d is x in only one of start and stop", j / C + 1,
                                j % C + 1);
    }
    if (!cf->partial) {
        for (int j = 0; j < N; j++)
            ct[cf->anchors[j]]++;
        for (int v = 1; v < 16; v++)
            if (cs[v] != ct[v])
                return sb_error_set(err, SB_EMISMATCH, line, 1,
                                    "start holds %d of piece %c, stop holds %d", cs[v],
                                    sb_slide_name(v), ct[v]);
    } else {
        for (int j = 0; j < N; j++) {
            int v = cf->anchors[j];
            if (!v || ++ct[v] <= cs[v])
                continue;
            if (!cs[v])
                return sb_error_set(err, SB_EMISMATCH, line, cf->col[j],
                                    "the stop line names piece %c, which the start does not hold",
                                    sb_slide_name(v));
            return sb_error_set(err, SB_EMISMATCH, line, cf->col[j],
                                "the stop line names more of piece %c than the %d the start holds",
                                sb_slide_name(v), cs[v]);
        }
    }
    memset(g, 0, sizeof *g);
    g->line = line;
    g->full = !cf->partial;
    g->nnamed = cf->nblocks;
    memcpy(g->anchors, cf->anchors, sizeof g->anchors);
    memcpy(g->free, cf->free, sizeof g->free);
    /* cells covered by the named blocks */
    unsigned char covered[SB_SLIDE_MAXCELLS];
    memset(covered, 0, sizeof covered);
    for (int j = 0; j < N; j++) {
        if (!g->anchors[j])
            continue;
        const sb_slide_kind *k = &pz->kind[g->anchors[j]];
        g->need[j >> 6] |= (uint64_t)1 << (j & 63);
        for (int t = 0; t < k->n; t++)
            covered[(j / C + k->dr[t]) * C + j % C + k->dc[t]] = 1;
    }
    for (int j = 0; j < N; j++)
        if (!covered[j] && !g->free[j] && !pz->xcell[j])
            g->empty[j >> 6] |= (uint64_t)1 << (j & 63);
    /* risky anchors: a block of a kind of the start anchored at a (not an
     * anchor the line names, whose kind it fixes) that would cover an empty
     * cell.  Placements through x cells or off the board never occur. */
    for (int a = 0; a < N; a++) {
        if (g->anchors[a])
            continue;
        for (int v = 1; v < 16; v++) {
            const sb_slide_kind *k = &pz->kind[v];
            int ok = cs[v] > 0, hit = 0;
            for (int t = 0; t < k->n && ok; t++) {
                int rr = a / C + k->dr[t], cc = a % C + k->dc[t], at = rr * C + cc;
                if (rr >= pz->rows || cc < 0 || cc >= C || pz->xcell[at])
                    ok = 0;
                else if (g->empty[at >> 6] >> (at & 63) & 1)
                    hit = 1;
            }
            if (ok && hit) {
                g->risky[a >> 6] |= (uint64_t)1 << (a & 63);
                break;
            }
        }
    }
    pz->ngoals++;
    return 0;
}

static int parse(sb_slide_puzzle *pz, reader r, sb_error *err);

int sb_slide_parse(sb_slide_puzzle *pz, const char *text, size_t len, sb_error *err)
{
    reader r = {text, text + len, NULL, NULL, 0};
    if (!pz || (!text && len))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_slide_parse: %s is NULL", pz ? "text" : "pz");
    return parse(pz, r, err);
}

int sb_slide_parse_lines(sb_slide_puzzle *pz, sb_line_fn next, void *ud, sb_error *err)
{
    reader r = {NULL, NULL, next, ud, 0};
    if (!pz || !next)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_slide_parse_lines: %s is NULL", pz ? "next" : "pz");
    return parse(pz, r, err);
}

static int parse(sb_slide_puzzle *pz, reader r, sb_error *err)
{
    const char *s;
    size_t n;
    int rc;
    config cf;
    memset(pz, 0, sizeof *pz);
    if (!next_nonblank(&r, &s, &n, err, &rc))
        return rc ? rc : sb_error_set(err, SB_EMISSING, r.line + 1, 1, "empty input: no ROWS x COLS line");
    if ((rc = parse_size(pz, s, n, r.line, err)))
        return rc;
    for (;;) {
        if (!next_nonblank(&r, &s, &n, err, &rc))
            return rc ? rc : sb_error_set(err, SB_EMISSING, r.line + 1, 1, "the start line is missing");
        if (!(n >= 4 && s[1] == ' ' && s[2] == '=' && s[3] == ' '))
            break;
        if ((rc = parse_kind(pz, s, n, r.line, err)))
            return rc;
    }
    int start_line = r.line;
    if ((rc = parse_config(pz, s, n, r.line, 0, &cf, err)))
        return rc;
    if (!cf.nblocks)
        return sb_error_set(err, SB_ENOPIECES, start_line, 1, "the puzzle has no pieces");
    memcpy(pz->start, cf.anchors, sizeof pz->start);
    memcpy(pz->xcell, cf.xcell, sizeof pz->xcell);
    pz->nblocks = cf.nblocks;
    /* every further nonblank line is a stop line */
    while (next_nonblank(&r, &s, &n, err, &rc)) {
        if (pz->ngoals == SB_SLIDE_MAXGOALS)
            return sb_error_set(err, SB_EBIGBOARD, r.line, 1, "more than %d stop lines",
                                SB_SLIDE_MAXGOALS);
        if ((rc = parse_config(pz, s, n, r.line, 1, &cf, err)) || (rc = add_goal(pz, &cf, r.line, err)))
            return rc;
    }
    if (rc)
        return rc;
    if (!pz->ngoals)
        return sb_error_set(err, SB_EMISSING, r.line + 1, 1, "the stop line is missing");
    memcpy(pz->stop, pz->goal[0].anchors, sizeof pz->stop);
    pz->goal_full = pz->ngoals == 1 && pz->goal[0].full;
    return 0;
}
