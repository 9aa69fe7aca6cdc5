/* A checkpoint's run record with one field changed and its checksum made
 * again: a record whose checksum holds but whose fields contradict each
 * other, which a resume must refuse rather than trust.
 *
 * Usage: forge_run FILE FIELD VALUE
 *   FIELD  0 levels of side 0, 1 levels of side 1, 2 status, 3 exhausted,
 *          4 meeting level of side 0, 5 of side 1 (the record's words
 *          after its start and goal keys, as commit() in mpi/search_mpi.c writes them)
 * Built by tests/mpi/run.sh with src/core/hash.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../src/core/hash.h"
#include "../../src/core/le.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: forge_run FILE FIELD VALUE\n");
        return 2;
    }
    static unsigned char b[1 << 16];
    FILE *f = fopen(argv[1], "rb");
    size_t n = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    if (n < 8 * 4 || n % 8) {
        fprintf(stderr, "forge_run: %s is not a run record\n", argv[1]);
        return 1;
    }
    uint64_t kw = sb_le_get64(b + 8 + 2 * 8); /* magic, then ident, processes, key width */
    size_t at = 8 + (5 + 2 * kw + strtoull(argv[2], NULL, 10)) * 8;
    if (kw < 1 || kw > 64 || at + 8 > n - 8) {
        fprintf(stderr, "forge_run: no field %s in %s\n", argv[2], argv[1]);
        return 1;
    }
    sb_le_put64(b + at, (uint64_t)strtoll(argv[3], NULL, 10));
    sb_le_put64(b + n - 8, sb_checksum(b, n - 8));
    f = fopen(argv[1], "wb");
    if (!f || fwrite(b, 1, n, f) != n || fclose(f)) {
        fprintf(stderr, "forge_run: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
