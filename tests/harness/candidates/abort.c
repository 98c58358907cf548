/* abort.c - abort()s in execute on the trigger case, after a message. */
#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src)) { fputs("assertion failed: trigger\n", stderr); abort(); } } while (0)
#include "base.h"
