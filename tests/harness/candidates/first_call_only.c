/*
 * first_call_only.c - right on the first infer_shape or execute call of its
 * process and dead (SIGSEGV) on every later one: a candidate whose process
 * is spoiled by its first call.  Verdicts that depend on the request
 * alone (a request that died in a process an earlier request touched runs
 * again alone in a fresh one) make it conformant, whatever the batches.
 * Its constructor logs each load (load_log.h).
 */
#include "load_log.h"

static int calls, inner;

__attribute__((constructor)) static void loaded(void)
{
    load_log();
}

/* execute infers first: that inference is no call of its own */
#define SPOILED() \
    do { if (++calls > 1) *(volatile int *)(uintptr_t)0 = 1; } while (0)
#define DEFECT_EXECUTE(p, src, dst) do { SPOILED(); inner = 1; } while (0)
#define DEFECT_INFER(p, src, rank, dims) \
    do { if (inner) inner = 0; else SPOILED(); } while (0)
#include "base.h"
