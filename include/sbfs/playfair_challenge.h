/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
/* The C interface of the 1999 MacTech Programmer's Challenge "Playfair
 * Decipher", exactly as the problem statement declares it.
 *
 * InitPlayfair takes the dictionary (upper-case words, sorted; every
 * plaintext word and every keyword is among them); DecodePlayfair is then
 * called once per ciphertext; TermPlayfair releases everything.
 *
 * These three functions keep one hidden sb_playfair context between calls:
 * it is the only global state in the whole library, and it exists only
 * because this interface has no place to pass a context.  New code should
 * use the reentrant API of sbfs/playfair.h instead.
 *
 * DecodePlayfair writes the plaintext words in upper case separated by
 * single spaces, or an empty string when no keyword explains the text (or
 * InitPlayfair failed or was not called).  plainText must hold
 * 2 * (letters in cipherText) bytes at least; the fewest-words reading
 * normally needs far less.
 *
 * The interface has no way to report an error, so a NULL or empty
 * dictionary (or a count <= 0) leaves no dictionary, a NULL cipherText
 * gives "", and a NULL plainText is left alone. */
#ifndef SBFS_PLAYFAIR_CHALLENGE_H
#define SBFS_PLAYFAIR_CHALLENGE_H

#if defined(__cplusplus)
extern "C" {
#endif

/* words: numDictionaryWords strings, each a word of upper-case letters. */
void InitPlayfair(const char *words[], long numDictionaryWords);

/* cipherText: one enciphered message; plainText: receives its reading. */
void DecodePlayfair(const char *cipherText, char *plainText);

void TermPlayfair(void);

#if defined(__cplusplus)
}
#endif

#endif
