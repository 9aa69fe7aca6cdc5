/* The Tetraminx God table: the distance from solved of every one of the
 * 933,120 positions, kept modulo 3 in 2 bits, and optimal solutions read
 * off it.
 *
 * Why modulo 3 is enough.  A move changes the distance by -1, 0 or +1, and
 * those three values are different modulo 3.  So from a position whose
 * residue is r, a neighbour with residue r - 1 (mod 3) is one move nearer
 * to solved, never one further or as far.  Following such neighbours from
 * any position reaches solved (index 0) in exactly its distance, and the
 * walk's length is the distance: no need to store it.  Example: a position
 * at distance 4 has residue 1; its neighbours have residues 0 (distance 3),
 * 1 (distance 4) and 2 (distance 5); the walk takes a residue-0 one, then
 * residue 2 (distance 2), 1, 0 = solved.
 *
 * The table is built by breadth-first search from solved over the indices,
 * with the coordinate move tables: each index enters a FIFO queue once,
 * when first reached, and the queue's contents between two level marks are
 * exactly one distance.  Value 3 marks "not reached yet".  About a million
 * entries times eight moves, all in a 228 KB table: milliseconds.
 *
 * This is the one place that knows how the table is built; everything else
 * sees sb_tet_god_mod3 and sb_tet_god_solve. */
#include "sbfs/tetraminx.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void set2(uint8_t *t, uint32_t i, int v)
{
    uint8_t *b = &t[i >> 2];
    int sh = (int)(i & 3) * 2;
    *b = (uint8_t)((*b & ~(3 << sh)) | (v << sh));
}

void sb_tet_god_free(sb_tet_god *g)
{
    if (g->dist && g->mem)
        sb_mem_free(g->mem, g->dist, SB_TET_GOD_BYTES);
    g->dist = NULL;
}

static int alloc_table(sb_tet_god *g, sb_mem *mem, sb_error *err)
{
    memset(g->hist, 0, sizeof g->hist);
    g->maxdist = 0;
    g->mem = mem;
    g->dist = sb_mem_alloc(mem, SB_TET_GOD_BYTES, err);
    if (!g->dist)
        return err ? err->code : SB_ENOMEM;
    sb_tet_tables_init(&g->tables);
    return 0;
}

int sb_tet_god_build(sb_tet_god *g, sb_mem *mem, const sb_control *ctl, sb_error *err)
{
    const sb_tet_tables *t = &g->tables;
    size_t qbytes = (size_t)SB_TET_NPOS * sizeof(uint32_t);
    uint32_t *queue, head = 0, tail = 0;
    int d = 0, rc;

    if ((rc = alloc_table(g, mem, err)) != 0)
        return rc;
    queue = sb_mem_alloc(mem, qbytes, err);
    if (!queue) {
        sb_tet_god_free(g);
        return err ? err->code : SB_ENOMEM;
    }
    memset(g->dist, 0xff, SB_TET_GOD_BYTES);
    set2(g->dist, 0, 0);
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t end = tail;
        int next = (d + 1) % 3;
        g->hist[d] = end - head;
        g->maxdist = d;
        if (ctl && ctl->progress) {
            sb_progress_info info = {"tetraminx table", d, tail, SB_TET_NPOS, mem->used};
            ctl->progress(ctl->ud, &info);
        }
        if (sb_control_stopped(ctl)) {
            sb_mem_free(mem, queue, qbytes);
            sb_tet_god_free(g);
            return sb_error_set(err, SB_EINTR, 0, 0, "interrupted while building the table");
        }
        for (; head < end; head++) {
            uint32_t x = queue[head], eo = x / SB_TET_NTWIST, tw = x % SB_TET_NTWIST;
            for (int m = 0; m < SB_TET_NMOVES; m++) {
                uint32_t y = (uint32_t)t->eo_move[eo][m] * SB_TET_NTWIST + t->twist_move[tw][m];
                if (sb_tet_god_mod3(g, y) == 3) {
                    set2(g->dist, y, next);
                    queue[tail++] = y;
                }
            }
        }
        d++;
        if (d > SB_TET_MAXDIST && head < tail) {
            sb_mem_free(mem, queue, qbytes);
            sb_tet_god_free(g);
            return sb_error_set(err, SB_EINTERNAL, 0, 0, "tetraminx table deeper than %d",
                                SB_TET_MAXDIST);
        }
    }
    sb_mem_free(mem, queue, qbytes);
    if (tail != SB_TET_NPOS) {
        sb_tet_god_free(g);
        return sb_error_set(err, SB_EINTERNAL, 0, 0, "tetraminx table reached %u of %u positions",
                            (unsigned)tail, (unsigned)SB_TET_NPOS);
    }
    return 0;
}

int sb_tet_god_solve(const sb_tet_god *g, uint32_t index, uint8_t *moves)
{
    const sb_tet_tables *t = &g->tables;
    int d = 0;
    while (index != 0) {
        uint32_t eo = index / SB_TET_NTWIST, tw = index % SB_TET_NTWIST;
        int want = (sb_tet_god_mod3(g, index) + 2) % 3, m;
        for (m = 0; m < SB_TET_NMOVES; m++) {
            uint32_t y = (uint32_t)t->eo_move[eo][m] * SB_TET_NTWIST + t->twist_move[tw][m];
            if (sb_tet_god_mod3(g, y) == want) {
                index = y;
                break;
            }
        }
        if (m == SB_TET_NMOVES || d == SB_TET_MAXDIST)
            return SB_EINTERNAL; /* only a damaged table gets here */
        moves[d++] = (uint8_t)m;
    }
    return d;
}

/* ---- The file ---------------------------------------------------------------
 * Little-endian throughout:
 *   8 bytes  "SBFSTETR"
 *   4 bytes  format version, 1
 *   4 bytes  positions, 933120
 *   4 bytes  bits per position, 2
 *   4 bytes  index layout, 1 = (eperm * 32 + eflip) * 81 + twist
 *  12 x 8    positions at distance 0..11
 *   8 bytes  FNV-1a 64 of the table bytes
 *   233,280 bytes of table, 4 positions a byte, lowest bits first. */
enum { HEADER_BYTES = 8 + 4 * 4 + (SB_TET_MAXDIST + 1) * 8 + 8, FILE_VERSION = 1, LAYOUT = 1 };
static const char file_magic[8] = {'S', 'B', 'F', 'S', 'T', 'E', 'T', 'R'};

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static void put(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

int sb_tet_god_save(const sb_tet_god *g, const char *path, sb_error *err)
{
    uint8_t h[HEADER_BYTES], *p = h;
    FILE *f = fopen(path, "wb");
    int ok;
    if (!f)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(errno));
    memcpy(p, file_magic, 8), p += 8;
    put(p, FILE_VERSION, 4), p += 4;
    put(p, SB_TET_NPOS, 4), p += 4;
    put(p, 2, 4), p += 4;
    put(p, LAYOUT, 4), p += 4;
    for (int d = 0; d <= SB_TET_MAXDIST; d++)
        put(p, g->hist[d], 8), p += 8;
    put(p, fnv1a(g->dist, SB_TET_GOD_BYTES), 8);
    ok = fwrite(h, 1, sizeof h, f) == sizeof h &&
         fwrite(g->dist, 1, SB_TET_GOD_BYTES, f) == SB_TET_GOD_BYTES;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: could not write the table", path);
    return 0;
}

static int refuse(sb_tet_god *g, FILE *f, const char *path, const char *why, sb_error *err)
{
    fclose(f);
    sb_tet_god_free(g);
    return sb_error_set(err, SB_EBADFILE, 0, 0, "%s: not a Tetraminx table of this sbfs: %s", path,
                        why);
}

int sb_tet_god_load(sb_tet_god *g, const char *path, sb_mem *mem, sb_error *err)
{
    uint8_t h[HEADER_BYTES], *p = h + 8;
    uint64_t total = 0, byres[3] = {0, 0, 0}, seen[4] = {0, 0, 0, 0};
    FILE *f = fopen(path, "rb");
    int rc;
    if (!f)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(errno));
    g->dist = NULL;
    if (fread(h, 1, sizeof h, f) != sizeof h)
        return refuse(g, f, path, "too short", err);
    if (memcmp(h, file_magic, 8) != 0)
        return refuse(g, f, path, "wrong magic", err);
    if (get(p, 4) != FILE_VERSION || get(p + 4, 4) != SB_TET_NPOS || get(p + 8, 4) != 2 ||
        get(p + 12, 4) != LAYOUT)
        return refuse(g, f, path, "different version, size or layout", err);
    if ((rc = alloc_table(g, mem, err)) != 0) {
        fclose(f);
        return rc;
    }
    p += 16;
    for (int d = 0; d <= SB_TET_MAXDIST; d++, p += 8) {
        g->hist[d] = get(p, 8);
        total += g->hist[d];
        byres[d % 3] += g->hist[d];
        if (g->hist[d])
            g->maxdist = d;
    }
    if (total != SB_TET_NPOS || g->hist[0] != 1)
        return refuse(g, f, path, "its histogram does not add up", err);
    if (fread(g->dist, 1, SB_TET_GOD_BYTES, f) != SB_TET_GOD_BYTES)
        return refuse(g, f, path, "too short", err);
    if (fgetc(f) != EOF)
        return refuse(g, f, path, "too long", err);
    if (fnv1a(g->dist, SB_TET_GOD_BYTES) != get(p, 8))
        return refuse(g, f, path, "checksum mismatch", err);
    /* The checksum guards against damage; this guards against a table that
     * was written wrong: its residues must agree with its histogram. */
    for (uint32_t i = 0; i < SB_TET_NPOS; i++)
        seen[sb_tet_god_mod3(g, i)]++;
    if (seen[3] || seen[0] != byres[0] || seen[1] != byres[1] || seen[2] != byres[2] ||
        sb_tet_god_mod3(g, 0) != 0)
        return refuse(g, f, path, "its entries do not match its histogram", err);
    fclose(f);
    return 0;
}
