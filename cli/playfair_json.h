/* sbfs playfair --json: the answers of each subcommand as JSON lines
 * (playfair_json.c), on stdout. */
#ifndef SBFS_CLI_PLAYFAIR_JSON_H
#define SBFS_CLI_PLAYFAIR_JSON_H

#include <stdio.h>

/* encrypt / decrypt: the text of input line `line`; square: the 25
 * letters of the key square for --show-square, else NULL. */
void pfj_cipher(int decrypt, int line, const char *text, const char *square);
/* crack: the keyword, the reading, the square (NULL or "" without
 * --show-square), whether another reading ties. */
void pfj_crack(int line, const char *keyword, const char *plain, const char *square, int ambiguous);
/* crack or anneal (sub) found nothing for input line `line`. */
void pfj_unsolved(const char *sub, int line);
void pfj_anneal(int line, const char *square, const char *plain, double score);
void pfj_random(const char *key, const char *plain, const char *cipher);

#endif
