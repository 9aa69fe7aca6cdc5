/* The sorted-level engine with its levels on disk (diskbfs.h).
 *
 * Making level d+1 (delayed duplicate detection, after Korf's "Delayed
 * duplicate detection" and the disk searches before it, such as JimSlide's
 * sorted level files).  Level d is read from its file key by key and each
 * key's neighbours go into a chunk in memory, as large as the budget
 * allows; a full chunk is sorted, its repeats dropped, and it is written as
 * a *run* file.  No neighbour is looked up anywhere while this goes on:
 * the lookups are delayed until all runs are written, and then made all at
 * once in one streaming pass that merges the runs with levels d and d-1
 * (both sorted too), keeping a key once and only if neither level holds
 * it.  Since every move can be undone, a neighbour of level d is at
 * distance d-1, d or d+1, so those two levels are all the check needs.
 * Memory holds one read or write buffer per file in the merge; when there
 * are more runs than buffers fit, runs are first merged among themselves.
 *
 * Example, on the path graph 0-1-2-3-4-5-6 from 3, with chunks of two keys.
 * Level 1 = {2, 4}.  Its neighbours, in the order listed, are 1 3 | 3 5:
 * chunk 1 3 becomes run A = {1, 3}, chunk 3 5 run B = {3, 5}.  The merge
 * reads A, B, level 1 = {2, 4} and level 0 = {3} side by side:
 *   1 (A): in neither level, written;
 *   3 (A), 3 (B): one key, in level 0, dropped;
 *   5 (B): in neither, written.
 * Level 2 = {1, 5}, and the files of runs A and B are removed.
 *
 * The merge also does what the engine in memory does with a new level:
 * it notes the smallest goal in it (one way), the smallest key it shares
 * with the other side's newest level (both ways, read alongside), and its
 * first keys for sb_search_last.  A census keeps levels d and d+1 only;
 * a search for a path keeps all, and rebuilds the path from the goal
 * down, one pass over each level: of the neighbours of the state at
 * distance D, sorted, the first that the file of level D-1 holds. */
#define _POSIX_C_SOURCE 200809L
#include "diskbfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/hash.h"
#include "../core/le.h"
#include "keysort.h"
#include "levels.h"
#include "../core/internal.h"

#define MAXKW SB_SEARCH_MAXKW
#define MIN_CHUNK 64                     /* keys: the least chunk worth sorting */
#define MAX_CHUNK_BYTES ((size_t)1 << 29) /* bytes of one chunk buffer, at most */
#define MAX_FANIN 256                    /* files merged at once, at most */

static size_t kb(const sb_dlevels *s)
{
    return (size_t)s->kw * sizeof(uint64_t);
}

static void lname(char *b, size_t n, int side, int d)
{
    snprintf(b, n, "level-%c-%05d", side ? 'g' : 's', d);
}

static void rname(char *b, size_t n, int r)
{
    snprintf(b, n, "run-%06d", r);
}

int sb_dlevels_init(sb_dlevels *s, const sb_keymodel *m, const char *dir, uint64_t limit, sb_mem *mem,
                    sb_error *err)
{
    int rc;
    memset(s, 0, sizeof *s);
    if ((rc = sb_levels_model_ok(m, "sb_dlevels_init", err)))
        return rc;
    s->model = *m;
    s->kw = m->key_words;
    s->idm = ~(uint64_t)0 >> m->hint_bits;
    s->dir = dir;
    s->limit = limit;
    s->mem = mem;
    s->length = -1;
    return 0;
}

static void clear_result(sb_dlevels *s)
{
    if (s->open)
        sb_lstore_close(&s->st);
    s->open = 0;
    for (int k = 0; k < 2; k++) {
        free(s->cnt[k]);
        free(s->sum[k]);
        s->cnt[k] = s->sum[k] = NULL;
        s->nlev[k] = s->cap[k] = 0;
    }
    s->bidir = s->census = s->found = s->complete = s->exhausted = s->resumed = 0;
    s->length = s->meet_level[0] = s->meet_level[1] = -1;
    s->generated = s->nlast = s->disk_peak = s->run_bytes = s->level_bytes = 0;
}

void sb_dlevels_free(sb_dlevels *s)
{
    if (s)
        clear_result(s);
}

uint64_t sb_dlevels_size(const sb_dlevels *s, int side, int d)
{
    if (!s || side < 0 || side > 1 || d < 0 || d >= s->nlev[side])
        return 0;
    return s->cnt[side][d];
}

uint64_t sb_dlevels_total(const sb_dlevels *s)
{
    uint64_t t = 0;
    for (int k = 0; s && k < 2; k++)
        for (int d = 0; d < s->nlev[k]; d++)
            t += s->cnt[k][d];
    return t;
}

static int push(sb_dlevels *s, int side, uint64_t n, uint64_t check, sb_error *err)
{
    if (s->nlev[side] == s->cap[side]) {
        int nc = s->cap[side] ? 2 * s->cap[side] : 64;
        uint64_t *c = realloc(s->cnt[side], sizeof *c * (size_t)nc);
        if (c)
            s->cnt[side] = c;
        uint64_t *h = c ? realloc(s->sum[side], sizeof *h * (size_t)nc) : NULL;
        if (!h)
            return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        s->sum[side] = h;
        s->cap[side] = nc;
    }
    s->sum[side][s->nlev[side]] = check;
    s->cnt[side][s->nlev[side]++] = n;
    return 0;
}

/* ---- the merge ---- */

/* What the last merge of a level does besides writing it. */
typedef struct final {
    const char *x, *y;     /* levels d and d-1: left out (NULL: none) */
    const char *other;     /* the other side's newest level: first common key */
    const uint64_t *goal;  /* one way: the goal key, unless the model has is_goal */
    int want_goal;         /* one way, with a goal */
    int keep_first;        /* note the first keys (side 0) */
    int hit;               /* a goal or common key was found: hitkey */
    uint64_t hitkey[MAXKW];
    uint64_t first[SB_DISK_LAST * MAXKW], nfirst;
    uint64_t bytes;        /* the level file's size */
    uint64_t check;        /* and its checksum */
} final;

/* Advance reader *has to the first key >= key; returns whether it equals. */
static int reach(sb_lreader *r, int *has, const uint64_t *key, int kw, int *rc, sb_error *err)
{
    while (*has == 1 && sb_key_cmp(r->key, key, kw) < 0)
        *has = sb_lreader_next(r, err);
    if (*has < 0) {
        *rc = *has;
        return 0;
    }
    return *has == 1 && !sb_key_cmp(r->key, key, kw);
}

/* The progress line: done of total keys of the level being expanded, or
 * of the neighbours being merged. */
static void report(sb_dlevels *s, sb_control *ctl, const char *phase, int level, uint64_t done, uint64_t total)
{
    sb_progress_info in = {phase, level, done, total, s->mem ? s->mem->used : 0, sb_dlevels_total(s),
                           s->st.used};
    ctl->progress(ctl->ud, &in);
}

static int stopped(sb_control *ctl, int level, sb_error *err)
{
    if (!sb_control_stopped(ctl))
        return 0;
    return sb_error_set(err, SB_EINTR, 0, 0, "stopped at distance %d", level);
}

/* Merge runs in[0..k) into the file out, each key once; with f, as the
 * last merge of level `level` (see final).  *n: keys written. */
static int merge(sb_dlevels *s, const int *in, int k, const char *out, final *f, int level, uint64_t *n,
                 sb_control *ctl, sb_error *err)
{
    int kw = s->kw, rc = 0, opened = 0;
    sb_lreader *r = calloc((size_t)k + 3, sizeof *r);
    int *h = malloc(sizeof *h * ((size_t)k + 1));
    int xs = 0, ys = 0, os = 0; /* reader states of x, y, other: 1 key, 0 end */
    sb_lwriter w;
    int wopen = 0;
    *n = 0;
    if (!r || !h) {
        free(r);
        free(h);
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    sb_lheap H = {r, h, 0, kw};
    char name[64];
    uint64_t total = 0;
    for (int i = 0; i < k && !rc; i++) {
        rname(name, sizeof name, in[i]);
        if ((rc = sb_lreader_open(&r[i], &s->st, name, NULL, err)))
            break;
        total += r[i].n;
        opened = i + 1;
        int g = sb_lreader_next(&r[i], err);
        if (g < 0)
            rc = g;
        else if (g)
            h[H.n++] = i;
    }
    const char *extra[3] = {f ? f->x : NULL, f ? f->y : NULL, f ? f->other : NULL};
    int *state[3] = {&xs, &ys, &os}, xopen[3] = {0, 0, 0};
    for (int j = 0; j < 3 && !rc; j++) {
        if (!extra[j])
            continue;
        if ((rc = sb_lreader_open(&r[k + j], &s->st, extra[j], NULL, err)))
            break;
        xopen[j] = 1;
        *state[j] = sb_lreader_next(&r[k + j], err);
        if (*state[j] < 0)
            rc = *state[j];
    }
    /* levels are kept (and read again) in blocks; runs, written and read
     * once, in the faster gap code */
    if (!rc && !(rc = f ? sb_lwriter_open_packed(&w, &s->st, out, err) : sb_lwriter_open(&w, &s->st, out, err)))
        wopen = 1;
    for (int i = H.n / 2 - 1; i >= 0; i--)
        sb_lheap_down(&H, i);
    uint64_t prev[MAXKW], cur[MAXKW], steps = 0;
    int have = 0;
    while (!rc && H.n) {
        sb_lreader *t = &r[h[0]];
        memcpy(cur, t->key, kb(s));
        int g = sb_lreader_next(t, err);
        if (g < 0) {
            rc = g;
            break;
        }
        if (!g)
            h[0] = h[--H.n];
        sb_lheap_down(&H, 0);
        if ((++steps & 0xffff) == 0) {
            if ((rc = stopped(ctl, level, err)))
                break;
            if (ctl && ctl->progress)
                report(s, ctl, f ? "search on disk, merging" : "search on disk, merging runs", level, steps, total);
        }
        if (have && !sb_key_cmp(cur, prev, kw))
            continue;
        memcpy(prev, cur, kb(s));
        have = 1;
        if (f && f->x && reach(&r[k], &xs, cur, kw, &rc, err))
            continue;
        if (f && f->y && reach(&r[k + 1], &ys, cur, kw, &rc, err))
            continue;
        if (rc || (rc = sb_lwriter_put(&w, cur, err)))
            break;
        ++*n;
        if (!f)
            continue;
        if (f->keep_first && f->nfirst < SB_DISK_LAST)
            memcpy(f->first + f->nfirst++ * kw, cur, kb(s));
        if (f->hit)
            continue;
        if (f->other)
            f->hit = reach(&r[k + 2], &os, cur, kw, &rc, err);
        else if (f->want_goal)
            f->hit = s->model.is_goal ? s->model.is_goal(s->model.ud, cur) != 0
                                      : !sb_key_cmp(cur, f->goal, kw);
        if (f->hit)
            memcpy(f->hitkey, cur, kb(s));
    }
    for (int j = 0; j < 3; j++)
        if (xopen[j])
            sb_lreader_close(&r[k + j]);
    for (int i = 0; i < opened; i++)
        sb_lreader_close(&r[i]);
    free(r);
    free(h);
    if (wopen) {
        if (rc)
            sb_lwriter_abort(&w);
        else
            rc = sb_lwriter_close(&w, err);
        if (!rc && f)
            f->bytes = w.bytes + SB_LS_HEADER, f->check = w.check;
    }
    return rc;
}

/* ---- expanding a level into runs ---- */

typedef struct expander {
    sb_dlevels *s;
    uint64_t *buf, *tmp, n, cap;
    int *runs, nruns, capruns, next_run;
    int rc;
    sb_error *err;
} expander;

static int flush_chunk(expander *e)
{
    sb_dlevels *s = e->s;
    if (!e->n)
        return 0;
    uint64_t *a = sb_keys_sort(e->buf, e->tmp, e->n, s->kw, s->idm);
    if (!a)
        return sb_error_set(e->err, SB_ENOMEM, 0, 0, "out of memory sorting");
    uint64_t k = sb_keys_unique_minus(a, e->n, NULL, 0, NULL, 0, s->kw, s->idm);
    if (e->nruns == e->capruns) {
        int nc = e->capruns ? 2 * e->capruns : 16;
        int *r = realloc(e->runs, sizeof *r * (size_t)nc);
        if (!r)
            return sb_error_set(e->err, SB_ENOMEM, 0, 0, "out of memory");
        e->runs = r;
        e->capruns = nc;
    }
    char name[64];
    sb_lwriter w;
    int id = e->next_run++;
    rname(name, sizeof name, id);
    int rc = sb_lwriter_open(&w, &s->st, name, e->err);
    for (uint64_t i = 0; i < k && !rc; i++)
        rc = sb_lwriter_put(&w, a + i * s->kw, e->err);
    if (rc) {
        sb_lwriter_abort(&w);
        return rc;
    }
    if ((rc = sb_lwriter_close(&w, e->err)))
        return rc;
    e->runs[e->nruns++] = id;
    e->n = 0;
    return 0;
}

static void emit(void *ctx, const uint64_t *key)
{
    expander *e = ctx;
    sb_dlevels *s = e->s;
    if (e->rc)
        return;
    if (e->n == e->cap && (e->rc = flush_chunk(e)) != 0)
        return;
    uint64_t *o = e->buf + e->n * s->kw;
    memcpy(o, key, kb(s));
    o[0] &= s->idm; /* the file keeps states: hints are not delta-coded */
    e->n++;
    s->generated++;
}

static void drop_runs(sb_dlevels *s, const int *runs, int k)
{
    char name[64];
    for (int i = 0; i < k; i++) {
        rname(name, sizeof name, runs[i]);
        sb_lstore_remove(&s->st, name);
    }
}

/* Make the level after side X's newest; Y >= 0: the other side (both
 * ways).  f gets what the merge noticed. */
static int make_level(sb_dlevels *s, int X, int Y, const uint64_t *goal, final *f, sb_control *ctl,
                      sb_error *err)
{
    int d = s->nlev[X] - 1, rc = 0;
    size_t iob = s->st.iob;
    char cur[64], prev[64], out[64], other[64];
    lname(cur, sizeof cur, X, d);
    lname(prev, sizeof prev, X, d - 1);
    lname(out, sizeof out, X, d + 1);
    if (Y >= 0)
        lname(other, sizeof other, Y, s->nlev[Y] - 1);
    /* the chunk: what the budget leaves after the reader and the writer
     * (and the level reader's block decoder) */
    size_t x = sb_lstore_packed_extra(&s->st);
    size_t left = sb_mem_left(s->mem), need = 3 * iob + x + 2 * MIN_CHUNK * kb(s);
    if (left < need)
        return sb_error_set(err, SB_ENOMEM, 0, 0,
                            "memory budget exhausted: levels on disk need at least %zu bytes, %zu are left",
                            need, left);
    size_t cb = (left - 3 * iob - x) / 2;
    if (cb > MAX_CHUNK_BYTES)
        cb = MAX_CHUNK_BYTES;
    expander e = {s, NULL, NULL, 0, cb / kb(s), NULL, 0, 0, 0, 0, err};
    s->run_bytes = e.cap * kb(s);
    if (!(e.buf = sb_mem_alloc(s->mem, e.cap * kb(s), err)) ||
        !(e.tmp = sb_mem_alloc(s->mem, e.cap * kb(s), err))) {
        sb_mem_free(s->mem, e.buf, e.cap * kb(s));
        return SB_ENOMEM;
    }
    sb_lreader r;
    if (!(rc = sb_lreader_open(&r, &s->st, cur, NULL, err))) {
        double last = sb_now();
        uint64_t done = 0;
        int g;
        while (!e.rc && (g = sb_lreader_next(&r, err)) != 0) {
            if (g < 0) {
                e.rc = g;
                break;
            }
            int mrc = s->model.expand(s->model.ud, r.key, emit, &e);
            if (mrc && !e.rc)
                e.rc = sb_error_set(err, mrc, 0, 0, "the model failed to list moves");
            if ((++done & 1023) != 0)
                continue;
            if (!e.rc)
                e.rc = stopped(ctl, d + 1, err);
            if (ctl && ctl->progress && sb_now() - last > 0.2) {
                report(s, ctl, "search on disk, expanding", d + 1, done, s->cnt[X][d]);
                last = sb_now();
            }
        }
        sb_lreader_close(&r);
        rc = e.rc ? e.rc : flush_chunk(&e);
    }
    sb_mem_free(s->mem, e.buf, e.cap * kb(s));
    sb_mem_free(s->mem, e.tmp, e.cap * kb(s));
    /* merge: runs among themselves while there are more than the buffers
     * left allow, then all with levels d and d-1 into level d+1 */
    left = sb_mem_left(s->mem);
    left = left > 4 * x ? left - 4 * x : 0; /* three levels read, one written, in blocks */
    size_t fan = left / iob > 4 ? left / iob - 4 : 0;
    if (fan > MAX_FANIN)
        fan = MAX_FANIN;
    if (!rc && fan < 2)
        rc = sb_error_set(err, SB_ENOMEM, 0, 0,
                          "memory budget exhausted: merging levels on disk needs %zu bytes, %zu are left",
                          6 * iob + 4 * x, sb_mem_left(s->mem));
    while (!rc && (size_t)e.nruns > fan) {
        int id = e.next_run++;
        char name[64];
        uint64_t n;
        rname(name, sizeof name, id);
        if ((rc = merge(s, e.runs, (int)fan, name, NULL, d + 1, &n, ctl, err)))
            break;
        drop_runs(s, e.runs, (int)fan);
        memmove(e.runs, e.runs + fan, sizeof *e.runs * (size_t)(e.nruns - (int)fan));
        e.nruns -= (int)fan;
        e.runs[e.nruns++] = id;
    }
    f->x = cur;
    f->y = d >= 1 ? prev : NULL;
    f->other = Y >= 0 ? other : NULL;
    f->goal = goal;
    f->want_goal = Y < 0 && !s->census && (goal || s->model.is_goal);
    f->keep_first = X == 0;
    uint64_t n = 0;
    if (!rc)
        rc = merge(s, e.runs, e.nruns, out, f, d + 1, &n, ctl, err);
    if (!rc)
        s->level_bytes += f->bytes;
    drop_runs(s, e.runs, e.nruns);
    free(e.runs);
    if (!rc)
        rc = push(s, X, n, f->check, err);
    if (s->st.peak > s->disk_peak)
        s->disk_peak = s->st.peak;
    return rc;
}

/* ---- the search ---- */

/* The next level of side, keys[0..n) (ascending, hints masked off here),
 * as a file; keys NULL: a level not kept (a census' older ones), counted
 * only. */
static int put_level(sb_dlevels *s, int side, const uint64_t *keys, uint64_t n, sb_error *err)
{
    char name[64];
    uint64_t k[MAXKW];
    sb_lwriter w;
    if (!keys)
        return push(s, side, n, 0, err);
    lname(name, sizeof name, side, s->nlev[side]);
    int rc = n > 1 ? sb_lwriter_open_packed(&w, &s->st, name, err) : sb_lwriter_open(&w, &s->st, name, err);
    for (uint64_t i = 0; i < n && !rc; i++) {
        memcpy(k, keys + i * (size_t)s->kw, kb(s));
        k[0] &= s->idm;
        if ((rc = sb_lwriter_put(&w, k, err)))
            sb_lwriter_abort(&w);
        if (!rc && side == 0 && i < SB_DISK_LAST) /* the first keys, as the merge notes them */
            memcpy(s->last + i * (size_t)s->kw, k, kb(s));
    }
    if (!rc)
        rc = sb_lwriter_close(&w, err);
    if (!rc)
        rc = push(s, side, n, w.check, err);
    if (!rc)
        s->level_bytes += w.bytes + SB_LS_HEADER;
    if (!rc && side == 0)
        s->nlast = n < SB_DISK_LAST ? n : SB_DISK_LAST;
    return rc;
}

static int level0(sb_dlevels *s, int side, const uint64_t *key, sb_error *err)
{
    return put_level(s, side, key, 1, err);
}

static int is_goal0(const sb_dlevels *s, const uint64_t *start, const uint64_t *goal)
{
    uint64_t k[MAXKW];
    memcpy(k, start, kb(s));
    k[0] &= s->idm;
    if (s->model.is_goal)
        return s->model.is_goal(s->model.ud, k) != 0;
    if (!goal)
        return 0;
    uint64_t g[MAXKW];
    memcpy(g, goal, kb(s));
    g[0] &= s->idm;
    return !sb_key_cmp(k, g, s->kw);
}

/* ---- checkpoints ----
 *
 * With a checkpoint folder, the file "run" there says what the levels in
 * it are: after each level is made (its file written and flushed to the
 * disk first), a new "run" is written beside the old one and renamed over
 * it, so that at any moment, a kill or a power loss included, "run"
 * describes complete levels.  A run taken up again continues from there;
 * the level that was being made is made again from the start.  Its
 * contents, all little-endian 64-bit words after the 8 bytes "SBFSRUN1":
 * the caller's fingerprint of the problem, key width, flags (1 both ways,
 * 2 census), whether there is a goal key, the start and goal keys, the
 * number of levels from each side, the state (0 running, 1 found, 2 a
 * whole component walked), the exhausted side, the meeting distances and
 * key, neighbours listed, the first keys of the newest level (count, then
 * keys), for each side the sizes of its levels and the checksums of their
 * files, and last the checksum (sb_checksum) of everything before it. */

static int save_run(sb_dlevels *s, int status, const uint64_t *start, const uint64_t *goal, sb_error *err)
{
    if (!s->ckpt)
        return 0;
    sb_lewords w = {NULL, 0, 0, 0};
    sb_lewords_put(&w, 0);
    memcpy(w.b, "SBFSRUN1", 8);
    sb_lewords_put(&w, s->ident);
    sb_lewords_put(&w, (uint64_t)s->kw);
    sb_lewords_put(&w, (uint64_t)(s->bidir | s->census << 1));
    sb_lewords_put(&w, goal != NULL);
    sb_lewords_key(&w, start, s->kw);
    sb_lewords_key(&w, goal, s->kw);
    sb_lewords_put(&w, (uint64_t)s->nlev[0]);
    sb_lewords_put(&w, (uint64_t)s->nlev[1]);
    sb_lewords_put(&w, (uint64_t)status);
    sb_lewords_put(&w, (uint64_t)s->exhausted);
    sb_lewords_put(&w, (uint64_t)(int64_t)s->meet_level[0]);
    sb_lewords_put(&w, (uint64_t)(int64_t)s->meet_level[1]);
    sb_lewords_key(&w, s->meet, s->kw);
    sb_lewords_put(&w, s->generated);
    sb_lewords_put(&w, s->nlast);
    for (uint64_t i = 0; i < s->nlast; i++)
        sb_lewords_key(&w, s->last + i * s->kw, s->kw);
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < s->nlev[k]; d++) {
            sb_lewords_put(&w, s->cnt[k][d]);
            sb_lewords_put(&w, s->sum[k][d]);
        }
    if (!w.bad)
        sb_lewords_put(&w, sb_checksum(w.b, w.n));
    if (w.bad) {
        free(w.b);
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    char tmp[SB_LS_NAME + 300], fin[SB_LS_NAME + 300];
    sb_lstore_path(&s->st, "run.new", tmp, sizeof tmp);
    sb_lstore_path(&s->st, "run", fin, sizeof fin);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644), rc = 0;
    size_t off = 0;
    while (fd >= 0 && off < w.n) {
        ssize_t k = write(fd, w.b + off, w.n - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    if (fd < 0 || off < w.n || fdatasync(fd) || close(fd) || rename(tmp, fin)) {
        int e = errno;
        rc = sb_error_set(err, SB_EIO, 0, 0, "cannot write %s: %s", fin, strerror(e));
    }
    int dfd = open(s->st.dir, O_RDONLY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(w.b);
    return rc;
}

typedef struct rbuf {
    const unsigned char *b;
    size_t n, at;
    int bad;
} rbuf;

static uint64_t get(rbuf *r)
{
    if (r->at + 8 > r->n) {
        r->bad = 1;
        return 0;
    }
    uint64_t v = sb_le_get64(r->b + r->at);
    r->at += 8;
    return v;
}

static void get_key(rbuf *r, uint64_t *k, int kw)
{
    for (int i = 0; i < kw; i++)
        k[i] = get(r);
}

static int refuse(sb_dlevels *s, sb_error *err, const char *why)
{
    return sb_error_set(err, SB_EBADFILE, 0, 0, "cannot resume from %s: %s", s->st.dir, why);
}

/* Take up the run kept in the checkpoint folder; *status as saved. */
static int load_run(sb_dlevels *s, const uint64_t *start, const uint64_t *goal, int *status, sb_error *err)
{
    char fin[SB_LS_NAME + 300];
    sb_lstore_path(&s->st, "run", fin, sizeof fin);
    FILE *f = fopen(fin, "rb");
    if (!f)
        return refuse(s, err, "it holds no run (no file 'run')");
    unsigned char *b = NULL;
    size_t n = 0, cap = 0, k;
    do {
        if (n == cap) {
            unsigned char *nb = cap < ((size_t)64 << 20) ? realloc(b, cap ? 2 * cap : 4096) : NULL;
            if (!nb) {
                fclose(f);
                free(b);
                return refuse(s, err, "its file 'run' is too large");
            }
            b = nb;
            cap = cap ? 2 * cap : 4096;
        }
        k = fread(b + n, 1, cap - n, f);
        n += k;
    } while (k);
    fclose(f);
    rbuf r = {b, n, 0, 0};
    int rc = 0;
    uint64_t key[MAXKW];
    if (n < 16 || memcmp(b, "SBFSRUN1", 8) || sb_checksum(b, n - 8) != sb_le_get64(b + n - 8)) {
        free(b);
        return refuse(s, err, "its file 'run' is damaged or not one sbfs wrote");
    }
    r.n = n - 8;
    r.at = 8;
    int same = get(&r) == s->ident && get(&r) == (uint64_t)s->kw &&
               get(&r) == (uint64_t)(s->bidir | s->census << 1) && get(&r) == (goal != NULL);
    if (same) {
        get_key(&r, key, s->kw);
        same = !memcmp(key, start, kb(s));
        get_key(&r, key, s->kw);
        same = same && (!goal || !memcmp(key, goal, kb(s)));
    }
    if (!same || r.bad) {
        free(b);
        return refuse(s, err, "it is the checkpoint of another search (another puzzle, style or options)");
    }
    uint64_t nl[2];
    nl[0] = get(&r);
    nl[1] = get(&r);
    *status = (int)get(&r);
    s->exhausted = (int)get(&r);
    s->meet_level[0] = (int)(int64_t)get(&r);
    s->meet_level[1] = (int)(int64_t)get(&r);
    get_key(&r, s->meet, s->kw);
    s->generated = get(&r);
    s->nlast = get(&r);
    if (s->nlast > SB_DISK_LAST || nl[0] < 1 || nl[0] > 1000000 || nl[1] > 1000000 || *status < 0 ||
        *status > 2 || r.bad) {
        free(b);
        return refuse(s, err, "its file 'run' is damaged");
    }
    for (uint64_t i = 0; i < s->nlast; i++)
        get_key(&r, s->last + i * s->kw, s->kw);
    for (int side = 0; side < 2 && !rc; side++)
        for (uint64_t d = 0; d < nl[side] && !rc; d++) {
            uint64_t c = get(&r), h = get(&r);
            rc = push(s, side, c, h, err);
        }
    free(b);
    if (rc)
        return rc;
    if (r.bad || r.at != r.n)
        return refuse(s, err, "its file 'run' is damaged");
    /* every level file the search still needs: there, the size and
     * checksum the run noted; the newest two of each side, which are read
     * next, read through */
    for (int side = 0; side < 2; side++)
        for (int d = 0; d < s->nlev[side]; d++) {
            char name[64], msg[300];
            uint64_t c, h;
            int needed = !s->census || d >= s->nlev[side] - 2;
            lname(name, sizeof name, side, d);
            sb_error e;
            if (!needed) { /* a census had no more use for it */
                char p[SB_LS_NAME + 300];
                sb_lstore_path(&s->st, name, p, sizeof p);
                unlink(p);
                continue;
            }
            int hr = sb_lstore_header(&s->st, name, &c, &h, &e);
            if (!hr && (c != s->cnt[side][d] || h != s->sum[side][d]))
                hr = sb_error_set(&e, SB_EBADFILE, 0, 0, "%s does not hold the level the run noted", name);
            if (!hr && d >= s->nlev[side] - 2)
                hr = sb_lstore_check(&s->st, name, NULL, &e);
            if (hr) {
                snprintf(msg, sizeof msg, "level %d%s: %s", d, side ? " from the goal" : "", e.msg);
                return refuse(s, err, msg);
            }
            sb_lstore_adopt(&s->st, name);
        }
    s->resumed = s->nlev[0] + s->nlev[1];
    return 0;
}

/* Remove what a stopped run left half made: run files and the level
 * after each side's newest. */
static void tidy(sb_dlevels *s)
{
    DIR *d = opendir(s->st.dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (!strncmp(e->d_name, "run-", 4) || !strcmp(e->d_name, "run.new")) {
            char p[SB_LS_NAME + 300];
            sb_lstore_path(&s->st, e->d_name, p, sizeof p);
            unlink(p);
        }
    if (d)
        closedir(d);
    for (int side = 0; side < 2; side++) {
        char name[64], p[SB_LS_NAME + 300];
        lname(name, sizeof name, side, s->nlev[side]);
        sb_lstore_path(&s->st, name, p, sizeof p);
        unlink(p);
    }
}

/* ---- the search ---- */

/* A level was added to side X: note it in the checkpoint, then let a
 * census forget the level it no longer needs. */
static int level_done(sb_dlevels *s, int X, int status, const uint64_t *start, const uint64_t *goal,
                      sb_error *err)
{
    int rc = save_run(s, status, start, goal, err), d = s->nlev[X] - 1;
    if (!rc && s->census && d >= 2) {
        char name[64];
        lname(name, sizeof name, X, d - 2);
        sb_lstore_remove(&s->st, name); /* a census keeps the two newest */
    }
    return rc;
}

static int search(sb_dlevels *s, const uint64_t *start, const uint64_t *goal, int status, sb_control *ctl,
                  sb_error *err)
{
    int rc;
    if (status == 1) { /* a resumed run that had finished */
        s->found = 1;
        s->length = s->meet_level[0] + s->meet_level[1];
        return 0;
    }
    if (status == 2) {
        s->complete = 1;
        return 0;
    }
    if (!s->bidir) {
        if (!s->nlev[0]) {
            if ((rc = level0(s, 0, start, err)))
                return rc;
            if (!s->census && is_goal0(s, start, goal)) {
                memcpy(s->meet, s->last, kb(s));
                s->found = 1;
                s->length = s->meet_level[0] = 0;
                s->meet_level[1] = 0;
                return save_run(s, 1, start, goal, err);
            }
            if ((rc = save_run(s, 0, start, goal, err)))
                return rc;
        }
        for (;;) {
            final f;
            memset(&f, 0, sizeof f);
            if ((rc = make_level(s, 0, -1, goal, &f, ctl, err)))
                return rc;
            int d = s->nlev[0] - 1;
            if (!s->cnt[0][d]) { /* nothing new: the component is walked */
                s->nlev[0]--;
                s->complete = 1;
                return save_run(s, 2, start, goal, err);
            }
            memcpy(s->last, f.first, f.nfirst * kb(s));
            s->nlast = f.nfirst;
            if (f.hit) {
                memcpy(s->meet, f.hitkey, kb(s));
                s->found = 1;
                s->length = s->meet_level[0] = d;
                s->meet_level[1] = 0;
            }
            if ((rc = level_done(s, 0, s->found, start, goal, err)) || s->found)
                return rc;
            if ((rc = stopped(ctl, d + 1, err)))
                return rc;
        }
    }
    if (!s->nlev[0]) {
        if ((rc = level0(s, 0, start, err)))
            return rc;
        if (is_goal0(s, start, goal)) {
            memcpy(s->meet, goal, kb(s));
            s->found = 1;
            s->length = s->meet_level[0] = s->meet_level[1] = 0;
            return save_run(s, 1, start, goal, err);
        }
        if ((rc = level0(s, 1, goal, err)) || (rc = save_run(s, 0, start, goal, err)))
            return rc;
    }
    for (;;) {
        int X = s->cnt[0][s->nlev[0] - 1] <= s->cnt[1][s->nlev[1] - 1] ? 0 : 1, Y = 1 - X;
        final f;
        memset(&f, 0, sizeof f);
        if ((rc = make_level(s, X, Y, NULL, &f, ctl, err)))
            return rc;
        int d = s->nlev[X] - 1;
        if (!s->cnt[X][d]) { /* one side ran dry: the two are not connected */
            s->nlev[X]--;
            s->complete = 1;
            s->exhausted = X;
            return save_run(s, 2, start, goal, err);
        }
        if (X == 0) {
            memcpy(s->last, f.first, f.nfirst * kb(s));
            s->nlast = f.nfirst;
        }
        if (f.hit) {
            memcpy(s->meet, f.hitkey, kb(s));
            s->found = 1;
            s->meet_level[X] = d;
            s->meet_level[Y] = s->nlev[Y] - 1;
            s->length = s->meet_level[0] + s->meet_level[1];
        }
        if ((rc = level_done(s, X, s->found, start, goal, err)) || s->found)
            return rc;
        if ((rc = stopped(ctl, d + 1, err)))
            return rc;
    }
}

/* A file buffer: 1/64 of what the budget has left, 4 KB to 1 MB. */
static size_t buffer_bytes(const sb_dlevels *s)
{
    size_t iob = sb_mem_left(s->mem) / 64;
    return iob < 4096 ? 4096 : iob > ((size_t)1 << 20) ? (size_t)1 << 20 : iob;
}

/* What sb_dlevels_run and sb_dlevels_carry begin with: a run forgotten,
 * its kind set, the store open; st0 and g get the start and goal without
 * hints (*goal pointed at g). */
static int begin(sb_dlevels *s, const uint64_t *start, const uint64_t **goal, unsigned flags, uint64_t *st0,
                 uint64_t *g, sb_error *err)
{
    clear_result(s);
    s->census = (flags & SB_LEVELS_CENSUS) != 0;
    s->bidir = (flags & SB_LEVELS_BIDIR) && *goal && !s->model.is_goal;
    int rc = sb_lstore_open(&s->st, s->ckpt ? s->ckpt : s->dir, !s->ckpt, s->limit, s->kw, s->mem,
                            buffer_bytes(s), err);
    if (rc)
        return rc;
    s->open = 1;
    s->st.sync = s->ckpt != NULL;
    memcpy(st0, start, kb(s));
    st0[0] &= s->idm;
    if (*goal) {
        memcpy(g, *goal, kb(s));
        g[0] &= s->idm;
        *goal = g;
    }
    return 0;
}

int sb_dlevels_run(sb_dlevels *s, const uint64_t *start, const uint64_t *goal, unsigned flags,
                   sb_control *ctl, sb_error *err)
{
    if (!s || !start)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_dlevels_run: %s is NULL", s ? "start" : "the engine");
    uint64_t st0[MAXKW], g[MAXKW];
    int rc = begin(s, start, &goal, flags, st0, g, err);
    if (rc)
        return rc;
    int status = 0;
    if (s->ckpt && s->resume) {
        if ((rc = load_run(s, st0, goal, &status, err)))
            return rc;
        tidy(s);
    } else if (s->ckpt) {
        char fin[SB_LS_NAME + 300];
        sb_lstore_path(&s->st, "run", fin, sizeof fin);
        if (!access(fin, F_OK))
            return sb_error_set(err, SB_EUSAGE, 0, 0,
                                "%s holds a search already: resume it, or give an empty folder", s->ckpt);
    }
    rc = search(s, st0, goal, status, ctl, err);
    if (s->st.peak > s->disk_peak)
        s->disk_peak = s->st.peak;
    return rc;
}

/* The levels come in oldest first, each freed by its owner as soon as it
 * is in its file, so that what the budget had in levels goes to buffers
 * (in the gap code while memory is still short).  Then the search goes on
 * exactly as if it had made those levels itself: the same rules pick the
 * side and the level, and the same files are what it reads. */
int sb_dlevels_carry(sb_dlevels *s, const uint64_t *start, const uint64_t *goal, unsigned flags,
                     const sb_dlevels_from *from, sb_control *ctl, sb_error *err)
{
    if (!s || !start || !from)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_dlevels_carry: %s is NULL",
                            !s ? "the engine" : !start ? "start" : "from");
    uint64_t st0[MAXKW], g[MAXKW];
    int rc = begin(s, start, &goal, flags, st0, g, err);
    for (int k = 0; k < 2 && !rc; k++)
        for (int d = 0; d < from->nlev[k] && !rc; d++) {
            uint64_t n;
            const uint64_t *keys = from->keys(from->ctx, k, d, &n);
            rc = put_level(s, k, keys, n, err);
            from->release(from->ctx, k, d);
        }
    if (rc)
        return rc;
    s->generated = from->generated;
    s->st.iob = buffer_bytes(s); /* no file is open: the buffers can grow into the room the levels left */
    rc = search(s, st0, goal, 0, ctl, err);
    if (s->st.peak > s->disk_peak)
        s->disk_peak = s->st.peak;
    return rc;
}

/* ---- paths ---- */

typedef struct nbrs {
    const sb_dlevels *s;
    uint64_t *k;
    size_t n, cap;
    int rc;
} nbrs;

static void on_nbr(void *ctx, const uint64_t *key)
{
    nbrs *c = ctx;
    size_t kw = (size_t)c->s->kw;
    if (c->rc)
        return;
    if (c->n == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 64;
        uint64_t *k = realloc(c->k, sizeof *k * kw * nc);
        if (!k) {
            c->rc = SB_ENOMEM;
            return;
        }
        c->k = k;
        c->cap = nc;
    }
    memcpy(c->k + c->n * kw, key, sizeof *key * kw);
    c->k[c->n * kw] &= c->s->idm;
    c->n++;
}

/* out + d * kw receives the state at distance d from side's end of a
 * shortest path to out + D * kw, for d = D-1 down to 0. */
static int trace(sb_dlevels *s, int side, int D, uint64_t *out, sb_control *ctl, sb_error *err)
{
    int kw = s->kw, rc = 0;
    nbrs c = {s, NULL, 0, 0, 0};
    for (; D > 0 && !rc; D--) {
        c.n = 0;
        int mrc = s->model.expand(s->model.ud, out + (size_t)D * kw, on_nbr, &c);
        if (c.rc || mrc) {
            rc = c.rc ? sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory")
                      : sb_error_set(err, mrc, 0, 0, "the model failed to list moves");
            break;
        }
        /* insertion sort: a state has few neighbours */
        uint64_t t[MAXKW];
        for (size_t i = 1; i < c.n; i++) {
            memcpy(t, c.k + i * kw, kb(s));
            size_t j = i;
            while (j > 0 && sb_key_cmp(c.k + (j - 1) * kw, t, kw) > 0) {
                memcpy(c.k + j * kw, c.k + (j - 1) * kw, kb(s));
                j--;
            }
            memcpy(c.k + j * kw, t, kb(s));
        }
        char name[64];
        sb_lreader r;
        lname(name, sizeof name, side, D - 1);
        if ((rc = sb_lreader_open(&r, &s->st, name, NULL, err)))
            break;
        size_t i = 0;
        int g = 0, got = 0;
        while (i < c.n && (g = sb_lreader_next(&r, err)) == 1) {
            while (i < c.n && sb_key_cmp(c.k + i * kw, r.key, kw) < 0)
                i++;
            if (i < c.n && !sb_key_cmp(c.k + i * kw, r.key, kw)) {
                memcpy(out + (size_t)(D - 1) * kw, r.key, kb(s));
                got = 1;
                break;
            }
        }
        sb_lreader_close(&r);
        if (g < 0)
            rc = g;
        else if (!got)
            rc = sb_error_set(err, SB_EINTERNAL, 0, 0, "no neighbour at distance %d", D - 1);
        if (!rc)
            rc = stopped(ctl, D - 1, err);
    }
    free(c.k);
    return rc;
}

int sb_dlevels_path(sb_dlevels *s, uint64_t *keys, sb_control *ctl, sb_error *err)
{
    if (!s || !keys)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_dlevels_path: %s is NULL", s ? "keys" : "the engine");
    if (!s->found || s->census)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "no goal was reached");
    int kw = s->kw, f = s->meet_level[0], g = s->meet_level[1];
    memcpy(keys + (size_t)f * kw, s->meet, kb(s));
    int rc = trace(s, 0, f, keys, ctl, err);
    if (rc || g == 0)
        return rc;
    /* the goal's side gives the rest backwards: distance j from the goal
     * is distance f + g - j from the start */
    uint64_t *back = malloc(kb(s) * ((size_t)g + 1));
    if (!back)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    memcpy(back + (size_t)g * kw, s->meet, kb(s));
    rc = trace(s, 1, g, back, ctl, err);
    for (int j = 0; j < g && !rc; j++)
        memcpy(keys + (size_t)(f + g - j) * kw, back + (size_t)j * kw, kb(s));
    free(back);
    return rc;
}
