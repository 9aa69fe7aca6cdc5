/* Starting and ending MPI for the command line, and its fatal errors.
 *
 * The process's rank and the stderr it had before ranks other than 0 were
 * silenced are kept here: MPI itself is one per process, so these are
 * too (this file is part of the program, not of the library). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sbmpi.h"
#include "sbmpi_priv.h"

static int g_rank, g_size = 1, g_errfd = 2;
static double g_timeout = 600; /* seconds a process waits for the others (SBFS_MPI_TIMEOUT) */

int sbmpi_rank(void)
{
    return g_rank;
}

int sbmpi_size(void)
{
    return g_size;
}

static void say(const char *fmt, va_list ap)
{
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "sbfs: process %d of %d: ", g_rank, g_size);
    if (n < 0 || (size_t)n >= sizeof msg)
        n = 0;
    int m = vsnprintf(msg + n, sizeof msg - n, fmt, ap);
    size_t len = m < 0 ? (size_t)n : (size_t)n + (size_t)m >= sizeof msg - 1 ? sizeof msg - 2 : (size_t)n + (size_t)m;
    msg[len++] = '\n';
    if (write(g_errfd, msg, len) < 0)
        return;
}

void sbmpi_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    MPI_Abort(MPI_COMM_WORLD, 1);
    _exit(1);
}

void sbmpi_failed(int rc, const char *call, const char *file, int line)
{
    char what[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, what, &len) != MPI_SUCCESS)
        snprintf(what, sizeof what, "error %d", rc);
    const char *paren = strchr(call, '(');
    sbmpi_fatal("%.*s failed (%s, %s:%d): another process has probably died; stopping the run",
                paren ? (int)(paren - call) : (int)strlen(call), call, what, file, line);
}

void sbmpi_wait(MPI_Request *req, const char *what)
{
    int done = 0;
    long ns = 10000;
    double t0 = MPI_Wtime();
    for (int i = 0;; i++) {
        SBMPI_CHECK(MPI_Test(req, &done, MPI_STATUS_IGNORE));
        if (done)
            return;
        if (i < 64)
            continue;
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
        ns = ns < 1000000 ? ns * 2 : ns;
        if ((i & 63) == 0 && MPI_Wtime() - t0 > g_timeout)
            sbmpi_fatal("%s: no answer from the other processes for %.0f s (SBFS_MPI_TIMEOUT); one has "
                        "probably died; stopping the run",
                        what, g_timeout);
    }
}

int sbmpi_init(int *argc, char ***argv)
{
    const char *to = getenv("SBFS_MPI_TIMEOUT");
    if (to) {
        char *end;
        double v = strtod(to, &end);
        if (end == to || *end || !(v > 0)) {
            fprintf(stderr, "sbfs: SBFS_MPI_TIMEOUT wants a number of seconds above 0, not '%s'\n", to);
            return 2;
        }
        g_timeout = v;
    }
    int rc = MPI_Init(argc, argv);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "sbfs: MPI_Init failed (%d)\n", rc);
        return 1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    if (g_rank != 0) {
        int fd = dup(2), nul = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            g_errfd = fd;
        if (nul >= 0) {
            fflush(stdout);
            dup2(nul, 1);
            dup2(nul, 2);
            close(nul);
        }
    }
    return 0;
}

int sbmpi_finish(int status)
{
    fflush(stdout);
    fflush(stderr);
    /* failures are agreed: every process ends here the same way */
    MPI_Finalize();
    return status;
}

void sbmpi_print_stats(const sbmpi_stats *st, uint64_t states)
{
    if (!st || g_rank != 0)
        return;
    fprintf(stderr,
            "sbfs: mpi: %d process%s, communication %.3f s (the most of one process), %llu bytes sent, "
            "peak memory %zu bytes in all (%.1f bytes/configuration), %zu the most of one process\n",
            st->procs, st->procs == 1 ? "" : "es", st->comm_secs, (unsigned long long)st->bytes_sent,
            st->peak_sum, states ? (double)st->peak_sum / (double)states : 0.0, st->peak_max);
}
