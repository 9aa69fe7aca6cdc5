/* The solution viewer: a view (view.h) written as one HTML page that needs
 * nothing else (no network, no other file: the style, the script and the
 * data are all inside), or one of its frames as SVG.
 *
 * The page is a canvas, the controls (first, previous, play, next, last, a
 * slider, the arrow keys, Home, End and space), the move list with the
 * current move marked, and a small bar chart of configurations per
 * distance.  The data are one JSON object in a <script type=
 * "application/json"> element; one script, the same for every puzzle,
 * reads it and draws.  Strings in the JSON have '<', '>' and '&' escaped,
 * so that no title or move can close the element early.
 *
 * For the tests the page reads its address's fragment: #step=N starts at
 * step N, and #probe=I,J,... writes the colour drawn at cells (or facelets)
 * I, J, ... into a <pre id="sbfs-probe">, read from the canvas itself; a
 * script error writes a <pre id="sbfs-error">.  Headless Chromium's
 * --dump-dom shows both.
 *
 * Colours: pieces of one kind share a hue, spread evenly round the colour
 * wheel, and differ in lightness, so that each block has its own colour
 * and interchangeable blocks still look alike; the n-puzzle's tiles take
 * the hue of their goal row; the Tetraminx its four WCA colours. */
#include "view.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- colours ---------------------------------------------------------- */

/* h in degrees, s and l in 0..1, as CSS's hsl(). */
static void hsl(char *out, double h, double s, double l)
{
    double c = (1 - fabs(2 * l - 1)) * s, hp = fmod(h, 360.0) / 60, x = c * (1 - fabs(fmod(hp, 2) - 1));
    double r = 0, g = 0, b = 0, m = l - c / 2;
    if (hp < 1)
        r = c, g = x;
    else if (hp < 2)
        r = x, g = c;
    else if (hp < 3)
        g = c, b = x;
    else if (hp < 4)
        g = x, b = c;
    else if (hp < 5)
        r = x, b = c;
    else
        r = c, b = x;
    snprintf(out, 8, "#%02x%02x%02x", (int)lround((r + m) * 255), (int)lround((g + m) * 255),
             (int)lround((b + m) * 255));
}

/* Block j of the m blocks of kind k of nk: hue by kind, lightness by block. */
static void kind_color(char *out, int k, int nk, int j, int m)
{
    double h = 360.0 * k / (nk ? nk : 1) + 8, l = m > 1 ? 0.40 + 0.30 * j / (m - 1) : 0.55;
    hsl(out, h, 0.62, l);
}

/* ---- building views ----------------------------------------------------- */

static int nomem(sb_error *err)
{
    return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
}

static int alloc_frames(view *v, int nframes, sb_error *err)
{
    v->nframes = nframes;
    v->frames = malloc((size_t)nframes * (size_t)v->ncells * sizeof *v->frames);
    v->moves = calloc((size_t)nframes, sizeof *v->moves);
    v->chart_at = malloc((size_t)nframes * sizeof *v->chart_at);
    if (!v->frames || !v->moves || !v->chart_at)
        return nomem(err);
    for (int f = 0; f < nframes; f++)
        v->chart_at[f] = -1;
    return 0;
}

static int set_move(view *v, int k, const char *text, sb_error *err)
{
    if (!(v->moves[k] = strdup(text)))
        return nomem(err);
    return 0;
}

int view_move_parse(const char *text, view_move *m)
{
    memset(m, 0, sizeof *m);
    for (const char *s = text; *s;) {
        size_t n = strcspn(s, " ");
        if (n == 0) {
            s++;
            continue;
        }
        int r, c, used = 0;
        char name;
        if (memchr(s, '@', n)) {
            if (m->nsteps || m->n == 16 || sscanf(s, "%c@r%dc%d%n", &name, &r, &c, &used) != 3 ||
                (size_t)used != n)
                return -1;
            m->name[m->n] = name;
            m->row[m->n] = r;
            m->col[m->n] = c;
            m->n++;
        } else {
            static const char *const dirs[] = {"up", "down", "left", "right"};
            int d;
            for (d = 0; d < 4; d++)
                if (strlen(dirs[d]) == n && !strncmp(s, dirs[d], n))
                    break;
            if (d == 4 || m->nsteps == (int)sizeof m->steps - 1)
                return -1;
            m->steps[m->nsteps++] = "udlr"[d];
            m->dr += d == 0 ? -1 : d == 1 ? 1 : 0;
            m->dc += d == 2 ? -1 : d == 3 ? 1 : 0;
        }
        s += n;
    }
    return m->n && m->nsteps ? 0 : -1;
}

static const char *dir_word(char s)
{
    return s == 'u' ? "up" : s == 'd' ? "down" : s == 'l' ? "left" : "right";
}

void view_move_json(FILE *f, const char *text, const view_move *m)
{
    int straight = 1;
    for (int i = 1; i < m->nsteps; i++)
        straight &= m->steps[i] == m->steps[0];
    fprintf(f, "{\"text\": ");
    view_json_str(f, text);
    fprintf(f, ", \"piece\": \"%c\", \"from\": [%d, %d], \"to\": [%d, %d], \"direction\": \"%s\", \"steps\": [",
            m->name[0], m->row[0], m->col[0], m->row[0] + m->dr, m->col[0] + m->dc,
            straight ? dir_word(m->steps[0]) : "path");
    for (int i = 0; i < m->nsteps; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", dir_word(m->steps[i]));
    fprintf(f, "]");
    if (m->n > 1) {
        fprintf(f, ", \"pieces\": [");
        for (int i = 0; i < m->n; i++)
            fprintf(f, "%s{\"piece\": \"%c\", \"from\": [%d, %d], \"to\": [%d, %d]}", i ? ", " : "", m->name[i],
                    m->row[i], m->col[i], m->row[i] + m->dr, m->col[i] + m->dc);
        fprintf(f, "]");
    }
    fprintf(f, "}");
}

/* Paint the blocks of frame f: block b of kind kv[b] anchored at at[b]. */
static void paint_blocks(view *v, const sb_slide_puzzle *pz, int f, int nb, const int *kv, const int *at)
{
    short *fr = v->frames + (size_t)f * (size_t)v->ncells;
    for (int i = 0; i < v->ncells; i++)
        fr[i] = -1;
    for (int b = 0; b < nb; b++) {
        const sb_slide_kind *k = &pz->kind[kv[b]];
        for (int i = 0; i < k->n; i++) {
            int r = at[b] / pz->cols + k->dr[i], c = at[b] % pz->cols + k->dc[i];
            if (r >= 0 && r < pz->rows && c >= 0 && c < pz->cols)
                fr[r * pz->cols + c] = (short)b;
        }
    }
}

int view_slide(view *v, const sb_slide_puzzle *pz, const sb_slide *sl, int style, int kw, const uint64_t *path,
               int D, const sb_search *srch, sb_error *err)
{
    int kv[SB_SLIDE_MAXCELLS], at[SB_SLIDE_MAXCELLS], nb = 0, nk = 0, kindex[16], per[16] = {0}, seen[16] = {0};
    unsigned char anchors[SB_SLIDE_MAXCELLS];
    memset(v, 0, sizeof *v);
    if (path)
        snprintf(v->title, sizeof v->title, "%.200s: %d move%s, style %d", pz->title, D, D == 1 ? "" : "s",
                 style);
    else
        snprintf(v->title, sizeof v->title, "%.200s", pz->title);
    v->rows = pz->rows;
    v->cols = pz->cols;
    v->ncells = pz->ncells;
    if (!path)
        D = 0;
    if (path && sb_slide_unpack(sl, path, anchors))
        return sb_error_set(err, SB_EINTERNAL, 0, 0, "cannot read the start");
    if (!path)
        memcpy(anchors, pz->start, sizeof anchors);
    /* blocks in cell order of the start; kinds in order of first block */
    for (int i = 0; i < pz->ncells; i++)
        if (anchors[i]) {
            int k = anchors[i];
            if (!seen[k])
                seen[k] = 1, kindex[k] = nk++;
            kv[nb] = k;
            at[nb++] = i;
            per[k]++;
        }
    v->wall = calloc((size_t)v->ncells, 1);
    v->goal = calloc((size_t)v->ncells, 1);
    v->pieces = calloc((size_t)(nb ? nb : 1), sizeof *v->pieces);
    if (!v->wall || !v->goal || !v->pieces || alloc_frames(v, D + 1, err))
        return nomem(err);
    memcpy(v->wall, pz->xcell, (size_t)v->ncells);
    /* goal cells: those the stop lines' named blocks cover */
    for (int g = 0; g < pz->ngoals; g++)
        for (int i = 0; i < pz->ncells; i++)
            if (pz->goal[g].anchors[i]) {
                const sb_slide_kind *k = &pz->kind[pz->goal[g].anchors[i]];
                for (int j = 0; j < k->n; j++) {
                    int r = i / pz->cols + k->dr[j], c = i % pz->cols + k->dc[j];
                    if (r >= 0 && r < pz->rows && c >= 0 && c < pz->cols)
                        v->goal[r * pz->cols + c] = 1;
                }
            }
    v->npieces = nb;
    {
        int j[16] = {0};
        for (int b = 0; b < nb; b++) {
            snprintf(v->pieces[b].name, sizeof v->pieces[b].name, "%c", sb_slide_name(kv[b]));
            kind_color(v->pieces[b].color, kindex[kv[b]], nk, j[kv[b]]++, per[kv[b]]);
        }
    }
    paint_blocks(v, pz, 0, nb, kv, at);
    /* Follow each block through the moves, so that it keeps its colour:
     * the description names the blocks that move by their anchors before
     * the move and the steps they all take. */
    char line[16384];
    for (int d = 1; d <= D; d++) {
        view_move m;
        int rc = sb_slide_describe(sl, path + (size_t)(d - 1) * kw, path + (size_t)d * kw, line, sizeof line, err);
        if (rc)
            return rc;
        if (view_move_parse(line, &m))
            return sb_error_set(err, SB_EINTERNAL, 0, 0, "cannot read move %d: %s", d, line);
        int moved[SB_SLIDE_MAXCELLS] = {0};
        for (int i = 0; i < m.n; i++) {
            int cell = (m.row[i] - 1) * pz->cols + m.col[i] - 1, b;
            for (b = 0; b < nb; b++)
                if (!moved[b] && at[b] == cell && sb_slide_name(kv[b]) == m.name[i])
                    break;
            if (b == nb)
                return sb_error_set(err, SB_EINTERNAL, 0, 0, "move %d: no block %c at row %d column %d", d,
                                    m.name[i], m.row[i], m.col[i]);
            moved[b] = 1;
            at[b] = cell + m.dr * pz->cols + m.dc;
        }
        if ((rc = set_move(v, d - 1, line, err)))
            return rc;
        paint_blocks(v, pz, d, nb, kv, at);
    }
    if (srch) {
        const sb_search_info *in = sb_search_result(srch);
        int sides = in->bidir ? 2 : 1;
        for (int s = 0; s < sides; s++) {
            uint64_t *vals = malloc((size_t)(in->nlevels[s] ? in->nlevels[s] : 1) * sizeof *vals);
            if (!vals)
                return nomem(err);
            for (int d = 0; d < in->nlevels[s]; d++)
                vals[d] = sb_search_level(srch, s, d);
            v->series[s].name = !in->bidir ? "from the start" : s ? "backward" : "forward";
            v->series[s].values = vals;
            v->series[s].n = in->nlevels[s];
        }
        v->nseries = sides;
        v->chart_title = "configurations per distance";
        /* step d is at distance d from the start; both ways, the steps
         * past the forward levels are counted from the stop */
        for (int d = 0; d <= D; d++)
            v->chart_at[d] = d < v->series[0].n ? d : sides == 2 && D - d < v->series[1].n ? 1024 + D - d : -1;
    }
    return 0;
}

static int copy_hist(view *v, const char *name, const uint64_t *hist, int nhist, int D, sb_error *err)
{
    if (!hist || nhist <= 0)
        return 0;
    uint64_t *vals = malloc((size_t)nhist * sizeof *vals);
    if (!vals)
        return nomem(err);
    memcpy(vals, hist, (size_t)nhist * sizeof *vals);
    v->series[0].name = name;
    v->series[0].values = vals;
    v->series[0].n = nhist;
    v->nseries = 1;
    v->chart_title = "positions per distance from the goal";
    /* step d of a D-move solution is D - d moves from the goal */
    for (int d = 0; d <= D; d++)
        v->chart_at[d] = D - d < nhist ? D - d : -1;
    return 0;
}

/* The blank's move mv (u d l r) on p: the tile that slides into the blank,
 * from which cell to which, and the way it goes (the blank's opposite).
 * 0, or -1 when the move leaves the board. */
static int np_step(sb_npuzzle *p, char mv, int *tile, int *from, int *to, const char **dir)
{
    int b = 0, dr = 0, dc = 0;
    while (b < p->n && p->cell[b])
        b++;
    if (b == p->n)
        return -1;
    switch (mv) {
    case 'u': dr = -1, *dir = "down"; break;
    case 'd': dr = 1, *dir = "up"; break;
    case 'l': dc = -1, *dir = "right"; break;
    case 'r': dc = 1, *dir = "left"; break;
    default: return -1;
    }
    int r = b / p->cols + dr, c = b % p->cols + dc;
    if (r < 0 || r >= p->rows || c < 0 || c >= p->cols)
        return -1;
    *from = r * p->cols + c;
    *to = b;
    *tile = p->cell[*from];
    p->cell[b] = p->cell[*from];
    p->cell[*from] = 0;
    return 0;
}

int view_np_move_json(FILE *f, sb_npuzzle *p, char mv)
{
    int tile, from, to;
    const char *dir;
    if (np_step(p, mv, &tile, &from, &to, &dir))
        return -1;
    fprintf(f,
            "{\"text\": \"%c\", \"piece\": \"%d\", \"from\": [%d, %d], \"to\": [%d, %d], \"direction\": \"%s\", "
            "\"steps\": [\"%s\"]}",
            mv, tile, from / p->cols + 1, from % p->cols + 1, to / p->cols + 1, to % p->cols + 1, dir, dir);
    return 0;
}

int view_npuzzle(view *v, const sb_npuzzle *p0, int goal, const char *moves, const uint64_t *hist, int nhist,
                 sb_error *err)
{
    sb_npuzzle p = *p0;
    int D = (int)strlen(moves), rc;
    memset(v, 0, sizeof *v);
    snprintf(v->title, sizeof v->title, "%d-puzzle, %d move%s", p.n - 1, D, D == 1 ? "" : "s");
    v->rows = p.rows;
    v->cols = p.cols;
    v->ncells = p.n;
    v->npieces = p.n; /* pieces[t - 1] is tile t; the last one is unused */
    if (!(v->pieces = calloc((size_t)p.n, sizeof *v->pieces)) || alloc_frames(v, D + 1, err))
        return nomem(err);
    for (int t = 1; t < p.n; t++) {
        int home = goal == SB_NP_BLANK_FIRST ? t : t - 1;
        snprintf(v->pieces[t - 1].name, sizeof v->pieces[t - 1].name, "%d", t);
        hsl(v->pieces[t - 1].color, 360.0 * (home / p.cols) / p.rows + 8, 0.60,
            0.42 + 0.28 * (home % p.cols) / (p.cols > 1 ? p.cols - 1 : 1));
    }
    v->npieces = p.n - 1;
    for (int d = 0; d <= D; d++) {
        short *fr = v->frames + (size_t)d * (size_t)p.n;
        for (int i = 0; i < p.n; i++)
            fr[i] = (short)(p.cell[i] - 1);
        if (d == D)
            break;
        int tile, from, to;
        const char *dir;
        char text[64];
        if (np_step(&p, moves[d], &tile, &from, &to, &dir))
            return sb_error_set(err, SB_EINTERNAL, 0, 0, "move %d leaves the board", d + 1);
        snprintf(text, sizeof text, "%d@r%dc%d %s", tile, from / p.cols + 1, from % p.cols + 1, dir);
        if ((rc = set_move(v, d, text, err)))
            return rc;
    }
    return copy_hist(v, "positions", hist, nhist, D, err);
}

/* ---- the Tetraminx net -------------------------------------------------
 * The net as docs/FORMAT.md and /TETRAMINX conventions draw it: F pointing
 * up in the middle, L and R pointing down to its upper left and right, D
 * pointing down below it; each face has corners v0 v1 v2 clockwise as seen
 * from outside, which is clockwise on the page too.  On a face split into
 * nine small triangles, lattice point P(i,j,k) = (i v0 + j v1 + k v2) / 3
 * (i + j + k = 3); facelet k of the face is one small triangle round the
 * middle point P(1,1,1): k = 0 the one at v0, 1 on the side v0-v1, and so
 * on clockwise.  The three corner triangles are the missing tips; the four
 * truncation triangles (facelets 24-27, at U, L, R, B) are drawn at the
 * tips of F (U, L, R) and at D's tip B, the other tips left as outlines. */
static const int face_tri[6][3][3] = {
    {{2, 1, 0}, {2, 0, 1}, {1, 1, 1}}, {{2, 1, 0}, {1, 2, 0}, {1, 1, 1}}, {{1, 2, 0}, {0, 2, 1}, {1, 1, 1}},
    {{0, 2, 1}, {0, 1, 2}, {1, 1, 1}}, {{0, 1, 2}, {1, 0, 2}, {1, 1, 1}}, {{1, 0, 2}, {2, 0, 1}, {1, 1, 1}},
};
static const int tip_tri[3][3][3] = {
    {{3, 0, 0}, {2, 1, 0}, {2, 0, 1}}, {{0, 3, 0}, {1, 2, 0}, {0, 2, 1}}, {{0, 0, 3}, {1, 0, 2}, {0, 1, 2}},
};

static void lattice(double *out, const double (*v)[2], const int (*t)[3])
{
    for (int p = 0; p < 3; p++)
        for (int a = 0; a < 2; a++)
            out[2 * p + a] = (t[p][0] * v[0][a] + t[p][1] * v[1][a] + t[p][2] * v[2][a]) / 3.0;
}

int view_tet_move_json(FILE *f, int m)
{
    uint8_t mv = (uint8_t)m;
    char name[4];
    if (m < 0 || m >= SB_TET_NMOVES)
        return -1;
    sb_tet_format_moves(&mv, 1, name);
    fprintf(f, "{\"text\": \"%s\", \"piece\": \"%c\", \"direction\": \"%s\"}", name, "ULRB"[m / 2],
            m & 1 ? "counterclockwise" : "clockwise");
    return 0;
}

int view_tetraminx(view *v, const sb_tet_facelets *f0, const uint8_t *moves, int D, const uint64_t *hist,
                   int nhist, sb_error *err)
{
    static const char *const names[4] = {"F", "D", "L", "R"};
    static const char *const colors[4] = {"#2ea043", "#f2cf1d", "#d7342a", "#2f6bd6"}; /* WCA: green yellow red blue */
    double h = sqrt(3.0) / 2;
    /* corners: U, L, R, and B three times (it is split in the net) */
    const double U[2] = {3, 0}, L[2] = {1.5, 3 * h}, R[2] = {4.5, 3 * h};
    const double Bl[2] = {0, 0}, Br[2] = {6, 0}, Bd[2] = {3, 6 * h};
    const double(*faces[4][3])[2] = {{&U, &R, &L}, {&L, &R, &Bd}, {&Bl, &U, &L}, {&U, &Br, &R}};
    sb_tet_facelets f = *f0;
    int rc;
    memset(v, 0, sizeof *v);
    snprintf(v->title, sizeof v->title, "Tetraminx, %d move%s", D, D == 1 ? "" : "s");
    v->net = 1;
    v->ncells = SB_TET_NFACELETS;
    v->width = 6;
    v->height = 6 * h;
    v->npieces = 4;
    v->pieces = calloc(4, sizeof *v->pieces);
    v->polys = calloc(SB_TET_NFACELETS * 6, sizeof *v->polys);
    v->ghosts = calloc(8 * 6, sizeof *v->ghosts);
    if (!v->pieces || !v->polys || !v->ghosts || alloc_frames(v, D + 1, err))
        return nomem(err);
    for (int c = 0; c < 4; c++) {
        snprintf(v->pieces[c].name, sizeof v->pieces[c].name, "%s", names[c]);
        snprintf(v->pieces[c].color, sizeof v->pieces[c].color, "%s", colors[c]);
    }
    for (int fc = 0; fc < 4; fc++) {
        double vv[3][2];
        for (int i = 0; i < 3; i++)
            vv[i][0] = (*faces[fc][i])[0], vv[i][1] = (*faces[fc][i])[1];
        for (int k = 0; k < 6; k++)
            lattice(v->polys + (6 * fc + k) * 6, (const double(*)[2])vv, face_tri[k]);
        /* the face's letter at its middle, P(1,1,1) */
        v->label_xy[fc][0] = (vv[0][0] + vv[1][0] + vv[2][0]) / 3;
        v->label_xy[fc][1] = (vv[0][1] + vv[1][1] + vv[2][1]) / 3;
        snprintf(v->label[fc], sizeof v->label[fc], "%s", names[fc]);
        v->nlabels = fc + 1;
        for (int t = 0; t < 3; t++) {
            /* F's tips hold the triangles of U (v0), R (v1), L (v2); D's
             * v2 tip the triangle of B */
            int tri = fc == 0 ? (t == 0 ? 24 : t == 1 ? 26 : 25) : fc == 1 && t == 2 ? 27 : -1;
            double *out = tri >= 0 ? v->polys + tri * 6 : v->ghosts + 6 * v->nghosts++;
            lattice(out, (const double(*)[2])vv, tip_tri[t]);
        }
    }
    for (int d = 0; d <= D; d++) {
        short *fr = v->frames + (size_t)d * SB_TET_NFACELETS;
        for (int i = 0; i < SB_TET_NFACELETS; i++)
            fr[i] = f.c[i];
        if (d == D)
            break;
        char name[4];
        if (sb_tet_facelets_move(&f, moves[d]))
            return sb_error_set(err, SB_EINTERNAL, 0, 0, "bad move %d", moves[d]);
        sb_tet_format_moves(moves + d, 1, name);
        if ((rc = set_move(v, d, name, err)))
            return rc;
    }
    return copy_hist(v, "positions", hist, nhist, D, err);
}

void view_free(view *v)
{
    if (!v)
        return;
    free(v->wall);
    free(v->goal);
    free(v->pieces);
    free(v->frames);
    for (int i = 0; v->moves && i < v->nframes; i++)
        free(v->moves[i]);
    free(v->moves);
    free(v->chart_at);
    for (int s = 0; s < v->nseries; s++)
        free((void *)v->series[s].values);
    free(v->polys);
    free(v->ghosts);
    memset(v, 0, sizeof *v);
}

/* ---- writing ------------------------------------------------------------ */

void view_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
}

static void json_bytes(FILE *f, const unsigned char *a, int n)
{
    if (!a) {
        fputs("null", f);
        return;
    }
    fputc('[', f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? "," : "", a[i]);
    fputc(']', f);
}

static void json_tris(FILE *f, const double *t, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        fputs(i ? ",[" : "[", f);
        for (int j = 0; j < 6; j++)
            fprintf(f, "%s%.4f", j ? "," : "", t[6 * i + j]);
        fputc(']', f);
    }
    fputc(']', f);
}

static void page_data(FILE *f, const view *v)
{
    fprintf(f, "{\"title\": ");
    view_json_str(f, v->title);
    fprintf(f, ", \"net\": %d, \"rows\": %d, \"cols\": %d, \"wall\": ", v->net, v->rows, v->cols);
    json_bytes(f, v->wall, v->ncells);
    fprintf(f, ", \"goal\": ");
    json_bytes(f, v->goal, v->ncells);
    fprintf(f, ",\n\"pieces\": [");
    for (int i = 0; i < v->npieces; i++) {
        fprintf(f, "%s{\"name\": ", i ? ", " : "");
        view_json_str(f, v->pieces[i].name);
        fprintf(f, ", \"color\": \"%s\"}", v->pieces[i].color);
    }
    fprintf(f, "],\n\"frames\": [");
    for (int d = 0; d < v->nframes; d++) {
        fputs(d ? ",\n[" : "[", f);
        for (int i = 0; i < v->ncells; i++)
            fprintf(f, "%s%d", i ? "," : "", v->frames[(size_t)d * (size_t)v->ncells + (size_t)i]);
        fputc(']', f);
    }
    fprintf(f, "],\n\"moves\": [");
    for (int d = 0; d + 1 < v->nframes; d++) {
        fputs(d ? ", " : "", f);
        view_json_str(f, v->moves[d]);
    }
    fprintf(f, "],\n\"chart\": ");
    if (!v->chart_title) {
        fputs("null", f);
    } else {
        fprintf(f, "{\"title\": ");
        view_json_str(f, v->chart_title);
        fprintf(f, ", \"series\": [");
        for (int s = 0; s < v->nseries; s++) {
            fprintf(f, "%s{\"name\": ", s ? ", " : "");
            view_json_str(f, v->series[s].name);
            fprintf(f, ", \"values\": [");
            for (int d = 0; d < v->series[s].n; d++)
                fprintf(f, "%s%llu", d ? "," : "", (unsigned long long)v->series[s].values[d]);
            fprintf(f, "]}");
        }
        fprintf(f, "], \"at\": [");
        for (int d = 0; d < v->nframes; d++)
            fprintf(f, "%s%d", d ? "," : "", v->chart_at[d]);
        fprintf(f, "]}");
    }
    if (v->net) {
        fprintf(f, ",\n\"width\": %.4f, \"height\": %.4f, \"polys\": ", v->width, v->height);
        json_tris(f, v->polys, v->ncells);
        fprintf(f, ",\n\"ghosts\": ");
        json_tris(f, v->ghosts, v->nghosts);
        fprintf(f, ",\n\"labels\": [");
        for (int i = 0; i < v->nlabels; i++) {
            fprintf(f, "%s[%.4f, %.4f, ", i ? ", " : "", v->label_xy[i][0], v->label_xy[i][1]);
            view_json_str(f, v->label[i]);
            fprintf(f, "]");
        }
        fprintf(f, "]");
    }
    fprintf(f, "}\n");
}

static const char *const page_style[] = {
    "body { font-family: sans-serif; margin: 16px; color: #222222; background: #ffffff; }",
    "h1 { font-size: 18px; margin: 0 0 10px 0; }",
    "#wrap { display: flex; gap: 20px; align-items: flex-start; flex-wrap: wrap; }",
    "#controls button { font-size: 14px; margin-right: 2px; }",
    "#slider { width: 340px; display: block; margin: 8px 0; }",
    "#status { font-family: monospace; font-size: 13px; min-height: 1.4em; }",
    "#moves { font-family: monospace; font-size: 13px; max-height: 260px; width: 340px; overflow-y: auto;",
    "  border: 1px solid #cccccc; margin: 8px 0; padding: 4px 4px 4px 48px; }",
    "#moves li { cursor: pointer; }",
    "#moves li.cur { background: #ffe08a; }",
    "#legend { margin-top: 6px; }",
    ".key { display: inline-block; min-width: 18px; padding: 1px 4px; margin: 2px; text-align: center;",
    "  font-size: 12px; border: 1px solid #555555; }",
    "#charttitle { font-size: 13px; margin-top: 6px; }",
    "#sbfs-probe, #sbfs-error { font-size: 12px; }",
};

static const char *const page_body[] = {
    "<div id=\"wrap\">",
    "<div><canvas id=\"board\"></canvas><div id=\"legend\"></div></div>",
    "<div id=\"side\">",
    "<div id=\"controls\">",
    "<button id=\"first\" title=\"first (Home)\">&laquo; first</button>",
    "<button id=\"prev\" title=\"previous (left arrow)\">&lsaquo; prev</button>",
    "<button id=\"play\" title=\"play or pause (space)\">play</button>",
    "<button id=\"next\" title=\"next (right arrow)\">next &rsaquo;</button>",
    "<button id=\"last\" title=\"last (End)\">last &raquo;</button>",
    "<input type=\"range\" id=\"slider\" min=\"0\" max=\"0\" value=\"0\">",
    "<ol id=\"moves\"></ol>",
    "</div>",
    "<div id=\"status\"></div>",
    "<div id=\"charttitle\"></div><canvas id=\"chart\"></canvas>",
    "</div>",
    "</div>",
};

/* One script for every puzzle: reads the data, draws, steps. */
static const char *const viewer_js[] = {
    "(function () {",
    "\"use strict\";",
    "var D = JSON.parse(document.getElementById(\"sbfs-data\").textContent);",
    "var board = document.getElementById(\"board\"), g = board.getContext(\"2d\");",
    "var chart = document.getElementById(\"chart\"), list = document.getElementById(\"moves\");",
    "var slider = document.getElementById(\"slider\"), status = document.getElementById(\"status\");",
    "var playb = document.getElementById(\"play\");",
    "var last = D.frames.length - 1, step = 0, timer = null;",
    "var S = 56, PAD = 10, scale = 1, EMPTY = \"#f3efe6\", WALL = \"#3a3a3a\", EDGE = \"#222222\";",
    "var ratio = window.devicePixelRatio || 1;",
    "",
    "function setup(c, w, h) {",
    "  c.width = Math.round(w * ratio); c.height = Math.round(h * ratio);",
    "  c.style.width = w + \"px\"; c.style.height = h + \"px\";",
    "  c.getContext(\"2d\").setTransform(ratio, 0, 0, ratio, 0, 0);",
    "}",
    "if (D.net) {",
    "  scale = Math.min(70, 640 / D.width);",
    "  setup(board, D.width * scale + 2 * PAD, D.height * scale + 2 * PAD);",
    "} else {",
    "  S = Math.max(24, Math.min(64, Math.floor(560 / Math.max(D.rows, D.cols))));",
    "  setup(board, D.cols * S + 2 * PAD, D.rows * S + 2 * PAD);",
    "}",
    "",
    "function cellAt(f, r, c) {",
    "  if (r < 0 || c < 0 || r >= D.rows || c >= D.cols) return -2;",
    "  return D.frames[f][r * D.cols + c];",
    "}",
    "function drawGrid(f) {",
    "  var fr = D.frames[f], r, c, i, p, m = Math.max(2, S * 0.06);",
    "  g.fillStyle = \"#ffffff\"; g.fillRect(0, 0, board.width, board.height);",
    "  for (r = 0; r < D.rows; r++) for (c = 0; c < D.cols; c++) {",
    "    i = r * D.cols + c; p = fr[i];",
    "    var x = PAD + c * S, y = PAD + r * S;",
    "    if (D.wall && D.wall[i]) { g.fillStyle = WALL; g.fillRect(x, y, S, S); continue; }",
    "    g.fillStyle = EMPTY; g.fillRect(x, y, S, S);",
    "    if (p < 0) continue;",
    "    /* a piece's cells join where the neighbour is the same piece */",
    "    var l = cellAt(f, r, c - 1) === p ? 0 : m, t = cellAt(f, r - 1, c) === p ? 0 : m;",
    "    var rr = cellAt(f, r, c + 1) === p ? 0 : m, b = cellAt(f, r + 1, c) === p ? 0 : m;",
    "    g.fillStyle = D.pieces[p].color;",
    "    g.fillRect(x + l, y + t, S - l - rr, S - t - b);",
    "  }",
    "  if (D.goal) {",
    "    g.save(); g.setLineDash([5, 4]); g.lineWidth = 2; g.strokeStyle = \"#c00000\";",
    "    for (r = 0; r < D.rows; r++) for (c = 0; c < D.cols; c++) {",
    "      if (!D.goal[r * D.cols + c]) continue;",
    "      var gx = PAD + c * S, gy = PAD + r * S, q = function (dr, dc) {",
    "        var rr2 = r + dr, cc2 = c + dc;",
    "        return rr2 >= 0 && cc2 >= 0 && rr2 < D.rows && cc2 < D.cols && D.goal[rr2 * D.cols + cc2];",
    "      };",
    "      g.beginPath();",
    "      if (!q(-1, 0)) { g.moveTo(gx + 3, gy + 3); g.lineTo(gx + S - 3, gy + 3); }",
    "      if (!q(1, 0)) { g.moveTo(gx + 3, gy + S - 3); g.lineTo(gx + S - 3, gy + S - 3); }",
    "      if (!q(0, -1)) { g.moveTo(gx + 3, gy + 3); g.lineTo(gx + 3, gy + S - 3); }",
    "      if (!q(0, 1)) { g.moveTo(gx + S - 3, gy + 3); g.lineTo(gx + S - 3, gy + S - 3); }",
    "      g.stroke();",
    "    }",
    "    g.restore();",
    "  }",
    "  /* each piece's name once, on its first cell */",
    "  var seen = {};",
    "  g.font = \"bold \" + Math.round(S * 0.34) + \"px sans-serif\";",
    "  g.textAlign = \"center\"; g.textBaseline = \"middle\";",
    "  for (i = 0; i < fr.length; i++) {",
    "    p = fr[i];",
    "    if (p < 0 || seen[p]) continue;",
    "    seen[p] = 1;",
    "    g.fillStyle = \"#111111\";",
    "    g.fillText(D.pieces[p].name, PAD + (i % D.cols) * S + S / 2, PAD + Math.floor(i / D.cols) * S + S / 2);",
    "  }",
    "}",
    "function tri(a, fill, dash) {",
    "  g.beginPath();",
    "  g.moveTo(PAD + a[0] * scale, PAD + a[1] * scale);",
    "  g.lineTo(PAD + a[2] * scale, PAD + a[3] * scale);",
    "  g.lineTo(PAD + a[4] * scale, PAD + a[5] * scale);",
    "  g.closePath();",
    "  if (fill) { g.fillStyle = fill; g.fill(); }",
    "  g.setLineDash(dash ? [3, 3] : []);",
    "  g.lineWidth = 1.5; g.strokeStyle = dash ? \"#aaaaaa\" : EDGE; g.stroke();",
    "}",
    "function drawNet(f) {",
    "  var fr = D.frames[f], i;",
    "  g.fillStyle = \"#ffffff\"; g.fillRect(0, 0, board.width, board.height);",
    "  for (i = 0; i < D.ghosts.length; i++) tri(D.ghosts[i], null, 1);",
    "  for (i = 0; i < D.polys.length; i++) tri(D.polys[i], fr[i] < 0 ? EMPTY : D.pieces[fr[i]].color, 0);",
    "  g.setLineDash([]);",
    "  /* each face's letter at its middle, where six facelets meet */",
    "  g.font = \"bold 15px sans-serif\"; g.textAlign = \"center\"; g.textBaseline = \"middle\";",
    "  g.lineWidth = 3; g.strokeStyle = \"#ffffff\"; g.fillStyle = \"#111111\";",
    "  for (i = 0; i < D.labels.length; i++) {",
    "    var lx = PAD + D.labels[i][0] * scale, ly = PAD + D.labels[i][1] * scale;",
    "    g.strokeText(D.labels[i][2], lx, ly); g.fillText(D.labels[i][2], lx, ly);",
    "  }",
    "}",
    "function drawChart() {",
    "  if (!D.chart) return;",
    "  var W = 360, H = 120, ns = D.chart.series.length, n = 0, max = 1, s, d;",
    "  setup(chart, W, H);",
    "  var c = chart.getContext(\"2d\");",
    "  for (s = 0; s < ns; s++) {",
    "    n = Math.max(n, D.chart.series[s].values.length);",
    "    for (d = 0; d < D.chart.series[s].values.length; d++) max = Math.max(max, D.chart.series[s].values[d]);",
    "  }",
    "  var bw = (W - 20) / Math.max(n, 1), at = D.chart.at[step], cols = [\"#4a78c2\", \"#e08a2c\"];",
    "  c.fillStyle = \"#ffffff\"; c.fillRect(0, 0, W, H);",
    "  for (s = 0; s < ns; s++) for (d = 0; d < D.chart.series[s].values.length; d++) {",
    "    var h = (H - 24) * D.chart.series[s].values[d] / max;",
    "    c.fillStyle = at === s * 1024 + d ? \"#c00000\" : cols[s];",
    "    c.fillRect(10 + d * bw + s * bw / ns, H - 14 - h, Math.max(1, bw / ns - 1), Math.max(h, 1));",
    "  }",
    "  c.fillStyle = \"#333333\"; c.font = \"10px sans-serif\"; c.textAlign = \"left\";",
    "  c.fillText(\"0\", 10, H - 3); c.textAlign = \"right\"; c.fillText(String(n - 1), W - 10, H - 3);",
    "  c.textAlign = \"left\"; c.fillText(\"max \" + max, 10, 10);",
    "  var leg = [];",
    "  for (s = 0; s < ns; s++) leg.push(D.chart.series[s].name);",
    "  c.textAlign = \"right\"; c.fillText(leg.join(\" / \"), W - 10, 10);",
    "}",
    "function show() {",
    "  if (D.net) drawNet(step); else drawGrid(step);",
    "  slider.value = step;",
    "  status.textContent = \"step \" + step + \" of \" + last + (step ? \": \" + D.moves[step - 1] : \": start\");",
    "  var items = list.children;",
    "  for (var i = 0; i < items.length; i++) items[i].className = i === step - 1 ? \"cur\" : \"\";",
    "  if (step > 0 && items[step - 1]) {",
    "    var it = items[step - 1];",
    "    if (it.offsetTop < list.scrollTop || it.offsetTop + it.offsetHeight > list.scrollTop + list.clientHeight)",
    "      list.scrollTop = it.offsetTop - list.clientHeight / 2;",
    "  } else list.scrollTop = 0;",
    "  drawChart();",
    "}",
    "function go(k) { step = Math.max(0, Math.min(last, k)); show(); }",
    "function stop() { if (timer) { clearInterval(timer); timer = null; } playb.textContent = \"play\"; }",
    "function play() {",
    "  if (timer) { stop(); return; }",
    "  if (step === last) go(0);",
    "  playb.textContent = \"pause\";",
    "  timer = setInterval(function () { if (step >= last) stop(); else go(step + 1); }, 400);",
    "}",
    "document.getElementById(\"first\").onclick = function () { stop(); go(0); };",
    "document.getElementById(\"prev\").onclick = function () { stop(); go(step - 1); };",
    "document.getElementById(\"next\").onclick = function () { stop(); go(step + 1); };",
    "document.getElementById(\"last\").onclick = function () { stop(); go(last); };",
    "playb.onclick = play;",
    "slider.max = last;",
    "slider.oninput = function () { stop(); go(parseInt(slider.value, 10)); };",
    "document.addEventListener(\"keydown\", function (e) {",
    "  var k = e.key;",
    "  if (k === \"ArrowRight\" || k === \"ArrowDown\") { stop(); go(step + 1); }",
    "  else if (k === \"ArrowLeft\" || k === \"ArrowUp\") { stop(); go(step - 1); }",
    "  else if (k === \"Home\") { stop(); go(0); }",
    "  else if (k === \"End\") { stop(); go(last); }",
    "  else if (k === \" \") play();",
    "  else return;",
    "  e.preventDefault();",
    "});",
    "for (var i = 0; i < D.moves.length; i++) {",
    "  var li = document.createElement(\"li\");",
    "  li.textContent = D.moves[i];",
    "  li.onclick = (function (k) { return function () { stop(); go(k); }; })(i + 1);",
    "  list.appendChild(li);",
    "}",
    "if (!D.moves.length) document.getElementById(\"controls\").style.display = \"none\";",
    "var legend = document.getElementById(\"legend\");",
    "for (i = 0; i < D.pieces.length; i++) {",
    "  var sp = document.createElement(\"span\");",
    "  sp.className = \"key\";",
    "  sp.style.background = D.pieces[i].color;",
    "  sp.textContent = D.pieces[i].name;",
    "  legend.appendChild(sp);",
    "}",
    "if (!D.chart) chart.style.display = \"none\";",
    "else document.getElementById(\"charttitle\").textContent = D.chart.title;",
    "",
    "/* #step=N&probe=I,J: start at step N and write the colour drawn at the",
    " * middle of cells (or facelets) I, J into the page, for the tests */",
    "var h = {}, parts = location.hash.replace(/^#/, \"\").split(\"&\");",
    "for (i = 0; i < parts.length; i++) {",
    "  var kv = parts[i].split(\"=\");",
    "  if (kv.length === 2) h[kv[0]] = kv[1];",
    "}",
    "if (h.step) go(parseInt(h.step, 10)); else go(0);",
    "if (h.probe !== undefined) {",
    "  var out = [], ids = h.probe.split(\",\");",
    "  for (i = 0; i < ids.length; i++) {",
    "    var id = parseInt(ids[i], 10), x, y;",
    "    if (D.net) {",
    "      var a = D.polys[id];",
    "      x = PAD + scale * (a[0] + a[2] + a[4]) / 3; y = PAD + scale * (a[1] + a[3] + a[5]) / 3;",
    "    } else {",
    "      x = PAD + (id % D.cols) * S + S * 0.25; y = PAD + Math.floor(id / D.cols) * S + S * 0.25;",
    "    }",
    "    var px = g.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data, hex = \"#\";",
    "    for (var j = 0; j < 3; j++) hex += (px[j] < 16 ? \"0\" : \"\") + px[j].toString(16);",
    "    out.push(id + \"=\" + hex);",
    "  }",
    "  var pre = document.createElement(\"pre\");",
    "  pre.id = \"sbfs-probe\";",
    "  pre.textContent = \"step \" + step + \" \" + out.join(\" \");",
    "  document.body.appendChild(pre);",
    "}",
    "})();",
};

#define LINES(f, a)                                                                                  \
    for (size_t i_ = 0; i_ < sizeof(a) / sizeof *(a); i_++)                                          \
    fprintf((f), "%s\n", (a)[i_])

static FILE *open_out(const char *path, sb_error *err)
{
    if (!strcmp(path, "-"))
        return stdout;
    FILE *f = fopen(path, "w");
    if (!f)
        sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(errno));
    return f;
}

static int close_out(FILE *f, const char *path, sb_error *err)
{
    if (f == stdout)
        return fflush(f) ? sb_error_set(err, SB_EIO, 0, 0, "write error: %s", strerror(errno)) : 0;
    int bad = ferror(f);
    if (fclose(f) || bad)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: cannot write: %s", path, strerror(errno ? errno : EIO));
    return 0;
}

int view_write_html(const view *v, const char *path, sb_error *err)
{
    FILE *f = open_out(path, err);
    if (!f)
        return SB_EIO;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>sbfs: ");
    html_text(f, v->title);
    fprintf(f, "</title>\n<style>\n");
    LINES(f, page_style);
    fprintf(f, "</style>\n</head>\n<body>\n");
    /* first, so that it sees an error in the viewer's own script */
    fprintf(f, "<script>window.onerror = function (m, s, l) { var e = document.createElement(\"pre\"); "
               "e.id = \"sbfs-error\"; e.textContent = \"script error: \" + m + \" (line \" + l + \")\"; "
               "(document.body || document.documentElement).appendChild(e); };</script>\n");
    fprintf(f, "<h1>");
    html_text(f, v->title);
    fprintf(f, "</h1>\n");
    LINES(f, page_body);
    fprintf(f, "<script type=\"application/json\" id=\"sbfs-data\">\n");
    page_data(f, v);
    fprintf(f, "</script>\n<script>\n");
    LINES(f, viewer_js);
    fprintf(f, "</script>\n</body>\n</html>\n");
    return close_out(f, path, err);
}

/* ---- SVG: one frame, drawn as the page draws it ------------------------- */

static int cell_of(const view *v, const short *fr, int r, int c)
{
    return r < 0 || c < 0 || r >= v->rows || c >= v->cols ? -2 : fr[r * v->cols + c];
}

static void svg_tri(FILE *f, const double *t, double sc, double pad, const char *fill, int dash)
{
    fprintf(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"%s/>\n",
            pad + t[0] * sc, pad + t[1] * sc, pad + t[2] * sc, pad + t[3] * sc, pad + t[4] * sc, pad + t[5] * sc,
            fill, dash ? "#aaaaaa" : "#222222", dash ? " stroke-dasharray=\"3 3\"" : "");
}

int view_write_svg(const view *v, int frame, const char *path, sb_error *err)
{
    const double pad = 10;
    const short *fr = v->frames + (size_t)frame * (size_t)v->ncells;
    FILE *f = open_out(path, err);
    if (!f)
        return SB_EIO;
    if (v->net) {
        double sc = 640 / v->width < 70 ? 640 / v->width : 70, w = v->width * sc + 2 * pad, h = v->height * sc + 2 * pad;
        fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
                w, h, w, h);
        fprintf(f, "<title>");
        html_text(f, v->title);
        fprintf(f, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
        for (int i = 0; i < v->nghosts; i++)
            svg_tri(f, v->ghosts + 6 * i, sc, pad, "none", 1);
        for (int i = 0; i < v->ncells; i++)
            svg_tri(f, v->polys + 6 * i, sc, pad, fr[i] < 0 ? "#f3efe6" : v->pieces[fr[i]].color, 0);
        for (int i = 0; i < v->nlabels; i++) {
            fprintf(f,
                    "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-weight=\"bold\" font-size=\"15\" "
                    "text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#111111\" stroke=\"#ffffff\" "
                    "stroke-width=\"3\" paint-order=\"stroke\">",
                    pad + v->label_xy[i][0] * sc, pad + v->label_xy[i][1] * sc);
            html_text(f, v->label[i]);
            fprintf(f, "</text>\n");
        }
    } else {
        int big = v->rows > v->cols ? v->rows : v->cols, S = 560 / big;
        S = S < 24 ? 24 : S > 64 ? 64 : S;
        double m = S * 0.06 < 2 ? 2 : S * 0.06;
        int w = v->cols * S + 20, h = v->rows * S + 20;
        fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", w,
                h, w, h);
        fprintf(f, "<title>");
        html_text(f, v->title);
        fprintf(f, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
        for (int r = 0; r < v->rows; r++)
            for (int c = 0; c < v->cols; c++) {
                int i = r * v->cols + c, p = fr[i];
                double x = pad + c * S, y = pad + r * S;
                if (v->wall && v->wall[i]) {
                    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%d\" height=\"%d\" fill=\"#3a3a3a\"/>\n", x, y, S,
                            S);
                    continue;
                }
                fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%d\" height=\"%d\" fill=\"#f3efe6\"/>\n", x, y, S, S);
                if (p < 0)
                    continue;
                double l = cell_of(v, fr, r, c - 1) == p ? 0 : m, t = cell_of(v, fr, r - 1, c) == p ? 0 : m;
                double rr = cell_of(v, fr, r, c + 1) == p ? 0 : m, b = cell_of(v, fr, r + 1, c) == p ? 0 : m;
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", x + l, y + t,
                        S - l - rr, S - t - b, v->pieces[p].color);
            }
        for (int r = 0; v->goal && r < v->rows; r++)
            for (int c = 0; c < v->cols; c++) {
                if (!v->goal[r * v->cols + c])
                    continue;
                double x0 = pad + c * S + 3, y0 = pad + r * S + 3, x1 = x0 + S - 6, y1 = y0 + S - 6;
                int up = r > 0 && v->goal[(r - 1) * v->cols + c], dn = r + 1 < v->rows && v->goal[(r + 1) * v->cols + c];
                int lf = c > 0 && v->goal[r * v->cols + c - 1], rt = c + 1 < v->cols && v->goal[r * v->cols + c + 1];
                fprintf(f, "<path d=\"");
                if (!up)
                    fprintf(f, "M%.0f %.0fH%.0f", x0, y0, x1);
                if (!dn)
                    fprintf(f, "M%.0f %.0fH%.0f", x0, y1, x1);
                if (!lf)
                    fprintf(f, "M%.0f %.0fV%.0f", x0, y0, y1);
                if (!rt)
                    fprintf(f, "M%.0f %.0fV%.0f", x1, y0, y1);
                fprintf(f, "\" fill=\"none\" stroke=\"#c00000\" stroke-width=\"2\" stroke-dasharray=\"5 4\"/>\n");
            }
        int seen[SB_SLIDE_MAXCELLS + 1] = {0};
        for (int i = 0; i < v->ncells; i++) {
            int p = fr[i];
            if (p < 0 || p > SB_SLIDE_MAXCELLS || seen[p])
                continue;
            seen[p] = 1;
            fprintf(f,
                    "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-weight=\"bold\" font-size=\"%d\" "
                    "text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#111111\">",
                    pad + (i % v->cols) * S + S / 2.0, pad + (i / v->cols) * S + S / 2.0, (int)(S * 0.34 + 0.5));
            html_text(f, v->pieces[p].name);
            fprintf(f, "</text>\n");
        }
    }
    fprintf(f, "</svg>\n");
    return close_out(f, path, err);
}
