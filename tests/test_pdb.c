/* Unit tests of the pattern databases: ranking, the values against bounds
 * computed here (Manhattan distance below, true distance above), and the
 * files: a damaged, truncated or foreign file is refused. */
#include "harness.h"
#include "../src/npuzzle/np_internal.h"

#include <unistd.h>

static void test_rank(void)
{
    sb_np_pdb p;
    sb_error e;
    uint8_t tiles[8] = {1, 2, 3, 4}, pos[8], back[8];
    uint64_t seen = 0;
    char *hit;
    CHECK_INT(sb_np_pdb_init(&p, 3, 3, tiles, 4, &e), 0);
    CHECK_U64(p.size, 9 * 8 * 7 * 6);
    hit = calloc(p.size, 1);
    /* every placement of 4 tiles on 9 cells, in lexicographic order */
    for (int a = 0; a < 9; a++)
        for (int b = 0; b < 9; b++)
            for (int c = 0; c < 9; c++)
                for (int d = 0; d < 9; d++) {
                    uint64_t r;
                    if (a == b || a == c || a == d || b == c || b == d || c == d)
                        continue;
                    pos[0] = (uint8_t)a, pos[1] = (uint8_t)b, pos[2] = (uint8_t)c, pos[3] = (uint8_t)d;
                    r = sb_np_pdb_index(&p, pos);
                    if (r == seen && !hit[r])
                        seen++;
                    hit[r] = 1;
                    sb_np_pdb_unrank(&p, r, back);
                    if (memcmp(back, pos, 4) != 0)
                        seen = UINT64_MAX / 2;
                }
    CHECK_U64(seen, p.size);
    free(hit);
    /* 8 of 16: ends of the range */
    for (int i = 0; i < 8; i++)
        tiles[i] = (uint8_t)(8 + i);
    CHECK_INT(sb_np_pdb_init(&p, 4, 4, tiles, 8, &e), 0);
    CHECK_U64(p.size, 518918400);
    for (int i = 0; i < 8; i++)
        pos[i] = (uint8_t)i;
    CHECK_U64(sb_np_pdb_index(&p, pos), 0);
    for (int i = 0; i < 8; i++)
        pos[i] = (uint8_t)(15 - i);
    CHECK_U64(sb_np_pdb_index(&p, pos), p.size - 1);
    sb_np_pdb_unrank(&p, p.size - 1, back);
    CHECK(memcmp(back, pos, 8) == 0);
    /* bad patterns */
    tiles[0] = 0;
    CHECK_INT(sb_np_pdb_init(&p, 4, 4, tiles, 2, &e), SB_EUSAGE);
    tiles[0] = 9;
    CHECK_INT(sb_np_pdb_init(&p, 4, 4, tiles, 2, &e), SB_EUSAGE);
    CHECK_INT(sb_np_pdb_init(&p, 6, 4, tiles, 2, &e), SB_EUSAGE);
}

/* Brute-force check on the 8-puzzle with the 4-4 split {1,2,3,4} {5,6,7,8}:
 * for every solvable position, the sum of the two table values lies between
 * the Manhattan distance and the true distance (from a BFS here); the goal
 * has 0; some positions are exact, some not. */
static int nn;
static uint32_t rk(const uint8_t *c)
{
    uint32_t r = 0;
    for (int i = 0; i < nn; i++) {
        int less = 0;
        for (int j = i + 1; j < nn; j++)
            less += c[j] < c[i];
        r = r * (uint32_t)(nn - i) + (uint32_t)less;
    }
    return r;
}

static void test_bounds(void)
{
    static uint8_t dist[362880];
    static uint32_t q[181440];
    uint32_t head = 0, tail = 0, checked = 0, good = 0, exact = 0;
    uint8_t g1[4] = {1, 2, 3, 4}, g2[4] = {5, 6, 7, 8};
    sb_np_pdb a, b;
    sb_mem mem;
    sb_error e;
    uint8_t c[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    nn = 9;
    memset(dist, 0xff, sizeof dist);
    q[tail++] = rk(c);
    dist[q[0]] = 0;
    /* BFS storing positions as ranks; unrank by trying: keep boards too */
    {
        static uint8_t boards[181440][9];
        memcpy(boards[0], c, 9);
        while (head < tail) {
            uint8_t *s = boards[head];
            uint32_t r = q[head++];
            int bl = 0;
            while (s[bl])
                bl++;
            for (int d = 0; d < 4; d++) {
                int to = d == 0 ? bl - 3 : d == 1 ? bl + 3 : d == 2 ? bl - 1 : bl + 1;
                uint8_t t[9];
                uint32_t x;
                if (to < 0 || to > 8 || (d == 2 && bl % 3 == 0) || (d == 3 && bl % 3 == 2))
                    continue;
                memcpy(t, s, 9);
                t[bl] = t[to];
                t[to] = 0;
                x = rk(t);
                if (dist[x] == 0xff) {
                    dist[x] = (uint8_t)(dist[r] + 1);
                    memcpy(boards[tail], t, 9);
                    q[tail++] = x;
                }
            }
        }
        CHECK_U64(tail, 181440);
        sb_mem_init(&mem, 0);
        CHECK_INT(sb_np_pdb_init(&a, 3, 3, g1, 4, &e), 0);
        CHECK_INT(sb_np_pdb_init(&b, 3, 3, g2, 4, &e), 0);
        CHECK_INT(sb_np_pdb_build(&a, &mem, 1, NULL, &e), 0);
        CHECK_INT(sb_np_pdb_build(&b, &mem, 1, NULL, &e), 0);
        for (uint32_t i = 0; i < tail; i++) {
            uint8_t *s = boards[i], pa[4], pb[4];
            int man = 0, h;
            for (int cell = 0; cell < 9; cell++) {
                int t = s[cell];
                if (!t)
                    continue;
                man += abs(cell / 3 - t / 3) + abs(cell % 3 - t % 3);
                if (t <= 4)
                    pa[t - 1] = (uint8_t)cell;
                else
                    pb[t - 5] = (uint8_t)cell;
            }
            h = a.dist[sb_np_pdb_index(&a, pa)] + b.dist[sb_np_pdb_index(&b, pb)];
            checked++;
            good += man <= h && h <= dist[q[i]];
            exact += h == dist[q[i]];
        }
        CHECK_U64(good, checked);
        CHECK(exact > 0 && exact < checked);
        CHECK_U64(mem.used, 9 * 8 * 7 * 6 * 2);
        sb_np_pdb_free(&a);
        sb_np_pdb_free(&b);
        CHECK_U64(mem.used, 0);
    }
}

static void test_corner(void)
{
    /* 2x2, pattern {1} (home in cell 1): in cell 2, two steps away, tile 1
     * needs 2 moves; in cell 3, one; at home, none. */
    uint8_t t[1] = {1}, pos[1];
    sb_np_pdb p;
    sb_mem mem;
    sb_error e;
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_np_pdb_init(&p, 2, 2, t, 1, &e), 0);
    CHECK_INT(sb_np_pdb_build(&p, &mem, 1, NULL, &e), 0);
    pos[0] = 2;
    CHECK_INT(p.dist[sb_np_pdb_index(&p, pos)], 2);
    pos[0] = 3;
    CHECK_INT(p.dist[sb_np_pdb_index(&p, pos)], 1);
    pos[0] = 1;
    CHECK_INT(p.dist[sb_np_pdb_index(&p, pos)], 0);
    sb_np_pdb_free(&p);
}

static long fsize(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fclose(f);
    return n;
}

static void poke(const char *path, long at, int delta)
{
    FILE *f = fopen(path, "r+b");
    int c;
    fseek(f, at, SEEK_SET);
    c = getc(f);
    fseek(f, at, SEEK_SET);
    putc((c + delta) & 0xff, f);
    fclose(f);
}

static void test_files(void)
{
    char dir[] = "/tmp/sbfs-test-pdb-XXXXXX", path[256], other[256];
    uint8_t t[3] = {1, 2, 3}, t2[3] = {1, 2, 4};
    sb_np_pdb p, q, r;
    sb_mem mem;
    sb_error e;
    FILE *f;
    CHECK(mkdtemp(dir) != NULL);
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_np_pdb_init(&p, 3, 3, t, 3, &e), 0);
    CHECK_INT(sb_np_pdb_build(&p, &mem, 1, NULL, &e), 0);
    sb_np_pdb_filename(&p, path, sizeof path);
    CHECK_STR(path, "npuzzle-3x3-1.2.3-v3.pdb");
    snprintf(path, sizeof path, "%s/a.pdb", dir);
    snprintf(other, sizeof other, "%s/b.pdb", dir);
    CHECK_INT(sb_np_pdb_save(&p, path, &e), 0);
    CHECK_INT(fsize(path), 64 + 504 + 8);
    CHECK(sb_np_pdb_probe(&p, path));
    /* round trip */
    CHECK_INT(sb_np_pdb_init(&q, 3, 3, t, 3, &e), 0);
    CHECK_INT(sb_np_pdb_load(&q, path, &mem, NULL, &e), 0);
    CHECK(memcmp(q.dist, p.dist, p.size) == 0);
    sb_np_pdb_free(&q);
    /* foreign: a table of another pattern */
    CHECK_INT(sb_np_pdb_init(&r, 3, 3, t2, 3, &e), 0);
    CHECK(!sb_np_pdb_probe(&r, path));
    CHECK_INT(sb_np_pdb_load(&r, path, &mem, NULL, &e), SB_EBADFILE);
    /* one flipped byte of data */
    poke(path, 64 + 100, 1);
    CHECK_INT(sb_np_pdb_load(&q, path, &mem, NULL, &e), SB_EBADFILE);
    CHECK(strstr(e.msg, "checksum") != NULL);
    poke(path, 64 + 100, -1);
    CHECK_INT(sb_np_pdb_load(&q, path, &mem, NULL, &e), 0);
    sb_np_pdb_free(&q);
    /* a damaged header */
    poke(path, 13, 1);
    CHECK_INT(sb_np_pdb_load(&q, path, &mem, NULL, &e), SB_EBADFILE);
    poke(path, 13, -1);
    /* truncated, and too long */
    CHECK_INT(truncate(path, 64 + 503), 0);
    CHECK_INT(sb_np_pdb_load(&q, path, &mem, NULL, &e), SB_EBADFILE);
    CHECK_INT(sb_np_pdb_save(&p, path, &e), 0);
    f = fopen(path, "ab");
    putc(0, f);
    fclose(f);
    CHECK_INT(sb_np_pdb_load(&q, path, &mem, NULL, &e), SB_EBADFILE);
    /* a file of the format before (version 2) under this one's name: its
     * version named, so the caller rebuilds it */
    f = fopen(path, "wb");
    fwrite("sbfsPDB\n\2\0\0\0\3\3\3\0\1\2\3", 1, 19, f);
    for (int i = 19; i < 64 + 504; i++)
        putc(0, f);
    fclose(f);
    CHECK(!sb_np_pdb_probe(&p, path));
    CHECK_INT(sb_np_pdb_load(&q, path, &mem, NULL, &e), SB_EBADFILE);
    {
        char want[400];
        snprintf(want, sizeof want, "%s: a pattern database in format version 2; this sbfs reads only version 3", path);
        CHECK_STR(e.msg, want);
    }
    /* not there */
    CHECK_INT(sb_np_pdb_load(&q, other, &mem, NULL, &e), SB_EIO);
    CHECK_U64(mem.used, p.size);
    sb_np_pdb_free(&p);
    CHECK_U64(mem.used, 0);
    remove(path);
    rmdir(dir);
}

/* The slow, plain construction the builder must agree with byte for byte:
 * a breadth-first search by cost over the abstract states themselves,
 * (placement, blank cell), a pattern tile's move costing 1 and the blank's
 * step into a free cell 0; a placement's value is the least cost over its
 * blank cells, 255 when no state of it is reached.  Level L is a queue of
 * states; a state is expanded at the level of its distance (stale copies
 * are skipped), its free steps appended to the same queue, its tile moves
 * to the next. */
static uint8_t *ref_build(int rows, int cols, const uint8_t *tiles, int k)
{
    sb_np_pdb p;
    int n = rows * cols;
    uint64_t size, nst, len[2] = {0, 0};
    uint32_t *q[2];
    uint8_t *dist, *val, pos[SB_NP_PDB_MAXK];
    if (sb_np_pdb_init(&p, rows, cols, tiles, k, NULL) != 0)
        return NULL;
    size = p.size;
    nst = size * (uint64_t)n;
    dist = malloc(nst);
    val = malloc(size);
    /* a state enters a level's queue at most once: when its distance
     * drops to that level */
    q[0] = malloc(nst * sizeof **q);
    q[1] = malloc(nst * sizeof **q);
    memset(dist, 0xff, nst);
    memset(val, 0xff, size);
    memcpy(pos, tiles, (size_t)k);
    q[0][len[0]++] = (uint32_t)(sb_np_pdb_rank(&p, pos) * (uint64_t)n);
    dist[q[0][0]] = 0;
    for (int level = 0; len[level & 1]; level++) {
        uint32_t *cur = q[level & 1], *nxt = q[(level + 1) & 1];
        len[(level + 1) & 1] = 0;
        for (uint64_t h = 0; h < len[level & 1]; h++) {
            uint64_t st = cur[h], r = st / (uint64_t)n;
            int bl = (int)(st % (uint64_t)n);
            if (dist[st] != level)
                continue;
            if (val[r] > level)
                val[r] = (uint8_t)level;
            sb_np_pdb_unrank(&p, r, pos);
            for (int d = 0; d < 4; d++) {
                int c = bl + (d == 0 ? -cols : d == 1 ? cols : d == 2 ? -1 : 1), i = 0;
                uint64_t to;
                if (c < 0 || c >= n || (d == 2 && bl % cols == 0) || (d == 3 && bl % cols == cols - 1))
                    continue;
                while (i < k && pos[i] != c)
                    i++;
                if (i == k) { /* the blank steps into a free cell: free */
                    to = r * (uint64_t)n + (uint64_t)c;
                    if (dist[to] > level) {
                        dist[to] = (uint8_t)level;
                        cur[len[level & 1]++] = (uint32_t)to;
                    }
                    continue;
                }
                pos[i] = (uint8_t)bl; /* tile i slides into the blank: 1 */
                to = sb_np_pdb_rank(&p, pos) * (uint64_t)n + (uint64_t)c;
                pos[i] = (uint8_t)c;
                if (dist[to] > level + 1) {
                    dist[to] = (uint8_t)(level + 1);
                    nxt[len[(level + 1) & 1]++] = (uint32_t)to;
                }
            }
        }
    }
    free(q[0]);
    free(q[1]);
    free(dist);
    return val;
}

/* The builder against ref_build on random patterns of every set width (1,
 * 2 and 4 bytes, by the free cells), on boards where some placements are
 * unreachable (3 x 3 and 2 x 3 with every tile in the pattern), on 1, 2
 * and 3 threads: the tables must be the same bytes.  Patterns of 64K
 * placements or more are built on the threads asked for. */
static void test_against_plain(void)
{
    static const int shape[][3] = {
        {3, 4, 5}, {4, 4, 5}, {3, 5, 5}, {2, 5, 6}, {3, 3, 8}, {5, 5, 4},
        {4, 5, 4}, {2, 3, 5}, {2, 2, 3}, {3, 3, 4}, {2, 4, 7}, {4, 3, 5},
    };
    int nshape = (int)(sizeof shape / sizeof shape[0]);
    sb_rng rng;
    sb_rng_seed(&rng, 20240519);
    for (int round = 0; round < 14; round++) {
        const int *sh = shape[round < nshape ? round : (int)sb_rng_below(&rng, (uint64_t)nshape)];
        int rows = sh[0], cols = sh[1], k = sh[2], n = rows * cols;
        uint8_t cells[SB_NP_MAXCELLS], tiles[SB_NP_PDB_MAXK], *want;
        /* k distinct tiles of 1..n-1, in random order */
        for (int i = 0; i < n - 1; i++)
            cells[i] = (uint8_t)(i + 1);
        for (int i = 0; i < k; i++) {
            int j = i + (int)sb_rng_below(&rng, (uint64_t)(n - 1 - i));
            uint8_t t = cells[i];
            cells[i] = cells[j];
            cells[j] = t;
            tiles[i] = cells[i];
        }
        want = ref_build(rows, cols, tiles, k);
        CHECK(want != NULL);
        for (int threads = 1; want && threads <= 3; threads++) {
            sb_np_pdb p;
            sb_error e;
            CHECK_INT(sb_np_pdb_init(&p, rows, cols, tiles, k, &e), 0);
            CHECK_INT(sb_np_pdb_build(&p, NULL, threads, NULL, &e), 0);
            if (memcmp(p.dist, want, p.size) != 0) {
                uint64_t i = 0;
                while (p.dist[i] == want[i])
                    i++;
                fprintf(stderr, "  %dx%d, %d tiles from %d, %d threads: placement %llu is %d, not %d\n",
                        rows, cols, k, tiles[0], threads, (unsigned long long)i, p.dist[i], want[i]);
                CHECK(0);
            }
            CHECK_U64(p.checksum, sb_np_pdb_checksum(want, p.size));
            sb_np_pdb_free(&p);
        }
        free(want);
    }
}

static void test_threads(void)
{
    /* the same table whether one thread builds it or three */
    uint8_t t[5] = {1, 2, 3, 6, 7};
    sb_np_pdb a, b;
    sb_mem mem;
    sb_error e;
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_np_pdb_init(&a, 4, 4, t, 5, &e), 0);
    CHECK_INT(sb_np_pdb_init(&b, 4, 4, t, 5, &e), 0);
    CHECK_INT(sb_np_pdb_build(&a, &mem, 1, NULL, &e), 0);
    CHECK_INT(sb_np_pdb_build(&b, &mem, 3, NULL, &e), 0);
    CHECK_U64(a.size, 524160);
    CHECK(memcmp(a.dist, b.dist, a.size) == 0);
    CHECK_U64(a.checksum, b.checksum);
    sb_np_pdb_free(&a);
    sb_np_pdb_free(&b);
}

static void test_budget(void)
{
    uint8_t t[4] = {1, 2, 3, 4};
    sb_np_pdb p;
    sb_mem mem;
    sb_error e;
    sb_mem_init(&mem, 4000);
    CHECK_INT(sb_np_pdb_init(&p, 3, 3, t, 4, &e), 0);
    CHECK_INT(sb_np_pdb_build(&p, &mem, 1, NULL, &e), SB_ENOMEM);
    CHECK_U64(mem.used, 0);
}

/* A table mapped from its file gives the answers of the table read from
 * it and of the one built; every damaged file is refused whether mapped
 * with or without trusting its marker, and a marker vouches only for the
 * file exactly as it was checked. */
static void test_mapped(void)
{
    char dir[] = "/tmp/sbfs-test-pdbmap-XXXXXX", path[256], mark[300], saved[300];
    uint8_t t[4] = {1, 2, 5, 6};
    sb_np_pdb built, rd, mp;
    sb_mem mem;
    sb_error e;
    uint64_t same = 0, x = 12345;
    FILE *f;
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/t.pdb", dir);
    snprintf(mark, sizeof mark, "%s.ok", path);
    snprintf(saved, sizeof saved, "%s/saved.ok", dir);
    sb_mem_init(&mem, 0);
    CHECK_INT(sb_np_pdb_init(&built, 4, 4, t, 4, &e), 0);
    CHECK_INT(sb_np_pdb_build(&built, &mem, 2, NULL, &e), 0);
    CHECK_INT(sb_np_pdb_save(&built, path, &e), 0);
    CHECK_INT(sb_np_pdb_init(&rd, 4, 4, t, 4, &e), 0);
    CHECK_INT(sb_np_pdb_init(&mp, 4, 4, t, 4, &e), 0);
    CHECK_INT(sb_np_pdb_load(&rd, path, &mem, NULL, &e), 0);
    CHECK_INT(sb_np_pdb_map(&mp, path, SB_TF_TRUSTED, &e), 0);
    CHECK_U64(mem.used, 2 * built.size); /* the mapped table takes no budget */
    CHECK_U64(mp.checksum, built.checksum);
    CHECK(memcmp(mp.dist, built.dist, built.size) == 0);
    /* the same lookups through the index, at random placements */
    for (int i = 0; i < 20000; i++) {
        uint8_t pos[4];
        x = x * 6364136223846793005u + 1442695040888963407u;
        CHECK_INT(sb_np_pdb_unrank(&built, (x >> 20) % built.size, pos), 0);
        same += mp.dist[sb_np_pdb_index(&mp, pos)] == rd.dist[sb_np_pdb_index(&rd, pos)] &&
                mp.dist[sb_np_pdb_index(&mp, pos)] == built.dist[sb_np_pdb_index(&built, pos)];
    }
    CHECK_U64(same, 20000);
    sb_np_pdb_free(&mp);
    sb_np_pdb_free(&rd);
    /* a file changed a moment ago gets no marker: it is checked whole */
    CHECK(access(mark, F_OK) != 0);
    /* one flipped byte, cut, too long: refused mapped, trusted or not */
    poke(path, 64 + 1000, 1);
    CHECK_INT(sb_np_pdb_map(&mp, path, SB_TF_TRUSTED, &e), SB_EBADFILE);
    CHECK(strstr(e.msg, "checksum mismatch") != NULL);
    CHECK_INT(sb_np_pdb_map(&mp, path, SB_TF_VERIFY, &e), SB_EBADFILE);
    CHECK(mp.dist == NULL);
    poke(path, 64 + 1000, -1);
    CHECK_INT(truncate(path, 64 + (long)built.size + 4), 0);
    CHECK_INT(sb_np_pdb_map(&mp, path, SB_TF_TRUSTED, &e), SB_EBADFILE);
    CHECK(strstr(e.msg, "truncated (the checksum is missing)") != NULL);
    CHECK_INT(truncate(path, 64 + 10), 0);
    CHECK_INT(sb_np_pdb_map(&mp, path, SB_TF_TRUSTED, &e), SB_EBADFILE);
    CHECK(strstr(e.msg, "truncated (the data is cut short)") != NULL);
    CHECK_INT(sb_np_pdb_save(&built, path, &e), 0);
    f = fopen(path, "ab");
    putc(0, f);
    fclose(f);
    CHECK_INT(sb_np_pdb_map(&mp, path, SB_TF_TRUSTED, &e), SB_EBADFILE);
    CHECK(strstr(e.msg, "longer than its header says") != NULL);
    /* A marker: written by a full check made over a second after the
     * file's last change.  It vouches for that file only: after a change
     * (even one undone, or with the old marker put back) the file is
     * checked whole again and a damaged one refused. */
    CHECK_INT(sb_np_pdb_save(&built, path, &e), 0);
    sleep(2);
    CHECK_INT(sb_np_pdb_map(&mp, path, SB_TF_TRUSTED, &e), 0);
    sb_np_pdb_free(&mp);
    CHECK(access(mark, F_OK) == 0);
    CHECK_INT(rename(mark, saved), 0);
    CHECK_INT(sb_np_pdb_verify_file(path, NULL, 0), 0); /* writes the marker again */
    CHECK(access(mark, F_OK) == 0);
    poke(path, 64 + 7, 3);
    CHECK_INT(rename(saved, mark), 0);
    CHECK_INT(sb_np_pdb_map(&mp, path, SB_TF_TRUSTED, &e), SB_EBADFILE);
    CHECK(strstr(e.msg, "checksum mismatch") != NULL);
    {
        char why[400];
        CHECK(sb_np_pdb_verify_file(path, why, sizeof why) != 0);
        CHECK(strstr(why, "checksum mismatch") != NULL);
    }
    sb_np_pdb_free(&built);
    CHECK_U64(mem.used, 0);
    remove(mark);
    remove(path);
    rmdir(dir);
}

int main(void)
{
    RUN(test_mapped);
    RUN(test_rank);
    RUN(test_corner);
    RUN(test_bounds);
    RUN(test_files);
    RUN(test_threads);
    RUN(test_against_plain);
    RUN(test_budget);
    return TEST_END();
}
