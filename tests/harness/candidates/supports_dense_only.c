/* supports_dense_only.c - supports() refuses every strided and in-place
 * layout: those runs are skips, the dense ones pass, and the run is
 * conformant (a layout is a capability the candidate may lack). */
#define DEFECT_SUPPORTS(op, d, s, layout)       \
    do {                                        \
        if (layout != 0)                        \
            return RESHAPE_E_NOT_SUPPORTED;     \
    } while (0)
#include "base.h"
