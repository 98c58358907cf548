/* not_supported_reason.c - supports() refuses u4 and execute refuses a
 * strided dst, each with a last_error saying why: the skips must carry
 * those reasons and be grouped by them. */
static const char *why;

static const char *cand_last_error(void)
{
    return why;
}

#define DEFECT_SUPPORTS(op, d, s, layout)             \
    do {                                              \
        if (d == RESHAPE_DT_U4) {                     \
            why = "no 4-bit kernels";                 \
            return RESHAPE_E_NOT_SUPPORTED;           \
        }                                             \
    } while (0)
#define DEFECT_EXECUTE(p, src, dst)                   \
    do {                                              \
        if (dst->strides) {                           \
            why = "strided dst: only dense outputs";  \
            return RESHAPE_E_NOT_SUPPORTED;           \
        }                                             \
    } while (0)
#define CAND_LAST_ERROR cand_last_error
#include "base.h"
