/* sbfs playfair: the Playfair cipher of the 1999 MacTech Programmer's
 * Challenge and the textbook one.  encrypt and decrypt with a keyword or a
 * key square, crack with a dictionary, anneal without one, random draws
 * test messages. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "playfair_json.h"

/* --json: answers as JSON lines (playfair_json.c) */
static int pf_json;

#define DEFAULT_DICT "/usr/share/dict/words"
#define DEFAULT_CORPUS "/usr/share/games/fortunes"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: sbfs playfair encrypt (-k KEYWORD [--square ORDER] | -K SQUARE) [--pad L]\n"
            "                             [--show-square] [FILE]\n"
            "       sbfs playfair decrypt (-k KEYWORD [--square ORDER] | -K SQUARE) [--show-square] [FILE]\n"
            "       sbfs playfair crack [-d DICTIONARY] [--square ORDER] [--show-square] [--stats] [FILE]\n"
            "       sbfs playfair anneal [--corpus PATH]... [--seed N] [--time SECONDS] [-j THREADS]\n"
            "                            [--patience N] [--restarts N] [--stats] [FILE]\n"
            "       sbfs playfair random [-d DICTIONARY] [-n COUNT] [--seed N] [--words MIN-MAX]\n"
            "                            [--square ORDER|random] [--pad L] [--letters N [--text FILE]]\n"
            "\n"
            "The Playfair cipher.  The 5x5 square holds the keyword's distinct letters and\n"
            "then the rest of the alphabet; I and J share a cell.  In the 1999 MacTech\n"
            "Programmer's Challenge (--square columns, the default) they are written in\n"
            "lines as wide as the keyword and read off by columns; in the textbook square\n"
            "(--square rows) they are written five to a row.  Each line of FILE (default:\n"
            "standard input) is one message.\n"
            "\n"
            "  encrypt   prints the ciphertext pairs (\"HW UY RF\"): letters only, J as I,\n"
            "            the filler (X) between equal letters of a pair and to complete\n"
            "            the last pair\n"
            "  decrypt   prints the deciphered pairs, inserted fillers still in place\n"
            "  crack     finds the dictionary keyword and the reading with the fewest\n"
            "            dictionary words (of those, the one whose X's between equal\n"
            "            letters and at the end are fillers); prints KEYWORD<TAB>PLAINTEXT,\n"
            "            with a last column \"ambiguous\" when another reading ties, and\n"
            "            \"-<TAB><TAB>unsolved\" when no keyword explains the line\n"
            "  anneal    finds a key square without any keyword, by simulated annealing\n"
            "            scored by English quadgrams; prints SQUARE<TAB>PLAINTEXT<TAB>SCORE\n"
            "            (the deciphered letters, fillers in place; the mean log10\n"
            "            quadgram frequency, English about -4.3)\n"
            "  random    prints COUNT test messages KEY<TAB>PLAINTEXT<TAB>CIPHERTEXT\n"
            "\n"
            "  -k KEYWORD      letters only (J counts as I)\n"
            "  -K SQUARE       the key square itself: 25 distinct letters row by row\n"
            "                  (other characters skipped: \"PLAYF IREXM BCDGH KNOQS TUVWZ\")\n"
            "  --square ORDER  columns (the Challenge's, default) or rows (the textbook\n"
            "                  square); random: random key squares (random only)\n"
            "  --show-square   encrypt, decrypt: print the square first, five rows;\n"
            "                  crack: the square as a column after the plaintext\n"
            "  --pad L         the filler letter (default X)\n"
            "  --json          each answer as one JSON object a line\n"
            "  -d DICTIONARY   word list, one word per line (default " DEFAULT_DICT ");\n"
            "                  words with anything but the letters A-Z are left out,\n"
            "                  the rest upper-cased\n"
            "  --corpus PATH   anneal: English text for the quadgram statistics, a file or\n"
            "                  a directory of files (names without a dot); repeatable\n"
            "                  (default " DEFAULT_CORPUS ", Debian's fortunes)\n"
            "  --time SECONDS  anneal: stop a message after this long (default 60)\n"
            "  -j THREADS      anneal: restarts side by side (default: processors)\n"
            "  --patience N    anneal: stop after N restarts in a row that do not beat\n"
            "                  the best (default 8; also stops once the best was found\n"
            "                  twice and a restart since did not beat it)\n"
            "  --restarts N    anneal: at most N restarts (rounded up to a multiple of 4)\n"
            "  --stats         crack, anneal: set-up and cracking times on stderr\n"
            "  -n COUNT        random: messages to draw (default 10)\n"
            "  --seed N        random, anneal: seed of the generator (default 1)\n"
            "  --words MIN-MAX random: words per message (default 1-6)\n"
            "  --letters N     random: messages of N letters, cut from random words or\n"
            "                  from passages of --text FILE at random places\n");
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
    FILE *f;
    char *line = NULL, *out = NULL;
    size_t lcap = 0, ocap = 0;
    int status = 0, lineno = 0;
    sb_error_clear(&err);
    if (!(f = cli_open(file, &err)))
        return cli_fail(NULL, &err);
    if (show && !pf_json)
        print_square(matrix);
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
    if (!status && !cli_output_failed() && cli_read_check(f, file, &err))
        status = cli_fail(NULL, &err);
    free(line);
    free(out);
    cli_close(f);
    return status;
}

static int run_crack(const char *dictpath, int order, int show, int stats, const char *file)
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

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A file, or the files of a directory whose names have no dot (Debian's
 * fortunes keeps its index files as NAME.dat and links as NAME.u8), in
 * name order. */
static int corpus_path(sb_pfquad *q, const char *path, sb_error *err)
{
    struct stat st;
    DIR *dir;
    struct dirent *de;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    if (stat(path, &st) != 0)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return corpus_file(q, path, err);
    if (!(dir = opendir(path)))
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(errno));
    while ((de = readdir(dir))) {
        char full[4096];
        if (strchr(de->d_name, '.'))
            continue;
        snprintf(full, sizeof full, "%s/%s", path, de->d_name);
        if (stat(full, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        if (!(names[n] = strdup(full)))
            break;
        n++;
    }
    closedir(dir);
    if (n)
        qsort(names, n, sizeof *names, cmp_cstr);
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = corpus_file(q, names[i], err);
        free(names[i]);
    }
    free(names);
    return rc;
}

typedef struct anneal_cli {
    const char *corpus[16];
    int ncorpus, threads, stats;
    sb_playfair_anneal_opts o;
} anneal_cli;

static int run_anneal(const anneal_cli *ac, const char *file)
{
    sb_error err;
    sb_pfquad *q;
    sb_control ctl;
    cli_progress prog;
    FILE *f;
    char *line = NULL, *plain = NULL;
    size_t lcap = 0, pcap = 0;
    int status = 0, lineno = 0;
    double t0 = sb_now();
    sb_error_clear(&err);
    if (!(q = sb_pfquad_new(NULL, &err)))
        return cli_fail(NULL, &err);
    for (int i = 0; i < (ac->ncorpus ? ac->ncorpus : 1); i++) {
        const char *path = ac->ncorpus ? ac->corpus[i] : DEFAULT_CORPUS;
        if (corpus_path(q, path, &err)) {
            sb_pfquad_free(q);
            if (!ac->ncorpus && err.code == SB_EIO)
                sb_error_set(&err, SB_EIO, 0, 0, "%s missing (Debian package fortunes): give --corpus", path);
            return cli_fail(NULL, &err);
        }
    }
    if (sb_pfquad_finish(q, &err)) {
        sb_pfquad_free(q);
        return cli_fail(NULL, &err);
    }
    if (ac->stats)
        fprintf(stderr, "quadgrams: %llu counted in %.1f ms\n", (unsigned long long)sb_pfquad_total(q),
                (sb_now() - t0) * 1e3);
    if (!(f = cli_open(file, &err))) {
        sb_pfquad_free(q);
        return cli_fail(NULL, &err);
    }
    cli_control_init(&ctl, &prog, 0);
    while (!cli_interrupted() && !cli_output_failed() && getline(&line, &lcap, f) >= 0) {
        sb_playfair_anneal_result res;
        size_t need;
        int rc;
        lineno++;
        chomp(line);
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
    if (!status && !cli_output_failed() && cli_read_check(f, file, &err))
        status = cli_fail(NULL, &err);
    cli_flush();
    cli_control_done(&ctl, &prog);
    free(line);
    free(plain);
    cli_close(f);
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

int cmd_playfair(int argc, char **argv)
{
    const char *sub, *keyword = NULL, *square = NULL, *dictpath = DEFAULT_DICT, *file = NULL;
    int stats = 0, show = 0, order = SB_PLAYFAIR_COLUMNS, order_set = 0, pad_set = 0;
    long count = 10, wmin = 1, wmax = 6, seed = 1, letters = 0, threads = 0;
    char pad = 'X';
    const char *text = NULL;
    anneal_cli ac;
    memset(&ac, 0, sizeof ac);
    ac.o.time_limit = 60;
    if (argc < 2)
        return cli_usage_error("playfair: say encrypt, decrypt, crack, anneal or random");
    sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h")) {
        usage(stdout);
        return 0;
    }
    if (strcmp(sub, "encrypt") && strcmp(sub, "decrypt") && strcmp(sub, "crack") && strcmp(sub, "random") &&
        strcmp(sub, "anneal"))
        return cli_usage_error("playfair: unknown subcommand '%s'", sub);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-k") && has) {
            keyword = argv[++i];
        } else if (!strcmp(a, "-K") && has) {
            square = argv[++i];
        } else if (!strcmp(a, "--square") && has) {
            const char *v = argv[++i];
            order_set = 1;
            if (!strcmp(v, "columns"))
                order = SB_PLAYFAIR_COLUMNS;
            else if (!strcmp(v, "rows"))
                order = SB_PLAYFAIR_ROWS;
            else if (!strcmp(v, "random") && !strcmp(sub, "random"))
                order = -1;
            else
                return cli_usage_error("playfair %s: --square wants columns or rows%s, not '%s'", sub,
                                       strcmp(sub, "random") ? "" : " or random", v);
        } else if (!strcmp(a, "--show-square")) {
            show = 1;
        } else if (!strcmp(a, "--pad") && has) {
            const char *v = argv[++i];
            if (!((v[0] >= 'A' && v[0] <= 'Z') || (v[0] >= 'a' && v[0] <= 'z')) || v[1])
                return cli_usage_error("playfair: --pad wants one letter, not '%s'", v);
            pad = (char)(v[0] >= 'a' ? v[0] - 'a' + 'A' : v[0]), pad_set = 1;
        } else if (!strcmp(a, "-d") && has) {
            dictpath = argv[++i];
        } else if (!strcmp(a, "--corpus") && has) {
            if (ac.ncorpus == (int)(sizeof ac.corpus / sizeof *ac.corpus))
                return cli_usage_error("playfair: at most %d --corpus paths", ac.ncorpus);
            ac.corpus[ac.ncorpus++] = argv[++i];
        } else if (!strcmp(a, "--json")) {
            pf_json = 1;
        } else if (!strcmp(a, "--stats")) {
            stats = 1;
        } else if (!strcmp(a, "-n") && has) {
            if (!parse_long(argv[++i], &count) || count < 0)
                return cli_usage_error("playfair: -n wants a count, not '%s'", argv[i]);
        } else if (!strcmp(a, "-j") && has) {
            if (!parse_long(argv[++i], &threads) || threads < 1 || threads > SB_PLAYFAIR_ANNEAL_MAXTHREADS)
                return cli_usage_error("playfair: -j wants 1 to %d threads, not '%s'",
                                       SB_PLAYFAIR_ANNEAL_MAXTHREADS, argv[i]);
        } else if (!strcmp(a, "--time") && has) {
            if (!parse_double(argv[++i], &ac.o.time_limit) || !(ac.o.time_limit > 0))
                return cli_usage_error("playfair: --time wants seconds, not '%s'", argv[i]);
        } else if (!strcmp(a, "--restarts") && has) {
            long p;
            if (!parse_long(argv[++i], &p) || p < 1 || p > 100000000)
                return cli_usage_error("playfair: --restarts wants a count, not '%s'", argv[i]);
            ac.o.max_restarts = (unsigned)p;
        } else if (!strcmp(a, "--patience") && has) {
            long p;
            if (!parse_long(argv[++i], &p) || p < 1 || p > 1000000)
                return cli_usage_error("playfair: --patience wants a count, not '%s'", argv[i]);
            ac.o.patience = (unsigned)p;
        } else if (!strcmp(a, "--seed") && has) {
            if (!parse_long(argv[++i], &seed))
                return cli_usage_error("playfair: --seed wants a number, not '%s'", argv[i]);
        } else if (!strcmp(a, "--letters") && has) {
            if (!parse_long(argv[++i], &letters) || letters < 1 || letters > 100000)
                return cli_usage_error("playfair: --letters wants a count, not '%s'", argv[i]);
        } else if (!strcmp(a, "--text") && has) {
            text = argv[++i];
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
    if (pad_set && strcmp(sub, "encrypt") && strcmp(sub, "random"))
        return cli_usage_error("playfair %s: --pad is for encrypt and random (crack reads X's)", sub);
    if (show && strcmp(sub, "encrypt") && strcmp(sub, "decrypt") && strcmp(sub, "crack"))
        return cli_usage_error("playfair %s: --show-square is for encrypt, decrypt and crack", sub);
    if (order_set && !strcmp(sub, "anneal"))
        return cli_usage_error("playfair anneal: finds any square; --square is for the others");
    if (text && !letters)
        return cli_usage_error("playfair random: --text goes with --letters");
    if (!strcmp(sub, "encrypt") || !strcmp(sub, "decrypt")) {
        char matrix[25];
        sb_error err;
        sb_error_clear(&err);
        if (!keyword == !square)
            return cli_usage_error("playfair %s: give -k KEYWORD or -K SQUARE", sub);
        if (square && order_set)
            return cli_usage_error("playfair %s: --square orders a keyword's letters, not -K", sub);
        if (keyword && sb_playfair_square(keyword, order, matrix, &err))
            return cli_usage_error("-k %s: %s", keyword, err.msg);
        if (square && sb_playfair_key_square(square, matrix, &err))
            return cli_usage_error("-K %s: %s", square, err.msg);
        return run_cipher(sub[0] == 'd', matrix, pad, show, file);
    }
    if (keyword || square)
        return cli_usage_error("playfair %s: -k and -K are for encrypt and decrypt", sub);
    if (!strcmp(sub, "crack"))
        return run_crack(dictpath, order, show, stats, file);
    if (!strcmp(sub, "anneal")) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        ac.o.seed = (uint64_t)seed, ac.stats = stats;
        ac.o.threads = threads ? (int)threads : nc > 1 ? (int)(nc < SB_PLAYFAIR_ANNEAL_MAXTHREADS ? nc : SB_PLAYFAIR_ANNEAL_MAXTHREADS) : 1;
        return run_anneal(&ac, file);
    }
    if (file)
        return cli_usage_error("playfair random: takes no input file");
    {
        random_opts ro = {count, wmin, wmax, letters, (uint64_t)seed, order, pad, text};
        return run_random(dictpath, &ro);
    }
}
