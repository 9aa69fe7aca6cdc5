/* The Tetraminx God table: the distance from solved of every one of the
 * 933,120 positions, kept modulo 3 in 2 bits, and optimal solutions read
 * off it.
 *
 * The table itself is built, saved and loaded by the indexed engine
 * (include/sbfs/table.h).  This file only describes the puzzle to the
 * engine: 933,120 indices (sb_tet_rank's numbering), 8 moves computed from
 * the coordinate move tables, and symmetry (move m ^ 1 undoes move m), so
 * the engine may scan backwards at the late levels, where few positions
 * are left.
 *
 * Why modulo 3 is enough.  A move changes the distance by -1, 0 or +1, and
 * those three values are different modulo 3.  So from a position whose
 * residue is r, a neighbour with residue r - 1 (mod 3) is one move nearer
 * to solved, never one further or as far.  Following such neighbours from
 * any position reaches solved (index 0) in exactly its distance, and the
 * walk's length is the distance: no need to store it.  Example: a position
 * at distance 4 has residue 1; its neighbours have residues 0 (distance 3),
 * 1 (distance 4) and 2 (distance 5); the walk takes a residue-0 one, then
 * residue 2 (distance 2), 1, 0 = solved. */
#include "tet_internal.h"
#include "../index/table_internal.h"

#include <stdlib.h>
#include <string.h>

/* The successors of an index, from the coordinate move tables: two
 * lookups and a multiply-add per move.  (Handing the engine the tables as
 * sb_coord coordinates works too, but its generic path divides by the
 * coordinate sizes at run time: 314 million instructions for the whole
 * build against 256 million this way, by callgrind.)  `move` serves the
 * backward levels, which stop at the first neighbour that will do. */
static int tet_succ(void *ud, void *scratch, uint64_t r, uint64_t *out)
{
    const sb_tet_tables *t = ud;
    uint32_t eo = (uint32_t)r / SB_TET_NTWIST, tw = (uint32_t)r % SB_TET_NTWIST;
    (void)scratch;
    for (int m = 0; m < SB_TET_NMOVES; m++)
        out[m] = (uint64_t)t->eo_move[eo][m] * SB_TET_NTWIST + t->twist_move[tw][m];
    return SB_TET_NMOVES;
}

/* The engine hands in r < SB_TET_NPOS and m < SB_TET_NMOVES only, so this
 * skips the checks of sb_tet_index_move. */
static uint64_t tet_move(void *ud, void *scratch, uint64_t r, int m)
{
    const sb_tet_tables *t = ud;
    uint32_t eo = (uint32_t)r / SB_TET_NTWIST, tw = (uint32_t)r % SB_TET_NTWIST;
    (void)scratch;
    return (uint64_t)t->eo_move[eo][m] * SB_TET_NTWIST + t->twist_move[tw][m];
}

/* Fill the move tables and describe the puzzle to the engine.  The model
 * points into g, which must not move afterwards. */
static void model_init(sb_tet_god *g)
{
    sb_tet_tables_init(&g->tables);
    memset(&g->model, 0, sizeof g->model);
    g->model.name = "tetraminx";
    g->model.params = NULL;
    g->model.size = SB_TET_NPOS;
    g->model.nmoves = SB_TET_NMOVES;
    g->model.symmetric = 1; /* move m ^ 1 undoes move m */
    g->model.succ = tet_succ;
    g->model.move = tet_move;
    g->model.ud = &g->tables;
    g->table = NULL;
    g->codes = NULL;
}

/* A table that is not the complete 2-bit Tetraminx table is refused: from
 * a build that would be a bug, from a file a foreign table.  g is freed
 * on failure. */
static int adopt(sb_tet_god *g, int code, sb_error *err)
{
    sb_table_info t = sb_table_about(g->table);
    if (t.size != SB_TET_NPOS || t.bits != 2 || !t.complete || t.reached != SB_TET_NPOS ||
        t.levels > SB_TET_MAXDIST + 1 || sb_table_count(g->table, 0) != 1) {
        sb_tet_god_free(g);
        return sb_error_set(err, code, 0, 0, "not the complete Tetraminx table (%llu of %u positions, "
                            "%d bits)", (unsigned long long)t.reached, (unsigned)SB_TET_NPOS, t.bits);
    }
    g->codes = sb_table_codes(g->table);
    return 0;
}

/* A new god with its move tables and model, no table yet; NULL (err
 * filled) when out of memory.  The move tables (190 KB) are not charged to
 * the budget, like any other fixed-size model data. */
static sb_tet_god *god_new(sb_error *err)
{
    sb_tet_god *g = malloc(sizeof *g);
    if (!g) {
        sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory for the Tetraminx move tables");
        return NULL;
    }
    model_init(g);
    return g;
}

int sb_tet_god_build(sb_tet_god **out, int threads, sb_mem *mem, const sb_control *ctl,
                     sb_error *err)
{
    return sb_tet_god_build_disk(out, threads, NULL, mem, ctl, err);
}

int sb_tet_god_build_disk(sb_tet_god **out, int threads, const sb_table_disk *disk, sb_mem *mem,
                          const sb_control *ctl, sb_error *err)
{
    const uint64_t start = 0;
    sb_table_opts opts = {2, threads < 1 ? 1 : threads, SB_SCAN_AUTO, -1};
    sb_tet_god *g;
    int rc;
    if (!out)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_tet_god_build: g is NULL");
    *out = NULL;
    if (!(g = god_new(err)))
        return SB_ENOMEM;
    rc = sb_table_build_disk(&g->table, &g->model, &start, 1, &opts, disk, mem, ctl, err);
    if (rc) {
        sb_tet_god_free(g);
        return rc;
    }
    if ((rc = adopt(g, SB_EINTERNAL, err)) == 0)
        *out = g;
    return rc;
}

void sb_tet_god_free(sb_tet_god *g)
{
    if (!g)
        return;
    sb_table_free(g->table);
    free(g);
}

const sb_table *sb_tet_god_table(const sb_tet_god *g)
{
    return g ? g->table : NULL;
}

int sb_tet_god_solve(const sb_tet_god *g, uint32_t index, uint8_t *moves)
{
    const sb_tet_tables *t;
    int d = 0;
    if (!g || !moves || index >= SB_TET_NPOS || !g->codes)
        return SB_EUSAGE;
    t = &g->tables;
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

int sb_tet_god_load(sb_tet_god **out, const char *path, sb_mem *mem, sb_error *err)
{
    sb_tet_god *g;
    int rc;
    if (!out)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_tet_god_load: g is NULL");
    *out = NULL;
    if (!(g = god_new(err)))
        return SB_ENOMEM;
    rc = sb_table_load(&g->table, &g->model, path, mem, err);
    if (rc) {
        sb_tet_god_free(g);
        return rc;
    }
    if ((rc = adopt(g, SB_EBADFILE, err)) == 0)
        *out = g;
    return rc;
}
