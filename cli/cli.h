/* Shared pieces of the command-line front end: error reporting, the
 * progress line on stderr, Ctrl-C handling, and the subcommand entry points.
 * The library never prints; everything a user sees is written here. */
#ifndef SBFS_CLI_H
#define SBFS_CLI_H

#include <stdio.h>

#include "sbfs/sbfs.h"

/* Print "sbfs: FILE:LINE:COL: message" (parts that are unknown left out) on
 * stderr and return the process exit status for err->code. */
int cli_fail(const char *file, const sb_error *err);
/* Print "sbfs: message" on stderr and return the usage status (2). */
int cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Exit status for an error code: -code, so each class has its own. */
int cli_status(int code);

/* Open FILE for reading ("-" or NULL: stdin).  On failure fills err. */
FILE *cli_open(const char *file, sb_error *err);
void cli_close(FILE *f);

/* Progress: mode -1 = auto (only when stderr is a terminal), 0 = off,
 * 1 = on.  cli_control_init sets up ctl (progress callback and the Ctrl-C
 * stop flag); cli_control_done clears the progress line and restores the
 * default SIGINT handling. */
typedef struct cli_progress {
    int enabled;
    double start, last;
    int shown;
} cli_progress;
void cli_control_init(sb_control *ctl, cli_progress *p, int mode);
void cli_control_done(sb_control *ctl, cli_progress *p);

/* Memory budget from a --memory argument (NULL: the default, most of
 * physical memory).  Returns 0 or SB_EUSAGE. */
int cli_memory_budget(const char *arg, size_t *out, sb_error *err);

/* Subcommands.  Each gets argv with argv[0] = the subcommand's name and
 * returns the process exit status. */
int cmd_solve(int argc, char **argv);     /* sbfs solve: sliding-block search */
int cmd_sliding(int argc, char **argv);   /* sbfs STYLE [VERBOSE]: SLIDING's own form */
int cmd_explore(int argc, char **argv);   /* sbfs explore: whole-space census */
int cmd_god(int argc, char **argv);       /* sbfs god PUZZLE: distance tables */
int cmd_eight(int argc, char **argv);     /* sbfs eight: ACM "Eight" */
int cmd_npuzzle(int argc, char **argv);   /* sbfs npuzzle: optimal sliding tiles */
int cmd_tetraminx(int argc, char **argv); /* sbfs tetraminx solve|random */
int cmd_playfair(int argc, char **argv);  /* sbfs playfair encrypt|decrypt|crack */

/* sbfs god tetraminx (argv[0] = "tetraminx"): called by cmd_god. */
int god_tetraminx(int argc, char **argv);

#endif
