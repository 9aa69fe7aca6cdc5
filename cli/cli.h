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
/* The same, for a subcommand: the hint is "(try 'sbfs CMD --help')". */
int cli_usage_error_in(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Exit status for an error code: -code, so each class has its own. */
int cli_status(int code);

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
    int shown; /* a progress line stands on the terminal */
} cli_progress;
void cli_control_init(sb_control *ctl, cli_progress *p, int mode);
void cli_control_done(sb_control *ctl, cli_progress *p);
/* Erase the progress line, if one stands (p may be NULL). */
void cli_progress_clear(cli_progress *p);
/* "sbfs: MSG" on a line of its own, the progress line erased first. */
void cli_note(cli_progress *p, const char *msg);

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
