/* The Playfair cipher itself: the keyword's matrix, plaintext preparation,
 * enciphering and deciphering of pairs.
 *
 * Letters are numbered 0..24 in the 25-letter alphabet without J (J is read
 * as I), and a matrix cell is row * 5 + col.  Enciphering a pair depends only
 * on the two cells, so one 625-entry table per direction (pf_pair_tables)
 * serves every matrix: the attack looks a pair's cells up in the matrix's
 * inverse (letter -> cell) and the result cells in the matrix itself. */
#include "pf_internal.h"

#include <stdlib.h>
#include <string.h>

const char pf_alpha[26] = "ABCDEFGHIKLMNOPQRSTUVWXYZ";

int pf_index(int c)
{
    if (c >= 'a' && c <= 'z')
        c -= 'a' - 'A';
    if (c < 'A' || c > 'Z')
        return -1;
    if (c == 'J')
        c = 'I';
    return c < 'J' ? c - 'A' : c - 'A' - 1;
}

/* The seed's construction, for CRYPTOGRAM: the distinct letters CRYPTOGAM
 * make a line of width 9, the other 16 letters follow in lines of 9
 * (BDEFHIKLN, QSUVWXZ), and the columns read top to bottom, left to right
 * (CBQ RDS YEU PFV THW OIX GKZ AL MN) fill the matrix row by row. */
int pf_matrix_idx(const char *keyword, uint8_t cell[25], sb_error *err)
{
    return pf_square_idx(keyword, SB_PLAYFAIR_COLUMNS, cell, err);
}

/* The textbook square (Wheatstone's own, as the manuals teach it) is the
 * same block read by rows: the keyword's distinct letters, then the rest of
 * the alphabet, five to a row.  For PLAYFAIR EXAMPLE: PLAYF IREXM BCDGH
 * KNOQS TUVWZ. */
int pf_square_idx(const char *keyword, int order, uint8_t cell[25], sb_error *err)
{
    uint8_t line[25];
    int used = 0, w = 0, n = 0;
    for (int i = 0; keyword[i]; i++) {
        int x = pf_index(keyword[i]);
        if (keyword[i] == ' ') /* a key phrase: PLAYFAIR EXAMPLE */
            continue;
        if (x < 0)
            return sb_error_set(err, SB_EUSAGE, 0, i + 1,
                                "keyword: '%c' is not a letter", keyword[i]);
        if (!(used >> x & 1))
            used |= 1 << x, line[w++] = (uint8_t)x;
    }
    if (w == 0)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "keyword: no letters");
    n = w;
    for (int x = 0; x < 25; x++)
        if (!(used >> x & 1))
            line[n++] = (uint8_t)x;
    if (order == SB_PLAYFAIR_ROWS) {
        memcpy(cell, line, 25);
        return 0;
    }
    /* line[] is now the whole block written row by row in rows of width w;
     * read it by columns. */
    n = 0;
    for (int col = 0; col < w; col++)
        for (int at = col; at < 25; at += w)
            cell[n++] = line[at];
    return 0;
}

int sb_playfair_matrix(const char *keyword, char matrix[25], sb_error *err)
{
    return sb_playfair_square(keyword, SB_PLAYFAIR_COLUMNS, matrix, err);
}

int sb_playfair_square(const char *keyword, int order, char matrix[25], sb_error *err)
{
    uint8_t cell[25];
    int rc;
    if (!keyword || !matrix)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_playfair_square: %s is NULL",
                            keyword ? "matrix" : "keyword");
    if (order != SB_PLAYFAIR_COLUMNS && order != SB_PLAYFAIR_ROWS)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "square: order %d is neither columns nor rows", order);
    rc = pf_square_idx(keyword, order, cell, err);
    if (rc)
        return rc;
    for (int i = 0; i < 25; i++)
        matrix[i] = pf_alpha[cell[i]];
    return 0;
}

/* Deciphering inverts each rule: same row, each letter moves left; same
 * column, up; otherwise the rectangle rule, which is its own inverse.  A pair
 * of equal letters (only XX can occur: an X inserted after an X) follows the
 * same-row rule, which keeps the cipher a bijection on pairs. */
void pf_pair_tables(uint16_t enc[625], uint16_t dec[625])
{
    for (int a = 0; a < 25; a++)
        for (int b = 0; b < 25; b++) {
            int ra = a / 5, ca = a % 5, rb = b / 5, cb = b % 5, e0, e1, d0, d1;
            if (ra == rb) {
                e0 = ra * 5 + (ca + 1) % 5, e1 = rb * 5 + (cb + 1) % 5;
                d0 = ra * 5 + (ca + 4) % 5, d1 = rb * 5 + (cb + 4) % 5;
            } else if (ca == cb) {
                e0 = (ra + 1) % 5 * 5 + ca, e1 = (rb + 1) % 5 * 5 + cb;
                d0 = (ra + 4) % 5 * 5 + ca, d1 = (rb + 4) % 5 * 5 + cb;
            } else {
                e0 = d0 = ra * 5 + cb, e1 = d1 = rb * 5 + ca;
            }
            enc[a * 25 + b] = (uint16_t)(e0 << 8 | e1);
            dec[a * 25 + b] = (uint16_t)(d0 << 8 | d1);
        }
}

size_t pf_prepare_idx(const char *text, uint8_t *out)
{
    return pf_prepare_pad(text, PF_X, out);
}

size_t pf_prepare_pad(const char *text, uint8_t pad, uint8_t *out)
{
    size_t n = 0;
    int held = -1; /* first letter of a pair waiting for its second */
    for (const char *s = text; *s; s++) {
        int x = pf_index(*s);
        if (x < 0)
            continue;
        if (held < 0) {
            held = x;
        } else if (x == held) {
            /* TH EE -> the second E starts the next pair: E X E... */
            out[n++] = (uint8_t)held, out[n++] = pad;
            held = x;
        } else {
            out[n++] = (uint8_t)held, out[n++] = (uint8_t)x;
            held = -1;
        }
    }
    if (held >= 0)
        out[n++] = (uint8_t)held, out[n++] = pad;
    return n;
}

size_t sb_playfair_prepare(const char *text, char *out)
{
    size_t n;
    if (!text || !out)
        return SIZE_MAX;
    n = pf_prepare_idx(text, (uint8_t *)out);
    for (size_t i = 0; i < n; i++)
        out[i] = pf_alpha[(uint8_t)out[i]];
    out[n] = 0;
    return n;
}

/* Apply a pair table to n letters (n even) in place. */
static void apply(const uint8_t cell[25], const uint16_t tab[625], uint8_t *t, size_t n)
{
    uint8_t pos[25];
    for (int i = 0; i < 25; i++)
        pos[cell[i]] = (uint8_t)i;
    for (size_t i = 0; i + 1 < n; i += 2) {
        uint16_t d = tab[pos[t[i]] * 25 + pos[t[i + 1]]];
        t[i] = cell[d >> 8], t[i + 1] = cell[d & 255];
    }
}

void pf_encrypt_idx(const uint8_t cell[25], uint8_t *t, size_t n)
{
    uint16_t enc[625], dec[625];
    pf_pair_tables(enc, dec);
    apply(cell, enc, t, n);
}

void pf_decrypt_idx(const uint8_t cell[25], uint8_t *t, size_t n)
{
    uint16_t enc[625], dec[625];
    pf_pair_tables(enc, dec);
    apply(cell, dec, t, n);
}

/* Letters as pairs separated by spaces. */
static void pairs_out(const uint8_t *t, size_t n, char *out)
{
    char *o = out;
    for (size_t i = 0; i < n; i += 2) {
        if (i)
            *o++ = ' ';
        *o++ = pf_alpha[t[i]], *o++ = pf_alpha[t[i + 1]];
    }
    *o = 0;
}

static int cell_of(const char matrix[25], uint8_t cell[25])
{
    int seen = 0;
    for (int i = 0; i < 25; i++) {
        int x = pf_index(matrix[i]);
        if (x < 0 || (seen >> x & 1))
            return -1;
        seen |= 1 << x, cell[i] = (uint8_t)x;
    }
    return 0;
}

size_t sb_playfair_encrypt(const char matrix[25], const char *text, char *out)
{
    return sb_playfair_encrypt_pad(matrix, text, 'X', out);
}

int sb_playfair_key_square(const char *letters, char matrix[25], sb_error *err)
{
    int seen = 0, n = 0;
    if (!letters || !matrix)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_playfair_key_square: %s is NULL",
                            letters ? "matrix" : "letters");
    for (int i = 0; letters[i]; i++) {
        int x = pf_index(letters[i]);
        if (x < 0)
            continue;
        if (n == 25)
            return sb_error_set(err, SB_EUSAGE, 0, i + 1, "key square: more than 25 letters");
        if (seen >> x & 1)
            return sb_error_set(err, SB_EUSAGE, 0, i + 1, "key square: '%c' twice (J counts as I)",
                                letters[i]);
        seen |= 1 << x, matrix[n++] = pf_alpha[x];
    }
    if (n != 25)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "key square: %d letters, not 25", n);
    return 0;
}

size_t sb_playfair_encrypt_pad(const char matrix[25], const char *text, char pad, char *out)
{
    uint8_t cell[25];
    size_t n = 0;
    uint8_t *t;
    int p = pf_index(pad);
    if (!matrix || !text || !out)
        return SIZE_MAX;
    out[0] = 0;
    if (cell_of(matrix, cell) != 0)
        return SIZE_MAX;
    t = malloc(2 * strlen(text) + 2);
    if (t && p >= 0) {
        n = pf_prepare_pad(text, (uint8_t)p, t);
        pf_encrypt_idx(cell, t, n);
        pairs_out(t, n, out);
    }
    free(t);
    return n / 2;
}

long sb_playfair_decrypt(const char matrix[25], const char *cipher, char *out, sb_error *err)
{
    uint8_t cell[25];
    size_t len, n = 0;
    uint8_t *t;
    if (!matrix || !cipher || !out)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_playfair_decrypt: %s is NULL",
                            !matrix ? "matrix" : !cipher ? "cipher" : "out");
    len = strlen(cipher);
    out[0] = 0;
    if (cell_of(matrix, cell))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "not a Playfair matrix");
    if (!(t = malloc(len + 1)))
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    for (size_t i = 0; i < len; i++) {
        int x = pf_index(cipher[i]);
        if (x >= 0)
            t[n++] = (uint8_t)x;
    }
    if (n % 2) {
        free(t);
        return sb_error_set(err, SB_EINPUT, 0, 0,
                            "odd number of letters (%zu): not a Playfair ciphertext", n);
    }
    pf_decrypt_idx(cell, t, n);
    pairs_out(t, n, out);
    free(t);
    return (long)(n / 2);
}
