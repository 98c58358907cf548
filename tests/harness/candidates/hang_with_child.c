/*
 * hang_with_child.c - execute on the trigger case forks a child that
 * sleeps for 10 minutes, then hangs: what the child of a hung worker
 * becomes when the harness is interrupted.
 */
#include <unistd.h>

#define DEFECT_EXECUTE(p, src, dst) \
    do { \
        if (is_trigger(src)) { \
            if (fork() == 0) { \
                sleep(600); \
                _exit(0); \
            } \
            for (;;) \
                pause(); \
        } \
    } while (0)
#include "base.h"
