/* Sorted key files on disk (levelstore.h).
 *
 * Why gaps (format 0, for runs).  Keys of one level are a sparse subset of
 * a large range, but they are sorted, so what a file must say about a key
 * is only how far it is from the one before.  A level of n keys spread
 * over a range of R values has gaps of R/n on average, and a gap g costs
 * ceil(bits(g)/7) bytes: under 2^14 (16384) two bytes, under 128 one.
 * Sliding-block keys pack the pieces' places so that configurations that
 * differ in the last pieces are near each other in the order, and a level
 * holds many of those, so most gaps are small (measured in
 * docs/ALGORITHMS.md).  LEB128 decodes at a few nanoseconds a key, which
 * suits a run, written and read once.
 *
 * Why blocks of Huffman codes per nibble (format 1, for level files).  A
 * gap code pays for what a key's low bits look like, and those are far
 * from random: a sliding-block key is a bitmap of the occupied cells
 * (sixteen bits, all but one set on a 4 x 4 board with one gap) under the
 * kinds of the pieces in them (three bits each), so after a key differs
 * from the one before in some place, the bits below it are the next
 * cells' bitmap and kinds, each place with a few likely values.  So a key
 * is coded as symbols: h, the highest 4-bit nibble in which it differs
 * from the key before (h = P, the nibbles in a key, for the first key of a
 * file); that nibble's increase less one; then every nibble below h as it
 * is.  Each kind of symbol at each nibble place has a Huffman code of its
 * own, built for a block of keys and stored in front of the block, so a
 * place whose nibble is always f costs nothing and the bitmap's place of
 * the gap costs about its entropy.  Measured on the levels of a 4 x 4
 * census with six distinct tiles (docs/ALGORITHMS.md): 2.79 bytes a key
 * as gaps, 2.47 as the ideal code of the gaps' bit lengths plus their
 * bits, 1.4 as blocks.  Example, kw = 1 and P = 16: after 0x...3f7f the
 * key 0x...4b2f is h = 3 (the first nibble from the top that changed,
 * 3 to 4), increase less one 0, then nibbles 2, 1, 0 as they are: b, 2, f.
 *
 * The body is one bit stream, least significant bit first; a block is
 * its number of keys less one (12 bits), then for each table (h; the
 * increase at each place; the nibble at each place) a bit "used" and,
 * if used, for each symbol a bit "present" and its code length (4 bits,
 * 1..LMAX; 0 when it is the table's only symbol, coded in no bits), then
 * the keys.  Codes are canonical (in order of length, then symbol), so
 * the lengths say everything, and complete (a reader refuses lengths that
 * are not), so any bits decode to some key and damage is caught by the
 * checksum or by a decoded value out of range.  The stream is padded to
 * a byte at the end. */
#define _POSIX_C_SOURCE 200809L
#include "levelstore.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/le.h"
#include "../core/internal.h"
#include "keysort.h"

static const char magic[8] = {'S', 'B', 'F', 'S', 'K', 'E', 'Y', '1'};

static int ioerr(sb_error *err, const sb_lstore *ls, const char *name, const char *what)
{
    int e = errno;
    return sb_error_set(err, SB_EIO, 0, 0, "%s %s/%s: %s", what, ls->dir, name, strerror(e));
}

int sb_lstore_open(sb_lstore *ls, const char *dir, int private_dir, uint64_t limit, int kw, sb_mem *mem,
                   size_t iob, sb_error *err)
{
    memset(ls, 0, sizeof *ls);
    ls->kw = kw;
    ls->limit = limit;
    ls->mem = mem;
    ls->iob = iob < 4096 ? 4096 : iob;
    if (strlen(dir) + 16 >= sizeof ls->dir)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "the folder name %.60s... is too long", dir);
    if (private_dir) {
        snprintf(ls->dir, sizeof ls->dir, "%s/sbfs.XXXXXX", dir);
        if (!mkdtemp(ls->dir)) {
            int e = errno;
            return sb_error_set(err, SB_EIO, 0, 0, "cannot make a folder in %s: %s", dir, strerror(e));
        }
        ls->own_dir = 1;
    } else {
        struct stat st;
        if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
            int e = errno;
            return sb_error_set(err, SB_EIO, 0, 0, "%s is not a folder: %s", dir,
                                S_ISDIR(st.st_mode) ? strerror(e) : "not a directory");
        }
        snprintf(ls->dir, sizeof ls->dir, "%s", dir);
    }
    return 0;
}

void sb_lstore_path(const sb_lstore *ls, const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", ls->dir, name);
}

static uint64_t file_size(const sb_lstore *ls, const char *name)
{
    char p[SB_LS_NAME + 300];
    struct stat st;
    sb_lstore_path(ls, name, p, sizeof p);
    return stat(p, &st) ? 0 : (uint64_t)st.st_size;
}

int sb_lstore_charge(sb_lstore *ls, uint64_t n, int check)
{
    if (ls->lock)
        pthread_mutex_lock(ls->lock);
    int over = check && ls->limit && ls->used + n > ls->limit;
    if (!over) {
        ls->used += n;
        if (ls->used > ls->peak)
            ls->peak = ls->used;
    }
    if (ls->lock)
        pthread_mutex_unlock(ls->lock);
    return over;
}

void sb_lstore_uncharge(sb_lstore *ls, uint64_t n)
{
    if (ls->lock)
        pthread_mutex_lock(ls->lock);
    ls->used -= n < ls->used ? n : ls->used;
    if (ls->lock)
        pthread_mutex_unlock(ls->lock);
}

uint64_t sb_lstore_used(sb_lstore *ls)
{
    if (ls->lock)
        pthread_mutex_lock(ls->lock);
    uint64_t n = ls->used;
    if (ls->lock)
        pthread_mutex_unlock(ls->lock);
    return n;
}

void sb_lstore_remove(sb_lstore *ls, const char *name)
{
    char p[SB_LS_NAME + 300];
    uint64_t b = file_size(ls, name);
    sb_lstore_path(ls, name, p, sizeof p);
    if (!unlink(p))
        sb_lstore_uncharge(ls, b);
}

void sb_lstore_adopt(sb_lstore *ls, const char *name)
{
    sb_lstore_charge(ls, file_size(ls, name), 0);
}

void sb_lstore_close(sb_lstore *ls)
{
    if (ls->own_dir) {
        DIR *d = opendir(ls->dir);
        if (d) {
            struct dirent *e;
            char p[SB_LS_NAME + 300];
            while ((e = readdir(d)) != NULL)
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                    sb_lstore_path(ls, e->d_name, p, sizeof p);
                    unlink(p);
                }
            closedir(d);
        }
        rmdir(ls->dir);
    }
    ls->own_dir = 0;
}

/* ---- writing ---- */

static int put_all(int fd, const unsigned char *b, size_t n, off_t at)
{
    while (n) {
        ssize_t k = at >= 0 ? pwrite(fd, b, n, at) : write(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
        if (at >= 0)
            at += k;
    }
    return 0;
}

/* Write out the buffer, within the store's limit. */
static int drain(sb_lwriter *w, sb_error *err)
{
    sb_lstore *ls = w->ls;
    if (!w->len)
        return 0;
    if (sb_lstore_charge(ls, w->len, 1))
        return sb_error_set(err, SB_ENOMEM, 0, 0,
                            "disk limit exhausted: %llu bytes of levels cannot take %zu more",
                            (unsigned long long)ls->limit, w->len);
    if (put_all(w->fd, w->buf, w->len, -1)) {
        sb_lstore_uncharge(ls, w->len);
        return ioerr(err, ls, w->name, "cannot write");
    }
    sb_sum_add(&w->sum, w->buf, w->len);
    w->bytes += w->len;
    w->len = 0;
    return 0;
}

/* ---- blocks (format 1) ---- */

enum {
    LMAX = 12,  /* the longest code, in bits */
    LB = 7,     /* bits of a decoding table's direct lookup; longer codes are found length by length */
    BLOCK = 4096,
    NOLUT = 31, /* a lookup entry for a code longer than LB, or a table not used */
};

struct sb_lpack {
    int kw, P, T;             /* key words; nibbles in a key; tables: 0 for h, 1..P increases, P+1..2P nibbles */
    size_t B, bytes;          /* keys in a block at most; bytes of this allocation */
    /* writing */
    uint64_t *keys;           /* the block being gathered, m keys */
    size_t m;
    uint32_t *freq;           /* per table, per symbol (at base(t)) */
    uint32_t *code;           /* canonical codes, bit-reversed for the stream, | length << 16 */
    uint16_t *hs;             /* h of each key of the block */
    unsigned char *len;       /* code lengths (reading too) */
    uint64_t *srt, *wt;       /* the Huffman builder's scratch */
    int *par;
    uint64_t acc;             /* bits not yet in a byte (both ways) */
    int nb;
    /* reading */
    uint16_t *lut;            /* per table 2^LB entries: symbol << 5 | length, NOLUT for a longer code */
    uint16_t *cnt;            /* per table, codes of each length 0..LMAX */
    uint16_t *sorted;         /* per table, its symbols in code order */
    int *single;              /* per table: its only symbol (coded in no bits), -1 several, -2 unused */
    size_t left;              /* keys left in the block being read */
    int pad;                  /* zero bits read past the end of the body */
};

static size_t alpha(const sb_lpack *k, int t)
{
    return t ? 16 : (size_t)k->P + 1;
}

static size_t base(const sb_lpack *k, int t)
{
    return t ? (size_t)k->P + 1 + 16 * (size_t)(t - 1) : 0;
}

static size_t block_keys(int kw)
{
    size_t b = BLOCK / (size_t)kw;
    return b < 256 ? 256 : b;
}

/* Lay out the arrays of a writer or a reader after the struct (at p, or
 * nowhere when p is NULL); returns the bytes. */
static size_t carve(sb_lpack *k, unsigned char *p, int writer)
{
    size_t at = (sizeof *k + 7) & ~(size_t)7, A = 33 * (size_t)k->P + 1, T = (size_t)k->T, P1 = (size_t)k->P + 1;
#define TAKE(ptr, n)                                                                                         \
    do {                                                                                                     \
        if (p)                                                                                               \
            (ptr) = (void *)(p + at);                                                                        \
        at = (at + (n) + 7) & ~(size_t)7;                                                                    \
    } while (0)
    TAKE(k->len, A);
    if (writer) {
        TAKE(k->keys, k->B * (size_t)k->kw * 8);
        TAKE(k->freq, A * 4);
        TAKE(k->code, A * 4);
        TAKE(k->hs, k->B * 2);
        TAKE(k->srt, P1 * 8);
        TAKE(k->wt, 2 * P1 * 8);
        TAKE(k->par, 2 * P1 * sizeof(int));
    } else {
        TAKE(k->lut, (T << LB) * 2);
        TAKE(k->cnt, T * (LMAX + 1) * 2);
        TAKE(k->sorted, A * 2);
        TAKE(k->single, T * sizeof(int));
    }
#undef TAKE
    return at;
}

static void shape(sb_lpack *k, int kw)
{
    memset(k, 0, sizeof *k);
    k->kw = kw;
    k->P = 16 * kw;
    k->T = 2 * k->P + 1;
    k->B = block_keys(kw);
}

/* A packed reader or writer must not take much more than its buffer:
 * with small budgets (tiny buffers) the gap code is used instead. */
size_t sb_lstore_packed_extra(const sb_lstore *ls)
{
    sb_lpack k;
    shape(&k, ls->kw);
    size_t w = carve(&k, NULL, 1), r = carve(&k, NULL, 0), x = w > r ? w : r;
    return x <= 4 * ls->iob ? x : 0;
}

static sb_lpack *pack_new(const sb_lstore *ls, int writer, sb_error *err)
{
    sb_lpack k;
    shape(&k, ls->kw);
    size_t n = carve(&k, NULL, writer);
    unsigned char *p = sb_mem_alloc(ls->mem, n, err);
    if (!p)
        return NULL;
    carve(&k, p, writer);
    k.bytes = n;
    memcpy(p, &k, sizeof k);
    return (sb_lpack *)(void *)p;
}

static void pack_free(const sb_lstore *ls, sb_lpack **k)
{
    if (*k)
        sb_mem_free(ls->mem, *k, (*k)->bytes);
    *k = NULL;
}

static inline unsigned nib(const uint64_t *key, int q)
{
    return (unsigned)(key[q >> 4] >> (4 * (q & 15))) & 15;
}

/* The highest nibble in which a and b differ (they do). */
static inline int top_nib(const uint64_t *a, const uint64_t *b, int kw)
{
    int j = kw - 1;
    while (j > 0 && a[j] == b[j])
        j--;
    return 16 * j + (63 - __builtin_clzll((a[j] ^ b[j]) | 1)) / 4;
}

/* Sort a[0..n), n at most 17 (an alphabet): insertion, which at this
 * size takes a tenth of qsort's time, and a block sorts 33 of them. */
static void sort_small(uint64_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t v = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

/* Huffman code lengths, at most LMAX, for the A counts f into len (0 for
 * symbols not there and for a lone symbol).  Lengths over LMAX (counts
 * like Fibonacci numbers) are cured by halving the counts and building
 * again. */
static void huff_lengths(sb_lpack *k, const uint32_t *f, size_t A, unsigned char *len)
{
    size_t m = 0;
    for (size_t s = 0; s < A; s++)
        len[s] = 0;
    for (size_t s = 0; s < A; s++)
        if (f[s])
            k->srt[m++] = s;
    if (m < 2)
        return;
    for (int shift = 0;; shift++) {
        for (size_t i = 0; i < m; i++) {
            size_t s = k->srt[i] & 0xffff;
            k->srt[i] = (((uint64_t)f[s] - 1) >> shift) + 1;
            k->srt[i] = k->srt[i] << 16 | s;
        }
        sort_small(k->srt, m);
        /* two queues: the leaves in order, the joined nodes in the order made */
        uint64_t *w = k->wt;
        int *par = k->par;
        for (size_t i = 0; i < m; i++)
            w[i] = k->srt[i] >> 16;
        size_t li = 0, ji = m, next = m;
        while (next < 2 * m - 1) {
            size_t ab[2];
            for (int c = 0; c < 2; c++)
                ab[c] = li < m && (ji == next || w[li] <= w[ji]) ? li++ : ji++;
            w[next] = w[ab[0]] + w[ab[1]];
            par[ab[0]] = par[ab[1]] = (int)next;
            next++;
        }
        w[2 * m - 2] = 0; /* now depths: a parent comes after its children */
        uint64_t most = 0;
        for (size_t i = 2 * m - 2; i-- > 0;) {
            w[i] = w[par[i]] + 1;
            if (i < m && w[i] > most)
                most = w[i];
        }
        if (most <= LMAX) {
            for (size_t i = 0; i < m; i++)
                len[k->srt[i] & 0xffff] = (unsigned char)w[i];
            return;
        }
    }
}

static inline unsigned reverse(unsigned c, int n)
{
    unsigned r = 0;
    for (int i = 0; i < n; i++, c >>= 1)
        r = r << 1 | (c & 1);
    return r;
}

/* Canonical codes from lengths (deflate's rule): shorter codes first,
 * and in one length, the smaller symbol first. */
static void canon(const unsigned char *len, size_t A, uint32_t *code)
{
    unsigned count[LMAX + 2] = {0}, next[LMAX + 2] = {0};
    for (size_t s = 0; s < A; s++)
        count[len[s]]++;
    count[0] = 0;
    for (int l = 1; l <= LMAX; l++)
        next[l] = (next[l - 1] + count[l - 1]) << 1;
    for (size_t s = 0; s < A; s++)
        code[s] = len[s] ? reverse(next[len[s]]++, len[s]) | (uint32_t)len[s] << 16 : 0;
}

/* Bits out, least significant first, in whole words into the writer's
 * buffer.  The writer's fields are copied into a bitout on the stack
 * while a block is coded, so that they stay in registers (stores into
 * the buffer could otherwise be the writer's own fields, for all the
 * compiler knows). */
typedef struct bitout {
    unsigned char *buf;
    size_t len;
    uint64_t acc;
    int nb;
} bitout;

static void bo_save(const bitout *o, sb_lwriter *w)
{
    w->len = o->len;
    w->pk->acc = o->acc;
    w->pk->nb = o->nb;
}

/* Make room for n bytes, draining the buffer to the file if need be. */
static int bo_room(bitout *o, sb_lwriter *w, size_t n, sb_error *err)
{
    if (o->len + n + 8 <= w->ls->iob)
        return 0;
    bo_save(o, w);
    int rc = drain(w, err);
    o->len = w->len;
    return rc;
}

static inline void bput(bitout *o, unsigned v, int n)
{
    o->acc |= (uint64_t)v << o->nb;
    o->nb += n;
    if (o->nb >= 32) {
        sb_le_put32(o->buf + o->len, (uint32_t)o->acc);
        o->len += 4;
        o->acc >>= 32;
        o->nb -= 32;
    }
}

/* a symbol: its code and length in one word */
static inline void cput(bitout *o, uint32_t c)
{
    bput(o, c & 0xffff, (int)(c >> 16));
}

/* Code the keys gathered (prev: the key before the block, NULL for the
 * first block of a file). */
static int put_block(sb_lwriter *w, const uint64_t *prev, sb_error *err)
{
    sb_lpack *k = w->pk;
    int kw = k->kw, P = k->P, rc;
    size_t A = 33 * (size_t)P + 1;
    memset(k->freq, 0, A * sizeof *k->freq);
    for (size_t i = 0; i < k->m; i++) {
        const uint64_t *key = k->keys + i * (size_t)kw, *pk = i ? key - kw : prev;
        int h = pk ? top_nib(key, pk, kw) : P;
        k->hs[i] = (uint16_t)h;
        k->freq[h]++;
        if (h < P)
            k->freq[base(k, 1 + h) + nib(key, h) - nib(pk, h) - 1]++;
        for (int q = h - 1; q >= 0; q--)
            k->freq[base(k, 1 + P + q) + nib(key, q)]++;
    }
    bitout o = {w->buf, w->len, k->acc, k->nb};
    if ((rc = bo_room(&o, w, 2, err)))
        return rc;
    bput(&o, (unsigned)(k->m - 1), 12);
    for (int t = 0; t < k->T; t++) {
        size_t a = alpha(k, t), b = base(k, t), used = 0;
        for (size_t s = 0; s < a; s++)
            used += k->freq[b + s] != 0;
        if ((rc = bo_room(&o, w, (1 + 5 * a) / 8 + 1, err)))
            return rc;
        bput(&o, used != 0, 1);
        if (!used)
            continue;
        huff_lengths(k, k->freq + b, a, k->len + b);
        canon(k->len + b, a, k->code + b);
        for (size_t s = 0; s < a; s++) {
            bput(&o, k->freq[b + s] != 0, 1);
            if (k->freq[b + s])
                bput(&o, k->len[b + s], 4);
        }
    }
    size_t most = ((size_t)(P + 1) * LMAX + 7) / 8 + 1;
    const uint32_t *c = k->code + base(k, 1 + P);
    for (size_t i = 0; i < k->m; i++) {
        const uint64_t *key = k->keys + i * (size_t)kw, *pk = i ? key - kw : prev;
        if ((rc = bo_room(&o, w, most, err)))
            return rc;
        int h = k->hs[i];
        cput(&o, k->code[h]);
        if (h < P)
            cput(&o, k->code[base(k, 1 + h) + nib(key, h) - nib(pk, h) - 1]);
        for (int q = h - 1; q >= 0; q--)
            cput(&o, c[16 * q + nib(key, q)]);
    }
    bo_save(&o, w);
    return 0;
}

/* The bits left, to whole bytes (the end of the file). */
static int bflush(sb_lwriter *w, sb_error *err)
{
    sb_lpack *k = w->pk;
    bitout o = {w->buf, w->len, k->acc, k->nb};
    int rc = bo_room(&o, w, 8, err);
    for (; !rc && o.nb > 0; o.nb -= 8) {
        o.buf[o.len++] = (unsigned char)o.acc;
        o.acc >>= 8;
    }
    o.nb = 0;
    bo_save(&o, w);
    return rc;
}

/* The block gathered so far, coded after the one before it. */
static int flush_block(sb_lwriter *w, sb_error *err)
{
    sb_lpack *k = w->pk;
    if (!k->m)
        return 0;
    int rc = put_block(w, w->n > k->m ? w->prev : NULL, err);
    memcpy(w->prev, k->keys + (k->m - 1) * (size_t)k->kw, sizeof *w->prev * (size_t)k->kw);
    k->m = 0;
    return rc;
}

int sb_lwriter_open(sb_lwriter *w, sb_lstore *ls, const char *name, sb_error *err)
{
    char p[SB_LS_NAME + 300];
    memset(w, 0, sizeof *w);
    w->ls = ls;
    w->fd = -1;
    snprintf(w->name, sizeof w->name, "%s", name);
    sb_lstore_remove(ls, name);
    if (!(w->buf = sb_mem_alloc(ls->mem, ls->iob, err)))
        return SB_ENOMEM;
    sb_lstore_path(ls, name, p, sizeof p);
    w->fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (w->fd < 0) {
        int rc = ioerr(err, ls, name, "cannot create");
        sb_mem_free(ls->mem, w->buf, ls->iob);
        w->buf = NULL;
        return rc;
    }
    unsigned char h[SB_LS_HEADER] = {0};
    if (put_all(w->fd, h, sizeof h, -1)) {
        int rc = ioerr(err, ls, name, "cannot write");
        sb_lwriter_abort(w);
        return rc;
    }
    sb_lstore_charge(ls, SB_LS_HEADER, 0);
    sb_sum_init(&w->sum);
    return 0;
}

int sb_lwriter_open_packed(sb_lwriter *w, sb_lstore *ls, const char *name, sb_error *err)
{
    int rc = sb_lwriter_open(w, ls, name, err);
    if (rc || !sb_lstore_packed_extra(ls))
        return rc;
    if (!(w->pk = pack_new(ls, 1, err))) {
        sb_lwriter_abort(w);
        return SB_ENOMEM;
    }
    return 0;
}

static inline unsigned char *leb(unsigned char *o, uint64_t v)
{
    while (v >= 0x80) {
        *o++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *o++ = (unsigned char)v;
    return o;
}

int sb_lwriter_put(sb_lwriter *w, const uint64_t *key, sb_error *err)
{
    int kw = w->ls->kw;
    sb_lpack *k = w->pk;
    if (k) {
        uint64_t *o = k->keys + k->m * (size_t)kw;
        const uint64_t *last = k->m ? o - kw : w->n ? w->prev : NULL;
        if (last && sb_key_cmp(key, last, kw) <= 0)
            return sb_error_set(err, SB_EINTERNAL, 0, 0, "keys written out of order to %s", w->name);
        memcpy(o, key, sizeof *key * (size_t)kw);
        w->n++;
        return ++k->m == k->B ? flush_block(w, err) : 0;
    }
    /* a key takes at most 10 bytes a word and 5 for j */
    if (w->len + 10 * (size_t)kw + 5 > w->ls->iob) {
        int rc = drain(w, err);
        if (rc)
            return rc;
    }
    unsigned char *o = w->buf + w->len;
    if (kw == 1) {
        o = leb(o, w->n ? key[0] - w->prev[0] - 1 : key[0]);
        w->prev[0] = key[0];
    } else {
        int j = kw - 1;
        if (w->n)
            while (j > 0 && key[j] == w->prev[j])
                j--;
        o = leb(o, (uint64_t)j);
        o = leb(o, w->n ? key[j] - w->prev[j] - 1 : key[j]);
        for (int i = j - 1; i >= 0; i--)
            o = leb(o, key[i]);
        memcpy(w->prev, key, sizeof *key * (size_t)kw);
    }
    w->len = (size_t)(o - w->buf);
    w->n++;
    return 0;
}

void sb_lwriter_abort(sb_lwriter *w)
{
    if (w->fd >= 0) {
        close(w->fd);
        w->fd = -1;
        sb_lstore_remove(w->ls, w->name);
    }
    if (w->buf)
        sb_mem_free(w->ls->mem, w->buf, w->ls->iob);
    w->buf = NULL;
    pack_free(w->ls, &w->pk);
}

int sb_lwriter_close(sb_lwriter *w, sb_error *err)
{
    int rc = 0;
    if (w->pk && !(rc = flush_block(w, err)))
        rc = bflush(w, err);
    if (!rc)
        rc = drain(w, err);
    if (rc) {
        sb_lwriter_abort(w);
        return rc;
    }
    unsigned char h[SB_LS_HEADER] = {0};
    memcpy(h, magic, 8);
    sb_le_put32(h + 8, (uint32_t)w->ls->kw);
    sb_le_put32(h + 12, w->pk != NULL);
    sb_le_put64(h + 16, w->n);
    sb_le_put64(h + 24, w->bytes);
    w->check = sb_sum_end(&w->sum);
    sb_le_put64(h + 32, w->check);
    /* the header last: a file cut short has a zero header, and one whose
     * header reached the disk before its data fails its checksum; with
     * sync the file is on the disk before anything (a checkpoint) names it */
    if (put_all(w->fd, h, sizeof h, 0) || (w->ls->sync && fdatasync(w->fd))) {
        rc = ioerr(err, w->ls, w->name, "cannot write");
        sb_lwriter_abort(w);
        return rc;
    }
    close(w->fd);
    w->fd = -1;
    sb_mem_free(w->ls->mem, w->buf, w->ls->iob);
    w->buf = NULL;
    pack_free(w->ls, &w->pk);
    return 0;
}

/* ---- reading ---- */

static int refill(sb_lreader *r, sb_error *err)
{
    size_t keep = r->len - r->pos;
    memmove(r->buf, r->buf + r->pos, keep);
    r->len = keep;
    r->pos = 0;
    uint64_t rest = r->body - r->got;
    size_t want = r->ls->iob - keep;
    if (want > rest)
        want = (size_t)rest;
    while (want) {
        ssize_t k = read(r->fd, r->buf + r->len, want);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return ioerr(err, r->ls, r->name, "cannot read");
        if (k == 0)
            return sb_error_set(err, SB_EBADFILE, 0, 0, "%s/%s is cut short", r->ls->dir, r->name);
        sb_sum_add(&r->sum, r->buf + r->len, (size_t)k);
        r->len += (size_t)k;
        r->got += (uint64_t)k;
        want -= (size_t)k;
    }
    return 0;
}

static int damaged(sb_lreader *r, sb_error *err, const char *why)
{
    return sb_error_set(err, SB_EBADFILE, 0, 0, "%s/%s is damaged: %s", r->ls->dir, r->name, why);
}

/* ---- reading blocks ---- */

/* At least 57 bits in acc: bytes of the body, then zeros past its end
 * (counted in pad, so that reading into them is seen). */
static int pull(sb_lreader *r, sb_error *err)
{
    sb_lpack *k = r->pk;
    while (k->nb <= 56) {
        if (r->pos == r->len) {
            if (r->got < r->body) {
                int rc = refill(r, err);
                if (rc)
                    return rc;
                continue;
            }
            k->nb += 8;
            k->pad += 8;
            continue;
        }
        if (r->len - r->pos >= 8 && k->nb < 56) {
            k->acc |= sb_le_get64(r->buf + r->pos) << k->nb;
            r->pos += (size_t)(63 - k->nb) >> 3;
            k->nb |= 56;
            continue;
        }
        k->acc |= (uint64_t)r->buf[r->pos++] << k->nb;
        k->nb += 8;
    }
    return 0;
}

static inline void skip(sb_lpack *k, int n)
{
    k->acc >>= n;
    k->nb -= n;
}

/* n <= 16 bits of the stream */
static int bits(sb_lreader *r, int n, unsigned *v, sb_error *err)
{
    sb_lpack *k = r->pk;
    int rc = k->nb < n ? pull(r, err) : 0;
    *v = (unsigned)(k->acc & ((1u << n) - 1));
    skip(k, n);
    return rc;
}

/* A code longer than LB bits, found length by length (canonical codes:
 * the first code of each length follows from the counts). */
static int slow_sym(sb_lreader *r, int t, sb_error *err)
{
    sb_lpack *k = r->pk;
    if (k->single[t] == -2)
        return damaged(r, err, "a key uses a code the block does not have");
    const uint16_t *c = k->cnt + (size_t)t * (LMAX + 1), *so = k->sorted + base(k, t);
    unsigned code = 0, first = 0, idx = 0;
    for (int l = 1; l <= LMAX; l++) {
        code |= (unsigned)(k->acc >> (l - 1)) & 1;
        if (code - first < c[l]) {
            skip(k, l);
            return so[idx + code - first];
        }
        idx += c[l];
        first = (first + c[l]) << 1;
        code <<= 1;
    }
    return damaged(r, err, "a code the block does not have");
}

/* The next symbol of table t: >= 0, or an SB_E* code. */
static inline int sym(sb_lreader *r, int t, sb_error *err)
{
    sb_lpack *k = r->pk;
    if (k->nb < LMAX) {
        int rc = pull(r, err);
        if (rc)
            return rc;
    }
    unsigned e = k->lut[((size_t)t << LB) | (k->acc & ((1u << LB) - 1))];
    if (e == NOLUT)
        return slow_sym(r, t, err);
    skip(k, (int)(e & 31));
    return (int)(e >> 5);
}

/* The head of a block: its size and its tables, checked complete. */
static int get_block(sb_lreader *r, sb_error *err)
{
    sb_lpack *k = r->pk;
    unsigned v;
    int rc = bits(r, 12, &v, err);
    if (rc)
        return rc;
    if (v + 1 > r->left)
        return damaged(r, err, "a block of more keys than are left");
    k->left = v + 1;
    for (int t = 0; t < k->T && !rc; t++) {
        size_t a = alpha(k, t), b = base(k, t), n = 0;
        unsigned char *len = k->len + b;
        uint16_t *lut = k->lut + ((size_t)t << LB);
        if ((rc = bits(r, 1, &v, err)))
            break;
        if (!v) {
            k->single[t] = -2;
            for (unsigned i = 0; i < 1u << LB; i++)
                lut[i] = NOLUT;
            continue;
        }
        uint32_t kraft = 0, zeros = 0;
        uint16_t *c = k->cnt + (size_t)t * (LMAX + 1);
        memset(c, 0, (LMAX + 1) * sizeof *c);
        for (size_t s = 0; s < a && !rc; s++) {
            len[s] = 0;
            if ((rc = bits(r, 1, &v, err)) || !v)
                continue;
            if ((rc = bits(r, 4, &v, err)))
                break;
            if (v > LMAX)
                return damaged(r, err, "a code longer than allowed");
            len[s] = (unsigned char)(v ? v : 0xff);
            if (v)
                kraft += 1u << (LMAX - v), c[v]++;
            else
                zeros++;
            k->single[t] = (int)s;
            n++;
        }
        if (rc)
            break;
        if (n == 1 && len[k->single[t]] == 0xff) {
            len[k->single[t]] = 0;
            for (unsigned i = 0; i < 1u << LB; i++)
                lut[i] = (uint16_t)(k->single[t] << 5);
            continue;
        }
        if (kraft != 1u << LMAX || zeros || n < 2)
            return damaged(r, err, "a block's code is not complete");
        k->single[t] = -1;
        /* symbols in code order; the direct lookup for codes of LB bits or fewer */
        uint16_t *so = k->sorted + b;
        unsigned at[LMAX + 2], next[LMAX + 2];
        at[1] = 0;
        next[1] = 0;
        for (int l = 2; l <= LMAX; l++) {
            at[l] = at[l - 1] + c[l - 1];
            next[l] = (next[l - 1] + c[l - 1]) << 1;
        }
        for (unsigned i = 0; i < 1u << LB; i++)
            lut[i] = NOLUT;
        for (size_t s = 0; s < a; s++) {
            int l = len[s];
            if (!l)
                continue;
            so[at[l]++] = (uint16_t)s;
            unsigned code = reverse(next[l]++, l);
            if (l <= LB)
                for (unsigned i = code; i < 1u << LB; i += 1u << l)
                    lut[i] = (uint16_t)(s << 5 | (unsigned)l);
        }
    }
    return rc;
}

/* The next key of a packed file into r->key. */
static int get_packed(sb_lreader *r, sb_error *err)
{
    sb_lpack *k = r->pk;
    int rc, P = k->P, first = r->left == r->n;
    if (!k->left && (rc = get_block(r, err)))
        return rc;
    int h = sym(r, 0, err);
    if (h < 0)
        return h;
    if ((h == P) != first)
        return damaged(r, err, "a key not after the one before");
    uint64_t *key = r->key;
    if (h < P) {
        int d = sym(r, 1 + h, err), sh = 4 * (h & 15), j = h >> 4;
        if (d < 0)
            return d;
        uint64_t v = ((key[j] >> sh) & 15) + (unsigned)d + 1;
        if (v > 15)
            return damaged(r, err, "a key not after the one before");
        key[j] = (sh + 4 < 64 ? key[j] >> (sh + 4) << (sh + 4) : 0) | v << sh;
    } else {
        memset(key, 0, sizeof *key * (size_t)k->kw);
    }
    for (int q = h - 1; q >= 0; q--) {
        int v = sym(r, 1 + P + q, err);
        if (v < 0)
            return v;
        if ((q & 15) == 15)
            key[q >> 4] = 0;
        key[q >> 4] |= (uint64_t)v << (4 * (q & 15));
    }
    k->left--;
    return 1;
}

/* get_packed for up to max keys into out, with the stream's bit buffer
 * in locals (kept in registers, where k->acc, which the stores of keys
 * may alias, is not): the count, or an SB_E* code. */
static int get_packed_many(sb_lreader *r, uint64_t *out, size_t max, sb_error *err)
{
    sb_lpack *k = r->pk;
    const int P = k->P, kw = k->kw;
    const uint16_t *lut = k->lut;
    uint64_t key[SB_SEARCH_MAXKW], acc = k->acc;
    int nb = k->nb, rc = 0;
    size_t n = 0;
    memcpy(key, r->key, sizeof key);
#define SAVE() (k->acc = acc, k->nb = nb)
#define LOAD() (acc = k->acc, nb = k->nb)
#define SYM(t, v)                                                                                          \
    do {                                                                                                   \
        if (nb < LMAX) {                                                                                   \
            SAVE();                                                                                        \
            if ((rc = pull(r, err)) != 0)                                                                  \
                goto out;                                                                                  \
            LOAD();                                                                                        \
        }                                                                                                  \
        unsigned e_ = lut[((size_t)(t) << LB) | (acc & ((1u << LB) - 1))];                                 \
        if (e_ == NOLUT) {                                                                                 \
            SAVE();                                                                                        \
            int s_ = slow_sym(r, (t), err);                                                                \
            LOAD();                                                                                        \
            if (s_ < 0) {                                                                                  \
                rc = s_;                                                                                   \
                goto out;                                                                                  \
            }                                                                                              \
            v = s_;                                                                                        \
        } else {                                                                                           \
            acc >>= e_ & 31;                                                                               \
            nb -= (int)(e_ & 31);                                                                          \
            v = (int)(e_ >> 5);                                                                            \
        }                                                                                                  \
    } while (0)
    while (n < max && r->left) {
        if (!k->left) {
            SAVE();
            if ((rc = get_block(r, err)) != 0)
                goto out;
            LOAD();
        }
        int first = r->left == r->n, h, v;
        SYM(0, h);
        if ((h == P) != first) {
            rc = damaged(r, err, "a key not after the one before");
            goto out;
        }
        if (h < P) {
            int d, sh = 4 * (h & 15), j = h >> 4;
            SYM(1 + h, d);
            uint64_t x = ((key[j] >> sh) & 15) + (unsigned)d + 1;
            if (x > 15) {
                rc = damaged(r, err, "a key not after the one before");
                goto out;
            }
            key[j] = (sh + 4 < 64 ? key[j] >> (sh + 4) << (sh + 4) : 0) | x << sh;
        } else {
            memset(key, 0, sizeof *key * (size_t)kw);
        }
        for (int q = h - 1; q >= 0; q--) {
            SYM(1 + P + q, v);
            if ((q & 15) == 15)
                key[q >> 4] = 0;
            key[q >> 4] |= (uint64_t)v << (4 * (q & 15));
        }
        memcpy(out + n * (size_t)kw, key, sizeof *key * (size_t)kw);
        n++;
        k->left--;
        r->left--;
    }
out:
    SAVE();
#undef SYM
#undef LOAD
#undef SAVE
    memcpy(r->key, key, sizeof key);
    return rc ? rc : (int)n;
}

int sb_lreader_many(sb_lreader *r, uint64_t *keys, size_t max, sb_error *err)
{
    if (max > SB_LREADER_MANY)
        max = SB_LREADER_MANY;
    if (!r->left || !max)
        return r->left ? 0 : sb_lreader_next(r, err);
    if (r->pk)
        return get_packed_many(r, keys, max, err);
    size_t n = 0;
    for (; n < max; n++) {
        int rc = sb_lreader_next(r, err);
        if (rc <= 0)
            return rc < 0 ? rc : (int)n;
        memcpy(keys + n * (size_t)r->ls->kw, r->key, sizeof *keys * (size_t)r->ls->kw);
    }
    return (int)n;
}

/* Open file `name` of ls on r and check its header, which is left in h:
 * no buffer is taken yet, so a look at the header costs no memory. */
static int open_header(sb_lreader *r, sb_lstore *ls, const char *name, unsigned char *h, sb_error *err)
{
    char p[SB_LS_NAME + 300];
    memset(r, 0, sizeof *r);
    r->ls = ls;
    snprintf(r->name, sizeof r->name, "%s", name);
    sb_lstore_path(ls, name, p, sizeof p);
    r->fd = open(p, O_RDONLY);
    if (r->fd < 0)
        return ioerr(err, ls, name, "cannot open");
    ssize_t k = read(r->fd, h, SB_LS_HEADER);
    struct stat st;
    int rc = 0;
    if (k != (ssize_t)SB_LS_HEADER || memcmp(h, magic, 8))
        rc = damaged(r, err, "not a file of sorted keys, or not finished");
    else if (sb_le_get32(h + 8) != (uint32_t)ls->kw)
        rc = damaged(r, err, "keys of another width");
    else if (sb_le_get32(h + 12) > 1)
        rc = damaged(r, err, "keys in a code this version does not know");
    else if (fstat(r->fd, &st) || (uint64_t)st.st_size != SB_LS_HEADER + sb_le_get64(h + 24))
        rc = damaged(r, err, "its size does not match its header");
    if (rc)
        sb_lreader_close(r);
    return rc;
}

int sb_lreader_open(sb_lreader *r, sb_lstore *ls, const char *name, uint64_t *n, sb_error *err)
{
    unsigned char h[SB_LS_HEADER];
    int rc = open_header(r, ls, name, h, err);
    if (rc)
        return rc;
    if (!(r->buf = sb_mem_alloc(ls->mem, ls->iob, err)))
        rc = SB_ENOMEM;
    if (!rc && sb_le_get32(h + 12) == 1 && !(r->pk = pack_new(ls, 0, err)))
        rc = SB_ENOMEM;
    if (rc) {
        sb_lreader_close(r);
        return rc;
    }
    r->n = r->left = sb_le_get64(h + 16);
    r->body = sb_le_get64(h + 24);
    r->want = sb_le_get64(h + 32);
    sb_sum_init(&r->sum);
    if (n)
        *n = r->n;
    return 0;
}

static inline int get(sb_lreader *r, uint64_t *v)
{
    uint64_t x = 0;
    for (int s = 0; s < 70; s += 7) {
        if (r->pos == r->len)
            return -1;
        unsigned char b = r->buf[r->pos++];
        x |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

int sb_lreader_next(sb_lreader *r, sb_error *err)
{
    int kw = r->ls->kw;
    sb_lpack *k = r->pk;
    if (!r->left) {
        uint64_t rest = r->body - r->got + (r->len - r->pos);
        if (k ? k->pad > k->nb || (uint64_t)(k->nb - k->pad) + 8 * rest >= 8 : rest != 0)
            return damaged(r, err, "bytes past the last key");
        if (sb_sum_end(&r->sum) != r->want)
            return damaged(r, err, "checksum mismatch");
        return 0;
    }
    if (k) {
        int rc = get_packed(r, err);
        r->left -= rc == 1;
        return rc;
    }
    if (r->len - r->pos < 10 * (size_t)kw + 5 && r->got < r->body) {
        int rc = refill(r, err);
        if (rc)
            return rc;
    }
    int first = r->left == r->n;
    uint64_t v;
    if (kw == 1) {
        if (get(r, &v))
            return damaged(r, err, "a key is cut short");
        r->key[0] = first ? v : r->key[0] + v + 1;
    } else {
        uint64_t j;
        if (get(r, &j) || j >= (uint64_t)kw || get(r, &v))
            return damaged(r, err, "a key is cut short or malformed");
        if (first)
            memset(r->key, 0, sizeof r->key);
        r->key[j] = first ? v : r->key[j] + v + 1;
        for (int i = (int)j - 1; i >= 0; i--)
            if (get(r, &r->key[i]))
                return damaged(r, err, "a key is cut short");
    }
    r->left--;
    return 1;
}

void sb_lreader_close(sb_lreader *r)
{
    if (r->fd >= 0)
        close(r->fd);
    r->fd = -1;
    if (r->buf)
        sb_mem_free(r->ls->mem, r->buf, r->ls->iob);
    r->buf = NULL;
    pack_free(r->ls, &r->pk);
}

int sb_lstore_check(sb_lstore *ls, const char *name, uint64_t *n, sb_error *err)
{
    sb_lreader r;
    int rc = sb_lreader_open(&r, ls, name, n, err);
    while (rc == 0 && (rc = sb_lreader_next(&r, err)) == 1)
        rc = 0;
    sb_lreader_close(&r);
    return rc;
}

int sb_lstore_header(sb_lstore *ls, const char *name, uint64_t *n, uint64_t *check, sb_error *err)
{
    sb_lreader r;
    unsigned char h[SB_LS_HEADER];
    int rc = open_header(&r, ls, name, h, err);
    if (rc)
        return rc;
    if (n)
        *n = sb_le_get64(h + 16);
    if (check)
        *check = sb_le_get64(h + 32);
    sb_lreader_close(&r);
    return 0;
}
