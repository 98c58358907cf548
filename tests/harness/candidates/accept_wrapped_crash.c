/* accept_wrapped_crash.c - as Arm NN 20.08 with a wrapped shape: infer_shape
 * accepts a shape whose volume is not the input's (err_volume: [2,3] into
 * [4]), execute refuses a dst of the input's dims (its own dst check), and
 * aborts when handed a dst of the dims it inferred, as the harness's
 * follow-up does: the infer entry must show the crash. */
#include <stdlib.h>

#define DEFECT_ACCEPT_VOLUME_MISMATCH 1
#define DEFECT_EXECUTE(p, src, dst)                                                  \
    do {                                                                             \
        int32_t r_;                                                                  \
        int64_t d_[RESHAPE_MAX_RANK];                                                \
        if (cand_infer(p, src, &r_, d_) == RESHAPE_OK && r_ == dst->rank &&          \
            !memcmp(d_, dst->dims, (size_t)r_ * sizeof *d_) &&                       \
            volume(r_, d_) != volume(src->rank, src->dims))                          \
            abort(); /* "EnqueueWorkload" */                                         \
    } while (0)
#include "base.h"
