/*
 * groups.c - killing the engine's process groups when the harness is
 * interrupted (groups.h).  Depends on POSIX signals and threads and C11
 * atomics.
 */
#define _GNU_SOURCE
#include "groups.h"
#include "base/base.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/* Group leaders; 0 is a free place.  Read lock-free, by the signal
 * handler too. */
#define GROUPS_MAX 4096
static _Atomic int leaders[GROUPS_MAX];
/* claims are made one at a time, so that two never register one pid */
static pthread_mutex_t claiming = PTHREAD_MUTEX_INITIALIZER;

/* A pid no group kill may name: none, init, the harness or its group. */
static int never_killed(pid_t pid)
{
    return pid <= 1 || pid == getpid() || pid == getpgrp();
}

int groups_claim(pid_t pid)
{
    if (never_killed(pid))
        return -1;
    int rc = -1;
    pthread_mutex_lock(&claiming);
    int k, free_at = -1;
    for (k = 0; k < GROUPS_MAX; k++) {
        int g = atomic_load(&leaders[k]);
        if (g == (int)pid)
            break;
        if (g == 0 && free_at < 0)
            free_at = k;
    }
    if (k == GROUPS_MAX) {
        rc = free_at < 0 ? -2 : 0;
        if (free_at >= 0)
            atomic_store(&leaders[free_at], (int)pid);
    }
    pthread_mutex_unlock(&claiming);
    return rc;
}

void groups_remove(pid_t pid)
{
    for (int k = 0; k < GROUPS_MAX; k++) {
        int mine = (int)pid;
        if (atomic_compare_exchange_strong(&leaders[k], &mine, 0))
            return;
    }
}

/* The scratch folder the handler removes: written while `scratch_set` is
 * 0, read by the handler only while it is 1. */
static char scratch[PATH_MAX];
static atomic_int scratch_set;

void groups_scratch(const char *dir)
{
    atomic_store(&scratch_set, 0);
    if (dir && strlen(dir) < sizeof scratch) {
        memcpy(scratch, dir, strlen(dir) + 1);
        atomic_store(&scratch_set, 1);
    }
}

static void on_interrupt(int sig)
{
    util_interrupting = sig;   /* a thread that dies of our kills waits */
    for (int k = 0; k < GROUPS_MAX; k++) {
        int g = atomic_load(&leaders[k]);
        if (g > 0 && !never_killed(g))
            kill(-g, SIGKILL);
    }
    /* rmdir is async-signal-safe; a folder with files in it stays */
    if (atomic_load(&scratch_set))
        rmdir(scratch);
    signal(sig, SIG_DFL);
    raise(sig);
}

void groups_watch(void)
{
    static atomic_flag done = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&done))
        return;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_interrupt;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}
