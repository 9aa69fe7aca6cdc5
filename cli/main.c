/* sbfs: the command-line front end.  It dispatches to one subcommand per
 * puzzle family; SLIDING's own invocation `sbfs STYLE [VERBOSE] < puzzle` is
 * recognised by its numeric first argument.  Whatever the command, its
 * output is flushed and checked here (cli_finish): output that could not be
 * written is an error, never a silent success. */
#include "cli.h"

#include <ctype.h>
#include <string.h>

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *what;
} commands[] = {
    {"solve", cmd_solve, "shortest solution of a sliding-block puzzle (SLIDING format)"},
    {"show", cmd_show, "draw a sliding-block puzzle as a page or SVG, without solving it"},
    {"explore", cmd_explore, "census of every configuration reachable from the start"},
    {"convert", cmd_convert, "a puzzle as a grid picture, in SLIDING's format, or back"},
    {"verify", cmd_verify, "check a sliding-block solution against its puzzle"},
    {"god", cmd_god, "distance table of a whole puzzle (npuzzle RxC, tetraminx)"},
    {"eight", cmd_eight, "the ACM \"Eight\" problem: solve an 8-puzzle"},
    {"npuzzle", cmd_npuzzle, "optimal solutions of R x C sliding-tile puzzles"},
    {"tetraminx", cmd_tetraminx, "optimal Tetraminx solutions, random positions"},
    {"playfair", cmd_playfair, "Playfair cipher: encrypt, decrypt, crack"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: sbfs COMMAND [OPTIONS] [FILE]\n"
                 "       sbfs STYLE [VERBOSE] < puzzle    (SLIDING's command line)\n\n"
                 "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].what);
    fprintf(out, "\n'sbfs COMMAND --help' describes a command's options; 'sbfs -V' (--version)\n"
                 "prints the version.  Options are written the GNU way: --memory=1G or\n"
                 "--memory 1G, -j2 or -j 2, -qv for -q -v, and -- before a file named -x.\n"
                 "Exit status: 0 success, 2 bad usage, 3 i/o error, 4 memory budget exhausted,\n"
                 "5 interrupted, 6 and above malformed input (see docs/FORMAT.md).\n");
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return cli_status(SB_EUSAGE);
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return cli_finish(0);
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("sbfs %s\n", SBFS_VERSION);
        return cli_finish(0);
    }
    if (isdigit((unsigned char)argv[1][0]) || (argv[1][0] == '-' && isdigit((unsigned char)argv[1][1])))
        return cli_finish(cmd_sliding(argc, argv));
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            return cli_finish(commands[i].fn(argc - 1, argv + 1));
    return cli_usage_error("unknown command '%s'", argv[1]);
}

#ifdef SBFS_MPI
/* Built with MPI (make MPI=1): every command runs under MPI, rank 0 prints. */
#include "../mpi/sbmpi.h"

int main(int argc, char **argv)
{
    int st = sbmpi_init(&argc, &argv);
    return st ? st : sbmpi_finish(run(argc, argv));
}
#else
int main(int argc, char **argv)
{
    return run(argc, argv);
}
#endif
