/* sbfs playfair: the Playfair cipher of the 1999 MacTech Programmer's
 * Challenge and the textbook one.  encrypt and decrypt with a keyword or a
 * key square, crack with a dictionary, anneal without one, random draws
 * test messages. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "sbfs/playfair.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "playfair_json.h"

/* --json: answers as JSON lines (playfair_json.c); set once from the
 * options, before any subcommand runs. */
static int pf_json;

#define DEFAULT_DICT "/usr/share/dict/words"
#define DEFAULT_CORPUS "/usr/share/games/fortunes"

/* Every subcommand's options land in one struct; each subcommand's table
 * names only the ones it takes, so an option given to the wrong one is an
 * unknown option there. */
typedef struct pf_opts {
    const char *keyword, *square, *order, *pad, *dict, *seed, *time, *temperature, *count, *words, *text;
    cli_list corpus;
    int show, stats, threads, patience, restarts, letters, json, nocache;
} pf_opts;

#define O(f) offsetof(pf_opts, f)
#define OPT_KEYWORD {'k', "keyword", CLI_STR, O(keyword), 0, 0, "KEYWORD", "letters only (J counts as I)"}
#define OPT_KEYSQUARE                                                                                \
    {'K', "key-square", CLI_STR, O(square), 0, 0, "SQUARE",                                          \
     "the key square itself: 25 distinct letters row by row\n"                                       \
     "(other characters skipped: \"PLAYF IREXM BCDGH KNOQS TUVWZ\")"}
#define OPT_ORDER(extra)                                                                             \
    {0, "square", CLI_STR, O(order), 0, 0, "ORDER",                                                  \
     "columns (the Challenge's, default) or rows (the textbook\nsquare)" extra}
#define OPT_PAD {0, "pad", CLI_STR, O(pad), 0, 0, "L", "the filler letter (default X)"}
#define OPT_DICT                                                                                     \
    {'d', "dictionary", CLI_STR, O(dict), 0, 0, "FILE",                                              \
     "word list, one word per line\n(default " DEFAULT_DICT ");\n"                                    \
     "words with anything but the letters A-Z are left out,\nthe rest upper-cased"}
#define OPT_SEED {0, "seed", CLI_STR, O(seed), 0, 0, "N", "seed of the generator (default 1)"}
#define OPT_STATS(help) {0, "stats", CLI_FLAG, O(stats), 1, 0, NULL, help}
#define OPT_JSON CLI_OPT_JSON(pf_opts, json, "each answer as one JSON object a line")

#define ABOUT                                                                                        \
    "The 5x5 square holds the keyword's distinct letters and then the rest of the\n"                 \
    "alphabet; I and J share a cell.  In the 1999 MacTech Programmer's Challenge\n"                   \
    "(--square columns, the default) they are written in lines as wide as the\n"                      \
    "keyword and read off by columns; in the textbook square (--square rows) they\n"                  \
    "are written five to a row.  Each line of FILE (default: standard input) is\n"                    \
    "one message.\n"

static const cli_opt encrypt_opts[] = {
    OPT_KEYWORD, OPT_KEYSQUARE, OPT_ORDER(""), OPT_PAD,
    {0, "show-square", CLI_FLAG, O(show), 1, 0, NULL, "print the square first, five rows"},
    OPT_JSON,
    {0},
};

static const cli_opt decrypt_opts[] = {
    OPT_KEYWORD, OPT_KEYSQUARE, OPT_ORDER(""),
    {0, "show-square", CLI_FLAG, O(show), 1, 0, NULL, "print the square first, five rows"},
    OPT_JSON,
    {0},
};

static const cli_opt crack_opts[] = {
    OPT_DICT, OPT_ORDER(""),
    {0, "show-square", CLI_FLAG, O(show), 1, 0, NULL, "the square as a column after the plaintext"},
    OPT_STATS("set-up and cracking times (wall, and CPU) on stderr"),
    OPT_JSON,
    {0},
};

static const cli_opt anneal_opts[] = {
    {0, "corpus", CLI_LIST, O(corpus), 0, 0, "PATH",
     "English text for the quadgram statistics, a file or\n"
     "a directory of files (names without a dot); repeatable\n"
     "(default " DEFAULT_CORPUS ", Debian's fortunes)"},
    OPT_SEED,
    {0, "time", CLI_STR, O(time), 0, 0, "SECONDS", "stop a message after this long (default 60)"},
    {0, "temperature", CLI_STR, O(temperature), 0, 0, "T",
     "the walks' temperature in log10 units (default: from the\n"
     "message's own score changes between random squares)"},
    CLI_OPT_THREADS(pf_opts, threads, "restarts side by side (default: processors)"),
    {0, "patience", CLI_INT, O(patience), 1, 1000000, "N",
     "stop after N restarts in a row that do not beat the best\n"
     "(default 128; also stops once the best reads as English,\n"
     "or nearly so and two restarts found it)"},
    {0, "restarts", CLI_INT, O(restarts), 1, 100000000, "N", "at most N restarts (rounded up to a multiple of 4)"},
    {0, "no-cache", CLI_FLAG, O(nocache), 1, 0, NULL,
     "count the corpus even when its statistics are cached\n"
     "($XDG_CACHE_HOME/sbfs, else ~/.cache/sbfs), and cache\nnothing"},
    OPT_STATS("set-up time and each message's restarts and time on stderr"),
    OPT_JSON,
    {0},
};

static const cli_opt random_opts_table[] = {
    OPT_DICT,
    {'n', "count", CLI_STR, O(count), 0, 0, "COUNT", "messages to draw (default 10)"},
    OPT_SEED,
    {0, "words", CLI_STR, O(words), 0, 0, "MIN-MAX", "words per message (default 1-6)"},
    OPT_ORDER("; random: random key squares"),
    OPT_PAD,
    {0, "letters", CLI_INT, O(letters), 1, 100000, "N",
     "messages of N letters, cut from random words or from\npassages of --text FILE at random places"},
    {0, "text", CLI_STR, O(text), 0, 0, "FILE", "the text --letters cuts passages from"},
    OPT_JSON,
    {0},
};

static const cli_cmd commands[] = {
    {"playfair encrypt", "(-k KEYWORD [--square ORDER] | -K SQUARE) [OPTIONS] [FILE|-]",
     "Encipher each line: prints the ciphertext pairs (\"HW UY RF\"): letters only,\n"
     "J as I, the filler (X) between equal letters of a pair and to complete the\n"
     "last pair.\n" ABOUT,
     encrypt_opts, NULL, 1, 0},
    {"playfair decrypt", "(-k KEYWORD [--square ORDER] | -K SQUARE) [OPTIONS] [FILE|-]",
     "Decipher each line: prints the deciphered pairs, inserted fillers still in\nplace.\n" ABOUT, decrypt_opts,
     NULL, 1, 0},
    {"playfair crack", "[OPTIONS] [FILE|-]",
     "Find the dictionary keyword and the reading with the fewest dictionary words\n"
     "(of those, the one whose X's between equal letters and at the end are\n"
     "fillers).  Prints KEYWORD<TAB>PLAINTEXT, with a last column \"ambiguous\" when\n"
     "another reading ties, and \"-<TAB><TAB>unsolved\" when no keyword explains the\n"
     "line.\n" ABOUT,
     crack_opts, NULL, 1, 0},
    {"playfair anneal", "[OPTIONS] [FILE|-]",
     "Find a key square without any keyword, by simulated annealing scored by\n"
     "English quadgrams.  Prints SQUARE<TAB>PLAINTEXT<TAB>SCORE (the deciphered\n"
     "letters, fillers in place; the mean log10 quadgram frequency, English about\n"
     "-4.3).  Each line of FILE (default: standard input) is one message.\n",
     anneal_opts, NULL, 1, 0},
    {"playfair random", "[OPTIONS]",
     "Print COUNT test messages KEY<TAB>PLAINTEXT<TAB>CIPHERTEXT.\n", random_opts_table, NULL, 0, 0},
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: sbfs playfair encrypt (-k KEYWORD [--square ORDER] | -K SQUARE) [--pad L]\n"
            "                             [--show-square] [FILE]\n"
            "       sbfs playfair decrypt (-k KEYWORD [--square ORDER] | -K SQUARE) [--show-square] [FILE]\n"
            "       sbfs playfair crack [-d DICTIONARY] [--square ORDER] [--show-square] [--stats] [FILE]\n"
            "       sbfs playfair anneal [--corpus PATH]... [--seed N] [--time SECONDS] [-j N]\n"
            "                            [--temperature T] [--patience N] [--restarts N] [--stats] [FILE]\n"
            "       sbfs playfair random [-d DICTIONARY] [-n COUNT] [--seed N] [--words MIN-MAX]\n"
            "                            [--square ORDER|random] [--pad L] [--letters N [--text FILE]]\n"
            "\n"
            "The Playfair cipher.\n" ABOUT "\n"
            "  encrypt   enciphers each line with a keyword (-k) or a key square (-K)\n"
            "  decrypt   deciphers each line, inserted fillers still in place\n"
            "  crack     finds the dictionary keyword and the reading with the fewest\n"
            "            dictionary words\n"
            "  anneal    finds a key square without any keyword, by simulated annealing\n"
            "  random    prints test messages KEY<TAB>PLAINTEXT<TAB>CIPHERTEXT\n"
            "\n"
            "'sbfs playfair SUBCOMMAND --help' lists the subcommand's options.\n");
}

typedef struct dict {
    char **w;
    size_t n, cap;
} dict;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void dict_free(dict *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->w[i]);
    free(d->w);
    memset(d, 0, sizeof *d);
}

/* Read a word list: keep the lines made of letters A-Z only, upper-case
 * them, sort, drop repeats. */
static int dict_load(const char *path, dict *d, sb_error *err)
{
    FILE *f = cli_open(path, err);
    char *line = NULL;
    size_t lcap = 0, u = 0;
    ssize_t len;
    memset(d, 0, sizeof *d);
    if (!f)
        return err->code;
    while (!cli_interrupted() && (len = getline(&line, &lcap, f)) >= 0) {
        int ok = 1;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        for (ssize_t i = 0; i < len && ok; i++) {
            char c = line[i];
            if (c >= 'a' && c <= 'z')
                line[i] = (char)(c - 'a' + 'A');
            else if (!(c >= 'A' && c <= 'Z'))
                ok = 0;
        }
        if (!ok || len == 0 || len > 255)
            continue;
        if (d->n == d->cap) {
            size_t nc = d->cap ? 2 * d->cap : 4096;
            char **nw = realloc(d->w, nc * sizeof *nw);
            if (!nw)
                goto nomem;
            d->w = nw, d->cap = nc;
        }
        if (!(d->w[d->n] = strdup(line)))
            goto nomem;
        d->n++;
    }
    if (cli_read_check(f, path, err))
        goto fail;
    free(line);
    cli_close(f);
    if (d->n)
        qsort(d->w, d->n, sizeof *d->w, cmp_str);
    for (size_t i = 0; i < d->n; i++) {
        if (u && strcmp(d->w[u - 1], d->w[i]) == 0)
            free(d->w[i]);
        else
            d->w[u++] = d->w[i];
    }
    d->n = u;
    if (d->n == 0)
        return sb_error_set(err, SB_EINPUT, 0, 0, "%s: no words made of the letters A-Z only", path);
    return 0;
nomem:
    sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory reading %s", path);
fail:
    free(line);
    cli_close(f);
    dict_free(d);
    return err->code;
}

/* The next line of in, without its newline or a carriage return before
 * it: 1 with *line set, 0 at the end, or a negative SB_E* code. */
static int next_line(cli_input *in, char **line, sb_error *err)
{
    const char *s;
    size_t n;
    int rc = cli_input_line(in, &s, &n, err);
    if (rc <= 0)
        return rc;
    *line = in->buf;
    while (n > 0 && in->buf[n - 1] == '\r')
        in->buf[--n] = 0;
    return 1;
}

/* Column (1-based) of the last letter of s, for messages about odd texts. */
static int last_letter_col(const char *s)
{
    int col = 0;
    for (int i = 0; s[i]; i++)
        if ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z'))
            col = i + 1;
    return col;
}

static size_t letter_count(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z');
    return n;
}

static const char *shown(const char *file)
{
    return file && strcmp(file, "-") ? file : "<stdin>";
}

/* The square as five groups of five: "PLAYF IREXM BCDGH KNOQS TUVWZ". */
static void square_text(const char m[25], char out[30])
{
    char *o = out;
    for (int i = 0; i < 25; i++) {
        if (i && i % 5 == 0)
            *o++ = ' ';
        *o++ = m[i];
    }
    *o = 0;
}

static void print_square(const char m[25])
{
    for (int r = 0; r < 5; r++)
        printf("%c %c %c %c %c\n", m[5 * r], m[5 * r + 1], m[5 * r + 2], m[5 * r + 3], m[5 * r + 4]);
}

static int run_cipher(int decrypt, const char matrix[25], char pad, int show, const char *file)
{
    sb_error err;
    cli_input in;
    char *line, *out = NULL;
    size_t ocap = 0;
    int status = 0, lineno = 0, rc;
    sb_error_clear(&err);
    if (cli_input_open(&in, file, 0, &err))
        return cli_fail(NULL, &err);
    if (show && !pf_json)
        print_square(matrix);
    while (!cli_output_failed() && (rc = next_line(&in, &line, &err)) != 0) {
        size_t need;
        if (rc < 0) {
            status = cli_fail(NULL, &err);
            break;
        }
        need = 3 * strlen(line) + 2;
        lineno++;
        if (need > ocap) {
            char *o = realloc(out, need);
            if (!o) {
                sb_error_set(&err, SB_ENOMEM, 0, 0, "out of memory");
                status = cli_fail(file, &err);
                break;
            }
            out = o, ocap = need;
        }
        if (!decrypt) {
            sb_playfair_encrypt_pad(matrix, line, pad, out);
        } else if (sb_playfair_decrypt(matrix, line, out, &err) < 0) {
            err.line = lineno, err.col = last_letter_col(line);
            status = cli_fail(shown(file), &err);
            break;
        }
        if (pf_json)
            pfj_cipher(decrypt, lineno, out, show ? matrix : NULL);
        else
            puts(out);
    }
    free(out);
    cli_input_close(&in);
    return status;
}

/* CPU seconds of the whole process (both of the crack's threads). */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int run_crack(const char *dictpath, int order, int show, int stats, const char *file)
{
    dict d;
    sb_error err;
    sb_playfair *pf;
    sb_control ctl;
    cli_progress prog;
    cli_input in;
    char *line;
    int status = 0, lineno = 0, solved = 0, unsolved = 0, ambiguous = 0, got;
    double t0, t1, c0, tcrack = 0, ccrack = 0;
    uint64_t pairs = 0, parsed = 0;
    sb_error_clear(&err);
    t0 = sb_now();
    if (dict_load(dictpath, &d, &err))
        return cli_fail(dictpath, &err);
    t1 = sb_now();
    pf = sb_playfair_new_square((const char *const *)d.w, d.n, order, NULL, &err);
    if (stats)
        fprintf(stderr, "dictionary: %zu words read in %.1f ms\n", d.n, (t1 - t0) * 1e3);
    if (!pf) {
        dict_free(&d);
        return cli_fail(dictpath, &err);
    }
    if (stats)
        fprintf(stderr, "set-up: %zu distinct matrices in %.1f ms\n", sb_playfair_matrices(pf),
                (sb_now() - t1) * 1e3);
    dict_free(&d); /* the context keeps its own copy */
    if (cli_input_open(&in, file, 0, &err)) {
        sb_playfair_free(pf);
        return cli_fail(NULL, &err);
    }
    cli_control_init(&ctl, &prog, 0);
    while (!cli_output_failed() && (got = next_line(&in, &line, &err)) != 0) {
        sb_playfair_result res;
        int rc;
        if (got < 0) {
            status = cli_fail(NULL, &err);
            break;
        }
        lineno++;
        if (line[strspn(line, " \t")] == 0)
            continue; /* a blank line is no message */
        t0 = sb_now(), c0 = cpu_now();
        rc = sb_playfair_crack(pf, line, &ctl, &res, &err);
        tcrack += sb_now() - t0, ccrack += cpu_now() - c0;
        pairs += res.pairs, parsed += res.parsed;
        if (rc == 0) {
            char m[25], sq[30] = "";
            if (show && sb_playfair_square(res.keyword, order, m, NULL) == 0)
                square_text(m, sq);
            if (pf_json)
                pfj_crack(lineno, res.keyword, res.plaintext, sq, res.ambiguous);
            else
                printf("%s\t%s%s%s%s\n", res.keyword, res.plaintext, show ? "\t" : "", sq,
                       res.ambiguous ? "\tambiguous" : "");
            solved++, ambiguous += res.ambiguous;
        } else if (rc == SB_ENOTFOUND) {
            if (pf_json)
                pfj_unsolved("crack", lineno);
            else
                printf("-\t\tunsolved\n");
            unsolved++;
            if (letter_count(line) % 2) { /* malformed, not merely unexplained */
                err.code = SB_EINPUT, err.line = lineno, err.col = last_letter_col(line);
                status = cli_fail(shown(file), &err);
            }
        } else {
            err.line = lineno;
            status = cli_fail(rc == SB_EINTR ? NULL : shown(file), &err);
            break;
        }
    }
    cli_flush();
    cli_control_done(&ctl, &prog);
    if (stats) {
        int all = solved + unsolved ? solved + unsolved : 1;
        fprintf(stderr,
                "cracked: %d messages (%d ambiguous), %d unsolved, in %.2f ms, %.3f ms each, %.2f ms of CPU\n",
                solved, ambiguous, unsolved, tcrack * 1e3, tcrack * 1e3 / all, ccrack * 1e3);
        fprintf(stderr, "search: %.0f pairs deciphered and %.1f texts parsed exactly per message\n",
                (double)pairs / all, (double)parsed / all);
    }
    cli_input_close(&in);
    sb_playfair_free(pf);
    return status;
}

/* A random key square: the 25 letters shuffled. */
static void random_square(sb_rng *rng, char m[25])
{
    static const char alpha[] = "ABCDEFGHIKLMNOPQRSTUVWXYZ";
    memcpy(m, alpha, 25);
    for (int k = 24; k > 0; k--) {
        int j = (int)sb_rng_below(rng, (uint64_t)k + 1);
        char x = m[k];
        m[k] = m[j], m[j] = x;
    }
}

/* The letters of a file, upper case (for --text). */
static char *file_letters(const char *path, size_t *n, sb_error *err)
{
    FILE *f = cli_open(path, err);
    char *t = NULL;
    size_t cap = 0;
    int c;
    *n = 0;
    if (!f)
        return NULL;
    while ((c = getc(f)) != EOF) {
        if (c >= 'a' && c <= 'z')
            c -= 'a' - 'A';
        if (c < 'A' || c > 'Z')
            continue;
        if (*n + 1 >= cap) {
            char *nt = realloc(t, cap = cap ? 2 * cap : 65536);
            if (!nt) {
                free(t);
                cli_close(f);
                sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory reading %s", path);
                return NULL;
            }
            t = nt;
        }
        t[(*n)++] = (char)c;
    }
    cli_close(f);
    if (t)
        t[*n] = 0;
    return t;
}

typedef struct random_opts {
    long count, wmin, wmax, letters;
    uint64_t seed;
    int order; /* SB_PLAYFAIR_COLUMNS, _ROWS, or -1: random squares */
    char pad;
    const char *text;
} random_opts;

static int run_random(const char *dictpath, const random_opts *ro)
{
    dict d;
    sb_error err;
    sb_rng rng;
    char *text = NULL;
    size_t tn = 0;
    sb_error_clear(&err);
    if (dict_load(dictpath, &d, &err))
        return cli_fail(dictpath, &err);
    if (ro->text && !(text = file_letters(ro->text, &tn, &err))) {
        dict_free(&d);
        return cli_fail(NULL, &err);
    }
    if (text && tn < (size_t)ro->letters) {
        free(text);
        dict_free(&d);
        sb_error_set(&err, SB_EINPUT, 0, 0, "%s: fewer than %ld letters", ro->text, ro->letters);
        return cli_fail(NULL, &err);
    }
    sb_rng_seed(&rng, ro->seed);
    for (long i = 0; i < ro->count && !cli_output_failed(); i++) {
        long nw = ro->wmin + (long)sb_rng_below(&rng, (uint64_t)(ro->wmax - ro->wmin + 1));
        const char *key = d.w[sb_rng_below(&rng, d.n)];
        char matrix[25], keytext[30], *msg = NULL, *ct = NULL;
        size_t len = 0;
        if (ro->order < 0) {
            random_square(&rng, matrix);
            square_text(matrix, keytext);
            key = keytext;
        } else {
            sb_playfair_square(key, ro->order, matrix, NULL);
        }
        if (ro->letters && text) { /* a passage of the text */
            size_t at = sb_rng_below(&rng, tn - (size_t)ro->letters + 1);
            msg = malloc((size_t)ro->letters + 1);
            if (msg)
                memcpy(msg, text + at, (size_t)ro->letters), msg[ro->letters] = 0, len = (size_t)ro->letters;
        } else if (ro->letters) { /* random words, cut at the length */
            size_t have = 0;
            msg = malloc((size_t)ro->letters + 300);
            if (msg) {
                msg[0] = 0;
                while (have < (size_t)ro->letters) {
                    const char *w = d.w[sb_rng_below(&rng, d.n)];
                    if (have)
                        strcat(msg, " ");
                    strncat(msg, w, (size_t)ro->letters - have);
                    have += strlen(w) < (size_t)ro->letters - have ? strlen(w) : (size_t)ro->letters - have;
                }
                len = strlen(msg);
            }
        } else {
            const char **pick = malloc((size_t)nw * sizeof *pick);
            if (pick) {
                for (long j = 0; j < nw; j++) {
                    pick[j] = d.w[sb_rng_below(&rng, d.n)];
                    len += strlen(pick[j]) + 1;
                }
                if ((msg = malloc(len + 1))) {
                    msg[0] = 0;
                    for (long j = 0; j < nw; j++) {
                        if (j)
                            strcat(msg, " ");
                        strcat(msg, pick[j]);
                    }
                }
                free(pick);
            }
        }
        if (msg && (ct = malloc(3 * len + 2))) {
            sb_playfair_encrypt_pad(matrix, msg, ro->pad, ct);
            if (pf_json)
                pfj_random(key, msg, ct);
            else
                printf("%s\t%s\t%s\n", key, msg, ct);
        }
        free(msg), free(ct);
        if (!msg)
            break;
    }
    free(text);
    dict_free(&d);
    return 0;
}

/* ---- anneal -------------------------------------------------------------- */

static int corpus_file(sb_pfquad *q, const char *path, sb_error *err)
{
    FILE *f = cli_open(path, err);
    char buf[65536];
    size_t got;
    int rc = 0;
    if (!f)
        return err->code;
    while (!rc && (got = fread(buf, 1, sizeof buf, f)) > 0)
        rc = sb_pfquad_add(q, buf, got, err);
    if (!rc)
        rc = cli_read_check(f, path, err);
    cli_close(f);
    return rc;
}

/* The corpus: its files in the order they are counted, each with what
 * stat said of it (for the cache's tag). */
typedef struct corpus_entry {
    char *name;
    struct stat st;
} corpus_entry;

typedef struct corpus {
    corpus_entry *f;
    size_t n, cap;
    int irregular; /* a file that is not a regular one (a pipe, a device): no tag tells its text */
} corpus;

static int corpus_push(corpus *c, const char *name, const struct stat *st, sb_error *err)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        corpus_entry *f = realloc(c->f, cap * sizeof *f);
        if (!f)
            return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        c->f = f, c->cap = cap;
    }
    if (!(c->f[c->n].name = strdup(name)))
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    c->f[c->n++].st = *st;
    return 0;
}

static void corpus_free(corpus *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->f[i].name);
    free(c->f);
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const corpus_entry *)a)->name, ((const corpus_entry *)b)->name);
}

/* A file, or the files of a directory whose names have no dot (Debian's
 * fortunes keeps its index files as NAME.dat and links as NAME.u8), in
 * name order. */
static int corpus_path(corpus *c, const char *path, sb_error *err)
{
    struct stat st;
    DIR *dir;
    struct dirent *de;
    size_t first = c->n;
    int rc = 0;
    if (stat(path, &st) != 0)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
        c->irregular |= !S_ISREG(st.st_mode);
        return corpus_push(c, path, &st, err);
    }
    if (!(dir = opendir(path)))
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(errno));
    while (!rc && (de = readdir(dir))) {
        char full[4096];
        if (strchr(de->d_name, '.'))
            continue;
        snprintf(full, sizeof full, "%s/%s", path, de->d_name);
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
            rc = corpus_push(c, full, &st, err);
    }
    closedir(dir);
    if (c->n > first)
        qsort(c->f + first, c->n - first, sizeof *c->f, cmp_entry);
    return rc;
}

static void tag_bytes(uint64_t *h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ULL;
}

/* The cache's tag of a corpus: a hash (FNV-1a) of its files' names, in
 * order, and of each one's device, inode, size, and modification and
 * status-change times, so that a change to a file made through the file
 * system, a file more or less, or another order gives another tag. */
static uint64_t corpus_tag(const corpus *c)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < c->n; i++) {
        const struct stat *st = &c->f[i].st;
        int64_t v[7] = {(int64_t)st->st_dev,          (int64_t)st->st_ino,          (int64_t)st->st_size,
                        (int64_t)st->st_mtim.tv_sec,  (int64_t)st->st_mtim.tv_nsec, (int64_t)st->st_ctim.tv_sec,
                        (int64_t)st->st_ctim.tv_nsec};
        tag_bytes(&h, c->f[i].name, strlen(c->f[i].name) + 1);
        tag_bytes(&h, v, sizeof v);
    }
    return h;
}

/* Whether no file of the corpus changed in the last two seconds.  File
 * times move in clock ticks, so a change made in the tick of the one
 * before could leave them, and the tag, as they were: such a corpus is
 * counted but not saved. */
static int corpus_settled(const corpus *c)
{
    time_t now = time(NULL);
    for (size_t i = 0; i < c->n; i++)
        if (c->f[i].st.st_mtim.tv_sec >= now - 2 || c->f[i].st.st_ctim.tv_sec >= now - 2)
            return 0;
    return 1;
}

/* The cache keeps the QUAD_CACHE_KEEP quadgram tables used last (390 KB
 * each): a table read is touched, and saving one more removes the oldest
 * beyond that (a corpus given from a fresh temporary folder each time
 * would otherwise leave a table behind each time), and the half-written
 * copies (NAME.PID.tmp) that saves which died left, an hour on. */
#define QUAD_CACHE_KEEP 8
#define QUAD_NAME "quadgrams-%016llx.tab"
#define QUAD_NAME_LEN 30

/* A quadgram table's name: quadgrams-, 16 hexadecimal digits, .tab;
 * *tmp: followed by .DIGITS.tmp instead. */
static int quad_name(const char *s, int *tmp)
{
    size_t len = strlen(s), k = 10;
    if (len < QUAD_NAME_LEN || strncmp(s, "quadgrams-", 10))
        return 0;
    for (; k < 26; k++)
        if (!((s[k] >= '0' && s[k] <= '9') || (s[k] >= 'a' && s[k] <= 'f')))
            return 0;
    if (strncmp(s + 26, ".tab", 4))
        return 0;
    *tmp = len > QUAD_NAME_LEN;
    if (*tmp) {
        const char *p = s + QUAD_NAME_LEN;
        if (*p++ != '.' || !(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
        return !strcmp(p, ".tmp");
    }
    return 1;
}

typedef struct aged {
    char name[QUAD_NAME_LEN + 1];
    struct timespec t;
} aged;

/* Newest first; names apart in the same tick. */
static int cmp_aged(const void *a, const void *b)
{
    const aged *x = a, *y = b;
    if (x->t.tv_sec != y->t.tv_sec)
        return x->t.tv_sec < y->t.tv_sec ? 1 : -1;
    if (x->t.tv_nsec != y->t.tv_nsec)
        return x->t.tv_nsec < y->t.tv_nsec ? 1 : -1;
    return strcmp(x->name, y->name);
}

static void prune_cache(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    aged *a = NULL;
    size_t n = 0, cap = 0;
    time_t now = time(NULL);
    if (!d)
        return;
    while ((de = readdir(d))) {
        char full[4400];
        struct stat st;
        int tmp;
        if (!quad_name(de->d_name, &tmp))
            continue;
        snprintf(full, sizeof full, "%s/%s", dir, de->d_name);
        if (stat(full, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (tmp) {
            if (st.st_mtim.tv_sec < now - 3600)
                unlink(full);
            continue;
        }
        if (n == cap) {
            aged *b = realloc(a, (cap = cap ? 2 * cap : 16) * sizeof *a);
            if (!b)
                break;
            a = b;
        }
        memcpy(a[n].name, de->d_name, QUAD_NAME_LEN + 1), a[n].t = st.st_mtim, n++;
    }
    closedir(d);
    if (n > QUAD_CACHE_KEEP) {
        qsort(a, n, sizeof *a, cmp_aged);
        for (size_t i = QUAD_CACHE_KEEP; i < n; i++) {
            char full[4400];
            snprintf(full, sizeof full, "%s/%s", dir, a[i].name);
            unlink(full);
        }
    }
    free(a);
}

/* The statistics of the corpus: counted, or read from the cache, where
 * they were saved the first time (unless nocache, or a file of the corpus
 * is no regular file).  *from: the cache file they came from, or "" when
 * counted. */
static sb_pfquad *corpus_table(const corpus *c, int nocache, char *from, size_t cap, sb_error *err)
{
    char dir[4096];
    uint64_t tag = corpus_tag(c);
    sb_pfquad *q;
    *from = 0;
    if (!nocache && !c->irregular && cli_cache_dir(NULL, dir, sizeof dir, "quadgram statistics") == 0 &&
        (size_t)snprintf(from, cap, "%s/" QUAD_NAME, dir, (unsigned long long)tag) >= cap)
        *from = 0; /* a folder name too long: no cache */
    if (*from) {
        sb_error lerr;
        sb_error_clear(&lerr);
        if ((q = sb_pfquad_load(from, tag, NULL, &lerr))) {
            utimensat(AT_FDCWD, from, NULL, 0); /* used now (prune_cache) */
            return q;
        }
        if (lerr.code != SB_EIO) /* there, but damaged: counted again and saved over it */
            fprintf(stderr, "sbfs: %s: counting the corpus again\n", lerr.msg);
    }
    if (!(q = sb_pfquad_new(NULL, err)))
        return NULL;
    for (size_t i = 0; i < c->n; i++)
        if (corpus_file(q, c->f[i].name, err)) {
            sb_pfquad_free(q);
            return NULL;
        }
    if (sb_pfquad_finish(q, err)) {
        sb_pfquad_free(q);
        return NULL;
    }
    if (*from && corpus_settled(c)) {
        sb_error serr;
        sb_error_clear(&serr);
        if (sb_pfquad_save(q, from, tag, &serr))
            fprintf(stderr, "sbfs: the quadgram statistics will not be cached: %s\n", serr.msg);
        else
            prune_cache(dir);
    }
    *from = 0;
    return q;
}

typedef struct anneal_cli {
    const cli_list *corpus;
    int stats, nocache;
    sb_playfair_anneal_opts o;
} anneal_cli;

static int run_anneal(const anneal_cli *ac, const char *file)
{
    sb_error err;
    sb_pfquad *q;
    sb_control ctl;
    cli_progress prog;
    cli_input in;
    char *line, *plain = NULL;
    size_t pcap = 0;
    int status = 0, lineno = 0, got;
    double t0 = sb_now();
    corpus cp = {0};
    char from[4200];
    sb_error_clear(&err);
    for (int i = 0; i < (ac->corpus->n ? ac->corpus->n : 1); i++) {
        const char *path = ac->corpus->n ? ac->corpus->v[i] : DEFAULT_CORPUS;
        if (corpus_path(&cp, path, &err)) {
            corpus_free(&cp);
            if (!ac->corpus->n && err.code == SB_EIO)
                sb_error_set(&err, SB_EIO, 0, 0, "%s missing (Debian package fortunes): give --corpus", path);
            return cli_fail(NULL, &err);
        }
    }
    q = corpus_table(&cp, ac->nocache, from, sizeof from, &err);
    corpus_free(&cp);
    if (!q)
        return cli_fail(NULL, &err);
    if (ac->stats)
        fprintf(stderr, "quadgrams: %llu %s%s in %.1f ms\n", (unsigned long long)sb_pfquad_total(q),
                *from ? "read from " : "counted", from, (sb_now() - t0) * 1e3);
    if (cli_input_open(&in, file, 0, &err)) {
        sb_pfquad_free(q);
        return cli_fail(NULL, &err);
    }
    cli_control_init(&ctl, &prog, 0);
    while (!cli_output_failed() && (got = next_line(&in, &line, &err)) != 0) {
        sb_playfair_anneal_result res;
        size_t need;
        int rc;
        if (got < 0) {
            status = cli_fail(NULL, &err);
            break;
        }
        lineno++;
        if (line[strspn(line, " \t")] == 0)
            continue;
        need = strlen(line) + 1;
        if (need > pcap) {
            char *np = realloc(plain, need);
            if (!np) {
                sb_error_set(&err, SB_ENOMEM, 0, 0, "out of memory");
                status = cli_fail(NULL, &err);
                break;
            }
            plain = np, pcap = need;
        }
        rc = sb_playfair_anneal(q, line, &ac->o, &ctl, &res, plain, &err);
        if (rc == 0 || (rc == SB_EINTR && res.restarts)) {
            char sq[30];
            square_text(res.square, sq);
            if (pf_json)
                pfj_anneal(lineno, sq, plain, res.score);
            else
                printf("%s\t%s\t%.3f\n", sq, plain, res.score);
            if (ac->stats)
                fprintf(stderr, "line %d: %u restarts, %.1f M squares, %.2f s%s\n", lineno, res.restarts,
                        (double)res.steps / 1e6, res.seconds, res.found_twice ? ", best found twice" : "");
        }
        if (rc == SB_EINTR) {
            status = cli_fail(NULL, &err);
            break;
        } else if (rc) {
            if (pf_json)
                pfj_unsolved("anneal", lineno);
            else
                printf("-\t\tunsolved\n");
            err.line = lineno, err.col = rc == SB_EINPUT ? last_letter_col(line) : 0;
            status = cli_fail(shown(file), &err);
            if (rc == SB_ENOMEM)
                break;
        }
    }
    cli_flush();
    cli_control_done(&ctl, &prog);
    free(plain);
    cli_input_close(&in);
    sb_pfquad_free(q);
    return status;
}

static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    *out = strtol(s, &end, 10);
    return !(errno || end == s || *end);
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return !(errno || end == s || *end);
}

/* --square's value: 0 with *order set, or the usage status. */
static int square_order(const cli_cmd *c, const char *v, int random_ok, int *order)
{
    if (!strcmp(v, "columns"))
        *order = SB_PLAYFAIR_COLUMNS;
    else if (!strcmp(v, "rows"))
        *order = SB_PLAYFAIR_ROWS;
    else if (random_ok && !strcmp(v, "random"))
        *order = -1;
    else
        return cli_usage_error_in(c->name, "%s: --square wants columns or rows%s, not '%s'", c->name,
                                  random_ok ? " or random" : "", v);
    return 0;
}

/* --pad's value: one letter, upper-cased into *pad. */
static int pad_letter(const cli_cmd *c, const char *v, char *pad)
{
    if (!((v[0] >= 'A' && v[0] <= 'Z') || (v[0] >= 'a' && v[0] <= 'z')) || v[1])
        return cli_usage_error_in(c->name, "%s: --pad wants one letter, not '%s'", c->name, v);
    *pad = (char)(v[0] >= 'a' ? v[0] - 'a' + 'A' : v[0]);
    return 0;
}

static int do_cipher(const cli_cmd *c, const pf_opts *o, const char *file)
{
    char matrix[25], pad = 'X';
    int order = SB_PLAYFAIR_COLUMNS, st;
    sb_error err;
    sb_error_clear(&err);
    if (!o->keyword == !o->square)
        return cli_usage_error_in(c->name, "%s: give -k KEYWORD or -K SQUARE", c->name);
    if (o->square && o->order)
        return cli_usage_error_in(c->name, "%s: --square orders a keyword's letters, not -K", c->name);
    if ((o->order && (st = square_order(c, o->order, 0, &order))) || (o->pad && (st = pad_letter(c, o->pad, &pad))))
        return st;
    if (o->keyword && sb_playfair_square(o->keyword, order, matrix, &err))
        return cli_usage_error_in(c->name, "-k %s: %s", o->keyword, err.msg);
    if (o->square && sb_playfair_key_square(o->square, matrix, &err))
        return cli_usage_error_in(c->name, "-K %s: %s", o->square, err.msg);
    return run_cipher(!strcmp(c->name, "playfair decrypt"), matrix, pad, o->show, file);
}

static int do_anneal(const cli_cmd *c, const pf_opts *o, const char *file)
{
    anneal_cli ac;
    long seed = 1;
    int nc = sb_pool_threads(0);
    memset(&ac, 0, sizeof ac);
    ac.corpus = &o->corpus, ac.stats = o->stats, ac.nocache = o->nocache;
    ac.o.time_limit = 60;
    if (o->seed && !parse_long(o->seed, &seed))
        return cli_usage_error_in(c->name, "%s: --seed wants a number, not '%s'", c->name, o->seed);
    if (o->time && (!parse_double(o->time, &ac.o.time_limit) || !(ac.o.time_limit > 0)))
        return cli_usage_error_in(c->name, "%s: --time wants seconds, not '%s'", c->name, o->time);
    if (o->temperature && (!parse_double(o->temperature, &ac.o.temperature) || !(ac.o.temperature > 0)))
        return cli_usage_error_in(c->name, "%s: --temperature wants a positive number, not '%s'", c->name,
                                  o->temperature);
    ac.o.seed = (uint64_t)seed;
    ac.o.patience = (unsigned)o->patience, ac.o.max_restarts = (unsigned)o->restarts;
    ac.o.threads = o->threads ? o->threads : nc < SB_PLAYFAIR_ANNEAL_MAXTHREADS ? nc : SB_PLAYFAIR_ANNEAL_MAXTHREADS;
    return run_anneal(&ac, file);
}

static int do_random(const cli_cmd *c, const pf_opts *o)
{
    random_opts ro = {10, 1, 6, o->letters, 1, SB_PLAYFAIR_COLUMNS, 'X', o->text};
    long seed = 1;
    int st;
    if (o->count && (!parse_long(o->count, &ro.count) || ro.count < 0))
        return cli_usage_error_in(c->name, "%s: -n wants a count, not '%s'", c->name, o->count);
    if (o->seed && !parse_long(o->seed, &seed))
        return cli_usage_error_in(c->name, "%s: --seed wants a number, not '%s'", c->name, o->seed);
    if (o->words &&
        (sscanf(o->words, "%ld-%ld", &ro.wmin, &ro.wmax) != 2 || ro.wmin < 1 || ro.wmax < ro.wmin || ro.wmax > 1000))
        return cli_usage_error_in(c->name, "%s: --words wants MIN-MAX (1 <= MIN <= MAX), not '%s'", c->name,
                                  o->words);
    if ((o->order && (st = square_order(c, o->order, 1, &ro.order))) || (o->pad && (st = pad_letter(c, o->pad, &ro.pad))))
        return st;
    if (o->text && !o->letters)
        return cli_usage_error_in(c->name, "%s: --text goes with --letters", c->name);
    ro.seed = (uint64_t)seed;
    return run_random(o->dict ? o->dict : DEFAULT_DICT, &ro);
}

int cmd_playfair(int argc, char **argv)
{
    const cli_cmd *c = NULL;
    const char *file = NULL;
    pf_opts o;
    int nops = 0, st, order = SB_PLAYFAIR_COLUMNS;
    if (argc < 2)
        return cli_usage_error_in("playfair", "playfair: say encrypt, decrypt, crack, anneal or random");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name + strlen("playfair ")))
            c = &commands[i];
    if (!c)
        return cli_usage_error_in("playfair", "playfair: unknown subcommand '%s'", argv[1]);
    memset(&o, 0, sizeof o);
    if ((st = cli_parse(c, argc - 1, argv + 1, &o, &file, &nops)) >= 0)
        return st;
    pf_json = o.json;
    if (!nops)
        file = NULL;
    if (c->opts == encrypt_opts || c->opts == decrypt_opts)
        return do_cipher(c, &o, file);
    if (c->opts == anneal_opts)
        return do_anneal(c, &o, file);
    if (c->opts == random_opts_table)
        return do_random(c, &o);
    if (o.order && (st = square_order(c, o.order, 0, &order)))
        return st;
    return run_crack(o.dict ? o.dict : DEFAULT_DICT, order, o.show, o.stats, file);
}
