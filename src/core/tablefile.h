/* Saved tables: the one file container (library-internal).
 *
 * God's tables, pattern databases and Playfair's quadgram statistics are
 * saved the same way: a header, the data, a checksum.  All integers are
 * little-endian (le.h).
 *
 *    0   8  magic "sbfsTAB\n"
 *    8   8  kind, NUL-padded: "distance" (sb_table), "pdb" (sb_np_pdb),
 *           "quadgram" (sb_pfquad)
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
    uint64_t sum;        /* after sb_tf_read or sb_tf_map: the data's checksum */
    uint64_t data_at;    /* offset of the data: the header's length */
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

/* Mapping instead of reading.  A table of hundreds of megabytes read and
 * copied takes seconds; mapped read-only it opens in milliseconds, its
 * pages come from the page cache on first touch, and every process and
 * thread that maps the same file shares them.
 *
 * What is checked when.  The size check is always made, from the file's
 * size alone: exactly header + data + 8 bytes, so a cut or overlong file is
 * refused before a page is touched (a mapped file that is cut short would
 * otherwise kill the process with SIGBUS on the first missing page).  The
 * checksum of the data, which means reading all of it, is taken:
 *   SB_TF_VERIFY   always;
 *   SB_TF_TRUSTED  only when no marker vouches for the file.  The marker
 *                  PATH.ok, written after a full check that passed, records
 *                  the file's device,
 *                  inode, size, modification and status-change times (to
 *                  the nanosecond) and its checksum.  Any change made to
 *                  the file through the file system since then (a write, a
 *                  truncation, a copy or rename over it, a touch) moves its
 *                  status-change time, which no program can set back, so
 *                  the marker no longer matches and the whole file is
 *                  checked again.  What the marker cannot see is damage
 *                  that bypasses the file system (a failing disk, a
 *                  flipped bit in the page cache) or a marker forged on
 *                  purpose: a full check (SB_TF_VERIFY, `sbfs npuzzle
 *                  --verify-cache`) is the remedy, and the checksum never
 *                  claimed to stop a forger.
 * File time stamps move in clock ticks (milliseconds), so a change made
 * in the same tick as the one the marker records could leave them equal:
 * a marker is therefore written only by a check that began more than a
 * second after the file's last change.  A table just built and saved is
 * checked whole once, at its first open a second or more later, then
 * trusted.  A marker that cannot be written (a read-only folder) costs
 * only time: the next open checks the whole file again.  The time stamps
 * are the local file system's; on a network file system whose server
 * clock runs behind, use SB_TF_VERIFY. */
enum { SB_TF_VERIFY = 0, SB_TF_TRUSTED = 1 };

typedef struct sb_tf_map {
    void *base;          /* the whole file, mapped; NULL when not mapped */
    size_t len;
    const void *data;    /* base + the header */
} sb_tf_map;

/* After sb_tf_open: map the data (r->bytes bytes, word as for sb_tf_read,
 * stored little-endian: the caller maps 8-byte words only on a
 * little-endian host, and the header keeps them 8-byte aligned) and check
 * it as `check` says.  Closes r.  0 with m filled and r->sum set, or
 * SB_EBADFILE / SB_EIO (m then empty).  m->data points into the mapping
 * even for data of 0 bytes (at the file's checksum). */
int sb_tf_map_data(sb_tf_reader *r, int check, sb_tf_map *m, sb_error *err);
/* Release a mapping (m may be empty). */
void sb_tf_unmap(sb_tf_map *m);

#endif
