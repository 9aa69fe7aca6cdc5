/* Reading a sliding-block puzzle and showing its configurations: SLIDING's
 * drawing, its shorthand, JSON, and the distance lines of a search. */
#include "slide.h"

#include <stdlib.h>
#include <string.h>

/* The lines of a SLIDING file whose first nonblank line was already
 * read to tell its format: the blank lines before it, then that line,
 * then the rest of the input. */
typedef struct replay {
    cli_input *in;
    int blanks;
    char *first;
    size_t nfirst;
    int given;
} replay;

static int replay_line(void *ud, const char **s, size_t *n, sb_error *err)
{
    replay *r = ud;
    if (r->blanks) {
        r->blanks--;
        *s = "";
        *n = 0;
        return 1;
    }
    if (!r->given && r->first) {
        r->given = 1;
        *s = r->first;
        *n = r->nfirst;
        return 1;
    }
    return cli_input_line(r->in, s, n, err); /* a stream: one line of memory */
}

int cli_slide_format(const char *name)
{
    static const char *const names[] = {"auto", "sliding", "grid", "rush"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, names[i]))
            return i; /* SB_SLIDE_AUTO .. SB_SLIDE_RUSH */
    return -1;
}

int cli_slide_load(const char *file, sb_slide_puzzle *pz, FILE *warn, int sliding_words, int format)
{
    sb_error err;
    cli_input in;
    replay rp = {&in, 0, NULL, 0, 0};
    char *text = NULL;
    int rc;
    sb_error_clear(&err);
    if (cli_input_open(&in, file, SB_SLIDE_MAXLINE + 2, &err))
        return cli_fail(NULL, &err);
    /* the first nonblank line says the format */
    const char *s = NULL;
    size_t n = 0;
    while ((rc = cli_input_line(&in, &s, &n, &err)) > 0 && !n)
        rp.blanks++;
    if (rc > 0) {
        rp.first = malloc(n + 1);
        if (!rp.first) {
            cli_input_close(&in);
            return cli_status(SB_ENOMEM);
        }
        memcpy(rp.first, s, n);
        rp.first[n] = 0;
        rp.nfirst = n;
        if (format == SB_SLIDE_AUTO)
            format = sb_slide_detect(s, n);
    }
    if (rc < 0) {
        /* the read error itself */
    } else if (format == SB_SLIDE_SLIDING || format == SB_SLIDE_AUTO) {
        rc = sb_slide_parse_lines(pz, replay_line, &rp, &err);
    } else {
        /* read whole: the blank lines, the first line and the rest */
        size_t len = (size_t)rp.blanks + rp.nfirst + 1, got = 0;
        text = rp.blanks + rp.nfirst + 1 < CLI_SLIDE_MAXTEXT ? malloc(CLI_SLIDE_MAXTEXT + 1) : NULL;
        if (!text) {
            rc = sb_error_set(&err, SB_EBIGBOARD, 0, 0, "the puzzle is longer than %d bytes", CLI_SLIDE_MAXTEXT);
        } else {
            memset(text, '\n', (size_t)rp.blanks);
            memcpy(text + rp.blanks, rp.first, rp.nfirst);
            text[len - 1] = '\n';
            rc = cli_input_all(&in, text + len, CLI_SLIDE_MAXTEXT - len + 1, &got, &err);
            if (!rc && got == CLI_SLIDE_MAXTEXT - len + 1)
                rc = sb_error_set(&err, SB_EBIGBOARD, 0, 0, "the puzzle is longer than %d bytes",
                                  CLI_SLIDE_MAXTEXT);
            char *out = NULL;
            size_t outlen = 0;
            if (!rc)
                rc = sb_slide_convert(text, len + got, format, SB_SLIDE_SLIDING, &out, &outlen, &err);
            if (!rc) {
                rc = sb_slide_parse(pz, out, outlen, &err);
                if (rc) { /* the conversion checks what the parser would refuse */
                    char m[160];
                    snprintf(m, sizeof m, "%.150s", err.msg);
                    snprintf(err.msg, sizeof err.msg, "in the converted puzzle, line %d: %s", err.line, m);
                    err.line = err.col = 0;
                }
            }
            free(out);
        }
    }
    free(text);
    free(rp.first);
    cli_input_close(&in);
    for (int i = 0; i < pz->nwarn && i < SB_SLIDE_MAXWARN; i++) {
        if (sliding_words) /* SLIDING's own words, on stdout */
            fprintf(warn, "Warning: Redefinition of piece %c is being ignored.\n", pz->warn_name[i]);
        else
            fprintf(warn, "sbfs: %s:%d:%d: %s\n", file && strcmp(file, "-") ? file : "<stdin>",
                    pz->warn[i].line, pz->warn[i].col, pz->warn[i].msg);
    }
    if (rc)
        return cli_fail(file ? file : "-", &err);
    return 0;
}

void cli_slide_board(const sb_slide *sl, const uint64_t *key)
{
    char buf[SB_SLIDE_BOARD_MAX];
    sb_slide_draw(sl, key, SB_SLIDE_BOARD, buf);
    fputs(buf, stdout);
}

void cli_slide_shorthand(const sb_slide *sl, const uint64_t *key)
{
    char buf[SB_SLIDE_MAXCELLS + 1];
    sb_slide_draw(sl, key, SB_SLIDE_SHORTHAND, buf);
    fputs(buf, stdout);
}

void cli_json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

void cli_slide_json_counts(const sb_search *s, int side)
{
    printf("[");
    for (int d = 0; d < sb_search_result(s)->nlevels[side]; d++)
        printf("%s%llu", d ? ", " : "", (unsigned long long)sb_search_level(s, side, d));
    printf("]");
}

/* A board as rows of one character per cell (piece name, 0 empty, x
 * blocked), its blocks as [name, row, column] of their anchors, and the
 * configuration in SLIDING's shorthand as SLIDING lists it (x cells left
 * out, trailing zeros dropped). */
void cli_slide_json_board(const sb_slide *sl, const uint64_t *key)
{
    unsigned char anchors[SB_SLIDE_MAXCELLS];
    char cells[SB_SLIDE_CELLS_MAX], line[SB_SLIDE_MAXCELLS + 1];
    sb_slide_unpack(sl, key, anchors);
    sb_slide_draw(sl, key, SB_SLIDE_CELLS, cells);
    sb_slide_draw(sl, key, SB_SLIDE_SHORTHAND, line);
    int cols = (int)(strchr(cells, '\n') - cells), ncells = 0;
    printf("{\"rows\": [");
    for (const char *r = cells; *r; r += cols + 1, ncells += cols)
        printf("%s\"%.*s\"", r == cells ? "" : ", ", cols, r);
    printf("], \"blocks\": [");
    for (int j = 0, first = 1; j < ncells; j++)
        if (anchors[j]) {
            printf("%s[\"%c\", %d, %d]", first ? "" : ", ", sb_slide_name(anchors[j]), j / cols + 1, j % cols + 1);
            first = 0;
        }
    printf("], \"shorthand\": \"%s\"}", line);
}

typedef struct side {
    const sb_search *s;
    int k;
} side;

static uint64_t level_at(const void *ud, int d)
{
    const side *x = ud;
    return sb_search_level(x->s, x->k, d);
}

/* Every level made in full (a level being made when the search stopped is
 * left out; the error message names it). */
void cli_slide_counts(const sb_search *s)
{
    const sb_search_info *in = sb_search_result(s);
    if (!in->bidir) {
        cli_histogram("distance", in->nlevels[0], level_at, &(side){s, 0});
        return;
    }
    cli_histogram("forward", in->nlevels[0], level_at, &(side){s, 0});
    cli_histogram("backward", in->nlevels[1], level_at, &(side){s, 1});
}
