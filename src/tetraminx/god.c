/* The Tetraminx God table: the distance from solved of every one of the
 * 933,120 positions, kept modulo 3 in 2 bits, and optimal solutions read
 * off it.
 *
 * The table itself is built, saved and loaded by the indexed engine
 * (include/sbfs/table.h).  This file only describes the puzzle to the
 * engine, as two coordinates with their transition tables: the edge state
 * eo (11,520 values, most significant) and the twists (81), so that the
 * engine's index is exactly sb_tet_rank's, eo * 81 + twist.  Every move is
 * its own inverse's inverse (m and m ^ 1), so the model is symmetric and
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
#include "sbfs/tetraminx.h"

#include <string.h>

/* Copy the move tables into the layout the engine reads and describe the
 * puzzle.  The model points into g, which must not move afterwards. */
static void model_init(sb_tet_god *g)
{
    sb_tet_tables_init(&g->tables);
    for (int x = 0; x < SB_TET_NEO; x++)
        for (int m = 0; m < SB_TET_NMOVES; m++)
            g->eo_move[x * SB_TET_NMOVES + m] = g->tables.eo_move[x][m];
    for (int x = 0; x < SB_TET_NTWIST; x++)
        for (int m = 0; m < SB_TET_NMOVES; m++)
            g->twist_move[x * SB_TET_NMOVES + m] = g->tables.twist_move[x][m];
    g->coords[0].size = SB_TET_NEO;
    g->coords[0].move = g->eo_move;
    g->coords[1].size = SB_TET_NTWIST;
    g->coords[1].move = g->twist_move;
    memset(&g->model, 0, sizeof g->model);
    g->model.name = "tetraminx";
    g->model.params = NULL;
    g->model.size = SB_TET_NPOS;
    g->model.nmoves = SB_TET_NMOVES;
    g->model.symmetric = 1;
    g->model.ncoords = 2;
    g->model.coords = g->coords;
    memset(&g->table, 0, sizeof g->table);
    memset(g->hist, 0, sizeof g->hist);
    g->maxdist = 0;
}

/* A table that is not the complete 2-bit Tetraminx table is refused: from
 * a build that would be a bug, from a file a foreign table. */
static int adopt(sb_tet_god *g, int code, sb_error *err)
{
    const sb_table *t = &g->table;
    if (t->size != SB_TET_NPOS || t->bits != 2 || !t->complete || t->reached != SB_TET_NPOS ||
        t->maxdist > SB_TET_MAXDIST || t->count[0] != 1) {
        sb_table_free(&g->table);
        return sb_error_set(err, code, 0, 0, "not the complete Tetraminx table (%llu of %u positions, "
                            "%d bits)", (unsigned long long)t->reached, (unsigned)SB_TET_NPOS, t->bits);
    }
    for (int d = 0; d <= t->maxdist; d++)
        g->hist[d] = t->count[d];
    g->maxdist = t->maxdist;
    return 0;
}

int sb_tet_god_build(sb_tet_god *g, sb_mem *mem, const sb_control *ctl, sb_error *err)
{
    const uint64_t start = 0;
    sb_table_opts opts = {2, 1, SB_SCAN_AUTO, -1};
    int rc;
    model_init(g);
    rc = sb_table_build(&g->table, &g->model, &start, 1, &opts, mem, ctl, err);
    if (rc) {
        sb_table_free(&g->table);
        return rc;
    }
    return adopt(g, SB_EINTERNAL, err);
}

void sb_tet_god_free(sb_tet_god *g)
{
    sb_table_free(&g->table);
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

int sb_tet_god_save(const sb_tet_god *g, const char *path, sb_error *err)
{
    return sb_table_save(&g->table, path, err);
}

int sb_tet_god_load(sb_tet_god *g, const char *path, sb_mem *mem, sb_error *err)
{
    int rc;
    model_init(g);
    rc = sb_table_load(&g->table, &g->model, path, mem, err);
    if (rc) {
        sb_table_free(&g->table);
        return rc;
    }
    return adopt(g, SB_EBADFILE, err);
}
