/* The distributed sorted-level engine: the key search (sbfs/search.h) with
 * every level cut among the MPI processes.
 *
 * Ownership.  A configuration belongs to process h(key) mod P, h a 64-bit
 * mix of the key without its hints.  Level d of a side is, on each
 * process, the sorted array of the keys it owns at distance d; the size of
 * the level is the sum over processes.
 *
 * Making level d+1.  Each process lists the neighbours of its part of level
 * d into one buffer per owner.  When the buffers hold a batch (or its part
 * is done), each is sorted and rid of repeats (their hints OR-ed) and all
 * processes trade them in one MPI_Alltoallv; what a process receives (P
 * sorted runs) is merged into one run of its own.  After the last round
 * the runs are merged without the keys of its parts of levels d and d-1:
 * a neighbour of level d lies at distance d-1, d or d+1 (moves can be
 * undone), and a key's copies in those levels are all at its owner, so
 * this is the test the one-process engine (src/search/levels.c) makes,
 * split by owner.  The number of rounds is agreed each round (an
 * MPI_Allreduce that also carries Ctrl-C and errors), so every process
 * calls the same collectives in the same order.
 *
 * The same answer as one process.  The one-process engine takes the
 * smallest key wherever it has a choice: the first goal of a level, the
 * first state the two sides share, the parent of a path's state.  Here
 * each process finds its smallest and the processes take the smallest of
 * those (an MPI_Allgather of one key each); hints are OR-ed over the same
 * copies.  So levels, goal, meeting point and path are the same keys as
 * with one process, and the output is the same bytes.
 *
 * Both ways, census, budget.  The side to grow is chosen on the summed
 * level sizes; a census keeps only the two newest levels.  Every array is
 * charged to the process's own sb_mem.  When a process runs out while a
 * level is made, all processes drop the same older levels and make it
 * again, and a path through dropped levels is rebuilt from checkpoints,
 * as one process does (see "the budget" below); the run stops with
 * SB_ENOMEM on all only when the two newest levels do not fit.
 *
 * Failures.  MPI calls return their errors (MPI_ERRORS_RETURN); one that
 * fails (a process died, the network went) is reported with the rank and
 * the job aborted, so that no process waits for ever. */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/core/hash.h"
#include "../src/core/internal.h"
#include "../src/search/backend.h"
#include "../src/search/keysort.h"
#include "../src/search/levelstore.h"
#include "sbmpi.h"
#include "sbmpi_priv.h"

#define MAXKW SB_SEARCH_MAXKW
#define BATCH_WORDS ((uint64_t)1 << 20) /* words listed by a process before a trade */
#define MIN_BATCH ((uint64_t)1 << 5)    /* keys: the smallest batch under a short budget */
#define MAX_SHARE 512                   /* the least share of the room a batch is cut to */

typedef struct dlevel {
    uint64_t *keys; /* this process's part, sorted; NULL once dropped (on all processes) */
    uint64_t n;     /* keys in the part */
    uint64_t total; /* keys in the level, all processes */
    int checkpoint; /* kept with the level before it when others are dropped */
    uint64_t file;  /* with levels on disk: > 0 once the part is in file "l<file>" */
} dlevel;

/* lev[i] is distance base + i (base > 0 for a side searched again from a
 * checkpoint to rebuild a path). */
typedef struct dside {
    dlevel *lev;
    int nlev, cap;
    int base;
} dside;

typedef struct run {
    uint64_t *keys;
    uint64_t n;
} run;

typedef struct dsearch {
    sb_keymodel model;
    int kw;
    uint64_t idm;
    int rank, size;
    MPI_Comm comm;
    MPI_Datatype keytype; /* kw uint64_t */
    sb_mem *mem;
    dside side[2];
    int census, bidir, found, length, complete, exhausted;
    int meet_level[2];
    uint64_t meet[MAXKW];
    uint64_t generated;   /* this process */
    uint64_t *last;       /* rank 0: the newest level of side 0, gathered (census) */
    uint64_t nlast, lastcap;
    /* one level's making */
    uint64_t **out, *outn, *outcap; /* a buffer per owner */
    uint64_t pending;               /* keys in those */
    int rc;                         /* set by emit */
    const dlevel *cur, *prev;       /* levels d and d-1 of the level being made */
    int pressed;                    /* the budget ran short in this run (on some process) */
    unsigned share;                 /* then a batch takes 1/share of the room left */
    int dropped;                    /* levels dropped for the budget (all processes alike) */
    /* levels on disk (--disk): this process's store, in <dir>/rank-<rank> */
    sb_lstore *ls;
    char rankdir[SB_LS_NAME];
    int made_rankdir;               /* rankdir was made here: removed at the end */
    uint64_t nfiles;                /* files written, for their names */
    uint64_t disk_written;          /* bytes of level files written */
    sb_error err;
    sbmpi_stats stats;
    double comm0;
    uint64_t sent;
} dsearch;

static size_t kb(const dsearch *d, uint64_t n)
{
    return (size_t)n * (size_t)d->kw * sizeof(uint64_t);
}

static int owner(const dsearch *d, const uint64_t *key)
{
    uint64_t h = sb_mix64(key[0] & d->idm);
    for (int i = 1; i < d->kw; i++)
        h = sb_mix64(h ^ key[i]);
    return (int)(h % (uint64_t)d->size);
}

/* ---- agreement ---- */

/* Every process's rc (0, or an SB_E* code with its message in err): the
 * code and message of the lowest rank that failed, on every process. */
static int agree(dsearch *d, int rc, sb_error *err)
{
    int mine = rc ? d->rank : d->size, first;
    double t = MPI_Wtime();
    SBMPI_WAIT(MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, d->comm, &q_), "MPI_Allreduce");
    if (first < d->size) {
        sb_error e;
        memset(&e, 0, sizeof e);
        if (d->rank == first) {
            if (err)
                e = *err;
            e.code = rc;
        }
        SBMPI_WAIT(MPI_Ibcast(&e, (int)sizeof e, MPI_BYTE, first, d->comm, &q_), "MPI_Bcast");
        if (err)
            *err = e;
        rc = e.code ? e.code : SB_EINTERNAL;
    } else {
        rc = 0;
    }
    d->stats.comm_secs += MPI_Wtime() - t;
    return rc;
}

/* The smallest of the processes' candidate keys (have: this process has
 * one, in key): into key; returns whether any process had one. */
static int smallest(dsearch *d, int have, uint64_t *key)
{
    int kw = d->kw;
    uint64_t mine[MAXKW + 1];
    uint64_t *all = malloc((size_t)d->size * (kw + 1) * sizeof *all);
    if (!all)
        sbmpi_fatal("out of memory for %d keys", d->size);
    mine[0] = (uint64_t)have;
    if (have)
        memcpy(mine + 1, key, kb(d, 1));
    else
        memset(mine + 1, 0, kb(d, 1));
    double t = MPI_Wtime();
    SBMPI_WAIT(MPI_Iallgather(mine, kw + 1, MPI_UINT64_T, all, kw + 1, MPI_UINT64_T, d->comm, &q_), "MPI_Allgather");
    d->stats.comm_secs += MPI_Wtime() - t;
    int found = 0;
    for (int r = 0; r < d->size; r++) {
        uint64_t *c = all + (size_t)r * (kw + 1);
        if (!c[0])
            continue;
        if (!found || (kw == 1 ? (c[1] & d->idm) < (key[0] & d->idm) : sb_key_cmp(c + 1, key, kw) < 0))
            memcpy(key, c + 1, kb(d, 1));
        found = 1;
    }
    free(all);
    if (found)
        key[0] &= d->idm;
    return found;
}

static uint64_t sum_u64(dsearch *d, uint64_t v)
{
    uint64_t s;
    double t = MPI_Wtime();
    SBMPI_WAIT(MPI_Iallreduce(&v, &s, 1, MPI_UINT64_T, MPI_SUM, d->comm, &q_), "MPI_Allreduce");
    d->stats.comm_secs += MPI_Wtime() - t;
    return s;
}

/* ---- levels ---- */

static void file_name(uint64_t file, char *name, size_t size)
{
    snprintf(name, size, "l%llu", (unsigned long long)file);
}

static void level_drop(dsearch *d, dlevel *L)
{
    if (L->keys)
        sb_mem_free(d->mem, L->keys, kb(d, L->n ? L->n : 1));
    L->keys = NULL;
    if (L->file) {
        char name[32];
        file_name(L->file, name, sizeof name);
        sb_lstore_remove(d->ls, name);
        L->file = 0;
    }
}

static int side_push(dsearch *d, dside *S, uint64_t *keys, uint64_t n, sb_error *err)
{
    if (S->nlev == S->cap) {
        int nc = S->cap ? 2 * S->cap : 64;
        dlevel *l = sb_mem_realloc(d->mem, S->lev, S->cap * sizeof *l, nc * sizeof *l, err);
        if (!l)
            return SB_ENOMEM;
        S->lev = l;
        S->cap = nc;
    }
    S->lev[S->nlev].keys = keys;
    S->lev[S->nlev].n = n;
    S->lev[S->nlev].total = 0;
    S->lev[S->nlev].checkpoint = 0;
    S->lev[S->nlev].file = 0;
    S->nlev++;
    return 0;
}

/* A side's own levels are freed; the first `borrowed` are another's. */
static void side_free(dsearch *d, dside *S, int borrowed)
{
    for (int i = borrowed; i < S->nlev; i++)
        level_drop(d, &S->lev[i]);
    sb_mem_free(d->mem, S->lev, S->cap * sizeof *S->lev);
    memset(S, 0, sizeof *S);
}

/* Level 0 of a side: key at its owner; a local failure is returned
 * unagreed (the caller agrees). */
static int start_side(dsearch *d, dside *S, const uint64_t *key, sb_error *err)
{
    int mine = owner(d, key) == d->rank;
    uint64_t *k = sb_mem_alloc(d->mem, kb(d, 1), err);
    if (!k)
        return SB_ENOMEM;
    if (mine)
        memcpy(k, key, kb(d, 1));
    int rc = side_push(d, S, k, (uint64_t)mine, err);
    if (rc)
        sb_mem_free(d->mem, k, kb(d, 1));
    else
        S->lev[S->nlev - 1].total = 1;
    return rc;
}

static void emit(void *ctx, const uint64_t *key)
{
    dsearch *d = ctx;
    if (d->rc)
        return;
    int o = owner(d, key);
    if (d->outn[o] == d->outcap[o]) {
        uint64_t nc = d->outcap[o] ? 2 * d->outcap[o] : 64;
        uint64_t *b = sb_mem_realloc(d->mem, d->out[o], kb(d, d->outcap[o]), kb(d, nc), &d->err);
        if (!b) {
            d->rc = SB_ENOMEM;
            return;
        }
        d->out[o] = b;
        d->outcap[o] = nc;
    }
    memcpy(d->out[o] + d->outn[o] * d->kw, key, kb(d, 1));
    d->outn[o]++;
    d->pending++;
    d->generated++;
}

static void free_out(dsearch *d)
{
    if (!d->out)
        return;
    for (int r = 0; r < d->size; r++)
        sb_mem_free(d->mem, d->out[r], kb(d, d->outcap[r]));
    memset(d->outn, 0, d->size * sizeof *d->outn);
    memset(d->outcap, 0, d->size * sizeof *d->outcap);
    memset(d->out, 0, d->size * sizeof *d->out);
}

/* A block of `had` keys cut to n (both at least one); NULL when it cannot be. */
static uint64_t *shrink(dsearch *d, uint64_t *keys, uint64_t had, uint64_t n, sb_error *err)
{
    return sb_mem_realloc(d->mem, keys, kb(d, had ? had : 1), kb(d, n ? n : 1), err);
}

static void free_runs(dsearch *d, run *runs, int nruns)
{
    for (int j = 0; j < nruns; j++)
        sb_mem_free(d->mem, runs[j].keys, kb(d, runs[j].n ? runs[j].n : 1));
}

/* One trade: sort each owner's buffer, trade, merge what came into a run
 * (appended to *runs).  Collective; a local failure is returned in rc
 * after the trade (the process then sends nothing). */
static int trade(dsearch *d, run **runs, int *nruns, int *runcap, sb_error *err)
{
    int P = d->size, kw = d->kw, rc = d->rc;
    int *sc = calloc((size_t)P * 4, sizeof *sc), *rcnt = sc + P, *sd = sc + 2 * P, *rd = sc + 3 * P;
    if (!sc)
        sbmpi_fatal("out of memory for %d counts", P);
    uint64_t *sendbuf = NULL, *tmp = NULL, total = 0, big = 0, room = d->pending ? d->pending : 1;
    if (!rc) {
        for (int r = 0; r < P; r++)
            big = d->outn[r] > big ? d->outn[r] : big;
        tmp = sb_mem_alloc(d->mem, kb(d, big ? big : 1), err);
        sendbuf = sb_mem_alloc(d->mem, kb(d, room), err);
        if (!tmp || !sendbuf)
            rc = SB_ENOMEM;
    }
    if (!rc) {
        for (int r = 0; r < P; r++) {
            uint64_t n = d->outn[r];
            uint64_t *s = n ? sb_keys_sort(d->out[r], tmp, n, kw, d->idm) : d->out[r];
            if (n && !s) {
                rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory sorting");
                break;
            }
            if (n) {
                n = sb_keys_unique_minus(s, n, NULL, 0, NULL, 0, kw, d->idm);
                memcpy(sendbuf + total * kw, s, kb(d, n));
            }
            sc[r] = (int)n;
            sd[r] = (int)total;
            total += n;
        }
    }
    if (rc)
        memset(sc, 0, sizeof *sc * P);
    for (int r = 0; r < P; r++)
        d->outn[r] = 0;
    d->pending = 0;
    if (tmp)
        sb_mem_free(d->mem, tmp, kb(d, big ? big : 1));
    if (d->pressed)
        free_out(d); /* their room goes to the receiving and the merge */
    double t = MPI_Wtime();
    SBMPI_WAIT(MPI_Ialltoall(sc, 1, MPI_INT, rcnt, 1, MPI_INT, d->comm, &q_), "MPI_Alltoall");
    uint64_t got = 0;
    for (int r = 0; r < P; r++) {
        rd[r] = (int)got;
        got += (uint64_t)rcnt[r];
        if (r != d->rank)
            d->sent += kb(d, (uint64_t)sc[r]);
    }
    uint64_t *recv = rc ? NULL : sb_mem_alloc(d->mem, kb(d, got ? got : 1), err);
    if (!rc && !recv)
        rc = SB_ENOMEM;
    /* a process without room still takes part, receiving nothing it keeps */
    uint64_t *sink = recv;
    if (!sink && !(sink = malloc(kb(d, got ? got : 1))))
        sbmpi_fatal("out of memory receiving %llu keys", (unsigned long long)got);
    /* a process that sends nothing still passes a send buffer of its own:
     * Open MPI takes a send buffer equal to the receive buffer for
     * MPI_IN_PLACE, and would then send what the others send it */
    uint64_t none[MAXKW];
    SBMPI_WAIT(MPI_Ialltoallv(sendbuf ? sendbuf : none, sc, sd, d->keytype, sink, rcnt, rd, d->keytype,
                              d->comm, &q_), "MPI_Alltoallv");
    d->stats.comm_secs += MPI_Wtime() - t;
    if (sendbuf)
        sb_mem_free(d->mem, sendbuf, kb(d, room)); /* the size it was given, not the keys sent */
    if (!recv)
        free(sink);
    if (rc) {
        free(sc);
        return rc;
    }
    if (*nruns == *runcap) {
        int nc = *runcap ? 2 * *runcap : 16;
        run *r = sb_mem_realloc(d->mem, *runs, *runcap * sizeof *r, nc * sizeof *r, err);
        if (!r)
            rc = SB_ENOMEM;
        else
            *runs = r, *runcap = nc;
    }
    uint64_t **in = malloc((size_t)P * sizeof *in), *cnt = malloc((size_t)P * sizeof *cnt);
    uint64_t *keys = rc ? NULL : sb_mem_alloc(d->mem, kb(d, got ? got : 1), err);
    if (!in || !cnt || (!rc && !keys))
        rc = rc ? rc : sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory merging");
    if (!rc) {
        for (int r = 0; r < P; r++) {
            in[r] = recv + (uint64_t)rd[r] * kw;
            cnt[r] = (uint64_t)rcnt[r];
        }
        /* under a short budget the runs leave out levels d and d-1 at
         * once, so that they hold new keys only */
        const dlevel *x = d->pressed ? d->cur : NULL, *y = d->pressed ? d->prev : NULL;
        uint64_t n = sb_keys_merge(in, cnt, P, x ? x->keys : NULL, x ? x->n : 0, y ? y->keys : NULL,
                                   y ? y->n : 0, keys, kw, d->idm);
        uint64_t *k2 = n == UINT64_MAX ? NULL : shrink(d, keys, got, n, err);
        if (!k2) {
            rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory merging");
            sb_mem_free(d->mem, keys, kb(d, got ? got : 1));
        } else {
            (*runs)[*nruns].keys = k2;
            (*runs)[*nruns].n = n;
            (*nruns)++;
        }
    }
    free(in);
    free(cnt);
    sb_mem_free(d->mem, recv, kb(d, got ? got : 1));
    free(sc);
    return rc;
}

/* Make the next level of S.  Collective; returns the agreed code. */
static int make_level(dsearch *d, dside *S, sb_control *ctl, sb_error *err)
{
    const dlevel *cur = &S->lev[S->nlev - 1], *prev = S->nlev >= 2 ? &S->lev[S->nlev - 2] : NULL;
    int level = S->base + S->nlev; /* distance being made (this side) */
    run *runs = NULL;
    int nruns = 0, runcap = 0, rc = 0;
    uint64_t i = 0, batch = BATCH_WORDS / (uint64_t)d->kw;
    if (d->pressed) {
        /* a trade holds a batch about three times over (the buffers and
         * their sort, then the send and receive buffers, then what was
         * received and its merge): a batch takes 1/share of the room this
         * process has left */
        uint64_t b = (uint64_t)sb_mem_left(d->mem) / ((uint64_t)d->share * kb(d, 1));
        batch = b < MIN_BATCH ? MIN_BATCH : b < batch ? b : batch;
    }
    double last = sb_now();
    d->rc = 0;
    d->cur = cur;
    d->prev = prev;
    for (;;) {
        while (i < cur->n && d->pending < batch && !d->rc) {
            int e = d->model.expand(d->model.ud, cur->keys + i * d->kw, emit, d);
            if (e && !d->rc)
                d->rc = sb_error_set(&d->err, e, 0, 0, "the model failed to list moves");
            i++;
        }
        if (d->rc)
            *err = d->err;
        int lrc = trade(d, &runs, &nruns, &runcap, err);
        if (!lrc && sb_control_stopped(ctl))
            lrc = sb_error_set(err, SB_EINTR, 0, 0, "stopped at distance %d", level);
        /* agree on errors and on whether any process has more to list */
        int flags[2] = {lrc ? 1 : 0, i < cur->n}, all[2];
        double t = MPI_Wtime();
        SBMPI_WAIT(MPI_Iallreduce(flags, all, 2, MPI_INT, MPI_MAX, d->comm, &q_), "MPI_Allreduce");
        d->stats.comm_secs += MPI_Wtime() - t;
        if (all[0]) {
            rc = agree(d, lrc, err);
            break;
        }
        if (!all[1])
            break;
        if (ctl && ctl->progress && d->rank == 0 && sb_now() - last > 0.2) {
            uint64_t done = 0;
            for (int k = 0; k < 2; k++)
                for (int j = 0; j < d->side[k].nlev; j++)
                    done += d->side[k].lev[j].total;
            sb_progress_info in = {"search", level, done, 0, d->mem ? d->mem->used : 0, 0, 0};
            ctl->progress(ctl->ud, &in);
            last = sb_now();
        }
    }
    free_out(d);
    uint64_t *keys = NULL, n = 0, sum = 0;
    if (!rc) {
        for (int j = 0; j < nruns; j++)
            sum += runs[j].n;
        uint64_t **in = malloc(((size_t)nruns + 1) * sizeof *in), *cnt = malloc(((size_t)nruns + 1) * sizeof *cnt);
        keys = sb_mem_alloc(d->mem, kb(d, sum ? sum : 1), err);
        int lrc = 0;
        if (!in || !cnt || !keys) {
            lrc = sb_error_set(err, SB_ENOMEM, 0, 0,
                               "memory budget exhausted: distance %d (%llu keys here) does not fit", level,
                               (unsigned long long)sum);
        } else {
            for (int j = 0; j < nruns; j++)
                in[j] = runs[j].keys, cnt[j] = runs[j].n;
            n = sb_keys_merge(in, cnt, nruns, cur->keys, cur->n, prev ? prev->keys : NULL, prev ? prev->n : 0,
                              keys, d->kw, d->idm);
            if (n == UINT64_MAX)
                lrc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory merging");
        }
        free(in);
        free(cnt);
        free_runs(d, runs, nruns);
        nruns = 0;
        if (!lrc) {
            uint64_t *k2 = shrink(d, keys, sum, n, err);
            if (!k2) {
                lrc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
            } else {
                keys = NULL;
                if ((lrc = side_push(d, S, k2, n, err)))
                    sb_mem_free(d->mem, k2, kb(d, n ? n : 1));
            }
        }
        if (lrc && keys)
            sb_mem_free(d->mem, keys, kb(d, sum ? sum : 1));
        rc = agree(d, lrc, err);
        if (!rc)
            S->lev[S->nlev - 1].total = sum_u64(d, n);
        else if (!lrc) { /* another process failed: take the level back */
            S->nlev--;
            level_drop(d, &S->lev[S->nlev]);
        }
    }
    free_runs(d, runs, nruns);
    sb_mem_free(d->mem, runs, runcap * sizeof *runs);
    d->cur = d->prev = NULL; /* S->lev may have moved */
    return rc;
}

/* ---- the budget ----
 *
 * As in one process (src/search/levels.c): when a level cannot be made,
 * older levels are dropped, except level 0 and checkpoint pairs, and the
 * level is made again; a path through dropped levels is rebuilt by
 * searching again from the nearest checkpoint below.  Here the processes
 * agree that the level failed (one process out of room is enough), and
 * every process then drops the same levels, its own part of each: which
 * levels go depends only on the sides' shape, the same everywhere.  So a
 * level is held by all processes or by none, and the collective calls of
 * a path's rebuild stay in step. */

typedef struct {
    dsearch *d;
    dside *S;
} drop_ctx;

static int held_level(void *ctx, int i)
{
    return ((drop_ctx *)ctx)->S->lev[i].keys != NULL;
}

static int *checkpoint_of(void *ctx, int i)
{
    return &((drop_ctx *)ctx)->S->lev[i].checkpoint;
}

static void drop_level(void *ctx, int i)
{
    drop_ctx *c = ctx;
    level_drop(c->d, &c->S->lev[i]);
}

/* Drop what may go on S (its first `borrowed` levels are another side's)
 * by the one rule of the sorted-level engines (sb_levels_drop).  Returns
 * the levels dropped. */
static int drop_levels(dsearch *d, dside *S, int borrowed, int census)
{
    drop_ctx c = {d, S};
    sb_droprule r = {&c, S->nlev, S->base, borrowed, census, held_level, checkpoint_of, drop_level};
    int got = sb_levels_drop(&r);
    if (!census)
        d->dropped += got;
    return got;
}

/* ---- levels on disk ----
 *
 * With a store (--disk), each process writes its part of every level of
 * a side older than the two newest to a file of its own and frees it:
 * making a level needs levels d and d-1 only, and the rebuild of a path
 * reads each older level back once, one at a time.  The keys go without
 * their hints (the store wants them strictly ascending, and hints serve
 * only the making of the next level).  Every process writes the same
 * levels, so a level is on disk everywhere or nowhere, and a failure
 * (the disk limit, a full disk) is agreed like any other. */
static int spill(dsearch *d, dside *S, int borrowed, sb_error *err)
{
    int rc = 0;
    for (int i = borrowed; i < S->nlev - 2 && !rc; i++) {
        dlevel *L = &S->lev[i];
        if (!L->keys)
            continue;
        char name[32];
        uint64_t file = d->nfiles + 1;
        file_name(file, name, sizeof name);
        sb_lwriter w;
        rc = sb_lwriter_open(&w, d->ls, name, err);
        for (uint64_t j = 0; j < L->n && !rc; j++) {
            uint64_t key[MAXKW];
            memcpy(key, L->keys + j * d->kw, kb(d, 1));
            key[0] &= d->idm;
            rc = sb_lwriter_put(&w, key, err);
        }
        if (!rc)
            rc = sb_lwriter_close(&w, err);
        if (rc) {
            sb_lwriter_abort(&w);
            break;
        }
        d->nfiles = file;
        d->disk_written += SB_LS_HEADER + w.bytes;
        sb_mem_free(d->mem, L->keys, kb(d, L->n ? L->n : 1));
        L->keys = NULL;
        L->file = file;
    }
    return agree(d, rc, err);
}

/* Read the part of level L (on disk, not in memory) back.  Collective. */
static int load(dsearch *d, dlevel *L, sb_error *err)
{
    char name[32];
    file_name(L->file, name, sizeof name);
    sb_lreader r;
    uint64_t n = 0, j = 0, *k = NULL;
    int rc = sb_lreader_open(&r, d->ls, name, &n, err);
    if (!rc) {
        if (n != L->n)
            rc = sb_error_set(err, SB_EBADFILE, 0, 0, "%s/%s: %llu keys, %llu expected", d->ls->dir, name,
                              (unsigned long long)n, (unsigned long long)L->n);
        else if (!(k = sb_mem_alloc(d->mem, kb(d, n ? n : 1), err)))
            rc = SB_ENOMEM;
        int got;
        while (!rc && (got = sb_lreader_next(&r, err)) != 0) {
            if (got < 0)
                rc = got;
            else if (j < n)
                memcpy(k + (j++) * d->kw, r.key, kb(d, 1));
        }
        sb_lreader_close(&r);
    }
    if (rc && k)
        sb_mem_free(d->mem, k, kb(d, n ? n : 1));
    else if (!rc)
        L->keys = k;
    return agree(d, rc, err);
}

/* Make the next level of S, dropping older levels (of S, then of `other`)
 * while the budget of some process is short.  The first failure puts the
 * run under pressure (batches fitted to the room left, runs without
 * levels d and d-1) and tries again; a failure with nothing left to drop
 * cuts the batches by 4, down to MAX_SHARE, and then stops the run.  Each
 * attempt costs a level's work, and the decision is the same on every
 * process: it rests on the agreed code and the sides' shape alone. */
static int next_level(dsearch *d, dside *S, int borrowed, dside *other, int census, sb_control *ctl,
                      sb_error *err)
{
    if (census)
        drop_levels(d, S, borrowed, 1);
    for (;;) {
        int rc = make_level(d, S, ctl, err);
        if (!rc) /* a store that is full stops the run (SB_ENOMEM too, but not the memory's) */
            return d->ls && !census ? spill(d, S, borrowed, err) : 0;
        if (rc != SB_ENOMEM)
            return rc;
        int first = !d->pressed;
        d->pressed = 1;
        if (drop_levels(d, S, borrowed, census) || (other && drop_levels(d, other, 0, census)) || first)
            continue;
        if (d->share >= MAX_SHARE)
            return rc;
        d->share *= 4;
    }
}

/* ---- the search ---- */

/* The smallest goal this process holds in level L (is_goal, or the key
 * goal) into key; returns whether there is one. */
static int local_goal(const dsearch *d, const dlevel *L, const uint64_t *goal, uint64_t *key)
{
    if (d->model.is_goal) {
        for (uint64_t i = 0; i < L->n; i++) {
            memcpy(key, L->keys + i * d->kw, kb(d, 1));
            key[0] &= d->idm;
            if (d->model.is_goal(d->model.ud, key))
                return 1;
        }
        return 0;
    }
    if (!goal)
        return 0;
    int64_t i = sb_keys_find(L->keys, L->n, goal, d->kw, d->idm);
    if (i >= 0)
        memcpy(key, L->keys + (uint64_t)i * d->kw, kb(d, 1));
    return i >= 0;
}

static void clear_result(dsearch *d)
{
    side_free(d, &d->side[0], 0);
    side_free(d, &d->side[1], 0);
    free(d->last);
    d->last = NULL;
    d->nlast = d->lastcap = 0;
    d->found = d->complete = d->exhausted = d->bidir = 0;
    d->length = -1;
    d->meet_level[0] = d->meet_level[1] = -1;
    d->generated = 0;
    d->disk_written = 0;
    d->dropped = 0;
    d->pressed = 0;
    d->share = 8;
}

static int search(dsearch *d, const uint64_t *start, const uint64_t *goal, sb_control *ctl, sb_error *err)
{
    int rc = agree(d, start_side(d, &d->side[0], start, err), err);
    if (rc)
        return rc;
    uint64_t key[MAXKW];
    if (!d->bidir) {
        dside *F = &d->side[0];
        int got = smallest(d, local_goal(d, &F->lev[0], goal, key), key);
        while (!got) {
            if ((rc = next_level(d, F, 0, NULL, d->census, ctl, err)))
                return rc;
            dlevel *L = &F->lev[F->nlev - 1];
            if (!L->total) {
                F->nlev--;
                level_drop(d, &F->lev[F->nlev]);
                d->complete = 1;
                return 0;
            }
            got = smallest(d, local_goal(d, L, goal, key), key);
        }
        d->length = d->meet_level[0] = F->nlev - 1;
        d->meet_level[1] = 0;
        memcpy(d->meet, key, kb(d, 1));
        d->found = 1;
        return 0;
    }
    if (!memcmp(start, goal, kb(d, 1))) {
        d->length = d->meet_level[0] = d->meet_level[1] = 0;
        memcpy(d->meet, start, kb(d, 1));
        d->meet[0] &= d->idm;
        d->found = 1;
        return 0;
    }
    if ((rc = agree(d, start_side(d, &d->side[1], goal, err), err)))
        return rc;
    for (;;) {
        dside *F = &d->side[0], *B = &d->side[1];
        int k = F->lev[F->nlev - 1].total <= B->lev[B->nlev - 1].total ? 0 : 1;
        dside *X = &d->side[k], *Y = &d->side[1 - k];
        if ((rc = next_level(d, X, 0, Y, d->census, ctl, err)))
            return rc;
        const dlevel *L = &X->lev[X->nlev - 1], *M = &Y->lev[Y->nlev - 1];
        if (!L->total) {
            X->nlev--;
            level_drop(d, &X->lev[X->nlev]);
            d->complete = 1;
            d->exhausted = k;
            return 0;
        }
        int64_t i = sb_keys_first_common(L->keys, L->n, M->keys, M->n, d->kw, d->idm);
        if (i >= 0)
            memcpy(key, L->keys + (uint64_t)i * d->kw, kb(d, 1));
        if (smallest(d, i >= 0, key)) {
            d->meet_level[k] = X->nlev - 1;
            d->meet_level[1 - k] = Y->nlev - 1;
            d->length = d->meet_level[0] + d->meet_level[1];
            memcpy(d->meet, key, kb(d, 1));
            d->found = 1;
            return 0;
        }
    }
}

/* Rank 0 receives the newest level of side 0, in order, without hints. */
static void gather_last(dsearch *d)
{
    dside *F = &d->side[0];
    dlevel *L = F->nlev ? &F->lev[F->nlev - 1] : NULL;
    int P = d->size, ok = L && L->keys && L->total <= (uint64_t)1 << 26;
    if (!ok)
        return; /* the same on every process: total is agreed */
    int *cnt = calloc((size_t)P * 2, sizeof *cnt), *dis = cnt + P, mine = (int)L->n;
    if (!cnt)
        sbmpi_fatal("out of memory");
    double t = MPI_Wtime();
    SBMPI_WAIT(MPI_Igather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, 0, d->comm, &q_), "MPI_Gather");
    uint64_t *all = NULL;
    if (d->rank == 0) {
        int off = 0;
        for (int r = 0; r < P; r++)
            dis[r] = off, off += cnt[r];
        all = malloc(kb(d, L->total ? L->total : 1));
        if (!all)
            sbmpi_fatal("out of memory gathering %llu keys", (unsigned long long)L->total);
    }
    SBMPI_WAIT(MPI_Igatherv(L->keys, mine, d->keytype, all, cnt, dis, d->keytype, 0, d->comm, &q_), "MPI_Gatherv");
    d->stats.comm_secs += MPI_Wtime() - t;
    if (d->rank == 0) {
        uint64_t **in = malloc((size_t)P * sizeof *in), *n = malloc((size_t)P * sizeof *n);
        d->last = malloc(kb(d, L->total ? L->total : 1));
        if (!in || !n || !d->last)
            sbmpi_fatal("out of memory gathering");
        for (int r = 0; r < P; r++)
            in[r] = all + (uint64_t)dis[r] * d->kw, n[r] = (uint64_t)cnt[r];
        d->nlast = sb_keys_merge(in, n, P, NULL, 0, NULL, 0, d->last, d->kw, d->idm);
        if (d->nlast == UINT64_MAX)
            sbmpi_fatal("out of memory gathering");
        for (uint64_t i = 0; i < d->nlast; i++)
            d->last[i * d->kw] &= d->idm;
        free(in);
        free(n);
        free(all);
    }
    free(cnt);
}

static int d_run(void *st, const uint64_t *start, const uint64_t *goal, unsigned flags, sb_control *ctl,
                 sb_search_info *info, sb_error *err)
{
    dsearch *d = st;
    clear_result(d);
    d->stats.comm_secs = 0;
    d->sent = 0;
    d->census = (flags & SB_SEARCH_CENSUS) != 0;
    int (*keep)(void *, const uint64_t *) = d->model.is_goal;
    if (d->census)
        d->model.is_goal = NULL;
    d->bidir = (flags & SB_SEARCH_BIDIR) && goal && !d->model.is_goal;
    int rc = search(d, start, goal, ctl, err);
    d->model.is_goal = keep;
    if (!rc && d->census)
        gather_last(d);
    memset(info, 0, sizeof *info);
    info->found = d->found;
    info->length = d->found ? d->length : -1;
    info->bidir = d->bidir;
    info->complete = d->complete;
    info->exhausted = d->exhausted;
    info->nlevels[0] = d->side[0].nlev;
    info->nlevels[1] = d->side[1].nlev;
    info->threads = 1;
    info->dropped = d->dropped;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < d->side[k].nlev; j++)
            info->states += d->side[k].lev[j].total;
    info->generated = sum_u64(d, d->generated);
    if (d->ls) { /* the processes' stores together */
        info->disk_peak = sum_u64(d, d->ls->peak);
        info->disk_used = sum_u64(d, d->ls->used);
        info->disk_levels = sum_u64(d, d->disk_written);
    }
    /* the figures */
    double c = d->stats.comm_secs, cmax;
    uint64_t peak = d->mem ? d->mem->peak : 0, pk[2] = {peak, peak}, all[2];
    SBMPI_WAIT(MPI_Iallreduce(&c, &cmax, 1, MPI_DOUBLE, MPI_MAX, d->comm, &q_), "MPI_Allreduce");
    SBMPI_WAIT(MPI_Iallreduce(&pk[0], &all[0], 1, MPI_UINT64_T, MPI_SUM, d->comm, &q_), "MPI_Allreduce");
    SBMPI_WAIT(MPI_Iallreduce(&pk[1], &all[1], 1, MPI_UINT64_T, MPI_MAX, d->comm, &q_), "MPI_Allreduce");
    d->stats.procs = d->size;
    d->stats.bytes_sent = sum_u64(d, d->sent);
    d->stats.comm_secs = cmax;
    d->stats.peak_sum = (size_t)all[0];
    d->stats.peak_max = (size_t)all[1];
    return rc;
}

static uint64_t d_level(const void *st, int side, int lv)
{
    const dsearch *d = st;
    return lv < d->side[side].nlev ? d->side[side].lev[lv].total : 0;
}

static const uint64_t *d_last(const void *st, uint64_t *n)
{
    const dsearch *d = st;
    *n = d->last ? d->nlast : 0;
    return d->last;
}

typedef struct parent_ctx {
    const dsearch *d;
    const dlevel *L;
    int64_t best;
} parent_ctx;

static void on_parent(void *ctx, const uint64_t *key)
{
    parent_ctx *c = ctx;
    int64_t i = sb_keys_find(c->L->keys, c->L->n, key, c->d->kw, c->d->idm);
    if (i >= 0 && (c->best < 0 || i < c->best))
        c->best = i;
}

/* out + D*kw holds a key at distance D of side S (S's numbering): fill in
 * distances D-1 down to the first S holds with, each time, the smallest
 * neighbour one level nearer.  A level dropped for the budget is made
 * again from the nearest checkpoint below it, in a side of its own seeded
 * with the checkpoint (`borrowed`, as in levels.c); the levels above D-1
 * are no longer needed and go first, to make room. */
static int trace(dsearch *d, dside *S, int borrowed, int D, uint64_t *out, sb_control *ctl, sb_error *err)
{
    int kw = d->kw;
    while (D > S->base) {
        int i = D - 1 - S->base; /* index of level D-1 in S */
        if (S->lev[i].keys || S->lev[i].file) {
            dlevel *L = &S->lev[i];
            int loaded = !L->keys, rc;
            if (loaded && (rc = load(d, L, err)))
                return rc;
            parent_ctx c = {d, L, -1};
            rc = d->model.expand(d->model.ud, out + (uint64_t)D * kw, on_parent, &c);
            if (rc)
                sb_error_set(err, rc, 0, 0, "the model failed to list moves");
            uint64_t key[MAXKW];
            if (!rc && c.best >= 0)
                memcpy(key, L->keys + (uint64_t)c.best * kw, kb(d, 1));
            if (loaded) { /* back to disk only */
                sb_mem_free(d->mem, L->keys, kb(d, L->n ? L->n : 1));
                L->keys = NULL;
            }
            if ((rc = agree(d, rc, err)))
                return rc;
            if (!smallest(d, c.best >= 0, key))
                return sb_error_set(err, SB_EINTERNAL, 0, 0, "no neighbour at distance %d", D - 1);
            memcpy(out + (uint64_t)(D - 1) * kw, key, kb(d, 1));
            D--;
            continue;
        }
        for (int j = D - S->base; j < S->nlev; j++)
            if (j >= borrowed)
                level_drop(d, &S->lev[j]);
        int c = i - 1;
        while (c >= 0 && !(S->lev[c].keys && ((c == 0 && S->base == 0) || (c >= 1 && S->lev[c - 1].keys))))
            c--;
        if (c < 0)
            return sb_error_set(err, SB_EINTERNAL, 0, 0, "no checkpoint below distance %d", D - 1);
        dside sub = {0};
        int lent = c == 0 && S->base == 0 ? 1 : 2, rc = 0;
        for (int j = c + 1 - lent; j <= c && !rc; j++) {
            rc = side_push(d, &sub, S->lev[j].keys, S->lev[j].n, err);
            if (!rc)
                sub.lev[sub.nlev - 1].total = S->lev[j].total;
        }
        rc = agree(d, rc, err);
        sub.base = S->base + c + 1 - lent;
        while (!rc && sub.base + sub.nlev - 1 < D - 1)
            rc = next_level(d, &sub, lent, NULL, 0, ctl, err);
        if (!rc)
            rc = trace(d, &sub, lent, D, out, ctl, err);
        side_free(d, &sub, sub.nlev < lent ? sub.nlev : lent);
        if (rc)
            return rc;
        D = S->base + c + 1 - lent;
    }
    return 0;
}

static int d_path(void *st, uint64_t *keys, sb_control *ctl, sb_error *err)
{
    dsearch *d = st;
    int kw = d->kw, f = d->meet_level[0], g = d->meet_level[1];
    memcpy(keys + (uint64_t)f * kw, d->meet, kb(d, 1));
    int rc = trace(d, &d->side[0], 0, f, keys, ctl, err);
    if (rc || g == 0)
        return rc;
    uint64_t *back = malloc(kb(d, (uint64_t)g + 1));
    if (!back)
        sbmpi_fatal("out of memory");
    memcpy(back + (uint64_t)g * kw, d->meet, kb(d, 1));
    rc = trace(d, &d->side[1], 0, g, back, ctl, err);
    for (int j = 0; j < g && !rc; j++)
        memcpy(keys + (uint64_t)(f + g - j) * kw, back + (uint64_t)j * kw, kb(d, 1));
    free(back);
    return rc;
}

static void d_free(void *st)
{
    dsearch *d = st;
    if (!d)
        return;
    clear_result(d);
    free_out(d);
    free(d->out);
    free(d->outn);
    free(d->outcap);
    if (d->keytype != MPI_DATATYPE_NULL)
        MPI_Type_free(&d->keytype);
    if (d->ls) {
        sb_lstore_close(d->ls);
        free(d->ls);
    }
    if (d->made_rankdir)
        rmdir(d->rankdir);
    free(d);
}

static const sb_search_backend backend = {d_run, d_level, d_last, d_path, d_free};

/* This process's store: a fresh directory in <dir>/rank-<rank>, made if
 * need be.  A local failure, not agreed. */
static int open_store(dsearch *d, const char *dir, uint64_t limit, sb_error *err)
{
    int n = snprintf(d->rankdir, sizeof d->rankdir, "%s/rank-%d", dir, d->rank);
    if (n < 0 || (size_t)n >= sizeof d->rankdir - 32)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "--disk: the directory's name is too long");
    if (mkdir(d->rankdir, 0777) == 0)
        d->made_rankdir = 1;
    else if (errno != EEXIST)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: cannot make the directory: %s", d->rankdir, strerror(errno));
    if (!(d->ls = calloc(1, sizeof *d->ls)))
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    /* a file buffer: 1/64 of the budget, 4 KB to 1 MB, as in one process */
    size_t iob = sb_mem_left(d->mem) / 64;
    iob = iob < 4096 ? 4096 : iob > ((size_t)1 << 20) ? (size_t)1 << 20 : iob;
    int rc = sb_lstore_open(d->ls, d->rankdir, 1, limit, d->kw, d->mem, iob, err);
    if (rc) {
        free(d->ls);
        d->ls = NULL;
    }
    return rc;
}

int sbmpi_search_new(sb_search **s, const sb_keymodel *m, sb_mem *mem, const char *disk, uint64_t disk_limit,
                     const sbmpi_stats **stats, sb_error *err)
{
    if (!s || !m)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sbmpi_search_new: NULL argument");
    *s = NULL;
    if (m->key_words < 1 || m->key_words > MAXKW || m->hint_bits < 0 || m->hint_bits > 63 ||
        (m->hint_bits && m->key_words != 1))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_search: keys of %d words with %d hint bits are not supported",
                            m->key_words, m->hint_bits);
    dsearch *d = calloc(1, sizeof *d);
    if (!d)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    d->model = *m;
    d->kw = m->key_words;
    d->idm = ~(uint64_t)0 >> m->hint_bits;
    d->comm = MPI_COMM_WORLD;
    d->rank = sbmpi_rank();
    d->size = sbmpi_size();
    d->mem = mem;
    d->length = -1;
    d->keytype = MPI_DATATYPE_NULL;
    d->out = calloc((size_t)d->size, sizeof *d->out);
    d->outn = calloc((size_t)d->size, sizeof *d->outn);
    d->outcap = calloc((size_t)d->size, sizeof *d->outcap);
    if (!d->out || !d->outn || !d->outcap) {
        d_free(d);
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    SBMPI_CHECK(MPI_Type_contiguous(d->kw, MPI_UINT64_T, &d->keytype));
    SBMPI_CHECK(MPI_Type_commit(&d->keytype));
    if (disk) {
        int rc = agree(d, open_store(d, disk, disk_limit, err), err);
        if (rc) {
            d_free(d);
            return rc;
        }
    }
    if (stats)
        *stats = &d->stats;
    return sb_search_new_backend(s, m, &backend, d, err);
}
