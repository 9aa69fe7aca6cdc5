/* Tests of the indexed engine on small graphs whose distances are known in
 * closed form or computed here by a plain queue BFS: hypercubes, a torus
 * given by coordinate tables, a directed graph, permutations under adjacent
 * swaps and a pruning table over them.  Every scan order, bit width and
 * thread count must give the same table, byte for byte. */
#include "harness.h"
#include "sbfs/core.h"
#include "sbfs/rank.h"
#include "sbfs/table.h"
#include "sbfs/npuzzle_table.h"
#include "sbfs/tetraminx.h"
#include "../src/index/table_internal.h"
#include "../src/index/rank_internal.h"
#include "../src/tetraminx/tet_internal.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static sb_mem mem;
static sb_error err;

/* ---- hypercube: index = bit set, move m flips bit m ----------------- */
static uint64_t cube_move(void *ud, void *scratch, uint64_t r, int m)
{
    (void)ud;
    (void)scratch;
    return r ^ (UINT64_C(1) << m);
}

static sb_model cube(int dim)
{
    sb_model m;
    memset(&m, 0, sizeof m);
    m.name = "cube";
    m.params = "dim";
    m.size = UINT64_C(1) << dim;
    m.nmoves = dim;
    m.symmetric = 1;
    m.move = cube_move;
    return m;
}

static int build(sb_table **t, const sb_model *m, const uint64_t *starts, size_t ns, int bits,
                 int threads, int scan)
{
    sb_table_opts o = {bits, threads, scan, -1};
    return sb_table_build(t, m, starts, ns, &o, &mem, NULL, &err);
}

static void test_cube(void)
{
    sb_model m = cube(12);
    uint64_t zero = 0;
    sb_table *ref = NULL;
    CHECK_INT(build(&ref, &m, &zero, 1, 2, 1, SB_SCAN_FORWARD), 0);
    CHECK_INT((sb_table_about(ref).levels - 1), 12);
    CHECK_U64(sb_table_about(ref).reached, 4096);
    CHECK_INT(sb_table_about(ref).complete, 1);
    for (int d = 0; d <= 12; d++)
        CHECK_U64(sb_table_count(ref, d), sb_binom(12, d));
    {
        int bad = 0;
        for (uint64_t r = 0; r < 4096; r++)
            if (sb_table_distance(ref, &m, r) != __builtin_popcountll(r) ||
                sb_table_code(ref, r) != __builtin_popcountll(r) % 3)
                bad++;
        CHECK_INT(bad, 0);
    }
    /* every way of building gives the same bytes */
    for (int scan = 0; scan <= 2; scan++)
        for (int th = 1; th <= 3; th++) {
            sb_table *t = NULL;
            CHECK_INT(build(&t, &m, &zero, 1, 2, th, scan), 0);
            CHECK(sb_table_about(t).data_bytes == sb_table_about(ref).data_bytes && memcmp(sb_table_codes(t), sb_table_codes(ref), sb_table_about(ref).data_bytes) == 0);
            CHECK_U64(sb_table_count(t, 6), 924);
            sb_table_free(t);
        }
    for (int bits = 4; bits <= 8; bits += 4) {
        sb_table *a = NULL, *b = NULL;
        int bad = 0;
        CHECK_INT(build(&a, &m, &zero, 1, bits, 1, SB_SCAN_FORWARD), 0);
        CHECK_INT(build(&b, &m, &zero, 1, bits, 3, SB_SCAN_AUTO), 0);
        CHECK(memcmp(sb_table_codes(a), sb_table_codes(b), sb_table_about(a).data_bytes) == 0);
        for (uint64_t r = 0; r < 4096; r++)
            if (sb_table_code(a, r) != __builtin_popcountll(r) ||
                sb_table_distance(b, &m, r) != __builtin_popcountll(r))
                bad++;
        CHECK_INT(bad, 0);
        sb_table_free(a);
        sb_table_free(b);
    }
    sb_table_free(ref);
    CHECK_U64(mem.used, 0);
}

static int progress_calls, progress_bad;
static uint64_t progress_last;

static void on_progress(void *ud, const sb_progress_info *in)
{
    (void)ud;
    progress_calls++;
    if (in->total != 65536 || in->done > in->total || in->done < progress_last || in->level < 1 ||
        strncmp(in->phase, "table", 5) != 0)
        progress_bad++;
    progress_last = in->done;
}

static void test_cube_limits(void)
{
    sb_model m = cube(16);
    uint64_t starts[2] = {0, 0xffff};
    sb_table *t = NULL;
    /* distances to 16 do not fit in 4 bits, do in 8 */
    CHECK_INT(build(&t, &m, starts, 1, 4, 2, SB_SCAN_AUTO), SB_EUSAGE);
    sb_table_free(t);
    CHECK_INT(build(&t, &m, starts, 1, 8, 2, SB_SCAN_AUTO), 0);
    CHECK_INT((sb_table_about(t).levels - 1), 16);
    sb_table_free(t);
    /* two starts: the distance is to the nearer of them */
    CHECK_INT(build(&t, &m, starts, 2, 2, 2, SB_SCAN_AUTO), 0);
    CHECK_INT((sb_table_about(t).levels - 1), 8);
    CHECK_U64(sb_table_count(t, 0), 2);
    CHECK_U64(sb_table_count(t, 8), sb_binom(16, 8));
    CHECK_U64(sb_table_count(t, 3), 2 * sb_binom(16, 3));
    CHECK_INT(sb_table_distance(t, &m, 0xfff0), 4);
    {
        uint64_t q;
        int mv, steps = 0;
        uint64_t r = 0x0ff0;
        while (sb_table_step(t, &m, r, &q, &mv) == 1) {
            CHECK_U64(q, r ^ (UINT64_C(1) << mv));
            r = q;
            steps++;
        }
        CHECK_INT(steps, 8);
        CHECK(r == 0 || r == 0xffff);
    }
    sb_table_free(t);
    /* a depth limit */
    {
        sb_table_opts o = {2, 1, SB_SCAN_AUTO, 3};
        CHECK_INT(sb_table_build(&t, &m, starts, 1, &o, &mem, NULL, &err), 0);
        CHECK_INT((sb_table_about(t).levels - 1), 3);
        CHECK_INT(sb_table_about(t).complete, 0);
        CHECK_U64(sb_table_about(t).reached, 1 + 16 + 120 + 560);
        CHECK_INT(sb_table_code(t, 0xf), 3);
        sb_table_free(t);
    }
    /* a budget too small for the table, one too small for the bitmap */
    {
        sb_mem small;
        sb_table *a = NULL, *b = NULL;
        sb_table_opts o = {2, 2, SB_SCAN_FORWARD, -1};
        sb_mem_init(&small, 1000);
        CHECK_INT(sb_table_build(&a, &m, starts, 1, &o, &small, NULL, &err), SB_ENOMEM);
        CHECK_INT(err.code, SB_ENOMEM);
        sb_table_free(a);
        CHECK_U64(small.used, 0);
        sb_mem_init(&small, 16384 + 100);
        CHECK_INT(sb_table_build(&a, &m, starts, 1, &o, &small, NULL, &err), 0);
        CHECK(small.peak <= 16384 + 100);
        CHECK_INT(sb_table_build(&b, &m, starts, 1, &o, &mem, NULL, &err), 0);
        CHECK(memcmp(sb_table_codes(a), sb_table_codes(b), sb_table_about(a).data_bytes) == 0);
        CHECK_U64(sb_table_count(a, 9), sb_table_count(b, 9));
        sb_table_free(a);
        sb_table_free(b);
        CHECK_U64(sb_table_bytes(65536, 2), 16384 + 8192);
        CHECK_U64(sb_table_bytes(65536, 4), 32768);
    }
    /* progress reports */
    {
        sb_control ctl = {on_progress, NULL, NULL};
        progress_calls = 0;
        progress_last = 0;
        CHECK_INT(sb_table_build(&t, &m, starts, 1, NULL, &mem, &ctl, &err), 0);
        CHECK(progress_calls >= 16);
        CHECK_U64(progress_last, 65536);
        CHECK_INT(progress_bad, 0);
        sb_table_free(t);
    }
    /* stop requested */
    {
        volatile sig_atomic_t stop = 1;
        sb_control ctl = {NULL, NULL, &stop};
        CHECK_INT(sb_table_build(&t, &m, starts, 1, NULL, &mem, &ctl, &err), SB_EINTR);
        sb_table_free(t);
    }
    /* bad arguments */
    {
        sb_model bad = m;
        bad.nmoves = 0;
        CHECK_INT(build(&t, &bad, starts, 1, 2, 1, SB_SCAN_AUTO), SB_EUSAGE);
        CHECK_INT(build(&t, &m, starts, 1, 3, 1, SB_SCAN_AUTO), SB_EUSAGE);
        starts[1] = 70000;
        CHECK_INT(build(&t, &m, starts, 2, 2, 1, SB_SCAN_AUTO), SB_EUSAGE);
        sb_table_free(t);
    }
    CHECK_U64(mem.used, 0);
}

/* ---- a torus Z5 x Z3 x Z4 from coordinate tables: moves +-1 on one
 * coordinate; the same graph from a move callback --------------------- */
static const uint32_t sizes[3] = {5, 3, 4};

static uint64_t torus_move(void *ud, void *scratch, uint64_t r, int m)
{
    uint32_t c[3];
    int j = m / 2;
    (void)ud;
    (void)scratch;
    c[2] = (uint32_t)(r % 4);
    c[1] = (uint32_t)(r / 4 % 3);
    c[0] = (uint32_t)(r / 12);
    c[j] = (c[j] + (m & 1 ? sizes[j] - 1 : 1)) % sizes[j];
    return (uint64_t)c[0] * 12 + c[1] * 4 + c[2];
}

static void test_coords(void)
{
    uint32_t tab[3][5 * 6];
    sb_coord co[3];
    sb_model a, b;
    sb_table *ta = NULL, *tb = NULL;
    uint64_t zero = 0;
    int bad = 0;
    for (int j = 0; j < 3; j++) {
        for (uint32_t v = 0; v < sizes[j]; v++)
            for (int m = 0; m < 6; m++)
                tab[j][v * 6 + (uint32_t)m] =
                    m / 2 != j ? v : (v + (m & 1 ? sizes[j] - 1 : 1)) % sizes[j];
        co[j].size = sizes[j];
        co[j].move = tab[j];
    }
    memset(&a, 0, sizeof a);
    a.name = "torus";
    a.size = 60;
    a.nmoves = 6;
    a.symmetric = 1;
    a.ncoords = 3;
    a.coords = co;
    b = a;
    b.ncoords = 0;
    b.coords = NULL;
    b.move = torus_move;
    CHECK_INT(build(&ta, &a, &zero, 1, 4, 2, SB_SCAN_AUTO), 0);
    CHECK_INT(build(&tb, &b, &zero, 1, 4, 1, SB_SCAN_FORWARD), 0);
    CHECK(memcmp(sb_table_codes(ta), sb_table_codes(tb), sb_table_about(ta).data_bytes) == 0);
    CHECK_INT((sb_table_about(ta).levels - 1), 2 + 1 + 2);
    for (uint64_t r = 0; r < 60; r++) {
        int c0 = (int)(r / 12), c1 = (int)(r / 4 % 3), c2 = (int)(r % 4);
        int want = (c0 < 5 - c0 ? c0 : 5 - c0) + (c1 < 3 - c1 ? c1 : 3 - c1) +
                   (c2 < 4 - c2 ? c2 : 4 - c2);
        if (sb_table_code(ta, r) != want)
            bad++;
    }
    CHECK_INT(bad, 0);
    /* sizes that do not multiply to the model size */
    sb_table_free(tb);
    a.size = 61;
    CHECK_INT(build(&tb, &a, &zero, 1, 4, 1, SB_SCAN_AUTO), SB_EUSAGE);
    {
        /* sizes whose product passes 2^64 and wraps round to the model
         * size: (2^31 + 1)^2 * 4 = 2^64 + 2^34 + 4 */
        sb_coord big[3] = {{0x80000001u, tab[0]}, {0x80000001u, tab[0]}, {4, tab[0]}};
        sb_model w = a;
        sb_mem small;
        sb_table *tw = NULL;
        sb_table_opts o = {2, 1, SB_SCAN_AUTO, -1};
        sb_mem_init(&small, 1 << 20);
        w.size = (UINT64_C(1) << 34) + 4;
        w.coords = big;
        CHECK_INT(sb_table_build(&tw, &w, &zero, 1, &o, &small, NULL, &err), SB_EUSAGE);
        CHECK_STR(err.msg, "coordinate sizes multiply past 2^64");
        sb_table_free(tw);
        /* a size so large that rounding it up to whole words would wrap
         * round to a tiny table */
        w = b;
        w.size = SB_NO_INDEX - 1;
        CHECK_INT(sb_table_build(&tw, &w, &zero, 1, &o, &small, NULL, &err), SB_EUSAGE);
        CHECK_STR(err.msg, "model has 18446744073709551614 indices, more than 2^56");
        sb_table_free(tw);
        CHECK_U64(small.used, 0);
    }
    sb_table_free(ta);
    sb_table_free(tb);
    CHECK_U64(mem.used, 0);
}

/* ---- a directed graph: r -> 2r mod N and r -> r+1 mod N -------------- */
#define DN 1000
static int dir_succ(void *ud, void *scratch, uint64_t r, uint64_t *out)
{
    (void)ud;
    (void)scratch;
    out[0] = 2 * r % DN;
    out[1] = (r + 1) % DN;
    return 2;
}

static void test_directed(void)
{
    sb_model m;
    sb_table *t2 = NULL, *t8 = NULL;
    uint64_t start = 7;
    int dist[DN], queue[DN], head = 0, tail = 0, bad = 0;
    memset(&m, 0, sizeof m);
    m.name = "directed";
    m.size = DN;
    m.nmoves = 2;
    m.succ = dir_succ;
    for (int i = 0; i < DN; i++)
        dist[i] = -1;
    dist[start] = 0;
    queue[tail++] = (int)start;
    while (head < tail) {
        int r = queue[head++], nx[2] = {2 * r % DN, (r + 1) % DN};
        for (int k = 0; k < 2; k++)
            if (dist[nx[k]] < 0)
                dist[nx[k]] = dist[r] + 1, queue[tail++] = nx[k];
    }
    CHECK_INT(build(&t2, &m, &start, 1, 2, 2, SB_SCAN_AUTO), 0);
    CHECK_INT(build(&t8, &m, &start, 1, 8, 2, SB_SCAN_AUTO), 0);
    for (int i = 0; i < DN; i++)
        if (sb_table_code(t8, (uint64_t)i) != dist[i] || sb_table_code(t2, (uint64_t)i) != dist[i] % 3)
            bad++;
    CHECK_INT(bad, 0);
    CHECK_U64(sb_table_about(t2).reached, DN);
    CHECK_INT((sb_table_about(t2).levels - 1), dist[queue[DN - 1]]);
    /* backward scans need a symmetric model */
    sb_table_free(t2);
    CHECK_INT(build(&t2, &m, &start, 1, 2, 1, SB_SCAN_BACKWARD), SB_EUSAGE);
    sb_table_free(t2);
    sb_table_free(t8);
}

/* ---- permutations of 7 under adjacent swaps, and a pruning table ------ */
#define PN 7
static uint64_t perm_move(void *ud, void *scratch, uint64_t r, int m)
{
    uint8_t p[PN], t;
    (void)ud;
    (void)scratch;
    sb_unrank_perm(r, p, PN);
    t = p[m];
    p[m] = p[m + 1];
    p[m + 1] = t;
    return sb_rank_perm(p, PN);
}

/* Abstract state: the places of items 0 and 1 (a partial permutation).
 * The representative puts the other items in order in the other places. */
static uint64_t abs_move(void *ud, void *scratch, uint64_t r, int m)
{
    uint8_t pos[2], p[PN], t;
    int next = 2;
    (void)ud;
    (void)scratch;
    sb_unrank_partial(r, pos, PN, 2);
    for (int i = 0; i < PN; i++)
        p[i] = 255;
    p[pos[0]] = 0;
    p[pos[1]] = 1;
    for (int i = 0; i < PN; i++)
        if (p[i] == 255)
            p[i] = (uint8_t)next++;
    t = p[m];
    p[m] = p[m + 1];
    p[m + 1] = t;
    for (int i = 0; i < PN; i++)
        if (p[i] < 2)
            pos[p[i]] = (uint8_t)i;
    return sb_rank_partial(pos, PN, 2);
}

static void test_perm_and_pruning(void)
{
    sb_model full, pdb;
    sb_table *tf = NULL, *tp = NULL;
    uint64_t zero = 0;
    uint64_t mahonian[PN * (PN - 1) / 2 + 1] = {0};
    int best[64], bad = 0;
    memset(&full, 0, sizeof full);
    full.name = "perm";
    full.size = sb_factorial(PN);
    full.nmoves = PN - 1;
    full.symmetric = 1;
    full.move = perm_move;
    pdb = full;
    pdb.name = "perm-pdb";
    pdb.size = sb_falling(PN, 2);
    pdb.move = abs_move;
    CHECK_INT(build(&tf, &full, &zero, 1, 2, 2, SB_SCAN_AUTO), 0);
    CHECK_INT(build(&tp, &pdb, &zero, 1, 4, 2, SB_SCAN_AUTO), 0);
    /* distance = number of inversions */
    for (uint64_t r = 0; r < full.size; r++) {
        uint8_t p[PN];
        int inv = 0;
        sb_unrank_perm(r, p, PN);
        for (int i = 0; i < PN; i++)
            for (int j = i + 1; j < PN; j++)
                inv += p[i] > p[j];
        mahonian[inv]++;
        if (sb_table_distance(tf, &full, r) != inv)
            bad++;
    }
    CHECK_INT(bad, 0);
    CHECK_INT((sb_table_about(tf).levels - 1), PN * (PN - 1) / 2);
    for (int d = 0; d <= (sb_table_about(tf).levels - 1); d++)
        CHECK_U64(sb_table_count(tf, d), mahonian[d]);
    /* the pruning table holds, for each placement of items 0 and 1, the
     * least distance of any permutation with that placement */
    for (int i = 0; i < 64; i++)
        best[i] = 99;
    for (uint64_t r = 0; r < full.size; r++) {
        uint8_t p[PN], pos[2];
        int d = sb_table_distance(tf, &full, r);
        uint64_t a;
        sb_unrank_perm(r, p, PN);
        for (int i = 0; i < PN; i++)
            if (p[i] < 2)
                pos[p[i]] = (uint8_t)i;
        a = sb_rank_partial(pos, PN, 2);
        if (d < best[a])
            best[a] = d;
    }
    bad = 0;
    for (uint64_t a = 0; a < pdb.size; a++)
        if (sb_table_code(tp, a) != best[a])
            bad++;
    CHECK_INT(bad, 0);
    CHECK_U64(sb_table_about(tp).reached, 42);
    sb_table_free(tf);
    sb_table_free(tp);
}

/* ---- files ------------------------------------------------------------- */
static void corrupt(const char *path, long off, int byte)
{
    FILE *f = fopen(path, "r+b");
    fseek(f, off, SEEK_SET);
    fputc(byte, f);
    fclose(f);
}

static void test_files(void)
{
    char path[64], other[64];
    sb_model m = cube(12), wrong = cube(12);
    sb_table *t = NULL, *u = NULL;
    uint64_t zero = 0;
    long len;
    FILE *f;
    snprintf(path, sizeof path, "/tmp/sbfs_test_table_%d.tbl", (int)getpid());
    snprintf(other, sizeof other, "/tmp/sbfs_test_table_%d.bad", (int)getpid());
    CHECK_INT(build(&t, &m, &zero, 1, 2, 1, SB_SCAN_AUTO), 0);
    CHECK_INT(sb_table_save(t, path, &err), 0);
    CHECK_INT(sb_table_load(&u, &m, path, &mem, &err), 0);
    CHECK(sb_table_about(u).data_bytes == sb_table_about(t).data_bytes && memcmp(sb_table_codes(u), sb_table_codes(t), sb_table_about(t).data_bytes) == 0);
    CHECK_INT((sb_table_about(u).levels - 1), 12);
    CHECK_U64(sb_table_count(u, 5), 792);
    CHECK_U64(sb_table_about(u).reached, 4096);
    CHECK_INT(sb_table_about(u).bits, 2);
    CHECK_STR(sb_table_about(u).name, "cube");
    CHECK_INT(sb_table_distance(u, &m, 0x7f), 7);
    sb_table_free(u);
    /* another puzzle, other params, another size */
    wrong.name = "cubes";
    CHECK_INT(sb_table_load(&u, &wrong, path, &mem, &err), SB_EBADFILE);
    CHECK(strstr(err.msg, "table is for cube dim, not cubes dim") != NULL);
    wrong = cube(12);
    wrong.params = "3";
    CHECK_INT(sb_table_load(&u, &wrong, path, &mem, &err), SB_EBADFILE);
    wrong = cube(11);
    CHECK_INT(sb_table_load(&u, &wrong, path, &mem, &err), SB_EBADFILE);
    CHECK_INT(sb_table_load(&u, &m, "/nonexistent/x.tbl", &mem, &err), SB_EIO);
    /* a file that cannot be read is an i/o error, not a damaged table */
    CHECK_INT(sb_table_load(&u, &m, ".", &mem, &err), SB_EIO);
    CHECK_STR(err.msg, ".: Is a directory");
    /* damage: one byte of the codes, one of the histogram, a cut, a tail */
    f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fclose(f);
    CHECK_INT(len, 160 + 13 * 8 + 8 + 1024 + 8);
    corrupt(path, len - 100, 0x00);
    CHECK_INT(sb_table_load(&u, &m, path, &mem, &err), SB_EBADFILE);
    CHECK(strstr(err.msg, "checksum") != NULL);
    CHECK_INT(sb_table_save(t, path, &err), 0);
    corrupt(path, 160 + 8 * 3, 0x11);
    CHECK_INT(sb_table_load(&u, &m, path, &mem, &err), SB_EBADFILE);
    CHECK_INT(sb_table_save(t, path, &err), 0);
    CHECK_INT(truncate(path, len - 1), 0);
    CHECK_INT(sb_table_load(&u, &m, path, &mem, &err), SB_EBADFILE);
    CHECK(strstr(err.msg, "truncated") != NULL);
    CHECK_INT(sb_table_save(t, path, &err), 0);
    f = fopen(path, "ab");
    fputc('x', f);
    fclose(f);
    CHECK_INT(sb_table_load(&u, &m, path, &mem, &err), SB_EBADFILE);
    /* not a table at all */
    f = fopen(other, "wb");
    fputs("distance 0: 1\n", f);
    fclose(f);
    CHECK_INT(sb_table_load(&u, &m, other, &mem, &err), SB_EBADFILE);
    CHECK(strstr(err.msg, "not an sbfs distance table") != NULL);
    /* a table of the format before (version 1): refused, naming it */
    f = fopen(other, "wb");
    fputs("SBFSTBL1cube", f);
    for (int i = 12; i < 1200; i++)
        fputc(0, f);
    fclose(f);
    CHECK_INT(sb_table_load(&u, &m, other, &mem, &err), SB_EBADFILE);
    CHECK(strstr(err.msg, ": an sbfs distance table in format version 1; this sbfs reads only version 2") != NULL);
    CHECK_INT(sb_table_save(t, "/nonexistent/x.tbl", &err), SB_EIO);
    {
        /* a failed write to a device reports the error and leaves the
         * device in place: only a regular file is removed */
        struct stat st;
        if (stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode)) {
            CHECK_INT(sb_table_save(t, "/dev/full", &err), SB_EIO);
            CHECK_STR(err.msg, "/dev/full: cannot write: No space left on device");
            CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
        }
    }
    remove(path);
    remove(other);
    sb_table_free(t);
    CHECK_U64(mem.used, 0);
}

/* A save is written beside its path and renamed into place: one that
 * fails (here: the file size limit) leaves the table already there whole,
 * and temporary files of runs that died are swept away. */
static void test_save_whole_or_not(void)
{
    char path[64], stale[96], live[96], other[96];
    sb_model m = cube(12);
    sb_table *t = NULL, *u = NULL;
    uint64_t zero = 0;
    struct rlimit rl, low;
    void (*old)(int);
    FILE *f;
    snprintf(path, sizeof path, "/tmp/sbfs_test_whole_%d.tbl", (int)getpid());
    /* 4194305 is past the largest PID Linux hands out: no such process */
    snprintf(stale, sizeof stale, "%s.4194305.tmp", path);
    snprintf(live, sizeof live, "%s.%d.tmp", path, (int)getppid());
    snprintf(other, sizeof other, "%s.x.tmp", path);
    CHECK_INT(build(&t, &m, &zero, 1, 2, 1, SB_SCAN_AUTO), 0);
    CHECK_INT(sb_table_save(t, path, &err), 0);
    /* a save that cannot finish: the old table stays, no temporary file */
    CHECK_INT(getrlimit(RLIMIT_FSIZE, &rl), 0);
    low = rl;
    low.rlim_cur = 512;
    old = signal(SIGXFSZ, SIG_IGN);
    CHECK_INT(setrlimit(RLIMIT_FSIZE, &low), 0);
    CHECK_INT(sb_table_save(t, path, &err), SB_EIO);
    CHECK(strstr(err.msg, "cannot write: File too large") != NULL);
    CHECK_INT(setrlimit(RLIMIT_FSIZE, &rl), 0);
    signal(SIGXFSZ, old);
    CHECK_INT(sb_table_load(&u, &m, path, &mem, &err), 0);
    CHECK(sb_table_about(u).data_bytes == sb_table_about(t).data_bytes && memcmp(sb_table_codes(u), sb_table_codes(t), sb_table_about(t).data_bytes) == 0);
    sb_table_free(u);
    CHECK(access(stale, F_OK) != 0);
    /* leftovers: a dead run's is removed, a live one's and others stay */
    f = fopen(stale, "wb"), fclose(f);
    f = fopen(live, "wb"), fclose(f);
    f = fopen(other, "wb"), fclose(f);
    CHECK_INT(sb_table_save(t, path, &err), 0);
    CHECK(access(stale, F_OK) != 0);
    CHECK(access(live, F_OK) == 0);
    CHECK(access(other, F_OK) == 0);
    /* loading sweeps as well */
    f = fopen(stale, "wb"), fclose(f);
    CHECK_INT(sb_table_load(&u, &m, path, &mem, &err), 0);
    sb_table_free(u);
    CHECK(access(stale, F_OK) != 0);
    /* a directory is refused by name, and nothing is left beside it */
    CHECK_INT(sb_table_save(t, "/tmp", &err), SB_EIO);
    CHECK_STR(err.msg, "/tmp: Is a directory");
    remove(live);
    remove(other);
    remove(path);
    sb_table_free(t);
    CHECK_U64(mem.used, 0);
}

/* ---- tables on disk ---------------------------------------------------- */

/* Entries in folder dir other than . and .. (-1 when it cannot be read). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static char disk_dir[64];

/* Build m on disk in a budget of `budget` bytes and compare it with ref, a
 * table built in memory: the same histogram and the same codes, byte for
 * byte; the budget kept; no file left behind.  Returns the slices. */
static int disk_same(const sb_table *ref, const sb_model *m, const uint64_t *starts, size_t ns,
                     size_t budget, int slice_log2, int threads, int max_depth)
{
    sb_table_opts o = {2, threads, SB_SCAN_AUTO, max_depth};
    sb_table_disk dk = {disk_dir, 0, slice_log2, NULL, 0};
    sb_table_info a = sb_table_about(ref), b;
    sb_table *t = NULL;
    sb_mem small;
    int rc, same = 1;
    sb_mem_init(&small, budget);
    rc = sb_table_build_disk(&t, m, starts, ns, &o, &dk, &small, NULL, &err);
    CHECK_INT(rc, 0);
    if (rc) {
        fprintf(stderr, "  %s: %s (budget %zu, %d threads)\n", m->name, err.msg, budget, threads);
        sb_table_free(t);
        return 0;
    }
    b = sb_table_about(t);
    CHECK_INT(b.levels, a.levels);
    CHECK_U64(b.reached, a.reached);
    CHECK_INT(b.complete, a.complete);
    for (int d = 0; d < a.levels; d++)
        same &= sb_table_count(t, d) == sb_table_count(ref, d);
    CHECK(same);
    CHECK(b.data_bytes >= (a.size + 31) / 32 * 8);
    CHECK(memcmp(sb_table_codes(t), sb_table_codes(ref), (size_t)((a.size + 31) / 32 * 8)) == 0);
    CHECK(!budget || small.peak <= budget);
    CHECK_U64(small.used, 0);
    CHECK(b.slices >= 2 || (slice_log2 && b.slices == 1));
    CHECK(b.disk_peak >= (a.size + 31) / 32 * 8);
    CHECK_INT(entries(disk_dir), 0);
    sb_table_free(t);
    return b.slices;
}

/* A random model: n indices, nmoves moves, each move a random index or
 * none; symmetric or not. */
typedef struct rmodel {
    uint64_t n;
    int nmoves;
    uint32_t *to;
} rmodel;

static uint64_t rmodel_move(void *ud, void *scratch, uint64_t r, int m)
{
    const rmodel *g = ud;
    uint32_t q = g->to[r * (uint64_t)g->nmoves + (uint64_t)m];
    (void)scratch;
    return q == UINT32_MAX ? SB_NO_INDEX : q;
}

/* A random graph of 20,000 to 80,000 indices whose neighbours are mostly
 * near (as in the n-puzzle's numbering) or anywhere, some moves missing;
 * and 1..3 random starts.  Free g->to after. */
static sb_model random_model(rmodel *g, sb_rng *rng, uint64_t *starts, size_t *ns)
{
    sb_model m;
    int near = (int)sb_rng_below(rng, 2);
    g->n = 20000 + sb_rng_below(rng, 60000);
    g->nmoves = 1 + (int)sb_rng_below(rng, 5);
    g->to = malloc(g->n * (size_t)g->nmoves * sizeof *g->to);
    for (uint64_t r = 0; r < g->n; r++)
        for (int k = 0; k < g->nmoves; k++) {
            uint64_t q = near && sb_rng_below(rng, 4) ? (r + g->n - 40 + sb_rng_below(rng, 81)) % g->n
                                                      : sb_rng_below(rng, g->n);
            g->to[r * (uint64_t)g->nmoves + (uint64_t)k] = sb_rng_below(rng, 10) == 0 ? UINT32_MAX : (uint32_t)q;
        }
    memset(&m, 0, sizeof m);
    m.name = "random";
    m.size = g->n;
    m.nmoves = g->nmoves;
    m.move = rmodel_move;
    m.ud = g;
    *ns = 1 + (size_t)sb_rng_below(rng, 3);
    for (size_t i = 0; i < *ns; i++)
        starts[i] = sb_rng_below(rng, g->n);
    return m;
}

/* Random graphs in budgets from a few slices to hundreds, on 1..3
 * threads, some stopped at a depth: each the table memory makes. */
static void test_disk_random(void)
{
    sb_rng rng;
    sb_rng_seed(&rng, 20261126);
    for (int round = 0; round < 40; round++) {
        rmodel g;
        sb_table *ref = NULL;
        uint64_t starts[3];
        size_t ns, budget, data;
        sb_model m = random_model(&g, &rng, starts, &ns);
        int depth = sb_rng_below(&rng, 4) == 0 ? (int)sb_rng_below(&rng, 8) : -1;
        int threads = 1 + (int)sb_rng_below(&rng, 3);
        {
            sb_table_opts o = {2, 1, SB_SCAN_FORWARD, depth};
            CHECK_INT(sb_table_build(&ref, &m, starts, ns, &o, &mem, NULL, &err), 0);
        }
        data = (size_t)((g.n + 31) / 32 * 8);
        /* from just under the table to the least that works */
        budget = data - 8 - (size_t)sb_rng_below(&rng, data / 2);
        if (sb_rng_below(&rng, 3) == 0)
            budget = 2000 * (size_t)threads + (size_t)sb_rng_below(&rng, 2048);
        if (budget > data - 8)
            budget = data - 8;
        if (sb_rng_below(&rng, 4) == 0) /* or slices of a given size, unbudgeted */
            disk_same(ref, &m, starts, ns, 0, 9 + (int)sb_rng_below(&rng, 8), threads, depth);
        else
            disk_same(ref, &m, starts, ns, budget, 0, threads, depth);
        sb_table_free(ref);
        free(g.to);
    }
}

/* Stop a build after a number of progress reports. */
static int stop_after;
static volatile sig_atomic_t stop_now;
static void stopper(void *ud, const sb_progress_info *in)
{
    (void)ud;
    (void)in;
    if (--stop_after <= 0) /* other workers read it meanwhile */
        __atomic_store_n(&stop_now, 1, __ATOMIC_RELAXED);
}

/* Checkpoints: random graphs stopped again and again at random points and
 * taken up each time end with the table memory makes; a folder holding
 * another build, a damaged record or a cut file is refused. */
static void test_disk_resume(void)
{
    char ck[96], p[256];
    sb_rng rng;
    int stops = 0;
    sb_control ctl = {stopper, NULL, &stop_now};
    snprintf(ck, sizeof ck, "%s/ck", disk_dir);
    sb_rng_seed(&rng, 15);
    for (int round = 0; round < 12; round++) {
        rmodel g;
        uint64_t starts[3];
        size_t ns;
        sb_model m = random_model(&g, &rng, starts, &ns);
        sb_table_opts o = {2, 1 + (int)sb_rng_below(&rng, 3), SB_SCAN_FORWARD, -1};
        sb_table_disk dk = {NULL, 0, 0, ck, 0};
        sb_table *ref = NULL, *t = NULL;
        sb_mem small;
        int rc, tries = 0, same = 1;
        CHECK_INT(sb_table_build(&ref, &m, starts, ns, &o, &mem, NULL, &err), 0);
        sb_mem_init(&small, (size_t)((g.n + 31) / 32 * 8) / (2 + sb_rng_below(&rng, 4)) + 8192);
        do {
            stop_after = 1 + (int)sb_rng_below(&rng, 40);
            stop_now = 0;
            sb_table_free(t);
            t = NULL;
            rc = sb_table_build_disk(&t, &m, starts, ns, &o, &dk, &small, tries < 20 ? &ctl : NULL, &err);
            if (rc == SB_EINTR) {
                stops++;
                CHECK(entries(ck) > 0);
                dk.resume = 1;
            }
        } while (rc == SB_EINTR && ++tries < 30);
        CHECK_INT(rc, 0);
        if (!rc) {
            for (int d = 0; d < sb_table_about(ref).levels; d++)
                same &= sb_table_count(t, d) == sb_table_count(ref, d);
            CHECK(same);
            CHECK_INT(sb_table_about(t).levels, sb_table_about(ref).levels);
            CHECK(memcmp(sb_table_codes(t), sb_table_codes(ref), (size_t)((g.n + 31) / 32 * 8)) == 0);
            CHECK_INT(entries(ck), 0);
        }
        sb_table_free(t);
        CHECK_U64(small.used, 0);
        sb_table_free(ref);
        free(g.to);
    }
    CHECK(stops >= 12);
    {
        /* refusals: a stopped build of the 3 x 3 in the folder */
        sb_np_table np;
        sb_np_table_info ti;
        sb_model other = cube(16);
        sb_table_opts o = {2, 2, SB_SCAN_AUTO, -1};
        sb_table_disk dk = {NULL, 0, 0, ck, 0};
        sb_table *t = NULL;

        uint64_t zero = 0;
        CHECK_INT(sb_np_table_init(&np, 3, 3, &err), 0);
        ti = sb_np_table_about(&np);
        stop_after = 3;
        stop_now = 0;
        CHECK_INT(sb_table_build_disk(&t, ti.model, &ti.goal, 1, &o, &dk, &mem, &ctl, &err), SB_EINTR);
        sb_table_free(t);
        t = NULL;
        CHECK_INT(sb_table_build_disk(&t, ti.model, &ti.goal, 1, &o, &dk, &mem, NULL, &err), SB_EUSAGE);
        snprintf(p, sizeof p, "%s holds a stopped build: resume it, or remove it", ck);
        CHECK_STR(err.msg, p);
        dk.resume = 1;
        CHECK_INT(sb_table_build_disk(&t, &other, &zero, 1, &o, &dk, &mem, NULL, &err), SB_EBADFILE);
        snprintf(p, sizeof p, "%s: not a checkpoint this build can resume: it is of another puzzle or size", ck);
        CHECK_STR(err.msg, p);
        snprintf(p, sizeof p, "%s/run", ck);
        corrupt(p, 80, 'x');
        CHECK_INT(sb_table_build_disk(&t, ti.model, &ti.goal, 1, &o, &dk, &mem, NULL, &err), SB_EBADFILE);
        snprintf(p, sizeof p, "%s: not a checkpoint this build can resume: its record is damaged", ck);
        CHECK_STR(err.msg, p);
        snprintf(p, sizeof p, "%s/run", ck);
        remove(p);
        CHECK_INT(sb_table_build_disk(&t, ti.model, &ti.goal, 1, &o, &dk, &mem, NULL, &err), SB_EBADFILE);
        snprintf(p, sizeof p, "%s: not a checkpoint this build can resume: no record of a build", ck);
        CHECK_STR(err.msg, p);
        CHECK(t == NULL);
        /* what is left is a user's folder: the next build may start afresh there */
        dk.resume = 0;
        CHECK_INT(sb_table_build_disk(&t, ti.model, &ti.goal, 1, &o, &dk, &mem, NULL, &err), 0);
        CHECK_U64(sb_table_count(t, 31), 2);
        CHECK_INT(entries(ck), 0);
        sb_table_free(t);
        sb_np_table_free(&np);
    }
    CHECK_U64(mem.used, 0);
    rmdir(ck);
}

/* The n-puzzle boards and the models above, each in budgets that force
 * from 2 to many slices. */
static void test_disk_models(void)
{
    static const int boards[][2] = {{2, 3}, {2, 4}, {3, 3}};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        sb_np_table np;
        sb_np_table_info ti;
        sb_table *ref = NULL;
        size_t data;
        int most = 0, least = 1 << 30;
        CHECK_INT(sb_np_table_init(&np, boards[i][0], boards[i][1], &err), 0);
        ti = sb_np_table_about(&np);
        CHECK_INT(sb_table_build(&ref, ti.model, &ti.goal, 1, NULL, &mem, NULL, &err), 0);
        data = (size_t)((ti.size + 31) / 32 * 8);
        /* slices of every size from a 128th of the table to half of it */
        for (int s = 6; ((ti.size - 1) >> s) >= 1; s++)
            if (((ti.size - 1) >> s) < 128)
            for (int th = 1; th <= 2; th++)
                CHECK_INT(disk_same(ref, ti.model, &ti.goal, 1, 0, s, th, -1),
                          (int)((ti.size - 1) >> s) + 1);
        /* and the budget choosing them */
        for (size_t div = 2; div <= 16; div *= 2)
            for (int th = 1; th <= 2; th++) {
                size_t budget = data / div + 4096 * (size_t)th;
                if (budget >= data)
                    continue;
                int k = disk_same(ref, ti.model, &ti.goal, 1, budget, 0, th, -1);
                most = k > most ? k : most;
                least = k && k < least ? k : least;
            }
        if (ti.size > 100000) {
            CHECK_INT(least, 3);
            CHECK_INT(most, 23);
        }
        sb_table_free(ref);
        sb_np_table_free(&np);
    }
    {
        /* the Tetraminx's model, 933,120 indices (228 KB of codes): in
         * 64K, slices of 2^16 (24 KB, and 1 KB buffers for 15 slices on
         * each thread); in 20000 bytes, 2^15 and 264-byte buffers */
        sb_tet_god *g = NULL;
        uint64_t solved = 0;
        CHECK_INT(sb_tet_god_build(&g, 2, NULL, NULL, &err), 0);
        if (g) {
            CHECK_INT(disk_same(g->table, &g->model, &solved, 1, 65536, 0, 2, -1), 15);
            CHECK_INT(disk_same(g->table, &g->model, &solved, 1, 20000, 0, 1, -1), 29);
            CHECK_INT(disk_same(g->table, &g->model, &solved, 1, 0, 18, 3, -1), 4);
        }
        sb_tet_god_free(g);
    }
    {
        sb_model m = cube(14);
        uint64_t zero = 0;
        sb_table *ref = NULL;
        CHECK_INT(build(&ref, &m, &zero, 1, 2, 1, SB_SCAN_FORWARD), 0);
        /* 2^12-index slices: 1536 bytes, and a 72-byte buffer for each of
         * the 4 slices per thread; 2^11: 768 bytes and 8 slices */
        CHECK_INT(disk_same(ref, &m, &zero, 1, 2112, 0, 2, -1), 4);
        CHECK_INT(disk_same(ref, &m, &zero, 1, 2111, 0, 2, -1), 8);
        CHECK_INT(disk_same(ref, &m, &zero, 1, 1344, 0, 1, -1), 8);
        {
            sb_table *t = NULL;
            sb_table_opts o = {2, 1, SB_SCAN_AUTO, -1};
            sb_table_disk dk = {disk_dir, 0, 0, NULL, 0};
            sb_mem small;
            sb_mem_init(&small, 1343);
            CHECK_INT(sb_table_build_disk(&t, &m, &zero, 1, &o, &dk, &small, NULL, &err), SB_ENOMEM);
            CHECK_STR(err.msg, "the memory budget of 1343 bytes is too small even for a table on disk (1 threads)");
            CHECK(t == NULL);
            CHECK_U64(small.used, 0);
        }
        sb_table_free(ref);
    }
}

int main(void)
{
    sb_mem_init(&mem, 0);
    RUN(test_cube);
    RUN(test_cube_limits);
    RUN(test_coords);
    RUN(test_directed);
    RUN(test_perm_and_pruning);
    RUN(test_files);
    RUN(test_save_whole_or_not);
    snprintf(disk_dir, sizeof disk_dir, "%s", "/tmp/sbfs-test-XXXXXX");
    if (!mkdtemp(disk_dir))
        return 1;
    RUN(test_disk_models);
    RUN(test_disk_random);
    RUN(test_disk_resume);
    rmdir(disk_dir);
    return TEST_END();
}
