/* God tables on disk: the indexed engine's breadth-first search when the
 * packed table does not fit the memory budget.  Two-bit breadth-first
 * search with the table on disk is Korf's ("Minimizing Disk I/O in
 * Two-Bit Breadth-First Search", AAAI 2008); this is one way to do it.
 *
 * The codes (2 bits an index, the distance mod 3) live in one file, cut
 * into slices of 2^s indices; only one slice is in memory at a time, with
 * a one-bit-per-index frontier bitmap beside it.  The trouble is the
 * neighbours: expanding an index of slice i gives indices anywhere.  So
 * each slice has a file of 32-bit entries for the next pass, and a
 * neighbour q of an index of slice i is
 *
 *  - in slice i: marked at once, as in memory, and appended to i's file
 *    with the FRESH flag, the only record that it is the next level's
 *    frontier (a code d+1 mod 3 cannot tell it from level d-2);
 *  - in another slice j: a request, its offset in j, appended to j's file
 *    (delayed duplicate detection: whether q was reached already is
 *    found out when j comes round).
 *
 * One pass over the slices makes a level.  For each slice j that has a
 * file: read its codes; read the file, marking each requested index not
 * reached yet (it is at distance d, and joins the frontier) and putting
 * each fresh one on the frontier; expand the frontier, filling the next
 * pass's files; write the codes back.  Each slice is read and written once
 * a level, each entry once each way; a slice with no file is skipped.
 *
 * A small example: 8 indices in slices of 4, {0..3} and {4..7}, the moves
 * r -> r+1 and r -> r-1, start 2.  Pass 0: slice 0's file holds "2,
 * fresh"; expanding 2 marks 1 and 3 (fresh, for pass 1).  Pass 1: slice 0
 * expands 1 and 3: 0 is marked, 2 is known, 4 is in slice 1 and becomes
 * the request "offset 0" in its file; slice 1 has no file yet (skipped).
 * Pass 2: slice 0 expands 0 (nothing new); slice 1 reads its request: 4
 * gets distance 2 and is expanded: 5 is marked.  And so on.
 *
 * Why this and not a scheme on the puzzle's rank structure: it works for
 * any model, and the structure helps it anyway.  In the n-puzzle's
 * numbering (npuzzle_table.h) a sideways move changes the index by one
 * and most vertical ones change it little, so nine successors in ten stay
 * in their slice and never touch the files (docs/ALGORITHMS.md has the
 * figures).
 *
 * Threads: within a slice, as in memory.  Files are read by workers taking
 * blocks from a shared offset; setting a code is the atomic AND of
 * table.c, so an index is counted once.  The frontier is expanded in
 * chunks taken from a shared counter; each worker has a buffer per slice
 * and appends a full buffer at an offset it reserves with one atomic add.
 * The order of the entries in a file depends on the threads; the codes
 * they lead to do not.
 *
 * Checkpoints (below) change only where the codes are written and when
 * the files read are emptied. */
#include "sbfs/table.h"

#include "../core/hash.h"
#include "../core/internal.h"
#include "../core/pool.h"
#include "table_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Slices are at least 2^6 indices (a word of the frontier), at most 2^31
 * (an offset and the fresh flag in 32 bits); at most MAX_SLICES of them,
 * so that the two files of each (this pass's and the next's), kept open
 * throughout, stay well under the usual limit of open files. */
#define MIN_SHIFT 6
#define MAX_SHIFT 31
#define MAX_SLICES 400
#define FRESH (UINT32_C(1) << 31)
/* Entries in a worker's buffer per file: at least MIN_BUF (a tiny
 * budget), at most MAX_BUF (64 KB writes). */
#define MIN_BUF 16
#define MAX_BUF 16384

typedef struct dfile {
    int fd;
    atomic_uint_fast64_t len; /* bytes written (reserved) so far */
} dfile;

typedef struct dbuild {
    const sb_model *m;
    uint64_t size;
    int shift, k, threads;
    uint64_t slen;            /* 1 << shift */
    char dir[512];
    int tfd[2];               /* the codes; a checkpoint keeps two copies */
    uint64_t tbytes;          /* bytes of codes (of each copy) */
    int ckpt;                 /* the files are a checkpoint (kept when stopped) */
    int keep;                 /* a checkpoint worth keeping: resumed, or recorded */
    unsigned char *copy;      /* copy[j]: the copy holding slice j's codes (0 but
                                 for a checkpoint) */
    unsigned char *next_copy; /* ... and the one this pass writes it to */
    dfile *files[2];          /* files[g][j]: slice j's entries for passes of parity g */
    uint64_t limit;
    atomic_uint_fast64_t used, peak;
    sb_mem *mem;
    const sb_control *ctl;
    /* the slice in hand */
    int j, expanding, pass;
    uint64_t base, n;         /* first index, indices */
    aword *codes, *front;
    uint64_t next;            /* the code marking sets */
    dfile *in;                /* the file being read */
    atomic_uint_fast64_t roff;
    atomic_uint_fast64_t next_chunk;
    uint64_t chunk, nchunks;  /* of the frontier, for expanding */
    size_t block;             /* bytes of the file, for reading */
    atomic_int stop;          /* a worker failed or was told to stop */
    uint64_t reached;         /* for progress */
    size_t bufn;              /* entries per buffer */
} dbuild;

typedef struct dworker {
    dbuild *b;
    gen g;
    uint32_t *buf;            /* k buffers of bufn entries, one per slice */
    size_t *fill;
    uint64_t found;           /* indices this worker reached in the phase */
    int report;
    int rc;
    sb_error err;
} dworker;

/* ---- files --------------------------------------------------------- */

enum { CODES = -1, RUN = -2, RUN_TMP = -3 };

/* The file of slice j for passes of parity g; or the codes (copy g), the
 * checkpoint's record, or the record being written. */
static void path_of(const dbuild *b, char *out, size_t n, int g, int j)
{
    if (j == CODES)
        snprintf(out, n, "%s/codes%d", b->dir, g);
    else if (j == RUN || j == RUN_TMP)
        snprintf(out, n, "%s/%s", b->dir, j == RUN ? "run" : "run.tmp");
    else
        snprintf(out, n, "%s/slice%d.%d", b->dir, j, g);
}

static int io_error(sb_error *err, const dbuild *b, const char *what, int g, int j)
{
    char p[600];
    int e = errno;
    path_of(b, p, sizeof p, g, j);
    return sb_error_set(err, SB_EIO, 0, 0, "%s %s: %s", what, p, strerror(e));
}

static int put_at(int fd, const void *buf, size_t n, uint64_t off)
{
    const char *s = buf;
    while (n) {
        ssize_t w = pwrite(fd, s, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = ENOSPC;
            return -1;
        }
        s += w;
        n -= (size_t)w;
        off += (uint64_t)w;
    }
    return 0;
}

static int get_at(int fd, void *buf, size_t n, uint64_t off)
{
    char *s = buf;
    while (n) {
        ssize_t r = pread(fd, s, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = EIO; /* cut short under us */
            return -1;
        }
        s += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return 0;
}

/* Count n more bytes of files against the limit. */
static int disk_add(dbuild *b, uint64_t n, sb_error *err)
{
    uint64_t u = atomic_fetch_add(&b->used, n) + n, p = atomic_load(&b->peak);
    if (b->limit && u > b->limit) {
        atomic_fetch_sub(&b->used, n);
        return sb_error_set(err, SB_ENOMEM, 0, 0,
                            "disk limit exhausted: the table's files would pass %llu bytes",
                            (unsigned long long)b->limit);
    }
    while (u > p && !atomic_compare_exchange_weak(&b->peak, &p, u))
        ;
    return 0;
}

static int open_new(dbuild *b, int g, int j, sb_error *err)
{
    char p[600];
    int fd;
    path_of(b, p, sizeof p, g, j);
    fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        io_error(err, b, "cannot make", g, j);
    return fd;
}

/* ---- one slice ------------------------------------------------------ */

/* Mark offset o of the slice in hand with code next; 1 when this call
 * reached it (see reach in table.c).  While requests are applied the
 * index joins the frontier; while the frontier is expanded it must not
 * (it is the next level's, written to the slice's file instead). */
static inline int mark(dbuild *b, uint64_t o, int front)
{
    uint64_t wi = o >> 5, sh = (o & 31) << 1, old;
    if (((atomic_load_explicit(&b->codes[wi], memory_order_relaxed) >> sh) & 3) != 3)
        return 0;
    old = atomic_fetch_and_explicit(&b->codes[wi], ~((3 ^ b->next) << sh), memory_order_relaxed);
    if (((old >> sh) & 3) != 3)
        return 0;
    if (front)
        atomic_fetch_or_explicit(&b->front[o >> 6], UINT64_C(1) << (o & 63), memory_order_relaxed);
    return 1;
}

/* Write out the worker's buffer for slice t (at an offset reserved in
 * t's file of the next pass). */
static int flush_buf(dworker *w, int t)
{
    dbuild *b = w->b;
    int g = (b->pass + 1) & 1;
    dfile *f = &b->files[g][t];
    size_t n = w->fill[t] * 4;
    uint64_t off;
    if (!n)
        return 0;
    if (disk_add(b, n, &w->err))
        return SB_ENOMEM;
    off = atomic_fetch_add(&f->len, n);
    if (put_at(f->fd, w->buf + (size_t)t * b->bufn, n, off))
        return io_error(&w->err, b, "cannot write", g, t);
    w->fill[t] = 0;
    return 0;
}

static inline int push(dworker *w, int t, uint32_t x)
{
    w->buf[(size_t)t * w->b->bufn + w->fill[t]++] = x;
    return w->fill[t] == w->b->bufn ? flush_buf(w, t) : 0;
}

/* Local neighbours waiting for their words (prefetched), as in table.c. */
typedef struct pending {
    int n;
    uint32_t o[2 * SB_MAX_MOVES];
} pending;

static int settle(dworker *w, pending *pd)
{
    int rc = 0;
    for (int i = 0; i < pd->n && !rc; i++)
        if (mark(w->b, pd->o[i], 0)) {
            w->found++;
            rc = push(w, w->b->j, pd->o[i] | FRESH);
        }
    pd->n = 0;
    return rc;
}

/* The successors of index r: those in the slice queued, the others sent
 * as requests. */
static int expand_one(dworker *w, pending *pd, uint64_t r)
{
    dbuild *b = w->b;
    const sb_model *m = b->m;
    uint64_t out[SB_MAX_MOVES];
    int n = 0, rc = 0;
    if (pd->n + m->nmoves > (int)(sizeof pd->o / sizeof pd->o[0]) && (rc = settle(w, pd)))
        return rc;
    if (m->succ) {
        n = m->succ(m->ud, w->g.scratch, r, out);
    } else {
        gen_begin(&w->g, r, 1);
        for (int mv = 0; mv < m->nmoves; mv++)
            out[n++] = gen_move(&w->g, mv);
    }
    for (int i = 0; i < n && !rc; i++) {
        uint64_t q = out[i];
        int t;
        if (q == SB_NO_INDEX || q >= b->size)
            continue;
        t = (int)(q >> b->shift);
        if (t == b->j) {
            uint64_t o = q - b->base;
            __builtin_prefetch((const void *)&b->codes[o >> 5], 1);
            pd->o[pd->n++] = (uint32_t)o;
        } else {
            rc = push(w, t, (uint32_t)(q & (b->slen - 1)));
        }
    }
    return rc;
}

static int expand_chunk(dworker *w, uint64_t lo, uint64_t hi)
{
    dbuild *b = w->b;
    pending pd;
    int rc = 0;
    pd.n = 0;
    for (uint64_t i = lo >> 6; i < (hi + 63) >> 6 && !rc; i++) {
        uint64_t f = atomic_load_explicit(&b->front[i], memory_order_relaxed);
        while (f && !rc) {
            uint64_t o = (i << 6) + (uint64_t)__builtin_ctzll(f);
            f &= f - 1;
            if (o < hi)
                rc = expand_one(w, &pd, b->base + o);
        }
    }
    return rc ? rc : settle(w, &pd);
}

/* A block of the slice's file: requests to mark, and fresh indices
 * (marked already) to put on the frontier.  1 when the file is done. */
static int read_block(dworker *w)
{
    dbuild *b = w->b;
    size_t cap = b->block;
    uint64_t len = atomic_load(&b->in->len), off = atomic_fetch_add(&b->roff, cap), n;
    if (off >= len)
        return 1;
    n = len - off < cap ? len - off : cap;
    if (get_at(b->in->fd, w->buf, (size_t)n, off))
        return io_error(&w->err, b, "cannot read", b->pass & 1, b->j);
    for (size_t i = 0; i < n / 4; i++) {
        uint32_t e = w->buf[i], o = e & ~FRESH;
        if (o >= b->n)
            continue; /* cannot happen with our own files */
        if (e & FRESH)
            atomic_fetch_or_explicit(&b->front[o >> 6], UINT64_C(1) << (o & 63), memory_order_relaxed);
        else
            w->found += (uint64_t)mark(b, o, 1);
    }
    return 0;
}

static void report(dworker *w)
{
    dbuild *b = w->b;
    sb_progress_info info;
    if (!w->report || !b->ctl || !b->ctl->progress)
        return;
    memset(&info, 0, sizeof info);
    info.phase = "table (on disk)";
    info.level = b->pass + b->expanding;
    info.done = b->reached + w->found;
    info.total = b->size;
    info.mem_used = b->mem ? b->mem->used : 0;
    info.disk_used = atomic_load(&b->used);
    b->ctl->progress(b->ctl->ud, &info);
}

static void *dwork(void *arg)
{
    dworker *w = arg;
    dbuild *b = w->b;
    int rc = 0;
    while (!rc) {
        if (atomic_load_explicit(&b->stop, memory_order_relaxed))
            break;
        if (sb_control_stopped(b->ctl)) {
            atomic_store(&b->stop, 1);
            break;
        }
        if (!b->expanding) {
            rc = read_block(w);
        } else {
            uint64_t c = atomic_fetch_add(&b->next_chunk, 1), lo, hi;
            if (c >= b->nchunks)
                break;
            lo = c * b->chunk;
            hi = lo + b->chunk < b->n ? lo + b->chunk : b->n;
            rc = expand_chunk(w, lo, hi);
        }
        report(w);
    }
    if (rc == 1)
        rc = 0;
    if (!rc && b->expanding && !atomic_load(&b->stop))
        for (int t = 0; t < b->k && !rc; t++)
            rc = flush_buf(w, t);
    if (rc) {
        w->rc = rc;
        atomic_store(&b->stop, 1);
    }
    return NULL;
}

/* Read the slice's file (expanding 0) or expand its frontier (1) on the
 * workers.  The pieces they take are a few per worker, within bounds: a
 * chunk of the frontier at most 2^16 indices, a block of the file at most
 * a worker's buffers, at least 64 of either; no more workers than pieces
 * (starting a thread for a few entries costs more than it saves).  Adds
 * the indices reached to *found.  The first error, or SB_EINTR. */
static int run_phase(dbuild *b, dworker *wk, int expanding, uint64_t *found, sb_error *err)
{
    uint64_t len = atomic_load(&b->in->len), pieces, cap = (uint64_t)b->k * b->bufn * 4, share;
    int n;
    if (expanding) {
        share = (b->n / (uint64_t)(4 * b->threads) + 63) & ~(uint64_t)63;
        b->chunk = share < 64 ? 64 : share > (UINT64_C(1) << 16) ? UINT64_C(1) << 16 : share;
        b->nchunks = pieces = (b->n + b->chunk - 1) / b->chunk;
    } else {
        share = (len / (uint64_t)(4 * b->threads) + 3) & ~(uint64_t)3;
        share = share < 256 ? 256 : share;
        b->block = (size_t)(share > cap ? cap : share);
        pieces = (len + b->block - 1) / b->block;
    }
    n = pieces < (uint64_t)b->threads ? (int)pieces : b->threads;
    b->expanding = expanding;
    atomic_store(&b->roff, 0);
    atomic_store(&b->next_chunk, 0);
    for (int i = 0; i < n; i++) {
        wk[i].found = 0;
        wk[i].rc = 0;
    }
    sb_pool_run(n, dwork, wk, sizeof *wk);
    for (int i = 0; i < n; i++) {
        if (wk[i].rc) {
            if (err)
                *err = wk[i].err;
            return wk[i].rc;
        }
        *found += wk[i].found;
    }
    if (atomic_load(&b->stop))
        return sb_error_set(err, SB_EINTR, 0, 0, "stopped at distance %d", b->pass + 1);
    return 0;
}

/* Slice j in pass d: apply its file (requests: level d; fresh: level d
 * already marked), expand the frontier (unless last), write the codes
 * back.  *found: indices the requests reached; *local: indices at d+1
 * reached within the slice. */
static int do_slice(dbuild *b, dworker *wk, int j, int last, uint64_t *found, uint64_t *local, sb_error *err)
{
    int d = b->pass, rc;
    dfile *in = &b->files[d & 1][j];
    uint64_t len = atomic_load(&in->len), cbytes;
    if (!len)
        return 0; /* nothing at distance d here */
    b->j = j;
    b->in = in;
    b->base = (uint64_t)j << b->shift;
    b->n = b->size - b->base < b->slen ? b->size - b->base : b->slen;
    cbytes = (b->n + 31) / 32 * 8;
    if (get_at(b->tfd[b->copy[j]], (void *)b->codes, (size_t)cbytes, b->base / 4))
        return io_error(err, b, "cannot read", b->copy[j], CODES);
    memset((void *)b->front, 0, (size_t)((b->n + 63) / 64 * 8));
    b->next = (uint64_t)(d % 3);
    if ((rc = run_phase(b, wk, 0, found, err)))
        return rc;
    /* read once: give the space back (a checkpoint keeps it until the
     * pass is recorded) */
    if (!b->ckpt) {
        if (ftruncate(in->fd, 0))
            return io_error(err, b, "cannot empty", d & 1, j);
        atomic_store(&in->len, 0);
        atomic_fetch_sub(&b->used, len);
    }
    if (!last) {
        b->next = (uint64_t)((d + 1) % 3);
        if ((rc = run_phase(b, wk, 1, local, err)))
            return rc;
    }
    b->next_copy[j] = (unsigned char)(b->ckpt ? !b->copy[j] : 0);
    if (put_at(b->tfd[b->next_copy[j]], (const void *)b->codes, (size_t)cbytes, b->base / 4))
        return io_error(err, b, "cannot write", b->next_copy[j], CODES);
    return 0;
}

/* ---- the whole build ------------------------------------------------ */

/* The largest slice (of 2^only indices if only is not 0), and a buffer
 * size, that fit in `left` bytes with `threads` workers; 0 when none does.
 * Buffers of 4096 entries or more come first, the largest slice second:
 * a write costs a system call whatever it carries, and a slice fewer
 * costs little (docs/ALGORITHMS.md). */
static int plan(uint64_t size, int threads, size_t left, int only, int *shift, size_t *bufn)
{
    static const size_t want[] = {4096, 1024, 256, 64, MIN_BUF};
    for (size_t wi = 0; wi < sizeof want / sizeof want[0]; wi++)
        for (int s = only ? only : MAX_SHIFT; s >= (only ? only : MIN_SHIFT); s--) {
            uint64_t slen = UINT64_C(1) << s, k = (size + slen - 1) / slen;
            uint64_t slice = slen / 4 + slen / 8, per = (uint64_t)threads * k;
            if (k > MAX_SLICES || (k < 2 && !only))
                continue;
            if (slice + per * (want[wi] * 4 + sizeof(size_t)) > left)
                continue;
            uint64_t b = (left - slice) / per - sizeof(size_t);
            b /= 4;
            *bufn = (size_t)(b > MAX_BUF ? MAX_BUF : b);
            *shift = s;
            return 1;
        }
    return 0;
}

/* The folder of the files: a new one in disk->dir, or the checkpoint's
 * (made if missing; refused when it holds a stopped build and this is
 * not a resume, or holds none and this is one). */
static int make_dir(dbuild *b, const sb_table_disk *disk, sb_error *err)
{
    const char *dir = b->ckpt ? disk->checkpoint : disk->dir;
    char p[600];
    struct stat st;
    if (!dir || !*dir)
        dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    if (strlen(dir) + 32 >= sizeof b->dir)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "the folder name %.60s... is too long", dir);
    if (!b->ckpt) {
        snprintf(b->dir, sizeof b->dir, "%s/sbfs.XXXXXX", dir);
        if (!mkdtemp(b->dir)) {
            int e = errno;
            b->dir[0] = 0;
            return sb_error_set(err, SB_EIO, 0, 0, "cannot make a folder in %s: %s", dir, strerror(e));
        }
        return 0;
    }
    snprintf(b->dir, sizeof b->dir, "%s", dir);
    if (mkdir(dir, 0777) && errno != EEXIST) {
        int e = errno;
        b->dir[0] = 0;
        return sb_error_set(err, SB_EIO, 0, 0, "cannot make the folder %s: %s", dir, strerror(e));
    }
    path_of(b, p, sizeof p, 0, RUN);
    if (!disk->resume && stat(p, &st) == 0) {
        b->dir[0] = 0; /* not ours to remove */
        return sb_error_set(err, SB_EUSAGE, 0, 0, "%s holds a stopped build: resume it, or remove it", dir);
    }
    return 0;
}

/* The files: the codes, every index "not reached" but the starts
 * (distance 0, and fresh in their slices' files), and the slices' files,
 * empty. */
static int init_files(dbuild *b, sb_table *t, const uint64_t *starts, size_t nstarts, sb_error *err)
{
    struct statvfs vs;
    size_t chunk = (size_t)((b->slen + 31) / 32 * 8);
    int rc;
    if (statvfs(b->dir, &vs) == 0 && (uint64_t)vs.f_bavail * vs.f_frsize < b->tbytes)
        return sb_error_set(err, SB_ENOMEM, 0, 0,
                            "the table needs %llu bytes on disk, more than the %llu free in %s",
                            (unsigned long long)b->tbytes,
                            (unsigned long long)vs.f_bavail * vs.f_frsize, b->dir);
    if ((rc = disk_add(b, b->tbytes * (b->ckpt ? 2 : 1), err)))
        return rc;
    for (int c = 0; c < 1 + b->ckpt; c++)
        if ((b->tfd[c] = open_new(b, c, CODES, err)) < 0)
            return SB_EIO;
    if (b->ckpt && ftruncate(b->tfd[1], (off_t)b->tbytes))
        return io_error(err, b, "cannot write", 1, CODES);
    for (int g = 0; g < 2; g++)
        for (int j = 0; j < b->k; j++)
            if ((b->files[g][j].fd = open_new(b, g, j, err)) < 0)
                return SB_EIO;
    memset((void *)b->codes, 0xff, chunk);
    for (uint64_t off = 0; off < b->tbytes; off += chunk)
        if (put_at(b->tfd[0], (const void *)b->codes, (size_t)(b->tbytes - off < chunk ? b->tbytes - off : chunk),
                   off))
            return io_error(err, b, "cannot write", 0, CODES);
    for (size_t i = 0; i < nstarts; i++) {
        uint64_t s = starts[i], w;
        unsigned sh = (unsigned)((s & 31) << 1);
        dfile *f = &b->files[0][s >> b->shift];
        uint32_t e = (uint32_t)(s & (b->slen - 1)) | FRESH;
        if (s >= b->size)
            return sb_error_set(err, SB_EUSAGE, 0, 0, "start index %llu is outside 0..%llu",
                                (unsigned long long)s, (unsigned long long)(b->size - 1));
        if (get_at(b->tfd[0], &w, 8, s / 32 * 8))
            return io_error(err, b, "cannot read", 0, CODES);
        if (((w >> sh) & 3) != 3)
            continue; /* a start twice */
        w &= ~(UINT64_C(3) << sh);
        if (put_at(b->tfd[0], &w, 8, s / 32 * 8))
            return io_error(err, b, "cannot write", 0, CODES);
        if ((rc = disk_add(b, 4, err)))
            return rc;
        if (put_at(f->fd, &e, 4, atomic_load(&f->len)))
            return io_error(err, b, "cannot write", 0, (int)(s >> b->shift));
        atomic_fetch_add(&f->len, 4);
        t->count[0]++;
    }
    return 0;
}

/* Close the files and, unless they are a checkpoint to keep, remove them
 * (and the folder, when it was made for them). */
static void remove_all(dbuild *b, int keep)
{
    char p[600];
    if (!b->dir[0])
        return;
    for (int c = 0; c < 2; c++) {
        if (b->tfd[c] >= 0)
            close(b->tfd[c]);
        b->tfd[c] = -1;
        path_of(b, p, sizeof p, c, CODES);
        if (!keep)
            unlink(p);
    }
    for (int g = 0; g < 2; g++)
        for (int j = 0; b->files[g] && j < b->k; j++) {
            if (b->files[g][j].fd >= 0)
                close(b->files[g][j].fd);
            b->files[g][j].fd = -1;
            path_of(b, p, sizeof p, g, j);
            if (!keep)
                unlink(p);
        }
    if (keep)
        return;
    path_of(b, p, sizeof p, 0, RUN);
    unlink(p);
    if (!b->ckpt)
        rmdir(b->dir);
}

/* ---- checkpoints ------------------------------------------------------
 * A checkpoint is the folder of files itself, plus a record, "run", of
 * the last pass finished: the model, the slicing, the next pass, the
 * counts, which copy of the codes holds each slice, the length of each
 * slice's file for the next pass, and a checksum of all that.  A pass
 * never writes what the record points at: it reads the codes from one
 * copy and writes them to the other, and keeps the files it reads until
 * the next record (written beside and renamed over, after the files it
 * names are synced).  So a build killed at any moment is taken up from
 * the last record and ends with the same table. */

/* The record's first lines: what the build is, for refusing another. */
static int fingerprint(const dbuild *b, char *out, size_t n)
{
    const sb_model *m = b->m;
    return snprintf(out, n, "sbfs god table checkpoint 1\nmodel %s|%s|%llu|%d\nslices %d %d\n",
                    m->name ? m->name : "", m->params ? m->params : "", (unsigned long long)m->size,
                    m->nmoves, b->shift, b->k);
}

static int write_record(dbuild *b, const sb_table *t, int pass, sb_error *err)
{
    size_t cap = 256 + (size_t)(pass + 1) * 21 + (size_t)b->k * 23, n;
    char *s = malloc(cap), p[600], q[600];
    int fd, bad;
    if (!s)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    n = (size_t)fingerprint(b, s, cap);
    n += (size_t)snprintf(s + n, cap - n, "pass %d\ncounts", pass);
    for (int d = 0; d <= pass; d++)
        n += (size_t)snprintf(s + n, cap - n, " %llu", (unsigned long long)t->count[d]);
    n += (size_t)snprintf(s + n, cap - n, "\ncopy ");
    for (int j = 0; j < b->k; j++)
        s[n++] = (char)('0' + b->copy[j]);
    n += (size_t)snprintf(s + n, cap - n, "\nfiles");
    for (int j = 0; j < b->k; j++)
        n += (size_t)snprintf(s + n, cap - n, " %llu", (unsigned long long)atomic_load(&b->files[pass & 1][j].len));
    n += (size_t)snprintf(s + n, cap - n, "\n");
    n += (size_t)snprintf(s + n, cap - n, "sum %016llx\n", (unsigned long long)sb_checksum(s, n));
    path_of(b, p, sizeof p, 0, RUN_TMP);
    path_of(b, q, sizeof q, 0, RUN);
    fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    bad = fd < 0 || put_at(fd, s, n, 0) || fsync(fd);
    if (fd >= 0)
        close(fd);
    free(s);
    if (bad || rename(p, q))
        return io_error(err, b, "cannot write", 0, RUN);
    b->keep = 1;
    return 0;
}

/* After pass `pass`-1: sync what the record will name, write it, then let
 * go of the files the pass read. */
static int commit(dbuild *b, const sb_table *t, int pass, sb_error *err)
{
    int g = (pass - 1) & 1, rc;
    for (int c = 0; c < 2; c++)
        if (fsync(b->tfd[c]))
            return io_error(err, b, "cannot sync", c, CODES);
    for (int j = 0; j < b->k; j++)
        if (fsync(b->files[pass & 1][j].fd))
            return io_error(err, b, "cannot sync", pass & 1, j);
    memcpy(b->copy, b->next_copy, (size_t)b->k);
    if ((rc = write_record(b, t, pass, err)))
        return rc;
    for (int j = 0; j < b->k; j++) {
        uint64_t len = atomic_load(&b->files[g][j].len);
        if (!len)
            continue;
        if (ftruncate(b->files[g][j].fd, 0))
            return io_error(err, b, "cannot empty", g, j);
        atomic_store(&b->files[g][j].len, 0);
        atomic_fetch_sub(&b->used, len);
    }
    return 0;
}

static int damaged(const dbuild *b, sb_error *err, const char *why)
{
    return sb_error_set(err, SB_EBADFILE, 0, 0, "%s: not a checkpoint this build can resume: %s", b->dir, why);
}

/* Take up the build recorded in the folder: *pass, the counts, the copies
 * and the files; the slicing must be the one planned (the record says
 * which, and the caller plans it). */
static int read_record(dbuild *b, sb_table *t, int *pass, sb_error *err)
{
    char p[600], want[512], *s = NULL, *at, *end;
    struct stat st;
    int fd, rc = 0;
    size_t n = 0;
    path_of(b, p, sizeof p, 0, RUN);
    if ((fd = open(p, O_RDONLY)) < 0)
        return errno == ENOENT ? damaged(b, err, "no record of a build")
                               : io_error(err, b, "cannot open", 0, RUN);
    if (fstat(fd, &st) || st.st_size > (1 << 20) || !(s = malloc((size_t)st.st_size + 1)) ||
        get_at(fd, s, (size_t)st.st_size, 0)) {
        close(fd);
        free(s);
        return damaged(b, err, "the record cannot be read");
    }
    close(fd);
    n = (size_t)st.st_size;
    s[n] = 0;
    /* the last line, "sum X", is the checksum of all before it */
    at = n > 21 ? s + n - 21 : NULL; /* "sum " and 16 digits and the newline */
    if (!at || strncmp(at, "sum ", 4) || s[n - 1] != '\n' ||
        strtoull(at + 4, &end, 16) != sb_checksum(s, (size_t)(at - s)) || end != s + n - 1) {
        free(s);
        return damaged(b, err, "its record is damaged");
    }
    fingerprint(b, want, sizeof want);
    if (strncmp(s, want, strlen(want))) {
        free(s);
        return damaged(b, err, "it is of another puzzle or size");
    }
    at = s + strlen(want);
    if (sscanf(at, "pass %d", pass) != 1 || *pass < 0 || *pass > SB_TABLE_MAXDIST ||
        !(at = strstr(at, "\ncounts")))
        rc = 1;
    at = rc ? at : at + 7;
    for (int d = 0; !rc && d <= *pass; d++) {
        t->count[d] = strtoull(at, &end, 10);
        rc = end == at;
        at = end;
        if (d < *pass)
            t->reached += t->count[d];
    }
    if (!rc && strncmp(at, "\ncopy ", 6) == 0) {
        at += 6;
        for (int j = 0; j < b->k && !rc; j++, at++) {
            rc = *at != '0' && *at != '1';
            b->copy[j] = b->next_copy[j] = (unsigned char)(*at == '1');
        }
    } else {
        rc = 1;
    }
    if (!rc && strncmp(at, "\nfiles", 6) == 0) {
        at += 6;
        for (int j = 0; j < b->k && !rc; j++) {
            uint64_t len = strtoull(at, &end, 10);
            rc = end == at || len % 4;
            at = end;
            atomic_store(&b->files[*pass & 1][j].len, len);
        }
    } else {
        rc = 1;
    }
    free(s);
    if (rc)
        return damaged(b, err, "its record is damaged");
    t->maxdist = *pass - 1;
    return 0;
}

/* Open the checkpoint's files for pass `pass`: the codes and the files it
 * reads as they were recorded, the files it writes emptied. */
static int reopen(dbuild *b, int pass, sb_error *err)
{
    char p[600], why[700];
    struct stat st;
    uint64_t used = 2 * b->tbytes;
    for (int c = 0; c < 2; c++) {
        path_of(b, p, sizeof p, c, CODES);
        if ((b->tfd[c] = open(p, O_RDWR)) < 0)
            return io_error(err, b, "cannot open", c, CODES);
        if (fstat(b->tfd[c], &st) || (uint64_t)st.st_size != b->tbytes) {
            snprintf(why, sizeof why, "%s is not %llu bytes long", p, (unsigned long long)b->tbytes);
            return damaged(b, err, why);
        }
    }
    for (int g = 0; g < 2; g++)
        for (int j = 0; j < b->k; j++) {
            dfile *f = &b->files[g][j];
            path_of(b, p, sizeof p, g, j);
            if ((f->fd = open(p, O_RDWR | O_CREAT, 0600)) < 0)
                return io_error(err, b, "cannot open", g, j);
            if (g != (pass & 1)) {
                if (ftruncate(f->fd, 0))
                    return io_error(err, b, "cannot empty", g, j);
                atomic_store(&f->len, 0);
            } else if (fstat(f->fd, &st) || (uint64_t)st.st_size != atomic_load(&f->len)) {
                snprintf(why, sizeof why, "%s is not %llu bytes long", p,
                         (unsigned long long)atomic_load(&f->len));
                return damaged(b, err, why);
            }
            used += atomic_load(&f->len);
        }
    return disk_add(b, used, err);
}

/* Copy 0 of the codes, mapped read-only as the table's data. */
static int map_codes(dbuild *b, sb_table *t, sb_error *err)
{
    void *p = b->tfd[0] < 0 ? MAP_FAILED : mmap(NULL, (size_t)b->tbytes, PROT_READ, MAP_SHARED, b->tfd[0], 0);
    if (p == MAP_FAILED)
        return io_error(err, b, "cannot map", 0, CODES);
    t->disk_map = p;
    t->disk_map_bytes = (size_t)b->tbytes;
    t->data = p;
    t->data_bytes = (size_t)b->tbytes;
    return 0;
}

/* The finished table: every slice's codes in copy 0, mapped. */
static int gather(dbuild *b, sb_table *t, sb_error *err)
{
    for (int j = 0; b->ckpt && j < b->k; j++) {
        uint64_t base = (uint64_t)j << b->shift, n = b->size - base < b->slen ? b->size - base : b->slen;
        size_t cbytes = (size_t)((n + 31) / 32 * 8);
        if (!b->copy[j])
            continue;
        if (get_at(b->tfd[1], (void *)b->codes, cbytes, base / 4))
            return io_error(err, b, "cannot read", 1, CODES);
        if (put_at(b->tfd[0], (const void *)b->codes, cbytes, base / 4))
            return io_error(err, b, "cannot write", 0, CODES);
    }
    return map_codes(b, t, err);
}

/* The slicing a checkpoint in dir was made with (its record's third
 * line), 0 when it cannot be read: a resume keeps it whatever the
 * budget, and read_record refuses a record without it. */
static int recorded_shift(const char *dir)
{
    char p[600], line[128];
    int shift = 0, k, i = 0;
    FILE *f;
    snprintf(p, sizeof p, "%s/run", dir);
    if (!(f = fopen(p, "r")))
        return 0;
    while (i++ < 3 && fgets(line, sizeof line, f))
        if (sscanf(line, "slices %d %d", &shift, &k) != 2)
            shift = 0;
    fclose(f);
    return shift >= MIN_SHIFT && shift <= MAX_SHIFT ? shift : 0;
}

static int build_on_disk(sb_table *t, const sb_model *m, const uint64_t *starts, size_t nstarts,
                         const sb_table_opts *o, const sb_table_disk *disk, sb_mem *mem,
                         const sb_control *ctl, sb_error *err)
{
    dbuild b;
    dworker wk[SB_POOL_MAX];
    unsigned char *scratch = NULL;
    size_t cbytes, fbytes, bbytes, lbytes;
    uint32_t *bufs = NULL;
    size_t *fills = NULL;
    int rc = 0, first = 0, threads = o->threads < 1 ? 1 : o->threads > SB_POOL_MAX ? SB_POOL_MAX : o->threads;

    memset(&b, 0, sizeof b);
    b.tfd[0] = b.tfd[1] = -1;
    b.ckpt = disk->checkpoint != NULL;
    b.m = m;
    b.size = m->size;
    b.mem = mem;
    b.ctl = ctl;
    b.limit = disk->limit;
    b.threads = threads;
    b.tbytes = words_for(m->size, 2) * 8;
    if (m->size > (uint64_t)MAX_SLICES << MAX_SHIFT)
        return sb_error_set(err, SB_ENOMEM, 0, 0,
                            "a table of %llu indices is too large for the disk too (at most %d slices "
                            "of 2^%d)", (unsigned long long)m->size, MAX_SLICES, MAX_SHIFT);
    if (!plan(m->size, threads, sb_mem_left(mem),
              b.ckpt && disk->resume && recorded_shift(disk->checkpoint) ? recorded_shift(disk->checkpoint)
                                                                           : disk->slice_log2,
              &b.shift, &b.bufn))
        return sb_error_set(err, SB_ENOMEM, 0, 0,
                            "the memory budget of %zu bytes is too small even for a table on disk "
                            "(%d threads)", mem ? mem->limit : (size_t)0, threads);
    b.slen = UINT64_C(1) << b.shift;
    b.k = (int)((m->size + b.slen - 1) >> b.shift);
    cbytes = (size_t)(b.slen / 4);
    fbytes = (size_t)(b.slen / 8);
    bbytes = (size_t)threads * (size_t)b.k * b.bufn * 4;
    lbytes = (size_t)threads * (size_t)b.k * sizeof(size_t);
    b.codes = sb_mem_alloc(mem, cbytes, err);
    b.front = b.codes ? sb_mem_alloc(mem, fbytes, err) : NULL;
    bufs = b.front ? sb_mem_alloc(mem, bbytes, err) : NULL;
    fills = bufs ? sb_mem_alloc(mem, lbytes, err) : NULL;
    b.files[0] = calloc((size_t)b.k * 2, sizeof *b.files[0]);
    b.copy = calloc((size_t)b.k * 2, 1);
    b.next_copy = b.copy ? b.copy + b.k : NULL;
    if (m->scratch_size)
        scratch = calloc((size_t)threads, m->scratch_size);
    if (!fills || !b.files[0] || !b.copy || (m->scratch_size && !scratch)) {
        rc = fills ? sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory") : SB_ENOMEM;
        goto out;
    }
    b.files[1] = b.files[0] + b.k;
    for (int j = 0; j < 2 * b.k; j++)
        b.files[0][j].fd = -1;
    for (int i = 0; i < threads; i++) {
        memset(&wk[i], 0, sizeof wk[i]);
        wk[i].b = &b;
        wk[i].g.m = m;
        wk[i].g.scratch = scratch ? scratch + (size_t)i * m->scratch_size : NULL;
        wk[i].buf = bufs + (size_t)i * (size_t)b.k * b.bufn;
        wk[i].fill = fills + (size_t)i * (size_t)b.k;
        wk[i].report = i == 0;
    }
    t->slices = b.k;
    if ((rc = make_dir(&b, disk, err)))
        goto out;
    if (b.ckpt && disk->resume) {
        if (!(rc = read_record(&b, t, &first, err)))
            rc = reopen(&b, first, err);
    } else {
        rc = init_files(&b, t, starts, nstarts, err);
    }
    if (!rc && b.ckpt && !disk->resume)
        rc = commit(&b, t, 0, err);
    if (rc)
        goto out;
    for (int d = first;; d++) {
        uint64_t found = 0, local = 0;
        int last = o->max_depth >= 0 && d >= o->max_depth;
        if (!last && d + 1 > SB_TABLE_MAXDIST) {
            rc = sb_error_set(err, SB_EUSAGE, 0, 0, "distances pass %d", SB_TABLE_MAXDIST);
            goto out;
        }
        b.pass = d;
        for (int j = 0; j < b.k && !rc; j++) {
            b.reached = t->reached + t->count[d] + found;
            rc = do_slice(&b, wk, j, last, &found, &local, err);
        }
        if (rc)
            goto out;
        t->count[d] += found;
        t->reached += t->count[d];
        if (!t->count[d])
            break;
        t->maxdist = d;
        if (last)
            break;
        t->count[d + 1] = local;
        if (b.ckpt && (rc = commit(&b, t, d + 1, err)))
            goto out;
    }
    t->complete = o->max_depth < 0 || t->maxdist < o->max_depth;
    memcpy(b.copy, b.next_copy, (size_t)b.k);
    rc = gather(&b, t, err);
out:
    if (rc == SB_EINTR) {
        /* the levels finished: their counts (and, but for a checkpoint,
         * the codes, mapped, the later levels' partly there) */
        for (int i = t->maxdist + 1; i <= SB_TABLE_MAXDIST; i++)
            t->count[i] = 0;
        map_codes(&b, t, NULL);
    }
    /* a checkpoint is kept unless the build is over or never began */
    remove_all(&b, rc && (b.keep || (b.ckpt && disk->resume)));
    t->disk_peak = atomic_load(&b.peak);
    sb_mem_free(mem, fills, lbytes);
    sb_mem_free(mem, bufs, bbytes);
    sb_mem_free(mem, (void *)b.front, fbytes);
    sb_mem_free(mem, (void *)b.codes, cbytes);
    free(b.files[0]);
    free(b.copy);
    free(scratch);
    return rc;
}

int sb_table_build_disk(sb_table **out, const sb_model *m, const uint64_t *starts, size_t nstarts,
                        const sb_table_opts *opts, const sb_table_disk *disk, sb_mem *mem,
                        const sb_control *ctl, sb_error *err)
{
    sb_table_opts o = {2, 1, SB_SCAN_AUTO, -1};
    int rc;
    if (!disk)
        return sb_table_build(out, m, starts, nstarts, opts, mem, ctl, err);
    if (!out)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_table_build_disk: t is NULL");
    *out = NULL;
    if (opts)
        o = *opts;
    if (o.bits == 0)
        o.bits = 2;
    if ((rc = sb_table_check_model(m, err)))
        return rc;
    if (disk->slice_log2 && (disk->slice_log2 < MIN_SHIFT || disk->slice_log2 > MAX_SHIFT))
        return sb_error_set(err, SB_EUSAGE, 0, 0, "slices of 2^%d indices: want 2^%d to 2^%d",
                            disk->slice_log2, MIN_SHIFT, MAX_SHIFT);
    if ((o.bits != 2 && o.bits != 4 && o.bits != 8) || (!starts && nstarts) ||
        (!disk->slice_log2 && !disk->checkpoint && words_for(m->size, o.bits) * 8 <= sb_mem_left(mem)))
        return sb_table_build(out, m, starts, nstarts, opts, mem, ctl, err); /* its checks, or in memory */
    if (o.bits != 2)
        return sb_error_set(err, SB_ENOMEM, 0, 0,
                            "a %d-bit table of %llu indices needs %llu bytes, more than the memory "
                            "budget; only 2-bit tables are kept on disk",
                            o.bits, (unsigned long long)m->size,
                            (unsigned long long)words_for(m->size, o.bits) * 8);
    *out = calloc(1, sizeof **out);
    if (!*out)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    (*out)->size = m->size;
    (*out)->bits = 2;
    (*out)->maxdist = -1;
    sb_table_copy_name((*out)->name, sizeof (*out)->name, m->name);
    sb_table_copy_name((*out)->params, sizeof (*out)->params, m->params);
    rc = build_on_disk(*out, m, starts, nstarts, &o, disk, mem, ctl, err);
    if (rc && !(*out)->data) {
        free(*out);
        *out = NULL;
    }
    return rc;
}
