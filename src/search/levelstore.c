/* Sorted key files on disk (levelstore.h).
 *
 * Why delta coding is enough.  Keys of one level are a sparse subset of a
 * large range, but they are sorted, so what a file must say about a key is
 * only how far it is from the one before.  A level of n keys spread over a
 * range of R values has gaps of R/n on average, and a gap g costs
 * ceil(bits(g)/7) bytes: under 2^14 (16384) two bytes, under 128 one.
 * Sliding-block keys pack the pieces' places so that configurations that
 * differ in the last pieces are near each other in the order, and a level
 * holds many of those, so most gaps are small (measured in
 * docs/ALGORITHMS.md).  A general compressor would squeeze out more, at
 * the cost of a dependency and of speed; LEB128 decodes at a few
 * nanoseconds a key, and the merge that reads it is bound by the disk
 * anyway. */
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

void sb_lstore_remove(sb_lstore *ls, const char *name)
{
    char p[SB_LS_NAME + 300];
    uint64_t b = file_size(ls, name);
    sb_lstore_path(ls, name, p, sizeof p);
    if (!unlink(p))
        ls->used -= b < ls->used ? b : ls->used;
}

void sb_lstore_adopt(sb_lstore *ls, const char *name)
{
    ls->used += file_size(ls, name);
    if (ls->used > ls->peak)
        ls->peak = ls->used;
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
    if (ls->limit && ls->used + w->len > ls->limit)
        return sb_error_set(err, SB_ENOMEM, 0, 0,
                            "disk limit exhausted: %llu bytes of levels cannot take %zu more",
                            (unsigned long long)ls->limit, w->len);
    if (put_all(w->fd, w->buf, w->len, -1))
        return ioerr(err, ls, w->name, "cannot write");
    sb_sum_add(&w->sum, w->buf, w->len);
    ls->used += w->len;
    if (ls->used > ls->peak)
        ls->peak = ls->used;
    w->bytes += w->len;
    w->len = 0;
    return 0;
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
    ls->used += SB_LS_HEADER;
    if (ls->used > ls->peak)
        ls->peak = ls->used;
    sb_sum_init(&w->sum);
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
}

int sb_lwriter_close(sb_lwriter *w, sb_error *err)
{
    int rc = drain(w, err);
    if (rc) {
        sb_lwriter_abort(w);
        return rc;
    }
    unsigned char h[SB_LS_HEADER] = {0};
    memcpy(h, magic, 8);
    sb_le_put32(h + 8, (uint32_t)w->ls->kw);
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

int sb_lreader_open(sb_lreader *r, sb_lstore *ls, const char *name, uint64_t *n, sb_error *err)
{
    char p[SB_LS_NAME + 300];
    unsigned char h[SB_LS_HEADER];
    memset(r, 0, sizeof *r);
    r->ls = ls;
    snprintf(r->name, sizeof r->name, "%s", name);
    sb_lstore_path(ls, name, p, sizeof p);
    r->fd = open(p, O_RDONLY);
    if (r->fd < 0)
        return ioerr(err, ls, name, "cannot open");
    ssize_t k = read(r->fd, h, sizeof h);
    struct stat st;
    int rc = 0;
    if (k != (ssize_t)sizeof h || memcmp(h, magic, 8))
        rc = damaged(r, err, "not a file of sorted keys, or not finished");
    else if (sb_le_get32(h + 8) != (uint32_t)ls->kw)
        rc = damaged(r, err, "keys of another width");
    else if (fstat(r->fd, &st) || (uint64_t)st.st_size != SB_LS_HEADER + sb_le_get64(h + 24))
        rc = damaged(r, err, "its size does not match its header");
    if (!rc && !(r->buf = sb_mem_alloc(ls->mem, ls->iob, err)))
        rc = SB_ENOMEM;
    if (rc) {
        close(r->fd);
        r->fd = -1;
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
    if (!r->left) {
        if (r->got != r->body || r->pos != r->len)
            return damaged(r, err, "bytes past the last key");
        if (sb_sum_end(&r->sum) != r->want)
            return damaged(r, err, "checksum mismatch");
        return 0;
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
    int rc = sb_lreader_open(&r, ls, name, n, err);
    if (!rc && check)
        *check = r.want;
    sb_lreader_close(&r);
    return rc;
}
