/* A table whose codes were made outside this engine (the distributed
 * builder of `make MPI=1`, mpi/table_mpi.c, gathers them on one process),
 * so that it is saved, read and walked like any other.  Private. */
#ifndef SBFS_TABLE_ADOPT_H
#define SBFS_TABLE_ADOPT_H

#include "sbfs/table.h"

/* A complete 2-bit table for model m (name and params copied) holding
 * data: the packed codes, data_bytes of them (at least 8 bytes for every
 * 32 indices), allocated from mem, which the table then owns, even when
 * this fails; count[0..levels) the positions at each distance.  SB_EUSAGE
 * for a bad model, too few bytes or levels outside 1..SB_TABLE_MAXDIST+1. */
int sb_table_adopt(sb_table **t, const sb_model *m, uint64_t *data, size_t data_bytes, const uint64_t *count,
                   int levels, sb_mem *mem, sb_error *err);

#endif
