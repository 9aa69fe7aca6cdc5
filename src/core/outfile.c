/* Writing a file whole or not at all: see outfile.h.  The rename is what
 * makes it so: POSIX rename replaces its target in one step, so a reader
 * (or a later run) finds either the old file or the new one, whole. */
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

int sb_outfile_open(sb_outfile *o, const char *path, sb_error *err)
{
    struct stat st;
    memset(o, 0, sizeof *o);
    o->path = path;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(EISDIR));
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        o->f = fopen(path, "wb");
    } else {
        sb_outfile_sweep(path);
        if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%s.%ld.tmp", path, (long)getpid()) >=
            sizeof o->tmp)
            return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(ENAMETOOLONG));
        o->f = fopen(o->tmp, "wb");
    }
    if (!o->f)
        return sb_error_set(err, SB_EIO, 0, 0, "%s: %s", path, strerror(errno));
    return 0;
}

int sb_outfile_close(sb_outfile *o, int failed, sb_error *err)
{
    int e = failed ? errno : 0;
    if (fclose(o->f) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    o->f = NULL;
    if (!failed && o->tmp[0] && rename(o->tmp, o->path) != 0) {
        failed = 1;
        e = errno;
    }
    if (!failed)
        return 0;
    if (o->tmp[0])
        remove(o->tmp);
    return sb_error_set(err, SB_EIO, 0, 0, "%s: cannot write: %s", o->path,
                        e ? strerror(e) : "short write");
}

/* A name NAME.DIGITS.tmp beside PATH's NAME: the PID, else 0. */
static long tmp_pid(const char *entry, const char *base, size_t blen)
{
    const char *p = entry + blen + 1;
    long pid = 0;
    if (strncmp(entry, base, blen) != 0 || entry[blen] != '.' || *p < '0' || *p > '9')
        return 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (pid > 99999999)
            return 0;
        pid = pid * 10 + (*p - '0');
    }
    return strcmp(p, ".tmp") == 0 ? pid : 0;
}

void sb_outfile_sweep(const char *path)
{
    char dir[4096], victim[4096];
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    size_t blen = strlen(base);
    struct dirent *e;
    DIR *d;
    if (slash) {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        if (n >= sizeof dir)
            return;
        memcpy(dir, path, n);
        dir[n] = 0;
    } else
        strcpy(dir, ".");
    if (!blen || !(d = opendir(dir)))
        return;
    while ((e = readdir(d)) != NULL) {
        long pid = tmp_pid(e->d_name, base, blen);
        /* kill(pid, 0) probes without sending anything: ESRCH means no such
         * process (EPERM: one that runs under another user, left alone) */
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if ((size_t)snprintf(victim, sizeof victim, "%s/%s", dir, e->d_name) < sizeof victim)
            remove(victim);
    }
    closedir(d);
}
