/*
 * kills_zygote.c - its constructor, which runs in the zygote, keeps the
 * zygote's pid; execute on the trigger case sends it SIGKILL (a library
 * that cached getpid() when it was loaded and signals "itself" later),
 * then dies (SIGSEGV).  The sandbox stops the kill; without the sandbox
 * the zygote dies, and the harness starts another for the next worker.
 */
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

static pid_t loader;

__attribute__((constructor)) static void loaded(void)
{
    loader = getpid();
}

#define DEFECT_EXECUTE(p, src, dst) \
    do { \
        if (is_trigger(src) && getpid() != loader) { \
            kill(loader, SIGKILL); \
            *(volatile int *)(uintptr_t)0 = 1; \
        } \
    } while (0)
#include "base.h"
