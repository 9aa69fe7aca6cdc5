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
 * mem is this process's budget.  o (may be NULL: all in memory) as for
 * sb_search_new, per process:
 *   - disk_dir: each process keeps its part of every level in files in a
 *     fresh directory under disk_dir/rank-<rank> (made if need be; the
 *     files go at sb_search_free), at most disk_limit bytes of them (0:
 *     no limit), and its memory holds a batch of neighbours and file
 *     buffers only, whatever the levels' size (delayed duplicate
 *     detection, as the one-process disk engine);
 *   - checkpoint: the same in checkpoint/rank-<rank> itself, kept after
 *     the run with a record of each process's part and process 0's record
 *     of the run (checkpoint/run), so that a run stopped at any point is
 *     taken up again (resume) to the same result; a resume with another
 *     number of processes is refused (SB_EUSAGE), as are a damaged
 *     checkpoint or one of another search (SB_EBADFILE).
 * SB_EIO when the directory cannot be made, on every process.  The
 * string o->checkpoint must outlive the search.  *stats (may be NULL) is
 * filled by every run and stays valid until sb_search_free. */
int sbmpi_search_new(sb_search **s, const sb_keymodel *m, sb_mem *mem, const sb_search_opts *o,
                     const sbmpi_stats **stats, sb_error *err);

/* The distributed God table of model m from index start: the index range
 * in one slice per process (2-bit codes, and a frontier bitmap when the
 * budget has room: 3 bits a position, else 2, charged to this process's
 * mem), filled forward level by level.  count[0..levels)
 * (room for SB_TABLE_MAXDIST + 1) receives the positions at each distance,
 * the same on every process.  Returns 0, SB_EINTR (counts so far valid),
 * SB_ENOMEM or SB_EUSAGE, the same on every process.  stats may be NULL.
 * codes not NULL: after a complete build process 0 gathers the whole
 * table, the bytes one process would build (2 bits a position), into
 * *codes (*codes_bytes bytes from its mem); the others get NULL. */
int sbmpi_table_build(const sb_model *m, uint64_t start, sb_mem *mem, const sb_control *ctl, uint64_t *count,
                      int *levels, uint64_t **codes, size_t *codes_bytes, sbmpi_stats *stats, sb_error *err);

/* `sbfs god` under MPI (mpi/god_cli.c): build by sbmpi_table_build, print
 * the histogram (rank 0), return the exit status. */
int sbmpi_god(const sb_model *m, uint64_t start, sb_mem *mem, int progress, const char *save, int verbose);
int sbmpi_god_tetraminx(sb_mem *mem, int progress, const char *save, int verbose);

/* Print the figures of a run on stderr (rank 0). */
void sbmpi_print_stats(const sbmpi_stats *st, uint64_t states);

#endif
