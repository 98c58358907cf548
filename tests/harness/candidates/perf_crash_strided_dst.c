/* perf_crash_strided_dst.c - dereferences NULL in execute whenever dst has
 * strides: the perf profile's strided_dst points crash, the rest run. */
#define DEFECT_EXECUTE(p, src, dst) \
    do { if ((dst)->strides) *(volatile int *)(uintptr_t)0 = 1; } while (0)
#include "base.h"
