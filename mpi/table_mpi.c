/* The distributed indexed engine: a God's-algorithm table (sbfs/table.h)
 * whose index range is cut into one slice per MPI process.
 *
 * Process r owns the indices [lo_r, lo_{r+1}), lo_r = size * r / P rounded
 * down to a multiple of 64, and keeps for them the 2-bit codes of the
 * one-process engine (distance mod 3, 3 for "not reached") and, when its
 * budget has room, the one-process engine's frontier bitmap.  Level d+1 is
 * made forward: each process lists the successors of its part of level d;
 * one it owns is marked at once (code (d+1) mod 3, and its bit in the
 * bitmap) when not reached yet, the others go, in batches, to their owners
 * (MPI_Alltoallv), which mark them the same way.  Marking is idempotent,
 * so the order of the messages does not matter and the level counts
 * (summed over the processes) are those of one process.  The number of
 * trades per level is agreed each trade, as in the distributed key search
 * (search_mpi.c), with Ctrl-C and errors.
 *
 * The frontier.  Level d is the indices of code d mod 3, but so are levels
 * d-3, d-6, ...  One bitmap tells them apart, as in src/index/table.c: a
 * bit is set when an index is marked and cleared when it is expanded, and
 * an index whose bit is set but whose code is (d+1) mod 3 was reached in
 * this level and waits for the next.  3 bits a position in all.  Without
 * room for the bitmap a process scans its codes for d mod 3 and expands
 * the older levels of that code again: their successors are all reached,
 * so the counts stay exact, at the cost of work and trades, in 2 bits a
 * position.
 *
 * Only forward levels: a backward level asks, of an index not reached,
 * whether some neighbour is at distance d, and those neighbours live on
 * other processes; late levels therefore cost (frontier) x (moves) trades
 * where one process would scan backwards. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/internal.h"
#include "sbmpi.h"
#include "sbmpi_priv.h"

#define BATCH ((uint64_t)1 << 20) /* successors sent by a process per trade, at most about */

typedef struct dtable {
    const sb_model *m;
    int rank, size;
    uint64_t *bound; /* P+1 slice bounds */
    uint64_t lo, hi;
    uint64_t *codes, *front; /* 2-bit codes and frontier bitmap (or NULL) of the slice */
    size_t codes_bytes, map_bytes;
    uint64_t batch;          /* successors listed by a process before a trade */
    uint64_t **out, *outn, *outcap;
    uint64_t pending;
    void *scratch;
    double comm;
    uint64_t sent;
} dtable;

static int owner_of(const dtable *t, uint64_t q)
{
    int a = 0, b = t->size; /* bound[a] <= q < bound[b] */
    while (b - a > 1) {
        int mid = (a + b) / 2;
        if (t->bound[mid] <= q)
            a = mid;
        else
            b = mid;
    }
    return a;
}

/* Mark local index q (q - lo) as reached at level code c; 1 if it was new. */
static inline int mark(dtable *t, uint64_t q, uint64_t c)
{
    uint64_t i = q - t->lo, w = i >> 5;
    unsigned sh = (unsigned)(i & 31) * 2;
    if (((t->codes[w] >> sh) & 3) != 3)
        return 0;
    t->codes[w] &= ~((uint64_t)3 << sh) | (c << sh);
    if (t->front)
        t->front[i >> 6] |= (uint64_t)1 << (i & 63);
    return 1;
}

static int push(dtable *t, int o, uint64_t q, sb_mem *mem, sb_error *err)
{
    if (t->outn[o] == t->outcap[o]) {
        uint64_t nc = t->outcap[o] ? 2 * t->outcap[o] : 1024;
        uint64_t *b = sb_mem_realloc(mem, t->out[o], t->outcap[o] * 8, nc * 8, err);
        if (!b)
            return SB_ENOMEM;
        t->out[o] = b;
        t->outcap[o] = nc;
    }
    t->out[o][t->outn[o]++] = q;
    t->pending++;
    return 0;
}

/* Successors of p into out; how many. */
static int successors(dtable *t, uint64_t p, uint64_t *out)
{
    const sb_model *m = t->m;
    if (m->succ)
        return m->succ(m->ud, t->scratch, p, out);
    int n = 0;
    if (m->move) {
        for (int k = 0; k < m->nmoves; k++) {
            uint64_t q = m->move(m->ud, t->scratch, p, k);
            if (q != SB_NO_INDEX)
                out[n++] = q;
        }
        return n;
    }
    /* mixed-radix coordinates, coords[0] most significant */
    uint32_t v[SB_MAX_COORDS];
    uint64_t r = p;
    for (int c = m->ncoords - 1; c >= 0; c--) {
        v[c] = (uint32_t)(r % m->coords[c].size);
        r /= m->coords[c].size;
    }
    for (int k = 0; k < m->nmoves; k++) {
        uint64_t q = 0;
        for (int c = 0; c < m->ncoords; c++)
            q = q * m->coords[c].size + m->coords[c].move[(uint64_t)v[c] * m->nmoves + k];
        out[n++] = q;
    }
    return n;
}

/* One trade of the batched successors; returns how many were new here. */
static uint64_t trade(dtable *t, uint64_t c, int *rc, sb_mem *mem, sb_error *err)
{
    int P = t->size;
    int *sc = calloc((size_t)P * 4, sizeof *sc), *rcnt = sc + P, *sd = sc + 2 * P, *rd = sc + 3 * P;
    uint64_t *send = NULL, total = 0, got = 0, fresh = 0;
    if (!sc)
        sbmpi_fatal("out of memory for %d counts", P);
    if (!*rc && !(send = sb_mem_alloc(mem, (t->pending ? t->pending : 1) * 8, err)))
        *rc = SB_ENOMEM;
    if (!*rc)
        for (int r = 0; r < P; r++) {
            if (t->outn[r]) /* a buffer never used is NULL */
                memcpy(send + total, t->out[r], t->outn[r] * 8);
            sc[r] = (int)t->outn[r];
            sd[r] = (int)total;
            total += t->outn[r];
            if (r != t->rank)
                t->sent += t->outn[r] * 8;
        }
    for (int r = 0; r < P; r++)
        t->outn[r] = 0;
    t->pending = 0;
    double t0 = MPI_Wtime();
    SBMPI_WAIT(MPI_Ialltoall(sc, 1, MPI_INT, rcnt, 1, MPI_INT, MPI_COMM_WORLD, &q_), "MPI_Alltoall");
    for (int r = 0; r < P; r++)
        rd[r] = (int)got, got += (uint64_t)rcnt[r];
    uint64_t *recv = malloc((got ? got : 1) * 8);
    if (!recv)
        sbmpi_fatal("out of memory receiving %llu indices", (unsigned long long)got);
    /* never the receive buffer as the send buffer: Open MPI would take it
     * for MPI_IN_PLACE (see search_mpi.c) */
    uint64_t none = 0;
    SBMPI_WAIT(MPI_Ialltoallv(send ? send : &none, sc, sd, MPI_UINT64_T, recv, rcnt, rd, MPI_UINT64_T,
                              MPI_COMM_WORLD, &q_), "MPI_Alltoallv");
    t->comm += MPI_Wtime() - t0;
    for (uint64_t i = 0; i < got; i++)
        fresh += (uint64_t)mark(t, recv[i], c);
    free(recv);
    if (send)
        sb_mem_free(mem, send, (total ? total : 1) * 8);
    free(sc);
    return fresh;
}

/* Rank 0 receives every slice's codes, in order: the one-process table's
 * words.  0 or SB_ENOMEM, agreed. */
static int gather(dtable *t, sb_mem *mem, uint64_t **codes, size_t *bytes, sb_error *err)
{
    int P = t->size;
    uint64_t words = (t->m->size + 31) / 32;
    int *cnt = calloc((size_t)P * 2, sizeof *cnt), *dis = cnt + P, rc = 0;
    if (!cnt)
        sbmpi_fatal("out of memory");
    *codes = NULL;
    *bytes = 0;
    if (t->rank == 0 && !(*codes = sb_mem_alloc(mem, words * 8, err)))
        rc = SB_ENOMEM;
    SBMPI_WAIT(MPI_Ibcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD, &q_), "MPI_Bcast");
    if (rc) {
        free(cnt);
        return rc;
    }
    for (int r = 0; r < P; r++) {
        cnt[r] = (int)((t->bound[r + 1] - t->bound[r] + 31) / 32);
        dis[r] = (int)(t->bound[r] / 32);
    }
    double t0 = MPI_Wtime();
    SBMPI_WAIT(MPI_Igatherv(t->codes, cnt[t->rank], MPI_UINT64_T, *codes, cnt, dis, MPI_UINT64_T, 0,
                            MPI_COMM_WORLD, &q_), "MPI_Gatherv");
    t->comm += MPI_Wtime() - t0;
    if (t->rank != 0)
        t->sent += (uint64_t)cnt[t->rank] * 8;
    *bytes = t->rank == 0 ? words * 8 : 0;
    free(cnt);
    return 0;
}

int sbmpi_table_build(const sb_model *m, uint64_t start, sb_mem *mem, const sb_control *ctl, uint64_t *count,
                      int *levels, uint64_t **codes, size_t *codes_bytes, sbmpi_stats *stats, sb_error *err)
{
    dtable t;
    int P = sbmpi_size(), rc = 0;
    memset(&t, 0, sizeof t);
    t.m = m;
    t.rank = sbmpi_rank();
    t.size = P;
    *levels = 0;
    memset(count, 0, (SB_TABLE_MAXDIST + 1) * sizeof *count);
    if (!m || m->size == 0 || m->nmoves < 1 || m->nmoves > SB_MAX_MOVES || start >= m->size ||
        (!m->succ && !m->move && (m->ncoords < 1 || m->ncoords > SB_MAX_COORDS)))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sbmpi_table_build: a bad model or start");
    t.bound = calloc((size_t)P + 1, sizeof *t.bound);
    t.out = calloc((size_t)P, sizeof *t.out);
    t.outn = calloc((size_t)P, sizeof *t.outn);
    t.outcap = calloc((size_t)P, sizeof *t.outcap);
    t.scratch = calloc(1, m->scratch_size ? m->scratch_size : 1);
    if (!t.bound || !t.out || !t.outn || !t.outcap || !t.scratch)
        sbmpi_fatal("out of memory");
    for (int r = 0; r < P; r++)
        t.bound[r] = (uint64_t)((unsigned __int128)m->size * (unsigned)r / (unsigned)P) & ~(uint64_t)63;
    t.bound[P] = m->size;
    t.lo = t.bound[t.rank];
    t.hi = t.bound[t.rank + 1];
    uint64_t n = t.hi - t.lo;
    t.codes_bytes = ((n + 31) / 32 + 1) * 8;
    t.map_bytes = ((n + 63) / 64 + 1) * 8;
    t.codes = sb_mem_alloc(mem, t.codes_bytes, err);
    int lrc = t.codes ? 0 : SB_ENOMEM;
    /* the bitmap when the budget leaves as much again for the trades */
    if (!lrc && sb_mem_left(mem) / 2 >= t.map_bytes && (t.front = sb_mem_alloc(mem, t.map_bytes, NULL)))
        memset(t.front, 0, t.map_bytes);
    if (!lrc)
        memset(t.codes, 0xff, t.codes_bytes);
    /* a trade holds its successors twice, 8 bytes each: a batch takes at
     * most a quarter of the room left */
    t.batch = sb_mem_left(mem) / 64;
    t.batch = t.batch < 1024 ? 1024 : t.batch > BATCH ? BATCH : t.batch;
    /* agree: a process without room stops all */
    int first = lrc ? t.rank : P, low;
    SBMPI_WAIT(MPI_Iallreduce(&first, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &q_), "MPI_Allreduce");
    if (low < P) {
        rc = SB_ENOMEM;
        if (t.rank != low)
            sb_error_set(err, SB_ENOMEM, 0, 0, "memory budget exhausted on process %d", low);
        else
            sb_error_set(err, SB_ENOMEM, 0, 0,
                         "memory budget exhausted: process %d cannot hold %llu positions at 2 bits each", low,
                         (unsigned long long)n);
        goto out;
    }
    if (start >= t.lo && start < t.hi)
        mark(&t, start, 0);
    count[0] = 1;
    *levels = 1;
    uint64_t reached = 1, succ[SB_MAX_MOVES];
    double last = sb_now();
    for (int d = 0;; d++) {
        if (d + 1 > SB_TABLE_MAXDIST) {
            rc = sb_error_set(err, SB_EUSAGE, 0, 0, "distances pass %d", SB_TABLE_MAXDIST);
            break;
        }
        /* with the bitmap, a word of it (64 indices); else a word of
         * codes (32) */
        uint64_t cur = (uint64_t)(d % 3), c = (uint64_t)((d + 1) % 3), fresh = 0, w = 0;
        uint64_t nw = t.front ? (n + 63) / 64 : (n + 31) / 32;
        for (;;) {
            int lrc2 = 0;
            for (; w < nw && t.pending < t.batch && !lrc2; w++) {
                uint64_t hit, done = 0;
                int shift; /* a hit's bit index, shifted right, is the index in the word */
                if (t.front) {
                    hit = t.front[w];
                    shift = 0;
                } else { /* the fields equal to cur: their low bits */
                    uint64_t x = t.codes[w] ^ (cur * 0x5555555555555555u);
                    hit = ~(x | (x >> 1)) & 0x5555555555555555u;
                    shift = 1;
                }
                for (; hit && !lrc2; hit &= hit - 1) {
                    int b = __builtin_ctzll(hit);
                    uint64_t i = (w << (6 - shift)) + (uint64_t)(b >> shift), p = t.lo + i;
                    if (t.front && ((t.codes[i >> 5] >> ((i & 31) * 2)) & 3) != cur)
                        continue; /* reached in this level: the next level's */
                    done |= (uint64_t)1 << b;
                    int k = successors(&t, p, succ);
                    for (int j = 0; j < k && !lrc2; j++) {
                        uint64_t q = succ[j];
                        if (q >= t.lo && q < t.hi)
                            fresh += (uint64_t)mark(&t, q, c);
                        else
                            lrc2 = push(&t, owner_of(&t, q), q, mem, err);
                    }
                }
                if (t.front)
                    t.front[w] &= ~done;
            }
            fresh += trade(&t, c, &lrc2, mem, err);
            if (!lrc2 && sb_control_stopped(ctl))
                lrc2 = sb_error_set(err, SB_EINTR, 0, 0, "stopped at distance %d", d + 1);
            int flags[2] = {lrc2 ? 1 : 0, w < nw}, all[2];
            double t0 = MPI_Wtime();
            SBMPI_WAIT(MPI_Iallreduce(flags, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &q_), "MPI_Allreduce");
            t.comm += MPI_Wtime() - t0;
            if (all[0]) {
                int me = lrc2 ? t.rank : P, lowest;
                SBMPI_WAIT(MPI_Iallreduce(&me, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &q_), "MPI_Allreduce");
                sb_error e;
                memset(&e, 0, sizeof e);
                if (t.rank == lowest && err)
                    e = *err;
                e.code = t.rank == lowest ? lrc2 : 0;
                SBMPI_WAIT(MPI_Ibcast(&e, (int)sizeof e, MPI_BYTE, lowest, MPI_COMM_WORLD, &q_), "MPI_Bcast");
                if (err)
                    *err = e;
                rc = e.code ? e.code : SB_EINTERNAL;
                break;
            }
            if (!all[1])
                break;
            if (ctl && ctl->progress && t.rank == 0 && sb_now() - last > 0.2) {
                sb_progress_info in = {"table (forward)", d + 1, reached, m->size, mem ? mem->used : 0, 0, 0};
                ctl->progress(ctl->ud, &in);
                last = sb_now();
            }
        }
        if (rc)
            break;
        uint64_t total;
        double t0 = MPI_Wtime();
        SBMPI_WAIT(MPI_Iallreduce(&fresh, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &q_), "MPI_Allreduce");
        t.comm += MPI_Wtime() - t0;
        if (!total)
            break;
        count[d + 1] = total;
        reached += total;
        *levels = d + 2;
    }
    if (!rc && codes && (uint64_t)(m->size + 31) / 32 > (uint64_t)1 << 30)
        rc = sb_error_set(err, SB_EUSAGE, 0, 0, "a table of %llu positions is too large to gather on one process",
                          (unsigned long long)m->size);
    else if (!rc && codes && gather(&t, mem, codes, codes_bytes, err))
        rc = sb_error_set(err, SB_ENOMEM, 0, 0, "memory budget exhausted: process 0 cannot hold the whole table");
out:
    if (stats) {
        uint64_t pk = mem ? mem->peak : 0, s[2];
        SBMPI_WAIT(MPI_Iallreduce(&pk, &s[0], 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &q_), "MPI_Allreduce");
        SBMPI_WAIT(MPI_Iallreduce(&pk, &s[1], 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD, &q_), "MPI_Allreduce");
        SBMPI_WAIT(MPI_Iallreduce(&t.comm, &stats->comm_secs, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &q_), "MPI_Allreduce");
        SBMPI_WAIT(MPI_Iallreduce(&t.sent, &stats->bytes_sent, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &q_), "MPI_Allreduce");
        stats->procs = P;
        stats->peak_sum = (size_t)s[0];
        stats->peak_max = (size_t)s[1];
    }
    for (int r = 0; r < P; r++)
        sb_mem_free(mem, t.out[r], t.outcap[r] * 8);
    if (t.codes)
        sb_mem_free(mem, t.codes, t.codes_bytes);
    if (t.front)
        sb_mem_free(mem, t.front, t.map_bytes);
    free(t.bound);
    free(t.out);
    free(t.outn);
    free(t.outcap);
    free(t.scratch);
    return rc;
}
