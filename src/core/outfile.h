/* Files written whole or not at all (library-internal).
 *
 * A saved table or pattern database is written to a temporary file beside
 * its path, PATH.PID.tmp, and renamed over PATH only once every byte is out
 * and the file is closed: a failure half-way (a full disk, a crash, a
 * Ctrl-C) leaves a file already at PATH exactly as it was, never deleted,
 * never cut short.  A temporary file that a run which died left behind is
 * removed the next time a file is written or read at the same PATH
 * (sb_outfile_sweep): the PID in its name is that of no live process.
 *
 * A PATH that exists and is not a regular file (/dev/stdout, /dev/full, a
 * FIFO) is written straight: renaming over it would replace the device. */
#ifndef SBFS_OUTFILE_H
#define SBFS_OUTFILE_H

#include <stdio.h>

#include "sbfs/core.h"

typedef struct sb_outfile {
    FILE *f;          /* write here */
    const char *path; /* where the file ends up (the caller's string) */
    char tmp[4096];   /* the temporary file, "" when writing PATH itself */
} sb_outfile;

/* Open for writing.  0, or SB_EIO naming PATH ("PATH: Is a directory",
 * "PATH: No such file or directory"). */
int sb_outfile_open(sb_outfile *o, const char *path, sb_error *err);
/* Finish: failed = 0 when every write went through (errno is read when it
 * is not).  Closes the file and renames it into place, or removes it on any
 * failure.  0, or SB_EIO "PATH: cannot write: REASON". */
int sb_outfile_close(sb_outfile *o, int failed, sb_error *err);
/* Remove PATH.PID.tmp files of processes that no longer run. */
void sb_outfile_sweep(const char *path);

#endif
