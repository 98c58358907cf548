/*
 * first_call_only.c - right on the first infer_shape or execute call of its
 * process and dead (SIGSEGV) on every later one: a candidate whose process
 * is spoiled by its first call.  Verdicts that depend on the request
 * alone (a request that died in a process an earlier request touched runs
 * again alone in a fresh one) make it conformant, whatever the batches.
 * With RESHAPE_TEST_CTOR_LOG set, its constructor appends its pid to that
 * file, so that a test counts the processes that loaded it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int calls, inner;

__attribute__((constructor)) static void loaded(void)
{
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

/* execute infers first: that inference is no call of its own */
#define SPOILED() \
    do { if (++calls > 1) *(volatile int *)(uintptr_t)0 = 1; } while (0)
#define DEFECT_EXECUTE(p, src, dst) do { SPOILED(); inner = 1; } while (0)
#define DEFECT_INFER(p, src, rank, dims) \
    do { if (inner) inner = 0; else SPOILED(); } while (0)
#include "base.h"
