/* libFuzzer target: the Tetraminx line parser.  Each line of the input is
 * parsed; a line that parses must give a legal position that survives
 * pieces -> facelets -> pieces and rank -> unrank unchanged, and a line
 * that does not must come back with an error code, a message and a column
 * inside the line. */
#include <stdlib.h>
#include <string.h>

#include "sbfs/sbfs.h"
#include "../src/tetraminx/tet_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data, *end = s + size;
    int line = 0;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        sb_tet_pieces p, q;
        sb_tet_facelets f;
        sb_error e;
        line++;
        sb_error_clear(&e);
        if (sb_tet_parse(s, n, line, &p, &e) == 0) {
            if (!sb_tet_pieces_legal(&p))
                abort();
            sb_tet_pieces_to_facelets(&p, &f);
            if (sb_tet_facelets_to_pieces(&f, &q, &e) != 0 || sb_tet_rank(&q) != sb_tet_rank(&p))
                abort();
            sb_tet_unrank(sb_tet_rank(&p), &q);
            if (memcmp(&p, &q, sizeof p) != 0)
                abort();
        } else if (e.code >= 0 || e.line != line || e.col < 1 || (size_t)e.col > n + 1 ||
                   !e.msg[0]) {
            abort();
        }
        s += n + 1;
    }
    return 0;
}
