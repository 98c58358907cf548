/*
 * signals_by_fd_owner.c - its constructor, which runs in the zygote, keeps
 * the zygote's pid and logs the load (load_log.h); execute on the trigger
 * case makes that pid the owner of a pipe whose signal is SIGKILL
 * (fcntl F_SETOWN, F_SETSIG, O_ASYNC) and writes to it: the kernel would
 * send the signal, which no kill rule of the filter sees.  The sandbox's
 * observer stops the worker at the F_SETOWN; the zygote serves on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include "load_log.h"

static pid_t loader;

__attribute__((constructor)) static void loaded(void)
{
    loader = getpid();
    load_log();
}

static void signal_loader(void)
{
    int p[2];
    if (pipe(p) != 0)
        return;
    if (fcntl(p[0], F_SETOWN, loader) == 0 && fcntl(p[0], F_SETSIG, SIGKILL) == 0 &&
        fcntl(p[0], F_SETFL, O_ASYNC) == 0 && write(p[1], "x", 1) != 1) {
        /* the write is the signal's trigger; its result does not matter */
    }
    close(p[0]);
    close(p[1]);
}

#define DEFECT_EXECUTE(p, src, dst) \
    do { \
        if (is_trigger(src) && getpid() != loader) \
            signal_loader(); \
    } while (0)
#include "base.h"
