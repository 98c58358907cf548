/* accept_huge_shape.c - infer_shape accepts err_volume's shape and says its
 * output is [2^40]: no run stages a dst that large, so the follow-up
 * execute is not tried, and the infer entry says why. */
#define DEFECT_ACCEPT_VOLUME_MISMATCH 1
#define DEFECT_INFER(p, in, out_r, out_d)                                   \
    do {                                                                   \
        if (volume(*out_r, out_d) != volume(in->rank, in->dims)) {         \
            *out_r = 1;                                                    \
            out_d[0] = (int64_t)1 << 40;                                   \
        }                                                                  \
    } while (0)
#include "base.h"
