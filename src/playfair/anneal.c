/* The Playfair crack without a keyword: simulated annealing over key
 * squares, scored by English letter quadgrams.
 *
 * The score.  A text's score is the sum, over its windows of four letters,
 * of log10 of the window's frequency in a body of English text (unseen
 * windows count as a third of one occurrence).  English
 * scores about -4.3 a letter, random letters about -6, so the score of a
 * candidate square's decipherment says how near it is to the key: a square
 * with most letters right already gives words and pieces of words.  A
 * window that begins a pair and one that begins at a pair's second letter
 * are counted apart (quad_level): a pair never holds two equal letters,
 * and a filler X only ever stands second.  The table has 25^4 entries (J
 * folded into I, as in the cipher), one byte each holding both places'
 * levels, 0 to 15 from the floor up, small enough (390 KB) to stay in the
 * second-level cache, where the look-ups take most of the time.
 *
 * The walk.  From a random square, each step changes it a little and
 * deciphers the whole text again: two letters swap (nine steps in ten), or
 * two rows, or two columns, or the square is reflected (rows upside down,
 * columns left to right, or about its diagonal).  A step that raises the
 * score is taken; one that lowers it by d is taken with probability
 * exp(-d / T) at one temperature T for the whole walk, set from the
 * message's own score scale (walk_temperature), which finds more keys per
 * second than the linear fall to zero it replaced (Kirkpatrick, Gelatt
 * and Vecchi, "Optimization by simulated annealing", Science 1983; for
 * Playfair the swaps-and-reflections neighbourhood is the one of Cowan,
 * "Breaking short Playfair ciphers with the simulated annealing algorithm",
 * Cryptologia 2008).  The squares that differ by a cyclic shift of rows or
 * columns are the same cipher, so any of those is an answer.
 *
 * Restarts.  One walk may settle on a wrong square that no small change
 * improves, so the walks restart from fresh random squares.  Restart r
 * draws its numbers from a generator seeded with (seed, r), and restarts
 * run in rounds of ANNEAL_ROUND shared out among the threads, so the
 * answer depends on the seed alone, not on the threads or their timing
 * (unless the time limit stops a round).  The crack stops when the best
 * reading scores as English does (english_bar: the first restart of a
 * round to reach it ends the round), or when two restarts have found the
 * best score and it reads nearly as English (NEAR_SDS), or when `patience`
 * restarts in a row have not beaten the best, or at the time limit. */
#include "pf_internal.h"
#include "../core/internal.h"
#include "../core/le.h"
#include "../core/tablefile.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NQ (25u * 25u * 25u * 25u)
/* The levels of a window's log10 frequency, from the floor (0) up to 0
 * (QUAD_LEVELS), in a nibble: the high one for a window that begins a pair,
 * the low one for a window that begins at a pair's second letter.  A byte
 * of 255 steps for one table of both places was the table before.  Counted
 * apart, the two places' statistics are sharper, and sixteen levels are
 * enough: on 40 and 60 of the bench's 120-letter messages, eight restarts
 * of 400,000 steps, 16 levels of the one table recovered 117 in four runs
 * against 109 for 255 steps, and the two places' tables in 16 levels each
 * 312 in ten runs against 278 (no run fewer), both kept in 390 KB.  Two
 * tables of 255 steps (780 KB) recovered about as many more, but no longer
 * stayed in the cache beside the rest: 10% fewer steps a second. */
#define QUAD_LEVELS 15 /* a change here changes saved tables: see quad_kind */
#define ANNEAL_ROUND 4 /* restarts a round, whatever the number of threads */
/* Steps a restart.  At the fixed temperature, 200,000, 400,000 and
 * 800,000 steps found about as many keys a second on 120 letters (10%,
 * 20% and 34% of restarts); 400,000 keeps a round of restarts short
 * enough for a time limit of a second or two. */
#define ANNEAL_ITERS 400000
/* Restarts in a row that do not beat the best before the crack gives up,
 * by default.  A message read as English stops at once (english_bar), so
 * this only bounds the search for one not read yet, about 2.5 s of two
 * cores at 120 letters.  It was 32, which with the faster step gave up
 * after about 0.7 s: on the bench's 100 messages at 2 s each, 85 and 49
 * recovered at 120 and 80 letters, against 91 and 55 with a patience of
 * 128 (and a score found twice stopping the crack wherever it lay; 93 and
 * 57 without that, NEAR_SDS). */
#define ANNEAL_PATIENCE 128
/* Steps a walk runs on once its best square reads as English (the bar),
 * before its polish.  A walk often crosses the bar some swaps short of the
 * key (EITSNOTLESEVERYTHIN... for EITSETTLESEVERYTHING, -4.39 against
 * -4.06 a quadgram), and the steps after the crossing reach it: stopping at
 * the crossing recovered 8 of the first 40 of the bench's 80-letter
 * messages (8 restarts each, one thread) against 10 for the whole walk;
 * 20,000 more steps 9, 50,000 and 100,000 10.  At 120 letters 50,000
 * recovered the same 24 of 40 as the whole walk, in 15.5 s of CPU against
 * 20.8. */
#define ANNEAL_AFTER_BAR 50000

struct sb_pfquad {
    sb_mem own, *mem;
    uint32_t *count;  /* while counting: occurrences of each quadgram, NQ
                         that begin a pair, then NQ that begin second */
    uint8_t *lp;      /* once finished: the two levels (QUAD_LEVELS) */
    double floor_;    /* log10 frequency of an unseen quadgram */
    double mean, sd;  /* of the text's own windows, as the walk scores them */
    double scale;     /* table units a log10 unit */
    uint64_t total;   /* quadgrams counted */
    uint64_t place[2]; /* of them, those that begin a pair, begin second */
    unsigned q, have; /* the last three letters (base 25), how many */
    unsigned second;  /* the next letter is second in its pair */
    int held;         /* the first letter of an open pair, or -1 */
};

sb_pfquad *sb_pfquad_new(sb_mem *mem, sb_error *err)
{
    sb_pfquad *q = calloc(1, sizeof *q);
    if (!q) {
        sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        return NULL;
    }
    sb_mem_init(&q->own, 0);
    q->mem = mem ? mem : &q->own;
    if (!(q->count = sb_mem_alloc(q->mem, 2 * NQ * sizeof *q->count, err))) {
        free(q);
        return NULL;
    }
    memset(q->count, 0, 2 * NQ * sizeof *q->count);
    q->held = -1;
    return q;
}

void sb_pfquad_free(sb_pfquad *q)
{
    if (!q)
        return;
    sb_mem_free(q->mem, q->count, q->count ? 2 * NQ * sizeof *q->count : 0);
    sb_mem_free(q->mem, q->lp, q->lp ? NQ : 0);
    free(q);
}

/* The window of four that ends with letter x begins three letters
 * earlier, at the other place in its pair: second when x is first. */
static void count_letter(sb_pfquad *q, unsigned x)
{
    unsigned at = !q->second; /* the window's place */
    q->q = (q->q * 25u + x) % NQ, q->second = !q->second;
    if (++q->have >= 4) {
        uint32_t *c = &q->count[(size_t)at * NQ + q->q];
        if (*c < UINT32_MAX)
            (*c)++;
        q->total++, q->place[at]++;
    }
}

/* Letters run on across everything else: a Playfair plaintext has no
 * spaces, so "THE END" counts HEEN and EEND as well.  And the text is
 * counted as it would be enciphered: cut into pairs, with the filler X
 * between two equal letters that would share a pair, so "TOLL WAY" counts
 * the quadgrams of TO LX LW AY when its LL falls in one pair (and of
 * .T OL LW AY when it does not).  A message has such fillers every
 * seventy letters or so, and each puts three quadgrams like LXLW into its
 * reading that plain English almost never has: counted from unprepared
 * text, a square that turns those X's into other letters outscored the
 * key on 2 of the first 20 of the bench's 120-letter messages (BELCMKS
 * for BELXLES), and the true readings scored 0.1 to 0.3 a quadgram lower
 * than they do now.  At the same budget (8 restarts), 11 of those 20 were
 * recovered before and 13 now. */
int sb_pfquad_add(sb_pfquad *q, const char *text, size_t len, sb_error *err)
{
    if (!q || (!text && len))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_pfquad_add: %s is NULL", q ? "text" : "the table");
    if (!q->count)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "quadgram table already finished");
    for (size_t i = 0; i < len; i++) {
        int x = pf_index((unsigned char)text[i]);
        if (x < 0)
            continue;
        if (q->held < 0) {
            q->held = x;
        } else if (x == q->held) {
            count_letter(q, (unsigned)x), count_letter(q, PF_X);
        } else {
            count_letter(q, (unsigned)q->held), count_letter(q, (unsigned)x);
            q->held = -1;
        }
    }
    return 0;
}

/* A window's score from its table byte e: 16 units a level, by its place
 * in its pair (second: the low nibble).  A window that begins a pair
 * takes the whole byte, its own level times 16 and the other place's level
 * below it, which tells apart windows of one level and saves the walk a
 * shift a pair. */
static inline int32_t quad_level(unsigned e, int second)
{
    return (int32_t)(second ? (e & 15u) << 4 : e);
}

/* Unseen quadgrams get a third of one occurrence: a harsher floor (a
 * hundredth) made the landscape so steep that the walks stopped short (on
 * 160-letter texts, 1 in 8 solved against 6 in 8 with the third).  The
 * counts are used raw.  Smoothed by their beginnings (interpolated absolute
 * discounting down to single letters), an unseen window of near-English
 * scores by its trigrams instead of the floor, which might have widened
 * the key's basin; the walks found the key no more often (48 restarts on
 * 80 of the bench's 120-letter messages: 121 of 160 recovered against 124),
 * a few more wrong near-English readings passed the English bar, and the
 * table took twice as long to build (docs/ALGORITHMS.md has the figures). */
int sb_pfquad_finish(sb_pfquad *q, sb_error *err)
{
    double floor_;
    if (!q)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_pfquad_finish: the table is NULL");
    if (!q->count)
        return 0;
    if (q->total < SB_PFQUAD_MIN)
        return sb_error_set(err, SB_EINPUT, 0, 0, "%llu quadgrams of text: too few for English statistics (%d)",
                            (unsigned long long)q->total, SB_PFQUAD_MIN);
    if (!(q->lp = sb_mem_alloc(q->mem, NQ, err)))
        return SB_ENOMEM;
    /* each place's frequencies of its own windows, half the text's, and
     * one floor for both: a third of one occurrence in half the windows */
    floor_ = log10(1.0 / 3.0) - log10((double)q->total / 2);
    q->floor_ = floor_, q->scale = 16.0 * QUAD_LEVELS / -floor_; /* as quad_level sums them */
    memset(q->lp, 0, NQ);
    for (size_t i = 0; i < 2 * NQ; i++) {
        unsigned at = i >= NQ;
        double v = q->count[i] ? log10((double)q->count[i]) - log10((double)q->place[at]) : floor_;
        long level = lrint(fmax(v - floor_, 0) * QUAD_LEVELS / -floor_);
        q->lp[i % NQ] |= (uint8_t)((level > QUAD_LEVELS ? QUAD_LEVELS : level) << (at ? 0 : 4));
    }
    /* the text's own windows as the walk scores them (levels, not the
     * exact frequencies): the English bar compares the walk's sums with
     * this mean, and a level is as wide as the spread of a small text's */
    for (size_t i = 0; i < 2 * NQ; i++)
        if (q->count[i]) {
            double p = (double)q->count[i] / (double)q->total;
            double v = quad_level(q->lp[i % NQ], i >= NQ) / q->scale + floor_;
            q->mean += p * v, q->sd += p * v * v;
        }
    q->sd = sqrt(fmax(q->sd - q->mean * q->mean, 0));
    sb_mem_free(q->mem, q->count, 2 * NQ * sizeof *q->count);
    q->count = NULL;
    return 0;
}

uint64_t sb_pfquad_total(const sb_pfquad *q)
{
    return q ? q->total : 0;
}

/* A finished table saved: the table-file container (core/tablefile.h),
 * kind "quadgram"; its parameters eight numbers of 8 bytes, little-endian
 * (the caller's source tag, the quadgrams counted, those that begin a pair
 * and those that begin second, then the floor, the scale, the mean and
 * the deviation as IEEE doubles), its data the NQ bytes of levels.  A
 * change to what a table holds (QUAD_LEVELS, quad_level, the floor, the
 * counting of sb_pfquad_add) must raise the version: tables saved before
 * are then refused, and counted again. */
static const sb_tf_kind quad_kind = {"quadgram", 1, "a quadgram table"};
enum { QUAD_PARAMS = 8 * 8 };

static uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double bits_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

int sb_pfquad_save(const sb_pfquad *q, const char *path, uint64_t source, sb_error *err)
{
    unsigned char p[QUAD_PARAMS];
    if (!q || !path)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_pfquad_save: %s is NULL", q ? "path" : "the table");
    if (!q->lp)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_pfquad_save: the table is not finished");
    const uint64_t v[8] = {source, q->total, q->place[0], q->place[1],
                           double_bits(q->floor_), double_bits(q->scale), double_bits(q->mean), double_bits(q->sd)};
    for (int i = 0; i < 8; i++)
        sb_le_put64(p + 8 * i, v[i]);
    return sb_tf_save(path, &quad_kind, p, sizeof p, q->lp, NQ, 1, err);
}

sb_pfquad *sb_pfquad_load(const char *path, uint64_t source, sb_mem *mem, sb_error *err)
{
    sb_tf_reader r;
    unsigned char p[QUAD_PARAMS];
    size_t np;
    sb_pfquad *q;
    uint64_t v[8];
    if (!path) {
        sb_error_set(err, SB_EUSAGE, 0, 0, "sb_pfquad_load: path is NULL");
        return NULL;
    }
    if (sb_tf_open(&r, path, &quad_kind, p, sizeof p, &np, err))
        return NULL;
    if (np != QUAD_PARAMS || r.bytes != NQ) {
        sb_tf_refuse(&r, err, "%zu bytes of parameters and %llu of table, not %d and %u", np,
                     (unsigned long long)r.bytes, QUAD_PARAMS, NQ);
        return NULL;
    }
    for (int i = 0; i < 8; i++)
        v[i] = sb_le_get64(p + 8 * i);
    if (v[0] != source) {
        sb_tf_refuse(&r, err, "counted from another text (tag %016llx, not %016llx)", (unsigned long long)v[0],
                     (unsigned long long)source);
        return NULL;
    }
    if (v[1] < SB_PFQUAD_MIN || v[2] + v[3] != v[1] || !(bits_double(v[4]) < 0) || !(bits_double(v[5]) > 0) ||
        !isfinite(bits_double(v[4])) || !isfinite(bits_double(v[5])) || !isfinite(bits_double(v[6])) ||
        !isfinite(bits_double(v[7]))) {
        sb_tf_refuse(&r, err, "parameters out of range");
        return NULL;
    }
    if (!(q = calloc(1, sizeof *q))) {
        sb_tf_close(&r);
        sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        return NULL;
    }
    sb_mem_init(&q->own, 0);
    q->mem = mem ? mem : &q->own;
    q->held = -1;
    if (!(q->lp = sb_mem_alloc(q->mem, NQ, err))) {
        sb_tf_close(&r);
        free(q);
        return NULL;
    }
    if (sb_tf_read(&r, q->lp, 1, err)) {
        sb_pfquad_free(q);
        return NULL;
    }
    q->total = v[1], q->place[0] = v[2], q->place[1] = v[3];
    q->floor_ = bits_double(v[4]), q->scale = bits_double(v[5]);
    q->mean = bits_double(v[6]), q->sd = bits_double(v[7]);
    return q;
}

/* Each window's index from its own four letters: no chain from one
 * window to the next, so the look-ups overlap.  The text begins a pair. */
static int32_t score_text(const uint8_t *lp, const uint8_t *t, size_t n)
{
    int32_t s = 0;
    for (size_t i = 0; i + 3 < n; i++)
        s += quad_level(lp[((t[i] * 25u + t[i + 1]) * 25u + t[i + 2]) * 25u + t[i + 3]], (int)(i & 1));
    return s;
}

double sb_pfquad_score(const sb_pfquad *q, const char *text)
{
    size_t n = 0, len = text ? strlen(text) : 0;
    uint8_t *t;
    double s;
    if (!q || !text || !q->lp || !(t = malloc(len + 1)))
        return 0;
    for (size_t i = 0; i < len; i++) {
        int x = pf_index((unsigned char)text[i]);
        if (x >= 0)
            t[n++] = (uint8_t)x;
    }
    s = n >= 4 ? score_text(q->lp, t, n) / q->scale / (double)(n - 3) + q->floor_ : 0;
    free(t);
    return s;
}

/* ---- one walk ------------------------------------------------------------ */

/* The cells a pair of cells deciphers to, indexed by 32 a + b for the
 * cells a and b (a shift and an OR where 25 a + b takes two LEAs and an
 * add), the first cell and the second in tables of their own (a byte
 * load each where one 16-bit entry took a shift and two zero-extensions).
 * With the score's first two pairs taken before its loop, which then has
 * no test for them, a score of 120 letters took 141 ns against 172 (the
 * least of seven runs of a million, CPU time), and eight restarts on each
 * of the first 40 of the bench's 120-letter messages 12.8 s of CPU
 * against 15.3, the walks the same to the bit.  Finding the key is a
 * matter of steps (docs/ALGORITHMS.md), so steps a second are keys. */
#define PAIR_CELLS (24 * 32 + 25)

/* A neighbour of the square: mostly a swap of two letters (kind below
 * MOVE_SWAP: the letters of cells a and b), else two rows or columns a and
 * b swapped, or a reflection. */
enum { MOVE_SWAP = 45, MOVE_ROWS = 45, MOVE_COLUMNS, MOVE_UPSIDE_DOWN, MOVE_LEFT_RIGHT, MOVE_DIAGONAL };
typedef struct move {
    unsigned kind, a, b;
} move;

typedef struct walker {
    const uint8_t *lp;
    double scale; /* table units a log10 unit */
    const uint8_t *ct;
    size_t n;
    uint8_t *pt;    /* n letters */
    uint8_t to[2][PAIR_CELLS]; /* pf_pair_tables' deciphering, as above */
    /* score_vec's: the cipher letters and the windows' table indices, n
     * rounded up to 64 each, and its tables (score_vec) */
    int vec;
    uint8_t *ctv;
    uint32_t *ix;
    uint8_t code[4][64];
    uint8_t win[4][64];
    uint8_t iota[64];
    /* for the moves other than swaps (make_move, move_regs): by kind and
     * lines a, b (5 a + b), the cell each cell takes its letter from, and
     * the cell each cell's letter goes to (64 bytes, the rest in place) */
    uint8_t from[5][25][64];
    uint8_t to_cell[5][25][64];
    uint8_t order[120][5]; /* the orders of five lines (polish) */
} walker;

/* score_vec's tables: a cell as row << 3 | col (a code), and back; the
 * code a place to the left, a place up (deciphering in a row, a column);
 * and for the windows 16 g to 16 g + 15 of 64 letters, the places of
 * their four letters. */
enum { CELL_CODE, CODE_CELL, CODE_LEFT, CODE_UP };

static void walker_close(walker *w)
{
    free(w->pt);
    free(w->ctv);
    free(w->ix);
    w->pt = w->ctv = NULL, w->ix = NULL;
}

/* A walker over the n cipher letters ct (walker_close it), deciphering by
 * dec (pf_pair_tables), by score_vec when vec and the CPU has AVX-512.
 * Returns 0, or -1 when out of memory. */
static int walker_open(walker *w, const sb_pfquad *q, const uint16_t *dec, const uint8_t *ct, size_t n, int vec)
{
    size_t up = (n + 63) / 64 * 64;
    w->lp = q->lp, w->scale = q->scale, w->ct = ct, w->n = n;
    memset(w->to, 0, sizeof w->to);
    for (unsigned i = 0; i < 625; i++)
        w->to[0][i / 25 * 32 + i % 25] = (uint8_t)(dec[i] >> 8), w->to[1][i / 25 * 32 + i % 25] = (uint8_t)dec[i];
    memset(w->code, 0, sizeof w->code);
    for (unsigned c = 0; c < 64; c++) {
        unsigned r = c >> 3, k = c & 7;
        if (c < 25)
            w->code[CELL_CODE][c] = (uint8_t)(c / 5 << 3 | c % 5);
        if (r < 5 && k < 5)
            w->code[CODE_CELL][c] = (uint8_t)(r * 5 + k);
        w->code[CODE_LEFT][c] = (uint8_t)(r << 3 | (k + 4) % 5);
        w->code[CODE_UP][c] = (uint8_t)((r + 4) % 5 << 3 | k);
    }
    for (unsigned c = 0; c < 64; c++)
        w->iota[c] = (uint8_t)c;
    for (unsigned k = 0, x = 0; x < 3125; x++) { /* five digits base 5, all different */
        unsigned d[5], seen = 0;
        for (unsigned i = 0, y = x; i < 5; i++, y /= 5)
            d[i] = y % 5, seen |= 1u << d[i];
        if (seen == 31)
            for (unsigned i = 0; i < 5; i++)
                w->order[k][i] = (uint8_t)d[i];
        k += seen == 31;
    }
    for (unsigned k = 0; k < 5; k++)
        for (unsigned a = 0; a < 5; a++)
            for (unsigned b = 0; b < 5; b++)
                for (unsigned i = 0; i < 25; i++) {
                    unsigned row = i / 5, col = i % 5, from;
                    switch (k + MOVE_SWAP) {
                    case MOVE_ROWS:
                        from = (row == a ? b : row == b ? a : row) * 5 + col;
                        break;
                    case MOVE_COLUMNS:
                        from = row * 5 + (col == a ? b : col == b ? a : col);
                        break;
                    case MOVE_UPSIDE_DOWN:
                        from = (4 - row) * 5 + col;
                        break;
                    case MOVE_LEFT_RIGHT:
                        from = row * 5 + 4 - col;
                        break;
                    default: /* MOVE_DIAGONAL */
                        from = col * 5 + row;
                        break;
                    }
                    w->from[k][a * 5 + b][i] = (uint8_t)from;
                    w->to_cell[k][a * 5 + b][from] = (uint8_t)i;
                }
    for (unsigned k = 0; k < 5; k++)
        for (unsigned ab = 0; ab < 25; ab++)
            for (unsigned i = 25; i < 64; i++)
                w->from[k][ab][i] = w->to_cell[k][ab][i] = (uint8_t)i;
    for (unsigned g = 0; g < 4; g++)
        for (unsigned j = 0; j < 16; j++)
            for (unsigned t = 0; t < 4; t++)
                w->win[g][4 * j + t] = (uint8_t)(16 * g + j + t);
    w->vec = 0;
#ifdef PF_X86
    w->vec = vec && pf_screen_level() == PF_SCREEN_AVX512;
#else
    (void)vec;
#endif
    w->pt = malloc(n);
    w->ctv = w->vec ? calloc(up, 1) : NULL;
    w->ix = w->vec ? malloc(up * sizeof *w->ix) : NULL;
    if (!w->pt || (w->vec && (!w->ctv || !w->ix))) {
        walker_close(w);
        return -1;
    }
    if (w->vec)
        memcpy(w->ctv, ct, n);
    return 0;
}

/* The letters *a and *b that cipher letters i and i + 1 decipher to
 * under sq. */
static inline void pair_at(const walker *w, const uint8_t sq[25], const uint8_t pos[25], size_t i, uint32_t *a,
                           uint32_t *b)
{
    size_t p = (size_t)pos[w->ct[i]] << 5 | pos[w->ct[i + 1]];
    *a = sq[w->to[0][p]], *b = sq[w->to[1][p]];
}

/* Decipher under sq into w->pt: the answer's letters. */
static void decipher_at(const walker *w, const uint8_t sq[25], const uint8_t pos[25])
{
    for (size_t i = 0; i < w->n; i += 2) {
        uint32_t a, b;
        pair_at(w, sq, pos, i, &a, &b);
        w->pt[i] = (uint8_t)a, w->pt[i + 1] = (uint8_t)b;
    }
}

/* The walk's score of the square: the sum, over the deciphered text's
 * windows of four letters, of their table entries, without writing the
 * text.  Each pair is deciphered once into registers and closes the two
 * windows that end in it, (y1 x0 x1 a) and (x0 x1 a b) for the pairs
 * (y0 y1) (x0 x1) (a b), so nothing is stored and read back: a step's
 * work is the pairs' look-ups and the windows' table reads.  It replaced a
 * pass that wrote the letters, then their pairs (25 a + b), then summed
 * the windows from those: the same sums, so the same walks, but eight
 * restarts on each of 40 messages of 120 letters took 19.7 s of CPU
 * against 24.1. */
static int32_t score_at(const walker *w, const uint8_t sq[25], const uint8_t pos[25])
{
    const uint8_t *restrict lp = w->lp;
    size_t n = w->n;
    uint32_t y1, x1, x, a, b;
    int32_t s, t = 0;
    if (n < 4)
        return 0;
    pair_at(w, sq, pos, 0, &a, &b);
    x = a * 25u + b, y1 = b;
    pair_at(w, sq, pos, 2, &a, &b);
    s = lp[x * 625u + a * 25u + b]; /* the second pair closes one window */
    x1 = b, x = a * 25u + b;
    for (size_t i = 4; i < n; i += 2) { /* quad_level, the shift of the second place's taken once */
        pair_at(w, sq, pos, i, &a, &b);
        t += lp[y1 * 15625u + x * 25u + a] & 15u;
        s += lp[x * 625u + a * 25u + b];
        y1 = x1, x1 = b, x = a * 25u + b;
    }
    return s + 16 * t;
}

#ifdef PF_X86
/* The letters that the 64 cipher letters at ct decipher to, given codes
 * (the code of each letter's cell) and letters (the letter of each code's
 * cell). */
PF_AVX512 static inline __attribute__((always_inline)) __m512i plain64(const uint8_t *ct, __m512i codes,
                                                                       __m512i letters, __m512i left, __m512i up)
{
    const __m512i swap = _mm512_set_epi8(62, 63, 60, 61, 58, 59, 56, 57, 54, 55, 52, 53, 50, 51, 48, 49, 46, 47, 44,
                                         45, 42, 43, 40, 41, 38, 39, 36, 37, 34, 35, 32, 33, 30, 31, 28, 29, 26, 27,
                                         24, 25, 22, 23, 20, 21, 18, 19, 16, 17, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
                                         4, 5, 2, 3, 0, 1);
    const __m512i rowm = _mm512_set1_epi8(0x38), colm = _mm512_set1_epi8(7);
    __m512i c = _mm512_permutexvar_epi8(_mm512_loadu_si512(ct), codes);
    __m512i q = _mm512_permutexvar_epi8(swap, c), x = _mm512_xor_si512(c, q); /* q: the partner's */
    __mmask64 row = _mm512_testn_epi8_mask(x, rowm), col = _mm512_testn_epi8_mask(x, colm);
    __m512i d = _mm512_ternarylogic_epi32(rowm, c, q, 0xca); /* own row, partner's column */
    d = _mm512_mask_permutexvar_epi8(d, col, c, up);
    d = _mm512_mask_permutexvar_epi8(d, row, c, left);
    return _mm512_permutexvar_epi8(d, letters);
}

/* The table indices of 16 windows: their letters from l and the next 64,
 * m, at the places g gives, then 625 (25 a + b) + 25 c + d. */
PF_AVX512 static inline __attribute__((always_inline)) __m512i windows16(__m512i l, __m512i g, __m512i m)
{
    const __m512i m25 = _mm512_set1_epi16(25 | 1 << 8), m625 = _mm512_set1_epi32(625 | 1 << 16);
    return _mm512_madd_epi16(_mm512_maddubs_epi16(_mm512_permutex2var_epi8(l, g, m), m25), m625);
}

/* score_at with AVX-512 VBMI, the same sums, for the square and its
 * inverse in registers: the cipher letters 64 at a time become cells by a
 * byte permute of the inverse (as codes, row << 3 | col), each meets its
 * partner's by swapping the bytes of each pair, the rule is a select and
 * two permutes (a place left in a row, up in a column), and a last permute
 * gives the letters (plain64).  Each group of 16 windows is a permute of
 * those letters and the next 64 and two multiply-adds (windows16),
 * stored; the table is read by scalar loads, which outrun gathers here.
 * Score of 120 letters: 69 ns against 141 (a loop of two million scores
 * of random squares). */
PF_AVX512 static inline __attribute__((always_inline)) int32_t score_regs(const walker *w, __m512i sqv,
                                                                          __m512i posv)
{
    const uint8_t *restrict lp = w->lp;
    uint32_t *ix = w->ix;
    size_t n = w->n, nw = n - 3, k;
    const __m512i left = _mm512_loadu_si512(w->code[CODE_LEFT]), up = _mm512_loadu_si512(w->code[CODE_UP]);
    const __m512i w0 = _mm512_loadu_si512(w->win[0]), w1 = _mm512_loadu_si512(w->win[1]);
    const __m512i w2 = _mm512_loadu_si512(w->win[2]), w3 = _mm512_loadu_si512(w->win[3]);
    __m512i codes = _mm512_permutexvar_epi8(posv, _mm512_loadu_si512(w->code[CELL_CODE])); /* letter -> code */
    __m512i letters = _mm512_permutexvar_epi8(_mm512_loadu_si512(w->code[CODE_CELL]), sqv); /* code -> letter */
    __m512i l, m;
    int32_t s = 0, t = 0;
    if (n < 4) /* as score_at: no window */
        return 0;
    l = plain64(w->ctv, codes, letters, left, up);
    for (size_t i = 0; i < nw; i += 64) {
        m = i + 64 < n ? plain64(w->ctv + i + 64, codes, letters, left, up) : _mm512_setzero_si512();
        _mm512_storeu_si512(ix + i, windows16(l, w0, m));
        _mm512_storeu_si512(ix + i + 16, windows16(l, w1, m));
        _mm512_storeu_si512(ix + i + 32, windows16(l, w2, m));
        _mm512_storeu_si512(ix + i + 48, windows16(l, w3, m));
        l = m;
    }
    for (k = 0; k + 1 < nw; k += 2) /* quad_level, the second place's shift taken once */
        s += lp[ix[k]], t += lp[ix[k + 1]] & 15u;
    if (k < nw)
        s += lp[ix[k]];
    return s + 16 * t;
}

PF_AVX512 static int32_t score_vec(const walker *w, const uint8_t sq[25], const uint8_t pos[25])
{
    return score_regs(w, _mm512_maskz_loadu_epi8(0x1ffffff, sq), _mm512_maskz_loadu_epi8(0x1ffffff, pos));
}

/* The square sq and its inverse pos after the move m, in registers: the
 * cells permuted (each takes its letter from the cell p gives) by a byte
 * permute of the square, and each letter's cell mapped by the inverse
 * permutation.  A swap of two letters is its own inverse, made from an
 * identity with two bytes set; the other moves come from tables. */
PF_AVX512 static inline void move_regs(const walker *w, const uint8_t sq[64], const uint8_t pos[64], move m,
                                       __m512i *sqv, __m512i *posv)
{
    __m512i p, inv;
    if (m.kind < MOVE_SWAP) {
        __m512i iota = _mm512_loadu_si512(w->iota);
        p = inv = _mm512_mask_set1_epi8(_mm512_mask_set1_epi8(iota, 1ULL << m.a, (char)m.b), 1ULL << m.b,
                                        (char)m.a);
    } else {
        p = _mm512_loadu_si512(w->from[m.kind - MOVE_SWAP][m.a * 5 + m.b]);
        inv = _mm512_loadu_si512(w->to_cell[m.kind - MOVE_SWAP][m.a * 5 + m.b]);
    }
    *sqv = _mm512_permutexvar_epi8(p, _mm512_loadu_si512(sq));
    *posv = _mm512_permutexvar_epi8(_mm512_loadu_si512(pos), inv);
}

/* The score of sq after the move m. */
PF_AVX512 static int32_t score_vec_move(const walker *w, const uint8_t sq[64], const uint8_t pos[64], move m)
{
    __m512i sqv, posv;
    move_regs(w, sq, pos, m, &sqv, &posv);
    return score_regs(w, sqv, posv);
}

/* Make it for good, each array by one store of 64 bytes, which the next
 * step's loads take whole: after stores of single bytes they had to wait
 * for the stores to reach the cache. */
PF_AVX512 static void take_vec(const walker *w, uint8_t sq[64], uint8_t pos[64], move m)
{
    __m512i sqv, posv;
    move_regs(w, sq, pos, m, &sqv, &posv);
    _mm512_storeu_si512(sq, sqv);
    _mm512_storeu_si512(pos, posv);
}
#endif

/* The walk's score of the square sq (pos: the cell of each letter). */
static inline int32_t score(const walker *w, const uint8_t sq[25], const uint8_t pos[25])
{
#ifdef PF_X86
    if (w->vec)
        return score_vec(w, sq, pos);
#endif
    return score_at(w, sq, pos);
}

static void where(const uint8_t sq[25], uint8_t pos[25])
{
    for (int i = 0; i < 25; i++)
        pos[sq[i]] = (uint8_t)i;
}

static int32_t square_score(const walker *w, const uint8_t sq[25])
{
    uint8_t pos[25];
    where(sq, pos);
    return score(w, sq, pos);
}

/* One draw of 64 bits makes the move: its kind from the high half, the
 * cells or lines from the low half and what that leaves, by
 * multiplications (Lemire's "nearly divisionless" ranges, without the
 * rejection: no outcome's chance is off by more than 2^-22 of itself).
 * Three draws, two divisions each, took a fifth of a step once the score
 * was vectorised. */
static inline __attribute__((always_inline)) move draw_move(sb_rng *r)
{
    uint64_t x = sb_rng_step(r), t;
    move m;
    unsigned n;
    m.kind = (unsigned)(((x >> 32) * 50) >> 32);
    n = m.kind < MOVE_SWAP ? 25 : 5;
    t = (x & 0xffffffffu) * n;
    m.a = (unsigned)(t >> 32);
    m.b = (unsigned)(((t & 0xffffffffu) * (n - 1)) >> 32);
    m.b += m.b >= m.a;
    return m;
}

/* Make the move on sq and pos (the cell of each letter, which follows:
 * rebuilding it every step cost a quarter of the time).  The moves other
 * than swaps take each cell's letter from the cell w->from gives. */
static void make_move(const walker *w, move m, uint8_t sq[25], uint8_t pos[25])
{
    uint8_t t[25];
    const uint8_t *from;
    if (m.kind < MOVE_SWAP) {
        t[0] = sq[m.a], sq[m.a] = sq[m.b], sq[m.b] = t[0];
        pos[sq[m.a]] = (uint8_t)m.a, pos[sq[m.b]] = (uint8_t)m.b;
        return;
    }
    from = w->from[m.kind - MOVE_SWAP][m.a * 5 + m.b];
    memcpy(t, sq, 25);
    for (unsigned i = 0; i < 25; i++)
        sq[i] = t[from[i]];
    where(sq, pos);
}

/* The score of sq and pos after the move m, made on copies (cand, cpos),
 * or in registers by the vector score. */
static inline __attribute__((always_inline)) int32_t score_move(const walker *w, const uint8_t sq[64],
                                                                const uint8_t pos[64], move m, uint8_t cand[64],
                                                                uint8_t cpos[64], int vec)
{
#ifdef PF_X86
    if (vec)
        return score_vec_move(w, sq, pos, m);
#endif
    memcpy(cand, sq, 25), memcpy(cpos, pos, 25);
    make_move(w, m, cand, cpos);
    return score(w, cand, cpos);
}

/* Take the move that score_move scored. */
static inline __attribute__((always_inline)) void take_move(const walker *w, uint8_t sq[64], uint8_t pos[64],
                                                             move m, const uint8_t cand[64], const uint8_t cpos[64],
                                                             int vec)
{
#ifdef PF_X86
    if (vec) {
        take_vec(w, sq, pos, m);
        return;
    }
#endif
    memcpy(sq, cand, 25), memcpy(pos, cpos, 25);
}

/* Every order of the rows of sq, then every order of its columns (240
 * squares), each kept when it beats *top.  Returns whether one did. */
static int reorder(const walker *w, uint8_t sq[25], int32_t *top)
{
    int better = 0;
    for (int col = 0; col < 2; col++) { /* the rows' orders, then the columns' */
        uint8_t was[25];
        memcpy(was, sq, 25);
        for (int k = 0; k < 120; k++) {
            const uint8_t *o = w->order[k];
            uint8_t t[25];
            int32_t s;
            for (int i = 0; i < 25; i++)
                t[i] = col ? was[i / 5 * 5 + o[i % 5]] : was[o[i / 5] * 5 + i % 5];
            s = square_score(w, t);
            if (s > *top)
                *top = s, better = 1, memcpy(sq, t, 25);
        }
    }
    return better;
}

/* The end of a walk: from its best square, every swap of two letters in
 * turn, then every order of the rows and every order of the columns,
 * keeping each that raises the score, until none does.  A walk often ends
 * one or two swaps from a better square (THE WAY SEEMED where THE BAY
 * SEEMED was meant), which a random step finds only by chance.  And a
 * square whose rows and columns hold the key's letters deciphers every
 * pair whose letters share no line right, whatever the order of its rows
 * and columns: the order of the rows only moves the letters of pairs in
 * one column, that of the columns those of pairs in one row.  Such a
 * square reads much as the key does, yet a single swap of two rows often
 * reads worse (rows in the order D C O Z E where the key has E D Z C O,
 * a turn of three); three of the bench's 100 messages of 120 letters
 * stopped there, above the English bar.  Returns the squares tried. */
static uint64_t polish(const walker *w, uint8_t sq[25], int32_t *top)
{
    uint64_t tried = 0;
    for (int better = 1; better;) {
        better = 0;
        for (int a = 0; a < 25; a++)
            for (int b = a + 1; b < 25; b++) {
                uint8_t x = sq[a];
                int32_t s;
                sq[a] = sq[b], sq[b] = x;
                s = square_score(w, sq), tried++;
                if (s > *top) {
                    *top = s, better = 1;
                } else {
                    x = sq[a], sq[a] = sq[b], sq[b] = x;
                }
            }
        better |= reorder(w, sq, top);
        tried += 240;
    }
    return tried;
}

/* The walk's score of a square (letters, row by row) for a ciphertext,
 * as sb_pfquad_score gives it, after the polish when polished (the square
 * is then the polished one): for the tests. */
static double tested(const sb_pfquad *q, char square[25], const char *cipher, int vec, int polished)
{
    uint16_t enc[625], dec[625];
    uint8_t sq[25], pos[25], *ct;
    size_t len = strlen(cipher), n = 0;
    walker w;
    int32_t top;
    for (int i = 0; i < 25; i++)
        sq[i] = (uint8_t)pf_index((unsigned char)square[i]);
    if (!(ct = malloc(len + 1)))
        return 0;
    for (size_t i = 0; i < len; i++) {
        int x = pf_index((unsigned char)cipher[i]);
        if (x >= 0)
            ct[n++] = (uint8_t)x;
    }
    pf_pair_tables(enc, dec);
    if (n < 4 || n % 2 || walker_open(&w, q, dec, ct, n, vec)) {
        free(ct);
        return 0;
    }
    where(sq, pos);
    top = score(&w, sq, pos);
    if (polished) {
        polish(&w, sq, &top);
        for (int i = 0; i < 25; i++)
            square[i] = pf_alpha[sq[i]];
    }
    walker_close(&w);
    free(ct);
    return top / q->scale / (double)(n - 3) + q->floor_;
}

double pf_anneal_score(const sb_pfquad *q, const char square[25], const char *cipher, int vec)
{
    char sq[25];
    memcpy(sq, square, 25);
    return tested(q, sq, cipher, vec, 0);
}

double pf_anneal_polish(const sb_pfquad *q, char square[25], const char *cipher)
{
    return tested(q, square, cipher, 1, 1);
}

/* The walks' temperature in table units: o->temperature (log10 units), or
 * by default 0.37 times the root mean square of a step's score change
 * between random squares, measured on this message (1,000 steps, from a
 * generator of its own, so the walks draw the same numbers with or
 * without it).  A fixed
 * temperature did better than any falling one tried, and the one that did
 * best tracks that spread: per restart of 400,000 steps on 20 to 40
 * messages of fortunes passages, 2.4, 3.0 and 4.0 (log10) were best at 80,
 * 120 and 200 letters, where the spread is 6.4, 8.2 and 11.0; it grows
 * with the square root of the length (a step re-draws most windows) and
 * with the table's range, which a temperature in letters could not know.
 * With the table by place (QUAD_LEVELS) the factor was measured again at
 * 120 letters: 0.34 to 0.37 best, 0.30 and 0.45 well below. */
static double walk_temperature(const walker *w, const sb_playfair_anneal_opts *o)
{
    sb_rng r;
    double sum = 0;
    enum { SAMPLES = 1000 };
    if (o->temperature > 0)
        return o->temperature * w->scale;
    sb_rng_seed(&r, o->seed ^ 0x5ca1ab1e5ca1ab1eULL);
    for (int k = 0; k < SAMPLES; k++) {
        uint8_t sq[25], pos[25];
        int32_t a;
        for (int i = 0; i < 25; i++)
            sq[i] = (uint8_t)i;
        for (int i = 24; i > 0; i--) {
            unsigned j = (unsigned)sb_rng_below(&r, (uint64_t)i + 1);
            uint8_t x = sq[i];
            sq[i] = sq[j], sq[j] = x;
        }
        where(sq, pos);
        a = score(w, sq, pos);
        make_move(w, draw_move(&r), sq, pos);
        a -= score(w, sq, pos);
        sum += (double)a * a;
    }
    sum = 0.37 * sqrt(sum / SAMPLES);
    return sum < 1 ? 1 : sum;
}

/* The Metropolis test without exp(): a threshold for each loss d, up to
 * where exp(-d / T) falls below 2^-32. */
int pf_accept_init(pf_accept *a, double temp)
{
    double end = temp * 32.0 * 0.6931471805599453; /* exp(-end / T) = 2^-32 */
    a->len = (int32_t)(end < 1 ? 1 : end > 1e6 ? 1e6 : ceil(end));
    if (!(a->acc = malloc((size_t)a->len * sizeof *a->acc)))
        return -1;
    for (int32_t d = 0; d < a->len; d++) {
        double v = ldexp(exp(-(double)d / temp), 32);
        a->acc[d] = v >= 4294967295.0 ? UINT32_MAX : (uint32_t)v;
    }
    return 0;
}

/* One restart: the best square it met and its score.  It ends
 * ANNEAL_AFTER_BAR steps after a square scores bar (read as English: the
 * crack ends with this round), and it is abandoned (INT32_MIN) when a
 * restart of the round before it (index below k) has reached the bar: *cut
 * holds the least such index.  Those restarts were taken before this one
 * and run to their own end, so the round's answer still depends on the
 * seed alone.  A walk used to run its 400,000 steps after meeting the key,
 * and its round's other restarts theirs. */
static inline __attribute__((always_inline)) int32_t walk_body(const walker *w, uint64_t seed, uint64_t restart,
                                                               const sb_playfair_anneal_opts *o, const pf_accept *at,
                                                               int32_t bar, unsigned k, atomic_uint *cut,
                                                               uint8_t best[25], atomic_int *stop, uint64_t *steps,
                                                               int vec)
{
    sb_rng r;
    _Alignas(64) uint8_t sq[64], cand[64], pos[64], cpos[64];
    int32_t cur, top;
    move m;
    uint64_t iters = o->iterations ? o->iterations : ANNEAL_ITERS, i;
    sb_rng_seed(&r, seed ^ (restart + 1) * 0x9e3779b97f4a7c15ULL);
    memset(sq, 0, sizeof sq), memset(pos, 0, sizeof pos);
    for (int c = 0; c < 25; c++)
        sq[c] = (uint8_t)c;
    for (int c = 24; c > 0; c--) { /* a uniform random square */
        unsigned j = (unsigned)sb_rng_below(&r, (uint64_t)c + 1);
        uint8_t x = sq[c];
        sq[c] = sq[j], sq[j] = x;
    }

    where(sq, pos);
    cur = top = score(w, sq, pos);
    memcpy(best, sq, 25);
    for (i = 0; i < iters; i++) {
        int32_t s, d;
        if ((i & 4095) == 0) {
            if (atomic_load_explicit(stop, memory_order_relaxed))
                break;
            if (atomic_load_explicit(cut, memory_order_relaxed) < k) {
                *steps += i;
                return INT32_MIN;
            }
        }
        m = draw_move(&r);
        s = score_move(w, sq, pos, m, cand, cpos, vec);
        d = cur - s;
        if (d <= 0 || (d < at->len && (uint32_t)(sb_rng_step(&r) >> 32) < at->acc[d])) {
            take_move(w, sq, pos, m, cand, cpos, vec), cur = s;
            if (cur > top) {
                top = cur, memcpy(best, sq, 25);
                if (top >= bar && i + ANNEAL_AFTER_BAR < iters)
                    iters = i + ANNEAL_AFTER_BAR;
            }
        }
    }
    *steps += i + polish(w, best, &top);
    if (top >= bar) {
        unsigned was = atomic_load(cut);
        while (k < was && !atomic_compare_exchange_weak(cut, &was, k))
            ;
    }
    return top;
}

#define WALK_ARGS                                                                                                  \
    const walker *w, uint64_t seed, uint64_t restart, const sb_playfair_anneal_opts *o, const pf_accept *at,      \
        int32_t bar, unsigned k, atomic_uint *cut, uint8_t best[25], atomic_int *stop, uint64_t *steps
#define WALK_CALL(f) f(w, seed, restart, o, at, bar, k, cut, best, stop, steps)

static int32_t walk_portable(WALK_ARGS)
{
    return walk_body(w, seed, restart, o, at, bar, k, cut, best, stop, steps, 0);
}

#ifdef PF_X86
/* The same walk compiled for AVX-512 (vec is a constant in each copy), so
 * that the vector score of a swap is inlined into its loop and keeps its
 * constants in registers from step to step, and the generator's step
 * too: the same walks, 1.97 s of CPU against 2.32 for four restarts on
 * each of 20 of the bench's 120-letter messages (medians of five runs,
 * alternated). */
PF_AVX512 static int32_t walk_avx512(WALK_ARGS)
{
    return walk_body(w, seed, restart, o, at, bar, k, cut, best, stop, steps, 1);
}
#endif

static int32_t walk_one(WALK_ARGS)
{
#ifdef PF_X86
    if (w->vec)
        return WALK_CALL(walk_avx512);
#endif
    return WALK_CALL(walk_portable);
}
#undef WALK_ARGS
#undef WALK_CALL

/* ---- restarts, shared among threads -------------------------------------- */

/* How far below the corpus's own mean a reading may score and still be
 * taken for English, in standard deviations of the mean over as many
 * independent windows as the message has.  A wrong stop loses the message
 * and a missed one only time, so the bar is high: short texts let the
 * walks fit wrong squares closely.  Passages of the bench (fortunes: mean
 * -4.24, deviation 0.72 a quadgram), true readings against the best
 * squares the walks got stuck on: at 80 letters -3.97 to -4.53 against
 * -4.52 and below (30 messages), at 120 -4.04 to -4.53 against -4.95 and
 * below (20).  At 6 deviations (0.49 below the mean at 80 letters) four of
 * twenty 80-letter messages stopped on a wrong square; at 2.5 (0.21 below
 * the mean at 80, 0.17 at 120, 0.13 at 200) none did. */
#define ENGLISH_SDS 2.5
/* The crack also stops when two restarts have found the best score and
 * it reads nearly as English: within NEAR_SDS deviations, twice the bar's
 * distance (true readings of the bench just below the bar, -4.42 and
 * -4.44 a quadgram at 120 letters where the bar is -4.41, pass; wrong
 * squares the walks stick on, -4.8 and below, do not).  Found twice anywhere, it stopped on wrong squares
 * two walks had both stuck on (message 15 of the bench's 120-letter set
 * at -4.90, after 12 restarts); never found twice, the true readings
 * below the bar ran to the patience or the time limit: at 200 letters
 * 49 s for the bench's 100 messages against 18 s with this rule, which
 * recovered as many (100; 92 and 59 at 120 and 80 letters, within the
 * noise of a time limit of the 93 to 94 and 57 to 59 without it). */
#define NEAR_SDS 5.0

/* The score (table units, over the n - 3 windows of n letters) at or above
 * which the best reading is taken for English (sds = ENGLISH_SDS: the
 * crack stops) or nearly so (NEAR_SDS). */
static int32_t english_bar(const sb_pfquad *q, size_t n, double sds)
{
    double windows = (double)(n - 3), bar = q->mean - sds * q->sd / sqrt(windows);
    return (int32_t)ceil((bar - q->floor_) * q->scale * windows);
}

void pf_anneal_bars(const sb_pfquad *q, size_t n, double *bar, double *near)
{
    *bar = english_bar(q, n, ENGLISH_SDS) / q->scale / (double)(n - 3) + q->floor_;
    *near = english_bar(q, n, NEAR_SDS) / q->scale / (double)(n - 3) + q->floor_;
}

typedef struct slot {
    uint8_t sq[25];
    int32_t score;
} slot;

typedef struct crew {
    const sb_pfquad *q;
    const sb_playfair_anneal_opts *o;
    const uint16_t *dec;
    const uint8_t *ct;
    size_t n;
    int vec;      /* walker_open's */
    pf_accept at; /* the walks' Metropolis test, one temperature */
    uint64_t first;  /* the round's first restart */
    int32_t bar;      /* english_bar */
    atomic_uint next; /* the next restart of the round to take */
    atomic_uint cut;  /* the round's first restart to reach the bar, or ANNEAL_ROUND */
    atomic_int stop;  /* the time limit or the caller's flag */
    atomic_ullong steps;
    slot res[ANNEAL_ROUND];
    double deadline;
    const sb_control *ctl;
} crew;

static void *crew_main(void *arg)
{
    crew *c = arg;
    walker w;
    unsigned k;
    uint64_t steps = 0;
    if (walker_open(&w, c->q, c->dec, c->ct, c->n, c->vec)) /* leave this thread's restarts to the others */
        return NULL;
    while ((k = atomic_fetch_add(&c->next, 1)) < ANNEAL_ROUND) {
        if (atomic_load(&c->stop))
            break;
        if (atomic_load(&c->cut) < k)
            continue;
        c->res[k].score = walk_one(&w, c->o->seed, c->first + k, c->o, &c->at, c->bar, k, &c->cut, c->res[k].sq,
                                   &c->stop, &steps);
    }
    atomic_fetch_add(&c->steps, steps);
    walker_close(&w);
    return NULL;
}

/* A watcher for the time limit and the caller's stop flag: polls every few
 * milliseconds while a round runs. */
typedef struct watch {
    crew *c;
    atomic_int done;
} watch;

static void *watch_main(void *arg)
{
    watch *wt = arg;
    struct timespec ts = {0, 2000000};
    while (!atomic_load(&wt->done)) {
        if ((wt->c->deadline > 0 && sb_now() >= wt->c->deadline) || sb_control_stopped(wt->c->ctl)) {
            atomic_store(&wt->c->stop, 1);
            break;
        }
        nanosleep(&ts, NULL);
    }
    return NULL;
}

int sb_playfair_anneal(const sb_pfquad *q, const char *cipher, const sb_playfair_anneal_opts *opts,
                       const sb_control *ctl, sb_playfair_anneal_result *res, char *plaintext, sb_error *err)
{
    return pf_anneal(q, cipher, opts, ctl, res, plaintext, 1, err);
}

int pf_anneal(const sb_pfquad *q, const char *cipher, const sb_playfair_anneal_opts *opts, const sb_control *ctl,
              sb_playfair_anneal_result *res, char *plaintext, int vec, sb_error *err)
{
    sb_playfair_anneal_opts o = opts ? *opts : (sb_playfair_anneal_opts){0};
    if (!q || !cipher || !res || !plaintext)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_playfair_anneal: %s is NULL",
                            !q ? "the table" : !cipher ? "cipher" : !res ? "res" : "plaintext");
    size_t len = strlen(cipher), n = 0;
    uint16_t enc[625], dec[625];
    uint8_t *ct, best[25];
    int32_t top = INT32_MIN, bar = 0, near = 0;
    unsigned found = 0, stale = 0, threads;
    pthread_t th[SB_PLAYFAIR_ANNEAL_MAXTHREADS];
    crew *c;
    double start = sb_now();
    int rc = 0;
    memset(res, 0, sizeof *res);
    plaintext[0] = 0;
    if (!q->lp)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "quadgram table not finished");
    if (!(ct = malloc(len + 1)))
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    for (size_t i = 0; i < len; i++) {
        int x = pf_index((unsigned char)cipher[i]);
        if (x >= 0)
            ct[n++] = (uint8_t)x;
    }
    if (n < 8 || n % 2) {
        free(ct);
        return sb_error_set(err, n % 2 ? SB_EINPUT : SB_ENOTFOUND, 0, 0,
                            n % 2 ? "odd number of letters (%zu): not a Playfair ciphertext"
                                  : "%zu letters: too short to anneal", n);
    }
    if (!(c = calloc(1, sizeof *c))) {
        free(ct);
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    pf_pair_tables(enc, dec);
    threads = o.threads < 1 ? 1 : o.threads > SB_PLAYFAIR_ANNEAL_MAXTHREADS ? SB_PLAYFAIR_ANNEAL_MAXTHREADS
                                                                          : (unsigned)o.threads;
    if (o.patience == 0)
        o.patience = ANNEAL_PATIENCE;
    c->q = q, c->o = &o, c->dec = dec, c->ct = ct, c->n = n, c->ctl = ctl, c->vec = vec;
    {
        walker w;
        int bad = walker_open(&w, q, dec, ct, n, vec) || pf_accept_init(&c->at, walk_temperature(&w, &o));
        walker_close(&w);
        if (bad) {
            free(c);
            free(ct);
            return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        }
    }
    c->deadline = o.time_limit > 0 ? start + o.time_limit : 0;
    c->bar = bar = english_bar(q, n, ENGLISH_SDS);
    near = english_bar(q, n, NEAR_SDS);
    atomic_init(&c->stop, 0);
    atomic_init(&c->steps, 0);
    for (uint64_t round = 0; !atomic_load(&c->stop); round++) {
        watch wt = {c, 0};
        pthread_t wth;
        unsigned started = 0, got = 0;
        int watching;
        if ((o.max_restarts && round * ANNEAL_ROUND >= o.max_restarts) || sb_control_stopped(ctl))
            break;
        c->first = round * ANNEAL_ROUND;
        atomic_store(&c->next, 0);
        atomic_store(&c->cut, ANNEAL_ROUND);
        for (unsigned k = 0; k < ANNEAL_ROUND; k++)
            c->res[k].score = INT32_MIN;
        atomic_init(&wt.done, 0);
        watching = (c->deadline > 0 || ctl) && pthread_create(&wth, NULL, watch_main, &wt) == 0;
        for (unsigned t = 1; t < threads; t++)
            if (pthread_create(&th[started], NULL, crew_main, c) == 0)
                started++;
        crew_main(c);
        for (unsigned t = 0; t < started; t++)
            pthread_join(th[t], NULL);
        if (watching) {
            atomic_store(&wt.done, 1);
            pthread_join(wth, NULL);
        }
        /* the round's restarts in order: a restart the stop cut short
         * still counts with what it found */
        for (unsigned k = 0; k < ANNEAL_ROUND; k++) {
            if (c->res[k].score == INT32_MIN || k > atomic_load(&c->cut))
                continue;
            res->restarts++, got++;
            if (c->res[k].score > top) {
                top = c->res[k].score, memcpy(best, c->res[k].sq, 25), found = 1, stale = 0;
            } else if (c->res[k].score == top) {
                found++, stale++;
            } else {
                stale++;
            }
        }
        if (top >= bar || (found >= 2 && top >= near) || stale >= o.patience)
            break;
        if (!got && !atomic_load(&c->stop)) {
            rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
            break;
        }
    }
    if (!rc && sb_control_stopped(ctl))
        rc = sb_error_set(err, SB_EINTR, 0, 0, "interrupted");
    if (top != INT32_MIN) {
        walker w;
        if (!walker_open(&w, q, dec, ct, n, 0)) {
            uint8_t pos[25];
            where(best, pos);
            decipher_at(&w, best, pos);
            for (size_t i = 0; i < n; i++)
                plaintext[i] = pf_alpha[w.pt[i]];
            plaintext[n] = 0;
        }
        walker_close(&w);
        for (int i = 0; i < 25; i++)
            res->square[i] = pf_alpha[best[i]];
        res->square[25] = 0;
        res->score = top / q->scale / (double)(n - 3) + q->floor_;
        res->found_twice = found >= 2;
    }
    res->steps = atomic_load(&c->steps);
    res->seconds = sb_now() - start;
    free(c->at.acc);
    free(c);
    free(ct);
    return rc;
}
