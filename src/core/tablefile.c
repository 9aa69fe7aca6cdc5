/* The table-file container: see tablefile.h for the layout. */
#include "tablefile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#include "hash.h"
#include "le.h"
#include "outfile.h"
#include "internal.h"

static const char magic[8] = {'s', 'b', 'f', 's', 'T', 'A', 'B', '\n'};

/* Data moves in blocks of this many bytes (a multiple of 32 and of 8):
 * large enough that stdio passes them straight through, small enough that
 * a block just read is still in the cache when the checksum reads it. */
#define BLOCK ((size_t)1 << 20)

/* The formats before this container, recognised only to name their
 * version when refusing them: distance tables began "SBFSTBL1" (version 1),
 * pattern databases "sbfsPDB\n" followed by their version (u32). */
static const struct {
    char magic[8];
    const char *kind;
    int version_at; /* offset of the version, or -1: version 1 */
} legacy[] = {
    {{'S', 'B', 'F', 'S', 'T', 'B', 'L', '1'}, "distance", -1},
    {{'s', 'b', 'f', 's', 'P', 'D', 'B', '\n'}, "pdb", 8},
};

/* The kind as the header stores it: 8 bytes, NUL-padded. */
static void kind_field(const sb_tf_kind *k, unsigned char *out)
{
    size_t n = strlen(k->kind);
    memset(out, 0, 8);
    memcpy(out, k->kind, n < 8 ? n : 8);
}

/* n bytes of data into the checksum and the file, converted to
 * little-endian on the way when they are words of another order. */
static int put_data(FILE *f, const void *data, uint64_t bytes, int word, sb_sum *s)
{
    const unsigned char *p = data;
    while (bytes) {
        size_t k = bytes < BLOCK ? (size_t)bytes : BLOCK;
        if (word == 8 && !SB_LE_HOST) {
            unsigned char buf[8 * 4096];
            const uint64_t *w = (const uint64_t *)(const void *)p;
            k = k < sizeof buf ? k : sizeof buf;
            for (size_t i = 0; i < k / 8; i++)
                sb_le_put64(buf + 8 * i, w[i]);
            sb_sum_add(s, buf, k);
            if (fwrite(buf, 1, k, f) != k)
                return 1;
        } else {
            sb_sum_add(s, p, k);
            if (fwrite(p, 1, k, f) != k)
                return 1;
        }
        p += k;
        bytes -= k;
    }
    return 0;
}

int sb_tf_save(const char *path, const sb_tf_kind *k, const unsigned char *params,
               size_t nparams, const void *data, uint64_t bytes, int word, sb_error *err)
{
    unsigned char h[SB_TF_MAXHEADER], tail[8];
    size_t hb = SB_TF_FIXED + nparams + 8;
    sb_outfile o;
    sb_sum s;
    int failed;
    if (nparams > SB_TF_MAXHEADER - SB_TF_FIXED - 8 || (word != 1 && word != 8) || bytes % (unsigned)word)
        return sb_error_set(err, SB_EINTERNAL, 0, 0, "%s: cannot save a table of this shape", path);
    memcpy(h, magic, 8);
    kind_field(k, h + 8);
    sb_le_put32(h + 16, k->version);
    sb_le_put32(h + 20, (uint32_t)hb);
    sb_le_put64(h + 24, bytes);
    if (nparams)
        memcpy(h + SB_TF_FIXED, params, nparams);
    sb_le_put64(h + hb - 8, sb_checksum(h, hb - 8));
    if (sb_outfile_open(&o, path, err))
        return SB_EIO;
    errno = 0;
    sb_sum_init(&s);
    failed = fwrite(h, 1, hb, o.f) != hb || put_data(o.f, data, bytes, word, &s);
    if (!failed) {
        sb_le_put64(tail, sb_sum_end(&s));
        failed = fwrite(tail, 1, 8, o.f) != 8;
    }
    return sb_outfile_close(&o, failed, err);
}

void sb_tf_close(sb_tf_reader *r)
{
    if (r->f)
        fclose(r->f);
    r->f = NULL;
}

int sb_tf_refuse(sb_tf_reader *r, sb_error *err, const char *fmt, ...)
{
    char why[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    sb_tf_close(r);
    return sb_error_set(err, SB_EBADFILE, 0, 0, "%s: %s", r->path, why);
}

/* A read came up short: the file is cut, unless reading itself failed (a
 * directory, a device error), which no checking of the file explains. */
static int short_read(sb_tf_reader *r, sb_error *err, const char *why)
{
    if (ferror(r->f)) {
        int e = errno;
        sb_tf_close(r);
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", r->path, strerror(e));
    }
    return sb_tf_refuse(r, err, "%s", why);
}

static int wrong_version(sb_tf_reader *r, sb_error *err, unsigned long version)
{
    return sb_tf_refuse(r, err, "%s in format version %lu; this sbfs reads only version %lu",
                        r->k->what, version, (unsigned long)r->k->version);
}

int sb_tf_open(sb_tf_reader *r, const char *path, const sb_tf_kind *k, unsigned char *params,
               size_t cap, size_t *nparams, sb_error *err)
{
    unsigned char h[SB_TF_MAXHEADER], want[8];
    char too_short[80], quoted[40];
    size_t n, hb;
    memset(r, 0, sizeof *r);
    r->path = path;
    r->k = k;
    snprintf(too_short, sizeof too_short, "too short for %s", k->what);
    sb_outfile_sweep(path);
    r->f = fopen(path, "rb");
    if (!r->f)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(errno));
    n = fread(h, 1, SB_TF_FIXED, r->f);
    if (n < 8)
        return short_read(r, err, too_short);
    if (memcmp(h, magic, 8) != 0) {
        for (size_t i = 0; i < sizeof legacy / sizeof legacy[0]; i++) {
            int at = legacy[i].version_at;
            if (memcmp(h, legacy[i].magic, 8) != 0 || strcmp(legacy[i].kind, k->kind) != 0)
                continue;
            if (at >= 0 && n < (size_t)at + 4)
                return short_read(r, err, too_short);
            return wrong_version(r, err, at < 0 ? 1 : sb_le_get32(h + at));
        }
        return sb_tf_refuse(r, err, "not %s", k->what);
    }
    if (n < SB_TF_FIXED)
        return short_read(r, err, too_short);
    kind_field(k, want);
    if (memcmp(h + 8, want, 8) != 0)
        return sb_tf_refuse(r, err, "not %s (a table file of kind '%s')", k->what,
                            sb_error_quote(quoted, sizeof quoted, (const char *)h + 8,
                                           strnlen((const char *)h + 8, 8)));
    if (sb_le_get32(h + 16) != k->version)
        return wrong_version(r, err, sb_le_get32(h + 16));
    hb = sb_le_get32(h + 20);
    if (hb < SB_TF_FIXED + 8 || hb - SB_TF_FIXED - 8 > cap)
        return sb_tf_refuse(r, err, "damaged header (a header of %zu bytes)", hb);
    if (fread(h + SB_TF_FIXED, 1, hb - SB_TF_FIXED, r->f) != hb - SB_TF_FIXED)
        return short_read(r, err, too_short);
    if (sb_checksum(h, hb - 8) != sb_le_get64(h + hb - 8))
        return sb_tf_refuse(r, err, "damaged header (checksum mismatch)");
    r->bytes = sb_le_get64(h + 24);
    r->data_at = hb;
    *nparams = hb - SB_TF_FIXED - 8;
    if (*nparams)
        memcpy(params, h + SB_TF_FIXED, *nparams);
    return 0;
}

int sb_tf_read(sb_tf_reader *r, void *data, int word, sb_error *err)
{
    unsigned char *p = data, tail[8];
    uint64_t left = r->bytes;
    sb_sum s;
    sb_sum_init(&s);
    if ((word != 1 && word != 8) || r->bytes % (unsigned)word) {
        sb_tf_close(r);
        return sb_error_set(err, SB_EINTERNAL, 0, 0, "%s: data of %llu bytes in words of %d",
                            r->path, (unsigned long long)r->bytes, word);
    }
    while (left) {
        size_t k = left < BLOCK ? (size_t)left : BLOCK;
        if (fread(p, 1, k, r->f) != k)
            return short_read(r, err, "truncated (the data is cut short)");
        sb_sum_add(&s, p, k);
        if (word == 8 && !SB_LE_HOST)
            for (size_t i = 0; i < k; i += 8) {
                uint64_t w = sb_le_get64(p + i);
                memcpy(p + i, &w, 8);
            }
        p += k;
        left -= k;
    }
    if (fread(tail, 1, 8, r->f) != 8)
        return short_read(r, err, "truncated (the checksum is missing)");
    if (fgetc(r->f) != EOF)
        return sb_tf_refuse(r, err, "longer than its header says");
    if (ferror(r->f))
        return short_read(r, err, "");
    r->sum = sb_sum_end(&s);
    if (r->sum != sb_le_get64(tail))
        return sb_tf_refuse(r, err, "checksum mismatch, the file is damaged");
    sb_tf_close(r);
    return 0;
}

/* ---- mapping (see tablefile.h) ---- */

/* The marker's text for a file in state st with data checksum sum. */
static void marker_text(const struct stat *st, uint64_t sum, char *buf, size_t n)
{
    snprintf(buf, n, "sbfs verified\n%ju %ju %jd %jd.%09ld %jd.%09ld %016llx\n",
             (uintmax_t)st->st_dev, (uintmax_t)st->st_ino, (intmax_t)st->st_size,
             (intmax_t)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec, (intmax_t)st->st_ctim.tv_sec,
             (long)st->st_ctim.tv_nsec, (unsigned long long)sum);
}

static int marker_path(const char *path, char *buf, size_t n)
{
    return snprintf(buf, n, "%s.ok", path) < (int)n ? 0 : -1;
}

static int write_marker(const char *path, const struct stat *st, uint64_t sum)
{
    char mp[4200], text[200];
    sb_outfile o;
    size_t len;
    if (marker_path(path, mp, sizeof mp) || sb_outfile_open(&o, mp, NULL))
        return -1;
    marker_text(st, sum, text, sizeof text);
    len = strlen(text);
    return sb_outfile_close(&o, fwrite(text, 1, len, o.f) != len, NULL) ? -1 : 0;
}

/* 1 when PATH.ok describes the file in state st with checksum sum. */
static int marker_matches(const char *path, const struct stat *st, uint64_t sum)
{
    char mp[4200], want[200], got[200];
    size_t n;
    FILE *f;
    if (marker_path(path, mp, sizeof mp) || !(f = fopen(mp, "rb")))
        return 0;
    n = fread(got, 1, sizeof got - 1, f);
    fclose(f);
    got[n] = 0;
    marker_text(st, sum, want, sizeof want);
    return strcmp(got, want) == 0;
}

void sb_tf_unmap(sb_tf_map *m)
{
    if (m && m->base)
        munmap(m->base, m->len);
    if (m)
        memset(m, 0, sizeof *m);
}

int sb_tf_map_data(sb_tf_reader *r, int check, sb_tf_map *m, sb_error *err)
{
    struct stat st;
    uint64_t want = r->data_at + r->bytes + 8, tail;
    void *base;
    memset(m, 0, sizeof *m);
    if (r->bytes > UINT64_MAX / 2 || fstat(fileno(r->f), &st) != 0) {
        int e = errno;
        sb_tf_close(r);
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", r->path, strerror(e));
    }
    /* the size says whether the file is whole: nothing is read for it */
    if ((uint64_t)st.st_size < r->data_at + r->bytes)
        return sb_tf_refuse(r, err, "truncated (the data is cut short)");
    if ((uint64_t)st.st_size < want)
        return sb_tf_refuse(r, err, "truncated (the checksum is missing)");
    if ((uint64_t)st.st_size > want)
        return sb_tf_refuse(r, err, "longer than its header says");
    if (want > SIZE_MAX) {
        sb_tf_close(r);
        return sb_error_set(err, SB_ENOMEM, 0, 0, "%s: too large to map", r->path);
    }
    base = mmap(NULL, (size_t)want, PROT_READ, MAP_SHARED, fileno(r->f), 0);
    if (base == MAP_FAILED) {
        int e = errno;
        sb_tf_close(r);
        return sb_error_set(err, SB_EIO, 0, 0, "%s: cannot map: %s", r->path, strerror(e));
    }
    m->base = base;
    m->len = (size_t)want;
    m->data = (const unsigned char *)base + r->data_at;
    tail = sb_le_get64((const unsigned char *)base + r->data_at + r->bytes);
    if (check != SB_TF_TRUSTED || !marker_matches(r->path, &st, tail)) {
        struct timespec start;
        clock_gettime(CLOCK_REALTIME, &start);
        if (sb_checksum(m->data, (size_t)r->bytes) != tail) {
            sb_tf_unmap(m);
            return sb_tf_refuse(r, err, "checksum mismatch, the file is damaged");
        }
        /* Time stamps advance by clock ticks, not nanoseconds: a write in
         * the same tick as the change the marker records would leave the
         * stamps as they were.  So a marker is written only when the check
         * began well after that change; a file written a moment ago is
         * checked whole again next time. */
        if (start.tv_sec > st.st_ctim.tv_sec + 1 && start.tv_sec > st.st_mtim.tv_sec + 1)
            write_marker(r->path, &st, tail);
    }
    r->sum = tail;
    sb_tf_close(r);
    return 0;
}
