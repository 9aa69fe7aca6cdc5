/* Unit tests of the Playfair module: the matrix, preparation, the cipher,
 * the attack (on hand-made dictionaries) and the Challenge's C API.  The
 * expected values come from the seed's worked example and from a second,
 * deliberately plain implementation of the cipher kept in this file. */
#include "harness.h"
#include "sbfs/playfair.h"
#include "../src/playfair/pf_internal.h" /* the calls kept out of the public API */
#include "sbfs/playfair_challenge.h"

/* ---- an independent plain implementation -------------------------------- */

/* Matrix: write the keyword's new letters, then the rest of A-Z without J,
 * in lines of width w; collect column after column. */
static void ref_matrix(const char *key, char m[26])
{
    char seq[26];
    int w = 0, n = 0, seen[26] = {0};
    for (const char *p = key; *p; p++) {
        int c = (*p >= 'a' ? *p - 32 : *p);
        if (c == 'J')
            c = 'I';
        if (!seen[c - 'A']++)
            seq[n++] = (char)c;
    }
    w = n;
    for (int c = 'A'; c <= 'Z'; c++)
        if (c != 'J' && !seen[c - 'A'])
            seq[n++] = (char)c;
    n = 0;
    for (int col = 0; col < w; col++)
        for (int row = 0; row * w + col < 25; row++)
            m[n++] = seq[row * w + col];
    m[25] = 0;
}

static int ref_find(const char m[26], char c)
{
    return (int)(strchr(m, c) - m);
}

/* Letters only, upper case, J as I, X between equal letters of a pair, X to
 * complete the last pair. */
static void ref_prepare(const char *text, char *out)
{
    char l[4096];
    int n = 0, o = 0;
    for (const char *p = text; *p; p++) {
        int c = (*p >= 'a' && *p <= 'z') ? *p - 32 : *p;
        if (c < 'A' || c > 'Z')
            continue;
        l[n++] = (char)(c == 'J' ? 'I' : c);
    }
    for (int i = 0; i < n;) {
        out[o++] = l[i];
        if (i + 1 < n && l[i + 1] != l[i]) {
            out[o++] = l[i + 1];
            i += 2;
        } else {
            out[o++] = 'X';
            i += 1;
        }
    }
    out[o] = 0;
}

/* Encipher prepared letters, pairs separated by spaces. */
static void ref_encrypt(const char m[26], const char *prep, char *out)
{
    int o = 0;
    for (int i = 0; prep[i]; i += 2) {
        int a = ref_find(m, prep[i]), b = ref_find(m, prep[i + 1]);
        int ra = a / 5, ca = a % 5, rb = b / 5, cb = b % 5;
        if (i)
            out[o++] = ' ';
        if (ra == rb) {
            out[o++] = m[ra * 5 + (ca + 1) % 5];
            out[o++] = m[rb * 5 + (cb + 1) % 5];
        } else if (ca == cb) {
            out[o++] = m[((ra + 1) % 5) * 5 + ca];
            out[o++] = m[((rb + 1) % 5) * 5 + cb];
        } else {
            out[o++] = m[ra * 5 + cb];
            out[o++] = m[rb * 5 + ca];
        }
    }
    out[o] = 0;
}

static void ref_cipher(const char *key, const char *text, char *out)
{
    char m[26], prep[8192];
    ref_matrix(key, m);
    ref_prepare(text, prep);
    ref_encrypt(m, prep, out);
}

/* ---- the cipher ---------------------------------------------------------- */

static void test_matrix(void)
{
    char m[26] = {0}, want[26];
    sb_error e;
    CHECK_INT(sb_playfair_matrix("CRYPTOGRAM", m, &e), 0);
    CHECK_STR(m, "CBQRDSYEUPFVTHWOIXGKZALMN");
    CHECK_INT(sb_playfair_matrix("cryptogram", m, &e), 0);
    CHECK_STR(m, "CBQRDSYEUPFVTHWOIXGKZALMN");
    /* one letter: a single column, the alphabet in order */
    CHECK_INT(sb_playfair_matrix("A", m, &e), 0);
    CHECK_STR(m, "ABCDEFGHIKLMNOPQRSTUVWXYZ");
    /* J is I: JUMP and IUMP give one matrix */
    CHECK_INT(sb_playfair_matrix("JUMP", m, &e), 0);
    ref_matrix("IUMP", want);
    CHECK_STR(m, want);
    CHECK_STR(m, "IAEKQVZUBFLRWMCGNSXPDHOTY");
    for (const char *const *k = (const char *const[]){"PLAYFAIR", "WHEATSTONE", "ZZZ", "QUICKBROWNFXJMPSVLAZYDG", NULL}; *k; k++) {
        CHECK_INT(sb_playfair_matrix(*k, m, &e), 0);
        ref_matrix(*k, want);
        CHECK_STR(m, want);
    }
    CHECK_INT(sb_playfair_matrix("CRYPTO-GRAM", m, &e), SB_EUSAGE);
    CHECK_INT(e.col, 7);
    CHECK_INT(sb_playfair_matrix("CRYPTO GRAM", m, &e), 0); /* a key phrase: spaces skipped */
    CHECK_STR(m, "CBQRDSYEUPFVTHWOIXGKZALMN");
    CHECK_INT(sb_playfair_matrix("", m, &e), SB_EUSAGE);
}

static void test_prepare(void)
{
    char out[256];
    CHECK_INT(sb_playfair_prepare("The scheme really works.", out), 22);
    CHECK_STR(out, "THESCHEMEREALXLYWORKSX");
    sb_playfair_prepare("balloon", out);
    CHECK_STR(out, "BALXLOON");
    sb_playfair_prepare("Jig", out); /* J as I, then II is a doubled pair */
    CHECK_STR(out, "IXIG");
    sb_playfair_prepare("xx", out); /* an X between X's, then padding */
    CHECK_STR(out, "XXXX");
    sb_playfair_prepare("A", out);
    CHECK_STR(out, "AX");
    CHECK_INT(sb_playfair_prepare(" 12 ,. ", out), 0);
    CHECK_STR(out, "");
}

static void test_seed_example(void)
{
    char m[26], out[256];
    sb_error e;
    sb_playfair_matrix("CRYPTOGRAM", m, &e);
    CHECK_INT(sb_playfair_encrypt(m, "The scheme really works.", out), 11);
    CHECK_STR(out, "HW UY RF UL UQ YL QL AE FK DG EO");
    CHECK_INT(sb_playfair_decrypt(m, "HW UY RF UL UQ YL QL AE FK DG EO", out, &e), 11);
    CHECK_STR(out, "TH ES CH EM ER EA LX LY WO RK SX");
    CHECK_INT(sb_playfair_decrypt(m, "hwuyr", out, &e), SB_EINPUT);
    CHECK_STR(out, "");
}

/* Random keywords and texts: the library's cipher agrees with the plain one
 * and deciphering gives back the prepared text. */
static void test_round_trip(void)
{
    sb_rng r;
    int agree = 0, back = 0, total = 300;
    sb_rng_seed(&r, 8);
    for (int t = 0; t < total; t++) {
        char key[16], text[64], m[26], got[256], want[256], prep[256], dec[256];
        int kl = 1 + (int)sb_rng_below(&r, 12), tl = 1 + (int)sb_rng_below(&r, 40);
        sb_error e;
        for (int i = 0; i < kl; i++)
            key[i] = (char)('A' + sb_rng_below(&r, 26));
        key[kl] = 0;
        for (int i = 0; i < tl; i++) /* a small alphabet makes many doubles */
            text[i] = (char)("ABXJIE x."[sb_rng_below(&r, 9)]);
        text[tl] = 0;
        sb_playfair_matrix(key, m, &e);
        sb_playfair_encrypt(m, text, got);
        ref_cipher(key, text, want);
        agree += strcmp(got, want) == 0;
        sb_playfair_decrypt(m, got, dec, &e);
        ref_prepare(text, prep);
        {
            char joined[256];
            int o = 0;
            for (int i = 0; dec[i]; i++)
                if (dec[i] != ' ')
                    joined[o++] = dec[i];
            joined[o] = 0;
            back += strcmp(joined, prep) == 0;
        }
    }
    CHECK_INT(agree, total);
    CHECK_INT(back, total);
}

/* ---- the attack on small dictionaries ------------------------------------ */

/* A hand-made word list: words with J, with doubled letters, with X, a few
 * that are also keywords; and every single letter (as in real word lists). */
static const char *const small_words[] = {
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S",
    "T", "U", "V", "W", "X", "Y", "Z", "AN", "AS", "AT", "AXE", "BALLOON", "BE", "BOX", "CAT",
    "COFFEE", "CRYPTOGRAM", "DOG", "EXTRA", "FOX", "HE", "IT", "JAZZ", "JIGSAW", "JOY", "KEYWORD",
    "LOOK", "MONARCHY", "OX", "PLAYFAIR", "REALLY", "SCHEME", "SEE", "TEA", "THE", "THEE", "TREE",
    "WHEATSTONE", "WORKS", "ZEBRA",
};

static sb_playfair *small_context(void)
{
    sb_error e;
    sb_playfair *pf = sb_playfair_new(small_words, sizeof small_words / sizeof *small_words, NULL, &e);
    CHECK(pf != NULL);
    return pf;
}

static void crack_is(sb_playfair *pf, const char *key, const char *msg, const char *want_key,
                     const char *want_plain, int want_amb)
{
    char ct[512];
    sb_playfair_result res;
    sb_error e;
    ref_cipher(key, msg, ct);
    CHECK_INT(sb_playfair_crack(pf, ct, NULL, &res, &e), 0);
    CHECK_STR(res.plaintext, want_plain);
    if (want_key)
        CHECK_STR(res.keyword, want_key);
    CHECK_INT(res.ambiguous, want_amb);
}

static void test_crack_small(void)
{
    sb_playfair *pf = small_context();
    sb_playfair_result res;
    sb_error e;
    if (!pf)
        return;
    CHECK_INT(sb_playfair_words(pf), sizeof small_words / sizeof *small_words);
    crack_is(pf, "CRYPTOGRAM", "The scheme really works.", "CRYPTOGRAM", "THE SCHEME REALLY WORKS", 0);
    /* J restored from the dictionary; the X between ZZ and the padding X go */
    crack_is(pf, "PLAYFAIR", "jazz jigsaw", "PLAYFAIR", "JAZZ JIGSAW", 0);
    /* BA LX LO ON: the inserted X goes, COFFEE keeps its pairs CO FX FE EX */
    crack_is(pf, "WHEATSTONE", "balloon coffee", "WHEATSTONE", "BALLOON COFFEE", 0);
    /* words with a real X: EX TR A + pad X; BO X + pad */
    crack_is(pf, "MONARCHY", "extra box", "MONARCHY", "EXTRA BOX", 0);
    /* "SEE THE TREE": ... EX ET ... the reading keeps the message's letters */
    crack_is(pf, "KEYWORD", "see the tree", "KEYWORD", "SEE THE TREE", 0);
    /* one short word: many keywords read "AT" (or another two-letter word) as
     * well, so the answer must say it is ambiguous */
    {
        char ct[64];
        ref_cipher("ZEBRA", "at", ct);
        CHECK_INT(sb_playfair_crack(pf, ct, NULL, &res, &e), 0);
        CHECK_INT(res.words, 1);
        CHECK_INT(res.ambiguous, 1);
    }
    /* texts no keyword can explain: an odd count; a doubled pair BB
     * deciphers to a doubled pair, which preparation never makes but for
     * XX, and then AA cannot follow */
    CHECK_INT(sb_playfair_crack(pf, "BB AA", NULL, &res, &e), SB_ENOTFOUND);
    /* "X" alone is XX, enciphered by the same-row rule to a doubled pair */
    {
        char ct[64];
        ref_cipher("MONARCHY", "x", ct);
        CHECK_INT(ct[0], ct[1]);
        CHECK_INT(sb_playfair_crack(pf, ct, NULL, &res, &e), 0);
        CHECK_INT(res.words, 1);
    }
    CHECK_INT(sb_playfair_crack(pf, "ABC", NULL, &res, &e), SB_ENOTFOUND);
    CHECK_INT(res.found, 0);
    CHECK_STR(res.plaintext, "");
    CHECK_INT(sb_playfair_crack(pf, " .,;", NULL, &res, &e), SB_ENOTFOUND);
    CHECK_STR(res.keyword, "");
    sb_playfair_free(pf);
}

/* Without single letters, random pairs are no message at all. */
static void test_unexplained(void)
{
    const char *words[] = {"CAT", "DOG", "PLAYFAIR"};
    sb_error e;
    sb_playfair_result res;
    sb_playfair *pf = sb_playfair_new(words, 3, NULL, &e);
    CHECK(pf != NULL);
    if (!pf)
        return;
    CHECK_INT(sb_playfair_matrices(pf), 3);
    CHECK_INT(sb_playfair_crack(pf, "QZ VQ WK", NULL, &res, &e), SB_ENOTFOUND);
    CHECK_INT(res.found, 0);
    CHECK_STR(res.plaintext, "");
    {
        char ct[64];
        ref_cipher("DOG", "cat dog", ct);
        CHECK_INT(sb_playfair_crack(pf, ct, NULL, &res, &e), 0);
        CHECK_STR(res.plaintext, "CAT DOG");
        CHECK_STR(res.keyword, "DOG");
        CHECK_INT(res.words, 2);
    }
    sb_playfair_free(pf);
}

/* Two spellings that differ only in I and J read the same: ambiguous. */
static void test_spellings(void)
{
    const char *words[] = {"IAM", "JAM", "TOAST", "WORD"};
    sb_error e;
    sb_playfair_result res;
    char ct[64];
    sb_playfair *pf = sb_playfair_new(words, 4, NULL, &e);
    CHECK(pf != NULL);
    if (!pf)
        return;
    ref_cipher("WORD", "jam toast", ct);
    CHECK_INT(sb_playfair_crack(pf, ct, NULL, &res, &e), 0);
    CHECK_INT(res.words, 2);
    CHECK_INT(res.ambiguous, 1);
    CHECK(!strcmp(res.plaintext, "IAM TOAST") || !strcmp(res.plaintext, "JAM TOAST"));
    sb_playfair_free(pf);
}

static void test_bad_dictionary(void)
{
    const char *words[] = {"CAT", "DO G"};
    sb_error e;
    CHECK(sb_playfair_new(words, 2, NULL, &e) == NULL);
    CHECK_INT(e.code, SB_EINPUT);
    CHECK_INT(e.line, 2);
    CHECK_INT(e.col, 3);
    CHECK(sb_playfair_new(words, 0, NULL, &e) == NULL);
    CHECK_INT(e.code, SB_EINPUT);
}

/* A memory budget too small for the dictionary is refused cleanly. */
static void test_budget(void)
{
    sb_mem mem;
    sb_error e;
    sb_mem_init(&mem, 1000);
    CHECK(sb_playfair_new(small_words, sizeof small_words / sizeof *small_words, &mem, &e) == NULL);
    CHECK_INT(e.code, SB_ENOMEM);
    CHECK_INT(mem.used, 0);
}

static void test_challenge_api(void)
{
    char out[256], ct[256];
    DecodePlayfair("HW UY", out); /* before InitPlayfair: empty */
    CHECK_STR(out, "");
    InitPlayfair((const char **)small_words, (long)(sizeof small_words / sizeof *small_words));
    DecodePlayfair("HW UY RF UL UQ YL QL AE FK DG EO", out);
    CHECK_STR(out, "THE SCHEME REALLY WORKS");
    ref_cipher("ZEBRA", "coffee look", ct);
    DecodePlayfair(ct, out);
    CHECK_STR(out, "COFFEE LOOK");
    DecodePlayfair("HWU", out);
    CHECK_STR(out, "");
    TermPlayfair();
    DecodePlayfair("HW UY", out);
    CHECK_STR(out, "");
    TermPlayfair(); /* twice is harmless */
}

/* The textbook square: keyword letters, then the rest, read by rows.  The
 * usual worked example: key phrase PLAYFAIR EXAMPLE, "hide the gold in the
 * tree stump" (TR EE becomes TR EX ES). */
static void test_rows_square(void)
{
    char m[26] = {0}, out[256], back[256];
    sb_error e;
    CHECK_INT(sb_playfair_square("PLAYFAIR EXAMPLE", SB_PLAYFAIR_ROWS, m, &e), 0);
    CHECK_STR(m, "PLAYFIREXMBCDGHKNOQSTUVWZ");
    CHECK_INT(sb_playfair_encrypt(m, "hide the gold in the tree stump", out), 13);
    CHECK_STR(out, "BM OD ZB XD NA BE KU DM UI XM MO UV IF");
    CHECK_INT(sb_playfair_decrypt(m, out, back, &e), 13);
    CHECK_STR(back, "HI DE TH EG OL DI NT HE TR EX ES TU MP");
    /* the columns order is the Challenge's matrix */
    CHECK_INT(sb_playfair_square("CRYPTOGRAM", SB_PLAYFAIR_COLUMNS, m, &e), 0);
    CHECK_STR(m, "CBQRDSYEUPFVTHWOIXGKZALMN");
    CHECK_INT(sb_playfair_square("CRYPTOGRAM", 7, m, &e), SB_EUSAGE);
    /* a key square given outright, rows separated by anything */
    CHECK_INT(sb_playfair_key_square("PLAYF/IREXM/BCDGH/KNOQS/TUVWZ", m, &e), 0);
    CHECK_STR(m, "PLAYFIREXMBCDGHKNOQSTUVWZ");
    CHECK_INT(sb_playfair_key_square("plajf irexm bcdgh knoqs tuvwz", m, &e), SB_EUSAGE); /* J is I: twice */
    CHECK_INT(e.col, 7);
    CHECK_INT(sb_playfair_key_square("PLAYFIREXMBCDGHKNOQSTUVW", m, &e), SB_EUSAGE);
    CHECK_INT(sb_playfair_key_square("PLAYFIREXMBCDGHKNOQSTUVWZA", m, &e), SB_EUSAGE);
    /* another filler: Q between the L's of BALLOON and at the end */
    CHECK_INT(sb_playfair_square("PLAYFAIR EXAMPLE", SB_PLAYFAIR_ROWS, m, &e), 0);
    CHECK_INT(sb_playfair_encrypt_pad(m, "balloons", 'q', out), 5);
    CHECK_INT(sb_playfair_decrypt(m, out, back, &e), 5);
    CHECK_STR(back, "BA LQ LO ON SQ");
    CHECK_INT(sb_playfair_encrypt_pad(m, "balloons", '1', out), 0);
    /* the crack on row-read keyword squares */
    {
        static const char *const words[] = {"EXAMPLE", "GOLD", "HIDE", "IN", "PLAYFAIR", "STUMP", "THE", "TREE"};
        sb_playfair *pf = sb_playfair_new_square(words, 8, SB_PLAYFAIR_ROWS, NULL, &e);
        sb_playfair_result res;
        CHECK(pf != NULL);
        if (pf) {
            /* the keyword must be a word of the list: PLAYFAIR alone */
            CHECK_INT(sb_playfair_square("PLAYFAIR", SB_PLAYFAIR_ROWS, m, &e), 0);
            sb_playfair_encrypt(m, "hide the gold in the tree stump", out);
            CHECK_INT(sb_playfair_crack(pf, out, NULL, &res, &e), 0);
            CHECK_STR(res.plaintext, "HIDE THE GOLD IN THE TREE STUMP");
            CHECK_STR(res.keyword, "PLAYFAIR");
            CHECK_INT(res.ambiguous, 0);
            sb_playfair_free(pf);
        }
        CHECK(sb_playfair_new_square(words, 8, 5, NULL, &e) == NULL);
        CHECK_INT(e.code, SB_EUSAGE);
    }
}

/* Readings with as few words are ranked by their X's: an X that could be
 * an inserted one (between two equal letters, or the padding at the end)
 * read as a filler beats the same X read as a letter.  APE and APEX are
 * both one word for AP EX; APE EAT and APEX EAT are both two for
 * AP EX EA TX.  A tie on both counts stays ambiguous: NO TEAT and NOTE AT. */
static void test_tie_break(void)
{
    static const char *const words[] = {"APE", "APEX", "AT", "EAT", "KEYWORD", "NO", "NOTE", "TEAT", "ZEBRA"};
    sb_error e;
    sb_playfair *pf = sb_playfair_new(words, sizeof words / sizeof *words, NULL, &e);
    CHECK(pf != NULL);
    if (!pf)
        return;
    crack_is(pf, "ZEBRA", "ape", "ZEBRA", "APE", 0);
    crack_is(pf, "KEYWORD", "ape eat", "KEYWORD", "APE EAT", 0);
    crack_is(pf, "KEYWORD", "apex eat", "KEYWORD", "APE EAT", 0); /* the same ciphertext */
    crack_is(pf, "ZEBRA", "note at", "ZEBRA", "NO TEAT", 1);       /* either, flagged */
    sb_playfair_free(pf);
}

int main(void)
{
    RUN(test_matrix);
    RUN(test_prepare);
    RUN(test_seed_example);
    RUN(test_round_trip);
    RUN(test_crack_small);
    RUN(test_tie_break);
    RUN(test_rows_square);
    RUN(test_unexplained);
    RUN(test_spellings);
    RUN(test_bad_dictionary);
    RUN(test_budget);
    RUN(test_challenge_api);
    return TEST_END();
}
