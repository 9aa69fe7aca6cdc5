/* Optimal solutions of R x C sliding-tile puzzles: IDA* over additive
 * disjoint pattern databases, in the blank-first frame.
 *
 * The model keeps the board, the cell of every tile, and for each pattern
 * the cells of its tiles and its current table value.  A move shifts one
 * tile, so it changes one pattern's placement: one rank and one lookup per
 * move, and the sum is updated by the difference.  On a square board the
 * transposed position (reflect about the main diagonal and rename each tile
 * after its reflected goal cell) is a position of the same puzzle at the
 * same distance, so its sum of lookups is a second lower bound; the model
 * keeps it incrementally too and the heuristic is the larger of the two.
 * For the 7-8 split the reflected patterns are the left two columns and the
 * right two, which is why the max gains so much there (Korf and Felner).
 *
 * Moves are the blank's directions (NP_U .. NP_R); the inverse of m is m^1,
 * and the model never offers the inverse of the move that led to a node.
 * The model holds no pointer into itself, so the parallel search copies it
 * whole for each thread.
 * Neighbour cells come from a table built once per search. */
#include "../search/ida.h"
#include "np_internal.h"

#include <string.h>

typedef struct side {
    uint8_t pos[SB_NP_MAXPDB][SB_NP_PDB_MAXK]; /* cells of each pattern's tiles */
    int val[SB_NP_MAXPDB];
    int sum;
} side;

typedef struct model {
    const sb_np_heur *h;
    int n, cols, reflect;
    int8_t nb[SB_NP_MAXCELLS][4];
    uint8_t cell[SB_NP_MAXCELLS];
    int blank;
    int8_t grp[SB_NP_MAXCELLS], slot[SB_NP_MAXCELLS];  /* pattern of tile t, its index there */
    uint8_t tr[SB_NP_MAXCELLS];                         /* transposed cell (= tile) */
    side s[2];                                          /* [0] the board, [1] its transpose */
    int hist[SB_NP_MAXLEN + 2][2][2];                   /* saved (group value, sum) per depth */
    int depth;
} model;

static inline int lookup(const model *m, int g, const uint8_t *pos)
{
    const sb_np_pdb *p = m->h->pdb[g];
    return p->dist[sb_np_pdb_index(p, pos)];
}

static int heur(const model *m)
{
    int a = m->s[0].sum, b = m->reflect ? m->s[1].sum : 0;
    return a > b ? a : b;
}

static int moves(void *vm, int last, int *out)
{
    model *m = vm;
    int k = 0;
    for (int d = 0; d < 4; d++)
        if (m->nb[m->blank][d] >= 0 && d != (last ^ 1))
            out[k++] = d;
    return k;
}

/* Tile t moved from cell `from` to cell `to`: update one side. */
static inline void shift(model *m, int sd, int t, int to)
{
    side *s = &m->s[sd];
    int g = m->grp[t], v;
    if (g < 0)
        return;
    s->pos[g][m->slot[t]] = (uint8_t)to;
    v = lookup(m, g, s->pos[g]);
    m->hist[m->depth][sd][0] = s->val[g];
    m->hist[m->depth][sd][1] = s->sum;
    s->sum += v - s->val[g];
    s->val[g] = v;
}

static int apply(void *vm, int d)
{
    model *m = vm;
    int from = m->nb[m->blank][d], to = m->blank, t = m->cell[from];
    m->cell[to] = (uint8_t)t;
    m->cell[from] = 0;
    m->blank = from;
    shift(m, 0, t, to);
    if (m->reflect)
        shift(m, 1, m->tr[t], m->tr[to]);
    m->depth++;
    return heur(m);
}

static inline void unshift(model *m, int sd, int t, int back)
{
    side *s = &m->s[sd];
    int g = m->grp[t];
    if (g < 0)
        return;
    s->pos[g][m->slot[t]] = (uint8_t)back;
    s->val[g] = m->hist[m->depth][sd][0];
    s->sum = m->hist[m->depth][sd][1];
}

static void undo(void *vm, int d)
{
    model *m = vm;
    int back = m->blank, to = m->nb[back][d ^ 1], t = m->cell[to];
    (void)d;
    m->depth--;
    m->cell[back] = (uint8_t)t;
    m->cell[to] = 0;
    m->blank = to;
    unshift(m, 0, t, back);
    if (m->reflect)
        unshift(m, 1, m->tr[t], m->tr[back]);
}

static int is_goal(void *vm, int h)
{
    const model *m = vm;
    if (h)
        return 0;
    for (int i = 0; i < m->n; i++)
        if (m->cell[i] != i)
            return 0;
    return 1;
}

static void fill_side(model *m, int sd, const uint8_t *cell)
{
    side *s = &m->s[sd];
    s->sum = 0;
    for (int i = 0; i < m->n; i++) {
        int t = cell[i];
        if (t && m->grp[t] >= 0)
            s->pos[m->grp[t]][m->slot[t]] = (uint8_t)i;
    }
    for (int g = 0; g < m->h->npdb; g++) {
        s->val[g] = lookup(m, g, s->pos[g]);
        s->sum += s->val[g];
    }
}

int np_solve_heur(const sb_np_heur *h, const sb_npuzzle *p, int goal, int threads,
                  sb_np_result *res, const sb_control *ctl, sb_error *err)
{
    sb_ida_model ops = {moves, apply, undo, is_goal, NULL, sizeof(model)};
    model m;
    uint8_t tcell[SB_NP_MAXCELLS];
    int path[SB_NP_MAXLEN], len = 0, rc, rows, cols, n;
    sb_ida_stats st;

    if (!h || !res)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_solve: %s is NULL", h ? "res" : "h");
    memset(res, 0, sizeof *res);
    if ((rc = np_check_position(p, "sb_np_solve", err)))
        return rc;
    if (goal != SB_NP_BLANK_LAST && goal != SB_NP_BLANK_FIRST)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_solve: unknown goal %d", goal);
    rows = p->rows, cols = p->cols, n = p->n;
    if (h->rows != rows || h->cols != cols)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "heuristic is for %dx%d, the position is %dx%d",
                            h->rows, h->cols, rows, cols);
    if (h->npdb < 0 || h->npdb > SB_NP_MAXPDB)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_solve: %d pattern databases (0..%d)",
                            h->npdb, SB_NP_MAXPDB);
    /* the model indexes its cell arrays by the tiles of each pattern */
    for (int g = 0; g < h->npdb; g++) {
        const sb_np_pdb *d = h->pdb[g];
        if (!d || !d->dist || d->rows != rows || d->cols != cols || d->k < 1 || d->k > SB_NP_PDB_MAXK)
            return sb_error_set(err, SB_EUSAGE, 0, 0,
                                "sb_np_solve: pattern database %d is missing or not for %dx%d", g,
                                rows, cols);
        for (int i = 0; i < d->k; i++)
            if (d->tiles[i] < 1 || d->tiles[i] >= n)
                return sb_error_set(err, SB_EUSAGE, 0, 0,
                                    "sb_np_solve: pattern database %d names tile %d", g,
                                    d->tiles[i]);
    }
    if (!sb_np_solvable(p, goal)) {
        res->length = -1;
        return 0;
    }
    memset(&m, 0, sizeof m);
    m.h = h;
    m.n = n;
    m.cols = cols;
    m.reflect = h->reflect && rows == cols;
    /* into the blank-first frame */
    if (goal == SB_NP_BLANK_FIRST)
        memcpy(m.cell, p->cell, (size_t)n);
    else
        np_turn(p->cell, m.cell, n);
    for (int i = 0; i < n; i++)
        if (m.cell[i] == 0)
            m.blank = i;
    for (int c = 0; c < n; c++) {
        int r = c / cols, q = c % cols;
        m.nb[c][NP_U] = (int8_t)(r > 0 ? c - cols : -1);
        m.nb[c][NP_D] = (int8_t)(r < rows - 1 ? c + cols : -1);
        m.nb[c][NP_L] = (int8_t)(q > 0 ? c - 1 : -1);
        m.nb[c][NP_R] = (int8_t)(q < cols - 1 ? c + 1 : -1);
        m.tr[c] = (uint8_t)(q * cols + r);
        m.grp[c] = -1;
    }
    for (int g = 0; g < h->npdb; g++)
        for (int i = 0; i < h->pdb[g]->k; i++) {
            m.grp[h->pdb[g]->tiles[i]] = (int8_t)g;
            m.slot[h->pdb[g]->tiles[i]] = (int8_t)i;
        }
    fill_side(&m, 0, m.cell);
    if (m.reflect) {
        for (int i = 0; i < n; i++)
            tcell[m.tr[i]] = m.tr[m.cell[i]];
        fill_side(&m, 1, tcell);
    }
    ops.ud = &m;
    rc = sb_ida_search_mt(&ops, heur(&m), SB_NP_MAXLEN, threads, path, &len, &st, ctl, err);
    res->nodes = st.generated;
    res->iterations = st.iterations;
    if (rc)
        return rc;
    res->length = len;
    for (int i = 0; i < len; i++) {
        int d = goal == SB_NP_BLANK_FIRST ? path[i] : path[i] ^ 1; /* turned 180 degrees */
        res->moves[i] = np_letter[d];
    }
    res->moves[len] = 0;
    return 0;
}

int np_solve_table(const sb_np_table *t, const sb_npuzzle *p, int goal, sb_np_result *res,
                   sb_error *err)
{
    uint8_t cell[SB_NP_MAXCELLS];
    int n, len, rc;
    if (!t || !res)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_solve_table: %s is NULL",
                            t ? "res" : "t");
    memset(res, 0, sizeof *res);
    if ((rc = np_check_position(p, "sb_np_solve_table", err)))
        return rc;
    if (goal != SB_NP_BLANK_LAST && goal != SB_NP_BLANK_FIRST)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_solve_table: unknown goal %d", goal);
    n = p->n;
    if (t->rows != p->rows || t->cols != p->cols || !t->have_table)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "no %dx%d table", p->rows, p->cols);
    if (!sb_np_solvable(p, goal)) {
        res->length = -1;
        return 0;
    }
    if (goal == SB_NP_BLANK_LAST)
        memcpy(cell, p->cell, (size_t)n);
    else
        np_turn(p->cell, cell, n);
    len = sb_np_table_descend(t, cell, res->moves, SB_NP_MAXLEN);
    if (len < 0)
        return sb_error_set(err, SB_EINTERNAL, 0, 0, "the table has no path for a solvable position");
    if (goal == SB_NP_BLANK_FIRST)
        for (int i = 0; i < len; i++) /* turned 180 degrees */
            res->moves[i] = np_letter[np_move_of((unsigned char)res->moves[i]) ^ 1];
    res->length = len;
    return 0;
}
