/* `sbfs god` under MPI: the table built by the distributed indexed engine
 * (table_mpi.c), the histogram printed by rank 0 as one process prints it. */
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "../src/index/table_adopt.h"
#include "sbmpi.h"
#include "sbmpi_priv.h"
#include "../src/tetraminx/tet_internal.h" /* the coordinate move tables */

/* The histogram's counts, from the array every process was given. */
static uint64_t count_at(const void *counts, int d)
{
    return ((const uint64_t *)counts)[d];
}

int sbmpi_god(const sb_model *m, uint64_t start, sb_mem *mem, int progress, const char *save, int verbose)
{
    uint64_t *count = calloc(SB_TABLE_MAXDIST + 1, sizeof *count), total = 0;
    int levels = 0, rc;
    sb_error err;
    sb_control ctl;
    cli_progress prog;
    sbmpi_stats st;
    if (!count)
        return cli_fail(NULL, &(sb_error){SB_ENOMEM, 0, 0, "out of memory"});
    sb_error_clear(&err);
    memset(&st, 0, sizeof st);
    double t0 = sb_now();
    cli_control_init(&ctl, &prog, sbmpi_rank() == 0 ? progress : 0);
    uint64_t *codes = NULL;
    size_t bytes = 0;
    rc = sbmpi_table_build(m, start, mem, &ctl, count, &levels, save ? &codes : NULL, &bytes, &st, &err);
    cli_control_done(&ctl, &prog);
    double secs = sb_now() - t0;
    for (int d = 0; d < levels; d++)
        total += count[d];
    if (!rc && save) {
        /* process 0 writes the table, as one process would; all learn how it went */
        sb_table *t = NULL;
        if (sbmpi_rank() == 0) {
            rc = sb_table_adopt(&t, m, codes, bytes, count, levels, mem, &err);
            if (!rc)
                rc = sb_table_save(t, save, &err);
            sb_table_free(t);
        }
        SBMPI_WAIT(MPI_Ibcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD, &q_), "MPI_Bcast");
        if (rc && sbmpi_rank() != 0)
            sb_error_set(&err, rc, 0, 0, "process 0 could not save the table");
    }
    if (rc && rc != SB_EINTR) {
        free(count);
        return cli_fail(NULL, &err);
    }
    cli_histogram("distance", levels, count_at, count);
    if (!rc)
        cli_histogram_end("total", total, "positions", levels - 1);
    cli_flush();
    if (verbose && sbmpi_rank() == 0) {
        fprintf(stderr, "sbfs: %llu positions, %.3f s, %.0f positions/s\n", (unsigned long long)total, secs,
                secs > 0 ? (double)total / secs : 0.0);
        sbmpi_print_stats(&st, total);
    }
    free(count);
    return rc ? cli_fail(NULL, &err) : 0;
}

static uint64_t tet_move(void *ud, void *scratch, uint64_t r, int m)
{
    (void)scratch;
    return sb_tet_index_move(ud, (uint32_t)r, m);
}

int sbmpi_god_tetraminx(sb_mem *mem, int progress, const char *save, int verbose)
{
    sb_tet_tables *tab = malloc(sizeof *tab);
    if (!tab)
        return cli_fail(NULL, &(sb_error){SB_ENOMEM, 0, 0, "out of memory"});
    sb_tet_tables_init(tab);
    sb_model m;
    memset(&m, 0, sizeof m);
    m.name = "tetraminx";
    m.size = SB_TET_NPOS;
    m.nmoves = SB_TET_NMOVES;
    m.symmetric = 1;
    m.move = tet_move;
    m.ud = tab;
    int st = sbmpi_god(&m, 0, mem, progress, save, verbose);
    free(tab);
    return st;
}
