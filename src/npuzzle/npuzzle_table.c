/* God's-algorithm tables of R x C sliding-tile puzzles over the indexed
 * engine.
 *
 * A position is numbered by (tile order, blank cell), the tile order being
 * the tiles read row by row with the blank skipped.  Why this split: moving
 * the blank left or right does not change the tile order at all, so those
 * neighbours are the indices just before and after; moving it up or down
 * takes one tile past the C-1 tiles between its old and new cell, which
 * rotates C consecutive entries of the order.  On a 3 x 3 board
 *
 *     1 2 3        1 2 3
 *     4 _ 6   u    4 5 6      order 1 2 3 4 6 7 5 8  ->  1 2 3 4 5 6 7 8
 *     7 5 8  -->   7 _ 8      (entries 4..6 rotated: 6 7 5 -> 5 6 7)
 *
 * A rotation of C entries is C-1 transpositions, so a vertical move changes
 * the parity of the order exactly when C is even, and the blank's row
 * changes by one.  Starting from the goal (order sorted, blank in the last
 * row) the parity of the order of any reachable position is therefore
 * (C-1) * (R-1-row of the blank) mod 2: for each blank cell only one parity
 * occurs, which is the classical half of the positions.  Among orders of
 * one parity, (lexicographic rank) / 2 is a one-to-one numbering, because
 * orders 2k and 2k+1 differ only in their last two entries and so have
 * opposite parities.  Hence index = (rank(order) / 2) * cells + blank, and
 * unrank tries order 2k and swaps its last two entries if the parity is the
 * wrong one.
 *
 * Indices of one tile order are consecutive, so a scan over the indices
 * decodes each order once for all its blank cells: the model caches the last
 * decoded order in its per-thread scratch. */
#include "np_internal.h"

#include <stdio.h>
#include <string.h>

#include "sbfs/rank.h"
#include "../index/rank_internal.h" /* the Lehmer digits */

/* The engine's moves are the n-puzzle's (np_internal.h) in the order a
 * backward scan should try them, the horizontal ones first because they
 * cost nothing; the order also decides which of several shortest paths a
 * descent prints, so it is part of the output. */
enum { MV_L, MV_R, MV_U, MV_D };
static const int np_move[4] = {NP_L, NP_R, NP_U, NP_D};
#define dir_letter(m) np_letter[np_move[m]]


/* The tile order decoded last, kept in the per-thread scratch: the order,
 * its Lehmer digits and its full rank, so that a vertical move can update
 * the rank rather than recompute it (see vertical()). */
typedef struct cache {
    uint64_t order_plus1;   /* which order (k + 1; 0: none yet) */
    uint64_t rank;          /* full rank of seq: 2k or 2k+1 */
    int parity;             /* parity of seq */
    uint8_t seq[SB_NP_TABLE_MAXCELLS];
    uint8_t d[SB_NP_TABLE_MAXCELLS];
} cache;

_Static_assert(sizeof(cache) <= SB_MAX_SCRATCH, "scratch too small");

static int blank_parity(const sb_np_table *t, int blank)
{
    return ((t->cols - 1) * (t->rows - 1 - blank / t->cols)) & 1;
}

/* The tile order k (0-based tiles) with the given parity: the even one of
 * rank 2k or 2k+1, its last two entries swapped when odd is wanted. */
static void order_of(const sb_np_table *t, uint64_t k, int parity, uint8_t *seq)
{
    int n = t->cells - 1;
    sb_unrank_perm_even(k, seq, n);
    if (parity) {
        uint8_t x = seq[n - 2];
        seq[n - 2] = seq[n - 1];
        seq[n - 1] = x;
    }
}

/* Move the cache forward from order k0 to order k > k0.  A scan meets the
 * orders in increasing sequence, usually a few apart, so rather than
 * decoding k afresh, add k - k0 to the digits d[0..n-3] (radix n-i each)
 * from the low end: the carry seldom goes past two or three digits, and
 * only the entries from the highest digit that changed onwards have to be
 * chosen again, from the items those entries held. */
static void advance(int n, cache *c, uint64_t delta)
{
    int i = n - 3, sum = 0;
    uint32_t unused = 0;
    while (delta) {
        uint64_t radix = (uint64_t)(n - i), v = c->d[i] + delta;
        c->d[i] = (uint8_t)(v % radix);
        delta = v / radix;
        i--;
    }
    for (int j = i + 1; j < n; j++)
        unused |= 1u << c->seq[j];
    for (int j = 0; j < n - 2; j++)
        sum += c->d[j];
    c->d[n - 2] = (uint8_t)(sum & 1);
    for (int j = i + 1; j < n; j++) {
        uint32_t x = unused;
        for (int m = c->d[j]; m > 0; m--)
            x &= x - 1;
        c->seq[j] = (uint8_t)__builtin_ctz(x);
        unused &= x - 1; /* x's lowest bit is the item just taken */
    }
}

/* Orders 2k and 2k+1 differ in their second-last digit only (the last is
 * always 0), which is also the parity of the digit sum, i.e. of the order. */
static const cache *cached_order(const sb_np_table *t, cache *c, uint64_t k, int parity)
{
    int n = t->cells - 1;
    if (c->order_plus1 != k + 1) {
        if (c->order_plus1 && k + 1 > c->order_plus1 && n >= 3) {
            advance(n, c, k + 1 - c->order_plus1);
        } else {
            int sum = 0;
            sb_perm_digits(2 * k, c->d, n);
            for (int i = 0; i < n - 2; i++)
                sum += c->d[i];
            c->d[n - 2] = (uint8_t)(sum & 1);
            sb_perm_from_digits(c->d, c->seq, n);
        }
        c->rank = 2 * k + c->d[n - 2];
        c->parity = 0;
        c->order_plus1 = k + 1;
    }
    if (c->parity != parity) {
        uint8_t x = c->seq[n - 2];
        c->seq[n - 2] = c->seq[n - 1];
        c->seq[n - 1] = x;
        c->d[n - 2] ^= 1;
        c->rank ^= 1;
        c->parity = parity;
    }
    return c;
}

/* Index after moving the blank from cell b to cell nb = b -+ cols, the
 * order before the move being c.  Only the C entries of the order between
 * the two cells move, so only their Lehmer digits change: the digits before
 * the window count among the same set of later items, and those after it
 * see the same items.  Moving the blank up, the tile x at entry lo drops to
 * entry hi and the others shift left:
 *     d'[i]  = d[i+1] + (x < s[i+1])               lo <= i < hi
 *     d'[hi] = d[lo] - #{lo < j <= hi : s[j] < x}
 * and moving it down, the tile y at entry hi rises to entry lo:
 *     d'[lo] = d[hi] + #{lo <= j < hi : s[j] < y}
 *     d'[i]  = d[i-1] - (y < s[i-1])               lo < i <= hi.
 * So the rank changes by sum (d'[i] - d[i]) (n-1-i)! over the window: C
 * steps instead of n.  The index wants rank / 2, whatever the parity. */
static uint64_t vertical(const sb_np_table *t, const cache *c, int b, int nb)
{
    int n = t->cells - 1, lo, hi, cnt = 0;
    const uint8_t *s = c->seq, *d = c->d;
    const uint64_t *w = t->fact + (n - 1); /* w[-i] = (n-1-i)! */
    uint64_t r = c->rank;
    if (nb < b) {
        uint8_t x;
        lo = nb;
        hi = b - 1;
        x = s[lo];
        for (int i = lo; i < hi; i++) {
            int below = s[i + 1] < x;
            cnt += below;
            r += (uint64_t)(d[i + 1] + !below) * w[-i];
            r -= (uint64_t)d[i] * w[-i];
        }
        r += (uint64_t)(d[lo] - cnt) * w[-hi];
        r -= (uint64_t)d[hi] * w[-hi];
    } else {
        uint8_t y;
        lo = b;
        hi = nb - 1;
        y = s[hi];
        for (int i = hi; i > lo; i--) {
            int down = y < s[i - 1];
            cnt += !down;
            r += (uint64_t)(d[i - 1] - down) * w[-i];
            r -= (uint64_t)d[i] * w[-i];
        }
        r += (uint64_t)(d[hi] + cnt) * w[-lo];
        r -= (uint64_t)d[lo] * w[-lo];
    }
    return (r >> 1) * (uint64_t)t->cells + (uint64_t)nb;
}

static uint64_t npt_move(void *ud, void *scratch, uint64_t r, int m)
{
    const sb_np_table *t = ud;
    int cols = t->cols;
    uint64_t k = r / (uint64_t)t->cells;
    int b = (int)(r - k * (uint64_t)t->cells), row = b / cols, col = b - row * cols;
    switch (m) {
    case MV_L:
        return col > 0 ? r - 1 : SB_NO_INDEX;
    case MV_R:
        return col < cols - 1 ? r + 1 : SB_NO_INDEX;
    case MV_U:
        if (row == 0)
            return SB_NO_INDEX;
        return vertical(t, cached_order(t, scratch, k, blank_parity(t, b)), b, b - cols);
    default:
        if (row == t->rows - 1)
            return SB_NO_INDEX;
        return vertical(t, cached_order(t, scratch, k, blank_parity(t, b)), b, b + cols);
    }
}

/* All successors at once, decoding r once. */
static int npt_succ(void *ud, void *scratch, uint64_t r, uint64_t *out)
{
    const sb_np_table *t = ud;
    int cols = t->cols, c = 0;
    uint64_t k = r / (uint64_t)t->cells;
    int b = (int)(r - k * (uint64_t)t->cells), row = b / cols, col = b - row * cols;
    const cache *o;
    if (col > 0)
        out[c++] = r - 1;
    if (col < cols - 1)
        out[c++] = r + 1;
    o = cached_order(t, scratch, k, blank_parity(t, b));
    if (row > 0)
        out[c++] = vertical(t, o, b, b - cols);
    if (row < t->rows - 1)
        out[c++] = vertical(t, o, b, b + cols);
    return c;
}

/* 1 when t was set up by sb_np_table_init (a cheap look at the fields the
 * numbering indexes with). */
static int npt_ok(const sb_np_table *t)
{
    return t && t->cells >= 4 && t->cells <= SB_NP_TABLE_MAXCELLS && t->rows >= 2 && t->cols >= 2 &&
           t->rows * t->cols == t->cells && t->size == sb_factorial(t->cells - 1) / 2 * (uint64_t)t->cells;
}

static int no_npt(const char *what, sb_error *err)
{
    return sb_error_set(err, SB_EUSAGE, 0, 0, "%s: the table is NULL or not set up by sb_np_table_init",
                        what);
}

int sb_np_table_init(sb_np_table *t, int rows, int cols, sb_error *err)
{
    if (!t)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_table_init: t is NULL");
    memset(t, 0, sizeof *t);
    /* rows > MAX / cols is rows * cols > MAX without a product that could
     * overflow */
    if (rows < 2 || cols < 2 || rows > SB_NP_TABLE_MAXCELLS / cols)
        return sb_error_set(err, SB_EUSAGE, 0, 0,
                            "board %dx%d: sides must be at least 2 and the board at most %d cells",
                            rows, cols, SB_NP_TABLE_MAXCELLS);
    t->rows = rows;
    t->cols = cols;
    t->cells = rows * cols;
    for (int i = 0; i < SB_NP_TABLE_MAXCELLS; i++)
        t->fact[i] = sb_factorial(i);
    t->orders = sb_factorial(t->cells - 1) / 2;
    t->size = t->orders * (uint64_t)t->cells;
    snprintf(t->params, sizeof t->params, "%dx%d", rows & 63, cols & 63);
    t->model.name = "npuzzle";
    t->model.params = t->params;
    t->model.size = t->size;
    t->model.nmoves = 4;
    t->model.symmetric = 1;
    t->model.scratch_size = sizeof(cache);
    t->model.move = npt_move;
    t->model.succ = npt_succ;
    t->model.ud = t;
    return 0;
}

void sb_np_table_free(sb_np_table *t)
{
    if (!t)
        return;
    sb_table_free(t->table);
    t->table = NULL;
    t->have_table = 0;
}

uint64_t sb_np_table_rank(const sb_np_table *t, const uint8_t *cell)
{
    uint8_t seq[SB_NP_TABLE_MAXCELLS];
    unsigned seen = 0;
    int n, blank = -1, j = 0;
    if (!npt_ok(t) || !cell)
        return SB_NO_INDEX;
    n = t->cells - 1;
    for (int i = 0; i < t->cells; i++) {
        if (cell[i] > n || (seen >> cell[i]) & 1)
            return SB_NO_INDEX;
        seen |= 1u << cell[i];
        if (cell[i] == 0)
            blank = i;
        else
            seq[j++] = (uint8_t)(cell[i] - 1);
    }
    if (sb_perm_parity(seq, n) != blank_parity(t, blank))
        return SB_NO_INDEX;
    return sb_rank_perm_even(seq, n) * (uint64_t)t->cells + (uint64_t)blank;
}

int sb_np_table_unrank(const sb_np_table *t, uint64_t r, uint8_t *cell)
{
    uint8_t seq[SB_NP_TABLE_MAXCELLS];
    int blank, j = 0;
    if (!npt_ok(t) || !cell || r >= t->size)
        return SB_EUSAGE;
    blank = (int)(r % (uint64_t)t->cells);
    order_of(t, r / (uint64_t)t->cells, blank_parity(t, blank), seq);
    for (int i = 0; i < t->cells; i++)
        cell[i] = i == blank ? 0 : (uint8_t)(seq[j++] + 1);
    return 0;
}

uint64_t sb_np_table_goal(const sb_np_table *t)
{
    if (!npt_ok(t))
        return SB_NO_INDEX;
    return (uint64_t)t->cells - 1;
}

int sb_np_table_neighbours(const sb_np_table *t, uint64_t r, uint64_t out[4], char dir[4])
{
    cache c;
    int k = 0;
    if (!npt_ok(t) || !out || !dir || r >= t->size)
        return SB_EUSAGE;
    memset(&c, 0, sizeof c);
    for (int m = 0; m < 4; m++) {
        uint64_t q = npt_move((void *)t, &c, r, m);
        if (q != SB_NO_INDEX) {
            out[k] = q;
            dir[k++] = dir_letter(m);
        }
    }
    return k;
}

int sb_np_table_build(sb_np_table *t, const sb_table_opts *opts, sb_mem *mem, const sb_control *ctl,
                 sb_error *err)
{
    uint64_t goal;
    int rc;
    if (!npt_ok(t))
        return no_npt("sb_np_table_build", err);
    goal = sb_np_table_goal(t);
    sb_np_table_free(t);
    rc = sb_table_build(&t->table, &t->model, &goal, 1, opts, mem, ctl, err);
    t->have_table = t->table != NULL;
    if (rc && t->have_table && rc != SB_EINTR)
        sb_np_table_free(t);
    return rc;
}

int sb_np_table_save(const sb_np_table *t, const char *path, sb_error *err)
{
    if (!npt_ok(t))
        return no_npt("sb_np_table_save", err);
    if (!t->have_table)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "no table to save");
    return sb_table_save(t->table, path, err);
}

int sb_np_table_load(sb_np_table *t, const char *path, sb_mem *mem, sb_error *err)
{
    int rc;
    if (!npt_ok(t))
        return no_npt("sb_np_table_load", err);
    sb_np_table_free(t);
    rc = sb_table_load(&t->table, &t->model, path, mem, err);
    t->have_table = rc == 0;
    return rc;
}

int sb_np_table_distance(const sb_np_table *t, const uint8_t *cell)
{
    uint64_t r;
    if (!npt_ok(t) || !cell)
        return SB_EUSAGE;
    r = sb_np_table_rank(t, cell);
    if (r == SB_NO_INDEX || !t->have_table)
        return -1;
    return sb_table_distance(t->table, &t->model, r);
}

int sb_np_table_descend(const sb_np_table *t, const uint8_t *cell, char *moves, int max)
{
    uint64_t r, q;
    int len = 0, m, s;
    if (!npt_ok(t) || !cell || !moves || max < 0)
        return SB_EUSAGE;
    r = sb_np_table_rank(t, cell);
    if (r == SB_NO_INDEX || !t->have_table || sb_table_code(t->table, r) == (1 << sb_table_about(t->table).bits) - 1) {
        moves[0] = 0;
        return -1;
    }
    while ((s = sb_table_step(t->table, &t->model, r, &q, &m)) == 1) {
        if (len >= max) {
            moves[max] = 0;
            return SB_EUSAGE;
        }
        moves[len++] = dir_letter(m);
        r = q;
    }
    moves[len] = 0;
    return r == sb_np_table_goal(t) ? len : -1;
}

sb_np_table_info sb_np_table_about(const sb_np_table *t)
{
    sb_np_table_info in = {0, 0, 0, "", NULL, NULL, 0};
    if (npt_ok(t)) {
        in.model = &t->model;
        in.goal = sb_np_table_goal(t);
        in.rows = t->rows;
        in.cols = t->cols;
        in.size = t->size;
        in.params = t->params;
        in.table = t->have_table ? t->table : NULL;
    }
    return in;
}
