/* verify_playfair: checks Playfair answers with code of its own.
 *
 *   verify_playfair [--rows] DICTIONARY < lines
 *   verify_playfair --square < lines
 *
 * Each line is CIPHERTEXT<TAB>KEY<TAB>PLAINTEXT[<TAB>anything].  With a
 * dictionary, KEY is a keyword: it and every plaintext word must be in the
 * dictionary (letters A-Z only, case ignored), and the plaintext enciphered
 * under the keyword's square (the 1999 Challenge's, read by columns, or
 * with --rows the textbook one, read by rows) with the usual preparation
 * must give the ciphertext's letters.  With --square, KEY is the square
 * itself (25 letters row by row, other characters skipped) and PLAINTEXT
 * the deciphered letters, fillers in place: enciphered pair by pair they
 * must give the ciphertext.  A line whose key is "-" is counted as
 * unsolved.  Prints "N verified, M unsolved" and exits 1 on the first
 * failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **dict;
static size_t ndict;

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int upper_word(char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++) {
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 32);
        else if (*s < 'A' || *s > 'Z')
            return 0;
    }
    return 1;
}

static int known(const char *w)
{
    char buf[512];
    const char *p = buf;
    snprintf(buf, sizeof buf, "%s", w);
    return upper_word(buf) && bsearch(&p, dict, ndict, sizeof *dict, cmp) != NULL;
}

/* Letters of s, upper case, J as I. */
static size_t letters(const char *s, char *out)
{
    size_t n = 0;
    for (; *s; s++) {
        char c = *s >= 'a' && *s <= 'z' ? (char)(*s - 32) : *s;
        if (c >= 'A' && c <= 'Z')
            out[n++] = c == 'J' ? 'I' : c;
    }
    out[n] = 0;
    return n;
}

static int rows, given;

/* mode: 0 keyword by columns, 1 keyword by rows, 2 the square given (and
 * the plaintext already in pairs).  Returns 0 if key is no square. */
static int encipher(const char *key, const char *plain, char *out)
{
    char k[4096], m[26], seq[26], l[4096], p[8192];
    size_t kn = letters(key, k), n = letters(plain, l), o = 0;
    int used[26] = {0}, w = 0, s = 0;
    for (size_t i = 0; i < kn; i++)
        if (!used[k[i] - 'A']++)
            seq[s++] = k[i];
        else if (given)
            return 0;
    w = s;
    if (given && (w != 25 || n % 2))
        return 0;
    for (char c = 'A'; c <= 'Z'; c++)
        if (c != 'J' && !used[c - 'A'])
            seq[s++] = c;
    s = 0;
    if (given || rows)
        memcpy(m, seq, 25);
    else
        for (int col = 0; col < w; col++)
            for (int at = col; at < 25; at += w)
                m[s++] = seq[at];
    if (given)
        memcpy(p, l, n), o = n;
    else
        for (size_t i = 0; i < n;) { /* pairs, X between equal letters, X to pad */
            p[o++] = l[i];
            if (i + 1 < n && l[i + 1] != l[i])
                p[o++] = l[i + 1], i += 2;
            else
                p[o++] = 'X', i++;
        }
    for (size_t i = 0; i < o; i += 2) {
        int a = (int)(memchr(m, p[i], 25) ? (char *)memchr(m, p[i], 25) - m : 0);
        int b = (int)(memchr(m, p[i + 1], 25) ? (char *)memchr(m, p[i + 1], 25) - m : 0);
        if (a / 5 == b / 5)
            out[i] = m[a / 5 * 5 + (a + 1) % 5], out[i + 1] = m[b / 5 * 5 + (b + 1) % 5];
        else if (a % 5 == b % 5)
            out[i] = m[(a + 5) % 25], out[i + 1] = m[(b + 5) % 25];
        else
            out[i] = m[a / 5 * 5 + b % 5], out[i + 1] = m[b / 5 * 5 + a % 5];
    }
    out[o] = 0;
    return 1;
}

int main(int argc, char **argv)
{
    FILE *f = NULL;
    char line[16384];
    size_t cap = 0;
    long lineno = 0, ok = 0, unsolved = 0;
    int a = 1;
    if (a < argc && !strcmp(argv[a], "--rows"))
        rows = 1, a++;
    else if (a < argc && !strcmp(argv[a], "--square"))
        given = 1, a++;
    if (given ? argc != a : argc != a + 1 || !(f = fopen(argv[a], "r"))) {
        fprintf(stderr, "usage: verify_playfair [--rows] DICTIONARY < answers\n"
                        "       verify_playfair --square < answers\n");
        return 2;
    }
    while (!given && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!upper_word(line))
            continue;
        if (ndict == cap)
            dict = realloc(dict, (cap = cap ? 2 * cap : 1024) * sizeof *dict);
        dict[ndict++] = strdup(line);
    }
    if (!given) {
        fclose(f);
        qsort(dict, ndict, sizeof *dict, cmp);
    }
    while (fgets(line, sizeof line, stdin)) {
        char *ct = line, *key, *plain, *rest, want[8192], got[8192], words[8192];
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!(key = strchr(ct, '\t')) || !(plain = strchr(key + 1, '\t'))) {
            fprintf(stderr, "verify_playfair: line %ld: want CIPHERTEXT<TAB>KEYWORD<TAB>PLAINTEXT\n", lineno);
            return 1;
        }
        *key++ = 0, *plain++ = 0;
        if ((rest = strchr(plain, '\t')))
            *rest = 0;
        if (!strcmp(key, "-")) {
            unsolved++;
            continue;
        }
        if (!given && !known(key)) {
            fprintf(stderr, "verify_playfair: line %ld: keyword %s is not in the dictionary\n", lineno, key);
            return 1;
        }
        snprintf(words, sizeof words, "%s", plain);
        for (char *w = strtok(words, " "); !given && w; w = strtok(NULL, " "))
            if (!known(w)) {
                fprintf(stderr, "verify_playfair: line %ld: %s is not in the dictionary\n", lineno, w);
                return 1;
            }
        letters(ct, want);
        if (!encipher(key, plain, got)) {
            fprintf(stderr, "verify_playfair: line %ld: %s is not a square of 25 letters, or the text is odd\n",
                    lineno, key);
            return 1;
        }
        if (strcmp(got, want)) {
            fprintf(stderr, "verify_playfair: line %ld: '%s' under %s gives %s, not %s\n", lineno, plain,
                    key, got, want);
            return 1;
        }
        ok++;
    }
    printf("%ld verified, %ld unsolved\n", ok, unsolved);
    return 0;
}
