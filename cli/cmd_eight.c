/* sbfs eight: not yet available. */
#include "cli.h"

int cmd_eight(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sbfs: eight is not available yet\n");
    return 1;
}
