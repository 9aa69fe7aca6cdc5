/* slide_oracle: an independent model of SLIDING's puzzles, for checking
 * the library.  It reads the puzzle text itself, keeps a configuration as
 * a whole board (the name of the piece covering each cell), finds every
 * move by shifting blocks cell by cell, and counts a component by a plain
 * breadth-first search over boards.  It shares no code with the library
 * and includes none of its headers: tests/verify_slide.c replays printed
 * solutions with it, tests/test_random_slide.c and the fuzz target compare
 * every engine with it.
 *
 * Moves.  A move shifts a set S of blocks by a displacement v; it is legal
 * when every cell of S, shifted by v, is on the board, not x, and empty or
 * part of S.  In styles 0-2 S is one block, in styles 3-5 any nonempty set
 * that can take one unit step: such a set is closed under "bumps into" (a
 * block of S whose shifted cells cover block w needs w in S too) and holds
 * no block that a wall or an x stops.  So the sets for one direction are
 * the unions of the closures of the blocks whose closure is not stopped,
 * and that is how they are listed here (a set found for two directions is
 * kept once).  Then v is one unit step (styles 0, 3), any number of steps
 * in one direction (1, 4), or any displacement reached by unit steps that
 * are each legal (2, 5).  A piece written `N = PATTERN h` (or `v`) never
 * leaves its row (column): a shift that moves it across is not legal, and
 * it stops every set in the two directions it may not take.
 *
 * Every function returns NULL or a message; nothing exits. */
#ifndef SBFS_SLIDE_ORACLE_H
#define SBFS_SLIDE_ORACLE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SO_MAXN 256
#define SO_MAXGOALS 64
#define SO_LINELEN 4096

typedef struct so_puzzle {
    int R, C, N;
    int kdef[16], kn[16], kr[16][SO_MAXN], kc[16][SO_MAXN];
    char kaxis[16]; /* 'h', 'v' or 0 */
    int rush;       /* read from a Rush Hour line: kind names are the oracle's own */
    char start[SO_LINELEN];
    int ngoals;
    char goal[SO_MAXGOALS][SO_LINELEN];
    int xcell[SO_MAXN];
} so_puzzle;

/* A stop line on the board: per cell FREE, EMPTY, X or the name value of
 * the named block covering it; anchor[c] = 1 where a named block starts. */
enum { SO_FREE = -2, SO_X = -1, SO_EMPTY = 0 };
typedef struct so_goal {
    int cell[SO_MAXN], anchor[SO_MAXN];
} so_goal;

static inline int so_val(int ch)
{
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    return 0;
}

static inline char so_name(int v)
{
    return "0123456789abcdef"[v & 15];
}

/* Fill names[] (piece name value per cell, 0 empty, -1 x) and ids[]
 * (block number per cell from 1, 0 none) from a start line. */
static inline const char *so_fill(const so_puzzle *P, const char *s, int *names, int *ids)
{
    int filled[SO_MAXN] = {0}, j = 0, nb = 0;
    for (int i = 0; i < P->N; i++)
        names[i] = ids[i] = 0;
    for (; *s; s++) {
        while (j < P->N && filled[j])
            j++;
        if (j >= P->N)
            return "configuration past the end of the board";
        if (*s == '0') {
            filled[j] = 1;
        } else if (*s == 'x') {
            filled[j] = 1;
            names[j] = -1;
        } else {
            int v = so_val(*s);
            if (!v || !P->kdef[v])
                return "bad piece in a configuration";
            nb++;
            for (int t = 0; t < P->kn[v]; t++) {
                int r = j / P->C + P->kr[v][t], c = j % P->C + P->kc[v][t];
                if (r < 0 || r >= P->R || c < 0 || c >= P->C || filled[r * P->C + c])
                    return "piece does not fit";
                filled[r * P->C + c] = 1;
                names[r * P->C + c] = v;
                ids[r * P->C + c] = nb;
            }
        }
        j++;
    }
    return NULL;
}

/* A Rush Hour line (36 characters: A the red car, B..Z the others, o or
 * . empty, x a wall) as a puzzle of its own making: the red car is kind 1,
 * locked across; every other car of length L is kind L ('h', across) or
 * 5 + L ('v'); the goal is the red car at the right edge of row 3. */
static inline const char *so_parse_rush(so_puzzle *P, const char *s)
{
    int first[128], cnt[128] = {0}, last[128], kind[128] = {0}, filled[36] = {0}, n = 0;
    memset(P, 0, sizeof *P);
    P->R = P->C = 6;
    P->N = 36;
    P->rush = 1;
    for (int i = 0; i < 36; i++) {
        int c = (unsigned char)s[i];
        if (c == 'x')
            P->xcell[i] = 1;
        else if (c >= 'A' && c <= 'Z') {
            if (!cnt[c]++)
                first[c] = i;
            last[c] = i;
        } else if (c != 'o' && c != '.')
            return "bad character in a Rush Hour line";
    }
    for (int c = 'A'; c <= 'Z'; c++) {
        if (!cnt[c])
            continue;
        int across = last[c] - first[c] == cnt[c] - 1 && first[c] / 6 == last[c] / 6;
        int down = last[c] - first[c] == 6 * (cnt[c] - 1);
        if (cnt[c] < 2 || cnt[c] > 5 || (!across && !down))
            return "a car is not a straight run of 2 to 5 cells";
        kind[c] = c == 'A' ? 1 : across ? cnt[c] : 5 + cnt[c];
        if (c == 'A' && (!across || first[c] / 6 != 2))
            return "the red car is not across the third row";
        int v = kind[c];
        P->kdef[v] = 1;
        P->kaxis[v] = across ? 'h' : 'v';
        P->kn[v] = cnt[c];
        for (int t = 0; t < cnt[c]; t++) {
            P->kr[v][t] = across ? 0 : t;
            P->kc[v][t] = across ? t : 0;
        }
    }
    if (!cnt['A'])
        return "no red car";
    for (int i = 0; i < 36; i++) { /* the start in SLIDING's shorthand */
        int c = (unsigned char)s[i];
        if (filled[i])
            continue;
        if (c >= 'A' && c <= 'Z') {
            P->start[n++] = so_name(kind[c]);
            for (int t = 0; t < cnt[c]; t++)
                filled[i + (P->kaxis[kind[c]] == 'h' ? t : 6 * t)] = 1;
        } else {
            P->start[n++] = c == 'x' ? 'x' : '0';
        }
    }
    P->start[n] = 0;
    P->ngoals = 1;
    strcpy(P->goal[0], "................1*");
    return NULL;
}

/* Read a puzzle from text (NUL-terminated): "R x C", piece lines
 * "N = PATTERN", the start line, then every nonblank line a stop line; or
 * a Rush Hour line (so_parse_rush). */
static inline const char *so_parse(so_puzzle *P, const char *text)
{
    {
        const char *t = text;
        while (*t == '\n' || *t == '\r')
            t++;
        size_t n = strcspn(t, " \t\r\n");
        if (n == 36 && strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZox.") >= 36)
            return so_parse_rush(P, t);
    }
    char line[SO_LINELEN];
    int got = 0, first = 1;
    memset(P, 0, sizeof *P);
    while (*text) {
        size_t n = strcspn(text, "\n");
        if (n >= sizeof line)
            return "line too long";
        memcpy(line, text, n);
        line[n] = 0;
        text += n + (text[n] == '\n');
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
            line[--n] = 0;
        if (first) {
            first = 0;
            if (sscanf(line, "%d x %d", &P->R, &P->C) != 2 || P->R <= 0 || P->C <= 0 ||
                P->R > SO_MAXN || P->C > SO_MAXN || P->R * P->C > SO_MAXN)
                return "bad size line";
            P->N = P->R * P->C;
            continue;
        }
        if (!line[0])
            continue;
        if (!got && n >= 4 && line[1] == ' ' && line[2] == '=' && line[3] == ' ') {
            int v = so_val(line[0]);
            if (!v)
                return "bad piece name";
            if (P->kdef[v])
                continue; /* a redefinition is ignored */
            P->kdef[v] = 1;
            int r = 0, c = 0, r0 = -1, c0 = 0;
            char *last = line + strlen(line) - 1;
            if (*last == 'h' || *last == 'v') { /* "11 h": cut the lock off */
                P->kaxis[v] = *last;
                *last = 0;
                while (last > line + 4 && (last[-1] == ' ' || last[-1] == '\t'))
                    *--last = 0;
            }
            for (char *p = line + 4; *p; p++) {
                if (*p == '/') {
                    r++;
                    c = 0;
                    continue;
                }
                if (*p == '1') {
                    if (r0 < 0)
                        r0 = r, c0 = c;
                    if (P->kn[v] == SO_MAXN)
                        return "piece too large";
                    P->kr[v][P->kn[v]] = r - r0;
                    P->kc[v][P->kn[v]] = c - c0;
                    P->kn[v]++;
                }
                c++;
            }
            if (!P->kn[v])
                return "empty piece";
            continue;
        }
        if (!got)
            strcpy(P->start, line);
        else if (got - 1 < SO_MAXGOALS)
            strcpy(P->goal[got - 1], line);
        else
            return "too many stop lines";
        got++;
    }
    if (first)
        return "bad size line";
    if (got < 2)
        return "puzzle lacks start or stop";
    P->ngoals = got - 1;
    int names[SO_MAXN], ids[SO_MAXN];
    const char *e = so_fill(P, P->start, names, ids);
    if (e)
        return e;
    for (int i = 0; i < P->N; i++)
        P->xcell[i] = names[i] < 0;
    return NULL;
}

/* A stop line on the board.  The cursor is the first cell not yet filled:
 * `0`, `x` and `.` fill it alone, a name fills the cells of its block, `*`
 * frees every cell not yet filled; cells left at the end are empty. */
static inline const char *so_fill_goal(const so_puzzle *P, const char *s, so_goal *g)
{
    int filled[SO_MAXN] = {0}, j = 0;
    for (int i = 0; i < P->N; i++)
        g->cell[i] = SO_EMPTY, g->anchor[i] = 0;
    for (; *s; s++) {
        if (*s == '*') {
            if (s[1])
                return "'*' before the end of a stop line";
            for (int i = 0; i < P->N; i++)
                if (!filled[i])
                    filled[i] = 1, g->cell[i] = SO_FREE;
            break;
        }
        while (j < P->N && filled[j])
            j++;
        if (j >= P->N)
            return "stop line past the end of the board";
        filled[j] = 1;
        if (*s == '0') {
            g->cell[j] = SO_EMPTY;
        } else if (*s == 'x') {
            g->cell[j] = SO_X;
        } else if (*s == '.') {
            g->cell[j] = SO_FREE;
        } else {
            int v = so_val(*s);
            if (!v || !P->kdef[v])
                return "bad piece in a stop line";
            g->anchor[j] = 1;
            for (int t = 0; t < P->kn[v]; t++) {
                int r = j / P->C + P->kr[v][t], c = j % P->C + P->kc[v][t];
                if (r < 0 || r >= P->R || c < 0 || c >= P->C || (filled[r * P->C + c] && t))
                    return "piece does not fit in a stop line";
                filled[r * P->C + c] = 1;
                g->cell[r * P->C + c] = v;
            }
        }
        j++;
    }
    return NULL;
}

/* Does the board (names, ids) match goal g? */
static inline int so_matches(const so_puzzle *P, const so_goal *g, const int *names, const int *ids)
{
    for (int c = 0; c < P->N; c++) {
        int want = g->cell[c];
        if (want == SO_FREE)
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

/* ---- boards and blocks ---- */

/* A board is N characters: '0' empty, 'x' blocked, else the name of the
 * piece covering the cell. */
static inline void so_board(const so_puzzle *P, const int *names, char *b)
{
    for (int i = 0; i < P->N; i++)
        b[i] = names[i] < 0 ? 'x' : so_name(names[i]);
}

/* The blocks of a board.  The first cell not yet assigned that holds a
 * name is the topmost-leftmost cell of a block of that name (every cell
 * before it is accounted for), so a board splits into blocks in one way
 * only.  own[c] is the block covering cell c, -1 for none.  Returns the
 * number of blocks, or -1 when the board is not made of whole blocks. */
typedef struct so_blocks {
    int nb;
    int own[SO_MAXN];
    int first[SO_MAXN + 1]; /* block k's cells are cell[first[k] .. first[k+1]) */
    int cell[SO_MAXN];
    char name[SO_MAXN];
} so_blocks;

static inline int so_split(const so_puzzle *P, const char *b, so_blocks *B)
{
    int n = 0;
    B->nb = 0;
    for (int i = 0; i < P->N; i++)
        B->own[i] = -1;
    for (int a = 0; a < P->N; a++) {
        if (B->own[a] >= 0 || b[a] == '0' || b[a] == 'x')
            continue;
        int v = so_val(b[a]);
        if (!v || !P->kdef[v])
            return -1;
        B->first[B->nb] = n;
        B->name[B->nb] = b[a];
        for (int t = 0; t < P->kn[v]; t++) {
            int r = a / P->C + P->kr[v][t], c = a % P->C + P->kc[v][t], k = r * P->C + c;
            if (r < 0 || r >= P->R || c < 0 || c >= P->C || b[k] != b[a] || B->own[k] >= 0)
                return -1;
            B->own[k] = B->nb;
            B->cell[n++] = k;
        }
        B->nb++;
    }
    B->first[B->nb] = n;
    return B->nb;
}

/* names[] and ids[] (as so_fill makes them) of a board split into B. */
static inline void so_names_ids(const so_puzzle *P, const char *b, const so_blocks *B, int *names, int *ids)
{
    for (int i = 0; i < P->N; i++) {
        names[i] = b[i] == 'x' ? -1 : so_val(b[i]);
        ids[i] = B->own[i] + 1;
    }
}

static inline int so_is_goal(const so_puzzle *P, const so_goal *goals, const char *b, const so_blocks *B)
{
    int names[SO_MAXN], ids[SO_MAXN];
    so_names_ids(P, b, B, names, ids);
    for (int g = 0; g < P->ngoals; g++)
        if (so_matches(P, &goals[g], names, ids))
            return 1;
    return 0;
}

/* ---- moves ---- */

static const int SO_DR[4] = {0, 0, 1, -1}, SO_DC[4] = {1, -1, 0, 0};

/* The board with the blocks in[] shifted by (dr, dc) into out, or 0 when
 * that is not legal. */
static inline int so_shift(const so_puzzle *P, const char *b, const so_blocks *B, const char *in, int dr, int dc,
                    char *out)
{
    for (int k = 0; k < B->nb; k++) {
        char ax = in[k] ? P->kaxis[so_val(B->name[k])] : 0;
        if ((ax == 'h' && dr != 0) || (ax == 'v' && dc != 0))
            return 0; /* off its line */
    }
    memcpy(out, b, (size_t)P->N);
    for (int k = 0; k < B->nb; k++)
        if (in[k])
            for (int t = B->first[k]; t < B->first[k + 1]; t++)
                out[B->cell[t]] = '0';
    for (int k = 0; k < B->nb; k++)
        if (in[k])
            for (int t = B->first[k]; t < B->first[k + 1]; t++) {
                int r = B->cell[t] / P->C + dr, c = B->cell[t] % P->C + dc;
                if (r < 0 || r >= P->R || c < 0 || c >= P->C || P->xcell[r * P->C + c])
                    return 0;
                int o = B->own[r * P->C + c];
                if (o >= 0 && !in[o])
                    return 0;
                out[r * P->C + c] = B->name[k];
            }
    return 1;
}

typedef void (*so_emit)(void *ctx, const char *board);

/* Every board one move of `style` away from b through the set in[]. */
static inline void so_translations(const so_puzzle *P, int style, const char *b, const so_blocks *B, const char *in,
                            so_emit emit, void *ctx)
{
    char out[SO_MAXN];
    if (style % 3 == 0) {
        for (int d = 0; d < 4; d++)
            if (so_shift(P, b, B, in, SO_DR[d], SO_DC[d], out))
                emit(ctx, out);
    } else if (style % 3 == 1) {
        for (int d = 0; d < 4; d++)
            for (int k = 1; so_shift(P, b, B, in, k * SO_DR[d], k * SO_DC[d], out); k++)
                emit(ctx, out);
    } else { /* a flood over displacements, each reached by a legal step */
        int W = 2 * P->C + 1, H = 2 * P->R + 1;
        char *seen = calloc((size_t)W * (size_t)H, 1);
        int *q = malloc(sizeof *q * (size_t)W * (size_t)H), qh = 0, qt = 0;
        if (!seen || !q) {
            free(seen);
            free(q);
            return;
        }
        q[qt++] = P->R * W + P->C;
        seen[P->R * W + P->C] = 1;
        while (qh < qt) {
            int at = q[qh++], r0 = at / W - P->R, c0 = at % W - P->C;
            for (int d = 0; d < 4; d++) {
                int dr = r0 + SO_DR[d], dc = c0 + SO_DC[d], k = (dr + P->R) * W + dc + P->C;
                if (dr < -P->R || dr > P->R || dc < -P->C || dc > P->C || seen[k])
                    continue;
                if (!so_shift(P, b, B, in, dr, dc, out))
                    continue;
                seen[k] = 1;
                q[qt++] = k;
                emit(ctx, out);
            }
        }
        free(seen);
        free(q);
    }
}

/* A set of block masks, each kept once, in the order added. */
typedef struct so_masks {
    uint64_t *m, *tab;
    long n, cap; /* tab has 2 * cap slots, 0 = empty (masks are never 0) */
} so_masks;

static inline int so_masks_add(so_masks *s, uint64_t m)
{
    if (2 * (s->n + 1) > s->cap) { /* grow and rehash */
        long cap = s->cap ? 2 * s->cap : 64;
        uint64_t *a = realloc(s->m, sizeof *a * (size_t)cap), *t = calloc(2 * (size_t)cap, sizeof *t);
        if (a)
            s->m = a;
        if (!a || !t) {
            free(t);
            return -1;
        }
        free(s->tab);
        s->tab = t;
        s->cap = cap;
        for (long i = 0; i < s->n; i++) {
            long at = (long)((s->m[i] * 0x9e3779b97f4a7c15ULL) >> 20) % (2 * cap);
            while (s->tab[at])
                at = (at + 1) % (2 * cap);
            s->tab[at] = s->m[i];
        }
    }
    long at = (long)((m * 0x9e3779b97f4a7c15ULL) >> 20) % (2 * s->cap);
    while (s->tab[at] && s->tab[at] != m)
        at = (at + 1) % (2 * s->cap);
    if (s->tab[at])
        return 0;
    s->tab[at] = m;
    s->m[s->n++] = m;
    return 1;
}

static inline void so_masks_free(so_masks *s)
{
    free(s->m);
    free(s->tab);
    memset(s, 0, sizeof *s);
}

/* The sets of blocks of B that can take one unit step in direction d,
 * added to all: the unions of the closures that no wall stops.  Adding
 * the closures one at a time, each to every union made before it and
 * alone, makes every union of a subset of them. */
static inline const char *so_supersets(const so_puzzle *P, const so_blocks *B, int d, long maxsets, so_masks *all)
{
    uint64_t bump[64] = {0}, stuck = 0;
    so_masks u = {0};
    const char *err = NULL;
    for (int k = 0; k < B->nb; k++)
        if (P->kaxis[so_val(B->name[k])] == (d < 2 ? 'v' : 'h'))
            stuck |= (uint64_t)1 << k; /* locked to the other axis */
    for (int k = 0; k < B->nb; k++)
        for (int t = B->first[k]; t < B->first[k + 1]; t++) {
            int r = B->cell[t] / P->C + SO_DR[d], c = B->cell[t] % P->C + SO_DC[d];
            if (r < 0 || r >= P->R || c < 0 || c >= P->C || P->xcell[r * P->C + c])
                stuck |= (uint64_t)1 << k;
            else if (B->own[r * P->C + c] >= 0 && B->own[r * P->C + c] != k)
                bump[k] |= (uint64_t)1 << B->own[r * P->C + c];
        }
    for (int k = 0; k < B->nb && !err; k++) {
        uint64_t m = (uint64_t)1 << k, was = 0; /* the closure of k */
        while (m != was) {
            was = m;
            for (int v = 0; v < B->nb; v++)
                if (m >> v & 1)
                    m |= bump[v];
        }
        if (m & stuck)
            continue;
        long before = u.n;
        for (long i = -1; i < before && !err; i++)
            if (so_masks_add(&u, i < 0 ? m : u.m[i] | m) < 0)
                err = "out of memory";
            else if (maxsets > 0 && u.n > maxsets)
                err = "too many superpieces";
    }
    for (long i = 0; i < u.n && !err; i++)
        if (so_masks_add(all, u.m[i]) < 0)
            err = "out of memory";
    so_masks_free(&u);
    return err;
}

/* Every board one move of `style` away from b (repeats possible).  Styles
 * 3-5 take at most 64 blocks and give up past maxsets sets for one
 * direction (0: no limit).  Returns NULL or why it gave up. */
static inline const char *so_expand(const so_puzzle *P, int style, const char *b, long maxsets, so_emit emit,
                             void *ctx)
{
    so_blocks *B = malloc(sizeof *B);
    char in[SO_MAXN] = {0};
    const char *err = NULL;
    if (!B)
        return "out of memory";
    if (so_split(P, b, B) < 0) {
        err = "the board is not made of whole blocks";
    } else if (style < 3) {
        for (int k = 0; k < B->nb; k++) {
            in[k] = 1;
            so_translations(P, style, b, B, in, emit, ctx);
            in[k] = 0;
        }
    } else if (B->nb > 64) {
        err = "more than 64 blocks in a superpiece style";
    } else {
        so_masks all = {0};
        for (int d = 0; d < 4 && !err; d++)
            err = so_supersets(P, B, d, maxsets, &all);
        for (long i = 0; i < all.n && !err; i++) {
            for (int k = 0; k < B->nb; k++)
                in[k] = all.m[i] >> k & 1;
            so_translations(P, style, b, B, in, emit, ctx);
        }
        so_masks_free(&all);
    }
    free(B);
    return err;
}

/* ---- census ---- */

/* A breadth-first search over boards from one board: boards are kept in
 * the order found (level d is a contiguous run), with an open-addressing
 * table of indices beside it. */
typedef struct so_census {
    const so_puzzle *P;
    int style;
    char *boards;
    long n, cap;
    long *table;
    long tsize;
    long limit;      /* give up past this many boards (0: no limit) */
    long maxsets;    /* superpieces per board (styles 3-5) */
    int nlev;        /* levels found */
    long *lev;       /* lev[d] = first index at distance d, lev[nlev] = n */
    int goal;        /* first distance holding a goal, -1 for none */
    int oom;
} so_census;

static inline unsigned long so_hash(const char *b, int n)
{
    unsigned long h = 5381;
    for (int i = 0; i < n; i++)
        h = h * 33 + (unsigned char)b[i];
    return h ^ (h >> 17);
}

/* Index of board b, or -1. */
static inline long so_find(const so_census *z, const char *b)
{
    int N = z->P->N;
    if (!z->tsize)
        return -1;
    unsigned long h = so_hash(b, N) & (unsigned long)(z->tsize - 1);
    while (z->table[h] >= 0) {
        if (!memcmp(z->boards + z->table[h] * N, b, (size_t)N))
            return z->table[h];
        h = (h + 1) & (unsigned long)(z->tsize - 1);
    }
    return -1;
}

static inline void so_add(void *ctx, const char *b)
{
    so_census *z = ctx;
    int N = z->P->N;
    if (z->oom || so_find(z, b) >= 0)
        return;
    if (2 * (z->n + 1) > z->tsize) { /* grow and rehash */
        long ts = z->tsize ? 2 * z->tsize : 1024;
        long *t = malloc(sizeof *t * (size_t)ts);
        if (!t) {
            z->oom = 1;
            return;
        }
        for (long i = 0; i < ts; i++)
            t[i] = -1;
        for (long i = 0; i < z->n; i++) {
            unsigned long h = so_hash(z->boards + i * N, N) & (unsigned long)(ts - 1);
            while (t[h] >= 0)
                h = (h + 1) & (unsigned long)(ts - 1);
            t[h] = i;
        }
        free(z->table);
        z->table = t;
        z->tsize = ts;
    }
    if (z->n == z->cap) {
        long cap = z->cap ? 2 * z->cap : 1024;
        char *nb = realloc(z->boards, (size_t)cap * (size_t)N);
        if (!nb) {
            z->oom = 1;
            return;
        }
        z->boards = nb;
        z->cap = cap;
    }
    unsigned long h = so_hash(b, N) & (unsigned long)(z->tsize - 1);
    while (z->table[h] >= 0)
        h = (h + 1) & (unsigned long)(z->tsize - 1);
    memcpy(z->boards + z->n * N, b, (size_t)N);
    z->table[h] = z->n++;
}

static inline void so_census_free(so_census *z)
{
    free(z->boards);
    free(z->table);
    free(z->lev);
    memset(z, 0, sizeof *z);
}

/* The component of board `from` in `style`, level by level, and the first
 * distance at which a board matches one of the goals (goals may be NULL).
 * Gives up (returning why) past `limit` boards or `maxsets` superpieces
 * on a board; 0 for no limit. */
static inline const char *so_run_census(so_census *z, const so_puzzle *P, int style, const char *from,
                                 const so_goal *goals, long limit, long maxsets)
{
    const char *err = NULL;
    char b[SO_MAXN];
    so_blocks *B = malloc(sizeof *B);
    memset(z, 0, sizeof *z);
    z->P = P;
    z->style = style;
    z->limit = limit;
    z->maxsets = maxsets;
    z->goal = -1;
    if (!B)
        return "out of memory";
    so_add(z, from);
    long lo = 0, hi = z->n;
    int levcap = 0;
    while (lo < hi && !err) {
        if (z->nlev + 1 >= levcap) {
            levcap = levcap ? 2 * levcap : 64;
            long *nl = realloc(z->lev, sizeof *nl * (size_t)levcap);
            if (!nl) {
                err = "out of memory";
                break;
            }
            z->lev = nl;
        }
        z->lev[z->nlev++] = lo;
        for (long i = lo; i < hi && !err; i++) {
            memcpy(b, z->boards + i * P->N, (size_t)P->N); /* boards move on realloc */
            if (z->goal < 0 && goals) {
                if (so_split(P, b, B) < 0)
                    err = "the board is not made of whole blocks";
                else if (so_is_goal(P, goals, b, B))
                    z->goal = z->nlev - 1;
            }
            if (!err)
                err = so_expand(P, style, b, z->maxsets, so_add, z);
            if (!err && z->oom)
                err = "out of memory";
            if (!err && limit && z->n > limit)
                err = "too many configurations";
        }
        lo = hi;
        hi = z->n;
    }
    if (!err)
        z->lev[z->nlev] = z->n;
    free(B);
    return err;
}

static inline long so_level_size(const so_census *z, int d)
{
    return d < z->nlev ? z->lev[d + 1] - z->lev[d] : 0;
}

/* ---- checking a path ---- */

typedef struct so_seek {
    const char *want;
    int N, found;
} so_seek;

static inline void so_seek_emit(void *ctx, const char *b)
{
    so_seek *s = ctx;
    s->found |= !memcmp(s->want, b, (size_t)s->N);
}

/* Is `to` one move of `style` away from `from`? */
static inline const char *so_is_move(const so_puzzle *P, int style, const char *from, const char *to)
{
    so_seek s = {to, P->N, 0};
    const char *e = so_expand(P, style, from, 0, so_seek_emit, &s);
    return e ? e : s.found ? NULL : "two boards of the path are not one move apart";
}

#endif
