/* What the MPI back-ends share (mpi/ only). */
#ifndef SBFS_MPI_PRIV_H
#define SBFS_MPI_PRIV_H

#include <mpi.h>

/* Report a failed MPI call (which process, which call, MPI's words) on
 * this process's stderr and abort the job: after a failure the other
 * processes may wait in a collective call for ever. */
void sbmpi_failed(int rc, const char *call, const char *file, int line);
#define SBMPI_CHECK(call)                                                                            \
    do {                                                                                             \
        int sbmpi_rc_ = (call);                                                                      \
        if (sbmpi_rc_ != MPI_SUCCESS)                                                                \
            sbmpi_failed(sbmpi_rc_, #call, __FILE__, __LINE__);                                      \
    } while (0)

/* Wait for a non-blocking call to complete, polling with short sleeps
 * (processes that wait leave the cores to those that work, which matters
 * when there are more processes than cores), for at most the timeout of
 * SBFS_MPI_TIMEOUT (seconds, default 600): a process that died is not
 * always noticed by MPI, and a run must stop rather than hang. */
void sbmpi_wait(MPI_Request *req, const char *what);
#define SBMPI_WAIT(icall, what)                                                                      \
    do {                                                                                             \
        MPI_Request q_;                                                                              \
        SBMPI_CHECK(icall);                                                                          \
        sbmpi_wait(&q_, what);                                                                       \
    } while (0)

/* The same for a failure that is not MPI's (out of memory where the
 * processes cannot agree on it first). */
void sbmpi_fatal(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

#endif
