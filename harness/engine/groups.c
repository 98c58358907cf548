/*
 * groups.c - killing the engine's process groups when the harness is
 * interrupted (groups.h).  Depends on POSIX signals and C11 atomics.
 */
#define _GNU_SOURCE
#include "groups.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

/* Group leaders; 0 is a free place.  Lock-free, for the signal handler. */
#define GROUPS_MAX 1024
static _Atomic int leaders[GROUPS_MAX];

void groups_add(pid_t pid)
{
    for (int k = 0; k < GROUPS_MAX; k++) {
        int free_place = 0;
        if (atomic_compare_exchange_strong(&leaders[k], &free_place, (int)pid))
            return;
    }
}

void groups_remove(pid_t pid)
{
    for (int k = 0; k < GROUPS_MAX; k++) {
        int mine = (int)pid;
        if (atomic_compare_exchange_strong(&leaders[k], &mine, 0))
            return;
    }
}

static void on_interrupt(int sig)
{
    for (int k = 0; k < GROUPS_MAX; k++) {
        int g = atomic_load(&leaders[k]);
        if (g > 0)
            kill(-g, SIGKILL);
    }
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
