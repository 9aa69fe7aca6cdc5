/* libFuzzer target: arbitrary bytes as a keyword, a plaintext and a
 * ciphertext.  Enciphering then deciphering must give the prepared text
 * back; cracking must end with an answer or SB_ENOTFOUND/SB_EINPUT and, when
 * it answers, a plaintext that enciphers to the ciphertext's letters. */
#include <stdlib.h>
#include <string.h>

#include "sbfs/playfair.h"
#include "../src/playfair/pf_internal.h" /* the calls kept out of the public API */

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static const char *const words[] = {"A", "I", "AN", "AT", "BE", "CAT", "THE", "TREE", "JAZZ", "XYLEM",
                                    "BALLOON", "COFFEE", "BOX", "EX", "X", "XX", "IT", "AXE"};

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static sb_playfair *pf;
    char *text, *a, *b, key[16], m[25];
    size_t n = size > 400 ? 400 : size, kl = 0;
    sb_error e;
    sb_playfair_result res;
    if (!pf)
        pf = sb_playfair_new(words, sizeof words / sizeof *words, NULL, &e);
    text = malloc(n + 1), a = malloc(3 * n + 2), b = malloc(6 * n + 4);
    if (!pf || !text || !a || !b)
        abort();
    memcpy(text, data, n);
    text[n] = 0;
    for (size_t i = 0; i < n && kl < 15; i++) /* keyword: the input's letters */
        if ((text[i] | 32) >= 'a' && (text[i] | 32) <= 'z')
            key[kl++] = text[i];
    key[kl] = 0;
    if (kl && sb_playfair_matrix(key, m, &e) == 0) {
        char *prep = malloc(2 * n + 1), *joined = malloc(6 * n + 4);
        size_t o = 0;
        if (!prep || !joined)
            abort();
        sb_playfair_prepare(text, prep);
        sb_playfair_encrypt(m, text, a);
        if (sb_playfair_decrypt(m, a, b, &e) < 0)
            abort();
        for (char *p = b; *p; p++)
            if (*p != ' ')
                joined[o++] = *p;
        joined[o] = 0;
        if (strcmp(joined, prep))
            abort();
        free(prep), free(joined);
    }
    {
        int rc = sb_playfair_crack(pf, text, NULL, &res, &e);
        if (rc != 0 && rc != SB_ENOTFOUND && rc != SB_EINPUT)
            abort();
        if (rc == 0) {
            char mk[25], *x = malloc(3 * strlen(res.plaintext) + 2);
            size_t i = 0, j = 0;
            if (!x || sb_playfair_matrix(res.keyword, mk, &e))
                abort();
            sb_playfair_encrypt(mk, res.plaintext, x);
            for (;; i++, j++) { /* compare letters only, J as I */
                while (text[i] && !(((text[i] | 32) >= 'a') && ((text[i] | 32) <= 'z')))
                    i++;
                while (x[j] == ' ')
                    j++;
                if (!text[i] || !x[j])
                    break;
                if ((((text[i] | 32) == 'j') ? 'I' : (text[i] & ~32)) != x[j])
                    abort();
            }
            if (text[i] || x[j])
                abort();
            free(x);
        }
    }
    free(text), free(a), free(b);
    return 0;
}
