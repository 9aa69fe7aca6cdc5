/* Shared between the Playfair sources; not a public header. */
#ifndef SBFS_PF_INTERNAL_H
#define SBFS_PF_INTERNAL_H

#include "sbfs/playfair.h"

/* AVX-512 code (the screen, the annealer's score) is compiled for x86-64
 * with GCC or clang, and run where pf_screen_level finds the CPU has it.
 * BMI1 and BMI2 too, which every CPU with these AVX-512 parts has: with no
 * AND-NOT among the general instructions, GCC did the screen's logic on
 * masks in mask registers, whose instructions share the unit of the byte
 * permutes (7% of the crack's time on long messages). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PF_X86 1
#define PF_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vpopcntdq,avx512bitalg,bmi,bmi2")))
#include <immintrin.h>
#endif

/* ---- calls the library and its tests use, kept out of the public API ---- */

/* The Challenge's matrix of a keyword (sb_playfair_square with
 * SB_PLAYFAIR_COLUMNS), row by row: 25 upper-case letters, no J.  keyword:
 * letters (either case; J counts as I), at least one, and spaces between
 * them (a key phrase), which are skipped.  Returns 0, or SB_EUSAGE (col =
 * 1-based position of the bad character; also for keyword or matrix NULL). */
int sb_playfair_matrix(const char *keyword, char matrix[25], sb_error *err);

/* Plaintext preparation: letters only, upper case, J as I, an X between the
 * two letters of a would-be pair that are equal, an X to complete the last
 * pair.  out must hold 2 * strlen(text) + 1 bytes.  Returns the number of
 * letters written (always even); SIZE_MAX when text or out is NULL. */
size_t sb_playfair_prepare(const char *text, char *out);

/* sb_playfair_encrypt_pad with the filler X. */
size_t sb_playfair_encrypt(const char matrix[25], const char *text, char *out);

/* sb_playfair_new_square with SB_PLAYFAIR_COLUMNS, the Challenge's matrix. */
sb_playfair *sb_playfair_new(const char *const *words, size_t n, sb_mem *mem, sb_error *err);

/* Number of distinct words of the dictionary (0 for pf NULL). */
size_t sb_playfair_words(const sb_playfair *pf);

/* The most letters a word of the dictionary covers in a deciphered text:
 * its own and an X between each two equal letters (0 for pf NULL). */
unsigned sb_playfair_span(const sb_playfair *pf);

/* Which screen the crack runs before its search (the answers are the same
 * with any; only the speed differs): SB_PLAYFAIR_SCREEN_OFF (none),
 * _SCALAR (portable C), _VECTOR (AVX-512 when the CPU has it, else the
 * portable one).  sb_playfair_new picks the fastest.  Returns the level now
 * in use, or SB_EUSAGE for pf NULL. */
enum { SB_PLAYFAIR_SCREEN_OFF, SB_PLAYFAIR_SCREEN_SCALAR, SB_PLAYFAIR_SCREEN_VECTOR };
int sb_playfair_screen(sb_playfair *pf, int level);

/* Threads a crack may use, 1 or 2 (sb_playfair_new: 2 when the machine
 * has two processors): a second thread shares the screen's work.  The
 * answers and the counts in sb_playfair_result do not depend on it.
 * Returns the number now in use, or SB_EUSAGE for pf NULL. */
int sb_playfair_threads(sb_playfair *pf, int n);

/* The mean log10 frequency of the quadgrams of text's letters (English
 * about -4.3, random letters about -6); 0 for fewer than four letters, a
 * table not finished, or a NULL pointer. */
double sb_pfquad_score(const sb_pfquad *q, const char *text);

#define PF_X 22 /* index of X in pf_alpha */

/* "ABCDEFGHIKLMNOPQRSTUVWXYZ": letter of each index 0..24. */
extern const char pf_alpha[26];
/* Index 0..24 of a letter (either case, J as I), -1 for anything else. */
int pf_index(int c);
/* Matrix of keyword as letter indices, row by row. */
int pf_matrix_idx(const char *keyword, uint8_t cell[25], sb_error *err);
/* The square of keyword read by columns or rows (SB_PLAYFAIR_*). */
int pf_square_idx(const char *keyword, int order, uint8_t cell[25], sb_error *err);
/* pf_prepare_idx with another filler than X. */
size_t pf_prepare_pad(const char *text, uint8_t pad, uint8_t *out);
/* Pair tables: (cellA * 25 + cellB) -> cellA' << 8 | cellB'. */
void pf_pair_tables(uint16_t enc[625], uint16_t dec[625]);
/* Prepared letter indices of text into out (2 * strlen(text) room). */
size_t pf_prepare_idx(const char *text, uint8_t *out);
/* Encipher / decipher n letter indices (n even) in place. */
void pf_encrypt_idx(const uint8_t cell[25], uint8_t *t, size_t n);
void pf_decrypt_idx(const uint8_t cell[25], uint8_t *t, size_t n);

/* ---- the screen (screen.c) ---------------------------------------------- */

/* A matrix's screen record, 64 bytes: byte x (0..24) is the cell of letter
 * x as row << 3 | col; byte PF_REC_CELL + (row << 3 | col) is the letter in
 * that cell; the rest are zero. */
#define PF_REC_CELL 25
void pf_screen_record(const uint8_t cell[25], uint8_t rec[64]);

/* The trigrams of the dictionary, each letter only by its class: the 25
 * letters in 16 classes as a first letter (a: the high four bits of
 * pf_tri_code), in 16 as a second (b: pf_tri_ycode) and in 16 as a third
 * (c: the low four bits of pf_tri_code), one bit each: bit PF_TRI_BIT(x,
 * y, z) of a PF_TRI_BYTES table, bit c % 8 of byte b + 16 (a % 8) of block
 * a / 8 + 2 (c / 8).  Four blocks of 128 bytes, each in reach of one
 * two-register byte permute, and every part of the place a few bits of the
 * letters' codes, so that a vector finds it by masks alone.  A trigram is
 * bad in it only if it is bad with each letter of the classes: random
 * letters hit 10.7 boundaries in 32 by it against 13.1 by the trigrams
 * themselves (with the forced ones, below), but a quarter of the look-ups
 * make it the faster screen. */
extern const uint8_t pf_tri_code[25], pf_tri_ycode[25];
#define PF_TRI_A(x) (pf_tri_code[x] >> 4)
#define PF_TRI_C(z) (pf_tri_code[z] & 15u)
#define PF_TRI_BIT(x, y, z)                                                                            \
    (((PF_TRI_A(x) / 8u + PF_TRI_C(z) / 8u * 2u) * 128u + pf_tri_ycode[y] + PF_TRI_A(x) % 8u * 16u) * 8u +         \
     PF_TRI_C(z) % 8u)
/* After it, the pairs of letters that end words: bit 32 x + y of the
 * PF_BI_END table (128 bytes) is set when some word of two letters or more
 * ends with x y.  In a bad trigram x y z whose x y ends no word, a boundary
 * stands between x and y: with one only between y and z, a word would end
 * with x y. */
#define PF_BI_END 512
/* Then the pairs that begin words, the same way: in a bad trigram x y z
 * whose y z begins no word, a boundary stands between y and z. */
#define PF_BI_BEGIN (PF_BI_END + 128)
#define PF_TRI_BYTES (PF_BI_BEGIN + 128)
/* Word w (len letter indices) into the tables: its trigrams, its first
 * and last two letters. */
void pf_screen_addword(uint8_t tri[PF_TRI_BYTES], const uint8_t *w, size_t len);


enum { PF_SCREEN_OFF, PF_SCREEN_SCALAR, PF_SCREEN_AVX512 };

/* The screen's windows: PF_WIN letters each, window j holding letters
 * PF_WIN j to PF_WIN j + PF_WIN - 1, PF_WINS of them at most (the search
 * does the rest of a longer text). */
#define PF_WIN 32
#define PF_WINS 32

/* A full first look at 32 letters goes on to window j + 1 with a group of
 * sixteen matrices (0-15, 16-31, ...) when at least PF_GROUP_ON of them
 * need it: their bound after window j is at most the limit.  The group's
 * records are read in order, but the window costs the matrices that do not
 * need it; when fewer need it, they go on in the look's tail, sixteen at a
 * time from anywhere in the chunk, the records fetched one by one.
 * Measured on the bench's 5-40 word messages: 11 to 16 give about the
 * same, 3% to 4% less time than 8; never going on (17) 5% more. */
#define PF_GROUP_ON 12

typedef struct pf_screen {
    const uint8_t *rec; /* nmat records, 64-byte aligned */
    size_t nmat;
    const uint8_t *tri; /* PF_TRI_BYTES */
    const uint8_t *ct;  /* cipher letters */
    size_t n;           /* their number, even */
    unsigned g;         /* matrices whose bound is at most g are kept */
    uint32_t *alive;    /* out: kept matrices, in order */
    uint8_t *lower;     /* out: each matrix's bound, capped at 255 */
    void *work;         /* PF_SCREEN_WORK bytes for pf_screen_prepare */
    uint8_t *seen;      /* out: windows of PF_WIN letters each lower[] covers
                           (0: it comes from a first look that the next
                           look redoes: 16 letters of a longer text) */
    unsigned span;      /* letters a word of the dictionary can cover in a
                           deciphered text: its own and the X's that may
                           have been put between its doubled letters */
    uint8_t rest[PF_WINS + 1]; /* set by pf_screen_prepare: the least word
                                  starts after k windows (pf_screen_rest) */
} pf_screen;

#define PF_SCREEN_WORK 16384

/* The widest screen this CPU runs (PF_SCREEN_SCALAR or _AVX512). */
int pf_screen_level(void);
/* Set up s->work and s->rest for the message in s->ct, s->n, the limit
 * s->g and s->span (once a message, before the chunks). */
void pf_screen_prepare(pf_screen *s, int level);
/* The least number of words that begin among the letters from `read` to
 * the end of s's text (read >= 1), in any reading: (n - read) / (span + 1),
 * rounded down. */
unsigned pf_screen_rest(const pf_screen *s, size_t read);
/* Screen every matrix; returns the number kept, *minout = the least bound
 * of the others (UINT_MAX if none).  The levels give the same numbers. */
size_t pf_screen_run(const pf_screen *s, int level, unsigned *minout);
/* The matrices that join the search when its limit rises from g0 to s->g
 * (at most 255): those whose lower[] lies in (g0, s->g], into s->alive in
 * order (room for 16 past the last); returns their number; *least = the
 * least bound above s->g, 256 if none. */
size_t pf_screen_join(const pf_screen *s, int level, unsigned g0, unsigned *least);
/* Look further at the s->alive[0..nalive-1], each from the window after
 * the last its bound covers (seen[]), window after window while its bound
 * is at most s->g: keeps those still at most s->g, in order, updates
 * lower[] and seen[]; returns the number kept; *minout = min(*minout,
 * least bound of the others). */
size_t pf_screen_more(const pf_screen *s, int level, size_t nalive, unsigned *minout);

/* ---- the annealer (anneal.c) -------------------------------------------- */

/* The Metropolis test at temperature temp (score units): a step that lowers
 * the score by d >= 0 is taken when 32 random bits fall below acc[d], which
 * is 2^32 exp(-d / temp) rounded down (capped at 2^32 - 1); for d >= len the
 * chance is below 2^-32 and the step is refused.  Returns 0 or -1 (out of
 * memory); free acc. */
typedef struct pf_accept {
    uint32_t *acc;
    int32_t len;
} pf_accept;
int pf_accept_init(pf_accept *a, double temp);

/* The walks' score of the square (25 letters, row by row) for the letters
 * of cipher (an even number, at least 4), in sb_pfquad_score's units: the
 * mean log10 frequency of the deciphered text's quadgrams.  Returns 0 for
 * fewer letters or an odd number; q must be finished.  vec: by the
 * AVX-512 score where the CPU has it (pf_screen_level), else the portable
 * one; the two give the same sums.  For the tests. */
double pf_anneal_score(const sb_pfquad *q, const char square[25], const char *cipher, int vec);

/* The square after the walks' polish (each swap of two letters, each
 * order of the rows and of the columns, kept while the score rises), in
 * place, and its score as pf_anneal_score gives it.  For the tests. */
double pf_anneal_polish(const sb_pfquad *q, char square[25], const char *cipher);

/* For n letters (at least 4), in pf_anneal_score's units: *bar, the least
 * score read as English (the crack stops), and *near, the least that stops
 * it once two restarts have found it.  For the tests. */
void pf_anneal_bars(const sb_pfquad *q, size_t n, double *bar, double *near);

/* sb_playfair_anneal, by the portable score when vec is 0 (the same walks,
 * slower; for the tests). */
int pf_anneal(const sb_pfquad *q, const char *cipher, const sb_playfair_anneal_opts *opts, const sb_control *ctl,
              sb_playfair_anneal_result *res, char *plaintext, int vec, sb_error *err);

#endif
