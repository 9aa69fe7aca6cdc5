/* The one key-search API (sbfs/search.h) over the two engines: the hashed
 * engine (bfs.c) and the sorted-level engine (levels.c).  This file only
 * checks the contract, keeps the handle and turns each engine's own
 * result into the common one; a new engine (levels on disk, levels over
 * MPI) is one more case in each function, not a new API. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "bfs.h"
#include "diskbfs.h"
#include "levels.h"
#include "../core/pool.h"

struct sb_search {
    int engine;
    sb_keymodel model;
    sb_search_opts opts;
    sb_mem *mem;
    int ran;        /* the engine below holds a run */
    int census;     /* that run was a census */
    sb_search_info info;
    sb_bfs b;       /* SB_ENGINE_HASHED */
    sb_levels lv;   /* SB_ENGINE_LEVELS */
    const sb_search_backend *be; /* an engine from outside (backend.h), or NULL */
    void *be_st;
    int disk;       /* SB_ENGINE_LEVELS with its levels on disk: */
    sb_dlevels dl;
    const char *spill_dir; /* sb_search_spill */
};

static int usage(sb_error *err, const char *what)
{
    return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_search: %s", what);
}

int sb_search_new(sb_search **out, int engine, const sb_keymodel *m, const sb_search_opts *o, sb_mem *mem,
                  sb_error *err)
{
    if (!out)
        return usage(err, "no place for the handle");
    *out = NULL;
    if (engine != SB_ENGINE_HASHED && engine != SB_ENGINE_LEVELS)
        return usage(err, "unknown engine");
    if (!m || !m->expand)
        return usage(err, "no model, or a model without expand");
    if (m->key_words < 1 || m->key_words > SB_SEARCH_MAXKW)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_search: keys of %d words are not supported",
                            m->key_words);
    if (engine == SB_ENGINE_HASHED && m->hint_bits)
        return usage(err, "the hashed engine takes no hints");
    if (engine == SB_ENGINE_LEVELS && !m->reversible)
        return usage(err, "the sorted-level engine needs moves that can be undone");
    if (engine == SB_ENGINE_LEVELS && o && o->on_new)
        return usage(err, "the sorted-level engine lists no states as they are found");
    sb_search *s = calloc(1, sizeof *s);
    if (!s)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    s->engine = engine;
    s->model = *m;
    if (o)
        s->opts = *o;
    s->mem = mem;
    s->info.length = -1;
    /* the levels engine keeps its threads and lock from one run to the
     * next; the hashed engine starts afresh each run */
    s->disk = engine == SB_ENGINE_LEVELS && (s->opts.disk_dir || s->opts.checkpoint);
    int rc = s->disk ? sb_dlevels_init(&s->dl, m, s->opts.disk_dir, s->opts.disk_limit, mem, err)
             : engine == SB_ENGINE_LEVELS ? sb_levels_init(&s->lv, m, s->opts.threads, mem, err)
                                          : 0;
    if (rc) {
        free(s);
        return rc;
    }
    if (s->disk) {
        s->dl.threads = sb_pool_threads(s->opts.threads);
        s->dl.ckpt = s->opts.checkpoint;
        s->dl.resume = s->opts.resume;
        s->dl.ident = s->opts.ident;
    }
    *out = s;
    return 0;
}

int sb_search_new_backend(sb_search **out, const sb_keymodel *m, const sb_search_backend *be, void *st,
                          sb_error *err)
{
    int rc = !be || !be->run || !be->level || !be->last || !be->path || !be->free
                 ? usage(err, "an incomplete back-end")
                 : sb_search_new(out, SB_ENGINE_LEVELS, m, NULL, NULL, err);
    if (rc) {
        if (be && be->free)
            be->free(st);
        return rc;
    }
    (*out)->be = be;
    (*out)->be_st = st;
    return 0;
}

void sb_search_free(sb_search *s)
{
    if (!s)
        return;
    if (s->be)
        s->be->free(s->be_st);
    if (s->disk)
        sb_dlevels_free(&s->dl);
    else if (s->engine == SB_ENGINE_LEVELS)
        sb_levels_free(&s->lv);
    else if (s->ran)
        sb_bfs_free(&s->b);
    free(s);
}

int sb_search_spill(sb_search *s, const char *dir, sb_error *err)
{
    if (!s || !dir || s->engine != SB_ENGINE_LEVELS || s->disk || s->be)
        return usage(err, "spilling to disk is for the levels engine in memory, into a folder");
    s->spill_dir = dir;
    s->lv.keep = 1; /* all levels stay, to be carried to disk */
    return 0;
}

/* The hashed engine's observer, turned into the public one. */
static void seen(void *ud, uint64_t index, uint64_t from)
{
    sb_search *s = ud;
    s->opts.on_new(s->opts.on_new_ud, sb_stateset_key(&s->b.set, index), s->b.nlevels - 1, index, from);
}

static void collect(sb_search *s)
{
    sb_search_info *in = &s->info;
    if (s->engine == SB_ENGINE_HASHED) {
        const sb_bfs *b = &s->b;
        in->found = b->goal >= 0;
        in->length = b->goal >= 0 ? b->goal_level : -1;
        in->bidir = 0;
        in->complete = b->complete;
        in->exhausted = 0;
        in->nlevels[0] = b->nlevels;
        in->nlevels[1] = 0;
        in->dropped = 0;
        in->threads = 1;
        in->states = b->set.n;
        in->generated = b->generated;
    } else if (s->disk) {
        const sb_dlevels *l = &s->dl;
        in->found = l->found;
        in->length = l->found ? l->length : -1;
        in->bidir = l->bidir;
        in->complete = l->complete;
        in->exhausted = l->exhausted;
        in->nlevels[0] = l->nlev[0];
        in->nlevels[1] = l->nlev[1];
        in->dropped = 0;
        in->threads = l->threads_used < 1 ? 1 : l->threads_used;
        in->states = sb_dlevels_total(l);
        in->generated = l->generated;
        in->disk_peak = l->disk_peak;
        in->disk_used = l->open ? l->st.used : 0;
        in->disk_levels = l->level_bytes;
        in->disk_buckets = l->buckets;
        in->disk_large = l->large;
    } else {
        const sb_levels *l = &s->lv;
        in->found = l->found;
        in->length = l->found ? l->length : -1;
        in->bidir = l->bidir;
        in->complete = l->complete;
        in->exhausted = l->exhausted;
        in->nlevels[0] = sb_levels_count(l, 0);
        in->nlevels[1] = sb_levels_count(l, 1);
        in->dropped = l->dropped;
        in->threads = l->threads;
        in->states = sb_levels_total(l);
        in->generated = l->generated;
    }
}

static const uint64_t *lv_keys(void *ctx, int side, int d, uint64_t *n)
{
    const sb_level *L = &((sb_levels *)ctx)->side[side].lev[d];
    *n = L->n;
    return L->keys;
}

static void lv_release(void *ctx, int side, int d)
{
    sb_levels_release(ctx, side, d);
}

/* The levels engine ran out of memory with spill_dir set: its levels go
 * to files, and the search goes on with them on disk (which from now on
 * is this handle's engine).  The levels made in memory are not made
 * again, only the one that did not fit; the disk engine follows the same
 * rules, so the result is the one either would give. */
static int spill(sb_search *s, const uint64_t *start, const uint64_t *goal, unsigned lf, sb_control *ctl,
                 sb_error *err)
{
    sb_levels *l = &s->lv;
    sb_dlevels_from from = {{sb_levels_count(l, 0), l->bidir ? sb_levels_count(l, 1) : 0},
                            lv_keys, lv_release, l, l->generated};
    int rc = sb_dlevels_init(&s->dl, &s->model, s->spill_dir, s->opts.disk_limit, s->mem, err);
    if (rc)
        return rc;
    s->dl.threads = l->threads;
    s->disk = 1;
    int (*keep)(void *, const uint64_t *) = s->dl.model.is_goal;
    if (s->census)
        s->dl.model.is_goal = NULL;
    rc = sb_dlevels_carry(&s->dl, start, s->census ? NULL : goal, lf, &from, ctl, err);
    s->dl.model.is_goal = keep;
    sb_levels_free(l);
    s->info.spilled = from.nlev[0] + from.nlev[1];
    return rc;
}

int sb_search_run(sb_search *s, const uint64_t *start, const uint64_t *goal, unsigned flags, sb_control *ctl,
                  sb_error *err)
{
    int rc;
    if (!s || !start)
        return usage(err, s ? "no start" : "no search");
    if (flags & ~(unsigned)(SB_SEARCH_BIDIR | SB_SEARCH_CENSUS | SB_SEARCH_FIRST))
        return usage(err, "unknown flags");
    memset(&s->info, 0, sizeof s->info);
    s->info.length = -1;
    s->census = (flags & SB_SEARCH_CENSUS) != 0;
    if (s->be) {
        rc = s->be->run(s->be_st, start, s->census ? NULL : goal, flags, ctl, &s->info, err);
        s->ran = 1;
        return rc;
    }
    if (s->engine == SB_ENGINE_HASHED) {
        sb_keymodel m = s->model;
        if (s->ran)
            sb_bfs_free(&s->b);
        s->ran = 0;
        if (s->census)
            m.is_goal = NULL;
        if ((rc = sb_bfs_init(&s->b, &m, s->mem, err)))
            return rc;
        s->ran = 1;
        if (s->opts.on_new) {
            s->b.on_new = seen;
            s->b.on_new_ud = s;
        }
        rc = sb_bfs_run(&s->b, start, s->census ? NULL : goal, (flags & SB_SEARCH_FIRST) != 0, ctl, err);
    } else if (s->disk) {
        unsigned lf = (flags & SB_SEARCH_BIDIR ? SB_LEVELS_BIDIR : 0) | (s->census ? SB_LEVELS_CENSUS : 0);
        int (*keep)(void *, const uint64_t *) = s->dl.model.is_goal;
        if (s->census)
            s->dl.model.is_goal = NULL;
        rc = sb_dlevels_run(&s->dl, start, s->census ? NULL : goal, lf, ctl, err);
        s->dl.model.is_goal = keep;
        s->ran = 1;
    } else {
        unsigned lf = (flags & SB_SEARCH_BIDIR ? SB_LEVELS_BIDIR : 0) | (s->census ? SB_LEVELS_CENSUS : 0);
        /* a census walks the whole component whatever the model's goal */
        int (*keep)(void *, const uint64_t *) = s->lv.model.is_goal;
        if (s->census)
            s->lv.model.is_goal = NULL;
        rc = sb_levels_run(&s->lv, start, s->census ? NULL : goal, lf, ctl, err);
        s->lv.model.is_goal = keep;
        s->ran = 1;
        if (rc == SB_ENOMEM && s->spill_dir)
            rc = spill(s, start, goal, lf, ctl, err);
    }
    collect(s);
    return rc;
}

const sb_search_info *sb_search_result(const sb_search *s)
{
    static const sb_search_info none = {0, -1, 0, 0, 0, {0, 0}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    return s ? &s->info : &none;
}

uint64_t sb_search_level(const sb_search *s, int side, int d)
{
    if (!s || !s->ran || side < 0 || side > 1 || d < 0)
        return 0;
    if (s->be)
        return s->be->level(s->be_st, side, d);
    if (s->engine == SB_ENGINE_HASHED)
        return side ? 0 : sb_bfs_level_size(&s->b, d);
    if (s->disk)
        return sb_dlevels_size(&s->dl, side, d);
    return sb_levels_size(&s->lv, side, d);
}

const uint64_t *sb_search_last(const sb_search *s, uint64_t *n)
{
    if (n)
        *n = 0;
    if (!s || !n || !s->ran || s->engine != SB_ENGINE_LEVELS)
        return NULL;
    if (s->be)
        return s->be->last(s->be_st, n);
    if (s->disk) {
        *n = s->dl.nlast;
        return s->dl.nlast ? s->dl.last : NULL;
    }
    return sb_levels_last(&s->lv, n);
}

int sb_search_path(sb_search *s, uint64_t *keys, sb_control *ctl, sb_error *err)
{
    if (!s || !keys)
        return usage(err, s ? "no room for the path" : "no search");
    if (!s->ran || !s->info.found || s->census)
        return usage(err, "no path: no goal was reached");
    if (s->be)
        return s->be->path(s->be_st, keys, ctl, err);
    if (s->disk)
        return sb_dlevels_path(&s->dl, keys, ctl, err);
    if (s->engine == SB_ENGINE_LEVELS)
        return sb_levels_path(&s->lv, keys, ctl, err);
    int D = s->info.length, kw = s->model.key_words;
    uint64_t *idx = malloc(sizeof *idx * ((size_t)D + 1));
    if (!idx)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    int rc = sb_bfs_path(&s->b, (uint64_t)s->b.goal, idx, err);
    for (int d = 0; d <= D && !rc; d++)
        memcpy(keys + (size_t)d * kw, sb_stateset_key(&s->b.set, idx[d]), sizeof *keys * (size_t)kw);
    free(idx);
    return rc;
}
