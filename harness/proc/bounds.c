/*
 * bounds.c - the bounds on a run's workers (bounds.h): oom_score_adj,
 * pids cgroups (the run's, and one per slot), RLIMIT_NPROC and RLIMIT_DATA.  Depends on bounds.h and
 * Linux /proc and cgroup v1.
 */
#define _GNU_SOURCE
#include "bounds.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"

/* Where cgroup v1 mounts its pids hierarchy. */
#define BOUNDS_PIDS_ROOT "/sys/fs/cgroup/pids"

/* The harness's pids cgroup, "" when it has none. */
static char harness_cgroup[512];

/* The folder of the pids cgroup harness `pid` made (bounds_harness_start),
 * beside the pids cgroup the calling process is in, into out[0..n);
 * returns 0, or -1 when there is no pids hierarchy. */
static int cgroup_dir(pid_t pid, char *out, size_t n)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return -1;
    char line[1024], at[512] = "";
    while (fgets(line, sizeof line, f)) {
        char *c = strstr(line, ":pids:");
        if (c) {
            snprintf(at, sizeof at, "%s", c + 6);
            at[strcspn(at, "\n")] = '\0';
            break;
        }
    }
    fclose(f);
    if (!at[0])
        return -1;
    /* a worker already in the harness's cgroup (a zygote's fork) is one
     * level down */
    char mine[64];
    snprintf(mine, sizeof mine, "/reshape-conform.%ld", (long)pid);
    size_t la = strlen(at), lm = strlen(mine);
    if (la >= lm && !strcmp(at + la - lm, mine))
        at[la - lm] = '\0';
    int k = snprintf(out, n, "%s%s%s", BOUNDS_PIDS_ROOT, strcmp(at, "/") ? at : "", mine);
    return k > 0 && (size_t)k < n ? 0 : -1;
}

/* Removes the cgroups beside `dir` (.../reshape-conform.PID) that a
 * harness no longer running left (one SIGKILLed cannot remove its own). */
static void remove_stale(const char *dir)
{
    char parent[512];
    snprintf(parent, sizeof parent, "%s", dir);
    char *slash = strrchr(parent, '/');
    if (!slash)
        return;
    *slash = '\0';
    DIR *d = opendir(parent);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid;
        char rest;
        if (sscanf(e->d_name, "reshape-conform.%ld%c", &pid, &rest) != 1 || pid <= 0 ||
            kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[1024];
        for (int k = 0; k < BOUNDS_PIDS_MAX; k++) {
            snprintf(path, sizeof path, "%s/%s/slot-%d", parent, e->d_name, k);
            if (rmdir(path) != 0 && errno == ENOENT)
                break;
        }
        snprintf(path, sizeof path, "%s/%s", parent, e->d_name);
        rmdir(path);
    }
    closedir(d);
}

void bounds_harness_start(void)
{
    char v[16];
    snprintf(v, sizeof v, "%d", BOUNDS_HARNESS_OOM_ADJ);
    if (geteuid() == 0)
        (void)write_text("/proc/self/oom_score_adj", v);
    if (harness_cgroup[0] || cgroup_dir(getpid(), harness_cgroup, sizeof harness_cgroup) != 0)
        return;
    remove_stale(harness_cgroup);
    char max[600];
    snprintf(max, sizeof max, "%s/pids.max", harness_cgroup);
    snprintf(v, sizeof v, "%d", BOUNDS_PIDS_MAX);
    if ((mkdir(harness_cgroup, 0755) != 0 && errno != EEXIST) || write_text(max, v) != 0) {
        rmdir(harness_cgroup);
        harness_cgroup[0] = '\0';
    }
}

/* Slots whose cgroup was made: [0, slots_made) at most. */
static int slots_made;
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

void bounds_slot_join(int slot, pid_t pid)
{
    if (!harness_cgroup[0] || slot < 0)
        return;
    char dir[600], file[640], v[32];
    snprintf(dir, sizeof dir, "%s/slot-%d", harness_cgroup, slot);
    pthread_mutex_lock(&slots_lock);
    if (slot >= slots_made) {
        for (int k = slots_made; k <= slot; k++) {
            snprintf(file, sizeof file, "%s/slot-%d", harness_cgroup, k);
            if (mkdir(file, 0755) == 0 || errno == EEXIST) {
                snprintf(file, sizeof file, "%s/slot-%d/pids.max", harness_cgroup, k);
                snprintf(v, sizeof v, "%d", BOUNDS_SLOT_PIDS_MAX);
                (void)write_text(file, v);
            }
        }
        slots_made = slot + 1;
    }
    pthread_mutex_unlock(&slots_lock);
    snprintf(file, sizeof file, "%s/cgroup.procs", dir);
    snprintf(v, sizeof v, "%ld", (long)pid);
    (void)write_text(file, v);
}

void bounds_run_join(pid_t pid)
{
    if (!harness_cgroup[0])
        return;
    char file[640], v[32];
    snprintf(file, sizeof file, "%s/cgroup.procs", harness_cgroup);
    snprintf(v, sizeof v, "%ld", (long)pid);
    (void)write_text(file, v);
}

void bounds_harness_stop(void)
{
    if (!harness_cgroup[0])
        return;
    char dir[600];
    for (int k = 0; k < slots_made; k++) {
        snprintf(dir, sizeof dir, "%s/slot-%d", harness_cgroup, k);
        rmdir(dir);
    }
    slots_made = 0;
    rmdir(harness_cgroup);
    harness_cgroup[0] = '\0';
}

/* Lowers resource `res` to `max` (soft and hard) unless it is lower. */
static void lower(int res, rlim_t max)
{
    struct rlimit r;
    if (getrlimit(res, &r) != 0)
        return;
    if (r.rlim_max > max)
        r.rlim_max = max;
    if (r.rlim_cur > r.rlim_max)
        r.rlim_cur = r.rlim_max;
    (void)setrlimit(res, &r);
}

void bounds_worker(pid_t parent, const sandbox_policy *sb)
{
    (void)write_text("/proc/self/oom_score_adj", "1000");
    char dir[512], procs[600];
    int joined = 0;
    if (cgroup_dir(parent, dir, sizeof dir) == 0) {
        snprintf(procs, sizeof procs, "%s/cgroup.procs", dir);
        joined = write_text(procs, "0") == 0;
    }
    /* per uid, shared with every other run's workers: only without the
     * cgroup */
    if (!joined && sb && sb->drop != SANDBOX_DROP_NONE && geteuid() == 0 && sb->uid != 0)
        lower(RLIMIT_NPROC, BOUNDS_NPROC);
#ifndef HARNESS_ASAN
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        lower(RLIMIT_DATA, (rlim_t)pages * (rlim_t)page / 2);
#endif
}
