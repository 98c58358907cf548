/*
 * ctor_thread.c - its constructor starts a thread that waits for good (a
 * library that starts its pool when it is loaded), and execute dies
 * (SIGSEGV) on the trigger case.  A fork would lack the thread, so the
 * harness spawns each worker and has it load the candidate.  Its
 * constructor logs each load (load_log.h).
 */
#include <pthread.h>

#include "load_log.h"

static void *wait_for_good(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

__attribute__((constructor)) static void loaded(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, wait_for_good, NULL) == 0)
        pthread_detach(t);
    load_log();
}

#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src)) *(volatile int *)(uintptr_t)0 = 1; } while (0)
#include "base.h"
