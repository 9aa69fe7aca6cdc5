/* verify_slide: an independent replay of a sliding-block solution, and an
 * independent census of a puzzle's configurations.
 *
 *   verify_slide STYLE PUZZLE OUTPUT
 *   verify_slide census STYLE PUZZLE
 *
 * PUZZLE is in SLIDING's format with sbfs's goals (docs/FORMAT.md): after
 * the start line every nonblank line is a stop line, in which `.` leaves one
 * cell free and a final `*` leaves the rest free.
 *
 * Replay: OUTPUT is what `sbfs solve -s STYLE PUZZLE` printed.  Every
 * "move K: P@rRcC ... DIR ..." line is replayed from the start: the named
 * blocks (name and topmost-leftmost cell before the move) take the unit
 * steps together, each step checked to stay on the board, off the x cells
 * and off every block that does not move; the style limits how many blocks
 * may move (one in styles 0-2) and how (one step in 0 and 3, one direction
 * in 1 and 4, any path in 2 and 5).  After the last move the board must
 * match one of the stop lines (each block the line names there, anchored
 * where the line puts it; each cell the line makes empty empty), and the
 * number of moves must be the N of "solution: N moves".
 *
 * Census: breadth-first search over whole boards (a piece name per cell)
 * from the start, with moves of style 0, 1 or 2 generated here, printing
 * "distance d: n" for every distance and then
 * "component: N configurations, largest distance D".  Boards that differ
 * only by swapping two blocks of one kind are the same board here, as they
 * are the same configuration for sbfs.
 *
 * Shares no code with the library on purpose, and is written differently:
 * boards of names rather than keys of anchors, every move tried cell by
 * cell. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 256
#define MAXGOALS 64
#define LINELEN 4096

typedef struct puzzle {
    int R, C, N;
    int kdef[16], kn[16], kr[16][MAXN], kc[16][MAXN];
    char start[LINELEN];
    int ngoals;
    char goal[MAXGOALS][LINELEN];
    int xcell[MAXN];
} puzzle;

/* A goal on the board: per cell FREE, EMPTY, X or the name value of the
 * named block covering it; anchor[c] = 1 where a named block is anchored. */
enum { FREE = -2, X = -1, EMPTY = 0 };
typedef struct goal {
    int cell[MAXN], anchor[MAXN];
} goal;

static int val(int ch)
{
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    return 0;
}

static void die(const char *what, int line)
{
    if (line)
        fprintf(stderr, "verify_slide: %s (output line %d)\n", what, line);
    else
        fprintf(stderr, "verify_slide: %s\n", what);
    exit(1);
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
}

static void read_puzzle(puzzle *P, const char *path)
{
    char line[LINELEN];
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot open the puzzle", 0);
    if (!fgets(line, sizeof line, f) || sscanf(line, "%d x %d", &P->R, &P->C) != 2 || P->R <= 0 ||
        P->C <= 0 || P->R * P->C > MAXN)
        die("bad size line", 0);
    P->N = P->R * P->C;
    int got = 0;
    while (fgets(line, sizeof line, f)) {
        chomp(line);
        if (!line[0])
            continue;
        if (!got && strlen(line) >= 4 && line[1] == ' ' && line[2] == '=' && line[3] == ' ') {
            int v = val(line[0]);
            if (!v)
                die("bad piece name", 0);
            if (P->kdef[v])
                continue; /* a redefinition is ignored */
            P->kdef[v] = 1;
            int r = 0, c = 0, r0 = -1, c0 = 0;
            for (char *p = line + 4; *p; p++) {
                if (*p == '/') {
                    r++;
                    c = 0;
                    continue;
                }
                if (*p == '1') {
                    if (r0 < 0)
                        r0 = r, c0 = c;
                    if (P->kn[v] == MAXN)
                        die("piece too large", 0);
                    P->kr[v][P->kn[v]] = r - r0;
                    P->kc[v][P->kn[v]] = c - c0;
                    P->kn[v]++;
                }
                c++;
            }
            if (!P->kn[v])
                die("empty piece", 0);
            continue;
        }
        if (!got)
            strcpy(P->start, line);
        else if (got - 1 < MAXGOALS)
            strcpy(P->goal[got - 1], line);
        else
            die("too many stop lines", 0);
        got++;
    }
    fclose(f);
    if (got < 2)
        die("puzzle lacks start or stop", 0);
    P->ngoals = got - 1;
}

/* Fill names[] (piece name value per cell, 0 empty, -1 x) and ids[]
 * (block number per cell, 0 none) from the start line. */
static void fill(const puzzle *P, const char *s, int *names, int *ids)
{
    int filled[MAXN] = {0}, j = 0, nb = 0;
    for (int i = 0; i < P->N; i++)
        names[i] = ids[i] = 0;
    for (; *s; s++) {
        while (j < P->N && filled[j])
            j++;
        if (j >= P->N)
            die("configuration past the end of the board", 0);
        if (*s == '0') {
            filled[j] = 1;
        } else if (*s == 'x') {
            filled[j] = 1;
            names[j] = -1;
        } else {
            int v = val(*s);
            if (!v || !P->kdef[v])
                die("bad piece in a configuration", 0);
            nb++;
            for (int t = 0; t < P->kn[v]; t++) {
                int r = j / P->C + P->kr[v][t], c = j % P->C + P->kc[v][t];
                if (r < 0 || r >= P->R || c < 0 || c >= P->C || filled[r * P->C + c])
                    die("piece does not fit", 0);
                filled[r * P->C + c] = 1;
                names[r * P->C + c] = v;
                ids[r * P->C + c] = nb;
            }
        }
        j++;
    }
}

/* A stop line on the board.  The cursor is the first cell not yet filled:
 * `0`, `x` and `.` fill it alone, a name fills the cells of its block, `*`
 * frees every cell not yet filled; cells left at the end are empty. */
static void fill_goal(const puzzle *P, const char *s, goal *g)
{
    int filled[MAXN] = {0}, j = 0;
    for (int i = 0; i < P->N; i++)
        g->cell[i] = EMPTY, g->anchor[i] = 0;
    for (; *s; s++) {
        if (*s == '*') {
            if (s[1])
                die("'*' before the end of a stop line", 0);
            for (int i = 0; i < P->N; i++)
                if (!filled[i])
                    filled[i] = 1, g->cell[i] = FREE;
            break;
        }
        while (j < P->N && filled[j])
            j++;
        if (j >= P->N)
            die("stop line past the end of the board", 0);
        filled[j] = 1;
        if (*s == '0') {
            g->cell[j] = EMPTY;
        } else if (*s == 'x') {
            g->cell[j] = X;
        } else if (*s == '.') {
            g->cell[j] = FREE;
        } else {
            int v = val(*s);
            if (!v || !P->kdef[v])
                die("bad piece in a stop line", 0);
            g->anchor[j] = 1;
            for (int t = 0; t < P->kn[v]; t++) {
                int r = j / P->C + P->kr[v][t], c = j % P->C + P->kc[v][t];
                if (r < 0 || r >= P->R || c < 0 || c >= P->C || (filled[r * P->C + c] && t))
                    die("piece does not fit in a stop line", 0);
                filled[r * P->C + c] = 1;
                g->cell[r * P->C + c] = v;
            }
        }
        j++;
    }
}

/* Does the board (names, ids) match goal g? */
static int matches(const puzzle *P, const goal *g, const int *names, const int *ids)
{
    for (int c = 0; c < P->N; c++) {
        int want = g->cell[c];
        if (want == FREE)
            continue;
        if (names[c] != want)
            return 0;
        if (g->anchor[c]) /* the block there must start here */
            for (int i = 0; i < c; i++)
                if (ids[i] == ids[c])
                    return 0;
    }
    return 1;
}

/* ---- replay ------------------------------------------------------------- */

static int replay(const puzzle *P, int style, const char *outpath)
{
    char line[LINELEN];
    int names[MAXN], ids[MAXN], R = P->R, C = P->C, N = P->N;
    fill(P, P->start, names, ids);
    FILE *f = fopen(outpath, "r");
    if (!f)
        die("cannot open the output", 0);
    int lineno = 0, moves = 0, claimed = -1;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        chomp(line);
        if (sscanf(line, "solution: %d move", &claimed) == 1)
            continue;
        if (strncmp(line, "move ", 5))
            continue;
        int k = atoi(line + 5);
        if (k != moves + 1)
            die("moves are not numbered 1, 2, ...", lineno);
        moves++;
        char *p = strchr(line, ':');
        if (!p)
            die("no colon in a move line", lineno);
        int moving[MAXN + 1] = {0}, nmov = 0, steps = 0, firstdir = -1, samedir = 1;
        for (char *tok = strtok(p + 1, " "); tok; tok = strtok(NULL, " ")) {
            int tr, tc;
            char nm;
            if (strchr(tok, '@')) {
                if (steps)
                    die("a block named after the directions", lineno);
                if (sscanf(tok, "%c@r%dc%d", &nm, &tr, &tc) != 3 || tr < 1 || tr > R || tc < 1 || tc > C)
                    die("bad block token", lineno);
                int cell = (tr - 1) * C + (tc - 1), id = ids[cell];
                if (!id || names[cell] != val(nm))
                    die("no such block at that cell", lineno);
                for (int i = 0; i < cell; i++)
                    if (ids[i] == id)
                        die("the cell given is not the block's topmost-leftmost cell", lineno);
                if (moving[id])
                    die("a block named twice", lineno);
                moving[id] = 1;
                nmov++;
                continue;
            }
            int dr = 0, dc = 0, d;
            if (!strcmp(tok, "right"))
                dc = 1, d = 0;
            else if (!strcmp(tok, "left"))
                dc = -1, d = 1;
            else if (!strcmp(tok, "down"))
                dr = 1, d = 2;
            else if (!strcmp(tok, "up"))
                dr = -1, d = 3;
            else
                die("bad direction", lineno);
            if (!nmov)
                die("a move with no blocks", lineno);
            if (firstdir >= 0 && d != firstdir)
                samedir = 0;
            if (firstdir < 0)
                firstdir = d;
            steps++;
            /* one unit step of every moving block, checked cell by cell */
            int nn[MAXN], ni[MAXN];
            for (int i = 0; i < N; i++) {
                nn[i] = moving[ids[i]] && ids[i] ? 0 : names[i];
                ni[i] = moving[ids[i]] && ids[i] ? 0 : ids[i];
            }
            for (int i = 0; i < N; i++) {
                if (!ids[i] || !moving[ids[i]])
                    continue;
                int r = i / C + dr, c = i % C + dc;
                if (r < 0 || r >= R || c < 0 || c >= C)
                    die("a step leaves the board", lineno);
                int j = r * C + c;
                if (P->xcell[j] || ni[j])
                    die("a step runs into something", lineno);
                nn[j] = names[i];
                ni[j] = ids[i];
            }
            memcpy(names, nn, sizeof names);
            memcpy(ids, ni, sizeof ids);
        }
        if (!steps)
            die("a move with no steps", lineno);
        if (style < 3 && nmov != 1)
            die("more than one block moves in a single-piece style", lineno);
        if (style % 3 == 0 && steps != 1)
            die("more than one step in style 0 or 3", lineno);
        if (style % 3 == 1 && !samedir)
            die("a turn in style 1 or 4", lineno);
    }
    fclose(f);
    if (claimed < 0)
        die("no 'solution: N moves' line", 0);
    if (claimed != moves)
        die("the number of move lines differs from the claim", 0);
    int ok = 0;
    for (int g = 0; g < P->ngoals && !ok; g++) {
        goal gl;
        fill_goal(P, P->goal[g], &gl);
        ok = matches(P, &gl, names, ids);
    }
    if (!ok)
        die("the last board matches no stop line", 0);
    printf("verified: %d moves in style %d\n", moves, style);
    return 0;
}

/* ---- census ------------------------------------------------------------- */

/* Boards are strings of N characters: '0' empty, 'x' blocked, else the
 * name of the piece covering the cell.  They are kept in one array in the
 * order found (level d is a contiguous run), with an open-addressing table
 * of indices beside it. */
typedef struct census {
    const puzzle *P;
    int style;
    char *boards;
    long n, cap;
    long *table;
    long tsize;
} census;

static unsigned long bhash(const char *b, int n)
{
    unsigned long h = 5381;
    for (int i = 0; i < n; i++)
        h = h * 33 + (unsigned char)b[i];
    return h ^ (h >> 17);
}

static void cadd(census *z, const char *b)
{
    int N = z->P->N;
    if (2 * (z->n + 1) > z->tsize) { /* grow and rehash */
        long ts = z->tsize ? 2 * z->tsize : 1024;
        long *t = malloc(sizeof *t * (size_t)ts);
        if (!t)
            die("out of memory", 0);
        for (long i = 0; i < ts; i++)
            t[i] = -1;
        for (long i = 0; i < z->n; i++) {
            unsigned long h = bhash(z->boards + i * N, N) & (unsigned long)(ts - 1);
            while (t[h] >= 0)
                h = (h + 1) & (unsigned long)(ts - 1);
            t[h] = i;
        }
        free(z->table);
        z->table = t;
        z->tsize = ts;
    }
    unsigned long h = bhash(b, N) & (unsigned long)(z->tsize - 1);
    while (z->table[h] >= 0) {
        if (!memcmp(z->boards + z->table[h] * N, b, (size_t)N))
            return;
        h = (h + 1) & (unsigned long)(z->tsize - 1);
    }
    if (z->n == z->cap) {
        z->cap = z->cap ? 2 * z->cap : 1024;
        z->boards = realloc(z->boards, (size_t)z->cap * (size_t)N);
        if (!z->boards)
            die("out of memory", 0);
    }
    memcpy(z->boards + z->n * N, b, (size_t)N);
    z->table[h] = z->n++;
}

/* Can block `cells` (ncells cells, all named `name`) stand shifted by
 * (dr, dc) on board b?  Its own cells count as free. */
static int fits(const census *z, const char *b, const int *cells, int ncells, char name, int dr, int dc)
{
    int R = z->P->R, C = z->P->C;
    for (int t = 0; t < ncells; t++) {
        int r = cells[t] / C + dr, c = cells[t] % C + dc;
        if (r < 0 || r >= R || c < 0 || c >= C)
            return 0;
        char there = b[r * C + c];
        if (there == '0')
            continue;
        if (there != name)
            return 0;
        int own = 0; /* the same name: free only if it is this block's cell */
        for (int u = 0; u < ncells && !own; u++)
            own = cells[u] == r * C + c;
        if (!own)
            return 0;
    }
    return 1;
}

static void shifted(const census *z, const char *b, const int *cells, int ncells, char name, int dr, int dc,
                    char *out)
{
    int C = z->P->C;
    memcpy(out, b, (size_t)z->P->N);
    for (int t = 0; t < ncells; t++)
        out[cells[t]] = '0';
    for (int t = 0; t < ncells; t++)
        out[(cells[t] / C + dr) * C + cells[t] % C + dc] = name;
}

/* Every board one move of z->style away from b, added to z. */
static void cexpand(census *z, const char *b)
{
    const puzzle *P = z->P;
    int N = P->N, R = P->R, C = P->C;
    static const int DR[4] = {0, 0, 1, -1}, DC[4] = {1, -1, 0, 0};
    char out[MAXN];
    int used[MAXN] = {0};
    /* blocks: the first cell not yet assigned that holds a name is a
     * block's topmost-leftmost cell (every cell before it is accounted
     * for), so the board splits into blocks in one way only */
    for (int a = 0; a < N; a++) {
        if (used[a] || b[a] == '0' || b[a] == 'x')
            continue;
        int v = val(b[a]), cells[MAXN], nc = P->kn[v];
        for (int t = 0; t < nc; t++) {
            cells[t] = (a / C + P->kr[v][t]) * C + a % C + P->kc[v][t];
            used[cells[t]] = 1;
        }
        if (z->style == 0) {
            for (int d = 0; d < 4; d++)
                if (fits(z, b, cells, nc, b[a], DR[d], DC[d])) {
                    shifted(z, b, cells, nc, b[a], DR[d], DC[d], out);
                    cadd(z, out);
                }
        } else if (z->style == 1) {
            for (int d = 0; d < 4; d++)
                for (int k = 1; fits(z, b, cells, nc, b[a], k * DR[d], k * DC[d]); k++) {
                    shifted(z, b, cells, nc, b[a], k * DR[d], k * DC[d], out);
                    cadd(z, out);
                }
        } else { /* style 2: every displacement reachable by unit steps */
            int W = 2 * C + 1, H = 2 * R + 1;
            char *seen = calloc((size_t)W * H, 1);
            int *q = malloc(sizeof *q * (size_t)W * H), qh = 0, qt = 0;
            if (!seen || !q)
                die("out of memory", 0);
            q[qt++] = R * W + C; /* displacement (0, 0) */
            seen[R * W + C] = 1;
            while (qh < qt) {
                int at = q[qh++], r0 = at / W - R, c0 = at % W - C;
                for (int d = 0; d < 4; d++) {
                    int dr = r0 + DR[d], dc = c0 + DC[d];
                    if (dr < -R || dr > R || dc < -C || dc > C || seen[(dr + R) * W + dc + C])
                        continue;
                    if (!fits(z, b, cells, nc, b[a], dr, dc))
                        continue;
                    seen[(dr + R) * W + dc + C] = 1;
                    q[qt++] = (dr + R) * W + dc + C;
                    shifted(z, b, cells, nc, b[a], dr, dc, out);
                    cadd(z, out);
                }
            }
            free(seen);
            free(q);
        }
    }
}

static int run_census(const puzzle *P, int style)
{
    census z;
    int names[MAXN], ids[MAXN];
    char b[MAXN];
    memset(&z, 0, sizeof z);
    z.P = P;
    z.style = style;
    fill(P, P->start, names, ids);
    for (int i = 0; i < P->N; i++)
        b[i] = names[i] < 0 ? 'x' : names[i] ? "0123456789abcdef"[names[i]] : '0';
    cadd(&z, b);
    long lo = 0, hi = 1;
    int d = 0;
    while (lo < hi) {
        printf("distance %d: %ld\n", d, hi - lo);
        for (long i = lo; i < hi; i++) {
            memcpy(b, z.boards + i * P->N, (size_t)P->N); /* boards may move on realloc */
            cexpand(&z, b);
        }
        lo = hi;
        hi = z.n;
        d++;
    }
    printf("component: %ld configurations, largest distance %d\n", z.n, d - 1);
    free(z.boards);
    free(z.table);
    return 0;
}

int main(int argc, char **argv)
{
    int census_mode = argc == 4 && !strcmp(argv[1], "census");
    if (argc != 4) {
        fprintf(stderr, "usage: verify_slide STYLE PUZZLE OUTPUT\n"
                        "       verify_slide census STYLE PUZZLE\n");
        return 2;
    }
    const char *sty = argv[census_mode ? 2 : 1];
    char *end;
    long style = strtol(sty, &end, 10);
    if (*end || end == sty || style < 0 || style > (census_mode ? 2 : 5)) {
        fprintf(stderr, "verify_slide: the style must be 0..%d\n", census_mode ? 2 : 5);
        return 2;
    }
    puzzle *P = calloc(1, sizeof *P);
    if (!P)
        die("out of memory", 0);
    read_puzzle(P, argv[census_mode ? 3 : 2]);
    int names[MAXN], ids[MAXN];
    fill(P, P->start, names, ids);
    for (int i = 0; i < P->N; i++)
        P->xcell[i] = names[i] < 0;
    int rc = census_mode ? run_census(P, (int)style) : replay(P, (int)style, argv[3]);
    free(P);
    return rc;
}
