/* Independent checker of Tetraminx solutions.  It shares no code with the
 * library: the position is a plain 28-character facelet string and the
 * eight moves are the facelet permutations of docs/FORMAT.md, written out
 * here once more.
 *
 * usage: verify_tetraminx POSITIONS SOLUTIONS
 *   POSITIONS  one position per line: a 28-letter facelet string or a
 *              scramble (U U' L L' R R' B B', tips u l r b skipped, X2 = X')
 *   SOLUTIONS  the matching lines of `sbfs tetraminx solve` (plain, or with
 *              -v: "D: moves")
 * For every line it checks that the solution is written as moves separated
 * by single spaces, that it takes the position to solved, that it has the
 * claimed number of moves (with -v), and that no shorter solution exists.
 * Optimality is checked by meeting in the middle: every position within 5
 * moves of solved is stored with its distance, then every sequence of up to
 * 5 moves from the position is tried against that store; this finds the
 * exact distance of anything within 10, and shows that anything else needs
 * at least 11.  Exit 0 when every line passes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NF 28
static const char SOLVED[NF + 1] = "FFFFFFDDDDDDLLLLLLRRRRRRDRLF";
static const char *const NAMES[8] = {"U", "U'", "L", "L'", "R", "R'", "B", "B'"};
/* After move m, facelet j holds what was on facelet SRC[m][j]. */
static const unsigned char SRC[8][NF] = {
    {18, 19, 2, 3, 4, 23, 6, 7, 8, 9, 10, 11, 12, 5, 0, 1, 16, 17, 14, 15, 20, 21, 22, 13, 24, 25, 26, 27},
    {14, 15, 2, 3, 4, 13, 6, 7, 8, 9, 10, 11, 12, 23, 18, 19, 16, 17, 0, 1, 20, 21, 22, 5, 24, 25, 26, 27},
    {0, 1, 2, 15, 16, 17, 4, 5, 8, 9, 10, 3, 12, 13, 14, 11, 6, 7, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27},
    {0, 1, 2, 11, 6, 7, 16, 17, 8, 9, 10, 15, 12, 13, 14, 3, 4, 5, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27},
    {0, 7, 8, 9, 4, 5, 6, 21, 22, 23, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 1, 2, 3, 24, 25, 26, 27},
    {0, 21, 22, 23, 4, 5, 6, 1, 2, 3, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 7, 8, 9, 24, 25, 26, 27},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 17, 12, 13, 20, 21, 14, 15, 16, 19, 18, 9, 10, 11, 22, 23, 24, 25, 26, 27},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 19, 20, 21, 10, 11, 14, 15, 16, 9, 18, 17, 12, 13, 22, 23, 24, 25, 26, 27},
};

static void apply(char *s, int m)
{
    char t[NF];
    for (int j = 0; j < NF; j++)
        t[j] = s[SRC[m][j]];
    memcpy(s, t, NF);
}

/* ---- the store of positions within HALF moves of solved ---- */
#define HALF 5
#define SLOTS (1u << 16)
struct slot {
    char s[NF];
    int used, dist;
};
static struct slot *store;

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < NF; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static struct slot *find(const char *s)
{
    uint32_t i = hash(s) & (SLOTS - 1);
    while (store[i].used && memcmp(store[i].s, s, NF) != 0)
        i = (i + 1) & (SLOTS - 1);
    return &store[i];
}

static void build_store(void)
{
    static char level[2][20000][NF];
    int n[2] = {1, 0}, cur = 0;
    store = calloc(SLOTS, sizeof *store);
    if (!store) {
        fprintf(stderr, "verify_tetraminx: out of memory\n");
        exit(2);
    }
    memcpy(level[0][0], SOLVED, NF);
    struct slot *z = find(SOLVED);
    memcpy(z->s, SOLVED, NF);
    z->used = 1;
    for (int d = 1; d <= HALF; d++) {
        int nx = 1 - cur;
        n[nx] = 0;
        for (int i = 0; i < n[cur]; i++)
            for (int m = 0; m < 8; m++) {
                char t[NF];
                memcpy(t, level[cur][i], NF);
                apply(t, m);
                struct slot *e = find(t);
                if (!e->used) {
                    memcpy(e->s, t, NF);
                    e->used = 1;
                    e->dist = d;
                    if (n[nx] >= 20000) {
                        fprintf(stderr, "verify_tetraminx: level store too small\n");
                        exit(2);
                    }
                    memcpy(level[nx][n[nx]++], t, NF);
                }
            }
        cur = nx;
    }
}

/* Least a + dist(x after a moves) over all sequences of a <= HALF moves
 * from s; exact when the distance of s is at most 2 * HALF. */
static int best;
static void search(const char *s, int depth, int last)
{
    struct slot *e = find(s);
    if (e->used && depth + e->dist < best)
        best = depth + e->dist;
    if (depth == HALF)
        return;
    for (int m = 0; m < 8; m++) {
        char t[NF];
        if (last >= 0 && m / 2 == last / 2)
            continue; /* X X is X', X X' nothing: never shorter */
        memcpy(t, s, NF);
        apply(t, m);
        search(t, depth + 1, m);
    }
}

static int distance(const char *s)
{
    best = 1000;
    search(s, 0, -1);
    return best; /* > 2 * HALF: at least 2 * HALF + 1 */
}

static int fail(int line, const char *what, const char *detail)
{
    fprintf(stderr, "verify_tetraminx: line %d: %s%s%s\n", line, what, detail ? ": " : "",
            detail ? detail : "");
    return 1;
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

/* Read a position line into pos (28 letters).  0 on success. */
static int read_position(char *line, char *pos)
{
    char *tok, *save = NULL;
    size_t n = strlen(line);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = '\0';
    while (*line == ' ' || *line == '\t')
        line++, n--;
    if (n == NF && strspn(line, "FDLR") == NF) {
        memcpy(pos, line, NF);
        return 0;
    }
    memcpy(pos, SOLVED, NF);
    for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        const char *corners = "ULRB", *c;
        size_t k = strlen(tok);
        if (k > 2 || (k == 2 && tok[1] != '\'' && tok[1] != '2'))
            return -1;
        if (strchr("ulrb", tok[0]))
            continue;
        if (!(c = strchr(corners, tok[0])) || !*tok)
            return -1;
        apply(pos, (int)(c - corners) * 2 + (k == 2));
    }
    return 0;
}

int main(int argc, char **argv)
{
    FILE *fp, *fs;
    char pl[70000], sl[70000];
    int line = 0, bad = 0;
    long moves = 0;
    if (argc != 3) {
        fprintf(stderr, "usage: verify_tetraminx POSITIONS SOLUTIONS\n");
        return 2;
    }
    fp = fopen(argv[1], "r");
    fs = fopen(argv[2], "r");
    if (!fp || !fs) {
        fprintf(stderr, "verify_tetraminx: cannot open %s\n", fp ? argv[2] : argv[1]);
        return 2;
    }
    build_store();
    while (fgets(pl, sizeof pl, fp)) {
        char pos[NF], start[NF], *p;
        int claimed = -1, len = 0, d;
        line++;
        chomp(pl);
        if (!fgets(sl, sizeof sl, fs)) {
            bad |= fail(line, "no solution line", NULL);
            break;
        }
        chomp(sl);
        if (read_position(pl, pos)) {
            bad |= fail(line, "cannot read the position", pl);
            continue;
        }
        memcpy(start, pos, NF);
        p = sl;
        if (*p >= '0' && *p <= '9') {
            claimed = (int)strtol(p, &p, 10);
            if (*p != ':') {
                bad |= fail(line, "bad distance prefix", sl);
                continue;
            }
            p++;
            if (*p == ' ')
                p++;
            else if (*p) {
                bad |= fail(line, "no space after the distance", sl);
                continue;
            }
        }
        /* moves separated by single spaces, nothing else */
        int ok = 1;
        while (*p) {
            int m, k;
            for (m = 0; m < 8; m++) {
                k = (int)strlen(NAMES[m]);
                if (!strncmp(p, NAMES[m], (size_t)k) && (p[k] == ' ' || p[k] == '\0'))
                    break;
            }
            if (m == 8) {
                ok = 0;
                break;
            }
            apply(pos, m);
            len++;
            p += k;
            if (*p == ' ') {
                p++;
                if (*p == '\0' || *p == ' ') {
                    ok = 0;
                    break;
                }
            }
        }
        if (!ok) {
            bad |= fail(line, "not moves separated by single spaces", sl);
            continue;
        }
        if (memcmp(pos, SOLVED, NF) != 0) {
            bad |= fail(line, "the solution does not reach solved", sl);
            continue;
        }
        if (claimed >= 0 && claimed != len) {
            bad |= fail(line, "the move count differs from the claimed distance", sl);
            continue;
        }
        /* optimal: no shorter way from the start */
        d = distance(start);
        if (d <= 2 * HALF ? d != len : len != 2 * HALF + 1) {
            char msg[64];
            snprintf(msg, sizeof msg, "%d moves, but the distance is %s%d", len,
                     d <= 2 * HALF ? "" : "at least ", d <= 2 * HALF ? d : 2 * HALF + 1);
            bad |= fail(line, "not optimal", msg);
            continue;
        }
        moves += len;
    }
    if (!bad && fgets(sl, sizeof sl, fs))
        bad |= fail(line + 1, "more solutions than positions", NULL);
    fclose(fp);
    fclose(fs);
    free(store);
    if (bad)
        return 1;
    printf("%d solutions verified optimal, %ld moves\n", line, moves);
    return 0;
}
