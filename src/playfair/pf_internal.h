/* Shared between the Playfair sources; not a public header. */
#ifndef SBFS_PF_INTERNAL_H
#define SBFS_PF_INTERNAL_H

#include "sbfs/playfair.h"

#define PF_X 22 /* index of X in pf_alpha */

/* "ABCDEFGHIKLMNOPQRSTUVWXYZ": letter of each index 0..24. */
extern const char pf_alpha[26];
/* Index 0..24 of a letter (either case, J as I), -1 for anything else. */
int pf_index(int c);
/* Matrix of keyword as letter indices, row by row. */
int pf_matrix_idx(const char *keyword, uint8_t cell[25], sb_error *err);
/* Pair tables: (cellA * 25 + cellB) -> cellA' << 8 | cellB'. */
void pf_pair_tables(uint16_t enc[625], uint16_t dec[625]);
/* Prepared letter indices of text into out (2 * strlen(text) room). */
size_t pf_prepare_idx(const char *text, uint8_t *out);
/* Encipher / decipher n letter indices (n even) in place. */
void pf_encrypt_idx(const uint8_t cell[25], uint8_t *t, size_t n);
void pf_decrypt_idx(const uint8_t cell[25], uint8_t *t, size_t n);

#endif
