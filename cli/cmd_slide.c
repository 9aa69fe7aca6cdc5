/* sbfs solve: not yet available. */
#include "cli.h"

int cmd_solve(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sbfs: solve is not available yet\n");
    return 1;
}

int cmd_sliding(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sbfs: sliding is not available yet\n");
    return 1;
}

int cmd_explore(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sbfs: explore is not available yet\n");
    return 1;
}
