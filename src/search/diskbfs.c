/* The sorted-level engine with its levels on disk (diskbfs.h).
 *
 * Making level d+1 (delayed duplicate detection, after Korf's "Delayed
 * duplicate detection" and the disk searches before it, such as JimSlide's
 * sorted level files).  Level d is read from its file and each key's
 * neighbours are listed, as they come, into bucket files: the key range is
 * cut into buckets at keys of level d, so that each bucket's neighbours
 * fit in memory.  No neighbour is looked up anywhere while this goes on:
 * the lookups are delayed until all are listed, and then made all at once
 * in one streaming pass: bucket by bucket in key order, each is read
 * back, sorted, its repeats dropped, and merged with levels d and d-1
 * (sorted too, read alongside), keeping a key only if neither level holds
 * it.  Since every move can be undone, a neighbour of level d is at
 * distance d-1, d or d+1, so those two levels are all the check needs.
 * Memory holds a bucket (and the sort's scratch) per thread and one
 * buffer per file; a bucket larger than that (its keys crowded in a part
 * of the range that level d did not foretell) is sorted in chunks written
 * as sorted runs, which are then merged.
 *
 * Example, on the path graph 0-1-2-3-4-5-6 from 3, with buckets cut at 3.
 * Level 1 = {2, 4}.  Its neighbours, in the order listed, are 1 3 3 5:
 * bucket A (below 3) gets 1, bucket B gets 3 3 5.  The pass reads level 1
 * = {2, 4} and level 0 = {3} alongside:
 *   A sorted {1}: 1 in neither level, written;
 *   B sorted {3, 5} (3 once): 3 in level 0, dropped; 5 in neither, written.
 * Level 2 = {1, 5}, and the bucket files are removed.
 *
 * The pass also does what the engine in memory does with a new level:
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
#include <math.h>
#include <pthread.h>
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
    for (int k = 0; k < 2; k++) {
        sb_mem_free(s->mem, s->samp[k].a, s->samp[k].cap * kb(s));
        memset(&s->samp[k], 0, sizeof s->samp[k]);
        s->samp[k].level = -1;
    }
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
    s->generated = s->nlast = s->disk_peak = s->level_bytes = s->buckets = s->large = 0;
    s->threads_used = 0;
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

/* ---- the new level's one writer ---- */

/* What the pass that writes a level does besides writing it. */
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

/* A level file read many keys at a time. */
typedef struct cursor {
    sb_lreader r;
    uint64_t *a;      /* keys read: the current one at a + i kw, n in all */
    size_t i, n, cap;
    int has;          /* 1 a key, 0 the end (or not open), < 0 an SB_E* code */
    int open;
} cursor;

/* Keys a cursor reads at once, for a budget whose file buffers are iob bytes. */
static size_t cursor_keys(size_t iob, size_t K)
{
    size_t c = iob / (4 * K);
    return c < 16 ? 16 : c > 512 ? 512 : c;
}

static int cur_fill(cursor *c, sb_error *err)
{
    int g = sb_lreader_many(&c->r, c->a, c->cap, err);
    if (g <= 0)
        return g;
    c->n = (size_t)g;
    c->i = 0;
    return 1;
}

static inline int cur_next(cursor *c, sb_error *err)
{
    return ++c->i < c->n ? 1 : cur_fill(c, err);
}

static int cur_open(cursor *c, sb_dlevels *s, const char *name, sb_error *err)
{
    c->cap = cursor_keys(s->st.iob, kb(s));
    int rc = sb_lreader_open(&c->r, &s->st, name, NULL, err);
    if (rc)
        return rc;
    c->open = 1;
    if (!(c->a = sb_mem_alloc(s->mem, c->cap * kb(s), err)))
        return SB_ENOMEM;
    c->has = cur_fill(c, err);
    return c->has < 0 ? c->has : 0;
}

static void cur_close(cursor *c, sb_dlevels *s)
{
    if (c->open)
        sb_lreader_close(&c->r);
    sb_mem_free(s->mem, c->a, c->cap * kb(s));
    c->a = NULL;
    c->open = 0;
}

/* Advance c to its first key >= key; returns whether it equals. */
static inline int reach(cursor *c, const uint64_t *key, int kw, int *rc, sb_error *err)
{
    if (kw == 1)
        while (c->has == 1 && c->a[c->i] < key[0])
            c->has = cur_next(c, err);
    else
        while (c->has == 1 && sb_key_cmp(c->a + c->i * kw, key, kw) < 0)
            c->has = cur_next(c, err);
    if (c->has < 0) {
        *rc = c->has;
        return 0;
    }
    return c->has == 1 && !sb_key_cmp(c->a + c->i * kw, key, kw);
}

/* The progress line: done of total keys of the level being expanded, or
 * of the neighbours being merged. */
static void report(sb_dlevels *s, sb_control *ctl, const char *phase, int level, uint64_t done, uint64_t total)
{
    sb_progress_info in = {phase, level, done, total, s->mem ? s->mem->used : 0, sb_dlevels_total(s),
                           sb_lstore_used(&s->st)};
    ctl->progress(ctl->ud, &in);
}

static int stopped(sb_control *ctl, int level, sb_error *err)
{
    if (!sb_control_stopped(ctl))
        return 0;
    return sb_error_set(err, SB_EINTR, 0, 0, "stopped at distance %d", level);
}

typedef sb_dsample sampler;

/* Keys of a level at even steps, taken as it is written, however long:
 * when the room is full, every other key goes and the step doubles. */
static void sample_add(sampler *sp, const uint64_t *key, int kw)
{
    if (!sp->cap || sp->seen++ % sp->step)
        return;
    if (sp->n == sp->cap) {
        for (uint64_t j = 0; 2 * j < sp->cap; j++)
            memcpy(sp->a + j * kw, sp->a + 2 * j * kw, sizeof *sp->a * (size_t)kw);
        sp->n = (sp->cap + 1) / 2;
        sp->step *= 2;
        if ((sp->seen - 1) % sp->step)
            return;
    }
    memcpy(sp->a + sp->n++ * kw, key, sizeof *sp->a * (size_t)kw);
}

/* The new level's keys come to the sink in ascending order, each once;
 * it keeps those that levels d and d-1 lack (sink_keep), writes them and
 * notes what final asks for (sink_write).  The two parts may run on two
 * threads at once, on different keys, each in key order: sink_keep reads
 * levels d and d-1, sink_write the other side's and the file written. */
typedef struct sink {
    sb_dlevels *s;
    final *f;
    cursor c[3];      /* x, y, other */
    sampler *sp;      /* or NULL */
    int (*also)(void *ctx, const uint64_t *key); /* or NULL: told of each key sink_put keeps */
    void *also_ctx;
    sb_lwriter w;
    int wopen;
    uint64_t n;       /* keys written */
} sink;

static int sink_open(sink *o, sb_dlevels *s, final *f, const char *out, sampler *sp, sb_error *err)
{
    memset(o, 0, sizeof *o);
    o->s = s;
    o->f = f;
    o->sp = sp->cap ? sp : NULL;
    const char *name[3] = {f->x, f->y, f->other};
    for (int j = 0; j < 3; j++) {
        if (!name[j])
            continue;
        int rc = cur_open(&o->c[j], s, name[j], err);
        if (rc)
            return rc;
    }
    if (o->sp) {
        o->sp->n = o->sp->seen = 0;
        o->sp->step = 1;
        o->sp->level = -1;
    }
    /* levels are kept (and read again) in blocks */
    int rc = sb_lwriter_open_packed(&o->w, &s->st, out, err);
    o->wopen = !rc;
    return rc;
}

/* Advance c past the keys below v, one-word keys: whether c holds v. */
static inline int reach_1(cursor *c, uint64_t v, int *rc, sb_error *err)
{
    const uint64_t *a = c->a;
    size_t i = c->i, n = c->n;
    while (c->has == 1 && a[i] < v)
        if (++i == n) {
            c->has = cur_fill(c, err);
            a = c->a;
            i = c->i;
            n = c->n;
        }
    c->i = i;
    if (c->has < 0)
        *rc = c->has;
    return c->has == 1 && a[i] == v;
}

/* Of a[0..n) keep those in neither level d nor d-1, moved to the front;
 * *k gets how many. */
static int sink_keep(sink *o, uint64_t *a, uint64_t n, uint64_t *k, sb_error *err)
{
    int kw = o->s->kw, rc = 0;
    uint64_t j = 0;
    if (kw == 1) {
        for (uint64_t i = 0; i < n; i++) {
            uint64_t v = a[i];
            int in = reach_1(&o->c[0], v, &rc, err);
            if (!rc && !in)
                in = reach_1(&o->c[1], v, &rc, err);
            if (rc)
                return rc;
            if (!in)
                a[j++] = v;
        }
        *k = j;
        return 0;
    }
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t *key = a + i * kw;
        int in = reach(&o->c[0], key, kw, &rc, err);
        if (!rc && !in)
            in = reach(&o->c[1], key, kw, &rc, err);
        if (rc)
            return rc;
        if (in)
            continue;
        if (kw == 1)
            a[j] = key[0];
        else if (j != i)
            memcpy(a + j * kw, key, kb(o->s));
        j++;
    }
    *k = j;
    return 0;
}

static int sink_write(sink *o, const uint64_t *a, uint64_t n, sb_error *err)
{
    sb_dlevels *s = o->s;
    final *f = o->f;
    int kw = s->kw, rc = 0;
    for (uint64_t i = 0; i < n && !rc; i++) {
        const uint64_t *key = a + i * kw;
        if ((rc = sb_lwriter_put(&o->w, key, err)))
            return rc;
        if (o->sp)
            sample_add(o->sp, key, kw);
        if (f->keep_first && f->nfirst < SB_DISK_LAST)
            memcpy(f->first + f->nfirst++ * kw, key, kb(s));
        if (f->hit)
            continue;
        if (f->other)
            f->hit = reach(&o->c[2], key, kw, &rc, err);
        else if (f->want_goal)
            f->hit = s->model.is_goal ? s->model.is_goal(s->model.ud, key) != 0 : !sb_key_cmp(key, f->goal, kw);
        if (f->hit)
            memcpy(f->hitkey, key, kb(s));
    }
    o->n += n;
    return rc;
}

static int sink_put(sink *o, const uint64_t *key, sb_error *err)
{
    uint64_t k[MAXKW], n;
    memcpy(k, key, kb(o->s));
    int rc = sink_keep(o, k, 1, &n, err);
    if (!rc && n && o->also)
        rc = o->also(o->also_ctx, k);
    return rc ? rc : sink_write(o, k, n, err);
}

/* Close the readers and the writer (given up when rc is not 0). */
static int sink_close(sink *o, int rc, sb_error *err)
{
    for (int j = 0; j < 3; j++)
        cur_close(&o->c[j], o->s);
    if (!o->wopen)
        return rc;
    if (rc) {
        sb_lwriter_abort(&o->w);
        return rc;
    }
    if ((rc = sb_lwriter_close(&o->w, err)) == 0)
        o->f->bytes = o->w.bytes + SB_LS_HEADER, o->f->check = o->w.check;
    return rc;
}

/* Merge runs in[0..k), each key once, into the sink o, or with o NULL
 * into a new run file out.  *n: keys written to out. */
static int merge(sb_dlevels *s, const int *in, int k, const char *out, sink *o, int level, uint64_t *n,
                 sb_control *ctl, sb_error *err)
{
    int kw = s->kw, rc = 0, opened = 0;
    sb_lreader *r = calloc((size_t)k, sizeof *r);
    int *h = malloc(sizeof *h * (size_t)k);
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
    for (int i = 0; i < k && !rc; i++) {
        rname(name, sizeof name, in[i]);
        if ((rc = sb_lreader_open(&r[i], &s->st, name, NULL, err)))
            break;
        opened = i + 1;
        int g = sb_lreader_next(&r[i], err);
        if (g < 0)
            rc = g;
        else if (g)
            h[H.n++] = i;
    }
    /* runs, written and read once, in the faster gap code */
    if (!rc && !o && !(rc = sb_lwriter_open(&w, &s->st, out, err)))
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
        if ((++steps & 0xffff) == 0 && (rc = stopped(ctl, level, err)))
            break;
        if (have && !sb_key_cmp(cur, prev, kw))
            continue;
        memcpy(prev, cur, kb(s));
        have = 1;
        if (o)
            rc = sink_put(o, cur, err);
        else if (!(rc = sb_lwriter_put(&w, cur, err)))
            ++*n;
    }
    for (int i = 0; i < opened; i++)
        sb_lreader_close(&r[i]);
    free(r);
    free(h);
    if (wopen) {
        if (rc)
            sb_lwriter_abort(&w);
        else
            rc = sb_lwriter_close(&w, err);
    }
    return rc;
}

/* ---- making a level: buckets ----
 *
 * Sorting all neighbours in chunks and merging the chunks' runs costs, at
 * 10^9 configurations, two codings of every neighbour and a tournament
 * among dozens of runs.  So, as the engine in memory does, the level is
 * cut first and sorted after: the key range is cut into buckets at keys
 * of level d taken at even steps (neighbours spread over the range much
 * as the level does), each neighbour listed goes as it is to its bucket's
 * file, and the buckets, each planned at half of what a thread can sort
 * in memory, are then read back one by one in key order, sorted, freed of
 * repeats and handed to the one writer of the level (the sink), which
 * drops the keys of levels d and d-1 as it streams through them.  Both
 * phases run on all threads: the threads take batches of level d from
 * one reader and list their neighbours into files of their own; then
 * they take buckets from a counter, each sorting its bucket while another
 * thread's is being written, and hand them to the sink in turn.  A bucket
 * larger than a thread can sort (keys crowded in a few places of the
 * range) is sorted in chunks and merged as runs (the scheme of Korf's
 * delayed duplicate detection), in its turn. */

#define MAX_THREADS 8
#define MAX_BUCKETS 128          /* files a thread lists into */
#define MIN_BUCKET_BUFFER 1024   /* bytes of a bucket file's write buffer, at least */
#define BATCH 64                 /* keys of level d a thread takes at once */
#define PAR_KEYS 65536           /* keys a thread sorts at once, at least, for more than one */
#define SAMPLE 4096              /* keys of level d read to cut the range, at most */
#define MAX_FANIN 64             /* runs of a large bucket merged at once, at most */
#define GUIDE_BITS 10            /* a table of where the buckets of keys with each top 10 bits begin */
#define GUIDE (1u << GUIDE_BITS)

/* A set of buckets being filled: P ranges of keys cut at split, a file
 * per thread and range.  The neighbours of a level are listed into one
 * (from the level's file, or, one way, as the level is written: see
 * make_level), which the next level is then made from. */
struct sb_dcut {
    int P, T, tag;              /* buckets, threads listing, which of two file names */
    int nsplit;                 /* keys of room in split */
    uint64_t *split;            /* P-1 ascending keys: bucket i is [split[i-1], split[i]) */
    uint64_t *cnt;              /* keys listed by thread t into bucket b: cnt[t * P + b] */
    uint64_t gen[MAX_THREADS];  /* neighbours listed by each thread */
    size_t wbytes;              /* bytes of a write buffer */
    unsigned char **wb;         /* while listing: a write buffer per thread and bucket */
    size_t *wlen;
    int side, level;            /* of the level whose neighbours these are */
    /* one-word keys, P > 2: a key k with split[0] <= k < split[P-2] is in
     * a bucket from guide[(k >> gshift) - gbase] on (bucket_of) */
    int gshift;
    uint64_t gbase;
    uint16_t guide[GUIDE];
};
typedef struct sb_dcut cutset;

static void bname(char *b, size_t n, const cutset *c, int t, int i)
{
    snprintf(b, n, "bucket-%d-%d-%05d", c->tag, t, i);
}

typedef struct maker maker;

typedef struct worker {
    maker *m;
    int t;
    cutset *to;                 /* where listed neighbours go */
    uint64_t *batch;            /* listing from the file: keys of level d */
    uint64_t *buf, *tmp;        /* a bucket and the sort's scratch */
    int rc;
    sb_error err;
} worker;

struct maker {
    sb_dlevels *s;
    int T, level;
    cutset *cur;                /* the neighbours of level d */
    cutset *nx;                 /* or NULL: those of level d+1, listed as it is made */
    uint64_t C;                 /* keys a thread sorts at once */
    sb_lreader *in;             /* listing from the file: level d, read in batches */
    uint64_t done, total;
    int next;                   /* the next bucket to take */
    int keep, write;            /* the buckets whose turn it is at sink_keep, at sink_write */
    int fail, rc;
    sb_error *err;
    sink *o;
    sb_control *ctl;
    double last;                /* time of the last progress line */
    pthread_mutex_t lk;
    pthread_cond_t cv;
    worker w[MAX_THREADS];
};

/* Note a thread's failure (the first one's error is the level's). */
static void fail(maker *m, worker *w)
{
    pthread_mutex_lock(&m->lk);
    if (!m->fail) {
        m->fail = 1;
        m->rc = w->rc;
        *m->err = w->err;
    }
    pthread_cond_broadcast(&m->cv);
    pthread_mutex_unlock(&m->lk);
}

static int bucket_search(const cutset *c, const uint64_t *k, int kw)
{
    int lo = 0, hi = c->P - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        const uint64_t *sp = c->split + (size_t)mid * kw;
        if (kw == 1 ? sp[0] <= k[0] : sb_key_cmp(sp, k, kw) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The bucket of key k: the cuts at or below it.  One word: the guide
 * gives the first bucket its top bits allow, and a step or two finds it,
 * where a binary search takes seven unforeseeable branches a key. */
static inline int bucket_of(const cutset *c, const uint64_t *k, int kw)
{
    if (kw != 1 || c->P < 3)
        return bucket_search(c, k, kw);
    uint64_t v = k[0];
    if (v < c->split[0])
        return 0;
    if (v >= c->split[c->P - 2])
        return c->P - 1;
    int b = c->guide[(v >> c->gshift) - c->gbase];
    while (c->split[b] <= v)
        b++;
    return b;
}

/* The guide of c's cuts (one-word keys). */
static void guide_build(cutset *c)
{
    if (c->P < 3)
        return;
    uint64_t lo = c->split[0], hi = c->split[c->P - 2], vary = lo ^ hi;
    int top = vary ? 63 - __builtin_clzll(vary) : 0;
    c->gshift = top + 1 > GUIDE_BITS ? top + 1 - GUIDE_BITS : 0;
    c->gbase = lo >> c->gshift;
    for (uint64_t p = 0; p <= (hi >> c->gshift) - c->gbase; p++) {
        uint64_t first = (c->gbase + p) << c->gshift;
        c->guide[p] = (uint16_t)bucket_search(c, &first, 1);
    }
}

static uint64_t bucket_keys(const cutset *c, int b)
{
    uint64_t n = 0;
    for (int t = 0; t < c->T; t++)
        n += c->cnt[(size_t)t * c->P + b];
    return n;
}

/* Append n bytes to file name (made if need be), counted in the store
 * under the lock. */
static int append(maker *m, worker *w, const char *name, const void *b, size_t n)
{
    sb_lstore *st = &m->s->st;
    if (sb_lstore_charge(st, n, 1))
        return sb_error_set(&w->err, SB_ENOMEM, 0, 0,
                            "disk limit exhausted: %llu bytes of levels cannot take %zu more",
                            (unsigned long long)st->limit, n);
    char p[SB_LS_NAME + 300];
    sb_lstore_path(st, name, p, sizeof p);
    int fd = open(p, O_WRONLY | O_CREAT | O_APPEND, 0644), e = fd < 0 ? errno : 0;
    const unsigned char *c = b;
    size_t left = n;
    while (fd >= 0 && left) {
        ssize_t k = write(fd, c, left);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            e = k < 0 ? errno : ENOSPC;
            break;
        }
        c += k;
        left -= (size_t)k;
    }
    if (fd >= 0 && close(fd) && !e)
        e = errno;
    if (fd < 0 || left || e) {
        sb_lstore_uncharge(st, left); /* what was written stays counted, as the file holds it */
        return sb_error_set(&w->err, SB_EIO, 0, 0, "cannot write %s: %s", p, strerror(e ? e : EIO));
    }
    return 0;
}

static int flush_bucket(maker *m, worker *w, int b)
{
    cutset *c = w->to;
    size_t i = (size_t)w->t * c->P + b;
    char name[64];
    if (!c->wlen[i])
        return 0;
    bname(name, sizeof name, c, w->t, b);
    int rc = append(m, w, name, c->wb[i], c->wlen[i]);
    c->cnt[i] += c->wlen[i] / kb(m->s);
    c->gen[w->t] += c->wlen[i] / kb(m->s);
    c->wlen[i] = 0;
    return rc;
}

static int flush_all(maker *m, worker *w)
{
    int rc = 0;
    for (int b = 0; b < w->to->P && !rc; b++)
        rc = flush_bucket(m, w, b);
    return rc;
}

static void emit(void *ctx, const uint64_t *key)
{
    worker *w = ctx;
    maker *m = w->m;
    cutset *c = w->to;
    sb_dlevels *s = m->s;
    if (w->rc)
        return;
    uint64_t k[MAXKW];
    size_t K = kb(s);
    if (s->kw == 1)
        k[0] = key[0];
    else
        memcpy(k, key, K);
    k[0] &= s->idm; /* the files keep states: hints are not delta-coded */
    int b = c->P > 1 ? bucket_of(c, k, s->kw) : 0;
    size_t i = (size_t)w->t * c->P + b;
    if (c->wlen[i] + K > c->wbytes && (w->rc = flush_bucket(m, w, b)) != 0)
        return;
    if (s->kw == 1)
        memcpy(c->wb[i] + c->wlen[i], k, sizeof *k);
    else
        memcpy(c->wb[i] + c->wlen[i], k, K);
    c->wlen[i] += K; /* counted when flushed */
}

/* List the neighbours of keys a[0..n) into w->to. */
static void expand_keys(worker *w, const uint64_t *a, uint64_t n)
{
    sb_dlevels *s = w->m->s;
    for (uint64_t i = 0; i < n && !w->rc; i++) {
        int mrc = s->model.expand(s->model.ud, a + i * s->kw, emit, w);
        if (mrc && !w->rc)
            w->rc = sb_error_set(&w->err, mrc, 0, 0, "the model failed to list moves");
    }
}

/* Listing from the file, on one thread: batches of level d. */
static void *list_work(void *arg)
{
    worker *w = arg;
    maker *m = w->m;
    sb_dlevels *s = m->s;
    while (!w->rc) {
        uint64_t got = 0;
        pthread_mutex_lock(&m->lk);
        if (!m->fail) {
            int g = sb_lreader_many(m->in, w->batch, BATCH, &w->err);
            if (g < 0)
                w->rc = g;
            else
                got = (uint64_t)g;
        }
        m->done += got;
        uint64_t done = m->done;
        int failed = m->fail;
        pthread_mutex_unlock(&m->lk);
        if (failed || (!got && !w->rc))
            break;
        expand_keys(w, w->batch, got);
        if (!w->rc)
            w->rc = stopped(m->ctl, m->level, &w->err);
        if (w->t == 0 && m->ctl && m->ctl->progress && sb_now() - m->last > 0.2) {
            report(s, m->ctl, "search on disk, expanding", m->level, done, m->total);
            m->last = sb_now();
        }
    }
    if (!w->rc)
        w->rc = flush_all(m, w);
    if (w->rc)
        fail(m, w);
    return NULL;
}

/* Read count keys of file name into a. */
static int read_keys(maker *m, worker *w, const char *name, uint64_t *a, uint64_t count, uint64_t from)
{
    sb_dlevels *s = m->s;
    char p[SB_LS_NAME + 300];
    sb_lstore_path(&s->st, name, p, sizeof p);
    int fd = open(p, O_RDONLY), e = fd < 0 ? errno : 0;
    unsigned char *c = (unsigned char *)a;
    size_t n = count * kb(s);
    off_t at = (off_t)(from * kb(s));
    while (fd >= 0 && n) {
        ssize_t k = pread(fd, c, n, at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            e = k < 0 ? errno : 0;
            break;
        }
        c += k;
        n -= (size_t)k;
        at += k;
    }
    if (fd >= 0)
        close(fd);
    if (fd < 0 || e)
        return sb_error_set(&w->err, SB_EIO, 0, 0, "cannot read %s: %s", p, strerror(e));
    if (n)
        return sb_error_set(&w->err, SB_EBADFILE, 0, 0, "cannot read %s: the file is shorter than written", p);
    return 0;
}

/* Wait for bucket b's turn at *turn: 0, or 1 when another thread failed. */
static int await_turn(maker *m, const int *turn, int b)
{
    pthread_mutex_lock(&m->lk);
    while (*turn != b && !m->fail)
        pthread_cond_wait(&m->cv, &m->lk);
    int failed = m->fail;
    pthread_mutex_unlock(&m->lk);
    return failed;
}

static void pass_turn(maker *m, int *turn)
{
    pthread_mutex_lock(&m->lk);
    ++*turn;
    pthread_cond_broadcast(&m->cv);
    pthread_mutex_unlock(&m->lk);
}

static void drop_bucket(sb_dlevels *s, const cutset *c, int b)
{
    char name[64];
    for (int t = 0; t < c->T; t++) {
        bname(name, sizeof name, c, t, b);
        sb_lstore_remove(&s->st, name);
    }
}

static void drop_runs(sb_dlevels *s, const int *runs, int k)
{
    char name[64];
    for (int i = 0; i < k; i++) {
        rname(name, sizeof name, runs[i]);
        sb_lstore_remove(&s->st, name);
    }
}

/* Sorted keys a[0..k) as run file id. */
static int write_run(sb_dlevels *s, const uint64_t *a, uint64_t k, int id, sb_error *err)
{
    char name[64];
    sb_lwriter w;
    rname(name, sizeof name, id);
    int rc = sb_lwriter_open(&w, &s->st, name, err);
    for (uint64_t i = 0; i < k && !rc; i++)
        rc = sb_lwriter_put(&w, a + i * s->kw, err);
    if (rc) {
        sb_lwriter_abort(&w);
        return rc;
    }
    return sb_lwriter_close(&w, err);
}

/* A key the sink kept, from a large bucket: listed when the next level's
 * neighbours are being listed. */
static int also_expand(void *ctx, const uint64_t *key)
{
    worker *w = ctx;
    expand_keys(w, key, 1);
    return w->rc;
}

/* A bucket larger than a thread's room, holding both turns: sorted in
 * chunks, written as runs, and the runs merged into the sink (first
 * among themselves while there are more than the buffers allow). */
static int large_bucket(maker *m, worker *w, int b)
{
    sb_dlevels *s = m->s;
    const cutset *c = m->cur;
    int *runs = NULL, nruns = 0, cap = 0, id = 0, rc = 0;
    char name[64];
    for (int t = 0; t < c->T && !rc; t++) {
        bname(name, sizeof name, c, t, b);
        uint64_t total = c->cnt[(size_t)t * c->P + b];
        for (uint64_t at = 0; at < total && !rc; at += m->C) {
            uint64_t n = total - at < m->C ? total - at : m->C;
            if ((rc = read_keys(m, w, name, w->buf, n, at)))
                break;
            uint64_t *a = sb_keys_sort_large(w->buf, w->tmp, n, s->kw, s->idm);
            if (!a) {
                rc = sb_error_set(&w->err, SB_ENOMEM, 0, 0, "out of memory sorting");
                break;
            }
            uint64_t k = sb_keys_unique_minus(a, n, NULL, 0, NULL, 0, s->kw, s->idm);
            if (nruns == cap) {
                int nc = cap ? 2 * cap : 16;
                int *r = realloc(runs, sizeof *r * (size_t)nc);
                if (!r) {
                    rc = sb_error_set(&w->err, SB_ENOMEM, 0, 0, "out of memory");
                    break;
                }
                runs = r;
                cap = nc;
            }
            if ((rc = write_run(s, a, k, id, &w->err)))
                break;
            runs[nruns++] = id++;
        }
    }
    drop_bucket(s, c, b);
    /* the merge reads through the room of the bucket and its scratch
     * (the holder of both turns alone takes from the budget) */
    size_t K = kb(s), iob = s->st.iob;
    sb_mem_free(s->mem, w->buf, m->C * K);
    sb_mem_free(s->mem, w->tmp, m->C * K);
    w->buf = w->tmp = NULL;
    size_t room = sb_mem_left(s->mem) / iob;
    int fan = room < 3 ? 2 : room - 1 > MAX_FANIN ? MAX_FANIN : (int)room - 1;
    uint64_t n;
    while (!rc && nruns > fan) {
        rname(name, sizeof name, id);
        if ((rc = merge(s, runs, fan, name, NULL, m->level, &n, m->ctl, &w->err)))
            break;
        drop_runs(s, runs, fan);
        memmove(runs, runs + fan, sizeof *runs * (size_t)(nruns - fan));
        nruns -= fan;
        runs[nruns++] = id++;
    }
    if (!rc) {
        m->o->also = m->nx ? also_expand : NULL;
        m->o->also_ctx = w;
        rc = merge(s, runs, nruns, NULL, m->o, m->level, &n, m->ctl, &w->err);
        m->o->also = NULL;
    }
    drop_runs(s, runs, nruns);
    free(runs);
    if (!rc && (!(w->buf = sb_mem_alloc(s->mem, m->C * K, &w->err)) ||
                !(w->tmp = sb_mem_alloc(s->mem, m->C * K, &w->err))))
        rc = SB_ENOMEM;
    return rc;
}

/* Making level d+1 on one thread: buckets taken in turn, sorted, and
 * sunk; with m->nx, the keys kept are expanded too, before they are
 * written, while another thread holds the turn at the writer. */
static void *sort_work(void *arg)
{
    worker *w = arg;
    maker *m = w->m;
    sb_dlevels *s = m->s;
    const cutset *c = m->cur;
    for (;;) {
        pthread_mutex_lock(&m->lk);
        int b = m->fail ? c->P : m->next++;
        pthread_mutex_unlock(&m->lk);
        if (b >= c->P)
            break;
        uint64_t n = bucket_keys(c, b);
        if (n > m->C) { /* both turns: the whole sink */
            if (await_turn(m, &m->keep, b) || await_turn(m, &m->write, b))
                break;
            m->s->large++;
            if ((w->rc = large_bucket(m, w, b)))
                break;
            pass_turn(m, &m->keep);
            pass_turn(m, &m->write);
            continue;
        }
        uint64_t at = 0;
        char name[64];
        for (int t = 0; t < c->T && !w->rc; t++) {
            uint64_t k = c->cnt[(size_t)t * c->P + b];
            bname(name, sizeof name, c, t, b);
            if (k)
                w->rc = read_keys(m, w, name, w->buf + at * s->kw, k, 0);
            at += k;
        }
        uint64_t *a = w->buf, k = 0;
        if (!w->rc && n && !(a = sb_keys_sort_large(w->buf, w->tmp, n, s->kw, s->idm)))
            w->rc = sb_error_set(&w->err, SB_ENOMEM, 0, 0, "out of memory sorting");
        if (!w->rc)
            k = sb_keys_unique_minus(a, n, NULL, 0, NULL, 0, s->kw, s->idm);
        if (w->rc || await_turn(m, &m->keep, b))
            break;
        if ((w->rc = sink_keep(m->o, a, k, &k, &w->err)))
            break;
        pass_turn(m, &m->keep);
        if (m->nx && (expand_keys(w, a, k), w->rc))
            break;
        if (await_turn(m, &m->write, b))
            break;
        /* the store's count and the budget are sink_write's in its turn */
        drop_bucket(s, c, b);
        if ((w->rc = stopped(m->ctl, m->level, &w->err)) || (w->rc = sink_write(m->o, a, k, &w->err)))
            break;
        if (m->ctl && m->ctl->progress && sb_now() - m->last > 0.2) {
            report(s, m->ctl, "search on disk, merging", m->level, (uint64_t)b + 1, (uint64_t)c->P);
            m->last = sb_now();
        }
        pass_turn(m, &m->write);
    }
    if (!w->rc && m->nx)
        w->rc = flush_all(m, w);
    if (w->rc)
        fail(m, w);
    return NULL;
}

/* Run fn on threads 1..T-1 and the caller's; fewer when a thread cannot
 * be started. */
static void run_threads(maker *m, void *(*fn)(void *))
{
    pthread_t th[MAX_THREADS];
    int started = 1;
    for (int t = 1; t < m->T; t++) {
        if (pthread_create(&th[t], NULL, fn, &m->w[t]))
            break;
        started++;
    }
    fn(&m->w[0]);
    for (int t = 1; t < started; t++)
        pthread_join(th[t], NULL);
}

/* The cuts: c->P - 1 keys at even steps of a[0..n), a sample of a level
 * in order; fewer when the sample has repeats.  Sets c->P, c->split. */
static int cut_at(sb_dlevels *s, cutset *c, const uint64_t *a, uint64_t n, sb_error *err)
{
    int P = 1;
    if ((c->split = sb_mem_alloc(s->mem, (size_t)(c->P - 1) * kb(s), err)) == NULL)
        return SB_ENOMEM;
    c->nsplit = c->P - 1;
    for (int j = 1; j < c->P; j++) {
        const uint64_t *k = a + (n * (uint64_t)j / (uint64_t)c->P) * s->kw;
        if (P > 1 && sb_key_cmp(k, c->split + (size_t)(P - 2) * s->kw, s->kw) <= 0)
            continue;
        memcpy(c->split + (size_t)(P - 1) * s->kw, k, kb(s));
        P++;
    }
    c->P = P;
    if (s->kw == 1)
        guide_build(c);
    return 0;
}

/* The same for a level in file name (n keys): the sample taken as it was
 * written (sp), or one read from the file. */
static int cut_range(sb_dlevels *s, cutset *c, const char *name, uint64_t n, const sampler *sp, sb_error *err)
{
    if (c->P < 2)
        return 0;
    if (sp && sp->n >= 8 * (uint64_t)c->P) /* taken as the level was written */
        return cut_at(s, c, sp->a, sp->n, err);
    size_t room = sb_mem_left(s->mem), need = s->st.iob + sb_lstore_packed_extra(&s->st);
    uint64_t S = room > need ? (room - need) / (4 * kb(s)) : 0, step, got = 0, i = 0;
    if (S > SAMPLE)
        S = SAMPLE;
    if (S > n)
        S = n;
    if (S < (uint64_t)c->P) /* no room to cut as planned: one bucket, sorted in runs */
        return c->P = 1, 0;
    step = n / S;
    uint64_t *a = sb_mem_alloc(s->mem, S * kb(s), err);
    if (!a)
        return SB_ENOMEM;
    sb_lreader r;
    int rc = sb_lreader_open(&r, &s->st, name, NULL, err), g = 0;
    while (!rc && got < S && (g = sb_lreader_next(&r, err)) == 1)
        if (i++ % step == 0)
            memcpy(a + got++ * s->kw, r.key, kb(s));
    if (!rc) {
        sb_lreader_close(&r);
        rc = g < 0 ? g : 0;
    }
    if (!rc)
        rc = cut_at(s, c, a, got, err);
    sb_mem_free(s->mem, a, S * kb(s));
    return rc;
}

/* Write buffers for c: room bytes for T threads, at most 1 MB each;
 * SB_ENOMEM when a buffer would not hold a key. */
static int cut_buffers(sb_dlevels *s, cutset *c, int T, size_t room, sb_error *err)
{
    size_t K = kb(s), n = (size_t)T * (size_t)c->P;
    c->T = T;
    c->wbytes = room / n;
    if (c->wbytes > ((size_t)1 << 20))
        c->wbytes = (size_t)1 << 20;
    c->wbytes -= c->wbytes % K;
    if (!(c->cnt = calloc(n, sizeof *c->cnt)) || !(c->wb = calloc(n, sizeof *c->wb)) ||
        !(c->wlen = calloc(n, sizeof *c->wlen)))
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    if (c->wbytes < K)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "memory budget exhausted: levels on disk need %zu bytes more",
                            n * K);
    for (size_t i = 0; i < n; i++)
        if (!(c->wb[i] = sb_mem_alloc(s->mem, c->wbytes, err)))
            return SB_ENOMEM;
    return 0;
}

/* The write buffers go once the listing is done. */
static void cut_unbuffer(sb_dlevels *s, cutset *c)
{
    for (size_t i = 0; c->wb && i < (size_t)c->T * (size_t)c->P; i++)
        sb_mem_free(s->mem, c->wb[i], c->wbytes);
    free(c->wb);
    free(c->wlen);
    c->wb = NULL;
    c->wlen = NULL;
}

/* Forget c, its files removed (NULL: nothing). */
static void cut_free(sb_dlevels *s, cutset *c)
{
    if (!c)
        return;
    cut_unbuffer(s, c);
    if (c->cnt)
        for (int b = 0; b < c->P; b++)
            drop_bucket(s, c, b);
    free(c->cnt);
    sb_mem_free(s->mem, c->split, (size_t)c->nsplit * kb(s));
    free(c);
}

static cutset *cut_new(int side, int level, int tag, int P, sb_error *err)
{
    cutset *c = calloc(1, sizeof *c);
    if (!c) {
        sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        return NULL;
    }
    c->side = side;
    c->level = level;
    c->tag = tag;
    c->P = P;
    return c;
}

/* Neighbours listed per state expanded so far (4 before any). */
static double branching(const sb_dlevels *s)
{
    uint64_t e = 0;
    for (int k = 0; k < 2; k++)
        for (int d = 0; d + 1 < s->nlev[k]; d++)
            e += s->cnt[k][d];
    return e && s->generated ? (double)s->generated / (double)e : 4.0;
}

static void free_workers(maker *m)
{
    sb_dlevels *s = m->s;
    for (int t = 0; t < m->T; t++) {
        worker *w = &m->w[t];
        sb_mem_free(s->mem, w->batch, BATCH * kb(s));
        sb_mem_free(s->mem, w->buf, m->C * kb(s));
        sb_mem_free(s->mem, w->tmp, m->C * kb(s));
        w->batch = w->buf = w->tmp = NULL;
    }
}

static int buckets_for(double keys, uint64_t C, int maxP)
{
    double P = ceil(2 * keys / (double)(C ? C : 1));
    return P < 1 ? 1 : P > maxP ? maxP : (int)P;
}

/* Make the level after side X's newest; Y >= 0: the other side (both
 * ways).  f gets what the sink noticed.
 *
 * One way, the neighbours of the new level are listed as it is made,
 * into a second set of buckets kept for the next call (s->pend), so that
 * the new level is never read back to be expanded: the expansion runs on
 * the threads beside the sorting, while the writer streams.  The cuts of
 * that set come from level d's sample (two levels spread alike), the
 * room for its buffers from the budget's eighth. */
static int make_level(sb_dlevels *s, int X, int Y, const uint64_t *goal, final *f, sb_control *ctl,
                      sb_error *err)
{
    int d = s->nlev[X] - 1, rc = 0;
    size_t iob = s->st.iob, x = sb_lstore_packed_extra(&s->st), K = kb(s);
    uint64_t nd = s->cnt[X][d];
    char cur[64], prev[64], out[64], other[64];
    lname(cur, sizeof cur, X, d);
    lname(prev, sizeof prev, X, d - 1);
    lname(out, sizeof out, X, d + 1);
    if (Y >= 0)
        lname(other, sizeof other, Y, s->nlev[Y] - 1);
    maker *m = calloc(1, sizeof *m);
    if (!m)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    m->s = s;
    m->level = d + 1;
    m->err = err;
    m->ctl = ctl;
    m->total = nd;
    pthread_mutex_init(&m->lk, NULL);
    pthread_cond_init(&m->cv, NULL);
    s->st.lock = &m->lk;
    cutset *pend = s->pend;
    s->pend = NULL;
    if (pend && (pend->side != X || pend->level != d)) {
        cut_free(s, pend);
        pend = NULL;
    }
    /* making the level sets the buckets' size: the sink's three readers
     * (and their keys read ahead) and writer, a large bucket's run being
     * written, the cuts, and for each thread a bucket and its scratch;
     * one way, also the next set's cuts and write buffers */
    size_t left = sb_mem_left(s->mem), cuts = left / (128 * K);
    int maxP = cuts < 2 ? 2 : cuts > MAX_BUCKETS ? MAX_BUCKETS : (int)cuts;
    size_t fixed = 4 * (iob + x) + 3 * cursor_keys(iob, K) * K + iob + 2 * (size_t)maxP * K;
    int fuse = Y < 0;
    size_t room_nx = fuse ? left / 8 : 0;
    /* a bucket and its scratch are, for a large bucket's merge, at least
     * two buffers (with the run writer's, two runs merged into a third) */
    uint64_t least = (iob + K - 1) / K, C = 0;
    if (least < MIN_CHUNK)
        least = MIN_CHUNK;
    int T = 1, most = s->threads < 1 ? 1 : s->threads > MAX_THREADS ? MAX_THREADS : s->threads;
    for (;;) {
        for (T = most; T >= 1; T--) {
            C = left > fixed + room_nx ? (left - fixed - room_nx) / (2 * K * (size_t)T) : 0;
            if (C > MAX_CHUNK_BYTES / K / (size_t)T) /* with no budget: 1 GB in all */
                C = MAX_CHUNK_BYTES / K / (size_t)T;
            if (T == 1 || (C >= least && C >= (s->par_keys ? s->par_keys : PAR_KEYS)))
                break;
        }
        if (C >= least || !fuse)
            break;
        fuse = 0; /* no room for the next set: the level is listed from its file */
        room_nx = 0;
    }
    m->T = T;
    m->C = C;
    if (T > s->threads_used)
        s->threads_used = T;
    if (C < least) {
        rc = sb_error_set(err, SB_ENOMEM, 0, 0,
                          "memory budget exhausted: levels on disk need at least %zu bytes, %zu are left",
                          fixed + 2 * least * K, left);
        goto done;
    }
    if (pend && pend->T > T) { /* made for more threads than there is room for now */
        cut_free(s, pend);
        pend = NULL;
    }
    if (pend) {
        m->cur = pend;
        pend = NULL;
    } else {
        /* listing from the file: its reader and each thread's batch, the
         * rest write buffers, T per bucket */
        size_t one = iob + x + (size_t)T * BATCH * K;
        if (left < one + (size_t)T * MIN_BUCKET_BUFFER) {
            rc = sb_error_set(err, SB_ENOMEM, 0, 0,
                              "memory budget exhausted: levels on disk need at least %zu bytes, %zu are left",
                              one + (size_t)T * MIN_BUCKET_BUFFER, left);
            goto done;
        }
        int P = buckets_for((double)nd * branching(s), C, maxP);
        if ((left - one) / ((size_t)T * (size_t)P) < MIN_BUCKET_BUFFER)
            P = (int)((left - one) / ((size_t)T * MIN_BUCKET_BUFFER));
        if (!(m->cur = cut_new(X, d, d & 1, P, err))) {
            rc = SB_ENOMEM;
            goto done;
        }
        if ((rc = cut_range(s, m->cur, cur, nd, s->samp[X].level == d ? &s->samp[X] : NULL, err)))
            goto done;
        left = sb_mem_left(s->mem); /* less the cuts */
        if ((rc = cut_buffers(s, m->cur, T, left > one ? left - one : 0, err)))
            goto done;
        for (int t = 0; t < T && !rc; t++) {
            m->w[t].m = m;
            m->w[t].t = t;
            m->w[t].to = m->cur;
            if (!(m->w[t].batch = sb_mem_alloc(s->mem, BATCH * K, err)))
                rc = SB_ENOMEM;
        }
        sb_lreader in;
        if (!rc && !(rc = sb_lreader_open(&in, &s->st, cur, NULL, err))) {
            m->in = &in;
            run_threads(m, list_work);
            sb_lreader_close(&in);
            rc = m->rc;
        }
        free_workers(m);
        cut_unbuffer(s, m->cur);
        if (rc)
            goto done;
    }
    for (int t = 0; t < m->cur->T; t++)
        s->generated += m->cur->gen[t];
    /* one way: the next set, cut at level d's sample, planned for level
     * d+1 growing as level d did */
    if (fuse) {
        double grow = d >= 1 && s->cnt[X][d - 1] ? (double)nd / (double)s->cnt[X][d - 1] : 1.0;
        grow = grow < 0.5 ? 0.5 : grow > 4 ? 4 : grow;
        int P = buckets_for((double)nd * grow * branching(s), C, maxP);
        if (room_nx / ((size_t)T * (size_t)P) < MIN_BUCKET_BUFFER)
            P = (int)(room_nx / ((size_t)T * MIN_BUCKET_BUFFER));
        if (P < 1 || !(m->nx = cut_new(X, d + 1, (d + 1) & 1, P, err)) ||
            (rc = cut_range(s, m->nx, cur, nd, s->samp[X].level == d ? &s->samp[X] : NULL, err)) ||
            (rc = cut_buffers(s, m->nx, T, room_nx, err)))
            goto done;
    }
    /* the buckets in key order into level d+1 */
    f->x = cur;
    f->y = d >= 1 ? prev : NULL;
    f->other = Y >= 0 ? other : NULL;
    f->goal = goal;
    f->want_goal = Y < 0 && !s->census && (goal || s->model.is_goal);
    f->keep_first = X == 0;
    sink o;
    int sopen = 0;
    if (!rc) {
        rc = sink_open(&o, s, f, out, &s->samp[X], err);
        sopen = 1;
    }
    for (int t = 0; t < T && !rc; t++) {
        m->w[t].m = m;
        m->w[t].t = t;
        m->w[t].to = m->nx;
        if (!(m->w[t].buf = sb_mem_alloc(s->mem, C * K, err)) || !(m->w[t].tmp = sb_mem_alloc(s->mem, C * K, err)))
            rc = SB_ENOMEM;
    }
    if (!rc) {
        m->o = &o;
        run_threads(m, sort_work);
        rc = m->rc;
    }
    free_workers(m);
    if (sopen)
        rc = sink_close(&o, rc, err);
    if (!rc) {
        s->level_bytes += f->bytes;
        s->buckets += (uint64_t)m->cur->P;
        rc = push(s, X, o.n, f->check, err);
        s->samp[X].level = d + 1;
    }
    if (!rc && m->nx) {
        cut_unbuffer(s, m->nx);
        s->pend = m->nx;
        m->nx = NULL;
    }
done:
    cut_free(s, pend);
    cut_free(s, m->cur);
    cut_free(s, m->nx);
    s->st.lock = NULL;
    pthread_mutex_destroy(&m->lk);
    pthread_cond_destroy(&m->cv);
    free(m);
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
        if (!strncmp(e->d_name, "run-", 4) || !strncmp(e->d_name, "bucket-", 7) || !strcmp(e->d_name, "run.new")) {
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

static int search_levels(sb_dlevels *s, const uint64_t *start, const uint64_t *goal, int status,
                         sb_control *ctl, sb_error *err)
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

/* The search, and then the neighbours listed ahead for a level that was
 * not made (the goal was found, the component walked, or the run
 * stopped) are forgotten. */
static int search(sb_dlevels *s, const uint64_t *start, const uint64_t *goal, int status, sb_control *ctl,
                  sb_error *err)
{
    int rc = search_levels(s, start, goal, status, ctl, err);
    cut_free(s, s->pend);
    s->pend = NULL;
    return rc;
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
    /* room for samples of the newest levels: a thousandth of the budget */
    uint64_t cap = sb_mem_left(s->mem) / 1024 / kb(s);
    if (cap > SAMPLE)
        cap = SAMPLE;
    for (int k = 0; k < 2 && cap >= 64; k++) {
        if (!(s->samp[k].a = sb_mem_alloc(s->mem, cap * kb(s), err)))
            return SB_ENOMEM;
        s->samp[k].cap = cap;
    }
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
