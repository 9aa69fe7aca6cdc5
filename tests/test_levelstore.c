/* The key files of levelstore.c in both codes, against the key arrays
 * they were written from: random sorted key sets of 1 to 4 words (none,
 * one key, dense, sparse, huge gaps, the extreme keys, keys shaped like a
 * sliding-block level, counts that force the Huffman lengths past their
 * limit) read back exactly, in the sizes the headers say, within the
 * memory the store promises; the block code smaller than the gap code on
 * shaped keys; and a damaged file refused, even when its checksum is made
 * to match (then it is read as some ascending keys, or refused, but never
 * a crash or more keys than the header says). */
#include "harness.h"
#include "../src/core/hash.h"
#include "../src/core/internal.h"
#include "../src/core/le.h"
#include "../src/search/keysort.h"
#include "../src/search/levelstore.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *temp_dir(char *buf, size_t n)
{
    const char *t = getenv("TMPDIR");
    snprintf(buf, n, "%s/sbfs-test.XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(buf);
}

enum { EMPTY, ONE, DENSE, SPARSE, HUGE, EXTREME, SHAPED, FIBONACCI, KINDS };

/* n keys of kind `kind`, kw words, strictly ascending, into k; returns the
 * count (fewer than n when the kind runs out of keys). */
static uint64_t make_keys(sb_rng *r, int kind, int kw, uint64_t n, uint64_t *k)
{
    uint64_t cur[4] = {0, 0, 0, 0}, m = 0;
    if (kind == EMPTY)
        return 0;
    if (kind == ONE)
        n = 1;
    for (uint64_t i = 0; i < n; i++) {
        if (kind == SHAPED) {
            /* a bitmap of 16 cells with one gap, under kinds of 3 bits,
             * counting up in the kinds' places */
            uint64_t kinds = (i / 3) * 5 + sb_rng_below(r, 3);
            uint64_t key = kinds << 16 | (0xffff & ~(1u << sb_rng_below(r, 16)));
            if (m && key <= k[(m - 1) * (size_t)kw])
                key = k[(m - 1) * (size_t)kw] + 1;
            cur[0] = key;
        } else if (kind == FIBONACCI) {
            /* the lowest nibble drawn with Fibonacci weights: codes longer
             * than the limit unless the counts are flattened */
            static const unsigned fib[16] = {1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987};
            uint64_t x = sb_rng_below(r, 2583), s = 0;
            while (x >= fib[s])
                x -= fib[s++];
            cur[0] = i << 4 | s;
        } else if (i) {
            uint64_t step = kind == DENSE ? 1
                          : kind == SPARSE ? 1 + sb_rng_below(r, 1u << 20)
                          : kind == HUGE ? 1 + (sb_rng_next(r) >> sb_rng_below(r, 64))
                                         : 1 + sb_rng_below(r, 3);
            int j = 0;
            if (kind == EXTREME && i == 1) /* the key 0, then keys up to all ones */
                for (int t = 0; t < kw; t++)
                    cur[t] = t == kw - 1 ? UINT64_MAX - 2 * n : UINT64_MAX - 3;
            else if (kind == HUGE && kw > 1 && sb_rng_below(r, 8) == 0)
                j = 1 + (int)sb_rng_below(r, (uint64_t)kw - 1);
            if (j) {
                if (cur[j] == UINT64_MAX)
                    break;
                cur[j]++;
                for (int t = 0; t < j; t++)
                    cur[t] = sb_rng_next(r);
            } else {
                int t = 0;
                while (t < kw && cur[t] > UINT64_MAX - step) {
                    cur[t] += step; /* wraps: carry into the next word */
                    step = 1;
                    t++;
                }
                if (t == kw)
                    break;
                cur[t] += step;
            }
        } else if (kind != EXTREME) {
            for (int t = 0; t < kw; t++)
                cur[t] = kind == HUGE ? sb_rng_next(r) >> 8 : sb_rng_below(r, 1000);
        }
        memcpy(k + m * (size_t)kw, cur, sizeof *cur * (size_t)kw);
        m++;
    }
    return m;
}

/* Write keys k[0..n) as name (packed or not); returns the writer's body bytes. */
static uint64_t write_keys(sb_lstore *ls, const char *name, int packed, const uint64_t *k, uint64_t n)
{
    sb_lwriter w;
    sb_error err;
    int rc = packed ? sb_lwriter_open_packed(&w, ls, name, &err) : sb_lwriter_open(&w, ls, name, &err);
    CHECK_INT(rc, 0);
    CHECK_INT(w.pk != NULL, packed);
    for (uint64_t i = 0; i < n && !rc; i++)
        rc = sb_lwriter_put(&w, k + i * (size_t)ls->kw, &err);
    CHECK_INT(rc, 0);
    CHECK_INT(sb_lwriter_close(&w, &err), 0);
    return w.bytes;
}

/* Read name back: how many keys equal k[i] in place (all of them when the
 * file is whole); -1 when the reader refused it.  many 0: a key a call of
 * sb_lreader_next; else calls of sb_lreader_many for 1 to many keys,
 * sizes drawn from r. */
static int64_t read_keys_by(sb_lstore *ls, const char *name, const uint64_t *k, uint64_t n, int *order,
                            size_t many, sb_rng *r)
{
    sb_lreader rd;
    sb_error err;
    uint64_t cnt, got = 0, same = 0, prev[4], *batch = malloc(sizeof *batch * 4 * (many ? many : 1));
    int g;
    *order = 1;
    if (sb_lreader_open(&rd, ls, name, &cnt, &err)) {
        free(batch);
        return -1;
    }
    for (;;) {
        size_t want = many ? 1 + (size_t)sb_rng_below(r, many) : 1;
        if (many) {
            g = sb_lreader_many(&rd, batch, want, &err);
            if (g > 0 && sb_key_cmp(rd.key, batch + (size_t)(g - 1) * ls->kw, ls->kw))
                *order = 0; /* rd.key is not the last key read */
            if (g > 0 && (size_t)g < want && rd.left)
                *order = 0; /* fewer than asked before the end */
        } else {
            g = sb_lreader_next(&rd, &err);
            memcpy(batch, rd.key, sizeof *batch * (size_t)ls->kw);
        }
        if (g <= 0)
            break;
        for (int i = 0; i < g; i++) {
            const uint64_t *key = batch + (size_t)i * ls->kw;
            if (got && sb_key_cmp(key, prev, ls->kw) <= 0)
                *order = 0;
            memcpy(prev, key, sizeof *prev * (size_t)ls->kw);
            same += got < n && !memcmp(key, k + got * (size_t)ls->kw, sizeof *k * (size_t)ls->kw);
            got++;
        }
    }
    sb_lreader_close(&rd);
    free(batch);
    if (got > cnt)
        *order = 0; /* more keys than the header says: never */
    return g ? -1 : (int64_t)same;
}

static int64_t read_keys(sb_lstore *ls, const char *name, const uint64_t *k, uint64_t n, int *order)
{
    return read_keys_by(ls, name, k, n, order, 0, NULL);
}

static void test_round_trip(void)
{
    char dir[256];
    sb_rng r;
    sb_mem mem;
    sb_error err;
    sb_rng_seed(&r, 1515);
    sb_mem_init(&mem, 0);
    CHECK(temp_dir(dir, sizeof dir) != NULL);
    static const uint64_t sizes[] = {2, 100, 4097, 30000};
    for (int kw = 1; kw <= 4; kw++) {
        sb_lstore ls;
        CHECK_INT(sb_lstore_open(&ls, dir, 1, 0, kw, &mem, 1 << 17, &err), 0);
        CHECK(sb_lstore_packed_extra(&ls) > 0);
        uint64_t *k = malloc(sizeof *k * 30000 * (size_t)kw);
        for (int kind = 0; kind < KINDS; kind++)
            for (int z = 0; z < 4; z++) {
                uint64_t n = make_keys(&r, kind, kw, sizes[z], k);
                uint64_t b0 = write_keys(&ls, "gaps", 0, k, n), b1 = write_keys(&ls, "blocks", 1, k, n);
                CHECK_U64(ls.used, b0 + b1 + 2 * SB_LS_HEADER);
                for (int packed = 0; packed < 2; packed++) {
                    int order;
                    uint64_t cnt;
                    const char *name = packed ? "blocks" : "gaps";
                    CHECK_INT(read_keys(&ls, name, k, n, &order), (int64_t)n);
                    CHECK(order);
                    /* many at a time: the same keys */
                    CHECK_INT(read_keys_by(&ls, name, k, n, &order, z % 2 ? 5 : 3000, &r), (int64_t)n);
                    CHECK(order);
                    CHECK_INT(sb_lstore_check(&ls, name, &cnt, &err), 0);
                    CHECK_U64(cnt, n);
                }
                if (kind == SHAPED && n > 4096)
                    CHECK(b1 * 10 < b0 * 7); /* blocks under 70% of gaps */
                if (kind == EMPTY)
                    CHECK_U64(b1, 0);
                if (kind == ONE)
                    CHECK(b1 < 50 * (uint64_t)kw); /* the tables of one block */
            }
        /* out of order: refused as a bug in the caller */
        sb_lwriter w;
        uint64_t a[4] = {5, 0, 0, 0};
        CHECK_INT(sb_lwriter_open_packed(&w, &ls, "bad", &err), 0);
        CHECK_INT(sb_lwriter_put(&w, a, &err), 0);
        CHECK_INT(sb_lwriter_put(&w, a, &err), SB_EINTERNAL);
        sb_lwriter_abort(&w);
        sb_lstore_close(&ls);
        free(k);
        /* small buffers: the gap code, whatever was asked */
        CHECK_INT(sb_lstore_open(&ls, dir, 1, 0, kw, &mem, 4096, &err), 0);
        CHECK_U64(sb_lstore_packed_extra(&ls), 0);
        CHECK_INT(sb_lwriter_open_packed(&w, &ls, "small", &err), 0);
        CHECK(w.pk == NULL);
        sb_lwriter_abort(&w);
        sb_lstore_close(&ls);
    }
    CHECK_U64(mem.used, 0);
    rmdir(dir);
}

/* The memory a packed writer and reader take is within what the store
 * says, on top of the buffer. */
static void test_packed_memory(void)
{
    char dir[256];
    sb_mem mem;
    sb_error err;
    sb_rng r;
    sb_rng_seed(&r, 3);
    CHECK(temp_dir(dir, sizeof dir) != NULL);
    for (int kw = 1; kw <= 4; kw++) {
        sb_lstore ls;
        sb_mem_init(&mem, 0);
        CHECK_INT(sb_lstore_open(&ls, dir, 1, 0, kw, &mem, 1 << 17, &err), 0);
        size_t x = sb_lstore_packed_extra(&ls);
        sb_lwriter w;
        CHECK_INT(sb_lwriter_open_packed(&w, &ls, "m", &err), 0);
        CHECK(mem.used <= ls.iob + x);
        uint64_t k[4 * 10];
        uint64_t n = make_keys(&r, SPARSE, kw, 10, k);
        for (uint64_t i = 0; i < n; i++)
            CHECK_INT(sb_lwriter_put(&w, k + i * (size_t)kw, &err), 0);
        CHECK_INT(sb_lwriter_close(&w, &err), 0);
        sb_lreader rd;
        CHECK_INT(sb_lreader_open(&rd, &ls, "m", NULL, &err), 0);
        CHECK(mem.used <= ls.iob + x);
        sb_lreader_close(&rd);
        CHECK_U64(mem.used, 0);
        sb_lstore_close(&ls);
    }
    rmdir(dir);
}

/* Flip a bit of the body at `at`; with fix, make the header's checksum
 * that of the damaged body. */
static void damage(const char *path, long at, int bit, int fix)
{
    FILE *f = fopen(path, "r+b");
    unsigned char h[SB_LS_HEADER];
    if (!f)
        return;
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ (1 << bit), f);
    if (fix) {
        fseek(f, 0, SEEK_SET);
        if (fread(h, 1, sizeof h, f) == sizeof h) {
            uint64_t body = sb_le_get64(h + 24);
            unsigned char *b = malloc(body ? body : 1);
            sb_sum s;
            sb_sum_init(&s);
            if (fread(b, 1, body, f) == body)
                sb_sum_add(&s, b, body);
            sb_le_put64(h + 32, sb_sum_end(&s));
            fseek(f, 0, SEEK_SET);
            fwrite(h, 1, sizeof h, f);
            free(b);
        }
    }
    fclose(f);
}

static void test_packed_damage(void)
{
    char dir[256], path[600];
    sb_rng r;
    sb_mem mem;
    sb_error err;
    sb_rng_seed(&r, 99);
    sb_mem_init(&mem, 0);
    CHECK(temp_dir(dir, sizeof dir) != NULL);
    for (int kw = 1; kw <= 2; kw++) {
        sb_lstore ls;
        CHECK_INT(sb_lstore_open(&ls, dir, 1, 0, kw, &mem, 1 << 17, &err), 0);
        uint64_t *k = malloc(sizeof *k * 6000 * (size_t)kw);
        uint64_t n = make_keys(&r, kw == 1 ? SHAPED : HUGE, kw, 6000, k);
        uint64_t body = write_keys(&ls, "keys", 1, k, n);
        sb_lstore_path(&ls, "keys", path, sizeof path);
        int refused = 0, other = 0, disorder = 0;
        for (int t = 0; t < 200; t++) {
            long at = SB_LS_HEADER + (long)sb_rng_below(&r, body);
            int bit = (int)sb_rng_below(&r, 8), fix = t % 2, order;
            damage(path, at, bit, fix);
            if (!fix)
                CHECK_INT(sb_lstore_check(&ls, "keys", NULL, &err), SB_EBADFILE);
            int64_t same = read_keys(&ls, "keys", k, n, &order);
            int order2;
            /* many at a time: refused, or the same keys read, alike */
            CHECK_INT(read_keys_by(&ls, "keys", k, n, &order2, 1 + sb_rng_below(&r, 500), &r), same);
            CHECK_INT(order2, order);
            refused += same < 0;
            other += same >= 0 && same < (int64_t)n;
            disorder += !order;
            damage(path, at, bit, fix); /* and back */
        }
        CHECK_INT(disorder, 0);
        CHECK(refused > 0);
        (void)other; /* a flip with its checksum fixed may read as other keys */
        int order;
        CHECK_INT(read_keys(&ls, "keys", k, n, &order), (int64_t)n);
        /* a code this version does not know */
        FILE *f = fopen(path, "r+b");
        fseek(f, 12, SEEK_SET);
        fputc(2, f);
        fclose(f);
        CHECK_INT(sb_lstore_check(&ls, "keys", NULL, &err), SB_EBADFILE);
        CHECK(strstr(err.msg, "code") != NULL);
        /* cut short */
        CHECK_INT(truncate(path, SB_LS_HEADER + (off_t)body - 1), 0);
        CHECK_INT(sb_lstore_check(&ls, "keys", NULL, &err), SB_EBADFILE);
        sb_lstore_close(&ls);
        free(k);
    }
    CHECK_U64(mem.used, 0);
    rmdir(dir);
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_packed_memory);
    RUN(test_packed_damage);
    return TEST_END();
}
