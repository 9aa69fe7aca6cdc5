/* Independent checker for sliding-tile solutions (sbfs npuzzle, sbfs eight).
 * Shares no code with the library: it reads the instances and the answers,
 * replays every move on a board of its own and checks the goal is reached in
 * exactly the claimed number of moves; an answer "unsolvable" is checked by
 * counting inversions (the library counts cycles).
 *
 *   verify_npuzzle [-g blank-last|blank-first] [-s RxC] [-k] [-e] INSTANCES ANSWERS
 *
 * INSTANCES: one position per line (0 or x for the blank; '#' lines and
 * blank lines skipped).  -k: lines are "number length tiles..." as in
 * data/korf100.txt, and each answer's length must equal the given one.
 * -e: INSTANCES is one ACM "Eight" input (nine tokens, any layout) and
 * ANSWERS its one-line answer (a bare move string or "unsolvable").
 * ANSWERS: "<length>TAB<moves>" or "unsolvable" per instance, '#' lines
 * skipped.  Moves are the blank's directions u d l r. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 25

static int rows, cols, blank_first, korf, eight;

static int fail(int line, const char *why)
{
    printf("FAIL: answer %d: %s\n", line, why);
    return 1;
}

/* Reads tokens into t[]; returns the count.  'x'/'X' is the blank (0). */
static int tokens(char *s, int *t, int max)
{
    int n = 0;
    for (char *tok = strtok(s, " \t\r\n,"); tok; tok = strtok(NULL, " \t\r\n,")) {
        if (n == max)
            return -1;
        if (!strcmp(tok, "x") || !strcmp(tok, "X"))
            t[n++] = 0;
        else if (isdigit((unsigned char)tok[0]))
            t[n++] = atoi(tok);
        else
            return -1;
    }
    return n;
}

static int goal_tile(int cell, int n)
{
    return blank_first ? cell : (cell + 1) % n;
}

static int solvable(const int *b, int n)
{
    /* rank every label by its goal cell, count inversions of the sequence */
    int seq[MAXN], inv = 0, bl = 0, gb = blank_first ? 0 : n - 1;
    for (int i = 0; i < n; i++) {
        seq[i] = blank_first ? b[i] : (b[i] + n - 1) % n;
        if (b[i] == 0)
            bl = i;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            inv += seq[i] > seq[j];
    return (inv & 1) == ((abs(bl / cols - gb / cols) + abs(bl % cols - gb % cols)) & 1);
}

/* 0 if moves take b to the goal in exactly len moves (len < 0: no claim). */
static const char *replay(int *b, int n, const char *mv, int len)
{
    int bl = -1, count = 0;
    for (int i = 0; i < n; i++)
        if (b[i] == 0)
            bl = i;
    for (; *mv && *mv != '\n' && *mv != '\r'; mv++, count++) {
        int r = bl / cols, c = bl % cols, to;
        if (*mv == 'u') r--;
        else if (*mv == 'd') r++;
        else if (*mv == 'l') c--;
        else if (*mv == 'r') c++;
        else return "not a move letter";
        if (r < 0 || r >= rows || c < 0 || c >= cols)
            return "a move leaves the board";
        to = r * cols + c;
        b[bl] = b[to];
        b[to] = 0;
        bl = to;
    }
    if (len >= 0 && count != len)
        return "length differs from the number of moves";
    for (int i = 0; i < n; i++)
        if (b[i] != goal_tile(i, n))
            return "the moves do not reach the goal";
    return NULL;
}

int main(int argc, char **argv)
{
    FILE *fi, *fa;
    char line[4096], ans[4096];
    int i, checked = 0, al = 0;
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-g") && i + 1 < argc)
            blank_first = !strcmp(argv[++i], "blank-first");
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            sscanf(argv[++i], "%dx%d", &rows, &cols);
        else if (!strcmp(argv[i], "-k"))
            korf = 1;
        else if (!strcmp(argv[i], "-e"))
            eight = 1;
        else
            break;
    }
    if (argc - i != 2) {
        fprintf(stderr, "usage: verify_npuzzle [-g GOAL] [-s RxC] [-k] [-e] INSTANCES ANSWERS\n");
        return 2;
    }
    fi = fopen(argv[i], "r");
    fa = fopen(argv[i + 1], "r");
    if (!fi || !fa) {
        fprintf(stderr, "verify_npuzzle: cannot open input\n");
        return 2;
    }
    if (eight) {
        int t[MAXN], n = 0, k;
        rows = cols = 3;
        while (fgets(line, sizeof line, fi)) {
            k = tokens(line, t + n, 9 - n);
            if (k < 0)
                return fail(1, "bad instance");
            n += k;
        }
        if (n != 9)
            return fail(1, "instance is not nine tiles");
        if (!fgets(ans, sizeof ans, fa))
            return fail(1, "no answer");
        if (!strncmp(ans, "unsolvable", 10))
            return solvable(t, 9) ? fail(1, "claimed unsolvable, but it is solvable") : (printf("ok: 1 answer\n"), 0);
        if (!solvable(t, 9))
            return fail(1, "a solution for an unsolvable position");
        {
            const char *why = replay(t, 9, ans, -1);
            if (why)
                return fail(1, why);
        }
        printf("ok: 1 answer, %d moves\n", (int)strcspn(ans, "\r\n"));
        return 0;
    }
    while (fgets(line, sizeof line, fi)) {
        int t[MAXN + 2], n, want = -1, *b;
        char *p = line + strspn(line, " \t");
        const char *why;
        if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
            continue;
        n = tokens(line, t, MAXN + 2);
        b = t;
        if (korf) {
            if (n < 3)
                return fail(checked + 1, "bad korf line");
            want = t[1];
            b = t + 2;
            n -= 2;
        }
        if (n < 4)
            return fail(checked + 1, "bad instance line");
        if (!rows) {
            for (rows = 2; rows * rows < n; rows++)
                ;
            cols = rows;
        }
        if (rows * cols != n)
            return fail(checked + 1, "instance has the wrong number of tiles");
        do {
            if (!fgets(ans, sizeof ans, fa))
                return fail(checked + 1, "missing answer");
            al++;
        } while (ans[0] == '#');
        checked++;
        if (!strncmp(ans, "unsolvable", 10)) {
            if (solvable(b, n) || want >= 0)
                return fail(checked, "claimed unsolvable, but it is solvable");
            continue;
        }
        {
            char *tab = strchr(ans, '\t');
            int len;
            if (!tab)
                return fail(checked, "answer is not LENGTH<TAB>MOVES");
            len = atoi(ans);
            if (want >= 0 && len != want)
                return fail(checked, "length differs from the published optimum");
            why = replay(b, n, tab + 1, len);
            if (why)
                return fail(checked, why);
        }
    }
    while (fgets(ans, sizeof ans, fa))
        if (ans[0] != '#')
            return fail(checked + 1, "more answers than instances");
    printf("ok: %d answers\n", checked);
    fclose(fi);
    fclose(fa);
    return 0;
}
