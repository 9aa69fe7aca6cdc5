/* Saved tables: the one file container (library-internal).
 *
 * God's tables and pattern databases are saved the same way: a header, the
 * data, a checksum.  All integers are little-endian (le.h).
 *
 *    0   8  magic "sbfsTAB\n"
 *    8   8  kind, NUL-padded: "distance" (sb_table), "pdb" (sb_pdb)
 *   16   4  the kind's format version
 *   20   4  header bytes H, these 32 and the checksum below included
 *   24   8  data bytes D
 *   32      the kind's parameters (H - 40 bytes)
 *  H-8   8  checksum (hash.h) of header bytes 0 .. H-9
 *    H   D  the data
 *  H+D   8  checksum of the data
 *
 * The header has a checksum of its own so that a damaged header is refused
 * before its sizes are believed (and a probe that reads only the header can
 * trust it); the data's checksum is taken while the data streams through,
 * so a load reads the file once.  The magic ends in a newline, as PNG's
 * does, so that a transfer that rewrites line ends is caught at once.
 *
 * A file is written beside its path and renamed into place (outfile.h).  A
 * reader refuses, with SB_EBADFILE and a message that says which: a file
 * too short for a header, another magic, another kind, another version
 * (also the two formats used before this container, named by their
 * version), a damaged header, a data length the caller refuses, a cut or
 * overlong file, a checksum that does not match.  A file that cannot be
 * opened or read is SB_EIO. */
#ifndef SBFS_TABLEFILE_H
#define SBFS_TABLEFILE_H

#include <stdint.h>
#include <stdio.h>

#include "sbfs/core.h"

/* Bytes of the fixed part of the header, and of all of it at most. */
#define SB_TF_FIXED 32
#define SB_TF_MAXHEADER 16384

/* What a kind of file is. */
typedef struct sb_tf_kind {
    const char *kind;   /* at most 8 characters, stored in the header */
    uint32_t version;   /* the layout of its parameters and data */
    const char *what;   /* for messages, with its article: "a pattern database" */
} sb_tf_kind;

/* Save: the parameters params[0..nparams-1] (at most SB_TF_MAXHEADER - 40
 * bytes) and `bytes` bytes of data.  word is 1 for bytes, 8 for 64-bit
 * words (bytes a multiple of 8), which are stored little-endian.  0, or
 * SB_EIO naming the path (outfile.h). */
int sb_tf_save(const char *path, const sb_tf_kind *k, const unsigned char *params,
               size_t nparams, const void *data, uint64_t bytes, int word, sb_error *err);

/* Load in two steps: sb_tf_open reads and checks the header, the caller
 * checks the parameters and the data length and allocates, sb_tf_read
 * reads and checks the data.  After sb_tf_open succeeds the caller ends
 * with exactly one of sb_tf_read, sb_tf_refuse or sb_tf_close. */
typedef struct sb_tf_reader {
    FILE *f;
    const char *path;
    const sb_tf_kind *k;
    uint64_t bytes;      /* data bytes the header announces */
    uint64_t sum;        /* after sb_tf_read: the data's checksum */
} sb_tf_reader;

/* Open path (first removing what saves that died left beside it) and check
 * the header; the parameters go to params (cap bytes of room), their
 * length to *nparams.  0, SB_EBADFILE or SB_EIO (nothing is then left
 * open). */
int sb_tf_open(sb_tf_reader *r, const char *path, const sb_tf_kind *k, unsigned char *params,
               size_t cap, size_t *nparams, sb_error *err);
/* Read r->bytes bytes of data into data (word as for sb_tf_save), check
 * that the file ends there and that the checksum agrees; closes r.  0,
 * SB_EBADFILE or SB_EIO.  data is written even when the file is refused. */
int sb_tf_read(sb_tf_reader *r, void *data, int word, sb_error *err);
/* Refuse the file: closes r and returns SB_EBADFILE with the message
 * "PATH: " then fmt. */
int sb_tf_refuse(sb_tf_reader *r, sb_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void sb_tf_close(sb_tf_reader *r);

#endif
