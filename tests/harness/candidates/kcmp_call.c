/* kcmp_call.c - execute calls kcmp(2) on the trigger case, a system call
 * the sandbox stops (harmless in itself: it compares two of the worker's
 * own file descriptors). */
#include <sys/syscall.h>
#include <unistd.h>
#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src)) syscall(SYS_kcmp, getpid(), getpid(), 0, 1, 1); } while (0)
#include "base.h"
