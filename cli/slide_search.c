/* The search that sbfs solve and sbfs explore both run: options, puzzle,
 * model, engine, and the figures -v prints. */
#include "slide.h"
#include "../src/core/hash.h" /* the checksum of a checkpoint's puzzle */

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#ifdef SBFS_MPI
#include "../mpi/sbmpi.h"
#endif

static double cpu_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru))
        return 0;
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru))
        return 0;
    return ru.ru_maxrss;
}

/* What a checkpoint is of: the puzzle as read (pieces, board, start,
 * stops) and the style, under the library's checksum. */
static uint64_t fingerprint(const sb_slide_puzzle *pz, int style)
{
    sb_sum h;
    sb_sum_init(&h);
    sb_sum_add(&h, &style, sizeof style);
    sb_sum_add(&h, &pz->rows, sizeof pz->rows);
    sb_sum_add(&h, &pz->cols, sizeof pz->cols);
    sb_sum_add(&h, pz->kind, sizeof pz->kind);
    sb_sum_add(&h, pz->xcell, sizeof pz->xcell);
    sb_sum_add(&h, pz->start, sizeof pz->start);
    sb_sum_add(&h, pz->stop, sizeof pz->stop);
    sb_sum_add(&h, &pz->ngoals, sizeof pz->ngoals);
    sb_sum_add(&h, &pz->goal_full, sizeof pz->goal_full);
    for (int g = 0; g < pz->ngoals; g++) {
        sb_sum_add(&h, pz->goal[g].anchors, sizeof pz->goal[g].anchors);
        sb_sum_add(&h, pz->goal[g].free, sizeof pz->goal[g].free);
    }
    return sb_sum_end(&h);
}

int cli_search_args(const cli_cmd *c, int argc, char **argv, search_run *r)
{
    const char *file = NULL;
    int n = 0;
    memset(r, 0, sizeof *r);
    r->o.progress = -1;
    r->o.bidir = 1;
    int st = cli_parse(c, argc, argv, &r->o, &file, &n);
    r->file = n ? file : NULL;
    return st;
}

/* Search, and the path when one is wanted and a goal was reached. */
static int search_path(search_run *r, int census)
{
    unsigned flags = census ? SB_SEARCH_CENSUS : r->o.bidir ? SB_SEARCH_BIDIR : 0;
    int rc = sb_search_run(r->srch, sb_slide_key(r->sl, SB_SLIDE_START),
                           census ? NULL : sb_slide_key(r->sl, SB_SLIDE_STOP), flags, &r->ctl, &r->err);
    const sb_search_info *in = sb_search_result(r->srch);
    if (rc || census || !in->found)
        return rc;
    free(r->path);
    r->path = malloc(((size_t)in->length + 1) * (size_t)r->kw * sizeof *r->path);
    if (!r->path)
        return sb_error_set(&r->err, SB_ENOMEM, 0, 0, "out of memory");
    return sb_search_path(r->srch, r->path, &r->ctl, &r->err);
}

int cli_search(search_run *r, int census)
{
    const char *fname = r->file ? r->file : "-";
    size_t budget, dlimit = 0;
    sb_error_clear(&r->err);
    if (cli_memory_budget(r->o.memarg, &budget, &r->err))
        return cli_fail(NULL, &r->err);
    const char *ckpt = r->o.resume ? r->o.resume : r->o.checkpoint;
    if (r->o.resume && r->o.checkpoint)
        return cli_usage_error("--checkpoint starts a run, --resume takes one up: give one of them");
    if (r->o.disk && ckpt)
        return cli_usage_error("--disk and --%s both say where the levels go: give one of them",
                               r->o.resume ? "resume" : "checkpoint");
    if (r->o.spill && (r->o.disk || ckpt))
        return cli_usage_error("--spill puts the levels on disk when memory runs out; with --%s they are "
                               "there from the start: give one of them",
                               r->o.disk ? "disk" : r->o.resume ? "resume" : "checkpoint");
    if (r->o.disk_limit && !r->o.disk && !ckpt && !r->o.spill)
        return cli_usage_error("--disk-limit needs --disk, --spill or --checkpoint");
#ifdef SBFS_MPI
    if (r->o.spill) /* a search on disk from the start does what --spill would */
        return cli_usage_error("--spill is not available under MPI: give --disk");
#endif
    if (r->o.disk_limit && sb_mem_parse_size(r->o.disk_limit, &dlimit, &r->err))
        return cli_fail(NULL, &r->err);
    sb_mem_init(&r->mem, budget);
    r->pz = malloc(sizeof *r->pz);
    if (!r->pz)
        return cli_status(SB_ENOMEM);
    int format = r->o.format ? cli_slide_format(r->o.format) : SB_SLIDE_AUTO;
    if (format < 0)
        return cli_usage_error("--format: '%s' is not auto, sliding, grid or rush", r->o.format);
    int st = cli_slide_load(r->file, r->pz, stderr, 0, format);
    if (st)
        return st;
    if (sb_slide_new(&r->sl, r->pz, r->o.style, &r->mem, &r->err))
        return cli_fail(fname, &r->err);
    sb_keymodel m;
    sb_slide_model(r->sl, SB_SLIDE_HINTS, &m);
    r->kw = m.key_words;
    sb_search_opts so = {r->o.threads, NULL, NULL, r->o.disk, dlimit, ckpt, r->o.resume != NULL, 0};
    so.ident = fingerprint(r->pz, r->o.style);
#ifdef SBFS_MPI
    /* under MPI the levels are cut among the processes */
    const sbmpi_stats *ms = NULL;
    if (sbmpi_search_new(&r->srch, &m, &r->mem, &so, &ms, &r->err))
        return cli_fail(fname, &r->err);
    r->mpi_stats = ms;
#else
    if (sb_search_new(&r->srch, SB_ENGINE_LEVELS, &m, &so, &r->mem, &r->err) ||
        (r->o.spill && sb_search_spill(r->srch, r->o.spill, &r->err)))
        return cli_fail(fname, &r->err);
#endif
    double t0 = sb_now(), c0 = cpu_seconds();
    cli_control_init(&r->ctl, &r->prog, r->o.progress);
    r->have_ctl = 1;
    int rc = search_path(r, census);
    r->info = sb_search_result(r->srch);
    if (r->info->spilled) {
        cli_search_quiet(r);
        fprintf(stderr, "sbfs: memory budget exhausted: the %d levels made went on to disk in %s\n",
                r->info->spilled, r->o.spill);
    }
    r->secs = sb_now() - t0;
    r->cpu = cpu_seconds() - c0;
    return rc;
}

void cli_search_quiet(search_run *r)
{
    if (r->have_ctl)
        cli_control_done(&r->ctl, &r->prog);
    r->have_ctl = 0;
}

void cli_search_done(search_run *r)
{
    cli_search_quiet(r);
    sb_search_free(r->srch);
    sb_slide_free(r->sl);
    free(r->pz);
    free(r->path);
}

void cli_search_figures(const search_run *r)
{
    const sb_search_info *in = r->info;
    uint64_t n = in->states;
    fprintf(stderr,
            "sbfs: style %d, %llu configurations, %llu neighbours listed, key %d word%s, "
            "%.3f s (cpu %.3f s), "
            "%.0f configurations/s (per cpu second %.0f), "
            "memory %zu bytes (%.1f bytes/configuration), peak rss %ld KB, %d thread%s%s\n",
            r->o.style, (unsigned long long)n, (unsigned long long)in->generated, r->kw,
            r->kw == 1 ? "" : "s", r->secs, r->cpu, r->secs > 0 ? (double)n / r->secs : 0.0,
            r->cpu > 0 ? (double)n / r->cpu : 0.0, r->mem.peak, n ? (double)r->mem.peak / (double)n : 0.0,
            peak_rss_kb(), in->threads, in->threads == 1 ? "" : "s",
            in->dropped ? ", levels dropped for the budget" : "");
#ifdef SBFS_MPI
    sbmpi_print_stats(r->mpi_stats, n);
#endif
    if (r->o.disk || r->o.checkpoint || r->o.resume || in->spilled)
        fprintf(stderr,
                "sbfs: levels on disk: %llu bytes of files at most, %llu bytes of levels written "
                "(%.2f bytes/configuration)\n",
                (unsigned long long)in->disk_peak, (unsigned long long)in->disk_levels,
                n ? (double)in->disk_levels / (double)n : 0.0);
}
