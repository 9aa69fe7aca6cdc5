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
 * With --disk or --checkpoint, levels are files and the runs are merged
 * on disk (see "levels on disk" and "checkpoints" below).
 *
 * Both ways, census, budget.  The side to grow is chosen on the summed
 * level sizes; a census keeps only the two newest levels.  Every array
 * that grows with the levels, a batch or a trade (levels, buffers per
 * owner, send, receive and merge buffers, runs, the batch on disk and the
 * file buffers) is charged to the process's own sb_mem.  From malloc,
 * outside it, are only arrays that do not: counts, displacements and
 * cursors of a few words per process or per file merged (trades,
 * sbmpi_files_merge), the list of run files, the neighbours of one
 * configuration while a path is traced on disk, the path's half from the
 * goal's side, the checkpoint's records (a few words a level); and two
 * that can be large: the stand-in receive buffer of a process already
 * out of room, which must still take part in the trade it then fails
 * (what it receives, freed at once), and, once the search is over,
 * process 0's copy of the newest level for sb_search_last (LAST_KEYS keys
 * a process on disk; in memory a level of at most 2^26 keys).  When a
 * process runs out while a level is made, all processes drop the same
 * older levels and make it again, and a path through dropped levels is
 * rebuilt from checkpoints, as one process does (see "the budget"
 * below); the run stops with SB_ENOMEM on all only when the two newest
 * levels do not fit.
 *
 * Failures.  MPI calls return their errors (MPI_ERRORS_RETURN); one that
 * fails (a process died, the network went) is reported with the rank and
 * the job aborted, so that no process waits for ever. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/core/hash.h"
#include "../src/core/internal.h"
#include "../src/core/le.h"
#include "../src/search/backend.h"
#include "../src/search/keysort.h"
#include "../src/search/levelstore.h"
#include "keyfiles.h"
#include "sbmpi.h"
#include "sbmpi_priv.h"

#define MAXKW SB_SEARCH_MAXKW
#define BATCH_WORDS ((uint64_t)1 << 20) /* words listed by a process before a trade */
#define MIN_BATCH ((uint64_t)1 << 5)    /* keys: the smallest batch under a short budget */
#define MAX_SHARE 512                   /* the least share of the room a batch is cut to */
#define MAX_FANIN 256                   /* files merged at once, at most (levels on disk) */

typedef struct dlevel {
    uint64_t *keys; /* this process's part, sorted; NULL once dropped (on all processes) */
    uint64_t n;     /* keys in the part */
    uint64_t total; /* keys in the level, all processes */
    int checkpoint; /* kept with the level before it when others are dropped */
    uint64_t file;  /* with levels on disk (keys NULL): level_id of the part's file, 0 for none */
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
    uint64_t nfiles;                /* run files written, for their names */
    const char *ckpt;               /* --checkpoint DIR (NULL: none): levels kept in DIR/rank-N */
    int resuming;                   /* take up the run kept there */
    uint64_t ident;                 /* the caller's fingerprint of the search */
    uint64_t disk_written;          /* bytes of level files written */
    uint64_t *buf, batch, bufn;     /* a batch of neighbours (room for 2 batches), keys in it */
    uint64_t *over, nover, overcap; /* neighbours past the batch's room */
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

/* The configurations in the levels of both sides, all processes. */
static uint64_t states(const dsearch *d)
{
    uint64_t n = 0;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < d->side[k].nlev; j++)
            n += d->side[k].lev[j].total;
    return n;
}

/* The name of file id: a level's ('l', id from level_id) or a run's ('r'). */
static void file_name(char kind, uint64_t id, char *name, size_t size)
{
    if (kind == 'l')
        snprintf(name, size, "level-%c-%05u", (id - 1) >> 32 ? 'g' : 's', (unsigned)((id - 1) & 0xffffffffu));
    else
        snprintf(name, size, "run-%llu", (unsigned long long)id);
}

/* The file of distance dist of side S: named by side and distance, so
 * that a checkpoint's files say what they hold. */
static uint64_t level_id(const dsearch *d, const dside *S, int dist)
{
    return ((uint64_t)(S != &d->side[0]) << 32 | (uint64_t)dist) + 1;
}

static void level_drop(dsearch *d, dlevel *L)
{
    if (L->keys)
        sb_mem_free(d->mem, L->keys, kb(d, L->n ? L->n : 1));
    L->keys = NULL;
    if (L->file) {
        char name[32];
        file_name('l', L->file, name, sizeof name);
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

/* The trade itself, once each process has put sc[r] keys for process r at
 * send + sd[r] (send NULL: it sends nothing, after a failure of its own
 * in *rc): the counts, then the keys.  Returns the keys received, rcnt[r]
 * from process r at rd[r], in a block of *got keys from the budget; NULL
 * when *rc was set, or is set now because they do not fit (the process
 * takes part all the same, keeping nothing).  Collective. */
static uint64_t *exchange(dsearch *d, const uint64_t *send, int *sc, int *sd, int *rcnt, int *rd, uint64_t *got,
                          int *rc, sb_error *err)
{
    int P = d->size;
    if (!send)
        memset(sc, 0, sizeof *sc * P);
    double t = MPI_Wtime();
    SBMPI_WAIT(MPI_Ialltoall(sc, 1, MPI_INT, rcnt, 1, MPI_INT, d->comm, &q_), "MPI_Alltoall");
    *got = 0;
    for (int r = 0; r < P; r++) {
        rd[r] = (int)*got;
        *got += (uint64_t)rcnt[r];
        if (r != d->rank)
            d->sent += kb(d, (uint64_t)sc[r]);
    }
    uint64_t n = *got ? *got : 1, *recv = *rc ? NULL : sb_mem_alloc(d->mem, kb(d, n), err);
    if (!*rc && !recv)
        *rc = SB_ENOMEM;
    uint64_t *sink = recv;
    if (!sink && !(sink = malloc(kb(d, n))))
        sbmpi_fatal("out of memory receiving %llu keys", (unsigned long long)*got);
    /* a process that sends nothing still passes a send buffer of its own:
     * Open MPI takes a send buffer equal to the receive buffer for
     * MPI_IN_PLACE, and would then send what the others send it */
    uint64_t none[MAXKW];
    SBMPI_WAIT(MPI_Ialltoallv(send ? send : none, sc, sd, d->keytype, sink, rcnt, rd, d->keytype, d->comm, &q_),
               "MPI_Alltoallv");
    d->stats.comm_secs += MPI_Wtime() - t;
    if (!recv)
        free(sink);
    return recv;
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
    for (int r = 0; r < P; r++)
        d->outn[r] = 0;
    d->pending = 0;
    if (tmp)
        sb_mem_free(d->mem, tmp, kb(d, big ? big : 1));
    if (d->pressed)
        free_out(d); /* their room goes to the receiving and the merge */
    uint64_t got;
    uint64_t *recv = exchange(d, rc ? NULL : sendbuf, sc, sd, rcnt, rd, &got, &rc, err);
    if (sendbuf)
        sb_mem_free(d->mem, sendbuf, kb(d, room)); /* the size it was given, not the keys sent */
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
            sb_progress_info in = {"search", level, states(d), 0, d->mem ? d->mem->used : 0, 0, 0};
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
    const dlevel *L = &((drop_ctx *)ctx)->S->lev[i];
    return L->keys || L->file;
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
 * With a store (--disk), every level is a file of each process's part of
 * it, in DIR/rank-N, and no level is held in memory: the process's memory
 * holds a batch and the buffers of the files it reads and writes, however
 * large the levels grow.  Making level d+1 is the one-process disk
 * engine's delayed duplicate detection (src/search/diskbfs.c), cut by
 * owner:
 *   1. each process reads its part of level d key by key and lists the
 *      neighbours into one buffer, a batch as large as its budget allows;
 *   2. a full batch is grouped by owner, each group sorted and rid of
 *      repeats, and all processes trade them (MPI_Alltoallv); what a
 *      process receives (one sorted group from each process) it merges
 *      into one run and writes to a run file.  Nothing is looked up yet;
 *   3. after the last trade, each process merges its runs with its parts
 *      of levels d and d-1 in one streaming pass, keeping a key once and
 *      only if neither level holds it: level d+1.  A key's copies in
 *      levels d-1..d+1 are all at its owner, so the test is whole.
 * Example, the path graph 0-1-2-3-4-5-6 from 3, on two processes, process
 * 0 owning the even numbers.  Level 0 is {3} at process 1; level 1 is
 * {2, 4} at process 0 and {} at 1.  Process 0 lists 1 3 3 5, all odd: they
 * go to process 1 as the group {1, 3, 5} (the repeat of 3 made one).
 * Process 1 writes the run {1, 3, 5} and merges it with its parts of
 * level 1 ({}) and level 0 ({3}): level 2 is {1, 5} at process 1 and {}
 * at process 0.
 * The last merge also finds this process's smallest goal (one way) or
 * smallest key shared with the other side's newest level (both ways, its
 * file read alongside), and the processes take the smallest of those, as
 * in memory.  Keys go to files without hints (the store wants states),
 * so every move of a state is listed: more neighbours, the same levels.
 * The path is rebuilt one level at a time, each process reading its part
 * of the level once to find the neighbours it holds.  A census removes
 * all but the two newest levels; every process removes the same files,
 * and the processes agree on every failure (the disk limit, a bad file),
 * so that all stop together. */

#define LAST_KEYS 16 /* keys of the newest level each process gives for sb_search_last */

/* Level 0 of a side on disk: the key in its owner's file, the others'
 * files empty.  A local failure, not agreed. */
static int disk_start(dsearch *d, dside *S, const uint64_t *key, sb_error *err)
{
    uint64_t k[MAXKW], id = level_id(d, S, 0);
    char name[32];
    int mine = owner(d, key) == d->rank;
    memcpy(k, key, kb(d, 1));
    k[0] &= d->idm;
    file_name('l', id, name, sizeof name);
    sb_lwriter w;
    int rc = sb_lwriter_open(&w, d->ls, name, err);
    if (rc)
        return rc;
    if (mine && (rc = sb_lwriter_put(&w, k, err)))
        sb_lwriter_abort(&w);
    else if (!(rc = sb_lwriter_close(&w, err)) && (rc = side_push(d, S, NULL, (uint64_t)mine, err)))
        sb_lstore_remove(d->ls, name);
    if (rc)
        return rc;
    S->lev[S->nlev - 1].file = id;
    S->lev[S->nlev - 1].total = 1;
    d->disk_written += SB_LS_HEADER + w.bytes;
    return 0;
}

/* A neighbour into the batch, without its hints; past the batch's room
 * (the last key read may list more than is left) into the overflow, which
 * opens the next batch. */
static void emit_disk(void *ctx, const uint64_t *key)
{
    dsearch *d = ctx;
    if (d->rc)
        return;
    uint64_t *o;
    if (d->bufn < d->batch) {
        o = d->buf + d->bufn++ * d->kw;
    } else {
        if (d->nover == d->overcap) {
            uint64_t nc = d->overcap ? 2 * d->overcap : 64;
            uint64_t *b = sb_mem_realloc(d->mem, d->over, kb(d, d->overcap), kb(d, nc), &d->err);
            if (!b) {
                d->rc = SB_ENOMEM;
                return;
            }
            d->over = b;
            d->overcap = nc;
        }
        o = d->over + d->nover++ * d->kw;
    }
    memcpy(o, key, kb(d, 1));
    o[0] &= d->idm;
    d->generated++;
}

/* The batch (buf[0..bufn), room for 2 batches) grouped by owner into its
 * second half, each group sorted (the first half as scratch) and rid of
 * repeats, the groups then side by side from buf + batch: sc[r] keys for
 * owner r at sd[r].  Returns 0 or SB_ENOMEM. */
static int group(dsearch *d, int *sc, int *sd, sb_error *err)
{
    int P = d->size, kw = d->kw;
    uint64_t *a = d->buf, *g = d->buf + d->batch * kw;
    uint64_t *pos = calloc((size_t)P, sizeof *pos);
    if (!pos)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    for (uint64_t i = 0; i < d->bufn; i++)
        pos[owner(d, a + i * kw)]++;
    for (uint64_t r = 0, off = 0; r < (uint64_t)P; r++) {
        uint64_t c = pos[r];
        sd[r] = (int)off;
        sc[r] = (int)c;
        pos[r] = off;
        off += c;
    }
    for (uint64_t i = 0; i < d->bufn; i++) {
        int o = owner(d, a + i * kw);
        memcpy(g + pos[o]++ * kw, a + i * kw, kb(d, 1));
    }
    free(pos);
    uint64_t total = 0;
    for (int r = 0; r < P; r++) {
        uint64_t n = (uint64_t)sc[r], off = (uint64_t)sd[r];
        if (n) {
            uint64_t *s = sb_keys_sort(g + off * kw, a + off * kw, n, kw, d->idm);
            if (!s)
                return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory sorting");
            n = sb_keys_unique_minus(s, n, NULL, 0, NULL, 0, kw, d->idm);
            /* to the end of the groups before it: never past its own place */
            memmove(g + total * kw, s, kb(d, n));
        }
        sc[r] = (int)n;
        sd[r] = (int)total;
        total += n;
    }
    return 0;
}

/* One trade of the batch: grouped, traded, what came merged and written
 * to a new run file (its id appended to runs).  Collective; a local
 * failure is returned after the trade (the process then sends nothing). */
static int disk_trade(dsearch *d, uint64_t **runs, int *nruns, int *runcap, sb_error *err)
{
    int P = d->size, kw = d->kw, rc = d->rc;
    int *sc = calloc((size_t)P * 4, sizeof *sc), *rcnt = sc + P, *sd = sc + 2 * P, *rd = sc + 3 * P;
    if (!sc)
        sbmpi_fatal("out of memory for %d counts", P);
    if (!rc)
        rc = group(d, sc, sd, err);
    uint64_t got;
    uint64_t *recv = exchange(d, rc ? NULL : d->buf + d->batch * kw, sc, sd, rcnt, rd, &got, &rc, err);
    d->bufn = 0;
    if (!rc && got) {
        /* merged into the batch's room, free now, when it is large enough */
        uint64_t **in = malloc((size_t)P * sizeof *in), *cnt = malloc((size_t)P * sizeof *cnt);
        uint64_t *out = got <= 2 * d->batch ? d->buf : sb_mem_alloc(d->mem, kb(d, got), err);
        if (!in || !cnt)
            sbmpi_fatal("out of memory merging");
        for (int r = 0; r < P; r++)
            in[r] = recv + (uint64_t)rd[r] * kw, cnt[r] = (uint64_t)rcnt[r];
        uint64_t n = out ? sb_keys_merge(in, cnt, P, NULL, 0, NULL, 0, out, kw, d->idm) : 0;
        free(in);
        free(cnt);
        if (!out || n == UINT64_MAX)
            rc = sb_error_set(err, SB_ENOMEM, 0, 0, "memory budget exhausted: merging %llu keys",
                              (unsigned long long)got);
        if (!rc && *nruns == *runcap) {
            int nc = *runcap ? 2 * *runcap : 16;
            uint64_t *r = realloc(*runs, (size_t)nc * sizeof *r);
            if (!r)
                rc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
            else
                *runs = r, *runcap = nc;
        }
        uint64_t id = ++d->nfiles;
        char name[32];
        file_name('r', id, name, sizeof name);
        sb_lwriter w;
        if (!rc && !(rc = sb_lwriter_open(&w, d->ls, name, err))) {
            for (uint64_t i = 0; i < n && !rc; i++)
                rc = sb_lwriter_put(&w, out + i * kw, err);
            if (rc)
                sb_lwriter_abort(&w);
            else if (!(rc = sb_lwriter_close(&w, err)))
                (*runs)[(*nruns)++] = id;
        }
        if (out && out != d->buf)
            sb_mem_free(d->mem, out, kb(d, got));
    }
    if (recv)
        sb_mem_free(d->mem, recv, kb(d, got ? got : 1));
    /* The overflow opens the next batch, a batch of it at most: one state
     * may list more neighbours than a batch under a short budget, and
     * group() needs the batch within buf[0..batch).  What is left stays
     * in the overflow for the trade after (nothing more is read while the
     * batch is full). */
    uint64_t carry = rc ? 0 : d->nover < d->batch ? d->nover : d->batch;
    if (carry) {
        memcpy(d->buf, d->over, kb(d, carry));
        memmove(d->over, d->over + carry * kw, kb(d, d->nover - carry));
    }
    d->bufn = carry;
    d->nover = rc ? 0 : d->nover - carry;
    free(sc);
    return rc;
}

static void remove_runs(dsearch *d, const uint64_t *runs, int n)
{
    char name[32];
    for (int i = 0; i < n; i++) {
        file_name('r', runs[i], name, sizeof name);
        sb_lstore_remove(d->ls, name);
    }
}

/* What the last merge of a level looks for. */
typedef struct found_ctx {
    dsearch *d;
    sb_control *ctl;
    sb_error *err;
    int level;
    const uint64_t *goal; /* one way: the goal key, without hints (NULL: is_goal, or nothing) */
    int want;             /* one way, looking for a goal */
    sbmpi_probe other;    /* both ways: the other side's newest level */
    int both;
    int hit;
    uint64_t key[MAXKW];
    uint64_t steps;
} found_ctx;

static int on_key(void *ctx, const uint64_t *key)
{
    found_ctx *c = ctx;
    if ((++c->steps & 0xffff) == 0 && sb_control_stopped(c->ctl))
        return sb_error_set(c->err, SB_EINTR, 0, 0, "stopped at distance %d", c->level);
    if (c->hit)
        return 0;
    if (c->both) {
        int h = sbmpi_probe_has(&c->other, key, c->err);
        if (h < 0)
            return h;
        c->hit = h;
    } else if (c->want) {
        c->hit = c->d->model.is_goal ? c->d->model.is_goal(c->d->model.ud, key) != 0
                                     : !sb_key_cmp(key, c->goal, c->d->kw);
    }
    if (c->hit)
        memcpy(c->key, key, kb(c->d, 1));
    return 0;
}

/* Merge the runs, fan at a time, until they are few enough for the last
 * merge.  Local. */
static int merge_runs(dsearch *d, uint64_t *runs, int *nruns, int fan, sb_error *err)
{
    char names[MAX_FANIN][32], out[32];
    const char *in[MAX_FANIN];
    int rc = 0;
    while (*nruns > fan && !rc) {
        for (int i = 0; i < fan; i++) {
            file_name('r', runs[i], names[i], sizeof names[i]);
            in[i] = names[i];
        }
        uint64_t id = ++d->nfiles, n, bytes;
        file_name('r', id, out, sizeof out);
        if ((rc = sbmpi_files_merge(d->ls, in, fan, NULL, 0, out, NULL, NULL, &n, &bytes, err)))
            break;
        remove_runs(d, runs, fan);
        memmove(runs, runs + fan, (size_t)(*nruns - fan) * sizeof *runs);
        *nruns -= fan;
        runs[(*nruns)++] = id;
    }
    return rc;
}

/* Make the next level of X on disk (Y: the other side, both ways), and
 * find in it this process's candidate: its smallest goal (one way, goal
 * or is_goal) or smallest key shared with Y's newest level, into key
 * (*have).  Collective; returns the agreed code. */
static int disk_level(dsearch *d, dside *X, dside *Y, const uint64_t *goal, sb_control *ctl, sb_error *err,
                      int *have, uint64_t *key)
{
    int kw = d->kw, level = X->base + X->nlev, nruns = 0, runcap = 0, lrc = 0, rc;
    if (d->census)
        drop_levels(d, X, 0, 1);
    const dlevel *cur = &X->lev[X->nlev - 1], *prev = X->nlev >= 2 ? &X->lev[X->nlev - 2] : NULL;
    uint64_t *runs = NULL;
    size_t iob = d->ls->iob, left = sb_mem_left(d->mem);
    /* the room of two batches, then what one trade receives (about a
     * batch, room for two) beside the level's reader and a run's writer */
    uint64_t b = left > 4 * iob ? (uint64_t)(left - 4 * iob) / (4 * kb(d, 1)) : 0;
    d->batch = b < BATCH_WORDS / (uint64_t)kw ? b : BATCH_WORDS / (uint64_t)kw;
    d->bufn = d->nover = 0;
    d->rc = 0;
    if (d->batch < MIN_BATCH)
        lrc = sb_error_set(err, SB_ENOMEM, 0, 0,
                           "memory budget exhausted: levels on disk need at least %zu bytes, %zu are left",
                           4 * iob + 4 * (size_t)MIN_BATCH * kb(d, 1), left);
    else if (!(d->buf = sb_mem_alloc(d->mem, kb(d, 2 * d->batch), err)))
        lrc = SB_ENOMEM;
    char name[32];
    sb_lreader r;
    int eof = 1;
    file_name('l', cur->file, name, sizeof name);
    if (!lrc && !(lrc = sb_lreader_open(&r, d->ls, name, NULL, err)))
        eof = 0;
    d->rc = lrc;
    if (lrc)
        d->err = *err;
    double last = sb_now();
    rc = 0;
    for (;;) {
        while (!d->rc && !eof && d->bufn < d->batch) {
            int g = sb_lreader_next(&r, &d->err);
            if (g <= 0) {
                eof = 1;
                d->rc = g;
            } else if ((g = d->model.expand(d->model.ud, r.key, emit_disk, d)) && !d->rc) {
                d->rc = sb_error_set(&d->err, g, 0, 0, "the model failed to list moves");
            }
        }
        if (d->rc) /* the reader's, the model's or the batch's failure */
            *err = d->err;
        int trc = disk_trade(d, &runs, &nruns, &runcap, err);
        if (!trc && sb_control_stopped(ctl))
            trc = sb_error_set(err, SB_EINTR, 0, 0, "stopped at distance %d", level);
        int flags[2] = {trc ? 1 : 0, !eof || d->bufn}, all[2];
        double t = MPI_Wtime();
        SBMPI_WAIT(MPI_Iallreduce(flags, all, 2, MPI_INT, MPI_MAX, d->comm, &q_), "MPI_Allreduce");
        d->stats.comm_secs += MPI_Wtime() - t;
        if (all[0]) {
            rc = agree(d, trc, err);
            break;
        }
        if (!all[1])
            break;
        if (ctl && ctl->progress && d->rank == 0 && sb_now() - last > 0.2) {
            sb_progress_info in = {"search on disk", level, states(d), 0, d->mem ? d->mem->used : 0, 0,
                                   d->ls->used};
            ctl->progress(ctl->ud, &in);
            last = sb_now();
        }
    }
    if (!lrc)
        sb_lreader_close(&r);
    if (d->buf)
        sb_mem_free(d->mem, d->buf, kb(d, 2 * d->batch));
    sb_mem_free(d->mem, d->over, kb(d, d->overcap));
    d->buf = d->over = NULL;
    d->overcap = d->nover = d->bufn = 0;
    if (rc) {
        remove_runs(d, runs, nruns);
        free(runs);
        return rc;
    }
    /* the last merge: the runs (merged among themselves first when more
     * than the buffers the budget leaves), levels d and d-1, and the other
     * side's newest level */
    left = sb_mem_left(d->mem);
    size_t others = 2 + (prev != NULL) + (Y != NULL); /* the writer, levels d, d-1, the other side's */
    int fan = left / iob > others ? (int)(left / iob - others) : 0;
    fan = fan > MAX_FANIN ? MAX_FANIN : fan;
    if (nruns > fan && fan < 2)
        lrc = sb_error_set(err, SB_ENOMEM, 0, 0,
                           "memory budget exhausted: merging levels on disk needs %zu bytes, %zu are left",
                           (others + 2) * iob, left);
    else
        lrc = merge_runs(d, runs, &nruns, fan, err);
    found_ctx c;
    memset(&c, 0, sizeof c);
    c.d = d, c.ctl = ctl, c.err = err, c.level = level;
    uint64_t g[MAXKW];
    if (!Y && !d->census && (goal || d->model.is_goal)) {
        c.want = 1;
        if (goal && !d->model.is_goal) {
            memcpy(g, goal, kb(d, 1));
            g[0] &= d->idm;
            c.goal = g;
        }
    }
    char other[32], x[32], y[32], out[32], names[MAX_FANIN][32];
    const char *in[MAX_FANIN], *ex[2] = {x, prev ? y : NULL};
    if (!lrc && Y) {
        file_name('l', Y->lev[Y->nlev - 1].file, other, sizeof other);
        if (!(lrc = sbmpi_probe_open(&c.other, d->ls, other, err)))
            c.both = 1;
    }
    file_name('l', cur->file, x, sizeof x);
    if (prev)
        file_name('l', prev->file, y, sizeof y);
    for (int i = 0; i < nruns && !lrc; i++) {
        file_name('r', runs[i], names[i], sizeof names[i]);
        in[i] = names[i];
    }
    uint64_t id = level_id(d, X, level), n = 0, bytes = 0;
    file_name('l', id, out, sizeof out);
    if (!lrc)
        lrc = sbmpi_files_merge(d->ls, in, nruns, ex, 2, out, on_key, &c, &n, &bytes, err);
    if (c.both)
        sbmpi_probe_close(&c.other);
    remove_runs(d, runs, nruns);
    free(runs);
    if (!lrc && (lrc = side_push(d, X, NULL, n, err)))
        sb_lstore_remove(d->ls, out);
    rc = agree(d, lrc, err);
    if (rc) {
        if (!lrc) { /* another process failed: take the level back */
            X->nlev--;
            sb_lstore_remove(d->ls, out);
        }
        return rc;
    }
    X->lev[X->nlev - 1].file = id;
    X->lev[X->nlev - 1].total = sum_u64(d, n);
    d->disk_written += bytes;
    *have = c.hit;
    if (c.hit)
        memcpy(key, c.key, kb(d, 1));
    return 0;
}

/* neighbours of a state, without hints */
typedef struct nbrs {
    uint64_t *k;
    uint64_t n, cap;
    int kw;
    uint64_t idm;
    int bad;
} nbrs;

static void on_nbr(void *ctx, const uint64_t *key)
{
    nbrs *b = ctx;
    if (b->n == b->cap) {
        uint64_t nc = b->cap ? 2 * b->cap : 64;
        uint64_t *k = realloc(b->k, (size_t)nc * b->kw * sizeof *k);
        if (!k) {
            b->bad = 1;
            return;
        }
        b->k = k;
        b->cap = nc;
    }
    memcpy(b->k + b->n * b->kw, key, (size_t)b->kw * sizeof *key);
    b->k[b->n * b->kw] &= b->idm;
    b->n++;
}

/* out + D*kw holds a key at distance D of side S (all its levels on
 * disk): fill in distances D-1 down to 0 with, each time, the smallest
 * neighbour the level one nearer holds.  Each process reads its part of
 * each level once. */
static int disk_trace(dsearch *d, dside *S, int D, uint64_t *out, sb_error *err)
{
    int kw = d->kw, rc = 0;
    nbrs b = {NULL, 0, 0, kw, d->idm, 0};
    uint64_t *tmp = NULL;
    for (; D > 0 && !rc; D--) {
        b.n = 0;
        int lrc = d->model.expand(d->model.ud, out + (uint64_t)D * kw, on_nbr, &b), has = 0;
        if (lrc)
            sb_error_set(err, lrc, 0, 0, "the model failed to list moves");
        free(tmp);
        tmp = lrc ? NULL : malloc(kb(d, b.n ? b.n : 1));
        if (!lrc && (b.bad || !tmp))
            lrc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        uint64_t *s = lrc || !b.n ? b.k : sb_keys_sort(b.k, tmp, b.n, kw, d->idm), key[MAXKW];
        if (!lrc && !s)
            lrc = sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory sorting");
        char name[32];
        sbmpi_probe p;
        file_name('l', S->lev[D - 1].file, name, sizeof name);
        if (!lrc && !(lrc = sbmpi_probe_open(&p, d->ls, name, err))) {
            for (uint64_t i = 0; i < b.n && !has && !lrc; i++) {
                int h = sbmpi_probe_has(&p, s + i * kw, err);
                if (h < 0)
                    lrc = h;
                else if ((has = h))
                    memcpy(key, s + i * kw, kb(d, 1));
            }
            sbmpi_probe_close(&p);
        }
        if ((rc = agree(d, lrc, err)))
            break;
        if (!smallest(d, has, key))
            rc = sb_error_set(err, SB_EINTERNAL, 0, 0, "no neighbour at distance %d", D - 1);
        else
            memcpy(out + (uint64_t)(D - 1) * kw, key, kb(d, 1));
    }
    free(b.k);
    free(tmp);
    return rc;
}

/* The first keys of the newest level of side 0 on disk: each process's
 * first LAST_KEYS, gathered by rank 0, which keeps the first LAST_KEYS of
 * all.  Collective. */
static int disk_last(dsearch *d, sb_error *err)
{
    dside *F = &d->side[0];
    int kw = d->kw, P = d->size, lrc = 0;
    uint64_t mine[(LAST_KEYS * MAXKW) + 1] = {0};
    char name[32];
    sb_lreader r;
    file_name('l', F->lev[F->nlev - 1].file, name, sizeof name);
    if (!(lrc = sb_lreader_open(&r, d->ls, name, NULL, err))) {
        int g = 1;
        while (mine[0] < LAST_KEYS && (g = sb_lreader_next(&r, err)) == 1)
            memcpy(mine + 1 + mine[0]++ * kw, r.key, kb(d, 1));
        lrc = g < 0 ? g : 0;
        sb_lreader_close(&r);
    }
    int rc = agree(d, lrc, err);
    if (rc)
        return rc;
    int each = LAST_KEYS * kw + 1;
    uint64_t *all = d->rank == 0 ? malloc((size_t)P * each * sizeof *all) : NULL;
    if (d->rank == 0 && !all)
        sbmpi_fatal("out of memory gathering");
    double t = MPI_Wtime();
    SBMPI_WAIT(MPI_Igather(mine, each, MPI_UINT64_T, all, each, MPI_UINT64_T, 0, d->comm, &q_), "MPI_Gather");
    d->stats.comm_secs += MPI_Wtime() - t;
    if (d->rank == 0) {
        uint64_t **in = malloc((size_t)P * sizeof *in), *n = malloc((size_t)P * sizeof *n), total = 0;
        if (!in || !n)
            sbmpi_fatal("out of memory gathering");
        for (int p = 0; p < P; p++) {
            in[p] = all + (size_t)p * each + 1;
            n[p] = all[(size_t)p * each];
            total += n[p];
        }
        d->last = malloc(kb(d, total ? total : 1));
        if (!d->last)
            sbmpi_fatal("out of memory gathering");
        d->nlast = sb_keys_merge(in, n, P, NULL, 0, NULL, 0, d->last, kw, d->idm);
        if (d->nlast == UINT64_MAX)
            sbmpi_fatal("out of memory gathering");
        d->nlast = d->nlast < LAST_KEYS ? d->nlast : LAST_KEYS;
        free(in);
        free(n);
        free(all);
    }
    return 0;
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
        if (!rc)
            return 0;
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

/* ---- checkpoints ----
 *
 * With --checkpoint DIR each process keeps its levels in DIR/rank-N
 * itself (not a fresh folder), every file flushed to the disk before it
 * counts, and the files stay after the run.  After each level two
 * records are written, each to a new file renamed over the old, so that
 * at any moment, a kill included, they describe complete levels:
 *   1. each process writes DIR/rank-N/part: its part of every level of
 *      both sides (keys in its file, keys in the whole level, the file's
 *      checksum) and its own counts;
 *   2. once all have (an agreement), process 0 writes DIR/run: the
 *      search (fingerprint, processes, key width, flags, start and goal),
 *      the levels of each side, the state (running, found, a component
 *      walked) and the meeting point.
 * DIR/run is the word: a part may hold a level more (its process wrote it
 * before a kill that came ahead of DIR/run), and that level is made again.
 * A resumed run needs as many processes as the checkpoint's, since a key's
 * owner depends on their number; each process checks the files of the
 * levels it still needs (all, or a census's two newest) against its part
 * and removes what a stopped level left half made (runs, the next level).
 * Both records are little-endian 64-bit words after 8 bytes of name, and
 * end with the checksum (sb_checksum) of everything before it. */

/* w, its name and checksum added, into dir/name by way of dir/name.new:
 * 0 or SB_EIO (SB_ENOMEM when w could not be made).  Frees w. */
static int write_record(sb_lewords *w, const char *magic, const char *dir, const char *name, sb_error *err)
{
    sb_lewords_put(w, 0);
    if (!w->bad) {
        memmove(w->b + 8, w->b, w->n - 8);
        memcpy(w->b, magic, 8);
        sb_lewords_put(w, sb_checksum(w->b, w->n));
    }
    if (w->bad) {
        free(w->b);
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    char tmp[SB_LS_NAME + 64], fin[SB_LS_NAME + 64];
    snprintf(tmp, sizeof tmp, "%s/%s.new", dir, name);
    snprintf(fin, sizeof fin, "%s/%s", dir, name);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644), rc = 0;
    int e = fd < 0 ? errno : 0; /* the first failure's errno */
    size_t off = 0;
    while (fd >= 0 && off < w->n) {
        ssize_t k = write(fd, w->b + off, w->n - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            e = k < 0 ? errno : ENOSPC; /* nothing written and no error: a full disk */
            break;
        }
        off += (size_t)k;
    }
    /* the descriptor is closed and the temporary removed whatever failed,
     * so that a full disk neither leaks descriptors run after run nor
     * leaves a half record beside the good one */
    if (!e && fd >= 0 && fdatasync(fd))
        e = errno;
    if (fd >= 0 && close(fd) && !e)
        e = errno;
    if (!e && rename(tmp, fin))
        e = errno;
    if (e) {
        if (fd >= 0)
            unlink(tmp);
        rc = sb_error_set(err, SB_EIO, 0, 0, "cannot write %s: %s", fin, strerror(e));
    }
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(w->b);
    return rc;
}

typedef struct reader {
    unsigned char *b;
    size_t n, at;
    int bad;
} reader;

static uint64_t get_word(reader *r)
{
    if (r->at + 8 > r->n) {
        r->bad = 1;
        return 0;
    }
    uint64_t v = sb_le_get64(r->b + r->at);
    r->at += 8;
    return v;
}

static void get_key(reader *r, uint64_t *k, int kw)
{
    for (int i = 0; i < kw; i++)
        k[i] = get_word(r);
}

/* dir/name whole into r, its name and checksum checked: 0, or SB_EBADFILE
 * with why in err and r empty (nothing for the caller to free). */
static int read_record(reader *r, const char *magic, const char *dir, const char *name, sb_error *err)
{
    char p[SB_LS_NAME + 64];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    memset(r, 0, sizeof *r);
    FILE *f = fopen(p, "rb");
    if (!f)
        return sb_error_set(err, SB_EBADFILE, 0, 0, "cannot resume from %s: it holds no %s (%s)", dir,
                            !strcmp(name, "run") ? "run" : "part of this process", strerror(errno));
    size_t cap = 0, k;
    do {
        if (r->n == cap) {
            unsigned char *nb = cap < ((size_t)64 << 20) ? realloc(r->b, cap ? 2 * cap : 4096) : NULL;
            if (!nb) {
                fclose(f);
                free(r->b);
                memset(r, 0, sizeof *r);
                return sb_error_set(err, SB_EBADFILE, 0, 0, "cannot resume from %s: %s is too large", dir, name);
            }
            r->b = nb;
            cap = cap ? 2 * cap : 4096;
        }
        k = fread(r->b + r->n, 1, cap - r->n, f);
        r->n += k;
    } while (k);
    fclose(f);
    if (r->n < 16 || memcmp(r->b, magic, 8) || sb_checksum(r->b, r->n - 8) != sb_le_get64(r->b + r->n - 8)) {
        free(r->b);
        memset(r, 0, sizeof *r);
        return sb_error_set(err, SB_EBADFILE, 0, 0, "cannot resume from %s: %s is damaged or not one sbfs wrote",
                            dir, name);
    }
    r->n -= 8;
    r->at = 8;
    return 0;
}

/* The state of a run, in DIR/run. */
typedef struct runrec {
    uint64_t nlev[2], status, exhausted;
    int64_t meet_level[2];
    uint64_t meet[MAXKW];
} runrec;

/* Note a level (status: 0 running, 1 found, 2 complete): each process's
 * part, then DIR/run.  Collective; without a checkpoint, nothing. */
static int commit(dsearch *d, int status, const uint64_t *start, const uint64_t *goal, sb_error *err)
{
    if (!d->ckpt)
        return 0;
    sb_lewords w = {0};
    sb_lewords_put(&w, d->ident);
    sb_lewords_put(&w, (uint64_t)d->size);
    sb_lewords_put(&w, (uint64_t)d->rank);
    sb_lewords_put(&w, (uint64_t)d->kw);
    sb_lewords_put(&w, d->generated);
    sb_lewords_put(&w, d->disk_written);
    sb_lewords_put(&w, (uint64_t)d->side[0].nlev);
    sb_lewords_put(&w, (uint64_t)d->side[1].nlev);
    int rc = 0;
    for (int k = 0; k < 2 && !rc; k++)
        for (int j = 0; j < d->side[k].nlev && !rc; j++) {
            const dlevel *L = &d->side[k].lev[j];
            uint64_t check = 0;
            char name[32];
            if (L->file) {
                file_name('l', L->file, name, sizeof name);
                rc = sb_lstore_header(d->ls, name, NULL, &check, err);
            }
            sb_lewords_put(&w, L->file != 0);
            sb_lewords_put(&w, L->n);
            sb_lewords_put(&w, L->total);
            sb_lewords_put(&w, check);
        }
    if (rc)
        free(w.b);
    else
        rc = write_record(&w, "SBFSMPP1", d->ls->dir, "part", err);
    if ((rc = agree(d, rc, err)))
        return rc;
    if (d->rank == 0) {
        sb_lewords v = {0};
        sb_lewords_put(&v, d->ident);
        sb_lewords_put(&v, (uint64_t)d->size);
        sb_lewords_put(&v, (uint64_t)d->kw);
        sb_lewords_put(&v, (uint64_t)(d->bidir | d->census << 1));
        sb_lewords_put(&v, goal != NULL);
        sb_lewords_key(&v, start, d->kw);
        sb_lewords_key(&v, goal, d->kw);
        sb_lewords_put(&v, (uint64_t)d->side[0].nlev);
        sb_lewords_put(&v, (uint64_t)d->side[1].nlev);
        sb_lewords_put(&v, (uint64_t)status);
        sb_lewords_put(&v, (uint64_t)d->exhausted);
        sb_lewords_put(&v, (uint64_t)(int64_t)d->meet_level[0]);
        sb_lewords_put(&v, (uint64_t)(int64_t)d->meet_level[1]);
        sb_lewords_key(&v, d->meet, d->kw);
        rc = write_record(&v, "SBFSMPR1", d->ckpt, "run", err);
    }
    return agree(d, rc, err);
}

/* The fields of a run that its checksum cannot vouch for: a record
 * written by another build, or by hand, may be whole and still say what
 * no run leaves, and the search would then index levels that are not
 * there.  What a run writes: one way, side 1 has no level; both ways,
 * side 1 has its goal level from the first record on, except when the
 * start is the goal (found at once, both meeting levels 0); a run that
 * found its goal met on levels each side holds. */
static int check_run(const dsearch *d, const runrec *rr, sb_error *err)
{
    const char *why = NULL;
    int at_once = rr->status == 1 && !rr->nlev[1] && !rr->meet_level[0] && !rr->meet_level[1];
    if (!d->bidir && rr->nlev[1])
        why = "a search one way with levels of a second side";
    else if (d->bidir && !rr->nlev[1] && !at_once)
        why = "a search both ways without the goal's side";
    else if (rr->status == 1)
        for (int k = 0; k < 2 && !why; k++)
            if (rr->meet_level[k] < 0 || (uint64_t)rr->meet_level[k] >= (rr->nlev[k] ? rr->nlev[k] : 1))
                why = k ? "the sides met on a level the goal's side does not hold"
                        : "the sides met on a level the start's side does not hold";
    if (why)
        return sb_error_set(err, SB_EBADFILE, 0, 0, "cannot resume from %s: its run is inconsistent (%s)", d->ckpt,
                            why);
    return 0;
}

/* Process 0: read DIR/run into *rr, or say why not. */
static int load_run(dsearch *d, const uint64_t *start, const uint64_t *goal, runrec *rr, sb_error *err)
{
    reader r;
    int rc = read_record(&r, "SBFSMPR1", d->ckpt, "run", err);
    uint64_t key[MAXKW] = {0};
    if (!rc) {
        uint64_t ident = get_word(&r), procs = get_word(&r);
        int same = ident == d->ident && get_word(&r) == (uint64_t)d->kw &&
                   get_word(&r) == (uint64_t)(d->bidir | d->census << 1) && get_word(&r) == (goal != NULL);
        get_key(&r, key, d->kw);
        same = same && !memcmp(key, start, kb(d, 1));
        get_key(&r, key, d->kw);
        same = same && (!goal || !memcmp(key, goal, kb(d, 1)));
        if (r.bad || !same)
            rc = sb_error_set(err, SB_EBADFILE, 0, 0,
                              "cannot resume from %s: it is the checkpoint of another search (another puzzle, "
                              "style or options)", d->ckpt);
        else if (procs != (uint64_t)d->size)
            rc = sb_error_set(err, SB_EUSAGE, 0, 0,
                              "cannot resume from %s with %d process%s: it was made by %llu (a key's owner "
                              "depends on their number); run mpirun -np %llu",
                              d->ckpt, d->size, d->size == 1 ? "" : "es", (unsigned long long)procs,
                              (unsigned long long)procs);
    }
    if (!rc) {
        rr->nlev[0] = get_word(&r);
        rr->nlev[1] = get_word(&r);
        rr->status = get_word(&r);
        rr->exhausted = get_word(&r);
        rr->meet_level[0] = (int64_t)get_word(&r);
        rr->meet_level[1] = (int64_t)get_word(&r);
        get_key(&r, rr->meet, d->kw);
        if (r.bad || r.at != r.n || rr->nlev[0] < 1 || rr->nlev[0] > 1000000 || rr->nlev[1] > 1000000 ||
            rr->status > 2 || rr->exhausted > 1)
            rc = sb_error_set(err, SB_EBADFILE, 0, 0, "cannot resume from %s: its run is damaged", d->ckpt);
    }
    if (!rc)
        rc = check_run(d, rr, err);
    free(r.b);
    return rc;
}

/* This process's levels from its part, nlev[k] of side k, each file that
 * is still needed checked and counted.  Local. */
static int load_part(dsearch *d, const uint64_t *nlev, sb_error *err)
{
    reader r;
    const char *dir = d->ls->dir;
    int rc = read_record(&r, "SBFSMPP1", dir, "part", err);
    if (rc)
        return rc;
    uint64_t have[2];
    int same = get_word(&r) == d->ident && get_word(&r) == (uint64_t)d->size &&
               get_word(&r) == (uint64_t)d->rank && get_word(&r) == (uint64_t)d->kw;
    d->generated = get_word(&r);
    d->disk_written = get_word(&r);
    have[0] = get_word(&r);
    have[1] = get_word(&r);
    if (!same || r.bad || have[0] < nlev[0] || have[1] < nlev[1] || have[0] > 1000000 || have[1] > 1000000)
        rc = sb_error_set(err, SB_EBADFILE, 0, 0, "cannot resume from %s: its part is damaged", dir);
    for (int k = 0; k < 2 && !rc; k++)
        for (uint64_t j = 0; j < have[k] && !rc; j++) {
            dside *S = &d->side[k];
            uint64_t file = get_word(&r), n = get_word(&r), total = get_word(&r), check = get_word(&r);
            if (r.bad) {
                rc = sb_error_set(err, SB_EBADFILE, 0, 0, "cannot resume from %s: its part is damaged", dir);
                break;
            }
            if (j >= nlev[k]) /* a level made after the run's last record: made again */
                continue;
            int needed = !d->census || j + 2 >= nlev[k];
            if ((rc = side_push(d, S, NULL, n, err)))
                break;
            S->lev[j].total = total;
            if (!needed)
                continue;
            char name[32], why[300];
            uint64_t id = level_id(d, S, (int)j), fn = 0, fc = 0;
            file_name('l', id, name, sizeof name);
            sb_error e;
            int hr = file ? sb_lstore_header(d->ls, name, &fn, &fc, &e)
                          : sb_error_set(&e, SB_EBADFILE, 0, 0, "no file was kept");
            if (!hr && (fn != n || fc != check))
                hr = sb_error_set(&e, SB_EBADFILE, 0, 0, "%s does not hold the level the run noted", name);
            if (!hr && j + 2 >= nlev[k])
                hr = sb_lstore_check(d->ls, name, NULL, &e);
            if (hr) {
                snprintf(why, sizeof why, "%s", e.msg);
                rc = sb_error_set(err, SB_EBADFILE, 0, 0, "cannot resume from %s: level %llu%s: %s", dir,
                                  (unsigned long long)j, k ? " from the goal" : "", why);
                break;
            }
            sb_lstore_adopt(d->ls, name);
            S->lev[j].file = id;
        }
    free(r.b);
    return rc;
}

/* Remove from this process's folder what the run does not hold: runs, a
 * level half made, levels a census no longer needs, unfinished records. */
static void tidy(dsearch *d)
{
    DIR *dir = opendir(d->ls->dir);
    struct dirent *e;
    while (dir && (e = readdir(dir)) != NULL) {
        int keep = !strcmp(e->d_name, "part") || e->d_name[0] == '.';
        for (int k = 0; k < 2 && !keep; k++)
            for (int j = 0; j < d->side[k].nlev && !keep; j++) {
                char name[32];
                if (!d->side[k].lev[j].file)
                    continue;
                file_name('l', d->side[k].lev[j].file, name, sizeof name);
                keep = !strcmp(name, e->d_name);
            }
        if (!keep) {
            char p[SB_LS_NAME + 300];
            sb_lstore_path(d->ls, e->d_name, p, sizeof p);
            unlink(p);
        }
    }
    if (dir)
        closedir(dir);
}

/* Take up the run in the checkpoint (every process): the sides as they
 * were, *status as noted.  Collective. */
static int resume(dsearch *d, const uint64_t *start, const uint64_t *goal, int *status, sb_error *err)
{
    runrec rr;
    memset(&rr, 0, sizeof rr);
    int rc = agree(d, d->rank == 0 ? load_run(d, start, goal, &rr, err) : 0, err);
    if (rc)
        return rc;
    double t = MPI_Wtime();
    SBMPI_WAIT(MPI_Ibcast(&rr, (int)sizeof rr, MPI_BYTE, 0, d->comm, &q_), "MPI_Bcast");
    d->stats.comm_secs += MPI_Wtime() - t;
    if ((rc = agree(d, load_part(d, rr.nlev, err), err)))
        return rc;
    tidy(d);
    *status = (int)rr.status;
    d->exhausted = (int)rr.exhausted;
    d->meet_level[0] = (int)rr.meet_level[0];
    d->meet_level[1] = (int)rr.meet_level[1];
    memcpy(d->meet, rr.meet, kb(d, 1));
    return 0;
}

/* A fresh run into the checkpoint folder: refused when it holds one. */
static int fresh(dsearch *d, sb_error *err)
{
    int rc = 0;
    if (d->rank == 0) {
        char p[SB_LS_NAME + 64];
        snprintf(p, sizeof p, "%s/run", d->ckpt);
        if (!access(p, F_OK))
            rc = sb_error_set(err, SB_EUSAGE, 0, 0, "%s holds a search already: resume it, or give an empty folder",
                              d->ckpt);
    }
    return agree(d, rc, err);
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
    for (int k = 0; k < 2 && d->ckpt; k++) /* a checkpoint's files stay */
        for (int j = 0; j < d->side[k].nlev; j++)
            d->side[k].lev[j].file = 0;
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

/* Whether the start is a goal (is_goal, or the key goal), at its owner:
 * the one-way test of level 0, into key. */
static int start_goal(const dsearch *d, const uint64_t *start, const uint64_t *goal, uint64_t *key)
{
    if (owner(d, start) != d->rank)
        return 0;
    memcpy(key, start, kb(d, 1));
    key[0] &= d->idm;
    if (d->model.is_goal)
        return d->model.is_goal(d->model.ud, key) != 0;
    if (!goal)
        return 0;
    uint64_t g[MAXKW];
    memcpy(g, goal, kb(d, 1));
    g[0] &= d->idm;
    return !sb_key_cmp(key, g, d->kw);
}

/* Make the next level of X (Y: the other side, both ways) and find in it
 * this process's candidate, into key (*have): its smallest goal (one way)
 * or smallest key shared with Y's newest level.  Collective. */
static int grow(dsearch *d, dside *X, dside *Y, const uint64_t *goal, sb_control *ctl, sb_error *err, int *have,
                uint64_t *key)
{
    *have = 0;
    if (d->ls)
        return disk_level(d, X, Y, goal, ctl, err, have, key);
    int rc = next_level(d, X, 0, Y, d->census, ctl, err);
    if (rc)
        return rc;
    const dlevel *L = &X->lev[X->nlev - 1];
    if (!Y) {
        *have = local_goal(d, L, goal, key);
        return 0;
    }
    const dlevel *M = &Y->lev[Y->nlev - 1];
    int64_t i = sb_keys_first_common(L->keys, L->n, M->keys, M->n, d->kw, d->idm);
    if (i >= 0)
        memcpy(key, L->keys + (uint64_t)i * d->kw, kb(d, 1));
    *have = i >= 0;
    return 0;
}

static int new_side(dsearch *d, dside *S, const uint64_t *key, sb_error *err)
{
    return agree(d, d->ls ? disk_start(d, S, key, err) : start_side(d, S, key, err), err);
}

/* The search, from level 0 or from the levels a checkpoint kept (status:
 * 1 the goal was found, 2 a component walked, 0 go on). */
static int search(dsearch *d, const uint64_t *start, const uint64_t *goal, int status, sb_control *ctl,
                  sb_error *err)
{
    if (status) {
        d->found = status == 1;
        d->complete = status == 2;
        d->length = d->found ? d->meet_level[0] + d->meet_level[1] : -1;
        return 0;
    }
    int fresh_run = !d->side[0].nlev, rc, have;
    uint64_t key[MAXKW];
    if (fresh_run && (rc = new_side(d, &d->side[0], start, err)))
        return rc;
    if (!d->bidir) {
        dside *F = &d->side[0];
        int got = fresh_run && smallest(d, start_goal(d, start, goal, key), key);
        if (fresh_run && !got && (rc = commit(d, 0, start, goal, err)))
            return rc;
        while (!got) {
            if ((rc = grow(d, F, NULL, goal, ctl, err, &have, key)))
                return rc;
            if (!F->lev[F->nlev - 1].total) {
                F->nlev--;
                level_drop(d, &F->lev[F->nlev]);
                d->complete = 1;
                return commit(d, 2, start, goal, err);
            }
            if (!(got = smallest(d, have, key)) && (rc = commit(d, 0, start, goal, err)))
                return rc;
        }
        d->length = d->meet_level[0] = F->nlev - 1;
        d->meet_level[1] = 0;
        memcpy(d->meet, key, kb(d, 1));
        d->found = 1;
        return commit(d, 1, start, goal, err);
    }
    if (fresh_run && !memcmp(start, goal, kb(d, 1))) {
        d->length = d->meet_level[0] = d->meet_level[1] = 0;
        memcpy(d->meet, start, kb(d, 1));
        d->meet[0] &= d->idm;
        d->found = 1;
        return commit(d, 1, start, goal, err);
    }
    if (fresh_run &&
        ((rc = new_side(d, &d->side[1], goal, err)) || (rc = commit(d, 0, start, goal, err))))
        return rc;
    for (;;) {
        dside *F = &d->side[0], *B = &d->side[1];
        int k = F->lev[F->nlev - 1].total <= B->lev[B->nlev - 1].total ? 0 : 1;
        dside *X = &d->side[k], *Y = &d->side[1 - k];
        if ((rc = grow(d, X, Y, NULL, ctl, err, &have, key)))
            return rc;
        if (!X->lev[X->nlev - 1].total) {
            X->nlev--;
            level_drop(d, &X->lev[X->nlev]);
            d->complete = 1;
            d->exhausted = k;
            return commit(d, 2, start, goal, err);
        }
        if (smallest(d, have, key)) {
            d->meet_level[k] = X->nlev - 1;
            d->meet_level[1 - k] = Y->nlev - 1;
            d->length = d->meet_level[0] + d->meet_level[1];
            memcpy(d->meet, key, kb(d, 1));
            d->found = 1;
            return commit(d, 1, start, goal, err);
        }
        if ((rc = commit(d, 0, start, goal, err)))
            return rc;
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
    int status = 0, rc = 0;
    if (d->ckpt)
        rc = d->resuming ? resume(d, start, goal, &status, err) : fresh(d, err);
    if (!rc)
        rc = search(d, start, goal, status, ctl, err);
    d->model.is_goal = keep;
    if (!rc && d->census) {
        if (d->ls)
            rc = disk_last(d, err);
        else
            gather_last(d);
    }
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
    info->states = states(d);
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
        if (S->lev[i].keys) {
            dlevel *L = &S->lev[i];
            parent_ctx c = {d, L, -1};
            int rc = d->model.expand(d->model.ud, out + (uint64_t)D * kw, on_parent, &c);
            if (rc)
                sb_error_set(err, rc, 0, 0, "the model failed to list moves");
            uint64_t key[MAXKW];
            if (!rc && c.best >= 0)
                memcpy(key, L->keys + (uint64_t)c.best * kw, kb(d, 1));
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
    int rc = d->ls ? disk_trace(d, &d->side[0], f, keys, err) : trace(d, &d->side[0], 0, f, keys, ctl, err);
    if (rc || g == 0)
        return rc;
    uint64_t *back = malloc(kb(d, (uint64_t)g + 1));
    if (!back)
        sbmpi_fatal("out of memory");
    memcpy(back + (uint64_t)g * kw, d->meet, kb(d, 1));
    rc = d->ls ? disk_trace(d, &d->side[1], g, back, err) : trace(d, &d->side[1], 0, g, back, ctl, err);
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
        return sb_error_set(err, SB_EUSAGE, 0, 0, "--%s: the directory's name is too long",
                            d->ckpt ? "checkpoint" : "disk");
    if (mkdir(d->rankdir, 0777) == 0)
        d->made_rankdir = !d->ckpt; /* a checkpoint's stays */
    else if (errno != EEXIST)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: cannot make the directory: %s", d->rankdir, strerror(errno));
    if (!(d->ls = calloc(1, sizeof *d->ls)))
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    /* a file buffer: 1/64 of the budget, 4 KB to 1 MB, as in one process */
    size_t iob = sb_mem_left(d->mem) / 64;
    iob = iob < 4096 ? 4096 : iob > ((size_t)1 << 20) ? (size_t)1 << 20 : iob;
    int rc = sb_lstore_open(d->ls, d->rankdir, !d->ckpt, limit, d->kw, d->mem, iob, err);
    if (rc) {
        free(d->ls);
        d->ls = NULL;
    } else {
        d->ls->sync = d->ckpt != NULL;
    }
    return rc;
}

int sbmpi_search_new(sb_search **s, const sb_keymodel *m, sb_mem *mem, const sb_search_opts *o,
                     const sbmpi_stats **stats, sb_error *err)
{
    const char *disk = o && o->checkpoint ? o->checkpoint : o ? o->disk_dir : NULL;
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
    if (o && o->checkpoint) {
        d->ckpt = o->checkpoint;
        d->resuming = o->resume;
        d->ident = o->ident;
    }
    if (disk) {
        int rc = agree(d, open_store(d, disk, o->disk_limit, err), err);
        if (rc) {
            d_free(d);
            return rc;
        }
    }
    if (stats)
        *stats = &d->stats;
    return sb_search_new_backend(s, m, &backend, d, err);
}
