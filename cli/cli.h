/* Shared pieces of the command-line front end: error reporting, the
 * progress line on stderr, Ctrl-C handling, and the subcommand entry points.
 * The library never prints; everything a user sees is written here. */
#ifndef SBFS_CLI_H
#define SBFS_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "sbfs/core.h"
#include "sbfs/table.h"
#include "../src/core/internal.h" /* the clock, budgeted allocation, quoting */
#include "../src/core/pool.h"     /* the processor count */

/* Print "sbfs: FILE:LINE:COL: message" (parts that are unknown left out) on
 * stderr and return the process exit status for err->code. */
int cli_fail(const char *file, const sb_error *err);
/* Print "sbfs: message" on stderr and return the usage status (2). */
int cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The same, for a subcommand: the hint is "(try 'sbfs CMD --help')". */
int cli_usage_error_in(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Exit status for an error code: -code, so each class has its own. */
int cli_status(int code);

/* ---- options ------------------------------------------------------------
 * One table per command declares its options; cli_parse reads the command
 * line the GNU way by it (opts.c says which forms) and cli_help prints the
 * help from it.  Each option names a field of the command's own options
 * struct by offset, so a table is a constant and a group of options can be
 * shared between commands by a macro (CLI_OPT_THREADS ...). */
typedef enum cli_optkind {
    CLI_FLAG, /* no value: the int field is set to lo */
    CLI_STR,  /* a value: the const char * field points at it (checked by the command) */
    CLI_INT,  /* a value: a number lo..hi into the int field */
    CLI_LIST  /* a value each time the option comes: appended to the cli_list field */
} cli_optkind;

/* The values of a repeatable option (CLI_LIST), in the order given. */
#define CLI_LIST_MAX 16
typedef struct cli_list {
    const char *v[CLI_LIST_MAX];
    int n;
} cli_list;

typedef struct cli_opt {
    char shrt;        /* the letter of -X, or 0 */
    const char *lng;  /* the name of --NAME, or NULL */
    cli_optkind kind;
    size_t off;       /* offsetof the field in the command's options struct */
    int lo, hi;       /* CLI_FLAG: the value set (lo); CLI_INT: the range */
    const char *arg;  /* the value's name in the help and messages ("N"); NULL for a flag */
    const char *help; /* the help, lines joined by '\n'; NULL: an alias the help leaves out */
} cli_opt;

/* A command: what its help says around the table, and its operands. */
typedef struct cli_cmd {
    const char *name;     /* "solve", "god tetraminx": in messages and the hint */
    const char *synopsis; /* after "usage: sbfs NAME " */
    const char *about;    /* text between the usage line and the options, or NULL */
    const cli_opt *opts;  /* ends with an entry with neither letter nor name */
    const char *more;     /* text after the options, or NULL */
    int max_operands;     /* arguments that are not options, at most */
    int dash_digits;      /* 1: "-5" is an operand (a number), not an option */
} cli_cmd;

/* Parse argv[1..argc) (argv[0] is the command) into the options struct o,
 * the operands, in order, into operands[0..*noperands) (room for
 * c->max_operands).  Returns -1 to go on, 0 after printing the help
 * (-h, --help), or the usage status 2 after one message naming the option
 * ("sbfs: solve: unknown option '--frob' (try 'sbfs solve --help')"). */
int cli_parse(const cli_cmd *c, int argc, char **argv, void *o, const char **operands, int *noperands);
/* The help of c, its option list made from the table. */
void cli_help(const cli_cmd *c, FILE *out);

/* One spelling per meaning, whichever the command (T: its options struct). */
#define CLI_OPT_THREADS(T, f, help) {'j', "threads", CLI_INT, offsetof(T, f), 1, 64, "N", help}
#define CLI_OPT_QUIET(T, f, help) {'q', "quiet", CLI_FLAG, offsetof(T, f), 1, 0, NULL, help}
#define CLI_OPT_VERBOSE(T, f, help) {'v', "verbose", CLI_FLAG, offsetof(T, f), 1, 0, NULL, help}
#define CLI_OPT_JSON(T, f, help) {0, "json", CLI_FLAG, offsetof(T, f), 1, 0, NULL, help}
#define CLI_OPT_MEMORY(T, f)                                                                         \
    {0, "memory", CLI_STR, offsetof(T, f), 0, 0, "SIZE", "memory budget, e.g. 64M or 2G (default: 3/4 of RAM)"}
#define CLI_OPT_PROGRESS(T, f)                                                                       \
    {0, "progress", CLI_FLAG, offsetof(T, f), 1, 0, NULL, "progress line on stderr (default: on a terminal)"}, \
    {0, "no-progress", CLI_FLAG, offsetof(T, f), 0, 0, NULL, "never a progress line"}

/* ---- input ----------------------------------------------------------------
 * The one reader of every command: FILE or standard input ("-" or NULL),
 * by lines or whole.  An input that cannot be read is SB_EIO naming the
 * file ("FILE: Is a directory"); a Ctrl-C while the read waits is SB_EINTR
 * (status 5); both with err filled. */
typedef struct cli_input {
    FILE *f;
    const char *file; /* as given: NULL or "-" for standard input */
    char *buf;        /* the current line, NUL-terminated */
    size_t cap;       /* bytes of buf */
    size_t max;       /* longest line kept whole, 0 for no limit */
    int line;         /* lines read so far */
    int cut;          /* 1: the current line was longer than max, only max bytes kept */
} cli_input;

/* Open FILE; max as above.  0, or SB_EIO / SB_EINTR / SB_ENOMEM. */
int cli_input_open(cli_input *in, const char *file, size_t max, sb_error *err);
/* The next line, without its newline, NUL bytes kept: 1 with s[0..n)
 * (valid until the next call), 0 at the end, or a negative SB_E* code. */
int cli_input_line(cli_input *in, const char **s, size_t *n, sb_error *err);
/* All that is left, into buf[0..cap): 0 with *len set (*len == cap: the
 * input may go on past cap), or the read error. */
int cli_input_all(cli_input *in, char *buf, size_t cap, size_t *len, sb_error *err);
/* The name for messages: the file, "-" for standard input. */
const char *cli_input_name(const cli_input *in);
void cli_input_close(cli_input *in);

/* ---- output ---------------------------------------------------------------
 * The histogram every census prints: "WORD D: N" for D = 0..n-1 with
 * N = at(ud, D), and its closing
 * line "LABEL: N NOUN, largest distance D". */
void cli_histogram(const char *word, int n, uint64_t (*at)(const void *ud, int d), const void *ud);
void cli_histogram_end(const char *label, uint64_t n, const char *noun, int maxdist);
/* An indexed-engine table's histogram, and with `whole` its total line;
 * with json (the puzzle's name) the same as one JSON document. */
void cli_table_histogram(const sb_table *t, int whole, const char *json);

/* The disk options of the god commands: a table larger than --memory is
 * built on disk in slices (sb_table_build_disk). */
typedef struct cli_table_disk {
    const char *disk, *disk_limit, *checkpoint, *resume;
    int no_disk;
} cli_table_disk;

#define CLI_OPTS_TABLE_DISK(type, f)                                                                      \
    {0, "disk", CLI_STR, offsetof(type, f.disk), 0, 0, "DIR",                                              \
     "when the table does not fit --memory, build it on disk in slices,\n"                                 \
     "in a new folder inside DIR (removed at the end; default: $TMPDIR\n"                                  \
     "or /tmp, and a note on stderr)"},                                                                    \
    {0, "disk-limit", CLI_STR, offsetof(type, f.disk_limit), 0, 0, "SIZE",                                 \
     "on disk: stop (status 4) before the files pass SIZE bytes"},                                        \
    {0, "no-disk", CLI_FLAG, offsetof(type, f.no_disk), 1, 0, NULL,                                        \
     "never build on disk: a table larger than --memory is refused"},                                     \
    {0, "checkpoint", CLI_STR, offsetof(type, f.checkpoint), 0, 0, "DIR",                                  \
     "build on disk with the files in DIR, kept when the build is stopped\n"                               \
     "(Ctrl-C, a kill, a power loss) so that --resume DIR takes it up"},                                   \
    {0, "resume", CLI_STR, offsetof(type, f.resume), 0, 0, "DIR",                                          \
     "take up the build kept in DIR by --checkpoint (the same puzzle); it\n"                               \
     "ends as the build never stopped would have"}

/* Check the disk options of command cmd (`what` names it in messages, as
 * "god npuzzle") against each other and --load (load, or NULL), and read
 * --disk-limit into *dlimit: -1 when they are fine, else the exit status
 * after the message. */
int cli_table_disk_check(const char *cmd, const char *what, const cli_table_disk *d, const char *load,
                         size_t *dlimit);
/* The note on stderr when a table goes on disk in a temporary folder. */
void cli_table_disk_note(void);

/* Open FILE for reading ("-" or NULL: stdin).  On failure fills err:
 * SB_EIO naming the file, or SB_EINTR after a Ctrl-C.  From here on a
 * Ctrl-C sets the stop flag and ends a read that waits for input. */
FILE *cli_open(const char *file, sb_error *err);
void cli_close(FILE *f);
/* Why reading f (named FILE, NULL or "-" for stdin) came to an end: 0 at
 * the end of the input, SB_EINTR after a Ctrl-C, SB_EIO for a read error
 * ("FILE: Is a directory"), err filled.  Call it straight after the read
 * that returned nothing: it looks at errno. */
int cli_read_check(FILE *f, const char *file, sb_error *err);
/* Nonzero once a Ctrl-C came (or cli_request_stop was called). */
int cli_interrupted(void);
/* Raise the stop flag, as a Ctrl-C does: stops the computation that runs
 * under cli_control_init (used when the output can no longer be written). */
void cli_request_stop(void);

/* Standard output.  cli_output_failed: nonzero once a write to stdout has
 * failed (a full disk, a closed pipe); loops that print as they go stop
 * then.  cli_finish, main's last call with the command's status: flushes
 * stdout, and when writing failed prints "sbfs: write error: REASON" and
 * turns a status of 0 into 3.  A pipe whose reader went away (EPIPE, seen
 * only when SIGPIPE is ignored; by default the signal ends the process) is
 * not an error: nothing is said and the status stays as it was. */
int cli_output_failed(void);
int cli_finish(int status);
/* fflush(stdout) for commands that flush on the way (before stderr
 * figures, after each answer): 0, or -1 with the reason kept for
 * cli_finish. */
int cli_flush(void);

/* Progress: mode -1 = auto (only when stderr is a terminal), 0 = off,
 * 1 = on.  On a terminal the progress line is rewritten in place (\r and
 * an erase-line escape); elsewhere it is plain lines, one a second, and no
 * escape is ever written.  cli_control_init sets up ctl (progress callback
 * and the Ctrl-C stop flag); cli_control_done clears the progress line and
 * restores the default SIGINT handling. */
typedef struct cli_progress {
    int enabled, tty;
    double start, last;
    const char *phase; /* the phase and level last shown, and when they began */
    int level;
    double phase_start;
    int shown; /* a progress line stands on the terminal */
} cli_progress;
void cli_control_init(sb_control *ctl, cli_progress *p, int mode);
void cli_control_done(sb_control *ctl, cli_progress *p);
/* Erase the progress line, if one stands (p may be NULL). */
void cli_progress_clear(cli_progress *p);
/* "sbfs: MSG" on a line of its own, the progress line erased first. */
void cli_note(cli_progress *p, const char *msg);

/* The cache folder into dir (cap bytes): arg when not NULL, else
 * $XDG_CACHE_HOME/sbfs, else $HOME/.cache/sbfs (each taken only when it is
 * an absolute path), made if need be.  Returns 0; or -1 with dir empty
 * when there is none, or (after a note on stderr that `what` will not be
 * cached) when its name is too long or it cannot be made. */
int cli_cache_dir(const char *arg, char *dir, size_t cap, const char *what);

/* Memory budget from a --memory argument (NULL: the default, most of
 * physical memory).  Returns 0 or SB_EUSAGE. */
int cli_memory_budget(const char *arg, size_t *out, sb_error *err);

/* Subcommands.  Each gets argv with argv[0] = the subcommand's name and
 * returns the process exit status. */
int cmd_solve(int argc, char **argv);     /* sbfs solve: sliding-block search */
int cmd_sliding(int argc, char **argv);   /* sbfs STYLE [VERBOSE]: SLIDING's own form */
int cmd_show(int argc, char **argv);      /* sbfs show: a puzzle drawn, not solved */
int cmd_explore(int argc, char **argv);   /* sbfs explore: whole-space census */
int cmd_convert(int argc, char **argv);   /* sbfs convert: grid <-> SLIDING's format */
int cmd_verify(int argc, char **argv);    /* sbfs verify: a solution checked */
int cmd_god(int argc, char **argv);       /* sbfs god PUZZLE: distance tables */
int cmd_eight(int argc, char **argv);     /* sbfs eight: ACM "Eight" */
int cmd_npuzzle(int argc, char **argv);   /* sbfs npuzzle: optimal sliding tiles */
int cmd_tetraminx(int argc, char **argv); /* sbfs tetraminx solve|random */
int cmd_playfair(int argc, char **argv);  /* sbfs playfair encrypt|decrypt|crack */

/* sbfs god tetraminx (argv[0] = "tetraminx"): called by cmd_god. */
int god_tetraminx(int argc, char **argv);

#endif
