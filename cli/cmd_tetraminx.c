/* sbfs tetraminx: not yet available. */
#include "cli.h"

int cmd_tetraminx(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sbfs: tetraminx is not available yet\n");
    return 1;
}

int god_tetraminx(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sbfs: god tetraminx is not available yet\n");
    return 1;
}
