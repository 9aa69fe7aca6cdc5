/* Streaming work on files of sorted keys in a store (src/search/levelstore.h),
 * for the distributed key search with its levels on disk (mpi/ only):
 * whether a file holds keys asked in ascending order, and the merge of
 * many files into one, leaving out the keys of others.  Every buffer is
 * one of the store's readers or writers (ls->iob bytes from its sb_mem). */
#ifndef SBFS_MPI_KEYFILES_H
#define SBFS_MPI_KEYFILES_H

#include <stdint.h>

#include "../src/search/levelstore.h"

/* A reader asked about keys in ascending order. */
typedef struct sbmpi_probe {
    sb_lreader r;
    int has; /* r.key holds a key (1), the file is read to its end (0) */
} sbmpi_probe;

int sbmpi_probe_open(sbmpi_probe *p, sb_lstore *ls, const char *name, sb_error *err);
/* Whether the file holds key, which is not below any key asked before:
 * 1, 0, or an SB_E* code. */
int sbmpi_probe_has(sbmpi_probe *p, const uint64_t *key, sb_error *err);
void sbmpi_probe_close(sbmpi_probe *p);

/* Merge the files in[0..k) of ls (each strictly ascending) into the file
 * out, each key once and only if none of the files ex[0..nex) holds it
 * (NULL names are skipped).  on (may be NULL) sees each key written, in
 * order; a non-zero return stops the merge with that code (its message in
 * err).  *n: keys written; *bytes: the size of out.  k + nex + 1 buffers;
 * out is removed on failure. */
int sbmpi_files_merge(sb_lstore *ls, const char *const *in, int k, const char *const *ex, int nex, const char *out,
                      int (*on)(void *ctx, const uint64_t *key), void *ctx, uint64_t *n, uint64_t *bytes,
                      sb_error *err);

#endif
