/* Reading a sliding-block puzzle and showing its configurations: SLIDING's
 * drawing, its shorthand, JSON, and the distance lines of a search. */
#include "slide.h"

#include <string.h>

/* Lines for sb_slide_parse_lines from the one input reader, in a buffer
 * of one line: the input is a stream, and any number of blank lines takes
 * no memory.  A line past the longest the format allows is kept in part
 * (the parser then reports it too long); NUL bytes stay. */
static int next_line(void *ud, const char **s, size_t *n, sb_error *err)
{
    return cli_input_line(ud, s, n, err);
}

int cli_slide_load(const char *file, sb_slide_puzzle *pz, FILE *warn, int sliding_words)
{
    sb_error err;
    cli_input in;
    sb_error_clear(&err);
    if (cli_input_open(&in, file, SB_SLIDE_MAXLINE + 2, &err))
        return cli_fail(NULL, &err);
    int rc = sb_slide_parse_lines(pz, next_line, &in, &err);
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
    unsigned char anchors[SB_SLIDE_MAXCELLS];
    char buf[SB_SLIDE_BOARD_MAX];
    sb_slide_unpack(sl, key, anchors);
    sb_slide_board_text(sl->pz, anchors, buf);
    fputs(buf, stdout);
}

void cli_slide_shorthand(const sb_slide *sl, const uint64_t *key)
{
    unsigned char anchors[SB_SLIDE_MAXCELLS];
    char buf[SB_SLIDE_MAXCELLS + 1];
    sb_slide_unpack(sl, key, anchors);
    sb_slide_shorthand(sl->pz, anchors, buf);
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
    sb_slide_unpack(sl, key, anchors);
    cli_slide_json_anchors(sl->pz, anchors);
}

void cli_slide_json_anchors(const sb_slide_puzzle *pz, const unsigned char *anchors)
{
    char cells[SB_SLIDE_CELLS_MAX], line[SB_SLIDE_MAXCELLS + 1];
    sb_slide_cells(pz, anchors, cells);
    sb_slide_shorthand(pz, anchors, line);
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
