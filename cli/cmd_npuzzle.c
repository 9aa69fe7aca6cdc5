/* sbfs npuzzle: not yet available. */
#include "cli.h"

int cmd_npuzzle(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sbfs: npuzzle is not available yet\n");
    return 1;
}
