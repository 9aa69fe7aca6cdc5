/* sbfs convert: a sliding-block puzzle from one way of writing it to
 * another (src/slide/convert.c does the work): a grid picture to SLIDING's
 * format and back, a Rush Hour line to either. */
#include "slide.h"

#include <stdlib.h>
#include <string.h>

typedef struct convert_opts {
    const char *format, *to;
} convert_opts;

static const cli_opt options[] = {
    CLI_OPT_FORMAT(convert_opts, format),
    {0, "to", CLI_STR, offsetof(convert_opts, to), 0, 0, "FMT",
     "sliding or grid (default: grid for SLIDING's format and Rush Hour\n"
     "lines, sliding for grids)"},
    {0},
};

static const cli_cmd command = {
    "convert", "[OPTIONS] [FILE|-]",
    "Write a sliding-block puzzle in another format on standard output: a grid\n"
    "(the board drawn one character per cell) as SLIDING's format, SLIDING's\n"
    "format as a grid, a Rush Hour line as either.  What convert writes converts\n"
    "back to the same text.\n",
    options, NULL, 1, 0,
};

int cmd_convert(int argc, char **argv)
{
    convert_opts o = {NULL, NULL};
    const char *file = NULL;
    int nops = 0;
    int st = cli_parse(&command, argc, argv, &o, &file, &nops);
    if (st >= 0)
        return st;
    int from = o.format ? cli_slide_format(o.format) : SB_SLIDE_AUTO;
    if (from < 0)
        return cli_usage_error_in("convert", "--format: '%s' is not auto, sliding, grid or rush", o.format);
    int to = -1;
    if (o.to) {
        to = cli_slide_format(o.to);
        if (to != SB_SLIDE_SLIDING && to != SB_SLIDE_GRID)
            return cli_usage_error_in("convert", "--to: '%s' is not sliding or grid", o.to);
    }
    sb_error err;
    cli_input in;
    sb_error_clear(&err);
    if (cli_input_open(&in, nops ? file : NULL, 0, &err))
        return cli_fail(NULL, &err);
    char *text = malloc(CLI_SLIDE_MAXTEXT + 1), *out = NULL;
    size_t len = 0, outlen = 0;
    int rc = text ? cli_input_all(&in, text, CLI_SLIDE_MAXTEXT + 1, &len, &err)
                  : sb_error_set(&err, SB_ENOMEM, 0, 0, "out of memory");
    if (!rc && len > CLI_SLIDE_MAXTEXT)
        rc = sb_error_set(&err, SB_EBIGBOARD, 0, 0, "the puzzle is longer than %d bytes", CLI_SLIDE_MAXTEXT);
    if (!rc && from == SB_SLIDE_AUTO) {
        size_t i = 0;
        while (i < len && (text[i] == '\n' || text[i] == '\r' || text[i] == ' ' || text[i] == '\t'))
            i++;
        const char *e = memchr(text + i, '\n', len - i);
        from = sb_slide_detect(text + i, e ? (size_t)(e - text - i) : len - i);
    }
    if (to < 0)
        to = from == SB_SLIDE_GRID ? SB_SLIDE_SLIDING : SB_SLIDE_GRID;
    if (!rc)
        rc = sb_slide_convert(text, len, from, to, &out, &outlen, &err);
    if (!rc)
        fwrite(out, 1, outlen, stdout);
    free(text);
    free(out);
    const char *name = cli_input_name(&in);
    cli_input_close(&in);
    return rc ? cli_fail(name, &err) : 0;
}
