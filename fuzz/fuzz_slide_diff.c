/* libFuzzer target: the random differential test of the sliding-block
 * searches (tests/slide_diff.h) on fuzzed puzzles.  An input that begins
 * with a digit is a puzzle in SLIDING's format, compared when both the
 * library and the oracle read it; any other input is a stream of choices
 * for the puzzle generator of tests/slide_gen.h, so every input makes a
 * valid puzzle and the fuzzer's mutations move through the generator's
 * cases.  A disagreement aborts with the puzzle and what differs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "slide_diff.h"
#include "slide_gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[SG_MAXTEXT];
    static so_puzzle P;
    static sd c;
    static sb_slide_puzzle pz;
    sd_stats st = {0};
    sb_error err;
    if (size && data[0] >= '0' && data[0] <= '9') {
        if (size >= sizeof text)
            return 0;
        memcpy(text, data, size);
        text[size] = 0;
        if (strlen(text) != size || sb_slide_parse(&pz, text, size, &err) || so_parse(&P, text))
            return 0;
    } else {
        sg_src r = {0, data, size, 1};
        sg_info in;
        if (sg_puzzle(&r, text, &in) || so_parse(&P, text))
            return 0;
    }
    for (int s = 0; s < 6; s++)
        if (sd_compare(&c, &P, text, s, 500, 256, &st) < 0) {
            fprintf(stderr, "%s\n%s", c.msg, text);
            abort();
        }
    return 0;
}
