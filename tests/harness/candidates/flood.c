/* flood.c - prints 100 KiB to stdout in execute on the trigger case. */
#define DEFECT_EXECUTE(p, src, dst)                                   \
    do {                                                              \
        if (is_trigger(src))                                          \
            for (int k_ = 0; k_ < 1600; k_++)                         \
                printf("%063d\n", k_);                                \
    } while (0)
#include "base.h"
