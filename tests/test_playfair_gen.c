/* The Playfair attack against generated messages and a reference solver.
 *
 * A generator with a fixed seed enciphers messages of random words under
 * random keywords, all drawn from a word list made from the system
 * dictionary (/usr/share/dict/words, Debian's wamerican): one-word messages,
 * messages with J, with doubled letters, of odd and even lengths.
 *
 * What "the reading is unique" means here: over every keyword of the
 * dictionary and every way of reading the deciphered letters as dictionary
 * words (with the inserted and padding X's the preparation rules allow),
 * take the readings with the fewest words; the reading is unique when they
 * all spell the same plaintext.  The reference below finds them by brute
 * force: for EVERY keyword it deciphers the text and runs a word-by-word
 * dynamic program that re-applies the preparation rules letter by letter,
 * sharing nothing with the library but the harness.  The crack must then
 * agree exactly: same fewest number of words, the same plaintext when the
 * reading is unique, the ambiguous flag exactly when it is not.  And a
 * unique reading must be the message: its words re-encipher to the
 * ciphertext under the keyword that made it. */
#include "harness.h"
#include <limits.h>
#include "sbfs/playfair.h"
#include "../src/playfair/pf_internal.h" /* the calls kept out of the public API */

#define DICT "/usr/share/dict/words"

/* ---- word lists ---------------------------------------------------------- */

typedef struct wl {
    char **w;
    size_t n;
} wl;

static int cmps(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The system list, letters A-Z only, upper case, sorted, no repeats. */
static int load_system(wl *d)
{
    FILE *f = fopen(DICT, "r");
    char line[512];
    size_t cap = 0, u = 0;
    d->w = NULL, d->n = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        size_t l = strcspn(line, "\r\n");
        int ok = l > 0;
        line[l] = 0;
        for (size_t i = 0; i < l && ok; i++) {
            if (line[i] >= 'a' && line[i] <= 'z')
                line[i] = (char)(line[i] - 32);
            else if (line[i] < 'A' || line[i] > 'Z')
                ok = 0;
        }
        if (!ok)
            continue;
        if (d->n == cap) {
            cap = cap ? 2 * cap : 1024;
            d->w = realloc(d->w, cap * sizeof *d->w);
        }
        d->w[d->n++] = strdup(line);
    }
    fclose(f);
    qsort(d->w, d->n, sizeof *d->w, cmps);
    for (size_t i = 0; i < d->n; i++) {
        if (u && !strcmp(d->w[u - 1], d->w[i]))
            free(d->w[i]);
        else
            d->w[u++] = d->w[i];
    }
    d->n = u;
    return 0;
}

static void wl_free(wl *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->w[i]);
    free(d->w);
}

static int in_list(const wl *d, const char *w)
{
    return bsearch(&w, d->w, d->n, sizeof *d->w, cmps) != NULL;
}

/* ---- the plain cipher (as in test_playfair.c, kept separate) ------------- */

static int ref_rows; /* 1: the textbook square, read by rows */

static void ref_matrix(const char *key, char m[26])
{
    char seq[26];
    int w, n = 0, seen[26] = {0};
    for (const char *p = key; *p; p++) {
        int c = *p == 'J' ? 'I' : *p;
        if (!seen[c - 'A']++)
            seq[n++] = (char)c;
    }
    w = n;
    for (int c = 'A'; c <= 'Z'; c++)
        if (c != 'J' && !seen[c - 'A'])
            seq[n++] = (char)c;
    if (ref_rows) {
        memcpy(m, seq, 25);
        m[25] = 0;
        return;
    }
    n = 0;
    for (int col = 0; col < w; col++)
        for (int row = 0; row * w + col < 25; row++)
            m[n++] = seq[row * w + col];
    m[25] = 0;
}

/* Prepared letters of text (no spaces). */
static void ref_prepare(const char *text, char *out)
{
    char l[8192];
    int n = 0, o = 0;
    for (const char *p = text; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            l[n++] = *p == 'J' ? 'I' : *p;
    for (int i = 0; i < n;) {
        out[o++] = l[i];
        if (i + 1 < n && l[i + 1] != l[i])
            out[o++] = l[i + 1], i += 2;
        else
            out[o++] = 'X', i += 1;
    }
    out[o] = 0;
}

/* Encipher (dir 1) or decipher (dir 4) letters in place. */
static void ref_apply(const char m[26], char *t, int dir)
{
    for (int i = 0; t[i]; i += 2) {
        int a = (int)(strchr(m, t[i]) - m), b = (int)(strchr(m, t[i + 1]) - m);
        int ra = a / 5, ca = a % 5, rb = b / 5, cb = b % 5;
        if (ra == rb)
            t[i] = m[ra * 5 + (ca + dir) % 5], t[i + 1] = m[rb * 5 + (cb + dir) % 5];
        else if (ca == cb)
            t[i] = m[(ra + dir) % 5 * 5 + ca], t[i + 1] = m[(rb + dir) % 5 * 5 + cb];
        else
            t[i] = m[ra * 5 + cb], t[i + 1] = m[rb * 5 + ca];
    }
}

/* Ciphertext letters of a message under a keyword. */
static void ref_encipher(const char *key, const char *msg, char *out)
{
    char m[26];
    ref_matrix(key, m);
    ref_prepare(msg, out);
    ref_apply(m, out, 1);
}

/* ---- the reference solver ------------------------------------------------- */

/* A 26-way trie of the dictionary's words as spelled (J kept). */
typedef struct rtrie {
    int (*next)[26];
    int *word; /* index of the word ending here, -1 if none */
    int n, cap;
} rtrie;

static void rt_init(rtrie *t, const wl *d)
{
    t->n = 1, t->cap = 1024;
    t->next = calloc((size_t)t->cap, sizeof *t->next);
    t->word = malloc((size_t)t->cap * sizeof *t->word);
    t->word[0] = -1;
    for (size_t i = 0; i < d->n; i++) {
        int at = 0;
        for (const char *p = d->w[i]; *p; p++) {
            int c = *p - 'A';
            if (!t->next[at][c]) {
                if (t->n == t->cap) {
                    t->cap *= 2;
                    t->next = realloc(t->next, (size_t)t->cap * sizeof *t->next);
                    t->word = realloc(t->word, (size_t)t->cap * sizeof *t->word);
                }
                memset(t->next[t->n], 0, sizeof *t->next);
                t->word[t->n] = -1;
                t->next[at][c] = t->n++;
            }
            at = t->next[at][c];
        }
        t->word[at] = (int)i;
    }
}

static void rt_free(rtrie *t)
{
    free(t->next);
    free(t->word);
}

/* The preparation as an automaton over the deciphered letters P (length n):
 * state 2*j + h, where j is the pair being built and h = 1 when its first
 * letter has come.  Feeding an original letter c either moves on or fails
 * (-1).  Given the message letters, the state sequence is forced: it is the
 * preparation rule run forward, matched against P. */
static int prep_step(const char *P, int n, int st, char c)
{
    int j = st / 2, h = st % 2;
    if (c == 'J')
        c = 'I';
    if (!h)
        return j < n && P[j] == c ? st + 1 : -1;
    if (c == P[j]) /* equal letters: X goes between, c begins the next pair */
        return P[j + 1] == 'X' && j + 2 < n && P[j + 2] == c ? 2 * (j + 2) + 1 : -1;
    return P[j + 1] == c ? 2 * (j + 2) : -1;
}

/* Does reading letter c in state st take an X of P that the preparation
 * may have inserted (second of a pair, before a repeat of the pair's first
 * letter or at the very end) as a letter of the message? */
static int ref_kept_x(const char *P, int n, int st, char c)
{
    int j = st / 2;
    return st % 2 && c == 'X' && P[j] != 'X' && P[j + 1] == 'X' && (j + 2 == n || P[j + 2] == P[j]);
}

/* Readings are ranked by words, then by the X's that could be fillers but
 * are read as letters (fewer first): cost = words * KX + those X's. */
#define KX 4096

static int prep_final(const char *P, int n, int st)
{
    return st == 2 * n || (st == 2 * (n - 2) + 1 && P[n - 1] == 'X');
}

typedef struct rsol {
    int words;  /* least cost (words * KX + kept X's), -1 if no reading */
    int ways;   /* readings with that many words, at most 2 */
    char *text; /* one of them */
} rsol;

/* Fewest-words readings of the deciphered letters P. */
static rsol ref_read(const rtrie *t, const wl *d, const char *P)
{
    int n = (int)strlen(P), S = 2 * n + 1;
    int *cost = malloc((size_t)S * sizeof *cost), *ways = malloc((size_t)S * sizeof *ways);
    int *from = malloc((size_t)S * sizeof *from), *wd = malloc((size_t)S * sizeof *wd);
    int stack[256][3];
    rsol r = {-1, 0, NULL};
    for (int s = 0; s < S; s++)
        cost[s] = 1 << 30, ways[s] = 0;
    cost[0] = 0, ways[0] = 1;
    /* states only move forward, so one pass in order of state does it */
    for (int s = 0; s < S; s++) {
        int sp = 0;
        if (cost[s] == 1 << 30)
            continue;
        stack[sp][0] = 0, stack[sp][1] = s, stack[sp][2] = 0, sp++;
        while (sp) { /* every word from boundary state s, depth first */
            int node, st, kx;
            sp--;
            node = stack[sp][0], st = stack[sp][1], kx = stack[sp][2];
            for (int c = 0; c < 26; c++) {
                int nx = t->next[node][c], ns, nk = kx + ref_kept_x(P, n, st, (char)('A' + c));
                if (!nx || (ns = prep_step(P, n, st, (char)('A' + c))) < 0)
                    continue;
                if (t->word[nx] >= 0) {
                    int nc = cost[s] + KX + nk;
                    if (nc < cost[ns])
                        cost[ns] = nc, ways[ns] = ways[s], from[ns] = s, wd[ns] = t->word[nx];
                    else if (nc == cost[ns])
                        ways[ns] = ways[ns] + ways[s] > 2 ? 2 : ways[ns] + ways[s];
                }
                if (sp < 256)
                    stack[sp][0] = nx, stack[sp][1] = ns, stack[sp][2] = nk, sp++;
            }
        }
    }
    for (int s = 0; s < S; s++) {
        if (!prep_final(P, n, s) || cost[s] == 1 << 30)
            continue;
        if (r.words < 0 || cost[s] < r.words) {
            r.words = cost[s], r.ways = ways[s];
            free(r.text);
            {
                size_t len = 0;
                char *o;
                for (int x = s; x; x = from[x])
                    len += strlen(d->w[wd[x]]) + 1;
                r.text = malloc(len + 1);
                r.text[0] = 0;
                o = r.text + (len ? len - 1 : 0);
                *o = 0;
                for (int x = s, first = 1; x; x = from[x], first = 0) {
                    size_t l = strlen(d->w[wd[x]]);
                    if (!first)
                        *--o = ' ';
                    o -= l;
                    memcpy(o, d->w[wd[x]], l);
                }
            }
        } else if (cost[s] == r.words) {
            r.ways = r.ways + ways[s] > 2 ? 2 : r.ways + ways[s];
        }
    }
    free(cost), free(ways), free(from), free(wd);
    return r;
}

typedef struct rans {
    int words, ambiguous; /* words = -1: no keyword explains the text */
    char *text;
    const char *key; /* the first keyword that reads it so (the crack reports the first) */
} rans;

/* Brute force over every keyword of d (but those whose matrix is skip). */
static rans ref_crack_but(const rtrie *t, const wl *d, const char *ct, const char *skip)
{
    rans a = {-1, 0, NULL, NULL};
    char m[26], P[8192];
    for (size_t k = 0; k < d->n; k++) {
        rsol r;
        ref_matrix(d->w[k], m);
        if (skip && !strcmp(m, skip))
            continue;
        strcpy(P, ct);
        ref_apply(m, P, 4);
        r = ref_read(t, d, P);
        if (r.words >= 0 && (a.words < 0 || r.words < a.words)) {
            free(a.text);
            a.words = r.words, a.ambiguous = r.ways > 1, a.text = r.text, a.key = d->w[k];
        } else {
            if (r.words >= 0 && r.words == a.words && (r.ways > 1 || strcmp(r.text, a.text)))
                a.ambiguous = 1;
            free(r.text);
        }
    }
    if (a.words >= 0) /* the words; the X's only ranked the readings */
        a.words /= KX;
    return a;
}

static rans ref_crack(const rtrie *t, const wl *d, const char *ct)
{
    return ref_crack_but(t, d, ct, NULL);
}

/* ---- the tests ----------------------------------------------------------- */

/* The letters word w covers in a deciphered text at most: its own, and an
 * X between each two equal letters (J is I there). */
static unsigned word_span(const char *w)
{
    unsigned sp = (unsigned)strlen(w);
    for (size_t k = 0; w[k] && w[k + 1]; k++)
        sp += pf_index(w[k]) == pf_index(w[k + 1]);
    return sp;
}

static int has_double(const char *w)
{
    for (int i = 0; w[i] && w[i + 1]; i++)
        if (w[i] == w[i + 1])
            return 1;
    return 0;
}

/* A message of nw words drawn from d, with a word of the wanted kind. */
static void draw(sb_rng *r, const wl *d, const wl *special, int nw, char *msg)
{
    int sp = special && special->n ? (int)sb_rng_below(r, (uint64_t)nw) : -1;
    msg[0] = 0;
    for (int j = 0; j < nw; j++) {
        const char *w = j == sp ? special->w[sb_rng_below(r, special->n)] : d->w[sb_rng_below(r, d->n)];
        if (j)
            strcat(msg, " ");
        strcat(msg, w);
    }
}

/* The screen before the search (attack.c, screen.c) only decides which
 * matrices are deciphered, never the answer: with no screen, the portable
 * one and the vector one (AVX-512, when this CPU has it), with one thread
 * or two, every answer must be the same.  The two screens compute the same
 * bounds, and with one thread the search visits the kept matrices in the
 * same order and lowers the later chunks' limit at the same point, so even
 * the search's counts must agree. */
static int same_result(const sb_playfair_result *a, int ra, const sb_playfair_result *b, int rb)
{
    return ra == rb && a->found == b->found && a->ambiguous == b->ambiguous && a->words == b->words &&
           !strcmp(a->keyword, b->keyword) && !strcmp(a->plaintext, b->plaintext);
}

static void test_against_reference(const wl *sys)
{
    wl d = {0}, jw = {0}, dw = {0};
    rtrie t;
    sb_rng r;
    sb_error e;
    sb_playfair *pf;
    int msgs = t_sanitized() ? 60 : 300, unique = 0, amb = 0, agree = 0, truth = 0, odd = 0,
        inserted = 0, with_j = 0, one_word = 0, nf = 0, screens_agree = 0;
    size_t want = 2000;
    sb_rng_seed(&r, 20260101);
    /* the dictionary: every single letter, 40 words with J, 40 with a
     * doubled letter, then random words, kept sorted */
    d.w = malloc((want + 26 + 80) * sizeof *d.w);
    for (size_t i = 0; i < sys->n; i++)
        if (!sys->w[i][1])
            d.w[d.n++] = strdup(sys->w[i]);
    while (d.n < want) {
        const char *w = sys->w[sb_rng_below(&r, sys->n)];
        size_t before = d.n;
        if (strlen(w) > 12)
            continue;
        if (d.n < 66 && !strchr(w, 'J'))
            continue;
        if (d.n >= 66 && d.n < 106 && !has_double(w))
            continue;
        for (size_t i = 0; i < d.n && before == d.n; i++)
            if (!strcmp(d.w[i], w))
                before = (size_t)-1;
        if (before == d.n)
            d.w[d.n++] = strdup(w);
    }
    qsort(d.w, d.n, sizeof *d.w, cmps);
    jw.w = malloc(d.n * sizeof *jw.w), dw.w = malloc(d.n * sizeof *dw.w);
    for (size_t i = 0; i < d.n; i++) {
        if (strchr(d.w[i], 'J'))
            jw.w[jw.n++] = d.w[i];
        if (has_double(d.w[i]))
            dw.w[dw.n++] = d.w[i];
    }
    rt_init(&t, &d);
    pf = sb_playfair_new((const char *const *)d.w, d.n, NULL, &e);
    CHECK(pf != NULL);
    for (int i = 0; pf && i < msgs; i++) {
        char msg[1024], ct[2048], prep[2048], again[2048];
        const char *key = d.w[sb_rng_below(&r, d.n)];
        /* kind 5: long messages (10 to 40 words), whose wrong matrices the
         * screen refutes window by window */
        int kind = i % 6, nw = kind == 0 ? 1 : kind == 5 ? 10 + (int)sb_rng_below(&r, 31) : 2 + (int)sb_rng_below(&r, 4),
            letters = 0;
        sb_playfair_result res;
        rans a;
        int rc;
        draw(&r, &d, kind == 1 ? &jw : kind == 2 ? &dw : NULL, nw, msg);
        ref_encipher(key, msg, ct);
        ref_prepare(msg, prep);
        for (const char *p = msg; *p; p++)
            letters += *p != ' ';
        odd += letters % 2;
        inserted += (int)strlen(prep) > letters + letters % 2;
        with_j += strchr(msg, 'J') != NULL;
        one_word += nw == 1;
        a = ref_crack(&t, &d, ct);
        for (int lv = SB_PLAYFAIR_SCREEN_OFF; lv <= SB_PLAYFAIR_SCREEN_SCALAR; lv++) {
            sb_playfair_result other;
            char text[2048];
            int orc;
            sb_playfair_screen(pf, lv);
            orc = sb_playfair_crack(pf, ct, NULL, &other, &e);
            snprintf(text, sizeof text, "%s", other.plaintext);
            other.plaintext = text;
            sb_playfair_screen(pf, SB_PLAYFAIR_SCREEN_VECTOR);
            rc = sb_playfair_crack(pf, ct, NULL, &res, &e);
            if (!same_result(&res, rc, &other, orc))
                fprintf(stderr, "message %d: screen %d reads '%s', the default '%s'\n", i, lv, text,
                        res.plaintext);
            screens_agree += same_result(&res, rc, &other, orc);
        }
        if (a.words < 0) { /* cannot happen: the message itself is a reading */
            nf++;
            continue;
        }
        if (rc == 0 && (int)res.words == a.words && res.ambiguous == a.ambiguous &&
            (a.ambiguous || (!strcmp(res.plaintext, a.text) && !strcmp(res.keyword, a.key))))
            agree++;
        else
            fprintf(stderr,
                    "message %d '%s' key %s: crack %d '%s' (%zu words%s, key %s), reference '%s' (%d%s, key %s)\n", i,
                    msg, key, rc, res.plaintext, res.words, res.ambiguous ? ", ambiguous" : "", res.keyword, a.text,
                    a.words, a.ambiguous ? ", ambiguous" : "", a.key ? a.key : "-");
        if (a.ambiguous) {
            amb++;
        } else {
            unique++;
            ref_encipher(key, res.plaintext, again);
            truth += !strcmp(again, ct);
        }
        free(a.text);
    }
    /* Short messages: a single two-letter word.  Many keywords read such a
     * pair as some two-letter word of the list, so the reading is not
     * unique and the crack must say so. */
    {
        int shorts = 0, flagged = 0, refamb = 0;
        for (size_t k = 0; pf && k < d.n && shorts < 6; k++) {
            char ct[64];
            sb_playfair_result res;
            rans a;
            if (strlen(d.w[k]) != 2 || d.w[k][0] == d.w[k][1])
                continue;
            ref_encipher(d.w[sb_rng_below(&r, d.n)], d.w[k], ct);
            a = ref_crack(&t, &d, ct);
            shorts++;
            refamb += a.ambiguous;
            flagged += sb_playfair_crack(pf, ct, NULL, &res, &e) == 0 && res.ambiguous && res.words == 1;
            free(a.text);
        }
        CHECK_INT(shorts, 6);
        CHECK_INT(refamb, 6);
        CHECK_INT(flagged, 6);
    }
    /* The same against the reference on row-read squares (a context of
     * its own): short and long messages. */
    {
        sb_playfair *pr = sb_playfair_new_square((const char *const *)d.w, d.n, SB_PLAYFAIR_ROWS, NULL, &e);
        int rmsgs = t_sanitized() ? 12 : 60, ragree = 0;
        CHECK(pr != NULL);
        ref_rows = 1;
        for (int i = 0; pr && i < rmsgs; i++) {
            char msg[1024], ct[2048];
            const char *key = d.w[sb_rng_below(&r, d.n)];
            int nw = i % 4 == 3 ? 10 + (int)sb_rng_below(&r, 21) : 1 + (int)sb_rng_below(&r, 5), rc;
            sb_playfair_result res;
            rans a;
            draw(&r, &d, i % 3 == 1 ? &dw : NULL, nw, msg);
            ref_encipher(key, msg, ct);
            a = ref_crack(&t, &d, ct);
            rc = sb_playfair_crack(pr, ct, NULL, &res, &e);
            if (rc == 0 && (int)res.words == a.words && res.ambiguous == a.ambiguous &&
                (a.ambiguous || !strcmp(res.plaintext, a.text)))
                ragree++;
            else
                fprintf(stderr, "rows: message %d '%s' key %s: crack '%s', reference '%s'\n", i, msg, key,
                        res.plaintext, a.text ? a.text : "");
            free(a.text);
        }
        ref_rows = 0;
        CHECK_INT(ragree, rmsgs);
        sb_playfair_free(pr);
    }
    CHECK_INT(nf, 0);
    CHECK_INT(agree, msgs);
    CHECK_INT(screens_agree, 2 * msgs);
    CHECK_INT(unique + amb, msgs);
    CHECK_INT(truth, unique);
    /* the generator did make the hard cases */
    CHECK(one_word > 0 && with_j > 0 && inserted > 0 && odd > 0);
    fprintf(stderr, "reference: %d messages (%d one-word, %d with J, %d with an inserted X, %d odd), "
                    "%d unique, %d ambiguous, dictionary %zu words\n",
            msgs, one_word, with_j, inserted, odd, unique, amb, d.n);
    sb_playfair_free(pf);
    rt_free(&t);
    free(jw.w), free(dw.w);
    wl_free(&d);
}

/* Every word of the answer in the list; enciphering it again under the true
 * keyword gives the ciphertext; no more words than the message had. */
static void test_full_dictionary(const wl *sys)
{
    sb_error e;
    sb_rng r;
    sb_playfair_result res;
    sb_playfair *pf = sb_playfair_new((const char *const *)sys->w, sys->n, NULL, &e);
    int msgs = t_sanitized() ? 8 : 40, ok = 0, amb = 0;
    CHECK(pf != NULL);
    if (!pf)
        return;
    {
        unsigned span = 0; /* COUNTERREVOLUTIONARIES and the X between its RR */
        for (size_t i = 0; i < sys->n; i++)
            span = word_span(sys->w[i]) > span ? word_span(sys->w[i]) : span;
        CHECK_INT(sb_playfair_span(pf), span);
    }
    /* the seed's example */
    CHECK_INT(sb_playfair_crack(pf, "HW UY RF UL UQ YL QL AE FK DG EO", NULL, &res, &e), 0);
    CHECK_STR(res.keyword, "CRYPTOGRAM");
    CHECK_STR(res.plaintext, "THE SCHEME REALLY WORKS");
    CHECK_INT(res.ambiguous, 0);
    sb_rng_seed(&r, 1999);
    for (int i = 0; i < msgs; i++) {
        char msg[512], ct[1024], again[1024], words[512];
        const char *key = sys->w[sb_rng_below(&r, sys->n)];
        int nw = 1 + (int)sb_rng_below(&r, 6), good = 1, count = 0;
        draw(&r, sys, NULL, nw, msg);
        ref_encipher(key, msg, ct);
        if (sb_playfair_crack(pf, ct, NULL, &res, &e) != 0) {
            fprintf(stderr, "full dictionary: '%s' not cracked\n", msg);
            continue;
        }
        if (res.ambiguous) {
            amb++, ok += (int)res.words <= nw;
            continue;
        }
        strcpy(words, res.plaintext);
        for (char *w = strtok(words, " "); w; w = strtok(NULL, " "))
            good &= in_list(sys, w), count++;
        ref_encipher(key, res.plaintext, again);
        good &= !strcmp(again, ct) && count == (int)res.words && count <= nw;
        if (!good)
            fprintf(stderr, "full dictionary: '%s' (key %s) read as '%s' (key %s)\n", msg, key,
                    res.plaintext, res.keyword);
        ok += good;
    }
    CHECK_INT(ok, msgs);
    fprintf(stderr, "full dictionary: %d messages, %d ambiguous, %zu words, %zu matrices\n", msgs, amb,
            sys->n, sb_playfair_matrices(pf));
    sb_playfair_free(pf);
}

static void test_screens(const wl *sys)
{
    sb_error e;
    sb_rng r;
    sb_playfair *pf = sb_playfair_new((const char *const *)sys->w, sys->n, NULL, &e);
    int msgs = t_sanitized() ? 6 : 40, same = 0, counts = 0, vector;
    CHECK(pf != NULL);
    if (!pf)
        return;
    vector = sb_playfair_screen(pf, SB_PLAYFAIR_SCREEN_VECTOR) == SB_PLAYFAIR_SCREEN_VECTOR;
    sb_rng_seed(&r, 4242);
    for (int i = 0; i < msgs; i++) {
        char msg[1024], ct[2048];
        const char *key = sys->w[sb_rng_below(&r, sys->n)];
        /* one to twelve words: 16, 32 and 64 letters and beyond; every
         * fourth message 13 to 40 words, several windows of 64 letters */
        int nw = i % 4 == 3 ? 13 + (int)sb_rng_below(&r, 28) : 1 + (int)sb_rng_below(&r, 12), rc[5], agree = 1;
        sb_playfair_result res[5];
        char text[5][2048], kw[5][64];
        draw(&r, sys, NULL, nw, msg);
        ref_encipher(key, msg, ct);
        /* none, scalar and vector with two threads, then with one */
        for (int lv = 0; lv < 5; lv++) {
            sb_playfair_screen(pf, lv < 3 ? lv : lv - 2);
            sb_playfair_threads(pf, lv < 3 ? 2 : 1);
            rc[lv] = sb_playfair_crack(pf, ct, NULL, &res[lv], &e);
            snprintf(text[lv], sizeof text[lv], "%s", res[lv].plaintext);
            snprintf(kw[lv], sizeof kw[lv], "%s", res[lv].keyword);
            res[lv].plaintext = text[lv], res[lv].keyword = kw[lv];
            agree &= same_result(&res[0], rc[0], &res[lv], rc[lv]);
        }
        if (agree)
            same++;
        else
            fprintf(stderr, "screens: '%s' read as '%s' / '%s' / '%s' / '%s' / '%s'\n", msg, text[0], text[1],
                    text[2], text[3], text[4]);
        /* with two threads the counts depend on when the answer turned up
         * (attack.c: glim) */
        counts += res[3].pairs == res[4].pairs && res[3].parsed == res[4].parsed;
    }
    CHECK_INT(same, msgs);
    if (vector)
        CHECK_INT(counts, msgs);
    fprintf(stderr, "screens: %d messages, none / scalar / %s screen, one and two threads agree\n", msgs,
            vector ? "AVX-512" : "(no AVX-512 here: scalar)");
    sb_playfair_free(pf);
}

/* ---- the screen's bounds against a plain count --------------------------- */

/* The screen (screen.c) bounds a matrix's words by the bad trigrams of its
 * deciphered letters, window of PF_WIN letters after window, and keeps
 * each matrix's bound and windows between looks.  Here every bound it
 * leaves is compared with a count done the plain way: decipher with
 * ref_apply, mark each trigram whose classes (pf_tri_code, pf_tri_ycode)
 * are those of no trigram inside a word (skipping those around an X the
 * preparation may have inserted), find the fewest boundaries that
 * hit them all by dynamic programming (ref_window, with the boundaries the
 * pairs that end or begin no word force), add up the windows, and follow
 * the first look's groups of sixteen (ref_first; 90 matrices, so the last
 * group holds ten).  The limit rises as the search's does (joins), so that
 * looks resume from windows already seen, at every level the CPU has;
 * texts of 2 to 1,400 letters reach the 16 letter first look, partial last
 * windows and the cap of PF_WINS windows. */

typedef struct scr_ref {
    unsigned char good[16][16][16]; /* by the classes of a first, second and
                                       third letter (pf_tri_code, pf_tri_ycode):
                                       some trigram of theirs is inside some
                                       word (J as I) */
    unsigned char ends[25][25];     /* pair that ends some word */
    unsigned char begins[25][25];   /* pair that begins some word */
} scr_ref;

/* Word w into the screen's tables (and into sr's, when given). */
static void scr_addword(uint8_t *tri, scr_ref *sr, const char *w)
{
    uint8_t x[256] = {0};
    size_t n = strlen(w);
    for (size_t k = 0; k < n; k++)
        x[k] = (uint8_t)pf_index(w[k]);
    pf_screen_addword(tri, x, n);
    for (size_t k = 0; sr && k + 2 < n; k++)
        sr->good[pf_tri_code[x[k]] >> 4][pf_tri_ycode[x[k + 1]]][pf_tri_code[x[k + 2]] & 15] = 1;
    if (sr && n >= 2)
        sr->ends[x[n - 2]][x[n - 1]] = 1, sr->begins[x[0]][x[1]] = 1;
}

/* The fewest boundaries window j (letters PF_WIN j ..) of deciphered P
 * needs, by dynamic programming over the places between its letters, each
 * with a boundary or not: every bad trigram needs one of its two places,
 * one whose first two letters end no word needs the first of them (else a
 * word would end with those two), one whose last two begin no word the
 * second. */
static unsigned ref_window(const scr_ref *sr, const char *P, size_t n, size_t j)
{
    size_t o = PF_WIN * j, L = n - o < PF_WIN ? n - o : PF_WIN;
    unsigned best[2] = {0, 1}; /* by whether the place before letter k has a boundary */
    if (L < 3)
        return 0;
    for (size_t k = 2; k < L; k++) { /* now choose the place before letter k */
        unsigned next[2] = {UINT_MAX, UINT_MAX};
        int skip = 0, bad, left, right;
        /* an X at odd place i that may be inserted spoils the trigrams holding it */
        for (size_t i = k - 2; i <= k; i++)
            if (i % 2 == 1 && P[o + i] == 'X' && (i + 1 == L || P[o + i + 1] == P[o + i - 1]))
                skip = 1;
        bad = !skip && !sr->good[pf_tri_code[pf_index(P[o + k - 2])] >> 4][pf_tri_ycode[pf_index(P[o + k - 1])]]
                                [pf_tri_code[pf_index(P[o + k])] & 15];
        left = bad && !sr->ends[pf_index(P[o + k - 2])][pf_index(P[o + k - 1])];
        right = bad && !sr->begins[pf_index(P[o + k - 1])][pf_index(P[o + k])];
        for (int prev = 0; prev < 2; prev++)
            for (int here = 0; here < 2; here++) {
                if (best[prev] == UINT_MAX || (bad && !prev && !here) || (left && !prev) || (right && !here))
                    continue;
                if (best[prev] + (unsigned)here < next[here])
                    next[here] = best[prev] + (unsigned)here;
            }
        best[0] = next[0], best[1] = next[1];
    }
    return best[0] < best[1] ? best[0] : best[1];
}

/* Words that must begin among the letters of a text of n after the first
 * read: counted plainly, one for every span + 1 letters (span: the most
 * letters a word covers). */
static unsigned ref_rest(size_t n, size_t read, unsigned span)
{
    unsigned m = 0;
    for (size_t left = read < n ? n - read : 0; left >= span + 1; left -= span + 1)
        m++;
    return m;
}

/* The windows the first look at limit g reads of each of nmat matrices
 * (their counts h[]) into first[]: when it reads 32 letters, sixteen
 * matrices at a time take the next window while at least PF_GROUP_ON of
 * them need it; else one. */
static void ref_first(unsigned (*h)[PF_WINS], size_t nmat, unsigned W, unsigned g, size_t n, unsigned span,
                      unsigned *first)
{
    for (size_t m0 = 0; m0 < nmat; m0 += 16) {
        size_t m1 = m0 + 16 < nmat ? m0 + 16 : nmat;
        unsigned j = 1;
        if (g > 3 && n > 16) /* a first look at 32 letters */
            for (; j < W; j++) {
                unsigned need = 0;
                for (size_t m = m0; m < m1; m++) {
                    unsigned b = 1 + ref_rest(n, PF_WIN * j, span);
                    for (unsigned i = 0; i < j; i++)
                        b += h[m][i];
                    need += b <= g;
                }
                if (need < PF_GROUP_ON)
                    break;
            }
        for (size_t m = m0; m < m1; m++)
            first[m] = j;
    }
}

/* Check matrix m's state after a look at limit g: lower and seen agree with
 * the plain counts h[] and the words the letters not read must hold, and
 * the look stopped exactly when it should: after the first look's windows
 * (first), each window read was needed. */
static int scr_state_ok(const unsigned *h, unsigned W, unsigned g, unsigned lower, unsigned seen, size_t n,
                        unsigned span, unsigned first)
{
    unsigned b = 1;
    if (seen == 0) /* a first look at 16 letters of a longer text: no more than window 0 */
        return lower >= 1 && lower <= 1 + h[0] + ref_rest(n, 16, span);
    if (seen < first)
        return 0;
    for (unsigned j = 0; j + 1 < seen; j++)
        b += h[j];
    if (seen > first && b + ref_rest(n, PF_WIN * (seen - 1), span) > g) /* it looked at a window it did not need */
        return 0;
    b += h[seen - 1] + ref_rest(n, PF_WIN * seen, span);
    return lower == (b > 255 ? 255 : b) && (seen == W || b > g) && seen <= W;
}

/* One screening of s at level: the first look at every matrix (gprev 0),
 * or the matrices whose bound lies in (gprev, s->g] joining and looking
 * further, as the search does when its limit rises.  Returns the matrices
 * kept (s->alive), *least the least bound of the others; *resumed counts
 * the joining ones that go on from windows already seen. */
static size_t screen_step(pf_screen *s, int level, unsigned gprev, unsigned *least, int *resumed)
{
    unsigned g = s->g, l2;
    size_t nk;
    pf_screen_prepare(s, level);
    if (!gprev)
        return pf_screen_run(s, level, least);
    s->g = g < 255 ? g : 255;
    nk = pf_screen_join(s, level, gprev < 255 ? gprev : 255, &l2);
    for (size_t k = 0; k < nk; k++)
        *resumed += s->seen[s->alive[k]] > 0;
    s->g = g, *least = UINT_MAX;
    return pf_screen_more(s, level, nk, least);
}

static void test_screen_bounds(const wl *sys)
{
    enum { NMAT = 90, TEXTS = 60 };
    static scr_ref sr;
    uint8_t *tri = calloc(1, PF_TRI_BYTES), *rec = aligned_alloc(64, 64 * (NMAT + 16));
    uint8_t lower[2][NMAT + 1], seen[2][NMAT + 1], cell[25], ct[2900];
    uint32_t alive[2][NMAT + 16];
    char mats[NMAT][26], msg[3000], cts[3000], P[3000];
    void *work = malloc(PF_SCREEN_WORK);
    int levels = pf_screen_level() == PF_SCREEN_AVX512 ? 2 : 1, checked = 0, bad = 0, resumed = 0, rested = 0;
    int grouped = 0;
    unsigned span = 0;
    sb_rng r;
    memset(&sr, 0, sizeof sr);
    memset(rec, 0, 64 * (NMAT + 16));
    for (size_t i = 0; i < sys->n; i++) {
        const char *w = sys->w[i];
        span = word_span(w) > span ? word_span(w) : span;
        scr_addword(tri, &sr, w);
    }
    sb_rng_seed(&r, 3232);
    for (int m = 0; m < NMAT; m++) {
        const char *key = sys->w[sb_rng_below(&r, sys->n)];
        ref_matrix(key, mats[m]);
        CHECK_INT(pf_matrix_idx(key, cell, NULL), 0);
        pf_screen_record(cell, rec + 64 * m);
    }
    for (int t = 0; t < TEXTS; t++) {
        size_t n;
        unsigned W, g, gprev = 0, h[NMAT][PF_WINS], least[2], first[NMAT];
        /* a message under one of the matrices, or letters at random */
        if (t % 3 != 2) {
            int nw = t % 5 == 0 ? 1 + (int)sb_rng_below(&r, 3) : 1 + (int)sb_rng_below(&r, 150);
            draw(&r, sys, NULL, nw, msg);
            if (strlen(msg) > 1300)
                msg[1300] = 0;
            ref_prepare(msg, cts);
            ref_apply(mats[sb_rng_below(&r, NMAT)], cts, 1);
        } else {
            size_t len = 2 + 2 * sb_rng_below(&r, 400);
            for (size_t i = 0; i < len; i += 2) {
                cts[i] = "ABCDEFGHIKLMNOPQRSTUVWXYZ"[sb_rng_below(&r, 25)];
                do
                    cts[i + 1] = "ABCDEFGHIKLMNOPQRSTUVWXYZ"[sb_rng_below(&r, 25)];
                while (cts[i + 1] == cts[i]);
            }
            cts[len] = 0;
        }
        n = strlen(cts);
        for (size_t i = 0; i < n; i++)
            ct[i] = (uint8_t)pf_index(cts[i]);
        W = (unsigned)((n + PF_WIN - 1) / PF_WIN < PF_WINS ? (n + PF_WIN - 1) / PF_WIN : PF_WINS);
        for (int m = 0; m < NMAT; m++) {
            strcpy(P, cts);
            ref_apply(mats[m], P, 4);
            for (unsigned j = 0; j < W; j++)
                h[m][j] = ref_window(&sr, P, n, j);
        }
        /* the first look at a limit of 1 to 40 words, then higher limits */
        g = 1 + (unsigned)sb_rng_below(&r, 40);
        ref_first(h, NMAT, W, g, n, span, first);
        for (int m = 0; m < NMAT; m++)
            grouped += first[m] > 1;
        for (int step = 0; step < 4; step++) {
            size_t nk[2] = {0, 0};
            for (int lv = 0; lv < levels; lv++) {
                pf_screen s = {rec, NMAT, tri, ct, n, g, alive[lv], lower[lv], work, seen[lv], span, {0}};
                nk[lv] = screen_step(&s, lv ? PF_SCREEN_AVX512 : PF_SCREEN_SCALAR, step ? gprev : 0, &least[lv],
                                     &resumed);
            }
            for (int lv = 0; lv < levels; lv++) {
                unsigned lo = UINT_MAX;
                size_t k = 0;
                for (int m = 0; m < NMAT; m++, checked++) {
                    int ok = scr_state_ok(h[m], W, g, lower[lv][m], seen[lv][m], n, span, first[m]);
                    rested += seen[lv][m] > 0 && ref_rest(n, PF_WIN * seen[lv][m], span) > 0;
                    if (lower[lv][m] <= g) { /* kept, in order; only kept ones may be at most g */
                        if (step == 0)
                            ok &= k < nk[lv] && alive[lv][k++] == (uint32_t)m;
                    } else if (step == 0 && lower[lv][m] < lo)
                        lo = lower[lv][m];
                    if (!ok && bad++ < 5)
                        fprintf(stderr, "screen bounds: level %d, text %d (%zu letters), limit %u, matrix %d: "
                                        "bound %u after %u windows\n",
                                lv, t, n, g, m, lower[lv][m], seen[lv][m]);
                }
                if (step == 0) {
                    CHECK(k == nk[lv]);
                    CHECK_INT(least[lv], lo);
                }
            }
            if (levels == 2) {
                CHECK(nk[0] == nk[1] && !memcmp(alive[0], alive[1], nk[0] * sizeof **alive));
                CHECK(!memcmp(lower[0], lower[1], NMAT) && !memcmp(seen[0], seen[1], NMAT));
                CHECK_INT(least[0], least[1]);
            }
            gprev = g, g += 1 + (unsigned)sb_rng_below(&r, 8);
        }
    }
    CHECK_INT(bad, 0);
    CHECK(resumed > 0);
    CHECK(rested > 0);
    CHECK(grouped > 0);
    fprintf(stderr, "screen bounds: %d matrix states checked (%d looks resumed, %d first looks of more than one "
                    "window), %s\n", checked, resumed, grouped,
            levels == 2 ? "scalar and AVX-512 alike" : "scalar (no AVX-512 here)");
    free(tri), free(rec), free(work);
}

/* The screen's bound of one matrix, that of the reading P (its fewest
 * words: W), after a first look and the windows that follow at limits
 * around W, on every screen this CPU has: it must never pass W (255 stands
 * for 255 or more), the matrix must be kept once the limit reaches W, and
 * the screens must agree.  Returns the looks whose bound met W. */
/* One matrix to screen: key's record into rec (17 records: the vector
 * screen reads 16 past the last), ct's letters as indexes into ctv. */
static void one_matrix(const char *key, const char *ct, uint8_t *rec, uint8_t *ctv)
{
    uint8_t cell[25];
    memset(rec, 0, 64 * 17);
    CHECK_INT(pf_matrix_idx(key, cell, NULL), 0);
    pf_screen_record(cell, rec);
    for (size_t i = 0; ct[i]; i++)
        ctv[i] = (uint8_t)pf_index(ct[i]);
}

static int screen_sound(const uint8_t *tri, const char *key, unsigned span, const char *ct, unsigned W, int *bad)
{
    static uint8_t rec[64 * 17] __attribute__((aligned(64))), lower[2][32], seen[2][32], ctv[16384];
    static uint32_t alive[2][32];
    static char work[PF_SCREEN_WORK];
    int levels = pf_screen_level() == PF_SCREEN_AVX512 ? 2 : 1, met = 0;
    unsigned cap = W < 255 ? W : 255, lim[6] = {1, W / 2, W > 1 ? W - 1 : 1, W, W + 1, 300};
    size_t n = strlen(ct), nk[2];
    one_matrix(key, ct, rec, ctv);
    for (int l = 0; l < 6; l++) {
        unsigned least[2];
        for (int lv = 0; lv < levels; lv++) {
            pf_screen sc = {rec, 1, tri, ctv, n, lim[l], alive[lv], lower[lv], work, seen[lv], span, {0}};
            pf_screen_prepare(&sc, lv ? PF_SCREEN_AVX512 : PF_SCREEN_SCALAR);
            nk[lv] = pf_screen_run(&sc, lv ? PF_SCREEN_AVX512 : PF_SCREEN_SCALAR, &least[lv]);
            if ((lower[lv][0] > cap || (lim[l] >= cap && nk[lv] != 1)) && (*bad)++ < 5)
                fprintf(stderr, "rest: key %s, %zu letters read in %u words: screen %d at limit %u gives %u after "
                                "%u windows%s\n", key, n, W, lv, lim[l], lower[lv][0], seen[lv][0],
                        nk[lv] ? "" : ", screened out");
            met += lower[lv][0] == cap;
        }
        if (levels == 2 && (nk[0] != nk[1] || lower[0][0] != lower[1][0] || seen[0][0] != seen[1][0] ||
                            least[0] != least[1]) && (*bad)++ < 5)
            fprintf(stderr, "rest: key %s, %zu letters: the screens disagree at limit %u\n", key, n, lim[l]);
    }
    return met;
}

/* Every matrix's screen bound against its own reading's fewest words: the
 * distinct matrices of all of d's keywords screened at once (two or four a
 * register, so that a bit crossing from one matrix's lanes into another's
 * would show), at limits from 1 to 255 and after a join to a higher one,
 * on every screen this CPU has, which must agree.  A bound may exceed the
 * words only where no reading exists.  Returns the bounds checked against
 * a reading. */
static int screen_all_sound(const uint8_t *tri, const wl *d, const rtrie *rt, unsigned span, const char *ct, int *bad)
{
    enum { MAXM = 64 };
    static uint8_t rec[64 * (MAXM + 16)] __attribute__((aligned(64))), lower[2][MAXM + 1], seen[2][MAXM + 1],
        ctv[16384];
    static uint32_t alive[2][MAXM + 16];
    static char work[PF_SCREEN_WORK], mats[MAXM][26], P[16384];
    static const unsigned lim[] = {1, 2, 3, 4, 5, 6, 8, 12, 20, 40, 255};
    int levels = pf_screen_level() == PF_SCREEN_AVX512 ? 2 : 1, checked = 0, fewest[MAXM];
    size_t n = strlen(ct), nm = 0;
    uint8_t cell[25];
    memset(rec, 0, sizeof rec);
    for (size_t k = 0; k < d->n && nm < MAXM; k++) {
        size_t j = 0;
        ref_matrix(d->w[k], mats[nm]);
        while (j < nm && strcmp(mats[j], mats[nm]))
            j++;
        if (j < nm)
            continue;
        CHECK_INT(pf_matrix_idx(d->w[k], cell, NULL), 0);
        pf_screen_record(cell, rec + 64 * nm);
        strcpy(P, ct);
        ref_apply(mats[nm], P, 4);
        {
            rsol rs = ref_read(rt, d, P);
            fewest[nm] = rs.words < 0 ? -1 : rs.words / KX;
            free(rs.text);
        }
        nm++;
    }
    for (size_t i = 0; i < n; i++)
        ctv[i] = (uint8_t)pf_index(ct[i]);
    for (size_t l = 0; l < sizeof lim / sizeof *lim; l++) {
        size_t nk[2] = {0, 0};
        unsigned least[2] = {0, 0};
        for (int step = 0; step < 2; step++) {
            unsigned g = step ? lim[l] + 1 + lim[l] / 2 : lim[l];
            for (int lv = 0; lv < levels; lv++) {
                pf_screen sc = {rec, nm, tri, ctv, n, g, alive[lv], lower[lv], work, seen[lv], span, {0}};
                int resumed = 0;
                nk[lv] = screen_step(&sc, lv ? PF_SCREEN_AVX512 : PF_SCREEN_SCALAR, step ? lim[l] : 0, &least[lv],
                                     &resumed);
                for (size_t m = 0; m < nm; m++) {
                    unsigned cap = fewest[m] < 255 ? (unsigned)fewest[m] : 255;
                    if (fewest[m] < 0)
                        continue;
                    checked++;
                    if (lower[lv][m] > cap && (*bad)++ < 5)
                        fprintf(stderr, "all matrices: keyword matrix %s, %zu letters read in %d words: screen %d at "
                                        "limit %u gives %u after %u windows\n",
                                mats[m], n, fewest[m], lv, g, lower[lv][m], seen[lv][m]);
                }
            }
            if (levels == 2 && (nk[0] != nk[1] || memcmp(alive[0], alive[1], nk[0] * sizeof **alive) ||
                                memcmp(lower[0], lower[1], nm) || memcmp(seen[0], seen[1], nm) ||
                                least[0] != least[1]) && (*bad)++ < 5)
                fprintf(stderr, "all matrices: %zu letters: the screens disagree at limit %u\n", n, g);
        }
    }
    return checked;
}

/* Crack ct with pf and with the reference over d: 1 if they agree on the
 * words, the ambiguous flag and (when unique) the reading; else says so
 * (the first few times, counted in *told) under the test's name `tag`. */
static int crack_agrees(sb_playfair *pf, const rtrie *rt, const wl *d, const char *ct, const char *msg,
                        const char *key, const char *tag, int *told)
{
    sb_playfair_result res;
    sb_error e;
    rans a = ref_crack(rt, d, ct);
    int rc = sb_playfair_crack(pf, ct, NULL, &res, &e),
        ok = rc == 0 && a.words >= 0 && (int)res.words == a.words && res.ambiguous == a.ambiguous &&
             (a.ambiguous || !strcmp(res.plaintext, a.text));
    if (!ok && (*told)++ < 5)
        fprintf(stderr, "%s: message '%s' key %s: crack %d '%s' (%zu words%s), reference '%s' (%d%s)\n", tag, msg,
                key, rc, rc == 0 ? res.plaintext : "", rc == 0 ? res.words : 0,
                rc == 0 && res.ambiguous ? ", ambiguous" : "", a.text ? a.text : "", a.words,
                a.ambiguous ? ", ambiguous" : "");
    free(a.text);
    return ok;
}

/* The screen's count of the letters not read (pf_screen_rest): every span
 * + 1 letters hold a word start, span being the most letters a word covers
 * (its own and an X between each two equal letters).  That count is only
 * sound if no reading packs its words closer, and it is tight for a word
 * of the longest span that begins and ends with the same letter, repeated:
 * an X then stands between each two, so every span + 1 letters hold
 * exactly one word.  Over small dictionaries of words in the letters A, B
 * and C (so that doubled letters and such words are common), the count
 * from every place of a text must not pass the fewest words the reference
 * finds, and must meet it on those repetitions; and the crack, whose
 * screen uses it, must agree with the reference on messages of them. */
/* The two screens leave the same state however high the limit and however
 * many matrices a call screens: more than one block of 1,024 in a look,
 * and limits of 255 or more, where the bounds are kept at most 255 and a
 * look goes on from lower[] less the rest (a count carried from window to
 * window must be taken back the same way: it differs when the rest falls
 * by more than a window adds).  Random key squares, the system list's
 * tables, random letters of 1,000 to 2,000 (so that bounds pass 255), a
 * span of 1 to 8 letters a word (so that the rest falls by 4 to 16 words a
 * window), the first look and then two joins at higher limits. */
static void test_screen_levels(const wl *sys)
{
    enum { NMAT = 1100, TEXTS = 8 };
    uint8_t *tri = calloc(1, PF_TRI_BYTES), *rec = aligned_alloc(64, 64 * (NMAT + 16));
    uint8_t *lower[2] = {malloc(NMAT + 1), malloc(NMAT + 1)}, *seen[2] = {malloc(NMAT + 1), malloc(NMAT + 1)};
    uint32_t *alive[2] = {malloc(4 * (NMAT + 16)), malloc(4 * (NMAT + 16))};
    uint8_t ct[2000], cell[25];
    void *work = malloc(PF_SCREEN_WORK);
    int compared = 0, high = 0, resumed = 0;
    sb_rng r;
    if (pf_screen_level() != PF_SCREEN_AVX512) {
        fprintf(stderr, "screen levels: no AVX-512 here, nothing to compare\n");
        free(tri), free(rec), free(work), free(lower[0]), free(lower[1]), free(seen[0]), free(seen[1]);
        free(alive[0]), free(alive[1]);
        return;
    }
    memset(rec, 0, 64 * (NMAT + 16));
    for (size_t i = 0; i < sys->n; i++)
        scr_addword(tri, NULL, sys->w[i]);
    sb_rng_seed(&r, 2525);
    for (int m = 0; m < NMAT; m++) {
        for (int c = 0; c < 25; c++)
            cell[c] = (uint8_t)c;
        for (int c = 24; c > 0; c--) {
            int e = (int)sb_rng_below(&r, (uint64_t)c + 1);
            uint8_t x = cell[c];
            cell[c] = cell[e], cell[e] = x;
        }
        pf_screen_record(cell, rec + 64 * m);
    }
    for (int t = 0; t < TEXTS; t++) {
        size_t n = 1000 + 2 * sb_rng_below(&r, 500);
        unsigned g = t % 2 ? 1 + (unsigned)sb_rng_below(&r, 60) : 240 + (unsigned)sb_rng_below(&r, 40), gprev = 0;
        unsigned span = 1 + (unsigned)sb_rng_below(&r, 8);
        for (size_t i = 0; i < n; i += 2) { /* one pair in 16 doubled, as a message's X X enciphers */
            ct[i] = (uint8_t)sb_rng_below(&r, 25);
            if (sb_rng_below(&r, 16) == 0)
                ct[i + 1] = ct[i];
            else
                do
                    ct[i + 1] = (uint8_t)sb_rng_below(&r, 25);
                while (ct[i + 1] == ct[i]);
        }
        for (int step = 0; step < 3; step++) {
            size_t nk[2];
            unsigned least[2];
            for (int lv = 0; lv < 2; lv++) {
                pf_screen sc = {rec, NMAT, tri, ct, n, g, alive[lv], lower[lv], work, seen[lv], span, {0}};
                nk[lv] = screen_step(&sc, lv ? PF_SCREEN_AVX512 : PF_SCREEN_SCALAR, gprev, &least[lv], &resumed);
            }
            CHECK(nk[0] == nk[1] && !memcmp(alive[0], alive[1], nk[0] * sizeof **alive));
            CHECK(!memcmp(lower[0], lower[1], NMAT) && !memcmp(seen[0], seen[1], NMAT));
            CHECK_INT(least[0], least[1]);
            compared++;
            for (int m = 0; m < NMAT; m++)
                high += lower[0][m] == 255;
            gprev = g, g += 1 + (unsigned)sb_rng_below(&r, 30);
        }
    }
    CHECK(high > 0);
    fprintf(stderr, "screen levels: %d screenings of %d matrices alike on both screens (%d bounds at 255)\n",
            compared, NMAT, high);
    free(tri), free(rec), free(work), free(lower[0]), free(lower[1]), free(seen[0]), free(seen[1]);
    free(alive[0]), free(alive[1]);
}

static void test_rest_bound(void)
{
    int dicts = t_sanitized() ? 8 : 30, checked = 0, bad = 0, ties = 0, tight = 0, agree = 0, msgs = 0,
        sbad = 0, smet = 0, long_rest = 0, told = 0;
    static char msg[8192], prep[16384], ct[16384];
    sb_rng r;
    {
        /* Each boundary of these readings is a bad trigram, and a look ends
         * on a filler X, which it must take as one that may vanish: between
         * two words (CDE EX EC: the bad trigram before it would stand for
         * the word after it, which the rest counts too), or inside a word
         * (FGHHI as FG HX HI: its trigram GHX would stand for no boundary).
         * Then a message that the crack answered with 30 words under SR for
         * 29 under CDE, its key's bound 31. */
        static const char *const words[] = {"QR", "WY", "ST", "TS", "MN", "KL", "ZA", "UV", "BD",  "PO",
                                            "RQ", "LK", "OP", "NM", "FGHHI", "CDE", "SR", "MVVO", "EKKE", "UGVO",
                                            "SY", "PM", "KE", "DK", "XW", "WR", "RL", "ZV", "ZD", "UG",
                                            "VM", "YS", "DZ", "FGA", "ABA"};
        static const struct {
            const char *msg;
            unsigned words, x;
        } at[] = {{"KL MN CDE CDE CDE CDE CDE CDE CDE CDE FGA ABA", 12, 31},
                  {"KL MN KL MN KL MN KL MN KL MN KL MN KL MN FGHHI", 15, 31},
                  {"KL MN KL MN KL MN FGHHI", 7, 15}};
        wl d = {0};
        rtrie rt;
        sb_error e;
        sb_playfair *pf;
        sb_playfair_result res;
        rans a;
        uint8_t *tri = calloc(1, PF_TRI_BYTES);
        const char *ct29 = "DBDSPWWPYCDSGOTKWPGOFMRQFMFMEKXPRXWPVHYCTKBDOGVHYCOGRQHVHVTKEKXPRX";
        d.w = malloc(sizeof words / sizeof *words * sizeof *d.w);
        for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
            d.w[d.n++] = strdup(words[k]);
            scr_addword(tri, NULL, words[k]);
        }
        for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
            ref_encipher("CDE", at[k].msg, ct);
            ref_prepare(at[k].msg, prep);
            CHECK(prep[at[k].x] == 'X' && prep[at[k].x - 1] == prep[at[k].x + 1]);
            smet += screen_sound(tri, "CDE", word_span("FGHHI"), ct, at[k].words, &sbad);
        }
        qsort(d.w, d.n, sizeof *d.w, cmps);
        rt_init(&rt, &d);
        pf = sb_playfair_new((const char *const *)d.w, d.n, NULL, &e);
        CHECK(pf != NULL);
        a = ref_crack(&rt, &d, ct29);
        CHECK_INT(a.words, 29);
        CHECK_INT(a.ambiguous, 0);
        CHECK_INT(pf ? sb_playfair_crack(pf, ct29, NULL, &res, &e) : -1, 0);
        CHECK_INT(pf ? (int)res.words : -1, 29);
        CHECK_STR(pf ? res.keyword : "", "CDE");
        CHECK_STR(pf ? res.plaintext : "", a.text ? a.text : "?");
        free(a.text);
        sb_playfair_free(pf);
        rt_free(&rt);
        wl_free(&d);
        free(tri);
    }
    sb_rng_seed(&r, 777);
    for (int t = 0; t < dicts; t++) {
        wl d = {0};
        rtrie rt;
        sb_error e;
        sb_playfair *pf;
        char w[16];
        uint8_t *tri = calloc(1, PF_TRI_BYTES);
        const char *rep = NULL;
        unsigned span;
        d.w = malloc(64 * sizeof *d.w);
        for (int c = 0; c < 26; c++) {
            char one[2] = {(char)('A' + c), 0};
            d.w[d.n++] = strdup(one);
        }
        /* the repeating word: an odd number of letters, none doubled, the
         * first and the last the same; the others cover no more letters */
        {
            size_t len = 3 + 2 * sb_rng_below(&r, 4), k;
            do {
                for (k = 0; k < len; k++)
                    do
                        w[k] = (char)('A' + sb_rng_below(&r, 3));
                    while (k && w[k] == w[k - 1]);
                w[len] = 0;
            } while (w[0] != w[len - 1]);
            span = (unsigned)len;
            d.w[d.n++] = strdup(w);
        }
        for (int tries = 0; tries < 400 && d.n < 26 + 12; tries++) {
            size_t len = 2 + sb_rng_below(&r, span - 1), k, dup = 0;
            for (k = 0; k < len; k++)
                w[k] = (char)('A' + sb_rng_below(&r, 3));
            w[len] = 0;
            for (k = 0; k < d.n; k++)
                dup |= !strcmp(d.w[k], w);
            if (!dup && word_span(w) <= span)
                d.w[d.n++] = strdup(w);
        }
        qsort(d.w, d.n, sizeof *d.w, cmps);
        for (size_t k = 0; k < d.n; k++)
            scr_addword(tri, NULL, d.w[k]);
        /* its prepared repetitions take span + 1 letters a word */
        for (size_t k = 0; k < d.n && !rep; k++) {
            const char *x = d.w[k];
            if (word_span(x) != span || x[0] != x[strlen(x) - 1])
                continue;
            snprintf(msg, sizeof msg, "%s %s %s %s", x, x, x, x);
            ref_prepare(msg, prep);
            if (strlen(prep) == 4 * (span + 1))
                rep = x;
        }
        tight += rep != NULL;
        rt_init(&rt, &d);
        pf = sb_playfair_new((const char *const *)d.w, d.n, NULL, &e);
        CHECK(pf != NULL);
        CHECK_INT(sb_playfair_span(pf), span);
        for (int i = 0; pf && i < 9; i++) {
            const char *key = d.w[sb_rng_below(&r, d.n)];
            /* the fifth: hundreds of words, so that the rest alone passes 255 */
            int nw = i == 4 ? 500 + (int)sb_rng_below(&r, 200) : 2 + (int)sb_rng_below(&r, 40);
            size_t n;
            rsol rs;
            if (i < 5 && rep) {
                msg[0] = 0;
                for (int j = 0; j < nw; j++)
                    strcat(msg, rep), strcat(msg, " ");
            } else {
                draw(&r, &d, NULL, nw, msg);
            }
            ref_prepare(msg, prep);
            n = strlen(prep);
            rs = ref_read(&rt, &d, prep);
            CHECK(rs.words >= 0);
            for (size_t at = 1; rs.words >= 0 && at < n; at++, checked++) {
                unsigned b = 1 + ref_rest(n, at, span);
                if (b > (unsigned)(rs.words / KX) && bad++ < 5)
                    fprintf(stderr, "rest: '%s' (%zu letters, span %u) reads in %d words, but %u counted from "
                                    "letter %zu\n", prep, n, span, rs.words / KX, b, at);
                ties += b == (unsigned)(rs.words / KX);
            }
            free(rs.text);
            ref_encipher(key, msg, ct);
            long_rest += ref_rest(n, PF_WIN, span) > 255;
            if (rs.words >= 0)
                smet += screen_sound(tri, key, span, ct, (unsigned)(rs.words / KX), &sbad);
            msgs++;
            agree += crack_agrees(pf, &rt, &d, ct, msg, key, "rest", &told);
        }
        sb_playfair_free(pf);
        rt_free(&rt);
        wl_free(&d);
        free(tri);
    }
    CHECK_INT(bad, 0);
    CHECK_INT(sbad, 0);
    CHECK(smet > 0 && long_rest > 0);
    CHECK_INT(agree, msgs);
    CHECK_INT(tight, dicts);
    CHECK(ties > 0);
    fprintf(stderr, "rest: %d counts checked on %d dictionaries (%d with a repeating word of the longest span), "
                    "%d of them met exactly; the key's screen bound at most its words in %d messages (met %d times, "
                    "%d with a rest over 255); %d messages cracked as the reference does\n",
            checked, dicts, tight, ties, msgs, smet, long_rest, msgs);
}

/* The key's screen bound against its reading's fewest words, over random
 * dictionaries whose words share few trigrams (two-letter words, and
 * words with a doubled letter, whose fillers fall anywhere, a look's last
 * letter among them), so that the bad trigrams mark nearly every boundary
 * and the bound is often exactly the words: a look that counts one
 * boundary too many anywhere shows.  The crack must agree with the
 * reference on the same messages. */
static void test_screen_sound(void)
{
    int dicts = t_sanitized() ? 10 : 40, bad = 0, met = 0, msgs = 0, agree = 0, told = 0, all = 0, abad = 0;
    static char msg[4096], prep[8192], ct[8192];
    static const char alpha[] = "ABCDEFGHIKLMNOPQRSTUVWYZ";
    sb_rng r;
    sb_rng_seed(&r, 4242);
    for (int t = 0; t < dicts; t++) {
        wl d = {0};
        rtrie rt;
        sb_error e;
        sb_playfair *pf;
        uint8_t *tri = calloc(1, PF_TRI_BYTES);
        unsigned span = 0;
        d.w = malloc(48 * sizeof *d.w);
        if (t % 2) /* every letter a word: every matrix has a reading */
            for (int c = 0; c < 26; c++) {
                char one[2] = {(char)('A' + c), 0};
                d.w[d.n++] = strdup(one);
            }
        for (size_t base = d.n; d.n < base + 15;) {
            char w[8];
            size_t len = d.n < base + 12 ? 2 : 4 + sb_rng_below(&r, 3), dup = 0;
            for (size_t k = 0; k < len; k++)
                w[k] = alpha[sb_rng_below(&r, sizeof alpha - 1)];
            if (d.n >= base + 12) { /* a doubled letter */
                size_t p = sb_rng_below(&r, len - 1);
                w[p + 1] = w[p];
            }
            w[len] = 0;
            for (size_t k = 0; k < d.n; k++)
                dup |= !strcmp(d.w[k], w);
            if (dup)
                continue;
            d.w[d.n++] = strdup(w);
            span = word_span(w) > span ? word_span(w) : span;
            scr_addword(tri, NULL, w);
        }
        qsort(d.w, d.n, sizeof *d.w, cmps);
        rt_init(&rt, &d);
        pf = sb_playfair_new((const char *const *)d.w, d.n, NULL, &e);
        CHECK(pf != NULL);
        for (int i = 0; pf && i < 12; i++) {
            const char *key = d.w[sb_rng_below(&r, d.n)];
            rsol rs;
            draw(&r, &d, NULL, 5 + (int)sb_rng_below(&r, 61), msg);
            ref_prepare(msg, prep);
            rs = ref_read(&rt, &d, prep);
            CHECK(rs.words >= 0);
            ref_encipher(key, msg, ct);
            if (rs.words >= 0)
                met += screen_sound(tri, key, span, ct, (unsigned)(rs.words / KX), &bad);
            free(rs.text);
            msgs++;
            agree += crack_agrees(pf, &rt, &d, ct, msg, key, "screen sound", &told);
            if (i % 3 == 0)
                all += screen_all_sound(tri, &d, &rt, span, ct, &abad);
        }
        sb_playfair_free(pf);
        rt_free(&rt);
        wl_free(&d);
        free(tri);
    }
    CHECK_INT(bad, 0);
    CHECK_INT(abad, 0);
    CHECK_INT(agree, msgs);
    CHECK(met > 0);
    fprintf(stderr, "screen sound: %d messages over %d dictionaries of few trigrams, the key's bound at most its "
                    "words at every limit (met %d times), cracked as the reference does; every matrix's bound at "
                    "most its reading's words, %d times\n",
            msgs, dicts, met, all);
}

/* The matrix number of keyword d->w[k] (distinct matrices in list order),
 * SIZE_MAX if an earlier keyword gives its matrix. */
typedef struct kmat {
    char m[26];
    size_t i;
} kmat;

static int cmp_kmat(const void *a, const void *b)
{
    const kmat *x = a, *y = b;
    int c = strcmp(x->m, y->m);
    return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

static size_t mat_number(const wl *d, size_t k)
{
    kmat *km = malloc(d->n * sizeof *km);
    char *first = calloc(d->n, 1);
    size_t num = 0;
    for (size_t i = 0; i < d->n; i++)
        ref_matrix(d->w[i], km[i].m), km[i].i = i;
    qsort(km, d->n, sizeof *km, cmp_kmat);
    for (size_t i = 0; i < d->n; i++)
        first[km[i].i] = !i || strcmp(km[i].m, km[i - 1].m) != 0;
    for (size_t i = 0; i < k; i++)
        num += (size_t)first[i];
    num = first[k] ? num : SIZE_MAX;
    free(km), free(first);
    return num;
}

/* Whether the portable screen keeps key's matrix at limit g (tables tri,
 * span: those of the dictionary). */
static int screen_keeps(const uint8_t *tri, unsigned span, const char *key, const char *ct, unsigned g)
{
    static uint8_t rec[64 * 17] __attribute__((aligned(64))), lower[32], seen[32], ctv[1024];
    static uint32_t alive[32];
    static char work[PF_SCREEN_WORK];
    size_t n = strlen(ct);
    unsigned least;
    one_matrix(key, ct, rec, ctv);
    pf_screen sc = {rec, 1, tri, ctv, n, g, alive, lower, work, seen, span, {0}};
    pf_screen_prepare(&sc, PF_SCREEN_SCALAR);
    return pf_screen_run(&sc, PF_SCREEN_SCALAR, &least) == 1;
}

/* Once the search has a reading of c words, the chunks screened after it
 * are screened at c (attack.c: glim), and a reading that ties with it
 * under a matrix of a later chunk must still be found: the message is
 * ambiguous.  Built here: a two-word message of 20 letters or more (so
 * that the first guess, 3, is above the answer) under a keyword whose
 * matrix is in the first chunk of 1,024; its ciphertext deciphered under a
 * keyword of the last chunks, cut in two, and both pieces added to the
 * dictionary, so that both keywords read it in two words; the reference
 * confirms that no reading has fewer and that without the later keyword's
 * matrix the reading is unique.  With one thread the answer turns up in
 * chunk 0 before the later chunk is screened, and the later keyword is
 * chosen so that the screen keeps it at a limit of two words but not of
 * one: screening at one word less than the answer would lose the tie.
 * 17,000 words make 16 chunks or more, so that a second thread takes
 * chunks too. */
static void test_tie_across_chunks(const wl *sys)
{
    enum { WORDS = 17000 };
    sb_rng r;
    sb_error e;
    int found = 0, ok = 0, told = 0, tries, want = t_sanitized() ? 1 : 3;
    sb_rng_seed(&r, 77);
    for (tries = 0; tries < 2000 && found < want; tries++) {
        wl d = {malloc((WORDS + 28) * sizeof(char *)), 0};
        char msg[256], ct[512], P[512], m2[26], cut[2][256], k1[64], k2[64];
        size_t step = sys->n / WORDS, n1, n2, len;
        uint8_t *tri;
        unsigned span = 0;
        int keeps;
        rtrie t;
        rans a, b;
        for (char c = 'A'; c <= 'Z'; c++) {
            char one[2] = {c, 0};
            d.w[d.n++] = strdup(one);
        }
        for (size_t i = sb_rng_below(&r, step); i < sys->n && d.n < WORDS + 26; i += step)
            if (strlen(sys->w[i]) > 1)
                d.w[d.n++] = strdup(sys->w[i]);
        snprintf(k1, sizeof k1, "%s", d.w[26 + sb_rng_below(&r, 200)]);
        snprintf(k2, sizeof k2, "%s", d.w[d.n - 1 - sb_rng_below(&r, 200)]);
        snprintf(msg, sizeof msg, "%s %s", d.w[26 + sb_rng_below(&r, d.n - 26)],
                 d.w[26 + sb_rng_below(&r, d.n - 26)]);
        ref_encipher(k1, msg, ct);
        ref_matrix(k2, m2);
        strcpy(P, ct);
        ref_apply(m2, P, 4);
        len = strlen(P);
        if (len < 20 || strchr(P, 'X')) {
            wl_free(&d);
            continue;
        }
        n1 = 3 + sb_rng_below(&r, len - 5);
        snprintf(cut[0], sizeof cut[0], "%.*s", (int)n1, P);
        snprintf(cut[1], sizeof cut[1], "%s", P + n1);
        if (in_list(&d, cut[0]) || in_list(&d, cut[1])) {
            wl_free(&d);
            continue;
        }
        d.w[d.n++] = strdup(cut[0]), d.w[d.n++] = strdup(cut[1]);
        qsort(d.w, d.n, sizeof *d.w, cmps);
        for (n1 = 0; strcmp(d.w[n1], k1); n1++)
            ;
        for (n2 = 0; strcmp(d.w[n2], k2); n2++)
            ;
        n1 = mat_number(&d, n1), n2 = mat_number(&d, n2);
        tri = calloc(1, PF_TRI_BYTES);
        for (size_t i = 0; i < d.n; i++)
            scr_addword(tri, NULL, d.w[i]), span = word_span(d.w[i]) > span ? word_span(d.w[i]) : span;
        keeps = screen_keeps(tri, span, k2, ct, 2) && !screen_keeps(tri, span, k2, ct, 1);
        free(tri);
        if (n1 >= 1024 || n2 == SIZE_MAX || n2 < 1024 || !keeps) {
            wl_free(&d);
            continue;
        }
        rt_init(&t, &d);
        a = ref_crack(&t, &d, ct);
        b = ref_crack_but(&t, &d, ct, m2);
        if (a.words == 2 && a.ambiguous && b.words == 2 && !b.ambiguous) {
            sb_playfair *pf = sb_playfair_new((const char *const *)d.w, d.n, NULL, &e);
            found++;
            for (int lv = 1; pf && lv <= 2; lv++)
                for (int th = 1; th <= 2; th++) {
                    sb_playfair_screen(pf, lv);
                    sb_playfair_threads(pf, th);
                    ok += crack_agrees(pf, &t, &d, ct, msg, k1, "tie across chunks", &told);
                }
            sb_playfair_free(pf);
        }
        free(a.text), free(b.text);
        rt_free(&t);
        wl_free(&d);
    }
    CHECK_INT(found, want);
    CHECK_INT(ok, 4 * found);
    fprintf(stderr, "tie across chunks: %d messages (%d tries), each read in two words under a keyword of "
                    "chunk 0 and one of a later chunk: ambiguous on both screens, one and two threads\n",
            found, tries);
}

int main(void)
{
    wl sys;
    if (load_system(&sys) != 0) {
        fprintf(stderr, "note: %s is missing (Debian package wamerican): "
                        "the generated-message tests need it and were not run\n", DICT);
        return TEST_END();
    }
    t_current = "test_against_reference";
    test_against_reference(&sys);
    t_current = "test_full_dictionary";
    test_full_dictionary(&sys);
    t_current = "test_screens";
    test_screens(&sys);
    t_current = "test_tie_across_chunks";
    test_tie_across_chunks(&sys);
    t_current = "test_screen_bounds";
    test_screen_bounds(&sys);
    t_current = "test_screen_levels";
    test_screen_levels(&sys);
    t_current = "test_rest_bound";
    test_rest_bound();
    t_current = "test_screen_sound";
    test_screen_sound();
    wl_free(&sys);
    return TEST_END();
}
