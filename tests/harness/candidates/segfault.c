/* segfault.c - dereferences NULL in execute on the trigger case. */
#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src)) *(volatile int *)(uintptr_t)0 = 1; } while (0)
#include "base.h"
