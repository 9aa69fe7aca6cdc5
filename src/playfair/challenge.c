/* The 1999 Challenge's interface over the reentrant attack.
 *
 * `the_context` below is the one piece of global mutable state in the whole
 * library.  The Challenge's three functions pass no context between them, so
 * InitPlayfair must leave one where DecodePlayfair can find it; everything
 * else in sbfs takes its context from the caller (sbfs/playfair.h). */
#include "sbfs/playfair_challenge.h"

#include <string.h>

#include "pf_internal.h"

static sb_playfair *the_context;

void InitPlayfair(const char *words[], long numDictionaryWords)
{
    sb_error err;
    sb_playfair_free(the_context);
    the_context = NULL;
    if (!words || numDictionaryWords <= 0)
        return;
    the_context = sb_playfair_new((const char *const *)words, (size_t)numDictionaryWords, NULL, &err);
}

void DecodePlayfair(const char *cipherText, char *plainText)
{
    sb_playfair_result res;
    sb_error err;
    if (!plainText)
        return;
    plainText[0] = 0;
    if (!the_context || !cipherText)
        return;
    if (sb_playfair_crack(the_context, cipherText, NULL, &res, &err) == 0)
        strcpy(plainText, res.plaintext);
}

void TermPlayfair(void)
{
    sb_playfair_free(the_context);
    the_context = NULL;
}
