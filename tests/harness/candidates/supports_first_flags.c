/* supports_first_flags.c - supports() knows only the layout flags of the
 * first ABI (STRIDED_SRC, STRIDED_DST, IN_PLACE) and refuses any other, as
 * a candidate built before BROADCAST_SRC and SIZE1_STRIDES does: those
 * runs are skips and the run stays conformant. */
#define DEFECT_SUPPORTS(op, d, s, layout)                                           \
    do {                                                                            \
        if (layout & ~(RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_STRIDED_DST |    \
                       RESHAPE_LAYOUT_IN_PLACE))                                    \
            return RESHAPE_E_NOT_SUPPORTED;                                         \
    } while (0)
#include "base.h"
