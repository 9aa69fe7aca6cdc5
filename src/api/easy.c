/* The short way in (sbfs/easy.h): each call strings together the public
 * calls that the matching CLI command makes, with the defaults the CLI
 * would take, and hands back plain data.  No engine is reached except
 * through its public header, so these calls are also a check that the
 * public API is enough to write the CLI's commands with.
 *
 * A sliding-block solution is described move by move by the model
 * (sb_slide_describe), and the data of each move is read back from that
 * text: the text is the model's one statement of what a move is, so the
 * structured form can never say something the text does not. */
#include "sbfs/easy.h"
#include "sbfs/playfair.h"
#include "sbfs/search.h"
#include "sbfs/slide.h"
#include "sbfs/tetraminx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sliding-block puzzles ---------------------------------------------- */

/* Everything a solution points into, freed together. */
typedef struct own {
    sb_easy_move *moves;
    sb_easy_block *blocks;
    char *text;  /* the move texts, each NUL-terminated, then each move's steps */
    char *cells; /* the boards, each NUL-terminated */
    char **boards;
} own;

/* Read "P@rRcC [P@rRcC ...] DIR [DIR ...]" (sb_slide_describe's form) into
 * m, its blocks into blk (room for the text's words) and its steps into
 * steps (room for the text's words + 1).  0, or -1 when the text is not of
 * that form. */
static int read_move(const char *text, sb_easy_move *m, sb_easy_block *blk, char *steps)
{
    int nsteps = 0;
    m->nblocks = 0;
    m->drow = m->dcol = 0;
    for (const char *s = text; *s;) {
        size_t n = strcspn(s, " ");
        if (!n) {
            s++;
            continue;
        }
        if (memchr(s, '@', n)) {
            int r, c, used = 0;
            char name;
            if (nsteps || sscanf(s, "%c@r%dc%d%n", &name, &r, &c, &used) != 3 || (size_t)used != n)
                return -1;
            blk[m->nblocks].name = name;
            blk[m->nblocks].row = r;
            blk[m->nblocks].col = c;
            m->nblocks++;
        } else {
            static const char *const dirs[] = {"up", "down", "left", "right"};
            int d = 0;
            while (d < 4 && !(strlen(dirs[d]) == n && !strncmp(s, dirs[d], n)))
                d++;
            if (d == 4)
                return -1;
            steps[nsteps++] = "udlr"[d];
            m->drow += d == 0 ? -1 : d == 1;
            m->dcol += d == 2 ? -1 : d == 3;
        }
        s += n;
    }
    steps[nsteps] = 0;
    m->block = blk;
    m->steps = steps;
    return m->nblocks && nsteps ? 0 : -1;
}

static void own_free(own *o)
{
    if (!o)
        return;
    free(o->moves);
    free(o->blocks);
    free(o->text);
    free(o->cells);
    free(o->boards);
    free(o);
}

void sb_easy_slide_free(sb_easy_slide *sol)
{
    if (!sol)
        return;
    own_free(sol->own_);
    memset(sol, 0, sizeof *sol);
}

/* The solution's data from the path keys[0..D] of model sl: the move texts
 * (one sb_slide_describe each), their data, and the boards. */
static int fill(sb_easy_slide *sol, const sb_slide *sl, const sb_slide_puzzle *pz, const uint64_t *keys, int D,
                int kw, sb_error *err)
{
    own *o = calloc(1, sizeof *o);
    if (!o)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    sol->own_ = o;
    /* the texts first, back to back; their words bound blocks and steps */
    static const size_t line_max = 16384; /* 256 blocks and 1023 steps fit */
    char *line = malloc(line_max);
    size_t used = 0, cap = 0, words = 0;
    int rc = line ? 0 : sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    for (int d = 1; d <= D && !rc; d++) {
        rc = sb_slide_describe(sl, keys + (size_t)(d - 1) * kw, keys + (size_t)d * kw, line, line_max, err);
        size_t n = rc ? 0 : strlen(line) + 1;
        if (!rc && used + n > cap) {
            size_t ncap = 2 * (used + n);
            char *t = realloc(o->text, ncap);
            if (!t)
                rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
            else
                o->text = t, cap = ncap;
        }
        if (!rc) {
            memcpy(o->text + used, line, n);
            used += n;
            for (const char *s = line; *s; s++)
                words += *s != ' ' && (s == line || s[-1] == ' ');
        }
    }
    free(line);
    /* each move's steps after all the texts: at most a word a step */
    size_t steps_at = used;
    if (!rc && D > 0 && used + words + (size_t)D > cap) {
        char *t = realloc(o->text, used + words + (size_t)D);
        if (!t)
            rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        else
            o->text = t;
    }
    if (!rc && D > 0) {
        o->moves = calloc((size_t)D, sizeof *o->moves);
        o->blocks = calloc(words, sizeof *o->blocks);
        if (!o->moves || !o->blocks)
            rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    size_t at = 0, nb = 0, st = steps_at;
    for (int d = 0; d < D && !rc; d++) {
        sb_easy_move *m = &o->moves[d];
        m->text = o->text + at;
        if (read_move(m->text, m, o->blocks + nb, o->text + st))
            rc = sb_error_set(err, SB_EINTERNAL, 0, 0, "move %d cannot be read: %s", d + 1, m->text);
        else
            nb += (size_t)m->nblocks, st += strlen(m->steps) + 1, at += strlen(m->text) + 1;
    }
    /* the boards */
    size_t bsize = (size_t)pz->ncells + (size_t)pz->rows + 1;
    if (!rc) {
        o->cells = malloc((size_t)(D + 1) * bsize);
        o->boards = malloc((size_t)(D + 1) * sizeof *o->boards);
        if (!o->cells || !o->boards)
            rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    for (int d = 0; d <= D && !rc; d++) {
        o->boards[d] = o->cells + (size_t)d * bsize;
        rc = sb_slide_draw(sl, keys + (size_t)d * kw, SB_SLIDE_CELLS, o->boards[d]);
    }
    sol->moves = D > 0 ? o->moves : NULL;
    sol->boards = o->boards;
    return rc;
}

int sb_easy_slide_solve(const char *text, size_t len, int style, sb_easy_slide *sol, sb_error *err)
{
    if (!sol)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "no solution to fill");
    memset(sol, 0, sizeof *sol);
    if (!text)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "no puzzle text");
    if (style < 0 || style > 5)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "style %d is not 0..5", style);
    /* grids and Rush Hour lines become SLIDING's format; that is copied */
    char *sliding = NULL;
    size_t slen = 0;
    int rc = sb_slide_convert(text, len, SB_SLIDE_AUTO, SB_SLIDE_SLIDING, &sliding, &slen, err);
    if (rc)
        return rc;
    sb_slide_puzzle *pz = malloc(sizeof *pz);
    sb_slide *sl = NULL;
    sb_search *srch = NULL;
    uint64_t *path = NULL;
    rc = pz ? sb_slide_parse(pz, sliding, slen, err) : sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    free(sliding);
    if (!rc)
        rc = sb_slide_new(&sl, pz, style, NULL, err);
    sb_keymodel m;
    if (!rc)
        rc = sb_slide_model(sl, SB_SLIDE_HINTS, &m);
    if (!rc)
        rc = sb_search_new(&srch, SB_ENGINE_LEVELS, &m, NULL, NULL, err);
    if (!rc)
        rc = sb_search_run(srch, sb_slide_key(sl, SB_SLIDE_START), sb_slide_key(sl, SB_SLIDE_STOP),
                           SB_SEARCH_BIDIR, NULL, err);
    const sb_search_info *info = rc ? NULL : sb_search_result(srch);
    int D = info && info->found ? info->length : 0;
    if (info && info->found) {
        path = malloc((size_t)(D + 1) * (size_t)m.key_words * sizeof *path);
        rc = path ? sb_search_path(srch, path, NULL, err) : sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    if (!rc) {
        sol->length = info->found ? D : -1;
        sol->configurations = info->states;
        rc = fill(sol, sl, pz, path ? path : sb_slide_key(sl, SB_SLIDE_START), D, m.key_words, err);
    }
    if (rc)
        sb_easy_slide_free(sol);
    free(path);
    sb_search_free(srch);
    sb_slide_free(sl);
    free(pz);
    return rc;
}

/* ---- sliding tiles -------------------------------------------------------- */

int sb_easy_npuzzle_solve(const char *tiles, int goal, const char *cache_dir, sb_np_result *res,
                          sb_error *err)
{
    sb_error local;
    if (!err)
        err = &local; /* the solver tells its failure through err alone */
    if (!tiles || !res)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "%s is NULL", tiles ? "res" : "tiles");
    sb_npuzzle p;
    int rc = sb_np_parse_line(tiles, 1, 0, 0, &p, err);
    if (rc)
        return rc;
    sb_np_solver_opts o = {NULL, cache_dir, 0, 0, NULL, NULL};
    sb_np_solver *s = sb_np_solver_open(p.rows, p.cols, &o, NULL, NULL, NULL, err);
    if (!s)
        return err->code;
    rc = sb_np_solve(s, &p, goal, 0, res, NULL, err);
    sb_np_solver_close(s);
    return rc;
}

/* ---- the Tetraminx ---------------------------------------------------------- */

int sb_easy_tetraminx_solve(const char *position, sb_easy_tetraminx *res, sb_error *err)
{
    if (!position || !res)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "%s is NULL", position ? "res" : "position");
    memset(res, 0, sizeof *res);
    sb_tet_pieces pc;
    int rc = sb_tet_parse(position, strlen(position), 1, &pc, err);
    sb_tet_god *g = NULL;
    if (!rc)
        rc = sb_tet_god_build(&g, 0, NULL, NULL, err);
    if (!rc) {
        int d = sb_tet_god_solve(g, sb_tet_rank(&pc), res->moves);
        if (d < 0)
            rc = sb_error_set(err, d, 0, 0, "the God table gave no solution");
        else
            res->length = d, sb_tet_format_moves(res->moves, d, res->text);
    }
    sb_tet_god_free(g);
    return rc;
}

/* ---- Playfair --------------------------------------------------------------- */

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *t = malloc(n);
    return t ? memcpy(t, s, n) : NULL;
}

int sb_easy_playfair_crack(const char *cipher, const char *const *words, size_t n, char **keyword,
                           char **plaintext, int *ambiguous, sb_error *err)
{
    sb_error local;
    if (!err)
        err = &local; /* the attack tells its failure through err alone */
    if (!keyword || !plaintext)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "no place for the answer");
    *keyword = *plaintext = NULL;
    if (!cipher)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "cipher is NULL");
    sb_playfair *pf = sb_playfair_new_square(words, n, SB_PLAYFAIR_COLUMNS, NULL, err);
    if (!pf)
        return err->code;
    sb_playfair_result r;
    int rc = sb_playfair_crack(pf, cipher, NULL, &r, err);
    if (!rc) {
        *keyword = dup(r.keyword);
        *plaintext = dup(r.plaintext);
        if (!*keyword || !*plaintext) {
            free(*keyword), free(*plaintext);
            *keyword = *plaintext = NULL;
            rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        } else if (ambiguous) {
            *ambiguous = r.ambiguous;
        }
    }
    sb_playfair_free(pf);
    return rc;
}
