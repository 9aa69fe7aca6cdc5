/* What the library's own indexed models read of a table beyond the
 * public accessors (sbfs/table.h).  Not installed. */
#ifndef SBFS_TABLE_INTERNAL_H
#define SBFS_TABLE_INTERNAL_H

#include "sbfs/table.h"

/* The packed codes themselves (data_bytes of them, `bits` bits an index,
 * index 0 in the low bits of word 0), for a reader that must not pay a
 * call per index; NULL for t NULL. */
const uint64_t *sb_table_codes(const sb_table *t);

#endif
