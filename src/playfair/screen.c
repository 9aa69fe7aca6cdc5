/* The screen: a cheap lower bound on the words of every matrix's reading,
 * computed for all matrices before the search (attack.c) so that the search
 * deciphers only the few matrices that the screen cannot refute.
 *
 * The bound.  Take the first L deciphered letters.  A window of
 * three consecutive letters that occurs inside no dictionary word (a "bad
 * trigram") must contain a word boundary of any reading: one of the two
 * boundaries inside it.  Windows holding an X that may be an inserted one
 * (second of a pair, between equal letters or the last letter looked at)
 * are skipped, since that X may vanish from the reading.  A reading of k words has k - 1 boundaries,
 * so k - 1 is at least the fewest boundaries that hit every bad window: the
 * windows ending at i and at i' > i share a boundary only if i' = i + 1, so
 * the greedy (take the first bad window's last boundary, skip the window
 * right after it, repeat) is optimal and counts ceil(r / 2) in each run of
 * r consecutive bad windows.  Example: bad windows ending at letters 4, 5,
 * 6 and 9 (mask ....111..1) need a boundary before letter 4 (it hits the
 * windows ending at 4 and 5), one before 6 and one before 9: three, so any
 * reading has at least four words.  A bad window whose first two letters
 * end no word, or whose last two begin none, forces the boundary between
 * them (forced(), below), which makes the count stronger.
 *
 * That count is branch-free on a bit mask M of the bad windows: the runs
 * starting at an even position are cleared by adding their first bits
 * (the carry runs through each run and stops in the zero after it), which
 * tells each run's parity; the greedy takes the positions of each run that
 * have its start's parity.
 *
 * Compared with the search's bound (windows of four, checked from each
 * piece's start) this one is weaker, about 15 pieces for 40 random
 * letters instead of 17.2, but its tables (the trigrams by classes of
 * the letters, 512 bytes, and the pairs that end and begin words) are
 * in the reach of byte permutes: with AVX-512 VBMI and BITALG four
 * matrices of 16 letters, or two of 32, are deciphered and screened in a
 * register with no gather: a permute of the matrices' records (letter ->
 * cell, cell -> letter) by the cipher letters, the Playfair rule on rows
 * and columns, a permute back, 4 two-register permutes for the trigrams'
 * bytes and a bit shuffle for their bits.
 *
 * The looks.  The first look at every matrix takes 16 letters when the
 * limit is small, else 32 (window 0, below); a first look at 32 goes on
 * window after window with sixteen matrices at a time while most of them
 * need it (group_on(), below), and with each of the others that needs
 * more alone (the look's tail), until its bound passes the limit.  A
 * matrix that joins the search later, and one whose first look read 16
 * letters of a longer text, gets the windows of 32 letters one after
 * another (from window 0 again in the second case) while its bound
 * allows.  A later look's bound is at least the earlier one's.  The
 * scalar version computes the same numbers, letter by letter, with the
 * same looks; the tests compare them. */
#include "pf_internal.h"

#include <string.h>

void pf_screen_record(const uint8_t cell[25], uint8_t rec[64])
{
    memset(rec, 0, 64);
    for (int c = 0; c < 25; c++) {
        unsigned p = (unsigned)(c / 5) << 3 | (unsigned)(c % 5);
        rec[cell[c]] = (uint8_t)p;
        rec[PF_REC_CELL + p] = cell[c];
    }
}

/* The letters' classes (pf_internal.h), chosen greedily to keep the most
 * boundaries in random letters by the system list's trigrams.  As first
 * letter: AEO BH CT M FV DG IU KP LR N Q S W X Y Z; as second: AEO BP C DG
 * FM H I KZ LR N QV S T U WX Y; as third: AEIO BP C DT FW GV H K L MN QX R
 * S U Y Z. */
const uint8_t pf_tri_code[25] = {0x00, 0x11, 0x22, 0x53, 0x00, 0x44, 0x55, 0x16, 0x60, 0x77, 0x88, 0x39, 0x99,
                                 0x00, 0x71, 0xaa, 0x8b, 0xbc, 0x23, 0x6d, 0x45, 0xc4, 0xda, 0xee, 0xff};
const uint8_t pf_tri_ycode[25] = {0, 1, 2, 3, 0, 4, 3, 5, 6, 7, 8, 4, 9, 0, 1, 10, 8, 11, 12, 13, 10, 14, 14, 15, 7};

static void setbit(uint8_t *t, unsigned b)
{
    t[b >> 3] |= (uint8_t)(1u << (b & 7));
}

void pf_screen_addword(uint8_t tri[PF_TRI_BYTES], const uint8_t *w, size_t len)
{
    for (size_t j = 0; j + 2 < len; j++)
        setbit(tri, PF_TRI_BIT(w[j], w[j + 1], w[j + 2]));
    if (len >= 2) {
        setbit(tri, PF_BI_END * 8u + 32u * w[len - 2] + w[len - 1]);
        setbit(tri, PF_BI_BEGIN * 8u + 32u * w[0] + w[1]);
    }
}

static inline int ends_word(const uint8_t *tri, unsigned x, unsigned y)
{
    unsigned b = 32u * x + y;
    return tri[PF_BI_END + (b >> 3)] >> (b & 7) & 1;
}

static inline int begins_word(const uint8_t *tri, unsigned x, unsigned y)
{
    unsigned b = 32u * x + y;
    return tri[PF_BI_BEGIN + (b >> 3)] >> (b & 7) & 1;
}

static inline int tri_has(const uint8_t *tri, unsigned x, unsigned y, unsigned z)
{
    unsigned b = PF_TRI_BIT(x, y, z);
    return tri[b >> 3] >> (b & 7) & 1;
}

/* The greedy hitting count of the bad windows in M. */
static inline unsigned mask_bound(uint64_t m)
{
    const uint64_t even = 0x5555555555555555u;
    uint64_t start = m & ~(m << 1);
    uint64_t odd = (m + (start & even)) & m; /* runs starting at odd bits */
    uint64_t pick = ((m & ~odd) & even) | (odd & ~even);
    return (unsigned)__builtin_popcountll(pick);
}

/* Forced boundaries.  Bit i of a mask of boundaries stands for the one
 * before letter i, so the window ending at letter i (bit i of M, letters
 * i - 2, i - 1, i) is hit by boundaries i - 1 and i.  With NE the letters i
 * whose pair i - 1, i ends no word, a bad window at i whose first two
 * letters end no word needs boundary i - 1 (with only boundary i, a word
 * would end with them); with NB those whose pair i - 1, i begins no word,
 * a bad window at i whose last two letters begin no word needs boundary i
 * (with only boundary i - 1, a word would begin with them): F below.
 * Those are boundaries of every reading, and the windows F does not hit
 * need boundaries of their own, which the greedy counts; so the least
 * count is |F| + mask_bound(M less the windows F hits).  Example: bad
 * windows at 4 and 5 (mask ....11), where the greedy alone places one
 * boundary, before letter 4.  If the pair of letters 2, 3 ends no word,
 * the window at 4 needs boundary 3, which does not hit the window at 5:
 * two boundaries.  Random letters need 10.7 boundaries in 32 this way by
 * the screen's table (pf_internal.h; by the trigrams themselves 13.1,
 * 12.1 with the pairs that end no word alone, 10.2 with no forced
 * boundary, for the system list).  A mask holding two or four matrices'
 * letters is read the same way: the first two letters of each have no
 * window, so no bit crosses from one matrix into another. */
static inline uint64_t forced(uint64_t m, uint64_t ne, uint64_t nb)
{
    return ((m >> 1) & ne) | (m & nb);
}

static inline uint64_t unforced(uint64_t m, uint64_t f)
{
    return m & ~(f | f << 1);
}

/* A window's count from the bad windows no forced boundary hits (m) and
 * the forced boundaries (f). */
static inline unsigned win_count(uint64_t m, uint64_t f)
{
    return (unsigned)__builtin_popcountll(f) + mask_bound(m);
}

/* The letters not yet read.  A word covers at most `span` letters of the
 * deciphered text (its own and the X's between its doubled letters), and
 * one X may stand between two words, so a stretch of r letters that ends
 * the text holds at least r / (span + 1) word starts, rounded down: the
 * word already open at the stretch's first letter covers at most span - 1
 * of them, each word starting inside at most span, and an X between words
 * stands before one of those starts or last, so r <= (span - 1) + m span +
 * m + 1 for m starts.  Those starts lie after every boundary the windows
 * place, between their own letters, so they add to the windows' counts: a
 * wrong matrix no longer has to make up the whole limit from its windows.
 * (That is why a look takes an X in its last place as a filler that may
 * vanish, whatever follows: were it taken as a letter and were it a filler
 * between two words, its bad trigram would stand for the word after it,
 * which the rest counts too; and were it a filler inside a word, FGH X HI,
 * for no boundary at all.)  With the system list (span 23:
 * COUNTERREVOLUTIONARIES and the X between its RR) the 276 letters of a
 * 40-word message after its first two windows hold 11 words at least. */
unsigned pf_screen_rest(const pf_screen *s, size_t read)
{
    return read < s->n ? (unsigned)((s->n - read) / (s->span + 1)) : 0;
}

/* Bounds are kept in a byte, 255 standing for 255 or more, and a matrix
 * is kept or not by that byte, as in lower[]: one screened out at 255 then
 * joins when the limit reaches 255. */
static inline void keep(const pf_screen *s, uint32_t i, unsigned b, unsigned seen, size_t *nalive,
                        unsigned *minout)
{
    b = b > 255 ? 255 : b;
    s->lower[i] = (uint8_t)b;
    s->seen[i] = (uint8_t)seen;
    if (b <= s->g)
        s->alive[(*nalive)++] = i;
    else if (b < *minout)
        *minout = b;
}

/* The boundaries that the L letters from `off` of matrix r's reading
 * need, with the forced ones (force) or not. */
static unsigned hits_scalar_at(const pf_screen *s, const uint8_t *r, size_t off, size_t L, int force)
{
    uint8_t t[64];
    const uint8_t *ct = s->ct + off;
    uint64_t m = 0, rm = 0, ne = 0, nb = 0, f;
    for (size_t k = 0; k < L; k += 2) {
        unsigned p = r[ct[k]], q = r[ct[k + 1]], x = p ^ q, o;
        if (!(x & 0x38))
            o = (p & 0x38) | (p & 7 ? (p & 7) - 1 : 4); /* same row: left */
        else if (!(x & 7))
            o = (p & 0x38 ? (p & 0x38) - 8 : 0x20) | (p & 7); /* same column: up */
        else
            o = (p & 0x38) | (q & 7);
        t[k] = r[PF_REC_CELL + o];
        if (!(x & 0x38))
            o = (q & 0x38) | (q & 7 ? (q & 7) - 1 : 4);
        else if (!(x & 7))
            o = (q & 0x38 ? (q & 0x38) - 8 : 0x20) | (q & 7);
        else
            o = (q & 0x38) | (p & 7);
        t[k + 1] = r[PF_REC_CELL + o];
    }
    for (size_t k = 1; k < L; k += 2) /* the letter after the last is not known here */
        if (t[k] == PF_X && (k + 1 == L || t[k + 1] == t[k - 1]))
            rm |= 1ull << k;
    rm |= rm << 1 | rm << 2;
    for (size_t k = 2; k < L; k++)
        if (!(rm >> k & 1) && !tri_has(s->tri, t[k - 2], t[k - 1], t[k]))
            m |= 1ull << k;
    for (size_t k = 1; force && k < L; k++)
        ne |= (uint64_t)!ends_word(s->tri, t[k - 1], t[k]) << k,
        nb |= (uint64_t)!begins_word(s->tri, t[k - 1], t[k]) << k;
    f = forced(m, ne, nb);
    return win_count(unforced(m, f), f);
}

/* The windows after the first.  Every pair deciphers on its own, so the
 * bad trigrams of the letters 32..63, 64..95, ... are found the same way,
 * each window alone; a boundary that hits a window's bad trigrams lies
 * between two of its letters, so the hitting counts of disjoint windows
 * add up: k - 1 >= h0 + h1 + ...  A long message is refuted after as many
 * windows as its limit needs, not after the whole text.  Example: a limit
 * of 40 words for a 340-letter text; a wrong matrix's random letters hit
 * about 12 boundaries in each 32 letters, so three or four windows (with
 * the rest, below) refute it and the other letters are never
 * deciphered.
 *
 * Windows of 32 letters rather than 64: a matrix needs as many letters as
 * its limit asks for, about three a word, and a limit of 24 words is met
 * after three windows of 32 (96 letters) where it took two of 64 (128).
 * Two matrices share a register, as in the first look, and since every
 * window is added to what came before, a matrix's bound and the windows
 * it covers (seen[]) are kept between looks: when the limit rises to its
 * bound it goes on from the next window instead of starting again. */
static unsigned windows(const pf_screen *s)
{
    size_t w = (s->n + PF_WIN - 1) / PF_WIN;
    return (unsigned)(w < PF_WINS ? w : PF_WINS);
}

/* Window j's hitting count for the matrix of record r. */
static unsigned win_scalar(const pf_screen *s, const uint8_t *r, unsigned j)
{
    size_t off = PF_WIN * (size_t)j, L = s->n - off < PF_WIN ? s->n - off : PF_WIN;
    return hits_scalar_at(s, r, off, L, 1);
}

/* Letters the first look takes: 16 when the limit is small enough for 16
 * letters to refute nearly every matrix (at most three words: 96% of
 * random 16-letter texts need more), else 32 (window 0). */
static unsigned first_lanes(const pf_screen *s)
{
    return s->g <= 3 || s->n <= 16 ? 16 : 32;
}

/* Windows a first look at 16 letters covers: window 0 when it read the
 * whole text, else none (the next look redoes it).  A first look at 32
 * covers the windows it reads (group_on). */
static unsigned first16_seen(const pf_screen *s)
{
    return s->n <= 16;
}

/* A full first look at 32 letters goes on window after window with
 * sixteen matrices at a time (the vector screen's registers hold them):
 * all sixteen take the next window when at least PF_GROUP_ON of them need
 * it (pf_internal.h) and the text has one. */
static int group_on(const pf_screen *s, unsigned j, unsigned need)
{
    return j < windows(s) && need >= PF_GROUP_ON;
}

/* Matrix i's bound from its windows alone, 1 + their counts, before its
 * next window (1: no window yet; lower[] holds that plus rest[seen]), and
 * whether it needs that window: its bound is at most the limit and the
 * text has more windows. */
static inline unsigned base_bound(const pf_screen *s, uint32_t i)
{
    return s->seen[i] ? s->lower[i] - s->rest[s->seen[i]] : 1;
}

static inline int needs_more(const pf_screen *s, uint32_t i)
{
    /* both tests, and no branch: more_block's rounds go on with about half
     * of their matrices, at random */
    return (int)((unsigned)(s->seen[i] < windows(s)) & (unsigned)((s->seen[i] ? s->lower[i] : 1u) <= s->g));
}

/* Window j added to matrix i's bound (its count h). */
static inline void add_window(const pf_screen *s, uint32_t i, unsigned j, unsigned h)
{
    unsigned b = base_bound(s, i) + h + s->rest[j + 1];
    s->lower[i] = (uint8_t)(b > 255 ? 255 : b);
    s->seen[i] = (uint8_t)(j + 1);
}

/* The kept ones of alive[0..nalive-1], in order, after their looks. */
static size_t settle(const pf_screen *s, size_t nalive, unsigned *minout)
{
    size_t keep = 0;
    for (size_t j = 0; j < nalive; j++) {
        uint32_t i = s->alive[j];
        unsigned b = s->lower[i];
        if (b <= s->g)
            s->alive[keep++] = i;
        else if (b < *minout)
            *minout = b;
    }
    return keep;
}

static size_t more_scalar(const pf_screen *s, size_t nalive, unsigned *minout)
{
    for (size_t j = 0; j < nalive; j++) {
        uint32_t i = s->alive[j];
        while (needs_more(s, i))
            add_window(s, i, s->seen[i], win_scalar(s, s->rec + 64 * (size_t)i, s->seen[i]));
    }
    return settle(s, nalive, minout);
}

/* A full first look at 32 letters: window after window, sixteen matrices
 * at a time (group_on). */
static size_t first_groups_scalar(const pf_screen *s, unsigned *minout)
{
    size_t nalive = 0;
    for (size_t i = 0; i < s->nmat; i += 16) {
        size_t n16 = s->nmat - i < 16 ? s->nmat - i : 16;
        unsigned h[16] = {0}, j = 0, need;
        do {
            need = 0;
            for (size_t q = 0; q < n16; q++) {
                h[q] += win_scalar(s, s->rec + 64 * (i + q), j);
                need += 1 + h[q] + s->rest[j + 1] <= s->g;
            }
        } while (group_on(s, ++j, need));
        for (size_t q = 0; q < n16; q++)
            keep(s, (uint32_t)(i + q), 1 + h[q] + s->rest[j], j, &nalive, minout);
    }
    return nalive;
}

/* The scalar screen: the reference for the vector one. */
static size_t screen_scalar(const pf_screen *s, unsigned *minout)
{
    size_t nalive = 0;
    *minout = ~0u;
    if (first_lanes(s) == PF_WIN) {
        nalive = first_groups_scalar(s, minout);
    } else { /* forced boundaries when the look counts for good (seen) */
        size_t L = s->n < 16 ? s->n : 16;
        unsigned seen = first16_seen(s), add = 1 + pf_screen_rest(s, L);
        for (size_t i = 0; i < s->nmat; i++)
            keep(s, (uint32_t)i, add + hits_scalar_at(s, s->rec + 64 * i, 0, L, seen), seen, &nalive, minout);
    }
    return more_scalar(s, nalive, minout);
}

#ifdef PF_X86

/* What the vector screen keeps in registers for one number of lanes per
 * matrix (16, 32 or 64): the cipher letters arranged for the lanes (cti:
 * the letter, plus 64 in the odd matrices' lanes, whose records are the
 * second table of a two-register permute), lane shifts within a matrix's
 * lanes, the Playfair rule's tables, the trigram table (T: 8 registers,
 * four blocks of two), masks of lanes. */
typedef struct vwin {
    __m512i cti;
    uint64_t valid3, oddx, last;
} vwin;

typedef struct vk {
    vwin w; /* the letters of the first window */
    __m512i off, sh1, sh2, swap, dec, cas, code, ycode, lpos;
    /* the tables with their bits the other way round, as a bit shuffle
     * reads them: a trigram found in no word, a pair that ends no word,
     * begins no word */
    __m512i T[8];
    __m512i E[2], B[2];
} vk;

_Static_assert(2 * sizeof(vk) + PF_WINS * sizeof(vwin) + 64 <= PF_SCREEN_WORK,
               "room for two lane widths and the windows");

/* The letters from off (at most 64) in a window of `lanes` letters a matrix. */
PF_AVX512 static void vwin_init(vwin *w, const pf_screen *s, unsigned lanes, size_t off)
{
    size_t L = s->n - off < lanes ? s->n - off : lanes;
    uint8_t b[64];
    w->valid3 = w->oddx = w->last = 0;
    for (unsigned i = 0; i < 64; i++) {
        unsigned l = i & (lanes - 1), h = lanes < 64 && (i / lanes) % 2;
        b[i] = (uint8_t)((l < L ? s->ct[off + l] : 0) + 64 * h);
        if (l >= 2 && l < L)
            w->valid3 |= 1ull << i;
        if ((l & 1) && l < L)
            w->oddx |= 1ull << i;
        if (l + 1 == L)
            w->last |= 1ull << i;
    }
    w->cti = _mm512_loadu_si512(b);
}

PF_AVX512 static inline __m512i not_loaded(const uint8_t *b)
{
    return _mm512_xor_si512(_mm512_loadu_si512(b), _mm512_set1_epi8(-1));
}

PF_AVX512 static void vk_init(vk *k, const pf_screen *s, unsigned lanes)
{
    uint8_t b[9][64];
    memset(b, 0, sizeof b);
    vwin_init(&k->w, s, lanes, 0);
    for (unsigned i = 0; i < 64; i++) {
        unsigned l = i & (lanes - 1), h = lanes < 64 && (i / lanes) % 2;
        b[0][i] = (uint8_t)(PF_REC_CELL + 64 * h);
        b[1][i] = (uint8_t)(l >= 1 ? i - 1 : i);
        b[2][i] = (uint8_t)(l >= 2 ? i - 2 : i);
        b[3][i] = (uint8_t)((i & 15) ^ 1);
        /* i as the xor of a pair's cells: the bits of the cell that the
         * rule takes from dec (the row's for the same column, the
         * column's for the same row, and for both, an XX pair, the row's
         * rule) */
        b[5][i] = (uint8_t)(!(i & 0x38) ? 0x07 : !(i & 7) ? 0x38 : 0);
        b[8][i] = (uint8_t)((i & 7) << 3); /* a byte's first bit in its 64-bit lane */
    }
    for (unsigned r = 0; r < 5; r++) /* the cell up and to the left */
        for (unsigned c = 0; c < 5; c++)
            b[4][r << 3 | c] = (uint8_t)((r + 4) % 5 << 3 | (c + 4) % 5);
    memcpy(b[6], pf_tri_code, 25), memcpy(b[7], pf_tri_ycode, 25);
    k->off = _mm512_loadu_si512(b[0]);
    k->sh1 = _mm512_loadu_si512(b[1]), k->sh2 = _mm512_loadu_si512(b[2]);
    k->swap = _mm512_loadu_si512(b[3]);
    k->dec = _mm512_loadu_si512(b[4]), k->cas = _mm512_loadu_si512(b[5]);
    k->code = _mm512_loadu_si512(b[6]), k->ycode = _mm512_loadu_si512(b[7]);
    k->lpos = _mm512_loadu_si512(b[8]);
    for (int j = 0; j < 8; j++)
        k->T[j] = not_loaded(s->tri + 64 * j);
    for (int j = 0; j < 2; j++)
        k->E[j] = not_loaded(s->tri + PF_BI_END + 64 * j),
        k->B[j] = not_loaded(s->tri + PF_BI_BEGIN + 64 * j);
}

/* Look records up by lane: lanes 0..31 in r0 (index < 64) or r1, lanes
 * 32..63 in r2 or r3. */
PF_AVX512 static inline __attribute__((always_inline)) __m512i look(__m512i idx, __m512i r0, __m512i r1, __m512i r2,
                                                                   __m512i r3, int quad)
{
    __m512i a = _mm512_permutex2var_epi8(r0, idx, r1);
    if (!quad)
        return a;
    return _mm512_mask_mov_epi8(a, 0xffffffff00000000ull, _mm512_permutex2var_epi8(r2, idx, r3));
}

/* The first half of bad_win: the deciphered letters' trigrams as the
 * table's byte index w (block number in bits of the letters' codes e2 and
 * e), the bit's place in the byte's 64-bit lane (bits: the bit shuffle's
 * index) and the lanes that count; with force, the letters whose pair
 * with the one before ends no word (ne), begins no word (nb). */
typedef struct vtri {
    __m512i w, e, e2, bits;
    uint64_t valid, ne, nb;
} vtri;

/* A look's bad windows that no forced boundary hits (m), and the forced
 * boundaries (f): see forced(). */
typedef struct vmask {
    uint64_t m, f;
} vmask;

static inline vmask vmask_of(uint64_t m, uint64_t ne, uint64_t nb)
{
    uint64_t f = forced(m, ne, nb);
    return (vmask){unforced(m, f), f};
}

PF_AVX512 static inline __attribute__((always_inline)) vtri tri_index(const vk *k, const vwin *vw, __m512i r0,
                                                                     __m512i r1, __m512i r2, __m512i r3, int quad,
                                                                     int force)
{
    const __m512i c38 = _mm512_set1_epi8(0x38), c07 = _mm512_set1_epi8(7), cx = _mm512_set1_epi8(PF_X);
    vtri o3;
    /* cells of the cipher letters, their partners, the rule: the row of p
     * and the column of q, with the bits that cas picks (by the pair's
     * rows and columns) from the cell up and to the left of p instead */
    __m512i p = look(vw->cti, r0, r1, r2, r3, quad);
    __m512i q = _mm512_shuffle_epi8(p, k->swap);
    __m512i m = _mm512_permutexvar_epi8(_mm512_xor_si512(p, q), k->cas);
    __m512i o = _mm512_ternarylogic_epi32(m, _mm512_permutexvar_epi8(p, k->dec),
                                          _mm512_ternarylogic_epi32(c38, p, q, 0xca), 0xca);
    __m512i t = look(_mm512_add_epi8(o, k->off), r0, r1, r2, r3, quad);
    /* removable X's: odd, X, and last or between equal letters */
    __m512i t1 = _mm512_permutexvar_epi8(k->sh1, t), t2 = _mm512_permutexvar_epi8(k->sh2, t);
    __mmask64 rx = _mm512_mask_cmpeq_epi8_mask(vw->oddx, t, cx);
    rx &= _mm512_cmpeq_epi8_mask(t, t2) >> 1 | vw->last; /* letter i + 1 is letter i - 1 */
    rx |= rx << 1 | rx << 2;
    /* trigram (t2, t1, t), codes e2, b and e: byte b + 16 (a % 8) (a % 8
     * is e2's bits 4-6; bit 7 ignored) of block a / 8 + 2 (c / 8) (e2's
     * bit 7, e's bit 3), bit c % 8 */
    o3.e = _mm512_permutexvar_epi8(t, k->code), o3.e2 = _mm512_permutexvar_epi8(t2, k->code);
    o3.w = _mm512_ternarylogic_epi32(_mm512_permutexvar_epi8(t1, k->ycode), o3.e2, _mm512_set1_epi8(0x70), 0xf8);
    o3.bits = _mm512_ternarylogic_epi32(o3.e, c07, k->lpos, 0xea);
    o3.valid = vw->valid3 & ~(uint64_t)rx;
    /* pair (t1, t): bit 32 t1 + t, byte 4 t1 + t / 8 (the 16-bit shift
     * brings bits of the next byte down: masked off) */
    o3.ne = o3.nb = 0;
    if (force) {
        __m512i b = _mm512_ternarylogic_epi32(_mm512_slli_epi16(t1, 2), _mm512_srli_epi16(t, 3),
                                              _mm512_set1_epi8(3), 0xf8);
        __m512i bit = _mm512_ternarylogic_epi32(t, c07, k->lpos, 0xea);
        o3.ne = _mm512_bitshuffle_epi64_mask(_mm512_permutex2var_epi8(k->E[0], b, k->E[1]), bit);
        o3.nb = _mm512_bitshuffle_epi64_mask(_mm512_permutex2var_epi8(k->B[0], b, k->B[1]), bit);
    }
    return o3;
}

/* The table's byte for each lane of a (index a->w, block number in e2's
 * bit 7 and e's bit 3): the four blocks' bytes, then two levels of blends
 * (a chain of masked permutes would wait on each other).  The table stays
 * in memory: it does not fit in registers beside the work. */
PF_AVX512 static inline __attribute__((always_inline)) __m512i tri_bytes(const __m512i *T, const vtri *a)
{
    __mmask64 h0 = _mm512_test_epi8_mask(a->e2, _mm512_set1_epi8((char)0x80)),
              h1 = _mm512_test_epi8_mask(a->e, _mm512_set1_epi8(8));
    __m512i p[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++)
        p[j] = _mm512_permutex2var_epi8(_mm512_load_si512(&T[2 * j]), a->w, _mm512_load_si512(&T[2 * j + 1]));
    p[0] = _mm512_mask_mov_epi8(p[0], h0, p[1]), p[2] = _mm512_mask_mov_epi8(p[2], h0, p[3]);
    return _mm512_mask_mov_epi8(p[0], h1, p[2]);
}

/* The bad windows of the matrices of records r0..r3 (r2, r3 only when
 * quad: four matrices of 16 lanes): those that no forced boundary hits,
 * and the forced boundaries (with force). */
PF_AVX512 static inline __attribute__((always_inline)) vmask bad_win(const vk *k, const vwin *vw, __m512i r0,
                                                                    __m512i r1, __m512i r2, __m512i r3, int quad,
                                                                    int force)
{
    vtri a = tri_index(k, vw, r0, r1, r2, r3, quad, force);
    return vmask_of(_mm512_mask_bitshuffle_epi64_mask(a.valid, tri_bytes(k->T, &a), a.bits), a.ne, a.nb);
}

/* Two registers of two matrices each (records ra0, ra1 and rb0, rb1) at
 * window vw, with the forced boundaries (m, f: as bad_win gives them, two
 * registers): the two chains side by side (12% less time than one after
 * the other). */
PF_AVX512 static inline __attribute__((always_inline)) void bad_two(const vk *k, const vwin *vw, __m512i ra0,
                                                                   __m512i ra1, __m512i rb0, __m512i rb1, uint64_t *m,
                                                                   uint64_t *f)
{
    vtri a = tri_index(k, vw, ra0, ra1, ra0, ra1, 0, 1), b = tri_index(k, vw, rb0, rb1, rb0, rb1, 0, 1);
    vmask va = vmask_of(_mm512_mask_bitshuffle_epi64_mask(a.valid, tri_bytes(k->T, &a), a.bits), a.ne, a.nb),
          vb = vmask_of(_mm512_mask_bitshuffle_epi64_mask(b.valid, tri_bytes(k->T, &b), b.bits), b.ne, b.nb);
    m[0] = va.m, f[0] = va.f, m[1] = vb.m, f[1] = vb.f;
}

/* win_count of sixteen matrices, one per 32-bit lane of m (bad windows
 * that no forced boundary hits) and of f (the forced boundaries). */
PF_AVX512 static inline __attribute__((always_inline)) __m512i hits16(__m512i m, __m512i f)
{
    const __m512i even = _mm512_set1_epi32(0x55555555);
    __m512i start = _mm512_andnot_si512(_mm512_slli_epi32(m, 1), m);
    __m512i odd = _mm512_and_si512(_mm512_add_epi32(m, _mm512_and_si512(start, even)), m);
    __m512i pick = _mm512_ternarylogic_epi32(even, _mm512_andnot_si512(odd, m), odd, 0xca);
    return _mm512_add_epi32(_mm512_popcnt_epi32(pick), _mm512_popcnt_epi32(f));
}

/* The first sixteen of `left` lanes. */
static inline __mmask16 lanes16(size_t left)
{
    return left >= 16 ? 0xffff : (__mmask16)((1u << left) - 1);
}

/* The matrices base.. that are there, of sixteen. */
static inline __mmask16 valid16(const pf_screen *s, size_t base)
{
    return lanes16(s->nmat - base);
}

/* The numbers base .. base + 15, one per 32-bit lane. */
PF_AVX512 static inline __attribute__((always_inline)) __m512i ids16(size_t base)
{
    return _mm512_add_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                            _mm512_set1_epi32((int)base));
}

/* The bad windows (m) and forced boundaries (f) of window vw of the
 * sixteen matrices numbered id[0..15], two a register. */
PF_AVX512 static inline __attribute__((always_inline)) void bad16(const pf_screen *s, const vk *k, const vwin *vw,
                                                                 const uint32_t *id, uint64_t *m, uint64_t *f)
{
    for (int q = 0; q < 16; q += 4)
        bad_two(k, vw, _mm512_load_si512(s->rec + 64 * (size_t)id[q]),
                _mm512_load_si512(s->rec + 64 * (size_t)id[q + 1]), _mm512_load_si512(s->rec + 64 * (size_t)id[q + 2]),
                _mm512_load_si512(s->rec + 64 * (size_t)id[q + 3]), m + q / 2, f + q / 2);
}

/* The kept ones among sixteen matrices' bounds b (base.., one per 32-bit
 * lane, at most 255): their numbers into alive, the least bound of the
 * others into vmin. */
PF_AVX512 static inline __attribute__((always_inline)) size_t keep16(const pf_screen *s, __m512i b, size_t base,
                                                                    size_t nalive, __m512i *vmin)
{
    __mmask16 valid = valid16(s, base);
    __mmask16 kept = _mm512_mask_cmple_epu32_mask(valid, b, _mm512_set1_epi32((int)s->g));
    *vmin = _mm512_mask_min_epu32(*vmin, valid & (__mmask16)~kept, *vmin, b);
    if (kept) {
        _mm512_storeu_si512(s->alive + nalive, _mm512_maskz_compress_epi32(kept, ids16(base)));
        nalive += (size_t)__builtin_popcount(kept);
    }
    return nalive;
}

/* Sixteen matrices' counts h, one per 32-bit lane: their bounds (add: 1
 * and the rest of the text after the look) into lower[], returned as
 * lower[] holds them. */
PF_AVX512 static inline __attribute__((always_inline)) __m512i store16(const pf_screen *s, __m512i h, size_t base,
                                                                      unsigned seen, unsigned add)
{
    __m512i b = _mm512_min_epu32(_mm512_add_epi32(h, _mm512_set1_epi32((int)add)), _mm512_set1_epi32(255));
    __mmask16 valid = valid16(s, base);
    _mm512_mask_cvtusepi32_storeu_epi8(s->lower + base, valid, b);
    _mm512_mask_storeu_epi8(s->seen + base, (__mmask64)valid, _mm512_set1_epi8((char)seen));
    return b;
}

static const vk *work_vk(const pf_screen *s, unsigned lanes)
{
    const vk *k = (const vk *)(((uintptr_t)s->work + 63) & ~(uintptr_t)63);
    return k + (lanes == 16 ? 0 : 1);
}

/* The windows of PF_WIN letters, two matrices a register. */
static const vwin *work_win(const pf_screen *s)
{
    return (const vwin *)(work_vk(s, 32) + 1);
}

/* The first look at 16 letters, four matrices a register; with the
 * forced boundaries when it reads the whole text (so that no look redoes
 * it), as every window counted for good does. */
PF_AVX512 static inline __attribute__((always_inline)) size_t first16(const pf_screen *s, const vk *k, unsigned seen,
                                                                     unsigned add, __m512i *vmin, int force)
{
    uint64_t mk[4], fk[4];
    const uint8_t *rec = s->rec;
    size_t nalive = 0;
    for (size_t i = 0; i < s->nmat; i += 16) {
        for (int h = 0; h < 4; h++, rec += 256) {
            vmask v = bad_win(k, &k->w, _mm512_load_si512(rec), _mm512_load_si512(rec + 64),
                              _mm512_load_si512(rec + 128), _mm512_load_si512(rec + 192), 1, force);
            mk[h] = v.m, fk[h] = v.f;
        }
        __m512i h = hits16(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)mk)),
                           _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)fk)));
        nalive = keep16(s, store16(s, h, i, seen, add), i, nalive, vmin);
    }
    return nalive;
}

/* Matrices a look goes on with at a time: their numbers fit on the stack. */
#define BLOCK 1024

/* A full first look at 32 letters of the matrices c0 .. c0 + BLOCK - 1
 * (or to the last), with its tallies: window after window while group_on,
 * in rounds.  Round j takes window j of each group of sixteen that needs
 * it, the groups' counts so far kept in memory, and lists the groups that
 * go on to round j + 1.  The windows read are those of taking each group's
 * windows one after the other, but that order had the next window wait
 * behind a branch on the last one's result, which the CPU often guessed
 * wrong, throwing away the work it had begun.  When a group stops, its
 * matrices that still need more join a tail, which round j + 1 takes
 * sixteen at a time (their numbers and counts in a list), so that they go
 * on as the later looks would take them (more_block), without fetching
 * their bounds back or sorting them. */
PF_AVX512 static size_t first_rounds(const pf_screen *s, const vk *k, size_t c0, size_t nalive, __m512i *vmin)
{
    const __m512i vg = _mm512_set1_epi32((int)s->g), cap = _mm512_set1_epi32(255);
    const vwin *win = work_win(s);
    const unsigned W = windows(s);
    const size_t cnt = s->nmat - c0 < BLOCK ? s->nmat - c0 : BLOCK, ng = (cnt + 15) / 16;
    uint16_t list[BLOCK / 16];
    uint8_t gseen[BLOCK / 16];
    __m512i hh[BLOCK / 16];
    /* the tail: numbers and counts, this round's and the next's; those
     * done, with their bounds (seen above bit 8).  A count goes on as the
     * later looks take it back from lower[] (more_scalar): its bound taken
     * at most 255, less the rest, which may be less than the count itself
     * once the bound passes 255 (the limit then is 255 or more) */
    uint32_t tid[2][BLOCK + 16], th[2][BLOCK + 16], did[BLOCK + 16], db[BLOCK + 16];
    size_t nl = ng, nt = 0, nd = 0;
    for (size_t g = 0; g < ng; g++)
        list[g] = (uint16_t)g, hh[g] = _mm512_setzero_si512();
    for (unsigned j = 0; nl || nt; j++) {
        const __m512i lim = _mm512_set1_epi32(1 + s->rest[j + 1]);
        const __mmask16 more = j + 1 < W ? 0xffff : 0;
        const uint32_t *ti = tid[j & 1], *tc = th[j & 1];
        uint32_t *ni = tid[~j & 1], *nc = th[~j & 1];
        size_t nn = 0, nt2 = 0;
        for (size_t t = 0; t < nl; t++) {
            const size_t g = list[t], i = c0 + 16 * g;
            const uint8_t *rec = s->rec + 64 * i;
            uint64_t mk[8], fk[8];
            for (int q = 0; q < 8; q += 2)
                bad_two(k, win + j, _mm512_load_si512(rec + 128 * q), _mm512_load_si512(rec + 128 * q + 64),
                        _mm512_load_si512(rec + 128 * q + 128), _mm512_load_si512(rec + 128 * q + 192), mk + q,
                        fk + q);
            __m512i h = _mm512_add_epi32(hh[g], hits16(_mm512_loadu_si512(mk), _mm512_loadu_si512(fk)));
            __mmask16 need = _mm512_mask_cmple_epu32_mask(valid16(s, i), _mm512_add_epi32(h, lim), vg);
            int on = group_on(s, j + 1, (unsigned)__builtin_popcount(need));
            __mmask16 left = need & more & (__mmask16)(on - 1); /* no branch */
            __m512i hc = _mm512_sub_epi32(_mm512_min_epu32(_mm512_add_epi32(h, lim), cap), lim);
            hh[g] = h, gseen[g] = (uint8_t)(j + 1);
            list[nn] = (uint16_t)g, nn += (size_t)on;
            _mm512_storeu_si512(ni + nt2, _mm512_maskz_compress_epi32(left, ids16(i)));
            _mm512_storeu_si512(nc + nt2, _mm512_maskz_compress_epi32(left, hc));
            nt2 += (size_t)__builtin_popcount(left);
        }
        for (size_t t = 0; t < nt; t += 16) { /* the tail, at window j (ti padded with its first) */
            const uint32_t *d = ti + t;
            uint64_t mk[8], fk[8];
            bad16(s, k, win + j, d, mk, fk);
            __mmask16 valid = lanes16(nt - t);
            __m512i ids = _mm512_loadu_si512(d);
            __m512i h =
                _mm512_add_epi32(_mm512_loadu_si512(tc + t), hits16(_mm512_loadu_si512(mk), _mm512_loadu_si512(fk)));
            __m512i b = _mm512_min_epu32(_mm512_add_epi32(h, lim), cap); /* as lower[] holds it */
            __mmask16 on = _mm512_mask_cmple_epu32_mask(valid & more, b, vg), stop = valid & (__mmask16)~on;
            _mm512_storeu_si512(did + nd, _mm512_maskz_compress_epi32(stop, ids));
            _mm512_storeu_si512(db + nd, _mm512_maskz_compress_epi32(
                                             stop, _mm512_or_si512(b, _mm512_set1_epi32((int)(j + 1) << 8))));
            nd += (size_t)__builtin_popcount(stop);
            _mm512_storeu_si512(ni + nt2, _mm512_maskz_compress_epi32(on, ids));
            _mm512_storeu_si512(nc + nt2, _mm512_maskz_compress_epi32(on, _mm512_sub_epi32(b, lim)));
            nt2 += (size_t)__builtin_popcount(on);
        }
        for (size_t t = nt2; nt2 && t < nt2 + 16; t++)
            ni[t] = ni[0];
        nl = nn, nt = nt2;
    }
    for (size_t g = 0; g < ng; g++)
        store16(s, hh[g], c0 + 16 * g, gseen[g], 1 + s->rest[gseen[g]]);
    for (size_t t = 0; t < nd; t++)
        s->lower[did[t]] = (uint8_t)db[t], s->seen[did[t]] = (uint8_t)(db[t] >> 8);
    for (size_t i = c0; i < c0 + cnt; i += 16) {
        __m512i b = _mm512_maskz_loadu_epi8((__mmask64)valid16(s, i), s->lower + i);
        nalive = keep16(s, _mm512_cvtepu8_epi32(_mm512_castsi512_si128(b)), i, nalive, vmin);
    }
    return nalive;
}

/* The first look at every matrix: four matrices of 16 letters or two of 32
 * a register.  The records run 16 past the last matrix (zero, or the next
 * chunk's), so a register never reads past them, and the tallies count
 * only the matrices there (valid16).  A look that a later one redoes
 * (seen 0) counts no forced boundaries: they cost more than they save
 * there. */
PF_AVX512 static size_t first_avx512(const pf_screen *s, unsigned lanes, unsigned *minout)
{
    const vk kk = *work_vk(s, lanes), *k = &kk; /* in registers, if it can */
    size_t nalive = 0;
    __m512i vmin = _mm512_set1_epi32(-1);
    if (lanes == 16) {
        const unsigned seen = first16_seen(s), add = 1 + pf_screen_rest(s, s->n < 16 ? s->n : 16);
        nalive = seen ? first16(s, k, seen, add, &vmin, 1) : first16(s, k, seen, add, &vmin, 0);
    } else {
        for (size_t c0 = 0; c0 < s->nmat; c0 += BLOCK)
            nalive = first_rounds(s, k, c0, nalive, &vmin);
    }
    *minout = _mm512_reduce_min_epu32(vmin);
    return nalive;
}

/* Window j of matrices a and b, one in each half of a register (b may be
 * a again: its half is then ignored). */
PF_AVX512 static inline __attribute__((always_inline)) void window2(const pf_screen *s, const vk *k, const vwin *win,
                                                                   unsigned j, uint32_t a, uint32_t b, int both)
{
    __m512i r0 = _mm512_load_si512(s->rec + 64 * (size_t)a), r1 = _mm512_load_si512(s->rec + 64 * (size_t)b);
    vmask v = bad_win(k, win + j, r0, r1, r0, r1, 0, 1);
    add_window(s, a, j, win_count(v.m & 0xffffffffu, v.f & 0xffffffffu));
    if (both)
        add_window(s, b, j, win_count(v.m >> 32, v.f >> 32));
}

/* Window j of the sixteen matrices id[0..15], all at window j, as the first
 * look does them: two a register, the sixteen bounds added and stored
 * from one register.  fetch: the records
 * of the sixteen after the next sixteen are there to fetch ahead (a join's
 * matrices are spread over all the records).  Returns which of them need
 * window j + 1 (needs_more), from the register. */
PF_AVX512 static inline __attribute__((always_inline)) __mmask16 window16(const pf_screen *s, const vk *k,
                                                                         const vwin *win, unsigned j,
                                                                         const uint32_t *id, int fetch)
{
    uint64_t mk[8], fk[8];
    uint32_t base[16];
    uint8_t b8[16];
    __m512i b;
    if (fetch)
        for (int h = 32; h < 48; h++)
            _mm_prefetch((const char *)(s->rec + 64 * (size_t)id[h]), _MM_HINT_T0);
    bad16(s, k, win + j, id, mk, fk);
    for (int q = 0; q < 16; q++) /* all at window j: lower[] holds rest[j] */
        base[q] = j ? s->lower[id[q]] - s->rest[j] : 1;
    b = _mm512_add_epi32(_mm512_loadu_si512(base), hits16(_mm512_loadu_si512(mk), _mm512_loadu_si512(fk)));
    b = _mm512_add_epi32(b, _mm512_set1_epi32(s->rest[j + 1]));
    _mm_storeu_si128((__m128i *)b8, _mm512_cvtusepi32_epi8(b));
    for (int q = 0; q < 16; q++)
        s->lower[id[q]] = b8[q], s->seen[id[q]] = (uint8_t)(j + 1);
    if (j + 1 >= windows(s))
        return 0;
    b = _mm512_min_epu32(b, _mm512_set1_epi32(255)); /* as lower[] holds it */
    return _mm512_cmple_epu32_mask(b, _mm512_set1_epi32((int)s->g));
}

/* The windows after each one's last of list[0..cnt-1] (cnt <= BLOCK), in
 * rounds: round j takes, two a register, those of round j - 1 that still
 * need more and the matrices whose next window is j (sorted by it
 * beforehand).  So two matrices share each register whichever window they
 * are at (a join brings matrices at many windows); the bounds are those of
 * more_scalar. */
PF_AVX512 static void more_block(const pf_screen *s, const uint32_t *list, size_t cnt)
{
    const vk kk = *work_vk(s, 32), *k = &kk; /* in registers, if it can */
    const vwin *win = work_win(s);
    unsigned W = windows(s);
    size_t at[PF_WINS + 1] = {0}, nc = 0, t;
    uint32_t by[BLOCK], carry[BLOCK + 16]; /* carry: round j's matrices (16 more: whole stores) */
    for (t = 0; t < cnt; t++)
        if (needs_more(s, list[t]))
            at[s->seen[list[t]] + 1]++;
    for (unsigned j = 0; j < W; j++)
        at[j + 1] += at[j];
    for (t = 0; t < cnt; t++) /* at[j]: the next free place of window j's */
        if (needs_more(s, list[t]))
            by[at[s->seen[list[t]]]++] = list[t];
    /* now window j's are by[at[j - 1] .. at[j] - 1] (at[-1] = 0) */
    for (unsigned j = 0; j < W; j++) {
        size_t b0 = j ? at[j - 1] : 0, b1 = at[j], n = nc;
        if (n + b1 - b0 == 0)
            continue;
        memcpy(carry + n, by + b0, (b1 - b0) * sizeof *carry), n += b1 - b0;
        /* sixteen at a time, their bounds in a register, and those that
         * go on (about half, at random) compressed into carry from it, with
         * no branch: a branch on a window's result right after it would
         * keep the next from starting; the stores only reach places whose
         * numbers were read */
        nc = 0;
        for (t = 0; t + 16 <= n; t += 16) {
            __m512i ids = _mm512_loadu_si512(carry + t);
            __mmask16 on = window16(s, k, win, j, carry + t, t + 48 <= n);
            _mm512_storeu_si512(carry + nc, _mm512_maskz_compress_epi32(on, ids));
            nc += (size_t)__builtin_popcount(on);
        }
        for (; t + 1 < n; t += 2)
            window2(s, k, win, j, carry[t], carry[t + 1], 1);
        if (n % 2)
            window2(s, k, win, j, carry[n - 1], carry[n - 1], 0);
        for (t = n & ~(size_t)15; t < n; t++)
            carry[nc] = carry[t], nc += (size_t)needs_more(s, carry[t]);
    }
}

PF_AVX512 static size_t more_avx512(const pf_screen *s, size_t nalive, unsigned *minout)
{
    for (size_t t = 0; t < nalive; t += BLOCK)
        more_block(s, s->alive + t, nalive - t < BLOCK ? nalive - t : BLOCK);
    return settle(s, nalive, minout);
}

PF_AVX512 static size_t screen_avx512(const pf_screen *s, unsigned *minout)
{
    size_t nalive = first_avx512(s, first_lanes(s), minout);
    return more_avx512(s, nalive, minout);
}

/* pf_screen_join, 64 bounds a step: the joining ones' numbers are
 * compressed 16 at a time (a compress to memory is slow on some CPUs;
 * alive has room for 16 past the last). */
PF_AVX512 static size_t join_avx512(const pf_screen *s, unsigned g0, unsigned *least)
{
    const __m512i vg0 = _mm512_set1_epi8((char)g0), vg = _mm512_set1_epi8((char)s->g);
    __m512i vmin = _mm512_set1_epi8(-1);
    uint64_t above = 0;
    size_t nk = 0;
    uint8_t m[64];
    for (size_t i = 0; i < s->nmat; i += 64) {
        __mmask64 in = s->nmat - i >= 64 ? ~0ull : (1ull << (s->nmat - i)) - 1;
        __m512i lo = _mm512_maskz_loadu_epi8(in, s->lower + i);
        __mmask64 up = _mm512_mask_cmpgt_epu8_mask(in, lo, vg);
        uint64_t join = _mm512_mask_cmpgt_epu8_mask(in & ~up, lo, vg0);
        vmin = _mm512_mask_min_epu8(vmin, up, vmin, lo);
        above |= up;
        while (join) { /* the quarters holding some */
            unsigned q = (unsigned)__builtin_ctzll(join) / 16;
            __mmask16 k = (__mmask16)(join >> 16 * q);
            _mm512_storeu_si512(s->alive + nk, _mm512_maskz_compress_epi32(k, ids16(i + 16 * q)));
            nk += (size_t)__builtin_popcount(k);
            join &= ~(0xffffull << 16 * q);
        }
    }
    _mm512_storeu_si512(m, vmin);
    *least = 256;
    if (above)
        for (int j = 0; j < 64; j++)
            *least = m[j] < *least ? m[j] : *least;
    return nk;
}

PF_AVX512 static void prepare_avx512(pf_screen *s)
{
    vk *k = (vk *)(((uintptr_t)s->work + 63) & ~(uintptr_t)63);
    vwin *w = (vwin *)(k + 2);
    vk_init(k, s, 16), vk_init(k + 1, s, 32);
    for (unsigned j = 0; j < windows(s); j++)
        vwin_init(w + j, s, PF_WIN, PF_WIN * (size_t)j);
}
#endif

int pf_screen_level(void)
{
#ifdef PF_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vpopcntdq") &&
        __builtin_cpu_supports("avx512bitalg") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2"))
        return PF_SCREEN_AVX512;
#endif
    return PF_SCREEN_SCALAR;
}

void pf_screen_prepare(pf_screen *s, int level)
{
    for (size_t k = 0; k <= PF_WINS; k++) {
        unsigned r = pf_screen_rest(s, k ? PF_WIN * k : 1);
        s->rest[k] = (uint8_t)(r < 255 ? r : 255); /* lower[] is capped at 255 too: lower - rest stays a bound */
    }
#ifdef PF_X86
    if (level >= PF_SCREEN_AVX512)
        prepare_avx512(s);
#endif
    (void)s, (void)level;
}

size_t pf_screen_run(const pf_screen *s, int level, unsigned *minout)
{
#ifdef PF_X86
    if (level >= PF_SCREEN_AVX512)
        return screen_avx512(s, minout);
#endif
    (void)level;
    return screen_scalar(s, minout);
}

size_t pf_screen_join(const pf_screen *s, int level, unsigned g0, unsigned *least)
{
    unsigned lo_least = 256;
    size_t nk = 0;
#ifdef PF_X86
    if (level >= PF_SCREEN_AVX512)
        return join_avx512(s, g0, least);
#endif
    (void)level;
    for (size_t i = 0; i < s->nmat; i++) {
        unsigned lo = s->lower[i];
        if (lo > s->g)
            lo_least = lo < lo_least ? lo : lo_least;
        else if (lo > g0)
            s->alive[nk++] = (uint32_t)i;
    }
    *least = lo_least;
    return nk;
}

size_t pf_screen_more(const pf_screen *s, int level, size_t nalive, unsigned *minout)
{
#ifdef PF_X86
    if (level >= PF_SCREEN_AVX512)
        return more_avx512(s, nalive, minout);
#endif
    (void)level;
    return more_scalar(s, nalive, minout);
}
