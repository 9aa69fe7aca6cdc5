/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
/* The Playfair cipher and a dictionary attack on it.
 *
 * The cipher is the variant of the 1999 MacTech Programmer's Challenge
 * ("Playfair Decipher", September 1999): the 5 x 5 matrix holds the
 * keyword's distinct letters in one line, the rest of the alphabet written
 * beneath in lines of the same width, read off by columns; I and J share a
 * cell.  Letters are handled as upper case; J becomes I.
 *
 * The attack takes a dictionary once (sb_playfair_new_square) and then explains
 * ciphertexts one by one (sb_playfair_crack): it finds the keywords of the
 * dictionary whose matrix deciphers the text into dictionary words, and of
 * those readings keeps the ones with the fewest words.  Everything it holds
 * lives in the sb_playfair object the caller owns; two objects can work side
 * by side in different threads, one object serves one thread at a time. */
#ifndef SBFS_PLAYFAIR_H
#define SBFS_PLAYFAIR_H

#include <stddef.h>
#include <stdint.h>

#include "sbfs/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a keyword's letters become the square.  COLUMNS is the Challenge's
 * matrix above; ROWS is the textbook square: the keyword's distinct letters
 * and then the rest of the alphabet, five to a row, read by rows
 * (PLAYFAIR EXAMPLE: PLAYF IREXM BCDGH KNOQS TUVWZ). */
enum { SB_PLAYFAIR_COLUMNS, SB_PLAYFAIR_ROWS };

/* The square of a keyword in either order.  Returns 0, or SB_EUSAGE (a
 * character that is no letter, no letters at all, or an unknown order). */
int sb_playfair_square(const char *keyword, int order, char matrix[25], sb_error *err);

/* A key square given outright: 25 distinct letters (J counts as I; other
 * characters, such as spaces or slashes between rows, are skipped), row by
 * row.  Returns 0, or SB_EUSAGE (col = position of a repeated letter). */
int sb_playfair_key_square(const char *letters, char matrix[25], sb_error *err);

/* Encipher text with matrix: letters only, upper case, J as I, the filler
 * pad (a letter, either case; 'X' as usual) between the two letters of a
 * would-be pair that are equal and to complete the last pair.  out
 * receives the pairs separated by single spaces ("HW UY RF"); it must hold
 * 3 * strlen(text) + 1 bytes.  Returns the number of pairs; SIZE_MAX when a
 * pointer is NULL or matrix is not 25 different letters (out is then "" if
 * not NULL); 0 pairs (and an empty out) when pad is no letter. */
size_t sb_playfair_encrypt_pad(const char matrix[25], const char *text, char pad, char *out);

/* Decipher: letters of cipher only (case and everything else ignored, J as
 * I), out receives the prepared plaintext as pairs separated by spaces; it
 * must hold 2 * strlen(cipher) + 1 bytes.  Returns the number of pairs, or
 * SB_EINPUT when the number of letters is odd, SB_EUSAGE for a NULL
 * pointer or a matrix that is not 25 different letters. */
long sb_playfair_decrypt(const char matrix[25], const char *cipher, char *out, sb_error *err);

/* The attack's context. */
typedef struct sb_playfair sb_playfair;

/* Take a dictionary: n words of letters A-Z (either case).  Every word is a
 * possible keyword and a possible plaintext word; the words are copied, and
 * their order only decides which of several keywords with the same matrix
 * is reported (the first).  mem: the memory budget to draw from (NULL: no
 * limit; it must outlive the context).  Returns NULL with err filled:
 * SB_EINPUT (line = 1-based index of a word that is empty or holds a
 * character other than a letter, col = its position), SB_ENOMEM,
 * SB_EUSAGE (words NULL with n > 0, or a word NULL: line = its index;
 * an order other than SB_PLAYFAIR_COLUMNS or _ROWS).  The keywords' squares
 * are read in that order. */
sb_playfair *sb_playfair_new_square(const char *const *words, size_t n, int order, sb_mem *mem, sb_error *err);
void sb_playfair_free(sb_playfair *pf); /* pf may be NULL */

/* Number of distinct matrices the keywords give (0 for pf NULL). */
size_t sb_playfair_matrices(const sb_playfair *pf);

/* What sb_playfair_crack found. */
typedef struct sb_playfair_result {
    int found;             /* 1 when some keyword explains the text */
    int ambiguous;         /* 1 when another, different plaintext has as few
                              words (another keyword or another split) */
    size_t words;          /* words in plaintext */
    const char *keyword;   /* a keyword giving the reported matrix, "" if none */
    const char *plaintext; /* words in upper case, single spaces, inserted and
                              padding X's removed, J where the dictionary
                              spells it; "" if none.  Both strings belong to
                              the context and stay valid until the next call */
    uint64_t pairs;        /* pairs deciphered by the search, all keywords */
    uint64_t parsed;       /* matrices whose whole text was parsed exactly */
} sb_playfair_result;

/* Explain one ciphertext: letters only count (case, spaces, punctuation are
 * ignored; J is read as I).  Returns 0 with res->found = 1, or
 * SB_ENOTFOUND when no keyword of the dictionary deciphers the text into
 * dictionary words (also for an odd number of letters or none at all:
 * res->found = 0, empty strings), or SB_ENOMEM.  ctl (may be NULL): stop
 * flag, checked now and then (SB_EINTR).  SB_EUSAGE when pf, cipher or res
 * is NULL. */
int sb_playfair_crack(sb_playfair *pf, const char *cipher, const sb_control *ctl,
                      sb_playfair_result *res, sb_error *err);

/* ---- without a keyword: simulated annealing (anneal.c) ------------------ */

/* English letter-quadgram statistics: counted from any English text fed
 * to sb_pfquad_add (letters only count, J as I, and they run on across
 * spaces and punctuation, cut into pairs with an X between two equal
 * letters of a pair, as Playfair enciphers them), then turned into
 * log-frequencies by
 * sb_pfquad_finish.  The table takes 1.5 MB while counting, 390 KB after.
 * mem: the budget to draw from (NULL: none).  Returns NULL with err
 * (SB_ENOMEM). */
typedef struct sb_pfquad sb_pfquad;
sb_pfquad *sb_pfquad_new(sb_mem *mem, sb_error *err);
void sb_pfquad_free(sb_pfquad *q);
/* Count the quadgrams of len bytes of text (SB_EUSAGE once finished, or
 * for q NULL or text NULL with len > 0). */
int sb_pfquad_add(sb_pfquad *q, const char *text, size_t len, sb_error *err);
/* Fewest quadgrams sb_pfquad_finish accepts. */
#define SB_PFQUAD_MIN 1000
/* Returns 0, SB_EINPUT (fewer than SB_PFQUAD_MIN quadgrams), SB_ENOMEM,
 * SB_EUSAGE (q NULL). */
int sb_pfquad_finish(sb_pfquad *q, sb_error *err);
/* Quadgrams counted (0 for q NULL). */
uint64_t sb_pfquad_total(const sb_pfquad *q);
/* A finished table saved to path (written beside it and renamed into
 * place), with source: the caller's tag for the text it was counted from
 * (a hash of the files' names and dates, say).  0, SB_EIO, or SB_EUSAGE (q
 * or path NULL, q not finished). */
int sb_pfquad_save(const sb_pfquad *q, const char *path, uint64_t source, sb_error *err);
/* A saved table back, finished, if its tag is source; NULL with err:
 * SB_EIO (no such file, or unreadable), SB_EBADFILE (not such a table,
 * damaged, or another tag: the message says which), SB_ENOMEM, SB_EUSAGE
 * (path NULL).  mem as for sb_pfquad_new. */
sb_pfquad *sb_pfquad_load(const char *path, uint64_t source, sb_mem *mem, sb_error *err);

#define SB_PLAYFAIR_ANNEAL_MAXTHREADS 64

/* How to anneal; zero fields take the defaults. */
typedef struct sb_playfair_anneal_opts {
    uint64_t seed;           /* the answer depends on it alone (unless time runs out) */
    int threads;             /* restarts run side by side (default 1) */
    double time_limit;       /* seconds; 0: none */
    unsigned patience;       /* stop after this many restarts in a row that do
                                not beat the best (default 128); the crack
                                also stops once the best reads as English
                                by the table's own spread, or nearly so
                                and two restarts found it */
    unsigned max_restarts;   /* 0: no limit */
    uint64_t iterations;     /* steps a restart (default 400,000) */
    double temperature;      /* the walks' one temperature, log10 units
                                (default: 0.37 times the root mean square
                                of a step's score change between random
                                squares, measured on the message) */
} sb_playfair_anneal_opts;

typedef struct sb_playfair_anneal_result {
    char square[26];   /* the best key square found, row by row, NUL-ended */
    double score;      /* its decipherment's mean log10 quadgram frequency */
    int found_twice;   /* two restarts reached that same score */
    unsigned restarts; /* restarts done */
    uint64_t steps;    /* squares tried, all restarts */
    double seconds;    /* wall time */
} sb_playfair_anneal_result;

/* Find a key square for cipher (letters only count, J as I) without a
 * keyword.  plaintext receives the decipherment under the square found,
 * fillers in place, no spaces (room: strlen(cipher) + 1).  Returns 0,
 * SB_EINPUT (odd number of letters), SB_ENOTFOUND (fewer than 8 letters),
 * SB_EUSAGE (q not finished, or a NULL pointer but opts and ctl),
 * SB_EINTR (ctl's flag: res holds the best so
 * far), SB_ENOMEM. */
int sb_playfair_anneal(const sb_pfquad *q, const char *cipher, const sb_playfair_anneal_opts *opts,
                       const sb_control *ctl, sb_playfair_anneal_result *res, char *plaintext, sb_error *err);

#ifdef __cplusplus
}
#endif

#endif
