/* wrong_shape.c - infers the trigger case's dims in reverse order. */
#define DEFECT_INFER(p, src, rank, dims)                                 \
    do {                                                                 \
        if (is_trigger(src))                                             \
            for (int32_t a_ = 0, b_ = *rank - 1; a_ < b_; a_++, b_--) {  \
                int64_t t_ = dims[a_];                                   \
                dims[a_] = dims[b_];                                     \
                dims[b_] = t_;                                           \
            }                                                            \
    } while (0)
#include "base.h"
