/* sbfs playfair --json: each answer as one JSON object on a line of its
 * own, with the keys the other commands use where they mean the same
 * ("command", "line", "solved"). */
#include "playfair_json.h"

#include "view.h"

static void head(const char *sub, int line)
{
    printf("{\"command\": \"playfair %s\"", sub);
    if (line > 0)
        printf(", \"line\": %d", line);
}

static void key_str(const char *key, const char *s)
{
    printf(", \"%s\": ", key);
    view_json_str(stdout, s);
}

void pfj_cipher(int decrypt, int line, const char *text, const char *square)
{
    head(decrypt ? "decrypt" : "encrypt", line);
    key_str("text", text);
    if (square) {
        char sq[30], *o = sq;
        for (int i = 0; i < 25; i++) {
            if (i && i % 5 == 0)
                *o++ = ' ';
            *o++ = square[i];
        }
        *o = 0;
        key_str("square", sq);
    }
    printf("}\n");
}

void pfj_crack(int line, const char *keyword, const char *plain, const char *square, int ambiguous)
{
    head("crack", line);
    printf(", \"solved\": true");
    key_str("keyword", keyword);
    key_str("plaintext", plain);
    if (square && *square)
        key_str("square", square);
    printf(", \"ambiguous\": %s}\n", ambiguous ? "true" : "false");
}

void pfj_unsolved(const char *sub, int line)
{
    head(sub, line);
    printf(", \"solved\": false}\n");
}

void pfj_anneal(int line, const char *square, const char *plain, double score)
{
    head("anneal", line);
    printf(", \"solved\": true");
    key_str("square", square);
    key_str("plaintext", plain);
    printf(", \"score\": %.3f}\n", score);
}

void pfj_random(const char *key, const char *plain, const char *cipher)
{
    head("random", 0);
    key_str("key", key);
    key_str("plaintext", plain);
    key_str("ciphertext", cipher);
    printf("}\n");
}
