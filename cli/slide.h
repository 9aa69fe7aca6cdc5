/* The sliding-block commands' shared parts (solve, explore, and SLIDING's
 * own command line): reading a puzzle, drawing boards as text and JSON
 * (slide_print.c), and the search that solve and explore both run
 * (slide_search.c). */
#ifndef SBFS_CLI_SLIDE_H
#define SBFS_CLI_SLIDE_H

#include "cli.h"
#include "sbfs/search.h"
#include "sbfs/slide.h"

/* Read and parse FILE (NULL or "-": stdin) in `format` (SB_SLIDE_AUTO:
 * as its first nonblank line says).  SLIDING's format is read as a stream,
 * a line at a time; a grid or a Rush Hour line is read whole (at most
 * CLI_SLIDE_MAXTEXT bytes) and converted.  Prints the error and the
 * warnings itself: on `warn`, in SLIDING's own words when sliding_words,
 * else as "sbfs: FILE:LINE:COL: ...".  0 or the exit status. */
#define CLI_SLIDE_MAXTEXT (1 << 20)
int cli_slide_load(const char *file, sb_slide_puzzle *pz, FILE *warn, int sliding_words, int format);
/* The format named by --format (auto, sliding, grid, rush); -1 if none. */
int cli_slide_format(const char *name);
#define CLI_OPT_FORMAT(T, f)                                                                         \
    {0, "format", CLI_STR, offsetof(T, f), 0, 0, "FMT",                                           \
     "the puzzle's format: sliding, grid, rush or auto (default: auto,\n"                         \
     "from the first line)"}

/* The configuration of key drawn as SLIDING draws it, on stdout. */
void cli_slide_board(const sb_slide *sl, const uint64_t *key);
/* The configuration in SLIDING's shorthand (no newline), on stdout. */
void cli_slide_shorthand(const sb_slide *sl, const uint64_t *key);
/* A JSON string, escaped, on stdout. */
void cli_json_str(const char *s);
/* A board as JSON: rows, blocks, shorthand (slide_print.c says how). */
void cli_slide_json_board(const sb_slide *sl, const uint64_t *key);
/* The same for a configuration given as anchors (kind value per cell). */
/* The counts of one side of a search as a JSON array. */
void cli_slide_json_counts(const sb_search *s, int side);
/* The distance lines of a search ("distance D: N", or "forward D: N" and
 * "backward D: N" both ways): every level made in full. */
void cli_slide_counts(const sb_search *s);

/* Options of solve and explore: one struct, two tables. */
typedef struct search_opts {
    int style, quiet, verbose, progress, json, bidir, threads;
    const char *memarg;
    const char *html, *svg; /* solve: the page, the start as SVG */
    int moves;              /* solve: only the moves, one a line */
    const char *disk, *disk_limit; /* --disk DIR, --disk-limit SIZE */
    const char *checkpoint, *resume; /* --checkpoint DIR, --resume DIR */
    const char *spill;               /* --spill DIR */
    const char *format; /* --format, NULL for auto */
} search_opts;

/* The options of levels on disk, the same in solve and explore. */
#define SEARCH_DISK_OPTS                                                                             \
    {0, "disk", CLI_STR, offsetof(search_opts, disk), 0, 0, "DIR",                                   \
     "keep the levels in files in a new folder inside DIR: searches larger\n"                        \
     "than --memory (the folder is removed at the end)"},                                            \
        {0, "disk-limit", CLI_STR, offsetof(search_opts, disk_limit), 0, 0, "SIZE",                  \
         "with --disk or --spill: stop (status 4) before the files pass SIZE bytes"},                \
        {0, "spill", CLI_STR, offsetof(search_opts, spill), 0, 0, "DIR",                             \
         "when --memory runs out, go on with the levels made so far in files in\n"                   \
         "a new folder inside DIR, as --disk does (a note on stderr; the same output)"},             \
        {0, "checkpoint", CLI_STR, offsetof(search_opts, checkpoint), 0, 0, "DIR",                   \
         "keep the levels on disk in DIR (kept), so that a run stopped\n"                            \
         "(Ctrl-C, a kill, a power loss) can be taken up with --resume DIR"},                        \
        {0, "resume", CLI_STR, offsetof(search_opts, resume), 0, 0, "DIR",                           \
         "take up the run kept in DIR by --checkpoint, with the same puzzle and\n"                   \
         "options; it ends as the run never stopped would have"}

/* One run of solve or explore. */
typedef struct search_run {
    search_opts o;
    const char *file; /* the operand, NULL for stdin */
    sb_slide_puzzle *pz;
    sb_mem mem;
    sb_slide *sl;
    int kw; /* words in a key of sl */
    sb_search *srch;
    const sb_search_info *info; /* the result, once searched */
    sb_error err;
    sb_control ctl; /* progress and Ctrl-C, until cli_search_quiet */
    cli_progress prog;
    double secs, cpu;
    uint64_t *path; /* solve: info->length + 1 keys from the start to the goal, or NULL */
    int have_ctl;
    const void *mpi_stats; /* the MPI back-end's figures (make MPI=1), or NULL */
} search_run;

/* Parse the command line by c's table into r (defaults first). -1 to go
 * on, else the exit status. */
int cli_search_args(const cli_cmd *c, int argc, char **argv, search_run *r);
/* Load, build the model and search (census: the whole component; else
 * r->path receives the path when a goal is reached).  With --spill, a
 * search that runs out of memory carries its levels to disk and goes on
 * there.  Returns the run's status code (0, or an SB_E* code with r->err
 * filled), or a positive exit status when it failed before searching
 * (message printed).  The progress line and the Ctrl-C handling stay on
 * until cli_search_quiet. */
int cli_search(search_run *r, int census);
/* The progress line cleared and Ctrl-C back to its default. */
void cli_search_quiet(search_run *r);
/* Everything the run holds, freed. */
void cli_search_done(search_run *r);
/* -v: time, memory and rate on stderr. */
void cli_search_figures(const search_run *r);

#endif
