/* sbfs god: not yet available. */
#include "cli.h"

int cmd_god(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sbfs: god is not available yet\n");
    return 1;
}
