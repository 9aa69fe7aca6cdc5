/* sbfs playfair: not yet available. */
#include "cli.h"

int cmd_playfair(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sbfs: playfair is not available yet\n");
    return 1;
}
