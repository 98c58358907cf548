/*
 * ctor_thread.c - its constructor starts a thread that waits for good (a
 * library that starts its pool when it is loaded), and execute dies
 * (SIGSEGV) on the trigger case.  A fork would lack the thread, so the
 * harness spawns each worker and has it load the candidate.  With
 * RESHAPE_TEST_CTOR_LOG set, the constructor appends its pid to that file.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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
    const char *log = getenv("RESHAPE_TEST_CTOR_LOG");
    int fd = log ? open(log, O_WRONLY | O_APPEND | O_CREAT, 0644) : -1;
    if (fd < 0)
        return;
    char line[32];
    int n = snprintf(line, sizeof line, "%ld\n", (long)getpid());
    if (write(fd, line, (size_t)n) != n) {
        /* the test counts the lines it finds */
    }
    close(fd);
}

#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src)) *(volatile int *)(uintptr_t)0 = 1; } while (0)
#include "base.h"
