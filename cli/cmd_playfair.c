/* sbfs playfair: the Playfair cipher of the 1999 MacTech Programmer's
 * Challenge.  encrypt and decrypt with a keyword, crack with a dictionary,
 * random draws test messages from a dictionary. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_DICT "/usr/share/dict/words"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: sbfs playfair encrypt -k KEYWORD [FILE]\n"
            "       sbfs playfair decrypt -k KEYWORD [FILE]\n"
            "       sbfs playfair crack [-d DICTIONARY] [--stats] [FILE]\n"
            "       sbfs playfair random [-d DICTIONARY] [-n COUNT] [--seed N] [--words MIN-MAX]\n"
            "\n"
            "The Playfair cipher of the 1999 MacTech Programmer's Challenge: the 5x5\n"
            "matrix holds the keyword's letters and then the rest of the alphabet,\n"
            "written in lines as wide as the keyword and read off by columns; I and J\n"
            "share a cell.  Each line of FILE (default: standard input) is one message.\n"
            "\n"
            "  encrypt   prints the ciphertext pairs (\"HW UY RF\"): letters only, J as I,\n"
            "            X between equal letters of a pair and to complete the last pair\n"
            "  decrypt   prints the deciphered pairs, inserted X's still in place\n"
            "  crack     finds the dictionary keyword and the reading with the fewest\n"
            "            dictionary words; prints KEYWORD<TAB>PLAINTEXT, with a third\n"
            "            column \"ambiguous\" when another reading has as few words, and\n"
            "            \"-<TAB><TAB>unsolved\" when no keyword explains the line\n"
            "  random    prints COUNT test messages KEYWORD<TAB>PLAINTEXT<TAB>CIPHERTEXT\n"
            "\n"
            "  -k KEYWORD      letters only (J counts as I)\n"
            "  -d DICTIONARY   word list, one word per line (default " DEFAULT_DICT ");\n"
            "                  words with anything but the letters A-Z are left out,\n"
            "                  the rest upper-cased\n"
            "  --stats         crack: dictionary set-up and cracking times on stderr\n"
            "  -n COUNT        random: messages to draw (default 10)\n"
            "  --seed N        random: seed of the generator (default 1)\n"
            "  --words MIN-MAX random: words per message (default 1-6)\n");
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

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
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

static int run_cipher(int decrypt, const char *keyword, const char *file)
{
    char matrix[25];
    sb_error err;
    FILE *f;
    char *line = NULL, *out = NULL;
    size_t lcap = 0, ocap = 0;
    int status = 0, lineno = 0;
    sb_error_clear(&err);
    if (sb_playfair_matrix(keyword, matrix, &err))
        return cli_usage_error("-k %s: %s", keyword, err.msg);
    if (!(f = cli_open(file, &err)))
        return cli_fail(NULL, &err);
    while (!cli_interrupted() && !cli_output_failed() && getline(&line, &lcap, f) >= 0) {
        size_t need = 3 * strlen(line) + 2;
        lineno++;
        chomp(line);
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
            sb_playfair_encrypt(matrix, line, out);
        } else if (sb_playfair_decrypt(matrix, line, out, &err) < 0) {
            err.line = lineno, err.col = last_letter_col(line);
            status = cli_fail(shown(file), &err);
            break;
        }
        puts(out);
    }
    if (!status && !cli_output_failed() && cli_read_check(f, file, &err))
        status = cli_fail(NULL, &err);
    free(line);
    free(out);
    cli_close(f);
    return status;
}

static int run_crack(const char *dictpath, int stats, const char *file)
{
    dict d;
    sb_error err;
    sb_playfair *pf;
    sb_control ctl;
    cli_progress prog;
    FILE *f;
    char *line = NULL;
    size_t lcap = 0;
    int status = 0, lineno = 0, solved = 0, unsolved = 0, ambiguous = 0;
    double t0, t1, tcrack = 0;
    uint64_t pairs = 0, parsed = 0;
    sb_error_clear(&err);
    t0 = sb_now();
    if (dict_load(dictpath, &d, &err))
        return cli_fail(dictpath, &err);
    t1 = sb_now();
    pf = sb_playfair_new((const char *const *)d.w, d.n, NULL, &err);
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
    if (!(f = cli_open(file, &err))) {
        sb_playfair_free(pf);
        return cli_fail(NULL, &err);
    }
    cli_control_init(&ctl, &prog, 0);
    while (!cli_interrupted() && !cli_output_failed() && getline(&line, &lcap, f) >= 0) {
        sb_playfair_result res;
        int rc;
        lineno++;
        chomp(line);
        if (line[strspn(line, " \t")] == 0)
            continue; /* a blank line is no message */
        t0 = sb_now();
        rc = sb_playfair_crack(pf, line, &ctl, &res, &err);
        tcrack += sb_now() - t0;
        pairs += res.pairs, parsed += res.parsed;
        if (rc == 0) {
            printf("%s\t%s%s\n", res.keyword, res.plaintext, res.ambiguous ? "\tambiguous" : "");
            solved++, ambiguous += res.ambiguous;
        } else if (rc == SB_ENOTFOUND) {
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
    if (!status && !cli_output_failed() && cli_read_check(f, file, &err))
        status = cli_fail(NULL, &err);
    cli_flush();
    cli_control_done(&ctl, &prog);
    if (stats) {
        int all = solved + unsolved ? solved + unsolved : 1;
        fprintf(stderr, "cracked: %d messages (%d ambiguous), %d unsolved, in %.2f ms, %.3f ms each\n",
                solved, ambiguous, unsolved, tcrack * 1e3, tcrack * 1e3 / all);
        fprintf(stderr, "search: %.0f pairs deciphered and %.1f texts parsed exactly per message\n",
                (double)pairs / all, (double)parsed / all);
    }
    free(line);
    cli_close(f);
    sb_playfair_free(pf);
    return status;
}

static int run_random(const char *dictpath, long count, uint64_t seed, long wmin, long wmax)
{
    dict d;
    sb_error err;
    sb_rng rng;
    sb_error_clear(&err);
    if (dict_load(dictpath, &d, &err))
        return cli_fail(dictpath, &err);
    sb_rng_seed(&rng, seed);
    for (long i = 0; i < count && !cli_output_failed(); i++) {
        long nw = wmin + (long)sb_rng_below(&rng, (uint64_t)(wmax - wmin + 1));
        const char *key = d.w[sb_rng_below(&rng, d.n)];
        char matrix[25], *msg, *ct;
        size_t len = 0;
        const char **pick = malloc((size_t)nw * sizeof *pick);
        if (!pick)
            break;
        for (long j = 0; j < nw; j++) {
            pick[j] = d.w[sb_rng_below(&rng, d.n)];
            len += strlen(pick[j]) + 1;
        }
        msg = malloc(len + 1), ct = malloc(3 * len + 2);
        if (msg && ct) {
            msg[0] = 0;
            for (long j = 0; j < nw; j++) {
                if (j)
                    strcat(msg, " ");
                strcat(msg, pick[j]);
            }
            sb_playfair_matrix(key, matrix, NULL);
            sb_playfair_encrypt(matrix, msg, ct);
            printf("%s\t%s\t%s\n", key, msg, ct);
        }
        free(msg), free(ct), free(pick);
    }
    dict_free(&d);
    return 0;
}

static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    *out = strtol(s, &end, 10);
    return !(errno || end == s || *end);
}

int cmd_playfair(int argc, char **argv)
{
    const char *sub, *keyword = NULL, *dictpath = DEFAULT_DICT, *file = NULL;
    int stats = 0;
    long count = 10, wmin = 1, wmax = 6, seed = 1;
    if (argc < 2)
        return cli_usage_error("playfair: say encrypt, decrypt, crack or random");
    sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h")) {
        usage(stdout);
        return 0;
    }
    if (strcmp(sub, "encrypt") && strcmp(sub, "decrypt") && strcmp(sub, "crack") && strcmp(sub, "random"))
        return cli_usage_error("playfair: unknown subcommand '%s'", sub);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-k") && has) {
            keyword = argv[++i];
        } else if (!strcmp(a, "-d") && has) {
            dictpath = argv[++i];
        } else if (!strcmp(a, "--stats")) {
            stats = 1;
        } else if (!strcmp(a, "-n") && has) {
            if (!parse_long(argv[++i], &count) || count < 0)
                return cli_usage_error("playfair: -n wants a count, not '%s'", argv[i]);
        } else if (!strcmp(a, "--seed") && has) {
            if (!parse_long(argv[++i], &seed))
                return cli_usage_error("playfair: --seed wants a number, not '%s'", argv[i]);
        } else if (!strcmp(a, "--words") && has) {
            const char *s = argv[++i];
            if (sscanf(s, "%ld-%ld", &wmin, &wmax) != 2 || wmin < 1 || wmax < wmin || wmax > 1000)
                return cli_usage_error("playfair: --words wants MIN-MAX (1 <= MIN <= MAX), not '%s'", s);
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("playfair %s: unknown or incomplete option '%s'", sub, a);
        } else if (!file) {
            file = a;
        } else {
            return cli_usage_error("playfair %s: one input file at most", sub);
        }
    }
    if (!strcmp(sub, "encrypt") || !strcmp(sub, "decrypt")) {
        if (!keyword)
            return cli_usage_error("playfair %s: -k KEYWORD is required", sub);
        return run_cipher(sub[0] == 'd', keyword, file);
    }
    if (keyword)
        return cli_usage_error("playfair %s: -k is for encrypt and decrypt", sub);
    if (!strcmp(sub, "crack"))
        return run_crack(dictpath, stats, file);
    if (file)
        return cli_usage_error("playfair random: takes no input file");
    return run_random(dictpath, count, (uint64_t)seed, wmin, wmax);
}
