/* sbfs over MPI (built only with `make MPI=1`): the command line's view of
 * the distributed back-ends.
 *
 * Every process runs the same command.  Every decision that shapes the
 * result (which level comes next, whether a goal was met, which parent a
 * path takes, whether to stop) is taken from figures all processes agree
 * on, so every process reaches the same answer and rank 0 prints it; the
 * others print nothing (stdout and stderr go to /dev/null) but a fatal MPI
 * error, which any process reports on its own stderr before the job is
 * aborted. */
#ifndef SBFS_MPI_H
#define SBFS_MPI_H

#include <stdint.h>

#include "sbfs/sbfs.h"

/* MPI_Init, errors returned rather than fatal, output of ranks other than
 * 0 silenced.  Returns 0 or a non-zero exit status. */
int sbmpi_init(int *argc, char ***argv);
/* MPI_Finalize (after a success) or MPI_Abort with status (after a
 * failure: another process may be waiting in a collective call).  Returns
 * status. */
int sbmpi_finish(int status);
int sbmpi_rank(void);
int sbmpi_size(void);

/* What a distributed run cost, summed or maximised over the processes. */
typedef struct sbmpi_stats {
    int procs;
    double comm_secs;     /* most seconds one process spent in MPI calls */
    uint64_t bytes_sent;  /* bytes all processes sent to others */
    size_t peak_sum;      /* sum of the processes' peak budget use */
    size_t peak_max;      /* largest peak of one process */
} sbmpi_stats;

/* The distributed key search: an sb_search (sbfs/search.h) whose levels are
 * cut among the processes by a hash of the key.  m must be reversible.
 * mem is this process's budget.  *stats (may be NULL) is filled by every
 * run and stays valid until sb_search_free. */
int sbmpi_search_new(sb_search **s, const sb_keymodel *m, sb_mem *mem, const sbmpi_stats **stats,
                     sb_error *err);

/* Print the figures of a run on stderr (rank 0). */
void sbmpi_print_stats(const sbmpi_stats *st, uint64_t states);

#endif
