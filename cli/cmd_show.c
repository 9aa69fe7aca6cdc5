/* sbfs show: a sliding-block puzzle drawn without solving it, as a page
 * (the start, walls and goal cells marked) or as SVG. */
#include "slide.h"
#include "view.h"

#include <stdlib.h>

typedef struct show_opts {
    const char *html, *svg;
    int json;
} show_opts;

static const cli_opt options[] = {
    {0, "html", CLI_STR, offsetof(show_opts, html), 0, 0, "FILE", "write the page to FILE (- for stdout, the default)"},
    {0, "svg", CLI_STR, offsetof(show_opts, svg), 0, 0, "FILE", "write the start as SVG to FILE (- for stdout)"},
    CLI_OPT_JSON(show_opts, json, "print the puzzle as one JSON document (with --html or --svg: as well)"),
    {0},
};

static const cli_cmd command = {
    "show", "[OPTIONS] [FILE|-]",
    "Draw a sliding-block puzzle in SLIDING's format without solving it: the start,\n"
    "each piece in its own colour (pieces of one kind share a hue), walls dark,\n"
    "the cells a stop line names outlined.  Writes one self-contained HTML page\n"
    "(no network, no other file) or, with --svg, an SVG picture.\n",
    options, NULL, 1, 0,
};

int cmd_show(int argc, char **argv)
{
    show_opts o = {NULL, NULL, 0};
    const char *file = NULL;
    int n = 0, st;
    sb_error err;
    view v;
    if ((st = cli_parse(&command, argc, argv, &o, &file, &n)) >= 0)
        return st;
    if (!o.html && !o.svg && !o.json)
        o.html = "-";
    sb_slide_puzzle *pz = malloc(sizeof *pz);
    if (!pz)
        return cli_fail(NULL, &(sb_error){SB_ENOMEM, 0, 0, "out of memory"});
    if ((st = cli_slide_load(n ? file : NULL, pz, stderr, 0, SB_SLIDE_AUTO))) {
        free(pz);
        return st;
    }
    sb_slide *sl; /* the model draws the start as solve draws boards */
    sb_error_clear(&err);
    if (sb_slide_new(&sl, pz, 0, NULL, &err)) {
        free(pz);
        return cli_fail(n ? file : "-", &err);
    }
    if (o.json) {
        printf("{\"command\": \"show\", \"puzzle\": ");
        cli_json_str(n ? file : "-");
        printf(", \"title\": ");
        cli_json_str(pz->title);
        printf(", \"rows\": %d, \"cols\": %d, \"start\": ", pz->rows, pz->cols);
        cli_slide_json_board(sl, sb_slide_key(sl, SB_SLIDE_START));
        printf(", \"goals\": %d, \"goal_full\": %s}\n", pz->ngoals, pz->goal_full ? "true" : "false");
    }
    int rc = view_slide(&v, pz, NULL, 0, 0, NULL, 0, NULL, &err);
    if (!rc && o.html)
        rc = view_write_html(&v, o.html, &err);
    if (!rc && o.svg)
        rc = view_write_svg(&v, 0, o.svg, &err);
    view_free(&v);
    sb_slide_free(sl);
    free(pz);
    return rc ? cli_fail(NULL, &err) : 0;
}
