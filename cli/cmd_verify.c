/* sbfs verify: check a sliding-block solution against its puzzle, or
 * Tetraminx solutions against their positions, with the library's own
 * models.
 *
 * The solution is what `sbfs solve` printed (its "move K: ..." lines and
 * "solution: N moves"), or its --moves output (one move a line), or its
 * --json document (the "text" of each move and "length").  Each move is
 * replayed by asking the model for every neighbour of the configuration
 * before it and keeping the one the model describes with the same words:
 * so a move is accepted exactly when the model itself would have made it,
 * in the style asked, and nothing here knows how blocks move.  The last
 * configuration must then be a stop, and the number of moves the one the
 * file claims.
 *
 * Tetraminx solutions (what `sbfs tetraminx solve` printed, plain, -v or
 * --json, a line per position) are replayed on the facelets by the
 * facelet layer's moves, and each must end solved in as few moves as the
 * God table says the position needs: sbfs promises optimal solutions.
 *
 * This is not the tests' checker (tests/verify), which replays moves with
 * code of its own and shares nothing with the library; the tests hold the
 * two to the same verdicts. */
#include "slide.h"
#include "sbfs/tetraminx.h"

#include <stdlib.h>
#include <string.h>

typedef struct verify_opts {
    int style, quiet;
    const char *format;
} verify_opts;

static const cli_opt options[] = {
    {'s', "style", CLI_INT, offsetof(verify_opts, style), 0, 5, "STYLE",
     "the move style the solution was found in, 0..5 (default 0)"},
    CLI_OPT_QUIET(verify_opts, quiet, "print nothing: the exit status says it"),
    CLI_OPT_FORMAT(verify_opts, format),
    {0},
};

static const cli_cmd command = {
    "verify", "[OPTIONS] PUZZLE SOLUTION\n"
    "       sbfs verify tetraminx POSITIONS SOLUTIONS",
    "Check a solution of a sliding-block puzzle: the output of 'sbfs solve',\n"
    "of 'sbfs solve --moves' or of 'sbfs solve --json' (- for standard input).\n"
    "Every move is replayed with sbfs's model of the puzzle, and the\n"
    "last configuration must match a stop line.\n"
    "With 'tetraminx': the lines of 'sbfs tetraminx solve' (plain, -v or --json),\n"
    "one a position, must each take the position to solved in the fewest moves.\n",
    options,
    "Output: 'ok: N moves' ('ok: N positions, M moves'), or on stderr the first\n"
    "move that is not legal, with its line, or why the moves do not end at a\n"
    "stop.  Exit status 0 when the solution is right, 1 when it is wrong, the\n"
    "usual statuses for a puzzle or a file that cannot be read.\n",
    3, 0,
};

/* One move of the file: its words and where they stand. */
typedef struct fmove {
    char *text;
    int line, col;
} fmove;

typedef struct moves {
    fmove *v;
    int n, cap;
    int claimed; /* the length the file states, -1 none */
    int none;    /* the file says there is no solution */
} moves;

/* Append text[0..n) with runs of blanks made one space and none at the
 * ends (the model's describe writes single spaces). */
static int push(moves *ms, const char *text, size_t n, int line, int col)
{
    if (ms->n == ms->cap) {
        int cap = ms->cap ? 2 * ms->cap : 64;
        fmove *v = realloc(ms->v, (size_t)cap * sizeof *v);
        if (!v)
            return SB_ENOMEM;
        ms->v = v, ms->cap = cap;
    }
    char *t = malloc(n + 1), *o = t;
    if (!t)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        int blank = text[i] == ' ' || text[i] == '\t' || text[i] == '\r';
        if (!blank)
            *o++ = text[i];
        else if (o > t && o[-1] != ' ')
            *o++ = ' ';
    }
    while (o > t && o[-1] == ' ')
        o--;
    *o = 0;
    ms->v[ms->n++] = (fmove){t, line, col};
    return 0;
}

/* The "text" of each object in the "moves" array of a JSON document
 * (solve --json, a line of tetraminx solve --json), and its "length"
 * (null: no solution).  line: where doc begins in its file.  Move texts
 * hold no character that JSON escapes. */
static int read_json(moves *ms, const char *doc, int line, const char *file, sb_error *err)
{
    const char *len = strstr(doc, "\"length\": ");
    if (len && !strncmp(len + 10, "null", 4))
        ms->none = 1;
    else if (len)
        ms->claimed = atoi(len + 10);
    const char *p = strstr(doc, "\"moves\": [");
    if (!p) {
        if (ms->none)
            return 0;
        return sb_error_set(err, SB_EINPUT, line, 1, "%s: no \"moves\" array: not the JSON output of sbfs", file);
    }
    p += 10;
    /* to the ']' that closes the array, past the arrays inside it */
    for (int depth = 1; *p && depth;) {
        if (*p == '[')
            depth++;
        else if (*p == ']')
            depth--;
        if (!strncmp(p, "\"text\": \"", 9)) {
            const char *s = p + 9, *e = strchr(s, '"');
            if (!e)
                break;
            int l = line, col = 1;
            for (const char *q = doc; q < s; q++)
                l += *q == '\n', col = *q == '\n' ? 1 : col + 1;
            if (push(ms, s, (size_t)(e - s), l, col))
                return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
            p = e + 1;
            continue;
        }
        p++;
    }
    return 0;
}

/* A line of solve's text output: "move K: TEXT", "solution: N moves" and
 * "no solution: ..." count, the rest (boards, distances) does not. */
static int read_solve_line(moves *ms, const char *s, size_t n, int line, sb_error *err)
{
    int k, used = 0;
    if (n > 5 && !strncmp(s, "move ", 5) && sscanf(s, "move %d:%n", &k, &used) == 1 && used) {
        if (k != ms->n + 1)
            return sb_error_set(err, 1, line, 6, "move %d where move %d was due", k, ms->n + 1);
        if (push(ms, s + used, n - (size_t)used, line, used + 1))
            return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    } else if (n > 10 && !strncmp(s, "solution: ", 10)) {
        ms->claimed = atoi(s + 10);
    } else if (n >= 12 && !strncmp(s, "no solution:", 12)) {
        ms->none = 1;
    }
    return 0;
}

/* The moves of FILE in whichever of the three forms its first nonblank
 * character says: '{' JSON; a line with '@' before any ':' a move list;
 * otherwise solve's text output. */
static int read_moves(moves *ms, const char *file, sb_error *err)
{
    cli_input in;
    int rc = cli_input_open(&in, file, 0, err);
    if (rc)
        return rc;
    enum { UNKNOWN, JSON, LIST, TEXT } form = UNKNOWN;
    char *doc = NULL;
    size_t dlen = 0;
    const char *s;
    size_t n;
    while (!rc && (rc = cli_input_line(&in, &s, &n, err)) > 0) {
        rc = 0;
        size_t i = 0;
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        if (form == UNKNOWN && i < n) {
            const char *at = memchr(s, '@', n), *colon = memchr(s, ':', n);
            form = s[i] == '{' ? JSON : at && (!colon || at < colon) ? LIST : TEXT;
        }
        if (form == JSON) { /* kept whole, lines and all */
            char *d = realloc(doc, dlen + n + 2);
            if (!d) {
                rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
                break;
            }
            doc = d;
            memcpy(doc + dlen, s, n);
            dlen += n;
            doc[dlen++] = '\n';
            doc[dlen] = 0;
        } else if (form == LIST && i < n) {
            if (push(ms, s + i, n - i, in.line, (int)i + 1))
                rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        } else if (form == TEXT) {
            rc = read_solve_line(ms, s, n, in.line, err);
        }
    }
    if (!rc && form == JSON)
        rc = read_json(ms, doc, 1, cli_input_name(&in), err);
    free(doc);
    cli_input_close(&in);
    return rc;
}

/* The neighbours of one configuration, as the model lists them. */
typedef struct nbrs {
    uint64_t *keys;
    size_t n, cap;
    int kw, failed;
} nbrs;

static void collect(void *ctx, const uint64_t *key)
{
    nbrs *b = ctx;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        uint64_t *k = realloc(b->keys, cap * (size_t)b->kw * sizeof *k);
        if (!k) {
            b->failed = 1;
            return;
        }
        b->keys = k, b->cap = cap;
    }
    memcpy(b->keys + b->n++ * (size_t)b->kw, key, (size_t)b->kw * sizeof *key);
}

/* Replay ms from the start: 0 when every move is one the model makes and
 * the last configuration is a stop; 1 (the verdict "wrong") with err
 * naming the move; or an SB_E* code. */
static int replay(const sb_slide *sl, const moves *ms, int style, sb_error *err)
{
    sb_keymodel m;
    int rc = sb_slide_model(sl, 0, &m);
    int kw = m.key_words;
    uint64_t cur[SB_SEARCH_MAXKW];
    memcpy(cur, sb_slide_key(sl, SB_SLIDE_START), (size_t)kw * sizeof *cur);
    nbrs b = {NULL, 0, 0, kw, 0};
    char line[16384]; /* 256 pieces and 1023 steps fit, as in solve */
    for (int k = 0; k < ms->n && !rc; k++) {
        b.n = 0;
        rc = m.expand(m.ud, cur, collect, &b);
        if (!rc && b.failed)
            rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        size_t i = 0;
        for (; !rc && i < b.n; i++) {
            rc = sb_slide_describe(sl, cur, b.keys + i * (size_t)kw, line, sizeof line, err);
            if (!rc && !strcmp(line, ms->v[k].text))
                break;
        }
        if (!rc && i == b.n)
            rc = sb_error_set(err, 1, ms->v[k].line, ms->v[k].col,
                              "move %d, '%s', is not a move of style %d from the configuration before it", k + 1,
                              ms->v[k].text, style);
        if (!rc)
            memcpy(cur, b.keys + i * (size_t)kw, (size_t)kw * sizeof *cur);
    }
    free(b.keys);
    if (rc)
        return rc;
    int at_stop = m.is_goal ? m.is_goal(m.ud, cur)
                            : !memcmp(cur, sb_slide_key(sl, SB_SLIDE_STOP), (size_t)kw * sizeof *cur);
    if (!at_stop)
        return sb_error_set(err, 1, 0, 0, "the %d move%s at a configuration that matches no stop line",
                            ms->n, ms->n == 1 ? " ends" : "s end");
    if (ms->claimed >= 0 && ms->claimed != ms->n)
        return sb_error_set(err, 1, 0, 0, "the file claims %d moves, but has %d", ms->claimed, ms->n);
    return 0;
}

static void moves_clear(moves *ms)
{
    for (int i = 0; i < ms->n; i++)
        free(ms->v[i].text);
    ms->n = 0;
    ms->claimed = -1;
    ms->none = 0;
}

/* ---- the Tetraminx ---------------------------------------------------------- */

/* The move names in move-number order (sbfs/tetraminx.h). */
static const char *const tet_names[SB_TET_NMOVES] = {"U", "U'", "L", "L'", "R", "R'", "B", "B'"};

/* One line of tetraminx solve's output into ms: a JSON object, "D: MOVES"
 * (-v) or the moves alone, each move a word. */
static int tet_line(moves *ms, const char *s, size_t n, int line, const char *file, sb_error *err)
{
    moves_clear(ms);
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < n && s[i] == '{') {
        char *doc = malloc(n + 1);
        if (!doc)
            return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        memcpy(doc, s, n);
        doc[n] = 0;
        int rc = read_json(ms, doc, line, file, err);
        free(doc);
        return rc;
    }
    const char *colon = memchr(s, ':', n);
    if (colon) {
        ms->claimed = atoi(s);
        i = (size_t)(colon - s) + 1;
    }
    while (i < n) {
        size_t w = strcspn(s + i, " \t\r");
        if (i + w > n)
            w = n - i;
        if (w && push(ms, s + i, w, line, (int)i + 1))
            return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        i += w + (w == 0 || i + w < n);
    }
    return 0;
}

/* Replay ms on position pc: 0, 1 (wrong) with err, or an SB_E* code. */
static int tet_replay(const sb_tet_god *g, const sb_tet_pieces *pc, const moves *ms, int line, sb_error *err)
{
    sb_tet_facelets f, solved;
    sb_tet_pieces home = {{0}, {0, 1, 2, 3, 4, 5}, {0}};
    sb_tet_pieces_to_facelets(pc, &f);
    sb_tet_pieces_to_facelets(&home, &solved);
    for (int k = 0; k < ms->n; k++) {
        int m = 0;
        while (m < SB_TET_NMOVES && strcmp(tet_names[m], ms->v[k].text))
            m++;
        if (m == SB_TET_NMOVES)
            return sb_error_set(err, 1, ms->v[k].line, ms->v[k].col,
                                "'%s' is not a move (U U' L L' R R' B B')", ms->v[k].text);
        sb_tet_facelets_move(&f, m);
    }
    if (memcmp(&f, &solved, sizeof f))
        return sb_error_set(err, 1, line, 1, "the %d move%s the position unsolved", ms->n,
                            ms->n == 1 ? " leaves" : "s leave");
    if (ms->claimed >= 0 && ms->claimed != ms->n)
        return sb_error_set(err, 1, line, 1, "the line claims %d moves, but has %d", ms->claimed, ms->n);
    uint8_t best[SB_TET_MAXDIST];
    int d = sb_tet_god_solve(g, sb_tet_rank(pc), best);
    if (d < 0)
        return sb_error_set(err, d, 0, 0, "the God table gave no distance");
    if (d != ms->n)
        return sb_error_set(err, 1, line, 1, "%d moves, but the position is %d from solved", ms->n, d);
    return 0;
}

/* sbfs verify tetraminx POSITIONS SOLUTIONS: line by line.  Sets *nmoves;
 * 0, 1 (wrong) with err and *where the file it is about, or an SB_E*
 * code. */
static int verify_tetraminx(const char *posfile, const char *solfile, int *npos, int *nmoves, const char **where,
                            sb_error *err)
{
    cli_input pin, sin;
    *where = posfile;
    int rc = cli_input_open(&pin, posfile, 0, err);
    if (rc)
        return rc;
    *where = solfile;
    rc = cli_input_open(&sin, solfile, 0, err);
    if (rc) {
        cli_input_close(&pin);
        return rc;
    }
    sb_tet_god *g = NULL;
    rc = sb_tet_god_build(&g, 0, NULL, NULL, err);
    moves ms = {NULL, 0, 0, -1, 0};
    *npos = *nmoves = 0;
    while (!rc) {
        const char *p, *s;
        size_t pn, sn;
        int rp = cli_input_line(&pin, &p, &pn, err);
        *where = posfile;
        if (rp < 0) {
            rc = rp;
            break;
        }
        int rs = cli_input_line(&sin, &s, &sn, err);
        *where = solfile;
        if (rs < 0) {
            rc = rs;
        } else if (!rp && !rs) {
            break;
        } else if (!rs) {
            rc = sb_error_set(err, 1, 0, 0, "no solution line for position %d", pin.line);
        } else if (!rp) {
            rc = sb_error_set(err, 1, sin.line, 1, "a solution line after the last position");
        } else {
            sb_tet_pieces pc;
            *where = posfile;
            rc = sb_tet_parse(p, pn, pin.line, &pc, err);
            *where = solfile;
            if (!rc)
                rc = tet_line(&ms, s, sn, sin.line, solfile, err);
            if (!rc)
                rc = tet_replay(g, &pc, &ms, sin.line, err);
            if (!rc)
                ++*npos, *nmoves += ms.n;
        }
    }
    moves_clear(&ms);
    free(ms.v);
    sb_tet_god_free(g);
    cli_input_close(&pin);
    cli_input_close(&sin);
    return rc;
}

/* sbfs verify PUZZLE SOLUTION: as replay, *n the moves read; *where the
 * file the outcome is about. */
static int verify_slide(const verify_opts *o, const char *puzzle, const char *solution, int *n,
                        const char **where, sb_error *err)
{
    int format = o->format ? cli_slide_format(o->format) : SB_SLIDE_AUTO;
    if (format < 0)
        return cli_usage_error_in("verify", "--format: '%s' is not auto, sliding, grid or rush", o->format);
    sb_slide_puzzle *pz = malloc(sizeof *pz);
    if (!pz)
        return cli_status(SB_ENOMEM);
    int st = cli_slide_load(puzzle, pz, stderr, 0, format);
    if (st) {
        free(pz);
        return st; /* an exit status: the message is out */
    }
    sb_slide *sl = NULL;
    moves ms = {NULL, 0, 0, -1, 0};
    int rc = sb_slide_new(&sl, pz, o->style, NULL, err);
    *where = puzzle;
    if (!rc) {
        *where = solution;
        rc = read_moves(&ms, solution, err);
    }
    if (!rc && ms.none && !ms.n)
        rc = sb_error_set(err, 1, 0, 0, "no moves to check: the file says there is no solution");
    if (!rc)
        rc = replay(sl, &ms, o->style, err);
    *n = ms.n;
    moves_clear(&ms);
    free(ms.v);
    sb_slide_free(sl);
    free(pz);
    return rc < 0 ? cli_fail(rc == SB_ENOMEM ? NULL : *where, err) : rc == 1 ? -1 : 0;
}

int cmd_verify(int argc, char **argv)
{
    verify_opts o = {0, 0, NULL};
    const char *ops[3];
    int nops = 0;
    int st = cli_parse(&command, argc, argv, &o, ops, &nops);
    if (st >= 0)
        return st;
    sb_error err;
    sb_error_clear(&err);
    const char *where = NULL;
    int n = 0, npos = 0, rc;
    if (nops == 3 && !strcmp(ops[0], "tetraminx")) {
        rc = verify_tetraminx(ops[1], ops[2], &npos, &n, &where, &err);
        if (rc < 0)
            return cli_fail(rc == SB_ENOMEM ? NULL : where, &err);
        if (!rc && !o.quiet)
            printf("ok: %d position%s, %d move%s\n", npos, npos == 1 ? "" : "s", n, n == 1 ? "" : "s");
    } else if (nops == 2) {
        st = verify_slide(&o, ops[0], ops[1], &n, &where, &err);
        if (st > 0)
            return st;
        rc = st ? 1 : 0;
        if (!rc && !o.quiet)
            printf("ok: %d move%s\n", n, n == 1 ? "" : "s");
    } else {
        return cli_usage_error_in("verify", "give a puzzle and a solution (or tetraminx, positions and solutions)");
    }
    if (rc == 1 && !o.quiet) { /* the verdict "wrong", not a failure to judge */
        const char *name = strcmp(where, "-") ? where : "<stdin>";
        if (err.line)
            fprintf(stderr, "sbfs: %s:%d:%d: %s\n", name, err.line, err.col, err.msg);
        else
            fprintf(stderr, "sbfs: %s: %s\n", name, err.msg);
    }
    return rc;
}
