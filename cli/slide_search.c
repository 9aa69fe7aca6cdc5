/* The search that sbfs solve and sbfs explore both run: options, puzzle,
 * model, engine, and the figures -v prints. */
#include "slide.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

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

int cli_search(search_run *r, int census)
{
    const char *fname = r->file ? r->file : "-";
    size_t budget;
    sb_error_clear(&r->err);
    if (cli_memory_budget(r->o.memarg, &budget, &r->err))
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
    if (sb_slide_init(&r->sl, r->pz, r->o.style, &r->mem, &r->err))
        return cli_fail(fname, &r->err);
    r->have_sl = 1;
    sb_keymodel m;
    sb_search_opts so = {r->o.threads, NULL, NULL};
    sb_slide_model_hints(&r->sl, &m);
    if (sb_search_new(&r->srch, SB_ENGINE_LEVELS, &m, &so, &r->mem, &r->err))
        return cli_fail(fname, &r->err);
    unsigned flags = census ? SB_SEARCH_CENSUS : r->o.bidir ? SB_SEARCH_BIDIR : 0;
    double t0 = sb_now(), c0 = cpu_seconds();
    cli_control_init(&r->ctl, &r->prog, r->o.progress);
    r->have_ctl = 1;
    int rc = sb_search_run(r->srch, r->sl.start, census ? NULL : r->sl.stop, flags, &r->ctl, &r->err);
    r->info = sb_search_result(r->srch);
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
    if (r->have_sl)
        sb_slide_free(&r->sl);
    free(r->pz);
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
            r->o.style, (unsigned long long)n, (unsigned long long)in->generated, r->sl.key_words,
            r->sl.key_words == 1 ? "" : "s", r->secs, r->cpu, r->secs > 0 ? (double)n / r->secs : 0.0,
            r->cpu > 0 ? (double)n / r->cpu : 0.0, r->mem.peak, n ? (double)r->mem.peak / (double)n : 0.0,
            peak_rss_kb(), in->threads, in->threads == 1 ? "" : "s",
            in->dropped ? ", levels dropped for the budget" : "");
}
