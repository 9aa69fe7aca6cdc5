/* Heuristic sets: the tables of one partition, loaded from a cache folder
 * or built (and then saved).  The folder is the caller's choice; nothing
 * here looks at the environment. */
#include "np_internal.h"
#include "../core/internal.h"

#include <dirent.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void say(void (*note)(void *, const char *), void *ud, const char *fmt, const char *a,
                const char *b)
{
    char buf[1200];
    if (!note)
        return;
    snprintf(buf, sizeof buf, fmt, a, b);
    note(ud, buf);
}

static int path_of(const sb_np_pdb *p, const char *dir, char *buf, size_t n)
{
    char name[128];
    sb_np_pdb_filename(p, name, sizeof name);
    return snprintf(buf, n, "%s/%s", dir, name) < (int)n;
}

int sb_np_pdbset_open(sb_np_pdbset *s, int rows, int cols, const char *partition, const char *dir,
                      uint64_t cache_min, int threads, int verify, sb_mem *mem,
                      const sb_control *ctl, void (*note)(void *ud, const char *msg), void *ud,
                      sb_error *err)
{
    uint8_t groups[SB_NP_MAXPDB][SB_NP_PDB_MAXK];
    int size[SB_NP_MAXPDB], ng, rc = 0;
    if (!s)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_pdbset_open: s is NULL");
    memset(s, 0, sizeof *s);
    ng = sb_np_partition(rows, cols, partition, groups, size, err);
    if (ng < 0)
        return ng;
    s->heur.rows = rows;
    s->heur.cols = cols;
    s->heur.n = rows * cols;
    s->heur.reflect = rows == cols;
    for (int g = 0; g < ng; g++) {
        sb_np_pdb *p = &s->pdb[g];
        char path[4096], name[128];
        int have = 0;
        double t0;
        if ((rc = sb_np_pdb_init(p, rows, cols, groups[g], size[g], err)) != 0)
            goto fail;
        s->heur.npdb = g + 1;
        s->heur.pdb[g] = p;
        sb_np_pdb_filename(p, name, sizeof name);
        if (dir && p->size >= cache_min && path_of(p, dir, path, sizeof path)) {
            sb_error e;
            FILE *f = fopen(path, "rb");
            if (f) {
                fclose(f);
                t0 = sb_now();
                /* mapped, not read: the pages are shared and come in as
                 * the search touches them */
                rc = sb_np_pdb_map(p, path, verify ? SB_TF_VERIFY : SB_TF_TRUSTED, &e);
                if (rc == 0) {
                    have = 1;
                    s->loaded++;
                    s->load_seconds += sb_now() - t0;
                } else if (rc == SB_EBADFILE || rc == SB_EIO)
                    say(note, ud, "%s; rebuilding it%s", e.msg, "");
                else {
                    *err = e;
                    goto fail;
                }
            }
        }
        if (have)
            continue;
        if (p->size >= cache_min)
            say(note, ud, "building pattern database %s%s", name,
                dir && p->size >= cache_min ? "" : " (not cached)");
        t0 = sb_now();
        if ((rc = sb_np_pdb_build(p, mem, threads, ctl, err)) != 0)
            goto fail;
        s->build_seconds += sb_now() - t0;
        s->built++;
        if (dir && p->size >= cache_min && path_of(p, dir, path, sizeof path)) {
            sb_error e;
            if (sb_np_pdb_save(p, path, &e) != 0)
                say(note, ud, "cannot save the pattern database: %s%s", e.msg, "");
        }
    }
    for (int g = 0; g < ng; g++)
        s->bytes += s->pdb[g].size;
    return 0;
fail:
    sb_np_pdbset_close(s);
    return rc;
}

void sb_np_pdbset_close(sb_np_pdbset *s)
{
    if (!s)
        return;
    for (int g = 0; g < s->heur.npdb; g++)
        sb_np_pdb_free(&s->pdb[g]);
    s->heur.npdb = 0;
}

int sb_np_pdbset_cached(int rows, int cols, const char *partition, const char *dir)
{
    uint8_t groups[SB_NP_MAXPDB][SB_NP_PDB_MAXK];
    int size[SB_NP_MAXPDB], ng;
    if (!dir || !partition)
        return 0;
    ng = sb_np_partition(rows, cols, partition, groups, size, NULL);
    if (ng <= 0)
        return 0;
    for (int g = 0; g < ng; g++) {
        sb_np_pdb p;
        char path[4096];
        if (sb_np_pdb_init(&p, rows, cols, groups[g], size[g], NULL) != 0 ||
            !path_of(&p, dir, path, sizeof path) || !sb_np_pdb_probe(&p, path))
            return 0;
    }
    return 1;
}

int sb_np_verify_cache(const char *dir, void (*note)(void *ud, const char *msg), void *ud,
                       int *bad, sb_error *err)
{
    DIR *d;
    struct dirent *de;
    int checked = 0, nbad = 0;
    if (bad)
        *bad = 0;
    if (!dir)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_np_verify_cache: dir is NULL");
    d = opendir(dir);
    if (!d)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", dir, strerror(errno));
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        size_t n = strlen(name);
        char path[4096], why[600];
        int rc;
        if (strncmp(name, "npuzzle-", 8) != 0 || n < 12 || strcmp(name + n - 4, ".pdb") != 0)
            continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
            continue;
        checked++;
        rc = sb_np_pdb_verify_file(path, why, sizeof why);
        if (rc == 0)
            say(note, ud, "%s: ok%s", name, "");
        else {
            char mark[4200];
            nbad++;
            remove(path);
            snprintf(mark, sizeof mark, "%s.ok", path);
            remove(mark);
            say(note, ud, "%s; removed%s", why, "");
        }
    }
    closedir(d);
    if (bad)
        *bad = nbad;
    return checked;
}
