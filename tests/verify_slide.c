/* verify_slide: an independent replay of a sliding-block solution.
 *
 *   verify_slide STYLE PUZZLE OUTPUT
 *
 * PUZZLE is in SLIDING's format; OUTPUT is what `sbfs solve -s STYLE PUZZLE`
 * printed.  Every "move K: P@rRcC ... DIR ..." line is replayed from the
 * start: the named blocks (name and topmost-leftmost cell before the move)
 * take the unit steps together, each step checked to stay on the board, off
 * the x cells and off every block that does not move; the style limits how
 * many blocks may move (one in styles 0-2) and how (one step in 0 and 3, one
 * direction in 1 and 4, any path in 2 and 5).  After the last move the board
 * must equal the stop configuration, and the number of moves must be the N
 * of "solution: N moves".  Shares no code with the library on purpose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 256

static int R, C;
static int kn[16], kr[16][MAXN], kc[16][MAXN], kdef[16];
static int xcell[MAXN];

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
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
        s[--n] = 0;
}

/* Fill names[] (piece name value per cell, 0 empty, -1 x) and ids[]
 * (block number per cell, 0 none) from a configuration line. */
static void fill(const char *s, int *names, int *ids, int *nblocks)
{
    int filled[MAXN] = {0}, j = 0, nb = 0;
    for (int i = 0; i < R * C; i++)
        names[i] = ids[i] = 0;
    for (; *s; s++) {
        while (j < R * C && filled[j])
            j++;
        if (j >= R * C)
            die("configuration past the end of the board", 0);
        if (*s == '0') {
            filled[j] = 1;
        } else if (*s == 'x') {
            filled[j] = 1;
            names[j] = -1;
        } else {
            int v = val(*s);
            if (!v || !kdef[v])
                die("bad piece in a configuration", 0);
            nb++;
            for (int t = 0; t < kn[v]; t++) {
                int r = j / C + kr[v][t], c = j % C + kc[v][t];
                if (r < 0 || r >= R || c < 0 || c >= C || filled[r * C + c])
                    die("piece does not fit", 0);
                filled[r * C + c] = 1;
                names[r * C + c] = v;
                ids[r * C + c] = nb;
            }
        }
        j++;
    }
    *nblocks = nb;
}

int main(int argc, char **argv)
{
    char line[4096];
    if (argc != 4) {
        fprintf(stderr, "usage: verify_slide STYLE PUZZLE OUTPUT\n");
        return 2;
    }
    int style = atoi(argv[1]);
    FILE *f = fopen(argv[2], "r");
    if (!f)
        die("cannot open the puzzle", 0);
    if (!fgets(line, sizeof line, f) || sscanf(line, "%d x %d", &R, &C) != 2 || R * C > MAXN)
        die("bad size line", 0);
    char cfg[2][4096];
    int got = 0;
    while (got < 2 && fgets(line, sizeof line, f)) {
        chomp(line);
        if (!line[0])
            continue;
        if (got == 0 && strlen(line) >= 4 && line[1] == ' ' && line[2] == '=' && line[3] == ' ') {
            int v = val(line[0]);
            if (!v)
                die("bad piece name", 0);
            if (kdef[v])
                continue;
            kdef[v] = 1;
            int r = 0, c = 0, r0 = -1, c0 = 0;
            for (char *p = line + 4; *p; p++) {
                if (*p == '/') {
                    r++;
                    c = 0;
                } else {
                    if (*p == '1') {
                        if (r0 < 0)
                            r0 = r, c0 = c;
                        kr[v][kn[v]] = r - r0;
                        kc[v][kn[v]] = c - c0;
                        kn[v]++;
                    }
                    c++;
                }
            }
            continue;
        }
        strcpy(cfg[got++], line);
    }
    fclose(f);
    if (got < 2)
        die("puzzle lacks start or stop", 0);
    int names[MAXN], ids[MAXN], snames[MAXN], sids[MAXN], nb, nb2;
    fill(cfg[0], names, ids, &nb);
    fill(cfg[1], snames, sids, &nb2);
    for (int i = 0; i < R * C; i++)
        xcell[i] = names[i] < 0;

    f = fopen(argv[3], "r");
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
            for (int i = 0; i < R * C; i++) {
                nn[i] = moving[ids[i]] && ids[i] ? 0 : names[i];
                ni[i] = moving[ids[i]] && ids[i] ? 0 : ids[i];
            }
            for (int i = 0; i < R * C; i++) {
                if (!ids[i] || !moving[ids[i]])
                    continue;
                int r = i / C + dr, c = i % C + dc;
                if (r < 0 || r >= R || c < 0 || c >= C)
                    die("a step leaves the board", lineno);
                int j = r * C + c;
                if (xcell[j] || ni[j])
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
    for (int i = 0; i < R * C; i++)
        if (names[i] != snames[i])
            die("the last board is not the stop configuration", 0);
    printf("verified: %d moves in style %d\n", moves, style);
    return 0;
}
